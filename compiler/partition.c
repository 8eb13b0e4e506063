// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpuxc_partition(): an ONNX model the NPU cannot run whole becomes a run
 * recipe (Documentation/run-recipes.rst): NPU loadables for the parts the
 * lowering supports, CPU functions of libvpux-cpuops for the rest
 * (Documentation/cpuops.rst), and quantize/dequantize runs at every
 * boundary between the two.
 *
 * The model's nodes are walked in topological order. A node is either
 * "floating" (all its inputs are constants: Constant, DequantizeLinear of
 * an initializer; it goes with each consumer), on the CPU, or on the NPU;
 * consecutive NPU nodes form one part.
 *
 * Placement is decided up front from capabilities: a node of the float
 * (FP16) path goes where the op registry says (vc_op_npu(): NULL, or why
 * the NPU cannot run it); a node of a quantized section (QuantizeLinear,
 * DequantizeLinear, QLinear*, *Integer and the float ops that read their
 * results: lower.c's do_node) starts on the NPU. Every NPU part is then
 * cut out as a model of its own (its inputs: the values it reads from
 * outside, its outputs: the values read outside or by the graph) and
 * compiled once with vpuxc_compile(). When a part fails to compile, the
 * first node its lowering reports moves to the CPU if it is a quantized
 * section's node (the quantized lowering has no capability check of its
 * own yet) and the parts are formed again; a float-path node the
 * registry placed on the NPU that its compile refuses is an error (the
 * registry and the lowering disagree). A node neither the NPU nor
 * libvpux-cpuops runs fails partitioning; with no_cpu_fallback, any node
 * off the NPU does, and the error names every one with its reason.
 *
 * A float value crossing into an NPU part is quantized by a "quantize"
 * run with the scale and zero point the loadable's .vpux.io records
 * (those of the QuantizeLinear node at the cut), and one leaving it is
 * dequantized with those of the DequantizeLinear node; integer values
 * cross as they are. Constant operands of CPU functions are "weight"
 * buffers whose bytes (float32, little endian) lie in one binary file
 * next to the recipe ("<prefix>w0.bin"); the buffer's "data" member says
 * where (file, offset) and what (dtype, shape), and the runner loads it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "err.h"
#include "lower_int.h"
#include "kernels.h"

#define RECIPE_TARGET	"vpux1"
#define RECIPE_VERSION	"1.0"
#define CPU_LIBRARY	"libvpux-cpuops.so"

/* one part: an NPU loadable or one CPU node */
struct part {
	int cpu;
	int *nodes;		/* parent node indices, in order */
	unsigned int n_nodes;
	/* NPU: the loadable and its I/O as parent value indices */
	struct vpuxc_result res;
	int *in_v, *out_v;
	unsigned int n_in, n_out;
	struct vpuxc_io_table io;
};

struct pctx {
	struct vpuxc_model *m;
	const struct vpuxc_options *o;
	char *floating;		/* per node */
	char *cpu;		/* per node */
	char *qpath;		/* per node: of a quantized section */
	char **reason;		/* per node: why it runs on the CPU */
	struct part *parts;
	unsigned int n_parts;
	/* the recipe being built */
	json_object *buffers, *runs, *fills;
	json_object *cpus;	/* the CPU functions used (resources.cpus) */
	int *vbuf;		/* value -> 1 once it has a buffer */
	double *vscale;		/* value -> the scale an NPU output had, 0 */
	char *why;		/* why partitioning gave up (malloc'ed) */
	/* the weights of the CPU functions: one file next to the recipe */
	unsigned char *wdata;
	size_t wsize, wcap;
	char wfile[VPUXC_NAME_MAX + 32];
};

__attribute__((format(printf, 2, 3)))
static int give_up(struct pctx *c, const char *fmt, ...)
{
	va_list ap;

	free(c->why);
	c->why = NULL;
	va_start(ap, fmt);
	if (vasprintf(&c->why, fmt, ap) < 0)
		c->why = NULL;
	va_end(ap);
	return VPUX_E_UNSUPPORTED;
}

static int is_op(const struct vc_node *n, const char *op)
{
	return !strcmp(n->op, op);
}

static int value_known(const struct vc_value *v)
{
	int i;

	if (!v || v->rank < 0)
		return 0;
	for (i = 0; i < v->rank; i++)
		if (v->dims[i] <= 0)
			return 0;
	return 1;
}

/* ---- shapes of the CPU-only ops the shape inference does not know ---- */

static int infer_extra(struct vpuxc_model *m)
{
	unsigned int i, k, changed = 0;
	int d;

	for (i = 0; i < m->n_n; i++) {
		const struct vc_node *n = &m->n[i];
		struct vc_value *y = vc_out(m, n, 0), *x = vc_in(m, n, 0);

		if (!y || y->rank >= 0 || !value_known(x))
			continue;
		if (is_op(n, "Resize") || is_op(n, "Upsample")) {
			const struct vc_value *sz = n->n_in > 3 ? vc_in(m, n, 3) : NULL;
			const struct vc_value *sc = vc_in(m, n, is_op(n, "Upsample") ||
							 m->opset < 11 ? 1 : 2);

			if (sz && sz->cst && vpuxc_tensor_count(sz->cst) == (size_t)x->rank) {
				for (d = 0; d < x->rank; d++)
					y->dims[d] = vc_cst_i(sz->cst, (size_t)d);
			} else if (sc && sc->cst && vpuxc_tensor_count(sc->cst) == (size_t)x->rank) {
				for (d = 0; d < x->rank; d++) {
					double f = floor((double)x->dims[d] *
							 (double)(float)vc_cst_f(sc->cst, (size_t)d));

					/* NaN, <= 0 or huge: unknown (refused later) */
					y->dims[d] = f >= 1 && f < (double)(1ll << 40) ?
						     (int64_t)f : -1;
				}
			} else {
				continue;
			}
			y->rank = x->rank;
			y->dtype = x->dtype;
			changed++;
		} else if (is_op(n, "Concat")) {
			int64_t axis = vc_attr_i(n, "axis", 0), sum = 0;

			if (axis < 0)
				axis += x->rank;
			if (axis < 0 || axis >= x->rank)
				continue;
			for (k = 0; k < n->n_in; k++) {
				const struct vc_value *v = vc_in(m, n, k);

				if (!value_known(v) || v->rank != x->rank ||
				    v->dims[axis] > (1ll << 40))
					break;
				sum += v->dims[axis];
			}
			if (k < n->n_in)
				continue;
			*y = (struct vc_value){ .name = y->name, .dtype = x->dtype,
				.rank = x->rank, .cst = y->cst,
				.producer = y->producer, .n_uses = y->n_uses,
				.flags = y->flags };
			memcpy(y->dims, x->dims, sizeof(y->dims));
			y->dims[axis] = sum;
			changed++;
		}
	}
	return (int)changed;
}

/* ---- sub-models: an NPU part cut out of the model ---- */

/* free what sub_model() allocated; the constants and attributes are shared */
static void sub_free(struct vpuxc_model *s, const struct vpuxc_model *m,
		     const int *orig)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->n_v; i++) {
		free(s->v[i].name);
		/* a constant the sub-model's passes made is its own */
		if (s->v[i].cst && (orig[i] < 0 || s->v[i].cst != m->v[orig[i]].cst)) {
			vpuxc_tensor_fini(s->v[i].cst);
			free(s->v[i].cst);
		}
	}
	for (i = 0; i < s->n_n; i++) {
		free(s->n[i].in);
		free(s->n[i].out);
	}
	free(s->v);
	free(s->n);
	free(s->inputs);
	free(s->outputs);
	free(s->hash);
	free(s->graph_name);
	free(s);
}

