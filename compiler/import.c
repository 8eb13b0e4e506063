// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * ONNX import: a serialized ModelProto (protobuf-c, generated from
 * Debian's onnx.proto) into the graph IR of ir.h. Everything read from
 * the file is checked here or by the passes before use: names resolve,
 * every value has one producer, nodes come in a topological order,
 * constant data matches its declared dims. Malformed input gets a
 * VPUX_E_FORMAT error naming what was wrong, never a crash.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hostconv.h"
#include "ir.h"
#include "kernels.h"
#include "onnx.pb-c.h"

/* the largest model file the importer reads (weights are in the file) */
#define VC_MAX_MODEL_BYTES	(1ull << 31)

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

int vc_find(const struct vpuxc_model *m, const char *name)
{
	uint32_t i;

	if (!m->hash_size)
		return -1;
	for (i = hash_str(name) & (m->hash_size - 1);; i = (i + 1) & (m->hash_size - 1)) {
		int v = m->hash[i];

		if (v < 0)
			return -1;
		if (!strcmp(m->v[v].name, name))
			return v;
	}
}

static int rehash(struct vpuxc_model *m, unsigned int size)
{
	int *h = malloc(sizeof(*h) * size);
	unsigned int v;

	if (!h)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	memset(h, 0xff, sizeof(*h) * size);
	free(m->hash);
	m->hash = h;
	m->hash_size = size;
	for (v = 0; v < m->n_v; v++) {
		uint32_t i = hash_str(m->v[v].name) & (size - 1);

		while (h[i] >= 0)
			i = (i + 1) & (size - 1);
		h[i] = (int)v;
	}
	return 0;
}

int vc_rehash(struct vpuxc_model *m)
{
	unsigned int size = 128;

	while (size < (m->n_v + 1) * 2)
		size *= 2;
	return rehash(m, size);
}

int vc_add_value(struct vpuxc_model *m, const char *name)
{
	struct vc_value *v;
	uint32_t i;

	if (m->n_v == m->cap_v) {
		unsigned int cap = m->cap_v ? m->cap_v * 2 : 64;

		v = realloc(m->v, sizeof(*v) * cap);
		if (!v)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		m->v = v;
		m->cap_v = cap;
	}
	if ((m->n_v + 1) * 2 > m->hash_size &&
	    rehash(m, m->hash_size ? m->hash_size * 2 : 128))
		return VPUX_E_NOMEM;
	v = &m->v[m->n_v];
	memset(v, 0, sizeof(*v));
	v->name = xstrdup(name);
	if (!v->name)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	v->rank = -1;
	v->producer = -1;
	memset(v->sym, 0xff, sizeof(v->sym));
	for (i = hash_str(name) & (m->hash_size - 1); m->hash[i] >= 0;
	     i = (i + 1) & (m->hash_size - 1))
		;
	m->hash[i] = (int)m->n_v;
	return (int)m->n_v++;
}

const struct vc_attr *vc_attr(const struct vc_node *n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n->n_attrs; i++)
		if (!strcmp(n->attrs[i].name, name))
			return &n->attrs[i];
	return NULL;
}

int64_t vc_attr_i(const struct vc_node *n, const char *name, int64_t def)
{
	const struct vc_attr *a = vc_attr(n, name);

	return a && a->type == VC_ATTR_INT ? a->i : def;
}

float vc_attr_f(const struct vc_node *n, const char *name, float def)
{
	const struct vc_attr *a = vc_attr(n, name);

	return a && a->type == VC_ATTR_FLOAT ? a->f : def;
}

const char *vc_attr_s(const struct vc_node *n, const char *name,
		      const char *def)
{
	const struct vc_attr *a = vc_attr(n, name);

	return a && a->type == VC_ATTR_STRING ? a->s : def;
}

int vc_attr_ints(const struct vc_node *n, const char *name, int64_t *out,
		 unsigned int max)
{
	const struct vc_attr *a = vc_attr(n, name);

	if (!a)
		return 0;
	if (a->type != VC_ATTR_INTS || a->n_ints > max)
		return -1;
	memcpy(out, a->ints, sizeof(*out) * a->n_ints);
	return (int)a->n_ints;
}

