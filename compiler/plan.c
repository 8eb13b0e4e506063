// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Dynamic axes (Documentation/compiler.rst, "Dynamic axes"): an ONNX
 * dim_param of a graph input or output becomes a symbol of the loadable
 * (kind axis, bounds from the compile options), and the program becomes
 * a plan (Documentation/dynamic-shapes.rst) instead of a static op list.
 *
 * The model is lowered as a static one with every dim_param at its max,
 * so buffers are laid out for max and the quantization paths are the
 * static compiler's. vc_dyn_mark() then finds the tensors that vary with
 * a symbol (the inputs that name it, and every tensor an op computes from
 * one), and vc_plan() turns the assembled program into blocks: each op
 * that touches a dynamic tensor becomes a template run once per tile of
 * the dynamic axis (tile T, a tail tile of N mod T), its offsets, sizes
 * and row counts patched with OFF(0) and LEN(0) expressions; consecutive
 * such ops of one symbol share a block (up to DLA_PLAN_MAX_BODY), so
 * tile i of layer 2 runs as soon as tile i of layer 1 is done. Other ops
 * are blocks without a loop.
 *
 * A dynamic tensor must be token-major: the dynamic axis is its
 * outermost dim of size > 1 in row-major order, so elements [off,
 * off + len) of the axis are the bytes [off * tb, (off + len) * tb).
 * Iterations run independently of each other, so the compiler keeps the
 * program out of CMX and gives every scratch tensor bytes of its own
 * (no two tiles of different tensors share bytes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dla_limits.h"
#include <drm/vpux_task.h>
#include "err.h"
#include "lf.h"
#include "lf_fields.h"
#include "lower.h"

int vpuxc_parse_symbol_bounds(char *arg, struct vpuxc_symbol_bounds *b)
{
	char *eq = strchr(arg, '='), *dots, *end;
	long long lo, hi;

	if (!eq || eq == arg || !(dots = strstr(eq + 1, "..")))
		return vpux_err(VPUX_E_INVAL,
				"symbol bounds '%s': NAME=MIN..MAX expected", arg);
	errno = 0;
	lo = strtoll(eq + 1, &end, 10);
	if (end != dots || end == eq + 1 || errno)
		return vpux_err(VPUX_E_INVAL,
				"symbol bounds '%s': MIN is not a number", arg);
	hi = strtoll(dots + 2, &end, 10);
	if (*end || end == dots + 2 || errno)
		return vpux_err(VPUX_E_INVAL,
				"symbol bounds '%s': MAX is not a number", arg);
	if (eq - arg >= 32)
		return vpux_err(VPUX_E_INVAL,
				"symbol bounds '%s': a name of at most 31 bytes expected",
				arg);
	if (lo < 1 || hi < lo || hi > 65535)
		return vpux_err(VPUX_E_INVAL,
				"symbol bounds '%s': 1 <= MIN <= MAX <= 65535 expected",
				arg);
	*eq = 0;
	b->name = arg;
	b->min = lo;
	b->max = hi;
	return 0;
}

/* ---- dim_params: bounds, one per tensor, max in place ---- */

/*
 * A dim_param that only graph outputs name, and that the options do not
 * bound, is a dim the graph determines (torch's exporter names a dim its
 * shape inference could not follow: 'Gemmoutput_dim_0'): it becomes an
 * unknown dim, for shape inference to find; the other symbols are
 * renumbered.
 */
static void drop_output_syms(struct vpuxc_model *m,
			     const struct vpuxc_options *o)
{
	unsigned int i, j, n_b = o ? o->n_bounds : 0, n = 0;
	int map[VC_MAX_SYMS], d;

	for (i = 0; i < m->n_syms; i++) {
		int keep = 0;

		for (j = 0; j < n_b && !keep; j++)
			keep = !strcmp(m->syms[i], o->bounds[j].name);
		for (j = 0; j < m->n_inputs && !keep; j++)
			for (d = 0; d < m->v[m->inputs[j]].rank; d++)
				if (m->v[m->inputs[j]].sym[d] == (int)i)
					keep = 1;
		if (keep) {
			map[i] = (int)n;
			m->syms[n++] = m->syms[i];
		} else {
			map[i] = -1;
			free(m->syms[i]);
		}
	}
	if (n == m->n_syms)
		return;
	m->n_syms = n;
	for (i = 0; i < m->n_v; i++)
		for (d = 0; d < m->v[i].rank; d++)
			if (m->v[i].sym[d] >= 0)
				m->v[i].sym[d] = (int8_t)map[m->v[i].sym[d]];
}

int vc_bind_symbols(struct vpuxc_model *m, const struct vpuxc_options *o,
		    struct vc_syms *s)
{
	unsigned int i, j, n_b = o ? o->n_bounds : 0;
	int d;

	memset(s, 0, sizeof(*s));
	drop_output_syms(m, o);
	for (j = 0; j < n_b; j++) {
		const struct vpuxc_symbol_bounds *b = &o->bounds[j];

		for (i = 0; i < m->n_syms; i++)
			if (!strcmp(m->syms[i], b->name))
				break;
		if (i == m->n_syms)
			return vpux_err(VPUX_E_INVAL,
					"symbol bounds '%s': the model has no dim_param '%s'",
					b->name, b->name);
		for (i = 0; i < j; i++)
			if (!strcmp(o->bounds[i].name, b->name))
				return vpux_err(VPUX_E_INVAL,
						"symbol bounds '%s' given twice",
						b->name);
		if (b->min < 1 || b->max < b->min || b->max > 65535)
			return vpux_err(VPUX_E_INVAL,
					"symbol bounds '%s': %lld..%lld (1 <= MIN <= MAX <= 65535 expected)",
					b->name, (long long)b->min,
					(long long)b->max);
	}
	for (i = 0; i < m->n_syms; i++) {
		for (j = 0; j < n_b; j++)
			if (!strcmp(m->syms[i], o->bounds[j].name))
				break;
		if (j == n_b) {
			const char *vn = "?";
			unsigned int k;

			for (k = 0; k < m->n_v && !strcmp(vn, "?"); k++)
				for (d = 0; d < m->v[k].rank; d++)
					if (m->v[k].sym[d] == (int)i)
						vn = m->v[k].name;
			return vpux_err(VPUX_E_INVAL,
					"dim_param '%s' (of '%s') has no bounds: compile with --symbol-bounds %s=MIN..MAX",
					m->syms[i], vn, m->syms[i]);
		}
		s->name[i] = m->syms[i];
		s->min[i] = o->bounds[j].min;
		s->max[i] = o->bounds[j].max;
	}
	s->n = m->n_syms;
	s->tile = o && o->tile ? o->tile : VPUXC_DEFAULT_TILE;
	if (s->tile > 65535)
		return vpux_err(VPUX_E_INVAL, "tile %u above 65535", s->tile);
	for (i = 0; i < m->n_v; i++) {
		struct vc_value *v = &m->v[i];
		int first = -1;

		for (d = 0; d < v->rank; d++) {
			if (v->sym[d] < 0)
				continue;
			if (first >= 0)
				return vpux_err(VPUX_E_UNSUPPORTED,
						"'%s': dims %d and %d are both dim_params (one dynamic axis per tensor)",
						v->name, first, d);
			first = d;
			v->dims[d] = s->max[v->sym[d]];
		}
	}
	return 0;
}

/* ---- which tensors are dynamic ---- */

static int root_of(const struct qprog *p, int t)
{
	while (p->t[t].alias >= 0)
		t = p->t[t].alias;
	return t;
}

static const char *node_name(const struct qprog *p, int node, char *buf,
			     size_t len)
{
	if (node < 0)
		snprintf(buf, len, "the output copy");
	else
		snprintf(buf, len, "%s '%s'", p->m->n[node].op,
			 p->m->n[node].name);
	return buf;
}

int vc_dyn_mark(struct qprog *p)
{
	const struct vpuxc_model *m = p->m;
	unsigned int i, k, j;
	char nb[160];
	int d;

	if (!p->syms.n)
		return 0;
	for (i = 0; i < p->n_in; i++) {
		const struct vc_value *v = &m->v[p->in_v[i]];

		if (p->in_q[i] < 0)
			continue;
		for (d = 0; d < v->rank; d++)
			if (v->sym[d] >= 0)
				p->t[root_of(p, p->in_q[i])].sym = v->sym[d];
	}
	/* in program order: an op's output varies with its inputs */
	for (k = 0; k < p->nop; k++) {
		const struct qop *o = &p->op[k];
		int ins[2] = { -1, -1 }, out = -1, s = -1;

		if (o->kind == QOP_DPU && o->dpu) {
			ins[0] = o->dpu->t[QD_IN];
			ins[1] = o->dpu->t[QD_IN2];
			out = o->dpu->t[QD_OUT];
		} else if (o->nt == 2) {	/* DMA and SHAVE: (src, dst) */
			ins[0] = o->t[0];
			out = o->t[1];
		}
		for (j = 0; j < 2; j++) {
			int r = ins[j] >= 0 ? p->t[root_of(p, ins[j])].sym : -1;

			if (r < 0)
				continue;
			if (s >= 0 && r != s)
				return vpux_err(VPUX_E_UNSUPPORTED,
						"%s: operands along two dynamic axes ('%s' and '%s')",
						node_name(p, o->node, nb, sizeof(nb)),
						p->syms.name[s], p->syms.name[r]);
			s = r;
		}
		if (s >= 0 && out >= 0)
			p->t[root_of(p, out)].sym = s;
	}
	/* the dynamic axis of each tensor: outermost, row-major */
	for (i = 0; i < p->nt; i++) {
		struct qt *t = &p->t[i];
		int s = p->t[root_of(p, (int)i)].sym;

		t->sym = s;
		if (s < 0)
			continue;
		t->dyn_dim = -2;
		if (t->rank > 1 && t->order != vpux_order_default(t->rank).code)
			continue;
		for (d = 0; d < (int)t->rank; d++) {
			if (t->dims[d] == p->syms.max[s]) {
				t->dyn_dim = d;
				break;
			}
			if (t->dims[d] != 1)
				break;
		}
	}
	/* graph inputs and outputs: where the model declares the dim_param */
	for (k = 0; k < 2; k++) {
		unsigned int n = k ? p->n_out : p->n_in;

		for (i = 0; i < n; i++) {
			int q = k ? p->out_q[i] : p->in_q[i];
			const struct vc_value *v = &m->v[k ? p->out_v[i] : p->in_v[i]];
			int decl = -1;

			if (q < 0)
				continue;
			for (d = 0; d < v->rank; d++)
				if (v->sym[d] >= 0)
					decl = d;
			if (p->t[q].sym < 0 && decl < 0)
				continue;
			if (decl < 0)
				return vpux_err(VPUX_E_UNSUPPORTED,
						"graph output '%s' varies with dim_param '%s': declare its dim as that dim_param",
						v->name, p->syms.name[p->t[q].sym]);
			if (p->t[q].sym != v->sym[decl])
				return vpux_err(VPUX_E_UNSUPPORTED,
						"graph %s '%s': dim %d is dim_param '%s', but the tensor varies %s%s%s",
						k ? "output" : "input", v->name, decl,
						p->syms.name[v->sym[decl]],
						p->t[q].sym < 0 ? "with no dim_param" :
						"with dim_param '",
						p->t[q].sym < 0 ? "" :
						p->syms.name[p->t[q].sym],
						p->t[q].sym < 0 ? "" : "'");
			if (p->t[q].dyn_dim != decl || (int)p->t[q].rank != v->rank)
				return vpux_err(VPUX_E_UNSUPPORTED,
						"graph %s '%s': dim %d is dim_param '%s': only the outermost dim of size > 1 may be dynamic",
						k ? "output" : "input", v->name, decl,
						p->syms.name[v->sym[decl]]);
		}
	}
	return 0;
}

/* ---- the plan ---- */

struct pctx {
	struct qprog *p;
	struct lf_image *img;
	struct vpux_lf_plan_block *blk;
	unsigned int nblk;
	struct vpux_lf_plan_template *tpl;
	unsigned int ntpl;
	struct vpux_lf_plan_patch *pat;
	unsigned int npat;
	uint32_t *ex;
	unsigned int nex, capex;
	int cur_sym;		/* -2: no open block; -1: a static block */
	char nb[160];		/* the current op's node, for messages */
};

#define PCTX_MAX_PATCHES (DLA_PLAN_MAX_TEMPLATES * DLA_PLAN_MAX_PATCHES)

/* the qt a loadable tensor was emitted from (named t<id>), or -1 */
static int qt_of(const struct pctx *c, uint32_t ti)
{
	const char *nm;
	char *end;
	long v;

	if (ti >= c->img->n_tensors)
		return -1;
	nm = c->img->tensors[ti].name;
	if (nm[0] != 't')
		return -1;
	v = strtol(nm + 1, &end, 10);
	return *end || end == nm + 1 || v < 0 || v >= (long)c->p->nt ? -1 : (int)v;
}

static int ref_sym(const struct pctx *c, const struct vpux_lf_ref *r)
{
	int q = r->size ? qt_of(c, r->tensor) : -1;

	return q >= 0 ? c->p->t[q].sym : -1;
}

/* the refs of op @i of @kind; @w[k] 1 if the op writes ref k */
static unsigned int op_refs(const struct lf_image *img, unsigned int kind,
			    uint32_t i, struct vpux_lf_ref **r, int *w)
{
	unsigned int n = 0, k;

	if (kind == LF_DMA) {
		r[n] = &img->dma[i].src;
		w[n++] = 0;
		r[n] = &img->dma[i].dst;
		w[n++] = 1;
	} else if (kind == LF_DPU) {
		struct vpux_lf_dpu *d = &img->dpu[i];

		r[n] = &d->in;
		w[n++] = 0;
		r[n] = &d->in2;
		w[n++] = 0;
		r[n] = &d->bias;
		w[n++] = 0;
		r[n] = &d->quant;
		w[n++] = 0;
		r[n] = &d->out;
		w[n++] = 1;
	} else {
		for (k = 0; k < VPUX_LF_MAX_WINDOWS; k++) {
			r[n] = &img->shave[i].windows[k];
			w[n++] = 1;	/* a kernel's windows: in or out */
		}
	}
	return n;
}

/* 1 if op (ka, a) must wait for op (kb, b): bytes in common, one writes */
static int conflict(const struct lf_image *img, unsigned int ka, uint32_t a,
		    unsigned int kb, uint32_t b)
{
	struct vpux_lf_ref *ra[VPUX_LF_MAX_WINDOWS], *rb[VPUX_LF_MAX_WINDOWS];
	int wa[VPUX_LF_MAX_WINDOWS], wb[VPUX_LF_MAX_WINDOWS];
	unsigned int na = op_refs(img, ka, a, ra, wa), nb = op_refs(img, kb, b, rb, wb);
	unsigned int i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			const struct vpux_lf_tensor *ta, *tb;
			uint64_t a0, a1, b0, b1;

			if (!ra[i]->size || !rb[j]->size || !(wa[i] || wb[j]))
				continue;
			ta = &img->tensors[ra[i]->tensor];
			tb = &img->tensors[rb[j]->tensor];
			if (ta->region != tb->region)
				continue;
			a0 = ta->offset + ra[i]->offset;
			a1 = a0 + ra[i]->size;
			b0 = tb->offset + rb[j]->offset;
			b1 = b0 + rb[j]->size;
			if (a0 < b1 && b0 < a1)
				return 1;
		}
	return 0;
}

