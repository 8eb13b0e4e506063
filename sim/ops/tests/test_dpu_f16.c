// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FP16 DPU ops (VPUX_DPU_F_FP16): the model's kernels against the plain
 * reference (ref/dpu_ref_f16.c), bit for bit, on every code path the host
 * has: the generic soft-float code (what the kernel module runs), the AVX2
 * + FMA kernels and the AVX-512F kernels (on the AVX-512 VNNI path; a
 * path the CPU lacks is a TAP skip). Random descriptors of every op (CONV dense, depthwise, grouped,
 * with channel multipliers, dilation, strides, asymmetric padding larger
 * than the kernel; MATMUL plain, batched, weights [K][N]; ADD/SUB/MUL
 * with every broadcast; MAXPOOL/AVGPOOL with and without COUNT_PAD), every
 * activation, per-tensor and per-channel scale, bias, FP16 and FP32
 * output, on data with +-0, subnormals, Inf, NaN, values whose results
 * overflow FP16, and exact cancellation; larger shapes around the SIMD
 * kernels' blocks, chunks and buffers. The SIMD kernels' per-thread
 * scratch: panels kept for the next op with the same weights (and not
 * for changed ones or another layout), ops nested in a yield callback,
 * threads running ops at once. Then the generic code's integer
 * arithmetic against include/hw/vpux_float.h, the descriptor rules of
 * FP16 (each with the rule vpux_dpu_check() names and VPUX_ERR(DESC) from
 * the run functions), the FP16 cycle rates, yields and aborts. TAP
 * output; built with ASan/UBSan by make ops-check.
 */
#include <pthread.h>

#include "vpux_tap.h"
#include "ops_test.h"
#include "dpu_f16_arith.h"

/* FP16 runs its AVX-512F kernels on the AVX-512 VNNI path */
#define NPATHS		3
static const int path_id[NPATHS] = {
	VPUX_DPU_PATH_GENERIC, VPUX_DPU_PATH_AVX2, VPUX_DPU_PATH_AVX512VNNI,
};
static const char *const path_name[NPATHS] = { "generic", "avx2", "avx512f" };
static bool path_ok[NPATHS];

static unsigned int yields, stop_after;

static bool yield_cb(void *arg)
{
	(void)arg;
	return ++yields >= stop_after;
}

static u32 pick(const u32 *v, u32 n)
{
	return v[ot_rand() % n];
}

/* ---- random values ---- */

/* an FP16 value of the tensor's profile @prof */
static u16 rnd_f16(u32 prof)
{
	static const u16 cancel[] = { 0x3c00, 0xbc00, 0x3800, 0xb800, 0x4200,
				      0xc200, 0x0000, 0x8000 };
	u32 r = ot_rand(), s = r & 0x8000, m = (r >> 16) & 0x3ff;

	switch (prof) {
	case 0:		/* moderate: 2^-6 .. 2^6 */
		return (u16)(s | (u32)ot_range(9, 21) << 10 | m);
	case 1:		/* the whole finite range, subnormals included */
		return (u16)(s | (u32)ot_range(0, 30) << 10 | m);
	case 2: {	/* moderate with specials sprinkled in */
		u32 k = ot_rand() % 100;

		if (k < 3)
			return (u16)s;				/* +-0 */
		if (k < 6)
			return (u16)(s | (m ? m : 1));		/* subnormal */
		if (k == 6)
			return (u16)(s | VPUX_F16_INF);
		if (k == 7)
			return (u16)(0x7c00 | (m ? m : 0x200) | s);	/* NaN */
		return (u16)(s | (u32)ot_range(9, 21) << 10 | m);
	}
	case 3:		/* few values: sums cancel exactly */
		return cancel[ot_rand() % 8];
	default:	/* large: results beyond FP16's range */
		return (u16)(s | (u32)ot_range(22, 30) << 10 | m);
	}
}

/* @n FP16 values of profile @prof (random if >= 5) */
static void fill_prof(void *p, u64 n, u32 prof)
{
	u8 *b = p;
	u64 i;

	if (prof >= 5)
		prof = ot_rand() % 5;
	for (i = 0; i < n; i++) {
		u16 v = rnd_f16(prof);

		b[2 * i] = (u8)v;
		b[2 * i + 1] = (u8)(v >> 8);
	}
}

static void fill_f16(void *p, u64 n)
{
	fill_prof(p, n, 5);
}

/* an FP32 pattern: moderate, +-0, subnormal, huge, +-Inf, or (@nan) NaN */
static u32 rnd_f32(bool nan)
{
	u32 r = ot_rand(), s = r & VPUX_F32_SIGN, m = ot_rand() & 0x7fffff;

	switch (ot_rand() % (nan ? 12 : 11)) {
	case 0:
		return s;
	case 1:
		return s | m;
	case 2:
		return s | (u32)ot_range(150, 254) << 23 | m;
	case 3:
		return s | VPUX_F32_INF;
	case 4:
		return s | VPUX_F32_ONE;
	case 11:
		return s | VPUX_F32_INF | (m ? m : 1);
	default:
		return s | (u32)ot_range(115, 135) << 23 | m;
	}
}

/* ---- random descriptors ---- */

static u16 dim(u32 max)
{
	switch (ot_rand() % 5) {
	case 0:
		return 1;
	case 1:
		return (u16)max;
	default:
		return (u16)ot_range(1, (s32)max);
	}
}

/* channel counts around the SIMD vectors (8, 16) and panels (16, 64) */
static u16 chans(void)
{
	static const u32 edge[] = { 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33,
				    47, 48, 63, 64, 65, 80, 129 };

	return (u16)(ot_rand() % 2 ? pick(edge, 19) : (u32)ot_range(1, 70));
}

/* window fields of a CONV or pooling @d; false if the window does not fit */
static bool rnd_window(struct vpux_hw_dpu_desc *d)
{
	d->kernel_h = dim(5);
	d->kernel_w = dim(5);
	d->stride_h = dim(3);
	d->stride_w = dim(3);
	d->dilation_h = ot_rand() % 3 ? 1 : dim(3);
	d->dilation_w = ot_rand() % 3 ? 1 : dim(3);
	d->pad_top = ot_rand() % 2 ? 0 : dim(7);
	d->pad_bottom = ot_rand() % 2 ? 0 : dim(7);
	d->pad_left = ot_rand() % 2 ? 0 : dim(7);
	d->pad_right = ot_rand() % 2 ? 0 : dim(7);
	d->out_h = (u16)vpux_dpu_out_dim(d->in_h, d->kernel_h, d->stride_h,
					 d->pad_top, d->pad_bottom,
					 d->dilation_h);
	d->out_w = (u16)vpux_dpu_out_dim(d->in_w, d->kernel_w, d->stride_w,
					 d->pad_left, d->pad_right,
					 d->dilation_w);
	return d->out_h && d->out_w;
}

/* the output stage: flags, activation and its parameters */
static void rnd_stage(struct vpux_hw_dpu_desc *d)
{
	struct vpux_hw_dpu_fparams *f = &d->f;

	if (ot_rand() % 2)
		d->flags |= VPUX_DPU_F_OUT_F32;
	switch (ot_rand() % 3) {
	case 0:
		d->flags |= VPUX_DPU_F_SCALE;
		f->scale = rnd_f32(false);
		f->shift = ot_rand() % 2 ? 0 : rnd_f32(false);
		break;
	case 1:
		d->flags |= VPUX_DPU_F_PER_CHANNEL;
		break;
	}
	f->act = ot_rand() % VPUX_DPU_ACTS;
	if (f->act == VPUX_DPU_ACT_CLAMP) {
		u32 a = rnd_f32(false), b = rnd_f32(false);

		f->clamp_lo = vpux_f32_lt(b, a) ? b : a;
		f->clamp_hi = vpux_f32_lt(b, a) ? a : b;
	} else if (f->act == VPUX_DPU_ACT_LEAKY) {
		f->slope = rnd_f32(false);
	}
}

