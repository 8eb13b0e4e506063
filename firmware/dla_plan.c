// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Plans (Documentation/dynamic-shapes.rst): loops over op templates whose
 * fields are expressions over the request's symbols. dla_plan_prepare()
 * reads the plan and the symbol buffer once, without the port's lock,
 * checks them (and the first and last iteration of every block as static
 * ops) and resolves every address-list entry the templates name. Under
 * the lock, dla_plan_start() and dla_plan_complete() expand ops into a
 * window of DLA_PLAN_WINDOW slots, each built and checked by the builder
 * of static ops, and stall when the window is full: the memory does not
 * depend on the loop counts, and task memory is not read.
 */
#include "dla_priv.h"

#define DLA_W_MASK	(DLA_PLAN_WINDOW - 1u)

static __attribute__((__cold__))
dla_s32 dla_plan_fail(const char *what, dla_u32 i, const char *field,
		      dla_s32 err)
{
	dla_error("dla: task: plan %s %u: field %s: error %d\n", what, i,
		  field, -err);
	return err;
}

/* Byte offsets of a kind's buffer references in its op record. */
static const dla_u16 dla_dma_refs[] = {
	__builtin_offsetof(struct dla_dma_op, src),
	__builtin_offsetof(struct dla_dma_op, dst),
};
static const dla_u16 dla_dpu_refs[] = {
	__builtin_offsetof(struct dla_dpu_op, in),
	__builtin_offsetof(struct dla_dpu_op, in2),
	__builtin_offsetof(struct dla_dpu_op, bias),
	__builtin_offsetof(struct dla_dpu_op, quant),
	__builtin_offsetof(struct dla_dpu_op, out),
};
static const dla_u16 dla_shave_refs[] = {
	__builtin_offsetof(struct dla_shave_op, args),
	__builtin_offsetof(struct dla_shave_op, windows[0]),
	__builtin_offsetof(struct dla_shave_op, windows[1]),
	__builtin_offsetof(struct dla_shave_op, windows[2]),
	__builtin_offsetof(struct dla_shave_op, windows[3]),
	__builtin_offsetof(struct dla_shave_op, windows[4]),
	__builtin_offsetof(struct dla_shave_op, windows[5]),
	__builtin_offsetof(struct dla_shave_op, windows[6]),
	__builtin_offsetof(struct dla_shave_op, windows[7]),
};
static const dla_u16 dla_elf_refs[] = {
	__builtin_offsetof(struct dla_shave_task_op, args),
	__builtin_offsetof(struct dla_shave_task_op, code),
	__builtin_offsetof(struct dla_shave_task_op, data),
	__builtin_offsetof(struct dla_shave_task_op, win_f),
	__builtin_offsetof(struct dla_shave_task_op, runtime),
};

/* Is @rec (a template's record of @kind) an ELF kernel task? */
static int dla_is_elf(dla_u32 kind, const union dla_op_rec *rec)
{
	return kind == DLA_OP_SHAVE &&
	       rec->shave.kernel_id == VPUX_SHAVE_KERNEL_ELF;
}

/* The buffer references of @rec: by its kind, a SHAVE one by its layout. */
static const dla_u16 *dla_refs(dla_u32 kind, const union dla_op_rec *rec,
			       dla_u32 *n)
{
	if (dla_is_elf(kind, rec)) {
		*n = DLA_ARRAY_SIZE(dla_elf_refs);
		return dla_elf_refs;
	}
	if (kind == DLA_OP_DMA) {
		*n = DLA_ARRAY_SIZE(dla_dma_refs);
		return dla_dma_refs;
	}
	if (kind == DLA_OP_DPU) {
		*n = DLA_ARRAY_SIZE(dla_dpu_refs);
		return dla_dpu_refs;
	}
	*n = DLA_ARRAY_SIZE(dla_shave_refs);
	return dla_shave_refs;
}

/*
 * Check an expression: known tokens, the stack never under- or
 * overflowing, one value left, symbol ids below @n_sym, loop levels
 * below @depth (@depth 0: no loop value at all, an extent).
 */
