// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op bodies: check an op record (a copy dla_task_prepare() read), resolve
 * its buffer references to device addresses and build its hardware
 * descriptor into the prepared task; program an engine with a prebuilt
 * descriptor. The builders run at prepare time only, without the port's
 * lock: they read the engine's constant device facts and nothing else of
 * it.
 */
#include "dla_priv.h"
#include "vpux_dpu_rules.h"

/* dla_resolve() modes */
#define DLA_REF_REQUIRED	0u	/* must name >= need bytes */
#define DLA_REF_UNUSED		1u	/* must be all zero */
#define DLA_REF_OPTIONAL	2u	/* either */

struct dla_opctx {
	struct dla_prep *p;
	dla_u32 kind;
	dla_u32 index;
};

static __attribute__((__cold__, __noinline__))
dla_s32 dla_fail(const struct dla_opctx *c, const char *field, dla_s32 err)
{
	return dla_op_fail(c->kind, c->index, field, err);
}

/* Empty ref: valid unless it must name a buffer or has stray fields. */
static __attribute__((__noinline__))
dla_s32 dla_resolve_empty(const struct dla_opctx *c, const char *field,
			  const struct dla_buf_ref *ref, dla_u32 mode)
{
	if (ref->index || ref->flags || ref->offset)
		return dla_fail(c, field, -DLA_ERR_UNUSED_REF);
	if (mode == DLA_REF_REQUIRED)
		return dla_fail(c, field, -DLA_ERR_MISSING_REF);
	return 0;
}

/*
 * Resolve @ref to a device address; @need is the number of bytes the op
 * touches from the start of the ref. Address-list entries are asked from
 * the port once per task (see DLA_ADDR_CACHE) and cached in the prepared
 * task's scratch.
 */
static inline __attribute__((__always_inline__))
dla_s32 dla_resolve(const struct dla_opctx *c, const char *field,
		    const struct dla_buf_ref *ref, dla_u32 mode, dla_u64 need,
		    dla_u64 *addr)
{
	struct dla_prep *p = c->p;
	const struct dla_engine *e = p->e;
	const struct dla_address *a;
	struct dla_addr_slot *slot;
	dla_u64 end;
	dla_u32 i;

	*addr = 0;
	if (!ref->size)
		return dla_resolve_empty(c, field, ref, mode);
	if (mode == DLA_REF_UNUSED)
		return dla_fail(c, field, -DLA_ERR_UNUSED_REF);
	if (ref->flags & ~DLA_REF_FLAGS_ALL)
		return dla_fail(c, field, -DLA_ERR_FLAGS);
	if (need > ref->size)
		return dla_fail(c, field, -DLA_ERR_EXTENT);
	end = (dla_u64)ref->offset + ref->size;
	i = ref->index;
	if (ref->flags & DLA_REF_CMX) {
		if (i >= e->n_tiles || end > e->cmx_size)
			return dla_fail(c, field, -DLA_ERR_CMX_RANGE);
		if (i < p->t->tile_first || i >= p->t->tile_end)
			return dla_fail(c, field, -DLA_ERR_CMX_WINDOW);
		p->t->cmx_tiles[i >> 5] |= 1u << (i & 31);	/* i < 64 */
		*addr = e->cmx_base + dla_mul_u32(i, e->cmx_size) + ref->offset;
		return 0;
	}
	if (i >= DLA_MAX_ADDR_ENTRIES)
		return dla_fail(c, field, -DLA_ERR_ADDR_INDEX);
	slot = &p->addr[i & (DLA_ADDR_CACHE - 1)];
	if (slot->tag != i + 1) {
		/* a plan expanding under the lock: resolved at prepare */
		if (p->no_port)
			return dla_fail(c, field, -DLA_ERR_ADDR_INDEX);
		if (dla_get_dma_address(p->drv, p->task_data, (dla_s16)i,
					&slot->a, DESTINATION_DMA)) {
			slot->tag = 0;
			return dla_fail(c, field, -DLA_ERR_ADDR_INDEX);
		}
		slot->tag = i + 1;
	}
	a = &slot->a;
	if (end > a->size)
		return dla_fail(c, field, -DLA_ERR_BUF_RANGE);
	if (dla_add_u64(a->addr, ref->offset, addr))
		return dla_fail(c, field, -DLA_ERR_OVERFLOW);
	return 0;
}

