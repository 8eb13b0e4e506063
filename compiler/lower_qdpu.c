// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The quantized path: int8 DPU ops (convolution, element-wise, pooling,
 * MatMul/Gemm) from the graph's quantized views and constants.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_q.h"
#include "vpux_dpu_rules.h"
/* ---- constants: weights and biases ---- */


int vcq_qconst_of(struct lctx *c, const struct vc_value *v,
		     struct qconst *q)
{
	const struct vc_node *dq, *qn;
	const struct vc_value *x;
	unsigned int cnt = 4096;

	memset(q, 0, sizeof(*q));
	q->axis = -1;
	if (v->cst) {
		q->dt = vc_dt_of_onnx(v->cst->dtype);
		if (!q->dt)
			return -1;
		q->data = v->cst;
		return 0;
	}
	if (v->producer < 0)
		return -1;
	dq = &c->m->n[v->producer];
	if (strcmp(dq->op, "DequantizeLinear"))
		return -1;
	x = vc_in(c->m, dq, 0);
	if (!x)
		return -1;
	if (vcq_qparam(c, dq, 1, 2, q->scale, q->zp, &q->dt, &cnt))
		return -2;
	q->n = cnt;
	q->axis = cnt > 1 ? (int)vc_attr_i(dq, "axis", 1) : -1;
	if (x->cst) {
		if (vc_dt_of_onnx(x->cst->dtype) != q->dt &&
		    !(x->cst->dtype == VPUXC_INT32 && q->dt == VPUX_DT_I32))
			return -1;
		q->dt = vc_dt_of_onnx(x->cst->dtype);
		q->data = x->cst;
		return 0;
	}
	if (x->producer < 0)
		return -1;
	qn = &c->m->n[x->producer];
	if (strcmp(qn->op, "QuantizeLinear") || !vc_in(c->m, qn, 0) ||
	    !vc_in(c->m, qn, 0)->cst ||
	    vc_in(c->m, qn, 0)->cst->dtype != VPUXC_FLOAT)
		return -1;
	q->fdata = vc_in(c->m, qn, 0)->cst;
	return 0;
}

/*
 * element @i of a qconst as an integer (quantizing float data) into *@v;
 * HC_QNAN for a NaN, which has no quantized value
 */
static int qconst_at(const struct qconst *q, size_t i, size_t ch, int64_t *v)
{
	int32_t r;
	int ret;

	if (q->data) {
		*v = vc_cst_i(q->data, i);
		return 0;
	}
	ret = vc_quantize(vc_cst_f(q->fdata, i), q->scale[q->n > 1 ? ch : 0],
			  q->zp[q->n > 1 ? ch : 0], q->dt, &r);
	*v = r;
	return ret;
}

/* the node's message for a NaN in the float constant it quantizes */
static void nan_weight(struct qprog *p, const struct vc_node *n,
		       const struct qconst *q, size_t i)
{
	vc_unsupported(p, n, "element %zu of the float constant '%s' is NaN (a NaN has no quantized value)",
		       i, q->fdata ? q->fdata->name : "");
}

static const struct vpuxc_tensor *qconst_t(const struct qconst *q)
{
	return q->data ? q->data : q->fdata;
}

/* ---- DPU ops ---- */


int vcq_clamp_q(double lo, double hi, double s, int32_t zp, int32_t dt,
		   int32_t *amin, int32_t *amax)
{
	*amin = vc_dt_min(dt);
	*amax = vc_dt_max(dt);
	/* a NaN bound is no bound (the comparisons are false) */
	if (lo > -INFINITY)
		vc_quantize(lo, s, zp, dt, amin);
	if (hi < INFINITY)
		vc_quantize(hi, s, zp, dt, amax);
	return *amin <= *amax ? 0 : -1;
}

static unsigned int flags_of(const struct dpu_q *d, int bias, int perch)
{
	unsigned int f = 0;

	if (d->in_dt == VPUX_DT_I8)
		f |= VPUX_DPU_F_IN_SIGNED;
	if (d->w_dt == VPUX_DT_I8)
		f |= VPUX_DPU_F_W_SIGNED;
	if (d->out_dt == VPUX_DT_I8)
		f |= VPUX_DPU_F_OUT_SIGNED;
	if (d->out_dt == VPUX_DT_I32)
		f |= VPUX_DPU_F_OUT_I32;
	if (bias)
		f |= VPUX_DPU_F_BIAS;
	if (perch)
		f |= VPUX_DPU_F_PER_CHANNEL;
	return f;
}

/*
 * Per-output-channel requant records (real factor @f[c]): a weights
 * tensor of (mult, shift) pairs, or one record in @rq when all agree.
 */
static int requant_records(struct lctx *c, const struct vc_node *n,
			   const double *f, unsigned int oc,
			   struct vpux_hw_requant *rq, int *quant_t)
{
	struct vpux_hw_requant *recs;
	unsigned int i;
	int all_same = 1;
	int64_t dims[1] = { 2 * (int64_t)oc };

	*quant_t = -1;
	recs = calloc(oc, sizeof(*recs));
	if (!recs)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < oc; i++) {
		if (vc_requant(f[i], &recs[i])) {
			vc_unsupported(c->p, n, "output channel %u: %s", i,
				       vpux_last_error());
			free(recs);
			return -1;
		}
		if (recs[i].mult != recs[0].mult || recs[i].shift != recs[0].shift)
			all_same = 0;
	}
	*rq = recs[0];
	if (!all_same) {
		*quant_t = vc_const_qt(c->p, VPUX_DT_I32, 1, dims, recs);
		if (*quant_t < 0) {
			free(recs);
			return *quant_t;
		}
	}
	free(recs);
	return 0;
}

