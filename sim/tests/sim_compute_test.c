// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DPU and SHAVE dispatch through the engines (host platform, step mode):
 * operands fetched through the MMU or from CMX, results compared with the
 * CPU reference run on host copies, descriptor errors, faults that store
 * nothing, cycles from the cycle model.
 *
 * The references are linked weakly: while ref/ is not linked in, the
 * comparisons are skipped, the dispatch checks still run.
 */
#include "sim_test.h"
#include "vpux_ops.h"
#if __has_include("vpux_shave_abi.h")
#include "vpux_shave_abi.h"
#endif

int vpux_ref_dpu_run(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o) __attribute__((weak));
int vpux_ref_shave_run(u32 kernel_id, const void *args, u32 args_size,
		       const struct vpux_shave_mem *mem) __attribute__((weak));

static struct t_dev t;
static uint32_t dpu0;	/* global index of the first DPU */
static uint32_t shave0;

struct dpu_case {
	struct vpux_hw_dpu_desc d;
	struct vpux_dpu_extents ext;
	struct t_buf in, in2, bias, quant, out;
};

static void base_desc(struct vpux_hw_dpu_desc *d, uint32_t op)
{
	memset(d, 0, sizeof(*d));
	d->op = op;
	d->flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED | VPUX_DPU_F_OUT_SIGNED;
	d->in_c = (uint16_t)t_range(1, 16);
	d->in_h = (uint16_t)t_range(1, 9);
	d->in_w = (uint16_t)t_range(1, 9);
	d->out_c = d->in_c;
	d->out_h = d->in_h;
	d->out_w = d->in_w;
	d->kernel_h = d->kernel_w = 1;
	d->stride_h = d->stride_w = 1;
	d->dilation_h = d->dilation_w = 1;
	d->groups = 1;
	d->act_min = -128;
	d->act_max = 127;
	d->requant.mult = (int32_t)t_range(1u << 29, (1u << 31) - 1);
	d->requant.shift = (int32_t)t_range(2, 10);
}

static void make_case(struct dpu_case *c, uint32_t op)
{
	struct vpux_hw_dpu_desc *d = &c->d;

	base_desc(d, op);
	switch (op) {
	case VPUX_DPU_OP_CONV:
		d->out_c = (uint16_t)t_range(1, 16);
		d->kernel_h = (uint16_t)t_range(1, 3);
		d->kernel_w = (uint16_t)t_range(1, 3);
		d->pad_top = d->pad_bottom = d->kernel_h / 2;
		d->pad_left = d->pad_right = d->kernel_w / 2;
		d->out_h = d->in_h + d->pad_top + d->pad_bottom - d->kernel_h + 1;
		d->out_w = d->in_w + d->pad_left + d->pad_right - d->kernel_w + 1;
		d->flags |= VPUX_DPU_F_BIAS;
		d->in_zp = (int32_t)t_range(0, 10) - 5;
		break;
	case VPUX_DPU_OP_MATMUL:
		d->out_c = (uint16_t)t_range(1, 16);
		d->flags |= VPUX_DPU_F_PER_CHANNEL;
		d->requant.mult = 0;
		d->requant.shift = 0;
		break;
	case VPUX_DPU_OP_ADD:
		d->in_scale.mult = 1 << 30;
		d->in_scale.shift = 0;
		d->in2_scale.mult = 1 << 30;
		d->in2_scale.shift = 0;
		break;
	case VPUX_DPU_OP_MAXPOOL:
		d->flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_OUT_SIGNED;
		d->kernel_h = d->kernel_w = 2;
		d->stride_h = d->stride_w = 1;
		d->in_h += 1;
		d->in_w += 1;
		d->requant.mult = 1 << 30;
		d->requant.shift = -1;
		break;
	}
}

