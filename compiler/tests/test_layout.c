// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Layout assignment (compiler/layout.c): float models whose Transpose /
 * Reshape chains between convolutions would need reorders if each op
 * converted its input naively, compiled with the report; the pass's
 * decisions (the "layouts:" line and one "layout NAME:" line per
 * change) and the reorder DMAs the lowering made are checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_build.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

#define C 4
#define H 6
#define W 6

static const int64_t dx[4] = { 1, C, H, W }, dw[4] = { C, C, 1, 1 };
static float w[C * C];

/* a 1x1 Conv named @name from @in to @out */
static void conv(struct mb *b, const char *name, const char *in,
		 const char *out)
{
	char *i[2] = { (char *)in, "w" }, *o[1] = { (char *)out };

	mb_node(b, "Conv", name, i, 2, o, 1);
}

static void transpose(struct mb *b, const char *name, const char *in,
		      const char *out, const int64_t *perm, int rank)
{
	char *i[1] = { (char *)in }, *o[1] = { (char *)out };

	mb_attr_ints(b, mb_node(b, "Transpose", name, i, 1, o, 1), "perm",
		     perm, rank);
}

static void reshape(struct mb *b, const char *name, const char *in,
		    const char *shape, const char *out, const int64_t *dims,
		    int rank)
{
	char *i[2] = { (char *)in, (char *)shape }, *o[1] = { (char *)out };
	int64_t n = rank;

	mb_const(b, shape, 7, 1, &n, dims);
	mb_node(b, "Reshape", name, i, 2, o, 1);
}

static void start(struct mb *b)
{
	unsigned int i;

	for (i = 0; i < C * C; i++)
		w[i] = i % (C + 1) ? 0.0f : 1.0f;	/* identity */
	mb_init(b, 13);
	mb_input(b, "x", 1, 4, dx);
	mb_output(b, "y", 1, 4, dx);
	mb_const(b, "w", 1, 4, dw, w);
}

static char *report(struct mb *b, int *ret)
{
	struct vpuxc_options o = { .report = 1, .no_cpu_fallback = 1 };
	struct vpuxc_result r;
	char *s;

	*ret = mb_compile(b, &o, &r);
	s = r.report ? strdup(r.report) : NULL;
	if (getenv("SHOW_REPORT") && s)
		fputs(s, stderr);
	vpuxc_result_fini(&r);
	return s;
}

/*
 * Conv -> Transpose(0,2,3,1) -> Transpose(0,3,1,2) -> Conv: NHWC data
 * read as [N, H, W, C] is the same bytes row-major, and back; naively
 * the first Transpose reorders the NHWC tensor to row-major and the
 * second Conv reorders back. The pass plans no change there: only the
 * graph input (row-major to NHWC) and the output (back).
 */
static void test_transposes(void)
{
	static const int64_t p1[4] = { 0, 2, 3, 1 }, p2[4] = { 0, 3, 1, 2 };
	struct mb b;
	char *s;
	int ret;

	start(&b);
	conv(&b, "c1", "x", "a");
	transpose(&b, "t1", "a", "b", p1, 4);
	transpose(&b, "t2", "b", "c", p2, 4);
	conv(&b, "c2", "c", "y");
	s = report(&b, &ret);
	mb_free(&b);
	tap_check(!ret && s, "Conv, Transpose pair, Conv compiles (%s)",
		  ret ? vpux_last_error() : "ok");
	tap_check(s && strstr(s, "layouts: 3 NHWC, 2 row-major; planned 2 reorder DMAs, 0 views; made 2 reorder DMAs, 0 unplanned"),
		  "a, c NHWC (and y), x and b row-major; 2 changes planned and made");
	tap_check(s && strstr(s, "layout x: row-major, to NHWC for a consumer (a reorder DMA)") &&
		  strstr(s, "layout y: NHWC, to row-major for a consumer (a reorder DMA)") &&
		  !strstr(s, "layout a:") && !strstr(s, "layout b:") &&
		  !strstr(s, "layout c:"),
		  "the changes: the graph input and output only");
	free(s);
}

/*
 * A channel shuffle between two convolutions: Reshape [1, 2, 2, H, W],
 * Transpose (0, 2, 1, 3, 4), Reshape [1, C, H, W]. The last Reshape
 * must copy; its consumer is a Conv, so the pass has the copy made NHWC
 * and no reorder follows it.
 */
static void test_shuffle(void)
{
	static const int64_t d5[5] = { 1, 2, 2, H, W }, p5[5] = { 0, 2, 1, 3, 4 };
	struct mb b;
	char *s;
	int ret;

	start(&b);
	conv(&b, "c1", "x", "a");
	reshape(&b, "r1", "a", "s1", "b", d5, 5);
	transpose(&b, "t", "b", "c", p5, 5);
	reshape(&b, "r2", "c", "s2", "d", dx, 4);
	conv(&b, "c2", "d", "y");
	s = report(&b, &ret);
	mb_free(&b);
	tap_check(!ret && s, "channel shuffle between convolutions compiles (%s)",
		  ret ? vpux_last_error() : "ok");
	tap_check(s && strstr(s, "layouts: 3 NHWC, 1 row-major; planned 2 reorder DMAs, 0 views; made 2 reorder DMAs, 0 unplanned"),
		  "the shuffled value is NHWC (the pass's choice for the copy); only input and output change");
	tap_check(s && !strstr(s, "layout d:"), "no change after the shuffle");
	free(s);
}

/*
 * Conv -> Transpose (0, 1, 3, 2) -> MatMul: the Transpose must copy, and
 * by cost alone it would copy NHWC (runs of C values), which MatMul then
 * reorders to row-major. Its consumer needs row-major: the pass has the
 * copy made so, and the only change is the graph input's.
 */
static void test_swap_matmul(void)
{
	static const int64_t p4[4] = { 0, 1, 3, 2 }, dm[2] = { H, H };
	static float mm[H * H];
	char *mi[2] = { "b", "m" }, *mo[1] = { "y" };
	struct mb b;
	unsigned int i;
	char *s;
	int ret;

	for (i = 0; i < H * H; i++)
		mm[i] = i % (H + 1) ? 0.0f : 1.0f;
	start(&b);
	mb_const(&b, "m", 1, 2, dm, mm);
	conv(&b, "c1", "x", "a");
	transpose(&b, "t", "a", "b", p4, 4);
	mb_node(&b, "MatMul", "mm", mi, 2, mo, 1);
	s = report(&b, &ret);
	mb_free(&b);
	tap_check(!ret && s, "Conv, Transpose (swap H, W), MatMul compiles (%s)",
		  ret ? vpux_last_error() : "ok");
	tap_check(s && strstr(s, "planned 1 reorder DMAs, 0 views; made 1 reorder DMAs, 0 unplanned") &&
		  !strstr(s, "layout b:"),
		  "the Transpose's copy is row-major, as MatMul needs: no reorder after it");
	free(s);
}

int main(void)
{
	test_transposes();
	test_shuffle();
	test_swap_matmul();
	return tap_finish();
}
