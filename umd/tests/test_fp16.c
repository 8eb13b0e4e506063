// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FP16 and FP32 in the loadable and the text format (loadable 1.3,
 * Documentation/loadable.rst and vpux-asm.rst): the float literals
 * (every FP16 value back from its decimal and hex-float spellings, the
 * decimals that would round twice through a double, FP32 printed as the
 * shortest decimal that reads back), float fills and data lines, the
 * FP16 DPU syntax and the records it writes, each new loader rule with
 * its exact message, and each bad construct the assembler refuses with
 * its own "file:line:column: error:" message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "lf.h"
#include "vasm.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_regs.h"
#include "vpux_tap.h"

static char errbuf[4096];

/* assemble @text; errors into errbuf */
static int assemble(const char *text, struct lf_image *img)
{
	return asm_capture(text, img, errbuf, sizeof(errbuf));
}

static uint32_t parse(const char *s, uint32_t dt, int *ok)
{
	const char *why;
	uint32_t b = 0xdeadbeef;

	*ok = !vasm_float_parse(s, dt, &b, &why);
	return b;
}

/* every FP16 value from "%.5g" and "%a" of its exact value */
static void test_f16_literals(void)
{
	unsigned int h, bad_dec = 0, bad_hex = 0, n = 0;
	char buf[64];
	int ok;

	for (h = 0; h < 0x10000; h++) {
		uint32_t e = h >> 10 & 0x1f, m = h & 0x3ff;
		double v;

		if (e == 0x1f)
			continue;	/* inf, nan: by name */
		v = e ? (double)(m | 0x400) * (double)(1u << e) / (1u << 25) :
			(double)m / (1u << 24);
		if (h >> 15)
			v = -v;
		snprintf(buf, sizeof(buf), "%.5g", v);
		bad_dec += parse(buf, VPUX_DT_F16, &ok) != h || !ok;
		snprintf(buf, sizeof(buf), "%a", v);
		bad_hex += parse(buf, VPUX_DT_F16, &ok) != h || !ok;
		n++;
	}
	tap_check(!bad_dec && !bad_hex,
		  "all %u finite FP16 values read back from 5 decimal digits (%u wrong) and from hex-float (%u wrong)",
		  n, bad_dec, bad_hex);
}

static const struct {
	const char *lit;
	uint32_t dt, bits;
} lits[] = {
	{ "0", VPUX_DT_F16, 0x0000 }, { "-0", VPUX_DT_F16, 0x8000 },
	{ "1.5", VPUX_DT_F16, 0x3e00 }, { "-0x1p-3", VPUX_DT_F16, 0xb000 },
	{ "+2", VPUX_DT_F16, 0x4000 }, { ".5", VPUX_DT_F16, 0x3800 },
	{ "65504", VPUX_DT_F16, 0x7bff }, { "65519", VPUX_DT_F16, 0x7bff },
	{ "0x1p-24", VPUX_DT_F16, 0x0001 }, { "3e-8", VPUX_DT_F16, 0x0001 },
	{ "inf", VPUX_DT_F16, 0x7c00 }, { "-inf", VPUX_DT_F16, 0xfc00 },
	{ "nan", VPUX_DT_F16, 0x7e00 }, { "-nan", VPUX_DT_F16, 0xfe00 },
	{ "snan", VPUX_DT_F16, 0x7d00 }, { "-snan", VPUX_DT_F16, 0xfd00 },
	/* ties to even, and a hair above/below one: no double rounding */
	{ "1.00048828125", VPUX_DT_F16, 0x3c00 },
	{ "1.00048828125000000000001", VPUX_DT_F16, 0x3c01 },
	{ "1.00146484375", VPUX_DT_F16, 0x3c02 },
	{ "1.00146484374999999999999", VPUX_DT_F16, 0x3c01 },
	{ "0.1", VPUX_DT_F32, 0x3dcccccd }, { "-0", VPUX_DT_F32, 0x80000000 },
	{ "1e-45", VPUX_DT_F32, 0x00000001 },
	{ "3.4028235e38", VPUX_DT_F32, 0x7f7fffff },
	{ "inf", VPUX_DT_F32, 0x7f800000 }, { "nan", VPUX_DT_F32, 0x7fc00000 },
	{ "-snan", VPUX_DT_F32, 0xffa00000 },
	{ "16777217", VPUX_DT_F32, 0x4b800000 },	/* tie, to even */
	{ "16777217.000000000000001", VPUX_DT_F32, 0x4b800001 },
};

