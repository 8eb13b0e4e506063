// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DPU kernels: known answers for the reference on hand-computed cases,
 * the optimised kernels against the reference on randomised shapes
 * (fixed seeds), every descriptor validation rule, and the requant
 * primitive. TAP output.
 */
#include "vpux_tap.h"
#include "ops_test.h"

#define RQ(m, s)	((struct vpux_hw_requant){ .mult = (m), .shift = (s) })
#define RQ_ONE		RQ(1 << 30, -1)		/* x 1.0 */
#define RQ_HALF		RQ(1 << 30, 0)		/* x 0.5 */

static unsigned int yields;
static unsigned long long n_out, n_inside;	/* outputs not clamped */

static bool count_yield(void *arg)
{
	(void)arg;
	yields++;
	return false;
}

static void base_desc(struct vpux_hw_dpu_desc *d, u32 op)
{
	memset(d, 0, sizeof(*d));
	d->op = op;
	d->in_c = d->out_c = 1;
	d->in_h = d->in_w = d->out_h = d->out_w = 1;
	d->kernel_h = d->kernel_w = 1;
	d->stride_h = d->stride_w = 1;
	d->dilation_h = d->dilation_w = 1;
	d->groups = 1;
	d->requant = RQ_ONE;
	d->act_min = 0;
	d->act_max = 255;
}

static void set_signed_out(struct vpux_hw_dpu_desc *d)
{
	d->flags |= VPUX_DPU_F_OUT_SIGNED;
	d->act_min = -128;
	d->act_max = 127;
}

/* run the reference on tiny operands and compare with @want */
static void kat(const char *name, const struct vpux_hw_dpu_desc *d,
		const void *in, const void *in2, const s32 *bias,
		const struct vpux_hw_requant *quant, const s32 *want)
{
	struct vpux_dpu_extents e;
	u8 out[64], out2[64];
	struct vpux_dpu_operands o = {
		.in = in, .in2 = in2, .bias = bias, .quant = quant, .out = out,
	};
	bool out_s = d->flags & VPUX_DPU_F_OUT_SIGNED;
	bool i32 = d->flags & VPUX_DPU_F_OUT_I32;
	int ret, ret2, ok = 1;
	u64 i;

	ret = vpux_dpu_extents(d, &e);
	if (!tap_check(ret == 0 && e.out <= sizeof(out), "kat %s: valid", name))
		return;
	ret = vpux_ref_dpu_run(d, &o);
	for (i = 0; i < e.out / (i32 ? 4 : 1); i++) {
		s32 v = i32 ? (s32)((u32)out[4 * i] | (u32)out[4 * i + 1] << 8 |
				    (u32)out[4 * i + 2] << 16 |
				    (u32)out[4 * i + 3] << 24) :
			out_s ? (s32)(s8)out[i] : (s32)out[i];

		if (v != want[i]) {
			tap_diag("%s: out[%llu] = %d, want %d", name,
				 (unsigned long long)i, v, want[i]);
			ok = 0;
		}
	}
	tap_check(ret == 0 && ok, "kat %s: reference", name);
	o.out = out2;
	ret2 = vpux_dpu_run(d, &o);
	tap_check(ret2 == 0 && !memcmp(out, out2, e.out), "kat %s: optimised",
		  name);
}

static void test_requant(void)
{
	static const struct {
		s64 acc;
		struct vpux_hw_requant q;
		s32 want;
	} t[] = {
		{ 5, RQ_ONE, 5 }, { -5, RQ_ONE, -5 },
		{ 3, RQ_HALF, 2 }, { -3, RQ_HALF, -1 },	/* ties to +inf */
		{ 1, RQ_HALF, 1 }, { -1, RQ_HALF, 0 },
		{ 2, RQ_HALF, 1 }, { -2, RQ_HALF, -1 },
		{ 1000, RQ(0x7fffffff, 7), 8 },		/* 7.8125 -> 8 */
		{ 100, RQ(1 << 30, -8), 100 << 7 },	/* left shift */
		{ 1, RQ(1 << 30, -31), 1 << 30 },		/* n = 0 */
		{ 3, RQ(1 << 30, -31), 0x7fffffff },	/* saturates high */
		{ -3, RQ(1 << 30, -31), VPUX_S32_MIN },	/* saturates low */
		{ (s64)1 << 40, RQ_ONE, 0x7fffffff },	/* acc saturated first */
		{ -((s64)1 << 40), RQ_ONE, VPUX_S32_MIN },
		{ 0x7fffffff, RQ(1 << 30, 31), 0 },	/* 2^61 - x / 2^62 */
		{ 0x7fffffff, RQ(0x7fffffff, 31), 1 },
		{ VPUX_S32_MIN, RQ(0x7fffffff, 31), -1 },
		{ 77, RQ(0x50000000, 3), 6 },		/* 77*0.625/8 = 6.015 */
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s32 v = vpux_requant(t[i].acc, &t[i].q);

		tap_check(v == t[i].want, "requant %lld * %d >> %d = %d (want %d)",
			  (long long)t[i].acc, t[i].q.mult, 31 + t[i].q.shift,
			  v, t[i].want);
	}
}

