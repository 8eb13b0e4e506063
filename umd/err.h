/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Thread-local error messages of libvpux. */
#ifndef VPUX_ERR_H
#define VPUX_ERR_H

#include "vpux.h"

/* Record a message for the calling thread; returns @code. */
__attribute__((format(printf, 2, 3)))
int vpux_err(int code, const char *fmt, ...);
void vpux_err_clear(void);

#endif /* VPUX_ERR_H */
