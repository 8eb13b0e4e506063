// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Asynchronous mode: the worker thread executes ops after env->kick, the
 * interrupt thread runs the handler, the test thread plays the driver and
 * waits for completions the way a bottom half would. Engines overlap;
 * every completion is delivered exactly once even when the handler acks
 * one bit at a time; hangs, dropped interrupts and resets under load.
 * With direct delivery the workers run the handler themselves.
 */
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <time.h>

#include "sim_test.h"

static struct t_dev t;

static struct {
	pthread_mutex_t m;
	pthread_cond_t cv;
	uint32_t bits;		/* acked bits not yet consumed by a waiter */
	unsigned int calls;
	unsigned int per_engine[VPUX_MAX_ENGINES];
	bool ack_one;		/* ack only the lowest pending bit per call */
	bool have_irq_thread;
	pthread_t irq_thread;	/* the thread of the first call */
	unsigned int off_irq_thread;	/* calls on another thread */
} irq = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, {0}, false,
	  false, 0, 0 };

static void handler(void *arg)
{
	uint32_t st = t_reg(&t, VPUX_REG_IRQ_STATUS), ack, e;

	(void)arg;
	ack = irq.ack_one ? st & -st : st;
	if (ack)
		t_wreg(&t, VPUX_REG_IRQ_CLEAR, ack);
	pthread_mutex_lock(&irq.m);
	irq.calls++;
	if (!irq.have_irq_thread) {
		irq.irq_thread = pthread_self();
		irq.have_irq_thread = true;
	} else if (!pthread_equal(irq.irq_thread, pthread_self())) {
		irq.off_irq_thread++;
	}
	for (e = 0; e < VPUX_MAX_ENGINES; e++)
		if (ack & VPUX_IRQ_ENGINE(e))
			irq.per_engine[e]++;
	irq.bits |= ack;
	pthread_cond_broadcast(&irq.cv);
	pthread_mutex_unlock(&irq.m);
}

