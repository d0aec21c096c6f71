/* SPDX-License-Identifier: MIT */
/* The rule list for every policy variant, and the exported program. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/seccomp.h"
#include "run/seccomp_load.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static size_t count(const struct sc_rule *r, size_t n, const char *sys)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += strcmp(r[i].syscall, sys) == 0;
	return c;
}

static const struct sc_rule *first(const struct sc_rule *r, size_t n, const char *sys)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(r[i].syscall, sys) == 0)
			return &r[i];
	return NULL;
}

static const char *const plain_eperm[] = {
	"mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsconfig",
	"fsmount", "fspick", "mount_setattr", "keyctl", "add_key", "request_key", "bpf",
	"perf_event_open", "userfaultfd", "kexec_load", "kexec_file_load", "init_module",
	"finit_module", "delete_module", "reboot", "swapon", "swapoff", "syslog", "acct",
	"quotactl", "lookup_dcookie", "uselib", "nfsservctl", "vm86", "vm86old",
	"io_uring_setup", "io_uring_enter", "io_uring_register", NULL,
};

/* Evaluate the personality rules on a value the way the BPF would. */
static bool personality_denied(const struct sc_rule *r, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(r[i].syscall, "personality") != 0)
			continue;
		const struct sc_cond *c = &r[i].cond[0];
		bool hit = c->op == SC_GT ? v > c->value : (v & c->mask) == c->value;
		if (hit)
			return true;
	}
	return false;
}

static void test_default_rules(void **state)
{
	(void)state;
	struct sc_opts o = { .allow_userns = false };
	size_t n;
	struct sc_rule *r = seccomp_rules(&o, &n);
	for (const char *const *s = plain_eperm; *s; s++) {
		const struct sc_rule *x = first(r, n, *s);
		assert_non_null(x);
		assert_int_equal(x->err, EPERM);
		assert_int_equal(x->ncond, 0);
	}
	assert_int_equal(first(r, n, "clone3")->err, ENOSYS);
	assert_int_equal(first(r, n, "openat2")->err, ENOSYS);
	assert_int_equal(first(r, n, "unshare")->ncond, 0);
	assert_int_equal(first(r, n, "setns")->ncond, 0);
	const struct sc_rule *clone = first(r, n, "clone");
	assert_int_equal(clone->ncond, 1);
	assert_int_equal(clone->cond[0].arg, 0);
	assert_int_equal(clone->cond[0].mask, 0x10000000);
	/* ioctl: both requests, compared on 32 bits only */
	assert_int_equal(count(r, n, "ioctl"), 2);
	const struct sc_rule *io = first(r, n, "ioctl");
	assert_int_equal(io->cond[0].arg, 1);
	assert_int_equal(io->cond[0].mask, 0xffffffffULL);
	assert_int_equal(io->cond[0].value, 0x5412);
	assert_int_equal(io[1].cond[0].value, 0x541C);
	/* set-ID bits: every chmod and every way to create a file with a mode */
	assert_int_equal(count(r, n, "chmod"), 2);
	assert_int_equal(count(r, n, "fchmod"), 2);
	assert_int_equal(count(r, n, "fchmodat"), 2);
	assert_int_equal(count(r, n, "fchmodat2"), 2);
	assert_int_equal(count(r, n, "open"), 4);
	assert_int_equal(count(r, n, "openat"), 4);
	const struct sc_rule *oa = first(r, n, "openat");
	assert_int_equal(oa->ncond, 2);
	assert_int_equal(oa->cond[0].arg, 2);
	assert_int_equal(oa->cond[1].arg, 3);
	assert_int_equal(first(r, n, "fchmodat")->cond[0].arg, 2);
	free(r);
}

