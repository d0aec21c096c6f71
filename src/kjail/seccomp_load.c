/* Loading the filter: the BPF compiled at build time, written into a sealed
 * memfd. Compiling ~150 rules for three ABIs with libseccomp costs more than
 * the rest of kjail's start-up together, and the program depends only on the
 * options and the machine. */
#include "config.h"
#include "seccomp.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifdef HAVE_SECCOMP
extern const char kj_bpf_machine[];
extern const unsigned char kj_bpf_default[], kj_bpf_allow_userns[];
extern const size_t kj_bpf_default_len, kj_bpf_allow_userns_len;

const unsigned char *seccomp_embedded(const struct sc_opts *o, size_t *len)
{
	*len = o->allow_userns ? kj_bpf_allow_userns_len : kj_bpf_default_len;
	return o->allow_userns ? kj_bpf_allow_userns : kj_bpf_default;
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

int seccomp_export(const struct sc_opts *o, char *err, size_t errlen)
{
	size_t len;
	const unsigned char *prog = seccomp_embedded(o, &len);
	if (!prog || !len || !same_machine())
		return seccomp_compile(o, err, errlen);
	int fd = seccomp_memfd(err, errlen);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, prog + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fmt_into(err, errlen, "seccomp: writing the filter: %s", strerror(errno));
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	if (!seccomp_seal(fd)) {
		fmt_into(err, errlen, "seccomp: sealing the filter: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
