// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Events: the top half latches and acks interrupt status (hard-IRQ safe:
 * register reads and writes only), the bottom half turns the latched bits
 * into op completions and failures and starts the ops that became ready.
 * Also the abort path (dla_clear_task) and the missing-IRQ poll.
 */
#include "dla_priv.h"

dla_s32 dla_isr_handler(struct dla_engine *e)
{
	void *drv;
	dla_u32 st;

	if (!dla_engine_ok(e))
		return 0;
	drv = e->driver_context;
	st = dla_reg_read(drv, VPUX_REG_IRQ_STATUS) & VPUX_IRQ_ALL;
	if (!st)
		return 0;
	if (st & VPUX_IRQ_MMU_FAULT) {
		dla_u32 fs = dla_reg_read(drv, VPUX_REG_FAULT_STATUS);

		if (fs & VPUX_FAULT_VALID) {
			e->fault_status = fs;
			e->fault_addr =
				dla_reg_read(drv, VPUX_REG_FAULT_ADDR_LO) |
				(dla_u64)dla_reg_read(drv,
						      VPUX_REG_FAULT_ADDR_HI) << 32;
			dla_reg_write(drv, VPUX_REG_FAULT_STATUS,
				      VPUX_FAULT_VALID);
		}
	}
	dla_reg_write(drv, VPUX_REG_IRQ_CLEAR, st);
	e->irq_pending |= st;
	return 1;
}

static void dla_handle_fault(struct dla_engine *e, dla_u32 fs,
			     dla_u64 addr)
{
	dla_u32 eng = (fs & VPUX_FAULT_ENGINE_MASK) >> VPUX_FAULT_ENGINE_SHIFT;
	dla_u32 link, slot, op;
	struct dla_task *t;

	if (eng >= e->n_engines || e->owner[eng] == DLA_NIL) {
		dla_warn("dla: mmu fault at 0x%llx from idle engine %u\n",
			 (unsigned long long)addr, eng);
		return;
	}
	link = e->owner[eng];
	slot = DLA_LINK_SLOT(link);
	op = DLA_LINK_OP(link);
	t = e->task[slot];
	if (t->state != DLA_TASK_RUNNING)
		return;
	t->fault_status = fs;
	t->fault_addr = addr;
	dla_error("dla: task %u: %s op %u: mmu fault at 0x%llx status 0x%x\n",
		  slot, dla_kind_name[t->ops[op].kind],
		  dla_op_kind_index(t, op), (unsigned long long)addr, fs);
	dla_sched_fail(e, slot, -DLA_ERR_MMU_FAULT, t->ops[op].kind,
		       dla_op_kind_index(t, op));
}

/* a SHAVE ELF kernel trapped: name kernel, invocation, PC and cause */
static __attribute__((__cold__, __noinline__))
void dla_shave_trap_report(struct dla_engine *e, dla_u32 slot, dla_u32 index,
			   dla_u32 eng)
{
	dla_u32 base = VPUX_REG_ENGINE(eng);
	void *d = e->driver_context;
	dla_u32 cause = dla_reg_read(d, base + VPUX_ENG_TRAP_CAUSE);

	dla_error("dla: task %u: shave op %u: kernel %u invocation %u: trap %u (%s) at pc 0x%08x, tval 0x%08x (engine %u)\n",
		  slot, index, dla_reg_read(d, base + VPUX_ENG_TRAP_KERNEL),
		  dla_reg_read(d, base + VPUX_ENG_TRAP_INVOCATION), cause,
		  vpux_shave_trap_name(cause),
		  dla_reg_read(d, base + VPUX_ENG_TRAP_PC),
		  dla_reg_read(d, base + VPUX_ENG_TRAP_TVAL), eng);
}

static void dla_handle_engine(struct dla_engine *e, dla_u32 eng)
{
	dla_u32 base = VPUX_REG_ENGINE(eng), link = e->owner[eng];
	dla_u32 st, state, slot, op, kind, index;
	struct dla_task *t;

	if (link == DLA_NIL)
		return;		/* stale: op already aborted */
	st = dla_reg_read(e->driver_context, base + VPUX_ENG_STATUS);
	state = st & VPUX_ENG_STATE_MASK;
	if (state != VPUX_ENG_STATE_DONE && state != VPUX_ENG_STATE_ERROR)
		return;		/* spurious: still running */
	slot = DLA_LINK_SLOT(link);
	op = DLA_LINK_OP(link);
	t = e->task[slot];
	kind = t->ops[op].kind;
	/* the engine is free (dla_sched_release_engine(), inline) */
	e->owner[eng] = DLA_NIL;
	e->idle[kind] |= 1u << eng;
	t->n_running--;
	if (state == VPUX_ENG_STATE_DONE) {
		dla_u64 end = 0;

		if (e->start_at)
			end = dla_reg_read(e->driver_context,
					   base + VPUX_ENG_END_LO) |
			      (dla_u64)dla_reg_read(e->driver_context,
						    base + VPUX_ENG_END_HI) << 32;
		e->eng_end[eng] = end;
		dla_sched_complete(e, slot, op,
				   dla_reg_read(e->driver_context,
						base + VPUX_ENG_OP_CYCLES), end);
		return;
	}
	index = dla_op_kind_index(t, op);
	if (t->state == DLA_TASK_RUNNING) {
		dla_u32 code = (st >> VPUX_ENG_ERROR_SHIFT) & 0xffu;

		t->eng_status = st;
		/* the device-wide fault record held another engine's fault */
		if (code == VPUX_ENG_ERR_MMU && !t->fault_addr)
			t->fault_addr =
				dla_reg_read(e->driver_context,
					     base + VPUX_ENG_FAULT_ADDR_LO) |
				(dla_u64)dla_reg_read(e->driver_context,
						      base + VPUX_ENG_FAULT_ADDR_HI) << 32;
		if (code == VPUX_ENG_ERR_TRAP)
			dla_shave_trap_report(e, slot, index, eng);
		else
			dla_error("dla: task %u: %s op %u: engine %u error %u\n",
				  slot, dla_kind_name[kind], index, eng, code);
		dla_sched_fail(e, slot, code == VPUX_ENG_ERR_MMU ?
			       -DLA_ERR_MMU_FAULT : -DLA_ERR_ENGINE,
			       kind, index);
	} else {
		dla_sched_drained(e, slot);
	}
}

