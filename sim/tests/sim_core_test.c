// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The engine core (firmware/) on the NPU model through the host port, an
 * integration test of both (the model's extras: vpux_sim_host.h): a DMA -> DPU conv -> SHAVE clamp -> DMA pipeline compared with
 * the CPU references, an MMU fault from an unmapped buffer, injected hang
 * and dropped interrupt, and several prioritised tasks in flight on the
 * threaded device (worker + interrupt + bottom-half threads); random and
 * edge-case DPU ops: whatever the core accepts, the DPU runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dla_user_priv.h"
#include "dla_priv.h"
#include "task_builder.h"
#include "plan_builder.h"
#include "vpux_ops.h"
#include "vpux_shave_abi.h"
#include "vpux_sim_host.h"
#include "vpux_tap.h"

struct mdev {
	struct vpux_host_dev *hw;
	struct vpux_host_vm *vm;
	struct dla_user_dev *dev;
	uint64_t next_va;
	int step;
};

struct mbuf {
	uint64_t pa, va;
	size_t size;
	void *cpu;
};

static int mdev_open_cfg(struct mdev *m, int step,
			 const struct vpux_sim_config *cfg)
{
	memset(m, 0, sizeof(*m));
	m->step = step;
	m->hw = vpux_host_dev_create_cfg(cfg, 32u << 20, step);
	if (!m->hw)
		return 0;
	m->vm = vpux_host_vm_create(m->hw, 0);
	m->dev = dla_user_create_host(m->hw, step ? DLA_USER_INLINE_BH : 0);
	m->next_va = VPUX_DEFAULT_VA_BASE;
	return m->vm && m->dev;
}

static int mdev_open(struct mdev *m, int step)
{
	return mdev_open_cfg(m, step, NULL);
}

static void mdev_close(struct mdev *m)
{
	dla_user_destroy(m->dev);
	vpux_host_vm_destroy(m->vm);
	vpux_host_dev_destroy(m->hw);
}

/* Allocate and (unless @unmapped) map a buffer; a guard page follows. */
static void mbuf_alloc(struct mdev *m, struct mbuf *b, size_t size,
		       int unmapped)
{
	size = (size + VPUX_PAGE_SIZE - 1) & ~(size_t)(VPUX_PAGE_SIZE - 1);
	if (vpux_host_phys_alloc(m->hw, size, &b->pa)) {
		fprintf(stderr, "arena exhausted\n");
		exit(2);
	}
	b->size = size;
	b->va = m->next_va;
	m->next_va += size + VPUX_PAGE_SIZE;
	b->cpu = vpux_host_phys_ptr(m->hw, b->pa, size);
	if (!unmapped && vpux_host_vm_map(m->vm, b->va, b->pa, size, true)) {
		fprintf(stderr, "map failed\n");
		exit(2);
	}
}

static struct dla_user_buf mbuf_entry(const struct mbuf *b)
{
	return (struct dla_user_buf){ b->va, b->size, b->cpu, 0 };
}

static void run_steps(struct mdev *m)
{
	while (vpux_host_dev_step(m->hw))
		;
}

static struct dla_task_status mstatus(struct mdev *m, int h)
{
	struct dla_task_status st;

	memset(&st, 0, sizeof(st));
	dla_user_status(m->dev, h, &st);
	return st;
}

/* ---- the pipeline ---- */

#define C 8
#define H 8
#define W 8
#define OC 16
#define IN_BYTES (H * W * C)
#define W_BYTES (OC * 3 * 3 * C)
#define OUT_BYTES (H * W * OC)
#define CLAMP_LO (-20)
#define CLAMP_HI 50

static void memref_hwc(struct vpux_memref *r, uint32_t waddr)
{
	memset(r, 0, sizeof(*r));
	r->addr = waddr;
	r->is_static = 1;
	r->rank = 3;
	r->data_type = VPUX_SHAVE_DT_I8;
	r->dims_order = VPUX_ORDER_HWC;
	/* logical dims C, H, W (CHW numbering); memory order HWC */
	r->dims[0] = OC;
	r->dims[1] = H;
	r->dims[2] = W;
	r->strides[0] = 8;
	r->strides[1] = 8ull * W * OC;
	r->strides[2] = 8ull * OC;
}

/*
 * list: 0 task, 1 input, 2 weights, 3 shave args, 4 output
 * dma0: in -> cmx0[0]        dma1: weights -> cmx0[IN]     (update b0)
 * dpu0: conv cmx0 -> cmx1[0]                  (wait b0, update b1)
 * shave0: clamp cmx1[0] -> cmx1[OUT] (window 0 = tile 1)
 *                                               (wait b1, update b2)
 * dma2: cmx1[OUT] -> out                       (wait b2)
 */
static void build_pipeline(struct tb *t, struct mbuf *args)
{
	struct vpux_shave_clamp_args ca;
	struct dla_dpu_op *d;

	tb_init(t, NULL, 3, 3, 1, 1);
	tb_copy(&t->dma[0], tb_ref(1, 0, IN_BYTES), tb_cmx(0, 0, IN_BYTES),
		IN_BYTES);
	tb_update(t, &t->dma[0].deps, 0);
	tb_copy(&t->dma[1], tb_ref(2, 0, W_BYTES),
		tb_cmx(0, IN_BYTES, W_BYTES), W_BYTES);
	tb_update(t, &t->dma[1].deps, 0);
	d = &t->dpu[0];
	d->op = VPUX_DPU_OP_CONV;
	d->flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED |
		   VPUX_DPU_F_OUT_SIGNED;
	d->in_c = C, d->in_h = H, d->in_w = W;
	d->out_c = OC, d->out_h = H, d->out_w = W;
	d->kernel_h = d->kernel_w = 3;
	d->stride_h = d->stride_w = 1;
	d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = 1;
	d->dilation_h = d->dilation_w = 1;
	d->groups = 1;
	d->act_min = -128;
	d->act_max = 127;
	d->requant.mult = 1 << 30;
	d->requant.shift = 9;
	d->in = tb_cmx(0, 0, IN_BYTES);
	d->in2 = tb_cmx(0, IN_BYTES, W_BYTES);
	d->out = tb_cmx(1, 0, OUT_BYTES);
	tb_wait(t, &d->deps, 0);
	tb_update(t, &d->deps, 1);

	memref_hwc(&ca.in, VPUX_WADDR(0, 0));
	memref_hwc(&ca.out, VPUX_WADDR(0, OUT_BYTES));
	ca.min = CLAMP_LO;
	ca.max = CLAMP_HI;
	memcpy(args->cpu, &ca, sizeof(ca));
	t->shave[0].kernel_id = VPUX_SHAVE_KERNEL_CLAMP;
	t->shave[0].args = tb_ref(3, 0, sizeof(ca));
	t->shave[0].windows[0] = tb_cmx(1, 0, 2 * OUT_BYTES);
	tb_wait(t, &t->shave[0].deps, 1);
	tb_update(t, &t->shave[0].deps, 2);

	tb_copy(&t->dma[2], tb_cmx(1, OUT_BYTES, OUT_BYTES),
		tb_ref(4, 0, OUT_BYTES), OUT_BYTES);
	tb_wait(t, &t->dma[2].deps, 2);
}

static int check_pipeline(struct tb *t, struct mbuf *in, struct mbuf *w,
			  struct mbuf *out)
{
	struct vpux_hw_dpu_desc hd;
	struct vpux_dpu_operands o;
	const struct dla_dpu_op *d = &t->dpu[0];
	int8_t ref[OUT_BYTES];
	int i, bad = 0, lo = 0, hi = 0, mid = 0;

	memset(&hd, 0, sizeof(hd));
	hd.op = d->op;
	hd.flags = d->flags;
	hd.in_c = d->in_c, hd.in_h = d->in_h, hd.in_w = d->in_w;
	hd.out_c = d->out_c, hd.out_h = d->out_h, hd.out_w = d->out_w;
	hd.kernel_h = d->kernel_h, hd.kernel_w = d->kernel_w;
	hd.stride_h = d->stride_h, hd.stride_w = d->stride_w;
	hd.pad_top = d->pad_top, hd.pad_left = d->pad_left;
	hd.pad_bottom = d->pad_bottom, hd.pad_right = d->pad_right;
	hd.dilation_h = d->dilation_h, hd.dilation_w = d->dilation_w;
	hd.groups = d->groups;
	hd.act_min = d->act_min, hd.act_max = d->act_max;
	hd.requant.mult = d->requant.mult;
	hd.requant.shift = d->requant.shift;
	memset(&o, 0, sizeof(o));
	o.in = in->cpu;
	o.in2 = w->cpu;
	o.out = ref;
	if (vpux_ref_dpu_run(&hd, &o))
		return -1;
	for (i = 0; i < OUT_BYTES; i++) {
		int v = ref[i] < CLAMP_LO ? CLAMP_LO :
			ref[i] > CLAMP_HI ? CLAMP_HI : ref[i];

		bad += ((int8_t *)out->cpu)[i] != v;
		lo += v == CLAMP_LO;
		hi += v == CLAMP_HI;
		mid += v > CLAMP_LO && v < CLAMP_HI;
	}
	/* a meaningful comparison: both clamps and the middle are hit */
	if (!lo || !hi || mid < OUT_BYTES / 8)
		return -2;
	return bad;
}

static void fill(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;

	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*b++ = (unsigned char)(seed >> 16);
	}
}

