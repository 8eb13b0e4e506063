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
 * ran 256 jobs since), its result is read from the BO only it used (the
 * request's scratch) with BO_WAIT. What WAIT does not report (submit
 * time, op count) is kept in the request's job record.
 *
 * The kernel must speak uapi 2.x (DRM_VPUX_UAPI_VERSION_MAJOR); any other
 * major is refused at open with a message naming both.
 *
 * Queues: a queue runs one job at a time, and a job has its queue's
 * priority, so one queue would serialise every request. The backend
 * creates queues lazily, a pool of up to IOB_QUEUES per priority, and
 * gives each SUBMIT the queue with the fewest of this library's jobs not
 * yet seen finished (a new one while the pool has room and every queue
 * has one): one request resubmitted after each wait stays on one queue,
 * 16 requests in flight get 16 queues and overlap on the NPU. A request
 * is one job, submitted again only once the previous one finished, so no
 * request's jobs need a queue's order; requests that share a buffer are
 * ordered by its implicit fences, which hold across queues. The jobs of
 * networks with CMX tensors are the exception: each joins the queue of
 * the last job on its tiles while that one has not ended
 * (io_submit_ordered()), so a tile set's jobs run in order and other
 * tile sets' at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>

#include <xf86drm.h>

#include "backend.h"
#include "dla_err.h"
#include "dla_limits.h"
#include <drm/vpux_task.h>
#include "drm/vpux_accel.h"
#include "err.h"

#define IOB_DRIVER "vpux_accel"

/* the parameters of uapi 2.0, every one of which a 2.x kernel answers */
#define IOB_PARAMS	(DRM_VPUX_PARAM_FW_MODE + 1)
/* address-list entries this library passes at most (with the task) */
#define IOB_MAX_ADDR	DLA_MAX_ADDR_ENTRIES
/* queues per priority: 16 requests in flight on 16 queues */
#define IOB_QUEUES		16u
#define IOB_PRIOS		(DRM_VPUX_PRIORITY_REALTIME + 1)
/* out-syncobjs of finished jobs kept for the next SUBMITs (API 1.8) */
#define IOB_SYNC_POOL		32u

/*
 * A GEM handle exported or imported through this file: a dma-buf of one
 * of the file's own BOs imports as the same handle, so it is closed only
 * when its last buffer goes (API 1.8)
 */
struct iob_shared {
	uint32_t handle;
	unsigned int refs;
};

struct iob_queue {
	uint32_t id;		/* the kernel's queue id */
	unsigned int busy;	/* jobs submitted, not yet seen finished */
};

struct iob {
	int fd;
	unsigned int minor;	/* the kernel's uapi minor version */
	char path[64];
	uint64_t param[IOB_PARAMS];
	pthread_mutex_t qlock;	/* the queue pools */
	struct iob_queue q[IOB_PRIOS][IOB_QUEUES];
	unsigned int nq[IOB_PRIOS];
	unsigned int max_q;	/* queues per priority this file may create */
	int no_more_q;		/* QUEUE_CREATE failed: use what there is */
	/* under qlock: the syncobj pool and the shared handles (API 1.8) */
	uint32_t sync_pool[IOB_SYNC_POOL];
	unsigned int n_sync;
	struct iob_shared *shared;
	unsigned int n_shared, cap_shared;
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
	case EPERM:
	case EACCES:
		return VPUX_E_PERM;
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

static const char *const prio_names[IOB_PRIOS] = {
	"LOW", "NORMAL", "HIGH", "REALTIME",
};

/* the engine core's codes (dla_err.h), the detail: name and meaning */
static const struct {
	uint32_t code;
	const char *name, *what;
} core_errors[] = {
	{ DLA_ERR_INVAL, "INVAL", "bad argument to a core call" },
	{ DLA_ERR_BUSY, "BUSY", "no free task slot" },
	{ DLA_ERR_NODEV, "NODEV", "hardware identity or engines wrong" },
	{ DLA_ERR_NOENT, "NOENT", "task slot not in use" },
	{ DLA_ERR_PORT, "PORT", "reading the task memory failed" },
	{ DLA_ERR_RUNNING, "RUNNING", "task still running" },
	{ DLA_ERR_ADDR_INDEX, "ADDR_INDEX", "address-list index outside the list" },
	{ DLA_ERR_BAD_MAGIC, "BAD_MAGIC", "task descriptor magic wrong" },
	{ DLA_ERR_BAD_VERSION, "BAD_VERSION", "task format version not supported" },
	{ DLA_ERR_HEADER_SIZE, "HEADER_SIZE", "header size field or entry 0 too small" },
	{ DLA_ERR_RESERVED, "RESERVED", "reserved field or flag not zero" },
	{ DLA_ERR_TOO_MANY_OPS, "TOO_MANY_OPS", "op counts above the limits" },
	{ DLA_ERR_TOO_MANY_BARRIERS, "TOO_MANY_BARRIERS", "barrier count above the limit" },
	{ DLA_ERR_TOO_MANY_DEPS, "TOO_MANY_DEPS", "wait or update edges above the limit" },
	{ DLA_ERR_TABLE_RANGE, "TABLE_RANGE", "op list or barrier table outside entry 0" },
	{ DLA_ERR_OVERFLOW, "OVERFLOW", "integer overflow in a size computation" },
	{ DLA_ERR_EMPTY, "EMPTY", "task without ops" },
	{ DLA_ERR_LIST_LEN, "LIST_LEN", "wait/update list longer than allowed" },
	{ DLA_ERR_BARRIER_ID, "BARRIER_ID", "barrier id >= number of barriers" },
	{ DLA_ERR_DUP_BARRIER, "DUP_BARRIER", "same barrier twice in one list" },
	{ DLA_ERR_PRODUCER_COUNT, "PRODUCER_COUNT", "producer count != ops updating it" },
	{ DLA_ERR_CONSUMER_COUNT, "CONSUMER_COUNT", "consumer count != ops waiting on it" },
	{ DLA_ERR_CYCLE, "CYCLE", "the wait graph has a cycle" },
	{ DLA_ERR_BUF_RANGE, "BUF_RANGE", "offset + size outside its buffer" },
	{ DLA_ERR_CMX_RANGE, "CMX_RANGE", "CMX tile or range outside CMX" },
	{ DLA_ERR_EXTENT, "EXTENT", "tensor extent larger than its reference" },
	{ DLA_ERR_SHAPE, "SHAPE", "inconsistent or zero shape field" },
	{ DLA_ERR_DPU_OP, "DPU_OP", "unknown DPU operation" },
	{ DLA_ERR_FLAGS, "FLAGS", "unknown flag" },
	{ DLA_ERR_ARGS_SIZE, "ARGS_SIZE", "SHAVE argument size 0 or too large" },
	{ DLA_ERR_WINDOW, "WINDOW", "SHAVE window too large" },
	{ DLA_ERR_MISSING_REF, "MISSING_REF", "required buffer reference is empty" },
	{ DLA_ERR_UNUSED_REF, "UNUSED_REF", "unused buffer reference is not all zero" },
	{ DLA_ERR_CTX, "CTX", "MMU context slot out of range" },
	{ DLA_ERR_PRIORITY, "PRIORITY", "priority out of range" },
	{ DLA_ERR_QUANT, "QUANT", "DPU zero point, requant record or clamp range invalid" },
	{ DLA_ERR_READONLY, "READONLY", "an op writes a read-only buffer" },
	{ DLA_ERR_CMX_WINDOW, "CMX_WINDOW", "CMX tile outside the task's tile window" },
	{ DLA_ERR_ENGINE, "ENGINE", "an engine reported an error" },
	{ DLA_ERR_MMU_FAULT, "MMU_FAULT", "an op raised an MMU fault" },
	{ DLA_ERR_ABORTED, "ABORTED", "the task was aborted (hang, teardown)" },
	{ DLA_ERR_CHANGED, "CHANGED", "the task memory changed while it was read" },
};

/* "core error TOO_MANY_OPS (105: op counts above the limits)" into @buf */
static const char *core_error_str(uint32_t code, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(core_errors) / sizeof(core_errors[0]); i++)
		if (core_errors[i].code == code) {
			snprintf(buf, len, "engine-core error %s (%u: %s)",
				 core_errors[i].name, code, core_errors[i].what);
			return buf;
		}
	snprintf(buf, len, "engine-core error %u", code);
	return buf;
}

