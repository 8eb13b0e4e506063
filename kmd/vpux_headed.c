// SPDX-License-Identifier: GPL-2.0-only
/*
 * Headed mode: the engine core runs as firmware on the NPU's management
 * core instead of in this driver (Documentation/firmware.rst).
 *
 * SUBMIT is the same in both modes: the kernel's own core instance
 * validates the task and builds it, so a task is refused with the same
 * error either way, and CMX ownership and profiles work from the kernel's
 * copy. A headed job also gets a staging buffer: its address list, a
 * copy of its task memory and, for a plan, the symbol values the kernel's
 * core checked, which the firmware validates and builds again on its
 * side. Starting a job posts a RUN command and rings the doorbell;
 * the firmware's completion interrupt hands back each task's status and
 * each op's cycles, and the job completes as a headless one would.
 *
 * The image and the shared memory are little endian, like the driver
 * (Kconfig), so they are read and written natively.
 *
 * The firmware is loaded with request_firmware() at probe, checked
 * (header, ABI version, sizes, CRC, the engine core's limits) and copied
 * into the management core's RAM; the driver waits for it to report
 * READY. A crash (the core's trap handler reports it and interrupts) or a
 * heartbeat that stops moving (the watchdog) fails the jobs on the NPU
 * with ABORTED / -EIO once the management core and the engines are
 * reset, reloads the image and lets the queued jobs start.
 *
 * Every field marked (fw) in struct vpux_headed is under vpux_fw.lock,
 * like the rest of the job path; the rings are read and written only
 * under it.
 */

#include <linux/crc32.h>
#include <linux/dma-mapping.h>
#include <linux/firmware.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "dla_interface.h"
#include "dla_port.h"
#include <drm/vpux_task.h>
#include "vpux_drv.h"
#include "vpux_fw_abi.h"
#include "vpux_headed.h"
#include "vpux_job.h"
#include "vpux_mc.h"
#include "vpux_regs.h"

#define VPUX_FW_NAME		"vpux/vpux_fw.bin"
#define VPUX_FW_BOOT_US		(5 * USEC_PER_SEC)
/*
 * The heartbeat is lost after this long without a beat: the firmware
 * beats every 5 ms, but under a loaded, emulated or debug kernel its
 * execution unit may wait for a CPU for a good part of a second behind
 * the engines' (two DMA units copying on two vCPUs under KASAN did).
 */
#define VPUX_FW_DEAD_NS		(200ull * VPUX_FW_HEARTBEAT_US * NSEC_PER_USEC)

/* shared memory layout: header, rings, progress table, log */
#define VPUX_SHM_SIZE		SZ_64K
#define VPUX_SHM_CMD_OFF	256u
#define VPUX_SHM_CMD_N		64u
#define VPUX_SHM_CPL_OFF	4096u
#define VPUX_SHM_CPL_N		64u
#define VPUX_SHM_PROG_OFF	12288u
#define VPUX_SHM_LOG_OFF	16384u
#define VPUX_SHM_LOG_SIZE	32768u

static_assert(VPUX_SHM_CMD_OFF + VPUX_SHM_CMD_N * sizeof(struct vpux_fw_cmd) <=
	      VPUX_SHM_CPL_OFF);
static_assert(VPUX_SHM_CPL_OFF + VPUX_SHM_CPL_N * sizeof(struct vpux_fw_cpl) <=
	      VPUX_SHM_PROG_OFF);
static_assert(VPUX_SHM_PROG_OFF + DLA_MAX_TASKS * sizeof(struct vpux_fw_progress) <=
	      VPUX_SHM_LOG_OFF);
static_assert(VPUX_SHM_LOG_OFF + VPUX_SHM_LOG_SIZE <= VPUX_SHM_SIZE);
/* at most two commands per task slot are ever outstanding */
static_assert(VPUX_SHM_CMD_N >= 2 * DLA_MAX_TASKS);

static bool headed;

static int vpux_mode_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "headless"))
		headed = false;
	else if (sysfs_streq(val, "headed"))
		headed = true;
	else
		return -EINVAL;
	return 0;
}