static void test_pipeline(struct mdev *m, const char *mode)
{
	struct mbuf in, w, args, out;
	struct dla_user_buf list[5];
	struct dla_task_status st;
	struct tb t;
	uint32_t cyc[3] = { 0, 0, 0 };
	int h, bad;

	mbuf_alloc(m, &in, IN_BYTES, 0);
	mbuf_alloc(m, &w, W_BYTES, 0);
	mbuf_alloc(m, &args, 4096, 0);
	mbuf_alloc(m, &out, OUT_BYTES, 0);
	fill(in.cpu, IN_BYTES, 1);
	fill(w.cpu, W_BYTES, 2);
	build_pipeline(&t, &args);
	list[0] = (struct dla_user_buf){ 0, t.size, t.buf, 0 };
	list[1] = mbuf_entry(&in);
	list[2] = mbuf_entry(&w);
	list[3] = mbuf_entry(&args);
	list[4] = mbuf_entry(&out);
	h = dla_user_submit(m->dev, list, 5, 0, 1);
	tap_check(h >= 0, "%s pipeline: submitted (%d)", mode, h);
	if (m->step)
		run_steps(m);
	tap_check(dla_user_wait(m->dev, h, 5000) == 0, "%s pipeline: finished",
		  mode);
	st = mstatus(m, h);
	tap_check(st.state == DLA_TASK_DONE && st.ops_done == 5,
		  "%s pipeline: done, 5 ops (state %u error %d)", mode,
		  st.state, st.error);
	bad = check_pipeline(&t, &in, &w, &out);
	tap_check(bad == 0,
		  "%s pipeline: output == clamp(reference conv) (%d differ)",
		  mode, bad);
	dla_user_op_cycles(m->dev, h, DLA_OP_DMA, 0, &cyc[0]);
	dla_user_op_cycles(m->dev, h, DLA_OP_DPU, 0, &cyc[1]);
	dla_user_op_cycles(m->dev, h, DLA_OP_SHAVE, 0, &cyc[2]);
	tap_check(cyc[0] && cyc[1] && cyc[2] && st.device_cycles &&
		  st.op_cycles >= (uint64_t)cyc[0] + cyc[1] + cyc[2],
		  "%s pipeline: cycles dma0 %u dpu0 %u shave0 %u, task %llu "
		  "(device %llu)", mode, cyc[0], cyc[1], cyc[2],
		  (unsigned long long)st.op_cycles,
		  (unsigned long long)st.device_cycles);
	dla_user_release(m->dev, h);
	free(t.buf);
}

/* one DMA of @len bytes from @src to @dst */
static int submit_copy(struct mdev *m, struct tb *t, struct mbuf *src,
		       struct mbuf *dst, unsigned int prio)
{
	struct dla_user_buf list[3];

	tb_init(t, NULL, 0, 1, 0, 0);
	tb_copy(&t->dma[0], tb_ref(1, 0, 4096), tb_ref(2, 0, 4096), 4096);
	list[0] = (struct dla_user_buf){ 0, t->size, t->buf, 0 };
	list[1] = mbuf_entry(src);
	list[2] = mbuf_entry(dst);
	return dla_user_submit(m->dev, list, 3, 0, prio);
}

static void test_faults(struct mdev *m)
{
	struct mbuf a, b, hole;
	struct dla_task_status st;
	struct tb t;
	int h;

	mbuf_alloc(m, &a, 4096, 0);
	mbuf_alloc(m, &b, 4096, 0);
	mbuf_alloc(m, &hole, 4096, 1);
	fill(a.cpu, 4096, 3);

	h = submit_copy(m, &t, &a, &hole, 0);
	run_steps(m);
	st = mstatus(m, h);
	tap_check(st.state == DLA_TASK_FAILED &&
		  st.error == -DLA_ERR_MMU_FAULT && st.fail_kind == DLA_OP_DMA &&
		  st.fault_addr >= hole.va && st.fault_addr < hole.va + 4096,
		  "model: DMA to an unmapped buffer fails the task with an MMU "
		  "fault at 0x%llx", (unsigned long long)st.fault_addr);
	dla_user_release(m->dev, h);
	free(t.buf);

	h = submit_copy(m, &t, &a, &b, 0);
	run_steps(m);
	tap_check(mstatus(m, h).state == DLA_TASK_DONE &&
		  !memcmp(a.cpu, b.cpu, 4096),
		  "model: after the fault the next task copies correctly");
	dla_user_release(m->dev, h);
	free(t.buf);

	/* hang: the op never completes; release aborts it */
	vpux_host_reg_write(m->hw, VPUX_REG_INJECT,
			    0 << VPUX_INJECT_ENGINE_SHIFT |
			    VPUX_INJECT_HANG << VPUX_INJECT_KIND_SHIFT |
			    1u << VPUX_INJECT_COUNT_SHIFT);
	h = submit_copy(m, &t, &a, &b, 0);
	run_steps(m);
	tap_check(mstatus(m, h).state == DLA_TASK_RUNNING &&
		  dla_user_wait(m->dev, h, 10) == -DLA_ERR_RUNNING,
		  "model: hung engine, wait times out");
	tap_check(dla_user_release(m->dev, h) == 0 &&
		  (vpux_host_reg_read(m->hw, VPUX_REG_ENGINE(0) +
				      VPUX_ENG_STATUS) &
		   VPUX_ENG_STATE_MASK) != VPUX_ENG_STATE_BUSY,
		  "model: release aborts the hung op");
	free(t.buf);
	memset(b.cpu, 0, 4096);
	h = submit_copy(m, &t, &a, &b, 0);
	run_steps(m);
	tap_check(mstatus(m, h).state == DLA_TASK_DONE &&
		  !memcmp(a.cpu, b.cpu, 4096),
		  "model: after the hang the next task runs");
	dla_user_release(m->dev, h);
	free(t.buf);

	/* dropped interrupt: recovered by the poll */
	vpux_host_reg_write(m->hw, VPUX_REG_INJECT,
			    0 << VPUX_INJECT_ENGINE_SHIFT |
			    VPUX_INJECT_DROP_IRQ << VPUX_INJECT_KIND_SHIFT |
			    1u << VPUX_INJECT_COUNT_SHIFT);
	h = submit_copy(m, &t, &a, &b, 0);
	run_steps(m);
	tap_check(mstatus(m, h).state == DLA_TASK_RUNNING,
		  "model: dropped IRQ leaves the task running");
	tap_check(dla_user_poll(m->dev) == 1 &&
		  mstatus(m, h).state == DLA_TASK_DONE,
		  "model: the poll completes it");
	dla_user_release(m->dev, h);
	free(t.buf);
}

/*
 * More tasks than the core has slots: the port queues them (by priority)
 * and starts each when a slot frees; a bad task is refused at submit
 * whether it would have to queue or not (it is validated there). Step
 * mode, so the core's slots stay busy until the test steps the model.
 */
#define Q_TASKS (DLA_MAX_TASKS + 4)

static int submit_short(struct mdev *m, struct tb *t, struct mbuf *src)
{
	struct dla_user_buf list[2];

	/* names address-list entry 2 of a 2-entry list */
	tb_init(t, NULL, 0, 1, 0, 0);
	tb_copy(&t->dma[0], tb_ref(1, 0, 4096), tb_ref(2, 0, 4096), 4096);
	list[0] = (struct dla_user_buf){ 0, t->size, t->buf, 0 };
	list[1] = mbuf_entry(src);
	return dla_user_submit(m->dev, list, 2, 0, 0);
}

static void test_queue(struct mdev *m)
{
	struct mbuf src[Q_TASKS], dst[Q_TASKS];
	struct tb t[Q_TASKS + 1];
	struct dla_task_status st;
	int h[Q_TASKS], bad, refused, ok = 1, data = 1;
	unsigned int i;
	uint32_t c = 0;

	for (i = 0; i < Q_TASKS; i++) {
		mbuf_alloc(m, &src[i], 4096, 0);
		mbuf_alloc(m, &dst[i], 4096, 0);
		fill(src[i].cpu, 4096, 40 + i);
		memset(dst[i].cpu, 0, 4096);
	}
	refused = submit_short(m, &t[Q_TASKS], &src[0]);
	free(t[Q_TASKS].buf);
	tap_check(refused < 0, "queue: a bad task is refused at once while the core has room (%d)",
		  refused);
	for (i = 0; i < Q_TASKS; i++) {
		h[i] = submit_copy(m, &t[i], &src[i], &dst[i], 0);
		ok &= h[i] >= 0;
	}
	st = mstatus(m, h[DLA_MAX_TASKS]);
	tap_check(ok && st.state == DLA_TASK_RUNNING && !st.ops_total &&
		  mstatus(m, h[0]).ops_total == 1,
		  "queue: %u tasks accepted with %u core slots; task %u waits in the port",
		  Q_TASKS, DLA_MAX_TASKS, DLA_MAX_TASKS + 1);
	bad = submit_short(m, &t[Q_TASKS], &src[0]);
	free(t[Q_TASKS].buf);
	tap_check(bad == refused,
		  "queue: behind a queue too, the bad task is refused at once "
		  "(validated at submit, %d)", bad);
	tap_check(dla_user_release(m->dev, h[DLA_MAX_TASKS + 1]) == 0 &&
		  dla_user_status(m->dev, h[DLA_MAX_TASKS + 1], &st) ==
		  -DLA_ERR_NOENT,
		  "queue: a queued task is released without running");
	run_steps(m);
	for (i = 0; i < Q_TASKS; i++) {
		if (i == DLA_MAX_TASKS + 1)
			continue;
		st = mstatus(m, h[i]);
		ok &= dla_user_wait(m->dev, h[i], 0) == 0 &&
		      st.state == DLA_TASK_DONE && st.ops_done == 1;
		data &= !memcmp(src[i].cpu, dst[i].cpu, 4096);
	}
	tap_check(ok && data, "queue: the other %u tasks ran, every copy right",
		  Q_TASKS - 1);
	for (i = 0, data = 1; i < 4096; i++)
		data &= !((unsigned char *)dst[DLA_MAX_TASKS + 1].cpu)[i];
	tap_check(data, "queue: the released task's destination untouched");
	/* results of tasks the port retired to free core slots */
	tap_check(dla_user_op_cycles(m->dev, h[0], DLA_OP_DMA, 0, &c) == 0 &&
		  c > 0 &&
		  dla_user_op_cycles(m->dev, h[0], DLA_OP_DMA, 1, &c) ==
		  -DLA_ERR_INVAL && mstatus(m, h[0]).device_cycles > 0,
		  "queue: a retired task keeps its status and op cycles");
	for (i = 0; i < Q_TASKS; i++) {
		dla_user_release(m->dev, h[i]);
		free(t[i].buf);
	}

	/* a high-priority task overtakes queued low-priority ones */
	for (i = 0; i < DLA_MAX_TASKS + 2; i++) {
		h[i] = submit_copy(m, &t[i], &src[i], &dst[i],
				   i == DLA_MAX_TASKS + 1 ? DLA_PRIO_LEVELS - 1 : 0);
	}
	vpux_host_dev_step(m->hw);
	tap_check(mstatus(m, h[DLA_MAX_TASKS + 1]).ops_total == 1 &&
		  !mstatus(m, h[DLA_MAX_TASKS]).ops_total,
		  "queue: the first free slot goes to the high-priority task");
	run_steps(m);
	for (i = 0; i < DLA_MAX_TASKS + 2; i++) {
		ok &= mstatus(m, h[i]).state == DLA_TASK_DONE;
		dla_user_release(m->dev, h[i]);
		free(t[i].buf);
	}
	tap_check(ok, "queue: then all of them ran");
}

