/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Jobs: one task for the engine core, queued through drm_sched.
 */
#ifndef __VPUX_JOB_H__
#define __VPUX_JOB_H__

#include <linux/iosys-map.h>
#include <linux/kcov.h>
#include <linux/kref.h>
#include <linux/mutex.h>

#include <drm/gpu_scheduler.h>

#include "vpux_accel.h"
#include "vpux_fw.h"

struct drm_gem_object;
struct vpux_device;
struct vpux_bo;
struct vpux_file_priv;
struct vpux_mmu_ctx;

/* Jobs of one file whose result can still be read with WAIT. */
#define VPUX_JOB_RING		256
/* Entities per file: one per uapi priority. */
#define VPUX_PRIORITIES		(DRM_VPUX_PRIORITY_REALTIME + 1)

/**
 * struct vpux_job_result - what DRM_IOCTL_VPUX_WAIT reports
 * @status: DRM_VPUX_STATUS_*, 0 while the job has not finished
 * @error: 0, a negative DLA_ERR_* or errno
 * @fail_op: engine kind << 24 | op index of the op that failed the task
 * @fault_addr: faulting device address
 * @device_cycles: device cycles from start to completion
 * @op_cycles: sum of the ops' engine cycles
 */
struct vpux_job_result {
	u32 status;
	s32 error;
	u32 fail_op;
	u64 fault_addr;
	u64 device_cycles;
	u64 op_cycles;
};

/**
 * struct vpux_job_slot - a file's record of one submitted job
 * @seqno: the job's number, 0 if the record is unused
 * @done: the job's scheduler-finished fence (a reference)
 * @result: written once, before the job's hardware fence signals
 */
struct vpux_job_slot {
	u64 seqno;
	struct dma_fence *done;
	struct vpux_job_result result;
};

/**
 * struct vpux_job - a submitted job
 * @base: the scheduler job
 * @vdev: the device
 * @fpriv: the submitting file (a reference)
 * @slot: the file's record of the job
 * @priority: DRM_VPUX_PRIORITY_*
 * @nbos: entries used in @bos
 * @bos: the distinct BOs of the address list (references)
 * @task_bo: index in @bos of the BO holding the task memory
 * @task: the address list as the engine core reads it
 * @hw_fence: signalled when the engine core finished the task
 * @task_id: the core's task id while on the hardware, else -1
 * @hw_slot: MMU context slot the job runs in, -1 before run_job
 * @ops_done: ops completed at the last timeout check (progress)
 * @start_ns: when run_job handed the task to the core
 * @cycles: device cycle counter at the last timeout check
 * @stalls: timeouts in a row without progress of its own
 * @kcov_handle: the submitter's KCOV common handle (0 without KCOV): the
 *	scheduler's work for the job counts as the submitter's coverage
 * @profile: kernel address of the job's struct drm_vpux_profile (in one
 *	of @bos), NULL without DRM_VPUX_SUBMIT_PROFILE
 * @profile_size: bytes of the profile range
 */
struct vpux_job {
	struct drm_sched_job base;
	struct vpux_device *vdev;
	struct vpux_file_priv *fpriv;
	struct vpux_job_slot *slot;
	u32 priority;
	u32 nbos;
	/* every address-list entry's BO, and the profile BO */
	struct drm_gem_object *bos[DRM_VPUX_MAX_ADDR_ENTRIES + 1];
	u32 task_bo;
	struct vpux_fw_task task;
	struct dma_fence *hw_fence;
	int task_id;
	int hw_slot;
	u32 ops_done;
	u64 start_ns;
	u64 cycles;
	u32 stalls;
	u64 kcov_handle;
	struct drm_vpux_profile *profile;
	u32 profile_size;
};

static inline struct vpux_job *to_vpux_job(struct drm_sched_job *job)
{
	return container_of(job, struct vpux_job, base);
}

/* vpux_job.c */
int vpux_submit_ioctl(struct drm_device *dev, void *data,
		      struct drm_file *file);
int vpux_wait_ioctl(struct drm_device *dev, void *data, struct drm_file *file);
void vpux_job_free(struct vpux_job *job);
u32 vpux_job_hold_bo(struct vpux_job *job, struct drm_gem_object *obj);
u64 vpux_job_bo_addr(struct vpux_job *job, struct vpux_bo *bo);
void vpux_job_publish_result(struct vpux_job *job,
			     const struct vpux_job_result *res);
int vpux_file_jobs_init(struct vpux_device *vdev, struct vpux_file_priv *fpriv);
void vpux_file_jobs_fini(struct vpux_file_priv *fpriv);

/* vpux_sched.c */
int vpux_sched_init(struct vpux_device *vdev);
void vpux_job_finish(struct vpux_job *job, const struct vpux_job_result *res);
void vpux_ctx_release_slot(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx);

/* vpux_profile.c */
int vpux_profile_attach(struct vpux_job *job, struct drm_file *file,
			const struct drm_vpux_buf *buf);
void vpux_profile_record(struct vpux_job *job, void *engine, u32 task_id);

/* vpux_coredump.c */
struct dla_task_status;
void vpux_hang_report(struct vpux_device *vdev, struct vpux_job *job,
		      const struct dla_task_status *st);

/* vpux_irq.c */
struct vpux_vdev;
void vpux_vdev_irq_handler(struct vpux_vdev *v);
void vpux_bh_work(struct work_struct *work);

#endif /* __VPUX_JOB_H__ */
