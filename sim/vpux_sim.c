// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: register file, interrupt logic, engine state machines,
 * virtual clock and the executors that run queued ops.
 *
 * A register write never computes: START latches the op and queues it;
 * the engine's execution unit, run by the platform (vpux_sim_run_unit) or
 * by a test (vpux_sim_step), executes it later with the register lock
 * dropped, then publishes the completion under the lock. Engines execute
 * independently of each other. Documentation/hw-model.rst is the prose
 * version of what follows; the locking rules are in vpux_sim_priv.h.
 */

#include "vpux_sim_priv.h"

#define VPUX_CAPS_ALL	(VPUX_CAP_DMA_4D | VPUX_CAP_DPU_INT8 | VPUX_CAP_SHAVE | \
			 VPUX_CAP_MMU | VPUX_CAP_CYCLE_COUNTER | \
			 VPUX_CAP_FAULT_INJECT | VPUX_CAP_CMX_CLEAR | \
			 VPUX_CAP_POWER | VPUX_CAP_START_AT)

/* The interrupt bits the host's IRQ_MASK keeps. */
#define VPUX_IRQ_HOST	(VPUX_IRQ_ALL | VPUX_IRQ_MC)

static void sim_lock(struct vpux_sim *sim)
{
	sim->ops->lock(sim->env);
}

static void sim_unlock(struct vpux_sim *sim)
{
	sim->ops->unlock(sim->env);
}

static u32 lo32(u64 v)
{
	return (u32)(v & 0xffffffffu);
}

static u32 hi32(u64 v)
{
	return (u32)(v >> 32);
}

static u32 sim_pending(const struct vpux_sim *sim)
{
	return sim->irq_status & sim->irq_mask;
}

/**
 * vpux_sim_default_config() - the shape of the default virtual NPU
 * @cfg: filled in
 *
 * 2 DMA, 2 DPU and 2 SHAVE engines, 4 CMX tiles of 256 KiB (1 MiB of
 * on-chip memory per instance: small enough for eight instances in a
 * kernel, large enough for real tiles), all 16 MMU context slots and a
 * 700 MHz cycle counter, and a management core with 4 MiB of RAM.
 */
void vpux_sim_default_config(struct vpux_sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->n_dma = VPUX_SIM_DEF_DMA;
	cfg->n_dpu = VPUX_SIM_DEF_DPU;
	cfg->n_shave = VPUX_SIM_DEF_SHAVE;
	cfg->n_tiles = VPUX_SIM_DEF_TILES;
	cfg->cmx_size = VPUX_SIM_DEF_CMX_SIZE;
	cfg->ctx_slots = VPUX_MAX_CTX_SLOTS;
	cfg->clock_khz = VPUX_SIM_DEF_CLOCK_KHZ;
	cfg->mc_mem_size = VPUX_SIM_MC_DEF_MEM;
}

static bool sim_config_ok(const struct vpux_sim_config *cfg)
{
	u64 cmx_total = (u64)cfg->n_tiles * cfg->cmx_size;

	if (!cfg->n_dma || !cfg->n_dpu || !cfg->n_shave)
		return false;
	if ((u64)cfg->n_dma + cfg->n_dpu + cfg->n_shave > VPUX_MAX_ENGINES)
		return false;
	if (!cfg->n_tiles || cfg->n_tiles > VPUX_SIM_MAX_TILES)
		return false;
	if (!cfg->cmx_size || cfg->cmx_size & (VPUX_PAGE_SIZE - 1))
		return false;
	if (cmx_total > VPUX_SIM_MAX_CMX_TOTAL ||
	    VPUX_DEFAULT_CMX_BASE + cmx_total > VPUX_DEFAULT_VA_BASE)
		return false;
	if (!cfg->ctx_slots || cfg->ctx_slots > VPUX_MAX_CTX_SLOTS)
		return false;
	if (cfg->mc_mem_size & (VPUX_PAGE_SIZE - 1) ||
	    cfg->mc_mem_size > VPUX_SIM_MC_MEM_MAX)
		return false;
	return cfg->clock_khz != 0;
}

static void sim_engine_init(struct vpux_sim *sim, u32 e)
{
	struct vpux_sim_engine *eng = &sim->eng[e];

	if (e < sim->cfg.n_dma)
		eng->kind = VPUX_ENGINE_KIND_DMA;
	else if (e < sim->cfg.n_dma + sim->cfg.n_dpu)
		eng->kind = VPUX_ENGINE_KIND_DPU;
	else
		eng->kind = VPUX_ENGINE_KIND_SHAVE;
	eng->inj_slow = 1;
}

struct vpux_sim *vpux_sim_create(const struct vpux_sim_config *cfg,
				 const struct vpux_sim_env_ops *ops, void *env)
{
	struct vpux_sim *sim;
	u32 e;

	if (!cfg || !ops || !sim_config_ok(cfg))
		return NULL;
	if (!ops->alloc || !ops->free || !ops->phys_read || !ops->phys_write ||
	    !ops->lock || !ops->unlock || !ops->irq_raise || !ops->kick ||
	    !ops->yield)
		return NULL;
	if (cfg->mc_mem_size && (!ops->now_us || !ops->kick_at))
		return NULL;

	sim = ops->alloc(env, sizeof(*sim));
	if (!sim)
		return NULL;
	sim->cfg = *cfg;
	sim->ops = ops;
	sim->env = env;
	sim->n_engines = cfg->n_dma + cfg->n_dpu + cfg->n_shave;
	sim->cmx_base = VPUX_DEFAULT_CMX_BASE;
	sim->pwr_ctrl = VPUX_PWR_ON;
	sim->cmx_bytes = (u64)cfg->n_tiles * cfg->cmx_size;
	for (e = 0; e < sim->n_engines; e++)
		sim_engine_init(sim, e);

	sim->cmx = ops->alloc(env, sim->cmx_bytes);
	if (!sim->cmx)
		goto err;
	if (vpux_sim_mc_create(sim))
		goto err;
	for (e = 0; e < sim->n_engines; e++) {
		struct vpux_sim_op *op = &sim->op[e];

		op->sim = sim;
		op->tlb = ops->alloc(env, sizeof(*op->tlb) * cfg->ctx_slots *
				     VPUX_SIM_TLB_ENTRIES);
		op->bounce = ops->alloc(env, VPUX_SIM_BOUNCE_SIZE);
		if (!op->tlb || !op->bounce)
			goto err;
	}
	return sim;

err:
	vpux_sim_destroy(sim);
	return NULL;
}

