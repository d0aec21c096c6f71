/* SPDX-License-Identifier: MIT */
/* --device's pure builder (device.h): a table of host /dev layouts (NVIDIA
 * only, DRM only, AMD with kfd, both, none, links in /dev/dri/by-path and
 * the links it must drop) to the exact binds, in order; the classes. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <string.h>

#include "policy/device.h"
#include "strv.h"
#include "util.h"

#define C(p) { p, DEV_CHAR, NULL }
#define L(p, t) { p, DEV_LINK, t }
#define O(p) { p, DEV_OTHER, NULL }
#define END { NULL, DEV_OTHER, NULL }

/* what every host has, none of it a GPU's */
#define BASE C("/dev/null"), C("/dev/zero"), C("/dev/tty"), O("/dev/sda"), O("/dev/pts"), \
	     C("/dev/fuse"), C("/dev/kvm"), L("/dev/stdin", "/proc/self/fd/0")

static const struct layout {
	const char *name;
	struct dev_entry e[24];
	size_t nodes;
	const char *want; /* "B PATH" a bind, "L PATH -> TARGET" a link, one a line */
} layouts[] = {
	{ "nvidia only",
	  { BASE, C("/dev/nvidia0"), C("/dev/nvidia1"), C("/dev/nvidiactl"), C("/dev/nvidia-uvm"),
	    C("/dev/nvidia-uvm-tools"), C("/dev/nvidia-modeset"), O("/dev/nvidia-caps"),
	    C("/dev/nvidia-caps/nvidia-cap1"), C("/dev/nvidia-caps/nvidia-cap2"), END },
	  8,
	  "B /dev/nvidia0\nB /dev/nvidia1\nB /dev/nvidiactl\nB /dev/nvidia-uvm\n"
	  "B /dev/nvidia-uvm-tools\nB /dev/nvidia-modeset\nB /dev/nvidia-caps/nvidia-cap1\n"
	  "B /dev/nvidia-caps/nvidia-cap2\n" },
	{ "dri only (intel), by-path links",
	  { BASE, O("/dev/dri"), C("/dev/dri/card0"), C("/dev/dri/renderD128"), O("/dev/dri/by-path"),
	    L("/dev/dri/by-path/pci-0000:00:02.0-card", "../card0"),
	    L("/dev/dri/by-path/pci-0000:00:02.0-render", "../renderD128"), END },
	  2,
	  "B /dev/dri/card0\nB /dev/dri/renderD128\n"
	  "L /dev/dri/by-path/pci-0000:00:02.0-card -> ../card0\n"
	  "L /dev/dri/by-path/pci-0000:00:02.0-render -> ../renderD128\n" },
	{ "amd with kfd",
	  { BASE, C("/dev/kfd"), O("/dev/dri"), C("/dev/dri/card1"), C("/dev/dri/renderD129"),
	    L("/dev/dri/by-path/pci-0000:03:00.0-card", "../card1"), END },
	  3,
	  "B /dev/kfd\nB /dev/dri/card1\nB /dev/dri/renderD129\n"
	  "L /dev/dri/by-path/pci-0000:03:00.0-card -> ../card1\n" },
	{ "both: nvidia and an integrated dri card",
	  { C("/dev/nvidia0"), C("/dev/nvidiactl"), C("/dev/dri/card0"), C("/dev/dri/card1"),
	    C("/dev/dri/renderD128"), L("/dev/dri/by-path/pci-0000:01:00.0-card", "../card1"),
	    BASE, END },
	  5,
	  "B /dev/nvidia0\nB /dev/nvidiactl\nB /dev/dri/card0\nB /dev/dri/card1\n"
	  "B /dev/dri/renderD128\nL /dev/dri/by-path/pci-0000:01:00.0-card -> ../card1\n" },
	{ "none: no gpu node; names alike that are no char device",
	  { BASE, O("/dev/nvidia0"), O("/dev/dri"), O("/dev/dri/card0"), L("/dev/kfd", "null"),
	    L("/dev/dri/by-path/pci-0000:00:02.0-card", "../card0"), END },
	  0, "" },
	{ "links: only those in by-path that name a bound node",
	  { C("/dev/dri/card0"),
	    L("/dev/dri/by-path/ok-relative", "../card0"),
	    L("/dev/dri/by-path/ok-absolute", "/dev/dri/card0"),
	    L("/dev/dri/by-path/ok-roundabout", "../by-path/../card0"),
	    L("/dev/dri/by-path/to-a-disk", "../../sda"),
	    L("/dev/dri/by-path/to-no-node", "../card9"),
	    L("/dev/dri/by-path/to-itself", "to-itself"),
	    L("/dev/dri/by-path/empty", ""),
	    L("/dev/dri/alias", "card0"),       /* not in a link directory */
	    L("/dev/nvidia-link", "dri/card0"),
	    C("/dev/dri/by-path/a-node"),       /* a node there: not a gpu name */
	    C("/dev/dri/.hidden"), C("/dev/dri/sub/card2"), C("/dev/nvidia-caps/sub/x"),
	    BASE, END },
	  1,
	  "B /dev/dri/card0\nL /dev/dri/by-path/ok-relative -> ../card0\n"
	  "L /dev/dri/by-path/ok-absolute -> /dev/dri/card0\n"
	  "L /dev/dri/by-path/ok-roundabout -> ../by-path/../card0\n" },
};

