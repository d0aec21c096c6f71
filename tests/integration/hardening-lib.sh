# SPDX-License-Identifier: MIT
# hardening-lib.sh: TAP output, fixtures and the probe tables shared by
# tests/integration/hardening-*.test (issue 4: the seccomp filter and the
# Landlock scopes).
#
# How a rule is tested: tests/helpers/try-syscall attempts one system call
# and prints one word (OK or an errno name). The same list of probes runs
#   out   on the host, without kjail,
#   ns    on the host inside a throwaway "unshare -Urmp --fork" (a new user,
#         mount and PID namespace, where the caller holds every capability
#         over them: an unprivileged caller's EPERM on the host becomes the
#         call's real answer there),
#   in    inside kjail,
# and each probe is judged on the exact word it printed inside kjail. A rule
# counts as shown to come from the jail only when a baseline answered
# differently; when both baselines gave the same errno too (an unprivileged
# caller: swapoff, acct, syslog check capabilities of the initial user
# namespace), the test line says so instead of pretending.
# What each system call must answer is one table,
# tests/integration/hardening-syscalls.table, for every ABI and mode: the
# tests make their probes from its rows (hs_table_probes), and
# hardening-bpf.test evaluates the rows against kjail's BPF programs.
#
# POSIX sh, no "set -e"; tap.sh holds the TAP output, background jobs and
# cleanup it shares with lib.sh; each script prints its plan at the end.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/tap.sh"
TRY=$HELPERS/try-syscall
HS_TIMEOUT=${HS_TIMEOUT:-20}