/* is value @v read by a node outside @in_part (or a graph output)? */
static int used_outside(const struct vpuxc_model *m, const char *in_part,
			int v)
{
	unsigned int i, k;

	if (m->v[v].flags & VC_V_OUTPUT)
		return 1;
	for (i = 0; i < m->n_n; i++) {
		if (in_part[i])
			continue;
		for (k = 0; k < m->n[i].n_in; k++)
			if (m->n[i].in[k] == v)
				return 1;
	}
	return 0;
}

/*
 * The model of part @pt: its nodes and the floating nodes they read, its
 * inputs and outputs (as parent value indices into pt->in_v/out_v).
 * @orig receives the parent index of each sub-model value.
 */
static int sub_model(struct pctx *c, struct part *pt, struct vpuxc_model **out,
		     int **orig_out, int **node_of)
{
	struct vpuxc_model *m = c->m, *s;
	char *in_part = calloc(m->n_n + 1, 1);
	int *map = malloc(sizeof(int) * (m->n_v + 1));
	int *orig = NULL, *nmap = NULL;
	unsigned int i, k, j;
	int ret = VPUX_E_NOMEM;

	s = calloc(1, sizeof(*s));
	if (!in_part || !map || !s)
		goto fail;
	for (i = 0; i < m->n_v; i++)
		map[i] = -1;
	for (i = 0; i < pt->n_nodes; i++)
		in_part[pt->nodes[i]] = 1;
	/* the floating nodes the part reads, transitively (they come first) */
	for (k = m->n_n; k-- > 0;) {
		if (!in_part[k])
			continue;
		for (j = 0; j < m->n[k].n_in; j++) {
			const struct vc_value *v = vc_in(m, &m->n[k], j);

			if (v && v->producer >= 0 && c->floating[v->producer])
				in_part[v->producer] = 2;
		}
	}
	s->graph_name = NULL;
	if (asprintf(&s->graph_name, "%s_npu%u", m->graph_name,
		     (unsigned int)(pt - c->parts)) < 0) {
		s->graph_name = NULL;
		goto fail;
	}
	s->opset = m->opset;
	s->kernels = m->kernels;	/* shared: the parent frees it */
	s->passes_done = 1;	/* a part shares the model's nodes */
	s->n = calloc(m->n_n + 1, sizeof(*s->n));
	nmap = malloc(sizeof(int) * (m->n_n + 1));
	orig = malloc(sizeof(int) * (2 * m->n_v + 1));
	pt->in_v = malloc(sizeof(int) * (m->n_v + 1));
	pt->out_v = malloc(sizeof(int) * (m->n_v + 1));
	if (!s->n || !nmap || !orig || !pt->in_v || !pt->out_v)
		goto fail;
	s->inputs = malloc(sizeof(int) * (m->n_v + 1));
	s->outputs = malloc(sizeof(int) * (m->n_v + 1));
	if (!s->inputs || !s->outputs)
		goto fail;
	for (i = 0; i < m->n_n; i++) {
		const struct vc_node *n = &m->n[i];
		struct vc_node *d;

		if (!in_part[i])
			continue;
		d = &s->n[s->n_n];
		*d = *n;
		d->in = malloc(sizeof(int) * (n->n_in + 1));
		d->out = malloc(sizeof(int) * (n->n_out + 1));
		if (!d->in || !d->out) {
			free(d->in);
			free(d->out);
			goto fail;
		}
		nmap[s->n_n] = (int)i;
		s->n_n++;
		for (k = 0; k < n->n_in + n->n_out; k++) {
			int pv = k < n->n_in ? n->in[k] : n->out[k - n->n_in];
			int sv;

			if (pv < 0) {
				(k < n->n_in ? d->in : d->out)[k < n->n_in ? k : k - n->n_in] = -1;
				continue;
			}
			sv = map[pv];
			if (sv < 0) {
				const struct vc_value *v = &m->v[pv];
				struct vc_value *w;

				sv = vc_add_value(s, v->name);
				if (sv < 0) {
					ret = sv;
					goto fail;
				}
				orig[sv] = pv;
				map[pv] = sv;
				w = &s->v[sv];
				w->dtype = v->dtype;
				w->rank = v->rank;
				memcpy(w->dims, v->dims, sizeof(w->dims));
				w->cst = v->cst;
				w->producer = -1;
				if (k < n->n_in && !v->cst) {
					/* read from outside: an input */
					w->flags |= VC_V_INPUT;
					s->inputs[s->n_inputs++] = sv;
					pt->in_v[pt->n_in++] = pv;
				}
			}
			if (k < n->n_in) {
				d->in[k] = sv;
				s->v[sv].n_uses++;
			} else {
				d->out[k - n->n_in] = sv;
				s->v[sv].producer = (int)s->n_n - 1;
			}
		}
	}
	/* outputs: values made here and read outside, in production order */
	for (i = 0; i < s->n_n; i++) {
		const struct vc_node *d = &s->n[i];

		for (k = 0; k < d->n_out; k++) {
			int sv = d->out[k];

			if (sv < 0 || in_part[nmap[i]] != 1 ||
			    !used_outside(m, in_part, orig[sv]))
				continue;
			s->v[sv].flags |= VC_V_OUTPUT;
			s->outputs[s->n_outputs++] = sv;
			pt->out_v[pt->n_out++] = orig[sv];
		}
	}
	free(in_part);
	free(map);
	*out = s;
	*orig_out = orig;
	*node_of = nmap;
	return 0;
fail:
	if (ret == VPUX_E_NOMEM)
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (s && orig)
		sub_free(s, m, orig);
	else if (s) {
		free(s->n);
		free(s->inputs);
		free(s->outputs);
		free(s->graph_name);
		free(s);
	}
	free(orig);
	free(nmap);
	free(in_part);
	free(map);
	return ret;
}

/* ---- which nodes libvpux-cpuops can run ---- */

static const struct vc_value *cst_value(const struct pctx *c,
					const struct vc_value *v)
{
	if (!v)
		return NULL;
	if (v->cst)
		return v;
	if (v->producer >= 0 && c->floating[v->producer])
		return v;
	return NULL;
}

