// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "matmul": MatMul and Gemm on FP16 tensors are DPU MATMULs
 * (Documentation/compute-ops.rst, "MATMUL (FP16)"): the rows of the
 * first operand (row-major, [rows][K]) against [K][N] matrices
 * (VPUX_DPU_F_W_KN), one matrix for all rows, or one per batch item
 * (VPUX_DPU_F_BATCH). Constant weights are FP16 [K][N] in the weights,
 * the layout the model's SIMD kernels pack fastest (a vector conversion
 * per k; [N][K] is a scalar transposition per op and band); Gemm's
 * transB weights are repacked to it at compile time. A runtime second
 * operand is used as it lies: [K][N] row-major, or [N][K] when its
 * order already swaps the last two dims (a Transpose done as a view).
 * Gemm's alpha is the DPU's per-tensor scale stage, a constant [N] or
 * [1, N] C (times beta) its FP32 bias; any other C is a SHAVE add after.
 * A Relu/Clip/LeakyRelu that only reads the result is fused. Rows go
 * into in_h (at most 65535 per DPU op, more ops beyond), so that the
 * CMX tiling can cut them into bands.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"
#include "vpux_dpu_rules.h"

#define MM_MAX_DIM	65535
#define MM_MAX_OPS	4096	/* DPU ops one broadcasting MatMul may take */

static bool is_f(const struct vc_value *v)
{
	return v->dtype == VPUXC_FLOAT || v->dtype == 10;
}

static int64_t prod(const int64_t *d, int n)
{
	int64_t p = 1;
	int i;

	for (i = 0; i < n; i++)
		p *= d[i];
	return p;
}

/*
 * The shapes of a MatMul: A [..a, M, K] x B [..b, K, N] with the batch
 * dims broadcast to @ob (@nb dims, @ab/@bb padded with leading 1s).
 * 1-D operands per ONNX: A [K] is [1, K], B [K] is [K, 1].
 */
struct mm_shape {
	int64_t M, K, N;
	int nb;
	int64_t ob[VPUXC_MAX_RANK], ab[VPUXC_MAX_RANK], bb[VPUXC_MAX_RANK];
	int64_t na, nbm, no;	/* matrices of A, of B, of the output */
};

static int mm_shape(const struct vc_value *a, const struct vc_value *b,
		    struct mm_shape *s)
{
	int ra = a->rank >= 2 ? a->rank - 2 : 0, rb = b->rank >= 2 ? b->rank - 2 : 0;
	int i;

	if (a->rank < 1 || b->rank < 1)
		return -1;
	s->M = a->rank >= 2 ? a->dims[a->rank - 2] : 1;
	s->K = a->dims[a->rank - 1];
	s->N = b->rank >= 2 ? b->dims[b->rank - 1] : 1;
	if (b->dims[b->rank >= 2 ? b->rank - 2 : 0] != s->K)
		return -1;
	s->nb = ra > rb ? ra : rb;
	for (i = 0; i < s->nb; i++) {
		int ia = i - (s->nb - ra), ib = i - (s->nb - rb);

		s->ab[i] = ia >= 0 ? a->dims[ia] : 1;
		s->bb[i] = ib >= 0 ? b->dims[ib] : 1;
		if (s->ab[i] != s->bb[i] && s->ab[i] != 1 && s->bb[i] != 1)
			return -1;
		s->ob[i] = s->ab[i] == 1 ? s->bb[i] : s->ab[i];
	}
	s->na = prod(s->ab, s->nb);
	s->nbm = prod(s->bb, s->nb);
	s->no = prod(s->ob, s->nb);
	return 0;
}

/* ONNX's output dims of a MatMul (1-D operands drop their dim) */
static int mm_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *a = vc_in(m, n, 0), *b = vc_in(m, n, 1);
	struct vc_value *y = vc_out(m, n, 0);
	struct mm_shape s;
	int r = 0, i;

	if (!a || !b || !y || a->rank < 1 || b->rank < 1 ||
	    !vc_numel(a) || !vc_numel(b) || mm_shape(a, b, &s))
		return 0;
	for (i = 0; i < s.nb; i++)
		y->dims[r++] = s.ob[i];
	if (a->rank >= 2)
		y->dims[r++] = s.M;
	if (b->rank >= 2)
		y->dims[r++] = s.N;
	y->rank = r;
	y->dtype = a->dtype;
	return 0;
}

