// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Task validation: every rule gets a task that breaks it in one field.
 * Each must fail with its exact error code, name the op (kind + index) or
 * descriptor/barrier and the field in its dla_error() message, and leave
 * the engines untouched (no START, no engine register written).
 */
#include "fw_test.h"
#include "vpux_dpu_rules.h"
#include "vpux_shave_rt.h"

struct vcase {
	const char *name;
	int err;
	const char *msg;	/* substring of the dla_error() message */
};

static const struct vcase cases[] = {
	{ "magic", DLA_ERR_BAD_MAGIC, "descriptor: field magic" },
	{ "version major", DLA_ERR_BAD_VERSION, "field version" },
	{ "version minor newer", DLA_ERR_BAD_VERSION, "field version" },
	{ "header_size", DLA_ERR_HEADER_SIZE, "field header_size" },
	{ "flags", DLA_ERR_RESERVED, "descriptor: field flags" },
	{ "reserved", DLA_ERR_RESERVED, "descriptor: field reserved" },
	{ "entry 0 too small", DLA_ERR_HEADER_SIZE, "address_list[0].size" },
	{ "num_barriers > limit", DLA_ERR_TOO_MANY_BARRIERS, "num_barriers" },
	{ "barrier table past entry 0", DLA_ERR_TABLE_RANGE, "barriers_offset" },
	{ "barrier table offset wraps u32", DLA_ERR_TABLE_RANGE, "barriers_offset" },
	{ "op count > limit", DLA_ERR_TOO_MANY_OPS, "ops.count" },
	{ "op counts sum > limit", DLA_ERR_TOO_MANY_OPS, "ops.count" },
	{ "op list past entry 0", DLA_ERR_TABLE_RANGE, "ops.offset" },
	{ "no ops", DLA_ERR_EMPTY, "ops.count" },
	{ "barrier reserved", DLA_ERR_RESERVED, "barrier 1: field reserved" },
	{ "consumer counts > edge limit", DLA_ERR_TOO_MANY_DEPS, "consumer_count" },
	{ "wait list too long", DLA_ERR_LIST_LEN, "dpu op 0: field waits" },
	{ "unused wait slot set", DLA_ERR_RESERVED, "dpu op 0: field waits" },
	{ "wait barrier id", DLA_ERR_BARRIER_ID, "dpu op 0: field waits" },
	{ "duplicate update", DLA_ERR_DUP_BARRIER, "dpu op 0: field updates" },
	{ "deps reserved", DLA_ERR_RESERVED, "dpu op 0: field deps.reserved" },
	{ "producer count too small", DLA_ERR_PRODUCER_COUNT, "dpu op 0: field updates" },
	{ "producer count too large", DLA_ERR_PRODUCER_COUNT, "barrier 1: field producer_count" },
	{ "consumer count too small", DLA_ERR_CONSUMER_COUNT, "dpu op 0: field waits" },
	{ "consumer count too large", DLA_ERR_CONSUMER_COUNT, "barrier 2: field consumer_count" },
	{ "cycle", DLA_ERR_CYCLE, "dma op 0: field waits" },
	{ "self loop", DLA_ERR_CYCLE, "dma op 1: field waits" },
	{ "dma flags", DLA_ERR_FLAGS, "dma op 0: field flags" },
	{ "dma reserved", DLA_ERR_RESERVED, "dma op 0: field reserved" },
	{ "dma len 0", DLA_ERR_SHAPE, "dma op 0: field len" },
	{ "dma count 0", DLA_ERR_SHAPE, "dma op 0: field count" },
	{ "dma src strides past ref", DLA_ERR_EXTENT, "dma op 0: field src" },
	{ "dma dst strides past ref", DLA_ERR_EXTENT, "dma op 0: field dst" },
	{ "dma strides overflow u64", DLA_ERR_OVERFLOW, "dma op 0: field src_stride" },
	{ "ref index past list", DLA_ERR_ADDR_INDEX, "dma op 0: field src" },
	{ "ref index past limit", DLA_ERR_ADDR_INDEX, "dma op 0: field src" },
	{ "ref past its buffer", DLA_ERR_BUF_RANGE, "dma op 0: field src" },
	{ "ref offset near 2^32", DLA_ERR_BUF_RANGE, "dma op 0: field src" },
	{ "ref flags", DLA_ERR_FLAGS, "dma op 0: field src" },
	{ "cmx tile", DLA_ERR_CMX_RANGE, "dma op 0: field dst" },
	{ "cmx range", DLA_ERR_CMX_RANGE, "dma op 0: field dst" },
	{ "empty ref with index", DLA_ERR_UNUSED_REF, "dma op 0: field src" },
	{ "missing ref", DLA_ERR_MISSING_REF, "dma op 0: field src" },
	{ "dpu op", DLA_ERR_DPU_OP, "dpu op 0: field op" },
	{ "dpu flags", DLA_ERR_FLAGS, "dpu op 0: field flags" },
	{ "dpu reserved0", DLA_ERR_RESERVED, "dpu op 0: field reserved" },
	{ "dpu reserved[1]", DLA_ERR_RESERVED, "dpu op 0: field reserved" },
	{ "dpu zero channels", DLA_ERR_SHAPE, "dpu op 0: field shape" },
	{ "dpu out_h inconsistent", DLA_ERR_SHAPE, "dpu op 0: field out_h" },
	{ "dpu groups", DLA_ERR_SHAPE, "dpu op 0: field groups" },
	{ "dpu stride 0", DLA_ERR_SHAPE, "dpu op 0: field kernel" },
	{ "dpu input too small", DLA_ERR_EXTENT, "dpu op 0: field in" },
	{ "dpu weights too small", DLA_ERR_EXTENT, "dpu op 0: field in2" },
	{ "dpu output too small", DLA_ERR_EXTENT, "dpu op 0: field out" },
	{ "dpu bias without flag", DLA_ERR_UNUSED_REF, "dpu op 0: field bias" },
	{ "dpu per-channel quant missing", DLA_ERR_MISSING_REF, "dpu op 0: field quant" },
	{ "dpu per-channel quant small", DLA_ERR_EXTENT, "dpu op 0: field quant" },
	{ "maxpool with weights", DLA_ERR_UNUSED_REF, "dpu op 0: field in2" },
	{ "add shape mismatch", DLA_ERR_SHAPE, "dpu op 0: field out_h" },
	{ "shave args too large", DLA_ERR_ARGS_SIZE, "shave op 0: field args.size" },
	{ "shave args missing", DLA_ERR_MISSING_REF, "shave op 0: field args" },
	{ "shave window > 2^28", DLA_ERR_WINDOW, "shave op 0: field windows[2]" },
	{ "shave window past buffer", DLA_ERR_BUF_RANGE, "shave op 0: field windows[1]" },
	{ "shave reserved", DLA_ERR_RESERVED, "shave op 0: field reserved" },
	{ "consumer counts > 8 per op", DLA_ERR_CONSUMER_COUNT, "barrier 2: field consumer_count" },
	{ "mmu context", DLA_ERR_CTX, "mmu context" },
	{ "priority", DLA_ERR_PRIORITY, "priority" },
	{ "dpu in_zp above uint8", DLA_ERR_QUANT, "dpu op 0: field in_zp" },
	{ "dpu in2_zp below uint8", DLA_ERR_QUANT, "dpu op 0: field in2_zp" },
	{ "dpu out_zp above int8", DLA_ERR_QUANT, "dpu op 0: field out_zp" },
	{ "dpu requant mult 0", DLA_ERR_QUANT, "dpu op 0: field requant" },
	{ "dpu requant shift 32", DLA_ERR_QUANT, "dpu op 0: field requant" },
	{ "dpu act_max above uint8", DLA_ERR_QUANT, "dpu op 0: field act_max" },
	{ "dpu act_min above act_max", DLA_ERR_QUANT, "dpu op 0: field act_min" },
	{ "conv with in_scale", DLA_ERR_QUANT, "dpu op 0: field in_scale" },
	{ "add in2_scale mult 0", DLA_ERR_QUANT, "dpu op 0: field in2_scale" },
	{ "add with bias", DLA_ERR_FLAGS, "dpu op 0: field flags" },
	{ "matmul kernel 2", DLA_ERR_SHAPE, "dpu op 0: field kernel" },
	{ "matmul dilation 3", DLA_ERR_SHAPE, "dpu op 0: field kernel" },
	{ "mul padding", DLA_ERR_SHAPE, "dpu op 0: field pad" },
	{ "mul groups 2", DLA_ERR_SHAPE, "dpu op 0: field groups" },
	{ "matmul in_c > max K", DLA_ERR_SHAPE, "dpu op 0: field reduction" },
	{ "maxpool groups 2", DLA_ERR_SHAPE, "dpu op 0: field groups" },
	{ "conv reduction > max K", DLA_ERR_SHAPE, "dpu op 0: field reduction" },
	{ "dpu fp16 act 5", DLA_ERR_QUANT, "dpu op 0: field act" },
	{ "dpu fp16 zero word set", DLA_ERR_RESERVED, "dpu op 0: field reserved" },
	{ "dpu fp16 scale without SCALE", DLA_ERR_QUANT, "dpu op 0: field scale" },
	{ "dpu fp16 slope without LEAKY", DLA_ERR_QUANT, "dpu op 0: field slope" },
	{ "dpu fp16 clamp_hi NaN", DLA_ERR_QUANT, "dpu op 0: field act_max" },
	{ "dpu fp16 clamp_lo above clamp_hi", DLA_ERR_QUANT, "dpu op 0: field act_min" },
	{ "dpu fp16 with IN_SIGNED", DLA_ERR_FLAGS, "dpu op 0: field flags" },
	{ "dpu fp16 SCALE with PER_CHANNEL", DLA_ERR_FLAGS, "dpu op 0: field flags" },
	{ "dpu SUB without FP16", DLA_ERR_FLAGS, "dpu op 0: field flags" },
	{ "dpu SCALE without FP16", DLA_ERR_FLAGS, "dpu op 0: field flags" },
	/* ELF kernel tasks (struct dla_shave_task_op), from case 94 on */
	{ "elf reserved[8]", DLA_ERR_RESERVED, "shave op 0: field reserved" },
	{ "elf args too large", DLA_ERR_ARGS_SIZE, "shave op 0: field args.size" },
	{ "elf code.size 0", DLA_ERR_WINDOW, "shave op 0: field code.size" },
	{ "elf code.size 2", DLA_ERR_WINDOW, "shave op 0: field code.size" },
	{ "elf code.size not a multiple of 4", DLA_ERR_WINDOW, "shave op 0: field code.size" },
	{ "elf code.size > max", DLA_ERR_WINDOW, "shave op 0: field code.size" },
	{ "elf data.size not a multiple of 4", DLA_ERR_WINDOW, "shave op 0: field data.size" },
	{ "elf data.size > max", DLA_ERR_WINDOW, "shave op 0: field data.size" },
	{ "elf win_f.size > max", DLA_ERR_WINDOW, "shave op 0: field win_f.size" },
	{ "elf entry = code.size", DLA_ERR_SHAVE_TASK, "shave op 0: field entry" },
	{ "elf entry odd", DLA_ERR_SHAVE_TASK, "shave op 0: field entry" },
	{ "elf stack_size below min", DLA_ERR_SHAVE_TASK, "shave op 0: field stack_size" },
	{ "elf stack_size above max", DLA_ERR_SHAVE_TASK, "shave op 0: field stack_size" },
	{ "elf stack_size misaligned", DLA_ERR_SHAVE_TASK, "shave op 0: field stack_size" },
	{ "elf tile = tile count", DLA_ERR_SHAVE_TASK, "shave op 0: field tile" },
	{ "elf budget > max", DLA_ERR_SHAVE_TASK, "shave op 0: field budget" },
	{ "elf args past buffer", DLA_ERR_BUF_RANGE, "shave op 0: field args" },
	{ "elf code past buffer", DLA_ERR_BUF_RANGE, "shave op 0: field code" },
	{ "elf code index past list", DLA_ERR_ADDR_INDEX, "shave op 0: field code" },
	{ "elf data past buffer", DLA_ERR_BUF_RANGE, "shave op 0: field data" },
	{ "elf data empty with index", DLA_ERR_UNUSED_REF, "shave op 0: field data" },
	{ "elf win_f past buffer", DLA_ERR_BUF_RANGE, "shave op 0: field win_f" },
	{ "elf win_f cmx past tile", DLA_ERR_CMX_RANGE, "shave op 0: field win_f" },
	{ "elf win_f read-only", DLA_ERR_READONLY, "shave op 0: field win_f" },
	{ "elf args flags", DLA_ERR_FLAGS, "shave op 0: field args" },
	{ "tile window past the device", DLA_ERR_CMX_WINDOW, "descriptor: field tile_count" },
	{ "tile window empty", DLA_ERR_CMX_WINDOW, "descriptor: field tile_count" },
	{ "tile window without its flag", DLA_ERR_RESERVED, "descriptor: field tile_first" },
	{ "tile window flag at minor 1", DLA_ERR_RESERVED, "descriptor: field flags" },
	{ "cmx tile below the window", DLA_ERR_CMX_WINDOW, "dma op 0: field dst" },
	{ "cmx tile above the window", DLA_ERR_CMX_WINDOW, "dma op 1: field src" },
	{ "elf tile outside the window", DLA_ERR_CMX_WINDOW, "shave op 0: field tile" },
	/* the runtime kernel of an ELF task, from case 126 on */
	{ "elf runtime.size 2", DLA_ERR_WINDOW, "shave op 0: field runtime.size" },
	{ "elf runtime.size > max", DLA_ERR_WINDOW, "shave op 0: field runtime.size" },
	{ "elf runtime.size not a multiple of 4", DLA_ERR_WINDOW, "shave op 0: field runtime.size" },
	{ "elf runtime_entry = runtime.size", DLA_ERR_SHAVE_TASK, "shave op 0: field runtime_entry" },
	{ "elf runtime_entry odd", DLA_ERR_SHAVE_TASK, "shave op 0: field runtime_entry" },
	{ "elf runtime_entry without runtime", DLA_ERR_SHAVE_TASK, "shave op 0: field runtime_entry" },
	{ "elf runtime past buffer", DLA_ERR_BUF_RANGE, "shave op 0: field runtime" },
	{ "elf runtime index past list", DLA_ERR_ADDR_INDEX, "shave op 0: field runtime" },
};

