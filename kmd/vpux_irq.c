// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device interrupt, handled entirely in hard-IRQ context: the engine
 * core reads and acks the status (dla_isr_handler), turns the events into
 * op completions and starts the ops they release (dla_process_events);
 * every task that finished leaves the core, the queues' next jobs start,
 * and the finished jobs' fences are signalled. All of it is bounded: the
 * events latched, the edges they release, the ops and tasks they start,
 * and the tasks were validated and built at SUBMIT, so starting one only
 * writes registers. No workqueue hop lies between the interrupt and the
 * waiter's wake-up.
 */

#include <linux/interrupt.h>

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_headed.h"
#include "vpux_job.h"
#include "vpux_regs.h"

/**
 * vpux_result_from_status() - a job's result from its task's status
 * @st: the status of a task that left the engine core
 * @res: out
 */
void vpux_result_from_status(const struct dla_task_status *st,
			     struct vpux_job_result *res)
{
	res->core_error = st->error < 0 ? -st->error : 0;
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

/**
 * vpux_process_events_locked() - complete what the latched events finished
 * @vdev: the device, fw.lock held
 *
 * Lets the core process the latched events, completes every job whose
 * task finished and starts the next jobs. The caller signals the fences
 * (vpux_sched_signal_done()) once it dropped the lock.
 */
void vpux_process_events_locked(struct vpux_device *vdev)
{
	struct dla_task_status st;
	dla_u32 mask = 0;

	lockdep_assert_held(&vdev->fw.lock);
	dla_process_events(vdev->fw.engine, &mask);
	while (mask) {
		unsigned int t = __ffs(mask);
		struct vpux_job *job = vdev->running[t];
		struct vpux_job_result res = { 0 };

		mask &= mask - 1;
		if (!job)
			continue;
		dla_task_result(job->task, &st);
		vpux_result_from_status(&st, &res);
		vpux_sched_complete_locked(vdev, job, &res);
	}
	vpux_sched_dispatch_locked(vdev);
}

/*
 * The device's interrupt handler, in hard-IRQ context with interrupts
 * disabled. IRQ_NONE when the device had nothing latched (the line may
 * be shared on a real board).
 */
static irqreturn_t vpux_irq_handler(int irq, void *arg)
{
	struct vpux_device *vdev = arg;
	bool cookie = dma_fence_begin_signalling();
	bool handled = false;

	spin_lock(&vdev->fw.lock);
	if (!vdev->fw.engine || vdev->dead || vdev->pm.off) {
		/* nothing to do: the device is going, or powered off */
	} else if (vdev->mc.on) {
		handled = vpux_headed_irq_locked(vdev,
						 vpux_reg_read(vdev, VPUX_REG_IRQ_STATUS));
		vpux_sched_dispatch_locked(vdev);
	} else if (dla_isr_handler(vdev->fw.engine)) {
		vpux_process_events_locked(vdev);
		handled = true;
	}
	spin_unlock(&vdev->fw.lock);
	vpux_sched_signal_done(vdev);
	dma_fence_end_signalling(cookie);
	return IRQ_RETVAL(handled);
}

/**
 * vpux_irq_init() - request the device's interrupt
 * @vdev: the device, its engine core started
 *
 * The whole of the interrupt's work runs in the hard-IRQ handler, with
 * no threaded bottom half: it is bounded (see the top of this file), and
 * an IRQ thread would add a wake-up between the interrupt and the
 * waiter's (Documentation/architecture.rst, "Interrupt"). Freed (devm)
 * after remove() returned; vpux_hw_quiesce() masked it at the device
 * before.
 *
 * Return: 0 or a negative errno.
 */
int vpux_irq_init(struct vpux_device *vdev)
{
	return devm_request_threaded_irq(vdev->drm.dev, vdev->irq,
					 vpux_irq_handler, NULL, 0,
					 dev_name(vdev->drm.dev), vdev);
}
