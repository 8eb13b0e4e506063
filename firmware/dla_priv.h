/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Engine core internals: the instance (struct dla_engine, in memory the
 * port gives dla_register_driver()), the prepared task (struct dla_task,
 * in memory the port gives dla_task_prepare()) and the helpers shared by
 * the core's files. Nothing here is visible to ports.
 */
#ifndef DLA_PRIV_H
#define DLA_PRIV_H

#include "dla_interface.h"
#include "dla_port.h"
#include "vpux_regs.h"
#include "vpux_shave_rt.h"

DLA_STATIC_ASSERT(DLA_MAX_TASKS >= 1 && DLA_MAX_TASKS <= 32, "task bitmask");
DLA_STATIC_ASSERT(DLA_MAX_OPS_PER_TASK >= 1 &&
		  DLA_MAX_OPS_PER_TASK < (1u << 24), "op link encoding");
DLA_STATIC_ASSERT(DLA_MAX_BARRIERS <= 65535u, "barrier ids are u16");
DLA_STATIC_ASSERT(DLA_MAX_DEPS_PER_TASK < (1u << 28), "edge indices");
DLA_STATIC_ASSERT(DLA_MAX_ADDR_ENTRIES >= 1 &&
		  DLA_MAX_ADDR_ENTRIES <= 32767u, "index is s16");
DLA_STATIC_ASSERT(DLA_MAX_ENGINES == VPUX_MAX_ENGINES, "engines");
DLA_STATIC_ASSERT(DLA_OP_KINDS == VPUX_ENGINE_KINDS, "kinds");
DLA_STATIC_ASSERT(DLA_MAX_SHAVE_WINDOWS == VPUX_SHAVE_WINDOWS, "windows");

DLA_STATIC_ASSERT(DLA_PLAN_WINDOW >= 2 && DLA_PLAN_WINDOW <= 128 &&
		  (DLA_PLAN_WINDOW & (DLA_PLAN_WINDOW - 1)) == 0,
		  "plan window: a power of two, u8 slot fields");
DLA_STATIC_ASSERT(DLA_PLAN_MAX_EXPANDED <= (1u << 24), "expanded ops");
DLA_STATIC_ASSERT(DLA_PLAN_SIZE_MAX <= 65536u, "plan offsets are u16");

#define DLA_ENGINE_MAGIC		0x45414c44u	/* "DLAE" */
#define DLA_TASK_READY			0x50414c44u	/* "DLAP" */

/* Ready-queue links: task slot in [31:24], op index in [23:0]. */
#define DLA_NIL				0xffffffffu
#define DLA_LINK(slot, op)		(((dla_u32)(slot) << 24) | (op))
#define DLA_LINK_SLOT(l)		((l) >> 24)
#define DLA_LINK_OP(l)			((l) & 0x00ffffffu)

/**
 * struct dla_op_rt - one op of a prepared task (16 bytes)
 * @next: next op (task-local index) in its task's ready queue, or DLA_NIL
 * @cycles: VPUX_ENG_OP_CYCLES once complete, else 0
 * @upd: index in dla_task.upd of the op's first update edge
 * @n_upd: update edges of the op
 * @pending: waits not yet satisfied
 * @init_pending: waits on barriers that have producers
 * @kind: enum dla_op_kind
 */
struct dla_op_rt {
	dla_u32 next;
	dla_u32 cycles;
	dla_u32 upd;
	dla_u8 n_upd;
	dla_u8 pending;
	dla_u8 init_pending;
	dla_u8 kind;
};

/**
 * struct dla_bar_rt - one barrier of a prepared task (8 bytes)
 * @count: producers still to complete
 * @init: producer_count
 * @cons: index in dla_task.cons of the first consumer; the consumers of
 *	barrier b are cons[bar[b].cons .. bar[b + 1].cons) (one entry past
 *	the last barrier closes the list)
 */
struct dla_bar_rt {
	dla_u16 count;
	dla_u16 init;
	dla_u32 cons;
};

/*
 * Hardware descriptors as they sit in the prepared task, one array per
 * kind. dla_engine_start() compares and writes them as pairs of PARAM
 * words (u64): each is a whole number of pairs, so no pad word is left
 * for the builders to fill.
 */
