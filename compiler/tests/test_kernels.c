// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Custom kernels (compiler/kernels.c, --kernels DIR): the .vpux.params
 * parser on the example kernel and on broken copies of it (each rule
 * with its message), each rule of a com.vpux node against its kernel's
 * declaration, the CPU fallback refusing a custom node, and the example
 * kernel and a test kernel with an array parameter compiled and run in
 * process against a C reference, bit for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "kernels.h"
#include "onnx_build.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

#ifndef EXAMPLE_KERNEL_DIR
#error "EXAMPLE_KERNEL_DIR: the built examples/kernels (kernels/sdk.mk)"
#endif

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *d = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (d = malloc((size_t)n)) &&
	    fread(d, 1, (size_t)n, f) != (size_t)n) {
		free(d);
		d = NULL;
	}
	*size = d ? (size_t)n : 0;
	fclose(f);
	return d;
}

static size_t find(const uint8_t *d, size_t n, const void *pat, size_t pn)
{
	size_t i;

	for (i = 0; i + pn <= n; i++)
		if (!memcmp(d + i, pat, pn))
			return i;
	return (size_t)-1;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* a broken copy: @edit at the declaration's offset @at; expect @msg */
struct bad {
	const char *what;
	unsigned int at;	/* from the header's start */
	int width;		/* 1, 2, 4; 0: @bytes */
	uint32_t v;
	const char *bytes;
	const char *msg;
};

static void parser_tests(void)
{
	static const struct bad bads[] = {
		{ "magic", 0, 4, 0x12345678, NULL, "magic 0x12345678" },
		{ "version", 4, 2, 2, NULL, "version 2" },
		{ "hdr_size", 6, 2, 36, NULL, "hdr_size 36" },
		{ "param_size", 8, 2, 44, NULL, "param_size 44" },
		{ "n_params above the max", 10, 2, 65, NULL, "n_params 65 above 64" },
		{ "n_params not the size", 10, 2, 2, NULL, "not the header and 2 parameters" },
		{ "no input", 12, 1, 0, NULL, "n_inputs 0" },
		{ "too many tensors", 13, 1, 8, NULL, "together at most 8" },
		{ "shape", 14, 1, 1, NULL, "shape 1 unknown" },
		{ "reserved0", 15, 1, 1, NULL, "reserved fields not 0" },
		{ "params_size unaligned", 16, 4, 13, NULL, "params_size 13" },
		{ "params_size too big", 16, 4, 4096, NULL, "params_size 4096" },
		{ "in_types empty", 20, 4, 0, NULL, "in_types 0x0" },
		{ "out_types unknown bit", 24, 4, 1u << 9, NULL, "out_types 0x200" },
		{ "reserved", 28, 4, 1, NULL, "reserved fields not 0" },
		{ "name without NUL", 32, 0, 0, "abcdefghijklmnopqrstuvwxyz012345",
		  "name not NUL-terminated" },
		{ "bytes after the NUL", 32 + 10, 1, 'x', NULL,
		  "bytes after the name's NUL not 0" },
		{ "name not an identifier", 32, 0, 0, "1cale",
		  "name '1cale' is not a C identifier" },
		{ "empty name", 32, 0, 0, "", "name '' is not a C identifier" },
		{ "type", 32 + 32, 4, 9, NULL, "parameter 'scale': type 9 unknown" },
		{ "count 0", 32 + 40, 4, 0, NULL, "parameter 'scale': count 0" },
		{ "count above the max", 32 + 40, 4, 257, NULL, "count 257" },
		{ "offset outside", 32 + 36, 4, 12, NULL,
		  "parameter 'scale': 4 bytes at offset 12, outside" },
		{ "offset unaligned", 32 + 36, 4, 2, NULL, "at offset 2" },
		{ "param reserved", 32 + 44, 4, 1, NULL,
		  "parameter 'scale': reserved not 0" },
		{ "duplicate name", 80, 0, 0, "scale",
		  "parameter 'scale' declared twice" },
		{ "overlap", 80 + 36, 4, 0, NULL,
		  "parameters 'scale' and 'shift' overlap" },
	};
	struct vc_kdecl d;
	size_t n, at, i;
	uint8_t *elf = slurp(EXAMPLE_KERNEL_DIR "/scale_shift.elf", &n), *c;
	static const uint8_t magic[4] = { 'K', 'P', 'R', 'M' };

	if (!tap_check(elf != NULL, "read the example kernel scale_shift.elf"))
		return;
	tap_check(!vc_kdecl_parse(elf, n, "scale_shift.elf", &d) &&
		  d.h.n_params == 3 && d.h.n_inputs == 1 && d.h.n_outputs == 1 &&
		  d.h.params_size == 12 &&
		  !strcmp(d.p[0].name, "scale") && d.p[0].type == VPUX_KPARAM_F32 &&
		  d.p[0].offset == 0 && !strcmp(d.p[1].name, "shift") &&
		  d.p[1].offset == 4 && !strcmp(d.p[2].name, "relu") &&
		  d.p[2].type == VPUX_KPARAM_I32 && d.p[2].offset == 8 &&
		  d.p[2].count == 1,
		  "the example's declaration: scale, shift (float), relu (s32) at 0, 4, 8");
	at = find(elf, n, magic, 4);
	c = malloc(n);
	if (!tap_check(at != (size_t)-1 && c, "the declaration is in the file")) {
		free(c);
		free(elf);
		return;
	}
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		const struct bad *b = &bads[i];
		int r;

		memcpy(c, elf, n);
		if (b->width == 1)
			c[at + b->at] = (uint8_t)b->v;
		else if (b->width == 2)
			put16(c + at + b->at, (uint16_t)b->v);
		else if (b->width == 4)
			put32(c + at + b->at, b->v);
		else if (!*b->bytes)
			memset(c + at + b->at, 0, VPUX_KPARAM_NAME_LEN);
		else
			memcpy(c + at + b->at, b->bytes, strlen(b->bytes) +
			       (strlen(b->bytes) < 32));
		r = vc_kdecl_parse(c, n, "k.elf", &d);
		tap_check(r == VPUX_E_FORMAT &&
			  strstr(vpux_last_error(), b->msg) &&
			  !strncmp(vpux_last_error(), "k.elf: .vpux.params: ", 21),
			  "declaration rule: %s (%s)", b->what,
			  r ? vpux_last_error() : "accepted");
	}
	/* the section renamed: no declaration */
	memcpy(c, elf, n);
	at = find(c, n, ".vpux.params", 12);
	if (at != (size_t)-1)
		c[at + 11] = 'z';
	tap_check(at != (size_t)-1 && vc_kdecl_parse(c, n, "k.elf", &d) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "no .vpux.params section") &&
		  strstr(vpux_last_error(), "VPUX_KERNEL_DECLARE()"),
		  "a kernel without a declaration: %s", vpux_last_error());
	/* the image checks come first (lf_kernel_from_elf()) */
	tap_check(vc_kdecl_parse(elf, 16, "k.elf", &d) == VPUX_E_FORMAT &&
		  vc_kdecl_parse("not an elf file", 15, "k.elf", &d) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "k.elf: not an ELF file"),
		  "not an ELF: %s", vpux_last_error());
	/* every truncation is refused cleanly */
	for (i = 0, at = 0; i < n; i += 7)
		at += vc_kdecl_parse(elf, i, "k.elf", &d) == VPUX_E_FORMAT;
	tap_check(at == (n + 6) / 7, "every truncated copy refused (%zu)", at);
	free(c);
	free(elf);
}

