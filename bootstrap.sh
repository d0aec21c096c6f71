#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set up and build kjail and kli from a fresh checkout:
#
#   ./bootstrap.sh [CONFIGURE-ARGUMENT]...
#
# 1. installs the missing build, run and test dependencies (Debian and Ubuntu,
#    with apt-get, as root or through sudo; elsewhere it lists what is
#    missing and stops);
# 2. runs autoreconf when the generated files are missing or older than
#    their sources;
# 3. runs ./configure when it never ran, when configure changed, or when the
#    arguments differ from the last run (no arguments: keep the last ones);
# 4. runs make.
# Every step is skipped when there is nothing to do, so a second run costs a
# few dpkg-query and make checks.
#
# With CI=true, configure also gets --enable-werror: warnings fail the CI
# build, where the compiler is known, but never a user's build with a newer
# compiler that warns about more.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

say() { printf 'bootstrap: %s\n' "$*"; }
fail() { printf 'bootstrap: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- packages
# Debian package names. openssh-server is for the tests (kjail-ssh.test
# starts an sshd of its own); bootstrap never leaves the host's sshd
# running or enabled (no_host_services). nix-bin is for the Nix packaging; libclang-rt-dev
# carries clang's libFuzzer and sanitizer runtimes; ccache, golang-go,
# python3-pip and python3-wheel let kjail-cache.test run its ccache, go and
# pip cases (its node-gyp case uses node where one is installed); podman,
# crun and containers-common's default seccomp profile let
# container-podman.test run the container recipe under Podman's default
# profile (rootful, with a storage of its own; uidmap for a user's rootless
# podman). All are installed where the distribution has them and skipped
# (with a note) where it has not.
DEB_REQUIRED=(
	build-essential autoconf automake libtool pkg-config
	bubblewrap libbsd-dev libinih-dev libseccomp-dev libcmocka-dev
	libjansson-dev libcurl4-openssl-dev clang mandoc git iproute2
	util-linux procps python3 strace gdb jq
	python3-jsonschema openssh-client openssh-server
)
DEB_OPTIONAL=(libclang-rt-dev nix-bin zsh fish ccache golang-go python3-pip python3-wheel
	podman crun golang-github-containers-common uidmap)

# What the build needs, for systems without dpkg: commands, pkg-config modules.
TOOLS=(cc make autoreconf aclocal automake pkg-config bwrap mandoc git python3)
PC_MODULES=(libbsd-overlay inih libseccomp cmocka jansson libcurl)

deb_missing() {
	local installed
	installed=$(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null |
		awk '$NF == "installed" && $(NF-1) == "ok" { print $1 }') || true
	local p
	for p in "$@"; do
		grep -qxF "$p" <<<"$installed" || printf '%s\n' "$p"
	done
}

has_candidate() {
	local c
	c=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	[ -n "$c" ] && [ "$c" != "(none)" ]
}

# A package that ships a service, just installed for the tests: the
# service is not enabled at boot and not running (Debian's packages enable
# and start theirs). Only for a package bootstrap installed: a user's own
# sshd or podman socket is theirs. service_units PACKAGE: its units.
service_units() {
	case $1 in
	openssh-server) echo ssh.service ssh.socket ;;
	podman) echo podman.service podman.socket podman-restart.service \
		podman-auto-update.service podman-auto-update.timer ;;
	esac
}
no_host_services() {
	local sudo=() p units
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	for p in "$@"; do
		units=$(service_units "$p")
		[ -n "$units" ] || continue
		if command -v systemctl >/dev/null 2>&1; then
			# shellcheck disable=SC2086 # a list of unit names
			"${sudo[@]}" systemctl disable $units >/dev/null 2>&1 || true
			# shellcheck disable=SC2086
			"${sudo[@]}" systemctl stop $units >/dev/null 2>&1 || true
		fi
		if [ "$p" = openssh-server ]; then
			if command -v update-rc.d >/dev/null 2>&1; then
				"${sudo[@]}" update-rc.d ssh disable >/dev/null 2>&1 || true
			fi
			"${sudo[@]}" sh -c '[ ! -x /etc/init.d/ssh ] || /etc/init.d/ssh stop' >/dev/null 2>&1 || true
		fi
		say "dependencies: $p installed for the tests; its services are disabled and stopped"
	done
}

