// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DPU code paths against each other: every random descriptor runs on the
 * plain reference, on the generic kernels (what the kernel module runs)
 * and on every SIMD path this CPU has in user space (x86-64: AVX2, AVX-512
 * VNNI; a SKIP line for each it lacks), and all must write the same bytes.
 * The shapes aim at the SIMD kernels' edges: pixel counts and channel
 * counts around their block sizes (6 pixels, 16 and 64 channels, groups
 * of 2 and 4 input channels), odd channel counts, every signedness
 * combination, strides, dilations, padding larger than the kernel,
 * depthwise, groups and channel multipliers (which the generic code
 * runs), per-channel requant with extreme shifts, biases that saturate
 * the accumulator, int32 output, operands at the ends of their ranges.
 * Plus yields and aborts. TAP output; built with ASan/UBSan by make
 * host-check.
 */
#include "vpux_tap.h"
#include "ops_test.h"

static unsigned int yields, stop_after;

/* the SIMD paths under test: those the CPU has */
static const char *const path_name[] = {
	[VPUX_DPU_PATH_AUTO] = "auto",
	[VPUX_DPU_PATH_GENERIC] = "generic",
	[VPUX_DPU_PATH_AVX2] = "avx2",
	[VPUX_DPU_PATH_AVX512VNNI] = "avx512vnni",
};
static int paths[2];
static unsigned int npaths;

/* name of the k-th path compared: paths[], then the generic code */
static const char *kname(unsigned int k)
{
	return path_name[k < npaths ? paths[k] : VPUX_DPU_PATH_GENERIC];
}

static bool yield_cb(void *arg)
{
	(void)arg;
	return ++yields >= stop_after;
}

static s32 pick(const s32 *v, u32 n)
{
	return v[ot_rand() % n];
}

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

/* channel counts around the SIMD block of 16 and the pair of 2 */
static u16 chans(void)
{
	static const s32 edge[] = { 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 48,
				    63, 64, 65 };

	return (u16)(ot_rand() % 2 ? pick(edge, 15) : ot_range(1, 70));
}

static void rand_rq(struct vpux_hw_requant *q)
{
	static const s32 sh[] = { -31, -20, -1, 0, 1, 30, 31 };

	q->mult = ot_rand() % 8 ? ot_range(1 << 29, 0x7fffffff) :
		  ot_range(1, 0x7fffffff);
	q->shift = ot_rand() % 3 ? ot_range(6, 16) : pick(sh, 7);
}

/* a random CONV (dense, grouped, depthwise) or MATMUL, @combo signedness */
static bool rand_desc(struct vpux_hw_dpu_desc *d, u32 combo)
{
	bool in_s = combo & 1, w_s = combo & 2, out_s;
	s32 a, b;

	memset(d, 0, sizeof(*d));
	d->in_h = dim(14);
	d->in_w = dim(14);
	d->groups = 1;
	if (ot_rand() % 4 == 0) {
		d->op = VPUX_DPU_OP_MATMUL;
		d->in_c = ot_rand() % 2 ? chans() : (u16)ot_range(1, 600);
		d->out_c = chans();
		d->out_h = d->in_h;
		d->out_w = d->in_w;
	} else {
		d->op = VPUX_DPU_OP_CONV;
		switch (ot_rand() % 6) {
		case 0:		/* depthwise, maybe a channel multiplier */
			d->in_c = d->groups = chans();
			d->out_c = d->in_c * (ot_rand() % 3 ? 1 : 2);
			break;
		case 1:		/* grouped */
			d->groups = (u16)ot_range(2, 4);
			d->in_c = d->groups * dim(9);
			d->out_c = d->groups * dim(9);
			break;
		default:	/* dense: the SIMD kernels' case */
			d->in_c = chans();
			d->out_c = chans();
			break;
		}
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
		if ((u32)d->in_h + d->pad_top + d->pad_bottom <
		    d->dilation_h * (d->kernel_h - 1u) + 1u ||
		    (u32)d->in_w + d->pad_left + d->pad_right <
		    d->dilation_w * (d->kernel_w - 1u) + 1u)
			return false;
		d->out_h = (u16)(((u32)d->in_h + d->pad_top + d->pad_bottom -
				  d->dilation_h * (d->kernel_h - 1u) - 1u) /
				 d->stride_h + 1u);
		d->out_w = (u16)(((u32)d->in_w + d->pad_left + d->pad_right -
				  d->dilation_w * (d->kernel_w - 1u) - 1u) /
				 d->stride_w + 1u);
	}
	d->flags = (in_s ? VPUX_DPU_F_IN_SIGNED : 0) |
		   (w_s ? VPUX_DPU_F_W_SIGNED : 0) |
		   (ot_rand() % 2 ? VPUX_DPU_F_OUT_SIGNED : 0) |
		   (ot_rand() % 3 ? VPUX_DPU_F_BIAS : 0) |
		   (ot_rand() % 2 ? VPUX_DPU_F_PER_CHANNEL : 0);
	out_s = d->flags & VPUX_DPU_F_OUT_SIGNED;
	d->in_zp = ot_rand() % 4 ? ot_range(vpux_q8_min(in_s), vpux_q8_max(in_s)) :
		   ot_rand() % 2 ? vpux_q8_min(in_s) : vpux_q8_max(in_s);
	d->in2_zp = ot_rand() % 3 ? ot_range(vpux_q8_min(w_s), vpux_q8_max(w_s)) :
		    ot_rand() % 2 ? vpux_q8_max(w_s) : 0;
	if (ot_rand() % 8 == 0) {
		/* raw accumulators: every bit of them is compared */
		d->flags &= ~(VPUX_DPU_F_OUT_SIGNED | VPUX_DPU_F_PER_CHANNEL);
		d->flags |= VPUX_DPU_F_OUT_I32;
		return true;
	}
	d->out_zp = ot_range(vpux_q8_min(out_s), vpux_q8_max(out_s));
	a = ot_range(vpux_q8_min(out_s), vpux_q8_max(out_s));
	b = ot_range(vpux_q8_min(out_s), vpux_q8_max(out_s));
	d->act_min = ot_rand() % 2 ? vpux_q8_min(out_s) : (a < b ? a : b);
	d->act_max = ot_rand() % 2 ? vpux_q8_max(out_s) : (a < b ? b : a);
	if (d->act_min > d->act_max)
		d->act_min = d->act_max;
	if (!(d->flags & VPUX_DPU_F_PER_CHANNEL))
		rand_rq(&d->requant);
	return true;
}

