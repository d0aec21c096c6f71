/* SPDX-License-Identifier: MIT */
/* The device classes as data and the pure builder (device.h). */
#include "config.h"
#include "policy/device.h"
#include "path.h"
#include "util.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

const char *const device_classes[] = { "gpu", NULL };

const char *const device_dirs[] = { "/dev", "/dev/nvidia-caps", "/dev/dri", "/dev/dri/by-path",
				    NULL };

/* One row a class: the nodes it binds (fnmatch with FNM_PATHNAME: a *
 * stays in its directory) and the directories whose links to those nodes
 * it recreates. */
static const struct device_class {
	const char *name;
	const char *none;
	const char *const nodes[8];
	const char *const link_dirs[4];
} classes[] = {
	{ "gpu", "no GPU device nodes (/dev/nvidia*, /dev/dri, /dev/kfd) on this host",
	  /* NVIDIA: nvidia0..N, nvidiactl, nvidia-uvm, nvidia-uvm-tools,
	   * nvidia-modeset, and the capability nodes (MIG); DRM (any
	   * vendor): card*, renderD*; AMD's compute interface: kfd */
	  { "/dev/nvidia*", "/dev/nvidia-caps/*", "/dev/dri/*", "/dev/kfd", NULL },
	  { "/dev/dri/by-path", NULL } },
};

static const struct device_class *class_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (strcmp(classes[i].name, name) == 0)
			return &classes[i];
	return NULL;
}

bool device_class_known(const char *name)
{
	return class_of(name) != NULL;
}

const char *device_class_none(const char *cls)
{
	const struct device_class *c = class_of(cls);
	return c ? c->none : "no such device class";
}

static bool matches(const char *const *pat, const char *path)
{
	for (; *pat; pat++)
		if (fnmatch(*pat, path, FNM_PATHNAME | FNM_PERIOD) == 0)
			return true;
	return false;
}

static void push(struct dev_bind **v, size_t *n, const char *path, const char *target,
		 const char *cls, const char *origin)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = (struct dev_bind){ .path = xstrdup(path),
					  .target = target ? xstrdup(target) : NULL,
					  .cls = cls, .origin = origin };
}

/* Whether the link e, in one of the class's link directories, names a node
 * bound in v[from..n): its target taken against its directory, lexically
 * (the jail's /dev holds nothing else to follow). */
static bool links_to_bound(const struct device_class *c, const struct dev_entry *e,
			   const struct dev_bind *v, size_t from, size_t n)
{
	_cleanup_free_ char *dir = path_dirname(e->path);
	if (!e->target || !e->target[0] || !matches(c->link_dirs, dir))
		return false;
	_cleanup_free_ char *to = path_normalize(e->target, dir);
	for (size_t i = from; i < n; i++)
		if (!v[i].target && strcmp(v[i].path, to) == 0)
			return true;
	return false;
}

size_t device_binds(const char *cls, const struct dev_entry *e, size_t ne, const char *origin,
		    struct dev_bind **v, size_t *n)
{
	const struct device_class *c = class_of(cls);
	if (!c)
		return 0;
	size_t from = *n;
	for (size_t i = 0; i < ne; i++)
		if (e[i].kind == DEV_CHAR && matches(c->nodes, e[i].path))
			push(v, n, e[i].path, NULL, c->name, origin);
	size_t nodes = *n - from;
	for (size_t i = 0; nodes && i < ne; i++)
		if (e[i].kind == DEV_LINK && links_to_bound(c, &e[i], *v, from, from + nodes))
			push(v, n, e[i].path, e[i].target, c->name, origin);
	return nodes;
}

void dev_binds_free(struct dev_bind *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].target);
	}
	free(v);
}
