/* SPDX-License-Identifier: MIT */
/* planner/protect-path.c: protecting one path inside a writable root. */
#ifndef KJ_PLANNER_PROTECT_PATH_H
#define KJ_PLANNER_PROTECT_PATH_H

#include "planner/internal.h"

/* protect-path.c: what a row's kind does at one place */
enum protect_act {
	ACT_RESERVE,    /* present: read-only; absent: reserved */
	ACT_IF_PRESENT, /* present: read-only; absent: nothing */
	ACT_IF_FILE,    /* a file: read-only; else nothing */
	ACT_MAKE_DIR,   /* absent: made an empty directory, then read-only */
	ACT_MAKE_FILE,  /* absent: made an empty file, then read-only */
};
/* may_make: a CREATE_DIR row's directory may be made here (a repository's
 * .git/hooks, a config directory); wtc: extensions.worktreeConfig is set
 * (a MAKE_FILE row's file is made). Otherwise both are reserved. */
enum protect_act protect_act_of(enum protect_kind k, bool may_make, bool wtc);
/* Protect root/rel, which is p, of kind k (looked up already). */
void protect_kind(struct builder *b, const char *root, const char *rel, const char *why,
		  enum protect_act act, const char *p, enum kind k);
void protect(struct builder *b, const char *root, const char *rel, const char *why,
	     enum protect_act act);
/* dir (root/...) may get new entries in the jail, but what it holds is
 * what git outside uses (.git/modules): present, it and its ancestors are
 * pinned and its entries noted, and aftercare renames aside each entry the
 * jail adds; absent, it is reserved. */
void watch_dir(struct builder *b, const char *root, const char *dir, const char *why);
/* dir (root/...) takes no new entry in the jail, since git outside trusts
 * one (a linked worktree's worktrees/): present, it is sealed (plan.h's
 * OP_SEAL; what is in it keeps its own pins and protections) and its
 * ancestors pinned; absent, it is reserved. */
void seal_dir(struct builder *b, const char *root, const char *dir, const char *why);
/* path (real) inside a writable root: protected there. */
void protect_at(struct builder *b, const char *real, const char *why, enum protect_act act);

#endif
