/* SPDX-License-Identifier: MIT */
/* The fault barrier: run a function in a forked child so that whatever it
 * does (fail, hang, crash) the agent goes on. The child's answer comes back
 * over a pipe; a deadline kills the child's whole process group.
 *
 * And the fault log, where every fault is appended, kept under a size cap. */
#ifndef KLI_BARRIER_H
#define KLI_BARRIER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What a function running behind the barrier hands back. */
struct barrier_out {
	bool ok;        /* false: TEXT says what went wrong */
	bool fault;     /* an error worth the fault log (a tool timing out) */
	long aux;       /* a number for the caller (a job's pid, a new offset) */
	char *text;     /* malloc'd, may be NULL */
	/* what the person watching sees of the run, malloc'd, may be NULL:
	 * a summary line, then a body (a diff, an output tail); never read
	 * by the model, shown only through the terminal neutraliser */
	char *show;
};

typedef void (*barrier_fn)(void *arg, struct barrier_out *out);

enum barrier_outcome {
	BARRIER_RETURNED,  /* the function returned: see out.ok */
	BARRIER_CRASHED,   /* killed by a signal it did not ask for */
	BARRIER_TIMED_OUT, /* still running at the deadline: killed */
	BARRIER_LOST,      /* exited, or broke the pipe, without an answer */
	BARRIER_CANCELLED, /* Ctrl-C (cancel.h): the child's commands and the
			    * child stopped, SIGTERM then SIGKILL */
};

struct barrier_result {
	enum barrier_outcome outcome;
	struct barrier_out out;  /* when RETURNED */
	int signal;              /* when CRASHED */
	int status;              /* when LOST: the wait status */
};

/* Answers larger than this are cut (and say so); a SHOW text larger than
 * BARRIER_MAX_SHOW is dropped. */
#define BARRIER_MAX_TEXT (8u * 1024 * 1024)
#define BARRIER_MAX_SHOW (1u * 1024 * 1024)

/* Run FN(ARG) in a child, for at most TIMEOUT_MS. Never fails in a way the
 * caller must handle beyond reading *res: even fork failing is a result. */
void barrier_run(barrier_fn fn, void *arg, long timeout_ms, struct barrier_result *res);
void barrier_result_clear(struct barrier_result *res);

/* One line for a fault, e.g. "crashed (SIGSEGV)"; NULL for RETURNED. */
char *barrier_describe(const struct barrier_result *res, long timeout_ms);

/* ------------------------------------------------------------ fault log */

#define FAULTLOG_CAP (1024L * 1024)

/* $XDG_CACHE_HOME/kli/faults.log when XDG_CACHE_HOME is absolute, else
 * HOME/.cache/kli/faults.log; NULL when neither is usable. */
char *faultlog_path(const char *xdg_cache_home, const char *home);

/* Append one line (timestamped, made printable). When the file would grow
 * past CAP it is first moved to PATH.1, replacing the previous one. False
 * with errno when the log cannot be written. */
bool faultlog_append(const char *path, const char *line, long cap);

#endif