static const struct {
	const char *lit;
	uint32_t dt;
	const char *why;
} badlits[] = {
	{ "70000", VPUX_DT_F16, "outside the f16 range" },
	{ "65520", VPUX_DT_F16, "outside the f16 range" },
	{ "1e39", VPUX_DT_F32, "outside the f32 range" },
	{ "1e-8", VPUX_DT_F16, "rounds to 0 in f16" },
	{ "1e-400", VPUX_DT_F32, "rounds to 0 in f32" },
	{ "infinity", VPUX_DT_F16, "expected a number" },
	{ "nan(1)", VPUX_DT_F32, "expected a number" },
	{ "NaN", VPUX_DT_F32, "expected a number" },
	{ "1.5x", VPUX_DT_F32, "expected a number" },
	{ "", VPUX_DT_F16, "expected a number" },
	{ "-", VPUX_DT_F16, "expected a number" },
	{ "0x", VPUX_DT_F16, "expected a number" },
};

static void test_literals(void)
{
	unsigned int i, bad = 0, n = 0;
	uint32_t seed = 1, b;
	const char *why;
	char buf[64];
	int ok;

	test_f16_literals();
	for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		b = parse(lits[i].lit, lits[i].dt, &ok);
		tap_check(ok && b == lits[i].bits, "%s '%s' is 0x%x (0x%x)",
			  hc_dev_type_name(lits[i].dt), lits[i].lit,
			  lits[i].bits, b);
	}
	for (i = 0; i < sizeof(badlits) / sizeof(badlits[0]); i++) {
		int r = vasm_float_parse(badlits[i].lit, badlits[i].dt, &b,
					 &why);

		tap_check(r && why && strstr(why, badlits[i].why),
			  "%s '%s' refused: %s",
			  hc_dev_type_name(badlits[i].dt),
			  badlits[i].lit, why ? why : "(accepted)");
	}
	/* FP32 printed: the shortest decimal that reads back */
	vasm_f32_print(0x3f800000, buf, sizeof(buf));
	tap_check(!strcmp(buf, "1"), "FP32 1 prints as '%s'", buf);
	vasm_f32_print(0x3dcccccd, buf, sizeof(buf));
	tap_check(!strcmp(buf, "0.1"), "FP32 0.1 prints as '%s'", buf);
	vasm_f32_print(0x80000000, buf, sizeof(buf));
	tap_check(!strcmp(buf, "-0"), "FP32 -0 prints as '%s'", buf);
	vasm_f32_print(0xff800000, buf, sizeof(buf));
	tap_check(!strcmp(buf, "-inf"), "FP32 -inf prints as '%s'", buf);
	vasm_f32_print(0x00000001, buf, sizeof(buf));
	tap_check(!strcmp(buf, "1e-45"), "FP32 0x1p-149 prints as '%s'", buf);
	for (i = 0; i < 300000; i++) {
		uint32_t x;

		seed = seed * 1103515245u + 12345u;
		x = seed ^ (seed << 13);
		if ((x & 0x7fffffffu) > 0x7f800000u)
			continue;	/* NaN: not a field value */
		vasm_f32_print(x, buf, sizeof(buf));
		bad += parse(buf, VPUX_DT_F32, &ok) != x || !ok ||
		       strlen(buf) > 15;
		n++;
	}
	tap_check(!bad, "%u random FP32 values print and read back the same bits (%u wrong)",
		  n, bad);
}

/* ---- fills, data lines and the FP16 DPU syntax ---- */

