// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "layout / data movement": Reshape, Flatten, Squeeze,
 * Unsqueeze, Transpose, Identity, Dropout, Cast (between float types),
 * Concat, Split, Slice, Gather (constant indices), Expand, Pad; Shape
 * and Size are refused (graph passes fold them into constants).
 *
 * Everything but Pad is a *strided view* (struct sv): a base device
 * tensor, a byte offset into it and per logical dim a byte stride.
 * Reshape splits and merges dims where the strides allow (as numpy's
 * reshape without a copy), Transpose permutes them, Slice/Split/Gather
 * narrow them, Expand gives broadcast dims stride 0. A chain of such
 * nodes is folded into one view. The result becomes a device tensor at
 * the end (finish()): a view (vc_view_at(), no copy) when the strides
 * are those of a compact row-major tensor, or of a compact NHWC one for
 * 4-D; else one copy, by strided DMA (rows of the longest contiguous
 * run, at most 3 loop dims per DMA, several DMAs beyond) or by the
 * SHAVE PERMUTE kernel (a compact source read in any dims order) when
 * the cycle estimate says it is cheaper; from a constant, on the host
 * into a new constant. Concat copies each input into its block of the
 * output by DMA. Pad is the SHAVE PAD kernel; Gather with indices that
 * are not a strided range copies runs of indices by DMA or runs the
 * SHAVE GATHER kernel.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower_int.h"

#define R QT_MAX_RANK

/* DMAs one copy may take before it is refused */
#define MAX_DMAS 4096
/* Gather by DMA up to this many runs of consecutive indices */
#define GATHER_DMA_RUNS 16

/* a strided view of device tensor @t; strides in bytes, >= 0 */
struct sv {
	int t;
	uint64_t off;
	unsigned int rank, e;
	int64_t dims[R];
	int64_t st[R];
};

/* ---- strided views ---- */

static uint64_t rm_code(unsigned int rank)
{
	return vpux_order_default(rank ? rank : 1).code;
}

/* byte strides of a compact tensor of @dims in dims order @order */
static void order_strides(unsigned int rank, const int64_t *dims,
			  uint64_t order, unsigned int e, int64_t *st)
{
	int64_t s = e;
	unsigned int m;

	for (m = 0; m < rank; m++) {
		unsigned int d = (unsigned int)((order >> (4 * m)) & 0xf) - 1;

		if (d >= rank)
			continue;
		st[d] = s;
		s *= dims[d];
	}
}

static void sv_of(const struct qprog *p, int t, struct sv *s)
{
	const struct qt *q = &p->t[t];

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->rank = q->rank;
	s->e = vc_dt_bytes(q->dt);
	memcpy(s->dims, q->dims, sizeof(int64_t) * q->rank);
	order_strides(q->rank, q->dims, q->order, s->e, s->st);
}

static uint64_t sv_numel(const struct sv *s)
{
	uint64_t n = 1;
	unsigned int i;

	for (i = 0; i < s->rank; i++)
		n *= (uint64_t)s->dims[i];
	return n;
}

/* are @s's strides those of a compact tensor in @order (unit dims aside)? */
static bool sv_is(const struct sv *s, uint64_t order)
{
	int64_t st[R];
	unsigned int i;

	order_strides(s->rank, s->dims, order, s->e, st);
	for (i = 0; i < s->rank; i++)
		if (s->dims[i] > 1 && st[i] != s->st[i])
			return false;
	return true;
}

/*
 * Is @s compact in some dims order? Its code into @order: unit dims
 * outermost, then the others by decreasing stride.
 */
static bool sv_compact(const struct sv *s, uint64_t *order)
{
	unsigned int idx[R], n = 0, i, k;
	uint64_t code = 0;

	for (i = 0; i < s->rank; i++)
		if (s->dims[i] == 1)
			code = code << 4 | (i + 1);
	for (i = 0; i < s->rank; i++) {
		if (s->dims[i] == 1)
			continue;
		for (k = n; k > 0 && s->st[idx[k - 1]] < s->st[i]; k--)
			idx[k] = idx[k - 1];
		idx[k] = i;
		n++;
	}
	for (k = 0; k < n; k++) {
		int64_t want = k + 1 < n ?
			       s->st[idx[k + 1]] * s->dims[idx[k + 1]] :
			       (int64_t)s->e;

		if (s->st[idx[k]] != want)
			return false;
		code = code << 4 | (idx[k] + 1);
	}
	*order = code;
	return true;
}

static void sv_narrow(struct sv *s, unsigned int axis, int64_t start,
		      int64_t len, int64_t step)
{
	s->off += (uint64_t)(start * s->st[axis]);
	s->dims[axis] = len;
	s->st[axis] *= step;
}

static void sv_permute(struct sv *s, const int64_t *perm)
{
	int64_t d[R], st[R];
	unsigned int i;

	for (i = 0; i < s->rank; i++) {
		d[i] = s->dims[perm[i]];
		st[i] = s->st[perm[i]];
	}
	memcpy(s->dims, d, sizeof(d));
	memcpy(s->st, st, sizeof(st));
}

/*
 * The groups of a reshape of @od (rank @on) into @nd (rank @nn): runs
 * of dims with equal products. Unit dims of @od are left out (its
 * non-unit dims in @oi). Returns the group count, -1 if the element
 * counts differ; group g covers old non-unit dims og[g]..og[g+1]-1 and
 * new dims ng[g]..ng[g+1]-1.
 */
static int groups(const int64_t *od, unsigned int on, const int64_t *nd,
		  unsigned int nn, unsigned int *oi, unsigned int *og,
		  unsigned int *ng)
{
	unsigned int k = 0, i, o = 0, nw = 0, g = 0;

	for (i = 0; i < on; i++)
		if (od[i] != 1)
			oi[k++] = i;
	og[0] = ng[0] = 0;
	while (o < k) {
		int64_t po = od[oi[o++]], pn = 1;

		while (nw < nn && pn < po && po % (pn * nd[nw]) == 0)
			pn *= nd[nw++];
		while (pn != po) {
			if (pn < po) {
				if (nw >= nn)
					return -1;
				pn *= nd[nw++];
			} else {
				if (o >= k)
					return -1;
				po *= od[oi[o++]];
			}
		}
		og[++g] = o;
		ng[g] = nw;
	}
	for (; nw < nn; nw++)
		if (nd[nw] != 1)
			return -1;
	ng[g] = nn;
	return (int)g;
}

/* @s viewed with dims @nd: 0, or -1 when its strides do not allow it */
static int sv_reshape(struct sv *s, unsigned int nn, const int64_t *nd)
{
	unsigned int oi[R], og[R + 1], ng[R + 1], g, i;
	int64_t ns[R];
	int n = groups(s->dims, s->rank, nd, nn, oi, og, ng);

	if (n < 0)
		return -1;
	for (i = 0; i < nn; i++)
		ns[i] = 0;
	for (g = 0; g < (unsigned int)n; g++) {
		int64_t st;
		unsigned int k;

		for (k = og[g]; k + 1 < og[g + 1]; k++)
			if (s->st[oi[k]] != s->st[oi[k + 1]] * s->dims[oi[k + 1]])
				return -1;
		st = s->st[oi[og[g + 1] - 1]];
		for (k = ng[g + 1]; k > ng[g]; k--) {
			ns[k - 1] = st;
			st *= nd[k - 1];
		}
	}
	s->rank = nn;
	memcpy(s->dims, nd, sizeof(int64_t) * nn);
	memcpy(s->st, ns, sizeof(int64_t) * nn);
	return 0;
}

/*
 * The dims order in which a copy of @s can be reshaped to @nd as a
 * view: the reshape's groups ordered by the stride of their innermost
 * dim in @s (the copy then keeps @s's order where it can), each group
 * row-major. 0 if none.
 */
