// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The FP16/FP32 SHAVE kernels (ids 7..16) in the text format
 * (Documentation/vpux-asm.rst, "SHAVE kernels"): a network with every
 * kernel, function, mode and coordinate name assembles, validates, runs
 * bit-exact against the CPU reference (vpux-run --check) and comes back
 * byte for byte through vpux-dis | vpux-asm; the argument records the
 * assembler writes, byte by byte (records in their windows, the dims
 * windows of dynamic tensors, layernorm's flags, the defaults); the
 * records that have no high-level text (a NaN payload, a reserved word,
 * an unknown code) printed in the raw form, which gives them back too;
 * and every error the assembler gives with its "file:line:column".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "asm.h"
#include "lf.h"
#include "vasm.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_shave_abi.h"
#include "vpux_tap.h"

#define TMP	BUILDDIR "/umd/tests/shave-asm-tmp"
#define DIS	BUILDDIR "/tools/vpux-dis"
#define RUN	BUILDDIR "/tools/vpux-run"

static char errbuf[4096];

/* assemble @text; errors into errbuf */
static int assemble(const char *text, struct lf_image *img)
{
	return asm_capture(text, img, errbuf, sizeof(errbuf));
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET) && (p = malloc((size_t)n + 1))) {
		if (fread(p, 1, (size_t)n, f) != (size_t)n) {
			free(p);
			p = NULL;
		} else {
			p[n] = 0;
		}
	}
	fclose(f);
	return p;
}

/*
 * @img through the vpux-dis binary, and its text through the assembler:
 * 1 when the bytes are the same. The text in *@text (free it).
 */
static int round_trip(const struct lf_image *img, const char *name,
		      char **text)
{
	char path[512], cmd[1200];
	void *a = NULL, *b = NULL;
	size_t na, nb;
	struct lf_image back;
	int same = 0;

	*text = NULL;
	snprintf(path, sizeof(path), TMP "/%s", name);
	if (lf_write_file(img, path) || lf_write_mem(img, &a, &na))
		return 0;
	snprintf(cmd, sizeof(cmd), DIS " %s -o %s.vasm", path, path);
	if (system(cmd)) {
		free(a);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "%s.vasm", path);
	*text = slurp(cmd);
	if (*text && !assemble(*text, &back)) {
		if (!lf_write_mem(&back, &b, &nb))
			same = na == nb && !memcmp(a, b, na);
		asm_free(&back);
	}
	free(a);
	free(b);
	return same;
}

/* ---- every kernel and every name ---- */

