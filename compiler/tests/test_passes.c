// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The graph passes (compiler/passes.c), one model each: built in memory
 * with the protobuf-c structs, imported, shape-inferred and passed, then
 * the IR inspected. Each rewrite once where it must fire and once per
 * precondition where it must not; the folded BatchNormalization weights
 * against the formula.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "ir.h"
#include "onnx.pb-c.h"
#include "onnx_build.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

/* ---- building models: onnx_build.h ---- */

/* a float scalar initializer */
static void mb_scalar(struct mb *b, const char *name, float v)
{
	mb_const(b, name, 1, 0, NULL, &v);
}

/* a node; @ins, @outs: names separated by ',' (an empty one: omitted) */
static Onnx__NodeProto *mb_node_csv(struct mb *b, const char *op,
				    const char *name, const char *ins,
				    const char *outs)
{
	const char *lists[2] = { ins, outs };
	char **v[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	int k;

	for (k = 0; k < 2; k++) {
		const char *s = lists[k];

		while (s && *s) {
			const char *c = strchr(s, ',');
			size_t len = c ? (size_t)(c - s) : strlen(s);
			char *e = mb_alloc(b, len + 1);

			memcpy(e, s, len);
			MB_PUSH(b, v[k], n[k], e);
			s = c ? c + 1 : NULL;
		}
	}
	return mb_node(b, op, name, v[0], n[0], v[1], n[1]);
}

/* import, infer shapes, run the passes; NULL (and a failed point) on error */
static struct vpuxc_model *run(struct mb *b, const char *what)
{
	struct vpuxc_model *m = NULL;
	int ret = mb_import(b, &m);

	if (!ret)
		ret = vc_infer_shapes(m);
	if (!ret)
		ret = vc_run_passes(m);
	mb_free(b);
	if (ret) {
		tap_check(0, "%s: %s", what, vpux_last_error());
		vpuxc_model_free(m);
		return NULL;
	}
	return m;
}

/* ---- looking at the result ---- */

static unsigned int n_op(const struct vpuxc_model *m, const char *op)
{
	unsigned int i, c = 0;

	for (i = 0; i < m->n_n; i++)
		c += !strcmp(m->n[i].op, op);
	return c;
}

static const struct vc_node *node_op(const struct vpuxc_model *m,
				     const char *op)
{
	unsigned int i;

	for (i = 0; i < m->n_n; i++)
		if (!strcmp(m->n[i].op, op))
			return &m->n[i];
	return NULL;
}

/* the graph is consistent: topological, uses counted, names hashed */
static int sane(const struct vpuxc_model *m)
{
	unsigned int i, j, *uses = calloc(m->n_v + 1, sizeof(unsigned int));
	int ok = 1;

	for (i = 0; i < m->n_n; i++) {
		for (j = 0; j < m->n[i].n_in; j++) {
			int v = m->n[i].in[j];

			if (v < 0)
				continue;
			uses[v]++;
			if (m->v[v].producer >= (int)i)
				ok = 0;
			if (m->v[v].producer < 0 && !m->v[v].cst &&
			    !(m->v[v].flags & VC_V_INPUT))
				ok = 0;
		}
		for (j = 0; j < m->n[i].n_out; j++)
			if (m->n[i].out[j] >= 0 &&
			    m->v[m->n[i].out[j]].producer != (int)i)
				ok = 0;
	}
	for (i = 0; i < m->n_v; i++)
		if (uses[i] != m->v[i].n_uses ||
		    vc_find(m, m->v[i].name) != (int)i)
			ok = 0;
	for (i = 0; i < m->n_outputs; i++)
		if (m->v[m->outputs[i]].producer < 0)
			ok = 0;
	free(uses);
	return ok;
}

static void done(struct vpuxc_model *m, const char *what)
{
	if (m)
		tap_check(sane(m), "%s: the graph stays consistent", what);
	vpuxc_model_free(m);
}

static const int64_t d4[4] = { 1, 3, 4, 4 };

/* ---- constant folding ---- */

static void test_fold(void)
{
	static const int64_t one[1] = { 1 }, minus1[1] = { -1 }, d1[1] = { 1 };
	static const int64_t zero = 0, r4[4] = { 1, 3, 2, 8 }, dyn[4] = { -1, 3, 4, 4 };
	static const int64_t big[2] = { 2048, 1024 }, two[1] = { 2 };
	struct vpuxc_model *m;
	const struct vc_node *n;
	const struct vc_value *s;
	struct mb b;
	int i;

	/* x.view(x.size(0), -1) */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 2, (int64_t[]){ 1, 48 });
	mb_const(&b, "i0", 7, 0, NULL, &zero);
	mb_const(&b, "ax0", 7, 1, one, &zero);
	mb_const(&b, "m1", 7, 1, d1, minus1);
	mb_node_csv(&b, "Shape", "shape", "x", "s");
	mb_node_csv(&b, "Gather", "gather", "s,i0", "g");
	mb_node_csv(&b, "Unsqueeze", "unsq", "g,ax0", "u");
	mb_attr_int(&b, mb_node_csv(&b, "Concat", "cat", "u,m1", "c"),
		    "axis", 0);
	mb_node_csv(&b, "Reshape", "reshape", "x,c", "y");
	m = run(&b, "view");
	if (m) {
		n = node_op(m, "Reshape");
		s = n ? vc_in(m, n, 1) : NULL;
		tap_check(m->n_n == 1 && m->stats.folded == 4 && s && s->cst &&
			  vc_numel(s) == 2 && vc_cst_i(s->cst, 0) == 1 &&
			  vc_cst_i(s->cst, 1) == -1 && vc_out(m, n, 0)->rank == 2,
			  "Shape/Gather/Unsqueeze/Concat fold into the Reshape's shape (%u nodes, %u folded)",
			  m->n_n, m->stats.folded);
	}
	done(m, "view");

	/* the same with a dim_param: Shape stays */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, dyn);
	mb_output(&b, "y", 1, 2, (int64_t[]){ -1, 48 });
	mb_const(&b, "i0", 7, 0, NULL, &zero);
	mb_const(&b, "ax0", 7, 1, one, &zero);
	mb_const(&b, "m1", 7, 1, d1, minus1);
	mb_node_csv(&b, "Shape", "shape", "x", "s");
	mb_node_csv(&b, "Gather", "gather", "s,i0", "g");
	mb_node_csv(&b, "Unsqueeze", "unsq", "g,ax0", "u");
	mb_attr_int(&b, mb_node_csv(&b, "Concat", "cat", "u,m1", "c"),
		    "axis", 0);
	mb_node_csv(&b, "Reshape", "reshape", "x,c", "y");
	m = run(&b, "dynamic view");
	if (m)
		tap_check(m->n_n == 5 && !m->stats.folded,
			  "Shape of a value with a dim_param is not folded");
	done(m, "dynamic view");

	/* arithmetic: Cast(Range(0, 8, 1) * 2 - 1) / 2 + x, Where(Equal) */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, r4);
	mb_output(&b, "y", 1, 4, r4);
	mb_const(&b, "r0", 7, 0, NULL, &zero);
	mb_const(&b, "r8", 7, 0, NULL, (int64_t[]){ 8 });
	mb_const(&b, "r1", 7, 0, NULL, (int64_t[]){ 1 });
	mb_const(&b, "i2", 7, 0, NULL, (int64_t[]){ 2 });
	mb_const(&b, "i3", 7, 0, NULL, (int64_t[]){ 3 });
	mb_const(&b, "i99", 7, 0, NULL, (int64_t[]){ 99 });
	mb_scalar(&b, "f2", 2.0f);
	mb_node_csv(&b, "Range", "range", "r0,r8,r1", "r");
	mb_node_csv(&b, "Mul", "mul", "r,i2", "r2");
	mb_node_csv(&b, "Sub", "sub", "r2,r1", "r3");
	mb_node_csv(&b, "Equal", "eq", "r3,i3", "e");
	mb_node_csv(&b, "Where", "where", "e,i99,r3", "w");
	mb_attr_int(&b, mb_node_csv(&b, "Cast", "cast", "w", "cf"), "to", 1);
	mb_node_csv(&b, "Div", "div", "cf,f2", "h");
	mb_node_csv(&b, "Add", "add", "x,h", "y");
	m = run(&b, "arithmetic");
	if (m) {
		static const float want[8] = { -0.5f, 0.5f, 49.5f, 2.5f, 3.5f,
					       4.5f, 5.5f, 6.5f };
		int ok;

		n = node_op(m, "Add");
		s = n ? vc_in(m, n, 1) : NULL;
		ok = m->n_n == 1 && s && s->cst && vc_numel(s) == 8 &&
		     s->cst->dtype == VPUXC_FLOAT;
		for (i = 0; ok && i < 8; i++)
			ok = vc_cst_f(s->cst, (size_t)i) == want[i];
		tap_check(ok && m->stats.folded == 7,
			  "Range/Mul/Sub/Equal/Where/Cast/Div fold to the right values (%u folded)",
			  m->stats.folded);
	}
	done(m, "arithmetic");

	/* data movement: Transpose, Slice, Squeeze, Expand, ConstantOfShape */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 2, (int64_t[]){ 3, 2 });
	mb_output(&b, "y", 1, 2, (int64_t[]){ 3, 2 });
	mb_const(&b, "c23", 1, 2, (int64_t[]){ 2, 3 },
		 (float[]){ 1, 2, 3, 4, 5, 6 });
	mb_const(&b, "s0", 7, 1, one, (int64_t[]){ 1 });
	mb_const(&b, "e0", 7, 1, one, (int64_t[]){ INT64_MAX });
	mb_const(&b, "a0", 7, 1, one, (int64_t[]){ 0 });
	mb_const(&b, "sh", 7, 1, two, (int64_t[]){ 3, 1 });
	mb_node_csv(&b, "Transpose", "tr", "c23", "t");	/* [3,2] */
	mb_node_csv(&b, "Slice", "sl", "t,s0,e0,a0", "t2");	/* rows 1..2 */
	/* [2,2] -> needs [3,1]: bad */
	mb_node_csv(&b, "Expand", "ex", "t2,sh", "t3");
	mb_attr_t(&b, mb_node_csv(&b, "ConstantOfShape", "cos", "sh", "z"),
		  "value", mb_tensor(&b, "", 1, 1, one, (float[]){ 2.0f },
				     sizeof(float)));
	mb_node_csv(&b, "Add", "add", "x,t", "a1");
	mb_node_csv(&b, "Mul", "mul", "a1,z", "y");
	mb_node_csv(&b, "Identity", "unused", "t3", "t4");
	m = run(&b, "data movement");
	if (m) {
		static const float want[6] = { 1, 4, 2, 5, 3, 6 };
		int ok;

		n = node_op(m, "Add");
		s = n ? vc_in(m, n, 1) : NULL;
		ok = s && s->cst && vc_numel(s) == 6;
		for (i = 0; ok && i < 6; i++)
			ok = vc_cst_f(s->cst, (size_t)i) == want[i];
		tap_check(ok, "Transpose of a constant folds (row-major result)");
		n = node_op(m, "Mul");
		s = n ? vc_in(m, n, 1) : NULL;
		tap_check(s && s->cst && s->rank == 2 && s->dims[0] == 3 &&
			  s->dims[1] == 1 && vc_cst_f(s->cst, 2) == 2.0f,
			  "ConstantOfShape folds with its value attribute");
		tap_check(n_op(m, "Expand") == 1,
			  "Expand to an incompatible shape is left alone");
	}
	done(m, "data movement");

	/* shape inference through Concat, Expand and Slice of runtime values */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 2, (int64_t[]){ 3, 1 });
	mb_output(&b, "y", 1, 3, (int64_t[]){ 2, 3, 8 });
	mb_const(&b, "shx", 7, 1, (int64_t[]){ 3 }, (int64_t[]){ 2, 1, 4 });
	mb_const(&b, "s0", 7, 1, one, (int64_t[]){ 1 });
	mb_const(&b, "e0", 7, 1, one, (int64_t[]){ 3 });
	mb_const(&b, "a0", 7, 1, one, (int64_t[]){ -1 });
	mb_node_csv(&b, "Expand", "ex", "x,shx", "e");		/* [2,3,4] */
	mb_node_csv(&b, "Slice", "sl", "e,s0,e0,a0", "f");	/* [2,3,2] */
	mb_attr_int(&b, mb_node_csv(&b, "Concat", "cat", "e,f,f", "c"),
		    "axis", -1);
	mb_node_csv(&b, "Sigmoid", "sig", "c", "g");
	mb_node_csv(&b, "Mul", "mul", "c,g", "y");
	m = run(&b, "inference");
	if (m) {
		const struct vc_value *v = &m->v[vc_find(m, "c")];

		tap_check(v->rank == 3 && v->dims[0] == 2 && v->dims[1] == 3 &&
			  v->dims[2] == 8 && m->stats.silu == 1,
			  "shapes inferred through Expand, Slice and Concat (c: [2,3,8])");
	}
	done(m, "inference");

	/* too big to fold: ConstantOfShape [2048, 1024] */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 2, big);
	mb_output(&b, "y", 1, 2, big);
	mb_const(&b, "shb", 7, 1, two, big);
	mb_node_csv(&b, "ConstantOfShape", "cos", "shb", "z");
	mb_node_csv(&b, "Add", "add", "x,z", "y");
	m = run(&b, "big");
	if (m)
		tap_check(n_op(m, "ConstantOfShape") == 1 && !m->stats.folded,
			  "a constant above 1M elements is not materialized");
	done(m, "big");
}

