// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel portability layer of the engine core: the dla_* callbacks the
 * core makes (firmware/include/dla_port.h) implemented on the driver's
 * register accessors, and the core's registration with a device.
 *
 * The core never sleeps and takes no lock. Task validation
 * (dla_task_measure(), dla_task_prepare()) runs in the SUBMIT ioctl,
 * without any lock, and is the only caller of dla_get_dma_address() and
 * dla_data_read(): they read the submitter's address list and the task
 * BO's kernel mapping. Every other call is made under vpux_fw.lock (a
 * mutex), except dla_isr_handler(), which the hard-IRQ handler makes
 * under vpux_fw.isr_lock; the calls reach only the register accessors,
 * and none of these callbacks sleeps.
 */

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/string.h>

#include <drm/drm_managed.h>

#include "dla_interface.h"
#include "dla_port.h"
#include "vpux_drv.h"
#include "vpux_fw.h"

dla_u32 dla_reg_read(void *driver_context, dla_u32 addr)
{
	return vpux_reg_read(driver_context, addr);
}

void dla_reg_write(void *driver_context, dla_u32 addr, dla_u32 reg)
{
	vpux_reg_write(driver_context, addr, reg);
}

dla_s32 dla_get_dma_address(void *driver_context, void *task_data,
			    dla_s16 index, struct dla_address *dst_ptr,
			    dla_u32 destination)
{
	const struct vpux_fw_task_in *t = task_data;

	if (!t || index < 0 || index >= t->count)
		return -DLA_ERR_ADDR_INDEX;
	if (destination == DESTINATION_PROCESSOR) {
		/* only the task memory is mapped for the CPU */
		if (index)
			return -DLA_ERR_ADDR_INDEX;
		dst_ptr->addr = (uintptr_t)t->cpu;
	} else {
		dst_ptr->addr = t->list[index].addr;
	}
	dst_ptr->size = t->list[index].size;
	dst_ptr->flags = t->list[index].readonly ? DLA_ADDR_READONLY : 0;
	dst_ptr->reserved = 0;
	return 0;
}

/* The mapped range [@offset, @offset + @size) of entry @index, or NULL. */
static void *vpux_fw_range(void *task_data, dla_u64 index, dla_u32 size,
			   dla_u64 offset)
{
	const struct vpux_fw_task_in *t = task_data;

	if (!t || index != 0 || !t->count || offset > t->list[0].size ||
	    size > t->list[0].size - offset)
		return NULL;
	return (void *)t->cpu + offset;
}

/*
 * Entries other than 0 are read, never written: a plan's symbol buffer,
 * through the submitter's mapping of its BO (vpux_fw_task_in.map).
 */
static const void *vpux_fw_range_ro(void *task_data, dla_u64 index,
				    dla_u32 size, dla_u64 offset)
{
	const struct vpux_fw_task_in *t = task_data;
	const void *base;

	if (!index)
		return vpux_fw_range(task_data, index, size, offset);
	if (!t || index >= t->count || !t->map ||
	    offset > t->list[index].size ||
	    size > t->list[index].size - offset)
		return NULL;
	base = t->map(t, index);
	return base ? base + offset : NULL;
}

dla_s32 dla_data_read(void *driver_context, void *task_data, dla_u64 src,
		      void *dst, dla_u32 size, dla_u64 offset)
{
	const void *p = vpux_fw_range_ro(task_data, src, size, offset);

	if (!p)
		return -DLA_ERR_BUF_RANGE;
	memcpy(dst, p, size);
	return 0;
}

dla_s32 dla_data_write(void *driver_context, void *task_data, const void *src,
		       dla_u64 dst, dla_u32 size, dla_u64 offset)
{
	void *p = vpux_fw_range(task_data, dst, size, offset);

	if (!p)
		return -DLA_ERR_BUF_RANGE;
	memcpy(p, src, size);
	return 0;
}

dla_s64 dla_get_time_us(void)
{
	return ktime_to_us(ktime_get());
}

void *dla_memset(void *src, int ch, dla_u64 len)
{
	return memset(src, ch, len);
}

void *dla_memcpy(void *dest, const void *src, dla_u64 len)
{
	return memcpy(dest, src, len);
}

