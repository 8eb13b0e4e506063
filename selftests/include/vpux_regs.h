/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux NPU register map and hardware op descriptors.
 *
 * This header is the hardware contract: the NPU model in sim/ implements it,
 * the engine core in firmware/ and the kernel driver in kmd/ program it.
 * All registers are 32 bit, little endian, at the offsets below from the
 * start of the device's MMIO window. Documentation/hw-model.rst describes
 * every register in prose.
 *
 * It must stay includable from the kernel, from host user space and from the
 * freestanding firmware build, so it uses only compiler-provided types.
 */
#ifndef VPUX_REGS_H
#define VPUX_REGS_H

#define VPUX_MMIO_SIZE			0x4000u

/* ---- identity and capabilities (read-only) ---- */
#define VPUX_REG_ID			0x0000u	/* VPUX_ID_MAGIC */
#define VPUX_REG_REVISION		0x0004u	/* [31:16] major, [15:0] minor */
#define VPUX_REG_DEVICE_ID		0x0008u	/* [15:0] device id */
#define VPUX_REG_CAPS			0x000cu	/* VPUX_CAP_* */
#define VPUX_REG_ENGINES		0x0010u	/* [7:0] DMA, [15:8] DPU, [23:16] SHAVE */
#define VPUX_REG_TILES			0x0014u	/* number of CMX tiles */
#define VPUX_REG_CMX_SIZE		0x0018u	/* bytes of CMX per tile */
#define VPUX_REG_CTX_SLOTS		0x001cu	/* MMU context slots */
#define VPUX_REG_VA_BASE_LO		0x0020u	/* first device VA the MMU translates */
#define VPUX_REG_VA_BASE_HI		0x0024u
#define VPUX_REG_VA_SIZE_LO		0x0028u	/* size of the translated VA range */
#define VPUX_REG_VA_SIZE_HI		0x002cu
#define VPUX_REG_CMX_BASE_LO		0x0030u	/* device address of tile 0's CMX */
#define VPUX_REG_CMX_BASE_HI		0x0034u
#define VPUX_REG_CLOCK_KHZ		0x0038u	/* cycle counter frequency */
#define VPUX_REG_SERIAL			0x003cu	/* per-instance serial number */

#define VPUX_ID_MAGIC			0x58555056u	/* "VPUX" in memory order */
#define VPUX_HW_REV_MAJOR		1u
#define VPUX_HW_REV_MINOR		0u
#define VPUX_HW_DEVICE_ID		0x7a11u

#define VPUX_CAP_DMA_4D			(1u << 0)
#define VPUX_CAP_DPU_INT8		(1u << 1)
#define VPUX_CAP_SHAVE			(1u << 2)
#define VPUX_CAP_MMU			(1u << 3)
#define VPUX_CAP_CYCLE_COUNTER		(1u << 4)
#define VPUX_CAP_FAULT_INJECT		(1u << 5)
#define VPUX_CAP_CMX_CLEAR		(1u << 6)	/* CMX_CLEAR_LO/HI */
#define VPUX_CAP_MGMT_CORE		(1u << 7)	/* VPUX_REG_MC_*, vpux_mc.h */
#define VPUX_CAP_POWER			(1u << 8)	/* VPUX_REG_PWR_* */
#define VPUX_CAP_START_AT		(1u << 9)	/* VPUX_ENG_START_AT_*, END_* */

/* ---- interrupts, reset, time, faults ---- */
#define VPUX_REG_IRQ_STATUS		0x0100u	/* latched; read-only */
#define VPUX_REG_IRQ_MASK		0x0104u	/* 1 = bit may raise the line */
#define VPUX_REG_IRQ_CLEAR		0x0108u	/* write 1 to clear (W1C) */
#define VPUX_REG_RESET			0x010cu	/* write VPUX_RESET_* */
#define VPUX_REG_CYCLES_LO		0x0110u	/* free-running device cycles */
#define VPUX_REG_CYCLES_HI		0x0114u	/* read LO first: HI is latched */
#define VPUX_REG_FAULT_STATUS		0x0118u	/* VPUX_FAULT_*; write 1 to bit 0 clears */
#define VPUX_REG_FAULT_ADDR_LO		0x011cu
#define VPUX_REG_FAULT_ADDR_HI		0x0120u
#define VPUX_REG_INJECT			0x0124u	/* fault injection, see below */
#define VPUX_REG_INJECT_ARG		0x0128u
#define VPUX_REG_ENGINE_RESET		0x012cu	/* write engine bitmask */
/*
 * CMX clear: writing a tile bitmask (LO: tiles 0..31, HI: tiles 32..63)
 * starts zeroing those tiles, asynchronously; reading returns the tiles
 * still being cleared. VPUX_IRQ_CMX_CLEAR is latched once no tile is.
 */
