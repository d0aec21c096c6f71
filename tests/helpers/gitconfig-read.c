/* SPDX-License-Identifier: MIT */
/* gitconfig-read FILE
 * gitconfig-read --includes FILE
 * gitconfig-read --filter
 * What kjail's git config reader (src/kjail/git/reader.h) finds in FILE: each
 * key kjail acts on, in order, as `git config --list -z` prints it
 * ("name\nvalue\0", or "name\0" for a bare key). --includes: an include
 * path is followed after its own entry, as git does (relative to the
 * including file's directory, ~ from $HOME; a missing file is skipped;
 * includeIf's whatever its condition, as kjail does). Exit 1, with git's
 * objection on stderr, where the reader refuses the file.
 * --filter: git config --list -z's output on stdin, less the keys kjail
 * does not act on, so tests/integration/kjail-gitconfig-corpus.test can
 * compare the two byte for byte. */
#include "config.h"
#include "git/reader.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int filter(void)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += got;
		if (n == cap)
			buf = xreallocarray(buf, cap *= 2, 1);
	}
	for (size_t at = 0; at < n;) {
		const char *rec = buf + at;
		size_t len = strnlen(rec, n - at);
		char *name = xstrndup(rec, strcspn(rec, "\n") < len ? strcspn(rec, "\n") : len);
		if (gitconfig_key_acted(name)) {
			fwrite(rec, 1, len, stdout);
			putchar('\0');
		}
		free(name);
		at += len + 1;
	}
	free(buf);
	return ferror(stdout) || fflush(stdout) != 0;
}

/* Prints what file sets; false when the reader refuses it. */
static bool show(const char *file, bool includes, int depth)
{
	if (depth > 10) {
		fprintf(stderr, "%s: more than 10 levels of includes\n", file);
		return false;
	}
	size_t len = 0;
	char *text = read_file_capped(file, 1024 * 1024, &len);
	if (!text) {
		/* git skips an included file that is not there */
		if (depth == 0 || errno != ENOENT)
			fprintf(stderr, "%s: %s\n", file, strerror(errno));
		return depth > 0 && errno == ENOENT;
	}
	struct gitconfig g = GITCONFIG_INIT;
	bool ok = gitconfig_parse(text, len, &g);
	free(text);
	char *dir = path_dirname(file);
	for (size_t i = 0; i < g.entries.n; i++) {
		const char *e = g.entries.v[i];
		fputs(e, stdout);
		putchar('\0');
		const char *nl = strchr(e, '\n');
		const char *last = nl ? (const char *)memrchr(e, '.', (size_t)(nl - e)) : NULL;
		if (!includes || !last || strncmp(last, ".path\n", 6) != 0 ||
		    (strncmp(e, "include.", 8) != 0 && strncmp(e, "includeif.", 10) != 0) ||
		    !nl[1])
			continue;
		char *inc = gitconfig_include_path(nl + 1, dir, getenv("HOME"));
		if (inc && !show(inc, true, depth + 1))
			ok = false;
		free(inc);
	}
	if (!ok && g.err)
		fprintf(stderr, "%s: %s\n", file, g.err);
	free(dir);
	gitconfig_free(&g);
	return ok;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--filter") == 0)
		return filter();
	bool includes = argc == 3 && strcmp(argv[1], "--includes") == 0;
	if (argc != 2 + includes) {
		fputs("usage: gitconfig-read [--includes] FILE | --filter\n", stderr);
		return 2;
	}
	/* kjail's paths are absolute: so is the file's, from the current one */
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		return 2;
	char *file = path_normalize(argv[1 + includes], cwd);
	bool ok = show(file, includes, 0);
	free(file);
	return (!ok) | ferror(stdout) | (fflush(stdout) != 0);
}
