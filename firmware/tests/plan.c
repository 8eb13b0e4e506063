// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Plans on the fake backend (Documentation/dynamic-shapes.rst): a row
 * copy over a dynamic axis at min, max, exact tiles and tails; two
 * templates per iteration with a wait; nested loops; blocks one after
 * the other; the window stalling (never growing) behind a hung op; two
 * requests of different sizes on one task memory at once; and every
 * validation rule with its error code, at prepare and while expanding.
 */
#include "dla_user_priv.h"
#include "fw_test.h"
#include "plan_builder.h"
#include "vpux_shave_elf.h"

#define ROW		16u
#define MAXROWS		100u
#define SYM_ENTRY	3u

/*
 * Address list: 0 the plan task, 1 source rows, 2 destination, 3 the
 * symbol buffer (@vals), 4 scratch; @bytes per data buffer.
 */
static void pt_list(struct ft *f, struct pb *p, const dla_u64 *vals,
		    unsigned int n_vals, size_t bytes)
{
	unsigned int i;

	f->hw.n_region = 0;
	for (i = 1; i < f->n; i++)
		free(f->list[i].cpu);
	f->n = 5;
	f->list[0] = (struct dla_user_buf){ FAKE_VA_BASE, p->size, p->buf, 0 };
	fake_hw_map(&f->hw, FAKE_VA_BASE, p->buf, p->size);
	for (i = 1; i < 5; i++) {
		size_t sz = i == SYM_ENTRY ? (n_vals ? n_vals * 8 : 4) : bytes;

		f->list[i].va = FAKE_VA_BASE + i * FT_BUF_STRIDE;
		f->list[i].size = sz;
		f->list[i].cpu = calloc(1, sz);
		fake_hw_map(&f->hw, f->list[i].va, f->list[i].cpu, sz);
	}
	if (n_vals)
		memcpy(f->list[SYM_ENTRY].cpu, vals, n_vals * 8);
	for (i = 0; i < bytes; i++)
		ft_buf(f, 1)[i] = (unsigned char)(i * 13 + 5);
}

/* Did exactly the first @n bytes of entry 1 arrive in entry @dst? */
static int pt_copied(struct ft *f, unsigned int dst, size_t n, size_t bytes)
{
	size_t i;

	for (i = 0; i < bytes; i++)
		if (ft_buf(f, dst)[i] != (i < n ? ft_buf(f, 1)[i] : 0))
			return 0;
	return 1;
}

static int pt_run(struct ft *f, struct dla_task_status *st)
{
	int h = ft_submit(f, 1);

	if (h < 0)
		return h;
	fake_hw_run(&f->hw);
	*st = ft_status(f, h);
	dla_user_release(f->dev, h);
	return 0;
}

/* The row copy at min, exact tiles, tails and max. */
static void test_sizes(void)
{
	static const dla_u32 sizes[] = { 1, 7, 8, 13, 64, 99, MAXROWS };
	struct dla_task_status st;
	struct pb p;
	struct ft f;
	unsigned int i;

	ft_init(&f, 2, 1, 1);
	pb_row_copy(&p, 1, MAXROWS, 8, ROW);
	pb_finish(&p, SYM_ENTRY);
	for (i = 0; i < DLA_ARRAY_SIZE(sizes); i++) {
		dla_u64 n = sizes[i];
		int ret;

		pt_list(&f, &p, &n, 1, MAXROWS * ROW);
		ret = pt_run(&f, &st);
		tap_check(!ret && st.state == DLA_TASK_DONE,
			  "rows %u: done (%d, state %u error %d)", sizes[i],
			  ret, st.state, st.error);
		tap_check(st.ops_total == (sizes[i] + 7) / 8 &&
			  st.ops_done == st.ops_total,
			  "rows %u: %u ops = ceil(rows / 8), all done",
			  sizes[i], st.ops_total);
		tap_check(pt_copied(&f, 2, n * ROW, MAXROWS * ROW),
			  "rows %u: exactly %u bytes copied (tail %u rows)",
			  sizes[i], sizes[i] * ROW, sizes[i] % 8);
	}
	ft_fini(&f);
	free(p.buf);
}

/*
 * Two templates per iteration: buf1 -> scratch (4), then, waiting for
 * it, scratch -> buf2. The second op of an iteration never starts before
 * the first ended: the data proves it, with one DMA engine per op in
 * flight on a clock where ops complete in start order.
 */