/* the shape and window fields of a CONV, MAXPOOL or AVGPOOL descriptor */
void vc_dpu_window(struct vpux_hw_dpu_desc *d, const struct vc_conv_geom *g,
		       int64_t C, int64_t H, int64_t W, int64_t OC, int64_t oh,
		       int64_t ow)
{
	d->in_c = (uint16_t)C;
	d->in_h = (uint16_t)H;
	d->in_w = (uint16_t)W;
	d->out_c = (uint16_t)OC;
	d->out_h = (uint16_t)oh;
	d->out_w = (uint16_t)ow;
	d->kernel_h = (uint16_t)g->kh;
	d->kernel_w = (uint16_t)g->kw;
	d->stride_h = (uint16_t)g->sh;
	d->stride_w = (uint16_t)g->sw;
	d->pad_top = (uint16_t)g->pt;
	d->pad_left = (uint16_t)g->pl;
	d->pad_bottom = (uint16_t)g->pb;
	d->pad_right = (uint16_t)g->pr;
	d->dilation_h = (uint16_t)g->dh;
	d->dilation_w = (uint16_t)g->dw;
	d->groups = (uint16_t)g->groups;
}

int vc_conv_geom(struct lctx *c, const struct vc_node *n, int64_t H,
		     int64_t W, int64_t kh, int64_t kw, struct vc_conv_geom *g)
{
	int64_t st[2] = { 1, 1 }, dl[2] = { 1, 1 }, pd[4] = { 0 };
	const char *ap = vc_attr_s(n, "auto_pad", "NOTSET");
	int i;

	if (vc_attr_ints(n, "strides", st, 2) < 0 ||
	    vc_attr_ints(n, "dilations", dl, 2) < 0 ||
	    vc_attr_ints(n, "pads", pd, 4) < 0) {
		vc_unsupported(c->p, n, "strides, dilations or pads are not 2-D");
		return -1;
	}
	if (vc_attr_i(n, "ceil_mode", 0)) {
		vc_unsupported(c->p, n, "ceil_mode=1 is not supported");
		return -1;
	}
	if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
		int64_t in[2] = { H, W }, k[2] = { kh, kw };

		for (i = 0; i < 2; i++) {
			int64_t o = (in[i] + st[i] - 1) / st[i];
			int64_t tot = (o - 1) * st[i] + dl[i] * (k[i] - 1) + 1 - in[i];

			if (tot < 0)
				tot = 0;
			pd[i] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
			pd[i + 2] = tot - pd[i];
		}
	} else if (!strcmp(ap, "VALID")) {
		memset(pd, 0, sizeof(pd));
	} else if (strcmp(ap, "NOTSET")) {
		vc_unsupported(c->p, n, "auto_pad '%s' unknown", ap);
		return -1;
	}
	vc_geom_set(g, kh, kw, st, dl, pd, vc_attr_i(n, "group", 1));
	if (g->kh < 1 || g->kw < 1 || g->sh < 1 || g->sw < 1 || g->dh < 1 ||
	    g->dw < 1 || g->pt < 0 || g->pl < 0 || g->pb < 0 || g->pr < 0 ||
	    g->kh > 65535 || g->kw > 65535 || g->sh > 65535 || g->sw > 65535 ||
	    g->dh > 65535 || g->dw > 65535 || g->pt > 65535 || g->pl > 65535 ||
	    g->pb > 65535 || g->pr > 65535 || g->groups < 1 ||
	    g->groups > 65535) {
		vc_unsupported(c->p, n, "kernel, stride, dilation, padding or group out of range");
		return -1;
	}
	return 0;
}


static int bias_values(struct lctx *c, const struct vc_node *n,
		       const struct vc_value *b, const double *sacc,
		       unsigned int oc, int32_t *out)
{
	struct qconst q;
	unsigned int i;

	if (vcq_qconst_of(c, b, &q) == 0 && q.data && q.dt == VPUX_DT_I32 &&
	    vpuxc_tensor_count(q.data) == oc) {
		for (i = 0; i < oc; i++) {
			double bs = q.n ? q.scale[q.n > 1 ? i : 0] : sacc[i];
			double v = (double)(vc_cst_i(q.data, i) -
					    (q.n ? q.zp[q.n > 1 ? i : 0] : 0)) * bs /
				   sacc[i];

			if (fabs(v) > 2147483647.0)
				goto range;
			out[i] = (int32_t)llround(v);
		}
		return 0;
	}
	if (b->cst && b->cst->dtype == VPUXC_FLOAT &&
	    vpuxc_tensor_count(b->cst) == oc) {
		for (i = 0; i < oc; i++) {
			double v = vc_cst_f(b->cst, i) / sacc[i];

			if (fabs(v) > 2147483647.0)
				goto range;
			out[i] = (int32_t)llround(v);
		}
		return 0;
	}
	vc_unsupported(c->p, n, "bias '%s': an int32 or float constant of %u values is needed",
		       b->name, oc);
	return -1;
range:
	vc_unsupported(c->p, n, "bias '%s' does not fit int32 at the accumulator's scale",
		       b->name);
	return -1;
}

