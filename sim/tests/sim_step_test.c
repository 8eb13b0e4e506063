// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Step mode: engines run in parallel on the virtual clock and
 * vpux_host_dev_step() completes the op that finishes first; the result is
 * deterministic. Fault injection kinds and recovery from each.
 */
#include "sim_test.h"

static struct t_dev t;
static uint32_t order[64];
static unsigned int n_order;
static unsigned int n_calls;

/* Interrupt handler: record completed engines in order, ack everything. */
static void handler(void *arg)
{
	uint32_t st = t_reg(&t, VPUX_REG_IRQ_STATUS), e;

	(void)arg;
	n_calls++;
	for (e = 0; e < VPUX_MAX_ENGINES; e++)
		if (st & VPUX_IRQ_ENGINE(e) && n_order < 64)
			order[n_order++] = e;
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, st);
}

static uint64_t cycles(void)
{
	uint64_t lo = t_reg(&t, VPUX_REG_CYCLES_LO);

	return lo | (uint64_t)t_reg(&t, VPUX_REG_CYCLES_HI) << 32;
}

static struct t_buf a, b;

static void dma(uint32_t e, uint32_t len)
{
	struct vpux_hw_dma_desc d = t_dma_1d(a.va, b.va + e * 8192, len);

	t_start(&t, e, 0, &d, sizeof(d));
}

/* A SHAVE op that fails at once (unknown kernel): cheapest op there is. */
static void shave_bad(uint32_t e)
{
	struct vpux_hw_shave_desc d;

	memset(&d, 0, sizeof(d));
	d.kernel_id = 0xfffe;
	d.args = a.va;
	d.args_size = 8;
	t_start(&t, e, 0, &d, sizeof(d));
}

static void reset_log(void)
{
	n_order = 0;
	n_calls = 0;
}

static int drain(void)
{
	int n = 0;

	while (vpux_host_dev_step(t.dev))
		n++;
	return n;
}

static void open_dev(void)
{
	struct vpux_sim_config cfg;

	vpux_sim_default_config(&cfg);
	cfg.n_dma = 4;
	if (t_open(&t, &cfg, true))
		exit(1);
	vpux_host_dev_set_irq_handler(t.dev, handler, NULL);
	t_buf_alloc(&t, &a, 16384, false);
	t_buf_alloc(&t, &b, 65536, true);
	t_fill(a.ptr, a.size);
}

static void close_dev(void)
{
	t_buf_free(&t, &a);
	t_buf_free(&t, &b);
	t_close(&t);
}

/* DMA cycles for a 1-D copy of @len bytes */
static uint64_t dc(uint32_t len)
{
	return 64 + (len + 31) / 32;
}

/* The scenario the determinism check repeats; returns a fingerprint. */
static uint64_t scenario(uint32_t *seq, unsigned int *n)
{
	uint64_t t0 = cycles(), fp;
	uint32_t shave = t.n_dma + t.n_dpu;

	reset_log();
	dma(0, 3200);	/* 164 cycles */
	dma(1, 320);	/* 74 */
	dma(2, 3200);	/* 164: ties with engine 0, started later */
	shave_bad(shave);	/* 16 */
	vpux_host_dev_step(t.dev);	/* shave */
	vpux_host_dev_step(t.dev);	/* dma 1 at t0+74 */
	dma(1, 320);	/* ends at t0+148 */
	drain();
	fp = cycles() - t0;
	memcpy(seq, order, n_order * sizeof(*seq));
	*n = n_order;
	return fp;
}

static void test_order(void)
{
	uint32_t seq1[64], seq2[64];
	unsigned int n1, n2;
	uint64_t fp1, fp2;
	uint32_t shave = t.n_dma + t.n_dpu;

	fp1 = scenario(seq1, &n1);
	tap_check(n1 == 5 && seq1[0] == shave && seq1[1] == 1 && seq1[2] == 1 &&
		  seq1[3] == 0 && seq1[4] == 2,
		  "completion order = earliest virtual finish (shave, dma1, dma1, dma0, dma2)");
	tap_check(fp1 == dc(3200), "engines run in parallel: clock advanced by the longest op (%llu)",
		  (unsigned long long)fp1);
	tap_check(n_calls == 5, "one interrupt per completion in step mode (%u)", n_calls);
	tap_check(t_eng(&t, 1, VPUX_ENG_OPS_DONE) == 2 &&
		  t_eng(&t, 0, VPUX_ENG_OP_CYCLES) == dc(3200) &&
		  t_eng(&t, shave, VPUX_ENG_STATUS) == T_ERR(VPUX_ENG_ERR_KERNEL),
		  "per-engine status and counters");

	close_dev();
	open_dev();
	fp2 = scenario(seq2, &n2);
	tap_check(fp1 == fp2 && n1 == n2 && !memcmp(seq1, seq2, n1 * sizeof(*seq1)),
		  "same scenario on a fresh device: identical order and clock");

	/* sequential ops add up */
	reset_log();
	fp1 = cycles();
	dma(0, 320);
	drain();
	dma(0, 320);
	drain();
	tap_check(cycles() - fp1 == 2 * dc(320), "back-to-back ops on one engine add up");
	tap_check(vpux_host_dev_step(t.dev) == 0, "step with nothing queued returns 0");
}