static void test_wait_mask(void)
{
	struct dla_task_status st;
	struct dla_dma_op *o;
	struct pb p;
	struct ft f;
	dla_u64 n = 45;
	unsigned int k;

	ft_init(&f, 2, 1, 1);
	pb_init(&p);
	pb_symbol(&p, 1, MAXROWS);
	pb_block(&p, 1);
	pb_loop(&p, 0, 4, PB_E(PB_T(SYM, 0)));
	for (k = 0; k < 2; k++) {
		o = pb_template(&p, DLA_OP_DMA, k ? 1u : 0u);
		o->src.index = k ? 4 : 1;
		o->dst.index = k ? 2 : 4;
		o->count[0] = o->count[1] = o->count[2] = 1;
		pb_patch(&p, PB_DMA(len), 4, PB_E(PB_T(LEN, 0),
			 PB_T(CONST, ROW), PB_OP(MUL)));
		pb_patch(&p, PB_DMA(src.offset), 4, PB_E(PB_T(OFF, 0),
			 PB_T(CONST, ROW), PB_OP(MUL)));
		pb_patch(&p, PB_DMA(src.size), 4, PB_E(PB_T(LEN, 0),
			 PB_T(CONST, ROW), PB_OP(MUL)));
		pb_patch(&p, PB_DMA(dst.offset), 4, PB_E(PB_T(OFF, 0),
			 PB_T(CONST, ROW), PB_OP(MUL)));
		pb_patch(&p, PB_DMA(dst.size), 4, PB_E(PB_T(LEN, 0),
			 PB_T(CONST, ROW), PB_OP(MUL)));
	}
	pb_finish(&p, SYM_ENTRY);
	pt_list(&f, &p, &n, 1, MAXROWS * ROW);
	tap_check(!pt_run(&f, &st) && st.state == DLA_TASK_DONE &&
		  st.ops_done == 2 * 12,
		  "wait mask: 45 rows in tiles of 4: 24 ops done (%u)",
		  st.ops_done);
	tap_check(pt_copied(&f, 2, n * ROW, MAXROWS * ROW),
		  "wait mask: the data went through the scratch in order");
	/* one tile: two DMA engines idle, yet the second op waits */
	n = 3;
	pt_list(&f, &p, &n, 1, MAXROWS * ROW);
	tap_check(!pt_run(&f, &st) && st.state == DLA_TASK_DONE &&
		  st.ops_done == 2 && st.device_cycles == 200,
		  "wait mask: one tile: the 2 ops ran one after the other "
		  "(%llu cycles, want 200)",
		  (unsigned long long)st.device_cycles);
	ft_fini(&f);
	free(p.buf);
}

/*
 * Nested loops: a matrix of SYM0 rows x SYM1 bytes (row pitch 64) copied
 * in 3 x 16 tiles, one 2-D DMA each; then a second block copying the
 * result on to the scratch buffer once the first finished.
 */
static void test_nested_blocks(void)
{
	static const dla_u32 shape[][2] = { { 1, 1 }, { 3, 16 }, { 7, 33 },
					    { 10, 64 } };
	struct dla_task_status st;
	struct dla_dma_op *o;
	struct pb p;
	struct ft f;
	unsigned int i, r, c, ok;

	ft_init(&f, 2, 1, 1);
	pb_init(&p);
	pb_symbol(&p, 1, 10);
	pb_symbol(&p, 1, 64);
	pb_block(&p, 2);
	pb_loop(&p, 0, 3, PB_E(PB_T(SYM, 0)));
	pb_loop(&p, 1, 16, PB_E(PB_T(SYM, 1)));
	o = pb_template(&p, DLA_OP_DMA, 0);
	o->src.index = 1;
	o->dst.index = 2;
	o->count[1] = o->count[2] = 1;
	o->src_stride[0] = o->dst_stride[0] = 64;
	/* off = OFF0 * 64 + OFF1; len = LEN1; rows = LEN0 */
	pb_patch(&p, PB_DMA(len), 4, PB_E(PB_T(LEN, 1)));
	pb_patch(&p, PB_DMA(count[0]), 4, PB_E(PB_T(LEN, 0)));
	pb_patch(&p, PB_DMA(src.offset), 4, PB_E(PB_T(OFF, 0),
		 PB_T(CONST, 64), PB_OP(MUL), PB_T(OFF, 1), PB_OP(ADD)));
	pb_patch(&p, PB_DMA(dst.offset), 4, PB_E(PB_T(OFF, 0),
		 PB_T(CONST, 64), PB_OP(MUL), PB_T(OFF, 1), PB_OP(ADD)));
	/* size = (LEN0 - 1) * 64 + LEN1 */
	pb_patch(&p, PB_DMA(src.size), 4, PB_E(PB_T(LEN, 0), PB_T(CONST, 1),
		 PB_OP(SUB), PB_T(CONST, 64), PB_OP(MUL), PB_T(LEN, 1),
		 PB_OP(ADD)));
	pb_patch(&p, PB_DMA(dst.size), 4, PB_E(PB_T(LEN, 0), PB_T(CONST, 1),
		 PB_OP(SUB), PB_T(CONST, 64), PB_OP(MUL), PB_T(LEN, 1),
		 PB_OP(ADD)));
	/* block 1: the whole 640 bytes of entry 2 to entry 4, one op */
	pb_block(&p, 0);
	o = pb_template(&p, DLA_OP_DMA, 0);
	tb_copy(o, tb_ref(2, 0, 640), tb_ref(4, 0, 640), 640);
	pb_finish(&p, SYM_ENTRY);
	for (i = 0; i < DLA_ARRAY_SIZE(shape); i++) {
		dla_u64 v[2] = { shape[i][0], shape[i][1] };
		unsigned int tiles = ((shape[i][0] + 2) / 3) *
				     ((shape[i][1] + 15) / 16);

		pt_list(&f, &p, v, 2, 640);
		tap_check(!pt_run(&f, &st) && st.state == DLA_TASK_DONE &&
			  st.ops_done == tiles + 1,
			  "nested %ux%u: %u tiles + 1 op done (%u)",
			  shape[i][0], shape[i][1], tiles, st.ops_done);
		ok = 1;
		for (r = 0; r < 10; r++)
			for (c = 0; c < 64; c++) {
				unsigned int at = r * 64 + c;
				unsigned char want = r < shape[i][0] &&
					c < shape[i][1] ? ft_buf(&f, 1)[at] : 0;

				ok &= ft_buf(&f, 2)[at] == want &&
				      ft_buf(&f, 4)[at] == want;
			}
		tap_check(ok, "nested %ux%u: the sub-matrix, and block 1 saw "
			  "all of block 0", shape[i][0], shape[i][1]);
		/* 2 DMA engines: block 0 in waves of 2, then block 1 alone */
		tap_check(st.device_cycles == ((tiles + 1) / 2 + 1) * 100ull,
			  "nested %ux%u: block 1 started after block 0 ended "
			  "(%llu cycles, want %u)", shape[i][0], shape[i][1],
			  (unsigned long long)st.device_cycles,
			  ((tiles + 1) / 2 + 1) * 100);
	}
	ft_fini(&f);
	free(p.buf);
}

