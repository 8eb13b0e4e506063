/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux NPU model: internals shared by the model's source files. Nothing
 * here is visible to the driver or the platform glue.
 *
 * Concurrency and locking rules:
 *
 * - One lock (env->lock) protects every register and the engine state
 *   machines (struct vpux_sim_engine, the register fields of struct
 *   vpux_sim). It is held only for register accesses, the bookkeeping
 *   around an op and single-page stores into system memory; never across
 *   computation, never across env->kick, env->irq_raise or env->yield.
 * - Each engine has its own executor: the context running the engine's
 *   unit (vpux_sim_run_unit(), or vpux_sim_step() for a queued op). The
 *   engine's "running" flag, set and cleared under the lock, makes it
 *   exclusive: at most one context executes an engine's ops at a time,
 *   while different engines execute concurrently.
 * - An executor computes with the lock dropped, on its engine's private
 *   struct vpux_sim_op: the snapshot of the op taken under the lock, and
 *   the engine's own TLB and bounce buffer. Nothing else in it is shared,
 *   so engines need no lock between them.
 * - ABORT/reset bump the engine's generation under the lock; the executor
 *   polls it without the lock (VPUX_SIM_READ_ONCE) between bounded pieces
 *   of work, and checks it under the lock before every store into system
 *   memory and before publishing a result.
 * - TLB invalidations (MMU_INVALIDATE, slot reprogramming, RESET) are
 *   recorded under the lock in every engine's tlb_flush mask; an executor
 *   applies its engine's mask to its own TLB when it picks its next op.
 * - The CMX clear unit (struct vpux_sim_clear) is one more executor with
 *   a running flag and a generation, like an engine; it zeroes tiles with
 *   the lock dropped.
 * - CMX is shared by every engine without a lock: the driver keeps ops
 *   that run at the same time off each other's CMX bytes. When it does
 *   not, the data is unspecified (plain concurrent loads and stores of
 *   bytes), never a crash: nothing the model decides on (descriptors,
 *   requant records) is used in place from CMX.
 * - The management core (struct vpux_sim_mc, vpux_sim_mc.c) is one more
 *   executor with a running flag and a generation: its hart (struct
 *   vpux_rv) is private to it and runs batches of instructions with the
 *   lock dropped; the hart's accesses outside its RAM take the lock per
 *   access, like the host's register accesses, and are dropped once the
 *   generation moved (reset, FREEZE). Its RAM is shared with the host's
 *   MC_MEM window without a lock: the host loads it while the core is in
 *   reset. A reset during a batch swaps in the spare RAM (clean), so the
 *   stale batch's stores never land in the RAM the host loads next; the
 *   executor clears the old RAM before its next batch.
 */
#ifndef VPUX_SIM_PRIV_H
#define VPUX_SIM_PRIV_H

#include "vpux_rv.h"
#include "vpux_sim.h"

/*
 * An engine's generation is bumped under the lock and polled without it
 * by the executor, so that an aborted op stops storing within one chunk.
 */
#ifdef __KERNEL__
#include <linux/compiler.h>
#define VPUX_SIM_READ_ONCE(x)		READ_ONCE(x)
#define VPUX_SIM_WRITE_ONCE(x, v)	WRITE_ONCE(x, v)
#else
#define VPUX_SIM_READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define VPUX_SIM_WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#endif

/* Default shape, see vpux_sim_default_config() and hw-model.rst. */
#define VPUX_SIM_DEF_DMA		2u
#define VPUX_SIM_DEF_DPU		2u
#define VPUX_SIM_DEF_SHAVE		2u
#define VPUX_SIM_DEF_TILES		4u
#define VPUX_SIM_DEF_CMX_SIZE		(256u * 1024u)
#define VPUX_SIM_DEF_CLOCK_KHZ		700000u
#define VPUX_SIM_MAX_TILES		64u
#define VPUX_SIM_MAX_CMX_TOTAL		(64ull << 20)

