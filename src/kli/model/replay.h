/* SPDX-License-Identifier: MIT */
/* What a retried stream shows. When a stream fails and the request is
 * sent again, the person has already read part of the first answer. Each
 * try's text passes through here on its way to the screen: the first
 * try's goes straight through; a retry's is compared with what was shown,
 * and as long as it repeats it nothing is shown again, past its end the
 * rest is shown; where it differs (or it ends short of it), the answer
 * restarted: the caller says so and shows the new answer from its start.
 * Pure: no I/O. */
#ifndef KLI_MODEL_REPLAY_H
#define KLI_MODEL_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

struct replay {
	char *shown;      /* the text passed on: the answer as the person has it */
	size_t len, cap;
	size_t pos;       /* how much of SHOWN this try has repeated */
	bool repeating;   /* a retry that has not yet gone past or off SHOWN */
};

enum replay_step {
	REPLAY_SHOW,     /* show *OUT (may be empty) after what was shown */
	REPLAY_RESTART,  /* what was shown is not how this answer goes: say
			  * so, then show *OUT, this try's text so far */
};

void replay_init(struct replay *r);
void replay_clear(struct replay *r);

/* A new try of the same request begins. */
void replay_retry(struct replay *r);

/* TEXT (N bytes) of the current try. *OUT and *OUTLEN point into TEXT or
 * into R, valid until the next call. */
enum replay_step replay_text(struct replay *r, const char *text, size_t n, const char **out,
			     size_t *outlen);

/* The current try's answer is whole: RESTART (with *OUT its text) when it
 * is shorter than what was shown, else SHOW with nothing. */
enum replay_step replay_end(struct replay *r, const char **out, size_t *outlen);

#endif