/*
 * The window stalls: the first op hangs; the other engine runs the rest
 * until DLA_PLAN_WINDOW ops were expanded, then nothing more starts
 * (the head cannot be reclaimed). Aborting ends the task.
 */
static void test_window_stall(void)
{
	struct dla_task_status st;
	struct pb p;
	struct ft f;
	dla_u64 n = 10000;
	int h;

	ft_init(&f, 2, 1, 1);
	pb_row_copy(&p, 1, 10000, 1, ROW);
	pb_finish(&p, SYM_ENTRY);
	pt_list(&f, &p, &n, 1, 10000 * ROW);
	fake_hw_inject(&f.hw, 0, FAKE_HANG, 0);
	h = ft_submit(&f, 1);
	tap_check(h >= 0, "stall: submitted");
	fake_hw_run(&f.hw);
	st = ft_status(&f, h);
	tap_check(fake_hw_starts(&f.hw) == DLA_PLAN_WINDOW &&
		  st.ops_done == DLA_PLAN_WINDOW - 1 && st.ops_running == 1 &&
		  st.state == DLA_TASK_RUNNING,
		  "stall: %u ops started = the window (%u), %u done, the "
		  "hung head holds it", fake_hw_starts(&f.hw),
		  DLA_PLAN_WINDOW, st.ops_done);
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(p.buf);
}

/* Two requests of different sizes at once on the same task memory. */
static void test_two_requests(void)
{
	struct dla_user_buf l2[5];
	struct dla_task_status s1, s2;
	struct pb p;
	struct ft f;
	dla_u64 n1 = 93, n2 = 21;
	unsigned char *dst2, *sym2;
	int h1, h2, ok = 1;
	unsigned int i;

	ft_init(&f, 2, 1, 1);
	pb_row_copy(&p, 1, MAXROWS, 8, ROW);
	pb_finish(&p, SYM_ENTRY);
	pt_list(&f, &p, &n1, 1, MAXROWS * ROW);
	memcpy(l2, f.list, sizeof(l2));
	dst2 = calloc(1, MAXROWS * ROW);
	sym2 = calloc(1, 8);
	memcpy(sym2, &n2, 8);
	l2[2].va = FAKE_VA_BASE + 6 * FT_BUF_STRIDE;
	l2[2].cpu = dst2;
	l2[3].va = FAKE_VA_BASE + 7 * FT_BUF_STRIDE;
	l2[3].cpu = sym2;
	fake_hw_map(&f.hw, l2[2].va, dst2, MAXROWS * ROW);
	fake_hw_map(&f.hw, l2[3].va, sym2, 8);
	h1 = dla_user_submit(f.dev, f.list, 5, 0, 1);
	h2 = dla_user_submit(f.dev, l2, 5, 0, 1);
	fake_hw_run(&f.hw);
	s1 = ft_status(&f, h1);
	s2 = ft_status(&f, h2);
	tap_check(h1 >= 0 && h2 >= 0 && s1.state == DLA_TASK_DONE &&
		  s2.state == DLA_TASK_DONE && s1.ops_done == 12 &&
		  s2.ops_done == 3,
		  "two requests: 93 and 21 rows on one plan: 12 and 3 ops");
	for (i = 0; i < MAXROWS * ROW; i++)
		ok &= dst2[i] == (i < n2 * ROW ? ft_buf(&f, 1)[i] : 0);
	tap_check(pt_copied(&f, 2, n1 * ROW, MAXROWS * ROW) && ok,
		  "two requests: each copied its own size");
	dla_user_release(f.dev, h1);
	dla_user_release(f.dev, h2);
	free(dst2);
	free(sym2);
	ft_fini(&f);
	free(p.buf);
}

