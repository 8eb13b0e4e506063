// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Tiling: every DPU op runs on the NPU's on-chip memory (CMX, 4 tiles of
 * 256 KiB on target vpux1). An op's output rows are cut into bands that
 * fit one CMX tile together with the input rows they read (the window's
 * halo included); band b uses tile b % 2, so the DMA that brings in band
 * b + 1 runs while the DPU computes band b (double buffering). The op's
 * constant operands (weights, bias, per-channel requant records) are
 * copied once into tile 2 or 3, alternating between ops so that the next
 * op's constants load while this one computes. Each band is one DPU
 * workload with the padding of its edge rows; results go back to the
 * tensor in scratch by DMA.
 *
 * DMA list order is: constants, band 0 in, then per band: next band in,
 * compute, band out. The barriers come from the assembler's byte-range
 * analysis (Documentation/vpux-asm.rst), so a band waits exactly for the
 * DMA that filled its buffer and for the previous user of that buffer.
 *
 * An op whose single output row does not fit one tile with its input
 * rows (or a global pool over a large map) runs from scratch as before.
 *
 * With fewer tiles (vpuxc_options.cmx_tiles, tiles 0 .. n - 1): three
 * keep two band tiles and one constants tile; two keep one band tile
 * (band b + 1 comes in once band b is stored) and one constants tile;
 * one keeps the bands only, the constants staying where they are.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lf_format.h"
#include "lower_int.h"
#include "vpux_dpu_rules.h"

#define TILE	((uint64_t)VPUX_LF_CMX_TILE_SIZE)

static uint64_t al64(uint64_t x)
{
	return (x + 63) & ~63ull;
}

struct tctx {
	struct qprog *p;
	int cmx[VPUX_LF_CMX_TILES];	/* one u8 tensor spanning each tile */
	int cmxf[2][VPUX_LF_CMX_TILES];	/* f16 and f32 views of them (-1) */
	unsigned int par;		/* constants tile: nband + par % ncst */
	unsigned int nband, ncst;	/* band tiles 0 .., constants tiles */
};

static int push_op(struct qprog *p, const struct qop *o)
{
	struct qop *n;

	if (p->nop == p->cap_op) {
		unsigned int cap = p->cap_op ? p->cap_op * 2 : 64;

		n = realloc(p->op, sizeof(*n) * cap);
		if (!n)
			return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
		p->op = n;
		p->cap_op = cap;
	}
	p->op[p->nop++] = *o;
	return 0;
}

/* DMA of @len bytes from (@st, @so) to (@dt, @do_) */
static int copy(struct qprog *p, int node, int st, uint64_t so, int dt,
		uint64_t do_, uint64_t len)
{
	int op = vc_emit_op(p, QOP_DMA, node,
			    "dma src=t%d[%llu:%llu] dst=t%d[%llu:%llu] len=%llu",
			    st, (unsigned long long)so, (unsigned long long)len,
			    dt, (unsigned long long)do_,
			    (unsigned long long)len, (unsigned long long)len);

	if (op < 0)
		return op;
	vc_op_uses(p, op, st);
	vc_op_uses(p, op, dt);
	p->dma_bytes += len;
	return 0;
}

/* CMX tile @k as a tensor of the type of @like (the DPU checks types) */
static int cmx_as(struct tctx *c, unsigned int k, int like)
{
	struct qprog *p = c->p;
	int32_t dt = p->t[like].dt;
	int f = dt == VPUX_DT_F16 ? 0 : dt == VPUX_DT_F32 ? 1 : -1;
	int64_t n;

	if (f < 0)
		return c->cmx[k];
	if (c->cmxf[f][k] < 0) {
		n = (int64_t)(TILE / (f ? 4 : 2));
		c->cmxf[f][k] = vc_view_qt(p, c->cmx[k], 1, &n, 0);
		if (c->cmxf[f][k] >= 0)
			p->t[c->cmxf[f][k]].dt = dt;
	}
	return c->cmxf[f][k];
}

static uint64_t opnd_len(const struct qprog *p, const struct qdpu *q, int i)
{
	return q->len[i] ? q->len[i] : p->t[q->t[i]].size;
}

/* one band: rows of input [r0, r1) and output [y0, y1) */
struct band {
	uint32_t r0, r1, y0, y1;
	uint32_t pad_top, pad_bottom;
};

static int is_window(const struct vpux_hw_dpu_desc *d)
{
	return d->op == VPUX_DPU_OP_CONV || d->op == VPUX_DPU_OP_MAXPOOL ||
	       d->op == VPUX_DPU_OP_AVGPOOL;
}