void dla_take_events(struct dla_engine *e)
{
	if (!dla_engine_ok(e))
		return;
	e->bh_pending |= e->irq_pending;
	e->irq_pending = 0;
	if (e->fault_status & VPUX_FAULT_VALID) {
		/* one fault at a time: the MMU holds the next until acked */
		e->bh_fault_status = e->fault_status;
		e->bh_fault_addr = e->fault_addr;
	}
	e->fault_status = 0;
}

dla_s32 dla_handle_events(struct dla_engine *e, dla_u32 *task_complete)
{
	dla_u32 pend, fs;

	if (task_complete)
		*task_complete = 0;
	if (!dla_engine_ok(e))
		return -DLA_ERR_INVAL;
	pend = e->bh_pending;
	e->bh_pending = 0;
	fs = e->bh_fault_status;
	e->bh_fault_status = 0;
	if (fs & VPUX_FAULT_VALID)
		dla_handle_fault(e, fs, e->bh_fault_addr);
	pend &= VPUX_IRQ_ENGINE_MASK;
	while (pend) {
		dla_u32 eng = dla_ffs(pend);

		pend &= ~(1u << eng);
		if (eng < e->n_engines)
			dla_handle_engine(e, eng);
	}
	dla_sched_dispatch(e);
	if (task_complete)
		*task_complete = e->complete_mask;
	e->complete_mask = 0;
	return 0;
}

dla_s32 dla_process_events(struct dla_engine *e, dla_u32 *task_complete)
{
	dla_take_events(e);
	return dla_handle_events(e, task_complete);
}

dla_s32 dla_poll_engines(struct dla_engine *e)
{
	dla_u32 eng;
	dla_s32 n = 0;

	if (!dla_engine_ok(e))
		return -DLA_ERR_INVAL;
	for (eng = 0; eng < e->n_engines; eng++) {
		dla_u32 st;

		if (e->owner[eng] == DLA_NIL)
			continue;
		st = dla_reg_read(e->driver_context,
				  VPUX_REG_ENGINE(eng) + VPUX_ENG_STATUS) &
		     VPUX_ENG_STATE_MASK;
		if (st == VPUX_ENG_STATE_DONE || st == VPUX_ENG_STATE_ERROR) {
			e->irq_pending |= VPUX_IRQ_ENGINE(eng);
			n++;
		}
	}
	return n;
}

dla_s32 dla_clear_task(struct dla_engine *e, dla_u32 task_id)
{
	struct dla_task *t;
	dla_u32 eng, mask = 0;

	if (!dla_engine_ok(e) || task_id >= DLA_MAX_TASKS || !e->task[task_id])
		return -DLA_ERR_NOENT;
	t = e->task[task_id];
	if (t->state == DLA_TASK_RUNNING)
		dla_sched_fail(e, task_id, -DLA_ERR_ABORTED, DLA_OP_KINDS, 0);
	/* engines that did not stop on ABORT (hung): reset them */
	for (eng = 0; eng < e->n_engines; eng++)
		if (e->owner[eng] != DLA_NIL &&
		    DLA_LINK_SLOT(e->owner[eng]) == task_id)
			mask |= 1u << eng;
	if (mask) {
		dla_warn("dla: task %u: resetting engines 0x%x\n", task_id,
			 mask);
		dla_reg_write(e->driver_context, VPUX_REG_ENGINE_RESET, mask);
		e->shadow_valid &= ~mask;
		while (mask) {
			eng = dla_ffs(mask);
			mask &= ~(1u << eng);
			dla_sched_release_engine(e, eng);
		}
	}
	/* its result stays in its memory: DONE or FAILED from here on */
	dla_sched_drained(e, task_id);
	e->task[task_id] = NULL;
	t->slot = -1;
	e->complete_mask &= ~(1u << task_id);
	dla_sched_dispatch(e);
	return 0;
}
