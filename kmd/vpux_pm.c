// SPDX-License-Identifier: GPL-2.0-only
/*
 * Power management. An idle NPU powers its switchable domain off after
 * an autosuspend delay (runtime PM); a submit wakes it; system sleep
 * lets the jobs on the NPU finish, holds back the others and powers the
 * NPU off the same way. Documentation/architecture.rst, "Power
 * management", says which rules of Documentation/power/runtime_pm.rst
 * this keeps and how.
 *
 * - Every job holds a runtime PM reference from SUBMIT (taken there, in
 *   process context, resuming the NPU synchronously) until its hardware
 *   fence signalled (dropped there, in any context, hard IRQ included:
 *   __pm_runtime_put_autosuspend() is asynchronous, it only arms the
 *   autosuspend timer). A job that never ran drops it when freed. So the
 *   NPU is never suspended while a job waits for it or runs on it.
 * - The callbacks run in process context (the device is not irq_safe):
 *   runtime_suspend refuses (-EBUSY) while anything runs on the NPU and
 *   otherwise sets vpux_pm.off under fw.lock before the domain powers
 *   off. Every register access outside a job's life (the interrupt
 *   handler, the watchdog, MMU invalidations when a BO is unmapped)
 *   checks that flag under fw.lock, so none reaches a powered-off NPU;
 *   debugfs takes a reference of its own.
 * - The domain loses IRQ_MASK, fault injection, the engines' PARAM words
 *   and the MMU's slots when powered off: runtime_resume restores them,
 *   the MMU slots from the driver's own record of which address space
 *   each holds, and has the engine core forget its shadow of the PARAM
 *   words (dla_engines_lost_state()), before a job may start. Headed,
 *   the firmware is stopped before power-off and booted again after
 *   power-on (its image is kept for reloads).
 * - System sleep sets vpux_pm.hold: no job starts; the jobs on the NPU
 *   finish (the watchdog bounds them), then pm_runtime_force_suspend()
 *   runs the runtime path. Jobs handed over meanwhile wait in their
 *   queues; resume powers the NPU on if they hold references, and starts
 *   them. No job is lost and none runs on a suspended NPU.
 */

#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_headed.h"
#include "vpux_job.h"
#include "vpux_pm.h"
#include "vpux_regs.h"

static int autosuspend_delay_ms = 1000;
module_param(autosuspend_delay_ms, int, 0444);
MODULE_PARM_DESC(autosuspend_delay_ms, "Idle time before the NPU powers down (ms, default 1000; negative: never; per device in power/autosuspend_delay_ms)");

/* the longest a power-on may take (the model's is immediate) */
#define VPUX_PWR_ON_US		10000

/*
 * The one place power-state changes are announced: the netlink family's
 * events group multicasts them (vpux_netlink.c, from a work item).
 */
static void vpux_pm_state_changed(struct vpux_device *vdev, bool active)
{
	vpux_dbg(vdev, "NPU powered %s\n", active ? "on" : "off");
	vpux_nl_notify_power(vdev, active);
}

static bool vpux_has_power_ctrl(struct vpux_device *vdev)
{
	return vdev->hw.caps & VPUX_CAP_POWER;
}

/**
 * vpux_pm_hw_on() - is the NPU's switchable domain powered?
 * @vdev: the device
 *
 * Reads PWR_STATUS, an always-on register (sysfs power_state).
 *
 * Return: true if powered.
 */
bool vpux_pm_hw_on(struct vpux_device *vdev)
{
	if (!vpux_has_power_ctrl(vdev))
		return !READ_ONCE(vdev->pm.off);
	return vpux_reg_read(vdev, VPUX_REG_PWR_STATUS) & VPUX_PWR_ON;
}

/* Nothing runs on the NPU that powering it off would cut. */
static bool vpux_pm_quiet_locked(struct vpux_device *vdev)
{
	lockdep_assert_held(&vdev->fw.lock);
	return !vdev->n_running && !vdev->mc.down &&
	       !vpux_cmx_clearing_locked(vdev);
}

