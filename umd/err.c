// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Error codes and the per-thread last-error message. */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

/* room for a compile error that lists every unsupported node */
static _Thread_local char last_msg[4096];

int vpux_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
	return code;
}

void vpux_err_clear(void)
{
	last_msg[0] = 0;
}

const char *vpux_last_error(void)
{
	return last_msg;
}

const char *vpux_strerror(int err)
{
	static const char *const names[] = {
		[0] = "ok",
		[1] = "invalid argument",
		[2] = "out of memory",
		[3] = "no such device",
		[4] = "I/O error",
		[5] = "malformed loadable",
		[6] = "unsupported loadable version",
		[7] = "unknown required section",
		[8] = "section checksum mismatch",
		[9] = "unsupported target or capability",
		[10] = "input or output not bound",
		[11] = "invalid request state",
		[12] = "timed out",
		[13] = "device error",
		[14] = "device busy",
		[15] = "not permitted",
	};

	if (err > 0 || -err >= (int)(sizeof(names) / sizeof(names[0])))
		return "unknown error";
	return names[-err];
}
