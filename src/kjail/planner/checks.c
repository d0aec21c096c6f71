/* SPDX-License-Identifier: MIT */
/* The checks of the plan against the host: no writable root on or over a
 * kernel file system, none reached through a symlink a jail could have
 * planted, no mask that would hide a writable root. */
#include "config.h"
#include "planner/mountinfo.h"
#include "planner/internal.h"
#include "planner/checks.h"
#include "planner/tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool check_masks(struct builder *b)
{
	/* In tree order, everything under a directory mask directly follows it:
	 * a stack of the enclosing directory masks finds the nested ones. */
	cands_sort_unique(&b->masks);
	struct cands kept = { 0 };
	size_t *stack = xreallocarray(NULL, b->masks.n + 1, sizeof *stack), depth = 0;
	for (size_t i = 0; i < b->masks.n; i++) {
		struct cand *m = &b->masks.v[i];
		for (size_t r = 0; r < b->roots.n; r++)
			if (path_is_under(b->roots.v[r].path, m->path)) {
				cands_free(&kept);
				free(stack);
				return fail(b, "%s: mask %s would hide the writable %s %s",
					    m->origin, m->path, b->roots.v[r].rule,
					    b->roots.v[r].path);
			}
		for (size_t r = 0; r < b->inner.n; r++) {
			_cleanup_free_ char *parent = path_dirname(b->inner.v[r].path);
			if (path_is_under(b->inner.v[r].path, m->path) &&
			    strcmp(m->path, parent) != 0) {
				cands_free(&kept);
				free(stack);
				return fail(b, "%s: mask %s would hide the writable %s %s",
					    m->origin, m->path, b->inner.v[r].rule,
					    b->inner.v[r].path);
			}
		}
		while (depth && !path_is_under(m->path, kept.v[stack[depth - 1]].path))
			depth--;
		if (depth) {
			_cleanup_free_ char *why = xasprintf("already hidden by the mask on %s",
							     kept.v[stack[depth - 1]].path);
			skip(b, m->path, why, m->origin);
			continue;
		}
		if (in_private_area(m->path) && !covering(&b->roots, m->path)) {
			skip(b, m->path, "not visible: private in the jail", m->origin);
			continue;
		}
		/* moved, not copied: the loop below frees only what stayed */
		cand_push(&kept, *m);
		m->path = NULL;
		if (kept.v[kept.n - 1].kind == OP_MASK_DIR)
			stack[depth++] = kept.n - 1;
	}
	free(stack);
	cands_free(&b->masks);
	b->masks = kept;
	return true;
}

/* A symbolic link inside a writable root (or the current directory, the
 * workspace of the runs before), met on the way to the workspace or a
 * writable path: a jail could have made it in an earlier run
 * (ln -s ~ build), and "--writable build" or "-C build" would then bind
 * what it leads to. Refused unless it leads into one of them anyway. The
 * links are those of the lookup that gave the root (resolve_noting): a
 * second lookup could be answered differently by a jail still running. */
static bool in_roots_or_cwd(const struct builder *b, const char *path, const char *except)
{
	if (path_is_under(path, b->h->cwd))
		return true;
	for (size_t r = 0; r < b->roots.n; r++)
		if (path_is_under(path, b->roots.v[r].path) &&
		    !(except && strcmp(b->roots.v[r].path, except) == 0))
			return true;
	return false;
}

/* The kernel's own file systems, by the type mountinfo names: one of
 * them writable hands the jail the kernel or the host (its settings and
 * processes, its devices, binfmt handlers that choose what runs a program,
 * cgroups, message queues). */
static const char *const kernel_fstypes[] = {
	"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs",
	"securityfs", "bpf", "efivarfs", "binfmt_misc", "mqueue", "configfs", "pstore",
	"fusectl", "selinuxfs", "nsfs", "rpc_pipefs", "nfsd", NULL,
};


/* The mount table, read and parsed once per plan: the writable roots'
 * check and the masks' aliases (mask-aliases.c) both need it. */
const struct mount_table *host_mounts(struct builder *b)
{
	if (b->mounts_read)
		return &b->mounts;
	size_t len = 0, bad = 0;
	_cleanup_free_ char *text = read_file_capped("/proc/self/mountinfo", MOUNTINFO_MAX, &len);
	if (!text) {
		fail(b, "cannot read /proc/self/mountinfo (to check the writable paths and find "
			"the other mounts of the masked paths): %s",
		     strerror(errno));
		return NULL;
	}
	if (!mountinfo_parse(text, len, &b->mounts, &bad)) {
		fail(b, "/proc/self/mountinfo:%zu: cannot parse the line, so the mounts the jail "
			"would see are unknown",
		     bad);
		return NULL;
	}
	b->mounts_read = true;
	return &b->mounts;
}

static bool is_kernel_fs(const char *type)
{
	for (const char *const *t = kernel_fstypes; *t; t++)
		if (strcmp(type, *t) == 0)
			return true;
	return false;
}

/* Every writable root, and every mount under it (a bind is recursive: a
 * chroot's proc, a bind of /dev), must be no kernel file system: the
 * mounts as this process sees them, which bwrap binds from. */
bool check_kernel_mounts(struct builder *b)
{
#ifdef KJ_OS_LINUX
	const struct mount_table *t = host_mounts(b);
	if (!t)
		return false;
	for (size_t r = 0; r < b->roots.n; r++) {
		const char *root = b->roots.v[r].path;
		const struct mount_entry *at = mount_of(t, root);
		if (at && is_kernel_fs(at->type))
			return fail(b, "%s: refusing to make %s writable: it is on the kernel's %s "
				       "file system, never the jail's to write",
				    b->roots.v[r].origin, root, at->type);
		for (size_t i = 0; i < t->n; i++) {
			const struct mount_entry *e = &t->v[i];
			if (is_kernel_fs(e->type) && path_is_under(e->point, root) &&
			    strcmp(e->point, root) != 0)
				return fail(b, "%s: refusing to make %s writable: %s below it is the "
					       "kernel's %s file system, never the jail's to write",
					    b->roots.v[r].origin, root, e->point, e->type);
		}
	}
	return true;
#else
	(void)b;
	return true;
#endif
}

bool check_planted(struct builder *b)
{
	for (size_t i = 0; i < b->nseen; i++) {
		const struct seen_link *s = &b->seen[i];
		if (!in_roots_or_cwd(b, s->link, NULL) || in_roots_or_cwd(b, s->real, s->real))
			continue;
		return fail(b, "%s: %s: refusing a path through the symbolic link %s, which lies "
			       "in a writable path or the current directory (a jail could have "
			       "made it); name %s itself if that is what you mean",
			    s->origin, s->given, s->link, s->real);
	}
	return true;
}
