// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SHAVE kernels: accuracy of the fixed-point functions against libm,
 * known answers of the reference, the model's kernels against the
 * reference on randomised tensors (ranks, dims orders, padded strides,
 * data types; fixed seeds), and every argument check with its exact
 * error. TAP output. Floating point is used here only, to measure.
 */
#include <math.h>

/* the SHAVE memory of ops_test.h: 4 windows of 1 MiB, window 3: 64 bytes */
#define OT_NWIN		4u
#define OT_WIN_BYTES	(1u << 20)
#define OT_WIN_SMALL	3u
#define OT_WIN_NONE	OT_NWIN

#include "vpux_tap.h"
#include "ops_test.h"

#define ERR_ARGS	VPUX_ERR(ARGS)
#define ERR_MMU		VPUX_ERR(MMU)
#define ERR_KERNEL	VPUX_ERR(KERNEL)
#define WIN_BYTES	OT_WIN_BYTES

/* fill window @w of both memories with the same random bytes */
static void fill_both(unsigned int w)
{
	u32 i;

	for (i = 0; i < tm_a.size[w]; i++)
		tm_a.win[w][i] = tm_b.win[w][i] = (u8)ot_rand();
}


static u32 dt_bytes(u32 dt)
{
	return dt == VPUX_SHAVE_DT_I32 ? 4 : 1;
}

/*
 * Describe a tensor at window address @addr: logical @dims, memory order
 * @order (nibbles), compact strides plus @pad extra elements on each
 * non-innermost memory dim.
 */
static void mk_memref(struct vpux_memref *m, u32 addr, u32 dt, u32 rank,
		      const u32 *dims, u64 order, u32 pad)
{
	u64 bits = dt_bytes(dt) * 8;
	u32 i;

	memset(m, 0, sizeof(*m));
	m->addr = addr;
	m->is_static = 1;
	m->rank = rank;
	m->data_type = dt;
	m->dims_order = order;
	for (i = 0; i < rank; i++)
		m->dims[i] = dims[i];
	for (i = 0; i < rank; i++) {
		u32 d = (u32)(order >> (4 * i) & 0xf) - 1;

		m->strides[d] = bits;
		bits = bits * dims[d] + (i + 1 < rank ? pad * 8ull * dt_bytes(dt) : 0);
	}
}

static u64 order_of(const u32 *perm_mem, u32 rank)
{
	/* perm_mem[0] = innermost logical dim */
	u64 o = 0;
	u32 i;

	for (i = 0; i < rank; i++)
		o |= (u64)(perm_mem[i] + 1) << (4 * i);
	return o;
}

static u64 compact_order(u32 rank)	/* logical order, last dim innermost */
{
	u32 p[VPUX_MEMREF_MAX_RANK], i;

	for (i = 0; i < rank; i++)
		p[i] = rank - 1 - i;
	return order_of(p, rank);
}

static u64 random_order(u32 rank)
{
	u32 p[VPUX_MEMREF_MAX_RANK], i;

	for (i = 0; i < rank; i++)
		p[i] = i;
	for (i = rank; i > 1; i--) {
		u32 j = ot_rand() % i, t = p[i - 1];

		p[i - 1] = p[j];
		p[j] = t;
	}
	return order_of(p, rank);
}

/* ---- accuracy of the fixed-point functions ---- */

static void test_fixmath(void)
{
	double emax = 0, smax = 0, tmax = 0;
	s32 x;
	u32 t;

	for (t = 0; t < 40u << 16; t += 97) {
		double want = exp(-(double)t / 65536.0) * 1073741824.0;
		double err = fabs(vpux_fx_exp_neg_q30(t) - want) /
			     (want > 1 ? want : 1);

		if (want > (1 << 20) && err > emax)
			emax = err;
	}
	for (x = -(20 << 16); x <= 20 << 16; x += 61) {
		double s = 65536.0 / (1 + exp(-x / 65536.0));
		double th = 65536.0 * tanh(x / 65536.0);

		if (fabs(vpux_fx_sigmoid_q16(x) - s) > smax)
			smax = fabs(vpux_fx_sigmoid_q16(x) - s);
		if (fabs(vpux_fx_tanh_q16(x) - th) > tmax)
			tmax = fabs(vpux_fx_tanh_q16(x) - th);
	}
	tap_diag("exp: max relative error %.3g; sigmoid: max error %.3f/65536; tanh: %.3f/65536",
		 emax, smax, tmax);
	tap_check(emax < 2e-5, "exp(-t) Q30 relative error < 2e-5 above 2^-10 (%.3g)",
		  emax);
	tap_check(smax <= 1.0, "sigmoid Q16 error <= 1 LSB (%.3f)", smax);
	tap_check(tmax <= 2.0, "tanh Q16 error <= 2 LSB (%.3f)", tmax);
	tap_check(vpux_fx_sigmoid_q16(0) == 32768 &&
		  vpux_fx_sigmoid_q16(VPUX_S32_MIN) == 0 &&
		  vpux_fx_sigmoid_q16(VPUX_S32_MAX) == 65536 &&
		  vpux_fx_tanh_q16(0) == 0 &&
		  vpux_fx_tanh_q16(VPUX_S32_MIN) == -65536,
		  "sigmoid/tanh at 0 and at the int32 extremes");
	tap_check(vpux_fx_div_u64(~0ull, 3) == ~0ull / 3 &&
		  vpux_fx_div_u64(1ull << 48, 65536 + 7) == (1ull << 48) / 65543 &&
		  vpux_fx_div_u64(5, 0) == 0, "64-bit long division");
}

