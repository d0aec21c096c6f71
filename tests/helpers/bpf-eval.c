/* SPDX-License-Identifier: MIT */
/* bpf-eval: what a classic-BPF seccomp program answers to one system call,
 * worked out in user space, so the filter kjail installs can be checked for
 * every ABI it covers (i386, x32) whether or not this kernel runs them.
 *
 *   bpf-eval [PROGRAM] ARCH CALL [ARG...]   one call: prints its action
 *   bpf-eval [PROGRAM] -                    one call a line from stdin
 *                                           ("ARCH CALL [ARG...]"), one
 *                                           action a line; then the line
 *                                           "EXECUTED OP..." (the opcodes
 *                                           that ran, hex, sorted)
 *   bpf-eval [PROGRAM] --check              the program passes the checks
 *                                           the kernel makes before it
 *                                           installs one (bpf_check_classic
 *                                           and seccomp_check_filter); prints
 *                                           "OK N" (N instructions) and the
 *                                           line "OPCODES OP..." it uses
 *   bpf-eval --nr ARCH NAME                 the number libseccomp gives NAME
 *                                           on ARCH, or NOSYSCALL
 *   bpf-eval --nr -                         the same, "ARCH NAME" a line
 *                                           from stdin, one answer a line
 *   bpf-eval --info                         the embedded programs: the build
 *                                           machine, then one line a variant:
 *                                           "VARIANT I allow-userns=B
 *                                           no-network=B LEN"
 *
 * PROGRAM (default: kjail's program for the default jail):
 *   --allow-userns, --no-network   kjail's program for those options, the
 *                  variant seccomp_variant() picks (what kjail loads: the
 *                  arrays gen-seccomp-bpf wrote at build time, linked in
 *                  from the build tree, see tests/hardening.mk)
 *   --prog=FILE    a hand-built program, one instruction a line:
 *                  "CODE JT JF K", numbers in C syntax, '#' comments
 *
 * ARCH: x86_64, i386 (or x86), x32, aarch64, ... as libseccomp names them,
 * or "native". x32 is AUDIT_ARCH_X86_64 with the x32 numbers (which carry
 * __X32_SYSCALL_BIT), as the kernel presents it to a filter.
 * CALL: a system call name, resolved for ARCH by libseccomp (no number is
 * written here), or #NR for a raw number. A name libseccomp knows on x86
 * only as a socketcall(2) multiplex (socket, bind, ...) is looked up by
 * number too: the direct call (Linux 4.3+) is the one resolved.
 * ARG: up to six numbers (C syntax; negative ones as the kernel's u64).
 *
 * The action: ALLOW | ERRNO N ENAME | KILL_PROCESS | KILL_THREAD | TRAP N |
 * TRACE N | LOG | USER_NOTIF; NOSYSCALL when CALL has no number on ARCH;
 * "ERROR: ..." when the program is malformed (bad opcode, a jump out of
 * the program, a read outside seccomp_data, ...). Exit 0, or 1 when any
 * answer was an ERROR, 2 on a usage error.
 */
#include "config.h"
#include "build/seccomp.h"
#include "run/seccomp_load.h"
#include "errname.h"

#include <errno.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* The embedded programs (gen-seccomp-bpf's output, HS_SECCOMP_BPF_C in
 * tests/hardening.mk), declared as seccomp_load.c declares them. */
extern const char kj_bpf_machine[];
extern const unsigned char *const kj_bpf[SC_VARIANTS];
extern const size_t kj_bpf_len[SC_VARIANTS];

#define MAX_INSNS 4096 /* BPF_MAXINSNS */
#define X32_BIT 0x40000000u

struct prog {
	const struct sock_filter *insn;
	size_t len;
};

static int executed[0x10000];

static void
usage(void)
{
	fprintf(stderr, "usage: bpf-eval [--allow-userns] [--no-network] [--prog=FILE] "
		"(ARCH CALL [ARG...] | - | --check)\n"
		"       bpf-eval --nr ARCH NAME | --info\n"
		"  (see the comment at the top of bpf-eval.c)\n");
	exit(2);
}

/* ---- the kernel's checks -------------------------------------------------- */

/* The opcodes seccomp_check_filter() accepts (BPF_LD|BPF_W|BPF_LEN and
 * BPF_LDX|BPF_W|BPF_LEN it rewrites into loads of the constant 64). */
static int
opcode_allowed(uint16_t code)
{
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
	case BPF_ALU | BPF_ADD | BPF_K:
	case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K:
	case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K:
	case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K:
	case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K:
	case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_X:
		return 1;
	default:
		return 0;
	}
}

static int
is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

