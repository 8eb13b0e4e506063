// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Loadable -> task memory (uapi/vpux/dla_task_format.h). Tensor-
 * relative operands become buffer references into fixed address-list
 * slots (priv.h): weights, kernel arguments, scratch, inputs, outputs. The
 * result has no addresses, so it is built once per network and shared by
 * every request; binding fills in the address list only.
 */
#include <string.h>

#include "dla_task_format.h"
#include "priv.h"

uint32_t vpux_task_size(const struct lf_image *img)
{
	return (uint32_t)(sizeof(struct dla_task_desc) +
			  img->n_barriers * sizeof(struct dla_barrier_desc) +
			  img->n_dma * sizeof(struct dla_dma_op) +
			  img->n_dpu * sizeof(struct dla_dpu_op) +
			  img->n_shave * sizeof(struct dla_shave_op));
}

static unsigned int slot_of(const struct lf_image *img, uint32_t region)
{
	uint32_t idx = VPUX_LF_REGION_INDEX(region);

	switch (VPUX_LF_REGION_KIND(region)) {
	case VPUX_LF_RK_WEIGHTS:
		return SLOT_WEIGHTS;
	case VPUX_LF_RK_SCRATCH:
		return SLOT_SCRATCH;
	case VPUX_LF_RK_INPUT:
		return SLOT_IO + idx;
	default:
		return SLOT_IO + img->hdr.num_inputs + idx;
	}
}

static struct dla_buf_ref ref(const struct lf_image *img,
			      const struct vpux_lf_ref *r)
{
	struct dla_buf_ref d = { 0, 0, 0, 0 };
	const struct vpux_lf_tensor *t;

	if (!r->size)
		return d;
	t = &img->tensors[r->tensor];
	if (VPUX_LF_REGION_KIND(t->region) == VPUX_LF_RK_CMX) {
		d.index = VPUX_LF_REGION_INDEX(t->region);
		d.flags = DLA_REF_CMX;
		d.offset = (dla_u32)(t->offset + r->offset);
		d.size = r->size;
		return d;
	}
	d.index = slot_of(img, t->region);
	d.offset = (dla_u32)(t->offset + r->offset);
	d.size = r->size;
	return d;
}

static void deps(struct dla_op_deps *d, const struct vpux_lf_deps *s)
{
	memcpy(d, s, sizeof(*d));
}

void vpux_task_build(const struct vpux_network *net, void *mem)
{
	const struct lf_image *img = &net->img;
	unsigned char *p = mem;
	struct dla_task_desc *td = mem;
	struct dla_barrier_desc *bar;
	struct dla_dma_op *dma;
	struct dla_dpu_op *dpu;
	struct dla_shave_op *sh;
	size_t off = sizeof(*td);
	uint32_t i, w;

	memset(mem, 0, net->task_size);
	td->magic = DLA_TASK_MAGIC;
	td->version_major = DLA_TASK_VERSION_MAJOR;
	td->version_minor = DLA_TASK_VERSION_MINOR;
	td->header_size = sizeof(*td);
	td->num_barriers = img->n_barriers;
	td->barriers_offset = (dla_u32)off;
	bar = (void *)(p + off);
	for (i = 0; i < img->n_barriers; i++) {
		bar[i].producer_count = img->barriers[i].producer_count;
		bar[i].consumer_count = img->barriers[i].consumer_count;
	}
	off += img->n_barriers * sizeof(*bar);
	td->ops[DLA_OP_DMA].count = img->n_dma;
	td->ops[DLA_OP_DMA].offset = (dla_u32)off;
	dma = (void *)(p + off);
	for (i = 0; i < img->n_dma; i++) {
		const struct vpux_lf_dma *s = &img->dma[i];

		deps(&dma[i].deps, &s->deps);
		dma[i].len = s->len;
		dma[i].src = ref(img, &s->src);
		dma[i].dst = ref(img, &s->dst);
		memcpy(dma[i].count, s->count, sizeof(s->count));
		memcpy(dma[i].src_stride, s->src_stride, sizeof(s->src_stride));
		memcpy(dma[i].dst_stride, s->dst_stride, sizeof(s->dst_stride));
	}
	off += img->n_dma * sizeof(*dma);
	td->ops[DLA_OP_DPU].count = img->n_dpu;
	td->ops[DLA_OP_DPU].offset = (dla_u32)off;
	dpu = (void *)(p + off);
	for (i = 0; i < img->n_dpu; i++) {
		const struct vpux_lf_dpu *s = &img->dpu[i];
		struct dla_dpu_op *d = &dpu[i];

		deps(&d->deps, &s->deps);
		d->op = s->op;
		d->flags = s->flags;
		d->in = ref(img, &s->in);
		d->in2 = ref(img, &s->in2);
		d->bias = ref(img, &s->bias);
		d->quant = ref(img, &s->quant);
		d->out = ref(img, &s->out);
		memcpy(&d->in_c, &s->in_c, 20 * sizeof(dla_u16));
		d->in_zp = s->in_zp;
		d->in2_zp = s->in2_zp;
		d->out_zp = s->out_zp;
		d->act_min = s->act_min;
		d->act_max = s->act_max;
		d->requant = (struct dla_requant){ s->requant_mult,
						   s->requant_shift };
		d->in_scale = (struct dla_requant){ s->in_scale_mult,
						    s->in_scale_shift };
		d->in2_scale = (struct dla_requant){ s->in2_scale_mult,
						     s->in2_scale_shift };
	}
	off += img->n_dpu * sizeof(*dpu);
	td->ops[DLA_OP_SHAVE].count = img->n_shave;
	td->ops[DLA_OP_SHAVE].offset = (dla_u32)off;
	sh = (void *)(p + off);
	for (i = 0; i < img->n_shave; i++) {
		const struct vpux_lf_shave *s = &img->shave[i];

		deps(&sh[i].deps, &s->deps);
		sh[i].kernel_id = s->kernel_id;
		sh[i].args = (struct dla_buf_ref){ SLOT_KARGS, 0,
						   s->args_offset,
						   s->args_size };
		for (w = 0; w < VPUX_LF_MAX_WINDOWS; w++)
			sh[i].windows[w] = ref(img, &s->windows[w]);
	}
}