static dla_s32 dla_expr_check(const struct dla_plan_rt *pl, dla_u32 at,
			      dla_u32 len, dla_u32 n_sym, dla_u32 depth)
{
	dla_u32 sp = 0, i;

	if (!len || len > DLA_PLAN_MAX_EXPR || at > pl->expr_words ||
	    len > pl->expr_words - at)
		return -DLA_ERR_PLAN_EXPR;
	for (i = 0; i < len; i++) {
		dla_u32 tok = pl->expr[at + i];
		dla_u32 op = DLA_EXPR_OP(tok), arg = DLA_EXPR_ARG(tok);

		switch (op) {
		case DLA_EXPR_CONST32:
			if (arg || ++i >= len)
				return -DLA_ERR_PLAN_EXPR;
			/* fall through */
		case DLA_EXPR_CONST:
			break;
		case DLA_EXPR_SYM:
			if (arg >= n_sym)
				return -DLA_ERR_PLAN_EXPR;
			break;
		case DLA_EXPR_IDX:
		case DLA_EXPR_OFF:
		case DLA_EXPR_LEN:
			if (arg >= depth)
				return -DLA_ERR_PLAN_EXPR;
			break;
		case DLA_EXPR_ADD:
		case DLA_EXPR_SUB:
		case DLA_EXPR_MUL:
		case DLA_EXPR_DIV:
		case DLA_EXPR_MOD:
		case DLA_EXPR_MIN:
		case DLA_EXPR_MAX:
		case DLA_EXPR_CDIV:
			if (arg || sp < 2)
				return -DLA_ERR_PLAN_EXPR;
			sp -= 2;
			break;
		case DLA_EXPR_ADD + DLA_EXPR_IMM:
		case DLA_EXPR_SUB + DLA_EXPR_IMM:
		case DLA_EXPR_MUL + DLA_EXPR_IMM:
		case DLA_EXPR_DIV + DLA_EXPR_IMM:
		case DLA_EXPR_MOD + DLA_EXPR_IMM:
		case DLA_EXPR_MIN + DLA_EXPR_IMM:
		case DLA_EXPR_MAX + DLA_EXPR_IMM:
		case DLA_EXPR_CDIV + DLA_EXPR_IMM:
			if (sp < 1)
				return -DLA_ERR_PLAN_EXPR;
			sp -= 1;
			break;
		default:
			return -DLA_ERR_PLAN_EXPR;
		}
		if (++sp > DLA_PLAN_STACK)
			return -DLA_ERR_PLAN_EXPR;
	}
	return sp == 1 ? 0 : -DLA_ERR_PLAN_EXPR;
}

/*
 * Evaluate a checked expression with loop values @var (IDX, OFF, LEN
 * per level). Unsigned 32-bit, every step checked; the top of the stack
 * is kept in @a (this runs for every patch of every expanded op).
 */
