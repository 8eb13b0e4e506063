// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Task validation, once, into memory the port provides:
 * dla_task_measure() reads the task descriptor and says how many bytes
 * the prepared task needs; dla_task_prepare() reads every record of the
 * task memory once into a local copy, checks it, snapshots the dependency
 * graph and builds each op's hardware descriptor (dla_engine.c) into that
 * memory. Both run without the port's lock, concurrently with every other
 * call: they read nothing of the engine but its constant device facts and
 * write nothing but the port's memory.
 *
 * A prepared task, at the start of the port's memory (each array 8-byte
 * aligned, in this order):
 *
 *	struct dla_task			the header: state, counts, results
 *	struct dla_op_rt ops[n_ops]	per op: queue link, counters, cycles
 *	struct dla_bar_rt bar[n_b + 1]	per barrier: counter, consumer list
 *	dla_u16 upd[max_upd]		update edges (barrier ids) by op
 *	dla_u32 cons[max_cons]		consumer edges (op indices) by barrier
 *	dla_u64 desc[k][count[k] * pairs[k]]	hardware descriptors per kind
 *	-- validation scratch, dead once prepared --
 *	dla_u16 cons_fill[n_b]		consumers seen per barrier
 *	struct dla_addr_slot addr[DLA_ADDR_CACHE]	address cache
 *
 * with max_upd = max_cons = min(8 * n_ops, DLA_MAX_DEPS_PER_TASK): an op
 * lists at most 8 barriers each way, and the edge limit holds per
 * direction.
 */
#include "dla_priv.h"

#define DLA_BAR_CHUNK	32u

/* the figures DLA_TASK_SIZE_MAX (dla_interface.h) counts on */
DLA_STATIC_ASSERT(sizeof(struct dla_op_rt) <= 16 &&
		  sizeof(struct dla_bar_rt) + sizeof(dla_u16) <= 10 &&
		  sizeof(dla_u16) + sizeof(dla_u32) <= 6, "per-item sizes");
DLA_STATIC_ASSERT(sizeof(union dla_dma_slot) <= DLA_DESC_SIZE_MAX &&
		  sizeof(union dla_dpu_slot) <= DLA_DESC_SIZE_MAX &&
		  sizeof(union dla_shave_slot) <= DLA_DESC_SIZE_MAX,
		  "DLA_DESC_SIZE_MAX");
DLA_STATIC_ASSERT(sizeof(struct dla_task) + 16 * 8 +
		  DLA_ADDR_CACHE * sizeof(struct dla_addr_slot) <= 2048,
		  "header, address cache and alignment");

/* a plan task, at its largest, fits the static memory of a task slot */
DLA_STATIC_ASSERT(sizeof(struct dla_task) + sizeof(struct dla_plan_rt) +
		  DLA_PLAN_SIZE_MAX + DLA_PLAN_WINDOW *
		  (sizeof(struct dla_op_rt) + DLA_PLAN_PAIRS * 8u) +
		  DLA_ADDR_CACHE * sizeof(struct dla_addr_slot) + 64 <=
		  DLA_TASK_SIZE_MAX, "a plan task fits DLA_TASK_SIZE_MAX");

__attribute__((__cold__))
dla_s32 dla_op_fail(dla_u32 kind, dla_u32 index, const char *field,
		    dla_s32 err)
{
	dla_error("dla: task: %s op %u: field %s: error %d\n",
		  kind < DLA_OP_KINDS ? dla_kind_name[kind] : "?", index,
		  field, -err);
	return err;
}

static __attribute__((__cold__))
dla_s32 dla_desc_fail(const char *field, dla_s32 err)
{
	dla_error("dla: task: descriptor: field %s: error %d\n", field, -err);
	return err;
}

