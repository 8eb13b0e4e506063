// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The ONNX view of a loadable's inputs and outputs (struct vpuxc_io_table)
 * and the host-side conversion at that boundary.
 *
 * The table comes from the loadable's tensor records (the IO tensor of
 * each input and output: device type and dims) and, when present, the
 * ".vpux.io" section (compiler/io_format.h): ONNX name, element type and
 * shape, and for a float input/output its ONNX scales and zero points in
 * ".vpux.ioq". lf_parse() skips sections it does not know, so this file
 * finds both itself and checks their headers as lf_read.c checks every
 * .vpux.* section (magic, hdr_size, flags, reserved, count x rec_size,
 * CRC-32, rec_size at least the record size known).
 */
#include <gelf.h>
#include <libelf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "err.h"
#include "io_format.h"
#include "io_section.h"
#include "lf.h"
#include "vpux_compiler.h"
#include "vpux_float.h"

#define SEC VPUXC_IO_SECTION
#define QSEC VPUXC_IOQ_SECTION
/*
 * ONNX's FLOAT16 (TensorProto.DataType 10) as the device type of an f16
 * tensor: no ONNX input or output has it here (vpuxc_dtype_size() does
 * not know it), a float one is converted to and from it.
 */
#define IO_FLOAT16 10

/* "1x3x4x4" (or "scalar") into @buf */
static const char *fmt_dims(char *buf, size_t cap, uint32_t rank,
			    const int64_t *dims)
{
	size_t n = 0;
	uint32_t i;

	if (!rank) {
		snprintf(buf, cap, "scalar");
		return buf;
	}
	buf[0] = 0;
	for (i = 0; i < rank && n < cap; i++) {
		int w = snprintf(buf + n, cap - n, "%s%lld", i ? "x" : "",
				 (long long)dims[i]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

static int32_t dev_dtype(uint32_t dt)
{
	switch (dt) {
	case VPUX_DT_U8:
		return VPUXC_UINT8;
	case VPUX_DT_I8:
		return VPUXC_INT8;
	case VPUX_DT_I32:
		return VPUXC_INT32;
	case VPUX_DT_F16:
		return IO_FLOAT16;
	case VPUX_DT_F32:
		return VPUXC_FLOAT;
	}
	return 0;
}

/* a float device tensor (loadable 1.3): no quantisation */
static int dev_float(int32_t dev)
{
	return dev == VPUXC_FLOAT || dev == IO_FLOAT16;
}

/* bytes of a device element */
static size_t dev_esize(int32_t dev)
{
	return dev == IO_FLOAT16 ? 2 : vpuxc_dtype_size(dev);
}

static const char *dev_name(int32_t dev)
{
	return dev == IO_FLOAT16 ? "f16" : dev == VPUXC_FLOAT ? "f32" :
	       vpuxc_dtype_name(dev);
}

/*
 * Is the tensor dense, row-major in the order given by @perm[0..rank)
 * (logical dims, outermost first)? Dims of size 1 may have any stride.
 */
static int dense_in(const struct vpux_lf_tensor *t, const uint32_t *perm)
{
	uint64_t want = lf_dt_bits(t->data_type);
	uint32_t i;

	for (i = t->rank; i-- > 0;) {
		uint32_t d = perm[i];

		if (t->dims[d] > 1 && t->strides[d] != want)
			return 0;
		want *= t->dims[d];
	}
	return 1;
}

/* the tensor record of input/output @index (VPUX_LF_RK_INPUT/OUTPUT) */
static const struct vpux_lf_tensor *io_tensor(const struct lf_image *img,
					      uint32_t kind, uint32_t index)
{
	uint32_t i;

	for (i = 0; i < img->n_tensors; i++) {
		const struct vpux_lf_tensor *t = &img->tensors[i];

		if (t->flags & VPUX_LF_T_IO &&
		    t->region == VPUX_LF_REGION(kind, index))
			return t;
	}
	return NULL;
}

/*
 * @t with its dynamic dims (which name symbols) at their symbols' max,
 * the shape it is laid out for. -1 if a dim names no symbol.
 */
static int at_max(const struct lf_image *img, const struct vpux_lf_tensor *t,
		  struct vpux_lf_tensor *out)
{
	uint32_t i;

	*out = *t;
	for (i = 0; i < out->rank && i < VPUX_LF_MAX_RANK; i++) {
		if (!(out->dyn_dims & (1u << i)))
			continue;
		if (out->dims[i] >= img->n_symbols ||
		    img->symbols[out->dims[i]].max > UINT32_MAX)
			return -1;
		out->dims[i] = (uint32_t)img->symbols[out->dims[i]].max;
	}
	return 0;
}

/*
 * The entry of input/output @index from its tensor record: name, device
 * type (also the ONNX type: no conversion; float for f16 and f32), dims. The ONNX dims are the logical dims when
 * the tensor is dense in logical order; else, when it is dense in its
 * memory order, the dims in memory order (the bytes as they lie).
 */
static int from_tensor(const struct lf_image *img, uint32_t kind,
		       uint32_t index, struct vpuxc_io *io)
{
	const char *what = kind == VPUX_LF_RK_INPUT ? "input" : "output";
	const struct vpux_lf_tensor *t0 = io_tensor(img, kind, index);
	uint32_t logical[VPUX_LF_MAX_RANK], mem[VPUX_LF_MAX_RANK], i;
	const uint32_t *perm = logical;
	struct vpux_lf_tensor tm;
	const struct vpux_lf_tensor *t = &tm;

	if (!t0)
		return vpux_err(VPUX_E_FORMAT, "%s %u: no IO tensor record",
				what, index);
	if (at_max(img, t0, &tm))
		return vpux_err(VPUX_E_FORMAT, "%s %u: a dynamic dim names no symbol",
				what, index);
	memset(io, 0, sizeof(*io));
	memcpy(io->name, t->name, VPUX_LF_NAME_LEN);
	io->name[VPUX_LF_NAME_LEN - 1] = 0;
	io->dev_dtype = dev_dtype(t->data_type);
	/* a float device tensor is float on the host (converted to f16) */
	io->onnx_dtype = dev_float(io->dev_dtype) ? VPUXC_FLOAT :
			 io->dev_dtype;
	io->rank = t->rank;
	io->axis = -1;
	for (i = 0; i < t->rank; i++) {
		logical[i] = i;
		/* memory dim rank-1-i (outermost first) */
		mem[i] = (uint32_t)((t->dims_order >> (4 * (t->rank - 1 - i))) &
				    0xf) - 1;
	}
	if (!dense_in(t, logical)) {
		if (!dense_in(t, mem))
			return vpux_err(VPUX_E_FORMAT,
					"%s %u: tensor '%s' is not dense (strides with gaps): vpux-onnx cannot map it",
					what, index, io->name);
		perm = mem;
	}
	for (i = 0; i < t->rank; i++)
		io->dims[i] = t->dims[perm[i]];
	return 0;
}

static int onnx_feeds(int32_t onnx, int32_t dev)
{
	switch (onnx) {
	case VPUXC_FLOAT:
		return 1;
	case VPUXC_UINT8:
	case VPUXC_INT8:
	case VPUXC_INT32:
		return onnx == dev;
	case VPUXC_INT64:
		return dev == VPUXC_INT32;
	}
	return 0;
}

static size_t io_count(const struct vpuxc_io *io)
{
	size_t n = 1;
	uint32_t i;

	for (i = 0; i < io->rank && i < VPUXC_MAX_RANK; i++)
		n *= io->dims[i] > 0 ? (size_t)io->dims[i] : 0;
	return n;
}

static void dev_range(int32_t dt, double *lo, double *hi)
{
	switch (dt) {
	case VPUXC_UINT8:
		*lo = 0;
		*hi = 255;
		break;
	case VPUXC_INT8:
		*lo = -128;
		*hi = 127;
		break;
	default:
		*lo = INT32_MIN;
		*hi = INT32_MAX;
		break;
	}
}

/* a checked section: its records (a copy of the known prefix of each) */
struct sec {
	const char *name;
	int found;
	GElf_Shdr gs;
	uint32_t count;
	void *recs;		/* count records of the known size */
};

/* check the header of @s (as lf_read.c does), copy its records */
static int sec_read(const unsigned char *p, struct sec *s, size_t rec_size)
{
	struct vpux_lf_sechdr sh;
	const GElf_Shdr *gs = &s->gs;
	unsigned char *out;
	uint64_t pay;
	uint32_t r;

	if (gs->sh_type != SHT_PROGBITS || gs->sh_size < sizeof(sh))
		return vpux_err(VPUX_E_FORMAT,
				"%s: not PROGBITS or smaller than its header",
				s->name);
	memcpy(&sh, p + gs->sh_offset, sizeof(sh));
	if (sh.magic != VPUX_LF_SEC_MAGIC)
		return vpux_err(VPUX_E_FORMAT, "%s: header field magic 0x%08x",
				s->name, sh.magic);
	if (sh.hdr_size < sizeof(sh) || sh.hdr_size > gs->sh_size ||
	    sh.hdr_size % 8)
		return vpux_err(VPUX_E_FORMAT, "%s: header field hdr_size %u",
				s->name, sh.hdr_size);
	if (sh.flags & ~VPUX_LF_SEC_FLAGS_ALL || sh.reserved)
		return vpux_err(VPUX_E_FORMAT, "%s: header field %s not zero",
				s->name, sh.reserved ? "reserved" : "flags");
	pay = gs->sh_size - sh.hdr_size;
	if (!sh.rec_size || (uint64_t)sh.count * sh.rec_size != pay)
		return vpux_err(VPUX_E_FORMAT,
				"%s: count %u x rec_size %u != %llu payload bytes",
				s->name, sh.count, sh.rec_size,
				(unsigned long long)pay);
	if (crc32(0, p + gs->sh_offset + sh.hdr_size, (uInt)pay) != sh.crc32)
		return vpux_err(VPUX_E_CHECKSUM,
				"%s: checksum mismatch (header field crc32 0x%08x)",
				s->name, sh.crc32);
	if (sh.rec_size < rec_size)
		return vpux_err(VPUX_E_FORMAT,
				"%s: header field rec_size %u < %zu", s->name,
				sh.rec_size, rec_size);
	out = calloc(sh.count ? sh.count : 1, rec_size);
	if (!out)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", s->name);
	for (r = 0; r < sh.count; r++)
		memcpy(out + (size_t)r * rec_size,
		       p + gs->sh_offset + sh.hdr_size +
		       (size_t)r * sh.rec_size, rec_size);
	s->recs = out;
	s->count = sh.count;
	return 0;
}

/*
 * the quantization of float record @r into @e (.vpux.ioq records @q); a
 * float device tensor has none: axis -1, qcount 0
 */
static int apply_q(unsigned int r, const struct vpuxc_io_rec *rec,
		   const struct sec *q, struct vpuxc_io *e)
{
	const struct vpuxc_ioq_rec *qr = q->recs;
	double lo, hi;
	uint32_t i, want;

	if (rec->onnx_dtype != VPUXC_FLOAT) {
		if (rec->qcount)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field qcount: %u for a %s %s (0: no conversion)",
					SEC, r, rec->qcount,
					vpuxc_dtype_name(rec->onnx_dtype),
					rec->dir ? "output" : "input");
		return 0;
	}
	if (dev_float(e->dev_dtype)) {
		if (rec->axis != -1)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field axis: %d, the %s device tensor of %s '%s' is not quantized (-1)",
					SEC, r, rec->axis, dev_name(e->dev_dtype),
					rec->dir ? "output" : "input", e->name);
		if (rec->qcount)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field qcount: %u, the %s device tensor of %s '%s' is not quantized (0)",
					SEC, r, rec->qcount,
					dev_name(e->dev_dtype),
					rec->dir ? "output" : "input", e->name);
		return 0;
	}
	if (rec->axis < -1 || rec->axis >= (int32_t)rec->rank)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field axis: %d (-1 per tensor, or 0..%d)",
				SEC, r, rec->axis, (int)rec->rank - 1);
	want = rec->axis < 0 ? 1 : (uint32_t)rec->dims[rec->axis];
	if (rec->qcount != want)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field qcount: %u, a float %s quantized %s%.0d needs %u",
				SEC, r, rec->qcount,
				rec->dir ? "output" : "input",
				rec->axis < 0 ? "per tensor" : "along axis ",
				rec->axis < 0 ? 0 : rec->axis, want);
	if (!q->found)
		return vpux_err(VPUX_E_FORMAT,
				"%s: missing (record %u of %s has qcount %u)",
				QSEC, r, SEC, rec->qcount);
	if (rec->qoffset > q->count || rec->qcount > q->count - rec->qoffset)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field qoffset: records [%u, +%u) outside %s (%u records)",
				SEC, r, rec->qoffset, rec->qcount, QSEC,
				q->count);
	e->scales = calloc(rec->qcount, sizeof(*e->scales));
	e->zero_points = calloc(rec->qcount, sizeof(*e->zero_points));
	if (!e->scales || !e->zero_points)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", SEC);
	dev_range(e->dev_dtype, &lo, &hi);
	for (i = 0; i < rec->qcount; i++) {
		const struct vpuxc_ioq_rec *x = &qr[rec->qoffset + i];

		if (!(x->scale > 0) || !isfinite(x->scale))
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field scale: %g (positive and finite)",
					QSEC, rec->qoffset + i, x->scale);
		if (x->zero_point < lo || x->zero_point > hi)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field zero_point: %d outside the %s range",
					QSEC, rec->qoffset + i, x->zero_point,
					vpuxc_dtype_name(e->dev_dtype));
		if (x->reserved)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field reserved: not zero",
					QSEC, rec->qoffset + i);
		e->scales[i] = x->scale;
		e->zero_points[i] = x->zero_point;
	}
	e->axis = rec->axis;
	e->qcount = rec->qcount;
	return 0;
}