/*
 * Resolve @ref, which the op writes: as dla_resolve(), and the address-list
 * entry must not be read-only (the port's DLA_ADDR_READONLY). CMX is always
 * writable. Every written reference goes through here.
 */
static __attribute__((__noinline__))
dla_s32 dla_resolve_out(const struct dla_opctx *c, const char *field,
			const struct dla_buf_ref *ref, dla_u32 mode,
			dla_u64 need, dla_u64 *addr)
{
	dla_s32 ret = dla_resolve(c, field, ref, mode, need, addr);

	if (ret || !ref->size || (ref->flags & DLA_REF_CMX))
		return ret;
	/* resolved: the cache slot of ref->index holds its entry */
	if (c->p->addr[ref->index & (DLA_ADDR_CACHE - 1)].a.flags &
	    DLA_ADDR_READONLY)
		return dla_fail(c, field, -DLA_ERR_READONLY);
	return 0;
}

/* Bytes a strided walk touches: len + sum((count[i] - 1) * stride[i]). */
static int dla_dma_extent(const dla_u32 *count, const dla_u32 *stride,
			  dla_u32 len, dla_u64 *ext)
{
	dla_u64 x = len;
	dla_u32 i;

	for (i = 0; i < 3; i++)
		if (dla_add_u64(x, dla_mul_u32(count[i] - 1, stride[i]), &x))
			return 1;
	*ext = x;
	return 0;
}

static dla_s32 dla_build_dma(const struct dla_opctx *c,
			     const struct dla_dma_op *op,
			     struct vpux_hw_dma_desc *hw)
{
	dla_u64 src_ext, dst_ext, a;
	dla_u32 i;
	dla_s32 ret;

	if (op->flags)
		return dla_fail(c, "flags", -DLA_ERR_FLAGS);
	if (op->reserved)
		return dla_fail(c, "reserved", -DLA_ERR_RESERVED);
	if (!op->len)
		return dla_fail(c, "len", -DLA_ERR_SHAPE);
	for (i = 0; i < 3; i++)
		if (!op->count[i])
			return dla_fail(c, "count", -DLA_ERR_SHAPE);
	if (dla_dma_extent(op->count, op->src_stride, op->len, &src_ext))
		return dla_fail(c, "src_stride", -DLA_ERR_OVERFLOW);
	if (dla_dma_extent(op->count, op->dst_stride, op->len, &dst_ext))
		return dla_fail(c, "dst_stride", -DLA_ERR_OVERFLOW);
	ret = dla_resolve(c, "src", &op->src, DLA_REF_REQUIRED, src_ext, &a);
	if (ret)
		return ret;
	hw->src = a;
	ret = dla_resolve_out(c, "dst", &op->dst, DLA_REF_REQUIRED, dst_ext, &a);
	if (ret)
		return ret;
	hw->dst = a;
	hw->flags = 0;
	hw->len = op->len;
	for (i = 0; i < 3; i++) {
		hw->count[i] = op->count[i];
		hw->src_stride[i] = op->src_stride[i];
		hw->dst_stride[i] = op->dst_stride[i];
	}
	hw->reserved = 0;
	return 0;
}

/*
 * DPU descriptor rules that fail become these codes; the field named is
 * the rule's (vpux_dpu_rule_field()).
 */
static dla_s32 dla_dpu_rule_err(enum vpux_dpu_rule r)
{
	switch (r) {
	case VPUX_DPU_RULE_OP:
		return -DLA_ERR_DPU_OP;
	case VPUX_DPU_RULE_FLAGS:
		return -DLA_ERR_FLAGS;
	case VPUX_DPU_RULE_RESERVED:
		return -DLA_ERR_RESERVED;
	case VPUX_DPU_RULE_IN_ZP:
	case VPUX_DPU_RULE_IN2_ZP:
	case VPUX_DPU_RULE_OUT_ZP:
	case VPUX_DPU_RULE_REQUANT:
	case VPUX_DPU_RULE_IN_SCALE:
	case VPUX_DPU_RULE_IN2_SCALE:
	case VPUX_DPU_RULE_ACT_MIN:
	case VPUX_DPU_RULE_ACT_MAX:
	case VPUX_DPU_RULE_ACT:
	case VPUX_DPU_RULE_SCALE:
	case VPUX_DPU_RULE_SLOPE:
		return -DLA_ERR_QUANT;
	default:
		return -DLA_ERR_SHAPE;
	}
}

