// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs, under /sys/kernel/debug/accel/<device name>/ (vpux-npu.N):
 *
 *   engines         each engine's kind, state, ops done and last op cycles
 *   resets          jobs aborted after a hang since load
 *   cmx_clears      CMX clears started since load (tiles changing hands)
 *   bo_list         every open file's BOs: address, size, flags
 *   inject          write "KIND ENGINE [COUNT [ARG]]" to make the NPU
 *                   misbehave (KIND: hang, drop_irq, mmu_fault, slow,
 *                   none; ENGINE: global engine index; COUNT: ops it
 *                   applies to, 0 = until "none"; ARG: slow-down factor)
 *   force_recovery  write anything: run the hang check now instead of
 *                   at the next timeout
 *   job_timeout_ms  read/write: time a job may run without progress
 *                   before it is aborted (module parameter job_timeout_ms
 *                   is the default); tests shorten it
 *   power           the NPU's power: PWR_STATUS, PWR_VIOLATIONS (register
 *                   accesses to it while off: 0 unless the driver is
 *                   wrong), PWR_OFF_COUNT, and the driver's runtime
 *                   suspends and resumes; reading it does not wake it
 *   skip_readonly_check  read/write, N by default: Y lets SUBMIT pass jobs
 *                   that write a BO the device may only read (-EACCES
 *                   otherwise), so that tests reach the MMU's read-only
 *                   mapping behind that check: such a job faults
 *   fw_log, fw_reloads, fw_retired, fw_inject  headed only
 *                   (Documentation/firmware.rst)
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_headed.h"

static int engines_show(struct seq_file *m, void *data)
{
	struct vpux_device *vdev = m->private;
	static const char *const kinds[] = { "dma", "dpu", "shave" };
	static const char *const states[] = { "idle", "busy", "done", "error" };
	u32 n = vdev->hw.n_dma + vdev->hw.n_dpu + vdev->hw.n_shave, e;

	seq_printf(m, "irq_status %#x fault_status %#x\n",
		   vpux_reg_read(vdev, VPUX_REG_IRQ_STATUS),
		   vpux_reg_read(vdev, VPUX_REG_FAULT_STATUS));
	for (e = 0; e < n; e++) {
		u32 base = VPUX_REG_ENGINE(e);
		u32 kind = vpux_reg_read(vdev, base + VPUX_ENG_KIND);
		u32 st = vpux_reg_read(vdev, base + VPUX_ENG_STATUS);
		u32 state = st & VPUX_ENG_STATE_MASK;

		seq_printf(m, "engine %u %s: %s error %u ops_done %u last_op_cycles %u\n",
			   e, kind < ARRAY_SIZE(kinds) ? kinds[kind] : "?",
			   state < ARRAY_SIZE(states) ? states[state] : "?",
			   st >> VPUX_ENG_ERROR_SHIFT,
			   vpux_reg_read(vdev, base + VPUX_ENG_OPS_DONE),
			   vpux_reg_read(vdev, base + VPUX_ENG_OP_CYCLES));
	}
	return 0;
}

static int engines_open(struct inode *inode, struct file *file)
{
	struct vpux_device *vdev = inode->i_private;
	int ret;

	/* the engines' registers answer only while the NPU is powered */
	ret = vpux_pm_get(vdev);
	if (ret)
		return ret;
	ret = single_open(file, engines_show, vdev);
	if (ret)
		vpux_pm_put(vdev);
	return ret;
}

static int engines_release(struct inode *inode, struct file *file)
{
	vpux_pm_put(inode->i_private);
	return single_release(inode, file);
}

static const struct file_operations engines_fops = {
	.owner = THIS_MODULE,
	.open = engines_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = engines_release,
};

