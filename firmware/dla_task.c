// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Task validation: read the whole task memory through dla_data_read(),
 * check every field, and snapshot the dependency graph into the task slot.
 * Nothing is programmed until this has passed. Op bodies are checked here
 * by building their hardware descriptors (and checked again when the op
 * is programmed, see dla_engine.c), the graph by dla_graph.c.
 */
#include "dla_priv.h"

#define DLA_BAR_CHUNK	32u

__attribute__((__cold__))
dla_s32 dla_op_fail(struct dla_task *t, dla_u32 slot, dla_u32 kind,
		    dla_u32 index, const char *field, dla_s32 err)
{
	dla_error("dla: task %u: %s op %u: field %s: error %d\n", slot,
		  kind < DLA_OP_KINDS ? dla_kind_name[kind] : "?", index,
		  field, -err);
	t->fail_kind = kind;
	t->fail_index = index;
	return err;
}

static dla_s32 dla_desc_fail(struct dla_task *t, dla_u32 slot,
			     const char *field, dla_s32 err)
{
	dla_error("dla: task %u: descriptor: field %s: error %d\n", slot,
		  field, -err);
	t->fail_kind = DLA_OP_KINDS;
	t->fail_index = 0;
	return err;
}

static dla_s32 dla_bar_fail(struct dla_task *t, dla_u32 slot, dla_u32 b,
			    const char *field, dla_s32 err)
{
	dla_error("dla: task %u: barrier %u: field %s: error %d\n", slot, b,
		  field, -err);
	t->fail_kind = DLA_OP_KINDS;
	t->fail_index = b;
	return err;
}

/* Check that [offset, offset + n * size) lies inside entry 0. */
static int dla_in_entry0(dla_u64 entry0, dla_u32 offset, dla_u32 n,
			 dla_u32 size)
{
	dla_u64 end;

	if (dla_add_u64(offset, dla_mul_u32(n, size), &end))
		return 0;
	return end <= entry0;
}

static dla_s32 dla_load_header(struct dla_engine *e, struct dla_task *t,
			       dla_u32 slot, dla_u32 *bar_off)
{
	struct dla_task_desc d;
	struct dla_address a0;
	dla_u64 total = 0;
	dla_u32 k, i;

	if (dla_get_dma_address(e->driver_context, t->task_data, 0, &a0,
				DESTINATION_DMA))
		return dla_desc_fail(t, slot, "address_list[0]",
				     -DLA_ERR_ADDR_INDEX);
	if (a0.size < sizeof(d))
		return dla_desc_fail(t, slot, "address_list[0].size",
				     -DLA_ERR_HEADER_SIZE);
	if (dla_data_read(e->driver_context, t->task_data, 0, &d, sizeof(d),
			  0))
		return dla_desc_fail(t, slot, "read", -DLA_ERR_PORT);
	if (d.magic != DLA_TASK_MAGIC)
		return dla_desc_fail(t, slot, "magic", -DLA_ERR_BAD_MAGIC);
	if (d.version_major != DLA_TASK_VERSION_MAJOR ||
	    d.version_minor > DLA_TASK_VERSION_MINOR)
		return dla_desc_fail(t, slot, "version", -DLA_ERR_BAD_VERSION);
	if (d.header_size != sizeof(d))
		return dla_desc_fail(t, slot, "header_size",
				     -DLA_ERR_HEADER_SIZE);
	if (d.flags)
		return dla_desc_fail(t, slot, "flags", -DLA_ERR_RESERVED);
	for (i = 0; i < DLA_ARRAY_SIZE(d.reserved); i++)
		if (d.reserved[i])
			return dla_desc_fail(t, slot, "reserved",
					     -DLA_ERR_RESERVED);
	if (d.num_barriers > DLA_MAX_BARRIERS)
		return dla_desc_fail(t, slot, "num_barriers",
				     -DLA_ERR_TOO_MANY_BARRIERS);
	if (!dla_in_entry0(a0.size, d.barriers_offset, d.num_barriers,
			   sizeof(struct dla_barrier_desc)))
		return dla_desc_fail(t, slot, "barriers_offset",
				     -DLA_ERR_TABLE_RANGE);
	for (k = 0; k < DLA_OP_KINDS; k++) {
		if (d.ops[k].count > DLA_MAX_OPS_PER_TASK)
			return dla_desc_fail(t, slot, "ops.count",
					     -DLA_ERR_TOO_MANY_OPS);
		total += d.ops[k].count;
		if (!dla_in_entry0(a0.size, d.ops[k].offset, d.ops[k].count,
				   dla_op_rec_size(k)))
			return dla_desc_fail(t, slot, "ops.offset",
					     -DLA_ERR_TABLE_RANGE);
	}
	if (total > DLA_MAX_OPS_PER_TASK)
		return dla_desc_fail(t, slot, "ops.count",
				     -DLA_ERR_TOO_MANY_OPS);
	if (!total)
		return dla_desc_fail(t, slot, "ops.count", -DLA_ERR_EMPTY);

	t->n_ops = (dla_u32)total;
	t->n_barriers = d.num_barriers;
	for (k = 0, i = 0; k < DLA_OP_KINDS; k++) {
		t->base[k] = i;
		t->count[k] = d.ops[k].count;
		t->list_offset[k] = d.ops[k].offset;
		i += d.ops[k].count;
	}
	*bar_off = d.barriers_offset;
	return 0;
}

