// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a hang (or, with debugfs coredump_failed, any failed job) leaves
 * behind for whoever debugs it: a devcoredump (read from
 * /sys/class/devcoredump/devcdN/data, freed on write or after five
 * minutes) with a text report (the engines' registers and the aborted
 * task's state for a hang) and a binary appendix holding what vpux-replay
 * needs to run the job again (uapi/vpux/vpux_coredump.h: the address
 * list, the buffers' contents up to VPUX_DUMP_DATA_CAP, the model's fault
 * injection), and a uevent (VPUX_HANG=1 or VPUX_JOB_FAILED=1) on the
 * device so user space can collect it.
 *
 * devcoredump keeps one dump per device until it is read or times out
 * (drivers/base/devcoredump.c): a later one is dropped meanwhile, so the
 * first failure is the one kept. The dump holds only the address-list
 * entries of the job itself, each only its own range of a BO of the
 * job's file; another driver's dma-buf is not read.
 */

#include <linux/devcoredump.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_gem.h>

#include "dla_interface.h"
#include "vpux_coredump.h"
#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_headed.h"
#include "vpux_job.h"

/* the text report: the hang's registers and one line per entry */
#define VPUX_DUMP_TEXT	(4096 + VPUX_MAX_ADDR_ENTRIES * 96)

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
 * vpux_job_wants_dump() - whether freeing @job writes a devcoredump
 * @job: a finished job
 *
 * Return: true for a hung job, and for one that failed (engine or core
 * error, MMU fault) when debugfs coredump_failed is set.
 */
bool vpux_job_wants_dump(struct vpux_job *job)
{
	u32 st = job->result.status;

	return job->hung ||
	       (READ_ONCE(job->vdev->dump_failed) &&
		(st == DRM_VPUX_STATUS_ERROR || st == DRM_VPUX_STATUS_MMU_FAULT));
}

static const char *vpux_status_name(u32 status)
{
	switch (status) {
	case DRM_VPUX_STATUS_DONE: return "DONE";
	case DRM_VPUX_STATUS_ERROR: return "ERROR";
	case DRM_VPUX_STATUS_MMU_FAULT: return "MMU_FAULT";
	case DRM_VPUX_STATUS_TIMEOUT: return "TIMEOUT";
	case DRM_VPUX_STATUS_ABORTED: return "ABORTED";
	}
	return "?";
}

/* the text report, in @t (VPUX_DUMP_TEXT bytes); returns its length */
static size_t vpux_dump_text(struct vpux_job *job, char *t,
			     const struct vpux_dump_entry *ent, u32 n,
			     u64 data)
{
	const struct vpux_job_result *r = &job->result;
	const struct vpux_hang_state *hs = &job->hang;
	size_t len = 0;
	u32 e;

	if (job->hung) {
		len += scnprintf(t + len, VPUX_DUMP_TEXT - len,
				 "vpux hang report\njob %llu priority %u ctx_slot %d\n"
				 "task: %u of %u ops done, op_cycles %llu, device_cycles %llu\n"
				 "irq_status %#x irq_mask %#x fault_status %#x fault_addr %#llx\n",
				 hs->seqno, hs->priority, hs->ctx_slot,
				 hs->st.ops_done, hs->st.ops_total,
				 hs->st.op_cycles, hs->st.device_cycles,
				 hs->irq_status, hs->irq_mask,
				 hs->fault_status, hs->fault_addr);
		for (e = 0; e < hs->n_engines; e++)
			len += scnprintf(t + len, VPUX_DUMP_TEXT - len,
					 "engine %u kind %u status %#x ctx %u ops_done %u last_op_cycles %u\n",
					 e, hs->eng[e].kind, hs->eng[e].status,
					 hs->eng[e].ctx, hs->eng[e].ops_done,
					 hs->eng[e].op_cycles);
	} else {
		len += scnprintf(t + len, VPUX_DUMP_TEXT - len,
				 "vpux job report\njob %llu priority %u\n",
				 job->slot->seqno, job->priority);
	}
	len += scnprintf(t + len, VPUX_DUMP_TEXT - len,
			 "status %s sys_error %d core_error %u fail_op %#x fault_addr %#llx\n"
			 "inject %#x inject_arg %u\n",
			 vpux_status_name(r->status), r->sys_error,
			 r->core_error, r->fail_op, r->fault_addr,
			 job->inject[0], job->inject[1]);
	for (e = 0; e < n; e++)
		len += scnprintf(t + len, VPUX_DUMP_TEXT - len,
				 "entry %u addr %#llx size %llu dumped %llu%s%s\n",
				 e, ent[e].addr, ent[e].size, ent[e].dumped,
				 ent[e].flags & VPUX_DUMP_ENTRY_READONLY ?
				 " readonly" : "",
				 ent[e].flags & VPUX_DUMP_ENTRY_TRUNCATED ?
				 " truncated" : "");
	len += scnprintf(t + len, VPUX_DUMP_TEXT - len,
			 "binary appendix: %u entries, %llu bytes of data (cap %u), see Documentation/profiling.rst\n",
			 n, data, VPUX_DUMP_DATA_CAP);
	return len;
}

/**
 * vpux_job_dump() - write @job's devcoredump
 * @job: a finished job whose BOs it still holds
 *
 * The text, a NUL, the appendix at the next 8-byte boundary. Process
 * context on vpux_wq (vpux_job_release()); allocates.
 */
void vpux_job_dump(struct vpux_job *job)
{
	struct vpux_device *vdev = job->vdev;
	char *envp[2] = { NULL, NULL };
	u32 n = job->task_in.count, e, left = VPUX_DUMP_DATA_CAP;
	u32 count[DLA_OP_KINDS] = { 0, 0, 0 }, n_ops = 0, *cycles = NULL;
	struct vpux_dump_entry *ent;
	struct vpux_dump_header *h;
	void *src[VPUX_MAX_ADDR_ENTRIES];
	size_t tlen, off, total;
	u64 data = 0;
	char *text, *buf;

	BUILD_BUG_ON(sizeof(*h) % 8 || sizeof(*ent) % 8);
	n = min_t(u32, n, VPUX_MAX_ADDR_ENTRIES);
	ent = kcalloc(n ? n : 1, sizeof(*ent), GFP_KERNEL);
	text = kmalloc(VPUX_DUMP_TEXT, GFP_KERNEL);
	if (!ent || !text)
		goto out;
	for (e = 0; e < n; e++) {
		struct vpux_bo *bo = to_vpux_bo(job->bos[job->ent[e].bo]);
		void *vaddr = NULL;

		ent[e].addr = job->task_in.list[e].addr;
		ent[e].size = job->task_in.list[e].size;
		if (bo->flags & DRM_VPUX_BO_DEVICE_READONLY)
			ent[e].flags |= VPUX_DUMP_ENTRY_READONLY;
		/* only the entry's range of the job's own BO */
		if (!bo->foreign && !vpux_bo_kmap(bo, &vaddr) && vaddr)
			ent[e].dumped = min_t(u64, ent[e].size, left);
		src[e] = vaddr ? vaddr + job->ent[e].offset : NULL;
		left -= ent[e].dumped;
		data += ent[e].dumped;
		if (ent[e].dumped < ent[e].size)
			ent[e].flags |= VPUX_DUMP_ENTRY_TRUNCATED;
	}
	/* which ops completed: the replay's reference timeline */
	if (job->task && dla_task_op_cycles(job->task, count, NULL, 0) >= 0) {
		n_ops = count[0] + count[1] + count[2];
		cycles = kvcalloc(n_ops ? n_ops : 1, sizeof(*cycles), GFP_KERNEL);
		if (!cycles)
			goto out;
		dla_task_op_cycles(job->task, count, cycles, n_ops);
		/* headed: the kernel's copy never ran; the firmware's did */
		if (job->stage.cpu)
			vpux_headed_op_cycles(job, cycles, n_ops);
	}
	tlen = vpux_dump_text(job, text, ent, n, data);
	off = ALIGN(tlen + 1, 8);
	total = off + sizeof(*h) + n * sizeof(*ent) +
		ALIGN((size_t)n_ops * sizeof(*cycles), 8);
	for (e = 0; e < n; e++)
		total += ALIGN(ent[e].dumped, 8);
	/* dev_coredumpv() releases the buffer with vfree() */
	buf = vzalloc(total);
	if (!buf)
		goto out;
	memcpy(buf, text, tlen);
	h = (struct vpux_dump_header *)(buf + off);
	memcpy(h->magic, VPUX_DUMP_MAGIC, sizeof(h->magic));
	h->version = VPUX_DUMP_VERSION;
	h->header_size = sizeof(*h);
	h->entry_size = sizeof(*ent);
	h->n_entries = n;
	h->cap = VPUX_DUMP_DATA_CAP;
	h->status = job->result.status;
	h->sys_error = job->result.sys_error;
	h->core_error = job->result.core_error;
	h->fail_op = job->result.fail_op;
	h->fault_addr = job->result.fault_addr;
	h->inject = job->inject[0];
	h->inject_arg = job->inject[1];
	h->priority = job->priority;
	h->engines[0] = vdev->hw.n_dma;
	h->engines[1] = vdev->hw.n_dpu;
	h->engines[2] = vdev->hw.n_shave;
	h->seqno = job->slot->seqno;
	h->ops_done = job->hung ? job->hang.st.ops_done : 0;
	h->ops_total = job->hung ? job->hang.st.ops_total : 0;
	if (!job->task)
		h->flags |= VPUX_DUMP_REFUSED;
	memcpy(h->op_count, count, sizeof(h->op_count));
	off += sizeof(*h);
	memcpy(buf + off, ent, n * sizeof(*ent));
	off += n * sizeof(*ent);
	if (n_ops)
		memcpy(buf + off, cycles, n_ops * sizeof(*cycles));
	off += ALIGN((size_t)n_ops * sizeof(*cycles), 8);
	for (e = 0; e < n; e++) {
		if (ent[e].flags & VPUX_DUMP_ENTRY_TRUNCATED)
			h->flags |= VPUX_DUMP_TRUNCATED;
		if (ent[e].dumped)
			memcpy(buf + off, src[e], ent[e].dumped);
		off += ALIGN(ent[e].dumped, 8);
	}
	/* devcoredump owns buf from here, even when disabled */
	dev_coredumpv(vdev->drm.dev, buf, total, GFP_KERNEL);
out:
	kvfree(cycles);
	kfree(text);
	kfree(ent);
	envp[0] = job->hung ? "VPUX_HANG=1" : "VPUX_JOB_FAILED=1";
	kobject_uevent_env(&vdev->drm.dev->kobj, KOBJ_CHANGE, envp);
}