/* One record of .vpux.io onto the table entry built from the tensor. */
static int apply_rec(const struct lf_image *img, unsigned int r,
		     const struct vpuxc_io_rec *rec, const struct sec *q,
		     struct vpuxc_io_table *io, unsigned char *seen)
{
	const struct vpux_lf_tensor *t;
	struct vpux_lf_tensor tm;
	struct vpuxc_io *e;
	uint32_t id[VPUX_LF_MAX_RANK];
	char a[160];
	unsigned int slot;
	uint64_t n = 1, dn = 1;
	uint32_t i;

	if (!memchr(rec->name, 0, sizeof(rec->name)) || !rec->name[0])
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field name: %s", SEC, r,
				rec->name[0] ? "not NUL-terminated" : "empty");
	if (rec->dir != VPUXC_IO_INPUT && rec->dir != VPUXC_IO_OUTPUT)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field dir: %u (0 input, 1 output)",
				SEC, r, rec->dir);
	if (rec->index >= (rec->dir ? io->n_outputs : io->n_inputs))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field index: %s %u does not exist (%u %ss)",
				SEC, r, rec->dir ? "output" : "input",
				rec->index,
				rec->dir ? io->n_outputs : io->n_inputs,
				rec->dir ? "output" : "input");
	slot = rec->dir ? io->n_inputs + rec->index : rec->index;
	if (seen[slot])
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field index: %s %u described twice",
				SEC, r, rec->dir ? "output" : "input",
				rec->index);
	seen[slot] = 1;
	if (!vpuxc_dtype_size(rec->onnx_dtype))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field onnx_dtype: %d (%s) not supported",
				SEC, r, rec->onnx_dtype,
				vpuxc_dtype_name(rec->onnx_dtype));
	if (rec->rank > VPUXC_MAX_RANK)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field rank: %u above %d", SEC, r,
				rec->rank, VPUXC_MAX_RANK);
	for (i = 0; i < VPUXC_MAX_RANK; i++) {
		if (i >= rec->rank && rec->dims[i])
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field dims: dims[%u] = %lld above rank %u, must be 0",
					SEC, r, i, (long long)rec->dims[i],
					rec->rank);
		if (i < rec->rank && (rec->dims[i] < 1 ||
				      rec->dims[i] > UINT32_MAX))
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field dims: dims[%u] = %lld out of range",
					SEC, r, i, (long long)rec->dims[i]);
		if (i < rec->rank &&
		    (uint64_t)rec->dims[i] > (1ull << 40) / n)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field dims: too many elements",
					SEC, r);
		if (i < rec->rank)
			n *= (uint64_t)rec->dims[i];
	}
	if (rec->reserved)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field reserved: not zero", SEC, r);
	e = rec->dir ? &io->outputs[rec->index] : &io->inputs[rec->index];
	if (at_max(img, io_tensor(img, rec->dir ? VPUX_LF_RK_OUTPUT :
				  VPUX_LF_RK_INPUT, rec->index), &tm))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: a dynamic dim of its tensor names no symbol",
				SEC, r);
	t = &tm;
	for (i = 0; i < t->rank; i++) {
		dn *= t->dims[i];
		id[i] = i;
	}
	if (n != dn)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field dims: %s (%llu elements), the %s tensor '%s' has %llu",
				SEC, r,
				fmt_dims(a, sizeof(a), rec->rank, rec->dims),
				(unsigned long long)n,
				rec->dir ? "output" : "input", e->name,
				(unsigned long long)dn);
	if (!dense_in(t, id))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: the %s tensor '%s' is not dense in its logical (ONNX) order (dims_order 0x%llx)",
				SEC, r, rec->dir ? "output" : "input", e->name,
				(unsigned long long)t->dims_order);
	if (!onnx_feeds(rec->onnx_dtype, e->dev_dtype))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field onnx_dtype: %s cannot map to the %s device tensor '%s'",
				SEC, r, vpuxc_dtype_name(rec->onnx_dtype),
				dev_name(e->dev_dtype), e->name);
	memcpy(e->name, rec->name, sizeof(e->name));
	e->onnx_dtype = rec->onnx_dtype;
	e->rank = rec->rank;
	memset(e->dims, 0, sizeof(e->dims));
	memcpy(e->dims, rec->dims, rec->rank * sizeof(e->dims[0]));
	return apply_q(r, rec, q, e);
}

