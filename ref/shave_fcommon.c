// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What every implementation of the FP16/FP32 SHAVE kernels shares because
 * it is part of their definition: the argument checks (vpux_shave_abi.h,
 * Documentation/compute-ops.rst "FP16/FP32 kernels") and the value of one
 * element of the element-wise kernels, in integer soft-float.
 */
#include "vpux_hw_ops_internal.h"

#define F_ONE		0x3f800000u
#define F_HALF		0x3f000000u
#define F_SIXTH		0x3e2aaaabu	/* 1/6 rounded: HardSwish's alpha */

static bool dt_is_f(u32 dt)
{
	return dt == VPUX_SHAVE_DT_F16 || dt == VPUX_SHAVE_DT_F32;
}

static bool f32_finite(u32 v)
{
	return (v & 0x7fffffffu) < VPUX_F32_INF;
}

static bool rec_is_zero(const struct vpux_memref *m)
{
	const u8 *p = (const u8 *)m;
	u32 i;

	for (i = 0; i < sizeof(*m); i++)
		if (p[i])
			return false;
	return true;
}

static int mem_err(int ret)
{
	return ret < 0 ? ret : VPUX_ERR(MMU);
}

/* records of a kernel's struct, and which are used */
static u32 rec_count(u32 id)
{
	if (id == VPUX_SHAVE_KERNEL_BINARY)
		return 3;
	if (id == VPUX_SHAVE_KERNEL_LAYERNORM)
		return 4;
	return 2;
}

static bool rec_used(const struct vpux_shave_fjob *job, u32 r)
{
	if (job->kernel_id != VPUX_SHAVE_KERNEL_LAYERNORM || r < 2)
		return true;
	return job->a.ln.flags & (r == 2 ? VPUX_SHAVE_LN_SCALE :
					   VPUX_SHAVE_LN_BIAS);
}

static int convert_check(const struct vpux_shave_convert_args *a, u32 idt,
			 u32 odt)
{
	bool fi = dt_is_f(idt), fo = dt_is_f(odt);

	if (fi && fo)
		return a->scale || a->zero_point ? VPUX_ERR(ARGS) : 0;
	if (!f32_finite(a->scale) || a->scale >> 31 ||
	    vpux_f32_is_zero(a->scale))
		return VPUX_ERR(ARGS);
	if (fi && (odt == VPUX_SHAVE_DT_U8 || odt == VPUX_SHAVE_DT_I8))
		return a->zero_point >= vpux_q8_min(odt == VPUX_SHAVE_DT_I8) &&
		       a->zero_point <= vpux_q8_max(odt == VPUX_SHAVE_DT_I8) ?
		       0 : VPUX_ERR(ARGS);
	if (fo && (idt == VPUX_SHAVE_DT_U8 || idt == VPUX_SHAVE_DT_I8))
		return a->zero_point >= vpux_q8_min(idt == VPUX_SHAVE_DT_I8) &&
		       a->zero_point <= vpux_q8_max(idt == VPUX_SHAVE_DT_I8) ?
		       0 : VPUX_ERR(ARGS);
	if (fo && idt == VPUX_SHAVE_DT_I32)
		return 0;
	return VPUX_ERR(ARGS);
}

static int unary_check(const struct vpux_shave_unary_args *a)
{
	if (a->func >= VPUX_SHAVE_UN_COUNT || a->reserved)
		return VPUX_ERR(ARGS);
	switch (a->func) {
	case VPUX_SHAVE_UN_HARD_SIGMOID:
		return f32_finite(a->alpha) && f32_finite(a->beta) ? 0 :
		       VPUX_ERR(ARGS);
	case VPUX_SHAVE_UN_LEAKY_RELU:
		return f32_finite(a->alpha) && !a->beta ? 0 : VPUX_ERR(ARGS);
	case VPUX_SHAVE_UN_CLIP:
		if (vpux_f32_is_nan(a->alpha) || vpux_f32_is_nan(a->beta) ||
		    vpux_f32_lt(a->beta, a->alpha))
			return VPUX_ERR(ARGS);
		return 0;
	default:
		return a->alpha || a->beta ? VPUX_ERR(ARGS) : 0;
	}
}

