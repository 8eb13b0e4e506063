/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test helper: lay out a plan task (Documentation/dynamic-shapes.rst) in
 * a host buffer: the task descriptor with DLA_TASK_F_PLAN, then the plan
 * (header, symbols, blocks, templates with their op records, patches,
 * expressions). Build with pb_*() calls, then pb_finish().
 */
#ifndef PLAN_BUILDER_H
#define PLAN_BUILDER_H

#include <stdlib.h>
#include <string.h>

#include <drm/vpux_task.h>
#include "dla_types.h"
#include "task_builder.h"

#define PB_MAX_TPL	40
#define PB_MAX_PAT	600
#define PB_MAX_EXPR	2100

struct pb_tpl {
	struct dla_plan_template h;
	union {
		struct dla_dma_op dma;
		struct dla_dpu_op dpu;
		struct dla_shave_op shave;
	} rec;
};

struct pb {
	struct dla_plan_header h;
	struct dla_plan_symbol sym[DLA_PLAN_MAX_SYMBOLS + 2];
	struct dla_plan_block blk[24];
	struct pb_tpl tpl[PB_MAX_TPL];
	struct dla_plan_patch pat[PB_MAX_PAT];
	dla_u32 expr[PB_MAX_EXPR];
	/* the result */
	unsigned char *buf;
	size_t size;
	struct dla_task_desc *d;
	unsigned int plan_size;
};

#define PB_T(op, arg)		DLA_EXPR_TOKEN(DLA_EXPR_##op, (arg))
#define PB_OP(op)		DLA_EXPR_TOKEN(DLA_EXPR_##op, 0)
#define PB_I(op, arg)		DLA_EXPR_TOKEN(DLA_EXPR_##op + DLA_EXPR_IMM, (arg))
/* an expression as (tokens, count) */
#define PB_E(...)		(const dla_u32[]){ __VA_ARGS__ }, \
	(unsigned int)(sizeof((const dla_u32[]){ __VA_ARGS__ }) / 4)

static inline void pb_init(struct pb *p)
{
	memset(p, 0, sizeof(*p));
	p->h.magic = DLA_PLAN_MAGIC;
}

static inline unsigned int pb_symbol(struct pb *p, dla_u32 min, dla_u32 max)
{
	p->sym[p->h.n_symbols].min = min;
	p->sym[p->h.n_symbols].max = max;
	return p->h.n_symbols++;
}

static inline unsigned int pb_expr(struct pb *p, const dla_u32 *x,
				   unsigned int n)
{
	unsigned int at = p->h.expr_words;

	memcpy(&p->expr[at], x, n * 4);
	p->h.expr_words += n;
	return at;
}

/* A new block of @depth loop levels; its templates follow. */
static inline struct dla_plan_block *pb_block(struct pb *p, unsigned int depth)
{
	struct dla_plan_block *b = &p->blk[p->h.n_blocks++];

	b->depth = depth;
	b->first_template = p->h.n_templates;
	return b;
}

/* Loop level @l of the last block: extent expression, tile. */
static inline void pb_loop(struct pb *p, unsigned int l, dla_u32 tile,
			   const dla_u32 *x, unsigned int n)
{
	struct dla_plan_block *b = &p->blk[p->h.n_blocks - 1];

	b->loop[l].extent = (dla_u16)pb_expr(p, x, n);
	b->loop[l].len = (dla_u16)n;
	b->loop[l].tile = tile;
}

/* A template of the last block; returns its op record to fill. */
static inline void *pb_template(struct pb *p, unsigned int kind,
				dla_u32 wait_mask)
{
	struct pb_tpl *t = &p->tpl[p->h.n_templates++];

	p->blk[p->h.n_blocks - 1].n_templates++;
	t->h.kind = kind;
	t->h.wait_mask = wait_mask;
	t->h.first_patch = p->h.n_patches;
	return &t->rec;
}

/* A patch of the last template: @width bytes at byte @offset. */
static inline void pb_patch(struct pb *p, unsigned int offset,
			    unsigned int width, const dla_u32 *x,
			    unsigned int n)
{
	struct dla_plan_patch *pa = &p->pat[p->h.n_patches++];

	pa->offset = (dla_u16)offset;
	pa->width = (dla_u16)width;
	pa->len = (dla_u16)n;
	pa->expr = (dla_u16)pb_expr(p, x, n);
	p->tpl[p->h.n_templates - 1].h.n_patches++;
}

static inline unsigned int pb_rec_size(unsigned int kind)
{
	return kind == DLA_OP_DMA ? sizeof(struct dla_dma_op) :
	       kind == DLA_OP_DPU ? sizeof(struct dla_dpu_op) :
	       sizeof(struct dla_shave_op);
}

