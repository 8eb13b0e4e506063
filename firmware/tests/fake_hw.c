// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Fake register backend, see fake_hw.h. */
#include <stdlib.h>
#include <string.h>

#include "fake_hw.h"

static void *fake_xlate(struct fake_hw *hw, uint64_t addr, uint64_t len)
{
	uint64_t cmx = VPUX_DEFAULT_CMX_BASE;
	unsigned int i;

	if (addr >= cmx && addr - cmx <= (uint64_t)hw->tiles * hw->cmx_size &&
	    len <= (uint64_t)hw->tiles * hw->cmx_size - (addr - cmx))
		return hw->cmx + (addr - cmx);
	for (i = 0; i < hw->n_region; i++) {
		struct fake_region *r = &hw->region[i];

		if (addr >= r->va && addr - r->va <= r->size &&
		    len <= r->size - (addr - r->va))
			return (char *)r->cpu + (addr - r->va);
	}
	return NULL;
}

static void fake_fault(struct fake_hw *hw, uint32_t e, uint64_t addr)
{
	hw->fault_status = VPUX_FAULT_VALID |
			   (VPUX_FAULT_REASON_UNMAPPED << VPUX_FAULT_REASON_SHIFT) |
			   (hw->eng[e].ctx << VPUX_FAULT_CTX_SHIFT) |
			   (e << VPUX_FAULT_ENGINE_SHIFT);
	hw->fault_addr = addr;
	hw->irq_status |= VPUX_IRQ_MMU_FAULT;
}

/* Execute a DMA descriptor; 0 or the faulting address' engine error. */
static int fake_dma(struct fake_hw *hw, uint32_t e)
{
	struct vpux_hw_dma_desc d;
	uint32_t i, j, k;
	uint64_t rows;

	memcpy(&d, hw->eng[e].run, sizeof(d));
	/*
	 * The fake is no model: it refuses copies of more than 1 Ki rows or
	 * 16 MiB, so a fuzzed task of thousands of ops cannot take minutes
	 * (one did, 30 of them, with 64 Ki rows allowed; rows of up to 4 GiB
	 * each were still allowed; three counts of 2^24 wrapped the product
	 * of 64 bits to 0 and ran 2^72 rows).
	 */
	if (d.count[0] > 1024 || d.count[1] > 1024 || d.count[2] > 1024)
		return VPUX_ENG_ERR_DESC;	/* the product would wrap */
	rows = (uint64_t)d.count[0] * d.count[1] * d.count[2];
	if (rows > 1024 || rows * d.len > (16u << 20))
		return VPUX_ENG_ERR_DESC;
	for (k = 0; k < d.count[2]; k++)
		for (j = 0; j < d.count[1]; j++)
			for (i = 0; i < d.count[0]; i++) {
				uint64_t so = (uint64_t)i * d.src_stride[0] +
					      (uint64_t)j * d.src_stride[1] +
					      (uint64_t)k * d.src_stride[2];
				uint64_t dof = (uint64_t)i * d.dst_stride[0] +
					       (uint64_t)j * d.dst_stride[1] +
					       (uint64_t)k * d.dst_stride[2];
				void *s = fake_xlate(hw, d.src + so, d.len);
				void *t = fake_xlate(hw, d.dst + dof, d.len);

				if (!s || !t) {
					fake_fault(hw, e, !s ? d.src + so :
						   d.dst + dof);
					return VPUX_ENG_ERR_MMU;
				}
				memmove(t, s, d.len);
			}
	return 0;
}

static void fake_finish(struct fake_hw *hw, uint32_t e)
{
	struct fake_eng *g = &hw->eng[e];
	int err = 0;

	g->busy = 0;
	g->ops_done++;
	g->op_cycles = (uint32_t)(g->end - g->start_time);
	switch (g->inject) {
	case FAKE_ERROR:
		err = (int)g->inject_arg;
		break;
	case FAKE_MMU_FAULT:
		fake_fault(hw, e, 0xdead000ull);
		err = VPUX_ENG_ERR_MMU;
		break;
	default:
		if (g->kind == VPUX_ENGINE_KIND_DMA)
			err = fake_dma(hw, e);
		break;
	}
	g->status = err ? VPUX_ENG_STATE_ERROR | (uint32_t)err << 8 :
			  VPUX_ENG_STATE_DONE;
	if (g->inject != FAKE_DROP_IRQ)
		hw->irq_status |= VPUX_IRQ_ENGINE(e);
	g->inject = FAKE_NONE;
}

