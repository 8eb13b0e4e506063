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
 * vpux_hang_capture() - read the device state as a hung job left it
 * @vdev: the device, fw.lock held
 * @job: the job about to be aborted
 * @st: the engine core's last status of its task
 * @hs: out
 *
 * Register reads only: this runs in the fence signalling path.
 */
void vpux_hang_capture(struct vpux_device *vdev, struct vpux_job *job,
		       const struct dla_task_status *st,
		       struct vpux_hang_state *hs)
{
	u32 n = vdev->hw.n_dma + vdev->hw.n_dpu + vdev->hw.n_shave, e;

	lockdep_assert_held(&vdev->fw.lock);
	hs->seqno = job->slot->seqno;
	hs->priority = job->priority;
	hs->ctx_slot = job->hw_slot;
	hs->st = *st;
	hs->irq_status = vpux_reg_read(vdev, VPUX_REG_IRQ_STATUS);
	hs->irq_mask = vpux_reg_read(vdev, VPUX_REG_IRQ_MASK);
	hs->fault_status = vpux_reg_read(vdev, VPUX_REG_FAULT_STATUS);
	hs->fault_addr = vpux_reg_read64(vdev, VPUX_REG_FAULT_ADDR_LO,
					 VPUX_REG_FAULT_ADDR_HI);
	hs->n_engines = min_t(u32, n, ARRAY_SIZE(hs->eng));
	for (e = 0; e < hs->n_engines; e++) {
		u32 base = VPUX_REG_ENGINE(e);

		hs->eng[e].kind = vpux_reg_read(vdev, base + VPUX_ENG_KIND);
		hs->eng[e].status = vpux_reg_read(vdev, base + VPUX_ENG_STATUS);
		hs->eng[e].ctx = vpux_reg_read(vdev, base + VPUX_ENG_CTX);
		hs->eng[e].ops_done = vpux_reg_read(vdev, base + VPUX_ENG_OPS_DONE);
		hs->eng[e].op_cycles = vpux_reg_read(vdev, base + VPUX_ENG_OP_CYCLES);
	}
}

/**
 * vpux_hang_report() - write a devcoredump of a hang and tell user space
 * @vdev: the device
 * @hs: from vpux_hang_capture()
 *
 * Process context, after the hung job's fence signalled; allocates.
 */
void vpux_hang_report(struct vpux_device *vdev,
		      const struct vpux_hang_state *hs)
{
	char *envp[] = { "VPUX_HANG=1", NULL };
	const struct dla_task_status *st = &hs->st;
	size_t len = 0;
	char *buf;
	u32 e;

	/* dev_coredumpv() releases the buffer with vfree() */
	buf = vzalloc(VPUX_DUMP_SIZE);
	if (buf) {
		len += scnprintf(buf + len, VPUX_DUMP_SIZE - len,
				 "vpux hang report\njob %llu priority %u ctx_slot %d\n"
				 "task: %u of %u ops done, op_cycles %llu, device_cycles %llu\n"
				 "irq_status %#x irq_mask %#x fault_status %#x fault_addr %#llx\n",
				 hs->seqno, hs->priority, hs->ctx_slot,
				 st->ops_done, st->ops_total, st->op_cycles,
				 st->device_cycles, hs->irq_status, hs->irq_mask,
				 hs->fault_status, hs->fault_addr);
		for (e = 0; e < hs->n_engines; e++)
			len += scnprintf(buf + len, VPUX_DUMP_SIZE - len,
					 "engine %u kind %u status %#x ctx %u ops_done %u last_op_cycles %u\n",
					 e, hs->eng[e].kind, hs->eng[e].status,
					 hs->eng[e].ctx, hs->eng[e].ops_done,
					 hs->eng[e].op_cycles);
		/* devcoredump owns buf from here, even when disabled */
		dev_coredumpv(vdev->drm.dev, buf, len, GFP_KERNEL);
	}
	kobject_uevent_env(&vdev->drm.dev->kobj, KOBJ_CHANGE, envp);
}