/* NULL if node @k has a CPU function, else why not */
static const char *cpu_refuses(const struct pctx *c, int k)
{
	const struct vpuxc_model *m = c->m;
	const struct vc_node *n = &m->n[k];
	static const char *const ops[] = { "Conv", "MatMul", "Gemm", "Add",
		"Relu", "Softmax", "Concat", "Resize", "QuantizeLinear",
		"DequantizeLinear", NULL };
	unsigned int i;
	int known = 0;

	for (i = 0; ops[i]; i++)
		known |= is_op(n, ops[i]);
	if (!known || (*n->domain && strcmp(n->domain, "ai.onnx")))
		return "libvpux-cpuops has no such function";
	/* the inputs each function needs, and one output */
	for (i = 0; i < (is_op(n, "Concat") ? n->n_in :
			 is_op(n, "Relu") || is_op(n, "Softmax") ||
			 is_op(n, "Resize") ? 1 : 2); i++)
		if (!vc_in(m, n, i))
			return "a required input is missing";
	if ((is_op(n, "Add") || is_op(n, "MatMul")) && n->n_in != 2)
		return "two inputs expected";
	if (!vc_out(m, n, 0))
		return "no output";
	for (i = 0; i < n->n_out; i++)
		if (n->out[i] >= 0 && !value_known(&m->v[n->out[i]]))
			return "an output has no static shape";
	if (is_op(n, "QuantizeLinear") || is_op(n, "DequantizeLinear")) {
		const struct vc_value *s = vc_in(m, n, 1), *z = vc_in(m, n, 2);
		const struct vc_value *x = vc_in(m, n, 0);

		if (!s || !s->cst || vpuxc_tensor_count(s->cst) != 1 ||
		    (z && (!z->cst || vpuxc_tensor_count(z->cst) != 1)))
			return "the CPU converts with one constant scale and zero point";
		if (!value_known(x) || cst_value(c, x))
			return "the input has no static shape or is a constant";
		return NULL;
	}
	for (i = 0; i < n->n_in; i++) {
		const struct vc_value *v = vc_in(m, n, i);

		if (!v)
			continue;
		if (is_op(n, "Resize") && i > 0)
			continue;
		if (!value_known(v))
			return "an input has no static shape";
		if (v->dtype != VPUXC_FLOAT)
			return "the CPU functions are float32 only";
		if (v->cst && v->cst->dtype != VPUXC_FLOAT)
			return "a constant operand is not float32";
		if (!v->cst && v->producer >= 0 && c->floating[v->producer] &&
		    !is_op(&m->n[v->producer], "DequantizeLinear"))
			return "a constant operand is computed by a node the compiler does not evaluate";
	}
	if (is_op(n, "Conv")) {
		if (vc_in(m, n, 0)->rank != 4)
			return "only 2-D convolutions";
		if (strcmp(vc_attr_s(n, "auto_pad", "NOTSET"), "NOTSET"))
			return "auto_pad is not supported (give pads)";
		if (!cst_value(c, vc_in(m, n, 1)))
			return "the weights are not a constant";
	} else if (is_op(n, "Gemm") || is_op(n, "MatMul")) {
		for (i = 0; i < 2; i++)
			if (vc_in(m, n, i)->rank < (is_op(n, "Gemm") ? 2 : 1))
				return "operand rank not supported";
	} else if (is_op(n, "Concat")) {
		int64_t axis = vc_attr_i(n, "axis", 0);
		const struct vc_value *y = vc_out(m, n, 0);

		if (n->n_in < 2 || n->n_in > 8)
			return "2 to 8 inputs";
		if (axis < 0)
			axis += y->rank;
		if (axis < 0 || axis >= y->rank)
			return "axis out of range";
		for (i = 0; i < n->n_in; i++)
			if (vc_in(m, n, i)->rank != y->rank)
				return "inputs of another rank than the output";
	} else if (is_op(n, "Resize")) {
		const char *mode = vc_attr_s(n, "mode", "nearest");
		const char *ct = vc_attr_s(n, "coordinate_transformation_mode",
					   "half_pixel");

		if (strcmp(mode, "nearest") && strcmp(mode, "linear"))
			return "mode must be nearest or linear";
		if (!strcmp(ct, "tf_crop_and_resize"))
			return "tf_crop_and_resize is not supported";
		if (vc_attr_i(n, "exclude_outside", 0) || vc_attr_i(n, "antialias", 0) ||
		    vc_attr(n, "axes"))
			return "exclude_outside, antialias and axes are not supported";
		if (strcmp(vc_attr_s(n, "keep_aspect_ratio_policy", "stretch"), "stretch"))
			return "keep_aspect_ratio_policy must be stretch";
		if (m->opset < 11)
			return "opset 10 Resize is not supported";
		{
			const struct vc_value *sc = vc_in(m, n, 2), *x = vc_in(m, n, 0);
			size_t cnt = sc && sc->cst ? vpuxc_tensor_count(sc->cst) : 0;

			if (sc && !sc->cst)
				return "scales are not a constant";
			if (cnt && cnt != (size_t)x->rank)
				return "not one scale per dim";
			for (i = 0; i < cnt; i++) {
				double f = vc_cst_f(sc->cst, i);

				if (!(f > 0) || f > 1e9)
					return "a scale is not positive and finite";
			}
			if (vc_out(m, n, 0)->rank != x->rank)
				return "the output's rank differs from the input's";
		}
	}
	return NULL;
}

/* ---- forming and compiling the parts ---- */

static void parts_free(struct pctx *c)
{
	unsigned int i;

	for (i = 0; i < c->n_parts; i++) {
		struct part *pt = &c->parts[i];

		free(pt->nodes);
		free(pt->in_v);
		free(pt->out_v);
		vpuxc_result_fini(&pt->res);
		vpuxc_io_fini(&pt->io);
	}
	free(c->parts);
	c->parts = NULL;
	c->n_parts = 0;
}

static int parts_form(struct pctx *c)
{
	const struct vpuxc_model *m = c->m;
	unsigned int i;

	c->parts = calloc(m->n_n + 1, sizeof(*c->parts));
	if (!c->parts)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < m->n_n; i++) {
		struct part *pt;

		if (c->floating[i])
			continue;
		pt = c->n_parts ? &c->parts[c->n_parts - 1] : NULL;
		if (!pt || pt->cpu || c->cpu[i]) {
			pt = &c->parts[c->n_parts++];
			pt->cpu = c->cpu[i];
			pt->nodes = malloc(sizeof(int) * (m->n_n + 1));
			if (!pt->nodes)
				return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		}
		pt->nodes[pt->n_nodes++] = (int)i;
	}
	return 0;
}

/* the lowering's reason for node @n in its error list @errs (malloc'ed) */
static char *reason_in(const char *errs, const struct vc_node *n)
{
	char *head = NULL, *r = NULL;
	const char *p, *e;

	if (!errs || asprintf(&head, "  %s '%s': ", n->op, n->name) < 0)
		return NULL;
	for (p = errs; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (strncmp(p, head, strlen(head)))
			continue;
		p += strlen(head);
		r = strndup(p, e ? (size_t)(e - p) : strlen(p));
		break;
	}
	free(head);
	return r;
}

/*
 * Compile NPU part @pt. 1: node *@bad of the model (or -1) stops it and
 * the parts must be formed again (*@why: the lowering's reason,
 * malloc'ed); 0: compiled; <0: error.
 */
static int part_compile(struct pctx *c, struct part *pt, int *bad, char **why)
{
	struct vpuxc_model *s = NULL;
	struct vpuxc_options o = { 0 };
	int *orig = NULL, *node_of = NULL, ret;
	struct qprog p;

	*bad = -1;
	ret = sub_model(c, pt, &s, &orig, &node_of);
	if (ret)
		return ret;
	if (!s->n_outputs) {
		ret = give_up(c, "part %u computes nothing the graph reads",
			      (unsigned int)(pt - c->parts));
		goto out;
	}
	if (c->o)
		o = *c->o;
	o.name = s->graph_name;
	o.report = 0;
	o.vasm = 0;
	/* the runner does not share CMX between a recipe's runs yet: the
	 * parts run from scratch memory */
	o.no_cmx = 1;
	ret = vpuxc_compile(s, &o, &pt->res);
	if (ret == VPUX_E_UNSUPPORTED) {
		char *msg = strdup(vpux_last_error());

		if (!msg) {
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		/* which node? the lowering reports the first one it meets */
		if (vc_lower(s, &p) && p.first_bad >= 0) {
			*bad = node_of[p.first_bad];
			*why = reason_in(p.errs, &s->n[p.first_bad]);
		}
		vc_prog_free(&p);
		ret = 1;
		if (*bad < 0)
			ret = give_up(c, "part %u: %s", (unsigned int)(pt - c->parts),
				      msg);
		free(msg);
		goto out;
	}
	if (ret)
		goto out;
	ret = vpuxc_io_read(pt->res.loadable, pt->res.size, &pt->io);
out:
	sub_free(s, c->m, orig);
	free(orig);
	free(node_of);
	return ret;
}

/* ---- the recipe ---- */

static const char *dtype_cpu(int32_t dt)
{
	/* the CPU functions' quantize takes these two (umd/cpuops/convert.c) */
	return dt == VPUXC_UINT8 || dt == VPUXC_INT8 ? vpuxc_dtype_name(dt) :
	       NULL;
}

static uint64_t value_bytes(const struct vc_value *v)
{
	return vc_numel(v) * vpuxc_dtype_size(v->dtype);
}

static json_object *add_buffer(struct pctx *c, const char *name,
			       const char *type, uint64_t size)
{
	json_object *b = json_object_new_object();

	json_object_object_add(b, "name", json_object_new_string(name));
	json_object_object_add(b, "type", json_object_new_string(type));
	json_object_object_add(b, "size", json_object_new_int64((int64_t)size));
	json_object_array_add(c->buffers, b);
	return b;
}

/* resources.cpus: each function used, once, from libvpux-cpuops */
static void cpu_use(struct pctx *c, const char *name)
{
	json_object *e, *n;
	size_t i;

	for (i = 0; i < json_object_array_length(c->cpus); i++) {
		e = json_object_array_get_idx(c->cpus, i);
		if (json_object_object_get_ex(e, "name", &n) &&
		    !strcmp(json_object_get_string(n), name))
			return;
	}
	e = json_object_new_object();
	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "library_path",
			       json_object_new_string(CPU_LIBRARY));
	json_object_array_add(c->cpus, e);
}