#define VPUX_REG_CMX_CLEAR_LO		0x0130u
#define VPUX_REG_CMX_CLEAR_HI		0x0134u

/*
 * ---- power (VPUX_CAP_POWER) ----
 * The NPU has two power domains. The always-on one holds the identity
 * registers (0x0000..0x003c), the cycle counter (CYCLES_LO/HI) and the
 * PWR_* registers. Everything else is in the switchable domain: the
 * engines, the MMU, interrupts and faults, fault injection, the CMX
 * clear unit and the management core. CMX keeps its contents (retention).
 *
 * Writing PWR_CTRL without ON powers the domain off: every engine and the
 * CMX clear stop as on VPUX_RESET_DEVICE, the management core is reset,
 * and every register of the domain loses its state (IRQ_MASK and the
 * MMU's page-table roots and enables read 0, cached walks are dropped).
 * Writing ON powers it back on with those reset values. While the domain
 * is off its registers read 0 and ignore writes, and each such access
 * counts in PWR_VIOLATIONS, as does a power-off that cut an op or a
 * clear short: a driver that counts none never touched a suspended NPU.
 */
#define VPUX_REG_PWR_CTRL		0x0140u	/* VPUX_PWR_ON */
#define VPUX_REG_PWR_STATUS		0x0144u	/* RO: VPUX_PWR_ON while powered */
#define VPUX_REG_PWR_VIOLATIONS		0x0148u	/* RO count; any write clears */
#define VPUX_REG_PWR_OFF_COUNT		0x014cu	/* RO: power-offs since creation */

#define VPUX_PWR_ON			(1u << 0)

/* IRQ_STATUS bits: bit e (0..15) = global engine e finished an op */
#define VPUX_IRQ_ENGINE(e)		(1u << (e))
#define VPUX_IRQ_ENGINE_MASK		0x0000ffffu
#define VPUX_IRQ_MMU_FAULT		(1u << 16)
#define VPUX_IRQ_CMX_CLEAR		(1u << 17)	/* requested tiles cleared */
#define VPUX_IRQ_ALL			(VPUX_IRQ_ENGINE_MASK | VPUX_IRQ_MMU_FAULT | \
					 VPUX_IRQ_CMX_CLEAR)
/*
 * The management core interrupted the host (it wrote VPUX_MC_REG_HOST_IRQ,
 * vpux_mc.h). Not in VPUX_IRQ_ALL: only the host's handler of a headed
 * device acks it; the management core never sees it.
 */
#define VPUX_IRQ_MC			(1u << 18)

/* RESET_DEVICE: abort engines and the CMX clear, clear IRQ and fault */
#define VPUX_RESET_DEVICE		(1u << 0)

/* FAULT_STATUS */
#define VPUX_FAULT_VALID		(1u << 0)
#define VPUX_FAULT_WRITE		(1u << 1)
#define VPUX_FAULT_REASON_SHIFT		4	/* VPUX_FAULT_REASON_* */
#define VPUX_FAULT_REASON_MASK		(0xfu << 4)
#define VPUX_FAULT_CTX_SHIFT		8	/* context slot */
#define VPUX_FAULT_CTX_MASK		(0xffu << 8)
#define VPUX_FAULT_ENGINE_SHIFT		16	/* global engine index */
#define VPUX_FAULT_ENGINE_MASK		(0xffu << 16)

#define VPUX_FAULT_REASON_UNMAPPED	1u	/* no valid PTE */
#define VPUX_FAULT_REASON_READONLY	2u	/* write to a read-only page */
#define VPUX_FAULT_REASON_RANGE		3u	/* outside VA range / CMX / phys memory */
#define VPUX_FAULT_REASON_CTX		4u	/* context slot not enabled */
#define VPUX_FAULT_REASON_INJECTED	5u	/* forced by VPUX_INJECT_MMU_FAULT */

