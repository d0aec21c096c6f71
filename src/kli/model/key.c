/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "model/key.h"
#include "path.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

void key_free(char *key)
{
	if (!key)
		return;
	explicit_bzero(key, strlen(key));
	free(key);
}

bool key_valid(const char *key)
{
	if (!*key)
		return false;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f)
			return false;
	return true;
}

char *key_take_env(const char *name)
{
	char *v = getenv(name);
	if (!v)
		return NULL;
	char *copy = xstrdup(v);
	/* unsetenv() only unlinks the entry; the bytes stay where the kernel
	 * put them, readable as /proc/PID/environ by whoever can read that. */
	explicit_bzero(v, strlen(v));
	unsetenv(name);
	return copy;
}

extern char **environ;

bool key_in_value(const char *value, const char *key)
{
	if (!key || !*key)
		return false;
	return strlen(key) < KEY_SHORT ? strcmp(value, key) == 0 : strstr(value, key) != NULL;
}

void key_scrub_environ(const char *key)
{
	if (!key || !*key)
		return;
	/* Names first: unsetenv() reshuffles environ under a running loop. */
	char **names = NULL;
	size_t n = 0;
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq || !key_in_value(eq + 1, key))
			continue;
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrndup(*e, (size_t)(eq - *e));
	}
	for (size_t i = 0; i < n; i++) {
		key_free(key_take_env(names[i]));
		free(names[i]);
	}
	free(names);
}

/* The key is the file's first line; surrounding blanks are not part of it. */
static char *key_from_text(char *text, size_t len)
{
	size_t b = 0;
	while (b < len && (text[b] == ' ' || text[b] == '\t' || text[b] == '\n' || text[b] == '\r'))
		b++;
	size_t e = b;
	while (e < len && text[e] != '\n' && text[e] != '\r')
		e++;
	while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t'))
		e--;
	return xstrndup(text + b, e - b);
}

static bool key_from_file(const char *file, const char *home, char **key, char *err,
			  size_t errlen)
{
	_cleanup_free_ char *path = path_expand_home(file, home);
	if (!path) {
		fmt_into(err, errlen, "api-key-file %s: cannot expand ~ without a HOME", file);
		return false;
	}
	size_t len = 0;
	char *text = read_file_capped(path, 64 * 1024, &len);
	if (!text) {
		fmt_into(err, errlen, "api-key-file %s: %s", path,
			 errno == EFBIG ? "larger than 64 KiB" : strerror(errno));
		return false;
	}
	*key = key_from_text(text, len);
	explicit_bzero(text, len);
	free(text);
	if (!**key) {
		/* what a credential file reads as in kjail: masked (by its place
		 * or its content), so the way in is a descriptor */
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-file %s: the file is empty (in kjail a key file "
				      "reads as empty: hand the key over with kjail --secret "
				      "model=FILE and api-key-secret = model)", path);
		return false;
	}
	if (!key_valid(*key)) {
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-file %s: the first line must be the key, visible "
				      "ASCII characters only", path);
		return false;
	}
	return true;
}

char *key_secret_var(const char *name)
{
	char *v = xasprintf("KJAIL_SECRET_%s_FD", name);
	for (char *p = v + strlen("KJAIL_SECRET_"); *p; p++)
		*p = *p == '-' ? '_' : *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
	return v;
}

/* The key on the descriptor kjail --secret NAME=... handed over: read once,
 * the descriptor closed and its variable gone, so no tool inherits either. */
static bool key_from_secret(const char *name, char **key, char *err, size_t errlen)
{
	_cleanup_free_ char *var = key_secret_var(name);
	const char *v = getenv(var);
	if (!v) {
		fmt_into(err, errlen, "api-key-secret %s: $%s is not set: kli gets this key only "
				      "under kjail --secret %s=FILE (see kli.ini(5))", name, var, name);
		return false;
	}
	char *end;
	errno = 0;
	long fd = strtol(v, &end, 10);
	bool num = !errno && end != v && !*end && fd > 2 && fd <= INT_MAX;
	unsetenv(var);
	if (!num) {
		fmt_into(err, errlen, "api-key-secret %s: $%s is not a descriptor number", name, var);
		return false;
	}
	char *text = xmalloc(64 * 1024 + 1);
	size_t len = 0;
	ssize_t r = 0;
	while (len < 64 * 1024 + 1 &&
	       ((r = read((int)fd, text + len, 64 * 1024 + 1 - len)) > 0 || (r < 0 && errno == EINTR)))
		len += r > 0 ? (size_t)r : 0;
	int e = errno;
	close((int)fd);
	if (r < 0 || len > 64 * 1024) {
		explicit_bzero(text, len);
		free(text);
		fmt_into(err, errlen, "api-key-secret %s: descriptor %ld: %s", name, fd,
			 r < 0 ? strerror(e) : "larger than 64 KiB");
		return false;
	}
	*key = key_from_text(text, len);
	explicit_bzero(text, len);
	free(text);
	if (!key_valid(*key)) {
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-secret %s: the first line must be the key, visible "
				      "ASCII characters only", name);
		return false;
	}
	return true;
}

