#!/bin/sh
# SPDX-License-Identifier: MIT
# protected-names.sh FORMAT [TABLE]: the list of kjail's protected paths, as
# doc/security-model.md (FORMAT md) and doc/kjail.1 (FORMAT man) carry it
# between their "BEGIN protected-names" and "END protected-names" lines,
# made from the table (TSV, as tests/helpers/protected-table prints it;
# stdin when no TABLE).
#
# protected-names.sh --update HELPER: rewrites those lists in the two
# documents from the table HELPER prints (run from the source tree:
#   doc/protected-names.sh --update ./tests/helpers/protected-table).
# tests/integration/kjail-protected-docs.test fails when they differ.
set -u
here=$(cd "$(dirname "$0")" && pwd)

block() {
	awk -F '\t' -v fmt="$1" '
	function where(w,   n, i, p, out) {
		n = split(w, p, ",")
		out = ""
		for (i = 1; i <= n; i++) {
			s = p[i]
			if (s == "every-root") s = "every writable root"
			else if (s == "git-repo") s = "a repository'\''s work tree"
			else if (s == "submodule") s = "each submodule'\''s repository in .git/modules"
			else if (s == "worktree") s = "each worktree'\''s .git/worktrees/NAME"
			else if (s == "home") s = "the home directory"
			else if (s == "xdg-config") s = "$XDG_CONFIG_HOME, less .config/"
			else if (s == "xdg-data") s = "$XDG_DATA_HOME, less .local/share/"
			else if (s == "git-setting") s = "what this git setting names"
			else if (s == "git-config-file") s = "a git config file read in every repository"
			else if (s == "config-dirs") s = "~/.config/NAME, $XDG_CONFIG_HOME/NAME, the system'\''s"
			out = out (i > 1 ? "; " : "") s
		}
		return out
	}
	function absent(k) {
		if (k == "reserve") return "renamed aside after the run if the jail makes it"
		if (k == "if-present") return "nothing: protected only when there"
		if (k == "if-file") return "nothing: only a file is protected"
		if (k == "create-dir") return "made empty first (a .git one only in a repository; elsewhere renamed aside after the run if the jail makes it)"
		if (k == "make-file") return "made empty first under extensions.worktreeConfig; otherwise renamed aside after the run if the jail makes it"
		return k
	}
	function roff(s) {
		gsub(/\\/, "\\e", s)
		gsub(/-/, "\\-", s)
		gsub(/~/, "\\(ti", s)
		return s
	}
	fmt == "md" {
		if (NR == 1) {
			print "| Name | Where | When absent | Why |"
			print "|---|---|---|---|"
		}
		printf "| `%s` | %s | %s | %s |\n", $1, where($2), absent($3), $4
	}
	fmt == "man" {
		print ".TP"
		printf ".B \"%s\"\n", roff($1)
		printf "%s; when absent: %s; %s.\n", roff(where($2)), roff(absent($3)), roff($4)
	}'
}

# replace DOC FORMAT TABLE: the block in DOC, rewritten
replace() {
	_new=$(block "$2" <"$3") || exit 1
	awk -v new="$_new" '
		/BEGIN protected-names/ { print; print new; skip = 1; next }
		/END protected-names/ { skip = 0 }
		!skip' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

case ${1:-} in
--update)
	[ $# -eq 2 ] || { echo "usage: $0 --update HELPER" >&2; exit 2; }
	t=$(mktemp) || exit 1
	"$2" >"$t" || { rm -f "$t"; exit 1; }
	replace "$here/security-model.md" md "$t"
	replace "$here/kjail.1" man "$t"
	rm -f "$t"
	;;
md | man)
	if [ $# -eq 2 ]; then block "$1" <"$2"; else block "$1"; fi
	;;
*)
	echo "usage: $0 md|man [TABLE] | --update HELPER" >&2
	exit 2
	;;
esac
