// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Register-level tests of the NPU model against a bare environment (no
 * host platform): identity, IRQ status/mask/W1C and when the line is
 * signalled, reset, engine reset, cycle counter latch, START/ABORT rules,
 * INJECT bookkeeping, MMU register masking, the power domains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_sim.h"
#include "vpux_tap.h"

struct env {
	int raises;
	int kicks;
	int locked;
	int lock_errors;
	int yields;
};

static void *e_alloc(void *env, size_t size)
{
	(void)env;
	return calloc(1, size);
}

static void e_free(void *env, void *p)
{
	(void)env;
	free(p);
}

static int e_phys(void *env, u64 pa, void *buf, size_t len)
{
	(void)env; (void)pa; (void)buf; (void)len;
	return -1;	/* no system memory: CMX-only ops */
}

static int e_phys_w(void *env, u64 pa, const void *buf, size_t len)
{
	(void)env; (void)pa; (void)buf; (void)len;
	return -1;
}

static void e_lock(void *env)
{
	struct env *e = env;

	if (e->locked)
		e->lock_errors++;
	e->locked = 1;
}

static void e_unlock(void *env)
{
	struct env *e = env;

	if (!e->locked)
		e->lock_errors++;
	e->locked = 0;
}

static void e_raise(void *env)
{
	struct env *e = env;

	if (e->locked)
		e->lock_errors++;	/* must be called without the lock */
	e->raises++;
}

static void e_kick(void *env, u32 unit)
{
	struct env *e = env;

	(void)unit;
	if (e->locked)
		e->lock_errors++;
	e->kicks++;
}

static void e_yield(void *env)
{
	struct env *e = env;

	if (e->locked)
		e->lock_errors++;	/* computation never holds the lock */
	e->yields++;
}

static u64 e_now_us(void *env)
{
	(void)env;
	return 0;
}

static void e_kick_at(void *env, u32 unit, u64 us)
{
	(void)us;
	e_kick(env, unit);
}

static const struct vpux_sim_env_ops ops = {
	.alloc = e_alloc, .free = e_free, .phys_read = e_phys,
	.phys_write = e_phys_w, .lock = e_lock, .unlock = e_unlock,
	.irq_raise = e_raise, .kick = e_kick, .yield = e_yield,
	.now_us = e_now_us, .kick_at = e_kick_at,
};

static struct env env;
static struct vpux_sim *sim;

static u32 rd(u32 off)
{
	return vpux_sim_reg_read(sim, off);
}

static void wr(u32 off, u32 v)
{
	vpux_sim_reg_write(sim, off, v);
}

static u32 erd(u32 e, u32 reg)
{
	return rd(VPUX_REG_ENGINE(e) + reg);
}

/* Start a CMX -> CMX copy of @len bytes on DMA engine @e. */
static void start_cmx_copy(u32 e, u32 len)
{
	struct vpux_hw_dma_desc d;
	u32 w[sizeof(d) / 4];
	u32 i;

	memset(&d, 0, sizeof(d));
	d.len = len;
	d.src = VPUX_DEFAULT_CMX_BASE;
	d.dst = VPUX_DEFAULT_CMX_BASE + 65536;
	d.count[0] = d.count[1] = d.count[2] = 1;
	memcpy(w, &d, sizeof(d));
	for (i = 0; i < sizeof(d) / 4; i++)
		wr(VPUX_REG_ENGINE(e) + VPUX_ENG_PARAM(i), w[i]);
	wr(VPUX_REG_ENGINE(e) + VPUX_ENG_CMD, VPUX_ENG_CMD_START);
}

static u32 dma_cycles(u32 len)
{
	return 64 + (len + 31) / 32;
}

