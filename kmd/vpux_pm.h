/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Power management of the NPU: runtime PM (autosuspend of an idle NPU)
 * and system sleep (vpux_pm.c, Documentation/architecture.rst, "Power
 * management").
 */
#ifndef __VPUX_PM_H__
#define __VPUX_PM_H__

#include <linux/atomic.h>
#include <linux/pm.h>
#include <linux/types.h>
#include <linux/wait.h>

struct vpux_device;
struct vpux_job;

/**
 * struct vpux_pm - power state of one device
 * @off: (fw) the NPU's switchable power domain is off: nothing may touch
 *	its registers (only the always-on ones) and no job starts
 * @hold: (fw) system sleep is under way: no job starts, the jobs handed
 *	over wait in their queues until resume
 * @irq_mask: IRQ_MASK as it was at suspend, restored at resume
 * @inject: INJECT and INJECT_ARG as they were at suspend (debugfs fault
 *	injection survives a power cycle)
 * @idle_wq: system suspend waits here for the jobs on the NPU to finish
 * @suspends: runtime suspends since probe (debugfs power)
 * @resumes: runtime resumes since probe (debugfs power)
 * @system_suspends: system suspends that quiesced the device (debugfs)
 */
struct vpux_pm {
	bool off;
	bool hold;
	u32 irq_mask;
	u32 inject[2];
	wait_queue_head_t idle_wq;
	atomic_t suspends;
	atomic_t resumes;
	atomic_t system_suspends;
};

extern const struct dev_pm_ops vpux_pm_ops;

int vpux_pm_init(struct vpux_device *vdev);
void vpux_pm_probe_done(struct vpux_device *vdev);
void vpux_pm_remove_begin(struct vpux_device *vdev);
void vpux_pm_remove_end(struct vpux_device *vdev);
int vpux_pm_job_get(struct vpux_job *job);
void vpux_pm_job_put(struct vpux_job *job);
int vpux_pm_get(struct vpux_device *vdev);
void vpux_pm_put(struct vpux_device *vdev);
void vpux_pm_wake(struct vpux_device *vdev);
bool vpux_pm_hw_on(struct vpux_device *vdev);

#endif /* __VPUX_PM_H__ */