/* bpf_check_classic() and seccomp_check_filter(), in their order: NULL when
 * the kernel would install the program, else why not (into buf). */
static const char *
check_prog(const struct prog *p, char *buf, size_t n)
{
	uint16_t *masks, memvalid = 0;
	const char *bad = NULL;

	if (p->len == 0 || p->len > MAX_INSNS) {
		snprintf(buf, n, "%zu instructions (1 to %d)", p->len, MAX_INSNS);
		return buf;
	}
	for (size_t pc = 0; pc < p->len && !bad; pc++) {
		const struct sock_filter *f = &p->insn[pc];

		if (!opcode_allowed(f->code)) {
			snprintf(buf, n, "instruction %zu: opcode %#06x is not allowed in a seccomp filter", pc, f->code);
			bad = buf;
		} else if (f->code == (BPF_LD | BPF_W | BPF_ABS) &&
			   (f->k >= sizeof(struct seccomp_data) || (f->k & 3))) {
			snprintf(buf, n, "instruction %zu: load of offset %u, outside seccomp_data or unaligned", pc, f->k);
			bad = buf;
		} else if ((f->code == (BPF_ALU | BPF_DIV | BPF_K)) && f->k == 0) {
			snprintf(buf, n, "instruction %zu: division by the constant 0", pc);
			bad = buf;
		} else if ((f->code == (BPF_ALU | BPF_LSH | BPF_K) ||
			    f->code == (BPF_ALU | BPF_RSH | BPF_K)) && f->k >= 32) {
			snprintf(buf, n, "instruction %zu: shift by %u", pc, f->k);
			bad = buf;
		} else if ((f->code == (BPF_LD | BPF_MEM) || f->code == (BPF_LDX | BPF_MEM) ||
			    f->code == BPF_ST || f->code == BPF_STX) && f->k >= BPF_MEMWORDS) {
			snprintf(buf, n, "instruction %zu: scratch cell %u (0 to %d)", pc, f->k, BPF_MEMWORDS - 1);
			bad = buf;
		} else if (f->code == (BPF_JMP | BPF_JA) && f->k >= p->len - pc - 1) {
			snprintf(buf, n, "instruction %zu: jump by %u leaves the program", pc, f->k);
			bad = buf;
		} else if (is_cond_jump(f->code) &&
			   (pc + 1 + f->jt >= p->len || pc + 1 + f->jf >= p->len)) {
			snprintf(buf, n, "instruction %zu: a branch (%u, %u) leaves the program", pc, f->jt, f->jf);
			bad = buf;
		}
	}
	if (bad)
		return bad;
	if (BPF_CLASS(p->insn[p->len - 1].code) != BPF_RET) {
		snprintf(buf, n, "the last instruction is not a return");
		return buf;
	}
	/* check_load_and_stores(): a scratch cell is read only after a store
	 * on every path to the read */
	masks = malloc(p->len * sizeof *masks);
	if (!masks) {
		perror("bpf-eval");
		exit(2);
	}
	memset(masks, 0xff, p->len * sizeof *masks);
	for (size_t pc = 0; pc < p->len && !bad; pc++) {
		const struct sock_filter *f = &p->insn[pc];

		memvalid &= masks[pc];
		if (f->code == BPF_ST || f->code == BPF_STX) {
			memvalid |= (uint16_t)(1u << f->k);
		} else if (f->code == (BPF_LD | BPF_MEM) || f->code == (BPF_LDX | BPF_MEM)) {
			if (!(memvalid & (1u << f->k))) {
				snprintf(buf, n, "instruction %zu: scratch cell %u read before a store", pc, f->k);
				bad = buf;
			}
		} else if (f->code == (BPF_JMP | BPF_JA)) {
			masks[pc + 1 + f->k] &= memvalid;
			memvalid = 0xffff;
		} else if (is_cond_jump(f->code)) {
			masks[pc + 1 + f->jt] &= memvalid;
			masks[pc + 1 + f->jf] &= memvalid;
			memvalid = 0xffff;
		}
	}
	free(masks);
	return bad;
}

/* ---- running it -------------------------------------------------------------- */

/* The program's return value for sd; -1 with a reason in buf if it cannot
 * be run (it was checked first: this is a second line of defence). */
