// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DPU kernel benchmark: time of the optimised kernels (vpux_dpu_run) and
 * of the plain reference loops (vpux_ref_dpu_run) on the same operands in
 * the same run, and their ratio. Prints figures; not a test (the design
 * target for int8 convolution is a ratio >= 4).
 *
 * Then the 56x56x64 -> 64 3x3 convolution on each code path of the model
 * (the dispatched one, every other SIMD path the CPU has, the generic
 * user-space code, and dpu.c built like the kernel builds it: ops.mk
 * compiles it a second time with VPUX_DPU_SCALAR and no vector registers
 * as vpux_dpu_run_kscalar()), against onnxruntime's single-threaded
 * QLinearConv on the same shape (tools/bench/ort_conv_bench.js, skipped
 * when node or onnxruntime-node is missing). The target: the model's
 * best path at >= 0.5x onnxruntime's best layout. The line for scripts:
 *
 *   bench-dpu-int8: conv_gmacs=<model, best path> ort_best_gmacs=<...>
 *   ratio_best=<conv / ort>
 *
 * (on one line; both onnxruntime figures 0 when it is skipped).
 *
 * Last the FP16 ops (VPUX_DPU_F_FP16), conv 56x56x64 -> 64 3x3 pad 1 and
 * matmul 196x512 x 512x512 in GFLOPS (FLOP = 2 x MAC), on the model's best
 * path, the generic code and the kernel's build, against onnxruntime's
 * single-threaded float32 Conv and MatMul at their best layout
 * (tools/bench/ort_f32_bench.js; onnxruntime has no fast FP16 kernels on
 * x86). Target: ratios >= 0.5. One line for programs:
 *
 *   bench-dpu-fp16: conv_gflops=... ort_conv_gflops=... ratio_conv=...
 *   matmul_gflops=... ort_matmul_gflops=... ratio_matmul=...
 *
 * (on one line; the onnxruntime figures and ratios 0 when it is skipped).
 */
#include <time.h>

#include "ops_test.h"