struct ops {
	struct vpux_dpu_extents e;
	struct vpux_dpu_operands o;
	struct vpux_hw_requant *q;
};

static void ops_alloc(struct ops *p, const struct vpux_hw_dpu_desc *d)
{
	u32 i, mode = ot_rand() % 8;
	u8 *in, *w;

	memset(&p->o, 0, sizeof(p->o));
	in = ot_alloc_rand(p->e.in);
	w = ot_alloc_rand(p->e.in2);
	/* now and then operands at the ends of their ranges */
	if (mode == 0) {
		memset(in, ot_rand() % 2 ? 0x80 : 0x7f, p->e.in);
		memset(w, ot_rand() % 2 ? 0x80 : 0xff, p->e.in2);
	} else if (mode == 1) {
		for (i = 0; i < p->e.in; i++)
			in[i] = ot_rand() % 2 ? 0 : 0xff;
	}
	p->o.in = in;
	p->o.in2 = w;
	if (p->e.bias) {
		s32 *bias = ot_alloc_rand(p->e.bias);

		for (i = 0; i < d->out_c; i++)
			bias[i] = ot_rand() % 4 ? ot_range(-300000, 300000) :
				  ot_rand() % 2 ? (s32)ot_rand() :
				  ot_rand() % 2 ? VPUX_S32_MAX : VPUX_S32_MIN;
		p->o.bias = bias;
	}
	p->q = NULL;
	if (p->e.quant) {
		p->q = malloc(p->e.quant);
		for (i = 0; i < d->out_c; i++)
			rand_rq(&p->q[i]);
		p->o.quant = p->q;
	}
	p->o.yield = yield_cb;
}

static void ops_free(struct ops *p)
{
	free((void *)p->o.in);
	free((void *)p->o.in2);
	free((void *)p->o.bias);
	free(p->q);
}

/* run @d on @path into @out; returns the result, *@ny the yields */
static int run(const struct vpux_hw_dpu_desc *d, struct ops *p, int path,
	       u8 *out, unsigned int *ny)
{
	int ret;

	memset(out, 0x5a, p->e.out);
	p->o.out = out;
	yields = 0;
	stop_after = ~0u;
	if (path < 0) {
		ret = vpux_ref_dpu_run(d, &p->o);
	} else {
		vpux_dpu_set_path(path);
		ret = vpux_dpu_run(d, &p->o);
	}
	*ny = yields;
	return ret;
}

static unsigned int n_simd_cases, n_out, n_inside;

