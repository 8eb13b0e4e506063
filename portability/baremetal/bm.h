/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Bare-metal (headed) port of the engine core: the core runs on the NPU's
 * management core, a RISC-V RV32IMAC hart in machine mode (vpux_mc.h has
 * its memory map). The NPU's registers are at VPUX_MC_NPU_BASE; the host
 * talks to the firmware through shared memory (vpux_fw_abi.h) and reaches
 * task staging buffers through the movable window at VPUX_MC_WIN_BASE.
 * Documentation/firmware.rst describes the image and the protocol.
 */
#ifndef BM_H
#define BM_H

#include "dla_types.h"
#include "dla_limits.h"
#include "vpux_fw_abi.h"
#include "vpux_mc.h"
#include "vpux_regs.h"

#define FW_REG(base, off)	(*(volatile dla_u32 *)(unsigned long)((base) + (off)))

static inline dla_u32 fw_mc_read(dla_u32 off)
{
	return FW_REG(VPUX_MC_REG_BASE, off);
}

static inline void fw_mc_write(dla_u32 off, dla_u32 val)
{
	FW_REG(VPUX_MC_REG_BASE, off) = val;
}

/* Order memory accesses against the host (a RISC-V fence rw,rw). */
#define fw_fence()		__sync_synchronize()

/**
 * struct fw_stage - a task being prepared: the port's task_data
 * @n_addr: entries in @addr
 * @data: the copy of entry 0's bytes, through the window
 * @data_size: its bytes
 * @sym_index: a plan's symbol buffer entry (>= 1), 0 for none
 * @sym_size: bytes of its copy
 * @sym: the copy of that entry's first @sym_size bytes, through the
 *	window (the host stages the values its own core checked)
 * @addr: the address list, copied out of the staging buffer
 *
 * Only dla_task_measure() and dla_task_prepare() read it; the prepared
 * task holds everything it needs afterwards.
 */
struct fw_stage {
	dla_u32 n_addr;
	dla_u32 data_size;
	const volatile dla_u8 *data;
	dla_u32 sym_index;
	dla_u32 sym_size;
	const volatile dla_u8 *sym;
	struct vpux_fw_addr addr[DLA_MAX_ADDR_ENTRIES];
};

/* fw_header.c */
extern const struct vpux_fw_header vpux_fw_header;

/* dla_port_bm.c */
dla_u64 fw_mtime(void);
void fw_pulse(void);
void fw_win_copy_from(void *dst, const volatile void *src, dla_u32 len);
void fw_log_attach(volatile char *ring, dla_u32 size, volatile dla_u32 *tail);
void fw_log(const char *fmt, ...) __attribute__((__format__(__printf__, 1, 2)));
void fw_trap_log(dla_u32 mcause, dla_u32 mepc, dla_u32 mtval);

/* fw_fmt.c: a vsnprintf of the formats the core's messages use */
#include <stdarg.h>
int fw_vsnprintf(char *buf, dla_u32 size, const char *fmt, va_list ap);

#endif /* BM_H */
