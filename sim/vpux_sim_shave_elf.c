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
#include "vpux_shave_rt_ref.h"

/* instructions between two yields of the engine */
#define SHAVE_SLICE		(1u << 16)

/* host byte of guest [addr, addr + size) in a data window, or NULL */
static u8 *core_map(struct vpux_shave_core *c, u32 addr, u32 size)
{
	u32 off;

	switch (addr >> 28) {
	case VPUX_SHAVE_WIN_C >> 28:	/* WIN_R's loads: core_load() */
		off = addr - VPUX_SHAVE_WIN_C;
		if (c->ctl && off < VPUX_SHAVE_RT_WIN_C_SIZE &&
		    size <= VPUX_SHAVE_RT_WIN_C_SIZE - off)
			return c->ctl + off;
		return NULL;
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
	struct vpux_shave_core *c = ctx;
	const u8 *p = core_map(c, addr, size);
	u32 off = addr - VPUX_SHAVE_WIN_R;

	/* WIN_R: the runtime kernel's RO data, read only */
	if (!p && c->rt && off < c->rt_size && size <= c->rt_size - off)
		p = c->rt + off;
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

static void core_reset(struct vpux_shave_core *c, u32 pc)
{
	struct vpux_rv *rv = &c->rv;

	c->bus.load = core_load;
	c->bus.store = core_store;
	c->bus.ctx = c;
	rv->ram = c->code;
	rv->ram_base = VPUX_SHAVE_WIN_D;
	rv->ram_size = c->code_size;
	rv->bus = &c->bus;
	rv->rom = c->rt;
	rv->rom_base = VPUX_SHAVE_WIN_R;
	rv->rom_size = c->rt ? c->rt_size : 0;
	rv->ext = VPUX_RV_EXT_F | VPUX_RV_EXT_RAM_RO | VPUX_RV_EXT_HALT;
	vpux_rv_reset(rv, pc);
	if (c->stack_size)
		memset(c->stack, 0, c->stack_size);
	c->executed = 0;
	c->done = false;
	c->trapped = false;
	c->idle = false;
	c->cause = 0;
	c->pc = 0;
	c->tval = 0;
}

void vpux_shave_core_start(struct vpux_shave_core *c, u32 entry)
{
	struct vpux_rv *rv = &c->rv;

	c->rt = NULL;
	c->ctl = NULL;
	core_reset(c, VPUX_SHAVE_WIN_D + entry);
	rv->x[1] = VPUX_SHAVE_EXIT_PC;			/* ra */
	rv->x[2] = VPUX_SHAVE_STACK_TOP;		/* sp */
	rv->x[10] = VPUX_SHAVE_WIN_E;			/* a0 */
	rv->x[11] = c->args_size;			/* a1 */
}

void vpux_shave_core_start_rt(struct vpux_shave_core *c, u32 rt_entry)
{
	struct vpux_rv *rv = &c->rv;

	core_reset(c, VPUX_SHAVE_WIN_R + rt_entry);
	rv->x[2] = VPUX_SHAVE_WIN_C + VPUX_SHAVE_RT_WIN_C_SIZE;	/* sp */
	rv->x[10] = VPUX_SHAVE_WIN_C;				/* a0 */
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

	if (c->rt && cause == VPUX_RV_CAUSE_ECALL_M &&
	    rv->x[17] == VPUX_SHAVE_ECALL_EXIT) {
		if (pc - VPUX_SHAVE_WIN_R < c->rt_size) {
			/* the runtime kernel ended */
			c->done = true;
			c->idle = true;
			return;
		}
		/* a kernel's exit: to the runtime kernel's handler */
		rv->halted = false;
		rv->pc = rv->mtvec & ~3u;
		return;
	}
	if ((!c->rt && cause == VPUX_RV_CAUSE_FETCH_ACCESS &&
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
		    (tval >> 28 == VPUX_SHAVE_WIN_D >> 28 ||
		     (c->rt && tval - VPUX_SHAVE_WIN_R < c->rt_size)))
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
	if (c->rv.halted) {
		core_halted(c);
		if (!c->done && c->executed >= c->budget)
			core_trap(c, VPUX_SHAVE_TRAP_BUDGET, c->rv.pc, 0);
	} else if (c->rv.wfi) {
		/* nothing wakes a SHAVE core within an op: it is idle */
		c->done = true;
		c->idle = true;
		if (!c->rt)	/* a kernel waits for nothing */
			core_trap(c, VPUX_SHAVE_TRAP_RT_IDLE, c->rv.pc, 1);
	} else if (c->executed >= c->budget)
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
	    t->reserved[0] || t->reserved[1] || t->reserved[2])
		return -VPUX_ENG_ERR_DESC;
	if (t->rt_code ? t->rt_size < 4 || t->rt_size > VPUX_SHAVE_RT_CODE_MAX ||
			 (t->rt_size & 3) || t->rt_entry >= t->rt_size ||
			 (t->rt_entry & 1) :
			 t->rt_size || t->rt_entry)
		return -VPUX_ENG_ERR_DESC;
	return 0;
}

/* ---- the runtime kernel's control block (vpux_shave_rt.h) ---- */

#define CTL(f)		__builtin_offsetof(struct vpux_shave_rt_ctl, f)
#define CTL_TASK(n, f)	(CTL(fifo) + (n) * sizeof(struct vpux_shave_rt_task) + \
			 __builtin_offsetof(struct vpux_shave_rt_task, f))

static u32 ctl_rd(const u8 *ctl, u32 off)
{
	const u8 *p = ctl + off;

	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void ctl_wr(u8 *ctl, u32 off, u32 v)
{
	u8 *p = ctl + off;

	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

/*
 * The engine's side of the FIFO: an empty control block, the op's wait
 * barrier reached (the engine core started the op once its dependencies
 * were met), its post barrier with this task as its one producer, and
 * the task pushed.
 */
static void ctl_push(u8 *ctl, const struct vpux_hw_shave_task *t)
{
	u32 n = 0;

	memset(ctl, 0, VPUX_SHAVE_RT_WIN_C_SIZE);
	ctl_wr(ctl, CTL(magic), VPUX_SHAVE_RT_MAGIC);
	ctl_wr(ctl, CTL(depth), VPUX_SHAVE_RT_DEPTH);
	ctl_wr(ctl, CTL(barrier[VPUX_SHAVE_RT_OP_WAIT]), 0);
	ctl_wr(ctl, CTL(barrier[VPUX_SHAVE_RT_OP_POST]), 1);
	ctl_wr(ctl, CTL_TASK(n, entry), VPUX_SHAVE_WIN_D + t->entry);
	ctl_wr(ctl, CTL_TASK(n, a0), VPUX_SHAVE_WIN_E);
	ctl_wr(ctl, CTL_TASK(n, a1), t->args_size);
	ctl_wr(ctl, CTL_TASK(n, sp), VPUX_SHAVE_STACK_TOP);
	ctl_wr(ctl, CTL_TASK(n, wait), VPUX_SHAVE_RT_OP_WAIT);
	ctl_wr(ctl, CTL_TASK(n, post), VPUX_SHAVE_RT_OP_POST);
	ctl_wr(ctl, CTL_TASK(n, invocation), t->invocation);
	ctl_wr(ctl, CTL(tail), n + 1);
}

/*
 * The runtime kernel idled or ended: the op is complete when it took and
 * completed the task and updated its barrier; then the kernel's status.
 */
static void ctl_complete(struct vpux_shave_core *c,
			 const struct vpux_hw_shave_task *t,
			 struct vpux_sim_trap *trap)
{
	const u8 *ctl = c->ctl;
	u32 tail = ctl_rd(ctl, CTL(tail)), st;

	if (ctl_rd(ctl, CTL(head)) != tail || ctl_rd(ctl, CTL(done)) != tail ||
	    ctl_rd(ctl, CTL(barrier[VPUX_SHAVE_RT_OP_POST]))) {
		trap->cause = VPUX_SHAVE_TRAP_RT_IDLE;
		trap->pc = c->rv.pc;
		trap->tval = tail - ctl_rd(ctl, CTL(done));
		trap->kernel = t->rt_kernel;
		return;
	}
	st = ctl_rd(ctl, CTL_TASK(0, status));
	if (st) {
		trap->cause = VPUX_SHAVE_TRAP_STATUS;
		trap->pc = VPUX_SHAVE_EXIT_PC;
		trap->tval = st;
		trap->kernel = t->kernel;
	}
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
	if (!ret && t->rt_code) {
		ret = elf_fetch(op, t->rt_code, t->rt_size, &c->rt_buf);
		c->rt = c->rt_buf;
		c->rt_size = t->rt_size;
	} else {
		c->rt = vpux_shave_rt_ref;
		c->rt_size = VPUX_SHAVE_RT_REF_SIZE;
	}
	if (ret)
		return ret;
	/* the SHAVE's own stack memory (zeroed by vpux_shave_core_start()) */
	c->stack = op->sim->ops->alloc(op->sim->env, t->stack_size);
	c->ctl = op->sim->ops->alloc(op->sim->env, VPUX_SHAVE_RT_WIN_C_SIZE);
	if (!c->stack || !c->ctl)
		return -VPUX_ENG_ERR_NOMEM;
	ctl_push(c->ctl, t);
	vpux_shave_core_start_rt(c, t->rt_code ? t->rt_entry :
				 VPUX_SHAVE_RT_REF_ENTRY);
	while (!vpux_shave_core_run(c, SHAVE_SLICE)) {
		op->sim->ops->yield(op->sim->env);
		if (vpux_sim_op_cancelled(op))
			return -VPUX_ENG_ERR_ABORTED;
	}
	op->cycles = VPUX_SHAVE_CYCLES_ELF_LAUNCH + c->executed;
	op->trap.rt_debug = ctl_rd(c->ctl, CTL(debug[0]));
	if (c->trapped) {
		op->trap.invocation = t->invocation;
		op->trap.cause = c->cause;
		op->trap.pc = c->pc;
		op->trap.tval = c->tval;
		/* the runtime kernel's code or the task's */
		op->trap.kernel = c->pc - VPUX_SHAVE_WIN_R < c->rt_size ?
				  t->rt_kernel : t->kernel;
		return -VPUX_ENG_ERR_TRAP;
	}
	ctl_complete(c, t, &op->trap);
	if (op->trap.cause) {
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
	if (c->ctl)
		sim->ops->free(sim->env, c->ctl);
	if (c->rt_buf)
		sim->ops->free(sim->env, c->rt_buf);
	sim->ops->free(sim->env, c);
out:
	if (ret)
		op->err = -ret;
	if (op->fault.reason)
		op->err = VPUX_ENG_ERR_MMU;
	if (op->err && !op->cycles)
		op->cycles = VPUX_SIM_ERR_CYCLES;
}
