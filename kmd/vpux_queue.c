// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queues: a file's in-order streams of jobs. Each queue has a
 * drm_gpu_scheduler of its own with one entity (the model amdxdna,
 * panthor and xe follow: one scheduler per hardware queue), so the
 * entity's fence context belongs to the queue alone, and the device runs
 * one job of a queue at a time (vpux_sched.c), so the queue's jobs finish
 * and their fences signal in submission order, as the dma-fence contract
 * requires of fences of one context. Concurrency comes from queues: jobs
 * of different queues run at once on the engine core.
 *
 * A file gets a default queue (id 0, priority NORMAL) on first use and
 * may create more, of any priority (QUEUE_CREATE). A queue lives
 * until its handle is gone and its last job was freed; the scheduler is
 * torn down from a work item then, never from its own work.
 */

#include <linux/capability.h>
#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "vpux_drv.h"
#include "vpux_job.h"

/* queue teardown and the device watchdogs; WQ_MEM_RECLAIM: fence path */
struct workqueue_struct *vpux_wq;
/* run_job and free_job of every queue's scheduler */
static struct workqueue_struct *vpux_submit_wq;
static atomic_t vpux_live_queues = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(vpux_queues_gone);

/* ---- the hardware fence: signalled in queue order by vpux_sched.c ---- */

static const char *vpux_fence_driver_name(struct dma_fence *fence)
{
	return DRIVER_NAME;
}

static const char *vpux_fence_timeline_name(struct dma_fence *fence)
{
	return "vpux-queue";
}

static const struct dma_fence_ops vpux_fence_ops = {
	.get_driver_name = vpux_fence_driver_name,
	.get_timeline_name = vpux_fence_timeline_name,
};

/**
 * vpux_fence_is_hw() - is @f a job's hardware fence (what run_job returns)
 * @f: any fence
 *
 * Return: true if @f is one of this driver's hardware fences.
 */
bool vpux_fence_is_hw(const struct dma_fence *f)
{
	return f->ops == &vpux_fence_ops;
}

/*
 * The hardware fence carries its own lock: the scheduler's fences keep
 * it (as their parent) after the queue is gone.
 */
struct vpux_fence {
	struct dma_fence base;	/* first: dma_fence_free() frees the whole */
	spinlock_t lock;
};

/**
 * vpux_fence_alloc() - a job's hardware fence, allocated at SUBMIT
 *
 * Return: the fence, not initialised (run_job does), or NULL. Freed with
 * kfree() until initialised, with dma_fence_put() after.
 */
struct dma_fence *vpux_fence_alloc(void)
{
	struct vpux_fence *f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);

	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	return &f->base;
}

/* ---- scheduler backend ---- */

static struct dma_fence *vpux_queue_run_job(struct drm_sched_job *sched_job)
{
	struct vpux_job *job = to_vpux_job(sched_job);
	struct vpux_queue *q = job->queue;
	int error = sched_job->s_fence->finished.error;
	struct dma_fence *fence;
	bool cookie;

	cookie = dma_fence_begin_signalling();
	/* allocated at SUBMIT: nothing here allocates */
	dma_fence_init(job->hw_fence, &vpux_fence_ops,
		       &container_of(job->hw_fence, struct vpux_fence, base)->lock,
		       q->fence_ctx, ++q->fence_seqno);
	fence = dma_fence_get(job->hw_fence);
	/* the bottom half's work counts as this submitter's (vpux_irq.c) */
	WRITE_ONCE(job->vdev->kcov_handle, job->kcov_handle);
	if (error) {
		/* a dependency failed: the job completes, in order, unrun */
		job->result.status = DRM_VPUX_STATUS_ABORTED;
		job->result.sys_error = error;
	} else if (!job->task) {
		job->result.status = DRM_VPUX_STATUS_ERROR;
		job->result.core_error = job->refused;
	}
	vpux_sched_queue_job(job->vdev, job);
	dma_fence_end_signalling(cookie);
	return fence;
}

/*
 * Never called: the queues' schedulers run without a timeout, the
 * device's watchdog (vpux_watchdog.c) looks after hung jobs.
 */
