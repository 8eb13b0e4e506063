// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Known-answer tests of the float operators of libvpux-cpuops, called
 * through library_init()/lookup() as the runner calls them, and one test
 * per argument check (the message must name the argument). Built with
 * ASan/UBSan.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_cpu.h"

int library_init(struct vpux_cpu_library_init_args *args);

static int failures, checks;
static vpux_cpu_lookup_fn lookup;
static char errbuf[512];

#define A_BUF(p, n) { .type = VPUX_CPU_ARG_BUFFER, .buf = { (p), (n) * sizeof(float), #p } }
#define A_RAW(p, bytes) { .type = VPUX_CPU_ARG_BUFFER, .buf = { (p), (bytes), #p } }
#define A_INT(v) { .type = VPUX_CPU_ARG_INT, .i = (v) }
#define A_STR(s) { .type = VPUX_CPU_ARG_STRING, .str = (s) }
#define NARG(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* one TAP line per check */
__attribute__((format(printf, 2, 3)))
static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (!ok)
		failures++;
	printf("%sok %d - ", ok ? "" : "not ", checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* call @name; its return value, the message in errbuf */
static int call(const char *name, const struct vpux_cpu_arg *a, uint32_t n)
{
	struct vpux_cpu_lookup_args la = { .size = sizeof(la) };
	struct vpux_cpu_call c = {
		.size = sizeof(c), .num_args = n, .args = a,
		.err = errbuf, .err_size = sizeof(errbuf),
	};
	int ret;

	errbuf[0] = 0;
	ret = lookup(name, &la);
	if (ret) {
		snprintf(errbuf, sizeof(errbuf), "lookup: %d", ret);
		return ret;
	}
	return la.fn(&c);
}

static void expect(const char *what, const float *got, const float *want,
		   size_t n, float tol)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(fabsf(got[i] - want[i]) <= tol)) {
			check(0, "%s: [%zu] = %.9g, expected %.9g", what, i,
			      (double)got[i], (double)want[i]);
			return;
		}
	check(1, "%s: %zu values as expected", what, n);
}

/* the call fails with -EINVAL and a message containing @needle */
static void expect_err(const char *name, const struct vpux_cpu_arg *a,
		       uint32_t n, const char *needle)
{
	int ret = call(name, a, n);

	check(ret == -EINVAL && strstr(errbuf, needle),
	      "%s refused: '%s' (expected -EINVAL with '%s', got %d)", name,
	      errbuf, needle, ret);
}