/* Takes fw.lock, a mutex: never as a wait_event() condition. */
static bool vpux_pm_quiet(struct vpux_device *vdev)
{
	bool quiet;

	mutex_lock(&vdev->fw.lock);
	quiet = vdev->dead || vpux_pm_quiet_locked(vdev);
	mutex_unlock(&vdev->fw.lock);
	return quiet;
}

/*
 * Wait until nothing runs on the NPU, at most @timeout jiffies: false if
 * something still does. wait_woken() rather than wait_event(): the
 * condition takes fw.lock, which may sleep, and wait_woken() checks it
 * in TASK_RUNNING, losing no wake-up of vpux_pm_wake() in between.
 */
static bool vpux_pm_wait_quiet(struct vpux_device *vdev, long timeout)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	bool quiet;

	add_wait_queue(&vdev->pm.idle_wq, &wait);
	for (;;) {
		quiet = vpux_pm_quiet(vdev);
		if (quiet || !timeout)
			break;
		timeout = wait_woken(&wait, TASK_UNINTERRUPTIBLE, timeout);
	}
	remove_wait_queue(&vdev->pm.idle_wq, &wait);
	return quiet;
}

/**
 * vpux_pm_wake() - the NPU's state changed: wake a waiting system suspend
 * @vdev: the device; fw.lock not held
 *
 * Any context. Called by vpux_sched_signal_done(), which follows every
 * change of what runs on the NPU.
 */
void vpux_pm_wake(struct vpux_device *vdev)
{
	if (READ_ONCE(vdev->pm.hold))
		wake_up(&vdev->pm.idle_wq);
}

/* Write the MMU's slots again from the driver's record (fw.lock held). */
static void vpux_pm_restore_mmu_locked(struct vpux_device *vdev)
{
	u32 i;

	lockdep_assert_held(&vdev->fw.lock);
	for (i = 0; i < vdev->hw.ctx_slots; i++) {
		u64 root;

		if (!vdev->slots[i].ctx)
			continue;
		root = vpux_mmu_root_addr(vdev->slots[i].ctx);
		vpux_reg_write(vdev, VPUX_REG_MMU_PT_LO(i), lower_32_bits(root));
		vpux_reg_write(vdev, VPUX_REG_MMU_PT_HI(i), upper_32_bits(root));
		vpux_reg_write(vdev, VPUX_REG_MMU_CTRL(i), VPUX_MMU_CTRL_ENABLE);
	}
	vpux_reg_write(vdev, VPUX_REG_MMU_INVALIDATE,
		       GENMASK(vdev->hw.ctx_slots - 1, 0));
}

static int vpux_pm_runtime_suspend(struct device *dev)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);

	scoped_guard(mutex, &vdev->fw.lock) {
		if (vdev->dead || vdev->pm.off)
			return 0;
		if (!vpux_pm_quiet_locked(vdev))
			return -EBUSY;
		/*
		 * The last register accesses of anyone but this. Masked in
		 * the same step as the top half learns it must not ack: it
		 * never sees an unmasked line it may not lower.
		 */
		vdev->pm.irq_mask = vpux_reg_read(vdev, VPUX_REG_IRQ_MASK);
		scoped_guard(spinlock_irq, &vdev->fw.isr_lock) {
			vpux_reg_write(vdev, VPUX_REG_IRQ_MASK, 0);
			vdev->pm.off = true;
		}
	}
	vdev->pm.inject[0] = vpux_reg_read(vdev, VPUX_REG_INJECT);
	vdev->pm.inject[1] = vpux_reg_read(vdev, VPUX_REG_INJECT_ARG);
	synchronize_irq(vdev->irq);
	vpux_headed_power_down(vdev);
	if (vpux_has_power_ctrl(vdev))
		vpux_reg_write(vdev, VPUX_REG_PWR_CTRL, 0);
	atomic_inc(&vdev->pm.suspends);
	vpux_pm_state_changed(vdev, false);
	return 0;
}