/* why the output @got of path @name differs from @ref (or does not) */
static void diag_one(const struct vpux_hw_dpu_desc *d, const struct ops *p,
		     u32 n, const char *name, const u8 *ref, const u8 *got,
		     int r0, int r, unsigned int y)
{
	u64 i;

	for (i = 0; i < p->e.out && ref[i] == got[i];)
		i++;
	tap_diag("case %u %s: %s in %ux%ux%u out %ux%ux%u k %ux%u s %ux%u p %u,%u,%u,%u d %ux%u g %u flags %#x zp %d,%d,%d ret %d/%d yields %u first diff at byte %llu: ref %u %s %u",
		 n, name, d->op == VPUX_DPU_OP_CONV ? "conv" : "matmul",
		 d->in_h, d->in_w, d->in_c, d->out_h, d->out_w,
		 d->out_c, d->kernel_h, d->kernel_w, d->stride_h,
		 d->stride_w, d->pad_top, d->pad_left, d->pad_bottom,
		 d->pad_right, d->dilation_h, d->dilation_w,
		 d->groups, d->flags, d->in_zp, d->in2_zp, d->out_zp,
		 r0, r, y, (unsigned long long)i,
		 i < p->e.out ? ref[i] : 0, name, i < p->e.out ? got[i] : 0);
}

/*
 * @d on the reference, the generic code and each SIMD path under test;
 * bit i of the result is set if path paths[i] agreed with the reference
 * (bit npaths: the generic code).
 */
static u32 compare_one(const struct vpux_hw_dpu_desc *d, u32 n)
{
	struct ops p;
	u8 *ref, *got;
	unsigned int y0, y;
	u32 ok = 0, k;
	int r0, r;
	u64 i;

	if (vpux_dpu_extents(d, &p.e)) {
		tap_diag("case %u: invalid descriptor", n);
		return 0;
	}
	ops_alloc(&p, d);
	ref = malloc(p.e.out);
	got = malloc(p.e.out);
	r0 = run(d, &p, -1, ref, &y0);
	for (k = 0; k <= npaths; k++) {
		int path = k < npaths ? paths[k] : VPUX_DPU_PATH_GENERIC;

		r = run(d, &p, path, got, &y);
		if (!r0 && !r && y && !memcmp(ref, got, p.e.out))
			ok |= 1u << k;
		else
			diag_one(d, &p, n, path_name[path], ref, got, r0, r, y);
	}
	for (i = 0; i < p.e.out && !(d->flags & VPUX_DPU_F_OUT_I32); i++) {
		s32 v = d->flags & VPUX_DPU_F_OUT_SIGNED ? (s8)ref[i] : ref[i];

		n_out++;
		n_inside += v > d->act_min && v < d->act_max;
	}
	n_simd_cases += d->groups == 1 ||
			(d->groups == d->in_c && d->out_c == d->in_c);
	ops_free(&p);
	free(ref);
	free(got);
	return ok;
}

static void test_random(void)
{
	unsigned int n = 0, tries = 0, n_i32 = 0, k;
	unsigned int pass[3] = { 0 }, combo_ok[3][4] = { { 0 } };
	const unsigned int cases = 1200;
	struct vpux_hw_dpu_desc d;

	ot_seed(4242);
	while (n < cases && tries++ < cases * 10) {
		u32 combo = n % 4, ok;

		if (!rand_desc(&d, combo))
			continue;
		ok = compare_one(&d, n);
		for (k = 0; k <= npaths; k++) {
			pass[k] += (ok >> k) & 1;
			combo_ok[k][combo] += (ok >> k) & 1;
		}
		n_i32 += !!(d.flags & VPUX_DPU_F_OUT_I32);
		n++;
	}
	for (k = 0; k <= npaths; k++)
		tap_check(n == cases && pass[k] == n,
			  "random %s: %u/%u CONV/MATMUL cases bit-exact with the reference (%u on the SIMD kernels' ops, %u with int32 output; u8/s8 x u8/s8: %u %u %u %u)",
			  kname(k),
			  pass[k], n, n_simd_cases, n_i32, combo_ok[k][0],
			  combo_ok[k][1], combo_ok[k][2], combo_ok[k][3]);
	tap_check(n_inside * 4 > n_out,
		  "random: %u of %u outputs inside the clamp range", n_inside,
		  n_out);
}

