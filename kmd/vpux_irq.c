// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device interrupt, split as the design requires (DESIGN.md section
 * 3, Documentation/architecture.rst "Interrupt"):
 *
 * - the hard-IRQ handler (top half) runs dla_isr_handler() only: it
 *   reads the status, latches it in the engine core and acks it, under
 *   fw.isr_lock; headed, it reads and acks the firmware's bits. It does
 *   O(1) register work whatever users submitted, and wakes the thread;
 * - the IRQ thread (bottom half, IRQF_ONESHOT: the line stays masked
 *   until it returns) takes the latched events (dla_take_events(), under
 *   fw.isr_lock for O(1)), then under fw.lock (a mutex) with interrupts
 *   on lets the core handle them (edge walks, plan expansion), completes
 *   the jobs that finished, starts the next ones and signals their
 *   fences with whatever callbacks other drivers hung on them.
 *
 * A threaded handler rather than a kthread worker of our own: the IRQ
 * core wakes it directly from the hard handler (one wake-up, as a
 * worker's would be), gives it SCHED_FIFO priority, masks the line for
 * it and waits for it in synchronize_irq() and free_irq(), which
 * runtime suspend and remove rely on; ivpu and ethosu do the same.
 */

#include <linux/interrupt.h>
#include <linux/kcov.h>

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

/*
 * Lets the core handle the taken events, completes every job whose task
 * finished and starts the next jobs.
 */
static void vpux_process_events_locked(struct vpux_device *vdev)
{
	struct dla_task_status st;
	dla_u32 mask = 0;

	lockdep_assert_held(&vdev->fw.lock);
	dla_handle_events(vdev->fw.engine, &mask);
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

/* Where the top half may touch nothing: the device is going or off. */
static bool vpux_irq_quiet(struct vpux_device *vdev)
{
	return !vdev->fw.engine || vdev->dead || vdev->pm.off;
}

/*
 * The top half, in hard-IRQ context with interrupts off: read, latch,
 * ack. IRQ_NONE when the device had nothing latched (the line may be
 * shared on a real board); IRQ_HANDLED while the device is going or
 * powered off, so that the line is never reported as spurious then.
 */
static irqreturn_t vpux_irq_handler(int irq, void *arg)
{
	struct vpux_device *vdev = arg;
	irqreturn_t ret = IRQ_HANDLED;

	spin_lock(&vdev->fw.isr_lock);
	if (!vpux_irq_quiet(vdev)) {
		bool mine = vdev->mc.on ? vpux_headed_isr(vdev) :
			    dla_isr_handler(vdev->fw.engine);

		ret = mine ? IRQ_WAKE_THREAD : IRQ_NONE;
	}
	spin_unlock(&vdev->fw.isr_lock);
	return ret;
}

/**
 * vpux_events_locked() - the bottom half's work: what the events finished
 * @vdev: the device, fw.lock held
 *
 * Takes what the top half (or dla_poll_engines()) latched, completes the
 * jobs it finished and starts the next ones. The caller signals the
 * fences (vpux_sched_signal_done()) once it dropped fw.lock. Also the
 * watchdog's path for completions whose interrupt went missing.
 */
void vpux_events_locked(struct vpux_device *vdev)
{
	lockdep_assert_held(&vdev->fw.lock);
	if (vpux_irq_quiet(vdev))
		return;
	if (vdev->mc.on) {
		vpux_headed_events_locked(vdev);
		vpux_sched_dispatch_locked(vdev);
		return;
	}
	scoped_guard(spinlock_irq, &vdev->fw.isr_lock)
		dla_take_events(vdev->fw.engine);
	vpux_process_events_locked(vdev);
}

/*
 * The bottom half: the IRQ's thread, the line masked until it returns.
 *
 * A KCOV remote-coverage section (Documentation/dev-tools/kcov.rst): a
 * background task of the driver's own, whose work counts as coverage of
 * the task that submitted the job last handed to the device (its common
 * handle; 0 and nothing recorded without KCOV). Not the scheduler's
 * run_job/free_job: those run in drm_sched's workers, which are not
 * ours to annotate.
 */
static irqreturn_t vpux_irq_thread(int irq, void *arg)
{
	struct vpux_device *vdev = arg;
	bool cookie;

	kcov_remote_start_common(READ_ONCE(vdev->kcov_handle));
	cookie = dma_fence_begin_signalling();
	scoped_guard(mutex, &vdev->fw.lock)
		vpux_events_locked(vdev);
	vpux_sched_signal_done(vdev);
	dma_fence_end_signalling(cookie);
	kcov_remote_stop();
	return IRQ_HANDLED;
}

/**
 * vpux_irq_init() - request the device's interrupt
 * @vdev: the device, its engine core started
 *
 * A hard handler and its thread (see the top of this file). Freed (devm)
 * after remove() returned; vpux_hw_quiesce() masked it at the device
 * before.
 *
 * Return: 0 or a negative errno.
 */
int vpux_irq_init(struct vpux_device *vdev)
{
	return devm_request_threaded_irq(vdev->drm.dev, vdev->irq,
					 vpux_irq_handler, vpux_irq_thread,
					 IRQF_ONESHOT, dev_name(vdev->drm.dev),
					 vdev);
}
