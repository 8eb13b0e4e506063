// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Robustness: the model is hardware, so no sequence of register writes may
 * crash it or make it touch memory it was not given. Random writes to the
 * whole MMIO window and random descriptors (biased towards plausible
 * values), run under ASan/UBSan, with invariants checked along the way.
 * Deterministic seed; bounded work per op so the test stays fast.
 */
#include "sim_test.h"
#include "vpux_ops.h"
#include "vpux_regs.h"
#include "vpux_shave_abi.h"

static struct t_dev t;
static struct t_buf buf;

/* A plausible 32-bit value for a descriptor field. */
static uint32_t field(void)
{
	switch (t_rand() % 8) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return t_rand() % 64;
	case 3:
		return t_rand() % 4096;
	case 4:
		return (uint32_t)t.cmx_base + t_rand() % (t.n_tiles * t.cmx_size + 64);
	case 5:
		return (uint32_t)(buf.va + t_rand() % (buf.size + 64));
	case 6:
		return (uint32_t)(buf.va >> 32);
	default:
		return t_rand();
	}
}

/* Would this op be too much work for a unit test? (not a model limit) */
static bool too_big(uint32_t e, const uint32_t *w)
{
	if (e < t.n_dma) {
		struct vpux_hw_dma_desc d;
		uint64_t rows;

		memcpy(&d, w, sizeof(d));
		rows = (uint64_t)d.count[0] * d.count[1] * d.count[2];
		return rows > (1u << 16) || rows * d.len > (16u << 20);
	}
	if (e < t.n_dma + t.n_dpu) {
		struct vpux_hw_dpu_desc d;
		struct vpux_dpu_extents x;

		memcpy(&d, w, sizeof(d));
		if (vpux_dpu_extents(&d, &x))
			return false;
		return x.macs > (1u << 22) || x.in + x.in2 + x.out > (16u << 20);
	}
	return false;
}

static uint32_t n_engines(void)
{
	return t.n_dma + t.n_dpu + t.n_shave;
}

/* A device address: CMX, the mapped buffer, or anything. */
static uint64_t addr(uint64_t len)
{
	uint64_t cmx = (uint64_t)t.n_tiles * t.cmx_size;

	switch (t_rand() % 8) {
	case 0:
		return ((uint64_t)t_rand() << 32 | t_rand()) & ((1ull << 40) - 1);
	case 1:
	case 2:
	case 3:
		return t.cmx_base + t_rand() % (cmx > len ? cmx - len + 1 : 1);
	default:
		return buf.va + t_rand() % (buf.size > len ? buf.size - len + 1 : 1);
	}
}

static void plausible_dma(uint32_t *w)
{
	struct vpux_hw_dma_desc d;
	uint64_t s = 0, ds = 0;
	int i;

	memset(&d, 0, sizeof(d));
	d.len = t_range(1, 512);
	for (i = 0; i < 3; i++) {
		d.count[i] = t_rand() % 2 ? 1 : t_range(1, 6);
		d.src_stride[i] = t_rand() % 1024;
		d.dst_stride[i] = t_rand() % 1024;
		s += (uint64_t)(d.count[i] - 1) * d.src_stride[i];
		ds += (uint64_t)(d.count[i] - 1) * d.dst_stride[i];
	}
	d.src = addr(s + d.len);
	d.dst = addr(ds + d.len);
	memcpy(w, &d, sizeof(d));
}

