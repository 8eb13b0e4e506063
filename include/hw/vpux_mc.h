/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The NPU's management core as its firmware sees it: a RISC-V RV32IMAC
 * hart in machine mode, and its memory map. The host's side (reset, the
 * RAM window, the doorbell, the shared memory's address) is in
 * vpux_regs.h ("management core").
 *
 * Memory map (32-bit addresses, little endian):
 *
 *   VPUX_MC_RAM_BASE   RAM, MC_MEM_SIZE bytes: the image is loaded at its
 *                      base; instructions are fetched only from here
 *   VPUX_MC_NPU_BASE   the NPU's register file, VPUX_MMIO_SIZE bytes, at
 *                      the host's offsets, except the interrupt registers:
 *                      IRQ_STATUS, IRQ_MASK and IRQ_CLEAR are the core's
 *                      own view (VPUX_MC_IRQ_BITS of the status, its own
 *                      mask), so the host's bits (VPUX_IRQ_CMX_CLEAR,
 *                      VPUX_IRQ_MC) are neither seen nor acked here
 *   VPUX_MC_REG_BASE   the core's own registers (VPUX_MC_REG_*)
 *   VPUX_MC_SHM_BASE   the shared memory the host set up (MC_SHM_LO/HI,
 *                      MC_SHM_SIZE bytes), in host memory
 *   VPUX_MC_WIN_BASE   a movable window of VPUX_MC_WIN_SIZE bytes onto
 *                      host memory at bus address VPUX_MC_REG_WIN_LO/HI
 *                      (4 KiB aligned)
 *
 * Accesses are 1, 2 or 4 bytes, naturally aligned (a misaligned access
 * traps); registers only take 4-byte accesses. Anything else is an access
 * fault. Interrupts (mip): MEIP is the NPU's line as the core's mask
 * lets it through, MSIP the host's doorbell (VPUX_REG_MC_DOORBELL, cleared
 * by writing VPUX_MC_REG_MSIP), MTIP the timer (mtime >= mtimecmp).
 */
#ifndef VPUX_MC_H
#define VPUX_MC_H

#define VPUX_MC_RAM_BASE		0x80000000u
#define VPUX_MC_NPU_BASE		0x40000000u
#define VPUX_MC_REG_BASE		0x02000000u
#define VPUX_MC_SHM_BASE		0x60000000u
#define VPUX_MC_SHM_MAX			0x01000000u	/* 16 MiB */
#define VPUX_MC_WIN_BASE		0x70000000u
#define VPUX_MC_WIN_SIZE		0x01000000u	/* 16 MiB */

/* NPU interrupt bits the core sees, handles and acks */
#define VPUX_MC_IRQ_BITS		(VPUX_IRQ_ENGINE_MASK | VPUX_IRQ_MMU_FAULT)

/* The core's registers, at VPUX_MC_REG_BASE + offset */
#define VPUX_MC_REG_MSIP		0x0000u	/* write 0: clear the doorbell */
#define VPUX_MC_REG_MTIMECMP_LO		0x4000u	/* timer compare (CLINT layout) */
#define VPUX_MC_REG_MTIMECMP_HI		0x4004u
#define VPUX_MC_REG_MTIME_LO		0xbff8u	/* microseconds since reset */
#define VPUX_MC_REG_MTIME_HI		0xbffcu	/* read LO first: HI is latched */
#define VPUX_MC_REG_STATUS		0xc000u	/* the host's VPUX_REG_MC_STATUS */
#define VPUX_MC_REG_INFO		0xc004u	/* the host's VPUX_REG_MC_INFO */
#define VPUX_MC_REG_HOST_IRQ		0xc008u	/* write: latch VPUX_IRQ_MC */
#define VPUX_MC_REG_WIN_LO		0xc00cu	/* VPUX_MC_WIN_BASE's bus address */
#define VPUX_MC_REG_WIN_HI		0xc010u
#define VPUX_MC_REG_CONSOLE		0xc014u	/* write: one byte to the model's log */

#endif /* VPUX_MC_H */