#define DLA_PAIRS(t)			((sizeof(struct t) + 7) / 8)
union dla_dma_slot {
	struct vpux_hw_dma_desc d;
	dla_u64 w[DLA_PAIRS(vpux_hw_dma_desc)];
};
union dla_dpu_slot {
	struct vpux_hw_dpu_desc d;
	dla_u64 w[DLA_PAIRS(vpux_hw_dpu_desc)];
};
union dla_shave_slot {
	struct vpux_hw_shave_desc d;
	struct vpux_hw_shave_task task;	/* d.kernel_id ELF */
	dla_u64 w[DLA_PAIRS(vpux_hw_shave_desc)];
};
DLA_STATIC_ASSERT(sizeof(struct vpux_hw_dma_desc) % 8 == 0 &&
		  sizeof(struct vpux_hw_dpu_desc) % 8 == 0 &&
		  sizeof(struct vpux_hw_shave_desc) % 8 == 0,
		  "descriptors are whole pairs of PARAM words");
DLA_STATIC_ASSERT(sizeof(union dla_dma_slot) % 8 == 0 &&
		  sizeof(union dla_dpu_slot) % 8 == 0 &&
		  sizeof(union dla_shave_slot) % 8 == 0, "descriptor slots");
DLA_STATIC_ASSERT(DLA_PAIRS(vpux_hw_dpu_desc) * 2 <= VPUX_ENG_PARAM_WORDS &&
		  DLA_PAIRS(vpux_hw_dma_desc) * 2 <= VPUX_ENG_PARAM_WORDS &&
		  DLA_PAIRS(vpux_hw_shave_desc) * 2 <= VPUX_ENG_PARAM_WORDS,
		  "descriptors fit the PARAM words");

/* Descriptor slot of a plan's window op: room for every kind's. */
#define DLA_PLAN_PAIRS			(DLA_DESC_SIZE_MAX / 8u)

struct dla_plan_rt;

/*
 * A prepared task: this header at the start of the port's memory, then
 * the arrays it points to (dla_task.c, dla_task_layout(), gives the
 * layout). Everything the scheduler needs is here; task memory is not
 * read after dla_task_prepare().
 */
struct dla_task {
	dla_u32 magic;			/* DLA_TASK_READY once prepared */
	dla_u32 state;			/* enum dla_task_state */
	dla_s32 error;
	dla_s32 slot;			/* task id while started, else -1 */
	const struct dla_engine *engine;	/* prepared for this instance */
	dla_u32 size;			/* bytes of the prepared task */
	dla_u32 dirty;			/* run-time state needs a rewind */
	dla_u32 mmu_ctx;
	dla_u32 priority;
	dla_u32 n_ops;
	dla_u32 n_done;
	dla_u32 n_running;
	dla_u32 n_barriers;
	dla_u32 cmx_tiles[2];		/* bit i % 32 of [i / 32]: some op
					 * uses CMX tile i (32-bit words: no
					 * variable 64-bit shift on RV32) */
	dla_u32 tile_first;		/* the CMX tiles it may use: the */
	dla_u32 tile_end;		/* window [tile_first, tile_end) */
	dla_u32 rq_head[DLA_OP_KINDS];	/* ready ops (local index) or NIL */
	dla_u32 rq_tail[DLA_OP_KINDS];
	dla_u32 base[DLA_OP_KINDS];	/* global index of a kind's op 0 */
	dla_u32 count[DLA_OP_KINDS];
	dla_u32 pairs[DLA_OP_KINDS];	/* descriptor size, PARAM word pairs */
	/* pairs from one op's descriptor to the next: pairs[k], or
	 * DLA_PLAN_PAIRS in a plan's window
	 */
	dla_u32 dstride[DLA_OP_KINDS];
	dla_u32 n_total;		/* ops in all (a plan: expanded) */
	dla_u32 fail_kind;
	dla_u32 fail_index;
	dla_u32 eng_status;
	dla_u32 fault_status;
	dla_u64 fault_addr;
	dla_u64 op_cycles;
	dla_u64 start_cycles;
	/* the latest END of the task's completed ops (start_cycles at first) */
	dla_u64 ready_at;
	dla_u64 device_cycles;
	dla_s64 start_us;
	dla_s64 time_us;

	struct dla_op_rt *ops;		/* [n_ops] */
	struct dla_bar_rt *bar;		/* [n_barriers + 1] */
	dla_u16 *upd;			/* update edges, by op */
	dla_u32 *cons;			/* consumer edges, by barrier */
	dla_u64 *desc[DLA_OP_KINDS];	/* [count[k] * pairs[k]] */
	/* NULL, or the task is a plan whose ops[] are the window's slots */
	struct dla_plan_rt *plan;
};

