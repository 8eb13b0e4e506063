// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux_accel: module entry and the DRM accel driver, a platform driver
 * bound to the NPUs: "vpux-npu" platform devices (the virtual NPUs of the
 * model, vpux_sim.ko, or a board file) or device-tree nodes compatible
 * with "vpux,npu" (Documentation/devicetree.rst).
 */

#include <linux/cred.h>
#include <linux/compat.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_job.h"
#include "vpux_accel.h"

static atomic_t vpux_bound_devices = ATOMIC_INIT(0);

/**
 * vpux_num_devices() - the number of NPUs the driver is bound to
 *
 * Return: at least 1.
 */
unsigned int vpux_num_devices(void)
{
	return max(atomic_read(&vpux_bound_devices), 1);
}

static const struct drm_ioctl_desc vpux_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VPUX_GET_PARAM, vpux_get_param_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VPUX_BO_CREATE, vpux_bo_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VPUX_BO_INFO, vpux_bo_info_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VPUX_SUBMIT, vpux_submit_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VPUX_WAIT, vpux_wait_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VPUX_QUEUE_CREATE, vpux_queue_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VPUX_QUEUE_DESTROY, vpux_queue_destroy_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VPUX_BO_WAIT, vpux_bo_wait_ioctl, 0),
};

/**
 * vpux_uargs_copy_nofault() - copy an ioctl's result back, under locks
 * @u: the ioctl's arguments, or NULL when drm_ioctl() copies them back
 *
 * For a handler about to do what cannot be undone: it copies the result
 * to the caller first, without taking a page fault (it may hold locks a
 * fault handler takes). On -EFAULT the handler drops its locks, faults
 * the page in with copy_to_user() and tries again, or fails.
 *
 * Return: 0 (@u->copied is set), or -EFAULT.
 */
int vpux_uargs_copy_nofault(struct vpux_uargs *u)
{
	if (!u)
		return 0;
	if (copy_to_user_nofault(u->uptr, u->kdata, u->out_size))
		return -EFAULT;
	u->copied = true;
	return 0;
}

static int vpux_submit_uioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct vpux_uargs *u = data;

	return vpux_submit(dev, u->kdata, file, u);
}

static int vpux_bo_create_uioctl(struct drm_device *dev, void *data,
				 struct drm_file *file)
{
	struct vpux_uargs *u = data;

	return vpux_bo_create_ioctl(dev, u->kdata, file);
}

static int vpux_queue_create_uioctl(struct drm_device *dev, void *data,
				    struct drm_file *file)
{
	struct vpux_uargs *u = data;

	return vpux_queue_create_ioctl(dev, u->kdata, file);
}

/* The handler vpux_ioctl() runs for driver ioctl @index, or NULL. */
static drm_ioctl_t *vpux_uioctl_func(unsigned int index)
{
	switch (index) {
	case DRM_VPUX_SUBMIT:
		return vpux_submit_uioctl;
	case DRM_VPUX_BO_CREATE:
		return vpux_bo_create_uioctl;
	case DRM_VPUX_QUEUE_CREATE:
		return vpux_queue_create_uioctl;
	default:
		return NULL;
	}
}

/*
 * A successful BO_CREATE or QUEUE_CREATE whose result cannot be copied
 * back: the caller never learns the handle or id, so take it back.
 */
static void vpux_uioctl_undo(struct drm_device *dev, struct drm_file *file,
			     unsigned int index, void *kdata)
{
	struct drm_vpux_queue_destroy qd = { 0 };

	switch (index) {
	case DRM_VPUX_BO_CREATE:
		drm_gem_handle_delete(file,
				      ((struct drm_vpux_bo_create *)kdata)->handle);
		break;
	case DRM_VPUX_QUEUE_CREATE:
		qd.queue_id = ((struct drm_vpux_queue_create *)kdata)->queue_id;
		vpux_queue_destroy_ioctl(dev, &qd, file);
		break;
	}
}

/*
 * &file_operations.unlocked_ioctl. drm_ioctl() copies an ioctl's result
 * back after the handler returned: too late for SUBMIT, which has pushed
 * its job by then (a caller whose struct is not writable would get
 * -EFAULT for a job that runs, and run it twice by retrying), and for
 * BO_CREATE and QUEUE_CREATE, which leave a handle or queue the caller
 * never learns of. These three are handled here as drm_ioctl() would
 * (same size rules, so the smaller structs of older uapi minors keep
 * working, and drm_ioctl_kernel() for the unplug and permission checks
 * and the locking), except that SUBMIT copies its result back before its
 * point of no return and the other two are undone when the copy fails.
 * Every other ioctl goes to drm_ioctl().
 */
