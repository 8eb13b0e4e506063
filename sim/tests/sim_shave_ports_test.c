// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Every built-in SHAVE kernel as an ELF kernel of the SDK
 * (Documentation/shave-kernels.rst): each one runs on a SHAVE core and,
 * on the same WIN_F contents, as the model's built-in kernel, on random
 * arguments (dims orders, padded strides, broadcasting, axes, every
 * function and mode) and random values (NaN, Inf, subnormals, +-0); the
 * whole WIN_F must come out bit for bit the same. Argument errors must
 * be VPUX_ERR(ARGS) for the built-in kernel and status VPUX_KERNEL_EARGS
 * (trap STATUS, tval 1) for the ELF one. Prints each kernel's code size
 * and the deepest stack it used.
 */
#include "vpux_tap.h"
#include "sim_test.h"
#include "sim_shave_elf.h"

#define WIN		65536u
#define STACK		4096u
#define OFF_IN2		16384u	/* in2, indices, scale */
#define OFF_BIAS	24576u
#define OFF_OUT		32768u
#define STATUS_EARGS	1u	/* VPUX_KERNEL_EARGS */

static uint8_t wa[WIN], wb[WIN], w0[WIN];

struct kern {
	const char *name;
	u32 id;
	uint8_t *code;
	u32 size;
	u32 stack_used;
	u32 rounds, equal, eargs, bad, wrote;
};

static struct kern ks[] = {
	{ .name = "clamp", .id = VPUX_SHAVE_KERNEL_CLAMP },
	{ .name = "softmax", .id = VPUX_SHAVE_KERNEL_SOFTMAX },
	{ .name = "sigmoid", .id = VPUX_SHAVE_KERNEL_SIGMOID },
	{ .name = "tanh", .id = VPUX_SHAVE_KERNEL_TANH },
	{ .name = "permute", .id = VPUX_SHAVE_KERNEL_PERMUTE },
	{ .name = "quantize", .id = VPUX_SHAVE_KERNEL_QUANTIZE },
	{ .name = "convert", .id = VPUX_SHAVE_KERNEL_CONVERT },
	{ .name = "unary", .id = VPUX_SHAVE_KERNEL_UNARY },
	{ .name = "binary_f", .id = VPUX_SHAVE_KERNEL_BINARY },
	{ .name = "softmax_f", .id = VPUX_SHAVE_KERNEL_SOFTMAX_F },
	{ .name = "log_softmax_f", .id = VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F },
	{ .name = "layernorm", .id = VPUX_SHAVE_KERNEL_LAYERNORM },
	{ .name = "reduce", .id = VPUX_SHAVE_KERNEL_REDUCE },
	{ .name = "resize", .id = VPUX_SHAVE_KERNEL_RESIZE },
	{ .name = "gather", .id = VPUX_SHAVE_KERNEL_GATHER },
	{ .name = "pad", .id = VPUX_SHAVE_KERNEL_PAD },
};

#define N_KS	(sizeof(ks) / sizeof(ks[0]))

static struct kern *kern(u32 id)
{
	u32 i;

	for (i = 0; i < N_KS; i++)
		if (ks[i].id == id)
			return &ks[i];
	return NULL;
}

static u32 rnd(u32 n)
{
	return t_rand() % n;
}

/* ---- values ---- */
static u32 rand_f32(void)
{
	u32 r = t_rand();

	switch (rnd(16)) {
	case 0:
		return 0x7fc00000u | (r & 0x803fffffu);	/* NaN, any payload */
	case 1:
		return r & 0x807fffffu;			/* subnormal or +-0 */
	case 2:
		return 0x7f800000u | (r & 0x80000000u);	/* +-Inf */
	case 3:
		return r & 0x80000000u;			/* +-0 */
	case 4:
		return r;				/* anything */
	default:	/* moderate magnitudes: the functions have work to do */
		return (r & 0x807fffffu) | (118 + rnd(18)) << 23;
	}
}

static void fill_raw(uint8_t *p, u32 bytes)
{
	u32 i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)t_rand();
}

