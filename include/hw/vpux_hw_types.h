/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The types and the few string helpers the definition of the engines'
 * operations uses (vpux_hw_ops.h: the reference kernels and the numerics
 * they share with the NPU model), mapped onto the kernel's headers or onto
 * the C library, so the same source builds in vpux_accel.ko, in host user
 * space and freestanding.
 */
#ifndef VPUX_HW_TYPES_H
#define VPUX_HW_TYPES_H

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

#endif /* VPUX_HW_TYPES_H */