/* Why the kernel failed or dropped a job, from sys_error (-errno) */
static const char *sys_error_what(int32_t e)
{
	switch (-e) {
	case ETIMEDOUT:
		return "the job hung and was aborted";
	case EBADFD:
		return "the file was banned after a hung or faulting job";
	case ECANCELED:
		return "a dependency failed or the file was closed";
	case ENODEV:
		return "the device is gone";
	case ENOMEM:
		return "the kernel ran out of memory";
	default:
		return "";
	}
}

/*
 * A job's result: *@sys (0 or -errno) and *@core (0 or the engine core's
 * code, dla_err.h)
 */
static void split_error(const struct iob *p, const struct drm_vpux_wait *w,
			int32_t *sys, uint32_t *core)
{
	(void)p;
	*sys = w->sys_error;
	*core = w->core_error;
}

/*
 * A finished job's failure category (DLA_ERRC_* = DRM_VPUX_ERR_*): the
 * kernel's, from uapi 2.1 on; a 2.0 kernel's result mapped as 2.1's
 * vpux_result_error() does
 */
static uint32_t error_category(const struct iob *p,
			       const struct drm_vpux_wait *w)
{
	if (p->minor >= 1)
		return w->error;
	switch (w->status) {
	case DRM_VPUX_STATUS_DONE:
		return DLA_ERRC_NONE;
	case DRM_VPUX_STATUS_MMU_FAULT:
		return DLA_ERRC_FAULT;
	case DRM_VPUX_STATUS_TIMEOUT:
		return DLA_ERRC_HANG;
	case DRM_VPUX_STATUS_ABORTED:
		return w->sys_error == -ENODEV || w->sys_error == -EIO ?
		       DLA_ERRC_DEVICE : DLA_ERRC_ABORTED;
	}
	return w->core_error ? dla_err_category((int)w->core_error) :
	       DLA_ERRC_DEVICE;
}

/* What went wrong with a job, for a message: "ETIMEDOUT (...), ..." */
static const char *result_str(const struct iob *p,
			      const struct drm_vpux_wait *w, char *buf,
			      size_t len)
{
	char core[128];
	int32_t sys;
	uint32_t ce;
	size_t n = 0;

	split_error(p, w, &sys, &ce);
	buf[0] = '\0';
	if (sys) {
		const char *what = sys_error_what(sys);

		n = (size_t)snprintf(buf, len, "%s%s%s%s", strerror(-sys),
				     *what ? " (" : "", what, *what ? ")" : "");
	}
	if (ce && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				      core_error_str(ce, core, sizeof(core)));
	if (!sys && !ce && n < len)
		snprintf(buf + n, len - n, "no error code");
	return buf;
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
	for (i = 0; i < IOB_PARAMS; i++) {
		struct drm_vpux_get_param gp = { .param = i };

		if (i == DRM_VPUX_PARAM_CYCLES)
			continue;	/* a reading, not a fact: io_cycles() */
		if (drmIoctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp)) {
			ret = vpux_err(VPUX_E_NODEV, "%s: GET_PARAM %u: %s",
				       node, i, strerror(errno));
			close(fd);
			free(p);
			return ret;
		}
		p->param[i] = gp.value;
	}
	pthread_mutex_init(&p->qlock, NULL);
	/* share the file's queues out evenly between the priorities */
	p->max_q = (unsigned int)(p->param[DRM_VPUX_PARAM_MAX_QUEUES] /
				  IOB_PRIOS);
	if (p->max_q > IOB_QUEUES)
		p->max_q = IOB_QUEUES;
	*priv = p;
	return 0;
}

