/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test helper: lay out task memory (task-format.rst) in a host buffer.
 * The descriptor is at offset 0, then the barrier table, then the DMA,
 * DPU and SHAVE op lists. tb_wait()/tb_update() keep the barrier table's
 * consumer/producer counts consistent.
 */
#ifndef TASK_BUILDER_H
#define TASK_BUILDER_H

#include <stdlib.h>
#include <string.h>

#include <drm/vpux_task.h>
#include "dla_types.h"
#include "vpux_regs.h"

struct tb {
	unsigned char *buf;
	size_t size;
	struct dla_task_desc *d;
	struct dla_barrier_desc *bar;
	struct dla_dma_op *dma;
	struct dla_dpu_op *dpu;
	struct dla_shave_op *shave;
};

static inline size_t tb_bytes(unsigned int nb, unsigned int ndma,
			      unsigned int ndpu, unsigned int nshave)
{
	return sizeof(struct dla_task_desc) +
	       nb * sizeof(struct dla_barrier_desc) +
	       ndma * sizeof(struct dla_dma_op) +
	       ndpu * sizeof(struct dla_dpu_op) +
	       nshave * sizeof(struct dla_shave_op);
}

/* Lay out a task in @mem (tb_bytes() long, or allocated if NULL). */
static inline void tb_init(struct tb *t, void *mem, unsigned int nb,
			   unsigned int ndma, unsigned int ndpu,
			   unsigned int nshave)
{
	size_t off = sizeof(struct dla_task_desc);

	t->size = tb_bytes(nb, ndma, ndpu, nshave);
	t->buf = mem ? mem : malloc(t->size);
	memset(t->buf, 0, t->size);
	t->d = (struct dla_task_desc *)t->buf;
	t->d->magic = DLA_TASK_MAGIC;
	t->d->version_major = DLA_TASK_VERSION_MAJOR;
	t->d->version_minor = DLA_TASK_VERSION_MINOR;
	t->d->header_size = sizeof(struct dla_task_desc);
	t->d->num_barriers = nb;
	t->d->barriers_offset = (dla_u32)off;
	t->bar = (struct dla_barrier_desc *)(t->buf + off);
	off += nb * sizeof(struct dla_barrier_desc);
	t->d->ops[DLA_OP_DMA].count = ndma;
	t->d->ops[DLA_OP_DMA].offset = (dla_u32)off;
	t->dma = (struct dla_dma_op *)(t->buf + off);
	off += ndma * sizeof(struct dla_dma_op);
	t->d->ops[DLA_OP_DPU].count = ndpu;
	t->d->ops[DLA_OP_DPU].offset = (dla_u32)off;
	t->dpu = (struct dla_dpu_op *)(t->buf + off);
	off += ndpu * sizeof(struct dla_dpu_op);
	t->d->ops[DLA_OP_SHAVE].count = nshave;
	t->d->ops[DLA_OP_SHAVE].offset = (dla_u32)off;
	t->shave = (struct dla_shave_op *)(t->buf + off);
}

static inline void tb_wait(struct tb *t, struct dla_op_deps *d, unsigned int b)
{
	d->waits[d->num_waits++] = (dla_u16)b;
	t->bar[b].consumer_count++;
}

static inline void tb_update(struct tb *t, struct dla_op_deps *d,
			     unsigned int b)
{
	d->updates[d->num_updates++] = (dla_u16)b;
	t->bar[b].producer_count++;
}

static inline struct dla_buf_ref tb_ref(unsigned int index, unsigned int off,
					unsigned int size)
{
	struct dla_buf_ref r = { index, 0, off, size };

	return r;
}

static inline struct dla_buf_ref tb_cmx(unsigned int tile, unsigned int off,
					unsigned int size)
{
	struct dla_buf_ref r = { tile, DLA_REF_CMX, off, size };

	return r;
}

/* A contiguous copy of @len bytes. */
static inline void tb_copy(struct dla_dma_op *op, struct dla_buf_ref src,
			   struct dla_buf_ref dst, unsigned int len)
{
	op->len = len;
	op->src = src;
	op->dst = dst;
	op->count[0] = op->count[1] = op->count[2] = 1;
}

/*
 * Give DPU op @d (op and flags set) the quantisation fields the engine
 * requires of them: a x1.0 requant record (zero with per-channel records),
 * x1.0 input rescales for ADD (zero otherwise), the output type's full
 * range as clamp. Zero points stay as they are.
 */
static inline void tb_dpu_quant(struct dla_dpu_op *d)
{
	static const struct dla_requant one = { 1 << 30, -1 }, none = { 0, 0 };
	int s = !!(d->flags & VPUX_DPU_F_OUT_SIGNED);

	d->requant = d->flags & VPUX_DPU_F_PER_CHANNEL ? none : one;
	d->in_scale = d->in2_scale = d->op == VPUX_DPU_OP_ADD ? one : none;
	d->act_min = s ? -128 : 0;
	d->act_max = s ? 127 : 255;
}

#endif /* TASK_BUILDER_H */