/* The platform guarantees that no executor and no register access is active. */
void vpux_sim_destroy(struct vpux_sim *sim)
{
	void *env;
	u32 e;

	if (!sim)
		return;
	env = sim->env;
	for (e = 0; e < sim->n_engines; e++) {
		if (sim->op[e].bounce)
			sim->ops->free(env, sim->op[e].bounce);
		if (sim->op[e].tlb)
			sim->ops->free(env, sim->op[e].tlb);
	}
	if (sim->cmx)
		sim->ops->free(env, sim->cmx);
	vpux_sim_mc_destroy(sim);
	sim->ops->free(env, sim);
}

/* ---- engine state machine (all under the lock) ---- */

/* Every engine drops the cached translations of @slots before its next op. */
static void sim_tlb_invalidate(struct vpux_sim *sim, u32 slots)
{
	u32 e;

	slots &= (1u << sim->cfg.ctx_slots) - 1;
	for (e = 0; e < sim->n_engines; e++)
		sim->eng[e].tlb_flush |= slots;
}

/* Drop the engine's op, if any; the executor discards stale results. */
static void eng_cancel(struct vpux_sim_engine *eng)
{
	VPUX_SIM_WRITE_ONCE(eng->gen, eng->gen + 1);
	eng->phase = VPUX_SIM_PH_IDLE;
}

static bool eng_busy(const struct vpux_sim_engine *eng)
{
	return eng->phase != VPUX_SIM_PH_IDLE;
}

static void eng_abort(struct vpux_sim_engine *eng)
{
	if (!eng_busy(eng))
		return;
	eng_cancel(eng);
	eng->status = VPUX_ENG_STATE_ERROR |
		      (VPUX_ENG_ERR_ABORTED << VPUX_ENG_ERROR_SHIFT);
}

static void eng_reset(struct vpux_sim *sim, u32 e)
{
	struct vpux_sim_engine *eng = &sim->eng[e];

	eng_cancel(eng);
	eng->status = VPUX_ENG_STATE_IDLE;
	eng->ctx = 0;
	eng->op_cycles = 0;
	eng->ops_done = 0;
	eng->inj_mmu_fault = false;
	eng->inj_drop_irq = false;
	eng->inj_slow = 1;
	eng->free_time = 0;
	eng->start_at = 0;
	eng->start_at_armed = false;
	eng->n_busy = 0;
	eng->busy_floor = 0;
	sim->irq_status &= ~VPUX_IRQ_ENGINE(e);
}

/*
 * Consume one op's worth of the INJECT register for engine @e: returns the
 * kind that applies to the op being started.
 */
static u32 sim_inject_take(struct vpux_sim *sim, u32 e)
{
	u32 inj = sim->inject;
	u32 kind = (inj >> VPUX_INJECT_KIND_SHIFT) & 0xf;
	u32 count = inj >> VPUX_INJECT_COUNT_SHIFT;

	if (kind == VPUX_INJECT_NONE ||
	    ((inj >> VPUX_INJECT_ENGINE_SHIFT) & 0xff) != e)
		return VPUX_INJECT_NONE;
	if (count) {
		count--;
		if (count)
			sim->inject = (inj & 0xffffu) |
				      (count << VPUX_INJECT_COUNT_SHIFT);
		else
			sim->inject = 0;
	}
	return kind;
}

/* Publish a completion; returns true if the interrupt line must be raised. */
static bool eng_complete(struct vpux_sim *sim, u32 e, u32 err, u64 cycles,
			 bool drop_irq)
{
	struct vpux_sim_engine *eng = &sim->eng[e];
	u32 old = sim_pending(sim);

	eng->phase = VPUX_SIM_PH_IDLE;
	eng->status = err ? VPUX_ENG_STATE_ERROR | (err << VPUX_ENG_ERROR_SHIFT) :
			    VPUX_ENG_STATE_DONE;
	eng->op_cycles = cycles > 0xffffffffull ? 0xffffffffu : (u32)cycles;
	eng->ops_done++;
	if (!drop_irq)
		sim->irq_status |= VPUX_IRQ_ENGINE(e);
	vpux_sim_mc_irq_update(sim);
	return (sim_pending(sim) & ~old) != 0;
}

/*
 * START: latch and queue, add @e to *@kick; returns true if the IRQ line
 * must be raised.
 */
