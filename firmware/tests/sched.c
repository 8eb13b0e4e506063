// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Engine-core scheduling on the fake backend: chains, diamonds, wide
 * fan-out/fan-in, per-workload barriers letting SHAVE overlap DPU (seen in
 * the device cycles), several tasks in flight with priorities.
 */
#include "fw_test.h"

static void test_chain(void)
{
	struct ft f;
	struct tb t;
	unsigned int i, n = 6;
	int h, ok = 1;

	ft_init(&f, 2, 1, 1);
	tb_init(&t, NULL, n - 1, n, 0, 0);
	ft_list(&f, &t, n + 1, 4096);
	for (i = 0; i < 4096; i++)
		ft_buf(&f, 1)[i] = (unsigned char)(i * 7 + 1);
	/* buf1 -> buf2 -> ... -> buf(n+1), op i waits on b(i-1) */
	for (i = 0; i < n; i++) {
		tb_copy(&t.dma[i], tb_ref(i + 1, 0, 4096),
			tb_ref(i + 2, 0, 4096), 4096);
		if (i)
			tb_wait(&t, &t.dma[i].deps, i - 1);
		if (i < n - 1)
			tb_update(&t, &t.dma[i].deps, i);
	}
	h = ft_submit(&f, 1);
	tap_check(h >= 0, "chain: submitted (%d)", h);
	tap_check(fake_hw_starts(&f.hw) == 1,
		  "chain: only the head started although 2 DMA engines idle");
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, h).state == DLA_TASK_DONE, "chain: done");
	tap_check(ft_status(&f, h).ops_done == n, "chain: %u ops done", n);
	tap_check(ft_status(&f, h).device_cycles == 100ull * n,
		  "chain: device cycles = %u x 100 (serial)", n);
	for (i = 0; i < 4096; i++)
		ok &= ft_buf(&f, n + 1)[i] == (unsigned char)(i * 7 + 1);
	tap_check(ok, "chain: data arrived through %u copies", n);
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(t.buf);
}

static void test_diamond(void)
{
	struct ft f;
	struct tb t;
	struct dla_task_status st;
	uint32_t cyc = 0;
	int h;

	ft_init(&f, 1, 1, 1);
	/* dma0 -> {dpu0, shave0} -> dma1 */
	tb_init(&t, NULL, 2, 2, 1, 1);
	ft_list(&f, &t, 3, 4096);
	tb_copy(&t.dma[0], tb_ref(1, 0, 64), tb_cmx(0, 0, 64), 64);
	tb_update(&t, &t.dma[0].deps, 0);
	t.dpu[0].op = VPUX_DPU_OP_ADD;
	t.dpu[0].in_c = t.dpu[0].out_c = 4;
	t.dpu[0].in_h = t.dpu[0].out_h = 4;
	t.dpu[0].in_w = t.dpu[0].out_w = 4;
	t.dpu[0].in = tb_cmx(0, 0, 64);
	t.dpu[0].in2 = tb_cmx(0, 0, 64);
	t.dpu[0].out = tb_cmx(0, 64, 64);
	tb_dpu_quant(&t.dpu[0]);
	tb_wait(&t, &t.dpu[0].deps, 0);
	tb_update(&t, &t.dpu[0].deps, 1);
	t.shave[0].kernel_id = 1;
	t.shave[0].args = tb_ref(2, 0, 64);
	t.shave[0].windows[0] = tb_cmx(0, 0, 4096);
	tb_wait(&t, &t.shave[0].deps, 0);
	tb_update(&t, &t.shave[0].deps, 1);
	tb_copy(&t.dma[1], tb_cmx(0, 64, 64), tb_ref(3, 0, 64), 64);
	tb_wait(&t, &t.dma[1].deps, 1);
	h = ft_submit(&f, 0);
	tap_check(h >= 0, "diamond: submitted");
	fake_hw_run(&f.hw);
	st = ft_status(&f, h);
	tap_check(st.state == DLA_TASK_DONE && st.ops_done == 4,
		  "diamond: 4 ops done");
	tap_check(st.device_cycles == 100 + 1000 + 100,
		  "diamond: DPU and SHAVE branches overlapped (%llu cycles)",
		  (unsigned long long)st.device_cycles);
	tap_check(st.op_cycles == 100 + 1000 + 300 + 100,
		  "diamond: op cycles sum %llu",
		  (unsigned long long)st.op_cycles);
	dla_user_op_cycles(f.dev, h, DLA_OP_SHAVE, 0, &cyc);
	tap_check(cyc == 300, "diamond: per-op cycles of shave 0 = %u", cyc);
	tap_check(dla_user_op_cycles(f.dev, h, DLA_OP_SHAVE, 1, &cyc) ==
		  -DLA_ERR_INVAL, "diamond: per-op cycles index checked");
	{
		/* the schedule: DMA ops, DPU, SHAVE; engines DMA0 DPU0 SHAVE0 */
		static const struct dla_op_time want[4] = {
			{ 0, 100, 0, 1 }, { 1100, 1200, 0, 1 },
			{ 100, 1100, 1, 1 }, { 100, 400, 2, 1 },
		};
		struct dla_op_time ot[4];
		int ok;

		ok = dla_user_op_times(f.dev, h, ot, 4) == 4 &&
		     !memcmp(ot, want, sizeof(want));
		tap_check(ok, "diamond: op times: dma0 0..100, dpu0 100..1100 on engine 1, shave0 100..400 on engine 2, dma1 1100..1200 (dma1 %llu..%llu)",
			  (unsigned long long)ot[1].start,
			  (unsigned long long)ot[1].end);
		tap_check(ot[1].end == ft_status(&f, h).device_cycles,
			  "diamond: the schedule ends at the device cycles");
		tap_check(dla_user_op_times(f.dev, h, ot, 3) == -DLA_ERR_INVAL,
			  "diamond: op times need room for every op");
		tap_check(dla_user_op_times(f.dev, h, ot, 4) == 4 &&
			  !memcmp(ot, want, sizeof(want)),
			  "diamond: op times again: the same");
	}
	{
		const struct vpux_hw_shave_desc *sd =
			(const void *)f.hw.eng[2].run;

		tap_check(sd->args == FAKE_VA_BASE + 2 * FT_BUF_STRIDE &&
			  sd->args_size == 64 &&
			  sd->window_base[0] == VPUX_DEFAULT_CMX_BASE &&
			  sd->window_size[0] == 4096 &&
			  sd->window_size[1] == 0 && sd->kernel_id == 1,
			  "diamond: shave descriptor resolved (args, window 0)");
	}
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(t.buf);
}

