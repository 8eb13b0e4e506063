// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The FP16 lowering of the op families "matmul" (MatMul, Gemm) and
 * "normalisation" (Softmax, LogSoftmax, LayerNormalization, Reduce*,
 * BatchNormalization, InstanceNormalization): float models built in
 * memory, compiled, run in process on FP16 tensors and compared with a
 * float64 computation here (relative L2 error <= 1e-2, the FP16 rule);
 * the program text is checked where the layout choice matters (W_KN,
 * BATCH, the fused activation, the bias); and each refusal with its
 * message.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_build.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_float.h"
#include "vpux_regs.h"
#include "vpux_tap.h"

#define FLT	1	/* ONNX FLOAT */
#define I64	7	/* ONNX INT64 */

/* ---- building models: onnx_build.h ---- */

/* import + compile (with the program text) */
static int build(struct mb *b, struct vpuxc_result *r)
{
	static const struct vpuxc_options o = { .vasm = 1 };

	return mb_compile(b, &o, r);
}

static void expect_refused(struct mb *b, const char *frag, const char *what)
{
	struct vpuxc_result r;
	int ret = build(b, &r);

	tap_check(ret == VPUX_E_UNSUPPORTED && strstr(vpux_last_error(), frag),
		  "%s refused (%d: %s)", what, ret,
		  ret ? vpux_last_error() : "compiled");
	vpuxc_result_fini(&r);
}

/* ---- running: float32 in and out, FP16 on the device ---- */

static float *frand(size_t n, unsigned int *seed, float amp)
{
	float *f = malloc(sizeof(float) * (n ? n : 1));
	size_t i;

	for (i = 0; i < n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		f[i] = amp * ((float)((*seed >> 8) & 0xffff) / 32768.0f - 1.0f);
	}
	return f;
}

static double rel_l2(const float *y, const double *ref, size_t n)
{
	double e = 0, s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			return INFINITY;
		e += (y[i] - ref[i]) * (y[i] - ref[i]);
		s += ref[i] * ref[i];
	}
	return sqrt(e / (s > 0 ? s : 1e-300));
}

/*
 * A fragment the program text must hold: "dpu OP:FLAGS" (a dpu OP
 * statement whose flags include FLAGS, a number) or plain text.
 */
static bool has(const char *vasm, const char *frag)
{
	char op[16];
	unsigned int want;
	const char *l;

	if (sscanf(frag, "dpu %15[a-z]:%u", op, &want) != 2)
		return strstr(vasm, frag) != NULL;
	for (l = vasm; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *f = strstr(l, " flags="), *e = strchr(l, '\n');
		unsigned int flags;

		if (strncmp(l, "dpu ", 4) || strncmp(l + 4, op, strlen(op)) ||
		    !f || (e && f > e) || sscanf(f, " flags=%u", &flags) != 1)
			continue;
		if ((flags & want) == want)
			return true;
	}
	return false;
}

/* the fragment "dpu @op:@flags" for has() (one static buffer) */
static const char *dpuf(const char *op, unsigned int flags)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "dpu %s:%u", op, flags);
	return buf;
}

/*
 * Compile @b, run it on @nin inputs, compare output 0 (@n values) with
 * @ref: rel-L2 <= @tol; @frag (if any) must be in the program text.
 */
static void check(struct mb *b, unsigned int nin, float *const *ins,
		  const size_t *insz, const double *ref, size_t n, double tol,
		  const char *frag, const char *what)
{
	struct vpuxc_result r;
	float *y = calloc(n, sizeof(float));
	int ret = build(b, &r);
	double e = INFINITY;

	if (ret) {
		tap_check(0, "%s: compile: %s", what, vpux_last_error());
		goto out;
	}
	if (frag)
		tap_check(r.vasm && has(r.vasm, frag), "%s: program has '%s'",
			  what, frag);
	ret = mb_run_f16(NULL, &r, nin, (const float *const *)ins, insz, y,
			 n);
	if (!ret)
		e = rel_l2(y, ref, n);
	tap_check(!ret && e <= tol, "%s: rel_l2 %.3e (run %d)", what, e, ret);
out:
	vpuxc_result_fini(&r);
	free(y);
}

/* C[M][N] = A[M][K] * B(k, n) with strides of B */
static void ref_mm(const float *a, const float *bm, double *c, int64_t M,
		   int64_t K, int64_t N, int64_t bk, int64_t bn)
{
	int64_t i, j, k;

	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			double s = 0;

			for (k = 0; k < K; k++)
				s += (double)a[i * K + k] * bm[k * bk + j * bn];
			c[i * N + j] = s;
		}
}