# --- fixtures -------------------------------------------------------------------
# hs_init NAME: $WORK (outside /tmp: the jail's /tmp is private), with
#   $WS    the workspace (kjail -C), writable inside the jail
#   $CONF  kjail's policy file (outside the workspace: kjail refuses a
#          config the jail could rewrite); empty [sandbox], so the machine's
#          /etc/kjail and ~/.config/kjail take no part
#   HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR inside $WORK
# and remove it all on exit.
hs_init() {
	_base=$top_builddir/tests/integration
	mkdir -p "$_base" || bail "cannot create $_base"
	_base=$(cd "$_base" && pwd -P)
	case $_base/ in
	/tmp/*) _base=/var/tmp ;;
	esac
	WORK=$_base/work.hardening-$1.$$
	rm -rf "$WORK"
	mkdir -p "$WORK" || bail "cannot create $WORK"
	WORK=$(cd "$WORK" && pwd -P)
	case $WORK in
	*[[:space:]]*) bail "the build directory contains white space: $WORK" ;;
	esac
	trap work_cleanup EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 141' PIPE

	WS=$WORK/ws
	CONF=$WORK/conf/kjail.ini
	mkdir -p "$WS" "$WORK/conf" "$WORK/home/.config" || bail "cannot populate $WORK"
	printf '; hardening tests: built-in policy only\n[sandbox]\n' >"$CONF"
	# KJ_HARDENING_BACKEND=landlock: the same probes on that backend
	# (issue 43: each held, or listed in its degradation table)
	if [ -n "${KJ_HARDENING_BACKEND:-}" ]; then
		printf 'backend = %s\n' "$KJ_HARDENING_BACKEND" >>"$CONF"
		diag "backend: $KJ_HARDENING_BACKEND"
	fi
	HOME=$WORK/home
	XDG_CONFIG_HOME=$HOME/.config
	XDG_RUNTIME_DIR=$WORK/run
	mkdir -m 700 "$XDG_RUNTIME_DIR" || bail "cannot create $XDG_RUNTIME_DIR"
	export HOME XDG_CONFIG_HOME XDG_RUNTIME_DIR
	unset SSH_AUTH_SOCK GPG_AGENT_INFO DBUS_SESSION_BUS_ADDRESS \
		XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME 2>/dev/null || :

	[ -x "$KJAIL" ] || bail "kjail is not built: $KJAIL"
	[ -x "$TRY" ] || bail "try-syscall is not built: $TRY"

	# The probe runner: runs EXE once per line "ID ARG..." of LIST and
	# prints "ID WORD"; WORD is "died:STATUS" when the probe printed
	# nothing or did not exit 0 (e.g. killed by SIGSYS: died:159).
	RUNNER=$WORK/run-probes.sh
	cat >"$RUNNER" <<'EOF'
exe=$1
list=$2
while read -r id args; do
	case $id in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086 # ARGS are words on purpose
	w=$("$exe" $args 2>/dev/null)
	rc=$?
	if [ "$rc" -ne 0 ] || [ -z "$w" ]; then
		w="died:$rc"
	fi
	printf '%s %s\n' "$id" "$w"
done <"$list"
EOF
	diag "uid $(id -u), kernel $(uname -r), workspace $WS"
}

# --- running --------------------------------------------------------------------
# run CMD...: run CMD in $WS with a time limit, stdin from /dev/null; sets
# RC, OUT (stdout) and ERR (stderr).
run() {
	(cd "$WS" && exec timeout -k 5 "$HS_TIMEOUT" "$@") \
		</dev/null >"$WORK/.out" 2>"$WORK/.err"
	RC=$?
	OUT=$(cat "$WORK/.out")
	ERR=$(cat "$WORK/.err")
}

# kj [KJAIL-OPTION...] -- CMD...: kjail with the test policy and workspace
kj() { run "$KJAIL" --config "$CONF" -C "$WS" "$@"; }

# userns_works: can this user make a user namespace on the host at all?
userns_works() { unshare -Ur true >/dev/null 2>&1; }

# --- probe tables -----------------------------------------------------------------
# probe_begin NAME: start the probe table NAME
# probe ID EXPECT [TRY-ARG...]: the probe ID runs "try-syscall TRY-ARG..."
#   (default TRY-ARG: ID); EXPECT is the word it must print inside the jail.
#   EXPECT "=" marks a control: ordinary use that must keep working; it
#   must print inside what it printed on the host. "=EPERM" (any errno):
#   let through by the filter, and the kernel itself answers that inside
#   (ENOSYS where every baseline does: a kernel without the call).
# probe_collect WHERE CMD...: run the table through CMD... (e.g. kj --
#   or unshare -Urmp --fork, or nothing for the host), results to WHERE
# probe_judge IN BASELINE...: one TAP line per probe
probe_begin() {
	PT_NAME=$1
	PT=$WORK/probes.$1
	: >"$PT.list"
	: >"$PT.expect"
	: >"$PT.files"
	PT_EXE=$TRY
}

probe() {
	_id=$1
	_exp=$2
	shift 2
	[ $# -gt 0 ] || set -- "$_id"
	printf '%s %s\n' "$_id" "$*" >>"$PT.list"
	printf '%s %s %s\n' "$_id" "$_exp" "$*" >>"$PT.expect"
}

probe_collect() {
	_where=$1
	shift
	run "$@" sh "$RUNNER" "$PT_EXE" "$PT.list"
	printf '%s\n' "$OUT" >"$PT.res.$_where"
	printf '%s\n' "$RC" >"$PT.rc.$_where"
	printf '%s\n' "$ERR" >"$PT.err.$_where"
}

# probe_judge INSIDE-NAME DESC-PREFIX BASELINE-NAME...
probe_judge() {
	_in=$1
	_pfx=$2
	shift 2
	if [ "$(cat "$PT.rc.$_in")" -ne 0 ]; then
		diag "$_pfx: the jailed run exited $(cat "$PT.rc.$_in")"
		diag_text "stderr" "$(cat "$PT.err.$_in")"
	fi
	_bnames=$*
	_root=
	! is_root || _root=1
	# One line a probe, "ID EXPECT INSIDE BASELINE... <tab> ARGS": each
	# word the one that run printed for the ID (its first line for it;
	# "missing" when there is none or it is empty), $WORK in ARGS shown as
	# "$WORK". One awk for the table, not a few per probe.
	awk -v runs="$_in $*" -v pt="$PT" -v work="$WORK" '
	BEGIN {
		n = split(runs, run, " ")
		for (i = 1; i <= n; i++) {
			f = pt ".res." run[i]
			while ((getline l < f) > 0) {
				split(l, w, " ")
				if (!((i SUBSEP w[1]) in got))
					got[i, w[1]] = w[2]
			}
			close(f)
		}
	}
	{
		args = $0
		sub(/^[^ ]* [^ ]* ?/, "", args)
		while ((k = index(args, work)) > 0)
			args = substr(args, 1, k - 1) "$WORK" substr(args, k + length(work))
		line = $1 " " $2
		for (i = 1; i <= n; i++) {
			v = (i SUBSEP $1) in got ? got[i, $1] : ""
			line = line " " (v == "" ? "missing" : v)
		}
		print line "\t" args
	}' "$PT.expect" >"$PT.judge"
	while IFS= read -r _line; do
		_what="$_pfx ${_line#*	}"
		set -f
		# shellcheck disable=SC2086 # the words on purpose
		set -- ${_line%%	*}
		set +f
		_exp=$2
		_got=$3
		shift 3
		_base=
		_proved=
		_allnosys=1
		_anyreal=
		for _b in $_bnames; do
			_bw=$1
			shift
			_base="$_base${_base:+, }$_b $_bw"
			[ "$_bw" = ENOSYS ] || _allnosys=
			case $_bw in
			OK|E[A-Z0-9]*) _anyreal=1 ;;
			esac
			if [ "$_exp" = "=" ]; then
				# a control: the host answer is what the jail must give
				[ -n "$_proved" ] || _proved=$_bw
			elif [ -z "$_proved" ] && [ "$_bw" != "$_exp" ]; then
				# only a real answer of the call counts (not a probe
				# that could not run: setup:*, died:*, missing)
				case $_bw in
				OK|E[A-Z0-9]*) _proved="$_b $_bw" ;;
				esac
			fi
		done
		case $_exp in
		=E*)
			# let through by the filter, and the kernel's own answer
			# inside is this errno (no capability in the jail); a
			# kernel without the call (x32 not built in) answers
			# ENOSYS everywhere, and must inside too
			if [ -n "$_base" ] && [ -n "$_allnosys" ]; then
				_exp='=ENOSYS'
			fi
			if [ "$_got" = "${_exp#=}" ]; then
				ok "$_what answers ${_exp#=} inside kjail: not the filter's, the kernel's there ($_base)"
			else
				not_ok "$_what answers ${_exp#=} inside kjail: not the filter's, the kernel's there"
				diag "expected ${_exp#=} inside kjail, got $_got ($_base)"
			fi
			continue ;;
		esac
		if [ "$_exp" = "=" ]; then
			case $_proved in
			''|missing|died:*|setup:*)
				skip "$_what answers inside as on the host" "the probe does not run on the host ($_base)" ;;
			*)
				if [ "$_got" = "$_proved" ]; then
					ok "$_what answers inside as on the host (not refused): $_got"
				else
					not_ok "$_what answers inside as on the host (not refused)"
					diag "expected $_proved (the host's answer), got $_got inside kjail"
				fi ;;
			esac
			continue
		fi
		# a kernel without the ia32 entry: no run of the probe got a real
		# answer (a baseline may also have died: under ASan, say)
		if [ "$_got" = setup:NOIA32 ] && [ -z "$_anyreal" ]; then
			skip "$_what: $_exp inside kjail" "this kernel has no ia32 entry (int \$0x80): nothing to refuse"
			continue
		fi
		if [ "$_got" != "$_exp" ]; then
			not_ok "$_what: $_exp inside kjail"
			diag "expected $_exp inside kjail, got $_got ($_base)"
			continue
		fi
		if [ -n "$_proved" ]; then
			ok "$_what: $_got inside kjail ($_base)"
		else
			if [ -n "$_root" ]; then
				_why="this host cannot tell the filter's answer from the kernel's"
			else
				_why="as uid $(id -u) this run cannot tell the filter's answer from the kernel's; the run as root can"
			fi
			ok "$_what: $_got inside kjail; $_exp on the host too ($_base): $_why"
		fi
	done <"$PT.judge"
}

# --- the table ------------------------------------------------------------------
# tests/integration/hardening-syscalls.table: what the filter answers, one
# row per probe, for every ABI (see its head for the format). Every check of
# a system call in the hardening tests is made from it (hs_table_probes),
# and hardening-bpf.test evaluates it against kjail's BPF programs.
HS_TABLE=$top_srcdir/tests/integration/hardening-syscalls.table

# hs_table_rows: the rows, checked, one a line with single spaces:
#   ID ABI JAIL USERNS NESTED PROBE...
# On a malformed row: its line and what is wrong, and status 1.
hs_table_rows() {
	awk '
	function fail(m) { printf "%s:%d: %s\n", FILENAME, FNR, m; bad = 1; exit 1 }
	/^[ \t]*(#|$)/ { next }
	{
		c = ""
		i = index($0, "#")
		if (i) {
			c = substr($0, i + 1)
			$0 = substr($0, 1, i - 1)
		}
		gsub(/^[ \t]+|[ \t]+$/, "", c)
		if (NF < 6)
			fail("want ID ABI JAIL USERNS NESTED PROBE...")
		if ($1 in seen)
			fail("the ID " $1 " is used twice")
		seen[$1] = 1
		if ($2 != "all") {
			if ($2 !~ /^(native|x86_64|i386|x32)$/)
				fail("ABI " $2 ": all, native, x86_64, i386 or x32")
			if (c == "")
				fail("the row " $1 " is limited to " $2 " without a comment saying why")
		}
		for (k = 3; k <= 5; k++)
			if ($k != "=" && $k !~ /^=?E[A-Z0-9]+$/)
				fail("the cell " $k " (want EPERM, ENOSYS, ..., = or =EPERM, ...)")
		$1 = $1
		rows++
		print
	}
	END { if (!bad && !rows) { print "no rows"; exit 1 } }
	' "$HS_TABLE"
}

# hs_table_select MODE ABI: the rows for MODE (jail, userns or nested: the
# column) on ABI (native, i386, x32 or elf32, the i386 ABI), one a line:
#   ID CELL PROBE...
# placeholders filled in for the current table (each %F path also goes to
# $PT.files), and in the nested mode --userns in front. Rows limited to
# another ABI are left out, and --userns rows outside the nested mode.
# MODE "any": every row for ABI, its JAIL cell, --userns rows included.
hs_table_select() {
	_trows=$(hs_table_rows) || bail "the table is malformed: $_trows"
	printf '%s\n' "$_trows" | awk -v mode="$1" -v abi="$2" -v mach="$(uname -m)" \
		-v ws="$WS" -v pt="${PT_NAME:-none}" -v files="${PT:-/dev/null}.files" '
	{
		r = $2
		if (!(r == "all" || (r == "native" && abi == "native") ||
		      (r == "x86_64" && abi == "native" && mach == "x86_64") ||
		      (r == "i386" && (abi == "i386" || abi == "elf32")) ||
		      (r == "x32" && abi == "x32")))
			next
		cell = mode == "userns" ? $4 : mode == "nested" ? $5 : $3
		p = $6
		for (i = 7; i <= NF; i++)
			p = p " " $i
		if (mode != "any" && p ~ /^--userns /) {
			if (mode != "nested")
				next
			sub(/^--userns /, "", p)
		}
		if (mode == "nested")
			p = "--userns " p
		f = ws "/f-" pt "-" abi "-" $1
		if (p ~ /%F/ && mode != "any")
			print f >>files
		gsub(/%F/, f, p)
		gsub(/%N/, ws "/n-" pt "-" abi "-" $1, p)
		gsub(/%W/, ws, p)
		gsub(/%T/, ws "/openat2-target", p)
		gsub(/%D/, ws "/mnt", p)
		print $1, cell, p
	}'
}

# hs_table_absent ABI: the IDs of the rows whose call ABI lacks (try-syscall
# --dry-run: NOSYSCALL), space-separated (worked out once per ABI);
# hardening-bpf.test holds that to libseccomp
hs_table_absent() {
	_ta=$WORK/table-absent.$1
	if [ ! -e "$_ta" ]; then
		case $1 in
		native) _targ= ;;
		i386|x32) _targ=--abi=$1 ;;
		elf32) _targ=--abi=i386 ;;
		*) bail "hs_table_absent: no ABI $1" ;;
		esac
		_tlist=
		while read -r _tid _tcell _tprobe; do
			# shellcheck disable=SC2086 # the words on purpose
			_tdry=$("$TRY" --dry-run $_targ $_tprobe 2>&1)
			case ${_tdry##*
} in
			MEASURED*) ;;
			NOSYSCALL) _tlist="$_tlist $_tid" ;;
			*) bail "try-syscall --dry-run $_targ $_tprobe: $_tdry" ;;
			esac
		done <<EOF
$(hs_table_select any "$1")
EOF
		printf '%s\n' "$_tlist" >"$_ta"
	fi
	cat "$_ta"
}

# hs_table_probes MODE ABI: one probe in the current table (probe_begin) per
# row of the table for MODE on ABI (hs_table_select; native, i386, x32:
# try-syscall --abi=ABI; elf32: the table's PT_EXE is hs-probe32), its ID
# ABI-ROWID. Rows whose call the ABI lacks are left out, one diag line
# lists them.
hs_table_probes() {
	case $2 in
	native|elf32) _targ= ;;
	*) _targ=--abi=$2 ;;
	esac
	_tabsent=" $(hs_table_absent "$2") "
	_tleft=
	while read -r _tid _tcell _tprobe; do
		case $_tabsent in
		*" $_tid "*)
			_tleft="$_tleft $_tid"
			continue ;;
		esac
		# shellcheck disable=SC2086 # the words on purpose
		probe "$2-$_tid" "$_tcell" $_targ $_tprobe
	done <<EOF
$(hs_table_select "$1" "$2")
EOF
	[ -z "$_tleft" ] || diag "$PT_NAME: no such call on $2, not probed there:$_tleft"
	return 0
}

# hs_fresh: the current table's workspace files as new (each %F path an
# empty file of mode 0755, no %N path), before each run of the table: its
# probes change and create files
hs_fresh() {
	mkdir -p "$WS/mnt"
	[ -e "$WS/openat2-target" ] || echo probe >"$WS/openat2-target"
	rm -f "$WS/f-$PT_NAME-"* "$WS/n-$PT_NAME-"*
	while read -r _f; do
		: >"$_f" && chmod 0755 "$_f"
	done <"$PT.files"
}

# hs_setid_check WHAT: after a jailed run of the current table, checked from
# the host: every %F file still mode 755, no %N path with a set-ID bit
hs_setid_check() {
	_bad=
	while read -r _f; do
		_m=$(stat -c %a "$_f" 2>/dev/null || echo gone)
		[ "$_m" = 755 ] || _bad="$_bad ${_f##*/}=$_m"
	done <"$PT.files"
	for _f in "$WS/n-$PT_NAME-"*; do
		[ -e "$_f" ] || continue
		_m=$(stat -c %a "$_f")
		case $_m in
		[4267]???) _bad="$_bad ${_f##*/}=$_m" ;;
		esac
	done
	if [ -z "$_bad" ]; then
		ok "$1: no set-ID bit on a workspace file after the jailed calls ($(wc -l <"$PT.files") files still mode 755; checked from the host)"
	else
		not_ok "$1: no set-ID bit on a workspace file after the jailed calls (checked from the host)"
		diag "left:$_bad"
	fi
}