/* One device. */
struct dla_engine {
	dla_u32 magic;			/* DLA_ENGINE_MAGIC while registered */
	void *driver_context;

	/*
	 * Device facts, constant from dla_register_driver() on: the only
	 * part dla_task_measure() and dla_task_prepare() read (they run
	 * without the port's lock).
	 */
	dla_u32 n_engines;
	dla_u32 first[DLA_OP_KINDS];	/* global index of a kind's engine 0 */
	dla_u32 n_kind[DLA_OP_KINDS];
	dla_u8 eng_kind[DLA_MAX_ENGINES];
	dla_u32 n_tiles;
	dla_u32 cmx_size;
	dla_u64 cmx_base;
	dla_u32 ctx_slots;
	dla_u32 start_at;		/* VPUX_CAP_START_AT: ops are dated */

	/* Everything below: only under the port's lock. */
	dla_u32 idle[DLA_OP_KINDS];	/* bitmask of idle engines (global) */
	dla_u32 owner[DLA_MAX_ENGINES];	/* DLA_LINK of the running op or NIL */
	dla_u32 start_seq;		/* ops started so far (wraps) */
	dla_u32 owner_seq[DLA_MAX_ENGINES]; /* start_seq of the running op */
	dla_u64 eng_end[DLA_MAX_ENGINES]; /* start_at: END of the last op */

	/*
	 * Latched by the ISR (and dla_poll_engines()); moved to the bottom
	 * half's record below by dla_take_events(), the only place the
	 * bottom half touches them: a port whose top half runs concurrently
	 * with its bottom half excludes the two there alone.
	 */
	dla_u32 irq_pending;
	dla_u32 fault_status;
	dla_u64 fault_addr;

	/* taken events, the bottom half's own (dla_handle_events()) */
	dla_u32 bh_pending;
	dla_u32 bh_fault_status;
	dla_u64 bh_fault_addr;

	/*
	 * Ready ops: each task queues its own per kind (dla_task.rq_head);
	 * ready[k][p]: the tasks of priority p with a ready op of kind k;
	 * qmask[k] bit p: ready[k][p] != 0. Among the tasks of the top
	 * priority, an idle engine goes to the task whose MMU context
	 * (file) was served least recently, then to the task served least
	 * recently (dla_sched.c): fair between files, op by op.
	 */
	dla_u32 ready[DLA_OP_KINDS][DLA_PRIO_LEVELS];
	dla_u32 qmask[DLA_OP_KINDS];
	dla_u32 serve_seq;		/* ops dequeued so far (wraps) */
	dla_u32 slot_served[DLA_MAX_TASKS];	/* serve_seq of the last */
	dla_u32 ctx_served[VPUX_MAX_CTX_SLOTS];
	dla_u32 complete_mask;		/* tasks finished, not yet reported */

	struct dla_task *task[DLA_MAX_TASKS];	/* by slot, NULL if free */

	/*
	 * Last value written to each engine's PARAM words: unchanged words
	 * are not written again (MMIO is the expensive part of starting an
	 * op). Bit e of shadow_valid: engine e's shadow is trustworthy;
	 * cleared when the core resets the engine, or by
	 * dla_engines_lost_state() after a power cycle. A port that resets
	 * the whole device re-registers the core.
	 */
	dla_u32 shadow_valid;
	dla_u64 shadow[DLA_MAX_ENGINES][VPUX_ENG_PARAM_WORDS / 2];
};

/*
 * Union of op records as read from task memory. @words views the record
 * as 32-bit words (wait list = words 1..4, update list = words 5..8).
 */
union dla_op_rec {
	dla_u32 words[9];
	dla_u32 all[sizeof(struct dla_dpu_op) / 4];
	dla_u16 half[sizeof(struct dla_dpu_op) / 2];
	struct dla_op_deps deps;
	struct dla_dma_op dma;
	struct dla_dpu_op dpu;
	struct dla_shave_op shave;
	struct dla_shave_task_op shave_task;	/* kernel_id ELF */
};
DLA_STATIC_ASSERT(sizeof(struct dla_shave_task_op) ==
		  sizeof(struct dla_shave_op) &&
		  __builtin_offsetof(struct dla_shave_task_op, kernel_id) ==
		  __builtin_offsetof(struct dla_shave_op, kernel_id),
		  "an ELF task record overlays a SHAVE op record");