struct vc_value *vc_in(const struct vpuxc_model *m, const struct vc_node *n,
		       unsigned int i)
{
	return i < n->n_in && n->in[i] >= 0 ? &m->v[n->in[i]] : NULL;
}

struct vc_value *vc_out(const struct vpuxc_model *m, const struct vc_node *n,
			unsigned int i)
{
	return i < n->n_out && n->out[i] >= 0 ? &m->v[n->out[i]] : NULL;
}

/* ---- constants ---- */

double vc_cst_f(const struct vpuxc_tensor *t, size_t i)
{
	switch (t->dtype) {
	case VPUXC_FLOAT: {
		float f;

		memcpy(&f, (const char *)t->data + 4 * i, 4);
		return f;
	}
	default:
		return (double)vc_cst_i(t, i);
	}
}

int64_t vc_cst_i(const struct vpuxc_tensor *t, size_t i)
{
	const char *p = t->data;

	switch (t->dtype) {
	case VPUXC_UINT8:
	case 9:		/* bool (a model's constants): 0 or 1 */
		return ((const uint8_t *)p)[i];
	case VPUXC_INT8:
		return ((const int8_t *)p)[i];
	case VPUXC_INT32: {
		int32_t v;

		memcpy(&v, p + 4 * i, 4);
		return v;
	}
	case VPUXC_INT64: {
		int64_t v;

		memcpy(&v, p + 8 * i, 8);
		return v;
	}
	case VPUXC_FLOAT: {
		float f;

		memcpy(&f, p + 4 * i, 4);
		return (int64_t)f;
	}
	}
	return 0;
}

/* ---- the model ---- */

static void attr_fini(struct vc_attr *a)
{
	free(a->name);
	free(a->s);
	free(a->floats);
	free(a->ints);
	if (a->t) {
		vpuxc_tensor_fini(a->t);
		free(a->t);
	}
}

void vpuxc_model_free(struct vpuxc_model *m)
{
	unsigned int i, j;

	if (!m)
		return;
	for (i = 0; i < m->n_v; i++) {
		free(m->v[i].name);
		if (m->v[i].cst) {
			vpuxc_tensor_fini(m->v[i].cst);
			free(m->v[i].cst);
		}
	}
	for (i = 0; i < m->n_n; i++) {
		struct vc_node *n = &m->n[i];

		free(n->op);
		free(n->domain);
		free(n->name);
		free(n->in);
		free(n->out);
		for (j = 0; j < n->n_attrs; j++)
			attr_fini(&n->attrs[j]);
		free(n->attrs);
	}
	free(m->v);
	free(m->n);
	free(m->inputs);
	free(m->outputs);
	free(m->hash);
	free(m->graph_name);
	vc_kernels_free(m->kernels);
	for (i = 0; i < m->n_syms; i++)
		free(m->syms[i]);
	free(m);
}

/* the index of dim_param @name in m->syms, added if new */
static int sym_index(struct vpuxc_model *m, const char *name,
		     const char *what, const char *value)
{
	unsigned int i;

	if (!*name || strlen(name) >= 32)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s '%s': dim_param '%s' is empty or longer than 31 bytes",
				what, value, name);
	for (i = 0; i < m->n_syms; i++)
		if (!strcmp(m->syms[i], name))
			return (int)i;
	if (m->n_syms == VC_MAX_SYMS)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s '%s': dim_param '%s': more than %d dim_params",
				what, value, name, VC_MAX_SYMS);
	m->syms[m->n_syms] = xstrdup(name);
	if (!m->syms[m->n_syms])
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	return (int)m->n_syms++;
}

