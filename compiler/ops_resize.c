// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "resize": Resize (opset 10 on) and Upsample (opsets 7 and 9)
 * on FP16 tensors. Scales or sizes must be constants; the modes are
 * nearest and linear (bilinear on the two innermost dims), the
 * coordinate and nearest modes those of the SHAVE RESIZE kernel
 * (Documentation/compute-ops.rst, "RESIZE"). A nearest upsampling of an
 * NHWC tensor by integer factors whose index map is "o / factor" (the
 * exporters' nearest x2) is a few strided DMAs instead of the kernel.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"

enum { RS_NEAREST, RS_LINEAR };

static const char *const coord_names[] = {
	"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
	"tf_half_pixel_for_nn",
};
static const char *const nearest_names[] = {
	"round_prefer_floor", "round_prefer_ceil", "floor", "ceil",
};
enum { CO_HALF, CO_PYTORCH, CO_ALIGN, CO_ASYM, CO_TF_NN };
enum { NE_RPF, NE_RPC, NE_FLOOR, NE_CEIL };

#define RS_MAX_RANK 6

/* a Resize/Upsample node's parameters, in the kernel's terms */
struct rsz {
	int rank;
	int mode, coord, nearest;
	float scale[RS_MAX_RANK];
	int64_t in[RS_MAX_RANK], out[RS_MAX_RANK];
};

static int name_index(const char *const *names, unsigned int n,
		      const char *s)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* a scales or sizes input: absent or empty is NULL */
static const struct vc_value *opt_in(const struct vpuxc_model *m,
				     const struct vc_node *n, unsigned int i)
{
	const struct vc_value *v = vc_in(m, n, i);

	if (!v || (v->cst && !vpuxc_tensor_count(v->cst)) ||
	    (!v->cst && v->rank == 1 && v->dims[0] == 0))
		return NULL;
	return v;
}

/*
 * The parameters of node @n (its input's shape known): NULL, or why the
 * NPU cannot run it in @buf.
 */
static const char *rsz_get(const struct vpuxc_model *m,
			   const struct vc_node *n, struct rsz *r, char *buf,
			   size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0), *sv = NULL, *zv = NULL;
	bool up = !strcmp(n->op, "Upsample"), old = up || m->opset < 11;
	const char *mode = vc_attr_s(n, "mode", "nearest");
	int64_t axes[RS_MAX_RANK];
	int nax = 0, i, j;
	size_t cnt;
	bool down = false, upw = false;

	memset(r, 0, sizeof(*r));
	if (!x || !vc_out(m, n, 0) || x->rank < 1 || !vc_numel(x)) {
		snprintf(buf, len, "input or output missing, or no static input shape");
		return buf;
	}
	if (x->dtype != VPUXC_FLOAT && x->dtype != 10) {
		snprintf(buf, len, "input '%s' is %s, not float", x->name,
			 vpuxc_dtype_name(x->dtype));
		return buf;
	}
	if (x->rank > RS_MAX_RANK) {
		snprintf(buf, len, "rank %d above %d", x->rank, RS_MAX_RANK);
		return buf;
	}
	r->rank = x->rank;
	memcpy(r->in, x->dims, sizeof(int64_t) * (size_t)x->rank);
	if (!strcmp(mode, "nearest")) {
		r->mode = RS_NEAREST;
	} else if (!strcmp(mode, "linear") || !strcmp(mode, "bilinear")) {
		r->mode = RS_LINEAR;
	} else if (!strcmp(mode, "cubic")) {
		snprintf(buf, len, "mode 'cubic' is not supported (nearest or linear)");
		return buf;
	} else {
		snprintf(buf, len, "unknown mode '%s' (nearest or linear)", mode);
		return buf;
	}
	if (old) {
		r->coord = CO_ASYM;	/* before opset 11: asymmetric */
	} else {
		const char *ct = vc_attr_s(n, "coordinate_transformation_mode",
					   "half_pixel");
		const char *nm = vc_attr_s(n, "nearest_mode",
					   "round_prefer_floor");
		const char *ka = vc_attr_s(n, "keep_aspect_ratio_policy",
					   "stretch");

		r->coord = name_index(coord_names, 5, ct);
		if (r->coord < 0) {
			snprintf(buf, len, "coordinate_transformation_mode '%s' is not supported (half_pixel, pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn)",
				 ct);
			return buf;
		}
		r->nearest = name_index(nearest_names, 4, nm);
		if (r->nearest < 0) {
			snprintf(buf, len, "unknown nearest_mode '%s'", nm);
			return buf;
		}
		if (vc_attr_i(n, "antialias", 0)) {
			snprintf(buf, len, "antialias is not supported");
			return buf;
		}
		if (vc_attr_i(n, "exclude_outside", 0)) {
			snprintf(buf, len, "exclude_outside is not supported");
			return buf;
		}
		if (strcmp(ka, "stretch")) {
			snprintf(buf, len, "keep_aspect_ratio_policy '%s' is not supported (stretch)",
				 ka);
			return buf;
		}
		nax = vc_attr_ints(n, "axes", axes, RS_MAX_RANK);
		if (nax < 0) {
			snprintf(buf, len, "bad axes attribute");
			return buf;
		}
		for (i = 0; i < nax; i++) {
			if (axes[i] < 0)
				axes[i] += x->rank;
			if (axes[i] < 0 || axes[i] >= x->rank) {
				snprintf(buf, len, "axis %lld out of range", (long long)axes[i]);
				return buf;
			}
			for (j = 0; j < i; j++)
				if (axes[j] == axes[i]) {
					snprintf(buf, len, "axis %lld repeated", (long long)axes[i]);
					return buf;
				}
		}
	}
	if (!nax)
		for (i = 0; i < x->rank; i++)
			axes[nax++] = i;
	for (i = 0; i < x->rank; i++) {
		r->scale[i] = 1.0f;
		r->out[i] = r->in[i];
	}
	if (up && m->opset < 9) {
		const struct vc_attr *a = vc_attr(n, "scales");

		if (!a || a->type != VC_ATTR_FLOATS ||
		    a->n_floats != (size_t)x->rank) {
			snprintf(buf, len, "attribute scales needs %d floats", x->rank);
			return buf;
		}
		for (i = 0; i < x->rank; i++)
			r->scale[i] = a->floats[i];
	} else {
		sv = opt_in(m, n, old ? 1 : 2);
		zv = old ? NULL : opt_in(m, n, 3);
		if (!!sv == !!zv) {
			snprintf(buf, len, "needs exactly one of scales and sizes");
			return buf;
		}
		if (!(sv ? sv : zv)->cst) {
			snprintf(buf, len, "%s '%s' is not a constant (computed at run time)",
				 sv ? "scales" : "sizes", (sv ? sv : zv)->name);
			return buf;
		}
		cnt = vpuxc_tensor_count((sv ? sv : zv)->cst);
		if (cnt != (size_t)nax) {
			snprintf(buf, len, "%s has %zu values for %d axes",
				 sv ? "scales" : "sizes", cnt, nax);
			return buf;
		}
		for (i = 0; i < nax; i++) {
			if (sv) {
				r->scale[axes[i]] = (float)vc_cst_f(sv->cst, (size_t)i);
			} else {
				int64_t s = vc_cst_i(zv->cst, (size_t)i);

				if (s < 1 || s > 65535) {
					snprintf(buf, len, "output size %lld (1..65535)", (long long)s);
					return buf;
				}
				r->out[axes[i]] = s;
				r->scale[axes[i]] = (float)s / (float)r->in[axes[i]];
			}
		}
	}
	for (i = 0; i < x->rank; i++) {
		float s = r->scale[i];

		if (!isfinite(s) || !(s > 0)) {
			snprintf(buf, len, "scale %g of dim %d (finite, > 0)", (double)s, i);
			return buf;
		}
		if (!zv) {
			/* ONNX: floor(in * scale), in FP32 as onnxruntime */
			float o = floorf((float)r->in[i] * s);

			if (!(o >= 1) || o > 65535) {
				snprintf(buf, len, "output dim %d of %g (1..65535)", i, (double)o);
				return buf;
			}
			r->out[i] = (int64_t)o;
		}
		if (r->mode == RS_LINEAR && i + 2 < x->rank &&
		    (s != 1.0f || r->out[i] != r->in[i])) {
			snprintf(buf, len, "linear resize of dim %d: only the two innermost dims are interpolated",
				 i);
			return buf;
		}
		down |= s < 1.0f;
		upw |= s > 1.0f;
	}
	if (r->mode == RS_LINEAR) {
		r->nearest = 0;
		if (x->rank < 2) {
			snprintf(buf, len, "linear resize of a 1-D tensor");
			return buf;
		}
	} else if (old) {
		/* onnxruntime's "simple": floor upsampling, ceil down */
		if (down && upw) {
			snprintf(buf, len, "nearest %s mixing up- and downsampling",
				 n->op);
			return buf;
		}
		r->nearest = down ? NE_CEIL : NE_FLOOR;
	}
	return NULL;
}

