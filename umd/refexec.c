// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * CPU reference executor: runs a whole network op by op with the plain
 * references of ref/ (vpux_ref_dpu_run, vpux_ref_shave_run) and a
 * plain strided copy for DMA, in an order the barriers allow. Validation
 * has bounded every operand, so plain pointer arithmetic is safe here.
 */
#include <stdlib.h>
#include <string.h>

#include "dla_limits.h"
#include "err.h"
#include "lf_hw.h"
#include "lf_plan.h"
#include "priv.h"
#include "vpux_shave_elf.h"

struct ref_ctx {
	const struct lf_image *img;
	unsigned char *weights, *scratch;
	unsigned char *cmx;	/* VPUX_LF_CMX_TILES tiles, one after another */
	unsigned char **in, **out;
	/* the symbol buffer: u64 little-endian slots */
	unsigned char sym[VPUX_LF_MAX_SYMBOLS * 8];
	/* SHAVE windows of the current op */
	unsigned char *wbase[VPUX_LF_MAX_WINDOWS];
	uint32_t wsize[VPUX_LF_MAX_WINDOWS];
};

static unsigned char *ptr(struct ref_ctx *c, const struct vpux_lf_ref *r)
{
	const struct vpux_lf_tensor *t;
	unsigned char *base;
	uint32_t idx;

	if (!r->size)
		return NULL;
	t = &c->img->tensors[r->tensor];
	idx = VPUX_LF_REGION_INDEX(t->region);
	switch (VPUX_LF_REGION_KIND(t->region)) {
	case VPUX_LF_RK_WEIGHTS:
		base = c->weights;
		break;
	case VPUX_LF_RK_SCRATCH:
		base = c->scratch;
		break;
	case VPUX_LF_RK_INPUT:
		base = c->in[idx];
		break;
	case VPUX_LF_RK_CMX:
		base = c->cmx + (size_t)idx * VPUX_LF_CMX_TILE_SIZE;
		break;
	case VPUX_LF_RK_SYMBOLS:
		base = c->sym;
		break;
	default:
		base = c->out[idx];
		break;
	}
	return base + t->offset + r->offset;
}

static int win_check(struct ref_ctx *c, u32 waddr, u32 len)
{
	u32 w = VPUX_WADDR_WINDOW(waddr), off = VPUX_WADDR_OFFSET(waddr);

	if (w >= VPUX_LF_MAX_WINDOWS || !c->wbase[w] || off > c->wsize[w] ||
	    len > c->wsize[w] - off)
		return -1;
	return 0;
}

static int mem_read(void *ctx, u32 waddr, void *dst, u32 len)
{
	struct ref_ctx *c = ctx;

	if (win_check(c, waddr, len))
		return VPUX_ERR(MMU);
	memcpy(dst, c->wbase[VPUX_WADDR_WINDOW(waddr)] +
		    VPUX_WADDR_OFFSET(waddr), len);
	return 0;
}

static int mem_write(void *ctx, u32 waddr, const void *src, u32 len)
{
	struct ref_ctx *c = ctx;

	if (win_check(c, waddr, len))
		return VPUX_ERR(MMU);
	memmove(c->wbase[VPUX_WADDR_WINDOW(waddr)] + VPUX_WADDR_OFFSET(waddr),
		src, len);
	return 0;
}

static void *mem_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size ? size : 1);
}

static void mem_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static int run_dma(struct ref_ctx *c, const struct vpux_lf_dma *o)
{
	unsigned char *s = ptr(c, &o->src), *d = ptr(c, &o->dst);
	uint32_t i, j, k;

	for (k = 0; k < o->count[2]; k++)
		for (j = 0; j < o->count[1]; j++)
			for (i = 0; i < o->count[0]; i++)
				memmove(d + (uint64_t)k * o->dst_stride[2] +
					(uint64_t)j * o->dst_stride[1] +
					(uint64_t)i * o->dst_stride[0],
					s + (uint64_t)k * o->src_stride[2] +
					(uint64_t)j * o->src_stride[1] +
					(uint64_t)i * o->src_stride[0],
					o->len);
	return 0;
}