/* the target shape and a few large ones, once each */
static void test_shapes(void)
{
	static const u16 shp[][7] = {	/* hw, cin, cout, k, stride, pad, dw */
		{ 56, 64, 64, 3, 1, 1, 0 },
		{ 29, 33, 47, 3, 2, 1, 0 },
		{ 14, 130, 18, 5, 1, 2, 0 },
		{ 9, 3, 100, 7, 2, 3, 0 },
		{ 20, 1, 1, 1, 1, 0, 0 },
		{ 12, 64, 200, 3, 1, 1, 0 },	/* 64-channel groups and a tail */
		{ 56, 128, 128, 3, 1, 1, 1 },
		{ 17, 40, 40, 5, 2, 2, 1 },
	};
	unsigned int i, k, pass[3] = { 0 };

	ot_seed(99);
	for (i = 0; i < sizeof(shp) / sizeof(shp[0]); i++) {
		struct vpux_hw_dpu_desc d;
		u32 ok;

		while (!rand_desc(&d, i % 4))
			;
		d.op = VPUX_DPU_OP_CONV;
		d.groups = shp[i][6] ? shp[i][1] : 1;
		d.in_h = d.in_w = shp[i][0];
		d.in_c = shp[i][1];
		d.out_c = shp[i][2];
		d.kernel_h = d.kernel_w = shp[i][3];
		d.stride_h = d.stride_w = shp[i][4];
		d.dilation_h = d.dilation_w = 1;
		d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = shp[i][5];
		d.out_h = d.out_w = (u16)((shp[i][0] + 2 * shp[i][5] - shp[i][3]) /
					  shp[i][4] + 1);
		ok = compare_one(&d, 10000 + i);

		for (k = 0; k <= npaths; k++)
			pass[k] += (ok >> k) & 1;
	}
	for (k = 0; k <= npaths; k++)
		tap_check(pass[k] == i,
			  "shapes %s: %u/%u larger convolutions (dense, depthwise) bit-exact",
			  kname(k),
			  pass[k], i);
}

/* @d with every input byte @xv and every weight @wv, on @path */
static void extreme_case(const struct vpux_hw_dpu_desc *d, u8 xv, u8 wv,
			 int path, const char *what)
{
	struct ops p;
	u8 *a, *b;
	unsigned int y;
	int r0, r1;

	vpux_dpu_extents(d, &p.e);
	ot_seed(5);
	ops_alloc(&p, d);
	memset((void *)p.o.in, xv, p.e.in);
	memset((void *)p.o.in2, wv, p.e.in2);
	a = malloc(p.e.out);
	b = malloc(p.e.out);
	r0 = run(d, &p, -1, a, &y);
	r1 = run(d, &p, path, b, &y);
	tap_check(!r0 && !r1 && !memcmp(a, b, p.e.out), "extremes %s: %s",
		  path_name[path], what);
	ops_free(&p);
	free(a);
	free(b);
}

/*
 * Reductions of VPUX_DPU_MAX_K with every product at its extreme:
 * accumulators near -2^31, through the output stage and as int32, for
 * the signedness combinations whose bit flips move both zero points;
 * and one input channel under a 181x181 kernel, padded to 4 channels on
 * the VNNI path, where the folded terms of K' = 4 x 32761 wrap 2^32.
 */
static void test_extreme_acc(int path)
{
	struct vpux_hw_dpu_desc d;

	memset(&d, 0, sizeof(d));
	d.op = VPUX_DPU_OP_MATMUL;
	d.in_h = 7;
	d.in_w = 1;
	d.out_h = 7;
	d.out_w = 1;
	d.in_c = 32768;
	d.out_c = 17;
	d.in_zp = 255;
	d.in2_zp = -128;
	d.flags = VPUX_DPU_F_W_SIGNED | VPUX_DPU_F_OUT_SIGNED | VPUX_DPU_F_BIAS;
	d.requant.mult = 0x7fffffff;
	d.requant.shift = 22;
	d.act_min = -128;
	d.act_max = 127;
	/* x - zp = -255, w - zp = 255 */
	extreme_case(&d, 0, 127, path, "|acc| = 32768 * 255 * 255, u8 x s8");
	d.flags = VPUX_DPU_F_W_SIGNED | VPUX_DPU_F_BIAS | VPUX_DPU_F_OUT_I32;
	d.out_zp = d.act_min = d.act_max = 0;
	memset(&d.requant, 0, sizeof(d.requant));
	extreme_case(&d, 0, 127, path,
		     "|acc| = 32768 * 255 * 255, u8 x s8, int32 out");
	d.flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_OUT_I32;
	d.in_zp = 127;
	d.in2_zp = 0;
	/* x - zp = -128 - 127, w - zp = 255 */
	extreme_case(&d, 0x80, 255, path,
		     "|acc| = 32768 * 255 * 255, s8 x u8, int32 out");
	d.op = VPUX_DPU_OP_CONV;
	d.flags = VPUX_DPU_F_OUT_I32;
	d.in_h = d.in_w = d.kernel_h = d.kernel_w = 181;
	d.out_h = d.out_w = 1;
	d.in_c = 1;
	d.out_c = 3;
	d.groups = 1;
	d.stride_h = d.stride_w = d.dilation_h = d.dilation_w = 1;
	d.in_zp = 255;
	d.in2_zp = 0;
	extreme_case(&d, 0, 255, path,
		     "one channel, 181x181 kernel: acc = -32761 * 255 * 255, int32 out");
}

