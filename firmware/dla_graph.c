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