static bool eng_start(struct vpux_sim *sim, u32 e, u32 *kick)
{
	struct vpux_sim_engine *eng = &sim->eng[e];
	u32 kind;

	if (eng_busy(eng)) {
		/*
		 * Protocol violation: the in-flight op is killed and the
		 * engine reports a descriptor error, as a completion.
		 */
		eng_cancel(eng);
		return eng_complete(sim, e, VPUX_ENG_ERR_DESC, 0, false);
	}

	memcpy(eng->latched, eng->param, sizeof(eng->latched));
	eng->latched_ctx = eng->ctx;
	eng->status = VPUX_ENG_STATE_BUSY;
	eng->seq = ++sim->seq;
	/*
	 * Per-engine time: an op the issuer dated is ready at START_AT
	 * (eng_place() finds when the engine is free for it), else at the
	 * counter's value (the latest completion the device published).
	 */
	eng->start_time = eng->start_at_armed ? eng->start_at : sim->now;
	eng->start_at_armed = false;
	eng->inj_mmu_fault = false;
	eng->inj_drop_irq = false;
	eng->inj_slow = 1;

	kind = sim_inject_take(sim, e);
	switch (kind) {
	case VPUX_INJECT_HANG:
		eng->phase = VPUX_SIM_PH_HUNG;
		return false;
	case VPUX_INJECT_DROP_IRQ:
		eng->inj_drop_irq = true;
		break;
	case VPUX_INJECT_MMU_FAULT:
		eng->inj_mmu_fault = true;
		break;
	case VPUX_INJECT_SLOW:
		eng->inj_slow = sim->inject_arg ? sim->inject_arg : 1;
		break;
	default:
		break;
	}
	eng->phase = VPUX_SIM_PH_QUEUED;
	*kick |= 1u << e;
	return false;
}

/* ---- CMX clear (under the lock) ---- */

/* The CMX clear unit's index: after the engines. */
static u32 clr_unit(const struct vpux_sim *sim)
{
	return sim->n_engines;
}

/* CMX_CLEAR_LO/HI write: queue @tiles for clearing, add the unit to *@kick. */
static void clr_request(struct vpux_sim *sim, u64 tiles, u32 *kick)
{
	struct vpux_sim_clear *c = &sim->clr;
	u64 add, t;
	u32 n = 0;

	if (sim->cfg.n_tiles < 64)
		tiles &= (1ull << sim->cfg.n_tiles) - 1;
	add = tiles & ~c->busy;
	if (!add)
		return;
	if (!c->busy) {
		c->seq = ++sim->seq;
		c->start_time = sim->now;
		c->cycles = VPUX_SIM_CLEAR_SETUP_CYCLES;
	}
	for (t = add; t; t &= t - 1)
		n++;
	c->busy |= add;
	c->cycles += (u64)n * (sim->cfg.cmx_size >>
			       VPUX_SIM_DMA_BYTES_PER_CYCLE_SHIFT);
	*kick |= 1u << clr_unit(sim);
}

/* RESET: drop the clear; a tile being zeroed keeps whatever it has. */
static void clr_reset(struct vpux_sim *sim)
{
	struct vpux_sim_clear *c = &sim->clr;

	VPUX_SIM_WRITE_ONCE(c->gen, c->gen + 1);
	c->busy = 0;
	c->done = 0;
}

/*
 * RESET_DEVICE without the management core: the engines, the CMX clear,
 * interrupts and faults (the core resets the engines this way).
 */
void vpux_sim_reset_npu(struct vpux_sim *sim)
{
	u32 e;

	for (e = 0; e < sim->n_engines; e++)
		eng_reset(sim, e);
	clr_reset(sim);
	sim->irq_status = 0;
	sim->fault_status = 0;
	sim->fault_addr = 0;
	sim->inject = 0;
	sim->inject_arg = 0;
	sim_tlb_invalidate(sim, ~0u);
}

/* ---- power ---- */

/* The always-on domain: identity, the cycle counter, PWR_*. */
static bool pwr_always_on(u32 off)
{
	return off <= VPUX_REG_SERIAL || off == VPUX_REG_CYCLES_LO ||
	       off == VPUX_REG_CYCLES_HI ||
	       (off >= VPUX_REG_PWR_CTRL && off <= VPUX_REG_PWR_OFF_COUNT);
}

/*
 * An access to @off reaches its register: true, or false (counted) when
 * the register's domain is off.
 */
static bool pwr_reachable(struct vpux_sim *sim, u32 off)
{
	if ((sim->pwr_ctrl & VPUX_PWR_ON) || pwr_always_on(off))
		return true;
	sim->pwr_violations++;
	return false;
}

/*
 * Power the switchable domain off: what runs there is cut (a violation:
 * the driver should have let it finish), and its registers lose their
 * state. Powering on finds them as this left them: at reset values.
 */
static void pwr_off(struct vpux_sim *sim)
{
	u32 e, c;

	for (e = 0; e < sim->n_engines; e++)
		if (eng_busy(&sim->eng[e]))
			sim->pwr_violations++;
	if (sim->clr.busy)
		sim->pwr_violations++;
	if (sim->mc.ctrl & VPUX_MC_CTRL_RUN)
		sim->pwr_violations++;
	vpux_sim_reset_npu(sim);
	vpux_sim_mc_reset(sim);
	sim->irq_mask = 0;
	for (c = 0; c < VPUX_MAX_CTX_SLOTS; c++) {
		sim->mmu_pt_lo[c] = 0;
		sim->mmu_pt_hi[c] = 0;
		sim->mmu_ctrl[c] = 0;
	}
	for (e = 0; e < sim->n_engines; e++) {
		sim->eng[e].ctx = 0;
		memset(sim->eng[e].param, 0, sizeof(sim->eng[e].param));
	}
	sim->pwr_ctrl = 0;
	sim->pwr_off_count++;
}

