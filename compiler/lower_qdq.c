// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The quantized path's node handlers: QuantizeLinear, DequantizeLinear,
 * QLinearConv/QLinearMatMul, ConvInteger/MatMulInteger, layout ops and
 * clamps on views; the pending DequantizeLinear -> op -> QuantizeLinear
 * fusion is qdq_patterns.c's table, called from here.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_q.h"
#include "vpux_dpu_rules.h"
/* ---- the node walk ---- */

int vc_is_float(const struct vc_value *v)
{
	return v && v->dtype == VPUXC_FLOAT;
}

/* t with quantization (s, zp): itself or a view */
static int with_params(struct lctx *c, int t, double s, int32_t zp)
{
	struct qt *q = &c->p->t[t];

	if (!(q->scale > 0)) {
		q->scale = s;
		q->zp = zp;
		return t;
	}
	if (vcq_same_scale(q->scale, s) && q->zp == zp)
		return t;
	t = vc_view_qt(c->p, t, q->rank, q->dims, q->order);
	if (t >= 0) {
		c->p->t[t].scale = s;
		c->p->t[t].zp = zp;
	}
	return t;
}

static int clip_bounds(struct lctx *c, const struct vc_node *n, double *lo,
		       double *hi)
{
	const struct vpuxc_tensor *a, *b;

	*lo = -INFINITY;
	*hi = INFINITY;
	if (!strcmp(n->op, "Relu")) {
		*lo = 0;
		return 0;
	}
	if (c->m->opset < 11) {
		*lo = vc_attr_f(n, "min", -INFINITY);
		*hi = vc_attr_f(n, "max", INFINITY);
		return 0;
	}
	if ((vc_in(c->m, n, 1) && !(a = vc_cst_of(c, n, 1))) ||
	    (vc_in(c->m, n, 2) && !(b = vc_cst_of(c, n, 2)))) {
		vc_unsupported(c->p, n, "min/max are not constants");
		return -1;
	}
	a = vc_cst_of(c, n, 1);
	b = vc_cst_of(c, n, 2);
	if ((a && vpuxc_tensor_count(a) != 1) ||
	    (b && vpuxc_tensor_count(b) != 1)) {
		vc_unsupported(c->p, n, "min/max must be scalars");
		return -1;
	}
	if (a)
		*lo = vc_cst_f(a, 0);
	if (b)
		*hi = vc_cst_f(b, 0);
	return 0;
}

