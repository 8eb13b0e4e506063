// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The engine core's own checks of a plan, run at load: the task memory a
 * plan network submits is prepared by the core (dla_user_check(), the
 * path of the in-process backend) once with every symbol at its min and
 * once at its max, against address-list entries of the loadable's exact
 * region and tensor sizes. A plan the core would refuse at some submit
 * (a template leaving its buffer at max, a loop count past the core's
 * limit, a malformed record) is refused at load instead, whichever
 * backend runs it. The core runs on a register file of its own: the
 * identity of the NPU model's default device, no engine ever started.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dla_user.h"
#include "err.h"
#include "priv.h"
#include "vpux_regs.h"

static uint32_t pc_reg_read(void *hw, uint32_t off)
{
	(void)hw;
	switch (off) {
	case VPUX_REG_ID:
		return VPUX_ID_MAGIC;
	case VPUX_REG_REVISION:
		return VPUX_HW_REV_MAJOR << 16;
	case VPUX_REG_ENGINES:
		return 2u | 2u << 8 | 2u << 16;	/* DMA, DPU, SHAVE */
	case VPUX_REG_TILES:
		return VPUX_LF_CMX_TILES;
	case VPUX_REG_CMX_SIZE:
		return VPUX_LF_CMX_TILE_SIZE;
	case VPUX_REG_CMX_BASE_LO:
		return (uint32_t)VPUX_DEFAULT_CMX_BASE;
	case VPUX_REG_CMX_BASE_HI:
		return (uint32_t)(VPUX_DEFAULT_CMX_BASE >> 32);
	case VPUX_REG_CTX_SLOTS:
		return VPUX_MAX_CTX_SLOTS;
	default:
		return 0;
	}
}

static void pc_reg_write(void *hw, uint32_t off, uint32_t val)
{
	(void)hw;
	(void)off;
	(void)val;
}

static const struct dla_user_hw_ops pc_ops = { pc_reg_read, pc_reg_write };
static struct dla_user_dev *pc_dev;
static pthread_once_t pc_once = PTHREAD_ONCE_INIT;

static void pc_init(void)
{
	/* prepare only: no bottom half, never an interrupt */
	pc_dev = dla_user_create(&pc_ops, NULL, DLA_USER_INLINE_BH);
}

__attribute__((destructor))
static void pc_fini(void)
{
	dla_user_destroy(pc_dev);
	pc_dev = NULL;
}

int vpux_plan_core_check(const struct vpux_network *net, const void *task)
{
	static const char *const at[2] = { "min", "max" };
	const struct lf_image *img = &net->img;
	struct dla_user_buf l[DLA_MAX_ADDR_ENTRIES];
	uint64_t sym[VPUX_LF_MAX_SYMBOLS + 1];
	unsigned int n = net->n_slots + 1, i, c;
	char msg[512];
	int r;

	pthread_once(&pc_once, pc_init);
	if (!pc_dev)
		return vpux_err(VPUX_E_NOMEM,
				"load: cannot set up the engine core's plan check");
	if (n > DLA_MAX_ADDR_ENTRIES)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: %u address-list entries, the engine core takes %u",
				VPUX_LF_SEC_HEADER, n, DLA_MAX_ADDR_ENTRIES);
	memset(l, 0, sizeof(l));
	for (i = 0; i < n; i++)
		l[i].va = (uint64_t)(i + 1) << 32;
	l[SLOT_TASK].size = net->task_size;
	l[SLOT_TASK].cpu = (void *)task;
	l[SLOT_WEIGHTS].size = img->hdr.weights_size;
	l[SLOT_KARGS].size = img->kargs_size;
	l[SLOT_SCRATCH].size = img->hdr.scratch_size;
	for (i = SLOT_IO; i < net->n_slots; i++)
		l[i].size = img->tensors[net->io_tensor[i - SLOT_IO]].size;
	l[net->n_slots].size = sizeof(sym);
	l[net->n_slots].cpu = sym;
	for (c = 0; c < 2; c++) {
		memset(sym, 0, sizeof(sym));
		for (i = 0; i < img->n_symbols; i++)
			sym[i] = (uint64_t)(c ? img->symbols[i].max :
					    img->symbols[i].min);
		r = dla_user_check(pc_dev, l, n);
		if (r) {
			snprintf(msg, sizeof(msg), "%s", dla_user_last_error());
			msg[strcspn(msg, "\n")] = 0;
			return vpux_err(VPUX_E_FORMAT,
					"%s: the engine core refuses the plan with every symbol at its %s (dla error %d: %s)",
					VPUX_LF_SEC_PLAN_BLOCKS, at[c], r, msg);
		}
	}
	return 0;
}