static void case_alloc(struct dpu_case *c)
{
	struct t_buf *b[5] = { &c->in, &c->in2, &c->bias, &c->quant, &c->out };
	uint64_t len[5];
	int i;

	len[0] = c->ext.in;
	len[1] = c->ext.in2;
	len[2] = c->ext.bias;
	len[3] = c->ext.quant;
	len[4] = c->ext.out;
	for (i = 0; i < 5; i++) {
		memset(b[i], 0, sizeof(*b[i]));
		if (!len[i])
			continue;
		t_buf_alloc(&t, b[i], len[i], i == 4);
		t_fill(b[i]->ptr, b[i]->size);
	}
	if (c->ext.quant) {
		struct vpux_hw_requant *q = (void *)c->quant.ptr;
		uint32_t k;

		for (k = 0; k < c->d.out_c; k++) {
			q[k].mult = (int32_t)t_range(1u << 29, (1u << 31) - 1);
			q[k].shift = (int32_t)t_range(4, 12);
		}
	}
	if (c->ext.bias) {
		int32_t *bias = (void *)c->bias.ptr;
		uint32_t k;

		for (k = 0; k < c->d.out_c; k++)
			bias[k] = (int32_t)t_range(0, 2000) - 1000;
	}
	c->d.in = c->in.va;
	c->d.in2 = c->in2.va;
	c->d.bias = c->bias.va;
	c->d.quant = c->quant.va;
	c->d.out = c->out.va;
}

static void case_free(struct dpu_case *c)
{
	struct t_buf *b[5] = { &c->in, &c->in2, &c->bias, &c->quant, &c->out };
	int i;

	for (i = 0; i < 5; i++)
		if (b[i]->size)
			t_buf_free(&t, b[i]);
}

/* Run the reference on host pointers of the case's buffers. */
static int case_ref(const struct dpu_case *c, uint8_t *out)
{
	struct vpux_dpu_operands o;

	memset(&o, 0, sizeof(o));
	o.in = c->in.ptr;
	o.in2 = c->in2.ptr;
	o.bias = (const int32_t *)(const void *)c->bias.ptr;
	o.quant = (const void *)c->quant.ptr;
	o.out = out;
	return vpux_ref_dpu_run(&c->d, &o);
}

static void test_dpu_ddr(void)
{
	static const char *const names[] = { "CONV", "MATMUL", "ADD", "", "MAXPOOL" };
	static const uint32_t ops[] = { VPUX_DPU_OP_CONV, VPUX_DPU_OP_MATMUL,
					VPUX_DPU_OP_ADD, VPUX_DPU_OP_MAXPOOL };
	unsigned int k;

	for (k = 0; k < 4; k++) {
		int i, ok_st = 0, ok_ref = 0, ok_cyc = 0, n_ref = 0, valid = 0;

		for (i = 0; i < 10; i++) {
			struct dpu_case c;
			uint32_t e = dpu0 + (uint32_t)i % t.n_dpu, st;
			uint8_t *want;

			make_case(&c, ops[k]);
			if (vpux_dpu_extents(&c.d, &c.ext))
				continue;
			valid++;
			case_alloc(&c);
			st = t_run_step(&t, e, &c.d, sizeof(c.d));
			ok_st += st == T_DONE;
			ok_cyc += t_eng(&t, e, VPUX_ENG_OP_CYCLES) ==
				  (uint32_t)vpux_dpu_cycles(&c.d);
			if (vpux_ref_dpu_run) {
				want = calloc(1, c.ext.out);
				n_ref++;
				if (!case_ref(&c, want) &&
				    !memcmp(want, c.out.ptr, c.ext.out))
					ok_ref++;
				free(want);
			}
			case_free(&c);
		}
		tap_check(valid == 10, "%s: generated descriptors valid (%d)", names[ops[k]], valid);
		tap_check(ok_st == valid, "%s through the DPU engine: DONE (%d/%d)",
			  names[ops[k]], ok_st, valid);
		tap_check(ok_cyc == valid, "%s: OP_CYCLES = vpux_dpu_cycles", names[ops[k]]);
		if (n_ref)
			tap_check(ok_ref == n_ref, "%s: output equals the reference (%d/%d)",
				  names[ops[k]], ok_ref, n_ref);
		else
			tap_skip("ref/ not linked: no reference comparison");
	}
}

