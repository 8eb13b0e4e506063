// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The format conversions of libvpux-cpuops (umd/cpuops/convert.c), called
 * through library_init() and lookup() as the runner calls them: known
 * answers, rounding ties (half to even), saturation, layouts, and every
 * argument check with its message. TAP.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_cpu.h"

int library_init(struct vpux_cpu_library_init_args *args);

static int fails, tests;
static vpux_cpu_lookup_fn lookup;
static char err[256];

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!cond)
		fails++;
	printf("%s %d - ", cond ? "ok" : "not ok", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static struct vpux_cpu_arg B(void *p, size_t n)
{
	struct vpux_cpu_arg a = { .type = VPUX_CPU_ARG_BUFFER };

	a.buf.data = p;
	a.buf.size = n;
	a.buf.name = "b";
	return a;
}

static struct vpux_cpu_arg I(int64_t v)
{
	struct vpux_cpu_arg a = { .type = VPUX_CPU_ARG_INT };

	a.i = v;
	return a;
}

static struct vpux_cpu_arg S(const char *s)
{
	struct vpux_cpu_arg a = { .type = VPUX_CPU_ARG_STRING };

	a.str = s;
	return a;
}

static int call(const char *name, struct vpux_cpu_arg *args, unsigned int n)
{
	struct vpux_cpu_lookup_args la = { .size = sizeof(la) };
	struct vpux_cpu_call c = { .size = sizeof(c) };

	if (lookup(name, &la))
		return -ENOENT;
	if (la.num_args != n)
		return -E2BIG;
	c.num_args = n;
	c.args = args;
	c.err = err;
	c.err_size = sizeof(err);
	err[0] = '\0';
	return la.fn(&c);
}

/* @name fails with a message containing @want */
static void bad(const char *name, struct vpux_cpu_arg *args, unsigned int n,
		const char *want)
{
	int r = call(name, args, n);

	ok(r == -EINVAL && strstr(err, want), "%s fails: \"%s\" (want \"%s\")",
	   name, err, want);
}

static void test_quantize(void)
{
	/*
	 * ties go to even; saturation both ways, infinities too; a NaN is
	 * refused (umd/hostconv.h, the policy of libvpux and the compiler)
	 */
	float x[] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 1000.f, -1000.f,
		      0.25f, -INFINITY, INFINITY, 3.49f };
	int8_t want_i8[] = { 0 + 3, 2 + 3, 2 + 3, 0 + 3, -2 + 3, -2 + 3, 127,
			     -128, 0 + 3, -128, 127, 3 + 3 };
	uint8_t want_u8[] = { 128, 130, 130, 128, 126, 126, 255, 0, 128, 0,
			      255, 131 };
	int8_t q[12];
	uint8_t u[12];
	float back[12];
	struct vpux_cpu_arg a[5] = { B(x, sizeof(x)), B(q, sizeof(q)), S("1"),
				     I(3), S("int8") };
	int r;

	r = call("quantize", a, 5);
	ok(!r && !memcmp(q, want_i8, sizeof(q)),
	   "quantize int8: ties to even, saturation, infinities");
	a[1] = B(u, sizeof(u));
	a[3] = I(128);
	a[4] = S("uint8");
	r = call("quantize", a, 5);
	ok(!r && !memcmp(u, want_u8, sizeof(u)), "quantize uint8 zp 128");
	x[7] = NAN;
	bad("quantize", a, 5,
	    "quantize: argument 0 (src): element 7 is NaN (a NaN has no quantized value)");
	x[7] = -1000.f;
	/* to_f16/from_f16: round to nearest even, subnormals, inf, NaN */
	{
		float y[8] = { 1.0f, 65504.0f, 65520.0f, 1.0f + 1.0f / 2048,
			       1.0f + 3.0f / 2048, 5.96046448e-08f, -0.0f,
			       NAN };
		static const uint16_t want[8] = { 0x3c00, 0x7bff, 0x7c00, 0x3c00,
						  0x3c02, 0x0001, 0x8000, 0 };
		uint16_t h[8];
		float back[8];
		struct vpux_cpu_arg b[2] = { B(y, sizeof(y)), B(h, sizeof(h)) };

		r = call("to_f16", b, 2);
		ok(!r && !memcmp(h, want, 14) && (h[7] & 0x7c00) == 0x7c00 &&
		   (h[7] & 0x3ff), "to_f16: ties to even, overflow to inf, subnormal, -0, NaN");
		b[0] = B(h, sizeof(h));
		b[1] = B(back, sizeof(back));
		r = call("from_f16", b, 2);
		ok(!r && back[0] == 1.0f && back[1] == 65504.0f && isinf(back[2]) &&
		   back[5] == 5.96046448e-08f && signbit(back[6]) && isnan(back[7]),
		   "from_f16: exact back");
		b[1] = B(back, 6);
		r = call("from_f16", b, 2);
		ok(r && strstr(err, "argument 1 (dst): 6 bytes, 32 needed"),
		   "from_f16: a dst of the wrong size named (%s)", err);
	}
	/* x / scale is a float division: 0.3 / 0.1 is 3 in float32 */
	{
		float y[2] = { 0.3f, 0.15f };
		int8_t o[2];
		struct vpux_cpu_arg b[5] = { B(y, 8), B(o, 2), S("0.1"), I(0),
					     S("int8") };

		r = call("quantize", b, 5);
		ok(!r && o[0] == (int8_t)nearbyintf(0.3f / 0.1f) &&
		   o[1] == (int8_t)nearbyintf(0.15f / 0.1f),
		   "quantize divides in float32 (%d %d)", o[0], o[1]);
	}
	/* dequantize */
	{
		int8_t s[4] = { -128, -1, 0, 127 };
		float f[4];
		struct vpux_cpu_arg b[5] = { B(s, 4), B(f, 16), S("0.5"), I(-1),
					     S("int8") };

		r = call("dequantize", b, 5);
		ok(!r && f[0] == -63.5f && f[1] == 0.f && f[2] == 0.5f &&
		   f[3] == 64.f, "dequantize int8 (%g %g %g %g)", f[0], f[1],
		   f[2], f[3]);
		b[0] = B(u, 12);
		b[1] = B(back, sizeof(back));
		b[2] = S("1");
		b[3] = I(128);
		b[4] = S("uint8");
		r = call("dequantize", b, 5);
		ok(!r && back[0] == 0.f && back[1] == 2.f && back[6] == 127.f &&
		   back[7] == -128.f, "dequantize uint8 zp 128");
	}
	/* %.9g round-trips the scale */
	{
		float sc = 0.0123456789f, y = 1.f, got;
		char buf[32];
		int8_t o;
		struct vpux_cpu_arg b[5] = { B(&y, 4), B(&o, 1), S(buf), I(0),
					     S("int8") };
		struct vpux_cpu_arg d[5] = { B(&o, 1), B(&got, 4), S(buf), I(0),
					     S("int8") };

		snprintf(buf, sizeof(buf), "%.9g", sc);
		r = call("quantize", b, 5);
		r |= call("dequantize", d, 5);
		ok(!r && o == (int8_t)nearbyintf(1.f / sc) &&
		   got == (float)o * sc, "scale \"%s\" round-trips float32", buf);
	}
	/* argument checks */
	a[0] = B(x, sizeof(x));
	a[1] = B(q, 11);
	a[2] = S("1");
	a[3] = I(0);
	a[4] = S("int8");
	bad("quantize", a, 5, "argument 1 (dst): 11 bytes, 12 needed");
	a[1] = B(q, 12);
	a[0] = B(x, 7);
	bad("quantize", a, 5, "argument 0 (src): 7 bytes, not a multiple of 4");
	a[0] = B(x, sizeof(x));
	a[2] = S("0");
	bad("quantize", a, 5, "argument 2 (scale): \"0\" is not a finite decimal float > 0");
	a[2] = S("1x");
	bad("quantize", a, 5, "argument 2 (scale): \"1x\"");
	a[2] = I(1);
	bad("quantize", a, 5, "argument 2 (scale) is an integer, a string expected");
	a[2] = S("1");
	a[3] = I(128);
	bad("quantize", a, 5, "argument 3 (zero_point): 128 outside -128..127");
	a[3] = S("0");
	bad("quantize", a, 5, "argument 3 (zero_point) is a string, an integer expected");
	a[3] = I(0);
	a[4] = S("int4");
	bad("quantize", a, 5, "argument 4 (type): \"int4\" is not int8 or uint8");
	a[4] = S("uint8");
	a[3] = I(-1);
	bad("quantize", a, 5, "argument 3 (zero_point): -1 outside 0..255");
	a[3] = I(0);
	a[0] = I(0);
	bad("quantize", a, 5, "argument 0 (src) is an integer, a buffer expected");
	{
		int8_t s[4] = { 0 };
		float f[4];
		struct vpux_cpu_arg b[5] = { B(s, 4), B(f, 12), S("1"), I(0),
					     S("int8") };

		bad("dequantize", b, 5, "argument 1 (dst): 12 bytes, 16 needed");
	}
}