static int power_show(struct seq_file *m, void *data)
{
	struct vpux_device *vdev = m->private;

	if (!(vdev->hw.caps & VPUX_CAP_POWER)) {
		seq_puts(m, "no power control\n");
		return 0;
	}
	seq_printf(m, "status %s\nviolations %u\noff_count %u\nsuspends %d\nresumes %d\nsystem_suspends %d\n",
		   vpux_reg_read(vdev, VPUX_REG_PWR_STATUS) & VPUX_PWR_ON ?
		   "on" : "off",
		   vpux_reg_read(vdev, VPUX_REG_PWR_VIOLATIONS),
		   vpux_reg_read(vdev, VPUX_REG_PWR_OFF_COUNT),
		   atomic_read(&vdev->pm.suspends),
		   atomic_read(&vdev->pm.resumes),
		   atomic_read(&vdev->pm.system_suspends));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(power);

static int resets_show(struct seq_file *m, void *data)
{
	struct vpux_device *vdev = m->private;

	seq_printf(m, "%d\n", atomic_read(&vdev->resets));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(resets);

static int cmx_clears_show(struct seq_file *m, void *data)
{
	struct vpux_device *vdev = m->private;

	seq_printf(m, "%d\n", atomic_read(&vdev->cmx.clears));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cmx_clears);

static int bo_list_show(struct seq_file *m, void *data)
{
	struct vpux_device *vdev = m->private;
	struct drm_device *drm = &vdev->drm;
	struct drm_file *file;

	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead) {
		struct vpux_file_priv *fpriv = file->driver_priv;
		struct vpux_bo *bo;

		seq_printf(m, "file %llu: %llu pages mapped%s\n", file->client_id,
			   fpriv->ctx.mapped_pages,
			   READ_ONCE(fpriv->banned) ? ", banned" : "");
		mutex_lock(&vdev->bo_lock);
		list_for_each_entry(bo, &fpriv->bos, ctx_link)
			seq_printf(m, "  %#llx %zu flags %#x\n", bo->device_addr,
				   bo->base.base.size, bo->flags);
		mutex_unlock(&vdev->bo_lock);
	}
	mutex_unlock(&drm->filelist_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bo_list);

static ssize_t inject_write(struct file *f, const char __user *ubuf,
			    size_t len, loff_t *pos)
{
	static const char *const kinds[] = {
		[VPUX_INJECT_NONE] = "none",
		[VPUX_INJECT_HANG] = "hang",
		[VPUX_INJECT_DROP_IRQ] = "drop_irq",
		[VPUX_INJECT_MMU_FAULT] = "mmu_fault",
		[VPUX_INJECT_SLOW] = "slow",
	};
	struct vpux_device *vdev = file_inode(f)->i_private;
	u32 n = vdev->hw.n_dma + vdev->hw.n_dpu + vdev->hw.n_shave;
	unsigned int engine = 0, count = 0, arg = 1, kind;
	char buf[64], name[16];
	int fields, ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	fields = sscanf(buf, "%15s %u %u %u", name, &engine, &count, &arg);
	if (fields < 1)
		return -EINVAL;
	for (kind = 0; kind < ARRAY_SIZE(kinds); kind++)
		if (!strcmp(name, kinds[kind]))
			break;
	if (kind == ARRAY_SIZE(kinds) || (kind != VPUX_INJECT_NONE && fields < 2) ||
	    engine >= n || count > 0xffff)
		return -EINVAL;

	ret = vpux_pm_get(vdev);
	if (ret)
		return ret;
	vpux_reg_write(vdev, VPUX_REG_INJECT_ARG, arg);
	vpux_reg_write(vdev, VPUX_REG_INJECT,
		       engine << VPUX_INJECT_ENGINE_SHIFT |
		       kind << VPUX_INJECT_KIND_SHIFT |
		       count << VPUX_INJECT_COUNT_SHIFT);
	/* what a job's devcoredump says the model's fault state was */
	WRITE_ONCE(vdev->inject[1], arg);
	WRITE_ONCE(vdev->inject[0], kind == VPUX_INJECT_NONE ? 0 :
		   engine << VPUX_INJECT_ENGINE_SHIFT |
		   kind << VPUX_INJECT_KIND_SHIFT |
		   count << VPUX_INJECT_COUNT_SHIFT);
	vpux_pm_put(vdev);
	return len;
}

static const struct file_operations inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = inject_write,
};

static ssize_t force_recovery_write(struct file *f, const char __user *ubuf,
				    size_t len, loff_t *pos)
{
	struct vpux_device *vdev = file_inode(f)->i_private;

	vpux_watchdog_kick(vdev);
	return len;
}

static const struct file_operations force_recovery_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = force_recovery_write,
};

