// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compile test of the engine core inside a kernel module (make
 * firmware-kbuild): a stub kernel port, so that the core's source is proven
 * to build unchanged with the kernel's headers, W=1 and sparse. Not the
 * real port (portability/linux/): it drives no device.
 */
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "dla_interface.h"
#include "dla_port.h"

static void __iomem *kport_mmio;

dla_u32 dla_reg_read(void *driver_context, dla_u32 addr)
{
	return readl(kport_mmio + addr);
}

void dla_reg_write(void *driver_context, dla_u32 addr, dla_u32 reg)
{
	writel(reg, kport_mmio + addr);
}

dla_s32 dla_get_dma_address(void *driver_context, void *task_data,
			    dla_s16 index, struct dla_address *dst_ptr,
			    dla_u32 destination)
{
	return -DLA_ERR_ADDR_INDEX;
}

dla_s32 dla_data_read(void *driver_context, void *task_data, dla_u64 src,
		      void *dst, dla_u32 size, dla_u64 offset)
{
	return -DLA_ERR_BUF_RANGE;
}

dla_s32 dla_data_write(void *driver_context, void *task_data, const void *src,
		       dla_u64 dst, dla_u32 size, dla_u64 offset)
{
	return -DLA_ERR_BUF_RANGE;
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

void dla_debug(const char *str, ...)
{
}

void dla_info(const char *str, ...)
{
}

void dla_warn(const char *str, ...)
{
}

void dla_error(const char *str, ...)
{
}

static u64 kport_engine_mem[DLA_ENGINE_SIZE_MAX / 8];

static int __init kport_init(void)
{
	struct dla_engine *engine;
	struct dla_task *task;
	dla_u32 size;
	void *mem;
	int ret;

	if (dla_register_driver(&engine, kport_engine_mem,
				sizeof(kport_engine_mem), NULL))
		return -ENODEV;
	/* validation once, outside any lock, into memory of the task's own */
	ret = dla_task_measure(engine, NULL, &size);
	if (!ret) {
		mem = kvmalloc(size, GFP_KERNEL);
		if (!mem) {
			dla_unregister_driver(engine);
			return -ENOMEM;
		}
		ret = dla_task_prepare(engine, NULL, mem, size, &task);
		if (!ret && dla_task_start(engine, task, 0, 0) >= 0)
			dla_clear_task(engine, (dla_u32)dla_task_id(task));
		kvfree(mem);
	}
	dla_unregister_driver(engine);
	return 0;
}
module_init(kport_init);

MODULE_DESCRIPTION("vpux engine core kernel compile test");
MODULE_LICENSE("GPL");