static uint16_t ld16(const uint8_t *p, size_t i)
{
	return (uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
}

static uint32_t ld32(const uint8_t *p, size_t i)
{
	return (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
	       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
}

static void test_syntax(void)
{
	static const char *text =
		"input x f16 1x8x4x4 order=NHWC\n"
		"output y f32 1x8x4x4 order=NHWC\n"
		"tensor w f16 8x1x1x8 region=weights fill=seed:5:-2:2\n"
		"tensor b f32 8 region=weights fill=const:-0\n"
		"tensor v f16 6 region=weights\n"
		"data v f16 1.5, -0x1p-3, inf  -inf,nan 0x1p-24\n"
		"tensor s f16 1 region=weights fill=const:0.25\n"
		"tensor c f16 1x8x4x4 order=NHWC\n"
		"dpu conv in=x in2=w bias=b out=c act=clamp clamp_lo=-1 clamp_hi=6\n"
		"dpu sub in=c in2=s out=y bcast=scalar scale=0.5 shift=-1 act=leaky slope=0.1\n";
	struct lf_image img, img2;
	const struct vpux_lf_tensor *T;
	const struct vpux_lf_dpu *d;
	unsigned int i, in = 1, diff = 0;
	const uint8_t *w;

	if (!tap_check(!assemble(text, &img), "FP16 network assembles (%s)",
		       errbuf))
		return;
	T = img.tensors;
	w = img.weights;
	tap_check(T[0].data_type == VPUX_DT_F16 && T[1].data_type == VPUX_DT_F32 &&
		  T[0].size == 256 && T[1].size == 512 &&
		  T[0].strides[1] == 16 && T[0].strides[3] == 128,
		  "f16/f32 tensors: types, sizes and strides of 2- and 4-byte elements");
	for (i = 0; i < 64; i++) {
		uint16_t h = ld16(w + T[2].offset, i);

		/* in [-2, 2]: |h| <= 0x4000 */
		in &= (h & 0x7fff) <= 0x4000;
		diff += h != ld16(w + T[2].offset, 0);
	}
	tap_check(in && diff > 50,
		  "fill=seed:5:-2:2: 64 FP16 values within [-2, 2], %u differ from the first",
		  diff);
	tap_check(ld32(w + T[3].offset, 0) == 0x80000000 &&
		  ld32(w + T[3].offset, 7) == 0x80000000,
		  "fill=const:-0 of f32: every element 0x80000000");
	tap_check(ld16(w + T[4].offset, 0) == 0x3e00 &&
		  ld16(w + T[4].offset, 1) == 0xb000 &&
		  ld16(w + T[4].offset, 2) == 0x7c00 &&
		  ld16(w + T[4].offset, 3) == 0xfc00 &&
		  ld16(w + T[4].offset, 4) == 0x7e00 &&
		  ld16(w + T[4].offset, 5) == 0x0001,
		  "data v f16 1.5, -0x1p-3, inf  -inf,nan 0x1p-24: the six patterns");
	d = &img.dpu[0];
	tap_check(d->flags == (VPUX_DPU_F_FP16 | VPUX_DPU_F_BIAS) &&
		  d->f.act == VPUX_DPU_ACT_CLAMP && d->f.clamp_lo == 0xbf800000 &&
		  d->f.clamp_hi == 0x40c00000 && !d->f.scale && !d->f.slope,
		  "conv: flags fp16,bias from the operands, act=clamp with its FP32 bounds");
	d = &img.dpu[1];
	tap_check(d->op == VPUX_DPU_OP_SUB &&
		  d->flags == (VPUX_DPU_F_FP16 | VPUX_DPU_F_OUT_F32 |
			       VPUX_DPU_F_SCALE |
			       VPUX_DPU_BCAST_SCALAR << VPUX_DPU_F_BCAST_SHIFT) &&
		  d->f.scale == 0x3f000000 && d->f.shift == 0xbf800000 &&
		  d->f.act == VPUX_DPU_ACT_LEAKY && d->f.slope == 0x3dcccccd &&
		  !d->f.clamp_lo && !d->f.clamp_hi,
		  "sub: out_f32 from the f32 out, scale from scale=, bcast=scalar, leaky slope 0.1");
	tap_check(!lf_validate(&img), "it validates (%s)", vpux_last_error());
	asm_free(&img);

	/* flags= by name is exact: no inference; words add */
	tap_check(!assemble("input x f16 4x8\noutput y f16 4x8\n"
			    "tensor w f16 8x8 region=weights\n"
			    "dpu matmul in=x in2=w out=y flags=fp16,w_kn\n"
			    "dpu matmul in=x in2=w out=y flags=64 batch\n"
			    "dpu add fp16 in=x in2=x out=y flags=0x300\n", &img) &&
		  img.dpu[0].flags == (VPUX_DPU_F_FP16 | VPUX_DPU_F_W_KN) &&
		  img.dpu[1].flags == (VPUX_DPU_F_FP16 | VPUX_DPU_F_BATCH) &&
		  img.dpu[2].flags == (VPUX_DPU_F_FP16 | VPUX_DPU_F_BCAST_MASK),
		  "flags=fp16,w_kn, flags=64 plus the word batch, fp16 plus flags=0x300 (%s)",
		  errbuf);
	asm_free(&img);

	/* an integer op keeps its defaults: act_min/act_max, not FP16 words */
	tap_check(!assemble("input x u8 1x8x4x4 order=NHWC\noutput y u8 1x8x4x4 order=NHWC\n"
			    "dpu maxpool in=x out=y requant=1073741824,0\n", &img) &&
		  img.dpu[0].flags == 0 && img.dpu[0].act_max == 255 &&
		  !lf_validate(&img),
		  "u8 maxpool: integer op, act_max 255 as before (%s)", errbuf);
	asm_free(&img);

	/* the same text twice: the same bytes (the fills are deterministic) */
	if (!assemble(text, &img) && !assemble(text, &img2)) {
		tap_check(img.hdr.weights_size == img2.hdr.weights_size &&
			  !memcmp(img.weights, img2.weights,
				  img.hdr.weights_size),
			  "float fills are deterministic");
		asm_free(&img2);
		asm_free(&img);
	}
}

/* ---- the loader's rules ---- */

static const char *fbase =
	"network t\n"
	"input x f16 1x8x4x4 order=NHWC\n"
	"output y f16 1x8x4x4 order=NHWC\n"
	"tensor w f16 8x1x1x8 region=weights fill=seed:1\n"
	"tensor b f32 8 region=weights fill=const:0.5\n"
	"tensor bh f16 16 region=weights\n"
	"tensor q f32 8x4 region=weights fill=const:1\n"
	"tensor c f16 1x8x4x4 order=NHWC\n"
	"tensor u u8 1x16x4x4 order=NHWC\n"
	"dpu conv in=x in2=w bias=b out=c act=relu\n"
	"dpu mul in=c in2=x out=y\n";
enum { T_X, T_Y, T_W, T_B, T_BH, T_Q, T_C, T_U };

static const char *ibase =
	"network t\n"
	"input x i8 1x8x4x4 order=NHWC\n"
	"output y i8 1x8x4x4 order=NHWC\n"
	"tensor w i8 8x1x1x8 region=weights fill=seed:1\n"
	"tensor h f16 64 region=weights\n"
	"dpu conv in=x in2=w out=y requant=1073741824,8\n";
enum { I_X, I_Y, I_W, I_H };

static struct lf_image img;
static const char *cur;

static void fresh(const char *text)
{
	if (img.tensors)
		asm_free(&img);
	cur = text;
	if (assemble(text, &img)) {
		fprintf(stderr, "%s", errbuf);
		abort();
	}
}

/* validate the mutated image; expect VPUX_E_FORMAT and @what */
static void expect(const char *what, const char *name)
{
	int r = lf_validate(&img);

	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), what),
		  "%s: refused (%d, '%s')", name, r, vpux_last_error());
	fresh(cur);
}

