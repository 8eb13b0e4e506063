// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * ioctl backend: the kernel driver vpux_accel.ko through its DRM accel
 * node (/dev/accel/accelN, uapi/drm/vpux_accel.h, Documentation/uapi.rst).
 *
 * Buffers are GEM BOs (BO_CREATE, then BO_INFO for the mmap offset),
 * mapped into this process at allocation; the device address is the one
 * the kernel gave the BO in this file's address space. A job is one
 * SUBMIT (entry 0 of the address list is the task, the rest are the
 * buffers) identified by its seqno; WAIT gives its status and cycles.
 * The kernel keeps a file's last 256 results by seqno, and each BO's last
 * one: once a job's number is forgotten (other requests of the process
 * ran 256 jobs since), its result is read by WAIT on the BO only it used
 * (the request's scratch). What WAIT does not report (submit time, op
 * count) is kept in the request's job record.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "backend.h"
#include "dla_limits.h"
#include "dla_task_format.h"
#include "drm/vpux_accel.h"
#include "err.h"

#define IOB_DRIVER "vpux_accel"

/*
 * Parameters every 1.x kernel answers; later minors add more, which an
 * older kernel refuses with EINVAL and which then read as 0.
 */
#define IOB_PARAMS_1_0	14
/* the first minor with DRM_VPUX_WAIT_BO */
#define IOB_MINOR_WAIT_BO	3
/* the first minor with DRM_VPUX_SUBMIT_PROFILE */
#define IOB_MINOR_PROFILE	4

struct iob {
	int fd;
	unsigned int minor;	/* the kernel's uapi minor version */
	char path[64];
	uint64_t param[DRM_VPUX_PARAM_COUNT];
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int errno_to_vpux(int e)
{
	switch (e) {
	case ENOMEM:
	case ENOSPC:
		return VPUX_E_NOMEM;
	case EINVAL:
	case ENOENT:
	case EFAULT:
		return VPUX_E_INVAL;
	case EBUSY:
		return VPUX_E_BUSY;
	case ETIMEDOUT:
		return VPUX_E_TIMEOUT;
	case ENODEV:
		return VPUX_E_NODEV;
	default:
		return VPUX_E_DEVICE;
	}
}

static const char *status_name(uint32_t s)
{
	switch (s) {
	case DRM_VPUX_STATUS_DONE:
		return "DONE";
	case DRM_VPUX_STATUS_ERROR:
		return "ERROR";
	case DRM_VPUX_STATUS_MMU_FAULT:
		return "MMU_FAULT";
	case DRM_VPUX_STATUS_TIMEOUT:
		return "TIMEOUT";
	case DRM_VPUX_STATUS_ABORTED:
		return "ABORTED";
	default:
		return "unknown";
	}
}

/*
 * 0 if @fd is a vpux_accel node of a uapi major this library speaks (its
 * minor in *@minor), else a VPUX_E_* with the message set
 */
static int check_node(int fd, const char *path, unsigned int *minor)
{
	drmVersionPtr v = drmGetVersion(fd);
	int ok;

	if (!v)
		return vpux_err(VPUX_E_NODEV, "%s: not a DRM device (%s)",
				path, strerror(errno));
	ok = v->name && !strcmp(v->name, IOB_DRIVER);
	if (!ok) {
		vpux_err(VPUX_E_NODEV, "%s: driver \"%s\", not " IOB_DRIVER,
			 path, v->name ? v->name : "?");
		drmFreeVersion(v);
		return VPUX_E_NODEV;
	}
	if (v->version_major != DRM_VPUX_UAPI_VERSION_MAJOR) {
		vpux_err(VPUX_E_NODEV,
			 "%s: " IOB_DRIVER " uapi %d.%d, this libvpux speaks %d.x",
			 path, v->version_major, v->version_minor,
			 DRM_VPUX_UAPI_VERSION_MAJOR);
		drmFreeVersion(v);
		return VPUX_E_NODEV;
	}
	*minor = v->version_minor > 0 ? (unsigned int)v->version_minor : 0;
	drmFreeVersion(v);
	return 0;
}

static int open_node(const char *path, int *fdp, unsigned int *minor)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return vpux_err(VPUX_E_NODEV, "%s: %s%s", path, strerror(errno),
				errno == ENOENT ?
				" (is vpux_accel.ko loaded?)" : "");
	ret = check_node(fd, path, minor);
	if (ret) {
		close(fd);
		return ret;
	}
	*fdp = fd;
	return 0;
}