/* ---- bool constants, Mod, ScatterND (Swin-T's attention mask) ---- */

/* the float constant input @slot of the only @op node, as @n values */
static int cst_is(const struct vpuxc_model *m, const char *op,
		  unsigned int slot, const float *want, size_t n)
{
	const struct vc_node *nd = node_op(m, op);
	const struct vc_value *s = nd ? vc_in(m, nd, slot) : NULL;
	size_t i;

	if (!s || !s->cst || s->cst->dtype != VPUXC_FLOAT || vc_numel(s) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (vc_cst_f(s->cst, i) != want[i])
			return 0;
	return 1;
}

static void test_fold_bool(void)
{
	static const int64_t d4b[1] = { 4 };
	Onnx__TensorProto *t;
	struct vpuxc_model *m;
	struct mb b;
	int ret;

	/*
	 * bool initializer and Constant: Where(Not(m) Or c, 1, -100), raw
	 * bytes 0 and 2 (any non-zero byte is true)
	 */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 1, d4b);
	mb_output(&b, "y", 1, 1, d4b);
	mb_const(&b, "mk", 9, 1, d4b, (uint8_t[]){ 0, 2, 1, 0 });
	mb_scalar(&b, "one", 1.0f);
	mb_scalar(&b, "neg", -100.0f);
	mb_attr_t(&b, mb_node_csv(&b, "Constant", "c", "", "cb"), "value",
		  mb_tensor(&b, "", 9, 1, d4b, (uint8_t[]){ 0, 0, 0, 1 }, 4));
	mb_node_csv(&b, "Not", "not", "mk", "nm");
	mb_node_csv(&b, "Or", "or", "nm,cb", "o");
	mb_node_csv(&b, "Where", "where", "o,one,neg", "w");
	mb_node_csv(&b, "Add", "add", "x,w", "y");
	m = run(&b, "bool");
	if (m)
		tap_check(m->n_n == 1 &&
			  cst_is(m, "Add", 1, (float[]){ 1, -100, -100, 1 }, 4),
			  "bool initializer and Constant import; Not/Or/Where fold (%u nodes)",
			  m->n_n);
	done(m, "bool");

	/* a bool in int32_data must be 0 or 1 */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 1, d4b);
	mb_output(&b, "y", 1, 1, d4b);
	t = mb_init_t(&b, "mk", 9, 1, d4b, NULL, 0);
	t->has_raw_data = 0;
	t->n_int32_data = 4;
	t->int32_data = mb_dup(&b, (int32_t[]){ 0, 1, 2, 0 }, 16);
	mb_node_csv(&b, "Where", "where", "mk,x,x", "y");
	ret = mb_import(&b, &m);
	tap_check(ret == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "int32_data[2] = 2 out of range for bool"),
		  "bool int32_data of 2 refused: %s", vpux_last_error());
	if (!ret)
		vpuxc_model_free(m);
	mb_free(&b);
}

