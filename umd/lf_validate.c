// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Semantic validation of a parsed loadable: header, tensors (names, types,
 * dims orders, strides, extents inside their regions), ops (deps, operand
 * refs, per-kind fields, DPU extents from the model's own rules, SHAVE
 * kernel ids, argument sizes and memrefs), barrier counts and the barrier
 * graph (every op can start: no cycle). Every error names the section, the
 * record and the field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dla_limits.h"
#include <drm/vpux_task.h>
#include "err.h"
#include "lf.h"
#include "lf_fields.h"
#include "lf_hw.h"
#include "lf_kernels.h"
#include "vpux_shave_elf.h"
#include "lf_plan.h"
#include "vpux.h"
#include "vpux_shave_abi.h"

#define BAD(sec, rec, field, fmt, ...) \
	vpux_err(VPUX_E_FORMAT, "%s: record %u: field %s: " fmt, \
		 sec, (unsigned int)(rec), field, ##__VA_ARGS__)

static int name_ok(const char *n)
{
	return n[0] && memchr(n, 0, VPUX_LF_NAME_LEN);
}

static int check_header(const struct lf_image *img)
{
	const struct vpux_lf_header *h = &img->hdr;
	const char *S = VPUX_LF_SEC_HEADER;
	unsigned int i;

	if (h->target != VPUX_TARGET_VPUX1)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: record 0: field target: %u not supported",
				S, h->target);
	if (h->caps & ~(VPUX_NET_CAP_DMA | VPUX_NET_CAP_DPU | VPUX_NET_CAP_SHAVE))
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: record 0: field caps: unknown bits 0x%llx",
				S, (unsigned long long)h->caps);
	if (h->flags)
		return BAD(S, 0, "flags", "not zero");
	for (i = 0; i < 4; i++)
		if (h->reserved[i])
			return BAD(S, 0, "reserved", "not zero");
	if (!name_ok(h->name))
		return BAD(S, 0, "name", "empty or not NUL-terminated");
	if (h->num_inputs > VPUX_LF_MAX_IO || h->num_outputs > VPUX_LF_MAX_IO ||
	    !h->num_outputs)
		return BAD(S, 0, "num_inputs/num_outputs",
			   "%u/%u (outputs 1..%u, inputs 0..%u)",
			   h->num_inputs, h->num_outputs, VPUX_LF_MAX_IO,
			   VPUX_LF_MAX_IO);
	if (h->scratch_size > VPUX_LF_REGION_MAX)
		return BAD(S, 0, "scratch_size", "above 4 GiB");
	if (img->n_tensors > VPUX_LF_MAX_TENSORS)
		return BAD(VPUX_LF_SEC_TENSORS, 0, "count", "too many tensors");
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strncmp(((const struct vpux_lf_tensor *const *)a)[0]->name,
		       ((const struct vpux_lf_tensor *const *)b)[0]->name,
		       VPUX_LF_NAME_LEN);
}

static int check_layout(const struct vpux_lf_tensor *t, uint32_t i)
{
	const char *S = VPUX_LF_SEC_TENSORS;
	vpux_dims_order o = { t->dims_order };
	uint64_t need = lf_dt_bits(t->data_type);
	uint32_t d, m;

	if (!need)
		return BAD(S, i, "data_type", "%u unknown", t->data_type);
	if (t->rank < 1 || t->rank > VPUX_LF_MAX_RANK)
		return BAD(S, i, "rank", "%u not in 1..%u", t->rank,
			   VPUX_LF_MAX_RANK);
	if (!vpux_order_valid(o, t->rank))
		return BAD(S, i, "dims_order", "0x%llx is not a permutation of %u dims",
			   (unsigned long long)t->dims_order, t->rank);
	for (d = 0; d < VPUX_LF_MAX_RANK; d++) {
		if (d < t->rank && (!t->dims[d] || t->strides[d] % 8))
			return BAD(S, i, "dims/strides",
				   "dim %u: size %u stride %llu bits (size >= 1, stride a multiple of 8)",
				   d, t->dims[d],
				   (unsigned long long)t->strides[d]);
		if (d >= t->rank && (t->dims[d] || t->strides[d]))
			return BAD(S, i, "dims/strides",
				   "entry %u above rank not zero", d);
	}
	/* innermost first: each stride covers the inner dim (no overlap) */
	for (m = 0; m < t->rank; m++) {
		d = vpux_order_to_dim(o, vpux_memdim_make(m)).ind;
		if (t->strides[d] < need)
			return BAD(S, i, "strides",
				   "dim %u: %llu bits overlaps the inner dims (needs >= %llu)",
				   d, (unsigned long long)t->strides[d],
				   (unsigned long long)need);
		if (t->strides[d] > (1ull << 40) / t->dims[d])
			return BAD(S, i, "strides", "dim %u: too large", d);
		need = t->strides[d] * t->dims[d];
	}
	return 0;
}

/*
 * The float types (1.3): IEEE values, no quantisation, so zero_point,
 * scale_mult and scale_shift are all 0.
 */
static int check_float_tensor(const struct lf_image *img,
			      const struct vpux_lf_tensor *t, uint32_t i)
{
	const char *S = VPUX_LF_SEC_TENSORS;

	if (!lf_dt_float(t->data_type))
		return 0;
	if (img->hdr.version_minor < 3)
		return BAD(S, i, "data_type",
			   "%s is a type from format 1.3 (the file is 1.%u)",
			   lf_dt_name(t->data_type), img->hdr.version_minor);
	if (t->zero_point)
		return BAD(S, i, "zero_point",
			   "%d: an %s tensor has no quantisation (must be 0)",
			   t->zero_point, lf_dt_name(t->data_type));
	if (t->scale_mult || t->scale_shift)
		return BAD(S, i, "scale",
			   "mult %d shift %d: an %s tensor has no quantisation (both must be 0)",
			   t->scale_mult, t->scale_shift,
			   lf_dt_name(t->data_type));
	return 0;
}

/*
 * Symbols (1.2): unique non-empty names, a known kind, the hash of the
 * name, width 4 or 8, 0 <= min <= max <= 2^32 - 1, at most 16.
 */
