/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * SHAVE software-kernel argument ABI of the vpux NPU model.
 *
 * A SHAVE op names a kernel of the model's built-in table
 * (vpux_hw_shave_desc.kernel_id) and points at an opaque argument buffer
 * of args_size bytes. The buffer is one of the parameter structs below:
 * MemRefData-style buffer records followed by kernel-specific scalars.
 * Every kernel checks args_size against sizeof() of its struct exactly and
 * every record before it touches memory. Documentation/compute-ops.rst
 * describes each field and every check.
 *
 * All fields little endian; every struct is a multiple of 8 bytes with
 * naturally aligned members, so the layout is the same on 32- and 64-bit
 * builds and for the compiler that writes the buffer. Includable from the
 * kernel, user space and freestanding code: compiler-provided types only.
 */
#ifndef VPUX_SHAVE_ABI_H
#define VPUX_SHAVE_ABI_H

#include "vpux_regs.h"

/* ---- kernel ids (vpux_hw_shave_desc.kernel_id) ---- */
#define VPUX_SHAVE_KERNEL_CLAMP		1u	/* struct vpux_shave_clamp_args */
#define VPUX_SHAVE_KERNEL_SOFTMAX	2u	/* struct vpux_shave_softmax_args */
#define VPUX_SHAVE_KERNEL_SIGMOID	3u	/* struct vpux_shave_lut_args */
#define VPUX_SHAVE_KERNEL_TANH		4u	/* struct vpux_shave_lut_args */
#define VPUX_SHAVE_KERNEL_PERMUTE	5u	/* struct vpux_shave_permute_args */
#define VPUX_SHAVE_KERNEL_QUANTIZE	6u	/* struct vpux_shave_quantize_args */
/* FP16/FP32 kernels (ids from VPUX_SHAVE_KERNEL_FIRST_F) */
#define VPUX_SHAVE_KERNEL_CONVERT	7u	/* struct vpux_shave_convert_args */
#define VPUX_SHAVE_KERNEL_UNARY		8u	/* struct vpux_shave_unary_args */
#define VPUX_SHAVE_KERNEL_BINARY	9u	/* struct vpux_shave_binary_args */
#define VPUX_SHAVE_KERNEL_SOFTMAX_F	10u	/* struct vpux_shave_fsoftmax_args */
#define VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F	11u	/* struct vpux_shave_fsoftmax_args */
#define VPUX_SHAVE_KERNEL_LAYERNORM	12u	/* struct vpux_shave_layernorm_args */
#define VPUX_SHAVE_KERNEL_REDUCE	13u	/* struct vpux_shave_reduce_args */
#define VPUX_SHAVE_KERNEL_RESIZE	14u	/* struct vpux_shave_resize_args */
#define VPUX_SHAVE_KERNEL_GATHER	15u	/* struct vpux_shave_gather_args */
#define VPUX_SHAVE_KERNEL_PAD		16u	/* struct vpux_shave_pad_args */
#define VPUX_SHAVE_KERNELS		17u	/* ids are 1 .. VPUX_SHAVE_KERNELS - 1 */
#define VPUX_SHAVE_KERNEL_FIRST_F	VPUX_SHAVE_KERNEL_CONVERT

/*
 * ---- element data types (vpux_memref.data_type) ----
 * The engine's own codes. libvpux's API types (VPUX_DT_* in vpux.h) use
 * the same values; libvpux asserts that where it converts.
 */
#define VPUX_SHAVE_DT_U8		1u
#define VPUX_SHAVE_DT_I8		2u
#define VPUX_SHAVE_DT_I32		3u
#define VPUX_SHAVE_DT_F16		4u	/* IEEE binary16 */
#define VPUX_SHAVE_DT_F32		5u	/* IEEE binary32 */

