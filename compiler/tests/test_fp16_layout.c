// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The FP16 layout / data movement ops (compiler/ops_layout.c): float
 * models built in memory, compiled and run in process, their outputs
 * compared with the same movement done here in double precision. The
 * data are FP16 values and a 1x1 identity Conv makes NHWC tensors of
 * them, so every case must be exact. Then each refusal with its reason.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_build.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

/* ---- building models (onnx_build.h) ---- */

/* an int64 initializer of @n values */
static void mb_i64(struct mb *b, const char *name, unsigned int n,
		   const int64_t *v)
{
	int64_t d = (int64_t)n;

	mb_const(b, name, 7, 1, &d, v);
}

/*
 * A node named @op; @...: inputs, then "|", then outputs ("" for an
 * omitted one), then NULL.
 */
static Onnx__NodeProto *mb_node_va(struct mb *b, const char *op, ...)
{
	char *io[2][8];
	size_t n[2] = { 0, 0 };
	unsigned int side = 0;
	const char *s;
	va_list ap;

	va_start(ap, op);
	while ((s = va_arg(ap, const char *))) {
		if (!strcmp(s, "|"))
			side = 1;
		else
			io[side][n[side]++] = (char *)s;
	}
	va_end(ap);
	return mb_node(b, op, NULL, io[0], n[0], io[1], n[1]);
}

static int compile(struct mb *b, struct vpuxc_result *r)
{
	static const struct vpuxc_options o = { .report = 1 };

	return mb_compile(b, &o, r);
}

/* ---- data ---- */

#define N 2
#define C 6
#define H 4
#define W 5
#define NX (N * C * H * W)

static float xs[NX];

/* FP16-exact values k/8, k in -96..96, from a seed */
static void fill(float *v, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (float)((int)(seed >> 16) % 193 - 96) / 8.0f;
	}
}

/*
 * @spec "NAME DMA DPU SHAVE": the report's line of node NAME has these
 * op counts
 */