static void test_kat(void)
{
	struct vpux_hw_dpu_desc d;

	{	/* 3x3 input, 2x2 ones kernel, no padding */
		static const u8 in[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
		static const u8 w[4] = { 1, 1, 1, 1 };
		static const s32 want[4] = { 12, 16, 24, 28 };

		base_desc(&d, VPUX_DPU_OP_CONV);
		d.in_h = d.in_w = 3;
		d.kernel_h = d.kernel_w = 2;
		d.out_h = d.out_w = 2;
		kat("conv 3x3 k2", &d, in, w, NULL, NULL, want);
	}
	{	/* int32 output: the raw accumulators, bias added */
		static const u8 in[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
		static const s8 w[4] = { 1, -1, 2, -2 };
		static const s32 bias[1] = { -1000 };
		/* (x - 2)(w + 1) summed, + bias */
		static const s32 want[4] = { -999, -995, -987, -983 };

		base_desc(&d, VPUX_DPU_OP_CONV);
		d.flags = VPUX_DPU_F_OUT_I32 | VPUX_DPU_F_W_SIGNED |
			  VPUX_DPU_F_BIAS;
		d.in_h = d.in_w = 3;
		d.kernel_h = d.kernel_w = 2;
		d.out_h = d.out_w = 2;
		d.in_zp = 2;
		d.in2_zp = -1;
		d.requant = RQ(0, 0);
		d.act_min = d.act_max = 0;
		kat("conv int32 out", &d, in, w, bias, NULL, want);
	}
	{	/* int32 output saturates; matmul */
		static const u8 in[2] = { 255, 255 };
		static const u8 w[4] = { 255, 255, 0, 0 };
		static const s32 bias[2] = { 0x7fffffff - 1000, -0x7fffffff };
		static const s32 want[2] = { 0x7fffffff, -0x7fffffff };

		base_desc(&d, VPUX_DPU_OP_MATMUL);
		d.flags = VPUX_DPU_F_OUT_I32 | VPUX_DPU_F_BIAS;
		d.in_c = 2;
		d.out_c = 2;
		d.requant = RQ(0, 0);
		d.act_min = d.act_max = 0;
		kat("matmul int32 out saturates", &d, in, w, bias, NULL, want);
	}
	{	/* zero points, bias, out_zp, padding 1 around a 1x1 input */
		static const u8 in[1] = { 10 };
		static const u8 w[9] = { 2, 2, 2, 2, 2, 2, 2, 2, 2 };
		static const s32 bias[1] = { 100 };
		static const s32 want[1] = { 7 + 100 + 5 };

		base_desc(&d, VPUX_DPU_OP_CONV);
		d.flags = VPUX_DPU_F_BIAS;
		d.kernel_h = d.kernel_w = 3;
		d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 1;
		d.in_zp = 3;
		d.in2_zp = 1;
		d.out_zp = 5;
		kat("conv zp bias pad", &d, in, w, bias, NULL, want);
	}
	{	/* padding larger than the kernel: border outputs are bias only */
		static const u8 in[1] = { 3 };
		static const u8 w[1] = { 2 };
		static const s32 bias[1] = { 4 };
		s32 want[25];
		int i;

		for (i = 0; i < 25; i++)
			want[i] = i == 12 ? 10 : 4;
		base_desc(&d, VPUX_DPU_OP_CONV);
		d.flags = VPUX_DPU_F_BIAS;
		d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 2;
		d.out_h = d.out_w = 5;
		kat("conv pad > kernel", &d, in, w, bias, NULL, want);
	}
	{	/* stride 2 on 1x5 */
		static const u8 in[5] = { 1, 2, 3, 4, 5 };
		static const u8 w[3] = { 1, 10, 100 };
		static const s32 want[2] = { 127, 127 };	/* clamp */

		base_desc(&d, VPUX_DPU_OP_CONV);
		d.in_w = 5;
		d.kernel_w = 3;
		d.stride_w = 2;
		d.out_w = 2;
		d.act_max = 127;
		kat("conv stride clamp", &d, in, w, NULL, NULL, want);
	}
	{	/* dilation 3 along w */
		static const u8 in[5] = { 1, 2, 3, 4, 5 };
		static const u8 w[2] = { 1, 1 };
		static const s32 want[2] = { 5, 7 };

		base_desc(&d, VPUX_DPU_OP_CONV);
		d.in_w = 5;
		d.kernel_w = 2;
		d.dilation_w = 3;
		d.out_w = 2;
		kat("conv dilation", &d, in, w, NULL, NULL, want);
	}
	{	/* two groups of two channels */
		static const u8 in[4] = { 1, 2, 3, 4 };
		static const u8 w[4] = { 1, 1, 1, 2 };
		static const s32 want[2] = { 3, 11 };

		base_desc(&d, VPUX_DPU_OP_CONV);
		d.in_c = 4;
		d.out_c = 2;
		d.groups = 2;
		kat("conv groups", &d, in, w, NULL, NULL, want);
	}
	{	/* depthwise, signed weights, per-channel requant */
		static const u8 in[2] = { 5, 7 };
		static const s8 w[2] = { 2, -3 };
		static const struct vpux_hw_requant q[2] = { RQ_ONE, RQ_HALF };
		static const s32 want[2] = { 10, -10 };	/* -10.5 -> -10 */

		base_desc(&d, VPUX_DPU_OP_CONV);
		d.flags = VPUX_DPU_F_W_SIGNED | VPUX_DPU_F_PER_CHANNEL;
		set_signed_out(&d);
		d.requant = RQ(0, 0);
		d.in_c = d.out_c = d.groups = 2;
		kat("conv depthwise per-channel", &d, in, w, NULL, q, want);
	}
	{	/* matmul 2x2 */
		static const u8 in[4] = { 1, 2, 3, 4 };
		static const s8 w[4] = { 1, 0, 1, -1 };
		static const s32 want[4] = { 1, -1, 3, -1 };

		base_desc(&d, VPUX_DPU_OP_MATMUL);
		d.flags = VPUX_DPU_F_W_SIGNED;
		set_signed_out(&d);
		d.in_h = d.out_h = 2;
		d.in_c = d.out_c = 2;
		kat("matmul", &d, in, w, NULL, NULL, want);
	}
	{	/* add: 10 * 1 + (30 - 10) * 0.5 = 20, then * 0.5 = 10 */
		static const u8 a[1] = { 10 }, b[1] = { 30 };
		static const s32 want[1] = { 10 + 2 };

		base_desc(&d, VPUX_DPU_OP_ADD);
		d.in2_zp = 10;
		d.out_zp = 2;
		d.in_scale = RQ_ONE;
		d.in2_scale = RQ_HALF;
		d.requant = RQ_HALF;
		kat("add", &d, a, b, NULL, NULL, want);
	}
	{	/* mul: -3 * 5 = -15, * 0.5 = -7.5 -> -7 */
		static const s8 a[2] = { -3, 4 }, b[2] = { 5, 5 };
		static const s32 want[2] = { -7, 10 };

		base_desc(&d, VPUX_DPU_OP_MUL);
		d.flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED;
		set_signed_out(&d);
		d.in_c = d.out_c = 2;
		d.requant = RQ_HALF;
		kat("mul", &d, a, b, NULL, NULL, want);
	}
	{	/* maxpool 2x2 stride 2, signed, with zero point */
		static const s8 in[8] = { 1, -9, 5, -8, 3, -7, 2, -6 };
		static const s32 want[2] = { 5 - 1, -6 - 1 };

		base_desc(&d, VPUX_DPU_OP_MAXPOOL);
		d.flags = VPUX_DPU_F_IN_SIGNED;
		set_signed_out(&d);
		d.in_c = d.out_c = 2;
		d.in_h = d.in_w = 2;
		d.kernel_h = d.kernel_w = 2;
		d.stride_h = d.stride_w = 2;
		d.in_zp = 1;
		kat("maxpool", &d, in, NULL, NULL, NULL, want);
	}
	{	/* avgpool 3x3 pad 1 on 2x2: padding excluded, ties away from 0 */
		static const s8 in[12] = { 1, -1, 1, 2, -1, 1, 3, 0, 0,
					   5, 0, 1 };
		/* ch0: 11/4 -> 3, ch1: -2/4 -> -1 (-0.5), ch2: 3/4 -> 1 */
		static const s32 want[12] = { 3, -1, 1, 3, -1, 1, 3, -1, 1,
					      3, -1, 1 };

		base_desc(&d, VPUX_DPU_OP_AVGPOOL);
		d.flags = VPUX_DPU_F_IN_SIGNED;
		set_signed_out(&d);
		d.in_c = d.out_c = 3;
		d.in_h = d.in_w = 2;
		d.out_h = d.out_w = 2;
		d.kernel_h = d.kernel_w = 3;
		d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 1;
		kat("avgpool", &d, in, NULL, NULL, NULL, want);
	}
	{	/* avgpool whose windows see only padding: result 0 + out_zp */
		static const u8 in[1] = { 200 };
		static const s32 want[9] = { 9, 9, 9, 9, 209, 9, 9, 9, 9 };

		base_desc(&d, VPUX_DPU_OP_AVGPOOL);
		d.out_zp = 9;
		d.out_h = d.out_w = 3;
		d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 1;
		kat("avgpool all-padding windows", &d, in, NULL, NULL, NULL, want);
	}
}

/* ---- randomised comparison ---- */

static void rand_requant(struct vpux_hw_requant *q, s32 lo, s32 hi)
{
	q->mult = ot_range(1 << 29, 0x7fffffff);
	q->shift = ot_range(lo, hi);
	if (ot_rand() % 16 == 0)	/* rare extremes */
		q->shift = ot_rand() % 2 ? -31 : 31;
}

/* flags, zero points, requant, clamp for a random op */
static void rand_quant(struct vpux_hw_dpu_desc *d, u32 allowed, s32 sh_lo,
		       s32 sh_hi)
{
	bool in_s, w_s, out_s;
	s32 a, b;

	d->flags = ot_rand() & allowed & ~VPUX_DPU_F_OUT_I32;
	/* one CONV/MATMUL in eight writes int32 accumulators */
	if ((allowed & VPUX_DPU_F_OUT_I32) && d->op <= VPUX_DPU_OP_MATMUL &&
	    !(ot_rand() % 8))
		d->flags = (d->flags | VPUX_DPU_F_OUT_I32) &
			   ~(VPUX_DPU_F_OUT_SIGNED | VPUX_DPU_F_PER_CHANNEL);
	in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	out_s = d->flags & VPUX_DPU_F_OUT_SIGNED;
	d->in_zp = ot_rand() % 4 ? ot_range(vpux_q8_min(in_s), vpux_q8_max(in_s)) : 0;
	if (d->op != VPUX_DPU_OP_MAXPOOL && d->op != VPUX_DPU_OP_AVGPOOL)
		d->in2_zp = ot_rand() % 3 ? ot_range(vpux_q8_min(w_s),
						     vpux_q8_max(w_s)) : 0;
	d->out_zp = ot_range(vpux_q8_min(out_s), vpux_q8_max(out_s));
	a = ot_range(vpux_q8_min(out_s), vpux_q8_max(out_s));
	b = ot_range(vpux_q8_min(out_s), vpux_q8_max(out_s));
	if (ot_rand() % 2) {
		d->act_min = vpux_q8_min(out_s);
		d->act_max = vpux_q8_max(out_s);
	} else {
		d->act_min = a < b ? a : b;
		d->act_max = a < b ? b : a;
	}
	if (d->flags & VPUX_DPU_F_PER_CHANNEL)
		d->requant = RQ(0, 0);
	else
		rand_requant(&d->requant, sh_lo, sh_hi);
	if (d->flags & VPUX_DPU_F_OUT_I32) {
		d->requant = RQ(0, 0);
		d->out_zp = d->act_min = d->act_max = 0;
	}
	if (d->op == VPUX_DPU_OP_ADD) {
		rand_requant(&d->in_scale, -8, -2);
		rand_requant(&d->in2_scale, -8, -2);
	}
}

static u16 rand_dim(u32 max)
{
	switch (ot_rand() % 6) {
	case 0:
		return 1;
	case 1:
		return (u16)max;
	default:
		return (u16)ot_range(1, (s32)max);
	}
}

static u16 out_dim(u32 in, u32 k, u32 s, u32 pa, u32 pb, u32 dil)
{
	return (u16)((in + pa + pb - dil * (k - 1) - 1) / s + 1);
}

/* a random windowed geometry; returns false if the window does not fit */
static bool rand_window(struct vpux_hw_dpu_desc *d, u32 maxk)
{
	d->kernel_h = rand_dim(maxk);
	d->kernel_w = rand_dim(maxk);
	d->stride_h = rand_dim(3);
	d->stride_w = rand_dim(3);
	d->dilation_h = ot_rand() % 4 ? 1 : rand_dim(3);
	d->dilation_w = ot_rand() % 4 ? 1 : rand_dim(3);
	d->pad_top = ot_rand() % 3 ? 0 : rand_dim(maxk + 2);
	d->pad_bottom = ot_rand() % 3 ? 0 : rand_dim(maxk + 2);
	d->pad_left = ot_rand() % 3 ? 0 : rand_dim(maxk + 2);
	d->pad_right = ot_rand() % 3 ? 0 : rand_dim(maxk + 2);
	if ((u32)d->in_h + d->pad_top + d->pad_bottom <
	    d->dilation_h * (d->kernel_h - 1u) + 1u)
		return false;
	if ((u32)d->in_w + d->pad_left + d->pad_right <
	    d->dilation_w * (d->kernel_w - 1u) + 1u)
		return false;
	d->out_h = out_dim(d->in_h, d->kernel_h, d->stride_h, d->pad_top,
			   d->pad_bottom, d->dilation_h);
	d->out_w = out_dim(d->in_w, d->kernel_w, d->stride_w, d->pad_left,
			   d->pad_right, d->dilation_w);
	return true;
}

static bool rand_desc(struct vpux_hw_dpu_desc *d, u32 op)
{
	static const u16 gdiv[] = { 1, 2, 3, 4 };

	memset(d, 0, sizeof(*d));
	d->op = op;
	d->in_h = rand_dim(12);
	d->in_w = rand_dim(12);
	d->groups = 1;
	switch (op) {
	case VPUX_DPU_OP_CONV:
		switch (ot_rand() % 3) {
		case 0:	/* dense */
			d->in_c = rand_dim(40);
			d->out_c = rand_dim(40);
			break;
		case 1:	/* depthwise, sometimes with a channel multiplier */
			d->in_c = d->groups = rand_dim(40);
			d->out_c = d->in_c * (ot_rand() % 3 ? 1 : 2);
			break;
		default: /* grouped */
			d->groups = gdiv[ot_rand() % 4];
			d->in_c = d->groups * rand_dim(9);
			d->out_c = d->groups * rand_dim(9);
			break;
		}
		if (!rand_window(d, 5))
			return false;
		rand_quant(d, VPUX_DPU_F_INT_ALL, 2, 16);
		break;
	case VPUX_DPU_OP_MATMUL:
		d->in_c = rand_dim(300);
		d->out_c = rand_dim(40);
		d->out_h = d->in_h;
		d->out_w = d->in_w;
		rand_quant(d, VPUX_DPU_F_INT_ALL, 10, 15);
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_MUL:
		d->in_c = d->out_c = rand_dim(70);
		d->out_h = d->in_h;
		d->out_w = d->in_w;
		rand_quant(d, VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED |
			   VPUX_DPU_F_OUT_SIGNED | VPUX_DPU_F_PER_CHANNEL,
			   op == VPUX_DPU_OP_MUL ? 5 : 0, op == VPUX_DPU_OP_MUL ? 9 : 6);
		break;
	default:
		d->in_c = d->out_c = rand_dim(300);
		if (!rand_window(d, 4))
			return false;
		rand_quant(d, VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_OUT_SIGNED, -3, 3);
		break;
	}
	return true;
}

static const char *const op_name[] = {
	"conv", "matmul", "add", "mul", "maxpool", "avgpool", "sub",
};

static int compare_one(const struct vpux_hw_dpu_desc *d, unsigned int n)
{
	struct vpux_dpu_extents e;
	struct vpux_dpu_operands o = { .yield = count_yield };
	struct vpux_hw_requant *q = NULL;
	u8 *out_ref, *out_opt;
	unsigned int y_ref, y_opt;
	int r1, r2, ok;
	u64 i;

	if (vpux_dpu_extents(d, &e)) {
		tap_diag("case %u: generator made an invalid descriptor", n);
		return 0;
	}
	o.in = ot_alloc_rand(e.in);
	o.in2 = e.in2 ? ot_alloc_rand(e.in2) : NULL;
	o.bias = e.bias ? ot_alloc_rand(e.bias) : NULL;
	if (o.bias) {	/* keep biases moderate, with a few extremes */
		s32 *b = (s32 *)o.bias;

		for (i = 0; i < d->out_c; i++)
			b[i] = ot_rand() % 8 ? ot_range(-100000, 100000) :
			       (s32)ot_rand();
	}
	if (e.quant) {
		q = malloc(e.quant);
		for (i = 0; i < d->out_c; i++)
			rand_requant(&q[i], d->op == VPUX_DPU_OP_MUL ? 5 :
				     d->op == VPUX_DPU_OP_ADD ? 0 : 6,
				     d->op == VPUX_DPU_OP_MUL ? 9 :
				     d->op == VPUX_DPU_OP_ADD ? 6 : 13);
		o.quant = q;
	}
	out_ref = malloc(e.out);
	out_opt = malloc(e.out);
	memset(out_ref, 0xa5, e.out);
	memset(out_opt, 0x5a, e.out);

	yields = 0;
	o.out = out_ref;
	r1 = vpux_ref_dpu_run(d, &o);
	y_ref = yields;
	yields = 0;
	o.out = out_opt;
	r2 = vpux_dpu_run(d, &o);
	y_opt = yields;
	ok = r1 == 0 && r2 == 0 && !memcmp(out_ref, out_opt, e.out) &&
	     y_ref && y_opt;
	/* int32 outputs are never clamped: the statistic is the 8-bit ones' */
	for (i = 0; !(d->flags & VPUX_DPU_F_OUT_I32) && i < e.out; i++) {
		s32 v = d->flags & VPUX_DPU_F_OUT_SIGNED ? (s8)out_ref[i] :
			out_ref[i];

		n_out++;
		n_inside += v > d->act_min && v < d->act_max;
	}
	if (!ok) {
		for (i = 0; i < e.out; i++)
			if (out_ref[i] != out_opt[i])
				break;
		tap_diag("%s in %ux%ux%u out %ux%ux%u k %ux%u s %ux%u p %u,%u,%u,%u d %ux%u g %u flags %#x zp %d,%d,%d ret %d/%d yields %u/%u first diff %llu",
			 op_name[d->op], d->in_h, d->in_w, d->in_c, d->out_h,
			 d->out_w, d->out_c, d->kernel_h, d->kernel_w,
			 d->stride_h, d->stride_w, d->pad_top, d->pad_left,
			 d->pad_bottom, d->pad_right, d->dilation_h,
			 d->dilation_w, d->groups, d->flags, d->in_zp,
			 d->in2_zp, d->out_zp, r1, r2, y_ref, y_opt,
			 (unsigned long long)i);
	}
	free((void *)o.in);
	free((void *)o.in2);
	free((void *)o.bias);
	free(q);
	free(out_ref);
	free(out_opt);
	return ok;
}

static unsigned int mutated, mutated_ok, mutated_valid;

/*
 * Flip 1..3 bits of a valid descriptor: the result is either rejected by
 * both implementations alike or, if still valid (and small enough to
 * run), computed bit-exactly by both.
 */
static void mutate_one(const struct vpux_hw_dpu_desc *orig)
{
	struct vpux_hw_dpu_desc d = *orig;
	struct vpux_dpu_extents e;
	unsigned int k, flips = 1 + ot_rand() % 3;
	u8 *p = (u8 *)&d;

	for (k = 0; k < flips; k++) {
		u32 bit = ot_rand() % (sizeof(d) * 8);

		p[bit / 8] ^= (u8)(1u << (bit % 8));
	}
	mutated++;
	if (vpux_dpu_extents(&d, &e)) {
		static u8 buf[16];
		struct vpux_dpu_operands o = { .in = buf, .in2 = buf,
					       .out = buf };

		mutated_ok += vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
			      vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC);
		return;
	}
	if (e.in + e.in2 + e.out > (4u << 20) || e.macs > (16u << 20)) {
		mutated_ok++;	/* valid but too big to run here */
		return;
	}
	mutated_valid++;
	mutated_ok += compare_one(&d, 0);
}

static void test_random(void)
{
	static const unsigned int cases[VPUX_DPU_OPS] = { 400, 150, 150, 150,
							  200, 200 };
	u32 op;

	/* the integer ops (SUB is FP16 only: test_dpu_f16.c) */
	for (op = 0; op < VPUX_DPU_OP_SUB; op++) {
		unsigned int n = 0, pass = 0, tries = 0;
		struct vpux_hw_dpu_desc d;

		ot_seed(1000 + op);
		while (n < cases[op] && tries++ < cases[op] * 20) {
			if (!rand_desc(&d, op))
				continue;
			pass += compare_one(&d, n);
			n++;
			if (n % 2 == 0)
				mutate_one(&d);
		}
		tap_check(n == cases[op] && pass == n,
			  "random %s: %u/%u cases bit-exact with the reference",
			  op_name[op], pass, n);
		/* the generator must exercise more than saturation */
		tap_check(n_inside * 4 > n_out,
			  "random %s: %llu of %llu outputs inside the clamp range",
			  op_name[op], n_inside, n_out);
		n_inside = n_out = 0;
		tap_check(mutated_ok == mutated,
			  "random %s: %u/%u bit-flipped descriptors handled alike (%u still valid)",
			  op_name[op], mutated_ok, mutated, mutated_valid);
		mutated = mutated_ok = mutated_valid = 0;
	}
}

/* large shapes: long dot products near VPUX_DPU_MAX_K, big channel counts */
static void test_large(void)
{
	struct vpux_hw_dpu_desc d;

	ot_seed(77);
	base_desc(&d, VPUX_DPU_OP_CONV);
	d.in_c = 1024;
	d.out_c = 3;
	d.in_h = d.in_w = 6;
	d.kernel_h = d.kernel_w = 5;
	d.pad_top = d.pad_left = 2;
	d.out_h = d.out_w = 4;
	d.in_zp = 255;	/* extreme operands: x - zp = -255 */
	d.requant = RQ(0x7fffffff, 20);
	d.flags = VPUX_DPU_F_OUT_SIGNED;
	d.act_min = -128;
	d.act_max = 127;
	{
		struct vpux_dpu_extents e;
		struct vpux_dpu_operands o = { 0 };
		u8 *in, *w, *a, *b;

		tap_check(vpux_dpu_extents(&d, &e) == 0 &&
			  e.in2 == 25ull * 1024 * 3, "large: K = 25600 valid");
		in = calloc(1, e.in);	/* all 0: x - zp = -255 */
		w = malloc(e.in2);
		memset(w, 255, e.in2);	/* w - wz = 255 */
		a = malloc(e.out);
		b = malloc(e.out);
		o.in = in;
		o.in2 = w;
		o.out = a;
		vpux_ref_dpu_run(&d, &o);
		o.out = b;
		vpux_dpu_run(&d, &o);
		tap_check(!memcmp(a, b, e.out) && (s8)a[e.out - 1] == -128,
			  "large: accumulator extremes agree (%d)", (s8)a[0]);
		free(in);
		free(w);
		free(a);
		free(b);
	}
	for (int i = 0; i < 3; i++) {
		ot_seed(500 + i);
		base_desc(&d, i == 2 ? VPUX_DPU_OP_MATMUL : VPUX_DPU_OP_CONV);
		d.in_c = i == 1 ? 300 : 700;
		d.out_c = i == 1 ? 300 : 270;	/* > one 256-channel block */
		d.groups = i == 1 ? 300 : 1;
		d.in_h = d.in_w = d.out_h = d.out_w = 3;
		if (i != 2) {
			d.kernel_h = d.kernel_w = 3;
			d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 1;
		}
		d.in_zp = 7;
		d.in2_zp = 9;
		d.requant = RQ(0x40000000, 12);
		tap_check(compare_one(&d, 0), "large %s: %u channels",
			  i == 1 ? "depthwise" : i ? "matmul" : "conv", d.out_c);
	}
}

/* ---- validation: every rule, one mutation each ---- */

struct neg {
	const char *name;
	void (*mut)(struct vpux_hw_dpu_desc *d);
};

#define NEG(n, body) \
	static void neg_##n(struct vpux_hw_dpu_desc *d) { body; }

NEG(op, d->op = VPUX_DPU_OPS)
NEG(flags_unknown, d->flags |= 1u << 6)
NEG(flags_high, d->flags |= 1u << 31)
NEG(reserved0, d->reserved0 = 1)
NEG(reserved1, d->reserved[0] = 1)
NEG(reserved2, d->reserved[1] = 0x80000000u)
NEG(in_c0, d->in_c = 0)
NEG(in_h0, d->in_h = 0)
NEG(in_w0, d->in_w = 0)
NEG(out_c0, d->out_c = 0)
NEG(out_h0, d->out_h = 0)
NEG(out_w0, d->out_w = 0)
NEG(out_h_wrong, d->out_h++)
NEG(out_w_wrong, d->out_w--)
NEG(kernel0, d->kernel_h = 0)
NEG(kernel_big, d->kernel_w = 9)
NEG(stride0, d->stride_w = 0)
NEG(dilation0, d->dilation_h = 0)
NEG(dilation_big, d->dilation_h = 5)
NEG(pad_changes_out, d->pad_bottom = 3)
NEG(groups0, d->groups = 0)
NEG(groups_in, d->groups = 3)
NEG(groups_out, { d->groups = 2; d->in_c = 4; d->out_c = 3; })
NEG(k_too_long, { d->in_c = 4000; d->out_c = 1; })
NEG(in_zp_range, d->in_zp = 256)
NEG(in_zp_neg, d->in_zp = -1)
NEG(in_zp_signed, { d->flags |= VPUX_DPU_F_IN_SIGNED; d->in_zp = 128; })
NEG(w_zp_range, d->in2_zp = -129)
NEG(w_zp_unsigned, d->in2_zp = -1)
NEG(out_zp_range, d->out_zp = 300)
NEG(mult0, d->requant.mult = 0)
NEG(mult_neg, d->requant.mult = -5)
NEG(shift_lo, d->requant.shift = -32)
NEG(shift_hi, d->requant.shift = 32)
NEG(pc_requant_set, d->flags |= VPUX_DPU_F_PER_CHANNEL)
NEG(in_scale_unused, d->in_scale.mult = 1)
NEG(in2_scale_unused, d->in2_scale.shift = 1)
NEG(act_order, { d->act_min = 10; d->act_max = 9; })
NEG(act_min_range, d->act_min = -1)
NEG(act_max_range, d->act_max = 256)
NEG(act_signed_range, { d->flags |= VPUX_DPU_F_OUT_SIGNED; d->act_min = -128; })
#define I32_BASE() do { d->flags |= VPUX_DPU_F_OUT_I32; d->requant = RQ(0, 0); \
	d->act_min = d->act_max = 0; } while (0)
