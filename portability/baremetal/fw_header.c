// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The image header (struct vpux_fw_header), first in the image
 * (link.ld's .fw_header). What the linker knows is filled here: the load
 * address, the entry point, the RAM the image uses (image, bss, stack:
 * __fw_ram_size) and the engine core's limits this image was built with.
 * fwpack fills image_size and crc32 in the flat binary.
 */
#include "bm.h"

#ifndef VPUX_FW_VERSION
#define VPUX_FW_VERSION "unknown"
#endif

extern char __image_start[];
extern char __fw_ram_size[];	/* an absolute symbol: its address is the size */
void _start(void);

__attribute__((section(".fw_header"), used))
const struct vpux_fw_header vpux_fw_header = {
	.magic = VPUX_FW_MAGIC,
	.abi_major = VPUX_FW_ABI_MAJOR,
	.abi_minor = VPUX_FW_ABI_MINOR,
	.header_size = sizeof(struct vpux_fw_header),
	.image_size = 0,	/* fwpack */
	.load_addr = (dla_u32)(unsigned long)__image_start,
	.entry = (dla_u32)(unsigned long)_start,
	.ram_size = (dla_u32)(unsigned long)__fw_ram_size,
	.crc32 = 0,		/* fwpack */
	.max_tasks = DLA_MAX_TASKS,
	.max_ops = DLA_MAX_OPS_PER_TASK,
	.max_barriers = DLA_MAX_BARRIERS,
	.max_deps = DLA_MAX_DEPS_PER_TASK,
	.max_addr_entries = DLA_MAX_ADDR_ENTRIES,
	.version = VPUX_FW_VERSION,
};
