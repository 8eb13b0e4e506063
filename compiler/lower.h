/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The compiler's NPU-level program: quantized tensors (struct qt) with
 * their layout and memory placement, and NPU ops (struct qop) on the
 * three engine kinds, built by lower.c from the graph IR, placed by
 * memory.c and turned into a loadable by emit.c.
 */
#ifndef VPUXC_LOWER_H
#define VPUXC_LOWER_H

#include <stdint.h>
#include <stdio.h>

#include "ir.h"
#include "vpux.h"
#include "vpux_regs.h"

#define QT_MAX_RANK 6

enum qt_region { QR_SCRATCH, QR_WEIGHTS, QR_INPUT, QR_OUTPUT, QR_CMX };

/* packed dims orders (Documentation/loadable.rst) */
#define ORDER_NCHW	0x1234ull
#define ORDER_NHWC	0x1342ull

/**
 * struct qt - a tensor of the NPU program
 * @dt: VPUX_DT_U8, VPUX_DT_I8 or VPUX_DT_I32
 * @rank, @dims: logical dims (ONNX order: N, C, H, W for activations)
 * @order: packed memory order (ORDER_NHWC for activations the DPU reads)
 * @scale, @zp: quantization (scale 0: raw integers)
 * @region, @index: where it lives (input/output index for QR_INPUT/OUTPUT)
 * @offset: byte offset in the region (memory.c; views: in @alias)
 * @size: bytes (compact in @order)
 * @blob: QR_WEIGHTS: offset of its bytes in the weight blob
 * @alias: -1, or the tensor this one is a view of (same bytes, other dims)
 * @voff: a view's byte offset in the tensor it views
 * @def, @last: first op writing it, last op reading it (memory.c)
 * @sym: a tensor laid out for the max of symbol @sym along its dynamic
 *       axis (plan.c), -1 for a static tensor
 * @dyn_dim: the dim of that axis (-1: static, -2: the axis is not the
 *           outermost one, so a token's bytes are not contiguous)
 */
struct qt {
	int32_t dt;
	unsigned int rank;
	int64_t dims[QT_MAX_RANK];
	uint64_t order;
	double scale;
	int32_t zp;
	int region;
	unsigned int index;
	uint64_t offset, size;
	uint64_t blob;
	int alias;
	uint64_t voff;
	int def, last;
	int sym, dyn_dim;
};

enum qop_kind { QOP_DMA, QOP_DPU, QOP_SHAVE };

/* DPU operands: in, in2, bias, quant, out */
enum { QD_IN, QD_IN2, QD_BIAS, QD_QUANT, QD_OUT, QD_N };

/**
 * struct qdpu - a DPU op before emission (tile.c splits it into bands)
 * @d: the descriptor's shape, geometry and quantization fields (operand
 *     addresses unused)
 * @t: operand tensors (-1: none)
 * @off, @len: byte sub-range of each operand (@len 0: the whole tensor)
 */
struct qdpu {
	struct vpux_hw_dpu_desc d;
	int t[QD_N];
	uint64_t off[QD_N], len[QD_N];
};

#define QOP_MAX_T 6

/**
 * struct qop - one NPU op
 * @kind: engine kind
 * @text: the vasm statement (Documentation/vpux-asm.rst) with tensors
 *        named t<id>
 * @node: index of the ONNX node it comes from (for the report), -1 glue
 * @t, @nt: tensors it reads or writes (liveness)
 * @macs: multiply-accumulates (report)
 * @dpu: a DPU op's structured form (@text is made from it at emission)
 * @tiles: bands it was split into (report)
 */
struct qop {
	int kind;
	char *text;
	struct qdpu *dpu;
	unsigned int tiles;
	int node;
	int t[QOP_MAX_T];
	unsigned int nt;
	uint64_t macs;
};

/* the model's dim_params with their bounds; index = loadable symbol */
struct vc_syms {
	unsigned int n;
	const char *name[VC_MAX_SYMS];
	int64_t min[VC_MAX_SYMS], max[VC_MAX_SYMS];
	unsigned int tile;
};

