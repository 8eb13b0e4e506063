// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Validation once, into memory the port provides: dla_task_measure() on
 * bad descriptors, dla_task_prepare() with too little or misaligned
 * memory and with a descriptor that grew after measuring, prepared tasks
 * that never write past the measured size, a task started, cleared and
 * started again with identical results (also after a failure and after an
 * abort), and task memory rewritten after prepare changing nothing of what
 * the engines receive (the fake engines log every descriptor they start).
 *
 * The core is called directly (dla_user_engine(), dla_user_task_handle())
 * on a device whose bottom half runs inline, so no other thread enters it.
 */
#include "dla_user_priv.h"
#include "fw_test.h"

#define LOG_CAP		64
#define CANARY		0xa5
#define SLACK		256

static struct fake_start ref_log[LOG_CAP], run_log[LOG_CAP];

/* A task handle for the callbacks, for the list of the last ft_list(). */
static void *handle(struct ft *f)
{
	return dla_user_task_handle(f->list, f->n);
}

/* Measured size of @td, 0 on error. */
static dla_u32 measure(struct ft *f, void *td)
{
	dla_u32 size = 0;

	if (dla_task_measure(dla_user_engine(f->dev), td, &size))
		return 0;
	return size;
}

/* @n bytes, 8-aligned, followed by SLACK canary bytes */
static unsigned char *canary_alloc(size_t n)
{
	unsigned char *p = aligned_alloc(8, (n + SLACK + 7) & ~(size_t)7);

	memset(p, CANARY, n + SLACK);
	return p;
}

static int canary_ok(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = n; i < n + SLACK; i++)
		if (p[i] != CANARY)
			return 0;
	return 1;
}

struct mcase {
	const char *name;
	int err;
	const char *msg;
};

static const struct mcase mcases[] = {
	{ "magic", DLA_ERR_BAD_MAGIC, "descriptor: field magic" },
	{ "version major", DLA_ERR_BAD_VERSION, "descriptor: field version" },
	{ "version minor", DLA_ERR_BAD_VERSION, "descriptor: field version" },
	{ "header_size", DLA_ERR_HEADER_SIZE, "descriptor: field header_size" },
	{ "flags", DLA_ERR_RESERVED, "descriptor: field flags" },
	{ "reserved", DLA_ERR_RESERVED, "descriptor: field reserved" },
	{ "entry 0 too small", DLA_ERR_HEADER_SIZE, "address_list[0].size" },
	{ "no entry 0", DLA_ERR_ADDR_INDEX, "field address_list[0]" },
	{ "num_barriers", DLA_ERR_TOO_MANY_BARRIERS, "field num_barriers" },
	{ "barriers past entry 0", DLA_ERR_TABLE_RANGE, "barriers_offset" },
	{ "barriers offset wraps", DLA_ERR_TABLE_RANGE, "barriers_offset" },
	{ "op count", DLA_ERR_TOO_MANY_OPS, "field ops.count" },
	{ "op count sum", DLA_ERR_TOO_MANY_OPS, "field ops.count" },
	{ "op list past entry 0", DLA_ERR_TABLE_RANGE, "field ops.offset" },
	{ "no ops", DLA_ERR_EMPTY, "field ops.count" },
};

static void mutate_header(unsigned int i, struct tb *t, struct ft *f,
			  unsigned int *n)
{
	switch (i) {
	case 0: t->d->magic ^= 1; break;
	case 1: t->d->version_major++; break;
	case 2: t->d->version_minor = DLA_TASK_VERSION_MINOR + 1; break;
	case 3: t->d->header_size += 4; break;
	case 4: t->d->flags = 0x80000000u; break;
	case 5: t->d->reserved[0] = 1; break;
	case 6: f->list[0].size = sizeof(struct dla_task_desc) - 1; break;
	case 7: *n = 0; break;
	case 8: t->d->num_barriers = DLA_MAX_BARRIERS + 1; break;
	case 9: t->d->barriers_offset = (dla_u32)t->size - 4; break;
	case 10: t->d->barriers_offset = 0xfffffffcu; break;
	case 11:
		t->d->ops[DLA_OP_SHAVE].count = DLA_MAX_OPS_PER_TASK + 1;
		break;
	case 12:
		f->list[0].size = 1ull << 40;
		t->d->ops[DLA_OP_DPU].count = DLA_MAX_OPS_PER_TASK;
		t->d->ops[DLA_OP_SHAVE].count = 1;
		break;
	case 13: t->d->ops[DLA_OP_DMA].offset = (dla_u32)t->size; break;
	case 14:
		t->d->ops[0].count = t->d->ops[1].count = 0;
		t->d->ops[2].count = 0;
		break;
	}
}