/*
 * INJECT: [7:0] global engine index, [11:8] kind, [31:16] count of ops it
 * applies to (0 = until cleared by writing kind NONE). INJECT_ARG: for
 * SLOW, the cycle multiplier.
 */
#define VPUX_INJECT_ENGINE_SHIFT	0
#define VPUX_INJECT_KIND_SHIFT		8
#define VPUX_INJECT_COUNT_SHIFT		16
#define VPUX_INJECT_NONE		0u
#define VPUX_INJECT_HANG		1u	/* op never completes until reset */
#define VPUX_INJECT_DROP_IRQ		2u	/* op completes, IRQ bit not raised */
#define VPUX_INJECT_MMU_FAULT		3u	/* op's first access faults */
#define VPUX_INJECT_SLOW		4u	/* op cycles multiplied by INJECT_ARG */

/*
 * ---- management core (VPUX_CAP_MGMT_CORE): the host's side ----
 * A RISC-V RV32IMAC hart next to the engines (include/hw/vpux_mc.h has
 * its memory map). It is held in reset until the host writes MC_CTRL
 * with RUN; while in reset the host may load its RAM through the
 * MC_MEM_ADDR/MC_MEM_DATA window (each DATA access moves ADDR on by 4).
 * A reset (MC_CTRL = 0, or VPUX_RESET_DEVICE) stops it at once and
 * clears its RAM, its status and its pending interrupts.
 */
#define VPUX_REG_MC_CTRL		0x0400u	/* VPUX_MC_CTRL_* */
#define VPUX_REG_MC_BOOT		0x0404u	/* address the hart starts at */
#define VPUX_REG_MC_STATUS		0x0408u	/* RO: what the firmware wrote, VPUX_MC_STATUS_* */
#define VPUX_REG_MC_INFO		0x040cu	/* RO: firmware-defined (crash: mepc) */
#define VPUX_REG_MC_MEM_SIZE		0x0410u	/* RO: bytes of its RAM */
#define VPUX_REG_MC_MEM_ADDR		0x0414u	/* RAM window: byte offset, 4-aligned */
#define VPUX_REG_MC_MEM_DATA		0x0418u	/* RAM window: the word at ADDR */
#define VPUX_REG_MC_DOORBELL		0x041cu	/* write: software interrupt (MSIP) */
#define VPUX_REG_MC_SHM_LO		0x0420u	/* bus address of the shared memory */
#define VPUX_REG_MC_SHM_HI		0x0424u
#define VPUX_REG_MC_SHM_SIZE		0x0428u	/* its size, at most VPUX_MC_SHM_MAX */
#define VPUX_REG_MC_INJECT		0x042cu	/* VPUX_MC_INJECT_* (fault injection) */
#define VPUX_REG_MC_RETIRED		0x0430u	/* RO: instructions retired, low 32 bits */

#define VPUX_MC_CTRL_RUN		(1u << 0)	/* 0: held in reset */

/* MC_STATUS values the firmware writes (the low 8 bits; the rest is its own) */
#define VPUX_MC_STATUS_OFF		0x00u	/* in reset, or not booted yet */
#define VPUX_MC_STATUS_READY		0x01u	/* booted, queues set up */
#define VPUX_MC_STATUS_CRASHED		0x02u	/* trapped: [31:8] mcause, MC_INFO mepc */
#define VPUX_MC_STATUS_ERROR		0x03u	/* refused to start: [31:8] reason */

/* MC_INJECT */
#define VPUX_MC_INJECT_NONE		0u
#define VPUX_MC_INJECT_TRAP		1u	/* next instruction: illegal-instruction trap */
#define VPUX_MC_INJECT_FREEZE		2u	/* stop executing until reset */

/* ---- MMU: one page-table root per context slot ---- */
#define VPUX_REG_MMU_BASE		0x0200u
#define VPUX_REG_MMU_STRIDE		0x10u
#define VPUX_REG_MMU_PT_LO(c)		(VPUX_REG_MMU_BASE + (c) * VPUX_REG_MMU_STRIDE + 0x0)
#define VPUX_REG_MMU_PT_HI(c)		(VPUX_REG_MMU_BASE + (c) * VPUX_REG_MMU_STRIDE + 0x4)
#define VPUX_REG_MMU_CTRL(c)		(VPUX_REG_MMU_BASE + (c) * VPUX_REG_MMU_STRIDE + 0x8)
#define VPUX_MMU_CTRL_ENABLE		(1u << 0)
#define VPUX_REG_MMU_INVALIDATE		0x0300u	/* write slot bitmask: drop cached walks */
#define VPUX_MAX_CTX_SLOTS		16u

