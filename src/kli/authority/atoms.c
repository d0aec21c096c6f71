/* SPDX-License-Identifier: MIT */
/* The lattice's atoms: their spelling and the implications between them,
 * and the small helpers the other files of authority/ share. */
#include "config.h"
#include "authority/atoms.h"
#include "authority/internal.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- atoms */

/* Direct implications, in an order where every source comes before any
 * edge leaving one of its targets, so one pass closes a grant.
 *
 * A bundle hands its constraint on (tools/standard under src/ writes only
 * under src/). result/read is checked against nothing (paging a result
 * has no object), so a constraint there could never be met: what implies
 * it grants it unconstrained. */
const struct auth_implication auth_implications[AUTH_NIMPLICATIONS] = {
	{ "tools/standard", "file/read", true },
	{ "tools/standard", "file/write", true },
	{ "tools/standard", "file/edit", true },
	{ "tools/standard", "process/exec", true },
	{ "file/read", "result/read", false },
	{ "process/exec", "result/read", false },
};

/* User text inside a one-line message: printable ASCII only, bounded. */
const char *auth_shown(const char *s, size_t n, char *buf, size_t buflen)
{
	size_t max = buflen - 4, o = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		if (o >= max) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		unsigned char c = (unsigned char)s[i];
		buf[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	buf[o] = '\0';
	return buf;
}


char *atom_normalize(const char *text, char *err, size_t errlen)
{
	const char *s = text[0] == ':' ? text + 1 : text;
	size_t n = strlen(s);
	if (n == 0) {
		fmt_into(err, errlen, "empty atom");
		return NULL;
	}
	if (n > ATOM_MAX_LEN) {
		fmt_into(err, errlen, "atom '%s' is longer than %d characters", SHOWN(text),
			 ATOM_MAX_LEN);
		return NULL;
	}
	_cleanup_free_ char *a = xstrndup(s, n);
	size_t nslash = 0, slash = 0;
	for (size_t i = 0; i < n; i++) {
		char c = a[i];
		if (c >= 'A' && c <= 'Z') /* not tolower(): the locale must not matter */
			a[i] = (char)(c - 'A' + 'a');
		else if (c == '/') {
			nslash++;
			slash = i;
		} else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
			fmt_into(err, errlen,
				 "atom '%s' has a character other than a-z, 0-9, '-' and one '/'",
				 SHOWN(text));
			return NULL;
		}
	}
	if (nslash != 1 || slash == 0 || slash == n - 1) {
		fmt_into(err, errlen, "atom '%s' is not of the form group/verb", SHOWN(text));
		return NULL;
	}
	return steal_pointer(&a);
}

bool auth_in_set(char *const *set, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(set[i], s) == 0)
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and drop duplicates in place; returns the new count. */
size_t auth_sort_unique(char **v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_str);
	size_t o = 1;
	for (size_t i = 1; i < n; i++) {
		if (strcmp(v[i], v[o - 1]) == 0)
			free(v[i]);
		else
			v[o++] = v[i];
	}
	return o;
}

/* ATOMS plus every atom that implies one of them: the set a removal must
 * take away so that no bundle keeps what was removed. Sorted, unique. */
char **auth_upward_closure(const char *const *atoms, size_t n, size_t *nout)
{
	size_t cap = n + AUTH_NIMPLICATIONS + 1, m = 0;
	char **set = xcalloc(cap, sizeof *set);
	for (size_t i = 0; i < n; i++)
		if (!auth_in_set(set, m, atoms[i]))
			set[m++] = xstrdup(atoms[i]);
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t e = 0; e < AUTH_NIMPLICATIONS; e++) {
			if (auth_in_set(set, m, auth_implications[e].to) &&
			    !auth_in_set(set, m, auth_implications[e].from)) {
				set[m++] = xstrdup(auth_implications[e].from);
				grew = true;
			}
		}
	}
	*nout = auth_sort_unique(set, m);
	return set;
}

void auth_free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