/* declare the CMX tile window [@first, @first + @count) */
static void window(struct tb *t, unsigned int first, unsigned int count)
{
	t->d->version_minor = 2;
	t->d->flags |= DLA_TASK_F_TILES;
	t->d->tile_first = (dla_u16)first;
	t->d->tile_count = (dla_u16)count;
}

/*
 * Make the base task's DPU op an element-wise op or a matmul @op of the
 * same 8x8x8 tensors: no window, no bias, the quantisation it needs.
 */
static void flat(struct dla_dpu_op *d, unsigned int op)
{
	d->op = op;
	d->flags = 0;
	d->kernel_h = d->kernel_w = d->stride_h = d->stride_w = 0;
	d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = 0;
	memset(&d->bias, 0, sizeof(d->bias));
	d->in2.size = op == VPUX_DPU_OP_MATMUL ? 64 : 512;
	tb_dpu_quant(d);
}

/*
 * Make the base task's DPU op FP16 (VPUX_DPU_F_FP16, with its bias): the
 * words of the integer output stage become struct vpux_hw_dpu_fparams,
 * all zero (no activation, no scale stage). The refs stay the int8
 * sizes: the rule a case breaks is checked before them.
 */
static void fp16(struct dla_dpu_op *d)
{
	d->flags = VPUX_DPU_F_FP16 | VPUX_DPU_F_BIAS;
	d->in_zp = d->in2_zp = d->out_zp = d->act_min = d->act_max = 0;
	d->requant = d->in_scale = d->in2_scale = (struct dla_requant){ 0, 0 };
}