/* kernel scalars and data types, before any memory access */
static int params_check(const struct vpux_shave_fjob *job)
{
	const struct vpux_tensor *t = job->t;
	u32 id = job->kernel_id, r;

	if (id == VPUX_SHAVE_KERNEL_CONVERT)
		return convert_check(&job->a.convert, t[0].dt, t[1].dt);
	for (r = 0; r < job->nrec; r++)
		if (rec_used(job, r) && !dt_is_f(t[r].dt))
			return VPUX_ERR(ARGS);
	switch (id) {
	case VPUX_SHAVE_KERNEL_UNARY:
		return unary_check(&job->a.unary);
	case VPUX_SHAVE_KERNEL_BINARY:
		return job->a.binary.func >= VPUX_SHAVE_BIN_COUNT ||
		       job->a.binary.reserved ? VPUX_ERR(ARGS) : 0;
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		return job->a.softmax.axis >= t[0].rank ||
		       job->a.softmax.reserved ? VPUX_ERR(ARGS) : 0;
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		if (job->a.ln.axis >= t[0].rank || job->a.ln.reserved ||
		    job->a.ln.flags & ~(VPUX_SHAVE_LN_SCALE | VPUX_SHAVE_LN_BIAS) ||
		    !f32_finite(job->a.ln.epsilon) || job->a.ln.epsilon >> 31)
			return VPUX_ERR(ARGS);
		return 0;
	case VPUX_SHAVE_KERNEL_REDUCE:
		if (job->a.reduce.func >= VPUX_SHAVE_RED_COUNT ||
		    !job->a.reduce.axes || job->a.reduce.axes >> t[0].rank)
			return VPUX_ERR(ARGS);
		return 0;
	default:
		return VPUX_ERR(KERNEL);
	}
}

/* BINARY: broadcast shape and the input steps along each output dim */
static int broadcast(struct vpux_shave_fjob *job, u32 *dims, u32 *rank)
{
	const struct vpux_tensor *in[2] = { &job->t[0], &job->t[2] };
	u32 r = in[0]->rank > in[1]->rank ? in[0]->rank : in[1]->rank, i, k;

	*rank = r;
	for (i = 0; i < r; i++)
		dims[i] = 1;
	for (k = 0; k < 2; k++) {
		u32 off = r - in[k]->rank;

		for (i = 0; i < in[k]->rank; i++) {
			u32 d = in[k]->dims[i], *o = &dims[off + i];

			if (d != 1 && *o != 1 && d != *o)
				return VPUX_ERR(ARGS);
			if (d != 1)
				*o = d;
		}
	}
	for (k = 0; k < 2; k++) {
		u32 off = r - in[k]->rank;

		for (i = 0; i < VPUX_MEMREF_MAX_RANK; i++)
			job->bstride[k][i] = i >= off && i < r &&
					     in[k]->dims[i - off] > 1 ?
					     in[k]->stride[i - off] : 0;
	}
	return 0;
}

/* the output shape the inputs' (actual) dims call for */
static int out_shape(struct vpux_shave_fjob *job, u32 *dims, u32 *rank)
{
	const struct vpux_tensor *in = &job->t[0];
	u32 i, r;

	*rank = in->rank;
	for (i = 0; i < VPUX_MEMREF_MAX_RANK; i++)
		dims[i] = in->dims[i];
	switch (job->kernel_id) {
	case VPUX_SHAVE_KERNEL_BINARY:
		return broadcast(job, dims, rank);
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		for (r = 2; r < 4; r++) {
			const struct vpux_tensor *p = &job->t[r];

			if (!rec_used(job, r))
				continue;
			if (p->rank != in->rank - job->a.ln.axis)
				return VPUX_ERR(ARGS);
			for (i = 0; i < p->rank; i++)
				if (p->dims[i] != in->dims[job->a.ln.axis + i])
					return VPUX_ERR(ARGS);
		}
		return 0;
	case VPUX_SHAVE_KERNEL_REDUCE:
		for (i = 0; i < in->rank; i++)
			if (job->a.reduce.axes & (1u << i))
				dims[i] = 1;
		return 0;
	default:
		return 0;
	}
}

/**
 * vpux_shave_f_prepare() - check an FP16/FP32 kernel invocation
 * @kernel_id: VPUX_SHAVE_KERNEL_* from VPUX_SHAVE_KERNEL_FIRST_F
 * @args: argument buffer (host copy)
 * @args_size: its size, must equal the kernel's parameter struct exactly
 * @mem: memory callbacks (probes, dynamic dims)
 * @job: filled on success
 *
 * Order: kernel id, args_size, each record in struct order (an unused
 * LAYERNORM record must be all zero), kernel scalars and types, probes of
 * each used buffer, dynamic input dims, output shape (and LAYERNORM's
 * scale/bias shapes), dynamic output dims written. Nothing but the dims of
 * a dynamic output is written.
 *
 * Return: 0, VPUX_ERR(KERNEL), VPUX_ERR(ARGS) or the callbacks' error.
 */
