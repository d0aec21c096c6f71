/* SPDX-License-Identifier: MIT */
/* Is this a secret value? One rule, written once, shared by the
 * environment scrub (policy/env.c) and the credential-file recogniser
 * (policy/credfile.h); the config filters may call it too. Pure: bytes in,
 * a verdict and a reason out.
 *
 * A value is a secret when it is a literal (not a reference to one kept
 * elsewhere: `${NPM_TOKEN}`, `$VAR`, `env:NAME`, `op://...`, `vault:...`,
 * nor a helper's name: `desktop`, `osxkeychain`) and any of:
 *  - it holds a vendor's documented token format (GitHub ghp_ and its
 *    kin, GitLab glpat-, Slack xox?-, AWS AKIA/ASIA, OpenAI sk-,
 *    Anthropic sk-ant-, Google AIza and ya29., Stripe sk_live_, npm npm_,
 *    PyPI pypi-, Hugging Face hf_, a JWT, a PEM private key block, ...),
 *    anywhere in the value, at a word's start;
 *  - it holds a URL with a password (`scheme://user:pw@host`, the
 *    password any bytes up to the host), an http(s) URL with a user (a
 *    token in the user's place), or a proxy address without a scheme
 *    (`user:pw@host:port`);
 *  - it holds a URL whose query names a token-like parameter (token, key,
 *    sig, signature, auth, access_token, api_key, password, X-Amz-*,
 *    ...) with a value of 8 bytes or more, or a URL of a known webhook
 *    shape (Slack, Discord, Microsoft Teams/Outlook, Telegram bots,
 *    Zapier), whose path is the credential;
 *  - the whole value is one word of 16 to 4096 bytes of the token
 *    alphabet (A-Z a-z 0-9 and + / = _ . ~ -) holding upper case, lower
 *    case and digits all three (what a random base62/base64 string holds;
 *    a hash or a UUID in hex, a version, a path, a word do not).
 * SV_KEYED, for a value whose key already says it is a credential
 * (`password = ...`, `"token": ...`): also a hex or UUID value of 16
 * bytes or more, and for a password-like key any literal of 4 bytes or
 * more that is not a boolean, a number or a placeholder. */
#ifndef KJ_POLICY_SECRETVAL_H
#define KJ_POLICY_SECRETVAL_H

#include <stdbool.h>
#include <stddef.h>

enum secretval_flags {
	SV_PLAIN = 0,
	SV_KEYED = 1,     /* the key is credential-shaped (secretval_key) */
	SV_PASSWORD = 2,  /* ... and password-like (password, passwd, pwd, ...) */
	/* only what says it is a credential by its own shape: a vendor's
	 * format, a URL with a password or token, a webhook, a proxy
	 * address with a password; not the generic rule (a value under an
	 * innocent key: an id, a hash, a nonce) */
	SV_FORMATS = 4,
};

/* Why s[0..n) is a secret ("value looks like a GitHub token", "URL with
 * password", ...), a static string; NULL when it is not one. */
const char *secretval_judge(const char *s, size_t n, unsigned flags);

/* s[0..n) is a reference to a secret kept elsewhere, or a helper's name:
 * never a secret by the generic rules. */
bool secretval_is_reference(const char *s, size_t n);

/* Whether a key (a JSON member's name, an INI/YAML/.env key, in any case,
 * '-', '_', '.' and camelCase alike) is credential-shaped: its last word
 * is token, secret, password, passwd, passphrase, api_key, apikey, auth,
 * credentials, access_key, private_key, client_secret, ... . Returns 0
 * for no, else SV_KEYED, with SV_PASSWORD for a password-like one. */
unsigned secretval_key(const char *key, size_t n);

#endif
