/* SPDX-License-Identifier: MIT */
/* key_mask for a text that arrives in pieces (a streamed answer): what it
 * gives back at once is what key_mask of the whole text will have there,
 * and it holds back only what more text could still turn into an echo of
 * the key. For every text and every way of cutting it into pieces,
 * redact_feed of each piece, then redact_finish, gives key_mask of the
 * whole text (tests/unit/kli/model/test_redact.c).
 *
 * key_mask is seven passes, each left to right: the six base64 forms of
 * the key in turn, then the echoes as is, JSON-escaped or URL-encoded.
 * Here each pass is a stage that sees what the one before let through. A
 * base64 stage holds back the longest end of its input that begins that
 * form (a fixed string: a Knuth-Morris-Pratt automaton); the echo stage
 * holds back from the first place where an echo may start but the bytes
 * after it are not known yet (key_echo_end with MORE). Text that could
 * begin none of them goes straight through: a key of 200 characters
 * holds back nothing in a text that does not start to echo it. A stage
 * decides only on what the stages before it let through, so a text that
 * ends in the start of an echo followed by the start of a base64 form
 * waits for both to be settled. */
#ifndef KLI_MODEL_REDACT_H
#define KLI_MODEL_REDACT_H

#include <stddef.h>

struct redact;

/* A masker for KEY, which must outlive it. NULL, or a key key_mask leaves
 * alone (shorter than KEY_SHORT): everything passes at once. */
struct redact *redact_new(const char *key);

/* The next N bytes of the text; returns what can be shown now (a new
 * string, *OUTLEN bytes, NUL-terminated), masked. */
char *redact_feed(struct redact *r, const char *s, size_t n, size_t *outlen);

/* The end of the text: the rest, masked (a new string, *OUTLEN bytes).
 * What is fed next starts a new text. */
char *redact_finish(struct redact *r, size_t *outlen);

/* Wipes what it held back. NULL is fine. */
void redact_free(struct redact *r);

#endif