/* (4) measure: the descriptor rules, with their codes and messages */
static void test_measure(void)
{
	static unsigned char mem[65536];
	struct ft f;
	struct tb t;
	unsigned int i;
	dla_u32 size;
	void *td;

	ft_init(&f, 1, 1, 1);
	ft_pipeline(&t, mem);
	ft_list(&f, &t, 4, 4096);
	td = handle(&f);
	size = measure(&f, td);
	tap_check(size > sizeof(struct dla_task_desc) && !(size & 7),
		  "measure: base task needs %u bytes", size);
	tap_check(dla_task_measure(NULL, td, &size) == -DLA_ERR_INVAL &&
		  dla_task_measure(dla_user_engine(f.dev), td, NULL) ==
		  -DLA_ERR_INVAL,
		  "measure: no engine / no size: -DLA_ERR_INVAL");
	free(td);

	for (i = 0; i < DLA_ARRAY_SIZE(mcases); i++) {
		unsigned int n = f.n;
		unsigned char *m;
		struct dla_task *task = (void *)1;
		int r, rp;

		ft_pipeline(&t, mem);
		f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t.size,
						   t.buf, 0 };
		mutate_header(i, &t, &f, &n);
		td = dla_user_task_handle(f.list, n);
		size = 12345;
		r = dla_task_measure(dla_user_engine(f.dev), td, &size);
		tap_check(r == -mcases[i].err && size == 12345 &&
			  strstr(dla_user_last_error(), mcases[i].msg),
			  "measure refuses %s: %d (want -%d), '%s'",
			  mcases[i].name, r, mcases[i].err, mcases[i].msg);
		/* prepare checks the same header the same way */
		m = canary_alloc(65536);
		rp = dla_task_prepare(dla_user_engine(f.dev), td, m, 65536,
				      &task);
		tap_check(rp == r && !task &&
			  strstr(dla_user_last_error(), mcases[i].msg),
			  "prepare refuses %s the same way", mcases[i].name);
		free(m);
		free(td);
	}

	/* the largest task the limits allow stays under DLA_TASK_SIZE_MAX */
	for (i = 0; i < DLA_OP_KINDS; i++) {
		ft_pipeline(&t, mem);
		f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, 1ull << 40,
						   t.buf, 0 };
		t.d->ops[0].count = t.d->ops[1].count = t.d->ops[2].count = 0;
		t.d->ops[i].count = DLA_MAX_OPS_PER_TASK;
		t.d->num_barriers = DLA_MAX_BARRIERS;
		td = handle(&f);
		size = measure(&f, td);
		tap_check(size && size <= DLA_TASK_SIZE_MAX,
			  "measure: %u %s ops, %u barriers: %u bytes <= "
			  "DLA_TASK_SIZE_MAX %u", DLA_MAX_OPS_PER_TASK,
			  i == 0 ? "dma" : i == 1 ? "dpu" : "shave",
			  DLA_MAX_BARRIERS, size, DLA_TASK_SIZE_MAX);
		free(td);
	}
	f.list[0].size = t.size;

	/* measure reads the descriptor only: a bad op body measures fine */
	ft_pipeline(&t, mem);
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t.size, t.buf, 0 };
	t.dpu[0].op = VPUX_DPU_OPS;
	t.bar[1].reserved = 1;
	td = handle(&f);
	tap_check(measure(&f, td) > 0,
		  "measure: bad barriers and op bodies are prepare's to find");
	free(td);
	ft_fini(&f);
}

