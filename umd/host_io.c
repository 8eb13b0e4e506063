// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The host view of a loadable's inputs and outputs (struct host_io_table,
 * umd/host_io.h) and the conversion at that boundary: what
 * vpux_request_write_input() and vpux_request_read_output() do, and what
 * the compiler's vpuxc_io API (compiler/io.c) wraps.
 *
 * The table comes from the loadable's tensor records (the IO tensor of
 * each input and output: device type and dims) and, when present, the
 * ".vpux.io" section (umd/io_format.h): ONNX name, element type and
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
#include "host_io.h"
#include "hostconv.h"
#include "vpux_float.h"

#define SEC VPUXC_IO_SECTION
#define QSEC VPUXC_IOQ_SECTION

size_t host_io_dtype_size(int32_t dtype)
{
	switch (dtype) {
	case HIO_FLOAT:
	case HIO_INT32:
		return 4;
	case HIO_UINT8:
	case HIO_INT8:
		return 1;
	case HIO_INT64:
		return 8;
	}
	return 0;	/* HIO_FLOAT16 too: a device type only */
}

/* the ONNX names (umd/hostconv.c), for messages */
const char *host_io_dtype_name(int32_t dtype)
{
	return hc_onnx_type_name(dtype);
}

/* "1x3x4x4" (or "scalar") into @buf */
const char *host_io_fmt_dims(char *buf, size_t cap, uint32_t rank,
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
		return HIO_UINT8;
	case VPUX_DT_I8:
		return HIO_INT8;
	case VPUX_DT_I32:
		return HIO_INT32;
	case VPUX_DT_F16:
		return HIO_FLOAT16;
	case VPUX_DT_F32:
		return HIO_FLOAT;
	}
	return 0;
}

/* a float device tensor (loadable 1.3): no quantisation */
static int dev_float(int32_t dev)
{
	return dev == HIO_FLOAT || dev == HIO_FLOAT16;
}

/* bytes of a device element */
static size_t dev_esize(int32_t dev)
{
	return dev == HIO_FLOAT16 ? 2 : host_io_dtype_size(dev);
}

const char *host_io_dev_name(int32_t dev)
{
	return dev == HIO_FLOAT16 ? "f16" : dev == HIO_FLOAT ? "f32" :
	       host_io_dtype_name(dev);
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
 * type (also the ONNX type: no conversion; float for f16 and f32), dims.
 * The ONNX dims are the logical dims when the tensor is dense in logical
 * order; else, when it is dense in its memory order, the dims in memory
 * order (the bytes as they lie). Dense in neither: an error if @strict,
 * else no host view (@no_view) with the logical dims.
 */
static int from_tensor(const struct lf_image *img, uint32_t kind,
		       uint32_t index, int strict, struct host_io *io)
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
	/* the tensor's name: its 1.4 name of any length, cut to fit */
	snprintf(io->name, sizeof(io->name), "%s",
		 lf_tensor_name(img, (uint32_t)(t0 - img->tensors)));
	io->dev_dtype = dev_dtype(t->data_type);
	/* a float device tensor is float on the host (converted to f16) */
	io->onnx_dtype = dev_float(io->dev_dtype) ? HIO_FLOAT :
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
		if (dense_in(t, mem))
			perm = mem;
		else if (strict)
			return vpux_err(VPUX_E_FORMAT,
					"%s %u: tensor '%s' is not dense (strides with gaps): vpux-onnx cannot map it",
					what, index, io->name);
		else
			io->no_view = "its tensor is not dense (strides with gaps)";
	}
	for (i = 0; i < t->rank; i++)
		io->dims[i] = t->dims[perm[i]];
	return 0;
}

int host_io_feeds(int32_t onnx, int32_t dev)
{
	switch (onnx) {
	case HIO_FLOAT:
		return 1;
	case HIO_UINT8:
	case HIO_INT8:
	case HIO_INT32:
		return onnx == dev;
	case HIO_INT64:
		return dev == HIO_INT32;
	}
	return 0;
}

static size_t io_count(const struct host_io *io)
{
	size_t n = 1;
	uint32_t i;

	for (i = 0; i < io->rank && i < HIO_MAX_RANK; i++)
		n *= io->dims[i] > 0 ? (size_t)io->dims[i] : 0;
	return n;
}

