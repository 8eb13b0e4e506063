// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FP16/FP32 SHAVE kernels of the NPU model (CONVERT, UNARY, BINARY,
 * SOFTMAX_F, LOG_SOFTMAX_F, LAYERNORM, REDUCE, RESIZE, GATHER, PAD).
 *
 * After vpux_shave_f_prepare() has checked the arguments, a kernel streams
 * its tensors through the engine's memory callbacks in lines of up to
 * FCHUNK elements: one read call for a contiguous line, one call over the
 * span and a gather for a span of at most FSPAN bytes, one call per
 * element otherwise; one write call for a contiguous output line. The
 * values are unpacked to FP32 bit patterns in scratch buffers, computed
 * with the shared per-element math (shave_fcommon.c, shave_fmath.c) in
 * the order Documentation/compute-ops.rst defines, so the results equal
 * the plain loops of ref/shave_ref_f.c bit for bit; mem->yield between
 * chunks. Integer arithmetic only.
 */
#include "vpux_ops_internal.h"

#define FCHUNK		1024u		/* elements per line chunk */
#define FSPAN		16384u		/* largest gathered read, bytes */
#define F_ONE		0x3f800000u

struct fctx {
	const struct vpux_shave_fjob *job;
	const struct vpux_shave_mem *mem;
	u8 *span;			/* FSPAN bytes */
	u8 *raw;			/* FCHUNK packed elements, 4 bytes max */
	u32 *va, *vb, *acc;		/* FCHUNK FP32 values each */
};

/*
 * Read @n raw elements of @t at byte offset @off, @stride bytes apart
 * (0: one element repeated), packed into @dst.
 */
static int read_raw(const struct fctx *c, const struct vpux_tensor *t,
		    u64 off, u64 stride, u32 n, u8 *dst)
{
	const struct vpux_shave_mem *m = c->mem;
	u32 es = t->esize, addr = t->addr + (u32)off, i;
	u64 span = stride * (n - 1) + es;
	int ret;

	if (!stride) {
		ret = m->read(m->ctx, addr, dst, es);
		if (ret)
			return vpux_shave_mem_err(ret);
		for (i = 1; i < n; i++)
			memcpy(dst + i * es, dst, es);
		return 0;
	}
	if (stride == es || n == 1) {
		ret = m->read(m->ctx, addr, dst, n * es);
		return ret ? vpux_shave_mem_err(ret) : 0;
	}
	if (span <= FSPAN) {
		ret = m->read(m->ctx, addr, c->span, (u32)span);
		if (ret)
			return vpux_shave_mem_err(ret);
		for (i = 0; i < n; i++)
			memcpy(dst + i * es, c->span + (size_t)(i * stride), es);
		return 0;
	}
	for (i = 0; i < n; i++) {
		ret = m->read(m->ctx, addr + (u32)(i * stride), dst + i * es, es);
		if (ret)
			return vpux_shave_mem_err(ret);
	}
	return 0;
}

/* read @n elements as FP32 values into @v */
static int read_f(const struct fctx *c, const struct vpux_tensor *t, u64 off,
		  u64 stride, u32 n, u32 *v)
{
	u8 *raw = c->raw;
	u32 es = t->esize, i;
	int ret = read_raw(c, t, off, stride, n, raw);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		v[i] = vpux_shave_f_load(raw + i * es, t->dt);
	return 0;
}

/* write @n packed raw elements to @t at @off, @stride bytes apart */
static int write_raw(const struct fctx *c, const struct vpux_tensor *t,
		     u64 off, u64 stride, u32 n, const u8 *src)
{
	return vpux_shave_scatter(c->mem, t->addr + (u32)off, stride, n,
				  t->esize, src);
}

/* store @n FP32 values to @t (F16/F32) */
static int write_f(const struct fctx *c, const struct vpux_tensor *t,
		   u64 off, u64 stride, u32 n, const u32 *v)
{
	u8 *raw = c->raw;
	u32 es = t->esize, i;

	for (i = 0; i < n; i++)
		vpux_shave_f_store(raw + i * es, t->dt, v[i]);
	return write_raw(c, t, off, stride, n, raw);
}

static u64 offset(const u32 *idx, const u64 *stride, u32 rank)
{
	return vpux_idx_offset(idx, stride, rank);
}