/* ---- MatMul ---- */

static void test_matmul(void)
{
	static char *mi[] = { "x", "w" }, *mo[] = { "m" }, *ri[] = { "m" },
		    *ro[] = { "y" }, *yo[] = { "y" };
	unsigned int seed = 1;
	struct mb b;

	{	/* 2-D, constant [K][N] weights, a Relu fused */
		static const int64_t dx[2] = { 37, 40 }, dw[2] = { 40, 24 };
		float *x = frand(37 * 40, &seed, 1), *w = frand(40 * 24, &seed, 0.5f);
		double *ref = malloc(sizeof(double) * 37 * 24);
		size_t nx = 37 * 40;
		int i;

		ref_mm(x, w, ref, 37, 40, 24, 24, 1);
		for (i = 0; i < 37 * 24; i++)
			ref[i] = ref[i] > 0 ? ref[i] : 0;
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 2, dx);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "w", FLT, 2, dw, w, sizeof(float) * 40 * 24);
		mb_node(&b, "MatMul", NULL, mi, 2, mo, 1);
		mb_node(&b, "Relu", NULL, ri, 1, ro, 1);
		check(&b, 1, &x, &nx, ref, 37 * 24, 1e-2, dpuf("matmul", VPUX_DPU_F_FP16 | VPUX_DPU_F_W_KN),
		      "MatMul 37x40 x const 40x24 + Relu");
		check(&b, 1, &x, &nx, ref, 37 * 24, 1e-2, "act=relu",
		      "MatMul: the Relu is the DPU's activation");
		mb_free(&b);
		free(x);
		free(w);
		free(ref);
	}
	{	/* MatMul + Add of a per-column constant + Relu: one op */
		static const int64_t dx[3] = { 2, 5, 16 }, dw[2] = { 16, 8 },
				     db[1] = { 8 }, db2[2] = { 5, 8 };
		static char *ai[] = { "m", "c" }, *ao[] = { "a" },
			    *rli[] = { "a" };
		float *x = frand(80 * 2, &seed, 1), *w = frand(128, &seed, 0.5f);
		float *bb = frand(40, &seed, 1);
		double *ref = malloc(sizeof(double) * 80);
		size_t nx = 160;
		int i;

		ref_mm(x, w, ref, 10, 16, 8, 8, 1);
		for (i = 0; i < 80; i++) {
			ref[i] += bb[i % 8];
			ref[i] = ref[i] > 0 ? ref[i] : 0;
		}
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 3, dx);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "w", FLT, 2, dw, w, sizeof(float) * 128);
		mb_init_t(&b, "c", FLT, 1, db, bb, sizeof(float) * 8);
		mb_node(&b, "MatMul", NULL, mi, 2, mo, 1);
		mb_node(&b, "Add", NULL, ai, 2, ao, 1);
		mb_node(&b, "Relu", NULL, rli, 1, ro, 1);
		check(&b, 1, &x, &nx, ref, 80, 1e-2,
		      dpuf("matmul", VPUX_DPU_F_BIAS | VPUX_DPU_F_W_KN),
		      "MatMul + Add [8] + Relu: the Add is the DPU's bias");
		check(&b, 1, &x, &nx, ref, 80, 1e-2, "act=relu",
		      "MatMul + Add + Relu: the Relu fused too");
		/* [5, 8]: not one value per column, an add of its own */
		ref_mm(x, w, ref, 10, 16, 8, 8, 1);
		for (i = 0; i < 80; i++) {
			ref[i] += bb[i % 40];
			ref[i] = ref[i] > 0 ? ref[i] : 0;
		}
		b.g.initializer[1]->n_dims = 2;
		b.g.initializer[1]->dims = (int64_t *)db2;
		b.g.initializer[1]->raw_data.len = sizeof(float) * 40;
		b.g.initializer[1]->raw_data.data = (uint8_t *)bb;
		check(&b, 1, &x, &nx, ref, 80, 1e-2, NULL,
		      "MatMul + Add [5,8] + Relu");
		mb_free(&b);
		free(x);
		free(w);
		free(bb);
		free(ref);
	}
	{	/* batched, runtime B [K][N] per batch (attention's attn.V) */
		static const int64_t da[4] = { 2, 3, 6, 16 }, db[4] = { 2, 3, 16, 8 };
		static char *bi[] = { "x", "v" };
		float *in[2] = { frand(2 * 3 * 6 * 16, &seed, 1),
				 frand(2 * 3 * 16 * 8, &seed, 1) };
		size_t nin[2] = { 2 * 3 * 6 * 16, 2 * 3 * 16 * 8 };
		double *ref = malloc(sizeof(double) * 6 * 6 * 8);
		int i;

		for (i = 0; i < 6; i++)
			ref_mm(in[0] + i * 96, in[1] + i * 128, ref + i * 48, 6,
			       16, 8, 8, 1);
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 4, da);
		mb_input(&b, "v", FLT, 4, db);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_node(&b, "MatMul", NULL, bi, 2, yo, 1);
		check(&b, 2, in, nin, ref, 6 * 6 * 8, 1e-2, dpuf("matmul", VPUX_DPU_F_BATCH | VPUX_DPU_F_W_KN),
		      "batched MatMul [2,3,6,16] x runtime [2,3,16,8]");
		mb_free(&b);
		free(in[0]);
		free(in[1]);
		free(ref);
	}
	{	/* broadcast batch dims: [3,6,16] x const [2,1,16,5] */
		static const int64_t da[3] = { 3, 6, 16 }, dw[4] = { 2, 1, 16, 5 };
		float *x = frand(3 * 6 * 16, &seed, 1), *w = frand(2 * 16 * 5, &seed, 1);
		double *ref = malloc(sizeof(double) * 2 * 3 * 6 * 5);
		size_t nx = 3 * 6 * 16;
		int i, j;

		for (i = 0; i < 2; i++)
			for (j = 0; j < 3; j++)
				ref_mm(x + j * 96, w + i * 80, ref + (i * 3 + j) * 30,
				       6, 16, 5, 5, 1);
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 3, da);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "w", FLT, 4, dw, w, sizeof(float) * 160);
		mb_node(&b, "MatMul", NULL, mi, 2, yo, 1);
		check(&b, 1, &x, &nx, ref, 2 * 3 * 6 * 5, 1e-2, NULL,
		      "MatMul broadcasting [3,6,16] x [2,1,16,5]");
		mb_free(&b);
		free(x);
		free(w);
		free(ref);
	}
	{	/* 1-D operands */
		static const int64_t dk[1] = { 16 }, dw[2] = { 16, 7 },
				     da[2] = { 4, 16 };
		float *x = frand(16, &seed, 1), *w = frand(16 * 7, &seed, 1);
		float *a = frand(4 * 16, &seed, 1);
		double ref[7], ref2[4];
		size_t nx = 16, na = 64;

		ref_mm(x, w, ref, 1, 16, 7, 7, 1);
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 1, dk);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "w", FLT, 2, dw, w, sizeof(float) * 16 * 7);
		mb_node(&b, "MatMul", NULL, mi, 2, yo, 1);
		check(&b, 1, &x, &nx, ref, 7, 1e-2, NULL, "MatMul [16] x [16,7]");
		mb_free(&b);
		ref_mm(a, x, ref2, 4, 16, 1, 1, 1);
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 2, da);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "w", FLT, 1, dk, x, sizeof(float) * 16);
		mb_node(&b, "MatMul", NULL, mi, 2, yo, 1);
		check(&b, 1, &a, &na, ref2, 4, 1e-2, NULL, "MatMul [4,16] x [16]");
		mb_free(&b);
		free(x);
		free(w);
		free(a);
	}
	{	/* more rows than a DPU op takes (65535) */
		enum { M = 70001, K = 4, N = 3 };
		static const int64_t dx[2] = { M, K }, dw[2] = { K, N };
		float *x = frand((size_t)M * K, &seed, 1), *w = frand(K * N, &seed, 1);
		double *ref = malloc(sizeof(double) * M * N);
		size_t nx = (size_t)M * K;

		ref_mm(x, w, ref, M, K, N, N, 1);
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 2, dx);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "w", FLT, 2, dw, w, sizeof(float) * K * N);
		mb_node(&b, "MatMul", NULL, mi, 2, yo, 1);
		check(&b, 1, &x, &nx, ref, (size_t)M * N, 1e-2, NULL,
		      "MatMul of 70001 rows: two DPU ops");
		mb_free(&b);
		free(x);
		free(w);
		free(ref);
	}
	{	/* refusals */
		static const int64_t dx[2] = { 2, 40000 }, dw[2] = { 40000, 2 },
				     d3[2] = { 2, 3 }, d4[2] = { 4, 2 };
		static float w[80000];

		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 2, dx);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "w", FLT, 2, dw, w, sizeof(w));
		mb_node(&b, "MatMul", NULL, mi, 2, yo, 1);
		expect_refused(&b, "reduction of 40000 above the DPU's 32768",
			       "MatMul K = 40000");
		mb_free(&b);
		mb_init(&b, 17);
		mb_input(&b, "x", FLT, 2, d3);
		mb_input(&b, "w", FLT, 2, d4);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_node(&b, "MatMul", NULL, mi, 2, yo, 1);
		expect_refused(&b, "shapes of 'x' and 'w' do not multiply",
			       "MatMul [2,3] x [4,2]");
		mb_free(&b);
	}
}