static void pwr_ctrl_write(struct vpux_sim *sim, u32 val)
{
	bool on = val & VPUX_PWR_ON;

	if (on == !!(sim->pwr_ctrl & VPUX_PWR_ON))
		return;
	if (on)
		sim->pwr_ctrl = VPUX_PWR_ON;
	else
		pwr_off(sim);
}

/* ---- register access ---- */

static u32 eng_reg_read(struct vpux_sim *sim, u32 e, u32 reg)
{
	struct vpux_sim_engine *eng = &sim->eng[e];

	switch (reg) {
	case VPUX_ENG_STATUS:
		return eng->status;
	case VPUX_ENG_CTX:
		return eng->ctx;
	case VPUX_ENG_OP_CYCLES:
		return eng->op_cycles;
	case VPUX_ENG_KIND:
		return eng->kind;
	case VPUX_ENG_OPS_DONE:
		return eng->ops_done;
	case VPUX_ENG_FAULT_ADDR_LO:
		return eng->fault.reason ? (u32)eng->fault.addr : 0;
	case VPUX_ENG_FAULT_ADDR_HI:
		return eng->fault.reason ? (u32)(eng->fault.addr >> 32) : 0;
	case VPUX_ENG_TRAP_CAUSE:
		return eng->trap.cause;
	case VPUX_ENG_TRAP_PC:
		return eng->trap.pc;
	case VPUX_ENG_TRAP_TVAL:
		return eng->trap.tval;
	case VPUX_ENG_TRAP_KERNEL:
		return eng->trap.kernel;
	case VPUX_ENG_TRAP_INVOCATION:
		return eng->trap.invocation;
	case VPUX_ENG_RT_DEBUG:
		return eng->trap.rt_debug;
	case VPUX_ENG_START_AT_LO:
		return lo32(eng->start_at);
	case VPUX_ENG_START_AT_HI:
		return hi32(eng->start_at);
	case VPUX_ENG_END_LO:
		return lo32(eng->free_time);
	case VPUX_ENG_END_HI:
		return hi32(eng->free_time);
	}
	if (reg >= VPUX_ENG_PARAM(0) &&
	    reg < VPUX_ENG_PARAM(VPUX_ENG_PARAM_WORDS))
		return eng->param[(reg - VPUX_ENG_PARAM(0)) >> 2];
	return 0;
}

static bool eng_reg_write(struct vpux_sim *sim, u32 e, u32 reg, u32 val,
			  u32 *kick)
{
	struct vpux_sim_engine *eng = &sim->eng[e];

	switch (reg) {
	case VPUX_ENG_CMD:
		if (val == VPUX_ENG_CMD_START)
			return eng_start(sim, e, kick);
		if (val == VPUX_ENG_CMD_ABORT)
			eng_abort(eng);
		return false;
	case VPUX_ENG_CTX:
		eng->ctx = val;
		return false;
	case VPUX_ENG_START_AT_LO:
		eng->start_at = (eng->start_at & ~0xffffffffull) | val;
		return false;
	case VPUX_ENG_START_AT_HI:
		eng->start_at = (u64)val << 32 | lo32(eng->start_at);
		eng->start_at_armed = true;
		return false;
	}
	if (reg >= VPUX_ENG_PARAM(0) &&
	    reg < VPUX_ENG_PARAM(VPUX_ENG_PARAM_WORDS))
		eng->param[(reg - VPUX_ENG_PARAM(0)) >> 2] = val;
	return false;
}

