/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * libvpux internals: the host view of a network's inputs and outputs and
 * the conversion at that boundary (umd/host_io.c).
 *
 * Every input and output has an entry: from its IO tensor record (device
 * type and dims) and, when the loadable has it, the ".vpux.io" section
 * (umd/io_format.h: ONNX name, element type and shape) with ".vpux.ioq"
 * (the ONNX scales and zero points of a float value the device holds
 * quantized). vpux_network_load() reads the table once
 * (net->hio); the public vpux_io_info, vpux_request_write_input() and
 * vpux_request_read_output() use it, and the compiler's vpuxc_io API
 * (compiler/io.c) wraps these functions: one implementation.
 *
 * Element types are ONNX TensorProto.DataType numbers (the compiler's
 * enum vpuxc_dtype), plus HIO_FLOAT16 for an f16 device tensor.
 */
#ifndef VPUX_HOST_IO_H
#define VPUX_HOST_IO_H

#include <stddef.h>
#include <stdint.h>

#include "io_format.h"
#include "lf.h"

enum hio_dtype {
	HIO_FLOAT = 1,
	HIO_UINT8 = 2,
	HIO_INT8 = 3,
	HIO_INT32 = 6,
	HIO_INT64 = 7,
	HIO_FLOAT16 = 10,
};

#define HIO_MAX_RANK 8
#define HIO_NAME_MAX 128

/**
 * struct host_io - one input or output at the host boundary
 * @name: ONNX name (the tensor's name without .vpux.io)
 * @onnx_dtype: the host's element type (HIO_FLOAT for a float device
 *	tensor or a quantized float value)
 * @dev_dtype: the device tensor's (HIO_UINT8, HIO_INT8, HIO_INT32,
 *	HIO_FLOAT16, HIO_FLOAT for f32)
 * @rank: 0..HIO_MAX_RANK
 * @dims: host dims, outermost first (a dynamic dim at its symbol's max)
 * @axis: quantization axis (-1: per tensor, or no quantization)
 * @qcount: 0 (no quantization), 1, or dims[axis]
 * @scales: @qcount ONNX scales (owned by the table)
 * @zero_points: @qcount zero points
 * @no_view: NULL, or why the host cannot convert it (a tensor that is
 *	not dense in any order: its buffer is filled as its tensor
 *	descriptor says)
 */
struct host_io {
	char name[HIO_NAME_MAX];
	int32_t onnx_dtype;
	int32_t dev_dtype;
	uint32_t rank;
	int64_t dims[HIO_MAX_RANK];
	int32_t axis;
	uint32_t qcount;
	double *scales;
	int32_t *zero_points;
	const char *no_view;
};

/**
 * struct host_io_table - every input and output
 * @n_inputs, @n_outputs: as the loadable's header
 * @inputs, @outputs: their entries (malloc'ed)
 * @has_section: the loadable has ".vpux.io"
 */
struct host_io_table {
	unsigned int n_inputs, n_outputs;
	struct host_io *inputs, *outputs;
	int has_section;
};

/*
 * The table of @img, parsed and validated from the loadable @data/@size
 * (its ".vpux.io" and ".vpux.ioq" sections, whose every rule has an error
 * naming section, record and field). @strict: a tensor that is not dense
 * fails (VPUX_E_FORMAT) instead of getting @no_view.
 */
int host_io_read(const struct lf_image *img, const void *data, size_t size,
		 int strict, struct host_io_table *t);
void host_io_fini(struct host_io_table *t);

/* bytes of a host element of @dtype (HIO_*; not HIO_FLOAT16), 0 if unknown */
size_t host_io_dtype_size(int32_t dtype);
/* "float", "uint8", ... (ONNX names; "f16"/"f32" for device types) */
const char *host_io_dtype_name(int32_t dtype);
const char *host_io_dev_name(int32_t dtype);
/* can a host value of @onnx feed the device type @dev? */
int host_io_feeds(int32_t onnx, int32_t dev);
/* "1x3x4x4" (or "scalar") into @buf */
const char *host_io_fmt_dims(char *buf, size_t cap, uint32_t rank,
			     const int64_t *dims);

/*
 * Is @io convertible with a device buffer of @dev_size bytes? @dir
 * "input" or "output" for the message. *@count: its elements.
 */
int host_io_check(const char *dir, const struct host_io *io,
		  size_t dev_size, size_t *count);
/*
 * Convert @count elements (host_io_check()) of @host (onnx_dtype) into
 * @dev (@dev_size bytes; the tail past the elements zeroed): float to
 * FP16 rounded to nearest even, quantized q = saturate(round_half_even(
 * x / scale) + zp) (a NaN refused), int64 to int32 range-checked.
 */
int host_io_to_device(const struct host_io *io, size_t count,
		      const void *host, void *dev, size_t dev_size);
/* The other way: FP16 exactly, (q - zp) * scale in float, int sign-extended */
void host_io_from_device(const struct host_io *io, size_t count,
			 const void *dev, void *host);

/*
 * A whole ".vpux.io"/".vpux.ioq" section for @n records of @rec_size
 * (at most @max): struct vpux_lf_sechdr and the records; @data malloc'ed.
 */
int host_io_section_build(const char *name, const void *recs,
			  size_t rec_size, unsigned int n, unsigned int max,
			  void **data, uint32_t *size);

#endif /* VPUX_HOST_IO_H */
