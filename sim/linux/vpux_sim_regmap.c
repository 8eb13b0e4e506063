// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NPU's register window: a regmap whose accessors are the model's.
 *
 * Silicon would map its MMIO BAR with devm_regmap_init_mmio(); the model
 * has no MMIO, so its regmap has its own read/write callbacks. The
 * regmap does no locking (the model has its own lock, taken by every
 * access, in any context) and no caching (registers change behind the
 * CPU's back). Reading CYCLES_LO latches CYCLES_HI: it is precious, so
 * the regmap's debugfs dump never reads it.
 *
 * Every access is checked against the NPU device's binding: an access
 * while no driver is bound (after remove() returned) is counted and
 * reported, since on silicon the window would be gone.
 */

#include <linux/device.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>

#include "vpux_sim.h"
#include "vpux_sim_linux.h"

static void vpux_sim_check_bound(struct vpux_sim_dev *sd, u32 reg)
{
	if (likely(sd->npu && READ_ONCE(sd->npu->dev.driver)))
		return;
	atomic_inc(&sd->unbound_accesses);
	dev_warn_ratelimited(sd->dev,
			     "register %#x accessed with no driver bound\n",
			     reg);
}

static int vpux_sim_regmap_read(void *context, unsigned int reg,
				unsigned int *val)
{
	struct vpux_sim_dev *sd = context;

	vpux_sim_check_bound(sd, reg);
	*val = vpux_sim_reg_read(sd->sim, reg);
	return 0;
}

static int vpux_sim_regmap_write(void *context, unsigned int reg,
				 unsigned int val)
{
	struct vpux_sim_dev *sd = context;

	vpux_sim_check_bound(sd, reg);
	vpux_sim_reg_write(sd->sim, reg, val);
	return 0;
}

static bool vpux_sim_precious_reg(struct device *dev, unsigned int reg)
{
	return reg == VPUX_REG_CYCLES_LO;
}

static const struct regmap_config vpux_sim_regmap_config = {
	.name = "npu",
	.reg_bits = 32,
	.val_bits = 32,
	.reg_stride = 4,
	.max_register = VPUX_MMIO_SIZE - 4,
	.reg_read = vpux_sim_regmap_read,
	.reg_write = vpux_sim_regmap_write,
	.precious_reg = vpux_sim_precious_reg,
	.cache_type = REGCACHE_NONE,
	.disable_locking = true,
};

/**
 * vpux_sim_regmap_init() - create the NPU's register window
 * @sd: the instance, its model created
 *
 * The regmap belongs to the instance's device (devm), so it outlives
 * every binding of the NPU device; the driver finds it with
 * dev_get_regmap() on its parent.
 *
 * Return: 0 or a negative errno.
 */
int vpux_sim_regmap_init(struct vpux_sim_dev *sd)
{
	sd->regmap = devm_regmap_init(sd->dev, NULL, sd,
				      &vpux_sim_regmap_config);
	return PTR_ERR_OR_ZERO(sd->regmap);
}
