/* SPDX-License-Identifier: MIT */
/* kjail --check-config: the policy as declared (config files and flags),
 * read and checked, with nothing of this host resolved: no socket, device,
 * path, cache place, $XDG_* or $KUBECONFIG is looked at. Paths under the
 * home directory are written from "~" (the config's own "~/..."), the
 * built-in credential stores at their default places. The JSON has the
 * policy document's shape (doc/policy-json.md: "declared": true), so
 * `kli --check-containment --jail-policy` can judge a grant against it. */
#ifndef KJ_DECLARED_H
#define KJ_DECLARED_H

#include <stdbool.h>
#include <stdio.h>

#include "policy/policy.h"

/* The home kjail expands "~" to while it reads a config for
 * --check-config, and shows as "~" again. */
#define DECLARED_HOME "/~"

/* "~/x" for DECLARED_HOME "/x" under it; p itself otherwise. Owned. */
char *declared_shown(const char *p);

/* Writes the declared policy of p (workspace: cwd unless declared).
 * False with err one line when it cannot hold (an allowlist beside
 * network = true in a higher layer). */
bool declared_write(FILE *out, const struct policy *p, const char *cwd, bool json, char *err,
		    size_t errlen);

#endif
