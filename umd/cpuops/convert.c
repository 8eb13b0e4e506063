// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Format conversions between the application's tensors and the NPU's:
 * float NCHW <-> int8 HWC with scale and zero point, layout changes.
 *
 * quantize and dequantize are ONNX QuantizeLinear and DequantizeLinear
 * with a per-tensor scale, computed as onnxruntime does in float32:
 * q = saturate(round_half_even(x / scale) + zero_point) (the quotient in
 * float; a NaN refused, naming the element) and
 * x = (float)(q - zero_point) * scale: umd/hostconv.h, the one rounding
 * of libvpux, the compiler and the tools. FP16 is include/hw's
 * vpux_f32_to_f16()/vpux_f16_to_f32(). Every function checks its
 * arguments' types and its buffers' sizes (exactly what the shape needs)
 * and fails with a message that names the argument
 * (Documentation/run-recipes.rst lists the functions).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuops.h"
#include "float_args.h"
#include "hostconv.h"
#include "vpux_float.h"

#define CONV_MAX_RANK 6

static int arg_buf(const struct vpux_cpu_call *c, const char *fn,
		   unsigned int i, const char *what,
		   const struct vpux_cpu_buffer **b)
{
	int ret = fa_want(c, fn, i, what, VPUX_CPU_ARG_BUFFER);

	if (ret)
		return ret;
	*b = &c->args[i].buf;
	if (!(*b)->data && (*b)->size)
		return fa_fail(c, fn, "argument %u (%s): no memory", i, what);
	return 0;
}

/* a decimal float > 0 and finite; "%.9g" of a float32 gives it back */
static int arg_scale(const struct vpux_cpu_call *c, const char *fn,
		     unsigned int i, float *scale)
{
	const char *s;
	char *end;
	int ret = fa_want(c, fn, i, "scale", VPUX_CPU_ARG_STRING);

	if (ret)
		return ret;
	s = c->args[i].str;
	errno = 0;
	*scale = strtof(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(*scale) ||
	    !(*scale > 0))
		return fa_fail(c, fn,
			    "argument %u (scale): \"%s\" is not a finite decimal float > 0",
			    i, s);
	return 0;
}

/* "int8" (-128..127) or "uint8" (0..255): *@lo, *@hi */
static int arg_type(const struct vpux_cpu_call *c, const char *fn,
		    unsigned int i, int *is_signed)
{
	int ret = fa_want(c, fn, i, "type", VPUX_CPU_ARG_STRING);

	if (ret)
		return ret;
	if (c->args[i].str && !strcmp(c->args[i].str, "int8"))
		*is_signed = 1;
	else if (c->args[i].str && !strcmp(c->args[i].str, "uint8"))
		*is_signed = 0;
	else
		return fa_fail(c, fn, "argument %u (type): \"%s\" is not int8 or uint8",
			    i, c->args[i].str ? c->args[i].str : "(null)");
	return 0;
}

static int arg_zp(const struct vpux_cpu_call *c, const char *fn,
		  unsigned int i, int is_signed, int32_t *zp)
{
	int64_t v;
	int ret = fa_want(c, fn, i, "zero_point", VPUX_CPU_ARG_INT);

	if (ret)
		return ret;
	v = c->args[i].i;
	if (is_signed ? v < -128 || v > 127 : v < 0 || v > 255)
		return fa_fail(c, fn, "argument %u (zero_point): %lld outside %s",
			    i, (long long)v, is_signed ? "-128..127" : "0..255");
	*zp = (int32_t)v;
	return 0;
}

/*
 * "d0,d1,..." into @d: 1..CONV_MAX_RANK values, each 1..@max; *@rank
 */
