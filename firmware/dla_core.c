// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Engine core: device binding, starting prepared tasks and the result
 * queries. The core has no state of its own: an instance lives in the
 * memory the port gives dla_register_driver(), a task in the memory it
 * gives dla_task_prepare() (dla_task.c).
 */
#include "dla_priv.h"

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
		for (; c; c--)
			e->eng_kind[g++] = (dla_u8)k;
	}
	e->n_engines = g;
	for (g = 0; g < DLA_MAX_ENGINES; g++)
		e->owner[g] = DLA_NIL;
	e->n_tiles = dla_reg_read(drv, VPUX_REG_TILES);
	if (e->n_tiles > 64)
		e->n_tiles = 64;	/* dla_task.cmx_tiles is 64 bits */
	e->cmx_size = dla_reg_read(drv, VPUX_REG_CMX_SIZE);
	e->cmx_base = dla_reg_read(drv, VPUX_REG_CMX_BASE_LO) |
		      (dla_u64)dla_reg_read(drv, VPUX_REG_CMX_BASE_HI) << 32;
	e->ctx_slots = dla_reg_read(drv, VPUX_REG_CTX_SLOTS);
	if (e->ctx_slots > VPUX_MAX_CTX_SLOTS)
		e->ctx_slots = VPUX_MAX_CTX_SLOTS;
	e->start_at = !!(dla_reg_read(drv, VPUX_REG_CAPS) & VPUX_CAP_START_AT);
	return 0;
}

DLA_STATIC_ASSERT(sizeof(struct dla_engine) <= DLA_ENGINE_SIZE_MAX,
		  "DLA_ENGINE_SIZE_MAX");

dla_u32 dla_engine_size(void)
{
	return sizeof(struct dla_engine);
}

