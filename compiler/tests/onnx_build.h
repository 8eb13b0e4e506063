/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test helper, shared by the compiler's host tests: ONNX models built in
 * memory with the protobuf-c structs (struct mb), packed and imported
 * like a file, compiled (mb_compile()), and the loadable run in process
 * (mb_run(), mb_run_f16()). A model starts with mb_init() and ends with
 * mb_free(); every piece of it (names, dims, data, attribute values) is
 * a copy held until then, so callers may pass stack data, and a model may
 * be changed and compiled again in between.
 */
#ifndef VPUXC_TESTS_ONNX_BUILD_H
#define VPUXC_TESTS_ONNX_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_float.h"

/**
 * struct mb - a model being built
 * @m, @g, @op, @ops: the model, its graph and its one opset import
 * @mem, @n_mem: every allocation made for the model
 */
struct mb {
	Onnx__ModelProto m;
	Onnx__GraphProto g;
	Onnx__OperatorSetIdProto op, *ops[1];
	void **mem;
	size_t n_mem;
};

/* zeroed memory owned by @b (aborts when out of memory) */
static inline void *mb_alloc(struct mb *b, size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		abort();
	b->mem = realloc(b->mem, sizeof(void *) * (b->n_mem + 1));
	if (!b->mem)
		abort();
	b->mem[b->n_mem++] = p;
	return p;
}

/* a copy of @size bytes at @p (NULL allowed when @size is 0), owned by @b */
static inline void *mb_dup(struct mb *b, const void *p, size_t size)
{
	void *q = mb_alloc(b, size);

	if (size)
		memcpy(q, p, size);
	return q;
}

static inline char *mb_strdup(struct mb *b, const char *s)
{
	return mb_dup(b, s, strlen(s) + 1);
}

/* append @item to the array @arr (of @n pointers), in @b's memory */
#define MB_PUSH(b, arr, n, item) do { \
	void **na_ = mb_alloc(b, sizeof(void *) * ((n) + 1)); \
	if (n) \
		memcpy(na_, arr, sizeof(void *) * (n)); \
	arr = (void *)na_; \
	(arr)[(n)++] = item; \
} while (0)

/* an empty model of the default domain at @opset, IR version 8 */
static inline void mb_init(struct mb *b, int64_t opset)
{
	memset(b, 0, sizeof(*b));
	onnx__model_proto__init(&b->m);
	onnx__graph_proto__init(&b->g);
	onnx__operator_set_id_proto__init(&b->op);
	b->op.domain = "";
	b->op.has_version = 1;
	b->op.version = opset;
	b->ops[0] = &b->op;
	b->m.has_ir_version = 1;
	b->m.ir_version = 8;
	b->m.n_opset_import = 1;
	b->m.opset_import = b->ops;
	b->m.graph = &b->g;
	b->g.name = "t";
}

/* the end of the model: all its memory freed (again: nothing) */
static inline void mb_free(struct mb *b)
{
	size_t i;

	for (i = 0; i < b->n_mem; i++)
		free(b->mem[i]);
	free(b->mem);
	b->mem = NULL;
	b->n_mem = 0;
}

/*
 * A tensor value of ONNX type @dt; @rank < 0: no shape (the compiler
 * infers it); a dim < 0 becomes the dim_param "N".
 */
