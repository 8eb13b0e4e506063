// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: SHAVE cores that execute code (Documentation/
 * shave-kernels.rst). A SHAVE op with kernel_id VPUX_SHAVE_KERNEL_ELF
 * runs the RV32IMF code of its task record (vpux_shave_elf.h) on the
 * interpreter of sim/vpux_rv.c, in slices, between which the engine
 * yields and stops if the op was aborted or reset.
 *
 * The core's windows are host buffers: the code, arguments, RW data and
 * WIN_F are read through the MMU before the kernel starts, WIN_F is
 * written back only when it succeeds. Every guest access is checked
 * against the windows first: a kernel reaches nothing else.
 */

#include "vpux_shave_core.h"
#include "vpux_sim_priv.h"

/* instructions between two yields of the engine */
#define SHAVE_SLICE		(1u << 16)

/* host byte of guest [addr, addr + size) in a data window, or NULL */
static u8 *core_map(struct vpux_shave_core *c, u32 addr, u32 size)
{
	u32 off;

	switch (addr >> 28) {
	case VPUX_SHAVE_WIN_E >> 28:
		if (addr < VPUX_SHAVE_WIN_E_DATA) {
			off = addr - VPUX_SHAVE_WIN_E;
			if (off < c->args_size && size <= c->args_size - off)
				return c->args + off;
			return NULL;
		}
		off = addr - VPUX_SHAVE_WIN_E_DATA;
		if (off < c->data_size && size <= c->data_size - off)
			return c->data + off;
		return NULL;
	case VPUX_SHAVE_WIN_F >> 28:
		off = addr - VPUX_SHAVE_WIN_F;
		if (off < c->win_f_size && size <= c->win_f_size - off)
			return c->win_f + off;
		return NULL;
	default:
		off = addr - (VPUX_SHAVE_STACK_TOP - c->stack_size);
		if (off < c->stack_size && size <= c->stack_size - off)
			return c->stack + off;
		return NULL;
	}
}

