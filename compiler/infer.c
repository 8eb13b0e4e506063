// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Shape inference over the imported graph, for the ops the compiler
 * lowers (and the pass-through ops around them). A node whose output
 * shape cannot be derived leaves it unknown (rank -1); lowering then
 * reports that node. Inferred shapes are checked against the ones the
 * model declares for its outputs.
 */
#include <string.h>

#include "err.h"
#include "ir.h"
#include "lower_int.h"

uint64_t vc_numel(const struct vc_value *v)
{
	uint64_t n = 1;
	int i;

	if (v->rank < 0)
		return 0;
	for (i = 0; i < v->rank; i++) {
		if (v->dims[i] < 0 || (v->dims[i] && n > (1ull << 40) / (uint64_t)v->dims[i]))
			return 0;
		n *= (uint64_t)v->dims[i];
	}
	return n;
}

int vc_known(const struct vc_value *v)
{
	int i;

	if (!v || v->rank < 0)
		return 0;
	for (i = 0; i < v->rank; i++)
		if (v->dims[i] < 0)
			return 0;
	return 1;
}

void vc_set_shape(struct vc_value *o, int32_t dtype, int rank,
		      const int64_t *dims)
{
	if (!o)
		return;
	if (dtype)
		o->dtype = dtype;
	/* an unknown shape (rank -1) stays unknown */
	if (rank < 0 || rank > VPUXC_MAX_RANK) {
		o->rank = -1;
		return;
	}
	o->rank = rank;
	memcpy(o->dims, dims, sizeof(int64_t) * (size_t)rank);
}

void vc_copy_shape(struct vc_value *o, const struct vc_value *i,
		       int32_t dtype)
{
	vc_set_shape(o, dtype ? dtype : i->dtype, i->rank, i->dims);
}

/* numpy broadcasting of a and b into o; 0 if incompatible */
int vc_broadcast(const struct vc_value *a, const struct vc_value *b,
		     int64_t *o, int *rank)
{
	int r = a->rank > b->rank ? a->rank : b->rank, i;

	for (i = 0; i < r; i++) {
		int ia = i - (r - a->rank), ib = i - (r - b->rank);
		int64_t da = ia >= 0 ? a->dims[ia] : 1;
		int64_t db = ib >= 0 ? b->dims[ib] : 1;

		if (da != db && da != 1 && db != 1)
			return 0;
		o[i] = da == 1 ? db : da;
	}
	*rank = r;
	return 1;
}

/* spatial output size of a conv/pool window */
static int window_out(const struct vc_node *n, const struct vc_value *x,
		      const int64_t *kernel, int64_t *out)
{
	int64_t strides[2] = { 1, 1 }, dil[2] = { 1, 1 }, pads[4] = { 0 };
	const char *ap = vc_attr_s(n, "auto_pad", "NOTSET");
	int ceil_mode = (int)vc_attr_i(n, "ceil_mode", 0), i;

	if (vc_attr_ints(n, "strides", strides, 2) < 0 ||
	    vc_attr_ints(n, "dilations", dil, 2) < 0 ||
	    vc_attr_ints(n, "pads", pads, 4) < 0)
		return 0;
	for (i = 0; i < 2; i++) {
		int64_t in = x->dims[2 + i], k, o;

		if (strides[i] <= 0 || dil[i] <= 0 || kernel[i] <= 0)
			return 0;
		k = dil[i] * (kernel[i] - 1) + 1;
		if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
			o = (in + strides[i] - 1) / strides[i];
		} else if (!strcmp(ap, "VALID")) {
			if (in < k)
				return 0;
			o = (in - k) / strides[i] + 1;
		} else {
			int64_t span = in + pads[i] + pads[i + 2] - k;

			if (pads[i] < 0 || pads[i + 2] < 0 || span < 0)
				return 0;
			o = (ceil_mode ? (span + strides[i] - 1) : span) /
			    strides[i] + 1;
		}
		out[i] = o;
	}
	return 1;
}

