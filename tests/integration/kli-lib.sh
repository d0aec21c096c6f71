# SPDX-License-Identifier: MIT
# kli-lib.sh: fixtures for tests/integration/kli-*.test (TAP from tap.sh).
#
# Every test runs the real kli with HOME and XDG_CONFIG_HOME pointing into a
# fixture directory under the build tree, from a workspace that is its own
# git root (so no config above the fixture can take part), and compares
# exit status, stdout and stderr exactly.
#
# POSIX sh. No "set -e": a failing command must become "not ok".

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/tap.sh"
: "${KLI:=$top_builddir/kli}"
export KLI

# TAP output is tap.sh's; kli's tests compare output exactly, so their
# diagnostics show it exactly: every line, a trailing newline or not.
diag_text() {
	diag "$1:"
	printf '%s' "$2" | head -n 40 | sed 's/^/#   |/'
	printf '\n'
}

# What --print-authority adds outside any jail (issue 28: containment).
NOJAIL="containment: none: kli is not running under kjail; process/exec runs with all of this user's rights"
NOJAIL_JSON='"containment":{"jailed":false,"summary":"'"${NOJAIL#containment: }"'"}'
NL='
'

# --- fixtures -----------------------------------------------------------------
# kli_init NAME: $WORK under the build tree; HOME and XDG_CONFIG_HOME in it;
# the workspace $WS (with a .git, so it is the git root) as the cwd.
kli_init() {
	if [ ! -x "$KLI" ]; then
		echo "1..0 # SKIP $KLI is not built"
		exit 0
	fi
	# The system layer is fixed at build time; a machine that has one would
	# take part in every result here.
	_sys=$(sed -n 's/^#define KLI_SYSTEM_CONFIG "\(.*\)"$/\1/p' "$top_builddir/config.h")
	if [ -n "$_sys" ] && [ -e "$_sys" ]; then
		echo "1..0 # SKIP $_sys exists on this machine and would change every answer"
		exit 0
	fi
	_base=$top_builddir/tests/integration
	mkdir -p "$_base" || exit 99
	_base=$(cd "$_base" && pwd -P)
	WORK=$_base/work.kli-$1.$$
	rm -rf "$WORK"
	mkdir -p "$WORK" || exit 99
	trap 'work_cache_cleanup; rm -rf "$WORK"' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	# Run inside a kjail jail, kli would add sandbox hints from the jail's
	# policy to tool results: only a test that sets it gets them.
	unset KJAIL_POLICY
	# saved sessions (and kli's own files) under $HOME/.local/state
	unset XDG_STATE_HOME
	HOME=$WORK/home
	XDG_CONFIG_HOME=$WORK/xdg
	XDG_CACHE_HOME=$WORK/cache
	export HOME XDG_CONFIG_HOME XDG_CACHE_HOME
	USER_CONFIG=$XDG_CONFIG_HOME/kli/config.ini
	WS=$WORK/ws
	PROJECT_CONFIG=$WS/.kli/config.ini
	mkdir -p "$HOME" "$XDG_CONFIG_HOME/kli" "$WS/.git" || exit 99
	cd "$WS" || exit 99
	kli_excluded
}

