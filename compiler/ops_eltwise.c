// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "element-wise": Add, Sub, Mul, Div, Pow, Max, Min of two
 * tensors with numpy broadcasting. On the DPU (FP16 ADD/SUB/MUL, one op
 * per batch item) when the output is a 4-D NHWC activation and the
 * second operand has its shape, or one value per channel, per pixel or
 * in all (Add and Mul swap their operands to get there; Div by a
 * constant is Mul by its reciprocal); otherwise one SHAVE BINARY kernel,
 * which broadcasts any shapes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"

static const char *bin_npu(const struct vpuxc_model *m,
			   const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *a = vc_in(m, n, 0), *b = vc_in(m, n, 1);
	const struct vc_value *y = vc_out(m, n, 0);
	int64_t d[8];
	int r;

	if (!a || !b || !y) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (n->n_in != 2) {
		snprintf(buf, len, "%u inputs (2 are supported)", n->n_in);
		return buf;
	}
	if ((a->dtype != VPUXC_FLOAT && a->dtype != 10) ||
	    (b->dtype != VPUXC_FLOAT && b->dtype != 10)) {
		snprintf(buf, len, "integer operands (the NPU computes floats in FP16)");
		return buf;
	}
	if (a->rank < 0 || b->rank < 0 || !vc_broadcast(a, b, d, &r) ||
	    r > 6) {
		snprintf(buf, len, "shapes that do not broadcast (or rank above 6)");
		return buf;
	}
	return NULL;
}

/* how @b broadcasts against 4-D @y: VPUX_DPU_BCAST_* or -1 */
static int bcast_mode(const struct vc_value *b, const struct vc_value *y)
{
	int64_t d[4] = { 1, 1, 1, 1 };
	int i, off = 4 - b->rank;

	if (b->rank > 4)
		return -1;
	for (i = 0; i < b->rank; i++)
		d[off + i] = b->dims[i];
	if (vc_numel(b) == 1)
		return VPUX_DPU_BCAST_SCALAR;
	if (d[1] == y->dims[1] && d[2] == y->dims[2] && d[3] == y->dims[3] &&
	    (d[0] == y->dims[0] || d[0] == 1))
		return VPUX_DPU_BCAST_NONE;
	if (d[1] == y->dims[1] && d[2] == 1 && d[3] == 1)
		return VPUX_DPU_BCAST_C;
	if (d[1] == 1 && d[2] == y->dims[2] && d[3] == y->dims[3])
		return VPUX_DPU_BCAST_HW;
	return -1;
}

static bool same_dims(const struct vc_value *a, const struct vc_value *y)
{
	int i;

	if (a->rank != y->rank)
		return false;
	for (i = 0; i < a->rank; i++)
		if (a->dims[i] != y->dims[i])
			return false;
	return true;
}

/* b's per-item stride in bytes when it varies over N, else 0 */
static uint64_t item_step(const struct vc_value *b, const struct vc_value *y,
			  uint64_t size)
{
	if (b->rank == 4 && b->dims[0] == y->dims[0] && y->dims[0] > 1)
		return size / (uint64_t)y->dims[0];
	return 0;
}

/* a constant's reciprocal as an FP16 constant of its dims (Div) */
static int recip_const(struct lctx *c, const struct vc_value *b)
{
	int64_t one = 1;
	size_t n, i;
	float *f = vc_cst_floats(b, &n);
	int t;

	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < n; i++)
		f[i] = (float)(1.0 / (double)f[i]);
	t = b->rank > 0 ? vc_f16_const(c, (unsigned int)b->rank, b->dims, f) :
			  vc_f16_const(c, 1, &one, f);
	free(f);
	return t;
}

