/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The "vpux" generic netlink family: telemetry counters and events
 * (Documentation/netlink.rst, Documentation/netlink/specs/vpux.yaml).
 */
#ifndef __VPUX_NETLINK_H__
#define __VPUX_NETLINK_H__

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "vpux_regs.h"

struct vpux_device;
struct vpux_file_priv;
struct vpux_job;
struct vpux_job_result;

/* events held for the sender work; more are dropped (and counted) */
#define VPUX_NL_EVENTS		32

/**
 * struct vpux_nl_event - one notification waiting to be sent
 * @cmd: VPUX_CMD_*_NTF
 * @ctx_id: the job's file (client id), 0 for a device event
 * @seqno: the job's number in its file
 * @addr: the fault address
 * @status: the job's DRM_VPUX_STATUS_*
 * @error: the job's errno or engine-core error
 * @value: resets after a reset, power state of a power event
 */
struct vpux_nl_event {
	u8 cmd;
	u64 ctx_id;
	u64 seqno;
	u64 addr;
	u32 status;
	s32 error;
	u32 value;
};

/**
 * struct vpux_nl_dev - a device's telemetry state
 * @probe_ns: boot time at which the driver bound the device (uptime)
 * @jobs_submitted: jobs SUBMIT pushed
 * @jobs_completed: jobs that completed successfully
 * @jobs_failed: jobs that ended otherwise, timeouts aside
 * @jobs_timedout: jobs that ended with DRM_VPUX_STATUS_TIMEOUT
 * @engine_cycles: device cycles the completed ops of each engine kind
 *	(VPUX_ENGINE_KIND_*) spent on their engines
 * @ev_lock: protects @ev, @ev_head, @ev_count and @ev_off; any context
 * @ev: events to send, a ring from @ev_head
 * @ev_head: oldest entry of @ev
 * @ev_count: entries of @ev in use
 * @ev_dropped: events lost because @ev was full
 * @ev_off: the device is going away: events are no longer queued
 * @ev_work: sends @ev's events to the "events" group (process context)
 *
 * The job counters are updated where the job's life is already recorded
 * (SUBMIT's point of no return, vpux_job_done_locked()), so that
 * submitted == completed + failed + timedout + jobs not finished.
 */
struct vpux_nl_dev {
	u64 probe_ns;
	atomic64_t jobs_submitted;
	atomic64_t jobs_completed;
	atomic64_t jobs_failed;
	atomic64_t jobs_timedout;
	atomic64_t engine_cycles[VPUX_ENGINE_KINDS];
	spinlock_t ev_lock;	/* @ev, @ev_head, @ev_count, @ev_off */
	struct vpux_nl_event ev[VPUX_NL_EVENTS];
	u32 ev_head;
	u32 ev_count;
	atomic_t ev_dropped;
	bool ev_off;
	struct work_struct ev_work;
};

/**
 * struct vpux_nl_file - an open file's job counters (ctx-get)
 * @jobs_submitted: jobs SUBMIT pushed
 * @jobs_completed: jobs that completed successfully
 * @jobs_failed: jobs that ended otherwise (timeouts included)
 */
struct vpux_nl_file {
	atomic64_t jobs_submitted;
	atomic64_t jobs_completed;
	atomic64_t jobs_failed;
};

int vpux_nl_module_init(void);
void vpux_nl_module_exit(void);
int vpux_nl_device_add(struct vpux_device *vdev);
void vpux_nl_device_remove(struct vpux_device *vdev);

void vpux_nl_job_submitted(struct vpux_file_priv *fpriv);
void vpux_nl_job_done_locked(struct vpux_device *vdev, struct vpux_job *job,
			     const struct vpux_job_result *res);
void vpux_nl_job_cycles_locked(struct vpux_device *vdev, struct vpux_job *job);
void vpux_nl_notify_hang(struct vpux_device *vdev, struct vpux_job *job);
void vpux_nl_notify_reset(struct vpux_device *vdev, u32 resets);
void vpux_nl_notify_power(struct vpux_device *vdev, bool active);

#endif /* __VPUX_NETLINK_H__ */