static __attribute__((__cold__, __noinline__))
dla_s32 dla_dpu_fail(const struct dla_opctx *c, enum vpux_dpu_rule r)
{
	return dla_fail(c, vpux_dpu_rule_field(r), dla_dpu_rule_err(r));
}

/*
 * The rule out of line: it reads the descriptor back from memory with
 * registers of its own, rather than from the many values the builder
 * just stored (cheaper than the spills of inlining it there).
 */
static __attribute__((__noinline__))
enum vpux_dpu_rule dla_dpu_check(const struct vpux_hw_dpu_desc *hw,
				 struct vpux_dpu_extents *n)
{
	return vpux_dpu_check(hw, n);
}

/*
 * Build the DPU op's hardware descriptor, then check what was built with
 * the engine's own rule (vpux_dpu_check(), include/hw/vpux_dpu_rules.h):
 * a descriptor the core accepts is one the engine accepts, and the
 * operand sizes the refs must cover are the engine's. The task format's
 * conventions are applied here, once: dilation 0 and groups 0 mean 1.
 * Every other field is copied as it is (reserved ones too, so that the
 * rule sees them).
 */
static dla_s32 dla_build_dpu(const struct dla_opctx *c,
			     const struct dla_dpu_op *d,
			     struct vpux_hw_dpu_desc *hw)
{
	struct vpux_dpu_extents n;
	enum vpux_dpu_rule rule;
	dla_u64 a[5];
	dla_s32 ret;

	hw->op = d->op;
	hw->flags = d->flags;
	hw->in_c = d->in_c;
	hw->in_h = d->in_h;
	hw->in_w = d->in_w;
	hw->out_c = d->out_c;
	hw->out_h = d->out_h;
	hw->out_w = d->out_w;
	hw->kernel_h = d->kernel_h;
	hw->kernel_w = d->kernel_w;
	hw->stride_h = d->stride_h;
	hw->stride_w = d->stride_w;
	hw->pad_top = d->pad_top;
	hw->pad_left = d->pad_left;
	hw->pad_bottom = d->pad_bottom;
	hw->pad_right = d->pad_right;
	hw->dilation_h = d->dilation_h ? d->dilation_h : 1;
	hw->dilation_w = d->dilation_w ? d->dilation_w : 1;
	hw->groups = d->groups ? d->groups : 1;
	hw->reserved0 = d->reserved0;
	hw->in_zp = d->in_zp;
	hw->in2_zp = d->in2_zp;
	hw->out_zp = d->out_zp;
	hw->act_min = d->act_min;
	hw->act_max = d->act_max;
	hw->requant.mult = d->requant.mult;
	hw->requant.shift = d->requant.shift;
	hw->in_scale.mult = d->in_scale.mult;
	hw->in_scale.shift = d->in_scale.shift;
	hw->in2_scale.mult = d->in2_scale.mult;
	hw->in2_scale.shift = d->in2_scale.shift;
	hw->reserved[0] = d->reserved[0];
	hw->reserved[1] = d->reserved[1];
	rule = dla_dpu_check(hw, &n);
	if (rule)
		return dla_dpu_fail(c, rule);
	ret = dla_resolve(c, "in", &d->in, DLA_REF_REQUIRED, n.in, &a[0]);
	if (!ret)
		ret = dla_resolve(c, "in2", &d->in2,
				  n.in2 ? DLA_REF_REQUIRED : DLA_REF_UNUSED,
				  n.in2, &a[1]);
	if (!ret)
		ret = dla_resolve(c, "bias", &d->bias,
				  n.bias ? DLA_REF_REQUIRED : DLA_REF_UNUSED,
				  n.bias, &a[2]);
	if (!ret)
		ret = dla_resolve(c, "quant", &d->quant,
				  n.quant ? DLA_REF_REQUIRED : DLA_REF_UNUSED,
				  n.quant, &a[3]);
	if (!ret)
		ret = dla_resolve_out(c, "out", &d->out, DLA_REF_REQUIRED,
				      n.out, &a[4]);
	if (ret)
		return ret;
	hw->in = a[0];
	hw->in2 = a[1];
	hw->bias = a[2];
	hw->quant = a[3];
	hw->out = a[4];
	return 0;
}