/* a random valid FP16 descriptor of op @op; false if it did not fit */
static bool rnd_desc(struct vpux_hw_dpu_desc *d, u32 op)
{
	struct vpux_dpu_extents e;

	memset(d, 0, sizeof(*d));
	d->op = op;
	d->flags = VPUX_DPU_F_FP16;
	d->in_h = dim(9);
	d->in_w = dim(9);
	d->groups = 1;
	switch (op) {
	case VPUX_DPU_OP_CONV:
		switch (ot_rand() % 6) {
		case 0:		/* depthwise, maybe a channel multiplier */
			d->in_c = d->groups = chans();
			d->out_c = d->in_c * (ot_rand() % 3 ? 1 : (u16)ot_range(2, 3));
			break;
		case 1:		/* grouped */
			d->groups = (u16)ot_range(2, 4);
			d->in_c = d->groups * dim(9);
			d->out_c = d->groups * (ot_rand() % 2 ? dim(9) : dim(20));
			break;
		default:	/* dense */
			d->in_c = chans();
			d->out_c = chans();
			break;
		}
		if (!rnd_window(d))
			return false;
		if (ot_rand() % 3)
			d->flags |= VPUX_DPU_F_BIAS;
		break;
	case VPUX_DPU_OP_MATMUL:
		d->in_c = ot_rand() % 2 ? chans() : (u16)ot_range(1, 300);
		d->out_c = chans();
		d->out_h = d->in_h;
		d->out_w = d->in_w;
		if (ot_rand() % 3 == 0)
			d->flags |= VPUX_DPU_F_BATCH;
		if (ot_rand() % 2)
			d->flags |= VPUX_DPU_F_W_KN;
		if (ot_rand() % 3)
			d->flags |= VPUX_DPU_F_BIAS;
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_SUB:
	case VPUX_DPU_OP_MUL:
		d->in_c = d->out_c = chans();
		d->out_h = d->in_h;
		d->out_w = d->in_w;
		d->flags |= (ot_rand() % 4) << VPUX_DPU_F_BCAST_SHIFT;
		break;
	default:
		d->in_c = d->out_c = chans();
		if (!rnd_window(d))
			return false;
		if (op == VPUX_DPU_OP_AVGPOOL && ot_rand() % 2)
			d->flags |= VPUX_DPU_F_COUNT_PAD;
		break;
	}
	rnd_stage(d);
	/* keep the reference's share of the run time small */
	return !vpux_dpu_extents(d, &e) && e.macs <= 60000;
}

/* ---- operands and runs ---- */

struct ops {
	struct vpux_dpu_extents e;
	struct vpux_dpu_operands o;
};

static void ops_alloc(struct ops *p, const struct vpux_hw_dpu_desc *d)
{
	u32 *bias, *q;
	u64 i;

	memset(&p->o, 0, sizeof(p->o));
	p->o.in = ot_alloc_rand(p->e.in);
	fill_f16((void *)p->o.in, p->e.in / 2);
	if (p->e.in2) {
		p->o.in2 = ot_alloc_rand(p->e.in2);
		fill_f16((void *)p->o.in2, p->e.in2 / 2);
	}
	if (p->e.bias) {
		bias = ot_alloc_rand(p->e.bias);
		for (i = 0; i < d->out_c; i++)
			bias[i] = ot_rand() % 3 ? rnd_f32(true) : 0;
		p->o.bias = (const s32 *)bias;
	}
	if (p->e.quant) {		/* any bits, NaN included */
		q = ot_alloc_rand(p->e.quant);
		for (i = 0; i < p->e.quant / 4; i++)
			q[i] = ot_rand() % 8 ? rnd_f32(ot_rand() % 4 == 0) :
			       ot_rand();
		p->o.quant = (const struct vpux_hw_requant *)q;
	}
	p->o.yield = yield_cb;
}

static void ops_free(struct ops *p)
{
	free((void *)p->o.in);
	free((void *)p->o.in2);
	free((void *)p->o.bias);
	free((void *)p->o.quant);
}

/* run @d on path @i (-1: the reference) into @out; *@ny the yields */
static int run(const struct vpux_hw_dpu_desc *d, struct ops *p, int i,
	       u8 *out, unsigned int *ny)
{
	int ret;

	memset(out, 0x5a, p->e.out);
	p->o.out = out;
	yields = 0;
	stop_after = ~0u;
	if (i < 0) {
		ret = vpux_ref_dpu_run(d, &p->o);
	} else {
		vpux_dpu_set_path(path_id[i]);
		ret = vpux_dpu_run(d, &p->o);
	}
	*ny = yields;
	return ret;
}

static const char *const op_name[VPUX_DPU_OPS] = {
	"conv", "matmul", "add", "mul", "maxpool", "avgpool", "sub",
};

static void desc_diag(const char *what, const struct vpux_hw_dpu_desc *d)
{
	tap_diag("%s: %s in %ux%ux%u out %ux%ux%u k %ux%u s %ux%u p %u,%u,%u,%u d %ux%u g %u flags %#x act %u lo %#x hi %#x scale %#x shift %#x slope %#x",
		 what, op_name[d->op], d->in_h, d->in_w, d->in_c, d->out_h,
		 d->out_w, d->out_c, d->kernel_h, d->kernel_w, d->stride_h,
		 d->stride_w, d->pad_top, d->pad_left, d->pad_bottom,
		 d->pad_right, d->dilation_h, d->dilation_w, d->groups,
		 d->flags, d->f.act, d->f.clamp_lo, d->f.clamp_hi, d->f.scale,
		 d->f.shift, d->f.slope);
}

/* output classes seen, over all cases: is the data what it claims? */
static unsigned long long n_outs, n_nan, n_inf, n_zero, n_negzero, n_sub;

static void count_outs(const struct vpux_hw_dpu_desc *d, const u8 *out,
		       u64 n)
{
	bool f32 = d->flags & VPUX_DPU_F_OUT_F32;
	u64 i;

	for (i = 0; i < n; i++) {
		u32 v;

		if (f32) {
			v = vpux_ld_u32(out, i);
		} else {
			v = vpux_f16_to_f32((u16)f16x_ld(out, i));
			if ((f16x_ld(out, i) & 0x7fff) &&
			    !(f16x_ld(out, i) & 0x7c00))
				n_sub++;
		}
		n_outs++;
		n_nan += vpux_f32_is_nan(v);
		n_inf += vpux_f32_is_inf(v);
		n_zero += v == 0;
		n_negzero += v == VPUX_F32_SIGN;
		if (f32 && (v & 0x7fffffff) && !(v & VPUX_F32_INF))
			n_sub++;
	}
}

/*
 * @d on the reference and on every path the host has: the same bytes, a
 * result of 0 and at least one yield. False with a diagnostic if not.
 */
