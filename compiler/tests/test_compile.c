// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The compiler's rules, one test each: models built in memory with the
 * protobuf-c structs (packed, then imported like a file), expected error
 * codes and message fragments; and end-to-end checks that a compiled
 * network runs in-process with the CMX tiling giving the same bytes as
 * the untiled program and as the CPU reference executor.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_build.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

/* ---- building models: onnx_build.h ---- */

static float f1[1] = { 0.05f }, f2[1] = { 0.1f }, f3[1] = { 0.02f };
static uint8_t zp128[1] = { 128 };
static int8_t zp0[1] = { 0 };

/* import + compile; returns the compile (or import) status */
static int build(struct mb *b, struct vpuxc_result *r, int no_cmx)
{
	struct vpuxc_options o = { .no_cmx = no_cmx, .report = 1 };

	return mb_compile(b, &o, r);
}

static void expect(struct mb *b, int code, const char *frag, const char *what)
{
	struct vpuxc_result r;
	int ret = build(b, &r, 0);

	tap_check(ret == code && (!frag || strstr(vpux_last_error(), frag)),
		  "%s (%d: %s)", what, ret, ret ? vpux_last_error() : "ok");
	vpuxc_result_fini(&r);
}

/* y = Relu(x) */
static void mb_node_csv_relu(struct mb *b)
{
	char *in[1] = { "x" }, *out[1] = { "y" };

	mb_node(b, "Relu", "relu", in, 1, out, 1);
}

/* ---- import rules ---- */

static void test_import(void)
{
	static const unsigned char junk[] = { 0x0a, 0xff, 0xff, 0xff, 0x0f };
	static const int64_t d4[4] = { 1, 1, 4, 4 };
	static char *in_x[] = { "x" }, *out_y[] = { "y" }, *in_z[] = { "z" };
	struct vpuxc_model *m;
	struct mb b;
	size_t size;
	void *buf;
	int ret;

	ret = vpuxc_import_mem(junk, sizeof(junk), &m);
	tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(), "ModelProto"),
		  "truncated protobuf refused: %s", vpux_last_error());
	ret = vpuxc_import_mem(junk, 0, &m);
	tap_check(ret == VPUX_E_FORMAT, "empty model refused");
	ret = vpuxc_import_file("/nonexistent/model.onnx", &m);
	tap_check(ret == VPUX_E_IO && strstr(vpux_last_error(), "/nonexistent"),
		  "missing file names the path");

	mb_init(&b, 13);
	b.m.graph = NULL;
	buf = mb_pack(&b, &size);
	mb_free(&b);
	ret = vpuxc_import_mem(buf, size, &m);
	free(buf);
	tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(), "no graph"),
		  "model without graph");

	mb_init(&b, 13);
	mb_input(&b, "x", 2, 4, d4);
	mb_output(&b, "y", 2, 4, d4);
	mb_node(&b, "Relu", "r", in_z, 1, out_y, 1);
	expect(&b, VPUX_E_FORMAT, "input 'z' is not defined",
	       "node input never defined");
	mb_free(&b);

	mb_init(&b, 13);
	mb_input(&b, "x", 2, 4, d4);
	mb_output(&b, "y", 2, 4, d4);
	mb_node(&b, "Relu", "r1", in_x, 1, out_y, 1);
	mb_node(&b, "Relu", "r2", in_x, 1, out_y, 1);
	expect(&b, VPUX_E_FORMAT, "already defined", "two producers of one value");
	mb_free(&b);

	mb_init(&b, 13);
	mb_input(&b, "x", 2, 4, d4);
	mb_output(&b, "q", 2, 4, d4);
	expect(&b, VPUX_E_FORMAT, "not produced", "graph output never produced");
	mb_free(&b);

	{
		static const int64_t d2[1] = { 2 };
		static const uint8_t two[1] = { 1 };

		mb_init(&b, 13);
		mb_input(&b, "x", 2, 4, d4);
		mb_output(&b, "y", 2, 4, d4);
		mb_init_t(&b, "w", 2, 1, d2, two, 1);
		mb_node(&b, "Relu", "r", in_x, 1, out_y, 1);
		expect(&b, VPUX_E_FORMAT, "initializer 'w': data size mismatch",
		       "initializer data shorter than its dims");
		mb_free(&b);
	}
	mb_init(&b, 13);
	mb_input(&b, "x", 2, 4, d4);
	mb_output(&b, "y", 2, 4, d4);
	mb_node(&b, "Relu", "r", in_x, 1, out_y, 1)->domain = "com.example";
	expect(&b, VPUX_E_UNSUPPORTED, "domain 'com.example'",
	       "custom operator domain listed");
	mb_free(&b);
}

