// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Scheduling: ready queues per engine kind per priority (FIFO, so equal
 * priorities go by the age of readiness), pending-wait counters per op and
 * consumer lists per barrier. Completing an op costs O(its update edges +
 * the consumer edges of barriers that reach zero); starting one costs O(1)
 * plus writing its prebuilt descriptor. Nothing scans all ops or all
 * barriers, nothing reads task memory.
 */
#include "dla_priv.h"

static struct dla_op_rt *dla_link_op(struct dla_engine *e, dla_u32 link)
{
	return &e->task[DLA_LINK_SLOT(link)]->ops[DLA_LINK_OP(link)];
}

static inline void dla_enqueue(struct dla_engine *e, struct dla_task *t,
			       dla_u32 slot, dla_u32 op)
{
	dla_u32 k = t->ops[op].kind, p = t->priority;
	dla_u32 link = DLA_LINK(slot, op);

	t->ops[op].next = DLA_NIL;
	if (e->qtail[k][p] == DLA_NIL)
		e->qhead[k][p] = link;
	else
		dla_link_op(e, e->qtail[k][p])->next = link;
	e->qtail[k][p] = link;
	e->qmask[k] |= 1u << p;
}

/* Highest set bit of a mask of priorities (< 2^DLA_PRIO_LEVELS), != 0 */
static const dla_u8 dla_top_prio[16] = {
	0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
};

DLA_STATIC_ASSERT(DLA_PRIO_LEVELS == 4, "dla_top_prio covers 4 levels");

static dla_u32 dla_dequeue(struct dla_engine *e, dla_u32 k)
{
	dla_u32 p = dla_top_prio[e->qmask[k]], link;

	link = e->qhead[k][p];
	e->qhead[k][p] = dla_link_op(e, link)->next;
	if (e->qhead[k][p] == DLA_NIL) {
		e->qtail[k][p] = DLA_NIL;
		e->qmask[k] &= ~(1u << p);
	}
	return link;
}

/* Drop every queued op of @slot (error path: walks the queues once). */
static void dla_purge(struct dla_engine *e, dla_u32 slot)
{
	dla_u32 k, p = e->task[slot]->priority;

	for (k = 0; k < DLA_OP_KINDS; k++) {
		dla_u32 prev = DLA_NIL, cur = e->qhead[k][p];

		while (cur != DLA_NIL) {
			dla_u32 next = dla_link_op(e, cur)->next;

			if (DLA_LINK_SLOT(cur) == slot) {
				if (prev == DLA_NIL)
					e->qhead[k][p] = next;
				else
					dla_link_op(e, prev)->next = next;
				if (e->qtail[k][p] == cur)
					e->qtail[k][p] = prev;
			} else {
				prev = cur;
			}
			cur = next;
		}
		if (e->qhead[k][p] == DLA_NIL)
			e->qmask[k] &= ~(1u << p);
	}
}

void dla_sched_release_engine(struct dla_engine *e, dla_u32 eng)
{
	dla_u32 link = e->owner[eng];

	if (link == DLA_NIL)
		return;
	e->owner[eng] = DLA_NIL;
	e->idle[e->eng_kind[eng]] |= 1u << eng;
	e->task[DLA_LINK_SLOT(link)]->n_running--;
}

/* @t is DONE or FAILED: its times, and its bit for dla_process_events */
static void dla_sched_finish(struct dla_engine *e, struct dla_task *t,
			     dla_u32 state)
{
	t->state = state;
	t->device_cycles = dla_read_cycles(e) - t->start_cycles;
	t->time_us = dla_get_time_us() - t->start_us;
	e->complete_mask |= 1u << t->slot;
}

void dla_sched_drained(struct dla_engine *e, dla_u32 slot)
{
	struct dla_task *t = e->task[slot];

	if (t->state == DLA_TASK_FAILING && !t->n_running)
		dla_sched_finish(e, t, DLA_TASK_FAILED);
}

void dla_sched_fail(struct dla_engine *e, dla_u32 slot, dla_s32 err,
		    dla_u32 kind, dla_u32 index)
{
	struct dla_task *t = e->task[slot];
	dla_u32 eng;

	if (t->state != DLA_TASK_RUNNING)
		return;		/* the first error wins */
	t->state = DLA_TASK_FAILING;
	t->error = err;
	t->fail_kind = kind;
	t->fail_index = index;
	dla_purge(e, slot);
	/* stop the task's other ops; engines that stop at once are free */
	for (eng = 0; eng < e->n_engines; eng++) {
		dla_u32 base = VPUX_REG_ENGINE(eng), st;

		if (e->owner[eng] == DLA_NIL ||
		    DLA_LINK_SLOT(e->owner[eng]) != slot)
			continue;
		dla_reg_write(e->driver_context, base + VPUX_ENG_CMD,
			      VPUX_ENG_CMD_ABORT);
		st = dla_reg_read(e->driver_context, base + VPUX_ENG_STATUS);
		if ((st & VPUX_ENG_STATE_MASK) != VPUX_ENG_STATE_BUSY)
			dla_sched_release_engine(e, eng);
	}
	dla_sched_drained(e, slot);
}

void dla_sched_complete(struct dla_engine *e, dla_u32 slot, dla_u32 op,
			dla_u32 cycles)
{
	struct dla_task *t = e->task[slot];
	struct dla_op_rt *ops = t->ops;
	const dla_u16 *u, *uend;

	ops[op].cycles = cycles;
	t->op_cycles += cycles;
	t->n_done++;
	if (t->state != DLA_TASK_RUNNING) {
		dla_sched_drained(e, slot);
		return;
	}
	u = &t->upd[ops[op].upd];
	uend = u + ops[op].n_upd;
	for (; u < uend; u++) {
		struct dla_bar_rt *b = &t->bar[*u];
		dla_u32 j;

		if (--b->count)
			continue;
		for (j = b->cons; j < b[1].cons; j++) {
			dla_u32 c = t->cons[j];

			if (!--ops[c].pending)
				dla_enqueue(e, t, slot, c);
		}
	}
	if (t->n_done == t->n_ops)
		dla_sched_finish(e, t, DLA_TASK_DONE);
}

/*
 * Program idle engines with the heads of their kinds' queues. The
 * descriptors were built and checked by dla_task_prepare(); nothing here
 * can fail.
 */
void dla_sched_dispatch(struct dla_engine *e)
{
	dla_u32 k;

	for (k = 0; k < DLA_OP_KINDS; k++) {
		while (e->idle[k] && e->qmask[k]) {
			dla_u32 link = dla_dequeue(e, k);
			dla_u32 slot = DLA_LINK_SLOT(link), op = DLA_LINK_OP(link);
			struct dla_task *t = e->task[slot];
			dla_u32 eng = dla_ffs(e->idle[k]), pairs = t->pairs[k];

			e->idle[k] &= ~(1u << eng);
			e->owner[eng] = link;
			e->owner_seq[eng] = ++e->start_seq;
			t->n_running++;
			dla_engine_start(e, eng,
					 t->desc[k] + (op - t->base[k]) * pairs,
					 pairs, t->mmu_ctx);
		}
	}
}

void dla_sched_start_task(struct dla_engine *e, dla_u32 slot)
{
	struct dla_task *t = e->task[slot];
	dla_u32 op;

	t->state = DLA_TASK_RUNNING;
	t->start_cycles = dla_read_cycles(e);
	t->start_us = dla_get_time_us();
	for (op = 0; op < t->n_ops; op++)
		if (!t->ops[op].pending)
			dla_enqueue(e, t, slot, op);
	dla_sched_dispatch(e);
}