static int vpux_mode_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", headed ? "headed" : "headless");
}

static const struct kernel_param_ops vpux_mode_ops = {
	.set = vpux_mode_set,
	.get = vpux_mode_get,
};
module_param_cb(mode, &vpux_mode_ops, NULL, 0444);
MODULE_PARM_DESC(mode, "Engine core: headless (in the driver, default) or headed (firmware on the NPU)");
MODULE_FIRMWARE(VPUX_FW_NAME);

/**
 * vpux_headed_mode() - the mode the module was loaded in
 *
 * Return: true for mode=headed.
 */
bool vpux_headed_mode(void)
{
	return headed;
}

/* Check the image's header the way the firmware's ABI defines it. */
static int vpux_headed_check(struct vpux_device *vdev,
			     const struct firmware *fw)
{
	const struct vpux_fw_header *hdr = (const void *)fw->data;
	u32 ram = vpux_reg_read(vdev, VPUX_REG_MC_MEM_SIZE);
	u32 crc;

	if (fw->size < sizeof(*hdr)) {
		vpux_err(vdev, "firmware %s: truncated: %zu bytes\n",
			 VPUX_FW_NAME, fw->size);
		return -EINVAL;
	}
	if (hdr->magic != VPUX_FW_MAGIC) {
		vpux_err(vdev, "firmware %s: not a vpux image (magic %#x)\n",
			 VPUX_FW_NAME, hdr->magic);
		return -EINVAL;
	}
	if (hdr->abi_major != VPUX_FW_ABI_MAJOR) {
		vpux_err(vdev, "firmware %s: ABI %u.%u, the driver speaks %u.x\n",
			 VPUX_FW_NAME, hdr->abi_major,
			 hdr->abi_minor, VPUX_FW_ABI_MAJOR);
		return -EINVAL;
	}
	if (hdr->header_size != sizeof(*hdr) ||
	    hdr->image_size != fw->size) {
		vpux_err(vdev, "firmware %s: truncated or padded: the header says %u bytes, the file has %zu\n",
			 VPUX_FW_NAME, hdr->image_size, fw->size);
		return -EINVAL;
	}
	if (hdr->load_addr != VPUX_MC_RAM_BASE ||
	    hdr->entry < VPUX_MC_RAM_BASE ||
	    hdr->entry - VPUX_MC_RAM_BASE >= fw->size ||
	    hdr->ram_size < fw->size ||
	    hdr->ram_size > ram) {
		vpux_err(vdev, "firmware %s: loads at %#x, starts at %#x, needs %u bytes of RAM; the management core has %u at %#x\n",
			 VPUX_FW_NAME, hdr->load_addr,
			 hdr->entry, hdr->ram_size,
			 ram, VPUX_MC_RAM_BASE);
		return -EINVAL;
	}
	crc = ~crc32_le(~0u, fw->data + sizeof(*hdr), fw->size - sizeof(*hdr));
	if (crc != hdr->crc32) {
		vpux_err(vdev, "firmware %s: corrupt: CRC %#x, the header says %#x\n",
			 VPUX_FW_NAME, crc, hdr->crc32);
		return -EINVAL;
	}
	if (hdr->max_tasks != DLA_MAX_TASKS ||
	    hdr->max_ops != DLA_MAX_OPS_PER_TASK ||
	    hdr->max_barriers != DLA_MAX_BARRIERS ||
	    hdr->max_deps != DLA_MAX_DEPS_PER_TASK ||
	    hdr->max_addr_entries != DLA_MAX_ADDR_ENTRIES) {
		vpux_err(vdev, "firmware %s: built for other engine-core limits than the driver's\n",
			 VPUX_FW_NAME);
		return -EINVAL;
	}
	if (strnlen(hdr->version, sizeof(hdr->version)) == sizeof(hdr->version)) {
		vpux_err(vdev, "firmware %s: version string not terminated\n",
			 VPUX_FW_NAME);
		return -EINVAL;
	}
	return 0;
}