/* bits of one element of type @dt, 0 for an unknown type */
static inline __UINT32_TYPE__ vpux_shave_dt_bits(__UINT32_TYPE__ dt)
{
	switch (dt) {
	case VPUX_SHAVE_DT_U8:
	case VPUX_SHAVE_DT_I8:
		return 8;
	case VPUX_SHAVE_DT_F16:
		return 16;
	case VPUX_SHAVE_DT_I32:
	case VPUX_SHAVE_DT_F32:
		return 32;
	default:
		return 0;
	}
}

#define VPUX_MEMREF_MAX_RANK		6u

/*
 * Packed dims order, as in the NN compiler: one nibble per dimension,
 * outermost first, each nibble = logical dim index + 1; the least
 * significant nibble is the innermost (fastest varying) dimension and the
 * nibbles above the rank are 0. NCHW = 0x1234, NHWC = 0x1342 (channels
 * innermost), CHW = 0x123, HWC = 0x231.
 */
#define VPUX_ORDER_NCHW			0x1234ull
#define VPUX_ORDER_NHWC			0x1342ull
#define VPUX_ORDER_CHW			0x123ull
#define VPUX_ORDER_HWC			0x231ull

/**
 * struct vpux_memref - one buffer argument (after the seed's MemRefData)
 * @addr: window address (VPUX_WADDR) of logical element 0
 * @is_static: 1 = @dims are the shape; 0 = dynamic: @dims are the upper
 *	bounds the buffer was sized for, the actual dims are u32[@rank] at
 *	window address @dims_addr (read for inputs, written for outputs)
 * @rank: number of dims, 1..VPUX_MEMREF_MAX_RANK
 * @data_type: VPUX_SHAVE_DT_*
 * @dims_order: packed memory order of the logical dims (see above)
 * @dims_addr: dynamic only, else 0
 * @reserved: 0
 * @dims: logical dims (entries >= @rank are 0), each >= 1
 * @strides: stride of each logical dim in BITS (entries >= @rank are 0);
 *	multiples of 8, innermost >= element size, each outer stride >= the
 *	next inner stride times its dim (no overlap)
 */
struct vpux_memref {
	__UINT32_TYPE__ addr;
	__UINT32_TYPE__ is_static;
	__UINT32_TYPE__ rank;
	__UINT32_TYPE__ data_type;
	__UINT64_TYPE__ dims_order;
	__UINT32_TYPE__ dims_addr;
	__UINT32_TYPE__ reserved;
	__UINT32_TYPE__ dims[VPUX_MEMREF_MAX_RANK];
	__UINT64_TYPE__ strides[VPUX_MEMREF_MAX_RANK];
};

/**
 * vpux_memref_compact() - describe a static, compact tensor
 * @m: record to fill (every field is written)
 * @addr: window address of element 0
 * @data_type: VPUX_SHAVE_DT_*
 * @rank: 1..VPUX_MEMREF_MAX_RANK
 * @dims: @rank logical dims
 * @order: packed dims order (e.g. VPUX_ORDER_NHWC for logical N, C, H, W)
 *
 * Strides follow @order with no padding, innermost first. The caller keeps
 * @rank and @order valid; the kernels check the result like any record.
 */
static inline void vpux_memref_compact(struct vpux_memref *m,
				       __UINT32_TYPE__ addr,
				       __UINT32_TYPE__ data_type,
				       __UINT32_TYPE__ rank,
				       const __UINT32_TYPE__ *dims,
				       __UINT64_TYPE__ order)
{
	__UINT64_TYPE__ bits = vpux_shave_dt_bits(data_type);
	__UINT32_TYPE__ i;

	m->addr = addr;
	m->is_static = 1;
	m->rank = rank;
	m->data_type = data_type;
	m->dims_order = order;
	m->dims_addr = 0;
	m->reserved = 0;
	for (i = 0; i < VPUX_MEMREF_MAX_RANK; i++) {
		m->dims[i] = i < rank ? dims[i] : 0;
		m->strides[i] = 0;
	}
	for (i = 0; i < rank && i < VPUX_MEMREF_MAX_RANK; i++) {
		__UINT32_TYPE__ d = (__UINT32_TYPE__)(order >> (4 * i) & 0xf) - 1;

		if (d >= VPUX_MEMREF_MAX_RANK)
			return;
		m->strides[d] = bits;
		bits *= m->dims[d];
	}
}