/*
 * Make the base task's SHAVE op a valid ELF kernel task: 256 bytes of
 * code in buffer 2 (read-only is allowed), arguments and RW data in
 * buffer 3, WIN_F the CMX slice the base task's window was.
 */
static struct dla_shave_task_op *elf(struct tb *t)
{
	struct dla_shave_task_op *e = (struct dla_shave_task_op *)t->shave;
	struct dla_op_deps deps = e->deps;

	memset(e, 0, sizeof(*e));
	e->deps = deps;
	e->kernel_id = VPUX_SHAVE_KERNEL_ELF;
	e->entry = 8;
	e->args = tb_ref(3, 0, 64);
	e->code = tb_ref(2, 0, 256);
	e->data = tb_ref(3, 256, 128);
	e->win_f = tb_cmx(1, 0, 512);
	e->stack_size = 1024;
	e->tile = 1;
	e->kernel = 3;
	e->invocation = 9;
	e->budget = 16;
	return e;
}

/* ...with its own runtime kernel: 128 bytes in buffer 2, entry 4 */
static struct dla_shave_task_op *elf_rt(struct tb *t)
{
	struct dla_shave_task_op *e = elf(t);

	e->runtime = tb_ref(2, 256, 128);
	e->runtime_entry = 4;
	e->runtime_kernel = 5;
	return e;
}