/*
 * Core messages. Errors are mostly about task memory user space wrote,
 * so they are ratelimited; debug output follows dynamic debug.
 */
#define VPUX_FW_LOG(name, printer)					\
void name(const char *str, ...)						\
{									\
	struct va_format vaf;						\
	va_list args;							\
									\
	va_start(args, str);						\
	vaf.fmt = str;							\
	vaf.va = &args;							\
	printer("vpux_accel: core: %pV", &vaf);				\
	va_end(args);							\
}

VPUX_FW_LOG(dla_debug, pr_debug)
VPUX_FW_LOG(dla_info, pr_info_ratelimited)
VPUX_FW_LOG(dla_warn, pr_warn_ratelimited)
VPUX_FW_LOG(dla_error, pr_err_ratelimited)

/**
 * vpux_fw_init() - bind an engine-core instance to @vdev
 * @vdev: the device, identified and reset
 *
 * The instance's memory is the DRM device's (drmm); vpux_fw_fini()
 * unbinds it from the hardware.
 *
 * Return: 0 or -ENOMEM / -ENODEV.
 */
int vpux_fw_init(struct vpux_device *vdev)
{
	struct vpux_fw *fw = &vdev->fw;
	u32 size = dla_engine_size();
	dla_s32 ret;
	int err;

	err = drmm_mutex_init(&vdev->drm, &fw->lock);
	if (err)
		return err;
	spin_lock_init(&fw->isr_lock);
	fw->mem = drmm_kzalloc(&vdev->drm, size, GFP_KERNEL);
	if (!fw->mem)
		return -ENOMEM;
	/* the top half sees no instance or a whole one: it may unmask */
	mutex_lock(&fw->lock);
	spin_lock_irq(&fw->isr_lock);
	ret = dla_register_driver(&fw->engine, fw->mem, size, vdev);
	spin_unlock_irq(&fw->isr_lock);
	mutex_unlock(&fw->lock);
	if (ret) {
		vpux_err(vdev, "engine core refused the device: %d\n", ret);
		return -ENODEV;
	}
	return 0;
}

/**
 * vpux_fw_fini() - release the core instance; every task is dropped
 * @vdev: the device
 *
 * The core masks the device's interrupts; nothing calls into it after.
 */
void vpux_fw_fini(struct vpux_device *vdev)
{
	struct vpux_fw *fw = &vdev->fw;

	mutex_lock(&fw->lock);
	spin_lock_irq(&fw->isr_lock);
	if (fw->engine)
		dla_unregister_driver(fw->engine);
	fw->engine = NULL;
	spin_unlock_irq(&fw->isr_lock);
	mutex_unlock(&fw->lock);
}

/**
 * vpux_fw_prepare() - validate a task once into kernel memory
 * @vdev: the device
 * @in: the task's address list, entry 0 mapped for the CPU
 * @mem: out: the memory holding the task, for vpux_fw_task_free()
 * @size: out: its bytes (the caller counts them against the file)
 * @task: out: the prepared task (in @mem)
 *
 * Process context, no lock held: the core reads the task memory once,
 * checks it and builds every op's descriptor into the new allocation.
 *
 * Return: 0, the core's error as a negative -DLA_ERR_* (the task is
 * refused), or -ENOMEM.
 */
int vpux_fw_prepare(struct vpux_device *vdev, struct vpux_fw_task_in *in,
		    void **mem, u32 *size, struct dla_task **task)
{
	dla_u32 bytes;
	dla_s32 ret;

	*mem = NULL;
	*task = NULL;
	*size = 0;
	ret = dla_task_measure(vdev->fw.engine, in, &bytes);
	if (ret)
		return ret;
	/* charged to the submitter's memory cgroup: user space sized it */
	*mem = kvmalloc(bytes, GFP_KERNEL_ACCOUNT);
	if (!*mem)
		return -ENOMEM;
	ret = dla_task_prepare(vdev->fw.engine, in, *mem, bytes, task);
	if (ret) {
		kvfree(*mem);
		*mem = NULL;
		*task = NULL;
		return ret;
	}
	*size = bytes;
	return 0;
}

/**
 * vpux_fw_task_free() - free a prepared task that is not on the core
 * @mem: from vpux_fw_prepare(), or NULL
 */
void vpux_fw_task_free(void *mem)
{
	kvfree(mem);
}
