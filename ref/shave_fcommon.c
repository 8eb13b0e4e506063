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
	if (id == VPUX_SHAVE_KERNEL_BINARY || id == VPUX_SHAVE_KERNEL_GATHER)
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

static int resize_check(const struct vpux_shave_fjob *job)
{
	const struct vpux_shave_resize_args *a = &job->a.resize;
	u32 rank = job->t[0].rank, i;

	if (a->mode >= VPUX_SHAVE_RESIZE_MODES ||
	    a->coord >= VPUX_SHAVE_COORD_MODES ||
	    a->nearest >= VPUX_SHAVE_NEAREST_MODES || a->reserved ||
	    !a->out.is_static || job->t[1].rank != rank)
		return VPUX_ERR(ARGS);
	if (a->mode == VPUX_SHAVE_RESIZE_LINEAR && (rank < 2 || a->nearest))
		return VPUX_ERR(ARGS);
	for (i = 0; i < VPUX_MEMREF_MAX_RANK; i++) {
		u32 sc = a->scales[i];

		if (i >= rank ? sc != 0 :
		    !f32_finite(sc) || sc >> 31 || vpux_f32_is_zero(sc))
			return VPUX_ERR(ARGS);
		if (a->mode == VPUX_SHAVE_RESIZE_LINEAR && i + 2 < rank &&
		    sc != F_ONE)
			return VPUX_ERR(ARGS);
	}
	return 0;
}

static int pad_check(const struct vpux_shave_fjob *job)
{
	const struct vpux_shave_pad_args *a = &job->a.pad;
	u32 i;

	if (a->mode >= VPUX_SHAVE_PAD_MODES ||
	    (a->mode != VPUX_SHAVE_PAD_CONSTANT && a->value))
		return VPUX_ERR(ARGS);
	for (i = job->t[0].rank; i < VPUX_MEMREF_MAX_RANK; i++)
		if (a->begin[i] || a->end[i])
			return VPUX_ERR(ARGS);
	return 0;
}

