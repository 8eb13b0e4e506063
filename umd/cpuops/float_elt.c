// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Element-wise and axis float operators: relu, add (ONNX multidirectional
 * broadcasting), softmax (one axis, opset 13), concat2..concat8.
 * Documentation/cpuops.rst gives every argument.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpuops.h"
#include "float_args.h"
#include "float_ops.h"

/* relu(X, Y, shape) */
int cpuops_relu(const struct vpux_cpu_call *c)
{
	static const char fn[] = "relu";
	struct fa_shape s;
	float *x, *y;
	uint64_t i, n;
	int ret;

	if ((ret = fa_nargs(c, fn, 3)) ||
	    (ret = fa_shape(c, fn, 2, "shape", 1, &s)))
		return ret;
	n = fa_count(&s);
	if ((ret = fa_fbuf(c, fn, 0, "X", n, &x)) ||
	    (ret = fa_fbuf(c, fn, 1, "Y", n, &y)))
		return ret;
	for (i = 0; i < n; i++)
		y[i] = x[i] > 0 ? x[i] : 0.0f;
	return 0;
}

/*
 * The broadcast of @a and @b (numpy rules, aligned at the last dim) into
 * @y; -1 if they do not broadcast.
 */
static int broadcast(const struct fa_shape *a, const struct fa_shape *b,
		     struct fa_shape *y)
{
	unsigned int r = a->rank > b->rank ? a->rank : b->rank, k;

	y->rank = r;
	for (k = 0; k < r; k++) {
		int64_t da = k + a->rank >= r ? a->d[k + a->rank - r] : 1;
		int64_t db = k + b->rank >= r ? b->d[k + b->rank - r] : 1;

		if (da != db && da != 1 && db != 1)
			return -1;
		y->d[k] = da > db ? da : db;
	}
	return 0;
}

/* strides of @s (rank aligned to @r), 0 along broadcast dims */
static void bstrides(const struct fa_shape *s, const struct fa_shape *y,
		     uint64_t *st)
{
	uint64_t acc = 1;
	int k;

	for (k = (int)y->rank - 1; k >= 0; k--) {
		int ks = k - (int)(y->rank - s->rank);
		int64_t d = ks >= 0 ? s->d[ks] : 1;

		st[k] = d == 1 ? 0 : acc;
		acc *= (uint64_t)d;
	}
}

static void fmt_shape(char *buf, size_t cap, const struct fa_shape *s)
{
	size_t n = 0;
	unsigned int k;

	buf[0] = 0;
	for (k = 0; k < s->rank && n < cap; k++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%lld", k ? "," : "",
				      (long long)s->d[k]);
}

/* add(A, B, Y, a_shape, b_shape, y_shape) */
int cpuops_add(const struct vpux_cpu_call *c)
{
	static const char fn[] = "add";
	struct fa_shape sa, sb, sy, want;
	uint64_t stA[FA_MAX_RANK], stB[FA_MAX_RANK], idx[FA_MAX_RANK] = { 0 };
	uint64_t n, i, oa = 0, ob = 0;
	float *a, *b, *y;
	char s1[96], s2[96];
	int ret, k;

	if ((ret = fa_nargs(c, fn, 6)) ||
	    (ret = fa_shape(c, fn, 3, "a_shape", 1, &sa)) ||
	    (ret = fa_shape(c, fn, 4, "b_shape", 1, &sb)) ||
	    (ret = fa_shape(c, fn, 5, "y_shape", 1, &sy)))
		return ret;
	if (broadcast(&sa, &sb, &want))
		return fa_fail(c, fn, "argument 4 (b_shape): does not broadcast with a_shape");
	if (want.rank != sy.rank ||
	    memcmp(want.d, sy.d, sy.rank * sizeof(sy.d[0]))) {
		fmt_shape(s1, sizeof(s1), &sy);
		fmt_shape(s2, sizeof(s2), &want);
		return fa_fail(c, fn, "argument 5 (y_shape): '%s', the broadcast is '%s'",
			       s1, s2);
	}
	n = fa_count(&sy);
	if ((ret = fa_fbuf(c, fn, 0, "A", fa_count(&sa), &a)) ||
	    (ret = fa_fbuf(c, fn, 1, "B", fa_count(&sb), &b)) ||
	    (ret = fa_fbuf(c, fn, 2, "Y", n, &y)))
		return ret;
	bstrides(&sa, &sy, stA);
	bstrides(&sb, &sy, stB);
	for (i = 0; i < n; i++) {
		y[i] = a[oa] + b[ob];
		/* next index, odometer style */
		for (k = (int)sy.rank - 1; k >= 0; k--) {
			idx[k]++;
			oa += stA[k];
			ob += stB[k];
			if (idx[k] < (uint64_t)sy.d[k])
				break;
			oa -= stA[k] * idx[k];
			ob -= stB[k] * idx[k];
			idx[k] = 0;
		}
	}
	return 0;
}

