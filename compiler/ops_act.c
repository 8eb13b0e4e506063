// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "activations": element-wise functions of one tensor. Relu,
 * Clip and LeakyRelu right after a DPU op become its activation stage
 * (vc_fuse_act()); everything else is one SHAVE UNARY kernel (PRelu: a
 * DPU ADD of +0 with per-channel LEAKY slopes on a 4-D tensor).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"

/* the only consumer of value @v (node index), or -1 */
int vc_sole_use(const struct vpuxc_model *m, const struct vc_value *v)
{
	int vi = (int)(v - m->v), k = -1;
	unsigned int i, j, uses = 0;

	if (v->flags & VC_V_OUTPUT)
		return -1;
	for (i = 0; i < m->n_n; i++)
		for (j = 0; j < m->n[i].n_in; j++)
			if (m->n[i].in[j] == vi) {
				uses++;
				k = (int)i;
			}
	return uses == 1 ? k : -1;
}

/* the bounds of a Clip (attributes before opset 11, inputs after) */
int vc_clip_bounds(const struct vpuxc_model *m, const struct vc_node *n,
		   float *lo, float *hi)
{
	const struct vc_value *a = n->n_in > 1 ? vc_in(m, n, 1) : NULL;
	const struct vc_value *b = n->n_in > 2 ? vc_in(m, n, 2) : NULL;

	*lo = vc_attr_f(n, "min", -INFINITY);
	*hi = vc_attr_f(n, "max", INFINITY);
	if ((a && !a->cst) || (b && !b->cst))
		return -1;
	if (a && vpuxc_tensor_count(a->cst) == 1)
		*lo = (float)vc_cst_f(a->cst, 0);
	if (b && vpuxc_tensor_count(b->cst) == 1)
		*hi = (float)vc_cst_f(b->cst, 0);
	return isnan(*lo) || isnan(*hi) || *lo > *hi ? -1 : 0;
}

/*
 * Relu, Clip or LeakyRelu as the only use of DPU op result @y: into the
 * op's output stage @q (whose act is still NONE). Returns the value the
 * op then produces (the activation's output) and marks that node done.
 */
const struct vc_value *vc_fuse_act(struct lctx *c, struct qdpu *q,
				   const struct vc_value *y)
{
	int k = vc_sole_use(c->m, y);
	const struct vc_node *n;
	float lo, hi;

	if (k < 0 || q->d.f.act != VPUX_DPU_ACT_NONE)
		return y;
	n = &c->m->n[k];
	if (*n->domain && strcmp(n->domain, "ai.onnx"))
		return y;
	if (!strcmp(n->op, "Relu")) {
		q->d.f.act = VPUX_DPU_ACT_RELU;
	} else if (!strcmp(n->op, "Clip")) {
		if (vc_clip_bounds(c->m, n, &lo, &hi))
			return y;
		if (lo == 0 && isinf(hi) && hi > 0) {
			q->d.f.act = VPUX_DPU_ACT_RELU;
		} else {
			q->d.f.act = VPUX_DPU_ACT_CLAMP;
			q->d.f.clamp_lo = vc_f32_bits(lo == 0 ? 0.0f : lo);
			q->d.f.clamp_hi = vc_f32_bits(hi);
		}
	} else if (!strcmp(n->op, "LeakyRelu")) {
		float a = vc_attr_f(n, "alpha", 0.01f);

		if (!isfinite(a))
			return y;
		q->d.f.act = VPUX_DPU_ACT_LEAKY;
		q->d.f.slope = vc_f32_bits(a);
	} else {
		return y;
	}
	c->done[k] = true;
	return vc_out(c->m, n, 0);
}

/* SHAVE UNARY (@args: " func=..."): @xv's value into @yv's, same layout */
int vc_unary(struct lctx *c, int node, const struct vc_value *xv,
	     const struct vc_value *yv, const char *args)
{
	struct qprog *p = c->p;
	int x = vc_f16(c, node, xv), y, ts[2], r;

	if (x < 0)
		return x;
	x = vc_f16_shave_in(c, node, x);
	if (x < 0)
		return x;
	y = vc_f16_out(c, yv, p->t[x].order);
	if (y < 0)
		return y;
	p->t[y].order = p->t[x].order;
	ts[0] = x;
	ts[1] = y;
	r = vc_shave_f(c, node, ts, 2, "unary in=t%d out=t%d%s", x, y, args);
	return r < 0 ? r : 0;
}

static const char *func_of(const struct vc_node *n)
{
	static const char *const map[][2] = {
		{ "Sigmoid", "sigmoid" }, { "Tanh", "tanh" }, { "Erf", "erf" },
		{ "Exp", "exp" }, { "Log", "log" }, { "Sqrt", "sqrt" },
		{ "Reciprocal", "recip" }, { "Neg", "neg" }, { "Abs", "abs" },
		{ "Relu", "relu" }, { "HardSwish", "hard_swish" },
		{ "Silu", "silu" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(n->op, map[i][0]))
			return map[i][1];
	return NULL;
}

static const char *act_npu(const struct vpuxc_model *m,
			   const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0);
	float lo, hi;

	if (!x || !vc_out(m, n, 0)) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (x->dtype != VPUXC_FLOAT && x->dtype != 10) {
		snprintf(buf, len, "input '%s' is %s, not float", x->name,
			 vpuxc_dtype_name(x->dtype));
		return buf;
	}
	if (!strcmp(n->op, "Clip") && vc_clip_bounds(m, n, &lo, &hi)) {
		snprintf(buf, len, "Clip bounds are not constants with min <= max");
		return buf;
	}
	if (!strcmp(n->op, "Gelu")) {
		const char *a = vc_attr_s(n, "approximate", "none");

		if (strcmp(a, "none") && strcmp(a, "tanh")) {
			snprintf(buf, len, "approximate='%s' (none or tanh)", a);
			return buf;
		}
	}
	if (!strcmp(n->op, "PRelu")) {
		const struct vc_value *s = vc_in(m, n, 1);

		if (!s || !s->cst) {
			snprintf(buf, len, "slope is not a constant");
			return buf;
		}
	}
	return NULL;
}