NEG(i32_signed, { I32_BASE(); d->flags |= VPUX_DPU_F_OUT_SIGNED; })
NEG(i32_per_channel, { I32_BASE(); d->flags |= VPUX_DPU_F_PER_CHANNEL; })
NEG(i32_requant, { I32_BASE(); d->requant = RQ_ONE; })
NEG(i32_out_zp, { I32_BASE(); d->out_zp = 1; })
NEG(i32_act_min, { I32_BASE(); d->act_min = -1; })
NEG(i32_act_max, { I32_BASE(); d->act_max = 255; })
NEG(i32_in_zp, { I32_BASE(); d->in_zp = 256; })
NEG(i32_pool, { d->op = VPUX_DPU_OP_MAXPOOL; d->out_c = d->in_c; I32_BASE(); })
NEG(i32_add, { d->op = VPUX_DPU_OP_ADD; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->out_c = d->in_c;
	d->flags = 0; I32_BASE(); })
NEG(mm_kernel, { d->op = VPUX_DPU_OP_MATMUL; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->kernel_w = 2; })
NEG(mm_pad, { d->op = VPUX_DPU_OP_MATMUL; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->pad_right = 1; })
NEG(mm_shape, { d->op = VPUX_DPU_OP_MATMUL; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h + 1; d->out_w = d->in_w; })
NEG(mm_groups, { d->op = VPUX_DPU_OP_MATMUL; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->groups = 2; })
NEG(mm_k, { d->op = VPUX_DPU_OP_MATMUL; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->in_c = 40000; })
NEG(add_scale, { d->op = VPUX_DPU_OP_ADD; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->out_c = d->in_c;
	d->flags = 0; d->in_scale = RQ_ONE; })
