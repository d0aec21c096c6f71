/* SPDX-License-Identifier: MIT */
/* covers-bench: how many covers checks per second kli's authority lattice
 * answers on a bounded grant of 1,000 path constraints.
 *
 * The holder holds bench/p0000 .. bench/p0999, each under its own path
 * /srv/bench/pNNNN. Each request is a one-atom grant, as a sub-agent's
 * confer or a tool asks: half of them a path inside the holder's (covered),
 * a quarter a sibling path (not covered), a quarter an atom the holder
 * lacks. Requests are visited in a shuffled order so no branch predictor
 * or cache learns a pattern. Also reported: covers of the whole 1,000-atom
 * grant by itself (1,000 atom lookups per call), and grant_check() of one
 * atom on one path object with a pure resolver (no file system I/O), the
 * check every tool call goes through.
 *
 *   covers-bench [SECONDS-PER-MEASUREMENT]   (default 0.3)
 *
 * Prints key=value lines; the rate of each measurement is the median of
 * seven timed batches. */
#include "config.h"
#include "authority/authority.h"
#include "authority/caps.h"
#include "authority/constraint.h"
#include "authority/grant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCAPS 1000
#define NREQ 4096
#define BATCHES 7

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static struct grant *one(const char *atom, const char *path)
{
	struct grant_cap c = { .atom = (char *)atom };
	constraint_path(&c.c, path);
	char err[256];
	struct grant *g = grant_from_caps(&c, 1, NULL, err, sizeof err);
	constraint_clear(&c.c);
	if (!g) {
		fprintf(stderr, "covers-bench: %s\n", err);
		exit(1);
	}
	return g;
}

static char *pure_resolve(const char *p, const char *base)
{
	(void)base;
	return strdup(p);
}

static volatile unsigned long sink;

/* Median rate (operations per second) of BATCHES batches of `per` calls. */
#define MEASURE(rate, per, body)                                                  \
	do {                                                                      \
		double r_[BATCHES];                                               \
		for (int b_ = 0; b_ < BATCHES; b_++) {                            \
			double t0_ = now();                                       \
			for (unsigned long k_ = 0; k_ < (per); k_++) {            \
				body;                                             \
			}                                                         \
			r_[b_] = (double)(per) / (now() - t0_);                   \
		}                                                                 \
		qsort(r_, BATCHES, sizeof r_[0], cmp_double);                    \
		(rate) = r_[BATCHES / 2];                                         \
	} while (0)

/* Calls of body that fill about `seconds` / BATCHES. */
#define CALIBRATE(per, seconds, body)                                             \
	do {                                                                      \
		unsigned long n_ = 64;                                            \
		for (;;) {                                                        \
			double t0_ = now();                                       \
			for (unsigned long k_ = 0; k_ < n_; k_++) {               \
				body;                                             \
			}                                                         \
			double dt_ = now() - t0_;                                 \
			if (dt_ > 0.02 || n_ > (1ul << 34)) {                     \
				(per) = (unsigned long)((double)n_ * (seconds) /  \
							(BATCHES * dt_)) + 1;     \
				break;                                            \
			}                                                         \
			n_ *= 4;                                                  \
		}                                                                 \
	} while (0)

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0.3;
	if (seconds <= 0)
		seconds = 0.3;

	struct grant_cap *caps = calloc(NCAPS, sizeof *caps);
	char atom[64], path[128];
	for (unsigned i = 0; i < NCAPS; i++) {
		snprintf(atom, sizeof atom, "bench/p%04u", i);
		snprintf(path, sizeof path, "/srv/bench/p%04u", i);
		caps[i].atom = strdup(atom);
		constraint_path(&caps[i].c, path);
	}
	char err[256];
	struct grant *holder = grant_from_caps(caps, NCAPS, NULL, err, sizeof err);
	if (!holder) {
		fprintf(stderr, "covers-bench: %s\n", err);
		return 1;
	}

	struct grant **req = calloc(NREQ, sizeof *req);
	bool *want = calloc(NREQ, sizeof *want);
	const char **obj = calloc(NREQ, sizeof *obj);
	const char **objatom = calloc(NREQ, sizeof *objatom);
	for (unsigned r = 0; r < NREQ; r++) {
		unsigned i = rnd(NCAPS), kind = rnd(4);
		if (kind <= 1) { /* inside the holder's path: covered */
			snprintf(atom, sizeof atom, "bench/p%04u", i);
			snprintf(path, sizeof path, "/srv/bench/p%04u/src/f%u.c", i, r);
			want[r] = true;
		} else if (kind == 2) { /* a sibling path: not covered */
			snprintf(atom, sizeof atom, "bench/p%04u", i);
			snprintf(path, sizeof path, "/srv/bench/p%04ux/f%u.c", i, r);
		} else { /* an atom the holder lacks */
			snprintf(atom, sizeof atom, "bench/q%04u", i);
			snprintf(path, sizeof path, "/srv/bench/p%04u", i);
		}
		req[r] = one(atom, path);
		obj[r] = strdup(path);
		objatom[r] = strdup(atom);
	}
	/* Correctness first: a fast wrong answer is no result. */
	for (unsigned r = 0; r < NREQ; r++)
		if (grant_covers(holder, req[r]) != want[r]) {
			fprintf(stderr, "covers-bench: wrong answer for request %u\n", r);
			return 1;
		}
	if (!grant_covers(holder, holder)) {
		fprintf(stderr, "covers-bench: the grant does not cover itself\n");
		return 1;
	}

	unsigned *order = calloc(NREQ, sizeof *order);
	for (unsigned r = 0; r < NREQ; r++)
		order[r] = r;
	for (unsigned r = NREQ - 1; r > 0; r--) {
		unsigned j = rnd(r + 1), t = order[r];
		order[r] = order[j];
		order[j] = t;
	}

	unsigned long per, at = 0;
	double single, full, check;
	CALIBRATE(per, seconds, sink += grant_covers(holder, req[order[at++ % NREQ]]));
	MEASURE(single, per, sink += grant_covers(holder, req[order[at++ % NREQ]]));

	CALIBRATE(per, seconds, sink += grant_covers(holder, holder));
	MEASURE(full, per, sink += grant_covers(holder, holder));

	struct auth_ctx ctx = { .workspace = "/srv/bench", .home = NULL, .resolve = pure_resolve };
	char *reason;
#define CHECK_ONE                                                                 \
	do {                                                                      \
		unsigned q_ = order[at++ % NREQ];                                 \
		sink += grant_check(holder, objatom[q_], obj[q_], &ctx, &reason); \
		free(reason);                                                     \
	} while (0)
	CALIBRATE(per, seconds, CHECK_ONE);
	MEASURE(check, per, CHECK_ONE);

	printf("grant_atoms=%zu\n", holder->ncaps);
	printf("covers_per_s=%.0f\n", single);
	printf("covers_ns=%.1f\n", 1e9 / single);
	printf("covers_full_grant_per_s=%.0f\n", full);
	printf("covers_full_grant_us=%.2f\n", 1e6 / full);
	printf("check_per_s=%.0f\n", check);
	printf("check_ns=%.1f\n", 1e9 / check);

	for (unsigned r = 0; r < NREQ; r++) {
		grant_free(req[r]);
		free((char *)obj[r]);
		free((char *)objatom[r]);
	}
	for (unsigned i = 0; i < NCAPS; i++)
		grant_cap_clear(&caps[i]);
	free(caps);
	free(req);
	free(want);
	free(obj);
	free(objatom);
	free(order);
	grant_free(holder);
	return 0;
}