/* @bytes of elements of @dt from byte 0 of @p (padding gets values too) */
static void fill(uint8_t *p, u32 bytes, u32 dt)
{
	u32 i;

	if (dt == VPUX_SHAVE_DT_F32) {
		for (i = 0; i + 4 <= bytes; i += 4) {
			u32 v = rand_f32();

			memcpy(p + i, &v, 4);
		}
	} else if (dt == VPUX_SHAVE_DT_F16) {
		for (i = 0; i + 2 <= bytes; i += 2) {
			u16 h = rnd(8) ? vpux_f32_to_f16(rand_f32()) :
					 (u16)t_rand();	/* any F16 */

			memcpy(p + i, &h, 2);
		}
	} else {
		fill_raw(p, bytes);
	}
}

/* ---- records ---- */
static u32 rand_fdt(void)
{
	return rnd(2) ? VPUX_SHAVE_DT_F16 : VPUX_SHAVE_DT_F32;
}

static u32 rand_q8(void)
{
	return rnd(2) ? VPUX_SHAVE_DT_U8 : VPUX_SHAVE_DT_I8;
}

static u32 rand_any_dt(void)
{
	static const u32 dts[] = { VPUX_SHAVE_DT_U8, VPUX_SHAVE_DT_I8,
				   VPUX_SHAVE_DT_I32, VPUX_SHAVE_DT_F16,
				   VPUX_SHAVE_DT_F32 };

	return dts[rnd(5)];
}

/*
 * A static record at WIN_F + @off: a random dims order and, one time in
 * three, gaps between elements and rows. Returns the bytes it spans.
 */
static u32 mref(struct vpux_memref *m, u32 off, u32 dt, u32 rank,
		const u32 *dims)
{
	u32 perm[VPUX_MEMREF_MAX_RANK], i, esize = vpux_shave_dt_bits(dt) / 8;
	bool gaps = !rnd(3), shuffle = rnd(2);
	u64 bits = (u64)esize * 8 * (gaps && !rnd(2) ? 2 : 1), order = 0;
	u32 span = esize;

	for (i = 0; i < rank; i++)
		perm[i] = i;
	for (i = rank; shuffle && i > 1; i--) {
		u32 j = rnd(i), x = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = x;
	}
	memset(m, 0, sizeof(*m));
	m->addr = VPUX_SHAVE_WIN_F + off;
	m->is_static = 1;
	m->rank = rank;
	m->data_type = dt;
	/* perm[0] outermost ... perm[rank - 1] innermost */
	for (i = 0; i < rank; i++)
		order = order << 4 | (perm[i] + 1);
	m->dims_order = order;
	for (i = 0; i < rank; i++)
		m->dims[i] = dims[i];
	for (i = rank; i-- > 0;) {
		u32 d = perm[i];

		m->strides[d] = bits;
		span += (u32)(bits / 8) * (dims[d] - 1);
		bits = bits * dims[d] + (gaps ? 8 * rnd(3) * esize : 0);
	}
	return span;
}

static void rand_dims(u32 *dims, u32 rank, u32 max_elems)
{
	u32 i, n = 1;

	for (i = 0; i < rank; i++) {
		u32 lim = max_elems / n, d;

		d = 1 + rnd(i == rank - 1 ? 12 : 5);
		if (d > lim)
			d = lim ? lim : 1;
		dims[i] = d;
		n *= d;
	}
}

static struct vpux_hw_requant rand_scale(int lo, int hi)
{
	struct vpux_hw_requant q;

	memset(&q, 0, sizeof(q));
	q.mult = (s32)(0x40000000u + (t_rand() & 0x3fffffffu));
	q.shift = lo + (int)rnd((u32)(hi - lo + 1));
	return q;
}

static s32 rand_zp(u32 dt)
{
	if (dt == VPUX_SHAVE_DT_I8)
		return (s32)rnd(256) - 128;
	if (dt == VPUX_SHAVE_DT_U8)
		return (s32)rnd(256);
	return (s32)(t_rand() % 2001) - 1000;
}

/* ---- running both ---- */
enum { R_BAD, R_EQUAL, R_EARGS };

static struct vpux_shave_core *run_elf(struct kern *k, const void *args,
				       u32 size)
{
	struct vpux_shave_core *c = calloc(1, sizeof(*c));
	u32 i;

	c->code = k->code;
	c->code_size = k->size;
	c->args = malloc(size);
	memcpy(c->args, args, size);
	c->args_size = size;
	c->win_f = wa;
	c->win_f_size = WIN;
	c->stack = malloc(STACK);
	c->stack_size = STACK;
	c->budget = 1ull << 32;
	vpux_shave_core_start(c, 0);
	memset(c->stack, 0xa5, STACK);	/* to find the deepest use */
	while (!vpux_shave_core_run(c, 1u << 20))
		;
	for (i = 0; i < STACK && c->stack[i] == 0xa5; i++)
		;
	if (STACK - i > k->stack_used)
		k->stack_used = STACK - i;
	return c;
}

