/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The engine core (firmware/) inside vpux_accel.ko: what the kernel port
 * (dla_port_linux.c) hands the core as a task, and the lock that
 * serialises every call into the core.
 */
#ifndef __VPUX_FW_H__
#define __VPUX_FW_H__

#include <linux/spinlock.h>
#include <linux/types.h>

#include "vpux_accel.h"

/* Address-list entries of one job, the task included (MAX_ADDR_ENTRIES) */
#define VPUX_MAX_ADDR_ENTRIES	64

struct vpux_device;

/**
 * struct vpux_fw_buf - one resolved address-list entry
 * @addr: device address (in the job's address space)
 * @size: bytes
 * @readonly: the device may not write the entry (DLA_ADDR_READONLY: the
 *	core refuses an op that would)
 */
struct vpux_fw_buf {
	u64 addr;
	u64 size;
	bool readonly;
};

/**
 * struct vpux_fw_task_in - a task as dla_task_prepare() reads it (task_data)
 * @count: entries in @list; entry 0 is the task memory
 * @cpu: kernel mapping of entry 0, which the core reads once
 * @map: kernel mapping of entry @index (>= 1), or NULL if it has none: the
 *	core reads a plan's symbol buffer (Documentation/dynamic-shapes.rst)
 *	through it, once, in dla_task_prepare(); process context, may sleep
 * @list: device address and size of each entry
 */
struct vpux_fw_task_in {
	u32 count;
	const void *cpu;
	const void *(*map)(const struct vpux_fw_task_in *in, u32 index);
	struct vpux_fw_buf list[VPUX_MAX_ADDR_ENTRIES];
};

struct dla_engine;
struct dla_task;

/**
 * struct vpux_fw - the core instance of one device
 * @engine: the core's instance (dla_register_driver), in @mem
 * @mem: the instance's memory (dla_engine_size() bytes, drmm)
 * @lock: serialises every call into the core except task validation
 *	and the top half; a mutex: the interrupt's bottom half (an IRQ
 *	thread), the queues' run_job, the watchdog and the ioctls take it,
 *	never a hard-IRQ handler
 * @isr_lock: serialises the top half (dla_isr_handler(), in hard-IRQ
 *	context) with what touches its latch (dla_take_events(),
 *	dla_poll_engines()) and with @engine going away; nests inside @lock
 */
struct vpux_fw {
	struct dla_engine *engine;
	void *mem;
	struct mutex lock;
	spinlock_t isr_lock;
};

int vpux_fw_init(struct vpux_device *vdev);
void vpux_fw_fini(struct vpux_device *vdev);
int vpux_fw_prepare(struct vpux_device *vdev, struct vpux_fw_task_in *in,
		    void **mem, u32 *size, struct dla_task **task);
void vpux_fw_task_free(void *mem);

#endif /* __VPUX_FW_H__ */
