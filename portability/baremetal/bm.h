/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Bare-metal (headed) port of the engine core: the core runs on the NPU's
 * companion RISC-V microcontroller. The NPU's registers are memory mapped
 * at BM_MMIO_BASE; the host driver talks to the firmware through a mailbox
 * in shared memory at BM_MAILBOX_BASE. This is a stub platform: enough to
 * link a complete image and to show what a headed port provides.
 */
#ifndef BM_H
#define BM_H

#include "dla_types.h"
#include "dla_limits.h"

#define BM_MMIO_BASE		0x40000000u
#define BM_MAILBOX_BASE		0x80400000u
#define BM_UART_TX		0x10000000u	/* 8250-style THR */
#define BM_MTIME		0x0200bff8u	/* CLINT mtime, 1 MHz */

/* One address-list entry: device address for engines, CPU address here. */
struct bm_addr_entry {
	dla_u64 dev;
	dla_u64 cpu;
	dla_u64 size;
};

struct bm_task {
	dla_u32 n;
	dla_u32 reserved;
	struct bm_addr_entry list[DLA_MAX_ADDR_ENTRIES];
};

#define BM_CMD_NONE		0u
#define BM_CMD_SUBMIT		1u	/* arg0 = task index, arg1 = ctx, arg2 = prio */
#define BM_CMD_CLEAR		2u	/* arg0 = task id */

/* Host <-> firmware mailbox. */
struct bm_mailbox {
	volatile dla_u32 cmd;
	volatile dla_u32 arg[3];
	volatile dla_s32 result;
	volatile dla_u32 done_mask;	/* tasks finished (firmware sets) */
	struct bm_task tasks[DLA_MAX_TASKS];
};

#endif /* BM_H */
