// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "normalisation": Softmax, LogSoftmax, LayerNormalization and
 * the Reduce ops are SHAVE kernels (softmax_f, log_softmax_f, layernorm,
 * reduce: Documentation/compute-ops.rst, "FP16/FP32 kernels"), which
 * read any layout through their memrefs, so the input stays as it lies
 * (a 4-D activation in NHWC). Softmax before opset 13 normalises over
 * all dims from its axis on: the row-major input is then viewed as 2-D.
 * BatchNormalization (inference, when no graph pass folded it) and the
 * affine part of InstanceNormalization are a per-channel scale and shift:
 * on a 4-D (NHWC) or 2-D tensor one DPU ADD of +0 with per-channel
 * records {scale, shift, 0, 0} (VPUX_DPU_F_PER_CHANNEL), which also takes
 * a following Relu/Clip/LeakyRelu; on other ranks a SHAVE mul and add.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"
#include "vpux_shave_abi.h"

#define NORM_MAX_DIM	65535

static bool is_f(const struct vc_value *v)
{
	return v->dtype == VPUXC_FLOAT || v->dtype == 10;
}

/* output @i of @n is used (by a node or as a graph output) */
static bool out_used(const struct vpuxc_model *m, const struct vc_node *n,
		     unsigned int i)
{
	const struct vc_value *v = vc_out(m, n, i);

	return v && (v->n_uses || (v->flags & VC_V_OUTPUT));
}

/* the checks every op of the family shares; NULL or the reason */
static const char *x_npu(const struct vpuxc_model *m, const struct vc_node *n,
			 char *buf, size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);

	if (!x || !y) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (!is_f(x)) {
		snprintf(buf, len, "input '%s' is %s, not float", x->name,
			 vpuxc_dtype_name(x->dtype));
		return buf;
	}
	if (x->rank < 1 || !vc_numel(x)) {
		snprintf(buf, len, "input '%s' has no static shape (or is a scalar)",
			 x->name);
		return buf;
	}
	if (x->rank > (int)VPUX_MEMREF_MAX_RANK) {
		snprintf(buf, len, "rank %d above the SHAVE kernels' %u",
			 x->rank, VPUX_MEMREF_MAX_RANK);
		return buf;
	}
	return NULL;
}

/* the output's shape is known (after the op's own checks) */
static const char *y_npu(const struct vpuxc_model *m, const struct vc_node *n,
			 char *buf, size_t len)
{
	const struct vc_value *y = vc_out(m, n, 0);

	if (y->rank < 0 || (y->rank > 0 && !vc_numel(y))) {
		snprintf(buf, len, "output '%s' has no static shape", y->name);
		return buf;
	}
	return NULL;
}

/* @axis of a rank-@r tensor in 0..r-1, or -1 */
static int norm_axis(int64_t axis, int r)
{
	if (axis < 0)
		axis += r;
	return axis < 0 || axis >= r ? -1 : (int)axis;
}

/* output = input's shape (LogSoftmax, LayerNormalization, the BNs) */
static int same_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);

	if (!x || !y || x->rank < 0 || (x->rank > 0 && !vc_numel(x)))
		return 0;
	y->rank = x->rank;
	memcpy(y->dims, x->dims, sizeof(x->dims));
	y->dtype = x->dtype;
	return 0;
}

/* a new FP16 tensor of @v's dims in tensor @like's order */
static int out_like(struct lctx *c, const struct vc_value *v, int like)
{
	struct qprog *p = c->p;
	int y = vc_f16_out(c, v, p->t[like].order);

	if (y >= 0 && p->t[y].rank == p->t[like].rank)
		p->t[y].order = p->t[like].order;
	return y;
}

/* ---- Softmax, LogSoftmax ---- */

static int64_t sm_axis_attr(const struct vpuxc_model *m,
			    const struct vc_node *n)
{
	return vc_attr_i(n, "axis", m->opset < 13 ? 1 : -1);
}

static const char *sm_npu(const struct vpuxc_model *m,
			  const struct vc_node *n, char *buf, size_t len)
{
	const char *r = x_npu(m, n, buf, len);
	const struct vc_value *x = vc_in(m, n, 0);

	if (r)
		return r;
	if (norm_axis(sm_axis_attr(m, n), x->rank) < 0) {
		snprintf(buf, len, "axis %lld outside rank %d",
			 (long long)sm_axis_attr(m, n), x->rank);
		return buf;
	}
	return y_npu(m, n, buf, len);
}