static int core_load(void *ctx, u32 addr, u32 size, u32 *val)
{
	const u8 *p = core_map(ctx, addr, size);

	if (!p)
		return -1;
	*val = size == 4 ? (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 |
			   (u32)p[3] << 24 :
	       size == 2 ? (u32)p[0] | (u32)p[1] << 8 : p[0];
	return 0;
}

static int core_store(void *ctx, u32 addr, u32 size, u32 val)
{
	u8 *p = core_map(ctx, addr, size);
	u32 i;

	if (!p)
		return -1;
	for (i = 0; i < size; i++)
		p[i] = (u8)(val >> (8 * i));
	return 0;
}

void vpux_shave_core_start(struct vpux_shave_core *c, u32 entry)
{
	struct vpux_rv *rv = &c->rv;

	c->bus.load = core_load;
	c->bus.store = core_store;
	c->bus.ctx = c;
	rv->ram = c->code;
	rv->ram_base = VPUX_SHAVE_WIN_D;
	rv->ram_size = c->code_size;
	rv->bus = &c->bus;
	rv->ext = VPUX_RV_EXT_F | VPUX_RV_EXT_RAM_RO | VPUX_RV_EXT_HALT;
	vpux_rv_reset(rv, VPUX_SHAVE_WIN_D + entry);
	rv->x[1] = VPUX_SHAVE_EXIT_PC;			/* ra */
	rv->x[2] = VPUX_SHAVE_STACK_TOP;		/* sp */
	rv->x[10] = VPUX_SHAVE_WIN_E;			/* a0 */
	rv->x[11] = c->args_size;			/* a1 */
	if (c->stack_size)
		memset(c->stack, 0, c->stack_size);
	c->executed = 0;
	c->done = false;
	c->trapped = false;
	c->cause = 0;
	c->pc = 0;
	c->tval = 0;
}

static void core_trap(struct vpux_shave_core *c, u32 cause, u32 pc, u32 tval)
{
	c->done = true;
	c->trapped = true;
	c->cause = cause;
	c->pc = pc;
	c->tval = tval;
}

/* the hart halted: a return, the exit ECALL, or a trap to classify */
static void core_halted(struct vpux_shave_core *c)
{
	struct vpux_rv *rv = &c->rv;
	u32 cause = rv->mcause, tval = rv->mtval, pc = rv->mepc;
	u32 below = VPUX_SHAVE_STACK_TOP - c->stack_size;

	if ((cause == VPUX_RV_CAUSE_FETCH_ACCESS &&
	     pc == VPUX_SHAVE_EXIT_PC) ||
	    (cause == VPUX_RV_CAUSE_ECALL_M &&
	     rv->x[17] == VPUX_SHAVE_ECALL_EXIT)) {
		c->done = true;
		if (rv->x[10])
			core_trap(c, VPUX_SHAVE_TRAP_STATUS, pc, rv->x[10]);
		return;
	}
	switch (cause) {
	case VPUX_RV_CAUSE_ECALL_M:
		tval = rv->x[17];
		break;
	case VPUX_RV_CAUSE_STORE_ACCESS:
	case VPUX_RV_CAUSE_LOAD_ACCESS:
		if (cause == VPUX_RV_CAUSE_STORE_ACCESS &&
		    tval >> 28 == VPUX_SHAVE_WIN_D >> 28)
			cause = VPUX_SHAVE_TRAP_WRITE_CODE;
		else if (tval < below && below - tval <= VPUX_SHAVE_STACK_GUARD)
			cause = VPUX_SHAVE_TRAP_STACK_OVERFLOW;
		break;
	default:
		break;
	}
	core_trap(c, cause, pc, tval);
}

bool vpux_shave_core_run(struct vpux_shave_core *c, u32 slice)
{
	u64 left = c->budget - c->executed;

	if (c->done)
		return true;
	if (!left) {
		core_trap(c, VPUX_SHAVE_TRAP_BUDGET, c->rv.pc, 0);
		return true;
	}
	if (slice > left)
		slice = (u32)left;
	/* a step is an instruction or the trap that ends the kernel */
	c->executed += vpux_rv_run(&c->rv, slice);
	if (c->rv.halted)
		core_halted(c);
	else if (c->executed >= c->budget)
		core_trap(c, VPUX_SHAVE_TRAP_BUDGET, c->rv.pc, 0);
	return c->done;
}

/* ---- the engine ---- */

/* the engine's checks of the record (the engine core checked it first) */
static int task_check(const struct vpux_sim *sim,
		      const struct vpux_hw_shave_task *t)
{
	if (t->args_size > VPUX_SHAVE_ARGS_MAX ||
	    t->code_size < 4 || t->code_size > VPUX_SHAVE_CODE_MAX ||
	    (t->code_size & 3) || t->entry >= t->code_size || (t->entry & 1) ||
	    t->data_size > VPUX_SHAVE_DATA_MAX || (t->data_size & 3) ||
	    (!t->data_size && t->data) ||
	    t->stack_size < VPUX_SHAVE_STACK_MIN ||
	    t->stack_size > VPUX_SHAVE_STACK_MAX ||
	    (t->stack_size & (VPUX_SHAVE_STACK_ALIGN - 1)) ||
	    t->win_f_size > VPUX_SHAVE_WIN_F_MAX ||
	    t->tile >= sim->cfg.n_tiles ||
	    t->budget > VPUX_SHAVE_BUDGET_MAX || t->flags ||
	    t->reserved[0] || t->reserved[1])
		return -VPUX_ENG_ERR_DESC;
	return 0;
}

static int elf_fetch(struct vpux_sim_op *op, u64 addr, u32 len, u8 **buf)
{
	struct vpux_sim *sim = op->sim;

	*buf = sim->ops->alloc(sim->env, len ? len : 1);
	if (!*buf)
		return -VPUX_ENG_ERR_NOMEM;
	if (!len)
		return 0;
	return vpux_sim_mem_read(op, addr, *buf, len);
}

static noinline_for_stack int elf_run(struct vpux_sim_op *op,
				      const struct vpux_hw_shave_task *t,
				      struct vpux_shave_core *c)
{
	int ret;

	c->code_size = t->code_size;
	c->args_size = t->args_size;
	c->data_size = t->data_size;
	c->win_f_size = t->win_f_size;
	c->stack_size = t->stack_size;
	c->budget = (u64)(t->budget ? t->budget : VPUX_SHAVE_BUDGET_DEFAULT)
		    << VPUX_SHAVE_BUDGET_SHIFT;
	ret = elf_fetch(op, t->code, t->code_size, &c->code);
	if (!ret)
		ret = elf_fetch(op, t->args, t->args_size, &c->args);
	if (!ret)
		ret = elf_fetch(op, t->data, t->data_size, &c->data);
	if (!ret)
		ret = elf_fetch(op, t->win_f, t->win_f_size, &c->win_f);
	if (ret)
		return ret;
	/* the SHAVE's own stack memory (zeroed by vpux_shave_core_start()) */
	c->stack = op->sim->ops->alloc(op->sim->env, t->stack_size);
	if (!c->stack)
		return -VPUX_ENG_ERR_NOMEM;
	vpux_shave_core_start(c, t->entry);
	while (!vpux_shave_core_run(c, SHAVE_SLICE)) {
		op->sim->ops->yield(op->sim->env);
		if (vpux_sim_op_cancelled(op))
			return -VPUX_ENG_ERR_ABORTED;
	}
	op->cycles = VPUX_SHAVE_CYCLES_ELF_LAUNCH + c->executed;
	if (c->trapped) {
		op->trap.cause = c->cause;
		op->trap.pc = c->pc;
		op->trap.tval = c->tval;
		op->trap.kernel = t->kernel;
		op->trap.invocation = t->invocation;
		return -VPUX_ENG_ERR_TRAP;
	}
	return vpux_sim_mem_write(op, t->win_f, c->win_f, t->win_f_size);
}

void vpux_sim_shave_elf_exec(struct vpux_sim_op *op)
{
	struct vpux_sim *sim = op->sim;
	struct vpux_hw_shave_task t;
	struct vpux_shave_core *c;
	int ret;

	memcpy(&t, op->words, sizeof(t));
	ret = task_check(sim, &t);
	if (ret)
		goto out;
	c = sim->ops->alloc(sim->env, sizeof(*c));
	if (!c) {
		ret = -VPUX_ENG_ERR_NOMEM;
		goto out;
	}
	memset(c, 0, sizeof(*c));
	ret = elf_run(op, &t, c);
	if (c->code)
		sim->ops->free(sim->env, c->code);
	if (c->args)
		sim->ops->free(sim->env, c->args);
	if (c->data)
		sim->ops->free(sim->env, c->data);
	if (c->win_f)
		sim->ops->free(sim->env, c->win_f);
	if (c->stack)
		sim->ops->free(sim->env, c->stack);
	sim->ops->free(sim->env, c);
out:
	if (ret)
		op->err = -ret;
	if (op->fault.reason)
		op->err = VPUX_ENG_ERR_MMU;
	if (op->err && !op->cycles)
		op->cycles = VPUX_SIM_ERR_CYCLES;
}