/* Operands staged in CMX by DMA, output DMA'd back. */
static void test_dpu_cmx(void)
{
	struct dpu_case c;
	struct vpux_hw_dpu_desc d;
	struct t_buf outb;
	uint64_t cmx = t.cmx_base;
	struct vpux_hw_dma_desc dma;
	uint32_t st;
	uint8_t *want;

	make_case(&c, VPUX_DPU_OP_CONV);
	if (vpux_dpu_extents(&c.d, &c.ext)) {
		tap_check(0, "conv case valid");
		return;
	}
	case_alloc(&c);
	d = c.d;
	d.in = cmx + 3;			/* unaligned bytes are fine */
	d.in2 = cmx + 65536;
	d.bias = cmx + 2 * 65536 + 2;	/* unaligned int32: copied, not used in place */
	d.out = cmx + t.cmx_size + 100;	/* second tile */
	dma = t_dma_1d(c.in.va, d.in, (uint32_t)c.ext.in);
	st = t_run_step(&t, 0, &dma, sizeof(dma));
	dma = t_dma_1d(c.in2.va, d.in2, (uint32_t)c.ext.in2);
	st |= t_run_step(&t, 1, &dma, sizeof(dma));
	dma = t_dma_1d(c.bias.va, d.bias, (uint32_t)c.ext.bias);
	st |= t_run_step(&t, 0, &dma, sizeof(dma));
	st |= t_run_step(&t, dpu0, &d, sizeof(d));
	t_buf_alloc(&t, &outb, c.ext.out, true);
	dma = t_dma_1d(d.out, outb.va, (uint32_t)c.ext.out);
	st |= t_run_step(&t, 1, &dma, sizeof(dma));
	tap_check(st == T_DONE, "CMX-resident CONV: DMA in, DPU, DMA out");
	if (vpux_ref_dpu_run) {
		want = calloc(1, c.ext.out);
		tap_check(!case_ref(&c, want) && !memcmp(want, outb.ptr, c.ext.out),
			  "CMX-resident CONV equals the reference");
		free(want);
	} else {
		tap_skip("ref/ not linked");
	}
	t_buf_free(&t, &outb);
	case_free(&c);
}

