/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A fake register backend for the engine core's unit tests and benchmark:
 * identity registers, engines with a virtual clock (each op takes a fixed
 * number of cycles per engine kind), DMA copies through a region table,
 * fault injection, and an "instant" mode where every op completes the
 * moment it starts. Not the NPU model: just enough hardware to observe the
 * scheduler deterministically.
 */
#ifndef FAKE_HW_H
#define FAKE_HW_H

#include <stdint.h>

#include "dla_user.h"
#include "vpux_regs.h"

#define FAKE_VA_BASE		0x100000000ull

enum fake_inject {
	FAKE_NONE,
	FAKE_HANG,		/* next op on the engine never completes */
	FAKE_DROP_IRQ,		/* completes, no interrupt */
	FAKE_ERROR,		/* completes with ENG_STATUS ERROR (arg code) */
	FAKE_MMU_FAULT,		/* MMU fault IRQ + ERROR/ERR_MMU */
};

/* One START as the engine saw it: its PARAM words and MMU context. */
struct fake_start {
	uint32_t eng, ctx;
	uint32_t param[VPUX_ENG_PARAM_WORDS];
};

struct fake_hw {
	uint32_t n_kind[3];
	uint32_t n_eng;
	uint32_t tiles, cmx_size;
	uint8_t *cmx;
	uint32_t cycles[3];		/* cycles per op of each kind */
	int instant;
	uint64_t now;
	uint32_t irq_status, irq_mask;
	uint32_t fault_status;
	uint64_t fault_addr;
	struct fake_eng {
		uint32_t kind, status, ctx, op_cycles, ops_done, starts;
		uint32_t param[VPUX_ENG_PARAM_WORDS];
		uint32_t run[VPUX_ENG_PARAM_WORDS];
		uint64_t end;
		int busy;
		enum fake_inject inject;
		uint32_t inject_arg;
		uint64_t start_time;
	} eng[VPUX_MAX_ENGINES];
	struct fake_region {
		uint64_t va;
		uint64_t size;
		void *cpu;
	} region[64];
	unsigned int n_region;
	struct dla_user_dev *dev;	/* receives the interrupts */
	uint32_t reg_writes;
	uint32_t eng_writes;	/* writes to engine register blocks */
	struct fake_start *log;	/* if set: each START, the first log_cap */
	unsigned int n_log, log_cap;
};

extern const struct dla_user_hw_ops fake_hw_ops;

void fake_hw_init(struct fake_hw *hw, uint32_t n_dma, uint32_t n_dpu,
		  uint32_t n_shave);
void fake_hw_fini(struct fake_hw *hw);
void fake_hw_map(struct fake_hw *hw, uint64_t va, void *cpu, uint64_t size);
/* Complete the earliest running op and deliver its IRQ; 0 if none runs. */
int fake_hw_step(struct fake_hw *hw);
/* Step until nothing runs; returns ops completed. */
int fake_hw_run(struct fake_hw *hw);
void fake_hw_inject(struct fake_hw *hw, uint32_t eng, enum fake_inject what,
		    uint32_t arg);
uint32_t fake_hw_starts(const struct fake_hw *hw);	/* all engines */

#endif /* FAKE_HW_H */