/* A fresh shared memory: header, empty rings and progress, empty log. */
static void vpux_headed_shm_reset(struct vpux_headed *h)
{
	struct vpux_fw_shm *shm = h->shm;

	memset(shm, 0, h->shm_size);
	shm->size = h->shm_size;
	shm->cmd_offset = VPUX_SHM_CMD_OFF;
	shm->cmd_entries = VPUX_SHM_CMD_N;
	shm->cpl_offset = VPUX_SHM_CPL_OFF;
	shm->cpl_entries = VPUX_SHM_CPL_N;
	shm->log_offset = VPUX_SHM_LOG_OFF;
	shm->log_size = VPUX_SHM_LOG_SIZE;
	shm->progress_offset = VPUX_SHM_PROG_OFF;
	shm->progress_entries = DLA_MAX_TASKS;
	/* the firmware checks the magic last */
	dma_wmb();
	WRITE_ONCE(shm->magic, VPUX_FW_SHM_MAGIC);
	h->cmd_seq = 0;
}

/*
 * The host's interrupt mask of a headed device: the engines interrupt the
 * firmware, the firmware the host. Not part of vpux_headed_boot(): a
 * runtime resume boots with the line masked and restores the mask only
 * once the handler looks at the device again (vpux_pm.c); unmasked, the
 * booting firmware's interrupt would find the handler ignoring a device
 * it still counts as powered off.
 */
static void vpux_headed_unmask(struct vpux_device *vdev)
{
	vpux_reg_write(vdev, VPUX_REG_IRQ_MASK, VPUX_IRQ_MC | VPUX_IRQ_CMX_CLEAR);
}

/*
 * Reset the management core, load the image into its RAM, start it and
 * wait until it says READY. Sleeps; the core must not be running jobs.
 */
static int vpux_headed_boot(struct vpux_device *vdev)
{
	struct vpux_headed *h = &vdev->mc;
	const struct firmware *fw = h->image;
	const struct vpux_fw_header *hdr = (const void *)fw->data;
	size_t off;
	u32 st;
	int ret;

	vpux_reg_write(vdev, VPUX_REG_MC_CTRL, 0);
	vpux_headed_shm_reset(h);
	vpux_reg_write(vdev, VPUX_REG_MC_MEM_ADDR, 0);
	for (off = 0; off < fw->size; off += 4) {
		u32 w = 0;

		memcpy(&w, fw->data + off, min_t(size_t, 4, fw->size - off));
		vpux_reg_write(vdev, VPUX_REG_MC_MEM_DATA, w);
	}
	vpux_reg_write(vdev, VPUX_REG_MC_SHM_LO, lower_32_bits(h->shm_dma));
	vpux_reg_write(vdev, VPUX_REG_MC_SHM_HI, upper_32_bits(h->shm_dma));
	vpux_reg_write(vdev, VPUX_REG_MC_SHM_SIZE, h->shm_size);
	vpux_reg_write(vdev, VPUX_REG_MC_BOOT, hdr->entry);
	vpux_reg_write(vdev, VPUX_REG_MC_CTRL, VPUX_MC_CTRL_RUN);

	/* removal stops a reload's wait (vpux_headed_fini()) */
	ret = read_poll_timeout(vpux_reg_read, st,
				(st & 0xff) != VPUX_MC_STATUS_OFF ||
				READ_ONCE(vdev->dead), 1000,
				VPUX_FW_BOOT_US, false, vdev,
				VPUX_REG_MC_STATUS);
	if (ret) {
		vpux_err(vdev, "firmware did not boot within %lu ms\n",
			 VPUX_FW_BOOT_US / 1000);
		vpux_reg_write(vdev, VPUX_REG_MC_CTRL, 0);
		return -ETIMEDOUT;
	}
	if ((st & 0xff) != VPUX_MC_STATUS_READY) {
		vpux_err(vdev, "firmware failed to start: status %#x, info %#x\n",
			 st, vpux_reg_read(vdev, VPUX_REG_MC_INFO));
		vpux_reg_write(vdev, VPUX_REG_MC_CTRL, 0);
		return -EIO;
	}
	h->heartbeat = READ_ONCE(h->shm->heartbeat);
	h->heartbeat_ns = ktime_get_ns();
	return 0;
}

