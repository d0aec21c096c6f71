/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "policy/secretval.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alnum(char c) { return is_lower(c) || is_upper(c) || is_digit(c); }
static bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static char lower(char c) { return is_upper(c) ? (char)(c - 'A' + 'a') : c; }

/* The characters a token's body is made of, after its prefix. */
enum body { B_ALNUM, B_ALNUM_US, B_ALNUM_DASH, B_HEX, B_UPPER_DIGIT, B_BASE64 };

static bool in_body(enum body b, char c)
{
	switch (b) {
	case B_ALNUM: return is_alnum(c);
	case B_ALNUM_US: return is_alnum(c) || c == '_';
	case B_ALNUM_DASH: return is_alnum(c) || c == '_' || c == '-';
	case B_HEX: return is_hex(c);
	case B_UPPER_DIGIT: return is_upper(c) || is_digit(c);
	case B_BASE64: return is_alnum(c) || c == '+' || c == '/' || c == '=';
	}
	return false;
}

/* Vendors' documented token formats: a prefix at a word's start, then at
 * least min bytes of the body's alphabet. Longer prefixes first where one
 * begins another (sk-ant- before sk-). */
static const struct vendor {
	const char *prefix;
	enum body body;
	unsigned min;
	const char *why;
} vendors[] = {
	{ "github_pat_", B_ALNUM_US, 40, "value looks like a GitHub token" },
	{ "ghp_", B_ALNUM, 30, "value looks like a GitHub token" },
	{ "gho_", B_ALNUM, 30, "value looks like a GitHub token" },
	{ "ghu_", B_ALNUM, 30, "value looks like a GitHub token" },
	{ "ghs_", B_ALNUM, 30, "value looks like a GitHub token" },
	{ "ghr_", B_ALNUM, 30, "value looks like a GitHub token" },
	{ "glpat-", B_ALNUM_DASH, 20, "value looks like a GitLab token" },
	{ "glptt-", B_ALNUM_DASH, 20, "value looks like a GitLab token" },
	{ "gldt-", B_ALNUM_DASH, 20, "value looks like a GitLab token" },
	{ "glrt-", B_ALNUM_DASH, 20, "value looks like a GitLab token" },
	{ "glcbt-", B_ALNUM_DASH, 20, "value looks like a GitLab token" },
	{ "xoxb-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "xoxp-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "xoxa-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "xoxe-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "xoxo-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "xoxr-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "xoxs-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "xapp-", B_ALNUM_DASH, 10, "value looks like a Slack token" },
	{ "AKIA", B_UPPER_DIGIT, 16, "value looks like an AWS access key" },
	{ "ASIA", B_UPPER_DIGIT, 16, "value looks like an AWS access key" },
	{ "sk-ant-", B_ALNUM_DASH, 20, "value looks like an Anthropic key" },
	{ "sk-", B_ALNUM_DASH, 20, "value looks like an OpenAI key" },
	{ "AIza", B_ALNUM_DASH, 30, "value looks like a Google API key" },
	{ "ya29.", B_ALNUM_DASH, 20, "value looks like a Google OAuth token" },
	{ "sk_live_", B_ALNUM, 16, "value looks like a Stripe key" },
	{ "rk_live_", B_ALNUM, 16, "value looks like a Stripe key" },
	{ "sk_test_", B_ALNUM, 16, "value looks like a Stripe key" },
	{ "rk_test_", B_ALNUM, 16, "value looks like a Stripe key" },
	{ "whsec_", B_ALNUM, 16, "value looks like a Stripe key" },
	{ "npm_", B_ALNUM, 36, "value looks like an npm token" },
	{ "pypi-", B_ALNUM_DASH, 50, "value looks like a PyPI token" },
	{ "hf_", B_ALNUM, 30, "value looks like a Hugging Face token" },
	{ "dop_v1_", B_HEX, 64, "value looks like a DigitalOcean token" },
	{ "doo_v1_", B_HEX, 64, "value looks like a DigitalOcean token" },
	{ "dor_v1_", B_HEX, 64, "value looks like a DigitalOcean token" },
	{ "shpat_", B_HEX, 32, "value looks like a Shopify token" },
	{ "shpss_", B_HEX, 32, "value looks like a Shopify token" },
	{ "shpca_", B_HEX, 32, "value looks like a Shopify token" },
	{ "shppa_", B_HEX, 32, "value looks like a Shopify token" },
	{ "SG.", B_ALNUM_DASH, 22, "value looks like a SendGrid key" },
	{ "glc_", B_BASE64, 32, "value looks like a Grafana token" },
	{ "glsa_", B_ALNUM_US, 32, "value looks like a Grafana token" },
	{ "tskey-", B_ALNUM_DASH, 20, "value looks like a Tailscale key" },
	{ "lin_api_", B_ALNUM, 32, "value looks like a Linear key" },
	{ "dp.pt.", B_ALNUM, 40, "value looks like a Doppler token" },
	{ "dp.st.", B_ALNUM, 40, "value looks like a Doppler token" },
	{ "AGE-SECRET-KEY-1", B_UPPER_DIGIT, 50, "value looks like an age secret key" },
	{ "AccountKey=", B_BASE64, 40, "value holds an Azure storage key" },
	{ "SharedAccessKey=", B_BASE64, 20, "value holds an Azure access key" },
};

static bool has_prefix_at(const char *s, size_t n, size_t at, const char *p)
{
	size_t l = strlen(p);
	return at + l <= n && memcmp(s + at, p, l) == 0;
}

static size_t run_of(enum body b, const char *s, size_t n, size_t at)
{
	size_t e = at;
	while (e < n && in_body(b, s[e]))
		e++;
	return e - at;
}

/* eyJ...(header).eyJ or any base64url (payload).(signature, maybe empty) */
static bool jwt_at(const char *s, size_t n, size_t i)
{
	if (!has_prefix_at(s, n, i, "eyJ"))
		return false;
	size_t h = run_of(B_ALNUM_DASH, s, n, i);
	if (h < 10 || i + h >= n || s[i + h] != '.')
		return false;
	size_t p = run_of(B_ALNUM_DASH, s, n, i + h + 1);
	return p >= 10 && i + h + 1 + p < n && s[i + h + 1 + p] == '.';
}

/* -----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?----- */
static bool pem_at(const char *s, size_t n, size_t i)
{
	if (!has_prefix_at(s, n, i, "-----BEGIN "))
		return false;
	size_t e = i + 11;
	while (e < n && e < i + 64 && (is_upper(s[e]) || s[e] == ' '))
		e++;
	return e >= i + 11 + 11 && memcmp(s + e - 11, "PRIVATE KEY", 11) == 0;
}

static const char *vendor_format(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && is_alnum(s[i - 1]))
			continue;
		if (s[i] == '-' && pem_at(s, n, i))
			return "value holds a private key";
		if (s[i] == 'e' && jwt_at(s, n, i))
			return "value looks like a JWT";
		for (size_t v = 0; v < sizeof vendors / sizeof *vendors; v++) {
			const struct vendor *t = &vendors[v];
			if (s[i] != t->prefix[0] || !has_prefix_at(s, n, i, t->prefix))
				continue;
			if (run_of(t->body, s, n, i + strlen(t->prefix)) >= t->min)
				return t->why;
			break; /* sk-ant- too short is no sk- either */
		}
	}
	return NULL;
}