/* op @i of @kind as record @rec (a plan template's instance) */
static int run_rec(struct ref_ctx *c, unsigned int kind, uint32_t i,
		   const void *rec)
{
	const struct lf_image *img = c->img;
	int ret;

	if (kind == LF_DMA)
		return run_dma(c, rec);
	if (kind == LF_DPU) {
		const struct vpux_lf_dpu *o = rec;
		struct vpux_hw_dpu_desc hd;
		struct vpux_dpu_operands ops;

		lf_dpu_to_hw(o, &hd);
		memset(&ops, 0, sizeof(ops));
		ops.in = ptr(c, &o->in);
		ops.in2 = ptr(c, &o->in2);
		ops.bias = (const s32 *)ptr(c, &o->bias);
		ops.quant = (const struct vpux_hw_requant *)ptr(c, &o->quant);
		ops.out = ptr(c, &o->out);
		ret = vpux_ref_dpu_run(&hd, &ops);
	} else {
		const struct vpux_lf_shave *o = rec;
		struct vpux_shave_mem mem = { c, mem_read, mem_write, mem_alloc,
					      mem_free, NULL };
		unsigned int w;

		if (o->kernel_id == VPUX_SHAVE_KERNEL_ELF)	/* 1.5 */
			return vpux_err(VPUX_E_UNSUPPORTED,
					"reference: SHAVE op %u runs ELF kernel '%s': the CPU reference runs no kernel code",
					i, img->kernels[lf_kinv_of(img, i)->kernel].name);
		for (w = 0; w < VPUX_LF_MAX_WINDOWS; w++) {
			c->wbase[w] = ptr(c, &o->windows[w]);
			c->wsize[w] = o->windows[w].size;
		}
		ret = vpux_ref_shave_run(o->kernel_id,
					 img->kargs + o->args_offset,
					 o->args_size, &mem);
	}
	if (ret)
		return vpux_err(VPUX_E_DEVICE,
				"reference: %s op %u failed (engine error %d)",
				kind == LF_DPU ? "DPU" : "SHAVE", i, ret);
	return 0;
}

static int run_op(void *ctx, unsigned int kind, uint32_t i)
{
	struct ref_ctx *c = ctx;

	return run_rec(c, kind, i, lf_op_record(c->img, kind, i));
}

/*
 * A plan, expanded here in loadable terms (lf_plan.c, not the engine
 * core's expander): blocks in order, each iteration's templates in
 * order (a template's waits are on earlier ones). Every instance is
 * checked as the loader checks a static op before it runs: validation
 * saw only the first and last iterations.
 */