static void fake_start(struct fake_hw *hw, uint32_t e)
{
	struct fake_eng *g = &hw->eng[e];

	memcpy(g->run, g->param, sizeof(g->run));
	if (hw->log && hw->n_log < hw->log_cap) {
		struct fake_start *l = &hw->log[hw->n_log++];

		l->eng = e;
		l->ctx = g->ctx;
		memcpy(l->param, g->param, sizeof(l->param));
	}
	g->busy = 1;
	g->starts++;
	g->status = VPUX_ENG_STATE_BUSY;
	g->start_time = hw->now;
	g->end = hw->now + hw->cycles[g->kind];
	if (hw->instant && g->inject != FAKE_HANG)
		fake_finish(hw, e);
}

static uint32_t fake_read(void *p, uint32_t off)
{
	struct fake_hw *hw = p;

	if (off >= VPUX_REG_ENGINE_BASE) {
		uint32_t e = (off - VPUX_REG_ENGINE_BASE) / VPUX_REG_ENGINE_STRIDE;
		uint32_t r = (off - VPUX_REG_ENGINE_BASE) % VPUX_REG_ENGINE_STRIDE;
		struct fake_eng *g;

		if (e >= hw->n_eng)
			return 0;
		g = &hw->eng[e];
		switch (r) {
		case VPUX_ENG_STATUS: return g->status;
		case VPUX_ENG_CTX: return g->ctx;
		case VPUX_ENG_OP_CYCLES: return g->op_cycles;
		case VPUX_ENG_KIND: return g->kind;
		case VPUX_ENG_OPS_DONE: return g->ops_done;
		default:
			if (r >= VPUX_ENG_PARAM(0) &&
			    r < VPUX_ENG_PARAM(VPUX_ENG_PARAM_WORDS))
				return g->param[(r - VPUX_ENG_PARAM(0)) / 4];
			return 0;
		}
	}
	switch (off) {
	case VPUX_REG_ID: return VPUX_ID_MAGIC;
	case VPUX_REG_REVISION: return VPUX_HW_REV_MAJOR << 16;
	case VPUX_REG_ENGINES:
		return hw->n_kind[0] | hw->n_kind[1] << 8 | hw->n_kind[2] << 16;
	case VPUX_REG_TILES: return hw->tiles;
	case VPUX_REG_CMX_SIZE: return hw->cmx_size;
	case VPUX_REG_CTX_SLOTS: return 4;
	case VPUX_REG_CMX_BASE_LO: return (uint32_t)VPUX_DEFAULT_CMX_BASE;
	case VPUX_REG_CMX_BASE_HI: return (uint32_t)(VPUX_DEFAULT_CMX_BASE >> 32);
	case VPUX_REG_IRQ_STATUS: return hw->irq_status;
	case VPUX_REG_IRQ_MASK: return hw->irq_mask;
	case VPUX_REG_CYCLES_LO: return (uint32_t)hw->now;
	case VPUX_REG_CYCLES_HI: return (uint32_t)(hw->now >> 32);
	case VPUX_REG_FAULT_STATUS: return hw->fault_status;
	case VPUX_REG_FAULT_ADDR_LO: return (uint32_t)hw->fault_addr;
	case VPUX_REG_FAULT_ADDR_HI: return (uint32_t)(hw->fault_addr >> 32);
	default: return 0;
	}
}

