/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux NPU model: the management core, an RV32IMAC hart in machine mode
 * (Documentation/mgmt-core.rst). An interpreter with no allocation and no
 * state outside struct vpux_rv: the caller provides the structure, the
 * RAM the hart fetches from and a bus for every other address.
 *
 * Model-private: the driver never sees it. The caller serializes every
 * call on one struct vpux_rv (vpux_rv_set_irq() included).
 */
#ifndef VPUX_RV_H
#define VPUX_RV_H

#include "vpux_sim_compat.h"

/* mstatus bits (machine mode only: MPP reads as 3) */
#define VPUX_RV_MSTATUS_MIE	(1u << 3)
#define VPUX_RV_MSTATUS_MPIE	(1u << 7)
#define VPUX_RV_MSTATUS_MPP	(3u << 11)

/* mip/mie bits */
#define VPUX_RV_MIP_MSIP	(1u << 3)
#define VPUX_RV_MIP_MTIP	(1u << 7)
#define VPUX_RV_MIP_MEIP	(1u << 11)

/* mcause values */
#define VPUX_RV_CAUSE_INTR		0x80000000u
#define VPUX_RV_CAUSE_MISALIGNED_FETCH	0u
#define VPUX_RV_CAUSE_FETCH_ACCESS	1u
#define VPUX_RV_CAUSE_ILLEGAL_INSN	2u
#define VPUX_RV_CAUSE_BREAKPOINT	3u
#define VPUX_RV_CAUSE_MISALIGNED_LOAD	4u
#define VPUX_RV_CAUSE_LOAD_ACCESS	5u
#define VPUX_RV_CAUSE_MISALIGNED_STORE	6u
#define VPUX_RV_CAUSE_STORE_ACCESS	7u
#define VPUX_RV_CAUSE_ECALL_M		11u
#define VPUX_RV_CAUSE_MSI	(VPUX_RV_CAUSE_INTR | 3u)
#define VPUX_RV_CAUSE_MTI	(VPUX_RV_CAUSE_INTR | 7u)
#define VPUX_RV_CAUSE_MEI	(VPUX_RV_CAUSE_INTR | 11u)

/*
 * Options of a hart (struct vpux_rv.ext), set with @ram before reset; all
 * zero is the management core. A SHAVE core (Documentation/
 * shave-kernels.rst) has the F extension, code that is read-only, and
 * stops at its first trap instead of entering a handler.
 */
#define VPUX_RV_EXT_F		(1u << 0)	/* F: f0-f31, fcsr, FP opcodes */
#define VPUX_RV_EXT_RAM_RO	(1u << 1)	/* stores never reach @ram */
#define VPUX_RV_EXT_HALT	(1u << 2)	/* a trap stops the hart */

/* fcsr: accrued exception flags [4:0], rounding mode [7:5] */
#define VPUX_RV_FFLAG_NX	(1u << 0)	/* inexact */
#define VPUX_RV_FFLAG_UF	(1u << 1)	/* underflow */
#define VPUX_RV_FFLAG_OF	(1u << 2)	/* overflow */
#define VPUX_RV_FFLAG_DZ	(1u << 3)	/* divide by zero */
#define VPUX_RV_FFLAG_NV	(1u << 4)	/* invalid */
#define VPUX_RV_RM_RNE		0u
#define VPUX_RV_RM_RTZ		1u
#define VPUX_RV_RM_RDN		2u
#define VPUX_RV_RM_RUP		3u
#define VPUX_RV_RM_RMM		4u

/* entries of the cache of compressed-instruction expansions (power of 2) */
#define VPUX_RV_CCACHE		512u

/**
 * struct vpux_rv_bus - the hart's accesses outside its RAM (SoC MMIO)
 * @load: read @size (1, 2 or 4) bytes at @addr into *@val (zero-extended);
 *	0 on success, -1 for an access fault
 * @store: write the low @size bytes of @val at @addr; 0 or -1 likewise
 * @ctx: passed to both
 *
 * Accesses reach the bus naturally aligned (misaligned ones trap first).
 * An AMO on the bus is a load followed by a store.
 */
struct vpux_rv_bus {
	int (*load)(void *ctx, u32 addr, u32 size, u32 *val);
	int (*store)(void *ctx, u32 addr, u32 size, u32 val);
	void *ctx;
};

