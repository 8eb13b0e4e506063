// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Engine-core scheduler cost per op (a benchmark: prints figures, passes
 * no judgement). Graphs of 100, 1k, 10k and 100k ops over the three engine
 * kinds, in groups of 4 ops that each wait on the previous group's barrier
 * and update their own (4 producers, 4 consumers per barrier); buffer
 * offsets vary from op to op. A minimal register backend completes every
 * op the moment it starts, so only the core's cost is measured: validation
 * at submit (measure + prepare: check every record, build every
 * descriptor), then start, interrupt + bottom half (complete, schedule,
 * program the next ops with their prebuilt descriptors) until done;
 * and the replay of the finished task's schedule that job profiles with
 * op times cost (dla_task_op_times(), "op times" ns/op).
 *
 * With valgrind installed, each size also runs once under callgrind per
 * phase (collection only inside dla_task_measure and dla_task_prepare,
 * resp. dla_task_start, dla_isr_handler and dla_process_events) and the
 * instructions per op are printed: those of the core's own functions
 * (firmware/dla_*.c and the DPU rule they inline from
 * include/hw/vpux_dpu_rules.h), and all instructions including the port
 * callbacks and the register backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dla_user.h"
#include "bench_callgrind.h"
#include "bench_hw.h"
#include "task_builder.h"
#include "vpux_regs.h"