/*
 * Page tables: 4 KiB pages, three levels of 512 64-bit entries each, so a
 * context translates 39 bits of device VA. Level-1 index = VA[38:30],
 * level-2 = VA[29:21], level-3 = VA[20:12]. Each table is one 4 KiB page.
 */
#define VPUX_PAGE_SHIFT			12
#define VPUX_PAGE_SIZE			(1u << VPUX_PAGE_SHIFT)
#define VPUX_PT_ENTRIES			512u
#define VPUX_PT_LEVELS			3u
#define VPUX_VA_BITS			39u
#define VPUX_PTE_VALID			(1ull << 0)
#define VPUX_PTE_WRITE			(1ull << 1)	/* device may write */
#define VPUX_PTE_ADDR_MASK		0x000ffffffffff000ull

/* Default address-space layout reported in the identity registers. */
#define VPUX_DEFAULT_VA_BASE		0x0000000100000000ull	/* 4 GiB */
#define VPUX_DEFAULT_VA_SIZE		0x0000007f00000000ull	/* up to 512 GiB */
#define VPUX_DEFAULT_CMX_BASE		0x0000000020000000ull	/* not MMU-translated */

/* ---- engines ---- */
/*
 * Engines are numbered globally: DMA engines first, then DPU, then SHAVE,
 * at most VPUX_MAX_ENGINES. Engine e's block is at VPUX_REG_ENGINE(e).
 * To run an op the driver writes the op's hardware descriptor (one of the
 * structs below) into PARAM words 0.., sets CTX, then writes
 * VPUX_ENG_CMD_START to CMD. The engine latches PARAM on START.
 */
#define VPUX_MAX_ENGINES		16u
#define VPUX_REG_ENGINE_BASE		0x1000u
#define VPUX_REG_ENGINE_STRIDE		0x200u
#define VPUX_REG_ENGINE(e)		(VPUX_REG_ENGINE_BASE + (e) * VPUX_REG_ENGINE_STRIDE)
#define VPUX_ENG_CMD			0x000u	/* write VPUX_ENG_CMD_* */
#define VPUX_ENG_STATUS			0x004u	/* VPUX_ENG_STATE_* | error << 8 */
#define VPUX_ENG_CTX			0x008u	/* MMU context slot for the next op */
#define VPUX_ENG_OP_CYCLES		0x00cu	/* cycles of the last completed op */
#define VPUX_ENG_KIND			0x010u	/* VPUX_ENGINE_KIND_* (read-only) */
#define VPUX_ENG_OPS_DONE		0x014u	/* ops completed since reset */
/*
 * The address the engine's last op faulted at (0 if it did not): the
 * device-wide FAULT_* record holds one fault until it is acknowledged,
 * so an engine faulting meanwhile is known by its error and this.
 */
#define VPUX_ENG_FAULT_ADDR_LO		0x018u
#define VPUX_ENG_FAULT_ADDR_HI		0x01cu
/*
 * SHAVE engines: the trap that failed the last op with VPUX_ENG_ERR_TRAP
 * (0 otherwise): cause (VPUX_SHAVE_TRAP_*, vpux_shave_elf.h), guest PC,
 * trap value, and the kernel and invocation tags of its task record
 * (the kernel tag is the runtime kernel's, rt_kernel, for a trap at a PC
 * in WIN_R and for VPUX_SHAVE_TRAP_RT_IDLE: vpux_shave_rt.h).
 */
#define VPUX_ENG_TRAP_CAUSE		0x020u
#define VPUX_ENG_TRAP_PC		0x024u
#define VPUX_ENG_TRAP_TVAL		0x028u
#define VPUX_ENG_TRAP_KERNEL		0x02cu
#define VPUX_ENG_TRAP_INVOCATION	0x030u
/* SHAVE: debug[0] of the runtime kernel's control block after the last op */
#define VPUX_ENG_RT_DEBUG		0x034u
/*
 * Per-engine time (VPUX_CAP_START_AT, hw-model.rst "Virtual time"): a
 * write to START_AT_HI arms START_AT (LO written first) for the next
 * START only: that op begins at max(START_AT, the engine's last END)
 * instead of at the cycle counter's current value. The issuer names the
 * cycle its op became ready (its dependencies' completion). END is the
 * cycle at which the engine's last op completed (its begin + its
 * cycles), valid once it is DONE or ERROR.
 */