static int vpux_pm_runtime_resume(struct device *dev)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);
	u32 st;
	int ret;

	if (READ_ONCE(vdev->dead) || !READ_ONCE(vdev->pm.off))
		return 0;
	if (vpux_has_power_ctrl(vdev)) {
		vpux_reg_write(vdev, VPUX_REG_PWR_CTRL, VPUX_PWR_ON);
		ret = read_poll_timeout(vpux_reg_read, st, st & VPUX_PWR_ON,
					10, VPUX_PWR_ON_US, false, vdev,
					VPUX_REG_PWR_STATUS);
		if (ret) {
			vpux_err(vdev, "NPU did not power on: %d\n", ret);
			return ret;
		}
	}
	vpux_reg_write(vdev, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL | VPUX_IRQ_MC);
	vpux_reg_write(vdev, VPUX_REG_INJECT_ARG, vdev->pm.inject[1]);
	vpux_reg_write(vdev, VPUX_REG_INJECT, vdev->pm.inject[0]);
	/* headed: a firmware that does not boot fails the jobs, as a reload */
	vpux_headed_power_up(vdev);

	scoped_guard(mutex, &vdev->fw.lock) {
		/* headless: the core must write whole descriptors again */
		if (!vdev->mc.on)
			dla_engines_lost_state(vdev->fw.engine);
		vpux_pm_restore_mmu_locked(vdev);
		/* as at suspend: the top half acks from the unmask on */
		scoped_guard(spinlock_irq, &vdev->fw.isr_lock) {
			vdev->pm.off = false;
			vpux_reg_write(vdev, VPUX_REG_IRQ_MASK,
				       vdev->pm.irq_mask);
		}
		if (!vdev->pm.hold)
			vpux_sched_dispatch_locked(vdev);
	}
	vpux_sched_signal_done(vdev);
	atomic_inc(&vdev->pm.resumes);
	vpux_pm_state_changed(vdev, true);
	return 0;
}

/* Let the held-back jobs start (system resume, or a failed suspend). */
static void vpux_pm_release_hold(struct vpux_device *vdev)
{
	scoped_guard(mutex, &vdev->fw.lock) {
		vdev->pm.hold = false;
		if (!vdev->pm.off)
			vpux_sched_dispatch_locked(vdev);
	}
	vpux_sched_signal_done(vdev);
}

static int vpux_pm_suspend(struct device *dev)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);
	/* the watchdog aborts a hung job within three timeouts */
	unsigned long timeout = msecs_to_jiffies(3 * vpux_job_timeout_ms(vdev) +
						 1000);
	int ret;

	scoped_guard(mutex, &vdev->fw.lock)
		vdev->pm.hold = true;
	if (!vpux_pm_wait_quiet(vdev, timeout)) {
		vpux_err(vdev, "jobs still on the NPU: suspend refused\n");
		vpux_pm_release_hold(vdev);
		return -EBUSY;
	}
	ret = pm_runtime_force_suspend(dev);
	if (ret)
		vpux_pm_release_hold(vdev);
	else
		atomic_inc(&vdev->pm.system_suspends);
	return ret;
}

static int vpux_pm_resume(struct device *dev)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);
	int ret;

	ret = pm_runtime_force_resume(dev);
	vpux_pm_release_hold(vdev);
	return ret;
}

const struct dev_pm_ops vpux_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(vpux_pm_suspend, vpux_pm_resume)
	RUNTIME_PM_OPS(vpux_pm_runtime_suspend, vpux_pm_runtime_resume, NULL)
};