/* the float32 value of constant (or DequantizeLinear of a constant) @v */
static int const_floats(struct pctx *c, const struct vc_value *v, float **out)
{
	const struct vpuxc_model *m = c->m;
	size_t n = vc_numel(v), i;
	float *f = malloc(sizeof(float) * (n + 1));

	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (v->cst) {
		if (v->cst->dtype != VPUXC_FLOAT || v->cst->size != sizeof(float) * n) {
			free(f);
			return give_up(c, "constant '%s': not %zu float32 values",
				       v->name, n);
		}
		memcpy(f, v->cst->data, sizeof(float) * n);
	} else {
		const struct vc_node *dq = &m->n[v->producer];
		const struct vc_value *x = vc_in(m, dq, 0), *s = vc_in(m, dq, 1);
		const struct vc_value *z = vc_in(m, dq, 2);
		size_t cnt = s && s->cst ? vpuxc_tensor_count(s->cst) : 0;
		int64_t axis = vc_attr_i(dq, "axis", 1);
		size_t inner = 1;
		int d;

		if (!x || !x->cst || !cnt || (z && !z->cst) ||
		    vpuxc_tensor_count(x->cst) != n ||
		    (z && vpuxc_tensor_count(z->cst) != cnt)) {
			free(f);
			return give_up(c, "%s '%s': not a constant the compiler evaluates",
				       dq->op, dq->name);
		}
		if (axis < 0)
			axis += x->rank;
		if (cnt > 1) {
			if (axis < 0 || axis >= x->rank ||
			    (size_t)x->dims[axis] != cnt) {
				free(f);
				return give_up(c, "%s '%s': scales do not match the axis",
					       dq->op, dq->name);
			}
			for (d = (int)axis + 1; d < x->rank; d++)
				inner *= (size_t)x->dims[d];
		}
		for (i = 0; i < n; i++) {
			size_t q = cnt > 1 ? (i / inner) % cnt : 0;
			float scale = (float)vc_cst_f(s->cst, q);
			int64_t zp = z ? vc_cst_i(z->cst, q) : 0;

			f[i] = (float)(vc_cst_i(x->cst, i) - zp) * scale;
		}
	}
	*out = f;
	return 0;
}

/* a buffer for value @vi (once), with a fill run for a constant */
static int value_buffer(struct pctx *c, int vi)
{
	const struct vc_value *v = &c->m->v[vi];
	const char *type = "internal";
	json_object *b;

	if (c->vbuf[vi])
		return 0;
	c->vbuf[vi] = 1;
	if (v->flags & VC_V_INPUT)
		type = "input";
	else if (v->flags & VC_V_OUTPUT)
		type = "output";
	else if (cst_value(c, v))
		type = "weight";
	if (!value_known(v) || !vpuxc_dtype_size(v->dtype))
		return give_up(c, "value '%s': no static shape or an element type the recipe cannot carry",
			       v->name);
	b = add_buffer(c, v->name, type, value_bytes(v));
	if (!strcmp(type, "weight")) {
		size_t bytes = sizeof(float) * vc_numel(v);
		size_t off = (c->wsize + 63) & ~(size_t)63;
		json_object *d, *shape;
		float *f = NULL;
		int ret = const_floats(c, v, &f), i;

		if (ret)
			return ret;
		if (off + bytes > c->wcap) {
			size_t cap = c->wcap ? c->wcap : 4096;
			unsigned char *w;

			while (cap < off + bytes)
				cap *= 2;
			w = realloc(c->wdata, cap);
			if (!w) {
				free(f);
				return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			}
			memset(w + c->wcap, 0, cap - c->wcap);
			c->wdata = w;
			c->wcap = cap;
		}
		/* the host is little endian, as the file (run-recipes.rst) */
		memcpy(c->wdata + off, f, bytes);
		free(f);
		c->wsize = off + bytes;
		d = json_object_new_object();
		json_object_object_add(d, "file", json_object_new_string(c->wfile));
		json_object_object_add(d, "offset", json_object_new_int64((int64_t)off));
		json_object_object_add(d, "dtype", json_object_new_string("float32"));
		shape = json_object_new_array();
		for (i = 0; i < v->rank; i++)
			json_object_array_add(shape, json_object_new_int64(v->dims[i]));
		json_object_object_add(d, "shape", shape);
		json_object_object_add(b, "data", d);
	}
	return 0;
}

/* a run being built */
struct run {
	json_object *o, *args, *consts;
	unsigned int idx;
};

static void run_new(struct pctx *c, struct run *r, const char *name, int cpu)
{
	if (cpu)
		cpu_use(c, name);
	r->o = json_object_new_object();
	r->args = json_object_new_array();
	r->consts = json_object_new_array();
	r->idx = 0;
	json_object_object_add(r->o, "name", json_object_new_string(name));
	json_object_object_add(r->o, "where",
			       json_object_new_string(cpu ? "cpu" : "npu"));
}

static void run_buf(struct run *r, const char *buf)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "name", json_object_new_string(buf));
	json_object_object_add(e, "argidx", json_object_new_int((int)r->idx++));
	json_object_array_add(r->args, e);
}

static void run_str(struct run *r, const char *s)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "value", json_object_new_string(s));
	json_object_object_add(e, "type", json_object_new_string("string"));
	json_object_object_add(e, "argidx", json_object_new_int((int)r->idx++));
	json_object_array_add(r->consts, e);
}

static void run_int(struct run *r, int64_t v)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "value", json_object_new_int64(v));
	json_object_object_add(e, "type", json_object_new_string("int"));
	json_object_object_add(e, "argidx", json_object_new_int((int)r->idx++));
	json_object_array_add(r->consts, e);
}

static void run_end(struct pctx *c, struct run *r)
{
	json_object_object_add(r->o, "arguments", r->args);
	if (json_object_array_length(r->consts))
		json_object_object_add(r->o, "constants", r->consts);
	else
		json_object_put(r->consts);
	json_object_array_add(c->runs, r->o);
}

static void run_shape(struct run *r, const struct vc_value *v)
{
	char s[VPUXC_MAX_RANK * 21 + 1];
	size_t n = 0;
	int i;

	s[0] = 0;
	for (i = 0; i < v->rank; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%lld", i ? "," : "",
				      (long long)v->dims[i]);
	run_str(r, s);
}

static void run_ints(struct run *r, const int64_t *v, unsigned int cnt)
{
	char s[256];
	size_t n = 0;
	unsigned int i;

	s[0] = 0;
	for (i = 0; i < cnt && n < sizeof(s); i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%lld", i ? "," : "",
				      (long long)v[i]);
	run_str(r, s);
}