static void test_personality_allows_exactly_three_values(void **state)
{
	(void)state;
	struct sc_opts o = { 0 };
	size_t n;
	struct sc_rule *r = seccomp_rules(&o, &n);
	assert_false(personality_denied(r, n, 0));
	assert_false(personality_denied(r, n, 0xffffffffULL));
	/* ADDR_NO_RANDOMIZE alone: what gdb and setarch -R set */
	assert_false(personality_denied(r, n, 0x0040000));
	const uint64_t bad[] = { 1, 8, 0x0040001, 0x0440000, 0x0400000, 0x0240000, 0x0200000,
				 0x80000000ULL, 0x80040000ULL, 0xfffffffeULL, 0x7fffffffULL,
				 0xfffbffffULL, 0x100000000ULL, 0x1ffffffffULL, 0x100040000ULL };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_true(personality_denied(r, n, bad[i]));
	for (unsigned b = 0; b < 32; b++)
		if ((1ULL << b) != 0x0040000)
			assert_true(personality_denied(r, n, 1ULL << b));
	/* with any other bit beside it */
	for (unsigned b = 0; b < 40; b++)
		if ((1ULL << b) != 0x0040000)
			assert_true(personality_denied(r, n, 0x0040000 | (1ULL << b)));
	free(r);
}

/* What bwrap needs to build a nested jail: let through with --allow-userns */
static bool classic_mount(const char *s)
{
	return !strcmp(s, "mount") || !strcmp(s, "umount") || !strcmp(s, "umount2") ||
	       !strcmp(s, "pivot_root");
}

static bool new_mount_api(const char *s)
{
	static const char *const api[] = { "move_mount", "open_tree", "fsopen", "fsconfig",
					   "fsmount", "fspick", "mount_setattr", NULL };
	for (const char *const *a = api; *a; a++)
		if (!strcmp(s, *a))
			return true;
	return false;
}

static void test_allow_userns_lifts_only_userns_and_mount_rules(void **state)
{
	(void)state;
	struct sc_opts d = { .allow_userns = false }, a = { .allow_userns = true };
	size_t nd, na;
	struct sc_rule *rd = seccomp_rules(&d, &nd);
	struct sc_rule *ra = seccomp_rules(&a, &na);
	assert_int_equal(nd, na + 3 + 4);
	assert_null(first(ra, na, "unshare"));
	assert_null(first(ra, na, "setns"));
	assert_null(first(ra, na, "clone"));
	assert_null(first(ra, na, "mount"));
	assert_null(first(ra, na, "umount"));
	assert_null(first(ra, na, "umount2"));
	assert_null(first(ra, na, "pivot_root"));
	/* everything else is identical, in order; the newer mount API answers
	 * ENOSYS instead of EPERM, so mount(8) falls back to mount(2) */
	size_t j = 0;
	for (size_t i = 0; i < nd; i++) {
		const char *s = rd[i].syscall;
		if (!strcmp(s, "unshare") || !strcmp(s, "setns") || !strcmp(s, "clone") ||
		    classic_mount(s))
			continue;
		assert_string_equal(s, ra[j].syscall);
		assert_int_equal(ra[j].err, new_mount_api(s) ? ENOSYS : rd[i].err);
		assert_memory_equal(rd[i].cond, ra[j].cond, sizeof rd[i].cond);
		j++;
	}
	assert_int_equal(j, na);
	free(rd);
	free(ra);
}

static size_t family_rules(const struct sc_rule *r, size_t n, const char *sys, uint64_t fam)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += strcmp(r[i].syscall, sys) == 0 && r[i].ncond == 1 && r[i].cond[0].arg == 0 &&
		     r[i].cond[0].op == SC_MASKED_EQ && r[i].cond[0].mask == 0xffffffffULL &&
		     r[i].cond[0].value == fam && r[i].err == EAFNOSUPPORT;
	return c;
}

/* Under no network: socket and socketpair of the families a network
 * namespace does not isolate answer EAFNOSUPPORT; those it does isolate
 * (and AF_UNIX, AF_ALG) are untouched; nothing else changes. */
