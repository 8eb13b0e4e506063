/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The fake NPU of the scheduler benchmarks (bench.c, plan_bench.c): the
 * engines finish the instant they start, so the figures are the engine
 * core's own cost.
 */
#ifndef VPUX_FW_BENCH_HW_H
#define VPUX_FW_BENCH_HW_H

#include <stdint.h>

#include "dla_user.h"
#include "vpux_regs.h"

/*
 * Minimal register backend: 2 DMA, 2 DPU, 2 SHAVE engines; START raises
 * the engine's interrupt bit at once and STATUS always reads DONE.
 */
struct bench_hw {
	uint32_t irq;
};

static uint32_t bench_read(void *p, uint32_t off)
{
	struct bench_hw *hw = p;

	if (off >= VPUX_REG_ENGINE_BASE) {
		switch (off & (VPUX_REG_ENGINE_STRIDE - 1)) {
		case VPUX_ENG_STATUS: return VPUX_ENG_STATE_DONE;
		case VPUX_ENG_OP_CYCLES: return 100;
		default: return 0;
		}
	}
	switch (off) {
	case VPUX_REG_ID: return VPUX_ID_MAGIC;
	case VPUX_REG_REVISION: return VPUX_HW_REV_MAJOR << 16;
	case VPUX_REG_ENGINES: return 2 | 2 << 8 | 2 << 16;
	case VPUX_REG_TILES: return 2;
	case VPUX_REG_CMX_SIZE: return 65536;
	case VPUX_REG_CTX_SLOTS: return 4;
	case VPUX_REG_CMX_BASE_LO: return (uint32_t)VPUX_DEFAULT_CMX_BASE;
	case VPUX_REG_IRQ_STATUS: return hw->irq;
	default: return 0;
	}
}

static void bench_write(void *p, uint32_t off, uint32_t val)
{
	struct bench_hw *hw = p;

	if (off >= VPUX_REG_ENGINE_BASE) {
		if ((off & (VPUX_REG_ENGINE_STRIDE - 1)) == VPUX_ENG_CMD &&
		    val == VPUX_ENG_CMD_START)
			hw->irq |= 1u << ((off - VPUX_REG_ENGINE_BASE) /
					  VPUX_REG_ENGINE_STRIDE);
	} else if (off == VPUX_REG_IRQ_CLEAR) {
		hw->irq &= ~val;
	}
}

static const struct dla_user_hw_ops bench_ops = {
	.reg_read = bench_read,
	.reg_write = bench_write,
};

#endif /* VPUX_FW_BENCH_HW_H */