/* kernel scalars and data types, before any memory access */
static int params_check(const struct vpux_shave_fjob *job)
{
	const struct vpux_tensor *t = job->t;
	u32 id = job->kernel_id, r;

	if (id == VPUX_SHAVE_KERNEL_CONVERT)
		return convert_check(&job->a.convert, t[0].dt, t[1].dt);
	if (id == VPUX_SHAVE_KERNEL_GATHER)
		return t[0].dt != t[1].dt || t[2].dt != VPUX_SHAVE_DT_I32 ||
		       job->a.gather.axis >= t[0].rank ||
		       job->a.gather.reserved ? VPUX_ERR(ARGS) : 0;
	if ((id == VPUX_SHAVE_KERNEL_RESIZE || id == VPUX_SHAVE_KERNEL_PAD) &&
	    t[0].dt != t[1].dt)
		return VPUX_ERR(ARGS);
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
	case VPUX_SHAVE_KERNEL_RESIZE:
		return resize_check(job);
	case VPUX_SHAVE_KERNEL_PAD:
		return pad_check(job);
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
	case VPUX_SHAVE_KERNEL_RESIZE:
		for (i = 0; i < in->rank; i++) {
			dims[i] = job->a.rec[1].dims[i];
			if (job->a.resize.mode == VPUX_SHAVE_RESIZE_LINEAR &&
			    i + 2 < in->rank && dims[i] != in->dims[i])
				return VPUX_ERR(ARGS);
		}
		return 0;
	case VPUX_SHAVE_KERNEL_GATHER: {
		const struct vpux_tensor *ix = &job->t[2];
		u32 ax = job->a.gather.axis;

		r = in->rank + ix->rank - 1;
		if (r > VPUX_MEMREF_MAX_RANK)
			return VPUX_ERR(ARGS);
		*rank = r;
		for (i = 0; i < r; i++)
			dims[i] = i < ax ? in->dims[i] :
				  i < ax + ix->rank ? ix->dims[i - ax] :
				  in->dims[i - ix->rank + 1];
		return 0;
	}
	case VPUX_SHAVE_KERNEL_PAD: {
		const struct vpux_shave_pad_args *a = &job->a.pad;

		for (i = 0; i < in->rank; i++) {
			u64 d = (u64)in->dims[i] + a->begin[i] + a->end[i];

			if (a->mode == VPUX_SHAVE_PAD_REFLECT &&
			    (a->begin[i] >= in->dims[i] || a->end[i] >= in->dims[i]))
				return VPUX_ERR(ARGS);
			if (d > 0xffffffffu)
				return VPUX_ERR(ARGS);
			dims[i] = (u32)d;
		}
		return 0;
	}
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

/**
 * vpux_shave_resize_coord() - RESIZE: input coordinate of an output index
 * @job: prepared RESIZE job
 * @dim: logical dim
 * @o: output index along @dim
 *
 * With xo = o as FP32, s = scales[dim], Lr/Lo the output/input dims as
 * FP32: HALF_PIXEL (xo + 0.5) / s - 0.5; PYTORCH_HALF_PIXEL the same if
 * Lr > 1, else +0; ALIGN_CORNERS +0 if Lr == 1, else xo * (Lo - 1) /
 * (Lr - 1); ASYMMETRIC xo / s; TF_HALF_PIXEL_FOR_NN (xo + 0.5) / s.
 *
 * Return: FP32 coordinate (not clamped).
 */
u32 vpux_shave_resize_coord(const struct vpux_shave_fjob *job, u32 dim,
			    u32 o)
{
	const struct vpux_shave_resize_args *a = &job->a.resize;
	u32 xo = vpux_f32_from_u32(o), s = a->scales[dim];
	u32 lr = job->t[1].dims[dim], lo = job->t[0].dims[dim];

	switch (a->coord) {
	case VPUX_SHAVE_COORD_HALF_PIXEL:
	case VPUX_SHAVE_COORD_PYTORCH_HALF_PIXEL:
		if (lr == 1 && a->coord == VPUX_SHAVE_COORD_PYTORCH_HALF_PIXEL)
			return 0;
		return vpux_f32_sub(vpux_f32_div(vpux_f32_add(xo, F_HALF), s),
				    F_HALF);
	case VPUX_SHAVE_COORD_ALIGN_CORNERS:
		if (lr == 1)
			return 0;
		return vpux_f32_div(vpux_f32_mul(xo, vpux_f32_from_u32(lo - 1)),
				    vpux_f32_from_u32(lr - 1));
	case VPUX_SHAVE_COORD_ASYMMETRIC:
		return vpux_f32_div(xo, s);
	default:
		return vpux_f32_div(vpux_f32_add(xo, F_HALF), s);
	}
}

/**
 * vpux_shave_resize_nearest() - RESIZE nearest: the input index
 * @job: prepared RESIZE job
 * @dim: logical dim
 * @o: output index along @dim
 *
 * x = the coordinate, f = floor(x) (vpux_fm_floor_s32()), r = x - f (one
 * rounded subtraction); ROUND_PREFER_FLOOR f + 1 if r > 0.5;
 * ROUND_PREFER_CEIL f + 1 if r >= 0.5; FLOOR f; CEIL f + 1 if r > 0;
 * clamped to [0, in dim - 1].
 *
 * Return: the input index.
 */
u32 vpux_shave_resize_nearest(const struct vpux_shave_fjob *job, u32 dim,
			      u32 o)
{
	u32 x = vpux_shave_resize_coord(job, dim, o);
	s32 f = vpux_fm_floor_s32(x), lo = (s32)job->t[0].dims[dim];
	u32 r = vpux_f32_sub(x, vpux_f32_from_s32(f));

	switch (job->a.resize.nearest) {
	case VPUX_SHAVE_NEAREST_ROUND_PREFER_FLOOR:
		f += vpux_f32_lt(F_HALF, r);
		break;
	case VPUX_SHAVE_NEAREST_ROUND_PREFER_CEIL:
		f += !vpux_f32_lt(r, F_HALF);
		break;
	case VPUX_SHAVE_NEAREST_CEIL:
		f += vpux_f32_lt(0, r);
		break;
	default:
		break;
	}
	return f < 0 ? 0 : f >= lo ? (u32)lo - 1 : (u32)f;
}

/**
 * vpux_shave_resize_linear() - RESIZE linear: neighbours and weights
 * @job: prepared RESIZE job
 * @dim: logical dim (one of the last two)
 * @o: output index along @dim
 * @i0: lower input index
 * @i1: upper input index (min(i0 + 1, dim - 1))
 * @w0: FP32 weight of @i0: 1 - w1
 * @w1: FP32 weight of @i1: x - i0
 *
 * x = the coordinate clamped to [0, in dim - 1] (x < 0 gives +0, x >
 * dim - 1 gives dim - 1), i0 = floor(x).
 */
void vpux_shave_resize_linear(const struct vpux_shave_fjob *job, u32 dim,
			      u32 o, u32 *i0, u32 *i1, u32 *w0, u32 *w1)
{
	u32 lo = job->t[0].dims[dim], top = vpux_f32_from_u32(lo - 1);
	u32 x = vpux_shave_resize_coord(job, dim, o);
	s32 f;

	if (vpux_f32_lt(x, 0))
		x = 0;
	if (vpux_f32_lt(top, x))
		x = top;
	f = vpux_fm_floor_s32(x);
	*i0 = (u32)f;
	*i1 = (u32)f + 1 < lo ? (u32)f + 1 : lo - 1;
	*w1 = vpux_f32_sub(x, vpux_f32_from_s32(f));
	*w0 = vpux_f32_sub(F_ONE, *w1);
}

/**
 * vpux_shave_bilinear() - RESIZE linear: one output value
 * @v00: input at (y0, x0)
 * @v01: input at (y0, x1)
 * @v10: input at (y1, x0)
 * @v11: input at (y1, x1)
 * @wy0: weight of y0
 * @wy1: weight of y1
 * @wx0: weight of x0
 * @wx1: weight of x1
 *
 * Return: ((v00 * wx0 + v01 * wx1) * wy0) + ((v10 * wx0 + v11 * wx1) *
 * wy1), each product and sum rounded, in that order.
 */
u32 vpux_shave_bilinear(u32 v00, u32 v01, u32 v10, u32 v11, u32 wy0,
			u32 wy1, u32 wx0, u32 wx1)
{
	u32 t = vpux_f32_add(vpux_f32_mul(v00, wx0), vpux_f32_mul(v01, wx1));
	u32 b = vpux_f32_add(vpux_f32_mul(v10, wx0), vpux_f32_mul(v11, wx1));

	return vpux_f32_add(vpux_f32_mul(t, wy0), vpux_f32_mul(b, wy1));
}

/**
 * vpux_shave_pad_src() - PAD: input index of an output index
 * @job: prepared PAD job
 * @dim: logical dim
 * @o: output index along @dim
 *
 * p = o - begin[dim]; inside [0, d): p; else CONSTANT -1, REFLECT -p
 * (p < 0) or 2(d - 1) - p, EDGE the nearer end.
 *
 * Return: the input index or -1 (the constant).
 */
s32 vpux_shave_pad_src(const struct vpux_shave_fjob *job, u32 dim, u32 o)
{
	s64 p = (s64)o - job->a.pad.begin[dim], d = job->t[0].dims[dim];

	if (p >= 0 && p < d)
		return (s32)p;
	switch (job->a.pad.mode) {
	case VPUX_SHAVE_PAD_REFLECT:
		return (s32)(p < 0 ? -p : 2 * (d - 1) - p);
	case VPUX_SHAVE_PAD_EDGE:
		return p < 0 ? 0 : (s32)(d - 1);
	default:
		return -1;
	}
}
