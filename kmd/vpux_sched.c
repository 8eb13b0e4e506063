// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device side of the job model. Queues (vpux_queue.c) hand their jobs
 * over in order once the jobs' dependencies are met; here each queue
 * runs one job at a time on the engine core, the core's task slots go to
 * the queues with a job to start (highest priority first, FIFO among
 * equals), every job is bound to an MMU context slot for its file's
 * address space, and finished jobs have their fences signalled in the
 * order they finished, which within a queue is the queue's order.
 *
 * Everything here runs under vpux_fw.lock, the lock of the engine core (a
 * mutex), in process context: the interrupt's bottom half (vpux_irq.c)
 * completes jobs and starts the next ones, run_job hands jobs over, the
 * watchdog aborts. It is in the fence signalling path: no allocation that
 * may wait for reclaim, no fence wait. Tasks were validated and built at
 * SUBMIT, so starting one only programs registers.
 *
 * Fences are signalled by vpux_sched_signal_done() after fw.lock is
 * dropped, under signal_lock, which serialises the signallers so that
 * the order of vpux_device.done is the order of signalling.
 */

#include <linux/dma-fence.h>
#include <linux/dma-fence-array.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include <drm/drm_managed.h>

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_job.h"
#include "vpux_trace.h"

/* ---- MMU context slots ---- */

static int vpux_slot_bind_locked(struct vpux_device *vdev,
				 struct vpux_mmu_ctx *ctx)
{
	u32 n = vdev->hw.ctx_slots, i, victim = n;
	u64 root = vpux_mmu_root_addr(ctx);

	lockdep_assert_held(&vdev->fw.lock);
	if (ctx->slot >= 0) {
		vdev->slots[ctx->slot].active++;
		return ctx->slot;
	}
	for (i = 0; i < n; i++) {
		if (!vdev->slots[i].ctx)
			break;
		if (!vdev->slots[i].active && victim == n)
			victim = i;
	}
	if (i == n) {
		/* at most DLA_MAX_TASKS < ctx_slots slots are active */
		if (WARN_ON(victim == n))
			return -EBUSY;
		i = victim;
		vdev->slots[i].ctx->slot = -1;
	}
	vpux_reg_write(vdev, VPUX_REG_MMU_CTRL(i), 0);
	vpux_reg_write(vdev, VPUX_REG_MMU_PT_LO(i), lower_32_bits(root));
	vpux_reg_write(vdev, VPUX_REG_MMU_PT_HI(i), upper_32_bits(root));
	vpux_reg_write(vdev, VPUX_REG_MMU_CTRL(i), VPUX_MMU_CTRL_ENABLE);
	vpux_reg_write(vdev, VPUX_REG_MMU_INVALIDATE, BIT(i));
	ctx->slot = i;
	vdev->slots[i].ctx = ctx;
	vdev->slots[i].active = 1;
	return i;
}

static void vpux_slot_put_locked(struct vpux_device *vdev, int slot)
{
	lockdep_assert_held(&vdev->fw.lock);
	if (slot < 0)
		return;
	WARN_ON(!vdev->slots[slot].active);
	vdev->slots[slot].active--;
}

/**
 * vpux_ctx_invalidate() - drop the MMU's cached translations of @ctx
 * @vdev: the device
 * @ctx: an address space whose page tables changed
 *
 * Only a bound address space has translations cached.
 */
void vpux_ctx_invalidate(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx)
{
	mutex_lock(&vdev->fw.lock);
	/* powered off, the MMU caches nothing */
	if (ctx->slot >= 0 && !vdev->dead && !vdev->pm.off)
		vpux_reg_write(vdev, VPUX_REG_MMU_INVALIDATE, BIT(ctx->slot));
	mutex_unlock(&vdev->fw.lock);
}

/**
 * vpux_ctx_release_slot() - an address space goes away: unbind its slot
 * @vdev: the device
 * @ctx: the address space; none of its jobs is on the hardware
 */
void vpux_ctx_release_slot(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx)
{
	mutex_lock(&vdev->fw.lock);
	if (ctx->slot >= 0) {
		WARN_ON(vdev->slots[ctx->slot].active);
		if (!vdev->dead && !vdev->pm.off) {
			vpux_reg_write(vdev, VPUX_REG_MMU_CTRL(ctx->slot), 0);
			vpux_reg_write(vdev, VPUX_REG_MMU_INVALIDATE,
				       BIT(ctx->slot));
		}
		vdev->slots[ctx->slot].ctx = NULL;
		ctx->slot = -1;
	}
	mutex_unlock(&vdev->fw.lock);
}

