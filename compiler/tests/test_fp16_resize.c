// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The "resize" op family and ConvTranspose on FP16 tensors: one-node
 * float models built in memory, compiled and run in process, checked
 * against a float64 computation of the ONNX formula on the FP16-rounded
 * inputs (nearest: bit-exact; linear and ConvTranspose: relative L2
 * error <= 1e-2, the FP16 rule, and far below it in practice); and each
 * refusal with its reason.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_build.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_float.h"
#include "vpux_tap.h"

/* ---- building one-node models: onnx_build.h ---- */

/* import + compile (with the vasm text); the status */
static int build(struct mb *b, struct vpuxc_result *r)
{
	static const struct vpuxc_options o = { .vasm = 1 };

	return mb_compile(b, &o, r);
}

/* the end of @b: refused with @frag in the message */
static void expect_refused(struct mb *b, const char *frag, const char *what)
{
	struct vpuxc_result r;
	int ret = build(b, &r);

	tap_check(ret == VPUX_E_UNSUPPORTED && strstr(vpux_last_error(), frag),
		  "%s refused: %s", what, ret ? vpux_last_error() : "compiled");
	vpuxc_result_fini(&r);
	mb_free(b);
}

/* ---- running: FP16 in, FP16 out, both row-major ---- */

static struct vpux_device *dev;	/* opened once */

static int run_net(const struct vpuxc_result *r, const uint16_t *in,
		   size_t isz, uint16_t *out, size_t osz)
{
	const void *ins[1] = { in };
	size_t bytes = isz * 2;
	int ret;

	if (!dev) {
		ret = vpux_device_open("inproc", &dev);
		if (ret)
			return ret;
	}
	return mb_run(dev, r, 1, ins, &bytes, out, osz * 2, 0);
}

static uint32_t seed = 12345;

/* n FP16 values in [-2, 2), and their exact values as doubles */
static void rand_f16(uint16_t *h, double *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		float f;
		uint32_t u;

		seed = seed * 1664525u + 1013904223u;
		f = (float)((seed >> 8) & 0xffff) / 16384.0f - 2.0f;
		memcpy(&u, &f, 4);
		h[i] = vpux_f32_to_f16(u);
		u = vpux_f16_to_f32(h[i]);
		memcpy(&f, &u, 4);
		d[i] = f;
	}
}

