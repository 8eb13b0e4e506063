// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Names and field tables of the vpux-asm text format. */
#include <fenv.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/vpux_task.h>
#include "vasm.h"
#include "vpux.h"
#include "vpux_shave_abi.h"

const struct vasm_name vasm_dpu_ops[] = {
	{ "conv", VPUX_DPU_OP_CONV }, { "matmul", VPUX_DPU_OP_MATMUL },
	{ "add", VPUX_DPU_OP_ADD }, { "mul", VPUX_DPU_OP_MUL },
	{ "maxpool", VPUX_DPU_OP_MAXPOOL }, { "avgpool", VPUX_DPU_OP_AVGPOOL },
	{ "sub", VPUX_DPU_OP_SUB },
	{ NULL, 0 }
};

/*
 * fp16 first (vpux-dis prints them in this order), then bit order;
 * out_f32 is FP16 ops' name of out_i32's bit
 */
const struct vasm_name vasm_dpu_flags[] = {
	{ "fp16", VPUX_DPU_F_FP16 },
	{ "in_signed", VPUX_DPU_F_IN_SIGNED },
	{ "w_signed", VPUX_DPU_F_W_SIGNED },
	{ "out_signed", VPUX_DPU_F_OUT_SIGNED },
	{ "bias", VPUX_DPU_F_BIAS },
	{ "per_channel", VPUX_DPU_F_PER_CHANNEL },
	{ "out_i32", VPUX_DPU_F_OUT_I32 },
	{ "out_f32", VPUX_DPU_F_OUT_F32 },
	{ "scale", VPUX_DPU_F_SCALE },
	{ "batch", VPUX_DPU_F_BATCH },
	{ "w_kn", VPUX_DPU_F_W_KN },
	{ "count_pad", VPUX_DPU_F_COUNT_PAD },
	{ NULL, 0 }
};

const struct vasm_name vasm_bcasts[] = {
	{ "none", VPUX_DPU_BCAST_NONE }, { "c", VPUX_DPU_BCAST_C },
	{ "hw", VPUX_DPU_BCAST_HW }, { "scalar", VPUX_DPU_BCAST_SCALAR },
	{ NULL, 0 }
};

const struct vasm_name vasm_acts[] = {
	{ "none", VPUX_DPU_ACT_NONE }, { "relu", VPUX_DPU_ACT_RELU },
	{ "clamp", VPUX_DPU_ACT_CLAMP }, { "leaky", VPUX_DPU_ACT_LEAKY },
	{ "leaky_ch", VPUX_DPU_ACT_LEAKY_CH },
	{ NULL, 0 }
};

const struct vasm_name vasm_kernels[] = {
	{ "clamp", VPUX_SHAVE_KERNEL_CLAMP },
	{ "softmax", VPUX_SHAVE_KERNEL_SOFTMAX },
	{ "sigmoid", VPUX_SHAVE_KERNEL_SIGMOID },
	{ "tanh", VPUX_SHAVE_KERNEL_TANH },
	{ "permute", VPUX_SHAVE_KERNEL_PERMUTE },
	{ "quantize", VPUX_SHAVE_KERNEL_QUANTIZE },
	{ "convert", VPUX_SHAVE_KERNEL_CONVERT },
	{ "unary", VPUX_SHAVE_KERNEL_UNARY },
	{ "binary", VPUX_SHAVE_KERNEL_BINARY },
	{ "softmax_f", VPUX_SHAVE_KERNEL_SOFTMAX_F },
	{ "log_softmax_f", VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F },
	{ "layernorm", VPUX_SHAVE_KERNEL_LAYERNORM },
	{ "reduce", VPUX_SHAVE_KERNEL_REDUCE },
	{ "resize", VPUX_SHAVE_KERNEL_RESIZE },
	{ "gather", VPUX_SHAVE_KERNEL_GATHER },
	{ "pad", VPUX_SHAVE_KERNEL_PAD },
	{ NULL, 0 }
};

