// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Plans in loadable terms (lf_plan.h). */
#include <string.h>

#include <drm/vpux_task.h>
#include "lf_fields.h"
#include "lf_plan.h"

const char *lf_expr_check(const struct lf_image *img, uint32_t at,
			  uint32_t len, uint32_t depth)
{
	uint32_t depth_now = 0, i;

	if (!len || len > LF_PLAN_MAX_EXPR)
		return "length not 1..32 words";
	if (at > img->n_expr || len > img->n_expr - at)
		return "outside .vpux.plan.expr";
	for (i = 0; i < len; i++) {
		uint32_t w = img->expr[at + i];
		uint32_t op = DLA_EXPR_OP(w), arg = DLA_EXPR_ARG(w);
		uint32_t pops = 0;

		if (op == DLA_EXPR_CONST32) {
			if (arg)
				return "CONST32 with an operand";
			if (++i == len)
				return "CONST32 without its word";
		} else if (op == DLA_EXPR_SYM) {
			if (arg >= img->n_symbols)
				return "SYM of a symbol that does not exist";
		} else if (op == DLA_EXPR_IDX || op == DLA_EXPR_OFF ||
			   op == DLA_EXPR_LEN) {
			if (arg >= depth)
				return depth ? "loop level not in the block" :
				       "loop value in a loop extent";
		} else if (op >= DLA_EXPR_ADD && op <= DLA_EXPR_CDIV) {
			if (arg)
				return "binary operator with an operand";
			pops = 2;
		} else if (op >= DLA_EXPR_ADD + DLA_EXPR_IMM &&
			   op <= DLA_EXPR_CDIV + DLA_EXPR_IMM) {
			pops = 1;
		} else if (op != DLA_EXPR_CONST) {
			return "unknown token";
		}
		if (depth_now < pops)
			return "stack underflow";
		depth_now = depth_now - pops + 1;
		if (depth_now > LF_PLAN_STACK)
			return "stack deeper than 8";
	}
	return depth_now == 1 ? NULL : "not exactly one value left";
}

static int apply(uint32_t op, uint32_t a, uint32_t b, uint32_t *r)
{
	uint64_t w;

	switch (op) {
	case DLA_EXPR_ADD:
		w = (uint64_t)a + b;
		break;
	case DLA_EXPR_SUB:
		if (b > a)
			return LF_EXPR_OVERFLOW;
		w = a - b;
		break;
	case DLA_EXPR_MUL:
		w = (uint64_t)a * b;
		break;
	case DLA_EXPR_MIN:
		w = a < b ? a : b;
		break;
	case DLA_EXPR_MAX:
		w = a > b ? a : b;
		break;
	default:
		if (!b)
			return LF_EXPR_DIV0;
		w = op == DLA_EXPR_DIV ? a / b : op == DLA_EXPR_MOD ? a % b :
		    ((uint64_t)a + b - 1) / b;
		break;
	}
	if (w > UINT32_MAX)
		return LF_EXPR_OVERFLOW;
	*r = (uint32_t)w;
	return 0;
}

int lf_expr_eval(const struct lf_image *img, uint32_t at, uint32_t len,
		 const uint64_t *sym, const struct lf_loop_vals *lv,
		 uint32_t *out)
{
	uint32_t st[LF_PLAN_STACK], n = 0, i;
	int ret;

	for (i = 0; i < len; i++) {
		uint32_t w = img->expr[at + i];
		uint32_t op = DLA_EXPR_OP(w), arg = DLA_EXPR_ARG(w);

		switch (op) {
		case DLA_EXPR_CONST:
			st[n++] = arg;
			continue;
		case DLA_EXPR_CONST32:
			st[n++] = img->expr[at + ++i];
			continue;
		case DLA_EXPR_SYM:
			if (sym[arg] > UINT32_MAX)
				return LF_EXPR_OVERFLOW;
			st[n++] = (uint32_t)sym[arg];
			continue;
		case DLA_EXPR_IDX:
			st[n++] = lv->idx[arg];
			continue;
		case DLA_EXPR_OFF:
			st[n++] = lv->off[arg];
			continue;
		case DLA_EXPR_LEN:
			st[n++] = lv->len[arg];
			continue;
		default:
			break;
		}
		if (op >= DLA_EXPR_ADD + DLA_EXPR_IMM) {
			ret = apply(op - DLA_EXPR_IMM, st[n - 1], arg,
				    &st[n - 1]);
		} else {
			n--;
			ret = apply(op, st[n - 1], st[n], &st[n - 1]);
		}
		if (ret)
			return ret;
	}
	*out = st[0];
	return 0;
}