static double f16d(uint16_t h)
{
	uint32_t u = vpux_f16_to_f32(h);
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/*
 * Compile @b (its end), run it on @n_in random values, compare its
 * @n_out outputs with ref(in, out) (float64): exactly (@exact) or by
 * relative L2 error (<= 1e-2; printed). @no_kernel: the program must not
 * use @kernel (NULL: no such check); else it must.
 */
static void check_run(struct mb *b, size_t n_in, size_t n_out,
		      void (*ref)(const double *in, double *out),
		      int exact, const char *kernel, int no_kernel,
		      const char *what)
{
	uint16_t *hin = calloc(n_in, 2), *hout = calloc(n_out, 2);
	double *din = calloc(n_in, sizeof(double));
	double *dout = calloc(n_out, sizeof(double));
	struct vpuxc_result r;
	double num = 0, den = 0;
	size_t i, bad = 0;
	int ret;

	rand_f16(hin, din, n_in);
	ret = build(b, &r);
	if (!tap_check(!ret, "%s: compiles (%s)", what,
		       ret ? vpux_last_error() : "ok"))
		goto out;
	if (kernel)
		tap_check(!strstr(r.vasm, kernel) == !!no_kernel,
			  "%s: %s %s", what, no_kernel ? "no" : "uses", kernel);
	ret = run_net(&r, hin, n_in, hout, n_out);
	if (!tap_check(!ret, "%s: runs (%s)", what,
		       ret ? vpux_last_error() : "ok"))
		goto out;
	ref(din, dout);
	for (i = 0; i < n_out; i++) {
		double y = f16d(hout[i]);

		if (exact && (float)dout[i] != (float)y)
			bad++;
		if (!isfinite(y))
			bad++;
		num += (y - dout[i]) * (y - dout[i]);
		den += dout[i] * dout[i];
	}
	if (exact)
		tap_check(!bad, "%s: bit-exact (%zu of %zu differ)", what, bad,
			  n_out);
	else
		tap_check(!bad && sqrt(num / den) <= 1e-2,
			  "%s: rel-L2 %.3g <= 1e-2, finite", what,
			  sqrt(num / den));
out:
	vpuxc_result_fini(&r);
	mb_free(b);
	free(hin);
	free(hout);
	free(din);
	free(dout);
}

/* ---- Resize: the ONNX formula in float64 ---- */

enum { NEAREST, LINEAR };
enum { HALF, PYTORCH, ALIGN, ASYM, TFNN };
enum { RPF, RPC, FLOOR, CEIL };

static struct rcase {
	int rank;
	int64_t in[6], out[6];
	double scale[6];
	int mode, coord, nearest;
} rc;

static double rs_coord(int d, int64_t o)
{
	double s = rc.scale[d], lo = (double)rc.in[d], lr = (double)rc.out[d];

	switch (rc.coord) {
	case HALF:
		return (o + 0.5) / s - 0.5;
	case PYTORCH:
		return lr > 1 ? (o + 0.5) / s - 0.5 : 0;
	case ALIGN:
		return lr > 1 ? o * (lo - 1) / (lr - 1) : 0;
	case ASYM:
		return o / s;
	default:
		return (o + 0.5) / s;
	}
}

static int64_t rs_nearest(int d, int64_t o)
{
	double x = rs_coord(d, o), f = floor(x);
	int64_t i;

	switch (rc.nearest) {
	case RPF:
		i = x - f > 0.5 ? (int64_t)f + 1 : (int64_t)f;
		break;
	case RPC:
		i = x - f >= 0.5 ? (int64_t)f + 1 : (int64_t)f;
		break;
	case FLOOR:
		i = (int64_t)f;
		break;
	default:
		i = (int64_t)ceil(x);
		break;
	}
	return i < 0 ? 0 : i >= rc.in[d] ? rc.in[d] - 1 : i;
}

static void rs_ref(const double *in, double *out)
{
	int64_t o[6] = { 0 }, n = 1, k;
	int d, R = rc.rank;

	for (d = 0; d < R; d++)
		n *= rc.out[d];
	for (k = 0; k < n; k++) {
		int64_t rem = k, off = 0;

		for (d = R - 1; d >= 0; d--) {
			o[d] = rem % rc.out[d];
			rem /= rc.out[d];
		}
		if (rc.mode == NEAREST) {
			for (d = 0; d < R; d++)
				off = off * rc.in[d] + rs_nearest(d, o[d]);
			out[k] = in[off];
			continue;
		}
		/* linear on the last two dims */
		for (d = 0; d < R - 2; d++)
			off = off * rc.in[d] + o[d];
		{
			int64_t H = rc.in[R - 2], W = rc.in[R - 1], y0, x0, y1, x1;
			double y = rs_coord(R - 2, o[R - 2]);
			double x = rs_coord(R - 1, o[R - 1]), wy, wx;
			const double *p = in + off * H * W;

			y = y < 0 ? 0 : y > H - 1 ? H - 1 : y;
			x = x < 0 ? 0 : x > W - 1 ? W - 1 : x;
			y0 = (int64_t)floor(y);
			x0 = (int64_t)floor(x);
			y1 = y0 + 1 < H ? y0 + 1 : H - 1;
			x1 = x0 + 1 < W ? x0 + 1 : W - 1;
			wy = y - y0;
			wx = x - x0;
			out[k] = (p[y0 * W + x0] * (1 - wx) + p[y0 * W + x1] * wx) * (1 - wy) +
				 (p[y1 * W + x0] * (1 - wx) + p[y1 * W + x1] * wx) * wy;
		}
	}
}

static const char *const mode_s[] = { "nearest", "linear" };
static const char *const coord_s[] = {
	"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
	"tf_half_pixel_for_nn",
};
static const char *const nearest_s[] = {
	"round_prefer_floor", "round_prefer_ceil", "floor", "ceil",
};

static size_t numel(const int64_t *d, int r)
{
	size_t n = 1;
	int i;

	for (i = 0; i < r; i++)
		n *= (size_t)d[i];
	return n;
}

/*
 * Resize (opset @opset) of rc: scales (@sizes 0) or sizes as constants;
 * @kernel_expected: the SHAVE kernel (1) or the DMA path (0).
 */
static void resize_case(int64_t opset, int sizes, int kernel_expected,
			const char *what)
{
	static char *in_s[] = { "x", "", "sc" }, *in_z[] = { "x", "", "", "sz" };
	static char *out[] = { "y" };
	static float sc[6];
	static int64_t sz[6], cnt[1];
	struct mb b;
	Onnx__NodeProto *n;
	int d;

	for (d = 0; d < rc.rank; d++) {
		if (sizes)
			rc.scale[d] = (double)rc.out[d] / (double)rc.in[d];
		else
			rc.out[d] = (int64_t)floor(rc.in[d] * rc.scale[d]);
		sc[d] = (float)rc.scale[d];
		sz[d] = rc.out[d];
	}
	cnt[0] = rc.rank;
	mb_init(&b, opset);
	mb_input(&b, "x", 1, rc.rank, rc.in);
	mb_output(&b, "y", 1, -1, NULL);
	if (sizes)
		mb_const(&b, "sz", 7, 1, cnt, sz);
	else
		mb_const(&b, "sc", 1, 1, cnt, sc);
	n = mb_node(&b, "Resize", NULL, sizes ? in_z : in_s, sizes ? 4 : 3,
		    out, 1);
	mb_attr_str(&b, n, "mode", mode_s[rc.mode]);
	mb_attr_str(&b, n, "coordinate_transformation_mode",
		    coord_s[rc.coord]);
	mb_attr_str(&b, n, "nearest_mode", nearest_s[rc.nearest]);
	check_run(&b, numel(rc.in, rc.rank), numel(rc.out, rc.rank), rs_ref,
		  rc.mode == NEAREST, "shave resize", !kernel_expected, what);
}

static void set_rc(int rank, const int64_t *in, const double *scale_or_out,
		   int mode, int coord, int nearest)
{
	int d;

	memset(&rc, 0, sizeof(rc));
	rc.rank = rank;
	for (d = 0; d < rank; d++) {
		rc.in[d] = in[d];
		rc.scale[d] = scale_or_out[d];
		rc.out[d] = (int64_t)scale_or_out[d];
	}
	rc.mode = mode;
	rc.coord = coord;
	rc.nearest = nearest;
}

static void test_resize(void)
{
	static const int64_t x4[4] = { 2, 5, 6, 7 }, x4b[4] = { 1, 3, 8, 10 };
	static const int64_t x3[3] = { 3, 5, 4 };
	static const double s22[4] = { 1, 1, 2, 2 }, s32[4] = { 1, 1, 3, 2 };
	static const double sh[4] = { 1, 1, 0.5, 0.5 };
	static const double s3[3] = { 1, 2, 1.5 };
	static const double o1[4] = { 2, 5, 11, 9 }, o2[4] = { 1, 3, 5, 13 };
	static const double o3[4] = { 2, 5, 4, 5 };

	/* torch's nearest x2: the DMA path */
	set_rc(4, x4, s22, NEAREST, ASYM, FLOOR);
	resize_case(13, 0, 0, "nearest x2 asymmetric floor");
	set_rc(4, x4, s32, NEAREST, HALF, RPF);
	resize_case(13, 0, 0, "nearest x3,x2 half_pixel");
	set_rc(4, x4, s22, NEAREST, TFNN, FLOOR);
	resize_case(11, 0, 0, "nearest x2 tf_half_pixel_for_nn floor");
	/* index maps other than o / f: the kernel */
	set_rc(4, x4, s22, NEAREST, ASYM, RPC);
	resize_case(13, 0, 1, "nearest x2 asymmetric round_prefer_ceil");
	set_rc(4, x4, o1, NEAREST, ALIGN, RPC);
	resize_case(13, 1, 1, "nearest sizes align_corners");
	set_rc(4, x4b, sh, NEAREST, PYTORCH, CEIL);
	resize_case(13, 0, 1, "nearest x0.5 pytorch_half_pixel ceil");
	set_rc(3, x3, s3, NEAREST, HALF, RPF);
	resize_case(13, 0, 1, "nearest 3-D");
	/* linear */
	set_rc(4, x4, s22, LINEAR, HALF, RPF);
	resize_case(13, 0, 1, "bilinear x2 half_pixel");
	set_rc(4, x4b, o2, LINEAR, ALIGN, RPF);
	resize_case(13, 1, 1, "bilinear sizes align_corners");
	set_rc(4, x4, o3, LINEAR, PYTORCH, RPF);
	resize_case(19, 1, 1, "bilinear down pytorch_half_pixel, opset 19");
	set_rc(4, x4b, sh, LINEAR, ASYM, RPF);
	resize_case(13, 0, 1, "bilinear x0.5 asymmetric");
}

/* Upsample 7 (attribute) and 9 (input), Resize 10 and Resize 18 axes */
static void test_upsample(void)
{
	static const int64_t x4[4] = { 1, 4, 5, 6 }, c4[1] = { 4 }, c2[1] = { 2 };
	static const int64_t axes[2] = { 2, 3 };
	static const float s4[4] = { 1, 1, 2, 3 }, s2[2] = { 2, 3 };
	static char *in1[] = { "x" }, *in2[] = { "x", "sc" };
	static char *in18[] = { "x", "", "sc" }, *out[] = { "y" };
	static const double d4[4] = { 1, 1, 2, 3 };
	struct mb b;
	Onnx__NodeProto *n;

	set_rc(4, x4, d4, LINEAR, ASYM, RPF);
	rc.out[1] = 4;
	rc.out[2] = 10;
	rc.out[3] = 18;
	mb_init(&b, 7);
	mb_input(&b, "x", 1, 4, x4);
	mb_output(&b, "y", 1, -1, NULL);
	n = mb_node(&b, "Upsample", NULL, in1, 1, out, 1);
	mb_attr_str(&b, n, "mode", "linear");
	mb_attr_floats(&b, n, "scales", s4, 4);
	check_run(&b, 120, 720, rs_ref, 0, "shave resize", 0,
		  "Upsample-7 linear (asymmetric)");

	rc.mode = NEAREST;
	rc.nearest = FLOOR;
	mb_init(&b, 9);
	mb_input(&b, "x", 1, 4, x4);
	mb_output(&b, "y", 1, -1, NULL);
	mb_const(&b, "sc", 1, 1, c4, s4);
	mb_node(&b, "Upsample", NULL, in2, 2, out, 1);
	check_run(&b, 120, 720, rs_ref, 1, "shave resize", 1,
		  "Upsample-9 nearest");

	mb_init(&b, 10);
	mb_input(&b, "x", 1, 4, x4);
	mb_output(&b, "y", 1, -1, NULL);
	mb_const(&b, "sc", 1, 1, c4, s4);
	mb_node(&b, "Resize", NULL, in2, 2, out, 1);
	check_run(&b, 120, 720, rs_ref, 1, NULL, 0, "Resize-10 nearest");

	rc.coord = HALF;
	rc.nearest = RPF;
	rc.mode = LINEAR;
	mb_init(&b, 18);
	mb_input(&b, "x", 1, 4, x4);
	mb_output(&b, "y", 1, -1, NULL);
	mb_const(&b, "sc", 1, 1, c2, s2);
	n = mb_node(&b, "Resize", NULL, in18, 3, out, 1);
	mb_attr_str(&b, n, "mode", "linear");
	mb_attr_ints(&b, n, "axes", axes, 2);
	check_run(&b, 120, 720, rs_ref, 0, NULL, 0, "Resize-18 axes=2,3");
}

static void test_resize_refused(void)
{
	static const int64_t x4[4] = { 1, 2, 4, 4 }, c4[1] = { 4 };
	static const float s4[4] = { 1, 1, 2, 2 }, s4c[4] = { 1, 2, 2, 2 };
	static char *in_s[] = { "x", "", "sc" }, *in_r[] = { "x", "", "s" };
	static char *out[] = { "y" };
	static const struct {
		const char *attr, *val;
		int64_t ival;
		const char *frag;
	} bad[] = {
		{ "mode", "cubic", 0, "mode 'cubic' is not supported" },
		{ "coordinate_transformation_mode", "tf_crop_and_resize", 0,
		  "coordinate_transformation_mode 'tf_crop_and_resize'" },
		{ "coordinate_transformation_mode", "half_pixel_symmetric", 0,
		  "'half_pixel_symmetric' is not supported" },
		{ "keep_aspect_ratio_policy", "not_larger", 0,
		  "keep_aspect_ratio_policy 'not_larger' is not supported" },
		{ "antialias", NULL, 1, "antialias is not supported" },
		{ "exclude_outside", NULL, 1, "exclude_outside is not supported" },
	};
	struct mb b;
	Onnx__NodeProto *n;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mb_init(&b, 19);
		mb_input(&b, "x", 1, 4, x4);
		mb_output(&b, "y", 1, -1, NULL);
		mb_const(&b, "sc", 1, 1, c4, s4);
		n = mb_node(&b, "Resize", NULL, in_s, 3, out, 1);
		if (bad[i].val)
			mb_attr_str(&b, n, bad[i].attr, bad[i].val);
		else
			mb_attr_int(&b, n, bad[i].attr, bad[i].ival);
		expect_refused(&b, bad[i].frag, bad[i].frag);
	}
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, x4);
	mb_input(&b, "s", 1, 1, c4);
	mb_output(&b, "y", 1, -1, NULL);
	mb_node(&b, "Resize", NULL, in_r, 3, out, 1);
	expect_refused(&b, "scales 's' is not a constant", "run-time scales");
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, x4);
	mb_output(&b, "y", 1, -1, NULL);
	mb_const(&b, "sc", 1, 1, c4, s4c);
	n = mb_node(&b, "Resize", NULL, in_s, 3, out, 1);
	mb_attr_str(&b, n, "mode", "linear");
	expect_refused(&b, "linear resize of dim 1", "linear resize of channels");
}