static int set_type(struct vpuxc_model *m, struct vc_value *v,
		    const Onnx__ValueInfoProto *vi, const char *what)
{
	const Onnx__TypeProto *tp = vi->type;
	const Onnx__TypeProto__Tensor *tt;
	size_t i;

	if (!tp)
		return 0;
	if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s '%s': not a tensor (sequence, map or optional types are not supported)",
				what, v->name);
	tt = tp->tensor_type;
	if (!tt)
		return 0;
	if (tt->has_elem_type)
		v->dtype = tt->elem_type;
	if (!tt->shape)
		return 0;
	if (tt->shape->n_dim > VPUXC_MAX_RANK)
		return vpux_err(VPUX_E_UNSUPPORTED, "%s '%s': rank %zu above %d",
				what, v->name, tt->shape->n_dim, VPUXC_MAX_RANK);
	v->rank = (int)tt->shape->n_dim;
	for (i = 0; i < tt->shape->n_dim; i++) {
		const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];

		if (d && d->value_case ==
		    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
			if (d->dim_value < 0)
				return vpux_err(VPUX_E_FORMAT,
						"%s '%s': dim %zu is negative",
						what, v->name, i);
			v->dims[i] = d->dim_value;
		} else if (d && d->value_case ==
			   ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) {
			int s = sym_index(m, d->dim_param, what, v->name);

			if (s < 0)
				return s;
			v->dims[i] = -1;
			v->sym[i] = (int8_t)s;
		} else {
			v->dims[i] = -1;
		}
	}
	return 0;
}

static int set_cst(struct vc_value *v, struct vpuxc_tensor *t)
{
	v->cst = malloc(sizeof(*t));
	if (!v->cst) {
		vpuxc_tensor_fini(t);
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	}
	*v->cst = *t;
	v->dtype = t->dtype;
	v->rank = (int)t->rank;
	memcpy(v->dims, t->dims, sizeof(v->dims));
	return 0;
}

static int import_attr(struct vc_attr *a, const Onnx__AttributeProto *p,
		       const char *node)
{
	char what[256];

	a->name = xstrdup(p->name);
	if (!a->name)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	if (p->ref_attr_name && *p->ref_attr_name)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"node '%s': attribute '%s' refers to a function attribute",
				node, a->name);
	a->type = p->has_type ? (int)p->type : 0;
	switch (a->type) {
	case VC_ATTR_FLOAT:
		a->f = p->f;
		return 0;
	case VC_ATTR_INT:
		a->i = p->i;
		return 0;
	case VC_ATTR_STRING:
		a->s = calloc(1, p->s.len + 1);
		if (!a->s)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		if (p->s.len)
			memcpy(a->s, p->s.data, p->s.len);
		return 0;
	case VC_ATTR_TENSOR:
		if (!p->t)
			return vpux_err(VPUX_E_FORMAT,
					"node '%s': attribute '%s': no tensor",
					node, a->name);
		a->t = calloc(1, sizeof(*a->t));
		if (!a->t)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		snprintf(what, sizeof(what), "node '%s': attribute '%s'", node,
			 a->name);
		return vc_tensor_from_proto(p->t, a->t, what);
	case VC_ATTR_FLOATS:
		a->n_floats = p->n_floats;
		a->floats = malloc(sizeof(float) * (p->n_floats + 1));
		if (!a->floats)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		if (p->n_floats)
			memcpy(a->floats, p->floats, sizeof(float) * p->n_floats);
		return 0;
	case VC_ATTR_INTS:
		a->n_ints = p->n_ints;
		a->ints = malloc(sizeof(int64_t) * (p->n_ints + 1));
		if (!a->ints)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		if (p->n_ints)
			memcpy(a->ints, p->ints, sizeof(int64_t) * p->n_ints);
		return 0;
	default:
		/* graphs, sparse tensors, type protos: kept as unknown */
		a->type = 0;
		return 0;
	}
}