/* task slots one file may hold: all but one */
#define VPUX_FILE_MAX_TASKS	(DLA_MAX_TASKS - 1)

/* ---- starting and completing jobs ---- */

static void vpux_runq_add_locked(struct vpux_device *vdev, struct vpux_queue *q)
{
	if (!q->active && !list_empty(&q->ready) && list_empty(&q->runq_link))
		list_add_tail(&q->runq_link, &vdev->runq[q->priority]);
}

/*
 * The error of in-fence @f as the job about to start must see it. Every
 * in-fence has signalled by then except the finished fences of earlier
 * jobs of the job's own queue: drm_sched waits only for those to be
 * scheduled (drm_sched_entity_add_dependency_cb(), same scheduler), and
 * the queue's order does the rest. Such an earlier job has completed
 * here, under fw.lock, and vpux_job_done_locked() put its error on its
 * hardware fence, the one run_job returned, which drm_sched publishes as
 * the scheduler fence's parent before it signals the scheduled fence
 * (drm_sched_fence_scheduled()). Only that public field is read; the
 * scheduler's own finished fence is left to drm_sched.
 */
static int vpux_in_fence_error(struct dma_fence *f)
{
	struct drm_sched_fence *sf = to_drm_sched_fence(f);
	int status;

	if (sf && f == &sf->finished) {
		/* pairs with drm_sched_fence_set_parent()'s release */
		struct dma_fence *hw = smp_load_acquire(&sf->parent);

		if (hw && vpux_fence_is_hw(hw))
			return READ_ONCE(hw->error);
	}
	status = dma_fence_get_status(f);
	return status < 0 ? status : 0;
}

/*
 * The error of the first failed in-syncobj fence of @job, or 0
 * (vpux_in_fence_error()). The fence of a timeline point counts, not the
 * points before it; a merged fence (dma_fence_array) fails if any of its
 * fences failed.
 */
static int vpux_job_in_fence_error(struct vpux_job *job)
{
	struct dma_fence *f;
	unsigned int k;
	u32 i;
	int err;

	/*
	 * dma_fence_array_for_each() takes no reference, so it may be left
	 * early (dma_fence_unwrap_for_each() may not: its cursor holds one).
	 * A merged sync_file is a flat array; a timeline point was unwrapped
	 * at SUBMIT.
	 */
	for (i = 0; i < job->n_in_fences; i++) {
		dma_fence_array_for_each(f, k, job->in_fences[i]) {
			err = vpux_in_fence_error(f);
			if (err < 0)
				return err;
		}
	}
	return 0;
}

/* The error a failed job's fences carry */
static int vpux_job_fence_error(const struct vpux_job_result *res)
{
	return res->sys_error ? res->sys_error : -EIO;
}

/* Why @job completes without running, or false if it is to run. */
static bool vpux_job_skipped(struct vpux_device *vdev, struct vpux_job *job,
			     struct vpux_job_result *res)
{
	int err = job->result.status ? 0 : vpux_job_in_fence_error(job);

	if (job->result.status) {
		*res = job->result;	/* decided by run_job */
	} else if (err) {
		vpux_dbg(vdev, "job %llu: an in-fence failed (%d): not run\n",
			 job->slot->seqno, err);
		res->status = DRM_VPUX_STATUS_ABORTED;
		res->sys_error = -ECANCELED;
	} else if (vdev->dead) {
		res->status = DRM_VPUX_STATUS_ABORTED;
		res->sys_error = -ENODEV;
	} else if (vdev->mc.failed) {
		res->status = DRM_VPUX_STATUS_ABORTED;
		res->sys_error = -EIO;
	} else if (READ_ONCE(job->fpriv->banned)) {
		res->status = DRM_VPUX_STATUS_ABORTED;
		res->sys_error = -EBADFD;
	} else {
		return false;
	}
	return true;
}

/*
 * Give @job its CMX tiles, a core slot and an MMU context slot: 0 when it
 * runs, -EAGAIN when it must wait for CMX (@reserved: see
 * vpux_cmx_acquire_locked()), another errno when it failed (@res).
 */
static int vpux_job_start_locked(struct vpux_device *vdev,
				 struct vpux_job *job,
				 struct vpux_job_result *res, u64 *reserved)
{
	int slot, id;

