// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "convolution": Conv on FP16 tensors is one DPU CONV per
 * batch item (NHWC activations, weights repacked to [oc][kh][kw][ic/g]
 * in FP16, bias in FP32), with a following Relu/Clip/LeakyRelu as its
 * activation stage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"
#include "vpux_dpu_rules.h"

static const char *conv_npu(const struct vpuxc_model *m,
			    const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0), *w = vc_in(m, n, 1);
	const struct vc_value *b = n->n_in > 2 ? vc_in(m, n, 2) : NULL;
	const struct vc_value *y = vc_out(m, n, 0);
	int64_t g = vc_attr_i(n, "group", 1);

	if (!x || !w || !y) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (x->rank != 4 || w->rank != 4) {
		snprintf(buf, len, "%s convolution: only 2-D (4-D tensors) is supported",
			 x->rank == 3 ? "1-D" : x->rank == 5 ? "3-D" : "this");
		return buf;
	}
	if (!w->cst || (b && !b->cst)) {
		snprintf(buf, len, "weights and bias must be constants");
		return buf;
	}
	if (!vc_numel(x) || !vc_numel(y)) {
		snprintf(buf, len, "no static shape");
		return buf;
	}
	if (x->dims[0] > 65535 || x->dims[1] > 65535 || x->dims[2] > 65535 ||
	    x->dims[3] > 65535 || y->dims[1] > 65535 || y->dims[2] > 65535 ||
	    y->dims[3] > 65535) {
		snprintf(buf, len, "a dim above 65535");
		return buf;
	}
	if (g < 1 || x->dims[1] % g || w->dims[0] % g ||
	    w->dims[1] * g != x->dims[1]) {
		snprintf(buf, len, "group %lld does not match the channels", (long long)g);
		return buf;
	}
	if (w->dims[1] * w->dims[2] * w->dims[3] > VPUX_DPU_MAX_K) {
		snprintf(buf, len, "reduction of %lld taps above the DPU's %u",
			 (long long)(w->dims[1] * w->dims[2] * w->dims[3]),
			 VPUX_DPU_MAX_K);
		return buf;
	}
	return NULL;
}

/* FP16 weights [oc][kh][kw][icg] from ONNX [oc][icg][kh][kw] */
static int conv_weights(struct lctx *c, const struct vc_value *w)
{
	int64_t OC = w->dims[0], IC = w->dims[1], KH = w->dims[2],
		KW = w->dims[3], o, i, y, x, d[4];
	size_t n;
	float *f = vc_cst_floats(w, &n), *r;
	int t;

	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	r = malloc(sizeof(float) * (n ? n : 1));
	if (!r) {
		free(f);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	for (o = 0; o < OC; o++)
		for (i = 0; i < IC; i++)
			for (y = 0; y < KH; y++)
				for (x = 0; x < KW; x++)
					r[((o * KH + y) * KW + x) * IC + i] =
						f[((o * IC + i) * KH + y) * KW + x];
	d[0] = OC;
	d[1] = KH;
	d[2] = KW;
	d[3] = IC;
	t = vc_f16_const(c, 4, d, r);
	free(f);
	free(r);
	return t;
}

/* FP32 bias of @oc values from constant @b (NULL: none) */
int vc_bias_f32(struct lctx *c, const struct vc_value *b, int64_t oc)
{
	size_t n;
	float *f;
	int t;

	if (!b)
		return -1;
	f = vc_cst_floats(b, &n);
	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if ((int64_t)n != oc) {
		free(f);
		return vpux_err(VPUX_E_UNSUPPORTED, "bias '%s': %zu values for %lld channels",
				b->name, n, (long long)oc);
	}
	t = vc_f32_const(c, 1, &oc, f);
	free(f);
	return t;
}

static int conv_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *wv = vc_in(c->m, n, 1);
	const struct vc_value *bv = n->n_in > 2 ? vc_in(c->m, n, 2) : NULL;
	const struct vc_value *yv = vc_out(c->m, n, 0);
	struct vc_conv_geom g;
	struct qdpu q;
	int x, w, b = -1, y;

	if (vc_conv_geom(c, n, xv->dims[2], xv->dims[3], wv->dims[2],
			 wv->dims[3], &g))
		return VC_REPORTED;
	x = vc_f16_nhwc(c, node, xv);
	if (x < 0)
		return x;
	w = conv_weights(c, wv);
	if (w < 0)
		return w;
	if (bv) {
		b = vc_bias_f32(c, bv, wv->dims[0]);
		if (b < 0)
			return b;
	}
	vc_fdpu_init(&q, VPUX_DPU_OP_CONV);
	vc_dpu_window(&q.d, &g, xv->dims[1], xv->dims[2], xv->dims[3],
		      yv->dims[1], yv->dims[2], yv->dims[3]);
	if (b >= 0)
		q.d.flags |= VPUX_DPU_F_BIAS;
	yv = vc_fuse_act(c, &q, yv);
	y = vc_f16_out(c, yv, ORDER_NHWC);
	if (y < 0)
		return y;
	q.t[QD_IN2] = w;
	q.t[QD_BIAS] = b;
	return vc_emit_dpu_items(c, node, &q, x, y, xv->dims[0], 0);
}