/* Break the base task in case @i; may change ctx/prio. */
static void mutate(unsigned int i, struct tb *t, struct ft *f,
		   unsigned int *ctx, unsigned int *prio)
{
	struct dla_dma_op *m = &t->dma[0];
	struct dla_dpu_op *d = &t->dpu[0];
	struct dla_shave_op *s = &t->shave[0];

	switch (i) {
	case 0: t->d->magic++; break;
	case 1: t->d->version_major = 2; break;
	case 2: t->d->version_minor = DLA_TASK_VERSION_MINOR + 1; break;
	case 3: t->d->header_size = 64; break;
	case 4: t->d->flags = 1u << 2; break;
	case 5: t->d->reserved[1] = 1; break;
	case 6: f->list[0].size = sizeof(struct dla_task_desc) - 4; break;
	case 7: t->d->num_barriers = DLA_MAX_BARRIERS + 1; break;
	case 8: t->d->barriers_offset = (dla_u32)t->size - 8; break;
	case 9: t->d->barriers_offset = 0xfffffff8u; break;
	case 10: t->d->ops[DLA_OP_DPU].count = DLA_MAX_OPS_PER_TASK + 1; break;
	case 11:
		/* every list in range of a (claimed) huge entry 0, sum too big */
		f->list[0].size = 1ull << 40;
		t->d->ops[DLA_OP_DMA].count = DLA_MAX_OPS_PER_TASK;
		t->d->ops[DLA_OP_DPU].count = 1;
		break;
	case 12: t->d->ops[DLA_OP_SHAVE].offset = (dla_u32)t->size - 8; break;
	case 13:
		t->d->ops[0].count = t->d->ops[1].count = t->d->ops[2].count = 0;
		break;
	case 14: t->bar[1].reserved = 1; break;
	case 15: t->bar[0].consumer_count = 0xffff; break;
	case 16: d->deps.num_waits = DLA_MAX_OP_WAITS + 1; break;
	case 17: d->deps.waits[5] = 1; break;
	case 18: d->deps.waits[0] = 7; break;
	case 19: tb_update(t, &d->deps, 1); break;
	case 20: d->deps.reserved = 1; break;
	case 21: t->bar[1].producer_count = 0; break;
	case 22: t->bar[1].producer_count = 2; break;
	case 23: t->bar[0].consumer_count = 0; break;
	case 24: t->bar[2].consumer_count = 2; break;
	case 25: tb_wait(t, &m->deps, 2); break;
	case 26: tb_update(t, &t->dma[1].deps, 2); break;
	case 27: m->flags = 1; break;
	case 28: m->reserved = 1; break;
	case 29: m->len = 0; break;
	case 30: m->count[1] = 0; break;
	case 31: m->count[0] = 2; m->src_stride[0] = 512; break;
	case 32: m->count[0] = 2; m->dst_stride[0] = 512; break;
	case 33:
		m->count[0] = m->count[1] = m->count[2] = 0xffffffffu;
		m->src_stride[0] = m->src_stride[1] = 0xffffffffu;
		m->src_stride[2] = 0xffffffffu;
		break;
	case 34: m->src.index = 9; break;
	case 35: m->src.index = DLA_MAX_ADDR_ENTRIES + 5; break;
	case 36: m->src.offset = 4000; break;
	case 37: m->src.offset = 0xffffff00u; break;
	case 38: m->src.flags = 2; break;
	case 39: m->dst.index = 5; break;
	case 40: m->dst.offset = 65536 - 100; break;
	case 41: m->src.size = 0; m->src.offset = 0; break;
	case 42: memset(&m->src, 0, sizeof(m->src)); break;
	case 43: d->op = VPUX_DPU_OPS; break;
	case 44: d->flags |= 0x100; break;
	case 45: d->reserved0 = 1; break;
	case 46: d->reserved[1] = 1; break;
	case 47: d->in_c = 0; break;
	case 48: d->out_h = 7; break;
	case 49: d->groups = 3; break;
	case 50: d->stride_w = 0; break;
	case 51: d->in.size = 511; break;
	case 52: d->in2.size = 575; break;
	case 53: d->out.size = 500; break;
	case 54: d->flags &= ~VPUX_DPU_F_BIAS; break;
	case 55:
		d->flags |= VPUX_DPU_F_PER_CHANNEL;
		d->requant = (struct dla_requant){ 0, 0 };
		break;
	case 56:
		d->flags |= VPUX_DPU_F_PER_CHANNEL;
		d->requant = (struct dla_requant){ 0, 0 };
		d->quant = tb_ref(2, 64, 63);
		break;
	case 57:
		d->op = VPUX_DPU_OP_MAXPOOL;
		d->flags = 0;
		memset(&d->bias, 0, sizeof(d->bias));
		break;
	case 58:
		flat(d, VPUX_DPU_OP_ADD);
		d->in_h = 4;
		break;
	case 59: s->args.size = VPUX_SHAVE_ARGS_MAX + 1; break;
	case 60: memset(&s->args, 0, sizeof(s->args)); break;
	case 61: s->windows[2] = tb_ref(3, 0, DLA_SHAVE_WINDOW_MAX + 1); break;
	case 62: s->windows[1] = tb_ref(3, 4000, 512); break;
	case 63: s->reserved = 1; break;
	case 64: t->bar[2].consumer_count = 4 * DLA_MAX_OP_WAITS; break;
	case 65: *ctx = 4; break;
	case 66: *prio = DLA_PRIO_LEVELS; break;
	case 67: d->in_zp = 256; break;
	case 68: d->in2_zp = -1; break;
	case 69: d->flags |= VPUX_DPU_F_OUT_SIGNED; d->out_zp = 128; break;
	case 70: d->requant.mult = 0; break;
	case 71: d->requant.shift = 32; break;
	case 72: d->act_max = 256; break;
	case 73: d->act_min = 1; break;
	case 74: d->in_scale.mult = 1 << 30; break;
	case 75: flat(d, VPUX_DPU_OP_ADD); d->in2_scale.mult = 0; break;
	case 76: flat(d, VPUX_DPU_OP_ADD); d->flags = VPUX_DPU_F_BIAS; break;
	case 77: flat(d, VPUX_DPU_OP_MATMUL); d->kernel_w = 2; break;
	case 78: flat(d, VPUX_DPU_OP_MATMUL); d->dilation_h = 3; break;
	case 79: flat(d, VPUX_DPU_OP_MUL); d->pad_left = 1; break;
	case 80: flat(d, VPUX_DPU_OP_MUL); d->groups = 2; break;
	case 81:
		flat(d, VPUX_DPU_OP_MATMUL);
		d->in_c = VPUX_DPU_MAX_K + 1;
		break;
	case 82:
		d->op = VPUX_DPU_OP_MAXPOOL;
		d->flags = 0;
		memset(&d->bias, 0, sizeof(d->bias));
		memset(&d->in2, 0, sizeof(d->in2));
		d->groups = 2;
		break;
	case 83:
		/* 65 * 65 * 8 > 32768, with out_h = out_w = 8 */
		d->kernel_h = d->kernel_w = 65;
		d->pad_top = d->pad_left = 63;
		break;
	/* FP16: fparams.act is in_zp's word, zero0[] in2_zp's and out_zp's,
	 * clamp_lo/hi act_min's/act_max's, scale/shift requant's, slope
	 * in_scale.mult's */
	case 84: fp16(d); d->in_zp = VPUX_DPU_ACTS; break;
	case 85: fp16(d); d->out_zp = 1; break;
	case 86: fp16(d); d->requant.mult = 0x3f800000; break;
	case 87: fp16(d); d->in_scale.mult = 0x3dcccccd; break;
	case 88:
		fp16(d);
		d->in_zp = VPUX_DPU_ACT_CLAMP;
		d->act_max = 0x7fc00000;
		break;
	case 89:
		fp16(d);
		d->in_zp = VPUX_DPU_ACT_CLAMP;
		d->act_min = 0x3f800000;	/* 1.0 > 0.5 */
		d->act_max = 0x3f000000;
		break;
	case 90: fp16(d); d->flags |= VPUX_DPU_F_IN_SIGNED; break;
	case 91:
		fp16(d);
		d->flags |= VPUX_DPU_F_SCALE | VPUX_DPU_F_PER_CHANNEL;
		d->requant.mult = 0x3f800000;
		break;
	case 92: flat(d, VPUX_DPU_OP_SUB); break;
	case 93: d->flags |= VPUX_DPU_F_SCALE; break;
	case 94: elf(t)->reserved[8] = 1; break;
	case 95: elf(t)->args.size = VPUX_SHAVE_ARGS_MAX + 1; break;
	case 96: elf(t)->code.size = 0; break;
	case 97: elf(t)->code.size = 2; break;
	case 98: elf(t)->code.size = 258; break;
	case 99: elf(t)->code.size = VPUX_SHAVE_CODE_MAX + 4; break;
	case 100: elf(t)->data.size = 126; break;
	case 101: elf(t)->data.size = VPUX_SHAVE_DATA_MAX + 4; break;
	case 102: elf(t)->win_f.size = VPUX_SHAVE_WIN_F_MAX + 1; break;
	case 103: elf(t)->entry = 256; break;
	case 104: elf(t)->entry = 9; break;
	case 105: elf(t)->stack_size = VPUX_SHAVE_STACK_MIN - 16; break;
	case 106: elf(t)->stack_size = VPUX_SHAVE_STACK_MAX + 16; break;
	case 107: elf(t)->stack_size = 1000; break;
	case 108: elf(t)->tile = f->hw.tiles; break;
	case 109: elf(t)->budget = VPUX_SHAVE_BUDGET_MAX + 1; break;
	case 110: elf(t)->args.offset = 4096 - 32; break;
	case 111: elf(t)->code.offset = 4096 - 128; break;
	case 112: elf(t)->code.index = 7; break;
	case 113: elf(t)->data.offset = 4096 - 64; break;
	case 114: elf(t)->data = tb_ref(3, 0, 0); break;
	case 115: elf(t)->win_f = tb_ref(4, 4000, 512); break;
	case 116: elf(t)->win_f = tb_cmx(1, 65536 - 256, 512); break;
	case 117:
		elf(t)->win_f = tb_ref(2, 0, 512);
		f->list[2].flags = DLA_USER_BUF_READONLY;
		break;
	case 118: elf(t)->args.flags = 4; break;
	case 119: window(t, f->hw.tiles - 1, 2); break;
	case 120: window(t, 0, 0); break;
	case 121: t->d->tile_first = 1; break;
	case 122: window(t, 0, 2); t->d->version_minor = 1; break;
	case 123: window(t, 1, 1); break;
	/* the pipeline's DMA op 1 reads tile 1, the DPU op writes it */
	case 124: window(t, 0, 1); break;
	case 125:
		/* every CMX reference on tile 1, the window 1-1, the ELF on 0 */
		window(t, 1, 1);
		m->dst.index = d->in.index = d->in2.index = 1;
		elf(t)->tile = 0;
		break;
	case 126: elf_rt(t)->runtime.size = 2; break;
	case 127: elf_rt(t)->runtime.size = VPUX_SHAVE_RT_CODE_MAX + 4; break;
	case 128: elf_rt(t)->runtime.size = 130; break;
	case 129: elf_rt(t)->runtime_entry = 128; break;
	case 130: elf_rt(t)->runtime_entry = 5; break;
	case 131: elf(t)->runtime_entry = 4; break;
	case 132: elf_rt(t)->runtime.offset = 4096 - 64; break;
	case 133: elf_rt(t)->runtime.index = 7; break;
	}
}