	if (vpux_cmx_acquire_locked(vdev, job, reserved))
		return -EAGAIN;
	slot = vpux_slot_bind_locked(vdev, &job->fpriv->ctx);
	if (slot < 0) {
		vpux_cmx_release_locked(vdev, job);
		res->status = DRM_VPUX_STATUS_ERROR;
		res->sys_error = slot;
		return slot;
	}
	if (vdev->mc.on)
		id = vpux_headed_run_locked(vdev, job, slot);
	else
		id = dla_task_start(vdev->fw.engine, job->task, slot,
				    job->priority);
	trace_vpux_job_run(dev_name(vdev->drm.dev), job->slot->seqno, slot, id);
	if (id < 0) {
		vpux_slot_put_locked(vdev, slot);
		vpux_cmx_release_locked(vdev, job);
		res->status = DRM_VPUX_STATUS_ERROR;
		res->core_error = -id;
		return -EIO;
	}
	job->task_id = id;
	job->hw_slot = slot;
	job->ops_done = 0;
	job->stalls = 0;
	job->quiet = 0;
	job->start_ns = ktime_get_ns();
	job->inject[0] = READ_ONCE(vdev->inject[0]);
	job->inject[1] = READ_ONCE(vdev->inject[1]);
	job->cycles = vpux_reg_read64(vdev, VPUX_REG_CYCLES_LO,
				      VPUX_REG_CYCLES_HI);
	vdev->running[id] = job;
	vdev->n_running++;
	job->fpriv->n_running++;
	vpux_busy_begin_locked(vdev);
	vpux_watchdog_arm_locked(vdev);
	return 0;
}

static void vpux_job_done_locked(struct vpux_device *vdev,
				 struct vpux_job *job,
				 const struct vpux_job_result *res)
{
	job->result = *res;
	/* not for -ETIME: a job over the run-time limit did not hang */
	if (res->status == DRM_VPUX_STATUS_MMU_FAULT ||
	    (res->status == DRM_VPUX_STATUS_TIMEOUT &&
	     res->sys_error == -ETIMEDOUT))
		WRITE_ONCE(job->fpriv->banned, true);
	/*
	 * The error is known now: set it on the hardware fence before it
	 * signals, so that a later job of the queue with this job's
	 * finished fence as in-syncobj sees it when it starts
	 * (vpux_in_fence_error()); drm_sched copies it to the finished
	 * fence when the hardware fence signals.
	 */
	if (res->status != DRM_VPUX_STATUS_DONE)
		dma_fence_set_error(job->hw_fence, vpux_job_fence_error(res));
	vpux_nl_job_done_locked(vdev, job, res);
	list_add_tail(&job->link, &vdev->done);
}

/*
 * Start @q's next job, or complete the jobs at its head that are not to
 * run: false when the engine core is full (nothing more can start).
 */
static bool vpux_sched_dispatch_queue(struct vpux_device *vdev,
				      struct vpux_queue *q, u64 *reserved)
{
	while (!list_empty(&q->ready)) {
		struct vpux_job *job = list_first_entry(&q->ready,
							struct vpux_job, link);
		struct vpux_job_result res = { 0 };

		if (!vpux_job_skipped(vdev, job, &res)) {
			int ret;

			if (vdev->n_running == DLA_MAX_TASKS)
				return false;
			/*
			 * One task slot is always left to the other files:
			 * no file alone can keep them from the NPU, however
			 * long its jobs run (architecture.rst, "Sharing").
			 */
			if (job->fpriv->n_running >= VPUX_FILE_MAX_TASKS)
				return true;
			ret = vpux_job_start_locked(vdev, job, &res, reserved);
			if (ret == -EAGAIN)
				return true;	/* waits for CMX */
			if (!ret) {
				list_del_init(&job->link);
				list_del_init(&q->runq_link);
				q->active = job;
				return true;
			}
		}
		list_del_init(&job->link);
		vpux_job_done_locked(vdev, job, &res);
	}
	list_del_init(&q->runq_link);
	return true;
}

/**
 * vpux_sched_dispatch_locked() - start jobs while core slots are free
 * @vdev: the device, fw.lock held
 *
 * The queues are visited by priority, oldest first within one. Jobs
 * that are not to run (refused, banned file, failed dependency, device
 * gone) complete at their turn in their queue without a slot; a job
 * whose CMX tiles are not its file's yet waits (vpux_cmx.c) without
 * holding up the queues behind it.
 */
void vpux_sched_dispatch_locked(struct vpux_device *vdev)
{
	struct vpux_queue *q, *tmp;
	u64 reserved = 0;
	int p;

	lockdep_assert_held(&vdev->fw.lock);
	/* headed, while the firmware is reloaded: the jobs wait */
	if (vdev->mc.down && !vdev->mc.failed && !vdev->dead)
		return;
	/* powered off, or system sleep under way: the jobs wait */
	if ((vdev->pm.off || vdev->pm.hold) && !vdev->dead)
		return;
	for (p = VPUX_PRIORITIES - 1; p >= 0; p--)
		list_for_each_entry_safe(q, tmp, &vdev->runq[p], runq_link)
			if (!vpux_sched_dispatch_queue(vdev, q, &reserved))
				return;
}