/* append an expression (shared with an equal one already there) */
static int expr_add(struct pctx *c, const uint32_t *w, unsigned int n,
		    uint32_t *at)
{
	unsigned int i;

	for (i = 0; i + n <= c->nex; i++)
		if (!memcmp(&c->ex[i], w, n * sizeof(*w))) {
			*at = i;
			return 0;
		}
	if (c->nex + n > c->capex) {
		unsigned int cap = c->capex ? c->capex * 2 : 256;
		uint32_t *e = realloc(c->ex, cap * sizeof(*e));

		if (!e)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		c->ex = e;
		c->capex = cap;
	}
	memcpy(&c->ex[c->nex], w, n * sizeof(*w));
	*at = c->nex;
	c->nex += n;
	return 0;
}

/* patch field @name of the last template with @op(0) * @k */
static int patch(struct pctx *c, unsigned int kind, const char *name,
		 uint32_t op, uint64_t k)
{
	const struct lf_field *f = lf_field_by_name(kind, name);
	struct vpux_lf_plan_template *t = &c->tpl[c->ntpl - 1];
	struct vpux_lf_plan_patch *pt;
	uint32_t w[4];
	unsigned int n = 0;
	int ret;

	if (!f || k > UINT32_MAX)
		return vpux_err(VPUX_E_INVAL,
				"compiler: internal error: patch of %s by %llu",
				name, (unsigned long long)k);
	if (t->n_patches == DLA_PLAN_MAX_PATCHES || c->npat == PCTX_MAX_PATCHES)
		return vpux_err(VPUX_E_UNSUPPORTED, "%s: more than %u patches",
				c->nb, DLA_PLAN_MAX_PATCHES);
	w[n++] = DLA_EXPR_TOKEN(op, 0);
	if (k != 1 && k <= 0xffffffu) {
		w[n++] = DLA_EXPR_TOKEN(DLA_EXPR_MUL + DLA_EXPR_IMM, (uint32_t)k);
	} else if (k != 1) {
		w[n++] = DLA_EXPR_TOKEN(DLA_EXPR_CONST32, 0);
		w[n++] = (uint32_t)k;
		w[n++] = DLA_EXPR_TOKEN(DLA_EXPR_MUL, 0);
	}
	pt = &c->pat[c->npat++];
	memset(pt, 0, sizeof(*pt));
	pt->field = f->id;
	pt->len = n;
	ret = expr_add(c, w, n, &pt->expr);
	t->n_patches++;
	return ret;
}