/**
 * struct vpux_rv - one hart
 * @x: integer registers; x[0] reads as zero
 * @pc: address of the next instruction
 * @mstatus: MIE, MPIE and MPP (always 3) are implemented
 * @mie: MSIE, MTIE, MEIE
 * @mip: MSIP, MTIP, MEIP: read-only to the guest, set by vpux_rv_set_irq()
 * @mtvec: trap vector; mode 0 (direct) or 1 (vectored)
 * @mepc: exception PC (bit 0 always clear)
 * @mcause: trap cause
 * @mtval: faulting address or instruction bits, 0 otherwise
 * @mscratch: scratch register for the guest
 * @mcycle: cycles: one per instruction executed or trap taken
 * @minstret: instructions retired
 * @ram: little-endian RAM, caller-owned, where code runs from
 * @ram_base: guest address of @ram[0]
 * @ram_size: bytes of @ram, at least 4
 * @rom: a second region code runs from, read-only (the loads of its RO
 *	data go to @bus), or NULL: a SHAVE core's runtime kernel (WIN_R)
 * @rom_base: guest address of @rom[0]
 * @rom_size: bytes of @rom, 0 (none) or at least 4
 * @bus: every access outside RAM; NULL: they all fault
 * @reservation: address reserved by LR.W
 * @reserved: a reservation is held
 * @wfi: the hart is stopped in WFI until an enabled interrupt
 *	(mie & mip) is pending
 * @ext: VPUX_RV_EXT_* options (configuration, like @ram)
 * @f: F registers (VPUX_RV_EXT_F), FP32 bit patterns
 * @fcsr: F control and status: fflags [4:0], frm [7:5]
 * @halted: VPUX_RV_EXT_HALT: a trap stopped the hart; @mcause, @mtval
 *	and @mepc (= @pc) say which and where
 * @ccache_key: interpreter-private: compressed instructions...
 * @ccache_insn: ...and the 32-bit instructions they expand to, a cache
 *	keyed by the instruction's bits (not its address: stores to code
 *	need no invalidation). All zero is a valid state.
 */
struct vpux_rv {
	u32 x[32];
	u32 pc;
	u32 mstatus, mie, mip, mtvec, mepc, mcause, mtval, mscratch;
	u64 mcycle, minstret;
	u8 *ram;
	u32 ram_base, ram_size;
	const u8 *rom;		/* a second code region, fetch only: a */
	u32 rom_base, rom_size;	/* SHAVE's runtime kernel (0: none) */
	const struct vpux_rv_bus *bus;
	u32 reservation;
	bool reserved;
	bool wfi;
	u32 ext;
	u32 f[32];
	u32 fcsr;
	bool halted;
	u16 ccache_key[VPUX_RV_CCACHE];
	u32 ccache_insn[VPUX_RV_CCACHE];
};

/**
 * vpux_rv_reset() - reset the hart's state, keeping its memory and bus
 * @rv: the hart, with @ram, @ram_base, @ram_size and @bus already set
 * @pc: reset vector
 *
 * Clears the registers and the CSRs (mstatus.MPP reads 3, mtvec 0),
 * interrupts pending included.
 */
void vpux_rv_reset(struct vpux_rv *rv, u32 pc);

/**
 * vpux_rv_run() - execute instructions
 * @rv: the hart
 * @n: at most this many steps; a step retires one instruction or takes
 *	one trap (an exception or an interrupt)
 *
 * Takes pending enabled interrupts between instructions. Stops early when
 * WFI finds no enabled interrupt pending (@rv->wfi is then set); a later
 * call resumes after the WFI once one is.
 *
 * Return: the number of instructions retired.
 */
u32 vpux_rv_run(struct vpux_rv *rv, u32 n);

/**
 * vpux_rv_set_irq() - drive an interrupt line of the hart
 * @rv: the hart
 * @mip_bit: VPUX_RV_MIP_MEIP, VPUX_RV_MIP_MTIP or VPUX_RV_MIP_MSIP
 * @level: the line's level (the bit of mip follows it)
 */
void vpux_rv_set_irq(struct vpux_rv *rv, u32 mip_bit, bool level);

/**
 * vpux_rv_trap() - take an exception before the next instruction
 * @rv: the hart
 * @cause: mcause (an exception's, VPUX_RV_CAUSE_*)
 * @tval: mtval
 *
 * For fault injection: the hart enters its trap handler as if the
 * instruction at @rv->pc had raised @cause (mepc = @rv->pc); a hart
 * stopped in WFI leaves it.
 */
void vpux_rv_trap(struct vpux_rv *rv, u32 cause, u32 tval);

/*
 * The F extension's single-precision arithmetic (sim/vpux_rv_fp.c):
 * FP32 bit patterns, rounding mode @rm (VPUX_RV_RM_*), exception flags
 * ORed into *@fl. Exposed for the tests that define them.
 */
u32 vpux_rvf_add(u32 a, u32 b, u32 rm, u32 *fl);
u32 vpux_rvf_sub(u32 a, u32 b, u32 rm, u32 *fl);
u32 vpux_rvf_mul(u32 a, u32 b, u32 rm, u32 *fl);
u32 vpux_rvf_div(u32 a, u32 b, u32 rm, u32 *fl);
u32 vpux_rvf_sqrt(u32 a, u32 rm, u32 *fl);
u32 vpux_rvf_fma(u32 a, u32 b, u32 c, u32 rm, u32 *fl);
u32 vpux_rvf_from_int(u32 v, bool is_signed, u32 rm, u32 *fl);
u32 vpux_rvf_to_int(u32 a, bool is_signed, u32 rm, u32 *fl);
u32 vpux_rvf_minmax(u32 a, u32 b, bool max, u32 *fl);
u32 vpux_rvf_cmp(u32 a, u32 b, u32 f3, u32 *fl);
u32 vpux_rvf_class(u32 a);
/* execute OP-FP / FMADD..FNMADD @insn; false: illegal */
bool vpux_rvf_exec(struct vpux_rv *rv, u32 insn);

#endif /* VPUX_RV_H */