static inline Onnx__ValueInfoProto *mb_vi(struct mb *b, const char *name,
					  int dt, int rank,
					  const int64_t *dims)
{
	Onnx__ValueInfoProto *vi = mb_alloc(b, sizeof(*vi));
	Onnx__TypeProto *tp = mb_alloc(b, sizeof(*tp));
	Onnx__TypeProto__Tensor *tt = mb_alloc(b, sizeof(*tt));
	Onnx__TensorShapeProto *sh;
	int i;

	onnx__value_info_proto__init(vi);
	onnx__type_proto__init(tp);
	onnx__type_proto__tensor__init(tt);
	vi->name = mb_strdup(b, name);
	vi->type = tp;
	tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	tp->tensor_type = tt;
	tt->has_elem_type = 1;
	tt->elem_type = dt;
	if (rank < 0)
		return vi;
	sh = mb_alloc(b, sizeof(*sh));
	onnx__tensor_shape_proto__init(sh);
	tt->shape = sh;
	sh->dim = mb_alloc(b, sizeof(*sh->dim) * (size_t)(rank + 1));
	sh->n_dim = (size_t)rank;
	for (i = 0; i < rank; i++) {
		Onnx__TensorShapeProto__Dimension *d = mb_alloc(b, sizeof(*d));

		onnx__tensor_shape_proto__dimension__init(d);
		if (dims[i] < 0) {
			d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			d->dim_param = "N";
		} else {
			d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			d->dim_value = dims[i];
		}
		sh->dim[i] = d;
	}
	return vi;
}

/* a graph input / output (mb_vi()) */
static inline void mb_input(struct mb *b, const char *name, int dt, int rank,
			    const int64_t *dims)
{
	MB_PUSH(b, b->g.input, b->g.n_input, mb_vi(b, name, dt, rank, dims));
}

static inline void mb_output(struct mb *b, const char *name, int dt, int rank,
			     const int64_t *dims)
{
	MB_PUSH(b, b->g.output, b->g.n_output, mb_vi(b, name, dt, rank, dims));
}

/* bytes of one element of ONNX type @dt (0: not a fixed-size type) */
static inline size_t mb_elem_size(int dt)
{
	switch (dt) {
	case 2: case 3: case 9:			/* uint8, int8, bool */
		return 1;
	case 4: case 5: case 10: case 16:	/* (u)int16, (b)float16 */
		return 2;
	case 1: case 6: case 12:		/* float, int32, uint32 */
		return 4;
	case 7: case 11: case 13:		/* int64, double, uint64 */
		return 8;
	default:
		return 0;
	}
}

/* a tensor (not yet in the graph) with @size bytes of raw data */
static inline Onnx__TensorProto *mb_tensor(struct mb *b, const char *name,
					   int dt, int rank,
					   const int64_t *dims,
					   const void *data, size_t size)
{
	Onnx__TensorProto *t = mb_alloc(b, sizeof(*t));

	onnx__tensor_proto__init(t);
	t->name = mb_strdup(b, name);
	t->has_data_type = 1;
	t->data_type = dt;
	t->n_dims = (size_t)rank;
	t->dims = mb_dup(b, dims, sizeof(int64_t) * (size_t)rank);
	t->has_raw_data = 1;
	t->raw_data.len = size;
	t->raw_data.data = mb_dup(b, data, size);
	return t;
}

/* an initializer with @size bytes of raw data */
static inline Onnx__TensorProto *mb_init_t(struct mb *b, const char *name,
					   int dt, int rank,
					   const int64_t *dims,
					   const void *data, size_t size)
{
	Onnx__TensorProto *t = mb_tensor(b, name, dt, rank, dims, data, size);

	MB_PUSH(b, b->g.initializer, b->g.n_initializer, t);
	return t;
}

/* an initializer whose data are as large as @dims and @dt say */
static inline Onnx__TensorProto *mb_const(struct mb *b, const char *name,
					  int dt, int rank,
					  const int64_t *dims,
					  const void *data)
{
	size_t n = mb_elem_size(dt);
	int i;

	for (i = 0; i < rank; i++)
		n *= (size_t)dims[i];
	return mb_init_t(b, name, dt, rank, dims, data, n);
}

/*
 * A node @op named @name (NULL: @op) with @nin inputs @in ("" for an
 * omitted one) and @nout outputs @out.
 */
