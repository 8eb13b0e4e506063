// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-asm's dynamic-shape syntax (Documentation/vpux-asm.rst, "Symbols,
 * dynamic dims and plans"): the records it writes for symbols, $NAME
 * dims, loops, templates and patches; the tokens each infix expression
 * compiles to; the printer vpux-dis uses giving back text that compiles
 * to the same tokens; and every bad construct refused with its own
 * "file:line:column: error:" message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include <drm/vpux_task.h>
#include "lf.h"
#include "lf_fields.h"
#include "vasm.h"
#include "vasm_util.h"
#include "vpux_tap.h"

#define T(op, arg)	DLA_EXPR_TOKEN(DLA_EXPR_##op, (arg))
#define I(op, arg)	DLA_EXPR_TOKEN(DLA_EXPR_##op + DLA_EXPR_IMM, (arg))
#define O(op)		DLA_EXPR_TOKEN(DLA_EXPR_##op, 0)

static char errbuf[4096];

/* assemble @text; errors into errbuf */
static int assemble(const char *text, struct lf_image *img)
{
	return asm_capture(text, img, errbuf, sizeof(errbuf));
}

static const char *head =
	"symbol n axis 1..64\n"
	"symbol k scalar 0..100 width=4\n"
	"input x i8 $nx32\n"
	"output y i8 $nx32\n";

/* the tokens of "len = @expr" in a depth-3 block */
static int compile(const char *expr, uint32_t *tok, uint32_t *n)
{
	struct lf_image img;
	char text[1024];
	int ret;

	snprintf(text, sizeof(text),
		 "%sloop n tile 8 {\nloop 2 tile 1 {\nloop 3 tile 1 {\n"
		 "dma src=x dst=y\nlen = %s\n}\n}\n}\n", head, expr);
	ret = assemble(text, &img);
	if (ret)
		return ret;
	*n = img.patches[0].len;
	memcpy(tok, img.expr + img.patches[0].expr, *n * sizeof(*tok));
	asm_free(&img);
	return 0;
}

static void test_records(void)
{
	struct lf_image img;
	const struct lf_field *f;
	int ret;

	ret = assemble(
		"symbol tokens axis 1..64 width=8\n"
		"symbol s scalar 0..100 width=4\n"
		"input x i8 $tokensx32\n"
		"output y i8 $tokensx16\n"
		"tensor w i8 16x32 region=weights fill=const:1\n"
		"loop tokens tile 16 {\n"
		"\tdpu matmul in=x in2=w out=y requant=1073741824,8\n"
		"\t\tin.offset = off(0) * 32\n"
		"\t\tin_w = len(0)\n"
		"\tdma src=y dst=x len=16 after=0\n"
		"\t\tsrc.offset = off(0) * 16 + s\n"
		"}\n"
		"block {\n"
		"\tdma src=x dst=y len=1\n"
		"}\n", &img);
	if (!tap_check(!ret, "the plan syntax assembles (%s)", errbuf))
		return;
	tap_check(img.n_symbols == 2 && img.symbols[0].kind == VPUX_LF_SYM_AXIS &&
		  img.symbols[0].min == 1 && img.symbols[0].max == 64 &&
		  img.symbols[0].width == 8 &&
		  img.symbols[0].hash == 0xfcebc453u /* FNV-1a("tokens") */ &&
		  img.symbols[1].kind == VPUX_LF_SYM_SCALAR &&
		  img.symbols[1].width == 4 && img.symbols[1].max == 100,
		  "symbols: kind, bounds, width, FNV-1a hash (0x%08x)",
		  img.symbols[0].hash);
	tap_check(img.tensors[0].dyn_dims == 1 && img.tensors[0].dims[0] == 0 &&
		  img.tensors[0].dims[1] == 32 && img.tensors[0].size == 64 * 32 &&
		  img.tensors[0].strides[0] == 32 * 8,
		  "$tokens dim: dyn_dims bit 0, dims[0] = symbol 0, laid out for 64 rows (%llu bytes)",
		  (unsigned long long)img.tensors[0].size);
	tap_check(img.dpu[0].in_w == 64 && img.dpu[0].out_w == 64,
		  "a dpu over a dynamic tensor: in_w/out_w default to the max (%u)",
		  img.dpu[0].in_w);
	tap_check(img.n_blocks == 2 && img.blocks[0].depth == 1 &&
		  img.blocks[0].loop[0].tile == 16 &&
		  img.blocks[0].loop[0].extent_len == 1 &&
		  img.expr[img.blocks[0].loop[0].extent] == T(SYM, 0) &&
		  img.blocks[0].n_templates == 2 && img.blocks[1].depth == 0 &&
		  img.blocks[1].first_template == 2 && img.blocks[1].n_templates == 1,
		  "blocks: a loop over tokens in tiles of 16, a block without a loop");
	tap_check(img.n_templates == 3 && img.templates[0].kind == LF_DPU &&
		  img.templates[0].op == 0 && img.templates[1].kind == LF_DMA &&
		  img.templates[1].op == 0 && img.templates[1].wait_mask == 1 &&
		  img.templates[2].op == 1 && img.templates[1].first_patch == 2 &&
		  img.templates[1].n_patches == 1 && img.n_barriers == 0,
		  "templates: kind, op index, after=0 as wait_mask 1, patch ranges, no barriers");
	f = lf_field_by_id(img.patches[0].field);
	tap_check(f && !strcmp(f->name, "in.offset") &&
		  img.patches[0].len == 2 &&
		  img.expr[img.patches[0].expr] == T(OFF, 0) &&
		  img.expr[img.patches[0].expr + 1] == I(MUL, 32),
		  "patch in.offset = off(0) * 32: OFF 0, MUL+IMM 32");
	asm_free(&img);
}