static int arg_list(const struct vpux_cpu_call *c, const char *fn,
		    unsigned int i, const char *what, uint64_t min,
		    uint64_t max, uint64_t *d, unsigned int *rank)
{
	const char *s, *p;
	char *end;
	unsigned int n = 0;
	int ret = fa_want(c, fn, i, what, VPUX_CPU_ARG_STRING);

	if (ret)
		return ret;
	s = c->args[i].str;
	p = s;
	for (;;) {
		unsigned long long v;

		if (*p < '0' || *p > '9')
			break;
		if (n == CONV_MAX_RANK)
			return fa_fail(c, fn, "argument %u (%s): \"%s\" has more than %d values",
				    i, what, s, CONV_MAX_RANK);
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || v < min || v > max)
			return fa_fail(c, fn, "argument %u (%s): \"%s\": value %u outside %llu..%llu",
				    i, what, s, n, (unsigned long long)min,
				    (unsigned long long)max);
		d[n++] = v;
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	if (!n || *p)
		return fa_fail(c, fn, "argument %u (%s): \"%s\" is not a comma-separated list of integers",
			    i, what, s);
	*rank = n;
	return 0;
}

/* elements of @d, or 0 if the product exceeds 2^40 */
static uint64_t count(const uint64_t *d, unsigned int rank)
{
	uint64_t n = 1;
	unsigned int k;

	for (k = 0; k < rank; k++) {
		if (d[k] && n > (1ull << 40) / d[k])
			return 0;
		n *= d[k];
	}
	return n;
}

/* x quantized into dst[i] (umd/hostconv.h); a NaN refused */
static int q8(const struct vpux_cpu_call *c, const char *fn, float x,
	      float scale, int32_t zp, int is_signed, uint8_t *dst,
	      uint64_t i, uint64_t at)
{
	int32_t q;

	if (hc_quantize_f32(x, scale, zp, is_signed ? -128 : 0,
			    is_signed ? 127 : 255, &q))
		return fa_fail(c, fn, "argument 0 (src): element %llu is NaN (a NaN has no quantized value)",
			       (unsigned long long)at);
	dst[i] = (uint8_t)q;
	return 0;
}

static float deq(uint8_t raw, int32_t zp, int is_signed, float scale)
{
	int32_t q = is_signed ? (int32_t)(int8_t)raw : (int32_t)raw;

	return hc_dequantize_f32(q, zp, scale);
}

/* the float at element @i of @p (a view need not be 4-byte aligned) */
static float ld_f32(const void *p, uint64_t i)
{
	float v;

	memcpy(&v, (const char *)p + i * 4, 4);
	return v;
}

static void st_f32(void *p, uint64_t i, float v)
{
	memcpy((char *)p + i * 4, &v, 4);
}

/* the scale/zero_point/type arguments at @i, @i + 1, @i + 2 */
static int quant_args(const struct vpux_cpu_call *c, const char *fn,
		      unsigned int i, float *scale, int32_t *zp,
		      int *is_signed)
{
	int ret = arg_scale(c, fn, i, scale);

	if (!ret)
		ret = arg_type(c, fn, i + 2, is_signed);
	if (!ret)
		ret = arg_zp(c, fn, i + 1, *is_signed, zp);
	return ret;
}