static void run_double(struct run *r, double d)
{
	char s[32];

	snprintf(s, sizeof(s), "%.9g", d);
	run_str(r, s);
}

/* a quantize/dequantize run between @from and @to */
static void conv_run(struct pctx *c, int quant, const char *from,
		     const char *to, double scale, int32_t zp, int32_t dt)
{
	struct run r;

	run_new(c, &r, quant ? "quantize" : "dequantize", 1);
	run_buf(&r, from);
	run_buf(&r, to);
	run_double(&r, scale);
	run_int(&r, zp);
	run_str(&r, dtype_cpu(dt));
	run_end(c, &r);
}

/* a float value the loadable holds in FP16: to_f16/from_f16 at the cut */
static int f16_io(const struct vpuxc_io *io)
{
	return !io->qcount && io->dev_dtype == 10 && io->onnx_dtype == VPUXC_FLOAT;
}

/* a to_f16 (@to) or from_f16 run from buffer @from to @to_buf */
static void f16_run(struct pctx *c, int to, const char *from, const char *to_buf)
{
	struct run r;

	run_new(c, &r, to ? "to_f16" : "from_f16", 1);
	run_buf(&r, from);
	run_buf(&r, to_buf);
	run_end(c, &r);
}

/* the runs of NPU part @pt: conversions in, the kernel, conversions out */
static int npu_runs(struct pctx *c, struct part *pt, unsigned int idx,
		    const char *prefix, json_object *kernels)
{
	json_object *k;
	struct run r;
	char kname[64], file[VPUXC_NAME_MAX + 64], dev[VPUXC_NAME_MAX + 32];
	unsigned int i, dir;
	int ret;

	snprintf(kname, sizeof(kname), "npu%u", idx);
	snprintf(file, sizeof(file), "%snpu%u.vpuxl", prefix, idx);
	k = json_object_new_object();
	json_object_object_add(k, "name", json_object_new_string(kname));
	json_object_object_add(k, "loadable", json_object_new_string(file));
	json_object_array_add(kernels, k);
	if (pt->io.n_inputs != pt->n_in || pt->io.n_outputs != pt->n_out)
		return vpux_err(VPUX_E_INVAL, "compiler: internal error: part %u has %u/%u inputs/outputs, its loadable %u/%u",
				idx, pt->n_in, pt->n_out, pt->io.n_inputs,
				pt->io.n_outputs);
	for (dir = 0; dir < 2; dir++) {
		unsigned int n = dir ? pt->n_out : pt->n_in;

		for (i = 0; i < n; i++) {
			const struct vpuxc_io *io = dir ? &pt->io.outputs[i] :
							  &pt->io.inputs[i];
			int vi = dir ? pt->out_v[i] : pt->in_v[i];

			ret = value_buffer(c, vi);
			if (ret)
				return ret;
			if (f16_io(io)) {
				snprintf(dev, sizeof(dev), "%s:%s%u", kname,
					 dir ? "out" : "in", i);
				if (vc_find(c->m, dev) >= 0)
					return give_up(c, "a value is named '%s', the name of a device buffer",
						       dev);
				add_buffer(c, dev, "internal", vc_numel(&c->m->v[vi]) * 2);
				if (!dir)
					f16_run(c, 1, c->m->v[vi].name, dev);
				continue;
			}
			if (!io->qcount)
				continue;
			if (io->qcount != 1 || !dtype_cpu(io->dev_dtype))
				return give_up(c, "'%s' crosses between the NPU and the CPU with %s; the conversion needs one scale and 8-bit values",
					       io->name, io->qcount != 1 ?
					       "per-axis scales" : "int32 values");
			snprintf(dev, sizeof(dev), "%s:%s%u", kname,
				 dir ? "out" : "in", i);
			if (vc_find(c->m, dev) >= 0)
				return give_up(c, "a value is named '%s', the name of a device buffer",
					       dev);
			add_buffer(c, dev, "internal",
				   vc_numel(&c->m->v[vi]) * vpuxc_dtype_size(io->dev_dtype));
			if (!dir)
				conv_run(c, 1, c->m->v[vi].name, dev,
					 io->scales[0], io->zero_points[0],
					 io->dev_dtype);
		}
	}
	run_new(c, &r, kname, 0);
	for (dir = 0; dir < 2; dir++) {
		unsigned int n = dir ? pt->n_out : pt->n_in;

		for (i = 0; i < n; i++) {
			const struct vpuxc_io *io = dir ? &pt->io.outputs[i] :
							  &pt->io.inputs[i];
			int vi = dir ? pt->out_v[i] : pt->in_v[i];

			if (io->qcount || f16_io(io)) {
				snprintf(dev, sizeof(dev), "%s:%s%u", kname,
					 dir ? "out" : "in", i);
				run_buf(&r, dev);
			} else {
				run_buf(&r, c->m->v[vi].name);
			}
		}
	}
	run_end(c, &r);
	for (i = 0; i < pt->n_out; i++) {
		const struct vpuxc_io *io = &pt->io.outputs[i];

		snprintf(dev, sizeof(dev), "%s:out%u", kname, i);
		if (f16_io(io))
			f16_run(c, 0, dev, c->m->v[pt->out_v[i]].name);
		if (!io->qcount)
			continue;
		conv_run(c, 0, dev, c->m->v[pt->out_v[i]].name, io->scales[0],
			 io->zero_points[0], io->dev_dtype);
		c->vscale[pt->out_v[i]] = io->scales[0];
	}
	return 0;
}

