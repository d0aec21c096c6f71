#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/run.sh: issue 8's and issue 24's measurements, in one run on one
# machine.
#
#   bench/run.sh [OPTION]...        (also: make bench [BENCH_ARGS='...'])
#
# Times, with hyperfine (medians over ROUNDS x RUNS >= 30 runs, no shell,
# warmed up), and writes a markdown table (--out, default bench/results.md
# in the build directory):
#   1. kjail -- /bin/true (and kjail --backend=landlock -- /bin/true, which
#      starts no bwrap) against the exact bwrap command kjail --print shows
#      for the same policy (same seccomp program, exported once to a file, on
#      the same descriptor numbers), with and without kjail's entry helper,
#      against /bin/true, firejail and srt (when installed); then kjail and
#      that command again with two CPU-bound processes running (started
#      here, killed by a trap);
#   2. work inside the jail against the same work outside it: git status in
#      a 20,000-file repository, a find over /usr, make -j2 of a generated
#      C project;
#   3. the start-up with 1, 100 and 1,000 --deny-read masks, and with a
#      workspace of 10, 10,000 and 100,000 files;
#   3b. the start-up with a home of 10,000 entries that the credential
#      scan reads (planner/credscan.h), its memory gone (every file read)
#      and kept (none read), against an empty home;
#   4. kli --print-authority --json with 1,000 capability entries, and the
#      covers micro-benchmark (bench/covers-bench);
# plus whole-process instruction counts of kjail --print (valgrind
# --tool=callgrind), ratios, and the acceptance checks with PASS or FAIL.
#
# Options:
#   --kjail PATH, --kli PATH   the binaries (default: $KJAIL, $KLI, else the
#                              build directory this script is run from);
#                              kjail and the kjail-entry beside it are timed
#                              as installed (install(1) into the scratch
#                              directory), the build tree's kjail on a row
#                              of its own
#   --helpers DIR              where fdexec, seccomp-dump and covers-bench are
#                              (default: bench/ beside kjail; built with make
#                              when missing)
#   --out FILE                 the markdown table (default: DIR/results.md)
#   --runs N --rounds R        hyperfine runs per round, rounds (default 3, 12:
#                              36 runs per median; the rounds interleave the
#                              commands, in reverse order every other round,
#                              so a change of the machine's load hits them all
#                              alike; the 1,000-mask group, seconds a run,
#                              keeps the product in 4 rounds; the start-up
#                              group, whose ratio is check 1, runs twelve
#                              times the rounds: 432 runs per median by
#                              default, three times with --quick; the
#                              start-up under load four times the rounds;
#                              find and make -j2, seconds a run, half the
#                              rounds: see the table)
#   --warmup N                 warmup runs per round (default 1)
#   --only LIST                only these parts, comma-separated: startup,
#                              load, work, peers, masks, workspace, sockets,
#                              home, kli, instructions
#                              (default all; the table shows the rest as
#                              not run)
#   --with-peers               install firejail (apt-get, as root) and srt
#                              (npm, into a temporary prefix) when missing
#   --peers-prefix DIR         keep the npm prefix there instead
#   --scratch DIR              parent of the scratch directory (default
#                              /var/tmp; never under /tmp, which the jail
#                              replaces with its own)
#   --keep                     keep the scratch directory
#   --strict                   exit 1 when an acceptance check fails
#   --quick                    3 runs x 1 round, small trees: a smoke test,
#                              not a measurement (the table says so)
#   -h, --help
#
# Needs bash, hyperfine (installed with apt-get when missing and root),
# python3 (statistics and the table), bubblewrap; valgrind for the
# instruction counts (installed like hyperfine; "n/a" without it).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "$here/.." && pwd)

say() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^if \[ -z/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

kjail=${KJAIL:-} kli=${KLI:-} helpers=${BENCH_HELPERS:-} out=""
runs=3 rounds=12 warmup=1 only=all with_peers=0 peers_prefix="" scratch_parent=/var/tmp
keep=0 strict=0 quick=0
while [ $# -gt 0 ]; do
	case $1 in
	--kjail) kjail=$2; shift 2 ;;
	--kli) kli=$2; shift 2 ;;
	--helpers) helpers=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--warmup) warmup=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--with-peers) with_peers=1; shift ;;
	--peers-prefix) peers_prefix=$2; shift 2 ;;
	--scratch) scratch_parent=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--strict) strict=1; shift ;;
	--quick) quick=1; runs=3; rounds=1; warmup=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown option '$1' (try --help)" ;;
	esac
done
case $runs$rounds$warmup in *[!0-9]*) die "--runs, --rounds and --warmup take numbers" ;; esac
for part in ${only//,/ }; do
	case $part in
	all | startup | load | work | peers | masks | workspace | sockets | home | kli | instructions) ;;
	*) die "--only: unknown part '$part' (startup, load, work, peers, masks, workspace, sockets, home, kli, instructions)" ;;
	esac
done
want() { case ",$only," in *,all,* | *,"$1",*) return 0 ;; esac; return 1; }
[ "$quick" = 1 ] || [ $((runs * rounds)) -ge 30 ] ||
	die "--runs x --rounds is $((runs * rounds)): issue 8 asks for medians over at least 30 runs"

# ------------------------------------------------------------- the binaries
abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
if [ -z "$kjail" ]; then
	for c in "$PWD/kjail" "$srcdir/kjail"; do [ -x "$c" ] && { kjail=$c; break; }; done
fi
if [ -z "$kjail" ] || ! [ -x "$kjail" ]; then die "no kjail binary: build it (make) or pass --kjail PATH"; fi
kjail=$(abspath "$kjail")
builddir=$(dirname "$kjail")
[ -n "$kli" ] || kli=$builddir/kli
[ -x "$kli" ] || die "no kli binary at $kli: pass --kli PATH"
kli=$(abspath "$kli")
[ -n "$helpers" ] || helpers=$builddir/bench
[ -n "$out" ] || out=$helpers/results.md
fdexec=$helpers/fdexec scdump=$helpers/seccomp-dump covers=$helpers/covers-bench
# Built (or brought up to date: a seccomp-dump older than the kjail it
# describes exports another program) whenever they are this build's.
if [ "$helpers" = "$builddir/bench" ] && [ -f "$builddir/Makefile" ]; then
	make -C "$builddir" -s bench-programs >&2 || die "cannot build the benchmark helpers"
elif ! [ -x "$fdexec" ] || ! [ -x "$scdump" ] || ! [ -x "$covers" ]; then
	die "the helpers are not built in $helpers: build them (make bench-programs) or pass --helpers DIR"
fi
mkdir -p "$(dirname "$out")"
out=$(abspath "$out")

# -------------------------------------------------------------- the tools
am_root() { [ "$(id -u)" = 0 ]; }
apt_install() { # PACKAGE...: true when installed
	am_root && command -v apt-get >/dev/null || return 1
	say "installing $* with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2 ||
		{ DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2; }
}
command -v hyperfine >/dev/null || apt_install hyperfine ||
	die "hyperfine is missing: install it (Debian 12: apt-get install hyperfine)"
command -v python3 >/dev/null || die "python3 is missing (it computes the statistics)"
command -v valgrind >/dev/null || apt_install valgrind || say "valgrind missing: no instruction counts"
have_valgrind=0; command -v valgrind >/dev/null && have_valgrind=1