static int io_open(const char *path, void **priv)
{
	struct iob *p;
	unsigned int i, minor = 0;
	int fd = -1, ret;
	char node[64];

	if (path && !strcmp(path, "auto")) {
		/* the first vpux_accel node */
		for (i = 0; i < 64 && fd < 0; i++) {
			snprintf(node, sizeof(node), "/dev/accel/accel%u", i);
			if (access(node, F_OK))
				continue;
			if (open_node(node, &fd, &minor))
				fd = -1;
		}
		if (fd < 0)
			return vpux_err(VPUX_E_NODEV,
					"auto: no " IOB_DRIVER " node in /dev/accel (is vpux_accel.ko loaded?)");
	} else {
		snprintf(node, sizeof(node), "%s", path);
		ret = open_node(path, &fd, &minor);
		if (ret)
			return ret;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		close(fd);
		return vpux_err(VPUX_E_NOMEM, "ioctl: out of memory");
	}
	p->fd = fd;
	snprintf(p->path, sizeof(p->path), "%s", node);
	p->minor = minor;
	for (i = 0; i < DRM_VPUX_PARAM_COUNT; i++) {
		struct drm_vpux_get_param gp = { .param = i };

		if (drmIoctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp)) {
			if (errno == EINVAL && i >= IOB_PARAMS_1_0 &&
			    minor < DRM_VPUX_UAPI_VERSION_MINOR)
				continue;	/* newer than the kernel: 0 */
			ret = vpux_err(VPUX_E_NODEV, "%s: GET_PARAM %u: %s",
				       node, i, strerror(errno));
			close(fd);
			free(p);
			return ret;
		}
		p->param[i] = gp.value;
	}
	*priv = p;
	return 0;
}

static void io_close(void *priv)
{
	struct iob *p = priv;

	close(p->fd);
	free(p);
}

static int io_query(void *priv, struct vpux_device_info *info)
{
	struct iob *p = priv;
	uint64_t cap = p->param[DRM_VPUX_PARAM_CAPABILITIES];

	memset(info, 0, sizeof(*info));
	strcpy(info->backend, "ioctl");
	info->target = VPUX_TARGET_VPUX1;
	if (p->param[DRM_VPUX_PARAM_NUM_DMA_ENGINES])
		info->caps |= VPUX_NET_CAP_DMA;
	if ((cap & DRM_VPUX_CAP_DPU_INT8) &&
	    p->param[DRM_VPUX_PARAM_NUM_DPU_ENGINES])
		info->caps |= VPUX_NET_CAP_DPU;
	if ((cap & DRM_VPUX_CAP_SHAVE) &&
	    p->param[DRM_VPUX_PARAM_NUM_SHAVE_ENGINES])
		info->caps |= VPUX_NET_CAP_SHAVE;
	info->engines[0] = (uint32_t)p->param[DRM_VPUX_PARAM_NUM_DMA_ENGINES];
	info->engines[1] = (uint32_t)p->param[DRM_VPUX_PARAM_NUM_DPU_ENGINES];
	info->engines[2] = (uint32_t)p->param[DRM_VPUX_PARAM_NUM_SHAVE_ENGINES];
	info->max_ops = DLA_MAX_OPS_PER_TASK;
	info->max_barriers = DLA_MAX_BARRIERS;
	return 0;
}

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static int io_bo_alloc(void *priv, uint64_t size, unsigned int flags,
		       struct vpux_bo *bo)
{
	struct iob *p = priv;
	struct drm_vpux_bo_create c = {
		.size = size ? size : 1,
		.flags = flags & VPUX_BE_BO_READONLY ?
			 DRM_VPUX_BO_DEVICE_READONLY : 0,
	};
	struct drm_vpux_bo_info i = { 0 };
	void *cpu;
	int e;

	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_BO_CREATE, &c)) {
		e = errno;
		return vpux_err(errno_to_vpux(e), "%s: BO_CREATE of %llu bytes: %s",
				p->path, (unsigned long long)size, strerror(e));
	}
	i.handle = c.handle;
	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_BO_INFO, &i)) {
		e = errno;
		gem_close(p->fd, c.handle);
		return vpux_err(errno_to_vpux(e), "%s: BO_INFO: %s", p->path,
				strerror(e));
	}
	cpu = mmap(NULL, i.size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
		   (off_t)i.mmap_offset);
	if (cpu == MAP_FAILED) {
		e = errno;
		gem_close(p->fd, c.handle);
		return vpux_err(VPUX_E_NOMEM, "%s: mmap of a %llu-byte BO: %s",
				p->path, (unsigned long long)i.size,
				strerror(e));
	}
	bo->va = i.device_addr;
	bo->size = i.size;
	bo->cpu = cpu;
	bo->handle = c.handle;
	return 0;
}

