// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * resize: ONNX Resize (opset 11+) with mode nearest or linear, the
 * coordinate transformations half_pixel, pytorch_half_pixel,
 * align_corners, asymmetric and tf_half_pixel_for_nn, and the four
 * nearest_mode roundings. Coordinates are computed in float, as
 * onnxruntime does. Cubic, tf_crop_and_resize and exclude_outside are
 * refused by the compiler. Documentation/cpuops.rst gives the arguments.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpuops.h"
#include "float_args.h"
#include "float_ops.h"

enum { M_NEAREST, M_LINEAR };
enum { CT_HALF_PIXEL, CT_PYTORCH, CT_ALIGN, CT_ASYM, CT_TF_NN };
enum { NM_ROUND_FLOOR, NM_ROUND_CEIL, NM_FLOOR, NM_CEIL };

/* the input coordinate of output coordinate @o along one dim */
static float in_coord(int ct, int64_t o, float scale, int64_t in, int64_t out)
{
	float x = (float)o;

	switch (ct) {
	case CT_HALF_PIXEL:
		return (x + 0.5f) / scale - 0.5f;
	case CT_PYTORCH:
		return out > 1 ? (x + 0.5f) / scale - 0.5f : 0.0f;
	case CT_ALIGN:
		return out == 1 ? 0.0f : x * (float)(in - 1) / (float)(out - 1);
	case CT_TF_NN:
		return (x + 0.5f) / scale;
	default:
		return x / scale;
	}
}

static int64_t nearest(int nm, float x, int64_t in)
{
	int64_t i;

	switch (nm) {
	case NM_ROUND_FLOOR:
		i = x == floorf(x) + 0.5f ? (int64_t)floorf(x) :
		    (int64_t)roundf(x);
		break;
	case NM_ROUND_CEIL:
		i = x == floorf(x) + 0.5f ? (int64_t)ceilf(x) :
		    (int64_t)roundf(x);
		break;
	case NM_FLOOR:
		i = (int64_t)floorf(x);
		break;
	default:
		i = (int64_t)ceilf(x);
		break;
	}
	return i < 0 ? 0 : i >= in ? in - 1 : i;
}