/**
 * vpux_headed_stop_locked() - stop the management core and the engines
 * @vdev: the device, fw.lock held
 *
 * Nothing the firmware started runs on when this returns: its ops are
 * aborted (VPUX_RESET_DEVICE), so their jobs may complete.
 */
void vpux_headed_stop_locked(struct vpux_device *vdev)
{
	lockdep_assert_held(&vdev->fw.lock);
	vpux_reg_write(vdev, VPUX_REG_MC_CTRL, 0);
	vpux_reg_write(vdev, VPUX_REG_RESET, VPUX_RESET_DEVICE);
}

/* Fail every job on the NPU; the firmware and the engines are stopped. */
static void vpux_headed_fail_running_locked(struct vpux_device *vdev)
{
	struct vpux_job_result res = {
		.status = DRM_VPUX_STATUS_ABORTED,
		.sys_error = -EIO,
	};
	u32 id;

	for (id = 0; id < DLA_MAX_TASKS; id++)
		if (vdev->running[id])
			vpux_sched_complete_locked(vdev, vdev->running[id], &res);
}

/* The firmware is gone (@why): stop it and have it reloaded. */
static void vpux_headed_lost_locked(struct vpux_device *vdev, const char *why)
{
	struct vpux_headed *h = &vdev->mc;

	lockdep_assert_held(&vdev->fw.lock);
	if (h->down || vdev->dead)
		return;
	drm_err_ratelimited(&vdev->drm, "firmware %s: status %#x, info %#x; reloading it\n",
			    why, vpux_reg_read(vdev, VPUX_REG_MC_STATUS),
			    vpux_reg_read(vdev, VPUX_REG_MC_INFO));
	h->down = true;
	atomic_inc(&h->reloads);
	vpux_headed_stop_locked(vdev);
	vpux_headed_fail_running_locked(vdev);
	queue_work(vdev->recovery_wq, &h->recover);
}

static void vpux_headed_recover(struct work_struct *work)
{
	struct vpux_headed *h = container_of(work, struct vpux_headed, recover);
	struct vpux_device *vdev = container_of(h, struct vpux_device, mc);
	bool cookie;
	int ret;

	/* jobs wait for the reload: it must not allocate (lockdep checks) */
	cookie = dma_fence_begin_signalling();
	vpux_sched_signal_done(vdev);
	vpux_headed_unmask(vdev);
	ret = vpux_headed_boot(vdev);
	mutex_lock(&vdev->fw.lock);
	if (!ret && !vdev->dead) {
		h->down = false;
		vpux_sched_dispatch_locked(vdev);
	} else if (ret) {
		vpux_err(vdev, "firmware reload failed (%d): jobs fail until the device is bound again\n",
			 ret);
		h->failed = true;
		vpux_sched_dispatch_locked(vdev);
	}
	mutex_unlock(&vdev->fw.lock);
	vpux_sched_signal_done(vdev);
	dma_fence_end_signalling(cookie);
}

/**
 * vpux_headed_init() - load and start the firmware (mode=headed)
 * @vdev: the device, its engine core and interrupt set up
 *
 * Return: 0 (also in headless mode), or a negative errno: probe fails
 * with a message naming what was wrong with the image.
 */