/*
 * CONVERT, UNARY, BINARY: lines along the output's innermost memory dim,
 * extended over the next memory dims while every tensor continues them
 * with the same step.
 */
static noinline_for_stack int f_eltwise(struct fctx *c)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	const struct vpux_tensor *t2 = &job->t[2];
	bool bin = job->kernel_id == VPUX_SHAVE_KERNEL_BINARY;
	const u64 *s0 = bin ? job->bstride[0] : ti->stride;
	const u64 *s1 = job->bstride[1];
	u32 inner = to->order[0], len = to->dims[inner], skip = 1u << inner;
	u64 os = to->stride[inner], is0 = s0[inner], is1 = bin ? s1[inner] : 0;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 *va = c->va, *vb = c->vb;
	u8 *raw = c->raw, *span = c->span;
	u32 i, j, n;
	int ret;

	for (i = 1; i < to->rank; i++) {
		u32 dim = to->order[i];

		if (to->stride[dim] != os * len || s0[dim] != is0 * len ||
		    (bin && s1[dim] != is1 * len) ||
		    (u64)len * to->dims[dim] > 0xffffffffu)
			break;
		len *= to->dims[dim];
		skip |= 1u << dim;
	}
	do {
		u64 ooff = offset(idx, to->stride, to->rank);
		u64 ioff = offset(idx, s0, to->rank);
		u64 ioff2 = bin ? offset(idx, s1, to->rank) : 0;

		for (j = 0; j < len; j += n) {
			n = len - j < FCHUNK ? len - j : FCHUNK;
			if (job->kernel_id == VPUX_SHAVE_KERNEL_CONVERT) {
				/* raw input staged in span: FCHUNK * 4 <= FSPAN */
				ret = read_raw(c, ti, ioff + j * is0, is0, n, raw);
				if (ret)
					return ret;
				memcpy(span, raw, (size_t)n * ti->esize);
				for (i = 0; i < n; i++)
					vpux_shave_convert(job, span + i * ti->esize,
							   raw + i * to->esize);
				ret = write_raw(c, to, ooff + j * os, os, n, raw);
			} else {
				ret = read_f(c, ti, ioff + j * is0, is0, n, va);
				if (!ret && bin)
					ret = read_f(c, t2, ioff2 + j * is1, is1, n, vb);
				if (ret)
					return ret;
				if (bin)
					for (i = 0; i < n; i++)
						va[i] = vpux_shave_binary(job->a.binary.func,
									  va[i], vb[i]);
				else
					for (i = 0; i < n; i++)
						va[i] = vpux_shave_unary(job, va[i]);
				ret = write_f(c, to, ooff + j * os, os, n, va);
			}
			if (!ret)
				ret = vpux_shave_yield(c->mem);
			if (ret)
				return ret;
		}
	} while (vpux_idx_next(idx, to->dims, to->rank, skip));
	return 0;
}

/*
 * One chunk of @n values of a softmax line in @pass: 0 the line's
 * maximum *@m (@first: the line's first chunk), 1 the sum *@s of the
 * exponentials (kept in @vb), 2 the outputs into @vb (log-softmax: less
 * @ls); @reread: the line is longer than a chunk, so @va holds the
 * inputs again and the exponentials are computed anew.
 */
static void sm_chunk(u32 pass, bool lg, bool first, bool reread, u32 n,
		     u32 *va, u32 *vb, u32 *m, u32 *s, u32 ls)
{
	u32 i = 0;

	if (pass == 0) {
		if (first)
			*m = va[i++];
		for (; i < n; i++)
			*m = vpux_f32_max(*m, va[i]);
		return;
	}
	if (pass == 1) {
		for (i = 0; i < n; i++) {
			va[i] = vpux_f32_sub(va[i], *m);
			vb[i] = vpux_fm_exp(va[i]);
			*s = vpux_f32_add(*s, vb[i]);
		}
		return;
	}
	if (reread)
		for (i = 0; i < n; i++) {
			va[i] = vpux_f32_sub(va[i], *m);
			vb[i] = lg ? 0 : vpux_fm_exp(va[i]);
		}
	for (i = 0; i < n; i++)
		vb[i] = lg ? vpux_f32_sub(va[i], ls) : vpux_f32_div(vb[i], *s);
}