/* ---- running both implementations ---- */

static int run_both(u32 id, const void *args, u32 size, int *r_ref,
		    u64 *cycles)
{
	int r;

	tm_a.yields = tm_b.yields = 0;
	r = vpux_shave_run(id, args, size, &mem_a, cycles);
	*r_ref = vpux_ref_shave_run(id, args, size, &mem_b);
	return r;
}

/* real-valued scale -> Q31 requant record (test side only) */
static struct vpux_hw_requant scale_of(double s)
{
	struct vpux_hw_requant q = { 0, 0 };
	int e = 0;
	double m = frexp(s, &e);	/* s = m * 2^e, m in [0.5, 1) */

	long long mm = llround(m * 2147483648.0);

	if (mm == 0x80000000ll) {
		mm /= 2;
		e++;
	}
	q.mult = (s32)mm;
	q.shift = -e;
	return q;
}

static void test_kat(void)
{
	u32 dims[4] = { 2, 2, 3 }, i;
	int r, rr;
	u64 cyc;

	{	/* clamp I32 */
		struct vpux_shave_clamp_args a;
		static const s32 in[5] = { -70000, -5, 0, 7, 1 << 30 };
		static const s32 want[5] = { -100, -5, 0, 7, 100000 };
		s32 got[5];
		u32 d5 = 5;

		mk_memref(&a.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_I32, 1, &d5, 0x1, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 8), VPUX_SHAVE_DT_I32, 1, &d5, 0x1, 0);
		a.min = -100;
		a.max = 100000;
		memcpy(tm_b.win[0], in, sizeof(in));
		rr = vpux_ref_shave_run(VPUX_SHAVE_KERNEL_CLAMP, &a, sizeof(a), &mem_b);
		memcpy(got, tm_b.win[1] + 8, sizeof(got));
		tap_check(rr == 0 && !memcmp(got, want, sizeof(want)),
			  "kat clamp int32");
	}
	{	/* permute HWC 2x2x3 -> CHW 3x2x2 */
		struct vpux_shave_permute_args a;
		u32 od[3] = { 3, 2, 2 };
		static const u8 want[12] = { 0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11 };

		memset(&a, 0, sizeof(a));
		mk_memref(&a.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_U8, 3, dims, 0x123, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_U8, 3, od, 0x123, 0);
		a.perm[0] = 2;
		a.perm[1] = 0;
		a.perm[2] = 1;
		for (i = 0; i < 12; i++)
			tm_b.win[0][i] = (u8)i;
		rr = vpux_ref_shave_run(VPUX_SHAVE_KERNEL_PERMUTE, &a, sizeof(a), &mem_b);
		tap_check(rr == 0 && !memcmp(tm_b.win[1], want, 12),
			  "kat permute HWC -> CHW");
		/* the same as a reorder: logical CHW, stored HWC */
		memset(&a, 0, sizeof(a));
		mk_memref(&a.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_U8, 3, od, 0x231, 0);
		mk_memref(&a.out, VPUX_WADDR(2, 0), VPUX_SHAVE_DT_U8, 3, od, 0x123, 0);
		a.perm[1] = 1;
		a.perm[2] = 2;
		rr = vpux_ref_shave_run(VPUX_SHAVE_KERNEL_PERMUTE, &a, sizeof(a), &mem_b);
		tap_check(rr == 0 && !memcmp(tm_b.win[2], want, 12),
			  "kat reorder HWC -> CHW by dims order");
	}
	{	/* quantize: int32 -> int8 at scale 1/4, zp 3; uint8 -> int8 */
		struct vpux_shave_quantize_args a;
		static const s32 in[4] = { 10, -10, 1000, -6 };
		static const s8 want[4] = { 6, 1, 127, 2 };	/* 2.5 -> 3, -1.5 -> -1 */
		u32 d4 = 4;

		mk_memref(&a.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_I32, 1, &d4, 0x1, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_I8, 1, &d4, 0x1, 0);
		a.in_zp = 0;
		a.out_zp = 3;
		a.scale = scale_of(0.25);
		memcpy(tm_b.win[0], in, sizeof(in));
		rr = vpux_ref_shave_run(VPUX_SHAVE_KERNEL_QUANTIZE, &a, sizeof(a), &mem_b);
		tap_check(rr == 0 && !memcmp(tm_b.win[1], want, 4),
			  "kat quantize int32 -> int8");
		a.in.data_type = VPUX_SHAVE_DT_U8;
		a.in.strides[0] = 8;
		a.in_zp = 128;
		a.out_zp = 0;
		a.scale = scale_of(1.0);
		tm_b.win[0][0] = 0;
		tm_b.win[0][1] = 255;
		tm_b.win[0][2] = 128;
		tm_b.win[0][3] = 129;
		rr = vpux_ref_shave_run(VPUX_SHAVE_KERNEL_QUANTIZE, &a, sizeof(a), &mem_b);
		tap_check(rr == 0 && (s8)tm_b.win[1][0] == -128 &&
			  (s8)tm_b.win[1][1] == 127 && tm_b.win[1][2] == 0 &&
			  tm_b.win[1][3] == 1, "kat quantize uint8 -> int8");
	}
	{	/* sigmoid / tanh over all int8 inputs vs libm, +-1 */
		struct vpux_shave_lut_args a;
		u32 d256 = 256;
		int k, worst[2] = { 0, 0 };

		for (k = 0; k < 2; k++) {
			mk_memref(&a.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_I8, 1, &d256, 0x1, 0);
			mk_memref(&a.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_I8, 1, &d256, 0x1, 0);
			a.in_zp = 5;
			a.in_scale = scale_of(65536.0 / 16);	/* s_in = 1/16 */
			a.out_zp = k ? 0 : -128;
			a.out_scale = scale_of(k ? 128.0 / 65536 : 256.0 / 65536);
			for (i = 0; i < 256; i++)
				tm_b.win[0][i] = (u8)i;
			rr = vpux_ref_shave_run(k ? VPUX_SHAVE_KERNEL_TANH :
						VPUX_SHAVE_KERNEL_SIGMOID, &a,
						sizeof(a), &mem_b);
			for (i = 0; i < 256; i++) {
				double x = ((s8)i - 5) / 16.0;
				double y = k ? tanh(x) * 128 : 256 / (1 + exp(-x)) - 128;
				double w = fmin(fmax(floor(y + 0.5), -128), 127);
				int e = abs((s8)tm_b.win[1][i] - (int)w);

				if (e > worst[k])
					worst[k] = e;
			}
			tap_check(rr == 0 && worst[k] <= 1,
				  "kat %s int8 vs libm: max error %d LSB",
				  k ? "tanh" : "sigmoid", worst[k]);
		}
	}
	{	/* softmax: 4 values, beta * s_in = 1/8, out uint8 1/256 */
		struct vpux_shave_softmax_args a;
		static const u8 in[4] = { 0, 8, 16, 24 };
		u32 d4 = 4;
		double s = 0, p[4];
		int worst = 0;

		mk_memref(&a.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_U8, 1, &d4, 0x1, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_U8, 1, &d4, 0x1, 0);
		a.axis = 0;
		a.out_zp = 0;
		a.beta_scale = scale_of(65536.0 / 8);
		a.out_scale = scale_of(256.0 / 65536);
		memcpy(tm_b.win[0], in, 4);
		rr = vpux_ref_shave_run(VPUX_SHAVE_KERNEL_SOFTMAX, &a, sizeof(a), &mem_b);
		for (i = 0; i < 4; i++)
			s += p[i] = exp(in[i] / 8.0);
		for (i = 0; i < 4; i++) {
			double w = fmin(floor(p[i] / s * 256 + 0.5), 255);
			int e = abs(tm_b.win[1][i] - (int)w);

			if (e > worst)
				worst = e;
		}
		tap_check(rr == 0 && worst <= 1 && tm_b.win[1][3] == 165,
			  "kat softmax vs libm: max error %d LSB (%u %u %u %u)",
			  worst, tm_b.win[1][0], tm_b.win[1][1], tm_b.win[1][2],
			  tm_b.win[1][3]);
	}
	(void)r;
	(void)cyc;
}

