// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job submission and waiting. SUBMIT turns the caller's address list
 * (GEM handles + ranges) into device addresses of the file's address
 * space, maps the task memory for the engine core, gathers the in-fences
 * (syncobjs and the BOs' reservations) and pushes the job to the file's
 * scheduler entity for its priority. The job's finished fence goes into
 * every BO's dma_resv, the out syncobj, and the file's ring of the last
 * VPUX_JOB_RING jobs, which WAIT reads.
 */

#include <linux/dma-fence-array.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_syncobj.h>
#include <drm/drm_utils.h>

#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_job.h"
#include "vpux_trace.h"

static const enum drm_sched_priority vpux_sched_prio[VPUX_PRIORITIES] = {
	[DRM_VPUX_PRIORITY_LOW] = DRM_SCHED_PRIORITY_LOW,
	[DRM_VPUX_PRIORITY_NORMAL] = DRM_SCHED_PRIORITY_NORMAL,
	[DRM_VPUX_PRIORITY_HIGH] = DRM_SCHED_PRIORITY_HIGH,
	[DRM_VPUX_PRIORITY_REALTIME] = DRM_SCHED_PRIORITY_KERNEL,
};

/**
 * vpux_file_jobs_init() - the job side of a new file
 * @vdev: the device
 * @fpriv: the file, with its address space set up
 *
 * Return: 0 or a negative errno.
 */
int vpux_file_jobs_init(struct vpux_device *vdev, struct vpux_file_priv *fpriv)
{
	struct drm_gpu_scheduler *sched = &vdev->sched;
	int i, ret;

	mutex_init(&fpriv->job_lock);
	fpriv->next_seqno = 1;
	for (i = 0; i < VPUX_PRIORITIES; i++) {
		ret = drm_sched_entity_init(&fpriv->entity[i], vpux_sched_prio[i],
					    &sched, 1, NULL);
		if (ret)
			goto err_entities;
	}
	return 0;

err_entities:
	while (i--)
		drm_sched_entity_destroy(&fpriv->entity[i]);
	mutex_destroy(&fpriv->job_lock);
	return ret;
}

/**
 * vpux_file_jobs_fini() - the file is closing: drain its jobs
 * @fpriv: the file
 *
 * Queued jobs are flushed to the hardware (or dropped when that takes
 * too long), then every job still running is waited for (each is bounded
 * by the job timeout), and then for the scheduler to free them all, so
 * the address space and the device can be torn down safely.
 */
void vpux_file_jobs_fini(struct vpux_file_priv *fpriv)
{
	int i;

	for (i = 0; i < VPUX_PRIORITIES; i++)
		drm_sched_entity_destroy(&fpriv->entity[i]);
	for (i = 0; i < VPUX_JOB_RING; i++) {
		struct vpux_job_slot *slot = &fpriv->ring[i];

		if (slot->done)
			dma_fence_wait(slot->done, false);
	}
	/*
	 * The scheduler frees finished jobs a little later, and they hold
	 * the file's BOs: a close that is the device's last reference (after
	 * an unplug) must not release the device under them.
	 */
	wait_event(fpriv->vdev->jobs_freed, !atomic_read(&fpriv->jobs));
}

/* Called by the last put of the file private. */
static void vpux_file_jobs_release(struct vpux_file_priv *fpriv)
{
	int i;

	for (i = 0; i < VPUX_JOB_RING; i++)
		dma_fence_put(fpriv->ring[i].done);
	mutex_destroy(&fpriv->job_lock);
}

static void vpux_file_priv_release(struct kref *ref)
{
	struct vpux_file_priv *fpriv = container_of(ref, struct vpux_file_priv, ref);

	vpux_ctx_release_slot(fpriv->vdev, &fpriv->ctx);
	vpux_mmu_ctx_fini(&fpriv->ctx);
	vpux_file_jobs_release(fpriv);
	kvfree(fpriv);
}

/**
 * vpux_file_priv_put() - drop a reference to a file's state
 * @fpriv: the file
 */
void vpux_file_priv_put(struct vpux_file_priv *fpriv)
{
	kref_put(&fpriv->ref, vpux_file_priv_release);
}

/**
 * vpux_job_free() - release everything a job holds
 * @job: the job, off the scheduler (or never pushed to it)
 */
void vpux_job_free(struct vpux_job *job)
{
	u32 i;

	for (i = 0; i < job->nbos; i++)
		drm_gem_object_put(job->bos[i]);
	dma_fence_put(job->hw_fence);
	if (job->fpriv) {
		if (atomic_dec_and_test(&job->fpriv->jobs))
			wake_up_all(&job->vdev->jobs_freed);
		vpux_file_priv_put(job->fpriv);
	}
	kfree(job);
}

/**
 * vpux_job_publish_result() - the job's result for WAIT on its BOs
 * @job: a finished job (it still holds its BOs)
 * @res: its result
 *
 * Each BO whose last job this is keeps a copy, so WAIT on a BO reports
 * the job even after the file's ring of results moved past it. Runs in
 * the fence signalling path: a spinlock, no reservation lock.
 */
void vpux_job_publish_result(struct vpux_job *job,
			     const struct vpux_job_result *res)
{
	u32 i;

	spin_lock(&job->vdev->result_lock);
	for (i = 0; i < job->nbos; i++) {
		struct vpux_bo *bo = to_vpux_bo(job->bos[i]);

		if (bo->last_seqno == job->slot->seqno) {
			bo->last_result = *res;
			bo->last_done = true;
		}
	}
	spin_unlock(&job->vdev->result_lock);
}

/**
 * vpux_job_bo_addr() - a BO's device address in the submitting file's space
 * @job: the job being submitted
 * @bo: a BO the file holds a handle of
 *
 * Return: the address, or 0 if the BO is not mapped there (a BO shared
 * by flink is mapped only in its creator's space).
 */
u64 vpux_job_bo_addr(struct vpux_job *job, struct vpux_bo *bo)
{
	struct vpux_device *vdev = job->vdev;
	u64 addr = 0;

	mutex_lock(&vdev->bo_lock);
	if (bo->ctx == &job->fpriv->ctx)
		addr = bo->device_addr;
	mutex_unlock(&vdev->bo_lock);
	return addr;
}

/* Resolve one address-list entry; the BO joins job->bos once. */
static int vpux_job_add_buf(struct vpux_job *job, struct drm_file *file,
			    const struct drm_vpux_buf *buf, u32 idx, u32 *bo_idx)
{
	struct vpux_device *vdev = job->vdev;
	struct drm_gem_object *obj;
	u64 addr;

	if (buf->pad) {
		vpux_dbg(vdev, "SUBMIT: entry %u: non-zero pad\n", idx);
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, buf->handle);
	if (!obj) {
		vpux_dbg(vdev, "SUBMIT: entry %u: no BO %u\n", idx, buf->handle);
		return -ENOENT;
	}
	if (!buf->size || buf->offset > obj->size ||
	    buf->size > obj->size - buf->offset) {
		vpux_dbg(vdev, "SUBMIT: entry %u: range %#llx+%#llx outside BO of %zu bytes\n",
			 idx, buf->offset, buf->size, obj->size);
		drm_gem_object_put(obj);
		return -EINVAL;
	}
	addr = vpux_job_bo_addr(job, to_vpux_bo(obj));
	if (!addr) {
		drm_gem_object_put(obj);
		return -EINVAL;
	}
	job->task.list[idx].addr = addr + buf->offset;
	job->task.list[idx].size = buf->size;
	*bo_idx = vpux_job_hold_bo(job, obj);
	return 0;
}

/**
 * vpux_job_hold_bo() - make a looked-up BO one of the job's BOs
 * @job: the job being submitted
 * @obj: a BO; the caller's reference passes to the job
 *
 * Each BO is held once, however many address-list entries (or the
 * profile) name it; a second reference is dropped.
 *
 * Return: the BO's index in @job->bos.
 */
u32 vpux_job_hold_bo(struct vpux_job *job, struct drm_gem_object *obj)
{
	u32 i;

	for (i = 0; i < job->nbos; i++)
		if (job->bos[i] == obj)
			break;
	if (i < job->nbos)
		drm_gem_object_put(obj);
	else
		job->bos[job->nbos++] = obj;
	return i;
}

static int vpux_job_add_buffers(struct vpux_job *job, struct drm_file *file,
				const struct drm_vpux_submit *args)
{
	struct drm_vpux_buf *bufs;
	u32 i, bo_idx;
	int ret;

	ret = vpux_job_add_buf(job, file, &args->task, 0, &job->task_bo);
	if (ret)
		return ret;
	job->task.count = 1 + args->buffer_count;
	if (!args->buffer_count)
		return 0;

	bufs = kvmalloc_array(args->buffer_count, sizeof(*bufs), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	if (copy_from_user(bufs, u64_to_user_ptr(args->buffers),
			   args->buffer_count * sizeof(*bufs))) {
		ret = -EFAULT;
		goto out;
	}
	for (i = 0; i < args->buffer_count; i++) {
		ret = vpux_job_add_buf(job, file, &bufs[i], i + 1, &bo_idx);
		if (ret)
			goto out;
	}
out:
	kvfree(bufs);
	return ret;
}

/* Map the task memory: the core reads it under a spinlock. */
static int vpux_job_map_task(struct vpux_job *job, const struct drm_vpux_buf *task)
{
	struct vpux_bo *bo = to_vpux_bo(job->bos[job->task_bo]);
	void *vaddr;
	int ret;

	ret = vpux_bo_kmap(bo, &vaddr);
	if (ret)
		return ret;
	job->task.cpu = vaddr + task->offset;
	return 0;
}

/*
 * Make the job wait for @fence (a reference the call takes over). The
 * scheduler drops dependencies on fences of the job's own entity: it
 * runs an entity's jobs in order and takes that as ordering them. The
 * engine core runs several tasks at once, so a job of the same file and
 * priority that must wait for another (a shared BO, a syncobj) would
 * start while that one still runs. Such a fence is wrapped in a one-fence
 * array, whose context is its own, so it is waited for like any other.
 */
static int vpux_job_add_dep(struct vpux_job *job, struct dma_fence *fence)
{
	u64 ctx = job->base.entity->fence_context;
	struct dma_fence_array *array;
	struct dma_fence **fences;

	if ((fence->context != ctx && fence->context != ctx + 1) ||
	    dma_fence_is_signaled(fence))
		return drm_sched_job_add_dependency(&job->base, fence);

	fences = kmalloc_array(1, sizeof(*fences), GFP_KERNEL);
	if (!fences)
		goto err_put;
	fences[0] = fence;
	array = dma_fence_array_create(1, fences, dma_fence_context_alloc(1), 1,
				       false);
	if (!array) {
		kfree(fences);
		goto err_put;
	}
	return drm_sched_job_add_dependency(&job->base, &array->base);

err_put:
	dma_fence_put(fence);
	return -ENOMEM;
}

/*
 * Implicit synchronisation: the job waits for every job writing @obj,
 * and, unless the device only reads it, for every job reading it.
 */
static int vpux_job_add_bo_deps(struct vpux_job *job, struct drm_gem_object *obj)
{
	bool write = !(to_vpux_bo(obj)->flags & DRM_VPUX_BO_DEVICE_READONLY);
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	int ret;

	dma_resv_assert_held(obj->resv);
	dma_resv_for_each_fence(&cursor, obj->resv, dma_resv_usage_rw(write),
				fence) {
		ret = vpux_job_add_dep(job, dma_fence_get(fence));
		if (ret)
			return ret;
	}
	return 0;
}

static int vpux_job_add_in_syncobjs(struct vpux_job *job, struct drm_file *file,
				    const struct drm_vpux_submit *args)
{
	struct drm_vpux_syncobj *in;
	struct dma_fence *fence;
	u32 i;
	int ret = 0;

	if (!args->in_syncobj_count)
		return 0;
	in = kvmalloc_array(args->in_syncobj_count, sizeof(*in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	if (copy_from_user(in, u64_to_user_ptr(args->in_syncobjs),
			   args->in_syncobj_count * sizeof(*in))) {
		ret = -EFAULT;
		goto out;
	}
	for (i = 0; i < args->in_syncobj_count; i++) {
		if (in[i].pad) {
			ret = -EINVAL;
			goto out;
		}
		ret = drm_syncobj_find_fence(file, in[i].handle, in[i].point,
					     0, &fence);
		if (!ret)
			ret = vpux_job_add_dep(job, fence);
		if (ret) {
			vpux_dbg(job->vdev, "SUBMIT: in-syncobj %u (handle %u point %llu): %d\n",
				 i, in[i].handle, in[i].point, ret);
			goto out;
		}
	}
out:
	kvfree(in);
	return ret;
}

static int vpux_submit_check(struct vpux_device *vdev,
			     const struct drm_vpux_submit *args)
{
	if ((args->flags & ~DRM_VPUX_SUBMIT_FLAGS) || args->pad) {
		vpux_dbg(vdev, "SUBMIT: unknown flags %#x or non-zero pad\n",
			 args->flags & ~DRM_VPUX_SUBMIT_FLAGS);
		return -EINVAL;
	}
	if (!(args->flags & DRM_VPUX_SUBMIT_PROFILE) &&
	    (args->profile.handle || args->profile.pad ||
	     args->profile.offset || args->profile.size)) {
		vpux_dbg(vdev, "SUBMIT: profile range without DRM_VPUX_SUBMIT_PROFILE\n");
		return -EINVAL;
	}
	if (args->priority >= VPUX_PRIORITIES) {
		vpux_dbg(vdev, "SUBMIT: bad priority %u\n", args->priority);
		return -EINVAL;
	}
	if (args->buffer_count >= DRM_VPUX_MAX_ADDR_ENTRIES ||
	    args->in_syncobj_count > DRM_VPUX_MAX_IN_SYNCOBJS) {
		vpux_dbg(vdev, "SUBMIT: %u buffers, %u in-syncobjs: too many\n",
			 args->buffer_count, args->in_syncobj_count);
		return -EINVAL;
	}
	if (!args->out_syncobj && args->out_point) {
		vpux_dbg(vdev, "SUBMIT: out_point without out_syncobj\n");
		return -EINVAL;
	}
	return 0;
}

/* Lock the BOs, order the job after their fences, publish its fence. */
static int vpux_job_push(struct vpux_job *job, struct drm_vpux_submit *args,
			 struct drm_syncobj *out, struct dma_fence_chain *chain)
{
	struct vpux_file_priv *fpriv = job->fpriv;
	struct ww_acquire_ctx acquire;
	struct vpux_job_slot *slot;
	struct dma_fence *done;
	u32 i;
	int ret;

	ret = drm_gem_lock_reservations(job->bos, job->nbos, &acquire);
	if (ret)
		return ret;
	for (i = 0; i < job->nbos; i++) {
		ret = dma_resv_reserve_fences(job->bos[i]->resv, 1);
		if (ret)
			goto out_unlock;
		ret = vpux_job_add_bo_deps(job, job->bos[i]);
		if (ret)
			goto out_unlock;
	}

	mutex_lock(&fpriv->job_lock);
	slot = &fpriv->ring[fpriv->next_seqno % VPUX_JOB_RING];
	if (slot->done && !dma_fence_is_signaled(slot->done)) {
		/* VPUX_JOB_RING jobs of this file are still unfinished */
		mutex_unlock(&fpriv->job_lock);
		ret = -EBUSY;
		goto out_unlock;
	}
	dma_fence_put(slot->done);
	memset(slot, 0, sizeof(*slot));
	slot->seqno = fpriv->next_seqno++;
	job->slot = slot;
	args->seqno = slot->seqno;

	drm_sched_job_arm(&job->base);
	done = &job->base.s_fence->finished;
	/*
	 * The engine core runs several tasks at once, in any order: a job
	 * that depends on this one must wait for it to finish, not merely
	 * to be handed to the hardware (the scheduler's default for
	 * dependencies on its own fences).
	 */
	set_bit(DRM_SCHED_FENCE_DONT_PIPELINE, &done->flags);
	slot->done = dma_fence_get(done);
	spin_lock(&job->vdev->result_lock);
	for (i = 0; i < job->nbos; i++) {
		struct vpux_bo *bo = to_vpux_bo(job->bos[i]);

		dma_resv_add_fence(bo->base.base.resv, done,
				   bo->flags & DRM_VPUX_BO_DEVICE_READONLY ?
				   DMA_RESV_USAGE_READ : DMA_RESV_USAGE_WRITE);
		/* WAIT with DRM_VPUX_WAIT_BO reports this job from now on */
		bo->last_seqno = slot->seqno;
		bo->last_done = false;
	}
	spin_unlock(&job->vdev->result_lock);
	if (out) {
		if (chain)
			drm_syncobj_add_point(out, chain, done, args->out_point);
		else
			drm_syncobj_replace_fence(out, done);
	}
	trace_vpux_job_submit(dev_name(job->vdev->drm.dev), slot->seqno,
			      job->priority, job->task.count);
	/*
	 * Once pushed, the job may run, finish and be freed at any time:
	 * its BO array must not be used after drm_sched_entity_push_job().
	 * The fences are in the reservations already, so they can be
	 * unlocked first; the file's job_lock keeps arm and push in order.
	 */
	drm_gem_unlock_reservations(job->bos, job->nbos, &acquire);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&fpriv->job_lock);
	return 0;

out_unlock:
	drm_gem_unlock_reservations(job->bos, job->nbos, &acquire);
	return ret;
}

/**
 * vpux_submit_ioctl() - DRM_IOCTL_VPUX_SUBMIT
 * @dev: DRM device
 * @data: struct drm_vpux_submit
 * @file: caller
 *
 * Return: 0; -EINVAL for bad flags, padding, priority, counts or ranges;
 * -ENOENT for an unknown BO or syncobj; -EFAULT for bad array pointers;
 * -EBADFD once a job of this file hung or faulted; -EBUSY when
 * VPUX_JOB_RING jobs of the file are unfinished; -ENODEV after unplug.
 */
int vpux_submit_ioctl(struct drm_device *dev, void *data,
		      struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct vpux_file_priv *fpriv = file->driver_priv;
	struct drm_vpux_submit *args = data;
	struct dma_fence_chain *chain = NULL;
	struct drm_syncobj *out = NULL;
	struct vpux_job *job;
	int idx, ret;

	ret = vpux_submit_check(vdev, args);
	if (ret)
		return ret;
	if (READ_ONCE(fpriv->banned))
		return -EBADFD;
	if (!drm_dev_enter(dev, &idx))
		return -ENODEV;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		ret = -ENOMEM;
		goto out_exit;
	}
	job->vdev = vdev;
	job->fpriv = fpriv;
	kref_get(&fpriv->ref);
	atomic_inc(&fpriv->jobs);
	job->priority = args->priority;
	job->task_id = -1;
	job->hw_slot = -1;
	job->kcov_handle = kcov_common_handle();

	ret = vpux_job_add_buffers(job, file, args);
	if (ret)
		goto err_free;
	ret = vpux_job_map_task(job, &args->task);
	if (ret)
		goto err_free;
	if (args->flags & DRM_VPUX_SUBMIT_PROFILE) {
		ret = vpux_profile_attach(job, file, &args->profile);
		if (ret)
			goto err_free;
	}

	ret = drm_sched_job_init(&job->base, &fpriv->entity[args->priority], 1,
				 fpriv, file->client_id);
	if (ret)
		goto err_free;
	ret = vpux_job_add_in_syncobjs(job, file, args);
	if (ret)
		goto err_cleanup;

	if (args->out_syncobj) {
		out = drm_syncobj_find(file, args->out_syncobj);
		if (!out) {
			ret = -ENOENT;
			goto err_cleanup;
		}
		if (args->out_point) {
			chain = dma_fence_chain_alloc();
			if (!chain) {
				ret = -ENOMEM;
				goto err_cleanup;
			}
		}
	}

	ret = vpux_job_push(job, args, out, chain);
	if (ret)
		goto err_cleanup;
	if (out)
		drm_syncobj_put(out);
	drm_dev_exit(idx);
	return 0;

err_cleanup:
	dma_fence_chain_free(chain);
	if (out)
		drm_syncobj_put(out);
	drm_sched_job_cleanup(&job->base);
err_free:
	vpux_job_free(job);
out_exit:
	drm_dev_exit(idx);
	return ret;
}

static void vpux_result_to_args(const struct vpux_job_result *res,
				struct drm_vpux_wait *args)
{
	args->status = res->status;
	args->error = res->error;
	args->fail_op = res->fail_op;
	args->fault_addr = res->fault_addr;
	args->device_cycles = res->device_cycles;
	args->op_cycles = res->op_cycles;
}

/*
 * Copy the result of job @seqno of @fpriv to @args once its fence
 * signalled; -ENOENT when the ring slot was reused meanwhile.
 */
static int vpux_wait_result_locked(struct vpux_file_priv *fpriv, u64 seqno,
				   struct dma_fence *done,
				   struct drm_vpux_wait *args)
{
	struct vpux_job_slot *slot = &fpriv->ring[seqno % VPUX_JOB_RING];
	const struct vpux_job_result *res = &slot->result;

	lockdep_assert_held(&fpriv->job_lock);
	if (slot->seqno != seqno)
		return -ENOENT;
	vpux_result_to_args(res, args);
	if (!res->status) {
		/* never reached the engine core */
		args->status = DRM_VPUX_STATUS_ABORTED;
		args->error = done->error;
	}
	return 0;
}

static long vpux_wait_fence(struct dma_fence *done, s64 timeout_ns)
{
	long ret;

	if (dma_fence_is_signaled(done))
		return 0;
	ret = dma_fence_wait_timeout(done, true,
				     drm_timeout_abs_to_jiffies(timeout_ns));
	return ret > 0 ? 0 : ret ? ret : -ETIMEDOUT;
}

static int vpux_wait_job(struct vpux_file_priv *fpriv,
			 struct drm_vpux_wait *args)
{
	struct vpux_job_slot *slot;
	struct dma_fence *done;
	long ret;

	mutex_lock(&fpriv->job_lock);
	slot = &fpriv->ring[args->seqno % VPUX_JOB_RING];
	if (!args->seqno || slot->seqno != args->seqno) {
		mutex_unlock(&fpriv->job_lock);
		return -ENOENT;
	}
	done = dma_fence_get(slot->done);
	mutex_unlock(&fpriv->job_lock);

	ret = vpux_wait_fence(done, args->timeout_ns);
	if (!ret) {
		mutex_lock(&fpriv->job_lock);
		ret = vpux_wait_result_locked(fpriv, args->seqno, done, args);
		mutex_unlock(&fpriv->job_lock);
	}
	dma_fence_put(done);
	return ret;
}

/*
 * DRM_VPUX_WAIT_BO: wait for every fence in the BO's reservation (jobs
 * of any file sharing it), then report the last job that used it, from
 * the copy vpux_job_publish_result() left in the BO. Jobs only use BOs
 * of their own file's address space.
 */
static int vpux_wait_bo(struct vpux_device *vdev, struct drm_file *file,
			struct drm_vpux_wait *args)
{
	struct vpux_file_priv *fpriv = file->driver_priv;
	struct vpux_job_result res = { 0 }, idle = { 0 };
	struct vpux_job_slot *slot;
	struct drm_gem_object *obj;
	bool done = false;
	struct vpux_bo *bo;
	u64 seqno = 0;
	long ret;

	if (args->seqno > U32_MAX) {
		vpux_dbg(vdev, "WAIT: BO handle %#llx out of range\n", args->seqno);
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->seqno);
	if (!obj)
		return -ENOENT;
	bo = to_vpux_bo(obj);

	ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_BOOKKEEP, true,
				    drm_timeout_abs_to_jiffies(args->timeout_ns));
	if (ret <= 0) {
		ret = ret ? ret : -ETIMEDOUT;
		goto out_put;
	}

	/* a BO no job used: idle, nothing to report */
	idle.status = DRM_VPUX_STATUS_DONE;
	vpux_result_to_args(&idle, args);
	ret = 0;
	mutex_lock(&vdev->bo_lock);
	spin_lock(&vdev->result_lock);
	/* a BO shared by flink: only its own file's jobs use it */
	if (bo->ctx == &fpriv->ctx) {
		seqno = bo->last_seqno;
		done = bo->last_done;
		if (done)
			res = bo->last_result;
	}
	spin_unlock(&vdev->result_lock);
	mutex_unlock(&vdev->bo_lock);

	if (done) {
		vpux_result_to_args(&res, args);
	} else if (seqno) {
		/*
		 * The job never ran (its file closed or it was dropped), or a
		 * new one was submitted since the reservation was idle.
		 */
		mutex_lock(&fpriv->job_lock);
		slot = &fpriv->ring[seqno % VPUX_JOB_RING];
		if (slot->seqno != seqno) {
			args->status = DRM_VPUX_STATUS_ABORTED;
			args->error = -ECANCELED;
		} else if (dma_fence_is_signaled(slot->done)) {
			ret = vpux_wait_result_locked(fpriv, seqno, slot->done, args);
		} else {
			ret = -ETIMEDOUT;
		}
		mutex_unlock(&fpriv->job_lock);
	}
out_put:
	drm_gem_object_put(obj);
	return ret;
}

/**
 * vpux_wait_ioctl() - DRM_IOCTL_VPUX_WAIT
 * @dev: DRM device
 * @data: struct drm_vpux_wait
 * @file: caller
 *
 * Return: 0 with the job's result; -ETIMEDOUT if it is not done by the
 * deadline; -ENOENT for a job number (or BO handle) this file cannot wait
 * for; -EINVAL for flags or a BO handle above 32 bits; -ERESTARTSYS on a
 * signal.
 */
int vpux_wait_ioctl(struct drm_device *dev, void *data, struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct drm_vpux_wait *args = data;

	if (args->flags & ~DRM_VPUX_WAIT_FLAGS) {
		vpux_dbg(vdev, "WAIT: unknown flags %#x\n",
			 args->flags & ~DRM_VPUX_WAIT_FLAGS);
		return -EINVAL;
	}
	if (args->flags & DRM_VPUX_WAIT_BO)
		return vpux_wait_bo(vdev, file, args);
	return vpux_wait_job(file->driver_priv, args);
}