static int job_timeout_ms_get(void *data, u64 *val)
{
	*val = vpux_job_timeout_ms(data);
	return 0;
}

static int job_timeout_ms_set(void *data, u64 val)
{
	if (!val || val > 3600 * 1000)
		return -EINVAL;
	vpux_set_job_timeout_ms(data, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(job_timeout_ms_fops, job_timeout_ms_get,
			 job_timeout_ms_set, "%llu\n");

/* headed: the firmware's log ring, oldest line first */
static int fw_log_show(struct seq_file *m, void *unused)
{
	struct vpux_device *vdev = m->private;
	char *buf = kvmalloc(SZ_64K, GFP_KERNEL);
	u32 n;

	if (!buf)
		return -ENOMEM;
	n = vpux_headed_log(vdev, buf, SZ_64K);
	seq_write(m, buf, n);
	kvfree(buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fw_log);

static int fw_reloads_show(struct seq_file *m, void *unused)
{
	struct vpux_device *vdev = m->private;

	seq_printf(m, "%d\n", atomic_read(&vdev->mc.reloads));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fw_reloads);

/*
 * headed: instructions the management core retired since it last booted
 * (VPUX_REG_MC_RETIRED, low 32 bits): its work per job, for benchmarks
 */
static int fw_retired_show(struct seq_file *m, void *unused)
{
	struct vpux_device *vdev = m->private;
	int ret = vpux_pm_get(vdev);

	if (ret)
		return ret;
	seq_printf(m, "%u\n", vpux_reg_read(vdev, VPUX_REG_MC_RETIRED));
	vpux_pm_put(vdev);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fw_retired);

/* headed: "trap" or "freeze" the management core (VPUX_REG_MC_INJECT) */
static ssize_t fw_inject_write(struct file *f, const char __user *ubuf,
			       size_t len, loff_t *pos)
{
	struct vpux_device *vdev = file_inode(f)->i_private;
	char buf[16];
	u32 kind;
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sysfs_streq(buf, "none"))
		kind = VPUX_MC_INJECT_NONE;
	else if (sysfs_streq(buf, "trap"))
		kind = VPUX_MC_INJECT_TRAP;
	else if (sysfs_streq(buf, "freeze"))
		kind = VPUX_MC_INJECT_FREEZE;
	else
		return -EINVAL;
	ret = vpux_pm_get(vdev);
	if (ret)
		return ret;
	vpux_reg_write(vdev, VPUX_REG_MC_INJECT, kind);
	vpux_pm_put(vdev);
	return len;
}

static const struct file_operations fw_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = fw_inject_write,
};

/**
 * vpux_debugfs_init() - create the files once the device is registered
 * @vdev: the device
 *
 * The accel core creates the device's directory but, unlike DRM's, calls
 * no driver hook; the directory and its files go with the DRM device.
 */
void vpux_debugfs_init(struct vpux_device *vdev)
{
	struct dentry *root = vdev->drm.debugfs_root;

	debugfs_create_file("engines", 0444, root, vdev, &engines_fops);
	debugfs_create_file("resets", 0444, root, vdev, &resets_fops);
	debugfs_create_file("cmx_clears", 0444, root, vdev, &cmx_clears_fops);
	debugfs_create_file("power", 0444, root, vdev, &power_fops);
	debugfs_create_file("bo_list", 0444, root, vdev, &bo_list_fops);
	debugfs_create_file("inject", 0200, root, vdev, &inject_fops);
	debugfs_create_file("force_recovery", 0200, root, vdev,
			    &force_recovery_fops);
	debugfs_create_file_unsafe("job_timeout_ms", 0600, root, vdev,
				   &job_timeout_ms_fops);
	debugfs_create_bool("skip_readonly_check", 0600, root,
			    &vdev->skip_ro_check);
	debugfs_create_bool("coredump_failed", 0600, root, &vdev->dump_failed);
	if (!vdev->mc.on)
		return;
	debugfs_create_file("fw_log", 0444, root, vdev, &fw_log_fops);
	debugfs_create_file("fw_reloads", 0444, root, vdev, &fw_reloads_fops);
	debugfs_create_file("fw_retired", 0444, root, vdev, &fw_retired_fops);
	debugfs_create_file("fw_inject", 0200, root, vdev, &fw_inject_fops);
}