/* the DPU form; 1 when it does not apply */
static int bin_dpu(struct lctx *c, int node, const char *op)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *a = vc_in(c->m, n, 0), *b = vc_in(c->m, n, 1);
	const struct vc_value *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	unsigned int dop;
	int mode, x, x2, y;
	uint64_t bstep;
	struct qdpu q;

	if (yv->rank != 4 || yv->dims[1] > 65535 || yv->dims[2] > 65535 ||
	    yv->dims[3] > 65535)
		return 1;
	if (!strcmp(op, "Add"))
		dop = VPUX_DPU_OP_ADD;
	else if (!strcmp(op, "Sub"))
		dop = VPUX_DPU_OP_SUB;
	else if (!strcmp(op, "Mul") || (!strcmp(op, "Div") && b->cst))
		dop = VPUX_DPU_OP_MUL;
	else
		return 1;
	if (!same_dims(a, yv) || a->cst) {
		const struct vc_value *t = a;

		if (dop == VPUX_DPU_OP_SUB || !strcmp(op, "Div") ||
		    !same_dims(b, yv) || b->cst)
			return 1;
		a = b;
		b = t;
	}
	mode = bcast_mode(b, yv);
	if (mode < 0)
		return 1;
	x = vc_f16_nhwc(c, node, a);
	if (x < 0)
		return x;
	if (!strcmp(op, "Div"))
		x2 = recip_const(c, b);
	else if (mode == VPUX_DPU_BCAST_NONE)
		x2 = vc_f16_nhwc(c, node, b);
	else
		x2 = vc_f16(c, node, b);	/* C, HW, one value: any order */
	if (x2 < 0)
		return x2;
	vc_fdpu_init(&q, dop);
	q.d.flags |= (unsigned int)mode << VPUX_DPU_F_BCAST_SHIFT;
	q.d.in_c = q.d.out_c = (uint16_t)yv->dims[1];
	q.d.in_h = q.d.out_h = (uint16_t)yv->dims[2];
	q.d.in_w = q.d.out_w = (uint16_t)yv->dims[3];
	yv = vc_fuse_act(c, &q, yv);
	y = vc_f16_out(c, yv, ORDER_NHWC);
	if (y < 0)
		return y;
	bstep = item_step(b, yv, p->t[x2].size);
	q.t[QD_IN2] = x2;
	q.len[QD_IN2] = bstep ? bstep : p->t[x2].size;
	return vc_emit_dpu_items(c, node, &q, x, y, yv->dims[0], bstep);
}

static int bin_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *a = vc_in(c->m, n, 0), *b = vc_in(c->m, n, 1);
	const struct vc_value *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	char fn[8];
	int x, x2, y, r, ts[3];
	unsigned int i;
	uint64_t order = 0;

	r = bin_dpu(c, node, n->op);
	if (r <= 0)
		return r;
	x = vc_f16(c, node, a);
	x2 = x < 0 ? x : vc_f16(c, node, b);
	if (x < 0 || x2 < 0)
		return x < 0 ? x : x2;
	x = vc_f16_shave_in(c, node, x);
	x2 = x < 0 ? x : vc_f16_shave_in(c, node, x2);
	if (x < 0 || x2 < 0)
		return x < 0 ? x : x2;
	/* the output in the order of the operand with its shape */
	if (same_dims(a, yv))
		order = p->t[x].order;
	else if (same_dims(b, yv))
		order = p->t[x2].order;
	y = vc_f16_out(c, yv, order);
	if (y < 0)
		return y;
	if (order)
		p->t[y].order = order;
	for (i = 0; i < sizeof(fn) - 1 && n->op[i]; i++)
		fn[i] = (char)(n->op[i] | 0x20);
	fn[i] = 0;
	ts[0] = x;
	ts[1] = x2;
	ts[2] = y;
	r = vc_shave_f(c, node, ts, 3, "binary in=t%d in2=t%d out=t%d func=%s",
		       x, x2, y, fn);
	return r < 0 ? r : 0;
}

static int bin_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *a = vc_in(m, n, 0), *b = vc_in(m, n, 1);
	struct vc_value *y = vc_out(m, n, 0);
	int64_t d[VPUXC_MAX_RANK];
	int r;

	if (!a || !y || n->n_in > 2)
		return 0;
	if (!b) {
		vc_copy_shape(y, a, 0);
		return 0;
	}
	if (a->rank >= 0 && b->rank >= 0 && vc_broadcast(a, b, d, &r))
		vc_set_shape(y, a->dtype, r, d);
	return 0;
}

#define BIN(name, since) { "", name, since, 0, bin_infer, bin_npu, bin_lower }

const struct vc_op vc_ops_eltwise[] = {
	BIN("Add", 7), BIN("Sub", 7), BIN("Mul", 7), BIN("Div", 7),
	BIN("Pow", 7), BIN("Max", 8), BIN("Min", 8),
	{ 0 }
};