/* yields after every row, and an abort is an abort on every path */
static void test_yield(int simd)
{
	struct vpux_hw_dpu_desc d;
	struct ops p;
	u8 *out;
	unsigned int y;
	u64 i;
	int r;

	ot_seed(7);
	while (!rand_desc(&d, 2))
		;
	d.op = VPUX_DPU_OP_CONV;
	d.groups = 1;
	d.in_c = 20;
	d.out_c = 20;
	d.in_h = d.in_w = d.out_h = d.out_w = 9;
	d.kernel_h = d.kernel_w = 1;
	d.stride_h = d.stride_w = d.dilation_h = d.dilation_w = 1;
	d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 0;
	vpux_dpu_extents(&d, &p.e);
	ops_alloc(&p, &d);
	out = malloc(p.e.out);
	r = run(&d, &p, simd, out, &y);
	tap_check(!r && y >= d.out_h, "yield %s: %u calls for %u rows",
		  path_name[simd], y, d.out_h);
	vpux_dpu_set_path(simd);
	yields = 0;
	stop_after = 2;
	p.o.out = out;
	r = vpux_dpu_run(&d, &p.o);
	tap_check(r == VPUX_ERR(ABORTED) && yields == 2,
		  "yield %s: true from yield aborts the op (%d after %u)",
		  path_name[simd], r, yields);
	ops_free(&p);
	free(out);

	/*
	 * A large input: preparing the operands counts as work too, so the
	 * first yield comes before any output, and stopping there leaves
	 * the output untouched (the SIMD paths; the generic code has
	 * nothing to prepare). int32 output would run on the generic code
	 * of the AVX2 path.
	 */
	while (!rand_desc(&d, 0) || (d.flags & VPUX_DPU_F_OUT_I32))
		;
	d.op = VPUX_DPU_OP_MATMUL;
	d.groups = 0;
	d.in_h = d.out_h = 1;
	d.in_w = d.out_w = 2048;
	d.in_c = 1024;
	d.out_c = 3;
	d.kernel_h = d.kernel_w = d.stride_h = d.stride_w = 0;
	d.dilation_h = d.dilation_w = 0;
	d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 0;
	vpux_dpu_extents(&d, &p.e);
	ops_alloc(&p, &d);
	out = malloc(p.e.out);
	memset(out, 0x5a, p.e.out);
	vpux_dpu_set_path(simd);
	yields = 0;
	stop_after = 1;
	p.o.out = out;
	r = vpux_dpu_run(&d, &p.o);
	for (i = 0; i < p.e.out && out[i] == 0x5a; i++)
		;
	tap_check(r == VPUX_ERR(ABORTED) && yields == 1 &&
		  (simd == VPUX_DPU_PATH_GENERIC || i == p.e.out),
		  "yield %s: a 2M-element input yields while it is prepared (%d, %u of %u bytes untouched)",
		  path_name[simd], r, (unsigned int)i, (unsigned int)p.e.out);
	ops_free(&p);
	free(out);
}

int main(void)
{
	static const int simd[] = { VPUX_DPU_PATH_AVX2, VPUX_DPU_PATH_AVX512VNNI };
	int path = vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	unsigned int k;

	tap_diag("dispatched path: %s", path_name[path]);
	tap_check(vpux_dpu_set_path(VPUX_DPU_PATH_GENERIC) ==
		  VPUX_DPU_PATH_GENERIC, "the generic path can be forced");
	for (k = 0; k < sizeof(simd) / sizeof(simd[0]); k++) {
		char why[128];

		path = vpux_dpu_set_path(simd[k]);
		if (path == simd[k]) {
			paths[npaths++] = path;
			continue;
		}
		snprintf(why, sizeof(why),
			 "%s: not in this build or on this CPU (granted: %s)",
			 path_name[simd[k]], path_name[path]);
		tap_skip(why);
	}
	test_random();
	test_shapes();
	for (k = 0; k < npaths; k++) {
		test_extreme_acc(paths[k]);
		test_yield(paths[k]);
	}
	/* the generic code's yields too */
	test_yield(VPUX_DPU_PATH_GENERIC);
	vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	return tap_finish();
}