static int io_cycles(void *priv, uint64_t *cycles)
{
	struct drm_vpux_get_param gp = { .param = DRM_VPUX_PARAM_CYCLES };
	struct iob *p = priv;
	int e;

	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_GET_PARAM, &gp)) {
		e = errno;
		if (e == EINVAL)
			return vpux_err(VPUX_E_UNSUPPORTED,
					"%s: the kernel's uapi 1.%u has no DRM_VPUX_PARAM_CYCLES: no device cycle counter",
					p->path, p->minor);
		return vpux_err(errno_to_vpux(e), "%s: GET_PARAM CYCLES: %s",
				p->path, strerror(e));
	}
	*cycles = gp.value;
	return 0;
}

/* the file's queues go with it */
static void io_close(void *priv)
{
	struct iob *p = priv;

	while (p->n_sync)
		drmSyncobjDestroy(p->fd, p->sync_pool[--p->n_sync]);
	free(p->shared);
	close(p->fd);
	pthread_mutex_destroy(&p->qlock);
	free(p);
}

/* A limit GET_PARAM reported */
static uint32_t limit(const struct iob *p, unsigned int param)
{
	uint64_t v = p->param[param];

	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void io_limits(void *priv, struct vpux_be_limits *lim)
{
	struct iob *p = priv;

	lim->max_ops = limit(p, DRM_VPUX_PARAM_MAX_OPS_PER_TASK);
	lim->max_barriers = limit(p, DRM_VPUX_PARAM_MAX_BARRIERS);
	lim->max_deps = limit(p, DRM_VPUX_PARAM_MAX_DEPS_PER_TASK);
	lim->max_addr_entries = limit(p, DRM_VPUX_PARAM_MAX_ADDR_ENTRIES);
	if (lim->max_addr_entries > IOB_MAX_ADDR)
		lim->max_addr_entries = IOB_MAX_ADDR;
	/* the symbol buffer is one more SUBMIT buffer */
	lim->plans = !!(p->param[DRM_VPUX_PARAM_CAPABILITIES] &
			DRM_VPUX_CAP_PLANS);
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
	/* what the kernel accepts, not what the engine core could take */
	info->max_ops = limit(p, DRM_VPUX_PARAM_MAX_OPS_PER_TASK);
	info->max_barriers = limit(p, DRM_VPUX_PARAM_MAX_BARRIERS);
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
		.flags = (flags & VPUX_BE_BO_READONLY ?
			  DRM_VPUX_BO_DEVICE_READONLY : 0) |
			 (flags & VPUX_BE_BO_CACHED ? DRM_VPUX_BO_CACHED : 0) |
			 (flags & VPUX_BE_BO_WC ? DRM_VPUX_BO_WC : 0),
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
	bo->flags = flags;
	bo->size = i.size;
	bo->cpu = cpu;
	bo->handle = c.handle;
	return 0;
}

/* The entry of @handle in the shared table, or NULL; under qlock */
static struct iob_shared *shared_find(struct iob *p, uint32_t handle)
{
	unsigned int i;

	for (i = 0; i < p->n_shared; i++)
		if (p->shared[i].handle == handle)
			return &p->shared[i];
	return NULL;
}

/*
 * @handle is held by one more buffer (@fresh: a handle BO_CREATE or an
 * import gave, held by one buffer so far unless the table knows it)
 */
static int shared_get(struct iob *p, uint32_t handle, int fresh)
{
	struct iob_shared *sh;
	int ret = 0;

	pthread_mutex_lock(&p->qlock);
	sh = shared_find(p, handle);
	if (sh) {
		if (fresh)
			sh->refs++;
	} else {
		if (p->n_shared == p->cap_shared) {
			unsigned int cap = p->cap_shared ? 2 * p->cap_shared : 8;
			struct iob_shared *n = realloc(p->shared,
						       cap * sizeof(*n));

			if (!n) {
				ret = VPUX_E_NOMEM;
				goto out;
			}
			p->shared = n;
			p->cap_shared = cap;
		}
		p->shared[p->n_shared++] = (struct iob_shared){ handle, 1 };
	}
out:
	pthread_mutex_unlock(&p->qlock);
	return ret;
}

/* one buffer fewer holds @handle: 1 if it is to be closed */
static int shared_put(struct iob *p, uint32_t handle)
{
	struct iob_shared *sh;
	int last = 1;

	pthread_mutex_lock(&p->qlock);
	sh = shared_find(p, handle);
	if (sh && --sh->refs) {
		last = 0;
	} else if (sh) {
		*sh = p->shared[--p->n_shared];
	}
	pthread_mutex_unlock(&p->qlock);
	return last;
}

static void io_bo_free(void *priv, struct vpux_bo *bo)
{
	struct iob *p = priv;

	if (bo->cpu)
		munmap(bo->cpu, bo->size);
	if (shared_put(p, (uint32_t)bo->handle))
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
	int ret;

	ret = io_bo_alloc(priv, DRM_VPUX_PROFILE_TIMES_SIZE(ops), 0, bo);
	if (ret)
		return ret;
	if (!io_bo_map(priv, bo)) {
		io_bo_free(priv, bo);
		return VPUX_E_NOMEM;
	}
	return 0;
}

/*
 * The queue of @prio for the next job, counted busy in *@job: the pool's
 * first queue with none of this library's jobs unfinished, else a new
 * one while the pool has room, else the least busy. 0 with *@job's queue
 * set (queue_id 0, the default queue of priority NORMAL, once
 * QUEUE_CREATE failed and no queue exists), or VPUX_E_PERM with the
 * message set when the kernel refuses @prio to this process.
 */
static int queue_get(struct iob *p, unsigned int prio, struct vpux_be_job *job)
{
	struct iob_queue *q = p->q[prio];
	unsigned int i, best = 0, n;
	int ret = 0, e;

	job->queue_id = 0;
	job->queued = 0;
	if (!p->max_q)
		return 0;
	pthread_mutex_lock(&p->qlock);
	n = p->nq[prio];
	for (i = 0; i < n; i++) {
		if (!q[i].busy)
			break;
		if (q[i].busy < q[best].busy)
			best = i;
	}
	if (i == n && n < p->max_q && !p->no_more_q) {
		struct drm_vpux_queue_create c = { .priority = prio };

		if (!drmIoctl(p->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c)) {
			q[n].id = c.queue_id;
			q[n].busy = 0;
			p->nq[prio] = ++n;
		} else if ((e = errno) == EPERM) {
			ret = vpux_err(VPUX_E_PERM,
				       "%s: priority %s needs CAP_SYS_NICE (the kernel refuses QUEUE_CREATE with EPERM); use LOW or NORMAL, or give the process CAP_SYS_NICE",
				       p->path, prio_names[prio]);
			goto out;
		} else {
			/* no more queues for this file (ENOSPC, ENOMEM) */
			p->no_more_q = 1;
			i = n ? best : 0;
		}
	} else if (i == n) {
		i = best;
	}
	if (i < n) {
		q[i].busy++;
		job->queue_id = q[i].id;
		job->qprio = (uint16_t)prio;
		job->qidx = (uint16_t)i;
		job->queued = 1;
	}
out:
	pthread_mutex_unlock(&p->qlock);
	return ret;
}

/*
 * *@job goes to the queue of @after (of the same priority), counted busy
 * there if that is one of the pool's: the kernel starts it once @after
 * and every job queued before it have left the NPU
 */
static void queue_join(struct iob *p, const struct vpux_be_job *after,
		       struct vpux_be_job *job)
{
	job->queue_id = after->queue_id;
	job->queued = 0;
	if (!after->queue_id)
		return;		/* the default queue: in no pool */
	pthread_mutex_lock(&p->qlock);
	p->q[after->qprio][after->qidx].busy++;
	job->qidx = after->qidx;
	job->queued = 1;
	pthread_mutex_unlock(&p->qlock);
}

/*
 * Has @after (a record of an earlier job of this file) ended? A WAIT
 * that does not wait; a seqno the kernel no longer keeps is of a job
 * that ended (SUBMIT reuses a ring slot only once its job is done).
 */
static int job_ended(struct iob *p, const struct vpux_be_job *after)
{
	struct drm_vpux_wait w = { .seqno = after->id };

	return !drmIoctl(p->fd, DRM_IOCTL_VPUX_WAIT, &w) || errno == ENOENT;
}

/* @job is finished, or forgotten: its queue has one busy job fewer */
static void queue_put(struct iob *p, struct vpux_be_job *job)
{
	if (!job->queued)
		return;
	pthread_mutex_lock(&p->qlock);
	if (p->q[job->qprio][job->qidx].busy)
		p->q[job->qprio][job->qidx].busy--;
	job->queued = 0;
	pthread_mutex_unlock(&p->qlock);
}

/*
 * The job's out-syncobj is done with: back to the pool (a later SUBMIT
 * replaces its fence; a sync_file exported from it holds the fence of
 * its own), or destroyed
 */
static void sync_put(struct iob *p, struct vpux_be_job *job)
{
	if (!job->syncobj)
		return;
	if (job->pooled) {
		pthread_mutex_lock(&p->qlock);
		if (p->n_sync < IOB_SYNC_POOL) {
			p->sync_pool[p->n_sync++] = job->syncobj;
			job->syncobj = 0;
		}
		pthread_mutex_unlock(&p->qlock);
	}
	if (job->syncobj)
		drmSyncobjDestroy(p->fd, job->syncobj);
	job->syncobj = 0;
	job->pooled = 0;
}

/* the library's priorities 0..3 are the kernel's LOW..REALTIME: a queue's */
static unsigned int kernel_prio(unsigned int prio)
{
	return prio > DRM_VPUX_PRIORITY_REALTIME ?
	       DRM_VPUX_PRIORITY_REALTIME : prio;
}

/*
 * SUBMIT; with @chain, the job waits for the in-syncobj of @after (if
 * any) and signals a new syncobj of its own (job->syncobj), which
 * io_release() destroys; with @ordered, it goes to the queue of @after
 * (of the same priority), or with @after NULL to the pool's next queue
 * (io_submit_ordered())
 */
static int submit_job(void *priv, const struct vpux_be_entry *list,
		      unsigned int n, unsigned int prio, int own,
		      const struct vpux_bo *prof, int chain, int ordered,
		      const struct vpux_be_job *after, struct vpux_be_job *job)
{
	struct drm_vpux_buf bufs[IOB_MAX_ADDR - 1];
	struct drm_vpux_syncobj in = { 0 };
	struct drm_vpux_submit s;
	struct vpux_be_limits lim;
	struct vpux_be_job j;
	struct iob *p = priv;
	unsigned int i, kprio;
	int64_t t0;
	int e, ret;

	io_limits(p, &lim);
	if (!n || n > lim.max_addr_entries)
		return vpux_err(VPUX_E_INVAL, "ioctl: %u address-list entries (1..%u)",
				n, lim.max_addr_entries);
	memset(&s, 0, sizeof(s));
	memset(bufs, 0, sizeof(bufs));
	memset(&j, 0, sizeof(j));
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
	kprio = kernel_prio(prio);
	if (prof) {
		s.flags = DRM_VPUX_SUBMIT_PROFILE |
			  DRM_VPUX_SUBMIT_PROFILE_TIMES;
		s.profile.handle = (uint32_t)prof->handle;
		s.profile.size = prof->size;
	}
	if (!chain) {
		/*
		 * every job signals an out-syncobj of its own, taken from a
		 * pool of those of released jobs, so that its fence can be
		 * exported as a sync_file (vpux_request_poll_fd(), API 1.8)
		 */
		pthread_mutex_lock(&p->qlock);
		if (p->n_sync)
			j.syncobj = p->sync_pool[--p->n_sync];
		pthread_mutex_unlock(&p->qlock);
		if (!j.syncobj && drmSyncobjCreate(p->fd, 0, &j.syncobj))
			j.syncobj = 0;	/* no poll fd for this job */
		j.pooled = !!j.syncobj;
		s.out_syncobj = j.syncobj;
	}
	if (chain) {
		if (drmSyncobjCreate(p->fd, 0, &j.syncobj)) {
			e = errno;
			return vpux_err(errno_to_vpux(e), "%s: SYNCOBJ_CREATE: %s",
					p->path, strerror(e));
		}
		s.out_syncobj = j.syncobj;
		if (after && after->syncobj) {
			in.handle = after->syncobj;
			s.in_syncobjs = (uintptr_t)&in;
			s.in_syncobj_count = 1;
		}
	}
	if (ordered && after && !job_ended(p, after)) {
		/*
		 * @after's queue: the kernel starts this job once it ended.
		 * Once it has, nothing orders this one: a queue of its own
		 * like any job, or the first jobs of every tile set, all
		 * on one idle queue then, would keep the sets in one line.
		 */
		queue_join(p, after, &j);
		ret = 0;
	} else {
		ret = queue_get(p, kprio, &j);
	}
	j.qprio = (uint16_t)kprio;
	if (ret) {
		sync_put(p, &j);
		return ret;
	}
	s.queue_id = j.queue_id;
	t0 = now_ns();
	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_SUBMIT, &s)) {
		e = errno;
		queue_put(p, &j);
		sync_put(p, &j);
		if (e == EBADFD)
			return vpux_err(VPUX_E_DEVICE,
					"%s: SUBMIT: this file is banned after a hung or faulting job; reopen the device",
					p->path);
		return vpux_err(errno_to_vpux(e), "%s: SUBMIT: %s", p->path,
				strerror(e));
	}
	j.id = s.seqno;
	j.own = own > 0 && (unsigned int)own < n ? list[own].bo->handle : 0;
	j.submit_ns = t0;
	j.ops_total = task_ops(&list[0]);
	j.prof = prof;
	*job = j;
	return 0;
}

