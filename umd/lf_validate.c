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
#include "err.h"
#include "lf.h"
#include "lf_hw.h"
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
		uint64_t rsize, ext;

		if (!name_ok(t->name))
			return BAD(S, i, "name", "empty or not NUL-terminated");
		if (t->flags & ~VPUX_LF_T_FLAGS_ALL || t->dyn_dims)
			return BAD(S, i, t->dyn_dims ? "dyn_dims" : "flags",
				   "unknown bits");
		if (k < VPUX_LF_RK_WEIGHTS || k > VPUX_LF_RK_CMX ||
		    (!io && !cmx && idx) ||
		    (cmx && idx >= VPUX_LF_CMX_TILES) ||
		    (k == VPUX_LF_RK_INPUT && idx >= img->hdr.num_inputs) ||
		    (k == VPUX_LF_RK_OUTPUT && idx >= img->hdr.num_outputs))
			return BAD(S, i, "region", "0x%x unknown", t->region);
		if ((t->flags & VPUX_LF_T_IO) && (!io || t->offset))
			return BAD(S, i, "flags",
				   "IO descriptor outside an I/O region or at an offset");
		if (t->flags & VPUX_LF_T_IO)
			k == VPUX_LF_RK_INPUT ? io_in++ : io_out++;
		ret = check_layout(t, i);
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
	return 0;
}

static int check_dma(const struct lf_image *img, uint32_t i)
{
	const struct vpux_lf_dma *o = &img->dma[i];
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

static int check_dpu(const struct lf_image *img, uint32_t i)
{
	const struct vpux_lf_dpu *o = &img->dpu[i];
	const char *S = VPUX_LF_SEC_DPU;
	struct vpux_hw_dpu_desc hd;
	struct vpux_dpu_extents e;
	int ret;

	lf_dpu_to_hw(o, &hd);
	if (o->reserved0 || o->reserved[0] || o->reserved[1])
		return BAD(S, i, "reserved", "not zero");
	ret = vpux_dpu_extents(&hd, &e);
	if (ret)
		return BAD(S, i, "op/flags/shape",
			   "descriptor refused by the DPU rules (engine error %d; see compute-ops.rst)",
			   ret);
	ret = check_ref(img, LF_DPU, i, "in", &o->in, e.in, 0);
	ret = ret ? ret : check_ref(img, LF_DPU, i, "in2", &o->in2, e.in2, 0);
	ret = ret ? ret : check_ref(img, LF_DPU, i, "bias", &o->bias, e.bias, 0);
	ret = ret ? ret : check_ref(img, LF_DPU, i, "quant", &o->quant, e.quant, 0);
	return ret ? ret : check_ref(img, LF_DPU, i, "out", &o->out, e.out, 1);
}

/* A memref of the argument record: window in use, extent inside it. */
static int check_memref(const struct vpux_lf_shave *o, uint32_t i,
			const struct vpux_memref *m, const char *field,
			const struct lf_image *img, int wr)
{
	const char *S = VPUX_LF_SEC_SHAVE;
	uint32_t w = VPUX_WADDR_WINDOW(m->addr), d;
	uint64_t bits, ext;
	const struct vpux_lf_tensor *t;

	if (w >= VPUX_LF_MAX_WINDOWS || !o->windows[w].size)
		return BAD(S, i, field, "window %u not set", w);
	if (!m->is_static || m->rank < 1 || m->rank > VPUX_MEMREF_MAX_RANK)
		return BAD(S, i, field, "not a static memref of rank 1..%u",
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
	return 0;
}

static int check_shave(const struct lf_image *img, uint32_t i)
{
	const struct vpux_lf_shave *o = &img->shave[i];
	const char *S = VPUX_LF_SEC_SHAVE;
	uint32_t want = lf_kernel_args_size(o->kernel_id);
	struct vpux_memref m[2];
	char field[16];
	unsigned int w;
	int ret;

	if (o->reserved)
		return BAD(S, i, "reserved", "not zero");
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

int lf_validate(const struct lf_image *img)
{
	uint32_t *pc, *cc, i, total;
	unsigned int k;
	int ret;

	ret = check_header(img);
	if (ret)
		return ret;
	ret = check_tensors(img);
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
	pc = calloc(2 * (img->n_barriers + 1u), sizeof(*pc));
	if (!pc)
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	cc = pc + img->n_barriers + 1;
	for (k = 0; k < LF_KINDS && !ret; k++)
		for (i = 0; i < lf_op_count(img, k) && !ret; i++) {
			ret = check_deps(img, k, i, pc, cc);
			if (!ret)
				ret = k == LF_DMA ? check_dma(img, i) :
				      k == LF_DPU ? check_dpu(img, i) :
				      check_shave(img, i);
		}
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
	for (i = 0; i < img->n_symbols && !ret; i++)
		if (!name_ok(img->symbols[i].name) ||
		    img->symbols[i].kind != 1 || img->symbols[i].reserved ||
		    img->symbols[i].min > img->symbols[i].max)
			ret = BAD(VPUX_LF_SEC_SYMBOLS, i, "name/min/max",
				  "bad symbol");
	return ret ? ret : lf_schedule(img, NULL, NULL);
}