install_debian() {
	local missing optional_missing to_install=() skipped=() p
	mapfile -t missing < <(deb_missing "${DEB_REQUIRED[@]}")
	mapfile -t optional_missing < <(deb_missing "${DEB_OPTIONAL[@]}")
	if [ ${#missing[@]} -eq 0 ] && [ ${#optional_missing[@]} -eq 0 ]; then
		say "dependencies: all $(( ${#DEB_REQUIRED[@]} + ${#DEB_OPTIONAL[@]} )) packages installed"
		return
	fi

	local sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo=(sudo)
		elif [ ${#missing[@]} -gt 0 ]; then
			fail "missing packages: ${missing[*]}; run as root, or install them: apt-get install ${missing[*]}"
		fi
	fi

	# An optional package is looked for in the package lists as they are;
	# the lists are refreshed only when something is going to be installed.
	local need_update=$(( ${#missing[@]} > 0 ))
	for p in "${optional_missing[@]}"; do
		if has_candidate "$p"; then
			to_install+=("$p")
			need_update=1
		else
			skipped+=("$p")
		fi
	done
	if [ "$need_update" -eq 0 ]; then
		say "dependencies: all required packages installed (${skipped[*]} not available here, skipped)"
		return
	fi
	if [ "$(id -u)" -ne 0 ] && [ ${#sudo[@]} -eq 0 ]; then
		say "dependencies: all required packages installed; optional ${to_install[*]} need root, skipped"
		return
	fi

	local all=(${missing[@]+"${missing[@]}"} ${to_install[@]+"${to_install[@]}"})
	say "dependencies: installing ${all[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get update -qq >/dev/null || fail "apt-get update failed"
	local again=()
	for p in "${skipped[@]}"; do
		if has_candidate "$p"; then to_install+=("$p"); else again+=("$p"); fi
	done
	[ ${#again[@]} -eq 0 ] || say "dependencies: ${again[*]} not available here, skipped"
	local log services=() rcd=/usr/sbin/policy-rc.d
	log=$(mktemp)
	for p in "${all[@]}"; do
		[ -z "$(service_units "$p")" ] || services+=("$p")
	done
	# Debian starts a service on install: policy-rc.d (exit 101) forbids it,
	# unless the host has a policy of its own, which then decides
	if [ ${#services[@]} -gt 0 ] && [ ! -e "$rcd" ]; then
		printf '#!/bin/sh\n# kjail bootstrap: start no service while installing\nexit 101\n' |
			"${sudo[@]}" tee "$rcd" >/dev/null && "${sudo[@]}" chmod 755 "$rcd" || rcd=
	else
		rcd=
	fi
	local rc=0
	"${sudo[@]}" apt-get install -y -q --no-install-recommends "${all[@]}" >"$log" 2>&1 || rc=$?
	[ -z "$rcd" ] || "${sudo[@]}" rm -f "$rcd"
	if [ "$rc" -ne 0 ]; then
		tail -n 30 "$log" >&2
		rm -f "$log"
		fail "apt-get install failed: ${all[*]}"
	fi
	rm -f "$log"
	[ ${#services[@]} -eq 0 ] || no_host_services "${services[@]}"
	mapfile -t missing < <(deb_missing "${DEB_REQUIRED[@]}")
	[ ${#missing[@]} -eq 0 ] || fail "still missing after apt-get install: ${missing[*]}"
}

check_generic() {
	local missing=() t m
	for t in "${TOOLS[@]}"; do
		command -v "$t" >/dev/null 2>&1 || missing+=("command $t")
	done
	if command -v pkg-config >/dev/null 2>&1; then
		for m in "${PC_MODULES[@]}"; do
			pkg-config --exists "$m" || missing+=("pkg-config module $m")
		done
	fi
	if [ ${#missing[@]} -gt 0 ]; then
		printf 'bootstrap: missing (this system has no apt-get; install them with its package manager):\n' >&2
		printf '  %s\n' "${missing[@]}" >&2
		printf 'bootstrap: on Debian or Ubuntu the packages are: %s\n' "${DEB_REQUIRED[*]}" >&2
		exit 1
	fi
	command -v clang >/dev/null 2>&1 || say "note: clang not found; the libFuzzer harnesses will not be built"
	say "dependencies: all found (no apt-get here; checked commands and pkg-config modules)"
}

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
	install_debian
else
	check_generic
fi

# --------------------------------------------------------------- autoreconf
# configure comes from configure.ac and m4/; Makefile.in from Makefile.am and
# the fragments it includes (which make itself also regenerates, so they are
# compared with Makefile.in, not with configure).
stale_generated() {
	local f
	for f in configure Makefile.in config.h.in build-aux/tap-driver.sh; do
		[ -e "$f" ] || return 0
	done
	[ -n "$(find configure.ac m4 -newer configure 2>/dev/null | head -n 1)" ] && return 0
	[ -n "$(find . \( -path ./.git -o -path './build-*' -o -path './_build' -o -path './kjail-*' \) -prune \
		-o \( -name Makefile.am -o -name '*.mk' \) -newer Makefile.in -print 2>/dev/null | head -n 1)" ] &&
		return 0
	return 1
}
if stale_generated; then
	say "autoreconf -fi"
	mkdir -p m4 # git keeps no empty directory, and aclocal warns without it
	autoreconf -fi
else
	say "autoreconf: generated files are up to date"
fi

# ---------------------------------------------------------------- configure
# ${a[@]+"${a[@]}"}: an empty array under set -u, also in bash 3 (macOS).
args=("$@")
if [ "${CI:-}" = true ]; then
	werror=yes
	for a in ${args[@]+"${args[@]}"}; do
		case $a in --enable-werror* | --disable-werror) werror=no ;; esac
	done
	[ "$werror" = no ] || args+=(--enable-werror)
fi

run_configure() {
	say "./configure${*:+ $*}"
	local out
	out=$(mktemp)
	if ! ./configure "$@" >"$out" 2>&1; then
		cat "$out" >&2
		rm -f "$out"
		fail "configure failed (see config.log)"
	fi
	# Keep configure's own notices and warnings, drop the checking lines.
	grep -E '^configure: ' "$out" || true
	rm -f "$out"
}

if [ ! -x config.status ] || [ ! -f Makefile ]; then
	run_configure ${args[@]+"${args[@]}"}
else
	prev=()
	eval "prev=($(./config.status --config))"
	if [ ${#args[@]} -eq 0 ]; then
		args=(${prev[@]+"${prev[@]}"}) # no arguments: keep the last configuration
	fi
	if [ "${args[*]:-}" != "${prev[*]:-}" ] || [ configure -nt config.status ]; then
		run_configure ${args[@]+"${args[@]}"}
	else
		say "configure: up to date${prev[*]:+ (${prev[*]})}"
	fi
fi

# --------------------------------------------------------------------- make
jobs=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
say "make -j$jobs"
make -j"$jobs"