/*
 * Scales are struct vpux_hw_requant (vpux_regs.h): value * mult /
 * 2^(31 + shift) rounded as vpux_requant() does; mult > 0, shift -31..31.
 */

/*
 * CLAMP: out = min(max(in, min), max) on raw values. in and out have the
 * same data type (U8, I8 or I32) and dims; min <= max.
 */
struct vpux_shave_clamp_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__INT32_TYPE__ min;
	__INT32_TYPE__ max;
};

/*
 * SIGMOID, TANH by lookup table. in U8/I8, out U8/I8, same dims.
 * x = vpux_requant(q - in_zp, in_scale) is the real input in Q16.16;
 * out = clamp(vpux_requant(f(x) in Q16.16, out_scale) + out_zp).
 */
struct vpux_shave_lut_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__INT32_TYPE__ in_zp;
	__INT32_TYPE__ out_zp;
	struct vpux_hw_requant in_scale;
	struct vpux_hw_requant out_scale;
};

/*
 * SOFTMAX along logical dim @axis. in U8/I8, out U8/I8, same dims.
 * t = vpux_requant(max - q, beta_scale) is beta * (max - x) in Q16.16;
 * p = exp(-t) / sum exp(-t) in Q16.16;
 * out = clamp(vpux_requant(p, out_scale) + out_zp).
 */
struct vpux_shave_softmax_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ axis;
	__INT32_TYPE__ out_zp;
	struct vpux_hw_requant beta_scale;
	struct vpux_hw_requant out_scale;
};

/*
 * PERMUTE: out logical dim i = in logical dim perm[i] (transpose); with
 * the identity perm it is a pure reorder between dims orders / strides.
 * Same data type, same rank; perm entries >= rank are 0.
 */
struct vpux_shave_permute_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ perm[VPUX_MEMREF_MAX_RANK];
};

/*
 * QUANTIZE / requantize: in U8/I8/I32, out U8/I8, same dims.
 * out = clamp(vpux_requant(q - in_zp, scale) + out_zp, out type range).
 */
struct vpux_shave_quantize_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__INT32_TYPE__ in_zp;
	__INT32_TYPE__ out_zp;
	struct vpux_hw_requant scale;
};

/*
 * ---- FP16/FP32 kernels ----
 * Scalars named "FP32" are IEEE binary32 bit patterns. Every value is
 * computed in FP32 with the integer soft-float of vpux_float.h (inputs
 * convert exactly, one rounding per operation, in the order
 * Documentation/compute-ops.rst gives) and rounded once more to an FP16
 * output; NaN results are canonical. Reserved fields are 0. Unless a
 * kernel says otherwise the tensors are F16 or F32, each independently.
 */

/*
 * CONVERT: same dims; the data types choose the conversion:
 * F16/F32 -> F16/F32: value conversion (scale and zero_point 0);
 * F16/F32 -> U8/I8: quantize, q = sat(rne(x / scale) + zero_point),
 *	NaN -> zero_point;
 * U8/I8/I32 -> F16/F32: dequantize, (q - zero_point) * scale.
 * scale: FP32, finite and > 0; zero_point inside the integer type.
 */
struct vpux_shave_convert_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ scale;
	__INT32_TYPE__ zero_point;
};