static void test_relu_add(void)
{
	float x[4] = { -1, 0.5f, 0, 3 }, y[4], want[4] = { 0, 0.5f, 0, 3 };
	float a[6] = { 1, 2, 3, 4, 5, 6 }, b[3] = { 10, 20, 30 }, s[1] = { 100 };
	float yy[6], w1[6] = { 11, 22, 33, 14, 25, 36 };
	float col[2] = { 1, 2 }, w2[6] = { 2, 3, 4, 6, 7, 8 };
	float w3[6] = { 101, 102, 103, 104, 105, 106 };
	struct vpux_cpu_arg r[] = { A_BUF(x, 4), A_BUF(y, 4), A_STR("2,2") };
	struct vpux_cpu_arg ad[] = { A_BUF(a, 6), A_BUF(b, 3), A_BUF(yy, 6),
		A_STR("2,3"), A_STR("3"), A_STR("2,3") };
	struct vpux_cpu_arg ad2[] = { A_BUF(a, 6), A_BUF(col, 2), A_BUF(yy, 6),
		A_STR("1,2,3"), A_STR("2,1"), A_STR("1,2,3") };
	struct vpux_cpu_arg ad3[] = { A_BUF(a, 6), A_BUF(s, 1), A_BUF(yy, 6),
		A_STR("2,3"), A_STR(""), A_STR("2,3") };

	check(!call("relu", r, NARG(r)), "relu succeeds%s", errbuf);
	expect("relu", y, want, 4, 0);
	check(!call("add", ad, NARG(ad)), "add succeeds%s", errbuf);
	expect("add row broadcast", yy, w1, 6, 0);
	check(!call("add", ad2, NARG(ad2)), "add succeeds%s", errbuf);
	expect("add column broadcast", yy, w2, 6, 0);
	check(!call("add", ad3, NARG(ad3)), "add succeeds%s", errbuf);
	expect("add scalar", yy, w3, 6, 0);
	/* the checks */
	ad[5].str = "3,2";
	expect_err("add", ad, NARG(ad), "argument 5 (y_shape): '3,2', the broadcast is '2,3'");
	ad[5].str = "2,3";
	ad[4].str = "2";
	expect_err("add", ad, NARG(ad), "argument 4 (b_shape): does not broadcast");
	ad[4].str = "3";
	ad[1].buf.size = 8;
	expect_err("add", ad, NARG(ad), "argument 1 (B, buffer 'b'): 8 bytes, 3 float32 values (12 bytes) expected");
	ad[1].buf.size = 12;
	r[2].str = "2,x";
	expect_err("relu", r, NARG(r), "argument 2 (shape): '2,x' is not a comma-separated list of integers");
	r[2].str = "2,0";
	expect_err("relu", r, NARG(r), "argument 2 (shape): value 1 (0) out of range");
	r[2].str = "2,2,";
	expect_err("relu", r, NARG(r), "argument 2 (shape): '2,2,' is not");
	r[2] = (struct vpux_cpu_arg)A_INT(4);
	expect_err("relu", r, NARG(r), "argument 2 (shape) is an integer, a string expected");
	expect_err("relu", r, 2, "2 arguments, 3 expected");
}

static void test_softmax_concat(void)
{
	float x[6] = { 1, 2, 3, 1, 1, 1 }, y[6];
	float e1 = expf(-2), e2 = expf(-1), sum = e1 + e2 + 1;
	float want[6] = { e1 / sum, e2 / sum, 1 / sum, 1.f / 3, 1.f / 3, 1.f / 3 };
	float want0[6];
	float a[4] = { 1, 2, 3, 4 }, b[2] = { 5, 6 }, cc[6];
	float wc1[6] = { 1, 2, 5, 3, 4, 6 }, wc0[6] = { 1, 2, 3, 4, 5, 6 };
	struct vpux_cpu_arg s[] = { A_BUF(x, 6), A_BUF(y, 6), A_STR("2,3"), A_INT(-1) };
	struct vpux_cpu_arg c[] = { A_BUF(a, 4), A_BUF(b, 2), A_BUF(cc, 6),
		A_STR("2,3"), A_INT(1), A_STR("2,1") };
	struct vpux_cpu_arg c0[] = { A_BUF(a, 4), A_BUF(b, 2), A_BUF(cc, 6),
		A_STR("3,2"), A_INT(0), A_STR("2,1") };
	int i;

	check(!call("softmax", s, NARG(s)), "softmax succeeds%s", errbuf);
	expect("softmax axis -1", y, want, 6, 1e-7f);
	for (i = 0; i < 3; i++) {
		float m = x[i] > x[i + 3] ? x[i] : x[i + 3];
		float p = expf(x[i] - m), q = expf(x[i + 3] - m);

		want0[i] = p / (p + q);
		want0[i + 3] = q / (p + q);
	}
	s[3].i = 0;
	check(!call("softmax", s, NARG(s)), "softmax succeeds%s", errbuf);
	expect("softmax axis 0", y, want0, 6, 1e-7f);
	s[3].i = 2;
	expect_err("softmax", s, NARG(s), "argument 3 (axis): 2 out of range [-2, 1]");
	check(!call("concat2", c, NARG(c)), "concat2 succeeds%s", errbuf);
	expect("concat axis 1", cc, wc1, 6, 0);
	check(!call("concat2", c0, NARG(c0)), "concat2 succeeds%s", errbuf);
	expect("concat axis 0", cc, wc0, 6, 0);
	c[5].str = "1,1";
	expect_err("concat2", c, NARG(c), "argument 5 (lens): they add up to 2, y_shape has 3 along axis 1");
	c[5].str = "2,1";
	c[0].buf.size = 12;
	expect_err("concat2", c, NARG(c), "argument 0 (X0, buffer 'a')");
}