#define VPUX_ENG_START_AT_LO		0x038u
#define VPUX_ENG_START_AT_HI		0x03cu
#define VPUX_ENG_END_LO			0x040u
#define VPUX_ENG_END_HI			0x044u
#define VPUX_ENG_PARAM(i)		(0x100u + (i) * 4u)
#define VPUX_ENG_PARAM_WORDS		64u

#define VPUX_ENG_CMD_START		1u
#define VPUX_ENG_CMD_ABORT		2u

#define VPUX_ENG_STATE_IDLE		0u
#define VPUX_ENG_STATE_BUSY		1u
#define VPUX_ENG_STATE_DONE		2u
#define VPUX_ENG_STATE_ERROR		3u
#define VPUX_ENG_STATE_MASK		0xffu
#define VPUX_ENG_ERROR_SHIFT		8

/* engine error codes reported in STATUS[15:8] */
#define VPUX_ENG_ERR_NONE		0u
#define VPUX_ENG_ERR_MMU		1u	/* access faulted, see FAULT_* */
#define VPUX_ENG_ERR_DESC		2u	/* hardware descriptor invalid */
#define VPUX_ENG_ERR_KERNEL		3u	/* SHAVE kernel id unknown */
#define VPUX_ENG_ERR_ARGS		4u	/* SHAVE argument check failed */
#define VPUX_ENG_ERR_ABORTED		5u	/* aborted or reset */
#define VPUX_ENG_ERR_NOMEM		6u	/* model ran out of scratch memory */
#define VPUX_ENG_ERR_TRAP		7u	/* SHAVE code trapped, see TRAP_* */

#define VPUX_ENGINE_KIND_DMA		0u
#define VPUX_ENGINE_KIND_DPU		1u
#define VPUX_ENGINE_KIND_SHAVE		2u
#define VPUX_ENGINE_KINDS		3u

/*
 * Hardware descriptors. Field widths are fixed; every struct is a whole
 * number of 32-bit words no larger than VPUX_ENG_PARAM_WORDS. Device
 * addresses are full 64-bit device VAs (MMU-translated in the op's context)
 * or CMX addresses (VPUX_REG_CMX_BASE + tile * CMX_SIZE + offset).
 */

/* DMA: up to 4-D strided copy. dim 0 is contiguous (len bytes). */
struct vpux_hw_dma_desc {
	__UINT32_TYPE__ flags;		/* must be 0 */
	__UINT32_TYPE__ len;		/* bytes per dim-0 row, >= 1 */
	__UINT64_TYPE__ src;
	__UINT64_TYPE__ dst;
	__UINT32_TYPE__ count[3];	/* dims 1..3 counts, each >= 1 */
	__UINT32_TYPE__ src_stride[3];	/* byte strides of dims 1..3 */
	__UINT32_TYPE__ dst_stride[3];
	__UINT32_TYPE__ reserved;
};

/* DPU operations */
#define VPUX_DPU_OP_CONV		0u	/* groups == 1 or grouped/depthwise */
#define VPUX_DPU_OP_MATMUL		1u	/* fully connected / matmul */
#define VPUX_DPU_OP_ADD			2u	/* element-wise add */
#define VPUX_DPU_OP_MUL			3u	/* element-wise multiply */
#define VPUX_DPU_OP_MAXPOOL		4u
#define VPUX_DPU_OP_AVGPOOL		5u
#define VPUX_DPU_OP_SUB			6u	/* element-wise in - in2 (FP16 only) */
#define VPUX_DPU_OPS			7u