/* ---- randomised: model kernels vs reference ---- */

static u32 rand_dt(bool allow_i32)
{
	u32 r = ot_rand() % (allow_i32 ? 3 : 2);

	return r == 0 ? VPUX_SHAVE_DT_U8 : r == 1 ? VPUX_SHAVE_DT_I8 : VPUX_SHAVE_DT_I32;
}

static u32 rand_dims(u32 *dims, u32 rank, u32 max_elems)
{
	u32 i, n;

	do {
		n = 1;
		for (i = 0; i < rank; i++) {
			u32 r = ot_rand() % 8;

			dims[i] = r == 0 ? 1 : r == 1 ? (u32)ot_range(17, 40) :
				  (u32)ot_range(1, 9);
			n *= dims[i];
		}
	} while (n > max_elems);
	return n;
}

static void rand_scale(struct vpux_hw_requant *q, s32 lo, s32 hi)
{
	q->mult = ot_range(1 << 29, 0x7fffffff);
	q->shift = ot_range(lo, hi);
}

static s32 zp_for(u32 dt)
{
	return dt == VPUX_SHAVE_DT_I8 ? ot_range(-128, 127) :
	       dt == VPUX_SHAVE_DT_U8 ? ot_range(0, 255) : (s32)ot_rand();
}

/* distinct values among the elements of an 8-bit output in memory b */
static unsigned int distinct_out(const struct vpux_memref *m)
{
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, i;
	unsigned int seen[256] = { 0 }, n = 0;
	const u8 *base = tm_b.win[VPUX_WADDR_WINDOW(m->addr)] +
			 VPUX_WADDR_OFFSET(m->addr);

	if (m->data_type == VPUX_SHAVE_DT_I32)
		return 256;
	for (;;) {
		u64 off = 0;

		for (i = 0; i < m->rank; i++)
			off += idx[i] * (m->strides[i] / 8);
		if (!seen[base[off]]++)
			n++;
		for (i = m->rank; i > 0; i--) {
			if (++idx[i - 1] < m->dims[i - 1])
				break;
			idx[i - 1] = 0;
		}
		if (!i)
			return n;
	}
}

static const char *const kname[] = {
	"?", "clamp", "softmax", "sigmoid", "tanh", "permute", "quantize",
};

static unsigned int mutated, mutated_ok, mutated_err;