static int act_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *x = vc_in(c->m, n, 0), *y = vc_out(c->m, n, 0);
	const char *f = func_of(n);
	char args[160];
	float lo, hi;

	if (f) {
		snprintf(args, sizeof(args), " func=%s", f);
	} else if (!strcmp(n->op, "Clip")) {
		vc_clip_bounds(c->m, n, &lo, &hi);
		snprintf(args, sizeof(args), " func=clip alpha=%a beta=%a",
			 (double)lo, (double)hi);
	} else if (!strcmp(n->op, "LeakyRelu")) {
		snprintf(args, sizeof(args), " func=leaky_relu alpha=%a",
			 (double)vc_attr_f(n, "alpha", 0.01f));
	} else if (!strcmp(n->op, "HardSigmoid")) {
		snprintf(args, sizeof(args), " func=hard_sigmoid alpha=%a beta=%a",
			 (double)vc_attr_f(n, "alpha", 0.2f),
			 (double)vc_attr_f(n, "beta", 0.5f));
	} else if (!strcmp(n->op, "Gelu")) {
		snprintf(args, sizeof(args), " func=%s",
			 strcmp(vc_attr_s(n, "approximate", "none"), "tanh") ?
			 "gelu_erf" : "gelu_tanh");
	} else {
		return VPUX_E_UNSUPPORTED;
	}
	return vc_unary(c, node, x, y, args);
}

/* PRelu: per-channel slopes on 4-D NHWC: DPU ADD +0 with LEAKY_CH */
static int prelu_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *sv = vc_in(c->m, n, 1);
	const struct vc_value *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	size_t ns, i;
	float *s = vc_cst_floats(sv, &ns), zero = 0, *rec;
	int64_t C, one = 1, rd[2];
	struct qdpu q;
	int x, y, z, r;

	if (!s)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (ns == 1) {
		char args[64];

		snprintf(args, sizeof(args), " func=leaky_relu alpha=%a",
			 (double)s[0]);
		free(s);
		return vc_unary(c, node, xv, yv, args);
	}
	C = xv->rank == 4 ? xv->dims[1] : 0;
	if (!C || (int64_t)ns != C || xv->dims[0] < 1) {
		free(s);
		vc_unsupported(p, n, "per-channel slopes need a 4-D input with one slope per channel");
		return VC_REPORTED;
	}
	rec = calloc((size_t)C * 4, sizeof(float));
	if (!rec) {
		free(s);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	for (i = 0; i < (size_t)C; i++)
		rec[4 * i + 2] = s[i];
	free(s);
	rd[0] = C;
	rd[1] = 4;
	r = vc_f32_const(c, 2, rd, rec);
	free(rec);
	z = vc_f16_const(c, 1, &one, &zero);
	x = vc_f16_nhwc(c, node, xv);
	if (r < 0 || z < 0 || x < 0)
		return r < 0 ? r : z < 0 ? z : x;
	y = vc_f16_out(c, yv, ORDER_NHWC);
	if (y < 0)
		return y;
	vc_fdpu_init(&q, VPUX_DPU_OP_ADD);
	q.d.flags |= VPUX_DPU_BCAST_SCALAR << VPUX_DPU_F_BCAST_SHIFT;
	q.d.in_c = q.d.out_c = (uint16_t)C;
	q.d.in_h = q.d.out_h = (uint16_t)xv->dims[2];
	q.d.in_w = q.d.out_w = (uint16_t)xv->dims[3];
	q.d.f.act = VPUX_DPU_ACT_LEAKY_CH;
	q.t[QD_IN2] = z;
	q.t[QD_QUANT] = r;
	return vc_emit_dpu_items(c, node, &q, x, y, xv->dims[0], 0);
}

/* an element-wise op's output: its input's shape */
int vc_same_shape(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);

	if (x && y && x->rank >= 0)
		vc_copy_shape(y, x, 0);
	return 0;
}

#define ACT(name, since) { "", name, since, 0, vc_same_shape, act_npu, act_lower }

const struct vc_op vc_ops_act[] = {
	ACT("Relu", 1), ACT("Clip", 1), ACT("LeakyRelu", 1),
	ACT("Sigmoid", 1), ACT("HardSigmoid", 1), ACT("HardSwish", 14),
	ACT("Tanh", 1), ACT("Erf", 9), ACT("Gelu", 1), ACT("Exp", 1),
	ACT("Log", 1), ACT("Sqrt", 1), ACT("Reciprocal", 1), ACT("Neg", 1),
	ACT("Abs", 1),
	{ "com.vpux", "Silu", 0, 0, vc_same_shape, act_npu, act_lower },
	{ "", "PRelu", 1, 0, vc_same_shape, act_npu, prelu_lower },
	{ 0 }
};