/* ---- Gemm ---- */

static void test_gemm(void)
{
	static char *gi[] = { "a", "b", "c" }, *yo[] = { "y" };
	enum { M = 9, K = 20, N = 12 };
	static const int64_t dat[2] = { K, M }, dbt[2] = { N, K }, dc[1] = { N },
			     dcm[2] = { M, 1 }, dmn[2] = { M, N };
	unsigned int seed = 7;
	float *a = frand(M * K, &seed, 1), *bw = frand(N * K, &seed, 0.5f);
	float *cv = frand(M * N, &seed, 1);
	double ref[M * N], at[M * K];
	float *in[2], af[M * K];
	size_t nin[2] = { M * K, M * N };
	Onnx__NodeProto *g;
	struct mb b;
	int i, j, k;

	/* transA, transB, alpha 0.5, beta 2, C [N]: the DPU's bias */
	for (i = 0; i < M; i++)
		for (k = 0; k < K; k++)
			at[i * K + k] = a[k * M + i];
	for (i = 0; i < M * K; i++)
		af[i] = (float)at[i];
	ref_mm(af, bw, ref, M, K, N, 1, K);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			ref[i * N + j] = 0.5 * ref[i * N + j] + 2.0 * cv[j];
	mb_init(&b, 13);
	mb_input(&b, "a", FLT, 2, dat);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "b", FLT, 2, dbt, bw, sizeof(float) * N * K);
	mb_init_t(&b, "c", FLT, 1, dc, cv, sizeof(float) * N);
	g = mb_node(&b, "Gemm", NULL, gi, 3, yo, 1);
	mb_attr_int(&b, g, "transA", 1);
	mb_attr_int(&b, g, "transB", 1);
	mb_attr_float(&b, g, "alpha", 0.5f);
	mb_attr_float(&b, g, "beta", 2.0f);
	check(&b, 1, &a, nin, ref, M * N, 1e-2, dpuf("matmul", VPUX_DPU_F_BIAS | VPUX_DPU_F_SCALE |
					     VPUX_DPU_F_W_KN),
	      "Gemm transA transB alpha beta, C [N] as bias");

	/* C [M, 1]: an add after the DPU op */
	ref_mm(af, bw, ref, M, K, N, 1, K);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			ref[i * N + j] = 0.5 * ref[i * N + j] + 2.0 * cv[i];
	b.g.initializer[1]->n_dims = 2;
	b.g.initializer[1]->dims = (int64_t *)dcm;
	b.g.initializer[1]->raw_data.len = sizeof(float) * M;
	check(&b, 1, &a, nin, ref, M * N, 1e-2, "func=add",
	      "Gemm with C [M,1]: SHAVE add");
	mb_free(&b);

	/* runtime B [K][N] and runtime C [M, N] times beta */
	in[0] = af;
	in[1] = cv;
	{
		static const int64_t dak[2] = { M, K }, dkn[2] = { K, N };
		static char *gi2[] = { "a", "b", "c" };
		float *bk = frand(K * N, &seed, 1);

		ref_mm(af, bk, ref, M, K, N, N, 1);
		for (i = 0; i < M * N; i++)
			ref[i] = ref[i] + 0.25 * cv[i];
		mb_init(&b, 13);
		mb_input(&b, "a", FLT, 2, dak);
		mb_input(&b, "c", FLT, 2, dmn);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_init_t(&b, "b", FLT, 2, dkn, bk, sizeof(float) * K * N);
		g = mb_node(&b, "Gemm", NULL, gi2, 3, yo, 1);
		mb_attr_float(&b, g, "beta", 0.25f);
		check(&b, 2, in, nin, ref, M * N, 1e-2, "func=mul",
		      "Gemm with runtime C [M,N], beta 0.25");
		mb_free(&b);
		free(bk);
	}
	mb_init(&b, 13);
	mb_input(&b, "a", FLT, 2, dat);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "b", FLT, 2, dbt, bw, sizeof(float) * N * K);
	g = mb_node(&b, "Gemm", NULL, gi, 2, yo, 1);
	mb_attr_int(&b, g, "transA", 1);
	mb_attr_int(&b, g, "transB", 1);
	mb_attr_float(&b, g, "alpha", 0.0f);
	expect_refused(&b, "alpha must be finite and not 0", "Gemm alpha 0");
	mb_free(&b);
	free(a);
	free(bw);
	free(cv);
}

