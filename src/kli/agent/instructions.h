/* SPDX-License-Identifier: MIT */
/* Project instructions: the AGENTS.md files a repository keeps for coding
 * agents, from the git root (or the workspace, outside git) down to the
 * workspace, given to the model in its system message as conventions to
 * follow. They are text, never authority: nothing in them changes the
 * grant, and one is read only when the grant holds file/read for it (so a
 * run without file/read there sees none, and a link out of the workspace
 * is checked where it leads), and never when it is one of kli's own files
 * (exclude.h: the key, the configs); opened without following links, regular
 * files only, at most INSTRUCTIONS_MAX bytes each (a larger one is said on
 * stderr and left out). */
#ifndef KLI_AGENT_INSTRUCTIONS_H
#define KLI_AGENT_INSTRUCTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "authority/authority.h"

#define INSTRUCTIONS_MAX (64u * 1024)

struct instructions {
	char **paths;   /* the files read, outermost first */
	size_t n;
	char *text;     /* for the system message; NULL when none */
};

void instructions_load(struct instructions *out, const char *workspace, const char *git_root,
		       const struct grant *g, const struct auth_ctx *ctx);
void instructions_clear(struct instructions *in);

/* With --print-authority (text): the files a run would give the model,
 * each on a line, noting they grant nothing. */
void instructions_print(const char *workspace, const char *git_root, const struct grant *g,
			const struct auth_ctx *ctx, FILE *out);

#endif