/* A matmul over a dynamic token count: DPU u16 fields patched. */
static void test_dpu_tokens(void)
{
	struct dla_task_status st;
	struct pb p;
	struct ft f;
	dla_u64 n = 37;

	ft_init(&f, 1, 2, 1);
	pb_token_matmul(&p, 4);
	pb_finish(&p, SYM_ENTRY);
	pt_list(&f, &p, &n, 1, 64 * 32);
	tap_check(!pt_run(&f, &st) && st.state == DLA_TASK_DONE &&
		  st.ops_done == 3,
		  "dpu: 37 tokens in tiles of 16: 3 matmuls done (%d)",
		  st.error);
	ft_fini(&f);
	free(p.buf);
}

/*
 * An ELF kernel task as a template (minor 3): one op per row, WIN_F a
 * row of entry 2 (win_f.offset = OFF0 * ROW), code and arguments in
 * entry 1. Each instance reaches the SHAVE with its own WIN_F and the
 * template's code, arguments, stack and tile; @c breaks it for the
 * refusals (0: valid).
 */
enum pe_case { PE_OK, PE_MINOR, PE_KERNEL_ID, PE_WIN_F_INDEX, PE_WIN_F_SIZE,
	       PE_STACK, PE_NCASES };

static const struct {
	const char *what;
	dla_s32 err;
} pe_cases[PE_NCASES] = {
	[PE_OK] = { "(accepted) the ELF template", 0 },
	[PE_MINOR] = { "ELF template in a minor-2 task", DLA_ERR_PLAN_FORMAT },
	[PE_KERNEL_ID] = { "patch on a SHAVE op's kernel_id",
			   DLA_ERR_PLAN_PATCH },
	[PE_WIN_F_INDEX] = { "patch on win_f.index", DLA_ERR_PLAN_PATCH },
	[PE_WIN_F_SIZE] = { "win_f.size above the WIN_F limit at max",
			    DLA_ERR_WINDOW },
	[PE_STACK] = { "stack_size patched below the minimum",
		       DLA_ERR_SHAVE_TASK },
};

#define PE_LOG		64u

static int pe_run(unsigned int c, dla_u64 n, struct fake_start *log,
		  struct dla_task_status *st)
{
	struct dla_shave_task_op *e;
	struct pb p;
	struct ft f;
	int h;

	ft_init(&f, 1, 1, 1);
	pb_init(&p);
	pb_symbol(&p, 1, 64);
	pb_block(&p, 1);
	pb_loop(&p, 0, 1, PB_E(PB_T(SYM, 0)));
	e = pb_template(&p, DLA_OP_SHAVE, 0);
	e->kernel_id = VPUX_SHAVE_KERNEL_ELF;
	e->entry = 8;
	e->args = tb_ref(1, 0, 64);
	e->code = tb_ref(1, 256, 256);
	e->win_f = tb_ref(2, 0, ROW);
	e->stack_size = 1024;
	e->tile = 0;
	e->kernel = 3;
	pb_patch(&p, PB_OFF(struct dla_shave_task_op, win_f.offset), 4,
		 PB_E(PB_T(OFF, 0), PB_I(MUL, ROW)));
	switch (c) {
	case PE_KERNEL_ID:
		pb_patch(&p, PB_SHAVE(kernel_id), 4, PB_E(PB_T(CONST, 1)));
		break;
	case PE_WIN_F_INDEX:
		pb_patch(&p, PB_OFF(struct dla_shave_task_op, win_f.index), 4,
			 PB_E(PB_T(CONST, 2)));
		break;
	case PE_WIN_F_SIZE:
		/* fine at 1 row, past VPUX_SHAVE_WIN_F_MAX at 64 */
		pb_patch(&p, PB_OFF(struct dla_shave_task_op, win_f.size), 4,
			 PB_E(PB_T(SYM, 0), PB_OP(CONST32), 0x00300000u,
			      PB_OP(MUL)));
		break;
	case PE_STACK:
		pb_patch(&p, PB_OFF(struct dla_shave_task_op, stack_size), 4,
			 PB_E(PB_T(CONST, 128)));
		break;
	default:
		break;
	}
	pb_finish(&p, SYM_ENTRY);
	if (c == PE_MINOR)
		p.d->version_minor = 2;
	pt_list(&f, &p, &n, 1, MAXROWS * ROW);
	f.hw.log = log;
	f.hw.log_cap = PE_LOG;
	h = ft_submit(&f, 1);
	if (h >= 0) {
		fake_hw_run(&f.hw);
		*st = ft_status(&f, h);
		dla_user_release(f.dev, h);
		h = 0;
	}
	ft_fini(&f);
	free(p.buf);
	return h;
}