/* patch a whole-tensor ref to the tile: offset OFF * tb, size LEN * tb */
static int patch_ref(struct pctx *c, unsigned int kind, const char *name,
		     const struct vpux_lf_ref *r, int64_t max, int need_dyn)
{
	const struct vpux_lf_tensor *t = &c->img->tensors[r->tensor];
	int q = qt_of(c, r->tensor);
	char f[32];
	uint64_t tb;
	int ret;

	if (need_dyn && (q < 0 || c->p->t[q].dyn_dim < 0))
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: operand '%s' does not have the dynamic axis outermost (a layout change or reshape along it?)",
				c->nb, name);
	if (r->offset || r->size != t->size || t->size % (uint64_t)max)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: operand '%s' is a part of its tensor along the dynamic axis",
				c->nb, name);
	tb = t->size / (uint64_t)max;
	snprintf(f, sizeof(f), "%s.offset", name);
	ret = patch(c, kind, f, DLA_EXPR_OFF, tb);
	snprintf(f, sizeof(f), "%s.size", name);
	return ret ? ret : patch(c, kind, f, DLA_EXPR_LEN, tb);
}

static int open_block(struct pctx *c, int sym)
{
	struct vpux_lf_plan_block *b;
	uint32_t w = DLA_EXPR_TOKEN(DLA_EXPR_SYM, (uint32_t)(sym < 0 ? 0 : sym));
	int64_t max = sym >= 0 ? c->p->syms.max[sym] : 0;
	int ret;

	if (c->nblk == DLA_PLAN_MAX_BLOCKS)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: the plan needs more than %u blocks (too many layers for one plan)",
				c->nb, DLA_PLAN_MAX_BLOCKS);
	b = &c->blk[c->nblk++];
	memset(b, 0, sizeof(*b));
	b->first_template = c->ntpl;
	c->cur_sym = sym;
	if (sym < 0)
		return 0;
	b->depth = 1;
	b->loop[0].extent_len = 1;
	b->loop[0].tile = c->p->syms.tile < max ? c->p->syms.tile : (uint32_t)max;
	ret = expr_add(c, &w, 1, &b->loop[0].extent);
	return ret;
}

