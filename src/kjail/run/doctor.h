/* SPDX-License-Identifier: MIT */
#ifndef KJ_DOCTOR_H
#define KJ_DOCTOR_H

/* kjail --doctor: a line per check, what works, what does not, the fix,
 * and what the landlock backend would give where bwrap cannot run.
 * Returns 0 when a bwrap jail can be started here, 1 otherwise (a FAIL
 * line). */
int doctor(const char *self, const char *bwrap);

#endif