/*
 * Address cache of one prepare: address-list entry @tag - 1 (0: empty)
 * in the slot of index % DLA_ADDR_CACHE. Direct mapped: a list of up to
 * DLA_ADDR_CACHE entries asks the port once per entry; a longer one may
 * ask again for entries that share a slot.
 */
#define DLA_ADDR_CACHE			32u
DLA_STATIC_ASSERT((DLA_ADDR_CACHE & (DLA_ADDR_CACHE - 1)) == 0, "cache");
struct dla_addr_slot {
	dla_u32 tag;
	dla_u32 reserved;
	struct dla_address a;
};

/*
 * State of one dla_task_prepare() call: the task being filled and the
 * validation scratch, which lives in the task's memory too (never in the
 * engine: prepare runs concurrently with everything else).
 */
struct dla_prep {
	const struct dla_engine *e;
	struct dla_task *t;
	void *drv;			/* driver_context */
	void *task_data;
	dla_u64 entry0;			/* bytes of address-list entry 0 */
	dla_u32 n_upd;			/* update edges so far */
	dla_u32 max_upd;		/* room of t->upd */
	dla_u32 max_cons;		/* room of t->cons */
	dla_u16 *cons_fill;		/* [n_barriers] consumers seen */
	struct dla_addr_slot *addr;	/* [DLA_ADDR_CACHE] */
	/* under the lock (a plan expanding): a cache miss fails, the port
	 * is not asked
	 */
	dla_u32 no_port;
};

DLA_STATIC_ASSERT(sizeof(struct dla_dpu_op) >= sizeof(struct dla_dma_op) &&
		  sizeof(struct dla_dpu_op) >= sizeof(struct dla_shave_op),
		  "the DPU record is the largest");

/*
 * A prepared plan (dla_plan.c), in the prepared task's memory: the plan
 * copied from task memory and parsed, the symbol values, the expander's
 * position and the window, a ring of DLA_PLAN_WINDOW op slots indexed by
 * expansion sequence number modulo the window (t->ops[], its descriptors
 * at @desc).
 */
struct dla_plan_blk {
	dla_u32 depth, first, n;
	dla_u32 extent[DLA_PLAN_MAX_DEPTH];
	dla_u32 tile[DLA_PLAN_MAX_DEPTH];
	dla_u32 count[DLA_PLAN_MAX_DEPTH];
	dla_u32 empty;			/* some count is 0: no iteration */
};

struct dla_plan_tpl {
	dla_u32 kind, wait_mask, n_patches, words;
	/* bits of the body's templates that wait for this one */
	dla_u32 waiters;
	const struct dla_plan_patch *patch;
	union dla_op_rec *rec;		/* in the plan's copy, patched */
};

struct dla_plan_rt {
	dla_u32 n_blocks;
	dla_u32 expr_words;
	const dla_u32 *expr;
	dla_u64 *desc;			/* [DLA_PLAN_WINDOW * DLA_PLAN_PAIRS] */
	struct dla_prep prep;		/* the builder's context under the lock */
	dla_u32 sym[DLA_PLAN_MAX_SYMBOLS];
	dla_u32 n_sym;			/* symbols in @sym */
	dla_u32 sym_index;		/* their address-list entry */
	struct dla_plan_blk blk[DLA_PLAN_MAX_BLOCKS];
	struct dla_plan_tpl tpl[DLA_PLAN_MAX_TEMPLATES];

	/* expander, rewound by dla_plan_start() */
	dla_u32 head;			/* oldest op in the window (sequence) */
	dla_u32 tail;			/* next op to expand (sequence) */
	dla_u32 b, j;			/* its block and template in the body */
	dla_u32 wblk;			/* block of the ops in the window */
	dla_u32 fresh;			/* b is new: wait for an empty window */
	dla_u32 exhausted;		/* every op expanded */
	dla_s32 err;			/* a deferred expansion failure */
	dla_u32 err_kind;
	dla_u32 idx[DLA_PLAN_MAX_DEPTH];
	dla_u32 var[DLA_PLAN_MAX_DEPTH * 3];	/* IDX, OFF, LEN per level */
	dla_u8 done[DLA_PLAN_WINDOW];	/* slot's op completed */
	dla_u8 tj[DLA_PLAN_WINDOW];	/* slot's template in the body */
};

/* dla_util.c */
extern const char *const dla_kind_name[DLA_OP_KINDS];