int vpux_headed_init(struct vpux_device *vdev)
{
	const struct vpux_fw_header *hdr;
	struct vpux_headed *h = &vdev->mc;
	struct device *dev = vdev->drm.dev;
	int ret;

	h->on = headed;
	if (!h->on)
		return 0;
	if (!(vdev->hw.caps & VPUX_CAP_MGMT_CORE)) {
		vpux_err(vdev, "mode=headed: the NPU has no management core\n");
		return -ENODEV;
	}
	INIT_WORK(&h->recover, vpux_headed_recover);
	ret = request_firmware(&h->image, VPUX_FW_NAME, dev);
	if (ret) {
		vpux_err(vdev, "mode=headed: cannot load firmware %s: %d\n",
			 VPUX_FW_NAME, ret);
		return ret;
	}
	ret = vpux_headed_check(vdev, h->image);
	if (ret)
		goto err_release;
	h->shm_size = VPUX_SHM_SIZE;
	h->shm = dmam_alloc_coherent(dev, h->shm_size, &h->shm_dma, GFP_KERNEL);
	if (!h->shm) {
		ret = -ENOMEM;
		goto err_release;
	}
	h->cmd = (void *)h->shm + VPUX_SHM_CMD_OFF;
	h->cpl = (void *)h->shm + VPUX_SHM_CPL_OFF;
	h->progress = (void *)h->shm + VPUX_SHM_PROG_OFF;
	h->log = (void *)h->shm + VPUX_SHM_LOG_OFF;

	vpux_headed_unmask(vdev);
	ret = vpux_headed_boot(vdev);
	if (ret)
		goto err_release;
	hdr = (const void *)h->image->data;
	h->plans = hdr->abi_minor >= VPUX_FW_ABI_MINOR_PLANS;
	drm_info(&vdev->drm, "headed: firmware %.32s (ABI %u.%u) running%s\n",
		 hdr->version, hdr->abi_major, hdr->abi_minor,
		 h->plans ? "" : ", no plans");
	return 0;

err_release:
	release_firmware(h->image);
	h->image = NULL;
	h->on = false;
	return ret;
}

/**
 * vpux_headed_fini() - stop the firmware for good and let go of it
 * @vdev: the device, dead (removal), its registers still there
 *
 * A reload that was under way has stopped or finished when the
 * management core is stopped once more, so it does not run on after
 * removal (its shared memory goes with the device).
 */
void vpux_headed_fini(struct vpux_device *vdev)
{
	struct vpux_headed *h = &vdev->mc;

	if (!h->image)
		return;
	cancel_work_sync(&h->recover);
	vpux_reg_write(vdev, VPUX_REG_MC_CTRL, 0);
	release_firmware(h->image);
	h->image = NULL;
}

/**
 * vpux_headed_power_down() - stop the firmware: the NPU powers off
 * @vdev: the device, nothing on the NPU (vpux_pm.c)
 */
void vpux_headed_power_down(struct vpux_device *vdev)
{
	if (vdev->mc.on && !vdev->mc.failed)
		vpux_reg_write(vdev, VPUX_REG_MC_CTRL, 0);
}

/**
 * vpux_headed_power_up() - boot the firmware again after a power-off
 * @vdev: the device, powered on, no job started yet (vpux_pm.c)
 *
 * The power-off cleared the management core's RAM: the image kept for
 * reloads is loaded again, the host's interrupt still masked (the
 * power-off cleared IRQ_MASK; runtime_resume restores it together with
 * clearing pm.off). A firmware that does not boot fails the jobs from
 * then on, as a failed reload does.
 *
 * Return: 0 or a negative errno.
 */
int vpux_headed_power_up(struct vpux_device *vdev)
{
	struct vpux_headed *h = &vdev->mc;
	int ret;

	if (!h->on || h->failed)
		return 0;
	ret = vpux_headed_boot(vdev);
	if (ret) {
		vpux_err(vdev, "firmware boot after power-on failed (%d): jobs fail until the device is bound again\n",
			 ret);
		mutex_lock(&vdev->fw.lock);
		h->failed = true;
		mutex_unlock(&vdev->fw.lock);
	}
	return ret;
}

/**
 * vpux_headed_stage() - a headed job's staging buffer
 * @job: a job whose task the kernel's core prepared, its task memory
 *	still mapped (job->task_in.cpu)
 *
 * Process context (SUBMIT): allocates. A plan's symbol values are taken
 * from the prepared task (dla_task_symbols()), not from their BO: the
 * firmware prepares the plan with the very values checked here.
 *
 * Return: 0 (nothing to do headless), -E2BIG for task memory larger
 * than the firmware's window onto host memory, or -ENOMEM.
 */