static const char *const dla_window_name[DLA_MAX_SHAVE_WINDOWS] = {
	"windows[0]", "windows[1]", "windows[2]", "windows[3]",
	"windows[4]", "windows[5]", "windows[6]", "windows[7]",
};

/*
 * An ELF kernel task (struct dla_shave_task_op): every field checked
 * here, each error naming it; the engine checks the record again.
 */
static __attribute__((__noinline__))
dla_s32 dla_build_shave_task(const struct dla_opctx *c,
			     const struct dla_shave_task_op *s,
			     struct vpux_hw_shave_task *hw)
{
	dla_u64 a;
	dla_u32 i, rt;
	dla_s32 ret;

	for (i = 0; i < DLA_ARRAY_SIZE(s->reserved); i++)
		if (s->reserved[i])
			return dla_fail(c, "reserved", -DLA_ERR_RESERVED);
	if (s->args.size > VPUX_SHAVE_ARGS_MAX)
		return dla_fail(c, "args.size", -DLA_ERR_ARGS_SIZE);
	if (s->code.size < 4 || s->code.size > VPUX_SHAVE_CODE_MAX ||
	    (s->code.size & 3))
		return dla_fail(c, "code.size", -DLA_ERR_WINDOW);
	if (s->data.size > VPUX_SHAVE_DATA_MAX || (s->data.size & 3))
		return dla_fail(c, "data.size", -DLA_ERR_WINDOW);
	if (s->win_f.size > VPUX_SHAVE_WIN_F_MAX)
		return dla_fail(c, "win_f.size", -DLA_ERR_WINDOW);
	if (s->entry >= s->code.size || (s->entry & 1))
		return dla_fail(c, "entry", -DLA_ERR_SHAVE_TASK);
	if (s->stack_size < VPUX_SHAVE_STACK_MIN ||
	    s->stack_size > VPUX_SHAVE_STACK_MAX ||
	    (s->stack_size & (VPUX_SHAVE_STACK_ALIGN - 1)))
		return dla_fail(c, "stack_size", -DLA_ERR_SHAVE_TASK);
	if (s->tile >= c->p->e->n_tiles)
		return dla_fail(c, "tile", -DLA_ERR_SHAVE_TASK);
	if (s->tile < c->p->t->tile_first || s->tile >= c->p->t->tile_end)
		return dla_fail(c, "tile", -DLA_ERR_CMX_WINDOW);
	if (s->budget > VPUX_SHAVE_BUDGET_MAX)
		return dla_fail(c, "budget", -DLA_ERR_SHAVE_TASK);
	rt = s->runtime.size | s->runtime.index | s->runtime.flags |
	     s->runtime.offset;
	if (rt && (s->runtime.size < 4 ||
		   s->runtime.size > VPUX_SHAVE_RT_CODE_MAX ||
		   (s->runtime.size & 3)))
		return dla_fail(c, "runtime.size", -DLA_ERR_WINDOW);
	if (rt ? s->runtime_entry >= s->runtime.size ||
		 (s->runtime_entry & 1) : s->runtime_entry != 0)
		return dla_fail(c, "runtime_entry", -DLA_ERR_SHAVE_TASK);
	dla_memset(hw, 0, sizeof(union dla_shave_slot));
	hw->rt_kernel = VPUX_SHAVE_RT_REF;
	if (rt) {
		ret = dla_resolve(c, "runtime", &s->runtime, DLA_REF_REQUIRED,
				  4, &a);
		if (ret)
			return ret;
		hw->rt_code = a;
		hw->rt_size = s->runtime.size;
		hw->rt_entry = s->runtime_entry;
		hw->rt_kernel = s->runtime_kernel;
	}
	ret = dla_resolve(c, "args", &s->args, DLA_REF_OPTIONAL,
			  s->args.size, &a);
	if (ret)
		return ret;
	hw->args = a;
	ret = dla_resolve(c, "code", &s->code, DLA_REF_REQUIRED, 4, &a);
	if (ret)
		return ret;
	hw->code = a;
	ret = dla_resolve(c, "data", &s->data, DLA_REF_OPTIONAL, 0, &a);
	if (ret)
		return ret;
	hw->data = a;
	ret = dla_resolve_out(c, "win_f", &s->win_f, DLA_REF_OPTIONAL, 0, &a);
	if (ret)
		return ret;
	hw->win_f = a;
	hw->kernel_id = VPUX_SHAVE_KERNEL_ELF;
	hw->args_size = s->args.size;
	hw->code_size = s->code.size;
	hw->entry = s->entry;
	hw->data_size = s->data.size;
	hw->stack_size = s->stack_size;
	hw->win_f_size = s->win_f.size;
	hw->tile = s->tile;
	hw->kernel = s->kernel;
	hw->invocation = s->invocation;
	hw->budget = s->budget;
	return 0;
}