/*
 * Run kernel @id with @args on copies of wa: the ELF one on wa, the
 * built-in one on wb.
 */
static int both(u32 id, const void *args, u32 size)
{
	struct kern *k = kern(id);
	struct vpux_shave_core *c;
	int ret, r = R_BAD;

	memcpy(wb, wa, WIN);
	memcpy(w0, wa, WIN);
	c = run_elf(k, args, size);
	ret = she_builtin(id, args, size, wb, WIN);
	k->rounds++;
	if (!memcmp(wa, wb, WIN)) {
		if (!ret && !c->trapped)
			r = R_EQUAL;
		else if (ret == VPUX_ERR(ARGS) && c->trapped &&
			 c->cause == VPUX_SHAVE_TRAP_STATUS &&
			 c->tval == STATUS_EARGS)
			r = R_EARGS;
	}
	if (r == R_EQUAL)
		k->equal++;
	if (r == R_EQUAL && memcmp(wa, w0, WIN))
		k->wrote++;
	else if (r == R_EARGS)
		k->eargs++;
	else if (k->bad++ < 3) {
		u32 i;

		for (i = 0; i < WIN && wa[i] == wb[i]; i++)
			;
		tap_diag("%s: builtin %d, ELF trapped %d cause %u pc %#x tval %#x, first difference at %#x",
			 k->name, ret, c->trapped, c->cause, c->pc, c->tval,
			 i < WIN ? i : ~0u);
	}
	free(c->args);
	free(c->stack);
	free(c);
	return r;
}

/* an invocation the built-in kernel accepts, with random inputs */
static void expect_equal(u32 id, const void *args, u32 size)
{
	both(id, args, size);
}

/* one the built-in kernel refuses: both must say ARGS */
static void expect_eargs(u32 id, const void *args, u32 size)
{
	struct kern *k = kern(id);
	u32 eq = k->equal, ea = k->eargs;

	both(id, args, size);
	if (k->equal != eq) {	/* the test's own mistake: not an error case */
		k->equal = eq;
		k->bad++;
		tap_diag("%s: an error case that both accepted", k->name);
	}
	(void)ea;
}

/* ---- the integer kernels ---- */
static void gen_clamp(void)
{
	struct vpux_shave_clamp_args a;
	u32 rank = 1 + rnd(4), dims[6], dt = rnd(3) + 1, n;

	rand_dims(dims, rank, 300);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dt, rank, dims);
	fill_raw(wa, n);
	mref(&a.out, OFF_OUT, dt, rank, dims);
	if (dt == VPUX_SHAVE_DT_I32) {
		a.min = (s32)t_rand();
		a.max = (s32)t_rand();
	} else {
		a.min = rand_zp(dt);
		a.max = rand_zp(dt);
	}
	if (a.min > a.max) {
		s32 x = a.min;

		a.min = a.max;
		a.max = x;
	}
	expect_equal(VPUX_SHAVE_KERNEL_CLAMP, &a, sizeof(a));
	if (a.max < INT32_MAX) {
		a.min = a.max + 1;
		expect_eargs(VPUX_SHAVE_KERNEL_CLAMP, &a, sizeof(a));
	}
}

static void gen_softmax(void)
{
	struct vpux_shave_softmax_args a;
	u32 rank = 1 + rnd(3), dims[6], dti = rand_q8(), dto = rand_q8(), n;

	rand_dims(dims, rank, 300);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dti, rank, dims);
	fill_raw(wa, n);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	a.axis = rnd(rank);
	a.out_zp = rand_zp(dto);
	a.beta_scale = rand_scale(-16, 4);
	a.out_scale = rand_scale(-20, 0);
	expect_equal(VPUX_SHAVE_KERNEL_SOFTMAX, &a, sizeof(a));
	a.axis = rank;
	expect_eargs(VPUX_SHAVE_KERNEL_SOFTMAX, &a, sizeof(a));
}

