// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job submission. SUBMIT turns the caller's address list (GEM handles +
 * ranges) into device addresses of the file's address space, has the
 * engine core validate the task once and build it into kernel memory
 * (so nothing user space writes afterwards reaches the NPU), gathers the
 * in-fences (syncobjs and the BOs' reservations) and pushes the job to
 * its queue's entity (vpux_queue.c). The job's finished fence goes into
 * every BO's dma_resv, the out syncobj, and the file's ring of the last
 * VPUX_JOB_RING jobs, which WAIT reads (vpux_wait.c).
 */

#include <linux/capability.h>
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

/**
 * vpux_file_jobs_init() - the job side of a new file
 * @vdev: the device
 * @fpriv: the file, with its address space set up
 *
 * Return: 0.
 */
int vpux_file_jobs_init(struct vpux_device *vdev, struct vpux_file_priv *fpriv)
{
	mutex_init(&fpriv->job_lock);
	xa_init_flags(&fpriv->queues, XA_FLAGS_ALLOC1);
	fpriv->next_seqno = 1;
	return 0;
}

/**
 * vpux_file_jobs_fini() - the file is closing
 * @fpriv: the file
 *
 * Its queues' handles go; jobs still queued are handed to the device
 * (or dropped if the process was killed), and jobs on the device run to
 * their end holding what they use. Close does not wait for them.
 */
void vpux_file_jobs_fini(struct vpux_file_priv *fpriv)
{
	vpux_queues_fini(fpriv);
}

/* Called by the last put of the file private. */
static void vpux_file_jobs_release(struct vpux_file_priv *fpriv)
{
	int i;

	for (i = 0; i < VPUX_JOB_RING; i++)
		dma_fence_put(fpriv->ring[i].done);
	mutex_destroy(&fpriv->job_lock);
}

/*
 * The file is closed and its last job freed: BOs still alive elsewhere
 * lose their mapping in its address space, which goes.
 */
static void vpux_file_priv_release(struct kref *ref)
{
	struct vpux_file_priv *fpriv = container_of(ref, struct vpux_file_priv, ref);

	vpux_bo_unbind_all(fpriv->vdev, &fpriv->bos);
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
 *
 * The job's queue may go with it (its teardown is a work item).
 */
void vpux_job_free(struct vpux_job *job)
{
	u32 i;

	for (i = 0; i < job->nbos; i++)
		drm_gem_object_put(job->bos[i]);
	for (i = 0; i < job->n_in_fences; i++)
		dma_fence_put(job->in_fences[i]);
	kvfree(job->in_fences);
	vpux_fw_task_free(job->task_mem);
	vpux_headed_stage_free(job);
	if (job->hw_fence && job->hw_fence->ops)
		dma_fence_put(job->hw_fence);
	else
		kfree(job->hw_fence);	/* never initialised by run_job */
	vpux_queue_put(job->queue);
	vpux_pm_job_put(job);
	if (job->charged)
		vpux_mem_uncharge(&job->fpriv->ctx, job->charged);
	if (job->fpriv)
		vpux_file_priv_put(job->fpriv);
	kfree(job);
}

/* a KCOV remote-coverage section of the submitter's, as the IRQ thread */
static void vpux_job_free_work(struct work_struct *w)
{
	struct vpux_job *job = container_of(w, struct vpux_job, free_work);

	kcov_remote_start_common(job->kcov_handle);
	if (vpux_job_wants_dump(job))
		vpux_job_dump(job);
	vpux_job_free(job);
	kcov_remote_stop();
}

/**
 * vpux_job_release() - free a job drm_sched is done with, off its queue
 * @job: the job, its fences signalled
 *
 * Not on the scheduler's workqueue, which run_job (a fence signalling
 * section) shares: a devcoredump allocates and copies the job's
 * buffers, and the job's last references (BOs, the file with its MMU
 * context, the queue) take locks that are held across allocations
 * elsewhere. vpux_wq runs nothing fences wait for (recovery has a queue
 * of its own).
 */
void vpux_job_release(struct vpux_job *job)
{
	INIT_WORK(&job->free_work, vpux_job_free_work);
	queue_work(vpux_wq, &job->free_work);
}

/*
 * Count @bytes of the job's kernel memory against its file's (and the
 * device's) memory limit, as its BOs are: 256 unfinished jobs of up to a
 * few hundred KiB each would otherwise pin tens of MiB per file that
 * nobody limits.
 */
static int vpux_job_charge(struct vpux_job *job, u64 bytes)
{
	int ret = vpux_mem_charge(&job->fpriv->ctx, bytes);

	if (!ret)
		job->charged += bytes;
	return ret;
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
	job->task_in.list[idx].addr = addr + buf->offset;
	job->task_in.list[idx].size = buf->size;
	/* the core refuses ops that write it (vpux_job_prepare_task()) */
	job->task_in.list[idx].readonly =
		(to_vpux_bo(obj)->flags & DRM_VPUX_BO_DEVICE_READONLY) &&
		!READ_ONCE(vdev->skip_ro_check);
	*bo_idx = vpux_job_hold_bo(job, obj);
	job->ent[idx].bo = *bo_idx;
	job->ent[idx].offset = buf->offset;
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
	job->task_in.count = 1 + args->buffer_count;
	if (!args->buffer_count)
		return 0;

	bufs = kvmalloc_array(args->buffer_count, sizeof(*bufs),
			      GFP_KERNEL_ACCOUNT);
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

/*
 * The kernel mapping of address-list entry @index (>= 1) for the engine
 * core's dla_data_read() in dla_task_prepare(): a plan's symbol buffer
 * (Documentation/dynamic-shapes.rst). Called in the SUBMIT ioctl without
 * the device lock, like the task BO's own mapping, which lasts as long as
 * the BO (vpux_bo_kmap()). NULL for memory the CPU cannot map: the core
 * then refuses the plan (PLAN_SYMBOL).
 */
static const void *vpux_job_entry_map(const struct vpux_fw_task_in *in,
				      u32 index)
{
	const struct vpux_job *job = container_of_const(in, struct vpux_job,
							task_in);
	void *vaddr;

	if (vpux_bo_kmap(to_vpux_bo(job->bos[job->ent[index].bo]), &vaddr))
		return NULL;
	return vaddr + job->ent[index].offset;
}

/*
 * Have the engine core validate the task once and build it into kernel
 * memory, reading the task BO through its kernel mapping. A task the core
 * refuses still becomes a job, which completes with the core's error at
 * its turn in the queue; except a task that would write a BO the device
 * may only read: a permission error, not a format one, so SUBMIT fails
 * with -EACCES.
 */
static int vpux_job_prepare_task(struct vpux_job *job,
				 const struct drm_vpux_buf *task)
{
	struct vpux_bo *bo = to_vpux_bo(job->bos[job->task_bo]);
	void *vaddr;
	u32 size;
	int ret;

	ret = vpux_bo_kmap(bo, &vaddr);
	if (ret)
		return ret;
	job->task_in.cpu = vaddr + task->offset;
	job->task_in.map = vpux_job_entry_map;
	ret = vpux_fw_prepare(job->vdev, &job->task_in, &job->task_mem,
			      &size, &job->task);
	if (!ret)
		ret = vpux_job_charge(job, size);
	/* headed: the firmware validates and builds it again from a copy */
	if (!ret) {
		ret = vpux_headed_stage(job);
		if (ret == -E2BIG)
			ret = -EINVAL;
		if (!ret && job->stage.size)
			ret = vpux_job_charge(job, job->stage.size);
	}
	job->task_in.cpu = NULL;
	job->task_in.map = NULL;
	if (ret == -ENOMEM)
		return ret;
	if (ret == -DLA_ERR_READONLY) {
		vpux_dbg(job->vdev, "SUBMIT: the task writes a device-read-only BO\n");
		return -EACCES;
	}
	if (ret) {
		vpux_dbg(job->vdev, "SUBMIT: the engine core refused the task: %d\n",
			 ret);
		job->refused = -ret;
	}
	job->cmx_tiles = dla_task_cmx_tiles(job->task);
	return 0;
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
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(fence));
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
	in = kvmalloc_array(args->in_syncobj_count, sizeof(*in),
			    GFP_KERNEL_ACCOUNT);
	if (!in)
		return -ENOMEM;
	job->in_fences = kvcalloc(args->in_syncobj_count,
				  sizeof(*job->in_fences), GFP_KERNEL_ACCOUNT);
	if (!job->in_fences) {
		ret = -ENOMEM;
		goto out;
	}
	ret = vpux_job_charge(job, args->in_syncobj_count *
			      sizeof(*job->in_fences));
	if (ret)
		goto out;
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
		if (!ret) {
			/* the point's own fence, not the timeline before it */
			job->in_fences[job->n_in_fences++] =
				dma_fence_get(dma_fence_chain_contained(fence));
			ret = drm_sched_job_add_dependency(&job->base, fence);
		}
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
	     args->profile.offset || args->profile.size ||
	     (args->flags & DRM_VPUX_SUBMIT_PROFILE_TIMES))) {
		vpux_dbg(vdev, "SUBMIT: profile range or times without DRM_VPUX_SUBMIT_PROFILE\n");
		return -EINVAL;
	}
	if (args->buffer_count >= VPUX_MAX_ADDR_ENTRIES ||
	    args->in_syncobj_count > VPUX_MAX_IN_SYNCOBJS) {
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

/*
 * Lock the BOs, order the job after their fences, publish its fence.
 * The result goes back to the caller (@u) before the job is armed: a
 * caller that cannot take it gets -EFAULT and no job.
 */
static int vpux_job_push(struct vpux_job *job, struct drm_vpux_submit *args,
			 struct drm_syncobj *out, struct dma_fence_chain *chain,
			 struct vpux_uargs *u)
{
	struct vpux_file_priv *fpriv = job->fpriv;
	struct ww_acquire_ctx acquire;
	struct vpux_job_slot *slot;
	struct dma_fence *done;
	u32 i;
	int ret;

retry:
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
	if (job->queue->destroyed) {
		/* QUEUE_DESTROY won the race */
		mutex_unlock(&fpriv->job_lock);
		ret = -ENOENT;
		goto out_unlock;
	}
	slot = &fpriv->ring[fpriv->next_seqno % VPUX_JOB_RING];
	if (slot->done && !dma_fence_is_signaled(slot->done)) {
		/* VPUX_JOB_RING jobs of this file are still unfinished */
		mutex_unlock(&fpriv->job_lock);
		ret = -EBUSY;
		goto out_unlock;
	}
	args->seqno = fpriv->next_seqno;
	if (vpux_uargs_copy_nofault(u)) {
		/* fault the page in without the locks a fault may take */
		mutex_unlock(&fpriv->job_lock);
		drm_gem_unlock_reservations(job->bos, job->nbos, &acquire);
		if (copy_to_user(u->uptr, u->kdata, u->out_size)) {
			vpux_dbg(job->vdev, "SUBMIT: cannot write the arguments back\n");
			return -EFAULT;
		}
		if (signal_pending(current))
			return -ERESTARTSYS;
		goto retry;
	}
	dma_fence_put(slot->done);
	memset(slot, 0, sizeof(*slot));
	slot->seqno = fpriv->next_seqno++;
	job->slot = slot;
	vpux_nl_job_submitted(fpriv);

	drm_sched_job_arm(&job->base);
	done = &job->base.s_fence->finished;
	slot->done = dma_fence_get(done);
	spin_lock_irq(&job->vdev->result_lock);
	for (i = 0; i < job->nbos; i++) {
		struct vpux_bo *bo = to_vpux_bo(job->bos[i]);

		dma_resv_add_fence(bo->base.base.resv, done,
				   bo->flags & DRM_VPUX_BO_DEVICE_READONLY ?
				   DMA_RESV_USAGE_READ : DMA_RESV_USAGE_WRITE);
		/* BO_WAIT reports this job from now on */
		bo->last_seqno = slot->seqno;
		bo->last_done = false;
	}
	spin_unlock_irq(&job->vdev->result_lock);
	if (out) {
		if (chain)
			drm_syncobj_add_point(out, chain, done, args->out_point);
		else
			drm_syncobj_replace_fence(out, done);
	}
	trace_vpux_job_submit(dev_name(job->vdev->drm.dev), slot->seqno,
			      job->priority, job->task_in.count);
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
 * vpux_submit() - DRM_IOCTL_VPUX_SUBMIT
 * @dev: DRM device
 * @args: the arguments, copied in
 * @file: caller
 * @u: where @args go back to (vpux_ioctl()), or NULL when drm_ioctl()
 *	copies them back after the call
 *
 * With @u, the job is pushed only once @args are back in the caller's
 * memory; nothing of the job is left when they cannot be.
 *
 * Return: 0; -EINVAL for bad flags, padding, counts or ranges; -ENOENT
 * for an unknown BO, syncobj or queue; -EACCES for a task that
 * writes a device-read-only BO, or such a profile BO; -EFAULT for bad
 * array pointers or arguments that cannot be written back (no job then);
 * -EBADFD once a job of this file hung or faulted; -EBUSY when
 * VPUX_JOB_RING jobs of the file are unfinished; -ENOMEM when the job's
 * kernel memory would take the file (or the device) over its memory
 * limit, or is not there; -ENODEV after unplug.
 */
int vpux_submit(struct drm_device *dev, struct drm_vpux_submit *args,
		struct drm_file *file, struct vpux_uargs *u)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct vpux_file_priv *fpriv = file->driver_priv;
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

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job) {
		ret = -ENOMEM;
		goto out_exit;
	}
	job->vdev = vdev;
	job->fpriv = fpriv;
	kref_get(&fpriv->ref);
	ret = vpux_job_charge(job, sizeof(*job));
	if (ret)
		goto err_free;
	job->task_id = -1;
	job->hw_slot = -1;
	INIT_LIST_HEAD(&job->link);
	job->kcov_handle = kcov_common_handle();
	/* the NPU stays powered from now until the job is done */
	ret = vpux_pm_job_get(job);
	if (ret)
		goto err_free;

	job->queue = vpux_queue_lookup(fpriv, args->queue_id);
	if (IS_ERR(job->queue)) {
		ret = PTR_ERR(job->queue);
		job->queue = NULL;
		goto err_free;
	}
	/* a job's priority is its queue's */
	job->priority = job->queue->priority;
	/* the signalling path (run_job) must not allocate: allocate now */
	job->hw_fence = vpux_fence_alloc();
	if (!job->hw_fence) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = vpux_job_add_buffers(job, file, args);
	if (ret)
		goto err_free;
	ret = vpux_job_prepare_task(job, &args->task);
	if (ret)
		goto err_free;
	if (args->flags & DRM_VPUX_SUBMIT_PROFILE) {
		ret = vpux_profile_attach(job, file, &args->profile,
					  args->flags &
					  DRM_VPUX_SUBMIT_PROFILE_TIMES);
		if (ret)
			goto err_free;
	}

	ret = drm_sched_job_init(&job->base, &job->queue->entity, 1, fpriv,
				 file->client_id);
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

	ret = vpux_job_push(job, args, out, chain, u);
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

/**
 * vpux_submit_ioctl() - DRM_IOCTL_VPUX_SUBMIT through drm_ioctl()
 * @dev: DRM device
 * @data: struct drm_vpux_submit
 * @file: caller
 *
 * vpux_ioctl() calls vpux_submit() itself; this entry keeps the ioctl
 * table complete.
 *
 * Return: as vpux_submit().
 */
int vpux_submit_ioctl(struct drm_device *dev, void *data,
		      struct drm_file *file)
{
	return vpux_submit(dev, data, file, NULL);
}
