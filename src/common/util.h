/* SPDX-License-Identifier: MIT */
/* Small shared helpers: fatal errors, allocators that cannot fail, cleanup. */
#ifndef KJ_UTIL_H
#define KJ_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/stat.h>

#define KJ_NORETURN __attribute__((noreturn))
#define KJ_PRINTF(a, b) __attribute__((format(printf, a, b)))
/* A function whose large stack buffer must be gone before its caller
 * goes deeper: the stack's deepest page is a page fault per run. */
#define KJ_NOINLINE __attribute__((noinline))

/* The exit status used when the program itself fails (kjail: 125, kli: 2).
 * Set once from main() before anything can fail. */
void set_fatal_status(int status);
int fatal_status(void);

/* One line on stderr, "prog: message", then exit(fatal_status()). */
KJ_NORETURN KJ_PRINTF(1, 2) void die(const char *fmt, ...);
/* Same, with ": strerror(errno)" appended (errno saved on entry). */
KJ_NORETURN KJ_PRINTF(1, 2) void die_errno(const char *fmt, ...);
KJ_PRINTF(1, 2) void warn_msg(const char *fmt, ...);
/* Flushes stdout; a write that failed there (now or before: a full disk,
 * a closed pipe) dies with one line, so no output is lost silently. */
void finish_stdout(void);

/* The value of hexadecimal digit C (either case), or -1. */
int hex_value(char c);

/* In a child just forked to run a helper of kjail's (async-signal-safe):
 * killed with SIGKILL when the parent dies, _exit(1) at once if the parent
 * PARENT is gone already, and standard input and output on /dev/null
 * (standard error stays: the helper's one line goes there). */
void child_tie_to_parent(pid_t parent);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);
KJ_PRINTF(1, 2) char *xasprintf(const char *fmt, ...);
/* Marks every descriptor above 2 close-on-exec: close_range where the
 * kernel has CLOSE_RANGE_CLOEXEC (Linux 5.11), else one by one from the
 * list in /proc/self/fd or /dev/fd. false, errno set, when it cannot. */
bool cloexec_above_2(void);

/* Writes all n bytes of p to fd, again after EINTR and a short write.
 * false, errno set (EIO for a write of nothing), when it cannot. */
bool fd_write_all(int fd, const void *p, size_t n);

/* The strings up to the NULL, joined: xasprintf("%s%s...") without the
 * format machinery, for the paths and labels made on every run. */
__attribute__((sentinel)) char *xconcat(const char *first, ...);
KJ_PRINTF(1, 0) char *xvasprintf(const char *fmt, va_list ap);

/* Format into a caller's fixed buffer (truncating); used for error messages. */
KJ_PRINTF(3, 4) void fmt_into(char *buf, size_t len, const char *fmt, ...);

bool str_has_prefix(const char *s, const char *prefix);
bool str_eq(const char *a, const char *b);

/* Read a whole regular file of at most max bytes; NULL and errno on failure
 * (EFBIG if larger, EINVAL if not a regular file). */
char *read_file_capped(const char *path, size_t max, size_t *len_out);
/* The same from an open descriptor, from where it stands. */
char *read_fd_capped(int fd, size_t max, size_t *len_out);
/* All of any descriptor (a pipe) up to EOF, at most max bytes (else NULL
 * and EFBIG), NUL-terminated. */
char *read_stream_capped(int fd, size_t max, size_t *len_out);

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
size_t utf8_seq(const unsigned char *s, size_t n);
/* Valid UTF-8 without control characters (C0, DEL): a string that reads
 * back in a report, a terminal or JSON exactly as it is. */
bool utf8_printable(const char *s);
/* Replace control characters (C0, DEL) with '?', in place: text from
 * elsewhere (a path, a command) inside one line of a message. */
void ctrl_scrub(char *s);



/* Read up to cap-1 bytes from fd (until EOF or an error), NUL-terminated;
 * returns how many were read. */
size_t read_text(int fd, char *buf, size_t cap);
/* The pids a /proc .../children file lists, at most max (a longer list is
 * cut there); -1 when it cannot be opened or read. System calls only, so
 * a signal handler may call it. */
int proc_children_read(const char *path, int *out, int max);
/* The same from an open children file, read from its start each time (a
 * /proc file opened ahead reads the list as it is at the read). */
int proc_children_read_fd(int fd, int *out, int max);

/* Which of the n names (name[i], its first len[i] bytes) are entries of the
 * directory open on fd (read from its start): one read of the directory
 * where a lookup per name would cost a system call each. False when it
 * cannot be read in full: then nothing is known, and only absence may be
 * taken from a true answer (what is there is still to be looked up). */
bool dir_names_present(int fd, const char *const *name, const size_t *len, size_t n,
		       bool *present);
/* The same, and for each name present whether it is a symlink (or of a
 * type the file system does not tell: to be looked up). */
bool dir_names_linked(int fd, const char *const *name, const size_t *len, size_t n,
		      bool *present, bool *link);
#ifdef __linux__
/* The whole listing of the directory open on fd, in one getdents64 call
 * into buf (cap bytes): its size, or -1 when it does not fit in one call
 * or cannot be read. */
ssize_t dir_read_one(int fd, char *buf, size_t cap);
/* dir_names_linked's answer from such a listing (present and link must be
 * cleared by the caller; link may be NULL). */
void dirents_match(const char *buf, size_t size, const char *const *name, const size_t *len,
		   size_t n, bool *present, bool *link);
#endif

static inline void freep(void *p) { free(*(void **)p); }
void closep(int *fd);
#define _cleanup_free_ __attribute__((cleanup(freep)))
#define _cleanup_close_ __attribute__((cleanup(closep)))

static inline void *steal_pointer(void *pp)
{
	void **p = pp;
	void *v = *p;
	*p = NULL;
	return v;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Length of the run of bytes at s that are in set (a 256-entry table
 * without NUL, so the end of the string stops it). Unrolled: JSON escaping
 * and shell quoting send every byte of a policy through it. */
static inline size_t byte_run(const bool set[256], const unsigned char *s)
{
	size_t n = 0;
	for (;; n += 4) {
		if (!set[s[n]])
			return n;
		if (!set[s[n + 1]])
			return n + 1;
		if (!set[s[n + 2]])
			return n + 2;
		if (!set[s[n + 3]])
			return n + 3;
	}
}

#endif