/* ---- Softmax, LogSoftmax ---- */

/* softmax (or log-softmax) of @n lines of @len at stride @st, @outer */
static void ref_sm(const float *x, double *y, int64_t outer, int64_t len,
		   int64_t inner, int logsm)
{
	int64_t o, i, k;

	for (o = 0; o < outer; o++)
		for (i = 0; i < inner; i++) {
			const float *xp = x + o * len * inner + i;
			double *yp = y + o * len * inner + i, m = xp[0], s = 0;

			for (k = 1; k < len; k++)
				m = fmax(m, xp[k * inner]);
			for (k = 0; k < len; k++)
				s += exp(xp[k * inner] - m);
			for (k = 0; k < len; k++)
				yp[k * inner] = logsm ? xp[k * inner] - m - log(s) :
						exp(xp[k * inner] - m) / s;
		}
}

static void test_softmax(void)
{
	static char *xi[] = { "x" }, *yo[] = { "y" };
	static const int64_t d3[3] = { 2, 5, 12 }, d4[4] = { 2, 5, 3, 4 };
	unsigned int seed = 3;
	float *x = frand(120, &seed, 4);
	size_t n = 120;
	double ref[120];
	Onnx__NodeProto *s;
	struct mb b;

	/* opset 11, axis 1: over the 60 elements of dims 1.. */
	ref_sm(x, ref, 2, 60, 1, 0);
	mb_init(&b, 11);
	mb_input(&b, "x", FLT, 3, d3);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_node(&b, "Softmax", NULL, xi, 1, yo, 1);
	check(&b, 1, &x, &n, ref, n, 1e-2, "softmax_f",
	      "Softmax opset 11 axis 1 of [2,5,12] (coerced to 2-D)");
	mb_free(&b);
	/* opset 13, axis 1 of a 4-D tensor: one axis */
	ref_sm(x, ref, 2, 5, 12, 0);
	mb_init(&b, 13);
	mb_input(&b, "x", FLT, 4, d4);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_attr_int(&b, mb_node(&b, "Softmax", NULL, xi, 1, yo, 1), "axis", 1);
	check(&b, 1, &x, &n, ref, n, 1e-2, "axis=1",
	      "Softmax opset 13 axis 1 of [2,5,3,4]");
	mb_free(&b);
	/* LogSoftmax, last axis, opset 13 */
	ref_sm(x, ref, 10, 12, 1, 1);
	mb_init(&b, 13);
	mb_input(&b, "x", FLT, 3, d3);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_node(&b, "LogSoftmax", NULL, xi, 1, yo, 1);
	check(&b, 1, &x, &n, ref, n, 1e-2, "log_softmax_f",
	      "LogSoftmax opset 13 of [2,5,12]");
	mb_free(&b);
	/* opset 11, LogSoftmax axis 2 (only the last dim follows) */
	mb_init(&b, 11);
	mb_input(&b, "x", FLT, 3, d3);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_attr_int(&b, mb_node(&b, "LogSoftmax", NULL, xi, 1, yo, 1), "axis",
		    -1);
	check(&b, 1, &x, &n, ref, n, 1e-2, NULL, "LogSoftmax opset 11 axis -1");
	mb_free(&b);

	mb_init(&b, 13);
	mb_input(&b, "x", FLT, 3, d3);
	mb_output(&b, "y", FLT, -1, NULL);
	s = mb_node(&b, "Softmax", NULL, xi, 1, yo, 1);
	mb_attr_int(&b, s, "axis", 3);
	expect_refused(&b, "axis 3 outside rank 3", "Softmax axis 3 of rank 3");
	mb_free(&b);
	free(x);
}

