/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What the lowering files share: the lowering context, the program
 * building helpers of lower.c, the FP16 helpers of fp16.c and the op
 * registry (registry.c; one table per op family in ops_*.c).
 * Documentation/compiler.rst, "The op registry", says how to add an op.
 */
#ifndef VPUXC_LOWER_INT_H
#define VPUXC_LOWER_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "lower.h"

/*
 * A node that failed and already recorded its message with
 * vc_unsupported(): distinct from every VPUX_E_* code, so an error that
 * carries only vpux_last_error() is never taken for a reported one.
 */
#define VC_REPORTED	(-4096)

/* a pending float compute node of the quantized path (lower.c) */
struct pend {
	int node;		/* -1: none */
	double lo, hi;		/* output clamp, real values */
};

struct lctx {
	struct qprog *p;
	const struct vpuxc_model *m;
	struct pend *pend;	/* per value */
	int *nhwc;		/* qt -> its NHWC twin (-1) */
	int *rowmajor;		/* qt -> its row-major twin (-1) */
	int *f16;		/* qt -> its FP16 twin (a dequantized view) */
	int *scr;		/* qt -> its copy in scratch (SHAVE operands) */
	unsigned int twin_cap;
	bool *done;		/* per node: lowered with an earlier one */
	unsigned char *lay;	/* per value: VC_LAY_* (layout.c), or NULL */
};

/* layout assignment (layout.c): a 4-D float value's decided layout */
#define VC_LAY_NHWC	1
#define VC_LAY_RM	2
#define VC_LAY_MASK	3
#define VC_LAY_CHANGE	4	/* a consumer needs the other layout */
#define VC_LAY_VIEW	8	/* ... and the change is a view (same bytes) */
#define VC_LAY_NEED_NHWC 16	/* a consumer needs it NHWC */
#define VC_LAY_NEED_RM	32	/* a consumer (or the graph output) row-major */
#define VC_LAY_CHOSEN	64	/* a layout op's copy: in the decided order */
int vc_assign_layouts(struct lctx *c);
void vc_layout_check(struct lctx *c, const struct vc_value *v,
		     unsigned int want);
uint64_t vc_layout_order(const struct lctx *c, const struct vc_value *v);

struct vc_conv_geom {
	int64_t kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, groups;
};

/*
 * Fill @g from ONNX's attribute order: kernel, strides and dilations
 * (h, w), pads (top, left, bottom, right).
 */
static inline void vc_geom_set(struct vc_conv_geom *g, int64_t kh,
			       int64_t kw, const int64_t st[2],
			       const int64_t dl[2], const int64_t pd[4],
			       int64_t groups)
{
	g->kh = kh;
	g->kw = kw;
	g->sh = st[0];
	g->sw = st[1];
	g->dh = dl[0];
	g->dw = dl[1];
	g->pt = pd[0];
	g->pl = pd[1];
	g->pb = pd[2];
	g->pr = pd[3];
	g->groups = groups;
}

/* ---- lower.c: program building ---- */
int vc_grow(void **a, unsigned int *cap, unsigned int n, size_t el);
void vc_dpu_init(struct qdpu *q, unsigned int op, unsigned int flags);
int64_t vc_blob_add(struct qprog *p, const void *data, uint64_t size);
int vc_const_qt(struct qprog *p, int32_t dt, unsigned int rank,
		const int64_t *dims, const void *data);
int vc_view_qt(struct qprog *p, int src, unsigned int rank,
	       const int64_t *dims, uint64_t order);
const struct vpuxc_tensor *vc_cst_of(const struct lctx *c,
				     const struct vc_node *n,
				     unsigned int slot);
int vc_twins(struct lctx *c);
int vc_reorder_into(struct lctx *c, int node, int src, int t,
		    uint64_t order);
int vc_reorder(struct lctx *c, int node, int src, uint64_t order);
int vc_as_nhwc(struct lctx *c, int node, int t);
int vc_as_rowmajor(struct lctx *c, int node, int t);
int vc_out_qt(struct qprog *p, int32_t dt, const struct vc_value *v,
	      double scale, int32_t zp, uint64_t order);
void vc_set_vq(struct lctx *c, const struct vc_value *v, int t);
int vc_vq_of(const struct lctx *c, const struct vc_value *v);
void vc_dpu_window(struct vpux_hw_dpu_desc *d, const struct vc_conv_geom *g,
		   int64_t C, int64_t H, int64_t W, int64_t OC, int64_t oh,
		   int64_t ow);
int vc_conv_geom(struct lctx *c, const struct vc_node *n, int64_t H,
		 int64_t W, int64_t kh, int64_t kw, struct vc_conv_geom *g);
int vc_shave_op(struct lctx *c, int node, int x, int y, const char *fmt,
		...) __attribute__((format(printf, 5, 6)));
int vc_is_float(const struct vc_value *v);

/* ---- the op registry (registry.c) ---- */

/**
 * struct vc_op - one ONNX operator the compiler knows
 * @domain: "" for the default domain (ai.onnx), else e.g. "com.vpux"
 * @name: op type
 * @since, @until: opset range of the default domain it covers (0: open)
 * @infer: output shapes and types (NULL: infer.c's built-in cases)
 * @npu: can the NPU run this node on FP16 tensors? NULL if so, else the
 *       reason, formatted into @buf. Reads the graph, changes nothing
 *       (the partitioner asks it for every node)
 * @lower: the node on FP16 tensors (VC_REPORTED after vc_unsupported())
 */
struct vc_op {
	const char *domain;
	const char *name;
	int since, until;
	int (*infer)(struct vpuxc_model *m, struct vc_node *n);
	const char *(*npu)(const struct vpuxc_model *m, const struct vc_node *n,
			   char *buf, size_t len);
	int (*lower)(struct lctx *c, int node);
};