static uint64_t reshape_order(const struct sv *s, unsigned int nn,
			      const int64_t *nd)
{
	unsigned int oi[R], og[R + 1], ng[R + 1], gi[R + 1], g, k, i;
	int n = groups(s->dims, s->rank, nd, nn, oi, og, ng);
	uint64_t code = 0;

	if (n < 0)
		return 0;
	for (g = 0; g < (unsigned int)n; g++) {
		int64_t key = s->st[oi[og[g + 1] - 1]];

		for (k = g; k > 0 && s->st[oi[og[gi[k - 1] + 1] - 1]] < key; k--)
			gi[k] = gi[k - 1];
		gi[k] = g;
	}
	for (i = 0; i < s->rank; i++)
		if (s->dims[i] == 1)
			code = code << 4 | (i + 1);
	for (k = 0; k < (unsigned int)n; k++)
		for (i = og[gi[k]]; i < og[gi[k] + 1]; i++)
			code = code << 4 | (oi[i] + 1);
	return code;
}

/* ---- copies ---- */

/* a copy of @a into @b (same dims) as DMA loops, innermost first */
struct dplan {
	unsigned int nl;
	int64_t cnt[R], ss[R], ds[R];
	uint64_t len, rows, ndma;
};

static void plan(const struct sv *a, const struct sv *b, struct dplan *d)
{
	unsigned int idx[R], n = 0, i, k;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < a->rank; i++) {
		if (a->dims[i] == 1)
			continue;
		for (k = n; k > 0 && (b->st[idx[k - 1]] > b->st[i] ||
				      (b->st[idx[k - 1]] == b->st[i] &&
				       a->st[idx[k - 1]] > a->st[i])); k--)
			idx[k] = idx[k - 1];
		idx[k] = i;
		n++;
	}
	for (k = 0; k < n; k++) {
		unsigned int j = idx[k], l = d->nl;

		if (l && d->ss[l - 1] * d->cnt[l - 1] == a->st[j] &&
		    d->ds[l - 1] * d->cnt[l - 1] == b->st[j]) {
			d->cnt[l - 1] *= a->dims[j];
			continue;
		}
		d->cnt[l] = a->dims[j];
		d->ss[l] = a->st[j];
		d->ds[l] = b->st[j];
		d->nl++;
	}
	d->len = a->e;
	if (d->nl && d->ss[0] == a->e && d->ds[0] == a->e) {
		d->len = (uint64_t)d->cnt[0] * a->e;
		d->nl--;
		memmove(d->cnt, d->cnt + 1, sizeof(int64_t) * d->nl);
		memmove(d->ss, d->ss + 1, sizeof(int64_t) * d->nl);
		memmove(d->ds, d->ds + 1, sizeof(int64_t) * d->nl);
	}
	d->rows = d->ndma = 1;
	for (k = 0; k < d->nl; k++) {
		d->rows *= (uint64_t)d->cnt[k];
		if (k >= 3)
			d->ndma *= (uint64_t)d->cnt[k];
	}
}

/* the cycle estimate of a plan (the model's DMA: 64 + bytes/32 + rows) */
static uint64_t dma_cycles(const struct dplan *d)
{
	return d->ndma * 64 + d->rows * d->len / 32 + d->rows;
}

static int emit_plan(struct lctx *c, int node, const struct sv *a,
		     const struct sv *b, const struct dplan *d)
{
	int64_t it[R] = { 0 };
	uint64_t k, sx = d->len, dx = d->len;
	unsigned int i;

	for (i = 0; i < d->nl && i < 3; i++) {
		sx += (uint64_t)((d->cnt[i] - 1) * d->ss[i]);
		dx += (uint64_t)((d->cnt[i] - 1) * d->ds[i]);
	}
	for (k = 0; k < d->ndma; k++) {
		uint64_t so = a->off, dof = b->off;
		int64_t cn[3], s3[3], d3[3];
		int op;

		for (i = 3; i < d->nl; i++) {
			so += (uint64_t)(it[i] * d->ss[i]);
			dof += (uint64_t)(it[i] * d->ds[i]);
		}
		for (i = 0; i < 3; i++) {
			cn[i] = i < d->nl ? d->cnt[i] : 1;
			s3[i] = i < d->nl ? d->ss[i] : 0;
			d3[i] = i < d->nl ? d->ds[i] : 0;
		}
		op = vc_dma3(c, node, a->t, so, sx, b->t, dof, dx, d->len, cn,
			     s3, d3);
		if (op < 0)
			return op;
		for (i = 3; i < d->nl; i++) {
			if (++it[i] < d->cnt[i])
				break;
			it[i] = 0;
		}
	}
	return 0;
}

/* copy @a into @b by DMA */
static int copy_sv(struct lctx *c, int node, const struct sv *a,
		   const struct sv *b)
{
	struct dplan d;

	plan(a, b, &d);
	if (d.ndma > MAX_DMAS) {
		vc_unsupported(c->p, &c->m->n[node],
			       "a copy of %u strided dims would take %llu DMAs (at most %d)",
			       d.nl, (unsigned long long)d.ndma, MAX_DMAS);
		return VC_REPORTED;
	}
	return emit_plan(c, node, a, b, &d);
}

/* the bytes of weights tensor @t */
static const uint8_t *wbytes(const struct qprog *p, int t)
{
	uint64_t off = 0;

	while (p->t[t].alias >= 0) {
		off += p->t[t].voff;
		t = p->t[t].alias;
	}
	return p->blob + p->t[t].blob + off;
}

/* constant @s (in the weights) element by element into @buf as @d */
static void host_write(const struct qprog *p, const struct sv *s,
		       uint8_t *buf, const struct sv *d)
{
	uint64_t n = sv_numel(s), k;
	int64_t it[R] = { 0 };
	const uint8_t *src = wbytes(p, s->t) + s->off;
	unsigned int i;

	for (k = 0; k < n; k++) {
		int64_t so = 0, dof = (int64_t)d->off;

		for (i = 0; i < s->rank; i++) {
			so += it[i] * s->st[i];
			dof += it[i] * d->st[i];
		}
		memcpy(buf + dof, src + so, s->e);
		for (i = s->rank; i-- > 0;) {
			if (++it[i] < s->dims[i])
				break;
			it[i] = 0;
		}
	}
}

/* a compact @rank/@dims tensor in @order, as a strided view of nothing */
static void sv_new(struct sv *d, unsigned int rank, const int64_t *dims,
		   uint64_t order, unsigned int e)
{
	memset(d, 0, sizeof(*d));
	d->t = -1;
	d->rank = rank;
	d->e = e;
	memcpy(d->dims, dims, sizeof(int64_t) * rank);
	order_strides(rank, dims, order, e, d->st);
}

/* a constant @s (in the weights) copied on the host into a new one */
static int host_copy(struct lctx *c, const struct sv *s, uint64_t order)
{
	struct qprog *p = c->p;
	uint8_t *buf = malloc(sv_numel(s) * s->e + 1);
	struct sv d;
	int t;

	if (!buf)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	sv_new(&d, s->rank, s->dims, order, s->e);
	host_write(p, s, buf, &d);
	t = vc_const_qt(p, p->t[s->t].dt, s->rank, s->dims, buf);
	free(buf);
	if (t >= 0)
		p->t[t].order = order;
	return t;
}

/*
 * @s copied into a new compact tensor in dims order @order: by DMA, or
 * by the SHAVE PERMUTE kernel when @s is compact and that is cheaper.
 */
