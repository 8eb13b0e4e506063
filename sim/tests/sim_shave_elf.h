/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Host helpers for SHAVE ELF kernels: load an SDK kernel image
 * (VPUX_KERNEL_DIR/NAME.bin), run it on a SHAVE core with host buffers
 * as windows, and run a built-in kernel on the same WIN_F buffer.
 */
#ifndef SIM_SHAVE_ELF_H
#define SIM_SHAVE_ELF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_ops.h"
#include "vpux_float.h"
#include "vpux_shave_abi.h"
#include "vpux_shave_core.h"

/* the SDK kernel image NAME.bin, malloc'ed, or NULL */
static inline uint8_t *she_load(const char *name, uint32_t *size)
{
	char path[512];
	uint8_t *p;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.bin", VPUX_KERNEL_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc(n > 0 ? (size_t)n : 1);
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	*size = (uint32_t)n;
	return p;
}

/*
 * Run @code (entry 0) with @args and @win_f on a fresh core with @stack
 * bytes of stack and @budget instructions; the core (malloc'ed) is
 * returned for inspection, done.
 */
static inline struct vpux_shave_core *
she_run(const uint8_t *code, uint32_t code_size, const void *args,
	uint32_t args_size, uint8_t *win_f, uint32_t win_f_size,
	uint32_t stack, uint64_t budget)
{
	struct vpux_shave_core *c = calloc(1, sizeof(*c));

	c->code = (uint8_t *)code;
	c->code_size = code_size;
	c->args = malloc(args_size ? args_size : 1);
	if (args_size)
		memcpy(c->args, args, args_size);
	c->args_size = args_size;
	c->win_f = win_f;
	c->win_f_size = win_f_size;
	c->stack = malloc(stack);
	c->stack_size = stack;
	c->budget = budget;
	vpux_shave_core_start(c, 0);
	while (!vpux_shave_core_run(c, 1u << 20))
		;
	return c;
}

static inline void she_free(struct vpux_shave_core *c)
{
	free(c->args);
	free(c->stack);
	free(c);
}

/* a built-in kernel's view of WIN_F (window 15) */
struct she_win {
	uint8_t *p;
	uint32_t size;
};

static inline int she_rd(void *ctx, u32 waddr, void *dst, u32 len)
{
	struct she_win *w = ctx;
	u32 off = waddr - VPUX_SHAVE_WIN_F;

	if (waddr >> 28 != 15 || off > w->size || len > w->size - off)
		return -VPUX_ENG_ERR_ARGS;
	memcpy(dst, w->p + off, len);
	return 0;
}

static inline int she_wr(void *ctx, u32 waddr, const void *src, u32 len)
{
	struct she_win *w = ctx;
	u32 off = waddr - VPUX_SHAVE_WIN_F;

	if (waddr >> 28 != 15 || off > w->size || len > w->size - off)
		return -VPUX_ENG_ERR_ARGS;
	memcpy(w->p + off, src, len);
	return 0;
}

static inline void *she_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static inline void she_free_mem(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static inline int she_builtin(u32 kernel_id, const void *args, u32 size,
			      uint8_t *win_f, uint32_t win_f_size)
{
	struct she_win w = { win_f, win_f_size };
	struct vpux_shave_mem mem = { &w, she_rd, she_wr, she_alloc,
				      she_free_mem, NULL };
	u64 cycles;

	return vpux_shave_run(kernel_id, args, size, &mem, &cycles);
}

#endif /* SIM_SHAVE_ELF_H */