/* Cycle model constants (hw-model.rst, "Cycle model"). */
#define VPUX_SIM_DMA_SETUP_CYCLES	64u
#define VPUX_SIM_DMA_BYTES_PER_CYCLE_SHIFT 5	/* 32 bytes per cycle */
#define VPUX_SIM_DMA_ROW_CYCLES		1u	/* per row after the first */
#define VPUX_SIM_ERR_CYCLES		16u	/* op rejected at decode */

/* Largest DMA transfer (total bytes) and the largest span of one side. */
#define VPUX_SIM_DMA_MAX_BYTES		0xffffffffull
#define VPUX_SIM_MAX_SPAN		(1ull << 40)

/* Per-engine bounce buffer; env->yield is called every YIELD_BYTES. */
#define VPUX_SIM_BOUNCE_SIZE		(16u * 1024u)
#define VPUX_SIM_YIELD_BYTES		(256u * 1024u)
#define VPUX_SIM_YIELD_ROWS		4096u

/*
 * CMX clear: a tile costs what a DMA write of its bytes would (32 bytes
 * per cycle), a request that finds the unit idle the DMA setup cycles on
 * top. The unit zeroes CHUNK bytes between checks for RESET and yields.
 */
#define VPUX_SIM_CLEAR_SETUP_CYCLES	VPUX_SIM_DMA_SETUP_CYCLES
#define VPUX_SIM_CLEAR_CHUNK		(64u * 1024u)

/*
 * Management core: default RAM, instructions per batch between checks
 * for reset and yields, console line length.
 */
#define VPUX_SIM_MC_DEF_MEM		(4u << 20)
#define VPUX_SIM_MC_BATCH		4096u
#define VPUX_SIM_MC_CONSOLE_LINE	128u

/*
 * Per-engine time (hw-model.rst, "Virtual time"): an engine remembers the
 * busy intervals of its last BUSY_SLOTS dated ops on the cycle clock, so
 * that an op dated earlier than ops the host issued before it can run in
 * a gap they left.
 */
#define VPUX_SIM_BUSY_SLOTS		16u

struct vpux_sim_busy {
	u64 start, end;		/* [start, end) on the cycle clock */
};

/* Per-engine TLB: per context slot, direct mapped. */
#define VPUX_SIM_TLB_ENTRIES		64u

struct vpux_sim_tlb_entry {
	u64 tag;	/* VA page number + 1; 0 = empty */
	u64 pte;	/* leaf PTE */
};

struct vpux_sim_fault {
	u64 addr;
	u32 reason;	/* VPUX_FAULT_REASON_*, 0 = no fault */
	bool write;
};

/*
 * An engine's executor: one op as the executor sees it (a snapshot of the
 * latched descriptor and of the MMU context taken when the executor picked
 * the op, plus results), and the engine's private TLB and bounce buffer.
 * Only the engine's executor touches it.
 */
/* the trap that failed a SHAVE ELF op (VPUX_ENG_TRAP_* registers) */
struct vpux_sim_trap {
	u32 cause, pc, tval, kernel, invocation;
	u32 rt_debug;	/* the runtime kernel's debug[0] (VPUX_ENG_RT_DEBUG) */
};

struct vpux_sim_op {
	struct vpux_sim *sim;
	struct vpux_sim_tlb_entry *tlb;	/* ctx_slots * VPUX_SIM_TLB_ENTRIES */
	u8 *bounce;			/* VPUX_SIM_BOUNCE_SIZE bytes */
	const u32 *eng_gen;	/* the engine's generation, polled */
	u32 gen;		/* generation the op was picked in */
	u32 engine;
	u32 kind;
	u32 ctx;
	bool ctx_enabled;
	bool inject_mmu_fault;	/* first access faults (INJECTED) */
	bool accessed;		/* some access was attempted */
	u64 pt_root;
	u32 words[VPUX_ENG_PARAM_WORDS];
	/* results */
	u32 err;		/* VPUX_ENG_ERR_* */
	u64 cycles;
	struct vpux_sim_fault fault;
	struct vpux_sim_trap trap;
	/* progress for env->yield */
	u64 since_yield;
};