static int rsz_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *y = vc_out(m, n, 0), *x = vc_in(m, n, 0);
	struct rsz r;
	char buf[160];

	if (!y || !x || rsz_get(m, n, &r, buf, sizeof(buf)))
		return 0;
	y->dtype = x->dtype;
	y->rank = r.rank;
	memcpy(y->dims, r.out, sizeof(int64_t) * (size_t)r.rank);
	return 0;
}

static const char *rsz_npu(const struct vpuxc_model *m,
			   const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *y = vc_out(m, n, 0);
	struct rsz r;
	const char *why = rsz_get(m, n, &r, buf, len);
	int i;

	if (why)
		return why;
	if (y->rank != r.rank) {
		snprintf(buf, len, "output '%s' has no static shape", y->name);
		return buf;
	}
	for (i = 0; i < r.rank; i++)
		if (y->dims[i] != r.out[i]) {
			snprintf(buf, len, "output '%s' dim %d is %lld, the scales give %lld",
				 y->name, i, (long long)y->dims[i],
				 (long long)r.out[i]);
			return buf;
		}
	return NULL;
}

/* the input index the kernel's nearest mode reads for output index @o */
static int64_t nearest_src(const struct rsz *r, int d, int64_t o)
{
	float xo = (float)o, s = r->scale[d], x, f, rr;
	int64_t lo = r->in[d], fi;

	switch (r->coord) {
	case CO_HALF:
	case CO_PYTORCH:
		if (r->out[d] == 1 && r->coord == CO_PYTORCH)
			x = 0;
		else
			x = (xo + 0.5f) / s - 0.5f;
		break;
	case CO_ALIGN:
		x = r->out[d] == 1 ? 0 :
		    xo * (float)(lo - 1) / (float)(r->out[d] - 1);
		break;
	case CO_ASYM:
		x = xo / s;
		break;
	default:
		x = (xo + 0.5f) / s;
		break;
	}
	f = floorf(x);
	rr = x - f;
	fi = (int64_t)f;
	if (r->nearest == NE_RPF)
		fi += rr > 0.5f;
	else if (r->nearest == NE_RPC)
		fi += !(rr < 0.5f);
	else if (r->nearest == NE_CEIL)
		fi += rr > 0;
	return fi < 0 ? 0 : fi >= lo ? lo - 1 : fi;
}