static void test_rules(void)
{
	static unsigned char mem[65536];
	struct ft f;
	struct tb t;
	unsigned int i, n = sizeof(cases) / sizeof(cases[0]);
	int h;

	ft_init(&f, 1, 1, 1);
	ft_pipeline(&t, mem);
	ft_list(&f, &t, 4, 4096);
	h = ft_submit(&f, 0);
	tap_check(h >= 0, "base task is valid");
	fake_hw_run(&f.hw);
	tap_check(ft_status(&f, h).state == DLA_TASK_DONE &&
		  ft_status(&f, h).ops_done == 4, "base task runs");
	dla_user_release(f.dev, h);

	for (i = 0; i < n; i++) {
		uint32_t starts = fake_hw_starts(&f.hw);
		uint32_t writes = f.hw.eng_writes;
		unsigned int ctx = 0, prio = 0;
		const char *msg;

		ft_pipeline(&t, mem);
		f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t.size, t.buf, 0 };
		f.list[2].flags = 0;
		mutate(i, &t, &f, &ctx, &prio);
		h = dla_user_submit(f.dev, f.list, f.n, ctx, prio);
		msg = dla_user_last_error();
		tap_check(h == -cases[i].err && fake_hw_starts(&f.hw) == starts &&
			  f.hw.eng_writes == writes &&
			  strstr(msg, cases[i].msg) != NULL,
			  "reject %s: -%d (want -%d), nothing programmed, "
			  "message names '%s'", cases[i].name, -h, cases[i].err,
			  cases[i].msg);
		if (h >= 0) {
			fake_hw_run(&f.hw);
			dla_user_release(f.dev, h);
		}
	}

	/* a valid ELF kernel task, its code read-only, is accepted */
	ft_pipeline(&t, mem);
	elf(&t);
	f.list[2].flags = DLA_USER_BUF_READONLY;
	h = ft_submit_tb(&f, &t, 0);
	tap_check(h >= 0, "an ELF kernel task with read-only code is valid (%d: %s)",
		  h, h < 0 ? dla_user_last_error() : "");
	if (h >= 0) {
		fake_hw_run(&f.hw);
		dla_user_release(f.dev, h);
	}
	/* ...and with its own runtime kernel, read-only too */
	ft_pipeline(&t, mem);
	elf_rt(&t);
	h = ft_submit_tb(&f, &t, 0);
	tap_check(h >= 0, "an ELF kernel task with its own runtime kernel is valid (%d: %s)",
		  h, h < 0 ? dla_user_last_error() : "");
	if (h >= 0) {
		fake_hw_run(&f.hw);
		dla_user_release(f.dev, h);
	}
	f.list[2].flags = 0;

	/* a task confined to the tiles it uses is valid, ELF tile too */
	ft_pipeline(&t, mem);
	elf(&t);
	window(&t, 0, 2);
	h = ft_submit_tb(&f, &t, 0);
	tap_check(h >= 0, "a task whose CMX tiles are inside its tile window 0-1 is valid (%d: %s)",
		  h, h < 0 ? dla_user_last_error() : "");
	if (h >= 0) {
		fake_hw_run(&f.hw);
		dla_user_release(f.dev, h);
	}

	/* rejected tasks left no slot behind */
	ft_pipeline(&t, mem);
	f.list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t.size, t.buf, 0 };
	{
		int hs[DLA_MAX_TASKS], ok = 1;

		for (i = 0; i < DLA_MAX_TASKS; i++)
			ok &= (hs[i] = ft_submit(&f, 0)) >= 0;
		tap_check(ok, "after %u rejections all %u slots are free", n,
			  DLA_MAX_TASKS);
		fake_hw_run(&f.hw);
		for (i = 0; i < DLA_MAX_TASKS; i++) {
			ok &= ft_status(&f, hs[i]).state == DLA_TASK_DONE;
			dla_user_release(f.dev, hs[i]);
		}
		tap_check(ok, "and their tasks run");
	}
	ft_fini(&f);
}