# --------------------------------------------------------------- scratch
case $(cd "$scratch_parent" && pwd -P)/ in
/tmp/*) die "--scratch: $scratch_parent is under /tmp, which the jail replaces with its own" ;;
esac
S=$(mktemp -d "$scratch_parent/kjb.XXXXXX")
load_pids=()
load_stop() { # the CPU-bound processes of load_start, if they run
	local p
	for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || :; done
	for p in "${load_pids[@]}"; do wait "$p" 2>/dev/null || :; done
	load_pids=()
}
# kjail's cache directories for the scratch workspaces (under the
# account's home; their keys hold the scratch directory's name and a '-')
cache_cleanup() {
	local home d
	home=$(getent passwd "$(id -u)" | cut -d: -f6)
	[ -n "$home" ] && [ -d "$home/.cache/kjail/ws" ] || return 0
	for d in "$home/.cache/kjail/ws/"*"${S##*/}"-*; do
		if [ -d "$d" ] && ! [ -L "$d" ]; then chmod -R u+rwX "$d"; rm -rf "$d"; fi
	done
}
cleanup() {
	load_stop
	if [ "$keep" = 1 ]; then say "scratch kept: $S"; else rm -rf "$S"; cache_cleanup; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# load_start N: N CPU-bound processes (a shell's empty loop each, named
# $S/load so that they can be told from anyone else's), stopped by
# load_stop or, whatever happens to the script, by the trap above.
load_start() {
	local i
	for ((i = 0; i < $1; i++)); do
		sh -c 'while :; do :; done' "$S/load" &
		load_pids+=("$!")
	done
}
mkdir -p "$S/json" "$S/raw" "$S/data" "$S/cg" "$S/bin"

# kjail as users run it: installed. make install, a package or the Nix
# store write a binary in large writes; the linker writes its output piece
# by piece, and the page cache keeps those pages in small folios, which
# this kernel maps more slowly at every exec (~0.1 ms here for kjail and
# its entry helper together). So the bench installs both, as make install
# does, and times that copy; the build tree's, as the linker left it, has
# its own row.
kjail_built=$kjail
[ -x "$builddir/kjail-entry" ] || die "no kjail-entry beside $kjail_built: build it (make)"
install -m 0755 "$kjail_built" "$builddir/kjail-entry" "$S/bin/" ||
	die "cannot install kjail and kjail-entry into $S/bin"
kjail=$S/bin/kjail
log=$S/hyperfine.log
: >"$S/results.tsv"   # name, then values (medians from python)
: >"$S/facts.tsv"     # key, value: everything the table shows that is not a timing

fact() { printf '%s\t%s\n' "$1" "$2" >>"$S/facts.tsv"; }
fact machine:load "$(cut -d' ' -f1-3 /proc/loadavg)"
# cpu_busy KEY CMD...: run CMD, then record how busy the machine's CPUs were
# meanwhile (/proc/stat, every process, this benchmark's included), in %
cpu_busy() {
	local key=$1 a b; shift
	a=$(head -n 1 /proc/stat)
	"$@"
	b=$(head -n 1 /proc/stat)
	fact "busy:$key" "$(awk -v a="$a" -v b="$b" 'BEGIN {
		n = split(a, x); split(b, y); t = 0
		for (i = 2; i <= n; i++) t += y[i] - x[i]
		idle = (y[5] - x[5]) + (y[6] - x[6])
		printf "%.0f", (t > 0 ? 100 * (t - idle) / t : 0) }')"
}

# ------------------------------------------------------------------ peers
peers_dir=${peers_prefix:-$S/peers}
find_srt() {
	if [ -x "$peers_dir/node_modules/.bin/srt" ]; then echo "$peers_dir/node_modules/.bin/srt"
	else command -v srt || true; fi
}
if [ "$with_peers" = 1 ]; then
	command -v firejail >/dev/null || apt_install firejail ||
		say "firejail: not installed (it needs root to install: it is setuid)"
	if [ -z "$(find_srt)" ]; then
		if command -v npm >/dev/null && npm view @anthropic-ai/sandbox-runtime version >/dev/null 2>&1; then
			say "installing @anthropic-ai/sandbox-runtime into $peers_dir"
			mkdir -p "$peers_dir"
			npm install --no-audit --no-fund --silent --prefix "$peers_dir" \
				@anthropic-ai/sandbox-runtime >&2 || say "srt: npm install failed"
		else
			say "srt: npm, or the npm package, is not available"
		fi
	fi
	# srt refuses to start without ripgrep (and uses socat for its proxies).
	if [ -n "$(find_srt)" ] && ! command -v rg >/dev/null; then apt_install ripgrep socat || true; fi
fi
firejail_bin=$(command -v firejail || true)
srt_bin=$(find_srt)

# --------------------------------------------------------------- fixtures
n_ws_big=100000 n_ws_mid=10000 n_masks_max=1000
[ "$quick" = 1 ] && { n_ws_big=2000 n_ws_mid=200; }
empty_ini=$S/empty.ini
: >"$empty_ini"
make_ws() { # DIR NFILES: a workspace that looks like a checkout
	local d=$1 n=$2 i k
	mkdir -p "$d/.git/hooks"
	printf '[core]\n\tbare = false\n' >"$d/.git/config"
	echo 'ref: refs/heads/main' >"$d/.git/HEAD"
	for ((i = 0; i * 1000 < n; i++)); do
		mkdir -p "$d/src/d$i"
		local names=()
		for ((k = i * 1000; k < n && k < (i + 1) * 1000; k++)); do names+=("$d/src/d$i/f$k.c"); done
		touch "${names[@]}"
	done
}
say "making workspaces of 10, $n_ws_mid and $n_ws_big files and $n_masks_max mask targets in $S"
make_ws "$S/w10" 10
make_ws "$S/w10k" "$n_ws_mid"
make_ws "$S/w100k" "$n_ws_big"
mkdir -p "$S/m"
mask_args() { # N: "-r PATH" for N existing files outside the workspace
	local i
	for ((i = 0; i < $1; i++)); do printf -- '-r\0%s\0' "$S/m/f$i"; done
}
(cd "$S/m" && for ((i = 0; i < n_masks_max; i += 250)); do
	names=(); for ((k = i; k < i + 250 && k < n_masks_max; k++)); do names+=("f$k"); done
	touch "${names[@]}"
done)

# The socket scan's home: 10,000 entries in dot-directories up to the
# scan's depth (configs, caches, a few sockets among them), and an empty
# one to compare with.
n_home=10000
[ "$quick" = 1 ] && n_home=500
if want sockets; then
	say "making a home of $n_home entries for the socket scan in $S"
	mkdir -p "$S/home0"
	python3 - "$S/home10k" "$n_home" <<-'EOF' || die "cannot make the socket scan's home"
	import os, socket, sys
	home, n = sys.argv[1], int(sys.argv[2])
	made = 0
	tools = ["config", "cache", "local", "npm", "cargo", "docker", "vscode", "mozilla"]
	t = 0
	while made < n:
	    tool = tools[t % len(tools)] + ("" if t < len(tools) else str(t))
	    t += 1
	    for a in range(10):
	        d = os.path.join(home, "." + tool, "a%d" % a, "b")
	        os.makedirs(d, exist_ok=True)
	        made += 3
	        for f in range(25):
	            if made >= n:
	                break
	            open(os.path.join(d, "f%d" % f), "w").close()
	            made += 1
	    # one daemon's socket per tool, in a directory of sockets only
	    run = os.path.join(home, "." + tool, "run")
	    os.makedirs(run, exist_ok=True)
	    s = socket.socket(socket.AF_UNIX)
	    s.bind(os.path.join(run, "d.sock"))
	    s.close()
	    made += 2
	EOF
fi

