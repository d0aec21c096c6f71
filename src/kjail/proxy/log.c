/* SPDX-License-Identifier: MIT */
/* The proxy's log: one JSON line per connection (proxy.h gives the
 * format), written with one write() on an O_APPEND descriptor so lines
 * from concurrent connections never interleave; and the run's summary of
 * refusals read back from it. */
#include "config.h"

#include "proxy/proxy.h"
#include "proxy/log.h"
#include "proxy/internal.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

int proxy_log_write(int fd, const struct proxy_record *r)
{
	if (fd < 0)
		return 0;
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_t *o = json_object();
	if (!o)
		return -1;
	/* json_string refuses invalid UTF-8: hosts are checked ASCII by the
	 * parsers, anything else becomes null rather than a lost line */
	json_object_set_new(o, "time", json_string(now));
	json_object_set_new(o, "proto", json_string(r->proto));
	json_object_set_new(o, "host", str_or_null(r->host));
	json_object_set_new(o, "port", json_integer(r->port));
	json_object_set_new(o, "verdict", json_string(r->verdict));
	json_object_set_new(o, "reason", str_or_null(r->reason));
	json_object_set_new(o, "rule", str_or_null(r->rule));
	json_object_set_new(o, "origin", str_or_null(r->origin));
	json_object_set_new(o, "address", str_or_null(r->address));
	json_object_set_new(o, "sni", str_or_null(r->sni));
	json_object_set_new(o, "http_host", str_or_null(r->http_host));
	json_object_set_new(o, "bytes_out", json_integer((json_int_t)r->bytes_out));
	json_object_set_new(o, "bytes_in", json_integer((json_int_t)r->bytes_in));
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!s)
		return -1;
	size_t n = strlen(s);
	s[n] = '\n'; /* json_dumps's NUL becomes the line's end */
	ssize_t w;
	do
		w = write(fd, s, n + 1);
	while (w < 0 && errno == EINTR);
	free(s);
	return w == (ssize_t)(n + 1) ? 0 : -1;
}

struct dest {
	char *name;
	long count;
};

static void count_dest(struct dest **d, size_t *nd, const char *name)
{
	for (size_t i = 0; i < *nd; i++)
		if (strcmp((*d)[i].name, name) == 0) {
			(*d)[i].count++;
			return;
		}
	struct dest *nd2 = realloc(*d, (*nd + 1) * sizeof **d);
	char *copy = strdup(name);
	if (!nd2 || !copy) {
		free(copy);
		if (nd2)
			*d = nd2;
		return;
	}
	*d = nd2;
	(*d)[*nd].name = copy;
	(*d)[*nd].count = 1;
	(*nd)++;
}

/* One line of the log: a refusal's destination into dest, or false. */
static bool refused_dest(const char *line, char *dest, size_t len)
{
	json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
	if (!o)
		return false;
	const char *v = json_string_value(json_object_get(o, "verdict"));
	const char *h = json_string_value(json_object_get(o, "host"));
	const char *why = json_string_value(json_object_get(o, "reason"));
	json_int_t p = json_integer_value(json_object_get(o, "port"));
	bool yes = v && strcmp(v, "refused") == 0;
	if (yes && !h) /* refused before a destination was read: at a cap */
		snprintf(dest, len, "%s", why ? why : "?");
	else if (yes)
		snprintf(dest, len, strchr(h, ':') ? "[%s]:%lld" : "%s:%lld", h, (long long)p);
	json_decref(o);
	return yes;
}

static int by_count(const void *a, const void *b)
{
	const struct dest *x = a, *y = b;
	return (y->count > x->count) - (y->count < x->count);
}

/* The whole log from its start (it is written only by the proxy, one line
 * per connection: a few MiB at most). */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	for (;;) {
		if (!buf)
			return NULL;
		if (n == cap) {
			char *b = realloc(buf, cap * 2 + 1);
			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		ssize_t r = pread(fd, buf + n, cap - n, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

long proxy_log_summary(int log_fd, char *out, size_t len)
{
	size_t n;
	if (len)
		out[0] = '\0';
	char *buf = read_all(log_fd, &n);
	if (!buf)
		return -1;
	struct dest *d = NULL;
	size_t nd = 0;
	long total = 0;
	for (char *line = buf, *nl; line < buf + n; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(buf + n - line));
		if (!nl)
			break; /* a line being written */
		*nl = '\0';
		char dest[PP_HOST_MAX + 16];
		if (refused_dest(line, dest, sizeof dest)) {
			total++;
			count_dest(&d, &nd, dest);
		}
	}
	free(buf);
	if (total > 0 && nd > 0) {
		/* stable enough: qsort may reorder ties, which only changes
		 * the order of equal counts */
		qsort(d, nd, sizeof *d, by_count);
		size_t used = (size_t)snprintf(out, len, "refused %ld connection%s:", total,
					       total == 1 ? "" : "s");
		for (size_t i = 0; i < nd && i < 5 && used < len; i++)
			used += (size_t)snprintf(out + used, len - used, "%s %s (%ld)",
						 i ? "," : "", d[i].name, d[i].count);
		if (nd > 5 && used < len)
			snprintf(out + used, len - used, ", ...");
	}
	for (size_t i = 0; i < nd; i++)
		free(d[i].name);
	free(d);
	return total;
}