static int io_submit(void *priv, const struct vpux_be_entry *list,
		     unsigned int n, unsigned int prio, int own,
		     const struct vpux_bo *prof, struct vpux_be_job *job)
{
	return submit_job(priv, list, n, prio, own, prof, 0, 0, NULL, job);
}

/*
 * The kernel orders a queue: its jobs start in submission order, one at
 * a time, each once the one before it left the NPU, whatever its result
 * (vpux_queue.c, vpux_sched.c). So an ordered job goes to the queue of
 * @prev, the last job on its CMX tiles (request.c keeps one per tile:
 * cmx_per_tile), and the kernel starts it from the interrupt's bottom
 * half that completes @prev; a job with no @prev takes the pool's next
 * queue (an idle one while there is one), so the jobs of a network's
 * other tile sets run at once on queues of their own, as far as the
 * kernel's CMX ownership (vpux_cmx.c: a file's jobs on disjoint tiles)
 * and the engines allow. Only when the priority changes between two
 * ordered jobs, which would put them on two queues, is @prev waited for
 * here first.
 */
static int io_submit_ordered(void *priv, const struct vpux_be_entry *list,
			     unsigned int n, unsigned int prio, int own,
			     const struct vpux_bo *prof,
			     const struct vpux_be_job *prev,
			     struct vpux_be_job *job)
{
	unsigned int kprio = kernel_prio(prio);
	struct iob *p = priv;

