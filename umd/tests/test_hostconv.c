// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * umd/hostconv.h: the one quantize rounding, FP16 of arrays, element type
 * names and whole-file reader that libvpux, the CPU functions, the
 * compiler and the tools share. Pins the policy (ties to even, Inf
 * saturates, NaN refused with the zero point as the defined value) and
 * proves that neither user's bits moved: hc_quantize_f64() is the
 * compiler's former vc_quantize() (double) and hc_quantize_f32() the
 * host boundary's former rintf() (float) for every value tried.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "hostconv.h"
#include "vpux.h"
#include "vpux_float.h"
#include "vpux_tap.h"

#define TMPF "/tmp/vpux-test-hostconv"

/* the compiler's vc_quantize() before umd/hostconv.h, verbatim */
static int32_t old_compiler(double v, double scale, int32_t zp, int32_t lo,
			    int32_t hi)
{
	double q = nearbyint(v / scale) + zp;

	if (q < lo)
		return lo;
	if (q > hi)
		return hi;
	return (int32_t)q;
}

/* umd/host_io.c's quantization before umd/hostconv.h (NaN excluded) */
static int32_t old_host(float x, double scale, int32_t zp, double lo,
			double hi)
{
	float v = rintf(x / (float)scale);
	double q = (double)v + zp;

	q = q < lo ? lo : q > hi ? hi : q;
	return (int32_t)(int64_t)q;
}

