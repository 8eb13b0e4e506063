/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Minimal TAP producer for the host test programs (tools/run-tests.sh
 * counts the "ok"/"not ok" lines). Header-only, user space only.
 *
 *	tap_check(cond, "name %d", i);   one test point
 *	tap_skip("why");                 one skipped point
 *	return tap_finish();             plan line + exit status
 */
#ifndef VPUX_TAP_H
#define VPUX_TAP_H

#include <stdarg.h>
#include <stdio.h>

static unsigned int tap_n, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int tap_check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %u - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

__attribute__((format(printf, 1, 2), unused))
static void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

__attribute__((unused))
static void tap_skip(const char *why)
{
	printf("ok %u # SKIP %s\n", ++tap_n, why);
}

__attribute__((unused))
static int tap_finish(void)
{
	printf("1..%u\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* VPUX_TAP_H */
