// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The DequantizeLinear -> op -> QuantizeLinear pattern table
 * (compiler/qdq_patterns.c): the table's shape, the matcher's lookup,
 * a Relu between the op and the QuantizeLinear folding into the DPU
 * op's clamp, and the constraints of the rows (per-tensor operands,
 * element types) refused with their messages. QDQ models built in
 * memory (onnx_build.h) and compiled to vpux-asm.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_build.h"
#include "lower_q.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

static const int64_t s0[1], d4[4] = { 1, 2, 4, 4 }, dw[4] = { 2, 2, 1, 1 };
static const int64_t d2[1] = { 2 };
static float sx = 0.05f, sw = 0.1f, sw2[2] = { 0.1f, 0.2f }, sy = 0.02f;
static float sb = 0.005f;
static uint8_t zx = 128, zy = 128;
static int8_t zw, zw2[2], w[4] = { 3, -2, 1, 4 }, bias8[2] = { 1, 2 };
static int32_t bias[2] = { 10, -20 }, zb;

/*
 * x -> Q -> DQ -> OP(DQ(w), DQ(b)) [-> Relu] -> Q -> y (uint8). @op:
 * "Conv" or "Add"; @perch: weights with a scale per channel; @b8: an
 * int8 bias.
 */
static void model(struct mb *b, const char *op, int relu, int perch, int b8)
{
	static char *q0[] = { "x", "sx", "zx" }, *q0o[] = { "xq" };
	static char *d0[] = { "xq", "sx", "zx" }, *d0o[] = { "xf" };
	static char *d1[] = { "w", "sw", "zw" }, *d1o[] = { "wf" };
	static char *d2n[] = { "b", "sb", "zb" }, *d2o[] = { "bf" };
	static char *cv[] = { "xf", "wf", "bf" }, *cvo[] = { "c" };
	static char *ad[] = { "xf", "wf" };
	static char *rl[] = { "c" }, *rlo[] = { "r" };
	static char *q1[] = { "r", "sy", "zy" }, *q1b[] = { "c", "sy", "zy" };
	static char *q1o[] = { "y" };
	int add = !strcmp(op, "Add");
	static const int64_t dwa[4] = { 1, 2, 1, 1 };

	mb_init(b, 13);
	mb_input(b, "x", 1, 4, d4);
	mb_output(b, "y", 2, 4, d4);
	mb_init_t(b, "sx", 1, 0, s0, &sx, 4);
	mb_init_t(b, "zx", 2, 0, s0, &zx, 1);
	mb_init_t(b, "w", 3, 4, add ? dwa : dw, w, add ? 2 : 4);
	if (perch) {
		mb_init_t(b, "sw", 1, 1, d2, sw2, sizeof(sw2));
		mb_init_t(b, "zw", 3, 1, d2, zw2, sizeof(zw2));
	} else {
		mb_init_t(b, "sw", 1, 0, s0, &sw, 4);
		mb_init_t(b, "zw", 3, 0, s0, &zw, 1);
	}
	if (b8) {
		mb_init_t(b, "b", 3, 1, d2, bias8, sizeof(bias8));
		mb_init_t(b, "zb", 3, 0, s0, &zw, 1);
	} else {
		mb_init_t(b, "b", 6, 1, d2, bias, sizeof(bias));
		mb_init_t(b, "zb", 6, 0, s0, &zb, 4);
	}
	mb_init_t(b, "sb", 1, 0, s0, &sb, 4);
	mb_init_t(b, "sy", 1, 0, s0, &sy, 4);
	mb_init_t(b, "zy", 2, 0, s0, &zy, 1);
	mb_node(b, "QuantizeLinear", "q0", q0, 3, q0o, 1);
	mb_node(b, "DequantizeLinear", "dqx", d0, 3, d0o, 1);
	mb_attr_int(b, mb_node(b, "DequantizeLinear", "dqw", d1, 3, d1o, 1),
		    "axis", add ? 1 : 0);
	if (add) {
		mb_node(b, "Add", "op", ad, 2, cvo, 1);
	} else {
		mb_node(b, "DequantizeLinear", "dqb", d2n, 3, d2o, 1);
		mb_node(b, "Conv", "op", cv, 3, cvo, 1);
	}
	if (relu) {
		mb_node(b, "Relu", "relu", rl, 1, rlo, 1);
		mb_node(b, "QuantizeLinear", "qy", q1, 3, q1o, 1);
	} else {
		mb_node(b, "QuantizeLinear", "qy", q1b, 3, q1o, 1);
	}
}

/* compile to vpux-asm; the status, *@vasm malloc'ed (or NULL) */
static int compile(struct mb *b, char **vasm)
{
	struct vpuxc_options o = { .vasm = 1 };
	struct vpuxc_result r;
	int ret = mb_compile(b, &o, &r);

	*vasm = !ret && r.vasm ? strdup(r.vasm) : NULL;
	vpuxc_result_fini(&r);
	return ret;
}