# kli_excluded [USER_CONFIG [PROJECT_CONFIG...]]: $EXCLUDED (text lines) and
# $EXCLUDED_JSON (a member), what --print-authority lists as kli's own files
# (issue 27) in this fixture: the system config, the user config
# (default $USER_CONFIG), each project config (default $PROJECT_CONFIG),
# the fault log and the cache. No API key file: a test that sets one adds it.
kli_excluded() {
	_u=${1:-$USER_CONFIG}
	_why="kli's own file: no grant reaches it"
	[ $# -gt 0 ] && shift
	[ $# -gt 0 ] || set -- "$PROJECT_CONFIG"
	EXCLUDED="excluded (kli's own files: no grant reaches them):
  $_sys  [kli's system config]
  $_u  [kli's user config]"
	_ej='{"path":"'"$_sys"'","what":"kli'"'"'s system config","why":"'"$_why"'","tree":false},'
	_ej=$_ej'{"path":"'"$_u"'","what":"kli'"'"'s user config","why":"'"$_why"'","tree":false},'
	for _p in "$@"; do
		EXCLUDED="$EXCLUDED
  $_p  [kli's project config]"
		_ej=$_ej'{"path":"'"$_p"'","what":"kli'"'"'s project config","why":"'"$_why"'","tree":false},'
	done
	EXCLUDED="$EXCLUDED
  $XDG_CACHE_HOME/kli/faults.log  [kli's fault log]
  $XDG_CACHE_HOME/kli  [kli's cache (fault log, job output), and everything under it]
  $HOME/.local/state/kli/sessions  [kli's saved sessions, and everything under it]"
	_ej=$_ej'{"path":"'"$XDG_CACHE_HOME"'/kli/faults.log","what":"kli'"'"'s fault log","why":"'"$_why"'","tree":false},'
	_ej=$_ej'{"path":"'"$XDG_CACHE_HOME"'/kli","what":"kli'"'"'s cache (fault log, job output)","why":"'"$_why"'","tree":true},'
	_ej=$_ej'{"path":"'"$HOME"'/.local/state/kli/sessions","what":"kli'"'"'s saved sessions","why":"'"$_why"'","tree":true}'
	EXCLUDED_JSON='"excluded_files":['"$_ej"']'
}

# user_config LINE...: write the user config (no lines: remove it)
user_config() {
	rm -f "$USER_CONFIG"
	[ $# -eq 0 ] || printf '%s\n' "$@" >"$USER_CONFIG"
}

# project_config LINE...: write $WS/.kli/config.ini (no lines: remove it)
project_config() {
	rm -rf "$WS/.kli"
	[ $# -eq 0 ] && return 0
	mkdir -p "$WS/.kli" && printf '%s\n' "$@" >"$PROJECT_CONFIG"
}

# lines LINE...: $T is the lines, each ending in a newline ("" for none)
lines() {
	if [ $# -eq 0 ]; then T=; return; fi
	T=$(printf '%s\n' "$@"; echo x)
	T=${T%x}
}

# run_kli ARG...: run kli; $RC, and $OUT and $ERR byte for byte
run_kli() {
	"$KLI" "$@" >"$WORK/stdout" 2>"$WORK/stderr"
	RC=$?
	OUT=$(cat "$WORK/stdout"; echo x)
	OUT=${OUT%x}
	ERR=$(cat "$WORK/stderr"; echo x)
	ERR=${ERR%x}
}

# verdict DESC STATUS: ok when STATUS is 0, else not ok
verdict() {
	if [ "$2" = 0 ]; then ok "$1"; return 0; fi
	not_ok "$1"
	return 1
}

# expect DESC RC STDOUT STDERR: the last run_kli, exactly
expect() {
	if [ "$RC" = "$2" ] && [ "$OUT" = "$3" ] && [ "$ERR" = "$4" ]; then
		ok "$1"
		return 0
	fi
	not_ok "$1"
	diag "exit status: want $2, got $RC"
	[ "$OUT" = "$3" ] || { diag_text "stdout wanted" "$3"; diag_text "stdout got" "$OUT"; }
	[ "$ERR" = "$4" ] || { diag_text "stderr wanted" "$4"; diag_text "stderr got" "$ERR"; }
	return 1
}

# expect_lines DESC RC STDERR LINE...: stdout is exactly the LINEs
expect_lines() {
	_d=$1 _rc=$2 _err=$3
	shift 3
	lines "$@"
	expect "$_d" "$_rc" "$T" "$_err"
}

# expect_fail DESC STDERR_LINE: exit 2, nothing on stdout, one line on stderr
expect_fail() {
	expect "$1" 2 "" "$2
"
}

# --- the scripted model server (agent tests) -----------------------------------
# model_init: skip the whole test without python3; no proxy may sit between
# kli and the loopback server.
model_init() {
	if ! command -v python3 >/dev/null 2>&1; then
		echo "1..0 # SKIP python3 (for tests/helpers/fake-model.py) is not installed"
		exit 0
	fi
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
	MODEL_PID=
	FAKE_MODEL=$top_srcdir/tests/helpers/fake-model.py
	REQUESTS=$WORK/requests.jsonl
	trap 'model_stop; work_cache_cleanup; rm -rf "$WORK"' EXIT
}

model_stop() {
	if [ -n "${MODEL_PID:-}" ]; then
		kill "$MODEL_PID" 2>/dev/null
		wait "$MODEL_PID" 2>/dev/null
	fi
	MODEL_PID=
}

# model_start SCRIPT [SERVER-ARG...]: (re)start the server on a new script
# (JSON text); $MODEL_PORT is its loopback port, $REQUESTS what it receives.
model_start() {
	model_stop
	printf '%s\n' "$1" >"$WORK/script.json"
	shift
	rm -f "$REQUESTS" "$WORK/port" "$WORK/ready"
	python3 "$FAKE_MODEL" --script "$WORK/script.json" --record "$REQUESTS" \
		--tcp "$WORK/port" --ready "$WORK/ready" --lifetime 90 "$@" &
	MODEL_PID=$!
	_i=0
	while [ ! -e "$WORK/ready" ]; do
		_i=$((_i + 1))
		if [ "$_i" -gt 200 ] || ! kill -0 "$MODEL_PID" 2>/dev/null; then
			echo "Bail out! the scripted model server did not start"
			exit 99
		fi
		sleep 0.05
	done
	MODEL_PORT=$(cat "$WORK/port")
	# A config written for the previous server follows the new one.
	if [ -f "$USER_CONFIG" ]; then
		sed "s|http://127\.0\.0\.1:[0-9]*/|http://127.0.0.1:$MODEL_PORT/|" "$USER_CONFIG" \
			>"$USER_CONFIG.new" && mv "$USER_CONFIG.new" "$USER_CONFIG"
	fi
}

# model_config [LINE...]: the user config: [model] on the running server,
# then the LINEs (more sections).
model_config() {
	user_config '[model]' "base-url = http://127.0.0.1:$MODEL_PORT/v1" 'model = fake' \
		"timeout = ${MODEL_TIMEOUT:-10}" "retries = ${MODEL_RETRIES:-0}" "$@"
}

# requests: how many requests the server received
requests() {
	if [ -f "$REQUESTS" ]; then wc -l <"$REQUESTS" | tr -d ' '; else echo 0; fi
}

# request N: the Nth request body the server received (one JSON line)
request() {
	sed -n "${1}p" "$REQUESTS" 2>/dev/null
}

# has TEXT FIXED: is FIXED in TEXT?
has() {
	case $1 in *"$2"*) return 0 ;; esac
	return 1
}

# jq_py FILE EXPR: print a Python expression over the JSON object J read
# from one line of text on stdin (no jq on every machine).
jpy() {
	python3 -c 'import json,sys
J = json.loads(sys.stdin.read())
r = eval(sys.argv[1])
print(r if isinstance(r, str) else json.dumps(r))' "$1"
}

# tool_results N: the tool messages of request N, one JSON string a line
tool_results() {
	request "$1" | jpy '"\n".join(json.dumps(m["content"]) for m in J["body"]["messages"] if m["role"] == "tool")'
}

# run_kli_in INPUT ARG...: run_kli with INPUT on standard input
run_kli_in() {
	_in=$1
	shift
	printf '%s' "$_in" >"$WORK/stdin"
	"$KLI" "$@" <"$WORK/stdin" >"$WORK/stdout" 2>"$WORK/stderr"
	RC=$?
	OUT=$(cat "$WORK/stdout"; echo x)
	OUT=${OUT%x}
	ERR=$(cat "$WORK/stderr"; echo x)
	ERR=${ERR%x}
}

# check DESC COMMAND...: ok when COMMAND succeeds; on failure, show the run
check() {
	_d=$1
	shift
	if "$@"; then
		ok "$_d"
		return 0
	fi
	not_ok "$_d"
	diag "exit status $RC"
	diag_text stdout "$OUT"
	diag_text stderr "$ERR"
	return 1
}

# tool_result N K: the content of the Kth tool message of request N, as text
tool_result() {
	request "$1" | python3 -c 'import json,sys
J = json.loads(sys.stdin.read())
t = [m["content"] for m in J["body"]["messages"] if m["role"] == "tool"]
k = int(sys.argv[1])
sys.stdout.write(t[k - 1] if 0 < k <= len(t) else "")' "$2"
}

# run_cmd ARG...: run ARG... (kli under a wrapper: kjail -- kli ...) with
# standard input from /dev/null; $RC, $OUT and $ERR as run_kli sets them
run_cmd() {
	"$@" </dev/null >"$WORK/stdout" 2>"$WORK/stderr"
	RC=$?
	OUT=$(cat "$WORK/stdout"; echo x)
	OUT=${OUT%x}
	ERR=$(cat "$WORK/stderr"; echo x)
	ERR=${ERR%x}
}