static dla_s32 dla_build_shave(const struct dla_opctx *c,
			       const struct dla_shave_op *s,
			       struct vpux_hw_shave_desc *hw)
{
	dla_u64 a;
	dla_u32 w;
	dla_s32 ret;

	if (s->kernel_id == VPUX_SHAVE_KERNEL_ELF)
		return dla_build_shave_task(c, (const void *)s, (void *)hw);

	if (s->reserved)
		return dla_fail(c, "reserved", -DLA_ERR_RESERVED);
	if (s->args.size > VPUX_SHAVE_ARGS_MAX)
		return dla_fail(c, "args.size", -DLA_ERR_ARGS_SIZE);
	ret = dla_resolve(c, "args", &s->args, DLA_REF_REQUIRED, 1, &a);
	if (ret)
		return ret;
	hw->args = a;
	for (w = 0; w < DLA_MAX_SHAVE_WINDOWS; w++) {
		const struct dla_buf_ref *r = &s->windows[w];

		if (!(r->size | r->index | r->flags | r->offset)) {
			hw->window_base[w] = 0;
			hw->window_size[w] = 0;
			continue;
		}
		if (s->windows[w].size > DLA_SHAVE_WINDOW_MAX)
			return dla_fail(c, dla_window_name[w], -DLA_ERR_WINDOW);
		/* kernels may write any window: none may be read-only */
		ret = dla_resolve_out(c, dla_window_name[w], &s->windows[w],
				      DLA_REF_OPTIONAL, 0, &a);
		if (ret)
			return ret;
		hw->window_base[w] = a;
		hw->window_size[w] = s->windows[w].size;
	}
	hw->kernel_id = s->kernel_id;
	hw->args_size = s->args.size;
	return 0;
}

/*
 * Resolve address-list entry @entry into @p's cache for good (a plan's
 * templates, before the scheduler expands them without the port): it
 * must exist and must not share a cache slot with another entry.
 */
dla_s32 dla_addr_preload(struct dla_prep *p, dla_u32 kind, dla_u32 index,
			 const char *field, dla_u32 entry)
{
	struct dla_opctx c = { p, kind, index };
	struct dla_addr_slot *slot;

	if (entry >= DLA_MAX_ADDR_ENTRIES)
		return dla_fail(&c, field, -DLA_ERR_ADDR_INDEX);
	slot = &p->addr[entry & (DLA_ADDR_CACHE - 1)];
	if (slot->tag == entry + 1)
		return 0;
	if (slot->tag)
		return dla_fail(&c, field, -DLA_ERR_ADDR_INDEX);
	if (dla_get_dma_address(p->drv, p->task_data, (dla_s16)entry,
				&slot->a, DESTINATION_DMA))
		return dla_fail(&c, field, -DLA_ERR_ADDR_INDEX);
	slot->tag = entry + 1;
	return 0;
}

dla_s32 dla_op_build(struct dla_prep *p, dla_u32 kind, dla_u32 index,
		     const union dla_op_rec *rec, dla_u64 *desc)
{
	struct dla_opctx c = { p, kind, index };

	switch (kind) {
	case DLA_OP_DMA:
		return dla_build_dma(&c, &rec->dma,
				     &((union dla_dma_slot *)desc)->d);
	case DLA_OP_DPU:
		return dla_build_dpu(&c, &rec->dpu,
				     &((union dla_dpu_slot *)desc)->d);
	default:
		return dla_build_shave(&c, &rec->shave,
				       &((union dla_shave_slot *)desc)->d);
	}
}