static int materialize(struct lctx *c, int node, const struct sv *s,
		       uint64_t order)
{
	struct qprog *p = c->p;
	struct dplan d;
	uint64_t in_order, n = sv_numel(s);
	struct sv b;
	int t, v, ts[2], r;
	char perm[32] = "";
	unsigned int i;

	if (p->t[s->t].region == QR_WEIGHTS)
		return host_copy(c, s, order);
	t = vc_new_qt(p, p->t[s->t].dt, s->rank, s->dims, order);
	if (t < 0)
		return t;
	sv_of(p, t, &b);
	plan(s, &b, &d);
	if (sv_compact(s, &in_order) &&
	    (d.ndma > MAX_DMAS || 200 + (n + 3) / 4 < dma_cycles(&d))) {
		/* a view of the source in its own order, reordered */
		v = vc_view_at(c, s->t, s->off, s->rank, s->dims, in_order);
		if (v < 0)
			return v;
		for (i = 0; i < s->rank; i++)
			snprintf(perm + strlen(perm), sizeof(perm) - strlen(perm),
				 "%s%u", i ? "," : "", i);
		ts[0] = v;
		ts[1] = t;
		r = vc_shave_f(c, node, ts, 2, "permute in=t%d out=t%d perm=%s",
			       v, t, perm);
		return r < 0 ? r : t;
	}
	r = copy_sv(c, node, s, &b);
	return r < 0 ? r : t;
}

/* the cheaper of NHWC and NCHW for a copy of 4-D @s */
static uint64_t order4(const struct sv *s)
{
	struct dplan d1, d2;
	struct sv b = *s;

	order_strides(4, s->dims, ORDER_NHWC, s->e, b.st);
	plan(s, &b, &d1);
	order_strides(4, s->dims, ORDER_NCHW, s->e, b.st);
	plan(s, &b, &d2);
	return dma_cycles(&d2) < dma_cycles(&d1) ? ORDER_NCHW : ORDER_NHWC;
}

/* @s as the device tensor of value @yv: a view if it can be, else a copy */
static int finish(struct lctx *c, int node, const struct sv *s,
		  const struct vc_value *yv)
{
	struct qprog *p = c->p;
	const struct qt *b = &p->t[s->t];
	uint64_t rm = rm_code(s->rank), order = 0;
	unsigned int yr = yv->rank > 0 ? (unsigned int)yv->rank : 1, i;
	int t;

	if (yr != s->rank)
		goto bad;
	for (i = 0; i < s->rank; i++)
		if (s->dims[i] != (yv->rank > 0 ? yv->dims[i] : 1))
			goto bad;
	if (sv_is(s, rm))
		order = rm;
	else if (s->rank == 4 && sv_is(s, ORDER_NHWC))
		order = ORDER_NHWC;
	if (order && !s->off && b->rank == s->rank && b->order == order &&
	    !memcmp(b->dims, s->dims, sizeof(int64_t) * s->rank))
		t = s->t;
	else if (order)
		t = vc_view_at(c, s->t, s->off, s->rank, s->dims, order);
	else if (s->rank == 4 && vc_layout_order(c, yv))
		t = materialize(c, node, s, vc_layout_order(c, yv));	/* layout.c */
	else
		t = materialize(c, node, s, s->rank == 4 ? order4(s) : rm);
	if (t < 0)
		return t;
	vc_set_vq(c, yv, t);
	return 0;
bad:
	vc_unsupported(p, &c->m->n[node], "internal error: the view of '%s' has other dims than the value",
		       yv->name);
	return VC_REPORTED;
}

/* ---- checks ---- */

static bool is_float(int32_t dt)
{
	return dt == VPUXC_FLOAT || dt == 10;
}

static const char *static_shape(const struct vc_value *v, char *buf,
				size_t len)
{
	if (v->rank < 0 || (v->rank > 0 && !vc_numel(v))) {
		snprintf(buf, len, "value '%s' has no static shape (or is empty)",
			 v->name);
		return buf;
	}
	if (v->rank > R) {
		snprintf(buf, len, "value '%s' has rank %d (at most %d)", v->name,
			 v->rank, R);
		return buf;
	}
	return NULL;
}

/* input @i: float data of a static shape */
static const char *data_check(const struct vpuxc_model *m,
			      const struct vc_node *n, unsigned int i,
			      char *buf, size_t len)
{
	const struct vc_value *x = i < n->n_in ? vc_in(m, n, i) : NULL;

	if (!x || !vc_out(m, n, 0)) {
		snprintf(buf, len, "input or output missing");
		return buf;
	}
	if (!is_float(x->dtype)) {
		snprintf(buf, len, "input '%s' is %s: only float tensors are computed on the NPU (shape arithmetic must be folded into constants)",
			 x->name, vpuxc_dtype_name(x->dtype));
		return buf;
	}
	return static_shape(x, buf, len);
}

/* every output of a static shape (after the op's own checks) */
static const char *out_check(const struct vpuxc_model *m,
			     const struct vc_node *n, char *buf, size_t len)
{
	const char *r = NULL;
	unsigned int k;

	for (k = 0; !r && k < n->n_out; k++)
		if (vc_out(m, n, k))
			r = static_shape(vc_out(m, n, k), buf, len);
	return r;
}

/* a constant integer input (or NULL) with its values in @v (at most @max) */
static int cst_ints(const struct vpuxc_model *m, const struct vc_node *n,
		    unsigned int i, int64_t *v, unsigned int max)
{
	const struct vc_value *x = i < n->n_in ? vc_in(m, n, i) : NULL;
	size_t cnt, k;

	if (!x)
		return -2;	/* omitted */
	if (!x->cst || (x->cst->dtype != VPUXC_INT64 &&
			x->cst->dtype != VPUXC_INT32))
		return -1;
	cnt = vpuxc_tensor_count(x->cst);
	if (cnt > max)
		return -1;
	for (k = 0; k < cnt; k++)
		v[k] = vc_cst_i(x->cst, k);
	return (int)cnt;
}

static int norm_axis(int64_t a, int rank)
{
	if (a < 0)
		a += rank;
	return a < 0 || a >= rank ? -1 : (int)a;
}

/* ---- Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Identity ---- */

static bool is_view_op(const char *op)
{
	return !strcmp(op, "Reshape") || !strcmp(op, "Flatten") ||
	       !strcmp(op, "Squeeze") || !strcmp(op, "Unsqueeze") ||
	       !strcmp(op, "Transpose") || !strcmp(op, "Identity");
}

/* Transpose's permutation (default: reversed dims); -1 if invalid */
static int perm_of(const struct vc_node *n, int rank, int64_t *perm)
{
	int np = vc_attr_ints(n, "perm", perm, VPUXC_MAX_RANK), i;
	unsigned int seen = 0;

	if (np <= 0 && !vc_attr(n, "perm")) {
		for (i = 0; i < rank; i++)
			perm[i] = rank - 1 - i;
		return 0;
	}
	if (np != rank)
		return -1;
	for (i = 0; i < rank; i++) {
		if (perm[i] < 0 || perm[i] >= rank || seen & (1u << perm[i]))
			return -1;
		seen |= 1u << perm[i];
	}
	return 0;
}

static const char *view_npu(const struct vpuxc_model *m,
			    const struct vc_node *n, char *buf, size_t len)
{
	const char *r = data_check(m, n, 0, buf, len);
	int64_t perm[VPUXC_MAX_RANK];

	if (r)
		return r;
	if (!strcmp(n->op, "Transpose") &&
	    perm_of(n, vc_in(m, n, 0)->rank, perm)) {
		snprintf(buf, len, "perm is not a permutation of the %d dims",
			 vc_in(m, n, 0)->rank);
		return buf;
	}
	if (out_check(m, n, buf, len))
		return buf;
	if (vc_numel(vc_in(m, n, 0)) != vc_numel(vc_out(m, n, 0)) &&
	    vc_in(m, n, 0)->rank && vc_out(m, n, 0)->rank) {
		snprintf(buf, len, "output '%s' has another element count than the input",
			 vc_out(m, n, 0)->name);
		return buf;
	}
	return NULL;
}