static int ops_are(const char *report, const char *spec)
{
	char name[64], line[64], op[64];
	unsigned int a, b, c, x, y, z;
	const char *l;

	if (!report || sscanf(spec, "%63s %u %u %u", name, &a, &b, &c) != 4)
		return 0;
	for (l = report; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (sscanf(l, "%63s %63s %u %u %u", line, op, &x, &y,
			   &z) == 5 && !strcmp(line, name))
			return x == a && y == b && z == c;
	return !a && !b && !c;	/* no line: no ops */
}

/*
 * Compile @b, run it in process on float inputs @ins (@isz elements
 * each) and compare output 0 (@on elements) with @ref, exactly; with
 * @report_frag, check the node's op counts (ops_are()).
 */
static void check(struct mb *b, const char *what, unsigned int nin,
		  const float *const *ins, const size_t *isz, size_t on,
		  const double *ref, const char *report_frag)
{
	float *y = calloc(on ? on : 1, sizeof(float));
	struct vpuxc_result r;
	size_t i, bad = 0;
	double e2 = 0, r2 = 0;
	int ret = compile(b, &r);

	if (ret) {
		tap_check(0, "%s: compiles (%s)", what, vpux_last_error());
		goto out;
	}
	if (getenv("SHOW_REPORT"))
		fputs(r.report, stderr);
	if (report_frag)
		tap_check(ops_are(r.report, report_frag),
			  "%s: node's DMA/DPU/SHAVE ops are %s", what, report_frag);
	ret = mb_run_f16(NULL, &r, nin, ins, isz, y, on);
	if (!ret) {
		for (i = 0; i < on; i++) {
			bad += y[i] != ref[i];
			e2 += (y[i] - ref[i]) * (y[i] - ref[i]);
			r2 += ref[i] * ref[i];
		}
		if (bad && getenv("SHOW_DIFF"))
			for (i = 0; i < on; i++)
				fprintf(stderr, "%zu: %g %g\n", i, y[i], ref[i]);
	}
	tap_check(!ret && !bad, "%s: exact (%s; %zu of %zu differ, rel-L2 %.2e)",
		  what, ret ? vpux_last_error() : "ran", bad, on,
		  r2 > 0 ? sqrt(e2 / r2) : sqrt(e2));
out:
	vpuxc_result_fini(&r);
	mb_free(b);
	free(y);
}

static void check1(struct mb *b, const char *what, size_t on,
		   const double *ref, const char *frag)
{
	const float *ins[1] = { xs };
	size_t isz[1] = { NX };

	check(b, what, 1, ins, isz, on, ref, frag);
}

static double X(int n, int c, int h, int w)
{
	return xs[((n * C + c) * H + h) * W + w];
}

/* x [N,C,H,W] -> identity 1x1 Conv -> "xn" (NHWC on the device) */
static void base(struct mb *b, int64_t opset)
{
	static const int64_t dx[4] = { N, C, H, W }, dw[4] = { C, C, 1, 1 };
	float w[C * C] = { 0 };
	int i;

	for (i = 0; i < C; i++)
		w[i * C + i] = 1;
	mb_init(b, opset);
	mb_input(b, "x", 1, 4, dx);
	mb_output(b, "y", 1, -1, NULL);
	mb_const(b, "w", 1, 4, dw, w);
	mb_node_va(b, "Conv", "x", "w", "|", "xn", NULL);
}

/* ---- the cases ---- */

static double ref[4 * NX];

static void test_transpose(void)
{
	static const int64_t nhwc[4] = { 0, 2, 3, 1 }, p5[5] = { 0, 2, 1, 3, 4 };
	static const int64_t s5[5] = { N, 2, 3, H, W }, s4[4] = { N, C, H, W };
	static const int64_t p3[3] = { 2, 0, 1 }, s3[3] = { N * C, H, W };
	struct mb b;
	int n, c, h, w, i = 0;

	/* NHWC data read as [N,H,W,C]: a view */
	base(&b, 13);
	mb_attr_ints(&b, mb_node_va(&b, "Transpose", "xn", "|", "y", NULL),
		     "perm", nhwc, 4);
	for (n = 0; n < N; n++)
		for (h = 0; h < H; h++)
			for (w = 0; w < W; w++)
				for (c = 0; c < C; c++)
					ref[i++] = X(n, c, h, w);
	check1(&b, "Transpose NHWC -> [N,H,W,C] (a view)", NX, ref,
	       "Transpose 0 0 0");

	/* channel shuffle: Reshape, Transpose, Reshape: one copy */
	base(&b, 13);
	mb_i64(&b, "s5", 5, s5);
	mb_i64(&b, "s4", 4, s4);
	mb_node_va(&b, "Reshape", "xn", "s5", "|", "r5", NULL);
	mb_attr_ints(&b, mb_node_va(&b, "Transpose", "r5", "|", "t5", NULL),
		     "perm", p5, 5);
	mb_node_va(&b, "Reshape", "t5", "s4", "|", "y", NULL);
	for (i = 0, n = 0; n < N; n++)
		for (c = 0; c < C; c++)
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++)
					/* out channel c = (j, g): in (g, j) */
					ref[i++] = X(n, (c % 2) * 3 + c / 2, h, w);
	check1(&b, "channel shuffle (Reshape/Transpose/Reshape)", NX, ref,
	       NULL);

	/* a 3-D transpose of row-major data (the graph input) */
	mb_init(&b, 13);
	{
		static const int64_t dx[4] = { N, C, H, W };

		mb_input(&b, "x", 1, 4, dx);
	}
	mb_output(&b, "y", 1, -1, NULL);
	mb_i64(&b, "s3", 3, s3);
	mb_node_va(&b, "Reshape", "x", "s3", "|", "r3", NULL);
	mb_attr_ints(&b, mb_node_va(&b, "Transpose", "r3", "|", "y", NULL),
		     "perm", p3, 3);
	for (i = 0, w = 0; w < W; w++)
		for (n = 0; n < N * C; n++)
			for (h = 0; h < H; h++)
				ref[i++] = xs[(n * H + h) * W + w];
	check1(&b, "Transpose [12,4,5] perm 2,0,1 (strided DMA)", NX, ref, NULL);
}

static void test_reshape(void)
{
	static const int64_t ax0[1] = { 0 }, ax2[1] = { 2 };
	struct mb b;
	int n, c, h, w, i = 0;

	/* Flatten of NHWC data: NCHW order first */
	base(&b, 13);
	mb_attr_int(&b, mb_node_va(&b, "Flatten", "xn", "|", "y", NULL),
		    "axis", 1);
	for (n = 0; n < N; n++)
		for (c = 0; c < C; c++)
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++)
					ref[i++] = X(n, c, h, w);
	check1(&b, "Flatten of an NHWC tensor", NX, ref, NULL);

	/* Unsqueeze, Identity, Dropout, Cast, Squeeze: the same values */
	base(&b, 13);
	mb_i64(&b, "a0", 1, ax0);
	mb_i64(&b, "a2", 1, ax2);
	mb_node_va(&b, "Unsqueeze", "xn", "a2", "|", "u", NULL);
	mb_node_va(&b, "Identity", "u", "|", "i", NULL);
	mb_node_va(&b, "Dropout", "i", "|", "d", NULL);
	mb_attr_int(&b, mb_node_va(&b, "Cast", "d", "|", "f", NULL), "to", 1);
	mb_node_va(&b, "Squeeze", "f", "a2", "|", "y", NULL);
	check1(&b, "Unsqueeze/Identity/Dropout/Cast/Squeeze", NX, ref, NULL);
}