static void gen_lut(u32 id)
{
	struct vpux_shave_lut_args a;
	u32 rank = 1 + rnd(4), dims[6], dti = rand_q8(), dto = rand_q8(), n;

	rand_dims(dims, rank, 300);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dti, rank, dims);
	fill_raw(wa, n);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	a.in_zp = rand_zp(dti);
	a.out_zp = rand_zp(dto);
	a.in_scale = rand_scale(-16, 8);
	a.out_scale = rand_scale(-12, 0);
	expect_equal(id, &a, sizeof(a));
	a.out_scale.mult = 0;
	expect_eargs(id, &a, sizeof(a));
}

static void gen_permute(void)
{
	struct vpux_shave_permute_args a;
	u32 rank = 1 + rnd(5), dims[6], od[6], dt = rand_any_dt(), n, i;

	rand_dims(dims, rank, 300);
	memset(&a, 0, sizeof(a));
	for (i = 0; i < rank; i++)
		a.perm[i] = i;
	for (i = rank; i > 1; i--) {
		u32 j = rnd(i), x = a.perm[i - 1];

		a.perm[i - 1] = a.perm[j];
		a.perm[j] = x;
	}
	for (i = 0; i < rank; i++)
		od[i] = dims[a.perm[i]];
	n = mref(&a.in, 0, dt, rank, dims);
	fill_raw(wa, n);
	mref(&a.out, OFF_OUT, dt, rank, od);
	expect_equal(VPUX_SHAVE_KERNEL_PERMUTE, &a, sizeof(a));
	if (rank > 1) {
		a.perm[0] = a.perm[1];
		expect_eargs(VPUX_SHAVE_KERNEL_PERMUTE, &a, sizeof(a));
	}
}

static void gen_quantize(void)
{
	struct vpux_shave_quantize_args a;
	u32 rank = 1 + rnd(4), dims[6], dti = rnd(3) + 1, dto = rand_q8(), n;

	rand_dims(dims, rank, 300);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dti, rank, dims);
	fill_raw(wa, n);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	a.in_zp = rand_zp(dti);
	a.out_zp = rand_zp(dto);
	a.scale = rand_scale(dti == VPUX_SHAVE_DT_I32 ? -24 : -8, 4);
	expect_equal(VPUX_SHAVE_KERNEL_QUANTIZE, &a, sizeof(a));
	a.out_zp = dto == VPUX_SHAVE_DT_I8 ? 128 : 256;
	expect_eargs(VPUX_SHAVE_KERNEL_QUANTIZE, &a, sizeof(a));
}

/* ---- the FP16/FP32 kernels ---- */
static u32 rand_pos_f32(void)
{
	return (t_rand() & 0x007fffffu) | (110 + rnd(30)) << 23;
}

static void gen_convert(void)
{
	struct vpux_shave_convert_args a;
	u32 rank = 1 + rnd(4), dims[6], dti, dto, n, kind = rnd(3);

	if (kind == 0) {		/* value conversion */
		dti = rand_fdt();
		dto = rand_fdt();
	} else if (kind == 1) {		/* quantize */
		dti = rand_fdt();
		dto = rand_q8();
	} else {			/* dequantize */
		dti = rnd(3) + 1;
		dto = rand_fdt();
	}
	rand_dims(dims, rank, 300);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dti, rank, dims);
	fill(wa, n, dti);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	if (kind) {
		a.scale = rand_pos_f32();
		a.zero_point = kind == 2 && dti == VPUX_SHAVE_DT_I32 ?
			       (s32)t_rand() : rand_zp(kind == 1 ? dto : dti);
	}
	expect_equal(VPUX_SHAVE_KERNEL_CONVERT, &a, sizeof(a));
	a.scale = kind ? 0x7f800000u : 0x3f800000u;
	expect_eargs(VPUX_SHAVE_KERNEL_CONVERT, &a, sizeof(a));
}

static void gen_unary(u32 func)
{
	struct vpux_shave_unary_args a;
	u32 rank = 1 + rnd(4), dims[6], dti = rand_fdt(), dto = rand_fdt(), n;

	rand_dims(dims, rank, 200);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dti, rank, dims);
	fill(wa, n, dti);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	a.func = func;
	switch (func) {
	case VPUX_SHAVE_UN_HARD_SIGMOID:
		a.alpha = rand_pos_f32() ^ (rnd(2) << 31);
		a.beta = rand_pos_f32() ^ (rnd(2) << 31);
		break;
	case VPUX_SHAVE_UN_LEAKY_RELU:
		a.alpha = rand_pos_f32() ^ (rnd(2) << 31);
		break;
	case VPUX_SHAVE_UN_CLIP:
		a.alpha = rnd(4) ? 0xbf800000u - rnd(1 << 23) : 0xff800000u;
		a.beta = rnd(4) ? 0x3f800000u + rnd(1 << 23) : 0x7f800000u;
		break;
	}
	expect_equal(VPUX_SHAVE_KERNEL_UNARY, &a, sizeof(a));
	if (func == VPUX_SHAVE_UN_CLIP) {
		u32 x = a.alpha;

		a.alpha = a.beta;
		a.beta = x;
	} else {
		a.alpha = 0x7fc00000u;
	}
	expect_eargs(VPUX_SHAVE_KERNEL_UNARY, &a, sizeof(a));
}