/* the FP16/FP32 kernels' codes (vpux_shave_abi.h), by their text names */
static const struct vasm_name un_funcs[] = {
	{ "exp", VPUX_SHAVE_UN_EXP }, { "log", VPUX_SHAVE_UN_LOG },
	{ "sigmoid", VPUX_SHAVE_UN_SIGMOID }, { "tanh", VPUX_SHAVE_UN_TANH },
	{ "erf", VPUX_SHAVE_UN_ERF }, { "gelu_erf", VPUX_SHAVE_UN_GELU_ERF },
	{ "gelu_tanh", VPUX_SHAVE_UN_GELU_TANH },
	{ "hard_sigmoid", VPUX_SHAVE_UN_HARD_SIGMOID },
	{ "hard_swish", VPUX_SHAVE_UN_HARD_SWISH },
	{ "silu", VPUX_SHAVE_UN_SILU }, { "sqrt", VPUX_SHAVE_UN_SQRT },
	{ "recip", VPUX_SHAVE_UN_RECIP }, { "neg", VPUX_SHAVE_UN_NEG },
	{ "abs", VPUX_SHAVE_UN_ABS }, { "relu", VPUX_SHAVE_UN_RELU },
	{ "leaky_relu", VPUX_SHAVE_UN_LEAKY_RELU },
	{ "clip", VPUX_SHAVE_UN_CLIP },
	{ NULL, 0 }
};

static const struct vasm_name bin_funcs[] = {
	{ "add", VPUX_SHAVE_BIN_ADD }, { "sub", VPUX_SHAVE_BIN_SUB },
	{ "mul", VPUX_SHAVE_BIN_MUL }, { "div", VPUX_SHAVE_BIN_DIV },
	{ "pow", VPUX_SHAVE_BIN_POW }, { "max", VPUX_SHAVE_BIN_MAX },
	{ "min", VPUX_SHAVE_BIN_MIN },
	{ NULL, 0 }
};

static const struct vasm_name red_funcs[] = {
	{ "sum", VPUX_SHAVE_RED_SUM }, { "mean", VPUX_SHAVE_RED_MEAN },
	{ "max", VPUX_SHAVE_RED_MAX }, { "min", VPUX_SHAVE_RED_MIN },
	{ NULL, 0 }
};

static const struct vasm_name resize_modes[] = {
	{ "nearest", VPUX_SHAVE_RESIZE_NEAREST },
	{ "linear", VPUX_SHAVE_RESIZE_LINEAR },
	{ NULL, 0 }
};

static const struct vasm_name resize_coords[] = {
	{ "half_pixel", VPUX_SHAVE_COORD_HALF_PIXEL },
	{ "pytorch_half_pixel", VPUX_SHAVE_COORD_PYTORCH_HALF_PIXEL },
	{ "align_corners", VPUX_SHAVE_COORD_ALIGN_CORNERS },
	{ "asymmetric", VPUX_SHAVE_COORD_ASYMMETRIC },
	{ "tf_half_pixel_for_nn", VPUX_SHAVE_COORD_TF_HALF_PIXEL_FOR_NN },
	{ NULL, 0 }
};

static const struct vasm_name resize_nearest[] = {
	{ "round_prefer_floor", VPUX_SHAVE_NEAREST_ROUND_PREFER_FLOOR },
	{ "round_prefer_ceil", VPUX_SHAVE_NEAREST_ROUND_PREFER_CEIL },
	{ "floor", VPUX_SHAVE_NEAREST_FLOOR },
	{ "ceil", VPUX_SHAVE_NEAREST_CEIL },
	{ NULL, 0 }
};

static const struct vasm_name pad_modes[] = {
	{ "constant", VPUX_SHAVE_PAD_CONSTANT },
	{ "reflect", VPUX_SHAVE_PAD_REFLECT },
	{ "edge", VPUX_SHAVE_PAD_EDGE },
	{ NULL, 0 }
};

const struct vasm_name vasm_orders[] = {
	{ "NCHW", 0x1234 }, { "NHWC", 0x1342 }, { "CHW", 0x123 },
	{ "HWC", 0x231 }, { "NC", 0x12 }, { "CN", 0x21 }, { "C", 0x1 },
	{ NULL, 0 }
};

void vasm_names_list(const struct vasm_name *t, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = 0;
	for (; t->name && at < size; t++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s",
				       at ? ", " : "", t->name);
}

const char *vasm_name_of(const struct vasm_name *t, uint32_t v)
{
	for (; t->name; t++)
		if (t->value == v)
			return t->name;
	return NULL;
}

int vasm_value_of(const struct vasm_name *t, const char *name, uint32_t *v)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name)) {
			*v = t->value;
			return 0;
		}
	return -1;
}

