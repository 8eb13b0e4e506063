// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a hang leaves behind for whoever debugs it: a devcoredump (read
 * from /sys/class/devcoredump/devcdN/data, freed on write or after five
 * minutes) with the engines' registers and the aborted task's state, and
 * a uevent (VPUX_HANG=1) on the device so user space can collect it.
 */

#include <linux/devcoredump.h>
#include <linux/kobject.h>
#include <linux/vmalloc.h>

#include "dla_interface.h"
#include "vpux_drv.h"
#include "vpux_job.h"

#define VPUX_DUMP_SIZE	4096

/**
 * vpux_hang_report() - capture the device state after a hang
 * @vdev: the device
 * @job: the aborted job
 * @st: the engine core's last status of its task
 *
 * Process context (the scheduler's timeout work); may sleep.
 */
void vpux_hang_report(struct vpux_device *vdev, struct vpux_job *job,
		      const struct dla_task_status *st)
{
	char *envp[] = { "VPUX_HANG=1", NULL };
	u32 n = vdev->hw.n_dma + vdev->hw.n_dpu + vdev->hw.n_shave, e;
	size_t len = 0;
	char *buf;

	/* dev_coredumpv() releases the buffer with vfree() */
	buf = vzalloc(VPUX_DUMP_SIZE);
	if (buf) {
		len += scnprintf(buf + len, VPUX_DUMP_SIZE - len,
				 "vpux hang report\njob %llu priority %u ctx_slot %d\n"
				 "task: %u of %u ops done, op_cycles %llu, device_cycles %llu\n"
				 "irq_status %#x irq_mask %#x fault_status %#x fault_addr %#llx\n",
				 job->slot->seqno, job->priority, job->hw_slot,
				 st->ops_done, st->ops_total, st->op_cycles,
				 st->device_cycles,
				 vpux_reg_read(vdev, VPUX_REG_IRQ_STATUS),
				 vpux_reg_read(vdev, VPUX_REG_IRQ_MASK),
				 vpux_reg_read(vdev, VPUX_REG_FAULT_STATUS),
				 vpux_reg_read64(vdev, VPUX_REG_FAULT_ADDR_LO,
						 VPUX_REG_FAULT_ADDR_HI));
		for (e = 0; e < n; e++) {
			u32 base = VPUX_REG_ENGINE(e);

			len += scnprintf(buf + len, VPUX_DUMP_SIZE - len,
					 "engine %u kind %u status %#x ctx %u ops_done %u last_op_cycles %u\n",
					 e, vpux_reg_read(vdev, base + VPUX_ENG_KIND),
					 vpux_reg_read(vdev, base + VPUX_ENG_STATUS),
					 vpux_reg_read(vdev, base + VPUX_ENG_CTX),
					 vpux_reg_read(vdev, base + VPUX_ENG_OPS_DONE),
					 vpux_reg_read(vdev, base + VPUX_ENG_OP_CYCLES));
		}
		/* devcoredump owns buf from here, even when disabled */
		dev_coredumpv(vdev->drm.dev, buf, len, GFP_KERNEL);
	}
	kobject_uevent_env(&vdev->drm.dev->kobj, KOBJ_CHANGE, envp);
}