static inline Onnx__NodeProto *mb_node(struct mb *b, const char *op,
				       const char *name, char *const *in,
				       size_t nin, char *const *out,
				       size_t nout)
{
	Onnx__NodeProto *n = mb_alloc(b, sizeof(*n));
	size_t i;

	onnx__node_proto__init(n);
	n->op_type = mb_strdup(b, op);
	n->name = mb_strdup(b, name ? name : op);
	n->input = mb_alloc(b, sizeof(char *) * nin);
	n->output = mb_alloc(b, sizeof(char *) * nout);
	for (i = 0; i < nin; i++)
		n->input[i] = mb_strdup(b, in[i]);
	for (i = 0; i < nout; i++)
		n->output[i] = mb_strdup(b, out[i]);
	n->n_input = nin;
	n->n_output = nout;
	MB_PUSH(b, b->g.node, b->g.n_node, n);
	return n;
}

/* an attribute of @n, of ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__* @type */
static inline Onnx__AttributeProto *mb_attr(struct mb *b, Onnx__NodeProto *n,
					    const char *name, int type)
{
	Onnx__AttributeProto *a = mb_alloc(b, sizeof(*a));

	onnx__attribute_proto__init(a);
	a->name = mb_strdup(b, name);
	a->has_type = 1;
	a->type = type;
	MB_PUSH(b, n->attribute, n->n_attribute, a);
	return a;
}

static inline void mb_attr_int(struct mb *b, Onnx__NodeProto *n,
			       const char *name, int64_t v)
{
	Onnx__AttributeProto *a = mb_attr(b, n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);

	a->has_i = 1;
	a->i = v;
}

static inline void mb_attr_float(struct mb *b, Onnx__NodeProto *n,
				 const char *name, float v)
{
	Onnx__AttributeProto *a = mb_attr(b, n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);

	a->has_f = 1;
	a->f = v;
}

static inline void mb_attr_ints(struct mb *b, Onnx__NodeProto *n,
				const char *name, const int64_t *v, size_t cnt)
{
	Onnx__AttributeProto *a = mb_attr(b, n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);

	a->n_ints = cnt;
	a->ints = mb_dup(b, v, sizeof(int64_t) * cnt);
}

static inline void mb_attr_floats(struct mb *b, Onnx__NodeProto *n,
				  const char *name, const float *v, size_t cnt)
{
	Onnx__AttributeProto *a = mb_attr(b, n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);

	a->n_floats = cnt;
	a->floats = mb_dup(b, v, sizeof(float) * cnt);
}

static inline void mb_attr_str(struct mb *b, Onnx__NodeProto *n,
			       const char *name, const char *s)
{
	Onnx__AttributeProto *a = mb_attr(b, n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);

	a->has_s = 1;
	a->s.len = strlen(s);
	a->s.data = (uint8_t *)mb_strdup(b, s);
}

/* a tensor attribute: @t from mb_tensor() */
static inline void mb_attr_t(struct mb *b, Onnx__NodeProto *n,
			     const char *name, Onnx__TensorProto *t)
{
	Onnx__AttributeProto *a = mb_attr(b, n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);

	a->t = t;
}

/* the model's protobuf bytes (malloc()ed, at least one byte) */
static inline void *mb_pack(struct mb *b, size_t *size)
{
	void *buf;

	*size = onnx__model_proto__get_packed_size(&b->m);
	buf = malloc(*size ? *size : 1);
	if (!buf)
		abort();
	onnx__model_proto__pack(&b->m, buf);
	return buf;
}

/* packed and imported like a file; the import status */
static inline int mb_import(struct mb *b, struct vpuxc_model **m)
{
	size_t size;
	void *buf = mb_pack(b, &size);
	int ret;

	*m = NULL;
	ret = vpuxc_import_mem(buf, size, m);
	free(buf);
	return ret;
}

