// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Float operators with weights: conv (2-D, groups, strides, pads,
 * dilations), matmul (numpy semantics, batch broadcasting), gemm.
 * Accumulation is in float, in the reduction's natural order.
 * Documentation/cpuops.rst gives every argument.
 */
#include <errno.h>
#include <string.h>

#include "cpuops.h"
#include "float_args.h"
#include "float_ops.h"

/*
 * conv(X, W, B, Y, x_shape, w_shape, group, strides, pads, dilations) or,
 * with @has_b 0, the same without B.
 */
static int conv(const struct vpux_cpu_call *c, int has_b)
{
	const char *fn = has_b ? "conv" : "conv_nobias";
	unsigned int a = has_b ? 4 : 3, n;
	struct fa_shape xs, ws;
	int64_t group, st[2], pd[4], dl[2], N, C, H, W, M, CG, KH, KW, OH, OW;
	int64_t b_, g, m, oh, ow, ci, kh, kw;
	float *x, *w, *bias = NULL, *y;
	int ret;

	if ((ret = fa_nargs(c, fn, has_b ? 10 : 9)) ||
	    (ret = fa_shape(c, fn, a, "x_shape", 0, &xs)) ||
	    (ret = fa_shape(c, fn, a + 1, "w_shape", 0, &ws)) ||
	    (ret = fa_int(c, fn, a + 2, "group", 1, 1 << 20, &group)) ||
	    (ret = fa_ints(c, fn, a + 3, "strides", 2, 2, 1, 1 << 16, st, &n)) ||
	    (ret = fa_ints(c, fn, a + 4, "pads", 4, 4, 0, 1 << 16, pd, &n)) ||
	    (ret = fa_ints(c, fn, a + 5, "dilations", 2, 2, 1, 1 << 16, dl, &n)))
		return ret;
	if (xs.rank != 4)
		return fa_fail(c, fn, "argument %u (x_shape): N,C,H,W expected", a);
	if (ws.rank != 4)
		return fa_fail(c, fn, "argument %u (w_shape): M,C/group,kH,kW expected",
			       a + 1);
	N = xs.d[0], C = xs.d[1], H = xs.d[2], W = xs.d[3];
	M = ws.d[0], CG = ws.d[1], KH = ws.d[2], KW = ws.d[3];
	if (C % group || M % group || CG != C / group)
		return fa_fail(c, fn, "argument %u (group): %lld does not divide %lld input channels into groups of %lld (w_shape) and %lld output channels",
			       a + 2, (long long)group, (long long)C,
			       (long long)CG, (long long)M);
	OH = H + pd[0] + pd[2] - dl[0] * (KH - 1) - 1;
	OW = W + pd[1] + pd[3] - dl[1] * (KW - 1) - 1;
	if (OH < 0 || OW < 0)
		return fa_fail(c, fn, "argument %u (w_shape): the dilated kernel is larger than the padded input",
			       a + 1);
	OH = OH / st[0] + 1;
	OW = OW / st[1] + 1;
	if ((ret = fa_fbuf(c, fn, 0, "X", fa_count(&xs), &x)) ||
	    (ret = fa_fbuf(c, fn, 1, "W", fa_count(&ws), &w)) ||
	    (has_b && (ret = fa_fbuf(c, fn, 2, "B", (uint64_t)M, &bias))) ||
	    (ret = fa_fbuf(c, fn, has_b ? 3 : 2, "Y",
			   (uint64_t)(N * M * OH * OW), &y)))
		return ret;
	for (b_ = 0; b_ < N; b_++)
	for (g = 0; g < group; g++)
	for (m = g * (M / group); m < (g + 1) * (M / group); m++)
	for (oh = 0; oh < OH; oh++)
	for (ow = 0; ow < OW; ow++) {
		float acc = bias ? bias[m] : 0.0f;

		for (ci = 0; ci < CG; ci++) {
			const float *xp = x + ((b_ * C + g * CG + ci) * H) * W;
			const float *wp = w + ((m * CG + ci) * KH) * KW;

			for (kh = 0; kh < KH; kh++) {
				int64_t ih = oh * st[0] - pd[0] + kh * dl[0];

				if (ih < 0 || ih >= H)
					continue;
				for (kw = 0; kw < KW; kw++) {
					int64_t iw = ow * st[1] - pd[1] + kw * dl[1];

					if (iw < 0 || iw >= W)
						continue;
					acc += xp[ih * W + iw] * wp[kh * KW + kw];
				}
			}
		}
		y[((b_ * M + m) * OH + oh) * OW + ow] = acc;
	}
	return 0;
}