static const char *every =
	"network every\n"
	"input  x   f16 4x6\n"
	"input  y   f32 4x6\n"
	"input  q   u8  4x6\n"
	"input  qi  i8  4x6\n"
	"input  qw  i32 4x6\n"
	"output o   f16 4x6\n"
	"tensor a   f16 4x6\n"
	"tensor b   f32 4x6\n"
	"tensor c   u8  4x6\n"
	"tensor d   i8  4x6\n"
	"tensor v6  f16 6\n"
	"tensor ix_w i32 2x3 region=weights\n"
	"data ix_w i32 0 -1 2 3 -4 1\n"
	"tensor ix  i32 2x3\n"
	"tensor g   f16 2x3x6\n"
	"tensor g2  f32 4x2x3\n"
	"tensor r1  f16 4x1\n"
	"tensor r2  f32 1x1\n"
	"tensor up  f16 8x18\n"
	"tensor un  f16 2x3\n"
	"tensor pd  f16 6x10\n"
	"tensor gm_w f16 6 region=weights fill=seed:1\n"
	"tensor bt_w f32 6 region=weights fill=seed:2\n"
	"tensor gm  f16 6\n"
	"tensor bt  f32 6\n"
	/* a SHAVE window may be written: none lies in the read-only weights */
	"dma src=ix_w dst=ix\n"
	"dma src=gm_w dst=gm\n"
	"dma src=bt_w dst=bt\n"
	"shave convert in=y out=a\n"
	"shave convert in=x out=b\n"
	"shave convert in=x out=c scale=0.05 zero_point=128\n"
	"shave convert in=y out=d scale=0x1p-4 zero_point=-3\n"
	"shave convert in=q out=a scale=0.1 zero_point=7\n"
	"shave convert in=qi out=b scale=2 zero_point=-128\n"
	"shave convert in=qw out=a scale=1e-3 zero_point=-100000\n"
	"shave unary in=x out=a func=exp\n"
	"shave unary in=x out=a func=log\n"
	"shave unary in=x out=a func=sigmoid\n"
	"shave unary in=x out=a func=tanh\n"
	"shave unary in=x out=a func=erf\n"
	"shave unary in=x out=a func=gelu_erf\n"
	"shave unary in=x out=b func=gelu_tanh\n"
	"shave unary in=x out=a func=hard_sigmoid alpha=0.2 beta=0.5\n"
	"shave unary in=x out=a func=hard_swish\n"
	"shave unary in=x out=a func=silu\n"
	"shave unary in=y out=a func=sqrt\n"
	"shave unary in=x out=a func=recip\n"
	"shave unary in=x out=a func=neg\n"
	"shave unary in=x out=a func=abs\n"
	"shave unary in=x out=a func=relu\n"
	"shave unary in=x out=a func=leaky_relu alpha=0.01\n"
	"shave unary in=x out=a func=clip alpha=-inf beta=6\n"
	"shave binary in=x in2=y out=a func=add\n"
	"shave binary in=x in2=v6 out=a func=sub\n"
	"shave binary in=v6 in2=x out=b func=mul\n"
	"shave binary in=x in2=x out=a func=div\n"
	"shave binary in=x in2=y out=a func=pow\n"
	"shave binary in=x in2=r2 out=a func=max\n"
	"shave binary in=r1 in2=x out=a func=min\n"
	"shave softmax_f in=x out=a axis=1\n"
	"shave log_softmax_f in=y out=a axis=0\n"
	"shave layernorm in=x out=a axis=1\n"
	"shave layernorm in=x out=b axis=1 scale=gm epsilon=0\n"
	"shave layernorm in=x out=a axis=1 bias=bt epsilon=1e-12\n"
	"shave layernorm in=y out=a axis=1 scale=bt bias=gm epsilon=0.5\n"
	"shave reduce in=x out=r1 func=sum axes=1\n"
	"shave reduce in=y out=r2 func=mean axes=0,1\n"
	"shave reduce in=x out=r1 func=max axes=1\n"
	"shave reduce in=x out=r1 func=min axes=1\n"
	"shave resize in=x out=up\n"
	"shave resize in=x out=up coord=pytorch_half_pixel nearest=round_prefer_ceil\n"
	"shave resize in=x out=up coord=align_corners nearest=floor\n"
	"shave resize in=x out=up coord=asymmetric nearest=ceil\n"
	"shave resize in=x out=up coord=tf_half_pixel_for_nn\n"
	"shave resize in=x out=up mode=linear scales=2,3\n"
	"shave resize in=x out=un mode=linear coord=align_corners\n"
	"shave gather in=x indices=ix out=g axis=0\n"
	"shave gather in=y indices=ix out=g2 axis=1\n"
	"shave pad in=x out=pd mode=constant value=-inf begin=1,2 end=1,2\n"
	"shave pad in=x out=pd mode=constant value=nan begin=2,4\n"
	"shave pad in=x out=pd mode=constant value=-0 end=2,4\n"
	"shave pad in=x out=pd mode=reflect begin=1,3 end=1,1\n"
	"shave pad in=x out=pd mode=edge begin=1,4 end=1,0\n"
	"shave convert in=a out=o\n";

/* lines vpux-dis prints for some of them (then the deps, or the end) */
static const char *const every_lines[] = {
	"\nshave convert in=y out=d scale=0.0625 zero_point=-3",
	"\nshave convert in=qw out=a scale=0.001 zero_point=-100000",
	"\nshave unary in=x out=a func=hard_sigmoid alpha=0.2 beta=0.5",
	"\nshave unary in=x out=a func=clip alpha=-inf beta=6",
	"\nshave binary in=x in2=v6 out=a func=sub",
	"\nshave softmax_f in=x out=a axis=1",
	"\nshave log_softmax_f in=y out=a axis=0",
	"\nshave layernorm in=x out=a axis=1 epsilon=1e-05",
	"\nshave layernorm in=x scale=gm out=b axis=1 epsilon=0",
	"\nshave layernorm in=x bias=bt out=a axis=1 epsilon=1e-12",
	"\nshave layernorm in=y scale=bt bias=gm out=a axis=1 epsilon=0.5",
	"\nshave reduce in=y out=r2 func=mean axes=0,1",
	"\nshave resize in=x out=up mode=nearest coord=half_pixel nearest=round_prefer_floor scales=2,3,0,0,0,0",
	"\nshave resize in=x out=un mode=linear coord=align_corners nearest=round_prefer_floor scales=0.5,0.5,0,0,0,0",
	"\nshave gather in=y indices=ix out=g2 axis=1",
	"\nshave pad in=x out=pd mode=constant value=-inf begin=1,2,0,0,0,0 end=1,2,0,0,0,0",
	"\nshave pad in=x out=pd mode=constant value=nan begin=2,4,0,0,0,0 end=0,0,0,0,0,0",
	"\nshave pad in=x out=pd mode=constant value=-0 begin=0,0,0,0,0,0 end=2,4,0,0,0,0",
	"\nshave pad in=x out=pd mode=edge value=0 begin=1,4,0,0,0,0 end=1,0,0,0,0,0",
};

