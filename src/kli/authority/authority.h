/* SPDX-License-Identifier: MIT */
/* kli's authority lattice: atoms, constraints, grants.
 *
 * A grant says which capabilities ("atoms", group/verb) an agent holds and,
 * per atom, under which constraint. Grants only ever narrow: there is meet,
 * there is no join. Every grant is kept implication-closed (holding
 * tools/standard means holding file/write, and so on), which is what makes
 * covers() and meet() agree.
 *
 * Pure code. The one piece of I/O is resolving paths for path constraints,
 * reached through auth_ctx.resolve so tests can substitute it. */
#ifndef KLI_AUTHORITY_H
#define KLI_AUTHORITY_H

/* The lattice's interface, each part declared beside the file that
 * defines it: atoms.h (atoms.c), constraint.h, grant.h, caps.h. */
#include "authority/atoms.h"
#include "authority/constraint.h"
#include "authority/grant.h"
#include "authority/caps.h"

#endif