# hs_probe32: build hs-probe32.c, a real i386 program, into $P32 ("cc -m32",
# freestanding); status 1, with the reason in P32_WHY, when it cannot be
# built or run here
hs_probe32() {
	P32=$WORK/hs-probe32
	P32_WHY=
	_cc=${CC:-cc}
	if ! command -v "$_cc" >/dev/null 2>&1; then
		P32_WHY="no C compiler ($_cc)"
	elif ! "$_cc" -m32 -static -nostdlib -ffreestanding -fno-pic -no-pie \
		-fno-stack-protector -fno-builtin -O1 -o "$P32" \
		"$top_srcdir/tests/helpers/hs-probe32.c" >"$WORK/cc32.log" 2>&1; then
		P32_WHY="$_cc -m32 cannot build it here: $(head -n 1 "$WORK/cc32.log")"
	elif [ "$("$P32" getpid 2>/dev/null)" != OK ]; then
		P32_WHY="the kernel does not run it: $("$P32" getpid 2>&1 | head -n 1)"
	fi
	[ -z "$P32_WHY" ]
}

# ns_collect: the "ns" baseline, if user namespaces work on the host
ns_collect() {
	if userns_works; then
		probe_collect ns unshare -Urmp --fork
		return 0
	fi
	diag "no user namespaces on the host: the ns baseline is not available"
	: >"$PT.res.ns"
	echo 0 >"$PT.rc.ns"
	: >"$PT.err.ns"
	return 0
}
