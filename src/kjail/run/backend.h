/* SPDX-License-Identifier: MIT */
/* One interface for every backend: main() looks the plan's backend (enum
 * backend, policy.h) up and calls print (--print) or run. A backend is one
 * file that defines its struct backend_ops (bwrap-run.c, seatbelt-run.c,
 * container-run.c, landlock-run.c) and one row of the table in backend.c; what depends on
 * the OS stays in that file.
 * print works wherever the backend's invocation can be rendered (Seatbelt's
 * on every OS: --print is its only coverage on Linux); run, where the
 * backend cannot run, exits 125 after one line naming the backend that
 * can. */
#ifndef KJ_BACKEND_H
#define KJ_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "planner/planner.h"
#include "policy/policy.h"

/* What a backend is handed: the decided plan and what it was made from. */
struct launch {
	const struct policy *policy;
	const struct plan *plan;
	const struct host *host;  /* the homes, for Seatbelt's host probe */
	char *const *cmd;         /* the command, never empty */
	const char *entry;        /* the jail's entry program (bwrap), or NULL... */
	const char *entry_err;    /* ...with why in one line */
	bool json;                /* --print --json */
};

struct backend_ops {
	enum backend id;
	const char *name;   /* as --backend takes it (backend_name) */
	bool runs_here;     /* built to run on this OS; false: --print only */
	/* For --version: "bwrap (/usr/bin/bwrap)", "seatbelt (--print only)";
	 * empty when this build cannot even print it. */
	void (*describe)(char *buf, size_t len);
	/* Whether it can run here now; if not, false and one line (what is
	 * missing, and the fix) in why. */
	bool (*available)(char *why, size_t len);
	/* --print [--json]: the exact invocation on stdout. Returns 0, or 125
	 * when stdout fails; dies (125, one line) when it cannot be rendered. */
	int (*print)(const struct launch *l);
	/* Runs l->cmd and waits for it: its status (128+N for signal N), or it
	 * becomes the command. Dies (125, one line) when it cannot run it; the
	 * command never runs unconfined. */
	int (*run)(const struct launch *l);
	/* Optional: more lines for --version (what it is built with). */
	void (*version)(FILE *out);
};

/* The rows of the table, each defined in its backend's file. */
extern const struct backend_ops backend_bwrap;
extern const struct backend_ops backend_seatbelt;
extern const struct backend_ops backend_container;
extern const struct backend_ops backend_landlock;

/* Every backend, in the order --version lists them, NULL-terminated. */
extern const struct backend_ops *const backends[];

/* The backend for b (BACKEND_AUTO: this OS's, as backend_effective takes
 * it). Never NULL for a value of enum backend. */
const struct backend_ops *backend_lookup(enum backend b);

/* --version's "backends: " line, those that run here first, then those it
 * can only print, then each backend's own lines. */
void backends_version(FILE *out);

#endif