static void dev_range(int32_t dt, double *lo, double *hi)
{
	switch (dt) {
	case HIO_UINT8:
		*lo = 0;
		*hi = 255;
		break;
	case HIO_INT8:
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
		   const struct sec *q, struct host_io *e)
{
	const struct vpuxc_ioq_rec *qr = q->recs;
	double lo, hi;
	uint32_t i, want;

	if (rec->onnx_dtype != HIO_FLOAT) {
		if (rec->qcount)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field qcount: %u for a %s %s (0: no conversion)",
					SEC, r, rec->qcount,
					host_io_dtype_name(rec->onnx_dtype),
					rec->dir ? "output" : "input");
		return 0;
	}
	if (dev_float(e->dev_dtype)) {
		if (rec->axis != -1)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field axis: %d, the %s device tensor of %s '%s' is not quantized (-1)",
					SEC, r, rec->axis, host_io_dev_name(e->dev_dtype),
					rec->dir ? "output" : "input", e->name);
		if (rec->qcount)
			return vpux_err(VPUX_E_FORMAT,
					"%s: record %u: field qcount: %u, the %s device tensor of %s '%s' is not quantized (0)",
					SEC, r, rec->qcount,
					host_io_dev_name(e->dev_dtype),
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
					host_io_dtype_name(e->dev_dtype));
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
		     struct host_io_table *io, unsigned char *seen)
{
	const struct vpux_lf_tensor *t;
	struct vpux_lf_tensor tm;
	struct host_io *e;
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
	if (!host_io_dtype_size(rec->onnx_dtype))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field onnx_dtype: %d (%s) not supported",
				SEC, r, rec->onnx_dtype,
				host_io_dtype_name(rec->onnx_dtype));
	if (rec->rank > HIO_MAX_RANK)
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field rank: %u above %d", SEC, r,
				rec->rank, HIO_MAX_RANK);
	for (i = 0; i < HIO_MAX_RANK; i++) {
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
				host_io_fmt_dims(a, sizeof(a), rec->rank, rec->dims),
				(unsigned long long)n,
				rec->dir ? "output" : "input", e->name,
				(unsigned long long)dn);
	if (!dense_in(t, id))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: the %s tensor '%s' is not dense in its logical (ONNX) order (dims_order 0x%llx)",
				SEC, r, rec->dir ? "output" : "input", e->name,
				(unsigned long long)t->dims_order);
	if (!host_io_feeds(rec->onnx_dtype, e->dev_dtype))
		return vpux_err(VPUX_E_FORMAT,
				"%s: record %u: field onnx_dtype: %s cannot map to the %s device tensor '%s'",
				SEC, r, host_io_dtype_name(rec->onnx_dtype),
				host_io_dev_name(e->dev_dtype), e->name);
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
			 size_t size, struct host_io_table *io)
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
	io->has_section = s[0].found;
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

int host_io_read(const struct lf_image *img, const void *data, size_t size,
		 int strict, struct host_io_table *io)
{
	unsigned int i;
	int ret = 0;

	memset(io, 0, sizeof(*io));
	io->n_inputs = img->hdr.num_inputs;
	io->n_outputs = img->hdr.num_outputs;
	io->inputs = calloc(io->n_inputs + 1, sizeof(*io->inputs));
	io->outputs = calloc(io->n_outputs + 1, sizeof(*io->outputs));
	if (!io->inputs || !io->outputs)
		ret = vpux_err(VPUX_E_NOMEM, "out of memory");
	for (i = 0; !ret && i < io->n_inputs; i++)
		ret = from_tensor(img, VPUX_LF_RK_INPUT, i, strict,
				  &io->inputs[i]);
	for (i = 0; !ret && i < io->n_outputs; i++)
		ret = from_tensor(img, VPUX_LF_RK_OUTPUT, i, strict,
				  &io->outputs[i]);
	if (!ret)
		ret = read_sections(img, data, size, io);
	if (ret)
		host_io_fini(io);
	return ret;
}

void host_io_fini(struct host_io_table *io)
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

int host_io_section_build(const char *name, const void *recs,
			  size_t rec_size, unsigned int n, unsigned int max,
			  void **data, uint32_t *size)
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

/* ---- conversion ---- */

int host_io_check(const char *dir, const struct host_io *io,
		  size_t dev_size, size_t *count)
{
	size_t esize = host_io_dtype_size(io->onnx_dtype);
	size_t dsize = dev_esize(io->dev_dtype);
	char a[160];
	uint32_t i;
	size_t n;

	if (io->no_view)
		return vpux_err(VPUX_E_INVAL,
				"%s '%s': %s: no host view; fill its buffer as its tensor descriptor says",
				dir, io->name, io->no_view);
	if (!esize || !dsize || io->rank > HIO_MAX_RANK ||
	    !host_io_feeds(io->onnx_dtype, io->dev_dtype) ||
	    io->dev_dtype == HIO_INT64)
		return vpux_err(VPUX_E_INVAL,
				"%s '%s': %s on the host, %s on the device: no conversion",
				dir, io->name, host_io_dtype_name(io->onnx_dtype),
				host_io_dev_name(io->dev_dtype));
	if (dev_float(io->dev_dtype) && (io->qcount || io->axis != -1))
		return vpux_err(VPUX_E_INVAL,
				"%s '%s': a quantization (axis %d, %u scales) for the %s device tensor",
				dir, io->name, io->axis, io->qcount,
				host_io_dev_name(io->dev_dtype));
	if (io->onnx_dtype == HIO_FLOAT && !dev_float(io->dev_dtype)) {
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
				host_io_fmt_dims(a, sizeof(a), io->rank, io->dims),
				host_io_dev_name(io->dev_dtype), n * dsize);
	*count = n;
	return 0;
}