/**
 * vpux_sched_complete_locked() - a job leaves the engine core
 * @vdev: the device, fw.lock held
 * @job: a job on the core (vpux_device.running)
 * @res: its result
 *
 * Releases its core slot (aborting what still runs of it), records its
 * profile and queues its fence for vpux_sched_signal_done(). The caller
 * dispatches next.
 */
void vpux_sched_complete_locked(struct vpux_device *vdev, struct vpux_job *job,
				const struct vpux_job_result *res)
{
	struct vpux_queue *q = job->queue;

	lockdep_assert_held(&vdev->fw.lock);
	vdev->running[job->task_id] = NULL;
	vdev->n_running--;
	job->fpriv->n_running--;
	vpux_cmx_release_locked(vdev, job);
	/* headed: the firmware cleared it before it posted the completion */
	if (!vdev->mc.on)
		dla_clear_task(vdev->fw.engine, job->task_id);
	job->task_id = -1;
	vpux_profile_record(job);
	vpux_nl_job_cycles_locked(vdev, job);
	atomic64_add(ktime_get_ns() - job->start_ns, &job->fpriv->busy_ns);
	vpux_busy_end_locked(vdev);
	vpux_slot_put_locked(vdev, job->hw_slot);
	job->hw_slot = -1;
	vpux_job_done_locked(vdev, job, res);
	q->active = NULL;
	vpux_runq_add_locked(vdev, q);
}

/**
 * vpux_sched_queue_job() - the queue's scheduler hands a job over
 * @vdev: the device
 * @job: its dependencies are met; run_job initialised its fence
 *
 * In the fence signalling path (run_job): allocates nothing.
 */
void vpux_sched_queue_job(struct vpux_device *vdev, struct vpux_job *job)
{
	mutex_lock(&vdev->fw.lock);
	list_add_tail(&job->link, &job->queue->ready);
	vpux_runq_add_locked(vdev, job->queue);
	vpux_sched_dispatch_locked(vdev);
	mutex_unlock(&vdev->fw.lock);
	vpux_sched_signal_done(vdev);
}

static void vpux_job_signal(struct vpux_job *job)
{
	const struct vpux_job_result *res = &job->result;
	struct dma_fence *fence = job->hw_fence;

	job->slot->result = *res;
	vpux_job_publish_result(job);
	trace_vpux_job_done(dev_name(job->vdev->drm.dev), job->slot->seqno,
			    res->status, res->core_error ? -res->core_error :
			    res->sys_error, res->device_cycles);
	/* its error, if any, was set when it completed */
	/* the NPU may autosuspend once the last job is done with it */
	vpux_pm_job_put(job);
	/* the job may be freed as soon as its fence signalled */
	dma_fence_signal(fence);
}

/**
 * vpux_sched_signal_done() - signal the fences of completed jobs
 * @vdev: the device; fw.lock not held
 *
 * Process context (the interrupt's thread, run_job, the watchdog, ...).
 * Completions are signalled in the order they happened, which keeps
 * every queue's fences in order, whichever context got here first.
 *
 * A fence signalling section of its own: signal_lock is a mutex now, so
 * dma_fence_signal() under it is no longer in atomic context, where its
 * lockdep annotation used to be skipped. Every caller must therefore take
 * signal_lock inside a signalling section, or lockdep sees signal_lock
 * both inside and around dma_fence_map (seen from the headed reload,
 * which is not annotated itself).
 */
void vpux_sched_signal_done(struct vpux_device *vdev)
{
	struct vpux_job *job, *tmp;
	bool cookie;
	LIST_HEAD(done);

	cookie = dma_fence_begin_signalling();
	scoped_guard(mutex, &vdev->signal_lock) {
		scoped_guard(mutex, &vdev->fw.lock)
			list_splice_init(&vdev->done, &done);
		list_for_each_entry_safe(job, tmp, &done, link) {
			list_del_init(&job->link);
			vpux_job_signal(job);
		}
	}
	dma_fence_end_signalling(cookie);
	vpux_pm_wake(vdev);
}

