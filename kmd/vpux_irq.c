// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interrupt handling in two halves. The hard-IRQ handler only lets the
 * engine core read and ack the interrupt status and latch the events
 * (dla_isr_handler), then queues the bottom half. The bottom half, a work
 * item on a high-priority ordered workqueue, lets the core process the
 * events (dla_process_events: barriers drop, ready ops start on idle
 * engines) and, for every task that finished, reads its status, releases
 * its core slot and completes the job outside the core's lock.
 */

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_job.h"

/**
 * vpux_vdev_irq_handler() - the device's hard-IRQ handler
 * @v: the virtual device that raised its line
 *
 * Runs in hard-IRQ context with interrupts disabled.
 */
void vpux_vdev_irq_handler(struct vpux_vdev *v)
{
	struct vpux_device *vdev = container_of(v, struct vpux_device, vdev);
	dla_s32 ours;

	spin_lock(&vdev->fw.lock);
	ours = dla_isr_handler(vdev->fw.engine);
	spin_unlock(&vdev->fw.lock);
	if (ours)
		queue_work(vdev->bh_wq, &vdev->bh_work);
}

static void vpux_result_from_status(const struct dla_task_status *st,
				    struct vpux_job_result *res)
{
	res->error = st->error;
	res->device_cycles = st->device_cycles;
	res->op_cycles = st->op_cycles;
	if (st->state == DLA_TASK_DONE) {
		res->status = DRM_VPUX_STATUS_DONE;
		return;
	}
	res->fail_op = st->fail_kind << 24 | (st->fail_index & 0xffffff);
	if (st->error == -DLA_ERR_MMU_FAULT) {
		res->status = DRM_VPUX_STATUS_MMU_FAULT;
		res->fault_addr = st->fault_addr;
	} else {
		res->status = DRM_VPUX_STATUS_ERROR;
	}
}

/* The bottom half proper: process the events, complete finished jobs. */
static void vpux_bh_events(struct work_struct *work)
{
	struct vpux_device *vdev = container_of(work, struct vpux_device, bh_work);
	struct vpux_job_result res[DLA_MAX_TASKS];
	struct vpux_job *done[DLA_MAX_TASKS];
	unsigned int n = 0, t, i;
	struct dla_task_status st;
	unsigned long flags;
	dla_u32 mask = 0;

	spin_lock_irqsave(&vdev->fw.lock, flags);
	dla_process_events(vdev->fw.engine, &mask);
	for (t = 0; t < DLA_MAX_TASKS; t++) {
		struct vpux_job *job = vdev->running[t];

		if (!(mask & BIT(t)) || !job)
			continue;
		memset(&res[n], 0, sizeof(res[n]));
		if (dla_task_status(vdev->fw.engine, t, &st)) {
			res[n].status = DRM_VPUX_STATUS_ERROR;
			res[n].error = -EIO;
		} else {
			vpux_result_from_status(&st, &res[n]);
		}
		vpux_profile_record(job, vdev->fw.engine, t);
		dla_clear_task(vdev->fw.engine, t);
		vdev->running[t] = NULL;
		job->task_id = -1;
		done[n++] = job;
	}
	spin_unlock_irqrestore(&vdev->fw.lock, flags);

	for (i = 0; i < n; i++)
		vpux_job_finish(done[i], &res[i]);
}

/**
 * vpux_bh_work() - the interrupt's bottom half
 * @work: vpux_device.bh_work
 *
 * Counted, for KCOV, as coverage of the submitter of the job started
 * last (vpux_sched.c); no-op wrapper without CONFIG_KCOV.
 */
void vpux_bh_work(struct work_struct *work)
{
	struct vpux_device *vdev = container_of(work, struct vpux_device, bh_work);

	kcov_remote_start_common(READ_ONCE(vdev->vdev.kcov_handle));
	vpux_bh_events(work);
	kcov_remote_stop();
}
