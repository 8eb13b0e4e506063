// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * In-process backend: a host device (vpux_hw_host.h, the NPU model) with
 * its worker and interrupt threads, one MMU context, and the engine core
 * behind the host port (dla_user.h). The device's shape and its first
 * translated address come from its registers, as a driver reads them.
 * Buffers come from the device's physical arena and are mapped into
 * context 0 at increasing device addresses from there; tasks go through
 * dla_user_submit(), so the core validates the task memory exactly as in
 * the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "backend.h"
#include "dla_err.h"
#include "dla_user.h"
#include "err.h"
#include "vpux_hw_host.h"
#include "vpux_regs.h"

struct inproc {
	struct vpux_host_dev *hw;
	struct vpux_host_vm *vm;
	struct dla_user_dev *dev;
	pthread_mutex_t lock;	/* next_va, the arena and page tables */
	uint64_t next_va;
	uint32_t engines;	/* VPUX_REG_ENGINES */
	size_t arena;		/* bytes of the model's physical memory */
};

/*
 * A poll fd's watcher (API 1.8): a thread that waits for the job and
 * then signals @efd; vpux_request_poll_fd() hands out dups of it.
 * ip_release() stops and joins it (signalling @efd: the job is over).
 */
struct ip_watch {
	struct inproc *p;
	int handle;
	int efd;
	atomic_int stop;
	pthread_t thread;
};

static int ip_open(const char *path, void **priv)
{
	struct inproc *p = calloc(1, sizeof(*p));
	const char *mb = getenv("VPUX_INPROC_MEM_MB");
	size_t bytes = (mb ? strtoul(mb, NULL, 0) : 1024) << 20;

	(void)path;
	if (!p)
		return vpux_err(VPUX_E_NOMEM, "inproc: out of memory");
	pthread_mutex_init(&p->lock, NULL);
	p->hw = vpux_host_dev_create(bytes);
	p->vm = p->hw ? vpux_host_vm_create(p->hw, 0) : NULL;
	p->dev = p->vm ? dla_user_create_host(p->hw, DLA_USER_DIRECT_IRQ) : NULL;
	if (!p->dev) {
		if (p->vm)
			vpux_host_vm_destroy(p->vm);
		if (p->hw)
			vpux_host_dev_destroy(p->hw);
		free(p);
		return vpux_err(VPUX_E_NODEV,
				"inproc: cannot create the model device");
	}
	p->next_va = (uint64_t)vpux_host_reg_read(p->hw, VPUX_REG_VA_BASE_HI) << 32 |
		     vpux_host_reg_read(p->hw, VPUX_REG_VA_BASE_LO);
	p->engines = vpux_host_reg_read(p->hw, VPUX_REG_ENGINES);
	p->arena = bytes;
	*priv = p;
	return 0;
}