static enum drm_gpu_sched_stat vpux_queue_timedout_job(struct drm_sched_job *sched_job)
{
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void vpux_queue_free_job(struct drm_sched_job *sched_job)
{
	struct vpux_job *job = to_vpux_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	vpux_job_release(job);
}

static const struct drm_sched_backend_ops vpux_queue_ops = {
	.run_job = vpux_queue_run_job,
	.timedout_job = vpux_queue_timedout_job,
	.free_job = vpux_queue_free_job,
};

/* ---- lifetime ---- */

static void vpux_queue_fini_work(struct work_struct *work)
{
	struct vpux_queue *q = container_of(work, struct vpux_queue, fini_work);
	struct vpux_device *vdev = q->vdev;

	drm_sched_fini(&q->sched);
	vpux_file_priv_put(q->fpriv);
	kfree(q);
	drm_dev_put(&vdev->drm);
	if (atomic_dec_and_test(&vpux_live_queues))
		wake_up_all(&vpux_queues_gone);
}

static void vpux_queue_release(struct kref *ref)
{
	struct vpux_queue *q = container_of(ref, struct vpux_queue, ref);

	/* the last put may come from the scheduler's own free_job work */
	queue_work(vpux_wq, &q->fini_work);
}

/**
 * vpux_queue_put() - drop a reference to a queue
 * @q: the queue, or NULL
 */
void vpux_queue_put(struct vpux_queue *q)
{
	if (q)
		kref_put(&q->ref, vpux_queue_release);
}

static struct vpux_queue *vpux_queue_new(struct vpux_file_priv *fpriv,
					 u32 priority, u32 id)
{
	struct vpux_device *vdev = fpriv->vdev;
	struct drm_gpu_scheduler *sched;
	struct drm_sched_init_args args = {
		.ops = &vpux_queue_ops,
		.submit_wq = vpux_submit_wq,
		.num_rqs = 1,
		.credit_limit = VPUX_QUEUE_CREDITS,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = dev_name(vdev->drm.dev),
		.dev = vdev->drm.dev,
	};
	struct vpux_queue *q;
	int ret;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return ERR_PTR(-ENOMEM);
	ret = drm_sched_init(&q->sched, &args);
	if (ret)
		goto err_free;
	sched = &q->sched;
	ret = drm_sched_entity_init(&q->entity, DRM_SCHED_PRIORITY_KERNEL,
				    &sched, 1, NULL);
	if (ret)
		goto err_sched;

	kref_init(&q->ref);
	q->vdev = vdev;
	q->fpriv = fpriv;
	q->id = id;
	q->priority = priority;
	q->fence_ctx = dma_fence_context_alloc(1);
	INIT_LIST_HEAD(&q->ready);
	INIT_LIST_HEAD(&q->runq_link);
	INIT_WORK(&q->fini_work, vpux_queue_fini_work);
	kref_get(&fpriv->ref);
	drm_dev_get(&vdev->drm);
	atomic_inc(&vpux_live_queues);
	return q;

err_sched:
	drm_sched_fini(&q->sched);
err_free:
	kfree(q);
	return ERR_PTR(ret);
}

/*
 * The handle is gone: jobs already queued are handed to the device (or
 * dropped if the process is killed, see drm_sched_entity_flush()); the
 * queue itself goes with its last job.
 */
static void vpux_queue_destroy(struct vpux_queue *q)
{
	drm_sched_entity_destroy(&q->entity);
	vpux_queue_put(q);
}

static int vpux_check_priority(struct vpux_device *vdev, u32 priority)
{
	if (priority >= VPUX_PRIORITIES) {
		vpux_dbg(vdev, "bad priority %u\n", priority);
		return -EINVAL;
	}
	if (priority >= DRM_VPUX_PRIORITY_HIGH && !capable(CAP_SYS_NICE)) {
		vpux_dbg(vdev, "priority %u needs CAP_SYS_NICE\n", priority);
		return -EPERM;
	}
	return 0;
}

/**
 * vpux_queue_lookup() - the queue a job is submitted to
 * @fpriv: the submitting file
 * @id: drm_vpux_submit.queue_id: a queue of the file, or 0
 *
 * With @id 0 the file's default queue, of priority NORMAL, created on
 * first use.
 *
 * Return: a reference to the queue, or ERR_PTR(-ENOENT) for an unknown
 * id, -ENOMEM.
 */
struct vpux_queue *vpux_queue_lookup(struct vpux_file_priv *fpriv, u32 id)
{
	struct vpux_device *vdev = fpriv->vdev;
	struct vpux_queue *q;