static void io_bo_free(void *priv, struct vpux_bo *bo)
{
	struct iob *p = priv;

	if (bo->cpu)
		munmap(bo->cpu, bo->size);
	gem_close(p->fd, (uint32_t)bo->handle);
	bo->cpu = NULL;
}

static void *io_bo_map(void *priv, struct vpux_bo *bo)
{
	(void)priv;
	return bo->cpu;
}

static uint32_t task_ops(const struct vpux_be_entry *task)
{
	const struct dla_task_desc *d;
	uint32_t n = 0;
	unsigned int k;

	if (!task->bo->cpu || task->size < sizeof(*d))
		return 0;
	d = (const void *)((const char *)task->bo->cpu + task->offset);
	if (d->magic != DLA_TASK_MAGIC)
		return 0;
	for (k = 0; k < DLA_OP_KINDS; k++)
		n += d->ops[k].count;
	return n;
}

/* A profile BO (struct drm_vpux_profile) for @ops ops, mapped */
static int io_profile_alloc(void *priv, uint32_t ops, struct vpux_bo *bo)
{
	struct iob *p = priv;
	int ret;

	if (p->minor < IOB_MINOR_PROFILE)
		return VPUX_E_UNSUPPORTED;	/* not an error: no message */
	ret = io_bo_alloc(priv, sizeof(struct drm_vpux_profile) +
			  (uint64_t)ops * sizeof(uint32_t), 0, bo);
	if (ret)
		return ret;
	if (!io_bo_map(priv, bo)) {
		io_bo_free(priv, bo);
		return VPUX_E_NOMEM;
	}
	return 0;
}