static const struct {
	const char *text;
	uint32_t n;
	uint32_t tok[8];
} exprs[] = {
	{ "n", 1, { T(SYM, 0) } },
	{ "k + 1", 2, { T(SYM, 1), I(ADD, 1) } },
	{ "k + (1)", 3, { T(SYM, 1), T(CONST, 1), O(ADD) } },
	{ "1 + k", 3, { T(CONST, 1), T(SYM, 1), O(ADD) } },
	{ "n - k - 1", 4, { T(SYM, 0), T(SYM, 1), O(SUB), I(SUB, 1) } },
	{ "n - (k - 1)", 4, { T(SYM, 0), T(SYM, 1), I(SUB, 1), O(SUB) } },
	{ "n + k * 2", 4, { T(SYM, 0), T(SYM, 1), I(MUL, 2), O(ADD) } },
	{ "(n + k) * 2", 4, { T(SYM, 0), T(SYM, 1), O(ADD), I(MUL, 2) } },
	{ "n / 3 % 5", 3, { T(SYM, 0), I(DIV, 3), I(MOD, 5) } },
	{ "min(off(0), 4)", 2, { T(OFF, 0), I(MIN, 4) } },
	{ "max(idx(1), len(2))", 3, { T(IDX, 1), T(LEN, 2), O(MAX) } },
	{ "cdiv(n, (8))", 3, { T(SYM, 0), T(CONST, 8), O(CDIV) } },
	{ "16777216", 2, { T(CONST32, 0), 16777216 } },
	{ "0x00000005", 2, { T(CONST32, 0), 5 } },
	{ "0x10", 1, { T(CONST, 16) } },
	{ "n * 4294967295", 4, { T(SYM, 0), T(CONST32, 0), 0xffffffffu, O(MUL) } },
};