/* QuantizeLinear of an FP16 tensor: SHAVE CONVERT to the 8-bit type */
static int quantize_f16(struct lctx *c, int k, int x,
			const struct vc_value *y, unsigned int cnt, double s,
			int32_t zp, int32_t dt)
{
	struct qprog *p = c->p;
	int ts[2], t;

	if (cnt != 1) {
		vc_unsupported(p, &c->m->n[k], "per-axis quantization of a float tensor");
		return VC_REPORTED;
	}
	x = vc_f16_shave_in(c, k, x);
	if (x < 0)
		return x;
	t = vc_new_qt(p, dt, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (t < 0)
		return t;
	p->t[t].scale = s;
	p->t[t].zp = zp;
	ts[0] = x;
	ts[1] = t;
	if (vc_shave_f(c, k, ts, 2, "convert in=t%d out=t%d scale=%a zero_point=%d",
		       x, t, (double)(float)s, zp) < 0)
		return VPUX_E_NOMEM;
	vc_set_vq(c, y, t);
	return 0;
}

int vcq_do_quantize(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *x = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	double s[4096];
	int32_t zp[4096], dt;
	unsigned int cnt = 4096;
	int vx = x ? (int)(x - c->m->v) : -1, t;

	if (!x || !y)
		return 0;
	if (x->cst)
		return 0;	/* a constant: folded where it is used */
	if (vcq_qparam(c, n, 1, 2, s, zp, &dt, &cnt))
		return -1;
	if (dt == VPUX_DT_I32) {
		vc_unsupported(p, n, "int32 output");
		return -1;
	}
	t = vc_vq_of(c, x);
	if (t >= 0 && vc_qt_is_f(&p->t[t]))
		return quantize_f16(c, k, t, y, cnt, s[0], zp[0], dt);
	if ((x->flags & VC_V_INPUT) && vc_is_float(x)) {
		unsigned int i;

		for (i = 0; i < p->n_in; i++)
			if (p->in_v[i] == vx)
				break;
		if (p->in_q[i] >= 0) {
			int prev = p->in_qnode[i];

			if (prev != k) {
				vc_unsupported(p, n, "graph input '%s' is quantized by two QuantizeLinear nodes",
					       x->name);
				return -1;
			}
		}
		if (x->rank < 0 || vc_numel(x) == 0) {
			vc_unsupported(p, n, "graph input '%s' has no static shape",
				       x->name);
			return -1;
		}
		t = vc_new_qt(p, dt, (unsigned int)x->rank, x->dims, 0);
		if (t < 0)
			return -1;
		p->t[t].region = QR_INPUT;
		p->t[t].index = i;
		if (cnt == 1) {
			p->t[t].scale = s[0];
			p->t[t].zp = zp[0];
		}
		p->in_q[i] = t;
		p->in_qnode[i] = k;
		vc_set_vq(c, y, t);
		return 0;
	}
	if (cnt != 1) {
		vc_unsupported(p, n, "per-axis quantization inside the graph");
		return -1;
	}
	if (c->pend[vx].node >= 0) {
		if (x->n_uses != 1) {
			vc_unsupported(p, &c->m->n[c->pend[vx].node],
				       "its float result '%s' has other uses than one QuantizeLinear",
				       x->name);
			return -1;
		}
		return vcq_pattern_fuse(c, c->pend[vx].node, y, s[0], zp[0],
					dt, c->pend[vx].lo, c->pend[vx].hi);
	}
	if (vc_vq_of(c, x) >= 0 && vc_is_float(x)) {
		t = vcq_requantize(c, k, vc_vq_of(c, x), s[0], zp[0], dt);
		if (t < 0)
			return -1;
		vc_set_vq(c, y, t);
		return 0;
	}
	vc_unsupported(p, n, "input '%s' is neither a graph input, a quantized view nor a lowered float op",
		       x->name);
	return -1;
}

int vcq_do_dequantize(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *x = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	double s[4096];
	int32_t zp[4096], dt;
	unsigned int cnt = 4096;
	int t;

	if (!x || !y || x->cst)
		return 0;	/* constants: read where they are used */
	t = vc_vq_of(c, x);
	if (t < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       x->name);
		return -1;
	}
	if (vcq_qparam(c, n, 1, 2, s, zp, &dt, &cnt))
		return -1;
	if (dt != p->t[t].dt && !(cnt && dt == VPUX_DT_U8 &&
				  !vc_in(c->m, n, 2))) {
		vc_unsupported(p, n, "zero point type differs from the input's");
		return -1;
	}
	if (cnt > 1) {
		if (!(y->flags & VC_V_OUTPUT) || y->n_uses) {
			vc_unsupported(p, n, "per-axis dequantization of an activation inside the graph");
			return -1;
		}
		vc_set_vq(c, y, t);	/* the host dequantizes per axis */
		return 0;
	}
	t = with_params(c, t, s[0], zp[0]);
	if (t < 0)
		return -1;
	vc_set_vq(c, y, t);
	return 0;
}

