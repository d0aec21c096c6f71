/* SPDX-License-Identifier: MIT */
/* --secret NAME=PATH | NAME=env:VAR, secret = in [sandbox]: bytes kjail
 * reads outside the jail and hands the command on an inherited descriptor
 * named by KJAIL_SECRET_<NAME>_FD (run/secret.h), never as a file or a
 * variable of the jail. Here: the syntax, checked once where it is read. */
#ifndef KJ_POLICY_SECRET_H
#define KJ_POLICY_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"

/* NAME is [a-z0-9_-]{1,SECRET_NAME_MAX}; a secret holds 1..SECRET_MAX bytes. */
#define SECRET_NAME_MAX 32
#define SECRET_MAX (64 * 1024)
/* Every KJAIL_SECRET_<NAME>_FD begins so; kjail never passes one of the
 * caller's into the jail. */
#define SECRET_VAR_PREFIX "KJAIL_SECRET_"

enum secret_kind { SECRET_FILE, SECRET_ENV };

struct secret_ref {
	char name[SECRET_NAME_MAX + 1];
	enum secret_kind kind;
	const char *source;   /* the path or the variable's name, in the value */
};

/* Checks "NAME=PATH" or "NAME=env:VAR" (PATH absolute, or ~/..., or with
 * cwd non-NULL relative to it) and adds it to l as "NAME=SOURCE", the path
 * expanded and normalized; false with one line in err (naming key) for a
 * bad NAME, no '=', an empty source, a bad variable name or a NAME given
 * twice. */
bool secret_add(struct entry_list *l, const char *key, const char *value, const char *origin,
		const char *home, const char *cwd, char *err, size_t errlen);

/* Splits an entry secret_add made. */
void secret_split(const char *value, struct secret_ref *out);

/* "KJAIL_SECRET_<NAME>_FD", NAME upper case and '-' as '_'. */
char *secret_fd_var(const char *name);

/* The secret whose source is the variable name, or NULL. */
const struct entry *secret_of_env(const struct entry_list *l, const char *name);

const char *secret_kind_name(enum secret_kind k);

#endif