/* DPU ops the MatMul of shape @s takes (before the 65535-row splits) */
static int64_t mm_ops(const struct mm_shape *s)
{
	if (s->nbm == 1 || (s->na == s->no && s->nbm == s->no))
		return 1;
	return s->no;
}

static const char *mm_npu(const struct vpuxc_model *m,
			  const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *a = vc_in(m, n, 0), *b = vc_in(m, n, 1);
	const struct vc_value *y = vc_out(m, n, 0);
	struct mm_shape s;

	if (!a || !b || !y) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (!is_f(a) || !is_f(b)) {
		snprintf(buf, len, "input '%s' is %s, not float",
			 is_f(a) ? b->name : a->name,
			 vpuxc_dtype_name(is_f(a) ? b->dtype : a->dtype));
		return buf;
	}
	if (!vc_numel(a) || !vc_numel(b) || a->rank < 1 || b->rank < 1) {
		snprintf(buf, len, "no static shape");
		return buf;
	}
	if (a->rank > QT_MAX_RANK || b->rank > QT_MAX_RANK ||
	    y->rank > QT_MAX_RANK) {
		snprintf(buf, len, "rank above %d", QT_MAX_RANK);
		return buf;
	}
	if (mm_shape(a, b, &s)) {
		snprintf(buf, len, "shapes of '%s' and '%s' do not multiply",
			 a->name, b->name);
		return buf;
	}
	if (s.K > VPUX_DPU_MAX_K) {
		snprintf(buf, len, "reduction of %lld above the DPU's %u",
			 (long long)s.K, VPUX_DPU_MAX_K);
		return buf;
	}
	if (!vc_numel(y)) {
		snprintf(buf, len, "output '%s' has no static shape", y->name);
		return buf;
	}
	if (s.N > MM_MAX_DIM) {
		snprintf(buf, len, "%lld output columns above %d",
			 (long long)s.N, MM_MAX_DIM);
		return buf;
	}
	if (mm_ops(&s) > MM_MAX_OPS) {
		snprintf(buf, len, "broadcasting the batch dims takes %lld DPU ops (at most %d)",
			 (long long)mm_ops(&s), MM_MAX_OPS);
		return buf;
	}
	return NULL;
}

/*
 * @rows rows of K at byte @aoff of @a times one matrix (@q's in2),
 * results at @yoff of @y: DPU ops of at most 65535 rows.
 */
static int mm_rows(struct lctx *c, int node, const struct qdpu *tq, int a,
		   uint64_t aoff, int y, uint64_t yoff, int64_t rows,
		   int64_t K, int64_t N)
{
	int64_t r0, cnt;
	struct qdpu q;
	int r;

	for (r0 = 0; r0 < rows; r0 += cnt) {
		cnt = rows - r0 < MM_MAX_DIM ? rows - r0 : MM_MAX_DIM;
		q = *tq;
		q.d.in_c = (uint16_t)K;
		q.d.out_c = (uint16_t)N;
		q.d.in_h = q.d.out_h = (uint16_t)cnt;
		q.d.in_w = q.d.out_w = 1;
		q.t[QD_IN] = a;
		q.off[QD_IN] = aoff + (uint64_t)(r0 * K * 2);
		q.len[QD_IN] = (uint64_t)(cnt * K * 2);
		q.t[QD_OUT] = y;
		q.off[QD_OUT] = yoff + (uint64_t)(r0 * N * 2);
		q.len[QD_OUT] = (uint64_t)(cnt * N * 2);
		r = vc_emit_dpu(c->p, node, &q);
		if (r < 0)
			return r;
	}
	return 0;
}