static void plausible_dpu(uint32_t *w)
{
	struct vpux_hw_dpu_desc d;

	memset(&d, 0, sizeof(d));
	d.op = t_rand() % 6;
	d.flags = t_rand() & 0x1f;
	d.in_c = (uint16_t)t_range(1, 8);
	d.in_h = (uint16_t)t_range(1, 6);
	d.in_w = (uint16_t)t_range(1, 6);
	d.out_c = t_rand() % 2 ? d.in_c : (uint16_t)t_range(1, 8);
	d.kernel_h = (uint16_t)t_range(1, 3);
	d.kernel_w = (uint16_t)t_range(1, 3);
	d.stride_h = d.stride_w = 1;
	d.dilation_h = d.dilation_w = 1;
	d.groups = 1;
	if (d.op == VPUX_DPU_OP_MATMUL || d.op == VPUX_DPU_OP_ADD ||
	    d.op == VPUX_DPU_OP_MUL)
		d.kernel_h = d.kernel_w = 1;
	d.out_h = (uint16_t)(d.in_h >= d.kernel_h ? d.in_h - d.kernel_h + 1 : 1);
	d.out_w = (uint16_t)(d.in_w >= d.kernel_w ? d.in_w - d.kernel_w + 1 : 1);
	d.act_min = d.flags & VPUX_DPU_F_OUT_SIGNED ? -128 : 0;
	d.act_max = d.flags & VPUX_DPU_F_OUT_SIGNED ? 127 : 255;
	if (!(d.flags & VPUX_DPU_F_PER_CHANNEL)) {
		d.requant.mult = 1 << 30;
		d.requant.shift = 4;
	}
	if (d.op == VPUX_DPU_OP_ADD)
		d.in_scale.mult = d.in2_scale.mult = 1 << 30;
	d.in = addr(512);
	d.in2 = addr(1024);
	d.bias = addr(64) & ~3ull;
	d.quant = addr(128) & ~7ull;
	d.out = addr(512);
	memcpy(w, &d, sizeof(d));
}

static void plausible_shave(uint32_t *w)
{
	struct vpux_hw_shave_desc d;
	int i;

	memset(&d, 0, sizeof(d));
	/* every kernel id and one beyond; mostly its exact args size */
	d.kernel_id = t_rand() % (VPUX_SHAVE_KERNELS + 1);
	d.args_size = t_rand() % 2 ?
		      vpux_shave_args_size(t_rand() % VPUX_SHAVE_KERNELS) :
		      t_rand() % 480;
	d.args = addr(d.args_size);
	for (i = 0; i < (int)VPUX_SHAVE_WINDOWS; i++) {
		d.window_size[i] = t_rand() % 4096;
		d.window_base[i] = addr(d.window_size[i]);
	}
	memcpy(w, &d, sizeof(d));
}

static void random_op(void)
{
	uint32_t e = t_rand() % (n_engines() + 1);	/* one beyond: absent engine */
	uint32_t w[VPUX_ENG_PARAM_WORDS];
	uint32_t i;

	memset(w, 0, sizeof(w));
	if (e < t.n_dma)
		plausible_dma(w);
	else if (e < t.n_dma + t.n_dpu)
		plausible_dpu(w);
	else
		plausible_shave(w);
	/* corrupt some words now and then */
	while (t_rand() % 3 == 0)
		w[t_rand() % 34] = field();
	if (too_big(e, w))
		return;
	for (i = 0; i < VPUX_ENG_PARAM_WORDS; i++)
		t_wreg(&t, VPUX_REG_ENGINE(e) + VPUX_ENG_PARAM(i), w[i]);
	t_wreg(&t, VPUX_REG_ENGINE(e) + VPUX_ENG_CTX, t_rand() % 8 ? 0 : t_rand() % 20);
	t_wreg(&t, VPUX_REG_ENGINE(e) + VPUX_ENG_CMD, VPUX_ENG_CMD_START);
}

static void random_write(void)
{
	uint32_t off, v = t_rand();

	switch (t_rand() % 6) {
	case 0:	/* anywhere, even unaligned */
		off = t_rand() % (VPUX_MMIO_SIZE + 16);
		break;
	case 1:
		off = 0x100 + 4 * (t_rand() % 12);
		if (off == VPUX_REG_INJECT)
			v &= 0x00ff0fffu | (t_rand() % 2 ? 0 : 0xffff0000u);
		if (off == VPUX_REG_INJECT_ARG)
			v %= 8;
		if (off == VPUX_REG_RESET && t_rand() % 4)
			return;
		break;
	case 2:
		off = VPUX_REG_MMU_BASE + 4 * (t_rand() % 68);
		if (t_rand() % 4)
			return;	/* keep slot 0's tables most of the time */
		break;
	case 3:
		off = VPUX_REG_ENGINE(t_rand() % 8) + 4 * (t_rand() % 8);
		if ((off & 0x1ff) == VPUX_ENG_CMD)
			v = t_rand() % 4;	/* START is random_op's job */
		if (v == VPUX_ENG_CMD_START)
			v = VPUX_ENG_CMD_ABORT;
		break;
	default:
		off = VPUX_REG_IRQ_CLEAR;
		break;
	}
	t_wreg(&t, off, v);
}