/* UNARY function codes (alpha, beta: FP32; 0 where unused) */
#define VPUX_SHAVE_UN_EXP		0u
#define VPUX_SHAVE_UN_LOG		1u
#define VPUX_SHAVE_UN_SIGMOID		2u
#define VPUX_SHAVE_UN_TANH		3u
#define VPUX_SHAVE_UN_ERF		4u
#define VPUX_SHAVE_UN_GELU_ERF		5u
#define VPUX_SHAVE_UN_GELU_TANH		6u
#define VPUX_SHAVE_UN_HARD_SIGMOID	7u	/* alpha, beta finite */
#define VPUX_SHAVE_UN_HARD_SWISH	8u
#define VPUX_SHAVE_UN_SILU		9u
#define VPUX_SHAVE_UN_SQRT		10u
#define VPUX_SHAVE_UN_RECIP		11u
#define VPUX_SHAVE_UN_NEG		12u
#define VPUX_SHAVE_UN_ABS		13u
#define VPUX_SHAVE_UN_RELU		14u
#define VPUX_SHAVE_UN_LEAKY_RELU	15u	/* alpha = slope, finite */
#define VPUX_SHAVE_UN_CLIP		16u	/* alpha = min <= beta = max, not NaN */
#define VPUX_SHAVE_UN_COUNT		17u

/* UNARY: out = f(in), same dims */
struct vpux_shave_unary_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ func;		/* VPUX_SHAVE_UN_* */
	__UINT32_TYPE__ reserved;
	__UINT32_TYPE__ alpha;		/* FP32 */
	__UINT32_TYPE__ beta;		/* FP32 */
};

/* BINARY function codes */
#define VPUX_SHAVE_BIN_ADD		0u
#define VPUX_SHAVE_BIN_SUB		1u
#define VPUX_SHAVE_BIN_MUL		2u
#define VPUX_SHAVE_BIN_DIV		3u
#define VPUX_SHAVE_BIN_POW		4u
#define VPUX_SHAVE_BIN_MAX		5u
#define VPUX_SHAVE_BIN_MIN		6u
#define VPUX_SHAVE_BIN_COUNT		7u

/*
 * BINARY: out = f(in, in2) with numpy broadcasting: the ranks are aligned
 * at the innermost (last) logical dim, out.rank = max of the two, each out
 * dim equals the larger input dim; an input dim is that or 1 (or absent).
 */
struct vpux_shave_binary_args {
	struct vpux_memref in;
	struct vpux_memref out;
	struct vpux_memref in2;
	__UINT32_TYPE__ func;		/* VPUX_SHAVE_BIN_* */
	__UINT32_TYPE__ reserved;
};

/* SOFTMAX_F, LOG_SOFTMAX_F along logical dim @axis; same dims */
struct vpux_shave_fsoftmax_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ axis;
	__UINT32_TYPE__ reserved;
};

#define VPUX_SHAVE_LN_SCALE		1u	/* flags: @scale is used */
#define VPUX_SHAVE_LN_BIAS		2u	/* flags: @bias is used */

/*
 * LAYERNORM over logical dims axis..rank-1; same dims. scale and bias,
 * when their flag is set, have rank - axis dims equal to in.dims[axis..];
 * an unused record is all zero. epsilon: FP32, finite, >= 0.
 */
struct vpux_shave_layernorm_args {
	struct vpux_memref in;
	struct vpux_memref out;
	struct vpux_memref scale;
	struct vpux_memref bias;
	__UINT32_TYPE__ axis;
	__UINT32_TYPE__ flags;		/* VPUX_SHAVE_LN_* */
	__UINT32_TYPE__ epsilon;	/* FP32 */
	__UINT32_TYPE__ reserved;
};

#define VPUX_SHAVE_RED_SUM		0u
#define VPUX_SHAVE_RED_MEAN		1u
#define VPUX_SHAVE_RED_MAX		2u
#define VPUX_SHAVE_RED_MIN		3u
#define VPUX_SHAVE_RED_COUNT		4u

/*
 * REDUCE over the logical dims in the bitmask @axes (bit i = dim i,
 * non-empty, below the rank): out.rank = in.rank, out.dims[i] = 1 for a
 * reduced dim, in.dims[i] otherwise (keepdims = 0 is the caller's view).
 */
