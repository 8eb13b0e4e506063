/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * vpux NPU accelerator: the task memory format, what the user-mode driver
 * writes and the engine core reads through dla_data_read(), in the kernel
 * (vpux_accel.ko checks and prepares every task it is handed) as in the
 * firmware. Documentation/task-format.rst describes it in prose. All
 * fields are little endian and naturally aligned; every record is a
 * whole number of 32-bit words. Only <linux/types.h> is needed; a
 * freestanding build without kernel headers provides __u8..__u64 itself
 * (the project's include/uapi-shim/linux/types.h).
 *
 * A task is handed to the core as an address list (entry i = one buffer:
 * device address + size, held by the port). Entry 0 holds the task
 * descriptor at offset 0; the barrier table and the op lists live in entry
 * 0 at the offsets the descriptor gives. Ops refer to memory only through
 * buffer references (address-list index, offset, size) or CMX references
 * (tile, offset, size); the core resolves them to device addresses.
 */
#ifndef __UAPI_DRM_VPUX_TASK_H__
#define __UAPI_DRM_VPUX_TASK_H__

#include <linux/types.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Fixed by the format: barriers one op may wait on / update. */
#define DLA_MAX_OP_WAITS		8u
#define DLA_MAX_OP_UPDATES		8u

/* Memory windows of one SHAVE invocation (= VPUX_SHAVE_WINDOWS). */
#define DLA_MAX_SHAVE_WINDOWS		8u

#define DLA_TASK_MAGIC			0x4b534154u	/* "TASK" in memory */
#define DLA_TASK_VERSION_MAJOR		1u
#define DLA_TASK_VERSION_MINOR		3u	/* 1: plans, 2: tile windows,
						 * 3: ELF SHAVE templates */

/* dla_task_desc.flags */
#define DLA_TASK_F_PLAN			(1u << 0)	/* a plan, no static ops */
/* the task's CMX tiles: only tile_first .. tile_first + tile_count - 1 */
#define DLA_TASK_F_TILES		(1u << 1)
#define DLA_TASK_FLAGS_ALL		(DLA_TASK_F_PLAN | DLA_TASK_F_TILES)

/* Engine kinds, equal to VPUX_ENGINE_KIND_*; index of dla_task_desc.ops[] */
enum dla_op_kind {
	DLA_OP_DMA = 0,
	DLA_OP_DPU = 1,
	DLA_OP_SHAVE = 2,
	DLA_OP_KINDS = 3
};

/**
 * struct dla_op_list - one engine kind's ordered op list
 * @count: number of op records
 * @offset: byte offset of the first record in address-list entry 0
 */
struct dla_op_list {
	__u32 count;
	__u32 offset;
};

/**
 * struct dla_task_desc - the task descriptor, at offset 0 of entry 0
 * @magic: DLA_TASK_MAGIC
 * @version_major: DLA_TASK_VERSION_MAJOR (must be equal)
 * @version_minor: <= DLA_TASK_VERSION_MINOR
 * @header_size: sizeof(struct dla_task_desc)
 * @flags: DLA_TASK_F_*
 * @num_barriers: entries of the barrier table
 * @barriers_offset: byte offset of the barrier table in entry 0
 * @ops: per engine kind (enum dla_op_kind) op lists
 * @plan_offset: with DLA_TASK_F_PLAN: byte offset of the plan in entry 0;
 *	else 0
 * @plan_size: with DLA_TASK_F_PLAN: bytes of the plan; else 0
 * @sym_index: with DLA_TASK_F_PLAN: address-list entry (>= 1) of the
 *	request's symbol buffer (u64 slots); else 0
 * @tile_first: with DLA_TASK_F_TILES (minor 2): the first CMX tile of the
 *	task's tile window; else 0
 * @tile_count: with DLA_TASK_F_TILES: tiles in the window (>= 1, inside
 *	the device's); an op's CMX reference or an ELF SHAVE op's tile
 *	outside the window is refused (DLA_ERR_CMX_WINDOW); else 0
 * @reserved: 0
 */
struct dla_task_desc {
	__u32 magic;
	__u16 version_major;
	__u16 version_minor;
	__u32 header_size;
	__u32 flags;
	__u32 num_barriers;
	__u32 barriers_offset;
	struct dla_op_list ops[DLA_OP_KINDS];
	__u32 plan_offset;
	__u32 plan_size;
	__u32 sym_index;
	__u16 tile_first;
	__u16 tile_count;
	__u32 reserved[2];
};

/**
 * struct dla_barrier_desc - one barrier: a counter that starts at
 * @producer_count and drops by one each time an op that lists the barrier
 * in its update list completes. When it reaches zero every op that lists it
 * in its wait list has that wait satisfied.
 * @producer_count: must equal the number of ops that update the barrier
 * @consumer_count: must equal the number of ops that wait on the barrier
 * @reserved: 0
 */
struct dla_barrier_desc {
	__u16 producer_count;
	__u16 consumer_count;
	__u32 reserved;
};

/* dla_buf_ref.flags */
#define DLA_REF_CMX			(1u << 0)	/* @index is a CMX tile */
#define DLA_REF_FLAGS_ALL		DLA_REF_CMX

/**
 * struct dla_buf_ref - a buffer reference
 * @index: address-list index, or the CMX tile if DLA_REF_CMX
 * @flags: DLA_REF_*
 * @offset: byte offset in the buffer (or in the tile's CMX)
 * @size: bytes the op may touch from @offset; 0 = no buffer (then every
 *	field must be 0)
 */
struct dla_buf_ref {
	__u32 index;
	__u32 flags;
	__u32 offset;
	__u32 size;
};

/**
 * struct dla_op_deps - the scheduling part every op record starts with
 * @num_waits: used entries of @waits
 * @num_updates: used entries of @updates
 * @reserved: 0
 * @waits: barrier ids the op waits on; unused entries 0
 * @updates: barrier ids the op decrements when it completes; unused 0
 */
struct dla_op_deps {
	__u8 num_waits;
	__u8 num_updates;
	__u16 reserved;
	__u16 waits[DLA_MAX_OP_WAITS];
	__u16 updates[DLA_MAX_OP_UPDATES];
};

/**
 * struct dla_dma_op - 4-D strided copy; becomes a vpux_hw_dma_desc
 * @deps: barriers
 * @flags: 0
 * @len: bytes per contiguous row (dim 0), >= 1
 * @src: source buffer; the copy reads
 *	sum((count[i] - 1) * src_stride[i]) + len bytes from it
 * @dst: destination buffer, likewise with dst_stride
 * @count: dims 1..3, each >= 1
 * @src_stride: byte strides of dims 1..3 in @src
 * @dst_stride: byte strides of dims 1..3 in @dst
 * @reserved: 0
 */
struct dla_dma_op {
	struct dla_op_deps deps;
	__u32 flags;
	__u32 len;
	struct dla_buf_ref src;
	struct dla_buf_ref dst;
	__u32 count[3];
	__u32 src_stride[3];
	__u32 dst_stride[3];
	__u32 reserved;
};

/* Fixed-point requantisation record, as struct vpux_hw_requant. */
struct dla_requant {
	__s32 mult;
	__s32 shift;
};

/**
 * struct dla_dpu_op - one DPU workload; becomes a vpux_hw_dpu_desc whose
 * five operand addresses are resolved from the buffer refs. Every other
 * field has the meaning and position of the hardware descriptor's: an
 * FP16 op (VPUX_DPU_F_FP16 in @flags) carries its output stage, struct
 * vpux_hw_dpu_fparams (act, clamp bounds, scale, shift, slope: FP32 bit
 * patterns), in the eleven words from @in_zp to @in2_scale, as the
 * hardware descriptor does; its @bias is FP32 and @quant holds struct
 * vpux_hw_dpu_fchan records.
 */
struct dla_dpu_op {
	struct dla_op_deps deps;
	__u32 op;			/* VPUX_DPU_OP_* */
	__u32 flags;			/* VPUX_DPU_F_* */
	struct dla_buf_ref in;
	struct dla_buf_ref in2;		/* weights / 2nd input; empty for pools */
	struct dla_buf_ref bias;	/* only with VPUX_DPU_F_BIAS */
	struct dla_buf_ref quant;	/* only with VPUX_DPU_F_PER_CHANNEL
					 * (FP16: or VPUX_DPU_ACT_LEAKY_CH) */
	struct dla_buf_ref out;
	__u16 in_c, in_h, in_w, out_c, out_h, out_w;
	__u16 kernel_h, kernel_w, stride_h, stride_w;
	__u16 pad_top, pad_left, pad_bottom, pad_right;
	__u16 dilation_h, dilation_w, groups, reserved0;
	__s32 in_zp;			/* FP16: from here to in2_scale, */
	__s32 in2_zp;			/* struct vpux_hw_dpu_fparams */
	__s32 out_zp;
	__s32 act_min;
	__s32 act_max;
	struct dla_requant requant;
	struct dla_requant in_scale;
	struct dla_requant in2_scale;
	__u32 reserved[2];
};

/**
 * struct dla_shave_op - one software-kernel invocation; becomes a
 * vpux_hw_shave_desc
 * @deps: barriers
 * @kernel_id: VPUX_SHAVE_KERNEL_* (checked by the engine)
 * @reserved: 0
 * @args: the opaque argument buffer, 1..VPUX_SHAVE_ARGS_MAX bytes
 * @windows: memory windows; window w's base and size are the resolved
 *	address and size of @windows[w]; an empty ref disables the window.
 *	Each window is at most 2^28 bytes (the window-address offset width).
 */
struct dla_shave_op {
	struct dla_op_deps deps;
	__u32 kernel_id;
	__u32 reserved;
	struct dla_buf_ref args;
	struct dla_buf_ref windows[DLA_MAX_SHAVE_WINDOWS];
};

#define DLA_SHAVE_WINDOW_MAX		0x10000000u

/**
 * struct dla_shave_task_op - an ELF kernel invocation (kernel_id
 * VPUX_SHAVE_KERNEL_ELF, vpux_shave_elf.h); the same size as struct
 * dla_shave_op, whose kernel_id it shares. Becomes a vpux_hw_shave_task.
 * @deps: barriers
 * @kernel_id: VPUX_SHAVE_KERNEL_ELF
 * @entry: offset of the entry point in @code, even, below its size
 * @args: the invocation's arguments, 0..VPUX_SHAVE_ARGS_MAX bytes (WIN_E)
 * @code: the kernel image, code + RO data (WIN_D): 4..VPUX_SHAVE_CODE_MAX
 *	bytes, a multiple of 4; may be read-only
 * @data: the invocation's RW data (optional): at most VPUX_SHAVE_DATA_MAX
 *	bytes, a multiple of 4; read, never written back
 * @win_f: WIN_F, the buffers the kernel reads and writes (a CMX slice of
 *	@tile, or any writable buffer): at most VPUX_SHAVE_WIN_F_MAX bytes
 * @stack_size: the tile's stack size, VPUX_SHAVE_STACK_MIN..
 *	VPUX_SHAVE_STACK_MAX, a multiple of VPUX_SHAVE_STACK_ALIGN
 * @tile: tile whose SHAVE runs it
 * @kernel: the kernel's index in the loadable (named in errors)
 * @invocation: the invocation's index (named in errors)
 * @budget: instructions in units of 1024, up to VPUX_SHAVE_BUDGET_MAX;
 *	0 = VPUX_SHAVE_BUDGET_DEFAULT
 * @runtime: the runtime kernel that runs the task on the SHAVE (its image,
 *	code + RO data at WIN_R, vpux_shave_rt.h): 4..VPUX_SHAVE_RT_CODE_MAX
 *	bytes, a multiple of 4; may be read-only. All zero: the engine's
 *	reference runtime kernel
 * @runtime_entry: offset of its entry point, even, below its size (0
 *	without @runtime)
 * @runtime_kernel: its index in the loadable (named in errors; ignored
 *	without @runtime)
 * @reserved: 0
 *
 * A plan template (minor 3) may patch any word but a reference's index
 * or flags and @kernel_id; each instance is checked as above.
 */
struct dla_shave_task_op {
	struct dla_op_deps deps;
	__u32 kernel_id;
	__u32 entry;
	struct dla_buf_ref args;
	struct dla_buf_ref code;
	struct dla_buf_ref data;
	struct dla_buf_ref win_f;
	__u32 stack_size;
	__u32 tile;
	__u32 kernel;
	__u32 invocation;
	__u32 budget;
	struct dla_buf_ref runtime;
	__u32 runtime_entry;
	__u32 runtime_kernel;
	__u32 reserved[9];
};

/*
 * Plans (Documentation/dynamic-shapes.rst): loops over op templates whose
 * fields are expressions over per-request symbols, expanded by the core
 * while it schedules. A plan is, in this order: the header, n_symbols
 * symbol records, n_blocks blocks, n_templates templates (each a
 * dla_plan_template followed by a whole op record of its kind),
 * n_patches patches, expr_words expression words.
 */
#define DLA_PLAN_MAGIC			0x4e414c50u	/* "PLAN" in memory */
#define DLA_PLAN_MAX_SYMBOLS		16u
#define DLA_PLAN_MAX_DEPTH		3u	/* loop nesting of a block */
#define DLA_PLAN_MAX_BODY		8u	/* templates of one block */
#define DLA_PLAN_MAX_PATCHES		16u	/* patches of one template */
#define DLA_PLAN_MAX_EXPR		32u	/* words of one expression */
#define DLA_PLAN_STACK			8u	/* expression stack depth */

/**
 * struct dla_plan_header - start of a plan
 * @magic: DLA_PLAN_MAGIC
 * @n_symbols: symbol records (<= DLA_PLAN_MAX_SYMBOLS); the symbol buffer
 *	holds as many u64 slots
 * @n_blocks: blocks, run one after the other
 * @n_templates: op templates
 * @n_patches: patches (all templates')
 * @expr_words: u32 words of the expression pool
 * @reserved: 0
 */
struct dla_plan_header {
	__u32 magic;
	__u32 n_symbols;
	__u32 n_blocks;
	__u32 n_templates;
	__u32 n_patches;
	__u32 expr_words;
	__u32 reserved[2];
};

/**
 * struct dla_plan_symbol - bounds a symbol's value must lie in
 * @min: smallest value
 * @max: largest value (the sizes were laid out for it)
 */
struct dla_plan_symbol {
	__u32 min;
	__u32 max;
};

/**
 * struct dla_plan_loop - one loop level: the tiles of an axis
 * @extent: first word of the extent's expression (symbols, constants)
 * @len: words of that expression; 0 for an unused level
 * @tile: tile size, >= 1; ceil(extent / tile) iterations, the last one a
 *	tail of extent mod tile elements when that is not 0
 */
struct dla_plan_loop {
	__u16 extent;
	__u16 len;
	__u32 tile;
};

/**
 * struct dla_plan_block - a loop nest over a body of templates
 * @depth: loop levels, 0..DLA_PLAN_MAX_DEPTH (0: one iteration)
 * @first_template: index of the body's first template
 * @n_templates: templates of the body, 1..DLA_PLAN_MAX_BODY, instantiated
 *	in order for every iteration (innermost level fastest)
 * @reserved: 0
 * @loop: levels, outermost first; levels >= @depth all 0
 */
struct dla_plan_block {
	__u32 depth;
	__u32 first_template;
	__u32 n_templates;
	__u32 reserved;
	struct dla_plan_loop loop[DLA_PLAN_MAX_DEPTH];
};

/**
 * struct dla_plan_template - an op template, followed by its op record
 * @kind: enum dla_op_kind of the record that follows
 * @wait_mask: bit i: waits for the body's template i of the same
 *	iteration (earlier templates only)
 * @first_patch: index of its first patch
 * @n_patches: patches applied, in order, to each instance
 *
 * The op record's deps are all 0: the plan says what waits for what.
 */
struct dla_plan_template {
	__u32 kind;
	__u32 wait_mask;
	__u32 first_patch;
	__u32 n_patches;
};

/**
 * struct dla_plan_patch - write an expression's value into the record
 * @offset: byte offset in the op record (past its deps; not a buffer
 *	reference's index or flags word, nor a SHAVE op's kernel_id)
 * @width: 4 (u32 word) or 2 (u16, value <= 65535); @offset a multiple
 * @expr: first word of the expression
 * @len: its words, 1..DLA_PLAN_MAX_EXPR
 */
struct dla_plan_patch {
	__u16 offset;
	__u16 width;
	__u16 expr;
	__u16 len;
};

/*
 * Expression tokens (reverse Polish): opcode in bits 31..24, operand in
 * 23..0. Unsigned 32-bit arithmetic, checked: overflow, a negative
 * difference and division by zero fail the task.
 */
#define DLA_EXPR_TOKEN(op, arg)		(((__u32)(op) << 24) | (arg))
#define DLA_EXPR_OP(tok)		((tok) >> 24)
#define DLA_EXPR_ARG(tok)		((tok) & 0x00ffffffu)
enum dla_expr_op {
	DLA_EXPR_CONST = 1,		/* push arg */
	DLA_EXPR_CONST32 = 2,		/* push the next word */
	DLA_EXPR_SYM = 3,		/* push symbol arg */
	DLA_EXPR_IDX = 4,		/* push loop level arg's tile index */
	DLA_EXPR_OFF = 5,		/* ... its first element (idx * tile) */
	DLA_EXPR_LEN = 6,		/* ... its elements (tail on the last) */
	DLA_EXPR_ADD = 16,		/* a b -- a + b */
	DLA_EXPR_SUB = 17,		/* a b -- a - b */
	DLA_EXPR_MUL = 18,
	DLA_EXPR_DIV = 19,
	DLA_EXPR_MOD = 20,
	DLA_EXPR_MIN = 21,
	DLA_EXPR_MAX = 22,
	DLA_EXPR_CDIV = 23,		/* a b -- ceil(a / b) */
	/*
	 * The same eight with the operand as b: a -- a op arg
	 * (DLA_EXPR_ADD + DLA_EXPR_IMM is "add arg", ...)
	 */
	DLA_EXPR_IMM = 16
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_VPUX_TASK_H__ */
