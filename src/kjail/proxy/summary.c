/* SPDX-License-Identifier: MIT */
/* kjail's line about what the proxy refused (summary.h): the proxy
 * counted while it logged (proxy/log.c), so this reads one line from the
 * log's end, whatever the log's size, and checks every value before a
 * byte of it reaches the user's terminal. */
#include "config.h"

#include "proxy/proxy.h"
#include "proxy/summary.h"
#include "proxy/parse.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The log's last line, NUL-terminated in buf (at most PROXY_SUMMARY_MAX
 * bytes before it), or NULL. */
static char *last_line(int fd, char *buf, size_t *n)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size <= 0)
		return NULL;
	off_t from = st.st_size > PROXY_SUMMARY_MAX ? st.st_size - PROXY_SUMMARY_MAX : 0;
	ssize_t r;
	do
		r = pread(fd, buf, (size_t)(st.st_size - from), from);
	while (r < 0 && errno == EINTR);
	if (r <= 0 || buf[r - 1] != '\n')
		return NULL;
	buf[r - 1] = '\0';
	char *start = strrchr(buf, '\n');
	if (!start && from > 0)
		return NULL; /* longer than any summary */
	start = start ? start + 1 : buf;
	*n = (size_t)(buf + r - 1 - start);
	return start;
}

/* A value the proxy wrote from a name it checked: printable ASCII, no
 * space, not empty, no longer than a host and a port. */
static const char *word(json_t *v)
{
	const char *s = json_string_value(v);
	if (!s || !s[0] || strlen(s) > PP_HOST_MAX + 8)
		return NULL;
	for (const char *c = s; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f)
			return NULL;
	return s;
}

/* A destination: a word, or the refusal at the connection cap, which
 * had none. */
static const char *dest_of(json_t *v)
{
	const char *s = json_string_value(v);
	if (s && strcmp(s, PROXY_REASON_CAP) == 0)
		return s;
	return word(v);
}

static bool count_of(json_t *v, long *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return false;
	*out = (long)json_integer_value(v);
	return true;
}

struct top {
	const char *dest, *allow; /* a failure's: its reason in allow */
	long count;
};

/* A failure's reason, as the proxy words it (strerror, getaddrinfo's):
 * printable ASCII, spaces allowed, not empty, short. */
static const char *reason(json_t *v)
{
	const char *s = json_string_value(v);
	if (!s || !s[0] || strlen(s) > 128)
		return NULL;
	for (const char *c = s; *c; c++)
		if (*c < 0x20 || *c >= 0x7f)
			return NULL;
	return s;
}

/* The summary's failures to a destination (the 502s), checked:
 * failed_top's entries, failed_other and bad_requests add up to failed;
 * *failed is the first two (a bad request is the client's own doing). */
static bool read_failures(json_t *o, long *failed, struct top *t, size_t *nt)
{
	json_t *a = json_object_get(o, "failed_top");
	long other = 0, bad = 0, all = 0;
	if (!json_is_array(a) || json_array_size(a) > PROXY_SUMMARY_TOP ||
	    !count_of(json_object_get(o, "failed"), &all) ||
	    !count_of(json_object_get(o, "bad_requests"), &bad) ||
	    !count_of(json_object_get(o, "failed_other"), &other) || bad > all)
		return false;
	*failed = all - bad;
	*nt = 0;
	long sum = other;
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *e = json_array_get(a, i);
		struct top x = { word(json_object_get(e, "destination")),
				 reason(json_object_get(e, "reason")), 0 };
		if (!x.dest || !x.allow || !count_of(json_object_get(e, "count"), &x.count) ||
		    x.count == 0)
			return false;
		sum += x.count;
		t[(*nt)++] = x;
	}
	return sum == *failed;
}

/* The summary's refusals, checked; false if the line is not a summary. */
static bool read_summary(json_t *o, long *refused, long *other, struct top *t, size_t *nt)
{
	const char *type = json_string_value(json_object_get(o, "type"));
	json_t *a = json_object_get(o, "refused_top");
	if (!type || strcmp(type, "summary") != 0 || !json_is_array(a) ||
	    json_array_size(a) > PROXY_SUMMARY_TOP ||
	    !count_of(json_object_get(o, "refused"), refused) ||
	    !count_of(json_object_get(o, "refused_other"), other))
		return false;
	*nt = 0;
	long sum = *other;
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *e = json_array_get(a, i);
		/* allow_host null: no --allow-host would allow it */
		json_t *ah = json_object_get(e, "allow_host");
		struct top x = { dest_of(json_object_get(e, "destination")),
				 json_is_null(ah) ? NULL : word(ah), 0 };
		if (!x.dest || (!x.allow && !json_is_null(ah)) ||
		    !count_of(json_object_get(e, "count"), &x.count) || x.count == 0)
			return false;
		sum += x.count;
		t[(*nt)++] = x;
	}
	return sum == *refused;
}

/* A line being written into a caller's buffer, cut short at its end. */
struct text {
	char *s;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void add(struct text *t, const char *fmt, ...)
{
	if (t->used >= t->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(t->s + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (w > 0)
		t->used += (size_t)w;
}

/* "2 connections failed: git.example:22 (connection refused, 2)" */
static void add_failures(struct text *x, long failed, const struct top *f, size_t nf)
{
	long shown = 0;
	add(x, "%ld connection%s failed:", failed, failed == 1 ? "" : "s");
	for (size_t i = 0; i < nf; i++) {
		add(x, "%s %s (%s, %ld)", i ? "," : "", f[i].dest, f[i].allow, f[i].count);
		shown += f[i].count;
	}
	if (failed > shown)
		add(x, "%s other destinations (%ld)", nf ? "," : "", failed - shown);
}

long proxy_summary(int log_fd, char *out, size_t len)
{
	char buf[PROXY_SUMMARY_MAX + 1];
	size_t n = 0;
	if (len)
		out[0] = '\0';
	const char *line = last_line(log_fd, buf, &n);
	json_t *o = line ? json_loadb(line, n, JSON_REJECT_DUPLICATES, NULL) : NULL;
	struct top t[PROXY_SUMMARY_TOP], f[PROXY_SUMMARY_TOP];
	size_t nt = 0, nf = 0;
	long refused = 0, other = 0, failed = 0;
	bool ok = o && read_summary(o, &refused, &other, t, &nt) &&
		  read_failures(o, &failed, f, &nf);
	if (!ok || refused + failed == 0 || !len) {
		json_decref(o);
		return ok ? refused + failed : -1;
	}
	struct text x = { out, len, 0 };
	if (refused == 0) {
		add_failures(&x, failed, f, nf);
		json_decref(o);
		return failed;
	}
	add(&x, "refused %ld connection%s:", refused, refused == 1 ? "" : "s");
	for (size_t i = 0; i < nt; i++)
		add(&x, "%s %s (%ld)", i ? "," : "", t[i].dest, t[i].count);
	if (other)
		add(&x, "%s other destinations (%ld)", nt ? "," : "", other);
	bool flags = false;
	for (size_t i = 0; i < nt; i++) {
		if (!t[i].allow)
			continue;
		bool again = false;
		for (size_t j = 0; j < i && !again; j++)
			again = t[j].allow && strcmp(t[j].allow, t[i].allow) == 0;
		if (!again)
			add(&x, "%s --allow-host %s", flags ? "" : "; add", t[i].allow);
		flags = true;
	}
	if (flags)
		add(&x, " to allow %s", refused == 1 ? "it" : "them");
	if (failed) {
		add(&x, "; ");
		add_failures(&x, failed, f, nf);
	}
	json_decref(o);
	return refused + failed;
}
