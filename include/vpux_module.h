/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Module entries of the two halves of the kernel build.
 *
 * The driver (kmd/) and the NPU model (sim/linux/) are separate: the
 * driver binds to "vpux-npu" platform devices and never calls the model.
 * By default both link into vpux_accel.ko, whose module entry (in
 * sim/linux/vpux_sim_module.c, built with VPUX_WITH_SIM) registers the
 * driver and then the virtual NPUs; with CONFIG_DRM_ACCEL_VPUX_SIM=m the
 * model is vpux_sim.ko and each half is its own module (Kconfig).
 */
#ifndef VPUX_MODULE_H
#define VPUX_MODULE_H

/* kmd/vpux_drv.c */
int vpux_drv_module_init(void);
void vpux_drv_module_exit(void);

#endif /* VPUX_MODULE_H */