/*
 * Every code's category (dla_err_category_of()): the table below names
 * every DLA_ERR_* with the category the kernel and libvpux report for it.
 * A code added to dla_err.h without a case does not build (-Wswitch); one
 * added with a case but not here fails the scan over 0..999.
 */
static void test_err_categories(void)
{
	static const struct { int code, cat; } t[] = {
		{ DLA_OK, DLA_ERRC_NONE },
		{ DLA_ERR_INVAL, DLA_ERRC_DEVICE }, { DLA_ERR_BUSY, DLA_ERRC_DEVICE },
		{ DLA_ERR_NODEV, DLA_ERRC_DEVICE }, { DLA_ERR_NOENT, DLA_ERRC_DEVICE },
		{ DLA_ERR_PORT, DLA_ERRC_DEVICE }, { DLA_ERR_RUNNING, DLA_ERRC_DEVICE },
		{ DLA_ERR_ADDR_INDEX, DLA_ERRC_INVALID },
		{ DLA_ERR_BAD_MAGIC, DLA_ERRC_INVALID },
		{ DLA_ERR_BAD_VERSION, DLA_ERRC_INVALID },
		{ DLA_ERR_HEADER_SIZE, DLA_ERRC_INVALID },
		{ DLA_ERR_RESERVED, DLA_ERRC_INVALID },
		{ DLA_ERR_TOO_MANY_OPS, DLA_ERRC_INVALID },
		{ DLA_ERR_TOO_MANY_BARRIERS, DLA_ERRC_INVALID },
		{ DLA_ERR_TOO_MANY_DEPS, DLA_ERRC_INVALID },
		{ DLA_ERR_TABLE_RANGE, DLA_ERRC_INVALID },
		{ DLA_ERR_OVERFLOW, DLA_ERRC_INVALID },
		{ DLA_ERR_EMPTY, DLA_ERRC_INVALID },
		{ DLA_ERR_LIST_LEN, DLA_ERRC_INVALID },
		{ DLA_ERR_BARRIER_ID, DLA_ERRC_INVALID },
		{ DLA_ERR_DUP_BARRIER, DLA_ERRC_INVALID },
		{ DLA_ERR_PRODUCER_COUNT, DLA_ERRC_INVALID },
		{ DLA_ERR_CONSUMER_COUNT, DLA_ERRC_INVALID },
		{ DLA_ERR_CYCLE, DLA_ERRC_INVALID },
		{ DLA_ERR_BUF_RANGE, DLA_ERRC_INVALID },
		{ DLA_ERR_CMX_RANGE, DLA_ERRC_INVALID },
		{ DLA_ERR_EXTENT, DLA_ERRC_INVALID },
		{ DLA_ERR_SHAPE, DLA_ERRC_INVALID },
		{ DLA_ERR_DPU_OP, DLA_ERRC_INVALID },
		{ DLA_ERR_FLAGS, DLA_ERRC_INVALID },
		{ DLA_ERR_ARGS_SIZE, DLA_ERRC_INVALID },
		{ DLA_ERR_WINDOW, DLA_ERRC_INVALID },
		{ DLA_ERR_MISSING_REF, DLA_ERRC_INVALID },
		{ DLA_ERR_UNUSED_REF, DLA_ERRC_INVALID },
		{ DLA_ERR_CTX, DLA_ERRC_INVALID },
		{ DLA_ERR_PRIORITY, DLA_ERRC_INVALID },
		{ DLA_ERR_QUANT, DLA_ERRC_INVALID },
		{ DLA_ERR_READONLY, DLA_ERRC_INVALID },
		{ DLA_ERR_SHAVE_TASK, DLA_ERRC_INVALID },
		{ DLA_ERR_CMX_WINDOW, DLA_ERRC_INVALID },
		{ DLA_ERR_PLAN_FORMAT, DLA_ERRC_INVALID },
		{ DLA_ERR_PLAN_DEPTH, DLA_ERRC_INVALID },
		{ DLA_ERR_PLAN_EXPR, DLA_ERRC_INVALID },
		{ DLA_ERR_PLAN_SYMBOL, DLA_ERRC_INVALID },
		{ DLA_ERR_PLAN_COUNT, DLA_ERRC_INVALID },
		{ DLA_ERR_PLAN_PATCH, DLA_ERRC_INVALID },
		{ DLA_ERR_ENGINE, DLA_ERRC_ENGINE },
		{ DLA_ERR_MMU_FAULT, DLA_ERRC_FAULT },
		{ DLA_ERR_ABORTED, DLA_ERRC_ABORTED },
		{ DLA_ERR_CHANGED, DLA_ERRC_INVALID },
		{ DLA_ERR_EXPR_OVERFLOW, DLA_ERRC_INVALID },
		{ DLA_ERR_EXPR_DIV0, DLA_ERRC_INVALID },
	};
	unsigned int i, bad = 0, codes = 0;
	int n;

	for (n = 0; n < 1000; n++) {
		int want = -1, got = dla_err_category_of((enum dla_err)n);

		for (i = 0; i < DLA_ARRAY_SIZE(t); i++)
			if (t[i].code == n)
				want = t[i].cat;
		codes += want >= 0;
		if (got != want) {
			tap_diag("code %d: category %d, the table says %d", n,
				 got, want);
			bad++;
		}
	}
	tap_check(!bad && codes == DLA_ARRAY_SIZE(t),
		  "each of the %u error codes has its category, no other number has one",
		  codes);
	tap_check(dla_err_category(-DLA_ERR_MMU_FAULT) == DLA_ERRC_FAULT &&
		  dla_err_category(DLA_ERR_CYCLE) == DLA_ERRC_INVALID,
		  "dla_err_category() takes a code negated or not");
	tap_check(dla_err_category(999) == DLA_ERRC_DEVICE &&
		  dla_err_category(-2147483647 - 1) == DLA_ERRC_DEVICE,
		  "a number that is no code is DEVICE");
}

int main(void)
{
	test_rules();
	test_err_categories();
	return tap_finish();
}