static inline __attribute__((__always_inline__))
dla_s32 dla_expr_eval(const struct dla_plan_rt *pl, dla_u32 at, dla_u32 len,
		      const dla_u32 *var, dla_u32 *out)
{
	const dla_u32 *x = pl->expr + at, *end = x + len;
	dla_u32 st[DLA_PLAN_STACK];
	dla_u32 sp = 0, a = 0, b;

	for (; x < end; x++) {
		dla_u32 tok = *x, op = DLA_EXPR_OP(tok), arg = DLA_EXPR_ARG(tok);

		if (op < DLA_EXPR_ADD) {
			st[sp++] = a;	/* st[0]: a dummy below the bottom */
			/* loop values first: the common case */
			a = op >= DLA_EXPR_IDX ? var[arg * 3 + (op - DLA_EXPR_IDX)] :
			    op == DLA_EXPR_CONST ? arg :
			    op == DLA_EXPR_SYM ? pl->sym[arg] : *++x;
			continue;
		}
		if (op >= DLA_EXPR_ADD + DLA_EXPR_IMM) {
			b = arg;
			op -= DLA_EXPR_IMM;
		} else {
			b = a;
			a = st[--sp];
		}
		switch (op) {
		case DLA_EXPR_ADD:
			if (__builtin_add_overflow(a, b, &a))
				return -DLA_ERR_EXPR_OVERFLOW;
			break;
		case DLA_EXPR_SUB:
			if (__builtin_sub_overflow(a, b, &a))
				return -DLA_ERR_EXPR_OVERFLOW;
			break;
		case DLA_EXPR_MUL:
			if (__builtin_mul_overflow(a, b, &a))
				return -DLA_ERR_EXPR_OVERFLOW;
			break;
		case DLA_EXPR_MIN:
			a = a < b ? a : b;
			break;
		case DLA_EXPR_MAX:
			a = a > b ? a : b;
			break;
		default:	/* DIV, MOD, CDIV: 32-bit division only */
			if (!b)
				return -DLA_ERR_EXPR_DIV0;
			a = op == DLA_EXPR_DIV ? a / b :
			    op == DLA_EXPR_MOD ? a % b :
			    a / b + (a % b != 0);
			break;
		}
	}
	*out = a;
	return 0;
}

/* Loop values of level @l at tile index @i of block @bk. */
static void dla_plan_var(const struct dla_plan_blk *bk, dla_u32 l, dla_u32 i,
			 dla_u32 *var)
{
	dla_u32 off = i * bk->tile[l];	/* i < count: off < extent */
	dla_u32 rest = bk->extent[l] - off;

	var[l * 3] = i;
	var[l * 3 + 1] = off;
	var[l * 3 + 2] = rest < bk->tile[l] ? rest : bk->tile[l];
}

/*
 * Instantiate template @j of block @b at the loop values @var: apply its
 * patches to its record, build and check it into @desc as a static op
 * (dla_op_build, index @seq). The record is the plan's copy in the
 * prepared task: a patch rewrites its field at every instance and no
 * other field changes, so it is patched in place, not copied.
 */
static dla_s32 dla_plan_build(struct dla_plan_rt *pl, struct dla_prep *p,
			      dla_u32 b, dla_u32 j, const dla_u32 *var,
			      dla_u32 seq, dla_u64 *desc)
{
	const struct dla_plan_tpl *tp = &pl->tpl[pl->blk[b].first + j];
	const struct dla_plan_patch *pa = tp->patch;
	union dla_op_rec *rec = tp->rec;
	dla_u32 i, v;
	dla_s32 ret;

	for (i = 0; i < tp->n_patches; i++, pa++) {
		ret = dla_expr_eval(pl, pa->expr, pa->len, var, &v);
		if (ret)
			return dla_op_fail(tp->kind, seq, "plan patch", ret);
		if (pa->width == 4) {
			rec->all[pa->offset >> 2] = v;
		} else {
			if (v > 0xffffu)
				return dla_op_fail(tp->kind, seq, "plan patch",
						   -DLA_ERR_EXPR_OVERFLOW);
			rec->half[pa->offset >> 1] = (dla_u16)v;
		}
	}
	return dla_op_build(p, tp->kind, seq, rec, desc);
}

/* Symbols (rule 3): the request's values, within 32 bits and bounds. */
static dla_s32 dla_plan_symbols(struct dla_prep *p, struct dla_plan_rt *pl,
				const struct dla_task_desc *d,
				const struct dla_plan_symbol *sy, dla_u32 n)
{
	dla_u64 v[DLA_PLAN_MAX_SYMBOLS];
	struct dla_address a;
	dla_u32 i;

	if (!n)
		return 0;
	if (dla_get_dma_address(p->drv, p->task_data, (dla_s16)d->sym_index,
				&a, DESTINATION_DMA))
		return dla_plan_fail("symbols", d->sym_index, "sym_index",
				     -DLA_ERR_ADDR_INDEX);
	if (a.size < n * 8u ||
	    dla_data_read(p->drv, p->task_data, d->sym_index, v, n * 8u, 0))
		return dla_plan_fail("symbols", d->sym_index, "size",
				     -DLA_ERR_PLAN_SYMBOL);
	for (i = 0; i < n; i++) {
		if (sy[i].min > sy[i].max)
			return dla_plan_fail("symbol", i, "max",
					     -DLA_ERR_PLAN_FORMAT);
		if (v[i] < sy[i].min || v[i] > sy[i].max)
			return dla_plan_fail("symbol", i, "value",
					     -DLA_ERR_PLAN_SYMBOL);
		pl->sym[i] = (dla_u32)v[i];
	}
	pl->n_sym = n;
	pl->sym_index = d->sym_index;
	return 0;
}

