// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: the management core, a RISC-V hart (vpux_rv.c) that
 * runs the firmware, and what surrounds it: the host's registers
 * (VPUX_REG_MC_*), its memory map (include/hw/vpux_mc.h: RAM, the NPU's
 * registers with its own interrupt view, its own registers, shared memory
 * and a window onto host memory), its interrupt lines and its execution
 * unit. Documentation/hw-model.rst ("Management core") describes it in
 * prose; the locking rules are in vpux_sim_priv.h.
 */

#include "vpux_sim_priv.h"
#include "vpux_mc.h"

static void mc_lock(struct vpux_sim *sim)
{
	sim->ops->lock(sim->env);
}

static void mc_unlock(struct vpux_sim *sim)
{
	sim->ops->unlock(sim->env);
}

static bool mc_present(const struct vpux_sim *sim)
{
	return sim->cfg.mc_mem_size != 0;
}

static bool mc_frozen(const struct vpux_sim_mc *mc)
{
	return mc->inject == VPUX_MC_INJECT_FREEZE;
}

/* The hart's accesses of a generation a reset or FREEZE ended are dropped. */
static bool mc_stale(const struct vpux_sim_mc *mc)
{
	return mc->gen != mc->hart_gen;
}

static u32 get_le(const u8 *p, u32 size)
{
	u32 v = 0;

	while (size--)
		v = v << 8 | p[size];
	return v;
}

static void put_le(u8 *p, u32 v, u32 size)
{
	u32 i;

	for (i = 0; i < size; i++)
		p[i] = (u8)(v >> (8 * i));
}

/* ---- life cycle ---- */

static int mc_load(void *ctx, u32 addr, u32 size, u32 *val);
static int mc_store(void *ctx, u32 addr, u32 size, u32 val);

int vpux_sim_mc_create(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;

	mc->mtimecmp = ~0ull;
	mc->bus.load = mc_load;
	mc->bus.store = mc_store;
	mc->bus.ctx = sim;
	if (!mc_present(sim))
		return 0;
	mc->ram = sim->ops->alloc(sim->env, sim->cfg.mc_mem_size);
	mc->spare = sim->ops->alloc(sim->env, sim->cfg.mc_mem_size);
	return mc->ram && mc->spare ? 0 : -1;
}

void vpux_sim_mc_destroy(struct vpux_sim *sim)
{
	if (sim->mc.ram)
		sim->ops->free(sim->env, sim->mc.ram);
	if (sim->mc.spare)
		sim->ops->free(sim->env, sim->mc.spare);
}

/*
 * Hold the core in reset (lock held): MC_CTRL = 0 or VPUX_RESET_DEVICE.
 * The hart stops (a batch running finishes with its accesses outside RAM
 * dropped), its status, interrupts and registers clear. The RAM is
 * cleared: if a batch is running on it, the clean spare takes its place
 * (the executor clears the old one); otherwise the register writer clears
 * it once the lock is dropped (vpux_sim_mc_finish_write()). MC_BOOT and
 * the shared memory's registers are the host's set-up and stay.
 */
void vpux_sim_mc_reset(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;

	if (!mc_present(sim))
		return;
	mc->gen++;
	mc->ctrl = 0;
	mc->status = 0;
	mc->info = 0;
	mc->mem_addr = 0;
	mc->inject = VPUX_MC_INJECT_NONE;
	mc->retired = 0;
	mc->mask = 0;
	mc->msip = false;
	mc->mtimecmp = ~0ull;
	mc->t0 = 0;
	mc->mtime_hi_latch = 0;
	mc->win_lo = 0;
	mc->win_hi = 0;
	mc->wake = false;
	mc->con_len = 0;
	if (mc->batch_ram && mc->batch_ram == mc->ram) {
		/* the spare is clean: its executor cleared it before this batch */
		mc->ram = mc->spare;
		mc->spare = mc->batch_ram;
		mc->spare_dirty = true;
	} else if (mc->ram_dirty) {
		mc->clear = mc->ram;
	}
	mc->ram_dirty = false;
}

/* After the register write that reset the core, without the lock. */
void vpux_sim_mc_finish_write(struct vpux_sim *sim, u8 *clear)
{
	if (clear)
		memset(clear, 0, sim->cfg.mc_mem_size);
}

/* ---- interrupts and time (lock held) ---- */