static void test_threaded_many(void)
{
	struct mdev m;
	struct mbuf src[DLA_MAX_TASKS], dst[DLA_MAX_TASKS];
	struct tb t[DLA_MAX_TASKS];
	int h[DLA_MAX_TASKS], ok = 1;
	unsigned int i, round;

	if (!mdev_open(&m, 0)) {
		tap_check(0, "threaded device created");
		return;
	}
	for (i = 0; i < DLA_MAX_TASKS; i++) {
		mbuf_alloc(&m, &src[i], 4096, 0);
		mbuf_alloc(&m, &dst[i], 4096, 0);
	}
	for (round = 0; round < 20; round++) {
		for (i = 0; i < DLA_MAX_TASKS; i++) {
			fill(src[i].cpu, 4096, round * 100 + i);
			memset(dst[i].cpu, 0, 4096);
			h[i] = submit_copy(&m, &t[i], &src[i], &dst[i],
					   i % DLA_PRIO_LEVELS);
			ok &= h[i] >= 0;
		}
		for (i = 0; i < DLA_MAX_TASKS; i++) {
			ok &= dla_user_wait(m.dev, h[i], 5000) == 0;
			ok &= mstatus(&m, h[i]).state == DLA_TASK_DONE;
			ok &= !memcmp(src[i].cpu, dst[i].cpu, 4096);
			dla_user_release(m.dev, h[i]);
			free(t[i].buf);
		}
	}
	tap_check(ok, "threaded: 20 rounds of %u tasks in flight, all copied",
		  DLA_MAX_TASKS);

	/* a lost interrupt is found by the bottom half's watchdog */
	vpux_host_reg_write(m.hw, VPUX_REG_INJECT,
			    0 << VPUX_INJECT_ENGINE_SHIFT |
			    VPUX_INJECT_DROP_IRQ << VPUX_INJECT_KIND_SHIFT |
			    1u << VPUX_INJECT_COUNT_SHIFT);
	memset(dst[0].cpu, 0, 4096);
	h[0] = submit_copy(&m, &t[0], &src[0], &dst[0], 0);
	tap_check(dla_user_wait(m.dev, h[0], 5000) == 0 &&
		  mstatus(&m, h[0]).state == DLA_TASK_DONE &&
		  !memcmp(src[0].cpu, dst[0].cpu, 4096) &&
		  vpux_host_reg_read(m.hw, VPUX_REG_INJECT) == 0,
		  "threaded: dropped IRQ recovered by the watchdog");
	dla_user_release(m.dev, h[0]);
	free(t[0].buf);
	test_pipeline(&m, "threaded");
	mdev_close(&m);
}

/*
 * Per-workload barriers on the model: a 1x1 convolution split into 4
 * workloads of 4 rows, each followed by a SHAVE clamp of its rows, on one
 * DPU and one SHAVE engine. With one barrier per workload each clamp
 * starts as soon as its rows are done and overlaps the next workload;
 * with one layer barrier all clamps wait for the whole convolution.
 */
#define OV_ROWS 16
#define OV_WL 4
#define OV_C 32
#define OV_W 16
#define OV_ROW_BYTES (OV_W * OV_C)

static uint64_t run_overlap(int per_workload, int *bad)
{
	struct vpux_sim_config cfg;
	struct vpux_shave_clamp_args ca;
	struct dla_user_buf list[5];
	struct mbuf in, w, args, out;
	struct mdev m;
	struct tb t;
	unsigned int k, rows = OV_ROWS / OV_WL, i;
	uint64_t cyc;
	int h;

	vpux_sim_default_config(&cfg);
	cfg.n_dma = cfg.n_dpu = cfg.n_shave = 1;
	if (!mdev_open_cfg(&m, 1, &cfg))
		return 0;
	mbuf_alloc(&m, &in, OV_ROWS * OV_ROW_BYTES, 0);
	mbuf_alloc(&m, &w, OV_C * OV_C, 0);
	mbuf_alloc(&m, &args, 4096, 0);
	mbuf_alloc(&m, &out, OV_ROWS * OV_ROW_BYTES, 0);
	fill(in.cpu, OV_ROWS * OV_ROW_BYTES, 7);
	fill(w.cpu, OV_C * OV_C, 8);
	tb_init(&t, NULL, per_workload ? OV_WL : 1, 0, OV_WL, OV_WL);
	for (k = 0; k < OV_WL; k++) {
		struct dla_dpu_op *d = &t.dpu[k];
		unsigned int off = k * rows * OV_ROW_BYTES;

		d->op = VPUX_DPU_OP_CONV;
		d->flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED |
			   VPUX_DPU_F_OUT_SIGNED;
		d->in_c = d->out_c = OV_C;
		d->in_h = d->out_h = rows;
		d->in_w = d->out_w = OV_W;
		d->kernel_h = d->kernel_w = 1;
		d->stride_h = d->stride_w = 1;
		d->dilation_h = d->dilation_w = 1;
		d->groups = 1;
		d->act_min = -128;
		d->act_max = 127;
		d->requant.mult = 1 << 30;
		d->requant.shift = 9;
		d->in = tb_ref(1, off, rows * OV_ROW_BYTES);
		d->in2 = tb_ref(2, 0, OV_C * OV_C);
		d->out = tb_cmx(0, off, rows * OV_ROW_BYTES);
		tb_update(&t, &d->deps, per_workload ? k : 0);

		memset(&ca, 0, sizeof(ca));
		for (i = 0; i < 2; i++) {
			struct vpux_memref *r = i ? &ca.out : &ca.in;

			r->addr = i ? VPUX_WADDR(1, 0) : VPUX_WADDR(0, 0);
			r->is_static = 1;
			r->rank = 1;
			r->data_type = VPUX_SHAVE_DT_I8;
			r->dims_order = 0x1;
			r->dims[0] = rows * OV_ROW_BYTES;
			r->strides[0] = 8;
		}
		ca.min = CLAMP_LO;
		ca.max = CLAMP_HI;
		memcpy((char *)args.cpu + k * 256, &ca, sizeof(ca));
		t.shave[k].kernel_id = VPUX_SHAVE_KERNEL_CLAMP;
		t.shave[k].args = tb_ref(3, k * 256, sizeof(ca));
		t.shave[k].windows[0] = tb_cmx(0, off, rows * OV_ROW_BYTES);
		t.shave[k].windows[1] = tb_ref(4, off, rows * OV_ROW_BYTES);
		tb_wait(&t, &t.shave[k].deps, per_workload ? k : 0);
	}
	list[0] = (struct dla_user_buf){ 0, t.size, t.buf, 0 };
	list[1] = mbuf_entry(&in);
	list[2] = mbuf_entry(&w);
	list[3] = mbuf_entry(&args);
	list[4] = mbuf_entry(&out);
	h = dla_user_submit(m.dev, list, 5, 0, 0);
	run_steps(&m);
	cyc = mstatus(&m, h).state == DLA_TASK_DONE ?
	      mstatus(&m, h).device_cycles : 0;
	{
		/* reference: the whole 1x1 conv, then the clamp */
		struct vpux_hw_dpu_desc hd;
		struct vpux_dpu_operands o;
		static int8_t ref[OV_ROWS * OV_ROW_BYTES];

		memset(&hd, 0, sizeof(hd));
		hd.op = VPUX_DPU_OP_CONV;
		hd.flags = t.dpu[0].flags;
		hd.in_c = hd.out_c = OV_C;
		hd.in_h = hd.out_h = OV_ROWS;
		hd.in_w = hd.out_w = OV_W;
		hd.kernel_h = hd.kernel_w = hd.stride_h = hd.stride_w = 1;
		hd.dilation_h = hd.dilation_w = hd.groups = 1;
		hd.act_min = -128;
		hd.act_max = 127;
		hd.requant = (struct vpux_hw_requant){ 1 << 30, 9 };
		memset(&o, 0, sizeof(o));
		o.in = in.cpu;
		o.in2 = w.cpu;
		o.out = ref;
		unsigned int mid = 0;

		*bad = vpux_ref_dpu_run(&hd, &o) ? -1 : 0;
		for (i = 0; i < OV_ROWS * OV_ROW_BYTES; i++) {
			int v = ref[i] < CLAMP_LO ? CLAMP_LO :
				ref[i] > CLAMP_HI ? CLAMP_HI : ref[i];

			*bad += ((int8_t *)out.cpu)[i] != v;
			mid += v > CLAMP_LO && v < CLAMP_HI;
		}
		if (mid < OV_ROWS * OV_ROW_BYTES / 8)
			*bad = -2;	/* a meaningless, saturated comparison */
	}
	dla_user_release(m.dev, h);
	free(t.buf);
	mdev_close(&m);
	return cyc;
}

