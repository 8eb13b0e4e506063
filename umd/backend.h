/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Backends of libvpux. A device is one backend instance; everything above
 * (loadable parsing, task memory, requests) is backend-independent and
 * talks to the device only through these ops:
 *
 *  - "inproc": the engine core + NPU model in this process
 *    (backend_inproc.c, through portability/user/dla_user.h);
 *  - "ioctl": /dev/accel/accelN through uapi/drm/vpux_accel.h
 *    (backend_ioctl.c): BO_CREATE/BO_INFO + mmap for bo_alloc, SUBMIT
 *    with the address list as (handle, offset, size) triples to one of
 *    a pool of queues (uapi 1.5), WAIT by seqno for wait and status;
 *    per-op cycles through a profile BO (uapi 1.4).
 *
 * Buffers are device memory with a device address and a CPU mapping; a
 * task is an address list whose entry 0 holds task memory
 * (uapi/drm/vpux_task.h). Handles are backend-defined.
 * Every op returns 0 or a negative VPUX_E_* code; all ops are thread-safe.
 */
#ifndef VPUX_BACKEND_H
#define VPUX_BACKEND_H

#include <stdint.h>

#include "vpux.h"

struct vpux_bo {
	uint64_t va;		/* device address */
	uint64_t size;		/* bytes (page multiple) */
	void *cpu;		/* CPU mapping (valid after bo_map) */
	uint64_t handle;	/* backend's handle (GEM handle, arena address) */
	unsigned int flags;	/* VPUX_BE_BO_* it was allocated with */
};

/*
 * The device only reads the buffer (weights, kernel arguments, task
 * memory): its jobs then wait only for writers of it, so requests sharing
 * a network's buffers can run at once, and a stray device write faults.
 */
#define VPUX_BE_BO_READONLY	1u
/* CPU mapping cached / write-combined (API 1.8; the kernel's BO flags) */
#define VPUX_BE_BO_CACHED	2u
#define VPUX_BE_BO_WC		4u
/* set by the backend: an imported dma-buf; its CPU mapping read-only */
#define VPUX_BE_BO_IMPORTED	8u
#define VPUX_BE_BO_CPU_RO	16u

/* One address-list entry: [offset, offset + size) of @bo. */
struct vpux_be_entry {
	const struct vpux_bo *bo;
	uint64_t offset;
	uint64_t size;
};

/*
 * A submitted job, kept by its request (so nothing about it is lost when
 * the backend or the kernel moves on to newer jobs).
 */
struct vpux_be_job {
	uint64_t id;		/* the port's task handle, the kernel's seqno */
	uint64_t own;		/* ioctl: a BO only this job uses, 0 if none */
	int64_t submit_ns;	/* ioctl: submitted, and seen finished (or 0) */
	int64_t done_ns;
	uint32_t ops_total;
	const struct vpux_bo *prof;	/* ioctl: the request's profile BO */
	uint32_t queue_id;	/* ioctl: the kernel queue (0: default) */
	uint16_t qprio, qidx;	/* ioctl: its pool, while it counts as busy */
	int queued;		/* ioctl: the job counts in its queue's busy */
	uint32_t syncobj;	/* ioctl: signalled when the job ends, or 0 */
	int pooled;		/* ioctl: @syncobj goes back to the pool */
	void *watch;		/* inproc: the poll fd's watcher, or NULL */
	/* as the last status read: DLA_ERRC_* and the core's code (detail) */
	uint32_t err_category, err_detail;
};

/* What a task may hold on the device (the kernel's GET_PARAM limits). */
struct vpux_be_limits {
	uint32_t max_ops;	/* ops, all engine kinds together */
	uint32_t max_barriers;
	uint32_t max_deps;	/* wait edges, and update edges, per task */
	uint32_t max_addr_entries;	/* task memory included */
	int plans;		/* runs plans (a kernel's DRM_VPUX_CAP_PLANS) */
};