struct qprog {
	const struct vpuxc_model *m;
	struct qt *t;
	unsigned int nt, cap_t;
	struct qop *op;
	unsigned int nop, cap_op;
	uint8_t *blob;			/* weights */
	uint64_t blob_size, blob_cap;
	uint64_t scratch_size;
	/* ONNX value -> qt (-1: none yet) */
	int *vq;
	/* graph I/O, in ONNX order: value, qt */
	unsigned int n_in, n_out;
	int *in_v, *in_q, *out_v, *out_q;
	/* host conversion of each I/O: the Q/DQ node giving its scales, -1 */
	int *in_qnode, *out_qnode;
	/* unsupported nodes, one line each */
	char *errs;
	size_t errs_len;
	unsigned int n_errs;
	/* the first node reported unsupported (-1: none or graph-level) */
	int first_bad;
	/* statistics for the report */
	uint64_t dma_bytes;
	/* layout assignment (layout.c): 4-D float values per layout, the
	 * changes it planned (views, reorder DMAs), the reorder DMAs the
	 * lowering made and those it did not plan, one line per change */
	unsigned int lay_nhwc, lay_rm, lay_views, lay_dma, lay_made,
		     lay_unplanned;
	char *lay_log;
	/* dynamic axes (plan.c) */
	struct vc_syms syms;
	/* plan statistics for the report */
	unsigned int plan_blocks, plan_templates, plan_patches;
	/* the custom kernels the program runs (kernels.c), by name */
	char **kernels;
	unsigned int n_kernels;
};

/* quant.c: real scale -> requant record, single rounding */
int vc_requant(double real, struct vpux_hw_requant *rq);
/*
 * quantize v with (scale, zp) into type range dt, round half to even, in
 * double (umd/hostconv.h); HC_QNAN for a NaN
 */
int vc_quantize(double v, double scale, int32_t zp, int32_t dt, int32_t *q);
int32_t vc_dt_min(int32_t dt);
int32_t vc_dt_max(int32_t dt);
int32_t vc_dt_of_onnx(int32_t onnx_dtype);	/* VPUX_DT_* or 0 */
unsigned int vc_dt_bytes(int32_t dt);

/* lower.c */
int vc_lower(const struct vpuxc_model *m, struct qprog *p);
void vc_prog_free(struct qprog *p);
int vc_new_qt(struct qprog *p, int32_t dt, unsigned int rank,
	      const int64_t *dims, uint64_t order);
__attribute__((format(printf, 4, 5)))
int vc_emit_op(struct qprog *p, int kind, int node, const char *fmt, ...);
void vc_op_uses(struct qprog *p, int op, int t);
__attribute__((format(printf, 3, 4)))
void vc_unsupported(struct qprog *p, const struct vc_node *n,
		    const char *fmt, ...);

int vc_emit_dpu(struct qprog *p, int node, const struct qdpu *q);
/* the vpux-asm statement of a DPU op */
char *vc_dpu_text(const struct qdpu *q);

/* tile.c: DPU ops into CMX bands with DMA in and out */
int vc_tile(struct qprog *p, unsigned int ntiles);

/* memory.c: offsets of scratch tensors (lifetime-based reuse) */
int vc_place(struct qprog *p);

/* plan.c: dynamic axes (Documentation/compiler.rst, "Dynamic axes") */
struct lf_image;
/* bounds of the model's dim_params into @p, their max into the dims */
int vc_bind_symbols(struct vpuxc_model *m, const struct vpuxc_options *o,
		    struct vc_syms *s);
/* which tensors are dynamic (after vc_lower) */
int vc_dyn_mark(struct qprog *p);
/* the assembled static program (at max) into a plan */
int vc_plan(struct qprog *p, struct lf_image *img);
/* the plan's arrays vc_plan() gave @img */
void vc_plan_free(struct lf_image *img);

/* emit.c: the vasm program, then the loadable */
int vc_emit_vasm(const struct qprog *p, const char *name, FILE *f);

#endif /* VPUXC_LOWER_H */
