#!/bin/sh
# SPDX-License-Identifier: MIT
# cred-names.sh man [TABLE]: the list of kjail's built-in credential stores
# as doc/kjail.1 carries it between its "BEGIN cred-stores" and "END
# cred-stores" lines, made from the table (TSV, as tests/helpers/cred-table
# prints it; stdin when no TABLE): one entry a tool, its places in the
# table's order.
#
# cred-names.sh --update HELPER: rewrites that list in doc/kjail.1 from the
# table HELPER prints (run from the source tree:
#   doc/cred-names.sh --update ./tests/helpers/cred-table).
# tests/integration/kjail-cred-table.test fails when they differ.
set -u
here=$(cd "$(dirname "$0")" && pwd)

block() {
	awk -F '\t' '
	function roff(s) {
		gsub(/\\/, "\\e", s)
		gsub(/-/, "\\-", s)
		gsub(/~/, "\\(ti", s)
		return s
	}
	function place(base, var, path, kind, fmt) {
		return where(base, var, path, kind) (fmt != "" && fmt != "-" ? " (filtered: " fmt ")" : "")
	}
	function where(base, var, path, kind,   p, slash) {
		slash = kind == "dir" ? "/" : ""
		p = path == "-" ? "" : path
		if (base == "home") return "~/" p slash
		if (base == "xdg-config") return "$" var "/" p slash " (~/.config/" p slash ")"
		if (base == "xdg-data") return "$" var "/" p slash " (~/.local/share/" p slash ")"
		if (base == "xdg-state") return "$" var "/" p slash " (~/.local/state/" p slash ")"
		if (base == "xdg-cache") return "$" var "/" p slash " (~/.cache/" p slash ")"
		if (base == "xdg-runtime") return "$" var "/" p slash
		if (base == "var") return "$" var (p == "" ? "" : "/" p) slash
		if (base == "var-list") return "each file $" var " lists"
		return "?" base
	}
	{
		if (!($1 in seen)) { seen[$1] = ++n; tool[n] = $1 }
		i = seen[$1]
		places[i] = places[i] (places[i] == "" ? "" : ", ") place($2, $3, $4, $5, $6)
	}
	END {
		# long paths do not break: no justification, or troff warns
		print ".ad l"
		for (i = 1; i <= n; i++) {
			print ".TP"
			printf ".B \"%s\"\n", roff(tool[i])
			print roff(places[i])
		}
		print ".ad b"
	}'
}

case ${1:-} in
--update)
	[ $# -eq 2 ] || { echo "usage: $0 --update HELPER" >&2; exit 2; }
	# the helper's own failure, not the pipe's last status: an empty
	# table must not empty the man page's list
	tsv=$("$2") && [ -n "$tsv" ] || { echo "$0: $2 gave no table" >&2; exit 1; }
	new=$(printf '%s\n' "$tsv" | block) || exit 1
	man=$here/kjail.1
	awk -v new="$new" '
		/BEGIN cred-stores/ { print; print new; skip = 1; next }
		/END cred-stores/ { skip = 0 }
		!skip' "$man" >"$man.tmp" && mv "$man.tmp" "$man"
	;;
man)
	if [ $# -eq 2 ]; then block <"$2"; else block; fi
	;;
*)
	echo "usage: $0 man [TABLE] | --update HELPER" >&2
	exit 2
	;;
esac