#define DF(f, t) { #f, offsetof(struct vpux_lf_dpu, f), t, VASM_ANY, NULL }
#define DI(f, t) { #f, offsetof(struct vpux_lf_dpu, f), t, VASM_INT, NULL }
#define DP(n, f) { n, offsetof(struct vpux_lf_dpu, f), VF_PAIR, VASM_INT, NULL }
#define DH(m, t) { #m, offsetof(struct vpux_lf_dpu, f.m), t, VASM_FP16, NULL }
const struct vasm_field vasm_dpu_fields[] = {
	DF(flags, VF_U32),
	DF(in_c, VF_U16), DF(in_h, VF_U16), DF(in_w, VF_U16),
	DF(out_c, VF_U16), DF(out_h, VF_U16), DF(out_w, VF_U16),
	DF(kernel_h, VF_U16), DF(kernel_w, VF_U16),
	DF(stride_h, VF_U16), DF(stride_w, VF_U16),
	DF(pad_top, VF_U16), DF(pad_left, VF_U16),
	DF(pad_bottom, VF_U16), DF(pad_right, VF_U16),
	DF(dilation_h, VF_U16), DF(dilation_w, VF_U16), DF(groups, VF_U16),
	DI(in_zp, VF_I32), DI(in2_zp, VF_I32), DI(out_zp, VF_I32),
	DI(act_min, VF_I32), DI(act_max, VF_I32),
	DP("requant", requant_mult), DP("in_scale", in_scale_mult),
	DP("in2_scale", in2_scale_mult),
	DH(act, VF_ACT), DH(clamp_lo, VF_F32), DH(clamp_hi, VF_F32),
	DH(scale, VF_F32), DH(shift, VF_F32), DH(slope, VF_F32),
	{ NULL, 0, 0, 0, NULL }
};

