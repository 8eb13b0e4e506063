// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Long compute ops on the threaded host platform: ABORT and ENGINE_RESET
 * stop a DPU or SHAVE op that takes seconds within a bounded time (the
 * engine runs its next op at once, the abandoned op stores nothing after
 * the register write returned), and a long op on one engine does not
 * delay the ops of the others. Prints the measured latencies.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "sim_test.h"
#include "vpux_ops.h"
#include "vpux_shave_abi.h"

/*
 * The bounds only have to tell a bounded latency from one of the long
 * op's length (5 s), on a loaded 2-core host running sanitized tests and
 * VMs next to each other; the figures are printed (typically 2 to 35 ms
 * after an abort, 0.1 ms for the DMA).
 */
#define ABORT_BOUND_MS		1000
#define OTHER_BOUND_MS		1000

static struct t_dev t;
static uint32_t dpu0, shave0;

static struct {
	pthread_mutex_t m;
	pthread_cond_t cv;
	uint32_t bits;		/* acked, not yet consumed */
	double when;		/* time of the last delivery, ms */
} irq = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void handler(void *arg)
{
	uint32_t st = t_reg(&t, VPUX_REG_IRQ_STATUS);

	(void)arg;
	if (st)
		t_wreg(&t, VPUX_REG_IRQ_CLEAR, st);
	pthread_mutex_lock(&irq.m);
	irq.bits |= st;
	irq.when = now_ms();
	pthread_cond_broadcast(&irq.cv);
	pthread_mutex_unlock(&irq.m);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait until every bit of @want was delivered and consume them. */
static bool wait_bits(uint32_t want, int ms)
{
	return t_wait_bits(&irq.m, &irq.cv, &irq.bits, want, ms);
}

/* delivered bits not consumed yet, and the time of the last delivery */
static uint32_t irq_bits(double *when)
{
	uint32_t bits;

	pthread_mutex_lock(&irq.m);
	bits = irq.bits;
	if (when)
		*when = irq.when;
	pthread_mutex_unlock(&irq.m);
	return bits;
}

static void forget_bits(void)
{
	pthread_mutex_lock(&irq.m);
	irq.bits = 0;
	pthread_mutex_unlock(&irq.m);
}

/* MATMUL [m x k] x [n x k]^T, unsigned, as one output row of m pixels */
static struct vpux_hw_dpu_desc matmul(const struct t_buf *in,
				      const struct t_buf *w,
				      const struct t_buf *out, uint16_t m,
				      uint16_t k, uint16_t n)
{
	struct vpux_hw_dpu_desc d;

	memset(&d, 0, sizeof(d));
	d.op = VPUX_DPU_OP_MATMUL;
	d.in = in->va;
	d.in2 = w->va;
	d.out = out->va;
	d.in_c = k;
	d.in_h = d.out_h = 1;
	d.in_w = d.out_w = m;
	d.out_c = n;
	d.act_min = 0;
	d.act_max = 255;
	d.requant.mult = 1 << 30;
	d.requant.shift = 12;
	return d;
}

/* Run a small MATMUL on @e and compare it with the CPU reference. */
static bool small_matmul_ok(uint32_t e, double *ms)
{
	struct t_buf in, w, out;
	struct vpux_hw_dpu_desc d;
	struct vpux_dpu_operands o;
	uint8_t want[16 * 8];
	double t0 = now_ms();
	bool ok;

	t_buf_alloc(&t, &in, 16 * 64, false);
	t_buf_alloc(&t, &w, 8 * 64, false);
	t_buf_alloc(&t, &out, sizeof(want), true);
	t_fill(in.ptr, 16 * 64);
	t_fill(w.ptr, 8 * 64);
	d = matmul(&in, &w, &out, 16, 64, 8);
	t_start(&t, e, 0, &d, sizeof(d));
	ok = wait_bits(VPUX_IRQ_ENGINE(e), 10000);
	*ms = now_ms() - t0;
	memset(&o, 0, sizeof(o));
	o.in = in.ptr;
	o.in2 = w.ptr;
	o.out = want;
	ok = ok && !vpux_ref_dpu_run(&d, &o) &&
	     t_eng(&t, e, VPUX_ENG_STATUS) == T_DONE &&
	     !memcmp(out.ptr, want, sizeof(want));
	t_buf_free(&t, &out);
	t_buf_free(&t, &w);
	t_buf_free(&t, &in);
	return ok;
}

/*
 * About 4.3 G MACs in one output row (4096 pixels x 256 channels x 4096
 * inputs): seconds on the model, and one row, so only a work-bounded
 * check can stop it early.
 */
struct long_dpu {
	struct t_buf in, w, out;
};

static void long_dpu_start(struct long_dpu *l, uint32_t e)
{
	struct vpux_hw_dpu_desc d;

	t_buf_alloc(&t, &l->in, 4096u * 4096u, false);
	t_buf_alloc(&t, &l->w, 256u * 4096u, false);
	t_buf_alloc(&t, &l->out, 4096u * 256u, true);
	t_fill(l->in.ptr, 4096);	/* the rest stays 0: values do not matter */
	t_fill(l->w.ptr, 4096);
	memset(l->out.ptr, 0xa5, l->out.size);
	d = matmul(&l->in, &l->w, &l->out, 4096, 4096, 256);
	t_start(&t, e, 0, &d, sizeof(d));
}

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void long_dpu_free(struct long_dpu *l)
{
	t_buf_free(&t, &l->out);
	t_buf_free(&t, &l->w);
	t_buf_free(&t, &l->in);
}

/* abort (or engine-reset) a long DPU op; the engine runs the next one */
static void test_dpu_stop(bool reset)
{
	const char *how = reset ? "ENGINE_RESET" : "ABORT";
	uint32_t e = dpu0, st;
	struct long_dpu l;
	double ms;
	bool ok;

	forget_bits();
	long_dpu_start(&l, e);
	sleep_ms(300);
	st = t_eng(&t, e, VPUX_ENG_STATUS);
	tap_check(st == VPUX_ENG_STATE_BUSY, "DPU: the long op still runs after 300 ms");
	if (reset)
		t_wreg(&t, VPUX_REG_ENGINE_RESET, 1u << e);
	else
		t_wreg(&t, VPUX_REG_ENGINE(e) + VPUX_ENG_CMD, VPUX_ENG_CMD_ABORT);
	st = t_eng(&t, e, VPUX_ENG_STATUS);
	tap_check(st == (reset ? VPUX_ENG_STATE_IDLE :
			 T_ERR(VPUX_ENG_ERR_ABORTED)),
		  "DPU %s: engine free at once (STATUS %#x)", how, st);
	ok = small_matmul_ok(e, &ms);
	tap_check(ok, "DPU %s: the next op on the engine runs correctly", how);
	tap_check(ok && ms < ABORT_BOUND_MS,
		  "DPU %s of a 4.3 G MAC op: next op done %.1f ms after the write (bound %d)",
		  how, ms, ABORT_BOUND_MS);
	sleep_ms(50);
	tap_check(all_bytes(l.out.ptr, l.out.size, 0xa5),
		  "DPU %s: the abandoned op stored nothing", how);
	tap_check(!(irq_bits(NULL) & VPUX_IRQ_ENGINE(e)), "DPU %s: no completion", how);
	long_dpu_free(&l);
}

/* PERMUTE (transpose) of [a][b] bytes to [b][a] */
static void permute_args(struct vpux_shave_permute_args *a, uint32_t rows,
			 uint32_t cols)
{
	uint32_t din[2] = { rows, cols }, dout[2] = { cols, rows };

	memset(a, 0, sizeof(*a));
	vpux_memref_compact(&a->in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_U8, 2, din, 0x12);
	vpux_memref_compact(&a->out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_U8, 2, dout, 0x12);
	a->perm[0] = 1;
	a->perm[1] = 0;
}

static void shave_start(uint32_t e, struct t_buf *args, const struct t_buf *in,
			const struct t_buf *out, uint32_t rows, uint32_t cols)
{
	struct vpux_shave_permute_args a;
	struct vpux_hw_shave_desc d;

	permute_args(&a, rows, cols);
	memcpy(args->ptr, &a, sizeof(a));
	memset(&d, 0, sizeof(d));
	d.kernel_id = VPUX_SHAVE_KERNEL_PERMUTE;
	d.args = args->va;
	d.args_size = sizeof(a);
	d.window_base[0] = in->va;
	d.window_size[0] = rows * cols;
	d.window_base[1] = out->va;
	d.window_size[1] = rows * cols;
	t_start(&t, e, 0, &d, sizeof(d));
}

static void test_shave_abort(void)
{
	/*
	 * 256 x 65536 bytes transposed: input elements of an output line are
	 * 64 KiB apart and the input (16 MiB) is too large to stage, so the
	 * kernel reads element by element: 16 M reads, seconds.
	 */
	uint32_t e = shave0, rows = 256, cols = 65536, st, i, j;
	struct t_buf args, in, out, sargs, sin, sout;
	uint8_t *snap;
	double t0, ms;
	bool ok;

	forget_bits();
	t_buf_alloc(&t, &args, sizeof(struct vpux_shave_permute_args), false);
	t_buf_alloc(&t, &in, rows * cols, false);
	t_buf_alloc(&t, &out, rows * cols, true);
	t_fill(in.ptr, rows * cols);
	shave_start(e, &args, &in, &out, rows, cols);
	sleep_ms(300);
	st = t_eng(&t, e, VPUX_ENG_STATUS);
	tap_check(st == VPUX_ENG_STATE_BUSY, "SHAVE: the long op still runs after 300 ms");
	/* the next op: a small transpose on the same engine */
	t_buf_alloc(&t, &sargs, sizeof(struct vpux_shave_permute_args), false);
	t_buf_alloc(&t, &sin, 64 * 32, false);
	t_buf_alloc(&t, &sout, 64 * 32, true);
	t_fill(sin.ptr, 64 * 32);
	snap = malloc(out.size);

	t_wreg(&t, VPUX_REG_ENGINE(e) + VPUX_ENG_CMD, VPUX_ENG_CMD_ABORT);
	t0 = now_ms();
	tap_check(t_eng(&t, e, VPUX_ENG_STATUS) == T_ERR(VPUX_ENG_ERR_ABORTED),
		  "SHAVE ABORT: engine free at once");
	shave_start(e, &sargs, &sin, &sout, 64, 32);
	/* what the abandoned op stored: nothing may change after this */
	memcpy(snap, out.ptr, out.size);
	ok = wait_bits(VPUX_IRQ_ENGINE(e), 10000) &&
	     t_eng(&t, e, VPUX_ENG_STATUS) == T_DONE;
	irq_bits(&ms);
	ms -= t0;
	for (i = 0; i < 64 && ok; i++)
		for (j = 0; j < 32; j++)
			ok &= sout.ptr[j * 64 + i] == sin.ptr[i * 32 + j];
	tap_check(ok, "SHAVE ABORT: the next op on the engine runs correctly");
	tap_check(ok && ms < ABORT_BOUND_MS,
		  "SHAVE ABORT of a 16 M element op: next op done %.1f ms after the write (bound %d)",
		  ms, ABORT_BOUND_MS);
	sleep_ms(50);
	tap_check(!memcmp(snap, out.ptr, out.size),
		  "SHAVE ABORT: nothing stored after the ABORT write returned");
	tap_check(!(irq_bits(NULL) & VPUX_IRQ_ENGINE(e)), "SHAVE ABORT: no completion");
	free(snap);
	t_buf_free(&t, &sout);
	t_buf_free(&t, &sin);
	t_buf_free(&t, &sargs);
	t_buf_free(&t, &out);
	t_buf_free(&t, &in);
	t_buf_free(&t, &args);
}

/* a long DPU op does not delay a 64-byte DMA on another engine */
static void test_independent(void)
{
	struct vpux_hw_dma_desc dma;
	struct t_buf src, dst;
	struct long_dpu l;
	double t0, ms;
	bool ok;

	forget_bits();
	t_buf_alloc(&t, &src, 64, false);
	t_buf_alloc(&t, &dst, 64, true);
	t_fill(src.ptr, 64);
	long_dpu_start(&l, dpu0);
	sleep_ms(300);
	t0 = now_ms();
	dma = t_dma_1d(src.va, dst.va, 64);
	t_start(&t, 0, 0, &dma, sizeof(dma));
	ok = wait_bits(VPUX_IRQ_ENGINE(0), 30000);
	irq_bits(&ms);
	ms -= t0;
	tap_check(ok && t_eng(&t, 0, VPUX_ENG_STATUS) == T_DONE &&
		  !memcmp(src.ptr, dst.ptr, 64), "DMA next to a long DPU op: done, data right");
	tap_check(t_eng(&t, dpu0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_BUSY,
		  "the DPU op is still running when the DMA completed");
	tap_check(ok && ms < OTHER_BOUND_MS,
		  "DMA while the DPU computes: done in %.1f ms (bound %d)",
		  ms, OTHER_BOUND_MS);
	t_wreg(&t, VPUX_REG_ENGINE(dpu0) + VPUX_ENG_CMD, VPUX_ENG_CMD_ABORT);
	long_dpu_free(&l);
	t_buf_free(&t, &dst);
	t_buf_free(&t, &src);
}

int main(void)
{
	t_arena = 256u << 20;
	/*
	 * The DPU op must take seconds: on the generic code, which the
	 * kernel runs (AVX-512 VNNI does its 4.3 G MACs in about 20 ms).
	 * The SIMD paths' yields are tested in test_dpu_paths and
	 * test_dpu_f16.
	 */
	vpux_dpu_set_path(VPUX_DPU_PATH_GENERIC);
	if (t_open(&t, NULL, false))
		return 1;
	dpu0 = t.n_dma;
	shave0 = t.n_dma + t.n_dpu;
	vpux_host_dev_set_irq_handler(t.dev, handler, NULL);
	test_dpu_stop(false);
	test_dpu_stop(true);
	test_shave_abort();
	test_independent();
	vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
	t_close(&t);
	return tap_finish();
}
