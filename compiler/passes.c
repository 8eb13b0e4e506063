// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The graph passes, between shape inference and lowering
 * (Documentation/compiler.rst, "Graph passes"):
 *
 *  - Identity and Dropout (inference, or of ratio 0) removed;
 *  - constant folding: nodes whose inputs are constants (and Shape/Size
 *    of a value with static dims) become constants, up to
 *    FOLD_MAX_ELEMS elements each (DequantizeLinear stays: the
 *    quantized lowering reads DQ of constants);
 *  - BatchNormalization folded into the Conv/ConvTranspose/Gemm before
 *    it; a standalone one becomes a depthwise 1x1 Conv (rank 4) or
 *    Mul + Add by constants;
 *  - Pad (constant 0, spatial, non-negative) folded into the Conv or
 *    AveragePool (count_include_pad) after it; Pad -inf into MaxPool;
 *  - fusions: x*Sigmoid(x) -> com.vpux Silu, x*HardSigmoid(x) ->
 *    HardSwish, the Erf form of GELU -> Gelu, the decomposed layer norm
 *    -> LayerNormalization.
 *
 * Each rewrite checks its preconditions exactly and leaves the graph
 * alone otherwise. Rounds repeat until nothing changes; shape
 * inference runs between them (a fusion or a fold lets it reach
 * further, a known shape lets Shape fold).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "ir_edit.h"

#define FOLD_MAX_ELEMS	(1u << 20)
#define VC_BOOL		9	/* ONNX BOOL: folding-internal, 1 byte */

static size_t esz(int32_t dt)
{
	return dt == VC_BOOL ? 1 : vpuxc_dtype_size(dt);
}

static double get_f(const struct vpuxc_tensor *t, size_t i)
{
	if (t->dtype == VC_BOOL)
		return ((const uint8_t *)t->data)[i] != 0;
	return vc_cst_f(t, i);
}

static int64_t get_i(const struct vpuxc_tensor *t, size_t i)
{
	if (t->dtype == VC_BOOL)
		return ((const uint8_t *)t->data)[i] != 0;
	return vc_cst_i(t, i);
}

static void put(struct vpuxc_tensor *t, size_t i, double f, int64_t v)
{
	char *p = (char *)t->data;

	switch (t->dtype) {
	case VPUXC_FLOAT: {
		float x = (float)f;

		memcpy(p + 4 * i, &x, 4);
		break;
	}
	case VPUXC_INT64:
		memcpy(p + 8 * i, &v, 8);
		break;
	case VPUXC_INT32: {
		int32_t x = (int32_t)v;

		memcpy(p + 4 * i, &x, 4);
		break;
	}
	case VPUXC_INT8:
		((int8_t *)p)[i] = (int8_t)v;
		break;
	case VPUXC_UINT8:
		((uint8_t *)p)[i] = (uint8_t)v;
		break;
	case VC_BOOL:
		((uint8_t *)p)[i] = v != 0;
		break;
	}
}

/* @t: a new tensor of @dims; 0 when above the cap (not folded), <0 error */
static int talloc(struct vpuxc_tensor *t, int32_t dt, int rank,
		  const int64_t *dims)
{
	uint64_t cnt = 1;
	int i;

	memset(t, 0, sizeof(*t));
	if (!esz(dt) || rank < 0 || rank > VPUXC_MAX_RANK)
		return 0;
	for (i = 0; i < rank; i++) {
		if (dims[i] < 0 || (uint64_t)dims[i] > FOLD_MAX_ELEMS)
			return 0;
		cnt *= (uint64_t)dims[i];
		if (cnt > FOLD_MAX_ELEMS)
			return 0;
		t->dims[i] = dims[i];
	}
	t->dtype = dt;
	t->rank = (uint32_t)rank;
	t->size = (size_t)cnt * esz(dt);
	t->data = calloc(1, t->size ? t->size : 1);
	if (!t->data)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	return 1;
}

static size_t count(const struct vpuxc_tensor *t)
{
	return vpuxc_tensor_count(t);
}

/* a constant's integer list (shape, axes, pads) into @out */
static int cst_ints(const struct vpuxc_tensor *t, int64_t *out,
		    unsigned int max)
{
	size_t n, i;

	if (!t || (t->dtype != VPUXC_INT64 && t->dtype != VPUXC_INT32) ||
	    t->rank > 1)
		return -1;
	n = count(t);
	if (n > max)
		return -1;
	for (i = 0; i < n; i++)
		out[i] = get_i(t, i);
	return (int)n;
}

/* offset into @t (broadcast to rank @r, @od) of output element @lin */
static size_t bc_off(const struct vpuxc_tensor *t, int r, const int64_t *od,
		     size_t lin)
{
	size_t off = 0, stride = 1;
	int d;

	for (d = r - 1; d >= 0; d--) {
		int td = d - (r - (int)t->rank);
		size_t i = lin % (size_t)od[d];

		lin /= (size_t)od[d];
		if (td >= 0) {
			if (t->dims[td] != 1)
				off += i * stride;
			stride *= (size_t)t->dims[td];
		}
	}
	return off;
}

/* numpy broadcasting of @n tensors; 0 if incompatible */
static int bc_dims(const struct vpuxc_tensor *const *t, unsigned int n,
		   int *rank, int64_t *od)
{
	int r = 0, d;
	unsigned int i;

	for (i = 0; i < n; i++)
		if ((int)t[i]->rank > r)
			r = (int)t[i]->rank;
	for (d = 0; d < r; d++) {
		int64_t o = 1;

		for (i = 0; i < n; i++) {
			int td = d - (r - (int)t[i]->rank);
			int64_t x = td >= 0 ? t[i]->dims[td] : 1;

			if (x == 1)
				continue;
			if (o != 1 && o != x)
				return 0;
			o = x;
		}
		od[d] = o;
	}
	*rank = r;
	return 1;
}

static int norm_axis(int64_t *a, int rank)
{
	if (*a < 0)
		*a += rank;
	return *a >= 0 && *a < rank;
}