static void test_concat_split(void)
{
	static const int64_t dc[4] = { N, 1, H, W }, sp[2] = { 2, 4 };
	static const int64_t sp3[2] = { 1, 3 };
	float k[N * H * W];
	struct mb b;
	int n, c, h, w, i = 0;

	fill(k, N * H * W, 99);
	/* channels: NHWC conv output, row-major graph input, a constant */
	base(&b, 13);
	mb_const(&b, "k", 1, 4, dc, k);
	mb_attr_int(&b,
		    mb_node_va(&b, "Concat", "xn", "x", "k", "|", "y", NULL),
		    "axis", 1);
	for (n = 0; n < N; n++)
		for (c = 0; c < 2 * C + 1; c++)
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++)
					ref[i++] = c < 2 * C ? X(n, c % C, h, w) :
						   k[(n * H + h) * W + w];
	check1(&b, "Concat along channels (NHWC, NCHW, constant)",
	       (size_t)N * (2 * C + 1) * H * W, ref, "Concat 3 0 0");

	/* width, of two NHWC tensors */
	base(&b, 13);
	mb_attr_int(&b, mb_node_va(&b, "Concat", "xn", "xn", "|", "y", NULL),
		    "axis", -1);
	for (i = 0, n = 0; n < N; n++)
		for (c = 0; c < C; c++)
			for (h = 0; h < H; h++)
				for (w = 0; w < 2 * W; w++)
					ref[i++] = X(n, c, h, w % W);
	check1(&b, "Concat along W", 2 * NX, ref, NULL);

	/* Split along channels, the second part out */
	base(&b, 13);
	mb_i64(&b, "sp", 2, sp);
	mb_attr_int(&b,
		    mb_node_va(&b, "Split", "xn", "sp", "|", "a", "y", NULL),
		    "axis", 1);
	for (i = 0, n = 0; n < N; n++)
		for (c = 2; c < C; c++)
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++)
					ref[i++] = X(n, c, h, w);
	check1(&b, "Split along channels", (size_t)N * 4 * H * W, ref, NULL);

	/* Split of the row-major input along H (opset 11: an attribute) */
	mb_init(&b, 11);
	{
		static const int64_t dx[4] = { N, C, H, W };

		mb_input(&b, "x", 1, 4, dx);
	}
	mb_output(&b, "y", 1, -1, NULL);
	{
		Onnx__NodeProto *s = mb_node_va(&b, "Split", "x", "|", "a",
						"y", NULL);

		mb_attr_int(&b, s, "axis", 2);
		mb_attr_ints(&b, s, "split", sp3, 2);
	}
	for (i = 0, n = 0; n < N; n++)
		for (c = 0; c < C; c++)
			for (h = 1; h < H; h++)
				for (w = 0; w < W; w++)
					ref[i++] = X(n, c, h, w);
	check1(&b, "Split along H (opset 11)", (size_t)N * C * 3 * W, ref, NULL);
}

