/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the vpux job tests: BOs, tasks built with the engine core's
 * task builder, SUBMIT/WAIT arguments, queues, BO_WAIT, syncobjs and a
 * long chained job (the device's files and the clock are in
 * vpux_common.h).
 */
#ifndef VPUX_JOB_UTIL_H
#define VPUX_JOB_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vpux_common.h"
#include "task_builder.h"

struct bo {
	__u32 handle;
	__u64 addr;
	size_t size;
	unsigned char *map;
};

static inline int bo_new(int fd, size_t size, __u32 flags, struct bo *bo)
{
	struct drm_vpux_bo_create c = { .size = size, .flags = flags };
	struct drm_vpux_bo_info info = { 0 };
	int ret;

	ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_CREATE, &c);
	if (ret)
		return ret;
	info.handle = c.handle;
	ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_INFO, &info);
	if (ret)
		return ret;
	bo->handle = c.handle;
	bo->addr = c.device_addr;
	bo->size = size;
	bo->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       info.mmap_offset);
	if (bo->map == MAP_FAILED) {
		bo->map = NULL;
		return -errno;
	}
	return 0;
}

static inline int job_wait(int fd, __u64 seqno, __s64 rel_ns,
			   struct drm_vpux_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->seqno = seqno;
	w->timeout_ns = rel_ns ? now_ns() + rel_ns : 0;
	return vpux_ioctl(fd, DRM_IOCTL_VPUX_WAIT, w);
}

/* A DMA op copying @len bytes from entry @src to entry @dst. */
static inline void dma_op(struct dla_dma_op *op, __u32 src, __u32 soff,
			  __u32 dst, __u32 doff, __u32 len)
{
	tb_copy(op, tb_ref(src, soff, len), tb_ref(dst, doff, len), len);
}

/* One-op copy a -> b of @len bytes at the task BO's @off. */
static inline size_t copy_task(struct bo *task, size_t off, __u32 len)
{
	struct tb t;

	tb_init(&t, task->map + off, 0, 1, 0, 0);
	dma_op(&t.dma[0], 1, 0, 2, 0, len);
	return t.size;
}

static inline void submit_args(struct drm_vpux_submit *s, struct bo *task,
			       size_t off, size_t size,
			       struct drm_vpux_buf *list, __u32 n)
{
	memset(s, 0, sizeof(*s));
	s->task = (struct drm_vpux_buf){ .handle = task->handle, .offset = off,
					 .size = size };
	s->buffers = (uintptr_t)list;
	s->buffer_count = n;
}

/* ---- uapi 1.5 ---- */

/* The driver's uapi minor (GET_PARAM), -errno on failure. */
/*
 * In a file of its own on the first device: copy @sz bytes of @fill from
 * one BO to another; 0 if the job completed and the data arrived.
 */
static inline int fresh_file_copy(size_t sz, unsigned char fill)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	struct bo t, a, b;
	struct drm_vpux_buf l[2];
	int fd = vpux_open_nth(0, NULL), ret = -1;

	if (fd < 0)
		return fd;
	if (bo_new(fd, 4096, 0, &t) || bo_new(fd, sz, 0, &a) ||
	    bo_new(fd, sz, 0, &b))
		goto out;
	memset(a.map, fill, sz);
	l[0] = (struct drm_vpux_buf){ .handle = a.handle, .size = sz };
	l[1] = (struct drm_vpux_buf){ .handle = b.handle, .size = sz };
	submit_args(&s, &t, 0, copy_task(&t, 0, sz), l, 2);
	if (vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s) ||
	    job_wait(fd, s.seqno, 60000000000ll, &w))
		goto out;
	ret = w.status == DRM_VPUX_STATUS_DONE && b.map[0] == fill &&
	      b.map[sz - 1] == fill ? 0 : 1;
out:
	close(fd);
	return ret;
}