static u64 mc_mtime(struct vpux_sim *sim)
{
	if (!(sim->mc.ctrl & VPUX_MC_CTRL_RUN))
		return 0;
	return sim->ops->now_us(sim->env) - sim->mc.t0;
}

static bool mc_line(const struct vpux_sim *sim)
{
	return (sim->irq_status & VPUX_MC_IRQ_BITS & sim->mc.mask) != 0;
}

/* The NPU's status gained bits: wake the core if its line is high. */
void vpux_sim_mc_irq_update(struct vpux_sim *sim)
{
	if (mc_line(sim))
		sim->mc.wake = true;
}

/* The core's unit as a kick mask, if its line rose since it last looked. */
u32 vpux_sim_mc_take_kick(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;

	if (!mc->wake)
		return 0;
	mc->wake = false;
	if (sim->step_mode || !(mc->ctrl & VPUX_MC_CTRL_RUN) || mc_frozen(mc))
		return 0;
	return 1u << vpux_sim_mc_unit(sim);
}

/* Drive the hart's lines from the state: executor only. */
static void mc_lines(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;

	vpux_rv_set_irq(&mc->rv, VPUX_RV_MIP_MEIP, mc_line(sim));
	vpux_rv_set_irq(&mc->rv, VPUX_RV_MIP_MSIP, mc->msip);
	vpux_rv_set_irq(&mc->rv, VPUX_RV_MIP_MTIP,
			mc_mtime(sim) >= mc->mtimecmp);
}

/* ---- the host's registers (lock held) ---- */

u32 vpux_sim_mc_reg_read(struct vpux_sim *sim, u32 off)
{
	struct vpux_sim_mc *mc = &sim->mc;
	u32 v = 0;

	if (!mc_present(sim))
		return 0;
	switch (off) {
	case VPUX_REG_MC_CTRL:
		return mc->ctrl;
	case VPUX_REG_MC_BOOT:
		return mc->boot;
	case VPUX_REG_MC_STATUS:
		return mc->status;
	case VPUX_REG_MC_INFO:
		return mc->info;
	case VPUX_REG_MC_MEM_SIZE:
		return sim->cfg.mc_mem_size;
	case VPUX_REG_MC_MEM_ADDR:
		return mc->mem_addr;
	case VPUX_REG_MC_MEM_DATA:
		if (mc->mem_addr < sim->cfg.mc_mem_size)
			v = get_le(mc->ram + mc->mem_addr, 4);
		mc->mem_addr += 4;
		return v;
	case VPUX_REG_MC_DOORBELL:
		return mc->msip;
	case VPUX_REG_MC_SHM_LO:
		return mc->shm_lo;
	case VPUX_REG_MC_SHM_HI:
		return mc->shm_hi;
	case VPUX_REG_MC_SHM_SIZE:
		return mc->shm_size;
	case VPUX_REG_MC_INJECT:
		return mc->inject;
	case VPUX_REG_MC_RETIRED:
		return mc->retired;
	}
	return 0;
}

/* Adds the core's unit to *@kick when it has something to do. */
void vpux_sim_mc_reg_write(struct vpux_sim *sim, u32 off, u32 val, u32 *kick)
{
	struct vpux_sim_mc *mc = &sim->mc;
	u32 unit = 1u << vpux_sim_mc_unit(sim);
	bool run = mc->ctrl & VPUX_MC_CTRL_RUN;

	if (!mc_present(sim))
		return;
	switch (off) {
	case VPUX_REG_MC_CTRL:
		if (!(val & VPUX_MC_CTRL_RUN)) {
			vpux_sim_mc_reset(sim);
		} else if (!run) {
			mc->ctrl = VPUX_MC_CTRL_RUN;
			mc->gen++;
			mc->t0 = sim->ops->now_us(sim->env);
			mc->ram_dirty = true;
			*kick |= unit;
		}
		break;
	case VPUX_REG_MC_BOOT:
		mc->boot = val;
		break;
	case VPUX_REG_MC_MEM_ADDR:
		mc->mem_addr = val & ~3u;
		break;
	case VPUX_REG_MC_MEM_DATA:
		if (mc->mem_addr < sim->cfg.mc_mem_size) {
			put_le(mc->ram + mc->mem_addr, val, 4);
			mc->ram_dirty |= val != 0;
		}
		mc->mem_addr += 4;
		break;
	case VPUX_REG_MC_DOORBELL:
		if (run) {
			mc->msip = true;
			*kick |= unit;
		}
		break;
	case VPUX_REG_MC_SHM_LO:
		mc->shm_lo = val;
		break;
	case VPUX_REG_MC_SHM_HI:
		mc->shm_hi = val;
		break;
	case VPUX_REG_MC_SHM_SIZE:
		mc->shm_size = val < VPUX_MC_SHM_MAX ? val : VPUX_MC_SHM_MAX;
		break;
	case VPUX_REG_MC_INJECT:
		if (!run || mc_frozen(mc))
			break;
		if (val == VPUX_MC_INJECT_TRAP) {
			mc->inject = val;
			*kick |= unit;
		} else if (val == VPUX_MC_INJECT_FREEZE) {
			mc->inject = val;
			mc->gen++;	/* what the running batch does is dropped */
		} else if (val == VPUX_MC_INJECT_NONE) {
			mc->inject = val;
		}
		break;
	}
}