/* outer, axis length and inner sizes of @s around @axis */
static void split(const struct fa_shape *s, unsigned int axis, uint64_t *outer,
		  uint64_t *len, uint64_t *inner)
{
	unsigned int k;

	*outer = *inner = 1;
	for (k = 0; k < axis; k++)
		*outer *= (uint64_t)s->d[k];
	*len = (uint64_t)s->d[axis];
	for (k = axis + 1; k < s->rank; k++)
		*inner *= (uint64_t)s->d[k];
}

/* softmax(X, Y, shape, axis) */
int cpuops_softmax(const struct vpux_cpu_call *c)
{
	static const char fn[] = "softmax";
	struct fa_shape s;
	uint64_t outer, len, inner, o, i, j;
	int64_t axis;
	float *x, *y;
	int ret;

	if ((ret = fa_nargs(c, fn, 4)) ||
	    (ret = fa_shape(c, fn, 2, "shape", 0, &s)) ||
	    (ret = fa_int(c, fn, 3, "axis", -(int64_t)s.rank,
			  (int64_t)s.rank - 1, &axis)))
		return ret;
	if (!s.rank)
		return fa_fail(c, fn, "argument 2 (shape): a scalar has no axis");
	if (axis < 0)
		axis += s.rank;
	if ((ret = fa_fbuf(c, fn, 0, "X", fa_count(&s), &x)) ||
	    (ret = fa_fbuf(c, fn, 1, "Y", fa_count(&s), &y)))
		return ret;
	split(&s, (unsigned int)axis, &outer, &len, &inner);
	for (o = 0; o < outer; o++) {
		for (i = 0; i < inner; i++) {
			const float *xp = x + o * len * inner + i;
			float *yp = y + o * len * inner + i;
			float mx = -INFINITY, sum = 0;

			for (j = 0; j < len; j++)
				if (xp[j * inner] > mx)
					mx = xp[j * inner];
			for (j = 0; j < len; j++) {
				yp[j * inner] = expf(xp[j * inner] - mx);
				sum += yp[j * inner];
			}
			for (j = 0; j < len; j++)
				yp[j * inner] /= sum;
		}
	}
	return 0;
}

/*
 * concatN(X0, .., XN-1, Y, y_shape, axis, lens): Xk has y_shape with
 * lens[k] along @axis; the lens add up to y_shape[axis].
 */
static int concat_n(const struct vpux_cpu_call *c, unsigned int nin)
{
	char fn[16];
	struct fa_shape s;
	int64_t axis, lens[8];
	uint64_t outer, len, inner, o, off, total = 0;
	unsigned int k, nl;
	float *x[8], *y;
	int ret;

	snprintf(fn, sizeof(fn), "concat%u", nin);
	if ((ret = fa_nargs(c, fn, nin + 4)) ||
	    (ret = fa_shape(c, fn, nin + 1, "y_shape", 0, &s)) ||
	    (ret = fa_int(c, fn, nin + 2, "axis", -(int64_t)s.rank,
			  (int64_t)s.rank - 1, &axis)) ||
	    (ret = fa_ints(c, fn, nin + 3, "lens", nin, nin, 0,
			   (int64_t)FA_MAX_ELEMS, lens, &nl)))
		return ret;
	if (!s.rank)
		return fa_fail(c, fn, "argument %u (y_shape): a scalar has no axis",
			       nin + 1);
	if (axis < 0)
		axis += s.rank;
	for (k = 0; k < nin; k++)
		total += (uint64_t)lens[k];
	split(&s, (unsigned int)axis, &outer, &len, &inner);
	if (total != len)
		return fa_fail(c, fn, "argument %u (lens): they add up to %llu, y_shape has %llu along axis %lld",
			       nin + 3, (unsigned long long)total,
			       (unsigned long long)len, (long long)axis);
	for (k = 0; k < nin; k++) {
		char what[8];

		snprintf(what, sizeof(what), "X%u", k);
		ret = fa_fbuf(c, fn, k, what,
			      outer * (uint64_t)lens[k] * inner, &x[k]);
		if (ret)
			return ret;
	}
	if ((ret = fa_fbuf(c, fn, nin, "Y", fa_count(&s), &y)))
		return ret;
	for (o = 0; o < outer; o++) {
		off = 0;
		for (k = 0; k < nin; k++) {
			uint64_t blk = (uint64_t)lens[k] * inner;

			memcpy(y + o * len * inner + off, x[k] + o * blk,
			       blk * sizeof(float));
			off += blk;
		}
	}
	return 0;
}

#define CONCAT(n) \
int cpuops_concat##n(const struct vpux_cpu_call *c) \
{ \
	return concat_n(c, n); \
}
CONCAT(2)
CONCAT(3)
CONCAT(4)
CONCAT(5)
CONCAT(6)
CONCAT(7)
CONCAT(8)