static void test_inject(void)
{
	uint64_t c0;

	/* SLOW: x10 makes the short op finish last */
	reset_log();
	t_wreg(&t, VPUX_REG_INJECT_ARG, 10);
	t_wreg(&t, VPUX_REG_INJECT, 1 | VPUX_INJECT_SLOW << 8 | 1 << 16);
	c0 = cycles();
	dma(0, 3200);
	dma(1, 320);
	drain();
	tap_check(n_order == 2 && order[0] == 0 && order[1] == 1 &&
		  t_eng(&t, 1, VPUX_ENG_OP_CYCLES) == 10 * dc(320) &&
		  cycles() - c0 == 10 * dc(320),
		  "SLOW x10: cycles multiplied, completion order follows");
	tap_check(!memcmp(b.ptr + 8192, a.ptr, 320), "SLOW op still moved its data");

	/* HANG: other engines progress, the hung one never completes */
	reset_log();
	t_wreg(&t, VPUX_REG_INJECT, 0 | VPUX_INJECT_HANG << 8 | 1 << 16);
	memset(b.ptr, 0, 4096);
	dma(0, 3200);
	dma(1, 320);
	tap_check(drain() == 1 && n_order == 1 && order[0] == 1, "HANG: only the other engine completes");
	tap_check(t_eng(&t, 0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_BUSY && b.ptr[0] == 0 &&
		  !memcmp(b.ptr + 1, b.ptr, 3199),
		  "hung engine stays BUSY and moves no data");
	t_wreg(&t, VPUX_REG_ENGINE(0) + VPUX_ENG_CMD, VPUX_ENG_CMD_ABORT);
	tap_check(t_eng(&t, 0, VPUX_ENG_STATUS) == T_ERR(VPUX_ENG_ERR_ABORTED) && drain() == 0,
		  "ABORT ends the hang: ERROR|ABORTED, no completion");
	dma(0, 320);
	tap_check(drain() == 1 && t_eng(&t, 0, VPUX_ENG_STATUS) == T_DONE,
		  "next op after ABORT completes");

	/* HANG recovered by device RESET */
	t_wreg(&t, VPUX_REG_INJECT, 2 | VPUX_INJECT_HANG << 8);
	dma(2, 320);
	tap_check(drain() == 0, "HANG (count 0) on engine 2");
	t_wreg(&t, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	tap_check(t_eng(&t, 2, VPUX_ENG_STATUS) == VPUX_ENG_STATE_IDLE &&
		  t_reg(&t, VPUX_REG_INJECT) == 0, "RESET: engine idle, injection cleared");
	reset_log();
	dma(2, 320);
	tap_check(drain() == 1 && t_eng(&t, 2, VPUX_ENG_STATUS) == T_DONE &&
		  n_order == 1 && order[0] == 2, "next op after RESET completes with its IRQ");

	/* HANG recovered by ENGINE_RESET; the other engine is not disturbed */
	t_wreg(&t, VPUX_REG_INJECT, 3 | VPUX_INJECT_HANG << 8 | 1 << 16);
	dma(3, 320);
	dma(0, 320);
	t_wreg(&t, VPUX_REG_ENGINE_RESET, 1u << 3);
	reset_log();
	tap_check(drain() == 1 && n_order == 1 && order[0] == 0,
		  "ENGINE_RESET of the hung engine leaves others running");
	dma(3, 320);
	tap_check(drain() == 1 && t_eng(&t, 3, VPUX_ENG_STATUS) == T_DONE,
		  "next op after ENGINE_RESET completes");

	/* DROP_IRQ */
	reset_log();
	t_wreg(&t, VPUX_REG_INJECT, 1 | VPUX_INJECT_DROP_IRQ << 8 | 1 << 16);
	c0 = t_eng(&t, 1, VPUX_ENG_OPS_DONE);
	dma(1, 320);
	tap_check(drain() == 1 && n_calls == 0 && t_eng(&t, 1, VPUX_ENG_STATUS) == T_DONE &&
		  t_eng(&t, 1, VPUX_ENG_OPS_DONE) == c0 + 1 &&
		  t_reg(&t, VPUX_REG_IRQ_STATUS) == 0,
		  "DROP_IRQ: op DONE, OPS_DONE counts it, no interrupt");
	dma(1, 320);
	tap_check(drain() == 1 && n_calls == 1 && order[0] == 1, "next op raises its IRQ again");

	/* MMU_FAULT (count 2) then normal */
	reset_log();
	t_wreg(&t, VPUX_REG_INJECT, 0 | VPUX_INJECT_MMU_FAULT << 8 | 2 << 16);
	dma(0, 320);
	drain();
	tap_check(t_eng(&t, 0, VPUX_ENG_STATUS) == T_ERR(VPUX_ENG_ERR_MMU) &&
		  (t_reg(&t, VPUX_REG_FAULT_STATUS) & VPUX_FAULT_VALID), "MMU_FAULT #1");
	tap_check(n_calls == 1, "fault and completion delivered in one interrupt");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	dma(0, 320);
	drain();
	tap_check(t_eng(&t, 0, VPUX_ENG_STATUS) == T_ERR(VPUX_ENG_ERR_MMU), "MMU_FAULT #2");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	dma(0, 320);
	drain();
	tap_check(t_eng(&t, 0, VPUX_ENG_STATUS) == T_DONE && t_reg(&t, VPUX_REG_INJECT) == 0,
		  "count exhausted: third op is clean");
}

static uint64_t eng_end(uint32_t e)
{
	uint64_t lo = t_eng(&t, e, VPUX_ENG_END_LO);

	return lo | (uint64_t)t_eng(&t, e, VPUX_ENG_END_HI) << 32;
}

/* Date engine @e's next op: it is ready at cycle @at. */
static void start_at(uint32_t e, uint64_t at)
{
	t_wreg(&t, VPUX_REG_ENGINE(e) + VPUX_ENG_START_AT_LO, (uint32_t)at);
	t_wreg(&t, VPUX_REG_ENGINE(e) + VPUX_ENG_START_AT_HI,
	       (uint32_t)(at >> 32));
}

/*
 * Per-engine time (hw-model.rst, "Virtual time"): the host issues the
 * second of two ops only after the first completed, as a scheduler that
 * reacts to completions does. Independent (both ready at t0, on two
 * engines): they overlap on the cycle clock, the span is the longer op,
 * less than the sum. Dependent (the second ready at the first's END):
 * the span is the sum. An op ready before ops its engine ran later runs
 * in the gap they left; an undated op begins at the counter, as before.
 */
static void test_start_at(void)
{
	uint64_t t0, c = dc(3200);

	tap_check(t_reg(&t, VPUX_REG_CAPS) & VPUX_CAP_START_AT,
		  "CAPS has START_AT");
	/* independent */
	t0 = cycles();
	start_at(0, t0);
	dma(0, 3200);
	drain();
	start_at(1, t0);
	dma(1, 3200);
	drain();
	tap_check(eng_end(0) == t0 + c && eng_end(1) == t0 + c &&
		  cycles() - t0 == c,
		  "independent ops on two engines overlap: span %llu < sum %llu",
		  (unsigned long long)(cycles() - t0),
		  (unsigned long long)(2 * c));
	/* dependent */
	t0 = cycles();
	start_at(0, t0);
	dma(0, 3200);
	drain();
	start_at(1, eng_end(0));
	dma(1, 3200);
	drain();
	tap_check(eng_end(1) == t0 + 2 * c && cycles() - t0 == 2 * c,
		  "dependent ops: span = sum (%llu)",
		  (unsigned long long)(cycles() - t0));
	/* one engine: ready later, then earlier: the gap before it is used */
	t0 = cycles();
	start_at(0, t0 + 200);
	dma(0, 3200);
	drain();
	start_at(0, t0);
	dma(0, 320);
	drain();
	tap_check(eng_end(0) == t0 + dc(320) && cycles() - t0 == 200 + c,
		  "an op fits the engine's gap before a later-dated one");
	start_at(0, t0);
	dma(0, 3200);
	drain();
	tap_check(eng_end(0) == t0 + 200 + 2 * c,
		  "an op that does not fit waits for the engine (%llu)",
		  (unsigned long long)(eng_end(0) - t0));
	/* undated: at the counter */
	t0 = cycles();
	dma(1, 320);
	drain();
	tap_check(eng_end(1) == t0 + dc(320) && cycles() - t0 == dc(320),
		  "an undated op begins at the cycle counter");
}

int main(void)
{
	t_seed(7);
	open_dev();
	test_order();
	test_inject();
	test_start_at();
	close_dev();
	return tap_finish();
}