static void test_transpose(void)
{
	uint8_t s[24], d[24];
	uint32_t s4[6], d4[6];
	unsigned int i, a0, a1, a2, ok_all = 1;
	struct vpux_cpu_arg a[5];

	for (i = 0; i < 24; i++)
		s[i] = (uint8_t)i;
	/* shape 2x3x4, perm 2,0,1: out[k][i][j] = in[i][j][k] (4x2x3) */
	a[0] = B(s, 24);
	a[1] = B(d, 24);
	a[2] = I(1);
	a[3] = S("2,3,4");
	a[4] = S("2,0,1");
	ok(!call("transpose", a, 5), "transpose 2x3x4 perm 2,0,1");
	for (a2 = 0; a2 < 4; a2++)
		for (a0 = 0; a0 < 2; a0++)
			for (a1 = 0; a1 < 3; a1++)
				if (d[(a2 * 2 + a0) * 3 + a1] != s[(a0 * 3 + a1) * 4 + a2])
					ok_all = 0;
	ok(ok_all, "transpose: every element where ONNX Transpose puts it");
	for (i = 0; i < 6; i++)
		s4[i] = 0x01010101u * i;
	a[0] = B(s4, 24);
	a[1] = B(d4, 24);
	a[2] = I(4);
	a[3] = S("2,3");
	a[4] = S("1,0");
	ok(!call("transpose", a, 5) && d4[0] == s4[0] && d4[1] == s4[3] &&
	   d4[2] == s4[1] && d4[5] == s4[5], "transpose 2x3 of 4-byte elements");
	a[4] = S("0,1");
	ok(!call("transpose", a, 5) && !memcmp(s4, d4, 24), "identity perm");
	a[2] = I(3);
	bad("transpose", a, 5, "argument 2 (element size): 3 is not 1, 2 or 4");
	a[2] = I(4);
	a[4] = S("1,1");
	bad("transpose", a, 5, "argument 4 (perm): \"1,1\" is not a permutation of 0..1");
	a[4] = S("1,0,2");
	bad("transpose", a, 5, "argument 4 (perm): 3 values for a shape of rank 2");
	a[4] = S("1,0");
	a[3] = S("2,4");
	bad("transpose", a, 5, "argument 0 (src): 24 bytes, the shape needs 32");
	a[3] = S("2,,3");
	bad("transpose", a, 5, "argument 3 (shape): \"2,,3\" is not a comma-separated list");
	a[3] = S("1,1,1,1,1,1,1");
	bad("transpose", a, 5, "has more than 6 values");
	a[3] = S("2,0");
	bad("transpose", a, 5, "value 1 outside 1..");
}

