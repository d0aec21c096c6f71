/* SPDX-License-Identifier: MIT */
/* The proxy's log (log.h; proxy.h gives the format): one JSON line per
 * connection, written under one lock at the proxy's own offset; a cap
 * that drops the oldest lines and keeps every count; the summary line the
 * proxy ends the log with. Counting here, as lines are written, keeps
 * kjail's report after the run constant in the log's size: kjail reads
 * that one line (proxy/summary.c). */
#include "config.h"

#include "proxy/proxy.h"
#include "proxy/log.h"
#include "proxy/tally.h"
#include "proxy/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LOG_CAP_MIN (16 * 1024) /* a few lines of the longest kind */
#define COPY_CHUNK 8192         /* on a connection's thread's stack */

struct proxy_log {
	pthread_mutex_t mu;
	bool logs;            /* given a descriptor (never changes) */
	int fd;               /* -1: counted only (or the log failed) */
	bool readable;        /* the cap keeps the newest half */
	bool closed;          /* the summary is written */
	off_t size;
	size_t cap;
	unsigned long lines;  /* written since the log last started over */
	unsigned long allowed, refused, failed, dropped;
	unsigned long bad;    /* failed with no destination read: bad requests */
	struct tally refusals;
	struct tally failures; /* by destination and reason */
};

struct proxy_log *proxy_log_open(int fd, size_t cap)
{
	struct proxy_log *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	pthread_mutex_init(&l->mu, NULL);
	tally_init(&l->refusals);
	tally_init(&l->failures);
	l->fd = fd;
	l->logs = fd >= 0;
	l->cap = cap ? cap : PROXY_LOG_CAP_DEFAULT;
	if (l->cap < LOG_CAP_MIN)
		l->cap = LOG_CAP_MIN;
	if (fd < 0)
		return l;
	struct stat st;
	int fl = fcntl(fd, F_GETFL);
	l->size = fstat(fd, &st) == 0 ? st.st_size : 0;
	/* O_APPEND would send the moved lines to the end */
	l->readable = fl >= 0 && (fl & O_ACCMODE) == O_RDWR &&
		      (!(fl & O_APPEND) || fcntl(fd, F_SETFL, fl & ~O_APPEND) == 0);
	return l;
}

static bool write_at(int fd, const char *b, size_t n, off_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, b, n, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		b += w;
		n -= (size_t)w;
		off += w;
	}
	return true;
}

/* The log starts over, empty (every line so far dropped). */
static void start_over(struct proxy_log *l)
{
	if (ftruncate(l->fd, 0) < 0) {
		l->fd = -1; /* counted only from here */
		return;
	}
	l->dropped += l->lines;
	l->lines = 0;
	l->size = 0;
}

/* The lines that start at or after from (> 0) move to the start of the
 * log and the rest is cut: the newest kept, the oldest dropped (and
 * counted), in one pass over the file. */
static bool keep_from(struct proxy_log *l, off_t from)
{
	char b[COPY_CHUNK];
	off_t cut = -1, off = from - 1; /* a line ending here or later */
	unsigned long gone = 0, kept = 0;
	/* the start of the first whole line at or after from, and the
	 * lines before it */
	for (off_t o = 0; o < l->size && cut < 0;) {
		ssize_t r = pread(l->fd, b, sizeof b, o);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		for (ssize_t i = 0; i < r; i++)
			if (b[i] == '\n') {
				gone++;
				if (o + i >= off) {
					cut = o + i + 1;
					break;
				}
			}
		o += r;
	}
	if (cut < 0)
		return false;
	off_t dst = 0;
	for (off_t o = cut; o < l->size;) {
		ssize_t r = pread(l->fd, b, sizeof b, o);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || !write_at(l->fd, b, (size_t)r, dst))
			return false;
		for (ssize_t i = 0; i < r; i++)
			kept += b[i] == '\n';
		o += r;
		dst += r;
	}
	if (ftruncate(l->fd, dst) < 0)
		return false;
	l->size = dst;
	l->dropped += gone;
	l->lines = kept;
	return true;
}

/* Room for n more bytes under the cap. */
static void make_room(struct proxy_log *l, size_t n)
{
	if ((size_t)l->size + n <= l->cap)
		return;
	off_t half = (off_t)(l->cap / 2);
	if (!l->readable || n > (size_t)half || !keep_from(l, l->size - half))
		start_over(l);
}

static int append(struct proxy_log *l, const char *s, size_t n)
{
	if (l->fd < 0)
		return 0;
	make_room(l, n);
	if (l->fd < 0 || !write_at(l->fd, s, n, l->size))
		return -1;
	l->size += (off_t)n;
	l->lines++;
	return 0;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static void set_time(json_t *o)
{
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(o, "time", json_string(now));
}

/* o as one line, its newline included; NULL if out of memory. */
static char *line_of(json_t *o, size_t *n)
{
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	if (!s)
		return NULL;
	*n = strlen(s);
	s[(*n)++] = '\n'; /* json_dumps's NUL becomes the line's end */
	return s;
}

static char *record_line(const struct proxy_record *r, size_t *n)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	/* json_string refuses invalid UTF-8: hosts are checked ASCII by the
	 * parsers, anything else becomes null rather than a lost line */
	set_time(o);
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
	json_object_set_new(o, "upstream", str_or_null(r->upstream));
	json_object_set_new(o, "bytes_out", json_integer((json_int_t)r->bytes_out));
	json_object_set_new(o, "bytes_in", json_integer((json_int_t)r->bytes_in));
	return line_of(o, n);
}