/*
 * SOFTMAX_F / LOG_SOFTMAX_F: per line along the axis, max, sum of
 * exponentials, output; a line of one chunk is read once and its
 * exponentials kept, a longer one is read in chunks three times.
 */
static noinline_for_stack int f_softmax(struct fctx *c)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 ax = job->a.softmax.axis, len = ti->dims[ax];
	bool lg = job->kernel_id == VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F;
	u64 is = ti->stride[ax], os = to->stride[ax];
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 *va = c->va, *vb = c->vb;
	u32 j, n, pass;
	int ret;

	do {
		u64 ioff = offset(idx, ti->stride, ti->rank);
		u64 ooff = offset(idx, to->stride, to->rank);
		u32 m = 0, s = 0, ls = 0;

		for (pass = 0; pass < 3; pass++) {
			if (pass == 2)
				ls = vpux_fm_log(s);
			for (j = 0; j < len; j += n) {
				n = len - j < FCHUNK ? len - j : FCHUNK;
				if (!pass || len > FCHUNK) {
					ret = read_f(c, ti, ioff + j * is, is, n, va);
					if (ret)
						return ret;
				}
				sm_chunk(pass, lg, !j, len > FCHUNK, n, va, vb,
					 &m, &s, ls);
				if (pass == 2) {
					ret = write_f(c, to, ooff + j * os, os, n, vb);
					if (ret)
						return ret;
				}
				ret = vpux_shave_yield(c->mem);
				if (ret)
					return ret;
			}
		}
	} while (vpux_idx_next(idx, ti->dims, ti->rank, 1u << ax));
	return 0;
}

/*
 * LAYERNORM: add @n values of a line to the running sum @s, in @pass 0
 * the values, in pass 1 their squared differences from @mean.
 */
static u32 ln_sum(u32 pass, u32 n, const u32 *va, u32 s, u32 mean)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u32 d = pass ? vpux_f32_sub(va[i], mean) : va[i];

		s = vpux_f32_add(s, pass ? vpux_f32_mul(d, d) : d);
	}
	return s;
}

/* LAYERNORM output of @n values of a line: ((x - mean) * r) * scale + bias */
static int ln_out(const struct fctx *c, u32 *va, u32 n, u32 mean, u32 r,
		  const u32 *gi, u32 j)
{
	const struct vpux_shave_layernorm_args *a = &c->job->a.ln;
	const struct vpux_tensor *tg = &c->job->t[2], *tb = &c->job->t[3];
	u32 *vb = c->vb, i;
	int ret;

	for (i = 0; i < n; i++)
		va[i] = vpux_f32_mul(vpux_f32_sub(va[i], mean), r);
	if (a->flags & VPUX_SHAVE_LN_SCALE) {
		u32 gl = tg->rank - 1;

		ret = read_f(c, tg, offset(gi, tg->stride, tg->rank) +
			     j * tg->stride[gl], tg->stride[gl], n, vb);
		if (ret)
			return ret;
		for (i = 0; i < n; i++)
			va[i] = vpux_f32_mul(va[i], vb[i]);
	}
	if (a->flags & VPUX_SHAVE_LN_BIAS) {
		u32 bl = tb->rank - 1;

		ret = read_f(c, tb, offset(gi, tb->stride, tb->rank) +
			     j * tb->stride[bl], tb->stride[bl], n, vb);
		if (ret)
			return ret;
		for (i = 0; i < n; i++)
			va[i] = vpux_f32_add(va[i], vb[i]);
	}
	return 0;
}

/* LAYERNORM: compute and write @n outputs of a line at byte @off */
static int ln_write(const struct fctx *c, u32 *va, u32 n, u32 mean, u32 r,
		    const u32 *gi, u32 j, u64 off)
{
	const struct vpux_tensor *to = &c->job->t[1];
	int ret = ln_out(c, va, n, mean, r, gi, j);

	if (ret)
		return ret;
	return write_f(c, to, off, to->stride[to->rank - 1], n, va);
}

/*
 * LAYERNORM: per group, lines along the last logical dim, in logical
 * order; three passes (sum, squared deviations, output).
 */