/*
 * ConvTranspose (2-D) as one stride-1 convolution per output phase: for
 * stride s, kernel k and begin padding p along a dim, output index
 * oy = s * q + r (phase r) gets the taps ky = c + s * j (c = (r + p) mod
 * s) of input rows q + base - j (base = (r + p) div s). Flipped, that is
 * an ordinary correlation of kernel size kj = ceil((k - c) / s) with top
 * padding kj - 1 - base (a negative padding: the conv computes a few
 * more rows and the copy skips them). Each phase's result [N][rows][cols]
 * [OC] is copied by one strided DMA into every s-th pixel of the NHWC
 * output; a phase no tap reaches (s > k) gets the bias by a DMA.
 */
struct ct_dim {
	int64_t in, k, s, pb, pe, op, out;
};

struct ct_geom {
	struct ct_dim d[2];
	int64_t groups, cin, cout;
};

/* one phase along one dim */
struct ct_phase {
	int64_t c;	/* first tap */
	int64_t kj;	/* taps (0: none reach this phase) */
	int64_t lo, hi;	/* the conv's paddings */
	int64_t skip;	/* leading conv outputs the copy skips */
	int64_t rows;	/* conv outputs */
	int64_t cnt;	/* output indices of the phase */
};

static void ct_phase(const struct ct_dim *d, int64_t r, struct ct_phase *ph)
{
	int64_t pt;

	memset(ph, 0, sizeof(*ph));
	ph->c = (r + d->pb) % d->s;
	ph->cnt = r < d->out ? (d->out - r + d->s - 1) / d->s : 0;
	ph->kj = ph->c < d->k ? (d->k - ph->c + d->s - 1) / d->s : 0;
	if (!ph->kj || !ph->cnt)
		return;
	pt = ph->kj - 1 - (r + d->pb) / d->s;
	ph->lo = pt > 0 ? pt : 0;
	ph->skip = ph->lo - pt;
	ph->hi = ph->skip + ph->cnt - 1 + ph->kj - d->in - ph->lo;
	if (ph->hi < 0)
		ph->hi = 0;
	ph->rows = d->in + ph->lo + ph->hi - ph->kj + 1;
}