static const char *const every_names[] = {
	"func=exp", "func=log", "func=sigmoid", "func=tanh", "func=erf",
	"func=gelu_erf", "func=gelu_tanh", "func=hard_sigmoid",
	"func=hard_swish", "func=silu", "func=sqrt", "func=recip",
	"func=neg", "func=abs", "func=relu", "func=leaky_relu", "func=clip",
	"func=add", "func=sub", "func=mul", "func=div", "func=pow",
	"func=max", "func=min", "func=sum", "func=mean",
	"mode=nearest", "mode=linear", "coord=half_pixel",
	"coord=pytorch_half_pixel", "coord=align_corners", "coord=asymmetric",
	"coord=tf_half_pixel_for_nn", "nearest=round_prefer_floor",
	"nearest=round_prefer_ceil", "nearest=floor", "nearest=ceil",
	"mode=constant", "mode=reflect", "mode=edge",
};

/* @line starts a line of @text, followed by a blank or the line's end */
static int has_line(const char *text, const char *line)
{
	size_t l = strlen(line);
	const char *p;

	for (p = strstr(text, line); p; p = strstr(p + 1, line))
		if (p[l] == ' ' || p[l] == '\n')
			return 1;
	return 0;
}

static void test_every(void)
{
	struct lf_image img;
	char *text, cmd[600];
	unsigned int i, missing = 0;
	int ok;

	if (!tap_check(!assemble(every, &img),
		       "a network with every FP16/FP32 kernel and name assembles (%s)",
		       errbuf))
		return;
	tap_check(img.n_shave == 56 && !lf_validate(&img),
		  "56 SHAVE ops, and the loader accepts them (%s)",
		  vpux_last_error());
	ok = round_trip(&img, "every.vpux", &text);
	tap_check(ok, "vpux-dis | vpux-asm of it: the same bytes");
	for (i = 0; text && i < sizeof(every_lines) / sizeof(every_lines[0]);
	     i++)
		tap_check(has_line(text, every_lines[i]),
			  "vpux-dis prints '%s'", every_lines[i] + 1);
	for (i = 0; text && i < sizeof(every_names) / sizeof(every_names[0]);
	     i++)
		missing += !strstr(text, every_names[i]);
	tap_check(text && !missing && !strstr(text, "shave kernel="),
		  "every function, mode and coordinate name printed back (%u missing), no raw form",
		  missing);
	free(text);
	snprintf(cmd, sizeof(cmd), RUN " --check " TMP "/every.vpux >" TMP
		 "/every.run 2>&1");
	tap_check(!system(cmd),
		  "vpux-run --check: the engine accepts all 56 records, bit-exact (" TMP "/every.run)");
	asm_free(&img);
}

/* ---- the records, byte by byte ---- */

static const uint8_t *kargs(const struct lf_image *img, uint32_t i)
{
	return img->kargs + img->shave[i].args_offset;
}

static struct vpux_memref rec_at(const struct lf_image *img, uint32_t i,
				 uint32_t r)
{
	struct vpux_memref m;

	memcpy(&m, kargs(img, i) + r * sizeof(m), sizeof(m));
	return m;
}

static uint32_t u32_at(const struct lf_image *img, uint32_t i, size_t off)
{
	uint32_t v;

	memcpy(&v, kargs(img, i) + off, sizeof(v));
	return v;
}

static int rec_zero(const struct lf_image *img, uint32_t i, uint32_t r)
{
	struct vpux_memref m = rec_at(img, i, r), z;

	memset(&z, 0, sizeof(z));
	return !memcmp(&m, &z, sizeof(m));
}

/* record @r is a static memref over tensor @t at offset 0 of window @w */
static int rec_is(const struct lf_image *img, uint32_t i, uint32_t r,
		  uint32_t w, uint32_t t)
{
	struct vpux_memref m = rec_at(img, i, r);
	const struct vpux_lf_tensor *x = &img->tensors[t];

	return m.addr == VPUX_WADDR(w, 0) && m.is_static == 1 &&
	       m.rank == x->rank && m.data_type == x->data_type &&
	       m.dims[0] == x->dims[0] && m.strides[0] == x->strides[0] &&
	       img->shave[i].windows[w].tensor == t &&
	       img->shave[i].windows[w].size == x->size;
}