/**
 * vpux_sched_quiesce() - stop the device before its registers go away
 * @vdev: the device, unplugged
 *
 * Every job on the engine core is aborted (its ops stop before its fence
 * signals), every job handed over and every later one completes with
 * -ENODEV; the watchdog stops, the core is unbound and the device is
 * masked and reset. No register is touched after this returns.
 * Idempotent (remove, or release after a failed probe).
 */
void vpux_sched_quiesce(struct vpux_device *vdev)
{
	struct vpux_job_result res = {
		.status = DRM_VPUX_STATUS_ABORTED,
		.sys_error = -ENODEV,
	};
	u32 id;

	mutex_lock(&vdev->fw.lock);
	if (vdev->dead) {
		mutex_unlock(&vdev->fw.lock);
		return;
	}
	/* masked in the step the top half learns it must not ack */
	scoped_guard(spinlock_irq, &vdev->fw.isr_lock) {
		vdev->dead = true;
		if (!vdev->pm.off)
			vpux_reg_write(vdev, VPUX_REG_IRQ_MASK, 0);
	}
	/* headed: the firmware's ops stop before their jobs complete */
	if (vdev->mc.on)
		vpux_headed_stop_locked(vdev);
	for (id = 0; id < DLA_MAX_TASKS; id++)
		if (vdev->running[id])
			vpux_sched_complete_locked(vdev, vdev->running[id], &res);
	vpux_sched_dispatch_locked(vdev);
	mutex_unlock(&vdev->fw.lock);
	vpux_sched_signal_done(vdev);

	vpux_watchdog_fini(vdev);
	vpux_headed_fini(vdev);
	vpux_fw_fini(vdev);
	vpux_hw_quiesce(vdev);
}

static void vpux_sched_release(struct drm_device *drm, void *arg)
{
	vpux_sched_quiesce(to_vpux_device(drm));
}

/*
 * Teach lockdep at probe what the fence signalling path takes, so that a
 * regression (an allocation under one of these locks, or one of them
 * taken around a fence wait) is reported on its first run rather than
 * when memory is short (Documentation/architecture.rst). The interrupt's
 * top half takes fw.isr_lock with interrupts off, inside fw.lock.
 */
static void vpux_sched_prime_lockdep(struct vpux_device *vdev)
{
	unsigned long flags;
	bool cookie;

	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;
	fs_reclaim_acquire(GFP_KERNEL);
	might_lock(&vdev->signal_lock);
	might_lock(&vdev->fw.lock);
	might_lock(&vdev->result_lock);
	fs_reclaim_release(GFP_KERNEL);

	cookie = dma_fence_begin_signalling();
	mutex_lock(&vdev->signal_lock);
	mutex_lock(&vdev->fw.lock);
	local_irq_save(flags);
	might_lock(&vdev->fw.isr_lock);
	might_lock(&vdev->result_lock);
	local_irq_restore(flags);
	mutex_unlock(&vdev->fw.lock);
	mutex_unlock(&vdev->signal_lock);
	dma_fence_end_signalling(cookie);
}

/**
 * vpux_sched_init() - start the engine core, the interrupt and the watchdog
 * @vdev: an identified, reset device
 *
 * vpux_sched_quiesce() undoes it (at remove, or at release after a
 * failed probe).
 *
 * Return: 0 or a negative errno.
 */
int vpux_sched_init(struct vpux_device *vdev)
{
	int p, ret;

	if (vdev->hw.ctx_slots <= DLA_MAX_TASKS) {
		vpux_err(vdev, "%u MMU contexts: need more than %u\n",
			 vdev->hw.ctx_slots, DLA_MAX_TASKS);
		return -ENODEV;
	}
	if (!(vdev->hw.caps & VPUX_CAP_CMX_CLEAR)) {
		/* CMX is not behind the MMU: files would see each other's */
		vpux_err(vdev, "no CMX clear: cannot keep files apart\n");
		return -ENODEV;
	}
	vpux_cmx_init(vdev);
	for (p = 0; p < VPUX_PRIORITIES; p++)
		INIT_LIST_HEAD(&vdev->runq[p]);
	INIT_LIST_HEAD(&vdev->done);
	ret = drmm_mutex_init(&vdev->drm, &vdev->signal_lock);
	if (ret)
		return ret;
	spin_lock_init(&vdev->result_lock);
	ret = vpux_watchdog_init(vdev);
	if (ret)
		return ret;

	ret = vpux_fw_init(vdev);
	if (ret)
		return ret;
	vpux_sched_prime_lockdep(vdev);
	ret = drmm_add_action_or_reset(&vdev->drm, vpux_sched_release, NULL);
	if (ret)
		return ret;
	return vpux_irq_init(vdev);
}