NEG(add_in_scale, { d->op = VPUX_DPU_OP_ADD; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->out_c = d->in_c;
	d->flags = 0; d->in2_scale = RQ_ONE; d->in_scale = RQ(1, -32); })
NEG(mul_groups, { d->op = VPUX_DPU_OP_MUL; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->out_c = d->in_c;
	d->flags = 0; d->groups = 2; })
NEG(mul_dilation, { d->op = VPUX_DPU_OP_MUL; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->out_c = d->in_c;
	d->flags = 0; d->dilation_w = 2; })
NEG(pool_pc, { d->op = VPUX_DPU_OP_AVGPOOL; d->out_c = d->in_c;
	d->flags = VPUX_DPU_F_PER_CHANNEL; d->requant = RQ(0, 0); })
NEG(add_shape, { d->op = VPUX_DPU_OP_ADD; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->out_c = d->in_c + 1;
	d->flags = 0; d->in_scale = d->in2_scale = RQ_ONE; })
NEG(add_bias, { d->op = VPUX_DPU_OP_ADD; d->kernel_h = d->kernel_w = 1;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->in_h; d->out_w = d->in_w; d->out_c = d->in_c;
	d->flags = VPUX_DPU_F_BIAS; d->in_scale = d->in2_scale = RQ_ONE; })