/* import + compile with @o; the import or compile status (@r zeroed first) */
static inline int mb_compile(struct mb *b, const struct vpuxc_options *o,
			     struct vpuxc_result *r)
{
	struct vpuxc_model *m;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = mb_import(b, &m);
	if (ret)
		return ret;
	ret = vpuxc_compile(m, o, r);
	vpuxc_model_free(m);
	return ret;
}

#define MB_MAX_IN 8

/*
 * Run the loadable of @r on the device @dev (NULL: an "inproc" device
 * opened and closed here) with @nin inputs @ins of @isz bytes each,
 * output 0 into @out (@osz bytes); @reference: on the CPU reference
 * executor instead (every output of @out's size then). The status.
 */
static inline int mb_run(struct vpux_device *dev, const struct vpuxc_result *r,
			 unsigned int nin, const void *const *ins,
			 const size_t *isz, void *out, size_t osz,
			 int reference)
{
	struct vpux_buffer *bi[MB_MAX_IN] = { 0 }, *bo = NULL;
	struct vpux_device *own = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	unsigned int i;
	int ret = 0;

	if (nin > MB_MAX_IN)
		abort();
	if (!dev) {
		ret = vpux_device_open("inproc", &own);
		dev = own;
	}
	ret = ret ? ret : vpux_network_load(dev, r->loadable, r->size, &net);
	if (!ret && reference) {
		void *outs[1] = { out };

		ret = vpux_network_run_reference(net, ins, outs);
		goto out;
	}
	ret = ret ? ret : vpux_request_create(net, &req);
	for (i = 0; !ret && i < nin; i++) {
		ret = vpux_buffer_alloc(dev, isz[i], &bi[i]);
		if (ret)
			break;
		memcpy(vpux_buffer_map(bi[i]), ins[i], isz[i]);
		ret = vpux_request_bind_input(req, i, bi[i], 0);
	}
	ret = ret ? ret : vpux_buffer_alloc(dev, osz, &bo);
	ret = ret ? ret : vpux_request_bind_output(req, 0, bo, 0);
	ret = ret ? ret : vpux_request_submit(req);
	ret = ret ? ret : vpux_request_wait(req, 60000);
	if (!ret)
		memcpy(out, vpux_buffer_map(bo), osz);
out:
	if (req)
		vpux_request_destroy(req);
	for (i = 0; i < nin; i++)
		if (bi[i])
			vpux_buffer_free(bi[i]);
	if (bo)
		vpux_buffer_free(bo);
	if (net)
		vpux_network_unload(net);
	if (own)
		vpux_device_close(own);
	return ret;
}

/*
 * mb_run() on float32 data: @nin inputs @ins of @isz values each, given
 * to the device in FP16; output 0 (@osz values) back in float32.
 */
static inline int mb_run_f16(struct vpux_device *dev,
			     const struct vpuxc_result *r, unsigned int nin,
			     const float *const *ins, const size_t *isz,
			     float *out, size_t osz)
{
	uint16_t *h[MB_MAX_IN], *ho = malloc(osz ? osz * 2 : 1);
	const void *hi[MB_MAX_IN];
	size_t bytes[MB_MAX_IN], k;
	unsigned int i;
	uint32_t u;
	int ret;

	if (nin > MB_MAX_IN || !ho)
		abort();
	for (i = 0; i < nin; i++) {
		h[i] = malloc(isz[i] ? isz[i] * 2 : 1);
		if (!h[i])
			abort();
		for (k = 0; k < isz[i]; k++) {
			memcpy(&u, &ins[i][k], 4);
			h[i][k] = vpux_f32_to_f16(u);
		}
		hi[i] = h[i];
		bytes[i] = isz[i] * 2;
	}
	ret = mb_run(dev, r, nin, hi, bytes, ho, osz * 2, 0);
	for (k = 0; !ret && k < osz; k++) {
		u = vpux_f16_to_f32(ho[k]);
		memcpy(&out[k], &u, 4);
	}
	for (i = 0; i < nin; i++)
		free(h[i]);
	free(ho);
	return ret;
}

#endif