# The work inside and outside the jail: a git repository of 20,000
# committed files with a few changes, a tree to find in, a C project.
n_repo=20000 n_units=40 find_root=/usr
[ "$quick" = 1 ] && { n_repo=500 n_units=4 find_root=/usr/include; }
if want work; then
	say "making a git repository of $n_repo files and a C project of $n_units units in $S"
	command -v git >/dev/null && command -v make >/dev/null && command -v cc >/dev/null ||
		die "the work group needs git, make and cc"
	python3 - "$S" "$n_repo" "$n_units" <<-'EOF' || die "cannot write the work group's files"
	import os, sys
	S, n_repo, n_units = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
	for i in range(n_repo):
	    d = os.path.join(S, "repo", "src", "d%03d" % (i // 200))
	    if i % 200 == 0:
	        os.makedirs(d)
	    with open(os.path.join(d, "f%05d.txt" % i), "w") as f:
	        f.write("file %d\n" % i)
	c = os.path.join(S, "cproj")
	os.makedirs(c)
	def put(name, text):
	    with open(os.path.join(c, name), "w") as f:
	        f.write(text)
	put("units.h", "/* SPDX-License-Identifier: MIT */\n" +
	    "".join("unsigned unit%02d(const char *s);\n" % i for i in range(n_units)))
	for i in range(n_units):
	    body = "".join("static unsigned h%d(const char *s)\n{\n\tunsigned v = %du;\n\twhile (*s)\n"
	                   "\t\tv = v * 31u + (unsigned char)*s++;\n\treturn v;\n}\n" % (k, i * 8 + k)
	                   for k in range(6))
	    put("u%02d.c" % i, "/* SPDX-License-Identifier: MIT */\n#include \"units.h\"\n" + body +
	        "unsigned unit%02d(const char *s)\n{\n\treturn 0%s;\n}\n" % (i, "".join(" + h%d(s)" % k for k in range(6))))
	put("main.c", "/* SPDX-License-Identifier: MIT */\n#include \"units.h\"\n"
	    "int main(int argc, char **argv)\n{\n\tunsigned v = 0;\n\t(void)argc;\n" +
	    "".join("\tv += unit%02d(argv[0]);\n" % i for i in range(n_units)) + "\treturn (int)(v & 1u);\n}\n")
	objs = " ".join(["main.o"] + ["u%02d.o" % i for i in range(n_units)])
	put("Makefile", "# SPDX-License-Identifier: MIT\nCFLAGS = -O2 -Wall\nOBJS = %s\n"
	    "prog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n$(OBJS): units.h\n"
	    "clean:\n\trm -f prog $(OBJS)\n.PHONY: clean\n" % objs)
	EOF
	(cd "$S/repo" && git init -q . && git add -A &&
		git -c user.name=bench -c user.email=bench@localhost -c commit.gpgsign=false \
			commit -q -m "$n_repo files" &&
		echo changed >>src/d000/f00000.txt && echo new >untracked.txt &&
		git status --porcelain >"$S/git-status.out") >&2 || die "cannot make the git repository"
	# Each work runs once in the jail before it is timed: it must do what it
	# does outside (the same output), else its times mean nothing.
	(cd "$S/repo" && "$kjail" --config "$empty_ini" -C "$S/repo" -- git status --porcelain) \
		>"$S/git-status.in" || die "git status fails in the jail"
	cmp -s "$S/git-status.out" "$S/git-status.in" || die "git status says something else in the jail"
	find_args=("$find_root" -type d ! -readable -prune -o -name '*.h' -print)
	fact work:find_out "$(cd "$S/w10" && find "${find_args[@]}" | wc -l)"
	fact work:find_in "$(cd "$S/w10" && "$kjail" --config "$empty_ini" -C "$S/w10" -- find "${find_args[@]}" | wc -l)"
	(unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS; cd "$S/cproj" && make -s -j2 && make -s clean &&
		"$kjail" --config "$empty_ini" -C "$S/cproj" -- make -s -j2 && [ -x prog ] && make -s clean) >&2 ||
		die "the C project does not build, in the jail or outside"
fi

# The seccomp program kjail passes, exported once (kjail's own exporter).
"$scdump" "$S/seccomp.bpf" >/dev/null || die "cannot export the seccomp program"
# ... and checked against what kjail really hands bwrap, when strace is here.
if command -v strace >/dev/null; then
	(cd "$S/w10" && strace -f -qq -o "$S/strace-bpf.txt" -e trace=read -e signal=none -xx -s 65536 \
		"$kjail" --config "$empty_ini" -- /bin/true) || true
	bpf_fd=$(cd "$S/w10" && "$kjail" --config "$empty_ini" --print -- /bin/true |
		sed -n 's/.* --seccomp \([0-9]*\) .*/\1/p')
	bpf_check=$(python3 - "$S/strace-bpf.txt" "$bpf_fd" "$S/seccomp.bpf" <<-'EOF'

	import re, sys
	trace, fd, ref = sys.argv[1], sys.argv[2], open(sys.argv[3], 'rb').read()
	got = b''
	for line in open(trace):
	    m = re.search(r'read\(%s, "((?:\\x[0-9a-f]{2})*)"' % fd, line)
	    if m:
	        got += bytes.fromhex(m.group(1).replace('\\x', ''))
	if got and got != ref:
	    sys.exit(1)
	print("identical to what kjail hands bwrap (checked with strace)" if got else "not checked (strace saw no read)")
	EOF
	) || die "the exported seccomp program differs from the one kjail hands bwrap"
	fact seccomp_check "$bpf_check"
fi

# ------------------------------------------------- the raw bwrap command
# derive NAME ARGS...: from `kjail ARGS --print --json -- /bin/true` run in
# the current directory (its argv, whatever it holds), write $S/raw/NAME (the raw bwrap line, no entry helper)
# and $S/raw/NAME+h (with it): fdexec argument files, NUL-separated, that
# open every descriptor the line names, as kjail would, and exec bwrap.
declare -A bw_arity=(
	[--unshare-user]=0 [--unshare-user-try]=0 [--unshare-ipc]=0 [--unshare-pid]=0
	[--unshare-net]=0 [--unshare-uts]=0 [--unshare-cgroup]=0 [--unshare-cgroup-try]=0
	[--unshare-all]=0 [--share-net]=0 [--new-session]=0 [--die-with-parent]=0
	[--as-pid-1]=0 [--clearenv]=0 [--disable-userns]=0 [--assert-userns-disabled]=0
	[--argv0]=1 [--uid]=1 [--gid]=1 [--hostname]=1 [--chdir]=1 [--unsetenv]=1
	[--remount-ro]=1 [--exec-label]=1 [--file-label]=1 [--proc]=1 [--dev]=1
	[--tmpfs]=1 [--mqueue]=1 [--dir]=1 [--cap-add]=1 [--cap-drop]=1 [--perms]=1
	[--size]=1 [--lock-file]=1 [--tmp-overlay]=1 [--ro-overlay]=1 [--overlay-src]=1
	[--setenv]=2 [--bind]=2 [--bind-try]=2 [--dev-bind]=2 [--dev-bind-try]=2
	[--ro-bind]=2 [--ro-bind-try]=2 [--symlink]=2 [--chmod]=2 [--overlay]=3
)
derive() {
	local name=$1; shift
	local line
	line=$("$kjail" "$@" --print -- /bin/true) || die "kjail --print failed for $name"
	printf '%s\n' "$line" >"$S/raw/$name.print"
	# The words come from --print --json's argv (no shell quoting to undo).
	# A kjail whose entry helper takes a descriptor G lists what it writes
	# there as go_words (the writable paths, then "--go"): written to a file
	# for fdexec. A kjail without G has no go_words, and its helper's words
	# (--rw=PATH...) are in argv like any other.
	"$kjail" "$@" --print --json -- /bin/true >"$S/raw/$name.json" ||
		die "kjail --print --json failed for $name"
	python3 - "$S/raw/$name.json" "$S/data/$name.go" "$S/raw/$name.argv" <<-'EOF' ||
	import json, sys
	d = json.load(open(sys.argv[1]))
	if "go_words" in d:
	    open(sys.argv[2], "wb").write(b"".join(w.encode() + b"\0" for w in d["go_words"]))
	open(sys.argv[3], "wb").write(b"".join(w.encode() + b"\0" for w in d["argv"]))
	EOF
		die "cannot read the argv of kjail --print --json for $name"
	local -a w=() specs=() opts=() data_fd=() data_dst=()
	mapfile -d '' -t w <"$S/raw/$name.argv"
	[ "${#w[@]}" -gt 0 ] || die "kjail --print --json has an empty argv for $name"
	local i=1 n=${#w[@]} o k
	while [ "$i" -lt "$n" ] && [ "${w[$i]}" != -- ]; do
		o=${w[$i]}
		case $o in
		--seccomp | --add-seccomp-fd)
			specs+=("${w[$((i + 1))]}:r:$S/seccomp.bpf")
			opts+=("$o" "${w[$((i + 1))]}"); i=$((i + 2)) ;;
		--info-fd)
			# bwrap writes its child's pid there; kjail reads it
			specs+=("${w[$((i + 1))]}:w:/dev/null")
			opts+=("$o" "${w[$((i + 1))]}"); i=$((i + 2)) ;;
		--ro-bind-data | --bind-data | --file)
			data_fd+=("${w[$((i + 1))]}") data_dst+=("${w[$((i + 2))]}")
			opts+=("$o" "${w[$((i + 1))]}" "${w[$((i + 2))]}"); i=$((i + 3)) ;;
		*)
			[ -n "${bw_arity[$o]:-}" ] ||
				die "cannot rebuild the raw bwrap line: bwrap option '$o' is not known to bench/run.sh"
			opts+=("${w[@]:$i:$((1 + bw_arity[$o]))}"); i=$((i + 1 + bw_arity[$o])) ;;
		esac
	done
	# The tail: -- SELF --jail-entry=S,E,M[,G] [HELPER-WORD]... -- /bin/true
	local self=${w[$((i + 1))]:-} entry=${w[$((i + 2))]:-}
	if ! [[ $entry =~ ^--jail-entry=([0-9]+),([0-9]+),([0-9]+)(,([0-9]+))?$ ]]; then
		die "cannot rebuild the raw bwrap line: no '-- SELF --jail-entry=S,E,M[,G]' tail in: $line"
	fi
	local status_fd=${BASH_REMATCH[1]} err_fd=${BASH_REMATCH[2]} go_fd=${BASH_REMATCH[5]}
	local j=$((i + 3))
	local -a hwords=()
	while [ "$j" -lt "$n" ] && [ "${w[$j]}" != -- ]; do hwords+=("${w[$j]}"); j=$((j + 1)); done
	[ "${w[$j]:-}" = -- ] ||
		die "cannot rebuild the raw bwrap line: no '--' after the entry helper's options in: $line"
	local -a cmd=("${w[@]:$((j + 1))}")
	local -a hspecs=("$status_fd:w:/dev/null" "$err_fd:dup:2")
	if [ -n "$go_fd" ]; then
		[ -f "$S/data/$name.go" ] ||
			die "the entry helper takes a descriptor $go_fd, but kjail --print --json lists no go_words"
		hspecs+=("$go_fd:r:$S/data/$name.go")
	fi
	# What each data descriptor holds, as the jail sees it: empty (a mask)
	# from /dev/null, anything else (kjail's policy file) copied once.
	if [ "${#data_dst[@]}" -gt 0 ]; then
		local sizes
		sizes=$("$kjail" "$@" -- /usr/bin/stat -L -c %s -- "${data_dst[@]}") ||
			die "cannot read the data files of $name inside the jail"
		local -a sz
		mapfile -t sz <<<"$sizes"
		for ((k = 0; k < ${#data_dst[@]}; k++)); do
			if [ "${sz[$k]}" = 0 ]; then
				specs+=("${data_fd[$k]}:r:/dev/null")
			else
				local f=$S/data/$name.$k
				"$kjail" "$@" -- /bin/cat -- "${data_dst[$k]}" >"$f" ||
					die "cannot copy ${data_dst[$k]} out of the jail"
				specs+=("${data_fd[$k]}:r:$f")
			fi
		done
	fi
	printf '%s\0' "${specs[@]}" -- "${w[0]}" "${opts[@]}" -- "${cmd[@]}" >"$S/raw/$name"
	printf '%s\0' "${specs[@]}" "${hspecs[@]}" -- \
		"${w[0]}" "${opts[@]}" -- "$self" "$entry" "${hwords[@]}" -- "${cmd[@]}" >"$S/raw/$name+h"
	"$fdexec" "@$S/raw/$name" || die "the raw bwrap line for $name fails: $(tr '\0' ' ' <"$S/raw/$name")"
	"$fdexec" "@$S/raw/$name+h" || die "the raw bwrap line with the helper for $name fails"
}

# ---------------------------------------------------------------- timing
q() { printf '%q' "$1"; }
# group NAME DIR [K=V...] -- LABEL CMD [LABEL CMD]...: ROUNDS hyperfine runs
# of all the commands, in DIR, with K=V in the environment; their times land
# in $S/json. GROUP_WARMUP, GROUP_RUNS and GROUP_ROUNDS override --warmup,
# --runs and --rounds (for commands of seconds); GROUP_PREPARE is a command
# (no shell) hyperfine runs in DIR before each run of each command.
group() {
	local gname=$1 dir=$2; shift 2
	local -a envp=()
	while [ "$1" != -- ]; do envp+=("$1"); shift; done
	shift
	local -a hf=() rev=()
	while [ $# -gt 0 ]; do hf+=(-n "$1" "$2"); rev=(-n "$1" "$2" "${rev[@]}"); shift 2; done
	local r gw=${GROUP_WARMUP:-$warmup} gruns=${GROUP_RUNS:-$runs} grounds=${GROUP_ROUNDS:-$rounds}
	local -a prep=()
	[ -z "${GROUP_PREPARE:-}" ] || prep=(--prepare "$GROUP_PREPARE")
	for ((r = 1; r <= grounds; r++)); do
		[ $((r % 2)) = 1 ] || { local -a t=("${hf[@]}"); hf=("${rev[@]}"); rev=("${t[@]}"); }
		say "timing $gname (round $r of $grounds)"
		if ! (cd "$dir" && env "${envp[@]}" hyperfine -N --style basic --warmup "$gw" --runs "$gruns" \
			"${prep[@]}" --export-json "$S/json/$gname.$r.json" "${hf[@]}") >>"$log" 2>&1; then
			say "$gname: hyperfine failed (see below); its commands are reported as failed"
			tail -n 15 "$log" >&2
			rm -f "$S/json/$gname.$r.json"
			fact "failed:$gname" 1
			return 0
		fi
	done
}

kj=$(q "$kjail")
kjc="$kj --config $(q "$empty_ini")"
fdx=$(q "$fdexec")
fdr() { printf '%s %s' "$fdx" "$(q "@$S/raw/$1")"; } # the fdexec command for raw line $1
fdw() { printf '%s --wait %s' "$fdx" "$(q "@$S/raw/$1")"; } # ... started as its child, waited for

say "deriving the raw bwrap lines from kjail --print"
printf '%s\0' -- /bin/true >"$S/raw/true"
(cd "$S/w10" && derive base --config "$empty_ini")
if want masks; then
	for nm in 1 100 $n_masks_max; do
		mapfile -d '' -t margs < <(mask_args "$nm")
		(cd "$S/w10" && derive "m$nm" --config "$empty_ini" "${margs[@]}")
	done
fi
if want workspace; then
	for ws in w10 w10k w100k; do
		(cd "$S" && derive "$ws" --config "$empty_ini" -C "$S/$ws")
	done
fi

# 1. start-up, side by side. Checks 1 and 2 are ratios of two medians some
# 10-20% apart on a machine whose bwrap runs swing by more than that from
# one second to the next (interquartile ranges of 20%): twelve times the
# rounds, finer interleaving and more runs. With 108 runs a median the ratio
# moved by +-0.03 from one run of this script to the next, with 432 by
# +-0.004 (measured on this project's 2-CPU test machine, 2026-12-01).
startup_rounds=$((quick == 1 ? rounds * 3 : rounds * 12))
want startup && GROUP_ROUNDS=$startup_rounds cpu_busy startup group startup "$S/w10" -- \
	true /bin/true \
	fdexec-true "$(fdr true)" \
	bwrap-raw "$(fdr base)" \
	bwrap-raw+helper "$(fdr base+h)" \
	bwrap-raw+helper-wait "$(fdw base+h)" \
	kjail "$kjc -- /bin/true" \
	kjail-print "$kjc --print -- /bin/true" \
	kjail-landlock "$kjc --backend=landlock -- /bin/true" \
	kjail-built "$(q "$kjail_built") --config $(q "$empty_ini") -- /bin/true"
# ... and the same with the machine busy: two CPU-bound processes (as many
# as this machine has CPUs here; a build or a test run on a laptop), started
# for this group only. Net again: the opener is timed under the same load.
# Runs take two to three times as long there: four times the rounds (144
# runs per median), so that the others' machine is not held busy for long.
load_rounds=$((quick == 1 ? rounds * 3 : rounds * 4))
if want load; then
	load_start 2
	fact load:procs "2 × sh -c 'while :; do :; done' (nproc $(nproc))"
	GROUP_ROUNDS=$load_rounds cpu_busy load group load "$S/w10" -- \
		true-load /bin/true \
		fdexec-true-load "$(fdr true)" \
		bwrap-raw+helper-load "$(fdr base+h)" \
		bwrap-raw+helper-wait-load "$(fdw base+h)" \
		kjail-load "$kjc -- /bin/true" \
		kjail-landlock-load "$kjc --backend=landlock -- /bin/true"
	load_stop
fi
if want peers && [ -n "$firejail_bin" ]; then
	group firejail "$S/w10" -- firejail "$(q "$firejail_bin") --quiet --noprofile /bin/true"
fi
if want peers && [ -n "$srt_bin" ]; then
	GROUP_WARMUP=1 GROUP_RUNS=$((runs * rounds > 9 ? 9 : runs)) GROUP_ROUNDS=$(((runs * rounds + 8) / 9)) group srt "$S/w10" -- srt "$(q "$srt_bin") true"
fi

# 2. work inside the jail against the same work outside, in the same
# directory, interleaved: what a user of a whole-process jail feels. find
# and make take seconds a run: half the rounds, and two thirds of the runs
# for find, a third for make (each of its runs is 41 compiler runs; warmed
# up once beforehand by the check above).
if want work; then
	long_rounds=$(((rounds + 1) / 2))
	long_runs=$((quick == 1 ? runs : (2 * runs * rounds / 3 + long_rounds - 1) / long_rounds))
	make_runs=$((quick == 1 ? runs : (runs * rounds / 3 + long_rounds - 1) / long_rounds))
	fact work:runs "git status $rounds x $runs; find $long_rounds x $long_runs; make $long_rounds x $make_runs (no warmup, make clean before each run)"
	# each group also times kjail's start (kjail -- /bin/true against
	# /bin/true, in the same directory): what the work costs in the jail is
	# the inside time less that start, which checks 1 and 2 measure
	cpu_busy git group git "$S/repo" -- \
		git-out "git status" \
		git-in "$kjc -C $(q "$S/repo") -- git status" \
		git-start-out /bin/true \
		git-start-in "$kjc -C $(q "$S/repo") -- /bin/true"
	find_cmd="find $(q "$find_root") -type d ! -readable -prune -o -name '*.h' -print"
	GROUP_ROUNDS=$long_rounds GROUP_RUNS=$long_runs cpu_busy find group find "$S/w10" -- \
		find-out "$find_cmd" \
		find-in "$kjc -C $(q "$S/w10") -- $find_cmd" \
		find-start-out /bin/true \
		find-start-in "$kjc -C $(q "$S/w10") -- /bin/true"
	# make's own variables from `make bench` would reach the inner make
	(unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS
	GROUP_ROUNDS=$long_rounds GROUP_RUNS=$make_runs GROUP_WARMUP=0 GROUP_PREPARE="make -s clean" \
		cpu_busy make group make "$S/cproj" -- \
		make-out "make -s -j2" \
		make-in "$kjc -C $(q "$S/cproj") -- make -s -j2" \
		make-start-out /bin/true \
		make-start-in "$kjc -C $(q "$S/cproj") -- /bin/true")
	fact work:repo "$n_repo files committed, 1 modified, 1 untracked"
	fact work:units "$n_units"
	fact work:find_root "$find_root"
fi

# 3. masks ...
mask_cmd() { # N: kjail with N --deny-read masks (one word per -r value)
	local s="$kjc" a
	mapfile -d '' -t a < <(mask_args "$1")
	local i
	for ((i = 0; i < ${#a[@]}; i += 2)); do s+=" -r $(q "${a[$((i + 1))]}")"; done
	printf '%s' "$s"
}
for nm in 1 100 $n_masks_max; do
	want masks || break
	# bwrap needs seconds for 1,000 masks: one warmup run is plenty there,
	# and fewer, longer rounds (the same number of runs).
	if [ "$nm" -ge 1000 ] && [ "$runs" -lt 9 ] && [ $((runs * rounds)) -ge 9 ]; then
		GROUP_RUNS=9 GROUP_ROUNDS=$(((runs * rounds + 8) / 9))
	else
		GROUP_RUNS=$runs GROUP_ROUNDS=$rounds
	fi
	GROUP_WARMUP=$([ "$nm" -ge 1000 ] && echo 1 || echo "$warmup") GROUP_RUNS=$GROUP_RUNS \
		GROUP_ROUNDS=$GROUP_ROUNDS group "masks$nm" "$S/w10" -- \
		"kjail-m$nm" "$(mask_cmd "$nm") -- /bin/true" \
		"kjail-print-m$nm" "$(mask_cmd "$nm") --print -- /bin/true" \
		"bwrap-raw-m$nm" "$(fdr "m$nm")" \
		"bwrap-raw+helper-m$nm" "$(fdr "m$nm+h")"
done
# ... and workspaces
want workspace && group workspace "$S" -- \
	kjail-w10 "$kjc -C $(q "$S/w10") -- /bin/true" \
	kjail-w10k "$kjc -C $(q "$S/w10k") -- /bin/true" \
	kjail-w100k "$kjc -C $(q "$S/w100k") -- /bin/true" \
	bwrap-raw+helper-w10 "$(fdr w10+h)" \
	bwrap-raw+helper-w10k "$(fdr w10k+h)" \
	bwrap-raw+helper-w100k "$(fdr w100k+h)"

# ... and the socket scan over a home of 10,000 entries
if want sockets; then
	(cd "$S/w10" && HOME="$S/home10k" "$kjail" --config "$empty_ini" --explain --json) |
		python3 -c 'import json,sys; d=json.load(sys.stdin)["socket_scan"]; print(d["entries"], len(d["masked"]))' \
		>"$S/scan.txt" || die "kjail --explain --json failed on the scan's home"
	read -r scan_entries scan_masked <"$S/scan.txt"
	fact scan_entries "$scan_entries"
	fact scan_masked "$scan_masked"
	group sockets0 "$S/w10" HOME="$S/home0" -- \
		kjail-print-home0 "$kjc --print -- /bin/true" \
		kjail-print-nodef-home0 "$kjc --no-defaults --print -- /bin/true"
	group sockets "$S/w10" HOME="$S/home10k" -- \
		kjail-print-home10k "$kjc --print -- /bin/true" \
		kjail-print-nodef-home10k "$kjc --no-defaults --print -- /bin/true"
fi
# 3c. the credential scan (issue 39 item 7): a home of 10,000 entries in
# dot-directories, all within the scan's depth (~/.config/tN/dK/F,
# ~/.toolN/dK/F), small
# settings files, none holding a credential, against an empty home; the
# scan's memory removed before each run (cold: every file read) or kept
# (warm: each file's lstat only)
if want home; then
	n_home=$([ "$quick" = 1 ] && echo 1000 || echo 10000)
	hb=$S/homecred h0=$S/homecred0 hr=$S/home-run
	mkdir -p "$h0" && mkdir -m 700 -p "$hr"
	python3 - "$hb" "$n_home" <<-'EOF'
	import os, sys
	home, n = sys.argv[1], int(sys.argv[2])
	made = 0
	t = 0
	while made < n:
	    # within the scan's depth: ~/.config/tN/dK/F, ~/.toolN/dK/F
	    top = os.path.join(home, ".config", "t%d" % t) if t % 2 else os.path.join(home, ".tool%d" % t)
	    for d in range(4):
	        sub = os.path.join(top, "d%d" % d)
	        os.makedirs(sub, exist_ok=True)
	        made += 1
	        for f in range(9):
	            with open(os.path.join(sub, "s%d.json" % f), "w") as fh:
	                fh.write('{\n  "theme": "dark",\n  "size": %d,\n  "name": "t%d-d%d"\n}\n' % (f, t, d))
	            made += 1
	    t += 1
	EOF
	fact home:entries "$(find "$hb" -mindepth 1 | wc -l)"
	GROUP_PREPARE="rm -f $hr/kjail/credscan" group home-cold "$S/w10" HOME="$hb" \
		XDG_CONFIG_HOME="$hb/.config" XDG_RUNTIME_DIR="$hr" -- \
		kjail-home-cold "$kjc -- /bin/true"
	group home-warm "$S/w10" HOME="$hb" XDG_CONFIG_HOME="$hb/.config" XDG_RUNTIME_DIR="$hr" -- \
		kjail-home-warm "$kjc -- /bin/true"
	group home-empty "$S/w10" HOME="$h0" XDG_CONFIG_HOME="$h0/.config" XDG_RUNTIME_DIR="$hr" -- \
		kjail-home-empty "$kjc -- /bin/true"
fi

# 4. kli with 1,000 capability entries (lines stay under the reader's 198
# characters: `capabilities` repeats within [kli] to continue the list).
kh=$S/kli-home kh0=$S/kli-home0
kli_env=(HOME="$kh" XDG_CONFIG_HOME="$kh/.config")
kli_env0=(HOME="$kh0" XDG_CONFIG_HOME="$kh0/.config")
if want kli || want instructions; then
mkdir -p "$kh/.config/kli" "$kh0/.config/kli" "$S/kp"
python3 - "$kh/.config/kli/config.ini" "$S/kp" <<-'EOF'
	import sys
	path, base = sys.argv[1], sys.argv[2]
	entries = ["bench/p%04d under %s/p%04d" % (i, base, i) for i in range(1000)]
	lines, cur = ["[kli]"], []
	for e in entries:
	    trial = "capabilities = " + ", ".join(cur + [e])
	    if cur and len(trial) > 190:
	        lines.append("capabilities = " + ", ".join(cur)); cur = []
	    cur.append(e)
	lines.append("capabilities = " + ", ".join(cur))
	assert max(len(l) for l in lines) <= 198
	open(path, "w").write("\n".join(lines) + "\n")
	EOF
(cd "$S/w10" && env "${kli_env[@]}" "$kli" --print-authority --json) >"$S/kli.json" ||
	die "kli --print-authority failed on the 1,000-entry config"
kli_caps=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["scope"], len(d["capabilities"]))' "$S/kli.json")
if [ "${kli_caps% *}" != bounded ] || [ "${kli_caps#* }" -lt 1000 ]; then
	die "kli read the 1,000-entry config as: $kli_caps"
fi
fact kli_caps "${kli_caps#* }"
fact kli_config_lines "$(wc -l <"$kh/.config/kli/config.ini")"
fi
if want kli; then
group kli "$S/w10" "${kli_env[@]}" -- kli-1000 "$(q "$kli") --print-authority --json"
group kli0 "$S/w10" "${kli_env0[@]}" -- kli-0 "$(q "$kli") --print-authority --json"

say "covers micro-benchmark"
"$covers" "$([ "$quick" = 1 ] && echo 0.05 || echo 0.5)" >"$S/covers.txt" || die "covers-bench failed"
while IFS='=' read -r k v; do fact "covers:$k" "$v"; done <"$S/covers.txt"
fi

# ------------------------------------------------------------ instructions
# kjail's own work, counted whole: kjail --print does what a run does before
# it starts bwrap (config, plan, policy file, seccomp export, argv), then
# quotes and prints the command line instead; the count does not move with
# the machine's load.
ir_of() { # KEY DIR [K=V]... -- CMD...: total Ir of the process (callgrind), as a fact
	local key=$1 dir=$2; shift 2
	local -a envp=()
	while [ "$1" != -- ]; do envp+=("$1"); shift; done
	shift
	[ "$have_valgrind" = 1 ] || return 0
	rm -f "$S/cg/$key".*
	# valgrind gives its client the soft descriptor limit as the hard one,
	# and kjail needs one descriptor per masked file: raise the soft first.
	(cd "$dir" && { ulimit -n "$(ulimit -Hn)" 2>/dev/null || :; } &&
		env "${envp[@]}" valgrind --tool=callgrind --trace-children=no \
		--callgrind-out-file="$S/cg/$key.%p" "$@") >/dev/null 2>"$S/cg/$key.log" || {
		say "callgrind failed for $key (see $S/cg/$key.log)"; return 0; }
	local total=0 f v
	for f in "$S/cg/$key".[0-9]*; do
		v=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p; s/^summary: *\([0-9]*\).*/\1/p' "$f" | head -n 1)
		total=$((total + ${v:-0}))
	done
	fact "ir:$key" "$total"
}
if want instructions; then
say "counting instructions (callgrind)"
for nm in 0 1 100 $n_masks_max; do
	mapfile -d '' -t margs < <([ "$nm" = 0 ] || mask_args "$nm")
	ir_of "print-m$nm" "$S/w10" -- "$kjail" --config "$empty_ini" "${margs[@]}" --print -- /bin/true
done
# The same, as the issue's example writes it (no built-in masks).
mapfile -d '' -t margs < <(mask_args "$n_masks_max")
ir_of "print-nodef-m$n_masks_max" "$S/w10" -- "$kjail" --config "$empty_ini" --no-defaults \
	"${margs[@]}" --print -- /bin/true
ir_of print-w100k "$S/w10" -- "$kjail" --config "$empty_ini" -C "$S/w100k" --print -- /bin/true
ir_of print-w10k "$S/w10" -- "$kjail" --config "$empty_ini" -C "$S/w10k" --print -- /bin/true
ir_of print-w10 "$S/w10" -- "$kjail" --config "$empty_ini" -C "$S/w10" --print -- /bin/true
ir_of true "$S/w10" -- /bin/true
# System calls of kjail's own pre-exec work, by workspace size (deterministic
# where timings are not: the workspace must not be walked).
if command -v strace >/dev/null; then
	for ws in w10 w10k w100k; do
		(cd "$S/w10" && strace -c -o "$S/sc-$ws.txt" "$kjail" --config "$empty_ini" -C "$S/$ws" \
			--print -- /bin/true >/dev/null) &&
			fact "sc:print-$ws" "$(awk '$NF == "total" { print $4 }' "$S/sc-$ws.txt")"
	done
fi
ir_of kli-1000 "$S/w10" "${kli_env[@]}" -- "$kli" --print-authority --json
ir_of kli-0 "$S/w10" "${kli_env0[@]}" -- "$kli" --print-authority --json
fi

# ----------------------------------------------------------------- machine
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -m)
# shellcheck disable=SC1091
os=$( (. /etc/os-release && printf '%s' "$PRETTY_NAME") 2>/dev/null || uname -s)
bwrap_bin=$(sed -n '1s/ .*//p' "$S/raw/base.print")
fact machine:nproc "$(nproc)"
fact machine:cpu "$cpu"
fact machine:kernel "$(uname -sr)"
fact machine:os "$os"
fact machine:mem "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
fact machine:bwrap "$("$bwrap_bin" --version 2>/dev/null || echo unknown) ($bwrap_bin)"
fact machine:hyperfine "$(hyperfine --version)"
fact machine:valgrind "$(valgrind --version 2>/dev/null || echo 'not installed')"
fact machine:firejail "$([ -n "$firejail_bin" ] && "$firejail_bin" --version 2>/dev/null | head -n 1 || echo 'not installed')"
fact machine:srt "$([ -n "$srt_bin" ] && echo "srt $("$srt_bin" --version 2>/dev/null)" || echo 'not installed')"
fact machine:kjail "$("$kjail" --version | head -n 1) ($kjail_built, timed as installed by install(1))"
fact machine:source "$(git -C "$srcdir" describe --always --dirty 2>/dev/null || echo unknown)"
fact run:date "$(date -u '+%Y-%m-%d %H:%M UTC')"
fact run:runs "$rounds rounds x $runs runs (warmup $warmup per round; start-up $startup_rounds x $runs, under load $load_rounds x $runs; the 1,000-mask group $(((runs * rounds + 8) / 9)) x 9)"
fact run:quick "$quick"
fact run:only "$only"
fact run:mounts "$(wc -l </proc/self/mountinfo)"
fact run:base_print "$(cat "$S/raw/base.print")"

say "writing $out"
python3 - "$S" "$out" "$strict" <<-'EOF'
	import glob, json, os, statistics, sys
	S, out, strict = sys.argv[1], sys.argv[2], sys.argv[3] == "1"

	times = {}
	for f in sorted(glob.glob(os.path.join(S, "json", "*.json"))):
	    for r in json.load(open(f))["results"]:
	        times.setdefault(r["command"], []).extend(r["times"])
	facts = {}
	for line in open(os.path.join(S, "facts.tsv")):
	    k, _, v = line.rstrip("\n").partition("\t")
	    facts[k] = v

	def med(name):
	    t = times.get(name)
	    return statistics.median(t) * 1e3 if t else None

	def spread(name):
	    t = sorted(times.get(name) or [])
	    if len(t) < 4:
	        return ""
	    q = statistics.quantiles(t, n=4)
	    return "%.2f–%.2f" % (q[0] * 1e3, q[2] * 1e3)

	def ms(v):
	    return "%.2f" % v if v is not None else "—"

	def ratio(a, b):
	    return a / b if a is not None and b else None

	def x(v):
	    return "%.2f×" % v if v is not None else "—"

	def x3(v):  # acceptance: three decimals, so 1.104 never shows as a failed "1.10"
	    return "%.3f×" % v if v is not None else "—"

	def ir(key):
	    v = facts.get("ir:" + key)
	    return int(v) if v else None

	def num(v):
	    return "{:,}".format(v) if v is not None else "n/a"

	opener = None
	if med("fdexec-true") is not None and med("true") is not None:
	    opener = med("fdexec-true") - med("true")

	def net(name):
	    v = med(name)
	    return v - opener if v is not None and opener is not None else None

	L = []
	w = L.append
	quick = facts.get("run:quick") == "1"
	w("# kjail and kli performance: bench/run.sh")
	w("")
	if quick:
	    w("**--quick: a smoke test, not a measurement; the checks below mean nothing.**")
	    w("")
	w("Run %s, %s per median, source `%s`." % (facts["run:date"], facts["run:runs"], facts["machine:source"]))
	w("")
	if facts.get("run:only", "all") != "all":
	    w("**--only %s: the other parts were not run (shown as — or n/a).**" % facts["run:only"])
	    w("")
	w("| machine | |")
	w("|---|---|")
	for k, label in [("nproc", "CPUs (nproc)"), ("cpu", "CPU"), ("mem", "memory"), ("kernel", "kernel"),
	                 ("os", "system"), ("bwrap", "bubblewrap"), ("hyperfine", "hyperfine"),
	                 ("valgrind", "valgrind"), ("firejail", "firejail"), ("srt", "srt"), ("kjail", "kjail")]:
	    w("| %s | %s |" % (label, facts.get("machine:" + k, "?")))
	w("| load average at the start | %s |" % facts.get("machine:load", "?"))
	w("| host mounts (`--ro-bind / /` copies each) | %s |" % facts.get("run:mounts", "?"))
	w("")
	failed = [k.split(":", 1)[1] for k in facts if k.startswith("failed:")]
	if failed:
	    w("**Failed to run: %s** (see the log of bench/run.sh)." % ", ".join(sorted(failed)))
	    w("")

	def busy(key):
	    v = facts.get("busy:" + key)
	    return "%s%%" % v if v else "?"

	only = facts.get("run:only", "all").split(",")
	peers_run = "all" in only or "peers" in only

	w("## 1. Start-up: `kjail -- /bin/true` against its raw bwrap command, idle and under load")
	w("")
	w("Workspace of 10 files, built-in policy (`--config` an empty file). *Raw bwrap* is the")
	w("exact command `kjail --print` shows (its words from `kjail --print --json`'s `argv`),")
	w("run by `bench/fdexec`, which opens the descriptors it names at the same numbers")
	w("(seccomp program exported once to a file, the policy file's data, `/dev/null` for")
	w("masks and the entry helper's status) and execs bwrap; *net* subtracts fdexec's own")
	w("cost (fdexec → /bin/true minus /bin/true, timed in the same condition). kjail and its")
	w("entry helper are copied into the scratch directory with install(1), as `make install`")
	w("does, and timed there. *Under load*: two CPU-bound processes (%s) run" % facts.get("load:procs", "2 × a shell's empty loop"))
	w("for that group only, started and killed by the benchmark.")
	w("")
	w("CPU busy during the idle group: %s; during the loaded group: %s (/proc/stat, every" % (busy("startup"), busy("load")))
	w("process, this benchmark's own included: it keeps about one CPU of %s busy)." % facts.get("machine:nproc", "?"))
	w("")
	w("| command | idle: median ms | interquartile ms | runs | under load: median ms | interquartile ms | runs |")
	w("|---|---:|---:|---:|---:|---:|---:|")
	rows = [("true", "`/bin/true`"), ("fdexec-true", "`fdexec /bin/true` (the descriptor opener alone)"),
	        ("bwrap-raw", "raw bwrap, no entry helper (gross)"),
	        ("bwrap-raw+helper", "raw bwrap: the exact `kjail --print` command (gross)"),
	        ("bwrap-raw+helper-wait", "the same, started by a parent that waits for it (`fdexec --wait`, gross)"),
	        ("kjail", "`kjail -- /bin/true`"),
	        ("kjail-print", "`kjail --print -- /bin/true` (no fork, no bwrap)"),
	        ("kjail-landlock", "`kjail --backend=landlock -- /bin/true` (no namespaces: issue 43)"),
	        ("kjail-built", "`kjail -- /bin/true`, the build tree's binaries as the linker wrote them"),
	        ("firejail", "`firejail --quiet --noprofile /bin/true`"), ("srt", "`srt true`")]
	def cell(key):
	    if med(key) is None:
	        return "— | | "
	    return "%s | %s | %d" % (ms(med(key)), spread(key), len(times.get(key, [])))
	for key, label in rows:
	    if key in ("firejail", "srt") and med(key) is None:
	        w("| %s | %s | | | | | |" % (label, "failed" if key in failed else "not installed" if peers_run else "not run"))
	        continue
	    loaded = cell(key + "-load") if key in ("true", "fdexec-true", "bwrap-raw+helper", "bwrap-raw+helper-wait", "kjail", "kjail-landlock") else "| | "
	    w("| %s | %s | %s |" % (label, cell(key), loaded))
	w("")

	def net_in(name, cond):
	    sfx = "-load" if cond == "load" else ""
	    v, t, f = med(name + sfx), med("true" + sfx), med("fdexec-true" + sfx)
	    return v - (f - t) if None not in (v, t, f) else None

	k, kl = med("kjail"), med("kjail-load")
	raw, rawh, rawhl = net("bwrap-raw"), net_in("bwrap-raw+helper", ""), net_in("bwrap-raw+helper", "load")
	w("| ratio | idle | under load |")
	w("|---|---:|---:|")
	w("| kjail / raw bwrap, the exact `--print` command (net) | %s | %s |" % (x3(ratio(k, rawh)), x3(ratio(kl, rawhl))))
	w("| kjail / raw bwrap, the exact `--print` command (gross, opener included) | %s | %s |" % (x3(ratio(k, med("bwrap-raw+helper"))), x3(ratio(kl, med("bwrap-raw+helper-load")))))
	w("| kjail − raw bwrap (net), ms | %s | %s |" % (ms(k - rawh if None not in (k, rawh) else None), ms(kl - rawhl if None not in (kl, rawhl) else None)))
	# a parent of its own, exec'd, that starts bwrap and waits for it: as
	# kjail is, with none of its work (gross: the parent's exec counts)
	waith, waithl = med("bwrap-raw+helper-wait"), med("bwrap-raw+helper-wait-load")
	w("| the floor: a minimal parent that waits (`fdexec --wait`, gross) / raw bwrap (net) | %s | %s |" % (x3(ratio(waith, rawh)), x3(ratio(waithl, rawhl))))
	w("| kjail / that minimal parent: kjail's own work | %s | %s |" % (x3(ratio(k, waith)), x3(ratio(kl, waithl))))
	w("| kjail / raw bwrap without the entry helper (net) | %s | |" % x3(ratio(k, raw)))
	w("| the entry helper: raw with it − raw without (net), ms | %s | |" % ms(rawh - raw if None not in (rawh, raw) else None))
	w("| kjail from the build tree / installed | %s | |" % x(ratio(med("kjail-built"), k)))
	w("| kjail --backend=landlock / kjail (bwrap) | %s | %s |" % (x3(ratio(med("kjail-landlock"), k)), x3(ratio(med("kjail-landlock-load"), kl))))
	w("| kjail --print − /bin/true, ms (config, plan, policy, seccomp, argv, printing) | %s | |" % ms(med("kjail-print") - med("true") if None not in (med("kjail-print"), med("true")) else None))
	for p in ("firejail", "srt"):
	    w("| %s / kjail | %s | |" % (p, x(ratio(med(p), k)) if med(p) is not None else "not installed" if peers_run else "not run"))
	w("")

	def start_cost(key):  # kjail's own start in a work group, ms
	    si, so = med(key + "-start-in"), med(key + "-start-out")
	    return None if None in (si, so) else si - so

	def net_ratio(key):  # the work in the jail, less kjail's start, / outside
	    o, i, c = med(key + "-out"), med(key + "-in"), start_cost(key)
	    return None if None in (o, i, c) else ratio(i - c, o)

	def commas(text):  # "20000 files ..." -> "20,000 files ..."
	    head, _, rest = text.partition(" ")
	    return "{:,}".format(int(head)) + " " + rest if head.isdigit() else text

	w("## 2. Work inside the jail against the same work outside")
	w("")
	w("`kjail --config EMPTY -C WORKSPACE -- CMD` against `CMD`, in the same directory, the two")
	w("interleaved round by round (%s)." % facts.get("work:runs", "?"))
	w("The git repository: %s (`git status`); find: `find %s -type d ! -readable -prune -o" % (commas(facts.get("work:repo", "?")), facts.get("work:find_root", "?")))
	w("-name '*.h' -print` (%s files out, %s in the jail: the jail's root cannot read what" % (facts.get("work:find_out", "?"), facts.get("work:find_in", "?")))
	w("only the host's root may); make: `make -s -j2` of a generated project of %s small C" % facts.get("work:units", "?"))
	w("files and a main, `make -s clean` before each run (hyperfine `--prepare`, not timed).")
	w("CPU busy meanwhile: git %s, find %s, make %s." % (busy("git"), busy("find"), busy("make")))
	w("")
	w("The jail is started once and the work runs in it: what the work costs there is the")
	w("inside time less kjail's own start in the same group (`kjail -- /bin/true` less")
	w("`/bin/true`, measured interleaved with the work; the start is checks 1 and 2). The")
	w("checks use that net ratio; the gross one, start included, is shown too.")
	w("")
	w("| work | outside: median ms | interquartile ms | inside: median ms | interquartile ms | kjail's start ms | runs each | inside net / outside | gross |")
	w("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	works = [("git", "`git status`, 20,000-file repository" if not quick else "`git status` (--quick: a small repository)"),
	         ("find", "`find %s` for `*.h`" % facts.get("work:find_root", "?")),
	         ("make", "`make -j2`, %s C files" % facts.get("work:units", "?"))]
	for key, label in works:
	    o, i = med(key + "-out"), med(key + "-in")
	    w("| %s | %s | %s | %s | %s | %s | %d | %s | %s |" % (label, ms(o), spread(key + "-out"), ms(i), spread(key + "-in"),
	                                               ms(start_cost(key)), len(times.get(key + "-in", [])),
	                                               x3(net_ratio(key)), x3(ratio(i, o))))
	w("")

	w("## 3. Growth: masks and workspace size")
	w("")
	w("`--deny-read` entries are existing files in a scratch directory outside the workspace")
	w("(and outside /tmp), built-in policy plus the masks. *Ir* is the whole `kjail --print`")
	w("process in instructions (callgrind): the work a run does before it starts bwrap, then")
	w("the quoting and printing of the command line; it does not move with the machine's load.")
	w("")
	w("| masks | kjail ms | kjail --print ms | raw bwrap net ms | raw + helper net ms | kjail / raw + helper | Ir `kjail --print` |")
	w("|---:|---:|---:|---:|---:|---:|---:|")
	w("| 0 | %s | %s | %s | %s | %s | %s |" % (ms(k), ms(med("kjail-print")), ms(raw), ms(rawh), x(ratio(k, rawh)), num(ir("print-m0"))))
	masks = sorted(int(n[len("kjail-m"):]) for n in times if n.startswith("kjail-m"))
	for n in masks:
	    kn, rn, rhn = med("kjail-m%d" % n), net("bwrap-raw-m%d" % n), net("bwrap-raw+helper-m%d" % n)
	    w("| %s | %s | %s | %s | %s | %s | %s |" % ("{:,}".format(n), ms(kn), ms(med("kjail-print-m%d" % n)), ms(rn), ms(rhn), x(ratio(kn, rhn)), num(ir("print-m%d" % n))))
	w("")
	wss = ["w10", "w10k", "w100k"]
	w("| workspace files | kjail ms | raw bwrap + helper net ms | kjail / 10-file kjail | Ir `kjail --print` | `kjail --print` system calls |")
	w("|---:|---:|---:|---:|---:|---:|")
	base_ws = med("kjail-w10")
	for key in wss:
	    kn = med("kjail-" + key)
	    label = {"w10": "10", "w10k": "10,000", "w100k": "100,000"}[key]
	    if quick and key != "w10":
	        label += " (--quick: fewer)"
	    w("| %s | %s | %s | %s | %s | %s |" % (label, ms(kn), ms(net("bwrap-raw+helper-" + key)), x(ratio(kn, base_ws)), num(ir("print-" + key)), facts.get("sc:print-" + key, "n/a")))
	w("")

	w("### 3b. The socket scan")
	w("")
	w("`kjail --print -- /bin/true` with `$HOME` an empty directory, then a home of %s entries" % commas(facts.get("scan_entries", "?")).split(" ")[0])
	w("in dot-directories (%s sockets among them, each masked: `socket_scan` in `--explain --json`)." % facts.get("scan_masked", "?"))
	w("`--no-defaults` turns the scan off, with the other built-in masks.")
	w("")
	w("| home | `kjail --print` ms | with `--no-defaults` ms | scan and home masks, ms |")
	w("|---|---:|---:|---:|")
	for key, label in (("home0", "empty"), ("home10k", "%s entries" % commas(facts.get("scan_entries", "?")).split(" ")[0])):
	    a, b = med("kjail-print-" + key), med("kjail-print-nodef-" + key)
	    w("| %s | %s | %s | %s |" % (label, ms(a), ms(b), ms(a - b) if a is not None and b is not None else "n/a"))
	w("")
	w("### 3c. The credential scan: a home of %s entries" % facts.get("home:entries", "?"))
	w("")
	w("`kjail -- /bin/true` with `HOME` a tree of small settings files in dot-directories")
	w("(none holding a credential), against an empty home: the scan's memory removed before")
	w("each run (cold: every file read and judged) and kept (warm: one `lstat` a file).")
	w("")
	w("| home | kjail ms | − empty home, ms |")
	w("|---|---:|---:|")
	he = med("kjail-home-empty")
	he_n = facts.get("home:entries", "?")
	for key, label in (("kjail-home-empty", "empty"), ("kjail-home-cold", "%s entries, cold" % he_n),
	                   ("kjail-home-warm", "%s entries, warm" % he_n)):
	    v = med(key)
	    w("| %s | %s | %s |" % (label, ms(v), ms(v - he) if None not in (v, he) else "n/a"))
	w("")

	w("## 4. kli")
	w("")
	w("| measurement | value |")
	w("|---|---:|")
	k0, k1 = med("kli-0"), med("kli-1000")
	w("| `kli --print-authority --json`, no config, ms | %s |" % ms(k0))
	w("| the same with %s capability entries (%s config lines), ms | %s |" % (facts.get("kli_caps", "?"), facts.get("kli_config_lines", "?"), ms(k1)))
	w("| ratio 1,000 entries / none | %s |" % x(ratio(k1, k0)))
	w("| instructions, 1,000 entries / none | %s / %s |" % (num(ir("kli-1000")), num(ir("kli-0"))))
	cps = float(facts["covers:covers_per_s"]) if "covers:covers_per_s" in facts else None
	w("| `grant_covers` on a 1,000-constraint grant, one-atom requests, checks/s | %s (%s ns each) |" % (num(int(cps)) if cps else "n/a", facts.get("covers:covers_ns", "?")))
	w("| `grant_covers` of the whole 1,000-atom grant by itself, µs per call | %s |" % facts.get("covers:covers_full_grant_us", "?"))
	chk = facts.get("covers:check_per_s")
	w("| `grant_check` (a tool's check: atom and path object, pure resolver), checks/s | %s |" % (num(int(float(chk))) if chk else "n/a"))
	w("")

	w("## Checks")
	w("")
	w("Medians; the benchmark reports them, it does not fail a build on them (`--strict` does).")
	w("")
	w("| # | check | measured | limit | result |")
	w("|---|---|---:|---:|---|")
	results = []
	def check(i, what, val, shown, limit, ok):
	    res = "n/a" if val is None else ("PASS" if ok else "FAIL")
	    if quick and res != "n/a":
	        res += " (--quick)"
	    results.append(res)
	    w("| %s | %s | %s | %s | %s |" % (i, what, shown, limit, res))
	r1, r2 = ratio(k, rawh), ratio(kl, rawhl)
	check(1, "`kjail -- /bin/true` / its raw bwrap command (net), idle", r1, x3(r1), "≤ 1.20×", r1 is not None and r1 <= 1.20)
	check(2, "`kjail -- /bin/true` / its raw bwrap command (net), two CPU-bound processes running", r2, x3(r2), "≤ 1.20×", r2 is not None and r2 <= 1.20)
	for i, (key, label) in enumerate([("git", "`git status`, %s files, in the jail / outside" % commas(facts.get("work:repo", "?")).split(" ")[0]),
	                                  ("find", "`find %s`, in the jail / outside" % facts.get("work:find_root", "?")),
	                                  ("make", "`make -j2` of a small C project, in the jail / outside")], start=3):
	    r = net_ratio(key)
	    check(i, label + " (net of kjail's start)", r, x3(r), "≤ 1.05×", r is not None and r <= 1.05)
	r6 = ratio(med("kjail-w100k"), base_ws)
	irw = ratio(ir("print-w100k"), ir("print-w10"))
	check(6, "kjail start-up, 100,000-file workspace / 10-file", r6,
	      x3(r6) + (" (instructions ×%.3f, system calls %s → %s)" % (irw, facts.get("sc:print-w10", "?"), facts.get("sc:print-w100k", "?")) if irw else ""),
	      "≤ 1.10×", r6 is not None and r6 <= 1.10)
	check(7, "`grant_covers` on 1,000 path constraints", cps, (num(int(cps)) + "/s") if cps else "n/a", "≥ 1,000,000/s", cps is not None and cps >= 1e6)
	w("")
	w("Instructions of `kjail --print` with 1,000 masks and no built-in masks (`--no-defaults`):")
	w("%s." % num(ir("print-nodef-m1000")))
	w("")
	w("The seccomp program on the raw lines: %s." % facts.get("seccomp_check", "not checked (no strace)"))
	w("")
	w("<details><summary>The bwrap command (kjail --print, 10-file workspace)</summary>")
	w("")
	w("```")
	w(facts.get("run:base_print", ""))
	w("```")
	w("</details>")
	open(out, "w").write("\n".join(L) + "\n")
	sys.stdout.write("\n".join(L) + "\n")
	if strict and any(r.startswith("FAIL") for r in results):
	    sys.exit(1)
	EOF