int vcq_lower_conv(struct lctx *c, int node, const struct vc_value *yv,
		      struct conv_args *a)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	struct vc_conv_geom g;
	struct dpu_q d;
	int64_t C, H, W, OC, ICg, KH, KW, wd[4], oh, ow;
	int x, y, wt, bt = -1, qt = -1;
	double *fac = NULL;
	int32_t *bias = NULL;
	struct vpux_hw_requant rq;
	struct qdpu q;
	unsigned int i;
	int ret = -1;

	x = vc_as_nhwc(c, node, a->x);
	if (x < 0 || vcq_chw(c, n, &p->t[x], &C, &H, &W))
		return -1;
	if (a->w) {
		const struct vpuxc_tensor *wt_ = qconst_t(a->w);

		if (wt_->rank != 4) {
			vc_unsupported(c->p, n, "weights are not 4-D");
			return -1;
		}
		OC = wt_->dims[0];
		ICg = wt_->dims[1];
		KH = wt_->dims[2];
		KW = wt_->dims[3];
	} else {
		OC = p->t[a->wt].dims[0];
		ICg = p->t[a->wt].dims[1];
		KH = p->t[a->wt].dims[2];
		KW = p->t[a->wt].dims[3];
	}
	if (vc_conv_geom(c, n, H, W, KH, KW, &g))
		return -1;
	if (C % g.groups || OC % g.groups || ICg * g.groups != C) {
		vc_unsupported(c->p, n, "group %lld does not match channels %lld -> %lld (weights have %lld input channels)",
			       (long long)g.groups, (long long)C,
			       (long long)OC, (long long)ICg);
		return -1;
	}
	if (OC > 65535 || KH * KW * ICg > 32768) {
		vc_unsupported(c->p, n, "reduction %lld above the DPU's 32768 or %lld output channels",
			       (long long)(KH * KW * ICg), (long long)OC);
		return -1;
	}
	oh = (H + g.pt + g.pb - (g.dh * (KH - 1) + 1));
	ow = (W + g.pl + g.pr - (g.dw * (KW - 1) + 1));
	if (oh < 0 || ow < 0) {
		vc_unsupported(c->p, n, "the window does not fit the padded input");
		return -1;
	}
	oh = oh / g.sh + 1;
	ow = ow / g.sw + 1;
	if (yv->rank != 4 || yv->dims[2] != oh || yv->dims[3] != ow ||
	    yv->dims[1] != OC) {
		vc_unsupported(c->p, n, "output shape differs from the convolution's");
		return -1;
	}
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[x].dt;
	d.in_zp = p->t[x].zp;
	d.out_dt = a->dty;
	d.out_zp = a->zy;
	if (a->dty != VPUX_DT_I32 &&
	    vcq_clamp_q(a->lo, a->hi, a->sy, a->zy, a->dty, &d.act_min, &d.act_max)) {
		vc_unsupported(c->p, n, "the output clamp is empty");
		return -1;
	}
	fac = calloc((size_t)OC, sizeof(*fac));
	bias = calloc((size_t)OC, sizeof(*bias));
	if (!fac || !bias) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	if (a->w) {
		struct qconst *q = a->w;
		uint64_t cnt = (uint64_t)OC * KH * KW * ICg, k;
		int32_t zp0 = q->n ? q->zp[0] : 0;
		int uniform = 1, fold = 0;
		uint8_t *buf;

		if (q->n > 1 && (q->n != OC || q->axis != 0)) {
			vc_unsupported(c->p, n, "weight scales per axis %d with %u values (per output channel expected)",
				       q->axis, q->n);
			goto out;
		}
		for (i = 0; i < q->n; i++)
			if (q->zp[i] != zp0)
				uniform = 0;
		/* channel-wise zero points: recentre into int8 */
		if (!uniform)
			fold = 1;
		d.w_dt = fold ? VPUX_DT_I8 : q->dt;
		d.w_zp = fold ? 0 : zp0;
		buf = malloc(cnt ? cnt : 1);
		if (!buf) {
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		/* ONNX [oc][ic][kh][kw] -> [oc][kh][kw][ic] */
		for (k = 0; k < cnt; k++) {
			uint64_t oc = k / (KH * KW * ICg), r = k % (KH * KW * ICg);
			uint64_t ky = r / (KW * ICg), kx = r / ICg % KW;
			uint64_t ic = r % ICg;
			size_t src = ((oc * ICg + ic) * KH + ky) * KW + kx;
			int64_t v;

			if (qconst_at(q, src, oc, &v)) {
				free(buf);
				nan_weight(c->p, n, q, src);
				goto out;
			}
			if (fold) {
				v -= q->zp[oc];
				if (v < -128 || v > 127) {
					free(buf);
					vc_unsupported(c->p, n, "per-channel weight zero points: weight %lld of channel %llu does not fit int8 after recentring",
						       (long long)v, (unsigned long long)oc);
					goto out;
				}
			}
			buf[k] = (uint8_t)v;
		}
		wd[0] = OC;
		wd[1] = KH;
		wd[2] = KW;
		wd[3] = ICg;
		wt = vc_const_qt(p, d.w_dt, 4, wd, buf);
		free(buf);
		if (wt < 0)
			goto out;
		for (i = 0; i < OC; i++)
			fac[i] = a->sx * (q->n ? q->scale[q->n > 1 ? i : 0] : 1.0);
	} else {
		/* runtime weights: NCHW [oc][ic][kh][kw] -> NHWC [oc][kh][kw][ic] */
		wt = vc_as_nhwc(c, node, a->wt);
		if (wt < 0)
			goto out;
		d.w_dt = p->t[wt].dt;
		d.w_zp = a->wzp1;
		for (i = 0; i < OC; i++)
			fac[i] = a->sx * a->sw1;
	}
	if (a->bias) {
		if (bias_values(c, n, a->bias, fac, (unsigned int)OC, bias))
			goto out;
		wd[0] = OC;
		bt = vc_const_qt(p, VPUX_DT_I32, 1, wd, bias);
		if (bt < 0)
			goto out;
	}
	if (a->dty == VPUX_DT_I32) {
		/* ConvInteger: raw accumulators, no output stage */
		rq.mult = rq.shift = 0;
		d.act_min = d.act_max = d.out_zp = 0;
	} else {
		for (i = 0; i < OC; i++)
			fac[i] = fac[i] * a->alpha / a->sy;
		if (requant_records(c, n, fac, (unsigned int)OC, &rq, &qt))
			goto out;
	}
	y = vc_out_qt(p, a->dty, yv, a->sy, a->zy, ORDER_NHWC);
	if (y < 0)
		goto out;
	vc_dpu_init(&q, VPUX_DPU_OP_CONV,
		 flags_of(&d, bt >= 0, qt >= 0));
	q.t[QD_IN] = x;
	q.t[QD_IN2] = wt;
	q.t[QD_BIAS] = bt;
	q.t[QD_QUANT] = qt;
	q.t[QD_OUT] = y;
	vc_dpu_window(&q.d, &g, C, H, W, OC, oh, ow);
	q.d.in_zp = d.in_zp;
	q.d.in2_zp = d.w_zp;
	q.d.out_zp = d.out_zp;
	q.d.act_min = d.act_min;
	q.d.act_max = d.act_max;
	if (qt < 0 && a->dty != VPUX_DT_I32)
		q.d.requant = rq;
	if (vc_emit_dpu(p, node, &q) < 0)
		goto out;
	vc_set_vq(c, yv, y);
	ret = 0;
out:
	free(fac);
	free(bias);
	return ret;
}