/* resize(X, Y, x_shape, y_shape, scales, mode, coordinate_mode, nearest_mode) */
int cpuops_resize(const struct vpux_cpu_call *c)
{
	static const char fn[] = "resize";
	static const char *const modes[] = { "nearest", "linear", NULL };
	static const char *const cts[] = { "half_pixel", "pytorch_half_pixel",
		"align_corners", "asymmetric", "tf_half_pixel_for_nn", NULL };
	static const char *const nms[] = { "round_prefer_floor",
		"round_prefer_ceil", "floor", "ceil", NULL };
	struct fa_shape xs, ys;
	double sc[FA_MAX_RANK];
	unsigned int ns, k, r, nlin = 0, lin[FA_MAX_RANK];
	int mode, ct, nm, ret;
	uint64_t n, i, xst[FA_MAX_RANK];
	int64_t *lo[FA_MAX_RANK] = { NULL }, *hi[FA_MAX_RANK] = { NULL };
	float *w[FA_MAX_RANK] = { NULL };
	int64_t idx[FA_MAX_RANK] = { 0 };
	float *x, *y;

	if ((ret = fa_nargs(c, fn, 8)) ||
	    (ret = fa_shape(c, fn, 2, "x_shape", 0, &xs)) ||
	    (ret = fa_shape(c, fn, 3, "y_shape", 0, &ys)) ||
	    (ret = fa_floats(c, fn, 4, "scales", 0, FA_MAX_RANK, sc, &ns)) ||
	    (ret = fa_choice(c, fn, 5, "mode", modes, &mode)) ||
	    (ret = fa_choice(c, fn, 6, "coordinate_mode", cts, &ct)) ||
	    (ret = fa_choice(c, fn, 7, "nearest_mode", nms, &nm)))
		return ret;
	r = xs.rank;
	if (ys.rank != r)
		return fa_fail(c, fn, "argument 3 (y_shape): rank %u, x_shape's is %u",
			       ys.rank, r);
	if (ns != r)
		return fa_fail(c, fn, "argument 4 (scales): %u values, one per dim (%u) expected",
			       ns, r);
	for (k = 0; k < r; k++)
		if (!(sc[k] > 0))
			return fa_fail(c, fn, "argument 4 (scales): value %u is not positive",
				       k);
	if (mode == M_LINEAR && ct == CT_TF_NN)
		return fa_fail(c, fn, "argument 6 (coordinate_mode): tf_half_pixel_for_nn is for mode nearest");
	n = fa_count(&ys);
	if ((ret = fa_fbuf(c, fn, 0, "X", fa_count(&xs), &x)) ||
	    (ret = fa_fbuf(c, fn, 1, "Y", n, &y)))
		return ret;
	/* per dim and output index: the source index (or two and a weight) */
	ret = 0;
	for (k = 0; k < r && !ret; k++) {
		int64_t o;

		lo[k] = malloc(sizeof(int64_t) * (size_t)ys.d[k]);
		hi[k] = malloc(sizeof(int64_t) * (size_t)ys.d[k]);
		w[k] = malloc(sizeof(float) * (size_t)ys.d[k]);
		if (!lo[k] || !hi[k] || !w[k]) {
			ret = -ENOMEM;
			break;
		}
		for (o = 0; o < ys.d[k]; o++) {
			float xc = in_coord(ct, o, (float)sc[k], xs.d[k], ys.d[k]);

			if (mode == M_NEAREST) {
				lo[k][o] = hi[k][o] = nearest(nm, xc, xs.d[k]);
				w[k][o] = 0;
				continue;
			}
			if (xc < 0)
				xc = 0;
			if (xc > (float)(xs.d[k] - 1))
				xc = (float)(xs.d[k] - 1);
			lo[k][o] = (int64_t)xc;
			hi[k][o] = lo[k][o] + 1 < xs.d[k] ? lo[k][o] + 1 : lo[k][o];
			w[k][o] = xc - (float)lo[k][o];
		}
		if (mode == M_LINEAR && xs.d[k] != ys.d[k])
			lin[nlin++] = k;
		else if (mode == M_LINEAR)
			for (o = 0; o < ys.d[k]; o++)
				if (w[k][o] != 0 || lo[k][o] != o)
					lin[nlin++] = k, o = ys.d[k];
	}
	if (ret) {
		fa_fail(c, fn, "out of memory");
		goto out;
	}
	xst[r - 1] = 1;
	for (k = r - 1; k > 0; k--)
		xst[k - 1] = xst[k] * (uint64_t)xs.d[k];
	for (i = 0; i < n; i++) {
		uint64_t base = 0;
		unsigned int corner;
		float acc = 0;

		for (k = 0; k < r; k++)
			base += xst[k] * (uint64_t)lo[k][idx[k]];
		/* 2^nlin corners of the linear dims, weights multiplied */
		for (corner = 0; corner < (1u << nlin); corner++) {
			uint64_t off = base;
			float wt = 1;
			unsigned int l;

			for (l = 0; l < nlin; l++) {
				unsigned int d = lin[l];
				float f = w[d][idx[d]];

				if (corner & (1u << l)) {
					off += xst[d] * (uint64_t)(hi[d][idx[d]] -
								   lo[d][idx[d]]);
					wt *= f;
				} else {
					wt *= 1 - f;
				}
			}
			acc += nlin ? wt * x[off] : x[off];
		}
		y[i] = acc;
		for (k = r; k-- > 0;) {
			if (++idx[k] < ys.d[k])
				break;
			idx[k] = 0;
		}
	}
out:
	for (k = 0; k < r; k++) {
		free(lo[k]);
		free(hi[k]);
		free(w[k]);
	}
	return ret;
}
