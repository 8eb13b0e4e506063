// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device's sysfs attributes, e.g. /sys/class/accel/accel0/device/:
 *
 * npu_busy_time_us (read-only): how long the NPU had at least one job on
 * it (the name ivpu uses). Tools sample it twice to get the NPU's
 * utilisation over an interval; the per-file split is in fdinfo
 * (drm-engine-npu).
 *
 * job_run_limit_ms (root may write): the longest time a job may spend on
 * the NPU before it is aborted, progress or not; 0: no limit (the
 * default, from the module parameter of that name).
 *
 * reset_count (read-only): engine recoveries after hung jobs since probe
 * (the count debugfs "resets" shows).
 *
 * power_state (read-only): "on" or "off", the NPU's switchable power
 * domain as its always-on PWR_STATUS register reports it (vpux_pm.c);
 * reading it does not wake the NPU.
 *
 * Documentation/ABI/testing/sysfs-driver-vpux documents them all.
 */

#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/sysfs.h>

#include "vpux_drv.h"
#include "vpux_job.h"

/**
 * vpux_busy_begin_locked() - a job was handed to the engine core
 * @vdev: the device, fw.lock held
 */
void vpux_busy_begin_locked(struct vpux_device *vdev)
{
	lockdep_assert_held(&vdev->fw.lock);
	if (!vdev->busy_jobs++)
		vdev->busy_since = ktime_get_ns();
}

/**
 * vpux_busy_end_locked() - a job that vpux_busy_begin_locked() counted
 *	left the NPU
 * @vdev: the device, fw.lock held
 */
void vpux_busy_end_locked(struct vpux_device *vdev)
{
	lockdep_assert_held(&vdev->fw.lock);
	if (!WARN_ON(!vdev->busy_jobs) && !--vdev->busy_jobs)
		vdev->busy_ns += ktime_get_ns() - vdev->busy_since;
}

/**
 * vpux_busy_time_ns() - how long the NPU had at least one job on it
 * @vdev: the device
 *
 * Return: the time in ns (sysfs npu_busy_time_us, netlink dev-get).
 */
u64 vpux_busy_time_ns(struct vpux_device *vdev)
{
	u64 ns;

	mutex_lock(&vdev->fw.lock);
	ns = vdev->busy_ns;
	if (vdev->busy_jobs)
		ns += ktime_get_ns() - vdev->busy_since;
	mutex_unlock(&vdev->fw.lock);
	return ns;
}

static ssize_t npu_busy_time_us_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", div_u64(vpux_busy_time_ns(vdev), 1000));
}
static DEVICE_ATTR_RO(npu_busy_time_us);

static ssize_t job_run_limit_ms_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  vpux_job_run_limit_ms(dev_get_drvdata(dev)));
}

static ssize_t job_run_limit_ms_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(buf, 0, &ms);
	if (ret)
		return ret;
	vpux_set_job_run_limit_ms(dev_get_drvdata(dev), ms);
	return count;
}
static DEVICE_ATTR_RW(job_run_limit_ms);

static ssize_t reset_count_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", atomic_read(&vdev->resets));
}
static DEVICE_ATTR_RO(reset_count);

static ssize_t power_state_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vpux_device *vdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", vpux_pm_hw_on(vdev) ? "on" : "off");
}
static DEVICE_ATTR_RO(power_state);

static struct attribute *vpux_dev_attrs[] = {
	&dev_attr_npu_busy_time_us.attr,
	&dev_attr_job_run_limit_ms.attr,
	&dev_attr_reset_count.attr,
	&dev_attr_power_state.attr,
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
	return devm_device_add_group(vdev->drm.dev, &vpux_dev_attr_group);
}