NEG(pool_flag_w, { d->op = VPUX_DPU_OP_MAXPOOL; d->out_c = d->in_c;
	d->flags = VPUX_DPU_F_W_SIGNED; })
NEG(pool_channels, { d->op = VPUX_DPU_OP_AVGPOOL; d->out_c = d->in_c + 1; })
NEG(pool_zp2, { d->op = VPUX_DPU_OP_AVGPOOL; d->out_c = d->in_c;
	d->in2_zp = 1; })
NEG(pool_groups, { d->op = VPUX_DPU_OP_MAXPOOL; d->out_c = d->in_c;
	d->groups = 2; })
NEG(pool_k, { d->op = VPUX_DPU_OP_MAXPOOL; d->out_c = d->in_c;
	d->in_h = d->in_w = 200; d->kernel_h = d->kernel_w = 190;
	d->pad_top = d->pad_bottom = d->pad_left = d->pad_right = 0;
	d->out_h = d->out_w = 11; })

static void neg_base(struct vpux_hw_dpu_desc *d)
{
	base_desc(d, VPUX_DPU_OP_CONV);
	d->in_c = 4;
	d->out_c = 2;
	d->in_h = 5;
	d->in_w = 6;
	d->kernel_h = d->kernel_w = 3;
	d->pad_top = d->pad_left = 1;
	d->stride_h = 2;
	d->out_h = 2;	/* (5 + 1 - 3) / 2 + 1 */
	d->out_w = 5;	/* (6 + 1 - 3) / 1 + 1 */
}