static bool compare_one(const struct vpux_hw_dpu_desc *d, const char *what)
{
	struct ops p;
	u8 *ref, *out;
	unsigned int ny;
	bool ok = true;
	int i, r;
	u64 j;

	if (vpux_dpu_extents(d, &p.e)) {
		desc_diag("invalid descriptor", d);
		return false;
	}
	ops_alloc(&p, d);
	ref = malloc(p.e.out);
	out = malloc(p.e.out);
	r = run(d, &p, -1, ref, &ny);
	if (r) {
		desc_diag("the reference fails", d);
		ok = false;
	}
	count_outs(d, ref, p.e.out / (d->flags & VPUX_DPU_F_OUT_F32 ? 4 : 2));
	for (i = 0; i < NPATHS && ok; i++) {
		if (!path_ok[i])
			continue;
		r = run(d, &p, i, out, &ny);
		if (!r && ny && !memcmp(ref, out, p.e.out))
			continue;
		for (j = 0; j < p.e.out && ref[j] == out[j]; j++)
			;
		desc_diag(what, d);
		tap_diag("  %s: ret %d, %u yields, first byte that differs %llu of %llu: ref %#x %s %#x",
			 path_name[i], r, ny, (unsigned long long)j,
			 (unsigned long long)p.e.out, j < p.e.out ? ref[j] : 0,
			 path_name[i], j < p.e.out ? out[j] : 0);
		ok = false;
	}
	ops_free(&p);
	free(ref);
	free(out);
	return ok;
}

static void test_random(void)
{
	static const u32 cases[VPUX_DPU_OPS] = { 500, 300, 100, 100, 100, 150,
						 100 };
	struct vpux_hw_dpu_desc d;
	u32 op, n, pass, tries, acts[VPUX_DPU_ACTS], f32, pc, sc;

	for (op = 0; op < VPUX_DPU_OPS; op++) {
		ot_seed(1600 + op);
		memset(acts, 0, sizeof(acts));
		n = pass = tries = f32 = pc = sc = 0;
		while (n < cases[op] && tries++ < cases[op] * 20) {
			if (!rnd_desc(&d, op))
				continue;
			n++;
			if (compare_one(&d, "random")) {
				pass++;
				acts[d.f.act]++;
				f32 += !!(d.flags & VPUX_DPU_F_OUT_F32);
				pc += !!(d.flags & VPUX_DPU_F_PER_CHANNEL);
				sc += !!(d.flags & VPUX_DPU_F_SCALE);
			}
		}
		tap_check(n == cases[op] && pass == n,
			  "random %s: %u/%u bit-exact on the reference and every path (act none/relu/clamp/leaky/leaky_ch %u/%u/%u/%u/%u, FP32 out %u, per-channel %u, scale %u)",
			  op_name[op], pass, n, acts[0], acts[1], acts[2],
			  acts[3], acts[4], f32, pc, sc);
	}
	tap_check(n_nan && n_inf && n_zero && n_negzero && n_sub &&
		  n_nan * 5 < n_outs && n_inf * 5 < n_outs,
		  "random: the outputs hold every class (%llu: %llu NaN, %llu Inf, %llu +0, %llu -0, %llu subnormal)",
		  n_outs, n_nan, n_inf, n_zero, n_negzero, n_sub);
}

/* shapes around the SIMD kernels' blocks and limits, once each */
static void test_shapes(void)
{
	static const u16 conv[][8] = {	/* hw, cin, cout, k, stride, pad, groups, dil */
		{ 14, 64, 64, 3, 1, 1, 1, 1 },
		{ 13, 33, 129, 3, 2, 1, 1, 1 },
		{ 9, 130, 18, 5, 1, 2, 1, 1 },
		{ 9, 3, 100, 7, 2, 3, 1, 1 },
		{ 11, 40, 40, 3, 1, 4, 40, 2 },
		{ 12, 48, 96, 3, 1, 1, 4, 1 },
		{ 10, 17, 34, 3, 1, 1, 17, 1 },
		{ 8, 8, 8, 3, 3, 9, 1, 1 },
		{ 3, 512, 300, 3, 1, 0, 1, 1 },	/* panels over 4 MiB */
	};
	static const u16 mm[][5] = {	/* in_h, in_w, K, N, flags >> 10 */
		{ 1, 50, 512, 96, 0 },
		{ 3, 7, 200, 130, 1 },
		{ 2, 13, 64, 65, 3 },
		{ 20, 1, 100, 64, 2 },
		{ 1, 3, 32768, 20, 0 },		/* K at its limit: one row a call */
		{ 1, 2, 32768, 17, 2 },
		{ 1, 3, 4096, 300, 0 },		/* panels over 4 MiB */
		{ 1, 3, 4096, 300, 2 },
	};
	static const u16 elt[][5] = {	/* in_h, in_w, in_c, bcast, op */
		{ 2, 1500, 3, VPUX_DPU_BCAST_HW, VPUX_DPU_OP_ADD },
		{ 3, 50, 129, VPUX_DPU_BCAST_C, VPUX_DPU_OP_SUB },
		{ 2, 1300, 7, VPUX_DPU_BCAST_C, VPUX_DPU_OP_MUL },
		{ 1, 1800, 5, VPUX_DPU_BCAST_HW, VPUX_DPU_OP_SUB },
		{ 3, 9000, 1, VPUX_DPU_BCAST_SCALAR, VPUX_DPU_OP_ADD },
		{ 2, 30, 300, VPUX_DPU_BCAST_NONE, VPUX_DPU_OP_MUL },
		{ 1, 2, 4500, VPUX_DPU_BCAST_C, VPUX_DPU_OP_ADD },
		{ 2, 17, 400, VPUX_DPU_BCAST_HW, VPUX_DPU_OP_MUL },
	};
	static const u16 pl[][8] = {	/* h, w, c, k, stride, op, pad, count_pad */
		{ 56, 56, 20, 56, 1, VPUX_DPU_OP_AVGPOOL, 0, 0 },
		{ 7, 7, 2048, 7, 1, VPUX_DPU_OP_AVGPOOL, 0, 0 },
		{ 7, 7, 300, 7, 1, VPUX_DPU_OP_MAXPOOL, 0, 0 },
		{ 30, 28, 64, 3, 2, VPUX_DPU_OP_MAXPOOL, 1, 0 },
		{ 20, 19, 33, 5, 1, VPUX_DPU_OP_AVGPOOL, 2, 1 },
		{ 9, 8, 17, 12, 1, VPUX_DPU_OP_AVGPOOL, 6, 0 },
		{ 9, 9, 70, 13, 2, VPUX_DPU_OP_AVGPOOL, 7, 1 },
		{ 9, 10, 70, 9, 1, VPUX_DPU_OP_MAXPOOL, 4, 0 },
	};
	struct vpux_hw_dpu_desc d;
	unsigned int i, pass = 0, n = 0;

	ot_seed(99);
	for (i = 0; i < sizeof(conv) / sizeof(conv[0]); i++, n++) {
		while (!rnd_desc(&d, VPUX_DPU_OP_CONV))
			;
		d.groups = conv[i][6];
		d.in_h = d.in_w = conv[i][0];
		d.in_c = conv[i][1];
		d.out_c = conv[i][2];
		d.kernel_h = d.kernel_w = conv[i][3];
		d.stride_h = d.stride_w = conv[i][4];
		d.dilation_h = d.dilation_w = conv[i][7];
		d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = conv[i][5];
		d.out_h = d.out_w = (u16)vpux_dpu_out_dim(d.in_h, d.kernel_h,
							  d.stride_h, d.pad_top,
							  d.pad_bottom,
							  d.dilation_h);
		pass += compare_one(&d, "shape");
	}
	for (i = 0; i < sizeof(mm) / sizeof(mm[0]); i++, n++) {
		while (!rnd_desc(&d, VPUX_DPU_OP_MATMUL))
			;
		d.in_h = d.out_h = mm[i][0];
		d.in_w = d.out_w = mm[i][1];
		d.in_c = mm[i][2];
		d.out_c = mm[i][3];
		d.flags &= ~(VPUX_DPU_F_BATCH | VPUX_DPU_F_W_KN);
		d.flags |= (u32)mm[i][4] << 10;
		pass += compare_one(&d, "shape");
	}
	tap_check(pass == n,
		  "shapes: %u/%u larger CONVs (dense, grouped, depthwise, multiplier) and MATMULs (K up to 32768, weights packed a panel at a time) bit-exact",
		  pass, n);

	/*
	 * ADD/SUB/MUL rows longer than the SIMD kernels' chunk of 4096
	 * elements (which then ends inside a pixel), channel patterns
	 * shorter than a vector; each with a random output stage
	 */
	pass = n = 0;
	for (i = 0; i < sizeof(elt) / sizeof(elt[0]); i++, n++) {
		while (!rnd_desc(&d, elt[i][4]))
			;
		d.in_h = d.out_h = elt[i][0];
		d.in_w = d.out_w = elt[i][1];
		d.in_c = d.out_c = elt[i][2];
		d.flags &= ~VPUX_DPU_F_BCAST_MASK;
		d.flags |= (u32)elt[i][3] << VPUX_DPU_F_BCAST_SHIFT;
		pass += compare_one(&d, "shape");
	}
	tap_check(pass == n,
		  "shapes: %u/%u ADD/SUB/MUL with rows of up to 9000 elements, every broadcast, bit-exact",
		  pass, n);

	/* pooling: global windows, windows larger than the input, padding */
	pass = n = 0;
	for (i = 0; i < sizeof(pl) / sizeof(pl[0]); i++, n++) {
		while (!rnd_desc(&d, pl[i][5]))
			;
		d.in_h = pl[i][0];
		d.in_w = pl[i][1];
		d.in_c = d.out_c = pl[i][2];
		d.kernel_h = d.kernel_w = pl[i][3];
		d.stride_h = d.stride_w = pl[i][4];
		d.dilation_h = d.dilation_w = 1;
		d.pad_top = d.pad_left = pl[i][6];
		d.pad_bottom = d.pad_right = pl[i][6] / 2;
		d.flags &= ~VPUX_DPU_F_COUNT_PAD;
		if (pl[i][7])
			d.flags |= VPUX_DPU_F_COUNT_PAD;
		d.out_h = (u16)vpux_dpu_out_dim(d.in_h, d.kernel_h, d.stride_h,
						d.pad_top, d.pad_bottom, 1);
		d.out_w = (u16)vpux_dpu_out_dim(d.in_w, d.kernel_w, d.stride_w,
						d.pad_left, d.pad_right, 1);
		pass += compare_one(&d, "shape");
	}
	tap_check(pass == n,
		  "shapes: %u/%u MAXPOOL/AVGPOOL, global (56x56, 7x7 over 2048 channels), windows past the input, COUNT_PAD, bit-exact",
		  pass, n);
}