static void test_elf_template(void)
{
	static const dla_u32 sizes[] = { 1, 17, 64 };
	static struct fake_start log[PE_LOG];
	struct dla_task_status st;
	unsigned int i, c, k, bad;

	for (i = 0; i < DLA_ARRAY_SIZE(sizes); i++) {
		const struct vpux_hw_shave_task *hw;
		int ret;

		memset(log, 0, sizeof(log));
		ret = pe_run(PE_OK, sizes[i], log, &st);
		tap_check(!ret && st.state == DLA_TASK_DONE &&
			  st.ops_total == sizes[i] &&
			  st.ops_done == sizes[i],
			  "elf template: %u rows: %u ELF ops done (%d, %u)",
			  sizes[i], sizes[i], ret, st.ops_done);
		for (k = 0, bad = 0; k < sizes[i]; k++) {
			hw = (const void *)log[k].param;
			if (hw->kernel_id != VPUX_SHAVE_KERNEL_ELF ||
			    hw->win_f != FAKE_VA_BASE + 2 * FT_BUF_STRIDE +
					 k * ROW ||
			    hw->win_f_size != ROW ||
			    hw->code != FAKE_VA_BASE + FT_BUF_STRIDE + 256 ||
			    hw->code_size != 256 || hw->entry != 8 ||
			    hw->args != FAKE_VA_BASE + FT_BUF_STRIDE ||
			    hw->args_size != 64 || hw->stack_size != 1024 ||
			    hw->kernel != 3)
				bad++;
		}
		tap_check(!bad, "elf template: %u rows: each op its own WIN_F "
			  "row, the template's code and arguments (%u bad)",
			  sizes[i], bad);
	}
	for (c = 1; c < PE_NCASES; c++) {
		int ret = pe_run(c, 64, log, &st);

		tap_check(ret == -pe_cases[c].err,
			  "refused: %s: %d (want %d)", pe_cases[c].what, ret,
			  -pe_cases[c].err);
	}
}

/* ---- refusals ---- */

enum pt_case {
	PC_SYM_HIGH, PC_SYM_LOW, PC_SYM_WIDE, PC_SYM_SHORT, PC_SYM_INDEX,
	PC_COUNT, PC_DEPTH, PC_EXTENT_MAX, PC_EXPR_STACK, PC_EXPR_IDX,
	PC_EXPR_SYM, PC_EXPR_OP, PC_PATCH_INDEX, PC_PATCH_DEPS,
	PC_PATCH_WIDTH, PC_PATCH_END, PC_OVERFLOW, PC_DIV0, PC_HALF,
	PC_WAIT_LATER, PC_DEPS, PC_MAGIC, PC_SIZE, PC_RANGE, PC_STATIC_OPS,
	PC_EMPTY, PC_TILE, PC_BODY, PC_RESERVED, PC_NOFLAG, PC_EXTENT_MIN,
	PC_NCASES
};