static noinline_for_stack int f_layernorm(struct fctx *c)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_shave_layernorm_args *a = &job->a.ln;
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 rank = ti->rank, last = rank - 1, len = ti->dims[last];
	u32 outer = (1u << a->axis) - 1, inner = 0x3fu & ~outer;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 *va = c->va;
	u32 i, j, n, pass, s, mean = 0, r = 0, nf, cnt = 1;
	int ret;

	for (i = a->axis; i < rank; i++)
		cnt *= ti->dims[i];
	nf = vpux_f32_from_u32(cnt);
	do {
		for (pass = 0; pass < 3; pass++) {
			s = 0;
			do {
				u64 ioff = offset(idx, ti->stride, rank);
				u64 ooff = offset(idx, to->stride, rank);
				const u32 *gi = idx + a->axis;

				for (j = 0; j < len; j += n) {
					n = len - j < FCHUNK ? len - j : FCHUNK;
					ret = read_f(c, ti, ioff + j * ti->stride[last],
						     ti->stride[last], n, va);
					if (ret)
						return ret;
					if (pass < 2)
						s = ln_sum(pass, n, va, s, mean);
					else
						ret = ln_write(c, va, n, mean, r, gi, j,
							       ooff + j * to->stride[last]);
					if (!ret)
						ret = vpux_shave_yield(c->mem);
					if (ret)
						return ret;
				}
			} while (vpux_idx_next(idx, ti->dims, rank,
					  ~inner | (1u << last)));
			if (pass == 0)
				mean = vpux_f32_div(s, nf);
			else if (pass == 1)
				r = vpux_f32_div(F_ONE, vpux_f32_sqrt(
					vpux_f32_add(vpux_f32_div(s, nf),
						     a->epsilon)));
		}
	} while (vpux_idx_next(idx, ti->dims, rank, ~outer));
	return 0;
}

static u32 red_step(u32 func, u32 acc, u32 v)
{
	if (func == VPUX_SHAVE_RED_MAX)
		return vpux_f32_max(acc, v);
	if (func == VPUX_SHAVE_RED_MIN)
		return vpux_f32_min(acc, v);
	return vpux_f32_add(acc, v);
}

/*
 * REDUCE. Last logical dim reduced: per output element, lines along it
 * over the reduced index set in logical order. Kept: a chunk of outputs
 * along it at a time, each accumulator stepping through the reduced set
 * in logical order with one input line per step.
 */
static noinline_for_stack int f_reduce(struct fctx *c)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 axes = job->a.reduce.axes, func = job->a.reduce.func;
	u32 rank = ti->rank, last = rank - 1, lbit = 1u << last;
	bool sum = func == VPUX_SHAVE_RED_SUM || func == VPUX_SHAVE_RED_MEAN;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 *va = c->va, *acc = c->acc;
	u32 i, j, n, cnt = 1, nf;
	u64 is = ti->stride[last], os = to->stride[last];
	int ret;

	for (i = 0; i < rank; i++)
		if (axes & (1u << i))
			cnt *= ti->dims[i];
	nf = vpux_f32_from_u32(cnt);
	if (axes & lbit) {
		u32 len = ti->dims[last];

		do {		/* over the kept dims */
			u32 v = 0;
			bool first = true;

			do {	/* over the reduced dims but the last */
				u64 ioff = offset(idx, ti->stride, rank);

				for (j = 0; j < len; j += n) {
					n = len - j < FCHUNK ? len - j : FCHUNK;
					ret = read_f(c, ti, ioff + j * is, is, n, va);
					if (ret)
						return ret;
					i = 0;
					if (first && !sum)
						v = va[i++];
					first = false;
					for (; i < n; i++)
						v = red_step(func, v, va[i]);
					ret = vpux_shave_yield(c->mem);
					if (ret)
						return ret;
				}
			} while (vpux_idx_next(idx, ti->dims, rank,
						     ~axes | lbit));
			if (func == VPUX_SHAVE_RED_MEAN)
				v = vpux_f32_div(v, nf);
			ret = write_f(c, to, offset(idx, to->stride, rank), os, 1, &v);
			if (ret)
				return ret;
		} while (vpux_idx_next(idx, ti->dims, rank, axes));
		return 0;
	}
	do {			/* over the kept dims but the last */
		u32 len = ti->dims[last];

		for (j = 0; j < len; j += n) {
			bool first = true;

			n = len - j < FCHUNK ? len - j : FCHUNK;
			do {	/* over the reduced dims */
				ret = read_f(c, ti, offset(idx, ti->stride, rank) +
					     j * is, is, n, va);
				if (ret)
					return ret;
				for (i = 0; i < n; i++)
					acc[i] = first ? (sum ? vpux_f32_add(0, va[i]) :
							  va[i]) :
						 red_step(func, acc[i], va[i]);
				first = false;
				ret = vpux_shave_yield(c->mem);
				if (ret)
					return ret;
			} while (vpux_idx_next(idx, ti->dims, rank, ~axes));
			if (func == VPUX_SHAVE_RED_MEAN)
				for (i = 0; i < n; i++)
					acc[i] = vpux_f32_div(acc[i], nf);
			ret = write_f(c, to, offset(idx, to->stride, rank) + j * os,
				      os, n, acc);
			if (ret)
				return ret;
		}
	} while (vpux_idx_next(idx, ti->dims, rank, axes | lbit));
	return 0;
}

