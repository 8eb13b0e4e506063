// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SHAVE software kernels of the NPU model: the built-in kernel table.
 *
 * After vpux_shave_prepare() has checked the arguments and probed every
 * buffer, a kernel streams its tensors through the engine's memory
 * callbacks in chunks: lines along the output's innermost memory
 * dimension, read with one call when contiguous (or with one call over
 * the span and a gather when the span is short), written with one call
 * when contiguous, mem->yield between chunks. 8-bit element-wise kernels
 * run through a 256-entry table of output values built per invocation
 * (integer arithmetic only). Results equal the plain element-at-a-time
 * loops of ref/shave_ref.c bit for bit.
 */
#include "vpux_ops_internal.h"

#define SHAVE_CHUNK	1024u		/* elements per chunk */
#define SHAVE_SPAN	16384u		/* largest gathered read, bytes */
#define SHAVE_STAGE_MAX	(4u << 20)	/* largest input staged whole */
#define SHAVE_STAGE_CHUNK 65536u	/* staging read size */

struct shave_ctx {
	const struct vpux_shave_job *job;
	const struct vpux_shave_mem *mem;
	u8 *span;			/* SHAVE_SPAN bytes */
	u8 *ibuf;			/* SHAVE_CHUNK packed input elements */
	u8 *obuf;			/* SHAVE_CHUNK packed output elements */
	s32 *lut;			/* 256 output values, or NULL */
	u32 *etab;			/* softmax: 256 exponentials */
	const u8 *stage;		/* whole input extent, or NULL */
};

/* copy @n elements of @es bytes, @stride bytes apart in @src, packed */
static void pick(u8 *dst, const u8 *src, u64 stride, u32 n, u32 es)
{
	size_t st = (size_t)stride;
	u32 i;

	if (es == 1) {
		for (i = 0; i < n; i++, src += st)
			dst[i] = *src;
		return;
	}
	for (i = 0; i < n; i++, src += st)
		memcpy(dst + i * es, src, es);
}

/* read @n elements of @es bytes, @stride bytes apart, packed into dst */
static int gather(const struct shave_ctx *c, u32 addr, u64 stride, u32 n,
		  u32 es, u8 *dst)
{
	const struct vpux_shave_mem *m = c->mem;
	u64 span = stride * (n - 1) + es;
	u32 i;
	int ret;

	if (c->stage) {		/* every input address is inside the stage */
		pick(dst, c->stage + (addr - c->job->in.addr), stride, n, es);
		return 0;
	}
	if (stride == es || n == 1) {
		ret = m->read(m->ctx, addr, dst, n * es);
		return ret ? vpux_shave_mem_err(ret) : 0;
	}
	if (span <= SHAVE_SPAN) {
		ret = m->read(m->ctx, addr, c->span, (u32)span);
		if (ret)
			return vpux_shave_mem_err(ret);
		pick(dst, c->span, stride, n, es);
		return 0;
	}
	for (i = 0; i < n; i++) {
		ret = m->read(m->ctx, addr + (u32)(i * stride), dst + i * es, es);
		if (ret)
			return vpux_shave_mem_err(ret);
	}
	return 0;
}

/* write @n packed elements of @es bytes to @addr, @stride bytes apart */
static int scatter(const struct shave_ctx *c, u32 addr, u64 stride, u32 n,
		   u32 es, const u8 *src)
{
	return vpux_shave_scatter(c->mem, addr, stride, n, es, src);
}