/* ---- lowering rules ---- */

static void test_lowering(void)
{
	static const int64_t d4[4] = { 1, 2, 4, 4 }, d4b[4] = { 2, 2, 4, 4 };
	static const int64_t d3b[4] = { 2, 2, 3, 3 };
	static const int64_t s0[0];
	static char *qin[] = { "x", "s", "z" }, *qout[] = { "q" };
	static char *dqin[] = { "q", "s", "z" }, *dqout[] = { "f" };
	static char *rin[] = { "f" }, *rout[] = { "g" }, *eout[] = { "e" };
	static char *ein[] = { "g" };
	struct mb b;

	/* every unsupported node at once */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "e", 1, 4, d4);
	mb_init_t(&b, "s", 1, 0, s0, f1, 4);
	mb_init_t(&b, "z", 2, 0, s0, zp128, 1);
	mb_node(&b, "QuantizeLinear", "q0", qin, 3, qout, 1);
	mb_node(&b, "DequantizeLinear", "dq0", dqin, 3, dqout, 1);
	mb_node(&b, "Hardmax", "hm1", rin, 1, rout, 1);
	mb_node(&b, "Shrink", "sh1", ein, 1, eout, 1);
	expect(&b, VPUX_E_UNSUPPORTED, "2 unsupported nodes", "two unsupported nodes counted");
	expect(&b, VPUX_E_UNSUPPORTED, "Hardmax 'hm1': operator not supported",
	       "first unsupported node named");
	expect(&b, VPUX_E_UNSUPPORTED, "Shrink 'sh1'",
	       "second unsupported node named");
	mb_free(&b);

	/* a float op whose result is never quantized */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4);
	mb_output(&b, "g", 1, 4, d4);
	mb_init_t(&b, "s", 1, 0, s0, f1, 4);
	mb_init_t(&b, "z", 2, 0, s0, zp128, 1);
	mb_node(&b, "QuantizeLinear", "q0", qin, 3, qout, 1);
	mb_node(&b, "DequantizeLinear", "dq0", dqin, 3, dqout, 1);
	mb_node(&b, "Sigmoid", "sig", rin, 1, rout, 1);
	expect(&b, 0, NULL,
	       "float result of a quantized section as graph output: FP16");
	mb_free(&b);

	/* batch 2 */
	mb_init(&b, 13);
	mb_input(&b, "x", 1, 4, d4b);
	mb_output(&b, "q2", 2, 4, d3b);
	mb_init_t(&b, "s", 1, 0, s0, f1, 4);
	mb_init_t(&b, "z", 2, 0, s0, zp128, 1);
	{
		static char *pin[] = { "q" }, *pout[] = { "p" };
		static char *q2in[] = { "p" }, *q2out[] = { "q2" };
		static const int64_t k[2] = { 2, 2 };

		mb_node(&b, "QuantizeLinear", "q0", qin, 3, qout, 1);
		mb_attr_ints(&b, mb_node(&b, "MaxPool", "mp", pin, 1, pout, 1),
			     "kernel_shape", k, 2);
		mb_node(&b, "Identity", "id", q2in, 1, q2out, 1);
	}
	expect(&b, VPUX_E_UNSUPPORTED, "only batch 1", "batch 2 refused");
	mb_free(&b);

	/* a float graph input used without QuantizeLinear */
	mb_init(&b, 13);
	mb_input(&b, "f", 1, 4, d4);
	mb_output(&b, "g", 1, 4, d4);
	mb_node(&b, "Relu", "r", rin, 1, rout, 1);
	expect(&b, 0, NULL, "float input without QuantizeLinear: FP16");
	mb_free(&b);
	(void)f2;
	(void)f3;
	(void)zp0;
}

/* ---- end to end: QDQ conv + relu + maxpool + add, tiled and not ---- */

static int run_net(const struct vpuxc_result *r, const uint8_t *in,
		   size_t isz, uint8_t *out, size_t osz, int reference)
{
	const void *ins[1] = { in };

	return mb_run(NULL, r, 1, ins, &isz, out, osz, reference);
}