static void test_identity(void)
{
	struct vpux_sim_config cfg;
	struct vpux_sim *s2;
	u32 e, n;

	tap_check(rd(VPUX_REG_ID) == VPUX_ID_MAGIC, "ID magic");
	tap_check(rd(VPUX_REG_REVISION) == (VPUX_HW_REV_MAJOR << 16 | VPUX_HW_REV_MINOR),
		  "revision");
	tap_check(rd(VPUX_REG_DEVICE_ID) == VPUX_HW_DEVICE_ID, "device id");
	tap_check(rd(VPUX_REG_CAPS) == 0x3ff, "caps: all ten capabilities");
	tap_check(rd(VPUX_REG_ENGINES) == (2 | 3 << 8 | 1 << 16), "engines 2/3/1");
	tap_check(rd(VPUX_REG_TILES) == 2, "tiles");
	tap_check(rd(VPUX_REG_CMX_SIZE) == 128 * 1024, "cmx size");
	tap_check(rd(VPUX_REG_CTX_SLOTS) == 4, "ctx slots");
	tap_check(((u64)rd(VPUX_REG_VA_BASE_HI) << 32 | rd(VPUX_REG_VA_BASE_LO)) ==
		  VPUX_DEFAULT_VA_BASE, "VA base");
	tap_check(((u64)rd(VPUX_REG_VA_SIZE_HI) << 32 | rd(VPUX_REG_VA_SIZE_LO)) ==
		  VPUX_DEFAULT_VA_SIZE, "VA size");
	tap_check(((u64)rd(VPUX_REG_CMX_BASE_HI) << 32 | rd(VPUX_REG_CMX_BASE_LO)) ==
		  VPUX_DEFAULT_CMX_BASE, "CMX base");
	tap_check(rd(VPUX_REG_CLOCK_KHZ) == 123456, "clock");
	tap_check(rd(VPUX_REG_SERIAL) == 7, "serial = instance");

	n = 0;
	for (e = 0; e < 6; e++) {
		static const u32 kind[6] = { 0, 0, 1, 1, 1, 2 };

		n += erd(e, VPUX_ENG_KIND) == kind[e];
	}
	tap_check(n == 6, "engine kinds: DMA first, then DPU, then SHAVE");
	tap_check(erd(6, VPUX_ENG_KIND) == 0 && erd(6, VPUX_ENG_STATUS) == 0,
		  "absent engine reads 0");
	tap_check(rd(VPUX_REG_ID + 1) == 0 && rd(VPUX_MMIO_SIZE) == 0,
		  "unaligned / out-of-window reads return 0");
	wr(VPUX_REG_ID, 0);
	wr(VPUX_MMIO_SIZE + 4, 1);
	tap_check(rd(VPUX_REG_ID) == VPUX_ID_MAGIC, "identity is read-only");
	wr(VPUX_REG_ENGINE(0) + VPUX_ENG_PARAM(63), 0xdeadbeef);
	tap_check(erd(0, VPUX_ENG_PARAM(63)) == 0xdeadbeef, "PARAM reads back");

	vpux_sim_default_config(&cfg);
	tap_check(cfg.n_dma == 2 && cfg.n_dpu == 2 && cfg.n_shave == 2 &&
		  cfg.n_tiles == 4 && cfg.cmx_size == 256 * 1024 &&
		  cfg.ctx_slots == 16 && cfg.clock_khz == 700000 &&
		  cfg.mc_mem_size == 4u << 20,
		  "default config");
	cfg.n_dma = 0;
	s2 = vpux_sim_create(&cfg, &ops, &env);
	tap_check(!s2, "config without DMA refused");
	vpux_sim_default_config(&cfg);
	cfg.n_shave = 13;
	tap_check(!vpux_sim_create(&cfg, &ops, &env), "more than 16 engines refused");
	vpux_sim_default_config(&cfg);
	cfg.cmx_size = 1000;
	tap_check(!vpux_sim_create(&cfg, &ops, &env), "CMX size not page multiple refused");
	vpux_sim_default_config(&cfg);
	cfg.ctx_slots = 17;
	tap_check(!vpux_sim_create(&cfg, &ops, &env), "too many ctx slots refused");
	vpux_sim_default_config(&cfg);
	cfg.mc_mem_size = 1000;
	tap_check(!vpux_sim_create(&cfg, &ops, &env),
		  "management-core RAM not page multiple refused");
}

