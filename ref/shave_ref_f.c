// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Plain reference of the FP16/FP32 SHAVE kernels: one element and one
 * memory callback at a time, nested loops in logical index order (last
 * dim fastest), each value from its definition in
 * Documentation/compute-ops.rst ("FP16/FP32 kernels"). Shares the checks
 * and the per-element math with the NPU model (shave_fcommon.c,
 * shave_fmath.c). Freestanding: no libc beyond vpux_hw_types.h. Not built
 * into the kernel module.
 */
#include "vpux_hw_ops_internal.h"

static int ref_err(int ret)
{
	return ret < 0 ? ret : VPUX_ERR(MMU);
}

/* raw element at byte offset @off of @t into @b (up to 4 bytes) */
static int rd(const struct vpux_shave_mem *mem, const struct vpux_tensor *t,
	      u64 off, u8 *b)
{
	int ret = mem->read(mem->ctx, t->addr + (u32)off, b, t->esize);

	return ret ? ref_err(ret) : 0;
}

static int ld(const struct vpux_shave_mem *mem, const struct vpux_tensor *t,
	      u64 off, u32 *v)
{
	u8 b[4];
	int ret = rd(mem, t, off, b);

	if (!ret)
		*v = vpux_shave_f_load(b, t->dt);
	return ret;
}

static int wr(const struct vpux_shave_mem *mem, const struct vpux_tensor *t,
	      u64 off, const u8 *b)
{
	int ret = mem->write(mem->ctx, t->addr + (u32)off, b, t->esize);

	return ret ? ref_err(ret) : 0;
}

static int st(const struct vpux_shave_mem *mem, const struct vpux_tensor *t,
	      u64 off, u32 v)
{
	u8 b[4];

	vpux_shave_f_store(b, t->dt, v);
	return wr(mem, t, off, b);
}

/* next index in logical order (last dim fastest) over the dims in @mask */
static bool next(u32 *idx, const u32 *dims, u32 rank, u32 mask)
{
	return vpux_idx_next(idx, dims, rank, ~mask);
}

static u64 offset(const u32 *idx, const u64 *stride, u32 rank)
{
	return vpux_idx_offset(idx, stride, rank);
}

#define ALL	0x3fu

/* CONVERT, UNARY, BINARY: walk the output's logical indices */
static int ref_eltwise(const struct vpux_shave_fjob *job,
		       const struct vpux_shave_mem *mem)
{
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, a = 0, b = 0;
	u8 in[4], out[4];
	int ret;

	do {
		u64 ooff = offset(idx, to->stride, to->rank);

		switch (job->kernel_id) {
		case VPUX_SHAVE_KERNEL_CONVERT:
			ret = rd(mem, ti, offset(idx, ti->stride, ti->rank), in);
			if (ret)
				return ret;
			vpux_shave_convert(job, in, out);
			ret = wr(mem, to, ooff, out);
			break;
		case VPUX_SHAVE_KERNEL_UNARY:
			ret = ld(mem, ti, offset(idx, ti->stride, ti->rank), &a);
			if (!ret)
				ret = st(mem, to, ooff, vpux_shave_unary(job, a));
			break;
		default:
			ret = ld(mem, ti, offset(idx, job->bstride[0], to->rank),
				 &a);
			if (!ret)
				ret = ld(mem, &job->t[2],
					 offset(idx, job->bstride[1], to->rank), &b);
			if (!ret)
				ret = st(mem, to, ooff,
					 vpux_shave_binary(job->a.binary.func, a, b));
			break;
		}
		if (ret)
			return ret;
	} while (next(idx, to->dims, to->rank, ALL));
	return 0;
}

/*
 * SOFTMAX_F / LOG_SOFTMAX_F, per line along axis: m = x_0, m = max(m, x_k);
 * s = +0, s = s + exp(x_k - m) for k = 0..n-1; softmax y_k = exp(x_k - m)
 * / s; log-softmax y_k = (x_k - m) - log(s).
 */
static int ref_softmax(const struct vpux_shave_fjob *job,
		       const struct vpux_shave_mem *mem)
{
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 ax = job->a.softmax.axis, n = ti->dims[ax];
	bool lg = job->kernel_id == VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, k, v = 0, m = 0, s, ls;
	int ret;

	do {
		u64 ioff = offset(idx, ti->stride, ti->rank);
		u64 ooff = offset(idx, to->stride, to->rank);

		ret = ld(mem, ti, ioff, &m);
		for (k = 1; !ret && k < n; k++) {
			ret = ld(mem, ti, ioff + k * ti->stride[ax], &v);
			m = vpux_f32_max(m, v);
		}
		s = 0;
		for (k = 0; !ret && k < n; k++) {
			ret = ld(mem, ti, ioff + k * ti->stride[ax], &v);
			s = vpux_f32_add(s, vpux_fm_exp(vpux_f32_sub(v, m)));
		}
		ls = vpux_fm_log(s);
		for (k = 0; !ret && k < n; k++) {
			u32 d;

			ret = ld(mem, ti, ioff + k * ti->stride[ax], &v);
			d = vpux_f32_sub(v, m);
			if (!ret)
				ret = st(mem, to, ooff + k * to->stride[ax], lg ?
					 vpux_f32_sub(d, ls) :
					 vpux_f32_div(vpux_fm_exp(d), s));
		}
		if (ret)
			return ret;
		if (mem->yield)
			mem->yield(mem->ctx);
	} while (next(idx, ti->dims, ti->rank, ALL & ~(1u << ax)));
	return 0;
}