static void test_random(void)
{
	u32 id;

	for (id = 1; id < VPUX_SHAVE_KERNEL_FIRST_F; id++) {
		unsigned int n, pass = 0, cases = 120, yielded = 0, varied = 0;

		ot_seed(4000 + id);
		for (n = 0; n < cases; n++) {
			union {
				struct vpux_shave_clamp_args c;
				struct vpux_shave_lut_args l;
				struct vpux_shave_softmax_args s;
				struct vpux_shave_permute_args p;
				struct vpux_shave_quantize_args q;
			} a;
			u32 rank = (u32)ot_range(1, VPUX_MEMREF_MAX_RANK);
			u32 dims[VPUX_MEMREF_MAX_RANK], odims[VPUX_MEMREF_MAX_RANK];
			u32 perm[VPUX_MEMREF_MAX_RANK], i, idt, odt, size;
			u32 max_elems = n % 10 == 0 ? 60000 : 3000;
			u32 pad_i = ot_rand() % 3 ? 0 : (u32)ot_range(1, 5);
			u32 pad_o = ot_rand() % 3 ? 0 : (u32)ot_range(1, 5);
			int r, rr;
			u64 cyc = 0;

			memset(&a, 0, sizeof(a));
			if (id == VPUX_SHAVE_KERNEL_PERMUTE && n % 2)
				rank = 4;
			rand_dims(dims, rank, max_elems);
			for (i = 0; i < rank; i++)
				perm[i] = i;
			idt = rand_dt(id == VPUX_SHAVE_KERNEL_CLAMP ||
				      id == VPUX_SHAVE_KERNEL_PERMUTE ||
				      id == VPUX_SHAVE_KERNEL_QUANTIZE);
			odt = rand_dt(false);
			if (id == VPUX_SHAVE_KERNEL_CLAMP ||
			    id == VPUX_SHAVE_KERNEL_PERMUTE)
				odt = idt;
			if (id == VPUX_SHAVE_KERNEL_PERMUTE) {
				for (i = rank; i > 1; i--) {
					u32 j = ot_rand() % i, t = perm[i - 1];

					perm[i - 1] = perm[j];
					perm[j] = t;
				}
				for (i = 0; i < rank; i++)
					a.p.perm[i] = perm[i];
			}
			for (i = 0; i < rank; i++)
				odims[i] = dims[perm[i]];
			mk_memref(&a.c.in, VPUX_WADDR(0, ot_range(0, 64)), idt, rank,
				  dims, ot_rand() % 2 ? random_order(rank) :
				  compact_order(rank), pad_i);
			mk_memref(&a.c.out, VPUX_WADDR(1, ot_range(0, 64)), odt, rank,
				  odims, ot_rand() % 2 ? random_order(rank) :
				  compact_order(rank), pad_o);
			switch (id) {
			case VPUX_SHAVE_KERNEL_CLAMP:
				a.c.min = idt == VPUX_SHAVE_DT_I32 ? -(s32)(ot_rand() >> 2) :
					  ot_range(-128, 100);
				a.c.max = a.c.min + (s32)(ot_rand() % 300);
				size = sizeof(a.c);
				break;
			case VPUX_SHAVE_KERNEL_SIGMOID:
			case VPUX_SHAVE_KERNEL_TANH:
				a.l.in_zp = zp_for(idt);
				a.l.out_zp = zp_for(odt);
				rand_scale(&a.l.in_scale, -13, -8);
				rand_scale(&a.l.out_scale, 7, 10);
				size = sizeof(a.l);
				break;
			case VPUX_SHAVE_KERNEL_SOFTMAX:
				/* mostly the longest dim: short lines saturate */
				a.s.axis = ot_rand() % rank;
				for (i = 0; i < rank && n % 4; i++)
					if (dims[i] > dims[a.s.axis])
						a.s.axis = i;
				a.s.out_zp = zp_for(odt);
				rand_scale(&a.s.beta_scale, -14, -9);
				rand_scale(&a.s.out_scale, 8, 9);
				size = sizeof(a.s);
				break;
			case VPUX_SHAVE_KERNEL_PERMUTE:
				size = sizeof(a.p);
				break;
			default:
				a.q.in_zp = zp_for(idt);
				a.q.out_zp = zp_for(odt);
				rand_scale(&a.q.scale, idt == VPUX_SHAVE_DT_I32 ? 8 : -3,
					   idt == VPUX_SHAVE_DT_I32 ? 24 : 3);
				size = sizeof(a.q);
				break;
			}
			fill_both(0);
			fill_both(1);
			r = run_both(id, &a, size, &rr, &cyc);
			yielded += tm_a.yields > 0;
			varied += distinct_out(&a.c.out) >= 8;
			if (n % 3 == 0 && max_elems <= 3000) {
				/* flip 1..3 bits: both must agree on the outcome */
				u8 m[sizeof(a)];
				unsigned int k, flips = 1 + ot_rand() % 3;
				int mr, mrr;

				memcpy(m, &a, sizeof(a));
				for (k = 0; k < flips; k++) {
					u32 bit = ot_rand() % (size * 8);

					m[bit / 8] ^= (u8)(1u << (bit % 8));
				}
				fill_both(0);
				fill_both(1);
				mr = run_both(id, m, size, &mrr, &cyc);
				mutated++;
				mutated_ok += mr == mrr && same_mem();
				mutated_err += mr != 0;
			}
			if (r == 0 && rr == 0 && cyc > VPUX_SHAVE_CYCLES_LAUNCH &&
			    same_mem())
				pass++;
			else
				tap_diag("%s case %u: rank %u dt %u->%u ret %d/%d cycles %llu",
					 kname[id], n, rank, idt, odt, r, rr,
					 (unsigned long long)cyc);
		}
		tap_check(pass == cases && yielded == cases,
			  "random %s: %u/%u cases equal to the reference",
			  kname[id], pass, cases);
		/* not just saturated outputs: most cases show 8+ values */
		tap_check(varied * 2 > cases,
			  "random %s: %u/%u cases produce at least 8 distinct values",
			  kname[id], varied, cases);
		tap_check(mutated_ok == mutated && mutated_err * 2 > mutated,
			  "random %s: %u/%u bit-flipped argument buffers handled alike (%u rejected)",
			  kname[id], mutated_ok, mutated, mutated_err);
		mutated = mutated_ok = mutated_err = 0;
	}
}