static int sm_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *yv = vc_out(c->m, n, 0);
	const char *k = strcmp(n->op, "Softmax") ? "log_softmax_f" : "softmax_f";
	int axis = norm_axis(sm_axis_attr(c->m, n), xv->rank), x, y, ts[2], r, i;
	struct qprog *p = c->p;
	int64_t inner = 1, d2[2];

	for (i = axis + 1; i < xv->rank; i++)
		inner *= xv->dims[i];
	if (c->m->opset >= 13 || inner == 1) {
		/* one axis, any layout */
		x = vc_f16(c, node, xv);
		if (x < 0)
			return x;
		x = vc_f16_shave_in(c, node, x);
		if (x < 0)
			return x;
		y = out_like(c, yv, x);
		if (y < 0)
			return y;
	} else {
		/* before opset 13: [prod(dims[..axis)), prod(dims[axis..])] */
		int xt, yt;

		x = vc_f16_rowmajor(c, node, xv);
		if (x < 0)
			return x;
		if (p->t[x].order != vpux_order_default(p->t[x].rank).code) {
			vc_unsupported(p, n, "input '%s' is not in row-major order",
				       xv->name);
			return VC_REPORTED;
		}
		x = vc_f16_shave_in(c, node, x);
		if (x < 0)
			return x;
		y = vc_f16_out(c, yv, 0);
		if (y < 0)
			return y;
		d2[0] = (int64_t)vc_numel(xv) / (inner * xv->dims[axis]);
		d2[1] = inner * xv->dims[axis];
		xt = vc_view_at(c, x, 0, 2, d2, 0);
		yt = vc_view_at(c, y, 0, 2, d2, 0);
		if (xt < 0 || yt < 0)
			return xt < 0 ? xt : yt;
		x = xt;
		y = yt;
		axis = 1;
	}
	ts[0] = x;
	ts[1] = y;
	r = vc_shave_f(c, node, ts, 2, "%s in=t%d out=t%d axis=%d", k, x, y,
		       axis);
	return r < 0 ? r : 0;
}

/* ---- LayerNormalization ---- */

static const char *ln_npu(const struct vpuxc_model *m,
			  const struct vc_node *n, char *buf, size_t len)
{
	const char *r = x_npu(m, n, buf, len);
	const struct vc_value *x = vc_in(m, n, 0), *s = vc_in(m, n, 1);
	const struct vc_value *b = n->n_in > 2 ? vc_in(m, n, 2) : NULL;
	int64_t axis = vc_attr_i(n, "axis", -1);
	float eps = vc_attr_f(n, "epsilon", 1e-5f);
	int a, i;
	int64_t group = 1;

	if (r)
		return r;
	a = norm_axis(axis, x->rank);
	if (a < 0) {
		snprintf(buf, len, "axis %lld outside rank %d", (long long)axis,
			 x->rank);
		return buf;
	}
	if (!isfinite(eps) || eps < 0) {
		snprintf(buf, len, "epsilon %g (finite, >= 0)", (double)eps);
		return buf;
	}
	if (out_used(m, n, 1) || out_used(m, n, 2)) {
		snprintf(buf, len, "outputs Mean and InvStdDev (training) are not computed");
		return buf;
	}
	for (i = a; i < x->rank; i++)
		group *= x->dims[i];
	if (!s || !is_f(s) || (int64_t)vc_numel(s) != group ||
	    (b && (!is_f(b) || (int64_t)vc_numel(b) != group))) {
		snprintf(buf, len, "Scale and B must be float with the %lld elements of the normalized dims",
			 (long long)group);
		return buf;
	}
	return y_npu(m, n, buf, len);
}