int cpuops_conv(const struct vpux_cpu_call *c)
{
	return conv(c, 1);
}

int cpuops_conv_nobias(const struct vpux_cpu_call *c)
{
	return conv(c, 0);
}

/* matmul(A, B, Y, a_shape, b_shape): numpy matmul */
int cpuops_matmul(const struct vpux_cpu_call *c)
{
	static const char fn[] = "matmul";
	struct fa_shape sa, sb, a2, b2, ys;
	uint64_t stA[FA_MAX_RANK], stB[FA_MAX_RANK], batch = 1, bi;
	int64_t M, K, N, i, j, k, idx[FA_MAX_RANK] = { 0 };
	unsigned int r, q;
	float *a, *b, *y;
	int ret;

	if ((ret = fa_nargs(c, fn, 5)) ||
	    (ret = fa_shape(c, fn, 3, "a_shape", 0, &sa)) ||
	    (ret = fa_shape(c, fn, 4, "b_shape", 0, &sb)))
		return ret;
	if (!sa.rank || !sb.rank)
		return fa_fail(c, fn, "argument %u (%s): a scalar is not a matrix",
			       sa.rank ? 4 : 3, sa.rank ? "b_shape" : "a_shape");
	/* 1-D operands are promoted, as numpy does */
	a2 = sa;
	if (a2.rank == 1) {
		a2.rank = 2;
		a2.d[1] = a2.d[0];
		a2.d[0] = 1;
	}
	b2 = sb;
	if (b2.rank == 1) {
		b2.rank = 2;
		b2.d[1] = 1;
	}
	M = a2.d[a2.rank - 2], K = a2.d[a2.rank - 1], N = b2.d[b2.rank - 1];
	if (b2.d[b2.rank - 2] != K)
		return fa_fail(c, fn, "argument 4 (b_shape): %lld rows, A has %lld columns",
			       (long long)b2.d[b2.rank - 2], (long long)K);
	/* the batch dims broadcast */
	r = (a2.rank > b2.rank ? a2.rank : b2.rank) - 2;
	ys.rank = r;
	for (q = 0; q < r; q++) {
		int64_t da = q + a2.rank - 2 >= r ? a2.d[q + a2.rank - 2 - r] : 1;
		int64_t db = q + b2.rank - 2 >= r ? b2.d[q + b2.rank - 2 - r] : 1;

		if (da != db && da != 1 && db != 1)
			return fa_fail(c, fn, "argument 4 (b_shape): batch dims do not broadcast with a_shape's");
		ys.d[q] = da > db ? da : db;
		batch *= (uint64_t)ys.d[q];
	}
	{
		uint64_t acc_a = (uint64_t)(M * K), acc_b = (uint64_t)(K * N);
		int qq;

		for (qq = (int)r - 1; qq >= 0; qq--) {
			int qa = qq - (int)r + (int)a2.rank - 2;
			int qb = qq - (int)r + (int)b2.rank - 2;
			int64_t da = qa >= 0 ? a2.d[qa] : 1;
			int64_t db = qb >= 0 ? b2.d[qb] : 1;

			stA[qq] = da == 1 ? 0 : acc_a;
			stB[qq] = db == 1 ? 0 : acc_b;
			acc_a *= (uint64_t)da;
			acc_b *= (uint64_t)db;
		}
	}
	if (batch * (uint64_t)(M * N) > FA_MAX_ELEMS)
		return fa_fail(c, fn, "argument 2 (Y): more than %llu elements",
			       (unsigned long long)FA_MAX_ELEMS);
	if ((ret = fa_fbuf(c, fn, 0, "A", fa_count(&sa), &a)) ||
	    (ret = fa_fbuf(c, fn, 1, "B", fa_count(&sb), &b)) ||
	    (ret = fa_fbuf(c, fn, 2, "Y", batch * (uint64_t)(M * N), &y)))
		return ret;
	for (bi = 0; bi < batch; bi++) {
		uint64_t oa = 0, ob = 0;
		int qq;

		for (q = 0; q < r; q++) {
			oa += stA[q] * (uint64_t)idx[q];
			ob += stB[q] * (uint64_t)idx[q];
		}
		for (i = 0; i < M; i++)
			for (j = 0; j < N; j++) {
				float acc = 0;

				for (k = 0; k < K; k++)
					acc += a[oa + (uint64_t)(i * K + k)] *
					       b[ob + (uint64_t)(k * N + j)];
				y[bi * (uint64_t)(M * N) + (uint64_t)(i * N + j)] = acc;
			}
		for (qq = (int)r - 1; qq >= 0; qq--) {
			if (++idx[qq] < ys.d[qq])
				break;
			idx[qq] = 0;
		}
	}
	return 0;
}