/*
 * Barrier table: producer counts into bar_init, consumer counts into the
 * CSR starts (cons_start). bar_count and e->cons_fill serve as the
 * per-barrier producer / consumer tallies of the op pass.
 */
static dla_s32 dla_load_barriers(struct dla_engine *e, struct dla_task *t,
				 dla_u32 slot, dla_u32 offset)
{
	struct dla_barrier_desc bd[DLA_BAR_CHUNK];
	dla_u32 b = 0, sum = 0;

	while (b < t->n_barriers) {
		dla_u32 n = t->n_barriers - b, i;

		if (n > DLA_BAR_CHUNK)
			n = DLA_BAR_CHUNK;
		if (dla_data_read(e->driver_context, t->task_data, 0, bd,
				  n * (dla_u32)sizeof(bd[0]),
				  offset + (dla_u64)b * sizeof(bd[0])))
			return dla_bar_fail(t, slot, b, "read", -DLA_ERR_PORT);
		for (i = 0; i < n; i++, b++) {
			if (bd[i].reserved)
				return dla_bar_fail(t, slot, b, "reserved",
						    -DLA_ERR_RESERVED);
			t->bar_init[b] = bd[i].producer_count;
			t->bar_count[b] = 0;
			t->cons_start[b] = sum;
			sum += bd[i].consumer_count;
			if (sum > DLA_MAX_DEPS_PER_TASK)
				return dla_bar_fail(t, slot, b,
						    "consumer_count",
						    -DLA_ERR_TOO_MANY_DEPS);
		}
	}
	t->cons_start[t->n_barriers] = sum;
	return 0;
}

/*
 * Bits of list words 0..3 (two u16 entries each, little endian) that hold
 * entries at or beyond index n: they must be zero.
 */
static const dla_u32 dla_unused_mask[DLA_MAX_OP_WAITS + 1][4] = {
	{ ~0u, ~0u, ~0u, ~0u },
	{ 0xffff0000u, ~0u, ~0u, ~0u },
	{ 0, ~0u, ~0u, ~0u },
	{ 0, 0xffff0000u, ~0u, ~0u },
	{ 0, 0, ~0u, ~0u },
	{ 0, 0, 0xffff0000u, ~0u },
	{ 0, 0, 0, ~0u },
	{ 0, 0, 0, 0xffff0000u },
	{ 0, 0, 0, 0 },
};

DLA_STATIC_ASSERT(DLA_MAX_OP_WAITS == 8 && DLA_MAX_OP_UPDATES == 8,
		  "list word masks");

/* @ids: the list as u16 entries, @w: the same as four u32 words */
static inline __attribute__((__always_inline__))
dla_s32 dla_check_list(struct dla_task *t, dla_u32 slot, dla_u32 kind,
		       dla_u32 index, const char *field, const dla_u16 *ids,
		       const dla_u32 *w, dla_u32 n)
{
	const dla_u32 *m;
	dla_u32 i, j;

	if (n > DLA_MAX_OP_WAITS)
		return dla_op_fail(t, slot, kind, index, field,
				   -DLA_ERR_LIST_LEN);
	m = dla_unused_mask[n];
	if ((w[0] & m[0]) | (w[1] & m[1]) | (w[2] & m[2]) | (w[3] & m[3]))
		return dla_op_fail(t, slot, kind, index, field,
				   -DLA_ERR_RESERVED);
	for (i = 0; i < n; i++) {
		if (ids[i] >= t->n_barriers)
			return dla_op_fail(t, slot, kind, index, field,
					   -DLA_ERR_BARRIER_ID);
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				return dla_op_fail(t, slot, kind, index, field,
						   -DLA_ERR_DUP_BARRIER);
	}
	return 0;
}