/* @nb matrices of [M][K] times @nb of @b (one each): BATCH ops */
static int mm_batch(struct lctx *c, int node, const struct qdpu *tq, int a,
		    int b, int y, int64_t nb, int64_t M, int64_t K, int64_t N)
{
	uint64_t as = (uint64_t)(M * K * 2), bs = (uint64_t)(K * N * 2),
		 ys = (uint64_t)(M * N * 2);
	int64_t b0, cnt;
	struct qdpu q;
	int r;

	for (b0 = 0; b0 < nb; b0 += cnt) {
		cnt = nb - b0 < MM_MAX_DIM ? nb - b0 : MM_MAX_DIM;
		q = *tq;
		q.t[QD_IN2] = b;
		if (M > MM_MAX_DIM || cnt == 1) {
			/* one matrix at a time */
			cnt = 1;
			q.off[QD_IN2] = (uint64_t)b0 * bs;
			q.len[QD_IN2] = bs;
			r = mm_rows(c, node, &q, a, (uint64_t)b0 * as, y,
				    (uint64_t)b0 * ys, M, K, N);
			if (r < 0)
				return r;
			continue;
		}
		q.d.flags |= VPUX_DPU_F_BATCH;
		q.d.in_c = (uint16_t)K;
		q.d.out_c = (uint16_t)N;
		q.d.in_h = q.d.out_h = (uint16_t)cnt;
		q.d.in_w = q.d.out_w = (uint16_t)M;
		q.t[QD_IN] = a;
		q.off[QD_IN] = (uint64_t)b0 * as;
		q.len[QD_IN] = (uint64_t)cnt * as;
		q.off[QD_IN2] = (uint64_t)b0 * bs;
		q.len[QD_IN2] = (uint64_t)cnt * bs;
		q.t[QD_OUT] = y;
		q.off[QD_OUT] = (uint64_t)b0 * ys;
		q.len[QD_OUT] = (uint64_t)cnt * ys;
		r = vc_emit_dpu(c->p, node, &q);
		if (r < 0)
			return r;
	}
	return 0;
}

/* the matrix index of output batch item @o in an operand of dims @d */
static int64_t bcast_index(const struct mm_shape *s, const int64_t *d,
			   int64_t o)
{
	int64_t idx = 0, mul = 1;
	int i;

	for (i = s->nb - 1; i >= 0; i--) {
		int64_t k = o % s->ob[i];

		o /= s->ob[i];
		if (d[i] != 1)
			idx += k * mul;
		mul *= d[i];
	}
	return idx;
}

/* all of a MatMul of shape @s: @a [.., M, K], @b [.., K, N] (per @tq) */
static int mm_emit(struct lctx *c, int node, const struct qdpu *tq, int a,
		   int b, int y, const struct mm_shape *s)
{
	uint64_t as = (uint64_t)(s->M * s->K * 2),
		 bs = (uint64_t)(s->K * s->N * 2),
		 ys = (uint64_t)(s->M * s->N * 2);
	struct qdpu q = *tq;
	int64_t o;
	int r;

	if (s->nbm == 1) {	/* one matrix: every row of A against it */
		q.t[QD_IN2] = b;
		q.len[QD_IN2] = bs;
		return mm_rows(c, node, &q, a, 0, y, 0, s->na * s->M, s->K,
			       s->N);
	}
	if (s->na == s->no && s->nbm == s->no)
		return mm_batch(c, node, tq, a, b, y, s->no, s->M, s->K, s->N);
	for (o = 0; o < s->no; o++) {	/* broadcast: an op per item */
		q = *tq;
		q.t[QD_IN2] = b;
		q.off[QD_IN2] = (uint64_t)bcast_index(s, s->bb, o) * bs;
		q.len[QD_IN2] = bs;
		r = mm_rows(c, node, &q, a,
			    (uint64_t)bcast_index(s, s->ab, o) * as, y,
			    (uint64_t)o * ys, s->M, s->K, s->N);
		if (r < 0)
			return r;
	}
	return 0;
}

/* row-major order code of rank @r, and that with the last two swapped */
static uint64_t rm_order(unsigned int r)
{
	return vpux_order_default(r).code;
}

static uint64_t kn_swapped(unsigned int r)
{
	uint64_t o = rm_order(r);

	return r < 2 ? o : (o & ~0xffull) | (o & 0xf) << 4 | (o >> 4 & 0xf);
}

/*
 * Runtime (or constant) operand @v as a row-major FP16 tensor; with
 * @nk, a second operand whose last two dims are swapped in memory is
 * taken as it is and *@nk set.
 */
static int mm_operand(struct lctx *c, int node, const struct vc_value *v,
		      bool *nk)
{
	struct qprog *p = c->p;
	int t = vc_f16(c, node, v);

	if (nk)
		*nk = false;
	if (t < 0)
		return t;
	if (nk && p->t[t].rank >= 2 && p->t[t].order == kn_swapped(p->t[t].rank)) {
		*nk = true;
		return t;
	}
	t = vc_f16_rowmajor(c, node, v);
	if (t < 0)
		return t;
	if (p->t[t].order == rm_order(p->t[t].rank) || p->t[t].rank < 2)
		return t;
	vc_unsupported(p, &c->m->n[node], "input '%s' is in a layout (order 0x%llx) MatMul does not read",
		       v->name, (unsigned long long)p->t[t].order);
	return VC_REPORTED;
}