/* ---- ConvTranspose: the direct formula in float64 ---- */

static struct ccase {
	int64_t N, C, H, W, OC, k[2], s[2], pb[2], pe[2], op[2], g;
	int64_t Ho, Wo;
	double w[4096], bias[64];
	int has_bias, relu;
} cc;

static void ct_ref(const double *x, double *y)
{
	int64_t icg = cc.C / cc.g, ocg = cc.OC / cc.g, n, o, oy, ox, i, ky, kx;

	for (n = 0; n < cc.N; n++)
		for (o = 0; o < cc.OC; o++)
			for (oy = 0; oy < cc.Ho; oy++)
				for (ox = 0; ox < cc.Wo; ox++) {
					double acc = cc.has_bias ? cc.bias[o] : 0;

					for (i = 0; i < icg; i++)
						for (ky = 0; ky < cc.k[0]; ky++)
							for (kx = 0; kx < cc.k[1]; kx++) {
								int64_t ty = oy + cc.pb[0] - ky;
								int64_t tx = ox + cc.pb[1] - kx;
								int64_t iy = ty / cc.s[0], ix = tx / cc.s[1];
								int64_t ic = o / ocg * icg + i;

								if (ty < 0 || tx < 0 || ty % cc.s[0] ||
								    tx % cc.s[1] || iy >= cc.H || ix >= cc.W)
									continue;
								acc += x[((n * cc.C + ic) * cc.H + iy) * cc.W + ix] *
								       cc.w[((ic * ocg + o % ocg) * cc.k[0] + ky) * cc.k[1] + kx];
							}
					if (cc.relu && acc < 0)
						acc = 0;
					y[((n * cc.OC + o) * cc.Ho + oy) * cc.Wo + ox] = acc;
				}
}