/* One full prepare into a canary buffer; 0 or the error. */
static int prepare_canary(struct ft *f, void *td, dla_u32 *size_out,
			  int *canary)
{
	struct dla_task *task;
	unsigned char *m;
	dla_u32 size = measure(f, td);
	int r;

	if (!size)
		return -1;
	m = canary_alloc(size);
	r = dla_task_prepare(dla_user_engine(f->dev), td, m, size, &task);
	*canary = canary_ok(m, size);
	*size_out = size;
	free(m);
	return r;
}

/* (3) prepare: too small, misaligned, grown after measure, exact size */
static void test_prepare_size(void)
{
	static unsigned char mem[65536];
	struct dla_task_status st;
	struct dla_engine *e;
	struct dla_task *task;
	unsigned char *m;
	struct ft f;
	struct tb t;
	dla_u32 size, size2;
	unsigned int i;
	int r, canary;
	void *td;

	ft_init(&f, 1, 1, 1);
	e = dla_user_engine(f.dev);
	ft_pipeline(&t, mem);
	ft_list(&f, &t, 4, 4096);
	td = handle(&f);
	size = measure(&f, td);
	m = canary_alloc(size);

	task = (void *)1;
	r = dla_task_prepare(e, td, m, size - 1, &task);
	tap_check(r == -DLA_ERR_CHANGED && !task &&
		  strstr(dla_user_last_error(), "descriptor: field size"),
		  "prepare: one byte short of the measure: "
		  "-DLA_ERR_CHANGED (%d)", r);
	tap_check(dla_task_result((struct dla_task *)m, &st) == -DLA_ERR_INVAL,
		  "prepare: the refused memory holds no task");
	tap_check(dla_task_prepare(e, td, m, 8, &task) == -DLA_ERR_INVAL &&
		  dla_task_prepare(e, td, m + 4, size, &task) ==
		  -DLA_ERR_INVAL &&
		  dla_task_prepare(e, td, NULL, size, &task) ==
		  -DLA_ERR_INVAL &&
		  dla_task_prepare(e, td, m, size, NULL) == -DLA_ERR_INVAL &&
		  dla_task_prepare(NULL, td, m, size, &task) == -DLA_ERR_INVAL,
		  "prepare: no room for the header, misaligned, NULL: "
		  "-DLA_ERR_INVAL");
	r = dla_task_prepare(e, td, m, size, &task);
	tap_check(r == 0 && task == (struct dla_task *)m &&
		  canary_ok(m, size),
		  "prepare: exactly the measured size is enough, nothing "
		  "written past it");
	tap_check(!dla_task_result(task, &st) && st.state == DLA_TASK_FREE &&
		  st.ops_total == 4 && st.ops_done == 0 &&
		  dla_task_id(task) == -1,
		  "prepare: a prepared task is FREE, 4 ops, no id");
	/* preparing the same memory again, and failing, leaves no task */
	t.dpu[0].op = VPUX_DPU_OPS;
	tap_check(dla_task_prepare(e, td, m, size, &task) == -DLA_ERR_DPU_OP &&
		  !task && dla_task_start(e, (struct dla_task *)m, 0, 0) ==
		  -DLA_ERR_INVAL,
		  "prepare: a failed prepare over a prepared task leaves "
		  "nothing to start");
	free(m);
	free(td);

	/* the descriptor grows between measure and prepare */
	tb_init(&t, mem, 5, 1, 0, 0);
	tb_copy(&t.dma[0], tb_ref(1, 0, 64), tb_ref(2, 0, 64), 64);
	tb_update(&t, &t.dma[0].deps, 0);
	t.d->num_barriers = 1;
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t.size, t.buf, 0 };
	td = handle(&f);
	size = measure(&f, td);
	t.d->num_barriers = 5;	/* four more barriers, none used: valid */
	m = canary_alloc(size);
	r = dla_task_prepare(e, td, m, size, &task);
	tap_check(r == -DLA_ERR_CHANGED && canary_ok(m, size),
		  "prepare: descriptor grew after measure: -DLA_ERR_CHANGED, "
		  "nothing written past the memory");
	free(m);
	size2 = measure(&f, td);
	m = canary_alloc(size2);
	r = dla_task_prepare(e, td, m, size2, &task);
	tap_check(size2 > size && r == 0 && canary_ok(m, size2),
		  "prepare: measured again (%u > %u bytes), it prepares", size2,
		  size);
	free(m);
	free(td);

	/*
	 * The bounds of the edge arrays, 8 waits and 8 updates for every
	 * op: op i waits on barriers 8i..8i+7 and updates 8i+8..8i+15
	 * (0..7 have no producer, 32..39 no consumer).
	 */
	tb_init(&t, mem, 40, 4, 0, 0);
	for (i = 0; i < 4; i++) {
		unsigned int b;

		tb_copy(&t.dma[i], tb_ref(1, 0, 64), tb_ref(2, 64 * i, 64), 64);
		for (b = 0; b < 8; b++) {
			tb_wait(&t, &t.dma[i].deps, 8 * i + b);
			tb_update(&t, &t.dma[i].deps, 8 * i + 8 + b);
		}
	}
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t.size, t.buf, 0 };
	td = handle(&f);
	r = prepare_canary(&f, td, &size, &canary);
	tap_check(r == 0 && canary,
		  "prepare: 8 waits and 8 updates per op fit the measure (%u "
		  "bytes)", size);
	/* consumer counts the ops cannot fill: refused, nothing overrun */
	t.bar[39].consumer_count = 0xffff;
	r = prepare_canary(&f, td, &size, &canary);
	tap_check(r == -DLA_ERR_TOO_MANY_DEPS && canary,
		  "prepare: consumer counts above the limit refused in bounds");
	t.bar[39].consumer_count = 1;
	r = prepare_canary(&f, td, &size, &canary);
	tap_check(r == -DLA_ERR_CONSUMER_COUNT && canary &&
		  strstr(dla_user_last_error(), "barrier 39: field "
			 "consumer_count"),
		  "prepare: consumer counts above 8 per op refused in bounds");
	free(td);
	ft_fini(&f);
}