static void test_end_to_end(void)
{
	/* x[1,16,40,40] u8 -> DQ -> Conv 3x3 (16->16, pad 1) -> Relu -> Q
	 * -> DQ -> Add(residual with DQ(x)) -> Q -> y  */
	enum { C = 16, H = 40, W = 40 };
	static const int64_t dx[4] = { 1, C, H, W }, dw[4] = { C, C, 3, 3 };
	static const int64_t s0[0], dwsc[1] = { C }, db[1] = { C };
	static const int64_t pads[4] = { 1, 1, 1, 1 };
	static char *dq_x[] = { "x", "sx", "zx" }, *dq_xo[] = { "xf" };
	static char *dq_w[] = { "w", "sw", "zw" }, *dq_wo[] = { "wf" };
	static char *dq_b[] = { "b", "sb", "zb" }, *dq_bo[] = { "bf" };
	static char *cv[] = { "xf", "wf", "bf" }, *cvo[] = { "c" };
	static char *rl[] = { "c" }, *rlo[] = { "r" };
	static char *q1[] = { "r", "sr", "zr" }, *q1o[] = { "rq" };
	static char *dq_r[] = { "rq", "sr", "zr" }, *dq_ro[] = { "rf" };
	static char *ad[] = { "rf", "xf" }, *ado[] = { "a" };
	static char *q2[] = { "a", "sy", "zy" }, *q2o[] = { "y" };
	static int8_t w[C * C * 9];
	static float sw[C], sx = 0.02f, sr = 0.05f, sy = 0.08f;
	static int8_t zw[C];
	static int32_t bias[C], zb[C];
	static float sb[C];
	static uint8_t zx = 128, zr = 0, zy = 100;
	static uint8_t in[C * H * W], out1[C * H * W], out2[C * H * W];
	static uint8_t out3[C * H * W];
	struct vpuxc_result r1, r2;
	struct mb b;
	unsigned int i, seed = 7, diff = 0, varied = 0;
	int ret;

	for (i = 0; i < sizeof(w); i++) {
		seed = seed * 1103515245u + 12345u;
		w[i] = (int8_t)((int)(seed >> 16) % 41 - 20);
	}
	for (i = 0; i < C; i++) {
		sw[i] = 0.01f + 0.001f * (float)i;
		bias[i] = (int32_t)i * 37 - 300;
		sb[i] = sx * sw[i];
	}
	for (i = 0; i < sizeof(in); i++) {
		seed = seed * 1103515245u + 12345u;
		in[i] = (uint8_t)(seed >> 20);
	}
	mb_init(&b, 13);
	mb_input(&b, "x", 2, 4, dx);
	mb_output(&b, "y", 2, 4, dx);
	mb_init_t(&b, "sx", 1, 0, s0, &sx, 4);
	mb_init_t(&b, "zx", 2, 0, s0, &zx, 1);
	mb_init_t(&b, "w", 3, 4, dw, w, sizeof(w));
	mb_init_t(&b, "sw", 1, 1, dwsc, sw, sizeof(sw));
	mb_init_t(&b, "zw", 3, 1, dwsc, zw, sizeof(zw));
	mb_init_t(&b, "b", 6, 1, db, bias, sizeof(bias));
	mb_init_t(&b, "sb", 1, 1, db, sb, sizeof(sb));
	mb_init_t(&b, "zb", 6, 1, db, zb, sizeof(zb));
	mb_init_t(&b, "sr", 1, 0, s0, &sr, 4);
	mb_init_t(&b, "zr", 2, 0, s0, &zr, 1);
	mb_init_t(&b, "sy", 1, 0, s0, &sy, 4);
	mb_init_t(&b, "zy", 2, 0, s0, &zy, 1);
	mb_node(&b, "DequantizeLinear", "dqx", dq_x, 3, dq_xo, 1);
	mb_attr_int(&b, mb_node(&b, "DequantizeLinear", "dqw", dq_w, 3, dq_wo, 1),
		    "axis", 0);
	mb_attr_int(&b, mb_node(&b, "DequantizeLinear", "dqb", dq_b, 3, dq_bo, 1),
		    "axis", 0);
	mb_attr_ints(&b, mb_node(&b, "Conv", "conv", cv, 3, cvo, 1), "pads",
		     pads, 4);
	mb_node(&b, "Relu", "relu", rl, 1, rlo, 1);
	mb_node(&b, "QuantizeLinear", "qr", q1, 3, q1o, 1);
	mb_node(&b, "DequantizeLinear", "dqr", dq_r, 3, dq_ro, 1);
	mb_node(&b, "Add", "add", ad, 2, ado, 1);
	mb_node(&b, "QuantizeLinear", "qy", q2, 3, q2o, 1);

	ret = build(&b, &r1, 0);
	tap_check(!ret, "QDQ conv/relu/add compiles with CMX tiling (%s)",
		  ret ? vpux_last_error() : "ok");
	if (ret) {
		mb_free(&b);
		return;
	}
	if (getenv("SHOW_REPORT"))
		fputs(r1.report, stderr);
	tap_check(r1.report && strstr(r1.report, "conv") &&
		  strstr(r1.report, "CMX bands"), "report lists the layers");
	{	/* two CMX tiles (libvpux's tile sets), and too many */
		struct vpuxc_options o = { .cmx_tiles = 2, .vasm = 1 };
		struct vpuxc_result r3;

		ret = mb_compile(&b, &o, &r3);
		tap_check(!ret && r3.vasm && strstr(r3.vasm, "region=cmx0") &&
			  strstr(r3.vasm, "region=cmx1") &&
			  !strstr(r3.vasm, "region=cmx2") &&
			  !strstr(r3.vasm, "region=cmx3"),
			  "cmx_tiles 2: CMX tensors in tiles 0 and 1 only (%s)",
			  ret ? vpux_last_error() : "ok");
		ret = ret ? ret : run_net(&r3, in, sizeof(in), out2,
					  sizeof(out2), 0);
		tap_check(!ret && run_net(&r1, in, sizeof(in), out3, sizeof(out3),
				  0) == 0 && !memcmp(out2, out3, sizeof(out2)),
			  "and runs to the same bytes as on four tiles");
		vpuxc_result_fini(&r3);
		o.cmx_tiles = 5;
		ret = mb_compile(&b, &o, &r3);
		tap_check(ret == VPUX_E_INVAL &&
			  strstr(vpux_last_error(),
				 "cmx_tiles 5: the target has 4 CMX tiles"),
			  "cmx_tiles 5: VPUX_E_INVAL (%s)", vpux_last_error());
		vpuxc_result_fini(&r3);
	}
	ret = build(&b, &r2, 1);
	mb_free(&b);
	tap_check(!ret, "and without (%s)", ret ? vpux_last_error() : "ok");
	if (ret) {
		vpuxc_result_fini(&r1);
		return;
	}
	ret = run_net(&r1, in, sizeof(in), out1, sizeof(out1), 0);
	tap_check(!ret, "tiled network runs in-process (%s)",
		  ret ? vpux_last_error() : "ok");
	ret = run_net(&r2, in, sizeof(in), out2, sizeof(out2), 0);
	tap_check(!ret, "untiled network runs in-process");
	ret = run_net(&r1, in, sizeof(in), out3, sizeof(out3), 1);
	tap_check(!ret, "tiled network runs on the CPU reference");
	for (i = 0; i < sizeof(out1); i++) {
		diff += out1[i] != out2[i] || out1[i] != out3[i];
		varied += out1[i] != out1[0];
	}
	tap_check(!diff && varied > sizeof(out1) / 2,
		  "tiled == untiled == reference, bit for bit (%u differ, %u varied)",
		  diff, varied);
	vpuxc_result_fini(&r1);
	vpuxc_result_fini(&r2);
}