#define VPUX_DPU_F_IN_SIGNED		(1u << 0)	/* inputs int8 (else uint8) */
#define VPUX_DPU_F_W_SIGNED		(1u << 1)	/* weights int8 (else uint8) */
#define VPUX_DPU_F_OUT_SIGNED		(1u << 2)	/* output int8 (else uint8) */
#define VPUX_DPU_F_BIAS			(1u << 3)	/* int32 (FP16: FP32) bias[out_c] at bias */
#define VPUX_DPU_F_PER_CHANNEL		(1u << 4)	/* requant[out_c] (FP16: fchan[out_c]) at quant */
/* CONV/MATMUL: int32 accumulators out (no output stage), 4 bytes each */
#define VPUX_DPU_F_OUT_I32		(1u << 5)
/*
 * Half precision (Documentation/compute-ops.rst, "FP16 ops"): in and in2
 * are FP16, the arithmetic is FP32, the output FP16, or FP32 with
 * VPUX_DPU_F_OUT_F32. The integer fields from in_zp to in2_scale hold
 * struct vpux_hw_dpu_fparams instead.
 */
#define VPUX_DPU_F_FP16			(1u << 6)
#define VPUX_DPU_F_OUT_F32		VPUX_DPU_F_OUT_I32	/* FP16: FP32 output */
#define VPUX_DPU_F_SCALE		(1u << 7)	/* FP16: per-tensor scale/shift stage */
/* FP16 ADD/SUB/MUL: how in2 is broadcast over the output (in's shape) */
#define VPUX_DPU_F_BCAST_SHIFT		8
#define VPUX_DPU_F_BCAST_MASK		(3u << 8)
#define VPUX_DPU_BCAST_NONE		0u	/* in2: [h][w][c], as in */
#define VPUX_DPU_BCAST_C		1u	/* in2: [c], one value per channel */
#define VPUX_DPU_BCAST_HW		2u	/* in2: [h][w], one value per pixel */
#define VPUX_DPU_BCAST_SCALAR		3u	/* in2: one value */
/* FP16 MATMUL: in_h batches of [in_w][in_c], in2 one matrix per batch */
#define VPUX_DPU_F_BATCH		(1u << 10)
/* FP16 MATMUL: weights [K = in_c][N = out_c] instead of [N][K] */
#define VPUX_DPU_F_W_KN			(1u << 11)
/* FP16 AVGPOOL: divide by kernel_h * kernel_w, padding included */
#define VPUX_DPU_F_COUNT_PAD		(1u << 12)
#define VPUX_DPU_F_ALL			0x1fffu

/* fixed-point requantisation record: see Documentation/hw-model.rst */
struct vpux_hw_requant {
	__INT32_TYPE__ mult;		/* Q31 multiplier, > 0 */
	__INT32_TYPE__ shift;		/* right shift, -31..31 (negative = left) */
};

/* FP16 ops: the activation stage (vpux_hw_dpu_fparams.act) */
#define VPUX_DPU_ACT_NONE		0u
#define VPUX_DPU_ACT_RELU		1u	/* x < 0 or -0: +0 */
#define VPUX_DPU_ACT_CLAMP		2u	/* into [clamp_lo, clamp_hi] */
#define VPUX_DPU_ACT_LEAKY		3u	/* x < 0: x * slope */
#define VPUX_DPU_ACT_LEAKY_CH		4u	/* x < 0: x * fchan[c].slope */
#define VPUX_DPU_ACTS			5u

/*
 * The output stage of an FP16 op, in place of the integer fields from
 * in_zp to in2_scale (same 11 words). Values are FP32 bit patterns.
 */
struct vpux_hw_dpu_fparams {
	__UINT32_TYPE__ act;		/* VPUX_DPU_ACT_* */
	__UINT32_TYPE__ zero0[2];	/* 0 */
	__UINT32_TYPE__ clamp_lo;	/* ACT_CLAMP bounds, else 0 */
	__UINT32_TYPE__ clamp_hi;
	__UINT32_TYPE__ scale;		/* VPUX_DPU_F_SCALE, else 0 */
	__UINT32_TYPE__ shift;
	__UINT32_TYPE__ slope;		/* ACT_LEAKY, else 0 */
	__UINT32_TYPE__ zero1[3];	/* 0 */
};

/*
 * FP16 ops: a per-channel record at quant (VPUX_DPU_F_PER_CHANNEL: scale
 * and shift; VPUX_DPU_ACT_LEAKY_CH: slope), FP32 bit patterns. Every bit
 * pattern is accepted.
 */
struct vpux_hw_dpu_fchan {
	__UINT32_TYPE__ scale;
	__UINT32_TYPE__ shift;
	__UINT32_TYPE__ slope;
	__UINT32_TYPE__ reserved;	/* ignored */
};