static void test_irq(void)
{
	int r0, k0;

	tap_check(rd(VPUX_REG_IRQ_STATUS) == 0 && rd(VPUX_REG_IRQ_MASK) == 0,
		  "IRQ status and mask reset to 0");
	k0 = env.kicks;
	r0 = env.raises;
	start_cmx_copy(0, 100);
	tap_check(env.kicks == k0 + 1, "START kicks the platform");
	tap_check(erd(0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_BUSY,
		  "engine BUSY after START, nothing ran in the write");
	tap_check(vpux_sim_run(sim) == 1, "run completes the op");
	tap_check(erd(0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_DONE, "DONE");
	tap_check(erd(0, VPUX_ENG_OP_CYCLES) == dma_cycles(100), "OP_CYCLES %u",
		  erd(0, VPUX_ENG_OP_CYCLES));
	tap_check(erd(0, VPUX_ENG_OPS_DONE) == 1, "OPS_DONE");
	tap_check(rd(VPUX_REG_IRQ_STATUS) == VPUX_IRQ_ENGINE(0), "engine 0 bit latched");
	tap_check(env.raises == r0, "masked: line not signalled");
	wr(VPUX_REG_IRQ_STATUS, 0);
	tap_check(rd(VPUX_REG_IRQ_STATUS) == VPUX_IRQ_ENGINE(0), "IRQ_STATUS is read-only");
	wr(VPUX_REG_IRQ_MASK, 0xffffffff);
	tap_check(rd(VPUX_REG_IRQ_MASK) == (VPUX_IRQ_ALL | VPUX_IRQ_MC),
		  "mask keeps defined bits only");
	tap_check(env.raises == r0 + 1, "unmasking a pending bit signals the line");
	wr(VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL);
	tap_check(env.raises == r0 + 1, "re-writing the mask does not signal again");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ENGINE(1));
	tap_check(rd(VPUX_REG_IRQ_STATUS) == VPUX_IRQ_ENGINE(0) && env.raises == r0 + 1,
		  "clearing a clear bit changes nothing");
	tap_check(rd(VPUX_REG_IRQ_CLEAR) == 0, "IRQ_CLEAR reads 0");

	start_cmx_copy(1, 10);
	vpux_sim_run(sim);
	tap_check(env.raises == r0 + 2, "new bit while line asserted signals again");
	tap_check(rd(VPUX_REG_IRQ_STATUS) == (VPUX_IRQ_ENGINE(0) | VPUX_IRQ_ENGINE(1)),
		  "both bits latched");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ENGINE(0));
	tap_check(env.raises == r0 + 3 && rd(VPUX_REG_IRQ_STATUS) == VPUX_IRQ_ENGINE(1),
		  "ack leaving the line asserted re-signals (level semantics)");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ENGINE(1));
	tap_check(env.raises == r0 + 3 && rd(VPUX_REG_IRQ_STATUS) == 0,
		  "last ack: line drops, no signal");
	wr(VPUX_REG_IRQ_MASK, 0);
	start_cmx_copy(0, 10);
	vpux_sim_run(sim);
	tap_check(env.raises == r0 + 3, "masked completion does not signal");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	tap_check(env.lock_errors == 0, "lock discipline: raise/kick/yield without the lock");
}

static void test_cycles(void)
{
	u32 lo, hi, lo2;
	u64 before, after;

	lo = rd(VPUX_REG_CYCLES_LO);
	hi = rd(VPUX_REG_CYCLES_HI);
	before = (u64)hi << 32 | lo;
	start_cmx_copy(0, 320);
	vpux_sim_run(sim);
	lo = rd(VPUX_REG_CYCLES_LO);
	hi = rd(VPUX_REG_CYCLES_HI);
	after = (u64)hi << 32 | lo;
	tap_check(after == before + dma_cycles(320),
		  "cycle counter advances by the op's cycles (%llu -> %llu)",
		  (unsigned long long)before, (unsigned long long)after);

	/* SLOW x 2^28 pushes the counter past 2^32 */
	wr(VPUX_REG_INJECT_ARG, 1u << 28);
	wr(VPUX_REG_INJECT, 0 | VPUX_INJECT_SLOW << 8 | 1 << 16);
	lo = rd(VPUX_REG_CYCLES_LO);
	start_cmx_copy(0, 32);
	vpux_sim_run(sim);
	tap_check(erd(0, VPUX_ENG_OP_CYCLES) == 0xffffffffu,
		  "OP_CYCLES saturates at 2^32-1");
	hi = rd(VPUX_REG_CYCLES_HI);
	tap_check(hi == (u32)(before >> 32), "HI returns the value latched by the LO read");
	lo2 = rd(VPUX_REG_CYCLES_LO);
	hi = rd(VPUX_REG_CYCLES_HI);
	after = (u64)hi << 32 | lo2;
	tap_check(after == before + dma_cycles(320) + (u64)dma_cycles(32) * (1u << 28),
		  "64-bit counter after the slow op (%#llx)", (unsigned long long)after);
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	(void)lo;
}