struct vpux_backend_ops {
	const char *name;
	int (*open)(const char *path, void **priv);
	void (*close)(void *priv);
	int (*query)(void *priv, struct vpux_device_info *info);
	/* the device's task limits */
	void (*limits)(void *priv, struct vpux_be_limits *lim);
	/* @flags: VPUX_BE_BO_* */
	int (*bo_alloc)(void *priv, uint64_t size, unsigned int flags,
			struct vpux_bo *bo);
	void (*bo_free)(void *priv, struct vpux_bo *bo);
	void *(*bo_map)(void *priv, struct vpux_bo *bo);
	/*
	 * A buffer a job records its per-op cycles in, for a task of @ops
	 * ops (optional op; VPUX_E_UNSUPPORTED when the backend reads them
	 * without one or cannot record them at all).
	 */
	int (*profile_alloc)(void *priv, uint32_t ops, struct vpux_bo *bo);
	/*
	 * Entry 0 = task memory; entry @own (or -1) a buffer no other job
	 * uses (the request's scratch), by which the job's result can still
	 * be found after the kernel forgot the job's number; @prof a buffer
	 * from profile_alloc (kept until the job is released) or NULL.
	 * Fills *@job.
	 */
	int (*submit)(void *priv, const struct vpux_be_entry *list,
		      unsigned int n, unsigned int prio, int own,
		      const struct vpux_bo *prof, struct vpux_be_job *job);
	/*
	 * submit, with the job starting only once @after (a job of this
	 * device not yet released, or NULL) has ended; if @after failed,
	 * the job does not run and fails too. A run recipe's consecutive
	 * NPU runs (umd/runner/) go to the device this way, without waiting
	 * for each other on the host.
	 */
	int (*submit_after)(void *priv, const struct vpux_be_entry *list,
			    unsigned int n, unsigned int prio, int own,
			    const struct vpux_be_job *after,
			    struct vpux_be_job *job);
	/*
	 * submit, in the device's order of ordered jobs: the job starts
	 * only once @prev (the ordered job submitted before it, or NULL)
	 * has ended, whatever @prev's result, without the caller waiting
	 * for it. Requests of networks with CMX tensors go to the device
	 * this way: the on-chip memory is the device's, not the request's
	 * (request.c).
	 */
	/*
	 * Set if @prev of submit_ordered orders only the two jobs: ordered
	 * jobs on disjoint CMX tiles may then run at once (request.c keeps
	 * a tail per tile); unset, the backend runs all ordered jobs one
	 * after another whatever @prev.
	 */
	int cmx_per_tile;
	int (*submit_ordered)(void *priv, const struct vpux_be_entry *list,
			      unsigned int n, unsigned int prio, int own,
			      const struct vpux_bo *prof,
			      const struct vpux_be_job *prev,
			      struct vpux_be_job *job);
	/* 0, VPUX_E_TIMEOUT; @timeout_ms < 0 waits forever */
	int (*wait)(void *priv, struct vpux_be_job *job, int timeout_ms);
	int (*status)(void *priv, struct vpux_be_job *job,
		      struct vpux_request_status *st);
	/* VPUX_E_UNSUPPORTED if the backend cannot report per-op cycles */
	int (*op_cycles)(void *priv, const struct vpux_be_job *job,
			 unsigned int kind, unsigned int index,
			 uint32_t *cycles);
	/*
	 * Every op's engine, start and end (@n: the task's ops, in the
	 * order of vpux_request_op_times()); VPUX_E_UNSUPPORTED if the
	 * backend cannot report them
	 */
	int (*op_times)(void *priv, const struct vpux_be_job *job,
			struct vpux_op_time *times, unsigned int n);
	/* abort if running, forget the job */
	void (*release)(void *priv, struct vpux_be_job *job);
	/*
	 * API 1.8. props: fill what the device knows (the caller sets
	 * size, name, the vpux_device_query() fields); bo_sync: @dir
	 * VPUX_SYNC_*; bo_export/bo_import: PRIME (VPUX_E_UNSUPPORTED
	 * with the message set where there is none); job_fd: a new fd,
	 * readable once @job has ended
	 */
	void (*props)(void *priv, struct vpux_device_props *props);
	int (*bo_sync)(void *priv, struct vpux_bo *bo, unsigned int dir,
		       uint64_t offset, uint64_t size);
	int (*bo_export)(void *priv, struct vpux_bo *bo, unsigned int flags,
			 int *fd);
	int (*bo_import)(void *priv, int fd, struct vpux_bo *bo);
	int (*job_fd)(void *priv, struct vpux_be_job *job, int *fd);
	/* the device's cycle counter now (VPUX_E_UNSUPPORTED, message set) */
	int (*cycles)(void *priv, uint64_t *cycles);
};

/*
 * The vpux_accel nodes this process can open: their numbers N
 * (/dev/accel/accelN) in @nodes, ascending; returns how many (at most @max)
 */
unsigned int vpux_ioctl_nodes(unsigned int *nodes, unsigned int max);

extern const struct vpux_backend_ops vpux_backend_inproc;
extern const struct vpux_backend_ops vpux_backend_ioctl;

#endif /* VPUX_BACKEND_H */
