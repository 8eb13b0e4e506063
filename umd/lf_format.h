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
/*
 * 1.1: CMX tensors; 1.2: symbols with hash and width, dynamic dims, plans;
 * 1.3: FP16/FP32 tensors (VPUX_DT_F16/F32), FP16 DPU ops;
 * 1.4: tensor names of any length (.vpux.names, .vpux.strtab);
 * 1.5: SHAVE ELF kernels (.vpux.kernels, .vpux.kcode, .vpux.kinvocations,
 *      .vpux.kdata, .vpux.kstacks), SHAVE ops of kernel_id
 *      VPUX_SHAVE_KERNEL_ELF
 */
#define VPUX_LF_VERSION_MINOR		5u
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
/*
 * 1.2: the request's symbol buffer (index 0), 8 * n_symbols bytes: u64
 * little-endian slots, slot i = the value of symbol i. A DMA source only.
 */
#define VPUX_LF_RK_SYMBOLS		6u
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
	uint32_t data_type;	/* VPUX_DT_* (F16, F32: 1.3) */
	uint32_t rank;		/* 1..VPUX_LF_MAX_RANK */
	uint64_t dims_order;	/* packed, a permutation of rank dims */
	uint32_t dims[VPUX_LF_MAX_RANK];	/* logical, >= 1; 0 above rank */
	uint64_t strides[VPUX_LF_MAX_RANK];	/* logical, in bits; 0 above rank */
	/* quantisation of u8/i8/i32; all three 0 for F16/F32 (no quantisation) */
	int32_t zero_point;
	int32_t scale_mult;
	int32_t scale_shift;
	/*
	 * 1.2 (0 before): bit d set = dims[d] is the index of an axis symbol
	 * in .vpux.symbols instead of a number; @size, @strides and every
	 * extent are laid out for the symbol's max. Bits >= rank are 0.
	 */
	uint32_t dyn_dims;
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

/*
 * The output stage of an FP16 DPU op (1.3, flag VPUX_DPU_F_FP16): the 11
 * words from in_zp to in2_scale_shift hold this instead, word for word
 * struct vpux_hw_dpu_fparams (include/hw/vpux_regs.h; lf_util.c asserts
 * the layout). FP32 values are IEEE binary32 bit patterns.
 */