/* node @k's view op applied to @s (copying first if it must) */
static int apply_view(struct lctx *c, int k, struct sv *s)
{
	const struct vc_node *n = &c->m->n[k];
	const struct vc_value *y = vc_out(c->m, n, 0);
	int64_t one = 1, perm[VPUXC_MAX_RANK];
	const int64_t *nd = y->rank > 0 ? y->dims : &one;
	unsigned int nn = y->rank > 0 ? (unsigned int)y->rank : 1;
	uint64_t order;
	int t;

	if (!strcmp(n->op, "Identity"))
		return 0;
	if (!strcmp(n->op, "Transpose")) {
		perm_of(n, (int)s->rank, perm);
		sv_permute(s, perm);
		return 0;
	}
	if (!sv_reshape(s, nn, nd))
		return 0;
	/* a copy in an order that the reshape can view */
	order = reshape_order(s, nn, nd);
	if (!order) {
		vc_unsupported(c->p, n, "cannot reshape %u dims into %u", s->rank,
			       nn);
		return VC_REPORTED;
	}
	t = materialize(c, k, s, order);
	if (t < 0)
		return t;
	sv_of(c->p, t, s);
	if (sv_reshape(s, nn, nd)) {
		vc_unsupported(c->p, n, "internal error: reshape of a copy");
		return VC_REPORTED;
	}
	return 0;
}

/* ---- Identity-like: Dropout (inference), Cast between float types ---- */

static const char *alias_npu(const struct vpuxc_model *m,
			     const struct vc_node *n, char *buf, size_t len)
{
	const char *r = data_check(m, n, 0, buf, len);
	const struct vc_value *y = vc_out(m, n, 0);

	if (r)
		return r;
	if (!strcmp(n->op, "Dropout")) {
		const struct vc_value *tm = n->n_in > 2 ? vc_in(m, n, 2) : NULL;

		if (n->n_out > 1 && vc_out(m, n, 1) && vc_out(m, n, 1)->n_uses) {
			snprintf(buf, len, "the mask output is used");
			return buf;
		}
		if (vc_attr_i(n, "is_test", 1) == 0 ||
		    (tm && (!tm->cst || vc_cst_i(tm->cst, 0)))) {
			snprintf(buf, len, "training_mode is set (or not a constant)");
			return buf;
		}
	}
	if (!strcmp(n->op, "Cast") || !strcmp(n->op, "CastLike")) {
		int32_t to = !strcmp(n->op, "Cast") ?
			     (int32_t)vc_attr_i(n, "to", 0) :
			     (vc_in(m, n, 1) ? vc_in(m, n, 1)->dtype : 0);

		if (!is_float(to)) {
			snprintf(buf, len, "cast to %s: only casts between float and float16 run on the NPU (all FP16 there)",
				 vpuxc_dtype_name(to));
			return buf;
		}
	}
	if (out_check(m, n, buf, len))
		return buf;
	if (vc_numel(vc_in(m, n, 0)) != vc_numel(y)) {
		snprintf(buf, len, "output '%s' has another element count than the input",
			 y->name);
		return buf;
	}
	return NULL;
}

static int alias_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	int x = vc_f16(c, node, vc_in(c->m, n, 0));

	if (x < 0)
		return x;
	vc_set_vq(c, vc_out(c->m, n, 0), x);
	return 0;
}

static int cast_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	unsigned int k;

	if (!x || !y || x->rank < 0)
		return 0;
	y->rank = x->rank;
	memcpy(y->dims, x->dims, sizeof(x->dims));
	if (!strcmp(n->op, "Cast"))
		y->dtype = (int32_t)vc_attr_i(n, "to", x->dtype);
	else if (!strcmp(n->op, "CastLike") && vc_in(m, n, 1))
		y->dtype = vc_in(m, n, 1)->dtype;
	else
		y->dtype = x->dtype;
	for (k = 1; k < n->n_out; k++) {	/* Dropout's mask */
		struct vc_value *o = vc_out(m, n, k);

		if (o && o->rank < 0) {
			o->rank = x->rank;
			memcpy(o->dims, x->dims, sizeof(x->dims));
			o->dtype = 9;	/* bool */
		}
	}
	return 0;
}

/* ---- Squeeze, Unsqueeze: shapes ---- */

static int squeeze_axes(const struct vpuxc_model *m, const struct vc_node *n,
			int64_t *ax)
{
	int k = vc_attr_ints(n, "axes", ax, VPUXC_MAX_RANK);

	if (m->opset >= 13)
		k = cst_ints(m, n, 1, ax, VPUXC_MAX_RANK);
	return k == -2 ? 0 : k < 0 && vc_attr(n, "axes") == NULL &&
	       m->opset < 13 ? 0 : k;
}

static int squeeze_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	int64_t ax[VPUXC_MAX_RANK], d[VPUXC_MAX_RANK];
	int na = squeeze_axes(m, n, ax), i, j, r;
	unsigned int mask = 0;

	if (!x || !y || x->rank < 0 || na < 0)
		return 0;
	if (!strcmp(n->op, "Squeeze")) {
		for (i = 0; i < na; i++) {
			int a = norm_axis(ax[i], x->rank);

			if (a < 0 || x->dims[a] != 1)
				return 0;
			mask |= 1u << a;
		}
		for (i = 0, r = 0; i < x->rank; i++)
			if (na ? !(mask & (1u << i)) : x->dims[i] != 1)
				d[r++] = x->dims[i];
	} else {
		r = x->rank + na;
		if (r > VPUXC_MAX_RANK || !na)
			return 0;
		for (i = 0; i < na; i++) {
			int a = norm_axis(ax[i], r);

			if (a < 0 || mask & (1u << a))
				return 0;
			mask |= 1u << a;
		}
		for (i = 0, j = 0; i < r; i++)
			d[i] = mask & (1u << i) ? 1 : x->dims[j++];
	}
	y->dtype = x->dtype;
	y->rank = r;
	memcpy(y->dims, d, sizeof(int64_t) * (size_t)r);
	return 0;
}

/* ---- Concat ---- */

static int concat_axis(const struct vc_node *n, int rank)
{
	return norm_axis(vc_attr_i(n, "axis", 0), rank);
}

static const char *concat_npu(const struct vpuxc_model *m,
			      const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_value *y = vc_out(m, n, 0);
	unsigned int i;
	int a;

	for (i = 0; i < n->n_in; i++) {
		const char *r = data_check(m, n, i, buf, len);

		if (r)
			return r;
	}
	if (!n->n_in) {
		snprintf(buf, len, "no inputs");
		return buf;
	}
	if (!vc_attr(n, "axis")) {
		snprintf(buf, len, "no axis");
		return buf;
	}
	if (out_check(m, n, buf, len))
		return buf;
	a = concat_axis(n, y->rank);
	if (a < 0 || !vc_attr(n, "axis")) {
		snprintf(buf, len, "axis missing or outside the rank %d", y->rank);
		return buf;
	}
	return NULL;
}

static int concat_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	int64_t d[VPUXC_MAX_RANK];
	unsigned int i;
	int a, k;

	if (!x || !y || x->rank < 1)
		return 0;
	a = concat_axis(n, x->rank);
	if (a < 0)
		return 0;
	memcpy(d, x->dims, sizeof(d));
	d[a] = 0;
	for (i = 0; i < n->n_in; i++) {
		const struct vc_value *v = vc_in(m, n, i);

		if (!v || v->rank != x->rank)
			return 0;
		for (k = 0; k < x->rank; k++)
			if (k != a && v->dims[k] != x->dims[k])
				return 0;
		if (v->dims[a] < 0)
			return 0;
		d[a] += v->dims[a];
	}
	y->dtype = x->dtype;
	y->rank = x->rank;
	memcpy(y->dims, d, sizeof(d));
	return 0;
}