static void test_layout(void)
{
	/* N=1 C=2 H=1 W=3: NCHW c0: 0 1 2, c1: 3 4 5 */
	float x[6] = { 0, 1, 2, 3, 4, 5 }, y[6];
	int8_t q[6];
	int8_t want[6] = { 0, 6, 2, 8, 4, 10 };	/* HWC, scale 0.5 */
	struct vpux_cpu_arg a[6] = { B(x, 24), B(q, 6), S("1,2,1,3"), S("0.5"),
				     I(0), S("int8") };

	ok(!call("quantize_nchw_to_nhwc", a, 6) && !memcmp(q, want, 6),
	   "quantize_nchw_to_nhwc: NCHW float -> NHWC int8");
	x[4] = NAN;		/* named by its NCHW index */
	bad("quantize_nchw_to_nhwc", a, 6,
	    "argument 0 (src): element 4 is NaN (a NaN has no quantized value)");
	x[4] = 4;
	a[0] = B(q, 6);
	a[1] = B(y, 24);
	ok(!call("dequantize_nhwc_to_nchw", a, 6) && !memcmp(x, y, 24),
	   "dequantize_nhwc_to_nchw gives the NCHW floats back");
	a[2] = S("1,2,3");
	bad("dequantize_nhwc_to_nchw", a, 6, "argument 2 (shape): \"1,2,3\" is not N,C,H,W");
	a[2] = S("1,2,1,3");
	a[1] = B(y, 20);
	bad("dequantize_nhwc_to_nchw", a, 6, "argument 1 (dst): 20 bytes, the shape needs 24");
	a[0] = B(x, 24);
	a[1] = B(q, 5);
	bad("quantize_nchw_to_nhwc", a, 6, "argument 1 (dst): 5 bytes, the shape needs 6");
}

static void test_lookup(void)
{
	struct vpux_cpu_library_init_args ia = { .size = sizeof(ia),
		.abi_version = VPUX_CPU_ABI_VERSION };
	struct vpux_cpu_lookup_args la = { .size = sizeof(la) };

	ok(!library_init(&ia) && ia.lookup, "library_init fills lookup");
	lookup = ia.lookup;
	ok(lookup("nope", &la) == -ENOENT, "lookup of an unknown name: -ENOENT");
	ok(!lookup("transpose", &la) && la.num_args == 5 && la.fn,
	   "lookup transpose: 5 arguments");
	ok(!lookup("quantize_nchw_to_nhwc", &la) && la.num_args == 6,
	   "lookup quantize_nchw_to_nhwc: 6 arguments");
}

int main(void)
{
	test_lookup();
	test_quantize();
	test_transpose();
	test_layout();
	printf("1..%d\n", tests);
	return fails ? 1 : 0;
}
