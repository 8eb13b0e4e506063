// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The firmware's formatter (portability/baremetal/fw_fmt.c, no libc in
 * the image) against the C library's snprintf, for the formats the core
 * and the firmware use; truncation and the returned length as snprintf.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bm.h"
#include "vpux_tap.h"

__attribute__((format(printf, 2, 3)))
static void same(size_t size, const char *fmt, ...)
{
	char want[256], got[256];
	va_list ap;
	int a, b;

	memset(got, '#', sizeof(got));
	va_start(ap, fmt);
	a = vsnprintf(want, size, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	b = fw_vsnprintf(got, (dla_u32)size, fmt, ap);
	va_end(ap);
	tap_check(a == b && (size == 0 || !strcmp(want, got)) &&
		  (size != 0 || got[0] == '#'),
		  "\"%s\" (room %zu): \"%s\" %d", fmt, size,
		  size ? got : "", b);
	if (a != b || (size && strcmp(want, got)))
		tap_diag("libc: \"%s\" %d", size ? want : "", a);
}

int main(void)
{
	same(256, "plain text");
	same(256, "dla: task %u: %s op %u: mmu fault at 0x%llx status 0x%x",
	     3u, "dpu", 17u, 0x1234567890abcdefull, 0xdeadbeefu);
	same(256, "error %d", -140);
	same(256, "%d %d %d", 0, INT_MIN, INT_MAX);
	same(256, "%u %x %X", UINT_MAX, 0xabcdefu, 0xabcdefu);
	same(256, "%llu %lld %lld", 18446744073709551615ull, LLONG_MIN,
	     LLONG_MAX);
	same(256, "%lu %lx %ld %zu", 123456ul, 0xfeedul, -5l, (size_t)42);
	same(256, "mepc 0x%08x [%5u] [%-5u] [%05d] [%5d]", 0x1234u, 42u, 42u,
	     -42, -42);
	same(256, "[%s] [%8s] [%-8s] [%c] [%3c] %%", "ab", "ab", "ab", 'x', 'y');
	same(256, "%s", "");
	same(8, "truncated %u", 123456u);
	same(1, "x%u", 1u);
	same(0, "nothing %u", 1u);
	return tap_finish();
}