/* dpu.c compiled like the kernel's build (ops.mk) */
int vpux_dpu_run_kscalar(const struct vpux_hw_dpu_desc *d,
			 const struct vpux_dpu_operands *o);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double best_of(int reps, int (*run)(const struct vpux_hw_dpu_desc *,
					    const struct vpux_dpu_operands *),
		      const struct vpux_hw_dpu_desc *d,
		      const struct vpux_dpu_operands *o)
{
	double best = 1e30;
	int i;

	for (i = 0; i < reps; i++) {
		double t = now();

		if (run(d, o)) {
			fprintf(stderr, "run failed\n");
			exit(1);
		}
		t = now() - t;
		if (t < best)
			best = t;
	}
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * At least @min_reps runs and as many more as fit in @budget seconds (up
 * to 200): best and median time, like the onnxruntime script measures.
 */
static double best_med(double budget, int min_reps,
		       int (*run)(const struct vpux_hw_dpu_desc *,
				  const struct vpux_dpu_operands *),
		       const struct vpux_hw_dpu_desc *d,
		       const struct vpux_dpu_operands *o, double *med)
{
	double t[200], end = now() + budget;
	int n = 0;

	run(d, o);	/* warm up */
	while (n < min_reps || (n < 200 && now() < end)) {
		double t0 = now();

		if (run(d, o)) {
			fprintf(stderr, "run failed\n");
			exit(1);
		}
		t[n++] = now() - t0;
	}
	qsort(t, n, sizeof(t[0]), cmp_double);
	*med = t[n / 2];
	return t[0];
}

static void bench(const char *name, const struct vpux_hw_dpu_desc *d)
{
	struct vpux_dpu_extents e;
	struct vpux_dpu_operands o = { 0 };
	double t_opt, t_ref;
	u8 *out2;

	if (vpux_dpu_extents(d, &e)) {
		fprintf(stderr, "%s: invalid descriptor\n", name);
		exit(1);
	}
	o.in = ot_alloc_rand(e.in);
	o.in2 = e.in2 ? ot_alloc_rand(e.in2) : NULL;
	o.bias = e.bias ? ot_alloc_rand(e.bias) : NULL;
	o.out = ot_alloc_rand(e.out);
	out2 = ot_alloc_rand(e.out);
	t_opt = best_of(5, vpux_dpu_run, d, &o);
	t_ref = best_of(2, vpux_ref_dpu_run, d, &o);
	memcpy(out2, o.out, e.out);
	vpux_dpu_run(d, &o);
	printf("%-34s %8.2f ms  ref %8.2f ms  ratio %5.1fx  %6.2f GMAC/s  %s\n",
	       name, t_opt * 1e3, t_ref * 1e3, t_ref / t_opt,
	       e.macs / t_opt * 1e-9,
	       memcmp(out2, o.out, e.out) ? "MISMATCH" : "bit-exact");
	free((void *)o.in);
	free((void *)o.in2);
	free((void *)o.bias);
	free(o.out);
	free(out2);
}

static void conv_desc(struct vpux_hw_dpu_desc *d, u16 hw, u16 cin, u16 cout,
		      u16 k, u16 groups)
{
	memset(d, 0, sizeof(*d));
	d->op = VPUX_DPU_OP_CONV;
	d->flags = VPUX_DPU_F_W_SIGNED | VPUX_DPU_F_BIAS;
	d->in_h = d->in_w = d->out_h = d->out_w = hw;
	d->in_c = cin;
	d->out_c = cout;
	d->kernel_h = d->kernel_w = k;
	d->stride_h = d->stride_w = 1;
	d->dilation_h = d->dilation_w = 1;
	d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = k / 2;
	d->groups = groups;
	d->in_zp = 128;
	d->out_zp = 3;
	d->act_min = 0;
	d->act_max = 255;
	d->requant.mult = 0x5a000000;
	d->requant.shift = 10;
}

static const char *const path_name[] = {
	[VPUX_DPU_PATH_AUTO] = "auto",
	[VPUX_DPU_PATH_GENERIC] = "generic",
	[VPUX_DPU_PATH_AVX2] = "avx2",
	[VPUX_DPU_PATH_AVX512VNNI] = "avx512vnni",
};

/* the target shape on every path of the model, then onnxruntime */
static void bench_paths(const struct vpux_hw_dpu_desc *d)
{
	struct vpux_dpu_extents e;
	struct vpux_dpu_operands o = { 0 };
	double t_simd, t_avx2 = 0, t_gen, t_ks, m_simd, m_avx2 = 0, m_gen, m_ks;
	double g_simd, g_best, g_ort = 0;
	int path = vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	char line[512];
	u8 *ref;
	bool same, skipped = false;
	FILE *f;

	vpux_dpu_extents(d, &e);
	o.in = ot_alloc_rand(e.in);
	o.in2 = ot_alloc_rand(e.in2);
	o.bias = ot_alloc_rand(e.bias);
	o.out = ot_alloc_rand(e.out);
	ref = malloc(e.out);
	t_simd = best_med(1.5, 10, vpux_dpu_run, d, &o, &m_simd);
	memcpy(ref, o.out, e.out);
	same = true;
	/* AVX2 too where it is not what the dispatch picked */
	if (path != VPUX_DPU_PATH_AVX2 &&
	    vpux_dpu_set_path(VPUX_DPU_PATH_AVX2) == VPUX_DPU_PATH_AVX2) {
		t_avx2 = best_med(1.5, 10, vpux_dpu_run, d, &o, &m_avx2);
		same = !memcmp(ref, o.out, e.out);
	}
	vpux_dpu_set_path(VPUX_DPU_PATH_GENERIC);
	t_gen = best_med(0.5, 3, vpux_dpu_run, d, &o, &m_gen);
	same = same && !memcmp(ref, o.out, e.out);
	vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	t_ks = best_med(0.5, 3, vpux_dpu_run_kscalar, d, &o, &m_ks);
	same = same && !memcmp(ref, o.out, e.out);
	g_simd = e.macs / t_simd * 1e-9;
	/* the dispatched path is the fastest by design; measure, not assume */
	g_best = g_simd;
	if (t_avx2 && e.macs / t_avx2 * 1e-9 > g_best)
		g_best = e.macs / t_avx2 * 1e-9;
	if (e.macs / t_gen * 1e-9 > g_best)
		g_best = e.macs / t_gen * 1e-9;
	if (e.macs / t_ks * 1e-9 > g_best)
		g_best = e.macs / t_ks * 1e-9;
	printf("\nconv 56x56x64 -> 64 3x3 pad 1, u8 x s8, per-tensor zero points, one thread\n");
	printf("(best of runs in 1.5 s%s / 0.5 s / 0.5 s; median in brackets):\n",
	       t_avx2 ? " / 1.5 s" : "");
	printf("  model, dispatched (%s):%*s%7.3f ms (%7.3f)  %7.2f GMAC/s\n",
	       path_name[path], (int)(12 - strlen(path_name[path])), "",
	       t_simd * 1e3, m_simd * 1e3, g_simd);
	if (t_avx2)
		printf("  model, avx2 (forced):            %7.3f ms (%7.3f)  %7.2f GMAC/s\n",
		       t_avx2 * 1e3, m_avx2 * 1e3, e.macs / t_avx2 * 1e-9);
	printf("  model, generic user space:       %7.3f ms (%7.3f)  %7.2f GMAC/s\n",
	       t_gen * 1e3, m_gen * 1e3, e.macs / t_gen * 1e-9);
	printf("  model, scalar as in the kernel:  %7.3f ms (%7.3f)  %7.2f GMAC/s\n",
	       t_ks * 1e3, m_ks * 1e3, e.macs / t_ks * 1e-9);
	printf("  the %s paths: %s\n", t_avx2 ? "four" : "three",
	       same ? "bit-exact" : "MISMATCH");
	fflush(stdout);
	f = popen("if command -v node >/dev/null 2>&1; then node "
		  VPUX_SRCTOP "/tools/bench/ort_conv_bench.js 2>&1; else "
		  "echo 'skipped: node not installed (make deps)'; fi", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "ort: gmacs=%lf", &g_ort) == 1)
			continue;
		skipped |= !strncmp(line, "skipped:", 8);
		printf("  %s%s", skipped ? "onnxruntime " : "", line);
	}
	if (!f || pclose(f) != 0 || g_ort <= 0) {
		g_ort = 0;
		if (!skipped)
			printf("  onnxruntime: skipped, %s\n",
			       f ? "no figure" : "cannot run node");
	} else {
		printf("  model / onnxruntime (best layout): %.2fx (target >= 0.5x)\n",
		       g_best / g_ort);
	}
	printf("bench_dpu: model_gmacs=%.2f generic_gmacs=%.2f scalar_gmacs=%.2f ort_gmacs=%.2f\n",
	       g_simd, e.macs / t_gen * 1e-9, e.macs / t_ks * 1e-9, g_ort);
	if (g_ort > 0)
		printf("bench-dpu-int8: conv_gmacs=%.2f ort_best_gmacs=%.2f ratio_best=%.2f\n",
		       g_best, g_ort, g_best / g_ort);
	else
		printf("bench-dpu-int8: conv_gmacs=%.2f ort_best_gmacs=0 ratio_best=0\n",
		       g_best);
	free((void *)o.in);
	free((void *)o.in2);
	free((void *)o.bias);
	free(o.out);
	free(ref);
	if (!same)
		exit(1);
}