static bool ci_prefix(const char *s, size_t n, const char *p)
{
	size_t l = strlen(p);
	return n >= l && strncasecmp(s, p, l) == 0;
}

/* $VAR, env:NAME, op://...: syntax that names a secret kept elsewhere */
static bool reference_syntax(const char *s, size_t n)
{
	if (!n)
		return false;
	/* $VAR, ${VAR}, $(command), %{...}, {{ template }}, <placeholder> */
	if (s[0] == '$' && n > 1 && (s[1] == '{' || s[1] == '(' || s[1] == '_' || is_upper(s[1]) ||
				     is_lower(s[1])))
		return true;
	if ((n >= 2 && s[0] == '{' && s[1] == '{') || (n >= 2 && s[0] == '%' && s[1] == '{') ||
	    (s[0] == '<' && s[n - 1] == '>'))
		return true;
	/* a shell snippet a tool runs (git's credential helper "!f() ...") */
	if (s[0] == '!')
		return true;
	static const char *const schemes[] = {
		"env:", "env.", "op://", "vault:", "secret:", "secrets:", "keyring:", "keychain:",
		"cmd:", "exec:", "file:", "awssm:", "aws-sm:", "ssm:", "gcpsm:", "gcp-sm:", "sm://",
		"azkv:", "akv://", "doppler:", "bw:", "bws:", "infisical:", "gopass:",
	};
	for (size_t i = 0; i < sizeof schemes / sizeof *schemes; i++)
		if (ci_prefix(s, n, schemes[i]))
			return true;
	return false;
}