static void test_bytes(void)
{
	static const char *text =
		"input  x  f16 2x3x4\n"
		"output y  f16 2x3x4\n"
		"tensor a  f32 3x4\n"
		"tensor ix i32 5 region=weights\n"
		"tensor g  f16 2x5x4\n"
		"tensor u  f16 4x6x8\n"
		"tensor p  f16 2x5x9\n"
		"tensor r  f32 1x3x1\n"
		"shave binary in=x in2=a out=y func=div\n"
		"shave layernorm in=x bias=a out=y axis=1\n"
		"shave layernorm in=x scale=a bias=a out=y axis=1 epsilon=0.25\n"
		"shave resize in=x out=u coord=asymmetric nearest=ceil\n"
		"shave reduce in=x out=r func=max axes=2,0\n"
		"shave gather in=x indices=ix out=g axis=1\n"
		"shave pad in=x out=p begin=0,1,2 end=0,1,3 value=-2.5\n"
		"shave unary in=x out=y func=leaky_relu alpha=0.1\n"
		"shave convert in=x out=a\n";
	enum { T_X, T_Y, T_A, T_IX, T_G, T_U, T_P, T_R };
	struct lf_image img;
	uint32_t e;
	float f;

	if (!tap_check(!assemble(text, &img), "records network assembles (%s)",
		       errbuf))
		return;
	tap_check(img.shave[0].args_size == sizeof(struct vpux_shave_binary_args) &&
		  rec_is(&img, 0, 0, 0, T_X) && rec_is(&img, 0, 1, 1, T_Y) &&
		  rec_is(&img, 0, 2, 2, T_A) &&
		  u32_at(&img, 0, offsetof(struct vpux_shave_binary_args, func)) ==
		  VPUX_SHAVE_BIN_DIV &&
		  !u32_at(&img, 0, offsetof(struct vpux_shave_binary_args, reserved)) &&
		  !img.shave[0].windows[3].size,
		  "binary: in, out, in2 in windows 0, 1, 2; func div; reserved 0");
	f = 1e-5f;
	memcpy(&e, &f, sizeof(e));
	tap_check(rec_is(&img, 1, 0, 0, T_X) && rec_zero(&img, 1, 2) &&
		  rec_is(&img, 1, 3, 2, T_A) &&
		  u32_at(&img, 1, offsetof(struct vpux_shave_layernorm_args, flags)) ==
		  VPUX_SHAVE_LN_BIAS &&
		  u32_at(&img, 1, offsetof(struct vpux_shave_layernorm_args, epsilon)) == e &&
		  u32_at(&img, 1, offsetof(struct vpux_shave_layernorm_args, axis)) == 1,
		  "layernorm bias= only: the scale record all zero, bias in window 2, flags BIAS, epsilon 1e-5 (0x%08x)",
		  e);
	tap_check(rec_is(&img, 2, 2, 2, T_A) && rec_is(&img, 2, 3, 3, T_A) &&
		  u32_at(&img, 2, offsetof(struct vpux_shave_layernorm_args, flags)) ==
		  (VPUX_SHAVE_LN_SCALE | VPUX_SHAVE_LN_BIAS) &&
		  u32_at(&img, 2, offsetof(struct vpux_shave_layernorm_args, epsilon)) ==
		  0x3e800000u,
		  "layernorm scale= and bias=: windows 2 and 3, flags SCALE|BIAS, epsilon 0.25");
	tap_check(u32_at(&img, 3, offsetof(struct vpux_shave_resize_args, scales)) == 0x40000000u &&
		  u32_at(&img, 3, offsetof(struct vpux_shave_resize_args, scales) + 4) == 0x40000000u &&
		  u32_at(&img, 3, offsetof(struct vpux_shave_resize_args, scales) + 8) == 0x40000000u &&
		  !u32_at(&img, 3, offsetof(struct vpux_shave_resize_args, scales) + 12) &&
		  u32_at(&img, 3, offsetof(struct vpux_shave_resize_args, mode)) == VPUX_SHAVE_RESIZE_NEAREST &&
		  u32_at(&img, 3, offsetof(struct vpux_shave_resize_args, coord)) == VPUX_SHAVE_COORD_ASYMMETRIC &&
		  u32_at(&img, 3, offsetof(struct vpux_shave_resize_args, nearest)) == VPUX_SHAVE_NEAREST_CEIL,
		  "resize without scales=: out / in per dim (2, 2, 2, then 0), asymmetric, ceil");
	tap_check(u32_at(&img, 4, offsetof(struct vpux_shave_reduce_args, axes)) == 5 &&
		  u32_at(&img, 4, offsetof(struct vpux_shave_reduce_args, func)) == VPUX_SHAVE_RED_MAX,
		  "reduce axes=2,0: the bitmask 5");
	tap_check(rec_is(&img, 5, 2, 2, T_IX) &&
		  u32_at(&img, 5, offsetof(struct vpux_shave_gather_args, axis)) == 1,
		  "gather: indices in window 2, axis 1");
	tap_check(u32_at(&img, 6, offsetof(struct vpux_shave_pad_args, begin) + 4) == 1 &&
		  u32_at(&img, 6, offsetof(struct vpux_shave_pad_args, begin) + 8) == 2 &&
		  u32_at(&img, 6, offsetof(struct vpux_shave_pad_args, end) + 8) == 3 &&
		  !u32_at(&img, 6, offsetof(struct vpux_shave_pad_args, end) + 12) &&
		  u32_at(&img, 6, offsetof(struct vpux_shave_pad_args, value)) == 0xc0200000u &&
		  u32_at(&img, 6, offsetof(struct vpux_shave_pad_args, mode)) == VPUX_SHAVE_PAD_CONSTANT,
		  "pad: begin 0,1,2, end 0,1,3, value -2.5, mode constant (the default)");
	tap_check(u32_at(&img, 7, offsetof(struct vpux_shave_unary_args, alpha)) == 0x3dcccccdu &&
		  !u32_at(&img, 7, offsetof(struct vpux_shave_unary_args, beta)) &&
		  u32_at(&img, 7, offsetof(struct vpux_shave_unary_args, func)) == VPUX_SHAVE_UN_LEAKY_RELU,
		  "unary leaky_relu alpha=0.1: 0x3dcccccd");
	tap_check(rec_is(&img, 8, 0, 0, T_X) && rec_is(&img, 8, 1, 1, T_A) &&
		  !u32_at(&img, 8, offsetof(struct vpux_shave_convert_args, scale)),
		  "convert f16 to f32 (its out of another rank: the engine's to refuse)");
	tap_check(!lf_validate(&img), "the loader accepts them (%s)",
		  vpux_last_error());
	asm_free(&img);

	/* dynamic records: each dims window after the tensors, in order */
	if (!tap_check(!assemble(
		"symbol n axis 1..8\n"
		"input  x  f16 $nx6\n"
		"input  w  f16 $nx6\n"
		"output y  f16 $nx6\n"
		"output yd i32 2\n"
		"tensor xd i32 2\n"
		"tensor wd i32 2\n"
		"shave binary in=x in2=w out=y in_dims=xd in2_dims=wd out_dims=yd func=mul\n",
		&img), "dynamic binary assembles (%s)", errbuf))
		return;
	{
		struct vpux_memref m0 = rec_at(&img, 0, 0), m1 = rec_at(&img, 0, 1),
				   m2 = rec_at(&img, 0, 2);
		const struct vpux_lf_ref *w = img.shave[0].windows;

		tap_check(!m0.is_static && m0.dims_addr == VPUX_WADDR(3, 0) &&
			  !m1.is_static && m1.dims_addr == VPUX_WADDR(4, 0) &&
			  !m2.is_static && m2.dims_addr == VPUX_WADDR(5, 0) &&
			  m2.addr == VPUX_WADDR(2, 0) && m2.dims[0] == 8 &&
			  w[3].tensor == 4 && w[4].tensor == 3 && w[5].tensor == 5 &&
			  !w[6].size,
			  "dynamic in, out, in2: tensors in windows 0-2, their dims in 3 (in_dims), 4 (out_dims), 5 (in2_dims), dims at the max");
	}
	asm_free(&img);
}