static int add_template(struct pctx *c, unsigned int kind, uint32_t idx,
			int sym)
{
	struct vpux_lf_plan_block *b;
	struct vpux_lf_plan_template *t;
	unsigned int j;
	int ret;

	if (c->cur_sym != sym ||
	    c->blk[c->nblk - 1].n_templates == DLA_PLAN_MAX_BODY) {
		ret = open_block(c, sym);
		if (ret)
			return ret;
	}
	if (c->ntpl == DLA_PLAN_MAX_TEMPLATES)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: the plan needs more than %u op templates (too many layers for one plan)",
				c->nb, DLA_PLAN_MAX_TEMPLATES);
	b = &c->blk[c->nblk - 1];
	t = &c->tpl[c->ntpl++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->op = idx;
	t->first_patch = c->npat;
	for (j = 0; j < b->n_templates; j++) {
		const struct vpux_lf_plan_template *e = &c->tpl[b->first_template + j];

		if (conflict(c->img, e->kind, e->op, kind, idx))
			t->wait_mask |= 1u << j;
	}
	b->n_templates++;
	return 0;
}

static int dyn_dpu(struct pctx *c, uint32_t i, int sym)
{
	struct vpux_lf_dpu *d = &c->img->dpu[i];
	int64_t max = c->p->syms.max[sym];
	uint32_t tile = c->blk[c->nblk - 1].loop[0].tile;
	int elt = d->op == VPUX_DPU_OP_ADD || d->op == VPUX_DPU_OP_MUL;
	uint64_t rows;
	int ret;

	if (d->op != VPUX_DPU_OP_MATMUL && !elt)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: a %s over the dynamic axis '%s' is not supported (element-wise Add/Mul and MatMul/Gemm with a constant B are)",
				c->nb, d->op == VPUX_DPU_OP_CONV ? "convolution" :
				"pooling", c->p->syms.name[sym]);
	if (!elt && ref_sym(c, &d->in2) >= 0)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: B varies along the dynamic axis '%s' (a constant B is needed)",
				c->nb, c->p->syms.name[sym]);
	if (d->in_w != 1 || d->out_w != 1 || d->in_h != d->out_h ||
	    d->in_h % max)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: its rows do not follow the dynamic axis '%s'",
				c->nb, c->p->syms.name[sym]);
	rows = d->in_h / (uint64_t)max;
	if (rows * tile > 65535)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: a tile of %u has %llu rows, above the DPU's 65535 (compile with a smaller --tile)",
				c->nb, tile, (unsigned long long)(rows * tile));
	ret = patch_ref(c, LF_DPU, "in", &d->in, max, 1);
	if (!ret && elt)
		ret = patch_ref(c, LF_DPU, "in2", &d->in2, max, 0);
	ret = ret ? ret : patch_ref(c, LF_DPU, "out", &d->out, max, 1);
	ret = ret ? ret : patch(c, LF_DPU, "in_h", DLA_EXPR_LEN, rows);
	return ret ? ret : patch(c, LF_DPU, "out_h", DLA_EXPR_LEN, rows);
}