static inline int uapi_minor(int fd)
{
	__u64 v;
	int ret = vpux_get_param(fd, DRM_VPUX_PARAM_UAPI_VERSION, &v);

	return ret ? ret : (int)(v & 0xffff);
}

static inline int queue_create(int fd, __u32 prio, __u32 *id)
{
	struct drm_vpux_queue_create c = { .priority = prio };
	int ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c);

	if (!ret && id)
		*id = c.queue_id;
	return ret;
}

static inline int queue_destroy(int fd, __u32 id)
{
	struct drm_vpux_queue_destroy d = { .queue_id = id };

	return vpux_ioctl(fd, DRM_IOCTL_VPUX_QUEUE_DESTROY, &d);
}

/* BO_WAIT on @handle, @rel_ns from now (0 polls) */
static inline int bo_wait15(int fd, __u32 handle, __s64 rel_ns,
			    struct drm_vpux_bo_wait *b)
{
	memset(b, 0, sizeof(*b));
	b->handle = handle;
	b->timeout_ns = rel_ns ? now_ns() + rel_ns : 0;
	return vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_WAIT, b);
}

/*
 * BO_WAIT on @handle, its result in the fields of a struct drm_vpux_wait
 * (@w->seqno: the last job of this file that used the BO)
 */
static inline int wait_bo(int fd, __u32 handle, __s64 rel_ns,
			  struct drm_vpux_wait *w)
{
	struct drm_vpux_bo_wait b;
	int ret = bo_wait15(fd, handle, rel_ns, &b);

	memset(w, 0, sizeof(*w));
	if (ret)
		return ret;
	w->seqno = b.seqno;
	w->status = b.status;
	w->sys_error = b.sys_error;
	w->core_error = b.core_error;
	w->fail_op = b.fail_op;
	w->fault_addr = b.fault_addr;
	w->device_cycles = b.device_cycles;
	w->op_cycles = b.op_cycles;
	w->error = b.error;
	return 0;
}

static inline int syncobj_new(int fd, __u32 *h)
{
	struct drm_syncobj_create c = { 0 };
	int ret = vpux_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	*h = c.handle;
	return ret;
}

/* Wait for @point of syncobj @h (0: binary) for @rel_ns; 0 or -ETIME */
static inline int syncobj_wait_point(int fd, __u32 h, __u64 point,
				     __s64 rel_ns)
{
	struct drm_syncobj_timeline_wait tw = {
		.handles = (uintptr_t)&h,
		.points = (uintptr_t)&point,
		.count_handles = 1,
		.timeout_nsec = now_ns() + rel_ns,
	};

	return vpux_ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw);
}

/*
 * A long job: @nops DMA ops in a chain (op i waits for op i - 1 through
 * barrier i - 1), each copying @rows rows of 4096 bytes from entry 1 to
 * entry 2 (both at least @rows * 4096 bytes), laid out at the task BO's
 * @off. Returns the task's size. The model runs one op at a time per
 * engine and the engine core starts the next op of the chain only once
 * the previous one completed, so another job's ops run in between.
 */
static inline size_t tb_bytes_chain(unsigned int nops)
{
	return tb_bytes(nops - 1, nops, 0, 0);
}

static inline size_t chain_task(void *mem, unsigned int nops, __u32 rows)
{
	struct tb t;
	unsigned int i;

	tb_init(&t, mem, nops - 1, nops, 0, 0);
	for (i = 0; i < nops; i++) {
		struct dla_dma_op *op = &t.dma[i];

		tb_copy(op, tb_ref(1, 0, rows * 4096), tb_ref(2, 0, rows * 4096),
			4096);
		op->count[0] = rows;
		op->src_stride[0] = op->dst_stride[0] = 4096;
		if (i)
			tb_wait(&t, &op->deps, i - 1);
		if (i < nops - 1)
			tb_update(&t, &op->deps, i);
	}
	return t.size;
}

#endif /* VPUX_JOB_UTIL_H */