/*
 * Fetch @n raw elements of @t at base offset @base + s[k] * @stride into
 * @dst (s[k] < 0: left alone): one read of the covered segment when it
 * holds at most FCHUNK elements, else one read per element.
 */
static int fetch_idx(const struct fctx *c, const struct vpux_tensor *t,
		     u64 base, u64 stride, const s32 *sx, u32 n, u8 *dst)
{
	u32 es = t->esize, k;
	s32 lo = -1, hi = -1;
	u8 *seg = (u8 *)c->vb;
	int ret;

	for (k = 0; k < n; k++) {
		if (sx[k] < 0)
			continue;
		if (lo < 0 || sx[k] < lo)
			lo = sx[k];
		if (sx[k] > hi)
			hi = sx[k];
	}
	if (lo < 0)
		return 0;
	if ((u32)(hi - lo) < FCHUNK) {
		ret = read_raw(c, t, base + (u64)lo * stride, stride,
			       (u32)(hi - lo) + 1, seg);
		if (ret)
			return ret;
		for (k = 0; k < n; k++)
			if (sx[k] >= 0)
				memcpy(dst + k * es, seg + (u32)(sx[k] - lo) * es, es);
		return 0;
	}
	for (k = 0; k < n; k++) {
		if (sx[k] < 0)
			continue;
		ret = read_raw(c, t, base + (u64)sx[k] * stride, stride, 1,
			       dst + k * es);
		if (ret)
			return ret;
	}
	return 0;
}

/* GATHER: every index in range, in chunks along the indices' last dim */
static noinline_for_stack int f_gather_scan(struct fctx *c)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_tensor *tx = &job->t[2];
	u32 d = job->t[0].dims[job->a.gather.axis], last = tx->rank - 1;
	u32 len = tx->dims[last], idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u8 *raw = c->raw;
	u32 j, n, k, v;
	int ret;

	do {
		u64 off = offset(idx, tx->stride, tx->rank);

		for (j = 0; j < len; j += n) {
			n = len - j < FCHUNK ? len - j : FCHUNK;
			ret = read_raw(c, tx, off + j * tx->stride[last],
				       tx->stride[last], n, raw);
			if (ret)
				return ret;
			for (k = 0; k < n; k++)
				if (!vpux_shave_gather_index(vpux_elem_load(raw + 4 * k,
							     VPUX_SHAVE_DT_I32), d, &v))
					return VPUX_ERR(ARGS);
			ret = vpux_shave_yield(c->mem);
			if (ret)
				return ret;
		}
	} while (vpux_idx_next(idx, tx->dims, tx->rank, 1u << last));
	return 0;
}

/*
 * The source of one output line chunk of RESIZE nearest, PAD or GATHER:
 * the input base offset, the input dim the line runs along, and the
 * input index of each element (-1: PAD's constant). false: the whole line
 * is PAD's constant.
 */