/* ---- FP16 ---- */

/* dpu_f16.c compiled like the kernel's build (ops.mk) */
int vpux_dpu_f16_run_kscalar(const struct vpux_hw_dpu_desc *d,
			     const struct vpux_dpu_operands *o);

/* moderate FP16 values, -2 .. 2 */
static void *f16_rand(u64 n)
{
	u16 *p = malloc(n * 2);
	u64 i;

	for (i = 0; i < n; i++)
		p[i] = (u16)((ot_rand() & 0x83ff) | (u32)ot_range(8, 15) << 10);
	return p;
}

struct f16_fig {
	double best, med, gflops;
};

/*
 * @d on the model's best path, the generic code and the kernel's build
 * (fig[0..2]); false if the three wrote different bytes.
 */
static bool f16_paths(const struct vpux_hw_dpu_desc *d, struct f16_fig *fig)
{
	struct vpux_dpu_extents e;
	struct vpux_dpu_operands o = { 0 };
	u8 *ref;
	bool same;
	int i;

	vpux_dpu_extents(d, &e);
	o.in = f16_rand(e.in / 2);
	o.in2 = f16_rand(e.in2 / 2);
	o.bias = f16_rand(e.bias / 2);
	o.out = malloc(e.out);
	ref = malloc(e.out);
	vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	fig[0].best = best_med(1.5, 10, vpux_dpu_run, d, &o, &fig[0].med);
	memcpy(ref, o.out, e.out);
	vpux_dpu_set_path(VPUX_DPU_PATH_GENERIC);
	fig[1].best = best_med(0.5, 3, vpux_dpu_run, d, &o, &fig[1].med);
	same = !memcmp(ref, o.out, e.out);
	vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
	fig[2].best = best_med(0.5, 3, vpux_dpu_run_kscalar, d, &o, &fig[2].med);
	same = same && !memcmp(ref, o.out, e.out);
	for (i = 0; i < 3; i++)
		fig[i].gflops = 2.0 * e.macs / fig[i].best * 1e-9;
	free((void *)o.in);
	free((void *)o.in2);
	free((void *)o.bias);
	free(o.out);
	free(ref);
	return same;
}

