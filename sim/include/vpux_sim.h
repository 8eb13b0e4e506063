/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux NPU model: the interface between the model ("hardware") and the
 * platform that hosts it (the kernel module's virtual device, or a host
 * user-space process).
 *
 * Only the platform glue calls these (sim/linux/ in the kernel, sim/user/
 * in host processes): it plays the role of the SoC around the NPU,
 * turning the register accessors into the device's register window (a
 * regmap in the kernel), irq_raise into a real interrupt, and running
 * each execution unit's work in a context of its choosing. A driver
 * reaches the model only through that window and that interrupt.
 *
 * Execution units: every engine executes its ops independently of the
 * others, in its own execution context (vpux_sim_run_unit()), so that a
 * long op on one engine never delays another engine. Units 0 ..
 * vpux_sim_units() - 1 are the engines, by global engine index, then the
 * CMX clear unit (VPUX_REG_CMX_CLEAR_*), then the management core
 * (VPUX_REG_MC_*: a RISC-V hart running firmware, include/hw/vpux_mc.h).
 *
 * The model core builds in the kernel and in user space: no libc beyond
 * what vpux_sim_compat.h maps, memory only through env->alloc.
 */
#ifndef VPUX_SIM_H
#define VPUX_SIM_H

#include "vpux_sim_compat.h"
#include "vpux_regs.h"

struct vpux_sim;

/**
 * struct vpux_sim_config - build-time shape of one model instance
 * @instance: instance number, reported in VPUX_REG_SERIAL
 * @n_dma: DMA engines (>= 1)
 * @n_dpu: DPU engines (>= 1)
 * @n_shave: SHAVE engines (>= 1); n_dma + n_dpu + n_shave <= VPUX_MAX_ENGINES
 * @n_tiles: CMX tiles (>= 1)
 * @cmx_size: bytes of CMX per tile (multiple of 4 KiB)
 * @ctx_slots: MMU context slots (1..VPUX_MAX_CTX_SLOTS)
 * @clock_khz: cycle counter frequency reported to the driver
 * @mc_mem_size: bytes of the management core's RAM (multiple of 4 KiB, at
 *	most VPUX_SIM_MC_MEM_MAX); 0: no management core
 */
struct vpux_sim_config {
	u32 instance;
	u32 n_dma;
	u32 n_dpu;
	u32 n_shave;
	u32 n_tiles;
	u32 cmx_size;
	u32 ctx_slots;
	u32 clock_khz;
	u32 mc_mem_size;
};

/**
 * struct vpux_sim_env_ops - services the hosting platform gives the model
 * @alloc: zeroed allocation, may sleep; NULL on failure
 * @free: release memory from @alloc
 * @phys_read: read system memory at a "physical" address (the addresses the
 *	driver writes into page tables); 0 or negative error
 * @phys_write: write system memory at a physical address, at most one
 *	page at a time. Called with the lock held (so that no store of an
 *	op abandoned by ABORT/RESET can follow the register write): must not
 *	sleep.
 * @lock: take the model's register lock. Register accesses take it, from
 *	any context (the driver reads IRQ_STATUS in hard-IRQ context, the
 *	interrupt controller asks vpux_sim_irq_line() under its own raw
 *	lock), so in the kernel it is an irq-safe raw spinlock; never held
 *	across engine computation.
 * @unlock: release it
 * @irq_raise: (IRQ_STATUS & IRQ_MASK) became non-zero; deliver the
 *	interrupt. Called without the lock held.
 * @kick: work was queued for execution unit @unit; arrange for
 *	vpux_sim_run_unit(@unit) to be called soon from a context that may
 *	sleep. Units must be able to run concurrently with each other: a
 *	unit computes for as long as its op takes (seconds), yielding.
 *	Not called in step mode.
 * @yield: called between tiles of long computations (cond_resched()).
 * @now_us: a monotonic real clock in microseconds (the management core's
 *	timer, VPUX_MC_REG_MTIME); any context, called with the lock held.
 * @kick_at: like @kick, but at the time @us of @now_us's clock (or soon
 *	after; at once if it has passed): the management core sleeps in WFI
 *	until its timer. A later call for the unit replaces an earlier one
 *	still pending. Called without the lock held; never in step mode.
 * @console: optional (NULL: dropped): one line the management core's
 *	firmware wrote to VPUX_MC_REG_CONSOLE, NUL-terminated, without its
 *	newline. Called without the lock held, from the core's unit.
 * @phys_ptr: optional (NULL: none): a CPU pointer to [pa, pa + len) of
 *	system memory if @phys_read would read every byte of it (else NULL),
 *	valid as long as the model exists. The DPU then reads an operand
 *	that is contiguous there in place instead of copying it, as it does
 *	in CMX (a host whose memory is one arena; the kernel has none).
 */