/*
 * An Add that is the only use of MatMul result @y and adds a float
 * constant of one value per column ([N], or [1, .., N]) without
 * changing the shape: its node index, else -1.
 */
static int bias_add(const struct vpuxc_model *m, const struct vc_value *y,
		    int64_t N, const struct vc_value **bv)
{
	int k = vc_sole_use(m, y), i;
	const struct vc_node *n;
	const struct vc_value *a, *b, *o;

	if (k < 0)
		return -1;
	n = &m->n[k];
	if (strcmp(n->op, "Add") || (*n->domain && strcmp(n->domain, "ai.onnx")) ||
	    n->n_in != 2)
		return -1;
	a = vc_in(m, n, 0);
	b = vc_in(m, n, 1);
	o = vc_out(m, n, 0);
	if (!a || !b || !o)
		return -1;
	if (a != y) {
		const struct vc_value *t = a;

		a = b;
		b = t;
	}
	if (a != y || !b->cst || !is_f(b) || b->rank < 1 || b->rank > y->rank ||
	    b->dims[b->rank - 1] != N || o->rank != y->rank ||
	    (int64_t)vpuxc_tensor_count(b->cst) != N)
		return -1;
	for (i = 0; i < y->rank; i++)
		if (o->dims[i] != y->dims[i])
			return -1;
	*bv = b;
	return k;
}

static int mm_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *av = vc_in(c->m, n, 0), *bv = vc_in(c->m, n, 1);
	const struct vc_value *yv = vc_out(c->m, n, 0);
	const struct vc_value *cb;
	struct mm_shape s;
	struct qdpu q;
	bool nk = false;
	int a, b, y, k;

	if (mm_shape(av, bv, &s))
		return vpux_err(VPUX_E_INVAL, "MatMul '%s': shapes do not multiply",
				n->name);
	a = mm_operand(c, node, av, NULL);
	if (a < 0)
		return a;
	b = mm_operand(c, node, bv, bv->cst ? NULL : &nk);
	if (b < 0)
		return b;
	vc_fdpu_init(&q, VPUX_DPU_OP_MATMUL);
	if (!nk)
		q.d.flags |= VPUX_DPU_F_W_KN;
	/* MatMul + Add(per-column constant): the DPU's FP32 bias */
	k = yv->rank >= 1 ? bias_add(c->m, yv, s.N, &cb) : -1;
	if (k >= 0) {
		q.t[QD_BIAS] = vc_bias_f32(c, cb, s.N);
		if (q.t[QD_BIAS] < 0)
			return q.t[QD_BIAS];
		q.d.flags |= VPUX_DPU_F_BIAS;
		c->done[k] = true;
		yv = vc_out(c->m, &c->m->n[k], 0);
	}
	yv = vc_fuse_act(c, &q, yv);
	y = vc_f16_out(c, yv, 0);
	if (y < 0)
		return y;
	return mm_emit(c, node, &q, a, b, y, &s);
}

/* ---- Gemm ---- */

static const char *gemm_npu(const struct vpuxc_model *m,
			    const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *a = vc_in(m, n, 0), *b = vc_in(m, n, 1);
	const struct vc_value *cv = n->n_in > 2 ? vc_in(m, n, 2) : NULL;
	const struct vc_value *y = vc_out(m, n, 0);
	int64_t ta = vc_attr_i(n, "transA", 0), tb = vc_attr_i(n, "transB", 0);
	float alpha = vc_attr_f(n, "alpha", 1.0f), beta = vc_attr_f(n, "beta", 1.0f);
	int64_t K, N;

	if (!a || !b || !y) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (!is_f(a) || !is_f(b) || (cv && !is_f(cv))) {
		snprintf(buf, len, "an input is not float");
		return buf;
	}
	if (a->rank != 2 || b->rank != 2 || !vc_numel(a) || !vc_numel(b) ||
	    !vc_numel(y) || (cv && !vc_numel(cv) && cv->rank != 0)) {
		snprintf(buf, len, "A and B must be 2-D with static shapes");
		return buf;
	}
	K = a->dims[ta ? 0 : 1];
	N = b->dims[tb ? 0 : 1];
	if (b->dims[tb ? 1 : 0] != K) {
		snprintf(buf, len, "shapes of '%s' and '%s' do not multiply",
			 a->name, b->name);
		return buf;
	}
	if (K > VPUX_DPU_MAX_K) {
		snprintf(buf, len, "reduction of %lld above the DPU's %u",
			 (long long)K, VPUX_DPU_MAX_K);
		return buf;
	}
	if (N > MM_MAX_DIM) {
		snprintf(buf, len, "%lld output columns above %d",
			 (long long)N, MM_MAX_DIM);
		return buf;
	}
	if (!isfinite(alpha) || alpha == 0 || !isfinite(beta)) {
		snprintf(buf, len, "alpha %g, beta %g: alpha must be finite and not 0, beta finite",
			 (double)alpha, (double)beta);
		return buf;
	}
	if (cv && cv->rank > 2) {
		snprintf(buf, len, "C of rank %d (at most 2)", cv->rank);
		return buf;
	}
	return NULL;
}

