// SPDX-License-Identifier: GPL-2.0-only
/*
 * The job scheduler. One drm_gpu_scheduler per device whose credit limit
 * is the engine core's number of task slots, so every job run_job hands
 * over gets a slot; the core itself decides which ready op of which task
 * gets an idle engine (priority, then age). Files submit through one
 * entity per priority.
 *
 * run_job binds the file's address space to an MMU context slot (slots
 * with no job on the hardware are reused, least recently bound first),
 * and starts the task with dla_execute_task(), which validates the whole
 * task before programming anything. Completion arrives through the
 * interrupt's bottom half (vpux_irq.c), which calls vpux_job_finish().
 *
 * Timeouts: a job whose task still completes ops is given more time, and
 * so (a bounded number of times) is one that waits while the device
 * completes other tasks' ops; one that made no progress while the device
 * made none either (after polling for a lost interrupt) is aborted
 * with dla_clear_task(), which stops only its engines, so other files'
 * jobs run on. Its fence gets -ETIMEDOUT and its file is banned; the
 * engines' state as they hung goes into a devcoredump (vpux_coredump.c).
 */

#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_managed.h>

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_job.h"
#include "vpux_trace.h"

/* timeouts a job may wait without progress while others make some */
#define VPUX_MAX_STALLS		5

static unsigned int job_timeout_ms = 2000;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms, "Time a job may run without progress before it is aborted (ms, default 2000)");

/* ---- the hardware fence: signalled by the bottom half ---- */

static const char *vpux_fence_driver_name(struct dma_fence *fence)
{
	return DRIVER_NAME;
}

static const char *vpux_fence_timeline_name(struct dma_fence *fence)
{
	return "vpux-engine-core";
}

static const struct dma_fence_ops vpux_fence_ops = {
	.get_driver_name = vpux_fence_driver_name,
	.get_timeline_name = vpux_fence_timeline_name,
};

static struct dma_fence *vpux_fence_create(struct vpux_device *vdev)
{
	struct dma_fence *fence = kzalloc(sizeof(*fence), GFP_KERNEL);

	if (!fence)
		return NULL;
	/* tasks finish in any order: a context of its own per fence */
	dma_fence_init(fence, &vpux_fence_ops, &vdev->fence_lock,
		       dma_fence_context_alloc(1), 1);
	return fence;
}

/* ---- MMU context slots ---- */

static int vpux_slot_bind(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx)
{
	u32 n = vdev->hw.ctx_slots, i, victim = n;
	u64 root = vpux_mmu_root_addr(ctx);

	mutex_lock(&vdev->slot_lock);
	if (ctx->slot >= 0) {
		vdev->slots[ctx->slot].active++;
		i = ctx->slot;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!vdev->slots[i].ctx)
			break;
		if (!vdev->slots[i].active && victim == n)
			victim = i;
	}
	if (i == n) {
		struct vpux_mmu_ctx *old;

		/* at most DLA_MAX_TASKS < ctx_slots slots are active */
		if (WARN_ON(victim == n)) {
			mutex_unlock(&vdev->slot_lock);
			return -EBUSY;
		}
		i = victim;
		old = vdev->slots[i].ctx;
		mutex_lock(&old->lock);
		old->slot = -1;
		mutex_unlock(&old->lock);
	}
	vpux_reg_write(vdev, VPUX_REG_MMU_CTRL(i), 0);
	vpux_reg_write(vdev, VPUX_REG_MMU_PT_LO(i), lower_32_bits(root));
	vpux_reg_write(vdev, VPUX_REG_MMU_PT_HI(i), upper_32_bits(root));
	vpux_reg_write(vdev, VPUX_REG_MMU_CTRL(i), VPUX_MMU_CTRL_ENABLE);
	vpux_reg_write(vdev, VPUX_REG_MMU_INVALIDATE, BIT(i));
	mutex_lock(&ctx->lock);
	ctx->slot = i;
	mutex_unlock(&ctx->lock);
	vdev->slots[i].ctx = ctx;
	vdev->slots[i].active = 1;
out:
	mutex_unlock(&vdev->slot_lock);
	return i;
}

static void vpux_slot_put(struct vpux_device *vdev, int slot)
{
	if (slot < 0)
		return;
	mutex_lock(&vdev->slot_lock);
	WARN_ON(!vdev->slots[slot].active);
	vdev->slots[slot].active--;
	mutex_unlock(&vdev->slot_lock);
}

