// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Acyclicity of a task's wait graph: Kahn's algorithm over ops and
 * barriers, O(ops + edges). It runs the very counters the scheduler will
 * use (a dry run of the task with every op completing at once), so a task
 * that passes can always run to completion; dla_graph_reset() rewinds the
 * counters afterwards, and again before a task that ran is started again.
 */
#include "dla_priv.h"

dla_s32 dla_graph_check(struct dla_task *t)
{
	struct dla_op_rt *ops = t->ops;
	dla_u32 head = DLA_NIL, tail = DLA_NIL, visited = 0, op;

	for (op = 0; op < t->n_ops; op++) {
		if (ops[op].pending)
			continue;
		ops[op].next = DLA_NIL;
		if (tail == DLA_NIL)
			head = op;
		else
			ops[tail].next = op;
		tail = op;
	}
	while (head != DLA_NIL) {
		const dla_u16 *u, *uend;

		op = head;
		head = ops[op].next;
		if (head == DLA_NIL)
			tail = DLA_NIL;
		visited++;
		u = &t->upd[ops[op].upd];
		uend = u + ops[op].n_upd;
		for (; u < uend; u++) {
			struct dla_bar_rt *b = &t->bar[*u];
			dla_u32 j;

			if (--b->count)
				continue;
			for (j = b->cons; j < b[1].cons; j++) {
				dla_u32 c = t->cons[j];

				if (--ops[c].pending)
					continue;
				ops[c].next = DLA_NIL;
				if (tail == DLA_NIL)
					head = c;
				else
					ops[tail].next = c;
				tail = c;
			}
		}
	}
	if (visited == t->n_ops)
		return 0;
	for (op = 0; op < t->n_ops; op++)
		if (ops[op].pending)
			break;
	return dla_op_fail(ops[op].kind, dla_op_kind_index(t, op), "waits",
			   -DLA_ERR_CYCLE);
}

/* Every counter back to its initial value, every op waiting, no cycles. */
void dla_graph_reset(struct dla_task *t)
{
	dla_u32 i;

	for (i = 0; i < t->n_barriers; i++)
		t->bar[i].count = t->bar[i].init;
	for (i = 0; i < t->n_ops; i++) {
		t->ops[i].pending = t->ops[i].init_pending;
		t->ops[i].next = DLA_NIL;
		t->ops[i].cycles = 0;
	}
}

/* A kind's FIFO of ready ops in the schedule dla_task_op_times() rebuilds */
static void dla_times_push(struct dla_op_rt *ops, dla_u32 *head, dla_u32 *tail,
			   dla_u32 op)
{
	ops[op].next = DLA_NIL;
	if (*tail == DLA_NIL)
		*head = op;
	else
		ops[*tail].next = op;
	*tail = op;
}

/*
 * The schedule of the task on the cycle clock (dla_interface.h): an event
 * loop in virtual time over the scheduler's counters, which the task does
 * not need once it stopped running.
 */
dla_s32 dla_task_op_times(struct dla_task *t, const dla_u32 *cycles,
			  dla_u32 n, struct dla_op_time *times)
{
	const struct dla_engine *e;
	struct dla_op_rt *ops;
	dla_u32 pos[DLA_OP_KINDS], head[DLA_OP_KINDS], tail[DLA_OP_KINDS];
	dla_u32 idle[DLA_OP_KINDS], run_op[DLA_MAX_ENGINES];
	dla_u32 run_seq[DLA_MAX_ENGINES];
	dla_u32 busy = 0, seq = 0, at = 0, k, i, op;
	dla_u64 now = 0;

	/* a plan keeps no per-op record (it would grow with the count) */
	if (!dla_task_ok(t) || !times || n != t->n_ops || t->plan)
		return -DLA_ERR_INVAL;
	if (t->slot >= 0 && (t->state == DLA_TASK_RUNNING ||
			     t->state == DLA_TASK_FAILING))
		return -DLA_ERR_RUNNING;
	e = t->engine;
	ops = t->ops;
	t->dirty = 1;
	for (i = 0; i < t->n_barriers; i++)
		t->bar[i].count = t->bar[i].init;
	for (k = 0; k < DLA_OP_KINDS; k++) {
		pos[k] = at;
		at += t->count[k];
		head[k] = DLA_NIL;
		tail[k] = DLA_NIL;
		idle[k] = 0;
		for (i = 0; i < e->n_kind[k]; i++)
			idle[k] |= 1u << (e->first[k] + i);
	}
	for (op = 0; op < t->n_ops; op++) {
		times[op].start = 0;
		times[op].end = 0;
		times[op].engine = DLA_OP_NOT_RUN;
		times[op].done = 0;
		ops[op].pending = ops[op].init_pending;
		if (!ops[op].pending)
			dla_times_push(ops, &head[ops[op].kind],
				       &tail[ops[op].kind], op);
	}
	for (;;) {
		dla_u32 best = DLA_NIL, g, p, m;
		const dla_u16 *u, *uend;

		/* every ready op that finds an idle engine starts now */
		for (k = 0; k < DLA_OP_KINDS; k++) {
			while (idle[k] && head[k] != DLA_NIL) {
				dla_u32 c;

				op = head[k];
				head[k] = ops[op].next;
				if (head[k] == DLA_NIL)
					tail[k] = DLA_NIL;
				g = dla_ffs(idle[k]);
				idle[k] &= ~(1u << g);
				p = pos[k] + (op - t->base[k]);
				c = cycles ? cycles[p] : ops[op].cycles;
				times[p].start = now;
				times[p].end = now + c;
				times[p].engine = g;
				if (!c)
					continue;	/* holds its engine */
				run_op[g] = op;
				run_seq[g] = ++seq;
				busy |= 1u << g;
			}
		}
		if (!busy)
			break;
		/* the earliest completion; at the same cycle, the first started */
		for (m = busy; m; m &= m - 1) {
			dla_u32 pb, pg;

			g = dla_ffs(m);
			if (best == DLA_NIL) {
				best = g;
				continue;
			}
			op = run_op[g];
			pg = pos[ops[op].kind] + (op - t->base[ops[op].kind]);
			op = run_op[best];
			pb = pos[ops[op].kind] + (op - t->base[ops[op].kind]);
			if (times[pg].end < times[pb].end ||
			    (times[pg].end == times[pb].end &&
			     run_seq[g] < run_seq[best]))
				best = g;
		}
		op = run_op[best];
		k = ops[op].kind;
		p = pos[k] + (op - t->base[k]);
		busy &= ~(1u << best);
		idle[k] |= 1u << best;
		now = times[p].end;
		times[p].done = 1;
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
					dla_times_push(ops, &head[ops[c].kind],
						       &tail[ops[c].kind], c);
			}
		}
	}
	return (dla_s32)t->n_ops;
}