static int concat_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	unsigned int i, r = (unsigned int)yv->rank;
	int a = concat_axis(n, yv->rank), x[64], t;
	uint64_t order = rm_code(r);
	int64_t off = 0;
	struct sv o;

	if (n->n_in > 64) {
		vc_unsupported(p, n, "%u inputs (at most 64)", n->n_in);
		return VC_REPORTED;
	}
	for (i = 0; i < n->n_in; i++) {
		x[i] = -1;
		if (!vc_numel(vc_in(c->m, n, i)))
			continue;	/* an empty input */
		x[i] = vc_f16(c, node, vc_in(c->m, n, i));
		if (x[i] < 0)
			return x[i];
		if (p->t[x[i]].dt != VPUX_DT_F16) {
			vc_unsupported(p, n, "input %u is not FP16", i);
			return VC_REPORTED;
		}
		/* 4-D: NHWC unless every input is NCHW */
		if (r == 4 && p->t[x[i]].order == ORDER_NHWC)
			order = ORDER_NHWC;
	}
	if (r == 4 && order != ORDER_NHWC) {
		for (i = 0; i < n->n_in; i++)
			if (x[i] >= 0 && p->t[x[i]].region == QR_WEIGHTS)
				order = ORDER_NHWC;	/* all constants */
	}
	t = vc_new_qt(p, VPUX_DT_F16, r, yv->dims, order);
	if (t < 0)
		return t;
	sv_of(p, t, &o);
	for (i = 0; i < n->n_in; i++) {
		struct sv s, b = o;
		int ret;

		if (x[i] < 0)
			continue;
		sv_of(p, x[i], &s);
		if (s.rank != r) {
			vc_unsupported(p, n, "input %u has rank %u, the output %u",
				       i, s.rank, r);
			return VC_REPORTED;
		}
		sv_narrow(&b, (unsigned int)a, off, s.dims[a], 1);
		if (memcmp(b.dims, s.dims, sizeof(int64_t) * r) ||
		    off + s.dims[a] > yv->dims[a]) {
			vc_unsupported(p, n, "input %u does not fit the output's shape",
				       i);
			return VC_REPORTED;
		}
		ret = copy_sv(c, node, &s, &b);
		if (ret < 0)
			return ret;
		off += s.dims[a];
	}
	vc_set_vq(c, yv, t);
	return 0;
}

/* ---- Split, Slice ---- */

static int split_axis(const struct vpuxc_model *m, const struct vc_node *n)
{
	return norm_axis(vc_attr_i(n, "axis", 0), vc_in(m, n, 0)->rank);
}

static const char *split_npu(const struct vpuxc_model *m,
			     const struct vc_node *n, char *buf, size_t len)
{
	const char *r = data_check(m, n, 0, buf, len);
	int a;

	if (r)
		return r;
	a = split_axis(m, n);
	if (a < 0) {
		snprintf(buf, len, "axis outside the rank %d", vc_in(m, n, 0)->rank);
		return buf;
	}
	if (m->opset >= 13 && n->n_in > 1 && vc_in(m, n, 1) &&
	    !vc_in(m, n, 1)->cst) {
		snprintf(buf, len, "split sizes are not a constant");
		return buf;
	}
	return out_check(m, n, buf, len);
}

/* the split sizes of output @k..; -1 if unknown */
static int split_sizes(const struct vpuxc_model *m, const struct vc_node *n,
		       int64_t *sz)
{
	const struct vc_value *x = vc_in(m, n, 0);
	int a = split_axis(m, n), k, cnt;
	int64_t d = x->dims[a], sum = 0;

	if (m->opset >= 13)
		cnt = cst_ints(m, n, 1, sz, 64);
	else
		cnt = vc_attr_ints(n, "split", sz, 64);
	if (cnt == -1 && (m->opset < 13 || !vc_in(m, n, 1)))
		cnt = -2;
	if (cnt == -1)
		return -1;
	if (cnt < 0 || cnt == 0) {
		int64_t no = vc_attr_i(n, "num_outputs", (int64_t)n->n_out), q;

		if (no < 1 || no > 64)
			return -1;
		q = (d + no - 1) / no;
		for (k = 0; k < no; k++)
			sz[k] = k + 1 < no ? q : d - q * (no - 1);
		cnt = (int)no;
	}
	for (k = 0; k < cnt; k++) {
		if (sz[k] < 0)
			return -1;
		sum += sz[k];
	}
	return sum == d && cnt == (int)n->n_out ? cnt : -1;
}

static int split_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0);
	int64_t sz[64];
	unsigned int k;
	int a;

	if (!x || x->rank < 1 || n->n_out > 64)
		return 0;
	a = split_axis(m, n);
	if (a < 0 || split_sizes(m, n, sz) < 0)
		return 0;
	for (k = 0; k < n->n_out; k++) {
		struct vc_value *y = vc_out(m, n, k);

		if (!y)
			continue;
		y->dtype = x->dtype;
		y->rank = x->rank;
		memcpy(y->dims, x->dims, sizeof(x->dims));
		y->dims[a] = sz[k];
	}
	return 0;
}

static int split_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0);
	int a = split_axis(c->m, n), x = vc_f16(c, node, xv), r;
	int64_t off = 0;
	unsigned int k;
	struct sv s0;

	if (x < 0)
		return x;
	sv_of(c->p, x, &s0);
	for (k = 0; k < n->n_out; k++) {
		const struct vc_value *y = vc_out(c->m, n, k);
		struct sv s = s0;

		if (!y)
			continue;
		if (y->rank != xv->rank || off + y->dims[a] > xv->dims[a]) {
			vc_unsupported(c->p, n, "output '%s' does not fit the input",
				       y->name);
			return VC_REPORTED;
		}
		sv_narrow(&s, (unsigned int)a, off, y->dims[a], 1);
		off += y->dims[a];
		if (!y->n_uses && !(y->flags & VC_V_OUTPUT))
			continue;
		r = finish(c, node, &s, y);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Slice's per-dim start and step (normalized); -1 if not constant/valid */
static int slice_params(const struct vpuxc_model *m, const struct vc_node *n,
			int64_t *start, int64_t *cnt, int64_t *step,
			char *buf, size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0);
	int64_t st[VPUXC_MAX_RANK], en[VPUXC_MAX_RANK], ax[VPUXC_MAX_RANK];
	int64_t sp[VPUXC_MAX_RANK];
	int ns, ne, na, np, i;

	if (m->opset < 10) {
		ns = vc_attr_ints(n, "starts", st, VPUXC_MAX_RANK);
		ne = vc_attr_ints(n, "ends", en, VPUXC_MAX_RANK);
		na = vc_attr_ints(n, "axes", ax, VPUXC_MAX_RANK);
		np = -2;
		if (na < 0 && !vc_attr(n, "axes"))
			na = -2;
	} else {
		ns = cst_ints(m, n, 1, st, VPUXC_MAX_RANK);
		ne = cst_ints(m, n, 2, en, VPUXC_MAX_RANK);
		na = cst_ints(m, n, 3, ax, VPUXC_MAX_RANK);
		np = cst_ints(m, n, 4, sp, VPUXC_MAX_RANK);
	}
	if (ns < 0 || ne != ns || na == -1 || np == -1 ||
	    (na >= 0 && na != ns) || (np >= 0 && np != ns)) {
		snprintf(buf, len, "starts, ends, axes and steps must be constants of one length");
		return -1;
	}
	for (i = 0; i < x->rank; i++) {
		start[i] = 0;
		cnt[i] = x->dims[i];
		step[i] = 1;
	}
	for (i = 0; i < ns; i++) {
		int a = norm_axis(na >= 0 ? ax[i] : i, x->rank);
		int64_t d, s, e, p = np >= 0 ? sp[i] : 1;

		if (a < 0) {
			snprintf(buf, len, "axis %lld outside the rank %d",
				 (long long)(na >= 0 ? ax[i] : i), x->rank);
			return -1;
		}
		if (p < 1) {
			snprintf(buf, len, "step %lld: only positive steps are supported",
				 (long long)p);
			return -1;
		}
		d = x->dims[a];
		s = st[i] < 0 ? st[i] + d : st[i];
		e = en[i] < 0 ? en[i] + d : en[i];
		s = s < 0 ? 0 : s > d ? d : s;
		e = e < 0 ? 0 : e > d ? d : e;
		if (e <= s) {
			snprintf(buf, len, "empty slice along axis %d", a);
			return -1;
		}
		start[a] = s;
		step[a] = p;
		cnt[a] = (e - s + p - 1) / p;
	}
	return 0;
}