/* elements after the quantization axis (1 per tensor) */
static size_t q_inner(const struct host_io *io)
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
static uint32_t q_index(const struct host_io *io, size_t inner, size_t i)
{
	return io->axis < 0 ? 0 : (uint32_t)((i / inner) % io->qcount);
}

static void dev_put(int32_t dt, void *dev, size_t i, int64_t v)
{
	if (dt == HIO_UINT8) {
		((uint8_t *)dev)[i] = (uint8_t)v;
	} else if (dt == HIO_INT8) {
		((int8_t *)dev)[i] = (int8_t)v;
	} else {
		int32_t w = (int32_t)v;

		memcpy((char *)dev + 4 * i, &w, 4);
	}
}

static int64_t dev_get(int32_t dt, const void *dev, size_t i)
{
	int32_t w;

	if (dt == HIO_UINT8)
		return ((const uint8_t *)dev)[i];
	if (dt == HIO_INT8)
		return ((const int8_t *)dev)[i];
	memcpy(&w, (const char *)dev + 4 * i, 4);
	return w;
}

int host_io_to_device(const struct host_io *io, size_t n, const void *host,
		      void *dev, size_t size)
{
	size_t i, dsize = dev_esize(io->dev_dtype);

	if (io->dev_dtype == HIO_FLOAT16) {
		/* float to FP16, rounded to nearest even; NaN a quiet NaN */
		uint16_t h[256];
		float x[256];
		size_t k, m;

		for (i = 0; i < n; i += m) {
			m = n - i < 256 ? n - i : 256;
			memcpy(x, (const char *)host + 4 * i, 4 * m);
			hc_f32_to_f16_n(h, x, m);
			for (k = 0; k < m; k++)
				memcpy((char *)dev + 2 * (i + k), &h[k], 2);
		}
	} else if (dev_float(io->dev_dtype)) {
		if (n)
			memcpy(dev, host, n * 4);
	} else if (io->onnx_dtype == HIO_FLOAT) {
		size_t inner = q_inner(io);
		double lo, hi;

		dev_range(io->dev_dtype, &lo, &hi);
		for (i = 0; i < n; i++) {
			uint32_t k = q_index(io, inner, i);
			int32_t q;
			float x;

			memcpy(&x, (const char *)host + 4 * i, 4);
			/*
			 * In float as ONNX's QuantizeLinear (its scale is a
			 * float, recorded exactly): umd/hostconv.h
			 */
			if (hc_quantize_f32(x, (float)io->scales[k],
					    io->zero_points[k], (int32_t)lo,
					    (int32_t)hi, &q))
				return vpux_err(VPUX_E_INVAL,
						"input '%s': element %zu is NaN (a NaN has no quantized value)",
						io->name, i);
			dev_put(io->dev_dtype, dev, i, q);
		}
	} else if (io->onnx_dtype == HIO_INT64) {
		for (i = 0; i < n; i++) {
			int64_t v;

			memcpy(&v, (const char *)host + 8 * i, 8);
			if (v < INT32_MIN || v > INT32_MAX)
				return vpux_err(VPUX_E_INVAL,
						"input '%s': element %zu = %lld out of the int32 range of the device tensor",
						io->name, i, (long long)v);
			dev_put(HIO_INT32, dev, i, v);
		}
	} else if (n) {
		memcpy(dev, host, n * dsize);
	}
	if (size > n * dsize)
		memset((char *)dev + n * dsize, 0, size - n * dsize);
	return 0;
}

void host_io_from_device(const struct host_io *io, size_t n, const void *dev,
			 void *host)
{
	size_t i, inner = q_inner(io);

	if (dev_float(io->dev_dtype)) {
		/* FP16 to float exactly, FP32 as it is */
		for (i = 0; i < n; i++) {
			uint32_t x;
			uint16_t h;

			if (io->dev_dtype == HIO_FLOAT16) {
				memcpy(&h, (const char *)dev + 2 * i, 2);
				x = vpux_f16_to_f32(h);
			} else {
				memcpy(&x, (const char *)dev + 4 * i, 4);
			}
			memcpy((char *)host + 4 * i, &x, 4);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		int64_t q = dev_get(io->dev_dtype, dev, i);

		if (io->onnx_dtype == HIO_FLOAT) {
			uint32_t k = q_index(io, inner, i);
			/* in float, as ONNX's DequantizeLinear */
			float x = hc_dequantize_f32((int32_t)q,
						    io->zero_points[k],
						    (float)io->scales[k]);

			memcpy((char *)host + 4 * i, &x, 4);
		} else if (io->onnx_dtype == HIO_INT64) {
			memcpy((char *)host + 8 * i, &q, 8);
		} else {
			dev_put(io->onnx_dtype, host, i, q);
		}
	}
}
