// SPDX-License-Identifier: GPL-2.0-only
/* Instantiates the tracepoints declared in vpux_trace.h. */
#define CREATE_TRACE_POINTS
#include "vpux_trace.h"