/* [R][Cc] FP16 at @off of @src into [Cc][R] at @doff of @dst by one DMA */
static int transpose2(struct lctx *c, int node, int src, uint64_t off,
		      int64_t R, int64_t Cc, int dst, uint64_t doff)
{
	struct qprog *p = c->p;
	uint64_t bytes = (uint64_t)(R * Cc * 2);
	int op;

	op = vc_emit_op(p, QOP_DMA, node,
			"dma src=t%d[%llu:%llu] dst=t%d[%llu:%llu] len=2 count=%lld,%lld,1 src_stride=%lld,2,0 dst_stride=2,%lld,0",
			src, (unsigned long long)off, (unsigned long long)bytes,
			dst, (unsigned long long)doff, (unsigned long long)bytes,
			(long long)R, (long long)Cc, (long long)(Cc * 2),
			(long long)(R * 2));
	if (op < 0)
		return op;
	vc_op_uses(p, op, src);
	vc_op_uses(p, op, dst);
	p->dma_bytes += bytes;
	return 0;
}

/* constant B as FP16 [K][N] (from [N][K] when @tb) */
static int gemm_weights(struct lctx *c, const struct vc_value *bv, int tb)
{
	int64_t K = bv->dims[tb ? 1 : 0], N = bv->dims[tb ? 0 : 1], k, j, d[2];
	size_t cnt;
	float *f = vc_cst_floats(bv, &cnt), *r;
	int t;

	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	r = malloc(sizeof(float) * (cnt ? cnt : 1));
	if (!r) {
		free(f);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	for (k = 0; k < K; k++)
		for (j = 0; j < N; j++)
			r[k * N + j] = tb ? f[j * K + k] : f[k * N + j];
	d[0] = K;
	d[1] = N;
	t = vc_f16_const(c, 2, d, r);
	free(f);
	free(r);
	return t;
}

/* C as a per-column bias: a constant of N values ([N], [1, N]) or one */
static bool c_is_bias(const struct vc_value *cv, int64_t N)
{
	int64_t cnt;

	if (!cv || !cv->cst)
		return false;
	cnt = (int64_t)vpuxc_tensor_count(cv->cst);
	if (cnt == 1)
		return true;
	return cnt == N && (cv->rank == 1 || (cv->rank == 2 && cv->dims[0] == 1));
}

/* FP32 bias beta * C / alpha for N columns */
static int gemm_bias(struct lctx *c, const struct vc_value *cv, int64_t N,
		     float alpha, float beta)
{
	size_t cnt, i;
	float *f = vc_cst_floats(cv, &cnt), *r;
	int t;

	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	r = malloc(sizeof(float) * (size_t)N);
	if (!r) {
		free(f);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	for (i = 0; i < (size_t)N; i++)
		r[i] = (float)((double)beta * f[cnt == 1 ? 0 : i] / alpha);
	t = vc_f32_const(c, 1, &N, r);
	free(f);
	free(r);
	return t;
}

/* y = t + beta * C by SHAVE kernels (C not a per-column constant) */
static int gemm_add_c(struct lctx *c, int node, int t,
		      const struct vc_value *cv, float beta,
		      const struct vc_value *yv)
{
	struct qprog *p = c->p;
	int ct, y, ts[3], r;

	if (cv->cst) {	/* beta folded into the constant */
		size_t cnt, i;
		float *f = vc_cst_floats(cv, &cnt);
		int64_t one = 1;

		if (!f)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		for (i = 0; i < cnt; i++)
			f[i] *= beta;
		ct = cv->rank > 0 ? vc_f16_const(c, (unsigned int)cv->rank,
						 cv->dims, f) :
		     vc_f16_const(c, 1, &one, f);
		free(f);
	} else {
		ct = vc_f16_rowmajor(c, node, cv);
		if (ct >= 0 && beta != 1.0f) {
			int64_t one = 1;
			int bt = vc_f16_const(c, 1, &one, &beta), m;

			if (bt < 0)
				return bt;
			bt = vc_f16_shave_in(c, node, bt);
			if (bt < 0)
				return bt;
			m = vc_f16_new(c, p->t[ct].rank, p->t[ct].dims, 0);
			if (m < 0)
				return m;
			ts[0] = ct;
			ts[1] = bt;
			ts[2] = m;
			r = vc_shave_f(c, node, ts, 3,
				       "binary in=t%d in2=t%d out=t%d func=mul",
				       ct, bt, m);
			if (r < 0)
				return r;
			ct = m;
		}
	}
	if (ct < 0)
		return ct;
	ct = vc_f16_shave_in(c, node, ct);
	if (ct < 0)
		return ct;
	y = vc_f16_out(c, yv, 0);
	if (y < 0)
		return y;
	ts[0] = t;
	ts[1] = ct;
	ts[2] = y;
	r = vc_shave_f(c, node, ts, 3, "binary in=t%d in2=t%d out=t%d func=add",
		       t, ct, y);
	return r < 0 ? r : 0;
}

static int gemm_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *av = vc_in(c->m, n, 0), *bv = vc_in(c->m, n, 1);
	const struct vc_value *cv = n->n_in > 2 ? vc_in(c->m, n, 2) : NULL;
	const struct vc_value *yv = vc_out(c->m, n, 0);
	int ta = !!vc_attr_i(n, "transA", 0), tb = !!vc_attr_i(n, "transB", 0);
	float alpha = vc_attr_f(n, "alpha", 1.0f), beta = vc_attr_f(n, "beta", 1.0f);
	int64_t M = av->dims[ta ? 1 : 0], K = av->dims[ta ? 0 : 1],
		N = bv->dims[tb ? 0 : 1];
	struct qprog *p = c->p;
	bool bias, extra;
	struct mm_shape s;
	struct qdpu q;
	int a, b, y, r;

	if (beta == 0.0f)
		cv = NULL;
	bias = c_is_bias(cv, N);
	extra = cv && !bias;
	a = mm_operand(c, node, av, NULL);
	if (a < 0)
		return a;
	if (ta) {	/* [K][M] -> [M][K] */
		int64_t d[2] = { M, K };
		int t = vc_f16_new(c, 2, d, 0);

		if (t < 0)
			return t;
		r = transpose2(c, node, a, 0, K, M, t, 0);
		if (r < 0)
			return r;
		a = t;
	}
	vc_fdpu_init(&q, VPUX_DPU_OP_MATMUL);
	if (bv->cst) {
		b = gemm_weights(c, bv, tb);
		q.d.flags |= VPUX_DPU_F_W_KN;
	} else {
		b = mm_operand(c, node, bv, NULL);
		if (!tb)
			q.d.flags |= VPUX_DPU_F_W_KN;
	}
	if (b < 0)
		return b;
	if (alpha != 1.0f) {
		q.d.flags |= VPUX_DPU_F_SCALE;
		q.d.f.scale = vc_f32_bits(alpha);
		q.d.f.shift = vc_f32_bits(0.0f);
	}
	if (bias) {
		q.t[QD_BIAS] = gemm_bias(c, cv, N, alpha, beta);
		if (q.t[QD_BIAS] < 0)
			return q.t[QD_BIAS];
		q.d.flags |= VPUX_DPU_F_BIAS;
	}
	memset(&s, 0, sizeof(s));
	s.M = M;
	s.K = K;
	s.N = N;
	s.na = s.nbm = s.no = 1;
	if (extra) {
		int64_t d[2] = { M, N };
		int t = vc_f16_new(c, 2, d, 0);

		if (t < 0)
			return t;
		r = mm_emit(c, node, &q, a, b, t, &s);
		return r < 0 ? r : gemm_add_c(c, node, t, cv, beta, yv);
	}
	yv = vc_fuse_act(c, &q, yv);
	y = vc_f16_out(c, yv, 0);
	if (y < 0)
		return y;
	(void)p;
	return mm_emit(c, node, &q, a, b, y, &s);
}

const struct vc_op vc_ops_matmul[] = {
	{ "", "MatMul", 1, 0, mm_infer, mm_npu, mm_lower },
	{ "", "Gemm", 1, 0, NULL, gemm_npu, gemm_lower },
	{ 0 }
};
