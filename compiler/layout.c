// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Layout assignment: a pass over the graph before the node walk that
 * decides, for every 4-D float value, the memory order it lives in and
 * where it must change (Documentation/compiler.rst, "Layout
 * assignment").
 *
 * The DPU reads and writes activations channel-minor (ORDER_NHWC); ONNX,
 * the host and the reshaping ops see row-major (NCHW). Each op says what
 * it writes and what its 4-D data inputs need (rules[] below): NHWC for
 * the DPU's ops (convolutions, pooling, normalisation, resize, same-shape
 * element-wise), row-major for the reshaping and matrix ops, anything
 * for the rest, whose output then follows their first input. A value
 * keeps its producer's layout; a consumer that needs the other one is a
 * *layout change*: a view when the two orders hold the same bytes (one
 * channel, or one pixel), else one reorder DMA, made once per value and
 * shared by all such consumers. Where the layout family must copy, the
 * copy is made in the order the consumers need when they agree
 * (vc_layout_order()), so that no reorder follows it. The decision is
 * recorded per value (lctx.lay); the lowering reads it where it
 * converts (vc_f16_nhwc(), vc_f16_rowmajor(), the graph-output copy)
 * and counts a conversion the pass did not plan as unplanned. --report
 * prints the decisions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"

/* what an op's 4-D data inputs need, and what it writes */
enum { L_ANY, L_NHWC, L_RM };

struct rule {
	const char *op;
	unsigned char need;	/* for inputs in @inputs */
	unsigned char out;	/* L_ANY: as its first input */
	unsigned char inputs;	/* bit per input slot */
	unsigned char elt;	/* element-wise: eltwise() decides */
	unsigned char flex;	/* a copy it makes may take either order */
};

static const struct rule rules[] = {
	{ "Conv", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "ConvTranspose", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "MaxPool", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "AveragePool", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "GlobalAveragePool", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "GlobalMaxPool", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "BatchNormalization", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "InstanceNormalization", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "PRelu", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "Resize", L_NHWC, L_NHWC, 0x1, 0, 0 },
	{ "Upsample", L_NHWC, L_NHWC, 0x1, 0, 0 },
	/* element-wise: eltwise() says when it is a DPU op (NHWC) */
	{ "Add", L_NHWC, L_NHWC, 0x3, 1, 0 },
	{ "Sub", L_NHWC, L_NHWC, 0x3, 1, 0 },
	{ "Mul", L_NHWC, L_NHWC, 0x3, 1, 0 },
	{ "Div", L_NHWC, L_NHWC, 0x1, 1, 0 },
	{ "MatMul", L_RM, L_RM, 0x3, 0, 0 },
	{ "Gemm", L_RM, L_RM, 0x7, 0, 0 },
	/*
	 * The layout family (ops_layout.c) reads any strides: a view when
	 * it can, else its own copy: in the order its consumers need when
	 * they agree (the pass's choice), else the cheaper one. Without a
	 * copy, reshapes give row-major; Transpose: below.
	 */
	{ "Reshape", L_ANY, L_RM, 0x1, 0, 1 },
	{ "Flatten", L_ANY, L_RM, 0x1, 0, 1 },
	{ "Squeeze", L_ANY, L_RM, 0x1, 0, 1 },
	{ "Unsqueeze", L_ANY, L_RM, 0x1, 0, 1 },
	{ "Transpose", L_ANY, L_RM, 0x1, 0, 1 },
	{ "Slice", L_ANY, L_ANY, 0x1, 0, 1 },
	{ "Gather", L_ANY, L_ANY, 0x1, 0, 1 },
	{ "Expand", L_ANY, L_ANY, 0x1, 0, 1 },
	{ "Split", L_ANY, L_ANY, 0x1, 0, 1 },
	{ NULL, L_ANY, L_ANY, 0, 0, 0 }
};

static const struct rule *rule_of(const struct vc_node *n)
{
	const struct rule *r;

	if (*n->domain && strcmp(n->domain, "ai.onnx"))
		return &rules[sizeof(rules) / sizeof(rules[0]) - 1];
	for (r = rules; r->op; r++)
		if (!strcmp(r->op, n->op))
			break;
	return r;
}

static int same_dims(const struct vc_value *a, const struct vc_value *b)
{
	return a && b && a->rank >= 0 && a->rank == b->rank &&
	       !memcmp(a->dims, b->dims, sizeof(a->dims[0]) * (size_t)a->rank);
}