/**
 * vpux_ctx_release_slot() - an address space goes away: unbind its slot
 * @vdev: the device
 * @ctx: the address space; none of its jobs is on the hardware
 */
void vpux_ctx_release_slot(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx)
{
	mutex_lock(&vdev->slot_lock);
	if (ctx->slot >= 0) {
		WARN_ON(vdev->slots[ctx->slot].active);
		vpux_reg_write(vdev, VPUX_REG_MMU_CTRL(ctx->slot), 0);
		vpux_reg_write(vdev, VPUX_REG_MMU_INVALIDATE, BIT(ctx->slot));
		vdev->slots[ctx->slot].ctx = NULL;
		ctx->slot = -1;
	}
	mutex_unlock(&vdev->slot_lock);
}

/* ---- jobs ---- */

/* The job's result, for WAIT by number (the ring) and by BO. */
static void vpux_job_set_result(struct vpux_job *job,
				const struct vpux_job_result *res)
{
	job->slot->result = *res;
	vpux_job_publish_result(job, res);
}

/**
 * vpux_job_finish() - record a job's result and signal its hardware fence
 * @job: a job that left the hardware (or never reached it)
 * @res: its result
 */
void vpux_job_finish(struct vpux_job *job, const struct vpux_job_result *res)
{
	vpux_job_set_result(job, res);
	trace_vpux_job_done(dev_name(job->vdev->drm.dev), job->slot->seqno,
			    res->status, res->error, res->device_cycles);
	if (job->start_ns) {
		atomic64_add(ktime_get_ns() - job->start_ns, &job->fpriv->busy_ns);
		vpux_busy_end(job->vdev);
	}
	if (res->status == DRM_VPUX_STATUS_MMU_FAULT ||
	    res->status == DRM_VPUX_STATUS_TIMEOUT)
		WRITE_ONCE(job->fpriv->banned, true);
	vpux_slot_put(job->vdev, job->hw_slot);
	job->hw_slot = -1;
	if (res->status != DRM_VPUX_STATUS_DONE)
		dma_fence_set_error(job->hw_fence,
				    res->status == DRM_VPUX_STATUS_TIMEOUT ?
				    -ETIMEDOUT : -EIO);
	dma_fence_signal(job->hw_fence);
}

static struct dma_fence *vpux_run_job(struct drm_sched_job *sched_job)
{
	struct vpux_job *job = to_vpux_job(sched_job);
	struct vpux_device *vdev = job->vdev;
	struct vpux_job_result res = { .status = DRM_VPUX_STATUS_ABORTED };
	unsigned long flags;
	int slot, id;

	if (sched_job->s_fence->finished.error) {
		res.error = sched_job->s_fence->finished.error;
		vpux_job_set_result(job, &res);
		return NULL;
	}
	if (READ_ONCE(job->fpriv->banned)) {
		res.error = -EBADFD;
		vpux_job_set_result(job, &res);
		return ERR_PTR(-ECANCELED);
	}

	job->hw_fence = vpux_fence_create(vdev);
	if (!job->hw_fence) {
		res.error = -ENOMEM;
		vpux_job_set_result(job, &res);
		return ERR_PTR(-ENOMEM);
	}
	slot = vpux_slot_bind(vdev, &job->fpriv->ctx);
	if (slot < 0) {
		res.error = slot;
		vpux_job_set_result(job, &res);
		return ERR_PTR(slot);
	}
	job->hw_slot = slot;
	job->start_ns = ktime_get_ns();
	vpux_busy_begin(vdev);

	spin_lock_irqsave(&vdev->fw.lock, flags);
	id = dla_execute_task(vdev->fw.engine, &job->task, slot, job->priority);
	if (id >= 0) {
		job->task_id = id;
		vdev->running[id] = job;
	}
	spin_unlock_irqrestore(&vdev->fw.lock, flags);
	/*
	 * Starting the task may have finished tasks (an op that fails its
	 * re-validation when it is programmed): the core reports them at the
	 * next dla_process_events(), which must not wait for an interrupt
	 * that may never come.
	 */
	if (id >= 0)
		queue_work(vdev->bh_wq, &vdev->bh_work);