/* a helper's name (credsStore: desktop, credential.helper = osxkeychain,
 * ecr-login): a lower-case word with dashes, no digit */
static bool helper_name(const char *s, size_t n)
{
	if (n > 40)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(is_lower(s[i]) || (i > 0 && s[i] == '-')))
			return false;
	return true;
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s))
		(*s)++, (*n)--;
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

bool secretval_is_reference(const char *s, size_t n)
{
	trim(&s, &n);
	return !n || reference_syntax(s, n) || helper_name(s, n);
}

/* The name of a query parameter (lower case, '-' and '_' dropped, the
 * vendors' x-amz-, x-goog-, x-ms- dropped) names a token. */
static bool param_token_like(const char *s, size_t n)
{
	char k[48];
	size_t m = 0;
	for (size_t i = 0; i < n && m + 1 < sizeof k; i++)
		if (is_alnum(s[i]))
			k[m++] = lower(s[i]);
	k[m] = '\0';
	if (n >= 64)
		return false;
	const char *b = k;
	if (!strncmp(b, "xamz", 4) || !strncmp(b, "xgoog", 5) || !strncmp(b, "xms", 3))
		return strstr(b, "signature") || strstr(b, "credential") || strstr(b, "token") ||
		       strstr(b, "security");
	static const char *const exact[] = { "key", "sig", "auth", "pass", "pwd", "jwt", "code",
					     "apikey", "secret", "password", "credential", "se" };
	for (size_t i = 0; i + 1 < sizeof exact / sizeof *exact; i++)
		if (strcmp(b, exact[i]) == 0)
			return true;
	static const char *const ends[] = { "token", "secret", "signature", "password",
					    "apikey", "accesskey", "credential", "sig", "auth",
					    "passwd" };
	size_t bl = strlen(b);
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		size_t l = strlen(ends[i]);
		if (bl >= l && strcmp(b + bl - l, ends[i]) == 0)
			return true;
	}
	return false;
}

/* host (lower-cased compare) is h or ends with ".h" */
static bool host_is(const char *host, size_t hl, const char *h)
{
	size_t l = strlen(h);
	if (hl < l || strncasecmp(host + hl - l, h, l) != 0)
		return false;
	return hl == l || host[hl - l - 1] == '.';
}

static const char *webhook(const char *host, size_t hl, const char *path, size_t pl)
{
	static const struct {
		const char *host, *path;
	} hooks[] = {
		{ "hooks.slack.com", "/services/" }, { "hooks.slack.com", "/workflows/" },
		{ "hooks.slack.com", "/triggers/" }, { "discord.com", "/api/webhooks/" },
		{ "discordapp.com", "/api/webhooks/" }, { "webhook.office.com", "/webhookb2/" },
		{ "outlook.office.com", "/webhook/" }, { "outlook.office365.com", "/webhook/" },
		{ "api.telegram.org", "/bot" }, { "hooks.zapier.com", "/hooks/catch/" },
		{ "maker.ifttt.com", "/trigger/" },
	};
	for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++) {
		size_t l = strlen(hooks[i].path);
		if (host_is(host, hl, hooks[i].host) && pl >= l + 8 &&
		    strncasecmp(path, hooks[i].path, l) == 0)
			return "value is a webhook URL (its path is the credential)";
	}
	return NULL;
}

static bool scheme_is_http(const char *s, size_t at)
{
	size_t b = at;
	while (b > 0 && (is_alnum(s[b - 1]) || s[b - 1] == '+' || s[b - 1] == '-' || s[b - 1] == '.'))
		b--;
	size_t l = at - b;
	return (l == 4 && strncasecmp(s + b, "http", 4) == 0) ||
	       (l == 5 && strncasecmp(s + b, "https", 5) == 0);
}

