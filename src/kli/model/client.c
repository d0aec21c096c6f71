/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "model/client.h"
#include "model/key.h"
#include "model/replay.h"
#include "model/sse.h"
#include "model/stream.h"
#include "strbuf.h"
#include "util.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct exchange {
	struct strbuf body;  /* a whole reply, at most CHAT_MAX_REPLY bytes */
	size_t streamed;     /* a streamed one's bytes: counted, not kept */
	bool too_big;        /* either was larger */
	long retry_after;   /* seconds, -1 when the server sent none */
	long status;        /* of the last status line */
	bool event_stream;  /* Content-Type: text/event-stream */
	/* streaming: decided at the first byte of a 2xx body */
	const struct model_conf *conf;
	const struct model_live *live;
	struct replay *replay;  /* what earlier tries showed (model/replay.h) */
	enum { BODY_UNDECIDED, BODY_WHOLE, BODY_SSE } mode;
	struct sse sse;
	struct chat_stream st;
	bool stream_failed;
	char stream_err[600];
	/* the idle limit: the time of the last byte either way, 0 until connected */
	long long last_ms;
	curl_off_t up, down;  /* bytes counted at the last progress call */
	bool idle_cut;        /* the transfer was stopped by the idle limit */
	CURL *handle;
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void model_global_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

long model_deadline(const struct model_conf *c)
{
	long per_try = c->timeout + CHAT_RETRY_AFTER_MAX_S;
	return per_try * (c->retries + 1) + 10;
}

/* One line for the person watching: the live printer's, or stderr. */
static void note(const struct model_live *live, const char *line)
{
	if (live && live->note)
		live->note(live->ud, line);
	else
		warn_msg("%s", line);
}

/* The text shown so far is not how the new answer goes: say so. */
static void restarted(const struct model_live *live)
{
	if (live->restart)
		live->restart(live->ud);
	note(live, "the answer restarted (the retry's text differs from what was shown)");
}

/* Text of this try, shown unless an earlier try showed it already. */
static void show(struct exchange *x, const char *s, size_t n)
{
	const struct model_live *live = x->live;
	if (!live || !live->text)
		return;
	const char *out;
	size_t k;
	if (replay_text(x->replay, s, n, &out, &k) == REPLAY_RESTART)
		restarted(live);
	if (k)
		live->text(live->ud, out, k);
}

/* This try's answer is whole: an earlier try may have shown more. */
static void show_end(struct exchange *x)
{
	const struct model_live *live = x->live;
	if (!live || !live->text)
		return;
	const char *out;
	size_t k;
	if (replay_end(x->replay, &out, &k) == REPLAY_RESTART) {
		restarted(live);
		if (k)
			live->text(live->ud, out, k);
	}
}

/* One event of a stream: masked, then assembled, its new text shown. */
static bool on_event(void *ud, const char *event, const char *data, size_t len, char *err,
		     size_t errlen)
{
	(void)event;
	struct exchange *x = ud;
	char *copy = xstrndup(data, len);
	key_mask(copy, len, x->conf->key);
	char *added = NULL;
	x->st.at = x->sse.event_at;
	bool ok = chat_stream_event(&x->st, copy, len, &added, err, errlen);
	free(copy);
	if (added)
		show(x, added, strlen(added));
	free(added);
	return ok;
}

static bool stream_mode(const struct exchange *x, const char *p, size_t k)
{
	if (x->event_stream)
		return true;
	/* No Content-Type saying so: the first bytes decide. */
	return chat_body_kind(p, k) == CHAT_BODY_SSE;
}

static size_t on_stream(struct exchange *x, char *p, size_t k)
{
	x->streamed += k;
	if (x->streamed > CHAT_MAX_REPLY) {
		x->too_big = true;
		return 0;
	}
	if (!sse_feed(&x->sse, p, k, on_event, x, x->stream_err, sizeof x->stream_err)) {
		x->stream_failed = true;
		return 0;
	}
	return k;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
	struct exchange *x = ud;
	size_t k = size * n;
	x->last_ms = now_ms();
	if (x->mode == BODY_UNDECIDED && k > 0)
		x->mode = x->conf->stream && x->status >= 200 && x->status <= 299 &&
					  stream_mode(x, p, k)
				  ? BODY_SSE
				  : BODY_WHOLE;
	if (x->mode == BODY_SSE)
		return on_stream(x, p, k);
	if (!sb_add(&x->body, p, k)) {
		x->too_big = true;
		return 0; /* makes curl stop with CURLE_WRITE_ERROR */
	}
	return k;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
	struct exchange *x = ud;
	size_t k = size * n;
	x->last_ms = now_ms();
	static const char name[] = "retry-after:";
	static const char ctype[] = "content-type:";
	if (k > 9 && strncmp(p, "HTTP/", 5) == 0) {
		const char *sp = memchr(p, ' ', k);
		x->status = sp ? strtol(sp + 1, NULL, 10) : 0;
		x->event_stream = false;
	}
	if (k > sizeof ctype - 1 && strncasecmp(p, ctype, sizeof ctype - 1) == 0) {
		_cleanup_free_ char *v = xstrndup(p + sizeof ctype - 1, k - (sizeof ctype - 1));
		x->event_stream = strcasestr(v, "text/event-stream") != NULL;
	}
	if (k > sizeof name - 1 && strncasecmp(p, name, sizeof name - 1) == 0) {
		_cleanup_free_ char *v = xstrndup(p + sizeof name - 1, k - (sizeof name - 1));
		x->retry_after = chat_retry_after(v);
	}
	return k;
}

