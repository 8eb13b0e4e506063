/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Engine core internals: the static per-device and per-task state, and the
 * helpers shared by the core's files. Nothing here is visible to ports.
 */
#ifndef DLA_PRIV_H
#define DLA_PRIV_H

#include "dla_interface.h"
#include "dla_port.h"
#include "vpux_regs.h"

#ifndef DLA_MAX_DEVICES
#define DLA_MAX_DEVICES			2u
#endif

DLA_STATIC_ASSERT(DLA_MAX_TASKS >= 1 && DLA_MAX_TASKS <= 32, "task bitmask");
DLA_STATIC_ASSERT(DLA_MAX_OPS_PER_TASK < (1u << 24), "op link encoding");
DLA_STATIC_ASSERT(DLA_MAX_BARRIERS <= 65535u, "barrier ids are u16");
DLA_STATIC_ASSERT(DLA_MAX_ADDR_ENTRIES <= 32767u, "index is s16");
DLA_STATIC_ASSERT(DLA_MAX_ENGINES == VPUX_MAX_ENGINES, "engines");
DLA_STATIC_ASSERT(DLA_OP_KINDS == VPUX_ENGINE_KINDS, "kinds");
DLA_STATIC_ASSERT(DLA_MAX_SHAVE_WINDOWS == VPUX_SHAVE_WINDOWS, "windows");

/* Ready-queue links: task slot in [31:24], op index in [23:0]. */
#define DLA_NIL				0xffffffffu
#define DLA_LINK(slot, op)		(((dla_u32)(slot) << 24) | (op))
#define DLA_LINK_SLOT(l)		((l) >> 24)
#define DLA_LINK_OP(l)			((l) & 0x00ffffffu)

/* dla_op_rt.state */
#define DLA_OP_WAITING			0u
#define DLA_OP_QUEUED			1u
#define DLA_OP_RUNNING			2u
#define DLA_OP_COMPLETE			3u

/**
 * struct dla_op_rt - run-time state of one op (12 bytes)
 * @next: ready-queue link (DLA_LINK) or DLA_NIL
 * @pending: waits not yet satisfied
 * @init_pending: waits on barriers that have producers
 * @state: DLA_OP_*
 * @kind: enum dla_op_kind
 * @cycles: VPUX_ENG_OP_CYCLES once complete
 */
struct dla_op_rt {
	dla_u32 next;
	dla_u8 pending;
	dla_u8 init_pending;
	dla_u8 state;
	dla_u8 kind;
	dla_u32 cycles;
};

/*
 * Per task slot. The graph is snapshotted at validation: update lists as
 * CSR (upd_start/upd), consumer lists per barrier as CSR
 * (cons_start/cons). Op bodies stay in task memory and are re-read (and
 * re-checked) when the op is programmed.
 */
struct dla_task {
	dla_u32 state;			/* enum dla_task_state */
	dla_s32 error;
	void *task_data;
	dla_u32 mmu_ctx;
	dla_u32 priority;
	dla_u32 n_ops;
	dla_u32 n_done;
	dla_u32 n_running;
	dla_u32 n_barriers;
	dla_u32 base[DLA_OP_KINDS];	/* global index of a kind's op 0 */
	dla_u32 count[DLA_OP_KINDS];
	dla_u32 list_offset[DLA_OP_KINDS];
	dla_u32 fail_kind;
	dla_u32 fail_index;
	dla_u32 eng_status;
	dla_u32 fault_status;
	dla_u64 fault_addr;
	dla_u64 op_cycles;
	dla_u64 start_cycles;
	dla_u64 device_cycles;
	dla_s64 start_us;
	dla_s64 time_us;

	/* address-list entries resolved so far (DESTINATION_DMA) */
	dla_u32 addr_valid[(DLA_MAX_ADDR_ENTRIES + 31) / 32];
	struct dla_address addr[DLA_MAX_ADDR_ENTRIES];

	struct dla_op_rt ops[DLA_MAX_OPS_PER_TASK];
	dla_u32 upd_start[DLA_MAX_OPS_PER_TASK + 1];
	dla_u16 upd[DLA_MAX_DEPS_PER_TASK];
	dla_u16 bar_count[DLA_MAX_BARRIERS];
	dla_u16 bar_init[DLA_MAX_BARRIERS];
	dla_u32 cons_start[DLA_MAX_BARRIERS + 1];
	dla_u32 cons[DLA_MAX_DEPS_PER_TASK];
};

/* One device. */
struct dla_engine {
	dla_u32 in_use;
	void *driver_context;
	dla_u32 n_engines;
	dla_u32 first[DLA_OP_KINDS];	/* global index of a kind's engine 0 */
	dla_u32 n_kind[DLA_OP_KINDS];
	dla_u32 idle[DLA_OP_KINDS];	/* bitmask of idle engines (global) */
	dla_u32 owner[DLA_MAX_ENGINES];	/* DLA_LINK of the running op or NIL */
	dla_u32 n_tiles;
	dla_u32 cmx_size;
	dla_u64 cmx_base;
	dla_u32 ctx_slots;

	/* latched by the ISR */
	dla_u32 irq_pending;
	dla_u32 fault_status;
	dla_u64 fault_addr;

	/* ready queues per kind per priority (FIFO = age of readiness) */
	dla_u32 qhead[DLA_OP_KINDS][DLA_PRIO_LEVELS];
	dla_u32 qtail[DLA_OP_KINDS][DLA_PRIO_LEVELS];
	dla_u32 qmask[DLA_OP_KINDS];	/* bit p: queue p not empty */
	dla_u32 complete_mask;		/* tasks finished, not yet reported */