	if (prev && prev->qprio != kprio) {
		struct drm_vpux_wait w;

		memset(&w, 0, sizeof(w));
		w.seqno = prev->id;
		w.timeout_ns = INT64_MAX;
		/* an error (a number the kernel forgot): it ended long ago */
		(void)drmIoctl(p->fd, DRM_IOCTL_VPUX_WAIT, &w);
		prev = NULL;
	}
	return submit_job(priv, list, n, prio, own, prof, 0, 1, prev, job);
}

/*
 * The kernel orders the chain: the job's in-syncobj is the out-syncobj
 * of @after, so it starts on the device when @after's fence signals and
 * fails with ECANCELED ("a dependency failed") if @after failed.
 */
static int io_submit_after(void *priv, const struct vpux_be_entry *list,
			   unsigned int n, unsigned int prio, int own,
			   const struct vpux_be_job *after,
			   struct vpux_be_job *job)
{
	return submit_job(priv, list, n, prio, own, NULL, 1, 0, after, job);
}

/*
 * The result of the job that last used the BO @handle, once every job on
 * it finished, by BO_WAIT (uapi 1.5) into a struct drm_vpux_wait, with
 * the job's number in *@seqno. 0 or a negative errno.
 */
static int bo_wait(struct iob *p, uint32_t handle, int64_t abs_ns,
		   struct drm_vpux_wait *w, uint64_t *seqno)
{
	struct drm_vpux_bo_wait b = { .handle = handle, .timeout_ns = abs_ns };

	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_BO_WAIT, &b))
		return -errno;
	memset(w, 0, sizeof(*w));
	w->status = b.status;
	w->sys_error = b.sys_error;
	w->core_error = b.core_error;
	w->fail_op = b.fail_op;
	w->fault_addr = b.fault_addr;
	w->device_cycles = b.device_cycles;
	w->op_cycles = b.op_cycles;
	w->error = b.error;
	*seqno = b.seqno;
	return 0;
}