struct vpux_shave_reduce_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ func;		/* VPUX_SHAVE_RED_* */
	__UINT32_TYPE__ axes;
};

#define VPUX_SHAVE_RESIZE_NEAREST	0u
#define VPUX_SHAVE_RESIZE_LINEAR	1u	/* bilinear over the last two dims */
#define VPUX_SHAVE_RESIZE_MODES		2u

/* coordinate transformation modes (ONNX Resize) */
#define VPUX_SHAVE_COORD_HALF_PIXEL		0u
#define VPUX_SHAVE_COORD_PYTORCH_HALF_PIXEL	1u
#define VPUX_SHAVE_COORD_ALIGN_CORNERS		2u
#define VPUX_SHAVE_COORD_ASYMMETRIC		3u
#define VPUX_SHAVE_COORD_TF_HALF_PIXEL_FOR_NN	4u
#define VPUX_SHAVE_COORD_MODES			5u

/* nearest modes (ONNX Resize) */
#define VPUX_SHAVE_NEAREST_ROUND_PREFER_FLOOR	0u
#define VPUX_SHAVE_NEAREST_ROUND_PREFER_CEIL	1u
#define VPUX_SHAVE_NEAREST_FLOOR		2u
#define VPUX_SHAVE_NEAREST_CEIL			3u
#define VPUX_SHAVE_NEAREST_MODES		4u

/*
 * RESIZE: same rank and data type (F16/F32), a static output of any dims;
 * scales[i] (FP32, finite, > 0; 0 beyond the rank) is ONNX's scale of
 * logical dim i. LINEAR resizes the last two dims only (the others: scale
 * 1.0, same dims); nearest is 0 for LINEAR.
 */
struct vpux_shave_resize_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ mode;		/* VPUX_SHAVE_RESIZE_* */
	__UINT32_TYPE__ coord;		/* VPUX_SHAVE_COORD_* */
	__UINT32_TYPE__ nearest;	/* VPUX_SHAVE_NEAREST_* */
	__UINT32_TYPE__ reserved;
	__UINT32_TYPE__ scales[VPUX_MEMREF_MAX_RANK];	/* FP32 */
};

/*
 * GATHER along logical dim @axis with I32 @indices (ONNX Gather): in and
 * out of the same data type (any), out dims = in.dims[0..axis-1],
 * indices.dims, in.dims[axis+1..] (rank in + indices - 1 <= 6). An index
 * below 0 counts from the end; one outside [-dim, dim - 1] fails the op
 * with VPUX_ERR(ARGS) before any output is written.
 */
struct vpux_shave_gather_args {
	struct vpux_memref in;
	struct vpux_memref out;
	struct vpux_memref indices;
	__UINT32_TYPE__ axis;
	__UINT32_TYPE__ reserved;
};

#define VPUX_SHAVE_PAD_CONSTANT		0u
#define VPUX_SHAVE_PAD_REFLECT		1u	/* pads <= dim - 1 */
#define VPUX_SHAVE_PAD_EDGE		2u
#define VPUX_SHAVE_PAD_MODES		3u

/*
 * PAD: same rank and data type (F16/F32); out.dims[i] = begin[i] +
 * in.dims[i] + end[i] (entries beyond the rank 0). value (FP32, stored
 * in the output type) for CONSTANT, 0 otherwise.
 */
struct vpux_shave_pad_args {
	struct vpux_memref in;
	struct vpux_memref out;
	__UINT32_TYPE__ mode;		/* VPUX_SHAVE_PAD_* */
	__UINT32_TYPE__ value;		/* FP32 */
	__UINT32_TYPE__ begin[VPUX_MEMREF_MAX_RANK];
	__UINT32_TYPE__ end[VPUX_MEMREF_MAX_RANK];
};

