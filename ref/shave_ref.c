// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Plain reference of the SHAVE kernels: one element at a time, one memory
 * callback per element, every value computed from its definition (no
 * tables). Shares the argument checks and the fixed-point functions with
 * every other implementation (shave_common.c), which define the ops.
 * Freestanding: no libc beyond vpux_hw_types.h.
 */
#include "vpux_hw_ops_internal.h"

static int ref_err(int ret)
{
	return ret < 0 ? ret : VPUX_ERR(MMU);
}

static int ref_load(const struct vpux_shave_mem *mem,
		    const struct vpux_tensor *t, u64 off, s32 *v)
{
	u8 b[4];
	int ret = mem->read(mem->ctx, t->addr + (u32)off, b, t->esize);

	if (ret)
		return ref_err(ret);
	*v = vpux_elem_load(b, t->dt);
	return 0;
}

static int ref_store(const struct vpux_shave_mem *mem,
		     const struct vpux_tensor *t, u64 off, s32 v)
{
	u8 b[4];
	int ret;

	vpux_elem_store(b, t->dt, v);
	ret = mem->write(mem->ctx, t->addr + (u32)off, b, t->esize);
	return ret ? ref_err(ret) : 0;
}

/* next index in logical order (last dim fastest), skipping @skip */
static bool ref_next(u32 *idx, const u32 *dims, u32 rank, u32 skip)
{
	u32 k, i;

	for (k = rank; k > 0; k--) {
		i = k - 1;
		if (i == skip)
			continue;
		if (++idx[i] < dims[i])
			return true;
		idx[i] = 0;
	}
	return false;
}

/* element-wise kernels and permute: walk the output's logical indices */
static int ref_eltwise(const struct vpux_shave_job *job,
		       const struct vpux_shave_mem *mem)
{
	const struct vpux_tensor *ti = &job->in, *to = &job->out;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 i;
	int ret;
	s32 v;

	do {
		u64 ioff = 0, ooff = 0;

		for (i = 0; i < to->rank; i++) {
			ioff += idx[i] * ti->stride[job->perm[i]];
			ooff += idx[i] * to->stride[i];
		}
		ret = ref_load(mem, ti, ioff, &v);
		if (!ret)
			ret = ref_store(mem, to, ooff, vpux_shave_map(job, v));
		if (ret)
			return ret;
	} while (ref_next(idx, to->dims, to->rank, VPUX_MEMREF_MAX_RANK));
	return 0;
}

static int ref_softmax(const struct vpux_shave_job *job,
		       const struct vpux_shave_mem *mem)
{
	const struct vpux_tensor *ti = &job->in, *to = &job->out;
	u32 ax = job->a.softmax.axis;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 i, k;
	int ret;
	s32 v;

	do {
		u64 ioff = 0, ooff = 0, sum = 0, recip;
		s32 max = -128;

		for (i = 0; i < ti->rank; i++) {
			ioff += idx[i] * ti->stride[i];
			ooff += idx[i] * to->stride[i];
		}
		for (k = 0; k < ti->dims[ax]; k++) {
			ret = ref_load(mem, ti, ioff + k * ti->stride[ax], &v);
			if (ret)
				return ret;
			if (v > max)
				max = v;
		}
		for (k = 0; k < ti->dims[ax]; k++) {
			ret = ref_load(mem, ti, ioff + k * ti->stride[ax], &v);
			if (ret)
				return ret;
			sum += vpux_shave_softmax_exp(job, (u32)(max - v));
		}
		recip = vpux_shave_softmax_recip(sum);
		for (k = 0; k < ti->dims[ax]; k++) {
			ret = ref_load(mem, ti, ioff + k * ti->stride[ax], &v);
			if (!ret)
				ret = ref_store(mem, to, ooff + k * to->stride[ax],
					vpux_shave_softmax_out(job,
						vpux_shave_softmax_exp(job, (u32)(max - v)),
						recip));
			if (ret)
				return ret;
		}
		if (mem->yield)
			mem->yield(mem->ctx);
	} while (ref_next(idx, ti->dims, ti->rank, ax));
	return 0;
}

/**
 * vpux_ref_shave_run() - reference implementation of a software kernel
 * @kernel_id: VPUX_SHAVE_KERNEL_*
 * @args: argument buffer, @args_size bytes
 * @args_size: size of @args
 * @mem: memory callbacks
 *
 * The FP16/FP32 kernels (ids from VPUX_SHAVE_KERNEL_FIRST_F) run in
 * shave_ref_f.c.
 *
 * Return: as vpux_shave_run(); VPUX_ERR(NOMEM) only for an FP16/FP32
 * kernel whose job record @mem->alloc cannot provide.
 */
int vpux_ref_shave_run(u32 kernel_id, const void *args, u32 args_size,
		       const struct vpux_shave_mem *mem)
{
	struct vpux_shave_job job;
	int ret;

	if (kernel_id >= VPUX_SHAVE_KERNEL_FIRST_F)
		return vpux_ref_shave_f_run(kernel_id, args, args_size, mem);
	ret = vpux_shave_prepare(kernel_id, args, args_size, mem, &job);
	if (ret)
		return ret;
	if (kernel_id == VPUX_SHAVE_KERNEL_SOFTMAX)
		return ref_softmax(&job, mem);
	return ref_eltwise(&job, mem);
}