static void test_conv(void)
{
	/* 1x2x3x3 input, two groups of one channel, 2x2 kernels, pad 1 top/left, stride 2 */
	float x[18], w[8] = { 1, 0, 0, 1, 0, 1, 1, 0 }, b[2] = { 0.5f, -1 };
	float y[8], want[8];
	struct vpux_cpu_arg c[] = { A_BUF(x, 18), A_BUF(w, 8), A_BUF(b, 2),
		A_BUF(y, 8), A_STR("1,2,3,3"), A_STR("2,1,2,2"), A_INT(2),
		A_STR("2,2"), A_STR("1,1,0,0"), A_STR("1,1") };
	/* dilation 2 on 3x3 with a 2x2 kernel, no pad: 1x1 output, all channels */
	float w2[16], y2[2], want2[2];
	struct vpux_cpu_arg c2[] = { A_BUF(x, 18), A_BUF(w2, 16), A_BUF(y2, 2),
		A_STR("1,2,3,3"), A_STR("2,2,2,2"), A_INT(1), A_STR("1,1"),
		A_STR("0,0,0,0"), A_STR("2,2") };
	int i, oh, ow, g;

	for (i = 0; i < 18; i++)
		x[i] = (float)(i + 1);
	for (i = 0; i < 16; i++)
		w2[i] = (float)(i % 3) - 1;
	/* reference by hand-coded formula: y[g][oh][ow] = b + sum over the window */
	for (g = 0; g < 2; g++)
		for (oh = 0; oh < 2; oh++)
			for (ow = 0; ow < 2; ow++) {
				float acc = b[g];
				int kh, kw;

				for (kh = 0; kh < 2; kh++)
					for (kw = 0; kw < 2; kw++) {
						int ih = oh * 2 - 1 + kh, iw = ow * 2 - 1 + kw;

						if (ih >= 0 && ih < 3 && iw >= 0 && iw < 3)
							acc += x[g * 9 + ih * 3 + iw] *
							       w[g * 4 + kh * 2 + kw];
					}
				want[(g * 2 + oh) * 2 + ow] = acc;
			}
	/* spot values: group 0 at (0,0) sees only x[0]*w[3] */
	check(want[0] == 1 * 1 + 0.5f, "conv reference");
	check(!call("conv", c, NARG(c)), "conv succeeds%s", errbuf);
	expect("conv groups/stride/pad", y, want, 8, 0);
	for (g = 0; g < 2; g++) {
		float acc = 0;
		int ci, kh, kw;

		for (ci = 0; ci < 2; ci++)
			for (kh = 0; kh < 2; kh++)
				for (kw = 0; kw < 2; kw++)
					acc += x[ci * 9 + kh * 2 * 3 + kw * 2] *
					       w2[((g * 2 + ci) * 2 + kh) * 2 + kw];
		want2[g] = acc;
	}
	check(!call("conv_nobias", c2, NARG(c2)), "conv_nobias succeeds%s", errbuf);
	expect("conv dilation", y2, want2, 2, 0);
	c[6].i = 3;
	expect_err("conv", c, NARG(c), "argument 6 (group): 3 does not divide");
	c[6].i = 2;
	c[8].str = "1,1,0";
	expect_err("conv", c, NARG(c), "argument 8 (pads): '1,1,0' has 3 values, at least 4 expected");
	c[8].str = "1,1,0,0";
	c[3].buf.size = 4;
	expect_err("conv", c, NARG(c), "argument 3 (Y, buffer 'y'): 4 bytes, 8 float32 values");
	c2[4].str = "2,2,4,4";
	expect_err("conv_nobias", c2, NARG(c2), "argument 4 (w_shape): the dilated kernel is larger");
}