static const char *slice_npu(const struct vpuxc_model *m,
			     const struct vc_node *n, char *buf, size_t len)
{
	int64_t s[VPUXC_MAX_RANK], k[VPUXC_MAX_RANK], p[VPUXC_MAX_RANK];
	const char *r = data_check(m, n, 0, buf, len);

	if (r)
		return r;
	if (slice_params(m, n, s, k, p, buf, len))
		return buf;
	return out_check(m, n, buf, len);
}

static int slice_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	int64_t s[VPUXC_MAX_RANK], k[VPUXC_MAX_RANK], p[VPUXC_MAX_RANK];
	char buf[160];

	if (!x || !y || x->rank < 0 || !vc_numel(x) ||
	    slice_params(m, n, s, k, p, buf, sizeof(buf)))
		return 0;
	y->dtype = x->dtype;
	y->rank = x->rank;
	memcpy(y->dims, k, sizeof(k));
	return 0;
}

static int slice_apply(struct lctx *c, int k, struct sv *v)
{
	const struct vc_node *n = &c->m->n[k];
	int64_t s[VPUXC_MAX_RANK], cnt[VPUXC_MAX_RANK], p[VPUXC_MAX_RANK];
	char buf[160];
	unsigned int i;

	if (slice_params(c->m, n, s, cnt, p, buf, sizeof(buf)) ||
	    v->rank != (unsigned int)vc_in(c->m, n, 0)->rank) {
		vc_unsupported(c->p, n, "internal error: slice of a view");
		return VC_REPORTED;
	}
	for (i = 0; i < v->rank; i++)
		sv_narrow(v, i, s[i], cnt[i], p[i]);
	return 0;
}

/* ---- Gather ---- */

static const char *gather_npu(const struct vpuxc_model *m,
			      const struct vc_node *n, char *buf, size_t len)
{
	const char *r = data_check(m, n, 0, buf, len);
	const struct vc_value *x, *iv;
	size_t k, cnt;
	int a;

	if (r)
		return r;
	x = vc_in(m, n, 0);
	iv = vc_in(m, n, 1);
	a = norm_axis(vc_attr_i(n, "axis", 0), x->rank);
	if (a < 0) {
		snprintf(buf, len, "axis outside the rank %d", x->rank);
		return buf;
	}
	if (!iv || !iv->cst || (iv->cst->dtype != VPUXC_INT64 &&
				iv->cst->dtype != VPUXC_INT32)) {
		snprintf(buf, len, "indices '%s' are not an integer constant (runtime indices are not supported)",
			 iv ? iv->name : "");
		return buf;
	}
	cnt = vpuxc_tensor_count(iv->cst);
	if (!cnt || x->rank + (int)iv->cst->rank - 1 > R) {
		snprintf(buf, len, "no indices, or an output rank above %d", R);
		return buf;
	}
	for (k = 0; k < cnt; k++) {
		int64_t i = vc_cst_i(iv->cst, k);

		if (i < -x->dims[a] || i >= x->dims[a]) {
			snprintf(buf, len, "index %lld outside [%lld, %lld]",
				 (long long)i, (long long)-x->dims[a],
				 (long long)x->dims[a] - 1);
			return buf;
		}
	}
	return out_check(m, n, buf, len);
}

static int gather_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *iv = vc_in(m, n, 1);
	struct vc_value *y = vc_out(m, n, 0);
	int a, i, r = 0;
	unsigned int k;

	if (!x || !iv || !y || x->rank < 1 || iv->rank < 0)
		return 0;
	a = norm_axis(vc_attr_i(n, "axis", 0), x->rank);
	if (a < 0 || x->rank + iv->rank - 1 > VPUXC_MAX_RANK)
		return 0;
	for (i = 0; i < a; i++)
		y->dims[r++] = x->dims[i];
	for (k = 0; k < (unsigned int)iv->rank; k++)
		y->dims[r++] = iv->dims[k];
	for (i = a + 1; i < x->rank; i++)
		y->dims[r++] = x->dims[i];
	y->rank = r;
	y->dtype = x->dtype;
	return 0;
}

/* are @n's indices a range start, start + step, ... (step >= 1)? */
static bool gather_range(const struct vpuxc_model *m, const struct vc_node *n,
			 int64_t *start, int64_t *step, int64_t *cnt)
{
	const struct vc_value *x = vc_in(m, n, 0), *iv = vc_in(m, n, 1);
	int a = norm_axis(vc_attr_i(n, "axis", 0), x->rank);
	size_t k, c = vpuxc_tensor_count(iv->cst);
	int64_t prev = 0;

	*step = 1;
	for (k = 0; k < c; k++) {
		int64_t i = vc_cst_i(iv->cst, k);

		if (i < 0)
			i += x->dims[a];
		if (k == 1)
			*step = i - prev;
		else if (k > 1 && i - prev != *step)
			return false;
		if (!k)
			*start = i;
		prev = i;
	}
	*cnt = (int64_t)c;
	return c && *step >= 1;
}

static int gather_apply(struct lctx *c, int k, struct sv *s)
{
	const struct vc_node *n = &c->m->n[k];
	const struct vc_value *yv = vc_out(c->m, n, 0);
	int a = norm_axis(vc_attr_i(n, "axis", 0), vc_in(c->m, n, 0)->rank);
	int64_t start, step, cnt, one = 1;

	if (a < 0 || !gather_range(c->m, n, &start, &step, &cnt) ||
	    s->rank != (unsigned int)vc_in(c->m, n, 0)->rank) {
		vc_unsupported(c->p, n, "internal error: gather of a view");
		return VC_REPORTED;
	}
	sv_narrow(s, (unsigned int)a, start, cnt, step);
	if (sv_reshape(s, yv->rank > 0 ? (unsigned int)yv->rank : 1,
		       yv->rank > 0 ? yv->dims : &one)) {
		vc_unsupported(c->p, n, "internal error: gather reshape");
		return VC_REPORTED;
	}
	return 0;
}

static int chain_lower(struct lctx *c, int node);