static void test_fold_mod(void)
{
	static const int64_t d4b[1] = { 4 };
	struct vpuxc_model *m;
	struct mb b;
	int fm;

	/* int64 Mod: fmod 0 takes the divisor's sign, fmod 1 the dividend's */
	for (fm = 0; fm < 2; fm++) {
		static const float want[2][4] = { { 1, -2, 2, -1 },
						  { 1, 1, -1, -1 } };

		mb_init(&b, 13);
		mb_input(&b, "x", 1, 1, d4b);
		mb_output(&b, "y", 1, 1, d4b);
		mb_const(&b, "a", 7, 1, d4b, (int64_t[]){ 7, 7, -7, -7 });
		mb_const(&b, "d", 7, 1, d4b, (int64_t[]){ 3, -3, 3, -3 });
		mb_attr_int(&b, mb_node_csv(&b, "Mod", "mod", "a,d", "r"),
			    "fmod", fm);
		mb_attr_int(&b, mb_node_csv(&b, "Cast", "cast", "r", "rf"),
			    "to", 1);
		mb_node_csv(&b, "Add", "add", "x,rf", "y");
		m = run(&b, "mod");
		if (m)
			tap_check(m->n_n == 1 && cst_is(m, "Add", 1, want[fm], 4),
				  "int64 Mod fmod=%d folds (7, -7 mod 3, -3)", fm);
		done(m, "mod");
	}
	/* float Mod: fmod 1 folds (C's fmod), fmod 0 is not valid: stays */
	for (fm = 0; fm < 2; fm++) {
		mb_init(&b, 13);
		mb_input(&b, "x", 1, 1, d4b);
		mb_output(&b, "y", 1, 1, d4b);
		mb_const(&b, "a", 1, 1, d4b, (float[]){ 5.5f, -5.5f, 5.5f, 1 });
		mb_scalar(&b, "d", 2.0f);
		mb_attr_int(&b, mb_node_csv(&b, "Mod", "mod", "a,d", "r"),
			    "fmod", fm);
		mb_node_csv(&b, "Add", "add", "x,r", "y");
		m = run(&b, "float mod");
		if (m && fm)
			tap_check(m->n_n == 1 &&
				  cst_is(m, "Add", 1, (float[]){ 1.5f, -1.5f, 1.5f, 1 }, 4),
				  "float Mod fmod=1 folds to C's fmod");
		else if (m)
			tap_check(n_op(m, "Mod") == 1,
				  "float Mod fmod=0 is not folded");
		done(m, "float mod");
	}
	/* division by zero: not folded */
	mb_init(&b, 13);
	mb_input(&b, "x", 7, 1, d4b);
	mb_output(&b, "y", 7, 1, d4b);
	mb_const(&b, "a", 7, 1, d4b, (int64_t[]){ 7, 7, 7, 7 });
	mb_const(&b, "d", 7, 1, d4b, (int64_t[]){ 3, 0, 3, 3 });
	mb_node_csv(&b, "Mod", "mod", "a,d", "r");
	mb_node_csv(&b, "Add", "add", "x,r", "y");
	m = run(&b, "mod by 0");
	if (m)
		tap_check(n_op(m, "Mod") == 1, "Mod by zero is not folded");
	done(m, "mod by 0");
}