static int run_plan(struct ref_ctx *c, const uint64_t *sym)
{
	const struct lf_image *img = c->img;
	struct lf_block_iter it;
	struct lf_loop_vals lv;
	union lf_op_rec rec;
	uint64_t flat;
	uint32_t b, j, pa;
	int ret;

	for (b = 0; b < img->n_blocks; b++) {
		const struct vpux_lf_plan_block *bl = &img->blocks[b];

		if (lf_block_iter(img, b, sym, &it))
			return vpux_err(VPUX_E_DEVICE,
					"reference: plan block %u: a loop extent overflows",
					b);
		/* the load checked the bounds, not every value between */
		if (it.ops > DLA_PLAN_MAX_EXPANDED)
			return vpux_err(VPUX_E_DEVICE,
					"reference: plan block %u: %llu ops, the engine core expands at most %u",
					b, (unsigned long long)it.ops,
					DLA_PLAN_MAX_EXPANDED);
		for (flat = 0; flat < it.ops / bl->n_templates; flat++) {
			lf_block_vals(img, b, &it, flat, &lv);
			for (j = 0; j < bl->n_templates; j++) {
				uint32_t ti = bl->first_template + j;
				const struct vpux_lf_plan_template *t =
					&img->templates[ti];

				if (lf_plan_instance(img, ti, sym, &lv, &rec,
						     &pa))
					return vpux_err(VPUX_E_DEVICE,
							"reference: plan block %u template %u: patch %u overflows",
							b, ti, pa);
				ret = lf_check_op(img, t->kind, t->op, &rec);
				if (!ret)
					ret = run_rec(c, t->kind, t->op, &rec);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

int vpux_network_run_reference(struct vpux_network *net,
			       const void *const *inputs,
			       void *const *outputs)
{
	return vpux_run_reference_sym(net, NULL, inputs, outputs);
}

int vpux_run_reference_sym(struct vpux_network *net, const uint64_t *sym,
			   const void *const *inputs, void *const *outputs)
{
	return vpux_run_reference_shapes(net, sym, inputs, outputs, NULL);
}

/* output @i's shape after a reference run of @c: the kernel's or @sym's */
static int ref_shape(struct vpux_network *net, struct ref_ctx *c,
		     const uint64_t *sym, unsigned int i,
		     struct vpux_shape *shape)
{
	const struct lf_image *img = &net->img;
	const struct lf_dims_src *src = &net->out_src[i];
	struct vpux_lf_tensor rt;
	unsigned char *base;
	uint32_t d;

	if (net->out_op[i] >= 0) {
		base = VPUX_LF_REGION_KIND(src->region) == VPUX_LF_RK_SCRATCH ?
		       c->scratch : c->out[VPUX_LF_REGION_INDEX(src->region)];
		return vpux_kernel_shape(net, i, base + src->offset, shape);
	}
	lf_tensor_resolve(img, &img->tensors[net->io_tensor[img->hdr.num_inputs + i]],
			  sym, &rt);
	memset(shape, 0, sizeof(*shape));
	shape->rank = rt.rank;
	for (d = 0; d < rt.rank; d++)
		shape->d[d] = rt.dims[d];
	return 0;
}

int vpux_run_reference_shapes(struct vpux_network *net, const uint64_t *sym,
			      const void *const *inputs, void *const *outputs,
			      struct vpux_shape *shapes)
{
	uint64_t smax[VPUX_LF_MAX_SYMBOLS];
	const struct lf_image *img;
	struct ref_ctx c;
	unsigned int i, nin;
	int ret = 0;

	if (!net || (!inputs && net->img.hdr.num_inputs) || !outputs)
		return vpux_err(VPUX_E_INVAL, "reference: NULL argument");
	img = &net->img;
	nin = img->hdr.num_inputs;
	memset(&c, 0, sizeof(c));
	c.img = img;
	c.weights = (unsigned char *)img->weights;
	c.scratch = calloc(1, img->hdr.scratch_size ? img->hdr.scratch_size : 1);
	c.in = calloc(nin + 1, sizeof(*c.in));
	c.out = calloc(img->hdr.num_outputs, sizeof(*c.out));
	c.cmx = calloc(VPUX_LF_CMX_TILES, VPUX_LF_CMX_TILE_SIZE);
	if (!c.scratch || !c.in || !c.out || !c.cmx)
		ret = vpux_err(VPUX_E_NOMEM, "reference: out of memory");
	/* private copies: ops may use an input region as scratch */
	for (i = 0; !ret && i < nin; i++) {
		uint64_t sz = img->tensors[net->io_tensor[i]].size;

		c.in[i] = malloc(sz ? sz : 1);
		if (!c.in[i])
			ret = vpux_err(VPUX_E_NOMEM, "reference: out of memory");
		else
			memcpy(c.in[i], inputs[i], sz);
	}
	for (i = 0; !ret && i < img->hdr.num_outputs; i++)
		c.out[i] = outputs[i];
	if (!sym) {
		for (i = 0; i < img->n_symbols; i++)
			smax[i] = (uint64_t)img->symbols[i].max;
		sym = smax;
	}
	for (i = 0; i < img->n_symbols * 8u; i++)
		c.sym[i] = (unsigned char)(sym[i / 8] >> (8 * (i % 8)));
	if (!ret && img->n_blocks)
		ret = run_plan(&c, sym);
	else if (!ret)
		ret = lf_schedule(img, run_op, &c);
	for (i = 0; !ret && shapes && i < img->hdr.num_outputs; i++)
		ret = ref_shape(net, &c, sym, i, &shapes[i]);
	for (i = 0; c.in && i < nin; i++)
		free(c.in[i]);
	free(c.in);
	free(c.out);
	free(c.scratch);
	free(c.cmx);
	return ret;
}