static void gen_binary(void)
{
	struct vpux_shave_binary_args a;
	u32 rank = 1 + rnd(4), r2 = 1 + rnd(rank), dims[6], d1[6], d2[6];
	u32 dt1 = rand_fdt(), dt2 = rand_fdt(), dto = rand_fdt(), n, i;
	u32 r1 = rank;

	rand_dims(dims, rank, 200);
	if (rnd(2)) {	/* the first input the shorter one */
		r1 = r2;
		r2 = rank;
	}
	for (i = 0; i < r1; i++)
		d1[i] = rnd(3) ? dims[rank - r1 + i] : 1;
	for (i = 0; i < r2; i++)
		d2[i] = rnd(3) ? dims[rank - r2 + i] : 1;
	/* the output's dims: the larger of the two at each place */
	for (i = 0; i < rank; i++) {
		u32 x = i >= rank - r1 ? d1[i - (rank - r1)] : 1;
		u32 y = i >= rank - r2 ? d2[i - (rank - r2)] : 1;

		dims[i] = x > y ? x : y;
	}
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dt1, r1, d1);
	fill(wa, n, dt1);
	n = mref(&a.in2, OFF_IN2, dt2, r2, d2);
	fill(wa + OFF_IN2, n, dt2);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	a.func = rnd(VPUX_SHAVE_BIN_COUNT);
	expect_equal(VPUX_SHAVE_KERNEL_BINARY, &a, sizeof(a));
	a.func = VPUX_SHAVE_BIN_COUNT;
	expect_eargs(VPUX_SHAVE_KERNEL_BINARY, &a, sizeof(a));
}

static void gen_softmax_f(u32 id)
{
	struct vpux_shave_fsoftmax_args a;
	u32 rank = 1 + rnd(4), dims[6], dti = rand_fdt(), dto = rand_fdt(), n;

	rand_dims(dims, rank, 200);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dti, rank, dims);
	fill(wa, n, dti);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	a.axis = rnd(rank);
	expect_equal(id, &a, sizeof(a));
	a.reserved = 1;
	expect_eargs(id, &a, sizeof(a));
}

static void gen_layernorm(void)
{
	struct vpux_shave_layernorm_args a;
	u32 rank = 1 + rnd(4), dims[6], dti = rand_fdt(), dto = rand_fdt(), n;

	rand_dims(dims, rank, 200);
	memset(&a, 0, sizeof(a));
	n = mref(&a.in, 0, dti, rank, dims);
	fill(wa, n, dti);
	mref(&a.out, OFF_OUT, dto, rank, dims);
	a.axis = rnd(rank);
	a.flags = rnd(4);
	a.epsilon = rnd(4) ? (t_rand() & 0x7fffffu) | (100 + rnd(27)) << 23 :
		    rnd(2) ? 0 : 1;
	if (a.flags & VPUX_SHAVE_LN_SCALE) {
		u32 dt = rand_fdt();

		n = mref(&a.scale, OFF_IN2, dt, rank - a.axis, dims + a.axis);
		fill(wa + OFF_IN2, n, dt);
	}
	if (a.flags & VPUX_SHAVE_LN_BIAS) {
		u32 dt = rand_fdt();

		n = mref(&a.bias, OFF_BIAS, dt, rank - a.axis, dims + a.axis);
		fill(wa + OFF_BIAS, n, dt);
	}
	expect_equal(VPUX_SHAVE_KERNEL_LAYERNORM, &a, sizeof(a));
	a.epsilon = 0xbf800000u;
	expect_eargs(VPUX_SHAVE_KERNEL_LAYERNORM, &a, sizeof(a));
}

