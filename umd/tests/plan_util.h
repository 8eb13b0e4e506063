/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test helper: a plan loadable built in C (no assembler syntax needed),
 * shared by the plan tests and the loader fuzzer's seed. An MLP layer
 * over a dynamic number of tokens T (symbol "tokens" in [1, 64]):
 *
 *   block 0 (depth 1, tiles of 16 tokens, a tail of T mod 16):
 *     template 0: DPU MATMUL, int32 accumulators, rows [off, off + len)
 *       of x (T x 32 int8) times w (16 x 32 int8) into scratch h
 *       (T x 16 int32, at scratch offset 256: a ref-offset patch gains
 *       the tensor's offset in the task memory)
 *     template 1: DMA of those rows from h to output y, waiting for 0
 *   block 1 (depth 0): DMA of the whole x (T * 32 bytes) to output e
 */
#ifndef UMD_PLAN_UTIL_H
#define UMD_PLAN_UTIL_H

#include <stdlib.h>
#include <string.h>

#include <drm/vpux_task.h>
#include "dla_types.h"
#include "lf.h"
#include "lf_fields.h"
#include "vpux.h"
#include "vpux_hw_ops.h"

#define MLP_K		32u
#define MLP_N		16u
#define MLP_TMAX	64u
#define MLP_TILE	16u

#define X_(op, arg)	DLA_EXPR_TOKEN(DLA_EXPR_##op, (arg))
#define XI_(op, arg)	DLA_EXPR_TOKEN(DLA_EXPR_##op + DLA_EXPR_IMM, (arg))

enum { MLP_T_X, MLP_T_Y, MLP_T_E, MLP_T_W, MLP_T_H };

struct mlp {
	struct lf_image img;
	struct vpux_lf_tensor t[5];
	struct vpux_lf_dma dma[2];
	struct vpux_lf_dpu dpu[1];
	struct vpux_lf_symbol sym[2];
	struct vpux_lf_plan_block blk[2];
	struct vpux_lf_plan_template tpl[3];
	struct vpux_lf_plan_patch pat[16];
	uint32_t expr[64];
	int8_t w[MLP_N * MLP_K];
};

static inline uint32_t mlp_expr(struct mlp *m, const uint32_t *x,
				uint32_t n)
{
	uint32_t at = m->img.n_expr;

	memcpy(&m->expr[at], x, n * 4);
	m->img.n_expr += n;
	return at;
}

#define MLP_E(...) (const uint32_t[]){ __VA_ARGS__ }, \
	(uint32_t)(sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)

static inline void mlp_patch(struct mlp *m, uint32_t kind, const char *field,
			     const uint32_t *x, uint32_t n)
{
	struct vpux_lf_plan_patch *p = &m->pat[m->img.n_patches++];

	p->field = lf_field_by_name(kind, field)->id;
	p->len = n;
	p->expr = mlp_expr(m, x, n);
	m->tpl[m->img.n_templates - 1].n_patches++;
}

static inline void mlp_template(struct mlp *m, uint32_t kind, uint32_t op,
				uint32_t wait)
{
	struct vpux_lf_plan_template *t = &m->tpl[m->img.n_templates++];

	t->kind = kind;
	t->op = op;
	t->wait_mask = wait;
	t->first_patch = m->img.n_patches;
	m->blk[m->img.n_blocks - 1].n_templates++;
}

static inline void mlp_tensor(struct mlp *m, unsigned int i, const char *name,
			      uint32_t region, uint64_t offset, uint32_t dt,
			      uint32_t inner, uint32_t flags)
{
	struct vpux_lf_tensor *t = &m->t[i];
	uint32_t bits = dt == VPUX_DT_I32 ? 32 : 8;

	strcpy(t->name, name);
	t->region = region;
	t->flags = flags;
	t->offset = offset;
	t->data_type = dt;
	t->rank = 2;
	t->dims_order = 0x12;
	t->dims[0] = 0;			/* symbol 0: tokens */
	t->dims[1] = inner;
	t->dyn_dims = 1;
	t->strides[1] = bits;
	t->strides[0] = (uint64_t)bits * inner;
	t->size = (uint64_t)bits / 8 * inner * MLP_TMAX;
}

static inline void mlp_build(struct mlp *m)
{
	struct vpux_lf_dpu *d = &m->dpu[0];
	struct vpux_lf_dma *a = &m->dma[0], *b = &m->dma[1];
	struct lf_image *img = &m->img;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < MLP_N * MLP_K; i++)
		m->w[i] = (int8_t)((i * 37u + 11u) % 255u - 127);
	img->hdr.magic = VPUX_LF_MAGIC;
	img->hdr.version_major = VPUX_LF_VERSION_MAJOR;
	img->hdr.version_minor = VPUX_LF_VERSION_MINOR;
	img->hdr.target = VPUX_TARGET_VPUX1;
	img->hdr.caps = VPUX_NET_CAP_DMA | VPUX_NET_CAP_DPU;
	img->hdr.weights_size = sizeof(m->w);
	img->hdr.scratch_size = 256 + 4 * MLP_N * MLP_TMAX;
	img->hdr.num_inputs = 1;
	img->hdr.num_outputs = 2;
	strcpy(img->hdr.name, "mlp_tokens");
	img->weights = (const uint8_t *)m->w;
	img->weights_count = sizeof(m->w);

	strcpy(m->sym[0].name, "tokens");
	m->sym[0].kind = VPUX_LF_SYM_AXIS;
	m->sym[0].min = 1;
	m->sym[0].max = MLP_TMAX;
	m->sym[0].hash = lf_fnv1a("tokens");
	m->sym[0].width = 4;
	img->symbols = m->sym;
	img->n_symbols = 1;

	mlp_tensor(m, MLP_T_X, "x", VPUX_LF_REGION(VPUX_LF_RK_INPUT, 0), 0,
		   VPUX_DT_I8, MLP_K, VPUX_LF_T_IO);
	mlp_tensor(m, MLP_T_Y, "y", VPUX_LF_REGION(VPUX_LF_RK_OUTPUT, 0), 0,
		   VPUX_DT_I32, MLP_N, VPUX_LF_T_IO);
	mlp_tensor(m, MLP_T_E, "e", VPUX_LF_REGION(VPUX_LF_RK_OUTPUT, 1), 0,
		   VPUX_DT_I8, MLP_K, VPUX_LF_T_IO);
	mlp_tensor(m, MLP_T_H, "h", VPUX_LF_REGION(VPUX_LF_RK_SCRATCH, 0), 256,
		   VPUX_DT_I32, MLP_N, 0);
	/* w: static 16 x 32 */
	mlp_tensor(m, MLP_T_W, "w", VPUX_LF_REGION(VPUX_LF_RK_WEIGHTS, 0), 0,
		   VPUX_DT_I8, MLP_K, 0);
	m->t[MLP_T_W].dims[0] = MLP_N;
	m->t[MLP_T_W].dyn_dims = 0;
	m->t[MLP_T_W].size = sizeof(m->w);
	img->tensors = m->t;
	img->n_tensors = 5;

	/* templates' records: the full tile, rows patched per instance */
	d->op = VPUX_DPU_OP_MATMUL;
	d->flags = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED |
		   VPUX_DPU_F_OUT_I32;
	d->in = (struct vpux_lf_ref){ MLP_T_X, 0, 0, MLP_TILE * MLP_K };
	d->in2 = (struct vpux_lf_ref){ MLP_T_W, 0, 0, sizeof(m->w) };
	d->out = (struct vpux_lf_ref){ MLP_T_H, 0, 0, 4 * MLP_TILE * MLP_N };
	d->in_c = MLP_K;
	d->in_h = d->out_h = MLP_TILE;
	d->in_w = d->out_w = 1;
	d->out_c = MLP_N;
	a->len = 4 * MLP_TILE * MLP_N;
	a->src = (struct vpux_lf_ref){ MLP_T_H, 0, 0, a->len };
	a->dst = (struct vpux_lf_ref){ MLP_T_Y, 0, 0, a->len };
	a->count[0] = a->count[1] = a->count[2] = 1;
	b->len = MLP_K;
	b->src = (struct vpux_lf_ref){ MLP_T_X, 0, 0, MLP_K };
	b->dst = (struct vpux_lf_ref){ MLP_T_E, 0, 0, MLP_K };
	b->count[0] = b->count[1] = b->count[2] = 1;
	img->dma = m->dma;
	img->n_dma = 2;
	img->dpu = m->dpu;
	img->n_dpu = 1;

	img->blocks = m->blk;
	img->templates = m->tpl;
	img->patches = m->pat;
	img->expr = m->expr;

	img->n_blocks = 1;
	m->blk[0].depth = 1;
	m->blk[0].loop[0].tile = MLP_TILE;
	m->blk[0].loop[0].extent = mlp_expr(m, MLP_E(X_(SYM, 0)));
	m->blk[0].loop[0].extent_len = 1;
	mlp_template(m, VPUX_LF_OP_DPU, 0, 0);
	mlp_patch(m, LF_DPU, "in_h", MLP_E(X_(LEN, 0)));
	mlp_patch(m, LF_DPU, "out_h", MLP_E(X_(LEN, 0)));
	mlp_patch(m, LF_DPU, "in.offset", MLP_E(X_(OFF, 0), XI_(MUL, MLP_K)));
	mlp_patch(m, LF_DPU, "in.size", MLP_E(X_(LEN, 0), XI_(MUL, MLP_K)));
	mlp_patch(m, LF_DPU, "out.offset",
		  MLP_E(X_(OFF, 0), X_(CONST, 4 * MLP_N), X_(MUL, 0)));
	mlp_patch(m, LF_DPU, "out.size", MLP_E(X_(LEN, 0), XI_(MUL, 4 * MLP_N)));
	mlp_template(m, VPUX_LF_OP_DMA, 0, 1);
	mlp_patch(m, LF_DMA, "len", MLP_E(X_(LEN, 0), XI_(MUL, 4 * MLP_N)));
	mlp_patch(m, LF_DMA, "src.offset", MLP_E(X_(OFF, 0), XI_(MUL, 4 * MLP_N)));
	mlp_patch(m, LF_DMA, "src.size", MLP_E(X_(LEN, 0), XI_(MUL, 4 * MLP_N)));
	mlp_patch(m, LF_DMA, "dst.offset", MLP_E(X_(OFF, 0), XI_(MUL, 4 * MLP_N)));
	mlp_patch(m, LF_DMA, "dst.size", MLP_E(X_(LEN, 0), XI_(MUL, 4 * MLP_N)));

	img->n_blocks = 2;
	mlp_template(m, VPUX_LF_OP_DMA, 1, 0);
	m->blk[1].first_template = 2;
	mlp_patch(m, LF_DMA, "len", MLP_E(X_(SYM, 0), XI_(MUL, MLP_K)));
	mlp_patch(m, LF_DMA, "src.size", MLP_E(X_(SYM, 0), XI_(MUL, MLP_K)));
	mlp_patch(m, LF_DMA, "dst.size", MLP_E(X_(SYM, 0), XI_(MUL, MLP_K)));
}

/* The layer computed independently: y[t][n] = sum_k x[t][k] * w[n][k] */
static inline void mlp_expect(const struct mlp *m, const int8_t *x,
			      unsigned int tokens, int32_t *y)
{
	unsigned int t, n, k;

	for (t = 0; t < tokens; t++)
		for (n = 0; n < MLP_N; n++) {
			int32_t acc = 0;

			for (k = 0; k < MLP_K; k++)
				acc += x[t * MLP_K + k] * m->w[n * MLP_K + k];
			y[t * MLP_N + n] = acc;
		}
}

#endif /* UMD_PLAN_UTIL_H */