/*
 * A dim_param of the graph outputs alone, without bounds, is a dim the
 * graph determines (torch names one it cannot infer): inferred. On an
 * input it still needs bounds.
 */
static void test_output_dim_param(void)
{
	static const int64_t d14[2] = { 1, 4 }, dn4[2] = { -1, 4 };
	struct vpuxc_model *m = NULL;
	struct vpuxc_result r;
	struct vpuxc_tensor t;
	struct mb b;
	int ret, k;

	for (k = 0; k < 2; k++) {
		mb_init(&b, 13);
		mb_input(&b, "x", 1, 2, k ? dn4 : d14);
		mb_output(&b, "y", 1, 2, dn4);	/* [N, 4] */
		mb_node_csv_relu(&b);
		ret = mb_import(&b, &m);
		mb_free(&b);
		if (ret) {
			tap_check(0, "output dim_param: import: %s",
				  vpux_last_error());
			return;
		}
		memset(&r, 0, sizeof(r));
		ret = vpuxc_compile(m, NULL, &r);
		if (k)
			tap_check(ret == VPUX_E_INVAL &&
				  strstr(vpux_last_error(), "dim_param 'N' (of 'x') has no bounds"),
				  "a dim_param of an input still needs bounds: %s",
				  vpux_last_error());
		else
			tap_check(!ret && !vpuxc_model_dim_param(m, 0) &&
				  !vpuxc_model_output(m, 0, &t) && t.rank == 2 &&
				  t.dims[0] == 1 && t.dims[1] == 4,
				  "an unbounded dim_param of the output alone is inferred: [1, 4] (%s)",
				  ret ? vpux_last_error() : "ok");
		vpuxc_result_fini(&r);
		vpuxc_model_free(m);
	}
}

int main(void)
{
	test_import();
	test_lowering();
	test_end_to_end();
	test_output_dim_param();
	return tap_finish();
}