/* ---- LayerNormalization ---- */

static void ref_ln(const float *x, const float *g, const float *bb,
		   double *y, int64_t groups, int64_t n, double eps)
{
	int64_t o, i;

	for (o = 0; o < groups; o++) {
		const float *xp = x + o * n;
		double m = 0, v = 0;

		for (i = 0; i < n; i++)
			m += xp[i];
		m /= (double)n;
		for (i = 0; i < n; i++)
			v += (xp[i] - m) * (xp[i] - m);
		v /= (double)n;
		for (i = 0; i < n; i++)
			y[o * n + i] = (xp[i] - m) / sqrt(v + eps) * g[i] +
				       (bb ? bb[i] : 0);
	}
}

static void test_layernorm(void)
{
	static char *li[] = { "x", "g", "b" }, *yo[] = { "y" },
		    *lo3[] = { "y", "mean", "isd" }, *ro[] = { "z" },
		    *ri[] = { "mean" };
	static const int64_t dx[3] = { 2, 7, 32 }, dg[1] = { 32 },
			     dg2[2] = { 7, 32 };
	unsigned int seed = 5;
	float *x = frand(2 * 7 * 32, &seed, 2), *g = frand(7 * 32, &seed, 1);
	float *bb = frand(7 * 32, &seed, 1);
	double ref[2 * 7 * 32];
	size_t n = 2 * 7 * 32, i;
	Onnx__NodeProto *l;
	struct mb b;

	for (i = 0; i < n; i++)
		x[i] += 1.5f;
	ref_ln(x, g, bb, ref, 14, 32, 1e-5);
	mb_init(&b, 17);
	mb_input(&b, "x", FLT, 3, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "g", FLT, 1, dg, g, sizeof(float) * 32);
	mb_init_t(&b, "b", FLT, 1, dg, bb, sizeof(float) * 32);
	mb_node(&b, "LayerNormalization", NULL, li, 3, yo, 1);
	check(&b, 1, &x, &n, ref, n, 1e-2, "layernorm",
	      "LayerNormalization [2,7,32] axis -1, scale, bias");
	mb_free(&b);
	/* axis -2, epsilon 0.1, no bias */
	ref_ln(x, g, NULL, ref, 2, 7 * 32, 0.1);
	mb_init(&b, 17);
	mb_input(&b, "x", FLT, 3, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "g", FLT, 2, dg2, g, sizeof(float) * 7 * 32);
	l = mb_node(&b, "LayerNormalization", NULL, li, 2, yo, 1);
	mb_attr_int(&b, l, "axis", -2);
	mb_attr_float(&b, l, "epsilon", 0.1f);
	check(&b, 1, &x, &n, ref, n, 1e-2, "axis=1 epsilon=0x1.99999ap-4",
	      "LayerNormalization axis -2, epsilon 0.1, no bias");
	mb_free(&b);

	mb_init(&b, 17);
	mb_input(&b, "x", FLT, 3, dx);
	mb_output(&b, "z", FLT, -1, NULL);
	mb_init_t(&b, "g", FLT, 1, dg, g, sizeof(float) * 32);
	mb_init_t(&b, "b", FLT, 1, dg, bb, sizeof(float) * 32);
	mb_node(&b, "LayerNormalization", NULL, li, 3, lo3, 3);
	mb_node(&b, "Relu", NULL, ri, 1, ro, 1);
	expect_refused(&b, "outputs Mean and InvStdDev (training) are not computed",
		       "LayerNormalization with its Mean used");
	mb_free(&b);
	free(x);
	free(g);
	free(bb);
}

