/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "ini_reader.h"
#include "util.h"
#include "path.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <limits.h>

/* inih copies section and key names into fixed buffers of this size and
 * silently truncates longer ones. */
#define INIH_MAX_NAME 50

struct seen {
	char *section;
	char *key;
};

struct reader {
	const char *name;
	const char *text;
	size_t len, pos;
	unsigned line;
	const struct ini_section_spec *schema;
	ini_item_fn fn;
	void *ctx;
	bool failed;
	char *err;
	size_t errlen;
	struct seen *seen;
	size_t nseen;
};

KJ_PRINTF(2, 3) static void fail(struct reader *r, const char *fmt, ...)
{
	if (r->failed)
		return;
	r->failed = true;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fmt_into(r->err, r->errlen, "%s:%u: %s", r->name, r->line, msg);
}

static const struct ini_section_spec *find_section(const struct ini_section_spec *schema,
						   const char *name)
{
	for (; schema->name; schema++) {
		if (schema->prefix) {
			size_t n = strlen(schema->name);
			if (strncmp(name, schema->name, n) == 0 && name[n] != '\0')
				return schema;
		} else if (strcmp(name, schema->name) == 0) {
			return schema;
		}
	}
	return NULL;
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

static bool is_comment_start(char c) { return c == ';' || c == '#'; }

/* Check one physical line before inih sees it. line/n exclude the newline. */
static void check_line(struct reader *r, const char *line, size_t n)
{
	size_t i = 0;
	if (r->line == 1 && n >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	size_t end = n;
	while (end > i && isspace((unsigned char)line[end - 1]))
		end--;
	if (i == end)
		return; /* blank */
	if (isspace((unsigned char)line[i])) {
		size_t j = i;
		while (j < end && isspace((unsigned char)line[j]))
			j++;
		if (is_comment_start(line[j]))
			return;
		fail(r, "line starts with white space (continuation lines are not accepted)");
		return;
	}
	if (is_comment_start(line[i]))
		return;
	if (line[i] == '[') {
		const char *close = memchr(line + i, ']', end - i);
		if (!close) {
			fail(r, "section header without ']'");
			return;
		}
		size_t len = (size_t)(close - (line + i + 1));
		const char *after = close + 1;
		while (after < line + end && isspace((unsigned char)*after))
			after++;
		if (after < line + end && !is_comment_start(*after)) {
			fail(r, "text after section header");
			return;
		}
		if (len == 0 || len >= INIH_MAX_NAME) {
			fail(r, "section name must be 1 to %d characters", INIH_MAX_NAME - 1);
			return;
		}
		char name[INIH_MAX_NAME];
		memcpy(name, line + i + 1, len);
		name[len] = '\0';
		if (!find_section(r->schema, name))
			fail(r, "unknown section [%s]", name);
		return;
	}
	size_t k = i;
	while (k < end && is_name_char(line[k]))
		k++;
	size_t keylen = k;
	while (k < end && (line[k] == ' ' || line[k] == '\t'))
		k++;
	if (k >= end || line[k] != '=') {
		fail(r, "expected 'key = value' (keys are letters, digits, '-', '_' and '.')");
		return;
	}
	if (keylen - i >= INIH_MAX_NAME) {
		fail(r, "key name longer than %d characters", INIH_MAX_NAME - 1);
		return;
	}
	/* inih ends a value only at " ;": a " #" would silently become part of
	 * it (a mask on "~/.kube  # k8s" masks nothing). */
	for (size_t j = k + 1; j + 1 < end; j++)
		if (isspace((unsigned char)line[j]) && line[j + 1] == '#') {
			fail(r, "'#' after a value is not a comment (use ';', or put '#' first "
				"on its own line)");
			return;
		}
}

static char *reader_fn(char *str, int num, void *stream)
{
	struct reader *r = stream;
	if (r->failed || r->pos >= r->len)
		return NULL;
	const char *line = r->text + r->pos;
	const char *nl = memchr(line, '\n', r->len - r->pos);
	size_t n = nl ? (size_t)(nl - line) : r->len - r->pos;
	r->line++;
	/* inih needs room for the line, its newline and a NUL. */
	if (num < 3 || n + 2 > (size_t)num) {
		fail(r, "line longer than %d characters", num - 2);
		return NULL;
	}
	if (memchr(line, '\0', n)) {
		fail(r, "NUL byte in line");
		return NULL;
	}
	check_line(r, line, n);
	if (r->failed)
		return NULL;
	memcpy(str, line, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	r->pos += n + (nl ? 1 : 0);
	return str;
}

static bool seen_before(struct reader *r, const char *section, const char *key)
{
	for (size_t i = 0; i < r->nseen; i++)
		if (strcmp(r->seen[i].section, section) == 0 && strcmp(r->seen[i].key, key) == 0)
			return true;
	r->seen = xreallocarray(r->seen, r->nseen + 1, sizeof *r->seen);
	r->seen[r->nseen].section = xstrdup(section);
	r->seen[r->nseen].key = xstrdup(key);
	r->nseen++;
	return false;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	if (r->failed)
		return 0;
	if (!section[0]) {
		fail(r, "key '%s' outside a section", name);
		return 0;
	}
	const struct ini_section_spec *ss = find_section(r->schema, section);
	if (!ss) { /* check_line saw the header; keep this as a backstop */
		fail(r, "unknown section [%s]", section);
		return 0;
	}
	const struct ini_key_spec *ks = ss->keys;
	while (ks && ks->name && strcmp(ks->name, name) != 0)
		ks++;
	if (!ks || !ks->name) {
		fail(r, "unknown key '%s' in [%s]", name, section);
		return 0;
	}
	if (!ks->list && seen_before(r, section, name)) {
		fail(r, "key '%s' repeated in [%s]", name, section);
		return 0;
	}
	struct ini_item it = {
		.file = r->name, .line = r->line, .section = section, .key = name,
		.value = value, .section_spec = ss, .key_spec = ks,
	};
	char msg[400] = "";
	if (!r->fn(r->ctx, &it, msg, sizeof msg)) {
		fail(r, "%s", msg[0] ? msg : "invalid value");
		return 0;
	}
	return 1;
}

int ini_read_text(const char *name, const char *text, size_t len,
		  const struct ini_section_spec *schema, ini_item_fn fn, void *ctx,
		  char *err, size_t errlen)
{
	struct reader r = {
		.name = name, .text = text, .len = len, .schema = schema,
		.fn = fn, .ctx = ctx, .err = err, .errlen = errlen,
	};
	int rc = ini_parse_stream(reader_fn, &r, handler, &r);
	for (size_t i = 0; i < r.nseen; i++) {
		free(r.seen[i].section);
		free(r.seen[i].key);
	}
	free(r.seen);
	if (r.failed)
		return INI_ERROR;
	if (rc != 0) {
		if (rc > 0)
			fmt_into(err, errlen, "%s:%d: syntax error", name, rc);
		else
			fmt_into(err, errlen, "%s: cannot parse", name);
		return INI_ERROR;
	}
	return INI_OK;
}

int ini_read_file_trusted(const char *path, bool optional, uid_t uid, int flags,
			  const struct ini_section_spec *schema, ini_item_fn fn, void *ctx, char *err,
			  size_t errlen)
{
	/* opened first, checked after: what is read is the file that was
	 * checked (the same inode), and once the check holds no one else
	 * could have changed it (O_NONBLOCK: a FIFO in its place must not hang) */
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int open_errno = errno;
	char why[PATH_MAX + 64];
	struct stat checked, opened;
	if (!file_owned_safely(path, uid, flags, &checked, why, sizeof why)) {
		if (errno == ENOENT && fd < 0 && open_errno == ENOENT) {
			if (optional)
				return INI_MISSING;
			fmt_into(err, errlen, "%s: cannot read: %s", path, strerror(ENOENT));
		} else if (errno == EPERM) {
			fmt_into(err, errlen,
				 "%s: refusing this config file: someone other than you or root "
				 "could change it (%s); make it and its directories yours or "
				 "root's, writable by no one else (chmod go-w)",
				 path, why);
		} else {
			fmt_into(err, errlen, "%s: cannot check who could change it: %s", path,
				 strerror(errno ? errno : EIO));
		}
		return INI_ERROR;
	}
	if (fd < 0) {
		fmt_into(err, errlen, "%s: cannot read: %s", path, strerror(open_errno));
		return INI_ERROR;
	}
	if (fstat(fd, &opened) != 0 || opened.st_dev != checked.st_dev ||
	    opened.st_ino != checked.st_ino) {
		fmt_into(err, errlen, "%s: changed while it was being read; try again", path);
		return INI_ERROR;
	}
	size_t len;
	_cleanup_free_ char *text = read_fd_capped(fd, INI_MAX_FILE_SIZE, &len);
	if (!text) {
		if (errno == EFBIG)
			fmt_into(err, errlen, "%s: larger than %d bytes", path, INI_MAX_FILE_SIZE);
		else if (errno == EINVAL || errno == EISDIR)
			fmt_into(err, errlen, "%s: not a regular file", path);
		else
			fmt_into(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return INI_ERROR;
	}
	return ini_read_text(path, text, len, schema, fn, ctx, err, errlen);
}

int ini_read_file(const char *path, bool optional, const struct ini_section_spec *schema,
		  ini_item_fn fn, void *ctx, char *err, size_t errlen)
{
	size_t len;
	char *text = read_file_capped(path, INI_MAX_FILE_SIZE, &len);
	if (!text) {
		if (errno == ENOENT && optional)
			return INI_MISSING;
		if (errno == EFBIG)
			fmt_into(err, errlen, "%s: larger than %d bytes", path, INI_MAX_FILE_SIZE);
		else if (errno == EINVAL)
			fmt_into(err, errlen, "%s: not a regular file", path);
		else
			fmt_into(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return INI_ERROR;
	}
	int rc = ini_read_text(path, text, len, schema, fn, ctx, err, errlen);
	free(text);
	return rc;
}

bool ini_parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return true;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return true;
		}
	}
	return false;
}