static void gen_reduce(void)
{
	struct vpux_shave_reduce_args a;
	u32 rank = 1 + rnd(5), dims[6], od[6], dti = rand_fdt(), dto = rand_fdt();
	u32 n, i;

	rand_dims(dims, rank, 300);
	memset(&a, 0, sizeof(a));
	a.func = rnd(VPUX_SHAVE_RED_COUNT);
	a.axes = 1 + rnd((1u << rank) - 1);
	for (i = 0; i < rank; i++)
		od[i] = a.axes & (1u << i) ? 1 : dims[i];
	n = mref(&a.in, 0, dti, rank, dims);
	fill(wa, n, dti);
	mref(&a.out, OFF_OUT, dto, rank, od);
	expect_equal(VPUX_SHAVE_KERNEL_REDUCE, &a, sizeof(a));
	a.axes = 1u << rank;
	expect_eargs(VPUX_SHAVE_KERNEL_REDUCE, &a, sizeof(a));
}

static void gen_resize(void)
{
	struct vpux_shave_resize_args a;
	u32 rank = 1 + rnd(4), dims[6], od[6], dt = rand_fdt(), n, i;

	memset(&a, 0, sizeof(a));
	a.mode = rank >= 2 ? rnd(VPUX_SHAVE_RESIZE_MODES) :
			     VPUX_SHAVE_RESIZE_NEAREST;
	a.coord = rnd(VPUX_SHAVE_COORD_MODES);
	if (a.mode == VPUX_SHAVE_RESIZE_NEAREST)
		a.nearest = rnd(VPUX_SHAVE_NEAREST_MODES);
	rand_dims(dims, rank, 60);
	for (i = 0; i < rank; i++) {
		bool lin_fixed = a.mode == VPUX_SHAVE_RESIZE_LINEAR &&
				 i + 2 < rank;
		/* scales 0.25 .. 4 in steps of 1/8, sometimes irregular */
		u32 s8 = 2 + rnd(31);

		a.scales[i] = lin_fixed ? 0x3f800000u :
			      rnd(4) ? vpux_f32_div(vpux_f32_from_s32((s32)s8),
						    0x41000000u) :
			      (t_rand() & 0x7fffffu) | (125 + rnd(4)) << 23;
		od[i] = lin_fixed ? dims[i] : 1 + rnd(dims[i] * 3);
		if (od[i] > 12)
			od[i] = 12;
	}
	n = mref(&a.in, 0, dt, rank, dims);
	fill(wa, n, dt);
	mref(&a.out, OFF_OUT, dt, rank, od);
	expect_equal(VPUX_SHAVE_KERNEL_RESIZE, &a, sizeof(a));
	a.scales[0] = 0;
	expect_eargs(VPUX_SHAVE_KERNEL_RESIZE, &a, sizeof(a));
}

static void gen_gather(void)
{
	struct vpux_shave_gather_args a;
	u32 rank = 1 + rnd(3), ri = 1 + rnd(3), dims[6], di[6], od[6];
	u32 dt = rand_any_dt(), n, ni, i, ax, ro;

	if (rank + ri - 1 > VPUX_MEMREF_MAX_RANK)
		ri = VPUX_MEMREF_MAX_RANK + 1 - rank;
	rand_dims(dims, rank, 100);
	rand_dims(di, ri, 12);
	memset(&a, 0, sizeof(a));
	a.axis = ax = rnd(rank);
	ro = rank + ri - 1;
	for (i = 0; i < ro; i++)
		od[i] = i < ax ? dims[i] : i < ax + ri ? di[i - ax] :
			dims[i - ri + 1];
	n = mref(&a.in, 0, dt, rank, dims);
	fill(wa, n, dt);
	ni = mref(&a.indices, OFF_IN2, VPUX_SHAVE_DT_I32, ri, di);
	for (i = 0; i + 4 <= ni; i += 4) {
		s32 v = (s32)rnd(2 * dims[ax]) - (s32)dims[ax];

		memcpy(wa + OFF_IN2 + i, &v, 4);
	}
	mref(&a.out, OFF_OUT, dt, ro, od);
	expect_equal(VPUX_SHAVE_KERNEL_GATHER, &a, sizeof(a));
	/* one index out of range: nothing written, ARGS */
	{
		s32 v = rnd(2) ? (s32)dims[ax] : -(s32)dims[ax] - 1;

		memcpy(wa + a.indices.addr - VPUX_SHAVE_WIN_F, &v, 4);
		expect_eargs(VPUX_SHAVE_KERNEL_GATHER, &a, sizeof(a));
	}
}