/* find .vpux.io and .vpux.ioq (the container was checked by lf_parse) */
static int find_sections(Elf *e, struct sec *s, unsigned int n)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	unsigned int i;

	if (elf_getshdrstrndx(e, &shstrndx))
		return vpux_err(VPUX_E_FORMAT, "file: libelf: %s",
				elf_errmsg(-1));
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr gs;
		const char *name;

		if (!gelf_getshdr(scn, &gs) ||
		    !(name = elf_strptr(e, shstrndx, gs.sh_name)))
			continue;	/* lf_parse() checked the .vpux.* ones */
		for (i = 0; i < n; i++) {
			if (strcmp(name, s[i].name))
				continue;
			if (s[i].found++)
				return vpux_err(VPUX_E_FORMAT,
						"%s: appears twice", s[i].name);
			s[i].gs = gs;
		}
	}
	return 0;
}

static int read_sections(const struct lf_image *img, const void *data,
			 size_t size, struct vpuxc_io_table *io)
{
	struct sec s[2] = { { .name = SEC }, { .name = QSEC } };
	unsigned char seen[2 * VPUX_LF_MAX_IO];
	unsigned int r;
	Elf *e;
	int ret;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return vpux_err(VPUX_E_FORMAT, "libelf: version mismatch");
	e = elf_memory((char *)data, size);
	if (!e)
		return vpux_err(VPUX_E_FORMAT, "file: libelf: %s",
				elf_errmsg(-1));
	ret = find_sections(e, s, 2);
	if (!ret && s[0].found)
		ret = sec_read(data, &s[0], sizeof(struct vpuxc_io_rec));
	if (!ret && s[0].found && s[1].found)
		ret = sec_read(data, &s[1], sizeof(struct vpuxc_ioq_rec));
	if (!ret && s[0].found && s[0].count != io->n_inputs + io->n_outputs)
		ret = vpux_err(VPUX_E_FORMAT,
			       "%s: header field count %u, the network has %u inputs and %u outputs",
			       SEC, s[0].count, io->n_inputs, io->n_outputs);
	memset(seen, 0, sizeof(seen));
	for (r = 0; !ret && s[0].found && r < s[0].count; r++)
		ret = apply_rec(img, r, (struct vpuxc_io_rec *)s[0].recs + r,
				&s[1], io, seen);
	free(s[0].recs);
	free(s[1].recs);
	elf_end(e);
	return ret;
}