/*
 * WAIT until @abs_ns (0 polls); 0 with *@w filled, or a negative errno.
 * A job number the kernel no longer holds (256 newer jobs of this file)
 * finished long ago: its result is its own BO's last one (BO_WAIT, which
 * also says which job that was). -ESTALE if the BO's last job is another
 * one.
 */
static int do_wait(struct iob *p, struct vpux_be_job *job, int64_t abs_ns,
		   struct drm_vpux_wait *w)
{
	uint64_t last = 0;
	int r;

	memset(w, 0, sizeof(*w));
	w->seqno = job->id;
	w->timeout_ns = abs_ns;
	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_WAIT, w)) {
		if (errno != ENOENT || !job->own)
			return -errno;
		r = bo_wait(p, (uint32_t)job->own, abs_ns, w, &last);
		if (r)
			return r;
		if (last != job->id)
			return -ESTALE;
	}
	if (!job->done_ns)
		job->done_ns = now_ns();
	queue_put(p, job);
	return 0;
}

/* The request's scratch BO reports a job other than its own */
static int stale(struct iob *p, const struct vpux_be_job *job)
{
	return vpux_err(VPUX_E_STATE,
			"%s: job %llu is older than the last 256 jobs the kernel keeps, and its scratch BO's last job is another one",
			p->path, (unsigned long long)job->id);
}

static int io_wait(void *priv, struct vpux_be_job *job, int timeout_ms)
{
	struct iob *p = priv;
	struct drm_vpux_wait w;
	int64_t abs_ns = timeout_ms < 0 ? INT64_MAX :
			 now_ns() + (int64_t)timeout_ms * 1000000;
	char why[256];
	int r;

	r = do_wait(p, job, timeout_ms == 0 ? 0 : abs_ns, &w);
	if (r == -ETIMEDOUT)
		return vpux_err(VPUX_E_TIMEOUT, "%s: job %llu not done in %d ms",
				p->path, (unsigned long long)job->id, timeout_ms);
	if (r == -ESTALE)
		return stale(p, job);
	if (r)
		return vpux_err(errno_to_vpux(-r), "%s: WAIT for job %llu: %s",
				p->path, (unsigned long long)job->id,
				strerror(-r));
	if (w.status == DRM_VPUX_STATUS_DONE)
		return 0;
	result_str(p, &w, why, sizeof(why));
	if (w.status == DRM_VPUX_STATUS_MMU_FAULT)
		return vpux_err(VPUX_E_DEVICE,
				"%s: job %llu: kernel status MMU_FAULT at device address 0x%llx (engine kind %u op %u; %s); the file is banned",
				p->path, (unsigned long long)job->id,
				(unsigned long long)w.fault_addr,
				w.fail_op >> 24, w.fail_op & 0xffffff, why);
	if (w.status == DRM_VPUX_STATUS_ERROR && !w.fail_op)
		return vpux_err(VPUX_E_DEVICE,
				"%s: job %llu: kernel status ERROR: the engine core refused the task: %s",
				p->path, (unsigned long long)job->id, why);
	return vpux_err(VPUX_E_DEVICE,
			"%s: job %llu: kernel status %s: %s (engine kind %u op %u)",
			p->path, (unsigned long long)job->id, status_name(w.status),
			why, w.fail_op >> 24, w.fail_op & 0xffffff);
}

static int io_status(void *priv, struct vpux_be_job *job,
		     struct vpux_request_status *st)
{
	struct iob *p = priv;
	struct drm_vpux_wait w;
	int r = do_wait(p, job, 0, &w);
	int32_t sys;
	uint32_t core;

	memset(st, 0, sizeof(*st));
	st->ops_total = job->ops_total;
	if (r == -ETIMEDOUT) {
		st->state = VPUX_REQ_RUNNING;
		return 0;
	}
	if (r == -ESTALE)
		return stale(p, job);
	if (r)
		return vpux_err(errno_to_vpux(-r), "%s: status of job %llu: %s",
				p->path, (unsigned long long)job->id,
				strerror(-r));
	st->state = w.status == DRM_VPUX_STATUS_DONE ? VPUX_REQ_DONE :
		    VPUX_REQ_FAILED;
	/* dla_err.h numbering: -core code, else the kernel's -errno */
	split_error(p, &w, &sys, &core);
	job->err_category = error_category(p, &w);
	job->err_detail = core;
	st->error = core ? -(int32_t)core : sys;
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
				"%s: per-op cycles: the job has no profile",
				p->path);
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

/*
 * The schedule the kernel wrote after the per-op cycles: every
 * op not run until the job left the engine core, or if it never ran.
 */