/*
 * A 4-D nearest resize that repeats each element by integer factors:
 * out = in * f along every dim and the kernel would read index o / f.
 */
static bool replicates(const struct rsz *r)
{
	int d;
	int64_t o;

	if (r->rank != 4 || r->mode != RS_NEAREST)
		return false;
	for (d = 0; d < 4; d++) {
		int64_t f = r->out[d] / r->in[d];

		if (r->out[d] % r->in[d] || (d < 2 && f != 1))
			return false;
		for (o = 0; o < r->out[d]; o++)
			if (nearest_src(r, d, o) != o / f)
				return false;
	}
	return true;
}

static int dma(struct lctx *c, int node, int src, uint64_t soff, int dst,
	       uint64_t doff, int64_t len, const int64_t *cnt,
	       const int64_t *ss, const int64_t *ds)
{
	struct qprog *p = c->p;

	return vc_dma3(c, node, src, soff, p->t[src].size - soff, dst, doff,
		       p->t[dst].size - doff, (uint64_t)len, cnt, ss, ds);
}

/*
 * Nearest upsampling of NHWC [N][H][W][C] by (fh, fw): fw DMAs put each
 * pixel at its fw places of the even output rows (one row of C elements
 * per pixel), then fh - 1 DMAs copy those rows to the other fh - 1 rows
 * of each group (rows of Wo * C elements).
 */