static __attribute__((__cold__))
dla_s32 dla_bar_fail(dla_u32 b, const char *field, dla_s32 err)
{
	dla_error("dla: task: barrier %u: field %s: error %d\n", b, field,
		  -err);
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

/* A plan's descriptor (Documentation/dynamic-shapes.rst, rule 1). */
static dla_s32 dla_read_plan_header(const struct dla_task_desc *d,
				    dla_u64 entry0)
{
	dla_u32 k;

	if (d->num_barriers || d->barriers_offset)
		return dla_desc_fail("num_barriers", -DLA_ERR_PLAN_FORMAT);
	for (k = 0; k < DLA_OP_KINDS; k++)
		if (d->ops[k].count || d->ops[k].offset)
			return dla_desc_fail("ops.count",
					     -DLA_ERR_PLAN_FORMAT);
	if (d->plan_size < sizeof(struct dla_plan_header) ||
	    d->plan_size > DLA_PLAN_SIZE_MAX || (d->plan_size & 3) ||
	    (d->plan_offset & 3))
		return dla_desc_fail("plan_size", -DLA_ERR_PLAN_FORMAT);
	if (!dla_in_entry0(entry0, d->plan_offset, 1, d->plan_size))
		return dla_desc_fail("plan_offset", -DLA_ERR_TABLE_RANGE);
	if (!d->sym_index || d->sym_index >= DLA_MAX_ADDR_ENTRIES)
		return dla_desc_fail("sym_index", -DLA_ERR_ADDR_INDEX);
	return 0;
}

/* Read the task descriptor into @d and check it (rules 1 and 2). */
static dla_s32 dla_read_header(const struct dla_engine *e, void *task_data,
			       struct dla_task_desc *d, dla_u64 *entry0)
{
	struct dla_address a0;
	dla_u64 total = 0;
	dla_u32 k, i;

	if (dla_get_dma_address(e->driver_context, task_data, 0, &a0,
				DESTINATION_DMA))
		return dla_desc_fail("address_list[0]", -DLA_ERR_ADDR_INDEX);
	if (a0.size < sizeof(*d))
		return dla_desc_fail("address_list[0].size",
				     -DLA_ERR_HEADER_SIZE);
	if (dla_data_read(e->driver_context, task_data, 0, d, sizeof(*d), 0))
		return dla_desc_fail("read", -DLA_ERR_PORT);
	if (d->magic != DLA_TASK_MAGIC)
		return dla_desc_fail("magic", -DLA_ERR_BAD_MAGIC);
	if (d->version_major != DLA_TASK_VERSION_MAJOR ||
	    d->version_minor > DLA_TASK_VERSION_MINOR)
		return dla_desc_fail("version", -DLA_ERR_BAD_VERSION);
	if (d->header_size != sizeof(*d))
		return dla_desc_fail("header_size", -DLA_ERR_HEADER_SIZE);
	if (d->flags & ~DLA_TASK_FLAGS_ALL)
		return dla_desc_fail("flags", -DLA_ERR_RESERVED);
	for (i = 0; i < DLA_ARRAY_SIZE(d->reserved); i++)
		if (d->reserved[i])
			return dla_desc_fail("reserved", -DLA_ERR_RESERVED);
	if (d->flags & DLA_TASK_F_TILES) {
		/* the window: at least one tile, all of them the device's */
		if (d->version_minor < 2)
			return dla_desc_fail("flags", -DLA_ERR_RESERVED);
		if (!d->tile_count ||
		    (dla_u32)d->tile_first + d->tile_count > e->n_tiles)
			return dla_desc_fail("tile_count", -DLA_ERR_CMX_WINDOW);
	} else if (d->tile_first || d->tile_count) {
		return dla_desc_fail("tile_first", -DLA_ERR_RESERVED);
	}
	if (d->flags & DLA_TASK_F_PLAN) {
		*entry0 = a0.size;
		return dla_read_plan_header(d, a0.size);
	}
	if (d->plan_offset || d->plan_size || d->sym_index)
		return dla_desc_fail("plan_offset", -DLA_ERR_RESERVED);
	if (d->num_barriers > DLA_MAX_BARRIERS)
		return dla_desc_fail("num_barriers",
				     -DLA_ERR_TOO_MANY_BARRIERS);
	if (!dla_in_entry0(a0.size, d->barriers_offset, d->num_barriers,
			   sizeof(struct dla_barrier_desc)))
		return dla_desc_fail("barriers_offset", -DLA_ERR_TABLE_RANGE);
	for (k = 0; k < DLA_OP_KINDS; k++) {
		if (d->ops[k].count > DLA_MAX_OPS_PER_TASK)
			return dla_desc_fail("ops.count",
					     -DLA_ERR_TOO_MANY_OPS);
		total += d->ops[k].count;
		if (!dla_in_entry0(a0.size, d->ops[k].offset, d->ops[k].count,
				   dla_op_rec_size(k)))
			return dla_desc_fail("ops.offset",
					     -DLA_ERR_TABLE_RANGE);
	}
	if (total > DLA_MAX_OPS_PER_TASK)
		return dla_desc_fail("ops.count", -DLA_ERR_TOO_MANY_OPS);
	if (!total)
		return dla_desc_fail("ops.count", -DLA_ERR_EMPTY);
	*entry0 = a0.size;
	return 0;
}

/* Byte offsets of a prepared task's arrays (see the top of the file). */
struct dla_layout {
	dla_u32 plan, pcopy;		/* a plan's: dla_plan_rt, its copy */
	dla_u32 ops, bar, upd, cons, desc[DLA_OP_KINDS];
	dla_u32 cons_fill, addr;
	dla_u32 max_edges;
	dla_u32 size;
};

/* Reserve @n elements of @size bytes at *@end, 8-byte aligned. */
static dla_u32 dla_place(dla_u64 *end, dla_u64 n, dla_u32 size)
{
	dla_u64 at = *end;

	*end = (at + n * size + 7) & ~(dla_u64)7;
	return (dla_u32)at;
}

/*
 * Every count is bounded by the limits checked in dla_read_header()
 * (ops < 2^24, barriers < 2^16, edges < 2^28, descriptors <= 256 bytes),
 * so no term and no partial sum comes near 2^64; the total is checked
 * against the 32-bit size the interface carries.
 */
static dla_s32 dla_task_layout(const struct dla_task_desc *d,
			       struct dla_layout *l)
{
	dla_u32 n_ops = 0, n_b = d->num_barriers, k;
	dla_u64 end = 0;

	if (d->flags & DLA_TASK_F_PLAN) {
		/* constant in the loop counts: the window, not the ops */
		dla_place(&end, 1, sizeof(struct dla_task));
		l->plan = dla_place(&end, 1, sizeof(struct dla_plan_rt));
		l->pcopy = dla_place(&end, d->plan_size, 1);
		l->ops = dla_place(&end, DLA_PLAN_WINDOW,
				   sizeof(struct dla_op_rt));
		l->bar = dla_place(&end, 1, sizeof(struct dla_bar_rt));
		l->desc[0] = dla_place(&end, DLA_PLAN_WINDOW,
				       DLA_PLAN_PAIRS * 8u);
		l->addr = dla_place(&end, DLA_ADDR_CACHE,
				    sizeof(struct dla_addr_slot));
		l->size = (dla_u32)end;
		return 0;
	}
	for (k = 0; k < DLA_OP_KINDS; k++)
		n_ops += d->ops[k].count;
	l->max_edges = n_ops < DLA_MAX_DEPS_PER_TASK / DLA_MAX_OP_WAITS ?
		       n_ops * DLA_MAX_OP_WAITS : DLA_MAX_DEPS_PER_TASK;
	dla_place(&end, 1, sizeof(struct dla_task));
	l->ops = dla_place(&end, n_ops, sizeof(struct dla_op_rt));
	l->bar = dla_place(&end, (dla_u64)n_b + 1, sizeof(struct dla_bar_rt));
	l->upd = dla_place(&end, l->max_edges, sizeof(dla_u16));
	l->cons = dla_place(&end, l->max_edges, sizeof(dla_u32));
	for (k = 0; k < DLA_OP_KINDS; k++)
		l->desc[k] = dla_place(&end, d->ops[k].count,
				       dla_desc_pairs(k) * 8u);
	l->cons_fill = dla_place(&end, n_b, sizeof(dla_u16));
	l->addr = dla_place(&end, DLA_ADDR_CACHE,
			    sizeof(struct dla_addr_slot));
	if (end > 0xffffffffu)
		return dla_desc_fail("size", -DLA_ERR_OVERFLOW);
	l->size = (dla_u32)end;
	return 0;
}

dla_s32 dla_task_measure(const struct dla_engine *e, void *task_data,
			 dla_u32 *size)
{
	struct dla_task_desc d;
	struct dla_layout l;
	dla_u64 entry0;
	dla_s32 ret;

	if (!dla_engine_ok(e) || !size)
		return -DLA_ERR_INVAL;
	ret = dla_read_header(e, task_data, &d, &entry0);
	if (!ret)
		ret = dla_task_layout(&d, &l);
	if (ret)
		return ret;
	*size = l.size;
	return 0;
}

/*
 * Barrier table (rule 3): producer counts into bar[].init, consumer lists
 * laid out from the declared consumer counts. bar[].count and cons_fill
 * then tally the producers and consumers the op pass finds.
 */
static dla_s32 dla_load_barriers(struct dla_prep *p, dla_u32 offset)
{
	struct dla_barrier_desc bd[DLA_BAR_CHUNK];
	struct dla_task *t = p->t;
	dla_u32 b = 0, sum = 0;

	while (b < t->n_barriers) {
		dla_u32 n = t->n_barriers - b, i;

		if (n > DLA_BAR_CHUNK)
			n = DLA_BAR_CHUNK;
		if (dla_data_read(p->drv, p->task_data, 0, bd,
				  n * (dla_u32)sizeof(bd[0]),
				  offset + (dla_u64)b * sizeof(bd[0])))
			return dla_bar_fail(b, "read", -DLA_ERR_PORT);
		for (i = 0; i < n; i++, b++) {
			if (bd[i].reserved)
				return dla_bar_fail(b, "reserved",
						    -DLA_ERR_RESERVED);
			t->bar[b].count = 0;
			t->bar[b].init = bd[i].producer_count;
			t->bar[b].cons = sum;
			p->cons_fill[b] = 0;
			sum += bd[i].consumer_count;
			if (sum > DLA_MAX_DEPS_PER_TASK)
				return dla_bar_fail(b, "consumer_count",
						    -DLA_ERR_TOO_MANY_DEPS);
			/* more consumers than 8 waits per op can make */
			if (sum > p->max_cons)
				return dla_bar_fail(b, "consumer_count",
						    -DLA_ERR_CONSUMER_COUNT);
		}
	}
	t->bar[b].count = 0;
	t->bar[b].init = 0;
	t->bar[b].cons = sum;
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
dla_s32 dla_check_list(const struct dla_task *t, dla_u32 kind, dla_u32 index,
		       const char *field, const dla_u16 *ids, const dla_u32 *w,
		       dla_u32 n)
{
	const dla_u32 *m;
	dla_u32 i, j;

	if (n > DLA_MAX_OP_WAITS)
		return dla_op_fail(kind, index, field, -DLA_ERR_LIST_LEN);
	m = dla_unused_mask[n];
	if ((w[0] & m[0]) | (w[1] & m[1]) | (w[2] & m[2]) | (w[3] & m[3]))
		return dla_op_fail(kind, index, field, -DLA_ERR_RESERVED);
	for (i = 0; i < n; i++) {
		if (ids[i] >= t->n_barriers)
			return dla_op_fail(kind, index, field,
					   -DLA_ERR_BARRIER_ID);
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				return dla_op_fail(kind, index, field,
						   -DLA_ERR_DUP_BARRIER);
	}
	return 0;
}

/*
 * One op (rule 4): read its record once, then from the copy only: its
 * lists into the graph snapshot, its body into its hardware descriptor.
 */
static dla_s32 dla_load_op(struct dla_prep *p, dla_u32 kind, dla_u32 index,
			   dla_u64 offset)
{
	struct dla_task *t = p->t;
	dla_u32 op = t->base[kind] + index;
	struct dla_op_rt *o = &t->ops[op];
	const struct dla_op_deps *dp;
	union dla_op_rec rec;
	dla_u32 i, pend = 0;
	dla_s32 ret;

	if (dla_data_read(p->drv, p->task_data, 0, &rec,
			  dla_op_rec_size(kind), offset))
		return dla_op_fail(kind, index, "read", -DLA_ERR_PORT);
	dp = &rec.deps;
	if (dp->reserved)
		return dla_op_fail(kind, index, "deps.reserved",
				   -DLA_ERR_RESERVED);
	ret = dla_check_list(t, kind, index, "waits", dp->waits,
			     &rec.words[1], dp->num_waits);
	if (ret)
		return ret;
	ret = dla_check_list(t, kind, index, "updates", dp->updates,
			     &rec.words[5], dp->num_updates);
	if (ret)
		return ret;

	for (i = 0; i < dp->num_waits; i++) {
		dla_u32 b = dp->waits[i];
		struct dla_bar_rt *br = &t->bar[b];

		if (p->cons_fill[b] >= br[1].cons - br->cons)
			return dla_op_fail(kind, index, "waits",
					   -DLA_ERR_CONSUMER_COUNT);
		t->cons[br->cons + p->cons_fill[b]++] = op;
		pend += br->init != 0;
	}
	if (dp->num_updates > p->max_upd - p->n_upd)
		return dla_op_fail(kind, index, "updates",
				   -DLA_ERR_TOO_MANY_DEPS);
	o->upd = p->n_upd;
	o->n_upd = dp->num_updates;
	for (i = 0; i < dp->num_updates; i++) {
		dla_u32 b = dp->updates[i];
		struct dla_bar_rt *br = &t->bar[b];

		if (br->count >= br->init)
			return dla_op_fail(kind, index, "updates",
					   -DLA_ERR_PRODUCER_COUNT);
		br->count++;
		t->upd[p->n_upd++] = (dla_u16)b;
	}
	o->next = DLA_NIL;
	o->cycles = 0;
	o->pending = (dla_u8)pend;
	o->init_pending = (dla_u8)pend;
	o->kind = (dla_u8)kind;

	return dla_op_build(p, kind, index, &rec,
			    t->desc[kind] + index * t->pairs[kind]);
}

/* A plan task: the window's slots, then the plan itself (dla_plan.c). */
static dla_s32 dla_prepare_plan(struct dla_prep *p,
				const struct dla_task_desc *d,
				const struct dla_layout *l, struct dla_task **task)
{
	struct dla_task *t = p->t;
	char *base = (char *)t;
	dla_u64 *desc = (dla_u64 *)(base + l->desc[0]);
	dla_u32 k, i;
	dla_s32 ret;

	t->n_barriers = 0;
	t->ops = (struct dla_op_rt *)(base + l->ops);
	t->bar = (struct dla_bar_rt *)(base + l->bar);
	t->bar[0].count = t->bar[0].init = 0;
	t->bar[0].cons = 0;
	t->upd = NULL;
	t->cons = NULL;
	for (k = 0; k < DLA_OP_KINDS; k++) {
		t->base[k] = 0;
		t->count[k] = 0;
		t->pairs[k] = dla_desc_pairs(k);
		t->dstride[k] = DLA_PLAN_PAIRS;
		t->desc[k] = desc;
	}
	t->n_ops = DLA_PLAN_WINDOW;
	for (i = 0; i < DLA_PLAN_WINDOW; i++) {
		t->ops[i].next = DLA_NIL;
		t->ops[i].cycles = 0;
		t->ops[i].upd = 0;
		t->ops[i].n_upd = 0;
		t->ops[i].pending = 0;
		t->ops[i].init_pending = 0;
		t->ops[i].kind = 0;
	}
	p->addr = (struct dla_addr_slot *)(base + l->addr);
	for (i = 0; i < DLA_ADDR_CACHE; i++)
		p->addr[i].tag = 0;
	p->no_port = 0;
	p->cons_fill = NULL;
	p->n_upd = p->max_upd = p->max_cons = 0;
	t->plan = (struct dla_plan_rt *)(base + l->plan);
	ret = dla_plan_prepare(p, d, t->plan, base + l->pcopy, desc);
	if (ret)
		return ret;
	t->magic = DLA_TASK_READY;
	*task = t;
	return 0;
}

dla_s32 dla_task_prepare(const struct dla_engine *e, void *task_data,
			 void *mem, dla_u32 size, struct dla_task **task)
{
	struct dla_task *t = mem;
	struct dla_task_desc d;
	struct dla_layout l;
	struct dla_prep p;
	char *base = mem;
	dla_u32 k, i, op;
	dla_s32 ret;

	if (!dla_engine_ok(e) || !task || !mem || ((unsigned long)mem & 7) ||
	    size < sizeof(*t))
		return -DLA_ERR_INVAL;
	*task = NULL;
	dla_zero(t, sizeof(*t));
	t->slot = -1;
	t->engine = e;
	t->state = DLA_TASK_FREE;
	t->fail_kind = DLA_OP_KINDS;

	p.e = e;
	p.t = t;
	p.drv = e->driver_context;
	p.task_data = task_data;
	ret = dla_read_header(e, task_data, &d, &p.entry0);
	if (!ret)
		ret = dla_task_layout(&d, &l);
	if (ret)
		return ret;
	if (l.size > size)
		return dla_desc_fail("size", -DLA_ERR_CHANGED);

	t->size = l.size;
	t->tile_first = 0;
	t->tile_end = e->n_tiles;
	if (d.flags & DLA_TASK_F_TILES) {
		t->tile_first = d.tile_first;
		t->tile_end = (dla_u32)d.tile_first + d.tile_count;
	}
	if (d.flags & DLA_TASK_F_PLAN)
		return dla_prepare_plan(&p, &d, &l, task);
	t->n_barriers = d.num_barriers;
	t->ops = (struct dla_op_rt *)(base + l.ops);
	t->bar = (struct dla_bar_rt *)(base + l.bar);
	t->plan = NULL;
	t->upd = (dla_u16 *)(base + l.upd);
	t->cons = (dla_u32 *)(base + l.cons);
	for (k = 0, op = 0; k < DLA_OP_KINDS; k++) {
		t->base[k] = op;
		t->count[k] = d.ops[k].count;
		t->pairs[k] = dla_desc_pairs(k);
		t->dstride[k] = t->pairs[k];
		t->desc[k] = (dla_u64 *)(base + l.desc[k]);
		op += d.ops[k].count;
	}
	t->n_ops = op;
	t->n_total = op;
	p.n_upd = 0;
	p.max_upd = l.max_edges;
	p.max_cons = l.max_edges;
	p.cons_fill = (dla_u16 *)(base + l.cons_fill);
	p.addr = (struct dla_addr_slot *)(base + l.addr);
	for (i = 0; i < DLA_ADDR_CACHE; i++)
		p.addr[i].tag = 0;
	p.no_port = 0;

	ret = dla_load_barriers(&p, d.barriers_offset);
	if (ret)
		return ret;
	for (k = 0; k < DLA_OP_KINDS; k++) {
		dla_u32 rec = dla_op_rec_size(k);
		dla_u64 off = d.ops[k].offset;

		for (i = 0; i < t->count[k]; i++, off += rec) {
			ret = dla_load_op(&p, k, i, off);
			if (ret)
				return ret;
		}
	}
	/* rule 5: fewer producers or consumers than declared */
	for (i = 0; i < t->n_barriers; i++) {
		if (t->bar[i].count != t->bar[i].init)
			return dla_bar_fail(i, "producer_count",
					    -DLA_ERR_PRODUCER_COUNT);
		if (p.cons_fill[i] != t->bar[i + 1].cons - t->bar[i].cons)
			return dla_bar_fail(i, "consumer_count",
					    -DLA_ERR_CONSUMER_COUNT);
	}
	/* rule 6 */
	ret = dla_graph_check(t);
	if (ret)
		return ret;
	dla_graph_reset(t);
	t->magic = DLA_TASK_READY;
	*task = t;
	return 0;
}
