// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Scheduling: ready queues per engine kind per priority (FIFO, so equal
 * priorities go by the age of readiness), pending-wait counters per op and
 * consumer lists per barrier. Completing an op costs O(its update edges +
 * the consumer edges of barriers that reach zero); starting one costs O(1)
 * plus its descriptor. Nothing scans all ops or all barriers.
 */
#include "dla_priv.h"

static struct dla_op_rt *dla_link_op(struct dla_engine *e, dla_u32 link)
{
	return &e->tasks[DLA_LINK_SLOT(link)].ops[DLA_LINK_OP(link)];
}

void dla_sched_enqueue(struct dla_engine *e, dla_u32 slot, dla_u32 op)
{
	struct dla_task *t = &e->tasks[slot];
	dla_u32 k = t->ops[op].kind, p = t->priority;
	dla_u32 link = DLA_LINK(slot, op);

	t->ops[op].next = DLA_NIL;
	t->ops[op].state = DLA_OP_QUEUED;
	if (e->qtail[k][p] == DLA_NIL)
		e->qhead[k][p] = link;
	else
		dla_link_op(e, e->qtail[k][p])->next = link;
	e->qtail[k][p] = link;
	e->qmask[k] |= 1u << p;
}

static dla_u32 dla_dequeue(struct dla_engine *e, dla_u32 k)
{
	dla_u32 m = e->qmask[k], p = DLA_PRIO_LEVELS - 1, link;

	while (!(m & (1u << p)))
		p--;
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
	dla_u32 k, p = e->tasks[slot].priority;

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

static dla_u32 dla_engine_kind(struct dla_engine *e, dla_u32 eng)
{
	dla_u32 k;

	for (k = DLA_OP_KINDS - 1; k > 0; k--)
		if (eng >= e->first[k])
			break;
	return k;
}

void dla_sched_release_engine(struct dla_engine *e, dla_u32 eng)
{
	dla_u32 link = e->owner[eng];

	if (link == DLA_NIL)
		return;
	e->owner[eng] = DLA_NIL;
	e->idle[dla_engine_kind(e, eng)] |= 1u << eng;
	e->tasks[DLA_LINK_SLOT(link)].n_running--;
}

static void dla_task_finish(struct dla_engine *e, dla_u32 slot,
			    dla_u32 state)
{
	struct dla_task *t = &e->tasks[slot];

	t->state = state;
	t->device_cycles = dla_read_cycles(e) - t->start_cycles;
	t->time_us = dla_get_time_us() - t->start_us;
	e->complete_mask |= 1u << slot;
}

void dla_sched_drained(struct dla_engine *e, dla_u32 slot)
{
	struct dla_task *t = &e->tasks[slot];

	if (t->state == DLA_TASK_FAILING && !t->n_running)
		dla_task_finish(e, slot, DLA_TASK_FAILED);
}

void dla_sched_fail(struct dla_engine *e, dla_u32 slot, dla_s32 err,
		    dla_u32 kind, dla_u32 index)
{
	struct dla_task *t = &e->tasks[slot];
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
	struct dla_task *t = &e->tasks[slot];
	dla_u32 k, end;

	t->ops[op].state = DLA_OP_COMPLETE;
	t->ops[op].cycles = cycles;
	t->op_cycles += cycles;
	t->n_done++;
	if (t->state != DLA_TASK_RUNNING) {
		dla_sched_drained(e, slot);
		return;
	}
	end = t->upd_start[op + 1];
	for (k = t->upd_start[op]; k < end; k++) {
		dla_u32 b = t->upd[k], j, cend;

		if (--t->bar_count[b])
			continue;
		cend = t->cons_start[b + 1];
		for (j = t->cons_start[b]; j < cend; j++) {
			dla_u32 c = t->cons[j];

			if (!--t->ops[c].pending)
				dla_sched_enqueue(e, slot, c);
		}
	}
	if (t->n_done == t->n_ops)
		dla_task_finish(e, slot, DLA_TASK_DONE);
}

void dla_sched_dispatch(struct dla_engine *e)
{
	union dla_op_rec rec;
	union dla_hw_desc hw;
	dla_u32 k;

	for (k = 0; k < DLA_OP_KINDS; k++) {
		while (e->idle[k] && e->qmask[k]) {
			dla_u32 link = dla_dequeue(e, k);
			dla_u32 slot = DLA_LINK_SLOT(link), op = DLA_LINK_OP(link);
			struct dla_task *t = &e->tasks[slot];
			dla_u32 index = op - t->base[k], eng, words;
			dla_s32 ret;

			ret = dla_op_read(e, t, slot, k, index, &rec);
			if (!ret)
				ret = dla_op_build(e, t, slot, k, index, &rec,
						   &hw, &words);
			if (ret) {
				dla_sched_fail(e, slot, ret == -DLA_ERR_PORT ?
					       ret : -DLA_ERR_CHANGED, k,
					       index);
				continue;
			}
			eng = dla_ffs(e->idle[k]);
			e->idle[k] &= ~(1u << eng);
			e->owner[eng] = link;
			t->ops[op].state = DLA_OP_RUNNING;
			t->n_running++;
			dla_engine_start(e, eng, &hw, words, t->mmu_ctx);
		}
	}
}

void dla_sched_start_task(struct dla_engine *e, dla_u32 slot)
{
	struct dla_task *t = &e->tasks[slot];
	dla_u32 op;

	t->state = DLA_TASK_RUNNING;
	t->start_cycles = dla_read_cycles(e);
	t->start_us = dla_get_time_us();
	for (op = 0; op < t->n_ops; op++)
		if (!t->ops[op].pending)
			dla_sched_enqueue(e, slot, op);
	dla_sched_dispatch(e);
}