static void test_exprs(void)
{
	uint32_t tok[DLA_PLAN_MAX_EXPR], tok2[DLA_PLAN_MAX_EXPR], n, n2;
	struct vpux_lf_symbol syms[2] = { { .name = "n" }, { .name = "k" } };
	unsigned int i, ok_print = 1;
	char text[512];

	for (i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		int ret = compile(exprs[i].text, tok, &n);

		tap_check(!ret && n == exprs[i].n &&
			  !memcmp(tok, exprs[i].tok, n * sizeof(*tok)),
			  "'%s' compiles to its %u tokens (%s)", exprs[i].text,
			  exprs[i].n, errbuf);
		if (ret)
			continue;
		/* what vpux-dis prints compiles to the same tokens */
		if (vasm_expr_print(tok, n, syms, 2, text, sizeof(text)) ||
		    compile(text, tok2, &n2) || n2 != n ||
		    memcmp(tok, tok2, n * sizeof(*tok))) {
			tap_diag("'%s' printed as '%s' does not compile back",
				 exprs[i].text, text);
			ok_print = 0;
		}
	}
	tap_check(ok_print, "every expression printed by vasm_expr_print compiles back to the same tokens");
	n = 2;
	tok[0] = T(SYM, 0);
	tok[1] = O(ADD);
	tap_check(vasm_expr_print(tok, n, syms, 2, text, sizeof(text)) &&
		  !strcmp(text, "?"),
		  "vasm_expr_print: a stack underflow is refused ('?')");
}

