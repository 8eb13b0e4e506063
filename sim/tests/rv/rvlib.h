/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Freestanding helpers of the interpreter's test programs: output through
 * the Linux write system call, in hex, and a running checksum.
 */
#ifndef RVLIB_H
#define RVLIB_H

typedef unsigned int u32;
typedef int s32;
typedef unsigned short u16;
typedef short s16;
typedef unsigned char u8;
typedef signed char s8;

static inline long rv_syscall3(long nr, long a0, long a1, long a2)
{
	register long r_a0 asm("a0") = a0;
	register long r_a1 asm("a1") = a1;
	register long r_a2 asm("a2") = a2;
	register long r_a7 asm("a7") = nr;

	asm volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a2), "r"(r_a7)
		     : "memory");
	return r_a0;
}

static inline void out_str(const char *s)
{
	long n = 0;

	while (s[n])
		n++;
	rv_syscall3(64, 1, (long)s, n);
}

static inline void out_hex(u32 v)
{
	char b[9];
	int i;

	for (i = 7; i >= 0; i--) {
		b[i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
	b[8] = 0;
	out_str(b);
}

/* "name value\n" */
static inline void out_kv(const char *name, u32 v)
{
	out_str(name);
	out_str(" ");
	out_hex(v);
	out_str("\n");
}

static u32 sum = 0x12345678;

static inline void mix(u32 v)
{
	sum = (sum ^ v) * 0x01000193u;
	sum ^= sum >> 15;
}

/* keep the compiler from folding constants */
#define OPAQUE(v) ({ \
	__typeof__((v) + 0) _v = (v); \
	asm volatile("" : "+r"(_v)); \
	_v; })

#endif /* RVLIB_H */