/* ---- nodes against declarations ---- */

static const int64_t d4[4] = { 1, 4, 3, 5 };

/* x -> com.vpux @op (node "k") -> y, float [1,4,3,5] */
static Onnx__NodeProto *model(struct mb *b, const char *op, int nin)
{
	char *in[2] = { "x", "x" }, *out[1] = { "y" };
	Onnx__NodeProto *n;

	mb_init(b, 17);
	mb_input(b, "x", 1, 4, d4);
	mb_output(b, "y", 1, -1, NULL);
	n = mb_node(b, op, "k", in, (size_t)nin, out, 1);
	n->domain = mb_strdup(b, "com.vpux");
	return n;
}

static void scale_shift_attrs(struct mb *b, Onnx__NodeProto *n)
{
	mb_attr_float(b, n, "scale", 1.5f);
	mb_attr_float(b, n, "shift", -0.25f);
	mb_attr_int(b, n, "relu", 1);
}

/* compile @b with --kernels @dir; 0 or the error, whose text has @msg */
static void refused(struct mb *b, const char *dir, const char *what,
		    const char *msg)
{
	struct vpuxc_options o = { .kernels = dir };
	struct vpuxc_result r;
	int ret = mb_compile(b, &o, &r);

	tap_check(ret == VPUX_E_UNSUPPORTED && strstr(vpux_last_error(), msg) &&
		  strstr(vpux_last_error(), "'k'"),
		  "node rule: %s (%s)", what, ret ? vpux_last_error() : "compiled");
	vpuxc_result_fini(&r);
	mb_free(b);
}