static void test_overlap(void)
{
	int bad_layer = -1, bad_wl = -1;
	uint64_t layer = run_overlap(0, &bad_layer);
	uint64_t wl = run_overlap(1, &bad_wl);

	tap_check(layer && wl && !bad_layer && !bad_wl,
		  "overlap: both graphs match clamp(reference conv) "
		  "(%d, %d differ)", bad_layer, bad_wl);
	tap_diag("model, 4 conv workloads + 4 clamps: layer barrier %llu "
		 "cycles, per-workload barriers %llu cycles",
		 (unsigned long long)layer, (unsigned long long)wl);
	tap_check(wl < layer,
		  "overlap: per-workload barriers let SHAVE overlap DPU "
		  "(%llu < %llu device cycles)", (unsigned long long)wl,
		  (unsigned long long)layer);
}

/* ---- the core's DPU extents against the model's vpux_dpu_extents() ---- */

static unsigned int rnd_state = 12345;

static unsigned int rnd(unsigned int lo, unsigned int hi)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return lo + (rnd_state >> 8) % (hi - lo + 1);
}

static unsigned int win_out(unsigned int in, unsigned int pa, unsigned int pb,
			    unsigned int k, unsigned int s, unsigned int d)
{
	unsigned int eff = d * (k - 1) + 1;

	return in + pa + pb < eff ? 0 : (in + pa + pb - eff) / s + 1;
}

/*
 * The flags each op may carry in FP16 mode (VPUX_DPU_F_FP16 itself
 * apart): OUT_F32, PER_CHANNEL and SCALE everywhere, BIAS for CONV and
 * MATMUL, BATCH and W_KN for MATMUL, the broadcast modes for ADD, MUL
 * and SUB, COUNT_PAD for AVGPOOL. Stated here once more, not taken from
 * vpux_dpu_op_flags(), which is what the fuzz checks.
 */
#define FP16_ANY	(VPUX_DPU_F_OUT_F32 | VPUX_DPU_F_PER_CHANNEL | \
			 VPUX_DPU_F_SCALE)
static const unsigned int fp16_allowed[VPUX_DPU_OPS] = {
	FP16_ANY | VPUX_DPU_F_BIAS,
	FP16_ANY | VPUX_DPU_F_BIAS | VPUX_DPU_F_BATCH | VPUX_DPU_F_W_KN,
	FP16_ANY | VPUX_DPU_F_BCAST_MASK,
	FP16_ANY | VPUX_DPU_F_BCAST_MASK,
	FP16_ANY,
	FP16_ANY | VPUX_DPU_F_COUNT_PAD,
	FP16_ANY | VPUX_DPU_F_BCAST_MASK,
};

/*
 * The FP16 output stage of @d's flags: a random activation with its
 * parameters (FP32 bit patterns), the scale stage with SCALE; one
 * parameter in @bad_in is made wrong.
 */
static void rnd_fparams(struct vpux_hw_dpu_fparams *f, unsigned int flags,
			unsigned int bad_in)
{
	memset(f, 0, sizeof(*f));
	f->act = rnd(0, VPUX_DPU_ACTS - 1);
	if (f->act == VPUX_DPU_ACT_CLAMP) {
		f->clamp_lo = 0xbf800000u;		/* -1.0 */
		f->clamp_hi = rnd(0, 1) ? 0x3f800000u : 0x7f800000u;
	} else if (f->act == VPUX_DPU_ACT_LEAKY) {
		f->slope = 0x3dcccccdu;			/* 0.1 */
	}
	if (flags & VPUX_DPU_F_SCALE) {
		f->scale = 0x3f000000u;			/* 0.5 */
		f->shift = rnd(0, 1) ? 0 : 0xbe800000u;	/* -0.25 */
	}
	if (bad_in && rnd(0, bad_in - 1) == 0) {
		switch (rnd(0, 4)) {
		case 0:
			f->act = rnd(VPUX_DPU_ACTS, 9);
			break;
		case 1:
			f->zero1[rnd(0, 2)] = 1;
			break;
		case 2:
			f->clamp_hi = 0x7fc00000u;
			break;
		case 3:
			f->scale = 0x7fc00000u;
			break;
		default:
			f->slope = 0x3f800000u;
			break;
		}
	}
}

/* A random descriptor, valid more often than not; a third are FP16. */
static void rnd_desc(struct vpux_hw_dpu_desc *d)
{
	static const unsigned int allowed[VPUX_DPU_OPS] = { 0x1f, 0x1f, 0x17,
							    0x17, 0x05, 0x05,
							    0x00 };
	unsigned int g;
	int fp16 = rnd(0, 2) == 0;

	memset(d, 0, sizeof(*d));
	d->op = rnd(0, VPUX_DPU_OPS - 1);
	d->flags = fp16 ? VPUX_DPU_F_FP16 |
			  (rnd(0, 0x1fff) & fp16_allowed[d->op]) :
		   rnd(0, 31) & allowed[d->op];
	d->in_c = rnd(1, 12);
	d->in_h = rnd(1, 9);
	d->in_w = rnd(1, 9);
	d->out_c = rnd(1, 12);
	d->act_min = d->flags & VPUX_DPU_F_OUT_SIGNED ? -128 : 0;
	d->act_max = d->flags & VPUX_DPU_F_OUT_SIGNED ? 127 : 255;
	if (!(d->flags & VPUX_DPU_F_PER_CHANNEL))
		d->requant = (struct vpux_hw_requant){ 1 << 30, 3 };
	switch (d->op) {
	case VPUX_DPU_OP_CONV:
	case VPUX_DPU_OP_MAXPOOL:
	case VPUX_DPU_OP_AVGPOOL:
		d->kernel_h = rnd(1, 3);
		d->kernel_w = rnd(1, 3);
		d->stride_h = rnd(1, 2);
		d->stride_w = rnd(1, 2);
		d->dilation_h = rnd(1, 2);
		d->dilation_w = rnd(1, 2);
		d->pad_top = rnd(0, 1);
		d->pad_bottom = rnd(0, 1);
		d->pad_left = rnd(0, 1);
		d->pad_right = rnd(0, 1);
		d->out_h = win_out(d->in_h, d->pad_top, d->pad_bottom,
				   d->kernel_h, d->stride_h, d->dilation_h);
		d->out_w = win_out(d->in_w, d->pad_left, d->pad_right,
				   d->kernel_w, d->stride_w, d->dilation_w);
		if (d->op != VPUX_DPU_OP_CONV) {
			d->out_c = d->in_c;
			d->groups = 1;
			break;
		}
		g = rnd(1, 3);
		d->groups = (d->in_c % g || d->out_c % g) ? 1 : g;
		break;
	case VPUX_DPU_OP_MATMUL:
		d->out_h = d->in_h;
		d->out_w = d->in_w;
		break;
	default:
		d->out_c = d->in_c;
		d->out_h = d->in_h;
		d->out_w = d->in_w;
		d->in_scale = (struct vpux_hw_requant){ 1 << 30, 1 };
		d->in2_scale = (struct vpux_hw_requant){ 1 << 30, 1 };
		if (d->op == VPUX_DPU_OP_MUL)
			d->in_scale = d->in2_scale =
				(struct vpux_hw_requant){ 0, 0 };
		break;
	}
	if (fp16)	/* the FP16 parameters overlay the integer fields */
		rnd_fparams(&d->f, d->flags, 10);
	if (rnd(0, 9) == 0)		/* sometimes inconsistent on purpose */
		d->out_h += 1;
}

static struct dla_buf_ref ext_ref(unsigned int index, u64 bytes, int shrink)
{
	if (!bytes)
		return tb_ref(0, 0, 0);
	return tb_ref(index, 0, (unsigned int)bytes - (shrink ? 1 : 0));
}

/* Submit @hd with operand refs of exactly @ext bytes (one shrunk). */
static int submit_dpu(struct mdev *m, const struct vpux_hw_dpu_desc *hd,
		      const struct vpux_dpu_extents *ext, int shrink,
		      struct mbuf *b)
{
	struct dla_user_buf list[6];
	struct dla_dpu_op *d;
	struct tb t;
	unsigned int i;
	int h;

	tb_init(&t, NULL, 0, 0, 1, 0);
	d = &t.dpu[0];
	d->op = hd->op;
	d->flags = hd->flags;
	memcpy(&d->in_c, &hd->in_c, 20 * sizeof(u16));
	d->in_zp = hd->in_zp;
	d->in2_zp = hd->in2_zp;
	d->out_zp = hd->out_zp;
	d->act_min = hd->act_min;
	d->act_max = hd->act_max;
	d->requant = (struct dla_requant){ hd->requant.mult, hd->requant.shift };
	d->in_scale = (struct dla_requant){ hd->in_scale.mult,
					    hd->in_scale.shift };
	d->in2_scale = (struct dla_requant){ hd->in2_scale.mult,
					     hd->in2_scale.shift };
	d->in = ext_ref(1, ext->in, shrink == 1);
	d->in2 = ext_ref(2, ext->in2, shrink == 2);
	d->bias = ext_ref(3, ext->bias, shrink == 3);
	d->quant = ext_ref(4, ext->quant, shrink == 4);
	d->out = ext_ref(5, ext->out, shrink == 5);
	list[0] = (struct dla_user_buf){ 0, t.size, t.buf, 0 };
	for (i = 1; i < 6; i++)
		list[i] = mbuf_entry(&b[i - 1]);
	h = dla_user_submit(m->dev, list, 6, 0, 0);
	if (h >= 0) {
		int done;

		run_steps(m);
		done = mstatus(m, h).state == DLA_TASK_DONE;
		dla_user_release(m->dev, h);
		if (!done)
			h = -1000;	/* accepted but failed on the engine */
	}
	free(t.buf);
	return h;
}

