// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Interrupt handler changes (vpux_host_dev_set_irq_handler()): like
 * free_irq(), removing or replacing the handler returns only after a call
 * already running on the interrupt thread has returned, so its data can
 * be freed right away (a late call would be a use-after-free under
 * ASan); a handler removing itself does not wait for itself, neither on
 * the interrupt thread nor inside vpux_host_dev_step().
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "sim_test.h"

static struct t_dev t;

/* the handler's data, freed as soon as the handler is unset */
struct slow_data {
	atomic_int entered;
	atomic_int done;
	int delay_ms;
	bool unset_self;	/* remove the handler from inside it */
	uint32_t acked;
};

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void slow_handler(void *arg)
{
	struct slow_data *s = arg;
	uint32_t st;

	atomic_store(&s->entered, 1);
	sleep_ms(s->delay_ms);
	st = t_reg(&t, VPUX_REG_IRQ_STATUS);
	if (st)
		t_wreg(&t, VPUX_REG_IRQ_CLEAR, st);
	s->acked |= st;		/* a write to the data after the sleep */
	if (s->unset_self)
		vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
	atomic_store(&s->done, 1);
}

static atomic_int other_calls;

static void other_handler(void *arg)
{
	uint32_t st = t_reg(&t, VPUX_REG_IRQ_STATUS);

	(void)arg;
	if (st)
		t_wreg(&t, VPUX_REG_IRQ_CLEAR, st);
	atomic_fetch_add(&other_calls, 1);
}

/* Wait up to @ms for *@flag; true if it was set. */
static bool wait_flag(atomic_int *flag, int ms)
{
	int i;

	for (i = 0; i < ms && !atomic_load(flag); i++)
		sleep_ms(1);
	return atomic_load(flag);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* start a small copy on DMA engine 0: raises the line when done */
static void kick_dma(struct t_buf *src, struct t_buf *dst)
{
	struct vpux_hw_dma_desc d = t_dma_1d(src->va, dst->va, 256);

	t_start(&t, 0, 0, &d, sizeof(d));
}

/*
 * A slow handler is running on the interrupt thread when the test thread
 * removes (@replace false) or replaces it; the call must not return
 * before the handler did. The data is then freed at once.
 */
static void test_wait_running(struct t_buf *src, struct t_buf *dst,
			      bool replace)
{
	const char *what = replace ? "replacing" : "removing";
	struct slow_data *s = calloc(1, sizeof(*s));
	double t0, waited;
	bool entered, done;

	s->delay_ms = 200;
	vpux_host_dev_set_irq_handler(t.dev, slow_handler, s);
	kick_dma(src, dst);
	entered = wait_flag(&s->entered, 10000);
	tap_check(entered, "%s: the slow handler runs", what);
	t0 = now_ms();
	if (replace)
		vpux_host_dev_set_irq_handler(t.dev, other_handler, NULL);
	else
		vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
	waited = now_ms() - t0;
	done = atomic_load(&s->done);
	tap_check(entered && done && s->acked,
		  "%s the handler returns after the running call (waited %.0f ms)",
		  what, waited);
	free(s);	/* a later call of slow_handler would be caught by ASan */
	if (!done)	/* do not leave it running on freed data */
		sleep_ms(1000);
	vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
}

/* Removing the handler with no call running returns at once. */
static void test_idle(void)
{
	struct slow_data s = { .delay_ms = 0 };
	double t0;

	vpux_host_dev_set_irq_handler(t.dev, slow_handler, &s);
	t0 = now_ms();
	vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
	tap_check(now_ms() - t0 < 100 && !atomic_load(&s.entered),
		  "removing an idle handler does not wait");
}

/*
 * The handler removes itself on the interrupt thread: no deadlock, and
 * later interrupts are not delivered to it.
 */
static void test_unset_self(struct t_buf *src, struct t_buf *dst)
{
	struct slow_data *s = calloc(1, sizeof(*s));
	bool done;

	s->delay_ms = 1;
	s->unset_self = true;
	vpux_host_dev_set_irq_handler(t.dev, slow_handler, s);
	kick_dma(src, dst);
	done = wait_flag(&s->done, 10000);
	tap_check(done, "a handler removing itself on the interrupt thread returns");
	/* the handler is gone: the next completion stays pending */
	atomic_store(&s->entered, 0);
	kick_dma(src, dst);
	sleep_ms(100);
	tap_check(!atomic_load(&s->entered) &&
		  (t_reg(&t, VPUX_REG_IRQ_STATUS) & VPUX_IRQ_ENGINE(0)),
		  "after removing itself the handler is not called again");
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
	free(s);
}

/* Step mode: the handler runs inside vpux_host_dev_step() and removes itself. */
static void test_step_unset_self(void)
{
	struct t_dev ts;
	struct t_buf src, dst;
	struct slow_data s = { .delay_ms = 0, .unset_self = true };
	struct vpux_hw_dma_desc d;

	if (t_open(&ts, NULL, true)) {
		tap_check(false, "step mode device");
		return;
	}
	t_buf_alloc(&ts, &src, 4096, false);
	t_buf_alloc(&ts, &dst, 4096, true);
	t.dev = ts.dev;		/* slow_handler acks through t */
	vpux_host_dev_set_irq_handler(ts.dev, slow_handler, &s);
	d = t_dma_1d(src.va, dst.va, 256);
	t_start(&ts, 0, 0, &d, sizeof(d));
	while (vpux_host_dev_step(ts.dev))
		;
	tap_check(atomic_load(&s.done) && s.acked,
		  "step mode: a handler removing itself inside the step returns");
	t_buf_free(&ts, &src);
	t_buf_free(&ts, &dst);
	t_close(&ts);
}

int main(void)
{
	struct t_buf src, dst;

	if (t_open(&t, NULL, false))
		return 1;
	t_buf_alloc(&t, &src, 4096, false);
	t_buf_alloc(&t, &dst, 4096, true);
	test_idle();
	test_wait_running(&src, &dst, false);
	test_wait_running(&src, &dst, true);
	test_unset_self(&src, &dst);
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
	t_close(&t);
	test_step_unset_self();
	return tap_finish();
}
