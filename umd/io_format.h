/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The ".vpux.io" section the compiler adds to a loadable: the ONNX name,
 * element type and shape of each network input and output, and in
 * ".vpux.ioq" the ONNX quantization of a float one kept in integers on the
 * device. Optional (not flagged required): libvpux reads both at
 * vpux_network_load() (umd/host_io.c) and converts the application's
 * float32 to and from the device types by them (vpux_io_info,
 * vpux_request_write_input()); it refuses a malformed one there. The
 * names keep the compiler's vpuxc_ prefix: the compiler writes them.
 * Layout like every .vpux.* section: a struct vpux_lf_sechdr
 * (umd/lf_format.h), then count records of rec_size bytes (a reader
 * accepts a larger rec_size and ignores the tail).
 */
#ifndef VPUXC_IO_FORMAT_H
#define VPUXC_IO_FORMAT_H

#include <stdint.h>

#define VPUXC_IO_SECTION ".vpux.io"
#define VPUXC_IOQ_SECTION ".vpux.ioq"

enum { VPUXC_IO_INPUT = 0, VPUXC_IO_OUTPUT = 1 };

/**
 * struct vpuxc_io_rec - one network input or output (224 bytes)
 * @name: ONNX value name, NUL-terminated
 * @dir: VPUXC_IO_INPUT or VPUXC_IO_OUTPUT
 * @index: input/output index in the loadable (the IO tensor's index)
 * @onnx_dtype: ONNX element type the graph declares (enum vpuxc_dtype)
 * @rank: 0..8
 * @dims: ONNX dims, outermost first; 0 above @rank
 * @axis: quantization axis of a float input/output (-1: per tensor;
 *        -1 too, and @qcount 0, for a float (f16/f32) device tensor:
 *        no quantization)
 * @qcount: quantization records of this input/output in ".vpux.ioq":
 *          0 for an integer input/output (no host conversion), 1 per
 *          tensor, dims[axis] per axis
 * @qoffset: index of its first record in ".vpux.ioq"
 * @reserved: 0
 */
struct vpuxc_io_rec {
	char name[128];
	uint32_t dir;
	uint32_t index;
	int32_t onnx_dtype;
	uint32_t rank;
	int64_t dims[8];
	int32_t axis;
	uint32_t qcount;
	uint32_t qoffset;
	uint32_t reserved;
};

_Static_assert(sizeof(struct vpuxc_io_rec) == 224, "vpuxc_io_rec layout");

/**
 * struct vpuxc_ioq_rec - quantization of a float input/output (16 bytes),
 *                        in section ".vpux.ioq" (required when a record
 *                        of ".vpux.io" has qcount > 0)
 * @scale: the ONNX scale, exactly (user space only: the kernel never reads
 *         this section)
 * @zero_point: the ONNX zero point
 * @reserved: 0
 */
struct vpuxc_ioq_rec {
	double scale;
	int32_t zero_point;
	uint32_t reserved;
};

_Static_assert(sizeof(struct vpuxc_ioq_rec) == 16, "vpuxc_ioq_rec layout");

#endif /* VPUXC_IO_FORMAT_H */