u32 vpux_sim_reg_read_locked(struct vpux_sim *sim, u32 off)
{
	const struct vpux_sim_config *cfg = &sim->cfg;

	if (!pwr_reachable(sim, off))
		return 0;
	if (off >= VPUX_REG_ENGINE_BASE) {
		u32 e = (off - VPUX_REG_ENGINE_BASE) / VPUX_REG_ENGINE_STRIDE;

		if (e >= sim->n_engines)
			return 0;
		return eng_reg_read(sim, e, (off - VPUX_REG_ENGINE_BASE) %
					    VPUX_REG_ENGINE_STRIDE);
	}
	if (off >= VPUX_REG_MMU_BASE && off < VPUX_REG_MMU_INVALIDATE) {
		u32 c = (off - VPUX_REG_MMU_BASE) / VPUX_REG_MMU_STRIDE;

		if (c >= cfg->ctx_slots)
			return 0;
		switch ((off - VPUX_REG_MMU_BASE) % VPUX_REG_MMU_STRIDE) {
		case 0x0:
			return sim->mmu_pt_lo[c];
		case 0x4:
			return sim->mmu_pt_hi[c];
		case 0x8:
			return sim->mmu_ctrl[c];
		}
		return 0;
	}

	if (off >= VPUX_REG_MC_CTRL && off <= VPUX_REG_MC_RETIRED)
		return vpux_sim_mc_reg_read(sim, off);

	switch (off) {
	case VPUX_REG_ID:
		return VPUX_ID_MAGIC;
	case VPUX_REG_REVISION:
		return VPUX_HW_REV_MAJOR << 16 | VPUX_HW_REV_MINOR;
	case VPUX_REG_DEVICE_ID:
		return VPUX_HW_DEVICE_ID;
	case VPUX_REG_CAPS:
		return VPUX_CAPS_ALL |
		       (cfg->mc_mem_size ? VPUX_CAP_MGMT_CORE : 0);
	case VPUX_REG_ENGINES:
		return cfg->n_dma | cfg->n_dpu << 8 | cfg->n_shave << 16;
	case VPUX_REG_TILES:
		return cfg->n_tiles;
	case VPUX_REG_CMX_SIZE:
		return cfg->cmx_size;
	case VPUX_REG_CTX_SLOTS:
		return cfg->ctx_slots;
	case VPUX_REG_VA_BASE_LO:
		return lo32(VPUX_DEFAULT_VA_BASE);
	case VPUX_REG_VA_BASE_HI:
		return hi32(VPUX_DEFAULT_VA_BASE);
	case VPUX_REG_VA_SIZE_LO:
		return lo32(VPUX_DEFAULT_VA_SIZE);
	case VPUX_REG_VA_SIZE_HI:
		return hi32(VPUX_DEFAULT_VA_SIZE);
	case VPUX_REG_CMX_BASE_LO:
		return lo32(sim->cmx_base);
	case VPUX_REG_CMX_BASE_HI:
		return hi32(sim->cmx_base);
	case VPUX_REG_CLOCK_KHZ:
		return cfg->clock_khz;
	case VPUX_REG_SERIAL:
		return cfg->instance;
	case VPUX_REG_IRQ_STATUS:
		return sim->irq_status;
	case VPUX_REG_IRQ_MASK:
		return sim->irq_mask;
	case VPUX_REG_CYCLES_LO:
		sim->cycles_hi_latch = (u32)(sim->now >> 32);
		return (u32)sim->now;
	case VPUX_REG_CYCLES_HI:
		return sim->cycles_hi_latch;
	case VPUX_REG_FAULT_STATUS:
		return sim->fault_status;
	case VPUX_REG_FAULT_ADDR_LO:
		return (u32)sim->fault_addr;
	case VPUX_REG_FAULT_ADDR_HI:
		return (u32)(sim->fault_addr >> 32);
	case VPUX_REG_INJECT:
		return sim->inject;
	case VPUX_REG_INJECT_ARG:
		return sim->inject_arg;
	case VPUX_REG_CMX_CLEAR_LO:
		return lo32(sim->clr.busy);
	case VPUX_REG_CMX_CLEAR_HI:
		return hi32(sim->clr.busy);
	case VPUX_REG_PWR_CTRL:
	case VPUX_REG_PWR_STATUS:
		return sim->pwr_ctrl;
	case VPUX_REG_PWR_VIOLATIONS:
		return sim->pwr_violations;
	case VPUX_REG_PWR_OFF_COUNT:
		return sim->pwr_off_count;
	}
	return 0;
}

u32 vpux_sim_reg_read(struct vpux_sim *sim, u32 offset)
{
	u32 val;

	if (offset >= VPUX_MMIO_SIZE || offset & 3)
		return 0;
	sim_lock(sim);
	val = vpux_sim_reg_read_locked(sim, offset);
	sim_unlock(sim);
	return val;
}

static void mmu_reg_write(struct vpux_sim *sim, u32 off, u32 val)
{
	u32 c = (off - VPUX_REG_MMU_BASE) / VPUX_REG_MMU_STRIDE;

	if (c >= sim->cfg.ctx_slots)
		return;
	switch ((off - VPUX_REG_MMU_BASE) % VPUX_REG_MMU_STRIDE) {
	case 0x0:
		sim->mmu_pt_lo[c] = val & ~(VPUX_PAGE_SIZE - 1);
		break;
	case 0x4:
		sim->mmu_pt_hi[c] = val & (u32)(VPUX_PTE_ADDR_MASK >> 32);
		break;
	case 0x8:
		sim->mmu_ctrl[c] = val & VPUX_MMU_CTRL_ENABLE;
		break;
	default:
		return;
	}
	/* a new root or enable state implies dropping cached walks */
	sim_tlb_invalidate(sim, 1u << c);
}

/*
 * Returns true if the interrupt line must be raised; adds the units to
 * kick to *@kick.
 */
bool vpux_sim_reg_write_locked(struct vpux_sim *sim, u32 off, u32 val,
			       u32 *kick)
{
	u32 old = sim_pending(sim);
	u32 e;

	if (!pwr_reachable(sim, off))
		return false;
	if (off >= VPUX_REG_ENGINE_BASE) {
		e = (off - VPUX_REG_ENGINE_BASE) / VPUX_REG_ENGINE_STRIDE;
		if (e >= sim->n_engines)
			return false;
		return eng_reg_write(sim, e, (off - VPUX_REG_ENGINE_BASE) %
					     VPUX_REG_ENGINE_STRIDE, val, kick);
	}
	if (off >= VPUX_REG_MMU_BASE && off < VPUX_REG_MMU_INVALIDATE) {
		mmu_reg_write(sim, off, val);
		return false;
	}
	if (off >= VPUX_REG_MC_CTRL && off <= VPUX_REG_MC_RETIRED) {
		vpux_sim_mc_reg_write(sim, off, val, kick);
		return false;
	}

	switch (off) {
	case VPUX_REG_IRQ_MASK:
		sim->irq_mask = val & VPUX_IRQ_HOST;
		return (sim_pending(sim) & ~old) != 0;
	case VPUX_REG_IRQ_CLEAR:
		/*
		 * Level-triggered line on an edge-signalling platform: if
		 * the write acked something and the line is still asserted,
		 * signal again so no completion is lost.
		 */
		if (!(sim->irq_status & val))
			return false;
		sim->irq_status &= ~val;
		return sim_pending(sim) != 0;
	case VPUX_REG_RESET:
		if (val & VPUX_RESET_DEVICE) {
			vpux_sim_reset_npu(sim);
			vpux_sim_mc_reset(sim);
		}
		return false;
	case VPUX_REG_FAULT_STATUS:
		if (val & VPUX_FAULT_VALID) {
			sim->fault_status = 0;
			sim->fault_addr = 0;
		}
		return false;
	case VPUX_REG_INJECT:
		sim->inject = val;
		return false;
	case VPUX_REG_INJECT_ARG:
		sim->inject_arg = val;
		return false;
	case VPUX_REG_ENGINE_RESET:
		for (e = 0; e < sim->n_engines; e++)
			if (val & (1u << e))
				eng_reset(sim, e);
		return false;
	case VPUX_REG_MMU_INVALIDATE:
		sim_tlb_invalidate(sim, val);
		return false;
	case VPUX_REG_CMX_CLEAR_LO:
		clr_request(sim, val, kick);
		return false;
	case VPUX_REG_CMX_CLEAR_HI:
		clr_request(sim, (u64)val << 32, kick);
		return false;
	case VPUX_REG_PWR_CTRL:
		pwr_ctrl_write(sim, val);
		return false;
	case VPUX_REG_PWR_VIOLATIONS:
		sim->pwr_violations = 0;
		return false;
	}
	return false;
}

