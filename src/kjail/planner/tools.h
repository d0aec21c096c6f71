/* SPDX-License-Identifier: MIT */
/* planner/tools.c: candidates, lookups, directory reads, errors. */
#ifndef KJ_PLANNER_TOOLS_H
#define KJ_PLANNER_TOOLS_H

#include "planner/internal.h"

/* planner/tools.c */
enum kind kind_of(const char *path, bool follow);
/* kind_of, answered from the memo when the path is a directory already
 * found real (a real directory is the same with or without following). */
enum kind kind_in(struct builder *b, const char *path, bool follow);
void cand_push(struct cands *c, struct cand x);
/* Adds a candidate that takes ownership of path. */
void cand_take(struct plan *pl, struct cands *c, enum op_kind kind, char *path,
	       const char *rule, const char *origin);
void cand_add(struct plan *pl, struct cands *c, enum op_kind kind, const char *path,
	      const char *rule, const char *origin);
void cands_free(struct cands *c);
/* Sorted in tree order, one entry per path (the first added; but a seal
 * wins over a pin of its path). */
void cands_sort_unique(struct cands *c);
/* Parents sort before children, so mounts stack the right way round. */
void emit_sorted(struct plan *pl, struct cands *c);
bool in_private_area(const char *path);
const struct cand *covering(const struct cands *c, const char *path);
KJ_PRINTF(2, 3) bool fail(struct builder *b, const char *fmt, ...);
void skip(struct builder *b, const char *path, const char *why, const char *origin);
/* What kjail makes itself changes a directory: no listing is trusted
 * after that. */
void listings_forget(struct builder *b);
/* Which of the n names (first components: name[i], len[i] bytes) are
 * entries of dir: one read of the directory where a lookup per name would
 * cost a system call each, most of them for nothing. False when dir cannot
 * be read in full: then nothing is known. Only absence is taken from it
 * (what is there is still looked up), so the answer is that of a lookup
 * per name. link, when given: which of them are symlinks. */
bool scan_dir(struct builder *b, const char *dir, const char *const *name,
	      const size_t *len, size_t n, bool *present, bool *link);

#endif
