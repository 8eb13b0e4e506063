// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Run-time failures on the fake backend: engine errors, MMU faults
 * (injected and real, from a DMA to an unmapped address), a hung engine
 * aborted through dla_clear_task, a lost interrupt recovered by polling.
 * Each time the failing task stops cleanly, a task running beside it is
 * not disturbed, and the next task runs.
 */
#include "fw_test.h"

/* n DMA ops in a chain, buf1 -> buf2 */
static void build_chain(struct tb *t, unsigned int n)
{
	unsigned int i;

	tb_init(t, NULL, n, n, 0, 0);
	for (i = 0; i < n; i++) {
		tb_copy(&t->dma[i], tb_ref(1, 0, 256), tb_ref(2, 256 * i, 256),
			256);
		if (i)
			tb_wait(t, &t->dma[i].deps, i - 1);
		tb_update(t, &t->dma[i].deps, i);
	}
}

/* n independent DPU pools */
static void build_dpu(struct tb *t, unsigned int n)
{
	unsigned int i;

	tb_init(t, NULL, 0, 0, n, 0);
	for (i = 0; i < n; i++) {
		struct dla_dpu_op *d = &t->dpu[i];

		d->op = VPUX_DPU_OP_AVGPOOL;
		d->in_c = d->out_c = 4;
		d->in_h = d->in_w = 4;
		d->out_h = d->out_w = 1;
		d->kernel_h = d->kernel_w = 4;
		d->stride_h = d->stride_w = 1;
		d->in = tb_cmx(0, 0, 64);
		d->out = tb_cmx(0, 64 + 4 * i, 4);
		tb_dpu_quant(d);
	}
}

static int next_task_runs(struct ft *f)
{
	struct tb t;
	int h, ok;

	build_chain(&t, 3);
	h = ft_submit_tb(f, &t, 0);
	fake_hw_run(&f->hw);
	ok = h >= 0 && ft_status(f, h).state == DLA_TASK_DONE;
	dla_user_release(f->dev, h);
	free(t.buf);
	return ok;
}

static void test_engine_error(void)
{
	struct dla_task_status st;
	struct ft f;
	struct tb a, b;
	int ha, hb;

	ft_init(&f, 1, 1, 1);
	build_chain(&a, 4);
	build_dpu(&b, 3);
	ft_list(&f, &a, 2, 4096);
	ha = ft_submit_tb(&f, &a, 0);
	hb = ft_submit_tb(&f, &b, 0);
	/* the second op of the chain fails with a descriptor error */
	fake_hw_step(&f.hw);
	fake_hw_inject(&f.hw, 0, FAKE_ERROR, VPUX_ENG_ERR_DESC);
	fake_hw_run(&f.hw);
	st = ft_status(&f, ha);
	tap_check(st.state == DLA_TASK_FAILED && st.error == -DLA_ERR_ENGINE &&
		  st.fail_kind == DLA_OP_DMA && st.fail_index == 1 &&
		  ((st.eng_status >> VPUX_ENG_ERROR_SHIFT) & 0xff) ==
		  VPUX_ENG_ERR_DESC,
		  "engine error: task failed, dma op 1, engine status kept");
	tap_check(st.ops_done == 1 && f.hw.eng[0].starts == 2,
		  "engine error: remaining ops not started");
	tap_check(ft_status(&f, hb).state == DLA_TASK_DONE &&
		  ft_status(&f, hb).ops_done == 3,
		  "engine error: the other task in flight completed");
	tap_check(dla_user_wait(f.dev, ha, 0) == 0,
		  "engine error: waiting on the failed task returns");
	dla_user_release(f.dev, ha);
	dla_user_release(f.dev, hb);
	tap_check(next_task_runs(&f), "engine error: next task runs");
	ft_fini(&f);
	free(a.buf);
	free(b.buf);
}

static void test_mmu_fault_injected(void)
{
	struct dla_task_status st;
	struct ft f;
	struct tb a;
	int ha;

	ft_init(&f, 1, 1, 1);
	build_dpu(&a, 3);
	ft_list(&f, &a, 2, 4096);
	fake_hw_inject(&f.hw, 1, FAKE_MMU_FAULT, 0);
	ha = ft_submit_tb(&f, &a, 0);
	fake_hw_run(&f.hw);
	st = ft_status(&f, ha);
	tap_check(st.state == DLA_TASK_FAILED &&
		  st.error == -DLA_ERR_MMU_FAULT && st.fail_kind == DLA_OP_DPU &&
		  st.fail_index == 0,
		  "mmu fault: task failed with -DLA_ERR_MMU_FAULT on dpu op 0");
	tap_check(st.fault_addr == 0xdead000ull &&
		  ((st.fault_status & VPUX_FAULT_ENGINE_MASK) >>
		   VPUX_FAULT_ENGINE_SHIFT) == 1,
		  "mmu fault: faulting address and engine reported");
	tap_check(st.ops_done == 0 && f.hw.eng[1].starts == 1,
		  "mmu fault: no further op started");
	dla_user_release(f.dev, ha);
	tap_check(next_task_runs(&f), "mmu fault: next task runs");
	ft_fini(&f);
	free(a.buf);
}