/*
 * ConvTranspose of cc (pads [pb, pe], output_padding op; @oshape: give
 * the output size as output_shape instead of the pads), then Relu if
 * cc.relu.
 */
static void ct_case(int oshape, const char *what)
{
	static char *in3[] = { "x", "w", "b" }, *in2[] = { "x", "w" };
	static char *out[] = { "c" }, *rin[] = { "c" }, *rout[] = { "y" };
	static char *out_y[] = { "y" };
	static int64_t xd[4], wd[4], bd[1], st[2], pads[4], op[2], os[2];
	static float wf[4096], bf[64];
	static uint16_t h[4096];
	static double d[4096];
	struct mb b;
	Onnx__NodeProto *n;
	size_t nw;
	int i;

	cc.Ho = cc.s[0] * (cc.H - 1) + cc.op[0] + cc.k[0] - cc.pb[0] - cc.pe[0];
	cc.Wo = cc.s[1] * (cc.W - 1) + cc.op[1] + cc.k[1] - cc.pb[1] - cc.pe[1];
	xd[0] = cc.N;
	xd[1] = cc.C;
	xd[2] = cc.H;
	xd[3] = cc.W;
	wd[0] = cc.C;
	wd[1] = cc.OC / cc.g;
	wd[2] = cc.k[0];
	wd[3] = cc.k[1];
	bd[0] = cc.OC;
	nw = (size_t)(wd[0] * wd[1] * wd[2] * wd[3]);
	rand_f16(h, d, nw);
	for (i = 0; i < (int)nw; i++) {
		cc.w[i] = d[i] / 4;
		wf[i] = (float)cc.w[i];
	}
	rand_f16(h, d, (size_t)cc.OC);
	for (i = 0; i < cc.OC; i++) {
		cc.bias[i] = d[i];
		bf[i] = (float)d[i];
	}
	for (i = 0; i < 2; i++) {
		st[i] = cc.s[i];
		pads[i] = cc.pb[i];
		pads[i + 2] = cc.pe[i];
		op[i] = cc.op[i];
	}
	os[0] = cc.Ho;
	os[1] = cc.Wo;
	mb_init(&b, 17);
	mb_input(&b, "x", 1, 4, xd);
	mb_output(&b, "y", 1, -1, NULL);
	mb_const(&b, "w", 1, 4, wd, wf);
	if (cc.has_bias)
		mb_const(&b, "b", 1, 1, bd, bf);
	n = mb_node(&b, "ConvTranspose", NULL, cc.has_bias ? in3 : in2,
		    cc.has_bias ? 3 : 2, cc.relu ? out : out_y, 1);
	mb_attr_ints(&b, n, "strides", st, 2);
	if (oshape) {
		mb_attr_ints(&b, n, "output_shape", os, 2);
	} else {
		mb_attr_ints(&b, n, "pads", pads, 4);
		mb_attr_ints(&b, n, "output_padding", op, 2);
	}
	mb_attr_int(&b, n, "group", cc.g);
	if (cc.relu)
		mb_node(&b, "Relu", NULL, rin, 1, rout, 1);
	check_run(&b, (size_t)(cc.N * cc.C * cc.H * cc.W),
		  (size_t)(cc.N * cc.OC * cc.Ho * cc.Wo), ct_ref, 0,
		  "dpu conv", 0, what);
}