static void test_fan(void)
{
	struct ft f;
	struct tb t;
	struct dla_task_status st;
	unsigned int i, n = 64;
	int h;

	ft_init(&f, 1, 1, 2);
	/* dma0 -> 64 shave -> dma1: one barrier with 64 consumers, one with
	 * 64 producers */
	tb_init(&t, NULL, 2, 2, 0, n);
	ft_list(&f, &t, 2, 4096);
	tb_copy(&t.dma[0], tb_ref(1, 0, 16), tb_ref(2, 0, 16), 16);
	tb_update(&t, &t.dma[0].deps, 0);
	for (i = 0; i < n; i++) {
		t.shave[i].kernel_id = 1;
		t.shave[i].args = tb_ref(1, 64 * i, 64);
		tb_wait(&t, &t.shave[i].deps, 0);
		tb_update(&t, &t.shave[i].deps, 1);
	}
	tb_copy(&t.dma[1], tb_ref(2, 0, 16), tb_ref(1, 0, 16), 16);
	tb_wait(&t, &t.dma[1].deps, 1);
	h = ft_submit(&f, 0);
	tap_check(h >= 0, "fan: submitted");
	fake_hw_run(&f.hw);
	st = ft_status(&f, h);
	tap_check(st.state == DLA_TASK_DONE && st.ops_done == n + 2,
		  "fan: %u ops done", n + 2);
	tap_check(st.device_cycles == 100 + (n / 2) * 300 + 100,
		  "fan: %u shave ops spread over 2 engines (%llu cycles)", n,
		  (unsigned long long)st.device_cycles);
	tap_check(f.hw.eng[2].starts == n / 2 && f.hw.eng[3].starts == n / 2,
		  "fan: both shave engines used");
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(t.buf);
}

/*
 * 4 DPU workloads, each followed by a SHAVE post-processing kernel.
 * Per-workload barriers: SHAVE k starts when DPU workload k finishes.
 * Layer barrier: every SHAVE waits for all 4 workloads.
 */