/* CLAMP, SIGMOID, TANH, PERMUTE, QUANTIZE */
static noinline_for_stack int shave_eltwise(struct shave_ctx *c)
{
	const struct vpux_shave_job *job = c->job;
	const struct vpux_tensor *ti = &job->in, *to = &job->out;
	u32 inner = to->order[0], len = to->dims[inner], skip = 1u << inner;
	u64 is = ti->stride[job->perm[inner]], os = to->stride[inner];
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	/* locals: the byte stores below could alias *c */
	u8 *ibuf = c->ibuf, *obuf = c->obuf;
	s32 *lut = c->lut;
	u32 i, j, n;
	int ret;

	/*
	 * Fold the next memory dims of the output into the line while both
	 * tensors continue them with the same step: a compact element-wise
	 * op becomes one long line instead of one line per row.
	 */
	for (i = 1; i < to->rank; i++) {
		u32 dim = to->order[i];

		if (to->stride[dim] != os * len ||
		    ti->stride[job->perm[dim]] != is * len ||
		    (u64)len * to->dims[dim] > 0xffffffffu)
			break;
		len *= to->dims[dim];
		skip |= 1u << dim;
	}

	if (lut)
		for (i = 0; i < 256; i++)
			lut[i] = vpux_shave_map(job, ti->dt == VPUX_SHAVE_DT_I8 ?
						   (s32)(s8)i : (s32)i);
	do {
		u64 ioff = 0, ooff = 0;

		for (i = 0; i < to->rank; i++) {
			ioff += idx[i] * ti->stride[job->perm[i]];
			ooff += idx[i] * to->stride[i];
		}
		for (j = 0; j < len; j += n) {
			n = len - j < SHAVE_CHUNK ? len - j : SHAVE_CHUNK;
			ret = gather(c, ti->addr + (u32)(ioff + j * is), is, n,
				     ti->esize, ibuf);
			if (ret)
				return ret;
			if (job->kernel_id == VPUX_SHAVE_KERNEL_PERMUTE) {
				memcpy(obuf, ibuf, (size_t)n * ti->esize);
			} else if (lut) {
				for (i = 0; i < n; i++)
					obuf[i] = (u8)lut[ibuf[i]];
			} else {
				for (i = 0; i < n; i++)
					vpux_elem_store(obuf + i * to->esize, to->dt,
						vpux_shave_map(job,
							vpux_elem_load(ibuf + i * ti->esize,
								       ti->dt)));
			}
			ret = scatter(c, to->addr + (u32)(ooff + j * os), os, n,
				      to->esize, obuf);
			if (ret)
				return ret;
			ret = vpux_shave_yield(c->mem);
			if (ret)
				return ret;
		}
	} while (vpux_idx_next(idx, to->dims, to->rank, skip));
	return 0;
}