/* engine life cycle, beyond what STATUS shows */
enum vpux_sim_phase {
	VPUX_SIM_PH_IDLE,	/* no op: STATUS IDLE, DONE or ERROR */
	VPUX_SIM_PH_QUEUED,	/* latched, waiting for the engine's executor */
	VPUX_SIM_PH_EXEC,	/* the executor is computing it */
	VPUX_SIM_PH_FINISHED,	/* computed, completion not yet published */
	VPUX_SIM_PH_HUNG,	/* injected hang: never completes */
};

struct vpux_sim_engine {
	u32 kind;
	u32 status;
	u32 ctx;
	u32 op_cycles;
	u32 ops_done;
	u32 param[VPUX_ENG_PARAM_WORDS];
	/* the latched op */
	u32 latched[VPUX_ENG_PARAM_WORDS];
	u32 latched_ctx;
	enum vpux_sim_phase phase;
	bool running;		/* an executor runs this engine's ops */
	u32 tlb_flush;		/* slots whose TLB the executor must drop */
	u32 gen;		/* bumped by abort/reset: stale results dropped */
	u64 seq;		/* START order */
	u64 start_time;		/* ready at START; begins once computed */
	u64 end_time;		/* start_time + cycles once computed */
	u64 free_time;		/* END: the last published op's end_time */
	u64 start_at;		/* START_AT, for the next START if armed */
	bool start_at_armed;
	/* busy intervals by start, and the time before which all is busy */
	struct vpux_sim_busy busy[VPUX_SIM_BUSY_SLOTS];
	u32 n_busy;
	u64 busy_floor;
	u64 cycles;
	u32 err;
	struct vpux_sim_fault fault;
	struct vpux_sim_trap trap;
	bool inj_mmu_fault;
	bool inj_drop_irq;
	u32 inj_slow;		/* cycle multiplier, >= 1 */
};

/*
 * The CMX clear unit, under the lock. busy is what CMX_CLEAR_LO/HI read:
 * tiles requested and not yet cleared. In step mode the unit clears
 * tiles (done) that vpux_sim_step() publishes later, like an op.
 */
struct vpux_sim_clear {
	u64 busy;		/* tiles requested, not yet published cleared */
	u64 done;		/* step mode: tiles of busy already zeroed */
	u32 gen;		/* bumped by RESET: a clear in progress stops */
	bool running;		/* an executor runs the unit */
	u64 seq;		/* sim->seq when it became busy */
	u64 start_time;		/* virtual clock when it became busy */
	u64 cycles;		/* cost of the tiles requested since */
};

/*
 * The management core. Fields above @rv are under the lock; @rv, @bus and
 * @armed belong to the unit's executor (running set).
 */
struct vpux_sim_mc {
	u32 ctrl;		/* VPUX_MC_CTRL_RUN */
	u32 boot;
	u32 status;
	u32 info;
	u32 mem_addr;
	u32 shm_lo, shm_hi, shm_size;
	u32 inject;		/* TRAP until taken, FREEZE until reset */
	u32 retired;
	u32 mask;		/* the core's IRQ_MASK */
	bool msip;		/* the doorbell */
	u64 mtimecmp;
	u64 t0;			/* env->now_us when the hart left reset */
	u32 mtime_hi_latch;
	u32 win_lo, win_hi;
	u32 gen;		/* bumped by reset, RUN and FREEZE */
	u32 hart_gen;		/* the generation the hart was reset in */
	bool running;		/* an executor runs the unit */
	bool wake;		/* the core's line rose: kick its unit */
	u8 *ram;		/* the RAM of the hart and of the host window */
	u8 *spare;		/* clean, swapped in by a reset mid-batch */
	u8 *batch_ram;		/* the RAM of the batch running, or NULL */
	bool ram_dirty;		/* @ram may hold non-zero bytes */
	bool spare_dirty;	/* @spare must be cleared before it is used */
	u8 *clear;		/* RAM the reset's writer clears (unlocked) */
	char con[VPUX_SIM_MC_CONSOLE_LINE];
	u32 con_len;
	/* the executor's */
	struct vpux_rv rv;
	struct vpux_rv_bus bus;
	u64 armed;		/* the timer deadline already given to kick_at */
};

