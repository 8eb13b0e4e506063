// SPDX-License-Identifier: GPL-2.0-only
/*
 * Job profiles (DRM_VPUX_SUBMIT_PROFILE): each op's engine cycles,
 * copied out of the engine core into a BO range the submitter named,
 * when the job leaves the core, before its fence signals (so the record
 * is complete once WAIT reports the job).
 */
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "dla_interface.h"
#include <drm/vpux_task.h>
#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_job.h"

/**
 * vpux_profile_attach() - give a job its profile range
 * @job: the job being submitted (its address list resolved)
 * @file: the submitter
 * @buf: drm_vpux_submit.profile
 * @times: DRM_VPUX_SUBMIT_PROFILE_TIMES was given
 *
 * The BO must be one of @file's, writable by the device, and not an
 * import of another driver's dma-buf (the kernel writes the record
 * through its own mapping of the BO); it joins the job's BOs, so it is
 * fenced like them and BO_WAIT on it reports the job.
 *
 * Return: 0; -EINVAL for padding, a misaligned or too small range, a
 * range outside the BO or a BO of another file; -EACCES for a
 * device-read-only BO (an import of a read-only one included) or a
 * foreign import; -ENOENT for an unknown handle; or the kernel mapping's
 * errno.
 */
int vpux_profile_attach(struct vpux_job *job, struct drm_file *file,
			const struct drm_vpux_buf *buf, bool times)
{
	struct vpux_device *vdev = job->vdev;
	struct drm_gem_object *obj;
	struct vpux_bo *bo;
	bool ours;
	void *vaddr;
	int ret;

	if (buf->pad || !IS_ALIGNED(buf->offset, 8) ||
	    buf->size < sizeof(struct drm_vpux_profile)) {
		vpux_dbg(vdev, "SUBMIT: profile: pad %u, offset %#llx, size %llu: want pad 0, 8-byte alignment, >= %zu bytes\n",
			 buf->pad, buf->offset, buf->size,
			 sizeof(struct drm_vpux_profile));
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, buf->handle);
	if (!obj) {
		vpux_dbg(vdev, "SUBMIT: profile: no BO %u\n", buf->handle);
		return -ENOENT;
	}
	bo = to_vpux_bo(obj);
	ours = vpux_job_bo_addr(job, bo) != 0;
	if (!ours || buf->offset > obj->size ||
	    buf->size > obj->size - buf->offset) {
		vpux_dbg(vdev, "SUBMIT: profile: BO %u (%zu bytes%s) cannot take %#llx+%#llx\n",
			 buf->handle, obj->size, ours ? "" : ", another file's",
			 buf->offset, buf->size);
		drm_gem_object_put(obj);
		return -EINVAL;
	}
	if ((bo->flags & DRM_VPUX_BO_DEVICE_READONLY) || bo->foreign) {
		vpux_dbg(vdev, "SUBMIT: profile: BO %u is %s\n", buf->handle,
			 bo->foreign ? "another driver's" : "device-read-only");
		drm_gem_object_put(obj);
		return -EACCES;
	}
	ret = vpux_bo_kmap(bo, &vaddr);
	if (ret) {
		drm_gem_object_put(obj);
		return ret;
	}
	vpux_job_hold_bo(job, obj);
	job->profile = vaddr + buf->offset;
	job->profile_size = min_t(u64, buf->size, U32_MAX);
	job->profile_times = times;
	memset(job->profile, 0, sizeof(*job->profile));
	return 0;
}

/**
 * vpux_profile_record() - write a job's profile from its task
 * @job: a job that left the engine core (its task cleared)
 *
 * Called under the core's lock in the interrupt's thread (or the
 * watchdog, or removal), with interrupts on, never in hard-IRQ context:
 * copies the per-op cycles the task kept into the profile BO's kernel
 * mapping and, with DRM_VPUX_SUBMIT_PROFILE_TIMES, the schedule the engine core
 * rebuilds from them (dla_task_op_times(), O(ops * engines + edges),
 * only for jobs that asked for it). No-op for a job without a profile.
 */
void vpux_profile_record(struct vpux_job *job)
{
	struct drm_vpux_profile *p = job->profile;
	dla_s32 n;

	BUILD_BUG_ON(ARRAY_SIZE(p->op_count) != DLA_OP_KINDS);
	/* the engine core writes the uapi's records in place */
	BUILD_BUG_ON(sizeof(struct dla_op_time) !=
		     sizeof(struct drm_vpux_op_time));
	BUILD_BUG_ON(offsetof(struct dla_op_time, end) !=
		     offsetof(struct drm_vpux_op_time, end));
	BUILD_BUG_ON(offsetof(struct dla_op_time, engine) !=
		     offsetof(struct drm_vpux_op_time, engine));
	BUILD_BUG_ON(offsetof(struct dla_op_time, done) !=
		     offsetof(struct drm_vpux_op_time, flags));
	BUILD_BUG_ON(DLA_OP_NOT_RUN != DRM_VPUX_OP_NOT_RUN);
	BUILD_BUG_ON(DRM_VPUX_OP_TIME_DONE != 1);
	if (!p)
		return;
	n = dla_task_op_cycles(job->task, p->op_count, p->op_cycles,
			       (job->profile_size - sizeof(*p)) /
			       sizeof(p->op_cycles[0]));
	/* headed: the kernel's copy never ran; the firmware's did */
	if (n > 0 && job->stage.cpu)
		vpux_headed_op_cycles(job, p->op_cycles, n);
	p->entries = n > 0 ? n : 0;
	if (job->profile_times && n > 0 &&
	    (u32)n == p->op_count[0] + p->op_count[1] + p->op_count[2] &&
	    job->profile_size >= DRM_VPUX_PROFILE_TIMES_SIZE(n))
		dla_task_op_times(job->task, p->op_cycles, n,
				  (void *)p + DRM_VPUX_PROFILE_TIMES_OFFSET(n));
}
