// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The one implementation of the host conversions and chores that
 * libvpux, the compiler and the tools share (umd/hostconv.h): FP16 of a
 * whole array, the element type names, a whole file into memory. The
 * quantize rounding is inline in the header, for the CPU functions'
 * plugin too.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hostconv.h"
#include "vpux.h"
#include "vpux_float.h"

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/*
 * F16C's conversion rounds as vpux_f32_to_f16() does (RNE, gradual
 * subnormals, overflow to Inf); only NaNs differ (it keeps the payload),
 * so they are redone.
 */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("avx,f16c")))
static void f16_fast(uint16_t *dst, const float *src, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		_mm_storeu_si128((__m128i *)(dst + i),
				 _mm256_cvtps_ph(_mm256_loadu_ps(src + i),
						 _MM_FROUND_TO_NEAREST_INT));
	for (; i < n; i++)
		dst[i] = vpux_f32_to_f16(f32_bits(src[i]));
}

/* F16C and AVX (cpuid: clang's __builtin_cpu_supports has no "f16c") */
static bool have_f16c(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return false;
	return (c & bit_F16C) && __builtin_cpu_supports("avx");
}
#else
static void f16_fast(uint16_t *dst, const float *src, size_t n)
{
	(void)dst;
	(void)src;
	(void)n;
}

static bool have_f16c(void)
{
	return false;
}
#endif

void hc_f32_to_f16_n(uint16_t *dst, const float *src, size_t n)
{
	size_t i;

	if (have_f16c()) {
		f16_fast(dst, src, n);
		for (i = 0; i < n; i++)
			if (isnan(src[i]))
				dst[i] = vpux_f32_to_f16(f32_bits(src[i]));
		return;
	}
	for (i = 0; i < n; i++)
		dst[i] = vpux_f32_to_f16(f32_bits(src[i]));
}

void hc_f16_to_f32_n(float *dst, const uint16_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t x = vpux_f16_to_f32(src[i]);

		memcpy(&dst[i], &x, 4);
	}
}

/* ---- element type names ---- */

static const char *const dev_names[] = {
	[VPUX_DT_U8] = "u8", [VPUX_DT_I8] = "i8", [VPUX_DT_I32] = "i32",
	[VPUX_DT_F16] = "f16", [VPUX_DT_F32] = "f32",
};

const char *hc_dev_type_name(uint32_t dt)
{
	if (dt < sizeof(dev_names) / sizeof(dev_names[0]) && dev_names[dt])
		return dev_names[dt];
	return "?";
}

uint32_t hc_dev_type_parse(const char *name)
{
	uint32_t dt;

	for (dt = 0; name && dt < sizeof(dev_names) / sizeof(dev_names[0]);
	     dt++)
		if (dev_names[dt] && !strcmp(dev_names[dt], name))
			return dt;
	return 0;
}

/* TensorProto.DataType */
static const char *const onnx_names[] = {
	[1] = "float", [2] = "uint8", [3] = "int8", [4] = "uint16",
	[5] = "int16", [6] = "int32", [7] = "int64", [8] = "string",
	[9] = "bool", [10] = "float16", [11] = "double",
	[12] = "uint32", [13] = "uint64", [16] = "bfloat16",
};

const char *hc_onnx_type_name(int32_t dt)
{
	if (dt > 0 && (size_t)dt < sizeof(onnx_names) / sizeof(onnx_names[0]) &&
	    onnx_names[dt])
		return onnx_names[dt];
	return "unknown";
}

/* ---- a whole file ---- */

int hc_read_file(const char *path, size_t max, void **data, size_t *size)
{
	int is_stdin = path && !strcmp(path, "-");
	FILE *f;
	char *p = NULL, *q;
	size_t n = 0, cap = 0, got;
	int err;

	*data = NULL;
	*size = 0;
	if (!path)
		return vpux_err(VPUX_E_INVAL, "read file: no path");
	f = is_stdin ? stdin : fopen(path, "rb");
	if (!f)
		return vpux_err(VPUX_E_IO, "%s: cannot open: %s", path,
				strerror(errno));
	for (;;) {
		if (cap - n < 2) {	/* room for a byte and the NUL */
			if (cap > max) {
				free(p);
				if (!is_stdin)
					fclose(f);
				return vpux_err(VPUX_E_IO,
						"%s: larger than %zu bytes",
						path, max);
			}
			cap = cap ? cap * 2 : 65536;
			q = realloc(p, cap);
			if (!q) {
				free(p);
				if (!is_stdin)
					fclose(f);
				return vpux_err(VPUX_E_NOMEM,
						"%s: out of memory", path);
			}
			p = q;
		}
		got = fread(p + n, 1, cap - n - 1, f);
		n += got;
		if (!got)
			break;
	}
	err = ferror(f) ? (errno ? errno : EIO) : 0;
	if (!is_stdin)
		fclose(f);
	if (err || n > max) {
		free(p);
		return err ? vpux_err(VPUX_E_IO, "%s: read error: %s", path,
				      strerror(err)) :
			     vpux_err(VPUX_E_IO, "%s: larger than %zu bytes",
				      path, max);
	}
	p[n] = 0;
	*data = p;
	*size = n;
	return 0;
}