static void build(struct tb *t, unsigned int n)
{
	unsigned int cnt[3] = { 0, 0, 0 }, idx[3] = { 0, 0, 0 }, k, i;
	unsigned int groups = (n + 3) / 4;

	for (i = 0; i < n; i++)
		cnt[i % 3]++;
	tb_init(t, NULL, groups, cnt[0], cnt[1], cnt[2]);
	for (i = 0; i < n; i++) {
		struct dla_op_deps *deps;
		unsigned int g = i / 4;

		k = i % 3;
		if (k == 0) {
			struct dla_dma_op *m = &t->dma[idx[0]++];

			tb_copy(m, tb_ref(1, (i * 64) % 2048, 256),
				tb_cmx(0, (i * 256) % 32768, 256), 256);
			deps = &m->deps;
		} else if (k == 1) {
			struct dla_dpu_op *d = &t->dpu[idx[1]++];

			d->op = VPUX_DPU_OP_ADD;
			d->in_c = d->out_c = 16;
			d->in_h = d->out_h = d->in_w = d->out_w = 4;
			tb_dpu_quant(d);
			d->in = tb_cmx(0, 0, 256);
			d->in2 = tb_cmx(0, 256, 256);
			d->out = tb_cmx(1, (i * 256) % 32768, 256);
			deps = &d->deps;
		} else {
			struct dla_shave_op *s = &t->shave[idx[2]++];

			s->kernel_id = 1;
			s->args = tb_ref(1, 2048 + (i * 128) % 1024, 128);
			s->windows[0] = tb_cmx(1, (i * 256) % 32768, 4096);
			deps = &s->deps;
		}
		if (g)
			tb_wait(t, deps, g - 1);
		tb_update(t, deps, g);
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One run: 0 on success, times in *sub / *run / *tim (ns). */
static int run_once(struct dla_user_dev *dev, struct dla_user_buf *list,
		    struct dla_op_time *times, unsigned int n, double *sub,
		    double *run, double *tim)
{
	struct dla_task_status st;
	double t0, t1, t2, t3;
	int h;

	t0 = now_ns();
	h = dla_user_submit(dev, list, 2, 0, 0);
	t1 = now_ns();
	if (h < 0)
		return -1;
	do {
		dla_user_irq(dev);
		dla_user_status(dev, h, &st);
	} while (st.state == DLA_TASK_RUNNING);
	t2 = now_ns();
	if (dla_user_op_times(dev, h, times, n) != (int)n)
		return -1;
	t3 = now_ns();
	dla_user_release(dev, h);
	*sub = t1 - t0;
	*run = t2 - t1;
	*tim = t3 - t2;
	return st.state == DLA_TASK_DONE ? 0 : -1;
}

static int bench(unsigned int n, int once)
{
	static unsigned char data[4096];
	struct bench_hw hw = { 0 };
	struct dla_user_buf list[2];
	struct dla_user_dev *dev;
	struct tb t;
	double sub, run, tim, best_sub = 1e30, best_run = 1e30, best_tim = 1e30;
	struct dla_op_time *times = calloc(n, sizeof(*times));
	unsigned int reps = once ? 1 : n <= 100 ? 2000 : n <= 10000 ? 30 : 5;
	unsigned int r;

	dev = times ? dla_user_create(&bench_ops, &hw, DLA_USER_INLINE_BH) :
		      NULL;
	if (!dev) {
		free(times);
		return -1;
	}
	build(&t, n);
	list[0] = (struct dla_user_buf){ VPUX_DEFAULT_VA_BASE, t.size, t.buf, 0 };
	list[1] = (struct dla_user_buf){ VPUX_DEFAULT_VA_BASE + (1u << 30),
					 sizeof(data), data, 0 };
	for (r = 0; r < reps; r++) {
		if (run_once(dev, list, times, n, &sub, &run, &tim)) {
			fprintf(stderr, "bench: task of %u ops failed\n", n);
			return -1;
		}
		if (sub + run < best_sub + best_run) {
			best_sub = sub;
			best_run = run;
		}
		if (tim < best_tim)
			best_tim = tim;
	}
	if (!once)
		printf("%7u ops: submit %5.1f ns/op, run %5.1f "
		       "ns/op, total %5.1f ns/op, op times %5.1f ns/op (best of %u)\n",
		       n, best_sub / n, best_run / n, (best_sub + best_run) / n,
		       best_tim / n, reps);
	dla_user_destroy(dev);
	free(times);
	free(t.buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned int sizes[] = { 100, 1000, 10000, 100000 };
	double core[DLA_ARRAY_SIZE(sizes)];
	const unsigned int n_sizes = DLA_ARRAY_SIZE(sizes);
	unsigned int i;

	if (argc == 3 && !strcmp(argv[1], "--once"))
		return bench((unsigned int)atoi(argv[2]), 1) ? 1 : 0;
	setenv("DLA_LOG", "0", 1);
	printf("engine-core cost per op (instant engines: 2 DMA, 2 DPU, "
	       "2 SHAVE; groups of 4 ops, 1 wait + 1 update each)\n");
	for (i = 0; i < n_sizes; i++)
		if (bench(sizes[i], 0))
			return 1;
	if (system("valgrind --version >/dev/null 2>&1") ||
	    system("command -v callgrind_annotate >/dev/null 2>&1")) {
		printf("callgrind: valgrind not installed, skipped\n");
		return 0;
	}
	for (i = 0; i < n_sizes; i++) {
		long long vc = 0, sc = 0, v, s;

		v = callgrind_ir(argv[0], sizes[i],
				 "--toggle-collect=dla_task_measure "
				 "--toggle-collect=dla_task_prepare", &vc);
		s = callgrind_ir(argv[0], sizes[i],
				 "--toggle-collect=dla_task_start "
				 "--toggle-collect=dla_isr_handler "
				 "--toggle-collect=dla_process_events", &sc);
		if (v < 0 || s < 0 || vc <= 0 || sc <= 0) {
			printf("callgrind: run of %u ops failed\n", sizes[i]);
			return 1;
		}
		core[i] = (double)(vc + sc) / sizes[i];
		printf("callgrind %6u ops: core %5.0f instr/op (validate %4.0f "
		       "+ start/schedule/program %4.0f); %5.0f with port "
		       "callbacks and registers\n", sizes[i], core[i],
		       (double)vc / sizes[i], (double)sc / sizes[i],
		       (double)(v + s) / sizes[i]);
	}
	printf("callgrind: core instr/op at 100k ops / at 100 ops = %.2f "
	       "(target: <= 1000 instr/op, flat within 2x)\n",
	       core[n_sizes - 1] / core[0]);
	return 0;
}