static void infer_node(struct vpuxc_model *m, const struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *o = vc_out(m, n, 0);
	const char *op = n->op;
	int64_t d[VPUXC_MAX_RANK];
	int r, i;

	if (!o || !x || !vc_known(x))
		return;
	if (!strcmp(op, "QuantizeLinear")) {
		const struct vc_value *zp = vc_in(m, n, 2);

		vc_copy_shape(o, x, zp ? zp->dtype : VPUXC_UINT8);
	} else if (!strcmp(op, "DequantizeLinear")) {
		vc_copy_shape(o, x, VPUXC_FLOAT);
	} else if (!strcmp(op, "Relu") || !strcmp(op, "Clip") ||
		   !strcmp(op, "Sigmoid") || !strcmp(op, "Tanh") ||
		   !strcmp(op, "Softmax") || !strcmp(op, "Identity") ||
		   /* what the graph passes make, and their parts */
		   !strcmp(op, "Silu") || !strcmp(op, "HardSwish") ||
		   !strcmp(op, "HardSigmoid") || !strcmp(op, "Gelu") ||
		   !strcmp(op, "LayerNormalization") || !strcmp(op, "Erf") ||
		   !strcmp(op, "Sqrt") || !strcmp(op, "Neg") ||
		   !strcmp(op, "Exp") || !strcmp(op, "Dropout") ||
		   !strcmp(op, "BatchNormalization")) {
		vc_copy_shape(o, x, 0);
	} else if (!strcmp(op, "Add") || !strcmp(op, "Mul") ||
		   !strcmp(op, "Sub") || !strcmp(op, "Div") ||
		   !strcmp(op, "Pow")) {
		const struct vc_value *b = vc_in(m, n, 1);

		if (vc_known(b) && vc_broadcast(x, b, d, &r))
			vc_set_shape(o, x->dtype, r, d);
	} else if (!strcmp(op, "Conv") || !strcmp(op, "QLinearConv") ||
		   !strcmp(op, "ConvInteger")) {
		const struct vc_value *w = vc_in(m, n, !strcmp(op, "QLinearConv") ? 3 : 1);
		int64_t k[2];

		if (x->rank != 4 || !vc_known(w) || w->rank != 4)
			return;
		k[0] = w->dims[2];
		k[1] = w->dims[3];
		if (!window_out(n, x, k, d + 2))
			return;
		d[0] = x->dims[0];
		d[1] = w->dims[0];
		vc_set_shape(o, !strcmp(op, "Conv") ? VPUXC_FLOAT :
			  !strcmp(op, "ConvInteger") ? VPUXC_INT32 :
			  (vc_in(m, n, 7) ? vc_in(m, n, 7)->dtype : x->dtype),
			  4, d);
	} else if (!strcmp(op, "MaxPool") || !strcmp(op, "AveragePool")) {
		int64_t k[2];

		if (x->rank != 4 || vc_attr_ints(n, "kernel_shape", k, 2) != 2 ||
		    !window_out(n, x, k, d + 2))
			return;
		d[0] = x->dims[0];
		d[1] = x->dims[1];
		vc_set_shape(o, x->dtype, 4, d);
	} else if (!strcmp(op, "GlobalAveragePool") ||
		   !strcmp(op, "GlobalMaxPool")) {
		if (x->rank < 3)
			return;
		for (i = 0; i < x->rank; i++)
			d[i] = i < 2 ? x->dims[i] : 1;
		vc_set_shape(o, x->dtype, x->rank, d);
	} else if (!strcmp(op, "MatMul") || !strcmp(op, "QLinearMatMul") ||
		   !strcmp(op, "MatMulInteger")) {
		const struct vc_value *b = vc_in(m, n, !strcmp(op, "QLinearMatMul") ? 3 : 1);
		struct vc_value ba, bb;

		if (!vc_known(b) || x->rank < 2 || b->rank < 2 ||
		    x->dims[x->rank - 1] != b->dims[b->rank - 2])
			return;
		/* broadcast the batch dims */
		ba = *x;
		ba.rank = x->rank - 2;
		bb = *b;
		bb.rank = b->rank - 2;
		if (!vc_broadcast(&ba, &bb, d, &r))
			return;
		d[r] = x->dims[x->rank - 2];
		d[r + 1] = b->dims[b->rank - 1];
		vc_set_shape(o, !strcmp(op, "MatMul") ? VPUXC_FLOAT :
			  !strcmp(op, "MatMulInteger") ? VPUXC_INT32 :
			  (vc_in(m, n, 7) ? vc_in(m, n, 7)->dtype : x->dtype),
			  r + 2, d);
	} else if (!strcmp(op, "Gemm")) {
		const struct vc_value *b = vc_in(m, n, 1);
		int ta = (int)vc_attr_i(n, "transA", 0);
		int tb = (int)vc_attr_i(n, "transB", 0);

		if (x->rank != 2 || !vc_known(b) || b->rank != 2 ||
		    x->dims[ta ? 0 : 1] != b->dims[tb ? 1 : 0])
			return;
		d[0] = x->dims[ta ? 1 : 0];
		d[1] = b->dims[tb ? 0 : 1];
		vc_set_shape(o, VPUXC_FLOAT, 2, d);
	} else if (!strcmp(op, "Flatten")) {
		int64_t axis = vc_attr_i(n, "axis", 1), a = 1, b = 1;

		if (axis < 0)
			axis += x->rank;
		if (axis < 0 || axis > x->rank)
			return;
		for (i = 0; i < x->rank; i++)
			*(i < axis ? &a : &b) *= x->dims[i];
		d[0] = a;
		d[1] = b;
		vc_set_shape(o, x->dtype, 2, d);
	} else if (!strcmp(op, "Reshape")) {
		const struct vc_value *s = vc_in(m, n, 1);
		int64_t total = (int64_t)vc_numel(x), prod = 1;
		int infer = -1, allowzero = (int)vc_attr_i(n, "allowzero", 0);

		if (!s || !s->cst || s->cst->dtype != VPUXC_INT64 ||
		    s->cst->rank != 1 || s->cst->dims[0] > VPUXC_MAX_RANK)
			return;
		r = (int)s->cst->dims[0];
		for (i = 0; i < r; i++) {
			d[i] = vc_cst_i(s->cst, (size_t)i);
			if (d[i] == 0 && !allowzero) {
				if (i >= x->rank)
					return;
				d[i] = x->dims[i];
			}
			if (d[i] == -1) {
				if (infer >= 0)
					return;
				infer = i;
				continue;
			}
			if (d[i] < 0)
				return;
			prod *= d[i];
		}
		if (infer >= 0) {
			if (!prod || total % prod)
				return;
			d[infer] = total / prod;
		} else if (prod != total) {
			return;
		}
		vc_set_shape(o, x->dtype, r, d);
	} else if (!strcmp(op, "Concat")) {
		int64_t axis = vc_attr_i(n, "axis", 0);
		unsigned int k;

		if (axis < 0)
			axis += x->rank;
		if (axis < 0 || axis >= x->rank)
			return;
		memcpy(d, x->dims, sizeof(d));
		for (k = 1; k < n->n_in; k++) {
			const struct vc_value *v = vc_in(m, n, k);

			if (!vc_known(v) || v->rank != x->rank)
				return;
			for (i = 0; i < x->rank; i++)
				if (i != axis && v->dims[i] != x->dims[i])
					return;
			d[axis] += v->dims[axis];
		}
		vc_set_shape(o, x->dtype, x->rank, d);
	} else if (!strcmp(op, "Expand")) {
		const struct vc_value *s = vc_in(m, n, 1);
		struct vc_value sv;

		if (!s || !s->cst || s->cst->dtype != VPUXC_INT64 ||
		    s->cst->rank != 1 || s->cst->dims[0] > VPUXC_MAX_RANK)
			return;
		memset(&sv, 0, sizeof(sv));
		sv.rank = (int)s->cst->dims[0];
		for (i = 0; i < sv.rank; i++)
			if ((sv.dims[i] = vc_cst_i(s->cst, (size_t)i)) < 0)
				return;
		if (vc_broadcast(x, &sv, d, &r))
			vc_set_shape(o, x->dtype, r, d);
	} else if (!strcmp(op, "Slice")) {
		int64_t st[VPUXC_MAX_RANK], sp[VPUXC_MAX_RANK];

		if (vc_slice_shape(m, n, x->rank, x->dims, st, sp, d))
			vc_set_shape(o, x->dtype, x->rank, d);
	} else if (!strcmp(op, "Transpose")) {
		int64_t perm[VPUXC_MAX_RANK];
		int np = vc_attr_ints(n, "perm", perm, VPUXC_MAX_RANK);

		if (np < 0 || (np && np != x->rank))
			return;
		for (i = 0; i < x->rank; i++) {
			int64_t p = np ? perm[i] : x->rank - 1 - i;

			if (p < 0 || p >= x->rank)
				return;
			d[i] = x->dims[p];
		}
		vc_set_shape(o, x->dtype, x->rank, d);
	}
}

int vc_infer_shapes(struct vpuxc_model *m)
{
	unsigned int i, k;

	for (i = 0; i < m->n_n; i++) {
		const struct vc_node *n = &m->n[i];

		for (k = 0; k < n->n_out; k++) {
			struct vc_value *o = vc_out(m, n, k);
			struct vc_value decl;

			if (!o || o->cst)
				continue;
			decl = *o;
			if (k == 0) {
				/* the registry's op families first (ops_*.c) */
				const struct vc_op *op = vc_op_find(m, n);

				if (op && op->infer)
					op->infer(m, &m->n[i]);
				else
					infer_node(m, n);
			}
			if ((o->flags & VC_V_OUTPUT) && decl.rank >= 0 &&
			    o->rank >= 0) {
				int j, same = decl.rank == o->rank;

				for (j = 0; same && j < o->rank; j++)
					same = decl.dims[j] < 0 ||
					       decl.dims[j] == o->dims[j];
				if (!same)
					return vpux_err(VPUX_E_FORMAT,
							"node '%s' (%s): output '%s' has a shape other than the graph declares",
							n->name, n->op, o->name);
			}
			if (o->rank < 0 && decl.rank >= 0)
				*o = decl;
		}
	}
	return 0;
}
