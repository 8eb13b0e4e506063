// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Acyclicity of a task's wait graph: Kahn's algorithm over ops and
 * barriers, O(ops + edges). It runs the very counters the scheduler will
 * use (a dry run of the task with every op completing at once), so a task
 * that passes can always run to completion; dla_graph_reset() rewinds the
 * counters afterwards.
 */
#include "dla_priv.h"

dla_s32 dla_graph_check(struct dla_task *t, dla_u32 slot)
{
	dla_u32 head = DLA_NIL, tail = DLA_NIL, visited = 0, op;

	for (op = 0; op < t->n_ops; op++) {
		if (t->ops[op].pending)
			continue;
		t->ops[op].next = DLA_NIL;
		if (tail == DLA_NIL)
			head = op;
		else
			t->ops[tail].next = op;
		tail = op;
	}
	while (head != DLA_NIL) {
		dla_u32 k, end;

		op = head;
		head = t->ops[op].next;
		if (head == DLA_NIL)
			tail = DLA_NIL;
		visited++;
		end = t->upd_start[op + 1];
		for (k = t->upd_start[op]; k < end; k++) {
			dla_u32 b = t->upd[k], j, cend;

			if (--t->bar_count[b])
				continue;
			cend = t->cons_start[b + 1];
			for (j = t->cons_start[b]; j < cend; j++) {
				dla_u32 c = t->cons[j];

				if (--t->ops[c].pending)
					continue;
				t->ops[c].next = DLA_NIL;
				if (tail == DLA_NIL)
					head = c;
				else
					t->ops[tail].next = c;
				tail = c;
			}
		}
	}
	if (visited == t->n_ops)
		return 0;
	for (op = 0; op < t->n_ops; op++)
		if (t->ops[op].pending)
			break;
	return dla_op_fail(t, slot, t->ops[op].kind, dla_op_kind_index(t, op),
			   "waits", -DLA_ERR_CYCLE);
}

void dla_graph_reset(struct dla_task *t)
{
	dla_u32 i;

	for (i = 0; i < t->n_barriers; i++)
		t->bar_count[i] = t->bar_init[i];
	for (i = 0; i < t->n_ops; i++) {
		t->ops[i].pending = t->ops[i].init_pending;
		t->ops[i].next = DLA_NIL;
	}
}