/* input rows output rows [y0, y1) read, and the band's padding */
static int band_of(const struct vpux_hw_dpu_desc *d, uint32_t y0,
		   uint32_t y1, struct band *b)
{
	int64_t eff = (int64_t)d->dilation_h * (d->kernel_h - 1) + 1;
	int64_t top = (int64_t)y0 * d->stride_h - d->pad_top;
	int64_t bot = (int64_t)(y1 - 1) * d->stride_h - d->pad_top + eff;

	b->y0 = y0;
	b->y1 = y1;
	if (!is_window(d)) {
		b->r0 = y0;
		b->r1 = y1;
		b->pad_top = b->pad_bottom = 0;
		return 0;
	}
	b->r0 = (uint32_t)(top < 0 ? 0 : top);
	b->r1 = (uint32_t)(bot > d->in_h ? d->in_h : bot);
	if (b->r1 <= b->r0)
		return -1;	/* a band entirely in the padding */
	b->pad_top = (uint32_t)(top < 0 ? -top : 0);
	b->pad_bottom = (uint32_t)(bot - b->r1);
	return b->pad_top > 65535 || b->pad_bottom > 65535 ? -1 : 0;
}

/* CMX bytes of a band of @rows output rows (worst case over the op) */
static uint64_t band_need(const struct vpux_hw_dpu_desc *d, uint32_t rows,
			  uint64_t in_row, uint64_t in2_row, uint64_t out_row)
{
	uint64_t in_rows = rows;

	if (is_window(d)) {
		in_rows = (uint64_t)(rows - 1) * d->stride_h +
			  (uint64_t)d->dilation_h * (d->kernel_h - 1) + 1;
		if (in_rows > d->in_h)
			in_rows = d->in_h;
	}
	return al64(in_rows * in_row) + al64(rows * in2_row) + rows * out_row;
}