static int gather_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *iv = vc_in(c->m, n, 1);
	const struct vc_value *yv = vc_out(c->m, n, 0);
	struct qprog *p = c->p;
	unsigned int a = (unsigned int)norm_axis(vc_attr_i(n, "axis", 0),
						  xv->rank);
	size_t cnt = vpuxc_tensor_count(iv->cst), k, runs = 1;
	int64_t *idx = malloc(sizeof(int64_t) * cnt), step, yd[R], j0, rcnt;
	unsigned int yr = yv->rank > 0 ? (unsigned int)yv->rank : 1, i;
	int x, t, r = 0;
	struct sv s, o;

	if (!idx)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	if (gather_range(c->m, n, &j0, &step, &rcnt)) {
		free(idx);
		return chain_lower(c, node);	/* a strided range: a view */
	}
	for (k = 0; k < cnt; k++) {
		idx[k] = vc_cst_i(iv->cst, k);
		if (idx[k] < 0)
			idx[k] += xv->dims[a];
	}
	for (k = 1; k < cnt; k++)
		runs += idx[k] != idx[k - 1] + 1;
	x = vc_f16(c, node, xv);
	if (x < 0) {
		free(idx);
		return x;
	}
	sv_of(p, x, &s);
	for (i = 0; i < yr; i++)
		yd[i] = yv->rank > 0 ? yv->dims[i] : 1;
	if (p->t[x].region == QR_WEIGHTS || runs <= GATHER_DMA_RUNS) {
		/* runs of consecutive indices by DMA (constant: on the host) */
		int64_t od[R];
		uint64_t order = xv->rank == 4 && yr == 4 ? p->t[x].order :
				 rm_code(yr);
		bool w = p->t[x].region == QR_WEIGHTS;
		uint8_t *buf = NULL;
		struct sv b;

		j0 = 0;
		sv_new(&o, yr, yd, order, s.e);
		if (w) {
			buf = malloc(sv_numel(&o) * s.e + 1);
			if (!buf) {
				r = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
				goto out;
			}
			t = -1;
		} else {
			t = vc_new_qt(p, p->t[x].dt, yr, yd, order);
			if (t < 0) {
				r = t;
				goto out;
			}
			o.t = t;
		}
		memcpy(od, s.dims, sizeof(od));
		od[a] = (int64_t)cnt;
		if (sv_reshape(&o, s.rank, od)) {
			free(buf);
			vc_unsupported(p, n, "internal error: gather output view");
			r = VC_REPORTED;
			goto out;
		}
		for (k = 0; k < cnt && r >= 0; k++) {
			struct sv a1 = s;
			int64_t len = 1;

			while (k + 1 < cnt && idx[k + 1] == idx[k] + 1) {
				k++;
				len++;
			}
			sv_narrow(&a1, a, idx[k] - len + 1, len, 1);
			b = o;
			sv_narrow(&b, a, j0, len, 1);
			j0 += len;
			if (w)
				host_write(p, &a1, buf, &b);
			else
				r = copy_sv(c, node, &a1, &b);
		}
		if (w) {
			t = vc_const_qt(p, p->t[x].dt, yr, yd, buf);
			free(buf);
			if (t < 0) {
				r = t;
				goto out;
			}
			p->t[t].order = order;
		}
		if (r >= 0)
			vc_set_vq(c, yv, t);
		goto out;
	} else {
		/* the SHAVE GATHER kernel, indices as an i32 constant */
		int32_t *i32 = malloc(sizeof(int32_t) * cnt);
		int64_t id[R], one = 1;
		int ti, ts[3];

		if (!i32) {
			r = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
			goto out;
		}
		for (k = 0; k < cnt; k++)
			i32[k] = (int32_t)idx[k];
		for (i = 0; i < iv->cst->rank; i++)
			id[i] = iv->cst->dims[i];
		ti = vc_const_qt(p, VPUX_DT_I32, iv->cst->rank ? iv->cst->rank : 1,
				 iv->cst->rank ? id : &one, i32);
		free(i32);
		if (ti < 0) {
			r = ti;
			goto out;
		}
		ti = vc_f16_shave_in(c, node, ti);
		x = ti < 0 ? ti : vc_f16_shave_in(c, node, x);
		if (ti < 0 || x < 0) {
			r = ti < 0 ? ti : x;
			goto out;
		}
		t = vc_new_qt(p, p->t[x].dt, yr, yd, rm_code(yr));
		if (t < 0) {
			r = t;
			goto out;
		}
		ts[0] = x;
		ts[1] = ti;
		ts[2] = t;
		r = vc_shave_f(c, node, ts, 3,
			       "gather in=t%d indices=t%d out=t%d axis=%u", x, ti,
			       t, a);
		if (r >= 0) {
			r = 0;
			vc_set_vq(c, yv, t);
		}
	}
out:
	free(idx);
	return r < 0 ? r : 0;
}

/* ---- Expand ---- */

static int expand_shape(const struct vpuxc_model *m, const struct vc_node *n,
			int64_t *d, int *rank)
{
	const struct vc_value *x = vc_in(m, n, 0);
	int64_t s[VPUXC_MAX_RANK];
	int ns = cst_ints(m, n, 1, s, VPUXC_MAX_RANK), r, i;

	if (ns < 0 || !x || x->rank < 0)
		return -1;
	r = ns > x->rank ? ns : x->rank;
	for (i = 0; i < r; i++) {
		int ix = i - (r - x->rank), is = i - (r - ns);
		int64_t dx = ix >= 0 ? x->dims[ix] : 1;
		int64_t ds = is >= 0 ? s[is] : 1;

		if (dx != ds && dx != 1 && ds != 1)
			return -1;
		d[i] = dx == 1 ? ds : dx;
	}
	*rank = r;
	return 0;
}

static const char *expand_npu(const struct vpuxc_model *m,
			      const struct vc_node *n, char *buf, size_t len)
{
	const char *r = data_check(m, n, 0, buf, len);
	int64_t d[VPUXC_MAX_RANK];
	int rank;

	if (r)
		return r;
	if (expand_shape(m, n, d, &rank)) {
		snprintf(buf, len, "shape is not a constant that broadcasts with the input");
		return buf;
	}
	return out_check(m, n, buf, len);
}

static int expand_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *y = vc_out(m, n, 0);
	int64_t d[VPUXC_MAX_RANK];
	int r;

	if (!y || expand_shape(m, n, d, &r))
		return 0;
	y->dtype = vc_in(m, n, 0)->dtype;
	y->rank = r;
	memcpy(y->dims, d, sizeof(d));
	return 0;
}

static int expand_apply(struct lctx *c, int k, struct sv *s)
{
	const struct vc_node *n = &c->m->n[k];
	const struct vc_value *yv = vc_out(c->m, n, 0);
	unsigned int yr = yv->rank > 0 ? (unsigned int)yv->rank : 1, i, lead;
	struct sv b;

	if (s->rank > yr) {
		vc_unsupported(c->p, n, "internal error: expand rank");
		return VC_REPORTED;
	}
	/* numpy broadcasting: leading unit dims, then stride 0 */
	lead = yr - s->rank;
	b = *s;
	b.rank = yr;
	for (i = 0; i < yr; i++) {
		int64_t d = i < lead ? 1 : s->dims[i - lead];

		b.st[i] = i < lead ? 0 : s->st[i - lead];
		b.dims[i] = yv->rank > 0 ? yv->dims[i] : 1;
		if (d == 1) {
			b.st[i] = 0;
		} else if (d != b.dims[i]) {
			vc_unsupported(c->p, n, "input dim %u (%lld) does not broadcast to %lld",
				       i, (long long)d, (long long)b.dims[i]);
			return VC_REPORTED;
		}
	}
	*s = b;
	return 0;
}

/* ---- Pad: the SHAVE PAD kernel ---- */

static int pad_params(const struct vpuxc_model *m, const struct vc_node *n,
		      int64_t *begin, int64_t *end, float *value, char *buf,
		      size_t len)
{
	const struct vc_value *x = vc_in(m, n, 0);
	int64_t pads[2 * VPUXC_MAX_RANK], ax[VPUXC_MAX_RANK];
	int np, na = -2, i, r = x->rank;
	const char *mode = vc_attr_s(n, "mode", "constant");
	const struct vc_value *cv;

	*value = 0;
	if (m->opset < 11) {
		np = vc_attr_ints(n, "pads", pads, 2 * VPUXC_MAX_RANK);
		*value = vc_attr_f(n, "value", 0);
	} else {
		np = cst_ints(m, n, 1, pads, 2 * VPUXC_MAX_RANK);
		cv = n->n_in > 2 ? vc_in(m, n, 2) : NULL;
		if (cv && (!cv->cst || vpuxc_tensor_count(cv->cst) != 1)) {
			snprintf(buf, len, "constant_value is not a constant scalar");
			return -1;
		}
		if (cv)
			*value = (float)vc_cst_f(cv->cst, 0);
		if (n->n_in > 3)
			na = cst_ints(m, n, 3, ax, VPUXC_MAX_RANK);
	}
	if (strcmp(mode, "constant") && strcmp(mode, "reflect") &&
	    strcmp(mode, "edge")) {
		snprintf(buf, len, "mode '%s' (constant, reflect or edge)", mode);
		return -1;
	}
	if (na == -1) {
		snprintf(buf, len, "axes are not a constant");
		return -1;
	}
	if (na < 0)
		na = r;
	if (np < 0 || np != 2 * na) {
		snprintf(buf, len, "pads are not a constant of 2 x %d values", na);
		return -1;
	}
	for (i = 0; i < r; i++)
		begin[i] = end[i] = 0;
	for (i = 0; i < na; i++) {
		int a = norm_axis(n->n_in > 3 && m->opset >= 18 && vc_in(m, n, 3) ?
				  ax[i] : i, r);

		if (a < 0) {
			snprintf(buf, len, "axis outside the rank %d", r);
			return -1;
		}
		begin[a] = pads[i];
		end[a] = pads[i + na];
		if (begin[a] < 0 || end[a] < 0) {
			snprintf(buf, len, "negative pads (cropping) are not supported");
			return -1;
		}
		if (!strcmp(mode, "reflect") &&
		    (begin[a] > x->dims[a] - 1 || end[a] > x->dims[a] - 1)) {
			snprintf(buf, len, "reflect pads of dim %d above its size - 1", a);
			return -1;
		}
		if (!strcmp(mode, "edge") && x->dims[a] < 1) {
			snprintf(buf, len, "edge pads of an empty dim");
			return -1;
		}
	}
	return 0;
}