static const struct {
	const char *what;
	dla_s32 err;
} pt_cases[PC_NCASES] = {
	[PC_SYM_HIGH] = { "symbol above its max", DLA_ERR_PLAN_SYMBOL },
	[PC_SYM_LOW] = { "symbol below its min", DLA_ERR_PLAN_SYMBOL },
	[PC_SYM_WIDE] = { "symbol above 2^32 - 1", DLA_ERR_PLAN_SYMBOL },
	[PC_SYM_SHORT] = { "symbol buffer too short", DLA_ERR_PLAN_SYMBOL },
	[PC_SYM_INDEX] = { "symbol entry 0", DLA_ERR_ADDR_INDEX },
	[PC_COUNT] = { "loop count overflow", DLA_ERR_PLAN_COUNT },
	[PC_DEPTH] = { "nesting past the limit", DLA_ERR_PLAN_DEPTH },
	[PC_EXTENT_MAX] = { "extent leaves its buffer at max",
			    DLA_ERR_BUF_RANGE },
	[PC_EXPR_STACK] = { "expression stack underflow", DLA_ERR_PLAN_EXPR },
	[PC_EXPR_IDX] = { "loop index in an extent", DLA_ERR_PLAN_EXPR },
	[PC_EXPR_SYM] = { "unknown symbol id", DLA_ERR_PLAN_EXPR },
	[PC_EXPR_OP] = { "unknown opcode", DLA_ERR_PLAN_EXPR },
	[PC_PATCH_INDEX] = { "patch on a ref index", DLA_ERR_PLAN_PATCH },
	[PC_PATCH_DEPS] = { "patch on deps", DLA_ERR_PLAN_PATCH },
	[PC_PATCH_WIDTH] = { "patch width 3", DLA_ERR_PLAN_PATCH },
	[PC_PATCH_END] = { "patch past the record", DLA_ERR_PLAN_PATCH },
	[PC_OVERFLOW] = { "expression overflow", DLA_ERR_EXPR_OVERFLOW },
	[PC_DIV0] = { "division by zero", DLA_ERR_EXPR_DIV0 },
	[PC_HALF] = { "u16 patch above 65535", DLA_ERR_EXPR_OVERFLOW },
	[PC_WAIT_LATER] = { "wait on a later template", DLA_ERR_PLAN_FORMAT },
	[PC_DEPS] = { "template deps set", DLA_ERR_PLAN_FORMAT },
	[PC_MAGIC] = { "plan magic", DLA_ERR_PLAN_FORMAT },
	[PC_SIZE] = { "plan size not its records", DLA_ERR_PLAN_FORMAT },
	[PC_RANGE] = { "plan outside entry 0", DLA_ERR_TABLE_RANGE },
	[PC_STATIC_OPS] = { "plan with static ops", DLA_ERR_PLAN_FORMAT },
	[PC_EMPTY] = { "no iteration at all", DLA_ERR_EMPTY },
	[PC_TILE] = { "tile 0", DLA_ERR_PLAN_FORMAT },
	[PC_BODY] = { "body past the templates", DLA_ERR_PLAN_FORMAT },
	[PC_RESERVED] = { "plan header reserved", DLA_ERR_PLAN_FORMAT },
	[PC_NOFLAG] = { "plan fields without the flag", DLA_ERR_RESERVED },
	[PC_EXTENT_MIN] = { "(accepted) the same buffer at min", 0 },
};

/* The row copy, broken as @c says; symbol 0 = @n. */
static int pt_refused(unsigned int c)
{
	struct dla_plan_header *h;
	struct pb p;
	struct ft f;
	dla_u64 n = 50;
	unsigned int n_vals = 1;
	size_t bytes = MAXROWS * ROW;
	int ret;

	ft_init(&f, 2, 1, 1);
	pb_row_copy(&p, 1, MAXROWS, 8, ROW);
	switch (c) {
	case PC_SYM_HIGH: n = MAXROWS + 1; break;
	case PC_SYM_LOW: n = 0; break;
	case PC_SYM_WIDE: n = 1ull << 32 | 5; break;
	case PC_SYM_SHORT: n_vals = 0; break;
	case PC_COUNT:
		p.blk[0].depth = 2;
		p.blk[0].loop[1].tile = 1;
		p.blk[0].loop[1].len = 2;
		p.blk[0].loop[1].extent = (dla_u16)pb_expr(&p,
			PB_E(PB_OP(CONST32), 0xffffffffu));
		break;
	case PC_DEPTH: p.blk[0].depth = DLA_PLAN_MAX_DEPTH + 1; break;
	case PC_EXTENT_MAX: bytes = 60 * ROW; n = MAXROWS; break;
	case PC_EXTENT_MIN: bytes = 60 * ROW; n = 1; break;
	case PC_EXPR_STACK:
		p.pat[0].expr = (dla_u16)pb_expr(&p, PB_E(PB_T(LEN, 0),
						 PB_OP(MUL)));
		p.pat[0].len = 2;
		break;
	case PC_EXPR_IDX:
		p.blk[0].loop[0].extent = (dla_u16)pb_expr(&p,
			PB_E(PB_T(IDX, 0)));
		break;
	case PC_EXPR_SYM:
		p.pat[1].expr = (dla_u16)pb_expr(&p, PB_E(PB_T(SYM, 1)));
		p.pat[1].len = 1;
		break;
	case PC_EXPR_OP:
		p.pat[1].expr = (dla_u16)pb_expr(&p, PB_E(PB_T(SYM, 0),
			PB_T(SYM, 0), DLA_EXPR_TOKEN(31, 0)));
		p.pat[1].len = 3;
		break;
	case PC_PATCH_INDEX: p.pat[1].offset = PB_DMA(src.index); break;
	case PC_PATCH_DEPS: p.pat[1].offset = 4; break;
	case PC_PATCH_WIDTH: p.pat[1].width = 3; break;
	case PC_PATCH_END:
		p.pat[1].offset = sizeof(struct dla_dma_op) - 2;
		break;
	case PC_OVERFLOW:
		/* OFF0 * 2^28: fine at the first tile, overflows at the last */
		p.pat[1].expr = (dla_u16)pb_expr(&p, PB_E(PB_T(OFF, 0),
			PB_OP(CONST32), 0x10000000u, PB_OP(MUL)));
		p.pat[1].len = 4;
		break;
	case PC_DIV0:
		p.pat[1].expr = (dla_u16)pb_expr(&p, PB_E(PB_T(OFF, 0),
			PB_T(SYM, 0), PB_T(SYM, 0), PB_OP(SUB), PB_OP(DIV)));
		p.pat[1].len = 5;
		break;
	case PC_HALF:
		/* count[0]'s low half = 70000 */
		p.pat[1].offset = PB_DMA(count[0]);
		p.pat[1].width = 2;
		p.pat[1].expr = (dla_u16)pb_expr(&p, PB_E(PB_OP(CONST32),
						 70000u));
		p.pat[1].len = 2;
		break;
	case PC_WAIT_LATER: p.tpl[0].h.wait_mask = 2; break;
	case PC_DEPS: p.tpl[0].rec.dma.deps.num_waits = 1; break;
	case PC_TILE: p.blk[0].loop[0].tile = 0; break;
	case PC_BODY: p.blk[0].n_templates = 2; break;
	case PC_EMPTY: p.sym[0].min = 0; n = 0; break;
	default: break;
	}
	pb_finish(&p, c == PC_SYM_INDEX ? 0 : SYM_ENTRY);
	h = (struct dla_plan_header *)(p.buf + p.d->plan_offset);
	switch (c) {
	case PC_MAGIC: h->magic++; break;
	case PC_SIZE: p.d->plan_size -= 4; break;
	case PC_RANGE: p.d->plan_offset += 8; break;
	case PC_STATIC_OPS: p.d->ops[DLA_OP_DMA].count = 1; break;
	case PC_RESERVED: h->reserved[1] = 1; break;
	case PC_NOFLAG: p.d->flags = 0; break;
	default: break;
	}
	pt_list(&f, &p, &n, n_vals, bytes);
	ret = ft_submit(&f, 1);
	if (ret >= 0) {
		dla_user_release(f.dev, ret);
		ret = 0;
	}
	ft_fini(&f);
	free(p.buf);
	return ret;
}