/* Whether the connection was made (and the request about to go out, or
 * some of it sent: a time in microseconds can be 0 on a fast socket). */
static bool connected(CURL *h)
{
	curl_off_t pre = 0, sent = 0;
	curl_easy_getinfo(h, CURLINFO_PRETRANSFER_TIME_T, &pre);
	curl_easy_getinfo(h, CURLINFO_SIZE_UPLOAD_T, &sent);
	return pre > 0 || sent > 0;
}

/* The idle limit. libcurl's own low-speed limit averages the speed over
 * seconds, so it would cut a stall only several seconds late and cannot
 * tell "no byte yet" from "slow": instead the clock starts once connected
 * (connecting has its own limit), restarts at every byte sent or received,
 * and this callback, which libcurl calls at least once a second, stops the
 * transfer when the silence is longer than idle_timeout. */
static int on_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	(void)dltotal;
	(void)ultotal;
	struct exchange *x = ud;
	long long now = now_ms();
	if (x->last_ms == 0) {
		if (ulnow == 0 && dlnow == 0 && !connected(x->handle))
			return 0; /* still connecting */
		x->last_ms = now;
	}
	if (ulnow != x->up || dlnow != x->down) {
		x->up = ulnow;
		x->down = dlnow;
		x->last_ms = now;
	}
	if (now - x->last_ms > x->conf->idle_timeout * 1000L) {
		x->idle_cut = true;
		return 1; /* CURLE_ABORTED_BY_CALLBACK */
	}
	return 0;
}

static void set_protocols(CURL *h)
{
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

/* The Authorization header goes into curl's own copy; ours is wiped. */
static struct curl_slist *headers(const struct model_conf *c)
{
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	h = curl_slist_append(h, "Expect:");
	if (c->stream)
		h = curl_slist_append(h, "Accept: text/event-stream, application/json");
	if (c->key) {
		char *line = xasprintf("Authorization: Bearer %s", c->key);
		h = curl_slist_append(h, line);
		explicit_bzero(line, strlen(line));
		free(line);
	}
	return h;
}

/* Connecting is bounded by the smaller of the two limits. */
static long connect_limit(const struct model_conf *c)
{
	return c->connect_timeout < c->timeout ? c->connect_timeout : c->timeout;
}

static CURL *easy(const struct model_conf *c, const char *body, struct exchange *x,
		  struct curl_slist *hdrs, char *errbuf)
{
	CURL *h = curl_easy_init();
	if (!h)
		return NULL;
	curl_easy_setopt(h, CURLOPT_URL, c->url);
	if (c->unix_path) {
		curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, c->unix_path);
		curl_easy_setopt(h, CURLOPT_PROXY, ""); /* a socket is never proxied */
	}
	set_protocols(h);
	/* A redirect would carry the key to wherever the server points. */
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, c->timeout);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, connect_limit(c));
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, x);
	x->handle = h;
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "kli/" PACKAGE_VERSION);
	return h;
}

static const char *where(const struct model_conf *c)
{
	return c->base_url;
}

/* Which limit ran out, in one line naming its key. */
static void timeout_error(const struct model_conf *c, CURL *h, char *err, size_t errlen)
{
	if (!connected(h))
		fmt_into(err, errlen, "cannot connect to the model at %s within %ld s ([model] %s)",
			 where(c), connect_limit(c),
			 c->connect_timeout < c->timeout ? "connect-timeout" : "timeout");
	else
		fmt_into(err, errlen, "the model at %s did not finish its answer within %ld s "
				      "([model] timeout)", where(c), c->timeout);
}

/* For a base-url on the loopback (http://127.0.0.1:PORT/..., localhost,
 * [::1], any 127/8 address): the --allow-host value that forwards that
 * port of the host into a kjail jail ("127.0.0.1:8080"), else "": in a
 * jail of its own the loopback is the jail's, not the host's. A port
 * below 1024 cannot be forwarded (kjail refuses it). */