/* each bad construct: its own message at its line and column */
static const struct {
	const char *what;
	const char *text;	/* after head (4 lines) */
	const char *msg;
} bad[] = {
	{ "unknown symbol in an expression",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = foo + 1\n}\n",
	  "t.vasm:7:9: error: unknown symbol 'foo'" },
	{ "unknown symbol in a dim", "tensor z i8 4x$nopex2\n",
	  "t.vasm:5:15: error: unknown symbol 'nope'" },
	{ "scalar symbol in a dim", "tensor z i8 $k\n",
	  "t.vasm:5:13: error: symbol 'k' is a scalar" },
	{ "unknown field", "loop n tile 8 {\ndma src=x dst=y\n  bogus = 1\n}\n",
	  "t.vasm:7:3: error: unknown field 'bogus' for a dma template" },
	{ "field of the wrong op kind",
	  "loop n tile 8 {\ndma src=x dst=y\n  in_w = 1\n}\n",
	  "t.vasm:7:3: error: 'in_w' is a field of dpu ops, not of this dma template" },
	{ "bad expression: missing operand",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = 1 +\n}\n",
	  "t.vasm:7:12: error: expected an operand" },
	{ "bad expression: unclosed parenthesis",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = (1 + n\n}\n",
	  "t.vasm:7:15: error: expected ')'" },
	{ "bad expression: junk after it",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = n $\n}\n",
	  "t.vasm:7:11: error: unexpected '$' after the expression" },
	{ "bad expression: unknown function",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = sqrt(n)\n}\n",
	  "t.vasm:7:9: error: unknown function 'sqrt'" },
	{ "bad expression: constant above 32 bits",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = 4294967296\n}\n",
	  "t.vasm:7:9: error: constant above 2^32 - 1" },
	{ "expression longer than 32 tokens",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n+n\n}\n",
	  "error: expression longer than 32 tokens" },
	{ "expression stack deeper than 8",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = n-(n-(n-(n-(n-(n-(n-(n-(n-n))))))))\n}\n",
	  "t.vasm:7:9: error: expression needs 10 stack slots (at most 8)" },
	{ "loop value in an extent", "loop off(0) tile 2 {\n",
	  "t.vasm:5:6: error: off(): an extent may use symbols and constants only" },
	{ "loop level deeper than the block",
	  "loop n tile 8 {\ndma src=x dst=y\n  len = idx(1)\n}\n",
	  "t.vasm:7:9: error: idx(1): no loop level 1 in a block 1 deep" },
	{ "a weights region past the loadable's 4 GiB",
	  "tensor w i8 65536x65536 region=weights\n",
	  "t.vasm:5:1: error: weights region would end at byte 4294967296, past 4294967295" },
	{ "nesting deeper than 3",
	  "loop n tile 8 {\nloop n tile 8 {\nloop n tile 8 {\nloop n tile 8 {\n",
	  "t.vasm:8:1: error: loops nest at most 3 deep" },
	{ "a body of more than 8 templates",
	  "block {\ndma src=x dst=y\ndma src=x dst=y\ndma src=x dst=y\n"
	  "dma src=x dst=y\ndma src=x dst=y\ndma src=x dst=y\n"
	  "dma src=x dst=y\ndma src=x dst=y\ndma src=x dst=y\n}\n",
	  "t.vasm:14:1: error: a block's body holds at most 8 op templates" },
	{ "more than 16 patches on a template",
	  "block {\ndma src=x dst=y\nlen=1\nlen=1\nlen=1\nlen=1\nlen=1\nlen=1\n"
	  "len=1\nlen=1\nlen=1\nlen=1\nlen=1\nlen=1\nlen=1\nlen=1\nlen=1\n"
	  "len=1\nlen=1\n}\n",
	  "t.vasm:23:1: error: more than 16 patches on one template" },
	{ "after= naming a later template",
	  "block {\ndma src=x dst=y after=0\n}\n",
	  "t.vasm:6:17: error: after=0: template 0 of this block does not come before this one" },
	{ "wait= on a template", "block {\ndma src=x dst=y wait=0\n}\n",
	  "t.vasm:6:1: error: an op template has no wait=/update=" },
	{ "a patch outside a block", "dma src=x dst=y\nlen = 1\n",
	  "t.vasm:6:1: error: a patch 'FIELD = EXPR' follows an op template" },
	{ "an op outside the blocks of a plan",
	  "dma src=x dst=y\nblock {\ndma src=x dst=y\n}\n",
	  "t.vasm:5:1: error: a plan's ops are all inside loops or blocks" },
	{ "templates before an inner loop",
	  "loop n tile 8 {\ndma src=x dst=y\nloop n tile 2 {\n",
	  "t.vasm:7:1: error: a loop inside a loop must come first and alone" },
	{ "a loop inside block { }", "block {\nloop n tile 2 {\n",
	  "t.vasm:6:1: error: a block { } has no loops" },
	{ "an empty block", "block {\n}\n",
	  "t.vasm:6:1: error: empty block: no op template" },
	{ "an unclosed loop", "loop n tile 8 {\ndma src=x dst=y\n",
	  "t.vasm:5:1: error: '{' not closed by the end of the file" },
	{ "a '}' without a loop", "}\n",
	  "t.vasm:5:1: error: '}' without an open loop or block" },
	{ "tile 0", "loop n tile 0 {\n",
	  "t.vasm:5:13: error: '0': expected a number in 1..4294967295" },
	{ "a loop without '{'", "loop n tile 8\n",
	  "t.vasm:5:14: error: expected '{' at the end of the line" },
	{ "symbol bounds max < min", "symbol q axis 5..4\n",
	  "t.vasm:5:15: error: '4': expected a number in 5..4294967295" },
	{ "symbol width 5", "symbol q axis 1..4 width=5\n",
	  "t.vasm:5:20: error: width=5: 4 or 8 bytes" },
	{ "symbol kind unknown", "symbol q size 1..4\n",
	  "t.vasm:5:10: error: expected the bounds MIN..MAX" },
	{ "symbol defined twice", "symbol n axis 1..4\n",
	  "t.vasm:5:8: error: symbol 'n' already defined" },
};

static void test_errors(void)
{
	char text[2048];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lf_image img;
		int ret;

		snprintf(text, sizeof(text), "%s%s", head, bad[i].text);
		ret = assemble(text, &img);
		if (!ret)
			asm_free(&img);
		tap_check(ret && strstr(errbuf, bad[i].msg),
			  "%s: refused, '%s' (%.*s)", bad[i].what, bad[i].msg,
			  (int)strcspn(errbuf, "\n"), errbuf);
	}
}

int main(void)
{
	test_records();
	test_exprs();
	test_errors();
	return tap_finish();
}