/* the run of CPU node @k */
static int cpu_run(struct pctx *c, int k)
{
	const struct vpuxc_model *m = c->m;
	const struct vc_node *n = &m->n[k];
	const struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	struct run r;
	char name[16];
	unsigned int i;
	int ret;

	for (i = 0; i < n->n_in; i++) {
		if (n->in[i] < 0 || (is_op(n, "Resize") && i > 0))
			continue;
		if (is_op(n, "QuantizeLinear") || is_op(n, "DequantizeLinear"))
			if (i > 0)
				continue;
		ret = value_buffer(c, n->in[i]);
		if (ret)
			return ret;
	}
	ret = value_buffer(c, n->out[0]);
	if (ret)
		return ret;
	if (is_op(n, "QuantizeLinear") || is_op(n, "DequantizeLinear")) {
		const struct vc_value *s = vc_in(m, n, 1), *z = vc_in(m, n, 2);
		int q = is_op(n, "QuantizeLinear");
		int32_t dt = z ? z->cst->dtype : VPUXC_UINT8;

		if (!dtype_cpu(dt))
			return give_up(c, "%s '%s': zero point type %s", n->op,
				       n->name, vpuxc_dtype_name(dt));
		conv_run(c, q, x->name, y->name, vc_cst_f(s->cst, 0),
			 z ? (int32_t)vc_cst_i(z->cst, 0) : 0, dt);
		return 0;
	}
	if (is_op(n, "Relu")) {
		run_new(c, &r, "relu", 1);
		run_buf(&r, x->name);
		run_buf(&r, y->name);
		run_shape(&r, x);
	} else if (is_op(n, "Add")) {
		run_new(c, &r, "add", 1);
		run_buf(&r, x->name);
		run_buf(&r, vc_in(m, n, 1)->name);
		run_buf(&r, y->name);
		run_shape(&r, x);
		run_shape(&r, vc_in(m, n, 1));
		run_shape(&r, y);
	} else if (is_op(n, "Softmax")) {
		int64_t axis = vc_attr_i(n, "axis", m->opset >= 13 ? -1 : 1);

		run_new(c, &r, "softmax", 1);
		run_buf(&r, x->name);
		run_buf(&r, y->name);
		if (axis < 0)
			axis += x->rank;
		if (m->opset >= 13 || !x->rank) {
			run_shape(&r, x);
		} else {
			/* before opset 13: over the flattened dims from axis */
			int64_t d2[2] = { 1, 1 };
			int d;

			for (d = 0; d < x->rank; d++)
				d2[d >= axis] *= x->dims[d];
			run_ints(&r, d2, 2);
			axis = 1;
		}
		run_int(&r, axis);
	} else if (is_op(n, "Concat")) {
		int64_t lens[8], axis = vc_attr_i(n, "axis", 0);

		if (axis < 0)
			axis += y->rank;
		snprintf(name, sizeof(name), "concat%u", n->n_in);
		run_new(c, &r, name, 1);
		for (i = 0; i < n->n_in; i++) {
			run_buf(&r, vc_in(m, n, i)->name);
			lens[i] = vc_in(m, n, i)->dims[axis];
		}
		run_buf(&r, y->name);
		run_shape(&r, y);
		run_int(&r, axis);
		run_ints(&r, lens, n->n_in);
	} else if (is_op(n, "Conv")) {
		const struct vc_value *w = vc_in(m, n, 1), *b = vc_in(m, n, 2);
		int64_t st[2] = { 1, 1 }, dl[2] = { 1, 1 }, pd[4] = { 0 };

		if ((vc_attr(n, "strides") && vc_attr_ints(n, "strides", st, 2) != 2) ||
		    (vc_attr(n, "dilations") && vc_attr_ints(n, "dilations", dl, 2) != 2) ||
		    (vc_attr(n, "pads") && vc_attr_ints(n, "pads", pd, 4) != 4))
			return give_up(c, "Conv '%s': strides, dilations or pads are not 2-D",
				       n->name);
		run_new(c, &r, b ? "conv" : "conv_nobias", 1);
		run_buf(&r, x->name);
		run_buf(&r, w->name);
		if (b)
			run_buf(&r, b->name);
		run_buf(&r, y->name);
		run_shape(&r, x);
		run_shape(&r, w);
		run_int(&r, vc_attr_i(n, "group", 1));
		run_ints(&r, st, 2);
		/* ONNX pads: begins then ends; cpuops: top, left, bottom, right */
		run_ints(&r, pd, 4);
		run_ints(&r, dl, 2);
	} else if (is_op(n, "MatMul")) {
		run_new(c, &r, "matmul", 1);
		run_buf(&r, x->name);
		run_buf(&r, vc_in(m, n, 1)->name);
		run_buf(&r, y->name);
		run_shape(&r, x);
		run_shape(&r, vc_in(m, n, 1));
	} else if (is_op(n, "Gemm")) {
		const struct vc_value *cc = vc_in(m, n, 2);

		run_new(c, &r, cc ? "gemm" : "gemm_noc", 1);
		run_buf(&r, x->name);
		run_buf(&r, vc_in(m, n, 1)->name);
		if (cc)
			run_buf(&r, cc->name);
		run_buf(&r, y->name);
		run_shape(&r, x);
		run_shape(&r, vc_in(m, n, 1));
		if (cc)
			run_shape(&r, cc);
		run_int(&r, vc_attr_i(n, "transA", 0));
		run_int(&r, vc_attr_i(n, "transB", 0));
		run_double(&r, vc_attr_f(n, "alpha", 1.0f));
		if (cc)
			run_double(&r, vc_attr_f(n, "beta", 1.0f));
	} else {	/* Resize */
		const struct vc_value *sc = n->n_in > 2 ? vc_in(m, n, 2) : NULL;
		char s[VPUXC_MAX_RANK * 20 + 1];
		size_t len = 0;
		int d;

		run_new(c, &r, "resize", 1);
		run_buf(&r, x->name);
		run_buf(&r, y->name);
		run_shape(&r, x);
		run_shape(&r, y);
		s[0] = 0;
		for (d = 0; d < x->rank; d++) {
			double f = sc && sc->cst && vpuxc_tensor_count(sc->cst) ?
				   (double)(float)vc_cst_f(sc->cst, (size_t)d) :
				   (double)(float)((double)y->dims[d] / (double)x->dims[d]);

			len += (size_t)snprintf(s + len, sizeof(s) - len, "%s%.9g",
						d ? "," : "", f);
		}
		run_str(&r, s);
		run_str(&r, vc_attr_s(n, "mode", "nearest"));
		run_str(&r, vc_attr_s(n, "coordinate_transformation_mode",
				      "half_pixel"));
		run_str(&r, vc_attr_s(n, "nearest_mode", "round_prefer_floor"));
	}
	run_end(c, &r);
	return 0;
}

/*
 * header.inputs/outputs: name, dtype, dims of each graph input or output;
 * an output an NPU part dequantizes also has its "scale" (the tolerance
 * vpux-onnx test allows, as for a whole-model loadable).
 */
static json_object *io_list(struct pctx *c, const int *vals, unsigned int n)
{
	json_object *a = json_object_new_array();
	unsigned int i;
	int d;

	for (i = 0; i < n; i++) {
		const struct vc_value *v = &c->m->v[vals[i]];
		json_object *e = json_object_new_object(), *dims;

		json_object_object_add(e, "name", json_object_new_string(v->name));
		json_object_object_add(e, "dtype",
				       json_object_new_string(vpuxc_dtype_name(v->dtype)));
		dims = json_object_new_array();
		for (d = 0; d < v->rank; d++)
			json_object_array_add(dims, json_object_new_int64(v->dims[d]));
		json_object_object_add(e, "dims", dims);
		if (c->vscale[vals[i]] > 0)
			json_object_object_add(e, "scale",
					       json_object_new_double(c->vscale[vals[i]]));
		json_object_array_add(a, e);
	}
	return a;
}

static int build_recipe(struct pctx *c, const char *prefix,
			struct vpuxc_recipe *out)
{
	json_object *root, *hdr, *res, *kernels, *exe;
	unsigned int i, npu = 0, j;
	size_t len;
	int ret = 0;