static void loopback_flag(const char *url, char *out, size_t len)
{
	out[0] = '\0';
	const char *p = strstr(url, "://");
	if (!p)
		return;
	p += 3;
	size_t hn = strcspn(p, "/?#");
	char auth[300];
	if (hn >= sizeof auth || memchr(p, '@', hn))
		return;
	memcpy(auth, p, hn);
	auth[hn] = '\0';
	char *port = NULL, *host = auth;
	if (auth[0] == '[') {
		char *e = strchr(auth, ']');
		if (!e || (e[1] && e[1] != ':'))
			return;
		port = e[1] ? e + 2 : NULL;
		e[1] = '\0';
	} else if ((port = strchr(auth, ':'))) {
		*port++ = '\0';
	}
	long n = port ? strtol(port, &port, 10) : 0;
	if (!port || *port || n < 1024 || n > 65535)
		return;
	bool loop = strcasecmp(host, "localhost") == 0 || strcmp(host, "[::1]") == 0;
	unsigned a, b, c, d;
	char tail;
	if (!loop && sscanf(host, "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) == 4 && a == 127 &&
	    b < 256 && c < 256 && d < 256)
		loop = true;
	if (loop)
		fmt_into(out, len, "%s:%ld", host, n);
}

/* One line for a transport failure, with the fix where there is one. */
static void transport_error(const struct model_conf *c, CURL *h, CURLcode rc,
			    const char *errbuf, const struct exchange *x, char *err, size_t errlen)
{
	const char *detail = errbuf[0] ? errbuf : curl_easy_strerror(rc);
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		timeout_error(c, h, err, errlen);
		break;
	case CURLE_ABORTED_BY_CALLBACK:
		if (x->idle_cut) {
			fmt_into(err, errlen, "the model at %s sent nothing for %ld s "
					      "([model] idle-timeout)", where(c), c->idle_timeout);
			break;
		}
		fmt_into(err, errlen, "talking to the model at %s failed: %s", where(c), detail);
		break;
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST: {
		char flag[320];
		loopback_flag(where(c), flag, sizeof flag);
		if (flag[0])
			fmt_into(err, errlen, "cannot reach the model at %s: %s (is the server "
					      "running? in a kjail jail the loopback is the jail's: "
					      "run kjail --allow-host %s to reach the host's, or use a "
					      "unix: base-url)",
				 where(c), detail, flag);
		else
			fmt_into(err, errlen, "cannot reach the model at %s: %s (is the server "
					      "running? without a network, only a unix: base-url "
					      "reaches it)",
				 where(c), detail);
		break;
	}
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
		fmt_into(err, errlen, "the model's reply from %s was cut short: %s", where(c),
			 detail);
		break;
	case CURLE_WRITE_ERROR:
		if (x->stream_failed) {
			fmt_into(err, errlen, "%s", x->stream_err);
			break;
		}
		if (x->too_big) {
			fmt_into(err, errlen, "the model's reply from %s is larger than 16 MiB",
				 where(c));
			break;
		}
		/* fall through */
	default:
		fmt_into(err, errlen, "talking to the model at %s failed: %s", where(c), detail);
	}
}

static void http_error(const struct model_conf *c, long status, const struct exchange *x,
		       char *err, size_t errlen)
{
	_cleanup_free_ char *detail = x->body.len ? chat_error_detail(x->body.s, x->body.len)
						  : NULL;
	fmt_into(err, errlen, "the model server at %s answered HTTP %ld%s%s", where(c), status,
		 detail ? ": " : "", detail ? detail : "");
}

/* Whether a transport failure is worth another try: the server was
 * reached and its answer broke off (the connection dropped or reset, the
 * body cut short, an error frame or a malformed event in a stream, a
 * stream gone silent), which a new try need not repeat. Not: no
 * connection, the whole-exchange limit, a reply too large, or silence
 * before the first byte of the body (a server still working on the
 * request would only get it twice). */
static bool broke_off(CURLcode rc, const struct exchange *x)
{
	switch (rc) {
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_PARTIAL_FILE:
		return true;
	case CURLE_WRITE_ERROR:
		return x->stream_failed && !x->too_big;
	case CURLE_ABORTED_BY_CALLBACK:
		return x->idle_cut && (x->body.len > 0 || x->streamed > 0);
	default:
		return false;
	}
}

/* A server may echo the key back ("invalid key sk-..."), JSON-escaped,
 * URL-encoded or in base64: whatever the body becomes (a message, the
 * fault log, the conversation), the key is not in it. */
static void redact_key(const char *key, struct strbuf *b)
{
	if (b->len)
		key_mask(b->s, b->len, key);
}