static void test_no_network_refuses_families(void **state)
{
	(void)state;
	static const uint64_t refused[] = { 40 /* VSOCK */, 42 /* QIPCRTR */, 32 /* IUCV */,
					    34 /* ISDN */, 31 /* BLUETOOTH */, 39 /* NFC */ };
	static const uint64_t kept[] = { 1 /* UNIX */, 2 /* INET */, 10 /* INET6 */,
					 16 /* NETLINK */, 17 /* PACKET */, 38 /* ALG */,
					 44 /* XDP */, 30 /* TIPC */ };
	for (int userns = 0; userns < 2; userns++) {
		struct sc_opts off = { .allow_userns = userns };
		struct sc_opts on = { .allow_userns = userns, .no_network = true };
		size_t nf, nn;
		struct sc_rule *rf = seccomp_rules(&off, &nf);
		struct sc_rule *rn = seccomp_rules(&on, &nn);
		assert_int_equal(count(rf, nf, "socket"), 0);
		assert_int_equal(count(rf, nf, "socketpair"), 0);
		for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
			assert_int_equal(family_rules(rn, nn, "socket", refused[i]), 1);
			assert_int_equal(family_rules(rn, nn, "socketpair", refused[i]), 1);
		}
		for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
			assert_int_equal(family_rules(rn, nn, "socket", kept[i]), 0);
			assert_int_equal(family_rules(rn, nn, "socketpair", kept[i]), 0);
		}
		/* only socket rules added, after the others, which are identical */
		assert_true(nn > nf);
		assert_int_equal(count(rn, nn, "socket") + count(rn, nn, "socketpair"), nn - nf);
		for (size_t i = 0; i < nf; i++) {
			assert_string_equal(rf[i].syscall, rn[i].syscall);
			assert_int_equal(rf[i].err, rn[i].err);
			assert_memory_equal(rf[i].cond, rn[i].cond, sizeof rf[i].cond);
		}
		for (size_t i = nf; i < nn; i++) {
			assert_non_null(rn[i].what);
			assert_non_null(rn[i].why);
		}
		free(rf);
		free(rn);
	}
}

/* Every option combination has its own variant index, and back. */
static void test_variants_cover_every_option(void **state)
{
	(void)state;
	bool seen[SC_VARIANTS] = { false };
	for (int u = 0; u < 2; u++)
		for (int n = 0; n < 2; n++) {
			struct sc_opts o = { .allow_userns = u, .no_network = n };
			size_t v = seccomp_variant(&o);
			assert_true(v < SC_VARIANTS);
			assert_false(seen[v]);
			seen[v] = true;
			struct sc_opts back = seccomp_variant_opts(v);
			assert_int_equal(back.allow_userns, u);
			assert_int_equal(back.no_network, n);
		}
}

static void test_export(void **state)
{
	(void)state;
	struct sc_opts o = { 0 };
	char err[256] = "";
	int fd = seccomp_export(&o, err, sizeof err);
	if (!seccomp_built_in()) {
		assert_int_equal(fd, -1);
		assert_non_null(strstr(err, "without libseccomp"));
		return;
	}
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	/* classic BPF: 8-byte instructions, and a real program */
	assert_int_equal(st.st_size % 8, 0);
	assert_true(st.st_size > 8 * 100);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
	/* sealed: nobody can swap the program before bwrap reads it */
	assert_int_equal(write(fd, "x", 1), -1);
	close(fd);
}

/* The program embedded at build time is exactly what the rules compile to
 * now: the list and the shipped BPF cannot drift apart. */
static void test_embedded_matches_rules(void **state)
{
	(void)state;
	if (!seccomp_built_in())
		skip();
	for (size_t v = 0; v < SC_VARIANTS; v++) {
		struct sc_opts o = seccomp_variant_opts(v);
		size_t len;
		const unsigned char *emb = seccomp_embedded(&o, &len);
		assert_non_null(emb);
		char err[256];
		int fd = seccomp_compile(&o, err, sizeof err);
		assert_true(fd >= 0);
		unsigned char *buf = malloc(len + 1);
		ssize_t n = read(fd, buf, len + 1);
		assert_int_equal(n, (ssize_t)len);
		assert_memory_equal(buf, emb, len);
		free(buf);
		close(fd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_rules),
		cmocka_unit_test(test_personality_allows_exactly_three_values),
		cmocka_unit_test(test_allow_userns_lifts_only_userns_and_mount_rules),
		cmocka_unit_test(test_no_network_refuses_families),
		cmocka_unit_test(test_variants_cover_every_option),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_embedded_matches_rules),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