static void test_fold_scatternd(void)
{
	static const int64_t d23[2] = { 2, 3 }, d6[1] = { 6 };
	static const int64_t di[2] = { 2, 2 }, du[1] = { 2 };
	struct vpuxc_model *m;
	struct mb b;
	int k;

	/*
	 * k = 2 (elements): data [[0,1,2],[3,4,5]], indices [[1,2],[0,-3]]
	 * (a negative index counts from the end), updates [50, 60]
	 */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 2, d23);
	mb_output(&b, "y", 1, 2, d23);
	mb_const(&b, "dt", 1, 2, d23, (float[]){ 0, 1, 2, 3, 4, 5 });
	mb_const(&b, "ix", 7, 2, di, (int64_t[]){ 1, 2, 0, -3 });
	mb_const(&b, "up", 1, 1, du, (float[]){ 50, 60 });
	mb_node_csv(&b, "ScatterND", "sc", "dt,ix,up", "s");
	mb_node_csv(&b, "Add", "add", "x,s", "y");
	m = run(&b, "scatternd");
	if (m)
		tap_check(m->n_n == 1 &&
			  cst_is(m, "Add", 1, (float[]){ 60, 1, 2, 3, 4, 50 }, 6),
			  "ScatterND of elements folds (a negative index from the end)");
	done(m, "scatternd");

	/* k = 1 (rows): indices [[1]], updates [[7,8,9]] */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 2, d23);
	mb_output(&b, "y", 1, 2, d23);
	mb_const(&b, "dt", 1, 2, d23, (float[]){ 0, 1, 2, 3, 4, 5 });
	mb_const(&b, "ix", 7, 2, (int64_t[]){ 1, 1 }, (int64_t[]){ 1 });
	mb_const(&b, "up", 1, 2, (int64_t[]){ 1, 3 }, (float[]){ 7, 8, 9 });
	mb_node_csv(&b, "ScatterND", "sc", "dt,ix,up", "s");
	mb_node_csv(&b, "Add", "add", "x,s", "y");
	m = run(&b, "scatternd rows");
	if (m)
		tap_check(m->n_n == 1 &&
			  cst_is(m, "Add", 1, (float[]){ 0, 1, 2, 7, 8, 9 }, 6),
			  "ScatterND of rows folds");
	done(m, "scatternd rows");

	/*
	 * not folded: an index out of range, updates of the wrong shape,
	 * reduction add, float indices
	 */
	for (k = 0; k < 4; k++) {
		static const char *const why[4] = {
			"an index out of range", "updates of the wrong shape",
			"reduction 'add'", "float indices" };
		Onnx__NodeProto *n;

		mb_init(&b, 13);
		mb_input(&b, "x", 1, 1, d6);
		mb_output(&b, "y", 1, 1, d6);
		mb_const(&b, "dt", 1, 1, d6, (float[]){ 0, 1, 2, 3, 4, 5 });
		if (k == 3)
			mb_const(&b, "ix", 1, 2, di, (float[]){ 1, 2, 0, 3 });
		else
			mb_const(&b, "ix", 7, 2, (int64_t[]){ 2, 1 },
				 (int64_t[]){ k ? 1 : 6, 2 });
		mb_const(&b, "up", 1, 1, (int64_t[]){ k == 1 ? 3 : 2 },
			 (float[]){ 50, 60, 70 });
		n = mb_node_csv(&b, "ScatterND", "sc", "dt,ix,up", "s");
		if (k == 2)
			mb_attr_str(&b, n, "reduction", "add");
		mb_node_csv(&b, "Add", "add", "x,s", "y");
		m = run(&b, why[k]);
		if (m)
			tap_check(n_op(m, "ScatterND") == 1,
				  "ScatterND with %s is not folded", why[k]);
		done(m, why[k]);
	}
}

/* ---- BatchNormalization ---- */