/* The end of a 2xx answer: a stream put together, or a whole body. */
static bool finish_reply(struct exchange *x, struct chat_reply *out, char *err, size_t errlen)
{
	if (x->mode != BODY_SSE)
		return chat_reply_parse(x->body.s, x->body.len, out, err, errlen);
	if (!sse_finish(&x->sse, on_event, x, err, errlen))
		return false;
	if (!chat_stream_finish(&x->st, out, err, errlen))
		return false;
	/* Each event was masked, but an echo split over two events is whole
	 * only now. */
	const char *key = x->conf->key;
	if (out->content)
		key_mask(out->content, strlen(out->content), key);
	for (size_t i = 0; i < out->ncalls; i++) {
		key_mask(out->calls[i].id, strlen(out->calls[i].id), key);
		key_mask(out->calls[i].name, strlen(out->calls[i].name), key);
		key_mask(out->calls[i].arguments, strlen(out->calls[i].arguments), key);
	}
	return true;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

enum attempt { ATTEMPT_DONE, ATTEMPT_FAILED, ATTEMPT_RETRY };

/* A 2xx answer in: the reply, and on the screen what no try showed yet. */
static bool answered(struct exchange *x, struct chat_reply *out, char *err, size_t errlen)
{
	if (!finish_reply(x, out, err, errlen))
		return false;
	/* An earlier try streamed part of an answer that comes whole now. */
	if (x->mode != BODY_SSE && x->replay->len > 0 && out->content)
		show(x, out->content, strlen(out->content));
	show_end(x);
	return true;
}

static enum attempt attempt_once(const struct model_conf *c, const char *body, unsigned tries,
				 const struct model_live *live, struct replay *replay,
				 struct chat_reply *out, long *wait_ms, enum model_failure *why,
				 char *err, size_t errlen)
{
	struct exchange x = { .body = STRBUF_INIT_MAX(CHAT_MAX_REPLY), .retry_after = -1,
			      .conf = c, .live = live, .replay = replay, .sse = SSE_INIT };
	chat_stream_init(&x.st);
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *hdrs = headers(c);
	CURL *h = easy(c, body, &x, hdrs, errbuf);
	enum attempt res = ATTEMPT_FAILED;
	if (!h) {
		fmt_into(err, errlen, "cannot set up libcurl");
		goto out;
	}
	CURLcode rc = curl_easy_perform(h);
	redact_key(c->key, &x.body);
	long status = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	bool again = false;
	if (rc != CURLE_OK) {
		transport_error(c, h, rc, errbuf, &x, err, errlen);
		again = broke_off(rc, &x);
	} else if (status >= 200 && status <= 299) {
		if (answered(&x, out, err, errlen))
			res = ATTEMPT_DONE;
		/* a stream that ended early or badly; a whole body is as sent */
		again = res != ATTEMPT_DONE && x.mode == BODY_SSE;
	} else {
		http_error(c, status, &x, err, errlen);
		if (chat_too_long(status, x.body.s, x.body.len))
			*why = MODEL_FAIL_TOO_LONG;
		again = chat_retryable(status);
	}
	long ms = chat_backoff_ms(tries, x.retry_after);
	if (again && (long)tries <= c->retries && ms >= 0) {
		*wait_ms = ms;
		res = ATTEMPT_RETRY;
	} else if (again && ms < 0) {
		size_t n = strlen(err);
		fmt_into(err + n, errlen - n, " (it asks to retry after %ld s: too long)",
			 x.retry_after);
	}
	curl_easy_cleanup(h);
out:
	curl_slist_free_all(hdrs);
	sb_release(&x.body);
	sse_clear(&x.sse);
	chat_stream_clear(&x.st);
	return res;
}

bool model_exchange(const struct model_conf *c, const char *body,
		    const struct model_live *live, struct chat_reply *out,
		    enum model_failure *why, char *err, size_t errlen)
{
	*out = (struct chat_reply){ 0 };
	*why = MODEL_FAIL_OTHER;
	struct replay replay;
	replay_init(&replay);
	enum attempt a;
	unsigned tries = 1;
	for (;; tries++) {
		long wait_ms = 0;
		a = attempt_once(c, body, tries, live, &replay, out, &wait_ms, why, err, errlen);
		if (a != ATTEMPT_RETRY)
			break;
		_cleanup_free_ char *line = xasprintf("retrying (%u/%ld): %s", tries + 1,
						      c->retries + 1, err);
		note(live, line);
		sleep_ms(wait_ms);
		replay_retry(&replay);
	}
	replay_clear(&replay);
	if (a == ATTEMPT_FAILED && tries > 1) {
		size_t n = strlen(err);
		fmt_into(err + n, errlen - n, " (after %u tries)", tries);
	}
	return a == ATTEMPT_DONE;
}
