// SPDX-License-Identifier: GPL-2.0-only
/*
 * Waiting for jobs and buffer objects. A job's result is written into
 * its file's ring of the last VPUX_JOB_RING jobs before its fence
 * signals (vpux_sched.c), and into every BO whose last job it is, so
 * WAIT on a BO reports it however many jobs the file ran since.
 */

#include <linux/dma-resv.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_utils.h>

#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_job.h"

/**
 * vpux_job_publish_result() - the job's result for WAIT on its BOs
 * @job: a finished job (it still holds its BOs), its result filled
 *
 * Each BO whose last job this is keeps a copy. Runs in the fence
 * signalling path, in process context: a spinlock, no allocation, no
 * reservation lock.
 */
void vpux_job_publish_result(struct vpux_job *job)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&job->vdev->result_lock, flags);
	for (i = 0; i < job->nbos; i++) {
		struct vpux_bo *bo = to_vpux_bo(job->bos[i]);

		if (bo->last_seqno == job->slot->seqno) {
			bo->last_result = job->result;
			bo->last_done = true;
		}
	}
	spin_unlock_irqrestore(&job->vdev->result_lock, flags);
}

/**
 * vpux_result_error() - the category of a job's failure
 * @res: the job's result
 *
 * The kernel's status first (a hang has no engine-core code of its own,
 * and a job that never ran may have none), then the core's code through
 * dla_err_category().
 *
 * Return: DRM_VPUX_ERR_*.
 */
u32 vpux_result_error(const struct vpux_job_result *res)
{
	switch (res->status) {
	case DRM_VPUX_STATUS_DONE:
		return DRM_VPUX_ERR_NONE;
	case DRM_VPUX_STATUS_MMU_FAULT:
		return DRM_VPUX_ERR_FAULT;
	case DRM_VPUX_STATUS_TIMEOUT:
		return DRM_VPUX_ERR_HANG;
	case DRM_VPUX_STATUS_ABORTED:
		/* the device went away or its firmware failed */
		if (res->sys_error == -ENODEV || res->sys_error == -EIO)
			return DRM_VPUX_ERR_DEVICE;
		return DRM_VPUX_ERR_ABORTED;
	}
	if (res->core_error)
		return dla_err_category(res->core_error);
	return DRM_VPUX_ERR_DEVICE;
}

static void vpux_result_to_wait(const struct vpux_job_result *res,
				struct drm_vpux_wait *args)
{
	args->status = res->status;
	args->sys_error = res->sys_error;
	args->core_error = res->core_error;
	args->fail_op = res->fail_op;
	args->fault_addr = res->fault_addr;
	args->device_cycles = res->device_cycles;
	args->op_cycles = res->op_cycles;
	args->error = vpux_result_error(res);
}

/*
 * The result of job @seqno of @fpriv, whose fence @done signalled;
 * -ENOENT when the ring slot was reused meanwhile.
 */
static int vpux_ring_result_locked(struct vpux_file_priv *fpriv, u64 seqno,
				   struct dma_fence *done,
				   struct vpux_job_result *res)
{
	struct vpux_job_slot *slot = &fpriv->ring[seqno % VPUX_JOB_RING];

	lockdep_assert_held(&fpriv->job_lock);
	if (slot->seqno != seqno)
		return -ENOENT;
	*res = slot->result;
	if (!res->status) {
		/* never handed to the device: dropped with its entity */
		res->status = DRM_VPUX_STATUS_ABORTED;
		res->sys_error = done->error;
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
	struct vpux_job_result res;
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
		ret = vpux_ring_result_locked(fpriv, args->seqno, done, &res);
		mutex_unlock(&fpriv->job_lock);
		if (!ret)
			vpux_result_to_wait(&res, args);
	}
	dma_fence_put(done);
	return ret;
}

/*
 * Wait for every fence in the BO's reservation (jobs of any file sharing
 * it), then report the last job of this file that used it, from the copy
 * vpux_job_publish_result() left in the BO. Jobs only use BOs of their
 * own file's address space.
 */