/* ---- the SIMD kernels' scratch: kept weights, nesting, threads ---- */

/* @d on the reference and on path @i with the operands @p: same bytes? */
static bool same_as_ref(const struct vpux_hw_dpu_desc *d, struct ops *p,
			int i)
{
	u8 *ref = malloc(p->e.out), *out = malloc(p->e.out);
	unsigned int ny;
	bool ok;

	ok = !run(d, p, -1, ref, &ny) && !run(d, p, i, out, &ny) &&
	     !memcmp(ref, out, p->e.out);
	free(ref);
	free(out);
	return ok;
}

/*
 * A thread keeps the panels its last CONV or MATMUL packed and reuses
 * them when the next op has the same weight bytes, packed the same way:
 * a changed weight, the same bytes read as [K][N] instead of [N][K], or
 * as depthwise weights, must not find them.
 */
static void test_wcache(void)
{
	struct vpux_hw_dpu_desc c, m;
	unsigned int i, k, pass, n;
	struct ops pc, pm;
	u16 *w;

	memset(&c, 0, sizeof(c));
	c.op = VPUX_DPU_OP_CONV;
	c.flags = VPUX_DPU_F_FP16 | VPUX_DPU_F_BIAS;
	c.in_h = c.in_w = 6;
	c.in_c = 40;
	c.out_c = 70;
	c.kernel_h = c.kernel_w = 3;
	c.stride_h = c.stride_w = c.dilation_h = c.dilation_w = 1;
	c.pad_top = c.pad_left = c.pad_bottom = c.pad_right = 1;
	c.out_h = c.out_w = 6;
	c.groups = 1;
	memset(&m, 0, sizeof(m));
	m.op = VPUX_DPU_OP_MATMUL;
	m.flags = VPUX_DPU_F_FP16;
	m.in_h = m.out_h = 5;
	m.in_w = m.out_w = 3;
	m.in_c = m.out_c = 40;
	for (i = 1; i < NPATHS; i++) {
		if (!path_ok[i])
			continue;
		ot_seed(500 + i);
		vpux_dpu_extents(&c, &pc.e);
		ops_alloc(&pc, &c);
		/* moderate values, no bias: every weight shows in the output */
		fill_prof((void *)pc.o.in, pc.e.in / 2, 0);
		fill_prof((void *)pc.o.in2, pc.e.in2 / 2, 0);
		memset((void *)pc.o.bias, 0, pc.e.bias);
		pass = n = 0;
		w = (u16 *)(void *)pc.o.in2;
		/* packed, reused, reused with another input, a weight changed */
		for (k = 0; k < 4; k++, n++) {
			if (k == 2)
				fill_prof((void *)pc.o.in, pc.e.in / 2, 0);
			if (k == 3)
				w[pc.e.in2 / 2 - 1] ^= 0x4400;
			pass += same_as_ref(&c, &pc, (int)i);
		}
		/* the first weights [N][K], then [K][N], then again [N][K] */
		vpux_dpu_extents(&m, &pm.e);
		ops_alloc(&pm, &m);
		for (k = 0; k < 3; k++, n++) {
			m.flags ^= k ? VPUX_DPU_F_W_KN : 0;
			pass += same_as_ref(&m, &pm, (int)i);
		}
		/* the same 3 x 3 x 40 x 70 bytes: depthwise 3 x 3 x 2800 */
		ops_free(&pm);
		c.flags &= ~VPUX_DPU_F_BIAS;
		c.in_c = c.out_c = c.groups = 2800;
		c.pad_top = c.pad_left = c.pad_bottom = c.pad_right = 0;
		c.in_h = c.in_w = 3;
		c.out_h = c.out_w = 1;
		vpux_dpu_extents(&c, &pm.e);
		ops_alloc(&pm, &c);
		memcpy((void *)pm.o.in2, pc.o.in2, pc.e.in2);
		pass += pm.e.in2 == pc.e.in2 && same_as_ref(&c, &pm, (int)i);
		n++;
		tap_check(pass == n,
			  "wcache %s: %u/%u runs bit-exact: panels reused for the same weights, not for changed ones or another layout",
			  path_name[i], pass, n);
		c.flags |= VPUX_DPU_F_BIAS;
		c.in_c = 40;
		c.out_c = 70;
		c.groups = 1;
		c.pad_top = c.pad_left = c.pad_bottom = c.pad_right = 1;
		c.in_h = c.in_w = c.out_h = c.out_w = 6;
		ops_free(&pc);
		ops_free(&pm);
	}
}

/*
 * An op that starts from a yield callback while the thread's SIMD op
 * runs: it must not take the scratch of the op it interrupts.
 */
static struct {
	const struct vpux_hw_dpu_desc *d;
	struct ops *p;
	u8 *ref;
	unsigned int calls, bad;
} nest;

static bool nest_cb(void *arg)
{
	u8 *out = malloc(nest.p->e.out);
	struct vpux_dpu_operands o = nest.p->o;

	(void)arg;
	o.out = out;
	o.yield = NULL;
	if (vpux_dpu_run(nest.d, &o) || memcmp(out, nest.ref, nest.p->e.out))
		nest.bad++;
	nest.calls++;
	free(out);
	return false;
}