static void test_slice_gather(void)
{
	static const int64_t st[3] = { 1, 0, -2 }, en[3] = { 6, 4, 100 };
	static const int64_t ax[3] = { 1, 3, 2 }, sp[3] = { 2, 1, 1 };
	static const int64_t gi[3] = { 5, 0, -4 }, g1[1] = { 3 };
	static const int64_t dt[2] = { 7, 3 }, gt[4] = { 6, 0, 6, 2 };
	static const int64_t d24[3] = { 1, 24, 8 };
	int64_t gi20[20];
	float tab[21], x24[24 * 8];
	struct mb b;
	int n, c, h, w, i = 0, j;

	/* channels 1,3,5, W 0..3, H 2..3 */
	base(&b, 13);
	mb_i64(&b, "st", 3, st);
	mb_i64(&b, "en", 3, en);
	mb_i64(&b, "ax", 3, ax);
	mb_i64(&b, "sp", 3, sp);
	mb_node_va(&b, "Slice", "xn", "st", "en", "ax", "sp", "|", "y", NULL);
	for (n = 0; n < N; n++)
		for (c = 1; c < C; c += 2)
			for (h = 2; h < H; h++)
				for (w = 0; w < 4; w++)
					ref[i++] = X(n, c, h, w);
	check1(&b, "Slice with a step", (size_t)i, ref, NULL);

	/* Gather of channels 5, 0, 2 (runs by DMA) */
	base(&b, 13);
	mb_i64(&b, "gi", 3, gi);
	mb_attr_int(&b, mb_node_va(&b, "Gather", "xn", "gi", "|", "y", NULL),
		    "axis", 1);
	for (i = 0, n = 0; n < N; n++)
		for (c = 0; c < 3; c++)
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++)
					ref[i++] = X(n, c == 0 ? 5 : c == 1 ? 0 : 2, h, w);
	check1(&b, "Gather of channels 5,0,-4 (DMA)", (size_t)i, ref, NULL);

	/* a scalar index: a view */
	base(&b, 13);
	mb_const(&b, "g1", 7, 0, g1, g1);
	mb_attr_int(&b, mb_node_va(&b, "Gather", "xn", "g1", "|", "y", NULL),
		    "axis", 2);
	for (i = 0, n = 0; n < N; n++)
		for (c = 0; c < C; c++)
			for (w = 0; w < W; w++)
				ref[i++] = X(n, c, 3, w);
	check1(&b, "Gather of one row (scalar index)", (size_t)i, ref, NULL);

	/* a constant table: gathered on the host */
	base(&b, 13);
	fill(tab, 21, 5);
	mb_const(&b, "tab", 1, 2, dt, tab);
	mb_const(&b, "gt", 7, 2, (const int64_t[]){ 2, 2 }, gt);
	mb_node_va(&b, "Gather", "tab", "gt", "|", "y", NULL);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 3; j++)
			ref[i * 3 + j] = tab[gt[i] * 3 + j];
	check1(&b, "Gather of a constant table", 12, ref, NULL);

	/* 20 scattered indices: the SHAVE GATHER kernel */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 3, d24);
	mb_output(&b, "y", 1, -1, NULL);
	for (i = 0; i < 20; i++)
		gi20[i] = (i * 7 + 3) % 24;
	mb_i64(&b, "gi", 20, gi20);
	mb_attr_int(&b, mb_node_va(&b, "Gather", "x", "gi", "|", "y", NULL),
		    "axis", 1);
	fill(x24, 24 * 8, 11);
	for (i = 0; i < 20; i++)
		for (j = 0; j < 8; j++)
			ref[i * 8 + j] = x24[gi20[i] * 8 + j];
	{
		const float *ins[1] = { x24 };
		size_t isz[1] = { 24 * 8 };

		check(&b, "Gather of 20 scattered rows (SHAVE)", 1, ins, isz,
		      160, ref, "Gather 1 0 1");
	}
}