static uint64_t run_overlap(int per_workload)
{
	struct ft f;
	struct tb t;
	unsigned int i, n = 4;
	uint64_t cyc;
	int h;

	ft_init(&f, 1, 1, 1);
	tb_init(&t, NULL, per_workload ? n : 1, 0, n, n);
	ft_list(&f, &t, 1, 65536);
	for (i = 0; i < n; i++) {
		struct dla_dpu_op *d = &t.dpu[i];

		d->op = VPUX_DPU_OP_CONV;
		d->in_c = 8, d->in_h = 8, d->in_w = 8;
		d->out_c = 8, d->out_h = 8, d->out_w = 8;
		d->kernel_h = d->kernel_w = 3;
		d->stride_h = d->stride_w = 1;
		d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = 1;
		d->in = tb_cmx(0, 0, 512);
		d->in2 = tb_cmx(0, 512, 8 * 9 * 8);
		d->out = tb_cmx(1, 512 * i, 512);
		tb_dpu_quant(d);
		tb_update(&t, &d->deps, per_workload ? i : 0);
		t.shave[i].kernel_id = 2;
		t.shave[i].args = tb_ref(1, 256 * i, 256);
		t.shave[i].windows[1] = tb_cmx(1, 512 * i, 512);
		tb_wait(&t, &t.shave[i].deps, per_workload ? i : 0);
	}
	h = ft_submit(&f, 0);
	fake_hw_run(&f.hw);
	cyc = ft_status(&f, h).state == DLA_TASK_DONE ?
	      ft_status(&f, h).device_cycles : 0;
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(t.buf);
	return cyc;
}

static void test_overlap(void)
{
	uint64_t layer = run_overlap(0), wl = run_overlap(1);

	tap_diag("4 DPU workloads + 4 SHAVE: layer barrier %llu cycles, "
		 "per-workload barriers %llu cycles",
		 (unsigned long long)layer, (unsigned long long)wl);
	tap_check(layer == 4 * 1000 + 4 * 300, "overlap: layer barrier serial");
	tap_check(wl == 4 * 1000 + 300,
		  "overlap: per-workload barriers hide 3 of 4 SHAVE kernels");
}

/* n independent DPU ops */
static void build_indep(struct tb *t, unsigned int n)
{
	unsigned int i;

	tb_init(t, NULL, 0, 0, n, 0);
	for (i = 0; i < n; i++) {
		struct dla_dpu_op *d = &t->dpu[i];

		d->op = VPUX_DPU_OP_MAXPOOL;
		d->in_c = d->out_c = 4;
		d->in_h = d->in_w = 4;
		d->out_h = d->out_w = 2;
		d->kernel_h = d->kernel_w = 2;
		d->stride_h = d->stride_w = 2;
		d->in = tb_cmx(0, 0, 64);
		d->out = tb_cmx(0, 64 + 16 * i, 16);
		tb_dpu_quant(d);
	}
}

static void test_priority(void)
{
	struct ft f;
	struct tb a, b, c;
	int ha, hb, hc;

	ft_init(&f, 1, 1, 1);
	build_indep(&a, 4);
	build_indep(&b, 2);
	build_indep(&c, 2);
	ft_list(&f, &a, 0, 0);
	ha = ft_submit_tb(&f, &a, 0);
	hc = ft_submit_tb(&f, &c, 0);
	hb = ft_submit_tb(&f, &b, 3);
	tap_check(ha >= 0 && hb >= 0 && hc >= 0 && ha != hb && hb != hc,
		  "prio: three tasks in flight (slots %d %d %d)", ha, hb, hc);
	/* a0 occupies the DPU; then the high-priority task goes first */
	while (ft_status(&f, hb).state != DLA_TASK_DONE && fake_hw_step(&f.hw))
		;
	tap_check(ft_status(&f, hb).state == DLA_TASK_DONE,
		  "prio: high-priority task done");
	tap_check(ft_status(&f, ha).ops_done == 1 &&
		  ft_status(&f, hc).ops_done == 0,
		  "prio: it overtook the low-priority tasks (a %u, c %u done)",
		  ft_status(&f, ha).ops_done, ft_status(&f, hc).ops_done);
	/* equal priority: the tasks take turns, op by op */
	while (ft_status(&f, hc).state != DLA_TASK_DONE && fake_hw_step(&f.hw))
		;
	tap_check(ft_status(&f, ha).ops_done < 4,
		  "prio: equal priorities take turns (c done, a %u of 4)",
		  ft_status(&f, ha).ops_done);
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, hc).state == DLA_TASK_DONE, "prio: all done");
	dla_user_release(f.dev, ha);
	dla_user_release(f.dev, hb);
	dla_user_release(f.dev, hc);
	ft_fini(&f);
	free(a.buf);
	free(b.buf);
	free(c.buf);
}