/* ---- Reduce ---- */

/* reduce [2,6,5,3] over the dims in @mask: 0 sum 1 mean 2 max 3 min */
static void ref_reduce(const float *x, double *y, unsigned int mask, int f)
{
	static const int64_t d[4] = { 2, 6, 5, 3 };
	int64_t i[4], o[4], k, cnt = 1, oi;
	size_t n = 0;

	for (k = 0; k < 4; k++)
		if (mask & (1u << k))
			cnt *= d[k];
	for (k = 0; k < 180; k++)
		y[k] = f == 2 ? -INFINITY : f == 3 ? INFINITY : 0;
	for (i[0] = 0; i[0] < 2; i[0]++)
		for (i[1] = 0; i[1] < 6; i[1]++)
			for (i[2] = 0; i[2] < 5; i[2]++)
				for (i[3] = 0; i[3] < 3; i[3]++, n++) {
					for (k = 0; k < 4; k++)
						o[k] = mask & (1u << k) ? 0 : i[k];
					oi = ((o[0] * 6 + o[1]) * 5 + o[2]) * 3 + o[3];
					oi = 0;
					for (k = 0; k < 4; k++)
						if (!(mask & (1u << k)))
							oi = oi * d[k] + o[k];
					if (f == 2)
						y[oi] = fmax(y[oi], x[n]);
					else if (f == 3)
						y[oi] = fmin(y[oi], x[n]);
					else
						y[oi] += x[n] / (f ? (double)cnt : 1.0);
				}
}