static void test_matmul_gemm(void)
{
	float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, 0, 0, 1, 1, 1 };
	float y[4], want[4] = { 4, 5, 10, 11 };
	float a3[12], y3[8], want3[8];
	float cc[2] = { 100, 200 }, yg[4], wantg[4];
	float bt[6] = { 1, 0, 1, 0, 1, 1 };	/* b transposed: 2x3 */
	struct vpux_cpu_arg m[] = { A_BUF(a, 6), A_BUF(b, 6), A_BUF(y, 4),
		A_STR("2,3"), A_STR("3,2") };
	struct vpux_cpu_arg m3[] = { A_BUF(a3, 12), A_BUF(b, 6), A_BUF(y3, 8),
		A_STR("2,2,3"), A_STR("3,2") };
	struct vpux_cpu_arg g[] = { A_BUF(a, 6), A_BUF(bt, 6), A_BUF(cc, 2),
		A_BUF(yg, 4), A_STR("2,3"), A_STR("2,3"), A_STR("2"), A_INT(0),
		A_INT(1), A_STR("0.5"), A_STR("2") };
	struct vpux_cpu_arg gn[] = { A_BUF(a, 6), A_BUF(bt, 6), A_BUF(yg, 4),
		A_STR("2,3"), A_STR("2,3"), A_INT(0), A_INT(1), A_STR("1") };
	int i;

	check(!call("matmul", m, NARG(m)), "matmul succeeds%s", errbuf);
	expect("matmul", y, want, 4, 0);
	for (i = 0; i < 12; i++)
		a3[i] = (float)(i % 6 + 1) * (i < 6 ? 1 : -1);
	for (i = 0; i < 4; i++) {
		want3[i] = want[i];
		want3[4 + i] = -want[i];
	}
	check(!call("matmul", m3, NARG(m3)), "matmul batch succeeds%s", errbuf);
	expect("matmul batch broadcast", y3, want3, 8, 0);
	m[4].str = "2,2";
	expect_err("matmul", m, NARG(m), "argument 4 (b_shape): 2 rows, A has 3 columns");
	for (i = 0; i < 4; i++)
		wantg[i] = 0.5f * want[i] + 2 * cc[i % 2];
	check(!call("gemm", g, NARG(g)), "gemm succeeds%s", errbuf);
	expect("gemm transB alpha beta C", yg, wantg, 4, 0);
	check(!call("gemm_noc", gn, NARG(gn)), "gemm_noc succeeds%s", errbuf);
	expect("gemm without C", yg, want, 4, 0);
	g[6].str = "3";
	expect_err("gemm", g, NARG(g), "argument 6 (c_shape): does not broadcast to 2,2");
	g[6].str = "2";
	g[9].str = "nan";
	expect_err("gemm", g, NARG(g), "argument 9 (alpha): 'nan' is not");
}

