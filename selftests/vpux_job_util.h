/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the vpux job tests: BOs, tasks built with the engine core's
 * task builder, SUBMIT/WAIT arguments (the device's files and the clock
 * are in vpux_common.h).
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
	s->priority = DRM_VPUX_PRIORITY_NORMAL;
}

#endif /* VPUX_JOB_UTIL_H */