int vpux_headed_stage(struct vpux_job *job)
{
	struct vpux_device *vdev = job->vdev;
	const struct vpux_fw_task_in *in = &job->task_in;
	struct vpux_job_stage *s = &job->stage;
	u64 sym[DLA_PLAN_MAX_SYMBOLS];
	struct vpux_fw_task *t;
	size_t head, data, sym_off;
	u32 i, sym_index = 0, n_sym = 0;
	int ret;

	if (!vdev->mc.on)
		return 0;
	head = struct_size(t, addr, in->count);
	data = in->list[0].size;
	if (data > VPUX_MC_WIN_SIZE / 2) {
		vpux_dbg(vdev, "SUBMIT: task memory of %zu bytes: the firmware reads at most %u\n",
			 data, VPUX_MC_WIN_SIZE / 2);
		return -E2BIG;
	}
	/*
	 * A plan: the symbol values this kernel's core checked, not the
	 * BO's bytes now, so that the firmware runs the sizes validated
	 * here whatever user space writes after SUBMIT.
	 */
	ret = dla_task_symbols(job->task, &sym_index, sym, ARRAY_SIZE(sym));
	if (ret > 0 && ret <= (int)ARRAY_SIZE(sym))
		n_sym = ret;
	else
		sym_index = 0;
	sym_off = ALIGN(head + data, 8);
	s->cycles_count = DLA_MAX_OPS_PER_TASK;
	s->cycles_offset = sym_off + n_sym * sizeof(u64);
	s->size = s->cycles_offset + s->cycles_count * sizeof(u32);
	s->cpu = dma_alloc_coherent(vdev->drm.dev, s->size, &s->dma,
				    GFP_KERNEL);
	if (!s->cpu)
		return -ENOMEM;
	t = s->cpu;
	t->n_addr = in->count;
	t->data_offset = head;
	t->data_size = data;
	t->cycles_offset = s->cycles_offset;
	t->cycles_count = s->cycles_count;
	t->sym_index = sym_index;
	t->sym_offset = sym_off;
	t->sym_size = n_sym * sizeof(u64);
	memcpy(s->cpu + sym_off, sym, n_sym * sizeof(u64));
	for (i = 0; i < in->count; i++) {
		t->addr[i].addr = in->list[i].addr;
		t->addr[i].size = in->list[i].size;
		t->addr[i].flags = in->list[i].readonly ? DLA_ADDR_READONLY : 0;
	}
	memcpy(s->cpu + head, in->cpu, data);
	return 0;
}

/**
 * vpux_headed_stage_free() - free a job's staging buffer
 * @job: the job, off the NPU
 */
void vpux_headed_stage_free(struct vpux_job *job)
{
	struct vpux_job_stage *s = &job->stage;

	if (s->cpu)
		dma_free_coherent(job->vdev->drm.dev, s->size, s->cpu, s->dma);
	s->cpu = NULL;
}

/* Post one command and ring the doorbell: -EBUSY if the ring is full. */
static int vpux_headed_post_locked(struct vpux_device *vdev,
				   const struct vpux_fw_cmd *cmd)
{
	struct vpux_headed *h = &vdev->mc;
	u32 tail = h->shm->cmd_tail;

	lockdep_assert_held(&vdev->fw.lock);
	if (tail - READ_ONCE(h->shm->cmd_head) >= VPUX_SHM_CMD_N)
		return -EBUSY;
	h->cmd[tail % VPUX_SHM_CMD_N] = *cmd;
	dma_wmb();
	WRITE_ONCE(h->shm->cmd_tail, tail + 1);
	vpux_reg_write(vdev, VPUX_REG_MC_DOORBELL, 1);
	return 0;
}

/**
 * vpux_headed_run_locked() - start a job on the firmware
 * @vdev: the device, fw.lock held
 * @job: the job, staged
 * @ctx_slot: the MMU context slot it runs in
 *
 * Return: its task slot (the index in vpux_device.running), -EBUSY when
 * every slot is taken or the ring is full.
 */