static void test_start_abort(void)
{
	u32 done0 = erd(0, VPUX_ENG_OPS_DONE);

	start_cmx_copy(0, 10);
	start_cmx_copy(0, 10);
	tap_check(erd(0, VPUX_ENG_STATUS) ==
		  (VPUX_ENG_STATE_ERROR | VPUX_ENG_ERR_DESC << 8),
		  "START while BUSY: ERROR|DESC");
	tap_check(erd(0, VPUX_ENG_OPS_DONE) == done0 + 1 &&
		  (rd(VPUX_REG_IRQ_STATUS) & VPUX_IRQ_ENGINE(0)),
		  "the violation completes the op with an IRQ");
	tap_check(vpux_sim_run(sim) == 0, "the killed op never completes");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);

	start_cmx_copy(1, 10);
	wr(VPUX_REG_ENGINE(1) + VPUX_ENG_CMD, VPUX_ENG_CMD_ABORT);
	tap_check(erd(1, VPUX_ENG_STATUS) ==
		  (VPUX_ENG_STATE_ERROR | VPUX_ENG_ERR_ABORTED << 8),
		  "ABORT of a queued op: ERROR|ABORTED");
	tap_check(vpux_sim_run(sim) == 0 && rd(VPUX_REG_IRQ_STATUS) == 0,
		  "aborted op: no completion, no IRQ");
	start_cmx_copy(1, 10);
	tap_check(vpux_sim_run(sim) == 1 &&
		  erd(1, VPUX_ENG_STATUS) == VPUX_ENG_STATE_DONE,
		  "engine works after ABORT");
	wr(VPUX_REG_ENGINE(1) + VPUX_ENG_CMD, VPUX_ENG_CMD_ABORT);
	tap_check(erd(1, VPUX_ENG_STATUS) == VPUX_ENG_STATE_DONE,
		  "ABORT of an idle engine does nothing");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
}