/* a Constant node becomes a constant value */
static int import_constant(struct vpuxc_model *m, const struct vc_node *n,
			   int out)
{
	const struct vc_attr *a;
	struct vpuxc_tensor t;
	size_t i;

	memset(&t, 0, sizeof(t));
	if ((a = vc_attr(n, "value")) && a->t) {
		t = *a->t;
		t.data = malloc(t.size ? t.size : 1);
		if (!t.data)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		memcpy(t.data, a->t->data, t.size);
	} else if ((a = vc_attr(n, "value_float")) && a->type == VC_ATTR_FLOAT) {
		t.dtype = VPUXC_FLOAT;
		t.size = 4;
		t.data = malloc(4);
		if (!t.data)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		memcpy(t.data, &a->f, 4);
	} else if ((a = vc_attr(n, "value_int")) && a->type == VC_ATTR_INT) {
		t.dtype = VPUXC_INT64;
		t.size = 8;
		t.data = malloc(8);
		if (!t.data)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		memcpy(t.data, &a->i, 8);
	} else if ((a = vc_attr(n, "value_floats")) &&
		   a->type == VC_ATTR_FLOATS) {
		t.dtype = VPUXC_FLOAT;
		t.rank = 1;
		t.dims[0] = (int64_t)a->n_floats;
		t.size = 4 * a->n_floats;
		t.data = malloc(t.size + 1);
		if (!t.data)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		memcpy(t.data, a->floats, t.size);
	} else if ((a = vc_attr(n, "value_ints")) && a->type == VC_ATTR_INTS) {
		t.dtype = VPUXC_INT64;
		t.rank = 1;
		t.dims[0] = (int64_t)a->n_ints;
		t.size = 8 * a->n_ints;
		t.data = malloc(t.size + 1);
		if (!t.data)
			return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
		for (i = 0; i < a->n_ints; i++)
			memcpy((char *)t.data + 8 * i, &a->ints[i], 8);
	} else {
		return vpux_err(VPUX_E_UNSUPPORTED,
				"node '%s' (Constant): no supported value attribute",
				n->name);
	}
	return set_cst(&m->v[out], &t);
}

static int import_node(struct vpuxc_model *m, const Onnx__NodeProto *p,
		       unsigned int idx)
{
	struct vc_node *n = &m->n[idx];
	char defname[32];
	unsigned int i;
	int ret;

	snprintf(defname, sizeof(defname), "#%u", idx);
	n->op = xstrdup(p->op_type);
	n->domain = xstrdup(p->domain);
	n->name = xstrdup(p->name && *p->name ? p->name : defname);
	if (!n->op || !n->domain || !n->name)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	if (!*n->op)
		return vpux_err(VPUX_E_FORMAT, "node '%s': no op_type", n->name);
	if (p->n_input > 64 || p->n_output > 64 || p->n_attribute > 256)
		return vpux_err(VPUX_E_FORMAT,
				"node '%s': too many inputs, outputs or attributes",
				n->name);
	n->in = malloc(sizeof(int) * (p->n_input + 1));
	n->out = malloc(sizeof(int) * (p->n_output + 1));
	n->attrs = calloc(p->n_attribute + 1, sizeof(*n->attrs));
	if (!n->in || !n->out || !n->attrs)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	for (i = 0; i < p->n_attribute; i++) {
		n->n_attrs = i + 1;
		ret = import_attr(&n->attrs[i], p->attribute[i], n->name);
		if (ret)
			return ret;
	}
	for (i = 0; i < p->n_input; i++) {
		const char *s = p->input[i];
		int v;

		n->n_in = i + 1;
		if (!s || !*s) {
			n->in[i] = -1;
			continue;
		}
		v = vc_find(m, s);
		if (v < 0)
			return vpux_err(VPUX_E_FORMAT,
					"node '%s' (%s): input '%s' is not defined before it (not a graph input, initializer or earlier node's output)",
					n->name, n->op, s);
		n->in[i] = v;
		m->v[v].n_uses++;
	}
	for (i = 0; i < p->n_output; i++) {
		const char *s = p->output[i];
		int v;

		n->n_out = i + 1;
		if (!s || !*s) {
			n->out[i] = -1;
			continue;
		}
		if (vc_find(m, s) >= 0)
			return vpux_err(VPUX_E_FORMAT,
					"node '%s' (%s): output '%s' is already defined (values have one producer)",
					n->name, n->op, s);
		v = vc_add_value(m, s);
		if (v < 0)
			return v;
		m->v[v].producer = (int)idx;
		n->out[i] = v;
	}
	if (!strcmp(n->op, "Constant") && (!*n->domain ||
	    !strcmp(n->domain, "ai.onnx"))) {
		if (n->n_out != 1 || n->out[0] < 0)
			return vpux_err(VPUX_E_FORMAT,
					"node '%s' (Constant): needs one output",
					n->name);
		ret = import_constant(m, n, n->out[0]);
		if (ret)
			return ret;
		m->v[n->out[0]].producer = -1;
	}
	return 0;
}