static int replicate_lower(struct lctx *c, int node, const struct rsz *r,
			   const struct vc_value *xv, const struct vc_value *yv)
{
	int64_t N = r->in[0], C = r->in[1], H = r->in[2], W = r->in[3];
	int64_t fh = r->out[2] / H, fw = r->out[3] / W, Wo = r->out[3];
	int64_t px = C * 2, row = Wo * px, cnt[3], ss[3], ds[3], k;
	int x = vc_f16_nhwc(c, node, xv), y, ret;

	if (x < 0)
		return x;
	y = vc_f16_out(c, yv, ORDER_NHWC);
	if (y < 0)
		return y;
	if (fh == 1 && fw == 1)
		return vc_copy(c, node, x, y);
	for (k = 0; k < fw; k++) {
		if (fw == 1) {
			cnt[0] = N * H;
			ss[0] = W * px;
			ds[0] = fh * row;
			cnt[1] = cnt[2] = 1;
			ss[1] = ss[2] = ds[1] = ds[2] = 0;
			ret = dma(c, node, x, 0, y, 0, W * px, cnt, ss, ds);
		} else {
			cnt[0] = W;
			cnt[1] = N * H;
			cnt[2] = 1;
			ss[0] = px;
			ss[1] = W * px;
			ds[0] = fw * px;
			ds[1] = fh * row;
			ss[2] = ds[2] = 0;
			ret = dma(c, node, x, 0, y, (uint64_t)(k * px), px, cnt,
				  ss, ds);
		}
		if (ret < 0)
			return ret;
	}
	for (k = 1; k < fh; k++) {
		cnt[0] = N * H;
		cnt[1] = cnt[2] = 1;
		ss[0] = ds[0] = fh * row;
		ss[1] = ss[2] = ds[1] = ds[2] = 0;
		ret = dma(c, node, y, 0, y, (uint64_t)(k * row), row, cnt, ss,
			  ds);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int rsz_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	char args[400], why[160];
	size_t l;
	struct rsz r;
	int x, y, ts[2], i, ret;

	if (rsz_get(c->m, n, &r, why, sizeof(why))) {
		vc_unsupported(p, n, "%s", why);
		return VC_REPORTED;
	}
	if (replicates(&r))
		return replicate_lower(c, node, &r, xv, yv);
	x = r.rank == 4 ? vc_f16_nhwc(c, node, xv) : vc_f16(c, node, xv);
	if (x < 0)
		return x;
	x = vc_f16_shave_in(c, node, x);
	if (x < 0)
		return x;
	y = vc_f16_out(c, yv, p->t[x].order);
	if (y < 0)
		return y;
	p->t[y].order = p->t[x].order;
	l = (size_t)snprintf(args, sizeof(args), "resize in=t%d out=t%d mode=%s coord=%s",
			     x, y, r.mode == RS_LINEAR ? "linear" : "nearest",
			     coord_names[r.coord]);
	if (r.mode == RS_NEAREST)
		l += (size_t)snprintf(args + l, sizeof(args) - l, " nearest=%s",
				      nearest_names[r.nearest]);
	for (i = 0; i < r.rank; i++)
		l += (size_t)snprintf(args + l, sizeof(args) - l, "%s%a",
				      i ? "," : " scales=", (double)r.scale[i]);
	ts[0] = x;
	ts[1] = y;
	ret = vc_shave_f(c, node, ts, 2, "%s", args);
	return ret < 0 ? ret : 0;
}

const struct vc_op vc_ops_resize[] = {
	{ "", "Resize", 10, 0, rsz_infer, rsz_npu, rsz_lower },
	{ "", "Upsample", 7, 9, rsz_infer, rsz_npu, rsz_lower },
	{ 0 }
};
