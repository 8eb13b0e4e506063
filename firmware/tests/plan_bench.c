// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Engine-core cost per expanded op of a plan (Documentation/
 * dynamic-shapes.rst; a benchmark: prints figures, passes no judgement).
 * One plan, loaded once, run at 100, 1k, 10k and 100k expanded ops by
 * binding its symbol: a loop over tiles of one row each whose body is a
 * DMA, a DPU ADD waiting for it and a SHAVE kernel waiting for the DPU,
 * with operand offsets that vary by tile (expressions over the loop
 * index); the op mix and the instant register backend of the static
 * benchmark (bench.c). Printed per size: ns per expanded op (submit: prepare with the
 * plan's first and last iteration checked; run: expand, check, build,
 * schedule and program every op), the prepared task's bytes (constant:
 * the window, not the count) and, under callgrind, the core's
 * instructions per expanded op.
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
#include "plan_builder.h"
#include "vpux_regs.h"

/*
 * The plan: symbol 0 = tiles of one 256-byte row each; per tile a DMA of
 * the row into CMX, a DPU ADD on it writing the tile's row of the output
 * (entry 2) and a SHAVE kernel on that row: the offsets are expressions
 * of the tile index, as a compiler emits them for a dynamic axis.
 */
static void build(struct pb *p)
{
	struct dla_dma_op *m;
	struct dla_dpu_op *d;
	struct dla_shave_op *s;

	pb_init(p);
	pb_symbol(p, 1, 1000000);
	pb_block(p, 1);
	pb_loop(p, 0, 1, PB_E(PB_T(SYM, 0)));
	m = pb_template(p, DLA_OP_DMA, 0);
	tb_copy(m, tb_ref(1, 0, 256), tb_cmx(0, 0, 256), 256);
	pb_patch(p, PB_DMA(src.offset), 4, PB_E(PB_T(IDX, 0), PB_I(MUL, 256)));
	d = pb_template(p, DLA_OP_DPU, 1);
	d->op = VPUX_DPU_OP_ADD;
	d->in_c = d->out_c = 16;
	d->in_h = d->out_h = d->in_w = d->out_w = 4;
	tb_dpu_quant(d);
	d->in = tb_cmx(0, 0, 256);
	d->in2 = tb_cmx(0, 256, 256);
	d->out = tb_ref(2, 0, 256);
	pb_patch(p, PB_DPU(out.offset), 4, PB_E(PB_T(IDX, 0), PB_I(MUL, 256)));
	s = pb_template(p, DLA_OP_SHAVE, 2);
	s->kernel_id = 1;
	s->args = tb_ref(3, 0, 128);
	s->windows[0] = tb_ref(2, 0, 256);
	pb_patch(p, PB_SHAVE(windows[0].offset), 4, PB_E(PB_T(IDX, 0),
							 PB_I(MUL, 256)));
	pb_finish(p, 4);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One run of @tiles tiles: 0 on success; ns and prepared bytes. */
static int run_once(struct dla_user_dev *dev, struct dla_user_buf *list,
		    dla_u64 *sym, dla_u32 tiles, double *sub, double *run,
		    int *bytes)
{
	struct dla_task_status st;
	double t0, t1, t2;
	int h;

	*sym = tiles;
	t0 = now_ns();
	h = dla_user_submit(dev, list, 5, 0, 0);
	t1 = now_ns();
	if (h < 0)
		return -1;
	do {
		dla_user_irq(dev);
		dla_user_status(dev, h, &st);
	} while (st.state == DLA_TASK_RUNNING);
	t2 = now_ns();
	*bytes = dla_user_task_bytes(dev, h);
	dla_user_release(dev, h);
	*sub = t1 - t0;
	*run = t2 - t1;
	return st.state == DLA_TASK_DONE && st.ops_done == 3 * tiles ? 0 : -1;
}

static int bench(unsigned int n, int once)
{
	static unsigned char data[4096];
	static dla_u64 sym;
	static struct pb p;
	struct bench_hw hw = { 0 };
	struct dla_user_buf list[5];
	struct dla_user_dev *dev;
	double sub, run, best_sub = 1e30, best_run = 1e30;
	unsigned int reps = once ? 1 : n <= 100 ? 2000 : n <= 10000 ? 30 : 5;
	unsigned int r, tiles = n / 3;
	int bytes = 0;

	dev = dla_user_create(&bench_ops, &hw, DLA_USER_INLINE_BH);
	if (!dev)
		return -1;
	build(&p);
	list[0] = (struct dla_user_buf){ VPUX_DEFAULT_VA_BASE, p.size, p.buf, 0 };
	/*
	 * input and output rows for 1M tiles: the instant engines touch no
	 * memory, the core only checks and resolves addresses
	 */
	list[1] = (struct dla_user_buf){ VPUX_DEFAULT_VA_BASE + (1ull << 30),
					 256u << 20, data, 0 };
	list[2] = (struct dla_user_buf){ VPUX_DEFAULT_VA_BASE + (2ull << 30),
					 256u << 20, data, 0 };
	list[3] = (struct dla_user_buf){ VPUX_DEFAULT_VA_BASE + (3ull << 30),
					 sizeof(data), data, 0 };
	list[4] = (struct dla_user_buf){ VPUX_DEFAULT_VA_BASE + (4ull << 30),
					 sizeof(sym), &sym, 0 };
	for (r = 0; r < reps; r++) {
		if (run_once(dev, list, &sym, tiles, &sub, &run, &bytes)) {
			fprintf(stderr, "plan bench: %u tiles failed\n", tiles);
			return -1;
		}
		if (sub + run < best_sub + best_run) {
			best_sub = sub;
			best_run = run;
		}
	}
	if (!once)
		printf("%7u expanded ops: submit %7.1f ns/op, run %5.1f ns/op, "
		       "prepared task %d bytes (best of %u)\n", 3 * tiles,
		       best_sub / (3 * tiles), best_run / (3 * tiles), bytes,
		       reps);
	dla_user_destroy(dev);
	free(p.buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned int sizes[] = { 102, 1002, 10002, 100002 };
	double core[DLA_ARRAY_SIZE(sizes)];
	const unsigned int n_sizes = DLA_ARRAY_SIZE(sizes);
	unsigned int i;

	if (argc == 3 && !strcmp(argv[1], "--once"))
		return bench((unsigned int)atoi(argv[2]), 1) ? 1 : 0;
	setenv("DLA_LOG", "0", 1);
	printf("engine-core cost per expanded op of a plan (instant engines: "
	       "2 DMA, 2 DPU, 2 SHAVE; per tile DMA -> DPU -> SHAVE, "
	       "offsets by expression; window %u)\n", DLA_PLAN_WINDOW);
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
		printf("callgrind %6u expanded ops: core %5.0f instr/op "
		       "(prepare %6.1f + expand/schedule/program %4.0f); %5.0f "
		       "with port callbacks and registers\n", sizes[i], core[i],
		       (double)vc / sizes[i], (double)sc / sizes[i],
		       (double)(v + s) / sizes[i]);
	}
	printf("callgrind: core instr/op at 100k / at 100 expanded ops = %.2f "
	       "(static op budget: <= 1000 instr/op, flat)\n",
	       core[n_sizes - 1] / core[0]);
	return 0;
}