static int vpux_wait_bo(struct vpux_device *vdev, struct drm_file *file,
			u32 handle, s64 timeout_ns, u64 *seqno,
			struct vpux_job_result *res)
{
	struct vpux_file_priv *fpriv = file->driver_priv;
	struct vpux_job_slot *slot;
	struct drm_gem_object *obj;
	unsigned long flags;
	bool done = false;
	struct vpux_bo *bo;
	long ret;

	obj = drm_gem_object_lookup(file, handle);
	if (!obj) {
		vpux_dbg(vdev, "BO_WAIT: no BO %u\n", handle);
		return -ENOENT;
	}
	bo = to_vpux_bo(obj);

	ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_BOOKKEEP, true,
				    drm_timeout_abs_to_jiffies(timeout_ns));
	if (ret <= 0) {
		ret = ret ? ret : -ETIMEDOUT;
		goto out_put;
	}

	/* a BO no job used: idle, nothing to report */
	memset(res, 0, sizeof(*res));
	res->status = DRM_VPUX_STATUS_DONE;
	*seqno = 0;
	ret = 0;
	mutex_lock(&vdev->bo_lock);
	spin_lock_irqsave(&vdev->result_lock, flags);
	/* a BO shared by flink: only its own file's jobs use it */
	if (bo->ctx == &fpriv->ctx) {
		*seqno = bo->last_seqno;
		done = bo->last_done;
		if (done)
			*res = bo->last_result;
	}
	spin_unlock_irqrestore(&vdev->result_lock, flags);
	mutex_unlock(&vdev->bo_lock);

	if (!done && *seqno) {
		/*
		 * The job never ran (its file closed or it was dropped), or a
		 * new one was submitted since the reservation was idle.
		 */
		mutex_lock(&fpriv->job_lock);
		slot = &fpriv->ring[*seqno % VPUX_JOB_RING];
		if (slot->seqno != *seqno) {
			res->status = DRM_VPUX_STATUS_ABORTED;
			res->sys_error = -ECANCELED;
		} else if (dma_fence_is_signaled(slot->done)) {
			ret = vpux_ring_result_locked(fpriv, *seqno, slot->done,
						      res);
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
 * deadline; -ENOENT for a job number this file cannot wait for; -EINVAL
 * for non-zero flags; -ERESTARTSYS on a signal.
 */
int vpux_wait_ioctl(struct drm_device *dev, void *data, struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct drm_vpux_wait *args = data;

	if (args->flags) {
		vpux_dbg(vdev, "WAIT: non-zero flags %#x\n", args->flags);
		return -EINVAL;
	}
	return vpux_wait_job(file->driver_priv, args);
}

/**
 * vpux_bo_wait_ioctl() - DRM_IOCTL_VPUX_BO_WAIT
 * @dev: DRM device
 * @data: struct drm_vpux_bo_wait
 * @file: caller
 *
 * Return: 0 once the BO is idle, with the last job of this file that
 * used it; -ETIMEDOUT if it is busy at the deadline; -ENOENT for a
 * handle this file has not; -EINVAL for flags or a non-zero pad;
 * -ERESTARTSYS on a signal.
 */
int vpux_bo_wait_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct drm_vpux_bo_wait *args = data;
	struct vpux_job_result res;
	u64 seqno;
	int ret;

	if (args->flags || args->pad) {
		vpux_dbg(vdev, "BO_WAIT: unknown flags %#x or non-zero pad\n",
			 args->flags);
		return -EINVAL;
	}
	ret = vpux_wait_bo(vdev, file, args->handle, args->timeout_ns, &seqno,
			   &res);
	if (ret)
		return ret;
	args->seqno = seqno;
	args->status = res.status;
	args->sys_error = res.sys_error;
	args->core_error = res.core_error;
	args->fail_op = res.fail_op;
	args->fault_addr = res.fault_addr;
	args->device_cycles = res.device_cycles;
	args->op_cycles = res.op_cycles;
	args->error = vpux_result_error(&res);
	return 0;
}