static inline dla_u32 dla_op_rec_size(dla_u32 kind)
{
	return kind == DLA_OP_DMA ? sizeof(struct dla_dma_op) :
	       kind == DLA_OP_DPU ? sizeof(struct dla_dpu_op) :
	       sizeof(struct dla_shave_op);
}

static inline dla_u32 dla_desc_pairs(dla_u32 kind)
{
	return kind == DLA_OP_DMA ? DLA_PAIRS(vpux_hw_dma_desc) :
	       kind == DLA_OP_DPU ? DLA_PAIRS(vpux_hw_dpu_desc) :
	       DLA_PAIRS(vpux_hw_shave_desc);
}

void dla_zero(void *p, dla_u32 len);

/*
 * Index of the lowest set bit of @mask != 0. rv32imac has no ctz
 * instruction and the image links no libgcc (__ctzsi2): a few shifts.
 */
static inline dla_u32 dla_ffs(dla_u32 mask)
{
#if defined(__riscv) && !defined(__riscv_zbb)
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
#else
	return (dla_u32)__builtin_ctz(mask);
#endif
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

static inline int dla_engine_ok(const struct dla_engine *e)
{
	return e && e->magic == DLA_ENGINE_MAGIC;
}

static inline int dla_task_ok(const struct dla_task *t)
{
	return t && t->magic == DLA_TASK_READY;
}

/* dla_task.c */
dla_s32 dla_op_fail(dla_u32 kind, dla_u32 index, const char *field,
		    dla_s32 err);

/* dla_graph.c */
dla_s32 dla_graph_check(struct dla_task *t);
void dla_graph_reset(struct dla_task *t);

/* dla_engine.c */
dla_s32 dla_op_build(struct dla_prep *p, dla_u32 kind, dla_u32 index,
		     const union dla_op_rec *rec, dla_u64 *desc);
void dla_engine_start(struct dla_engine *e, dla_u32 eng, const dla_u64 *w,
		      dla_u32 pairs, dla_u32 ctx, dla_u64 at);
dla_u64 dla_read_cycles(struct dla_engine *e);

/* dla_plan.c */
dla_s32 dla_plan_prepare(struct dla_prep *p, const struct dla_task_desc *d,
			 struct dla_plan_rt *pl, void *copy, dla_u64 *desc);
void dla_plan_start(struct dla_engine *e, struct dla_task *t, dla_u32 slot);
void dla_plan_complete(struct dla_engine *e, struct dla_task *t,
		       dla_u32 slot, dla_u32 op);

static inline dla_u32 dla_plan_seq(const struct dla_plan_rt *pl, dla_u32 op)
{
	return pl->head + ((op - pl->head) & (DLA_PLAN_WINDOW - 1));
}

/* dla_engine.c */
dla_s32 dla_addr_preload(struct dla_prep *p, dla_u32 kind, dla_u32 index,
			 const char *field, dla_u32 entry);

/* dla_sched.c */
void dla_sched_start_task(struct dla_engine *e, dla_u32 slot);
void dla_sched_dispatch(struct dla_engine *e);
void dla_sched_complete(struct dla_engine *e, dla_u32 slot, dla_u32 op,
			dla_u32 cycles, dla_u64 end);
void dla_sched_fail(struct dla_engine *e, dla_u32 slot, dla_s32 err,
		    dla_u32 kind, dla_u32 index);
void dla_sched_release_engine(struct dla_engine *e, dla_u32 eng);
void dla_sched_drained(struct dla_engine *e, dla_u32 slot);

/* A plan's op is named by its expansion sequence number. */
static inline dla_u32 dla_op_kind_index(const struct dla_task *t, dla_u32 op)
{
	if (t->plan)
		return dla_plan_seq(t->plan, op);
	return op - t->base[t->ops[op].kind];
}

/* Queue ready op @op of @t (in @slot) on its kind's FIFO. */
static inline void dla_enqueue(struct dla_engine *e, struct dla_task *t,
			       dla_u32 slot, dla_u32 op)
{
	dla_u32 k = t->ops[op].kind, p = t->priority;

	t->ops[op].next = DLA_NIL;
	if (t->rq_tail[k] == DLA_NIL)
		t->rq_head[k] = op;
	else
		t->ops[t->rq_tail[k]].next = op;
	t->rq_tail[k] = op;
	e->ready[k][p] |= 1u << slot;
	e->qmask[k] |= 1u << p;
}

#endif /* DLA_PRIV_H */