int vpux_shave_f_prepare(u32 kernel_id, const void *args, u32 args_size,
			 const struct vpux_shave_mem *mem,
			 struct vpux_shave_fjob *job)
{
	u32 size = vpux_shave_args_size(kernel_id), r, i, rank;
	u32 dims[VPUX_MEMREF_MAX_RANK];
	const struct vpux_memref *mout;
	u8 raw[VPUX_MEMREF_MAX_RANK * 4];
	int ret;

	memset(job, 0, sizeof(*job));
	if (!size || kernel_id < VPUX_SHAVE_KERNEL_FIRST_F)
		return VPUX_ERR(KERNEL);
	if (args_size != size || !args)
		return VPUX_ERR(ARGS);
	job->kernel_id = kernel_id;
	job->nrec = rec_count(kernel_id);
	memcpy(&job->a, args, size);
	mout = &job->a.rec[1];
	for (r = 0; r < job->nrec; r++) {
		if (!rec_used(job, r)) {
			if (!rec_is_zero(&job->a.rec[r]))
				return VPUX_ERR(ARGS);
			continue;
		}
		ret = vpux_memref_check(&job->a.rec[r], &job->t[r]);
		if (ret)
			return ret;
	}
	ret = params_check(job);
	for (r = 0; !ret && r < job->nrec; r++)
		if (rec_used(job, r))
			ret = vpux_memref_probe(mem, &job->t[r]);
	for (r = 0; !ret && r < job->nrec; r++)
		if (r != 1 && rec_used(job, r))
			ret = vpux_memref_dims_read(mem, &job->a.rec[r],
						    &job->t[r]);
	if (!ret)
		ret = out_shape(job, dims, &rank);
	if (ret)
		return ret;
	if (rank != job->t[1].rank)
		return VPUX_ERR(ARGS);
	job->elems = 1;
	for (i = 0; i < rank; i++) {
		if (mout->is_static ? dims[i] != mout->dims[i] :
				      dims[i] > mout->dims[i])
			return VPUX_ERR(ARGS);
		job->t[1].dims[i] = dims[i];
		job->elems *= dims[i];
	}
	if (mout->is_static)
		return 0;
	for (i = 0; i < rank; i++)
		vpux_elem_store(raw + 4 * i, VPUX_SHAVE_DT_I32, (s32)dims[i]);
	ret = mem->write(mem->ctx, mout->dims_addr, raw, rank * 4);
	return ret ? mem_err(ret) : 0;
}

/**
 * vpux_shave_f_load() - one element as FP32
 * @p: little-endian element
 * @dt: its type
 *
 * Return: F16 converted exactly, F32 as is, an integer's value rounded
 * to FP32 (exact for 8-bit types).
 */
u32 vpux_shave_f_load(const u8 *p, u32 dt)
{
	if (dt == VPUX_SHAVE_DT_F16)
		return vpux_f16_to_f32((u16)(p[0] | p[1] << 8));
	if (dt == VPUX_SHAVE_DT_F32)
		return (u32)vpux_elem_load(p, dt);
	return vpux_f32_from_s32(vpux_elem_load(p, dt));
}

/**
 * vpux_shave_f_store() - store an FP32 value as F16 or F32
 * @p: destination, little endian
 * @dt: VPUX_SHAVE_DT_F16 (rounded to nearest even) or VPUX_SHAVE_DT_F32
 * @v: FP32 value; a NaN is stored as the canonical NaN
 */
void vpux_shave_f_store(u8 *p, u32 dt, u32 v)
{
	if (dt == VPUX_SHAVE_DT_F16)
		vpux_elem_store(p, dt, vpux_f32_to_f16(v));
	else
		vpux_elem_store(p, dt, (s32)vpux_f32_canon(v));
}

/**
 * vpux_shave_convert() - CONVERT of one element
 * @job: prepared CONVERT job
 * @src: input element
 * @dst: output element
 *
 * float -> float: the value rounded to the output type; float -> U8/I8:
 * clamp(rne(x / scale) + zero_point) (rne saturating to int32, NaN -> 0);
 * integer -> float: ((s64)q - zero_point) rounded to FP32, times scale.
 */