static const char *pad_npu(const struct vpuxc_model *m,
			   const struct vc_node *n, char *buf, size_t len)
{
	int64_t b[VPUXC_MAX_RANK], e[VPUXC_MAX_RANK];
	const char *r = data_check(m, n, 0, buf, len);
	float v;

	if (r)
		return r;
	if (!vc_in(m, n, 0)->rank) {
		snprintf(buf, len, "a scalar has nothing to pad");
		return buf;
	}
	if (pad_params(m, n, b, e, &v, buf, len))
		return buf;
	return out_check(m, n, buf, len);
}

static int pad_infer(struct vpuxc_model *m, struct vc_node *n)
{
	struct vc_value *x = vc_in(m, n, 0), *y = vc_out(m, n, 0);
	int64_t b[VPUXC_MAX_RANK], e[VPUXC_MAX_RANK];
	char buf[160];
	float v;
	int i;

	if (!x || !y || x->rank < 1 || !vc_numel(x) ||
	    pad_params(m, n, b, e, &v, buf, sizeof(buf)))
		return 0;
	y->dtype = x->dtype;
	y->rank = x->rank;
	for (i = 0; i < x->rank; i++)
		y->dims[i] = b[i] + x->dims[i] + e[i];
	return 0;
}

static int pad_lower(struct lctx *c, int node)
{
	const struct vc_node *n = &c->m->n[node];
	const struct vc_value *xv = vc_in(c->m, n, 0), *yv = vc_out(c->m, n, 0);
	int64_t b[VPUXC_MAX_RANK], e[VPUXC_MAX_RANK];
	const char *mode = vc_attr_s(n, "mode", "constant");
	char bs[64] = "", es[64] = "", why[160], val[48] = "";
	struct qprog *p = c->p;
	int x, y, ts[2], r, i;
	float v;

	if (pad_params(c->m, n, b, e, &v, why, sizeof(why))) {
		vc_unsupported(p, n, "%s", why);
		return VC_REPORTED;
	}
	x = vc_f16(c, node, xv);
	if (x < 0)
		return x;
	for (i = 0; i < xv->rank && !b[i] && !e[i]; i++)
		;
	if (i == xv->rank) {	/* nothing to pad */
		vc_set_vq(c, yv, x);
		return 0;
	}
	x = vc_f16_shave_in(c, node, x);
	if (x < 0)
		return x;
	y = vc_f16_out(c, yv, p->t[x].order);
	if (y < 0)
		return y;
	p->t[y].order = p->t[x].order;
	for (i = 0; i < xv->rank; i++) {
		snprintf(bs + strlen(bs), sizeof(bs) - strlen(bs), "%s%lld",
			 i ? "," : "", (long long)b[i]);
		snprintf(es + strlen(es), sizeof(es) - strlen(es), "%s%lld",
			 i ? "," : "", (long long)e[i]);
	}
	if (!strcmp(mode, "constant"))
		snprintf(val, sizeof(val), " value=%a", (double)v);
	ts[0] = x;
	ts[1] = y;
	r = vc_shave_f(c, node, ts, 2, "pad in=t%d out=t%d mode=%s%s begin=%s end=%s",
		       x, y, mode, val, bs, es);
	return r < 0 ? r : 0;
}

/* ---- Shape, Size: refused ---- */

static const char *shape_npu(const struct vpuxc_model *m,
			     const struct vc_node *n, char *buf, size_t len)
{
	(void)m;
	snprintf(buf, len, "%s produces int64 shape values, not FP16 data: fold it into a constant (graph passes) before lowering",
		 n->op);
	return buf;
}

static int shape_lower(struct lctx *c, int node)
{
	char buf[200];

	vc_unsupported(c->p, &c->m->n[node], "%s",
		       shape_npu(c->m, &c->m->n[node], buf, sizeof(buf)));
	return VC_REPORTED;
}

/* ---- chains of views ---- */

/* node @k's op applied to view @s */
static int apply(struct lctx *c, int k, struct sv *s)
{
	const char *op = c->m->n[k].op;

	if (!strcmp(op, "Slice"))
		return slice_apply(c, k, s);
	if (!strcmp(op, "Expand"))
		return expand_apply(c, k, s);
	if (!strcmp(op, "Gather"))
		return gather_apply(c, k, s);
	return apply_view(c, k, s);
}

/* can node @k continue a chain of views of value @v? */
static bool chainable(const struct lctx *c, int k, const struct vc_value *v)
{
	const struct vpuxc_model *m = c->m;
	const struct vc_node *n = &m->n[k];
	int64_t a, b, d;
	char why[256];

	if (c->done[k] || (*n->domain && strcmp(n->domain, "ai.onnx")) ||
	    n->in[0] != (int)(v - m->v) || vc_op_npu(m, k, why, sizeof(why)))
		return false;
	if (!strcmp(n->op, "Gather"))
		return gather_range(m, n, &a, &b, &d);
	return is_view_op(n->op) || !strcmp(n->op, "Slice") ||
	       !strcmp(n->op, "Expand");
}

/*
 * Node @node and the view ops after it (each the only use of the
 * previous one's output) as one strided view of the first input.
 */
static int chain_lower(struct lctx *c, int node)
{
	const struct vpuxc_model *m = c->m;
	const struct vc_value *yv;
	int x = vc_f16(c, node, vc_in(m, &m->n[node], 0)), k = node, r, nk;
	struct sv s;

	if (x < 0)
		return x;
	sv_of(c->p, x, &s);
	for (;;) {
		r = apply(c, k, &s);
		if (r < 0)
			return r;
		yv = vc_out(m, &m->n[k], 0);
		nk = vc_sole_use(m, yv);
		if (nk < 0 || !chainable(c, nk, yv))
			break;
		c->done[nk] = true;
		k = nk;
	}
	return finish(c, k, &s, yv);
}

#define VIEW(name) { "", name, 1, 0, NULL, view_npu, chain_lower }

const struct vc_op vc_ops_layout[] = {
	VIEW("Reshape"), VIEW("Flatten"), VIEW("Transpose"), VIEW("Identity"),
	{ "", "Squeeze", 1, 0, squeeze_infer, view_npu, chain_lower },
	{ "", "Unsqueeze", 1, 0, squeeze_infer, view_npu, chain_lower },
	{ "", "Dropout", 1, 0, cast_infer, alias_npu, alias_lower },
	{ "", "Cast", 1, 0, cast_infer, alias_npu, alias_lower },
	{ "", "CastLike", 15, 0, cast_infer, alias_npu, alias_lower },
	{ "", "Concat", 1, 0, concat_infer, concat_npu, concat_lower },
	{ "", "Split", 1, 0, split_infer, split_npu, split_lower },
	{ "", "Slice", 1, 0, slice_infer, slice_npu, chain_lower },
	{ "", "Gather", 1, 0, gather_infer, gather_npu, gather_lower },
	{ "", "Expand", 8, 0, expand_infer, expand_npu, chain_lower },
	{ "", "Pad", 1, 0, pad_infer, pad_npu, pad_lower },
	{ "", "Shape", 1, 0, NULL, shape_npu, shape_lower },
	{ "", "Size", 1, 0, NULL, shape_npu, shape_lower },
	{ 0 }
};