static void bench_fp16(void)
{
	static const char *const name[3] = {
		"best", "generic user space", "scalar as in the kernel" };
	struct vpux_hw_dpu_desc conv, mm;
	struct f16_fig fc[3], fm[3];
	double g_conv = 0, g_mm = 0;
	int path = vpux_dpu_set_path(VPUX_DPU_PATH_AUTO), i;
	/* FP16 runs its AVX-512F kernels on the AVX-512 VNNI path */
	const char *pn = path == VPUX_DPU_PATH_AVX512VNNI ? "avx512f" :
			 path_name[path];
	bool same, skipped = false;
	char line[512];
	FILE *f;

	memset(&conv, 0, sizeof(conv));
	conv.op = VPUX_DPU_OP_CONV;
	conv.flags = VPUX_DPU_F_FP16 | VPUX_DPU_F_BIAS;
	conv.in_h = conv.in_w = conv.out_h = conv.out_w = 56;
	conv.in_c = conv.out_c = 64;
	conv.kernel_h = conv.kernel_w = 3;
	conv.stride_h = conv.stride_w = conv.dilation_h = conv.dilation_w = 1;
	conv.pad_top = conv.pad_left = conv.pad_bottom = conv.pad_right = 1;
	conv.groups = 1;
	memset(&mm, 0, sizeof(mm));
	mm.op = VPUX_DPU_OP_MATMUL;
	mm.flags = VPUX_DPU_F_FP16;
	mm.in_h = mm.out_h = 196;
	mm.in_w = mm.out_w = 1;
	mm.in_c = 512;
	mm.out_c = 512;
	ot_seed(16);
	same = f16_paths(&conv, fc);
	same = f16_paths(&mm, fm) && same;
	printf("\nFP16 (VPUX_DPU_F_FP16), one thread, GFLOPS = 2 x MAC / time\n");
	printf("(best of runs in 1.5 s / 0.5 s / 0.5 s; median in brackets):\n");
	for (i = 0; i < 3; i++)
		printf("  conv 56x56x64 -> 64 3x3, %-24s %8.3f ms (%8.3f) %7.2f GFLOPS\n",
		       i ? name[i] : pn, fc[i].best * 1e3,
		       fc[i].med * 1e3, fc[i].gflops);
	for (i = 0; i < 3; i++)
		printf("  matmul 196x512x512, %-24s   %8.3f ms (%8.3f) %7.2f GFLOPS\n",
		       i ? name[i] : pn, fm[i].best * 1e3,
		       fm[i].med * 1e3, fm[i].gflops);
	printf("  the three paths: %s\n", same ? "bit-exact" : "MISMATCH");
	fflush(stdout);
	f = popen("if command -v node >/dev/null 2>&1; then node "
		  VPUX_SRCTOP "/tools/bench/ort_f32_bench.js 2>&1; else "
		  "echo 'skipped: node not installed (make deps)'; fi", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "ort-f32: conv_gflops=%lf matmul_gflops=%lf",
			   &g_conv, &g_mm) == 2)
			continue;
		skipped |= !strncmp(line, "skipped:", 8);
		printf("  %s%s", skipped ? "onnxruntime " : "", line);
	}
	if (f)
		pclose(f);
	if (g_conv <= 0 || g_mm <= 0) {
		g_conv = g_mm = 0;
		if (!skipped)
			printf("  onnxruntime: no figure (skipped)\n");
	}
	printf("bench-dpu-fp16-paths: conv_generic_gflops=%.2f conv_kscalar_gflops=%.2f matmul_generic_gflops=%.2f matmul_kscalar_gflops=%.2f path=%s\n",
	       fc[1].gflops, fc[2].gflops, fm[1].gflops, fm[2].gflops, pn);
	printf("bench-dpu-fp16: conv_gflops=%.2f ort_conv_gflops=%.2f ratio_conv=%.2f matmul_gflops=%.2f ort_matmul_gflops=%.2f ratio_matmul=%.2f\n",
	       fc[0].gflops, g_conv, g_conv > 0 ? fc[0].gflops / g_conv : 0,
	       fm[0].gflops, g_mm, g_mm > 0 ? fm[0].gflops / g_mm : 0);
	if (!same)
		exit(1);
}

/*
 * FP16 element-wise and pooling ops as ResNet-50 has them (the residual
 * ADD with RELU, the stem's MAXPOOL, the global AVGPOOL) on the model's
 * best path, the generic code and the kernel's build; the three must
 * write the same bytes. One line for programs:
 *
 *   bench-dpu-fp16-eltwise: add_ms=... maxpool_ms=... avgpool_ms=...
 *   add_x_generic=... maxpool_x_generic=... avgpool_x_generic=...
 */
