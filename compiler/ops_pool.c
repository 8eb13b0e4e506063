// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "pooling": MaxPool, AveragePool, GlobalAveragePool and
 * GlobalMaxPool on FP16 NHWC tensors, one DPU MAXPOOL/AVGPOOL per batch
 * item. ceil_mode=1 becomes extra bottom/right padding (padding taps are
 * skipped, so a max or an average without count_include_pad is
 * unchanged by it).
 */
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"
#include "vpux_dpu_rules.h"

static bool global(const struct vc_node *n)
{
	return !strncmp(n->op, "Global", 6);
}

static bool is_max(const struct vc_node *n)
{
	return strstr(n->op, "Max") != NULL;
}

/*
 * The window of a (non-global) pool: kernel, strides, dilations, pads
 * with ceil_mode folded into pad_bottom/pad_right; @extra: ceil_mode
 * added padding.
 */
static int pool_geom(const struct vpuxc_model *m, const struct vc_node *n,
		     struct vc_conv_geom *g, bool *extra, char *buf,
		     size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0);
	int64_t k[2] = { 0, 0 }, st[2] = { 1, 1 }, dl[2] = { 1, 1 };
	int64_t pd[4] = { 0, 0, 0, 0 }, in[2], i;
	const char *ap = vc_attr_s(n, "auto_pad", "NOTSET");
	bool ceil = vc_attr_i(n, "ceil_mode", 0) != 0;

	*extra = false;
	if (vc_attr_ints(n, "kernel_shape", k, 2) != 2 ||
	    vc_attr_ints(n, "strides", st, 2) < 0 ||
	    vc_attr_ints(n, "dilations", dl, 2) < 0 ||
	    vc_attr_ints(n, "pads", pd, 4) < 0) {
		snprintf(buf, len, "kernel_shape, strides, dilations or pads are not 2-D");
		return -1;
	}
	if (vc_attr_i(n, "storage_order", 0)) {
		snprintf(buf, len, "storage_order=1 is not supported");
		return -1;
	}
	if (n->n_out > 1 && vc_out(m, n, 1)) {
		snprintf(buf, len, "the Indices output is not supported");
		return -1;
	}
	in[0] = x->dims[2];
	in[1] = x->dims[3];
	for (i = 0; i < 2; i++) {
		int64_t eff = dl[i] * (k[i] - 1) + 1, o, need;

		if (k[i] < 1 || st[i] < 1 || dl[i] < 1) {
			snprintf(buf, len, "kernel, stride or dilation below 1");
			return -1;
		}
		if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
			int64_t tot;

			o = (in[i] + st[i] - 1) / st[i];
			tot = (o - 1) * st[i] + eff - in[i];
			if (tot < 0)
				tot = 0;
			pd[i] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
			pd[i + 2] = tot - pd[i];
			continue;
		} else if (!strcmp(ap, "VALID")) {
			pd[i] = pd[i + 2] = 0;
		} else if (strcmp(ap, "NOTSET")) {
			snprintf(buf, len, "auto_pad '%s' unknown", ap);
			return -1;
		}
		if (!ceil)
			continue;
		/* ceil: one more window when one starts inside input+pad_begin */
		o = (in[i] + pd[i] + pd[i + 2] - eff + st[i] - 1) / st[i] + 1;
		if ((o - 1) * st[i] >= in[i] + pd[i])
			o--;
		need = (o - 1) * st[i] + eff - in[i] - pd[i];
		if (need > pd[i + 2]) {
			pd[i + 2] = need;
			*extra = true;
		}
	}
	vc_geom_set(g, k[0], k[1], st, dl, pd, 1);
	for (i = 0; i < 4; i++)
		if (pd[i] < 0 || pd[i] > 65535) {
			snprintf(buf, len, "padding out of range");
			return -1;
		}
	if (k[0] > 65535 || k[1] > 65535 || st[0] > 65535 || st[1] > 65535 ||
	    dl[0] > 65535 || dl[1] > 65535 || k[0] * k[1] > VPUX_DPU_MAX_K) {
		snprintf(buf, len, "window of %lldx%lld above the DPU's limits",
			 (long long)k[0], (long long)k[1]);
		return -1;
	}
	return 0;
}