static void fake_write(void *p, uint32_t off, uint32_t val)
{
	struct fake_hw *hw = p;
	uint32_t e;

	hw->reg_writes++;
	if (off >= VPUX_REG_ENGINE_BASE) {
		hw->eng_writes++;
		uint32_t r = (off - VPUX_REG_ENGINE_BASE) % VPUX_REG_ENGINE_STRIDE;
		struct fake_eng *g;

		e = (off - VPUX_REG_ENGINE_BASE) / VPUX_REG_ENGINE_STRIDE;
		if (e >= hw->n_eng)
			return;
		g = &hw->eng[e];
		if (r == VPUX_ENG_CMD && val == VPUX_ENG_CMD_START) {
			fake_start(hw, e);
		} else if (r == VPUX_ENG_CMD && val == VPUX_ENG_CMD_ABORT) {
			/* a hung engine ignores ABORT: only a reset stops it */
			if (g->busy && g->inject != FAKE_HANG) {
				g->busy = 0;
				g->inject = FAKE_NONE;
				g->status = VPUX_ENG_STATE_ERROR |
					    VPUX_ENG_ERR_ABORTED << 8;
				hw->irq_status |= VPUX_IRQ_ENGINE(e);
			}
		} else if (r == VPUX_ENG_CTX) {
			g->ctx = val;
		} else if (r >= VPUX_ENG_PARAM(0) &&
			   r < VPUX_ENG_PARAM(VPUX_ENG_PARAM_WORDS)) {
			g->param[(r - VPUX_ENG_PARAM(0)) / 4] = val;
		}
		return;
	}
	switch (off) {
	case VPUX_REG_IRQ_MASK: hw->irq_mask = val; break;
	case VPUX_REG_IRQ_CLEAR: hw->irq_status &= ~val; break;
	case VPUX_REG_FAULT_STATUS:
		if (val & VPUX_FAULT_VALID)
			hw->fault_status = 0;
		break;
	case VPUX_REG_ENGINE_RESET:
		for (e = 0; e < hw->n_eng; e++) {
			if (!(val & (1u << e)))
				continue;
			hw->eng[e].busy = 0;
			hw->eng[e].inject = FAKE_NONE;
			hw->eng[e].status = VPUX_ENG_STATE_IDLE;
		}
		break;
	default:
		break;
	}
}

const struct dla_user_hw_ops fake_hw_ops = {
	.reg_read = fake_read,
	.reg_write = fake_write,
};

void fake_hw_init(struct fake_hw *hw, uint32_t n_dma, uint32_t n_dpu,
		  uint32_t n_shave)
{
	uint32_t k, i, e = 0;

	memset(hw, 0, sizeof(*hw));
	hw->n_kind[0] = n_dma;
	hw->n_kind[1] = n_dpu;
	hw->n_kind[2] = n_shave;
	for (k = 0; k < 3; k++)
		for (i = 0; i < hw->n_kind[k]; i++)
			hw->eng[e++].kind = k;
	hw->n_eng = e;
	hw->tiles = 2;
	hw->cmx_size = 64 * 1024;
	hw->cmx = calloc(hw->tiles, hw->cmx_size);
	hw->cycles[0] = 100;
	hw->cycles[1] = 1000;
	hw->cycles[2] = 300;
}

void fake_hw_fini(struct fake_hw *hw)
{
	free(hw->cmx);
	hw->cmx = NULL;
}

void fake_hw_map(struct fake_hw *hw, uint64_t va, void *cpu, uint64_t size)
{
	if (hw->n_region < 64)
		hw->region[hw->n_region++] = (struct fake_region){ va, size, cpu };
}

int fake_hw_step(struct fake_hw *hw)
{
	uint32_t e, best = ~0u;

	for (e = 0; e < hw->n_eng; e++) {
		if (!hw->eng[e].busy || hw->eng[e].inject == FAKE_HANG)
			continue;
		if (best == ~0u || hw->eng[e].end < hw->eng[best].end)
			best = e;
	}
	if (best == ~0u)
		return 0;
	hw->now = hw->eng[best].end;
	fake_finish(hw, best);
	if ((hw->irq_status & hw->irq_mask) && hw->dev)
		dla_user_irq(hw->dev);
	return 1;
}

int fake_hw_run(struct fake_hw *hw)
{
	int n = 0;

	while (fake_hw_step(hw))
		n++;
	return n;
}

void fake_hw_inject(struct fake_hw *hw, uint32_t eng, enum fake_inject what,
		    uint32_t arg)
{
	hw->eng[eng].inject = what;
	hw->eng[eng].inject_arg = arg;
}

uint32_t fake_hw_starts(const struct fake_hw *hw)
{
	uint32_t e, n = 0;

	for (e = 0; e < hw->n_eng; e++)
		n += hw->eng[e].starts;
	return n;
}