static void test_bn(void)
{
	static const int64_t dw[4] = { 3, 3, 3, 3 }, d3[1] = { 3 };
	static const float gamma[3] = { 0.5f, 1.5f, -2.0f }, beta[3] = { 0.1f, -0.2f, 0.3f };
	static const float mean[3] = { 0.25f, -1.0f, 2.0f }, var[3] = { 0.5f, 2.0f, 1.25f };
	static const float bias[3] = { 1.0f, 2.0f, 3.0f };
	const double eps = 1e-3;
	float w[81];
	struct vpuxc_model *m;
	const struct vc_node *n;
	struct mb b;
	int i;

	for (i = 0; i < 81; i++)
		w[i] = (float)((i * 37 % 17) - 8) / 8.0f;

	/* Conv -> BN */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_const(&b, "w", 1, 4, dw, w);
	mb_const(&b, "b", 1, 1, d3, bias);
	mb_const(&b, "g", 1, 1, d3, gamma);
	mb_const(&b, "be", 1, 1, d3, beta);
	mb_const(&b, "mu", 1, 1, d3, mean);
	mb_const(&b, "var", 1, 1, d3, var);
	mb_attr_ints(&b, mb_node_csv(&b, "Conv", "conv", "x,w,b", "c"), "pads",
		     (int64_t[]){ 1, 1, 1, 1 }, 4);
	mb_attr_float(&b, mb_node_csv(&b, "BatchNormalization", "bn",
				      "c,g,be,mu,var", "y"),
		      "epsilon", (float)eps);
	m = run(&b, "conv+bn");
	if (m) {
		const struct vc_value *wv, *bv;
		int ok;

		n = node_op(m, "Conv");
		wv = n ? vc_in(m, n, 1) : NULL;
		bv = n ? vc_in(m, n, 2) : NULL;
		ok = m->n_n == 1 && n && m->stats.bn_fused == 1 &&
		     !strcmp(vc_out(m, n, 0)->name, "y") && wv && wv->cst &&
		     bv && bv->cst && vc_numel(wv) == 81 && vc_numel(bv) == 3;
		tap_check(ok, "BatchNormalization folds into the Conv, which makes 'y'");
		for (i = 0; ok && i < 81; i++) {
			int oc = i / 27;
			double s = gamma[oc] / sqrt((double)var[oc] + (double)(float)eps);

			ok = vc_cst_f(wv->cst, (size_t)i) == (float)(w[i] * s);
		}
		for (i = 0; ok && i < 3; i++) {
			double s = gamma[i] / sqrt((double)var[i] + (double)(float)eps);

			ok = vc_cst_f(bv->cst, (size_t)i) ==
			     (float)((bias[i] - mean[i]) * s + beta[i]);
		}
		tap_check(ok, "folded weights and bias equal w*g/sqrt(v+eps), (b-mean)*g/sqrt(v+eps)+beta");
	}
	done(m, "conv+bn");

	/* the Conv's output has another reader: the BN stands alone */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_output(&b, "r", 1, 4, d4);
	mb_const(&b, "w", 1, 4, dw, w);
	mb_const(&b, "g", 1, 1, d3, gamma);
	mb_const(&b, "be", 1, 1, d3, beta);
	mb_const(&b, "mu", 1, 1, d3, mean);
	mb_const(&b, "var", 1, 1, d3, var);
	mb_attr_ints(&b, mb_node_csv(&b, "Conv", "conv", "x,w", "c"), "pads",
		     (int64_t[]){ 1, 1, 1, 1 }, 4);
	mb_node_csv(&b, "BatchNormalization", "bn", "c,g,be,mu,var", "y");
	mb_node_csv(&b, "Relu", "relu", "c", "r");
	m = run(&b, "conv+bn, two readers");
	if (m) {
		const struct vc_node *dw1 = &m->n[1];

		tap_check(m->stats.bn_fused == 0 && m->stats.bn_alone == 1 &&
			  n_op(m, "Conv") == 2 && !strcmp(dw1->op, "Conv") &&
			  vc_attr_i(dw1, "group", 1) == 3 &&
			  vc_numel(vc_in(m, dw1, 1)) == 3 &&
			  vc_in(m, &m->n[0], 1)->cst->data != NULL &&
			  !strcmp(vc_in(m, &m->n[0], 1)->name, "w"),
			  "a Conv output read twice: no fold; the BN becomes a depthwise 1x1 Conv");
	}
	done(m, "conv+bn, two readers");

	/* training_mode = 1: untouched */
	mb_init(&b, 15);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_const(&b, "g", 1, 1, d3, gamma);
	mb_const(&b, "be", 1, 1, d3, beta);
	mb_const(&b, "mu", 1, 1, d3, mean);
	mb_const(&b, "var", 1, 1, d3, var);
	mb_attr_int(&b, mb_node_csv(&b, "BatchNormalization", "bn",
				    "x,g,be,mu,var", "y"),
		    "training_mode", 1);
	m = run(&b, "bn training");
	if (m)
		tap_check(n_op(m, "BatchNormalization") == 1 &&
			  !m->stats.bn_alone && !m->stats.bn_fused,
			  "BatchNormalization with training_mode=1 is left alone");
	done(m, "bn training");

	/* rank 2 on its own: Mul + Add */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 2, (int64_t[]){ 2, 3 });
	mb_output(&b, "y", 1, 2, (int64_t[]){ 2, 3 });
	mb_const(&b, "g", 1, 1, d3, gamma);
	mb_const(&b, "be", 1, 1, d3, beta);
	mb_const(&b, "mu", 1, 1, d3, mean);
	mb_const(&b, "var", 1, 1, d3, var);
	mb_node_csv(&b, "BatchNormalization", "bn", "x,g,be,mu,var", "y");
	m = run(&b, "bn rank 2");
	if (m) {
		const struct vc_node *mu = node_op(m, "Mul"), *ad = node_op(m, "Add");
		double s1 = gamma[1] / sqrt((double)var[1] + (double)1e-5f);

		tap_check(m->n_n == 2 && mu == &m->n[0] && ad == &m->n[1] &&
			  !strcmp(vc_out(m, ad, 0)->name, "y") &&
			  vc_cst_f(vc_in(m, mu, 1)->cst, 1) == (float)s1 &&
			  vc_cst_f(vc_in(m, ad, 1)->cst, 1) ==
			  (float)(beta[1] - mean[1] * s1),
			  "a rank-2 BatchNormalization becomes Mul + Add by its scale and shift");
	}
	done(m, "bn rank 2");

	/* Gemm -> BN */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 2, (int64_t[]){ 1, 2 });
	mb_output(&b, "y", 1, 2, (int64_t[]){ 1, 3 });
	mb_const(&b, "wt", 1, 2, (int64_t[]){ 3, 2 }, w);
	mb_const(&b, "c", 1, 1, d3, bias);
	mb_const(&b, "g", 1, 1, d3, gamma);
	mb_const(&b, "be", 1, 1, d3, beta);
	mb_const(&b, "mu", 1, 1, d3, mean);
	mb_const(&b, "var", 1, 1, d3, var);
	n = NULL;
	{
		Onnx__NodeProto *g = mb_node_csv(&b, "Gemm", "gemm", "x,wt,c",
						 "h");

		mb_attr_int(&b, g, "transB", 1);
		mb_attr_float(&b, g, "beta", 0.5f);
	}
	mb_node_csv(&b, "BatchNormalization", "bn", "h,g,be,mu,var", "y");
	m = run(&b, "gemm+bn");
	if (m) {
		double s2 = gamma[2] / sqrt((double)var[2] + (double)1e-5f);

		n = node_op(m, "Gemm");
		tap_check(m->n_n == 1 && n && m->stats.bn_fused == 1 &&
			  vc_attr_f(n, "beta", 0) == 1.0f &&
			  vc_cst_f(vc_in(m, n, 1)->cst, 5) == (float)(w[5] * s2) &&
			  vc_cst_f(vc_in(m, n, 2)->cst, 2) ==
			  (float)(0.5 * bias[2] * s2 + beta[2] - mean[2] * s2),
			  "BatchNormalization folds into a Gemm (transB, beta)");
	}
	done(m, "gemm+bn");
}