	/*
	 * Last value written to each engine's PARAM words: unchanged words
	 * are not written again (MMIO is the expensive part of starting an
	 * op). Bit e of shadow_valid: engine e's shadow is trustworthy;
	 * cleared when the core resets the engine. A port that resets the
	 * whole device re-registers the core.
	 */
	dla_u32 shadow_valid;
	dla_u64 shadow[DLA_MAX_ENGINES][VPUX_ENG_PARAM_WORDS / 2];

	/* validation scratch: consumers seen per barrier */
	dla_u16 cons_fill[DLA_MAX_BARRIERS];

	struct dla_task tasks[DLA_MAX_TASKS];
};

/*
 * Union of op records as read from task memory. @words views the record
 * as 32-bit words (wait list = words 1..4, update list = words 5..8).
 */
union dla_op_rec {
	dla_u32 words[9];
	struct dla_op_deps deps;
	struct dla_dma_op dma;
	struct dla_dpu_op dpu;
	struct dla_shave_op shave;
};

/* Hardware descriptors as PARAM words. */
union dla_hw_desc {
	struct vpux_hw_dma_desc dma;
	struct vpux_hw_dpu_desc dpu;
	struct vpux_hw_shave_desc shave;
	dla_u32 words[VPUX_ENG_PARAM_WORDS];
	dla_u64 dwords[VPUX_ENG_PARAM_WORDS / 2];
};

/* dla_util.c */
extern const char *const dla_kind_name[DLA_OP_KINDS];

static inline dla_u32 dla_op_rec_size(dla_u32 kind)
{
	return kind == DLA_OP_DMA ? sizeof(struct dla_dma_op) :
	       kind == DLA_OP_DPU ? sizeof(struct dla_dpu_op) :
	       sizeof(struct dla_shave_op);
}
void dla_zero(void *p, dla_u32 len);

/* Index of the lowest set bit of @mask != 0 (no libgcc __ctzsi2 on rv32). */
static inline dla_u32 dla_ffs(dla_u32 mask)
{
	dla_u32 i = 0;

	if (!(mask & 0xffffu)) {
		mask >>= 16;
		i += 16;
	}
	if (!(mask & 0xffu)) {
		mask >>= 8;
		i += 8;
	}
	if (!(mask & 0xfu)) {
		mask >>= 4;
		i += 4;
	}
	if (!(mask & 0x3u)) {
		mask >>= 2;
		i += 2;
	}
	return i + !(mask & 0x1u);
}

/* Checked arithmetic: return non-zero on overflow. */
static inline int dla_add_u64(dla_u64 a, dla_u64 b, dla_u64 *r)
{
	*r = a + b;
	return *r < a;
}

static inline dla_u64 dla_mul_u32(dla_u32 a, dla_u32 b)
{
	return (dla_u64)a * b;	/* cannot overflow */
}

static inline int dla_mul_u64_u32(dla_u64 a, dla_u32 b, dla_u64 *r)
{
	/* a < 2^48 and b < 2^16 in every caller's worst case, but check */
	dla_u64 hi = (a >> 32) * b;
	dla_u64 lo = (a & 0xffffffffu) * (dla_u64)b;

	if (hi >> 32)
		return 1;
	return dla_add_u64(hi << 32, lo, r);
}

/* dla_task.c */
dla_s32 dla_task_load(struct dla_engine *e, dla_u32 slot, void *task_data);
dla_s32 dla_op_fail(struct dla_task *t, dla_u32 slot, dla_u32 kind,
		    dla_u32 index, const char *field, dla_s32 err);

/* dla_graph.c */
dla_s32 dla_graph_check(struct dla_task *t, dla_u32 slot);
void dla_graph_reset(struct dla_task *t);

/* dla_engine.c */
dla_s32 dla_op_read(struct dla_engine *e, struct dla_task *t, dla_u32 slot,
		    dla_u32 kind, dla_u32 index, union dla_op_rec *rec);
dla_s32 dla_op_build(struct dla_engine *e, struct dla_task *t, dla_u32 slot,
		     dla_u32 kind, dla_u32 index, const union dla_op_rec *rec,
		     union dla_hw_desc *hw, dla_u32 *words);
void dla_engine_start(struct dla_engine *e, dla_u32 eng,
		      const union dla_hw_desc *hw, dla_u32 words, dla_u32 ctx);
dla_u64 dla_read_cycles(struct dla_engine *e);

/* dla_sched.c */
void dla_sched_start_task(struct dla_engine *e, dla_u32 slot);
void dla_sched_enqueue(struct dla_engine *e, dla_u32 slot, dla_u32 op);
void dla_sched_dispatch(struct dla_engine *e);
void dla_sched_complete(struct dla_engine *e, dla_u32 slot, dla_u32 op,
			dla_u32 cycles);
void dla_sched_fail(struct dla_engine *e, dla_u32 slot, dla_s32 err,
		    dla_u32 kind, dla_u32 index);
void dla_sched_release_engine(struct dla_engine *e, dla_u32 eng);
void dla_sched_drained(struct dla_engine *e, dla_u32 slot);

static inline dla_u32 dla_op_kind_index(const struct dla_task *t, dla_u32 op)
{
	return op - t->base[t->ops[op].kind];
}

#endif /* DLA_PRIV_H */