/* ---- the hart's bus ---- */

/* The core's view of the NPU's registers (lock held). */
static bool mc_npu_hidden(u32 off)
{
	return off >= VPUX_REG_MC_CTRL && off <= VPUX_REG_MC_RETIRED;
}

static int mc_reg_load(struct vpux_sim *sim, u32 addr, u32 *val)
{
	struct vpux_sim_mc *mc = &sim->mc;
	u32 off;
	u64 t;

	if (addr - VPUX_MC_NPU_BASE < VPUX_MMIO_SIZE) {
		off = addr - VPUX_MC_NPU_BASE;
		if (off == VPUX_REG_IRQ_STATUS)
			*val = sim->irq_status & VPUX_MC_IRQ_BITS;
		else if (off == VPUX_REG_IRQ_MASK)
			*val = mc->mask;
		else if (mc_npu_hidden(off))
			*val = 0;
		else
			*val = vpux_sim_reg_read_locked(sim, off);
		return 0;
	}
	switch (addr - VPUX_MC_REG_BASE) {
	case VPUX_MC_REG_MSIP:
		*val = mc->msip;
		return 0;
	case VPUX_MC_REG_MTIMECMP_LO:
		*val = (u32)mc->mtimecmp;
		return 0;
	case VPUX_MC_REG_MTIMECMP_HI:
		*val = (u32)(mc->mtimecmp >> 32);
		return 0;
	case VPUX_MC_REG_MTIME_LO:
		t = mc_mtime(sim);
		mc->mtime_hi_latch = (u32)(t >> 32);
		*val = (u32)t;
		return 0;
	case VPUX_MC_REG_MTIME_HI:
		*val = mc->mtime_hi_latch;
		return 0;
	case VPUX_MC_REG_STATUS:
		*val = mc->status;
		return 0;
	case VPUX_MC_REG_INFO:
		*val = mc->info;
		return 0;
	case VPUX_MC_REG_HOST_IRQ:
	case VPUX_MC_REG_CONSOLE:
		*val = 0;
		return 0;
	case VPUX_MC_REG_WIN_LO:
		*val = mc->win_lo;
		return 0;
	case VPUX_MC_REG_WIN_HI:
		*val = mc->win_hi;
		return 0;
	}
	return -1;
}

/* What a store asks of its caller once the lock is dropped. */
struct mc_effects {
	u32 kick;
	bool raise;
	bool print;
	char line[VPUX_SIM_MC_CONSOLE_LINE];
};

static void mc_console(struct vpux_sim_mc *mc, u8 c, struct mc_effects *fx)
{
	if (c != '\n')
		mc->con[mc->con_len++] = (char)c;
	if (c != '\n' && mc->con_len < VPUX_SIM_MC_CONSOLE_LINE - 1)
		return;
	memcpy(fx->line, mc->con, mc->con_len);
	fx->line[mc->con_len] = '\0';
	fx->print = true;
	mc->con_len = 0;
}

static int mc_npu_store(struct vpux_sim *sim, u32 off, u32 val,
			struct mc_effects *fx)
{
	switch (off) {
	case VPUX_REG_IRQ_MASK:
		sim->mc.mask = val & VPUX_MC_IRQ_BITS;
		return 0;
	case VPUX_REG_IRQ_CLEAR:
		sim->irq_status &= ~(val & VPUX_MC_IRQ_BITS);
		return 0;
	case VPUX_REG_RESET:
		/* the engines only: the core does not reset itself */
		if (val & VPUX_RESET_DEVICE)
			vpux_sim_reset_npu(sim);
		return 0;
	}
	if (!mc_npu_hidden(off))
		fx->raise |= vpux_sim_reg_write_locked(sim, off, val, &fx->kick);
	return 0;
}