int vpux_headed_run_locked(struct vpux_device *vdev, struct vpux_job *job,
			   int ctx_slot)
{
	struct vpux_headed *h = &vdev->mc;
	struct vpux_fw_cmd cmd = {
		.op = VPUX_FW_CMD_RUN,
		.ctx_slot = ctx_slot,
		.priority = job->priority,
		.task_size = job->stage.size,
		.task_addr = job->stage.dma,
	};
	int id, ret;

	lockdep_assert_held(&vdev->fw.lock);
	for (id = 0; id < DLA_MAX_TASKS; id++)
		if (!vdev->running[id])
			break;
	if (id == DLA_MAX_TASKS || !job->stage.cpu)
		return -EBUSY;
	cmd.slot = id;
	cmd.seq = h->cmd_seq++;
	ret = vpux_headed_post_locked(vdev, &cmd);
	if (ret)
		return ret;
	job->stage.seq = cmd.seq;
	job->stage.aborting = false;
	return id;
}

/**
 * vpux_headed_abort_locked() - have the firmware abort a running job
 * @vdev: the device, fw.lock held
 * @job: a job on the firmware
 * @res: the result it completes with once the firmware stopped it
 *
 * The job stays on the NPU until the firmware confirms: its ops may
 * still write its buffers until then. A firmware that does not confirm
 * loses its heartbeat or crashes, and the reset completes the job.
 */
void vpux_headed_abort_locked(struct vpux_device *vdev, struct vpux_job *job,
			      const struct vpux_job_result *res)
{
	struct vpux_fw_cmd cmd = {
		.op = VPUX_FW_CMD_ABORT,
		.slot = job->task_id,
		.seq = job->stage.seq,
	};

	lockdep_assert_held(&vdev->fw.lock);
	if (job->stage.aborting)
		return;
	job->result = *res;
	job->stage.aborting = true;
	if (vpux_headed_post_locked(vdev, &cmd))
		vpux_headed_lost_locked(vdev, "command ring full");
}

/* The status a completion carries. */
static void vpux_headed_cpl_status(const struct vpux_fw_cpl *c,
				   struct dla_task_status *st)
{
	memset(st, 0, sizeof(*st));
	st->state = c->state;
	st->error = c->error;
	st->fail_kind = c->fail_kind;
	st->fail_index = c->fail_index;
	st->eng_status = c->eng_status;
	st->fault_status = c->fault_status;
	st->fault_addr = c->fault_addr;
	st->ops_total = c->ops_total;
	st->ops_done = c->ops_done;
	st->op_cycles = c->op_cycles;
	st->device_cycles = c->device_cycles;
}

/* Complete the jobs the firmware posted. */
static void vpux_headed_drain_locked(struct vpux_device *vdev)
{
	struct vpux_headed *h = &vdev->mc;
	u32 head = h->shm->cpl_head, tail = READ_ONCE(h->shm->cpl_tail);

	dma_rmb();
	if (tail - head > VPUX_SHM_CPL_N) {
		vpux_headed_lost_locked(vdev, "completion ring corrupt");
		return;
	}
	for (; head != tail; head++) {
		const struct vpux_fw_cpl *c = &h->cpl[head % VPUX_SHM_CPL_N];
		struct vpux_job_result res = { 0 };
		struct dla_task_status st;
		struct vpux_job *job;

		if (c->slot >= DLA_MAX_TASKS)
			continue;
		job = vdev->running[c->slot];
		/* a completion for a job already failed by a reset */
		if (!job || job->stage.seq != c->seq)
			continue;
		if (job->stage.aborting) {
			res = job->result;
		} else if (c->kind == VPUX_FW_CPL_REFUSED) {
			res.status = DRM_VPUX_STATUS_ERROR;
			res.core_error = c->error < 0 ? -c->error : DLA_ERR_PORT;
		} else {
			vpux_headed_cpl_status(c, &st);
			vpux_result_from_status(&st, &res);
		}
		vpux_sched_complete_locked(vdev, job, &res);
	}
	WRITE_ONCE(h->shm->cpl_head, head);
}

/**
 * vpux_headed_isr() - the top half's part of the interrupt, headed
 * @vdev: the device, fw.isr_lock held, hard-IRQ context
 *
 * Reads and acks the firmware's and the CMX clear's interrupts; the
 * bottom half (vpux_headed_events_locked()) does the rest.
 *
 * Return: true if the device had something for the host.
 */
