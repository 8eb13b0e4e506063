// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Engine core: device binding, task submission and the status queries.
 * The state of every device and task lives in the static array below.
 */
#include "dla_priv.h"

static struct dla_engine dla_engines[DLA_MAX_DEVICES];

static dla_s32 dla_discover(struct dla_engine *e)
{
	void *drv = e->driver_context;
	dla_u32 n, k, g = 0;

	if (dla_reg_read(drv, VPUX_REG_ID) != VPUX_ID_MAGIC ||
	    (dla_reg_read(drv, VPUX_REG_REVISION) >> 16) != VPUX_HW_REV_MAJOR) {
		dla_error("dla: no vpux NPU behind this port\n");
		return -DLA_ERR_NODEV;
	}
	n = dla_reg_read(drv, VPUX_REG_ENGINES);
	for (k = 0; k < DLA_OP_KINDS; k++) {
		dla_u32 c = (n >> (8 * k)) & 0xffu;

		if (c == 0 || c > DLA_MAX_ENGINES - g) {
			dla_error("dla: bad engine count %u for %s\n", c,
				  dla_kind_name[k]);
			return -DLA_ERR_NODEV;
		}
		e->first[k] = g;
		e->n_kind[k] = c;
		e->idle[k] = ((1u << c) - 1u) << g;
		g += c;
	}
	e->n_engines = g;
	for (g = 0; g < DLA_MAX_ENGINES; g++)
		e->owner[g] = DLA_NIL;
	e->n_tiles = dla_reg_read(drv, VPUX_REG_TILES);
	e->cmx_size = dla_reg_read(drv, VPUX_REG_CMX_SIZE);
	e->cmx_base = dla_reg_read(drv, VPUX_REG_CMX_BASE_LO) |
		      (dla_u64)dla_reg_read(drv, VPUX_REG_CMX_BASE_HI) << 32;
	e->ctx_slots = dla_reg_read(drv, VPUX_REG_CTX_SLOTS);
	if (e->ctx_slots > VPUX_MAX_CTX_SLOTS)
		e->ctx_slots = VPUX_MAX_CTX_SLOTS;
	return 0;
}