static void bench_fp16_elt(void)
{
	static const struct {
		const char *name;
		u32 op, hw, c, k, s, pad;
	} sh[3] = {
		{ "add + relu 56x56x256", VPUX_DPU_OP_ADD, 56, 256, 0, 0, 0 },
		{ "maxpool 112x112x64 3x3 s2", VPUX_DPU_OP_MAXPOOL, 112, 64, 3,
		  2, 1 },
		{ "avgpool 7x7x2048 global", VPUX_DPU_OP_AVGPOOL, 7, 2048, 7, 1,
		  0 },
	};
	static const char *const name[3] = {
		"best", "generic user space", "scalar as in the kernel" };
	int path = vpux_dpu_set_path(VPUX_DPU_PATH_AUTO), i, j;
	const char *pn = path == VPUX_DPU_PATH_AVX512VNNI ? "avx512f" :
			 path_name[path];
	struct vpux_hw_dpu_desc d;
	struct f16_fig f[3][3];
	bool same = true;

	printf("\nFP16 element-wise and pooling, one thread (best of runs; median in brackets):\n");
	for (i = 0; i < 3; i++) {
		memset(&d, 0, sizeof(d));
		d.op = sh[i].op;
		d.flags = VPUX_DPU_F_FP16;
		d.in_h = d.in_w = (u16)sh[i].hw;
		d.in_c = d.out_c = (u16)sh[i].c;
		if (d.op == VPUX_DPU_OP_ADD) {
			d.f.act = VPUX_DPU_ACT_RELU;
			d.out_h = d.out_w = d.in_h;
		} else {
			d.kernel_h = d.kernel_w = (u16)sh[i].k;
			d.stride_h = d.stride_w = (u16)sh[i].s;
			d.dilation_h = d.dilation_w = 1;
			d.pad_top = d.pad_left = (u16)sh[i].pad;
			d.pad_bottom = d.pad_right = (u16)sh[i].pad;
			d.out_h = d.out_w = (u16)vpux_dpu_out_dim(d.in_h,
				d.kernel_h, d.stride_h, d.pad_top,
				d.pad_bottom, 1);
		}
		same = f16_paths(&d, f[i]) && same;
		for (j = 0; j < 3; j++)
			printf("  %-26s %-24s %8.3f ms (%8.3f)\n", sh[i].name,
			       j ? name[j] : pn, f[i][j].best * 1e3,
			       f[i][j].med * 1e3);
	}
	printf("  the three paths: %s\n", same ? "bit-exact" : "MISMATCH");
	printf("bench-dpu-fp16-eltwise: add_ms=%.3f maxpool_ms=%.3f avgpool_ms=%.3f add_x_generic=%.0f maxpool_x_generic=%.0f avgpool_x_generic=%.0f path=%s\n",
	       f[0][0].best * 1e3, f[1][0].best * 1e3, f[2][0].best * 1e3,
	       f[0][1].best / f[0][0].best, f[1][1].best / f[1][0].best,
	       f[2][1].best / f[2][0].best, pn);
	if (!same)
		exit(1);
}

int main(void)
{
	struct vpux_hw_dpu_desc d;

	ot_seed(1);
	printf("DPU int8 kernels: optimised model (%s) vs plain reference loop (target >= 4x for conv)\n",
	       path_name[vpux_dpu_set_path(VPUX_DPU_PATH_AUTO)]);
	conv_desc(&d, 56, 64, 64, 3, 1);
	bench("conv 56x56x64 -> 64, 3x3 pad 1", &d);
	conv_desc(&d, 28, 128, 128, 3, 1);
	bench("conv 28x28x128 -> 128, 3x3 pad 1", &d);
	conv_desc(&d, 56, 128, 128, 3, 128);
	bench("depthwise 56x56x128, 3x3 pad 1", &d);
	conv_desc(&d, 1, 1, 1, 1, 1);
	d.op = VPUX_DPU_OP_MATMUL;
	d.in_h = d.out_h = 196;
	d.in_c = 512;
	d.out_c = 512;
	d.kernel_h = d.kernel_w = 0;
	d.stride_h = d.stride_w = d.dilation_h = d.dilation_w = 0;
	d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 0;
	bench("matmul 196x512 * 512x512", &d);
	conv_desc(&d, 56, 64, 64, 3, 1);
	bench_paths(&d);
	bench_fp16();
	bench_fp16_elt();
	return 0;
}