static int import_graph(struct vpuxc_model *m, const Onnx__GraphProto *g)
{
	unsigned int i;
	int ret, v;

	m->graph_name = xstrdup(g->name && *g->name ? g->name : "onnx");
	if (!m->graph_name)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	if (g->n_sparse_initializer)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"graph: sparse initializers are not supported");
	for (i = 0; i < g->n_initializer; i++) {
		const Onnx__TensorProto *tp = g->initializer[i];
		struct vpuxc_tensor t;
		char what[300];

		if (!tp->name || !*tp->name)
			return vpux_err(VPUX_E_FORMAT,
					"graph: initializer %u has no name", i);
		if (vc_find(m, tp->name) >= 0)
			return vpux_err(VPUX_E_FORMAT,
					"graph: initializer '%s' defined twice",
					tp->name);
		snprintf(what, sizeof(what), "initializer '%s'", tp->name);
		ret = vc_tensor_from_proto(tp, &t, what);
		if (ret)
			return ret;
		v = vc_add_value(m, tp->name);
		if (v < 0) {
			vpuxc_tensor_fini(&t);
			return v;
		}
		ret = set_cst(&m->v[v], &t);
		if (ret)
			return ret;
	}
	m->inputs = malloc(sizeof(int) * (g->n_input + 1));
	m->outputs = malloc(sizeof(int) * (g->n_output + 1));
	if (!m->inputs || !m->outputs)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	for (i = 0; i < g->n_input; i++) {
		const Onnx__ValueInfoProto *vi = g->input[i];

		if (!vi->name || !*vi->name)
			return vpux_err(VPUX_E_FORMAT,
					"graph: input %u has no name", i);
		v = vc_find(m, vi->name);
		if (v >= 0) {
			if (m->v[v].cst)	/* an initializer listed as input */
				continue;
			return vpux_err(VPUX_E_FORMAT,
					"graph: input '%s' listed twice", vi->name);
		}
		v = vc_add_value(m, vi->name);
		if (v < 0)
			return v;
		m->v[v].flags |= VC_V_INPUT;
		ret = set_type(m, &m->v[v], vi, "graph input");
		if (ret)
			return ret;
		m->inputs[m->n_inputs++] = v;
	}
	m->n = calloc(g->n_node + 1, sizeof(*m->n));
	if (!m->n)
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	for (i = 0; i < g->n_node; i++) {
		m->n_n = i + 1;
		ret = import_node(m, g->node[i], i);
		if (ret)
			return ret;
	}
	if (!g->n_output)
		return vpux_err(VPUX_E_FORMAT, "graph: no outputs");
	for (i = 0; i < g->n_output; i++) {
		const Onnx__ValueInfoProto *vi = g->output[i];
		unsigned int j;

		v = vi->name ? vc_find(m, vi->name) : -1;
		if (v < 0)
			return vpux_err(VPUX_E_FORMAT,
					"graph: output '%s' is not produced by any node",
					vi->name ? vi->name : "");
		for (j = 0; j < m->n_outputs; j++)
			if (m->outputs[j] == v)
				return vpux_err(VPUX_E_FORMAT,
						"graph: output '%s' listed twice",
						vi->name);
		m->v[v].flags |= VC_V_OUTPUT;
		ret = set_type(m, &m->v[v], vi, "graph output");
		if (ret)
			return ret;
		m->outputs[m->n_outputs++] = v;
	}
	return 0;
}