dla_s32 dla_register_driver(void **engine_context, void *driver_context)
{
	struct dla_engine *e = NULL;
	dla_u32 i, k, p;
	dla_s32 ret;

	if (!engine_context)
		return -DLA_ERR_INVAL;
	for (i = 0; i < DLA_MAX_DEVICES; i++) {
		if (!dla_engines[i].in_use) {
			e = &dla_engines[i];
			break;
		}
	}
	if (!e)
		return -DLA_ERR_BUSY;
	dla_zero(e, sizeof(*e) - sizeof(e->tasks));
	for (i = 0; i < DLA_MAX_TASKS; i++)
		e->tasks[i].state = DLA_TASK_FREE;
	for (k = 0; k < DLA_OP_KINDS; k++)
		for (p = 0; p < DLA_PRIO_LEVELS; p++)
			e->qhead[k][p] = e->qtail[k][p] = DLA_NIL;
	e->driver_context = driver_context;
	ret = dla_discover(e);
	if (ret)
		return ret;
	e->in_use = 1;
	dla_reg_write(driver_context, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	dla_reg_write(driver_context, VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL);
	*engine_context = e;
	dla_info("dla: %u dma, %u dpu, %u shave engines, %u tiles\n",
		 e->n_kind[DLA_OP_DMA], e->n_kind[DLA_OP_DPU],
		 e->n_kind[DLA_OP_SHAVE], e->n_tiles);
	return 0;
}

void dla_unregister_driver(void *engine_context)
{
	struct dla_engine *e = engine_context;
	dla_u32 i, k, p;

	if (!e || !e->in_use)
		return;
	/* nothing may start while the tasks are torn down */
	for (k = 0; k < DLA_OP_KINDS; k++) {
		e->qmask[k] = 0;
		for (p = 0; p < DLA_PRIO_LEVELS; p++)
			e->qhead[k][p] = e->qtail[k][p] = DLA_NIL;
	}
	for (i = 0; i < DLA_MAX_TASKS; i++)
		if (e->tasks[i].state != DLA_TASK_FREE)
			dla_clear_task(e, i);
	dla_reg_write(e->driver_context, VPUX_REG_IRQ_MASK, 0);
	e->in_use = 0;
}

dla_s32 dla_execute_task(void *engine_context, void *task_data,
			 dla_u32 mmu_ctx, dla_u32 priority)
{
	struct dla_engine *e = engine_context;
	dla_u32 slot;
	dla_s32 ret;

	if (!e || !e->in_use)
		return -DLA_ERR_INVAL;
	if (mmu_ctx >= e->ctx_slots) {
		dla_error("dla: mmu context %u out of range\n", mmu_ctx);
		return -DLA_ERR_CTX;
	}
	if (priority >= DLA_PRIO_LEVELS) {
		dla_error("dla: priority %u out of range\n", priority);
		return -DLA_ERR_PRIORITY;
	}
	for (slot = 0; slot < DLA_MAX_TASKS; slot++)
		if (e->tasks[slot].state == DLA_TASK_FREE)
			break;
	if (slot == DLA_MAX_TASKS)
		return -DLA_ERR_BUSY;

	ret = dla_task_load(e, slot, task_data);
	if (ret) {
		e->tasks[slot].state = DLA_TASK_FREE;
		return ret;
	}
	e->tasks[slot].mmu_ctx = mmu_ctx;
	e->tasks[slot].priority = priority;
	dla_sched_start_task(e, slot);
	return (dla_s32)slot;
}

static struct dla_task *dla_get_task(void *engine_context, dla_u32 task_id)
{
	struct dla_engine *e = engine_context;

	if (!e || !e->in_use || task_id >= DLA_MAX_TASKS ||
	    e->tasks[task_id].state == DLA_TASK_FREE)
		return NULL;
	return &e->tasks[task_id];
}

dla_s32 dla_task_status(void *engine_context, dla_u32 task_id,
			struct dla_task_status *st)
{
	struct dla_task *t = dla_get_task(engine_context, task_id);

	if (!t || !st)
		return -DLA_ERR_NOENT;
	st->state = t->state;
	st->error = t->error;
	st->fail_kind = t->fail_kind;
	st->fail_index = t->fail_index;
	st->eng_status = t->eng_status;
	st->fault_status = t->fault_status;
	st->fault_addr = t->fault_addr;
	st->ops_total = t->n_ops;
	st->ops_done = t->n_done;
	st->op_cycles = t->op_cycles;
	st->device_cycles = t->device_cycles;
	st->time_us = t->time_us;
	return 0;
}

dla_s32 dla_op_cycles(void *engine_context, dla_u32 task_id, dla_u32 kind,
		      dla_u32 index, dla_u32 *cycles)
{
	struct dla_task *t = dla_get_task(engine_context, task_id);

	if (!t)
		return -DLA_ERR_NOENT;
	if (kind >= DLA_OP_KINDS || index >= t->count[kind] || !cycles)
		return -DLA_ERR_INVAL;
	*cycles = t->ops[t->base[kind] + index].cycles;
	return 0;
}

dla_s32 dla_task_op_cycles(void *engine_context, dla_u32 task_id,
			   dla_u32 *count, dla_u32 *cycles, dla_u32 room)
{
	struct dla_task *t = dla_get_task(engine_context, task_id);
	dla_u32 k, i, n = 0;

	if (!t)
		return -DLA_ERR_NOENT;
	if (!count || (room && !cycles))
		return -DLA_ERR_INVAL;
	for (k = 0; k < DLA_OP_KINDS; k++) {
		count[k] = t->count[k];
		for (i = 0; i < t->count[k] && n < room; i++)
			cycles[n++] = t->ops[t->base[k] + i].cycles;
	}
	return (dla_s32)n;
}