/* element-wise ops: binary, comparison, unary */
static int ew_binary(const char *op)
{
	static const char *const ops[] = { "Add", "Sub", "Mul", "Div", "Pow",
		"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
		"And", "Or", "Max", "Min", "Mod", NULL };
	unsigned int i;

	for (i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

static int is_cmp(const char *op)
{
	return !strcmp(op, "Equal") || !strcmp(op, "Less") ||
	       !strcmp(op, "Greater") || !strcmp(op, "LessOrEqual") ||
	       !strcmp(op, "GreaterOrEqual");
}

static int ew_unary(const char *op)
{
	static const char *const ops[] = { "Neg", "Abs", "Floor", "Ceil",
		"Sqrt", "Reciprocal", "Exp", "Not", "Relu", NULL };
	unsigned int i;

	for (i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

static double f_bin(const char *op, double a, double b)
{
	switch (op[0]) {
	case 'A':
		return op[1] == 'd' ? a + b : (a != 0 && b != 0);
	case 'S':
		return a - b;
	case 'M':
		return op[1] == 'u' ? a * b : op[1] == 'a' ? (a > b ? a : b) :
		       op[1] == 'o' ? fmod(a, b) : (a < b ? a : b);
	case 'D':
		return a / b;
	case 'P':
		return pow(a, b);
	case 'O':
		return a != 0 || b != 0;
	case 'E':
		return a == b;
	case 'L':
		return op[4] ? a <= b : a < b;
	case 'G':
		return op[7] ? a >= b : a > b;
	}
	return 0;
}

/* integer version; 0 when it cannot be computed (division by 0) */
static int i_bin(const char *op, int64_t a, int64_t b, int64_t *r)
{
	switch (op[0]) {
	case 'A':
		*r = op[1] == 'd' ? (int64_t)((uint64_t)a + (uint64_t)b) :
		     (a && b);
		return 1;
	case 'S':
		*r = (int64_t)((uint64_t)a - (uint64_t)b);
		return 1;
	case 'M':
		if (op[1] == 'o') {	/* Mod: the sign of the dividend here */
			if (!b || (a == INT64_MIN && b == -1))
				return 0;
			*r = a % b;
			return 1;
		}
		*r = op[1] == 'u' ? (int64_t)((uint64_t)a * (uint64_t)b) :
		     op[1] == 'a' ? (a > b ? a : b) : (a < b ? a : b);
		return 1;
	case 'D':
		if (!b || (a == INT64_MIN && b == -1))
			return 0;
		*r = a / b;
		return 1;
	case 'P':
		return 0;
	case 'O':
		*r = a || b;
		return 1;
	case 'E':
		*r = a == b;
		return 1;
	case 'L':
		*r = op[4] ? a <= b : a < b;
		return 1;
	case 'G':
		*r = op[7] ? a >= b : a > b;
		return 1;
	}
	return 0;
}

static double f_un(const char *op, double a)
{
	if (!strcmp(op, "Neg"))
		return -a;
	if (!strcmp(op, "Abs"))
		return fabs(a);
	if (!strcmp(op, "Floor"))
		return floor(a);
	if (!strcmp(op, "Ceil"))
		return ceil(a);
	if (!strcmp(op, "Sqrt"))
		return sqrt(a);
	if (!strcmp(op, "Reciprocal"))
		return 1.0 / a;
	if (!strcmp(op, "Exp"))
		return exp(a);
	if (!strcmp(op, "Relu"))
		return a > 0 ? a : 0;
	return a == 0;	/* Not */
}

/* generic gather by index maps: out[i] = in[src(i)] */
static void copy_elem(struct vpuxc_tensor *o, size_t i,
		      const struct vpuxc_tensor *x, size_t j)
{
	size_t s = esz(o->dtype);

	memcpy((char *)o->data + i * s, (const char *)x->data + j * s, s);
}

/* the folds: 1 folded into @o, 0 not foldable, <0 error */

static int fold_reshape_like(const struct vpuxc_tensor *x,
			     struct vpuxc_tensor *o, int rank,
			     const int64_t *dims)
{
	int ret = talloc(o, x->dtype, rank, dims);

	if (ret <= 0)
		return ret;
	if (o->size != x->size) {
		vpuxc_tensor_fini(o);
		return 0;
	}
	memcpy(o->data, x->data, x->size);
	return 1;
}

static int fold_reshape(const struct vc_node *n, const struct vpuxc_tensor *x,
			const struct vpuxc_tensor *s, struct vpuxc_tensor *o)
{
	int64_t d[VPUXC_MAX_RANK], prod = 1;
	int r = cst_ints(s, d, VPUXC_MAX_RANK), i, infer = -1;
	int allowzero = (int)vc_attr_i(n, "allowzero", 0);

	if (r < 0)
		return 0;
	for (i = 0; i < r; i++) {
		if (d[i] == 0 && !allowzero) {
			if (i >= (int)x->rank)
				return 0;
			d[i] = x->dims[i];
		}
		if (d[i] == -1) {
			if (infer >= 0)
				return 0;
			infer = i;
			continue;
		}
		if (d[i] < 0)
			return 0;
		prod *= d[i];
	}
	if (infer >= 0) {
		if (!prod || (int64_t)count(x) % prod)
			return 0;
		d[infer] = (int64_t)count(x) / prod;
	}
	return fold_reshape_like(x, o, r, d);
}

/* Squeeze/Unsqueeze axes: attribute before opset 13, input after */
static int get_axes(const struct vpuxc_model *m, const struct vc_node *n,
		    int64_t *axes, int *present)
{
	const struct vc_value *a = vc_in(m, n, 1);
	int k;

	*present = 1;
	if (a) {
		if (!a->cst)
			return -1;
		return cst_ints(a->cst, axes, VPUXC_MAX_RANK);
	}
	k = vc_attr_ints(n, "axes", axes, VPUXC_MAX_RANK);
	if (!vc_attr(n, "axes"))
		*present = 0;
	return k;
}

static int fold_squeeze(const struct vpuxc_model *m, const struct vc_node *n,
			const struct vpuxc_tensor *x, struct vpuxc_tensor *o,
			int unsq)
{
	int64_t axes[VPUXC_MAX_RANK], d[VPUXC_MAX_RANK];
	int na, present, r = (int)x->rank, i, j, k;
	char mark[VPUXC_MAX_RANK] = { 0 };

	na = get_axes(m, n, axes, &present);
	if (na < 0)
		return 0;
	if (unsq) {
		int orank = r + na;

		if (!present || orank > VPUXC_MAX_RANK)
			return 0;
		for (i = 0; i < na; i++) {
			if (!norm_axis(&axes[i], orank) || mark[axes[i]])
				return 0;
			mark[axes[i]] = 1;
		}
		for (i = 0, j = 0; i < orank; i++)
			d[i] = mark[i] ? 1 : x->dims[j++];
		return fold_reshape_like(x, o, orank, d);
	}
	for (i = 0; i < na; i++) {
		if (!norm_axis(&axes[i], r) || x->dims[axes[i]] != 1)
			return 0;
		mark[axes[i]] = 1;
	}
	for (i = 0, k = 0; i < r; i++)
		if (!(present ? mark[i] : x->dims[i] == 1))
			d[k++] = x->dims[i];
	return fold_reshape_like(x, o, k, d);
}

static int fold_concat(const struct vpuxc_model *m, const struct vc_node *n,
		       struct vpuxc_tensor *o)
{
	const struct vpuxc_tensor *x = vc_in(m, n, 0)->cst;
	int64_t axis = vc_attr_i(n, "axis", 0), d[VPUXC_MAX_RANK], sum = 0;
	size_t outer = 1, inner = 1, s, off = 0, b;
	unsigned int i;
	int r = (int)x->rank, k, ret;

	if (!norm_axis(&axis, r))
		return 0;
	for (i = 0; i < n->n_in; i++) {
		const struct vc_value *v = vc_in(m, n, i);

		if (!v || v->cst->dtype != x->dtype || (int)v->cst->rank != r)
			return 0;
		for (k = 0; k < r; k++)
			if (k != axis && v->cst->dims[k] != x->dims[k])
				return 0;
		sum += v->cst->dims[axis];
	}
	memcpy(d, x->dims, sizeof(d));
	d[axis] = sum;
	ret = talloc(o, x->dtype, r, d);
	if (ret <= 0)
		return ret;
	s = esz(x->dtype);
	for (k = 0; k < axis; k++)
		outer *= (size_t)d[k];
	for (k = (int)axis + 1; k < r; k++)
		inner *= (size_t)d[k];
	for (b = 0; b < outer; b++)
		for (i = 0; i < n->n_in; i++) {
			const struct vpuxc_tensor *t = vc_in(m, n, i)->cst;
			size_t len = (size_t)t->dims[axis] * inner * s;

			memcpy((char *)o->data + off, (const char *)t->data + b * len, len);
			off += len;
		}
	return 1;
}

static int fold_gather(const struct vc_node *n, const struct vpuxc_tensor *x,
		       const struct vpuxc_tensor *idx, struct vpuxc_tensor *o)
{
	int64_t axis = vc_attr_i(n, "axis", 0), d[VPUXC_MAX_RANK];
	int r = (int)x->rank, k, orank, ret;
	size_t outer = 1, inner = 1, ni = count(idx), b, j, s;

	if (!norm_axis(&axis, r) || (idx->dtype != VPUXC_INT64 &&
				     idx->dtype != VPUXC_INT32))
		return 0;
	orank = r - 1 + (int)idx->rank;
	if (orank > VPUXC_MAX_RANK)
		return 0;
	for (k = 0; k < axis; k++) {
		d[k] = x->dims[k];
		outer *= (size_t)x->dims[k];
	}
	for (k = 0; k < (int)idx->rank; k++)
		d[axis + k] = idx->dims[k];
	for (k = (int)axis + 1; k < r; k++) {
		d[k - 1 + (int)idx->rank] = x->dims[k];
		inner *= (size_t)x->dims[k];
	}
	for (j = 0; j < ni; j++) {
		int64_t i = get_i(idx, j);

		if (i < -x->dims[axis] || i >= x->dims[axis])
			return 0;
	}
	ret = talloc(o, x->dtype, orank, d);
	if (ret <= 0)
		return ret;
	s = esz(x->dtype) * inner;
	for (b = 0; b < outer; b++)
		for (j = 0; j < ni; j++) {
			int64_t i = get_i(idx, j);

			if (i < 0)
				i += x->dims[axis];
			memcpy((char *)o->data + (b * ni + j) * s,
			       (const char *)x->data +
			       (b * (size_t)x->dims[axis] + (size_t)i) * s, s);
		}
	return 1;
}

int vc_slice_shape(const struct vpuxc_model *m, const struct vc_node *n,
		   int r, const int64_t *xd, int64_t *start, int64_t *step,
		   int64_t *d)
{
	int64_t st[VPUXC_MAX_RANK], en[VPUXC_MAX_RANK], ax[VPUXC_MAX_RANK];
	int64_t sp[VPUXC_MAX_RANK];
	int ns, ne, na, nsp, i;

	if (m->opset >= 10) {
		const struct vc_value *a = vc_in(m, n, 3), *p = vc_in(m, n, 4);
		const struct vc_value *b = vc_in(m, n, 1), *e = vc_in(m, n, 2);

		if (!b || !e)
			return 0;
		ns = cst_ints(b->cst, st, VPUXC_MAX_RANK);
		ne = cst_ints(e->cst, en, VPUXC_MAX_RANK);
		na = a ? cst_ints(a->cst, ax, VPUXC_MAX_RANK) : 0;
		nsp = p ? cst_ints(p->cst, sp, VPUXC_MAX_RANK) : 0;
		if ((a && na != ns) || (p && nsp != ns))
			return 0;
		if (!a)
			na = -2;
		if (!p)
			nsp = -2;
	} else {
		ns = vc_attr_ints(n, "starts", st, VPUXC_MAX_RANK);
		ne = vc_attr_ints(n, "ends", en, VPUXC_MAX_RANK);
		na = vc_attr(n, "axes") ? vc_attr_ints(n, "axes", ax, VPUXC_MAX_RANK) : -2;
		nsp = -2;
		if (na != -2 && na != ns)
			return 0;
	}
	if (ns < 0 || ne != ns || ns > r)
		return 0;
	for (i = 0; i < r; i++) {
		start[i] = 0;
		step[i] = 1;
		d[i] = xd[i];
		if (xd[i] < 0)
			return 0;
	}
	for (i = 0; i < ns; i++) {
		int64_t a = na == -2 ? i : ax[i], s = nsp == -2 ? 1 : sp[i];
		int64_t dim, b, e;

		if (!norm_axis(&a, r) || !s || s == INT64_MIN)
			return 0;
		dim = xd[a];
		b = st[i];
		e = en[i];
		if (b < 0)
			b += dim;
		if (e < 0)
			e += dim;
		if (s > 0) {
			b = b < 0 ? 0 : b > dim ? dim : b;
			e = e < 0 ? 0 : e > dim ? dim : e;
			d[a] = e > b ? (e - b - 1) / s + 1 : 0;
		} else {
			b = b < 0 ? 0 : b > dim - 1 ? dim - 1 : b;
			e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
			d[a] = b > e ? (b - e - 1) / -s + 1 : 0;
		}
		start[a] = b;
		step[a] = s;
	}
	return 1;
}

static int fold_slice(const struct vpuxc_model *m, const struct vc_node *n,
		      const struct vpuxc_tensor *x, struct vpuxc_tensor *o)
{
	int64_t start[VPUXC_MAX_RANK], step[VPUXC_MAX_RANK], d[VPUXC_MAX_RANK];
	int r = (int)x->rank, i, ret;
	size_t total, lin;

	if (!vc_slice_shape(m, n, r, x->dims, start, step, d))
		return 0;
	ret = talloc(o, x->dtype, r, d);
	if (ret <= 0)
		return ret;
	total = count(o);
	for (lin = 0; lin < total; lin++) {
		size_t l = lin, off = 0, stride = 1;

		for (i = r - 1; i >= 0; i--) {
			size_t k = l % (size_t)d[i];

			l /= (size_t)d[i];
			off += (size_t)(start[i] + (int64_t)k * step[i]) * stride;
			stride *= (size_t)x->dims[i];
		}
		copy_elem(o, lin, x, off);
	}
	return 1;
}

static int fold_transpose(const struct vc_node *n, const struct vpuxc_tensor *x,
			  struct vpuxc_tensor *o)
{
	int64_t perm[VPUXC_MAX_RANK], d[VPUXC_MAX_RANK];
	size_t istr[VPUXC_MAX_RANK], total, lin;
	int r = (int)x->rank, np = vc_attr_ints(n, "perm", perm, VPUXC_MAX_RANK);
	int i, ret;
	char seen[VPUXC_MAX_RANK] = { 0 };

	if (np < 0 || (np && np != r))
		return 0;
	for (i = 0; i < r; i++) {
		if (!np)
			perm[i] = r - 1 - i;
		if (perm[i] < 0 || perm[i] >= r || seen[perm[i]])
			return 0;
		seen[perm[i]] = 1;
		d[i] = x->dims[perm[i]];
	}
	for (i = r - 1; i >= 0; i--)
		istr[i] = i == r - 1 ? 1 : istr[i + 1] * (size_t)x->dims[i + 1];
	ret = talloc(o, x->dtype, r, d);
	if (ret <= 0)
		return ret;
	total = count(o);
	for (lin = 0; lin < total; lin++) {
		size_t l = lin, off = 0;

		for (i = r - 1; i >= 0; i--) {
			off += (l % (size_t)d[i]) * istr[perm[i]];
			l /= (size_t)d[i];
		}
		copy_elem(o, lin, x, off);
	}
	return 1;
}

static int fold_expand(const struct vpuxc_tensor *x,
		       const struct vpuxc_tensor *s, struct vpuxc_tensor *o)
{
	struct vpuxc_tensor sh = { .rank = 0 };
	const struct vpuxc_tensor *ts[2] = { x, &sh };
	int64_t d[VPUXC_MAX_RANK];
	int n = cst_ints(s, sh.dims, VPUXC_MAX_RANK), r, ret;
	size_t total, lin;

	if (n < 0)
		return 0;
	sh.rank = (uint32_t)n;
	if (!bc_dims(ts, 2, &r, d))
		return 0;
	ret = talloc(o, x->dtype, r, d);
	if (ret <= 0)
		return ret;
	total = count(o);
	for (lin = 0; lin < total; lin++)
		copy_elem(o, lin, x, bc_off(x, r, d, lin));
	return 1;
}

static int fold_cast(const struct vc_node *n, const struct vpuxc_tensor *x,
		     struct vpuxc_tensor *o)
{
	int32_t to = (int32_t)vc_attr_i(n, "to", 0);
	size_t i, total = count(x);
	int ret;

	if (!esz(to))
		return 0;
	if (to != VPUXC_FLOAT && x->dtype == VPUXC_FLOAT)
		for (i = 0; i < total; i++) {
			double f = get_f(x, i);

			/* out of the target's range: not ours to decide */
			if (!(f > -2147483648.0 && f < 2147483648.0) ||
			    (to == VPUXC_UINT8 && (f <= -1 || f >= 256)) ||
			    (to == VPUXC_INT8 && (f <= -129 || f >= 128)))
				return 0;
		}
	ret = talloc(o, to, (int)x->rank, x->dims);
	if (ret <= 0)
		return ret;
	for (i = 0; i < total; i++) {
		if (x->dtype == VPUXC_FLOAT)
			put(o, i, get_f(x, i), to == VC_BOOL ? get_f(x, i) != 0 :
			    (int64_t)get_f(x, i));
		else
			put(o, i, (double)get_i(x, i), get_i(x, i));
	}
	return 1;
}

static int fold_elementwise(const struct vc_node *n,
			    const struct vpuxc_tensor *const *in,
			    unsigned int nin, struct vpuxc_tensor *o)
{
	const char *op = n->op;
	int64_t d[VPUXC_MAX_RANK];
	int r, ret, flt, mod = !strcmp(op, "Mod");
	int fmod_c = (int)vc_attr_i(n, "fmod", 0);
	size_t total, lin;
	int32_t dt;

	if (!bc_dims(in, nin, &r, d))
		return 0;
	/* a float Mod must be C's fmod (fmod 1) */
	if (mod && in[0]->dtype == VPUXC_FLOAT && !fmod_c)
		return 0;
	if (!strcmp(op, "Where")) {
		if (in[1]->dtype != in[2]->dtype)
			return 0;
		dt = in[1]->dtype;
	} else {
		if (nin == 2 && in[0]->dtype != in[1]->dtype)
			return 0;
		dt = is_cmp(op) ? VC_BOOL : in[0]->dtype;
	}
	flt = in[nin - 1]->dtype == VPUXC_FLOAT;
	ret = talloc(o, dt, r, d);
	if (ret <= 0)
		return ret;
	total = count(o);
	for (lin = 0; lin < total; lin++) {
		size_t a = bc_off(in[0], r, d, lin);

		if (!strcmp(op, "Where")) {
			const struct vpuxc_tensor *s =
				get_i(in[0], a) ? in[1] : in[2];

			copy_elem(o, lin, s, bc_off(s, r, d, lin));
		} else if (nin == 1) {
			if (flt) {
				put(o, lin, f_un(op, get_f(in[0], a)), 0);
			} else {
				int64_t v = get_i(in[0], a);

				if (!strcmp(op, "Neg"))
					v = -v;
				else if (!strcmp(op, "Abs"))
					v = v < 0 ? -v : v;
				else if (!strcmp(op, "Not"))
					v = !v;
				else if (!strcmp(op, "Relu"))
					v = v > 0 ? v : 0;
				else if (strcmp(op, "Floor") && strcmp(op, "Ceil"))
					goto refuse;	/* Sqrt etc. of ints */
				put(o, lin, 0, v);
			}
		} else {
			size_t b = bc_off(in[1], r, d, lin);

			if (flt) {
				double v = f_bin(op, get_f(in[0], a), get_f(in[1], b));

				put(o, lin, v, (int64_t)v);
			} else {
				int64_t v, y = get_i(in[1], b);

				if (!i_bin(op, get_i(in[0], a), y, &v))
					goto refuse;
				/* Mod with fmod 0: the sign of the divisor */
				if (mod && !fmod_c && v && (v < 0) != (y < 0))
					v += y;
				put(o, lin, (double)v, v);
			}
		}
	}
	return 1;
refuse:
	vpuxc_tensor_fini(o);
	return 0;
}

static int fold_range(const struct vpuxc_tensor *const *in,
		      struct vpuxc_tensor *o)
{
	int flt = in[0]->dtype == VPUXC_FLOAT;
	double s = get_f(in[0], 0), l = get_f(in[1], 0), dl = get_f(in[2], 0);
	double c;
	int64_t n;
	size_t i;
	int ret;

	if (count(in[0]) != 1 || count(in[1]) != 1 || count(in[2]) != 1 ||
	    in[1]->dtype != in[0]->dtype || in[2]->dtype != in[0]->dtype || !dl)
		return 0;
	c = ceil((l - s) / dl);
	if (!(c < FOLD_MAX_ELEMS + 1.0))
		return 0;
	n = c > 0 ? (int64_t)c : 0;
	ret = talloc(o, in[0]->dtype, 1, &n);
	if (ret <= 0)
		return ret;
	for (i = 0; i < (size_t)n; i++) {
		if (flt)
			put(o, i, s + (double)i * dl, 0);
		else
			put(o, i, 0, get_i(in[0], 0) + (int64_t)i * get_i(in[2], 0));
	}
	return 1;
}

static int fold_cos(const struct vc_node *n, const struct vpuxc_tensor *s,
		    struct vpuxc_tensor *o)
{
	const struct vc_attr *a = vc_attr(n, "value");
	int64_t d[VPUXC_MAX_RANK];
	int r = cst_ints(s, d, VPUXC_MAX_RANK), ret, i;
	size_t total, lin;

	if (r < 0 || (a && (!a->t || count(a->t) != 1 || !esz(a->t->dtype))))
		return 0;
	for (i = 0; i < r; i++)
		if (d[i] < 0)
			return 0;
	ret = talloc(o, a ? a->t->dtype : VPUXC_FLOAT, r, d);
	if (ret <= 0 || !a)
		return ret;
	total = count(o);
	for (lin = 0; lin < total; lin++)
		copy_elem(o, lin, a->t, 0);
	return 1;
}

/*
 * ScatterND (reduction none): a copy of @x with the slices @idx names
 * replaced by those of @u, in index order; 0 unless the shapes match
 * (u: idx's dims but the last, then x's past the first k = idx's last
 * dim) and every index is in range (negative: from the end).
 */
static int fold_scatternd(const struct vc_node *n, const struct vpuxc_tensor *x,
			  const struct vpuxc_tensor *idx,
			  const struct vpuxc_tensor *u, struct vpuxc_tensor *o)
{
	int r = (int)x->rank, q = (int)idx->rank, k, i, ret;
	size_t slice = 1, nidx = 1, j, s = esz(x->dtype);

	if (strcmp(vc_attr_s(n, "reduction", "none"), "none") ||
	    (idx->dtype != VPUXC_INT64 && idx->dtype != VPUXC_INT32) ||
	    u->dtype != x->dtype || q < 1)
		return 0;
	k = (int)idx->dims[q - 1];
	if (k < 1 || k > r || (int)u->rank != q - 1 + r - k)
		return 0;
	for (i = 0; i < q - 1; i++) {
		if (u->dims[i] != idx->dims[i])
			return 0;
		nidx *= (size_t)idx->dims[i];
	}
	for (i = k; i < r; i++) {
		if (u->dims[q - 1 + i - k] != x->dims[i])
			return 0;
		slice *= (size_t)x->dims[i];
	}
	for (j = 0; j < nidx * (size_t)k; j++) {
		int64_t v = get_i(idx, j), d = x->dims[j % (size_t)k];

		if (v < -d || v >= d)
			return 0;
	}
	ret = fold_reshape_like(x, o, r, x->dims);
	if (ret <= 0)
		return ret;
	for (j = 0; j < nidx; j++) {
		size_t off = 0;

		for (i = 0; i < k; i++) {
			int64_t v = get_i(idx, j * (size_t)k + (size_t)i);

			if (v < 0)
				v += x->dims[i];
			off = off * (size_t)x->dims[i] + (size_t)v;
		}
		memcpy((char *)o->data + off * slice * s,
		       (const char *)u->data + j * slice * s, slice * s);
	}
	return 1;
}

static int static_dims(const struct vpuxc_model *m, const struct vc_value *v)
{
	int i;

	if (!v || v->rank < 0 || m->n_syms)
		return 0;
	for (i = 0; i < v->rank; i++)
		if (v->dims[i] < 0)
			return 0;
	return 1;
}

/* is every reader of @v a node that folds a boolean further? */
static int bool_readers_fold(const struct vc_edit *e, int v)
{
	const struct vpuxc_model *m = e->m;
	unsigned int k, i;

	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *n = &m->n[k];

		if (e->dead[k])
			continue;
		for (i = 0; i < n->n_in; i++)
			if (n->in[i] == v && !vc_is_op(n, "Where") &&
			    !vc_is_op(n, "Not") && !vc_is_op(n, "Cast") &&
			    !vc_is_op(n, "And") && !vc_is_op(n, "Or"))
				return 0;
	}
	return !(m->v[v].flags & VC_V_OUTPUT);
}

static int fold_node(struct vc_edit *e, unsigned int k, struct vpuxc_tensor *o)
{
	const struct vpuxc_model *m = e->m;
	const struct vc_node *n = &m->n[k];
	const struct vpuxc_tensor *in[8] = { NULL };
	const struct vc_value *x = vc_in(m, n, 0);
	const char *op = n->op;
	unsigned int i;

	if ((*n->domain && strcmp(n->domain, "ai.onnx")) || n->n_out != 1 ||
	    n->out[0] < 0 || (m->v[n->out[0]].flags & VC_V_OUTPUT) || !x)
		return 0;
	if (!strcmp(op, "Shape") || !strcmp(op, "Size")) {
		int64_t r = x->rank, s = vc_attr_i(n, "start", 0);
		int64_t en = vc_attr_i(n, "end", r), j, one = 1;
		int ret;

		if (!static_dims(m, x))
			return 0;
		if (op[1] == 'i') {
			ret = talloc(o, VPUXC_INT64, 0, &one);
			if (ret > 0)
				put(o, 0, 0, (int64_t)vc_numel(x));
			return ret;
		}
		s = s < 0 ? s + r : s;
		en = en < 0 ? en + r : en;
		s = s < 0 ? 0 : s > r ? r : s;
		en = en < 0 ? 0 : en > r ? r : en;
		one = en > s ? en - s : 0;
		ret = talloc(o, VPUXC_INT64, 1, &one);
		for (j = 0; ret > 0 && j < one; j++)
			put(o, (size_t)j, 0, x->dims[s + j]);
		return ret;
	}
	if (n->n_in > 8)
		return 0;
	for (i = 0; i < n->n_in; i++) {
		const struct vc_value *v = vc_in(m, n, i);

		if (v && !v->cst)
			return 0;
		in[i] = v ? v->cst : NULL;
		if (v && !esz(v->cst->dtype))
			return 0;
	}
	if (!strcmp(op, "Identity"))
		return fold_reshape_like(in[0], o, (int)in[0]->rank, in[0]->dims);
	if (!strcmp(op, "Reshape"))
		return in[1] ? fold_reshape(n, in[0], in[1], o) : 0;
	if (!strcmp(op, "Flatten")) {
		int64_t a = vc_attr_i(n, "axis", 1), d[2] = { 1, 1 };
		int j;

		if (a < 0)
			a += in[0]->rank;
		if (a < 0 || a > (int64_t)in[0]->rank)
			return 0;
		for (j = 0; j < (int)in[0]->rank; j++)
			d[j >= a] *= in[0]->dims[j];
		return fold_reshape_like(in[0], o, 2, d);
	}
	if (!strcmp(op, "Squeeze") || !strcmp(op, "Unsqueeze"))
		return fold_squeeze(m, n, in[0], o, op[0] == 'U');
	if (!strcmp(op, "Concat"))
		return fold_concat(m, n, o);
	if (!strcmp(op, "Gather"))
		return in[1] ? fold_gather(n, in[0], in[1], o) : 0;
	if (!strcmp(op, "Slice"))
		return m->opset < 10 || (in[1] && in[2]) ?
		       fold_slice(m, n, in[0], o) : 0;
	if (!strcmp(op, "Transpose"))
		return fold_transpose(n, in[0], o);
	if (!strcmp(op, "Expand"))
		return in[1] ? fold_expand(in[0], in[1], o) : 0;
	if (!strcmp(op, "Cast"))
		return fold_cast(n, in[0], o);
	if (!strcmp(op, "Range"))
		return n->n_in == 3 && in[1] && in[2] ? fold_range(in, o) : 0;
	if (!strcmp(op, "ConstantOfShape"))
		return fold_cos(n, in[0], o);
	if (!strcmp(op, "ScatterND"))
		return n->n_in == 3 && in[1] && in[2] ?
		       fold_scatternd(n, in[0], in[1], in[2], o) : 0;
	if (!strcmp(op, "Where"))
		return n->n_in == 3 && in[1] && in[2] ?
		       fold_elementwise(n, in, 3, o) : 0;
	if (ew_binary(op) || ew_unary(op)) {
		unsigned int nin = ew_binary(op) ? 2 : 1;

		if (n->n_in != nin || (nin == 2 && !in[1]))
			return 0;
		if (is_cmp(op) && !bool_readers_fold(e, n->out[0]))
			return 0;
		return fold_elementwise(n, in, nin, o);
	}
	return 0;
}

static int pass_fold(struct vc_edit *e, unsigned int *count_out)
{
	struct vpuxc_model *m = e->m;
	unsigned int k;

	for (k = 0; k < m->n_n; k++) {
		struct vpuxc_tensor t;
		struct vc_value *v;
		int ret;

		if (e->dead[k])
			continue;
		/* a Constant node nothing reads any more */
		if (vc_is_op(&m->n[k], "Constant") && m->n[k].n_out == 1 &&
		    (m->n[k].out[0] < 0 ||
		     (!m->v[m->n[k].out[0]].n_uses &&
		      !(m->v[m->n[k].out[0]].flags & VC_V_OUTPUT)))) {
			vc_edit_kill(e, k);
			continue;
		}
		memset(&t, 0, sizeof(t));
		ret = fold_node(e, k, &t);
		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		v = &m->v[m->n[k].out[0]];
		v->cst = malloc(sizeof(t));
		if (!v->cst) {
			vpuxc_tensor_fini(&t);
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		}
		*v->cst = t;
		v->dtype = t.dtype;
		v->rank = (int)t.rank;
		memcpy(v->dims, t.dims, sizeof(v->dims));
		vc_edit_kill(e, k);
		(*count_out)++;
	}
	return 0;
}

/* ---- Identity and Dropout ---- */

static int dropout_inference(const struct vpuxc_model *m,
			     const struct vc_node *n)
{
	const struct vc_value *tm = vc_in(m, n, 2), *r = vc_in(m, n, 1);
	unsigned int i;

	/* ratio 0 (opset 12's input): the identity, even in training */
	if (r && r->cst && count(r->cst) == 1 && r->cst->dtype == VPUXC_FLOAT &&
	    get_f(r->cst, 0) == 0)
		tm = NULL;
	else if (vc_attr_i(n, "training_mode", 0))
		return 0;
	if (tm && (!tm->cst || count(tm->cst) != 1 ||
		   get_i(tm->cst, 0) != 0))
		return 0;	/* training, or not known not to be */
	/* the mask output must be unread */
	for (i = 1; i < n->n_out; i++)
		if (n->out[i] >= 0 && (m->v[n->out[i]].n_uses ||
				       (m->v[n->out[i]].flags & VC_V_OUTPUT)))
			return 0;
	return 1;
}

static int pass_remove(struct vc_edit *e, unsigned int *cnt)
{
	struct vpuxc_model *m = e->m;
	unsigned int k, j;

	for (k = 0; k < m->n_n; k++) {
		struct vc_node *n = &m->n[k];
		int x, y;

		if (e->dead[k] || n->n_in < 1 || n->n_out < 1 ||
		    (!vc_is_op(n, "Identity") && !vc_is_op(n, "Dropout")) ||
		    n->in[0] < 0 || n->out[0] < 0)
			continue;
		if (vc_is_op(n, "Identity") && n->n_out != 1)
			continue;
		if (vc_is_op(n, "Dropout") && !dropout_inference(m, n))
			continue;
		x = n->in[0];
		y = n->out[0];
		if (!(m->v[y].flags & VC_V_OUTPUT)) {
			vc_edit_kill(e, k);
			vc_edit_replace_uses(e, y, x);
		} else {
			/* y keeps its name: x's producer makes y */
			int p = m->v[x].producer;

			if (p < 0 || (m->v[x].flags & (VC_V_OUTPUT | VC_V_INPUT)))
				continue;
			vc_edit_kill(e, k);
			for (j = 0; j < m->n[p].n_out; j++)
				if (m->n[p].out[j] == x)
					m->n[p].out[j] = y;
			m->v[x].producer = -1;
			m->v[y].producer = p;
			vc_edit_replace_uses(e, x, y);
		}
		(*cnt)++;
	}
	return 0;
}

/* ---- BatchNormalization ---- */

/* a float constant of @n elements, or NULL */
static const struct vpuxc_tensor *fcst(const struct vc_value *v, size_t n)
{
	return v && v->cst && v->cst->dtype == VPUXC_FLOAT &&
	       count(v->cst) == n ? v->cst : NULL;
}

/*
 * BN node @k's per-channel scale and shift (y = x * s + t) into @s, @t
 * (C of them, malloc'ed); 0 when @k is not an inference BN of constants.
 */
static int bn_params(const struct vpuxc_model *m, const struct vc_node *n,
		     double **s, double **t, size_t *c)
{
	const struct vc_value *g = vc_in(m, n, 1);
	const struct vpuxc_tensor *gt, *bt, *mt, *vt;
	double eps = vc_attr_f(n, "epsilon", 1e-5f);
	size_t i, ch;

	*s = *t = NULL;
	if (n->n_in != 5 || !g || !g->cst || vc_attr_i(n, "training_mode", 0) ||
	    vc_attr_i(n, "spatial", 1) != 1)
		return 0;
	for (i = 1; i < n->n_out; i++)
		if (n->out[i] >= 0 && (m->v[n->out[i]].n_uses ||
				       (m->v[n->out[i]].flags & VC_V_OUTPUT)))
			return 0;
	ch = count(g->cst);
	gt = fcst(g, ch);
	bt = fcst(vc_in(m, n, 2), ch);
	mt = fcst(vc_in(m, n, 3), ch);
	vt = fcst(vc_in(m, n, 4), ch);
	if (!ch || !gt || !bt || !mt || !vt || gt->rank != 1)
		return 0;
	*s = malloc(sizeof(double) * ch);
	*t = malloc(sizeof(double) * ch);
	if (!*s || !*t) {
		free(*s);
		free(*t);
		*s = *t = NULL;
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	for (i = 0; i < ch; i++) {
		double v = get_f(vt, i) + eps;

		if (!(v > 0)) {
			free(*s);
			free(*t);
			*s = *t = NULL;
			return 0;
		}
		(*s)[i] = get_f(gt, i) / sqrt(v);
		(*t)[i] = get_f(bt, i) - get_f(mt, i) * (*s)[i];
	}
	*c = ch;
	return 1;
}

/* fold BN @k into the Conv/ConvTranspose/Gemm @p before it: 1 done */
static int bn_into(struct vc_edit *e, unsigned int k, unsigned int p,
		   const double *s, const double *t, size_t ch)
{
	struct vpuxc_model *m = e->m;
	const struct vc_node *q = &m->n[p];
	const struct vc_value *w = vc_in(m, q, 1), *b = vc_in(m, q, 2);
	int conv = vc_is_op(q, "Conv"), convt = vc_is_op(q, "ConvTranspose");
	int gemm = vc_is_op(q, "Gemm"), tb = (int)vc_attr_i(q, "transB", 0);
	int64_t group = vc_attr_i(q, "group", 1), bdim = (int64_t)ch;
	double alpha = vc_attr_f(q, "alpha", 1.0f), beta = vc_attr_f(q, "beta", 1.0f);
	const struct vpuxc_tensor *wt, *bt = NULL;
	size_t total, i, inner = 1;
	int wi, bi, r, y = m->n[k].out[0];
	float *wd, *bd;
	char base[300];

	if (!w || !w->cst || w->cst->dtype != VPUXC_FLOAT || (q->n_out != 1))
		return 0;
	wt = w->cst;
	r = (int)wt->rank;
	if (gemm) {
		if (r != 2 || wt->dims[tb ? 0 : 1] != (int64_t)ch ||
		    vc_attr_i(q, "transA", 0) > 1 || m->v[q->out[0]].rank != 2)
			return 0;
	} else if (r < 3 || group < 1 ||
		   (conv && wt->dims[0] != (int64_t)ch) ||
		   (convt && (wt->dims[0] % group ||
			      wt->dims[1] * group != (int64_t)ch))) {
		return 0;
	}
	if (b) {
		bt = b->cst;
		if (!bt || bt->dtype != VPUXC_FLOAT ||
		    (count(bt) != ch && !(gemm && count(bt) == 1)) ||
		    (gemm && bt->rank == 2 && bt->dims[1] != (int64_t)ch &&
		     count(bt) != 1))
			return 0;
	}
	for (i = 2; i < (size_t)r; i++)
		inner *= (size_t)wt->dims[i];
	snprintf(base, sizeof(base), "%s", q->name);
	wi = vc_edit_new_cst(e, base, VPUXC_FLOAT, r, wt->dims, (void **)&wd);
	if (wi < 0)
		return wi;
	bi = vc_edit_new_cst(e, base, VPUXC_FLOAT, 1, &bdim, (void **)&bd);
	if (bi < 0)
		return bi;
	/* m->v moved: pointers again */
	q = &m->n[p];
	wt = vc_in(m, q, 1)->cst;
	bt = vc_in(m, q, 2) ? vc_in(m, q, 2)->cst : NULL;
	total = count(wt);
	for (i = 0; i < total; i++) {
		size_t oc;

		if (gemm)
			oc = tb ? i / (size_t)wt->dims[1] : i % (size_t)wt->dims[1];
		else if (conv)
			oc = i / ((size_t)wt->dims[1] * inner);
		else {	/* ConvTranspose: [Cin, M/g, k...] */
			size_t c = i / ((size_t)wt->dims[1] * inner);
			size_t j = (i / inner) % (size_t)wt->dims[1];

			oc = c / ((size_t)wt->dims[0] / (size_t)group) *
			     (size_t)wt->dims[1] + j;
		}
		wd[i] = (float)(get_f(wt, i) * s[oc]);
	}
	for (i = 0; i < ch; i++) {
		double bv = bt ? get_f(bt, count(bt) == 1 ? 0 : i) : 0;

		if (gemm)	/* alpha*A*B'*s + beta*C*s + t, B' = B*s */
			bd[i] = (float)(beta * bv * s[i] + t[i]);
		else
			bd[i] = (float)(bv * s[i] + t[i]);
	}
	(void)alpha;
	vc_edit_set_in(e, p, 1, wi);
	if (m->n[p].n_in < 3) {
		int in[3] = { m->n[p].in[0], wi, bi };
		int ret = vc_edit_set_inputs(e, p, in, 3);

		if (ret)
			return ret;
	} else {
		vc_edit_set_in(e, p, 2, bi);
	}
	if (gemm && vc_edit_attr_f(&m->n[p], "beta", 1.0f))
		return VPUX_E_NOMEM;
	/* the Conv makes the BN's output */
	vc_edit_kill(e, k);
	m->v[m->n[p].out[0]].producer = -1;
	m->n[p].out[0] = y;
	m->v[y].producer = (int)p;
	return 1;
}

/* a BN on its own: depthwise 1x1 Conv (rank 4) or Mul + Add */
static int bn_alone(struct vc_edit *e, unsigned int k, const double *s,
		    const double *t, size_t ch)
{
	struct vpuxc_model *m = e->m;
	const struct vc_value *x = vc_in(m, &m->n[k], 0);
	int64_t d[VPUXC_MAX_RANK], c = (int64_t)ch;
	int r = x->rank, i, si, ti, ret;
	float *sd, *td;
	char base[300];

	if (r < 2 || x->dims[1] != c || x->dtype != VPUXC_FLOAT)
		return 0;
	snprintf(base, sizeof(base), "%s", m->n[k].name);
	d[0] = c;
	for (i = 1; i < (r == 4 ? 4 : r - 1); i++)
		d[i] = 1;
	si = vc_edit_new_cst(e, base, VPUXC_FLOAT, r == 4 ? 4 : r - 1, d,
			     (void **)&sd);
	if (si < 0)
		return si;
	ti = vc_edit_new_cst(e, base, VPUXC_FLOAT, r == 4 ? 1 : r - 1, d,
			     (void **)&td);
	if (ti < 0)
		return ti;
	for (i = 0; i < c; i++) {
		sd[i] = (float)s[i];
		td[i] = (float)t[i];
	}
	if (r == 4) {
		int in[3] = { m->n[k].in[0], si, ti };
		static const int64_t one[2] = { 1, 1 };

		ret = vc_edit_set_inputs(e, k, in, 3);
		if (!ret)
			ret = vc_edit_set_op(&m->n[k], "Conv", "");
		vc_edit_clear_attrs(&m->n[k]);
		if (!ret)
			ret = vc_edit_attr_i(&m->n[k], "group", c);
		if (!ret)
			ret = vc_edit_attr_ints(&m->n[k], "kernel_shape", one, 2);
	} else {
		int xi = m->n[k].in[0], mi, tv, in[2];

		snprintf(base, sizeof(base), "%s/scale", m->n[k].name);
		tv = vc_edit_new_value(e, base);
		if (tv < 0)
			return tv;
		mi = vc_edit_new_node(e, "Mul", "", base, 2, 1);
		if (mi < 0)
			return mi;
		m->n[mi].out[0] = tv;
		m->v[tv].producer = mi;
		vc_edit_set_in(e, (unsigned int)mi, 0, xi);
		vc_edit_set_in(e, (unsigned int)mi, 1, si);
		in[0] = tv;
		in[1] = ti;
		ret = vc_edit_set_inputs(e, k, in, 2);
		if (!ret)
			ret = vc_edit_set_op(&m->n[k], "Add", "");
		vc_edit_clear_attrs(&m->n[k]);
	}
	if (m->n[k].n_out > 1) {
		unsigned int j;

		for (j = 1; j < m->n[k].n_out; j++)
			if (m->n[k].out[j] >= 0)
				m->v[m->n[k].out[j]].producer = -1;
		m->n[k].n_out = 1;
	}
	return ret ? ret : 1;
}

static int pass_bn(struct vc_edit *e, struct vc_pass_stats *st)
{
	struct vpuxc_model *m = e->m;
	unsigned int k;

	for (k = 0; k < m->n_n; k++) {
		const struct vc_value *x;
		double *s, *t;
		size_t ch = 0;
		int ret, p;

		if (e->dead[k] || !vc_is_op(&m->n[k], "BatchNormalization") ||
		    m->n[k].n_out < 1 || m->n[k].out[0] < 0 || m->n[k].in[0] < 0)
			continue;
		ret = bn_params(m, &m->n[k], &s, &t, &ch);
		if (ret <= 0) {
			if (ret < 0)
				return ret;
			continue;
		}
		x = vc_in(m, &m->n[k], 0);
		p = x->producer;
		ret = 0;
		if (p >= 0 && x->n_uses == 1 && !(x->flags & VC_V_OUTPUT) &&
		    (vc_is_op(&m->n[p], "Conv") || vc_is_op(&m->n[p], "ConvTranspose") ||
		     vc_is_op(&m->n[p], "Gemm")) &&
		    m->n[p].out[0] == m->n[k].in[0]) {
			ret = bn_into(e, k, (unsigned int)p, s, t, ch);
			if (ret > 0)
				st->bn_fused++;
		}
		if (!ret) {
			ret = bn_alone(e, k, s, t, ch);
			if (ret > 0)
				st->bn_alone++;
		}
		free(s);
		free(t);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- Pad into Conv / pooling ---- */

static int pass_pad(struct vc_edit *e, unsigned int *cnt)
{
	struct vpuxc_model *m = e->m;
	unsigned int k, slot;

	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *n = &m->n[k];
		int64_t pads[2 * VPUXC_MAX_RANK], cp[2 * VPUXC_MAX_RANK];
		const struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
		double val = 0;
		int np, r, i, c, sp, conv, maxpool, ret;
		const struct vc_node *q;

		if (e->dead[k] || !vc_is_op(n, "Pad") || !x || !y ||
		    y->n_uses != 1 || (y->flags & VC_V_OUTPUT) || x->rank < 3)
			continue;
		r = x->rank;
		if (strcmp(vc_attr_s(n, "mode", "constant"), "constant"))
			continue;
		if (m->opset >= 11) {
			const struct vc_value *pv = vc_in(m, n, 1), *cv = vc_in(m, n, 2);

			if (!pv || !pv->cst || vc_in(m, n, 3))
				continue;
			np = cst_ints(pv->cst, pads, 2 * VPUXC_MAX_RANK);
			if (cv) {
				if (!cv->cst || count(cv->cst) != 1 ||
				    cv->cst->dtype != VPUXC_FLOAT)
					continue;
				val = get_f(cv->cst, 0);
			}
		} else {
			np = vc_attr_ints(n, "pads", pads, 2 * VPUXC_MAX_RANK);
			val = vc_attr_f(n, "value", 0);
		}
		if (np != 2 * r || pads[0] || pads[1] || pads[r] || pads[r + 1])
			continue;
		for (i = 2; i < r; i++)
			if (pads[i] < 0 || pads[r + i] < 0)
				break;
		if (i < r)
			continue;
		c = vc_edit_user(e, n->out[0], &slot);
		if (c < 0 || slot != 0)
			continue;
		q = &m->n[c];
		conv = vc_is_op(q, "Conv");
		maxpool = vc_is_op(q, "MaxPool");
		if (!conv && !maxpool && !vc_is_op(q, "AveragePool"))
			continue;
		if (strcmp(vc_attr_s(q, "auto_pad", "NOTSET"), "NOTSET"))
			continue;
		if (maxpool ? !(isinf(val) && val < 0) : val != 0)
			continue;
		if (vc_is_op(q, "AveragePool") &&
		    (!vc_attr_i(q, "count_include_pad", 0) ||
		     vc_attr_i(q, "ceil_mode", 0)))
			continue;
		sp = r - 2;
		ret = vc_attr_ints(q, "pads", cp, 2 * VPUXC_MAX_RANK);
		if (ret < 0 || (ret && ret != 2 * sp))
			continue;
		if (!ret)
			memset(cp, 0, sizeof(cp));
		for (i = 0; i < sp; i++) {
			cp[i] += pads[2 + i];
			cp[sp + i] += pads[r + 2 + i];
		}
		ret = vc_edit_attr_ints(&m->n[c], "pads", cp, (unsigned int)(2 * sp));
		if (ret)
			return ret;
		vc_edit_set_in(e, (unsigned int)c, 0, m->n[k].in[0]);
		vc_edit_kill(e, k);
		(*cnt)++;
	}
	return 0;
}

/* ---- pattern fusion ---- */

/* the producer of @v if it is op @op of the default domain, else -1 */
static int prod_op(const struct vc_edit *e, int v, const char *op)
{
	int p = v >= 0 ? e->m->v[v].producer : -1;

	return p >= 0 && !e->dead[p] && vc_is_op(&e->m->n[p], op) ? p : -1;
}

/* @v is read only once, inside the pattern */
static int single(const struct vpuxc_model *m, int v)
{
	return v >= 0 && m->v[v].n_uses == 1 && !(m->v[v].flags & VC_V_OUTPUT);
}

/* @v is a float constant of one element close to @want */
static int scalar_is(const struct vpuxc_model *m, int v, double want)
{
	const struct vpuxc_tensor *t;

	if (v < 0 || !(t = m->v[v].cst) || t->dtype != VPUXC_FLOAT ||
	    count(t) != 1)
		return 0;
	return fabs(get_f(t, 0) - want) <= 1e-5 * (fabs(want) > 1 ? fabs(want) : 1);
}

/* the other input of binary node @k, given one of them (-1 if neither) */
static int other_in(const struct vc_node *n, int v)
{
	if (n->n_in != 2)
		return -1;
	return n->in[0] == v ? n->in[1] : n->in[1] == v ? n->in[0] : -1;
}

/* node @k becomes @op(@in...) of @domain with no attributes */
static int become(struct vc_edit *e, unsigned int k, const char *op,
		  const char *domain, const int *in, unsigned int nin)
{
	int ret = vc_edit_set_inputs(e, k, in, nin);

	if (!ret)
		ret = vc_edit_set_op(&e->m->n[k], op, domain);
	vc_edit_clear_attrs(&e->m->n[k]);
	return ret;
}

/* Mul(x, Sigmoid(x)) -> Silu; Mul(x, HardSigmoid(x)) -> HardSwish */
static int pass_gates(struct vc_edit *e, struct vc_pass_stats *st)
{
	struct vpuxc_model *m = e->m;
	unsigned int k, i;

	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *n = &m->n[k];

		if (e->dead[k] || !vc_is_op(n, "Mul") || n->n_in != 2 ||
		    n->n_out != 1)
			continue;
		for (i = 0; i < 2; i++) {
			int s = n->in[i], x = n->in[1 - i], p, hs, ret;
			const struct vc_node *g;

			if ((p = prod_op(e, s, "Sigmoid")) < 0 &&
			    (p = prod_op(e, s, "HardSigmoid")) < 0)
				continue;
			g = &m->n[p];
			hs = vc_is_op(g, "HardSigmoid");
			if (g->n_in != 1 || g->in[0] != x || x < 0 || !single(m, s))
				continue;
			if (hs && (fabs(vc_attr_f(g, "alpha", 0.2f) - 1.0 / 6) > 1e-6 ||
				   fabs(vc_attr_f(g, "beta", 0.5f) - 0.5) > 1e-6))
				continue;
			vc_edit_kill(e, (unsigned int)p);
			ret = become(e, k, hs ? "HardSwish" : "Silu",
				     hs ? "" : "com.vpux", &x, 1);
			if (ret)
				return ret;
			if (hs)
				st->hardswish++;
			else
				st->silu++;
			break;
		}
	}
	return 0;
}

/*
 * GELU, as torch exports it: x * 0.5 * (1 + Erf(x / sqrt(2))), the
 * division also as Mul by 1/sqrt(2), the two products in any order.
 */
static int pass_gelu(struct vc_edit *e, unsigned int *cnt)
{
	struct vpuxc_model *m = e->m;
	unsigned int k;

	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *erf = &m->n[k];
		int u, x = -1, d, ef, pl, a, m1, m2 = -1, o1, h = -1, out, ret;
		unsigned int slot;

		if (e->dead[k] || !vc_is_op(erf, "Erf") || erf->n_in != 1 ||
		    erf->n_out != 1)
			continue;
		u = erf->in[0];
		ef = erf->out[0];
		if (!single(m, u) || !single(m, ef))
			continue;
		if ((d = prod_op(e, u, "Div")) >= 0) {
			if (!scalar_is(m, m->n[d].in[1], M_SQRT2))
				continue;
			x = m->n[d].in[0];
		} else if ((d = prod_op(e, u, "Mul")) >= 0) {
			x = scalar_is(m, m->n[d].in[1], M_SQRT1_2) ? m->n[d].in[0] :
			    scalar_is(m, m->n[d].in[0], M_SQRT1_2) ? m->n[d].in[1] : -1;
		}
		if (x < 0 || m->v[x].cst)
			continue;
		/* 1 + erf */
		a = vc_edit_user(e, ef, &slot);
		if (a < 0 || !vc_is_op(&m->n[a], "Add") ||
		    !scalar_is(m, other_in(&m->n[a], ef), 1.0))
			continue;
		pl = m->n[a].out[0];
		if (!single(m, pl))
			continue;
		m1 = vc_edit_user(e, pl, &slot);
		if (m1 < 0 || !vc_is_op(&m->n[m1], "Mul") ||
		    (o1 = other_in(&m->n[m1], pl)) < 0)
			continue;
		if (o1 == x || scalar_is(m, o1, 0.5)) {
			/* (x * p) * 0.5 or (p * 0.5) * x */
			int want = o1 == x ? -2 : x;

			if (!single(m, m->n[m1].out[0]))
				continue;
			m2 = vc_edit_user(e, m->n[m1].out[0], &slot);
			if (m2 < 0 || !vc_is_op(&m->n[m2], "Mul"))
				continue;
			o1 = other_in(&m->n[m2], m->n[m1].out[0]);
			if (want == -2 ? !scalar_is(m, o1, 0.5) : o1 != want)
				continue;
			out = m2;
		} else {
			/* (x * 0.5) * p */
			h = prod_op(e, o1, "Mul");
			if (h < 0 || !single(m, o1) ||
			    !scalar_is(m, other_in(&m->n[h], x), 0.5))
				continue;
			out = m1;
		}
		if (m->n[out].n_out != 1)
			continue;
		vc_edit_kill(e, (unsigned int)d);
		vc_edit_kill(e, k);
		vc_edit_kill(e, (unsigned int)a);
		if (out != m1)
			vc_edit_kill(e, (unsigned int)m1);
		if (h >= 0)
			vc_edit_kill(e, (unsigned int)h);
		ret = become(e, (unsigned int)out, "Gelu", "", &x, 1);
		if (!ret)
			ret = vc_edit_attr_s(&m->n[out], "approximate", "none");
		if (ret)
			return ret;
		(*cnt)++;
	}
	return 0;
}

/* ReduceMean @k's axes as negative numbers, sorted; count or -1 */
static int rm_axes(const struct vpuxc_model *m, const struct vc_node *n,
		   int rank, int64_t *ax)
{
	const struct vc_value *a = vc_in(m, n, 1);
	int na, i, j;

	if (vc_attr_i(n, "keepdims", 1) != 1 || n->n_out != 1)
		return -1;
	if (a)
		na = a->cst ? cst_ints(a->cst, ax, VPUXC_MAX_RANK) : -1;
	else
		na = vc_attr_ints(n, "axes", ax, VPUXC_MAX_RANK);
	if (na <= 0)
		return -1;
	for (i = 0; i < na; i++) {
		if (ax[i] >= 0) {
			if (rank < 0 || ax[i] >= rank)
				return -1;
			ax[i] -= rank;
		}
		if (rank >= 0 && ax[i] < -rank)
			return -1;
	}
	for (i = 1; i < na; i++)	/* sort */
		for (j = i; j > 0 && ax[j - 1] > ax[j]; j--) {
			int64_t t = ax[j];

			ax[j] = ax[j - 1];
			ax[j - 1] = t;
		}
	/* the trailing axes: -na .. -1 */
	for (i = 0; i < na; i++)
		if (ax[i] != i - na)
			return -1;
	return na;
}

/* @v (a constant) has the dims @nd (or the same with leading 1s) */
static int shaped_as(const struct vpuxc_tensor *t, const int64_t *nd, int na)
{
	int i, off;

	if (!t || t->dtype != VPUXC_FLOAT || (int)t->rank < na)
		return 0;
	off = (int)t->rank - na;
	for (i = 0; i < off; i++)
		if (t->dims[i] != 1)
			return 0;
	for (i = 0; i < na; i++)
		if (t->dims[off + i] != nd[i])
			return 0;
	return 1;
}

/* a copy of constant @v with dims @nd; its index */
static int cst_as(struct vc_edit *e, int v, const int64_t *nd, int na,
		  const char *base, double fill)
{
	const struct vpuxc_tensor *t = v >= 0 ? e->m->v[v].cst : NULL;
	int64_t n = 1;
	float *d;
	int i, idx;

	for (i = 0; i < na; i++)
		n *= nd[i];
	idx = vc_edit_new_cst(e, base, VPUXC_FLOAT, na, nd, (void **)&d);
	if (idx < 0)
		return idx;
	t = v >= 0 ? e->m->v[v].cst : NULL;
	for (i = 0; i < n; i++)
		d[i] = t ? (float)get_f(t, (size_t)i) : (float)fill;
	return idx;
}

/*
 * Layer norm, decomposed: m = ReduceMean(x); d = x - m; v =
 * ReduceMean(d^2); y = d / Sqrt(v + eps) [* gamma] [+ beta], over the
 * trailing axes.
 */
static int pass_layernorm(struct vc_edit *e, unsigned int *cnt)
{
	struct vpuxc_model *m = e->m;
	unsigned int k, slot;

	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *dv = &m->n[k];
		int64_t ax[VPUXC_MAX_RANK], ax2[VPUXC_MAX_RANK], nd[VPUXC_MAX_RANK];
		int sub, rm1, rm2, pw, ad, sq, x, dd, s, na, i, out, mul = -1, add = -1;
		int gamma = -1, beta = -1, in[3], ret, rank, vv, y, epsv;
		char base[300];
		double eps;

		if (e->dead[k] || !vc_is_op(dv, "Div") || dv->n_in != 2)
			continue;
		dd = dv->in[0];
		s = dv->in[1];
		if ((sub = prod_op(e, dd, "Sub")) < 0 ||
		    (sq = prod_op(e, s, "Sqrt")) < 0 || !single(m, s))
			continue;
		x = m->n[sub].in[0];
		if ((rm1 = prod_op(e, m->n[sub].in[1], "ReduceMean")) < 0 ||
		    m->n[rm1].in[0] != x || !single(m, m->n[sub].in[1]))
			continue;
		/* d is read by the Pow and the Div only */
		if (m->v[dd].n_uses != 2 || (m->v[dd].flags & VC_V_OUTPUT))
			continue;
		if ((ad = prod_op(e, m->n[sq].in[0], "Add")) < 0 ||
		    !single(m, m->n[sq].in[0]))
			continue;
		vv = m->n[ad].in[0];
		epsv = m->n[ad].in[1];
		if (prod_op(e, vv, "ReduceMean") < 0) {
			vv = m->n[ad].in[1];
			epsv = m->n[ad].in[0];
		}
		if ((rm2 = prod_op(e, vv, "ReduceMean")) < 0 || !single(m, vv) ||
		    !m->v[epsv].cst || m->v[epsv].cst->dtype != VPUXC_FLOAT ||
		    count(m->v[epsv].cst) != 1)
			continue;
		eps = get_f(m->v[epsv].cst, 0);
		if ((pw = prod_op(e, m->n[rm2].in[0], "Pow")) < 0 ||
		    !single(m, m->n[rm2].in[0]) || m->n[pw].in[0] != dd ||
		    !scalar_is(m, m->n[pw].in[1], 2.0) || !(eps >= 0))
			continue;
		rank = m->v[x].rank;
		na = rm_axes(m, &m->n[rm1], rank, ax);
		if (na < 0 || rm_axes(m, &m->n[rm2], rank, ax2) != na ||
		    m->v[x].dtype != VPUXC_FLOAT)
			continue;
		if (rank < 0 || na > rank)
			continue;
		for (i = 0; i < na; i++) {
			nd[i] = m->v[x].dims[rank - na + i];
			if (nd[i] < 0)
				break;
		}
		if (i < na)
			continue;
		/* optional * gamma, + beta (constants of the normalized dims) */
		out = (int)k;
		y = dv->out[0];
		if (single(m, y) && (mul = vc_edit_user(e, y, &slot)) >= 0 &&
		    vc_is_op(&m->n[mul], "Mul") &&
		    (gamma = other_in(&m->n[mul], y)) >= 0 &&
		    shaped_as(m->v[gamma].cst, nd, na)) {
			out = mul;
			y = m->n[mul].out[0];
		} else {
			mul = gamma = -1;
			y = dv->out[0];
		}
		if (single(m, y) && (add = vc_edit_user(e, y, &slot)) >= 0 &&
		    vc_is_op(&m->n[add], "Add") &&
		    (beta = other_in(&m->n[add], y)) >= 0 &&
		    shaped_as(m->v[beta].cst, nd, na)) {
			out = add;
		} else {
			add = beta = -1;
		}
		if (m->n[out].n_out != 1)
			continue;
		snprintf(base, sizeof(base), "%s", m->n[out].name);
		/* scale and bias with exactly the normalized dims */
		gamma = cst_as(e, gamma, nd, na, base, 1.0);
		if (gamma < 0)
			return gamma;
		if (beta >= 0) {
			beta = cst_as(e, beta, nd, na, base, 0.0);
			if (beta < 0)
				return beta;
		}
		vc_edit_kill(e, (unsigned int)rm1);
		vc_edit_kill(e, (unsigned int)sub);
		vc_edit_kill(e, (unsigned int)pw);
		vc_edit_kill(e, (unsigned int)rm2);
		vc_edit_kill(e, (unsigned int)ad);
		vc_edit_kill(e, (unsigned int)sq);
		if (out != (int)k)
			vc_edit_kill(e, k);
		if (mul >= 0 && out != mul)
			vc_edit_kill(e, (unsigned int)mul);
		in[0] = x;
		in[1] = gamma;
		in[2] = beta;
		ret = become(e, (unsigned int)out, "LayerNormalization", "", in,
			     beta >= 0 ? 3 : 2);
		if (!ret)
			ret = vc_edit_attr_i(&m->n[out], "axis", rank - na);
		if (!ret)
			ret = vc_edit_attr_f(&m->n[out], "epsilon", (float)eps);
		if (ret)
			return ret;
		(*cnt)++;
	}
	return 0;
}

/* ---- the driver ---- */

static unsigned int total(const struct vc_pass_stats *s)
{
	return s->folded + s->bn_fused + s->bn_alone + s->pad_fused +
	       s->removed + s->silu + s->hardswish + s->gelu + s->layernorm;
}

int vc_run_passes(struct vpuxc_model *m)
{
	struct vc_pass_stats *st = &m->stats;
	struct vc_edit e;
	unsigned int round, before;
	int ret;

	if (m->passes_done)
		return 0;
	m->passes_done = 1;
	ret = vc_edit_init(&e, m);
	if (ret)
		return ret;
	/*
	 * To a fixpoint: a round that changes nothing ends it, and each
	 * round that changes something removes or rewrites a node, so the
	 * node count bounds the rounds (a chain of Shape-derived reshapes
	 * folds one link a round, shape inference in between).
	 */
	for (round = 0; round <= m->n_n; round++) {
		before = total(st);
		ret = pass_remove(&e, &st->removed);
		if (!ret)
			ret = pass_fold(&e, &st->folded);
		if (!ret)
			ret = pass_bn(&e, st);
		if (!ret)
			ret = pass_pad(&e, &st->pad_fused);
		if (!ret)
			ret = pass_gates(&e, st);
		if (!ret)
			ret = pass_gelu(&e, &st->gelu);
		if (!ret)
			ret = pass_layernorm(&e, &st->layernorm);
		if (!ret)
			ret = vc_edit_compact(&e);
		if (!ret)
			ret = vc_infer_shapes(m);
		if (ret || total(st) == before)
			break;
	}
	vc_edit_fini(&e);
	return ret;
}

void vc_pass_summary(const struct vpuxc_model *m, char *buf, size_t cap)
{
	const struct vc_pass_stats *s = &m->stats;

	snprintf(buf, cap,
		 "passes: folded %u constants, %u BatchNormalization into Conv/Gemm, %u BatchNormalization alone, %u Pad into Conv/Pool, %u Identity/Dropout removed, fused %u SiLU, %u HardSwish, %u GELU, %u LayerNormalization",
		 s->folded, s->bn_fused, s->bn_alone, s->pad_fused, s->removed,
		 s->silu, s->hardswish, s->gelu, s->layernorm);
}