static const struct neg negs[] = {
#define N(x) { #x, neg_##x }
	N(op), N(flags_unknown), N(flags_high), N(reserved0), N(reserved1),
	N(reserved2), N(in_c0), N(in_h0), N(in_w0), N(out_c0), N(out_h0),
	N(out_w0), N(out_h_wrong), N(out_w_wrong), N(kernel0), N(kernel_big),
	N(stride0), N(dilation0), N(dilation_big), N(pad_changes_out),
	N(groups0), N(groups_in), N(groups_out), N(k_too_long),
	N(in_zp_range), N(in_zp_neg), N(in_zp_signed), N(w_zp_range),
	N(w_zp_unsigned), N(out_zp_range), N(mult0), N(mult_neg),
	N(shift_lo), N(shift_hi), N(pc_requant_set), N(in_scale_unused),
	N(in2_scale_unused), N(act_order), N(act_min_range),
	N(act_max_range), N(act_signed_range), N(mm_kernel), N(mm_pad),
	N(mm_shape), N(mm_groups), N(mm_k), N(add_scale), N(add_in_scale), N(mul_groups), N(mul_dilation),
	N(pool_pc), N(add_shape),
	N(add_bias), N(pool_flag_w), N(pool_channels), N(pool_zp2),
	N(pool_groups), N(pool_k), N(i32_signed), N(i32_per_channel),
	N(i32_requant), N(i32_out_zp), N(i32_act_min), N(i32_act_max),
	N(i32_in_zp), N(i32_pool), N(i32_add),
#undef N
};