/* ---- argument checks ---- */

static struct vpux_shave_clamp_args good_clamp(void)
{
	struct vpux_shave_clamp_args a;
	u32 d[4] = { 1, 3, 4, 5 };

	mk_memref(&a.in, VPUX_WADDR(0, 16), VPUX_SHAVE_DT_U8, 4, d, VPUX_ORDER_NHWC, 0);
	mk_memref(&a.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_U8, 4, d, VPUX_ORDER_NCHW, 2);
	a.min = 10;
	a.max = 200;
	return a;
}

struct aneg {
	const char *name;
	void (*mut)(struct vpux_shave_clamp_args *a);
	int err;
};

#define ANEG(n, body) \
	static void aneg_##n(struct vpux_shave_clamp_args *a) { body; }

ANEG(static2, a->in.is_static = 2)
ANEG(reserved, a->out.reserved = 1)
ANEG(rank0, a->in.rank = 0)
ANEG(rank7, a->in.rank = 7)
ANEG(dtype0, { a->in.data_type = 0; a->out.data_type = 0; })
ANEG(dtype9, { a->in.data_type = 9; a->out.data_type = 9; })
ANEG(dim0, a->in.dims[2] = 0)
ANEG(dim_beyond_rank, a->in.dims[4] = 1)
ANEG(stride_beyond_rank, a->out.strides[5] = 8)
ANEG(stride_not_bytes, a->in.strides[0] += 4)
ANEG(stride_huge, a->in.strides[0] = 0x100000000ull)
ANEG(inner_stride_small, a->in.strides[1] = 0)
ANEG(overlap, a->in.strides[3] = 8 * 3 - 8)	/* W over C */
ANEG(order_zero_nibble, a->in.dims_order = 0x1302)
ANEG(order_dup, a->in.dims_order = 0x1332)
ANEG(order_big_nibble, a->in.dims_order = 0x1352)
ANEG(order_extra, a->in.dims_order = 0x11342)
ANEG(order_short, a->in.dims_order = 0x342)
ANEG(static_dims_addr, a->in.dims_addr = 4)
ANEG(span_over_window, a->out.addr = VPUX_WADDR(1, 0x0fffffff))
ANEG(rank_mismatch, { a->out.rank = 3; a->out.dims[3] = 0;
	a->out.strides[3] = 0; a->out.dims_order = 0x123; })
ANEG(dims_mismatch, { a->out.dims[1] = 2; })
ANEG(type_mismatch, { a->out.data_type = VPUX_SHAVE_DT_I8; })
ANEG(clamp_order, { a->min = 5; a->max = 4; })
ANEG(outside_window, a->in.addr = VPUX_WADDR(0, WIN_BYTES - 8))
ANEG(window_missing, a->out.addr = VPUX_WADDR(9, 0))
ANEG(small_window, a->out.addr = VPUX_WADDR(3, 0))

static const struct aneg anegs[] = {
#define A(x, e) { #x, aneg_##x, e }
	A(static2, ERR_ARGS), A(reserved, ERR_ARGS), A(rank0, ERR_ARGS),
	A(rank7, ERR_ARGS), A(dtype0, ERR_ARGS), A(dtype9, ERR_ARGS),
	A(dim0, ERR_ARGS), A(dim_beyond_rank, ERR_ARGS),
	A(stride_beyond_rank, ERR_ARGS), A(stride_not_bytes, ERR_ARGS),
	A(stride_huge, ERR_ARGS), A(inner_stride_small, ERR_ARGS),
	A(overlap, ERR_ARGS), A(order_zero_nibble, ERR_ARGS),
	A(order_dup, ERR_ARGS), A(order_big_nibble, ERR_ARGS),
	A(order_extra, ERR_ARGS), A(order_short, ERR_ARGS),
	A(static_dims_addr, ERR_ARGS), A(span_over_window, ERR_ARGS),
	A(rank_mismatch, ERR_ARGS), A(dims_mismatch, ERR_ARGS),
	A(type_mismatch, ERR_ARGS), A(clamp_order, ERR_ARGS),
	A(outside_window, ERR_MMU), A(window_missing, ERR_MMU),
	A(small_window, ERR_MMU),
#undef A
};

/* run @id with @a on both; expect @err and no byte of window 1/2 changed */
static void expect(const char *name, u32 id, const void *a, u32 size, int err)
{
	int r, rr;
	u64 cyc = 12345;

	fill_both(0);
	fill_both(1);
	fill_both(2);
	r = run_both(id, a, size, &rr, &cyc);
	tap_check(r == err && rr == err && (err ? cyc == 12345 : cyc > 0) &&
		  same_mem(),
		  "args: %s -> %d (model %d, reference %d)", name, err, r, rr);
}