static void test_inject_reg(void)
{
	u32 v;

	/* DROP_IRQ for 2 ops on engine 1 */
	wr(VPUX_REG_INJECT, 1 | VPUX_INJECT_DROP_IRQ << 8 | 2 << 16);
	start_cmx_copy(0, 10);	/* other engine: not consumed */
	vpux_sim_run(sim);
	tap_check(rd(VPUX_REG_INJECT) == (1 | VPUX_INJECT_DROP_IRQ << 8 | 2 << 16),
		  "other engine's op does not consume the injection");
	tap_check(rd(VPUX_REG_IRQ_STATUS) == VPUX_IRQ_ENGINE(0), "engine 0 raised its bit");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	start_cmx_copy(1, 10);
	vpux_sim_run(sim);
	v = rd(VPUX_REG_INJECT);
	tap_check(v == (1 | VPUX_INJECT_DROP_IRQ << 8 | 1 << 16), "count decremented (%#x)", v);
	tap_check(rd(VPUX_REG_IRQ_STATUS) == 0 &&
		  erd(1, VPUX_ENG_STATUS) == VPUX_ENG_STATE_DONE,
		  "DROP_IRQ: op DONE, no IRQ bit");
	start_cmx_copy(1, 10);
	vpux_sim_run(sim);
	tap_check(rd(VPUX_REG_INJECT) == 0, "injection spent after count ops");
	start_cmx_copy(1, 10);
	vpux_sim_run(sim);
	tap_check(rd(VPUX_REG_IRQ_STATUS) == VPUX_IRQ_ENGINE(1), "next op raises again");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);

	/* count 0: until cleared */
	wr(VPUX_REG_INJECT, 1 | VPUX_INJECT_DROP_IRQ << 8);
	for (v = 0; v < 3; v++) {
		start_cmx_copy(1, 10);
		vpux_sim_run(sim);
	}
	tap_check(rd(VPUX_REG_IRQ_STATUS) == 0 &&
		  rd(VPUX_REG_INJECT) == (1 | VPUX_INJECT_DROP_IRQ << 8),
		  "count 0 applies until cleared");
	wr(VPUX_REG_INJECT, VPUX_INJECT_NONE);
	start_cmx_copy(1, 10);
	vpux_sim_run(sim);
	tap_check(rd(VPUX_REG_IRQ_STATUS) == VPUX_IRQ_ENGINE(1), "cleared by writing NONE");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);

	/* HANG until engine reset */
	wr(VPUX_REG_INJECT, 0 | VPUX_INJECT_HANG << 8 | 1 << 16);
	start_cmx_copy(0, 10);
	tap_check(vpux_sim_run(sim) == 0 &&
		  erd(0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_BUSY, "HANG: stays BUSY");
	wr(VPUX_REG_ENGINE_RESET, 1u << 0);
	tap_check(erd(0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_IDLE &&
		  erd(0, VPUX_ENG_OPS_DONE) == 0, "ENGINE_RESET: IDLE, OPS_DONE 0");
	start_cmx_copy(0, 10);
	tap_check(vpux_sim_run(sim) == 1 &&
		  erd(0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_DONE, "op after ENGINE_RESET works");
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
}

static void test_reset_mmu_regs(void)
{
	u64 cyc;

	wr(VPUX_REG_MMU_PT_LO(1), 0x12345fff);
	wr(VPUX_REG_MMU_PT_HI(1), 0xffffffff);
	wr(VPUX_REG_MMU_CTRL(1), 0xff);
	tap_check(rd(VPUX_REG_MMU_PT_LO(1)) == 0x12345000 &&
		  rd(VPUX_REG_MMU_PT_HI(1)) == 0x000fffff &&
		  rd(VPUX_REG_MMU_CTRL(1)) == 1, "MMU regs keep implemented bits");
	wr(VPUX_REG_MMU_PT_LO(5), 0x1000);
	tap_check(rd(VPUX_REG_MMU_PT_LO(5)) == 0, "slot beyond CTX_SLOTS reads 0");

	start_cmx_copy(0, 10);
	vpux_sim_run(sim);
	wr(VPUX_REG_IRQ_MASK, VPUX_IRQ_ENGINE(0));
	wr(VPUX_REG_INJECT, 3 | VPUX_INJECT_SLOW << 8);
	wr(VPUX_REG_INJECT_ARG, 3);
	start_cmx_copy(1, 10);
	wr(VPUX_REG_ENGINE(1) + VPUX_ENG_CTX, 2);
	cyc = rd(VPUX_REG_CYCLES_LO);
	wr(VPUX_REG_RESET, VPUX_RESET_DEVICE);
	tap_check(rd(VPUX_REG_IRQ_STATUS) == 0, "RESET clears IRQ_STATUS");
	tap_check(erd(0, VPUX_ENG_STATUS) == 0 && erd(1, VPUX_ENG_STATUS) == 0 &&
		  erd(0, VPUX_ENG_OPS_DONE) == 0 && erd(1, VPUX_ENG_CTX) == 0,
		  "RESET: engines IDLE, counters and CTX 0");
	tap_check(rd(VPUX_REG_INJECT) == 0 && rd(VPUX_REG_INJECT_ARG) == 0,
		  "RESET clears injection");
	tap_check(vpux_sim_run(sim) == 0, "RESET drops queued ops");
	tap_check(rd(VPUX_REG_IRQ_MASK) == VPUX_IRQ_ENGINE(0) &&
		  rd(VPUX_REG_MMU_PT_LO(1)) == 0x12345000 &&
		  rd(VPUX_REG_MMU_CTRL(1)) == 1,
		  "RESET keeps IRQ_MASK and MMU programming");
	tap_check(rd(VPUX_REG_CYCLES_LO) == cyc, "RESET keeps the cycle counter");
	start_cmx_copy(0, 10);
	tap_check(vpux_sim_run(sim) == 1 &&
		  erd(0, VPUX_ENG_STATUS) == VPUX_ENG_STATE_DONE, "op after RESET works");
	wr(VPUX_REG_IRQ_MASK, 0);
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
	tap_check(env.lock_errors == 0, "lock discipline held throughout");
}

static void test_yield(void)
{
	struct vpux_hw_dma_desc d;
	u32 w[sizeof(d) / 4], i;
	int y0 = env.yields;

	/* 8 rows of 64 KiB CMX -> CMX: 512 KiB moved */
	memset(&d, 0, sizeof(d));
	d.len = 65536;
	d.src = VPUX_DEFAULT_CMX_BASE;
	d.dst = VPUX_DEFAULT_CMX_BASE + 131072;
	d.count[0] = 8;
	d.count[1] = d.count[2] = 1;
	memcpy(w, &d, sizeof(d));
	for (i = 0; i < sizeof(d) / 4; i++)
		wr(VPUX_REG_ENGINE(1) + VPUX_ENG_PARAM(i), w[i]);
	wr(VPUX_REG_ENGINE(1) + VPUX_ENG_CMD, VPUX_ENG_CMD_START);
	tap_check(vpux_sim_run(sim) == 1 &&
		  erd(1, VPUX_ENG_STATUS) == VPUX_ENG_STATE_DONE, "512 KiB CMX copy");
	tap_check(env.yields >= y0 + 2 && env.lock_errors == 0,
		  "long copy yields the CPU (%d times), never under the lock",
		  env.yields - y0);
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
}

static void test_step_kick(void)
{
	int k0 = env.kicks;

	vpux_sim_set_step_mode(sim, true);
	start_cmx_copy(0, 10);
	tap_check(env.kicks == k0, "step mode: START does not kick");
	tap_check(vpux_sim_step(sim) == 1 && vpux_sim_step(sim) == 0,
		  "step completes exactly one op");
	vpux_sim_set_step_mode(sim, false);
	wr(VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
}

static void test_power(void)
{
	u32 off0 = rd(VPUX_REG_PWR_OFF_COUNT);
	u64 cyc;

	tap_check(rd(VPUX_REG_PWR_STATUS) == VPUX_PWR_ON &&
		  rd(VPUX_REG_PWR_VIOLATIONS) == 0, "powered on at creation");
	wr(VPUX_REG_IRQ_MASK, VPUX_IRQ_ENGINE(0));
	wr(VPUX_REG_MMU_PT_LO(1), 0x12345000);
	wr(VPUX_REG_MMU_CTRL(1), VPUX_MMU_CTRL_ENABLE);
	wr(VPUX_REG_PWR_CTRL, 0);
	tap_check(rd(VPUX_REG_PWR_STATUS) == 0 &&
		  rd(VPUX_REG_PWR_OFF_COUNT) == off0 + 1, "power off");
	tap_check(rd(VPUX_REG_PWR_VIOLATIONS) == 0,
		  "an idle power-off is no violation");
	tap_check(rd(VPUX_REG_ID) == VPUX_ID_MAGIC &&
		  rd(VPUX_REG_SERIAL) == 7, "identity reads while off");
	cyc = rd(VPUX_REG_CYCLES_LO);
	tap_check(rd(VPUX_REG_CYCLES_LO) == cyc && rd(VPUX_REG_PWR_VIOLATIONS) == 0,
		  "the cycle counter is always on");
	tap_check(erd(2, VPUX_ENG_KIND) == 0 && erd(5, VPUX_ENG_KIND) == 0,
		  "switchable registers read 0 while off");
	start_cmx_copy(0, 10);
	tap_check(vpux_sim_run(sim) == 0, "START while off runs nothing");
	tap_check(rd(VPUX_REG_PWR_VIOLATIONS) > 2,
		  "accesses while off are counted (%u)",
		  rd(VPUX_REG_PWR_VIOLATIONS));
	wr(VPUX_REG_PWR_VIOLATIONS, 0);
	tap_check(rd(VPUX_REG_PWR_VIOLATIONS) == 0, "any write clears the count");
	wr(VPUX_REG_PWR_CTRL, VPUX_PWR_ON);
	tap_check(rd(VPUX_REG_PWR_STATUS) == VPUX_PWR_ON, "power on");
	tap_check(rd(VPUX_REG_IRQ_MASK) == 0 && rd(VPUX_REG_MMU_PT_LO(1)) == 0 &&
		  rd(VPUX_REG_MMU_CTRL(1)) == 0,
		  "IRQ_MASK and the MMU lost their state");
	tap_check(erd(2, VPUX_ENG_KIND) == 1, "engines answer again");
	start_cmx_copy(0, 10);
	wr(VPUX_REG_PWR_CTRL, 0);
	tap_check(rd(VPUX_REG_PWR_VIOLATIONS) == 1,
		  "a power-off that cuts an op is a violation");
	wr(VPUX_REG_PWR_CTRL, VPUX_PWR_ON);
	tap_check(vpux_sim_run(sim) == 0 && erd(0, VPUX_ENG_STATUS) == 0,
		  "the cut op never completes");
	wr(VPUX_REG_PWR_VIOLATIONS, 0);
	tap_check(env.lock_errors == 0, "lock discipline held throughout");
}

int main(void)
{
	struct vpux_sim_config cfg;

	vpux_sim_default_config(&cfg);
	cfg.instance = 7;
	cfg.n_dma = 2;
	cfg.n_dpu = 3;
	cfg.n_shave = 1;
	cfg.n_tiles = 2;
	cfg.cmx_size = 128 * 1024;
	cfg.ctx_slots = 4;
	cfg.clock_khz = 123456;
	sim = vpux_sim_create(&cfg, &ops, &env);
	if (!tap_check(sim != NULL, "create"))
		return tap_finish();

	test_identity();
	test_irq();
	test_cycles();
	test_start_abort();
	test_inject_reg();
	test_reset_mmu_regs();
	test_yield();
	test_step_kick();
	test_power();

	vpux_sim_destroy(sim);
	return tap_finish();
}