/* The op's output through the whole stack against the CPU reference. */
static int dpu_matches_ref(const struct vpux_hw_dpu_desc *hd,
			   const struct vpux_dpu_extents *ext, struct mbuf *b)
{
	static unsigned char ref[65536];
	struct vpux_dpu_operands o;

	memset(&o, 0, sizeof(o));
	o.in = b[0].cpu;
	o.in2 = ext->in2 ? b[1].cpu : NULL;
	o.bias = ext->bias ? b[2].cpu : NULL;
	o.quant = ext->quant ? b[3].cpu : NULL;
	o.out = ref;
	if (vpux_ref_dpu_run(hd, &o))
		return 0;
	return !memcmp(ref, b[4].cpu, ext->out);
}

static void test_dpu_extents(void)
{
	struct vpux_hw_dpu_desc hd;
	struct vpux_dpu_extents ext;
	struct mbuf b[5];
	struct mdev m;
	unsigned int n, valid = 0, bad_accept = 0, bad_reject = 0, refused = 0;
	unsigned int mismatch = 0, valid_fp16 = 0;
	unsigned int i;
	u64 *e;

	if (!mdev_open(&m, 1))
		return;
	setenv("DLA_LOG", "0", 1);
	for (i = 0; i < 5; i++) {
		mbuf_alloc(&m, &b[i], 65536, 0);
		fill(b[i].cpu, 65536, 40 + i);
	}
	/* valid per-channel requant records, in case quant is used */
	for (n = 0; n < 64; n++)
		((struct vpux_hw_requant *)b[3].cpu)[n] =
			(struct vpux_hw_requant){ 1 << 30, (int)(n % 8) };
	for (n = 0; n < 300; n++) {
		rnd_desc(&hd);
		if (vpux_dpu_extents(&hd, &ext)) {
			/* the model refuses it: the core may refuse it too */
			refused += submit_dpu(&m, &hd, &ext, 0, b) < 0;
			continue;
		}
		valid++;
		valid_fp16 += !!(hd.flags & VPUX_DPU_F_FP16);
		memset(b[4].cpu, 0x5a, 65536);
		if (submit_dpu(&m, &hd, &ext, 0, b) < 0)
			bad_reject++;
		else if (!dpu_matches_ref(&hd, &ext, b))
			mismatch++;
		for (i = 1, e = &ext.in; i <= 5; i++, e++)
			/* a 1-byte operand 1 byte short: an empty ref with an index */
			if (*e && submit_dpu(&m, &hd, &ext, i, b) !=
				  (*e > 1 ? -DLA_ERR_EXTENT : -DLA_ERR_UNUSED_REF))
				bad_accept++;
	}
	setenv("DLA_LOG", "1", 1);
	tap_check(valid > 100 && valid_fp16 > 30 && !bad_reject,
		  "extents: the core accepts all %u descriptors the model "
		  "accepts (%u FP16), with operands of exactly the model's "
		  "sizes", valid, valid_fp16);
	tap_check(!bad_accept,
		  "extents: and refuses each with any operand 1 byte short "
		  "(%u wrong)", bad_accept);
	tap_check(!mismatch,
		  "dpu: all %u random ops (conv, matmul, add, mul, pools; int8 "
		  "and FP16) run through the core match the CPU reference (%u "
		  "differ)", valid, mismatch);
	tap_diag("extents: %u of %u model-refused descriptors refused by the "
		 "core already", refused, 300 - valid);
	mdev_close(&m);
}

/* ---- property: a DPU op the core accepts is one the engine runs ---- */

#define PROP_OPS	4000
#define PROP_BUF	65536u
#define PROP_RUN_MACS	(1u << 20)	/* run on the model up to this */

/* 1 in @n */
static int one_in(unsigned int n)
{
	return rnd(0, n - 1) == 0;
}

static unsigned int pick_dim(unsigned int hi)
{
	if (one_in(100))
		return 0;
	if (one_in(60))
		return one_in(2) ? 65535 : rnd(100, 3000);
	return rnd(1, hi);
}

/* kernel, stride, dilation: edge values; 0 or 1 for ops without window */
static unsigned int pick_win(int window, unsigned int hi)
{
	if (!window)
		return one_in(40) ? rnd(2, 3) : rnd(0, 1);
	if (one_in(60))
		return 0;
	if (one_in(80))
		return one_in(2) ? 65535 : rnd(16, 300);
	return rnd(1, hi);
}

static int pick_zp(unsigned int flags, unsigned int signed_flag)
{
	static const int edge[] = { -129, -128, -1, 0, 127, 128, 255, 256,
				    0x7fffffff, -0x7fffffff - 1 };

	if (one_in(25))
		return edge[rnd(0, 9)];
	return flags & signed_flag ? (int)rnd(0, 255) - 128 : (int)rnd(0, 255);
}

static struct dla_requant pick_rq(int valid)
{
	static const struct dla_requant edge[] = {
		{ 0, 0 }, { -1, 0 }, { 1, 32 }, { 1, -32 },
		{ -0x7fffffff - 1, 0 }, { 1, 31 }, { 0x7fffffff, -31 },
		{ 1 << 30, -0x7fffffff - 1 },
	};

	if (one_in(25))
		return edge[rnd(0, 7)];
	if (!valid)
		return (struct dla_requant){ 0, 0 };
	return (struct dla_requant){ (int)rnd(1u << 24, 0x7fffffff),
				     (int)rnd(0, 12) - 2 };
}

/* refs: whole 64 KiB buffers for in, out and the operands asked for */
static void prop_refs(struct dla_dpu_op *d, int in2, int bias, int quant)
{
	d->in = tb_ref(1, 0, PROP_BUF);
	d->in2 = in2 ? tb_ref(2, 0, PROP_BUF) : tb_ref(0, 0, 0);
	d->bias = bias ? tb_ref(3, 0, PROP_BUF) : tb_ref(0, 0, 0);
	d->quant = quant ? tb_ref(4, 0, PROP_BUF) : tb_ref(0, 0, 0);
	d->out = tb_ref(5, 0, PROP_BUF);
}

/*
 * A random DPU op, valid more often than not, edges everywhere; a
 * quarter are FP16, whose flags can still be the integer ones, and whose
 * output-stage words are sometimes the integer fields' values.
 */
static void prop_op(struct dla_dpu_op *d)
{
	static const unsigned int allowed[VPUX_DPU_OPS] = { 0x1f, 0x1f, 0x17,
							    0x17, 0x05, 0x05,
							    0x00 };
	unsigned int op, window, in2, g, dil_h, dil_w, out_s;
	int fp16 = one_in(4);

	memset(d, 0, sizeof(*d));
	op = one_in(60) ? rnd(VPUX_DPU_OPS, 9) : rnd(0, VPUX_DPU_OPS - 1);
	window = op == VPUX_DPU_OP_CONV || op == VPUX_DPU_OP_MAXPOOL ||
		 op == VPUX_DPU_OP_AVGPOOL;
	d->op = op;
	d->flags = fp16 ? rnd(0, 0x1fff) : rnd(0, 31);
	if (op < VPUX_DPU_OPS && !one_in(30))
		d->flags &= fp16 ? fp16_allowed[op] : allowed[op];
	if (fp16 && !one_in(40))
		d->flags |= VPUX_DPU_F_FP16;
	if (one_in(80))
		d->flags |= 1u << rnd(5, 31);
	d->in_c = pick_dim(12);
	d->in_h = pick_dim(7);
	d->in_w = pick_dim(7);
	d->kernel_h = pick_win(window, 3);
	d->kernel_w = pick_win(window, 3);
	d->stride_h = pick_win(window, 3);
	d->stride_w = pick_win(window, 3);
	d->dilation_h = pick_win(window, 3);
	d->dilation_w = pick_win(window, 3);
	if (window && one_in(3))
		d->dilation_h = 0;
	if (window && one_in(3))
		d->dilation_w = 0;
	if (window) {
		d->pad_top = one_in(60) ? rnd(100, 65535) : rnd(0, 2);
		d->pad_left = rnd(0, 2);
		d->pad_bottom = rnd(0, 2);
		d->pad_right = one_in(60) ? rnd(100, 65535) : rnd(0, 2);
	} else if (one_in(40)) {
		d->pad_left = 1;
	}
	if (op == VPUX_DPU_OP_CONV) {
		static const unsigned int gs[] = { 0, 0, 1, 1, 2, 3, 4 };

		d->groups = one_in(8) ? d->in_c : gs[rnd(0, 6)];
	} else {
		d->groups = one_in(30) ? rnd(2, 3) : rnd(0, 1);
	}
	g = d->groups ? d->groups : 1;
	/* the task format's conventions: dilation 0 and groups 0 mean 1 */
	dil_h = d->dilation_h ? d->dilation_h : 1;
	dil_w = d->dilation_w ? d->dilation_w : 1;
	if (window) {
		d->out_h = d->kernel_h && d->stride_h ?
			   win_out(d->in_h, d->pad_top, d->pad_bottom,
				   d->kernel_h, d->stride_h, dil_h) : 1;
		d->out_w = d->kernel_w && d->stride_w ?
			   win_out(d->in_w, d->pad_left, d->pad_right,
				   d->kernel_w, d->stride_w, dil_w) : 1;
	} else {
		d->out_h = d->in_h;
		d->out_w = d->in_w;
	}
	if (op == VPUX_DPU_OP_CONV)
		d->out_c = g * rnd(1, 3);
	else if (op == VPUX_DPU_OP_MATMUL)
		d->out_c = pick_dim(12);
	else
		d->out_c = d->in_c;
	if (one_in(40))
		d->out_h += one_in(2) ? 1 : -1;
	if (one_in(40))
		d->out_c = rnd(0, 13);

	out_s = d->flags & VPUX_DPU_F_OUT_SIGNED;
	d->in_zp = pick_zp(d->flags, VPUX_DPU_F_IN_SIGNED);
	d->in2_zp = op >= VPUX_DPU_OP_MAXPOOL && !one_in(25) ? 0 :
		    pick_zp(d->flags, VPUX_DPU_F_W_SIGNED);
	d->out_zp = pick_zp(d->flags, VPUX_DPU_F_OUT_SIGNED);
	d->requant = pick_rq(!(d->flags & VPUX_DPU_F_PER_CHANNEL) ^
			     one_in(50));
	d->in_scale = pick_rq((op == VPUX_DPU_OP_ADD) ^ one_in(50));
	d->in2_scale = pick_rq((op == VPUX_DPU_OP_ADD) ^ one_in(50));
	d->act_min = out_s ? (int)rnd(0, 100) - 128 : (int)rnd(0, 100);
	d->act_max = out_s ? 127 - (int)rnd(0, 100) : 255 - (int)rnd(0, 100);
	if (one_in(30))
		d->act_min = one_in(2) ? d->act_max + 1 : out_s ? -129 : -1;
	if (one_in(30))
		d->act_max = out_s ? 128 : 256;
	if (one_in(100))
		d->reserved0 = 1;
	if (one_in(100))
		d->reserved[rnd(0, 1)] = 1u << rnd(0, 31);

	if (fp16 && !one_in(20)) {
		struct vpux_hw_dpu_fparams f;

		/* the words from in_zp to in2_scale, as the engine reads them */
		rnd_fparams(&f, d->flags, 25);
		d->in_zp = (int)f.act;
		d->in2_zp = (int)f.zero0[0];
		d->out_zp = (int)f.zero0[1];
		d->act_min = (int)f.clamp_lo;
		d->act_max = (int)f.clamp_hi;
		d->requant = (struct dla_requant){ (int)f.scale, (int)f.shift };
		d->in_scale = (struct dla_requant){ (int)f.slope,
						    (int)f.zero1[0] };
		d->in2_scale = (struct dla_requant){ (int)f.zero1[1],
						     (int)f.zero1[2] };
	}
	in2 = op <= VPUX_DPU_OP_MUL || op == VPUX_DPU_OP_SUB;
	prop_refs(d, in2 ^ one_in(60),
		  !!(d->flags & VPUX_DPU_F_BIAS) ^ one_in(60),
		  ((d->flags & VPUX_DPU_F_FP16) ?
		   (d->flags & VPUX_DPU_F_PER_CHANNEL) ||
		   d->in_zp == VPUX_DPU_ACT_LEAKY_CH :
		   !!(d->flags & VPUX_DPU_F_PER_CHANNEL)) ^ one_in(60));
}