static void set_cc(int64_t N, int64_t C, int64_t H, int64_t W, int64_t OC,
		   int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t g)
{
	memset(&cc, 0, sizeof(cc));
	cc.N = N;
	cc.C = C;
	cc.H = H;
	cc.W = W;
	cc.OC = OC;
	cc.k[0] = kh;
	cc.k[1] = kw;
	cc.s[0] = sh;
	cc.s[1] = sw;
	cc.g = g;
	cc.has_bias = 1;
}

static void test_convtranspose(void)
{
	set_cc(1, 8, 6, 7, 4, 2, 2, 2, 2, 1);
	ct_case(0, "ConvTranspose k2 s2 (UNet)");
	set_cc(2, 6, 5, 6, 4, 3, 3, 2, 2, 1);
	cc.pb[0] = cc.pb[1] = cc.pe[0] = cc.pe[1] = 1;
	cc.op[0] = cc.op[1] = 1;
	ct_case(0, "ConvTranspose k3 s2 pads 1 output_padding 1, batch 2");
	set_cc(1, 6, 6, 6, 6, 4, 4, 2, 2, 6);
	cc.pb[0] = cc.pb[1] = cc.pe[0] = cc.pe[1] = 1;
	cc.relu = 1;
	ct_case(0, "ConvTranspose depthwise k4 s2 pads 1 + Relu");
	set_cc(1, 4, 5, 5, 6, 3, 3, 1, 1, 2);
	cc.pb[0] = cc.pb[1] = cc.pe[0] = cc.pe[1] = 1;
	ct_case(0, "ConvTranspose groups 2 s1 (one direct phase)");
	set_cc(1, 4, 4, 5, 4, 2, 2, 3, 3, 1);
	cc.relu = 1;
	ct_case(0, "ConvTranspose s3 > k2 (bias-only phases) + Relu");
	set_cc(1, 5, 5, 4, 3, 3, 5, 2, 3, 1);
	cc.pb[0] = 0;
	cc.pb[1] = 4;
	cc.pe[0] = 2;
	cc.pe[1] = 1;
	cc.has_bias = 0;
	ct_case(0, "ConvTranspose asymmetric pads above the kernel, no bias");
	set_cc(1, 3, 4, 4, 2, 3, 3, 2, 2, 1);
	cc.pb[0] = cc.pb[1] = 1;
	ct_case(1, "ConvTranspose output_shape");
}