/*
 * gemm(A, B, C, Y, a_shape, b_shape, c_shape, transA, transB, alpha,
 * beta), or without C and c_shape (@has_c 0): Y = alpha * A' B' + beta C,
 * C unidirectionally broadcast to M,N.
 */
static int gemm(const struct vpux_cpu_call *c, int has_c)
{
	const char *fn = has_c ? "gemm" : "gemm_noc";
	unsigned int a = has_c ? 4 : 3, n;
	struct fa_shape sa, sb, sc = { 0 };
	int64_t ta, tb, M, K, N, i, j, k;
	double alpha, beta = 0;
	float *A, *B, *C = NULL, *Y;
	uint64_t cs_m = 0, cs_n = 0;
	int ret;

	if ((ret = fa_nargs(c, fn, has_c ? 11 : 8)) ||
	    (ret = fa_shape(c, fn, a, "a_shape", 0, &sa)) ||
	    (ret = fa_shape(c, fn, a + 1, "b_shape", 0, &sb)) ||
	    (has_c && (ret = fa_shape(c, fn, a + 2, "c_shape", 1, &sc))))
		return ret;
	if (has_c)
		a++;
	if ((ret = fa_int(c, fn, a + 2, "transA", 0, 1, &ta)) ||
	    (ret = fa_int(c, fn, a + 3, "transB", 0, 1, &tb)) ||
	    (ret = fa_floats(c, fn, a + 4, "alpha", 1, 1, &alpha, &n)) ||
	    (has_c && (ret = fa_floats(c, fn, a + 5, "beta", 1, 1, &beta, &n))))
		return ret;
	if (sa.rank != 2 || sb.rank != 2)
		return fa_fail(c, fn, "argument %u (%s): 2-D expected",
			       sa.rank != 2 ? (has_c ? 4 : 3) : (has_c ? 5 : 4),
			       sa.rank != 2 ? "a_shape" : "b_shape");
	M = ta ? sa.d[1] : sa.d[0];
	K = ta ? sa.d[0] : sa.d[1];
	N = tb ? sb.d[0] : sb.d[1];
	if ((tb ? sb.d[1] : sb.d[0]) != K)
		return fa_fail(c, fn, "argument %u (b_shape): inner dim %lld, A's is %lld",
			       has_c ? 5 : 4,
			       (long long)(tb ? sb.d[1] : sb.d[0]), (long long)K);
	if (has_c) {
		int64_t cm = sc.rank == 2 ? sc.d[0] : 1;
		int64_t cn = sc.rank >= 1 ? sc.d[sc.rank - 1] : 1;

		if (sc.rank > 2 || (cm != 1 && cm != M) || (cn != 1 && cn != N))
			return fa_fail(c, fn, "argument 6 (c_shape): does not broadcast to %lld,%lld",
				       (long long)M, (long long)N);
		cs_m = cm == 1 ? 0 : (uint64_t)cn;
		cs_n = cn == 1 ? 0 : 1;
	}
	if ((uint64_t)M * (uint64_t)N > FA_MAX_ELEMS)
		return fa_fail(c, fn, "argument %u (Y): more than %llu elements",
			       has_c ? 3 : 2, (unsigned long long)FA_MAX_ELEMS);
	if ((ret = fa_fbuf(c, fn, 0, "A", fa_count(&sa), &A)) ||
	    (ret = fa_fbuf(c, fn, 1, "B", fa_count(&sb), &B)) ||
	    (has_c && (ret = fa_fbuf(c, fn, 2, "C", fa_count(&sc), &C))) ||
	    (ret = fa_fbuf(c, fn, has_c ? 3 : 2, "Y", (uint64_t)(M * N), &Y)))
		return ret;
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			float acc = 0, v;

			for (k = 0; k < K; k++)
				acc += (ta ? A[k * M + i] : A[i * K + k]) *
				       (tb ? B[j * K + k] : B[k * N + j]);
			v = (float)alpha * acc;
			if (C)
				v += (float)beta *
				     C[(uint64_t)i * cs_m + (uint64_t)j * cs_n];
			Y[i * N + j] = v;
		}
	return 0;
}

int cpuops_gemm(const struct vpux_cpu_call *c)
{
	return gemm(c, 1);
}

int cpuops_gemm_noc(const struct vpux_cpu_call *c)
{
	return gemm(c, 0);
}