/* Start @task, run it to the end, collect its status; the log in @log. */
static int run_task(struct ft *f, struct dla_task *task,
		    struct fake_start *log, struct dla_task_status *st)
{
	int id;

	f->hw.log = log;
	f->hw.log_cap = LOG_CAP;
	f->hw.n_log = 0;
	memset(log, 0, LOG_CAP * sizeof(*log));
	id = dla_task_start(dla_user_engine(f->dev), task, 1, 2);
	fake_hw_run(&f->hw);
	dla_task_result(task, st);
	f->hw.log = NULL;
	return id;
}

static int same_result(const struct dla_task_status *a,
		       const struct dla_task_status *b)
{
	return a->state == b->state && a->error == b->error &&
	       a->ops_total == b->ops_total && a->ops_done == b->ops_done &&
	       a->op_cycles == b->op_cycles &&
	       a->device_cycles == b->device_cycles;
}

static int same_cycles(struct dla_task *a, const dla_u32 *ref)
{
	dla_u32 count[DLA_OP_KINDS], c[8];
	int n = dla_task_op_cycles(a, count, c, 8);

	return n == 4 && !memcmp(c, ref, 4 * sizeof(*c));
}

/* (1) started, cleared, started again: the same run */
static void test_restart(void)
{
	static unsigned char mem[65536];
	struct dla_task_status ref, st;
	dla_u32 count[DLA_OP_KINDS], cyc[8];
	unsigned int ref_n, i;
	struct dla_engine *e;
	struct dla_task *task;
	unsigned char *m, out[512];
	struct ft f;
	struct tb t;
	dla_u32 size;
	int id, ok;
	void *td;

	ft_init(&f, 1, 1, 1);
	e = dla_user_engine(f.dev);
	ft_pipeline(&t, mem);
	ft_list(&f, &t, 4, 4096);
	for (i = 0; i < 512; i++)
		ft_buf(&f, 1)[i] = (unsigned char)(i * 13 + 5);
	td = handle(&f);
	size = measure(&f, td);
	m = aligned_alloc(8, size);
	dla_task_prepare(e, td, m, size, &task);

	id = run_task(&f, task, ref_log, &ref);
	ref_n = f.hw.n_log;
	memcpy(out, ft_buf(&f, 4), sizeof(out));
	dla_task_op_cycles(task, count, cyc, 8);
	tap_check(id >= 0 && ref.state == DLA_TASK_DONE && ref.ops_done == 4 &&
		  ref_n == 4 && dla_task_id(task) == id,
		  "restart: first run DONE, 4 descriptors, id %d", id);
	tap_check(dla_task_start(e, task, 1, 2) == -DLA_ERR_RUNNING,
		  "restart: a started task cannot be started twice");
	tap_check(dla_clear_task(e, (dla_u32)id) == 0 &&
		  dla_task_id(task) == -1 &&
		  dla_clear_task(e, (dla_u32)id) == -DLA_ERR_NOENT,
		  "restart: cleared, no id, its slot free");
	tap_check(!dla_task_result(task, &st) && same_result(&st, &ref) &&
		  same_cycles(task, cyc),
		  "restart: status and op cycles readable after the clear");

	memset(ft_buf(&f, 4), 0, 4096);
	id = run_task(&f, task, run_log, &st);
	tap_check(id >= 0 && same_result(&st, &ref) && same_cycles(task, cyc),
		  "restart: second run: same status, op cycles, device cycles "
		  "(%llu)", (unsigned long long)st.device_cycles);
	tap_check(f.hw.n_log == ref_n &&
		  !memcmp(run_log, ref_log, ref_n * sizeof(ref_log[0])) &&
		  !memcmp(out, ft_buf(&f, 4), sizeof(out)),
		  "restart: second run: the same descriptors, in the same "
		  "order, on the same engines; the same output");
	dla_clear_task(e, (dla_u32)id);

	/* after a failure halfway: the counters it left are rewound */
	f.hw.log = run_log;
	f.hw.n_log = 0;
	id = dla_task_start(e, task, 1, 2);
	fake_hw_step(&f.hw);			/* dma0 done */
	fake_hw_inject(&f.hw, 1, FAKE_ERROR, VPUX_ENG_ERR_DESC);
	fake_hw_run(&f.hw);
	dla_task_result(task, &st);
	tap_check(st.state == DLA_TASK_FAILED && st.error == -DLA_ERR_ENGINE &&
		  st.ops_done == 1, "restart: a run fails at dpu op 0");
	dla_clear_task(e, (dla_u32)id);
	id = run_task(&f, task, run_log, &st);
	tap_check(id >= 0 && same_result(&st, &ref) && same_cycles(task, cyc) &&
		  f.hw.n_log == ref_n &&
		  !memcmp(run_log, ref_log, ref_n * sizeof(ref_log[0])),
		  "restart: after the failure the next run is the first one "
		  "again");
	dla_clear_task(e, (dla_u32)id);

	/* after an abort while running */
	id = dla_task_start(e, task, 1, 2);
	fake_hw_step(&f.hw);
	tap_check(dla_clear_task(e, (dla_u32)id) == 0 &&
		  !dla_task_result(task, &st) &&
		  st.state == DLA_TASK_FAILED && st.error == -DLA_ERR_ABORTED,
		  "restart: aborted by the clear: FAILED, -DLA_ERR_ABORTED");
	fake_hw_run(&f.hw);		/* the aborted op's stale interrupt */
	id = run_task(&f, task, run_log, &st);
	ok = id >= 0 && same_result(&st, &ref) && same_cycles(task, cyc) &&
	     f.hw.n_log == ref_n;
	for (i = 0; ok && i < ref_n; i++)
		ok = !memcmp(run_log[i].param, ref_log[i].param,
			     sizeof(run_log[i].param));
	tap_check(ok, "restart: after the abort the next run is the first one "
		  "again");
	dla_clear_task(e, (dla_u32)id);

	/* another engine instance does not take it */
	{
		struct ft g;

		ft_init(&g, 1, 1, 1);
		tap_check(dla_task_start(dla_user_engine(g.dev), task, 0, 0) ==
			  -DLA_ERR_INVAL,
			  "restart: a task prepared for one device does not "
			  "start on another");
		ft_fini(&g);
	}
	free(m);
	free(td);
	ft_fini(&f);
}