/* window output sizes of @d by the formula, dilation 0 counting as 1 */
static void prop_fit_out(struct dla_dpu_op *d)
{
	d->out_h = win_out(d->in_h, d->pad_top, d->pad_bottom, d->kernel_h,
			   d->stride_h, d->dilation_h ? d->dilation_h : 1);
	d->out_w = win_out(d->in_w, d->pad_left, d->pad_right, d->kernel_w,
			   d->stride_w, d->dilation_w ? d->dilation_w : 1);
}

/*
 * Directed edge cases, before the random ones: the reduction limit on
 * each side for matmul, conv and pools, all-zero window fields, huge
 * padding and dilation, zero points, records and clamps at their limits.
 * 0 once @i is past the list.
 */
static int prop_edge(unsigned int i, struct dla_dpu_op *d)
{
	unsigned int k = VPUX_DPU_MAX_K;

	if (i >= 18)
		return 0;
	memset(d, 0, sizeof(*d));
	d->op = i < 2 ? VPUX_DPU_OP_MATMUL : VPUX_DPU_OP_CONV;
	d->in_c = d->out_c = 4;
	d->in_h = d->in_w = 4;
	d->kernel_h = d->kernel_w = d->stride_h = d->stride_w = 1;
	switch (i) {
	case 0: case 1:		/* matmul K = max K + 1, max K */
		d->in_h = d->in_w = 1;
		d->in_c = k + !i;
		d->out_c = 1;
		d->kernel_h = d->kernel_w = d->stride_h = d->stride_w = 0;
		break;
	case 2: case 3:		/* 1x1 conv over max K + 1, max K channels */
		d->op = VPUX_DPU_OP_CONV;
		d->in_h = d->in_w = 1;
		d->in_c = k + (i == 2);
		d->out_c = 1;
		break;
	case 4: case 5:		/* pools of 182x182 > max K, 181x181 < */
		d->op = i == 4 ? VPUX_DPU_OP_MAXPOOL : VPUX_DPU_OP_AVGPOOL;
		d->in_c = d->out_c = 1;
		d->in_h = d->in_w = d->kernel_h = d->kernel_w = i == 4 ? 182 :
								      181;
		break;
	case 6:			/* conv, dilation 0, groups 0 */
		d->kernel_h = d->kernel_w = 3;
		d->pad_top = d->pad_bottom = 1;
		break;
	case 7: case 8:		/* add/mul with every window field 0 */
		d->op = i == 7 ? VPUX_DPU_OP_ADD : VPUX_DPU_OP_MUL;
		d->kernel_h = d->kernel_w = d->stride_h = d->stride_w = 0;
		break;
	case 9:			/* depthwise with a channel multiplier */
		d->groups = d->in_c = 8;
		d->out_c = 16;
		d->kernel_h = d->kernel_w = 3;
		d->pad_top = d->pad_bottom = 1;
		d->pad_left = d->pad_right = 1;
		d->dilation_h = 2;
		break;
	case 10:		/* windows entirely in the padding */
		d->in_h = 1;
		d->pad_top = 65535;
		d->stride_h = 65535;
		break;
	case 11:		/* dilation 65535 */
		d->op = VPUX_DPU_OP_MAXPOOL;
		d->in_h = 1;
		d->pad_top = 65535;
		d->kernel_h = 2;
		d->dilation_h = 65535;
		break;
	case 12: case 13:	/* zero points at the type limits */
		d->flags = i == 12 ? VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED |
				     VPUX_DPU_F_OUT_SIGNED : 0;
		break;
	case 14: case 15:	/* records at their limits */
		d->op = VPUX_DPU_OP_ADD;
		d->kernel_h = d->kernel_w = 0;
		break;
	case 16: case 17:	/* clamp one value wide; act_min > act_max */
		d->op = VPUX_DPU_OP_AVGPOOL;
		break;
	}
	tb_dpu_quant(d);
	switch (i) {
	case 12:
		d->in_zp = -128, d->in2_zp = 127, d->out_zp = -128;
		break;
	case 13:
		d->in_zp = 255, d->in2_zp = 0, d->out_zp = 255;
		break;
	case 14:
		d->requant = (struct dla_requant){ 0x7fffffff, -31 };
		d->in_scale = (struct dla_requant){ 1, 31 };
		d->in2_scale = (struct dla_requant){ 0x7fffffff, 31 };
		break;
	case 15:
		d->in2_scale = (struct dla_requant){ 1 << 30, -32 };
		break;
	case 16:
		d->act_min = d->act_max = 255;
		break;
	case 17:
		d->act_min = 1, d->act_max = 0;
		break;
	}
	if (d->op == VPUX_DPU_OP_CONV || d->op >= VPUX_DPU_OP_MAXPOOL) {
		prop_fit_out(d);
	} else {
		d->out_h = d->in_h;
		d->out_w = d->in_w;
	}
	if (d->op >= VPUX_DPU_OP_ADD && d->op <= VPUX_DPU_OP_AVGPOOL)
		d->out_c = d->in_c;
	return 1;
}

/* The op's fields as the engine must get them: the conventions applied. */
static void prop_expect(const struct dla_dpu_op *d, struct vpux_hw_dpu_desc *e)
{
	memset(e, 0, sizeof(*e));
	e->op = d->op;
	e->flags = d->flags;
	memcpy(&e->in_c, &d->in_c, 20 * sizeof(u16));
	if (!e->dilation_h)
		e->dilation_h = 1;
	if (!e->dilation_w)
		e->dilation_w = 1;
	if (!e->groups)
		e->groups = 1;
	e->in_zp = d->in_zp;
	e->in2_zp = d->in2_zp;
	e->out_zp = d->out_zp;
	e->act_min = d->act_min;
	e->act_max = d->act_max;
	e->requant = (struct vpux_hw_requant){ d->requant.mult,
					       d->requant.shift };
	e->in_scale = (struct vpux_hw_requant){ d->in_scale.mult,
						d->in_scale.shift };
	e->in2_scale = (struct vpux_hw_requant){ d->in2_scale.mult,
						 d->in2_scale.shift };
	e->reserved[0] = d->reserved[0];
	e->reserved[1] = d->reserved[1];
}

/* Every used operand has a ref of at least its extent, unused none. */
static int prop_refs_fit(const struct dla_dpu_op *d,
			 const struct vpux_dpu_extents *x)
{
	const struct dla_buf_ref *r[5] = { &d->in, &d->in2, &d->bias,
					   &d->quant, &d->out };
	const u64 need[5] = { x->in, x->in2, x->bias, x->quant, x->out };
	unsigned int i;

	for (i = 0; i < 5; i++)
		if (need[i] ? r[i]->size < need[i] : r[i]->size != 0)
			return 0;
	return 1;
}

struct prop_stats {
	unsigned int accepted, refused, ran, bad_desc, bad_run, bad_ref;
	unsigned int bad_refuse, bad_conv, by_err[4];
	unsigned int acc_op[VPUX_DPU_OPS], dil0, grp0, acc_fp16, ran_fp16;
	unsigned int bad_rule[VPUX_DPU_RULES][VPUX_DPU_OPS];
	char first[256];
};

static void prop_note(struct prop_stats *ps, const char *what,
		      const struct dla_dpu_op *d, int code)
{
	if (ps->first[0])
		return;
	snprintf(ps->first, sizeof(ps->first),
		 "%s: op %u flags 0x%x in %ux%ux%u out %ux%ux%u k %ux%u "
		 "s %ux%u dil %ux%u pads %u,%u,%u,%u groups %u zp %d/%d/%d "
		 "rq %d,%d act %d..%d (%d)", what, d->op, d->flags, d->in_h,
		 d->in_w, d->in_c, d->out_h, d->out_w, d->out_c, d->kernel_h,
		 d->kernel_w, d->stride_h, d->stride_w, d->dilation_h,
		 d->dilation_w, d->pad_top, d->pad_left, d->pad_bottom,
		 d->pad_right, d->groups, d->in_zp, d->in2_zp, d->out_zp,
		 d->requant.mult, d->requant.shift, d->act_min, d->act_max,
		 code);
}