/*
 * LAYERNORM, per group (dims axis..rank-1 in logical order): s = +0,
 * s += x; mean = s / N; v = +0, v += (x - mean) * (x - mean);
 * var = v / N; r = 1 / sqrt(var + eps); y = (x - mean) * r, then * scale,
 * then + bias.
 */
static int ref_layernorm(const struct vpux_shave_fjob *job,
			 const struct vpux_shave_mem *mem)
{
	const struct vpux_shave_layernorm_args *a = &job->a.ln;
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 outer = (1u << a->axis) - 1, inner = ALL & ~outer, rank = ti->rank;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, n = 1, i, pass, v = 0, g = 0;
	u32 s, mean = 0, var = 0, r = 0, nf;
	int ret;

	for (i = a->axis; i < rank; i++)
		n *= ti->dims[i];
	nf = vpux_f32_from_u32(n);
	do {
		for (pass = 0; pass < 3; pass++) {
			s = 0;
			do {
				ret = ld(mem, ti, offset(idx, ti->stride, rank), &v);
				if (ret)
					return ret;
				if (pass == 0) {
					s = vpux_f32_add(s, v);
					continue;
				}
				v = vpux_f32_sub(v, mean);
				if (pass == 1) {
					s = vpux_f32_add(s, vpux_f32_mul(v, v));
					continue;
				}
				v = vpux_f32_mul(v, r);
				if (a->flags & VPUX_SHAVE_LN_SCALE) {
					ret = ld(mem, &job->t[2],
						 offset(idx + a->axis, job->t[2].stride,
							job->t[2].rank), &g);
					v = vpux_f32_mul(v, g);
				}
				if (!ret && a->flags & VPUX_SHAVE_LN_BIAS) {
					ret = ld(mem, &job->t[3],
						 offset(idx + a->axis, job->t[3].stride,
							job->t[3].rank), &g);
					v = vpux_f32_add(v, g);
				}
				if (!ret)
					ret = st(mem, to, offset(idx, to->stride, rank), v);
				if (ret)
					return ret;
			} while (next(idx, ti->dims, rank, inner));
			if (pass == 0) {
				mean = vpux_f32_div(s, nf);
			} else if (pass == 1) {
				var = vpux_f32_div(s, nf);
				r = vpux_f32_div(0x3f800000u, vpux_f32_sqrt(
					vpux_f32_add(var, a->epsilon)));
			}
		}
		if (mem->yield)
			mem->yield(mem->ctx);
	} while (next(idx, ti->dims, rank, outer));
	return 0;
}

/*
 * REDUCE, per output element over the reduced dims in logical order:
 * SUM s = +0, s += x; MEAN that / N; MAX/MIN m = x_first, m = max/min(m, x).
 */
static int ref_reduce(const struct vpux_shave_fjob *job,
		      const struct vpux_shave_mem *mem)
{
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 axes = job->a.reduce.axes, func = job->a.reduce.func, rank = ti->rank;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, n = 1, i, v = 0, acc;
	int ret;

	for (i = 0; i < rank; i++)
		if (axes & (1u << i))
			n *= ti->dims[i];
	do {
		bool first = true;

		acc = 0;
		do {
			ret = ld(mem, ti, offset(idx, ti->stride, rank), &v);
			if (ret)
				return ret;
			if (func == VPUX_SHAVE_RED_SUM || func == VPUX_SHAVE_RED_MEAN)
				acc = vpux_f32_add(acc, v);
			else if (first)
				acc = v;
			else if (func == VPUX_SHAVE_RED_MAX)
				acc = vpux_f32_max(acc, v);
			else
				acc = vpux_f32_min(acc, v);
			first = false;
		} while (next(idx, ti->dims, rank, axes));
		if (func == VPUX_SHAVE_RED_MEAN)
			acc = vpux_f32_div(acc, vpux_f32_from_u32(n));
		ret = st(mem, to, offset(idx, to->stride, rank), acc);
		if (ret)
			return ret;
	} while (next(idx, ti->dims, rank, ALL & ~axes));
	return 0;
}

/* GATHER: every index inside [-dim, dim - 1], before anything is written */
static int ref_gather_scan(const struct vpux_shave_fjob *job,
			   const struct vpux_shave_mem *mem)
{
	const struct vpux_tensor *tx = &job->t[2];
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, k;
	u32 d = job->t[0].dims[job->a.gather.axis];
	u8 b[4];
	int ret;

	do {
		ret = rd(mem, tx, offset(idx, tx->stride, tx->rank), b);
		if (ret)
			return ret;
		if (!vpux_shave_gather_index(vpux_elem_load(b, VPUX_SHAVE_DT_I32), d, &k))
			return VPUX_ERR(ARGS);
	} while (next(idx, tx->dims, tx->rank, ALL));
	return 0;
}

