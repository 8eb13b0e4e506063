/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Plans in loadable terms (Documentation/dynamic-shapes.rst): the
 * expression evaluator, template instances and the expansion order, used
 * by the loader (checks at the symbols' bounds) and by the CPU reference.
 * Written apart from the engine core's expander (firmware/dla_plan.c) so
 * that the two check each other; the semantics are the same: unsigned
 * 32-bit arithmetic, every step checked.
 */
#ifndef VPUX_LF_PLAN_H
#define VPUX_LF_PLAN_H

#include "lf.h"

#define LF_PLAN_MAX_BODY	8u	/* = DLA_PLAN_MAX_BODY */
#define LF_PLAN_MAX_PATCHES	16u	/* = DLA_PLAN_MAX_PATCHES */
#define LF_PLAN_MAX_EXPR	32u	/* = DLA_PLAN_MAX_EXPR */
#define LF_PLAN_STACK		8u	/* = DLA_PLAN_STACK */

/* lf_expr_eval() failures */
#define LF_EXPR_OVERFLOW	1
#define LF_EXPR_DIV0		2

union lf_op_rec {
	struct vpux_lf_dma dma;
	struct vpux_lf_dpu dpu;
	struct vpux_lf_shave shave;
};

/* Loop values of one iteration: per level its index, offset, length. */
struct lf_loop_vals {
	uint32_t idx[VPUX_LF_PLAN_MAX_DEPTH];
	uint32_t off[VPUX_LF_PLAN_MAX_DEPTH];
	uint32_t len[VPUX_LF_PLAN_MAX_DEPTH];
};

/* A block's loop extents and iteration counts for given symbols. */
struct lf_block_iter {
	uint32_t extent[VPUX_LF_PLAN_MAX_DEPTH];
	uint32_t count[VPUX_LF_PLAN_MAX_DEPTH];
	uint64_t ops;		/* instances, all templates (UINT64_MAX: more) */
};

/*
 * Is [@at, @at + @len) of .vpux.plan.expr a well-formed expression over
 * @n_sym symbols and @depth loop levels? NULL, or what is wrong.
 */
const char *lf_expr_check(const struct lf_image *img, uint32_t at,
			  uint32_t len, uint32_t depth);
/*
 * Evaluate a checked expression with symbol values @sym and loop values
 * @lv (NULL for an extent). 0, LF_EXPR_OVERFLOW or LF_EXPR_DIV0.
 */
int lf_expr_eval(const struct lf_image *img, uint32_t at, uint32_t len,
		 const uint64_t *sym, const struct lf_loop_vals *lv,
		 uint32_t *out);

/* Op record @i of @kind and its size. */
const void *lf_op_record(const struct lf_image *img, unsigned int kind,
			 uint32_t i);
size_t lf_op_record_size(unsigned int kind);

/* Block @b's extents and counts: 0, or an lf_expr_eval() failure. */
int lf_block_iter(const struct lf_image *img, uint32_t b,
		  const uint64_t *sym, struct lf_block_iter *it);
/* The loop values of iteration @flat (innermost fastest) of @it. */
void lf_block_vals(const struct lf_image *img, uint32_t b,
		   const struct lf_block_iter *it, uint64_t flat,
		   struct lf_loop_vals *lv);
/*
 * Template @tpl's op record with its patches applied at @sym, @lv.
 * 0, or an lf_expr_eval() failure (or LF_EXPR_OVERFLOW for a value a
 * 16-bit field cannot hold) with the failing patch in *@patch.
 */
int lf_plan_instance(const struct lf_image *img, uint32_t tpl,
		     const uint64_t *sym, const struct lf_loop_vals *lv,
		     union lf_op_rec *rec, uint32_t *patch);

#endif /* VPUX_LF_PLAN_H */