static int line_src(const struct fctx *c, const u32 *idx, u32 j, u32 n,
		    u64 *base, u32 *ind, s32 *sx, bool *constant)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_tensor *ti = &job->t[0], *tx = &job->t[2];
	u32 last = job->t[1].rank - 1, i, k, v = 0;
	u8 b[4];
	int ret;

	*base = 0;
	*constant = false;
	switch (job->kernel_id) {
	case VPUX_SHAVE_KERNEL_RESIZE:
		for (i = 0; i < last; i++)
			*base += vpux_shave_resize_nearest(job, i, idx[i]) *
				 ti->stride[i];
		*ind = last;
		for (k = 0; k < n; k++)
			sx[k] = (s32)vpux_shave_resize_nearest(job, last, j + k);
		return 0;
	case VPUX_SHAVE_KERNEL_PAD:
		for (i = 0; i < last; i++) {
			s32 p = vpux_shave_pad_src(job, i, idx[i]);

			if (p < 0)
				*constant = true;
			else
				*base += (u64)p * ti->stride[i];
		}
		*ind = last;
		for (k = 0; k < n; k++)
			sx[k] = *constant ? -1 : vpux_shave_pad_src(job, last, j + k);
		return 0;
	default: {	/* GATHER */
		u32 ax = job->a.gather.axis, ri = tx->rank;
		u64 xoff = 0;

		for (i = 0; i < ax; i++)
			*base += idx[i] * ti->stride[i];
		if (ax + 1 < ti->rank) {
			xoff = offset(idx + ax, tx->stride, ri);
			ret = read_raw(c, tx, xoff, 0, 1, b);
			if (ret)
				return ret;
			vpux_shave_gather_index(vpux_elem_load(b, VPUX_SHAVE_DT_I32),
						ti->dims[ax], &v);
			*base += v * ti->stride[ax];
			for (i = ax + 1; i + 1 < ti->rank; i++)
				*base += idx[i + ri - 1] * ti->stride[i];
			*ind = ti->rank - 1;
			for (k = 0; k < n; k++)
				sx[k] = (s32)(j + k);
			return 0;
		}
		/* the line runs along the indices' last dim */
		xoff = offset(idx + ax, tx->stride, ri) + j * tx->stride[ri - 1];
		ret = read_raw(c, tx, xoff, tx->stride[ri - 1], n, (u8 *)c->acc);
		if (ret)
			return ret;
		for (k = 0; k < n; k++) {
			vpux_shave_gather_index(vpux_elem_load((u8 *)c->acc + 4 * k,
							       VPUX_SHAVE_DT_I32),
						ti->dims[ax], &v);
			sx[k] = (s32)v;
		}
		*ind = ax;
		return 0;
	}
	}
}

/* RESIZE linear: lines along the last dim, two input row segments each */
static noinline_for_stack int f_linear(struct fctx *c)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 rank = to->rank, h = rank - 2, w = rank - 1, len = to->dims[w];
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 *va = c->va, *r0 = c->vb, *r1 = c->acc;
	u64 is = ti->stride[w];
	u32 j, n, k, i;
	int ret;

	do {
		u32 y0, y1, wy0, wy1, x0, x1, wx0, wx1, xlo, xhi;
		u64 base = 0;

		for (i = 0; i < h; i++)
			base += idx[i] * ti->stride[i];
		vpux_shave_resize_linear(job, h, idx[h], &y0, &y1, &wy0, &wy1);
		for (j = 0; j < len; j += n) {
			n = len - j < FCHUNK ? len - j : FCHUNK;
			for (;;) {	/* a chunk whose inputs fit a buffer */
				vpux_shave_resize_linear(job, w, j, &xlo, &x1, &wx0, &wx1);
				vpux_shave_resize_linear(job, w, j + n - 1, &x0, &xhi,
							 &wx0, &wx1);
				if (xhi - xlo < FCHUNK)
					break;
				n /= 2;
			}
			ret = read_f(c, ti, base + y0 * ti->stride[h] + xlo * is, is,
				     xhi - xlo + 1, r0);
			if (!ret)
				ret = read_f(c, ti, base + y1 * ti->stride[h] + xlo * is,
					     is, xhi - xlo + 1, r1);
			if (ret)
				return ret;
			for (k = 0; k < n; k++) {
				vpux_shave_resize_linear(job, w, j + k, &x0, &x1, &wx0,
							 &wx1);
				va[k] = vpux_shave_bilinear(r0[x0 - xlo], r0[x1 - xlo],
							    r1[x0 - xlo], r1[x1 - xlo],
							    wy0, wy1, wx0, wx1);
			}
			ret = write_f(c, to, offset(idx, to->stride, rank) +
				      j * to->stride[w], to->stride[w], n, va);
			if (!ret)
				ret = vpux_shave_yield(c->mem);
			if (ret)
				return ret;
		}
	} while (vpux_idx_next(idx, to->dims, rank, 1u << w));
	return 0;
}

