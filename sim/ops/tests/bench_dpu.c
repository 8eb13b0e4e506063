// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DPU kernel benchmark: time of the optimised kernels (vpux_dpu_run) and
 * of the plain reference loops (vpux_ref_dpu_run) on the same operands in
 * the same run, and their ratio. Prints figures; not a test (the design
 * target for int8 convolution is a ratio >= 4).
 */
#include <time.h>

#include "ops_test.h"

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

int main(void)
{
	struct vpux_hw_dpu_desc d;

	ot_seed(1);
	printf("DPU int8 kernels: optimised model vs plain reference loop (target >= 4x for conv)\n");
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
	return 0;
}
