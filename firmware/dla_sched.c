// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Scheduling: each task queues its ready ops per engine kind (FIFO, so a
 * task's ops go by the age of their readiness), pending-wait counters per
 * op and consumer lists per barrier. An idle engine goes to the highest
 * priority with a ready op of its kind and, among the tasks of that
 * priority, to the task of the MMU context (file) served least recently,
 * then to the task served least recently: files share the engines op by
 * op, however many ops (or tasks) one of them has ready. Completing an op
 * costs O(its update edges + the consumer edges of barriers that reach
 * zero); starting one O(tasks of its priority) plus writing its prebuilt
 * descriptor. Nothing scans all ops or all barriers, nothing reads task
 * memory.
 */
#include "dla_priv.h"

/* Highest set bit of a mask of priorities (< 2^DLA_PRIO_LEVELS), != 0 */
static const dla_u8 dla_top_prio[16] = {
	0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
};

DLA_STATIC_ASSERT(DLA_PRIO_LEVELS == 4, "dla_top_prio covers 4 levels");

/* Of the tasks in @m (!= 0), the one whose turn it is (see the top) */
static dla_u32 dla_pick_task(const struct dla_engine *e, dla_u32 m)
{
	dla_u32 best = dla_ffs(m), best_ctx, best_slot, slot;

	m &= m - 1;
	if (!m)
		return best;
	/* ages since the last service: larger is longer ago (wraps) */
	best_ctx = e->serve_seq - e->ctx_served[e->task[best]->mmu_ctx];
	best_slot = e->serve_seq - e->slot_served[best];
	while (m) {
		dla_u32 ctx_age, slot_age;

		slot = dla_ffs(m);
		m &= m - 1;
		ctx_age = e->serve_seq - e->ctx_served[e->task[slot]->mmu_ctx];
		slot_age = e->serve_seq - e->slot_served[slot];
		if (ctx_age > best_ctx ||
		    (ctx_age == best_ctx && slot_age > best_slot)) {
			best = slot;
			best_ctx = ctx_age;
			best_slot = slot_age;
		}
	}
	return best;
}

static dla_u32 dla_dequeue(struct dla_engine *e, dla_u32 k)
{
	dla_u32 p = dla_top_prio[e->qmask[k]];
	dla_u32 slot = dla_pick_task(e, e->ready[k][p]);
	struct dla_task *t = e->task[slot];
	dla_u32 op = t->rq_head[k];

	t->rq_head[k] = t->ops[op].next;
	if (t->rq_head[k] == DLA_NIL) {
		t->rq_tail[k] = DLA_NIL;
		e->ready[k][p] &= ~(1u << slot);
		if (!e->ready[k][p])
			e->qmask[k] &= ~(1u << p);
	}
	e->serve_seq++;
	e->slot_served[slot] = e->serve_seq;
	e->ctx_served[t->mmu_ctx] = e->serve_seq;
	return DLA_LINK(slot, op);
}

/* Drop every queued op of @slot (error path). */
static void dla_purge(struct dla_engine *e, dla_u32 slot)
{
	struct dla_task *t = e->task[slot];
	dla_u32 k, p = t->priority;

	for (k = 0; k < DLA_OP_KINDS; k++) {
		t->rq_head[k] = DLA_NIL;
		t->rq_tail[k] = DLA_NIL;
		e->ready[k][p] &= ~(1u << slot);
		if (!e->ready[k][p])
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
	/* dated ops: the task's own span, whatever ran beside it */
	if (e->start_at && state == DLA_TASK_DONE)
		t->device_cycles = t->ready_at - t->start_cycles;
	else
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
			dla_u32 cycles, dla_u64 end)
{
	struct dla_task *t = e->task[slot];
	struct dla_op_rt *ops = t->ops;
	const dla_u16 *u, *uend;

	if (end > t->ready_at)
		t->ready_at = end;
	ops[op].cycles = cycles;
	t->op_cycles += cycles;
	t->n_done++;
	if (t->state != DLA_TASK_RUNNING) {
		dla_sched_drained(e, slot);
		return;
	}
	if (t->plan) {
		dla_plan_complete(e, t, slot, op);
		if (t->n_done == t->n_total && t->state == DLA_TASK_RUNNING)
			dla_sched_finish(e, t, DLA_TASK_DONE);
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
	if (t->n_done == t->n_total)
		dla_sched_finish(e, t, DLA_TASK_DONE);
}

/*
 * Of the idle engines in @m (!= 0), the one to start an op ready at cycle
 * @at on: the lowest numbered; where ops are dated, the lowest numbered
 * whose last op ended by @at on the cycle clock, else the one whose last
 * op ended first (the others are busy there with ops the host saw
 * complete early: hw-model.rst, "Virtual time").
 */
static dla_u32 dla_pick_engine(const struct dla_engine *e, dla_u32 m,
			       dla_u64 at)
{
	dla_u32 best = dla_ffs(m), g;

	if (!e->start_at)
		return best;
	for (; m; m &= m - 1) {
		g = dla_ffs(m);
		if (e->eng_end[g] <= at)
			return g;
		if (e->eng_end[g] < e->eng_end[best])
			best = g;
	}
	return best;
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
			dla_u32 eng = dla_pick_engine(e, e->idle[k],
						      t->ready_at);

			e->idle[k] &= ~(1u << eng);
			e->owner[eng] = link;
			e->owner_seq[eng] = ++e->start_seq;
			t->n_running++;
			dla_engine_start(e, eng, t->desc[k] +
					 (op - t->base[k]) * t->dstride[k],
					 t->pairs[k], t->mmu_ctx, t->ready_at);
		}
	}
}

void dla_sched_start_task(struct dla_engine *e, dla_u32 slot)
{
	struct dla_task *t = e->task[slot];
	dla_u32 op, k;

	t->state = DLA_TASK_RUNNING;
	t->start_cycles = dla_read_cycles(e);
	t->ready_at = t->start_cycles;
	t->start_us = dla_get_time_us();
	for (k = 0; k < DLA_OP_KINDS; k++) {
		t->rq_head[k] = DLA_NIL;
		t->rq_tail[k] = DLA_NIL;
	}
	/* a new task has waited longest: its first ready op goes next */
	e->slot_served[slot] = e->serve_seq - 0x80000000u;
	if (t->plan) {
		dla_plan_start(e, t, slot);
		dla_sched_dispatch(e);
		return;
	}
	for (op = 0; op < t->n_ops; op++)
		if (!t->ops[op].pending)
			dla_enqueue(e, t, slot, op);
	dla_sched_dispatch(e);
}