/* Kick every unit in the bitmask @units. Called without the lock. */
void vpux_sim_kick(struct vpux_sim *sim, u32 units)
{
	u32 u;

	for (u = 0; units; u++, units >>= 1)
		if (units & 1)
			sim->ops->kick(sim->env, u);
}

void vpux_sim_reg_write(struct vpux_sim *sim, u32 offset, u32 value)
{
	u32 kick = 0;
	u8 *clear;
	bool raise;

	if (offset >= VPUX_MMIO_SIZE || offset & 3)
		return;
	sim_lock(sim);
	raise = vpux_sim_reg_write_locked(sim, offset, value, &kick);
	kick |= vpux_sim_mc_take_kick(sim);
	if (sim->step_mode)
		kick = 0;
	clear = sim->mc.clear;
	sim->mc.clear = NULL;
	sim_unlock(sim);
	vpux_sim_mc_finish_write(sim, clear);
	vpux_sim_kick(sim, kick);
	if (raise)
		sim->ops->irq_raise(sim->env);
}

/* ---- executors ---- */

u32 vpux_sim_units(const struct vpux_sim *sim)
{
	return sim->n_engines + 2;
}

/* The management core's unit: after the CMX clear unit. */
u32 vpux_sim_mc_unit(const struct vpux_sim *sim)
{
	return sim->n_engines + 1;
}

/*
 * The queued op started first (lowest START sequence) whose engine has no
 * executor running, or -1.
 */
static int sim_pick_queued(struct vpux_sim *sim)
{
	int best = -1;
	u32 e;

	for (e = 0; e < sim->n_engines; e++) {
		struct vpux_sim_engine *eng = &sim->eng[e];

		if (eng->phase != VPUX_SIM_PH_QUEUED || eng->running)
			continue;
		if (best < 0 || eng->seq < sim->eng[best].seq)
			best = e;
	}
	return best;
}

/* The computed op with the earliest virtual completion time, or -1. */
static int sim_pick_finished(struct vpux_sim *sim)
{
	int best = -1;
	u32 e;

	for (e = 0; e < sim->n_engines; e++) {
		struct vpux_sim_engine *eng = &sim->eng[e];

		if (eng->phase != VPUX_SIM_PH_FINISHED || eng->running)
			continue;
		if (best < 0 || eng->end_time < sim->eng[best].end_time ||
		    (eng->end_time == sim->eng[best].end_time &&
		     eng->seq < sim->eng[best].seq))
			best = e;
	}
	return best;
}

/* Bitmask of the units with work their executor has not taken. */
static u32 sim_units_pending(struct vpux_sim *sim)
{
	u32 e, units = 0;

	for (e = 0; e < sim->n_engines; e++)
		if (sim->eng[e].phase == VPUX_SIM_PH_QUEUED ||
		    sim->eng[e].phase == VPUX_SIM_PH_FINISHED)
			units |= 1u << e;
	if (sim->clr.busy)
		units |= 1u << clr_unit(sim);
	if (sim->mc.ctrl & VPUX_MC_CTRL_RUN)
		units |= 1u << vpux_sim_mc_unit(sim);
	return units;
}

static void sim_exec_op(struct vpux_sim_op *op)
{
	switch (op->kind) {
	case VPUX_ENGINE_KIND_DMA:
		vpux_sim_dma_exec(op);
		break;
	case VPUX_ENGINE_KIND_DPU:
		vpux_sim_dpu_exec(op);
		break;
	default:
		vpux_sim_shave_exec(op);
		break;
	}
}

/*
 * Per-engine time: the first cycle >= @ready at which @cycles fit on the
 * engine between the busy intervals it remembers (none before its floor),
 * recorded as busy. An engine forgets its oldest interval when it needs
 * room: the time up to that interval's end then counts as busy.
 */
static u64 eng_place(struct vpux_sim_engine *eng, u64 ready, u64 cycles)
{
	struct vpux_sim_busy *b = eng->busy;
	u64 t;
	u32 i, n = eng->n_busy;

	if (cycles && n == VPUX_SIM_BUSY_SLOTS) {
		if (b[0].end > eng->busy_floor)
			eng->busy_floor = b[0].end;
		memmove(&b[0], &b[1], --n * sizeof(*b));
	}
	t = ready > eng->busy_floor ? ready : eng->busy_floor;
	if (!cycles)
		return t;
	for (i = 0; i < n; i++) {
		if (t < b[i].start && cycles <= b[i].start - t)
			break;		/* fits in the gap before b[i] */
		if (t < b[i].end)
			t = b[i].end;
	}
	eng->n_busy = n;
	if (cycles > ~0ull - t)
		return t;		/* saturated: ends at the end of time */
	memmove(&b[i + 1], &b[i], (n - i) * sizeof(*b));
	b[i].start = t;
	b[i].end = t + cycles;
	eng->n_busy = n + 1;
	return t;
}

