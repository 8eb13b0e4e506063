// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Loadable -> task memory (uapi/drm/vpux_task.h). Tensor-
 * relative operands become buffer references into fixed address-list
 * slots (priv.h): weights, kernel arguments, scratch, inputs, outputs. The
 * result has no addresses, so it is built once per network and shared by
 * every request; binding fills in the address list only. A network
 * whose CMX tiles fit the device more than once gets one copy per tile
 * set, its CMX references moved up by the set's first tile (network.c).
 */
#include <string.h>

#include <drm/vpux_task.h>
#include "dla_types.h"
#include "lf_fields.h"
#include "lf_plan.h"
#include "priv.h"
#include "vpux_shave_elf.h"

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
	case VPUX_LF_RK_SYMBOLS:
		/* the request's symbol buffer: one past the fixed slots */
		return SLOT_IO + img->hdr.num_inputs + img->hdr.num_outputs;
	default:
		return SLOT_IO + img->hdr.num_inputs + idx;
	}
}

/*
 * @r as a buffer reference; an empty one stays all zero unless @patched
 * (a template whose plan patches its offset or size).
 */
static struct dla_buf_ref ref_p(const struct lf_image *img,
				const struct vpux_lf_ref *r, int patched,
				unsigned int ts)
{
	struct dla_buf_ref d = { 0, 0, 0, 0 };
	const struct vpux_lf_tensor *t;

	if ((!r->size && !patched) || r->tensor >= img->n_tensors)
		return d;
	t = &img->tensors[r->tensor];
	if (VPUX_LF_REGION_KIND(t->region) == VPUX_LF_RK_CMX) {
		d.index = VPUX_LF_REGION_INDEX(t->region) + ts;
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

/* Does a patch of template @tpl write the offset or size of @r? */
static int patched(const struct lf_image *img,
		   const struct vpux_lf_plan_template *tpl, const void *rec,
		   const struct vpux_lf_ref *r)
{
	size_t at = (size_t)((const char *)r - (const char *)rec);
	uint32_t i;

	if (!tpl)
		return 0;
	for (i = 0; i < tpl->n_patches; i++) {
		const struct lf_field *f =
			lf_field_by_id(img->patches[tpl->first_patch + i].field);

		if (f && f->lf_offset >= at + 8 && f->lf_offset < at + 16)
			return 1;
	}
	return 0;
}

#define REF(field) ref_p(img, &s->field, patched(img, tpl, s, &s->field), ts)

static void dma_rec(const struct lf_image *img,
		    const struct vpux_lf_plan_template *tpl,
		    const struct vpux_lf_dma *s, struct dla_dma_op *d,
		    unsigned int ts)
{
	deps(&d->deps, &s->deps);
	d->len = s->len;
	d->src = REF(src);
	d->dst = REF(dst);
	memcpy(d->count, s->count, sizeof(s->count));
	memcpy(d->src_stride, s->src_stride, sizeof(s->src_stride));
	memcpy(d->dst_stride, s->dst_stride, sizeof(s->dst_stride));
}

static void dpu_rec(const struct lf_image *img,
		    const struct vpux_lf_plan_template *tpl,
		    const struct vpux_lf_dpu *s, struct dla_dpu_op *d,
		    unsigned int ts)
{
	deps(&d->deps, &s->deps);
	d->op = s->op;
	d->flags = s->flags;
	d->in = REF(in);
	d->in2 = REF(in2);
	d->bias = REF(bias);
	d->quant = REF(quant);
	d->out = REF(out);
	memcpy(&d->in_c, &s->in_c, 20 * sizeof(dla_u16));
	d->in_zp = s->in_zp;
	d->in2_zp = s->in2_zp;
	d->out_zp = s->out_zp;
	d->act_min = s->act_min;
	d->act_max = s->act_max;
	d->requant = (struct dla_requant){ s->requant_mult, s->requant_shift };
	d->in_scale = (struct dla_requant){ s->in_scale_mult,
					    s->in_scale_shift };
	d->in2_scale = (struct dla_requant){ s->in2_scale_mult,
					     s->in2_scale_shift };
}

/*
 * An ELF kernel task (1.5): code, arguments and RW data are in the
 * kernel-argument buffer (slot SLOT_KARGS: .vpux.kargs, .vpux.kcode,
 * .vpux.kdata), WIN_F is windows[0], the stack the tile's configuration.
 */
static void elf_rec(const struct lf_image *img,
		    const struct vpux_lf_plan_template *tpl,
		    const struct vpux_lf_shave *s,
		    struct dla_shave_task_op *d, unsigned int ts)
{
	const struct vpux_lf_kinvocation *v =
		lf_kinv_of(img, (uint32_t)(s - img->shave));
	const struct vpux_lf_kernel *k;

	deps(&d->deps, &s->deps);
	d->kernel_id = VPUX_SHAVE_KERNEL_ELF;
	if (!v)		/* refused on load */
		return;
	k = &img->kernels[v->kernel];
	d->entry = k->entry;
	if (s->args_size)
		d->args = (struct dla_buf_ref){ SLOT_KARGS, 0, s->args_offset,
						 s->args_size };
	d->code = (struct dla_buf_ref){ SLOT_KARGS, 0,
					lf_kcode_base(img) + k->code_offset,
					k->code_size };
	if (v->data_size)
		d->data = (struct dla_buf_ref){ SLOT_KARGS, 0,
						lf_kdata_base(img) +
						v->data_offset, v->data_size };
	d->win_f = REF(windows[0]);
	d->stack_size = img->kstacks[v->tile].stack_size;
	d->tile = v->tile + ts;	/* the tile set's copy of that tile */
	d->kernel = v->kernel;
	d->invocation = (uint32_t)(v - img->kinvs);
	d->budget = v->budget;
	/* the loadable's runtime kernel, or (all zero) the engine's own */
	k = lf_runtime_kernel(img);
	if (k) {
		d->runtime = (struct dla_buf_ref){ SLOT_KARGS, 0,
						   lf_kcode_base(img) +
						   k->code_offset,
						   k->code_size };
		d->runtime_entry = k->entry;
		d->runtime_kernel = (uint32_t)(k - img->kernels);
	}
}

static void shave_rec(const struct lf_image *img,
		      const struct vpux_lf_plan_template *tpl,
		      const struct vpux_lf_shave *s, struct dla_shave_op *d,
		      unsigned int ts)
{
	uint32_t w;

	if (s->kernel_id == VPUX_SHAVE_KERNEL_ELF) {
		elf_rec(img, tpl, s, (struct dla_shave_task_op *)d, ts);
		return;
	}
	deps(&d->deps, &s->deps);
	d->kernel_id = s->kernel_id;
	d->args = (struct dla_buf_ref){ SLOT_KARGS, 0, s->args_offset,
					 s->args_size };
	for (w = 0; w < VPUX_LF_MAX_WINDOWS; w++)
		d->windows[w] = REF(windows[w]);
}

static size_t dla_rec_size(uint32_t kind)
{
	return kind == LF_DMA ? sizeof(struct dla_dma_op) :
	       kind == LF_DPU ? sizeof(struct dla_dpu_op) :
	       sizeof(struct dla_shave_op);
}

/* The tensor offset a ref-offset patch of @tpl's record adds, or 0. */
static uint32_t patch_base(const struct lf_image *img,
			   const struct vpux_lf_plan_template *tpl,
			   const struct lf_field *f)
{
	const char *rec = lf_op_record(img, tpl->kind, tpl->op);
	struct vpux_lf_ref r;

	if (!f->is_ref_offset)
		return 0;
	memcpy(&r, rec + f->lf_offset - offsetof(struct vpux_lf_ref, offset),
	       sizeof(r));
	return r.tensor < img->n_tensors ?
	       (uint32_t)img->tensors[r.tensor].offset : 0;
}

/* Is template @tpl an ELF kernel task (task format minor 3)? */
static int elf_template(const struct lf_image *img,
			const struct vpux_lf_plan_template *tpl)
{
	return tpl->kind == LF_SHAVE &&
	       img->shave[tpl->op].kernel_id == VPUX_SHAVE_KERNEL_ELF;
}

/*
 * Where field @f lands in @tpl's device record: an ELF task's WIN_F is
 * the loadable's windows[0] and the record's win_f.
 */
static uint16_t patch_offset(const struct lf_image *img,
			     const struct vpux_lf_plan_template *tpl,
			     const struct lf_field *f)
{
	uint16_t w0 = offsetof(struct dla_shave_op, windows[0]);

	if (!elf_template(img, tpl) || f->dla_offset < w0 ||
	    f->dla_offset >= w0 + sizeof(struct dla_buf_ref))
		return f->dla_offset;
	return (uint16_t)(f->dla_offset - w0 +
			  offsetof(struct dla_shave_task_op, win_f));
}

/* Words of the add of @base to an expression */
static uint32_t add_words(uint32_t base)
{
	return !base ? 0 : base <= DLA_EXPR_ARG(~0u) ? 1 : 3;
}

/*
 * Lay out the device plan of @img at @p (or only count its bytes, @p
 * NULL): header, symbols' bounds, blocks, templates each followed by its
 * op record, every template's own copy of its patches (a ref-offset
 * patch's expression gains "+ the tensor's offset": two templates
 * sharing a patch may name different tensors), the expression pool
 * (the blocks' extents as they are, then the patches').
 */
static size_t plan_build(const struct lf_image *img, unsigned char *p)
{
	struct dla_plan_header h = { .magic = DLA_PLAN_MAGIC };
	uint32_t i, j, l, words = 0, npat = 0;
	size_t off, pat_off, expr_off;

	for (i = 0; i < img->n_blocks; i++)
		for (l = 0; l < img->blocks[i].depth; l++)
			words += img->blocks[i].loop[l].extent_len;
	for (i = 0; i < img->n_templates; i++) {
		const struct vpux_lf_plan_template *t = &img->templates[i];

		for (j = 0; j < t->n_patches; j++) {
			const struct vpux_lf_plan_patch *pa =
				&img->patches[t->first_patch + j];

			words += pa->len + add_words(patch_base(img, t,
						lf_field_by_id(pa->field)));
		}
		npat += t->n_patches;
	}
	h.n_symbols = img->n_symbols;
	h.n_blocks = img->n_blocks;
	h.n_templates = img->n_templates;
	h.n_patches = npat;
	h.expr_words = words;
	off = sizeof(h) + img->n_symbols * sizeof(struct dla_plan_symbol) +
	      img->n_blocks * sizeof(struct dla_plan_block);
	for (i = 0; i < img->n_templates; i++)
		off += sizeof(struct dla_plan_template) +
		       dla_rec_size(img->templates[i].kind);
	pat_off = off;
	expr_off = off + npat * sizeof(struct dla_plan_patch);
	if (!p)
		return expr_off + (size_t)words * 4;

	memcpy(p, &h, sizeof(h));
	off = sizeof(h);
	for (i = 0; i < img->n_symbols; i++, off += sizeof(struct dla_plan_symbol)) {
		struct dla_plan_symbol y = { (dla_u32)img->symbols[i].min,
					     (dla_u32)img->symbols[i].max };

		memcpy(p + off, &y, sizeof(y));
	}
	words = 0;
	for (i = 0; i < img->n_blocks; i++, off += sizeof(struct dla_plan_block)) {
		const struct vpux_lf_plan_block *s = &img->blocks[i];
		struct dla_plan_block b;

		memset(&b, 0, sizeof(b));
		b.depth = s->depth;
		b.first_template = s->first_template;
		b.n_templates = s->n_templates;
		for (l = 0; l < s->depth; l++) {
			b.loop[l].extent = (dla_u16)words;
			b.loop[l].len = (dla_u16)s->loop[l].extent_len;
			b.loop[l].tile = s->loop[l].tile;
			memcpy(p + expr_off + words * 4u,
			       img->expr + s->loop[l].extent,
			       s->loop[l].extent_len * 4u);
			words += s->loop[l].extent_len;
		}
		memcpy(p + off, &b, sizeof(b));
	}
	npat = 0;
	for (i = 0; i < img->n_templates; i++) {
		const struct vpux_lf_plan_template *t = &img->templates[i];
		const void *rec = lf_op_record(img, t->kind, t->op);
		struct dla_plan_template dt = { t->kind, t->wait_mask, npat,
						t->n_patches };

		memcpy(p + off, &dt, sizeof(dt));
		off += sizeof(dt);
		if (t->kind == LF_DMA)
			dma_rec(img, t, rec, (void *)(p + off), 0);
		else if (t->kind == LF_DPU)
			dpu_rec(img, t, rec, (void *)(p + off), 0);
		else
			shave_rec(img, t, rec, (void *)(p + off), 0);
		off += dla_rec_size(t->kind);
		for (j = 0; j < t->n_patches; j++, npat++) {
			const struct vpux_lf_plan_patch *pa =
				&img->patches[t->first_patch + j];
			const struct lf_field *f = lf_field_by_id(pa->field);
			uint32_t base = patch_base(img, t, f), n = pa->len;
			uint32_t *x = (uint32_t *)(p + expr_off) + words;
			struct dla_plan_patch dp = { patch_offset(img, t, f),
						     f->width,
						     (dla_u16)words, 0 };

			memcpy(x, img->expr + pa->expr, n * 4u);
			if (add_words(base) == 1) {
				x[n++] = DLA_EXPR_TOKEN(DLA_EXPR_ADD +
							DLA_EXPR_IMM, base);
			} else if (base) {
				x[n++] = DLA_EXPR_TOKEN(DLA_EXPR_CONST32, 0);
				x[n++] = base;
				x[n++] = DLA_EXPR_TOKEN(DLA_EXPR_ADD, 0);
			}
			dp.len = (dla_u16)n;
			words += n;
			memcpy(p + pat_off + (size_t)npat * sizeof(dp), &dp,
			       sizeof(dp));
		}
	}
	return expr_off + (size_t)words * 4;
}

uint32_t vpux_task_size(const struct lf_image *img)
{
	if (img->n_blocks)
		return (uint32_t)(sizeof(struct dla_task_desc) +
				  plan_build(img, NULL));
	return (uint32_t)(sizeof(struct dla_task_desc) +
			  img->n_barriers * sizeof(struct dla_barrier_desc) +
			  img->n_dma * sizeof(struct dla_dma_op) +
			  img->n_dpu * sizeof(struct dla_dpu_op) +
			  img->n_shave * sizeof(struct dla_shave_op));
}

void vpux_task_build(const struct vpux_network *net, void *mem,
		     unsigned int ts)
{
	const struct lf_image *img = &net->img;
	unsigned char *p = mem;
	struct dla_task_desc *td = mem;
	struct dla_barrier_desc *bar;
	size_t off = sizeof(*td);
	uint32_t i;

	memset(mem, 0, net->task_size);
	td->magic = DLA_TASK_MAGIC;
	td->version_major = DLA_TASK_VERSION_MAJOR;
	td->version_minor = img->n_blocks ? 1 : 0;
	for (i = 0; i < img->n_templates; i++)
		if (elf_template(img, &img->templates[i]))
			td->version_minor = 3;	/* ELF SHAVE templates */
	td->header_size = sizeof(*td);
	if (net->n_place > 1) {
		/*
		 * one of several task copies: the engine core refuses a CMX
		 * reference outside its tile set (DLA_ERR_CMX_WINDOW)
		 */
		if (td->version_minor < 2)
			td->version_minor = 2;
		td->flags = DLA_TASK_F_TILES;
		td->tile_first = (dla_u16)ts;
		td->tile_count = (dla_u16)net->tile_span;
	}
	if (img->n_blocks) {
		/* a plan: no static ops, the symbols one past the slots */
		td->flags |= DLA_TASK_F_PLAN;
		td->plan_offset = (dla_u32)off;
		td->plan_size = (dla_u32)plan_build(img, p + off);
		td->sym_index = net->n_slots;
		return;
	}
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
	for (i = 0; i < img->n_dma; i++, off += sizeof(struct dla_dma_op))
		dma_rec(img, NULL, &img->dma[i], (void *)(p + off), ts);
	td->ops[DLA_OP_DPU].count = img->n_dpu;
	td->ops[DLA_OP_DPU].offset = (dla_u32)off;
	for (i = 0; i < img->n_dpu; i++, off += sizeof(struct dla_dpu_op))
		dpu_rec(img, NULL, &img->dpu[i], (void *)(p + off), ts);
	td->ops[DLA_OP_SHAVE].count = img->n_shave;
	td->ops[DLA_OP_SHAVE].offset = (dla_u32)off;
	for (i = 0; i < img->n_shave; i++, off += sizeof(struct dla_shave_op))
		shave_rec(img, NULL, &img->shave[i], (void *)(p + off), ts);
}
