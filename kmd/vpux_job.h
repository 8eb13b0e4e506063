/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Jobs and queues. A job is one task for the engine core, validated and
 * built into kernel memory at SUBMIT; a queue is an in-order stream of a
 * file's jobs with its own drm_gpu_scheduler and fence timeline
 * (Documentation/architecture.rst, "Job model").
 */
#ifndef __VPUX_JOB_H__
#define __VPUX_JOB_H__

#include <linux/iosys-map.h>
#include <linux/kcov.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include <drm/gpu_scheduler.h>

#include "dla_interface.h"
#include "vpux_accel.h"
#include "vpux_fw.h"
#include "vpux_headed.h"
#include "vpux_regs.h"

struct dla_task;
struct drm_gem_object;
struct vpux_device;
struct vpux_bo;
struct vpux_file_priv;
struct vpux_mmu_ctx;

/* Jobs of one file whose result can still be read with WAIT. */
#define VPUX_JOB_RING		256
/* In-syncobjs of one job (DRM_VPUX_PARAM_MAX_IN_SYNCOBJS) */
#define VPUX_MAX_IN_SYNCOBJS	64
/* Queues one file may create (DRM_VPUX_PARAM_MAX_QUEUES) */
#define VPUX_MAX_QUEUES		64
/* GET_PARAM's parameters are 0 .. VPUX_PARAM_COUNT - 1 */
#define VPUX_PARAM_COUNT	(DRM_VPUX_PARAM_CYCLES + 1)
/* Queue priorities: DRM_VPUX_PRIORITY_LOW .. _REALTIME */
#define VPUX_PRIORITIES		(DRM_VPUX_PRIORITY_REALTIME + 1)
/* Jobs a queue hands to the device ahead of the one on the engine core. */
#define VPUX_QUEUE_CREDITS	4

/**
 * struct vpux_job_result - what DRM_IOCTL_VPUX_WAIT reports
 * @status: DRM_VPUX_STATUS_*, 0 while the job has not finished
 * @sys_error: 0 or a negative errno
 * @core_error: 0 or the engine core's code (DLA_ERR_*), the detail
 * @fail_op: engine kind << 24 | op index of the op that failed the task
 * @fault_addr: faulting device address
 * @device_cycles: device cycles from start to completion
 * @op_cycles: sum of the ops' engine cycles
 */