/* ---- cycle model (Documentation/compute-ops.rst) ---- */
#define VPUX_SHAVE_CYCLES_LAUNCH	200u	/* dispatch + argument checks */
#define VPUX_SHAVE_CYCLES_LUT_BUILD	2048u	/* 256 entries x 8 cycles */
#define VPUX_SHAVE_CYCLES_LINE		64u	/* softmax per-line reciprocal */

_Static_assert(sizeof(struct vpux_memref) == 104, "vpux_memref size");
_Static_assert(sizeof(struct vpux_shave_clamp_args) == 216, "clamp args");
_Static_assert(sizeof(struct vpux_shave_lut_args) == 232, "lut args");
_Static_assert(sizeof(struct vpux_shave_softmax_args) == 232, "softmax args");
_Static_assert(sizeof(struct vpux_shave_permute_args) == 232, "permute args");
_Static_assert(sizeof(struct vpux_shave_quantize_args) == 224, "quantize args");
_Static_assert(sizeof(struct vpux_shave_convert_args) == 216, "convert args");
_Static_assert(sizeof(struct vpux_shave_unary_args) == 224, "unary args");
_Static_assert(sizeof(struct vpux_shave_binary_args) == 320, "binary args");
_Static_assert(sizeof(struct vpux_shave_fsoftmax_args) == 216, "fsoftmax args");
_Static_assert(sizeof(struct vpux_shave_layernorm_args) == 432, "layernorm args");
_Static_assert(sizeof(struct vpux_shave_reduce_args) == 216, "reduce args");
_Static_assert(sizeof(struct vpux_shave_resize_args) == 248, "resize args");
_Static_assert(sizeof(struct vpux_shave_gather_args) == 320, "gather args");
_Static_assert(sizeof(struct vpux_shave_pad_args) == 264, "pad args");

/*
 * vpux_shave_args_size() - the exact argument-buffer size of a kernel,
 * 0 for an unknown id: what the engine checks args_size against, and what
 * the loader and assembler require of an invocation.
 */
static inline unsigned int vpux_shave_args_size(unsigned int kernel_id)
{
	switch (kernel_id) {
	case VPUX_SHAVE_KERNEL_CLAMP:
		return sizeof(struct vpux_shave_clamp_args);
	case VPUX_SHAVE_KERNEL_SOFTMAX:
		return sizeof(struct vpux_shave_softmax_args);
	case VPUX_SHAVE_KERNEL_SIGMOID:
	case VPUX_SHAVE_KERNEL_TANH:
		return sizeof(struct vpux_shave_lut_args);
	case VPUX_SHAVE_KERNEL_PERMUTE:
		return sizeof(struct vpux_shave_permute_args);
	case VPUX_SHAVE_KERNEL_QUANTIZE:
		return sizeof(struct vpux_shave_quantize_args);
	case VPUX_SHAVE_KERNEL_CONVERT:
		return sizeof(struct vpux_shave_convert_args);
	case VPUX_SHAVE_KERNEL_UNARY:
		return sizeof(struct vpux_shave_unary_args);
	case VPUX_SHAVE_KERNEL_BINARY:
		return sizeof(struct vpux_shave_binary_args);
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		return sizeof(struct vpux_shave_fsoftmax_args);
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		return sizeof(struct vpux_shave_layernorm_args);
	case VPUX_SHAVE_KERNEL_REDUCE:
		return sizeof(struct vpux_shave_reduce_args);
	case VPUX_SHAVE_KERNEL_RESIZE:
		return sizeof(struct vpux_shave_resize_args);
	case VPUX_SHAVE_KERNEL_GATHER:
		return sizeof(struct vpux_shave_gather_args);
	case VPUX_SHAVE_KERNEL_PAD:
		return sizeof(struct vpux_shave_pad_args);
	default:
		return 0;
	}
}

#endif /* VPUX_SHAVE_ABI_H */