/* One URL at s[i] == "://". */
static const char *url_at(const char *s, size_t n, size_t i)
{
	size_t a = i + 3, e = a, at = SIZE_MAX;
	/* the authority: to the path, query, fragment or a space; the user
	 * part before its last '@' (a quote is a password's byte) */
	while (e < n && s[e] != '/' && s[e] != '?' && s[e] != '#' && !is_space(s[e])) {
		if (s[e] == '@')
			at = e;
		e++;
	}
	if (at != SIZE_MAX) {
		const char *colon = memchr(s + a, ':', at - a);
		if (colon && (size_t)(s + at - colon) > 1 &&
		    !reference_syntax(colon + 1, (size_t)(s + at - colon - 1)))
			return "value holds a URL with a password";
		if (!colon && at > a && scheme_is_http(s, i))
			return "value holds an http(s) URL with a user (a token)";
	}
	size_t host = at == SIZE_MAX ? a : at + 1;
	size_t hl = e - host;
	for (size_t c = host; c < e; c++)
		if (s[c] == ':') { /* the port */
			hl = c - host;
			break;
		}
	size_t pe = e;
	while (pe < n && s[pe] != '?' && s[pe] != '#' && !is_space(s[pe]))
		pe++;
	const char *why = webhook(s + host, hl, s + e, pe - e);
	if (why)
		return why;
	if (pe >= n || s[pe] != '?')
		return NULL;
	/* the query: name=value pairs, & or ; between */
	for (size_t q = pe + 1; q < n;) {
		size_t end = q;
		while (end < n && s[end] != '&' && s[end] != ';' && s[end] != '#' && !is_space(s[end]))
			end++;
		const char *eq = memchr(s + q, '=', end - q);
		if (eq && param_token_like(s + q, (size_t)(eq - s - q))) {
			size_t vl = (size_t)(s + end - eq - 1);
			if (vl >= 8 && !reference_syntax(eq + 1, vl))
				return "value holds a URL with a token in its query";
		}
		if (end >= n || (s[end] != '&' && s[end] != ';'))
			break;
		q = end + 1;
	}
	return NULL;
}

static const char *url_secret(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/') {
			const char *why = url_at(s, n, i);
			if (why)
				return why;
		}
	return NULL;
}

/* user:password@host[:port][/] without a scheme: how many tools take a
 * proxy ($http_proxy) */
static const char *bare_proxy(const char *s, size_t n)
{
	if (memmem(s, n, "://", 3))
		return NULL;
	const char *at = NULL;
	for (size_t i = 0; i < n; i++) {
		if (is_space(s[i]) || (s[i] == '/' && i + 1 != n))
			return NULL;
		if (s[i] == '@')
			at = s + i;
	}
	if (!at)
		return NULL;
	const char *colon = memchr(s, ':', (size_t)(at - s));
	if (!colon || colon == s || colon + 1 == at)
		return NULL;
	size_t hl = (size_t)(s + n - at - 1);
	if (!hl)
		return NULL;
	bool port = false;
	for (const char *h = at + 1; h < s + n; h++) {
		if (*h == ':')
			port = true;
		else if (*h == '/' && h + 1 == s + n)
			break;
		else if (port ? !is_digit(*h) : !(is_alnum(*h) || *h == '.' || *h == '-'))
			return NULL;
	}
	if (reference_syntax(colon + 1, (size_t)(at - colon - 1)))
		return NULL;
	return "value holds a proxy address with a password";
}

static int cls(char c) { return is_upper(c) ? 0 : is_lower(c) ? 1 : is_digit(c) ? 2 : -1; }

/* The generic rule: one word of the token alphabet, upper, lower and
 * digits all present, and changing between them as a random string does:
 * at least one change in five letters and digits (an upper-case letter
 * followed by lower case, a word's capital, does not count). A name made
 * of words and numbers (MyProject2024-build, a build id) changes less. */
static bool generic(const char *s, size_t n)
{
	if (n < 16 || n > 4096)
		return false;
	if (s[0] == '/' || s[0] == '~' || s[0] == '.')
		return false; /* a path */
	bool seen[3] = { false, false, false };
	unsigned dots = 0;
	size_t alnum = 0, changes = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int k = cls(c);
		if (k < 0) {
			if (c == '.')
				dots++;
			else if (!c || !strchr("+/=_~-", c))
				return false;
			continue;
		}
		seen[k] = true;
		alnum++;
		int pk = i ? cls(s[i - 1]) : -1;
		if (pk >= 0 && pk != k && !(pk == 0 && k == 1))
			changes++;
	}
	/* a dotted name (com.Example.App2, a host name) is no base64 */
	return seen[0] && seen[1] && seen[2] && dots < 2 && changes * 5 >= alnum;
}

/* A hash or a UUID in hex (dashes between), 16 bytes or more. */
static bool hexish(const char *s, size_t n)
{
	if (n < 16)
		return false;
	size_t hex = 0;
	for (size_t i = 0; i < n; i++) {
		if (is_hex(s[i]))
			hex++;
		else if (s[i] != '-')
			return false;
	}
	return hex >= 16;
}