int vcq_do_qlinear(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *y = vc_out(c->m, n, 0), *xv = vc_in(c->m, n, 0);
	int conv = !strcmp(n->op, "QLinearConv");
	double sx, sy;
	int32_t zx, zy, dx, dy, dw;
	int x = vc_vq_of(c, xv), r;

	if (!y)
		return 0;
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       xv ? xv->name : "");
		return -1;
	}
	if (vcq_qparam1(c, n, 1, 2, &sx, &zx, &dx) ||
	    vcq_qparam1(c, n, 6, 7, &sy, &zy, &dy))
		return -1;
	if (dx != p->t[x].dt) {
		vc_unsupported(p, n, "x_zero_point type differs from x's");
		return -1;
	}
	x = with_params(c, x, sx, zx);
	if (x < 0)
		return -1;
	if (conv) {
		struct conv_args a;
		struct qconst *w = calloc(1, sizeof(*w));
		const struct vc_value *wv = vc_in(c->m, n, 3);
		unsigned int cnt = 4096;

		if (!w)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		memset(&a, 0, sizeof(a));
		if (vcq_qparam(c, n, 4, 5, w->scale, w->zp, &dw, &cnt)) {
			free(w);
			return -1;
		}
		w->n = cnt;
		w->axis = cnt > 1 ? 0 : -1;
		w->dt = dw;
		a.x = x;
		a.sx = sx;
		a.bias = vc_in(c->m, n, 8);
		a.sy = sy;
		a.zy = zy;
		a.dty = dy;
		a.lo = -INFINITY;
		a.hi = INFINITY;
		a.alpha = 1;
		if (wv && wv->cst && vc_dt_of_onnx(wv->cst->dtype) == dw) {
			w->data = wv->cst;
			a.w = w;
		} else if (wv && vc_vq_of(c, wv) >= 0 && cnt == 1 &&
			   p->t[vc_vq_of(c, wv)].dt == dw) {
			a.wt = vc_vq_of(c, wv);
			a.sw1 = w->scale[0];
			a.wzp1 = w->zp[0];
		} else {
			vc_unsupported(p, n, "weights must be an 8-bit constant, or a tensor with one scale, of the zero point's type");
			free(w);
			return -1;
		}
		r = vcq_lower_conv(c, k, y, &a);
		free(w);
		return r;
	} else {
		struct mm_args *m = calloc(1, sizeof(*m));
		unsigned int cnt = 4096;
		const struct vc_value *bv = vc_in(c->m, n, 3);

		if (!m)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		if (vcq_qparam(c, n, 4, 5, m->sb, m->zb, &dw, &cnt)) {
			free(m);
			return -1;
		}
		m->nb = cnt;
		m->qop = 1;
		m->a = x;
		m->sa = sx;
		m->za = zx;
		m->bv = bv;
		m->alpha = m->beta = 1;
		m->sy = sy;
		m->zy = zy;
		m->dty = dy;
		m->lo = -INFINITY;
		m->hi = INFINITY;
		r = vcq_lower_matmul(c, k, y, m);
		free(m);
		return r;
	}
}

/* an integer zero-point input (scalar, or per channel) */
static int int_zp(struct lctx *c, const struct vc_node *n, unsigned int slot,
		  int32_t *zp, unsigned int *cnt, int32_t dt)
{
	const struct vc_value *v = vc_in(c->m, n, slot);
	size_t i, nz;

	*cnt = 1;
	zp[0] = 0;
	if (!v)
		return 0;
	if (!v->cst) {
		vc_unsupported(c->p, n, "input %u (zero point) is not a constant",
			       slot);
		return -1;
	}
	nz = vpuxc_tensor_count(v->cst);
	if (!nz || nz > 4096 || (dt && vc_dt_of_onnx(v->cst->dtype) != dt)) {
		vc_unsupported(c->p, n, "zero point '%s': %zu values of type %s",
			       v->name, nz, vpuxc_dtype_name(v->cst->dtype));
		return -1;
	}
	for (i = 0; i < nz; i++)
		zp[i] = (int32_t)vc_cst_i(v->cst, i);
	*cnt = (unsigned int)nz;
	return 0;
}