static int io_op_times(void *priv, const struct vpux_be_job *job,
		       struct vpux_op_time *times, unsigned int n)
{
	const volatile struct drm_vpux_profile *pr;
	const volatile struct drm_vpux_op_time *ot;
	struct iob *p = priv;
	unsigned int i;

	if (!job->prof)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: op times: the job has no profile", p->path);
	pr = job->prof->cpu;
	for (i = 0; i < n; i++) {
		memset(&times[i], 0, sizeof(times[i]));
		times[i].engine = VPUX_OP_NOT_RUN;
	}
	if (pr->entries != n ||
	    pr->op_count[0] + pr->op_count[1] + pr->op_count[2] != n ||
	    DRM_VPUX_PROFILE_TIMES_SIZE(n) > job->prof->size)
		return 0;
	ot = (const volatile void *)((const volatile char *)pr +
				     DRM_VPUX_PROFILE_TIMES_OFFSET(n));
	for (i = 0; i < n; i++) {
		times[i].engine = ot[i].engine;
		times[i].done = ot[i].flags & DRM_VPUX_OP_TIME_DONE;
		times[i].start = ot[i].start;
		times[i].end = ot[i].end;
	}
	return 0;
}

static void io_release(void *priv, struct vpux_be_job *job)
{
	struct iob *p = priv;

	/*
	 * The kernel forgets a job after 256 newer ones, a BO with the BO;
	 * the job no longer counts against its queue (it may still run:
	 * the queue then holds the next job back until it is done).
	 */
	queue_put(p, job);
	/*
	 * A chained job's out-syncobj: a later job's SUBMIT took its fence
	 * already (in-syncobjs are looked up at SUBMIT), so it can go.
	 */
	sync_put(p, job);
}

/* ---- API 1.8: device properties, buffers, poll fds ---- */

static void io_props(void *priv, struct vpux_device_props *pr)
{
	struct iob *p = priv;
	uint64_t cap = p->param[DRM_VPUX_PARAM_CAPABILITIES];

	snprintf(pr->driver, sizeof(pr->driver), IOB_DRIVER);
	pr->fw_mode = p->param[DRM_VPUX_PARAM_FW_MODE] ==
		      DRM_VPUX_FW_MODE_HEADED ? VPUX_FW_MODE_HEADED :
		      VPUX_FW_MODE_HEADLESS;
	pr->uapi_major = DRM_VPUX_UAPI_VERSION_MAJOR;
	pr->uapi_minor = p->minor;
	pr->num_tiles = (uint32_t)p->param[DRM_VPUX_PARAM_NUM_TILES];
	pr->cmx_tile_bytes = (uint32_t)p->param[DRM_VPUX_PARAM_CMX_SIZE];
	pr->cmx_bytes = (uint64_t)pr->num_tiles * pr->cmx_tile_bytes;
	pr->features = (cap & DRM_VPUX_CAP_DMA_4D ? VPUX_DEV_DMA_4D : 0) |
		       (cap & DRM_VPUX_CAP_MMU ? VPUX_DEV_MMU : 0) |
		       (cap & DRM_VPUX_CAP_CYCLES ? VPUX_DEV_CYCLES : 0) |
		       (cap & DRM_VPUX_CAP_FAULT_INJECT ?
			VPUX_DEV_FAULT_INJECT : 0) |
		       (cap & DRM_VPUX_CAP_PLANS ? VPUX_DEV_PLANS : 0) |
		       VPUX_DEV_DMABUF | VPUX_DEV_PRIORITIES |
		       VPUX_DEV_POLL_FD;
	pr->heaps = 1u << VPUX_HEAP_SYSTEM;
	pr->device_id = (uint32_t)p->param[DRM_VPUX_PARAM_DEVICE_ID];
	pr->revision = (uint32_t)p->param[DRM_VPUX_PARAM_DEVICE_REVISION];
	pr->clock_khz = (uint32_t)p->param[DRM_VPUX_PARAM_CLOCK_KHZ];
	pr->serial = p->param[DRM_VPUX_PARAM_SERIAL];
	pr->memory_bytes = p->param[DRM_VPUX_PARAM_BO_MEMORY_LIMIT];
}

/* DMA_BUF_IOCTL_SYNC of @flags on the dma-buf of @bo (an import) */
static int dmabuf_sync(struct iob *p, const struct vpux_bo *bo,
		       uint64_t flags)
{
	struct dma_buf_sync ds = { .flags = flags };
	int fd, e = 0;

	if (drmPrimeHandleToFD(p->fd, (uint32_t)bo->handle, DRM_CLOEXEC, &fd))
		return errno;
	if (ioctl(fd, DMA_BUF_IOCTL_SYNC, &ds))
		e = errno;
	close(fd);
	return e;
}

/*
 * FROM_DEVICE: every job on the BO finished (BO_WAIT; the
 * job's result is not this call's business); an import: the dma-buf's
 * own begin/end of CPU access for the direction; then a full fence
 */