static void test_compact_helper(void)
{
	static const u64 orders[] = { VPUX_ORDER_NCHW, VPUX_ORDER_NHWC,
				      0x4321, 0x2413 };
	u32 dims[4] = { 2, 3, 4, 5 }, i;
	struct vpux_memref a, b;
	int same = 1;

	for (i = 0; i < 4; i++) {
		memset(&a, 0xee, sizeof(a));
		vpux_memref_compact(&a, VPUX_WADDR(1, 4), VPUX_SHAVE_DT_I32, 4, dims,
				    orders[i]);
		mk_memref(&b, VPUX_WADDR(1, 4), VPUX_SHAVE_DT_I32, 4, dims, orders[i], 0);
		same &= !memcmp(&a, &b, sizeof(a));
	}
	tap_check(same, "vpux_memref_compact() matches hand-made compact records");
}

static void test_args(void)
{
	struct vpux_shave_clamp_args a = good_clamp(), b;
	u8 big[sizeof(struct vpux_shave_lut_args) + 8] = { 0 };
	unsigned int i;
	int r, rr;
	u64 cyc;

	fill_both(0);
	fill_both(1);
	fill_both(2);
	r = run_both(VPUX_SHAVE_KERNEL_CLAMP, &a, sizeof(a), &rr, &cyc);
	tap_check(r == 0 && rr == 0 && same_mem(), "args: base clamp valid");

	expect("kernel id 0", 0, &a, sizeof(a), ERR_KERNEL);
	expect("kernel id VPUX_SHAVE_KERNELS", VPUX_SHAVE_KERNELS, &a, sizeof(a), ERR_KERNEL);
	expect("kernel id ~0", ~0u, &a, sizeof(a), ERR_KERNEL);
	expect("args_size - 1", VPUX_SHAVE_KERNEL_CLAMP, &a, sizeof(a) - 1, ERR_ARGS);
	memcpy(big, &a, sizeof(a));
	expect("args_size + 8", VPUX_SHAVE_KERNEL_CLAMP, big, sizeof(a) + 8, ERR_ARGS);
	expect("args_size 0", VPUX_SHAVE_KERNEL_CLAMP, &a, 0, ERR_ARGS);
	expect("clamp args to sigmoid", VPUX_SHAVE_KERNEL_SIGMOID, &a, sizeof(a),
	       ERR_ARGS);
	expect("args NULL", VPUX_SHAVE_KERNEL_CLAMP, NULL, sizeof(a), ERR_ARGS);
	for (i = 0; i < sizeof(anegs) / sizeof(anegs[0]); i++) {
		b = good_clamp();
		anegs[i].mut(&b);
		expect(anegs[i].name, VPUX_SHAVE_KERNEL_CLAMP, &b, sizeof(b),
		       anegs[i].err);
	}

	{	/* kernel-specific scalars */
		struct vpux_shave_lut_args l;
		struct vpux_shave_softmax_args s;
		struct vpux_shave_permute_args p;
		struct vpux_shave_quantize_args q;

		memset(&l, 0, sizeof(l));
		l.in = a.in;
		l.out = a.out;
		l.in_scale = l.out_scale = scale_of(1.0);
		expect("sigmoid valid", VPUX_SHAVE_KERNEL_SIGMOID, &l, sizeof(l), 0);
		l.in_zp = 256;
		expect("sigmoid in_zp range", VPUX_SHAVE_KERNEL_SIGMOID, &l, sizeof(l), ERR_ARGS);
		l.in_zp = 0;
		l.out.data_type = VPUX_SHAVE_DT_I8;
		l.out_zp = 128;
		expect("tanh out_zp range", VPUX_SHAVE_KERNEL_TANH, &l, sizeof(l), ERR_ARGS);
		l.out_zp = 0;
		l.out_scale.mult = 0;
		expect("tanh out_scale mult 0", VPUX_SHAVE_KERNEL_TANH, &l, sizeof(l), ERR_ARGS);
		l.out_scale = scale_of(1.0);
		l.in_scale.shift = -32;
		expect("sigmoid in_scale shift", VPUX_SHAVE_KERNEL_SIGMOID, &l, sizeof(l), ERR_ARGS);
		l.in_scale = scale_of(1.0);
		l.in.data_type = VPUX_SHAVE_DT_I32;
		l.in.strides[0] *= 4;
		l.in.strides[3] *= 4;
		l.in.strides[1] *= 4;
		l.in.strides[2] *= 4;
		expect("sigmoid int32 input", VPUX_SHAVE_KERNEL_SIGMOID, &l, sizeof(l), ERR_ARGS);

		memset(&s, 0, sizeof(s));
		s.in = a.in;
		s.out = a.out;
		s.beta_scale = s.out_scale = scale_of(1.0);
		s.axis = 3;
		expect("softmax valid", VPUX_SHAVE_KERNEL_SOFTMAX, &s, sizeof(s), 0);
		s.axis = 4;
		expect("softmax axis >= rank", VPUX_SHAVE_KERNEL_SOFTMAX, &s, sizeof(s), ERR_ARGS);
		s.axis = 1;
		s.beta_scale.mult = -1;
		expect("softmax beta mult", VPUX_SHAVE_KERNEL_SOFTMAX, &s, sizeof(s), ERR_ARGS);
		s.beta_scale = scale_of(1.0);
		s.out_scale.shift = 32;
		expect("softmax out_scale shift", VPUX_SHAVE_KERNEL_SOFTMAX, &s, sizeof(s), ERR_ARGS);
		s.out_scale = scale_of(1.0);
		s.out_zp = 256;
		expect("softmax out_zp range", VPUX_SHAVE_KERNEL_SOFTMAX, &s, sizeof(s), ERR_ARGS);
		s.out_zp = 0;
		s.in = l.in;	/* int32 */
		expect("softmax int32 input", VPUX_SHAVE_KERNEL_SOFTMAX, &s, sizeof(s), ERR_ARGS);

		memset(&p, 0, sizeof(p));
		p.in = a.in;
		p.out = a.out;
		p.perm[0] = 0;
		p.perm[1] = 1;
		p.perm[2] = 2;
		p.perm[3] = 3;
		expect("permute identity valid", VPUX_SHAVE_KERNEL_PERMUTE, &p, sizeof(p), 0);
		p.perm[3] = 2;
		expect("permute duplicate", VPUX_SHAVE_KERNEL_PERMUTE, &p, sizeof(p), ERR_ARGS);
		p.perm[3] = 4;
		expect("permute out of range", VPUX_SHAVE_KERNEL_PERMUTE, &p, sizeof(p), ERR_ARGS);
		p.perm[3] = 3;
		p.perm[4] = 4;
		expect("permute entry beyond rank", VPUX_SHAVE_KERNEL_PERMUTE, &p, sizeof(p), ERR_ARGS);
		p.perm[4] = 0;
		p.perm[2] = 3;
		p.perm[3] = 2;
		expect("permute dims mismatch", VPUX_SHAVE_KERNEL_PERMUTE, &p, sizeof(p), ERR_ARGS);

		memset(&q, 0, sizeof(q));
		q.in = a.in;
		q.out = a.out;
		q.scale = scale_of(0.5);
		expect("quantize valid", VPUX_SHAVE_KERNEL_QUANTIZE, &q, sizeof(q), 0);
		q.out.data_type = VPUX_SHAVE_DT_I32;
		q.out.strides[0] *= 4;
		q.out.strides[1] *= 4;
		q.out.strides[2] *= 4;
		q.out.strides[3] *= 4;
		expect("quantize int32 output", VPUX_SHAVE_KERNEL_QUANTIZE, &q, sizeof(q), ERR_ARGS);
		q.out = a.out;
		q.out_zp = -1;
		expect("quantize out_zp range", VPUX_SHAVE_KERNEL_QUANTIZE, &q, sizeof(q), ERR_ARGS);
		q.out_zp = 0;
		q.in_zp = 300;
		expect("quantize in_zp range", VPUX_SHAVE_KERNEL_QUANTIZE, &q, sizeof(q), ERR_ARGS);
		q.in = l.in;	/* int32: any zero point */
		q.in_zp = -70000;
		expect("quantize int32 input, any in_zp", VPUX_SHAVE_KERNEL_QUANTIZE, &q, sizeof(q), 0);
		q.scale.mult = 0;
		expect("quantize scale mult 0", VPUX_SHAVE_KERNEL_QUANTIZE, &q, sizeof(q), ERR_ARGS);
		l.in = l.out;
		l.out.data_type = VPUX_SHAVE_DT_I32;
		expect("tanh int32 output", VPUX_SHAVE_KERNEL_TANH, &l, sizeof(l), ERR_ARGS);
	}
	{	/* dynamic shapes */
		struct vpux_shave_clamp_args d = good_clamp();
		u32 act[4] = { 1, 2, 4, 3 }, got[4];

		d.in.is_static = 0;
		d.in.dims_addr = VPUX_WADDR(2, 0x100);
		d.out.is_static = 0;
		d.out.dims_addr = VPUX_WADDR(2, 0x200);
		fill_both(0);
		fill_both(1);
		fill_both(2);
		memcpy(tm_a.win[2] + 0x100, act, sizeof(act));
		memcpy(tm_b.win[2] + 0x100, act, sizeof(act));
		r = run_both(VPUX_SHAVE_KERNEL_CLAMP, &d, sizeof(d), &rr, &cyc);
		memcpy(got, tm_a.win[2] + 0x200, sizeof(got));
		tap_check(r == 0 && rr == 0 && same_mem() &&
			  !memcmp(got, act, sizeof(act)) &&
			  cyc == VPUX_SHAVE_CYCLES_LAUNCH + 2,
			  "dynamic: actual dims read, output dims written, 24 elements");
		act[3] = 6;
		memcpy(tm_a.win[2] + 0x100, act, sizeof(act));
		memcpy(tm_b.win[2] + 0x100, act, sizeof(act));
		r = run_both(VPUX_SHAVE_KERNEL_CLAMP, &d, sizeof(d), &rr, &cyc);
		tap_check(r == ERR_ARGS && rr == ERR_ARGS,
			  "dynamic: actual dim above the record's bound");
		act[3] = 0;
		memcpy(tm_a.win[2] + 0x100, act, sizeof(act));
		memcpy(tm_b.win[2] + 0x100, act, sizeof(act));
		r = run_both(VPUX_SHAVE_KERNEL_CLAMP, &d, sizeof(d), &rr, &cyc);
		tap_check(r == ERR_ARGS && rr == ERR_ARGS, "dynamic: actual dim 0");
		d.in.dims_addr = VPUX_WADDR(7, 0);
		r = run_both(VPUX_SHAVE_KERNEL_CLAMP, &d, sizeof(d), &rr, &cyc);
		tap_check(r == ERR_MMU && rr == ERR_MMU, "dynamic: dims unreadable");
		d = good_clamp();
		d.in.is_static = 0;
		d.in.dims_addr = VPUX_WADDR(2, 0x100);
		act[3] = 4;
		memcpy(tm_a.win[2] + 0x100, act, sizeof(act));
		memcpy(tm_b.win[2] + 0x100, act, sizeof(act));
		r = run_both(VPUX_SHAVE_KERNEL_CLAMP, &d, sizeof(d), &rr, &cyc);
		tap_check(r == ERR_ARGS && rr == ERR_ARGS,
			  "dynamic input, static output of another shape");
		d.out.is_static = 0;
		d.out.dims_addr = VPUX_WADDR(7, 0);
		r = run_both(VPUX_SHAVE_KERNEL_CLAMP, &d, sizeof(d), &rr, &cyc);
		tap_check(r == ERR_MMU && rr == ERR_MMU,
			  "dynamic output dims unwritable");
	}
	tm_a.fail_alloc = 1;
	r = vpux_shave_run(VPUX_SHAVE_KERNEL_CLAMP, &a, sizeof(a), &mem_a, &cyc);
	tap_check(r == VPUX_ERR(NOMEM), "scratch allocation failure -> NOMEM");
	tm_a.fail_alloc = 0;
}