/* One op: its deps into the graph snapshot, its body through the builder. */
static dla_s32 dla_load_op(struct dla_engine *e, struct dla_task *t,
			   dla_u32 slot, dla_u32 kind, dla_u32 index,
			   dla_u32 *n_upd, dla_u16 *cons_fill)
{
	dla_u32 op = t->base[kind] + index;
	const struct dla_op_deps *dp;
	union dla_op_rec rec;
	union dla_hw_desc hw;
	dla_u32 i, words, pend = 0;
	dla_s32 ret;

	ret = dla_op_read(e, t, slot, kind, index, &rec);
	if (ret)
		return ret;
	dp = &rec.deps;
	if (dp->reserved)
		return dla_op_fail(t, slot, kind, index, "deps.reserved",
				   -DLA_ERR_RESERVED);
	ret = dla_check_list(t, slot, kind, index, "waits", dp->waits,
			     &rec.words[1], dp->num_waits);
	if (ret)
		return ret;
	ret = dla_check_list(t, slot, kind, index, "updates", dp->updates,
			     &rec.words[5], dp->num_updates);
	if (ret)
		return ret;

	for (i = 0; i < dp->num_waits; i++) {
		dla_u32 b = dp->waits[i];
		dla_u32 cap = t->cons_start[b + 1] - t->cons_start[b];

		if (cons_fill[b] >= cap)
			return dla_op_fail(t, slot, kind, index, "waits",
					   -DLA_ERR_CONSUMER_COUNT);
		t->cons[t->cons_start[b] + cons_fill[b]++] = op;
		if (t->bar_init[b])
			pend++;
	}
	t->upd_start[op] = *n_upd;
	if (dp->num_updates > DLA_MAX_DEPS_PER_TASK - *n_upd)
		return dla_op_fail(t, slot, kind, index, "updates",
				   -DLA_ERR_TOO_MANY_DEPS);
	for (i = 0; i < dp->num_updates; i++) {
		dla_u32 b = dp->updates[i];

		if (t->bar_count[b] >= t->bar_init[b])
			return dla_op_fail(t, slot, kind, index, "updates",
					   -DLA_ERR_PRODUCER_COUNT);
		t->bar_count[b]++;
		t->upd[(*n_upd)++] = (dla_u16)b;
	}
	t->ops[op].next = DLA_NIL;
	t->ops[op].pending = (dla_u8)pend;
	t->ops[op].init_pending = (dla_u8)pend;
	t->ops[op].state = DLA_OP_WAITING;
	t->ops[op].kind = (dla_u8)kind;
	t->ops[op].cycles = 0;

	return dla_op_build(e, t, slot, kind, index, &rec, &hw, &words);
}

dla_s32 dla_task_load(struct dla_engine *e, dla_u32 slot, void *task_data)
{
	struct dla_task *t = &e->tasks[slot];
	dla_u16 *cons_fill = e->cons_fill;
	dla_u32 k, i, n_upd = 0;
	dla_u32 bar_off;
	dla_s32 ret;

	t->task_data = task_data;
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
	for (i = 0; i < DLA_ARRAY_SIZE(t->addr_valid); i++)
		t->addr_valid[i] = 0;

	ret = dla_load_header(e, t, slot, &bar_off);
	if (ret)
		return ret;
	ret = dla_load_barriers(e, t, slot, bar_off);
	if (ret)
		return ret;
	for (i = 0; i < t->n_barriers; i++)
		cons_fill[i] = 0;
	for (k = 0; k < DLA_OP_KINDS; k++) {
		for (i = 0; i < t->count[k]; i++) {
			ret = dla_load_op(e, t, slot, k, i, &n_upd, cons_fill);
			if (ret)
				return ret;
		}
	}
	t->upd_start[t->n_ops] = n_upd;
	for (i = 0; i < t->n_barriers; i++) {
		if (t->bar_count[i] != t->bar_init[i])
			return dla_bar_fail(t, slot, i, "producer_count",
					    -DLA_ERR_PRODUCER_COUNT);
		if (cons_fill[i] != t->cons_start[i + 1] - t->cons_start[i])
			return dla_bar_fail(t, slot, i, "consumer_count",
					    -DLA_ERR_CONSUMER_COUNT);
	}
	ret = dla_graph_check(t, slot);
	dla_graph_reset(t);
	return ret;
}
