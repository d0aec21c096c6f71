/* SPDX-License-Identifier: MIT */
/* Loading the filter: the BPF compiled at build time, written into a sealed
 * memfd. Compiling ~150 rules for three ABIs with libseccomp costs more than
 * the rest of kjail's start-up together, and the program depends only on the
 * options and the machine. */
#include "config.h"
#include "build/seccomp.h"
#include "run/seccomp_load.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifdef HAVE_SECCOMP
extern const char kj_bpf_machine[];
extern const unsigned char *const kj_bpf[SC_VARIANTS];
extern const size_t kj_bpf_len[SC_VARIANTS];

const unsigned char *seccomp_embedded(const struct sc_opts *o, size_t *len)
{
	size_t v = seccomp_variant(o);
	*len = kj_bpf_len[v];
	return kj_bpf[v];
}

const char *seccomp_embedded_machine(void) { return kj_bpf_machine; }
#else
const unsigned char *seccomp_embedded(const struct sc_opts *o, size_t *len)
{
	(void)o;
	*len = 0;
	return NULL;
}

const char *seccomp_embedded_machine(void) { return ""; }
#endif

static bool same_machine(void)
{
	struct utsname u;
	return uname(&u) == 0 && strcmp(u.machine, seccomp_embedded_machine()) == 0;
}

/* All of len bytes at the start of fd. */
static bool put_all(int fd, const unsigned char *data, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t w = pwrite(fd, data + off, len - off, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		off += (size_t)w;
	}
	return true;
}

bool seccomp_fill(int fd, const struct sc_opts *o, char *err, size_t errlen)
{
	size_t len;
	const unsigned char *prog = seccomp_embedded(o, &len);
	unsigned char *compiled = NULL;
	if (!prog || !len || !same_machine()) {
		/* compiled here, for this machine, then copied over */
		int c = seccomp_compile(o, err, errlen);
		if (c < 0)
			return false;
		struct stat st;
		bool read_ok = fstat(c, &st) == 0 && st.st_size > 0;
		len = read_ok ? (size_t)st.st_size : 0;
		compiled = read_ok ? xmalloc(len) : NULL;
		for (size_t off = 0; read_ok && off < len;) {
			ssize_t r = pread(c, compiled + off, len - off, (off_t)off);
			if (r < 0 && errno == EINTR)
				continue;
			read_ok = r > 0;
			off += read_ok ? (size_t)r : 0;
		}
		close(c);
		if (!read_ok) {
			free(compiled);
			fmt_into(err, errlen, "seccomp: reading the compiled filter: %s",
				 strerror(errno ? errno : EIO));
			return false;
		}
		prog = compiled;
	}
	bool ok = put_all(fd, prog, len);
	free(compiled);
	if (!ok) {
		fmt_into(err, errlen, "seccomp: writing the filter: %s", strerror(errno));
		return false;
	}
	if (!seccomp_seal(fd)) {
		fmt_into(err, errlen, "seccomp: sealing the filter: %s", strerror(errno));
		return false;
	}
	return true;
}

int seccomp_export(const struct sc_opts *o, char *err, size_t errlen)
{
	int fd = seccomp_memfd(err, errlen);
	if (fd < 0)
		return -1;
	if (!seccomp_fill(fd, o, err, errlen)) {
		close(fd);
		return -1;
	}
	return fd;
}
