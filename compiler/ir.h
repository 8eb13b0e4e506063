/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The compiler's graph IR: what import.c builds from an ONNX ModelProto
 * and the passes read. Values are SSA (one producer each); nodes are kept
 * in a topological order (ONNX requires it, import checks it).
 */
#ifndef VPUXC_IR_H
#define VPUXC_IR_H

#include <stddef.h>
#include <stdint.h>

#include "vpux_compiler.h"

enum vc_attr_type {
	VC_ATTR_FLOAT = 1,
	VC_ATTR_INT = 2,
	VC_ATTR_STRING = 3,
	VC_ATTR_TENSOR = 4,
	VC_ATTR_FLOATS = 6,
	VC_ATTR_INTS = 7,
};

struct vc_attr {
	char *name;
	int type;		/* enum vc_attr_type */
	float f;
	int64_t i;
	char *s;
	struct vpuxc_tensor *t;
	float *floats;
	size_t n_floats;
	int64_t *ints;
	size_t n_ints;
};

/* value flags */
#define VC_V_INPUT	(1u << 0)	/* a graph input */
#define VC_V_OUTPUT	(1u << 1)	/* a graph output */

/**
 * struct vc_value - an ONNX value (tensor)
 * @name: its name
 * @dtype: element type (enum vpuxc_dtype or another ONNX type id)
 * @rank: -1 while unknown
 * @dims: known dims (-1: a symbolic dim; vpuxc_compile() puts the
 *        bound's max in place of a dim_param)
 * @sym: per dim, the index of its dim_param in vpuxc_model.syms, or -1
 * @cst: constant data (an initializer or a folded Constant/input), or NULL
 * @producer: index of the producing node, -1 for inputs and constants
 * @n_uses: number of node input slots that read it
 * @flags: VC_V_*
 */
struct vc_value {
	char *name;
	int32_t dtype;
	int rank;
	int64_t dims[VPUXC_MAX_RANK];
	int8_t sym[VPUXC_MAX_RANK];
	struct vpuxc_tensor *cst;
	int producer;
	unsigned int n_uses;
	unsigned int flags;
};

/* what the graph passes (passes.c) changed, for the compile report */
struct vc_pass_stats {
	unsigned int folded;		/* nodes that became constants */
	unsigned int bn_fused;		/* BatchNormalization into Conv/Gemm */
	unsigned int bn_alone;		/* ... into a 1x1 Conv or Mul + Add */
	unsigned int pad_fused;		/* Pad into Conv/AveragePool/MaxPool */
	unsigned int removed;		/* Identity and Dropout */
	unsigned int silu, hardswish, gelu, layernorm;
};

/* dim_params of one model (= the loadable's VPUX_LF_MAX_SYMBOLS) */
#define VC_MAX_SYMS 16

struct vc_node {
	char *op;
	char *domain;
	char *name;
	unsigned int n_in, n_out;
	int *in;		/* value indices, -1 for an omitted input */
	int *out;
	struct vc_attr *attrs;
	unsigned int n_attrs;
};

struct vpuxc_model {
	char *graph_name;
	int64_t opset;		/* of the default domain */
	struct vc_value *v;
	unsigned int n_v, cap_v;
	struct vc_node *n;
	unsigned int n_n;
	int *inputs;		/* graph inputs (not initializers), in order */
	unsigned int n_inputs;
	int *outputs;
	unsigned int n_outputs;
	/* name -> value index (open addressing, power-of-two size) */
	int *hash;
	unsigned int hash_size;
	/* the dim_param names of the graph's inputs and outputs */
	char *syms[VC_MAX_SYMS];
	unsigned int n_syms;
	/* the graph passes ran (once per model; not on partition parts) */
	int passes_done;
	struct vc_pass_stats stats;
	/* --kernels DIR (kernels.c): custom ops of domain com.vpux */
	struct vc_kernels *kernels;
};

/* value lookup and creation */
int vc_find(const struct vpuxc_model *m, const char *name);
int vc_add_value(struct vpuxc_model *m, const char *name);
/* rebuild the name hash after values were removed or reordered */
int vc_rehash(struct vpuxc_model *m);

/* attributes of @n (NULL/default when absent) */
const struct vc_attr *vc_attr(const struct vc_node *n, const char *name);
int64_t vc_attr_i(const struct vc_node *n, const char *name, int64_t def);
float vc_attr_f(const struct vc_node *n, const char *name, float def);
const char *vc_attr_s(const struct vc_node *n, const char *name,
		      const char *def);
/* INTS attribute into @out (at most @max); returns the count or -1 */
int vc_attr_ints(const struct vc_node *n, const char *name, int64_t *out,
		 unsigned int max);

/* the value of input @i of node @n, or NULL if omitted */
struct vc_value *vc_in(const struct vpuxc_model *m, const struct vc_node *n,
		       unsigned int i);
struct vc_value *vc_out(const struct vpuxc_model *m, const struct vc_node *n,
			unsigned int i);

/* a TensorProto (unpacked) as a host tensor; @what names it in errors */
struct Onnx__TensorProto;
int vc_tensor_from_proto(const struct Onnx__TensorProto *p,
			 struct vpuxc_tensor *t, const char *what);
/* element @i of a constant as double / int64 (any supported dtype) */
double vc_cst_f(const struct vpuxc_tensor *t, size_t i);
int64_t vc_cst_i(const struct vpuxc_tensor *t, size_t i);

/* shape inference over every node (infer.c) */
int vc_infer_shapes(struct vpuxc_model *m);
/* infer.c's helpers for the op families' shape functions */
int vc_known(const struct vc_value *v);		/* rank and dims known */
void vc_set_shape(struct vc_value *o, int32_t dtype, int rank,
		  const int64_t *dims);
void vc_copy_shape(struct vc_value *o, const struct vc_value *i,
		   int32_t dtype);
/* numpy broadcasting of a and b into o; 0 if incompatible */
int vc_broadcast(const struct vc_value *a, const struct vc_value *b,
		 int64_t *o, int *rank);
/*
 * The graph passes (passes.c): constant folding, BatchNormalization and
 * Pad folding, Identity/Dropout removal, pattern fusion; then shape
 * inference again. Once per model (passes_done).
 */
int vc_run_passes(struct vpuxc_model *m);
/* Slice @n of an input of @r dims @xd: its dims, starts and steps */
int vc_slice_shape(const struct vpuxc_model *m, const struct vc_node *n,
		   int r, const int64_t *xd, int64_t *start, int64_t *step,
		   int64_t *d);
/* "passes: ..." (one line, no newline) into @buf */
void vc_pass_summary(const struct vpuxc_model *m, char *buf, size_t cap);
/* number of elements of a value with known dims, 0 otherwise */
uint64_t vc_numel(const struct vc_value *v);

#endif /* VPUXC_IR_H */
