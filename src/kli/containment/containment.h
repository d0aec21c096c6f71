/* SPDX-License-Identifier: MIT */
/* Authority within containment: kli's grant (what the agent may do) joined
 * with kjail's policy document (what the process can touch), as three
 * answers: the *containment* of each granted atom (which parts of its path
 * the jail makes writable, read-only, masked; what a command is left),
 * the *effective* authority (the grant narrowed to what the jail lets the
 * tools do) and the *gaps* in both directions:
 *
 *  - impossible: granted, but the jail cannot honour it (file/write under a
 *    path the jail keeps read-only; file/read of a path it masks). These
 *    are what `kli --check-containment` fails on.
 *  - beyond: possible here beyond the grant, through a granted atom (a
 *    command can write anywhere under a writable root that file/write does
 *    not cover). Reported, never a failure: it is what process/exec means.
 *
 * Pure: the grant's paths are resolved already (authority.h), the policy's
 * mounts are real paths (jailpolicy.h); nothing here touches the system.
 * Every string a result holds is its own. */
#ifndef KLI_CONTAINMENT_H
#define KLI_CONTAINMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "authority/authority.h"
#include "containment/jailpolicy.h"

/* One part of a granted path: the path and what the jail does there. */
struct cont_part {
	char *path;
	char *verdict;   /* "writable", "read-only", "masked", "private"; "none": no mount */
	char *rule;
	char *origin;
};

/* A granted atom the jail has a say on: a file atom (file/read, file/write,
 * file/edit) under any constraint, or any atom under a path constraint. */
struct cont_atom {
	char *atom;
	char *constraint;        /* rendered (authority.h), "any" for none given */
	char *root;              /* the path it is granted under ("/" for any) */
	struct cont_part *parts; /* parts[0]: the root's own verdict; then every
				  * mount strictly under the root that decides
				  * its own path, in the jail's order */
	size_t nparts;
	/* Effective: where the tool works here (file atoms only). */
	char **works;            /* paths under which it works */
	size_t nworks;
	struct cont_part *except; /* parts under those where it does not */
	size_t nexcept;
};

enum gap_dir { GAP_IMPOSSIBLE, GAP_BEYOND };

struct cont_gap {
	enum gap_dir dir;
	char *atom;
	char *path;     /* may be NULL (the network) */
	char *text;     /* one line: "file/write under /etc: the jail makes ..." */
};

struct containment {
	bool jailed;             /* false: no policy, nothing else is filled */
	char *backend, *kjail_version; /* may be NULL */
	char *network;           /* "shared", "none", "allowlist", "unknown" */
	char *network_origin;    /* may be NULL */
	char **hosts;            /* the allowlist */
	size_t nhosts;
	char **degraded;         /* the policy's "degraded": "ID:WHAT" each */
	size_t ndegraded;
	int seccomp, landlock;   /* enum jail_flag */
	long landlock_abi;       /* -1: not said */
	int landlock_writes;     /* enum jail_flag: off with Landlock on is
				  * its scopes only (kjail --allow-userns) */
	/* The jail's own lists, each a mount that decides its own path. */
	char **writable, **private_;
	size_t nwritable, nprivate;
	struct cont_part *masked, *protected_;
	size_t nmasked, nprotected;
	struct cont_atom *atoms;
	size_t natoms;
	/* process/exec: does it allow any command? (a path or range allows
	 * none, authority.h) */
	bool exec;
	char *exec_constraint;   /* rendered; NULL without exec */
	struct cont_gap *gaps;   /* impossible ones first, then beyond */
	size_t ngaps;
};

/* The containment of G in the jail P (NULL: not running under kjail). */
struct containment *containment_compute(const struct grant *g, const struct jail_policy *p);
void containment_free(struct containment *c);

/* How many gaps of direction DIR. */
size_t containment_count(const struct containment *c, enum gap_dir dir);

#endif