const void *lf_op_record(const struct lf_image *img, unsigned int kind,
			 uint32_t i)
{
	if (kind == LF_DMA)
		return &img->dma[i];
	if (kind == LF_DPU)
		return &img->dpu[i];
	return &img->shave[i];
}

size_t lf_op_record_size(unsigned int kind)
{
	return kind == LF_DMA ? sizeof(struct vpux_lf_dma) :
	       kind == LF_DPU ? sizeof(struct vpux_lf_dpu) :
	       sizeof(struct vpux_lf_shave);
}

int lf_block_iter(const struct lf_image *img, uint32_t b,
		  const uint64_t *sym, struct lf_block_iter *it)
{
	const struct vpux_lf_plan_block *bl = &img->blocks[b];
	uint32_t l;
	int ret;

	memset(it, 0, sizeof(*it));
	it->ops = bl->n_templates;
	for (l = 0; l < bl->depth; l++) {
		ret = lf_expr_eval(img, bl->loop[l].extent,
				   bl->loop[l].extent_len, sym, NULL,
				   &it->extent[l]);
		if (ret)
			return ret;
		it->count[l] = (uint32_t)(((uint64_t)it->extent[l] +
					   bl->loop[l].tile - 1) /
					  bl->loop[l].tile);
		/* 8 * (2^32)^3 does not fit: saturate */
		if (__builtin_mul_overflow(it->ops, it->count[l], &it->ops))
			it->ops = UINT64_MAX;
	}
	return 0;
}

void lf_block_vals(const struct lf_image *img, uint32_t b,
		   const struct lf_block_iter *it, uint64_t flat,
		   struct lf_loop_vals *lv)
{
	const struct vpux_lf_plan_block *bl = &img->blocks[b];
	uint32_t l;

	memset(lv, 0, sizeof(*lv));
	for (l = bl->depth; l-- > 0;) {
		uint32_t tile = bl->loop[l].tile;

		lv->idx[l] = (uint32_t)(flat % it->count[l]);
		flat /= it->count[l];
		lv->off[l] = lv->idx[l] * tile;
		lv->len[l] = it->extent[l] - lv->off[l] < tile ?
			     it->extent[l] - lv->off[l] : tile;
	}
}

int lf_plan_instance(const struct lf_image *img, uint32_t tpl,
		     const uint64_t *sym, const struct lf_loop_vals *lv,
		     union lf_op_rec *rec, uint32_t *patch)
{
	const struct vpux_lf_plan_template *t = &img->templates[tpl];
	unsigned char *p = (unsigned char *)rec;
	uint32_t i, v;
	int ret;

	memcpy(rec, lf_op_record(img, t->kind, t->op),
	       lf_op_record_size(t->kind));
	for (i = 0; i < t->n_patches; i++) {
		const struct vpux_lf_plan_patch *pa =
			&img->patches[t->first_patch + i];
		const struct lf_field *f = lf_field_by_id(pa->field);

		*patch = t->first_patch + i;
		ret = lf_expr_eval(img, pa->expr, pa->len, sym, lv, &v);
		if (ret)
			return ret;
		if (f->width == 2) {
			uint16_t h = (uint16_t)v;

			if (v > UINT16_MAX)
				return LF_EXPR_OVERFLOW;
			memcpy(p + f->lf_offset, &h, 2);
		} else {
			memcpy(p + f->lf_offset, &v, 4);
		}
	}
	return 0;
}
