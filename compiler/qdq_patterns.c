// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The DequantizeLinear -> op -> QuantizeLinear fusion as a pattern table
 * (Documentation/compiler.rst, "Adding an op": a QDQ pattern).
 *
 * In a QDQ model a float op whose inputs are DequantizeLinear results
 * (quantized views, lower.c) is not lowered when it is met: it is
 * *pending* (struct pend). A Relu or Clip after it narrows its output
 * clamp; the QuantizeLinear that consumes it gives the output's scale,
 * zero point and type, and only then is it lowered to one int8 NPU op.
 * A pending result that no QuantizeLinear takes runs in FP16 through the
 * op registry instead.
 *
 * vcq_patterns[] says, per core op, which inputs must come through a
 * DequantizeLinear and with which quantization, whether a QuantizeLinear
 * must follow, whether a Relu/Clip may sit between the op and it, and
 * the lowering it maps to. One matcher walks it: vcq_pattern_of() finds
 * the row, vcq_pattern_pend() checks the inputs when the op is met,
 * vcq_pattern_act() folds an activation, vcq_pattern_fuse() checks the
 * constants and lowers when the QuantizeLinear comes, and
 * vcq_pattern_float() says whether the result may stay float.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_q.h"

/* ---- the lowerings the rows map to ---- */

static int qp_conv(struct lctx *c, int k, const struct vc_value *yv,
		   const struct vcq_qout *o)
{
	const struct vc_node *n = &c->m->n[k];
	int x = vc_vq_of(c, vc_in(c->m, n, 0));
	struct conv_args a;
	struct qconst *w = malloc(sizeof(*w));
	const struct vc_value *wv = vc_in(c->m, n, 1);
	int r;

	if (!w)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	memset(&a, 0, sizeof(a));
	a.x = x;
	a.sx = c->p->t[x].scale;
	a.bias = vc_in(c->m, n, 2);
	a.sy = o->s;
	a.zy = o->zp;
	a.dty = o->dt;
	a.lo = o->lo;
	a.hi = o->hi;
	a.alpha = 1;
	if (wv && vc_vq_of(c, wv) >= 0) {
		a.wt = vc_vq_of(c, wv);
		a.sw1 = c->p->t[a.wt].scale;
		a.wzp1 = c->p->t[a.wt].zp;
		r = vcq_lower_conv(c, k, yv, &a);
	} else if (wv && !vcq_qconst_of(c, wv, w) && w->n) {
		a.w = w;
		r = vcq_lower_conv(c, k, yv, &a);
	} else {
		vc_unsupported(c->p, n, "weights are not a quantized constant (DequantizeLinear of an integer initializer)");
		r = -1;
	}
	free(w);
	return r;
}

static int qp_matmul(struct lctx *c, int k, const struct vc_value *yv,
		     const struct vcq_qout *o)
{
	const struct vc_node *n = &c->m->n[k];
	int x = vc_vq_of(c, vc_in(c->m, n, 0));
	struct mm_args *m = calloc(1, sizeof(*m));
	int r, gemm = !strcmp(n->op, "Gemm");

	if (!m)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (gemm && vc_attr_i(n, "transA", 0)) {
		vc_unsupported(c->p, n, "transA=1 is not supported");
		free(m);
		return -1;
	}
	m->a = x;
	m->sa = c->p->t[x].scale;
	m->za = c->p->t[x].zp;
	m->bv = vc_in(c->m, n, 1);
	m->transb = gemm ? (int)vc_attr_i(n, "transB", 0) : 0;
	m->bias = gemm ? vc_in(c->m, n, 2) : NULL;
	m->alpha = gemm ? vc_attr_f(n, "alpha", 1.0f) : 1.0;
	m->beta = gemm ? vc_attr_f(n, "beta", 1.0f) : 1.0;
	m->sy = o->s;
	m->zy = o->zp;
	m->dty = o->dt;
	m->lo = o->lo;
	m->hi = o->hi;
	if (!(m->alpha > 0) || (m->bias && !(m->beta > 0))) {
		vc_unsupported(c->p, n, "alpha and beta must be positive");
		free(m);
		return -1;
	}
	r = vcq_lower_matmul(c, k, yv, m);
	free(m);
	return r;
}

static int qp_eltwise(struct lctx *c, int k, const struct vc_value *yv,
		      const struct vcq_qout *o)
{
	return vcq_lower_eltwise(c, k, yv, o->s, o->zp, o->dt, o->lo, o->hi);
}

static int qp_pool(struct lctx *c, int k, const struct vc_value *yv,
		   const struct vcq_qout *o)
{
	int x = vc_vq_of(c, vc_in(c->m, &c->m->n[k], 0));

	return vcq_lower_pool(c, k, yv, x, o->s, o->zp, o->dt, o->lo, o->hi);
}