/**
 * vpux_pm_init() - enable runtime PM, the device active and held
 * @vdev: the device, powered and set up
 *
 * The reference taken here is dropped by vpux_pm_probe_done() once the
 * device is registered, or by the probe's error path
 * (pm_runtime_put_noidle()); runtime PM is disabled again by devm.
 *
 * Return: 0 or a negative errno.
 */
int vpux_pm_init(struct vpux_device *vdev)
{
	struct device *dev = vdev->drm.dev;
	int ret;

	init_waitqueue_head(&vdev->pm.idle_wq);
	pm_runtime_set_autosuspend_delay(dev, autosuspend_delay_ms);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_get_noresume(dev);
	ret = pm_runtime_set_active(dev);
	if (ret)
		goto err_put;
	ret = devm_pm_runtime_enable(dev);
	if (ret)
		goto err_put;
	return 0;

err_put:
	pm_runtime_put_noidle(dev);
	return ret;
}

/**
 * vpux_pm_probe_done() - the device is registered: let it autosuspend
 * @vdev: the device
 */
void vpux_pm_probe_done(struct vpux_device *vdev)
{
	pm_runtime_mark_last_busy(vdev->drm.dev);
	__pm_runtime_put_autosuspend(vdev->drm.dev);
}

/**
 * vpux_pm_remove_begin() - power the device on for its removal
 * @vdev: the device
 *
 * The driver core drops its own reference before remove(): this one
 * keeps the NPU powered for the last register writes
 * (vpux_sched_quiesce()).
 */
void vpux_pm_remove_begin(struct vpux_device *vdev)
{
	int ret = pm_runtime_resume_and_get(vdev->drm.dev);

	if (ret) {
		vpux_err(vdev, "cannot power the NPU on for removal: %d\n", ret);
		/* the reference is taken all the same, for _end() to drop */
		pm_runtime_get_noresume(vdev->drm.dev);
	}
}

/**
 * vpux_pm_remove_end() - the device is dead: drop the removal's reference
 * @vdev: the device
 *
 * Without an idle check: the callbacks touch nothing once the device is
 * dead, and runtime PM is disabled by devm after remove() returned, so
 * the usage count a later probe starts from is the one this one did.
 */
void vpux_pm_remove_end(struct vpux_device *vdev)
{
	pm_runtime_put_noidle(vdev->drm.dev);
}

/**
 * vpux_pm_get() - power the NPU on and keep it on (debugfs)
 * @vdev: the device
 *
 * Process context; vpux_pm_put() drops the reference.
 *
 * Return: 0 or a negative errno (no reference then).
 */
int vpux_pm_get(struct vpux_device *vdev)
{
	return pm_runtime_resume_and_get(vdev->drm.dev);
}

/**
 * vpux_pm_put() - drop a vpux_pm_get() reference
 * @vdev: the device
 *
 * Any context: the NPU suspends after the autosuspend delay.
 */
void vpux_pm_put(struct vpux_device *vdev)
{
	pm_runtime_mark_last_busy(vdev->drm.dev);
	__pm_runtime_put_autosuspend(vdev->drm.dev);
}

/**
 * vpux_pm_job_get() - a submitted job keeps the NPU powered
 * @job: the job, at SUBMIT (process context)
 *
 * Return: 0, or a negative errno when the NPU cannot be powered on.
 */
int vpux_pm_job_get(struct vpux_job *job)
{
	int ret = vpux_pm_get(job->vdev);

	if (ret) {
		vpux_err_ratelimited(job->vdev, "SUBMIT: cannot power the NPU on: %d\n",
				     ret);
		return ret;
	}
	job->pm_ref = true;
	return 0;
}

/**
 * vpux_pm_job_put() - the job is done with the NPU
 * @job: the job: its fence signals, or it is freed without having run
 *
 * Any context, hard IRQ included. Idempotent.
 */
void vpux_pm_job_put(struct vpux_job *job)
{
	if (!job->pm_ref)
		return;
	job->pm_ref = false;
	vpux_pm_put(job->vdev);
}