/* quantize: 0 src f32, 1 dst i8/u8, 2 scale, 3 zero_point, 4 type */
static int quantize(const struct vpux_cpu_call *c)
{
	static const char fn[] = "quantize";
	const struct vpux_cpu_buffer *src, *dst;
	float scale;
	int32_t zp;
	int is_signed, ret;
	uint64_t i, n;

	ret = arg_buf(c, fn, 0, "src", &src);
	if (!ret)
		ret = arg_buf(c, fn, 1, "dst", &dst);
	if (!ret)
		ret = quant_args(c, fn, 2, &scale, &zp, &is_signed);
	if (ret)
		return ret;
	if (src->size % 4)
		return fa_fail(c, fn, "argument 0 (src): %llu bytes, not a multiple of 4 (float32)",
			    (unsigned long long)src->size);
	n = src->size / 4;
	if (dst->size != n)
		return fa_fail(c, fn, "argument 1 (dst): %llu bytes, %llu needed (one per float of src)",
			    (unsigned long long)dst->size,
			    (unsigned long long)n);
	for (i = 0; i < n; i++) {
		ret = q8(c, fn, ld_f32(src->data, i), scale, zp, is_signed,
			 dst->data, i, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* dequantize: 0 src i8/u8, 1 dst f32, 2 scale, 3 zero_point, 4 type */
static int dequantize(const struct vpux_cpu_call *c)
{
	static const char fn[] = "dequantize";
	const struct vpux_cpu_buffer *src, *dst;
	float scale;
	int32_t zp;
	int is_signed, ret;
	uint64_t i;

	ret = arg_buf(c, fn, 0, "src", &src);
	if (!ret)
		ret = arg_buf(c, fn, 1, "dst", &dst);
	if (!ret)
		ret = quant_args(c, fn, 2, &scale, &zp, &is_signed);
	if (ret)
		return ret;
	if (dst->size != src->size * 4)
		return fa_fail(c, fn, "argument 1 (dst): %llu bytes, %llu needed (a float per byte of src)",
			    (unsigned long long)dst->size,
			    (unsigned long long)src->size * 4);
	for (i = 0; i < src->size; i++)
		st_f32(dst->data, i, deq(((const uint8_t *)src->data)[i], zp,
					 is_signed, scale));
	return 0;
}

/* transpose: 0 src, 1 dst, 2 element size, 3 shape of src, 4 perm */
static int transpose(const struct vpux_cpu_call *c)
{
	static const char fn[] = "transpose";
	const struct vpux_cpu_buffer *src, *dst;
	uint64_t shape[CONV_MAX_RANK], perm[CONV_MAX_RANK];
	uint64_t sstride[CONV_MAX_RANK], ostride[CONV_MAX_RANK];
	uint64_t oshape[CONV_MAX_RANK], idx[CONV_MAX_RANK] = { 0 };
	unsigned int rank, prank, k, seen = 0;
	uint64_t n, es, i, off = 0;
	int ret;

	ret = arg_buf(c, fn, 0, "src", &src);
	if (!ret)
		ret = arg_buf(c, fn, 1, "dst", &dst);
	if (!ret)
		ret = fa_want(c, fn, 2, "element size", VPUX_CPU_ARG_INT);
	if (ret)
		return ret;
	es = (uint64_t)c->args[2].i;
	if (c->args[2].i != 1 && c->args[2].i != 2 && c->args[2].i != 4)
		return fa_fail(c, fn, "argument 2 (element size): %lld is not 1, 2 or 4",
			    (long long)c->args[2].i);
	ret = arg_list(c, fn, 3, "shape", 1, UINT32_MAX, shape, &rank);
	if (!ret)
		ret = arg_list(c, fn, 4, "perm", 0, CONV_MAX_RANK - 1, perm,
			       &prank);
	if (ret)
		return ret;
	if (prank != rank)
		return fa_fail(c, fn, "argument 4 (perm): %u values for a shape of rank %u",
			    prank, rank);
	for (k = 0; k < rank; k++) {
		if (perm[k] >= rank || seen & 1u << perm[k])
			return fa_fail(c, fn, "argument 4 (perm): \"%s\" is not a permutation of 0..%u",
				    c->args[4].str, rank - 1);
		seen |= 1u << perm[k];
	}
	n = count(shape, rank);
	if (!n)
		return fa_fail(c, fn, "argument 3 (shape): \"%s\" is too large",
			    c->args[3].str);
	if (src->size != n * es)
		return fa_fail(c, fn, "argument 0 (src): %llu bytes, the shape needs %llu",
			    (unsigned long long)src->size,
			    (unsigned long long)(n * es));
	if (dst->size != n * es)
		return fa_fail(c, fn, "argument 1 (dst): %llu bytes, the shape needs %llu",
			    (unsigned long long)dst->size,
			    (unsigned long long)(n * es));
	/* source strides in elements; the output walks dims perm[0..] */
	sstride[rank - 1] = 1;
	for (k = rank - 1; k > 0; k--)
		sstride[k - 1] = sstride[k] * shape[k];
	for (k = 0; k < rank; k++) {
		oshape[k] = shape[perm[k]];
		ostride[k] = sstride[perm[k]];
	}
	for (i = 0; i < n; i++) {
		memcpy((char *)dst->data + i * es,
		       (const char *)src->data + off * es, es);
		for (k = rank; k-- > 0;) {
			off += ostride[k];
			if (++idx[k] < oshape[k])
				break;
			off -= ostride[k] * oshape[k];
			idx[k] = 0;
		}
	}
	return 0;
}

/* the "N,C,H,W" argument at @i: its four values and element count */
static int arg_nchw(const struct vpux_cpu_call *c, const char *fn,
		    unsigned int i, uint64_t *d, uint64_t *n)
{
	unsigned int rank;
	int ret = arg_list(c, fn, i, "shape", 1, UINT32_MAX, d, &rank);

	if (ret)
		return ret;
	if (rank != 4)
		return fa_fail(c, fn, "argument %u (shape): \"%s\" is not N,C,H,W",
			    i, c->args[i].str);
	*n = count(d, 4);
	if (!*n)
		return fa_fail(c, fn, "argument %u (shape): \"%s\" is too large",
			    i, c->args[i].str);
	return 0;
}

/*
 * quantize_nchw_to_nhwc: 0 src f32 NCHW, 1 dst NHWC i8/u8, 2 shape
 * "N,C,H,W", 3 scale, 4 zero_point, 5 type
 */
static int quantize_nchw_to_nhwc(const struct vpux_cpu_call *c)
{
	static const char fn[] = "quantize_nchw_to_nhwc";
	const struct vpux_cpu_buffer *src, *dst;
	uint64_t d[CONV_MAX_RANK], n, b, ch, hw, N, C, HW;
	float scale;
	int32_t zp;
	int is_signed, ret;

	ret = arg_buf(c, fn, 0, "src", &src);
	if (!ret)
		ret = arg_buf(c, fn, 1, "dst", &dst);
	if (!ret)
		ret = arg_nchw(c, fn, 2, d, &n);
	if (!ret)
		ret = quant_args(c, fn, 3, &scale, &zp, &is_signed);
	if (ret)
		return ret;
	if (src->size != n * 4)
		return fa_fail(c, fn, "argument 0 (src): %llu bytes, the shape needs %llu (float32)",
			    (unsigned long long)src->size,
			    (unsigned long long)(n * 4));
	if (dst->size != n)
		return fa_fail(c, fn, "argument 1 (dst): %llu bytes, the shape needs %llu",
			    (unsigned long long)dst->size,
			    (unsigned long long)n);
	N = d[0];
	C = d[1];
	HW = d[2] * d[3];
	for (b = 0; b < N; b++)
		for (ch = 0; ch < C; ch++)
			for (hw = 0; hw < HW; hw++) {
				uint64_t at = (b * C + ch) * HW + hw;

				ret = q8(c, fn, ld_f32(src->data, at), scale,
					 zp, is_signed, dst->data,
					 (b * HW + hw) * C + ch, at);
				if (ret)
					return ret;
			}
	return 0;
}

/*
 * dequantize_nhwc_to_nchw: 0 src NHWC i8/u8, 1 dst f32 NCHW, 2 shape
 * "N,C,H,W" of dst, 3 scale, 4 zero_point, 5 type
 */
static int dequantize_nhwc_to_nchw(const struct vpux_cpu_call *c)
{
	static const char fn[] = "dequantize_nhwc_to_nchw";
	const struct vpux_cpu_buffer *src, *dst;
	uint64_t d[CONV_MAX_RANK], n, b, ch, hw, N, C, HW;
	float scale;
	int32_t zp;
	int is_signed, ret;

	ret = arg_buf(c, fn, 0, "src", &src);
	if (!ret)
		ret = arg_buf(c, fn, 1, "dst", &dst);
	if (!ret)
		ret = arg_nchw(c, fn, 2, d, &n);
	if (!ret)
		ret = quant_args(c, fn, 3, &scale, &zp, &is_signed);
	if (ret)
		return ret;
	if (src->size != n)
		return fa_fail(c, fn, "argument 0 (src): %llu bytes, the shape needs %llu",
			    (unsigned long long)src->size,
			    (unsigned long long)n);
	if (dst->size != n * 4)
		return fa_fail(c, fn, "argument 1 (dst): %llu bytes, the shape needs %llu (float32)",
			    (unsigned long long)dst->size,
			    (unsigned long long)(n * 4));
	N = d[0];
	C = d[1];
	HW = d[2] * d[3];
	for (b = 0; b < N; b++)
		for (ch = 0; ch < C; ch++)
			for (hw = 0; hw < HW; hw++) {
				uint8_t q = ((const uint8_t *)src->data)
					[(b * HW + hw) * C + ch];

				st_f32(dst->data, (b * C + ch) * HW + hw,
				       deq(q, zp, is_signed, scale));
			}
	return 0;
}

/*
 * to_f16 (0 src f32, 1 dst f16) and from_f16 (0 src f16, 1 dst f32): the
 * boundary of an NPU part whose tensors are FP16 (the ONNX layout).
 */
static int f16_conv(const struct vpux_cpu_call *c, int to)
{
	const char *fn = to ? "to_f16" : "from_f16";
	const struct vpux_cpu_buffer *src, *dst;
	uint64_t i, n;
	int ret;

	ret = arg_buf(c, fn, 0, "src", &src);
	if (!ret)
		ret = arg_buf(c, fn, 1, "dst", &dst);
	if (ret)
		return ret;
	if (src->size % (to ? 4 : 2))
		return fa_fail(c, fn, "argument 0 (src): %llu bytes, not a multiple of %d (%s)",
			       (unsigned long long)src->size, to ? 4 : 2,
			       to ? "float32" : "float16");
	n = src->size / (to ? 4 : 2);
	if (dst->size != n * (to ? 2 : 4))
		return fa_fail(c, fn, "argument 1 (dst): %llu bytes, %llu needed",
			       (unsigned long long)dst->size,
			       (unsigned long long)(n * (to ? 2 : 4)));
	for (i = 0; i < n; i++) {
		const uint8_t *s = (const uint8_t *)src->data;
		uint8_t *d = dst->data;

		if (to) {
			uint32_t x = (uint32_t)s[4 * i] | (uint32_t)s[4 * i + 1] << 8 |
				     (uint32_t)s[4 * i + 2] << 16 |
				     (uint32_t)s[4 * i + 3] << 24;
			uint16_t h = vpux_f32_to_f16(x);

			d[2 * i] = (uint8_t)h;
			d[2 * i + 1] = (uint8_t)(h >> 8);
		} else {
			uint32_t x = vpux_f16_to_f32((uint16_t)(s[2 * i] |
							   s[2 * i + 1] << 8));

			d[4 * i] = (uint8_t)x;
			d[4 * i + 1] = (uint8_t)(x >> 8);
			d[4 * i + 2] = (uint8_t)(x >> 16);
			d[4 * i + 3] = (uint8_t)(x >> 24);
		}
	}
	return 0;
}

static int to_f16(const struct vpux_cpu_call *c)
{
	return f16_conv(c, 1);
}

static int from_f16(const struct vpux_cpu_call *c)
{
	return f16_conv(c, 0);
}

const struct cpuops_entry cpuops_convert[] = {
	{ "to_f16", 2, to_f16 },
	{ "from_f16", 2, from_f16 },
	{ "quantize", 5, quantize },
	{ "dequantize", 5, dequantize },
	{ "transpose", 5, transpose },
	{ "quantize_nchw_to_nhwc", 6, quantize_nchw_to_nhwc },
	{ "dequantize_nhwc_to_nchw", 6, dequantize_nhwc_to_nchw },
	{ NULL, 0, NULL },
};