static void test_nested(void)
{
	struct vpux_hw_dpu_desc d, e;
	struct ops p, q;
	unsigned int i, ny;
	u8 *ref, *out;
	bool ok;

	for (i = 1; i < NPATHS; i++) {
		if (!path_ok[i])
			continue;
		ot_seed(600 + i);
		while (!rnd_desc(&d, VPUX_DPU_OP_CONV) || d.out_h < 3)
			;
		while (!rnd_desc(&e, VPUX_DPU_OP_AVGPOOL) || e.out_h < 2)
			;
		vpux_dpu_extents(&d, &p.e);
		vpux_dpu_extents(&e, &q.e);
		ops_alloc(&p, &d);
		ops_alloc(&q, &e);
		ref = malloc(p.e.out);
		out = malloc(p.e.out);
		nest.d = &e;
		nest.p = &q;
		nest.ref = malloc(q.e.out);
		nest.calls = nest.bad = 0;
		run(&e, &q, -1, nest.ref, &ny);
		run(&d, &p, -1, ref, &ny);
		vpux_dpu_set_path(path_id[i]);
		p.o.yield = nest_cb;
		p.o.out = out;
		ok = !vpux_dpu_run(&d, &p.o) && !memcmp(ref, out, p.e.out);
		tap_check(ok && nest.calls >= d.out_h && !nest.bad,
			  "nested %s: %u pooling ops run from the yields of a CONV, all bit-exact, and so is the CONV",
			  path_name[i], nest.calls);
		ops_free(&p);
		ops_free(&q);
		free(ref);
		free(out);
		free(nest.ref);
	}
}

/* threads running ops at once, each with its own scratch */
#define NTHREADS	3
#define NTHROPS		100

static pthread_barrier_t thr_start;

struct thr {
	pthread_t t;
	const struct vpux_hw_dpu_desc *d[2];
	struct ops *p[2];
	const u8 *ref[2];
	unsigned int id, bad;
};

static void *thr_main(void *arg)
{
	struct thr *t = arg;
	unsigned int k;

	pthread_barrier_wait(&thr_start);
	for (k = 0; k < NTHROPS; k++) {
		unsigned int j = (k + t->id) % 2;
		struct vpux_dpu_operands o = t->p[j]->o;
		u8 *out = malloc(t->p[j]->e.out);

		o.out = out;
		o.yield = NULL;
		if (vpux_dpu_run(t->d[j], &o) ||
		    memcmp(out, t->ref[j], t->p[j]->e.out))
			t->bad++;
		free(out);
	}
	return NULL;
}

static void test_threads(void)
{
	static const u32 ops[4] = { VPUX_DPU_OP_CONV, VPUX_DPU_OP_MATMUL,
				    VPUX_DPU_OP_ADD, VPUX_DPU_OP_MAXPOOL };
	struct vpux_hw_dpu_desc d[4];
	struct thr t[NTHREADS];
	struct ops p[4];
	unsigned int i, k, bad = 0, ny;
	u8 *ref[4];

	ot_seed(700);
	for (k = 0; k < 4; k++) {
		while (!rnd_desc(&d[k], ops[k]))
			;
		/* long enough to overlap: 14 x 14 x 64, 3 x 3 windows */
		d[k].in_h = d[k].in_w = 14;
		d[k].in_c = d[k].out_c = 64;
		if (k == 1) {
			d[k].in_c = 576;
		} else if (k != 2) {
			d[k].kernel_h = d[k].kernel_w = 3;
			d[k].stride_h = d[k].stride_w = 1;
			d[k].dilation_h = d[k].dilation_w = 1;
			d[k].pad_top = d[k].pad_left = 1;
			d[k].pad_bottom = d[k].pad_right = 1;
			d[k].groups = 1;
		}
		d[k].out_h = d[k].out_w = 14;
		vpux_dpu_extents(&d[k], &p[k].e);
		ops_alloc(&p[k], &d[k]);
		ref[k] = malloc(p[k].e.out);
		run(&d[k], &p[k], -1, ref[k], &ny);
	}
	vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	pthread_barrier_init(&thr_start, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].id = i;
		for (k = 0; k < 2; k++) {
			t[i].d[k] = &d[(i + 2 * k) % 4];
			t[i].p[k] = &p[(i + 2 * k) % 4];
			t[i].ref[k] = ref[(i + 2 * k) % 4];
		}
		pthread_create(&t[i].t, NULL, thr_main, &t[i]);
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(t[i].t, NULL);
		bad += t[i].bad;
	}
	pthread_barrier_destroy(&thr_start);
	tap_check(!bad, "threads: %u threads x %u ops of two kinds at once on the default path, %u not bit-exact",
		  NTHREADS, NTHROPS, bad);
	for (k = 0; k < 4; k++) {
		ops_free(&p[k]);
		free(ref[k]);
	}
}

/* ---- the generic code's arithmetic against vpux_float.h ---- */

static void test_arith(void)
{
	unsigned long long bad = 0, n = 0;
	u32 a, b, j, x, y;

	ot_seed(3);
	for (a = 0; a < 0x10000; a++)
		for (j = 0; j < 64; j++, n++) {
			b = j < 32 ? (a * 7 + j * 2053) & 0xffff :
			    ot_rand() & 0xffff;
			x = f16x_prod(a, b);
			y = vpux_f32_mul(vpux_f16_to_f32((u16)a),
					 vpux_f16_to_f32((u16)b));
			if (x != y && bad++ < 3)
				tap_diag("prod %#x %#x: %#x, want %#x", a, b, x, y);
		}
	tap_check(!bad, "arith: FP16 x FP16 products of %llu pairs (every FP16 value) as vpux_f32_mul() (%llu differ)",
		  n, bad);
	bad = n = 0;
	for (j = 0; j < 3000000; j++, n++) {
		a = ot_rand();
		b = ot_rand();
		switch (j % 8) {
		case 0:		/* the same exponent */
			b = (a & 0x7f800000) | (b & 0x807fffff);
			break;
		case 1:		/* near a, or near -a: cancellation */
			b = (a ^ (j & 16 ? VPUX_F32_SIGN : 0)) + (b % 64) - 32;
			break;
		case 2:		/* subnormals and tiny values */
			a &= 0x80ffffff;
			b &= 0x80ffffff;
			break;
		case 3:		/* exponents up to 30 apart */
			b = ((a & 0x7f800000) + (b % 61) * 0x800000 -
			     30 * 0x800000) ^ (b & 0x807fffff);
			break;
		case 4:		/* near overflow */
			a = (a & 0x807fffff) | 0x7f000000;
			b = (b & 0x807fffff) | (0x7e800000 + (j & 1) * 0x800000);
			break;
		case 5:		/* specials */
			b = pick((const u32[]){ 0, VPUX_F32_SIGN, VPUX_F32_INF,
					       VPUX_F32_INF | VPUX_F32_SIGN,
					       VPUX_F32_NAN, 1, 0x807fffff },
				 7);
			break;
		}
		x = f32x_add(a, b);
		y = vpux_f32_add(a, b);
		if (x != y && bad++ < 3)
			tap_diag("add %#x %#x: %#x, want %#x", a, b, x, y);
	}
	tap_check(!bad, "arith: FP32 adds of %llu pairs (same exponent, cancellation, subnormal, overflow, specials) as vpux_f32_add() (%llu differ)",
		  n, bad);
}

/* ---- descriptor rules ---- */

