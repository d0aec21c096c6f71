# SPDX-License-Identifier: MIT
# seccomp/Landlock integration tests and try-syscall (issue 4).
#
# try-syscall attempts one named system call and prints one word (OK or
# the errno name), or with --dry-run the calls it would make; hs-pty runs
# a command on a pseudo-terminal that is its controlling terminal;
# hs-abstract listens on / connects to an abstract Unix socket.
# hs-probe32.c is a freestanding i386 program that the tests compile
# themselves with "cc -m32" (and skip when that cannot link), so a machine
# without a 32-bit toolchain still builds and runs "make check"; it takes
# its numbers from x86-syscalls.h, as try-syscall does. What each probe
# must answer, on every ABI: tests/integration/hardening-syscalls.table.
if OS_LINUX
check_PROGRAMS += \
	tests/helpers/try-syscall \
	tests/helpers/hs-pty \
	tests/helpers/hs-abstract
# nosys: a command with some system calls answering ENOSYS, for the
# fallbacks kept for older kernels
if HAVE_SECCOMP
check_PROGRAMS += tests/helpers/nosys
tests_helpers_nosys_SOURCES = tests/helpers/nosys.c
tests_helpers_nosys_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
tests_helpers_nosys_LDADD = $(SECCOMP_LIBS)
# bpf-eval: what kjail's own seccomp programs answer to a call on each ABI,
# worked out in user space (hardening-bpf.test; no 32-bit kernel needed).
# It links the C file gen-seccomp-bpf writes at build time (the arrays
# kjail embeds): its place in the build tree is named here only.
HS_SECCOMP_BPF_C = src/kjail/build/seccomp-bpf.c
check_PROGRAMS += tests/helpers/bpf-eval
tests_helpers_bpf_eval_SOURCES = tests/helpers/bpf-eval.c tests/helpers/errname.h
nodist_tests_helpers_bpf_eval_SOURCES = $(HS_SECCOMP_BPF_C)
tests_helpers_bpf_eval_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
tests_helpers_bpf_eval_LDADD = $(KJAIL_LIBS)
endif
tests_helpers_try_syscall_SOURCES = tests/helpers/try-syscall.c tests/helpers/x86-syscalls.h
tests_helpers_hs_pty_SOURCES = tests/helpers/hs-pty.c
tests_helpers_hs_abstract_SOURCES = tests/helpers/hs-abstract.c

HARDENING_TESTS = \
	tests/integration/hardening-seccomp.test \
	tests/integration/hardening-abi.test \
	tests/integration/hardening-tty.test \
	tests/integration/hardening-userns.test \
	tests/integration/hardening-suid.test \
	tests/integration/hardening-landlock.test \
	tests/integration/hardening-works.test \
	tests/integration/hardening-bpf.test
TESTS += $(HARDENING_TESTS)
endif
EXTRA_DIST += \
	tests/integration/hardening-seccomp.test \
	tests/integration/hardening-abi.test \
	tests/integration/hardening-tty.test \
	tests/integration/hardening-userns.test \
	tests/integration/hardening-suid.test \
	tests/integration/hardening-landlock.test \
	tests/integration/hardening-works.test \
	tests/integration/hardening-bpf.test \
	tests/integration/hardening-lib.sh \
	tests/integration/hardening-syscalls.table \
	tests/helpers/hs-probe32.c
