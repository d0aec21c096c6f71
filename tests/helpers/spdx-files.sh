#!/bin/sh
# SPDX-License-Identifier: MIT
# spdx-files.sh TOP: the project's source files under TOP, one a line
# (relative to TOP): what must carry an SPDX line (license-lint.test) and
# what `sh tests/helpers/spdx-files.sh . | ...` adds one to. Build products,
# golden outputs, corpora, configs used as data and prose are not source.
cd "$1" || exit 1
find src tests bench contrib nix doc Makefile.am configure.ac bootstrap.sh .ci \
	\( -path '*/.deps' -o -path 'tests/fuzz/corpus' -o -path 'tests/unit/golden' \
	-o -name 'work.*' \) -prune -o -type f \( \
	-name '*.c' -o -name '*.h' -o -name '*.test' -o -name '*.sh' -o -name '*.mk' \
	-o -name '*.py' -o -name '*.nix' -o -name '*.fish' -o -name '*.bash' -o -name '_kjail' \
	-o -name '_kli' -o -name 'Dockerfile' -o -name '*.yml' -o -name '*.1' -o -name '*.5' \
	-o -name 'Makefile.am' -o -name 'configure.ac' -o -name 'bootstrap.sh' -o -path '.ci/run' \
	-o -path 'contrib/apparmor/*' \) -print |
	grep -v -e '^src/kjail/build/seccomp-bpf\.c$' | sort
