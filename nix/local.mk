# SPDX-License-Identifier: MIT
# Nix flake, package, module and their tests (issue 7).
#
# nix-eval.test evaluates nix/tests.nix (lib.nix, package.nix, module.nix
# and flake.nix with stand-ins for nixpkgs) and checks the text of the
# evaluation errors; nix-e2e.test feeds the kjail.ini and the wrapper that
# lib.nix generates to this build's kjail. Both need only nix-instantiate
# (offline, --store dummy://) and skip without it. nix-build.test runs real
# sandboxed nix-builds of the wrapper (root only: build users).
NIX_TESTS = \
	tests/integration/nix-eval.test \
	tests/integration/nix-e2e.test \
	tests/integration/nix-build.test
TESTS += $(NIX_TESTS)
EXTRA_DIST += $(NIX_TESTS) \
	nix/flake.nix \
	nix/lib.nix \
	nix/module.nix \
	nix/package.nix \
	nix/tests.nix \
	tests/integration/nix-build-cases.nix \
	contrib/nix/README.md
