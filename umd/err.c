// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Error codes and the per-thread last-error message. A message is never
 * cut: a compile error lists every unsupported node, however many. It
 * lives in a buffer of the calling thread that grows as needed and is
 * freed when the thread exits.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "err.h"

/* short messages need no allocation (and out-of-memory ones get through) */
static _Thread_local char small_msg[1024];
static _Thread_local char *big_msg;	/* malloc'ed when longer */
static pthread_key_t big_key;
static pthread_once_t big_once = PTHREAD_ONCE_INIT;
static int big_key_ok;

static void big_free(void *p)
{
	free(p);
}

static void big_key_init(void)
{
	big_key_ok = !pthread_key_create(&big_key, big_free);
}

int vpux_err(int code, const char *fmt, ...)
{
	char *text = NULL, *old = big_msg;
	va_list ap;
	int n;

	/* the arguments may point into the current message: format first */
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		va_start(ap, fmt);
		vsnprintf(small_msg, sizeof(small_msg), fmt, ap);
		va_end(ap);
		big_msg = NULL;
	} else if ((size_t)n < sizeof(small_msg)) {
		snprintf(small_msg, sizeof(small_msg), "%s", text);
		free(text);
		big_msg = NULL;
	} else {
		pthread_once(&big_once, big_key_init);
		big_msg = text;
		small_msg[0] = 0;
	}
	if (big_key_ok && (big_msg || old))
		pthread_setspecific(big_key, big_msg);
	free(old);
	return code;
}

void vpux_err_clear(void)
{
	free(big_msg);
	big_msg = NULL;
	if (big_key_ok)
		pthread_setspecific(big_key, NULL);
	small_msg[0] = 0;
}

const char *vpux_last_error(void)
{
	return big_msg ? big_msg : small_msg;
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