static int dyn_dma(struct pctx *c, uint32_t i, int sym)
{
	struct vpux_lf_dma *d = &c->img->dma[i];
	int64_t max = c->p->syms.max[sym];
	uint64_t tb;
	int ret;

	if (d->count[0] > 1 || d->count[1] > 1 || d->count[2] > 1 ||
	    d->src.size != d->len || d->dst.size != d->len ||
	    d->len % (uint64_t)max)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: a strided copy (layout change) of a tensor along the dynamic axis '%s' is not supported",
				c->nb, c->p->syms.name[sym]);
	tb = d->len / (uint64_t)max;
	ret = patch_ref(c, LF_DMA, "src", &d->src, max, 1);
	ret = ret ? ret : patch_ref(c, LF_DMA, "dst", &d->dst, max, 1);
	return ret ? ret : patch(c, LF_DMA, "len", DLA_EXPR_LEN, tb);
}

int vc_plan(struct qprog *p, struct lf_image *img)
{
	struct pctx c;
	unsigned int k, i, j, cnt[LF_KINDS] = { 0 };
	int ret = 0;

	memset(&c, 0, sizeof(c));
	c.p = p;
	c.img = img;
	c.cur_sym = -2;
	for (k = 0; k < p->nop; k++)
		cnt[p->op[k].kind]++;
	if (cnt[QOP_DMA] != img->n_dma || cnt[QOP_DPU] != img->n_dpu ||
	    cnt[QOP_SHAVE] != img->n_shave)
		return vpux_err(VPUX_E_INVAL,
				"compiler: internal error: %u/%u/%u ops assembled into %u/%u/%u records",
				cnt[0], cnt[1], cnt[2], img->n_dma, img->n_dpu,
				img->n_shave);
	c.blk = calloc(DLA_PLAN_MAX_BLOCKS, sizeof(*c.blk));
	c.tpl = calloc(DLA_PLAN_MAX_TEMPLATES, sizeof(*c.tpl));
	c.pat = calloc(PCTX_MAX_PATCHES, sizeof(*c.pat));
	if (!c.blk || !c.tpl || !c.pat) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto fail;
	}
	memset(cnt, 0, sizeof(cnt));
	for (k = 0; !ret && k < p->nop; k++) {
		unsigned int kind = (unsigned int)p->op[k].kind;
		uint32_t idx = cnt[kind]++;
		struct vpux_lf_ref *r[VPUX_LF_MAX_WINDOWS];
		int w[VPUX_LF_MAX_WINDOWS], sym = -1;
		unsigned int nr = op_refs(img, kind, idx, r, w);

		node_name(p, p->op[k].node, c.nb, sizeof(c.nb));
		for (i = 0; i < nr; i++) {
			int s = ref_sym(&c, r[i]);

			if (s < 0)
				continue;
			if (sym >= 0 && s != sym) {
				ret = vpux_err(VPUX_E_UNSUPPORTED,
					       "%s: operands along two dynamic axes",
					       c.nb);
				break;
			}
			sym = s;
		}
		if (ret)
			break;
		if (sym >= 0 && kind == LF_SHAVE) {
			ret = vpux_err(VPUX_E_UNSUPPORTED,
				       "%s: a SHAVE kernel over the dynamic axis '%s' is not supported (its dims are in its argument record)",
				       c.nb, p->syms.name[sym]);
			break;
		}
		ret = add_template(&c, kind, idx, sym);
		if (!ret && sym >= 0)
			ret = kind == LF_DPU ? dyn_dpu(&c, idx, sym) :
			      dyn_dma(&c, idx, sym);
	}
	if (ret)
		goto fail;
	/* symbols, dynamic dims, no barriers, every op one template */
	free(img->symbols);
	img->symbols = calloc(p->syms.n, sizeof(*img->symbols));
	if (!img->symbols) {
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		goto fail;
	}
	img->n_symbols = p->syms.n;
	for (i = 0; i < p->syms.n; i++) {
		struct vpux_lf_symbol *s = &img->symbols[i];

		snprintf(s->name, sizeof(s->name), "%s", p->syms.name[i]);
		s->kind = VPUX_LF_SYM_AXIS;
		s->min = p->syms.min[i];
		s->max = p->syms.max[i];
		s->hash = lf_fnv1a(s->name);
		s->width = 8;
	}
	for (i = 0; i < img->n_tensors; i++) {
		int q = qt_of(&c, i);

		if (q < 0 || p->t[q].sym < 0 || p->t[q].dyn_dim < 0)
			continue;
		j = (unsigned int)p->t[q].dyn_dim;
		img->tensors[i].dyn_dims |= 1u << j;
		img->tensors[i].dims[j] = (uint32_t)p->t[q].sym;
	}
	img->n_barriers = 0;
	for (i = 0; i < img->n_dma; i++)
		memset(&img->dma[i].deps, 0, sizeof(img->dma[i].deps));
	for (i = 0; i < img->n_dpu; i++)
		memset(&img->dpu[i].deps, 0, sizeof(img->dpu[i].deps));
	for (i = 0; i < img->n_shave; i++)
		memset(&img->shave[i].deps, 0, sizeof(img->shave[i].deps));
	img->blocks = c.blk;
	img->n_blocks = c.nblk;
	img->templates = c.tpl;
	img->n_templates = c.ntpl;
	img->patches = c.pat;
	img->n_patches = c.npat;
	img->expr = c.ex;
	img->n_expr = c.nex;
	p->plan_blocks = c.nblk;
	p->plan_templates = c.ntpl;
	p->plan_patches = c.npat;
	return 0;
fail:
	free(c.blk);
	free(c.tpl);
	free(c.pat);
	free(c.ex);
	return ret;
}

void vc_plan_free(struct lf_image *img)
{
	free(img->blocks);
	free(img->templates);
	free(img->patches);
	free(img->expr);
	img->blocks = NULL;
	img->templates = NULL;
	img->patches = NULL;
	img->expr = NULL;
	img->n_blocks = img->n_templates = img->n_patches = img->n_expr = 0;
}
