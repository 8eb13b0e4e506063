// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module entry of the virtual NPUs: vpux_sim.ko on its own, or, in the
 * default build (VPUX_WITH_SIM), of vpux_accel.ko holding the driver and
 * the model, like a board file registering the driver and its devices.
 */

#include <linux/module.h>

#include "vpux_module.h"
#include "vpux_sim_linux.h"

#ifdef VPUX_WITH_SIM
/* the driver first, so that each NPU is probed as it appears */
static int __init vpux_accel_init(void)
{
	int ret;

	ret = vpux_drv_module_init();
	if (ret)
		return ret;
	ret = vpux_sim_driver_register();
	if (ret)
		vpux_drv_module_exit();
	return ret;
}

/* the NPUs first: the driver unbinds from each as it goes */
static void __exit vpux_accel_exit(void)
{
	vpux_sim_driver_unregister();
	vpux_drv_module_exit();
}

module_init(vpux_accel_init);
module_exit(vpux_accel_exit);
#else
static int __init vpux_sim_init(void)
{
	return vpux_sim_driver_register();
}

static void __exit vpux_sim_exit(void)
{
	vpux_sim_driver_unregister();
}

module_init(vpux_sim_init);
module_exit(vpux_sim_exit);

MODULE_DESCRIPTION("vpux NPU model: virtual NPUs for the vpux_accel driver");
MODULE_LICENSE("GPL");
MODULE_AUTHOR("vpux developers");
#endif