int vpuxc_io_read(const void *loadable, size_t size,
		  struct vpuxc_io_table *io)
{
	struct lf_image img;
	unsigned int i;
	int ret;

	memset(io, 0, sizeof(*io));
	ret = lf_parse(loadable, size, &img);
	if (!ret)
		ret = lf_validate(&img);
	if (ret)
		goto out;
	io->n_inputs = img.hdr.num_inputs;
	io->n_outputs = img.hdr.num_outputs;
	io->inputs = calloc(io->n_inputs + 1, sizeof(*io->inputs));
	io->outputs = calloc(io->n_outputs + 1, sizeof(*io->outputs));
	if (!io->inputs || !io->outputs) {
		ret = vpux_err(VPUX_E_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0; !ret && i < io->n_inputs; i++)
		ret = from_tensor(&img, VPUX_LF_RK_INPUT, i, &io->inputs[i]);
	for (i = 0; !ret && i < io->n_outputs; i++)
		ret = from_tensor(&img, VPUX_LF_RK_OUTPUT, i, &io->outputs[i]);
	if (!ret)
		ret = read_sections(&img, loadable, size, io);
out:
	lf_image_free(&img);
	if (ret)
		vpuxc_io_fini(io);
	return ret;
}

void vpuxc_io_fini(struct vpuxc_io_table *io)
{
	unsigned int i;

	if (!io)
		return;
	for (i = 0; io->inputs && i < io->n_inputs; i++) {
		free(io->inputs[i].scales);
		free(io->inputs[i].zero_points);
	}
	for (i = 0; io->outputs && i < io->n_outputs; i++) {
		free(io->outputs[i].scales);
		free(io->outputs[i].zero_points);
	}
	free(io->inputs);
	free(io->outputs);
	memset(io, 0, sizeof(*io));
}

static int section_build(const char *name, const void *recs, size_t rec_size,
			 unsigned int n, unsigned int max, void **data,
			 uint32_t *size)
{
	struct vpux_lf_sechdr h;
	size_t pay = (size_t)n * rec_size;
	unsigned char *p;

	*data = NULL;
	*size = 0;
	if (n > max || (n && !recs))
		return vpux_err(VPUX_E_INVAL, "%s: %u records (at most %u)",
				name, n, max);
	p = malloc(sizeof(h) + pay);
	if (!p)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", name);
	memset(&h, 0, sizeof(h));
	h.magic = VPUX_LF_SEC_MAGIC;
	h.hdr_size = sizeof(h);
	h.rec_size = (uint32_t)rec_size;
	h.count = n;
	if (pay)
		memcpy(p + sizeof(h), recs, pay);
	h.crc32 = (uint32_t)crc32(0, p + sizeof(h), (uInt)pay);
	memcpy(p, &h, sizeof(h));
	*data = p;
	*size = (uint32_t)(sizeof(h) + pay);
	return 0;
}

int vpuxc_io_section_build(const struct vpuxc_io_rec *recs, unsigned int n,
			   void **data, uint32_t *size)
{
	return section_build(SEC, recs, sizeof(*recs), n, 2 * VPUX_LF_MAX_IO,
			     data, size);
}

int vpuxc_ioq_section_build(const struct vpuxc_ioq_rec *recs, unsigned int n,
			    void **data, uint32_t *size)
{
	return section_build(QSEC, recs, sizeof(*recs), n, 1u << 24, data,
			     size);
}

/* ---- conversion ---- */

static int conv_check(const char *dir, const struct vpuxc_io *io,
		      const struct vpuxc_tensor *onnx, size_t dev_size,
		      size_t *count)
{
	size_t esize = vpuxc_dtype_size(io->onnx_dtype);
	size_t dsize = dev_esize(io->dev_dtype);
	char a[160], b[160];
	uint32_t i;
	size_t n;

	if (!esize || !dsize || io->rank > VPUXC_MAX_RANK ||
	    !onnx_feeds(io->onnx_dtype, io->dev_dtype) ||
	    io->dev_dtype == VPUXC_INT64)
		return vpux_err(VPUX_E_INVAL,
				"%s '%s': %s on the host, %s on the device: no conversion",
				dir, io->name, vpuxc_dtype_name(io->onnx_dtype),
				dev_name(io->dev_dtype));
	if (dev_float(io->dev_dtype) && (io->qcount || io->axis != -1))
		return vpux_err(VPUX_E_INVAL,
				"%s '%s': a quantization (axis %d, %u scales) for the %s device tensor",
				dir, io->name, io->axis, io->qcount,
				dev_name(io->dev_dtype));
	if (io->onnx_dtype == VPUXC_FLOAT && !dev_float(io->dev_dtype)) {
		if (io->axis < -1 || io->axis >= (int32_t)io->rank ||
		    !io->qcount || !io->scales || !io->zero_points ||
		    io->qcount != (io->axis < 0 ? 1 : io->dims[io->axis]))
			return vpux_err(VPUX_E_INVAL,
					"%s '%s': float without its quantization (axis %d, %u scales)",
					dir, io->name, io->axis, io->qcount);
		for (i = 0; i < io->qcount; i++)
			if (!(io->scales[i] > 0) || !isfinite(io->scales[i]))
				return vpux_err(VPUX_E_INVAL,
						"%s '%s': scale %g", dir,
						io->name, io->scales[i]);
	}
	n = io_count(io);
	if (n > SIZE_MAX / 8)
		return vpux_err(VPUX_E_INVAL, "%s '%s': too many elements",
				dir, io->name);
	if (dev_size < n * dsize)
		return vpux_err(VPUX_E_INVAL,
				"%s '%s': device buffer of %zu bytes, %s %s needs %zu",
				dir, io->name, dev_size,
				fmt_dims(a, sizeof(a), io->rank, io->dims),
				dev_name(io->dev_dtype), n * dsize);
	if (onnx) {
		if (onnx->dtype != io->onnx_dtype)
			return vpux_err(VPUX_E_INVAL,
					"%s '%s': a %s tensor, the network takes %s",
					dir, io->name,
					vpuxc_dtype_name(onnx->dtype),
					vpuxc_dtype_name(io->onnx_dtype));
		if (onnx->rank > VPUXC_MAX_RANK ||
		    vpuxc_tensor_count(onnx) != n)
			return vpux_err(VPUX_E_INVAL,
					"%s '%s': %s (%zu elements), the network takes %s (%zu)",
					dir, io->name,
					fmt_dims(b, sizeof(b),
						 onnx->rank > VPUXC_MAX_RANK ?
						 VPUXC_MAX_RANK : onnx->rank,
						 onnx->dims),
					vpuxc_tensor_count(onnx),
					fmt_dims(a, sizeof(a), io->rank, io->dims),
					n);
		if (onnx->size != n * esize || (n && !onnx->data))
			return vpux_err(VPUX_E_INVAL,
					"%s '%s': %zu data bytes for %zu %s elements",
					dir, io->name, onnx->size, n,
					vpuxc_dtype_name(onnx->dtype));
	}
	*count = n;
	return 0;
}

/* elements after the quantization axis (1 per tensor) */
static size_t q_inner(const struct vpuxc_io *io)
{
	size_t inner = 1;
	uint32_t i;

	if (io->axis < 0)
		return 1;
	for (i = (uint32_t)io->axis + 1; i < io->rank; i++)
		inner *= (size_t)io->dims[i];
	return inner;
}

/* the quantization record of element @i */
static uint32_t q_index(const struct vpuxc_io *io, size_t inner, size_t i)
{
	return io->axis < 0 ? 0 : (uint32_t)((i / inner) % io->qcount);
}

static void dev_put(int32_t dt, void *dev, size_t i, int64_t v)
{
	if (dt == VPUXC_UINT8) {
		((uint8_t *)dev)[i] = (uint8_t)v;
	} else if (dt == VPUXC_INT8) {
		((int8_t *)dev)[i] = (int8_t)v;
	} else {
		int32_t w = (int32_t)v;

		memcpy((char *)dev + 4 * i, &w, 4);
	}
}

static int64_t dev_get(int32_t dt, const void *dev, size_t i)
{
	int32_t w;

	if (dt == VPUXC_UINT8)
		return ((const uint8_t *)dev)[i];
	if (dt == VPUXC_INT8)
		return ((const int8_t *)dev)[i];
	memcpy(&w, (const char *)dev + 4 * i, 4);
	return w;
}

int vpuxc_io_to_device(const struct vpuxc_io *io,
		       const struct vpuxc_tensor *onnx, void *dev, size_t size)
{
	size_t n, i, dsize;
	int ret;

	vpux_err_clear();
	if (!io || !onnx || (!dev && size))
		return vpux_err(VPUX_E_INVAL, "io_to_device: NULL argument");
	ret = conv_check("input", io, onnx, size, &n);
	if (ret)
		return ret;
	dsize = dev_esize(io->dev_dtype);
	if (io->dev_dtype == IO_FLOAT16) {
		/* float to FP16, rounded to nearest even; NaN a quiet NaN */
		for (i = 0; i < n; i++) {
			uint32_t x;
			uint16_t h;

			memcpy(&x, (const char *)onnx->data + 4 * i, 4);
			h = vpux_f32_to_f16(x);
			memcpy((char *)dev + 2 * i, &h, 2);
		}
	} else if (dev_float(io->dev_dtype)) {
		if (n)
			memcpy(dev, onnx->data, n * 4);
	} else if (io->onnx_dtype == VPUXC_FLOAT) {
		size_t inner = q_inner(io);
		double lo, hi;

		dev_range(io->dev_dtype, &lo, &hi);
		for (i = 0; i < n; i++) {
			uint32_t k = q_index(io, inner, i);
			float x, v;
			double q;

			memcpy(&x, (const char *)onnx->data + 4 * i, 4);
			if (isnan(x))
				return vpux_err(VPUX_E_INVAL,
						"input '%s': element %zu is NaN",
						io->name, i);
			/*
			 * In float as ONNX's QuantizeLinear (its scale is a
			 * float, recorded exactly); rintf rounds half to even
			 * in the default rounding mode.
			 */
			v = rintf(x / (float)io->scales[k]);
			q = (double)v + io->zero_points[k];
			q = q < lo ? lo : q > hi ? hi : q;
			dev_put(io->dev_dtype, dev, i, (int64_t)q);
		}
	} else if (io->onnx_dtype == VPUXC_INT64) {
		for (i = 0; i < n; i++) {
			int64_t v;

			memcpy(&v, (const char *)onnx->data + 8 * i, 8);
			if (v < INT32_MIN || v > INT32_MAX)
				return vpux_err(VPUX_E_INVAL,
						"input '%s': element %zu = %lld out of the int32 range of the device tensor",
						io->name, i, (long long)v);
			dev_put(VPUXC_INT32, dev, i, v);
		}
	} else if (n) {
		memcpy(dev, onnx->data, n * dsize);
	}
	if (size > n * dsize)
		memset((char *)dev + n * dsize, 0, size - n * dsize);
	return 0;
}

int vpuxc_io_from_device(const struct vpuxc_io *io, const void *dev,
			 size_t size, struct vpuxc_tensor *onnx)
{
	size_t n, i, esize, inner;
	int ret;

	vpux_err_clear();
	if (!io || !onnx || (!dev && size))
		return vpux_err(VPUX_E_INVAL, "io_from_device: NULL argument");
	memset(onnx, 0, sizeof(*onnx));
	ret = conv_check("output", io, NULL, size, &n);
	if (ret)
		return ret;
	esize = vpuxc_dtype_size(io->onnx_dtype);
	onnx->data = malloc(n && esize ? n * esize : 1);
	if (!onnx->data)
		return vpux_err(VPUX_E_NOMEM, "output '%s': out of memory",
				io->name);
	onnx->size = n * esize;
	memcpy(onnx->name, io->name, sizeof(onnx->name));
	onnx->name[sizeof(onnx->name) - 1] = 0;
	onnx->dtype = io->onnx_dtype;
	onnx->rank = io->rank;
	memcpy(onnx->dims, io->dims, sizeof(onnx->dims));
	inner = q_inner(io);
	if (dev_float(io->dev_dtype)) {
		/* FP16 to float exactly, FP32 as it is */
		for (i = 0; i < n; i++) {
			uint32_t x;
			uint16_t h;

			if (io->dev_dtype == IO_FLOAT16) {
				memcpy(&h, (const char *)dev + 2 * i, 2);
				x = vpux_f16_to_f32(h);
			} else {
				memcpy(&x, (const char *)dev + 4 * i, 4);
			}
			memcpy((char *)onnx->data + 4 * i, &x, 4);
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		int64_t q = dev_get(io->dev_dtype, dev, i);

		if (io->onnx_dtype == VPUXC_FLOAT) {
			uint32_t k = q_index(io, inner, i);
			/* in float, as ONNX's DequantizeLinear */
			float x = ((float)q - (float)io->zero_points[k]) *
				  (float)io->scales[k];

			memcpy((char *)onnx->data + 4 * i, &x, 4);
		} else if (io->onnx_dtype == VPUXC_INT64) {
			memcpy((char *)onnx->data + 8 * i, &q, 8);
		} else {
			dev_put(io->onnx_dtype, onnx->data, i, q);
		}
	}
	return 0;
}