static int64_t
run_prog(const struct prog *p, const struct seccomp_data *sd, char *buf, size_t n)
{
	uint32_t A = 0, X = 0, M[BPF_MEMWORDS] = { 0 };
	size_t pc = 0;
	unsigned long steps = 0;

	/* without a backward jump, at most len steps */
	while (pc < p->len && steps++ <= p->len) {
		const struct sock_filter *f = &p->insn[pc];
		uint32_t k = f->k, src = BPF_SRC(f->code) == BPF_X ? X : k;
		int taken;

		executed[f->code] = 1;
		pc++;
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			memcpy(&A, (const unsigned char *)sd + k, sizeof A);
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			A = sizeof *sd;
			break;
		case BPF_LDX | BPF_W | BPF_LEN:
			X = sizeof *sd;
			break;
		case BPF_LD | BPF_IMM:
			A = k;
			break;
		case BPF_LDX | BPF_IMM:
			X = k;
			break;
		case BPF_LD | BPF_MEM:
			A = M[k];
			break;
		case BPF_LDX | BPF_MEM:
			X = M[k];
			break;
		case BPF_ST:
			M[k] = A;
			break;
		case BPF_STX:
			M[k] = X;
			break;
		case BPF_MISC | BPF_TAX:
			X = A;
			break;
		case BPF_MISC | BPF_TXA:
			A = X;
			break;
		case BPF_ALU | BPF_NEG:
			A = -A;
			break;
		case BPF_ALU | BPF_ADD | BPF_K:
		case BPF_ALU | BPF_ADD | BPF_X:
			A += src;
			break;
		case BPF_ALU | BPF_SUB | BPF_K:
		case BPF_ALU | BPF_SUB | BPF_X:
			A -= src;
			break;
		case BPF_ALU | BPF_MUL | BPF_K:
		case BPF_ALU | BPF_MUL | BPF_X:
			A *= src;
			break;
		case BPF_ALU | BPF_DIV | BPF_K:
		case BPF_ALU | BPF_DIV | BPF_X:
			/* the kernel ends a classic program dividing by a
			 * zero X with the return value 0 */
			if (src == 0)
				return 0;
			A /= src;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
		case BPF_ALU | BPF_AND | BPF_X:
			A &= src;
			break;
		case BPF_ALU | BPF_OR | BPF_K:
		case BPF_ALU | BPF_OR | BPF_X:
			A |= src;
			break;
		case BPF_ALU | BPF_XOR | BPF_K:
		case BPF_ALU | BPF_XOR | BPF_X:
			A ^= src;
			break;
		case BPF_ALU | BPF_LSH | BPF_K:
		case BPF_ALU | BPF_LSH | BPF_X:
			A <<= (src & 31);
			break;
		case BPF_ALU | BPF_RSH | BPF_K:
		case BPF_ALU | BPF_RSH | BPF_X:
			A >>= (src & 31);
			break;
		case BPF_JMP | BPF_JA:
			pc += k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JEQ | BPF_X:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_X:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_X:
		case BPF_JMP | BPF_JSET | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_X:
			switch (BPF_OP(f->code)) {
			case BPF_JEQ: taken = A == src; break;
			case BPF_JGT: taken = A > src; break;
			case BPF_JGE: taken = A >= src; break;
			default: taken = (A & src) != 0; break;
			}
			pc += taken ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			return k;
		case BPF_RET | BPF_A:
			return A;
		default:
			snprintf(buf, n, "instruction %zu: opcode %#06x", pc - 1, f->code);
			return -1;
		}
	}
	snprintf(buf, n, "the program ran off its end at instruction %zu", pc);
	return -1;
}

/* The action as the kernel reads a return value (__seccomp_filter). */
static void
print_action(uint32_t ret)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		puts("ALLOW");
		break;
	case SECCOMP_RET_ERRNO:
		if (data > 4095) /* MAX_ERRNO */
			data = 4095;
		printf("ERRNO %" PRIu32 " %s\n", data, errname((int)data));
		break;
	case SECCOMP_RET_KILL_THREAD:
		puts("KILL_THREAD");
		break;
	case SECCOMP_RET_TRAP:
		printf("TRAP %" PRIu32 "\n", data);
		break;
	case SECCOMP_RET_TRACE:
		printf("TRACE %" PRIu32 "\n", data);
		break;
#ifdef SECCOMP_RET_LOG
	case SECCOMP_RET_LOG:
		puts("LOG");
		break;
#endif
#ifdef SECCOMP_RET_USER_NOTIF
	case SECCOMP_RET_USER_NOTIF:
		puts("USER_NOTIF");
		break;
#endif
	case SECCOMP_RET_KILL_PROCESS:
		puts("KILL_PROCESS");
		break;
	default:
		/* an unknown action kills the process */
		printf("KILL_PROCESS (unknown action %#" PRIx32 ")\n", ret);
		break;
	}
}

/* ---- architectures and numbers ------------------------------------------------ */