static long vpux_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct drm_file *file_priv = filp->private_data;
	struct drm_device *dev = file_priv->minor->dev;
	unsigned int nr = DRM_IOCTL_NR(cmd), index, in_size, out_size, ksize;
	union {
		struct drm_vpux_submit submit;
		struct drm_vpux_bo_create bo_create;
		struct drm_vpux_queue_create queue_create;
	} stack_kdata;
	const struct drm_ioctl_desc *ioctl;
	struct vpux_uargs u = { 0 };
	drm_ioctl_t *func;
	void *kdata;
	long ret;

	if (DRM_IOCTL_TYPE(cmd) != DRM_IOCTL_BASE || nr < DRM_COMMAND_BASE)
		return drm_ioctl(filp, cmd, arg);
	index = nr - DRM_COMMAND_BASE;
	func = vpux_uioctl_func(index);
	if (!func)
		return drm_ioctl(filp, cmd, arg);
	if (drm_dev_is_unplugged(dev))
		return -ENODEV;

	ioctl = &vpux_ioctls[index];
	out_size = _IOC_SIZE(cmd);
	in_size = cmd & ioctl->cmd & IOC_IN ? out_size : 0;
	if (!(cmd & ioctl->cmd & IOC_OUT))
		out_size = 0;
	ksize = max3(in_size, out_size, _IOC_SIZE(ioctl->cmd));
	if (ksize <= sizeof(stack_kdata)) {
		kdata = &stack_kdata;
	} else {
		kdata = kmalloc(ksize, GFP_KERNEL);
		if (!kdata)
			return -ENOMEM;
	}
	if (copy_from_user(kdata, (void __user *)arg, in_size)) {
		ret = -EFAULT;
		goto out_free;
	}
	memset(kdata + in_size, 0, ksize - in_size);

	u.kdata = kdata;
	u.uptr = (void __user *)arg;
	u.out_size = out_size;
	ret = drm_ioctl_kernel(filp, func, &u, ioctl->flags);
	/* like drm_ioctl(), also copy back what a failed call left */
	if (!u.copied && copy_to_user(u.uptr, kdata, out_size)) {
		if (!ret)
			vpux_uioctl_undo(dev, file_priv, index, kdata);
		ret = -EFAULT;
	}
out_free:
	if (kdata != &stack_kdata)
		kfree(kdata);
	return ret;
}

#ifdef CONFIG_COMPAT
/* The uapi structs have one layout for 32- and 64-bit callers. */
static long vpux_compat_ioctl(struct file *filp, unsigned int cmd,
			      unsigned long arg)
{
	unsigned int nr = DRM_IOCTL_NR(cmd);

	if (DRM_IOCTL_TYPE(cmd) == DRM_IOCTL_BASE && nr >= DRM_COMMAND_BASE &&
	    vpux_uioctl_func(nr - DRM_COMMAND_BASE))
		return vpux_ioctl(filp, cmd, (unsigned long)compat_ptr(arg));
	return drm_compat_ioctl(filp, cmd, arg);
}
#else
#define vpux_compat_ioctl NULL
#endif

static int vpux_open(struct drm_device *dev, struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct vpux_file_priv *fpriv;
	struct vpux_user *user;
	int idx, ret;

	if (!drm_dev_enter(dev, &idx))
		return -ENODEV;

	fpriv = kvzalloc(sizeof(*fpriv), GFP_KERNEL);
	if (!fpriv) {
		ret = -ENOMEM;
		goto err_exit;
	}
	kref_init(&fpriv->ref);
	fpriv->vdev = vdev;
	fpriv->id = file->client_id;
	INIT_LIST_HEAD(&fpriv->bos);
	user = vpux_user_get(current_cred());
	if (!user) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = vpux_mmu_ctx_init(vdev, &fpriv->ctx, user);
	if (ret)
		goto err_free;
	ret = vpux_file_jobs_init(vdev, fpriv);
	if (ret)
		goto err_ctx;

	file->driver_priv = fpriv;
	drm_dev_exit(idx);
	return 0;

err_ctx:
	vpux_mmu_ctx_fini(&fpriv->ctx);
err_free:
	kvfree(fpriv);
err_exit:
	drm_dev_exit(idx);
	return ret;
}

/*
 * Handles are gone by now. The file's queues go; its jobs still on the
 * device run on, holding the file's state, and the address space (with
 * the mappings of BOs still alive elsewhere) goes with the last of them.
 */
static void vpux_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct vpux_file_priv *fpriv = file->driver_priv;

	vpux_file_jobs_fini(fpriv);
	vpux_file_priv_put(fpriv);
}

/* DRM_ACCEL_FOPS, with the ioctl entries of vpux_ioctl() */
static const struct file_operations vpux_fops = {
	.owner = THIS_MODULE,
	.open = accel_open,
	.release = drm_release,
	.unlocked_ioctl = vpux_ioctl,
	.compat_ioctl = vpux_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.fop_flags = FOP_UNSIGNED_OFFSET,
	.show_fdinfo = drm_show_fdinfo,
};

/* fdinfo: the standard engine busy time and memory keys. */
static void vpux_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vpux_file_priv *fpriv = file->driver_priv;

	drm_printf(p, "drm-engine-npu:\t%llu ns\n",
		   (u64)atomic64_read(&fpriv->busy_ns));
	drm_show_memory_stats(p, file);
}