static void test_dpu_errors(void)
{
	struct dpu_case c;
	uint8_t *snap;
	uint32_t st;

	make_case(&c, VPUX_DPU_OP_CONV);
	vpux_dpu_extents(&c.d, &c.ext);
	case_alloc(&c);
	snap = malloc(c.out.size);
	memcpy(snap, c.out.ptr, c.out.size);

	c.d.reserved0 = 1;
	st = t_run_step(&t, dpu0, &c.d, sizeof(c.d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC), "DPU bad descriptor: DESC (%#x)", st);
	c.d.reserved0 = 0;

	/* output read-only: fault, nothing stored */
	vpux_host_vm_map(t.vm, c.out.va, c.out.pa, c.out.size, false);
	st = t_run_step(&t, dpu0, &c.d, sizeof(c.d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  (t_reg(&t, VPUX_REG_FAULT_STATUS) >> VPUX_FAULT_REASON_SHIFT & 0xf) ==
		  VPUX_FAULT_REASON_READONLY && !memcmp(snap, c.out.ptr, c.out.size),
		  "DPU read-only output: MMU fault, output untouched");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	vpux_host_vm_map(t.vm, c.out.va, c.out.pa, c.out.size, true);

	/* weights unmapped */
	vpux_host_vm_unmap(t.vm, c.in2.va, c.in2.size);
	st = t_run_step(&t, dpu0 + 1, &c.d, sizeof(c.d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  t_reg(&t, VPUX_REG_FAULT_ADDR_LO) == (uint32_t)c.in2.va &&
		  !memcmp(snap, c.out.ptr, c.out.size),
		  "DPU unmapped weights: fault at the weights, output untouched");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	vpux_host_vm_map(t.vm, c.in2.va, c.in2.pa, c.in2.size, false);

	/* injected fault, then the same op succeeds */
	t_wreg(&t, VPUX_REG_INJECT, dpu0 | VPUX_INJECT_MMU_FAULT << 8 | 1 << 16);
	st = t_run_step(&t, dpu0, &c.d, sizeof(c.d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  (t_reg(&t, VPUX_REG_FAULT_STATUS) >> VPUX_FAULT_REASON_SHIFT & 0xf) ==
		  VPUX_FAULT_REASON_INJECTED, "DPU injected fault");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	st = t_run_step(&t, dpu0, &c.d, sizeof(c.d));
	tap_check(st == T_DONE, "DPU op after the faults works");
	free(snap);
	case_free(&c);
}

static void test_shave(void)
{
	struct vpux_hw_shave_desc d;
	struct t_buf args;
	uint32_t st;

	t_buf_alloc(&t, &args, 4096, false);
	memset(&d, 0, sizeof(d));
	d.kernel_id = 0xffff;
	d.args = args.va;
	d.args_size = 16;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_KERNEL), "SHAVE unknown kernel: KERNEL (%#x)", st);
	d.args_size = VPUX_SHAVE_ARGS_MAX + 1;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC), "SHAVE oversized args: DESC");
	d.args_size = 16;
	d.args = 0x1000;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU), "SHAVE args outside VA: MMU fault");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	t_buf_free(&t, &args);
}

#ifdef VPUX_SHAVE_KERNEL_CLAMP
/* Host-side windows for the reference: window w = host buffer win[w]. */
struct host_win {
	uint8_t *p[VPUX_SHAVE_WINDOWS];
	uint32_t size[VPUX_SHAVE_WINDOWS];
};

static int hw_read(void *ctx, u32 waddr, void *dst, u32 len)
{
	struct host_win *h = ctx;
	u32 w = VPUX_WADDR_WINDOW(waddr), off = VPUX_WADDR_OFFSET(waddr);

	if (w >= VPUX_SHAVE_WINDOWS || off > h->size[w] || len > h->size[w] - off)
		return -(int)VPUX_ENG_ERR_ARGS;
	memcpy(dst, h->p[w] + off, len);
	return 0;
}

static int hw_write(void *ctx, u32 waddr, const void *src, u32 len)
{
	struct host_win *h = ctx;
	u32 w = VPUX_WADDR_WINDOW(waddr), off = VPUX_WADDR_OFFSET(waddr);

	if (w >= VPUX_SHAVE_WINDOWS || off > h->size[w] || len > h->size[w] - off)
		return -(int)VPUX_ENG_ERR_ARGS;
	memcpy(h->p[w] + off, src, len);
	return 0;
}

static void *hw_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size);
}

static void hw_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static void memref_hwc(struct vpux_memref *m, uint32_t waddr, uint32_t h,
		       uint32_t w, uint32_t c)
{
	memset(m, 0, sizeof(*m));
	m->addr = waddr;
	m->is_static = 1;
	m->rank = 3;
	m->data_type = VPUX_SHAVE_DT_I8;
	m->dims_order = VPUX_ORDER_HWC;
	m->dims[0] = c;
	m->dims[1] = h;
	m->dims[2] = w;
	/* logical dims C, H, W; memory order H, W, C (C innermost) */
	m->strides[0] = 8;
	m->strides[2] = 8ull * c;
	m->strides[1] = 8ull * c * w;
}