struct arch {
	uint32_t token;  /* libseccomp's */
	uint32_t audit;  /* what seccomp_data.arch holds */
};

static int
arch_of(const char *name, struct arch *a)
{
	if (strcmp(name, "native") == 0)
		a->token = seccomp_arch_native();
	else if (strcmp(name, "i386") == 0)
		a->token = seccomp_arch_resolve_name("x86");
	else
		a->token = seccomp_arch_resolve_name(name);
	if (a->token == 0)
		return -1;
	/* the x32 ABI is AUDIT_ARCH_X86_64 to a filter; libseccomp's other
	 * tokens are the AUDIT_ARCH_* values */
	a->audit = a->token == SCMP_ARCH_X32 ? AUDIT_ARCH_X86_64 : a->token;
	return 0;
}

/* NAME's number on a, or -1. libseccomp gives a negative pseudo number for
 * a name that is only a multiplex on a (x86's socketcall(2) family): the
 * direct call, if a has one, is found by number. */
static long
number_of(const struct arch *a, const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(a->token, name);
	uint32_t base = a->token == SCMP_ARCH_X32 ? X32_BIT : 0;

	if (nr >= 0)
		return nr;
	for (uint32_t i = 0; i < 1024; i++) {
		char *s = seccomp_syscall_resolve_num_arch(a->token, (int)(base + i));
		int same = s && strcmp(s, name) == 0;

		free(s);
		if (same)
			return (long)(base + i);
	}
	return -1;
}

static int
print_nr(const char *arch, const char *name)
{
	struct arch a;
	long nr;

	if (arch_of(arch, &a) < 0) {
		printf("ERROR: libseccomp knows no architecture %s\n", arch);
		return 1;
	}
	nr = number_of(&a, name);
	if (nr < 0)
		puts("NOSYSCALL");
	else
		printf("%ld\n", nr);
	return 0;
}

static int
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s == '-')
		*v = (uint64_t)strtoll(s, &end, 0);
	else
		*v = strtoull(s, &end, 0);
	return errno || !*s || *end ? -1 : 0;
}

/* One evaluation; returns 1 if it was an ERROR. */
static int
eval(const struct prog *p, int argc, char **argv)
{
	struct seccomp_data sd;
	struct arch a;
	char why[256];
	long nr;
	int64_t ret;

	if (argc < 2 || argc > 8) {
		puts("ERROR: want ARCH CALL [ARG...] (at most six)");
		return 1;
	}
	if (arch_of(argv[0], &a) < 0) {
		printf("ERROR: libseccomp knows no architecture %s\n", argv[0]);
		return 1;
	}
	if (argv[1][0] == '#') {
		uint64_t v;
		if (parse_u64(argv[1] + 1, &v) < 0 || v > 0xffffffffu) {
			printf("ERROR: bad number %s\n", argv[1]);
			return 1;
		}
		nr = (long)v;
	} else {
		nr = number_of(&a, argv[1]);
		if (nr < 0) {
			puts("NOSYSCALL");
			return 0;
		}
	}
	memset(&sd, 0, sizeof sd);
	sd.nr = (int)nr;
	sd.arch = a.audit;
	for (int i = 2; i < argc; i++) {
		uint64_t v;

		if (parse_u64(argv[i], &v) < 0) {
			printf("ERROR: bad argument %s\n", argv[i]);
			return 1;
		}
		sd.args[i - 2] = v;
	}
	ret = run_prog(p, &sd, why, sizeof why);
	if (ret < 0) {
		printf("ERROR: %s\n", why);
		return 1;
	}
	print_action((uint32_t)ret);
	return 0;
}

/* ---- programs ----------------------------------------------------------------- */

static struct prog
embedded(const struct sc_opts *o)
{
	size_t v = seccomp_variant(o), len;
	const unsigned char *bytes = seccomp_embedded(o, &len);
	struct prog p;

	/* what kjail would load is what is evaluated: the same array */
	if (v >= SC_VARIANTS || bytes != kj_bpf[v] || len != kj_bpf_len[v]) {
		fprintf(stderr, "bpf-eval: seccomp_embedded() does not give variant %zu\n", v);
		exit(2);
	}
	if (len % sizeof(struct sock_filter) != 0) {
		fprintf(stderr, "bpf-eval: variant %zu is %zu bytes, not whole instructions\n", v, len);
		exit(2);
	}
	p.insn = (const struct sock_filter *)(const void *)bytes;
	p.len = len / sizeof(struct sock_filter);
	return p;
}

