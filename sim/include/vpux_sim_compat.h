/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Types and the few string helpers the NPU model uses, mapped onto the
 * kernel's headers or onto the C library (vpux_hw_types.h), so the same
 * model source builds in vpux_accel.ko and in host user space.
 */
#ifndef VPUX_SIM_COMPAT_H
#define VPUX_SIM_COMPAT_H

#include "vpux_hw_types.h"

/*
 * A helper split out of a function to keep stack frames small (kernel
 * stacks are a few KiB; KASAN redzones make local arrays much larger):
 * never inlined back into its caller. The kernel defines it already.
 */
#ifndef noinline_for_stack
#define noinline_for_stack	__attribute__((__noinline__))
#endif

#endif /* VPUX_SIM_COMPAT_H */
