// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness: random code on a SHAVE core (Documentation/
 * shave-kernels.rst). The input is a 16-byte header choosing the window
 * sizes, the stack, the entry and the budget, then the code (WIN_D). The
 * windows are host buffers of exactly their size, so ASan sees any access
 * the core lets past a window; the kernel must end (returned, exit ECALL
 * or a trap with a known cause) within its budget, leave WIN_D and x0
 * unchanged, and end the same way, with the same windows, whether it runs
 * in one slice or in slices of a few instructions (as the engine runs it
 * between abort checks). Registers t0-t2 and t3-t5 start at the bases and
 * near the ends of the windows, and a code word whose low three bits are
 * 0 or 1 becomes a load or store (integer or float) of a small offset
 * from one of them, so that random code probes the windows' edges.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_shave_core.h"

#define BUDGET		20000u
#define CODE_MAX	4096u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct run {
	struct vpux_shave_core c;
	uint8_t *code, *image, *args, *rw, *win_f, *stack;
};

static uint8_t *fill(uint32_t n, uint32_t seed)
{
	uint8_t *p = malloc(n ? n : 1);
	uint32_t i;

	if (!p)
		abort();
	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
	return p;
}

/* word @w, or a load/store near a window edge built from its bits */
static uint32_t probe(uint32_t w)
{
	static const uint8_t base[8] = { 5, 6, 7, 28, 29, 30, 2, 10 };
	static const uint8_t op[4] = { 0x03, 0x23, 0x07, 0x27 };
	uint32_t o = op[w >> 3 & 3], f3 = w >> 5 & 7, rs1 = base[w >> 8 & 7];
	uint32_t reg = w >> 11 & 31, imm = (w >> 16 & 15) - 8;

	if ((w & 7) > 1)
		return w;
	if (o == 0x07 || o == 0x27)
		f3 = 2;				/* FLW / FSW */
	else if (o == 0x23)
		f3 &= 3;			/* SB SH SW (SD illegal) */
	if (o == 0x03 || o == 0x07)		/* I-type */
		return (imm & 0xfffu) << 20 | rs1 << 15 | f3 << 12 |
		       reg << 7 | o;
	return ((imm >> 5) & 0x7fu) << 25 | reg << 20 | rs1 << 15 |
	       f3 << 12 | (imm & 31u) << 7 | o;
}

static void run(struct run *r, const uint8_t *h, const uint8_t *code,
		uint32_t code_size, uint32_t slice)
{
	struct vpux_shave_core *c = &r->c;
	uint32_t args_size = h[0] | (h[1] & 3u) << 8;	/* 0..1023 */
	uint32_t data_size = (h[2] | (h[3] & 3u) << 8) & ~3u;
	uint32_t win_f_size = h[4] | (h[5] & 0xfu) << 8;	/* 0..4095 */
	uint32_t stack = VPUX_SHAVE_STACK_MIN + (h[6] & 0x3fu) * 16u;
	uint32_t entry = ((uint32_t)(h[7] | h[8] << 8) % code_size) & ~1u;
	uint32_t seed = h[9] | h[10] << 8 | (uint32_t)h[11] << 16, i;

	memset(r, 0, sizeof(*r));
	r->code = malloc(code_size);
	r->image = malloc(code_size);
	if (!r->code || !r->image)
		abort();
	for (i = 0; i < code_size; i += 4) {
		uint32_t w = probe((uint32_t)code[i] | (uint32_t)code[i + 1] << 8 |
				   (uint32_t)code[i + 2] << 16 |
				   (uint32_t)code[i + 3] << 24);

		memcpy(r->code + i, &w, 4);
	}
	memcpy(r->image, r->code, code_size);
	r->args = fill(args_size, seed);
	r->rw = fill(data_size, seed + 1);
	r->win_f = fill(win_f_size, seed + 2);
	r->stack = malloc(stack);
	if (!r->stack)
		abort();
	c->code = r->code;
	c->code_size = code_size;
	c->args = r->args;
	c->args_size = args_size;
	c->data = r->rw;
	c->data_size = data_size;
	c->win_f = r->win_f;
	c->win_f_size = win_f_size;
	c->stack = r->stack;
	c->stack_size = stack;
	c->budget = 1 + (h[12] | h[13] << 8) % BUDGET;
	vpux_shave_core_start(c, entry);
	c->rv.x[5] = VPUX_SHAVE_WIN_F + (h[15] & 3u);
	c->rv.x[6] = VPUX_SHAVE_WIN_F + win_f_size - (h[15] >> 2 & 7u);
	c->rv.x[7] = VPUX_SHAVE_WIN_E_DATA + data_size - (h[15] >> 5);
	c->rv.x[28] = VPUX_SHAVE_STACK_TOP - stack - (h[14] & 7u);
	c->rv.x[29] = VPUX_SHAVE_WIN_E + args_size - (h[14] >> 3 & 7u);
	c->rv.x[30] = VPUX_SHAVE_WIN_D + code_size - (h[14] >> 6);
	while (!vpux_shave_core_run(c, slice))
		;
	/* it ended, within its budget, in a way the engine can name */
	if (!c->done || c->executed > c->budget || c->rv.x[0])
		abort();
	if (c->trapped &&
	    !strcmp(vpux_shave_trap_name(c->cause), "unknown trap"))
		abort();
	/* WIN_D is read-only */
	if (memcmp(r->code, r->image, code_size))
		abort();
}

static void drop(struct run *r)
{
	free(r->code);
	free(r->image);
	free(r->args);
	free(r->rw);
	free(r->win_f);
	free(r->stack);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run a, b;
	uint32_t code_size;

	if (size < 16 + 4)
		return 0;
	code_size = (uint32_t)(size - 16) & ~3u;
	if (code_size > CODE_MAX)
		code_size = CODE_MAX;
	run(&a, data, data + 16, code_size, 1u << 20);
	run(&b, data, data + 16, code_size, 1 + data[10] % 7u);
	if (a.c.trapped != b.c.trapped || a.c.cause != b.c.cause ||
	    a.c.pc != b.c.pc || a.c.tval != b.c.tval ||
	    a.c.executed != b.c.executed ||
	    memcmp(a.c.rv.x, b.c.rv.x, sizeof(a.c.rv.x)) ||
	    memcmp(a.win_f, b.win_f, a.c.win_f_size) ||
	    memcmp(a.stack, b.stack, a.c.stack_size))
		abort();
	drop(&a);
	drop(&b);
	return 0;
}