/* Blocks (rule 4): depth, body, extents, counts; returns ops in all. */
static dla_s32 dla_plan_blocks(struct dla_plan_rt *pl,
			       const struct dla_plan_block *bl,
			       dla_u32 n_sym, dla_u32 n_tpl, dla_u32 *total)
{
	dla_u64 sum = 0;
	dla_u32 b, l;
	dla_s32 ret;

	for (b = 0; b < pl->n_blocks; b++) {
		const struct dla_plan_block *s = &bl[b];
		struct dla_plan_blk *bk = &pl->blk[b];
		dla_u64 ops;

		if (s->depth > DLA_PLAN_MAX_DEPTH)
			return dla_plan_fail("block", b, "depth",
					     -DLA_ERR_PLAN_DEPTH);
		if (s->reserved)
			return dla_plan_fail("block", b, "reserved",
					     -DLA_ERR_PLAN_FORMAT);
		if (!s->n_templates || s->n_templates > DLA_PLAN_MAX_BODY ||
		    s->first_template >= n_tpl ||
		    s->n_templates > n_tpl - s->first_template)
			return dla_plan_fail("block", b, "n_templates",
					     -DLA_ERR_PLAN_FORMAT);
		bk->depth = s->depth;
		bk->first = s->first_template;
		bk->n = s->n_templates;
		bk->empty = 0;
		ops = bk->n;
		for (l = 0; l < DLA_PLAN_MAX_DEPTH; l++) {
			const struct dla_plan_loop *lp = &s->loop[l];

			bk->extent[l] = bk->tile[l] = bk->count[l] = 0;
			if (l >= s->depth) {
				if (lp->extent || lp->len || lp->tile)
					return dla_plan_fail("block", b, "loop",
							     -DLA_ERR_PLAN_FORMAT);
				continue;
			}
			if (!lp->tile)
				return dla_plan_fail("block", b, "tile",
						     -DLA_ERR_PLAN_FORMAT);
			ret = dla_expr_check(pl, lp->extent, lp->len, n_sym, 0);
			if (!ret)
				ret = dla_expr_eval(pl, lp->extent, lp->len,
						    NULL, &bk->extent[l]);
			if (ret)
				return dla_plan_fail("block", b, "extent", ret);
			bk->tile[l] = lp->tile;
			bk->count[l] = bk->extent[l] / lp->tile +
				       (bk->extent[l] % lp->tile != 0);
			if (!bk->count[l])
				bk->empty = 1;
			/* ops < 2^24 * 2^32 before this step: no overflow */
			ops *= bk->count[l];
			if (ops > DLA_PLAN_MAX_EXPANDED)
				return dla_plan_fail("block", b, "count",
						     -DLA_ERR_PLAN_COUNT);
		}
		sum += bk->empty ? 0 : ops;
		if (sum > DLA_PLAN_MAX_EXPANDED)
			return dla_plan_fail("block", b, "count",
					     -DLA_ERR_PLAN_COUNT);
	}
	if (!sum)
		return dla_plan_fail("block", 0, "count", -DLA_ERR_EMPTY);
	*total = (dla_u32)sum;
	return 0;
}

/*
 * Is byte @off of @rec (a @kind record) a buffer reference's index or
 * flags, or a SHAVE op's kernel_id (which selects the record's layout)?
 */