/* (2) task memory rewritten after prepare changes nothing that runs */
static void test_rewrite(void)
{
	static unsigned char mem[65536];
	struct dla_task_status ref, st;
	unsigned int ref_n, pass;
	struct dla_engine *e;
	struct dla_task *task;
	unsigned char *m;
	struct ft f;
	struct tb t;
	dla_u32 size;
	int id, h;
	void *td;

	ft_init(&f, 1, 1, 1);
	e = dla_user_engine(f.dev);
	ft_pipeline(&t, mem);
	ft_list(&f, &t, 4, 4096);
	td = handle(&f);
	size = measure(&f, td);
	m = aligned_alloc(8, size);
	dla_task_prepare(e, td, m, size, &task);
	id = run_task(&f, task, ref_log, &ref);
	ref_n = f.hw.n_log;
	dla_clear_task(e, (dla_u32)id);
	free(m);

	for (pass = 0; pass < 2; pass++) {
		ft_pipeline(&t, mem);
		m = aligned_alloc(8, size);
		dla_task_prepare(e, td, m, size, &task);
		if (pass == 0) {
			/* plausible edits: other buffers, sizes, lists */
			t.dma[0].src = tb_ref(2, 128, 256);
			t.dma[0].len = 256;
			t.dpu[0].in.size = 4;
			t.dpu[0].out = tb_ref(3, 0, 512);
			t.shave[0].kernel_id = 7;
			t.shave[0].windows[0] = tb_ref(1, 0, 16);
			t.dma[1].deps.num_waits = 0;
			t.bar[2].consumer_count = 0;
		} else {
			memset(mem, 0xff, t.size);	/* garbage */
		}
		id = run_task(&f, task, run_log, &st);
		tap_check(id >= 0 && same_result(&st, &ref) &&
			  f.hw.n_log == ref_n &&
			  !memcmp(run_log, ref_log, ref_n * sizeof(ref_log[0])),
			  "rewrite: task memory %s after prepare: the same "
			  "descriptors run, DONE",
			  pass ? "filled with 0xff" : "edited");
		dla_clear_task(e, (dla_u32)id);
		free(m);
	}

	/* the same through the port: submit, then scribble, then run */
	ft_pipeline(&t, mem);
	f.hw.log = run_log;
	f.hw.log_cap = LOG_CAP;
	f.hw.n_log = 0;
	h = dla_user_submit(f.dev, f.list, f.n, 1, 2);
	memset(mem, 0, t.size);
	fake_hw_run(&f.hw);
	st = ft_status(&f, h);
	tap_check(h >= 0 && same_result(&st, &ref) && f.hw.n_log == ref_n &&
		  !memcmp(run_log, ref_log, ref_n * sizeof(ref_log[0])),
		  "rewrite: through dla_user_submit(): task memory zeroed "
		  "after submit, the same descriptors run");
	f.hw.log = NULL;
	dla_user_release(f.dev, h);
	free(td);
	ft_fini(&f);
}

int main(void)
{
	setenv("DLA_LOG", "0", 0);
	test_measure();
	test_prepare_size();
	test_restart();
	test_rewrite();
	return tap_finish();
}