static int io_submit(void *priv, const struct vpux_be_entry *list,
		     unsigned int n, unsigned int prio, int own,
		     const struct vpux_bo *prof, struct vpux_be_job *job)
{
	struct drm_vpux_buf bufs[DRM_VPUX_MAX_ADDR_ENTRIES - 1];
	struct drm_vpux_submit s;
	struct iob *p = priv;
	unsigned int i;
	int64_t t0;
	int e;

	if (!n || n > DRM_VPUX_MAX_ADDR_ENTRIES)
		return vpux_err(VPUX_E_INVAL, "ioctl: %u address-list entries (1..%u)",
				n, DRM_VPUX_MAX_ADDR_ENTRIES);
	memset(&s, 0, sizeof(s));
	memset(bufs, 0, sizeof(bufs));
	s.task.handle = (uint32_t)list[0].bo->handle;
	s.task.offset = list[0].offset;
	s.task.size = list[0].size;
	for (i = 1; i < n; i++) {
		bufs[i - 1].handle = (uint32_t)list[i].bo->handle;
		bufs[i - 1].offset = list[i].offset;
		bufs[i - 1].size = list[i].size;
	}
	s.buffers = (uintptr_t)bufs;
	s.buffer_count = n - 1;
	/* the library's 0..3 are the kernel's LOW..REALTIME */
	s.priority = prio > DRM_VPUX_PRIORITY_REALTIME ?
		     DRM_VPUX_PRIORITY_REALTIME : prio;
	if (prof) {
		s.flags = DRM_VPUX_SUBMIT_PROFILE;
		s.profile.handle = (uint32_t)prof->handle;
		s.profile.size = prof->size;
	}
	t0 = now_ns();
	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_SUBMIT, &s)) {
		e = errno;
		if (e == EBADFD)
			return vpux_err(VPUX_E_DEVICE,
					"%s: SUBMIT: this file is banned after a hung or faulting job; reopen the device",
					p->path);
		return vpux_err(errno_to_vpux(e), "%s: SUBMIT: %s", p->path,
				strerror(e));
	}
	memset(job, 0, sizeof(*job));
	job->id = s.seqno;
	job->own = own > 0 && (unsigned int)own < n ? list[own].bo->handle : 0;
	job->submit_ns = t0;
	job->ops_total = task_ops(&list[0]);
	job->prof = prof;
	return 0;
}

/*
 * WAIT until @abs_ns (0 polls); 0 with *@w filled, or a negative errno.
 * A job number the kernel no longer holds (256 newer jobs of this file)
 * finished long ago: its result is its own BO's last one.
 */
static int do_wait(struct iob *p, struct vpux_be_job *job, int64_t abs_ns,
		   struct drm_vpux_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->seqno = job->id;
	w->timeout_ns = abs_ns;
	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_WAIT, w)) {
		if (errno != ENOENT || !job->own ||
		    p->minor < IOB_MINOR_WAIT_BO)
			return -errno;
		memset(w, 0, sizeof(*w));
		w->seqno = job->own;
		w->flags = DRM_VPUX_WAIT_BO;
		w->timeout_ns = abs_ns;
		if (drmIoctl(p->fd, DRM_IOCTL_VPUX_WAIT, w))
			return -errno;
	}
	if (!job->done_ns)
		job->done_ns = now_ns();
	return 0;
}

/* A job the kernel forgot, on a kernel without WAIT on a BO */
static int forgotten(struct iob *p, const struct vpux_be_job *job)
{
	return vpux_err(VPUX_E_STATE,
			"%s: job %llu is older than the last 256 jobs the kernel keeps, and " IOB_DRIVER " uapi 1.%u has no WAIT on a BO (1.%d has)",
			p->path, (unsigned long long)job->id, p->minor,
			IOB_MINOR_WAIT_BO);
}

static int io_wait(void *priv, struct vpux_be_job *job, int timeout_ms)
{
	struct iob *p = priv;
	struct drm_vpux_wait w;
	int64_t abs_ns = timeout_ms < 0 ? INT64_MAX :
			 now_ns() + (int64_t)timeout_ms * 1000000;
	int r;

	r = do_wait(p, job, timeout_ms == 0 ? 0 : abs_ns, &w);
	if (r == -ETIMEDOUT)
		return vpux_err(VPUX_E_TIMEOUT, "%s: job %llu not done in %d ms",
				p->path, (unsigned long long)job->id, timeout_ms);
	if (r == -ENOENT && p->minor < IOB_MINOR_WAIT_BO)
		return forgotten(p, job);
	if (r)
		return vpux_err(errno_to_vpux(-r), "%s: WAIT for job %llu: %s",
				p->path, (unsigned long long)job->id,
				strerror(-r));
	if (w.status == DRM_VPUX_STATUS_DONE)
		return 0;
	if (w.status == DRM_VPUX_STATUS_MMU_FAULT)
		return vpux_err(VPUX_E_DEVICE,
				"%s: job %llu: kernel status MMU_FAULT at device address 0x%llx (engine kind %u op %u, engine-core error %d); the file is banned",
				p->path, (unsigned long long)job->id,
				(unsigned long long)w.fault_addr,
				w.fail_op >> 24, w.fail_op & 0xffffff, w.error);
	return vpux_err(VPUX_E_DEVICE,
			"%s: job %llu: kernel status %s, engine-core error %d (engine kind %u op %u)",
			p->path, (unsigned long long)job->id, status_name(w.status),
			w.error, w.fail_op >> 24, w.fail_op & 0xffffff);
}

