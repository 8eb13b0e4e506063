// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux_accel: module entry, the platform devices standing for the NPUs,
 * and the DRM accel driver bound to them.
 */

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

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

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of virtual NPUs to create (1-8, default 1)");

static struct platform_device *vpux_pdevs[VPUX_MAX_DEVICES];

/**
 * vpux_num_devices() - the number of NPUs the module drives
 *
 * Return: num_devices, >= 1 once the module is loaded.
 */
unsigned int vpux_num_devices(void)
{
	return max(num_devices, 1u);
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

static int vpux_open(struct drm_device *dev, struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct vpux_file_priv *fpriv;
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
	ret = vpux_mmu_ctx_init(vdev, &fpriv->ctx);
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

static const struct file_operations vpux_fops = {
	.owner = THIS_MODULE,
	DRM_ACCEL_FOPS,
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
	.date = DRIVER_DATE,
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

	/* the MMU's entries hold 52-bit bus addresses */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(52));
	if (ret)
		return ret;

	ret = vpux_vdev_init(vdev, pdev->id);
	if (ret)
		return ret;

	ret = vpux_hw_probe(vdev);
	if (ret)
		return ret;

	ret = vpux_sched_init(vdev);
	if (ret)
		return ret;

	ret = vpux_sysfs_init(vdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		return ret;
	vpux_debugfs_init(vdev);

	return 0;
}

/*
 * Stop the hardware before its registers go away (as ivpu_remove does):
 * no new ioctl gets in, every job is completed with -ENODEV, the
 * watchdog and the interrupt stop, the engine core lets go of the device
 * and the device is reset. Open files keep their state until closed.
 */
static void vpux_remove(struct platform_device *pdev)
{
	struct vpux_device *vdev = platform_get_drvdata(pdev);

	drm_dev_unplug(&vdev->drm);
	vpux_sched_quiesce(vdev);
	vpux_vdev_quiesce(vdev);
}

static struct platform_driver vpux_platform_driver = {
	.probe = vpux_probe,
	.remove = vpux_remove,
	.driver = {
		.name = VPUX_PLATFORM_NAME,
	},
};

static void vpux_destroy_devices(void)
{
	int i;

	for (i = VPUX_MAX_DEVICES - 1; i >= 0; i--) {
		if (vpux_pdevs[i])
			platform_device_unregister(vpux_pdevs[i]);
		vpux_pdevs[i] = NULL;
	}
}

static int __init vpux_init(void)
{
	unsigned int i;
	int ret;

	if (!num_devices || num_devices > VPUX_MAX_DEVICES) {
		pr_err(DRIVER_NAME ": num_devices must be 1..%d\n",
		       VPUX_MAX_DEVICES);
		return -EINVAL;
	}

	ret = vpux_queues_module_init();
	if (ret)
		return ret;
	ret = platform_driver_register(&vpux_platform_driver);
	if (ret)
		goto err_queues;

	for (i = 0; i < num_devices; i++) {
		struct platform_device *pdev;

		pdev = platform_device_register_simple(VPUX_PLATFORM_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto err_devices;
		}
		vpux_pdevs[i] = pdev;
	}
	return 0;

err_devices:
	vpux_destroy_devices();
	platform_driver_unregister(&vpux_platform_driver);
err_queues:
	vpux_queues_module_exit();
	return ret;
}

static void __exit vpux_exit(void)
{
	vpux_destroy_devices();
	platform_driver_unregister(&vpux_platform_driver);
	vpux_queues_module_exit();
}

module_init(vpux_init);
module_exit(vpux_exit);

MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("vpux developers");