static unsigned int count(const char *s, const char *what)
{
	unsigned int n = 0;

	while (s && (s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void test_table(void)
{
	const struct vcq_pattern *p;
	struct vc_node n;
	unsigned int rows = 0, bad = 0, i;

	for (p = vcq_patterns; p->op; p++) {
		rows++;
		/* a lowering, and the first input an activation */
		if (!p->lower || !p->domain ||
		    (p->in[0].role != VCQ_IN_ACT &&
		     p->in[0].role != VCQ_IN_OPERAND))
			bad++;
		for (i = 0; i < VCQ_MAX_IN; i++)
			if (p->in[i].role != VCQ_IN_NONE && !p->in[i].types)
				bad++;
	}
	tap_check(rows >= 10 && !bad, "%u rows, each with a lowering and typed inputs (%u bad)",
		  rows, bad);
	memset(&n, 0, sizeof(n));
	n.op = "Conv";
	n.domain = "";
	p = vcq_pattern_of(NULL, &n);
	tap_check(p && !strcmp(p->op, "Conv") && p->in[1].role == VCQ_IN_WEIGHT &&
		  (p->in[1].q & VCQ_Q_CHANNEL) && p->in[2].role == VCQ_IN_BIAS,
		  "Conv: activation, per-channel weights, bias");
	n.domain = "ai.onnx";
	tap_check(vcq_pattern_of(NULL, &n) == p, "the ai.onnx domain is the default one");
	n.domain = "com.microsoft";
	tap_check(!vcq_pattern_of(NULL, &n), "not in another domain");
	n.domain = "";
	n.op = "Relu";
	tap_check(!vcq_pattern_of(NULL, &n), "Relu is no row (it folds into one)");
}

static void test_fusion(void)
{
	struct mb b;
	char *plain = NULL, *relu = NULL;
	int r1, r2;

	model(&b, "Conv", 0, 0, 0);
	r1 = compile(&b, &plain);
	mb_free(&b);
	model(&b, "Conv", 1, 0, 0);
	r2 = compile(&b, &relu);
	mb_free(&b);
	tap_check(!r1 && !r2, "QDQ Conv, with and without Relu, compiles (%s)",
		  r1 || r2 ? vpux_last_error() : "ok");
	tap_check(count(plain, "dpu conv") == 1 && count(relu, "dpu conv") == 1 &&
		  !count(relu, "shave"),
		  "one DPU convolution each, no SHAVE op for the Relu");
	if (getenv("SHOW_VASM"))
		fprintf(stderr, "%s\n----\n%s", plain ? plain : "", relu ? relu : "");
	tap_check(plain && relu && strstr(plain, "act_min=0 ") &&
		  strstr(relu, "act_min=128 "),
		  "the Relu is the convolution's output clamp (uint8 act_min 0 -> 128, the zero point)");
	free(plain);
	free(relu);

	model(&b, "Conv", 0, 1, 0);
	r1 = compile(&b, &plain);
	mb_free(&b);
	tap_check(!r1 && count(plain, "dpu conv") == 1,
		  "Conv with per-channel weight scales compiles (%s)",
		  r1 ? vpux_last_error() : "ok");
	free(plain);
}

static void test_refusals(void)
{
	struct mb b;
	char *v = NULL;
	int r;

	/* Add's constant operand: per tensor only */
	model(&b, "Add", 0, 1, 0);
	r = compile(&b, &v);
	mb_free(&b);
	tap_check(r == VPUX_E_UNSUPPORTED &&
		  strstr(vpux_last_error(), "Add 'op': input 1 'wf': 2 scales, per-tensor quantization needed"),
		  "Add with a per-channel constant operand refused (%s)",
		  vpux_last_error());
	free(v);
	v = NULL;
	/* the same with one scale compiles */
	model(&b, "Add", 0, 0, 0);
	r = compile(&b, &v);
	mb_free(&b);
	tap_check(!r, "and with one scale compiles (%s)",
		  r ? vpux_last_error() : "ok");
	free(v);
	v = NULL;
	/* a bias of int8 */
	model(&b, "Conv", 0, 0, 1);
	r = compile(&b, &v);
	mb_free(&b);
	tap_check(r == VPUX_E_UNSUPPORTED &&
		  strstr(vpux_last_error(), "Conv 'op': input 2 'bf': int8 is not an accepted type here"),
		  "Conv with an int8 bias refused (%s)", vpux_last_error());
	free(v);
}

int main(void)
{
	test_table();
	test_fusion();
	test_refusals();
	return tap_finish();
}