/* a valid FP16 CONV: 5x6x4 -> 2x5x2, 3x3, stride 2x1, pad 1 */
static void base(struct vpux_hw_dpu_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->op = VPUX_DPU_OP_CONV;
	d->flags = VPUX_DPU_F_FP16;
	d->in_c = 4;
	d->out_c = 2;
	d->in_h = 5;
	d->in_w = 6;
	d->kernel_h = d->kernel_w = 3;
	d->stride_h = 2;
	d->stride_w = 1;
	d->dilation_h = d->dilation_w = 1;
	d->pad_top = d->pad_left = 1;
	d->groups = 1;
	d->out_h = 2;
	d->out_w = 5;
}

/* @d made a flat op @op (MATMUL, ADD, SUB, MUL) of the same input */
static void flat(struct vpux_hw_dpu_desc *d, u32 op)
{
	d->op = op;
	d->kernel_h = d->kernel_w = d->stride_h = d->stride_w = 1;
	d->pad_top = d->pad_left = 0;
	d->out_h = d->in_h;
	d->out_w = d->in_w;
	if (op != VPUX_DPU_OP_MATMUL)
		d->out_c = d->in_c;
}

static void pool(struct vpux_hw_dpu_desc *d, u32 op)
{
	d->op = op;
	d->out_c = d->in_c;
}

#define NAN32	0x7fc00001u
#define BAD(n, rule, body) \
	static void bad_##n(struct vpux_hw_dpu_desc *d) { body; }

BAD(act, ACT, d->f.act = VPUX_DPU_ACTS)
BAD(act_high, ACT, d->f.act = 0x80000001u)
BAD(zero0_0, RESERVED, d->f.zero0[0] = 1)
BAD(zero0_1, RESERVED, d->f.zero0[1] = 0x80000000u)
BAD(zero1_0, RESERVED, d->f.zero1[0] = 1)
BAD(zero1_1, RESERVED, d->f.zero1[1] = 1)
BAD(zero1_2, RESERVED, d->f.zero1[2] = 0x3f800000u)
BAD(reserved0, RESERVED, d->reserved0 = 1)
BAD(reserved1, RESERVED, d->reserved[1] = 1)
BAD(clamp_lo_nan, ACT_MIN, { d->f.act = VPUX_DPU_ACT_CLAMP;
	d->f.clamp_lo = NAN32; d->f.clamp_hi = VPUX_F32_ONE; })
BAD(clamp_order, ACT_MIN, { d->f.act = VPUX_DPU_ACT_CLAMP;
	d->f.clamp_lo = VPUX_F32_ONE; d->f.clamp_hi = 0x3f000000u; })
BAD(clamp_order_inf, ACT_MIN, { d->f.act = VPUX_DPU_ACT_CLAMP;
	d->f.clamp_lo = VPUX_F32_INF; d->f.clamp_hi = 0x7f7fffffu; })
BAD(clamp_lo_unused, ACT_MIN, { d->f.act = VPUX_DPU_ACT_RELU;
	d->f.clamp_lo = VPUX_F32_SIGN; })
BAD(clamp_hi_nan, ACT_MAX, { d->f.act = VPUX_DPU_ACT_CLAMP;
	d->f.clamp_hi = 0xffc00000u; })
BAD(clamp_hi_unused, ACT_MAX, d->f.clamp_hi = VPUX_F32_ONE)
BAD(scale_nan, SCALE, { d->flags |= VPUX_DPU_F_SCALE; d->f.scale = NAN32; })
BAD(shift_nan, SCALE, { d->flags |= VPUX_DPU_F_SCALE;
	d->f.scale = VPUX_F32_ONE; d->f.shift = VPUX_F32_NAN; })
BAD(scale_unused, SCALE, d->f.scale = VPUX_F32_ONE)
BAD(shift_unused, SCALE, d->f.shift = VPUX_F32_SIGN)
BAD(scale_per_channel, SCALE, { d->flags |= VPUX_DPU_F_PER_CHANNEL;
	d->f.scale = VPUX_F32_ONE; })
BAD(slope_nan, SLOPE, { d->f.act = VPUX_DPU_ACT_LEAKY; d->f.slope = NAN32; })
BAD(slope_unused, SLOPE, d->f.slope = 0x3dcccccdu)
BAD(slope_leaky_ch, SLOPE, { d->f.act = VPUX_DPU_ACT_LEAKY_CH;
	d->f.slope = 0x3dcccccdu; })
BAD(slope_relu, SLOPE, { d->f.act = VPUX_DPU_ACT_RELU;
	d->f.slope = VPUX_F32_SIGN; })
BAD(in_signed, FLAGS, d->flags |= VPUX_DPU_F_IN_SIGNED)
BAD(w_signed, FLAGS, d->flags |= VPUX_DPU_F_W_SIGNED)
BAD(out_signed, FLAGS, d->flags |= VPUX_DPU_F_OUT_SIGNED)
BAD(scale_and_pc, FLAGS, { d->flags |= VPUX_DPU_F_SCALE |
	VPUX_DPU_F_PER_CHANNEL; d->f.scale = VPUX_F32_ONE; })
BAD(conv_batch, FLAGS, d->flags |= VPUX_DPU_F_BATCH)
BAD(conv_w_kn, FLAGS, d->flags |= VPUX_DPU_F_W_KN)
BAD(conv_bcast, FLAGS, d->flags |= 1u << VPUX_DPU_F_BCAST_SHIFT)
BAD(conv_count_pad, FLAGS, d->flags |= VPUX_DPU_F_COUNT_PAD)
BAD(flag_13, FLAGS, d->flags |= 1u << 13)
BAD(flag_31, FLAGS, d->flags |= 1u << 31)
BAD(matmul_bcast, FLAGS, { flat(d, VPUX_DPU_OP_MATMUL);
	d->flags |= 3u << VPUX_DPU_F_BCAST_SHIFT; })
BAD(matmul_count_pad, FLAGS, { flat(d, VPUX_DPU_OP_MATMUL);
	d->flags |= VPUX_DPU_F_COUNT_PAD; })
BAD(add_bias, FLAGS, { flat(d, VPUX_DPU_OP_ADD); d->flags |= VPUX_DPU_F_BIAS; })
BAD(sub_bias, FLAGS, { flat(d, VPUX_DPU_OP_SUB); d->flags |= VPUX_DPU_F_BIAS; })
BAD(mul_bias, FLAGS, { flat(d, VPUX_DPU_OP_MUL); d->flags |= VPUX_DPU_F_BIAS; })
BAD(add_batch, FLAGS, { flat(d, VPUX_DPU_OP_ADD); d->flags |= VPUX_DPU_F_BATCH; })
BAD(maxpool_bias, FLAGS, { pool(d, VPUX_DPU_OP_MAXPOOL);
	d->flags |= VPUX_DPU_F_BIAS; })
BAD(avgpool_bias, FLAGS, { pool(d, VPUX_DPU_OP_AVGPOOL);
	d->flags |= VPUX_DPU_F_BIAS; })
BAD(maxpool_count_pad, FLAGS, { pool(d, VPUX_DPU_OP_MAXPOOL);
	d->flags |= VPUX_DPU_F_COUNT_PAD; })
BAD(avgpool_bcast, FLAGS, { pool(d, VPUX_DPU_OP_AVGPOOL);
	d->flags |= 2u << VPUX_DPU_F_BCAST_SHIFT; })
/* FP16-only flags and op in integer mode (requant x1.0, clamp 0..255) */
#define INT_MODE() do { d->flags &= ~VPUX_DPU_F_FP16; \
	d->requant = (struct vpux_hw_requant){ 1 << 30, -1 }; \
	d->act_max = 255; } while (0)
BAD(int_scale, FLAGS, { INT_MODE(); d->flags |= VPUX_DPU_F_SCALE; })
BAD(int_batch, FLAGS, { flat(d, VPUX_DPU_OP_MATMUL); INT_MODE();
	d->flags |= VPUX_DPU_F_BATCH; })