static struct prog
from_file(const char *path)
{
	static struct sock_filter insn[MAX_INSNS + 1];
	struct prog p = { insn, 0 };
	char line[512];
	unsigned lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "bpf-eval: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while (fgets(line, sizeof line, f)) {
		char *hash = strchr(line, '#'), *tok[5], *save = NULL;
		uint64_t v[4];
		int nt = 0;

		lineno++;
		if (hash)
			*hash = '\0';
		for (char *t = strtok_r(line, " \t\r\n", &save); t && nt < 5;
		     t = strtok_r(NULL, " \t\r\n", &save))
			tok[nt++] = t;
		if (nt == 0)
			continue;
		if (nt != 4 || p.len > MAX_INSNS) {
			fprintf(stderr, "bpf-eval: %s:%u: want CODE JT JF K\n", path, lineno);
			exit(2);
		}
		for (int i = 0; i < 4; i++) {
			if (parse_u64(tok[i], &v[i]) < 0 || v[i] > (i == 0 ? 0xffffu : i < 3 ? 0xffu : 0xffffffffu)) {
				fprintf(stderr, "bpf-eval: %s:%u: bad number %s\n", path, lineno, tok[i]);
				exit(2);
			}
		}
		insn[p.len++] = (struct sock_filter){ (uint16_t)v[0], (uint8_t)v[1], (uint8_t)v[2], (uint32_t)v[3] };
	}
	fclose(f);
	return p;
}

int
main(int argc, char **argv)
{
	struct sc_opts o;
	const char *file = NULL;
	struct prog p;
	char why[256];
	const char *bad;
	int errors = 0;

	memset(&o, 0, sizeof o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	argc--, argv++;
	if (argc == 1 && strcmp(argv[0], "--info") == 0) {
		printf("MACHINE %s\n", kj_bpf_machine);
		for (size_t i = 0; i < SC_VARIANTS; i++) {
			struct sc_opts vo = seccomp_variant_opts(i);
			printf("VARIANT %zu allow-userns=%d no-network=%d %zu\n", i,
			       vo.allow_userns, vo.no_network, kj_bpf_len[i] / sizeof(struct sock_filter));
		}
		return 0;
	}
	if (argc == 3 && strcmp(argv[0], "--nr") == 0)
		return print_nr(argv[1], argv[2]);
	if (argc == 2 && strcmp(argv[0], "--nr") == 0 && strcmp(argv[1], "-") == 0) {
		char line[512];
		int rc = 0;

		while (fgets(line, sizeof line, stdin)) {
			char *save = NULL, *a = strtok_r(line, " \t\r\n", &save);
			char *name = a ? strtok_r(NULL, " \t\r\n", &save) : NULL;

			if (!name) {
				puts("ERROR: want ARCH NAME");
				rc = 1;
				continue;
			}
			rc |= print_nr(a, name);
		}
		return rc;
	}
	for (; argc > 0 && strncmp(argv[0], "--", 2) == 0 && strcmp(argv[0], "--check") != 0; argc--, argv++) {
		if (strcmp(argv[0], "--allow-userns") == 0)
			o.allow_userns = true;
		else if (strcmp(argv[0], "--no-network") == 0)
			o.no_network = true;
		else if (strncmp(argv[0], "--prog=", 7) == 0)
			file = argv[0] + 7;
		else
			usage();
	}
	if (argc == 0)
		usage();
	p = file ? from_file(file) : embedded(&o);
	bad = check_prog(&p, why, sizeof why);

	if (argc == 1 && strcmp(argv[0], "--check") == 0) {
		if (bad) {
			printf("ERROR: %s\n", bad);
			return 1;
		}
		printf("OK %zu\nOPCODES", p.len);
		for (unsigned c = 0; c < 0x10000; c++) {
			for (size_t i = 0; i < p.len; i++) {
				if (p.insn[i].code == c) {
					printf(" 0x%04x", c);
					break;
				}
			}
		}
		printf("\n");
		return 0;
	}
	if (argc == 1 && strcmp(argv[0], "-") == 0) {
		char line[1024];

		while (fgets(line, sizeof line, stdin)) {
			char *w[9], *save = NULL;
			int n = 0;

			for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 9;
			     t = strtok_r(NULL, " \t\r\n", &save))
				w[n++] = t;
			if (bad) {
				printf("ERROR: %s\n", bad);
				errors = 1;
			} else {
				errors |= eval(&p, n, w);
			}
		}
		printf("EXECUTED");
		for (unsigned c = 0; c < 0x10000; c++)
			if (executed[c])
				printf(" 0x%04x", c);
		printf("\n");
		return errors;
	}
	if (bad) {
		printf("ERROR: %s\n", bad);
		return 1;
	}
	return eval(&p, argc, argv);
}