#define KF(s, f, t) { #f, offsetof(struct s, f), t, VASM_ANY, NULL }
#define KN(s, f, n) { #f, offsetof(struct s, f), VF_NAME, VASM_ANY, n }
static const struct vasm_field clamp_f[] = {
	KF(vpux_shave_clamp_args, min, VF_I32),
	KF(vpux_shave_clamp_args, max, VF_I32), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field softmax_f[] = {
	KF(vpux_shave_softmax_args, axis, VF_U32),
	KF(vpux_shave_softmax_args, out_zp, VF_I32),
	KF(vpux_shave_softmax_args, beta_scale, VF_PAIR),
	KF(vpux_shave_softmax_args, out_scale, VF_PAIR), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field lut_f[] = {
	KF(vpux_shave_lut_args, in_zp, VF_I32),
	KF(vpux_shave_lut_args, out_zp, VF_I32),
	KF(vpux_shave_lut_args, in_scale, VF_PAIR),
	KF(vpux_shave_lut_args, out_scale, VF_PAIR), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field permute_f[] = {
	KF(vpux_shave_permute_args, perm, VF_U32X6), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field quantize_f[] = {
	KF(vpux_shave_quantize_args, in_zp, VF_I32),
	KF(vpux_shave_quantize_args, out_zp, VF_I32),
	KF(vpux_shave_quantize_args, scale, VF_PAIR), { NULL, 0, 0, 0, NULL }
};

static const struct vasm_field convert_f[] = {
	KF(vpux_shave_convert_args, scale, VF_F32),
	KF(vpux_shave_convert_args, zero_point, VF_I32), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field unary_f[] = {
	KN(vpux_shave_unary_args, func, un_funcs),
	KF(vpux_shave_unary_args, alpha, VF_F32),
	KF(vpux_shave_unary_args, beta, VF_F32), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field binary_f[] = {
	KN(vpux_shave_binary_args, func, bin_funcs), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field fsoftmax_f[] = {
	KF(vpux_shave_fsoftmax_args, axis, VF_AXIS), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field layernorm_f[] = {
	KF(vpux_shave_layernorm_args, axis, VF_AXIS),
	KF(vpux_shave_layernorm_args, epsilon, VF_F32), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field reduce_f[] = {
	KN(vpux_shave_reduce_args, func, red_funcs),
	KF(vpux_shave_reduce_args, axes, VF_AXES), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field resize_f[] = {
	KN(vpux_shave_resize_args, mode, resize_modes),
	KN(vpux_shave_resize_args, coord, resize_coords),
	KN(vpux_shave_resize_args, nearest, resize_nearest),
	KF(vpux_shave_resize_args, scales, VF_F32X6), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field gather_f[] = {
	KF(vpux_shave_gather_args, axis, VF_AXIS), { NULL, 0, 0, 0, NULL }
};
static const struct vasm_field pad_f[] = {
	KN(vpux_shave_pad_args, mode, pad_modes),
	KF(vpux_shave_pad_args, value, VF_F32),
	KF(vpux_shave_pad_args, begin, VF_U32X6),
	KF(vpux_shave_pad_args, end, VF_U32X6), { NULL, 0, 0, 0, NULL }
};

const struct vasm_field *vasm_kernel_params(uint32_t id)
{
	switch (id) {
	case VPUX_SHAVE_KERNEL_CLAMP:
		return clamp_f;
	case VPUX_SHAVE_KERNEL_SOFTMAX:
		return softmax_f;
	case VPUX_SHAVE_KERNEL_SIGMOID:
	case VPUX_SHAVE_KERNEL_TANH:
		return lut_f;
	case VPUX_SHAVE_KERNEL_PERMUTE:
		return permute_f;
	case VPUX_SHAVE_KERNEL_QUANTIZE:
		return quantize_f;
	case VPUX_SHAVE_KERNEL_CONVERT:
		return convert_f;
	case VPUX_SHAVE_KERNEL_UNARY:
		return unary_f;
	case VPUX_SHAVE_KERNEL_BINARY:
		return binary_f;
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		return fsoftmax_f;
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		return layernorm_f;
	case VPUX_SHAVE_KERNEL_REDUCE:
		return reduce_f;
	case VPUX_SHAVE_KERNEL_RESIZE:
		return resize_f;
	case VPUX_SHAVE_KERNEL_GATHER:
		return gather_f;
	case VPUX_SHAVE_KERNEL_PAD:
		return pad_f;
	default:
		return NULL;
	}
}

const char *const *vasm_kernel_recs(uint32_t id, uint32_t *optional)
{
	static const char *const io[] = { "in", "out", NULL };
	static const char *const binary[] = { "in", "out", "in2", NULL };
	static const char *const ln[] = { "in", "out", "scale", "bias", NULL };
	static const char *const gather[] = { "in", "out", "indices", NULL };

	if (optional)
		*optional = id == VPUX_SHAVE_KERNEL_LAYERNORM ? 0xcu : 0;
	if (!lf_kernel_args_size(id))
		return NULL;
	return id == VPUX_SHAVE_KERNEL_BINARY ? binary :
	       id == VPUX_SHAVE_KERNEL_LAYERNORM ? ln :
	       id == VPUX_SHAVE_KERNEL_GATHER ? gather : io;
}

size_t vasm_field_size(enum vasm_ftype t)
{
	switch (t) {
	case VF_U16:
		return 2;
	case VF_PAIR:
		return 8;
	case VF_U32X6:
	case VF_F32X6:
		return 24;
	default:
		return 4;
	}
}

/* FP32 @v prints as what reads back as @v: not a NaN with a payload */
static int f32_exact(uint32_t v)
{
	uint32_t mag = v & 0x7fffffffu;

	return mag <= 0x7f800000u || mag == 0x7fc00000u || mag == 0x7fa00000u;
}

int vasm_field_exact(const struct vasm_field *f, const void *base)
{
	const uint8_t *p = (const uint8_t *)base + f->offset;
	uint32_t v[6];
	unsigned int i;

	memcpy(v, p, vasm_field_size(f->type) < sizeof(v) ?
	       vasm_field_size(f->type) : sizeof(v));
	switch (f->type) {
	case VF_NAME:
		return vasm_name_of(f->names, v[0]) != NULL;
	case VF_ACT:
		return vasm_name_of(vasm_acts, v[0]) != NULL;
	case VF_AXES:
		return v[0] != 0;
	case VF_F32:
		return f32_exact(v[0]);
	case VF_F32X6:
		for (i = 0; i < 6; i++)
			if (!f32_exact(v[i]))
				return 0;
		return 1;
	default:
		return 1;
	}
}

/* ---- float literals ---- */

/*
 * Round @d to FP16, to nearest even, in one step from the double's exact
 * value; *@tie set when @d lies exactly halfway between two FP16 values.
 */
static uint32_t f64_to_f16(double d, int *tie)
{
	uint64_t b, sig, n, rem, half;
	uint32_t sign;
	int e, q, sh;
	long h;

	memcpy(&b, &d, sizeof(b));
	sign = (uint32_t)(b >> 48) & 0x8000u;
	e = (int)(b >> 52) & 0x7ff;
	sig = b & ((1ull << 52) - 1);
	*tie = 0;
	if (e == 0x7ff)
		return sign | (sig ? 0x7e00u : 0x7c00u);
	if (!e && !sig)
		return sign;
	/* |d| = sig * 2^(e - 1075), e - 1023 its binary exponent */
	if (e)
		sig |= 1ull << 52;
	else
		e = 1;
	e -= 1023;
	q = e >= -14 ? e - 10 : -24;	/* the FP16 quantum's exponent */
	sh = 52 + q - e;		/* quanta = sig >> sh, sh >= 42 */
	if (sh >= 64)
		return sign;		/* below a quarter quantum */
	n = sig >> sh;
	rem = sig & ((1ull << sh) - 1);
	half = 1ull << (sh - 1);
	*tie = rem == half;
	if (rem > half || (rem == half && (n & 1)))
		n++;
	/* normal: n in 2^10..2^11 quanta of 2^(e - 10) */
	h = e >= -14 ? ((long)(e + 14) << 10) + (long)n : (long)n;
	return sign | (h >= 0x7c00 ? 0x7c00u : (uint32_t)h);
}

uint32_t vasm_f64_round(double d, uint32_t dt)
{
	float f = (float)d;	/* one rounding, to nearest even */
	uint32_t b;
	int tie;

	if (dt == VPUX_DT_F16)
		return f64_to_f16(d, &tie);
	memcpy(&b, &f, sizeof(b));
	return b;
}

static int lit_name(const char *p, const char *name)
{
	size_t l = strlen(name);

	return !strncmp(p, name, l) && !p[l];
}

int vasm_float_parse(const char *s, uint32_t dt, uint32_t *bits,
		     const char **why)
{
	int f16 = dt == VPUX_DT_F16, neg = *s == '-', tie;
	uint32_t sign = neg ? (f16 ? 0x8000u : 0x80000000u) : 0;
	const char *p = s + (*s == '-' || *s == '+');
	char *end;
	double lo, hi;
	float f;

	*why = NULL;
	if (lit_name(p, "inf")) {
		*bits = sign | (f16 ? 0x7c00u : 0x7f800000u);
		return 0;
	}
	if (lit_name(p, "nan")) {
		*bits = sign | (f16 ? 0x7e00u : 0x7fc00000u);
		return 0;
	}
	if (lit_name(p, "snan")) {
		*bits = sign | (f16 ? 0x7d00u : 0x7fa00000u);
		return 0;
	}
	/* a number: no spelling of strtod's own (infinity, nan(...)) */
	if (!((*p >= '0' && *p <= '9') || *p == '.')) {
		*why = "expected a number (decimal or hex-float), inf, nan or snan";
		return -1;
	}
	/*
	 * The number's exact value lies in [lo, hi], adjacent doubles (lo
	 * == hi: exact). FP16 values and the midpoints between them are
	 * doubles, so only lo or hi can be a midpoint, and then the value
	 * is past it, towards the other one: rounding lo (or hi) once more
	 * is no double rounding. FP32: strtof() rounds correctly.
	 */
	fesetround(FE_DOWNWARD);
	lo = strtod(s, &end);
	fesetround(FE_UPWARD);
	hi = strtod(s, NULL);
	fesetround(FE_TONEAREST);
	if (f16) {
		*bits = f64_to_f16(lo, &tie);
		if (lo != hi && tie)
			*bits = f64_to_f16(hi, &tie);
	} else {
		f = strtof(s, NULL);
		memcpy(bits, &f, sizeof(*bits));
	}
	if (end == s || *end) {
		*why = "expected a number (decimal or hex-float), inf, nan or snan";
		return -1;
	}
	if ((*bits & (f16 ? 0x7fffu : 0x7fffffffu)) ==
	    (f16 ? 0x7c00u : 0x7f800000u)) {
		*why = f16 ? "outside the f16 range (largest finite 65504): write inf for an infinity" :
			     "outside the f32 range (largest finite 3.40282347e+38): write inf for an infinity";
		return -1;
	}
	if (!(*bits & (f16 ? 0x7fffu : 0x7fffffffu)) && (lo != 0 || hi != 0)) {
		*why = f16 ? "rounds to 0 in f16 (smallest subnormal 0x1p-24)" :
			     "rounds to 0 in f32 (smallest subnormal 0x1p-149)";
		return -1;
	}
	return 0;
}

void vasm_f32_print(uint32_t bits, char *buf, size_t size)
{
	const char *sign = bits >> 31 ? "-" : "";
	uint32_t mag = bits & 0x7fffffffu, back;
	const char *why;
	float f;
	int p;

	if (mag > 0x7f800000u) {
		snprintf(buf, size, "%s%s", sign,
			 mag == 0x7fa00000u ? "snan" : "nan");
		return;
	}
	if (mag == 0x7f800000u) {
		snprintf(buf, size, "%sinf", sign);
		return;
	}
	memcpy(&f, &bits, sizeof(f));
	for (p = 1; p <= 9; p++) {
		snprintf(buf, size, "%.*g", p, (double)f);
		if (!vasm_float_parse(buf, VPUX_DT_F32, &back, &why) &&
		    back == bits)
			return;
	}
}

void vasm_dpu_flags_print(uint32_t flags, char *buf, size_t size)
{
	int fp16 = !!(flags & VPUX_DPU_F_FP16);
	const struct vasm_name *t;
	size_t at = 0;

	buf[0] = 0;
	flags &= ~VPUX_DPU_F_BCAST_MASK;
	for (t = vasm_dpu_flags; t->name && at < size; t++) {
		/* bit 5: out_i32 for integer ops, out_f32 for FP16 ones */
		if (!(flags & t->value) ||
		    (!strcmp(t->name, "out_i32") && fp16) ||
		    (!strcmp(t->name, "out_f32") && !fp16))
			continue;
		at += snprintf(buf + at, size - at, "%s%s", at ? "," : "",
			       t->name);
		flags &= ~t->value;
	}
	/* bits without a name (none in VPUX_DPU_F_ALL): as a number */
	if (flags && at < size)
		at += snprintf(buf + at, size - at, "%s0x%x", at ? "," : "",
			       flags);
	if (!at)
		snprintf(buf, size, "0");
}

static void memref(struct vpux_memref *m, uint32_t win,
		   const struct vpux_lf_tensor *t, int dwin)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->addr = VPUX_WADDR(win, 0);
	m->is_static = dwin < 0;
	m->dims_addr = dwin < 0 ? 0 : VPUX_WADDR((uint32_t)dwin, 0);
	m->rank = t->rank;
	m->data_type = t->data_type;	/* VPUX_DT_* = VPUX_SHAVE_DT_* */
	m->dims_order = t->dims_order;
	for (i = 0; i < t->rank && i < VPUX_MEMREF_MAX_RANK; i++) {
		m->dims[i] = t->dims[i];
		m->strides[i] = t->strides[i];
	}
}

void vasm_shave_args(uint32_t kernel_id,
		     const struct vasm_rec rec[VASM_SHAVE_RECS],
		     const uint8_t *params, uint8_t *args)
{
	const char *const *rn = vasm_kernel_recs(kernel_id, NULL);
	const struct vasm_field *f = vasm_kernel_params(kernel_id);
	struct vpux_memref m;
	uint32_t r;

	memset(args, 0, lf_kernel_args_size(kernel_id));
	for (; f && f->name; f++)
		memcpy(args + f->offset, params + f->offset,
		       vasm_field_size(f->type));
	if (kernel_id == VPUX_SHAVE_KERNEL_LAYERNORM) {
		uint32_t flags = (rec[2].t ? VPUX_SHAVE_LN_SCALE : 0) |
				 (rec[3].t ? VPUX_SHAVE_LN_BIAS : 0);

		memcpy(args + offsetof(struct vpux_shave_layernorm_args, flags),
		       &flags, sizeof(flags));
	}
	for (r = 0; rn && rn[r]; r++) {
		if (!rec[r].t)
			continue;
		memref(&m, rec[r].win, rec[r].t, rec[r].dwin);
		memcpy(args + r * sizeof(m), &m, sizeof(m));
	}
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

int vasm_shave_high_level(const struct lf_image *img,
			  const struct vpux_lf_shave *o,
			  struct vasm_rec rec[VASM_SHAVE_RECS],
			  struct vpux_lf_tensor tens[VASM_SHAVE_RECS])
{
	uint8_t args[VPUX_SHAVE_ARGS_MAX];
	const uint8_t *a = img->kargs + o->args_offset;
	const char *const *rn;
	const struct vasm_field *f;
	const struct vpux_lf_ref *w = o->windows;
	uint32_t optional, r, next = 0;

	rn = vasm_kernel_recs(o->kernel_id, &optional);
	if (!rn || o->args_size != lf_kernel_args_size(o->kernel_id) ||
	    (uint64_t)o->args_offset + o->args_size > img->kargs_size)
		return 0;
	memset(rec, 0, VASM_SHAVE_RECS * sizeof(*rec));
	/* the records' windows: one each, whole tensors, in struct order */
	for (r = 0; rn[r]; r++) {
		if (optional >> r & 1 &&
		    all_zero(a + r * sizeof(struct vpux_memref),
			     sizeof(struct vpux_memref)))
			continue;
		if (next >= VPUX_LF_MAX_WINDOWS || !w[next].size ||
		    w[next].offset || w[next].tensor >= img->n_tensors ||
		    w[next].size != img->tensors[w[next].tensor].size)
			return 0;
		vasm_tensor_at_max(&img->tensors[w[next].tensor], img->symbols,
				   img->n_symbols, &tens[r]);
		rec[r].t = &tens[r];
		rec[r].win = next++;
		rec[r].dwin = -1;
	}
	/* then the dims window of each dynamic one */
	for (r = 0; rn[r]; r++) {
		const struct vpux_lf_tensor *x;

		if (!rec[r].t)
			continue;
		x = &img->tensors[w[rec[r].win].tensor];
		if (!x->dyn_dims)
			continue;
		if (next >= VPUX_LF_MAX_WINDOWS || w[next].size != 4 * x->rank)
			return 0;
		rec[r].dwin = (int)next++;
	}
	for (r = next; r < VPUX_LF_MAX_WINDOWS; r++)
		if (w[r].size)
			return 0;
	vasm_shave_args(o->kernel_id, rec, a, args);
	if (memcmp(args, a, o->args_size))
		return 0;
	for (f = vasm_kernel_params(o->kernel_id); f && f->name; f++)
		if (!vasm_field_exact(f, a))
			return 0;
	return 1;
}

/* ---- dynamic shapes ---- */

const struct vasm_name vasm_sym_kinds[] = {
	{ "axis", VPUX_LF_SYM_AXIS }, { "scalar", VPUX_LF_SYM_SCALAR },
	{ NULL, 0 }
};

const struct vasm_expr_op vasm_expr_ops[] = {
	{ "+", DLA_EXPR_ADD, 1 }, { "-", DLA_EXPR_SUB, 1 },
	{ "*", DLA_EXPR_MUL, 2 }, { "/", DLA_EXPR_DIV, 2 },
	{ "%", DLA_EXPR_MOD, 2 },
	{ "min", DLA_EXPR_MIN, 0 }, { "max", DLA_EXPR_MAX, 0 },
	{ "cdiv", DLA_EXPR_CDIV, 0 },
	{ NULL, 0, 0 }
};

const struct vasm_name vasm_loop_values[] = {
	{ "idx", DLA_EXPR_IDX }, { "off", DLA_EXPR_OFF }, { "len", DLA_EXPR_LEN },
	{ NULL, 0 }
};

int vasm_tensor_at_max(const struct vpux_lf_tensor *t,
		       const struct vpux_lf_symbol *syms, uint32_t n_syms,
		       struct vpux_lf_tensor *out)
{
	uint32_t d;

	*out = *t;
	for (d = 0; d < t->rank && d < VPUX_LF_MAX_RANK; d++) {
		if (!(t->dyn_dims >> d & 1))
			continue;
		if (t->dims[d] >= n_syms || syms[t->dims[d]].max < 0 ||
		    syms[t->dims[d]].max > (int64_t)UINT32_MAX)
			return -1;
		out->dims[d] = (uint32_t)syms[t->dims[d]].max;
	}
	out->dyn_dims = 0;
	return 0;
}

/* one operand of the printer's stack */
struct xnode {
	char s[1024];
	int prec;	/* 1: + -, 2: * / %, 3: an atom */
	int bare;	/* a CONST token: as a right operand it needs (n) */
};

static const struct vasm_expr_op *expr_op(uint32_t op)
{
	const struct vasm_expr_op *o;

	for (o = vasm_expr_ops; o->name; o++)
		if (o->op == op)
			return o;
	return NULL;
}

/*
 * @a OP @b into @r, parenthesised so that vpux-asm builds the same tree:
 * a left operand of lower precedence, a right one of lower or equal
 * precedence, and a bare constant on the right (written "(n)": a bare
 * literal there would become the operator's immediate form).
 */
static int combine(struct xnode *r, const struct vasm_expr_op *o,
		   const struct xnode *a, const char *b, int b_paren)
{
	int n;

	if (!o->prec) {
		n = snprintf(r->s, sizeof(r->s), "%s(%s, %s%s%s)", o->name,
			     a->s, b_paren ? "(" : "", b, b_paren ? ")" : "");
		r->prec = 3;
	} else {
		int ap = a->prec < o->prec;

		n = snprintf(r->s, sizeof(r->s), "%s%s%s %s %s%s%s",
			     ap ? "(" : "", a->s, ap ? ")" : "", o->name,
			     b_paren ? "(" : "", b, b_paren ? ")" : "");
		r->prec = o->prec;
	}
	r->bare = 0;
	return n < 0 || (size_t)n >= sizeof(r->s) ? -1 : 0;
}

static int expr_print(const uint32_t *e, uint32_t n,
		      const struct vpux_lf_symbol *syms, uint32_t n_syms,
		      struct xnode *st, char *buf, size_t size)
{
	unsigned int sp = 0, i;

	for (i = 0; i < n; i++) {
		uint32_t op = DLA_EXPR_OP(e[i]), arg = DLA_EXPR_ARG(e[i]);
		const struct vasm_expr_op *o;
		const char *lv;
		struct xnode r;
		char num[16];

		if (op < DLA_EXPR_ADD) {
			if (sp == DLA_PLAN_MAX_EXPR)
				return -1;
			r.prec = 3;
			r.bare = op == DLA_EXPR_CONST;
			if (op == DLA_EXPR_CONST) {
				snprintf(r.s, sizeof(r.s), "%u", arg);
			} else if (op == DLA_EXPR_CONST32) {
				if (arg || ++i >= n)
					return -1;
				/* 0x and 8 digits: the CONST32 form */
				snprintf(r.s, sizeof(r.s), "0x%08x", e[i]);
			} else if (op == DLA_EXPR_SYM) {
				if (arg >= n_syms)
					return -1;
				snprintf(r.s, sizeof(r.s), "%s", syms[arg].name);
			} else if ((lv = vasm_name_of(vasm_loop_values, op))) {
				snprintf(r.s, sizeof(r.s), "%s(%u)", lv, arg);
			} else {
				return -1;
			}
			st[sp++] = r;
			continue;
		}
		if (op >= DLA_EXPR_ADD + DLA_EXPR_IMM) {
			o = expr_op(op - DLA_EXPR_IMM);
			if (!o || !sp)
				return -1;
			snprintf(num, sizeof(num), "%u", arg);
			if (combine(&r, o, &st[sp - 1], num, 0))
				return -1;
			st[sp - 1] = r;
			continue;
		}
		o = expr_op(op);
		if (!o || arg || sp < 2)
			return -1;
		if (combine(&r, o, &st[sp - 2], st[sp - 1].s,
			    st[sp - 1].bare || (o->prec && st[sp - 1].prec <= o->prec)))
			return -1;
		st[sp - 2] = r;
		sp--;
	}
	if (sp != 1 || strlen(st[0].s) >= size)
		return -1;
	strcpy(buf, st[0].s);
	return 0;
}

int vasm_expr_print(const uint32_t *e, uint32_t n,
		    const struct vpux_lf_symbol *syms, uint32_t n_syms,
		    char *buf, size_t size)
{
	struct xnode *st = malloc(DLA_PLAN_MAX_EXPR * sizeof(*st));
	int ret = st ? expr_print(e, n, syms, n_syms, st, buf, size) : -1;

	free(st);
	if (ret && size)
		snprintf(buf, size, "?");
	return ret;
}

void vasm_name_escape(const char *name, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)name;

	for (; *p; p++) {
		if (*p < '!' || *p > '~' || *p == '%' || *p == '#') {
			*out++ = '%';
			*out++ = hex[*p >> 4];
			*out++ = hex[*p & 15];
		} else {
			*out++ = (char)*p;
		}
	}
	*out = 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int vasm_name_unescape(char *word)
{
	char *o = word;
	const char *p;

	for (p = word; *p; p++) {
		int h, l;

		if (*p != '%') {
			*o++ = *p;
			continue;
		}
		h = hexval(p[1]);
		l = h < 0 ? -1 : hexval(p[2]);
		if (l < 0 || (!h && !l))
			return -1;
		*o++ = (char)(h * 16 + l);
		p += 2;
	}
	*o = 0;
	return 0;
}