static void test_refusals(void)
{
	unsigned int c;

	for (c = 0; c < PC_NCASES; c++) {
		int ret = pt_refused(c);

		tap_check(ret == -pt_cases[c].err, "refused: %s: %d (want %d)",
			  pt_cases[c].what, ret, -pt_cases[c].err);
	}
}

/*
 * An expression the corners do not catch: src.offset jumps out of the
 * buffer at tile 1 of 4 only (IDX0 mod 3 == 1). The job fails while
 * expanding, with that op's sequence number and BUF_RANGE; tile 0 ran,
 * nothing after tile 1 was programmed.
 */
static void test_runtime_refusal(void)
{
	struct dla_task_status st;
	struct pb p;
	struct ft f;
	dla_u64 n = 32;
	int h;

	ft_init(&f, 1, 1, 1);
	pb_row_copy(&p, 1, MAXROWS, 8, ROW);
	/*
	 * src.offset = OFF0 * ROW + min(min(IDX0 mod 3, 1), IDX0 mod 2)
	 * * 2^20: the jump is 1 for tile 1 only of tiles 0..3
	 */
	p.pat[1].expr = (dla_u16)pb_expr(&p, PB_E(PB_T(OFF, 0),
		PB_T(CONST, ROW), PB_OP(MUL), PB_T(IDX, 0), PB_T(CONST, 3),
		PB_OP(MOD), PB_T(CONST, 1), PB_OP(MIN), PB_T(IDX, 0),
		PB_T(CONST, 2), PB_OP(MOD), PB_OP(MIN), PB_T(CONST, 1 << 20),
		PB_OP(MUL), PB_OP(ADD)));
	p.pat[1].len = 15;
	pb_finish(&p, SYM_ENTRY);
	pt_list(&f, &p, &n, 1, MAXROWS * ROW);
	h = ft_submit(&f, 1);
	tap_check(h >= 0, "run-time refusal: the corners pass (%d)", h);
	fake_hw_run(&f.hw);
	st = ft_status(&f, h);
	tap_check(st.state == DLA_TASK_FAILED &&
		  st.error == -DLA_ERR_BUF_RANGE && st.fail_index == 1 &&
		  st.fail_kind == DLA_OP_DMA,
		  "run-time refusal: FAILED, BUF_RANGE at op 1 (%u %d %u)",
		  st.state, st.error, st.fail_index);
	tap_check(st.ops_done == 1 && fake_hw_starts(&f.hw) == 1 &&
		  pt_copied(&f, 2, 8 * ROW, MAXROWS * ROW),
		  "run-time refusal: tile 0 ran, nothing after (%u starts)",
		  fake_hw_starts(&f.hw));
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(p.buf);
}