static void handler(void *arg)
{
	(void)arg;
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, t_reg(&t, VPUX_REG_IRQ_STATUS));
}

int main(void)
{
	static unsigned int hist[3][8];
	uint64_t last_cycles = 0;
	uint32_t e, bad_state = 0, bad_clock = 0, ops = 0;
	int i;
	struct t_buf guard;

	t_seed(0xf022);
	if (t_open(&t, NULL, true))
		return 1;
	vpux_host_dev_set_irq_handler(t.dev, handler, NULL);
	t_buf_alloc(&t, &buf, 64 * 1024, true);
	t_fill(buf.ptr, buf.size);
	/* a page the device can never reach: allocated, never mapped */
	if (vpux_host_phys_alloc(t.dev, 4096, &guard.pa))
		return 1;
	guard.ptr = vpux_host_phys_ptr(t.dev, guard.pa, 4096);
	memset(guard.ptr, 0xa5, 4096);

	for (i = 0; i < 50000; i++) {
		uint64_t c;

		if (t_rand() % 3 == 0)
			random_op();
		else
			random_write();
		if (t_rand() % 4 == 0) {
			uint32_t k;

			ops += vpux_host_dev_step(t.dev);
			for (k = 0; k < n_engines(); k++) {
				uint32_t st = t_eng(&t, k, VPUX_ENG_STATUS);

				if ((st & 0xff) >= 2)
					hist[k < t.n_dma ? 0 : k < t.n_dma + t.n_dpu ? 1 : 2]
					    [(st & 0xff) == 2 ? 0 : (st >> 8) & 7]++;
			}
		}
		c = t_reg(&t, VPUX_REG_CYCLES_LO);
		c |= (uint64_t)t_reg(&t, VPUX_REG_CYCLES_HI) << 32;
		bad_clock += c < last_cycles;
		last_cycles = c;
		for (e = 0; e < n_engines(); e++)
			bad_state += (t_eng(&t, e, VPUX_ENG_STATUS) & 0xff) > 3;
	}
	while (vpux_host_dev_step(t.dev))
		ops++;
	tap_check(1, "50000 random register writes and ops survived (%u ops completed)", ops);
	for (e = 0; e < 3; e++)
		tap_diag("%s status samples: done %u mmu %u desc %u kernel %u args %u aborted %u nomem %u",
			 e == 0 ? "DMA" : e == 1 ? "DPU" : "SHAVE", hist[e][0], hist[e][1],
			 hist[e][2], hist[e][3], hist[e][4], hist[e][5], hist[e][6]);
	tap_check(!bad_state, "engine states always valid");
	tap_check(!bad_clock, "cycle counter never went backwards");
	{
		int untouched = 1;

		for (i = 0; i < 4096; i++)
			untouched &= guard.ptr[i] == 0xa5;
		tap_check(untouched, "unmapped page never written");
	}
	/* the device still works after all that */
	t_wreg(&t, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	t_wreg(&t, VPUX_REG_INJECT, 0);
	t_wreg(&t, VPUX_REG_MMU_PT_LO(0), t_reg(&t, VPUX_REG_MMU_PT_LO(0)));
	vpux_host_vm_destroy(t.vm);
	t.vm = vpux_host_vm_create(t.dev, 0);
	t_buf_alloc(&t, &buf, 8192, true);
	{
		struct vpux_hw_dma_desc d = t_dma_1d(buf.va, buf.va + 4096, 4096);

		t_fill(buf.ptr, 4096);
		tap_check(t_run_step(&t, 0, &d, sizeof(d)) == T_DONE &&
			  !memcmp(buf.ptr, buf.ptr + 4096, 4096),
			  "device works after RESET and a fresh address space");
	}
	t_close(&t);
	return tap_finish();
}
