/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * On-disk records of the loadable (Documentation/loadable.rst): an ELF64
 * little-endian relocatable file whose .vpux.* sections each start with a
 * struct vpux_lf_sechdr followed by @count records of @rec_size bytes.
 * Everything little endian, naturally aligned, no absolute addresses.
 */
#ifndef VPUX_LF_FORMAT_H
#define VPUX_LF_FORMAT_H

#include <stdint.h>

#define VPUX_LF_MAGIC			0x5850564eu	/* "NVPX" */
#define VPUX_LF_VERSION_MAJOR		1u
#define VPUX_LF_VERSION_MINOR		1u	/* 1.1: CMX tensors */
#define VPUX_LF_SEC_MAGIC		0x53585056u	/* "VPXS" */

/* vpux_lf_sechdr.flags */
#define VPUX_LF_SEC_REQUIRED		(1u << 0)	/* reader must know it */
#define VPUX_LF_SEC_FLAGS_ALL		VPUX_LF_SEC_REQUIRED

struct vpux_lf_sechdr {
	uint32_t magic;		/* VPUX_LF_SEC_MAGIC */
	uint16_t flags;		/* VPUX_LF_SEC_* */
	uint16_t hdr_size;	/* sizeof(struct vpux_lf_sechdr) or more */
	uint32_t rec_size;	/* >= the record size this reader knows */
	uint32_t count;		/* records */
	uint32_t crc32;		/* CRC-32 (zlib) of the count * rec_size bytes */
	uint32_t reserved;	/* 0 */
};

#define VPUX_LF_NAME_LEN		32u
#define VPUX_LF_MAX_RANK		6u
#define VPUX_LF_MAX_IO			64u
#define VPUX_LF_MAX_TENSORS		65535u
#define VPUX_LF_REGION_MAX		0xffffffffull	/* 4 GiB - 1 */

/* .vpux.header: exactly one record */
struct vpux_lf_header {
	uint32_t magic;		/* VPUX_LF_MAGIC */
	uint16_t version_major;	/* == reader's major */
	uint16_t version_minor;	/* <= reader's minor */
	uint32_t target;	/* VPUX_TARGET_* */
	uint32_t flags;		/* 0 */
	uint64_t caps;		/* VPUX_CAP_* the device must have */
	uint64_t weights_size;	/* bytes of .vpux.weights */
	uint64_t scratch_size;	/* bytes of per-request scratch */
	uint32_t num_inputs;
	uint32_t num_outputs;
	char name[VPUX_LF_NAME_LEN];
	uint32_t reserved[4];
};

/* Regions: (kind << 16) | index. */
#define VPUX_LF_REGION_KIND(r)		((r) >> 16)
#define VPUX_LF_REGION_INDEX(r)		((r) & 0xffffu)
#define VPUX_LF_RK_WEIGHTS		1u
#define VPUX_LF_RK_SCRATCH		2u
#define VPUX_LF_RK_INPUT		3u
#define VPUX_LF_RK_OUTPUT		4u
/* 1.1: the NPU's on-chip memory, index = CMX tile (not MMU-translated) */
#define VPUX_LF_RK_CMX			5u
/* the CMX of target VPUX_TARGET_VPUX1 (Documentation/hw-model.rst) */
#define VPUX_LF_CMX_TILES		4u
#define VPUX_LF_CMX_TILE_SIZE		(256u * 1024u)
#define VPUX_LF_REGION(k, i)		(((uint32_t)(k) << 16) | (uint32_t)(i))

/* vpux_lf_tensor.flags */
#define VPUX_LF_T_IO			(1u << 0)	/* the descriptor of its I/O region */
#define VPUX_LF_T_FLAGS_ALL		VPUX_LF_T_IO

/* .vpux.tensors */
struct vpux_lf_tensor {
	char name[VPUX_LF_NAME_LEN];	/* NUL-terminated, unique, non-empty */
	uint32_t region;	/* VPUX_LF_REGION() */
	uint32_t flags;		/* VPUX_LF_T_* */
	uint64_t offset;	/* bytes into the region */
	uint64_t size;		/* bytes from @offset */
	uint32_t data_type;	/* VPUX_DT_* */
	uint32_t rank;		/* 1..VPUX_LF_MAX_RANK */
	uint64_t dims_order;	/* packed, a permutation of rank dims */
	uint32_t dims[VPUX_LF_MAX_RANK];	/* logical, >= 1; 0 above rank */
	uint64_t strides[VPUX_LF_MAX_RANK];	/* logical, in bits; 0 above rank */
	int32_t zero_point;
	int32_t scale_mult;
	int32_t scale_shift;
	uint32_t reserved;
};