/* The plan and symbols are read once: scribbling afterwards is inert. */
static void test_read_once(void)
{
	struct dla_task_status st;
	struct pb p;
	struct ft f;
	dla_u64 n = 77;
	int h;

	ft_init(&f, 2, 1, 1);
	pb_row_copy(&p, 1, MAXROWS, 8, ROW);
	pb_finish(&p, SYM_ENTRY);
	pt_list(&f, &p, &n, 1, MAXROWS * ROW);
	h = ft_submit(&f, 1);
	memset(p.buf + p.d->plan_offset, 0xff, p.plan_size);
	memset(ft_buf(&f, SYM_ENTRY), 0xff, 8);
	fake_hw_run(&f.hw);
	st = ft_status(&f, h);
	tap_check(h >= 0 && st.state == DLA_TASK_DONE && st.ops_done == 10 &&
		  pt_copied(&f, 2, 77 * ROW, MAXROWS * ROW),
		  "read once: plan and symbols overwritten after submit, "
		  "77 rows copied all the same");
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(p.buf);
}

/*
 * dla_task_symbols(): a prepared plan hands out the values it checked
 * and their entry, whatever the symbol buffer holds afterwards (what a
 * second core instance, the headed firmware, is given); a static task
 * and bad arguments are refused.
 */
static void test_task_symbols(void)
{
	struct dla_engine *e;
	struct dla_task *task = NULL;
	dla_u64 n[2] = { 42, 0 }, v[2] = { 0, 7 };
	dla_u32 size = 0, index = 0;
	struct pb p;
	struct ft f;
	void *td, *m;
	dla_s32 r;

	ft_init(&f, 2, 1, 1);
	e = dla_user_engine(f.dev);
	pb_row_copy(&p, 1, MAXROWS, 8, ROW);
	pb_symbol(&p, 0, 9);
	pb_finish(&p, SYM_ENTRY);
	n[1] = 9;
	pt_list(&f, &p, n, 2, MAXROWS * ROW);
	td = dla_user_task_handle(f.list, f.n);
	m = aligned_alloc(8, (DLA_TASK_SIZE_MAX + 7u) & ~7u);
	tap_check(!dla_task_measure(e, td, &size) &&
		  !dla_task_prepare(e, td, m, size, &task),
		  "task symbols: a two-symbol plan prepared");
	memset(ft_buf(&f, SYM_ENTRY), 0xff, 16);
	r = dla_task_symbols(task, &index, v, 2);
	tap_check(r == 2 && index == SYM_ENTRY && v[0] == 42 && v[1] == 9,
		  "task symbols: 2 values as checked, entry %u (%d: %llu %llu)",
		  index, r, (unsigned long long)v[0], (unsigned long long)v[1]);
	v[1] = 7;
	r = dla_task_symbols(task, &index, v, 1);
	tap_check(r == 2 && v[0] == 42 && v[1] == 7,
		  "task symbols: room for 1 fills 1, returns the count 2");
	tap_check(dla_task_symbols(task, NULL, v, 2) == -DLA_ERR_INVAL &&
		  dla_task_symbols(task, &index, NULL, 2) == -DLA_ERR_INVAL &&
		  dla_task_symbols(NULL, &index, v, 2) == -DLA_ERR_INVAL &&
		  dla_task_symbols(task, &index, NULL, 0) == 2,
		  "task symbols: NULL task, index or values refused");
	free(m);
	free(td);
	free(p.buf);

	/* a static task is not a plan */
	{
		struct tb t;
		unsigned char *buf = calloc(1, 4096);

		tb_init(&t, buf, 0, 1, 0, 0);
		tb_copy(&t.dma[0], tb_ref(1, 0, 64), tb_ref(2, 0, 64), 64);
		f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t.size, buf, 0 };
		td = dla_user_task_handle(f.list, f.n);
		m = aligned_alloc(8, (DLA_TASK_SIZE_MAX + 7u) & ~7u);
		task = NULL;
		tap_check(!dla_task_measure(e, td, &size) &&
			  !dla_task_prepare(e, td, m, size, &task) &&
			  dla_task_symbols(task, &index, v, 2) ==
			  -DLA_ERR_INVAL,
			  "task symbols: a static task has none (INVAL)");
		free(m);
		free(td);
		free(buf);
	}
	ft_fini(&f);
}

int main(void)
{
	test_sizes();
	test_wait_mask();
	test_nested_blocks();
	test_window_stall();
	test_two_requests();
	test_dpu_tokens();
	test_elf_template();
	test_refusals();
	test_runtime_refusal();
	test_read_once();
	test_task_symbols();
	return tap_finish();
}