static void test_resize(void)
{
	float x[4] = { 1, 2, 3, 4 }, y[16];
	/* nearest asymmetric floor, 2x: each value repeated 2x2 */
	float wn[16] = { 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4 };
	/* linear half_pixel 2x (ONNX's resize_upsample_scales_linear answer) */
	float wl[16] = { 1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f,
			 2.5f, 2.75f, 3.25f, 3.5f, 3, 3.25f, 3.75f, 4 };
	/* linear align_corners 1x2x2 -> 1x3x3 */
	float y9[9], wa[9] = { 1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4 };
	struct vpux_cpu_arg r[] = { A_BUF(x, 4), A_BUF(y, 16), A_STR("1,1,2,2"),
		A_STR("1,1,4,4"), A_STR("1,1,2,2"), A_STR("nearest"),
		A_STR("asymmetric"), A_STR("floor") };
	struct vpux_cpu_arg ra[] = { A_BUF(x, 4), A_BUF(y9, 9), A_STR("1,2,2"),
		A_STR("1,3,3"), A_STR("1,1.5,1.5"), A_STR("linear"),
		A_STR("align_corners"), A_STR("floor") };
	/* nearest round_prefer_ceil half_pixel downsample 4 -> 2: picks 1, 3 */
	float x4[4] = { 10, 20, 30, 40 }, y2[2], wd[2] = { 20, 40 };
	struct vpux_cpu_arg rd[] = { A_BUF(x4, 4), A_BUF(y2, 2), A_STR("4"),
		A_STR("2"), A_STR("0.5"), A_STR("nearest"), A_STR("half_pixel"),
		A_STR("round_prefer_ceil") };

	check(!call("resize", r, NARG(r)), "resize succeeds%s", errbuf);
	expect("resize nearest", y, wn, 16, 0);
	r[5].str = "linear";
	r[6].str = "half_pixel";
	check(!call("resize", r, NARG(r)), "resize succeeds%s", errbuf);
	expect("resize linear half_pixel", y, wl, 16, 1e-6f);
	check(!call("resize", ra, NARG(ra)), "resize succeeds%s", errbuf);
	expect("resize linear align_corners", y9, wa, 9, 1e-6f);
	check(!call("resize", rd, NARG(rd)), "resize succeeds%s", errbuf);
	expect("resize nearest downsample", y2, wd, 2, 0);
	r[5].str = "cubic";
	expect_err("resize", r, NARG(r), "argument 5 (mode): 'cubic' is not one of nearest, linear");
	r[5].str = "linear";
	r[4].str = "1,1,2";
	expect_err("resize", r, NARG(r), "argument 4 (scales): 3 values, one per dim (4) expected");
	r[4].str = "1,1,2,2";
	r[3].str = "1,4,4";
	expect_err("resize", r, NARG(r), "argument 3 (y_shape): rank 3, x_shape's is 4");
}

static void test_fill(void)
{
	uint8_t d[4] = { 0 }, keep[4] = { 9, 9, 9, 9 };
	struct vpux_cpu_arg f[] = { A_RAW(d, 4), A_STR("0a0B80ff") };
	struct vpux_cpu_arg bad[] = { A_RAW(keep, 4), A_STR("0a0B8xff") };

	check(!call("fill", f, NARG(f)), "fill succeeds%s", errbuf);
	check(d[0] == 10 && d[1] == 11 && d[2] == 0x80 && d[3] == 0xff, "fill bytes");
	expect_err("fill", bad, NARG(bad), "argument 1 (hex): 'x' at digit 5 is not a hex digit");
	check(keep[0] == 9 && keep[3] == 9, "a failing fill leaves the buffer alone");
	bad[1].str = "0a0b";
	expect_err("fill", bad, NARG(bad), "argument 1 (hex): 4 hex digits for buffer 'keep' of 4 bytes");
}

int main(void)
{
	struct vpux_cpu_library_init_args ia = {
		.size = sizeof(ia), .abi_version = VPUX_CPU_ABI_VERSION,
	};
	struct vpux_cpu_lookup_args la = { .size = sizeof(la) };

	if (library_init(&ia) || !ia.lookup) {
		printf("not ok 1 - library_init\n1..1\n");
		return 1;
	}
	lookup = ia.lookup;
	check(lookup("no_such_op", &la) == -ENOENT, "unknown function");
	test_relu_add();
	test_softmax_concat();
	test_conv();
	test_matmul_gemm();
	test_resize();
	test_fill();
	printf("1..%d\n# %d checks, %d failed\n", checks, checks, failures);
	return failures ? 1 : 0;
}