BAD(int_w_kn, FLAGS, { flat(d, VPUX_DPU_OP_MATMUL); INT_MODE();
	d->flags |= VPUX_DPU_F_W_KN; })
BAD(int_bcast, FLAGS, { flat(d, VPUX_DPU_OP_MUL); INT_MODE();
	d->flags |= 1u << VPUX_DPU_F_BCAST_SHIFT; })
BAD(int_count_pad, FLAGS, { pool(d, VPUX_DPU_OP_AVGPOOL); INT_MODE();
	d->flags |= VPUX_DPU_F_COUNT_PAD; })
BAD(int_sub, FLAGS, { flat(d, VPUX_DPU_OP_SUB); INT_MODE(); })
BAD(int_sub_flagged, FLAGS, { flat(d, VPUX_DPU_OP_SUB); INT_MODE();
	d->flags |= VPUX_DPU_F_IN_SIGNED; })

struct bad {
	const char *name;
	enum vpux_dpu_rule rule;
	void (*mut)(struct vpux_hw_dpu_desc *d);
};

static const struct bad bads[] = {
#define B(n, r) { #n, VPUX_DPU_RULE_##r, bad_##n }
	B(act, ACT), B(act_high, ACT), B(zero0_0, RESERVED),
	B(zero0_1, RESERVED), B(zero1_0, RESERVED), B(zero1_1, RESERVED),
	B(zero1_2, RESERVED), B(reserved0, RESERVED), B(reserved1, RESERVED),
	B(clamp_lo_nan, ACT_MIN), B(clamp_order, ACT_MIN),
	B(clamp_order_inf, ACT_MIN), B(clamp_lo_unused, ACT_MIN),
	B(clamp_hi_nan, ACT_MAX), B(clamp_hi_unused, ACT_MAX),
	B(scale_nan, SCALE), B(shift_nan, SCALE), B(scale_unused, SCALE),
	B(shift_unused, SCALE), B(scale_per_channel, SCALE),
	B(slope_nan, SLOPE), B(slope_unused, SLOPE),
	B(slope_leaky_ch, SLOPE), B(slope_relu, SLOPE),
	B(in_signed, FLAGS), B(w_signed, FLAGS), B(out_signed, FLAGS),
	B(scale_and_pc, FLAGS), B(conv_batch, FLAGS), B(conv_w_kn, FLAGS),
	B(conv_bcast, FLAGS), B(conv_count_pad, FLAGS), B(flag_13, FLAGS),
	B(flag_31, FLAGS), B(matmul_bcast, FLAGS),
	B(matmul_count_pad, FLAGS), B(add_bias, FLAGS), B(sub_bias, FLAGS),
	B(mul_bias, FLAGS), B(add_batch, FLAGS), B(maxpool_bias, FLAGS),
	B(avgpool_bias, FLAGS), B(maxpool_count_pad, FLAGS),
	B(avgpool_bcast, FLAGS), B(int_scale, FLAGS), B(int_batch, FLAGS),
	B(int_w_kn, FLAGS), B(int_bcast, FLAGS), B(int_count_pad, FLAGS),
	B(int_sub, FLAGS), B(int_sub_flagged, FLAGS),
#undef B
};

/* edge descriptors that are valid: bounds, Inf, -0, every op's flags */
#define GOOD(n, body) \
	static void good_##n(struct vpux_hw_dpu_desc *d) { body; }

GOOD(plain, (void)d)
GOOD(clamp_point, { d->f.act = VPUX_DPU_ACT_CLAMP;
	d->f.clamp_lo = d->f.clamp_hi = VPUX_F32_ONE; })
GOOD(clamp_zeros, { d->f.act = VPUX_DPU_ACT_CLAMP;
	d->f.clamp_lo = 0; d->f.clamp_hi = VPUX_F32_SIGN; })
GOOD(clamp_inf, { d->f.act = VPUX_DPU_ACT_CLAMP;
	d->f.clamp_lo = VPUX_F32_INF | VPUX_F32_SIGN;
	d->f.clamp_hi = VPUX_F32_INF; })
GOOD(leaky_inf, { d->f.act = VPUX_DPU_ACT_LEAKY; d->f.slope = VPUX_F32_INF; })
GOOD(leaky_ch, { d->f.act = VPUX_DPU_ACT_LEAKY_CH; })
GOOD(scale_inf, { d->flags |= VPUX_DPU_F_SCALE; d->f.scale = VPUX_F32_INF;
	d->f.shift = VPUX_F32_SIGN; })
GOOD(per_channel, d->flags |= VPUX_DPU_F_PER_CHANNEL | VPUX_DPU_F_BIAS |
	VPUX_DPU_F_OUT_F32)
GOOD(matmul_all, { flat(d, VPUX_DPU_OP_MATMUL); d->flags |=
	VPUX_DPU_F_BATCH | VPUX_DPU_F_W_KN | VPUX_DPU_F_BIAS |
	VPUX_DPU_F_SCALE; })
GOOD(sub_scalar, { flat(d, VPUX_DPU_OP_SUB);
	d->flags |= 3u << VPUX_DPU_F_BCAST_SHIFT; })
GOOD(add_hw, { flat(d, VPUX_DPU_OP_ADD);
	d->flags |= 2u << VPUX_DPU_F_BCAST_SHIFT; })
GOOD(mul_c, { flat(d, VPUX_DPU_OP_MUL);
	d->flags |= 1u << VPUX_DPU_F_BCAST_SHIFT; })
GOOD(avgpool_count_pad, { pool(d, VPUX_DPU_OP_AVGPOOL);
	d->flags |= VPUX_DPU_F_COUNT_PAD | VPUX_DPU_F_PER_CHANNEL; })

static const struct {
	const char *name;
	void (*mut)(struct vpux_hw_dpu_desc *d);
	u64 in2, bias, quant, out;	/* the extents that follow */
} goods[] = {
#define G(n, in2, bias, quant, out) { #n, good_##n, in2, bias, quant, out }
	G(plain, 144, 0, 0, 40), G(clamp_point, 144, 0, 0, 40),
	G(clamp_zeros, 144, 0, 0, 40), G(clamp_inf, 144, 0, 0, 40),
	G(leaky_inf, 144, 0, 0, 40), G(leaky_ch, 144, 0, 32, 40),
	G(scale_inf, 144, 0, 0, 40), G(per_channel, 144, 8, 32, 80),
	G(matmul_all, 5 * 8 * 2, 8, 0, 120), G(sub_scalar, 2, 0, 0, 240),
	G(add_hw, 60, 0, 0, 240), G(mul_c, 8, 0, 0, 240),
	G(avgpool_count_pad, 0, 0, 64, 80),
#undef G
};