/* .vpux.barriers */
struct vpux_lf_barrier {
	uint16_t producer_count;
	uint16_t consumer_count;
	uint32_t reserved;
};

/* An operand: bytes [offset, offset + size) of tensor @tensor. */
struct vpux_lf_ref {
	uint32_t tensor;	/* index into .vpux.tensors */
	uint32_t flags;		/* 0 */
	uint32_t offset;
	uint32_t size;		/* 0 = no operand (then all fields 0) */
};

#define VPUX_LF_MAX_WAITS		8u
#define VPUX_LF_MAX_UPDATES		8u
#define VPUX_LF_MAX_WINDOWS		8u
#define VPUX_LF_WINDOW_MAX		0x10000000u	/* bytes per SHAVE window */

struct vpux_lf_deps {
	uint8_t num_waits;
	uint8_t num_updates;
	uint16_t reserved;
	uint16_t waits[VPUX_LF_MAX_WAITS];
	uint16_t updates[VPUX_LF_MAX_UPDATES];
};

/* .vpux.ops.dma: a 4-D strided copy */
struct vpux_lf_dma {
	struct vpux_lf_deps deps;
	uint32_t flags;
	uint32_t len;
	struct vpux_lf_ref src;
	struct vpux_lf_ref dst;
	uint32_t count[3];
	uint32_t src_stride[3];
	uint32_t dst_stride[3];
	uint32_t reserved;
};

/* .vpux.ops.dpu: one DPU workload; fields as struct vpux_hw_dpu_desc */
struct vpux_lf_dpu {
	struct vpux_lf_deps deps;
	uint32_t op;
	uint32_t flags;
	struct vpux_lf_ref in, in2, bias, quant, out;
	uint16_t in_c, in_h, in_w, out_c, out_h, out_w;
	uint16_t kernel_h, kernel_w, stride_h, stride_w;
	uint16_t pad_top, pad_left, pad_bottom, pad_right;
	uint16_t dilation_h, dilation_w, groups, reserved0;
	int32_t in_zp, in2_zp, out_zp, act_min, act_max;
	int32_t requant_mult, requant_shift;
	int32_t in_scale_mult, in_scale_shift;
	int32_t in2_scale_mult, in2_scale_shift;
	uint32_t reserved[2];
};

/* .vpux.ops.shave: a software-kernel invocation */
struct vpux_lf_shave {
	struct vpux_lf_deps deps;
	uint32_t kernel_id;	/* VPUX_SHAVE_KERNEL_* */
	uint32_t args_offset;	/* into .vpux.kargs, multiple of 8 */
	uint32_t args_size;	/* == sizeof the kernel's argument struct */
	uint32_t reserved;
	struct vpux_lf_ref windows[VPUX_LF_MAX_WINDOWS];
};

/* .vpux.symbols: dynamic axes / scalars a request may bind */
struct vpux_lf_symbol {
	char name[VPUX_LF_NAME_LEN];
	uint32_t kind;		/* 1 = axis size */
	uint32_t reserved;
	int64_t min, max;
};

#define VPUX_LF_SEC_HEADER		".vpux.header"
#define VPUX_LF_SEC_TENSORS		".vpux.tensors"
#define VPUX_LF_SEC_WEIGHTS		".vpux.weights"
#define VPUX_LF_SEC_BARRIERS		".vpux.barriers"
#define VPUX_LF_SEC_DMA			".vpux.ops.dma"
#define VPUX_LF_SEC_DPU			".vpux.ops.dpu"
#define VPUX_LF_SEC_SHAVE		".vpux.ops.shave"
#define VPUX_LF_SEC_KARGS		".vpux.kargs"
#define VPUX_LF_SEC_SYMBOLS		".vpux.symbols"

_Static_assert(sizeof(struct vpux_lf_sechdr) == 24, "sechdr");
_Static_assert(sizeof(struct vpux_lf_header) == 96, "header");
_Static_assert(sizeof(struct vpux_lf_tensor) == 160, "tensor");
_Static_assert(sizeof(struct vpux_lf_deps) == 36, "deps");
_Static_assert(sizeof(struct vpux_lf_dma) == 116, "dma");
_Static_assert(sizeof(struct vpux_lf_dpu) == 212, "dpu");
_Static_assert(sizeof(struct vpux_lf_shave) == 180, "shave");
_Static_assert(sizeof(struct vpux_lf_symbol) == 56, "symbol");

#endif /* VPUX_LF_FORMAT_H */