static int io_bo_sync(void *priv, struct vpux_bo *bo, unsigned int dir,
		      uint64_t offset, uint64_t size)
{
	struct iob *p = priv;
	uint64_t rw = dir == VPUX_SYNC_FROM_DEVICE ? DMA_BUF_SYNC_READ :
		      DMA_BUF_SYNC_WRITE;
	int e;

	(void)offset;
	(void)size;	/* the kernel syncs whole BOs */
	if (dir == VPUX_SYNC_FROM_DEVICE) {
		struct drm_vpux_bo_wait b = {
			.handle = (uint32_t)bo->handle,
			.timeout_ns = INT64_MAX,
		};

		if (drmIoctl(p->fd, DRM_IOCTL_VPUX_BO_WAIT, &b)) {
			e = errno;
			return vpux_err(errno_to_vpux(e), "%s: sync: BO_WAIT: %s",
					p->path, strerror(e));
		}
	}
	if (bo->flags & VPUX_BE_BO_IMPORTED) {
		e = dmabuf_sync(p, bo, DMA_BUF_SYNC_START | rw);
		if (!e)
			e = dmabuf_sync(p, bo, DMA_BUF_SYNC_END | rw);
		if (e)
			return vpux_err(errno_to_vpux(e),
					"%s: sync: DMA_BUF_IOCTL_SYNC: %s",
					p->path, strerror(e));
	}
	atomic_thread_fence(memory_order_seq_cst);
	return 0;
}

static int io_bo_export(void *priv, struct vpux_bo *bo, unsigned int flags,
			int *fd)
{
	struct iob *p = priv;
	int e;

	if (shared_get(p, (uint32_t)bo->handle, 0))
		return vpux_err(VPUX_E_NOMEM, "export: out of memory");
	if (drmPrimeHandleToFD(p->fd, (uint32_t)bo->handle,
			       DRM_CLOEXEC | (flags & VPUX_EXPORT_READONLY ?
					      0 : DRM_RDWR), fd)) {
		e = errno;
		return vpux_err(errno_to_vpux(e), "%s: PRIME export: %s",
				p->path, strerror(e));
	}
	return 0;
}

static int io_bo_import(void *priv, int fd, struct vpux_bo *bo)
{
	struct iob *p = priv;
	struct drm_vpux_bo_info i = { 0 };
	uint32_t handle;
	void *cpu;
	int e, ro = 0;

	if (drmPrimeFDToHandle(p->fd, fd, &handle)) {
		e = errno;
		return vpux_err(e == EBADF || e == EINVAL ? VPUX_E_INVAL :
				errno_to_vpux(e),
				"%s: import of fd %d: %s (not a dma-buf?)",
				p->path, fd, strerror(e));
	}
	if (shared_get(p, handle, 1))
		return vpux_err(VPUX_E_NOMEM, "import: out of memory");
	i.handle = handle;
	if (drmIoctl(p->fd, DRM_IOCTL_VPUX_BO_INFO, &i)) {
		e = errno;
		goto fail;
	}
	cpu = mmap(NULL, i.size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
		   (off_t)i.mmap_offset);
	if (cpu == MAP_FAILED && errno == EACCES) {
		/* a dma-buf exported read-only */
		ro = 1;
		cpu = mmap(NULL, i.size, PROT_READ, MAP_SHARED, p->fd,
			   (off_t)i.mmap_offset);
	}
	if (cpu == MAP_FAILED) {
		e = errno;
		goto fail;
	}
	bo->va = i.device_addr;
	bo->size = i.size;
	bo->cpu = cpu;
	bo->handle = handle;
	bo->flags = VPUX_BE_BO_IMPORTED | (ro ? VPUX_BE_BO_CPU_RO : 0) |
		    (i.flags & DRM_VPUX_BO_DEVICE_READONLY ?
		     VPUX_BE_BO_READONLY : 0) |
		    (i.flags & DRM_VPUX_BO_WC ? VPUX_BE_BO_WC : 0) |
		    (i.flags & DRM_VPUX_BO_CACHED ? VPUX_BE_BO_CACHED : 0);
	return 0;
fail:
	if (shared_put(p, handle))
		gem_close(p->fd, handle);
	return vpux_err(errno_to_vpux(e), "%s: import of fd %d: %s", p->path,
			fd, strerror(e));
}

static int io_job_fd(void *priv, struct vpux_be_job *job, int *fd)
{
	struct iob *p = priv;
	int e;

	if (!job->syncobj)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: poll fd: the job has no out-syncobj (no syncobj could be created for it)",
				p->path);
	if (drmSyncobjExportSyncFile(p->fd, job->syncobj, fd)) {
		e = errno;
		return vpux_err(errno_to_vpux(e),
				"%s: poll fd: SYNCOBJ_HANDLE_TO_FD (sync_file): %s",
				p->path, strerror(e));
	}
	return 0;
}

unsigned int vpux_ioctl_nodes(unsigned int *nodes, unsigned int max)
{
	unsigned int i, n = 0, minor;
	char node[64];
	int fd;

	for (i = 0; i < 64 && n < max; i++) {
		snprintf(node, sizeof(node), "/dev/accel/accel%u", i);
		if (access(node, F_OK))
			continue;
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;	/* not this process's to open */
		if (!check_node(fd, node, &minor))
			nodes[n++] = i;
		close(fd);
	}
	vpux_err_clear();	/* what was skipped is no error */
	return n;
}

const struct vpux_backend_ops vpux_backend_ioctl = {
	.name = "ioctl",
	.open = io_open,
	.close = io_close,
	.query = io_query,
	.limits = io_limits,
	.bo_alloc = io_bo_alloc,
	.bo_free = io_bo_free,
	.bo_map = io_bo_map,
	.submit = io_submit,
	.submit_after = io_submit_after,
	.cmx_per_tile = 1,
	.submit_ordered = io_submit_ordered,
	.wait = io_wait,
	.status = io_status,
	.op_cycles = io_op_cycles,
	.op_times = io_op_times,
	.profile_alloc = io_profile_alloc,
	.release = io_release,
	.props = io_props,
	.bo_sync = io_bo_sync,
	.bo_export = io_bo_export,
	.bo_import = io_bo_import,
	.job_fd = io_job_fd,
	.cycles = io_cycles,
};