bool key_load(const struct kli_model *m, const char *home, char **key, char *err,
	      size_t errlen)
{
	*key = NULL;
	/* the descriptor kjail hands over wins: no silent fallback to a file
	 * the jail masks or a variable it removed (kli.ini(5)) */
	if (m->api_key_secret)
		return key_from_secret(m->api_key_secret, key, err, errlen);
	if (m->api_key_file && m->api_key_env) {
		fmt_into(err, errlen, "sets both api-key-file and api-key-env; keep one");
		return false;
	}
	if (m->api_key_file)
		return key_from_file(m->api_key_file, home, key, err, errlen);
	if (!m->api_key_env)
		return true;
	*key = key_take_env(m->api_key_env);
	if (!*key || !**key) {
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-env: the variable %s is not set or empty",
			 m->api_key_env);
		return false;
	}
	if (!key_valid(*key)) {
		key_free(steal_pointer(key));
		fmt_into(err, errlen, "api-key-env: %s must hold visible ASCII characters only",
			 m->api_key_env);
		return false;
	}
	return true;
}

char *key_file_readable(const struct kli_model *m, const char *home)
{
	if (m->api_key_secret || !m->api_key_file)
		return NULL;
	char *path = path_expand_home(m->api_key_file, home);
	if (path && access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/* ------------------------------------------------------------ masking */

/* The ways a key byte may be written, as key_mask knows them: as is;
 * \" \\ \/ for those three; \u00XX; %XX (hex digits of either case). */
struct form {
	size_t n;
	char lit[6];  /* the byte, or with HEX[k] a hex digit's value */
	bool hex[6];
};

static size_t forms_of(char c, struct form f[4])
{
	unsigned char u = (unsigned char)c;
	size_t n = 0;
	f[n++] = (struct form){ 1, { c }, { false } };
	if (strchr("\"\\/", c))
		f[n++] = (struct form){ 2, { '\\', c }, { false } };
	f[n++] = (struct form){ 6, { '\\', 'u', '0', '0', (char)(u >> 4), (char)(u & 15) },
				{ false, false, false, false, true, true } };
	f[n++] = (struct form){ 3, { '%', (char)(u >> 4), (char)(u & 15) },
				{ false, true, true } };
	return n;
}

enum fit { FIT_NO, FIT_YES, FIT_OPEN };

/* Whether BUF[J..] is form F; FIT_OPEN when the LEN bytes known agree
 * with it as far as they go and MORE may follow. */
static enum fit fits(const char *buf, size_t len, size_t j, const struct form *f, bool more)
{
	for (size_t k = 0; k < f->n; k++) {
		if (j + k >= len)
			return more ? FIT_OPEN : FIT_NO;
		if (f->hex[k] ? hex_value(buf[j + k]) != f->lit[k] : buf[j + k] != f->lit[k])
			return FIT_NO;
	}
	return FIT_YES;
}

/* The ways C may be written at BUF[J]: the end of each, into next[]; *OPEN
 * when one depends on bytes not known yet. */
static size_t forms(const char *buf, size_t len, size_t j, char c, bool more, size_t next[4],
		    bool *open)
{
	struct form f[4];
	size_t nf = forms_of(c, f), n = 0;
	for (size_t a = 0; a < nf; a++) {
		enum fit r = fits(buf, len, j, &f[a], more);
		if (r == FIT_OPEN)
			*open = true;
		else if (r == FIT_YES)
			next[n++] = j + f[a].n;
	}
	return n;
}

/* The end of the longest echo of KEY starting at BUF[I], or 0. The forms
 * overlap ('\\' alone or as an escape), so every position reachable after
 * each key byte is kept; they are few (each form is 1 to 6 bytes). */
#define MASK_FRONTIER 64
size_t key_echo_end(const char *buf, size_t len, size_t i, const char *key, bool more)
{
	size_t cur[MASK_FRONTIER], nxt[MASK_FRONTIER], ncur = 1;
	cur[0] = i;
	for (const char *k = key; *k && ncur; k++) {
		size_t nn = 0;
		for (size_t a = 0; a < ncur; a++) {
			size_t f[4];
			bool open = false;
			size_t nf = forms(buf, len, cur[a], *k, more, f, &open);
			/* One undecided form leaves the whole echo undecided,
			 * even one a full frontier would drop: more held
			 * back, never less masked. */
			if (open)
				return KEY_ECHO_OPEN;
			for (size_t b = 0; b < nf; b++) {
				bool dup = false;
				for (size_t d = 0; d < nn && !dup; d++)
					dup = nxt[d] == f[b];
				if (!dup && nn < MASK_FRONTIER)
					nxt[nn++] = f[b];
			}
		}
		memcpy(cur, nxt, nn * sizeof *cur);
		ncur = nn;
	}
	size_t end = 0;
	for (size_t a = 0; a < ncur; a++)
		if (cur[a] > end)
			end = cur[a];
	return end;
}

static void mask_escaped(char *buf, size_t len, const char *key)
{
	for (size_t i = 0; i < len;) {
		char c = buf[i];
		if (c != key[0] && c != '\\' && c != '%') {
			i++;
			continue;
		}
		size_t end = key_echo_end(buf, len, i, key, false);
		if (end == 0) {
			i++;
			continue;
		}
		memset(buf + i, '*', end - i);
		i = end;
	}
}

/* Base64 of "user:KEY": KEY starts at offset 0, 1 or 2 of a 3-byte group,
 * depending on the user's length. For each, the characters that depend on
 * key bytes alone (a group's first character needs its first byte, ...):
 * the encoding of zero bytes + KEY, without the characters that also hold
 * those zero bytes, nor those of a last partial group that also hold the
 * bytes after the key. */
static char *b64_core(const char *key, size_t klen, unsigned off, const char *abc)
{
	size_t n = off + klen;
	unsigned char *in = xcalloc(n, 1);
	memcpy(in + off, key, klen);
	size_t groups = (n + 2) / 3;
	char *out = xmalloc(groups * 4 + 1);
	size_t o = 0;
	for (size_t g = 0; g < groups; g++) {
		size_t r = n - 3 * g < 3 ? n - 3 * g : 3; /* key bytes in this group */
		unsigned v = (unsigned)in[3 * g] << 16 |
			     (r > 1 ? (unsigned)in[3 * g + 1] << 8 : 0) | (r > 2 ? in[3 * g + 2] : 0);
		/* a last partial group: only the characters all of whose bits are
		 * key bits (r bytes fill r whole characters) */
		for (int s = 18, c = 0; s >= 0 && (r == 3 || c < (int)r); s -= 6, c++)
			out[o++] = abc[(v >> s) & 63];
	}
	out[o] = '\0';
	explicit_bzero(in, n);
	free(in);
	/* off 1: the first group's first two characters hold a zero byte;
	 * off 2: its first three. */
	size_t skip = off == 0 ? 0 : off + 1;
	if (skip > o)
		skip = o;
	memmove(out, out + skip, o - skip + 1);
	return out;
}

size_t key_b64_forms(const char *key, char *out[KEY_B64_FORMS])
{
	static const char *const abcs[] = {
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
	};
	size_t klen = strlen(key), n = 0;
	for (size_t a = 0; a < 2; a++)
		for (unsigned off = 0; off < 3; off++) {
			char *core = b64_core(key, klen, off, abcs[a]);
			if (strlen(core) < KEY_SHORT)
				key_free(core);
			else
				out[n++] = core;
		}
	return n;
}

static void mask_base64(char *buf, size_t len, const char *key)
{
	char *cores[KEY_B64_FORMS];
	size_t n = key_b64_forms(key, cores);
	for (size_t i = 0; i < n; i++) {
		size_t c = strlen(cores[i]);
		for (char *p = buf; (p = memmem(p, len - (size_t)(p - buf), cores[i], c)); p += c)
			memset(p, '*', c);
		key_free(cores[i]);
	}
}

void key_mask(char *buf, size_t len, const char *key)
{
	if (!buf || !key || strlen(key) < KEY_SHORT)
		return;
	mask_base64(buf, len, key);
	mask_escaped(buf, len, key);
}

