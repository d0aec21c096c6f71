# SPDX-License-Identifier: MIT
# Nix flake, package, module and their tests (issue 7).
#
# nix-eval.test evaluates nix/tests.nix (lib.nix, package.nix, module.nix
# and flake.nix with stand-ins for nixpkgs; module.nix under
# tests/nix/standin-modules.nix) and checks the text of the
# evaluation errors; nix-e2e.test feeds the kjail.ini and the wrapper that
# lib.nix generates to this build's kjail. Both need only nix-instantiate
# (offline, --store dummy://) and skip without it. nix-build.test runs real
# sandboxed nix-builds of the wrapper (root only: build users).
# nix-modules.test evaluates module.nix under the real module system
# (tests/nix/modules.nix) with nixpkgs' lib found at run time
# ($KJ_NIXPKGS_LIB or <nixpkgs/lib>; nothing of nixpkgs is in this tree)
# and skips without one; tests/nix/module-cases.nix is shared by both.
NIX_TESTS = \
	tests/integration/nix-eval.test \
	tests/integration/nix-e2e.test \
	tests/integration/nix-build.test \
	tests/integration/nix-modules.test
TESTS += $(NIX_TESTS)
EXTRA_DIST += $(NIX_TESTS) \
	nix/flake.nix \
	nix/lib.nix \
	nix/module.nix \
	nix/package.nix \
	nix/settings.nix \
	nix/tests.nix \
	tests/nix/check.nix \
	tests/nix/formats-ini.nix \
	tests/nix/module-cases.nix \
	tests/nix/modules.nix \
	tests/nix/standin-modules.nix \
	tests/integration/nix-build-cases.nix \
	contrib/nix/README.md