/* Wait until every bit of @want has been delivered; consume them. */
static bool wait_bits(uint32_t want, int ms)
{
	return t_wait_bits(&irq.m, &irq.cv, &irq.bits, want, ms);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Poll an engine's STATUS until it leaves BUSY. */
static uint32_t poll_status(uint32_t e, int ms)
{
	uint32_t st;

	while ((st = t_eng(&t, e, VPUX_ENG_STATUS)) == VPUX_ENG_STATE_BUSY && ms-- > 0)
		sleep_ms(1);
	return st;
}

static void test_overlap(void)
{
	struct t_buf src, dst[4];
	int round, bad_data = 0, bad_status = 0, timeouts = 0;
	uint32_t e, all = 0, len[4], offs[4];

	t_buf_alloc(&t, &src, 1 << 20, false);
	t_fill(src.ptr, src.size);
	for (e = 0; e < t.n_dma; e++) {
		t_buf_alloc(&t, &dst[e], 1 << 20, true);
		all |= VPUX_IRQ_ENGINE(e);
	}
	for (round = 0; round < 100; round++) {
		for (e = 0; e < t.n_dma; e++) {
			struct vpux_hw_dma_desc d;
			uint32_t off = t_rand() % 4096;

			len[e] = t_range(1, (1 << 20) - 4096);
			d = t_dma_1d(src.va + off, dst[e].va, len[e]);
			memset(dst[e].ptr, 0, 64);
			t_start(&t, e, 0, &d, sizeof(d));
			offs[e] = off;
		}
		if (!wait_bits(all, 10000)) {
			timeouts++;
			break;
		}
		for (e = 0; e < t.n_dma; e++) {
			bad_status += t_eng(&t, e, VPUX_ENG_STATUS) != T_DONE;
			bad_data += memcmp(dst[e].ptr, src.ptr + offs[e], len[e]) != 0;
		}
	}
	tap_check(!timeouts, "100 rounds of %u overlapping DMA ops complete", t.n_dma);
	tap_check(!bad_status && !bad_data, "every op DONE with correct data (%d/%d bad)",
		  bad_status, bad_data);
	pthread_mutex_lock(&irq.m);
	tap_check(irq.per_engine[0] == 100 && irq.per_engine[t.n_dma - 1] == 100,
		  "each completion delivered exactly once (%u, %u)", irq.per_engine[0],
		  irq.per_engine[t.n_dma - 1]);
	pthread_mutex_unlock(&irq.m);
	for (e = 0; e < t.n_dma; e++)
		t_buf_free(&t, &dst[e]);
	t_buf_free(&t, &src);
}

static void test_ack_one(void)
{
	struct t_buf src, dst;
	uint32_t e, all = 0;
	unsigned int before[VPUX_MAX_ENGINES];
	bool ok;

	t_buf_alloc(&t, &src, 4096, false);
	t_buf_alloc(&t, &dst, 4096 * 4, true);
	pthread_mutex_lock(&irq.m);
	irq.ack_one = true;
	memcpy(before, irq.per_engine, sizeof(before));
	pthread_mutex_unlock(&irq.m);
	/* park the worker's output: start all, then let the worker run */
	for (e = 0; e < t.n_dma; e++) {
		struct vpux_hw_dma_desc d = t_dma_1d(src.va, dst.va + e * 4096, 4096);

		t_start(&t, e, 0, &d, sizeof(d));
		all |= VPUX_IRQ_ENGINE(e);
	}
	ok = wait_bits(all, 10000);
	tap_check(ok, "handler acking one bit per call still sees all %u completions", t.n_dma);
	pthread_mutex_lock(&irq.m);
	irq.ack_one = false;
	for (e = 0; e < t.n_dma; e++)
		ok &= irq.per_engine[e] == before[e] + 1;
	pthread_mutex_unlock(&irq.m);
	tap_check(ok, "and each exactly once");
	tap_check(t_reg(&t, VPUX_REG_IRQ_STATUS) == 0, "nothing left pending");
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

static void test_faults_async(void)
{
	struct t_buf src, dst;
	struct vpux_hw_dma_desc d;
	uint32_t st;

	t_buf_alloc(&t, &src, 8 << 20, false);
	t_buf_alloc(&t, &dst, 8 << 20, true);
	t_fill(src.ptr, 4096);

	/* HANG: no completion, ABORT, then the engine works */
	t_wreg(&t, VPUX_REG_INJECT, 0 | VPUX_INJECT_HANG << 8 | 1 << 16);
	d = t_dma_1d(src.va, dst.va, 4096);
	t_start(&t, 0, 0, &d, sizeof(d));
	tap_check(!wait_bits(VPUX_IRQ_ENGINE(0), 100) &&
		  t_eng(&t, 0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_BUSY,
		  "hung op: no interrupt within 100 ms, engine BUSY");
	t_wreg(&t, VPUX_REG_ENGINE(0) + VPUX_ENG_CMD, VPUX_ENG_CMD_ABORT);
	tap_check(t_eng(&t, 0, VPUX_ENG_STATUS) == T_ERR(VPUX_ENG_ERR_ABORTED),
		  "ABORT: ERROR|ABORTED");
	t_start(&t, 0, 0, &d, sizeof(d));
	tap_check(wait_bits(VPUX_IRQ_ENGINE(0), 10000) &&
		  t_eng(&t, 0, VPUX_ENG_STATUS) == T_DONE, "op after ABORT completes");

	/* DROP_IRQ: completion found by polling */
	t_wreg(&t, VPUX_REG_INJECT, 1 | VPUX_INJECT_DROP_IRQ << 8 | 1 << 16);
	t_start(&t, 1, 0, &d, sizeof(d));
	st = poll_status(1, 10000);
	tap_check(st == T_DONE && !wait_bits(VPUX_IRQ_ENGINE(1), 50),
		  "DROP_IRQ: DONE by polling, interrupt never arrives");

	/* MMU fault reaches the handler */
	d = t_dma_1d(src.va, 0x2000, 64);
	t_start(&t, 1, 0, &d, sizeof(d));
	tap_check(wait_bits(VPUX_IRQ_ENGINE(1) | VPUX_IRQ_MMU_FAULT, 10000) &&
		  t_eng(&t, 1, VPUX_ENG_STATUS) == T_ERR(VPUX_ENG_ERR_MMU),
		  "MMU fault and error completion delivered to the handler");
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);

	/* RESET while big copies run on the worker */
	d = t_dma_1d(src.va, dst.va, 8 << 20);
	t_start(&t, 0, 0, &d, sizeof(d));
	t_start(&t, 1, 0, &d, sizeof(d));
	t_wreg(&t, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	tap_check(t_eng(&t, 0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_IDLE &&
		  t_eng(&t, 1, VPUX_ENG_STATUS) == VPUX_ENG_STATE_IDLE,
		  "RESET under load: engines IDLE at once");
	sleep_ms(20);
	pthread_mutex_lock(&irq.m);
	irq.bits = 0;
	pthread_mutex_unlock(&irq.m);
	tap_check(t_reg(&t, VPUX_REG_IRQ_STATUS) == 0 &&
		  t_eng(&t, 0, VPUX_ENG_OPS_DONE) == 0,
		  "results of ops killed by RESET are discarded");
	/* once RESET has returned, the abandoned op stores nothing more */
	{
		volatile uint8_t *last = dst.ptr + (8 << 20) - 1;
		uint8_t *snap = malloc(8 << 20);
		int spins = 0;

		memset(dst.ptr, 0, 8 << 20);
		memset(src.ptr, 0xee, 8 << 20);
		d = t_dma_1d(src.va, dst.va, 64);
		d.count[0] = 1024;
		d.count[1] = 128;
		d.src_stride[0] = d.dst_stride[0] = 64;
		d.src_stride[1] = d.dst_stride[1] = 65536;
		t_start(&t, 0, 0, &d, sizeof(d));
		while (!((volatile uint8_t *)dst.ptr)[0] && spins++ < 100000)
			sched_yield();
		t_wreg(&t, VPUX_REG_RESET, VPUX_RESET_DEVICE);
		memcpy(snap, dst.ptr, 8 << 20);
		sleep_ms(50);
		tap_check(!memcmp(snap, dst.ptr, 8 << 20),
			  "no store after RESET returned (copy %s when reset)",
			  *last ? "had finished" : "was in flight");
		free(snap);
	}
	d = t_dma_1d(src.va, dst.va + 4096, 4096);
	t_start(&t, 0, 0, &d, sizeof(d));
	tap_check(wait_bits(VPUX_IRQ_ENGINE(0), 10000) &&
		  t_eng(&t, 0, VPUX_ENG_STATUS) == T_DONE &&
		  !memcmp(dst.ptr + 4096, src.ptr, 4096), "op after RESET completes");
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

/*
 * vpux_host_dev_set_irq_direct(): the workers call the handler; every
 * completion is still delivered exactly once.
 */
static void test_direct(void)
{
	unsigned int before[VPUX_MAX_ENGINES], off, r;
	struct t_buf src, dst;
	uint32_t e, all;
	bool ok = true;

	pthread_mutex_lock(&irq.m);
	tap_check(irq.have_irq_thread && !irq.off_irq_thread,
		  "without direct delivery every call runs on the interrupt thread");
	memcpy(before, irq.per_engine, sizeof(before));
	pthread_mutex_unlock(&irq.m);
	t_buf_alloc(&t, &src, 4096, false);
	t_buf_alloc(&t, &dst, 4096 * t.n_dma, true);
	vpux_host_dev_set_irq_direct(t.dev, true);
	for (r = 0; r < 50 && ok; r++) {
		all = 0;
		for (e = 0; e < t.n_dma; e++) {
			struct vpux_hw_dma_desc d = t_dma_1d(src.va, dst.va + e * 4096, 4096);

			t_start(&t, e, 0, &d, sizeof(d));
			all |= VPUX_IRQ_ENGINE(e);
		}
		ok = wait_bits(all, 10000);
	}
	vpux_host_dev_set_irq_direct(t.dev, false);
	tap_check(ok, "direct delivery: 50 rounds of %u DMA ops complete", t.n_dma);
	pthread_mutex_lock(&irq.m);
	for (e = 0; e < t.n_dma; e++)
		ok &= irq.per_engine[e] == before[e] + 50;
	off = irq.off_irq_thread;
	pthread_mutex_unlock(&irq.m);
	tap_check(ok, "direct delivery: each completion delivered exactly once");
	tap_check(off > 0, "direct delivery: the workers ran the handler (%u calls)", off);
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

int main(void)
{
	struct vpux_sim_config cfg;

	t_seed(99);
	vpux_sim_default_config(&cfg);
	cfg.n_dma = 4;
	if (t_open(&t, &cfg, false))
		return 1;
	vpux_host_dev_set_irq_handler(t.dev, handler, NULL);
	test_overlap();
	test_ack_one();
	test_faults_async();
	test_direct();
	vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
	t_close(&t);
	return tap_finish();
}