static const char *ct_get(const struct vpuxc_model *m,
			  const struct vc_node *n, struct ct_geom *g,
			  char *buf, size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0), *w = vc_in(m, n, 1);
	const struct vc_value *b = n->n_in > 2 ? vc_in(m, n, 2) : NULL;
	int64_t st[2] = { 1, 1 }, dl[2] = { 1, 1 }, pd[4] = { 0 };
	int64_t op[2] = { 0 }, ks[2], os[4];
	const char *ap = vc_attr_s(n, "auto_pad", "NOTSET");
	int nk, nos, i;

	memset(g, 0, sizeof(*g));
	if (!x || !w || !vc_out(m, n, 0)) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (x->rank != 4 || w->rank != 4) {
		snprintf(buf, len, "%s transposed convolution: only 2-D (4-D tensors) is supported",
			 x->rank == 3 ? "1-D" : x->rank == 5 ? "3-D" : "this");
		return buf;
	}
	if (!vc_numel(x)) {
		snprintf(buf, len, "no static input shape");
		return buf;
	}
	if (!w->cst || (b && !b->cst)) {
		snprintf(buf, len, "weights and bias must be constants");
		return buf;
	}
	nk = vc_attr_ints(n, "kernel_shape", ks, 2);
	nos = vc_attr_ints(n, "output_shape", os, 4);
	if (vc_attr_ints(n, "strides", st, 2) < 0 ||
	    vc_attr_ints(n, "dilations", dl, 2) < 0 ||
	    vc_attr_ints(n, "pads", pd, 4) < 0 ||
	    vc_attr_ints(n, "output_padding", op, 2) < 0 || nk < 0 ||
	    (nk && nk != 2) || nos < 0 || (nos && nos != 2 && nos != 4)) {
		snprintf(buf, len, "strides, dilations, pads, output_padding, kernel_shape or output_shape are not 2-D");
		return buf;
	}
	if (nk && (ks[0] != w->dims[2] || ks[1] != w->dims[3])) {
		snprintf(buf, len, "kernel_shape does not match the weights");
		return buf;
	}
	if (!strcmp(ap, "VALID")) {
		memset(pd, 0, sizeof(pd));
	} else if (strcmp(ap, "NOTSET") && strcmp(ap, "SAME_UPPER") &&
		   strcmp(ap, "SAME_LOWER")) {
		snprintf(buf, len, "unknown auto_pad '%s'", ap);
		return buf;
	}
	g->groups = vc_attr_i(n, "group", 1);
	g->cin = x->dims[1];
	g->cout = w->dims[1] * g->groups;
	if (g->groups < 1 || w->dims[0] != g->cin || g->cin % g->groups) {
		snprintf(buf, len, "group %lld does not match the channels",
			 (long long)g->groups);
		return buf;
	}
	for (i = 0; i < 2; i++) {
		struct ct_dim *d = &g->d[i];
		int64_t full;

		d->in = x->dims[2 + i];
		d->k = w->dims[2 + i];
		d->s = st[i];
		d->pb = pd[i];
		d->pe = pd[i + 2];
		d->op = op[i];
		if (dl[i] != 1) {
			snprintf(buf, len, "dilation %lld: only 1 is supported",
				 (long long)dl[i]);
			return buf;
		}
		if (d->s < 1 || d->s > 65535 || d->k < 1 || d->k > 65535 ||
		    d->pb < 0 || d->pe < 0 || d->pb > 65535 || d->pe > 65535 ||
		    d->op < 0 || d->op >= d->s || d->in > 65535) {
			snprintf(buf, len, "stride, kernel, padding or output_padding out of range (output_padding below the stride)");
			return buf;
		}
		full = d->s * (d->in - 1) + d->op + d->k;
		if (nos || !strncmp(ap, "SAME_", 5)) {
			/* ONNX: pads from the total, the odd one at the end
			 * for SAME_UPPER, else at the start; a negative total
			 * (floor halves) extends the end */
			int64_t want = nos ? os[nos - 2 + i] : d->in * d->s;
			int64_t tot = full - want;
			int64_t half = tot >= 0 ? tot / 2 : -((1 - tot) / 2);

			d->pb = !strcmp(ap, "SAME_UPPER") ? half : tot - half;
			d->pe = tot - d->pb;
			if (want < 1 || d->pb < 0 || d->pb > 65535) {
				snprintf(buf, len, "output size %lld is out of reach (at most %lld, one more with a zero row)",
					 (long long)want, (long long)full);
				return buf;
			}
		}
		d->out = full - d->pb - d->pe;
		if (d->out < 1 || d->out > 65535) {
			snprintf(buf, len, "output size %lld (1..65535)",
				 (long long)d->out);
			return buf;
		}
	}
	if (x->dims[0] > 65535 || g->cin > 65535 || g->cout > 65535 ||
	    g->d[0].in > 65535 || g->d[1].in > 65535) {
		snprintf(buf, len, "a dim above 65535");
		return buf;
	}
	return NULL;
}

static int ct_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	struct ct_geom g;
	char buf[160];

	if (!y || ct_get(m, n, &g, buf, sizeof(buf)))
		return 0;
	y->dtype = x->dtype;
	y->rank = 4;
	y->dims[0] = x->dims[0];
	y->dims[1] = g.cout;
	y->dims[2] = g.d[0].out;
	y->dims[3] = g.d[1].out;
	return 0;
}

static const char *ct_npu(const struct vpuxc_model *m,
			  const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *y = vc_out(m, n, 0), *x = vc_in(m, n, 0);
	struct ct_geom g;
	struct ct_phase ph;
	const char *why = ct_get(m, n, &g, buf, len);
	int64_t taps, r;
	int i;

	if (why)
		return why;
	if (x->dtype != VPUXC_FLOAT && x->dtype != 10) {
		snprintf(buf, len, "input '%s' is %s, not float", x->name,
			 vpuxc_dtype_name(x->dtype));
		return buf;
	}
	if (y->rank != 4 || y->dims[0] != x->dims[0] || y->dims[1] != g.cout ||
	    y->dims[2] != g.d[0].out || y->dims[3] != g.d[1].out) {
		snprintf(buf, len, "output '%s' is not [%lld,%lld,%lld,%lld]",
			 y->name, (long long)x->dims[0], (long long)g.cout,
			 (long long)g.d[0].out, (long long)g.d[1].out);
		return buf;
	}
	taps = g.cin / g.groups;
	for (i = 0; i < 2; i++) {
		taps *= (g.d[i].k + g.d[i].s - 1) / g.d[i].s;
		for (r = 0; r < g.d[i].s && r < g.d[i].out; r++) {
			ct_phase(&g.d[i], r, &ph);
			if (ph.rows > 65535 || ph.hi > 65535) {
				snprintf(buf, len, "a phase's convolution is above 65535 outputs or padding");
				return buf;
			}
		}
	}
	if (taps > VPUX_DPU_MAX_K) {
		snprintf(buf, len, "reduction of %lld taps per phase above the DPU's %u",
			 (long long)taps, VPUX_DPU_MAX_K);
		return buf;
	}
	return NULL;
}