static void node_tests(void)
{
	struct mb b;
	Onnx__NodeProto *n;

	n = model(&b, "scale_shift", 1);
	mb_attr_float(&b, n, "scale", 1.5f);
	mb_attr_float(&b, n, "shift", 0);
	refused(&b, EXAMPLE_KERNEL_DIR, "missing attribute",
		"attribute 'relu' missing: kernel 'scale_shift' declares s32 relu");

	n = model(&b, "scale_shift", 1);
	scale_shift_attrs(&b, n);
	mb_attr_float(&b, n, "gamma", 2);
	refused(&b, EXAMPLE_KERNEL_DIR, "extra attribute",
		"attribute 'gamma' is not a parameter of kernel 'scale_shift'");

	n = model(&b, "scale_shift", 1);
	mb_attr_int(&b, n, "scale", 2);
	mb_attr_float(&b, n, "shift", 0);
	mb_attr_int(&b, n, "relu", 0);
	refused(&b, EXAMPLE_KERNEL_DIR, "wrong attribute type",
		"attribute 'scale' is INT: kernel 'scale_shift' declares float (ONNX FLOAT)");

	n = model(&b, "scale_shift", 1);
	mb_attr_float(&b, n, "scale", 2);
	mb_attr_float(&b, n, "shift", 0);
	mb_attr_int(&b, n, "relu", 1ll << 40);
	refused(&b, EXAMPLE_KERNEL_DIR, "INT outside s32",
		"attribute 'relu': value 1099511627776 outside kernel 'scale_shift''s s32");

	n = model(&b, "scale_shift", 2);
	scale_shift_attrs(&b, n);
	refused(&b, EXAMPLE_KERNEL_DIR, "input count",
		"2 inputs and 1 outputs: kernel 'scale_shift' declares 1 and 1");

	n = model(&b, "chan_affine", 1);
	mb_attr_floats(&b, n, "w", (const float[]){ 1, 2, 3 }, 3);
	mb_attr_float(&b, n, "b", 0);
	mb_attr_int(&b, n, "pick", 0);
	refused(&b, TEST_KERNEL_DIR, "array count",
		"attribute 'w' has 3 values: kernel 'chan_affine' declares float[4]");

	n = model(&b, "chan_affine", 1);
	mb_attr_float(&b, n, "w", 1);
	mb_attr_float(&b, n, "b", 0);
	mb_attr_int(&b, n, "pick", 0);
	refused(&b, TEST_KERNEL_DIR, "scalar for an array",
		"attribute 'w' is FLOAT: kernel 'chan_affine' declares float[4] (ONNX FLOATS)");

	n = model(&b, "chan_affine", 1);
	mb_attr_floats(&b, n, "w", (const float[]){ 1, 2, 3, 4 }, 4);
	mb_attr_float(&b, n, "b", 0);
	mb_attr_int(&b, n, "pick", -1);
	refused(&b, TEST_KERNEL_DIR, "negative INT for a u32",
		"attribute 'pick': value -1 outside kernel 'chan_affine''s u32");

	/* an int64 input: ONNX Cast of x to INT64 feeding the kernel */
	mb_init(&b, 17);
	mb_input(&b, "x", 7, 4, d4);
	mb_output(&b, "y", 7, -1, NULL);
	{
		char *in[1] = { "x" }, *out[1] = { "y" };

		n = mb_node(&b, "scale_shift", "k", in, 1, out, 1);
		n->domain = mb_strdup(&b, "com.vpux");
		scale_shift_attrs(&b, n);
	}
	refused(&b, EXAMPLE_KERNEL_DIR, "element type",
		"input 0 'x' is int64: kernel 'scale_shift' takes float tensors");

	n = model(&b, "nope", 1);
	refused(&b, EXAMPLE_KERNEL_DIR, "no such kernel",
		"kernel 'nope' of --kernels " EXAMPLE_KERNEL_DIR ": "
		EXAMPLE_KERNEL_DIR "/nope.elf: No such file");

	n = model(&b, "no/pe", 1);
	refused(&b, EXAMPLE_KERNEL_DIR, "op type not a kernel name",
		"op type 'no/pe' is not a kernel name");

	n = model(&b, "scale_shift", 1);
	scale_shift_attrs(&b, n);
	refused(&b, NULL, "no --kernels",
		"a custom op of domain com.vpux: compile with --kernels DIR holding scale_shift.elf");

	/* DIR/host.elf is an x86-64 ELF header: the ELF reader's message */
	{
		char dir[] = "/tmp/test_kernels.XXXXXX", path[64];
		uint8_t h[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
		FILE *f;

		h[18] = 62;	/* EM_X86_64 */
		if (mkdtemp(dir)) {
			snprintf(path, sizeof(path), "%s/host.elf", dir);
			f = fopen(path, "wb");
			if (f) {
				fwrite(h, 1, sizeof(h), f);
				fclose(f);
			}
			n = model(&b, "host", 1);
			refused(&b, dir, "not a SHAVE kernel",
				"host.elf: not a 32-bit little-endian RISC-V ELF");
			remove(path);
			rmdir(dir);
		}
	}
}

/* the CPU cannot run a custom kernel: partitioning names node and reason */
static void fallback_tests(void)
{
	struct vpuxc_options o = { .kernels = EXAMPLE_KERNEL_DIR };
	struct vpuxc_recipe rc;
	struct vpuxc_model *m;
	struct mb b;
	Onnx__NodeProto *n;
	int ret;

	n = model(&b, "scale_shift", 1);
	mb_attr_float(&b, n, "scale", 1);
	ret = mb_import(&b, &m);
	if (!ret)
		ret = vpuxc_partition(m, &o, "", &rc);
	tap_check(ret == VPUX_E_UNSUPPORTED &&
		  strstr(vpux_last_error(), "'k'") &&
		  strstr(vpux_last_error(), "attribute 'shift' missing"),
		  "a refused custom node does not fall back to the CPU: %s",
		  vpux_last_error());
	if (!ret)
		vpuxc_recipe_fini(&rc);
	vpuxc_model_free(m);
	mb_free(&b);
}

/* ---- compiled and run in process ---- */

static float f16r(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	u = vpux_f16_to_f32(vpux_f32_to_f16(u));
	memcpy(&f, &u, 4);
	return f;
}

static void run_tests(void)
{
	struct vpuxc_options o = { .kernels = EXAMPLE_KERNEL_DIR, .vasm = 1 };
	float x[60], y[60], want[60];
	const float *ins[1] = { x };
	size_t isz[1] = { 60 };
	struct vpuxc_result r;
	Onnx__NodeProto *n;
	unsigned int i, bad = 0;
	struct mb b;
	int ret;

	for (i = 0; i < 60; i++)
		x[i] = (float)((int)(i * 37 % 61) - 30) / 7.0f;
	n = model(&b, "scale_shift", 1);
	scale_shift_attrs(&b, n);
	ret = mb_compile(&b, &o, &r);
	tap_check(!ret && r.vasm &&
		  strstr(r.vasm, "kernel scale_shift file=scale_shift.elf") &&
		  strstr(r.vasm, "params=0000c03f000080be01000000"),
		  "scale_shift compiles to a kernel task, the attributes packed (%s)",
		  ret ? vpux_last_error() : "ok");
	if (!ret)
		ret = mb_run_f16(NULL, &r, 1, ins, isz, y, 60);
	for (i = 0; !ret && i < 60; i++) {
		want[i] = f16r(fmaxf(f16r(x[i]) * 1.5f + -0.25f, 0.0f));
		bad += memcmp(&want[i], &y[i], 4) != 0;
	}
	tap_check(!ret && !bad, "scale_shift in process: equal to the C reference (%u differ; %s)",
		  bad, ret ? vpux_last_error() : "ran");
	vpuxc_result_fini(&r);
	mb_free(&b);

	/* an array parameter: the FLOATS land where the structure has w[] */
	o.kernels = TEST_KERNEL_DIR;
	n = model(&b, "chan_affine", 1);
	mb_attr_floats(&b, n, "w", (const float[]){ 0.5f, -1, 2, 3.25f }, 4);
	mb_attr_float(&b, n, "b", 0.125f);
	mb_attr_int(&b, n, "pick", 1);
	ret = mb_compile(&b, &o, &r);
	if (!ret)
		ret = mb_run_f16(NULL, &r, 1, ins, isz, y, 60);
	for (i = 0, bad = 0; !ret && i < 60; i++) {
		static const float w[4] = { 0.5f, -1, 2, 3.25f };

		want[i] = f16r(f16r(x[i]) * w[i / 15] - 0.125f);
		bad += memcmp(&want[i], &y[i], 4) != 0;
	}
	tap_check(!ret && !bad, "chan_affine (float[4], u32) in process: equal to the C reference (%u differ; %s)",
		  bad, ret ? vpux_last_error() : "ran");
	vpuxc_result_fini(&r);
	mb_free(&b);
}

int main(void)
{
	parser_tests();
	node_tests();
	fallback_tests();
	run_tests();
	return tap_finish();
}