struct vpux_sim {
	struct vpux_sim_config cfg;
	const struct vpux_sim_env_ops *ops;
	void *env;
	u32 n_engines;

	/* registers, under the lock */
	u32 irq_status;
	u32 irq_mask;
	u64 now;		/* virtual clock = cycle counter */
	u32 cycles_hi_latch;
	u32 fault_status;
	u64 fault_addr;
	u32 inject;
	u32 inject_arg;
	u32 mmu_pt_lo[VPUX_MAX_CTX_SLOTS];
	u32 mmu_pt_hi[VPUX_MAX_CTX_SLOTS];
	u32 mmu_ctrl[VPUX_MAX_CTX_SLOTS];
	u32 pwr_ctrl;		/* VPUX_PWR_ON: the switchable domain is on */
	u32 pwr_violations;	/* accesses to it while off, cut work */
	u32 pwr_off_count;	/* power-offs since creation */
	bool step_mode;
	u64 seq;
	struct vpux_sim_engine eng[VPUX_MAX_ENGINES];
	struct vpux_sim_clear clr;
	struct vpux_sim_mc mc;

	/* constant after creation */
	u64 cmx_base;
	u64 cmx_bytes;
	/* shared by the executors, see the locking rules above */
	u8 *cmx;
	/* executor-private, one per engine */
	struct vpux_sim_op op[VPUX_MAX_ENGINES];
};

/* vpux_sim.c: register access and units, for vpux_sim_mc.c (lock held) */
u32 vpux_sim_reg_read_locked(struct vpux_sim *sim, u32 off);
bool vpux_sim_reg_write_locked(struct vpux_sim *sim, u32 off, u32 val,
			       u32 *kick);
u32 vpux_sim_mc_unit(const struct vpux_sim *sim);
void vpux_sim_reset_npu(struct vpux_sim *sim);
void vpux_sim_kick(struct vpux_sim *sim, u32 units);	/* lock not held */

/* vpux_sim_mc.c: the management core */
int vpux_sim_mc_create(struct vpux_sim *sim);
void vpux_sim_mc_destroy(struct vpux_sim *sim);
u32 vpux_sim_mc_reg_read(struct vpux_sim *sim, u32 off);
void vpux_sim_mc_reg_write(struct vpux_sim *sim, u32 off, u32 val,
			   u32 *kick);
void vpux_sim_mc_reset(struct vpux_sim *sim);
void vpux_sim_mc_irq_update(struct vpux_sim *sim);
u32 vpux_sim_mc_take_kick(struct vpux_sim *sim);
void vpux_sim_mc_finish_write(struct vpux_sim *sim, u8 *clear);
int vpux_sim_mc_run(struct vpux_sim *sim);

/* vpux_sim_mmu.c: device memory access on behalf of an op */
void vpux_sim_tlb_flush(struct vpux_sim_op *op, u32 slots);
bool vpux_sim_is_cmx(const struct vpux_sim *sim, u64 addr, u64 len);
bool vpux_sim_overlaps_cmx(const struct vpux_sim *sim, u64 addr, u64 len);
int vpux_sim_mem_check(struct vpux_sim_op *op, u64 addr, u64 len, bool write);
int vpux_sim_mem_read(struct vpux_sim_op *op, u64 addr, void *dst, u64 len);
const void *vpux_sim_mem_ptr(struct vpux_sim_op *op, u64 addr, u64 len);
int vpux_sim_mem_write(struct vpux_sim_op *op, u64 addr, const void *src,
		       u64 len);
void vpux_sim_op_yield(struct vpux_sim_op *op, u64 work);
bool vpux_sim_op_cancelled(const struct vpux_sim_op *op);

/* per-engine executors: set op->err, op->cycles (and op->fault) */
void vpux_sim_dma_exec(struct vpux_sim_op *op);
void vpux_sim_dpu_exec(struct vpux_sim_op *op);
void vpux_sim_shave_exec(struct vpux_sim_op *op);
/* a SHAVE op whose record is a vpux_hw_shave_task (vpux_sim_shave_elf.c) */
void vpux_sim_shave_elf_exec(struct vpux_sim_op *op);

#endif /* VPUX_SIM_PRIV_H */