/* the sub-kernel of phase (@ph, @pw): [OC][kj_h][kj_w][IC/g], flipped */
static int ct_weights(struct lctx *c, const float *f, const struct ct_geom *g,
		      int64_t KH, int64_t KW, const struct ct_phase *ph,
		      const struct ct_phase *pw)
{
	int64_t icg = g->cin / g->groups, ocg = g->cout / g->groups;
	int64_t kh = ph->kj, kw = pw->kj, o, t, u, i, d[4];
	float *r = malloc(sizeof(float) * (size_t)(g->cout * kh * kw * icg));
	int ret;

	if (!r)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (o = 0; o < g->cout; o++)
		for (t = 0; t < kh; t++)
			for (u = 0; u < kw; u++)
				for (i = 0; i < icg; i++) {
					int64_t ky = ph->c + g->d[0].s * (kh - 1 - t);
					int64_t kx = pw->c + g->d[1].s * (kw - 1 - u);
					int64_t ic = o / ocg * icg + i;

					r[((o * kh + t) * kw + u) * icg + i] =
						f[((ic * ocg + o % ocg) * KH + ky) * KW + kx];
				}
	d[0] = g->cout;
	d[1] = kh;
	d[2] = kw;
	d[3] = icg;
	ret = vc_f16_const(c, 4, d, r);
	free(r);
	return ret;
}

/* a strided DMA from @src (from byte @soff) to @dst (from byte @doff) */
static int ct_dma(struct lctx *c, int node, int src, uint64_t soff, int dst,
		  uint64_t doff, int64_t len, const int64_t *cnt,
		  const int64_t *ss, const int64_t *ds)
{
	struct qprog *p = c->p;

	return vc_dma3(c, node, src, soff, p->t[src].size - soff, dst, doff,
		       p->t[dst].size - doff, (uint64_t)len, cnt, ss, ds);
}

/* the phase (@rh, @rw) with no taps: the bias (or 0) in each of its pixels */
static int ct_fill(struct lctx *c, int node, const struct vc_value *bv,
		   const struct ct_geom *g, int y, int64_t N, int64_t rh,
		   int64_t rw, const struct ct_phase *ph,
		   const struct ct_phase *pw)
{
	int64_t OC = g->cout, Wo = g->d[1].out, cnt[3], ss[3] = { 0 }, ds[3];
	size_t nb = 0;
	float *b = bv ? vc_cst_floats(bv, &nb) : calloc((size_t)OC, sizeof(float));
	int t;

	if (!b)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (bv && (int64_t)nb != OC) {
		free(b);
		return vpux_err(VPUX_E_UNSUPPORTED, "bias '%s': %zu values for %lld channels",
				bv->name, nb, (long long)OC);
	}
	t = vc_f16_const(c, 1, &OC, b);
	free(b);
	if (t < 0)
		return t;
	cnt[0] = pw->cnt;
	cnt[1] = ph->cnt;
	cnt[2] = N;
	ds[0] = g->d[1].s * OC * 2;
	ds[1] = g->d[0].s * Wo * OC * 2;
	ds[2] = g->d[0].out * Wo * OC * 2;
	return ct_dma(c, node, t, 0, y, (uint64_t)((rh * Wo + rw) * OC * 2),
		      OC * 2, cnt, ss, ds);
}

