// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Helpers over a parsed loadable: sizes, deps, the barrier schedule. */
#include <stdlib.h>
#include <string.h>

#include <stddef.h>

#include "err.h"
#include "hostconv.h"
#include "lf.h"
#include "lf_hw.h"
#include "vpux_shave_abi.h"

/*
 * The loadable's tensors use the API's VPUX_DT_* codes and SHAVE memrefs
 * the engine's VPUX_SHAVE_DT_*: lf_dt_bits() sizes both and the assembler
 * copies a tensor's type into its memrefs, so the codes must agree.
 */
_Static_assert(VPUX_DT_U8 == VPUX_SHAVE_DT_U8 &&
	       VPUX_DT_I8 == VPUX_SHAVE_DT_I8 &&
	       VPUX_DT_I32 == VPUX_SHAVE_DT_I32 &&
	       VPUX_DT_F16 == VPUX_SHAVE_DT_F16 &&
	       VPUX_DT_F32 == VPUX_SHAVE_DT_F32,
	       "libvpux data types are the SHAVE ABI's");

/*
 * An FP16 op's output stage travels in the integer fields' words
 * (lf_dpu_to_hw() copies them one for one): the loadable's view of those
 * words must be the hardware's.
 */
#define LF_FP_AT(m) (offsetof(struct vpux_lf_dpu, f.m) - \
		     offsetof(struct vpux_lf_dpu, in_zp) == \
		     offsetof(struct vpux_hw_dpu_desc, f.m) - \
		     offsetof(struct vpux_hw_dpu_desc, in_zp))
_Static_assert(LF_FP_AT(act) && LF_FP_AT(zero0) && LF_FP_AT(clamp_lo) &&
	       LF_FP_AT(clamp_hi) && LF_FP_AT(scale) && LF_FP_AT(shift) &&
	       LF_FP_AT(slope) && LF_FP_AT(zero1) &&
	       sizeof(struct vpux_lf_dpu_fparams) ==
	       sizeof(struct vpux_hw_dpu_fparams),
	       "the loadable's FP16 output stage is the descriptor's");

unsigned int lf_dt_bits(uint32_t dt)
{
	switch (dt) {
	case VPUX_DT_U8:
	case VPUX_DT_I8:
		return 8;
	case VPUX_DT_F16:
		return 16;
	case VPUX_DT_I32:
	case VPUX_DT_F32:
		return 32;
	default:
		return 0;
	}
}

const char *lf_dt_name(uint32_t dt)
{
	return hc_dev_type_name(dt);
}

int lf_dt_float(uint32_t dt)
{
	return dt == VPUX_DT_F16 || dt == VPUX_DT_F32;
}

uint32_t lf_kernel_args_size(uint32_t id)
{
	return vpux_shave_args_size(id);
}

uint64_t lf_tensor_extent(const struct vpux_lf_tensor *t)
{
	uint64_t bits = lf_dt_bits(t->data_type);
	uint32_t i;

	if (!bits || t->rank < 1 || t->rank > VPUX_LF_MAX_RANK)
		return 0;
	for (i = 0; i < t->rank; i++) {
		uint64_t span;

		if (!t->dims[i] || t->strides[i] > (1ull << 40) ||
		    __builtin_mul_overflow((uint64_t)(t->dims[i] - 1),
					   t->strides[i], &span) ||
		    __builtin_add_overflow(bits, span, &bits) ||
		    bits > (1ull << 62))
			return 0;
	}
	return (bits + 7) / 8;
}

