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


/*
 * ---- Custom kernels: the parameter declaration (vpux_kparams.h) ----
 * A kernel that `vpux-onnx compile --kernels DIR` may use for a node of
 * the com.vpux domain declares its tensors and its parameter structure
 * once, next to the structure (Documentation/shave-kernels.rst, "Custom
 * kernels"):
 *
 *	struct swish_params { float beta; };
 *	VPUX_KERNEL_DECLARE(struct swish_params, 1, 1,
 *			    VPUX_KT_F16 | VPUX_KT_F32, VPUX_KT_F16 | VPUX_KT_F32,
 *			    VPUX_KPARAM(struct swish_params, beta));
 *
 * Each VPUX_KPARAM() names a field: its name is the ONNX attribute, its
 * type (float, s32 or u32, or an array of them) and offset come from the
 * structure itself, so the declaration cannot disagree with it. Another
 * field type is a compile error (_Generic). The declaration goes into
 * the non-allocated section VPUX_KPARAMS_SECTION: it is in the ELF the
 * compiler reads, not in the WIN_D image. The kernel finds the structure
 * after its memrefs with VPUX_KERNEL_PARAMS().
 */
#include "vpux_kparams.h"

#define VPUX_KT_F16	VPUX_KPARAMS_T(VPUX_SHAVE_DT_F16)
#define VPUX_KT_F32	VPUX_KPARAMS_T(VPUX_SHAVE_DT_F32)

#define VPUX_KPARAM_TYPE_OF(x) _Generic((x), \
	float: VPUX_KPARAM_F32, float *: VPUX_KPARAM_F32, \
	s32: VPUX_KPARAM_I32, s32 *: VPUX_KPARAM_I32, \
	u32: VPUX_KPARAM_U32, u32 *: VPUX_KPARAM_U32)

#define VPUX_KPARAM(type, field) { #field, \
	VPUX_KPARAM_TYPE_OF(((type *)0)->field), \
	__builtin_offsetof(type, field), sizeof(((type *)0)->field) / 4, 0 }

/* non-allocated: "" flags, the rest of GCC's directive commented out */
#define VPUX_KPARAMS_SECTION_ATTR \
	__section__(VPUX_KPARAMS_SECTION ",\"\",@progbits #")

#define VPUX_KERNEL_DECLARE(ptype, nin, nout, intypes, outtypes, ...) \
	static const struct { \
		struct vpux_kparams_hdr h; \
		struct vpux_kparam p[sizeof((struct vpux_kparam[]){ \
			__VA_ARGS__ }) / sizeof(struct vpux_kparam)]; \
	} vpux_kernel_decl__ \
	__attribute__((VPUX_KPARAMS_SECTION_ATTR, __used__, \
		       __aligned__(4))) = { \
		{ VPUX_KPARAMS_MAGIC, VPUX_KPARAMS_VERSION, \
		  sizeof(struct vpux_kparams_hdr), sizeof(struct vpux_kparam), \
		  sizeof((struct vpux_kparam[]){ __VA_ARGS__ }) / \
		  sizeof(struct vpux_kparam), (nin), (nout), VPUX_KSHAPE_SAME, \
		  0, sizeof(ptype), (intypes), (outtypes), 0 }, \
		{ __VA_ARGS__ } }

/* the parameter structure @type after @nmem memrefs at @args_addr */
#define VPUX_KERNEL_PARAMS(type, args_addr, nmem) \
	((const volatile type *)((args_addr) + \
				 (nmem) * sizeof(struct vpux_memref)))

#endif /* VPUX_KERNEL_H */