/* a SHAVE activation, then the folded Relu/Clip as a raw clamp */
static int qp_act(struct lctx *c, int k, const struct vc_value *yv,
		  const struct vcq_qout *o)
{
	int x = vc_vq_of(c, vc_in(c->m, &c->m->n[k], 0));
	int32_t amin, amax;
	int y;

	if (vcq_lower_act(c, k, yv, x, o->s, o->zp, o->dt))
		return -1;
	if (vcq_clamp_q(o->lo, o->hi, o->s, o->zp, o->dt, &amin, &amax)) {
		vc_unsupported(c->p, &c->m->n[k], "the output clamp is empty");
		return -1;
	}
	y = vcq_clamp_raw(c, k, vc_vq_of(c, yv), amin, amax);
	if (y < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
}

/* ---- the table ---- */

#define ACT		{ VCQ_IN_ACT, VCQ_Q_TENSOR, VCQ_T_I8 | VCQ_T_U8, VCQ_ZP_ANY }
#define OPERAND		{ VCQ_IN_OPERAND, VCQ_Q_TENSOR, \
			  VCQ_T_I8 | VCQ_T_U8 | VCQ_T_FLOAT, VCQ_ZP_ANY }
#define WEIGHT		{ VCQ_IN_WEIGHT, VCQ_Q_TENSOR | VCQ_Q_CHANNEL, \
			  VCQ_T_I8 | VCQ_T_U8, VCQ_ZP_ANY }
#define BIAS		{ VCQ_IN_BIAS, VCQ_Q_TENSOR | VCQ_Q_CHANNEL, \
			  VCQ_T_I32 | VCQ_T_FLOAT, VCQ_ZP_ANY }
/* every row: a Relu/Clip may sit before the QuantizeLinear, which may be
 * missing (the result then runs in FP16 through the registry) */
#define FUSE		(VCQ_P_ACT | VCQ_P_FLOAT)

const struct vcq_pattern vcq_patterns[] = {
	{ "", "Conv",		   { ACT, WEIGHT, BIAS }, FUSE, qp_conv },
	{ "", "MatMul",		   { ACT, WEIGHT },	  FUSE, qp_matmul },
	{ "", "Gemm",		   { ACT, WEIGHT, BIAS }, FUSE, qp_matmul },
	{ "", "Add",		   { OPERAND, OPERAND },  FUSE, qp_eltwise },
	{ "", "Mul",		   { OPERAND, OPERAND },  FUSE, qp_eltwise },
	{ "", "AveragePool",	   { ACT },		  FUSE, qp_pool },
	{ "", "GlobalAveragePool", { ACT },		  FUSE, qp_pool },
	{ "", "Softmax",	   { ACT },		  FUSE, qp_act },
	{ "", "Sigmoid",	   { ACT },		  FUSE, qp_act },
	{ "", "Tanh",		   { ACT },		  FUSE, qp_act },
	{ 0 }
};

/* ---- the matcher ---- */

const struct vcq_pattern *vcq_pattern_of(const struct vpuxc_model *m,
					 const struct vc_node *n)
{
	const struct vcq_pattern *p;

	(void)m;
	for (p = vcq_patterns; p->op; p++)
		if (!strcmp(p->op, n->op) &&
		    (!strcmp(p->domain, n->domain) ||
		     (!*p->domain && !strcmp(n->domain, "ai.onnx"))))
			return p;
	return NULL;
}

static int is_dq(const struct lctx *c, const struct vc_value *v)
{
	return v->producer >= 0 &&
	       !strcmp(c->m->n[v->producer].op, "DequantizeLinear");
}

/*
 * The op @k of row @pat is met: every runtime input must be a quantized
 * view (a constant, or DequantizeLinear of one, is read when lowering);
 * an activation input must be a view. Then the op is pending.
 */
int vcq_pattern_pend(struct lctx *c, int k, const struct vcq_pattern *pat)
{
	const struct vc_node *n = &c->m->n[k];
	const struct vc_value *y = vc_out(c->m, n, 0);
	unsigned int i;

	for (i = 0; i < n->n_in; i++) {
		const struct vc_value *v = vc_in(c->m, n, i);

		if (!v || v->cst)
			continue;
		if (c->pend[v - c->m->v].node >= 0) {
			vc_unsupported(c->p, n, "input '%s' is the float result of '%s', not quantized in between",
				       v->name,
				       c->m->n[c->pend[v - c->m->v].node].name);
			return -1;
		}
		if (!vc_is_float(v) || vc_vq_of(c, v) < 0) {
			if (!vc_is_float(v))
				vc_unsupported(c->p, n, "integer input '%s' (the NPU runs this op on quantized views)",
					       v->name);
			else if (is_dq(c, v))
				continue;	/* DQ of a constant */
			else
				vc_unsupported(c->p, n, "input '%s' is a float value that is not dequantized from a quantized tensor",
					       v->name);
			return -1;
		}
	}
	for (i = 0; i < VCQ_MAX_IN; i++) {
		const struct vc_value *v = vc_in(c->m, n, i);

		if (pat->in[i].role != VCQ_IN_ACT)
			continue;
		if (!v || vc_vq_of(c, v) < 0) {
			vc_unsupported(c->p, n, i ? "input %u is not a quantized view" :
				       "first input is not a quantized view", i);
			return -1;
		}
	}
	if (y)
		c->pend[y - c->m->v].node = k;
	return 0;
}