	trace_vpux_job_run(dev_name(vdev->drm.dev), job->slot->seqno, slot, id);
	if (id < 0) {
		/* the core refused the task memory; nothing was programmed */
		res.status = DRM_VPUX_STATUS_ERROR;
		res.error = id;
		vpux_job_finish(job, &res);
		return ERR_PTR(-EINVAL);
	}
	/* the scheduler takes over the initial reference */
	return dma_fence_get(job->hw_fence);
}

/* Put a job the timeout handler took off the pending list back. */
static void vpux_sched_skip_reset(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched = sched_job->sched;

	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	/*
	 * The job may have finished while it was off the list (the poll
	 * above found its lost interrupt): the scheduler's free work then
	 * found nothing to free, and nothing queues it again until another
	 * job finishes. Queue it now, or the job is never freed and a close
	 * waiting for its file's jobs waits forever.
	 */
	if (dma_fence_is_signaled(&sched_job->s_fence->finished) &&
	    !READ_ONCE(sched->pause_submit))
		queue_work(sched->submit_wq, &sched->work_free_job);
}

static enum drm_gpu_sched_stat vpux_timedout_job(struct drm_sched_job *sched_job)
{
	struct vpux_job *job = to_vpux_job(sched_job);
	struct vpux_device *vdev = job->vdev;
	struct vpux_job_result res = {
		.status = DRM_VPUX_STATUS_TIMEOUT,
		.error = -ETIMEDOUT,
	};
	struct dla_task_status st;
	unsigned long flags;
	bool hung = false, claimed = false;

	/*
	 * An interrupt may have gone missing: latch whatever the engines
	 * say and let the bottom half process it (and any completion the
	 * core has not reported yet).
	 */
	spin_lock_irqsave(&vdev->fw.lock, flags);
	dla_poll_engines(vdev->fw.engine);
	spin_unlock_irqrestore(&vdev->fw.lock, flags);
	queue_work(vdev->bh_wq, &vdev->bh_work);
	flush_work(&vdev->bh_work);

	spin_lock_irqsave(&vdev->fw.lock, flags);
	if (job->task_id >= 0 && vdev->running[job->task_id] == job &&
	    !dla_task_status(vdev->fw.engine, job->task_id, &st)) {
		u64 cycles = vpux_reg_read64(vdev, VPUX_REG_CYCLES_LO,
					     VPUX_REG_CYCLES_HI);

		if (st.ops_done > job->ops_done) {
			/* its own ops complete: more time */
			job->ops_done = st.ops_done;
			job->stalls = 0;
		} else if (cycles != job->cycles &&
			   job->stalls < VPUX_MAX_STALLS) {
			/*
			 * The device completes other tasks' ops (its clock
			 * moves only then): this one may be waiting for an
			 * engine behind higher priorities, not hung. Bounded.
			 */
			job->stalls++;
		} else {
			hung = true;
		}
		job->cycles = cycles;
	}
	spin_unlock_irqrestore(&vdev->fw.lock, flags);
	trace_vpux_job_timeout(dev_name(vdev->drm.dev), job->slot->seqno,
			       job->ops_done, hung);

	if (hung) {
		/* capture the engines as they hang, before aborting */
		vpux_hang_report(vdev, job, &st);
		spin_lock_irqsave(&vdev->fw.lock, flags);
		if (job->task_id >= 0 && vdev->running[job->task_id] == job) {
			vdev->running[job->task_id] = NULL;
			vpux_profile_record(job, vdev->fw.engine, job->task_id);
			dla_clear_task(vdev->fw.engine, job->task_id);
			job->task_id = -1;
			res.fail_op = st.ops_done;
			res.device_cycles = st.device_cycles;
			res.op_cycles = st.op_cycles;
			claimed = true;
		}
		spin_unlock_irqrestore(&vdev->fw.lock, flags);
	}

	if (!claimed) {
		vpux_sched_skip_reset(sched_job);
		return DRM_GPU_SCHED_STAT_NOMINAL;
	}