struct vpux_job_result {
	u32 status;
	s32 sys_error;
	u32 core_error;
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
 * struct vpux_queue - an in-order job queue of one file
 * @sched: the queue's scheduler: it resolves the jobs' dependencies and
 *	hands them over in order, at most VPUX_QUEUE_CREDITS ahead
 * @entity: the queue's only entity
 * @vdev: the device (a drm_dev_get() reference)
 * @fpriv: the file (a reference)
 * @ref: held by the file's queue table (or default slot) and by each job
 * @id: the uapi id, 0 for a default queue
 * @priority: DRM_VPUX_PRIORITY_*
 * @fence_ctx: fence context of the jobs' hardware fences
 * @fence_seqno: last hardware fence number (run_job is serialised)
 * @ready: jobs handed over by the scheduler, not yet on the core, in
 *	order (under vpux_device.fw.lock)
 * @active: the job on the engine core, or NULL (under fw.lock)
 * @runq_link: in vpux_device.runq[@priority] while it has a job to
 *	start and none active (under fw.lock)
 * @fini_work: tears the queue down once its last job is freed
 * @destroyed: the file's handle is gone (entity destroyed)
 */
struct vpux_queue {
	struct drm_gpu_scheduler sched;
	struct drm_sched_entity entity;
	struct vpux_device *vdev;
	struct vpux_file_priv *fpriv;
	struct kref ref;
	u32 id;
	u32 priority;
	u64 fence_ctx;
	u64 fence_seqno;
	struct list_head ready;
	struct vpux_job *active;
	struct list_head runq_link;
	struct work_struct fini_work;
	bool destroyed;
};

/**
 * struct vpux_hang_state - the device as a hung job left it
 * @seqno: the job's number in its file
 * @priority: its priority
 * @ctx_slot: the MMU context slot it ran in
 * @st: the engine core's last status of its task
 * @irq_status: VPUX_REG_IRQ_STATUS
 * @irq_mask: VPUX_REG_IRQ_MASK
 * @fault_status: VPUX_REG_FAULT_STATUS
 * @fault_addr: VPUX_REG_FAULT_ADDR
 * @n_engines: entries used in @eng
 * @eng: each engine's kind, status, context, ops done and last op cycles
 *
 * Captured with register reads only, in the fence signalling path; the
 * devcoredump is written from it after the job's fence signalled.
 */
struct vpux_hang_state {
	u64 seqno;
	u32 priority;
	int ctx_slot;
	struct dla_task_status st;
	u32 irq_status;
	u32 irq_mask;
	u32 fault_status;
	u64 fault_addr;
	u32 n_engines;
	struct {
		u32 kind;
		u32 status;
		u32 ctx;
		u32 ops_done;
		u32 op_cycles;
	} eng[VPUX_MAX_ENGINES];
};

/**
 * struct vpux_job - a submitted job
 * @base: the scheduler job
 * @vdev: the device
 * @fpriv: the submitting file (a reference)
 * @queue: the queue it was submitted to (a reference)
 * @slot: the file's record of the job
 * @priority: DRM_VPUX_PRIORITY_*
 * @nbos: entries used in @bos
 * @bos: the distinct BOs of the address list (references)
 * @task_bo: index in @bos of the BO holding the task memory
 * @task_in: the address list as dla_task_prepare() reads it
 * @task_mem: kernel memory holding @task
 * @task: the task as the engine core validated and built it, NULL if
 *	the core refused it
 * @refused: the core's error when it refused the task, else 0
 * @hw_fence: allocated at SUBMIT, initialised by run_job, signalled in
 *	queue order once the job left the engine core
 * @link: in the queue's ready list, then in vpux_device.done
 * @result: filled when the job completes, before @hw_fence signals
 * @task_id: the core's task id while on the engine core, else -1
 * @hw_slot: MMU context slot the job runs in, -1 when not on the core
 * @ops_done: ops completed at the last watchdog check (progress)
 * @cycles: device cycle counter at the last watchdog check
 * @stalls: watchdog checks in a row without progress of its own while
 *	the device completed other ops
 * @quiet: watchdog checks in a row in which nothing completed at all
 * @start_ns: when the job was handed to the engine core
 * @kcov_handle: the submitter's KCOV common handle (0 without KCOV): the
 *	driver's work for the job (the IRQ thread, the free work) counts as
 *	the submitter's coverage
 * @profile: kernel address of the job's struct drm_vpux_profile (in one
 *	of @bos), NULL without DRM_VPUX_SUBMIT_PROFILE
 * @profile_size: bytes of the profile range
 * @profile_times: DRM_VPUX_SUBMIT_PROFILE_TIMES: the profile also gets
 *	each op's engine and start and end cycles
 * @cmx_tiles: the CMX tiles its task uses (dla_task_cmx_tiles())
 * @n_in_fences: entries of @in_fences
 * @in_fences: the fences of the in-syncobjs (references), checked for an
 *	error when the job is about to start (vpux_job_in_fence_error())
 * @charged: bytes of kernel memory the job holds that count against its
 *	file's memory limit (vpux_mem_charge()): the job itself, its prepared
 *	task, its in-fence array and its headed staging buffer
 * @stage: headed mode: what the firmware reads of the job
 * @ent: each address-list entry's BO (index in @bos) and offset in it,
 *	for the devcoredump
 * @inject: the fault injection armed (debugfs) when the job started,
 *	INJECT and INJECT_ARG, for the devcoredump
 * @pm_ref: it holds a runtime PM reference (vpux_pm.c): from SUBMIT
 *	until its hardware fence signalled or it was freed
 * @hung: the watchdog aborted it
 * @hang: the watchdog's capture, if it hung
 * @free_work: writes the devcoredump if one is due, then frees the job
 */
struct vpux_job {
	struct drm_sched_job base;
	struct vpux_device *vdev;
	struct vpux_file_priv *fpriv;
	struct vpux_queue *queue;
	struct vpux_job_slot *slot;
	u32 priority;
	u32 nbos;
	/* every address-list entry's BO, and the profile BO */
	struct drm_gem_object *bos[VPUX_MAX_ADDR_ENTRIES + 1];
	u32 task_bo;
	struct vpux_fw_task_in task_in;
	void *task_mem;
	struct dla_task *task;
	u32 refused;
	struct dma_fence *hw_fence;
	struct list_head link;
	struct vpux_job_result result;
	int task_id;
	int hw_slot;
	u32 ops_done;
	u64 cycles;
	u32 stalls;
	u32 quiet;
	u64 start_ns;
	u64 kcov_handle;
	struct drm_vpux_profile *profile;
	u32 profile_size;
	bool profile_times;
	u64 cmx_tiles;
	u32 n_in_fences;
	struct dma_fence **in_fences;
	u64 charged;
	struct vpux_job_stage stage;
	struct {
		u32 bo;
		u64 offset;
	} ent[VPUX_MAX_ADDR_ENTRIES];
	u32 inject[2];
	bool pm_ref;
	bool hung;
	struct vpux_hang_state hang;
	struct work_struct free_work;
};


static inline struct vpux_job *to_vpux_job(struct drm_sched_job *job)
{
	return container_of(job, struct vpux_job, base);
}

/* vpux_job.c */
int vpux_submit_ioctl(struct drm_device *dev, void *data,
		      struct drm_file *file);
struct vpux_uargs;
int vpux_submit(struct drm_device *dev, struct drm_vpux_submit *args,
		struct drm_file *file, struct vpux_uargs *u);
void vpux_job_free(struct vpux_job *job);
u32 vpux_job_hold_bo(struct vpux_job *job, struct drm_gem_object *obj);
u64 vpux_job_bo_addr(struct vpux_job *job, struct vpux_bo *bo);
int vpux_file_jobs_init(struct vpux_device *vdev, struct vpux_file_priv *fpriv);
void vpux_file_jobs_fini(struct vpux_file_priv *fpriv);

/* vpux_wait.c */
u32 vpux_result_error(const struct vpux_job_result *res);
int vpux_wait_ioctl(struct drm_device *dev, void *data, struct drm_file *file);
int vpux_bo_wait_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file);
void vpux_job_publish_result(struct vpux_job *job);