void vpux_shave_convert(const struct vpux_shave_fjob *job, const u8 *src,
			u8 *dst)
{
	const struct vpux_shave_convert_args *a = &job->a.convert;
	u32 idt = job->t[0].dt, odt = job->t[1].dt, v;

	if (dt_is_f(idt)) {
		v = vpux_shave_f_load(src, idt);
		if (dt_is_f(odt)) {
			vpux_shave_f_store(dst, odt, v);
		} else {
			s64 q = (s64)vpux_f32_to_s32(vpux_f32_div(v, a->scale)) +
				a->zero_point;
			bool s = odt == VPUX_SHAVE_DT_I8;

			dst[0] = (u8)vpux_clamp_s64(q, vpux_q8_min(s),
						    vpux_q8_max(s));
		}
		return;
	}
	{
		s64 d = (s64)vpux_elem_load(src, idt) - a->zero_point;
		u64 mag = d < 0 ? (u64)-d : (u64)d;

		v = vpux_f32_norm_pack(d < 0, 157, mag);
		vpux_shave_f_store(dst, odt, vpux_f32_mul(v, a->scale));
	}
}

/* max(0, min(1, alpha * x + beta)); NaN stays NaN */
static u32 hard_sigmoid(u32 x, u32 alpha, u32 beta)
{
	u32 t = vpux_f32_add(vpux_f32_mul(alpha, x), beta);

	return vpux_f32_max(0, vpux_f32_min(F_ONE, t));
}

/**
 * vpux_shave_unary() - UNARY value of one element
 * @job: prepared UNARY job
 * @x: FP32 input
 *
 * Return: FP32 f(x) (Documentation/compute-ops.rst lists each function).
 */
u32 vpux_shave_unary(const struct vpux_shave_fjob *job, u32 x)
{
	const struct vpux_shave_unary_args *a = &job->a.unary;

	switch (a->func) {
	case VPUX_SHAVE_UN_EXP:
		return vpux_fm_exp(x);
	case VPUX_SHAVE_UN_LOG:
		return vpux_fm_log(x);
	case VPUX_SHAVE_UN_SIGMOID:
		return vpux_fm_sigmoid(x);
	case VPUX_SHAVE_UN_TANH:
		return vpux_fm_tanh(x);
	case VPUX_SHAVE_UN_ERF:
		return vpux_fm_erf(x);
	case VPUX_SHAVE_UN_GELU_ERF:
		return vpux_fm_gelu_erf(x);
	case VPUX_SHAVE_UN_GELU_TANH:
		return vpux_fm_gelu_tanh(x);
	case VPUX_SHAVE_UN_HARD_SIGMOID:
		return hard_sigmoid(x, a->alpha, a->beta);
	case VPUX_SHAVE_UN_HARD_SWISH:
		return vpux_f32_mul(x, hard_sigmoid(x, F_SIXTH, F_HALF));
	case VPUX_SHAVE_UN_SILU:
		return vpux_f32_mul(x, vpux_fm_sigmoid(x));
	case VPUX_SHAVE_UN_SQRT:
		return vpux_f32_sqrt(x);
	case VPUX_SHAVE_UN_RECIP:
		return vpux_f32_div(F_ONE, x);
	case VPUX_SHAVE_UN_NEG:
		return vpux_f32_is_nan(x) ? VPUX_F32_NAN : x ^ VPUX_F32_SIGN;
	case VPUX_SHAVE_UN_ABS:
		return vpux_f32_is_nan(x) ? VPUX_F32_NAN : x & ~VPUX_F32_SIGN;
	case VPUX_SHAVE_UN_RELU:
		return x >> 31 && !vpux_f32_is_nan(x) ? 0 : x;
	case VPUX_SHAVE_UN_LEAKY_RELU:
		return x >> 31 && !vpux_f32_is_nan(x) ?
		       vpux_f32_mul(x, a->alpha) : x;
	default:	/* CLIP */
		if (vpux_f32_lt(x, a->alpha))
			return a->alpha;
		if (vpux_f32_lt(a->beta, x))
			return a->beta;
		return x;
	}
}

/**
 * vpux_shave_binary() - BINARY value of one element pair
 * @func: VPUX_SHAVE_BIN_*
 * @a: FP32 from in
 * @b: FP32 from in2
 *
 * Return: FP32 a+b, a-b, a*b, a/b, pow(a, b), max or min (NaN if either
 * is NaN; -0 below +0).
 */
u32 vpux_shave_binary(u32 func, u32 a, u32 b)
{
	switch (func) {
	case VPUX_SHAVE_BIN_ADD:
		return vpux_f32_add(a, b);
	case VPUX_SHAVE_BIN_SUB:
		return vpux_f32_sub(a, b);
	case VPUX_SHAVE_BIN_MUL:
		return vpux_f32_mul(a, b);
	case VPUX_SHAVE_BIN_DIV:
		return vpux_f32_div(a, b);
	case VPUX_SHAVE_BIN_POW:
		return vpux_fm_pow(a, b);
	case VPUX_SHAVE_BIN_MAX:
		return vpux_f32_max(a, b);
	default:
		return vpux_f32_min(a, b);
	}
}
