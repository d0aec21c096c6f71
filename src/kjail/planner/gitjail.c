/* SPDX-License-Identifier: MIT */
/* The jail of the git run after a run (gitjail.h). */
#include "config.h"
#include "planner/gitjail.h"
#include "path.h"
#include "util.h"

#include <string.h>

void gitjail_plan(const struct plan *base, const char *dir, const char *home,
		  const char *const *ro, const struct gitjail_file *file, char *const *env,
		  struct plan *out)
{
	memset(out, 0, sizeof *out);
	out->backend = BACKEND_BWRAP;
	out->workspace = xstrdup(dir);
	out->network = false;
	out->net = NET_NONE;
	out->proxied = false;
	out->nested_userns = base->nested_userns;
	out->in_kjail = base->in_kjail;
	out->no_disable_userns = base->no_disable_userns; /* base's pool outlives this plan */
	out->disable_userns_cached = base->disable_userns_cached;
	out->inside_id = base->inside_id;
	out->proc_read_only = base->proc_read_only;
	for (size_t i = 0; i < base->host_devices.n; i++)
		strv_push(&out->host_devices, base->host_devices.v[i]);
	for (char *const *e = env; e && *e; e++)
		strv_push(&out->env, *e);
	/* the file systems first, then the home hidden, then everything the
	 * run bound over them, read-only, in the run's order (a mask after
	 * the root it lies in); those come after the home's mask and are
	 * marked inner, so it turns read-only once their mount points are
	 * made in it (bwrap.c) */
	const char *origin = "built-in: the jail of git after the run";
	for (size_t i = 0; i < base->nops; i++) {
		const struct op *o = &base->ops[i];
		if (o->kind == OP_RO_ROOT || o->kind == OP_DEV || o->kind == OP_PROC ||
		    o->kind == OP_PROC_BIND || o->kind == OP_TMP)
			plan_add(out, o->kind, o->path, o->rule, o->origin);
	}
	bool hide = home && home[0] == '/' && strcmp(home, "/") != 0;
	if (hide)
		plan_add(out, OP_MASK_DIR, home, "masked: the home directory", origin);
	/* before the run's masks, which may lie in them */
	for (const char *const *r = ro; r && *r; r++)
		plan_add(out, OP_PROTECT, *r, "read-only: a git directory", origin)->inner = hide;
	for (size_t i = 0; i < base->nops; i++) {
		const struct op *o = &base->ops[i];
		enum op_kind k;
		switch (o->kind) {
		case OP_BIND:
		case OP_PROTECT:
			k = OP_PROTECT; /* read-only: a writable root too */
			break;
		case OP_MASK_FILE: /* empty: the filtered copy is no business of git's */
		case OP_MASK_DIR:
		case OP_HELPER:
			k = o->kind;
			break;
		default:
			/* pins and seals change nothing read-only; no socket, no
			 * policy file */
			continue;
		}
		struct op *n = plan_add(out, k, o->path, o->rule, o->origin);
		n->inner = hide;
	}
	if (file) {
		struct op *f = plan_add(out, OP_MASK_FILE, file->path, "a copy kjail made", origin);
		f->data = xmalloc(file->len ? file->len : 1);
		memcpy(f->data, file->data, file->len);
		f->len = file->len;
		f->inner = hide;
	}
}
