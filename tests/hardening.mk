# seccomp/Landlock integration tests and try-syscall (issue 4).