static int tile_dpu(struct tctx *c, struct qop *o)
{
	struct qprog *p = c->p;
	const struct qdpu *q = o->dpu;
	const struct vpux_hw_dpu_desc *d = &q->d;
	int fp = !!(d->flags & VPUX_DPU_F_FP16);
	unsigned int bc = fp ? (d->flags & VPUX_DPU_F_BCAST_MASK) >>
			       VPUX_DPU_F_BCAST_SHIFT : VPUX_DPU_BCAST_NONE;
	/* elt: in2 is cut into bands with in (else it is a constant) */
	int elt = (d->op == VPUX_DPU_OP_ADD || d->op == VPUX_DPU_OP_MUL ||
		   d->op == VPUX_DPU_OP_SUB) &&
		  (bc == VPUX_DPU_BCAST_NONE || bc == VPUX_DPU_BCAST_HW);
	unsigned int es = fp ? 2 : 1, i;
	unsigned int eo = d->flags & VPUX_DPU_F_OUT_I32 ? 4 : es;
	uint64_t in_row = (uint64_t)d->in_w * d->in_c * es;
	uint64_t in2_row = !elt ? 0 : bc == VPUX_DPU_BCAST_HW ?
			   (uint64_t)d->in_w * es : in_row;
	uint64_t out_row = (uint64_t)d->out_w * d->out_c * eo;
	uint64_t cst = 0, coff[QD_N] = { 0 };
	uint32_t rows, nb, b, best = 0;
	int ctile = -1, node = o->node;
	struct band bd;

	/* constants: weights (CONV/MATMUL), bias, requant records */
	for (i = QD_IN2; i <= QD_QUANT; i++) {
		if (q->t[i] < 0 || (i == QD_IN2 && elt))
			continue;
		coff[i] = cst;
		cst = al64(cst + opnd_len(p, q, (int)i));
	}
	if (cst && cst <= TILE && c->ncst)
		ctile = (int)(c->nband + c->par++ % c->ncst);
	/* batched MATMUL: each band would need its own matrices */
	if (fp && (d->flags & VPUX_DPU_F_BATCH))
		goto whole;
	/* the largest band that fits a tile */
	for (rows = d->out_h; rows >= 1; rows = rows > 1 ? rows / 2 : 0) {
		if (band_need(d, rows, in_row, in2_row, out_row) <= TILE) {
			best = rows;
			break;
		}
	}
	if (best && best < d->out_h) {
		/* grow back up to the largest fitting size */
		uint32_t lo = best, hi = best * 2 < d->out_h ? best * 2 : d->out_h;

		while (lo < hi) {
			uint32_t mid = (lo + hi + 1) / 2;

			if (band_need(d, mid, in_row, in2_row, out_row) <= TILE)
				lo = mid;
			else
				hi = mid - 1;
		}
		best = lo;
	}
	if (!best)
		goto whole;
	nb = (d->out_h + best - 1) / best;
	for (b = 0; b < nb; b++)
		if (band_of(d, b * best, (b + 1) * best < d->out_h ?
			    (b + 1) * best : d->out_h, &bd))
			goto whole;
	/* constants into their tile */
	for (i = QD_IN2; ctile >= 0 && i <= QD_QUANT; i++)
		if (q->t[i] >= 0 && !(i == QD_IN2 && elt) &&
		    copy(p, node, q->t[i], q->off[i], c->cmx[ctile], coff[i],
			 opnd_len(p, q, (int)i)))
			return VPUX_E_NOMEM;
	for (b = 0; b <= nb; b++) {
		/* bring in band b (one ahead of the compute of band b - 1) */
		if (b < nb) {
			int s = c->cmx[b % c->nband];

			band_of(d, b * best, (b + 1) * best < d->out_h ?
				(b + 1) * best : d->out_h, &bd);
			if (copy(p, node, q->t[QD_IN],
				 q->off[QD_IN] + bd.r0 * in_row, s, 0,
				 (bd.r1 - bd.r0) * in_row))
				return VPUX_E_NOMEM;
			if (elt && copy(p, node, q->t[QD_IN2],
					q->off[QD_IN2] + bd.r0 * in2_row, s,
					al64((uint64_t)best * in_row),
					(bd.r1 - bd.r0) * in2_row))
				return VPUX_E_NOMEM;
		}
		if (b == 0)
			continue;
		{	/* compute band b - 1, then store it */
			uint32_t k = b - 1;
			int s = c->cmx[k % c->nband];
			uint64_t ooff = al64(band_need(d, best, in_row, in2_row,
						       0));
			struct qdpu w = *q;
			int op;

			band_of(d, k * best, (k + 1) * best < d->out_h ?
				(k + 1) * best : d->out_h, &bd);
			w.d.in_h = (uint16_t)(bd.r1 - bd.r0);
			w.d.out_h = (uint16_t)(bd.y1 - bd.y0);
			if (is_window(d)) {
				w.d.pad_top = (uint16_t)bd.pad_top;
				w.d.pad_bottom = (uint16_t)bd.pad_bottom;
			}
			w.t[QD_IN] = cmx_as(c, k % c->nband, q->t[QD_IN]);
			w.off[QD_IN] = 0;
			w.len[QD_IN] = (bd.r1 - bd.r0) * in_row;
			if (elt) {
				w.t[QD_IN2] = cmx_as(c, k % c->nband,
						     q->t[QD_IN2]);
				w.off[QD_IN2] = al64((uint64_t)best * in_row);
				w.len[QD_IN2] = (bd.r1 - bd.r0) * in2_row;
			}
			for (i = QD_IN2; ctile >= 0 && i <= QD_QUANT; i++)
				if (q->t[i] >= 0 && !(i == QD_IN2 && elt)) {
					w.len[i] = opnd_len(p, q, (int)i);
					w.t[i] = cmx_as(c, (unsigned int)ctile,
							q->t[i]);
					w.off[i] = coff[i];
				}
			w.t[QD_OUT] = cmx_as(c, k % c->nband, q->t[QD_OUT]);
			w.off[QD_OUT] = ooff;
			w.len[QD_OUT] = (bd.y1 - bd.y0) * out_row;
			op = vc_emit_dpu(p, node, &w);
			if (op < 0)
				return op;
			p->op[op].tiles = nb;
			if (copy(p, node, s, ooff, q->t[QD_OUT],
				 q->off[QD_OUT] + bd.y0 * out_row,
				 (bd.y1 - bd.y0) * out_row))
				return VPUX_E_NOMEM;
		}
	}
	free(o->dpu);
	return 0;
whole:
	o->tiles = 0;	/* from scratch */
	return push_op(p, o);
}

int vc_tile(struct qprog *p, unsigned int ntiles)
{
	struct tctx c;
	struct qop *old = p->op;
	unsigned int nold = p->nop, i, k;
	int64_t dims[1] = { (int64_t)TILE };
	int ret = 0;

	memset(&c, 0, sizeof(c));
	memset(c.cmxf, 0xff, sizeof(c.cmxf));
	c.p = p;
	if (!ntiles || ntiles > VPUX_LF_CMX_TILES)
		ntiles = VPUX_LF_CMX_TILES;
	c.nband = ntiles >= 3 ? 2 : 1;
	c.ncst = ntiles - c.nband;
	if (c.ncst > 2)
		c.ncst = 2;
	for (k = 0; k < c.nband + c.ncst; k++) {
		c.cmx[k] = vc_new_qt(p, VPUX_DT_U8, 1, dims, 0);
		if (c.cmx[k] < 0)
			return c.cmx[k];
		p->t[c.cmx[k]].region = QR_CMX;
		p->t[c.cmx[k]].index = k;
	}
	p->op = NULL;
	p->nop = p->cap_op = 0;
	for (i = 0; i < nold; i++) {
		if (!ret && old[i].kind == QOP_DPU && old[i].dpu)
			ret = tile_dpu(&c, &old[i]);
		else if (!ret)
			ret = push_op(p, &old[i]);
		else {
			free(old[i].text);
			free(old[i].dpu);
		}
	}
	free(old);
	return ret;
}