/* float value @v (Scale or B) as a SHAVE-readable tensor of @rank @dims */
static int ln_param(struct lctx *c, int node, const struct vc_value *v,
		    unsigned int rank, const int64_t *dims)
{
	struct qprog *p = c->p;
	int t = vc_f16_rowmajor(c, node, v);
	unsigned int i;
	bool same;

	if (t < 0)
		return t;
	t = vc_f16_shave_in(c, node, t);
	if (t < 0)
		return t;
	same = p->t[t].rank == rank;
	for (i = 0; same && i < rank; i++)
		same = p->t[t].dims[i] == dims[i];
	if (same)
		return t;
	if (p->t[t].order != vpux_order_default(p->t[t].rank).code) {
		vc_unsupported(p, &c->m->n[node], "'%s' is not in row-major order",
			       v->name);
		return VC_REPORTED;
	}
	return vc_view_at(c, t, 0, rank, dims, 0);
}

static int ln_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *sv = vc_in(c->m, n, 1);
	const struct vc_value *bv = n->n_in > 2 ? vc_in(c->m, n, 2) : NULL;
	const struct vc_value *yv = vc_out(c->m, n, 0);
	int axis = norm_axis(vc_attr_i(n, "axis", -1), xv->rank);
	float eps = vc_attr_f(n, "epsilon", 1e-5f);
	unsigned int gr = (unsigned int)(xv->rank - axis);
	int x, s, b = -1, y, ts[4], nt = 0, r;
	char bias[32] = "";

	x = vc_f16(c, node, xv);
	if (x < 0)
		return x;
	x = vc_f16_shave_in(c, node, x);
	if (x < 0)
		return x;
	s = ln_param(c, node, sv, gr, xv->dims + axis);
	if (s < 0)
		return s;
	if (bv) {
		b = ln_param(c, node, bv, gr, xv->dims + axis);
		if (b < 0)
			return b;
		snprintf(bias, sizeof(bias), " bias=t%d", b);
		ts[nt++] = b;
	}
	y = out_like(c, yv, x);
	if (y < 0)
		return y;
	ts[nt++] = x;
	ts[nt++] = s;
	ts[nt++] = y;
	r = vc_shave_f(c, node, ts, (unsigned int)nt,
		       "layernorm in=t%d scale=t%d%s out=t%d axis=%d epsilon=%a",
		       x, s, bias, y, axis, (double)eps);
	return r < 0 ? r : 0;
}

/* ---- ReduceMean, ReduceSum, ReduceMax, ReduceMin ---- */

/* axes from the input (from opset 18; ReduceSum 13) */
static bool axes_input(const struct vpuxc_model *m, const struct vc_node *n)
{
	return m->opset >= (strcmp(n->op, "ReduceSum") ? 18 : 13);
}

/*
 * The reduced dims of @n as a bitmask of logical dims (0: none, the
 * node is the identity), or -1 (reason in @buf).
 */
static int reduce_mask(const struct vpuxc_model *m, const struct vc_node *n,
		       char *buf, size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0);
	int64_t ax[VPUXC_MAX_RANK];
	int na = 0, i, mask = 0;

	if (axes_input(m, n)) {
		const struct vc_value *a = n->n_in > 1 ? vc_in(m, n, 1) : NULL;

		if (a && !a->cst) {
			snprintf(buf, len, "axes '%s' are not a constant", a->name);
			return -1;
		}
		if (a) {
			size_t k = vpuxc_tensor_count(a->cst);

			if (k > VPUXC_MAX_RANK) {
				snprintf(buf, len, "%zu axes", k);
				return -1;
			}
			for (i = 0; i < (int)k; i++)
				ax[i] = vc_cst_i(a->cst, (size_t)i);
			na = (int)k;
		}
	} else {
		na = vc_attr_ints(n, "axes", ax, VPUXC_MAX_RANK);
		if (na < 0) {
			snprintf(buf, len, "attribute axes is not a list of ints");
			return -1;
		}
	}
	if (!na)
		return vc_attr_i(n, "noop_with_empty_axes", 0) ? 0 :
		       (1 << x->rank) - 1;
	for (i = 0; i < na; i++) {
		int a = norm_axis(ax[i], x->rank);

		if (a < 0 || (mask & (1 << a))) {
			snprintf(buf, len, "axis %lld outside rank %d or given twice",
				 (long long)ax[i], x->rank);
			return -1;
		}
		mask |= 1 << a;
	}
	return mask;
}

