/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test helper: a one-DMA loadable (input 0 copied to output 0) built
 * without the compiler, with or without .vpux.io/.vpux.ioq sections.
 */
#ifndef VPUXC_TESTS_IO_UTIL_H
#define VPUXC_TESTS_IO_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "io_format.h"
#include "io_section.h"
#include "lf.h"
#include "vpux.h"

/**
 * struct copy_net - what copy_net_write() builds
 * @dt: VPUX_DT_* of both tensors
 * @rank, @dims: logical dims
 * @order: dims order (0: the identity)
 * @zp, @mult, @shift: quantisation of both tensors
 * @extra: sections to add (NULL: none)
 */
struct copy_net {
	uint32_t dt;
	uint32_t rank;
	uint32_t dims[VPUX_LF_MAX_RANK];
	uint64_t order;
	int32_t zp, mult, shift;
	const struct lf_extra_section *extra;
	unsigned int n_extra;
};

static inline void copy_net_tensor(const struct copy_net *c,
				   struct vpux_lf_tensor *t, const char *name,
				   uint32_t region)
{
	uint32_t bits = lf_dt_bits(c->dt), i, m;
	uint64_t order = c->order ? c->order : 0, stride = bits;

	if (!order)
		for (i = 0; i < c->rank; i++)
			order = order << 4 | (i + 1);
	memset(t, 0, sizeof(*t));
	strcpy(t->name, name);
	t->region = region;
	t->flags = VPUX_LF_T_IO;
	t->data_type = c->dt;
	t->rank = c->rank;
	t->dims_order = order;
	/* compact in memory order: memory dim 0 is the lowest nibble */
	for (m = 0; m < c->rank; m++) {
		uint32_t d = (uint32_t)((order >> (4 * m)) & 0xf) - 1;

		t->strides[d] = stride;
		stride *= c->dims[d];
	}
	for (i = 0; i < c->rank; i++)
		t->dims[i] = c->dims[i];
	t->size = stride / 8;
	t->zero_point = c->zp;
	t->scale_mult = c->mult;
	t->scale_shift = c->shift;
}

static inline int copy_net_write(const struct copy_net *c, void **data,
				 size_t *size)
{
	struct vpux_lf_tensor t[2];
	struct vpux_lf_dma dma;
	struct lf_image img;

	memset(&img, 0, sizeof(img));
	img.hdr.magic = VPUX_LF_MAGIC;
	img.hdr.version_major = VPUX_LF_VERSION_MAJOR;
	img.hdr.version_minor = VPUX_LF_VERSION_MINOR;
	img.hdr.target = VPUX_TARGET_VPUX1;
	img.hdr.caps = VPUX_NET_CAP_DMA;
	img.hdr.num_inputs = 1;
	img.hdr.num_outputs = 1;
	strcpy(img.hdr.name, "copy");
	copy_net_tensor(c, &t[0], "x",
			VPUX_LF_REGION(VPUX_LF_RK_INPUT, 0));
	copy_net_tensor(c, &t[1], "y",
			VPUX_LF_REGION(VPUX_LF_RK_OUTPUT, 0));
	img.tensors = t;
	img.n_tensors = 2;
	memset(&dma, 0, sizeof(dma));
	dma.len = (uint32_t)t[0].size;
	dma.src = (struct vpux_lf_ref){ 0, 0, 0, (uint32_t)t[0].size };
	dma.dst = (struct vpux_lf_ref){ 1, 0, 0, (uint32_t)t[1].size };
	dma.count[0] = dma.count[1] = dma.count[2] = 1;
	img.dma = &dma;
	img.n_dma = 1;
	img.extra = c->extra;
	img.n_extra = c->n_extra;
	return lf_write_mem(&img, data, size);
}

static inline struct vpuxc_io_rec io_rec(const char *name, uint32_t dir,
					 uint32_t index, int32_t dtype,
					 uint32_t rank, const int64_t *dims)
{
	struct vpuxc_io_rec r;

	memset(&r, 0, sizeof(r));
	strncpy(r.name, name, sizeof(r.name) - 1);
	r.dir = dir;
	r.index = index;
	r.onnx_dtype = dtype;
	r.rank = rank;
	memcpy(r.dims, dims, rank * sizeof(*dims));
	r.axis = -1;
	r.qcount = dtype == 1 ? 1 : 0;	/* float: one scale */
	return r;
}

#endif /* VPUXC_TESTS_IO_UTIL_H */