/* ---- what has no high-level text ---- */

static void test_raw(void)
{
	static const char *text =
		"input  x  f16 4x6\n"
		"output y  f16 6x8\n"
		"output z  f16 4x6\n"
		"output w  f16 8x12\n"
		"tensor v  f16 6 region=weights fill=seed:3\n"
		"shave pad in=x out=y value=-snan begin=1,1 end=1,1\n"
		"shave binary in=x in2=v out=z func=add\n"
		"shave layernorm in=x bias=v out=z axis=1\n"
		"shave unary in=x out=z func=relu\n"
		"shave reduce in=x out=z func=sum axes=0\n"
		"shave resize in=x out=w\n";
	static const struct {
		const char *what;
		uint32_t op;
		size_t off;
		uint32_t v;
	} cases[] = {
		{ "pad value=-snan", 0, offsetof(struct vpux_shave_pad_args, value), 0xffa00000u },
		{ "pad value=nan", 0, offsetof(struct vpux_shave_pad_args, value), 0x7fc00000u },
		{ "a NaN with a payload in pad's value", 0,
		  offsetof(struct vpux_shave_pad_args, value), 0x7fc00001u },
		{ "a signalling NaN with a payload in a resize scale", 5,
		  offsetof(struct vpux_shave_resize_args, scales) + 4, 0x7f800001u },
		{ "binary's reserved word set", 1,
		  offsetof(struct vpux_shave_binary_args, reserved), 1 },
		{ "binary func 7 (no name)", 1,
		  offsetof(struct vpux_shave_binary_args, func), 7 },
		{ "layernorm flag SCALE without a scale record", 2,
		  offsetof(struct vpux_shave_layernorm_args, flags), 3 },
		{ "unary func 99", 3, offsetof(struct vpux_shave_unary_args, func), 99 },
		{ "reduce axes 0", 4, offsetof(struct vpux_shave_reduce_args, axes), 0 },
		{ "the reserved word of in's memref set", 4,
		  offsetof(struct vpux_shave_reduce_args, in.reserved), 1 },
	};
	struct vpux_lf_tensor tens[VASM_SHAVE_RECS];
	struct vasm_rec rec[VASM_SHAVE_RECS];
	struct lf_image img;
	unsigned int i, k;
	char *out, name[32], line[32];

	if (!tap_check(!assemble(text, &img), "raw-form network assembles (%s)",
		       errbuf))
		return;
	for (k = 0; k < img.n_shave; k++)
		tap_check(vasm_shave_high_level(&img, &img.shave[k], rec, tens),
			  "as assembled, op %u has its high-level text", k);
	asm_free(&img);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t *a;
		int hl, ok;

		assemble(text, &img);
		a = (uint8_t *)(uintptr_t)(img.kargs + img.shave[cases[i].op].args_offset);
		memcpy(a + cases[i].off, &cases[i].v, sizeof(cases[i].v));
		hl = i < 2;
		snprintf(name, sizeof(name), "raw%u.vpux", i);
		ok = round_trip(&img, name, &out);
		snprintf(line, sizeof(line), "\nshave kernel=%u ",
			 img.shave[cases[i].op].kernel_id);
		tap_check(ok && !!vasm_shave_high_level(&img, &img.shave[cases[i].op],
							 rec, tens) == hl &&
			  out && !!strstr(out, line) == !hl,
			  "%s: %s text, vpux-dis | vpux-asm gives the same bytes",
			  cases[i].what, hl ? "high-level" : "the raw");
		free(out);
		asm_free(&img);
	}
}

