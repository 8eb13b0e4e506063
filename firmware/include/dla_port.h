/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Portability layer: the only functions the engine core calls. Each build
 * (kernel module, host user space, microcontroller image) implements them
 * once. None may call back into the core. dla_task_measure() and
 * dla_task_prepare() call dla_get_dma_address(), dla_data_read(),
 * dla_memset() and the messages, in process context, without the port's
 * lock and possibly concurrently: there they may sleep, and must not take
 * that lock. The calls made under the lock (dla_task_start(), the
 * interrupt and event handling, dla_clear_task()) use only
 * dla_reg_read/_write (all dla_isr_handler() uses), dla_get_time_us() and
 * the messages, which must not sleep there. Task memory is never read
 * under the lock.
 */
#ifndef DLA_PORT_H
#define DLA_PORT_H

#include "dla_types.h"

/* dla_get_dma_address() destinations */
#define DESTINATION_PROCESSOR		0u	/* CPU running the core */
#define DESTINATION_DMA			1u	/* NPU engines (device VA) */

/* dla_address.flags */
#define DLA_ADDR_READONLY		(1u << 0)	/* engines may not write it */

/**
 * struct dla_address - one resolved address-list entry
 * @addr: address for the requested destination
 * @size: bytes of the buffer
 * @flags: DLA_ADDR_* access restrictions of the entry, 0 for none; the
 *	core refuses an op that writes a DLA_ADDR_READONLY entry
 * @reserved: 0
 */
struct dla_address {
	dla_u64 addr;
	dla_u64 size;
	dla_u32 flags;
	dla_u32 reserved;
};

/**
 * dla_reg_read() - read a device register
 * @driver_context: the port's handle from dla_register_driver()
 * @addr: byte offset in the MMIO window (VPUX_REG_*)
 *
 * Return: the register value.
 */
dla_u32 dla_reg_read(void *driver_context, dla_u32 addr);

/**
 * dla_reg_write() - write a device register
 * @driver_context: the port's handle
 * @addr: byte offset in the MMIO window
 * @reg: value
 */
void dla_reg_write(void *driver_context, dla_u32 addr, dla_u32 reg);

/**
 * dla_get_dma_address() - resolve an address-list entry
 * @driver_context: the port's handle
 * @task_data: the task handle given to dla_task_measure() and
 *	dla_task_prepare()
 * @index: address-list index
 * @dst_ptr: out: address, size and access flags of the entry (every
 *	field set)
 * @destination: DESTINATION_DMA (device VA, for the engines) or
 *	DESTINATION_PROCESSOR (address the core's CPU can use)
 *
 * Return: 0, or negative if @index is not in the list.
 */
dla_s32 dla_get_dma_address(void *driver_context, void *task_data,
			    dla_s16 index, struct dla_address *dst_ptr,
			    dla_u32 destination);

/**
 * dla_data_read() - copy task memory into core memory
 * @driver_context: the port's handle
 * @task_data: the task handle
 * @src: address-list index
 * @dst: core buffer
 * @size: bytes
 * @offset: byte offset in the buffer
 *
 * The port checks @offset + @size against the entry (the core checks it
 * too, before calling).
 *
 * Return: 0 or negative.
 */
dla_s32 dla_data_read(void *driver_context, void *task_data, dla_u64 src,
		      void *dst, dla_u32 size, dla_u64 offset);

/**
 * dla_data_write() - copy core memory into task memory
 * @driver_context: the port's handle
 * @task_data: the task handle
 * @src: core buffer
 * @dst: address-list index
 * @size: bytes
 * @offset: byte offset in the buffer
 *
 * Return: 0 or negative.
 */
dla_s32 dla_data_write(void *driver_context, void *task_data, const void *src,
		       dla_u64 dst, dla_u32 size, dla_u64 offset);

/** dla_get_time_us() - monotonic time in microseconds */
dla_s64 dla_get_time_us(void);

/** dla_memset() - fill @len bytes at @src with @ch; returns @src */
void *dla_memset(void *src, int ch, dla_u64 len);

/** dla_memcpy() - copy @len bytes; returns @dest */
void *dla_memcpy(void *dest, const void *src, dla_u64 len);

/* Console messages; printf-style formats (%u, %d, %s, %llx, %llu only). */
void dla_debug(const char *str, ...)
	__attribute__((__format__(__printf__, 1, 2)));
void dla_info(const char *str, ...)
	__attribute__((__format__(__printf__, 1, 2)));
void dla_warn(const char *str, ...)
	__attribute__((__format__(__printf__, 1, 2)));
void dla_error(const char *str, ...)
	__attribute__((__format__(__printf__, 1, 2)));

/*
 * The NVDLA helper names, implemented by the core on top of
 * dla_get_dma_address(): the device address / CPU address of an entry.
 */
dla_s32 dla_read_dma_address(void *driver_context, void *task_data,
			     dla_s16 index, struct dla_address *dst);
dla_s32 dla_read_cpu_address(void *driver_context, void *task_data,
			     dla_s16 index, struct dla_address *dst);

#endif /* DLA_PORT_H */