static int reduce_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	int keep = (int)vc_attr_i(n, "keepdims", 1), mask, i, r = 0;
	char buf[128];

	if (!x || !y || x->rank < 1 || !vc_numel(x))
		return 0;
	mask = reduce_mask(m, n, buf, sizeof(buf));
	if (mask < 0)
		return 0;
	for (i = 0; i < x->rank; i++) {
		if (!(mask & (1 << i)))
			y->dims[r++] = x->dims[i];
		else if (keep)
			y->dims[r++] = 1;
	}
	y->rank = r;
	y->dtype = x->dtype;
	return 0;
}

static const char *reduce_npu(const struct vpuxc_model *m,
			      const struct vc_node *n, char *buf, size_t len)
{
	const char *r = x_npu(m, n, buf, len);

	if (r)
		return r;
	return reduce_mask(m, n, buf, len) < 0 ? buf : y_npu(m, n, buf, len);
}

static int reduce_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *yv = vc_out(c->m, n, 0);
	int keep = (int)vc_attr_i(n, "keepdims", 1), mask, x, y, o, ts[2], r, i;
	const char *f = !strcmp(n->op, "ReduceSum") ? "sum" :
			!strcmp(n->op, "ReduceMean") ? "mean" :
			!strcmp(n->op, "ReduceMax") ? "max" : "min";
	struct qprog *p = c->p;
	char buf[160], axes[64] = "";
	int64_t kd[VPUXC_MAX_RANK];

	mask = reduce_mask(c->m, n, buf, sizeof(buf));
	if (mask < 0) {
		vc_unsupported(p, n, "%s", buf);
		return VC_REPORTED;
	}
	x = vc_f16(c, node, xv);
	if (x < 0)
		return x;
	if (!mask) {	/* noop_with_empty_axes: a copy */
		y = out_like(c, yv, x);
		return y < 0 ? y : vc_copy(c, node, x, y);
	}
	x = vc_f16_shave_in(c, node, x);
	if (x < 0)
		return x;
	for (i = 0; i < xv->rank; i++) {
		kd[i] = mask & (1 << i) ? 1 : xv->dims[i];
		if (mask & (1 << i))
			snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes),
				 "%s%d", *axes ? "," : "", i);
	}
	if (keep) {
		y = o = out_like(c, yv, x);
	} else {
		/* the kernel writes the kept rank; the value drops the 1s */
		y = vc_f16_out(c, yv, 0);
		o = y < 0 ? y : vc_view_at(c, y, 0, (unsigned int)xv->rank, kd, 0);
	}
	if (o < 0)
		return o;
	ts[0] = x;
	ts[1] = o;
	r = vc_shave_f(c, node, ts, 2, "reduce in=t%d out=t%d func=%s axes=%s",
		       x, o, f, axes);
	return r < 0 ? r : 0;
}

/* ---- per-channel scale and shift (BatchNormalization, InstanceNorm) ---- */

/*
 * y = x * s[ch] + sh[ch] along dim 1 of tensor @x (value @xv's dims)
 * into value @yv: a DPU ADD of +0 with per-channel records on a 4-D
 * NHWC or a 2-D tensor (a following activation fused), else SHAVE
 * binary mul and add with [C, 1, ...] constants.
 */
