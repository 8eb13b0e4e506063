// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: the DMA engine. Up to 4-D strided copies between system
 * memory (device VAs, MMU-translated) and CMX, in any direction.
 *
 * The descriptor is decoded and checked first (VPUX_ENG_ERR_DESC); then
 * every row of both sides is translated (a fault fails the op before a
 * byte moves); then rows are copied through a bounce buffer in chunks of
 * at most VPUX_SIM_BOUNCE_SIZE bytes (the engine's own bounce buffer),
 * yielding the CPU regularly.
 */

#include "vpux_sim_priv.h"

struct dma_geom {
	u64 rows;	/* count[0] * count[1] * count[2] */
	u64 bytes;	/* rows * len */
};

static void dma_desc_load(const u32 *w, struct vpux_hw_dma_desc *d)
{
	memcpy(d, w, sizeof(*d));
}

/* Bytes spanned by one side: len + sum((count[i] - 1) * stride[i]). */
static bool dma_span(const struct vpux_hw_dma_desc *d, const u32 *stride,
		     u64 *span)
{
	u64 s = d->len;
	int i;

	for (i = 0; i < 3; i++) {
		u64 t = (u64)(d->count[i] - 1) * stride[i];

		if (t >= VPUX_SIM_MAX_SPAN)
			return false;
		s += t;
	}
	*span = s;
	return true;
}

/* One side must lie entirely in CMX or entirely outside it. */
static bool dma_side_ok(const struct vpux_sim *sim, u64 addr, u64 span)
{
	if (addr + span < addr)
		return false;
	if (vpux_sim_is_cmx(sim, addr, span))
		return true;
	return !vpux_sim_overlaps_cmx(sim, addr, span);
}

static int dma_decode(const struct vpux_sim *sim,
		      const struct vpux_hw_dma_desc *d, struct dma_geom *g)
{
	u64 rows = 1, span;
	int i;

	if (d->flags || d->reserved || !d->len)
		return -VPUX_ENG_ERR_DESC;
	for (i = 0; i < 3; i++) {
		if (!d->count[i])
			return -VPUX_ENG_ERR_DESC;
		rows *= d->count[i];
		if (rows > VPUX_SIM_DMA_MAX_BYTES)
			return -VPUX_ENG_ERR_DESC;
	}
	if (rows * d->len > VPUX_SIM_DMA_MAX_BYTES)
		return -VPUX_ENG_ERR_DESC;
	if (!dma_span(d, d->src_stride, &span) || !dma_side_ok(sim, d->src, span))
		return -VPUX_ENG_ERR_DESC;
	if (!dma_span(d, d->dst_stride, &span) || !dma_side_ok(sim, d->dst, span))
		return -VPUX_ENG_ERR_DESC;
	g->rows = rows;
	g->bytes = rows * d->len;
	return 0;
}

/* Visit every row: check (pass 0) or copy (pass 1). */
static int dma_rows(struct vpux_sim_op *op, const struct vpux_hw_dma_desc *d,
		    bool copy)
{
	u32 i1, i2, i3;
	int ret;

	for (i3 = 0; i3 < d->count[2]; i3++) {
		for (i2 = 0; i2 < d->count[1]; i2++) {
			u64 src = d->src + (u64)i3 * d->src_stride[2] +
				  (u64)i2 * d->src_stride[1];
			u64 dst = d->dst + (u64)i3 * d->dst_stride[2] +
				  (u64)i2 * d->dst_stride[1];

			for (i1 = 0; i1 < d->count[0]; i1++) {
				u64 done = 0;

				if (vpux_sim_op_cancelled(op))
					return -VPUX_ENG_ERR_ABORTED;

				if (!copy) {
					ret = vpux_sim_mem_check(op, src, d->len, false);
					if (!ret)
						ret = vpux_sim_mem_check(op, dst, d->len, true);
					if (ret)
						return ret;
					vpux_sim_op_yield(op, VPUX_SIM_YIELD_BYTES /
							  VPUX_SIM_YIELD_ROWS);
				}
				while (copy && done < d->len) {
					u64 n = d->len - done;

					if (n > VPUX_SIM_BOUNCE_SIZE)
						n = VPUX_SIM_BOUNCE_SIZE;
					ret = vpux_sim_mem_read(op, src + done,
								op->bounce, n);
					if (!ret)
						ret = vpux_sim_mem_write(op, dst + done,
									 op->bounce, n);
					if (ret)
						return ret;
					done += n;
					/* at least one unit per row so tiny rows yield too */
					vpux_sim_op_yield(op, n + VPUX_SIM_YIELD_BYTES /
							  VPUX_SIM_YIELD_ROWS);
				}
				src += d->src_stride[0];
				dst += d->dst_stride[0];
			}
		}
	}
	return 0;
}

void vpux_sim_dma_exec(struct vpux_sim_op *op)
{
	struct vpux_hw_dma_desc d;
	struct dma_geom g;
	int ret;

	dma_desc_load(op->words, &d);
	ret = dma_decode(op->sim, &d, &g);
	if (ret) {
		op->err = -ret;
		op->cycles = VPUX_SIM_ERR_CYCLES;
		return;
	}
	op->cycles = VPUX_SIM_DMA_SETUP_CYCLES;
	ret = dma_rows(op, &d, false);
	if (!ret)
		ret = dma_rows(op, &d, true);
	if (ret) {
		op->err = -ret;
		return;
	}
	op->cycles += ((g.bytes + (1u << VPUX_SIM_DMA_BYTES_PER_CYCLE_SHIFT) - 1) >>
		       VPUX_SIM_DMA_BYTES_PER_CYCLE_SHIFT) +
		      (g.rows - 1) * VPUX_SIM_DMA_ROW_CYCLES;
}
