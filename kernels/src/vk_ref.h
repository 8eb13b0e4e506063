/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The plain references (ref/) compiled for the SHAVE core: a kernel that
 * includes this header with VK_REF_INT (the integer kernels, ids 1..6) or
 * VK_REF_F (the FP16/FP32 kernels, ids 7..16) defined gets the same C
 * source that defines the built-in kernel (dpu_common.c for
 * vpux_requant(), shave_common.c and shave_ref.c, or shave_common.c, shave_fcommon.c, shave_fmath.c and
 * shave_ref_f.c: integer C, soft-float from vpux_float.h) in one
 * translation unit, and calls one of its kernels with VK_REF_RUN_INT() or
 * VK_REF_RUN_F(). The linker's --gc-sections keeps what that kernel
 * reaches.
 *
 * The memory callbacks are loads and stores of the core: a buffer is a
 * guest address in WIN_F (the records say VPUX_WADDR(15, off)); any other
 * window is an argument error, an address past WIN_F's end a load or
 * store trap. The job record is on the stack (there is no RW data):
 * Documentation/shave-kernels.rst gives each kernel's stack need.
 */
#ifndef VK_REF_H
#define VK_REF_H

#include <stddef.h>
#include "vpux_kernel.h"

/* what the compiler may call for a structure copy; the references call them */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

typedef u32 __attribute__((__may_alias__)) vk_word;

void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (!(((u32)d | (u32)s | n) & 3)) {
		for (; n; n -= 4, d += 4, s += 4)
			*(vk_word *)(void *)d = *(const vk_word *)(const void *)s;
		return dst;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;

	if (!c && !(((u32)d | n) & 3)) {
		for (; n; n -= 4, d += 4)
			*(vk_word *)(void *)d = 0;
		return dst;
	}
	while (n--)
		*d++ = (u8)c;
	return dst;
}

#include "vpux_hw_ops_internal.h"

#if defined(VK_REF_INT)
/* the F dispatch of vpux_ref_shave_run() is not this kernel's */
#define vpux_ref_shave_f_run(id, args, size, mem)	VPUX_ERR(KERNEL)
#include "ref/dpu_common.c"
#include "ref/shave_common.c"
#include "ref/shave_ref.c"
#undef vpux_ref_shave_f_run
#elif defined(VK_REF_F)
#include "ref/dpu_common.c"
#include "ref/shave_common.c"
/* shave_fcommon.c's own statics of the same names */
#define mem_err		fc_mem_err
#define params_check	fc_params_check
#include "ref/shave_fcommon.c"
#undef mem_err
#undef params_check
#include "ref/shave_fmath.c"
#include "ref/shave_ref_f.c"
#else
#error "define VK_REF_INT or VK_REF_F"
#endif

static bool vk_in_win_f(u32 waddr, u32 len)
{
	return waddr >> 28 == VPUX_SHAVE_WIN_F >> 28 &&
	       len <= 0x10000000u - (waddr & 0x0fffffffu);
}

static int vk_rd(void *ctx, u32 waddr, void *dst, u32 len)
{
	u8 *d = dst;

	(void)ctx;
	if (!vk_in_win_f(waddr, len))
		return VPUX_ERR(ARGS);
	if (len == 4 && !(waddr & 3)) {
		u32 v = vk_ld32(waddr);

		memcpy(d, &v, 4);
	} else if (len == 2 && !(waddr & 1)) {
		u16 v = (u16)vk_ld16(waddr);

		memcpy(d, &v, 2);
	} else {
		while (len--)
			*d++ = *(volatile const u8 *)waddr++;
	}
	return 0;
}

static int vk_wr(void *ctx, u32 waddr, const void *src, u32 len)
{
	const u8 *s = src;

	(void)ctx;
	if (!vk_in_win_f(waddr, len))
		return VPUX_ERR(ARGS);
	if (len == 4 && !(waddr & 3)) {
		u32 v;

		memcpy(&v, s, 4);
		vk_st32(waddr, v);
	} else if (len == 2 && !(waddr & 1)) {
		u16 v;

		memcpy(&v, s, 2);
		vk_st16(waddr, v);
	} else {
		while (len--)
			*(volatile u8 *)waddr++ = *s++;
	}
	return 0;
}

/* the references called here take no scratch: the job is on the stack */
static void *vk_alloc(void *ctx, size_t size)
{
	(void)ctx;
	(void)size;
	return NULL;
}

static void vk_free(void *ctx, void *p)
{
	(void)ctx;
	(void)p;
}

/* the engine error of a reference as a kernel status */
static inline int vk_status(int ret)
{
	if (!ret)
		return VPUX_KERNEL_OK;
	return ret == VPUX_ERR(ARGS) ? VPUX_KERNEL_EARGS : VPUX_KERNEL_EFAULT;
}

#define VK_MEM	{ NULL, vk_rd, vk_wr, vk_alloc, vk_free, NULL }

/*
 * The entry of an integer kernel: @id's argument checks, then
 * @fn(job, mem) of shave_ref.c.
 */
#define VK_REF_RUN_INT(id, fn, args_addr, args_size) ({			\
	struct vpux_shave_job job_;					\
	const struct vpux_shave_mem mem_ = VK_MEM;			\
	int r_ = vpux_shave_prepare((id), (const void *)(args_addr),	\
				    (args_size), &mem_, &job_);		\
	vk_status(r_ ? r_ : fn(&job_, &mem_));				\
})

/*
 * The entry of an FP16/FP32 kernel: @id's argument checks, then
 * @fn(job, mem) of shave_ref_f.c.
 */
#define VK_REF_RUN_F(id, fn, args_addr, args_size) ({			\
	struct vpux_shave_fjob job_;					\
	const struct vpux_shave_mem mem_ = VK_MEM;			\
	int r_ = vpux_shave_f_prepare((id), (const void *)(args_addr),	\
				      (args_size), &mem_, &job_);	\
	vk_status(r_ ? r_ : fn(&job_, &mem_));				\
})

#endif /* VK_REF_H */