int vpuxc_import_mem(const void *data, size_t size, struct vpuxc_model **out)
{
	Onnx__ModelProto *mp;
	struct vpuxc_model *m;
	size_t i;
	int ret;

	*out = NULL;
	if (!data || !size)
		return vpux_err(VPUX_E_FORMAT, "onnx: empty model");
	if (size > VC_MAX_MODEL_BYTES)
		return vpux_err(VPUX_E_FORMAT, "onnx: model above 2 GiB");
	mp = onnx__model_proto__unpack(NULL, size, data);
	if (!mp)
		return vpux_err(VPUX_E_FORMAT,
				"onnx: not a valid ModelProto (malformed or truncated protobuf)");
	if (!mp->graph) {
		onnx__model_proto__free_unpacked(mp, NULL);
		return vpux_err(VPUX_E_FORMAT, "onnx: the model has no graph");
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		onnx__model_proto__free_unpacked(mp, NULL);
		return vpux_err(VPUX_E_NOMEM, "onnx: out of memory");
	}
	m->opset = -1;
	for (i = 0; i < mp->n_opset_import; i++) {
		const Onnx__OperatorSetIdProto *o = mp->opset_import[i];

		if ((!o->domain || !*o->domain || !strcmp(o->domain, "ai.onnx")) &&
		    o->has_version)
			m->opset = o->version;
	}
	if (m->opset < 0 && !mp->n_opset_import)
		m->opset = 1;	/* IR version 2 models: no opset_import */
	ret = m->opset < 0 ?
		vpux_err(VPUX_E_FORMAT, "onnx: no opset for the default domain") :
		import_graph(m, mp->graph);
	onnx__model_proto__free_unpacked(mp, NULL);
	if (ret) {
		vpuxc_model_free(m);
		return ret;
	}
	*out = m;
	return 0;
}

int vpuxc_import_file(const char *path, struct vpuxc_model **out)
{
	void *buf;
	size_t sz;
	int ret;

	*out = NULL;
	/* a protobuf message is at most 2 GiB */
	ret = hc_read_file(path, (size_t)INT32_MAX, &buf, &sz);
	if (ret)
		return ret;
	ret = vpuxc_import_mem(buf, (size_t)sz, out);
	free(buf);
	if (ret) {
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", vpux_last_error());
		return vpux_err(ret, "%s: %s", path, msg);
	}
	return 0;
}

/* ---- model queries ---- */

static void desc_of(const struct vc_value *v, struct vpuxc_tensor *d)
{
	int i;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", v->name);
	d->dtype = v->dtype;
	d->rank = v->rank > 0 ? (uint32_t)v->rank : 0;
	for (i = 0; i < v->rank; i++)
		d->dims[i] = v->dims[i];
}

const char *vpuxc_model_dim_param(const struct vpuxc_model *m,
				  unsigned int i)
{
	return i < m->n_syms ? m->syms[i] : NULL;
}

unsigned int vpuxc_model_num_inputs(const struct vpuxc_model *m)
{
	return m->n_inputs;
}

int vpuxc_model_input(const struct vpuxc_model *m, unsigned int i,
		      struct vpuxc_tensor *desc)
{
	if (i >= m->n_inputs)
		return vpux_err(VPUX_E_INVAL, "model: no input %u (%u inputs)",
				i, m->n_inputs);
	desc_of(&m->v[m->inputs[i]], desc);
	return 0;
}

unsigned int vpuxc_model_num_outputs(const struct vpuxc_model *m)
{
	return m->n_outputs;
}

int vpuxc_model_output(const struct vpuxc_model *m, unsigned int i,
		       struct vpuxc_tensor *desc)
{
	if (i >= m->n_outputs)
		return vpux_err(VPUX_E_INVAL, "model: no output %u (%u outputs)",
				i, m->n_outputs);
	desc_of(&m->v[m->outputs[i]], desc);
	return 0;
}