static void ip_close(void *priv)
{
	struct inproc *p = priv;

	dla_user_destroy(p->dev);
	vpux_host_vm_destroy(p->vm);
	vpux_host_dev_destroy(p->hw);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

static int ip_query(void *priv, struct vpux_device_info *info)
{
	const struct inproc *p = priv;

	memset(info, 0, sizeof(*info));
	strcpy(info->backend, "inproc");
	info->target = VPUX_TARGET_VPUX1;
	info->caps = VPUX_NET_CAP_DMA | VPUX_NET_CAP_DPU | VPUX_NET_CAP_SHAVE;
	info->engines[0] = p->engines & 0xff;		/* DMA */
	info->engines[1] = p->engines >> 8 & 0xff;	/* DPU */
	info->engines[2] = p->engines >> 16 & 0xff;	/* SHAVE */
	info->max_ops = DLA_MAX_OPS_PER_TASK;
	info->max_barriers = DLA_MAX_BARRIERS;
	return 0;
}

static void ip_limits(void *priv, struct vpux_be_limits *lim)
{
	(void)priv;
	/* the engine core of this process, as it was built */
	lim->max_ops = DLA_MAX_OPS_PER_TASK;
	lim->max_barriers = DLA_MAX_BARRIERS;
	lim->max_deps = DLA_MAX_DEPS_PER_TASK;
	lim->max_addr_entries = DLA_MAX_ADDR_ENTRIES;
	lim->plans = 1;
}

static int ip_bo_alloc(void *priv, uint64_t size, unsigned int flags,
		       struct vpux_bo *bo)
{
	struct inproc *p = priv;
	uint64_t pa;

	size = (size + VPUX_PAGE_SIZE - 1) & ~(uint64_t)(VPUX_PAGE_SIZE - 1);
	if (!size)
		size = VPUX_PAGE_SIZE;
	pthread_mutex_lock(&p->lock);
	if (vpux_host_phys_alloc(p->hw, size, &pa)) {
		pthread_mutex_unlock(&p->lock);
		return vpux_err(VPUX_E_NOMEM,
				"inproc: %llu bytes: device memory exhausted (VPUX_INPROC_MEM_MB)",
				(unsigned long long)size);
	}
	bo->va = p->next_va;
	bo->size = size;
	bo->handle = pa;
	bo->flags = flags;
	bo->cpu = vpux_host_phys_ptr(p->hw, pa, size);
	if (vpux_host_vm_map(p->vm, bo->va, pa, size,
			     !(flags & VPUX_BE_BO_READONLY))) {
		vpux_host_phys_free(p->hw, pa, size);
		pthread_mutex_unlock(&p->lock);
		return vpux_err(VPUX_E_NOMEM, "inproc: cannot map %llu bytes",
				(unsigned long long)size);
	}
	/* a guard page between buffers */
	p->next_va += size + VPUX_PAGE_SIZE;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static void ip_bo_free(void *priv, struct vpux_bo *bo)
{
	struct inproc *p = priv;

	pthread_mutex_lock(&p->lock);
	vpux_host_vm_unmap(p->vm, bo->va, bo->size);
	vpux_host_phys_free(p->hw, bo->handle, bo->size);
	pthread_mutex_unlock(&p->lock);
}

static void *ip_bo_map(void *priv, struct vpux_bo *bo)
{
	(void)priv;
	return bo->cpu;
}

static int dla_to_vpux(int r)
{
	switch (-r) {
	case DLA_ERR_BUSY:
		return VPUX_E_BUSY;
	case DLA_ERR_RUNNING:
		return VPUX_E_TIMEOUT;
	case DLA_ERR_NOENT:
	case DLA_ERR_INVAL:
		return VPUX_E_INVAL;
	case DLA_ERR_READONLY:
		/* as the kernel's EACCES for a write to a read-only BO */
		return VPUX_E_PERM;
	default:
		return VPUX_E_DEVICE;
	}
}

/* submit, after the task of handle @after (-1: none) */
static int ip_submit_h(void *priv, const struct vpux_be_entry *list,
		       unsigned int n, unsigned int prio, int after,
		       struct vpux_be_job *job)
{
	struct dla_user_buf l[DLA_MAX_ADDR_ENTRIES];
	struct inproc *p = priv;
	unsigned int i;
	int h;

	if (n > DLA_MAX_ADDR_ENTRIES)
		return vpux_err(VPUX_E_INVAL, "inproc: %u address-list entries", n);
	for (i = 0; i < n; i++) {
		l[i].va = list[i].bo->va + list[i].offset;
		l[i].size = list[i].size;
		l[i].cpu = (char *)list[i].bo->cpu + list[i].offset;
		/* as the kernel refuses a write to a read-only BO */
		l[i].flags = list[i].bo->flags & VPUX_BE_BO_READONLY ?
			     DLA_USER_BUF_READONLY : 0;
	}
	h = dla_user_submit_after(p->dev, l, n, 0, prio, after);
	if (h < 0)
		return vpux_err(dla_to_vpux(h),
				"inproc: the engine core refused the task (dla error %d: %s)",
				h, dla_user_last_error());
	memset(job, 0, sizeof(*job));
	job->id = (uint64_t)h;
	return 0;
}

static int ip_submit(void *priv, const struct vpux_be_entry *list,
		     unsigned int n, unsigned int prio, int own,
		     const struct vpux_bo *prof, struct vpux_be_job *job)
{
	(void)own;	/* the port keeps a task's result until it is released */
	(void)prof;	/* and reads per-op cycles from the core */
	return ip_submit_h(priv, list, n, prio, -1, job);
}

/*
 * The port queues the task until @prev's task ended (or was released)
 * and starts it from the bottom half that completes @prev, without the
 * submitting thread: dla_user_submit_after().
 */
static int ip_submit_ordered(void *priv, const struct vpux_be_entry *list,
			     unsigned int n, unsigned int prio, int own,
			     const struct vpux_bo *prof,
			     const struct vpux_be_job *prev,
			     struct vpux_be_job *job)
{
	(void)own;
	(void)prof;
	return ip_submit_h(priv, list, n, prio, prev ? (int)prev->id : -1,
			   job);
}

/*
 * The engine core and the model run in this process: the dependency is
 * kept by waiting for @after here, in the submitting thread (a run
 * recipe's runner thread), and submitting when it is done; if it failed,
 * the job is not submitted.
 */
static int ip_submit_after(void *priv, const struct vpux_be_entry *list,
			   unsigned int n, unsigned int prio, int own,
			   const struct vpux_be_job *after,
			   struct vpux_be_job *job)
{
	struct inproc *p = priv;
	struct dla_task_status ds;
	int r;

	if (after) {
		r = dla_user_wait(p->dev, (int)after->id, -1);
		memset(&ds, 0, sizeof(ds));
		if (!r)
			r = dla_user_status(p->dev, (int)after->id, &ds);
		if (r || ds.state != DLA_TASK_DONE)
			return vpux_err(VPUX_E_DEVICE,
					"inproc: not submitted: the job it depends on failed");
	}
	return ip_submit(priv, list, n, prio, own, NULL, job);
}

static int ip_wait(void *priv, struct vpux_be_job *job, int timeout_ms)
{
	struct inproc *p = priv;
	int r = dla_user_wait(p->dev, (int)job->id, timeout_ms);

	return r ? vpux_err(dla_to_vpux(r), "inproc: wait: dla error %d", r) :
		   0;
}

static int ip_status(void *priv, struct vpux_be_job *job,
		     struct vpux_request_status *st)
{
	struct inproc *p = priv;
	struct dla_task_status ds;
	int r;

	memset(&ds, 0, sizeof(ds));
	r = dla_user_status(p->dev, (int)job->id, &ds);
	if (r)
		return vpux_err(dla_to_vpux(r), "inproc: status: dla error %d", r);
	st->state = ds.state == DLA_TASK_DONE ? VPUX_REQ_DONE :
		    ds.state == DLA_TASK_FAILED ? VPUX_REQ_FAILED :
		    VPUX_REQ_RUNNING;
	st->error = ds.error;
	job->err_category = ds.state == DLA_TASK_FAILED ?
			    dla_err_category(ds.error) : DLA_ERRC_NONE;
	job->err_detail = ds.error < 0 ? (uint32_t)-ds.error : 0;
	st->fail_kind = ds.fail_kind;
	st->fail_index = ds.fail_index;
	st->fault_addr = ds.fault_addr;
	st->ops_total = ds.ops_total;
	st->ops_done = ds.ops_done;
	st->op_cycles = ds.op_cycles;
	st->device_cycles = ds.device_cycles;
	st->time_us = ds.time_us;
	return 0;
}

static int ip_op_cycles(void *priv, const struct vpux_be_job *job,
			unsigned int kind, unsigned int index, uint32_t *cycles)
{
	struct inproc *p = priv;
	int r = dla_user_op_cycles(p->dev, (int)job->id, kind, index, cycles);

	return r ? vpux_err(dla_to_vpux(r), "inproc: op cycles: dla error %d",
			    r) : 0;
}

static int ip_op_times(void *priv, const struct vpux_be_job *job,
		       struct vpux_op_time *times, unsigned int n)
{
	struct inproc *p = priv;
	struct dla_op_time *t = calloc(n ? n : 1, sizeof(*t));
	unsigned int i;
	int r;

	if (!t)
		return vpux_err(VPUX_E_NOMEM, "inproc: op times: out of memory");
	r = dla_user_op_times(p->dev, (int)job->id, t, n);
	if (r < 0) {
		free(t);
		return vpux_err(dla_to_vpux(r), "inproc: op times: dla error %d",
				r);
	}
	for (i = 0; i < n; i++) {
		times[i].engine = t[i].engine;
		times[i].done = t[i].done;
		times[i].start = t[i].start;
		times[i].end = t[i].end;
	}
	free(t);
	return 0;
}

static void ip_release(void *priv, struct vpux_be_job *job)
{
	struct inproc *p = priv;
	struct ip_watch *w = job->watch;
	uint64_t one = 1;

	if (w) {
		atomic_store(&w->stop, 1);
		pthread_join(w->thread, NULL);
		/* over, one way or the other: the fds handed out say so */
		if (write(w->efd, &one, sizeof(one)) < 0)
			(void)0;
		close(w->efd);
		free(w);
		job->watch = NULL;
	}
	dla_user_release(p->dev, (int)job->id);
}

/* ---- API 1.8 ---- */

/*
 * Reading the low half latches the high half, for every reader of the
 * model's registers (the engine core too): read until a pair agrees
 */
static int ip_cycles(void *priv, uint64_t *cycles)
{
	struct inproc *p = priv;
	uint32_t lo, hi, lo2, hi2;

	do {
		lo = vpux_host_reg_read(p->hw, VPUX_REG_CYCLES_LO);
		hi = vpux_host_reg_read(p->hw, VPUX_REG_CYCLES_HI);
		lo2 = vpux_host_reg_read(p->hw, VPUX_REG_CYCLES_LO);
		hi2 = vpux_host_reg_read(p->hw, VPUX_REG_CYCLES_HI);
	} while (hi != hi2 || lo2 < lo);
	*cycles = (uint64_t)hi2 << 32 | lo2;
	return 0;
}

static void ip_props(void *priv, struct vpux_device_props *pr)
{
	struct inproc *p = priv;
	uint32_t caps = vpux_host_reg_read(p->hw, VPUX_REG_CAPS);

	snprintf(pr->driver, sizeof(pr->driver), "inproc");
	/* the engine core runs on the host: in this process */
	pr->fw_mode = VPUX_FW_MODE_HEADLESS;
	pr->num_tiles = vpux_host_reg_read(p->hw, VPUX_REG_TILES);
	pr->cmx_tile_bytes = vpux_host_reg_read(p->hw, VPUX_REG_CMX_SIZE);
	pr->cmx_bytes = (uint64_t)pr->num_tiles * pr->cmx_tile_bytes;
	pr->features = (caps & VPUX_CAP_DMA_4D ? VPUX_DEV_DMA_4D : 0) |
		       (caps & VPUX_CAP_MMU ? VPUX_DEV_MMU : 0) |
		       (caps & VPUX_CAP_CYCLE_COUNTER ? VPUX_DEV_CYCLES : 0) |
		       (caps & VPUX_CAP_FAULT_INJECT ?
			VPUX_DEV_FAULT_INJECT : 0) |
		       VPUX_DEV_PLANS | VPUX_DEV_POLL_FD | VPUX_DEV_PRIORITIES;
	pr->heaps = 1u << VPUX_HEAP_SYSTEM;
	pr->device_id = vpux_host_reg_read(p->hw, VPUX_REG_DEVICE_ID) & 0xffff;
	pr->revision = vpux_host_reg_read(p->hw, VPUX_REG_REVISION);
	pr->clock_khz = vpux_host_reg_read(p->hw, VPUX_REG_CLOCK_KHZ);
	pr->serial = vpux_host_reg_read(p->hw, VPUX_REG_SERIAL);
	pr->memory_bytes = p->arena;
}

/*
 * The model's engines write this process's memory, and the port's lock
 * (taken by every wait and status) orders what they wrote: a fence is
 * all there is to do, in both directions.
 */
static int ip_bo_sync(void *priv, struct vpux_bo *bo, unsigned int dir,
		      uint64_t offset, uint64_t size)
{
	(void)priv;
	(void)bo;
	(void)dir;
	(void)offset;
	(void)size;
	atomic_thread_fence(memory_order_seq_cst);
	return 0;
}

static int ip_bo_export(void *priv, struct vpux_bo *bo, unsigned int flags,
			int *fd)
{
	(void)priv;
	(void)bo;
	(void)flags;
	(void)fd;
	return vpux_err(VPUX_E_UNSUPPORTED,
			"inproc: no dma-buf export: the in-process model's memory belongs to this process alone (open a /dev/accel node)");
}

static int ip_bo_import(void *priv, int fd, struct vpux_bo *bo)
{
	(void)priv;
	(void)bo;
	return vpux_err(VPUX_E_UNSUPPORTED,
			"inproc: no dma-buf import (fd %d): the in-process model reaches only its own memory (open a /dev/accel node)",
			fd);
}

static void *ip_watcher(void *arg)
{
	struct ip_watch *w = arg;
	uint64_t one = 1;
	int r;

	/* short slices: ip_release() may stop it while the job runs */
	do
		r = dla_user_wait(w->p->dev, w->handle, 20);
	while (r == -DLA_ERR_RUNNING && !atomic_load(&w->stop));
	if (r != -DLA_ERR_RUNNING && write(w->efd, &one, sizeof(one)) < 0)
		(void)0;	/* a full counter is readable too */
	return NULL;
}

static int ip_job_fd(void *priv, struct vpux_be_job *job, int *fd)
{
	struct inproc *p = priv;
	struct ip_watch *w = job->watch;

	if (!w) {
		w = calloc(1, sizeof(*w));
		if (!w)
			return vpux_err(VPUX_E_NOMEM, "inproc: poll fd: out of memory");
		w->p = p;
		w->handle = (int)job->id;
		w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (w->efd < 0) {
			free(w);
			return vpux_err(VPUX_E_NOMEM, "inproc: poll fd: eventfd: %s",
					strerror(errno));
		}
		if (pthread_create(&w->thread, NULL, ip_watcher, w)) {
			close(w->efd);
			free(w);
			return vpux_err(VPUX_E_NOMEM,
					"inproc: poll fd: cannot start its thread");
		}
		job->watch = w;
	}
	*fd = fcntl(w->efd, F_DUPFD_CLOEXEC, 0);
	if (*fd < 0)
		return vpux_err(VPUX_E_NOMEM, "inproc: poll fd: dup: %s",
				strerror(errno));
	return 0;
}

const struct vpux_backend_ops vpux_backend_inproc = {
	.name = "inproc",
	.open = ip_open,
	.close = ip_close,
	.query = ip_query,
	.limits = ip_limits,
	.bo_alloc = ip_bo_alloc,
	.bo_free = ip_bo_free,
	.bo_map = ip_bo_map,
	.submit = ip_submit,
	.submit_after = ip_submit_after,
	.cmx_per_tile = 1,
	.submit_ordered = ip_submit_ordered,
	.wait = ip_wait,
	.status = ip_status,
	.op_cycles = ip_op_cycles,
	.op_times = ip_op_times,
	.release = ip_release,
	.props = ip_props,
	.bo_sync = ip_bo_sync,
	.bo_export = ip_bo_export,
	.bo_import = ip_bo_import,
	.job_fd = ip_job_fd,
	.cycles = ip_cycles,
};