/* RESIZE nearest, GATHER, PAD: lines along the output's last dim */
static noinline_for_stack int f_move(struct fctx *c)
{
	const struct vpux_shave_fjob *job = c->job;
	const struct vpux_tensor *ti = &job->t[0], *to = &job->t[1];
	u32 last = to->rank - 1, len = to->dims[last], es = to->esize;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	s32 *sx = (s32 *)c->va;
	u8 *raw = c->raw, cst[4] = { 0 };
	u32 j, n, k, ind = 0;
	int ret;

	if (job->kernel_id == VPUX_SHAVE_KERNEL_RESIZE &&
	    job->a.resize.mode == VPUX_SHAVE_RESIZE_LINEAR)
		return f_linear(c);
	if (job->kernel_id == VPUX_SHAVE_KERNEL_GATHER) {
		ret = f_gather_scan(c);
		if (ret)
			return ret;
	}
	if (job->kernel_id == VPUX_SHAVE_KERNEL_PAD)
		vpux_shave_f_store(cst, to->dt, job->a.pad.value);
	do {
		u64 ooff = offset(idx, to->stride, to->rank);

		for (j = 0; j < len; j += n) {
			u64 base;
			bool constant;

			n = len - j < FCHUNK ? len - j : FCHUNK;
			ret = line_src(c, idx, j, n, &base, &ind, sx, &constant);
			if (!ret)
				ret = fetch_idx(c, ti, base, ti->stride[ind], sx, n,
						raw);
			if (ret)
				return ret;
			for (k = 0; k < n; k++)
				if (sx[k] < 0)
					memcpy(raw + k * es, cst, es);
			ret = write_raw(c, to, ooff + j * to->stride[last],
					to->stride[last], n, raw);
			if (!ret)
				ret = vpux_shave_yield(c->mem);
			if (ret)
				return ret;
		}
	} while (vpux_idx_next(idx, to->dims, to->rank, 1u << last));
	return 0;
}

/**
 * vpux_shave_f_run() - run an FP16/FP32 built-in kernel
 * @kernel_id: VPUX_SHAVE_KERNEL_* from VPUX_SHAVE_KERNEL_FIRST_F
 * @args: argument buffer (host copy), @args_size bytes
 * @args_size: must equal the size of the kernel's parameter struct
 * @mem: the engine's memory callbacks
 * @cycles: estimated cycles on success
 *
 * The validated job (about 1.1 KiB) and 32 KiB of scratch come from
 * @mem->alloc.
 *
 * Return: as vpux_shave_run().
 */
int vpux_shave_f_run(u32 kernel_id, const void *args, u32 args_size,
		     const struct vpux_shave_mem *mem, u64 *cycles)
{
	struct vpux_shave_fjob *job;
	struct fctx c = { .mem = mem };
	u8 *scratch = NULL;
	int ret;

	job = mem->alloc(mem->ctx, sizeof(*job));
	if (!job)
		return VPUX_ERR(NOMEM);
	ret = vpux_shave_f_prepare(kernel_id, args, args_size, mem, job);
	if (ret)
		goto out;
	scratch = mem->alloc(mem->ctx, FSPAN + FCHUNK * 4 * 4);
	if (!scratch) {
		ret = VPUX_ERR(NOMEM);
		goto out;
	}
	c.job = job;
	c.span = scratch;
	c.raw = scratch + FSPAN;
	c.va = (u32 *)(c.raw + FCHUNK * 4);
	c.vb = c.va + FCHUNK;
	c.acc = c.vb + FCHUNK;
	switch (kernel_id) {
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		ret = f_softmax(&c);
		break;
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		ret = f_layernorm(&c);
		break;
	case VPUX_SHAVE_KERNEL_REDUCE:
		ret = f_reduce(&c);
		break;
	case VPUX_SHAVE_KERNEL_RESIZE:
	case VPUX_SHAVE_KERNEL_GATHER:
	case VPUX_SHAVE_KERNEL_PAD:
		ret = f_move(&c);
		break;
	default:
		ret = f_eltwise(&c);
		break;
	}
	if (!ret && cycles)
		*cycles = vpux_shave_fjob_cycles(job);
out:
	if (scratch)
		mem->free(mem->ctx, scratch);
	mem->free(mem->ctx, job);
	return ret;
}