static int dla_fixed_word(dla_u32 kind, const union dla_op_rec *rec,
			  dla_u32 off)
{
	const dla_u16 *r;
	dla_u32 n, i;

	if (kind == DLA_OP_SHAVE &&
	    off >> 2 == __builtin_offsetof(struct dla_shave_op, kernel_id) >> 2)
		return 1;
	r = dla_refs(kind, rec, &n);
	for (i = 0; i < n; i++)
		if (off >= r[i] && off < r[i] + 8u)
			return 1;
	return 0;
}

/*
 * Templates of block @b (rule 5): wait masks, patches and their
 * expressions at the block's depth; every entry a reference names
 * resolved for good (rule 6).
 */
static dla_s32 dla_plan_body(struct dla_prep *p, struct dla_plan_rt *pl,
			     dla_u32 b, dla_u32 n_sym, dla_u32 *used)
{
	const struct dla_plan_blk *bk = &pl->blk[b];
	dla_u32 j, i, n;
	dla_s32 ret;

	for (j = 0; j < bk->n; j++) {
		const struct dla_plan_tpl *tp = &pl->tpl[bk->first + j];
		const dla_u16 *r;

		/* a template belongs to one block (its waiters are per body) */
		if (*used & (1u << (bk->first + j)))
			return dla_plan_fail("template", bk->first + j,
					     "first_template",
					     -DLA_ERR_PLAN_FORMAT);
		*used |= 1u << (bk->first + j);

		if (tp->wait_mask >> j)
			return dla_plan_fail("template", bk->first + j,
					     "wait_mask", -DLA_ERR_PLAN_FORMAT);
		for (i = 0; i < j; i++)
			if (tp->wait_mask & (1u << i))
				pl->tpl[bk->first + i].waiters |= 1u << j;
		for (i = 0; i < tp->n_patches; i++) {
			const struct dla_plan_patch *pa = &tp->patch[i];

			ret = dla_expr_check(pl, pa->expr, pa->len, n_sym,
					     bk->depth);
			if (ret)
				return dla_plan_fail("template", bk->first + j,
						     "patch.expr", ret);
		}
		r = dla_refs(tp->kind, tp->rec, &n);
		for (i = 0; i < n; i++) {
			const dla_u32 *w = tp->rec->all + r[i] / 4u;

			/* index, flags, offset, size */
			if (w[1] & DLA_REF_CMX)
				continue;
			if (!w[0] && !w[1] && !w[2] && !w[3])
				continue;	/* empty, unless patched */
			ret = dla_addr_preload(p, tp->kind, bk->first + j,
					       "plan template ref", w[0]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Parse the templates and patches of the copy at @q (rule 5). */
static dla_s32 dla_plan_templates(struct dla_plan_rt *pl, char *q,
				  dla_u32 n_tpl, dla_u32 n_pat,
				  const struct dla_plan_patch **pat,
				  dla_u32 room, dla_u32 minor)
{
	dla_u32 first[DLA_PLAN_MAX_TEMPLATES];
	const struct dla_plan_patch *pa;
	dla_u32 off = 0, i, k;

	for (i = 0; i < n_tpl; i++) {
		const struct dla_plan_template *h = (const void *)(q + off);
		struct dla_plan_tpl *tp = &pl->tpl[i];
		dla_u32 *rec;

		if (room - off < sizeof(*h) || h->kind >= DLA_OP_KINDS ||
		    room - off - sizeof(*h) < dla_op_rec_size(h->kind))
			return dla_plan_fail("template", i, "kind",
					     -DLA_ERR_PLAN_FORMAT);
		rec = (dla_u32 *)(q + off + sizeof(*h));
		for (k = 0; k < 9; k++)
			if (rec[k])
				return dla_plan_fail("template", i, "deps",
						     -DLA_ERR_PLAN_FORMAT);
		if (h->n_patches > DLA_PLAN_MAX_PATCHES ||
		    h->first_patch > n_pat ||
		    h->n_patches > n_pat - h->first_patch)
			return dla_plan_fail("template", i, "n_patches",
					     -DLA_ERR_PLAN_PATCH);
		/* ELF kernel tasks as templates: minor 3 */
		if (dla_is_elf(h->kind, (const union dla_op_rec *)rec) &&
		    minor < 3)
			return dla_plan_fail("template", i, "kernel_id",
					     -DLA_ERR_PLAN_FORMAT);
		tp->kind = h->kind;
		tp->wait_mask = h->wait_mask;
		tp->n_patches = h->n_patches;
		tp->words = dla_op_rec_size(h->kind) / 4u;
		tp->rec = (union dla_op_rec *)rec;
		first[i] = h->first_patch;
		off += sizeof(*h) + dla_op_rec_size(h->kind);
	}
	if (room - off < n_pat * sizeof(*pa))
		return dla_plan_fail("patches", n_pat, "n_patches",
				     -DLA_ERR_PLAN_FORMAT);
	*pat = (const struct dla_plan_patch *)(q + off);
	for (i = 0; i < n_tpl; i++) {
		struct dla_plan_tpl *tp = &pl->tpl[i];

		tp->patch = *pat + first[i];
		for (k = 0; k < tp->n_patches; k++) {
			pa = &tp->patch[k];
			if ((pa->width != 2 && pa->width != 4) ||
			    (pa->offset & (pa->width - 1u)) ||
			    pa->offset < sizeof(struct dla_op_deps) ||
			    pa->offset + pa->width > tp->words * 4u ||
			    dla_fixed_word(tp->kind, tp->rec, pa->offset))
				return dla_plan_fail("template", i, "patch",
						     -DLA_ERR_PLAN_PATCH);
		}
	}
	return (dla_s32)(off + n_pat * sizeof(*pa));
}

/*
 * Rule 7: the first and the last iteration of every block, each
 * template, built and checked as a static op (into window slot 0).
 */
static dla_s32 dla_plan_corners(struct dla_prep *p, struct dla_plan_rt *pl,
				dla_u64 *desc)
{
	dla_u32 var[DLA_PLAN_MAX_DEPTH * 3];
	dla_u32 b, c, l, j;
	dla_s32 ret;

	for (b = 0; b < pl->n_blocks; b++) {
		const struct dla_plan_blk *bk = &pl->blk[b];

		if (bk->empty)
			continue;
		for (c = 0; c < 2; c++) {
			for (l = 0; l < bk->depth; l++)
				dla_plan_var(bk, l, c ? bk->count[l] - 1 : 0,
					     var);
			for (j = 0; j < bk->n; j++) {
				ret = dla_plan_build(pl, p, b, j, var, 0, desc);
				if (ret)
					return dla_plan_fail("block", b,
							     c ? "last iteration" :
							     "first iteration",
							     ret);
			}
		}
	}
	return 0;
}

dla_s32 dla_plan_prepare(struct dla_prep *p, const struct dla_task_desc *d,
			 struct dla_plan_rt *pl, void *copy, dla_u64 *desc)
{
	const struct dla_plan_header *h = copy;
	const struct dla_plan_symbol *sy;
	const struct dla_plan_block *bl;
	const struct dla_plan_patch *pat;
	dla_u32 size = d->plan_size, off, b, used = 0;
	struct dla_task *t = p->t;
	dla_s32 ret;

	dla_zero(pl, sizeof(*pl));
	if (dla_data_read(p->drv, p->task_data, 0, copy, size, d->plan_offset))
		return dla_plan_fail("header", 0, "read", -DLA_ERR_PORT);
	/* rule 2: the header's counts, then records exactly filling it */
	if (h->magic != DLA_PLAN_MAGIC)
		return dla_plan_fail("header", 0, "magic", -DLA_ERR_PLAN_FORMAT);
	if (h->reserved[0] || h->reserved[1])
		return dla_plan_fail("header", 0, "reserved",
				     -DLA_ERR_PLAN_FORMAT);
	if (h->n_symbols > DLA_PLAN_MAX_SYMBOLS || !h->n_blocks ||
	    h->n_blocks > DLA_PLAN_MAX_BLOCKS || !h->n_templates ||
	    h->n_templates > DLA_PLAN_MAX_TEMPLATES ||
	    h->n_patches > DLA_PLAN_MAX_TEMPLATES * DLA_PLAN_MAX_PATCHES ||
	    h->expr_words > DLA_PLAN_SIZE_MAX / 4)
		return dla_plan_fail("header", 0, "counts",
				     -DLA_ERR_PLAN_FORMAT);
	off = sizeof(*h);
	sy = (const struct dla_plan_symbol *)((char *)copy + off);
	off += h->n_symbols * sizeof(*sy);
	bl = (const struct dla_plan_block *)((char *)copy + off);
	off += h->n_blocks * sizeof(*bl);
	if (off > size)
		return dla_plan_fail("header", 0, "n_blocks",
				     -DLA_ERR_PLAN_FORMAT);
	ret = dla_plan_templates(pl, (char *)copy + off, h->n_templates,
				 h->n_patches, &pat, size - off,
				 d->version_minor);
	if (ret < 0)
		return ret;
	off += (dla_u32)ret;
	if (size - off != h->expr_words * 4u)
		return dla_plan_fail("header", 0, "expr_words",
				     -DLA_ERR_PLAN_FORMAT);
	pl->expr = (const dla_u32 *)((char *)copy + off);
	pl->expr_words = h->expr_words;
	pl->n_blocks = h->n_blocks;
	pl->desc = desc;

	ret = dla_plan_symbols(p, pl, d, sy, h->n_symbols);
	if (!ret)
		ret = dla_plan_blocks(pl, bl, h->n_symbols, h->n_templates,
				      &t->n_total);
	for (b = 0; !ret && b < pl->n_blocks; b++)
		ret = dla_plan_body(p, pl, b, h->n_symbols, &used);
	if (!ret)
		ret = dla_plan_corners(p, pl, desc);
	if (ret)
		return ret;
	/* the scheduler's builder context: the cache only, never the port */
	pl->prep.e = p->e;
	pl->prep.t = p->t;
	pl->prep.drv = p->drv;
	pl->prep.task_data = NULL;
	pl->prep.entry0 = p->entry0;
	pl->prep.addr = p->addr;
	pl->prep.no_port = 1;
	return 0;
}

/* Step the expander past the op it just expanded. */
static void dla_plan_advance(struct dla_plan_rt *pl)
{
	const struct dla_plan_blk *bk = &pl->blk[pl->b];
	dla_u32 l;

	if (++pl->j < bk->n)
		return;
	pl->j = 0;
	for (l = bk->depth; l-- > 0;) {
		if (++pl->idx[l] < bk->count[l]) {
			dla_plan_var(bk, l, pl->idx[l], pl->var);
			return;
		}
		pl->idx[l] = 0;
		dla_plan_var(bk, l, 0, pl->var);
	}
	/* the block is done: the next one that has an iteration */
	do {
		pl->b++;
	} while (pl->b < pl->n_blocks && pl->blk[pl->b].empty);
	if (pl->b == pl->n_blocks) {
		pl->exhausted = 1;
		return;
	}
	bk = &pl->blk[pl->b];
	for (l = 0; l < bk->depth; l++) {
		pl->idx[l] = 0;
		dla_plan_var(bk, l, 0, pl->var);
	}
	pl->fresh = 1;
}

static __attribute__((__cold__))
void dla_plan_refused(struct dla_engine *e, struct dla_task *t,
		      dla_u32 slot, dla_s32 err, dla_u32 kind)
{
	struct dla_plan_rt *pl = t->plan;

	dla_error("dla: task %u: plan block %u template %u op %u: error %d\n",
		  slot, pl->b, pl->j, pl->tail, -err);
	dla_sched_fail(e, slot, err, kind, pl->tail);
}

/*
 * Expand ops at the tail while the window has room: each built into its
 * slot's descriptor and queued once its waits are done. A failure with
 * ops still in the window is deferred to the next completion (the port
 * learns of a failure from dla_process_events()).
 */
static void dla_plan_fill(struct dla_engine *e, struct dla_task *t,
			  dla_u32 slot)
{
	struct dla_plan_rt *pl = t->plan;

	while (!pl->exhausted && !pl->err &&
	       pl->tail - pl->head < DLA_PLAN_WINDOW) {
		const struct dla_plan_blk *bk = &pl->blk[pl->b];
		const struct dla_plan_tpl *tp = &pl->tpl[bk->first + pl->j];
		dla_u32 s = pl->tail & DLA_W_MASK, m, pend = 0;
		struct dla_op_rt *o = &t->ops[s];
		dla_s32 ret;

		if (pl->fresh) {
			if (pl->head != pl->tail)
				return;		/* the last block drains */
			pl->fresh = 0;
		}
		ret = dla_plan_build(pl, &pl->prep, pl->b, pl->j, pl->var,
				     pl->tail, pl->desc + s * DLA_PLAN_PAIRS);
		if (ret) {
			if (pl->head == pl->tail) {
				dla_plan_refused(e, t, slot, ret, tp->kind);
			} else {
				pl->err = ret;
				pl->err_kind = tp->kind;
			}
			return;
		}
		/* waits on this iteration's earlier ops still in the window */
		for (m = tp->wait_mask; m; m &= m - 1) {
			dla_u32 q = pl->tail - (pl->j - dla_ffs(m));

			if (q - pl->head < pl->tail - pl->head &&
			    !pl->done[q & DLA_W_MASK])
				pend++;
		}
		o->kind = (dla_u8)tp->kind;
		o->pending = (dla_u8)pend;
		o->cycles = 0;
		pl->done[s] = 0;
		pl->tj[s] = (dla_u8)pl->j;
		pl->wblk = pl->b;
		pl->tail++;
		if (!pend)
			dla_enqueue(e, t, slot, s);
		dla_plan_advance(pl);
	}
}

void dla_plan_start(struct dla_engine *e, struct dla_task *t, dla_u32 slot)
{
	struct dla_plan_rt *pl = t->plan;
	const struct dla_plan_blk *bk;
	dla_u32 l;

	pl->head = pl->tail = 0;
	pl->b = 0;
	while (pl->blk[pl->b].empty)	/* some block has an iteration */
		pl->b++;
	pl->j = 0;
	pl->fresh = 0;
	pl->exhausted = 0;
	pl->err = 0;
	bk = &pl->blk[pl->b];
	for (l = 0; l < DLA_PLAN_MAX_DEPTH; l++) {
		pl->idx[l] = 0;
		if (l < bk->depth)
			dla_plan_var(bk, l, 0, pl->var);
	}
	dla_plan_fill(e, t, slot);
}

void dla_plan_complete(struct dla_engine *e, struct dla_task *t,
		       dla_u32 slot, dla_u32 op)
{
	struct dla_plan_rt *pl = t->plan;
	const struct dla_plan_blk *bk = &pl->blk[pl->wblk];
	dla_u32 j = pl->tj[op], m = pl->tpl[bk->first + j].waiters;

	pl->done[op] = 1;
	/* dependents: this iteration's later templates, already expanded */
	for (; m; m &= m - 1) {
		dla_u32 d = ((op - pl->head) & DLA_W_MASK) + dla_ffs(m) - j;
		dla_u32 s = (pl->head + d) & DLA_W_MASK;

		if (d >= pl->tail - pl->head)
			break;		/* not expanded yet */
		if (!--t->ops[s].pending)
			dla_enqueue(e, t, slot, s);
	}
	while (pl->head != pl->tail && pl->done[pl->head & DLA_W_MASK])
		pl->head++;
	if (pl->err) {
		dla_error("dla: task %u: plan op %u: error %d\n", slot,
			  pl->tail, -pl->err);
		dla_sched_fail(e, slot, pl->err, pl->err_kind, pl->tail);
		return;
	}
	dla_plan_fill(e, t, slot);
}
