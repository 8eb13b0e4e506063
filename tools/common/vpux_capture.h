/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test programs that check a tool's output run it with popen() and read
 * all it prints: vpux_capture() does both.
 */
#ifndef VPUX_CAPTURE_H
#define VPUX_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

/*
 * Run @cmd through the shell; return its stdout as a malloc'd
 * NUL-terminated string (NULL if it could not be started or memory ran
 * out) and its exit status in *@rc (-1 if it did not exit).
 */
static inline char *vpux_capture(const char *cmd, int *rc)
{
	char *out = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = popen(cmd, "r");
	int st;

	*rc = -1;
	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *p = realloc(out, cap = cap ? 2 * cap : 16384);

			if (!p)
				break;
			out = p;
		}
		n = fread(out + len, 1, cap - len - 1, f);
		if (!n)
			break;
		len += n;
	}
	if (out)
		out[len] = '\0';
	st = pclose(f);
	*rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

#endif /* VPUX_CAPTURE_H */
