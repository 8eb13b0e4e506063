/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux NPU model: internals shared by the model's source files. Nothing
 * here is visible to the driver or the platform glue.
 *
 * Concurrency: one lock (env->lock) protects every register and the engine
 * state machines. Engine computation runs in an "executor" (the context
 * calling vpux_sim_run() or vpux_sim_step(); at most one at a time) with
 * the lock dropped; the executor works on a private snapshot of the op
 * (struct vpux_sim_op) and touches only executor-private state (CMX, TLB,
 * bounce buffer) while unlocked.
 */
#ifndef VPUX_SIM_PRIV_H
#define VPUX_SIM_PRIV_H

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

/* Executor bounce buffer; env->yield is called every YIELD_BYTES. */
#define VPUX_SIM_BOUNCE_SIZE		(16u * 1024u)
#define VPUX_SIM_YIELD_BYTES		(256u * 1024u)
#define VPUX_SIM_YIELD_ROWS		4096u

/* Per-context-slot TLB, direct mapped. */
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
 * One op as the executor sees it: a snapshot of the latched descriptor and
 * of the MMU context taken when the executor picked the op, plus results.
 */
struct vpux_sim_op {
	struct vpux_sim *sim;
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
	/* progress for env->yield */
	u64 since_yield;
};

/* engine life cycle, beyond what STATUS shows */
enum vpux_sim_phase {
	VPUX_SIM_PH_IDLE,	/* no op: STATUS IDLE, DONE or ERROR */
	VPUX_SIM_PH_QUEUED,	/* latched, waiting for the executor */
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
	u32 gen;		/* bumped by abort/reset: stale results dropped */
	u64 seq;		/* START order */
	u64 start_time;		/* virtual clock at START */
	u64 end_time;		/* start_time + cycles once computed */
	u64 cycles;
	u32 err;
	struct vpux_sim_fault fault;
	bool inj_mmu_fault;
	bool inj_drop_irq;
	u32 inj_slow;		/* cycle multiplier, >= 1 */
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
	u32 tlb_flush;		/* slots whose TLB the executor must drop */
	bool step_mode;
	bool executing;		/* an executor is active */
	u64 seq;
	struct vpux_sim_engine eng[VPUX_MAX_ENGINES];

	/* executor-private */
	u64 cmx_base;
	u64 cmx_bytes;
	u8 *cmx;
	struct vpux_sim_tlb_entry *tlb;	/* ctx_slots * VPUX_SIM_TLB_ENTRIES */
	u8 *bounce;
	struct vpux_sim_op op;
};

/* vpux_sim_mmu.c: device memory access on behalf of an op */
void vpux_sim_tlb_flush(struct vpux_sim *sim, u32 slots);
bool vpux_sim_is_cmx(const struct vpux_sim *sim, u64 addr, u64 len);
bool vpux_sim_overlaps_cmx(const struct vpux_sim *sim, u64 addr, u64 len);
int vpux_sim_mem_check(struct vpux_sim_op *op, u64 addr, u64 len, bool write);
int vpux_sim_mem_read(struct vpux_sim_op *op, u64 addr, void *dst, u64 len);
int vpux_sim_mem_write(struct vpux_sim_op *op, u64 addr, const void *src,
		       u64 len);
void vpux_sim_op_yield(struct vpux_sim_op *op, u64 work);
bool vpux_sim_op_cancelled(const struct vpux_sim_op *op);

/* per-engine executors: set op->err, op->cycles (and op->fault) */
void vpux_sim_dma_exec(struct vpux_sim_op *op);
void vpux_sim_dpu_exec(struct vpux_sim_op *op);
void vpux_sim_shave_exec(struct vpux_sim_op *op);

#endif /* VPUX_SIM_PRIV_H */
