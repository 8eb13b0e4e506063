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
	struct qprog *p = c->p;
	struct vc_conv_geom g;
	struct qdpu q;
	int64_t N = xv->dims[0], i;
	uint64_t isz, osz;
	int x, w, b = -1, y, r;

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
	isz = p->t[x].size / (uint64_t)N;
	osz = p->t[y].size / (uint64_t)N;
	q.t[QD_IN2] = w;
	q.t[QD_BIAS] = b;
	for (i = 0; i < N; i++) {
		q.t[QD_IN] = x;
		q.off[QD_IN] = (uint64_t)i * isz;
		q.len[QD_IN] = isz;
		q.t[QD_OUT] = y;
		q.off[QD_OUT] = (uint64_t)i * osz;
		q.len[QD_OUT] = osz;
		r = vc_emit_dpu(p, node, &q);
		if (r < 0)
			return r;
	}
	return 0;
}

const struct vc_op vc_ops_conv[] = {
	{ "", "Conv", 1, 0, NULL, conv_npu, conv_lower },
	{ 0 }
};
