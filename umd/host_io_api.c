// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The host boundary of the public API (API 1.7): vpux_network_io_info(),
 * vpux_request_write_input(), vpux_request_read_output(), over the table
 * vpux_network_load() read (net->hio, umd/host_io.c), so that an
 * application linking only libvpux gives float32 and gets float32 back.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "priv.h"

_Static_assert(sizeof(struct vpux_io_info) == VPUX_IO_INFO_SIZE_1_7,
	       "struct vpux_io_info of API 1.7");
_Static_assert(VPUX_IO_MAX_RANK == HIO_MAX_RANK &&
	       VPUX_IO_NAME_MAX == HIO_NAME_MAX, "vpux_io_info vs host_io");

/* enum vpux_data_type of an HIO_* type */
static uint32_t public_type(int32_t dt)
{
	switch (dt) {
	case HIO_FLOAT:
		return VPUX_DT_F32;
	case HIO_UINT8:
		return VPUX_DT_U8;
	case HIO_INT8:
		return VPUX_DT_I8;
	case HIO_INT32:
		return VPUX_DT_I32;
	case HIO_INT64:
		return VPUX_DT_I64;
	case HIO_FLOAT16:
		return VPUX_DT_F16;
	}
	return 0;
}

static size_t io_elems(const struct host_io *io)
{
	size_t n = 1;
	uint32_t i;

	for (i = 0; i < io->rank && i < HIO_MAX_RANK; i++)
		n *= (size_t)io->dims[i];
	return n;
}

/* does the host data differ from the device bytes? */
static int converts(const struct host_io *io)
{
	return io->onnx_dtype != io->dev_dtype;
}

int vpux_network_io_info(const struct vpux_network *net, int is_output,
			 unsigned int i, struct vpux_io_info *info)
{
	const char *what = is_output ? "output" : "input";
	const struct host_io *io;
	struct vpux_io_info v;
	unsigned int n;
	uint32_t k, size;

	if (!net || !info)
		return vpux_err(VPUX_E_INVAL, "io info: NULL argument");
	size = info->size;
	if (size < VPUX_IO_INFO_SIZE_1_7)
		return vpux_err(VPUX_E_INVAL,
				"io info: size %u, at least %u (set it to sizeof(struct vpux_io_info))",
				size, VPUX_IO_INFO_SIZE_1_7);
	n = is_output ? net->hio.n_outputs : net->hio.n_inputs;
	if (i >= n)
		return vpux_err(VPUX_E_INVAL, "io info: %s %u does not exist (%u %ss)",
				what, i, n, what);
	io = is_output ? &net->hio.outputs[i] : &net->hio.inputs[i];
	memset(&v, 0, sizeof(v));
	v.size = size;
	v.flags = (converts(io) ? VPUX_IO_CONVERT : 0) |
		  (net->hio.has_section ? VPUX_IO_ONNX : 0) |
		  (io->no_view ? VPUX_IO_NO_VIEW : 0);
	memcpy(v.name, io->name, sizeof(v.name));
	v.name[sizeof(v.name) - 1] = 0;
	v.host_type = public_type(io->onnx_dtype);
	v.data_type = public_type(io->dev_dtype);
	v.rank = io->rank;
	v.quant_axis = io->qcount && io->axis >= 0 ? io->axis : -1;
	for (k = 0; k < io->rank && k < HIO_MAX_RANK; k++)
		v.dims[k] = (uint64_t)io->dims[k];
	v.host_size = io_elems(io) * host_io_dtype_size(io->onnx_dtype);
	v.quant_count = io->qcount;
	memcpy(info, &v, sizeof(v) < size ? sizeof(v) : size);
	info->size = size;
	return 0;
}

/* Is @r's last job still running? */
static int running(struct vpux_request *r)
{
	struct vpux_request_status st;

	if (!r->has_job)
		return 0;
	return r->net->dev->ops->status(r->net->dev->priv, &r->job, &st) ||
	       st.state == VPUX_REQ_RUNNING;
}

/*
 * The entry and the CPU view of the buffer bound to input/output @i
 * (@is_output), the sizes checked: *@count elements, *@dev of *@dev_size
 * bytes.
 */
static int prepare(struct vpux_request *r, int is_output, unsigned int i,
		   const void *host, size_t size, const struct host_io **iop,
		   void **dev, size_t *dev_size, size_t *count)
{
	const char *what = is_output ? "output" : "input";
	const char *call = is_output ? "read output" : "write input";
	const struct vpux_be_entry *e;
	const struct host_io *io;
	struct vpux_device *d;
	unsigned int n;
	size_t want;
	char dims[160];
	char *cpu;
	int ret;

	if (!r)
		return vpux_err(VPUX_E_INVAL, "%s: NULL request", call);
	n = is_output ? r->net->hio.n_outputs : r->net->hio.n_inputs;
	if (i >= n)
		return vpux_err(VPUX_E_INVAL, "%s: %s %u does not exist (%u %ss)",
				call, what, i, n, what);
	io = is_output ? &r->net->hio.outputs[i] : &r->net->hio.inputs[i];
	want = io_elems(io) * host_io_dtype_size(io->onnx_dtype);
	if (!host || size != want)
		return vpux_err(VPUX_E_INVAL,
				"%s %u '%s': %zu bytes%s, it takes %zu: %s %s",
				what, i, io->name, size, host ? "" : " at NULL",
				want, host_io_fmt_dims(dims, sizeof(dims),
						       io->rank, io->dims),
				host_io_dtype_name(io->onnx_dtype));
	e = &r->list[SLOT_IO + (is_output ? r->net->img.hdr.num_inputs : 0) +
		     i];
	if (!e->bo)
		return vpux_err(VPUX_E_UNBOUND,
				"%s %u '%s': no buffer bound (vpux_request_bind_%s())",
				what, i, io->name, what);
	if (running(r))
		return vpux_err(VPUX_E_STATE,
				"%s %u '%s': the request is running", what, i,
				io->name);
	ret = host_io_check(what, io, (size_t)e->size, count);
	if (ret)
		return ret;
	d = r->net->dev;
	/* the bound buffer's BO: the application's, mutable */
	cpu = d->ops->bo_map(d->priv, (struct vpux_bo *)e->bo);
	if (!cpu)
		return vpux_err(VPUX_E_NOMEM, "%s %u '%s': cannot map its buffer",
				what, i, io->name);
	*iop = io;
	*dev = cpu + e->offset;
	*dev_size = (size_t)e->size;
	return 0;
}

int vpux_request_write_input(struct vpux_request *r, unsigned int i,
			     const void *host, size_t size)
{
	const struct host_io *io;
	size_t dev_size, n;
	void *dev;
	int ret;

	ret = prepare(r, 0, i, host, size, &io, &dev, &dev_size, &n);
	return ret ? ret : host_io_to_device(io, n, host, dev, dev_size);
}

int vpux_request_read_output(struct vpux_request *r, unsigned int i,
			     void *host, size_t size)
{
	const struct host_io *io;
	size_t dev_size, n;
	void *dev;
	int ret;

	ret = prepare(r, 1, i, host, size, &io, &dev, &dev_size, &n);
	if (!ret)
		host_io_from_device(io, n, dev, host);
	return ret;
}