static void test_validation(void)
{
	struct vpux_hw_dpu_desc d;
	struct vpux_dpu_extents e;
	static u8 buf[4096];
	static const struct vpux_hw_requant badq[2] = { RQ_ONE, RQ(1, 32) };
	static const s32 bias[2];
	struct vpux_dpu_operands o = { .in = buf, .in2 = buf, .out = buf };
	unsigned int i;
	int ret;

	neg_base(&d);
	ret = vpux_dpu_extents(&d, &e);
	tap_check(ret == 0 && e.in == 120 && e.in2 == 2 * 9 * 4 &&
		  e.out == 20 && e.bias == 0 && e.quant == 0 &&
		  e.macs == 20 * 36, "validation base descriptor and extents");
	d.flags = VPUX_DPU_F_BIAS | VPUX_DPU_F_PER_CHANNEL;
	d.requant = RQ(0, 0);
	ret = vpux_dpu_extents(&d, &e);
	tap_check(ret == 0 && e.bias == 8 && e.quant == 16,
		  "extents of bias and per-channel records");
	tap_check(vpux_dpu_cycles(&d) == VPUX_DPU_CYCLES_SETUP + 4,
		  "cycles: byte-bound small conv (%llu)",
		  (unsigned long long)vpux_dpu_cycles(&d));

	for (i = 0; i < sizeof(negs) / sizeof(negs[0]); i++) {
		int r1, r2, r3;

		neg_base(&d);
		negs[i].mut(&d);
		memset(&e, 0xff, sizeof(e));
		r1 = vpux_dpu_extents(&d, &e);
		r2 = vpux_dpu_run(&d, &o);
		r3 = vpux_ref_dpu_run(&d, &o);
		tap_check(r1 == VPUX_ERR(DESC) && r2 == r1 && r3 == r1 &&
			  e.in == 0 && e.out == 0 && e.macs == 0,
			  "validation rejects %s (%d %d %d)", negs[i].name,
			  r1, r2, r3);
	}

	/* operand checks done by the run functions */
	neg_base(&d);
	d.flags = VPUX_DPU_F_BIAS;
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC),
		  "run rejects a missing bias");
	neg_base(&d);
	o.in2 = NULL;
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC),
		  "run rejects missing weights");
	o.in2 = buf;
	d.flags = VPUX_DPU_F_PER_CHANNEL | VPUX_DPU_F_BIAS;
	d.requant = RQ(0, 0);
	o.bias = bias;
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC),
		  "run rejects missing per-channel records");
	o.quant = badq;
	memset(buf, 0x33, sizeof(buf));
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  buf[0] == 0x33,
		  "run rejects an invalid per-channel record before writing");
	o.quant = NULL;
	o.out = NULL;
	d.flags = 0;
	d.requant = RQ_ONE;
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC),
		  "run rejects a missing output");
}

int main(void)
{
	test_requant();
	test_kat();
	test_validation();
	test_large();
	test_random();
	return tap_finish();
}