static bool placeholder(const char *s, size_t n)
{
	static const char *const words[] = { "true", "false", "yes", "no", "on", "off", "null",
					     "none", "nil", "~", "prompt", "ask", "keyring",
					     "required", "optional", "empty", "redacted" };
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strlen(words[i]) == n && strncasecmp(s, words[i], n) == 0)
			return true;
	bool same = true; /* ****, xxxx */
	for (size_t i = 1; i < n && same; i++)
		same = s[i] == s[0];
	return same;
}

const char *secretval_judge(const char *s, size_t n, unsigned flags)
{
	if (!s || !n)
		return NULL;
	const char *why = vendor_format(s, n);
	if (why)
		return why;
	if ((why = url_secret(s, n)) || (why = bare_proxy(s, n)))
		return why;
	if (flags & SV_FORMATS)
		return NULL;
	/* what follows judges the whole value: it must be a literal */
	const char *t = s;
	size_t m = n;
	trim(&t, &m);
	if (!m || memmem(t, m, "://", 3) || reference_syntax(t, m))
		return NULL;
	if ((flags & SV_PASSWORD) && m >= 4 && !placeholder(t, m))
		return "value of a password key";
	if (helper_name(t, m))
		return NULL;
	if (generic(t, m))
		return "value looks like a token (16 or more mixed letters and digits)";
	if ((flags & SV_KEYED) && hexish(t, m))
		return "value of a credential key looks like a token (hex)";
	if ((flags & SV_KEYED) && m >= 16 && !placeholder(t, m)) {
		/* a credential key's long literal with letters and digits */
		bool l = false, d = false, sp = false;
		for (size_t i = 0; i < m; i++)
			l |= is_lower(t[i]) || is_upper(t[i]), d |= is_digit(t[i]),
				sp |= is_space(t[i]);
		if (l && d && !sp && t[0] != '/' && t[0] != '~')
			return "value of a credential key looks like a token";
	}
	return NULL;
}

/* The key's words, lower case: split at non-alphanumerics and where a
 * lower-case letter or digit meets an upper-case one (accessToken). The
 * last two into last and prev. */
static void last_words(const char *k, size_t n, char *last, char *prev, size_t cap)
{
	last[0] = prev[0] = '\0';
	size_t e = n;
	for (int w = 0; w < 2; w++) {
		while (e > 0 && !is_alnum(k[e - 1]))
			e--;
		size_t b = e;
		while (b > 0 && is_alnum(k[b - 1]) &&
		       !(is_upper(k[b]) && b < e && (is_lower(k[b - 1]) || is_digit(k[b - 1]))))
			b--;
		/* an upper-case run before a capitalized word: "APIKey" */
		char *out = w == 0 ? last : prev;
		size_t l = e - b < cap - 1 ? e - b : cap - 1;
		for (size_t i = 0; i < l; i++)
			out[i] = lower(k[b + i]);
		out[l] = '\0';
		e = b;
	}
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

unsigned secretval_key(const char *key, size_t n)
{
	char last[48], prev[48];
	last_words(key, n, last, prev, sizeof last);
	if (!last[0])
		return 0;
	static const char *const pw[] = { "password", "passwd", "passphrase", "pwd", "pass",
					  "pw" };
	for (size_t i = 0; i < sizeof pw / sizeof *pw; i++)
		if (strcmp(last, pw[i]) == 0 || (i < 3 && ends_with(last, pw[i])))
			return SV_KEYED | SV_PASSWORD;
	static const char *const cred[] = { "token", "tokens", "secret", "secrets", "apikey",
					    "credential", "credentials", "creds", "auth",
					    "authorization", "pat", "jwt", "cookie", "bearer" };
	for (size_t i = 0; i < sizeof cred / sizeof *cred; i++)
		if (strcmp(last, cred[i]) == 0)
			return SV_KEYED;
	static const char *const suffix[] = { "token", "secret", "apikey", "accesskey",
					      "privatekey", "secretkey", "authkey" };
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++)
		if (ends_with(last, suffix[i]))
			return SV_KEYED;
	if (strcmp(last, "key") == 0) {
		static const char *const keyed[] = { "api", "access", "private", "secret",
						     "client", "master", "account", "auth",
						     "signing", "encryption", "license", "session" };
		for (size_t i = 0; i < sizeof keyed / sizeof *keyed; i++)
			if (strcmp(prev, keyed[i]) == 0 || ends_with(prev, keyed[i]))
				return SV_KEYED;
	}
	if (strcmp(last, "ident") == 0 && ends_with(prev, "auth"))
		return SV_KEYED;
	return 0;
}