static int mc_reg_store(struct vpux_sim *sim, u32 addr, u32 val,
			struct mc_effects *fx)
{
	struct vpux_sim_mc *mc = &sim->mc;
	u32 old;

	if (addr - VPUX_MC_NPU_BASE < VPUX_MMIO_SIZE)
		return mc_npu_store(sim, addr - VPUX_MC_NPU_BASE, val, fx);
	switch (addr - VPUX_MC_REG_BASE) {
	case VPUX_MC_REG_MSIP:
		mc->msip = val & 1;
		return 0;
	case VPUX_MC_REG_MTIMECMP_LO:
		mc->mtimecmp = (mc->mtimecmp & ~0xffffffffull) | val;
		return 0;
	case VPUX_MC_REG_MTIMECMP_HI:
		mc->mtimecmp = (mc->mtimecmp & 0xffffffffull) | (u64)val << 32;
		return 0;
	case VPUX_MC_REG_MTIME_LO:
	case VPUX_MC_REG_MTIME_HI:
		return 0;
	case VPUX_MC_REG_STATUS:
		mc->status = val;
		return 0;
	case VPUX_MC_REG_INFO:
		mc->info = val;
		return 0;
	case VPUX_MC_REG_HOST_IRQ:
		old = sim->irq_status & sim->irq_mask;
		sim->irq_status |= VPUX_IRQ_MC;
		fx->raise |= (sim->irq_status & sim->irq_mask & ~old) != 0;
		return 0;
	case VPUX_MC_REG_WIN_LO:
		mc->win_lo = val & ~(VPUX_PAGE_SIZE - 1);
		return 0;
	case VPUX_MC_REG_WIN_HI:
		mc->win_hi = val;
		return 0;
	case VPUX_MC_REG_CONSOLE:
		mc_console(mc, (u8)val, fx);
		return 0;
	}
	return -1;
}

/*
 * Shared memory and the window: host memory by bus address, like an
 * engine's. A store goes through env->phys_write under the lock (no store
 * of a reset core lands after the reset); a load reads without it.
 */
static int mc_host_mem(struct vpux_sim *sim, u32 addr, u32 size, u32 *val,
		       bool write)
{
	struct vpux_sim_mc *mc = &sim->mc;
	u8 b[4];
	u64 pa;
	u32 off;
	int ret;

	mc_lock(sim);
	if (mc_stale(mc)) {
		mc_unlock(sim);
		*val = 0;
		return 0;
	}
	if (addr - VPUX_MC_SHM_BASE < VPUX_MC_SHM_MAX) {
		off = addr - VPUX_MC_SHM_BASE;
		if (off + size > mc->shm_size) {
			mc_unlock(sim);
			return -1;
		}
		pa = ((u64)mc->shm_hi << 32 | mc->shm_lo) + off;
	} else {
		off = addr - VPUX_MC_WIN_BASE;
		pa = ((u64)mc->win_hi << 32 | mc->win_lo) + off;
	}
	if (write) {
		put_le(b, *val, size);
		ret = sim->ops->phys_write(sim->env, pa, b, size);
		mc_unlock(sim);
	} else {
		mc_unlock(sim);
		ret = sim->ops->phys_read(sim->env, pa, b, size);
		*val = get_le(b, size);
	}
	return ret ? -1 : 0;
}

static bool mc_is_host_mem(u32 addr)
{
	return addr - VPUX_MC_SHM_BASE < VPUX_MC_SHM_MAX ||
	       addr - VPUX_MC_WIN_BASE < VPUX_MC_WIN_SIZE;
}

static int mc_load(void *ctx, u32 addr, u32 size, u32 *val)
{
	struct vpux_sim *sim = ctx;
	int ret = 0;

	if (mc_is_host_mem(addr))
		return mc_host_mem(sim, addr, size, val, false);
	if (size != 4)
		return -1;
	mc_lock(sim);
	*val = 0;
	if (!mc_stale(&sim->mc))
		ret = mc_reg_load(sim, addr, val);
	mc_lines(sim);
	mc_unlock(sim);
	return ret;
}