/* vpux_queue.c */
int vpux_queue_create_ioctl(struct drm_device *dev, void *data,
			    struct drm_file *file);
int vpux_queue_destroy_ioctl(struct drm_device *dev, void *data,
			     struct drm_file *file);
struct dma_fence *vpux_fence_alloc(void);
bool vpux_fence_is_hw(const struct dma_fence *f);
struct vpux_queue *vpux_queue_lookup(struct vpux_file_priv *fpriv, u32 id);
void vpux_queue_put(struct vpux_queue *q);
void vpux_queues_fini(struct vpux_file_priv *fpriv);
int vpux_queues_module_init(void);
void vpux_queues_module_exit(void);
extern struct workqueue_struct *vpux_wq;

/* vpux_sched.c */
int vpux_sched_init(struct vpux_device *vdev);
void vpux_sched_quiesce(struct vpux_device *vdev);
void vpux_sched_queue_job(struct vpux_device *vdev, struct vpux_job *job);
void vpux_sched_complete_locked(struct vpux_device *vdev, struct vpux_job *job,
				const struct vpux_job_result *res);
void vpux_sched_dispatch_locked(struct vpux_device *vdev);
void vpux_sched_signal_done(struct vpux_device *vdev);
void vpux_ctx_release_slot(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx);
void vpux_ctx_invalidate(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx);

/* vpux_cmx.c */
void vpux_cmx_init(struct vpux_device *vdev);
int vpux_cmx_acquire_locked(struct vpux_device *vdev, struct vpux_job *job,
			    u64 *reserved);
void vpux_cmx_release_locked(struct vpux_device *vdev, struct vpux_job *job);
bool vpux_cmx_clearing_locked(struct vpux_device *vdev);

/* vpux_watchdog.c */
int vpux_watchdog_init(struct vpux_device *vdev);
void vpux_watchdog_arm_locked(struct vpux_device *vdev);
void vpux_watchdog_kick(struct vpux_device *vdev);
void vpux_watchdog_fini(struct vpux_device *vdev);
unsigned int vpux_job_timeout_ms(struct vpux_device *vdev);
void vpux_set_job_timeout_ms(struct vpux_device *vdev, unsigned int ms);
unsigned int vpux_job_run_limit_ms(struct vpux_device *vdev);
void vpux_set_job_run_limit_ms(struct vpux_device *vdev, unsigned int ms);

/* vpux_profile.c */
int vpux_profile_attach(struct vpux_job *job, struct drm_file *file,
			const struct drm_vpux_buf *buf, bool times);
void vpux_profile_record(struct vpux_job *job);

/* vpux_coredump.c */
void vpux_hang_capture(struct vpux_device *vdev, struct vpux_job *job,
		       const struct dla_task_status *st,
		       struct vpux_hang_state *hs);
bool vpux_job_wants_dump(struct vpux_job *job);
void vpux_job_dump(struct vpux_job *job);
void vpux_job_release(struct vpux_job *job);

/* vpux_irq.c */
void vpux_events_locked(struct vpux_device *vdev);
void vpux_result_from_status(const struct dla_task_status *st,
			     struct vpux_job_result *res);

#endif /* __VPUX_JOB_H__ */