static int chan_affine(struct lctx *c, int node, int x,
		       const struct vc_value *xv, const float *s,
		       const float *sh, const struct vc_value *yv)
{
	struct qprog *p = c->p;
	int64_t C = xv->dims[1], N = xv->dims[0], one = 1, rd[2], i;
	int r, y, ret;

	if (xv->rank == 4 || xv->rank == 2) {
		int64_t H = xv->rank == 4 ? xv->dims[2] : 1,
			W = xv->rank == 4 ? xv->dims[3] : 1, rows, r0, cnt;
		float *rec = calloc((size_t)C * 4, sizeof(float)), zero = 0;
		struct qdpu q;
		int z;

		if (!rec)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		for (i = 0; i < C; i++) {
			rec[4 * i] = s[i];
			rec[4 * i + 1] = sh[i];
		}
		rd[0] = C;
		rd[1] = 4;
		r = vc_f32_const(c, 2, rd, rec);
		free(rec);
		if (r < 0)
			return r;
		z = vc_f16_const(c, 1, &one, &zero);
		if (z < 0)
			return z;
		x = vc_as_nhwc(c, node, x);
		if (x < 0)
			return x;
		vc_fdpu_init(&q, VPUX_DPU_OP_ADD);
		q.d.flags |= VPUX_DPU_BCAST_SCALAR << VPUX_DPU_F_BCAST_SHIFT |
			     VPUX_DPU_F_PER_CHANNEL;
		yv = vc_fuse_act(c, &q, yv);
		y = vc_f16_out(c, yv, ORDER_NHWC);
		if (y < 0)
			return y;
		/* NHWC: N * H rows of W pixels of C channels */
		rows = N * H;
		for (r0 = 0; r0 < rows; r0 += cnt) {
			struct qdpu w = q;
			uint64_t rb = (uint64_t)(W * C * 2);

			cnt = rows - r0 < NORM_MAX_DIM ? rows - r0 : NORM_MAX_DIM;
			w.d.in_c = w.d.out_c = (uint16_t)C;
			w.d.in_h = w.d.out_h = (uint16_t)cnt;
			w.d.in_w = w.d.out_w = (uint16_t)W;
			w.t[QD_IN] = x;
			w.off[QD_IN] = (uint64_t)r0 * rb;
			w.len[QD_IN] = (uint64_t)cnt * rb;
			w.t[QD_IN2] = z;
			w.t[QD_QUANT] = r;
			w.t[QD_OUT] = y;
			w.off[QD_OUT] = (uint64_t)r0 * rb;
			w.len[QD_OUT] = (uint64_t)cnt * rb;
			ret = vc_emit_dpu(p, node, &w);
			if (ret < 0)
				return ret;
		}
		return 0;
	}
	{	/* other ranks: SHAVE mul, add with [C, 1, ..] constants */
		int64_t d[VPUXC_MAX_RANK];
		int st, ht, tmp, ts[3];

		d[0] = C;
		for (i = 1; i < xv->rank - 1; i++)
			d[i] = 1;
		st = vc_f16_const(c, (unsigned int)xv->rank - 1, d, s);
		ht = vc_f16_const(c, (unsigned int)xv->rank - 1, d, sh);
		if (st < 0 || ht < 0)
			return st < 0 ? st : ht;
		st = vc_f16_shave_in(c, node, st);
		ht = st < 0 ? st : vc_f16_shave_in(c, node, ht);
		x = ht < 0 ? ht : vc_f16_shave_in(c, node, x);
		if (x < 0)
			return x;
		tmp = vc_f16_new(c, p->t[x].rank, p->t[x].dims, p->t[x].order);
		if (tmp < 0)
			return tmp;
		p->t[tmp].order = p->t[x].order;
		ts[0] = x;
		ts[1] = st;
		ts[2] = tmp;
		ret = vc_shave_f(c, node, ts, 3,
				 "binary in=t%d in2=t%d out=t%d func=mul", x, st,
				 tmp);
		if (ret < 0)
			return ret;
		y = out_like(c, yv, x);
		if (y < 0)
			return y;
		ts[0] = tmp;
		ts[1] = ht;
		ts[2] = y;
		ret = vc_shave_f(c, node, ts, 3,
				 "binary in=t%d in2=t%d out=t%d func=add", tmp,
				 ht, y);
		return ret < 0 ? ret : 0;
	}
}

/* constant input @i of @n with @cnt values, or NULL */
static float *cst_vec(const struct vpuxc_model *m, const struct vc_node *n,
		      unsigned int i, int64_t cnt)
{
	const struct vc_value *v = vc_in(m, n, i);
	size_t k;
	float *f;

	if (!v || !v->cst || (int64_t)vpuxc_tensor_count(v->cst) != cnt)
		return NULL;
	f = vc_cst_floats(v, &k);
	return f;
}