/* A refusal's destination, and the value of --allow-host that allows it. */
static void refused_dest(const struct proxy_record *r, char *dest, char *allow, size_t len)
{
	if (!r->host && r->reason && strcmp(r->reason, PROXY_REASON_CAP) == 0) {
		/* refused before a destination was read (the connection cap):
		 * counted under its reason; no --allow-host changes that */
		snprintf(dest, len, "%s", r->reason);
		snprintf(allow, len, "%s", "");
		return;
	}
	const char *h = r->host ? r->host : "?";
	bool v6 = strchr(h, ':') != NULL;
	snprintf(dest, len, v6 ? "[%s]:%u" : "%s:%u", h, r->port);
	if (r->allow)
		snprintf(allow, len, "%s", r->allow);
	else if (r->port == 80 || r->port == 443)
		snprintf(allow, len, v6 ? "[%s]" : "%s", h);
	else
		snprintf(allow, len, "%s", dest);
}

/* A failure's destination ("HOST:PORT"; "bad request" when no host was
 * read, which is counted apart) and its reason. */
static void failed_dest(const struct proxy_record *r, char *dest, char *why, size_t len)
{
	if (!r->host)
		snprintf(dest, len, "%s", "bad request");
	else
		snprintf(dest, len, strchr(r->host, ':') ? "[%s]:%u" : "%s:%u", r->host, r->port);
	snprintf(why, len, "%s", r->reason ? r->reason : "failed");
}

static void count(struct proxy_log *l, const struct proxy_record *r, const char *dest,
		  const char *allow)
{
	const char *v = r->verdict ? r->verdict : "";
	if (strcmp(v, "allowed") == 0)
		l->allowed++;
	else if (strcmp(v, "refused") == 0) {
		l->refused++;
		tally_add(&l->refusals, dest, allow);
	} else {
		l->failed++;
		if (r->host)
			tally_add(&l->failures, dest, allow); /* allow: the reason */
		else
			l->bad++;
	}
}

int proxy_log_write(struct proxy_log *l, const struct proxy_record *r)
{
	if (!l)
		return 0;
	size_t n = 0;
	/* made outside the lock: connections wait only for the write */
	char *s = l->logs ? record_line(r, &n) : NULL;
	char dest[PP_HOST_MAX + 16] = "", allow[PP_HOST_MAX + 16] = "";
	if (r->verdict && strcmp(r->verdict, "refused") == 0)
		refused_dest(r, dest, allow, sizeof dest);
	else if (!r->verdict || strcmp(r->verdict, "allowed") != 0)
		failed_dest(r, dest, allow, sizeof dest);
	int rc = 0;
	pthread_mutex_lock(&l->mu);
	if (!l->closed) {
		count(l, r, dest, allow);
		rc = s ? append(l, s, n) : l->logs ? -1 : 0;
	}
	pthread_mutex_unlock(&l->mu);
	free(s);
	return rc;
}

/* The failures that happened most: destination, reason, count. */
static json_t *failed_top(const struct proxy_log *l, unsigned long *shown)
{
	const struct tally_dest *top[PROXY_SUMMARY_TOP];
	size_t nt = tally_top(&l->failures, top, PROXY_SUMMARY_TOP);
	json_t *a = json_array();
	for (size_t i = 0; a && i < nt; i++) {
		json_array_append_new(a, json_pack("{s:s, s:s, s:I}", "destination", top[i]->dest,
						   "reason", top[i]->allow, "count",
						   (json_int_t)top[i]->count));
		*shown += top[i]->count;
	}
	return a;
}

static char *summary_line(const struct proxy_log *l, size_t *n)
{
	const struct tally_dest *top[PROXY_SUMMARY_TOP];
	size_t nt = tally_top(&l->refusals, top, PROXY_SUMMARY_TOP);
	unsigned long shown = 0, fshown = 0;
	json_t *o = json_object(), *a = json_array(), *f = failed_top(l, &fshown);
	if (!o || !a || !f) {
		json_decref(o);
		json_decref(a);
		json_decref(f);
		return NULL;
	}
	for (size_t i = 0; i < nt; i++) {
		/* "" (a refusal at the cap): no --allow-host allows it */
		json_array_append_new(a, json_pack("{s:s, s:o, s:I}", "destination", top[i]->dest,
						   "allow_host",
						   top[i]->allow[0] ? json_string(top[i]->allow)
								    : json_null(),
						   "count", (json_int_t)top[i]->count));
		shown += top[i]->count;
	}
	set_time(o);
	json_object_set_new(o, "type", json_string("summary"));
	json_object_set_new(o, "allowed", json_integer((json_int_t)l->allowed));
	json_object_set_new(o, "refused", json_integer((json_int_t)l->refused));
	json_object_set_new(o, "failed", json_integer((json_int_t)l->failed));
	json_object_set_new(o, "dropped_lines", json_integer((json_int_t)l->dropped));
	json_object_set_new(o, "refused_top", a);
	json_object_set_new(o, "refused_other", json_integer((json_int_t)(l->refused - shown)));
	json_object_set_new(o, "failed_top", f);
	json_object_set_new(o, "failed_other",
			    json_integer((json_int_t)(l->failed - l->bad - fshown)));
	json_object_set_new(o, "bad_requests", json_integer((json_int_t)l->bad));
	return line_of(o, n);
}

int proxy_log_finish(struct proxy_log *l)
{
	if (!l)
		return 0;
	pthread_mutex_lock(&l->mu);
	int rc = 0;
	if (!l->closed) {
		l->closed = true;
		size_t n = 0;
		char *s = l->logs ? summary_line(l, &n) : NULL;
		rc = s ? append(l, s, n) : l->logs ? -1 : 0;
		free(s);
	}
	pthread_mutex_unlock(&l->mu);
	return rc;
}

void proxy_log_free(struct proxy_log *l)
{
	if (!l)
		return;
	tally_free(&l->refusals);
	tally_free(&l->failures);
	pthread_mutex_destroy(&l->mu);
	free(l);
}
