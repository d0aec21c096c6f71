/* SPDX-License-Identifier: MIT */
/* The masks again at every other name the mount table gives their
 * objects (mountinfo.h): the jail sees every host mount, so a bind of the
 * home at /run/host, a second mount of the same file system or a bind of
 * ~/.ssh itself would show a masked path unmasked. */
#include "config.h"
#include "planner/mountinfo.h"
#include "planner/internal.h"
#include "planner/checks.h"
#include "planner/mask-aliases.h"
#include "planner/tools.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* More than this many aliases is no mount table kjail was made for: it
 * refuses rather than plan hundreds of mounts. */
#define ALIASES_MAX 256

#ifdef KJ_OS_LINUX
static bool same_object(const char *a, const char *b, struct stat *st)
{
	struct stat sb;
	return stat(a, st) == 0 && stat(b, &sb) == 0 && st->st_dev == sb.st_dev &&
	       st->st_ino == sb.st_ino;
}

/* The aliases of one mask, added as masks of their own; false (the plan
 * fails) past ALIASES_MAX. */
static bool mask_aliases_of(struct builder *b, const struct mount_table *t, const struct cand *m,
			    size_t *count)
{
	const struct mount_entry *at = mount_of(t, m->path);
	if (!at)
		return true;
	struct mount_aliases a;
	mount_aliases_of(t, at, m->path, &a);
	bool ok = true;
	for (size_t i = 0; i < a.n && ok; i++) {
		const struct mount_alias *x = &a.v[i];
		_cleanup_free_ char *origin = xasprintf("alias of %s (%s) via the mount at %s",
							m->path, m->origin, x->via);
		struct stat st;
		/* the name must show the object itself: not hidden by a later
		 * mount, not changed since the table was read */
		if (!same_object(x->path, x->orig, &st)) {
			skip(b, x->path, "not the masked object there (another mount hides it)",
			     origin);
			continue;
		}
		if (++*count > ALIASES_MAX) {
			ok = fail(b, "%s: more than %d mounts show masked paths again (%s, the "
				     "mount at %s, is one); kjail masks each at every name, and "
				     "will not plan that many: unmount the extra binds, or run "
				     "kjail where they are not mounted",
				  origin, ALIASES_MAX, x->path, x->via);
			break;
		}
		cand_add(b->pl, &b->masks, S_ISDIR(st.st_mode) ? OP_MASK_DIR : OP_MASK_FILE,
			 x->path, "masked", origin);
	}
	mount_aliases_free(&a);
	return ok;
}
#endif

bool add_mask_aliases(struct builder *b)
{
#ifdef KJ_OS_LINUX
	if (!b->masks.n)
		return true;
	const struct mount_table *t = host_mounts(b);
	if (!t)
		return false;
	/* only the masks planned so far: an alias's own aliases are among
	 * those of its original */
	size_t n = b->masks.n, count = 0;
	for (size_t i = 0; i < n; i++) {
		struct cand m = b->masks.v[i]; /* cand_add may move the array */
		if (!mask_aliases_of(b, t, &m, &count))
			return false;
	}
	return true;
#else
	(void)b;
	return true;
#endif
}
