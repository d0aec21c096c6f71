/* SPDX-License-Identifier: MIT */
/* planner/masks.c: the masks (built-in, --deny-read, under no network), filtered copies. */
#ifndef KJ_PLANNER_MASKS_H
#define KJ_PLANNER_MASKS_H

#include "planner/internal.h"

/* masks.c */
void add_mask(struct builder *b, const char *path, const char *origin);
/* The filtered copies planned, onto their masks' ops (after emit_sorted),
 * and freed. */
void attach_filtered(struct builder *b);
void filtered_free(struct builder *b);
/* The built-in masks (with defaults on), those under no network and
 * --deny-read's. */
void add_policy_masks(struct builder *b);
/* The repositories' own git config files (b->protects' "git config"
 * rows): one holding a credential (a CI checkout keeps its token in
 * .git/config: actions/checkout's http.<url>.extraheader) is served
 * filtered as ~/.gitconfig is, still read-only (under Seatbelt, which
 * cannot serve a copy, masked whole with one line); one that cannot be
 * parsed is masked whole; the others stay the files themselves. After
 * protect_all. */
void add_repo_config_filters(struct builder *b);

#endif