/* ---- Pad ---- */

static void pad_model(struct mb *b, const char *consumer, float value,
		      const int64_t *pads, int cip)
{
	static const int64_t dw[4] = { 3, 3, 3, 3 }, dy[4] = { 1, 3, 4, 8 };
	static float w[81];
	Onnx__NodeProto *c;

	mb_init(b, 13);
	mb_input(b, "x", 1, 4, d4);
	mb_output(b, "y", 1, 4, dy);
	mb_const(b, "pads", 7, 1, (int64_t[]){ 8 }, pads);
	mb_scalar(b, "val", value);
	mb_node_csv(b, "Pad", "pad", "x,pads,val", "p");
	if (!strcmp(consumer, "Conv")) {
		mb_const(b, "w", 1, 4, dw, w);
		c = mb_node_csv(b, "Conv", "conv", "p,w", "y");
	} else {
		c = mb_node_csv(b, consumer, "pool", "p", "y");
		mb_attr_ints(b, c, "kernel_shape", (int64_t[]){ 3, 3 }, 2);
		if (cip >= 0)
			mb_attr_int(b, c, "count_include_pad", cip);
	}
	mb_attr_ints(b, c, "pads", (int64_t[]){ 0, 1, 0, 1 }, 4);
}

static void test_pad(void)
{
	static const int64_t sp[8] = { 0, 0, 1, 2, 0, 0, 1, 2 };
	static const int64_t ch[8] = { 0, 1, 1, 2, 0, 0, 1, 2 };
	static const int64_t neg[8] = { 0, 0, 1, 2, 0, 0, -1, 2 };
	struct vpuxc_model *m;
	const struct vc_node *n;
	struct mb b;
	int64_t p[4];

	pad_model(&b, "Conv", 0, sp, -1);
	m = run(&b, "pad+conv");
	if (m) {
		n = node_op(m, "Conv");
		tap_check(m->n_n == 1 && n && m->stats.pad_fused == 1 &&
			  vc_attr_ints(n, "pads", p, 4) == 4 && p[0] == 1 &&
			  p[1] == 3 && p[2] == 1 && p[3] == 3 &&
			  !strcmp(vc_in(m, n, 0)->name, "x"),
			  "a zero Pad of the spatial dims folds into the Conv's pads");
	}
	done(m, "pad+conv");

	pad_model(&b, "Conv", 1.0f, sp, -1);
	m = run(&b, "pad 1 + conv");
	if (m)
		tap_check(n_op(m, "Pad") == 1 && !m->stats.pad_fused,
			  "a Pad of value 1 does not fold into a Conv");
	done(m, "pad 1 + conv");

	pad_model(&b, "Conv", 0, ch, -1);
	m = run(&b, "channel pad");
	if (m)
		tap_check(n_op(m, "Pad") == 1, "a Pad of the channels does not fold");
	done(m, "channel pad");

	pad_model(&b, "Conv", 0, neg, -1);
	m = run(&b, "negative pad");
	if (m)
		tap_check(n_op(m, "Pad") == 1, "a negative Pad (a crop) does not fold");
	done(m, "negative pad");

	pad_model(&b, "AveragePool", 0, sp, 1);
	m = run(&b, "pad+avgpool");
	if (m)
		tap_check(m->n_n == 1 && m->stats.pad_fused == 1,
			  "a zero Pad folds into AveragePool with count_include_pad=1");
	done(m, "pad+avgpool");

	pad_model(&b, "AveragePool", 0, sp, 0);
	m = run(&b, "pad+avgpool cip 0");
	if (m)
		tap_check(n_op(m, "Pad") == 1,
			  "not into AveragePool with count_include_pad=0");
	done(m, "pad+avgpool cip 0");

	pad_model(&b, "MaxPool", -INFINITY, sp, -1);
	m = run(&b, "pad+maxpool");
	if (m)
		tap_check(m->n_n == 1 && m->stats.pad_fused == 1,
			  "a -inf Pad folds into MaxPool");
	done(m, "pad+maxpool");

	pad_model(&b, "MaxPool", 0, sp, -1);
	m = run(&b, "pad 0 + maxpool");
	if (m)
		tap_check(n_op(m, "Pad") == 1, "a zero Pad does not fold into MaxPool");
	done(m, "pad 0 + maxpool");
}

/* ---- Identity, Dropout ---- */

