/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The NPU model in the kernel: the "SoC" around each model instance.
 *
 * Each instance is a platform device "vpux-sim.N" bound to the model's
 * own platform driver. Its probe creates the model and gives it what
 * silicon gets from the SoC, then registers the NPU itself as a child
 * platform device "vpux-npu.N" that carries what a real NPU's device
 * would: a register window (a regmap on the parent, whose read/write
 * callbacks are the model's register accessors), one interrupt (a
 * software irq domain whose line the model raises in hard-IRQ context)
 * and a DMA mask (the model reaches memory only through the page tables
 * the driver wrote, at the bus addresses the DMA API gave it). The
 * driver (kmd/) binds to "vpux-npu" as it would to silicon.
 */
#ifndef VPUX_SIM_LINUX_H
#define VPUX_SIM_LINUX_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#define VPUX_SIM_DRV_NAME	"vpux-sim"
/* what the driver binds to: the name a silicon port's device would have */
#define VPUX_SIM_NPU_NAME	"vpux-npu"
#define VPUX_SIM_MAX_DEVICES	8

struct irq_domain;
struct platform_device;
struct regmap;
struct vpux_sim;
struct vpux_sim_dev;

/**
 * struct vpux_sim_unit - runs one execution unit of the model
 * @work: calls vpux_sim_run_unit(@index) on &vpux_sim_dev.run_wq
 * @sd: the instance
 * @index: the unit
 */
struct vpux_sim_unit {
	struct work_struct work;
	struct vpux_sim_dev *sd;
	u32 index;
};

/**
 * struct vpux_sim_dev - one model instance and the SoC plumbing around it
 * @dev: the instance's platform device (vpux-sim.N)
 * @sim: the model
 * @lock: the model's register lock (raw, irq-safe: see vpux_sim_env_ops)
 * @lock_flags: saved IRQ flags while @lock is held
 * @run_wq: workqueue on which the model's execution units run
 * @units: one work item per execution unit (engines, CMX clear,
 *	management core)
 * @timer_work: runs @timer_unit when the management core's timer is due
 *	(env->kick_at)
 * @timer_unit: the management core's unit
 * @regmap: the NPU's register window
 * @domain: the interrupt controller: one level-triggered line, hwirq 0
 * @fwnode: @domain's name
 * @virq: the Linux interrupt of the line
 * @irq_work: raises the line: its handler runs in hard-IRQ context and
 *	hands the interrupt to the domain, as an interrupt controller would
 * @npu: the NPU's platform device (vpux-npu.N), child of @dev
 * @unbound_accesses: register accesses made while no driver was bound
 *	to @npu (sysfs unbound_reg_accesses): a driver that touches the
 *	registers after its remove() returned would crash on silicon
 */
struct vpux_sim_dev {
	struct device *dev;
	struct vpux_sim *sim;
	raw_spinlock_t lock;
	unsigned long lock_flags;
	struct workqueue_struct *run_wq;
	struct vpux_sim_unit *units;
	struct delayed_work timer_work;
	u32 timer_unit;
	struct regmap *regmap;
	struct irq_domain *domain;
	struct fwnode_handle *fwnode;
	unsigned int virq;
	struct irq_work irq_work;
	struct platform_device *npu;
	atomic_t unbound_accesses;
};

/* vpux_sim_regmap.c */
int vpux_sim_regmap_init(struct vpux_sim_dev *sd);

/* vpux_sim_irq.c */
int vpux_sim_irq_init(struct vpux_sim_dev *sd, u32 instance);
void vpux_sim_irq_raise(struct vpux_sim_dev *sd);

/* vpux_sim_plat.c */
int vpux_sim_driver_register(void);
void vpux_sim_driver_unregister(void);

#endif /* VPUX_SIM_LINUX_H */