/* ---- errors ---- */

static const char *head =
	"symbol n axis 1..4\n"
	"input  x  f16 4x6\n"
	"output y  f16 4x6\n"
	"tensor a  f32 4x6\n"
	"tensor u  u8  4x6\n"
	"tensor v  f16 6\n"
	"tensor ix i32 2 region=weights\n"
	"tensor hx f16 2 region=weights\n"
	"tensor t3 f16 2x4x6\n"
	"tensor dn f16 $nx6\n";	/* 10 lines */

static const struct {
	const char *what, *text, *msg;
} bad[] = {
	{ "an unknown kernel", "shave gelu in=x out=y\n",
	  "t.vasm:11:7: error: unknown kernel 'gelu' (clamp, softmax, sigmoid, tanh, permute, quantize, convert, unary, binary, softmax_f, log_softmax_f, layernorm, reduce, resize, gather, pad, or kernel=N)" },
	{ "an unknown function", "shave unary in=x out=y func=gelu\n",
	  "t.vasm:11:24: error: unknown func 'gelu' (exp, log, sigmoid, tanh, erf, gelu_erf, gelu_tanh, hard_sigmoid, hard_swish, silu, sqrt, recip, neg, abs, relu, leaky_relu, clip)" },
	{ "unary without func=", "shave unary in=x out=y\n",
	  "t.vasm:11:1: error: shave unary needs func= (exp, log, sigmoid," },
	{ "an unknown binary function", "shave binary in=x in2=v out=y func=pow2\n",
	  "t.vasm:11:31: error: unknown func 'pow2' (add, sub, mul, div, pow, max, min)" },
	{ "binary without in2=", "shave binary in=x out=y func=add\n",
	  "t.vasm:11:1: error: shave binary needs in2=" },
	{ "binary with an integer in2", "shave binary in=x in2=u out=y func=add\n",
	  "t.vasm:11:19: error: in2: tensor 'u' is u8, shave binary takes f16 or f32" },
	{ "a key of another kernel", "shave layernorm in=x in2=v out=y\n",
	  "t.vasm:11:22: error: unknown key 'in2' for shave layernorm" },
	{ "reduce without axes=", "shave reduce in=x out=y func=sum\n",
	  "t.vasm:11:1: error: shave reduce needs axes=" },
	{ "an unknown reduction", "shave reduce in=x out=y func=prod axes=1\n",
	  "t.vasm:11:25: error: unknown func 'prod' (sum, mean, max, min)" },
	{ "a dim twice in axes=", "shave reduce in=x out=y func=sum axes=1,1\n",
	  "t.vasm:11:34: error: axes: dim 1 twice" },
	{ "axes= past the rank", "shave reduce in=x out=y func=sum axes=0,2\n",
	  "t.vasm:11:34: error: axes: dim 2, tensor 'x' has rank 2" },
	{ "axes= past any rank", "shave reduce in=x out=y func=sum axes=6\n",
	  "t.vasm:11:34: error: '6': expected a number in 0..5" },
	{ "softmax_f axis= past the rank", "shave softmax_f in=x out=y axis=2\n",
	  "t.vasm:11:28: error: axis=2: tensor 'x' has rank 2" },
	{ "gather axis= past the rank", "shave gather in=x indices=ix out=y axis=3\n",
	  "t.vasm:11:36: error: axis=3: tensor 'x' has rank 2" },
	{ "gather without indices=", "shave gather in=x out=y\n",
	  "t.vasm:11:1: error: shave gather needs indices=" },
	{ "gather with f16 indices", "shave gather in=x indices=hx out=y\n",
	  "t.vasm:11:19: error: indices: tensor 'hx' is f16, gather's indices are i32" },
	{ "layernorm epsilon < 0", "shave layernorm in=x out=y axis=1 epsilon=-1e-5\n",
	  "t.vasm:11:35: error: epsilon=-1e-05: finite and >= +0" },
	{ "layernorm epsilon -0", "shave layernorm in=x out=y axis=1 epsilon=-0\n",
	  "t.vasm:11:35: error: epsilon=-0: finite and >= +0" },
	{ "layernorm epsilon inf", "shave layernorm in=x out=y epsilon=inf\n",
	  "t.vasm:11:28: error: epsilon=inf: finite and >= +0" },
	{ "layernorm scale_dims= without scale=", "shave layernorm in=x out=y scale_dims=ix\n",
	  "t.vasm:11:28: error: scale_dims= given without scale=" },
	{ "a malformed float", "shave unary in=x out=y func=clip alpha=abc\n",
	  "t.vasm:11:34: error: 'abc': expected a number (decimal or hex-float), inf, nan or snan" },
	{ "alpha= on exp", "shave unary in=x out=y func=exp alpha=1\n",
	  "t.vasm:11:33: error: alpha= is used by hard_sigmoid, leaky_relu and clip only" },
	{ "beta= on hard_swish", "shave unary in=x out=y func=hard_swish beta=1\n",
	  "t.vasm:11:40: error: beta= is used by hard_sigmoid, leaky_relu and clip only" },
	{ "hard_sigmoid beta inf", "shave unary in=x out=y func=hard_sigmoid alpha=0.2 beta=inf\n",
	  "t.vasm:11:52: error: beta=inf: hard_sigmoid takes finite alpha and beta" },
	{ "leaky_relu slope NaN", "shave unary in=x out=y func=leaky_relu alpha=nan\n",
	  "t.vasm:11:40: error: alpha=nan: leaky_relu's slope must be finite" },
	{ "leaky_relu with beta=", "shave unary in=x out=y func=leaky_relu alpha=0.1 beta=1\n",
	  "t.vasm:11:50: error: beta= is not used by leaky_relu" },
	{ "clip with a NaN bound", "shave unary in=x out=y func=clip beta=nan\n",
	  "t.vasm:11:34: error: beta=nan: clip's bounds may not be NaN" },
	{ "clip max below min", "shave unary in=x out=y func=clip alpha=6 beta=0\n",
	  "t.vasm:11:42: error: clip: beta (max) 0 below alpha (min) 6" },
	{ "unary on an integer tensor", "shave unary in=u out=y func=abs\n",
	  "t.vasm:11:13: error: in: tensor 'u' is u8, shave unary takes f16 or f32" },
	{ "convert f16 to f32 with a scale", "shave convert in=x out=a scale=2\n",
	  "t.vasm:11:26: error: scale= is for a conversion to or from u8, i8 or i32 (f16 to f32 takes neither scale nor zero_point)" },
	{ "convert f16 to f32 with a zero point", "shave convert in=x out=a zero_point=1\n",
	  "t.vasm:11:26: error: zero_point= is for a conversion to or from u8, i8 or i32" },
	{ "quantize without scale=", "shave convert in=x out=u\n",
	  "t.vasm:11:1: error: scale=0: the step of the u8 values must be finite and > 0" },
	{ "quantize with a negative scale", "shave convert in=x out=u scale=-0.5\n",
	  "t.vasm:11:26: error: scale=-0.5: the step of the u8 values must be finite and > 0" },
	{ "a zero point outside u8", "shave convert in=x out=u scale=1 zero_point=256\n",
	  "t.vasm:11:34: error: zero_point=256 outside u8 (0..255)" },
	{ "convert u8 to u8", "shave convert in=u out=u scale=1\n",
	  "t.vasm:11:1: error: convert u8 to u8: no such conversion (f16/f32 to f16, f32, u8 or i8; u8, i8 or i32 to f16 or f32)" },
	{ "an unknown resize mode", "shave resize in=x out=y mode=cubic\n",
	  "t.vasm:11:25: error: unknown mode 'cubic' (nearest, linear)" },
	{ "an unknown coordinate mode", "shave resize in=x out=y coord=half\n",
	  "t.vasm:11:25: error: unknown coord 'half' (half_pixel, pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn)" },
	{ "nearest= with mode=linear", "shave resize in=x out=y mode=linear nearest=floor\n",
	  "t.vasm:11:37: error: nearest= is for mode=nearest" },
	{ "a zero scale", "shave resize in=x out=y scales=0,2\n",
	  "t.vasm:11:25: error: scales: 0 for dim 0, must be finite and > 0" },
	{ "a scale past the rank", "shave resize in=x out=y scales=1,1,2\n",
	  "t.vasm:11:25: error: scales: a value for dim 2, tensor 'x' has rank 2" },
	{ "seven scales", "shave resize in=x out=y scales=1,1,1,1,1,1,1\n",
	  "t.vasm:11:25: error: too many values (at most 6)" },
	{ "linear over dim 0 of three", "shave resize in=t3 out=t3 mode=linear scales=2,1,1\n",
	  "t.vasm:11:39: error: scales: 2 for dim 0, mode=linear resizes the last two dims only (1 for the others)" },
	{ "linear on rank 1", "shave resize in=v out=v mode=linear\n",
	  "t.vasm:11:25: error: mode=linear resizes the last two dims: tensor 'v' has rank 1" },
	{ "resize to another type", "shave resize in=x out=a\n",
	  "t.vasm:11:19: error: out: tensor 'a' is f32, shave resize keeps the type of in (f16)" },
	{ "an unknown pad mode", "shave pad in=x out=y mode=wrap\n",
	  "t.vasm:11:22: error: unknown mode 'wrap' (constant, reflect, edge)" },
	{ "value= with mode=reflect", "shave pad in=x out=y mode=reflect value=1\n",
	  "t.vasm:11:35: error: value= is for mode=constant" },
	{ "begin= past the rank", "shave pad in=x out=y begin=0,0,1\n",
	  "t.vasm:11:22: error: begin: a value for dim 2, tensor 'x' has rank 2" },
	{ "reflect past dim - 1", "shave pad in=x out=y mode=reflect end=1,6\n",
	  "t.vasm:11:35: error: end: 6 for dim 1, mode=reflect pads at most dim - 1 = 5" },
	{ "a dynamic in2 without its dims", "shave binary in=x in2=dn out=y func=add\n",
	  "t.vasm:11:1: error: tensor 'dn' has dynamic dims: in2_dims=OP needed (its 2 actual dims, u32 each)" },
	{ "in2_dims= of a static in2", "tensor d i32 1\nshave binary in=x in2=v out=y in2_dims=d func=add\n",
	  "t.vasm:12:31: error: in2_dims= given, but tensor 'v' has static dims" },
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
	mkdir(TMP, 0755);
	test_every();
	test_bytes();
	test_raw();
	test_errors();
	return tap_finish();
}
