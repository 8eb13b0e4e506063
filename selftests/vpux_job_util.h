/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the vpux job tests: BOs, tasks built with the engine core's
 * task builder, SUBMIT/WAIT arguments, and the device's debugfs files.
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
	return bo->map == MAP_FAILED ? -errno : 0;
}

static inline __s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
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
	op->len = len;
	op->src = (struct dla_buf_ref){ .index = src, .offset = soff, .size = len };
	op->dst = (struct dla_buf_ref){ .index = dst, .offset = doff, .size = len };
	op->count[0] = op->count[1] = op->count[2] = 1;
}

/* The platform device of accel minor @minor: its name, e.g. vpux-sim.0 */
static inline int vpux_dev_name(int minor, char *name, size_t len)
{
	char link[96], dev[128];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", minor);
	n = readlink(link, dev, sizeof(dev) - 1);
	if (n < 0)
		return -errno;
	dev[n] = '\0';
	snprintf(name, len, "%s", strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev);
	return 0;
}

/* A number from a sysfs, debugfs or module parameter file, or -errno. */
static inline long file_read_long(const char *path)
{
	char buf[32] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strtol(buf, NULL, 0);
}

/* Write @val to such a file: 0 or -errno. */
static inline int file_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* debugfs of accel minor @minor is named after its device (vpux-sim.N) */
static inline int dbg_path(int minor, const char *name, char *path, size_t len)
{
	char dev[128];
	int ret = vpux_dev_name(minor, dev, sizeof(dev));

	if (ret)
		return ret;
	snprintf(path, len, "/sys/kernel/debug/accel/%s/%s", dev, name);
	return 0;
}

/* read a number / write a string */
static inline long dbg_read(int minor, const char *name)
{
	char path[200];

	if (dbg_path(minor, name, path, sizeof(path)))
		return -ENOENT;
	return file_read_long(path);
}

static inline int dbg_write(int minor, const char *name, const char *val)
{
	char path[200];

	if (dbg_path(minor, name, path, sizeof(path)))
		return -ENOENT;
	return file_write(path, val);
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