uint64_t lf_region_size(const struct lf_image *img, uint32_t region)
{
	uint32_t k = VPUX_LF_REGION_KIND(region);
	uint32_t idx = VPUX_LF_REGION_INDEX(region), i;

	switch (k) {
	case VPUX_LF_RK_WEIGHTS:
		return idx ? 0 : img->hdr.weights_size;
	case VPUX_LF_RK_SCRATCH:
		return idx ? 0 : img->hdr.scratch_size;
	case VPUX_LF_RK_CMX:
		return idx < VPUX_LF_CMX_TILES ? VPUX_LF_CMX_TILE_SIZE : 0;
	case VPUX_LF_RK_SYMBOLS:
		return idx ? 0 : (uint64_t)img->n_symbols * sizeof(uint64_t);
	case VPUX_LF_RK_INPUT:
	case VPUX_LF_RK_OUTPUT:
		for (i = 0; i < img->n_tensors; i++)
			if (img->tensors[i].region == region &&
			    img->tensors[i].flags & VPUX_LF_T_IO)
				return img->tensors[i].size;
		return 0;
	default:
		return 0;
	}
}

uint32_t lf_op_count(const struct lf_image *img, unsigned int kind)
{
	return kind == LF_DMA ? img->n_dma : kind == LF_DPU ? img->n_dpu :
	       kind == LF_SHAVE ? img->n_shave : 0;
}

const struct vpux_lf_deps *lf_op_deps(const struct lf_image *img,
				      unsigned int kind, uint32_t i)
{
	if (kind == LF_DMA)
		return &img->dma[i].deps;
	if (kind == LF_DPU)
		return &img->dpu[i].deps;
	return &img->shave[i].deps;
}

void lf_dpu_to_hw(const struct vpux_lf_dpu *s, struct vpux_hw_dpu_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->op = s->op;
	d->flags = s->flags;
	memcpy(&d->in_c, &s->in_c, 20 * sizeof(uint16_t));
	/* FP16 ops: the same words are struct vpux_hw_dpu_fparams */
	d->in_zp = s->in_zp;
	d->in2_zp = s->in2_zp;
	d->out_zp = s->out_zp;
	d->act_min = s->act_min;
	d->act_max = s->act_max;
	d->requant.mult = s->requant_mult;
	d->requant.shift = s->requant_shift;
	d->in_scale.mult = s->in_scale_mult;
	d->in_scale.shift = s->in_scale_shift;
	d->in2_scale.mult = s->in2_scale_mult;
	d->in2_scale.shift = s->in2_scale_shift;
	d->reserved[0] = s->reserved[0];
	d->reserved[1] = s->reserved[1];
}

static int op_ready(const struct vpux_lf_deps *d, const uint32_t *cnt)
{
	unsigned int w;

	for (w = 0; w < d->num_waits; w++)
		if (cnt[d->waits[w]])
			return 0;
	return 1;
}

int lf_schedule(const struct lf_image *img,
		int (*run)(void *ctx, unsigned int kind, uint32_t i),
		void *ctx)
{
	uint32_t head[LF_KINDS] = { 0, 0, 0 }, *cnt, b;
	unsigned int k, u;
	int progress = 1, ret = 0;

	cnt = calloc(img->n_barriers + 1u, sizeof(*cnt));
	if (!cnt)
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	for (b = 0; b < img->n_barriers; b++)
		cnt[b] = img->barriers[b].producer_count;
	while (progress && !ret) {
		progress = 0;
		for (k = 0; k < LF_KINDS && !ret; k++) {
			while (head[k] < lf_op_count(img, k)) {
				const struct vpux_lf_deps *d =
					lf_op_deps(img, k, head[k]);

				if (!op_ready(d, cnt))
					break;
				if (run) {
					ret = run(ctx, k, head[k]);
					if (ret)
						break;
				}
				for (u = 0; u < d->num_updates; u++)
					cnt[d->updates[u]]--;
				head[k]++;
				progress = 1;
			}
		}
	}
	free(cnt);
	if (ret)
		return ret;
	for (k = 0; k < LF_KINDS; k++)
		if (head[k] < lf_op_count(img, k))
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field deps.waits: can never be satisfied (barrier cycle)",
					k == 0 ? VPUX_LF_SEC_DMA :
					k == 1 ? VPUX_LF_SEC_DPU :
					VPUX_LF_SEC_SHAVE, head[k]);
	return 0;
}