static void test_reduce(void)
{
	static char *xi[] = { "x" }, *xa[] = { "x", "axes" }, *yo[] = { "y" };
	static const int64_t dx[4] = { 2, 6, 5, 3 }, a1[1] = { 1 },
			     a02[2] = { 0, 2 }, d1[1] = { 1 }, d2[1] = { 2 },
			     a23[2] = { -1, 2 };
	unsigned int seed = 9;
	float *x = frand(180, &seed, 3);
	size_t n = 180;
	double ref[180];
	Onnx__NodeProto *r;
	struct mb b;

	/* ReduceMean opset 13, axes attribute [1], keepdims 0 */
	ref_reduce(x, ref, 1u << 1, 1);
	mb_init(&b, 13);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	r = mb_node(&b, "ReduceMean", NULL, xi, 1, yo, 1);
	mb_attr_ints(&b, r, "axes", a1, 1);
	mb_attr_int(&b, r, "keepdims", 0);
	check(&b, 1, &x, &n, ref, 2 * 5 * 3, 1e-2, "func=mean axes=1",
	      "ReduceMean axes [1] keepdims 0 of [2,6,5,3]");
	mb_free(&b);
	/* ReduceSum opset 13: axes input [0, 2], keepdims 1 */
	ref_reduce(x, ref, 1u << 0 | 1u << 2, 0);
	mb_init(&b, 13);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "axes", I64, 1, d2, a02, sizeof(a02));
	mb_node(&b, "ReduceSum", NULL, xa, 2, yo, 1);
	check(&b, 1, &x, &n, ref, 6 * 3, 1e-2, "func=sum axes=0,2",
	      "ReduceSum axes input [0,2] keepdims 1");
	mb_free(&b);
	/* ReduceMax opset 18: axes input [-1, 2] */
	ref_reduce(x, ref, 1u << 3 | 1u << 2, 2);
	mb_init(&b, 18);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "axes", I64, 1, d2, a23, sizeof(a23));
	mb_node(&b, "ReduceMax", NULL, xa, 2, yo, 1);
	check(&b, 1, &x, &n, ref, 2 * 6, 1e-2, "func=max axes=2,3",
	      "ReduceMax opset 18 axes [-1,2]");
	mb_free(&b);
	/* ReduceMin opset 13 without axes: everything */
	ref_reduce(x, ref, 15, 3);
	mb_init(&b, 13);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_attr_int(&b, mb_node(&b, "ReduceMin", NULL, xi, 1, yo, 1),
		    "keepdims", 0);
	check(&b, 1, &x, &n, ref, 1, 1e-2, "func=min axes=0,1,2,3",
	      "ReduceMin of everything");
	mb_free(&b);
	/* noop_with_empty_axes: the identity */
	{
		double id[180];
		size_t i;

		for (i = 0; i < 180; i++)
			id[i] = x[i];
		mb_init(&b, 18);
		mb_input(&b, "x", FLT, 4, dx);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_attr_int(&b, mb_node(&b, "ReduceSum", NULL, xi, 1, yo, 1),
			    "noop_with_empty_axes", 1);
		check(&b, 1, &x, &n, id, 180, 1e-3, NULL,
		      "ReduceSum noop_with_empty_axes without axes");
		mb_free(&b);
	}
	/* refusals: runtime axes; an axis twice */
	{
		static const int64_t da[1] = { 1 };

		mb_init(&b, 18);
		mb_input(&b, "x", FLT, 4, dx);
		mb_input(&b, "axes", I64, 1, da);
		mb_output(&b, "y", FLT, -1, NULL);
		mb_node(&b, "ReduceMean", NULL, xa, 2, yo, 1);
		expect_refused(&b, "axes 'axes' are not a constant",
			       "ReduceMean with runtime axes");
		mb_free(&b);
	}
	mb_init(&b, 13);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	{
		static const int64_t twice[2] = { 1, -3 };

		mb_attr_ints(&b, mb_node(&b, "ReduceMean", NULL, xi, 1, yo, 1),
			     "axes", twice, 2);
	}
	expect_refused(&b, "axis -3 outside rank 4 or given twice",
		       "ReduceMean axes [1, -3]");
	mb_free(&b);
	(void)d1;
	free(x);
}

/* ---- BatchNormalization, InstanceNormalization ---- */