static void test_remove(void)
{
	struct vpuxc_model *m;
	struct mb b;

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_node_csv(&b, "Relu", "relu", "x", "r");
	mb_node_csv(&b, "Identity", "id", "r", "i");
	mb_node_csv(&b, "Dropout", "drop", "i", "y");
	m = run(&b, "identity, dropout");
	if (m)
		tap_check(m->n_n == 1 && m->stats.removed == 2 &&
			  !strcmp(m->n[0].op, "Relu") &&
			  !strcmp(vc_out(m, &m->n[0], 0)->name, "y") &&
			  vc_find(m, "y") == m->outputs[0],
			  "Identity and Dropout go; the graph output keeps its name 'y'");
	done(m, "identity, dropout");

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_scalar(&b, "ratio", 0.5f);
	mb_const(&b, "train", 9, 0, NULL, (uint8_t[]){ 1 });
	mb_node_csv(&b, "Relu", "relu", "x", "r");
	mb_node_csv(&b, "Dropout", "drop", "r,ratio,train", "y");
	m = run(&b, "dropout training");
	if (m)
		tap_check(n_op(m, "Dropout") == 1 && !m->stats.removed,
			  "Dropout in training mode stays");
	done(m, "dropout training");

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_input(&b, "train", 1, 0, NULL);
	mb_output(&b, "y", 1, 4, d4);
	mb_scalar(&b, "ratio", 0.5f);
	mb_node_csv(&b, "Relu", "relu", "x", "r");
	mb_node_csv(&b, "Dropout", "drop", "r,ratio,train", "y");
	m = run(&b, "dropout training input");
	if (m)
		tap_check(n_op(m, "Dropout") == 1 && !m->stats.removed,
			  "Dropout whose training_mode is a graph input stays");
	done(m, "dropout training input");

	/* ratio 0 in training mode (torch's F.dropout(p=0.0, training=True)) */
	for (int k = 0; k < 2; k++) {
		mb_init(&b, 13);
		mb_input(&b, "x", 1, 4, d4);
		mb_output(&b, "y", 1, 4, d4);
		mb_scalar(&b, "ratio", k ? 0.0f : 0.25f);
		mb_const(&b, "train", 9, 0, NULL, (uint8_t[]){ 1 });
		mb_node_csv(&b, "Relu", "relu", "x", "r");
		mb_node_csv(&b, "Dropout", "drop", "r,ratio,train", "y");
		m = run(&b, "dropout ratio 0");
		if (m && k)
			tap_check(!n_op(m, "Dropout") && m->stats.removed == 1,
				  "Dropout of ratio 0 goes, even in training mode");
		else if (m)
			tap_check(n_op(m, "Dropout") == 1 && !m->stats.removed,
				  "Dropout of ratio 0.25 in training mode stays");
		done(m, "dropout ratio 0");
	}
	/* ... but not when its mask is read */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_output(&b, "mask", 9, 4, d4);
	mb_scalar(&b, "ratio", 0.0f);
	mb_const(&b, "train", 9, 0, NULL, (uint8_t[]){ 1 });
	mb_node_csv(&b, "Dropout", "drop", "x,ratio,train", "y,mask");
	m = run(&b, "dropout ratio 0 mask");
	if (m)
		tap_check(n_op(m, "Dropout") == 1,
			  "Dropout of ratio 0 whose mask is a graph output stays");
	done(m, "dropout ratio 0 mask");
}

/* ---- fusions ---- */

static void test_gates(void)
{
	struct vpuxc_model *m;
	const struct vc_node *n;
	struct mb b;

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_node_csv(&b, "Sigmoid", "sig", "x", "s");
	mb_node_csv(&b, "Mul", "mul", "s,x", "y");
	m = run(&b, "silu");
	if (m) {
		n = node_op(m, "Silu");
		tap_check(m->n_n == 1 && n && !strcmp(n->domain, "com.vpux") &&
			  n->n_in == 1 && !strcmp(vc_in(m, n, 0)->name, "x") &&
			  vc_out(m, n, 0)->rank == 4 && m->stats.silu == 1,
			  "x*Sigmoid(x) becomes com.vpux Silu (shape inferred)");
	}
	done(m, "silu");

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_output(&b, "s", 1, 4, d4);
	mb_node_csv(&b, "Sigmoid", "sig", "x", "s");
	mb_node_csv(&b, "Mul", "mul", "x,s", "y");
	m = run(&b, "silu, sigmoid is an output");
	if (m)
		tap_check(!m->stats.silu && m->n_n == 2,
			  "no Silu when the Sigmoid's output is read elsewhere");
	done(m, "silu, sigmoid is an output");

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_input(&b, "z", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_node_csv(&b, "Sigmoid", "sig", "x", "s");
	mb_node_csv(&b, "Mul", "mul", "z,s", "y");
	m = run(&b, "silu of another x");
	if (m)
		tap_check(!m->stats.silu, "no Silu for z*Sigmoid(x)");
	done(m, "silu of another x");

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_attr_float(&b, mb_node_csv(&b, "HardSigmoid", "hs", "x", "s"),
		      "alpha", 1.0f / 6);
	mb_node_csv(&b, "Mul", "mul", "x,s", "y");
	m = run(&b, "hardswish");
	if (m) {
		n = node_op(m, "HardSwish");
		tap_check(m->n_n == 1 && n && !*n->domain && m->stats.hardswish == 1,
			  "x*HardSigmoid(x, 1/6, 0.5) becomes HardSwish");
	}
	done(m, "hardswish");

	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "y", 1, 4, d4);
	mb_node_csv(&b, "HardSigmoid", "hs", "x", "s");	/* alpha 0.2 */
	mb_node_csv(&b, "Mul", "mul", "x,s", "y");
	m = run(&b, "hardsigmoid 0.2");
	if (m)
		tap_check(!m->stats.hardswish && m->n_n == 2,
			  "no HardSwish with HardSigmoid's default alpha 0.2");
	done(m, "hardsigmoid 0.2");
}

/* GELU: variant 0: torch's ((x * (1 + erf(x / sqrt2))) * 0.5);
 * 1: (x * 0.5) * (1 + erf(x * 1/sqrt2)); 2: like 0 with Add 2 */