static int ct_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *wv = vc_in(c->m, n, 1);
	const struct vc_value *bv = n->n_in > 2 ? vc_in(c->m, n, 2) : NULL;
	const struct vc_value *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	struct ct_geom g;
	struct ct_phase ph, pw;
	struct qdpu q, qq;
	char why[160];
	int64_t N = xv->dims[0], OC, Ho, Wo, rh, rw, i;
	uint64_t isz;
	bool empty = false;
	size_t nw;
	float *f;
	int x, y, b = -1, ret = 0;

	if (ct_get(c->m, n, &g, why, sizeof(why))) {
		vc_unsupported(p, n, "%s", why);
		return VC_REPORTED;
	}
	OC = g.cout;
	Ho = g.d[0].out;
	Wo = g.d[1].out;
	for (rh = 0; rh < g.d[0].s && rh < Ho; rh++)
		for (rw = 0; rw < g.d[1].s && rw < Wo; rw++) {
			ct_phase(&g.d[0], rh, &ph);
			ct_phase(&g.d[1], rw, &pw);
			empty |= !ph.kj || !pw.kj;
		}
	x = vc_f16_nhwc(c, node, xv);
	if (x < 0)
		return x;
	if (bv) {
		b = vc_bias_f32(c, bv, OC);
		if (b < 0)
			return b;
	}
	vc_fdpu_init(&q, VPUX_DPU_OP_CONV);
	if (!empty)	/* the bias-only phases would miss the activation */
		yv = vc_fuse_act(c, &q, yv);
	y = vc_f16_out(c, yv, ORDER_NHWC);
	if (y < 0)
		return y;
	f = vc_cst_floats(wv, &nw);
	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	isz = p->t[x].size / (uint64_t)N;
	for (rh = 0; rh < g.d[0].s && rh < Ho && ret >= 0; rh++)
		for (rw = 0; rw < g.d[1].s && rw < Wo && ret >= 0; rw++) {
			struct vc_conv_geom cg;
			int64_t d[4], cnt[3], ss[3], ds[3];
			uint64_t osz;
			bool direct;
			int t, wt;

			ct_phase(&g.d[0], rh, &ph);
			ct_phase(&g.d[1], rw, &pw);
			if (!ph.kj || !pw.kj) {
				ret = ct_fill(c, node, bv, &g, y, N, rh, rw, &ph,
					      &pw);
				continue;
			}
			wt = ct_weights(c, f, &g, wv->dims[2], wv->dims[3], &ph,
					&pw);
			if (wt < 0) {
				ret = wt;
				break;
			}
			direct = g.d[0].s == 1 && g.d[1].s == 1 && !ph.skip &&
				 !pw.skip && ph.rows == Ho && pw.rows == Wo;
			d[0] = N;
			d[1] = OC;
			d[2] = ph.rows;
			d[3] = pw.rows;
			t = direct ? y : vc_f16_new(c, 4, d, ORDER_NHWC);
			if (t < 0) {
				ret = t;
				break;
			}
			cg.kh = ph.kj;
			cg.kw = pw.kj;
			cg.sh = cg.sw = cg.dh = cg.dw = 1;
			cg.pt = ph.lo;
			cg.pb = ph.hi;
			cg.pl = pw.lo;
			cg.pr = pw.hi;
			cg.groups = g.groups;
			qq = q;
			vc_dpu_window(&qq.d, &cg, g.cin, g.d[0].in, g.d[1].in,
				      OC, ph.rows, pw.rows);
			if (b >= 0)
				qq.d.flags |= VPUX_DPU_F_BIAS;
			qq.t[QD_IN2] = wt;
			qq.t[QD_BIAS] = b;
			osz = p->t[t].size / (uint64_t)N;
			for (i = 0; i < N && ret >= 0; i++) {
				qq.t[QD_IN] = x;
				qq.off[QD_IN] = (uint64_t)i * isz;
				qq.len[QD_IN] = isz;
				qq.t[QD_OUT] = t;
				qq.off[QD_OUT] = (uint64_t)i * osz;
				qq.len[QD_OUT] = osz;
				ret = vc_emit_dpu(p, node, &qq);
			}
			if (direct || ret < 0)
				continue;
			/* rows skip.. of the phase, every s-th pixel of y */
			cnt[0] = pw.cnt;
			cnt[1] = ph.cnt;
			cnt[2] = N;
			ss[0] = OC * 2;
			ss[1] = pw.rows * OC * 2;
			ss[2] = ph.rows * pw.rows * OC * 2;
			ds[0] = g.d[1].s * OC * 2;
			ds[1] = g.d[0].s * Wo * OC * 2;
			ds[2] = Ho * Wo * OC * 2;
			ret = ct_dma(c, node, t,
				     (uint64_t)((ph.skip * pw.rows + pw.skip) * OC * 2),
				     y, (uint64_t)((rh * Wo + rw) * OC * 2), OC * 2,
				     cnt, ss, ds);
		}
	free(f);
	return ret < 0 ? ret : 0;
}

const struct vc_op vc_ops_conv[] = {
	{ "", "Conv", 1, 0, NULL, conv_npu, conv_lower },
	{ "", "ConvTranspose", 1, 0, ct_infer, ct_npu, ct_lower },
	{ 0 }
};
