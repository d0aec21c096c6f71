/* SPDX-License-Identifier: MIT */
/* x86-syscalls.h: the system call numbers the seccomp probes use, per ABI,
 * in one table for try-syscall.c (64-bit, through int $0x80 and with
 * __X32_SYSCALL_BIT) and hs-probe32.c (a freestanding i386 program).
 *
 *   X(NAME, NATIVE, I386, X32)
 *
 * NATIVE is an expression for try-syscall's own ABI (__NR_NAME, or a
 * NATIVE_NAME it defines as -1 where the call does not exist); the freestanding
 * i386 probe never expands it. I386: arch/x86/entry/syscalls/syscall_32.tbl;
 * X32: syscall_64.tbl, "common" and "x32" rows, without the x32 bit (ioctl
 * and kexec_load have x32 rows of their own; uselib, nfsservctl, umount,
 * vm86, vm86old and socketcall have none). -1: no such call on that ABI.
 * Written by hand, so checked: hardening-bpf.test holds every number here
 * (try-syscall --numbers) to libseccomp's for the same name.
 */
#ifndef KJ_TEST_X86_SYSCALLS_H
#define KJ_TEST_X86_SYSCALLS_H

#define X86_SYSCALLS(X) \
	X(ioctl,             __NR_ioctl,                54,  514) \
	X(unshare,           __NR_unshare,             310,  272) \
	X(clone,             __NR_clone,               120,   56) \
	X(setns,             __NR_setns,               346,  308) \
	X(clone3,            __NR_clone3,              435,  435) \
	X(mount,             __NR_mount,                21,  165) \
	X(umount,            NATIVE_umount,             22,   -1) \
	X(umount2,           __NR_umount2,              52,  166) \
	X(pivot_root,        __NR_pivot_root,          217,  155) \
	X(move_mount,        __NR_move_mount,          429,  429) \
	X(open_tree,         __NR_open_tree,           428,  428) \
	X(fsopen,            __NR_fsopen,              430,  430) \
	X(fsconfig,          __NR_fsconfig,            431,  431) \
	X(fsmount,           __NR_fsmount,             432,  432) \
	X(fspick,            __NR_fspick,              433,  433) \
	X(mount_setattr,     __NR_mount_setattr,       442,  442) \
	X(keyctl,            __NR_keyctl,              288,  250) \
	X(add_key,           __NR_add_key,             286,  248) \
	X(request_key,       __NR_request_key,         287,  249) \
	X(bpf,               __NR_bpf,                 357,  321) \
	X(perf_event_open,   __NR_perf_event_open,     336,  298) \
	X(userfaultfd,       __NR_userfaultfd,         374,  323) \
	X(kexec_load,        __NR_kexec_load,          283,  528) \
	X(kexec_file_load,   NATIVE_kexec_file_load,    -1,  320) \
	X(init_module,       __NR_init_module,         128,  175) \
	X(finit_module,      __NR_finit_module,        350,  313) \
	X(delete_module,     __NR_delete_module,       129,  176) \
	X(reboot,            __NR_reboot,               88,  169) \
	X(swapon,            __NR_swapon,               87,  167) \
	X(swapoff,           __NR_swapoff,             115,  168) \
	X(syslog,            __NR_syslog,              103,  103) \
	X(acct,              __NR_acct,                 51,  163) \
	X(quotactl,          __NR_quotactl,            131,  179) \
	X(lookup_dcookie,    NATIVE_lookup_dcookie,    253,  212) \
	X(uselib,            NATIVE_uselib,             86,   -1) \
	X(nfsservctl,        NATIVE_nfsservctl,        169,   -1) \
	X(vm86,              NATIVE_vm86,              166,   -1) \
	X(vm86old,           NATIVE_vm86old,           113,   -1) \
	X(personality,       __NR_personality,         136,  135) \
	X(io_uring_setup,    __NR_io_uring_setup,      425,  425) \
	X(io_uring_enter,    __NR_io_uring_enter,      426,  426) \
	X(io_uring_register, __NR_io_uring_register,   427,  427) \
	X(chmod,             NATIVE_chmod,              15,   90) \
	X(fchmod,            __NR_fchmod,               94,   91) \
	X(fchmodat,          __NR_fchmodat,            306,  268) \
	X(fchmodat2,         __NR_fchmodat2,           452,  452) \
	X(open,              NATIVE_open,                5,    2) \
	X(openat,            __NR_openat,              295,  257) \
	X(creat,             NATIVE_creat,               8,   85) \
	X(mknod,             NATIVE_mknod,              14,  133) \
	X(mknodat,           __NR_mknodat,             297,  259) \
	X(openat2,           __NR_openat2,             437,  437) \
	X(kill,              __NR_kill,                 37,   62) \
	X(getpid,            __NR_getpid,               20,   39) \
	X(socket,            __NR_socket,              359,   41) \
	X(socketpair,        __NR_socketpair,          360,   53) \
	X(socketcall,        NATIVE_socketcall,        102,   -1) \
	X(landlock_create_ruleset, __NR_landlock_create_ruleset,  444,  444) \
	X(read,              __NR_read,                  3,    0) \
	X(write,             __NR_write,                 4,    1) \
	X(close,             __NR_close,                 6,    3) \
	X(wait4,             __NR_wait4,               114,   61) \
	X(exit_group,        __NR_exit_group,          252,  231) \
	X(setsid,            __NR_setsid,               66,  112) \
	X(pipe2,             __NR_pipe2,               331,  293)

#endif