/*
 * One op: prepare it with the core directly and read back the hardware
 * descriptor it built; submit it and run it on the model when cheap.
 */
static void prop_one(struct mdev *m, struct mbuf *b, struct prop_stats *ps,
		     unsigned int n)
{
	static unsigned char ref[PROP_BUF];
	struct vpux_hw_dpu_desc want, hw;
	struct vpux_dpu_extents x, wx;
	struct dla_user_buf list[6];
	struct dla_task *task = NULL;
	struct dla_dpu_op *d;
	struct tb t;
	dla_u32 size = 0;
	void *td, *mem;
	unsigned int i;
	int r, engine_ok, desc_ok;

	tb_init(&t, NULL, 0, 0, 1, 0);
	d = &t.dpu[0];
	if (prop_edge(n, d))
		prop_refs(d, d->op <= VPUX_DPU_OP_MUL, 0, 0);
	else
		prop_op(d);
	list[0] = (struct dla_user_buf){ 0, t.size, t.buf, 0 };
	for (i = 1; i < 6; i++)
		list[i] = mbuf_entry(&b[i - 1]);
	td = dla_user_task_handle(list, 6);
	r = dla_task_measure(dla_user_engine(m->dev), td, &size);
	if (!r) {
		mem = aligned_alloc(8, (size + 7) & ~7u);
		if (!mem) {
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
		r = dla_task_prepare(dla_user_engine(m->dev), td, mem, size,
				     &task);
		if (!r)
			memcpy(&hw, task->desc[DLA_OP_DPU], sizeof(hw));
		free(mem);
	}
	free(td);

	/* what the engine says of the op, with the conventions applied */
	prop_expect(d, &want);
	engine_ok = !vpux_dpu_extents(&want, &wx) && prop_refs_fit(d, &wx);
	if (r) {
		ps->refused++;
		ps->by_err[r == -DLA_ERR_SHAPE ? 0 : r == -DLA_ERR_QUANT ? 1 :
			   r == -DLA_ERR_FLAGS || r == -DLA_ERR_DPU_OP ? 2 : 3]++;
		if (engine_ok) {
			ps->bad_refuse++;
			prop_note(ps, "refused, the engine would run it", d, r);
		}
		goto out;
	}
	ps->accepted++;
	ps->acc_op[d->op]++;
	ps->acc_fp16 += !!(d->flags & VPUX_DPU_F_FP16);
	ps->dil0 += !d->dilation_h || !d->dilation_w;
	ps->grp0 += !d->groups;
	/* the built descriptor passes the engine's own check */
	desc_ok = !vpux_dpu_extents(&hw, &x);
	if (!desc_ok) {
		ps->bad_desc++;
		ps->bad_rule[vpux_dpu_check(&hw, &x)][d->op]++;
		prop_note(ps, "accepted, the engine refuses the descriptor", d,
			  vpux_dpu_check(&hw, &x));
	} else if (!prop_refs_fit(d, &x)) {
		ps->bad_ref++;
		prop_note(ps, "accepted with refs short of the extents", d, 0);
	}
	/* it is the op with the conventions applied, and nothing else */
	hw.in = hw.in2 = hw.bias = hw.quant = hw.out = 0;
	if (memcmp(&hw, &want, sizeof(hw))) {
		ps->bad_conv++;
		prop_note(ps, "descriptor differs from the op", d, 0);
	}
	if (desc_ok && x.macs > PROP_RUN_MACS)
		goto out;
	/* and runs on the model: DONE, the CPU reference's output */
	memset(b[4].cpu, 0x5a, PROP_BUF);
	list[0] = (struct dla_user_buf){ 0, t.size, t.buf, 0 };
	r = dla_user_submit(m->dev, list, 6, 0, 0);
	if (r >= 0) {
		struct vpux_dpu_operands o;
		struct dla_task_status st;

		run_steps(m);
		st = mstatus(m, r);
		dla_user_release(m->dev, r);
		ps->ran++;
		ps->ran_fp16 += !!(d->flags & VPUX_DPU_F_FP16);
		memset(&o, 0, sizeof(o));
		o.in = b[0].cpu;
		o.in2 = x.in2 ? b[1].cpu : NULL;
		o.bias = x.bias ? b[2].cpu : NULL;
		o.quant = x.quant ? b[3].cpu : NULL;
		o.out = ref;
		if (st.state != DLA_TASK_DONE ||
		    (desc_ok && (vpux_ref_dpu_run(&want, &o) ||
				 memcmp(ref, b[4].cpu, x.out)))) {
			ps->bad_run++;
			prop_note(ps, "accepted, failed or wrong on the model",
				  d, st.error);
		}
	} else {
		ps->bad_run++;
		prop_note(ps, "prepared, refused at submit", d, r);
	}
out:
	free(t.buf);
}

/* which engine rules the descriptors the core accepted broke, by op */
static void prop_report(const struct prop_stats *ps)
{
	static const char *const op_name[VPUX_DPU_OPS] = {
		"conv", "matmul", "add", "mul", "maxpool", "avgpool", "sub" };
	unsigned int r, op;

	for (r = 1; r < VPUX_DPU_RULES; r++)
		for (op = 0; op < VPUX_DPU_OPS; op++)
			if (ps->bad_rule[r][op])
				tap_diag("property: accepted %s ops whose "
					 "descriptor breaks the engine's rule "
					 "'%s': %u", op_name[op],
					 vpux_dpu_rule_field(r),
					 ps->bad_rule[r][op]);
}

static void test_dpu_property(void)
{
	struct prop_stats ps;
	struct mbuf b[5];
	struct mdev m;
	unsigned int i, n;

	if (!mdev_open(&m, 1))
		return;
	memset(&ps, 0, sizeof(ps));
	for (i = 0; i < 5; i++) {
		mbuf_alloc(&m, &b[i], PROP_BUF, 0);
		fill(b[i].cpu, PROP_BUF, 60 + i);
	}
	/* valid per-channel records: their check is the engine's alone */
	for (n = 0; n < PROP_BUF / sizeof(struct vpux_hw_requant); n++)
		((struct vpux_hw_requant *)b[3].cpu)[n] =
			(struct vpux_hw_requant){ (1 << 30) + (int)n * 977,
						  (int)(n % 11) - 2 };
	rnd_state = 4242;
	for (n = 0; n < PROP_OPS; n++)
		prop_one(&m, b, &ps, n);
	tap_diag("property: %u edge-case and random DPU ops: %u accepted "
		 "(conv %u, matmul %u, add %u, mul %u, maxpool %u, "
		 "avgpool %u, sub %u; %u FP16; %u with a "
		 "dilation 0, %u with groups 0), %u run on the model (%u "
		 "FP16); %u refused (SHAPE %u, QUANT %u, FLAGS/DPU_OP %u, "
		 "other %u)",
		 PROP_OPS, ps.accepted, ps.acc_op[0], ps.acc_op[1],
		 ps.acc_op[2], ps.acc_op[3], ps.acc_op[4], ps.acc_op[5],
		 ps.acc_op[6], ps.acc_fp16, ps.dil0, ps.grp0, ps.ran,
		 ps.ran_fp16, ps.refused, ps.by_err[0], ps.by_err[1],
		 ps.by_err[2], ps.by_err[3]);
	if (ps.first[0])
		tap_diag("property: first counterexample: %s", ps.first);
	prop_report(&ps);
	tap_check(ps.accepted > PROP_OPS / 4 && ps.refused > PROP_OPS / 4 &&
		  ps.ran > ps.accepted / 2 && ps.dil0 > 50 && ps.grp0 > 50 &&
		  ps.acc_fp16 > PROP_OPS / 20 && ps.ran_fp16 > ps.acc_fp16 / 2 &&
		  ps.acc_op[VPUX_DPU_OP_SUB] > 20,
		  "property: the random ops cover both outcomes, the "
		  "conventions and FP16 ops");
	tap_check(!ps.bad_desc && !ps.bad_ref,
		  "property: every descriptor the core built passes the "
		  "engine's check, its refs cover the engine's extents "
		  "(%u, %u wrong)", ps.bad_desc, ps.bad_ref);
	tap_check(!ps.bad_conv,
		  "property: each is the op with dilation/groups 0 made 1, "
		  "nothing else changed (%u differ)", ps.bad_conv);
	tap_check(!ps.bad_run,
		  "property: every accepted op run on the model is DONE and "
		  "matches the CPU reference (%u not)", ps.bad_run);
	tap_check(!ps.bad_refuse,
		  "property: the core refuses no op the engine would run "
		  "(%u refused)", ps.bad_refuse);
	mdev_close(&m);
}

/* dilation 0 and groups 0 are 1: same descriptor, same output */
static int conv_run(struct mdev *m, struct mbuf *b, unsigned int op,
		    unsigned int zero, struct dla_task_status *st)
{
	struct dla_user_buf list[4];
	struct dla_dpu_op *d;
	struct tb t;
	int h;

	tb_init(&t, NULL, 0, 0, 1, 0);
	d = &t.dpu[0];
	d->op = op;
	d->flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_OUT_SIGNED |
		   (op == VPUX_DPU_OP_CONV ? VPUX_DPU_F_W_SIGNED : 0);
	d->in_c = d->out_c = 4;
	d->in_h = d->in_w = 6;
	d->out_h = d->out_w = 6;
	d->kernel_h = d->kernel_w = 3;
	d->stride_h = d->stride_w = 1;
	d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = 1;
	d->dilation_h = d->dilation_w = zero ? 0 : 1;
	d->groups = zero ? 0 : 1;
	tb_dpu_quant(d);
	if (op == VPUX_DPU_OP_CONV)
		d->requant.shift = 6;
	d->in = tb_ref(1, 0, 6 * 6 * 4);
	if (op == VPUX_DPU_OP_CONV)
		d->in2 = tb_ref(2, 0, 4 * 3 * 3 * 4);
	d->out = tb_ref(3, 0, 6 * 6 * 4);
	list[0] = (struct dla_user_buf){ 0, t.size, t.buf, 0 };
	list[1] = mbuf_entry(&b[0]);
	list[2] = mbuf_entry(&b[1]);
	list[3] = mbuf_entry(&b[2]);
	memset(b[2].cpu, 0x5a, 6 * 6 * 4);
	h = dla_user_submit(m->dev, list, 4, 0, 0);
	memset(st, 0, sizeof(*st));
	if (h >= 0) {
		run_steps(m);
		*st = mstatus(m, h);
		dla_user_release(m->dev, h);
	}
	free(t.buf);
	return h;
}

static void test_dpu_zero_conventions(void)
{
	static const unsigned int ops[] = { VPUX_DPU_OP_CONV,
					    VPUX_DPU_OP_MAXPOOL };
	unsigned char out1[6 * 6 * 4];
	struct dla_task_status st0, st1;
	struct mbuf b[3];
	struct mdev m;
	unsigned int i;
	int h0, h1;

	if (!mdev_open(&m, 1))
		return;
	for (i = 0; i < 3; i++) {
		mbuf_alloc(&m, &b[i], 4096, 0);
		fill(b[i].cpu, 4096, 80 + i);
	}
	for (i = 0; i < 2; i++) {
		const char *name = i ? "maxpool" : "conv";

		h1 = conv_run(&m, b, ops[i], 0, &st1);
		memcpy(out1, b[2].cpu, sizeof(out1));
		h0 = conv_run(&m, b, ops[i], 1, &st0);
		tap_check(h0 >= 0 && h1 >= 0 && st0.state == DLA_TASK_DONE &&
			  st1.state == DLA_TASK_DONE,
			  "%s with dilation 0 and groups 0 runs DONE like "
			  "with 1 (submit %d, state %u, error %d)", name, h0,
			  st0.state, st0.error);
		tap_check(!memcmp(out1, b[2].cpu, sizeof(out1)) &&
			  memchr(out1, 0x5a, sizeof(out1)) != out1,
			  "%s with dilation 0 and groups 0: the same output as "
			  "with 1", name);
	}
	mdev_close(&m);
}

/* ---- a plan over a dynamic token count (Documentation/dynamic-shapes.rst) ---- */

#define PT_K		32	/* features in */
#define PT_OC		16	/* features out */
#define PT_TILE		16	/* tokens per DPU op */
#define PT_MAX		64	/* tokens the buffers are laid out for */

/*
 * One MLP layer over SYM0 tokens: per tile of 16 tokens a DPU MATMUL of
 * [LEN0 x 32] by [16 x 32] weights into [LEN0 x 16], the tail tile
 * shorter; entry 1 input, 2 weights, 3 output, 4 the symbol buffer.
 */
static void plan_mlp(struct pb *p)
{
	struct dla_dpu_op *d;

	pb_init(p);
	pb_symbol(p, 1, PT_MAX);
	pb_block(p, 1);
	pb_loop(p, 0, PT_TILE, PB_E(PB_T(SYM, 0)));
	d = pb_template(p, DLA_OP_DPU, 0);
	d->op = VPUX_DPU_OP_MATMUL;
	d->in_c = PT_K, d->in_w = 1, d->out_c = PT_OC, d->out_w = 1;
	d->in_zp = 7;
	d->in.index = 1;
	d->in2 = tb_ref(2, 0, PT_OC * PT_K);
	d->out.index = 3;
	tb_dpu_quant(d);
	d->requant.shift = 4;
	pb_patch(p, PB_DPU(in_h), 2, PB_E(PB_T(LEN, 0)));
	pb_patch(p, PB_DPU(out_h), 2, PB_E(PB_T(LEN, 0)));
	pb_patch(p, PB_DPU(in.offset), 4, PB_E(PB_T(OFF, 0), PB_I(MUL, PT_K)));
	pb_patch(p, PB_DPU(in.size), 4, PB_E(PB_T(LEN, 0), PB_I(MUL, PT_K)));
	pb_patch(p, PB_DPU(out.offset), 4,
		 PB_E(PB_T(OFF, 0), PB_I(MUL, PT_OC)));
	pb_patch(p, PB_DPU(out.size), 4, PB_E(PB_T(LEN, 0), PB_I(MUL, PT_OC)));
	pb_finish(p, 4);
}

/*
 * The CPU reference of the whole layer at @n tokens in one op: the rows
 * of a matmul are independent, so the tiles and the tail must give the
 * same bytes.
 */
static int plan_mlp_matches(const struct pb *p, unsigned int n,
			    const struct mbuf *in, const struct mbuf *w,
			    const unsigned char *out)
{
	static unsigned char ref[PT_MAX * PT_OC];
	const struct dla_dpu_op *d = &p->tpl[0].rec.dpu;
	struct vpux_hw_dpu_desc hd;
	struct vpux_dpu_operands o;
	unsigned int i;

	memset(&hd, 0, sizeof(hd));
	hd.op = d->op;
	hd.flags = d->flags;
	hd.in_c = PT_K, hd.in_h = (u16)n, hd.in_w = 1;
	hd.out_c = PT_OC, hd.out_h = (u16)n, hd.out_w = 1;
	hd.dilation_h = hd.dilation_w = hd.groups = 1;
	hd.in_zp = d->in_zp;
	hd.act_min = d->act_min;
	hd.act_max = d->act_max;
	hd.requant.mult = d->requant.mult;
	hd.requant.shift = d->requant.shift;
	memset(&o, 0, sizeof(o));
	o.in = in->cpu;
	o.in2 = w->cpu;
	o.out = ref;
	if (vpux_ref_dpu_run(&hd, &o))
		return 0;
	for (i = n * PT_OC; i < PT_MAX * PT_OC; i++)
		if (out[i])
			return 0;	/* wrote past the tokens */
	return !memcmp(ref, out, n * PT_OC);
}

static void test_plan_mlp(struct mdev *m)
{
	static const unsigned int sizes[] = { 1, 15, 16, 17, 45, PT_MAX };
	struct mbuf b[6];
	struct dla_user_buf list[5], l2[5];
	struct pb p;
	unsigned int i, k;
	int h, h2;

	plan_mlp(&p);
	mbuf_alloc(m, &b[0], PT_MAX * PT_K, 0);
	mbuf_alloc(m, &b[1], PT_OC * PT_K, 0);
	mbuf_alloc(m, &b[2], PT_MAX * PT_OC, 0);
	mbuf_alloc(m, &b[3], 8, 0);
	mbuf_alloc(m, &b[4], PT_MAX * PT_OC, 0);
	mbuf_alloc(m, &b[5], 8, 0);
	fill(b[0].cpu, PT_MAX * PT_K, 11);
	fill(b[1].cpu, PT_OC * PT_K, 12);
	list[0] = (struct dla_user_buf){ 0, p.size, p.buf, 0 };
	for (k = 0; k < 4; k++)
		list[k + 1] = mbuf_entry(&b[k]);
	/* the tile size, the sizes 1 (min), 64 (max) and tails */
	for (i = 0; i < DLA_ARRAY_SIZE(sizes); i++) {
		struct dla_task_status st;
		u64 n = sizes[i];

		memset(b[2].cpu, 0, b[2].size);
		memcpy(b[3].cpu, &n, 8);
		h = dla_user_submit(m->dev, list, 5, 0, 0);
		run_steps(m);
		st = mstatus(m, h);
		tap_check(h >= 0 && st.state == DLA_TASK_DONE &&
			  st.ops_done == (sizes[i] + PT_TILE - 1) / PT_TILE,
			  "plan mlp %2u tokens: %u matmul tiles done (%d)",
			  sizes[i], st.ops_done, st.error);
		tap_check(plan_mlp_matches(&p, sizes[i], &b[0], &b[1],
					   b[2].cpu),
			  "plan mlp %2u tokens: bit-exact against the CPU "
			  "reference of the whole layer", sizes[i]);
		if (h >= 0)
			dla_user_release(m->dev, h);
	}
	/* two requests of different sizes on the same task memory at once */
	memcpy(l2, list, sizeof(l2));
	l2[3] = mbuf_entry(&b[4]);
	l2[4] = mbuf_entry(&b[5]);
	memset(b[2].cpu, 0, b[2].size);
	memset(b[4].cpu, 0, b[4].size);
	{
		u64 n1 = 61, n2 = 9;

		memcpy(b[3].cpu, &n1, 8);
		memcpy(b[5].cpu, &n2, 8);
	}
	h = dla_user_submit(m->dev, list, 5, 0, 0);
	h2 = dla_user_submit(m->dev, l2, 5, 0, 0);
	run_steps(m);
	tap_check(h >= 0 && h2 >= 0 &&
		  mstatus(m, h).state == DLA_TASK_DONE &&
		  mstatus(m, h2).state == DLA_TASK_DONE &&
		  plan_mlp_matches(&p, 61, &b[0], &b[1], b[2].cpu) &&
		  plan_mlp_matches(&p, 9, &b[0], &b[1], b[4].cpu),
		  "plan mlp: 61 and 9 tokens at once on one task memory, both "
		  "bit-exact");
	dla_user_release(m->dev, h);
	dla_user_release(m->dev, h2);
	free(p.buf);
}

int main(void)
{
	struct mdev m;

	if (!mdev_open(&m, 1)) {
		tap_check(0, "step-mode model device created");
		return tap_finish();
	}
	test_pipeline(&m, "step");
	test_faults(&m);
	test_queue(&m);
	test_plan_mlp(&m);
	mdev_close(&m);
	test_overlap();
	test_dpu_extents();
	test_dpu_zero_conventions();
	test_dpu_property();
	test_threaded_many();
	return tap_finish();
}