	c->vbuf = calloc(c->m->n_v + 1, sizeof(int));
	c->vscale = calloc(c->m->n_v + 1, sizeof(double));
	if (!c->vbuf || !c->vscale)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	snprintf(c->wfile, sizeof(c->wfile), "%sw0.bin", prefix);
	root = json_object_new_object();
	hdr = json_object_new_object();
	json_object_object_add(hdr, "target", json_object_new_string(RECIPE_TARGET));
	json_object_object_add(hdr, "version", json_object_new_string(RECIPE_VERSION));
	json_object_object_add(hdr, "model", json_object_new_string(c->m->graph_name));
	json_object_object_add(root, "header", hdr);
	c->buffers = json_object_new_array();
	c->runs = json_object_new_array();
	c->fills = json_object_new_array();
	c->cpus = json_object_new_array();
	kernels = json_object_new_array();
	/* graph inputs and outputs first, in order */
	for (i = 0; !ret && i < c->m->n_inputs; i++)
		ret = value_buffer(c, c->m->inputs[i]);
	for (i = 0; !ret && i < c->m->n_outputs; i++)
		ret = value_buffer(c, c->m->outputs[i]);
	for (i = 0; !ret && i < c->n_parts; i++) {
		struct part *pt = &c->parts[i];

		if (pt->cpu)
			ret = cpu_run(c, pt->nodes[0]);
		else
			ret = npu_runs(c, pt, npu++, prefix, kernels);
	}
	/* the graph's inputs and outputs, for tools that run the recipe */
	json_object_object_add(hdr, "inputs", io_list(c, c->m->inputs,
						      c->m->n_inputs));
	json_object_object_add(hdr, "outputs", io_list(c, c->m->outputs,
						       c->m->n_outputs));
	if (!ret) {
		out->files = calloc(npu + 2, sizeof(*out->files));
		if (!out->files)
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	for (i = 0, j = 0; !ret && i < c->n_parts; i++) {
		struct vpuxc_recipe_file *f;

		if (c->parts[i].cpu)
			continue;
		f = &out->files[j];
		snprintf(f->name, sizeof(f->name), "%snpu%u.vpuxl", prefix, j);
		f->data = c->parts[i].res.loadable;
		f->size = c->parts[i].res.size;
		c->parts[i].res.loadable = NULL;
		out->n_files = ++j;
	}
	if (!ret && c->wsize) {	/* the CPU functions' weights */
		struct vpuxc_recipe_file *f = &out->files[out->n_files++];

		snprintf(f->name, sizeof(f->name), "%s", c->wfile);
		f->data = c->wdata;
		f->size = c->wsize;
		out->weight_bytes = c->wsize;
		c->wdata = NULL;
	}
	res = json_object_new_object();
	json_object_object_add(res, "buffers", c->buffers);
	json_object_object_add(res, "kernels", kernels);
	json_object_object_add(res, "cpus", c->cpus);
	json_object_object_add(root, "resources", res);
	/* the fills first, then the runs in order */
	for (i = 0; i < json_object_array_length(c->runs); i++)
		json_object_array_add(c->fills,
				      json_object_get(json_object_array_get_idx(c->runs, i)));
	json_object_put(c->runs);
	exe = json_object_new_object();
	json_object_object_add(exe, "runs", c->fills);
	json_object_object_add(root, "execution", exe);
	if (!ret) {
		const char *s = json_object_to_json_string_ext(root,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE);

		len = strlen(s);
		out->json = malloc(len + 2);
		if (!out->json) {
			ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		} else {
			memcpy(out->json, s, len);
			out->json[len] = '\n';
			out->json[len + 1] = 0;
		}
	}
	json_object_put(root);
	out->n_npu = npu;
	out->n_cpu = c->n_parts - npu;
	return ret;
}

static const char *quant_ops[] = { "QuantizeLinear", "DequantizeLinear",
	"QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger", NULL };

/*
 * Which nodes are of a quantized section (lower.c's do_node lowers them,
 * vc_wants_float() says no): the quantization ops, and the nodes that
 * read a quantized section's result and no float-path value; every other
 * node is of the float path and the op registry places it.
 */
static int mark_paths(struct pctx *c)
{
	const struct vpuxc_model *m = c->m;
	char *kind = calloc(m->n_v + 1, 1);	/* 'F' float path, 'Q' quantized */
	unsigned int i, k, j;

	if (!kind)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (i = 0; i < m->n_inputs; i++) {
		const struct vc_value *v = &m->v[m->inputs[i]];

		kind[m->inputs[i]] = v->dtype == VPUXC_FLOAT || v->dtype == 10 ?
				     'F' : 'Q';
	}
	for (k = 0; k < m->n_n; k++) {
		const struct vc_node *n = &m->n[k];
		int f = 0, q = 0;

		if (c->floating[k])
			continue;
		for (i = 0; quant_ops[i]; i++)
			q |= is_op(n, quant_ops[i]);
		for (j = 0; !q && j < n->n_in; j++) {
			if (n->in[j] < 0)
				continue;
			f |= kind[n->in[j]] == 'F';
			q |= kind[n->in[j]] == 'Q';
		}
		c->qpath[k] = (char)(q && !f);
		for (j = 0; j < n->n_out; j++)
			if (n->out[j] >= 0)
				kind[n->out[j]] = c->qpath[k] ? 'Q' : 'F';
	}
	free(kind);
	return 0;
}

static int set_reason(struct pctx *c, int k, const char *why)
{
	free(c->reason[k]);
	c->reason[k] = strdup(why && *why ? why : "the NPU compile refuses it");
	return c->reason[k] ? 0 : vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
}

/* the float path's nodes where the op registry says, up front */
static int place(struct pctx *c)
{
	unsigned int k;
	char buf[512];
	int ret;

	for (k = 0; k < c->m->n_n; k++) {
		const char *no;

		if (c->floating[k] || c->qpath[k])
			continue;
		no = vc_op_npu(c->m, (int)k, buf, sizeof(buf));
		if (!no)
			continue;
		c->cpu[k] = 1;
		ret = set_reason(c, (int)k, no);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Give up naming every CPU node: with @cpu_check the ones libvpux-cpuops
 * cannot run either, else all (no_cpu_fallback). The first line decides.
 */
static int refuse_cpu_nodes(struct pctx *c, int cpu_check)
{
	const struct vpuxc_model *m = c->m;
	char *list = NULL, *first = NULL;
	size_t len = 0;
	unsigned int k, cnt = 0;
	FILE *f = open_memstream(&list, &len);
	int ret = 0;

	if (!f)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	for (k = 0; k < m->n_n; k++) {
		const char *no = NULL;

		if (!c->cpu[k])
			continue;
		if (cpu_check && !(no = cpu_refuses(c, (int)k)))
			continue;
		if (!cnt++ && asprintf(&first, "%s '%s'", m->n[k].op,
				       m->n[k].name) < 0)
			first = NULL;
		if (cpu_check)
			fprintf(f, "\n  %s '%s': NPU: %s; CPU: %s", m->n[k].op,
				m->n[k].name, c->reason[k] ? c->reason[k] : "?", no);
		else
			fprintf(f, "\n  %s '%s': %s", m->n[k].op, m->n[k].name,
				c->reason[k] ? c->reason[k] : "?");
	}
	fclose(f);
	if (!list) {
		free(first);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	if (cnt && cpu_check)
		ret = give_up(c, "%s cannot run on the NPU, nor on the CPU%s:%s",
			      first ? first : "a node",
			      cnt > 1 ? " (the first of these)" : "", list);
	else if (cnt)
		ret = give_up(c, "CPU fallback is off (--no-cpu-fallback) and %u node%s would leave the NPU, the first %s:%s",
			      cnt, cnt == 1 ? "" : "s", first ? first : "?", list);
	free(list);
	free(first);
	return ret;
}

/* the placement of every node, then the parts */
static void report_parts(struct pctx *c, struct vpuxc_recipe *out)
{
	const struct vpuxc_model *m = c->m;
	FILE *f;
	size_t len;
	unsigned int i, j, npu = 0, n_npu = 0, n_cpu = 0, n_const = 0;
	int *part_of = malloc(sizeof(int) * (m->n_n + 1)), first = -1;

	if (!part_of)
		return;
	for (i = 0; i < m->n_n; i++)
		part_of[i] = -1;
	for (i = 0; i < c->n_parts; i++) {
		const struct part *pt = &c->parts[i];

		for (j = 0; j < pt->n_nodes; j++)
			part_of[pt->nodes[j]] = pt->cpu ? -2 : (int)npu;
		npu += !pt->cpu;
	}
	for (i = 0; i < m->n_n; i++) {
		n_const += c->floating[i] != 0;
		n_npu += part_of[i] >= 0;
		n_cpu += part_of[i] == -2;
		if (part_of[i] == -2 && first < 0)
			first = (int)i;
	}
	f = open_memstream(&out->report, &len);
	if (!f) {
		free(part_of);
		return;
	}
	fprintf(f, "placement: %u node%s on the NPU (%u part%s), %u on the CPU, %u constant",
		n_npu, n_npu == 1 ? "" : "s", npu, npu == 1 ? "" : "s", n_cpu,
		n_const);
	if (first >= 0)
		fprintf(f, "; the first to leave the NPU: %s '%s': %s\n",
			m->n[first].op, m->n[first].name,
			c->reason[first] ? c->reason[first] : "?");
	else
		fputc('\n', f);
	for (i = 0; i < m->n_n; i++) {
		const struct vc_node *n = &m->n[i];

		char where[16];

		snprintf(where, sizeof(where), "npu%d", part_of[i]);
		if (part_of[i] >= 0)
			fprintf(f, "  %-6s%s '%s'\n", where, n->op, n->name);
		else if (part_of[i] == -2)
			fprintf(f, "  cpu   %s '%s': %s\n", n->op, n->name,
				c->reason[i] ? c->reason[i] : "?");
		else
			fprintf(f, "  const %s '%s' (computes a constant: goes with its consumers)\n",
				n->op, n->name);
	}
	fprintf(f, "recipe: %u NPU loadables, %u CPU runs of %s, %zu bytes of CPU weights in %s\n",
		out->n_npu, out->n_cpu, CPU_LIBRARY, c->wsize,
		c->wsize ? c->wfile : "no file");
	{
		char line[512];

		vc_pass_summary(c->m, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	for (i = 0, npu = 0; i < c->n_parts; i++) {
		const struct part *pt = &c->parts[i];
		const struct vc_node *n = &m->n[pt->nodes[0]];

		if (pt->cpu) {
			fprintf(f, "  cpu   %s '%s'\n", n->op, n->name);
			continue;
		}
		fprintf(f, "  npu%-3u %u nodes ('%s'", npu++, pt->n_nodes, n->name);
		for (j = 1; j < pt->n_nodes && j < 4; j++)
			fprintf(f, ", '%s'", m->n[pt->nodes[j]].name);
		fprintf(f, "%s), %u inputs, %u outputs\n",
			pt->n_nodes > 4 ? ", ..." : "", pt->n_in, pt->n_out);
	}
	fclose(f);
	free(part_of);
}

int vpuxc_partition(struct vpuxc_model *m, const struct vpuxc_options *o,
		    const char *prefix, struct vpuxc_recipe *out)
{
	struct pctx c;
	unsigned int i, k, iter;
	int ret, bad = -1, fallback = !(o && o->no_cpu_fallback);

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	if (m->n_syms)	/* a plan is one loadable: no recipe around it */
		return vpux_err(VPUX_E_UNSUPPORTED,
				"partitioning: the model has dim_params ('%s'): a model with dynamic axes runs on the NPU whole",
				m->syms[0]);
	c.m = m;
	c.o = o;
	ret = vc_kernels_use(m, o);
	if (!ret)
		ret = vc_infer_shapes(m);
	if (!ret)
		ret = vc_run_passes(m);
	for (i = 0; !ret && i < 8 && infer_extra(m) > 0; i++)
		ret = vc_infer_shapes(m);
	if (ret)
		return ret;
	c.floating = calloc(m->n_n + 1, 1);
	c.cpu = calloc(m->n_n + 1, 1);
	c.qpath = calloc(m->n_n + 1, 1);
	c.reason = calloc(m->n_n + 1, sizeof(*c.reason));
	if (!c.floating || !c.cpu || !c.qpath || !c.reason) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto out;
	}
	for (i = 0; i < m->n_n; i++) {
		const struct vc_node *n = &m->n[i];
		int fl = n->n_in > 0 || is_op(n, "Constant");

		for (k = 0; k < n->n_in; k++) {
			const struct vc_value *v = vc_in(m, n, k);

			if (v && !v->cst && !(v->producer >= 0 &&
					      c.floating[v->producer]))
				fl = 0;
		}
		c.floating[i] = (char)fl;
	}
	ret = mark_paths(&c);
	if (!ret)
		ret = place(&c);
	/* the registry's CPU nodes the CPU cannot run either: all at once */
	if (!ret && fallback)
		ret = refuse_cpu_nodes(&c, 1);
	if (ret)
		goto out;
	/* one compile per NPU part; the quantized sections by their compile */
	for (iter = 0; iter <= m->n_n; iter++) {
		char *why = NULL;

		ret = parts_form(&c);
		for (i = 0; !ret && i < c.n_parts; i++) {
			if (c.parts[i].cpu)
				continue;
			ret = part_compile(&c, &c.parts[i], &bad, &why);
		}
		if (ret != 1) {
			free(why);
			break;
		}
		/* node @bad stops its part: the CPU runs it, or we give up */
		if (!c.floating[bad] && !c.qpath[bad]) {
			ret = give_up(&c, "%s '%s': the op registry places it on the NPU, but the compile of its part refuses it: %s",
				      m->n[bad].op, m->n[bad].name,
				      why ? why : "(no reason given)");
			free(why);
			break;
		}
		{
			const char *no = c.floating[bad] ? "it computes a constant" :
					 fallback ? cpu_refuses(&c, bad) : NULL;

			if (no) {
				ret = give_up(&c, "%s '%s' cannot run on the NPU, nor on the CPU: %s",
					      m->n[bad].op, m->n[bad].name, no);
				free(why);
				break;
			}
		}
		c.cpu[bad] = 1;
		ret = set_reason(&c, bad, why);
		free(why);
		parts_free(&c);
		if (ret)
			break;
	}
	if (ret == 1)
		ret = give_up(&c, "partitioning does not converge");
	if (!ret && !fallback)
		ret = refuse_cpu_nodes(&c, 0);
	if (!ret) {
		/* the CPU nodes must be runnable (a CPU node may be there
		 * because a part compiled only without it) */
		for (i = 0; i < c.n_parts && !ret; i++) {
			const char *no;

			if (!c.parts[i].cpu)
				continue;
			no = cpu_refuses(&c, c.parts[i].nodes[0]);
			if (no)
				ret = give_up(&c, "%s '%s': %s",
					      m->n[c.parts[i].nodes[0]].op,
					      m->n[c.parts[i].nodes[0]].name, no);
		}
	}
	if (!ret)
		ret = build_recipe(&c, prefix ? prefix : "", out);
	if (!ret && o && o->report)
		report_parts(&c, out);
out:
	if (ret == VPUX_E_UNSUPPORTED && c.why)
		vpux_err(VPUX_E_UNSUPPORTED, "partitioning: %s", c.why);
	if (ret)
		vpuxc_recipe_fini(out);
	parts_free(&c);
	for (i = 0; c.reason && i < m->n_n; i++)
		free(c.reason[i]);
	free(c.reason);
	free(c.floating);
	free(c.cpu);
	free(c.qpath);
	free(c.vbuf);
	free(c.vscale);
	free(c.wdata);
	free(c.why);
	return ret;
}

void vpuxc_recipe_fini(struct vpuxc_recipe *r)
{
	unsigned int i;

	for (i = 0; r->files && i < r->n_files; i++)
		free(r->files[i].data);
	free(r->files);
	free(r->json);
	free(r->report);
	memset(r, 0, sizeof(*r));
}

static int write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return vpux_err(VPUX_E_IO, "%s: %s", path, strerror(errno));
	if (fwrite(data, 1, size, f) != size) {
		int e = errno;

		fclose(f);
		return vpux_err(VPUX_E_IO, "%s: %s", path, strerror(e));
	}
	if (fclose(f))
		return vpux_err(VPUX_E_IO, "%s: %s", path, strerror(errno));
	return 0;
}

int vpuxc_recipe_write(const struct vpuxc_recipe *r, const char *json_path)
{
	const char *slash = strrchr(json_path, '/');
	size_t dlen = slash ? (size_t)(slash - json_path) + 1 : 0;
	unsigned int i;
	int ret;

	for (i = 0; i < r->n_files; i++) {
		char *p = NULL;

		if (asprintf(&p, "%.*s%s", (int)dlen, json_path,
			     r->files[i].name) < 0)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		ret = write_file(p, r->files[i].data, r->files[i].size);
		free(p);
		if (ret)
			return ret;
	}
	return write_file(json_path, r->json, strlen(r->json));
}