/*
 * Execute engine @e's queued op in the engine's executor (eng->running is
 * set): called and returns with the lock held, drops it for the
 * computation. The result is parked in the engine (phase FINISHED)
 * unless the op was aborted meanwhile.
 */
static void sim_execute(struct vpux_sim *sim, u32 e)
{
	struct vpux_sim_engine *eng = &sim->eng[e];
	struct vpux_sim_op *op = &sim->op[e];
	u32 gen = eng->gen, flush, c;

	op->eng_gen = &eng->gen;
	op->gen = gen;
	op->engine = e;
	op->kind = eng->kind;
	op->ctx = eng->latched_ctx;
	op->ctx_enabled = false;
	op->pt_root = 0;
	c = op->ctx;
	if (c < sim->cfg.ctx_slots) {
		op->ctx_enabled = sim->mmu_ctrl[c] & VPUX_MMU_CTRL_ENABLE;
		op->pt_root = (u64)sim->mmu_pt_hi[c] << 32 | sim->mmu_pt_lo[c];
	}
	op->inject_mmu_fault = eng->inj_mmu_fault;
	op->accessed = false;
	memcpy(op->words, eng->latched, sizeof(op->words));
	op->err = VPUX_ENG_ERR_NONE;
	op->cycles = 0;
	memset(&op->fault, 0, sizeof(op->fault));
	memset(&op->trap, 0, sizeof(op->trap));
	op->since_yield = 0;
	flush = eng->tlb_flush;
	eng->tlb_flush = 0;
	eng->phase = VPUX_SIM_PH_EXEC;
	sim_unlock(sim);

	if (flush)
		vpux_sim_tlb_flush(op, flush);
	sim_exec_op(op);

	sim_lock(sim);
	if (eng->gen != gen || eng->phase != VPUX_SIM_PH_EXEC)
		return;		/* aborted or reset while computing */
	eng->phase = VPUX_SIM_PH_FINISHED;
	eng->err = op->err;
	/* saturate: a SLOW multiplier must not wrap the virtual clock */
	if (__builtin_mul_overflow(op->cycles, (u64)eng->inj_slow, &eng->cycles))
		eng->cycles = ~0ull;
	eng->start_time = eng_place(eng, eng->start_time, eng->cycles);
	eng->end_time = eng->start_time + eng->cycles;
	if (eng->end_time < eng->start_time)
		eng->end_time = ~0ull;
	eng->fault = op->fault;
	eng->trap = op->trap;
}

/*
 * Publish engine @e's finished op at its completion time: the virtual
 * clock moves to it unless it is already later. Returns true if the line
 * must rise.
 */
static bool sim_publish(struct vpux_sim *sim, u32 e)
{
	struct vpux_sim_engine *eng = &sim->eng[e];
	u32 old = sim_pending(sim);
	bool raise;

	if (eng->end_time > sim->now)
		sim->now = eng->end_time;
	eng->free_time = eng->end_time;
	if (eng->fault.reason) {
		if (!(sim->fault_status & VPUX_FAULT_VALID)) {
			sim->fault_status = VPUX_FAULT_VALID |
				(eng->fault.write ? VPUX_FAULT_WRITE : 0) |
				eng->fault.reason << VPUX_FAULT_REASON_SHIFT |
				(eng->latched_ctx & 0xff) << VPUX_FAULT_CTX_SHIFT |
				e << VPUX_FAULT_ENGINE_SHIFT;
			sim->fault_addr = eng->fault.addr;
		}
		sim->irq_status |= VPUX_IRQ_MMU_FAULT;
	}
	raise = eng_complete(sim, e, eng->err, eng->cycles, eng->inj_drop_irq);
	return raise || (sim_pending(sim) & ~old) != 0;
}

/*
 * Engine @e's executor loop, eng->running set, lock held: execute and
 * publish its ops until it has none (or step mode takes over).
 */
static int sim_run_engine(struct vpux_sim *sim, u32 e)
{
	struct vpux_sim_engine *eng = &sim->eng[e];
	int done = 0;

	while (!sim->step_mode) {
		if (eng->phase == VPUX_SIM_PH_FINISHED) {
			bool raise = sim_publish(sim, e);
			u32 kick = vpux_sim_mc_take_kick(sim);

			done++;
			if (raise || kick) {
				sim_unlock(sim);
				vpux_sim_kick(sim, kick);
				if (raise)
					sim->ops->irq_raise(sim->env);
				sim_lock(sim);
			}
			continue;
		}
		if (eng->phase != VPUX_SIM_PH_QUEUED)
			break;
		sim_execute(sim, e);
	}
	return done;
}

/*
 * Zero CMX tile @t, with the lock dropped, in chunks; stop early if the
 * clear is dropped (generation other than @gen).
 */
static void clr_tile(struct vpux_sim *sim, u32 t, u32 gen)
{
	u8 *p = sim->cmx + (u64)t * sim->cfg.cmx_size;
	u32 off, n;

	for (off = 0; off < sim->cfg.cmx_size; off += n) {
		if (VPUX_SIM_READ_ONCE(sim->clr.gen) != gen)
			return;
		n = sim->cfg.cmx_size - off;
		if (n > VPUX_SIM_CLEAR_CHUNK)
			n = VPUX_SIM_CLEAR_CHUNK;
		memset(p + off, 0, n);
		sim->ops->yield(sim->env);
	}
}