/* ops_eltwise.c's bcast_mode(): may @b broadcast to @y on the DPU? */
static int dpu_bcast(const struct vc_value *b, const struct vc_value *y,
		     int *full)
{
	int64_t d[4] = { 1, 1, 1, 1 };
	int i, off = 4 - b->rank;

	*full = 0;
	if (b->rank > 4 || b->rank < 0)
		return 0;
	for (i = 0; i < b->rank; i++)
		d[off + i] = b->dims[i];
	if (vc_numel(b) == 1)
		return 1;
	if (d[1] == y->dims[1] && d[2] == y->dims[2] && d[3] == y->dims[3] &&
	    (d[0] == y->dims[0] || d[0] == 1))
		return *full = 1;
	return (d[1] == y->dims[1] && d[2] == 1 && d[3] == 1) ||
	       (d[1] == 1 && d[2] == y->dims[2] && d[3] == y->dims[3]);
}

/*
 * An element-wise op as ops_eltwise.c's bin_dpu() places it: on the DPU
 * (NHWC; returns the input slots that must be NHWC) or, 0, a SHAVE
 * kernel that reads any order and writes that of the operand with the
 * output's shape.
 */
static unsigned int eltwise(const struct vpuxc_model *m,
			    const struct vc_node *n)
{
	const struct vc_value *a = vc_in(m, n, 0), *b = vc_in(m, n, 1);
	const struct vc_value *y = vc_out(m, n, 0);
	unsigned int sa = 0x1, sb = 0x2;
	int sub = !strcmp(n->op, "Sub"), div = !strcmp(n->op, "Div"), full;

	if (!a || !b || !y || y->rank != 4 || y->dims[1] > 65535 ||
	    y->dims[2] > 65535 || y->dims[3] > 65535 || (div && !b->cst))
		return 0;
	if (!same_dims(a, y) || a->cst) {
		const struct vc_value *t = a;

		if (sub || div || !same_dims(b, y) || b->cst)
			return 0;
		a = b;
		b = t;
		sa = 0x2;
		sb = 0x1;
	}
	if (!dpu_bcast(b, y, &full))
		return 0;
	return sa | (full && !div && !b->cst ? sb : 0);
}

static int is_act4(const struct vc_value *v)
{
	return v && !v->cst && v->rank == 4 && vc_numel(v) > 0 &&
	       (v->dtype == VPUXC_FLOAT || v->dtype == 10);
}

/* the two orders hold the same bytes: a change is a view */
static int same_bytes(const struct vc_value *v)
{
	return v->dims[1] == 1 || v->dims[2] * v->dims[3] == 1;
}

static const char *lname(unsigned int l)
{
	return l == VC_LAY_NHWC ? "NHWC" : "row-major";
}

