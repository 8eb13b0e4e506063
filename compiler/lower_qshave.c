// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The quantized path: int8 SHAVE kernels (Softmax, Sigmoid, Tanh,
 * requantization, clamps).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_q.h"
#include "vpux_dpu_rules.h"
/* ---- SHAVE kernels ---- */

int vc_shave_op(struct lctx *c, int node, int x, int y, const char *fmt,
		    ...)
{
	struct qprog *p = c->p;
	char params[256];
	va_list ap;
	int op;

	va_start(ap, fmt);
	vsnprintf(params, sizeof(params), fmt, ap);
	va_end(ap);
	op = vc_emit_op(p, QOP_SHAVE, node, "shave %s", params);
	if (op < 0)
		return op;
	/* @fmt names @x and @y as in= and out=; they are its tensors */
	vc_op_uses(p, op, x);
	vc_op_uses(p, op, y);
	return op;
}

/* Softmax / Sigmoid / Tanh of a quantized view into (sy, zy, dty) */
int vcq_lower_act(struct lctx *c, int node, const struct vc_value *yv,
		     int x, double sy, int32_t zy, int32_t dty)
{
	const struct vc_node *n = &c->m->n[node];
	struct qprog *p = c->p;
	double sx = p->t[x].scale;
	struct vpux_hw_requant ri, ro;
	int y, op;

	if (!(sx > 0) || p->t[x].dt == VPUX_DT_I32 || dty == VPUX_DT_I32) {
		vc_unsupported(p, n, "8-bit quantized input and output needed");
		return -1;
	}
	y = vc_new_qt(p, dty, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (y < 0)
		return -1;
	p->t[y].scale = sy;
	p->t[y].zp = zy;
	if (vc_requant(1.0 / (65536.0 * sy), &ro))
		goto range;
	if (!strcmp(n->op, "Softmax")) {
		int64_t axis = vc_attr_i(n, "axis", c->m->opset >= 13 ? -1 : 1);

		if (axis < 0)
			axis += p->t[x].rank;
		if (axis < 0 || axis >= p->t[x].rank) {
			vc_unsupported(p, n, "axis out of range");
			return -1;
		}
		if (c->m->opset < 13 && axis != p->t[x].rank - 1) {
			int64_t k, rest = 1;

			for (k = axis + 1; k < p->t[x].rank; k++)
				rest *= p->t[x].dims[k];
			if (rest != 1) {
				vc_unsupported(p, n, "opset < 13 softmax over the flattened dims from axis %lld",
					       (long long)axis);
				return -1;
			}
		}
		if (vc_requant(sx * 65536.0, &ri))
			goto range;
		op = vc_shave_op(c, node, x, y,
			      "softmax in=t%d out=t%d axis=%lld out_zp=%d beta_scale=%d,%d out_scale=%d,%d",
			      x, y, (long long)axis, zy, ri.mult, ri.shift,
			      ro.mult, ro.shift);
	} else {
		if (vc_requant(sx * 65536.0, &ri))
			goto range;
		op = vc_shave_op(c, node, x, y,
			      "%s in=t%d out=t%d in_zp=%d out_zp=%d in_scale=%d,%d out_scale=%d,%d",
			      !strcmp(n->op, "Sigmoid") ? "sigmoid" : "tanh", x,
			      y, p->t[x].zp, zy, ri.mult, ri.shift, ro.mult,
			      ro.shift);
	}
	if (op < 0)
		return -1;
	vc_set_vq(c, yv, y);
	return 0;
range:
	vc_unsupported(p, n, "%s", vpux_last_error());
	return -1;
}

/* requantize x into (sy, zy, dty): SHAVE QUANTIZE, or nothing */
int vcq_requantize(struct lctx *c, int node, int x, double sy, int32_t zy,
		      int32_t dty)
{
	struct qprog *p = c->p;
	struct vpux_hw_requant rq;
	int y, op;

	if (p->t[x].dt == dty && p->t[x].zp == zy &&
	    vcq_same_scale(p->t[x].scale, sy))
		return x;
	if (!(p->t[x].scale > 0) || vc_requant(p->t[x].scale / sy, &rq)) {
		vc_unsupported(p, &c->m->n[node], "cannot requantize (input has no scale or the factor is out of range)");
		return -1;
	}
	y = vc_new_qt(p, dty, p->t[x].rank, p->t[x].dims, p->t[x].order);
	if (y < 0)
		return -1;
	p->t[y].scale = sy;
	p->t[y].zp = zy;
	op = vc_shave_op(c, node, x, y,
		      "quantize in=t%d out=t%d in_zp=%d out_zp=%d scale=%d,%d",
		      x, y, p->t[x].zp, zy, rq.mult, rq.shift);
	return op < 0 ? -1 : y;
}

/* clamp x's raw values into [lo, hi] (SHAVE CLAMP); same parameters */
int vcq_clamp_raw(struct lctx *c, int node, int x, int32_t lo, int32_t hi)
{
	struct qprog *p = c->p;
	int y, op;

	if (lo <= vc_dt_min(p->t[x].dt) && hi >= vc_dt_max(p->t[x].dt))
		return x;
	y = vc_new_qt(p, p->t[x].dt, p->t[x].rank, p->t[x].dims,
		      p->t[x].order);
	if (y < 0)
		return -1;
	p->t[y].scale = p->t[x].scale;
	p->t[y].zp = p->t[x].zp;
	op = vc_shave_op(c, node, x, y, "clamp in=t%d out=t%d min=%d max=%d", x,
		      y, lo, hi);
	return op < 0 ? -1 : y;
}