/* may a Relu/Clip fold into pending node @k? */
int vcq_pattern_act(const struct lctx *c, int k)
{
	const struct vcq_pattern *pat = vcq_pattern_of(c->m, &c->m->n[k]);

	return pat && (pat->flags & VCQ_P_ACT);
}

/* may pending node @k's result stay float (FP16 through the registry)? */
int vcq_pattern_float(struct lctx *c, int k)
{
	const struct vcq_pattern *pat = vcq_pattern_of(c->m, &c->m->n[k]);

	if (pat && !(pat->flags & VCQ_P_FLOAT)) {
		vc_unsupported(c->p, &c->m->n[k], "its result must be quantized by a QuantizeLinear");
		return VC_REPORTED;
	}
	return 0;
}

static const char *type_name(unsigned int t)
{
	return t == VCQ_T_I8 ? "int8" : t == VCQ_T_U8 ? "uint8" :
	       t == VCQ_T_I32 ? "int32" : "float";
}

/*
 * A constant input @i of @n against the row's constraint @in: element
 * type, per-tensor or per-channel scales, zero points. Runtime inputs
 * (views) were checked by vcq_do_dequantize (per tensor, 8-bit).
 */
static int check_const(struct lctx *c, const struct vc_node *n,
		       unsigned int i, const struct vcq_in *in,
		       struct qconst *q)
{
	const struct vc_value *v = vc_in(c->m, n, i);
	unsigned int t, j;

	if (!v || vc_vq_of(c, v) >= 0 || in->role == VCQ_IN_NONE ||
	    in->role == VCQ_IN_ACT)
		return 0;
	if (v->cst && v->cst->dtype == VPUXC_FLOAT) {
		t = VCQ_T_FLOAT;
		if (in->role == VCQ_IN_WEIGHT && !(in->types & t)) {
			vc_unsupported(c->p, n, "weights are not a quantized constant (DequantizeLinear of an integer initializer)");
			return -1;
		}
	} else {
		int r = vcq_qconst_of(c, v, q);

		if (r == -2)
			return -1;	/* reported */
		if (r || !q->n)
			return 0;	/* not a quantized constant: the lowering says */
		t = q->dt == VPUX_DT_I8 ? VCQ_T_I8 : q->dt == VPUX_DT_U8 ?
		    VCQ_T_U8 : q->dt == VPUX_DT_I32 ? VCQ_T_I32 : 0;
		if (!(in->q & VCQ_Q_CHANNEL) && q->n > 1) {
			vc_unsupported(c->p, n, "input %u '%s': %u scales, per-tensor quantization needed",
				       i, v->name, q->n);
			return -1;
		}
		if (in->zp == VCQ_ZP_ZERO)
			for (j = 0; j < q->n; j++)
				if (q->zp[j]) {
					vc_unsupported(c->p, n, "input %u '%s': zero point %d, 0 needed",
						       i, v->name, q->zp[j]);
					return -1;
				}
	}
	if (!(in->types & t)) {
		vc_unsupported(c->p, n, "input %u '%s': %s is not an accepted type here",
			       i, v->name, type_name(t));
		return -1;
	}
	return 0;
}

/*
 * The QuantizeLinear of pending node @k's result came with (s, zp, dt):
 * check the row's constant inputs, then lower to one int8 op with the
 * clamp [lo, hi] of the folded Relu/Clip.
 */
int vcq_pattern_fuse(struct lctx *c, int k, const struct vc_value *yv,
		     double s, int32_t zp, int32_t dt, double lo, double hi)
{
	const struct vc_node *n = &c->m->n[k];
	const struct vcq_pattern *pat = vcq_pattern_of(c->m, n);
	struct vcq_qout o = { s, zp, dt, lo, hi };
	struct qconst *q;
	unsigned int i;
	int r = 0;

	if (!pat) {
		vc_unsupported(c->p, n, "internal: not a compute op");
		return -1;
	}
	q = malloc(sizeof(*q));
	if (!q)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < VCQ_MAX_IN && !r; i++)
		r = check_const(c, n, i, &pat->in[i], q);
	free(q);
	if (r)
		return r;
	return pat->lower(c, k, yv, &o);
}
