/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Types and the few string helpers the NPU model uses, mapped onto the
 * kernel's headers or onto the C library, so the same model source builds
 * in vpux_accel.ko and in host user space.
 */
#ifndef VPUX_SIM_COMPAT_H
#define VPUX_SIM_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/stddef.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#endif

/*
 * A helper split out of a function to keep stack frames small (kernel
 * stacks are a few KiB; KASAN redzones make local arrays much larger):
 * never inlined back into its caller. The kernel defines it already.
 */
#ifndef noinline_for_stack
#define noinline_for_stack	__attribute__((__noinline__))
#endif

#endif /* VPUX_SIM_COMPAT_H */
