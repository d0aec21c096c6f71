/* System calls without a C library, for the code that runs where there is
 * none: the entry helper built without one (entry-nolibc.c) and kjail's
 * front (front.c), which runs before the C library has started. x86-64
 * only; always inlined, so they add no frame of their own (and no stack
 * protector that needs TLS). */
#ifndef KJ_NOLIBC_H
#define KJ_NOLIBC_H

#include <asm/unistd.h>

#if !defined(__x86_64__)
#error "nolibc.h: x86-64 only (configure builds the C versions elsewhere)"
#endif

__attribute__((always_inline)) static inline long sys6(long n, long a, long b, long c, long d,
							long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

__attribute__((always_inline)) static inline long sys3(long n, long a, long b, long c)
{
	return sys6(n, a, b, c, 0, 0, 0);
}

#endif