static void test_slots(void)
{
	struct ft f;
	struct tb t[DLA_MAX_TASKS + 1];
	int h[DLA_MAX_TASKS + 1], ok = 1;
	unsigned int i;

	ft_init(&f, 2, 2, 2);
	for (i = 0; i <= DLA_MAX_TASKS; i++)
		build_indep(&t[i], 3);
	ft_list(&f, &t[0], 0, 0);
	for (i = 0; i <= DLA_MAX_TASKS; i++)
		h[i] = ft_submit_tb(&f, &t[i], i % DLA_PRIO_LEVELS);
	for (i = 0; i < DLA_MAX_TASKS; i++)
		ok &= h[i] >= 0;
	tap_check(ok, "slots: %u tasks in flight", DLA_MAX_TASKS);
	tap_check(h[DLA_MAX_TASKS] >= 0 &&
		  ft_status(&f, h[DLA_MAX_TASKS]).state == DLA_TASK_RUNNING &&
		  !ft_status(&f, h[DLA_MAX_TASKS]).ops_total,
		  "slots: one more waits in the port's queue, not in the core");
	fake_hw_run(&f.hw);
	for (i = 0; i <= DLA_MAX_TASKS; i++) {
		ok &= ft_status(&f, h[i]).state == DLA_TASK_DONE;
		ok &= dla_user_wait(f.dev, h[i], 0) == 0;
		if (i < DLA_MAX_TASKS)
			dla_user_release(f.dev, h[i]);
	}
	tap_check(ok, "slots: all %u done, the queued one too; waits return at once",
		  DLA_MAX_TASKS + 1);
	dla_user_release(f.dev, h[DLA_MAX_TASKS]);
	{
		int old = h[0];
		struct dla_task_status st;

		h[0] = ft_submit_tb(&f, &t[DLA_MAX_TASKS], 0);
		tap_check(h[0] >= 0 && (h[0] & 0xffff) == (old & 0xffff),
			  "slots: released handle entries are reused");
		tap_check(dla_user_status(f.dev, old, &st) == -DLA_ERR_NOENT,
			  "slots: the released handle does not name the new "
			  "task in its slot");
	}
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, h[0]).state == DLA_TASK_DONE,
		  "slots: reused slot runs");
	ft_fini(&f);
	for (i = 0; i <= DLA_MAX_TASKS; i++)
		free(t[i].buf);
}

static void test_strided_cmx(void)
{
	struct ft f;
	struct tb t;
	unsigned int x, y, z, ok = 1;
	int h;

	ft_init(&f, 1, 1, 1);
	tb_init(&t, NULL, 1, 2, 0, 0);
	ft_list(&f, &t, 2, 65536);
	for (x = 0; x < 65536; x++)
		ft_buf(&f, 1)[x] = (unsigned char)(x ^ (x >> 8));
	/* gather a 8x4x2 block of 16-byte rows from a 64x... image into CMX
	 * compactly, then scatter it back with a different stride */
	t.dma[0].len = 16;
	t.dma[0].count[0] = 8, t.dma[0].count[1] = 4, t.dma[0].count[2] = 2;
	t.dma[0].src_stride[0] = 64;
	t.dma[0].src_stride[1] = 1024;
	t.dma[0].src_stride[2] = 8192;
	t.dma[0].dst_stride[0] = 16;
	t.dma[0].dst_stride[1] = 128;
	t.dma[0].dst_stride[2] = 512;
	t.dma[0].src = tb_ref(1, 100, 8192 + 3 * 1024 + 7 * 64 + 16);
	t.dma[0].dst = tb_cmx(1, 4096, 1024);
	tb_update(&t, &t.dma[0].deps, 0);
	tb_copy(&t.dma[1], tb_cmx(1, 4096, 1024), tb_ref(2, 0, 1024), 1024);
	tb_wait(&t, &t.dma[1].deps, 0);
	h = ft_submit(&f, 0);
	tap_check(h >= 0, "strided: submitted");
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, h).state == DLA_TASK_DONE, "strided: done");
	for (z = 0; z < 2; z++)
		for (y = 0; y < 4; y++)
			for (x = 0; x < 8; x++)
				ok &= !memcmp(ft_buf(&f, 2) + z * 512 + y * 128 +
					      x * 16,
					      ft_buf(&f, 1) + 100 + z * 8192 +
					      y * 1024 + x * 64, 16);
	tap_check(ok, "strided: 4-D gather through CMX is exact");
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(t.buf);
}