/* ConvInteger / MatMulInteger: int32 accumulators out of the DPU */
int vcq_do_integer(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *y = vc_out(c->m, n, 0), *xv = vc_in(c->m, n, 0);
	const struct vc_value *wv = vc_in(c->m, n, 1);
	int x = vc_vq_of(c, xv), conv = !strcmp(n->op, "ConvInteger"), r = -1;
	struct qconst *w = calloc(1, sizeof(*w));
	int32_t xzp[4096];
	unsigned int nx, nw, i;

	if (!w)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (!y)
		goto out0;
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a tensor on the NPU",
			       xv ? xv->name : "");
		goto out;
	}
	if (int_zp(c, n, 2, xzp, &nx, p->t[x].dt) ||
	    int_zp(c, n, 3, w->zp, &nw, 0))
		goto out;
	if (nx != 1) {
		vc_unsupported(p, n, "the input zero point must be one value");
		goto out;
	}
	x = with_params(c, x, 1.0, xzp[0]);
	if (x < 0)
		goto out;
	w->n = nw;
	w->axis = nw > 1 ? (conv ? 0 : 1) : -1;
	for (i = 0; i < nw; i++)
		w->scale[i] = 1.0;
	if (conv) {
		struct conv_args a;

		memset(&a, 0, sizeof(a));
		a.x = x;
		a.sx = 1;
		a.sy = 1;
		a.dty = VPUX_DT_I32;
		a.lo = -INFINITY;
		a.hi = INFINITY;
		a.alpha = 1;
		if (wv && wv->cst && vc_dt_of_onnx(wv->cst->dtype)) {
			w->data = wv->cst;
			w->dt = vc_dt_of_onnx(wv->cst->dtype);
			a.w = w;
		} else if (wv && vc_vq_of(c, wv) >= 0 && nw == 1) {
			a.wt = vc_vq_of(c, wv);
			a.sw1 = 1;
			a.wzp1 = w->zp[0];
		} else {
			vc_unsupported(p, n, "weights must be an 8-bit constant, or a tensor with one zero point");
			goto out;
		}
		r = vcq_lower_conv(c, k, y, &a);
	} else {
		struct mm_args *m = calloc(1, sizeof(*m));

		if (!m) {
			r = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		m->qop = 1;
		m->nb = nw;
		for (i = 0; i < nw; i++) {
			m->sb[i] = 1;
			m->zb[i] = w->zp[i];
		}
		m->a = x;
		m->sa = 1;
		m->za = xzp[0];
		m->bv = wv;
		m->alpha = m->beta = 1;
		m->sy = 1;
		m->dty = VPUX_DT_I32;
		m->lo = -INFINITY;
		m->hi = INFINITY;
		r = vcq_lower_matmul(c, k, y, m);
		free(m);
	}
out:
	free(w);
	return r;
out0:
	free(w);
	return 0;
}

