/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The quantized path of the lowering (Documentation/compiler.rst,
 * "Lowering"), shared by its files: lower.c (program building, layouts,
 * the node walk), lower_qdpu.c (int8 DPU ops: convolution, element-wise,
 * pooling, MatMul/Gemm), lower_qshave.c (int8 SHAVE kernels) and
 * lower_qdq.c (QuantizeLinear/DequantizeLinear, QOperator ops, the
 * pending-node fusion).
 */
#ifndef VPUXC_LOWER_Q_H
#define VPUXC_LOWER_Q_H

#include "lower_int.h"

/*
 * A quantized constant: the integer data of @v (an integer initializer,
 * DequantizeLinear of one, or DequantizeLinear(QuantizeLinear(float
 * initializer))) with its scales (per tensor or per @axis).
 */
struct qconst {
	const struct vpuxc_tensor *data;	/* integer data, or NULL */
	const struct vpuxc_tensor *fdata;	/* float data to quantize */
	int32_t dt;
	double scale[4096];
	int32_t zp[4096];
	unsigned int n;		/* 0: no scale known (raw integers) */
	int axis;
};

struct dpu_q {
	int32_t in_dt, w_dt, out_dt;
	int32_t in_zp, w_zp, out_zp;
	int32_t act_min, act_max;
};

/*
 * Convolution (or a pooling window op): x NHWC, weights repacked to
 * [oc][kh][kw][ic/g] with channel-wise zero points folded when they
 * differ, bias int32 in units of s_x * s_w[c], output y.
 */
struct conv_args {
	int x;				/* activation qt (any layout) */
	double sx;
	struct qconst *w;		/* NULL: runtime weights @wt */
	int wt;				/* runtime weights qt (NCHW layout) */
	double sw1;			/* runtime weights scale */
	int32_t wzp1;
	const struct vc_value *bias;	/* int32 const, DQ(...) or float const */
	double sy;
	int32_t zy, dty;
	double lo, hi;			/* output clamp (real) */
	double alpha;			/* extra factor (Gemm) */
};

struct mm_args {
	int a;				/* activation qt [.., M, K] */
	double sa;
	int32_t za;
	const struct vc_value *bv;	/* B value: constant or quantized */
	int transb;			/* B given as [N][K] (Gemm transB) */
	const struct vc_value *bias;	/* Gemm C, or NULL */
	double beta, alpha;
	double sy;
	int32_t zy, dty;
	double lo, hi;
	/* QOperator: B's parameters come from the node */
	int qop;
	double sb[4096];
	int32_t zb[4096];
	unsigned int nb;
};

int vcq_same_scale(double a, double b);
int vcq_qparam(struct lctx *c, const struct vc_node *n, unsigned int ss,
	       unsigned int sz, double *scale, int32_t *zp, int32_t *dt,
	       unsigned int *count);
int vcq_qparam1(struct lctx *c, const struct vc_node *n, unsigned int ss,
		unsigned int sz, double *scale, int32_t *zp, int32_t *dt);
int vcq_chw(struct lctx *c, const struct vc_node *n, const struct qt *t,
	    int64_t *C, int64_t *H, int64_t *W);
int vcq_qconst_of(struct lctx *c, const struct vc_value *v, struct qconst *q);
int vcq_clamp_q(double lo, double hi, double s, int32_t zp, int32_t dt,
		int32_t *amin, int32_t *amax);
int vcq_lower_conv(struct lctx *c, int node, const struct vc_value *yv,
		   struct conv_args *a);
int vcq_lower_eltwise(struct lctx *c, int node, const struct vc_value *yv,
		      double sy, int32_t zy, int32_t dty, double lo, double hi);
int vcq_lower_pool(struct lctx *c, int node, const struct vc_value *yv, int x,
		   double sy, int32_t zy, int32_t dty, double lo, double hi);
int vcq_lower_matmul(struct lctx *c, int node, const struct vc_value *yv,
		     struct mm_args *m);
int vcq_lower_act(struct lctx *c, int node, const struct vc_value *yv, int x,
		  double sy, int32_t zy, int32_t dty);
int vcq_requantize(struct lctx *c, int node, int x, double sy, int32_t zy,
		   int32_t dty);
int vcq_clamp_raw(struct lctx *c, int node, int x, int32_t lo, int32_t hi);

/*
 * The DequantizeLinear -> op -> QuantizeLinear patterns (qdq_patterns.c;
 * Documentation/compiler.rst, "Adding an op"): one row per core op.
 */
#define VCQ_MAX_IN	3
enum vcq_role {
	VCQ_IN_NONE,		/* not checked (absent or not a tensor input) */
	VCQ_IN_ACT,		/* a quantized view: DequantizeLinear(runtime int8) */
	VCQ_IN_OPERAND,		/* a view or a constant (float or quantized) */
	VCQ_IN_WEIGHT,		/* a view or a quantized constant */
	VCQ_IN_BIAS,		/* int32 (DequantizeLinear of one) or float constant */
};
#define VCQ_Q_TENSOR	0x1	/* one scale and zero point */
#define VCQ_Q_CHANNEL	0x2	/* one per output channel (the lowering checks the axis) */
#define VCQ_T_I8	0x1
#define VCQ_T_U8	0x2
#define VCQ_T_I32	0x4
#define VCQ_T_FLOAT	0x8	/* a float constant, quantized by the compiler */
#define VCQ_ZP_ANY	0	/* any zero point (recentred or folded) */
#define VCQ_ZP_ZERO	1	/* zero points must be 0 */
struct vcq_in {
	unsigned char role;	/* enum vcq_role */
	unsigned char q;	/* VCQ_Q_*: scale granularity of a constant */
	unsigned char types;	/* VCQ_T_*: element types of a constant */
	unsigned char zp;	/* VCQ_ZP_* */
};
/* the output side, from the QuantizeLinear and the folded Relu/Clip */
struct vcq_qout {
	double s;
	int32_t zp, dt;
	double lo, hi;		/* output clamp, real values */
};
#define VCQ_P_ACT	0x1	/* a Relu/Clip may sit between the op and the Q */
#define VCQ_P_FLOAT	0x2	/* no Q: the result runs in FP16 (op registry) */
struct vcq_pattern {
	const char *domain;	/* "" = ai.onnx */
	const char *op;
	struct vcq_in in[VCQ_MAX_IN];	/* per input slot */
	unsigned int flags;	/* VCQ_P_* */
	int (*lower)(struct lctx *c, int k, const struct vc_value *yv,
		     const struct vcq_qout *o);
};
extern const struct vcq_pattern vcq_patterns[];
const struct vcq_pattern *vcq_pattern_of(const struct vpuxc_model *m,
					 const struct vc_node *n);
int vcq_pattern_pend(struct lctx *c, int k, const struct vcq_pattern *pat);
int vcq_pattern_act(const struct lctx *c, int k);
int vcq_pattern_float(struct lctx *c, int k);
int vcq_pattern_fuse(struct lctx *c, int k, const struct vc_value *yv,
		     double s, int32_t zp, int32_t dt, double lo, double hi);
int vcq_do_quantize(struct lctx *c, int k);
int vcq_do_dequantize(struct lctx *c, int k);
int vcq_do_qlinear(struct lctx *c, int k);
int vcq_do_integer(struct lctx *c, int k);
int vcq_do_layout(struct lctx *c, int k);
int vcq_do_clip(struct lctx *c, int k);

#endif /* VPUXC_LOWER_Q_H */
