/* SPDX-License-Identifier: MIT */
/* The seccomp filter: a pure rule list, and a thin libseccomp exporter. */
#ifndef KJ_SECCOMP_H
#define KJ_SECCOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sc_op { SC_MASKED_EQ, SC_GT };

struct sc_cond {
	unsigned arg;
	enum sc_op op;
	uint64_t mask;   /* SC_MASKED_EQ */
	uint64_t value;
};

struct sc_rule {
	const char *syscall;
	int err;                 /* errno returned */
	unsigned ncond;          /* all must hold (libseccomp: one per argument) */
	struct sc_cond cond[2];
	const char *what;        /* "TIOCSTI", "set-user-ID bit", or NULL */
	const char *why;         /* one phrase, for --explain */
};

struct sc_opts {
	bool allow_userns;
	bool no_network;   /* the plan cuts the network: socket families a
			    * network namespace does not isolate are refused */
};

/* Every combination of the options is a variant, compiled at build time
 * (gen-seccomp-bpf.c) and embedded (seccomp_load.c): variant i has the
 * options seccomp_variant_opts(i) gives, and seccomp_variant(o) is its
 * index. */
#define SC_VARIANTS 4
size_t seccomp_variant(const struct sc_opts *o);
struct sc_opts seccomp_variant_opts(size_t i);

/* The rules for these options, in a fresh array (*n of them). */
struct sc_rule *seccomp_rules(const struct sc_opts *o, size_t *n);

/* Build the filter with libseccomp for the native ABI and every other ABI
 * this machine runs (x86_64: i386 and x32 too) and export it as BPF into a
 * sealed memfd. Returns the descriptor (close-on-exec), or -1 with one line
 * in err. Takes milliseconds: kjail runs the program compiled at build time
 * (seccomp_export) and uses this only when the build's machine differs. */
int seccomp_compile(const struct sc_opts *o, char *err, size_t errlen);

int seccomp_memfd(char *err, size_t errlen);
bool seccomp_seal(int fd);

/* Whether seccomp filtering is compiled in. */
bool seccomp_built_in(void);

#endif