static void test_shave_clamp(void)
{
	struct vpux_shave_clamp_args a;
	struct vpux_hw_shave_desc d;
	struct t_buf args, in, out;
	uint32_t h = 5, w = 7, c = 13, n = h * w * c, st, e;
	int round, ok = 0, ok_ref = 0, n_ref = 0;

	t_buf_alloc(&t, &args, sizeof(a), false);
	t_buf_alloc(&t, &in, n, false);
	t_buf_alloc(&t, &out, n, true);
	for (round = 0; round < 4; round++) {
		e = shave0 + (uint32_t)round % t.n_shave;
		t_fill(in.ptr, n);
		memset(&a, 0, sizeof(a));
		memref_hwc(&a.in, VPUX_WADDR(2, 16), h, w, c);
		memref_hwc(&a.out, VPUX_WADDR(5, 0), h, w, c);
		a.min = -(int32_t)t_range(0, 100);
		a.max = (int32_t)t_range(0, 100);
		memcpy(args.ptr, &a, sizeof(a));
		memset(&d, 0, sizeof(d));
		d.kernel_id = VPUX_SHAVE_KERNEL_CLAMP;
		d.args = args.va;
		d.args_size = sizeof(a);
		d.window_base[2] = in.va - 16;
		d.window_size[2] = n + 16;
		/* output staged in CMX on odd rounds */
		d.window_base[5] = round & 1 ? t.cmx_base + 4096 : out.va;
		d.window_size[5] = n;
		st = t_run_step(&t, e, &d, sizeof(d));
		if (round & 1) {
			struct vpux_hw_dma_desc dma = t_dma_1d(t.cmx_base + 4096, out.va, n);

			st |= t_run_step(&t, 0, &dma, sizeof(dma));
		}
		ok += st == T_DONE;
		if (vpux_ref_shave_run) {
			struct host_win hw;
			struct vpux_shave_mem mem = { &hw, hw_read, hw_write, hw_alloc,
						      hw_free, NULL };
			uint8_t *want = calloc(1, n);

			memset(&hw, 0, sizeof(hw));
			hw.p[2] = in.ptr - 16;
			hw.size[2] = n + 16;
			hw.p[5] = want;
			hw.size[5] = n;
			n_ref++;
			if (!vpux_ref_shave_run(VPUX_SHAVE_KERNEL_CLAMP, &a, sizeof(a), &mem) &&
			    !memcmp(want, out.ptr, n))
				ok_ref++;
			free(want);
		}
	}
	tap_check(ok == 4, "SHAVE CLAMP through the engine: DONE (%d/4)", ok);
	if (n_ref)
		tap_check(ok_ref == n_ref, "SHAVE CLAMP output equals the reference (%d/%d)",
			  ok_ref, n_ref);
	else
		tap_skip("ref/ not linked");

	/* output window one byte short: ARGS, nothing stored */
	memset(out.ptr, 0x5a, n);
	d.window_base[5] = out.va;
	d.window_size[5] = n - 1;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_ARGS), "SHAVE window too small: ARGS (%#x)", st);
	/* output window on a read-only page: MMU fault */
	d.window_size[5] = n;
	d.window_base[5] = in.va;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  (t_reg(&t, VPUX_REG_FAULT_STATUS) >> VPUX_FAULT_REASON_SHIFT & 0xf) ==
		  VPUX_FAULT_REASON_READONLY, "SHAVE store to read-only window: MMU fault");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	d.args_size = sizeof(a) - 8;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_ARGS), "SHAVE wrong args_size: ARGS (%#x)", st);
	t_buf_free(&t, &args);
	t_buf_free(&t, &in);
	t_buf_free(&t, &out);
}
#else
static void test_shave_clamp(void)
{
	tap_skip("vpux_shave_abi.h not in the tree");
}
#endif

int main(void)
{
	t_seed(0xc0ffee);
	if (t_open(&t, NULL, true))
		return 1;
	dpu0 = t.n_dma;
	shave0 = t.n_dma + t.n_dpu;
	test_dpu_ddr();
	test_dpu_cmx();
	test_dpu_errors();
	test_shave();
	test_shave_clamp();
	t_close(&t);
	return tap_finish();
}