static float fbits(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t rnd(void)
{
	static uint32_t x = 2463534242u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

static void test_policy(void)
{
	static const struct { double q; int32_t want; } c[] = {
		{ 0.5, 3 }, { 1.5, 5 }, { 2.5, 5 }, { -0.5, 3 }, { -1.5, 1 },
		{ -2.5, 1 }, { 124.4, 127 }, { 124.5, 127 }, { -131.5, -128 },
		{ 1e300, 127 }, { -1e300, -128 }, { INFINITY, 127 },
		{ -INFINITY, -128 }, { 0.49999999999999994, 3 },
	};
	unsigned int i, bad = 0;
	int32_t q;
	int r;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		r = hc_quantize_quot(c[i].q, 3, -128, 127, &q);
		if (r || q != c[i].want) {
			bad++;
			tap_diag("quot %.17g: %d (ret %d), want %d", c[i].q, q,
				 r, c[i].want);
		}
	}
	tap_check(!bad, "ties to even, zero point added, saturation; +-Inf saturates");
	q = 77;
	r = hc_quantize_quot(NAN, 3, -128, 127, &q);
	tap_check(r == HC_QNAN && q == 3, "NaN: HC_QNAN, the value the zero point (%d)", q);
	r = hc_quantize_f32(NAN, 0.5f, 128, 0, 255, &q);
	tap_check(r == HC_QNAN && q == 128, "NaN through the float quotient: HC_QNAN");
	r = hc_quantize_f64(-NAN, 0.5, 0, INT32_MIN, INT32_MAX, &q);
	tap_check(r == HC_QNAN && q == 0, "NaN through the double quotient: HC_QNAN");
	r = hc_quantize_f64(0.0, 0.0, 0, -128, 127, &q);
	tap_check(r == HC_QNAN, "0 / 0 is a NaN: HC_QNAN");
	r = hc_quantize_f64(1e12, 1.0, 0, INT32_MIN, INT32_MAX, &q);
	tap_check(!r && q == INT32_MAX, "int32 range saturates (%d)", q);
	/*
	 * The caller's precision: 13.1238985f / 0.14501545f is 90.5 in
	 * float (a tie: 90) and 90.500003 in double (91).
	 */
	hc_quantize_f32(fbits(0x4151fb7du), fbits(0x3e147eeeu), 0, -128, 127,
			&q);
	r = q;
	hc_quantize_f64(fbits(0x4151fb7du), fbits(0x3e147eeeu), 0, -128, 127,
			&q);
	tap_check(r == 90 && q == 91,
		  "the quotient in float (ONNX QuantizeLinear) %d, in double (compiler) %d",
		  r, q);
	tap_check(hc_dequantize_f32(-128, -3, 0.5f) == -62.5f &&
		  hc_dequantize_f32(255, 128, 0.25f) == 31.75f,
		  "dequantize: (q - zp) * scale");
}

/* every earlier rounding gives the same bits through the one */
static void test_same_bits(void)
{
	static const int32_t los[] = { -128, 0, INT32_MIN };
	static const int32_t his[] = { 127, 255, INT32_MAX };
	unsigned int i, bad_c = 0, bad_h = 0, n = 2000000;

	for (i = 0; i < n; i++) {
		unsigned int t = i % 3;
		/* scales and values of every magnitude, ties on purpose */
		float s = fbits((rnd() & 0x007fffffu) | ((100u + rnd() % 40u) << 23));
		int32_t zp = t == 1 ? (int32_t)(rnd() % 256) :
			     t == 0 ? (int32_t)(rnd() % 256) - 128 : 0;
		float x;
		double v;
		int32_t q;

		if (i % 4 == 0)
			x = (float)(((int32_t)(rnd() % 600) - 300) + 0.5) * s;
		else
			x = fbits((rnd() & 0x807fffffu) | ((100u + rnd() % 50u) << 23));
		v = i % 8 == 1 ? (double)x + (double)rnd() * 1e-12 : (double)x;
		hc_quantize_f64(v, (double)s, zp, los[t], his[t], &q);
		if (q != old_compiler(v, (double)s, zp, los[t], his[t]) && !bad_c++)
			tap_diag("compiler: %a / %a", v, (double)s);
		hc_quantize_f32(x, s, zp, los[t], his[t], &q);
		if (q != old_host(x, (double)s, zp, los[t], his[t]) && !bad_h++)
			tap_diag("host: %a / %a", (double)x, (double)s);
	}
	tap_check(!bad_c, "%u values: hc_quantize_f64() is the compiler's former vc_quantize() (%u differ)",
		  n, bad_c);
	tap_check(!bad_h, "%u values: hc_quantize_f32() is the host boundary's former rintf() (%u differ)",
		  n, bad_h);
}

static void test_f16(void)
{
	float src[19], back[19];
	uint16_t h[19];
	unsigned int i, bad = 0;

	for (i = 0; i < 19; i++)
		src[i] = fbits(i == 3 ? 0x7fc01234u : i == 4 ? 0x477ff000u :
			       i == 5 ? 0x33000001u : rnd());
	hc_f32_to_f16_n(h, src, 19);
	for (i = 0; i < 19; i++) {
		uint32_t b;

		memcpy(&b, &src[i], 4);
		bad += h[i] != vpux_f32_to_f16(b);
	}
	tap_check(!bad && h[3] == VPUX_F16_NAN && h[4] == VPUX_F16_INF && h[5] == 1,
		  "hc_f32_to_f16_n(): vpux_f32_to_f16()'s bits (NaN canonical, overflow Inf)");
	hc_f16_to_f32_n(back, h, 19);
	for (i = 0, bad = 0; i < 19; i++) {
		uint32_t b;

		memcpy(&b, &back[i], 4);
		bad += b != vpux_f16_to_f32(h[i]);
	}
	tap_check(!bad, "hc_f16_to_f32_n(): exact");
}

static void test_names(void)
{
	static const char *const dev[] = { "u8", "i8", "i32", "f16", "f32" };
	unsigned int i, bad = 0;

	for (i = 0; i < 5; i++)
		bad += strcmp(hc_dev_type_name(hc_dev_type_parse(dev[i])), dev[i]) ||
		       !hc_dev_type_parse(dev[i]);
	tap_check(!bad && hc_dev_type_parse("U8") == 0 &&
		  hc_dev_type_parse(NULL) == 0 && hc_dev_type_parse("?") == 0 &&
		  !strcmp(hc_dev_type_name(0), "?") &&
		  !strcmp(hc_dev_type_name(99), "?") &&
		  hc_dev_type_parse("f16") == VPUX_DT_F16,
		  "device type names: u8 i8 i32 f16 f32, '?' otherwise");
	tap_check(!strcmp(hc_onnx_type_name(1), "float") &&
		  !strcmp(hc_onnx_type_name(2), "uint8") &&
		  !strcmp(hc_onnx_type_name(10), "float16") &&
		  !strcmp(hc_onnx_type_name(16), "bfloat16") &&
		  !strcmp(hc_onnx_type_name(14), "unknown") &&
		  !strcmp(hc_onnx_type_name(-1), "unknown") &&
		  !strcmp(hc_onnx_type_name(17), "unknown"),
		  "ONNX type names, 'unknown' otherwise");
}

static void test_read(void)
{
	FILE *f = fopen(TMPF, "wb");
	void *d = (void *)1;
	size_t n = 1, i;
	char *big;
	int r;

	big = malloc(200000);
	if (!f || !big)
		exit(1);
	for (i = 0; i < 200000; i++)
		big[i] = (char)('a' + i % 26);
	fwrite(big, 1, 200000, f);
	fclose(f);
	r = hc_read_file(TMPF, 200000, &d, &n);
	tap_check(!r && n == 200000 && !memcmp(d, big, n) &&
		  ((char *)d)[n] == 0, "a whole file, NUL after it (%d)", r);
	free(d);
	r = hc_read_file(TMPF, 199999, &d, &n);
	tap_check(r == VPUX_E_IO && !d && !n &&
		  !strcmp(vpux_last_error(), TMPF ": larger than 199999 bytes"),
		  "above the limit: %s", vpux_last_error());
	r = hc_read_file(TMPF ".none", 10, &d, &n);
	tap_check(r == VPUX_E_IO && !strcmp(vpux_last_error(),
		  TMPF ".none: cannot open: No such file or directory"),
		  "missing: %s", vpux_last_error());
	r = hc_read_file("/", 10, &d, &n);
	tap_check(r == VPUX_E_IO && !strcmp(vpux_last_error(),
		  "/: read error: Is a directory"), "a directory: %s",
		  vpux_last_error());
	f = fopen(TMPF, "wb");
	fclose(f);
	r = hc_read_file(TMPF, 10, &d, &n);
	tap_check(!r && !n && d && !*(char *)d, "an empty file");
	free(d);
	r = hc_read_file(NULL, 10, &d, &n);
	tap_check(r == VPUX_E_INVAL, "no path: %s", vpux_last_error());
	unlink(TMPF);
	free(big);
}

int main(void)
{
	test_policy();
	test_same_bits();
	test_f16();
	test_names();
	test_read();
	return tap_finish();
}