int vcq_do_layout(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *xv = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	int x = vc_vq_of(c, xv), t;

	if (!y)
		return 0;
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       xv ? xv->name : "");
		return -1;
	}
	if (!strcmp(n->op, "Identity")) {
		vc_set_vq(c, y, x);
		return 0;
	}
	if (y->rank < 0 || !vc_numel(y) || (unsigned int)y->rank > QT_MAX_RANK) {
		vc_unsupported(p, n, "output shape unknown");
		return -1;
	}
	if (!strcmp(n->op, "Transpose")) {
		int64_t perm[VPUXC_MAX_RANK];
		int np = vc_attr_ints(n, "perm", perm, VPUXC_MAX_RANK), i;
		const struct qt *q = &p->t[x];
		char ps[64] = "";
		int op;

		if (np <= 0)
			for (i = 0, np = (int)q->rank; i < np; i++)
				perm[i] = np - 1 - i;
		/* NHWC data read as [N, H, W, C]: the same bytes */
		if (q->rank == 4 && q->order == ORDER_NHWC && perm[0] == 0 &&
		    perm[1] == 2 && perm[2] == 3 && perm[3] == 1) {
			t = vc_view_qt(p, x, 4, y->dims, 0);
			if (t < 0)
				return -1;
			vc_set_vq(c, y, t);
			return 0;
		}
		t = vc_new_qt(p, q->dt, (unsigned int)y->rank, y->dims, 0);
		if (t < 0)
			return -1;
		p->t[t].scale = p->t[x].scale;
		p->t[t].zp = p->t[x].zp;
		for (i = 0; i < np; i++)
			snprintf(ps + strlen(ps), sizeof(ps) - strlen(ps),
				 "%s%lld", i ? "," : "", (long long)perm[i]);
		op = vc_shave_op(c, k, x, t, "permute in=t%d out=t%d perm=%s", x,
			      t, ps);
		if (op < 0)
			return -1;
		vc_set_vq(c, y, t);
		return 0;
	}
	/* Reshape, Flatten, Squeeze, Unsqueeze: a row-major view */
	x = vc_as_rowmajor(c, k, x);
	if (x < 0)
		return -1;
	t = vc_view_qt(p, x, (unsigned int)y->rank, y->dims, 0);
	if (t < 0)
		return -1;
	vc_set_vq(c, y, t);
	return 0;
}

int vcq_do_clip(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	struct qprog *p = c->p;
	const struct vc_value *xv = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	int vx = xv ? (int)(xv - c->m->v) : -1, x, t;
	double lo, hi;
	int32_t qlo, qhi;

	if (!y || vx < 0)
		return 0;
	if (clip_bounds(c, n, &lo, &hi))
		return -1;
	if (c->pend[vx].node >= 0) {
		int vy = (int)(y - c->m->v);

		if (xv->n_uses != 1) {
			vc_unsupported(p, n, "input '%s' has other uses", xv->name);
			return -1;
		}
		if (!vcq_pattern_act(c, c->pend[vx].node)) {
			vc_unsupported(p, n, "it does not fold into '%s' before the QuantizeLinear",
				       c->m->n[c->pend[vx].node].name);
			return VC_REPORTED;
		}
		c->pend[vy] = c->pend[vx];
		c->pend[vy].lo = fmax(c->pend[vy].lo, lo);
		c->pend[vy].hi = fmin(c->pend[vy].hi, hi);
		c->pend[vx].node = -1;
		return 0;
	}
	x = vc_vq_of(c, xv);
	if (x < 0) {
		vc_unsupported(p, n, "input '%s' is not a quantized tensor on the NPU",
			       xv->name);
		return -1;
	}
	if (vc_is_float(xv)) {
		if (!(p->t[x].scale > 0)) {
			vc_unsupported(p, n, "input has no scale");
			return -1;
		}
		if (vcq_clamp_q(lo, hi, p->t[x].scale, p->t[x].zp, p->t[x].dt,
			    &qlo, &qhi)) {
			vc_unsupported(p, n, "empty clamp");
			return -1;
		}
	} else {
		/* integer Clip: raw bounds */
		qlo = lo < vc_dt_min(p->t[x].dt) ? vc_dt_min(p->t[x].dt) :
		      lo > vc_dt_max(p->t[x].dt) ? vc_dt_max(p->t[x].dt) : (int32_t)lo;
		qhi = hi > vc_dt_max(p->t[x].dt) ? vc_dt_max(p->t[x].dt) :
		      hi < vc_dt_min(p->t[x].dt) ? vc_dt_min(p->t[x].dt) : (int32_t)hi;
		if (qlo > qhi)
			qlo = qhi;	/* ONNX: min > max gives max */
	}
	t = vcq_clamp_raw(c, k, x, qlo, qhi);
	if (t < 0)
		return -1;
	if (t == x && !(y->flags & VC_V_OUTPUT))
		t = x;
	vc_set_vq(c, y, t);
	return 0;
}

