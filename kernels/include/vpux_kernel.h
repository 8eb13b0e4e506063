/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux kernel SDK: what a SHAVE ELF kernel includes
 * (Documentation/shave-kernels.rst). Kernels are freestanding RV32IMF C,
 * built with riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f and
 * linked with kernels/link.ld, which places code and RO data in WIN_D.
 *
 * The argument contract is the engine's (vpux_shave_abi.h): struct
 * vpux_memref is the seed's MemRefData, the parameter structures are the
 * built-in kernels', and buffer addresses are guest addresses in WIN_F.
 * The FP16 conversions and the NaN rules come from vpux_float.h, the one
 * definition every implementation shares.
 */
#ifndef VPUX_KERNEL_H
#define VPUX_KERNEL_H

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT8_TYPE__ s8;
typedef __INT16_TYPE__ s16;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;
#ifndef __cplusplus
#define bool	_Bool
#define true	1
#define false	0
#endif

/* the types above stand in for vpux_hw_types.h (no libc here) */
#define VPUX_HW_TYPES_H
#include "vpux_float.h"
#include "vpux_shave_abi.h"
#include "vpux_shave_elf.h"

/* the entry point: first in WIN_D (entry offset 0) */
#define VPUX_KERNEL_ENTRY \
	__attribute__((__section__(".text.entry"), __used__))

/* kernel status: 0 success; non-zero fails the op (trap STATUS) */
#define VPUX_KERNEL_OK		0
#define VPUX_KERNEL_EARGS	1	/* an argument check failed */
#define VPUX_KERNEL_EFAULT	2	/* any other error of a reference */

static inline u32 vk_bits(float f)
{
	union { float f; u32 u; } v = { .f = f };

	return v.u;
}

static inline float vk_float(u32 u)
{
	union { float f; u32 u; } v = { .u = u };

	return v.f;
}

static inline u32 vk_ld32(u32 addr)
{
	return *(volatile const u32 *)addr;
}

static inline u32 vk_ld16(u32 addr)
{
	return *(volatile const u16 *)addr;
}

static inline void vk_st32(u32 addr, u32 v)
{
	*(volatile u32 *)addr = v;
}

static inline void vk_st16(u32 addr, u32 v)
{
	*(volatile u16 *)addr = (u16)v;
}

/* FP32 -> s32 rounded to nearest even (FCVT.W.S with rm = RNE) */
static inline s32 vk_rne_s32(float x)
{
	s32 r;

	__asm__("fcvt.w.s %0, %1, rne" : "=r"(r) : "f"(x));
	return r;
}

/* one element of @m at byte offset @off as FP32 bits (F16 exactly) */
static inline u32 vk_load_f(const struct vpux_memref *m, u32 off)
{
	if (m->data_type == VPUX_SHAVE_DT_F16)
		return vpux_f16_to_f32((u16)vk_ld16(m->addr + off));
	return vk_ld32(m->addr + off);
}

/* store FP32 bits @v as @m's type: F16 rounded to nearest even; NaN canonical */
static inline void vk_store_f(const struct vpux_memref *m, u32 off, u32 v)
{
	if (m->data_type == VPUX_SHAVE_DT_F16)
		vk_st16(m->addr + off, vpux_f32_to_f16(v));
	else
		vk_st32(m->addr + off, vpux_f32_canon(v));
}

/* a static F16/F32 tensor of rank 1..6 in WIN_F with byte strides */
static inline bool vk_memref_ok(const struct vpux_memref *m)
{
	u32 i;

	if (!m->is_static || m->rank < 1 || m->rank > VPUX_MEMREF_MAX_RANK ||
	    (m->data_type != VPUX_SHAVE_DT_F16 &&
	     m->data_type != VPUX_SHAVE_DT_F32) ||
	    m->addr >> 28 != VPUX_SHAVE_WIN_F >> 28)
		return false;
	for (i = 0; i < m->rank; i++)
		if (!m->dims[i] || (m->strides[i] & 7) ||
		    m->strides[i] >> 31)
			return false;
	return true;
}

/* next logical index (last dim fastest), skipping dim @skip (or >= rank) */
static inline bool vk_next(u32 *idx, const u32 *dims, u32 rank, u32 skip)
{
	u32 d = rank;

	while (d--) {
		if (d == skip)
			continue;
		if (++idx[d] < dims[d])
			return true;
		idx[d] = 0;
	}
	return false;
}

#endif /* VPUX_KERNEL_H */