/* is input slot @slot of @n a quantization parameter (or a clip bound)? */
static int qparam_slot(const struct vc_node *n, unsigned int slot)
{
	static const struct {
		const char *op;
		unsigned int mask;
	} tab[] = {
		{ "QuantizeLinear", 0x6 },
		{ "DequantizeLinear", 0x6 },
		{ "QLinearConv", 0xf6 },
		{ "QLinearMatMul", 0xf6 },
		{ "ConvInteger", 0xc },
		{ "MatMulInteger", 0xc },
		{ "Clip", 0x6 },
		/* shapes, axes, pads, sizes: what compiling needs to know */
		{ "Reshape", 0x2 }, { "Expand", 0x2 }, { "Tile", 0x2 },
		{ "Slice", 0x1e }, { "Squeeze", 0x2 }, { "Unsqueeze", 0x2 },
		{ "ReduceMean", 0x2 }, { "ReduceSum", 0x2 },
		{ "ReduceMax", 0x2 }, { "ReduceMin", 0x2 },
		{ "ReduceProd", 0x2 }, { "ReduceL1", 0x2 },
		{ "ReduceL2", 0x2 }, { "ReduceLogSum", 0x2 },
		{ "ReduceLogSumExp", 0x2 }, { "ReduceSumSquare", 0x2 },
		{ "Pad", 0xe }, { "Resize", 0xe }, { "Upsample", 0x2 },
		{ "Split", 0x2 }, { "TopK", 0x2 }, { "ConstantOfShape", 0x1 },
		{ "CumSum", 0x2 }, { "OneHot", 0x2 },
		/* constant indices and weights the NPU ops take */
		{ "Gather", 0x2 }, { "PRelu", 0x2 },
		{ "Conv", 0x6 }, { "ConvTranspose", 0x6 }, { "Gemm", 0x6 },
		{ "LayerNormalization", 0x6 }, { "InstanceNormalization", 0x6 },
		{ "BatchNormalization", 0x1e },
	};
	unsigned int i;

	if (*n->domain && strcmp(n->domain, "ai.onnx"))
		return 0;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(n->op, tab[i].op))
			return slot < 32 && (tab[i].mask >> slot) & 1;
	return 0;
}

int vpuxc_model_input_is_qparam(const struct vpuxc_model *m,
				const char *name)
{
	int v = vc_find(m, name);
	unsigned int i, j, uses = 0;

	if (v < 0 || !(m->v[v].flags & VC_V_INPUT) ||
	    (m->v[v].flags & VC_V_OUTPUT))
		return 0;
	for (i = 0; i < m->n_n; i++)
		for (j = 0; j < m->n[i].n_in; j++)
			if (m->n[i].in[j] == v) {
				if (!qparam_slot(&m->n[i], j))
					return 0;
				uses++;
			}
	return uses > 0;
}

int vpuxc_model_fold_input(struct vpuxc_model *m,
			   const struct vpuxc_tensor *t)
{
	struct vpuxc_tensor c;
	struct vc_value *v;
	int idx = vc_find(m, t->name);
	unsigned int i, j;

	if (idx < 0 || !(m->v[idx].flags & VC_V_INPUT))
		return vpux_err(VPUX_E_INVAL, "fold: '%s' is not a graph input",
				t->name);
	v = &m->v[idx];
	if (v->dtype && v->dtype != t->dtype)
		return vpux_err(VPUX_E_INVAL,
				"fold: '%s': value is %s, the graph declares %s",
				t->name, vpuxc_dtype_name(t->dtype),
				vpuxc_dtype_name(v->dtype));
	if (v->rank >= 0) {
		int ok = (uint32_t)v->rank == t->rank;

		for (i = 0; ok && i < t->rank; i++)
			ok = v->dims[i] < 0 || v->dims[i] == t->dims[i];
		if (!ok)
			return vpux_err(VPUX_E_INVAL,
					"fold: '%s': shape differs from the graph's",
					t->name);
	}
	if (vpuxc_tensor_count(t) * vpuxc_dtype_size(t->dtype) != t->size)
		return vpux_err(VPUX_E_INVAL, "fold: '%s': data size mismatch",
				t->name);
	c = *t;
	c.data = malloc(t->size ? t->size : 1);
	if (!c.data)
		return vpux_err(VPUX_E_NOMEM, "fold: out of memory");
	memcpy(c.data, t->data, t->size);
	if (set_cst(v, &c))
		return VPUX_E_NOMEM;
	v->flags &= ~VC_V_INPUT;
	for (i = 0, j = 0; i < m->n_inputs; i++)
		if (m->inputs[i] != idx)
			m->inputs[j++] = m->inputs[i];
	m->n_inputs = j;
	return 0;
}