static void valid(const char *name)
{
	int r = lf_validate(&img);

	tap_check(!r, "%s: valid (%s)", name, r ? vpux_last_error() : "ok");
	fresh(cur);
}

static void test_loader(void)
{
	fresh(fbase);
	valid("FP16 base network");
	img.tensors[T_X].zero_point = 3;
	expect(".vpux.tensors: record 0: field zero_point: 3: an f16 tensor has no quantisation (must be 0)",
	       "an f16 tensor with a zero point");
	img.tensors[T_B].scale_mult = 5;
	expect(".vpux.tensors: record 3: field scale: mult 5 shift 0: an f32 tensor has no quantisation (both must be 0)",
	       "an f32 tensor with a scale");
	img.tensors[T_B].scale_shift = -1;
	expect(".vpux.tensors: record 3: field scale: mult 0 shift -1",
	       "an f32 tensor with a scale shift");
	img.hdr.version_minor = 2;
	expect(".vpux.tensors: record 0: field data_type: f16 is a type from format 1.3 (the file is 1.2)",
	       "an f16 tensor in a 1.2 file");
	img.tensors[T_X].data_type = 6;
	expect(".vpux.tensors: record 0: field data_type: 6 unknown",
	       "data type 6");
	img.dpu[0].bias.tensor = T_BH;
	expect(".vpux.ops.dpu: record 0: field bias: tensor 'bh' is f16, an FP16 op's bias is f32",
	       "an FP16 op's bias in an f16 tensor");
	img.dpu[1].in.tensor = T_U;
	expect(".vpux.ops.dpu: record 1: field in: tensor 'u' is u8, an FP16 op's in is f16",
	       "an FP16 op reading a u8 tensor");
	img.dpu[1].in2.tensor = T_U;
	expect(".vpux.ops.dpu: record 1: field in2: tensor 'u' is u8, an FP16 op's in2 is f16",
	       "an FP16 op's in2 in a u8 tensor");
	img.dpu[1].out.tensor = T_U;
	expect(".vpux.ops.dpu: record 1: field out: tensor 'u' is u8, an FP16 op's out is f16",
	       "an FP16 op writing a u8 tensor");
	img.dpu[0].f.act = VPUX_DPU_ACT_LEAKY_CH;
	img.dpu[0].quant = (struct vpux_lf_ref){ T_W, 0, 0, 128 };
	expect(".vpux.ops.dpu: record 0: field quant: tensor 'w' is f16, an FP16 op's quant is f32",
	       "an FP16 op's per-channel records in an f16 tensor");
	img.dpu[0].f.act = VPUX_DPU_ACT_LEAKY_CH;
	img.dpu[0].quant = (struct vpux_lf_ref){ T_Q, 0, 0, 128 };
	valid("act=leaky_ch with its f32 records");
	img.dpu[0].flags |= VPUX_DPU_F_OUT_F32;
	expect(".vpux.ops.dpu: record 0: field out: 256 bytes, the op touches 512",
	       "out_f32 into an f16 tensor of the f16 size");

	/* the FP16 descriptor rules, naming the field */
	img.dpu[1].f.act = 9;
	expect(".vpux.ops.dpu: record 1: field act: FP16 descriptor refused by the DPU rules (rule act;",
	       "unknown activation");
	img.dpu[1].f.act = VPUX_DPU_ACT_CLAMP;
	img.dpu[1].f.clamp_lo = 0x7fc00000;
	expect("record 1: field clamp_lo: FP16 descriptor refused by the DPU rules (rule act_min;",
	       "clamp_lo NaN");
	img.dpu[1].f.act = VPUX_DPU_ACT_CLAMP;
	img.dpu[1].f.clamp_lo = 0x3f800000;
	img.dpu[1].f.clamp_hi = 0xbf800000;
	expect("record 1: field clamp_lo: FP16 descriptor refused",
	       "clamp_lo 1 above clamp_hi -1");
	img.dpu[1].f.act = VPUX_DPU_ACT_CLAMP;
	img.dpu[1].f.clamp_hi = 0xffc00000;
	expect("record 1: field clamp_hi: FP16 descriptor refused by the DPU rules (rule act_max;",
	       "clamp_hi NaN");
	img.dpu[1].f.act = VPUX_DPU_ACT_CLAMP;
	img.dpu[1].f.clamp_lo = 0xff800000;
	img.dpu[1].f.clamp_hi = 0x7f800000;
	valid("act=clamp to [-inf, inf]");
	img.dpu[1].f.clamp_hi = 0x3f800000;
	expect("record 1: field clamp_hi: FP16 descriptor refused",
	       "clamp_hi set without act=clamp");
	img.dpu[1].flags |= VPUX_DPU_F_SCALE;
	img.dpu[1].f.shift = 0x7f800001;
	expect("record 1: field scale/shift: FP16 descriptor refused by the DPU rules (rule scale;",
	       "shift a NaN");
	img.dpu[1].f.scale = 0x3f800000;
	expect("record 1: field scale/shift: FP16 descriptor refused",
	       "scale set without the flag scale");
	img.dpu[1].f.act = VPUX_DPU_ACT_LEAKY;
	img.dpu[1].f.slope = 0x7fc00000;
	expect("record 1: field slope: FP16 descriptor refused by the DPU rules (rule slope;",
	       "slope a NaN");
	img.dpu[1].f.act = VPUX_DPU_ACT_LEAKY;
	img.dpu[1].f.slope = 0xff800000;
	valid("act=leaky with slope -inf");
	img.dpu[1].f.zero1[1] = 1;
	expect("record 1: field reserved: FP16 descriptor refused by the DPU rules (rule reserved;",
	       "the output stage's zero words not zero");
	img.dpu[0].flags |= VPUX_DPU_F_SCALE | VPUX_DPU_F_PER_CHANNEL;
	expect("record 0: field flags: FP16 descriptor refused by the DPU rules (rule flags;",
	       "scale with per_channel");
	img.dpu[0].flags |= VPUX_DPU_BCAST_C << VPUX_DPU_F_BCAST_SHIFT;
	expect("record 0: field flags: FP16 descriptor refused",
	       "a conv with bcast=c");

	fresh(ibase);
	valid("integer base network");
	img.dpu[0].in.tensor = I_H;
	expect(".vpux.ops.dpu: record 0: field in: tensor 'h' is f16, an integer op (no flag FP16) takes no float tensor",
	       "an integer op reading an f16 tensor");
	img.tensors[I_H].data_type = VPUX_DT_U8;
	img.hdr.version_minor = 2;
	img.dpu[0].flags |= VPUX_DPU_F_FP16;
	expect(".vpux.ops.dpu: record 0: field flags: FP16 ops are from format 1.3 (the file is 1.2)",
	       "an FP16 op in a 1.2 file");
	img.dpu[0].op = VPUX_DPU_OP_SUB;
	expect("record 0: field flags: integer descriptor refused by the DPU rules (rule flags;",
	       "an integer sub");
	asm_free(&img);
}

