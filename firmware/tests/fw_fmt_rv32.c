// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The firmware's formatter built for the image's ISA (rv32imac, ilp32, no
 * libc, no libgcc) and run under qemu-riscv32 (Linux user mode: write
 * and exit system calls only): 64-bit arguments through va_arg, the
 * 32-bit division of fw_div10(), against fixed expected strings. Prints
 * TAP.
 */
#include "bm.h"

static long sys3(long n, long a, long b, long c)
{
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a7 __asm__("a7") = n;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7)
			 : "memory");
	return a0;
}

static unsigned int len(const char *s)
{
	unsigned int n = 0;

	while (s[n])
		n++;
	return n;
}

static void out(const char *s)
{
	sys3(64, 1, (long)s, len(s));	/* write(1, ...) */
}

static int fmt(char *buf, dla_u32 size, const char *f, ...)
	__attribute__((format(printf, 3, 4)));
static int fmt(char *buf, dla_u32 size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = fw_vsnprintf(buf, size, f, ap);
	va_end(ap);
	return n;
}

static unsigned int tests, failed;

static void check(const char *got, const char *want, const char *name)
{
	char line[256];
	const char *a = got, *b = want;

	while (*a && *a == *b)
		a++, b++;
	tests++;
	if (*a != *b)
		failed++;
	fmt(line, sizeof(line), "%s %u - rv32: %s: \"%s\"\n",
	    *a == *b ? "ok" : "not ok", tests, name, got);
	out(line);
	if (*a != *b) {
		fmt(line, sizeof(line), "# expected \"%s\"\n", want);
		out(line);
	}
}

void _start(void) __attribute__((noreturn, section(".text.start")));
void _start(void)
{
	char buf[128], line[32];
	int n;

	fmt(buf, sizeof(buf), "%llu", 18446744073709551615ull);
	check(buf, "18446744073709551615", "%llu of 2^64 - 1");
	fmt(buf, sizeof(buf), "%u %llx %d", 7u, 0x1234567890abcdefull, -3);
	check(buf, "7 1234567890abcdef -3", "a 64-bit argument between 32-bit ones");
	fmt(buf, sizeof(buf), "%lld %lld", -9223372036854775807ll - 1,
	    9223372036854775807ll);
	check(buf, "-9223372036854775808 9223372036854775807", "%lld extremes");
	fmt(buf, sizeof(buf), "mepc 0x%08x %s", 0x80000060u, "stopped");
	check(buf, "mepc 0x80000060 stopped", "the trap line's formats");
	n = fmt(buf, 6, "%llu", 10000000000ull);
	fmt(line, sizeof(line), "%s/%d", buf, n);
	check(line, "10000/11", "truncation and length");
	fmt(line, sizeof(line), "1..%u\n", tests);
	out(line);
	sys3(93, failed ? 1 : 0, 0, 0);	/* exit */
	for (;;)
		;
}