static size_t count(const struct dev_entry *e)
{
	size_t n = 0;
	while (e[n].path)
		n++;
	return n;
}

static char *render(const struct dev_bind *v, size_t from, size_t n)
{
	struct strv lines = STRV_INIT;
	for (size_t i = from; i < n; i++)
		if (v[i].target)
			strv_pushf(&lines, "L %s -> %s\n", v[i].path, v[i].target);
		else
			strv_pushf(&lines, "B %s\n", v[i].path);
	char *s = xstrdup("");
	for (size_t i = 0; i < lines.n; i++) {
		char *t = xasprintf("%s%s", s, lines.v[i]);
		free(s);
		s = t;
	}
	strv_free(&lines);
	return s;
}

static void test_layouts(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
		const struct layout *l = &layouts[i];
		struct dev_bind *v = NULL;
		size_t n = 0;
		size_t nodes = device_binds("gpu", l->e, count(l->e), "--device=gpu", &v, &n);
		char *got = render(v, 0, n);
		if (strcmp(got, l->want) != 0 || nodes != l->nodes)
			print_error("layout '%s': %zu nodes, want %zu\n", l->name, nodes, l->nodes);
		assert_string_equal(got, l->want);
		assert_int_equal(nodes, l->nodes);
		for (size_t j = 0; j < n; j++) {
			assert_string_equal(v[j].cls, "gpu");
			assert_string_equal(v[j].origin, "--device=gpu");
		}
		free(got);
		dev_binds_free(v, n);
	}
}

/* Appends after what is there; a second class would add its own. */
static void test_appends(void **state)
{
	(void)state;
	struct dev_bind *v = NULL;
	size_t n = 0;
	const struct layout *dri = &layouts[1], *nv = &layouts[0];
	assert_int_equal(device_binds("gpu", dri->e, count(dri->e), "a.ini:3", &v, &n), 2);
	assert_int_equal(device_binds("gpu", nv->e, count(nv->e), "--device=gpu", &v, &n), 8);
	char *first = render(v, 0, 4), *second = render(v, 4, n);
	assert_string_equal(first, dri->want);
	assert_string_equal(second, nv->want);
	assert_string_equal(v[0].origin, "a.ini:3");
	assert_string_equal(v[4].origin, "--device=gpu");
	free(first);
	free(second);
	dev_binds_free(v, n);
}

static void test_classes(void **state)
{
	(void)state;
	assert_true(device_class_known("gpu"));
	assert_false(device_class_known("GPU"));
	assert_false(device_class_known(""));
	assert_false(device_class_known("tpu"));
	assert_string_equal(device_classes[0], "gpu");
	assert_null(device_classes[1]);
	assert_string_equal(device_class_none("gpu"),
			    "no GPU device nodes (/dev/nvidia*, /dev/dri, /dev/kfd) on this host");
	struct dev_bind *v = NULL;
	size_t n = 0;
	assert_int_equal(device_binds("tpu", layouts[0].e, count(layouts[0].e), "x", &v, &n), 0);
	assert_int_equal(n, 0);
	/* every directory the class's patterns name is read by devscan.c */
	const char *want[] = { "/dev", "/dev/nvidia-caps", "/dev/dri", "/dev/dri/by-path", NULL };
	for (size_t i = 0; want[i]; i++)
		assert_string_equal(device_dirs[i], want[i]);
	assert_null(device_dirs[4]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_classes),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