static void test_expand_pad(void)
{
	static const int64_t dv[2] = { C, 1 }, sh[3] = { 3, C, 4 };
	static const int64_t pads[8] = { 0, 0, 1, 2, 0, 0, 2, 1 };
	static const int64_t cpad[8] = { 0, 1, 0, 0, 1, 0, 1, 0 };
	static const int64_t s0[1] = { 1 };
	float v[C], half = 0.5f;
	struct mb b;
	int n, c, h, w, i = 0, j, k;
	const int HO = H + 3, WO = W + 3;

	/* [C,1] -> [3,C,4]: stride-0 DMA */
	fill(v, C, 3);
	mb_init(&b, 13);
	mb_input(&b, "v", 1, 2, dv);
	mb_output(&b, "y", 1, -1, NULL);
	mb_i64(&b, "sh", 3, sh);
	mb_node_va(&b, "Expand", "v", "sh", "|", "y", NULL);
	for (i = 0; i < 3; i++)
		for (j = 0; j < C; j++)
			for (k = 0; k < 4; k++)
				ref[(i * C + j) * 4 + k] = v[j];
	{
		const float *ins[1] = { v };
		size_t isz[1] = { C };

		check(&b, "Expand [6,1] -> [3,6,4]", 1, ins, isz, 3 * C * 4, ref,
		      NULL);
	}

	/* reflect, then edge, on NHWC data */
	for (const char *mode = "reflect";; mode = "edge") {
		base(&b, 13);
		mb_i64(&b, "p", 8, pads);
		mb_attr_str(&b,
			    mb_node_va(&b, "Pad", "xn", "p", "|", "y", NULL),
			    "mode", mode);
		for (i = 0, n = 0; n < N; n++)
			for (c = 0; c < C; c++)
				for (h = 0; h < HO; h++)
					for (w = 0; w < WO; w++) {
						int y = h - 1, x = w - 2;

						if (*mode == 'r') {
							y = y < 0 ? -y : y >= H ? 2 * (H - 1) - y : y;
							x = x < 0 ? -x : x >= W ? 2 * (W - 1) - x : x;
						} else {
							y = y < 0 ? 0 : y >= H ? H - 1 : y;
							x = x < 0 ? 0 : x >= W ? W - 1 : x;
						}
						ref[i++] = X(n, c, y, x);
					}
		check1(&b, *mode == 'r' ? "Pad reflect" : "Pad edge",
		       (size_t)i, ref, NULL);
		if (*mode == 'e')
			break;
	}

	/* constant 0.5 along N and C */
	base(&b, 13);
	mb_i64(&b, "p", 8, cpad);
	mb_const(&b, "cv", 1, 0, s0, &half);
	mb_node_va(&b, "Pad", "xn", "p", "cv", "|", "y", NULL);
	for (i = 0, n = 0; n < N + 1; n++)
		for (c = 0; c < C + 1; c++)
			for (h = 0; h < H + 1; h++)
				for (w = 0; w < W; w++)
					ref[i++] = n < N && c >= 1 && h < H ?
						   X(n, c - 1, h, w) : 0.5;
	check1(&b, "Pad constant 0.5", (size_t)i, ref, NULL);
}

/* ---- refusals ---- */

static void refused(struct mb *b, const char *frag, const char *what)
{
	struct vpuxc_result r;
	int ret = compile(b, &r);

	tap_check(ret == VPUX_E_UNSUPPORTED && strstr(vpux_last_error(), frag),
		  "refused: %s (%d: %s)", what, ret,
		  ret ? vpux_last_error() : "compiled");
	vpuxc_result_fini(&r);
	mb_free(b);
}

static void test_refusals(void)
{
	static const int64_t st[1] = { 4 }, en[1] = { 0 }, ax[1] = { 3 };
	static const int64_t sp[1] = { -1 };
	static const int64_t p8[8] = { 0, 0, 0, 5, 0, 0, 0, 0 };
	struct mb b;

	base(&b, 13);
	mb_node_va(&b, "Shape", "xn", "|", "y", NULL);
	refused(&b, "Shape produces int64 shape values", "Shape");

	base(&b, 13);
	mb_attr_int(&b, mb_node_va(&b, "Cast", "xn", "|", "y", NULL), "to", 7);
	refused(&b, "cast to int64", "Cast to int64");

	base(&b, 13);
	mb_input(&b, "ix", 7, 1, (const int64_t[]){ 2 });
	mb_node_va(&b, "Gather", "xn", "ix", "|", "y", NULL);
	refused(&b, "not an integer constant", "Gather with runtime indices");

	base(&b, 13);
	mb_i64(&b, "st", 1, st);
	mb_i64(&b, "en", 1, en);
	mb_i64(&b, "ax", 1, ax);
	mb_i64(&b, "sp", 1, sp);
	mb_node_va(&b, "Slice", "xn", "st", "en", "ax", "sp", "|", "y", NULL);
	refused(&b, "only positive steps", "Slice with step -1");

	base(&b, 13);
	mb_i64(&b, "p", 8, p8);
	mb_attr_str(&b, mb_node_va(&b, "Pad", "xn", "p", "|", "y", NULL),
		    "mode", "reflect");
	refused(&b, "reflect pads of dim 3 above its size - 1",
		"Pad reflect wider than the dim");

	base(&b, 13);
	mb_i64(&b, "p", 8, p8);
	mb_attr_str(&b, mb_node_va(&b, "Pad", "xn", "p", "|", "y", NULL),
		    "mode", "wrap");
	refused(&b, "mode 'wrap'", "Pad mode wrap");

	base(&b, 13);
	mb_node_va(&b, "Expand", "xn", "x", "|", "y", NULL);
	refused(&b, "shape is not a constant", "Expand with a runtime shape");
}

int main(void)
{
	fill(xs, NX, 1);
	test_transpose();
	test_reshape();
	test_concat_split();
	test_slice_gather();
	test_expand_pad();
	test_refusals();
	return tap_finish();
}