static int mc_store(void *ctx, u32 addr, u32 size, u32 val)
{
	struct vpux_sim *sim = ctx;
	struct mc_effects fx;
	int ret = 0;

	if (mc_is_host_mem(addr))
		return mc_host_mem(sim, addr, size, &val, true);
	if (size != 4)
		return -1;
	fx.kick = 0;
	fx.raise = false;
	fx.print = false;
	mc_lock(sim);
	if (!mc_stale(&sim->mc))
		ret = mc_reg_store(sim, addr, val, &fx);
	mc_lines(sim);
	sim->mc.wake = false;	/* the lines are fresh: no need to kick itself */
	if (sim->step_mode)
		fx.kick = 0;
	mc_unlock(sim);
	vpux_sim_kick(sim, fx.kick);
	if (fx.raise)
		sim->ops->irq_raise(sim->env);
	if (fx.print && sim->ops->console)
		sim->ops->console(sim->env, fx.line);
	return ret;
}

/* ---- execution ---- */

static void mc_hart_reset(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;

	mc->rv.ram = mc->ram;
	mc->rv.ram_base = VPUX_MC_RAM_BASE;
	mc->rv.ram_size = sim->cfg.mc_mem_size;
	mc->rv.bus = &mc->bus;
	vpux_rv_reset(&mc->rv, mc->boot);
	mc->hart_gen = mc->gen;
}

/* When the sleeping hart's timer fires, on env->now_us's clock; 0: never. */
static u64 mc_deadline(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;
	u64 t;

	if (!(mc->rv.mie & VPUX_RV_MIP_MTIP) || mc->mtimecmp == ~0ull)
		return 0;
	t = mc->t0 + mc->mtimecmp;
	if (t < mc->t0)
		return 0;
	return t ? t : 1;
}

/*
 * Run the hart in batches until it sleeps in WFI with nothing pending,
 * is stopped or step mode takes over. Lock held, mc->running set; the
 * batches run without it. Returns the time its timer wakes it, or 0.
 */
static u64 mc_execute(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;
	struct vpux_rv *rv = &mc->rv;
	u8 *p;
	u32 gen;

	for (;;) {
		if (mc->spare_dirty) {
			p = mc->spare;
			mc_unlock(sim);
			memset(p, 0, sim->cfg.mc_mem_size);
			mc_lock(sim);
			mc->spare_dirty = false;
			continue;
		}
		if (sim->step_mode || !(mc->ctrl & VPUX_MC_CTRL_RUN) ||
		    mc_frozen(mc))
			return 0;
		if (mc_stale(mc))
			mc_hart_reset(sim);
		mc->wake = false;
		mc_lines(sim);
		if (mc->inject == VPUX_MC_INJECT_TRAP) {
			mc->inject = VPUX_MC_INJECT_NONE;
			vpux_rv_trap(rv, VPUX_RV_CAUSE_ILLEGAL_INSN, 0);
		}
		if (rv->wfi && !(rv->mie & rv->mip))
			return mc_deadline(sim);
		gen = mc->gen;
		mc->batch_ram = mc->ram;
		mc_unlock(sim);
		vpux_rv_run(rv, VPUX_SIM_MC_BATCH);
		sim->ops->yield(sim->env);
		mc_lock(sim);
		mc->batch_ram = NULL;
		if (mc->gen == gen)
			mc->retired = (u32)rv->minstret;
	}
}

/* The management core's unit (vpux_sim_run_unit()). */
int vpux_sim_mc_run(struct vpux_sim *sim)
{
	struct vpux_sim_mc *mc = &sim->mc;
	u64 deadline;

	if (!mc_present(sim))
		return 0;
	mc_lock(sim);
	if (mc->running) {
		mc_unlock(sim);
		return 0;
	}
	mc->running = true;
	/* this call may be the timer's: it is not armed any more */
	mc->armed = 0;
	for (;;) {
		deadline = mc_execute(sim);
		if (!deadline || deadline == mc->armed)
			break;
		/* still running: a kick meanwhile is seen by the next pass */
		mc->armed = deadline;
		mc_unlock(sim);
		sim->ops->kick_at(sim->env, vpux_sim_mc_unit(sim), deadline);
		mc_lock(sim);
	}
	mc->running = false;
	mc_unlock(sim);
	return 0;
}