static void gelu_model(struct mb *b, int variant)
{
	mb_init(b, 13);
	mb_input(b, "x", 1, 4, d4);
	mb_output(b, "y", 1, 4, d4);
	mb_scalar(b, "sq2", (float)M_SQRT2);
	mb_scalar(b, "isq2", (float)M_SQRT1_2);
	mb_scalar(b, "one", variant == 2 ? 2.0f : 1.0f);
	mb_scalar(b, "half", 0.5f);
	if (variant == 1)
		mb_node_csv(b, "Mul", "div", "isq2,x", "u");
	else
		mb_node_csv(b, "Div", "div", "x,sq2", "u");
	mb_node_csv(b, "Erf", "erf", "u", "e");
	mb_node_csv(b, "Add", "add", "one,e", "p");
	if (variant == 1) {
		mb_node_csv(b, "Mul", "half", "x,half", "h");
		mb_node_csv(b, "Mul", "mul", "h,p", "y");
	} else {
		mb_node_csv(b, "Mul", "mul", "x,p", "q");
		mb_node_csv(b, "Mul", "half", "q,half", "y");
	}
}

static void test_gelu(void)
{
	struct vpuxc_model *m;
	const struct vc_node *n;
	struct mb b;
	int v;

	for (v = 0; v < 2; v++) {
		gelu_model(&b, v);
		m = run(&b, "gelu");
		if (m) {
			n = node_op(m, "Gelu");
			tap_check(m->n_n == 1 && n && m->stats.gelu == 1 &&
				  !strcmp(vc_attr_s(n, "approximate", ""), "none") &&
				  !strcmp(vc_in(m, n, 0)->name, "x") &&
				  !strcmp(vc_out(m, n, 0)->name, "y"),
				  "the Erf GELU (form %d) becomes Gelu", v);
		}
		done(m, "gelu");
	}
	gelu_model(&b, 2);
	m = run(&b, "gelu, 2 + erf");
	if (m)
		tap_check(!m->stats.gelu && m->n_n == 5,
			  "no Gelu when the constant is 2 instead of 1");
	done(m, "gelu, 2 + erf");
}

/*
 * Layer norm over the last @nax axes of [2, 4, 8]: opset 13 (axes an
 * attribute) or 18 (an input); @affine: * gamma + beta; @bad: 1 the
 * mean over axis 1, 2 the difference also a graph output
 */
static void ln_model(struct mb *b, int opset, int affine, int bad)
{
	static const int64_t dx[3] = { 2, 4, 8 }, d8[1] = { 8 };
	static float g[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	Onnx__NodeProto *r1, *r2;

	mb_init(b, opset);
	mb_input(b, "x", 1, 3, dx);
	mb_output(b, "y", 1, 3, dx);
	if (bad == 2)
		mb_output(b, "d", 1, 3, dx);
	mb_scalar(b, "two", 2.0f);
	mb_scalar(b, "eps", 1e-5f);
	mb_const(b, "gamma", 1, 1, d8, g);
	mb_const(b, "beta", 1, 1, d8, g);
	if (opset >= 18)
		mb_const(b, "axes", 7, 1, (int64_t[]){ 1 },
			 (int64_t[]){ bad == 1 ? 1 : -1 });
	r1 = mb_node_csv(b, "ReduceMean", "rm1", opset >= 18 ? "x,axes" : "x",
			 "mu");
	mb_node_csv(b, "Sub", "sub", "x,mu", "d");
	mb_node_csv(b, "Pow", "pow", "d,two", "sq");
	r2 = mb_node_csv(b, "ReduceMean", "rm2", opset >= 18 ? "sq,axes" : "sq",
			 "var");
	if (opset < 18) {
		mb_attr_ints(b, r1, "axes", (int64_t[]){ bad == 1 ? 1 : 2 }, 1);
		mb_attr_ints(b, r2, "axes", (int64_t[]){ -1 }, 1);
	}
	mb_node_csv(b, "Add", "add", "var,eps", "ve");
	mb_node_csv(b, "Sqrt", "sqrt", "ve", "sd");
	mb_node_csv(b, "Div", "div", "d,sd", affine ? "n" : "y");
	if (affine) {
		mb_node_csv(b, "Mul", "mul", "n,gamma", "ng");
		mb_node_csv(b, "Add", "addb", "ng,beta", "y");
	}
}

static void test_layernorm(void)
{
	struct vpuxc_model *m;
	const struct vc_node *n;
	struct mb b;

	ln_model(&b, 13, 1, 0);
	m = run(&b, "layernorm");
	if (m) {
		n = node_op(m, "LayerNormalization");
		tap_check(m->n_n == 1 && n && n->n_in == 3 && m->stats.layernorm == 1 &&
			  vc_attr_i(n, "axis", 0) == 2 &&
			  vc_attr_f(n, "epsilon", 0) == 1e-5f &&
			  vc_cst_f(vc_in(m, n, 1)->cst, 7) == 8 &&
			  !strcmp(vc_out(m, n, 0)->name, "y"),
			  "the decomposed layer norm (opset 13, gamma, beta) becomes LayerNormalization");
	}
	done(m, "layernorm");

	ln_model(&b, 18, 0, 0);
	m = run(&b, "layernorm 18");
	if (m) {
		n = node_op(m, "LayerNormalization");
		tap_check(m->n_n == 1 && n && n->n_in == 2 &&
			  vc_attr_i(n, "axis", 0) == 2 &&
			  vc_numel(vc_in(m, n, 1)) == 8 &&
			  vc_cst_f(vc_in(m, n, 1)->cst, 3) == 1.0f,
			  "opset 18 (axes an input), no gamma/beta: a ones scale");
	}
	done(m, "layernorm 18");

	ln_model(&b, 13, 1, 1);
	m = run(&b, "layernorm axis 1");
	if (m)
		tap_check(!m->stats.layernorm && !node_op(m, "LayerNormalization"),
			  "no LayerNormalization when the mean is not over the trailing axes");
	done(m, "layernorm axis 1");

	ln_model(&b, 18, 1, 2);
	m = run(&b, "layernorm, d read outside");
	if (m)
		tap_check(!m->stats.layernorm && m->n_n == 9,
			  "no LayerNormalization when x - mean is also a graph output");
	done(m, "layernorm, d read outside");
}

int main(void)
{
	test_fold();
	test_fold_bool();
	test_fold_mod();
	test_fold_scatternd();
	test_bn();
	test_pad();
	test_remove();
	test_gates();
	test_gelu();
	test_layernorm();
	return tap_finish();
}
