/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * libvpux internals: the one implementation of the conversions at the
 * host boundary and of the small host chores around them, shared by
 * libvpux (umd/host_io.c), the CPU functions of run recipes
 * (umd/cpuops/), the compiler (compiler/) and the tools (umd/hostconv.c;
 * Documentation/libvpux.rst, "One conversion").
 *
 * Quantization. q = saturate(round_half_even(x / scale) + zp) into
 * [lo, hi]:
 *  - the quotient is rounded half to even (nearbyint() in the default
 *    rounding mode), then the zero point added, then saturated;
 *  - +-Inf, or a quotient beyond the range, saturates to hi or lo;
 *  - a NaN has no quantized value: HC_QNAN is returned (*out is set to
 *    @zp, a defined value) and every caller turns it into an error that
 *    names the element (VPUX_E_INVAL at the host boundary and in the CPU
 *    functions, an unsupported node in the compiler).
 * Where the quotient is computed is the caller's precision, on purpose:
 * hc_quantize_f32() divides in float, as ONNX QuantizeLinear and
 * onnxruntime do (the host boundary, the CPU functions);
 * hc_quantize_f64() divides in double (the compiler's constants: the
 * bits its weights always had). A float quotient is exact in a double,
 * so both round with the same hc_quantize_quot().
 *
 * FP16: vpux_f32_to_f16()/vpux_f16_to_f32() of include/hw/vpux_float.h
 * (round to nearest even, overflow to Inf, a NaN the canonical quiet
 * NaN); hc_f32_to_f16_n() is the same bits, vectorised with F16C where
 * the CPU has it.
 */
#ifndef VPUX_HOSTCONV_H
#define VPUX_HOSTCONV_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define HC_QNAN 1	/* hc_quantize_*(): the value is a NaN */

/* round half to even, add @zp, saturate into [@lo, @hi]; NaN: HC_QNAN */
static inline int hc_quantize_quot(double quot, int32_t zp, int32_t lo,
				   int32_t hi, int32_t *out)
{
	double q;

	if (isnan(quot)) {
		*out = zp;
		return HC_QNAN;
	}
	q = nearbyint(quot) + zp;	/* round half to even */
	*out = q <= lo ? lo : q >= hi ? hi : (int32_t)q;
	return 0;
}

/* x / scale in float (ONNX QuantizeLinear), then hc_quantize_quot() */
static inline int hc_quantize_f32(float x, float scale, int32_t zp,
				  int32_t lo, int32_t hi, int32_t *out)
{
	return hc_quantize_quot((double)(x / scale), zp, lo, hi, out);
}

/* x / scale in double (the compiler's constants), then hc_quantize_quot() */
static inline int hc_quantize_f64(double x, double scale, int32_t zp,
				  int32_t lo, int32_t hi, int32_t *out)
{
	return hc_quantize_quot(x / scale, zp, lo, hi, out);
}

/* ONNX DequantizeLinear in float: (q - zp) * scale */
static inline float hc_dequantize_f32(int32_t q, int32_t zp, float scale)
{
	return ((float)q - (float)zp) * scale;
}

/* @n floats to FP16 bits (vpux_f32_to_f16()), and back exactly */
void hc_f32_to_f16_n(uint16_t *dst, const float *src, size_t n);
void hc_f16_to_f32_n(float *dst, const uint16_t *src, size_t n);

/*
 * Element type names. Device types (enum vpux_data_type): "u8", "i8",
 * "i32", "f16", "f32" (vpux-asm's spelling), "?" otherwise. ONNX types
 * (TensorProto.DataType): "float", "uint8", ..., "unknown" otherwise.
 */
const char *hc_dev_type_name(uint32_t dt);
/* the device type named @name, 0 if none */
uint32_t hc_dev_type_parse(const char *name);
const char *hc_onnx_type_name(int32_t dt);

/*
 * A whole file (@path "-": standard input; a pipe or a file whose size
 * the kernel does not know is read to its end) into *@data, malloc'ed,
 * with a NUL after its *@size bytes so text can be parsed in place.
 * Return: 0; VPUX_E_IO ("PATH: cannot open: REASON", "PATH: read error:
 * REASON", "PATH: larger than MAX bytes"), VPUX_E_NOMEM.
 */
int hc_read_file(const char *path, size_t max, void **data, size_t *size);

#endif /* VPUX_HOSTCONV_H */