struct vpux_sim_env_ops {
	void *(*alloc)(void *env, size_t size);
	void (*free)(void *env, void *ptr);
	int (*phys_read)(void *env, u64 pa, void *dst, size_t len);
	int (*phys_write)(void *env, u64 pa, const void *src, size_t len);
	void (*lock)(void *env);
	void (*unlock)(void *env);
	void (*irq_raise)(void *env);
	void (*kick)(void *env, u32 unit);
	void (*yield)(void *env);
	u64 (*now_us)(void *env);
	void (*kick_at)(void *env, u32 unit, u64 us);
	void (*console)(void *env, const char *line);
	const void *(*phys_ptr)(void *env, u64 pa, size_t len);
};

void vpux_sim_default_config(struct vpux_sim_config *cfg);

/* Returns NULL if @cfg is invalid or memory is short. */
struct vpux_sim *vpux_sim_create(const struct vpux_sim_config *cfg,
				 const struct vpux_sim_env_ops *ops, void *env);
void vpux_sim_destroy(struct vpux_sim *sim);

/* MMIO accessors: @offset is a byte offset below VPUX_MMIO_SIZE. */
u32 vpux_sim_reg_read(struct vpux_sim *sim, u32 offset);
void vpux_sim_reg_write(struct vpux_sim *sim, u32 offset, u32 value);

/*
 * The interrupt line is level-triggered: it is high while IRQ_STATUS &
 * IRQ_MASK is non-zero. env->irq_raise reports it going high; a platform
 * whose interrupt controller masks the line while a handler runs asks
 * again on unmask.
 */
bool vpux_sim_irq_line(struct vpux_sim *sim);

/*
 * Largest vpux_sim_units() of any model instance: engines, CMX clear,
 * management core.
 */
#define VPUX_SIM_MAX_UNITS	(VPUX_MAX_ENGINES + 2)

/* Largest management-core RAM (vpux_sim_config.mc_mem_size). */
#define VPUX_SIM_MC_MEM_MAX	(64u << 20)

/*
 * Execution. vpux_sim_units() is the number of execution units.
 * vpux_sim_run_unit() executes unit @unit's queued work until it has none
 * and returns how many ops completed; called for a unit that is already
 * being run elsewhere, it returns 0 at once (the active call picks up the
 * new work before it returns). Different units may run concurrently.
 *
 * vpux_sim_run() runs every unit's queued work in the caller, oldest op
 * first, until none is left, for platforms and tests that have a single
 * execution context; it returns how many ops completed.
 * The management core's unit runs its hart until the hart waits in WFI
 * with nothing pending (or is stopped); it counts no ops (returns 0).
 * vpux_sim_run() leaves it out: firmware need not ever wait.
 *
 * In step mode (for deterministic tests) env->kick is never called and
 * vpux_sim_step() completes exactly one op in the caller: the in-flight op
 * with the earliest completion time on the model's virtual clock. It
 * returns 1 if it completed an op, 0 if none was queued. The management
 * core does not execute in step mode: vpux_sim_step() ignores it.
 */
u32 vpux_sim_units(const struct vpux_sim *sim);
int vpux_sim_run_unit(struct vpux_sim *sim, u32 unit);
int vpux_sim_run(struct vpux_sim *sim);
void vpux_sim_set_step_mode(struct vpux_sim *sim, bool on);
int vpux_sim_step(struct vpux_sim *sim);

#endif /* VPUX_SIM_H */