struct vpux_lf_dpu_fparams {
	uint32_t act;		/* VPUX_DPU_ACT_* */
	uint32_t zero0[2];	/* 0 */
	uint32_t clamp_lo;	/* FP32, VPUX_DPU_ACT_CLAMP, else 0 */
	uint32_t clamp_hi;
	uint32_t scale;		/* FP32, VPUX_DPU_F_SCALE, else 0 */
	uint32_t shift;
	uint32_t slope;		/* FP32, VPUX_DPU_ACT_LEAKY, else 0 */
	uint32_t zero1[3];	/* 0 */
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
	union {
		struct {			/* integer ops */
			int32_t in_zp, in2_zp, out_zp, act_min, act_max;
			int32_t requant_mult, requant_shift;
			int32_t in_scale_mult, in_scale_shift;
			int32_t in2_scale_mult, in2_scale_shift;
		};
		struct vpux_lf_dpu_fparams f;	/* FP16 ops */
	};
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

/* vpux_lf_symbol.kind */
#define VPUX_LF_SYM_AXIS		1u	/* the size of a tensor axis */
#define VPUX_LF_SYM_SCALAR		2u	/* a value plan expressions use */
#define VPUX_LF_MAX_SYMBOLS		16u	/* = DLA_PLAN_MAX_SYMBOLS */

/*
 * .vpux.symbols: dynamic axes and scalars a request binds. A symbol's
 * index is its id: the slot of the request's symbol buffer and the SYM
 * operand of plan expressions. 0 <= min <= max <= 2^32 - 1.
 */
struct vpux_lf_symbol {
	char name[VPUX_LF_NAME_LEN];	/* NUL-terminated, unique, non-empty */
	uint32_t kind;		/* VPUX_LF_SYM_* */
	uint32_t reserved;	/* 0 */
	int64_t min, max;
	/* 1.2; a 1.0/1.1 record (56 bytes) reads as hash of the name, width 8 */
	uint32_t hash;		/* FNV-1a (32-bit) of the name's bytes */
	uint32_t width;		/* bytes of the value: 4 or 8 */
};

/*
 * Plans (1.2, Documentation/dynamic-shapes.rst): a loadable with a
 * .vpux.plan.blocks section has no barriers; its op sections hold the
 * plan's op templates (every op exactly one template, deps all 0), run
 * in blocks of loops whose extents, and the templates' patched fields,
 * are expressions over the symbols.
 */
#define VPUX_LF_OP_DMA			0u	/* template kinds */
#define VPUX_LF_OP_DPU			1u
#define VPUX_LF_OP_SHAVE		2u
#define VPUX_LF_PLAN_MAX_DEPTH		3u	/* = DLA_PLAN_MAX_DEPTH */

struct vpux_lf_plan_loop {
	uint32_t extent;	/* first word in .vpux.plan.expr */
	uint32_t extent_len;	/* its words; 0 for a level >= depth */
	uint32_t tile;		/* >= 1; 0 for a level >= depth */
	uint32_t reserved;	/* 0 */
};

/* .vpux.plan.blocks: run one after the other */
struct vpux_lf_plan_block {
	uint32_t depth;		/* 0..VPUX_LF_PLAN_MAX_DEPTH */
	uint32_t first_template;	/* into .vpux.plan.templates */
	uint32_t n_templates;	/* 1..8 */
	uint32_t reserved;	/* 0 */
	struct vpux_lf_plan_loop loop[VPUX_LF_PLAN_MAX_DEPTH];	/* outermost first */
};

/* .vpux.plan.templates */
struct vpux_lf_plan_template {
	uint32_t kind;		/* VPUX_LF_OP_* */
	uint32_t op;		/* index in that kind's op section */
	uint32_t wait_mask;	/* bit i: the block's template i, i < this one */
	uint32_t first_patch;	/* into .vpux.plan.patches */
	uint32_t n_patches;	/* 0..16 */
	uint32_t reserved;	/* 0 */
};

/*
 * .vpux.plan.patches: field @field (VPUX_LF_FIELD(), umd/lf_fields.c) of
 * the template's op takes the value of expression [@expr, @expr + @len)
 * at each instance. A buffer reference's offset is relative to its
 * tensor, as in the op record.
 */
#define VPUX_LF_FIELD(kind, n)		(((uint32_t)(kind) << 8) | (uint32_t)(n))
#define VPUX_LF_FIELD_KIND(f)		((f) >> 8)
struct vpux_lf_plan_patch {
	uint32_t field;
	uint32_t expr;		/* first word in .vpux.plan.expr */
	uint32_t len;		/* words, >= 1 */
	uint32_t reserved;	/* 0 */
};

/*
 * .vpux.plan.expr: u32 words, the reverse-Polish tokens of
 * uapi/drm/vpux_task.h (DLA_EXPR_*); SYM's operand is a symbol
 * index, IDX/OFF/LEN's a loop level of the template's block.
 */

/*
 * Names (1.4): the model's own name of a tensor, of any length (a
 * compiled ONNX model's input and output names), where the 32 bytes of
 * vpux_lf_tensor.name hold a short unique identifier. .vpux.strtab is a
 * byte blob of NUL-terminated strings (UTF-8) whose first and last bytes
 * are NUL; .vpux.names maps tensors to strings in it, one record per
 * named tensor, in increasing tensor order, the names unique and
 * non-empty. Neither section is required: a reader that ignores them
 * sees the short identifiers.
 */
struct vpux_lf_name {
	uint32_t tensor;	/* index into .vpux.tensors */
	uint32_t name;		/* byte offset into .vpux.strtab, >= 1 */
};

/*
 * ELF kernels (1.5, Documentation/shave-kernels.rst): code that a SHAVE
 * core runs, carried in the loadable. A kernel is an image linked at
 * WIN_D (code + RO data, relocations resolved when the SDK linked it) in
 * .vpux.kcode with its entry point; a SHAVE op whose kernel_id is
 * VPUX_SHAVE_KERNEL_ELF is a kernel task, its arguments in .vpux.kargs
 * (args_offset/args_size, as a built-in kernel's), WIN_F its windows[0],
 * and its invocation record in .vpux.kinvocations says which kernel, the
 * RW data (in .vpux.kdata), the tile and which argument words are
 * MemRefData records. .vpux.kstacks gives each tile's stack size.
 */
#define VPUX_LF_KERNEL_TASK		1u	/* vpux_lf_kernel.kind */
/*
 * The runtime kernel (the SHAVEs' scheduler loop, vpux_shave_rt.h): an
 * image linked at WIN_R, at most VPUX_SHAVE_RT_CODE_MAX bytes, at most
 * one per loadable; no invocation names it. Every kernel task of the
 * loadable runs under it; without one, under the engine's reference
 * runtime kernel.
 */
#define VPUX_LF_KERNEL_RUNTIME		2u

/* .vpux.kernels */
struct vpux_lf_kernel {
	char name[VPUX_LF_NAME_LEN];	/* NUL-terminated, unique, non-empty */
	uint32_t kind;		/* VPUX_LF_KERNEL_TASK or _RUNTIME */
	uint32_t flags;		/* 0 */
	uint32_t code_offset;	/* into .vpux.kcode, multiple of 8 */
	uint32_t code_size;	/* 4..VPUX_SHAVE_CODE_MAX, multiple of 4 */
	uint32_t entry;		/* byte offset of the entry point, < code_size, even */
	uint32_t reserved[3];	/* 0 */
};

/*
 * .vpux.kinvocations: one record per ELF SHAVE op, in op order. Bit k of
 * @memrefs: bytes [k * 104, (k + 1) * 104) of the op's arguments are a
 * struct vpux_memref (vpux_shave_abi.h) into WIN_F, checked on load as a
 * built-in kernel's in/out; @memrefs_out the subset the kernel writes.
 */
struct vpux_lf_kinvocation {
	uint32_t op;		/* index into .vpux.ops.shave, increasing */
	uint32_t kernel;	/* index into .vpux.kernels */
	uint32_t tile;		/* the SHAVE's tile: a record of .vpux.kstacks */
	uint32_t budget;	/* instructions / 1024, 0 = the default (2^30) */
	uint32_t data_offset;	/* RW data: into .vpux.kdata, multiple of 8 */
	uint32_t data_size;	/* 0..VPUX_SHAVE_DATA_MAX, multiple of 4 */
	uint32_t memrefs;	/* bit k: a memref at argument byte 104 * k */
	uint32_t memrefs_out;	/* subset of @memrefs the kernel writes */
	uint32_t reserved[4];	/* 0 */
};

/* .vpux.kstacks: record t is tile t's SHAVE stack configuration */
struct vpux_lf_kstack {
	uint32_t stack_size;	/* VPUX_SHAVE_STACK_MIN..MAX, multiple of 16 */
	uint32_t reserved;	/* 0 */
};

#define VPUX_LF_MEMREF_SIZE		104u	/* sizeof(struct vpux_memref) */

#define VPUX_LF_SEC_HEADER		".vpux.header"
#define VPUX_LF_SEC_TENSORS		".vpux.tensors"
#define VPUX_LF_SEC_WEIGHTS		".vpux.weights"
#define VPUX_LF_SEC_BARRIERS		".vpux.barriers"
#define VPUX_LF_SEC_DMA			".vpux.ops.dma"
#define VPUX_LF_SEC_DPU			".vpux.ops.dpu"
#define VPUX_LF_SEC_SHAVE		".vpux.ops.shave"
#define VPUX_LF_SEC_KARGS		".vpux.kargs"
#define VPUX_LF_SEC_SYMBOLS		".vpux.symbols"
#define VPUX_LF_SEC_PLAN_BLOCKS		".vpux.plan.blocks"
#define VPUX_LF_SEC_PLAN_TEMPLATES	".vpux.plan.templates"
#define VPUX_LF_SEC_PLAN_PATCHES	".vpux.plan.patches"
#define VPUX_LF_SEC_PLAN_EXPR		".vpux.plan.expr"
#define VPUX_LF_SEC_NAMES		".vpux.names"
#define VPUX_LF_SEC_STRTAB		".vpux.strtab"
#define VPUX_LF_SEC_KERNELS		".vpux.kernels"
#define VPUX_LF_SEC_KCODE		".vpux.kcode"
#define VPUX_LF_SEC_KINVOCATIONS	".vpux.kinvocations"
#define VPUX_LF_SEC_KDATA		".vpux.kdata"
#define VPUX_LF_SEC_KSTACKS		".vpux.kstacks"

_Static_assert(sizeof(struct vpux_lf_sechdr) == 24, "sechdr");
_Static_assert(sizeof(struct vpux_lf_header) == 96, "header");
_Static_assert(sizeof(struct vpux_lf_tensor) == 160, "tensor");
_Static_assert(sizeof(struct vpux_lf_deps) == 36, "deps");
_Static_assert(sizeof(struct vpux_lf_dma) == 116, "dma");
_Static_assert(sizeof(struct vpux_lf_dpu_fparams) == 44, "dpu fparams");
_Static_assert(sizeof(struct vpux_lf_dpu) == 212, "dpu");
_Static_assert(sizeof(struct vpux_lf_shave) == 180, "shave");
_Static_assert(sizeof(struct vpux_lf_symbol) == 64, "symbol");
_Static_assert(sizeof(struct vpux_lf_plan_block) == 64, "plan block");
_Static_assert(sizeof(struct vpux_lf_plan_template) == 24, "plan template");
_Static_assert(sizeof(struct vpux_lf_plan_patch) == 16, "plan patch");
_Static_assert(sizeof(struct vpux_lf_name) == 8, "name");
_Static_assert(sizeof(struct vpux_lf_kernel) == 64, "kernel");
_Static_assert(sizeof(struct vpux_lf_kinvocation) == 48, "kinvocation");
_Static_assert(sizeof(struct vpux_lf_kstack) == 8, "kstack");

#endif /* VPUX_LF_FORMAT_H */