static void gen_pad(void)
{
	struct vpux_shave_pad_args a;
	u32 rank = 1 + rnd(4), dims[6], od[6], dt = rand_fdt(), n, i;

	rand_dims(dims, rank, 100);
	memset(&a, 0, sizeof(a));
	a.mode = rnd(VPUX_SHAVE_PAD_MODES);
	if (a.mode == VPUX_SHAVE_PAD_CONSTANT)
		a.value = rand_f32();
	for (i = 0; i < rank; i++) {
		u32 lim = a.mode == VPUX_SHAVE_PAD_REFLECT ? dims[i] : 4;

		a.begin[i] = rnd(lim < 4 ? lim : 4);
		a.end[i] = rnd(lim < 4 ? lim : 4);
		od[i] = dims[i] + a.begin[i] + a.end[i];
	}
	n = mref(&a.in, 0, dt, rank, dims);
	fill(wa, n, dt);
	mref(&a.out, OFF_OUT, dt, rank, od);
	expect_equal(VPUX_SHAVE_KERNEL_PAD, &a, sizeof(a));
	a.begin[rank] = 1;
	if (rank < VPUX_MEMREF_MAX_RANK)
		expect_eargs(VPUX_SHAVE_KERNEL_PAD, &a, sizeof(a));
}

static void gen(u32 id)
{
	memset(wa, 0x5a, WIN);
	switch (id) {
	case VPUX_SHAVE_KERNEL_CLAMP:
		gen_clamp();
		break;
	case VPUX_SHAVE_KERNEL_SOFTMAX:
		gen_softmax();
		break;
	case VPUX_SHAVE_KERNEL_SIGMOID:
	case VPUX_SHAVE_KERNEL_TANH:
		gen_lut(id);
		break;
	case VPUX_SHAVE_KERNEL_PERMUTE:
		gen_permute();
		break;
	case VPUX_SHAVE_KERNEL_QUANTIZE:
		gen_quantize();
		break;
	case VPUX_SHAVE_KERNEL_CONVERT:
		gen_convert();
		break;
	case VPUX_SHAVE_KERNEL_BINARY:
		gen_binary();
		break;
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		gen_softmax_f(id);
		break;
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		gen_layernorm();
		break;
	case VPUX_SHAVE_KERNEL_REDUCE:
		gen_reduce();
		break;
	case VPUX_SHAVE_KERNEL_RESIZE:
		gen_resize();
		break;
	case VPUX_SHAVE_KERNEL_GATHER:
		gen_gather();
		break;
	case VPUX_SHAVE_KERNEL_PAD:
		gen_pad();
		break;
	}
}

/* every UNARY function, several times each */
static void test_unary(struct kern *k)
{
	u32 f, i;

	for (f = 0; f < VPUX_SHAVE_UN_COUNT; f++) {
		u32 eq = k->equal, bad = k->bad;

		for (i = 0; i < 6; i++) {
			memset(wa, 0x5a, WIN);
			gen_unary(f);
		}
		if (k->bad != bad || k->equal - eq != 6)
			tap_diag("unary function %u: %u of 6 equal", f,
				 k->equal - eq);
	}
}

int main(void)
{
	u32 i, r, rounds = 30;

	t_seed(0x6b70);
	for (i = 0; i < N_KS; i++) {
		ks[i].code = she_load(ks[i].name, &ks[i].size);
		if (!ks[i].code) {
			tap_check(0, "SDK kernel %s/%s.bin (make kernels)",
				  VPUX_KERNEL_DIR, ks[i].name);
			return tap_finish();
		}
	}
	for (i = 0; i < N_KS; i++) {
		struct kern *k = &ks[i];

		if (k->id == VPUX_SHAVE_KERNEL_UNARY)
			test_unary(k);
		else
			for (r = 0; r < rounds; r++)
				gen(k->id);
		tap_check(!k->bad && k->equal && k->eargs &&
			  k->equal + k->eargs == k->rounds &&
			  k->wrote == k->equal,
			  "%s ELF kernel (%u bytes, stack %u) bit-equal to built-in kernel %u: %u runs equal (%u wrote), %u argument errors both ARGS",
			  k->name, k->size, k->stack_used, k->id, k->equal,
			  k->wrote, k->eargs);
		free(k->code);
	}
	return tap_finish();
}