static void test_rules(void)
{
	static u8 buf[4096];
	struct vpux_dpu_operands o = {
		.in = buf, .in2 = buf, .bias = (const s32 *)buf,
		.quant = (const struct vpux_hw_requant *)buf, .out = buf,
	};
	struct vpux_hw_dpu_desc d;
	struct vpux_dpu_extents e;
	unsigned int i;
	int r1, r2, r3;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		enum vpux_dpu_rule rule;

		base(&d);
		bads[i].mut(&d);
		memset(&e, 0xff, sizeof(e));
		rule = vpux_dpu_check(&d, &e);
		memset(&e, 0xff, sizeof(e));
		r1 = vpux_dpu_extents(&d, &e);
		memset(buf, 0x33, sizeof(buf));
		r2 = vpux_dpu_run(&d, &o);
		r3 = vpux_ref_dpu_run(&d, &o);
		tap_check(rule == bads[i].rule && r1 == VPUX_ERR(DESC) &&
			  r2 == r1 && r3 == r1 && !e.in && !e.out &&
			  !e.macs && buf[0] == 0x33,
			  "rules: %s is refused by rule '%s' (got '%s'; %d %d %d)",
			  bads[i].name, vpux_dpu_rule_field(bads[i].rule),
			  vpux_dpu_rule_field(rule), r1, r2, r3);
	}
	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		base(&d);
		goods[i].mut(&d);
		r1 = vpux_dpu_extents(&d, &e);
		r2 = vpux_dpu_run(&d, &o);
		tap_check(!r1 && !r2 && e.in == 240 && e.in2 == goods[i].in2 &&
			  e.bias == goods[i].bias &&
			  e.quant == goods[i].quant && e.out == goods[i].out,
			  "rules: %s is valid, extents in %llu in2 %llu bias %llu quant %llu out %llu (%d %d)",
			  goods[i].name, (unsigned long long)e.in,
			  (unsigned long long)e.in2,
			  (unsigned long long)e.bias,
			  (unsigned long long)e.quant,
			  (unsigned long long)e.out, r1, r2);
	}

	/* the run functions' operand checks, before writing anything */
	base(&d);
	d.f.act = VPUX_DPU_ACT_LEAKY_CH;
	o.quant = NULL;
	memset(buf, 0x33, sizeof(buf));
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC) && buf[0] == 0x33,
		  "rules: LEAKY_CH without per-channel records is refused at run time");
	d.f.act = 0;
	d.flags |= VPUX_DPU_F_PER_CHANNEL;
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC) && buf[0] == 0x33,
		  "rules: PER_CHANNEL without records is refused at run time");
	d.flags = VPUX_DPU_F_FP16 | VPUX_DPU_F_BIAS;
	o.bias = NULL;
	tap_check(vpux_dpu_run(&d, &o) == VPUX_ERR(DESC) &&
		  vpux_ref_dpu_run(&d, &o) == VPUX_ERR(DESC) && buf[0] == 0x33,
		  "rules: BIAS without a bias is refused at run time");
}

/* ---- cycles ---- */

static void test_cycles(void)
{
	struct vpux_hw_dpu_desc d;
	struct vpux_dpu_extents e;
	u64 c, want;

	base(&d);
	d.in_c = 64;
	d.out_c = 64;
	d.in_h = d.in_w = d.out_h = d.out_w = 16;
	d.stride_h = 1;
	d.pad_bottom = d.pad_right = 1;
	vpux_dpu_extents(&d, &e);
	c = vpux_dpu_cycles(&d);
	want = VPUX_DPU_CYCLES_SETUP + (e.macs + 127) / 128;
	tap_check(c == want && e.macs == 16 * 16 * 64 * 576,
		  "cycles: an FP16 CONV retires 128 MACs per cycle (%llu, want %llu)",
		  (unsigned long long)c, (unsigned long long)want);
	d.flags &= ~VPUX_DPU_F_FP16;
	d.requant = (struct vpux_hw_requant){ 1 << 30, -1 };
	d.act_max = 255;
	tap_check(vpux_dpu_cycles(&d) == VPUX_DPU_CYCLES_SETUP +
		  (e.macs + 255) / 256, "cycles: the same CONV in int8 takes half as long");
	base(&d);
	pool(&d, VPUX_DPU_OP_MAXPOOL);
	d.in_c = d.out_c = 64;
	d.in_h = d.in_w = 32;
	d.kernel_h = d.kernel_w = 8;
	d.stride_h = d.stride_w = 1;
	d.pad_top = d.pad_left = 0;
	d.out_h = d.out_w = 25;
	vpux_dpu_extents(&d, &e);
	c = vpux_dpu_cycles(&d);
	want = VPUX_DPU_CYCLES_SETUP + (e.macs + 15) / 16;
	tap_check(c == want, "cycles: FP16 pooling does 16 element operations per cycle (%llu, want %llu)",
		  (unsigned long long)c, (unsigned long long)want);
}

/* ---- yields and aborts ---- */

static void test_yield(void)
{
	static const u32 ops[] = { VPUX_DPU_OP_CONV, VPUX_DPU_OP_MATMUL,
				   VPUX_DPU_OP_SUB, VPUX_DPU_OP_AVGPOOL };
	struct vpux_hw_dpu_desc d;
	unsigned int i, k, y;
	struct ops p;
	u8 *out;
	u64 j;
	int r;

	for (i = 0; i < NPATHS; i++) {
		if (!path_ok[i])
			continue;
		for (k = 0; k < 4; k++) {
			ot_seed(70 + k);
			do {
				while (!rnd_desc(&d, ops[k]))
					;
			} while (d.out_h < 3 || d.out_w < 2);
			d.flags &= ~VPUX_DPU_F_BATCH;
			vpux_dpu_extents(&d, &p.e);
			ops_alloc(&p, &d);
			out = malloc(p.e.out);
			r = run(&d, &p, i, out, &y);
			tap_check(!r && y >= (ops[k] == VPUX_DPU_OP_MATMUL ?
					      1u : d.out_h),
				  "yield %s %s: %u calls for %u rows", path_name[i],
				  op_name[ops[k]], y, d.out_h);
			vpux_dpu_set_path(path_id[i]);
			yields = 0;
			stop_after = y < 2 ? 1 : 2;
			r = vpux_dpu_run(&d, &p.o);
			tap_check(r == VPUX_ERR(ABORTED) && yields == stop_after,
				  "yield %s %s: true from yield aborts the op (%d after %u)",
				  path_name[i], op_name[ops[k]], r, yields);
			ops_free(&p);
			free(out);
		}
	}

	/*
	 * A large MATMUL: preparing the operands counts as work, so the
	 * first yield comes before any output, and stopping there leaves
	 * the output untouched (SIMD); the generic code yields within the
	 * first row.
	 */
	memset(&d, 0, sizeof(d));
	d.op = VPUX_DPU_OP_MATMUL;
	d.flags = VPUX_DPU_F_FP16;
	d.in_h = d.out_h = 1;
	d.in_w = d.out_w = 2048;
	d.in_c = 1024;
	d.out_c = 3;
	vpux_dpu_extents(&d, &p.e);
	ops_alloc(&p, &d);
	out = malloc(p.e.out);
	for (i = 0; i < NPATHS; i++) {
		if (!path_ok[i])
			continue;
		memset(out, 0x5a, p.e.out);
		vpux_dpu_set_path(path_id[i]);
		yields = 0;
		stop_after = 1;
		p.o.out = out;
		r = vpux_dpu_run(&d, &p.o);
		for (j = 0; j < p.e.out && out[j] == 0x5a; j++)
			;
		tap_check(r == VPUX_ERR(ABORTED) && yields == 1 &&
			  (i == 0 ? j < p.e.out : j == p.e.out),
			  "yield %s: a 2M-element MATMUL stops at its first yield (%d, %llu of %llu bytes untouched)",
			  path_name[i], r, (unsigned long long)j,
			  (unsigned long long)p.e.out);
	}
	ops_free(&p);
	free(out);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < NPATHS; i++) {
		path_ok[i] = vpux_dpu_set_path(path_id[i]) == path_id[i];
		if (path_ok[i])
			tap_check(1, "path %s: available", path_name[i]);
		else
			tap_skip(i == 1 ? "path avx2: no AVX2 kernels on this CPU or build" :
				 "path avx512f: the AVX-512 VNNI path is not granted on this CPU or build");
	}
	test_arith();
	test_rules();
	test_cycles();
	test_random();
	test_shapes();
	test_wcache();
	test_nested();
	test_threads();
	test_yield();
	vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	return tap_finish();
}