/* the innermost-first split of an element-wise tensor into (C, H, W) */
static int eltwise_chw(const struct qt *t, int64_t *C, int64_t *H, int64_t *W)
{
	uint64_t n = t->size / vc_dt_bytes(t->dt);

	if (t->rank == 4 && t->order == ORDER_NHWC && t->dims[0] == 1) {
		*C = t->dims[1];
		*H = t->dims[2];
		*W = t->dims[3];
	} else {
		/* row-major: innermost dim as C, the rest as H (x W) */
		*C = t->dims[t->rank - 1];
		*H = (int64_t)(n / (uint64_t)*C);
		*W = 1;
		while (*H > 65535 && !(*H % 2)) {
			*H /= 2;
			*W *= 2;
		}
	}
	return *C <= 65535 && *H <= 65535 && *W <= 65535 ? 0 : -1;
}

/* a float or quantized constant operand of an element-wise op, full shape */
static int eltwise_const(struct lctx *c, const struct vc_node *n,
			 const struct vc_value *v, const struct qt *like,
			 double *scale, int32_t *zp)
{
	struct qprog *p = c->p;
	const struct vpuxc_tensor *ct;
	struct qconst *q = malloc(sizeof(*q));
	uint64_t cnt = like->size / vc_dt_bytes(like->dt), i;
	int64_t dims[QT_MAX_RANK], qv;
	int32_t dt;
	uint8_t *buf;
	int t = -1, r;
	unsigned int k;

	if (!q)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	r = vcq_qconst_of(c, v, q);
	if (r || (!q->n && !(q->fdata))) {
		/* a plain float constant: symmetric int8 of its range */
		if (v->cst && v->cst->dtype == VPUXC_FLOAT) {
			double mx = 0;

			for (i = 0; i < vpuxc_tensor_count(v->cst); i++)
				mx = fmax(mx, fabs(vc_cst_f(v->cst, i)));
			memset(q, 0, sizeof(*q));
			q->fdata = v->cst;
			q->dt = VPUX_DT_I8;
			q->n = 1;
			q->scale[0] = mx > 0 ? mx / 127 : 1.0;
			q->axis = -1;
		} else {
			vc_unsupported(p, n, "operand '%s' is neither a quantized view nor a constant",
				       v->name);
			goto out;
		}
	}
	if (q->n != 1 || q->dt == VPUX_DT_I32) {
		vc_unsupported(p, n, "constant operand '%s': per-tensor 8-bit quantization needed",
			       v->name);
		goto out;
	}
	ct = qconst_t(q);
	/* broadcast ct (numpy rules) to like's logical dims, stored like @like */
	for (k = 0; k < like->rank; k++)
		dims[k] = like->dims[k];
	dt = q->dt;
	buf = malloc(cnt * 1);
	if (!buf) {
		t = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	for (i = 0; i < cnt; i++) {
		/* memory index i -> logical coordinates of @like */
		uint64_t rem = i, coord[QT_MAX_RANK], src = 0, mul = 1;
		unsigned int md;

		for (md = 0; md < like->rank; md++) {
			vpux_dim ld = vpux_order_to_dim((vpux_dims_order){ like->order },
							vpux_memdim_make(md));

			coord[ld.ind] = rem % (uint64_t)like->dims[ld.ind];
			rem /= (uint64_t)like->dims[ld.ind];
		}
		for (k = ct->rank; k-- > 0;) {
			int ld = (int)like->rank - (int)ct->rank + (int)k;
			uint64_t cc = ct->dims[k] == 1 || ld < 0 ? 0 : coord[ld];

			src += cc * mul;
			mul *= (uint64_t)ct->dims[k];
		}
		if (qconst_at(q, src, 0, &qv)) {
			free(buf);
			nan_weight(p, n, q, src);
			goto out;
		}
		buf[i] = (uint8_t)qv;
	}
	t = vc_const_qt(p, dt, like->rank, dims, buf);
	free(buf);
	if (t >= 0) {
		p->t[t].order = like->order;
		p->t[t].scale = *scale = q->scale[0];
		p->t[t].zp = *zp = q->zp[0];
	}
out:
	free(q);
	return t;
}

static int bcast_ok(const struct vc_value *v, const struct qt *like)
{
	int k;

	if (!v || v->rank < 0 || (unsigned int)v->rank > like->rank)
		return 0;
	for (k = 0; k < v->rank; k++) {
		int64_t d = v->dims[k], l = like->dims[like->rank - v->rank + k];

		if (d != 1 && d != l)
			return 0;
	}
	return 1;
}

/* Add / Mul of two quantized operands (one may be a constant) */
int vcq_lower_eltwise(struct lctx *c, int node, const struct vc_value *yv,
			 double sy, int32_t zy, int32_t dty, double lo,
			 double hi)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	const struct vc_value *av = vc_in(c->m, n, 0), *bv = vc_in(c->m, n, 1);
	int a = vc_vq_of(c, av), b = vc_vq_of(c, bv), y, is_add = !strcmp(n->op, "Add");
	double sa, sb = 0;
	int32_t za, zb = 0, amin, amax;
	int64_t C, H, W;
	struct vpux_hw_requant r0, r1, r2;
	struct dpu_q d;
	struct qdpu q;

	if (a < 0 && b < 0) {
		vc_unsupported(p, n, "no operand is a quantized tensor");
		return -1;
	}
	if (a < 0) {		/* constant first: swap */
		const struct vc_value *tv = av;

		av = bv;
		bv = tv;
		a = b;
		b = -1;
	}
	if (p->t[a].rank == 4) {
		a = vc_as_nhwc(c, node, a);
	} else {
		a = vc_as_rowmajor(c, node, a);
	}
	if (a < 0)
		return -1;
	if (b >= 0) {
		const struct qt *ta = &p->t[a], *tb = &p->t[b];
		unsigned int k;

		if (ta->rank != tb->rank)
			goto shape;
		for (k = 0; k < ta->rank; k++)
			if (ta->dims[k] != tb->dims[k])
				goto shape;
		b = ta->order == ORDER_NHWC ? vc_as_nhwc(c, node, b) :
		    vc_as_rowmajor(c, node, b);
		if (b < 0)
			return -1;
		sb = p->t[b].scale;
		zb = p->t[b].zp;
	} else {
		if (!bcast_ok(bv, &p->t[a]))
			goto shape;
		b = eltwise_const(c, n, bv, &p->t[a], &sb, &zb);
		if (b < 0)
			return -1;
	}
	sa = p->t[a].scale;
	za = p->t[a].zp;
	if (!(sa > 0) || !(sb > 0)) {
		vc_unsupported(p, n, "an operand has no quantization scale");
		return -1;
	}
	if (eltwise_chw(&p->t[a], &C, &H, &W)) {
		vc_unsupported(p, n, "element-wise shape does not fit the DPU's 16-bit dims");
		return -1;
	}
	if (vcq_clamp_q(lo, hi, sy, zy, dty, &amin, &amax)) {
		vc_unsupported(p, n, "the output clamp is empty");
		return -1;
	}
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[a].dt;
	d.w_dt = p->t[b].dt;
	d.out_dt = dty;
	y = vc_new_qt(p, dty, p->t[a].rank, p->t[a].dims, p->t[a].order);
	if (y < 0)
		return -1;
	p->t[y].scale = sy;
	p->t[y].zp = zy;
	if (is_add) {
		double smax = fmax(sa, sb);
		const double L = 1048576.0;	/* 2^20 headroom */

		if (vc_requant(sa / smax * L, &r1) ||
		    vc_requant(sb / smax * L, &r2) ||
		    vc_requant(smax / (sy * L), &r0)) {
			vc_unsupported(p, n, "%s", vpux_last_error());
			return -1;
		}
		vc_dpu_init(&q, VPUX_DPU_OP_ADD, flags_of(&d, 0, 0));
		q.d.requant = r0;
		q.d.in_scale = r1;
		q.d.in2_scale = r2;
	} else {
		if (vc_requant(sa * sb / sy, &r0)) {
			vc_unsupported(p, n, "%s", vpux_last_error());
			return -1;
		}
		vc_dpu_init(&q, VPUX_DPU_OP_MUL, flags_of(&d, 0, 0));
		q.d.requant = r0;
	}
	q.t[QD_IN] = a;
	q.t[QD_IN2] = b;
	q.t[QD_OUT] = y;
	q.d.in_c = q.d.out_c = (uint16_t)C;
	q.d.in_h = q.d.out_h = (uint16_t)H;
	q.d.in_w = q.d.out_w = (uint16_t)W;
	q.d.in_zp = za;
	q.d.in2_zp = zb;
	q.d.out_zp = zy;
	q.d.act_min = amin;
	q.d.act_max = amax;
	if (vc_emit_dpu(p, node, &q) < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
shape:
	vc_unsupported(p, n, "operand shapes differ (broadcasting is supported for constants only)");
	return -1;
}

/* an average over whole windows as a depthwise convolution of ones */
static int avg_as_conv(struct lctx *c, int node, const struct vc_value *yv,
		       int x, const struct vc_conv_geom *g, int64_t C, int64_t H,
		       int64_t W, int64_t oh, int64_t ow, double sy, int32_t zy,
		       int32_t dty, double lo, double hi)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	int64_t wd[4] = { C, g->kh, g->kw, 1 };
	uint64_t cnt = (uint64_t)(C * g->kh * g->kw);
	struct vpux_hw_requant rq;
	struct dpu_q d;
	struct qdpu q;
	uint8_t *ones;
	int wt, y;

	if (!(p->t[x].scale > 0) ||
	    vc_requant(p->t[x].scale / ((double)g->kh * g->kw * sy), &rq)) {
		vc_unsupported(p, n, "input has no scale or the factor is out of range");
		return -1;
	}
	ones = malloc(cnt);
	if (!ones)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	memset(ones, 1, cnt);
	wt = vc_const_qt(p, VPUX_DT_U8, 4, wd, ones);
	free(ones);
	if (wt < 0)
		return wt;
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[x].dt;
	d.w_dt = VPUX_DT_U8;
	d.out_dt = dty;
	if (vcq_clamp_q(lo, hi, sy, zy, dty, &d.act_min, &d.act_max)) {
		vc_unsupported(p, n, "the output clamp is empty");
		return -1;
	}
	y = vc_out_qt(p, dty, yv, sy, zy, ORDER_NHWC);
	if (y < 0)
		return -1;
	vc_dpu_init(&q, VPUX_DPU_OP_CONV, flags_of(&d, 0, 0));
	q.t[QD_IN] = x;
	q.t[QD_IN2] = wt;
	q.t[QD_OUT] = y;
	vc_dpu_window(&q.d, g, C, H, W, C, oh, ow);
	q.d.groups = (uint16_t)C;	/* depthwise */
	q.d.in_zp = p->t[x].zp;
	q.d.out_zp = zy;
	q.d.act_min = d.act_min;
	q.d.act_max = d.act_max;
	q.d.requant = rq;
	if (vc_emit_dpu(p, node, &q) < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
}

/* MaxPool / AveragePool / GlobalAveragePool */
int vcq_lower_pool(struct lctx *c, int node, const struct vc_value *yv,
		      int x, double sy, int32_t zy, int32_t dty, double lo,
		      double hi)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	int is_max = !strcmp(n->op, "MaxPool");
	int global = !strncmp(n->op, "Global", 6);
	int64_t C, H, W, k[2] = { 0, 0 }, oh, ow;
	struct vpux_hw_requant rq;
	struct vc_conv_geom g;
	struct dpu_q d;
	struct qdpu q;
	int32_t amin, amax;
	int y, incl_pad = 0;

	x = vc_as_nhwc(c, node, x);
	if (x < 0 || vcq_chw(c, n, &p->t[x], &C, &H, &W))
		return -1;
	if (global) {
		k[0] = H;
		k[1] = W;
		memset(&g, 0, sizeof(g));
		g.kh = H;
		g.kw = W;
		g.sh = g.sw = g.dh = g.dw = 1;
	} else {
		if (vc_attr_ints(n, "kernel_shape", k, 2) != 2) {
			vc_unsupported(p, n, "kernel_shape must be 2-D");
			return -1;
		}
		if (vc_conv_geom(c, n, H, W, k[0], k[1], &g))
			return -1;
		if (g.groups != 1) {
			vc_unsupported(p, n, "group attribute on a pool");
			return -1;
		}
		incl_pad = (int)vc_attr_i(n, "count_include_pad", 0);
		if (is_max && n->n_out > 1 && n->out[1] >= 0 &&
		    c->m->v[n->out[1]].n_uses) {
			vc_unsupported(p, n, "the Indices output is not supported");
			return -1;
		}
		if (vc_attr_i(n, "storage_order", 0)) {
			vc_unsupported(p, n, "storage_order=1 is not supported");
			return -1;
		}
	}
	if (g.kh * g.kw > 32768) {
		vc_unsupported(p, n, "window of %lld elements above 32768",
			       (long long)(g.kh * g.kw));
		return -1;
	}
	oh = (H + g.pt + g.pb - (g.dh * (g.kh - 1) + 1)) / g.sh + 1;
	ow = (W + g.pl + g.pr - (g.dw * (g.kw - 1) + 1)) / g.sw + 1;
	/*
	 * An average whose divisor is the whole window (no padding, or
	 * count_include_pad) is a depthwise convolution with weights 1 and
	 * the divisor folded into the requantisation: one rounding, as
	 * ONNX's float average followed by QuantizeLinear. The DPU's AVGPOOL
	 * rounds the average in the input's units first; it stays for
	 * windows whose padding is excluded (a divisor per position).
	 */
	if (!is_max && (incl_pad || !(g.pt | g.pl | g.pb | g.pr)))
		return avg_as_conv(c, node, yv, x, &g, C, H, W, oh, ow, sy, zy,
				   dty, lo, hi);
	memset(&d, 0, sizeof(d));
	d.in_dt = p->t[x].dt;
	d.out_dt = dty;
	if (is_max) {
		/* max commutes with the dequantization: raw max, same params */
		rq.mult = 1 << 30;
		rq.shift = -1;
		d.in_zp = 0;
		d.out_zp = 0;
		amin = vc_dt_min(dty);
		amax = vc_dt_max(dty);
		sy = p->t[x].scale;
		zy = p->t[x].zp;
	} else {
		if (!(p->t[x].scale > 0) || vc_requant(p->t[x].scale / sy, &rq)) {
			vc_unsupported(p, n, "input has no scale or the factor is out of range");
			return -1;
		}
		d.in_zp = p->t[x].zp;
		d.out_zp = zy;
		if (vcq_clamp_q(lo, hi, sy, zy, dty, &amin, &amax)) {
			vc_unsupported(p, n, "the output clamp is empty");
			return -1;
		}
	}
	y = vc_out_qt(p, dty, yv, sy, zy, ORDER_NHWC);
	if (y < 0)
		return -1;
	vc_dpu_init(&q, is_max ? VPUX_DPU_OP_MAXPOOL : VPUX_DPU_OP_AVGPOOL,
		 flags_of(&d, 0, 0));
	q.t[QD_IN] = x;
	q.t[QD_OUT] = y;
	vc_dpu_window(&q.d, &g, C, H, W, C, oh, ow);
	q.d.groups = 0;		/* pools: no groups */
	q.d.in_zp = d.in_zp;
	q.d.out_zp = d.out_zp;
	q.d.act_min = amin;
	q.d.act_max = amax;
	q.d.requant = rq;
	if (vc_emit_dpu(p, node, &q) < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
}

/* ---- MatMul / Gemm / QLinearMatMul ---- */


/* [R][Cc] -> [Cc][R] by one DMA (a runtime B into the DPU's [N][K]) */
static int transpose2(struct lctx *c, int node, int src, uint64_t off,
		      int64_t R, int64_t Cc, int dst, uint64_t doff)
{
	struct qprog *p = c->p;
	unsigned int e = vc_dt_bytes(p->t[src].dt);
	uint64_t bytes = (uint64_t)(R * Cc * e);
	int op;

	op = vc_emit_op(p, QOP_DMA, node,
			"dma src=t%d[%llu:%llu] dst=t%d[%llu:%llu] len=%u count=%lld,%lld,1 src_stride=%lld,%u,0 dst_stride=%lld,%u,0",
			src, (unsigned long long)off, (unsigned long long)bytes,
			dst, (unsigned long long)doff,
			(unsigned long long)bytes, e, (long long)R,
			(long long)Cc, (long long)(Cc * e), e, (long long)e,
			(unsigned int)(R * e));
	if (op < 0)
		return op;
	vc_op_uses(p, op, src);
	vc_op_uses(p, op, dst);
	p->dma_bytes += bytes;
	return 0;
}

int vcq_lower_matmul(struct lctx *c, int node, const struct vc_value *yv,
			struct mm_args *m)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	struct qconst *q = NULL;
	int a, bt = -1, wt = -1, qt = -1, y, runtime;
	int64_t M, K, N, batch = 1, bbatch = 1, wd[2];
	double *fac = NULL;
	int32_t *bias = NULL, amin, amax, wzp = 0, wdt;
	struct vpux_hw_requant rq;
	struct dpu_q d;
	struct qdpu qd;
	unsigned int i, r;
	int64_t bb;
	int ret = -1;

	a = vc_as_rowmajor(c, node, m->a);
	if (a < 0)
		return -1;
	r = p->t[a].rank;
	if (r < 2) {
		vc_unsupported(p, n, "input A must be at least 2-D");
		return -1;
	}
	M = p->t[a].dims[r - 2];
	K = p->t[a].dims[r - 1];
	for (i = 0; i + 2 < r; i++)
		batch *= p->t[a].dims[i];
	runtime = vc_vq_of(c, m->bv) >= 0;
	if (runtime) {
		const struct qt *tb = &p->t[vc_vq_of(c, m->bv)];

		if (m->transb || tb->rank < 2) {
			vc_unsupported(p, n, "a runtime B must be [.., K, N]");
			return -1;
		}
		if (tb->dims[tb->rank - 2] != K) {
			vc_unsupported(p, n, "inner dims differ");
			return -1;
		}
		N = tb->dims[tb->rank - 1];
		for (i = 0; i + 2 < tb->rank; i++)
			bbatch *= tb->dims[i];
		if (bbatch != 1 && bbatch != batch) {
			vc_unsupported(p, n, "batch dims of A and B must match (or B be 2-D)");
			return -1;
		}
	} else {
		const struct vpuxc_tensor *bt_;

		q = malloc(sizeof(*q));
		if (!q)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		if (!m->bv || vcq_qconst_of(c, m->bv, q)) {
			vc_unsupported(p, n, "B is neither a quantized tensor nor a constant");
			goto out;
		}
		if (m->qop) {
			q->n = m->nb;
			memcpy(q->scale, m->sb, sizeof(double) * m->nb);
			memcpy(q->zp, m->zb, sizeof(int32_t) * m->nb);
			q->axis = m->nb > 1 ? 1 : -1;
		}
		bt_ = qconst_t(q);
		if (bt_->rank != 2 || q->dt == VPUX_DT_I32) {
			vc_unsupported(p, n, "constant B must be 2-D and 8-bit");
			goto out;
		}
		N = bt_->dims[m->transb ? 0 : 1];
		if (bt_->dims[m->transb ? 1 : 0] != K) {
			vc_unsupported(p, n, "inner dims differ");
			goto out;
		}
		if (!q->n && !m->qop) {
			vc_unsupported(p, n, "constant B has no quantization scale");
			goto out;
		}
		if (q->n > 1 && (q->n != N ||
				 q->axis != (m->transb ? 0 : 1))) {
			vc_unsupported(p, n, "B scales per axis %d with %u values (per output column expected)",
				       q->axis, q->n);
			goto out;
		}
	}
	if (K > 32768 || N > 65535 || batch * M > 65535 ||
	    (runtime && M > 65535)) {
		vc_unsupported(p, n, "K %lld above 32768, N above 65535 or M above 65535",
			       (long long)K);
		goto out;
	}
	if (yv->rank < 2 || yv->dims[yv->rank - 1] != N ||
	    yv->dims[yv->rank - 2] != M) {
		vc_unsupported(p, n, "output shape differs from the product's");
		goto out;
	}
	fac = calloc((size_t)N, sizeof(*fac));
	bias = calloc((size_t)N, sizeof(*bias));
	if (!fac || !bias) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	memset(&d, 0, sizeof(d));
	if (runtime) {
		const struct qt *tb = &p->t[vc_vq_of(c, m->bv)];
		double sb = m->qop ? m->sb[0] : tb->scale;

		if ((m->qop && m->nb != 1) || !(sb > 0)) {
			vc_unsupported(p, n, "a runtime B needs one per-tensor scale");
			goto out;
		}
		wzp = m->qop ? m->zb[0] : tb->zp;
		wdt = tb->dt;
		for (i = 0; i < N; i++)
			fac[i] = m->sa * sb;
	} else {
		int32_t zp0 = q->n ? q->zp[0] : 0;
		int fold = 0;
		uint8_t *buf;
		int64_t k, j;

		for (i = 0; i < q->n; i++)
			if (q->zp[i] != zp0)
				fold = 1;
		wdt = fold ? VPUX_DT_I8 : q->dt;
		wzp = fold ? 0 : zp0;
		buf = malloc((size_t)(N * K));
		if (!buf) {
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		for (j = 0; j < N; j++)
			for (k = 0; k < K; k++) {
				size_t src = m->transb ? (size_t)(j * K + k) :
					     (size_t)(k * N + j);
				int64_t v;

				if (qconst_at(q, src, (size_t)j, &v)) {
					free(buf);
					nan_weight(p, n, q, src);
					goto out;
				}
				if (fold) {
					v -= q->zp[j];
					if (v < -128 || v > 127) {
						free(buf);
						vc_unsupported(p, n, "per-column zero points: a recentred weight does not fit int8");
						goto out;
					}
				}
				buf[j * K + k] = (uint8_t)v;
			}
		wd[0] = N;
		wd[1] = K;
		wt = vc_const_qt(p, wdt, 2, wd, buf);
		free(buf);
		if (wt < 0)
			goto out;
		for (i = 0; i < N; i++)
			fac[i] = m->sa * (q->n ? q->scale[q->n > 1 ? i : 0] : 1.0);
	}
	if (m->bias) {
		const struct vc_value *bv = m->bias;
		int64_t bd = bv->rank > 0 ? bv->dims[bv->rank - 1] : 1;

		if (vc_numel(bv) != (uint64_t)N && vc_numel(bv) != 1) {
			vc_unsupported(p, n, "bias C must have N or 1 values");
			goto out;
		}
		if (bd == N || vc_numel(bv) == (uint64_t)N) {
			double *sacc = malloc(sizeof(double) * (size_t)N);

			if (!sacc)
				goto out;
			for (i = 0; i < N; i++)
				sacc[i] = fac[i] * m->alpha / m->beta;
			r = (unsigned int)bias_values(c, n, bv, sacc, (unsigned int)N, bias);
			free(sacc);
			if (r)
				goto out;
		} else {
			vc_unsupported(p, n, "a scalar bias C is not supported");
			goto out;
		}
		wd[0] = N;
		bt = vc_const_qt(p, VPUX_DT_I32, 1, wd, bias);
		if (bt < 0)
			goto out;
	}
	if (m->dty == VPUX_DT_I32) {
		/* MatMulInteger: raw accumulators, no output stage */
		amin = amax = 0;
	} else {
		for (i = 0; i < N; i++)
			fac[i] = fac[i] * m->alpha / m->sy;
		if (requant_records(c, n, fac, (unsigned int)N, &rq, &qt))
			goto out;
		if (vcq_clamp_q(m->lo, m->hi, m->sy, m->zy, m->dty, &amin, &amax)) {
			vc_unsupported(p, n, "the output clamp is empty");
			goto out;
		}
	}
	d.in_dt = p->t[a].dt;
	d.w_dt = wdt;
	d.out_dt = m->dty;
	y = vc_new_qt(p, m->dty, (unsigned int)yv->rank, yv->dims, 0);
	if (y < 0)
		goto out;
	p->t[y].scale = m->sy;
	p->t[y].zp = m->zy;
	vc_dpu_init(&qd, VPUX_DPU_OP_MATMUL, flags_of(&d, bt >= 0, qt >= 0));
	qd.t[QD_IN] = a;
	qd.t[QD_IN2] = wt;
	qd.t[QD_BIAS] = bt;
	qd.t[QD_QUANT] = qt;
	qd.t[QD_OUT] = y;
	qd.d.in_c = (uint16_t)K;
	qd.d.out_c = (uint16_t)N;
	qd.d.in_w = qd.d.out_w = 1;
	qd.d.in_zp = m->za;
	qd.d.in2_zp = wzp;
	qd.d.out_zp = m->dty == VPUX_DT_I32 ? 0 : m->zy;
	qd.d.act_min = amin;
	qd.d.act_max = amax;
	if (qt < 0 && m->dty != VPUX_DT_I32)
		qd.d.requant = rq;
	if (!runtime) {
		qd.d.in_h = qd.d.out_h = (uint16_t)(batch * M);
		if (vc_emit_dpu(p, node, &qd) < 0)
			goto out;
	} else {
		int b = vc_vq_of(c, m->bv);
		int64_t dd[2] = { bbatch * N, K };
		unsigned int ea = vc_dt_bytes(p->t[a].dt);
		unsigned int eb = vc_dt_bytes(p->t[b].dt);
		unsigned int eo = vc_dt_bytes(m->dty);

		b = vc_as_rowmajor(c, node, b);
		if (b < 0)
			goto out;
		wt = vc_new_qt(p, wdt, 2, dd, 0);
		if (wt < 0)
			goto out;
		qd.t[QD_IN2] = wt;
		for (bb = 0; bb < bbatch; bb++)
			if (transpose2(c, node, b, (uint64_t)(bb * K * N * eb), K,
				       N, wt, (uint64_t)(bb * N * K * eb)))
				goto out;
		qd.d.in_h = qd.d.out_h = (uint16_t)M;
		for (bb = 0; bb < batch; bb++) {
			int64_t wb = bbatch == 1 ? 0 : bb;

			qd.off[QD_IN] = (uint64_t)(bb * M * K * ea);
			qd.len[QD_IN] = (uint64_t)(M * K * ea);
			qd.off[QD_IN2] = (uint64_t)(wb * N * K * eb);
			qd.len[QD_IN2] = (uint64_t)(N * K * eb);
			qd.off[QD_OUT] = (uint64_t)(bb * M * N * eo);
			qd.len[QD_OUT] = (uint64_t)(M * N * eo);
			if (vc_emit_dpu(p, node, &qd) < 0)
				goto out;
		}
	}
	vc_set_vq(c, yv, y);
	ret = 0;
out:
	free(q);
	free(fac);
	free(bias);
	return ret;
}

