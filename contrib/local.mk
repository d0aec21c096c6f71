# SPDX-License-Identifier: MIT
# contrib/: what is installed besides the programs and the manual pages
# (shell completions, example configurations), the recipes that are only
# distributed (systemd, containers, AppArmor, CI; see doc/recipes.md), and
# their tests.

# Shell completions, where each shell looks for them under the prefix.
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = \
	contrib/completions/kjail.bash \
	contrib/completions/kli.bash
zshcompletiondir = $(datadir)/zsh/site-functions
dist_zshcompletion_DATA = \
	contrib/completions/_kjail \
	contrib/completions/_kli
fishcompletiondir = $(datadir)/fish/vendor_completions.d
dist_fishcompletion_DATA = \
	contrib/completions/kjail.fish \
	contrib/completions/kli.fish

# Annotated configurations to copy; nothing is installed into /etc.
examplesdir = $(docdir)/examples
dist_examples_DATA = \
	contrib/examples/kjail.ini \
	contrib/examples/kli.ini

EXTRA_DIST += \
	contrib/systemd/kli-sandboxed.sh \
	contrib/container/Dockerfile \
	contrib/devcontainer/devcontainer.json \
	contrib/apparmor/bwrap \
	contrib/ci/kli-policy-check.yml \
	contrib/ci/check-authority.sh \
	contrib/ci/sample-policy.json \
	contrib/ci/kli-containment.yml \
	contrib/ci/check-containment.sh \
	contrib/ci/sample-baseline.json \
	contrib/ci/github-actions.yml \
	contrib/container/Containerfile.landlock \
	contrib/k8s/kli-pod.yaml

# install.test runs make install and uninstall with a DESTDIR of its own,
# and asks this target where each file should land.
CONTRIB_TESTS = \
	tests/integration/install.test \
	tests/integration/completion.test \
	tests/integration/ci-example.test \
	tests/integration/landlock-recipes.test \
	tests/integration/container-podman.test
TESTS += $(CONTRIB_TESTS)
EXTRA_DIST += $(CONTRIB_TESTS)
AM_TESTS_ENVIRONMENT += MAKE='$(MAKE)'; export MAKE;

print-install-dirs:
	@echo 'bindir=$(bindir)'
	@echo 'pkglibexecdir=$(pkglibexecdir)'
	@echo 'man1dir=$(man1dir)'
	@echo 'man5dir=$(man5dir)'
	@echo 'bashcompletiondir=$(bashcompletiondir)'
	@echo 'zshcompletiondir=$(zshcompletiondir)'
	@echo 'fishcompletiondir=$(fishcompletiondir)'
	@echo 'examplesdir=$(examplesdir)'
	@echo 'kjaildatadir=$(kjaildatadir)'
	@echo 'EXEEXT=$(EXEEXT)'
.PHONY: print-install-dirs