	guard(mutex)(&fpriv->job_lock);
	if (id) {
		q = xa_load(&fpriv->queues, id);
		if (!q) {
			vpux_dbg(vdev, "SUBMIT: no queue %u\n", id);
			return ERR_PTR(-ENOENT);
		}
	} else {
		q = fpriv->defq;
		if (!q) {
			q = vpux_queue_new(fpriv, DRM_VPUX_PRIORITY_NORMAL, 0);
			if (IS_ERR(q))
				return q;
			fpriv->defq = q;
		}
	}
	kref_get(&q->ref);
	return q;
}

/**
 * vpux_queue_create_ioctl() - DRM_IOCTL_VPUX_QUEUE_CREATE
 * @dev: DRM device
 * @data: struct drm_vpux_queue_create
 * @file: caller
 *
 * Return: 0; -EINVAL for flags, padding or priority; -EPERM for HIGH or
 * REALTIME without CAP_SYS_NICE; -ENOSPC past VPUX_MAX_QUEUES;
 * -ENOMEM; -ENODEV after unplug.
 */
int vpux_queue_create_ioctl(struct drm_device *dev, void *data,
			    struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct vpux_file_priv *fpriv = file->driver_priv;
	struct drm_vpux_queue_create *args = data;
	struct vpux_queue *q;
	u32 id;
	int idx, ret;

	if (args->flags || args->pad || args->queue_id) {
		vpux_dbg(vdev, "QUEUE_CREATE: non-zero flags, pad or queue_id\n");
		return -EINVAL;
	}
	ret = vpux_check_priority(vdev, args->priority);
	if (ret)
		return ret;
	if (!drm_dev_enter(dev, &idx))
		return -ENODEV;
	q = vpux_queue_new(fpriv, args->priority, 0);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto out_exit;
	}
	mutex_lock(&fpriv->job_lock);
	ret = xa_alloc(&fpriv->queues, &id, q,
		       XA_LIMIT(1, VPUX_MAX_QUEUES), GFP_KERNEL);
	if (!ret)
		q->id = id;
	mutex_unlock(&fpriv->job_lock);
	if (ret) {
		vpux_dbg(vdev, "QUEUE_CREATE: %d (%u queues at most)\n", ret,
			 VPUX_MAX_QUEUES);
		q->destroyed = true;
		vpux_queue_destroy(q);
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto out_exit;
	}
	args->queue_id = id;
out_exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * vpux_queue_destroy_ioctl() - DRM_IOCTL_VPUX_QUEUE_DESTROY
 * @dev: DRM device
 * @data: struct drm_vpux_queue_destroy
 * @file: caller
 *
 * Return: 0; -EINVAL for padding; -ENOENT for an id this file has not.
 */
int vpux_queue_destroy_ioctl(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct vpux_file_priv *fpriv = file->driver_priv;
	struct drm_vpux_queue_destroy *args = data;
	struct vpux_queue *q;

	if (args->pad) {
		vpux_dbg(vdev, "QUEUE_DESTROY: non-zero pad\n");
		return -EINVAL;
	}
	mutex_lock(&fpriv->job_lock);
	q = args->queue_id ? xa_erase(&fpriv->queues, args->queue_id) : NULL;
	if (q)
		q->destroyed = true;
	mutex_unlock(&fpriv->job_lock);
	if (!q) {
		vpux_dbg(vdev, "QUEUE_DESTROY: no queue %u\n", args->queue_id);
		return -ENOENT;
	}
	vpux_queue_destroy(q);
	return 0;
}

/**
 * vpux_queues_fini() - the file is closing: destroy its queues' handles
 * @fpriv: the file
 *
 * Does not wait for jobs on the device: they hold their queue, their
 * BOs and the file's address space until they are freed.
 */
void vpux_queues_fini(struct vpux_file_priv *fpriv)
{
	struct vpux_queue *q;
	unsigned long id;

	mutex_lock(&fpriv->job_lock);
	xa_for_each(&fpriv->queues, id, q)
		q->destroyed = true;
	if (fpriv->defq)
		fpriv->defq->destroyed = true;
	mutex_unlock(&fpriv->job_lock);

	xa_for_each(&fpriv->queues, id, q) {
		xa_erase(&fpriv->queues, id);
		vpux_queue_destroy(q);
	}
	if (fpriv->defq)
		vpux_queue_destroy(fpriv->defq);
	fpriv->defq = NULL;
	xa_destroy(&fpriv->queues);
}

/**
 * vpux_queues_module_init() - the workqueues every queue uses
 *
 * Return: 0 or -ENOMEM.
 */
int vpux_queues_module_init(void)
{
	vpux_wq = alloc_workqueue("vpux", WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!vpux_wq)
		return -ENOMEM;
	/*
	 * Unbound: run_job and free_job run on a CPU other than the
	 * submitter's when one is idle, so with several jobs in flight the
	 * device side works while the submitter submits (a per-CPU queue
	 * halves the 1-op round trip but serialises everything on one CPU,
	 * Documentation/benchmarks.rst).
	 */
	vpux_submit_wq = alloc_workqueue("vpux-submit",
					 WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!vpux_submit_wq) {
		destroy_workqueue(vpux_wq);
		return -ENOMEM;
	}
	return 0;
}

/**
 * vpux_queues_module_exit() - wait for the last queue, drop the workqueues
 *
 * Every device is removed and every file closed by now; queues whose
 * last jobs are still being freed go in bounded time (their devices
 * completed every job when they were removed).
 */
void vpux_queues_module_exit(void)
{
	wait_event(vpux_queues_gone, !atomic_read(&vpux_live_queues));
	destroy_workqueue(vpux_wq);
	destroy_workqueue(vpux_submit_wq);
}