static const char *pool_npu(const struct vpuxc_model *m,
			    const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	struct vc_conv_geom g;
	bool extra;

	if (!x || !y) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (x->rank != 4 || !vc_numel(x)) {
		snprintf(buf, len, "%s", x->rank != 4 ?
			 "only 2-D pooling (4-D tensors) is supported" :
			 "no static shape");
		return buf;
	}
	if (x->dims[1] > 65535 || x->dims[2] > 65535 || x->dims[3] > 65535) {
		snprintf(buf, len, "a dim above 65535");
		return buf;
	}
	if (global(n)) {
		if (x->dims[2] * x->dims[3] > VPUX_DPU_MAX_K) {
			snprintf(buf, len, "global pool over %lld pixels above the DPU's %u",
				 (long long)(x->dims[2] * x->dims[3]),
				 VPUX_DPU_MAX_K);
			return buf;
		}
		return NULL;
	}
	if (pool_geom(m, n, &g, &extra, buf, len))
		return buf;
	if (extra && !is_max(n) && vc_attr_i(n, "count_include_pad", 0)) {
		snprintf(buf, len, "ceil_mode=1 with count_include_pad=1 where the last window passes the padding");
		return buf;
	}
	return NULL;
}

static int pool_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	struct vc_conv_geom g;
	int64_t N = xv->dims[0], C = xv->dims[1], H = xv->dims[2],
		W = xv->dims[3], oh, ow;
	struct qdpu q;
	char why[128];
	bool extra;
	int x, y;

	memset(&g, 0, sizeof(g));
	if (global(n)) {
		g.kh = H;
		g.kw = W;
		g.sh = g.sw = g.dh = g.dw = g.groups = 1;
	} else if (pool_geom(c->m, n, &g, &extra, why, sizeof(why))) {
		vc_unsupported(p, n, "%s", why);
		return VC_REPORTED;
	}
	oh = (H + g.pt + g.pb - (g.dh * (g.kh - 1) + 1)) / g.sh + 1;
	ow = (W + g.pl + g.pr - (g.dw * (g.kw - 1) + 1)) / g.sw + 1;
	if (oh != yv->dims[2] || ow != yv->dims[3]) {
		vc_unsupported(p, n, "output %lldx%lld, the window gives %lldx%lld",
			       (long long)yv->dims[2], (long long)yv->dims[3],
			       (long long)oh, (long long)ow);
		return VC_REPORTED;
	}
	x = vc_f16_nhwc(c, node, xv);
	if (x < 0)
		return x;
	vc_fdpu_init(&q, is_max(n) ? VPUX_DPU_OP_MAXPOOL : VPUX_DPU_OP_AVGPOOL);
	vc_dpu_window(&q.d, &g, C, H, W, C, oh, ow);
	if (!is_max(n) && !global(n) && vc_attr_i(n, "count_include_pad", 0))
		q.d.flags |= VPUX_DPU_F_COUNT_PAD;
	yv = vc_fuse_act(c, &q, yv);
	y = vc_f16_out(c, yv, ORDER_NHWC);
	if (y < 0)
		return y;
	return vc_emit_dpu_items(c, node, &q, x, y, N, 0);
}

static int global_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	int64_t d[8];
	int i;

	if (!x || !y || x->rank < 3)
		return 0;
	for (i = 0; i < x->rank; i++)
		d[i] = i < 2 ? x->dims[i] : 1;
	vc_set_shape(y, x->dtype, x->rank, d);
	return 0;
}

static int pool_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	struct vc_conv_geom g;
	char why[128];
	int64_t d[4];
	bool extra;

	if (!x || !y || x->rank != 4 || !vc_known(x) ||
	    pool_geom(m, n, &g, &extra, why, sizeof(why)))
		return 0;
	d[0] = x->dims[0];
	d[1] = x->dims[1];
	d[2] = (x->dims[2] + g.pt + g.pb - (g.dh * (g.kh - 1) + 1)) / g.sh + 1;
	d[3] = (x->dims[3] + g.pl + g.pr - (g.dw * (g.kw - 1) + 1)) / g.sw + 1;
	if (d[2] > 0 && d[3] > 0)
		vc_set_shape(y, x->dtype, 4, d);
	return 0;
}

#define POOL(name) { "", name, 1, 0, pool_infer, pool_npu, pool_lower }

const struct vc_op vc_ops_pool[] = {
	POOL("MaxPool"), POOL("AveragePool"),
	{ "", "GlobalAveragePool", 1, 0, global_infer, pool_npu, pool_lower },
	{ "", "GlobalMaxPool", 1, 0, global_infer, pool_npu, pool_lower },
	{ 0 }
};