static const char *bn_npu(const struct vpuxc_model *m,
			  const struct vc_node *n, char *buf, size_t len)
{
	const char *r = x_npu(m, n, buf, len);
	const struct vc_value *x = vc_in(m, n, 0);
	bool inst = !strcmp(n->op, "InstanceNormalization");
	unsigned int i;
	int64_t C;

	if (r)
		return r;
	if (x->rank < (inst ? 3 : 2) || x->dims[1] > NORM_MAX_DIM) {
		snprintf(buf, len, "input of rank %d (at least %d) or above %d channels",
			 x->rank, inst ? 3 : 2, NORM_MAX_DIM);
		return buf;
	}
	C = x->dims[1];
	if (vc_attr_i(n, "training_mode", 0) || !vc_attr_i(n, "spatial", 1) ||
	    out_used(m, n, 1) || out_used(m, n, 2) || out_used(m, n, 3) ||
	    out_used(m, n, 4)) {
		snprintf(buf, len, "training mode (running statistics) or spatial=0");
		return buf;
	}
	for (i = 1; i < (inst ? 3u : 5u); i++) {
		const struct vc_value *v = vc_in(m, n, i);

		if (!v || !v->cst || (int64_t)vpuxc_tensor_count(v->cst) != C) {
			snprintf(buf, len, "input %u is not a constant of %lld values",
				 i, (long long)C);
			return buf;
		}
	}
	if (!isfinite(vc_attr_f(n, "epsilon", 1e-5f)) ||
	    vc_attr_f(n, "epsilon", 1e-5f) < 0) {
		snprintf(buf, len, "epsilon (finite, >= 0)");
		return buf;
	}
	return y_npu(m, n, buf, len);
}

static int bn_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *yv = vc_out(c->m, n, 0);
	double eps = vc_attr_f(n, "epsilon", 1e-5f);
	int64_t C = xv->dims[1], i;
	float *g = cst_vec(c->m, n, 1, C), *b = cst_vec(c->m, n, 2, C);
	float *mu = cst_vec(c->m, n, 3, C), *var = cst_vec(c->m, n, 4, C);
	float *s = malloc(sizeof(float) * (size_t)C * 2);
	int x, r = VPUX_E_NOMEM;

	if (!g || !b || !mu || !var || !s) {
		r = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	for (i = 0; i < C; i++) {
		double k = g[i] / sqrt((double)var[i] + eps);

		s[i] = (float)k;
		s[C + i] = (float)(b[i] - mu[i] * k);
	}
	x = xv->rank == 4 ? vc_f16_nhwc(c, node, xv) : vc_f16(c, node, xv);
	r = x < 0 ? x : chan_affine(c, node, x, xv, s, s + C, yv);
out:
	free(g);
	free(b);
	free(mu);
	free(var);
	free(s);
	return r;
}

/* InstanceNormalization: layernorm over dims 2.. , then scale and B */
static int in_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *yv = vc_out(c->m, n, 0);
	float eps = vc_attr_f(n, "epsilon", 1e-5f);
	int64_t C = xv->dims[1];
	float *g = cst_vec(c->m, n, 1, C), *b = cst_vec(c->m, n, 2, C);
	struct qprog *p = c->p;
	int x, t, ts[2], r;

	if (!g || !b) {
		r = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	x = xv->rank == 4 ? vc_f16_nhwc(c, node, xv) : vc_f16(c, node, xv);
	x = x < 0 ? x : vc_f16_shave_in(c, node, x);
	if (x < 0) {
		r = x;
		goto out;
	}
	t = vc_f16_new(c, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (t < 0) {
		r = t;
		goto out;
	}
	p->t[t].order = p->t[x].order;
	ts[0] = x;
	ts[1] = t;
	r = vc_shave_f(c, node, ts, 2, "layernorm in=t%d out=t%d axis=2 epsilon=%a",
		       x, t, (double)eps);
	if (r >= 0)
		r = chan_affine(c, node, t, xv, g, b, yv);
out:
	free(g);
	free(b);
	return r < 0 ? r : 0;
}

#define RED(name, since) { "", name, since, 0, reduce_infer, reduce_npu, reduce_lower }

const struct vc_op vc_ops_norm[] = {
	{ "", "Softmax", 1, 0, NULL, sm_npu, sm_lower },
	{ "", "LogSoftmax", 1, 0, same_infer, sm_npu, sm_lower },
	{ "", "LayerNormalization", 17, 0, same_infer, ln_npu, ln_lower },
	RED("ReduceMean", 1), RED("ReduceSum", 1), RED("ReduceMax", 1),
	RED("ReduceMin", 1),
	{ "", "BatchNormalization", 7, 0, same_infer, bn_npu, bn_lower },
	{ "", "InstanceNormalization", 6, 0, same_infer, bn_npu, in_lower },
	{ 0 }
};