/* Write PARAM words 2i and 2i + 1 from @v. */
static void dla_write_pair(void *drv, dla_u32 base, dla_u32 i, dla_u64 v)
{
	dla_reg_write(drv, base + VPUX_ENG_PARAM(2 * i), (dla_u32)v);
	dla_reg_write(drv, base + VPUX_ENG_PARAM(2 * i + 1), (dla_u32)(v >> 32));
}

/* Write the words of pair @i that differ from the shadow. */
static inline __attribute__((__always_inline__))
void dla_update_pair(void *drv, dla_u32 base, dla_u64 *sh, const dla_u64 *w,
		     dla_u32 i)
{
	dla_u64 v = w[i], d = v ^ sh[i];

	if (!d)
		return;
	sh[i] = v;
	if ((dla_u32)d)
		dla_reg_write(drv, base + VPUX_ENG_PARAM(2 * i), (dla_u32)v);
	if (d >> 32)
		dla_reg_write(drv, base + VPUX_ENG_PARAM(2 * i + 1),
			      (dla_u32)(v >> 32));
}

/*
 * Pair @i or @i + 1 differs from the shadow. Out of line, so that the
 * comparison loop stays tight.
 */
static __attribute__((__noinline__))
void dla_update_pairs(void *drv, dla_u32 base, dla_u64 *sh, const dla_u64 *w,
		      dla_u32 i)
{
	dla_update_pair(drv, base, sh, w, i);
	dla_update_pair(drv, base, sh, w, i + 1);
}

/*
 * Program engine @eng with descriptor @w (@pairs pairs of PARAM words)
 * and start it. Descriptors are compared and written in pairs of words;
 * little-endian core: the low half of a pair is the lower word. Only
 * words that differ from what the engine last received are written
 * (MMIO is the expensive part of starting an op); the comparison goes
 * two pairs at a time. CTX decides which address space the op runs in:
 * it is written every time, never trusted to a shadow.
 */
/*
 * Start @w on engine @eng; @at: the cycle the op became ready (the latest
 * completion of its task the scheduler had seen), given to an engine that
 * dates ops (VPUX_CAP_START_AT), so that tasks keep their own time
 * (hw-model.rst, "Virtual time").
 */
void dla_engine_start(struct dla_engine *e, dla_u32 eng, const dla_u64 *w,
		      dla_u32 pairs, dla_u32 ctx, dla_u64 at)
{
	void *drv = e->driver_context;
	dla_u32 base = VPUX_REG_ENGINE(eng), i, bit = 1u << eng;
	dla_u64 *sh = e->shadow[eng];

	if (!(e->shadow_valid & bit)) {
		for (i = 0; i < pairs; i++)
			dla_write_pair(drv, base, i, sh[i] = w[i]);
		e->shadow_valid |= bit;
	} else {
		for (i = 0; i + 1 < pairs; i += 2)
			if ((w[i] ^ sh[i]) | (w[i + 1] ^ sh[i + 1]))
				dla_update_pairs(drv, base, sh, w, i);
		if (i < pairs)
			dla_update_pair(drv, base, sh, w, i);
	}
	dla_reg_write(drv, base + VPUX_ENG_CTX, ctx);
	if (e->start_at) {
		dla_reg_write(drv, base + VPUX_ENG_START_AT_LO, (dla_u32)at);
		dla_reg_write(drv, base + VPUX_ENG_START_AT_HI,
			      (dla_u32)(at >> 32));
	}
	dla_reg_write(drv, base + VPUX_ENG_CMD, VPUX_ENG_CMD_START);
}

dla_u64 dla_read_cycles(struct dla_engine *e)
{
	dla_u32 lo = dla_reg_read(e->driver_context, VPUX_REG_CYCLES_LO);
	dla_u32 hi = dla_reg_read(e->driver_context, VPUX_REG_CYCLES_HI);

	return (dla_u64)hi << 32 | lo;
}