/* the chunking paths: long lines, gathered spans, element-wise fallback */
static void test_chunks(void)
{
	static const struct {
		const char *name;
		u32 id, rank, dims[2], perm1;
		u64 in_order, out_order;
	} c[] = {
		{ "clamp line of 5000 (chunks)", VPUX_SHAVE_KERNEL_CLAMP, 2,
		  { 3, 5000 }, 0, 0x12, 0x12 },
		{ "sigmoid line of 5000, strided output", VPUX_SHAVE_KERNEL_SIGMOID,
		  2, { 3, 5000 }, 0, 0x12, 0x21 },
		{ "permute 300x100 transpose (short span gather)",
		  VPUX_SHAVE_KERNEL_PERMUTE, 2, { 300, 50 }, 1, 0x12, 0x12 },
		{ "permute 300x100 transpose (staged input)",
		  VPUX_SHAVE_KERNEL_PERMUTE, 2, { 300, 100 }, 1, 0x12, 0x12 },
		{ "permute 300x100 transpose (no stage: element reads)",
		  VPUX_SHAVE_KERNEL_PERMUTE, 2, { 300, 100 }, 1, 0x12, 0x12 },
		{ "softmax axis of 3000 with stride 20 (staged input)",
		  VPUX_SHAVE_KERNEL_SOFTMAX, 2, { 3000, 20 }, 0, 0x12, 0x12 },
		{ "softmax axis of 3000 (chunks)", VPUX_SHAVE_KERNEL_SOFTMAX, 2,
		  { 2, 3000 }, 0, 0x12, 0x12 },
		{ "softmax strided axis of 2000", VPUX_SHAVE_KERNEL_SOFTMAX, 2,
		  { 2000, 3 }, 0, 0x12, 0x21 },
	};
	unsigned int i;

	ot_seed(99);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		union {
			struct vpux_shave_clamp_args cl;
			struct vpux_shave_lut_args l;
			struct vpux_shave_softmax_args s;
			struct vpux_shave_permute_args p;
		} a;
		u32 od[2] = { c[i].dims[c[i].perm1], c[i].dims[!c[i].perm1] };
		u32 size = sizeof(a.cl);
		int r, rr;
		u64 cyc;

		memset(&a, 0, sizeof(a));
		mk_memref(&a.cl.in, VPUX_WADDR(0, 3), VPUX_SHAVE_DT_I8, 2, c[i].dims,
			  c[i].in_order, 0);
		mk_memref(&a.cl.out, VPUX_WADDR(1, 1), VPUX_SHAVE_DT_I8, 2, od,
			  c[i].out_order, 0);
		switch (c[i].id) {
		case VPUX_SHAVE_KERNEL_CLAMP:
			a.cl.min = -50;
			a.cl.max = 60;
			break;
		case VPUX_SHAVE_KERNEL_SIGMOID:
			a.l.in_scale = scale_of(65536.0 / 20);
			a.l.out_scale = scale_of(256.0 / 65536);
			a.l.out_zp = -128;
			size = sizeof(a.l);
			break;
		case VPUX_SHAVE_KERNEL_PERMUTE:
			a.p.perm[0] = c[i].perm1;
			a.p.perm[1] = !c[i].perm1;
			size = sizeof(a.p);
			break;
		default:
			a.s.axis = c[i].dims[0] > c[i].dims[1] ? 0 : 1;
			a.s.beta_scale = scale_of(65536.0 / 30);
			a.s.out_scale = scale_of(256.0 * 64 / 65536);
			a.s.out_zp = -128;
			size = sizeof(a.s);
			break;
		}
		fill_both(0);
		fill_both(1);
		tm_a.reads = 0;
		tm_a.alloc_max = strstr(c[i].name, "no stage") ? 25600 : 0;
		r = run_both(c[i].id, &a, size, &rr, &cyc);
		tm_a.alloc_max = 0;
		tap_check(r == 0 && rr == 0 && same_mem() && tm_a.yields > 1,
			  "%s: equal to the reference (%u reads, %u yields)",
			  c[i].name, tm_a.reads, tm_a.yields);
	}
}

int main(void)
{
	tmem_init(&tm_a);
	tmem_init(&tm_b);
	test_fixmath();
	test_compact_helper();
	test_chunks();
	test_kat();
	test_args();
	test_random();
	return tap_finish();
}
