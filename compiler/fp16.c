// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The float path of the lowering: float ONNX values become FP16 device
 * tensors (4-D activations in NHWC, the DPU's layout; others row-major),
 * and each float node is lowered by its entry in the op registry
 * (registry.c, ops_*.c) onto FP16 DPU ops and FP16/FP32 SHAVE kernels
 * (Documentation/compute-ops.rst). Where the float path meets the
 * quantized one, a quantized view is dequantized by a SHAVE CONVERT and
 * an FP16 tensor is quantized by one (lower.c's QuantizeLinear).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hostconv.h"
#include "lower_q.h"
#include "vpux_float.h"

uint32_t vc_f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static int f_twins(struct lctx *c)
{
	return vc_twins(c);
}

int vc_f16_new(struct lctx *c, unsigned int rank, const int64_t *dims,
	       uint64_t order)
{
	int t = vc_new_qt(c->p, VPUX_DT_F16, rank, dims,
			  rank == 4 ? order : 0);

	return t < 0 ? t : t;
}

int vc_f16_out(struct lctx *c, const struct vc_value *v, uint64_t order)
{
	int t;

	if (v->rank < 0 || (v->rank > 0 && !vc_numel(v)))
		return vpux_err(VPUX_E_UNSUPPORTED, "value '%s' has no static shape",
				v->name);
	t = vc_f16_new(c, (unsigned int)v->rank, v->dims, order);
	if (t >= 0)
		vc_set_vq(c, v, t);
	return t;
}

static int f_const(struct lctx *c, int32_t dt, unsigned int rank,
		   const int64_t *dims, const float *vals)
{
	uint64_t n = 1;
	unsigned int k;
	uint8_t *buf;
	int t;

	for (k = 0; k < rank; k++)
		n *= (uint64_t)dims[k];
	buf = malloc(n * (dt == VPUX_DT_F16 ? 2 : 4) + 1);
	if (!buf)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (dt == VPUX_DT_F16)
		hc_f32_to_f16_n((uint16_t *)buf, vals, (size_t)n);
	else
		memcpy(buf, vals, 4 * n);
	t = vc_const_qt(c->p, dt, rank, dims, buf);
	free(buf);
	return t;
}

int vc_f16_const(struct lctx *c, unsigned int rank, const int64_t *dims,
		 const float *vals)
{
	return f_const(c, VPUX_DT_F16, rank, dims, vals);
}

int vc_f32_const(struct lctx *c, unsigned int rank, const int64_t *dims,
		 const float *vals)
{
	return f_const(c, VPUX_DT_F32, rank, dims, vals);
}

float *vc_cst_floats(const struct vc_value *v, size_t *count)
{
	size_t n, i;
	float *f;

	if (!v || !v->cst)
		return NULL;
	n = vpuxc_tensor_count(v->cst);
	f = malloc(sizeof(float) * (n ? n : 1));
	if (!f)
		return NULL;
	for (i = 0; i < n; i++)
		f[i] = (float)vc_cst_f(v->cst, i);
	*count = n;
	return f;
}

/* constant value @v as an FP16 weights tensor (cached per value) */
static int cst16(struct lctx *c, const struct vc_value *v)
{
	int64_t one = 1;
	size_t n;
	float *f;
	int t;

	t = c->p->vq[v - c->m->v];
	if (t >= 0)
		return t;
	f = vc_cst_floats(v, &n);
	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (v->rank > 0)
		t = vc_f16_const(c, (unsigned int)v->rank, v->dims, f);
	else
		t = vc_f16_const(c, 1, &one, f);
	free(f);
	return t;
}

/* SHAVE CONVERT of quantized view @x into a new FP16 tensor */
static int dequantize(struct lctx *c, int node, int x)
{
	struct qprog *p = c->p;
	int y, ts[2], op;

	if (f_twins(c))
		return VPUX_E_NOMEM;
	if (c->f16[x] >= 0)
		return c->f16[x];
	x = vc_f16_shave_in(c, node, x);
	if (x < 0)
		return x;
	y = vc_f16_new(c, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (y < 0)
		return y;
	if (p->t[x].rank != 4)
		p->t[y].order = p->t[x].order;
	ts[0] = x;
	ts[1] = y;
	op = vc_shave_f(c, node, ts, 2,
			"convert in=t%d out=t%d scale=%a zero_point=%d", x, y,
			(double)(float)p->t[x].scale, p->t[x].zp);
	if (op < 0)
		return op;
	if (!f_twins(c))
		c->f16[x] = y;
	return y;
}

int vc_f16(struct lctx *c, int node, const struct vc_value *v)
{
	const struct vc_node *n = node >= 0 ? &c->m->n[node] : NULL;
	struct qprog *p = c->p;
	int vi, t, k;

	if (!v) {
		vc_unsupported(p, n, "a required input is missing");
		return VC_REPORTED;
	}
	vi = (int)(v - c->m->v);
	t = p->vq[vi];
	if (t >= 0 && vc_qt_is_f(&p->t[t]))
		return t;
	if (v->cst) {
		if (v->cst->dtype != VPUXC_FLOAT && v->cst->dtype != 10 &&
		    v->cst->dtype != 11) {
			vc_unsupported(p, n, "input '%s' is a %s constant where a float one is needed",
				       v->name, vpuxc_dtype_name(v->cst->dtype));
			return VC_REPORTED;
		}
		t = cst16(c, v);
		if (t >= 0)
			p->vq[vi] = t;
		return t;
	}
	if (t >= 0 && p->t[t].scale > 0)
		return dequantize(c, node, t);
	k = c->pend[vi].node;
	if (k >= 0) {
		/* a quantized-path node whose result stays float: FP16 */
		double lo = c->pend[vi].lo, hi = c->pend[vi].hi;
		const struct vc_value *kv = vc_out(c->m, &c->m->n[k], 0);
		int r, x, y, ts[2];

		r = vcq_pattern_float(c, k);
		if (r < 0)
			return r;
		c->pend[vi].node = -1;
		if (kv && c->pend[kv - c->m->v].node == k)
			c->pend[kv - c->m->v].node = -1;
		r = vc_lower_float(c, k);
		if (r < 0)
			return r;
		x = kv ? p->vq[kv - c->m->v] : -1;
		if (x < 0) {
			vc_unsupported(p, &c->m->n[k], "no FP16 result");
			return VC_REPORTED;
		}
		if (kv == v || (isinf(lo) && isinf(hi)))
			return p->vq[vi] = x;
		/* Relu/Clip folded into it on the quantized path */
		y = vc_f16_out(c, v, p->t[x].order);
		if (y < 0)
			return y;
		p->t[y].order = p->t[x].order;
		ts[0] = x;
		ts[1] = y;
		r = vc_shave_f(c, node, ts, 2,
			       "unary in=t%d out=t%d func=clip alpha=%a beta=%a",
			       x, y, isinf(lo) ? -INFINITY : (double)(float)lo,
			       isinf(hi) ? INFINITY : (double)(float)hi);
		return r < 0 ? r : y;
	}
	if (v->producer >= 0)
		vc_unsupported(p, n, "input '%s' (from %s '%s') is not computed on the NPU",
			       v->name, c->m->n[v->producer].op,
			       c->m->n[v->producer].name);
	else
		vc_unsupported(p, n, "input '%s' is not computed on the NPU",
			       v->name);
	return VC_REPORTED;
}

/*
 * Converting 4-D @t (value @v) to @order is a new reorder DMA (not a
 * view, not made before): tell layout.c, which counts one it did not plan.
 */
static void layout_dma(struct lctx *c, const struct vc_value *v, int t,
		       uint64_t order, const int *twin)
{
	const struct qt *q = &c->p->t[t];

	if (q->order == order || q->dims[1] == 1 ||
	    q->dims[2] * q->dims[3] == 1 ||
	    (twin && (unsigned int)t < c->twin_cap && twin[t] >= 0))
		return;
	vc_layout_check(c, v, order == ORDER_NHWC ? VC_LAY_NHWC : VC_LAY_RM);
}

int vc_f16_nhwc(struct lctx *c, int node, const struct vc_value *v)
{
	int t = vc_f16(c, node, v);

	if (t < 0 || c->p->t[t].rank != 4)
		return t;
	if (c->p->t[t].region != QR_WEIGHTS)
		layout_dma(c, v, t, ORDER_NHWC, c->nhwc);
	if (c->p->t[t].region == QR_WEIGHTS && c->p->t[t].order != ORDER_NHWC) {
		/* a 4-D constant: repack it instead of copying at run time */
		const struct qt *q = &c->p->t[t];
		int64_t N = q->dims[0], C = q->dims[1], H = q->dims[2],
			W = q->dims[3], i, ch, y, x;
		const uint8_t *src = c->p->blob + q->blob;
		uint8_t *buf = malloc(q->size + 1);
		int r;

		if (!buf)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		for (i = 0; i < N; i++)
			for (ch = 0; ch < C; ch++)
				for (y = 0; y < H; y++)
					for (x = 0; x < W; x++)
						memcpy(buf + 2 * (((i * H + y) * W + x) * C + ch),
						       src + 2 * (((i * C + ch) * H + y) * W + x), 2);
		r = vc_const_qt(c->p, VPUX_DT_F16, 4, c->p->t[t].dims, buf);
		free(buf);
		if (r >= 0)
			c->p->t[r].order = ORDER_NHWC;
		return r;
	}
	return vc_as_nhwc(c, node, t);
}

int vc_f16_rowmajor(struct lctx *c, int node, const struct vc_value *v)
{
	int t = vc_f16(c, node, v);

	if (t < 0 || c->p->t[t].rank != 4)
		return t;
	layout_dma(c, v, t, vpux_order_default(4).code, c->rowmajor);
	return vc_as_rowmajor(c, node, t);
}

int vc_copy(struct lctx *c, int node, int src, int dst)
{
	struct qprog *p = c->p;
	int op = vc_emit_op(p, QOP_DMA, node, "dma src=t%d dst=t%d len=%llu",
			    src, dst, (unsigned long long)p->t[src].size);

	if (op < 0)
		return op;
	vc_op_uses(p, op, src);
	vc_op_uses(p, op, dst);
	p->dma_bytes += p->t[src].size;
	return 0;
}

int vc_dma3(struct lctx *c, int node, int src, uint64_t soff, uint64_t slen,
	    int dst, uint64_t doff, uint64_t dlen, uint64_t len,
	    const int64_t *cnt, const int64_t *ss, const int64_t *ds)
{
	struct qprog *p = c->p;
	int op = vc_emit_op(p, QOP_DMA, node,
			    "dma src=t%d[%llu:%llu] dst=t%d[%llu:%llu] len=%llu count=%lld,%lld,%lld src_stride=%lld,%lld,%lld dst_stride=%lld,%lld,%lld",
			    src, (unsigned long long)soff,
			    (unsigned long long)slen, dst,
			    (unsigned long long)doff, (unsigned long long)dlen,
			    (unsigned long long)len, (long long)cnt[0],
			    (long long)cnt[1], (long long)cnt[2],
			    (long long)ss[0], (long long)ss[1], (long long)ss[2],
			    (long long)ds[0], (long long)ds[1], (long long)ds[2]);

	if (op < 0)
		return op;
	vc_op_uses(p, op, src);
	vc_op_uses(p, op, dst);
	p->dma_bytes += len * (uint64_t)(cnt[0] * cnt[1] * cnt[2]);
	return 0;
}

int vc_f16_shave_in(struct lctx *c, int node, int t)
{
	struct qprog *p = c->p;
	int r, ret;

	if (p->t[t].region != QR_WEIGHTS)
		return t;
	if (f_twins(c))
		return VPUX_E_NOMEM;
	if (c->scr[t] >= 0)
		return c->scr[t];
	r = vc_new_qt(p, p->t[t].dt, p->t[t].rank, p->t[t].dims,
		      p->t[t].order);
	if (r < 0)
		return r;
	p->t[r].scale = p->t[t].scale;
	p->t[r].zp = p->t[t].zp;
	ret = vc_copy(c, node, t, r);
	if (ret < 0)
		return ret;
	if (!f_twins(c))
		c->scr[t] = r;
	return r;
}

int vc_view_at(struct lctx *c, int src, uint64_t off, unsigned int rank,
	       const int64_t *dims, uint64_t order)
{
	int t = vc_view_qt(c->p, src, rank, dims, order);

	if (t >= 0)
		c->p->t[t].voff = off;
	return t;
}

int vc_emit_dpu_items(struct lctx *c, int node, struct qdpu *q, int x, int y,
		      int64_t n, uint64_t in2_step)
{
	struct qprog *p = c->p;
	uint64_t isz = p->t[x].size / (uint64_t)n;
	uint64_t osz = p->t[y].size / (uint64_t)n;
	int64_t i;
	int r;

	q->t[QD_IN] = x;
	q->len[QD_IN] = isz;
	q->t[QD_OUT] = y;
	q->len[QD_OUT] = osz;
	for (i = 0; i < n; i++) {
		q->off[QD_IN] = (uint64_t)i * isz;
		q->off[QD_OUT] = (uint64_t)i * osz;
		if (in2_step)
			q->off[QD_IN2] = (uint64_t)i * in2_step;
		r = vc_emit_dpu(p, node, q);
		if (r < 0)
			return r;
	}
	return 0;
}

void vc_fdpu_init(struct qdpu *q, unsigned int op)
{
	vc_dpu_init(q, op, VPUX_DPU_F_FP16);
}

int vc_shave_f(struct lctx *c, int node, const int *ts, unsigned int nt,
	       const char *fmt, ...)
{
	struct qprog *p = c->p;
	char params[512];
	unsigned int i;
	va_list ap;
	int op;

	va_start(ap, fmt);
	vsnprintf(params, sizeof(params), fmt, ap);
	va_end(ap);
	op = vc_emit_op(p, QOP_SHAVE, node, "shave %s", params);
	if (op < 0)
		return op;
	for (i = 0; i < nt; i++)
		vc_op_uses(p, op, ts[i]);
	return op;
}

/* ---- the float path in lower.c's node walk ---- */

static bool quant_op(const char *op)
{
	return !strcmp(op, "QuantizeLinear") ||
	       !strcmp(op, "DequantizeLinear") ||
	       !strcmp(op, "QLinearConv") || !strcmp(op, "QLinearMatMul") ||
	       !strcmp(op, "ConvInteger") || !strcmp(op, "MatMulInteger");
}

bool vc_wants_float(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	bool view = false;
	unsigned int i;

	if (quant_op(n->op) || !strcmp(n->op, "Constant"))
		return false;
	for (i = 0; i < n->n_in; i++) {
		const struct vc_value *v = vc_in(c->m, n, i);
		int t;

		if (!v || v->cst)
			continue;
		t = c->p->vq[v - c->m->v];
		if (t >= 0 && vc_qt_is_f(&c->p->t[t]))
			return true;
		if (t >= 0 || c->pend[v - c->m->v].node >= 0)
			view = true;
		else if (v->producer >= 0 &&
			 !strcmp(c->m->n[v->producer].op, "DequantizeLinear"))
			view = true;	/* DQ of a constant */
	}
	return !view;
}

int vc_lower_float(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	const struct vc_op *op = vc_op_find(c->m, n);
	char why[256];
	const char *r;

	if (!op || !op->lower) {
		vc_unsupported(c->p, n, "operator not supported by the NPU compiler");
		return VC_REPORTED;
	}
	r = op->npu ? op->npu(c->m, n, why, sizeof(why)) : NULL;
	if (r) {
		vc_unsupported(c->p, n, "%s", r);
		return VC_REPORTED;
	}
	return op->lower(c, k);
}

/*
 * Float graph input @i: an FP16 device input unless every use is a
 * QuantizeLinear (then the host quantizes it, lower.c).
 */
int vc_float_input(struct lctx *c, unsigned int i)
{
	const struct vpuxc_model *m = c->m;
	int vi = m->inputs[i], t;
	const struct vc_value *v = &m->v[vi];
	unsigned int k, j;
	bool other = false;

	for (k = 0; k < m->n_n && !other; k++)
		for (j = 0; j < m->n[k].n_in; j++)
			if (m->n[k].in[j] == vi &&
			    strcmp(m->n[k].op, "QuantizeLinear"))
				other = true;
	for (k = 0; k < m->n_outputs; k++)
		if (m->outputs[k] == vi)
			other = true;
	if (!other)
		return 0;
	if (v->rank < 0 || (v->rank > 0 && !vc_numel(v))) {
		vc_unsupported(c->p, NULL, "graph input '%s' has no static shape",
			       v->name);
		return VC_REPORTED;
	}
	t = vc_f16_new(c, v->rank > 0 ? (unsigned int)v->rank : 0, v->dims, 0);
	if (t < 0)
		return t;
	c->p->t[t].region = QR_INPUT;
	c->p->t[t].index = i;
	c->p->in_q[i] = t;
	c->p->vq[vi] = t;
	return 0;
}