/* the op family tables, each ended by an entry with a NULL @name */
extern const struct vc_op vc_ops_conv[];
extern const struct vc_op vc_ops_matmul[];
extern const struct vc_op vc_ops_eltwise[];
extern const struct vc_op vc_ops_pool[];
extern const struct vc_op vc_ops_act[];
extern const struct vc_op vc_ops_norm[];
extern const struct vc_op vc_ops_layout[];
extern const struct vc_op vc_ops_resize[];
/* kernels.c: a com.vpux node the tables do not have (--kernels DIR) */
extern const struct vc_op vc_op_custom;

/* the entry for node @n of a model at @opset, or NULL */
const struct vc_op *vc_op_find(const struct vpuxc_model *m,
			       const struct vc_node *n);
/*
 * Can the NPU run node @k in FP16? NULL, or why not in @buf (an op the
 * registry does not know, an opset outside its range, the op's reason).
 */
const char *vc_op_npu(const struct vpuxc_model *m, int k, char *buf,
		      size_t len);

/* ---- fp16.c: FP16 tensors and ops ---- */

/* a float (FP16) device tensor? */
static inline bool vc_qt_is_f(const struct qt *t)
{
	return t->dt == VPUX_DT_F16 || t->dt == VPUX_DT_F32;
}

/*
 * The FP16 tensor holding float value @v for node @node's use: its
 * device tensor, a constant in the weights (FP16, rounded to nearest
 * even), the dequantization of a quantized view (SHAVE CONVERT), or a
 * pending quantized-path node lowered in FP16. VC_REPORTED when there
 * is none (reported against @node).
 */
int vc_f16(struct lctx *c, int node, const struct vc_value *v);
/* the same, 4-D values in NHWC (the DPU's layout) */
int vc_f16_nhwc(struct lctx *c, int node, const struct vc_value *v);
/* the same, in row-major (ONNX) order */
int vc_f16_rowmajor(struct lctx *c, int node, const struct vc_value *v);
/* @t readable by a SHAVE kernel: itself, or a scratch copy of a constant */
int vc_f16_shave_in(struct lctx *c, int node, int t);
/* a new FP16 tensor for value @v (dims of @v) in @order, made its vq */
int vc_f16_out(struct lctx *c, const struct vc_value *v, uint64_t order);
/* a new FP16 scratch tensor */
int vc_f16_new(struct lctx *c, unsigned int rank, const int64_t *dims,
	       uint64_t order);
/* FP16 / FP32 constants in the weights from float values */
int vc_f16_const(struct lctx *c, unsigned int rank, const int64_t *dims,
		 const float *vals);
int vc_f32_const(struct lctx *c, unsigned int rank, const int64_t *dims,
		 const float *vals);
/* a float constant of value @v as floats (malloc'ed), NULL if not one */
float *vc_cst_floats(const struct vc_value *v, size_t *count);
/*
 * @q once per batch item of @n: in from @x and out to @y at the item's
 * offset (each tensor's size / @n); in2 advances by @in2_step per item
 * when that is not 0; the other operands as @q has them.
 */
int vc_emit_dpu_items(struct lctx *c, int node, struct qdpu *q, int x, int y,
		      int64_t n, uint64_t in2_step);
/* an FP16 DPU descriptor for @op with the fields every op sets */
void vc_fdpu_init(struct qdpu *q, unsigned int op);
/* FP32 bits of @f */
uint32_t vc_f32_bits(float f);
/*
 * A SHAVE float kernel: "shave KERNEL in=t.. out=t.. ..." with @nt
 * tensors @ts it touches (liveness), the text made from @fmt.
 */
int vc_shave_f(struct lctx *c, int node, const int *ts, unsigned int nt,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* copy tensor @src (whole) into @dst of the same size by DMA */
int vc_copy(struct lctx *c, int node, int src, int dst);
/*
 * A 3-D strided DMA: @cnt[0..2] runs of @len bytes, source and
 * destination strides @ss/@ds (innermost first), within the byte ranges
 * [@soff, +@slen) of @src and [@doff, +@dlen) of @dst (the assembler's
 * dependency analysis uses them).
 */
int vc_dma3(struct lctx *c, int node, int src, uint64_t soff, uint64_t slen,
	    int dst, uint64_t doff, uint64_t dlen, uint64_t len,
	    const int64_t *cnt, const int64_t *ss, const int64_t *ds);
/* view of @src (bytes @off.. of it) with other dims/order */
int vc_view_at(struct lctx *c, int src, uint64_t off, unsigned int rank,
	       const int64_t *dims, uint64_t order);
/* ops_act.c: activations, and fusing them into a DPU op */
int vc_sole_use(const struct vpuxc_model *m, const struct vc_value *v);
int vc_same_shape(struct vpuxc_model *m, struct vc_node *n);
int vc_clip_bounds(const struct vpuxc_model *m, const struct vc_node *n,
		   float *lo, float *hi);
const struct vc_value *vc_fuse_act(struct lctx *c, struct qdpu *q,
				   const struct vc_value *y);
int vc_unary(struct lctx *c, int node, const struct vc_value *xv,
	     const struct vc_value *yv, const char *args);
/* ops_conv.c: an FP32 bias tensor of @oc values from constant @b */
int vc_bias_f32(struct lctx *c, const struct vc_value *b, int64_t oc);
/* the float lowering of node @k (registry), and its float graph inputs */
int vc_lower_float(struct lctx *c, int k);
bool vc_wants_float(struct lctx *c, int k);
int vc_float_input(struct lctx *c, unsigned int i);

#endif /* VPUXC_LOWER_INT_H */