static const struct drm_driver vpux_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM |
			   DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE,
	.open = vpux_open,
	.postclose = vpux_postclose,
	.gem_create_object = vpux_gem_create_object,
	.gem_prime_import = vpux_gem_prime_import,
	.show_fdinfo = vpux_show_fdinfo,
	.ioctls = vpux_ioctls,
	.num_ioctls = ARRAY_SIZE(vpux_ioctls),
	.fops = &vpux_fops,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	/*
	 * No release date: the version is the uapi's major.minor. 6.12's
	 * DRM_IOCTL_VERSION warns on a NULL date; "0" is what DRM reports
	 * for every driver once the field is gone (6.14).
	 */
	.date = "0",
	.major = DRM_VPUX_UAPI_VERSION_MAJOR,
	.minor = DRM_VPUX_UAPI_VERSION_MINOR,
};

static int vpux_probe(struct platform_device *pdev)
{
	struct vpux_device *vdev;
	int ret;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vpux_drm_driver,
				  struct vpux_device, drm);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	platform_set_drvdata(pdev, vdev);

	ret = drmm_mutex_init(&vdev->drm, &vdev->bo_lock);
	if (ret)
		return ret;

	ret = vpux_hw_map(vdev, pdev);
	if (ret)
		return ret;

	ret = vpux_hw_probe(vdev);
	if (ret)
		return ret;

	ret = vpux_sched_init(vdev);
	if (ret)
		return ret;

	ret = vpux_headed_init(vdev);
	if (ret)
		return ret;

	ret = vpux_sysfs_init(vdev);
	if (ret)
		return ret;

	ret = vpux_pm_init(vdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret) {
		pm_runtime_put_noidle(&pdev->dev);
		return ret;
	}
	vpux_debugfs_init(vdev);
	ret = vpux_nl_device_add(vdev);
	if (ret) {
		drm_dev_unplug(&vdev->drm);
		vpux_sched_quiesce(vdev);
		pm_runtime_put_noidle(&pdev->dev);
		return ret;
	}
	atomic_inc(&vpux_bound_devices);
	vpux_pm_probe_done(vdev);

	return 0;
}

/*
 * Stop the hardware before its registers go away (as ivpu_remove does):
 * no new ioctl gets in, every job is completed with -ENODEV after its
 * ops were stopped, the watchdog stops, the engine core lets go of the
 * device, and the device is masked and reset. Nothing touches a register
 * after this returns (devm then frees the interrupt); open files keep
 * their state until closed. The NPU is powered on for it first, and
 * stays so.
 */
static void vpux_remove(struct platform_device *pdev)
{
	struct vpux_device *vdev = platform_get_drvdata(pdev);

	atomic_dec(&vpux_bound_devices);
	vpux_pm_remove_begin(vdev);
	drm_dev_unplug(&vdev->drm);
	vpux_sched_quiesce(vdev);
	vpux_nl_device_remove(vdev);
	vpux_pm_remove_end(vdev);
}

/* how each kind of platform names the NPU, side by side */
static const struct platform_device_id vpux_platform_ids[] = {
	{ .name = VPUX_PLATFORM_NAME },
	{ }
};
MODULE_DEVICE_TABLE(platform, vpux_platform_ids);

static const struct of_device_id vpux_of_match[] = {
	{ .compatible = VPUX_OF_COMPATIBLE },
	{ }
};
MODULE_DEVICE_TABLE(of, vpux_of_match);

static struct platform_driver vpux_platform_driver = {
	.probe = vpux_probe,
	.remove = vpux_remove,
	.id_table = vpux_platform_ids,
	.driver = {
		.name = VPUX_PLATFORM_NAME,
		.of_match_table = vpux_of_match,
		.pm = pm_ptr(&vpux_pm_ops),
	},
};

/*
 * The driver's own entry: the workqueues and the netlink family every
 * device uses, then the platform driver, which binds to each NPU as it
 * appears (the model's may come before or after).
 */
static int __init vpux_init(void)
{
	int ret;

	ret = vpux_queues_module_init();
	if (ret)
		return ret;
	ret = vpux_nl_module_init();
	if (ret)
		goto err_queues;
	ret = platform_driver_register(&vpux_platform_driver);
	if (ret)
		goto err_nl;
	return 0;

err_nl:
	vpux_nl_module_exit();
err_queues:
	vpux_queues_module_exit();
	return ret;
}

/* unregistering the driver unbinds it from every NPU first */
static void __exit vpux_exit(void)
{
	platform_driver_unregister(&vpux_platform_driver);
	vpux_nl_module_exit();
	vpux_queues_module_exit();
}

module_init(vpux_init);
module_exit(vpux_exit);

/* the version DRM_IOCTL_VERSION reports: uapi major.minor, patchlevel 0 */
MODULE_VERSION(__stringify(DRM_VPUX_UAPI_VERSION_MAJOR) "."
	       __stringify(DRM_VPUX_UAPI_VERSION_MINOR) ".0");
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("vpux developers");
