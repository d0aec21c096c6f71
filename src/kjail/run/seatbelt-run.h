/* SPDX-License-Identifier: MIT */
/* The Seatbelt backend's side effects (seatbelt-run.c), beside its pure
 * profile generator (build/seatbelt.h): the host probe, --print on every
 * OS, and the exec of sandbox-exec, on macOS only; elsewhere seatbelt_run()
 * fails closed with one line. Its row of the backend table is
 * backend_seatbelt (backend.h). */
#ifndef KJ_SEATBELT_RUN_H
#define KJ_SEATBELT_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include "build/seatbelt.h"
#include "planner/planner.h"
#include "util.h"

/* Host facts: the per-user temporary directory (macOS only: confstr, never
 * $TMPDIR, which must not widen the jail) and the homes, resolved. */
void seatbelt_host_probe(struct seatbelt_host *h, const char *home, const char *home_env,
			 bool defaults);
void seatbelt_host_free(struct seatbelt_host *h);

/* --print [--json] on every platform: the exact sandbox-exec invocation as a
 * shell line, or one JSON object {"type":"invocation","backend":"seatbelt",
 * "argv":[...],"profile":"...","params":[{"name":..,"value":..}],
 * "env_unset":[...]}. Returns 0, or 125 when out cannot be written. */
int seatbelt_print(const struct plan *pl, const struct seatbelt_host *h, char *const *cmd,
		   bool json, FILE *out);

/* Runs cmd under sandbox-exec in the workspace, with the scrubbed
 * environment pl->env (so removed variables never reach sandbox-exec).
 * Never returns: on macOS it execs; elsewhere, or without sandbox-exec, it
 * exits 125 after one line on stderr. */
KJ_NORETURN void seatbelt_run(const struct plan *pl, const struct seatbelt_host *h,
			      char *const *cmd);

#endif
