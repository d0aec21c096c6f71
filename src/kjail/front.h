/* kjail's front: bwrap started before the C library's own start-up.
 *
 * The ELF entry point of kjail is kjail_front (front.c), not the C
 * library's _start. It runs before anything of the C library (no
 * relocations applied, no TLS, no heap), makes the descriptors a jail needs
 * and starts bwrap, waiting for its options, on the command after "--";
 * then it jumps to _start, and main() takes that bwrap over (jail_start in
 * run.c) or, when anything differs from what it would have started itself
 * (the bwrap or helper found, the command, too few descriptors for the
 * masks, not a run at all), kills it and starts its own. bwrap runs nothing
 * before kjail hands it the whole jail, so a wrong guess costs a start-up,
 * never a looser jail.
 *
 * What bwrap is started with here is what kjail itself would start it with:
 * the same descriptors in the same order (jail_open), an empty environment
 * (kjail hands the command's through bwrap's options), the caller's signal
 * dispositions for the entry helper. */
#ifndef KJ_FRONT_H
#define KJ_FRONT_H

/* The most descriptors the front opens for masked files: more --deny-read
 * entries than this leave the start to main(). */
#define FRONT_POOL_MAX 256
/* Descriptors for masked files a jail starts with beyond the --deny-read
 * entries: the built-in masks seldom reach this many on one host; beyond
 * them bwrap is started again with enough (run.c). */
#define JAIL_POOL_SPARE 16
/* Where kjail looks for bwrap, in order: NUL-separated, an empty one last
 * (no table of pointers: the front runs before relocation). */
#define KJ_BWRAP_CANDIDATES KJ_BWRAP_PATH "\0/usr/bin/bwrap\0/usr/local/bin/bwrap\0/bin/bwrap\0"
#define FRONT_PATH_MAX 4096
#define FRONT_CPU_WORDS 16 /* 1,024 CPUs */
/* The longest command the front starts bwrap for (its words): bwrap's
 * argv is built on the stack there. */
#define FRONT_CMD_MAX 4096

struct front_state {
	int started;  /* 1: bwrap runs, pid below, waiting for its options */
	int pid;
	int ncmd;     /* the command bwrap was started with: its words, as */
	char *cmd[FRONT_CMD_MAX + 1]; /* the kernel laid them out */
	int status_p[2], err_p[2], info_p[2], args_p[2];
	int user_err, policy, go, seccomp;
	int sig_default;
	int npool;
	int pool[FRONT_POOL_MAX];
	int split;    /* bwrap on the CPU kjail started on, kjail on another */
	unsigned long cpus_all[FRONT_CPU_WORDS]; /* kjail's CPUs as it started */
	char bwrap[FRONT_PATH_MAX];
	char entry[FRONT_PATH_MAX];
};

/* Filled by the front before main() runs; started is 0 when it did not
 * start bwrap (not a run, no "--", anything it could not do). */
extern struct front_state kjail_front;

#endif