/* Serialise into a new buffer (free(p->buf)); symbols in entry @sym. */
static inline void pb_finish(struct pb *p, unsigned int sym)
{
	size_t off = sizeof(struct dla_task_desc), n;
	unsigned int i;

	p->size = off + sizeof(p->h) + p->h.n_symbols * sizeof(p->sym[0]) +
		  p->h.n_blocks * sizeof(p->blk[0]) +
		  p->h.n_patches * sizeof(p->pat[0]) + p->h.expr_words * 4;
	for (i = 0; i < p->h.n_templates; i++)
		p->size += sizeof(p->tpl[i].h) + pb_rec_size(p->tpl[i].h.kind);
	p->buf = calloc(1, p->size);
	p->d = (struct dla_task_desc *)p->buf;
	p->d->magic = DLA_TASK_MAGIC;
	p->d->version_major = DLA_TASK_VERSION_MAJOR;
	p->d->version_minor = DLA_TASK_VERSION_MINOR;
	p->d->header_size = sizeof(struct dla_task_desc);
	p->d->flags = DLA_TASK_F_PLAN;
	p->d->plan_offset = (dla_u32)off;
	p->d->plan_size = (dla_u32)(p->size - off);
	p->d->sym_index = sym;
	p->plan_size = p->d->plan_size;
#define PB_PUT(src, len) do { n = (len); memcpy(p->buf + off, (src), n); \
		off += n; } while (0)
	PB_PUT(&p->h, sizeof(p->h));
	PB_PUT(p->sym, p->h.n_symbols * sizeof(p->sym[0]));
	PB_PUT(p->blk, p->h.n_blocks * sizeof(p->blk[0]));
	for (i = 0; i < p->h.n_templates; i++) {
		PB_PUT(&p->tpl[i].h, sizeof(p->tpl[i].h));
		PB_PUT(&p->tpl[i].rec, pb_rec_size(p->tpl[i].h.kind));
	}
	PB_PUT(p->pat, p->h.n_patches * sizeof(p->pat[0]));
	PB_PUT(p->expr, p->h.expr_words * 4);
#undef PB_PUT
}

/* Byte offsets of op record fields, for pb_patch(). */
#define PB_OFF(type, field)	((unsigned int)__builtin_offsetof(type, field))
#define PB_DMA(f)		PB_OFF(struct dla_dma_op, f)
#define PB_DPU(f)		PB_OFF(struct dla_dpu_op, f)
#define PB_SHAVE(f)		PB_OFF(struct dla_shave_op, f)

/*
 * The plan the tests, the fuzzer's seeds and the benchmark share: copy
 * the first SYM0 rows of @row bytes from entry 1 to entry 2, in tiles of
 * @tile rows (a tail tile of SYM0 mod @tile), one DMA op per tile.
 * Symbol 0 in [@min, @max].
 */
static inline void pb_row_copy(struct pb *p, dla_u32 min, dla_u32 max,
			       dla_u32 tile, dla_u32 row)
{
	struct dla_dma_op *o;

	pb_init(p);
	pb_symbol(p, min, max);
	pb_block(p, 1);
	pb_loop(p, 0, tile, PB_E(PB_T(SYM, 0)));
	o = pb_template(p, DLA_OP_DMA, 0);
	o->src.index = 1;
	o->dst.index = 2;
	o->count[0] = o->count[1] = o->count[2] = 1;
	/* len = LEN0 * row; offsets OFF0 * row; sizes LEN0 * row */
	pb_patch(p, PB_DMA(len), 4, PB_E(PB_T(LEN, 0), PB_I(MUL, row)));
	pb_patch(p, PB_DMA(src.offset), 4, PB_E(PB_T(OFF, 0), PB_T(CONST, row),
						PB_OP(MUL)));
	pb_patch(p, PB_DMA(src.size), 4, PB_E(PB_T(LEN, 0), PB_I(MUL, row)));
	pb_patch(p, PB_DMA(dst.offset), 4, PB_E(PB_T(OFF, 0), PB_I(MUL, row)));
	pb_patch(p, PB_DMA(dst.size), 4, PB_E(PB_T(LEN, 0), PB_I(MUL, row)));
}

/*
 * A matmul over a dynamic token count (symbol 0 in [1, 64]), shared by the
 * tests and the fuzzer's seeds: SYM0 rows of 32 int8 from entry 1 times
 * the 32x16 weights of entry @w give SYM0 rows of 16 in entry 2, in tiles
 * of 16 rows; the DPU's u16 row counts are patched to the tile's length.
 */
static inline void pb_token_matmul(struct pb *p, unsigned int w)
{
	struct dla_dpu_op *d;

	pb_init(p);
	pb_symbol(p, 1, 64);
	pb_block(p, 1);
	pb_loop(p, 0, 16, PB_E(PB_T(SYM, 0)));
	d = pb_template(p, DLA_OP_DPU, 0);
	d->op = VPUX_DPU_OP_MATMUL;
	d->in_c = 32, d->in_w = 1, d->out_c = 16, d->out_w = 1;
	d->in.index = 1;
	d->in2 = tb_ref(w, 0, 32 * 16);
	d->out.index = 2;
	tb_dpu_quant(d);
	pb_patch(p, PB_DPU(in_h), 2, PB_E(PB_T(LEN, 0)));
	pb_patch(p, PB_DPU(out_h), 2, PB_E(PB_T(LEN, 0)));
	pb_patch(p, PB_DPU(in.offset), 4, PB_E(PB_T(OFF, 0),
		 PB_T(CONST, 32), PB_OP(MUL)));
	pb_patch(p, PB_DPU(in.size), 4, PB_E(PB_T(LEN, 0),
		 PB_T(CONST, 32), PB_OP(MUL)));
	pb_patch(p, PB_DPU(out.offset), 4, PB_E(PB_T(OFF, 0),
		 PB_T(CONST, 16), PB_OP(MUL)));
	pb_patch(p, PB_DPU(out.size), 4, PB_E(PB_T(LEN, 0),
		 PB_T(CONST, 16), PB_OP(MUL)));
}

#endif /* PLAN_BUILDER_H */