uint32_t lf_fnv1a(const char *name)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < VPUX_LF_NAME_LEN && name[i]; i++) {
		h ^= (unsigned char)name[i];
		h *= 16777619u;
	}
	return h;
}

void lf_tensor_resolve(const struct lf_image *img,
		       const struct vpux_lf_tensor *t, const uint64_t *sym,
		       struct vpux_lf_tensor *out)
{
	uint32_t d;

	*out = *t;
	for (d = 0; d < VPUX_LF_MAX_RANK && d < t->rank; d++) {
		uint32_t s = t->dims[d];
		uint64_t v;

		if (!(t->dyn_dims & (1u << d)))
			continue;
		if (s >= img->n_symbols) {
			out->dims[d] = 0;
			continue;
		}
		v = sym ? sym[s] : (uint64_t)img->symbols[s].max;
		out->dims[d] = v > UINT32_MAX ? 0 : (uint32_t)v;
	}
	out->dyn_dims = 0;
}

int lf_output_dims_src(const struct lf_image *img, uint32_t t,
		       struct lf_dims_src *src)
{
	const struct vpux_lf_tensor *ot = &img->tensors[t];
	uint32_t i;
	int found = -1;

	memset(src, 0, sizeof(*src));
	if (img->n_blocks || !ot->dyn_dims)
		return -1;
	for (i = 0; i < img->n_shave; i++) {
		const struct vpux_lf_shave *o = &img->shave[i];
		struct vpux_memref m;
		const struct vpux_lf_ref *w, *wd;
		uint32_t wi;

		if (!img->kargs || o->args_size < 2 * sizeof(m) ||
		    o->args_offset > img->kargs_size ||
		    img->kargs_size - o->args_offset < 2 * sizeof(m))
			continue;
		/* every parameter struct starts with the in and out records */
		memcpy(&m, img->kargs + o->args_offset + sizeof(m), sizeof(m));
		if (m.is_static)
			continue;
		wi = VPUX_WADDR_WINDOW(m.addr);
		if (wi >= VPUX_LF_MAX_WINDOWS)
			continue;
		w = &o->windows[wi];
		if (!w->size || w->tensor >= img->n_tensors ||
		    img->tensors[w->tensor].region != ot->region)
			continue;
		wi = VPUX_WADDR_WINDOW(m.dims_addr);
		if (wi >= VPUX_LF_MAX_WINDOWS)
			continue;
		wd = &o->windows[wi];
		if (!wd->size || wd->tensor >= img->n_tensors)
			continue;
		src->op = i;
		src->rank = m.rank;
		src->region = img->tensors[wd->tensor].region;
		src->offset = img->tensors[wd->tensor].offset + wd->offset +
			      VPUX_WADDR_OFFSET(m.dims_addr);
		found = (int)i;
	}
	return found;
}

int lf_output_dims_read(const struct lf_image *img, uint32_t t,
			const void *rec, uint64_t *dims, uint32_t *bad_dim)
{
	const unsigned char *p = rec;
	struct vpux_lf_tensor bound;	/* at the symbols' max */
	uint32_t d;

	lf_tensor_resolve(img, &img->tensors[t], NULL, &bound);
	for (d = 0; d < bound.rank; d++) {
		uint32_t v = (uint32_t)p[4 * d] | (uint32_t)p[4 * d + 1] << 8 |
			     (uint32_t)p[4 * d + 2] << 16 |
			     (uint32_t)p[4 * d + 3] << 24;

		dims[d] = v;
		if (!v || v > bound.dims[d]) {
			*bad_dim = d;
			return -1;
		}
	}
	return 0;
}

const char *lf_tensor_name(const struct lf_image *img, uint32_t t)
{
	uint32_t lo = 0, hi = img->n_names;

	while (lo < hi) {	/* the records are in tensor order */
		uint32_t mid = lo + (hi - lo) / 2;

		if (img->names[mid].tensor == t)
			return img->strtab + img->names[mid].name;
		if (img->names[mid].tensor < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t < img->n_tensors ? img->tensors[t].name : "";
}
