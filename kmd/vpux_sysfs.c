// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device busy time: how long the NPU had at least one job on it, as the
 * sysfs attribute npu_busy_time_us of the device (the name ivpu uses),
 * e.g. /sys/class/accel/accel0/device/npu_busy_time_us. Tools sample it
 * twice to get the NPU's utilisation over an interval; the per-file
 * split is in fdinfo (drm-engine-npu).
 */

#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/sysfs.h>

#include "vpux_drv.h"

/**
 * vpux_busy_begin() - a job was handed to the engine core
 * @vdev: the device
 */
void vpux_busy_begin(struct vpux_device *vdev)
{
	spin_lock(&vdev->busy_lock);
	if (!vdev->busy_jobs++)
		vdev->busy_since = ktime_get_ns();
	spin_unlock(&vdev->busy_lock);
}

/**
 * vpux_busy_end() - a job that vpux_busy_begin() counted left the NPU
 * @vdev: the device
 */
void vpux_busy_end(struct vpux_device *vdev)
{
	spin_lock(&vdev->busy_lock);
	if (!WARN_ON(!vdev->busy_jobs) && !--vdev->busy_jobs)
		vdev->busy_ns += ktime_get_ns() - vdev->busy_since;
	spin_unlock(&vdev->busy_lock);
}

static u64 vpux_busy_time_ns(struct vpux_device *vdev)
{
	u64 ns;

	spin_lock(&vdev->busy_lock);
	ns = vdev->busy_ns;
	if (vdev->busy_jobs)
		ns += ktime_get_ns() - vdev->busy_since;
	spin_unlock(&vdev->busy_lock);
	return ns;
}

static ssize_t npu_busy_time_us_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", div_u64(vpux_busy_time_ns(vdev), 1000));
}
static DEVICE_ATTR_RO(npu_busy_time_us);

static struct attribute *vpux_dev_attrs[] = {
	&dev_attr_npu_busy_time_us.attr,
	NULL,
};

static const struct attribute_group vpux_dev_attr_group = {
	.attrs = vpux_dev_attrs,
};

/**
 * vpux_sysfs_init() - add the device's sysfs attributes
 * @vdev: the device; its parent's driver data must point to it
 *
 * Return: 0 or a negative errno. The attributes go with the device
 * (devm).
 */
int vpux_sysfs_init(struct vpux_device *vdev)
{
	spin_lock_init(&vdev->busy_lock);
	return devm_device_add_group(vdev->drm.dev, &vpux_dev_attr_group);
}