static int check_symbols(const struct lf_image *img)
{
	const char *S = VPUX_LF_SEC_SYMBOLS;
	uint32_t i, j;

	if (img->n_symbols > VPUX_LF_MAX_SYMBOLS)
		return BAD(S, VPUX_LF_MAX_SYMBOLS, "count",
			   "%u symbols, at most %u", img->n_symbols,
			   VPUX_LF_MAX_SYMBOLS);
	for (i = 0; i < img->n_symbols; i++) {
		const struct vpux_lf_symbol *y = &img->symbols[i];

		if (!name_ok(y->name))
			return BAD(S, i, "name", "empty or not NUL-terminated");
		for (j = 0; j < i; j++)
			if (!strncmp(img->symbols[j].name, y->name,
				     VPUX_LF_NAME_LEN))
				return BAD(S, i, "name",
					   "'%s' not unique (record %u)",
					   y->name, j);
		if (y->kind != VPUX_LF_SYM_AXIS && y->kind != VPUX_LF_SYM_SCALAR)
			return BAD(S, i, "kind", "%u unknown (AXIS 1, SCALAR 2)",
				   y->kind);
		if (y->reserved)
			return BAD(S, i, "reserved", "not zero");
		if (y->hash != lf_fnv1a(y->name))
			return BAD(S, i, "hash",
				   "0x%08x, FNV-1a of '%s' is 0x%08x", y->hash,
				   y->name, lf_fnv1a(y->name));
		if (y->width != 4 && y->width != 8)
			return BAD(S, i, "width", "%u, must be 4 or 8",
				   y->width);
		if (y->min < 0 || y->min > y->max || y->max > UINT32_MAX)
			return BAD(S, i, "min/max",
				   "[%lld, %lld] not within 0 <= min <= max <= 2^32 - 1",
				   (long long)y->min, (long long)y->max);
	}
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Names (1.4): .vpux.names only in a 1.4 file and with .vpux.strtab;
 * the string table starts and ends with NUL; each record a tensor in
 * increasing order, an offset 1..size-1 of a non-empty string, the
 * names unique.
 */
static int check_names(const struct lf_image *img)
{
	const char *S = VPUX_LF_SEC_NAMES, *T = VPUX_LF_SEC_STRTAB;
	const char **sorted;
	uint32_t i;

	if (!img->n_names && !img->strtab)
		return 0;
	if (img->hdr.version_minor < 4)
		return vpux_err(VPUX_E_FORMAT,
				"%s: in a 1.%u file (names are 1.4)",
				img->names ? S : T, img->hdr.version_minor);
	if (img->names && !img->strtab)
		return vpux_err(VPUX_E_FORMAT, "%s: missing (%s has %u records)",
				T, S, img->n_names);
	if (!img->strtab_size || img->strtab[0] ||
	    img->strtab[img->strtab_size - 1])
		return vpux_err(VPUX_E_FORMAT,
				"%s: %u bytes: must start and end with a NUL byte",
				T, img->strtab_size);
	for (i = 0; i < img->n_names; i++) {
		const struct vpux_lf_name *m = &img->names[i];

		if (m->tensor >= img->n_tensors)
			return BAD(S, i, "tensor", "%u, there are %u tensors",
				   m->tensor, img->n_tensors);
		if (i && m->tensor <= img->names[i - 1].tensor)
			return BAD(S, i, "tensor",
				   "%u after %u: not in increasing order",
				   m->tensor, img->names[i - 1].tensor);
		if (!m->name || m->name >= img->strtab_size)
			return BAD(S, i, "name",
				   "offset %u not within 1..%u of %s", m->name,
				   img->strtab_size - 1, T);
		if (!img->strtab[m->name])
			return BAD(S, i, "name", "offset %u: an empty string",
				   m->name);
	}
	if (img->n_names < 2)
		return 0;
	sorted = malloc(img->n_names * sizeof(*sorted));
	if (!sorted)
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	for (i = 0; i < img->n_names; i++)
		sorted[i] = img->strtab + img->names[i].name;
	qsort(sorted, img->n_names, sizeof(*sorted), str_cmp);
	for (i = 1; i < img->n_names; i++)
		if (!strcmp(sorted[i - 1], sorted[i]))
			break;
	if (i < img->n_names) {
		const char *dup = sorted[i];
		uint32_t j, first = UINT32_MAX;
		int ret = 0;

		for (j = 0; j < img->n_names && !ret; j++) {
			if (strcmp(img->strtab + img->names[j].name, dup))
				continue;
			if (first == UINT32_MAX)
				first = j;
			else
				ret = BAD(S, j, "name",
					  "'%s' not unique (record %u)", dup,
					  first);
		}
		free(sorted);
		return ret;
	}
	free(sorted);
	return 0;
}

/* dyn_dims: bits below the rank, each dim naming an AXIS symbol */
static int check_dyn_dims(const struct lf_image *img,
			  const struct vpux_lf_tensor *t, uint32_t i)
{
	const char *S = VPUX_LF_SEC_TENSORS;
	uint32_t d;

	if (!t->dyn_dims)
		return 0;
	if (t->rank > VPUX_LF_MAX_RANK || t->dyn_dims >> t->rank)
		return BAD(S, i, "dyn_dims", "0x%x has bits at or above rank %u",
			   t->dyn_dims, t->rank);
	for (d = 0; d < t->rank; d++) {
		if (!(t->dyn_dims & (1u << d)))
			continue;
		if (t->dims[d] >= img->n_symbols)
			return BAD(S, i, "dims", "dim %u: symbol %u does not exist (%u symbols)",
				   d, t->dims[d], img->n_symbols);
		if (img->symbols[t->dims[d]].kind != VPUX_LF_SYM_AXIS)
			return BAD(S, i, "dims", "dim %u: symbol '%s' is not an axis",
				   d, img->symbols[t->dims[d]].name);
		if (!img->symbols[t->dims[d]].max)
			return BAD(S, i, "dims", "dim %u: symbol '%s' has max 0",
				   d, img->symbols[t->dims[d]].name);
	}
	return 0;
}

static int check_tensors(const struct lf_image *img)
{
	const char *S = VPUX_LF_SEC_TENSORS;
	const struct vpux_lf_tensor **sorted;
	unsigned int io_in = 0, io_out = 0;
	uint32_t i;
	int ret;

	for (i = 0; i < img->n_tensors; i++) {
		const struct vpux_lf_tensor *t = &img->tensors[i];
		uint32_t k = VPUX_LF_REGION_KIND(t->region);
		uint32_t idx = VPUX_LF_REGION_INDEX(t->region);
		int io = k == VPUX_LF_RK_INPUT || k == VPUX_LF_RK_OUTPUT;
		int cmx = k == VPUX_LF_RK_CMX;
		struct vpux_lf_tensor tmax;
		uint64_t rsize, ext;

		if (!name_ok(t->name))
			return BAD(S, i, "name", "empty or not NUL-terminated");
		if (t->flags & ~VPUX_LF_T_FLAGS_ALL)
			return BAD(S, i, "flags", "unknown bits");
		ret = check_dyn_dims(img, t, i);
		if (ret)
			return ret;
		if (k < VPUX_LF_RK_WEIGHTS || k > VPUX_LF_RK_SYMBOLS ||
		    (!io && !cmx && idx) ||
		    (cmx && idx >= VPUX_LF_CMX_TILES) ||
		    (k == VPUX_LF_RK_INPUT && idx >= img->hdr.num_inputs) ||
		    (k == VPUX_LF_RK_OUTPUT && idx >= img->hdr.num_outputs))
			return BAD(S, i, "region", "0x%x unknown", t->region);
		if (k == VPUX_LF_RK_SYMBOLS && img->hdr.version_minor < 2)
			return BAD(S, i, "region",
				   "0x%x: the symbol buffer is a region from format 1.2 (the file is 1.%u)",
				   t->region, img->hdr.version_minor);
		if (k == VPUX_LF_RK_SYMBOLS && !img->n_symbols)
			return BAD(S, i, "region",
				   "0x%x: the symbol buffer of a network without symbols",
				   t->region);
		if ((t->flags & VPUX_LF_T_IO) && (!io || t->offset))
			return BAD(S, i, "flags",
				   "IO descriptor outside an I/O region or at an offset");
		if (t->flags & VPUX_LF_T_IO)
			k == VPUX_LF_RK_INPUT ? io_in++ : io_out++;
		/* a dynamic dim counts with its symbol's max */
		lf_tensor_resolve(img, &img->tensors[i], NULL, &tmax);
		t = &tmax;
		ret = check_layout(t, i);
		if (ret)
			return ret;
		ret = check_float_tensor(img, t, i);
		if (ret)
			return ret;
		if (t->scale_mult < 0 || t->scale_shift < -31 ||
		    t->scale_shift > 31)
			return BAD(S, i, "scale", "mult %d shift %d",
				   t->scale_mult, t->scale_shift);
		ext = lf_tensor_extent(t);
		if (!ext || ext > t->size)
			return BAD(S, i, "size",
				   "%llu bytes, the dims and strides span %llu",
				   (unsigned long long)t->size,
				   (unsigned long long)ext);
		rsize = lf_region_size(img, t->region);
		if (t->size > VPUX_LF_REGION_MAX || t->offset > rsize ||
		    t->size > rsize - t->offset)
			return BAD(S, i, "offset/size",
				   "[%llu, +%llu) outside its region (%llu bytes)",
				   (unsigned long long)t->offset,
				   (unsigned long long)t->size,
				   (unsigned long long)rsize);
	}
	if (io_in != img->hdr.num_inputs || io_out != img->hdr.num_outputs)
		return vpux_err(VPUX_E_FORMAT,
				"%s: %u/%u I/O descriptors for %u inputs, %u outputs (one each)",
				S, io_in, io_out, img->hdr.num_inputs,
				img->hdr.num_outputs);
	/* unique names */
	sorted = malloc((img->n_tensors + 1u) * sizeof(*sorted));
	if (!sorted)
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	for (i = 0; i < img->n_tensors; i++)
		sorted[i] = &img->tensors[i];
	qsort(sorted, img->n_tensors, sizeof(*sorted), name_cmp);
	ret = 0;
	for (i = 1; i < img->n_tensors && !ret; i++)
		if (!name_cmp(&sorted[i - 1], &sorted[i]))
			ret = BAD(S, (uint32_t)(sorted[i] - img->tensors), "name",
				  "'%s' not unique", sorted[i]->name);
	free(sorted);
	return ret;
}

static const char *sec_of(unsigned int kind)
{
	return kind == LF_DMA ? VPUX_LF_SEC_DMA :
	       kind == LF_DPU ? VPUX_LF_SEC_DPU : VPUX_LF_SEC_SHAVE;
}

/* deps of every op; counts producers/consumers per barrier in @pc/@cc */
static int check_deps(const struct lf_image *img, unsigned int kind,
		      uint32_t i, uint32_t *pc, uint32_t *cc)
{
	const struct vpux_lf_deps *d = lf_op_deps(img, kind, i);
	const char *S = sec_of(kind);
	unsigned int j, l;

	if (d->num_waits > VPUX_LF_MAX_WAITS ||
	    d->num_updates > VPUX_LF_MAX_UPDATES)
		return BAD(S, i, "deps.num_waits/num_updates", "%u/%u above %u",
			   d->num_waits, d->num_updates, VPUX_LF_MAX_WAITS);
	if (d->reserved)
		return BAD(S, i, "deps.reserved", "not zero");
	for (l = 0; l < 2; l++) {
		const uint16_t *ids = l ? d->updates : d->waits;
		unsigned int n = l ? d->num_updates : d->num_waits;
		uint32_t *cnt = l ? pc : cc;

		for (j = 0; j < VPUX_LF_MAX_WAITS; j++) {
			if (j >= n) {
				if (ids[j])
					return BAD(S, i, l ? "deps.updates" :
						   "deps.waits",
						   "unused entry %u not zero", j);
				continue;
			}
			if (ids[j] >= img->n_barriers)
				return BAD(S, i, l ? "deps.updates" : "deps.waits",
					   "barrier %u does not exist (%u barriers)",
					   ids[j], img->n_barriers);
			for (unsigned int q = 0; q < j; q++)
				if (ids[q] == ids[j])
					return BAD(S, i, l ? "deps.updates" :
						   "deps.waits",
						   "barrier %u twice", ids[j]);
			cnt[ids[j]]++;
		}
	}
	return 0;
}

/* an operand: empty, or inside its tensor; @wr: the op writes it */
static int check_ref(const struct lf_image *img, unsigned int kind, uint32_t i,
		     const char *field, const struct vpux_lf_ref *r,
		     uint64_t need, int wr)
{
	const char *S = sec_of(kind);
	const struct vpux_lf_tensor *t;

	if (!r->size) {
		if (r->tensor || r->flags || r->offset)
			return BAD(S, i, field, "empty operand not all zero");
		if (need)
			return BAD(S, i, field, "missing (the op reads/writes %llu bytes)",
				   (unsigned long long)need);
		return 0;
	}
	if (r->tensor >= img->n_tensors)
		return BAD(S, i, field, "tensor %u does not exist (%u tensors)",
			   r->tensor, img->n_tensors);
	t = &img->tensors[r->tensor];
	if (r->flags)
		return BAD(S, i, field, "flags not zero");
	if ((uint64_t)r->offset + r->size > t->size)
		return BAD(S, i, field, "[%u, +%u) outside tensor '%s' (%llu bytes)",
			   r->offset, r->size, t->name,
			   (unsigned long long)t->size);
	if (need > r->size)
		return BAD(S, i, field, "%u bytes, the op touches %llu",
			   r->size, (unsigned long long)need);
	if (!need && kind != LF_SHAVE)
		return BAD(S, i, field, "operand given but not used by the op");
	if (wr && VPUX_LF_REGION_KIND(t->region) == VPUX_LF_RK_WEIGHTS)
		return BAD(S, i, field, "writes tensor '%s' in the read-only weights",
			   t->name);
	if (VPUX_LF_REGION_KIND(t->region) == VPUX_LF_RK_SYMBOLS &&
	    (kind != LF_DMA || wr))
		return BAD(S, i, field,
			   "tensor '%s' is in the symbol buffer: only a DMA source may read it",
			   t->name);
	return 0;
}

int lf_check_ref(const struct lf_image *img, unsigned int kind, uint32_t i,
		 const char *field, const struct vpux_lf_ref *r, uint64_t need,
		 int wr)
{
	return check_ref(img, kind, i, field, r, need, wr);
}

static int check_dma(const struct lf_image *img, uint32_t i,
		     const struct vpux_lf_dma *o)
{
	const char *S = VPUX_LF_SEC_DMA;
	uint64_t se = o->len, de = o->len;
	unsigned int d;
	int ret;

	if (o->flags || o->reserved)
		return BAD(S, i, o->flags ? "flags" : "reserved", "not zero");
	if (!o->len)
		return BAD(S, i, "len", "0");
	for (d = 0; d < 3; d++) {
		if (!o->count[d])
			return BAD(S, i, "count", "dim %u is 0", d + 1);
		/* each term < 2^64: (2^32 - 1)^2; three of them can wrap */
		if (__builtin_add_overflow(se, (uint64_t)(o->count[d] - 1) *
					   o->src_stride[d], &se) ||
		    __builtin_add_overflow(de, (uint64_t)(o->count[d] - 1) *
					   o->dst_stride[d], &de))
			return BAD(S, i, "count/strides", "extent overflows");
	}
	ret = check_ref(img, LF_DMA, i, "src", &o->src, se, 0);
	return ret ? ret : check_ref(img, LF_DMA, i, "dst", &o->dst, de, 1);
}

/*
 * The field a DPU rule names, in the op's terms: an FP16 op's clamp
 * bounds and scale stage overlay the integer clamp and requant fields.
 */
static const char *dpu_rule_field(enum vpux_dpu_rule r, int fp16)
{
	if (fp16 && r == VPUX_DPU_RULE_ACT_MIN)
		return "clamp_lo";
	if (fp16 && r == VPUX_DPU_RULE_ACT_MAX)
		return "clamp_hi";
	if (fp16 && r == VPUX_DPU_RULE_SCALE)
		return "scale/shift";
	return vpux_dpu_rule_field(r);
}

/*
 * The element type an operand's tensor must have: an FP16 op reads and
 * writes f16 (its output f32 with VPUX_DPU_F_OUT_F32), its bias and
 * per-channel records are FP32 words; an integer op touches no float
 * tensor (0 here: any integer type).
 */
static int check_dpu_type(const struct lf_image *img, uint32_t i,
			  const char *field, const struct vpux_lf_ref *r,
			  uint32_t want, int fp16)
{
	const struct vpux_lf_tensor *t = &img->tensors[r->tensor];

	if (!r->size)
		return 0;
	if (fp16 && t->data_type != want)
		return BAD(VPUX_LF_SEC_DPU, i, field,
			   "tensor '%s' is %s, an FP16 op's %s is %s",
			   t->name, lf_dt_name(t->data_type), field,
			   lf_dt_name(want));
	if (!fp16 && lf_dt_float(t->data_type))
		return BAD(VPUX_LF_SEC_DPU, i, field,
			   "tensor '%s' is %s, an integer op (no flag FP16) takes no float tensor",
			   t->name, lf_dt_name(t->data_type));
	return 0;
}

static int check_dpu(const struct lf_image *img, uint32_t i,
		     const struct vpux_lf_dpu *o)
{
	const char *S = VPUX_LF_SEC_DPU;
	struct vpux_hw_dpu_desc hd;
	struct vpux_dpu_extents e;
	enum vpux_dpu_rule rule;
	int fp16 = !!(o->flags & VPUX_DPU_F_FP16);
	int ret;

	lf_dpu_to_hw(o, &hd);
	if (o->reserved0 || o->reserved[0] || o->reserved[1])
		return BAD(S, i, "reserved", "not zero");
	if (fp16 && img->hdr.version_minor < 3)
		return BAD(S, i, "flags",
			   "FP16 ops are from format 1.3 (the file is 1.%u)",
			   img->hdr.version_minor);
	memset(&e, 0, sizeof(e));
	rule = vpux_dpu_check(&hd, &e);
	if (rule)
		return BAD(S, i, dpu_rule_field(rule, fp16),
			   "%s descriptor refused by the DPU rules (rule %s; see compute-ops.rst)",
			   fp16 ? "FP16" : "integer", vpux_dpu_rule_field(rule));
	ret = check_ref(img, LF_DPU, i, "in", &o->in, e.in, 0);
	ret = ret ? ret : check_ref(img, LF_DPU, i, "in2", &o->in2, e.in2, 0);
	ret = ret ? ret : check_ref(img, LF_DPU, i, "bias", &o->bias, e.bias, 0);
	ret = ret ? ret : check_ref(img, LF_DPU, i, "quant", &o->quant, e.quant, 0);
	ret = ret ? ret : check_ref(img, LF_DPU, i, "out", &o->out, e.out, 1);
	if (ret)
		return ret;
	ret = check_dpu_type(img, i, "in", &o->in, VPUX_DT_F16, fp16);
	ret = ret ? ret : check_dpu_type(img, i, "in2", &o->in2, VPUX_DT_F16,
					 fp16);
	ret = ret ? ret : check_dpu_type(img, i, "bias", &o->bias, VPUX_DT_F32,
					 fp16);
	ret = ret ? ret : check_dpu_type(img, i, "quant", &o->quant,
					 VPUX_DT_F32, fp16);
	return ret ? ret : check_dpu_type(img, i, "out", &o->out,
					  o->flags & VPUX_DPU_F_OUT_F32 ?
					  VPUX_DT_F32 : VPUX_DT_F16, fp16);
}

/*
 * A memref of the argument record: window in use, extent inside it. A
 * dynamic one (is_static 0, format 1.2): dims are the upper bounds the
 * extent is checked for; the actual u32[rank] dims are at window address
 * dims_addr, 4-byte aligned and inside a set window (written when @wr).
 */
static int check_memref(const struct vpux_lf_shave *o, uint32_t i,
			const struct vpux_memref *m, const char *field,
			const struct lf_image *img, int wr)
{
	const char *S = VPUX_LF_SEC_SHAVE;
	uint32_t w = VPUX_WADDR_WINDOW(m->addr), d;
	uint64_t bits, ext;
	const struct vpux_lf_tensor *t;
	char f2[32];

	if (w >= VPUX_LF_MAX_WINDOWS || !o->windows[w].size)
		return BAD(S, i, field, "window %u not set", w);
	if (m->is_static > 1 || (!m->is_static && img->hdr.version_minor < 2))
		return BAD(S, i, field,
			   "is_static %u (1 static, 0 dynamic from format 1.2; the file is 1.%u)",
			   m->is_static, img->hdr.version_minor);
	if (m->rank < 1 || m->rank > VPUX_MEMREF_MAX_RANK)
		return BAD(S, i, field, "rank %u not in 1..%u", m->rank,
			   VPUX_MEMREF_MAX_RANK);
	bits = lf_dt_bits(m->data_type);
	if (!bits)
		return BAD(S, i, field, "data_type %u", m->data_type);
	ext = bits;
	for (d = 0; d < m->rank; d++) {
		uint64_t span;

		if (!m->dims[d] || m->strides[d] > (1ull << 40) ||
		    __builtin_mul_overflow((uint64_t)(m->dims[d] - 1),
					   m->strides[d], &span) ||
		    __builtin_add_overflow(ext, span, &ext))
			return BAD(S, i, field, "dim %u size/stride", d);
	}
	ext = (ext + 7) / 8;
	if (VPUX_WADDR_OFFSET(m->addr) + ext > o->windows[w].size)
		return BAD(S, i, field, "spans %llu bytes at offset %u of window %u (%u bytes)",
			   (unsigned long long)ext, VPUX_WADDR_OFFSET(m->addr),
			   w, o->windows[w].size);
	t = &img->tensors[o->windows[w].tensor];
	if (wr && VPUX_LF_REGION_KIND(t->region) == VPUX_LF_RK_WEIGHTS)
		return BAD(S, i, field, "writes tensor '%s' in the read-only weights",
			   t->name);
	snprintf(f2, sizeof(f2), "%s.dims_addr", field);
	if (m->is_static) {
		if (m->dims_addr)
			return BAD(S, i, f2, "0x%x in a static memref (must be 0)",
				   m->dims_addr);
		return 0;
	}
	w = VPUX_WADDR_WINDOW(m->dims_addr);
	if (w >= VPUX_LF_MAX_WINDOWS || !o->windows[w].size)
		return BAD(S, i, f2, "0x%x: window %u not set", m->dims_addr, w);
	if (m->dims_addr % 4)
		return BAD(S, i, f2, "0x%x not 4-byte aligned", m->dims_addr);
	if ((uint64_t)VPUX_WADDR_OFFSET(m->dims_addr) + 4u * m->rank >
	    o->windows[w].size)
		return BAD(S, i, f2,
			   "%u dims (%u bytes) at offset %u of window %u (%u bytes)",
			   m->rank, 4u * m->rank, VPUX_WADDR_OFFSET(m->dims_addr),
			   w, o->windows[w].size);
	t = &img->tensors[o->windows[w].tensor];
	if (wr && VPUX_LF_REGION_KIND(t->region) == VPUX_LF_RK_WEIGHTS)
		return BAD(S, i, f2,
			   "the kernel writes the actual dims to tensor '%s' in the read-only weights",
			   t->name);
	return 0;
}

static int check_shave(const struct lf_image *img, uint32_t i,
		       const struct vpux_lf_shave *o)
{
	const char *S = VPUX_LF_SEC_SHAVE;
	uint32_t want = lf_kernel_args_size(o->kernel_id);
	struct vpux_memref m[2];
	char field[16];
	unsigned int w;
	int ret;

	if (o->reserved)
		return BAD(S, i, "reserved", "not zero");
	if (o->kernel_id == VPUX_SHAVE_KERNEL_ELF)	/* 1.5 */
		return lf_check_elf_op(img, i, o);
	if (!want)
		return BAD(S, i, "kernel_id", "%u unknown", o->kernel_id);
	if (o->args_size != want)
		return BAD(S, i, "args_size", "%u, kernel %u takes %u bytes",
			   o->args_size, o->kernel_id, want);
	if (o->args_offset % 8 ||
	    (uint64_t)o->args_offset + o->args_size > img->kargs_size)
		return BAD(S, i, "args_offset",
			   "%u (+%u) unaligned or outside %s (%u bytes)",
			   o->args_offset, o->args_size, VPUX_LF_SEC_KARGS,
			   img->kargs_size);
	for (w = 0; w < VPUX_LF_MAX_WINDOWS; w++) {
		snprintf(field, sizeof(field), "windows[%u]", w);
		if (o->windows[w].size > VPUX_LF_WINDOW_MAX)
			return BAD(S, i, field, "above 2^28 bytes");
		ret = check_ref(img, LF_SHAVE, i, field, &o->windows[w], 0, 0);
		if (ret)
			return ret;
	}
	/* every kernel's record starts with the in and out memrefs */
	memcpy(m, img->kargs + o->args_offset, sizeof(m));
	ret = check_memref(o, i, &m[0], "args.in", img, 0);
	return ret ? ret : check_memref(o, i, &m[1], "args.out", img, 1);
}

int lf_check_op(const struct lf_image *img, unsigned int kind, uint32_t i,
		const void *rec)
{
	return kind == LF_DMA ? check_dma(img, i, rec) :
	       kind == LF_DPU ? check_dpu(img, i, rec) :
	       check_shave(img, i, rec);
}

static const char *const plan_at[2] = { "min", "max" };

/*
 * Every block's first and last iteration with every symbol at its min,
 * then at its max: each template's instance checked as a static op, and
 * every loop count and expression evaluated (an overflow, a division by
 * zero, a value too large for its field refused here, not at a run).
 */
static int check_plan_corners(const struct lf_image *img, unsigned int at)
{
	const char *ST = VPUX_LF_SEC_PLAN_TEMPLATES;
	uint64_t sym[VPUX_LF_MAX_SYMBOLS], total = 0;
	struct lf_block_iter it;
	struct lf_loop_vals lv;
	union lf_op_rec rec;
	uint32_t i, b, j, pa;
	unsigned int c;
	char msg[512];
	int ret;

	for (i = 0; i < img->n_symbols; i++)
		sym[i] = (uint64_t)(at ? img->symbols[i].max :
				    img->symbols[i].min);
	for (b = 0; b < img->n_blocks; b++) {
		const struct vpux_lf_plan_block *bl = &img->blocks[b];

		ret = lf_block_iter(img, b, sym, &it);
		if (ret)
			return BAD(VPUX_LF_SEC_PLAN_BLOCKS, b, "loop.extent",
				   "%s with every symbol at its %s",
				   ret == LF_EXPR_DIV0 ? "division by zero" :
				   "overflows 32 bits", plan_at[at]);
		total += it.ops;
		if (it.ops > DLA_PLAN_MAX_EXPANDED ||
		    total > DLA_PLAN_MAX_EXPANDED)
			return BAD(VPUX_LF_SEC_PLAN_BLOCKS, b, "loop.extent",
				   "loop count overflow: more than %u ops with every symbol at its %s",
				   DLA_PLAN_MAX_EXPANDED, plan_at[at]);
		if (!it.ops)
			continue;
		for (c = 0; c < 2; c++) {
			lf_block_vals(img, b, &it,
				      c ? it.ops / bl->n_templates - 1 : 0, &lv);
			for (j = 0; j < bl->n_templates; j++) {
				const struct vpux_lf_plan_template *t =
					&img->templates[bl->first_template + j];
				const struct lf_field *f;

				ret = lf_plan_instance(img, bl->first_template + j,
						       sym, &lv, &rec, &pa);
				if (ret) {
					f = lf_field_by_id(img->patches[pa].field);
					return BAD(VPUX_LF_SEC_PLAN_PATCHES, pa,
						   "expr",
						   "field %s of template %u (block %u): %s at the %s iteration with every symbol at its %s",
						   f->name,
						   bl->first_template + j, b,
						   ret == LF_EXPR_DIV0 ?
						   "division by zero" :
						   "value overflows the field",
						   c ? "last" : "first",
						   plan_at[at]);
				}
				ret = lf_check_op(img, t->kind, t->op, &rec);
				if (ret) {
					snprintf(msg, sizeof(msg), "%s",
						 vpux_last_error());
					return vpux_err(ret,
							"%s: record %u: block %u, %s iteration, every symbol at its %s: %s",
							ST, bl->first_template + j,
							b, c ? "last" : "first",
							plan_at[at], msg);
				}
			}
		}
	}
	if (!total)
		return BAD(VPUX_LF_SEC_PLAN_BLOCKS, 0, "loop.extent",
			   "the plan expands to no op with every symbol at its %s",
			   plan_at[at]);
	return 0;
}

/*
 * The plan sections (1.2): ranges, every op exactly one template, no
 * barriers and no deps, known fields of the template's kind, well-formed
 * expressions, the core's limits; then the instances at the bounds.
 */
static int check_plan(const struct lf_image *img)
{
	const char *SB = VPUX_LF_SEC_PLAN_BLOCKS;
	const char *ST = VPUX_LF_SEC_PLAN_TEMPLATES;
	const char *SP = VPUX_LF_SEC_PLAN_PATCHES;
	uint32_t *owner, *tpl_of[LF_KINDS], i, j, k, l, total = 0;
	static const struct vpux_lf_deps zero;
	const char *why;
	int ret = 0;

	if (!img->n_blocks) {
		if (img->n_templates || img->n_patches || img->n_expr)
			return vpux_err(VPUX_E_FORMAT,
					"%s: missing, but %u templates, %u patches and %u expression words given",
					SB, img->n_templates, img->n_patches,
					img->n_expr);
		return 0;
	}
	if (img->n_barriers)
		return BAD(VPUX_LF_SEC_BARRIERS, 0, "count",
			   "%u barriers in a loadable with a plan (the plan orders its ops)",
			   img->n_barriers);
	if (img->n_blocks > DLA_PLAN_MAX_BLOCKS)
		return BAD(SB, DLA_PLAN_MAX_BLOCKS, "count",
			   "%u blocks, at most %u", img->n_blocks,
			   DLA_PLAN_MAX_BLOCKS);
	if (!img->n_templates || img->n_templates > DLA_PLAN_MAX_TEMPLATES)
		return BAD(ST, 0, "count", "%u templates, must be 1..%u",
			   img->n_templates, DLA_PLAN_MAX_TEMPLATES);
	for (k = 0; k < LF_KINDS; k++)
		for (i = 0; i < lf_op_count(img, k); i++)
			if (memcmp(lf_op_deps(img, k, i), &zero, sizeof(zero)))
				return BAD(sec_of(k), i, "deps",
					   "not zero in a loadable with a plan");
	for (k = 0; k < LF_KINDS; k++)
		total += lf_op_count(img, k);
	owner = malloc((total + img->n_templates + 1u) * sizeof(*owner));
	if (!owner)
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	memset(owner, 0xff, (total + img->n_templates + 1u) * sizeof(*owner));
	tpl_of[0] = owner;
	tpl_of[1] = tpl_of[0] + img->n_dma;
	tpl_of[2] = tpl_of[1] + img->n_dpu;
	/* owner + total: the block of each template */
	for (i = 0; i < img->n_templates && !ret; i++) {
		const struct vpux_lf_plan_template *t = &img->templates[i];

		if (t->reserved)
			ret = BAD(ST, i, "reserved", "not zero");
		else if (t->kind >= LF_KINDS)
			ret = BAD(ST, i, "kind", "%u unknown", t->kind);
		else if (t->op >= lf_op_count(img, t->kind))
			ret = BAD(ST, i, "op", "%s record %u does not exist (%u records)",
				  sec_of(t->kind), t->op,
				  lf_op_count(img, t->kind));
		else if (tpl_of[t->kind][t->op] != UINT32_MAX)
			ret = BAD(ST, i, "op", "%s record %u is already template %u",
				  sec_of(t->kind), t->op,
				  tpl_of[t->kind][t->op]);
		else if (t->n_patches > LF_PLAN_MAX_PATCHES ||
			 t->first_patch > img->n_patches ||
			 t->n_patches > img->n_patches - t->first_patch)
			ret = BAD(ST, i, "first_patch/n_patches",
				  "%u+%u outside %s (%u records; at most %u each)",
				  t->first_patch, t->n_patches, SP,
				  img->n_patches, LF_PLAN_MAX_PATCHES);
		else
			tpl_of[t->kind][t->op] = i;
		for (j = 0; !ret && j < t->n_patches; j++) {
			const struct vpux_lf_plan_patch *pa =
				&img->patches[t->first_patch + j];
			const struct lf_field *f = lf_field_by_id(pa->field);

			if (pa->reserved)
				ret = BAD(SP, t->first_patch + j, "reserved",
					  "not zero");
			else if (!f || VPUX_LF_FIELD_KIND(pa->field) != t->kind)
				ret = BAD(SP, t->first_patch + j, "field",
					  "0x%x is no field of a %s op (template %u)",
					  pa->field, sec_of(t->kind), i);
		}
	}
	for (k = 0; k < LF_KINDS && !ret; k++)
		for (i = 0; i < lf_op_count(img, k) && !ret; i++)
			if (tpl_of[k][i] == UINT32_MAX)
				ret = BAD(sec_of(k), i, "deps",
					  "the op is no template of the plan (each op is exactly one)");
	for (i = 0; i < img->n_blocks && !ret; i++) {
		const struct vpux_lf_plan_block *b = &img->blocks[i];

		if (b->reserved) {
			ret = BAD(SB, i, "reserved", "not zero");
			break;
		}
		if (b->depth > VPUX_LF_PLAN_MAX_DEPTH) {
			ret = BAD(SB, i, "depth",
				  "%u: nesting past the limit of %u loops",
				  b->depth, VPUX_LF_PLAN_MAX_DEPTH);
			break;
		}
		if (!b->n_templates || b->n_templates > LF_PLAN_MAX_BODY ||
		    b->first_template >= img->n_templates ||
		    b->n_templates > img->n_templates - b->first_template) {
			ret = BAD(SB, i, "first_template/n_templates",
				  "%u+%u: 1..%u templates of the %u",
				  b->first_template, b->n_templates,
				  LF_PLAN_MAX_BODY, img->n_templates);
			break;
		}
		for (l = 0; l < VPUX_LF_PLAN_MAX_DEPTH && !ret; l++) {
			const struct vpux_lf_plan_loop *lp = &b->loop[l];

			if (l >= b->depth) {
				if (lp->extent || lp->extent_len || lp->tile ||
				    lp->reserved)
					ret = BAD(SB, i, "loop",
						  "level %u not used but not zero", l);
				continue;
			}
			if (!lp->tile || lp->reserved)
				ret = BAD(SB, i, "loop.tile",
					  "level %u: tile 0 or reserved not zero", l);
			else if ((why = lf_expr_check(img, lp->extent,
						      lp->extent_len, 0)))
				ret = BAD(SB, i, "loop.extent", "level %u: %s",
					  l, why);
		}
		for (j = 0; j < b->n_templates && !ret; j++) {
			uint32_t ti = b->first_template + j;
			const struct vpux_lf_plan_template *t =
				&img->templates[ti];

			if (owner[total + ti] != UINT32_MAX) {
				ret = BAD(SB, i, "first_template",
					  "template %u already in block %u",
					  ti, owner[total + ti]);
				break;
			}
			owner[total + ti] = i;
			if (t->wait_mask >> j)
				ret = BAD(ST, ti, "wait_mask",
					  "0x%x: waits for itself or a later template of block %u",
					  t->wait_mask, i);
			for (k = 0; k < t->n_patches && !ret; k++) {
				const struct vpux_lf_plan_patch *pa =
					&img->patches[t->first_patch + k];

				why = lf_expr_check(img, pa->expr, pa->len,
						    b->depth);
				if (why)
					ret = BAD(SP, t->first_patch + k, "expr",
						  "%s (template %u, block %u of depth %u)",
						  why, ti, i, b->depth);
			}
		}
	}
	for (i = 0; i < img->n_templates && !ret; i++)
		if (owner[total + i] == UINT32_MAX)
			ret = BAD(ST, i, "kind", "in no block");
	free(owner);
	if (ret)
		return ret;
	ret = check_plan_corners(img, 0);
	return ret ? ret : check_plan_corners(img, 1);
}

/*
 * An output with dynamic dims that a SHAVE kernel writes through a dynamic
 * memref has the kernel's shape (the last such op's): its dims record must
 * be where the host can read it after the run (scratch or an output, not
 * an input or the CMX) and have the tensor's rank.
 */
static int check_output_dims(const struct lf_image *img)
{
	const char *S = VPUX_LF_SEC_SHAVE;
	struct lf_dims_src src;
	uint32_t t, k;

	for (t = 0; t < img->n_tensors; t++) {
		const struct vpux_lf_tensor *ot = &img->tensors[t];

		if (!(ot->flags & VPUX_LF_T_IO) ||
		    VPUX_LF_REGION_KIND(ot->region) != VPUX_LF_RK_OUTPUT ||
		    lf_output_dims_src(img, t, &src) < 0)
			continue;
		k = VPUX_LF_REGION_KIND(src.region);
		if (k != VPUX_LF_RK_SCRATCH && k != VPUX_LF_RK_OUTPUT)
			return BAD(S, src.op, "args.out.dims_addr",
				   "the dims of output '%s' (the kernel's shape) in a region of kind %u: must be scratch or an output",
				   ot->name, k);
		if (src.rank != ot->rank)
			return BAD(S, src.op, "args.out.rank",
				   "%u, output '%s' (the kernel's shape) has rank %u",
				   src.rank, ot->name, ot->rank);
	}
	return 0;
}

int lf_validate(const struct lf_image *img)
{
	uint32_t *pc, *cc, i, total;
	unsigned int k;
	int ret;

	ret = check_header(img);
	if (ret)
		return ret;
	ret = check_symbols(img);
	if (ret)
		return ret;
	ret = check_tensors(img);
	if (ret)
		return ret;
	ret = check_names(img);
	if (ret)
		return ret;
	ret = lf_check_kernels(img);
	if (ret)
		return ret;
	total = img->n_dma + img->n_dpu + img->n_shave;
	if (!total || total > DLA_MAX_OPS_PER_TASK ||
	    img->n_dma > DLA_MAX_OPS_PER_TASK ||
	    img->n_dpu > DLA_MAX_OPS_PER_TASK)
		return vpux_err(VPUX_E_FORMAT,
				"ops: %u in all, must be 1..%u", total,
				DLA_MAX_OPS_PER_TASK);
	if (img->n_barriers > DLA_MAX_BARRIERS)
		return vpux_err(VPUX_E_FORMAT, "%s: count %u above %u",
				VPUX_LF_SEC_BARRIERS, img->n_barriers,
				DLA_MAX_BARRIERS);
	if (img->hdr.caps != (img->hdr.caps | (img->n_dma ? VPUX_NET_CAP_DMA : 0) |
			      (img->n_dpu ? VPUX_NET_CAP_DPU : 0) |
			      (img->n_shave ? VPUX_NET_CAP_SHAVE : 0)))
		return BAD(VPUX_LF_SEC_HEADER, 0, "caps",
			   "0x%llx lacks an engine kind the ops use",
			   (unsigned long long)img->hdr.caps);
	for (k = 0, i = 0, total = 0; k < LF_KINDS; k++) {
		uint32_t j;

		for (j = 0; j < lf_op_count(img, k); j++) {
			const struct vpux_lf_deps *d = lf_op_deps(img, k, j);

			i += d->num_waits;
			total += d->num_updates;
		}
	}
	if (i > DLA_MAX_DEPS_PER_TASK || total > DLA_MAX_DEPS_PER_TASK)
		return vpux_err(VPUX_E_FORMAT,
				"ops: %u wait and %u update edges, the engine core takes %u each",
				i, total, DLA_MAX_DEPS_PER_TASK);
	ret = check_plan(img);
	if (ret)
		return ret;
	pc = calloc(2 * (img->n_barriers + 1u), sizeof(*pc));
	if (!pc)
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	cc = pc + img->n_barriers + 1;
	for (k = 0; k < LF_KINDS && !ret; k++)
		for (i = 0; i < lf_op_count(img, k) && !ret; i++) {
			ret = check_deps(img, k, i, pc, cc);
			/* a plan's templates are checked as instances */
			if (!ret && !img->n_blocks)
				ret = lf_check_op(img, k, i,
					       lf_op_record(img, k, i));
		}
	if (!ret && !img->n_blocks)
		ret = check_output_dims(img);
	for (i = 0; i < img->n_barriers && !ret; i++) {
		const struct vpux_lf_barrier *b = &img->barriers[i];

		if (b->reserved)
			ret = BAD(VPUX_LF_SEC_BARRIERS, i, "reserved", "not zero");
		else if (b->producer_count != pc[i])
			ret = BAD(VPUX_LF_SEC_BARRIERS, i, "producer_count",
				  "%u, %u ops update it", b->producer_count,
				  pc[i]);
		else if (b->consumer_count != cc[i])
			ret = BAD(VPUX_LF_SEC_BARRIERS, i, "consumer_count",
				  "%u, %u ops wait on it", b->consumer_count,
				  cc[i]);
		else if (!pc[i] && cc[i])
			ret = BAD(VPUX_LF_SEC_BARRIERS, i, "producer_count",
				  "0 but %u ops wait on it", cc[i]);
	}
	free(pc);
	return ret ? ret : lf_schedule(img, NULL, NULL);
}