bool vpux_headed_isr(struct vpux_device *vdev)
{
	u32 mine = vpux_reg_read(vdev, VPUX_REG_IRQ_STATUS) &
		   (VPUX_IRQ_MC | VPUX_IRQ_CMX_CLEAR);

	lockdep_assert_held(&vdev->fw.isr_lock);
	if (mine)
		vpux_reg_write(vdev, VPUX_REG_IRQ_CLEAR, mine);
	return mine;
}

/**
 * vpux_headed_events_locked() - the bottom half's part, headed
 * @vdev: the device, fw.lock held
 *
 * Fails everything if the firmware crashed, else completes what it
 * posted; the caller dispatches next.
 */
void vpux_headed_events_locked(struct vpux_device *vdev)
{
	u32 mc;

	lockdep_assert_held(&vdev->fw.lock);
	if (vdev->mc.down)
		return;
	mc = vpux_reg_read(vdev, VPUX_REG_MC_STATUS) & 0xff;
	if (mc != VPUX_MC_STATUS_READY) {
		vpux_headed_lost_locked(vdev, mc == VPUX_MC_STATUS_CRASHED ?
					"crashed" : "stopped");
		return;
	}
	vpux_headed_drain_locked(vdev);
}

/**
 * vpux_headed_progress() - a running job's progress, for the hang check
 * @vdev: the device, fw.lock held
 * @job: a job on the firmware
 * @st: out: state, ops_done, ops_running and oldest_seq are set
 */
void vpux_headed_progress(struct vpux_device *vdev, struct vpux_job *job,
			  struct dla_task_status *st)
{
	const struct vpux_fw_progress *p = &vdev->mc.progress[job->task_id];

	memset(st, 0, sizeof(*st));
	st->state = READ_ONCE(p->state);
	st->ops_done = READ_ONCE(p->ops_done);
	st->ops_running = READ_ONCE(p->ops_running);
	st->oldest_seq = READ_ONCE(p->oldest_seq);
}

/**
 * vpux_headed_watchdog_locked() - the watchdog's look at the firmware
 * @vdev: the device, fw.lock held
 * @now: ktime_get_ns()
 *
 * Picks up completions whose interrupt went missing, and declares the
 * firmware lost when its heartbeat stood still for VPUX_FW_DEAD_NS.
 */
void vpux_headed_watchdog_locked(struct vpux_device *vdev, u64 now)
{
	struct vpux_headed *h = &vdev->mc;
	u32 hb;

	lockdep_assert_held(&vdev->fw.lock);
	if (h->down)
		return;
	hb = READ_ONCE(h->shm->heartbeat);
	if (hb != h->heartbeat) {
		h->heartbeat = hb;
		h->heartbeat_ns = now;
	} else if (now - h->heartbeat_ns > VPUX_FW_DEAD_NS) {
		vpux_headed_lost_locked(vdev, "lost its heartbeat");
		return;
	}
	vpux_headed_events_locked(vdev);
}

/**
 * vpux_headed_op_cycles() - each op's cycles as the firmware wrote them
 * @job: a headed job that left the NPU
 * @cycles: out: the first @n ops' cycles, in dla_task_op_cycles() order
 * @n: entries
 */
void vpux_headed_op_cycles(struct vpux_job *job, u32 *cycles, u32 n)
{
	const struct vpux_job_stage *s = &job->stage;

	n = min(n, s->cycles_count);
	memcpy(cycles, s->cpu + s->cycles_offset, n * sizeof(u32));
}

/**
 * vpux_headed_log() - copy the firmware's log ring
 * @vdev: the device
 * @buf: out
 * @len: bytes @buf holds
 *
 * Return: bytes copied: the last of what the firmware logged, oldest
 * first.
 */
u32 vpux_headed_log(struct vpux_device *vdev, char *buf, u32 len)
{
	struct vpux_headed *h = &vdev->mc;
	u32 tail, n, i;

	if (!h->on || !h->shm)
		return 0;
	tail = READ_ONCE(h->shm->log_tail);
	dma_rmb();
	n = min3(tail, (u32)VPUX_SHM_LOG_SIZE, len);
	for (i = 0; i < n; i++)
		buf[i] = h->log[(tail - n + i) % VPUX_SHM_LOG_SIZE];
	return n;
}