static void test_mmu_fault_real(void)
{
	struct dla_task_status st;
	struct ft f;
	struct tb a, b;
	int ha, hb;

	ft_init(&f, 2, 1, 1);
	build_chain(&a, 3);
	build_chain(&b, 3);
	ft_list(&f, &a, 2, 4096);
	/* task a's buffer 2 is in its address list but not mapped */
	f.list[2].va += 0x80000000ull;
	ha = ft_submit_tb(&f, &a, 0);
	f.list[2].va -= 0x80000000ull;
	hb = ft_submit_tb(&f, &b, 0);
	fake_hw_run(&f.hw);
	st = ft_status(&f, ha);
	tap_check(st.state == DLA_TASK_FAILED &&
		  st.error == -DLA_ERR_MMU_FAULT && st.fail_index == 0 &&
		  st.fault_addr == FAKE_VA_BASE + 2 * FT_BUF_STRIDE + 0x80000000ull,
		  "unmapped dma target: mmu fault at the unmapped address");
	tap_check(ft_status(&f, hb).state == DLA_TASK_DONE,
		  "unmapped dma target: other task unharmed");
	tap_check(!memcmp(ft_buf(&f, 2), ft_buf(&f, 1), 256),
		  "unmapped dma target: other task's data copied");
	dla_user_release(f.dev, ha);
	dla_user_release(f.dev, hb);
	tap_check(next_task_runs(&f), "unmapped dma target: next task runs");
	ft_fini(&f);
	free(a.buf);
	free(b.buf);
}

static void test_hang(void)
{
	struct ft f;
	struct tb a, b;
	int ha, hb;

	ft_init(&f, 1, 2, 1);
	build_dpu(&a, 2);
	build_dpu(&b, 4);
	ft_list(&f, &a, 0, 0);
	fake_hw_inject(&f.hw, 1, FAKE_HANG, 0);
	ha = ft_submit_tb(&f, &a, 0);	/* a0 hangs on engine 1, a1 on 2 */
	hb = ft_submit_tb(&f, &b, 0);
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, ha).state == DLA_TASK_RUNNING &&
		  ft_status(&f, ha).ops_done == 1,
		  "hang: task stuck with one op on a hung engine");
	tap_check(ft_status(&f, hb).state == DLA_TASK_DONE,
		  "hang: other task finished on the remaining engine");
	tap_check(dla_user_wait(f.dev, ha, 20) == -DLA_ERR_RUNNING,
		  "hang: wait times out");
	{
		struct dla_op_time ot[2];

		/* the timeline stops at the hung op: it holds its engine */
		tap_check(dla_user_op_times(f.dev, ha, ot, 2) == 2 &&
			  ot[0].engine == 1 && !ot[0].done &&
			  ot[0].end == ot[0].start && ot[1].engine == 2 &&
			  ot[1].done && ot[1].end > ot[1].start,
			  "hang: op times: dpu0 stuck on engine 1, dpu1 done on engine 2");
	}
	tap_check(dla_user_release(f.dev, ha) == 0 && !f.hw.eng[1].busy,
		  "hang: release aborts the task and resets the hung engine");
	dla_user_release(f.dev, hb);
	free(b.buf);
	build_dpu(&b, 4);
	hb = ft_submit_tb(&f, &b, 0);
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, hb).state == DLA_TASK_DONE &&
		  f.hw.eng[1].starts > 1,
		  "hang: next task runs, on the reset engine too");
	dla_user_release(f.dev, hb);
	ft_fini(&f);
	free(a.buf);
	free(b.buf);
}

static void test_abort_running(void)
{
	struct ft f;
	struct tb a;
	int ha;

	ft_init(&f, 1, 1, 1);
	build_chain(&a, 4);
	ft_list(&f, &a, 2, 4096);
	ha = ft_submit_tb(&f, &a, 0);
	fake_hw_step(&f.hw);
	tap_check(dla_user_release(f.dev, ha) == 0,
		  "abort: running task released");
	tap_check(!f.hw.eng[0].busy && f.hw.eng[0].starts == 2,
		  "abort: its op on the engine was aborted, no more started");
	/* the aborted op's stale interrupt is pending: it must be ignored */
	tap_check(next_task_runs(&f), "abort: next task runs despite stale IRQ");
	tap_check(dla_user_release(f.dev, ha) == -DLA_ERR_NOENT,
		  "abort: a released handle is gone");
	ft_fini(&f);
	free(a.buf);
}

static void test_dropped_irq(void)
{
	struct ft f;
	struct tb a;
	int ha;

	ft_init(&f, 1, 1, 1);
	build_chain(&a, 3);
	ft_list(&f, &a, 2, 4096);
	fake_hw_inject(&f.hw, 0, FAKE_DROP_IRQ, 0);
	ha = ft_submit_tb(&f, &a, 0);
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, ha).state == DLA_TASK_RUNNING &&
		  f.hw.eng[0].ops_done == 1,
		  "dropped irq: op done but the task does not know");
	tap_check(dla_user_poll(f.dev) == 1, "dropped irq: poll finds it");
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, ha).state == DLA_TASK_DONE,
		  "dropped irq: task completes after the poll");
	tap_check(dla_user_poll(f.dev) == 0, "dropped irq: nothing left");
	dla_user_release(f.dev, ha);
	ft_fini(&f);
	free(a.buf);
}

int main(void)
{
	test_engine_error();
	test_mmu_fault_injected();
	test_mmu_fault_real();
	test_hang();
	test_abort_running();
	test_dropped_irq();
	return tap_finish();
}