	drm_err_ratelimited(&vdev->drm, "job %llu hung after %u of %u ops: aborted\n",
			    job->slot->seqno, st.ops_done, st.ops_total);
	atomic_inc(&vdev->resets);
	/*
	 * Only this task was stopped; every other job is still running in
	 * the core with its completion callback armed, so the scheduler is
	 * not stopped and restarted (that would cancel them while the
	 * hardware still uses their memory). The job goes back on the
	 * pending list and completes, with its error, like any other.
	 */
	vpux_sched_skip_reset(sched_job);
	vpux_job_finish(job, &res);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void vpux_free_job(struct drm_sched_job *sched_job)
{
	struct vpux_job *job = to_vpux_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	vpux_job_free(job);
}

/*
 * KCOV remote coverage: what the scheduler's workers do for a job counts
 * as coverage of the task that submitted it (kcov_remote_start_common()
 * with the handle SUBMIT recorded, Documentation/dev-tools/kcov.rst), as
 * does, approximately, the engine and bottom-half work that follows
 * (vpux_vdev.kcov_handle: the last started job's submitter). Without
 * CONFIG_KCOV these compile to plain calls.
 */
static struct dma_fence *vpux_run_job_kcov(struct drm_sched_job *sched_job)
{
	struct vpux_job *job = to_vpux_job(sched_job);
	struct dma_fence *fence;

	WRITE_ONCE(job->vdev->vdev.kcov_handle, job->kcov_handle);
	kcov_remote_start_common(job->kcov_handle);
	fence = vpux_run_job(sched_job);
	kcov_remote_stop();
	return fence;
}

static enum drm_gpu_sched_stat vpux_timedout_job_kcov(struct drm_sched_job *sched_job)
{
	enum drm_gpu_sched_stat stat;

	kcov_remote_start_common(to_vpux_job(sched_job)->kcov_handle);
	stat = vpux_timedout_job(sched_job);
	kcov_remote_stop();
	return stat;
}

static void vpux_free_job_kcov(struct drm_sched_job *sched_job)
{
	kcov_remote_start_common(to_vpux_job(sched_job)->kcov_handle);
	vpux_free_job(sched_job);
	kcov_remote_stop();
}

static const struct drm_sched_backend_ops vpux_sched_ops = {
	.run_job = vpux_run_job_kcov,
	.timedout_job = vpux_timedout_job_kcov,
	.free_job = vpux_free_job_kcov,
};

static void vpux_sched_fini(struct drm_device *drm, void *arg)
{
	struct vpux_device *vdev = to_vpux_device(drm);

	drm_sched_fini(&vdev->sched);
	WRITE_ONCE(vdev->vdev.irq_handler, NULL);
	irq_work_sync(&vdev->vdev.irq_work);
	destroy_workqueue(vdev->bh_wq);
	vpux_fw_fini(vdev);
}

/**
 * vpux_sched_init() - start the engine core, the interrupt and the scheduler
 * @vdev: an identified, reset device
 *
 * Torn down by a drmm action, in reverse order, once the last file is gone.
 *
 * Return: 0 or a negative errno.
 */
int vpux_sched_init(struct vpux_device *vdev)
{
	const struct drm_sched_init_args args = {
		.ops = &vpux_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = DLA_MAX_TASKS,
		.timeout = msecs_to_jiffies(job_timeout_ms),
		.name = dev_name(vdev->drm.dev),
		.dev = vdev->drm.dev,
	};
	int ret;

	ret = drmm_mutex_init(&vdev->drm, &vdev->slot_lock);
	if (ret)
		return ret;
	if (vdev->hw.ctx_slots <= DLA_MAX_TASKS) {
		vpux_err(vdev, "%u MMU contexts: need more than %u\n",
			 vdev->hw.ctx_slots, DLA_MAX_TASKS);
		return -ENODEV;
	}

	vdev->bh_wq = alloc_ordered_workqueue("%s-bh", WQ_HIGHPRI,
					      dev_name(vdev->drm.dev));
	if (!vdev->bh_wq)
		return -ENOMEM;
	INIT_WORK(&vdev->bh_work, vpux_bh_work);
	spin_lock_init(&vdev->fence_lock);
	spin_lock_init(&vdev->result_lock);
	init_waitqueue_head(&vdev->jobs_freed);

	ret = vpux_fw_init(vdev);
	if (ret)
		goto err_wq;
	WRITE_ONCE(vdev->vdev.irq_handler, vpux_vdev_irq_handler);

	ret = drm_sched_init(&vdev->sched, &args);
	if (ret)
		goto err_fw;

	return drmm_add_action_or_reset(&vdev->drm, vpux_sched_fini, NULL);

err_fw:
	WRITE_ONCE(vdev->vdev.irq_handler, NULL);
	irq_work_sync(&vdev->vdev.irq_work);
	vpux_fw_fini(vdev);
err_wq:
	destroy_workqueue(vdev->bh_wq);
	return ret;
}
