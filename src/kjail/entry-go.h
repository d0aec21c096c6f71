/* What kjail hands the jail's entry helper once the jail is worked out:
 * descriptor G of --jail-entry=S,E,M,G.
 *
 * kjail starts bwrap before it has worked out the jail, so that bwrap's own
 * start-up (loading its libraries) runs while kjail looks at the host;
 * bwrap then waits for its options on --args. What the helper needs from
 * that work, the writable paths for Landlock, comes on G: NUL-terminated
 * words, "--rw=PATH" for each writable path, then "--go". kjail writes G
 * after everything else the jail needs (the policy file; bwrap's options
 * follow), so data without the last word (kjail died or gave up midway)
 * runs nothing: the helper refuses it.
 *
 * No includes and nothing but plain C: kjail-entry without a C library
 * uses it too. */
#ifndef KJ_ENTRY_GO_H
#define KJ_ENTRY_GO_H

#include "entry-abi.h"

#define JAIL_GO_WORD "--go"
/* At most this many bytes; kjail refuses a jail whose writable paths need
 * more, so the helper can read G into a fixed buffer. */
#define JAIL_GO_MAX 65536

/* The length of the writable-path words before "--go" when data (len
 * bytes) is complete and well formed, -1 otherwise: every word before the
 * last is "--rw=/..." and the last is "--go". */
static inline long jail_go_check(const char *data, unsigned long len)
{
	static const char go[] = JAIL_GO_WORD; /* its NUL included */
	static const char rw[] = JAIL_RW_PREFIX "/";
	if (len < sizeof go || len > JAIL_GO_MAX)
		return -1;
	unsigned long body = len - sizeof go;
	for (unsigned long i = 0; i < sizeof go; i++)
		if (data[body + i] != go[i])
			return -1;
	if (body && data[body - 1] != '\0')
		return -1;
	for (unsigned long i = 0; i < body; i++) {
		for (unsigned long k = 0; k < sizeof rw - 1; k++)
			if (i + k >= body || data[i + k] != rw[k])
				return -1;
		while (data[i])
			i++;
	}
	return (long)body;
}

/* The word after w (each ends with its NUL). */
static inline const char *jail_go_next(const char *w)
{
	while (*w)
		w++;
	return w + 1;
}

#endif