/*
 * DPU descriptor. Activations are N=1, HWC (channels innermost), compact.
 * CONV weights: [out_c][kernel_h][kernel_w][in_c / groups].
 * MATMUL: input [M = in_h * in_w][K = in_c], weights [N = out_c][K]
 * (FP16: VPUX_DPU_F_BATCH, VPUX_DPU_F_W_KN change that).
 * ADD/SUB/MUL: in and in2 have the output's shape (FP16: unless in2 is
 * broadcast, VPUX_DPU_F_BCAST_MASK).
 */
struct vpux_hw_dpu_desc {
	__UINT32_TYPE__ op;		/* VPUX_DPU_OP_* */
	__UINT32_TYPE__ flags;		/* VPUX_DPU_F_* */
	__UINT64_TYPE__ in;		/* activations */
	__UINT64_TYPE__ in2;		/* weights (CONV/MATMUL) or 2nd input */
	__UINT64_TYPE__ bias;		/* int32[out_c] if VPUX_DPU_F_BIAS */
	__UINT64_TYPE__ quant;		/* vpux_hw_requant[out_c] if PER_CHANNEL */
	__UINT64_TYPE__ out;
	__UINT16_TYPE__ in_c, in_h, in_w, out_c, out_h, out_w;
	__UINT16_TYPE__ kernel_h, kernel_w, stride_h, stride_w;
	__UINT16_TYPE__ pad_top, pad_left, pad_bottom, pad_right;
	__UINT16_TYPE__ dilation_h, dilation_w, groups, reserved0;
	union {
		struct {			/* integer ops */
			__INT32_TYPE__ in_zp;	/* zero point of in */
			__INT32_TYPE__ in2_zp;	/* of weights / 2nd input */
			__INT32_TYPE__ out_zp;
			__INT32_TYPE__ act_min;	/* clamp in the output domain */
			__INT32_TYPE__ act_max;
			struct vpux_hw_requant requant;	/* unless PER_CHANNEL */
			struct vpux_hw_requant in_scale;	/* ADD: of in */
			struct vpux_hw_requant in2_scale;	/* ADD: of in2 */
		};
		struct vpux_hw_dpu_fparams f;	/* VPUX_DPU_F_FP16 */
	};
	__UINT32_TYPE__ reserved[2];
};

/* SHAVE: a software kernel from the model's built-in table. */
#define VPUX_SHAVE_WINDOWS		8u
struct vpux_hw_shave_desc {
	__UINT32_TYPE__ kernel_id;	/* VPUX_SHAVE_KERNEL_* (vpux_shave_abi.h) */
	__UINT32_TYPE__ args_size;	/* bytes of the argument buffer */
	__UINT64_TYPE__ args;		/* device address of the argument buffer */
	/*
	 * Memory windows: addresses inside the argument records are 32-bit
	 * window addresses, [31:28] window index, [27:0] offset in the window.
	 */
	__UINT64_TYPE__ window_base[VPUX_SHAVE_WINDOWS];
	__UINT32_TYPE__ window_size[VPUX_SHAVE_WINDOWS];
};

#define VPUX_WADDR(win, off)		(((__UINT32_TYPE__)(win) << 28) | ((off) & 0x0fffffffu))
#define VPUX_WADDR_WINDOW(a)		((a) >> 28)
#define VPUX_WADDR_OFFSET(a)		((a) & 0x0fffffffu)
#define VPUX_SHAVE_ARGS_MAX		4096u

#define VPUX_STATIC_ASSERT_DESC(t) \
	_Static_assert(sizeof(struct t) % 4 == 0 && \
		       sizeof(struct t) <= VPUX_ENG_PARAM_WORDS * 4, #t " size")
VPUX_STATIC_ASSERT_DESC(vpux_hw_dma_desc);
VPUX_STATIC_ASSERT_DESC(vpux_hw_dpu_desc);
VPUX_STATIC_ASSERT_DESC(vpux_hw_shave_desc);
_Static_assert(sizeof(struct vpux_hw_dpu_fparams) == 44 &&
	       __builtin_offsetof(struct vpux_hw_dpu_desc, f) == 84 &&
	       __builtin_offsetof(struct vpux_hw_dpu_desc, reserved) == 128,
	       "FP16 parameters overlay the integer ones exactly");

#endif /* VPUX_REGS_H */