static void test_zero_producer(void)
{
	struct ft f;
	struct tb t;
	int h;

	ft_init(&f, 1, 1, 1);
	tb_init(&t, NULL, 1, 1, 0, 0);
	ft_list(&f, &t, 2, 64);
	tb_copy(&t.dma[0], tb_ref(1, 0, 64), tb_ref(2, 0, 64), 64);
	tb_wait(&t, &t.dma[0].deps, 0);	/* barrier without producers */
	h = ft_submit(&f, 0);
	tap_check(h >= 0 && fake_hw_starts(&f.hw) == 1,
		  "zero-producer barrier: wait already satisfied");
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, h).state == DLA_TASK_DONE,
		  "zero-producer barrier: done");
	dla_user_release(f.dev, h);
	ft_fini(&f);
	free(t.buf);
}

/*
 * Fairness between files (MMU contexts) of one priority, op by op on one
 * DPU: a file with a long task ahead, or with two tasks, does not hold
 * the engine from another file's task.
 */
static void test_fair(void)
{
	unsigned int i, n = 0, seq_ok = 1, c_after = 0, a_done, b_done;
	struct ft f;
	struct tb a, b, c;
	int ha, hb, hc;

	ft_init(&f, 1, 1, 1);
	build_indep(&a, 12);
	build_indep(&b, 12);
	build_indep(&c, 6);
	ft_list(&f, &a, 0, 0);
	/* file 0: a, b; file 1: c, submitted last */
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, a.size, a.buf, 0 };
	ha = dla_user_submit(f.dev, f.list, f.n, 0, 0);
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, b.size, b.buf, 0 };
	hb = dla_user_submit(f.dev, f.list, f.n, 0, 0);
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, c.size, c.buf, 0 };
	hc = dla_user_submit(f.dev, f.list, f.n, 1, 0);
	tap_check(ha >= 0 && hb >= 0 && hc >= 0, "fair: three tasks, two files");
	/* one op completes per step: file 1 gets every other op */
	while (ft_status(&f, hc).state != DLA_TASK_DONE && fake_hw_step(&f.hw)) {
		n++;
		if (ft_status(&f, hc).ops_done < (n - 1) / 2)
			seq_ok = 0;
	}
	a_done = ft_status(&f, ha).ops_done;
	b_done = ft_status(&f, hb).ops_done;
	tap_check(seq_ok && n <= 2 * 6 + 1,
		  "fair: the other file's task ran every other op (%u ops to finish its 6)",
		  n);
	tap_check(a_done + b_done + 6 == n && a_done + 1 >= b_done &&
		  b_done + 1 >= a_done,
		  "fair: the file's two tasks shared its turns (a %u, b %u)",
		  a_done, b_done);
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, ha).state == DLA_TASK_DONE &&
		  ft_status(&f, hb).state == DLA_TASK_DONE, "fair: all done");
	dla_user_release(f.dev, ha);
	dla_user_release(f.dev, hb);
	dla_user_release(f.dev, hc);

	/* a long task ahead does not delay a one-op task by more than an op */
	free(c.buf);
	build_indep(&c, 1);
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, a.size, a.buf, 0 };
	ha = dla_user_submit(f.dev, f.list, f.n, 0, 0);
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, c.size, c.buf, 0 };
	hc = dla_user_submit(f.dev, f.list, f.n, 1, 0);
	for (i = 0; i < 3 && ft_status(&f, hc).state != DLA_TASK_DONE; i++)
		fake_hw_step(&f.hw);
	c_after = i;
	tap_check(ft_status(&f, hc).state == DLA_TASK_DONE && c_after <= 2,
		  "fair: a 1-op task behind a 12-op task done after %u ops",
		  c_after);
	fake_hw_run(&f.hw);
	dla_user_release(f.dev, ha);
	dla_user_release(f.dev, hc);
	ft_fini(&f);
	free(a.buf);
	free(b.buf);
	free(c.buf);
}

int main(void)
{
	test_chain();
	test_diamond();
	test_fan();
	test_overlap();
	test_priority();
	test_fair();
	test_slots();
	test_strided_cmx();
	test_zero_producer();
	return tap_finish();
}