static void test_convtranspose_refused(void)
{
	static const int64_t x4[4] = { 1, 2, 4, 4 }, w4[4] = { 2, 2, 3, 3 };
	static const int64_t x3[3] = { 1, 2, 4 }, w3[3] = { 2, 2, 3 };
	static const int64_t dil[2] = { 2, 2 };
	static float wf[36];
	static char *in[] = { "x", "w" }, *out[] = { "y" };
	struct mb b;
	Onnx__NodeProto *n;

	mb_init(&b, 17);
	mb_input(&b, "x", 1, 4, x4);
	mb_output(&b, "y", 1, -1, NULL);
	mb_const(&b, "w", 1, 4, w4, wf);
	n = mb_node(&b, "ConvTranspose", NULL, in, 2, out, 1);
	mb_attr_ints(&b, n, "dilations", dil, 2);
	expect_refused(&b, "dilation 2: only 1 is supported", "dilation 2");

	mb_init(&b, 17);
	mb_input(&b, "x", 1, 4, x4);
	mb_input(&b, "w", 1, 4, w4);
	mb_output(&b, "y", 1, -1, NULL);
	mb_node(&b, "ConvTranspose", NULL, in, 2, out, 1);
	expect_refused(&b, "weights and bias must be constants",
		       "run-time weights");

	mb_init(&b, 17);
	mb_input(&b, "x", 1, 3, x3);
	mb_output(&b, "y", 1, -1, NULL);
	mb_const(&b, "w", 1, 3, w3, wf);
	mb_node(&b, "ConvTranspose", NULL, in, 2, out, 1);
	expect_refused(&b, "1-D transposed convolution", "1-D");
}

int main(void)
{
	test_resize();
	test_upsample();
	test_resize_refused();
	test_convtranspose();
	test_convtranspose_refused();
	if (dev)
		vpux_device_close(dev);
	return tap_finish();
}