static int io_status(void *priv, struct vpux_be_job *job,
		     struct vpux_request_status *st)
{
	struct iob *p = priv;
	struct drm_vpux_wait w;
	int r = do_wait(p, job, 0, &w);

	memset(st, 0, sizeof(*st));
	st->ops_total = job->ops_total;
	if (r == -ETIMEDOUT) {
		st->state = VPUX_REQ_RUNNING;
		return 0;
	}
	if (r == -ENOENT && p->minor < IOB_MINOR_WAIT_BO)
		return forgotten(p, job);
	if (r)
		return vpux_err(errno_to_vpux(-r), "%s: status of job %llu: %s",
				p->path, (unsigned long long)job->id,
				strerror(-r));
	st->state = w.status == DRM_VPUX_STATUS_DONE ? VPUX_REQ_DONE :
		    VPUX_REQ_FAILED;
	st->error = w.error;
	if (w.status != DRM_VPUX_STATUS_DONE) {
		st->fail_kind = w.fail_op >> 24;
		st->fail_index = w.fail_op & 0xffffff;
		if (!st->error)
			st->error = -1;	/* a failure always has a code */
	} else {
		st->ops_done = job->ops_total;
	}
	st->fault_addr = w.fault_addr;
	st->op_cycles = w.op_cycles;
	st->device_cycles = w.device_cycles;
	if (job->done_ns)
		st->time_us = (job->done_ns - job->submit_ns) / 1000;
	return 0;
}

/*
 * An op's cycles from the job's profile, which the kernel writes when the
 * job leaves the engine core: 0 until then, as for an op that did not
 * complete.
 */
static int io_op_cycles(void *priv, const struct vpux_be_job *job,
			unsigned int kind, unsigned int index, uint32_t *cycles)
{
	const volatile struct drm_vpux_profile *pr;
	struct iob *p = priv;
	uint32_t at = index, k;

	if (!job->prof)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: per-op cycles: " IOB_DRIVER " uapi 1.%u has no job profiles (1.%d has)",
				p->path, p->minor, IOB_MINOR_PROFILE);
	pr = job->prof->cpu;
	*cycles = 0;
	if (kind >= DLA_OP_KINDS || index >= pr->op_count[kind])
		return 0;
	for (k = 0; k < kind; k++)
		at += pr->op_count[k];
	if (at < pr->entries &&
	    sizeof(*pr) + (at + 1) * sizeof(uint32_t) <= job->prof->size)
		*cycles = pr->op_cycles[at];
	return 0;
}

static void io_release(void *priv, struct vpux_be_job *job)
{
	/* the kernel forgets a job after 256 newer ones, a BO with the BO */
	(void)priv;
	(void)job;
}

const struct vpux_backend_ops vpux_backend_ioctl = {
	.name = "ioctl",
	.open = io_open,
	.close = io_close,
	.query = io_query,
	.bo_alloc = io_bo_alloc,
	.bo_free = io_bo_free,
	.bo_map = io_bo_map,
	.submit = io_submit,
	.wait = io_wait,
	.status = io_status,
	.op_cycles = io_op_cycles,
	.profile_alloc = io_profile_alloc,
	.release = io_release,
};
