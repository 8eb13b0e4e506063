// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux_sim: the virtual NPUs, a module of its own. It registers the
 * model's instances, each of which registers its NPU as a "vpux-npu"
 * platform device; the driver (vpux_accel) binds to those whether it
 * was loaded before or after, as it would to silicon. Neither module
 * uses a symbol of the other.
 */

#include <linux/module.h>

#include "vpux_sim_linux.h"

static int __init vpux_sim_init(void)
{
	return vpux_sim_driver_register();
}

/* each NPU device goes first: a bound driver unbinds from it */
static void __exit vpux_sim_exit(void)
{
	vpux_sim_driver_unregister();
}

module_init(vpux_sim_init);
module_exit(vpux_sim_exit);

MODULE_DESCRIPTION("vpux NPU model: virtual NPUs for the vpux_accel driver");
MODULE_LICENSE("GPL");
MODULE_AUTHOR("vpux developers");