static void test_bn(void)
{
	static char *bi[] = { "x", "g", "b", "m", "v" }, *bo[] = { "t" },
		    *ri[] = { "t" }, *yo[] = { "y" }, *ii[] = { "x", "g", "b" };
	static const int64_t dx[4] = { 2, 6, 5, 3 }, dx3[3] = { 2, 6, 15 },
			     dc[1] = { 6 };
	unsigned int seed = 11;
	float *x = frand(180, &seed, 2), *g = frand(6, &seed, 1.5f);
	float *bb = frand(6, &seed, 1), *mu = frand(6, &seed, 1);
	float *var = frand(6, &seed, 1);
	size_t n = 180, i;
	double ref[180];
	Onnx__NodeProto *bn;
	struct mb b;

	for (i = 0; i < 6; i++)
		var[i] = var[i] * var[i] + 0.1f;
	for (i = 0; i < 180; i++) {
		size_t ch = i / 15 % 6;
		double v = (x[i] - mu[ch]) / sqrt(var[ch] + 1e-3) * g[ch] + bb[ch];

		ref[i] = v > 0 ? v : 0;
	}
	mb_init(&b, 15);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "g", FLT, 1, dc, g, 24);
	mb_init_t(&b, "b", FLT, 1, dc, bb, 24);
	mb_init_t(&b, "m", FLT, 1, dc, mu, 24);
	mb_init_t(&b, "v", FLT, 1, dc, var, 24);
	bn = mb_node(&b, "BatchNormalization", NULL, bi, 5, bo, 1);
	mb_attr_float(&b, bn, "epsilon", 1e-3f);
	mb_node(&b, "Relu", NULL, ri, 1, yo, 1);
	/* (the graph passes make it a depthwise Conv; else ops_norm.c) */
	check(&b, 1, &x, &n, ref, n, 1e-2, NULL,
	      "BatchNormalization [2,6,5,3] + Relu");
	check(&b, 1, &x, &n, ref, n, 1e-2, "act=relu",
	      "BatchNormalization: the Relu fused");
	mb_free(&b);
	/* 3-D: SHAVE mul and add */
	for (i = 0; i < 180; i++) {
		size_t ch = i / 15 % 6;

		ref[i] = (x[i] - mu[ch]) / sqrt(var[ch] + 1e-3) * g[ch] + bb[ch];
	}
	mb_init(&b, 15);
	mb_input(&b, "x", FLT, 3, dx3);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "g", FLT, 1, dc, g, 24);
	mb_init_t(&b, "b", FLT, 1, dc, bb, 24);
	mb_init_t(&b, "m", FLT, 1, dc, mu, 24);
	mb_init_t(&b, "v", FLT, 1, dc, var, 24);
	bn = mb_node(&b, "BatchNormalization", NULL, bi, 5, yo, 1);
	mb_attr_float(&b, bn, "epsilon", 1e-3f);
	check(&b, 1, &x, &n, ref, n, 1e-2, "func=mul",
	      "BatchNormalization [2,6,15]: SHAVE mul, add");
	mb_free(&b);
	/* InstanceNormalization */
	for (i = 0; i < 12; i++) {
		size_t ch = i % 6, k;
		double m = 0, v = 0;

		for (k = 0; k < 15; k++)
			m += x[i * 15 + k];
		m /= 15;
		for (k = 0; k < 15; k++)
			v += (x[i * 15 + k] - m) * (x[i * 15 + k] - m);
		v /= 15;
		for (k = 0; k < 15; k++)
			ref[i * 15 + k] = (x[i * 15 + k] - m) / sqrt(v + 1e-5) *
					  g[ch] + bb[ch];
	}
	mb_init(&b, 15);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "g", FLT, 1, dc, g, 24);
	mb_init_t(&b, "b", FLT, 1, dc, bb, 24);
	mb_node(&b, "InstanceNormalization", NULL, ii, 3, yo, 1);
	check(&b, 1, &x, &n, ref, n, 1e-2, "layernorm",
	      "InstanceNormalization [2,6,5,3]");
	check(&b, 1, &x, &n, ref, n, 1e-2,
	      dpuf("add", VPUX_DPU_F_PER_CHANNEL |
		   VPUX_DPU_BCAST_SCALAR << VPUX_DPU_F_BCAST_SHIFT),
	      "InstanceNormalization: scale and B as a DPU ADD's records");
	mb_free(&b);
	/* training mode refused */
	mb_init(&b, 15);
	mb_input(&b, "x", FLT, 4, dx);
	mb_output(&b, "y", FLT, -1, NULL);
	mb_init_t(&b, "g", FLT, 1, dc, g, 24);
	mb_init_t(&b, "b", FLT, 1, dc, bb, 24);
	mb_init_t(&b, "m", FLT, 1, dc, mu, 24);
	mb_init_t(&b, "v", FLT, 1, dc, var, 24);
	mb_attr_int(&b, mb_node(&b, "BatchNormalization", NULL, bi, 5, yo, 1),
		    "training_mode", 1);
	expect_refused(&b, "training mode", "BatchNormalization training_mode 1");
	mb_free(&b);
	free(x);
	free(g);
	free(bb);
	free(mu);
	free(var);
}

int main(void)
{
	test_matmul();
	test_gemm();
	test_softmax();
	test_layernorm();
	test_reduce();
	test_bn();
	return tap_finish();
}