int vc_assign_layouts(struct lctx *c)
{
	const struct vpuxc_model *m = c->m;
	struct qprog *p = c->p;
	unsigned char *lay = calloc(m->n_v + 1, 1);
	unsigned int i, k, j;
	FILE *f;
	char *log = NULL;
	size_t len = 0;

	if (!lay)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	c->lay = lay;
	/* graph inputs: ONNX's row-major */
	for (i = 0; i < m->n_inputs; i++)
		if (is_act4(&m->v[m->inputs[i]]))
			lay[m->inputs[i]] = VC_LAY_RM;
	/* what each value's consumers need (graph outputs: row-major) */
	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *n = &m->n[k];
		const struct rule *r = rule_of(n);
		unsigned int ins = r->elt ? eltwise(m, n) : r->inputs;

		if (r->need == L_ANY)
			continue;
		for (j = 0; j < n->n_in && j < 8; j++) {
			const struct vc_value *v = vc_in(m, n, j);

			if ((ins & (1u << j)) && is_act4(v))
				lay[v - m->v] |= r->need == L_NHWC ?
						 VC_LAY_NEED_NHWC : VC_LAY_NEED_RM;
		}
	}
	for (i = 0; i < m->n_outputs; i++)
		lay[m->outputs[i]] |= VC_LAY_NEED_RM;
	/* producers, in topological order */
	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *n = &m->n[k];
		const struct rule *r = rule_of(n);
		const struct vc_value *x = vc_in(m, n, 0);
		unsigned int out, view = 0;

		if (r->elt && !eltwise(m, n)) {
			const struct vc_value *y = vc_out(m, n, 0), *b = vc_in(m, n, 1);

			if (x && !same_dims(x, y) && b && same_dims(b, y))
				x = b;
			r = &rules[sizeof(rules) / sizeof(rules[0]) - 1];
		}
		out = r->out == L_NHWC ? VC_LAY_NHWC :
				   r->out == L_RM ? VC_LAY_RM :
				   x && is_act4(x) ? (lay[x - m->v] & VC_LAY_MASK) :
				   VC_LAY_RM;	/* from a row-major rank */

		/*
		 * NHWC data read as [N, H, W, C] is the same bytes row-major,
		 * and back: Transpose (0, 2, 3, 1) of NHWC and (0, 3, 1, 2) of
		 * row-major 4-D are views
		 */
		if (!strcmp(n->op, "Transpose") && x && is_act4(x)) {
			int64_t perm[4];

			if (vc_attr_ints(n, "perm", perm, 4) == 4 && !perm[0] &&
			    perm[1] == 3 && perm[2] == 1 && perm[3] == 2 &&
			    (lay[x - m->v] & VC_LAY_MASK) == VC_LAY_RM)
				out = VC_LAY_NHWC, view = 1;
			if (vc_attr_ints(n, "perm", perm, 4) == 4 && !perm[0] &&
			    perm[1] == 2 && perm[2] == 3 && perm[3] == 1 &&
			    (lay[x - m->v] & VC_LAY_MASK) == VC_LAY_NHWC)
				view = 1;	/* row-major, the same bytes */
		}
		for (j = 0; j < n->n_out; j++) {
			unsigned int o = out ? out : VC_LAY_RM, nd;

			if (n->out[j] < 0 || !is_act4(&m->v[n->out[j]]))
				continue;
			nd = lay[n->out[j]] & (VC_LAY_NEED_NHWC | VC_LAY_NEED_RM);
			/* a copy of the layout family: as its consumers agree */
			if (r->flex && !view && nd == VC_LAY_NEED_NHWC)
				o = VC_LAY_NHWC | VC_LAY_CHOSEN;
			else if (r->flex && !view && nd == VC_LAY_NEED_RM)
				o = VC_LAY_RM | VC_LAY_CHOSEN;
			lay[n->out[j]] = (unsigned char)(o | nd);
		}
	}
	/* a value changes where a consumer needs the other layout */
	for (i = 0; i < m->n_v; i++) {
		unsigned int have = lay[i] & VC_LAY_MASK;

		if ((have == VC_LAY_NHWC && (lay[i] & VC_LAY_NEED_RM)) ||
		    (have == VC_LAY_RM && (lay[i] & VC_LAY_NEED_NHWC)))
			lay[i] |= VC_LAY_CHANGE;
	}
	f = open_memstream(&log, &len);
	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < m->n_v; i++) {
		const struct vc_value *v = &m->v[i];

		if (!(lay[i] & VC_LAY_MASK))
			continue;
		if ((lay[i] & VC_LAY_MASK) == VC_LAY_NHWC)
			p->lay_nhwc++;
		else
			p->lay_rm++;
		if (!(lay[i] & VC_LAY_CHANGE))
			continue;
		if (same_bytes(v)) {
			p->lay_views++;
			lay[i] |= VC_LAY_VIEW;
		} else {
			p->lay_dma++;
		}
		fprintf(f, "layout %s: %s, to %s for a consumer (%s)\n", v->name,
			lname(lay[i] & VC_LAY_MASK),
			lname((lay[i] & VC_LAY_MASK) == VC_LAY_NHWC ? VC_LAY_RM :
			      VC_LAY_NHWC),
			lay[i] & VC_LAY_VIEW ? "a view" : "a reorder DMA");
	}
	fclose(f);
	free(p->lay_log);
	p->lay_log = log;
	return 0;
}

/*
 * The order the pass chose for a copy that makes value @v (ORDER_NHWC or
 * row-major), or 0: none, the op picks (ops_layout.c's finish()).
 */
uint64_t vc_layout_order(const struct lctx *c, const struct vc_value *v)
{
	unsigned int l = c->lay && v ? c->lay[v - c->m->v] : 0;

	if (!(l & VC_LAY_CHOSEN))
		return 0;
	return (l & VC_LAY_MASK) == VC_LAY_NHWC ? ORDER_NHWC :
	       vpux_order_default(4).code;
}

/*
 * The lowering converts value @v to @want (VC_LAY_NHWC or VC_LAY_RM) by
 * a reorder DMA: count it, and as unplanned when the pass did not plan it.
 */
void vc_layout_check(struct lctx *c, const struct vc_value *v,
		     unsigned int want)
{
	unsigned int l;

	if (!c->lay || !v)
		return;
	l = c->lay[v - c->m->v];
	c->p->lay_made++;
	if (!(l & VC_LAY_CHANGE) || (l & VC_LAY_MASK) == want)
		c->p->lay_unplanned++;
}