/*
 * RESIZE, GATHER, PAD: per output element, the input element(s) it comes
 * from; copies keep the bit pattern, LINEAR computes.
 */
static int ref_move(const struct vpux_shave_fjob *job,
		    const struct vpux_shave_mem *mem)
{
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, src[VPUX_MEMREF_MAX_RANK];
	u32 rank = ti->rank, i;
	u8 b[4];
	int ret;

	if (job->kernel_id == VPUX_SHAVE_KERNEL_GATHER) {
		ret = ref_gather_scan(job, mem);
		if (ret)
			return ret;
	}
	do {
		u64 ooff = offset(idx, to->stride, to->rank);
		bool constant = false;

		switch (job->kernel_id) {
		case VPUX_SHAVE_KERNEL_RESIZE:
			if (job->a.resize.mode == VPUX_SHAVE_RESIZE_LINEAR) {
				u32 y0, y1, x0, x1, wy0, wy1, wx0, wx1, v[4], k;

				for (i = 0; i < rank; i++)
					src[i] = idx[i];
				vpux_shave_resize_linear(job, rank - 2, idx[rank - 2],
							 &y0, &y1, &wy0, &wy1);
				vpux_shave_resize_linear(job, rank - 1, idx[rank - 1],
							 &x0, &x1, &wx0, &wx1);
				for (k = 0, ret = 0; k < 4 && !ret; k++) {
					src[rank - 2] = k < 2 ? y0 : y1;
					src[rank - 1] = k % 2 ? x1 : x0;
					ret = ld(mem, ti, offset(src, ti->stride, rank), &v[k]);
				}
				if (!ret)
					ret = st(mem, to, ooff, vpux_shave_bilinear(v[0], v[1],
						 v[2], v[3], wy0, wy1, wx0, wx1));
				if (ret)
					return ret;
				continue;
			}
			for (i = 0; i < rank; i++)
				src[i] = vpux_shave_resize_nearest(job, i, idx[i]);
			break;
		case VPUX_SHAVE_KERNEL_PAD:
			for (i = 0; i < rank; i++) {
				s32 p = vpux_shave_pad_src(job, i, idx[i]);

				constant |= p < 0;
				src[i] = p < 0 ? 0 : (u32)p;
			}
			break;
		default: {	/* GATHER */
			const struct vpux_tensor *tx = &job->t[2];
			u32 ax = job->a.gather.axis, ri = tx->rank;

			ret = rd(mem, tx, offset(idx + ax, tx->stride, ri), b);
			if (ret)
				return ret;
			for (i = 0; i < rank; i++)
				src[i] = i < ax ? idx[i] : idx[i + ri - 1];
			vpux_shave_gather_index(vpux_elem_load(b, VPUX_SHAVE_DT_I32),
						ti->dims[ax], &src[ax]);
			break;
		}
		}
		if (constant) {
			ret = st(mem, to, ooff, job->a.pad.value);
		} else {
			ret = rd(mem, ti, offset(src, ti->stride, rank), b);
			if (!ret)
				ret = wr(mem, to, ooff, b);
		}
		if (ret)
			return ret;
	} while (next(idx, to->dims, to->rank, ALL));
	return 0;
}

/**
 * vpux_ref_shave_f_run() - reference of an FP16/FP32 software kernel
 * @kernel_id: VPUX_SHAVE_KERNEL_* from VPUX_SHAVE_KERNEL_FIRST_F
 * @args: argument buffer, @args_size bytes
 * @args_size: size of @args
 * @mem: memory callbacks
 *
 * The validated job (about 1.2 KiB) comes from @mem->alloc, not the
 * stack; no other scratch.
 *
 * Return: as vpux_shave_run() (VPUX_ERR(NOMEM) if the job cannot be
 * allocated).
 */
int vpux_ref_shave_f_run(u32 kernel_id, const void *args, u32 args_size,
			 const struct vpux_shave_mem *mem)
{
	struct vpux_shave_fjob *job;
	int ret;

	job = mem->alloc(mem->ctx, sizeof(*job));
	if (!job)
		return VPUX_ERR(NOMEM);
	ret = vpux_shave_f_prepare(kernel_id, args, args_size, mem, job);
	if (ret)
		goto out;
	switch (kernel_id) {
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		ret = ref_softmax(job, mem);
		break;
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		ret = ref_layernorm(job, mem);
		break;
	case VPUX_SHAVE_KERNEL_REDUCE:
		ret = ref_reduce(job, mem);
		break;
	case VPUX_SHAVE_KERNEL_RESIZE:
	case VPUX_SHAVE_KERNEL_GATHER:
	case VPUX_SHAVE_KERNEL_PAD:
		ret = ref_move(job, mem);
		break;
	default:
		ret = ref_eltwise(job, mem);
		break;
	}
out:
	mem->free(mem->ctx, job);
	return ret;
}