/* ---- the assembler's errors ---- */

static const char *head =
	"input x f16 1x8x4x4 order=NHWC\n"
	"output y f16 1x8x4x4 order=NHWC\n"
	"tensor w f16 8x1x1x8 region=weights\n"
	"tensor b f32 8 region=weights\n"
	"input i u8 1x8x4x4 order=NHWC\n";

static const struct {
	const char *what;
	const char *text;	/* after head (5 lines) */
	const char *msg;
} bad[] = {
	{ "unknown element type", "tensor z f64 4\n",
	  "t.vasm:6:10: error: unknown type 'f64' (u8, i8, i32, f16, f32)" },
	{ "zp= on an f16 tensor", "tensor z f16 4 zp=3\n",
	  "t.vasm:6:16: error: zp= on an f16 tensor: the float types have no quantisation" },
	{ "scale= on an f32 tensor", "tensor z f32 4 scale=1,0\n",
	  "t.vasm:6:16: error: scale= on an f32 tensor: the float types have no quantisation" },
	{ "a malformed value", "data b f32 1.5x\n",
	  "t.vasm:6:12: error: '1.5x': expected a number (decimal or hex-float), inf, nan or snan" },
	{ "an f16 value past 65504", "data w f16 1, 70000\n",
	  "t.vasm:6:15: error: '70000': outside the f16 range (largest finite 65504): write inf for an infinity" },
	{ "an f32 value past the range", "data b f32 1e39\n",
	  "t.vasm:6:12: error: '1e39': outside the f32 range (largest finite 3.40282347e+38): write inf for an infinity" },
	{ "an f16 value rounding to 0", "data w f16 1e-8\n",
	  "t.vasm:6:12: error: '1e-8': rounds to 0 in f16 (smallest subnormal 0x1p-24)" },
	{ "strtod's spelling of infinity", "data w f16 infinity\n",
	  "t.vasm:6:12: error: 'infinity': expected a number" },
	{ "the column of a value inside a list", "data w f16 1,2,zz\n",
	  "t.vasm:6:16: error: 'zz': expected a number" },
	{ "data of another type", "data w f32 1\n",
	  "t.vasm:6:8: error: tensor 'w' is f16, not f32" },
	{ "data of an unknown type", "data w f8 1\n",
	  "t.vasm:6:8: error: unknown type 'f8' (u8, i8, i32, f16, f32)" },
	{ "data outside the weights", "data x f16 1\n",
	  "t.vasm:6:6: error: tensor 'x' is not in the weights: data gives constants" },
	{ "more values than the operand holds", "data b[0:8] f32 1, 2, 3\n",
	  "t.vasm:6:23: error: more than the 2 f32 values of b[0:8]" },
	{ "data without values", "data w f16 ,\n",
	  "t.vasm:6:12: error: expected a value" },
	{ "data: an integer value out of its type", "tensor k i8 2 region=weights\ndata k i8 5, 200\n",
	  "t.vasm:7:14: error: '200': expected a number in -128..127" },
	{ "an unknown activation", "dpu add in=x in2=x out=y act=sigmoid\n",
	  "t.vasm:6:26: error: unknown activation 'sigmoid' (none, relu, clamp, leaky, leaky_ch)" },
	{ "an unknown broadcast", "dpu add in=x in2=x out=y bcast=w\n",
	  "t.vasm:6:26: error: unknown broadcast 'w' (none, c, hw, scalar)" },
	{ "an unknown flag word", "dpu add fp32 in=x in2=x out=y\n",
	  "t.vasm:6:9: error: expected key=value or a flag (in_signed, w_signed, out_signed, bias, per_channel, out_i32, out_f32, fp16, scale, batch, w_kn, count_pad), got 'fp32'" },
	{ "an unknown name in flags=", "dpu add in=x in2=x out=y flags=fp16,relu\n",
	  "t.vasm:6:26: error: 'relu': expected a number in 0..4294967295" },
	{ "an integer field on an FP16 op", "dpu add in=x in2=x out=y in_zp=3\n",
	  "t.vasm:6:26: error: in_zp= is a field of integer ops, this one is FP16 (flag fp16, or f16 in=)" },
	{ "requant= on an FP16 op", "dpu add fp16 in=x in2=x out=y requant=1,0\n",
	  "t.vasm:6:31: error: requant= is a field of integer ops, this one is FP16" },
	{ "an FP16 field on an integer op",
	  "tensor o u8 1x8x4x4 order=NHWC\ndpu add in=i in2=i out=o slope=0.5\n",
	  "t.vasm:7:26: error: slope= is a field of FP16 ops (flag fp16, or f16 in=), this one is integer" },
	{ "an FP16 flag on an integer op",
	  "tensor o u8 1x8x4x4 order=NHWC\ndpu maxpool count_pad in=i out=o\n",
	  "t.vasm:7:5: error: flags 0x1000: FP16 flags on an integer op (add fp16, or give f16 in=)" },
	{ "an integer sub",
	  "tensor o u8 1x8x4x4 order=NHWC\ndpu sub in=i in2=i out=o\n",
	  "t.vasm:7:5: error: sub is an FP16 op (give f16 in=, or the flag fp16)" },
	{ "a malformed float field", "dpu add in=x in2=x out=y scale=abc\n",
	  "t.vasm:6:26: error: 'abc': expected a number" },
	{ "a NaN-free field takes any literal: the loader judges",
	  "dpu add in=x in2=x out=y clamp_lo=1e40\n",
	  "t.vasm:6:26: error: '1e40': outside the f32 range" },
	{ "an integer fill on an f16 tensor",
	  "tensor z f16 4 region=weights fill=requant:1:2\n",
	  "t.vasm:6:31: error: bad fill 'requant:1:2' for an f16 tensor (seed:N[:LO:HI], const:V, file:PATH, blob:OFFSET)" },
	{ "a fill range past f16", "tensor z f16 4 region=weights fill=seed:1:0:1e6\n",
	  "t.vasm:6:31: error: '1e6': outside the f16 range" },
	{ "a fill range LO > HI", "tensor z f16 4 region=weights fill=seed:1:2:1\n",
	  "t.vasm:6:31: error: fill range 2..1: finite, LO <= HI" },
	{ "a fill range with inf", "tensor z f32 4 region=weights fill=seed:1:0:inf\n",
	  "t.vasm:6:31: error: fill range 0..inf: finite, LO <= HI" },
	{ "a malformed const fill", "tensor z f16 4 region=weights fill=const:x\n",
	  "t.vasm:6:31: error: 'x': expected a number" },
	{ "an unknown DPU op", "dpu div in=x out=y\n",
	  "t.vasm:6:5: error: expected a DPU op (conv, matmul, add, sub, mul, maxpool, avgpool)" },
};

static void test_errors(void)
{
	char text[2048];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lf_image im;
		int ret;

		snprintf(text, sizeof(text), "%s%s", head, bad[i].text);
		ret = assemble(text, &im);
		if (!ret)
			asm_free(&im);
		tap_check(ret && strstr(errbuf, bad[i].msg),
			  "%s: refused, '%s' (%.*s)", bad[i].what, bad[i].msg,
			  (int)strcspn(errbuf, "\n"), errbuf);
	}
}

int main(void)
{
	test_literals();
	test_syntax();
	test_loader();
	test_errors();
	return tap_finish();
}