/* SOFTMAX: three passes over each line (max, sum, output) in chunks */
static noinline_for_stack int shave_softmax(struct shave_ctx *c)
{
	const struct vpux_shave_job *job = c->job;
	const struct vpux_tensor *ti = &job->in, *to = &job->out;
	u32 ax = job->a.softmax.axis, len = ti->dims[ax];
	u64 is = ti->stride[ax], os = to->stride[ax];
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	bool in_s = ti->dt == VPUX_SHAVE_DT_I8;
	/* locals: the byte stores below could alias *c */
	u8 *ibuf = c->ibuf, *obuf = c->obuf;
	u32 *etab = c->etab;
	u32 i, j, n, pass;
	int ret = 0;

	for (i = 0; i < 256; i++)
		etab[i] = vpux_shave_softmax_exp(job, i);
	do {
		u64 ioff = 0, ooff = 0, sum = 0, recip = 0;
		s32 max = -128;

		for (i = 0; i < ti->rank; i++) {
			ioff += idx[i] * ti->stride[i];
			ooff += idx[i] * to->stride[i];
		}
		for (pass = 0; pass < 3; pass++) {
			if (pass == 2)
				recip = vpux_shave_softmax_recip(sum);
			for (j = 0; j < len; j += n) {
				n = len - j < SHAVE_CHUNK ? len - j : SHAVE_CHUNK;
				/* a line of one chunk is read once for all passes */
				if (!pass || len > SHAVE_CHUNK)
					ret = gather(c, ti->addr + (u32)(ioff + j * is),
						     is, n, 1, ibuf);
				if (ret)
					return ret;
				for (i = 0; i < n; i++) {
					s32 q = in_s ? (s8)ibuf[i] : ibuf[i];

					if (pass == 0)
						max = q > max ? q : max;
					else if (pass == 1)
						sum += etab[max - q];
					else
						obuf[i] = (u8)vpux_shave_softmax_out(job,
							etab[max - q], recip);
				}
				if (pass == 2) {
					ret = scatter(c, to->addr + (u32)(ooff + j * os),
						      os, n, 1, obuf);
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
 * Lines whose input elements lie further apart than SHAVE_SPAN (e.g. the
 * channel dim of a CHW -> HWC transpose) would cost one callback per
 * element: stage the whole input instead when it is small enough. Not
 * getting the memory is not an error, only slower.
 */
static noinline_for_stack int shave_stage(struct shave_ctx *c, u8 **stage)
{
	const struct vpux_shave_job *job = c->job;
	const struct vpux_tensor *ti = &job->in;
	u32 dim, len, off, n;
	int ret;

	*stage = NULL;
	if (job->kernel_id == VPUX_SHAVE_KERNEL_SOFTMAX) {
		dim = job->a.softmax.axis;
		len = ti->dims[dim];
	} else {
		dim = job->perm[job->out.order[0]];
		len = job->out.dims[job->out.order[0]];
		len = len < SHAVE_CHUNK ? len : SHAVE_CHUNK;
	}
	if (ti->stride[dim] == ti->esize || len == 1 ||
	    ti->stride[dim] * (len - 1) + ti->esize <= SHAVE_SPAN ||
	    ti->bytes > SHAVE_STAGE_MAX)
		return 0;
	*stage = c->mem->alloc(c->mem->ctx, (size_t)ti->bytes);
	if (!*stage)
		return 0;
	for (off = 0; off < ti->bytes; off += n) {
		n = ti->bytes - off < SHAVE_STAGE_CHUNK ?
		    (u32)ti->bytes - off : SHAVE_STAGE_CHUNK;
		ret = c->mem->read(c->mem->ctx, ti->addr + off, *stage + off, n);
		if (ret)
			return vpux_shave_mem_err(ret);
		ret = vpux_shave_yield(c->mem);
		if (ret)
			return ret;
	}
	c->stage = *stage;
	return 0;
}

/* run a prepared job: scratch, optional staging, then the kernel */
static noinline_for_stack int shave_exec(const struct vpux_shave_job *job,
					 const struct vpux_shave_mem *mem)
{
	struct shave_ctx c = { .job = job, .mem = mem };
	size_t sz = SHAVE_SPAN + 2 * SHAVE_CHUNK * 4 + 256 * 4;
	u8 *scratch, *stage;
	int ret;

	scratch = mem->alloc(mem->ctx, sz);
	if (!scratch)
		return VPUX_ERR(NOMEM);
	c.span = scratch;
	c.ibuf = scratch + SHAVE_SPAN;
	c.obuf = c.ibuf + SHAVE_CHUNK * 4;
	c.lut = (s32 *)(c.obuf + SHAVE_CHUNK * 4);
	c.etab = (u32 *)c.lut;
	ret = shave_stage(&c, &stage);
	if (ret)
		goto out;
	if (job->kernel_id == VPUX_SHAVE_KERNEL_SOFTMAX) {
		ret = shave_softmax(&c);
	} else {
		if (job->in.dt == VPUX_SHAVE_DT_I32 || job->out.dt == VPUX_SHAVE_DT_I32 ||
		    job->kernel_id == VPUX_SHAVE_KERNEL_PERMUTE)
			c.lut = NULL;
		ret = shave_eltwise(&c);
	}
out:
	if (stage)
		mem->free(mem->ctx, stage);
	mem->free(mem->ctx, scratch);
	return ret;
}

/**
 * vpux_shave_run() - run a built-in software kernel
 * @kernel_id: VPUX_SHAVE_KERNEL_* (vpux_shave_abi.h)
 * @args: argument buffer (host copy), @args_size bytes
 * @args_size: must equal the size of the kernel's parameter struct
 * @mem: the engine's memory callbacks (window addresses)
 * @cycles: estimated cycles on success (vpux_shave_job_cycles())
 *
 * The validated job (about half a KiB) lives in @mem->alloc memory, not
 * on the stack, so a failed allocation is reported before the checks.
 *
 * Return: 0, VPUX_ERR(KERNEL) for an unknown id, VPUX_ERR(ARGS) for a bad
 * argument, the callbacks' error (VPUX_ERR(MMU)) for a failed access, or
 * VPUX_ERR(NOMEM) when @mem->alloc fails.
 */
int vpux_shave_run(u32 kernel_id, const void *args, u32 args_size,
		   const struct vpux_shave_mem *mem, u64 *cycles)
{
	struct vpux_shave_job *job;
	int ret;

	if (kernel_id >= VPUX_SHAVE_KERNEL_FIRST_F)
		return vpux_shave_f_run(kernel_id, args, args_size, mem, cycles);
	job = mem->alloc(mem->ctx, sizeof(*job));
	if (!job)
		return VPUX_ERR(NOMEM);
	ret = vpux_shave_prepare(kernel_id, args, args_size, mem, job);
	if (!ret)
		ret = shave_exec(job, mem);
	if (!ret && cycles)
		*cycles = vpux_shave_job_cycles(job);
	mem->free(mem->ctx, job);
	return ret;
}