dla_s32 dla_register_driver(struct dla_engine **engine, void *mem,
			    dla_u32 size, void *driver_context)
{
	struct dla_engine *e = mem;
	dla_s32 ret;

	if (!engine || !mem || ((unsigned long)mem & 7) || size < sizeof(*e))
		return -DLA_ERR_INVAL;
	*engine = NULL;
	dla_zero(e, sizeof(*e));
	e->driver_context = driver_context;
	ret = dla_discover(e);
	if (ret)
		return ret;
	e->magic = DLA_ENGINE_MAGIC;
	dla_reg_write(driver_context, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	dla_reg_write(driver_context, VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL);
	*engine = e;
	dla_info("dla: %u dma, %u dpu, %u shave engines, %u tiles\n",
		 e->n_kind[DLA_OP_DMA], e->n_kind[DLA_OP_DPU],
		 e->n_kind[DLA_OP_SHAVE], e->n_tiles);
	return 0;
}

void dla_engines_lost_state(struct dla_engine *e)
{
	if (dla_engine_ok(e))
		e->shadow_valid = 0;
}

void dla_unregister_driver(struct dla_engine *e)
{
	dla_u32 i, k, p;

	if (!dla_engine_ok(e))
		return;
	/* nothing may start while the tasks are torn down */
	for (k = 0; k < DLA_OP_KINDS; k++) {
		e->qmask[k] = 0;
		for (p = 0; p < DLA_PRIO_LEVELS; p++)
			e->ready[k][p] = 0;
	}
	for (i = 0; i < DLA_MAX_TASKS; i++)
		if (e->task[i])
			dla_clear_task(e, i);
	dla_reg_write(e->driver_context, VPUX_REG_IRQ_MASK, 0);
	e->magic = 0;
}

dla_s32 dla_task_start(struct dla_engine *e, struct dla_task *t,
		       dla_u32 mmu_ctx, dla_u32 priority)
{
	dla_u32 slot;

	if (!dla_engine_ok(e) || !dla_task_ok(t) || t->engine != e)
		return -DLA_ERR_INVAL;
	if (t->slot >= 0)
		return -DLA_ERR_RUNNING;
	if (mmu_ctx >= e->ctx_slots) {
		dla_error("dla: mmu context %u out of range\n", mmu_ctx);
		return -DLA_ERR_CTX;
	}
	if (priority >= DLA_PRIO_LEVELS) {
		dla_error("dla: priority %u out of range\n", priority);
		return -DLA_ERR_PRIORITY;
	}
	for (slot = 0; slot < DLA_MAX_TASKS; slot++)
		if (!e->task[slot])
			break;
	if (slot == DLA_MAX_TASKS)
		return -DLA_ERR_BUSY;

	/* a task that ran before: counters, links and cycles rewound */
	if (t->dirty)
		dla_graph_reset(t);
	t->dirty = 1;
	t->error = 0;
	t->n_done = 0;
	t->n_running = 0;
	t->fail_kind = DLA_OP_KINDS;
	t->fail_index = 0;
	t->eng_status = 0;
	t->fault_status = 0;
	t->fault_addr = 0;
	t->op_cycles = 0;
	t->device_cycles = 0;
	t->time_us = 0;
	t->mmu_ctx = mmu_ctx;
	t->priority = priority;
	t->slot = (dla_s32)slot;
	e->task[slot] = t;
	dla_sched_start_task(e, slot);
	return (dla_s32)slot;
}

dla_s32 dla_task_result(const struct dla_task *t, struct dla_task_status *st)
{
	if (!dla_task_ok(t) || !st)
		return -DLA_ERR_INVAL;
	st->state = t->state;
	st->error = t->error;
	st->fail_kind = t->fail_kind;
	st->fail_index = t->fail_index;
	st->eng_status = t->eng_status;
	st->fault_status = t->fault_status;
	st->fault_addr = t->fault_addr;
	st->ops_total = t->n_total;
	st->ops_done = t->n_done;
	st->ops_running = t->n_running;
	st->oldest_seq = 0;
	if (t->n_running && t->slot >= 0) {
		const struct dla_engine *e = t->engine;
		dla_u32 g, age, oldest = 0, found = 0;

		/* the running op started first: the largest age */
		for (g = 0; g < e->n_engines; g++) {
			if (e->owner[g] == DLA_NIL ||
			    DLA_LINK_SLOT(e->owner[g]) != (dla_u32)t->slot)
				continue;
			age = e->start_seq - e->owner_seq[g];
			if (!found || age > oldest) {
				oldest = age;
				found = 1;
				st->oldest_seq = e->owner_seq[g];
			}
		}
	}
	st->op_cycles = t->op_cycles;
	st->device_cycles = t->device_cycles;
	st->time_us = t->time_us;
	return 0;
}

dla_s32 dla_op_cycles(const struct dla_task *t, dla_u32 kind, dla_u32 index,
		      dla_u32 *cycles)
{
	if (!dla_task_ok(t) || kind >= DLA_OP_KINDS ||
	    index >= t->count[kind] || !cycles)
		return -DLA_ERR_INVAL;
	*cycles = t->ops[t->base[kind] + index].cycles;
	return 0;
}

dla_s32 dla_task_op_cycles(const struct dla_task *t, dla_u32 *count,
			   dla_u32 *cycles, dla_u32 room)
{
	dla_u32 k, i, n = 0;

	if (!dla_task_ok(t) || !count || (room && !cycles))
		return -DLA_ERR_INVAL;
	for (k = 0; k < DLA_OP_KINDS; k++) {
		count[k] = t->count[k];
		for (i = 0; i < t->count[k] && n < room; i++)
			cycles[n++] = t->ops[t->base[k] + i].cycles;
	}
	return (dla_s32)n;
}

dla_s32 dla_task_id(const struct dla_task *t)
{
	return dla_task_ok(t) ? t->slot : -1;
}

dla_u64 dla_task_cmx_tiles(const struct dla_task *t)
{
	if (!dla_task_ok(t))
		return 0;
	return (dla_u64)t->cmx_tiles[1] << 32 | t->cmx_tiles[0];
}

dla_s32 dla_task_symbols(const struct dla_task *t, dla_u32 *index,
			 dla_u64 *values, dla_u32 n)
{
	const struct dla_plan_rt *pl;
	dla_u32 i;

	if (!dla_task_ok(t) || !t->plan || !index || (n && !values))
		return -DLA_ERR_INVAL;
	pl = t->plan;
	*index = pl->sym_index;
	for (i = 0; i < pl->n_sym && i < n; i++)
		values[i] = pl->sym[i];
	return (dla_s32)pl->n_sym;
}