/*
 * Zero the requested tiles not zeroed yet, lowest first, until none is
 * left (or @step is false and step mode takes over). Lock held,
 * clr.running set. In run mode each tile leaves the busy mask once
 * zeroed; in step mode (@step) it is only marked done.
 */
static void clr_execute(struct vpux_sim *sim, bool step)
{
	struct vpux_sim_clear *c = &sim->clr;
	u64 todo, bit;
	u32 gen, t;

	while ((todo = c->busy & ~c->done) && step == sim->step_mode) {
		for (t = 0; !(todo >> t & 1); t++)
			;
		bit = 1ull << t;
		gen = c->gen;
		sim_unlock(sim);
		clr_tile(sim, t, gen);
		sim_lock(sim);
		if (c->gen != gen)
			continue;	/* dropped by RESET */
		if (step)
			c->done |= bit;
		else
			c->busy &= ~bit;
	}
}

/*
 * Every requested tile is zeroed: the clear completes at its start time
 * plus its cost. Returns true if the line must rise.
 */
static bool clr_publish(struct vpux_sim *sim)
{
	struct vpux_sim_clear *c = &sim->clr;
	u32 old = sim_pending(sim);
	u64 end = c->start_time + c->cycles;

	c->busy = 0;
	c->done = 0;
	if (end > sim->now)
		sim->now = end;
	sim->irq_status |= VPUX_IRQ_CMX_CLEAR;
	return (sim_pending(sim) & ~old) != 0;
}

/* The CMX clear unit's loop, clr.running set, lock held. */
static int sim_run_clear(struct vpux_sim *sim)
{
	struct vpux_sim_clear *c = &sim->clr;
	int done = 0;

	while (!sim->step_mode && c->busy) {
		clr_execute(sim, false);
		if (sim->step_mode || c->busy & ~c->done)
			continue;
		done++;
		if (clr_publish(sim)) {
			sim_unlock(sim);
			sim->ops->irq_raise(sim->env);
			sim_lock(sim);
		}
	}
	return done;
}

int vpux_sim_run_unit(struct vpux_sim *sim, u32 unit)
{
	bool *running;
	int done;

	if (unit >= vpux_sim_units(sim))
		return 0;
	if (unit == vpux_sim_mc_unit(sim))
		return vpux_sim_mc_run(sim);
	running = unit == clr_unit(sim) ? &sim->clr.running :
					 &sim->eng[unit].running;
	sim_lock(sim);
	if (*running) {
		/* the active executor sees the new work before leaving */
		sim_unlock(sim);
		return 0;
	}
	*running = true;
	done = unit == clr_unit(sim) ? sim_run_clear(sim) :
				       sim_run_engine(sim, unit);
	*running = false;
	sim_unlock(sim);
	return done;
}

/* The unit whose oldest work was queued first, or -1. */
static int sim_pick_unit(struct vpux_sim *sim)
{
	const struct vpux_sim_clear *c = &sim->clr;
	int e = sim_pick_queued(sim);

	if (e < 0)
		e = sim_pick_finished(sim);
	if (c->busy && !c->running && (e < 0 || c->seq < sim->eng[e].seq))
		e = clr_unit(sim);
	return e;
}

int vpux_sim_run(struct vpux_sim *sim)
{
	int done = 0, u, n;
	bool step;

	for (;;) {
		sim_lock(sim);
		step = sim->step_mode;
		u = sim_pick_unit(sim);
		sim_unlock(sim);
		if (step || u < 0)
			break;
		done += vpux_sim_run_unit(sim, u);
	}
	if (step) {
		while ((n = vpux_sim_step(sim)) > 0)
			done += n;
	}
	return done;
}

/**
 * vpux_sim_irq_line() - the level of the device's interrupt line
 * @sim: the model
 *
 * Return: true while a cause is pending and unmasked (IRQ_STATUS &
 * IRQ_MASK), the condition under which the model calls env->irq_raise.
 */
bool vpux_sim_irq_line(struct vpux_sim *sim)
{
	bool line;

	sim_lock(sim);
	line = sim_pending(sim) != 0;
	sim_unlock(sim);
	return line;
}

void vpux_sim_set_step_mode(struct vpux_sim *sim, bool on)
{
	u32 kick;

	sim_lock(sim);
	sim->step_mode = on;
	kick = on ? 0 : sim_units_pending(sim);
	sim_unlock(sim);
	vpux_sim_kick(sim, kick);
}

int vpux_sim_step(struct vpux_sim *sim)
{
	struct vpux_sim_clear *c = &sim->clr;
	bool raise = false, clr;
	int e;

	sim_lock(sim);
	/* compute everything queued, in START order, then complete the earliest */
	while ((e = sim_pick_queued(sim)) >= 0) {
		sim->eng[e].running = true;
		sim_execute(sim, e);
		sim->eng[e].running = false;
	}
	if (c->busy && !c->running) {
		c->running = true;
		clr_execute(sim, true);
		c->running = false;
	}
	e = sim_pick_finished(sim);
	/* a finished CMX clear competes by completion time, then START order */
	clr = c->busy && c->busy == c->done && !c->running &&
	      (e < 0 || c->start_time + c->cycles < sim->eng[e].end_time ||
	       (c->start_time + c->cycles == sim->eng[e].end_time &&
		c->seq < sim->eng[e].seq));
	if (clr)
		raise = clr_publish(sim);
	else if (e >= 0)
		raise = sim_publish(sim, e);
	sim_unlock(sim);
	if (raise)
		sim->ops->irq_raise(sim->env);
	return clr || e >= 0;
}
