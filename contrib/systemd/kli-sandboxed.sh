#!/bin/sh
# SPDX-License-Identifier: MIT
# kli-sandboxed.sh [KLI-ARG]...: run kli, inside kjail, inside a transient
# systemd user unit whose own sandbox makes the whole file system read-only
# (ProtectSystem=strict, ProtectHome=read-only) except the current
# directory: two independent boundaries, set up by two different programs.
#
#   cd ~/src/project && kli-sandboxed.sh -p "make the tests pass"
#
# Environment:
#   KJAIL, KLI       the programs (default: kjail and kli on PATH)
#   KJAIL_ARGS       extra kjail options, for example "-n" (word-split)
#   KLI_UNIT_MEMORY  MemoryMax= of the unit (default 8G)
#   KLI_UNIT_TASKS   TasksMax= of the unit (default 1024)
#   KLI_UNIT_TIME    RuntimeMaxSec= of the unit (default 4h)
#   KLI_NO_KJAIL=1   only the systemd sandbox (where bwrap cannot run)
#
# Needs systemd 247 or later, a user session (systemctl --user works) and
# unprivileged user namespaces: the user manager builds the sandbox in one,
# as bwrap does. Everything the unit can write: the current directory, its
# own /tmp, and kli's cache directory (for the fault log).
set -eu

me='kli-sandboxed'
ws=$(pwd -P)
kjail=${KJAIL:-kjail}
kli=${KLI:-kli}
cache=${XDG_CACHE_HOME:-$HOME/.cache}
mkdir -p "$cache/kli"

command -v systemd-run >/dev/null 2>&1 || {
	echo "$me: systemd-run not found: this recipe needs systemd" >&2
	exit 125
}
kli_path=$(command -v "$kli") || { echo "$me: $kli not found on PATH" >&2; exit 127; }
if [ "${KLI_NO_KJAIL:-0}" = 1 ]; then
	set -- "$kli_path" "$@"
else
	kjail_path=$(command -v "$kjail") || { echo "$me: $kjail not found on PATH" >&2; exit 127; }
	# shellcheck disable=SC2086 # KJAIL_ARGS is a list of options
	set -- "$kjail_path" ${KJAIL_ARGS:-} -- "$kli_path" "$@"
fi

pty=--pty
[ -t 0 ] && [ -t 1 ] || pty=--pipe

# The unit starts with a clean environment: pass what kli and the shell
# tools need, nothing else (an API key belongs in api-key-file).
exec systemd-run --user --quiet --wait --collect "$pty" --same-dir \
	--unit="kli-$$" --description="kli in $ws" \
	-p ProtectSystem=strict \
	-p ProtectHome=read-only \
	-p ReadWritePaths="$ws" \
	-p ReadWritePaths="$cache/kli" \
	-p PrivateTmp=yes \
	-p NoNewPrivileges=yes \
	-p RestrictSUIDSGID=yes \
	-p LockPersonality=yes \
	-p MemoryMax="${KLI_UNIT_MEMORY:-8G}" \
	-p TasksMax="${KLI_UNIT_TASKS:-1024}" \
	-p RuntimeMaxSec="${KLI_UNIT_TIME:-4h}" \
	-E PATH="$PATH" \
	-E HOME="$HOME" \
	-E LANG="${LANG:-C.UTF-8}" \
	-E TERM="${TERM:-dumb}" \
	-E XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$HOME/.config}" \
	-E XDG_CACHE_HOME="$cache" \
	-- "$@"
