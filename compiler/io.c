// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The compiler's view of a loadable's inputs and outputs (struct
 * vpuxc_io_table) and the host-side conversion at that boundary: thin
 * wrappers over libvpux's (umd/host_io.c), which reads and checks the
 * ".vpux.io"/".vpux.ioq" sections (umd/io_format.h) and converts for
 * vpux_request_write_input()/vpux_request_read_output() too: one
 * implementation. What is here: the compiler's types (struct vpuxc_io,
 * struct vpuxc_tensor) and the checks of a struct vpuxc_tensor.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "host_io.h"
#include "io_section.h"
#include "lf.h"
#include "vpux_compiler.h"

_Static_assert(VPUXC_MAX_RANK == HIO_MAX_RANK &&
	       VPUXC_NAME_MAX == HIO_NAME_MAX, "vpuxc_io vs host_io");

/* libvpux's entry of @v (sharing its scales) */
static void to_hio(const struct vpuxc_io *v, struct host_io *h)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->name, v->name, sizeof(h->name));
	h->name[sizeof(h->name) - 1] = 0;
	h->onnx_dtype = v->onnx_dtype;
	h->dev_dtype = v->dev_dtype;
	h->rank = v->rank;
	memcpy(h->dims, v->dims, sizeof(h->dims));
	h->axis = v->axis;
	h->qcount = v->qcount;
	h->scales = v->scales;
	h->zero_points = v->zero_points;
}

/* @h into @v, which takes over its scales */
static void from_hio(struct host_io *h, struct vpuxc_io *v)
{
	memset(v, 0, sizeof(*v));
	memcpy(v->name, h->name, sizeof(v->name));
	v->onnx_dtype = h->onnx_dtype;
	v->dev_dtype = h->dev_dtype;
	v->rank = h->rank;
	memcpy(v->dims, h->dims, sizeof(v->dims));
	v->axis = h->axis;
	v->qcount = h->qcount;
	v->scales = h->scales;
	v->zero_points = h->zero_points;
	h->scales = NULL;
	h->zero_points = NULL;
}

int vpuxc_io_read(const void *loadable, size_t size,
		  struct vpuxc_io_table *io)
{
	struct host_io_table t;
	struct lf_image img;
	unsigned int i;
	int ret;

	memset(io, 0, sizeof(*io));
	ret = lf_parse(loadable, size, &img);
	if (!ret)
		ret = lf_validate(&img);
	if (!ret)
		ret = host_io_read(&img, loadable, size, 1, &t);
	lf_image_free(&img);
	if (ret)
		return ret;
	io->n_inputs = t.n_inputs;
	io->n_outputs = t.n_outputs;
	io->inputs = calloc(io->n_inputs + 1, sizeof(*io->inputs));
	io->outputs = calloc(io->n_outputs + 1, sizeof(*io->outputs));
	if (!io->inputs || !io->outputs) {
		host_io_fini(&t);
		vpuxc_io_fini(io);
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	}
	for (i = 0; i < io->n_inputs; i++)
		from_hio(&t.inputs[i], &io->inputs[i]);
	for (i = 0; i < io->n_outputs; i++)
		from_hio(&t.outputs[i], &io->outputs[i]);
	host_io_fini(&t);
	return 0;
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

int vpuxc_io_section_build(const struct vpuxc_io_rec *recs, unsigned int n,
			   void **data, uint32_t *size)
{
	return host_io_section_build(VPUXC_IO_SECTION, recs, sizeof(*recs), n,
				     2 * VPUX_LF_MAX_IO, data, size);
}

int vpuxc_ioq_section_build(const struct vpuxc_ioq_rec *recs, unsigned int n,
			    void **data, uint32_t *size)
{
	return host_io_section_build(VPUXC_IOQ_SECTION, recs, sizeof(*recs), n,
				     1u << 24, data, size);
}

/* ---- conversion ---- */

/* @onnx against what input @h takes (@n elements) */
static int tensor_check(const struct host_io *h, const struct vpuxc_tensor *onnx,
			size_t n)
{
	size_t esize = host_io_dtype_size(h->onnx_dtype);
	char a[160], b[160];

	if (onnx->dtype != h->onnx_dtype)
		return vpux_err(VPUX_E_INVAL,
				"input '%s': a %s tensor, the network takes %s",
				h->name, vpuxc_dtype_name(onnx->dtype),
				vpuxc_dtype_name(h->onnx_dtype));
	if (onnx->rank > VPUXC_MAX_RANK || vpuxc_tensor_count(onnx) != n)
		return vpux_err(VPUX_E_INVAL,
				"input '%s': %s (%zu elements), the network takes %s (%zu)",
				h->name,
				host_io_fmt_dims(b, sizeof(b),
						 onnx->rank > VPUXC_MAX_RANK ?
						 VPUXC_MAX_RANK : onnx->rank,
						 onnx->dims),
				vpuxc_tensor_count(onnx),
				host_io_fmt_dims(a, sizeof(a), h->rank, h->dims),
				n);
	if (onnx->size != n * esize || (n && !onnx->data))
		return vpux_err(VPUX_E_INVAL,
				"input '%s': %zu data bytes for %zu %s elements",
				h->name, onnx->size, n,
				vpuxc_dtype_name(onnx->dtype));
	return 0;
}

int vpuxc_io_to_device(const struct vpuxc_io *io,
		       const struct vpuxc_tensor *onnx, void *dev, size_t size)
{
	struct host_io h;
	size_t n;
	int ret;

	vpux_err_clear();
	if (!io || !onnx || (!dev && size))
		return vpux_err(VPUX_E_INVAL, "io_to_device: NULL argument");
	to_hio(io, &h);
	ret = host_io_check("input", &h, size, &n);
	if (!ret)
		ret = tensor_check(&h, onnx, n);
	return ret ? ret : host_io_to_device(&h, n, onnx->data, dev, size);
}

int vpuxc_io_from_device(const struct vpuxc_io *io, const void *dev,
			 size_t size, struct vpuxc_tensor *onnx)
{
	struct host_io h;
	size_t n, esize;
	int ret;

	vpux_err_clear();
	if (!io || !onnx || (!dev && size))
		return vpux_err(VPUX_E_INVAL, "io_from_device: NULL argument");
	memset(onnx, 0, sizeof(*onnx));
	to_hio(io, &h);
	ret = host_io_check("output", &h, size, &n);
	if (ret)
		return ret;
	esize = host_io_dtype_size(io->onnx_dtype);
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
	host_io_from_device(&h, n, dev, onnx->data);
	return 0;
}
