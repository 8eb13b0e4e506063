// SPDX-License-Identifier: GPL-2.0-only
/*
 * The virtual NPUs. There is no silicon: each "vpux-sim.N" platform
 * device gets a register-level model (sim/) and what a real NPU gets
 * from the SoC around it: system memory reached by bus address (the
 * model walks the page tables the driver writes and reaches pages only
 * through them), an execution context for each of its engines (one work
 * item per execution unit, so the model runs asynchronously to whoever
 * wrote a command register and a long op on one engine never delays
 * another), a register window (vpux_sim_regmap.c) and an interrupt line
 * (vpux_sim_irq.c). It then registers the NPU device "vpux-npu.N" that
 * the driver binds to.
 */

#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "vpux_sim.h"
#include "vpux_sim_linux.h"

static void *sd_alloc(void *env, size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static void sd_free(void *env, void *ptr)
{
	kvfree(ptr);
}

/*
 * The bus: copy between a buffer and system memory at a bus address
 * (without an IOMMU, the DMA API hands out physical addresses), one page
 * at a time through a temporary kernel mapping. Memory that is not RAM
 * managed by the kernel is refused: a real device's bus would abort.
 */
static int sd_phys_copy(u64 pa, void *buf, size_t len, bool write)
{
	while (len) {
		unsigned long pfn = PHYS_PFN(pa);
		size_t off = offset_in_page(pa);
		size_t chunk = min_t(size_t, len, PAGE_SIZE - off);
		void *va;

		if (!pfn_valid(pfn))
			return -EFAULT;
		va = kmap_local_page(pfn_to_page(pfn));
		if (write)
			memcpy(va + off, buf, chunk);
		else
			memcpy(buf, va + off, chunk);
		kunmap_local(va);
		pa += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

static int sd_phys_read(void *env, u64 pa, void *dst, size_t len)
{
	return sd_phys_copy(pa, dst, len, false);
}

static int sd_phys_write(void *env, u64 pa, const void *src, size_t len)
{
	return sd_phys_copy(pa, (void *)src, len, true);
}

static void sd_lock(void *env)
	__acquires(&((struct vpux_sim_dev *)env)->lock)
{
	struct vpux_sim_dev *sd = env;
	unsigned long flags;

	raw_spin_lock_irqsave(&sd->lock, flags);
	sd->lock_flags = flags;
}

static void sd_unlock(void *env)
	__releases(&((struct vpux_sim_dev *)env)->lock)
{
	struct vpux_sim_dev *sd = env;

	raw_spin_unlock_irqrestore(&sd->lock, sd->lock_flags);
}

static void sd_irq_raise(void *env)
{
	vpux_sim_irq_raise(env);
}

static void sd_kick(void *env, u32 unit)
{
	struct vpux_sim_dev *sd = env;

	queue_work(sd->run_wq, &sd->units[unit].work);
}

static void sd_yield(void *env)
{
	cond_resched();
}

static u64 sd_now_us(void *env)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/*
 * The management core sleeps until its timer: one delayed work per
 * instance (only that unit asks), which runs the unit; a new time
 * replaces the pending one. Jiffy resolution: it fires at or after @us.
 */
static void sd_kick_at(void *env, u32 unit, u64 us)
{
	struct vpux_sim_dev *sd = env;
	u64 now = sd_now_us(env);
	unsigned long delay = 0;

	if (us > now)
		delay = usecs_to_jiffies(min_t(u64, us - now, U32_MAX));
	sd->timer_unit = unit;
	mod_delayed_work(sd->run_wq, &sd->timer_work, delay);
}

static void sd_console(void *env, const char *line)
{
	struct vpux_sim_dev *sd = env;

	dev_info(sd->dev, "mc: %s\n", line);
}

static const struct vpux_sim_env_ops vpux_sim_env_ops = {
	.alloc = sd_alloc,
	.free = sd_free,
	.phys_read = sd_phys_read,
	.phys_write = sd_phys_write,
	.lock = sd_lock,
	.unlock = sd_unlock,
	.irq_raise = sd_irq_raise,
	.kick = sd_kick,
	.yield = sd_yield,
	.now_us = sd_now_us,
	.kick_at = sd_kick_at,
	.console = sd_console,
};

static void vpux_sim_run_work(struct work_struct *work)
{
	struct vpux_sim_unit *u = container_of(work, struct vpux_sim_unit,
					       work);

	vpux_sim_run_unit(u->sd->sim, u->index);
}

static void vpux_sim_timer_work(struct work_struct *work)
{
	struct vpux_sim_dev *sd = container_of(to_delayed_work(work),
					       struct vpux_sim_dev, timer_work);

	vpux_sim_run_unit(sd->sim, READ_ONCE(sd->timer_unit));
}

/*
 * Mirror of vpux_sim_model_init(): stop execution, then free the model.
 * The management core is held in reset first, so that once its unit has
 * left (flush) nothing arms its timer again.
 */
static void vpux_sim_model_fini(void *data)
{
	struct vpux_sim_dev *sd = data;

	vpux_sim_reg_write(sd->sim, VPUX_REG_MC_CTRL, 0);
	flush_workqueue(sd->run_wq);
	cancel_delayed_work_sync(&sd->timer_work);
	destroy_workqueue(sd->run_wq);
	kfree(sd->units);
	vpux_sim_destroy(sd->sim);
}

static int vpux_sim_model_init(struct vpux_sim_dev *sd, u32 instance)
{
	struct vpux_sim_config cfg;
	u32 i, n;

	raw_spin_lock_init(&sd->lock);
	INIT_DELAYED_WORK(&sd->timer_work, vpux_sim_timer_work);
	/*
	 * One work item per execution unit (engine, CMX clear): a work item
	 * never runs concurrently with itself, different units run in
	 * parallel.
	 *
	 * Per-CPU and WQ_HIGHPRI: a unit's work runs on the CPU that wrote
	 * the command register (run_job's) as soon as that CPU is free, so
	 * the common short op costs no cross-CPU wake-up between the driver
	 * and the "hardware".
	 *
	 * WQ_CPU_INTENSIVE: a unit may compute for seconds, only calling
	 * cond_resched(). Per-CPU pools are concurrency-managed: a running
	 * item that never sleeps keeps the other items queued on its CPU's
	 * pool (another engine's, or other drivers' high-priority work)
	 * from starting. Items of a CPU-intensive queue do not count
	 * towards that concurrency, so the pool starts a second worker at
	 * once and the scheduler shares the CPU between them: a DMA op
	 * queued behind a long DPU op waits a scheduler slice, not the DPU
	 * op. (WQ_UNBOUND would do as well for the long op but would move
	 * every short op to whichever CPU the unbound pool picks.)
	 */
	sd->run_wq = alloc_workqueue("vpux%u-engines",
				     WQ_HIGHPRI | WQ_CPU_INTENSIVE, 0, instance);
	if (!sd->run_wq)
		return -ENOMEM;

	vpux_sim_default_config(&cfg);
	cfg.instance = instance;
	sd->sim = vpux_sim_create(&cfg, &vpux_sim_env_ops, sd);
	if (!sd->sim)
		goto err_wq;
	n = vpux_sim_units(sd->sim);
	sd->units = kcalloc(n, sizeof(*sd->units), GFP_KERNEL);
	if (!sd->units)
		goto err_sim;
	for (i = 0; i < n; i++) {
		sd->units[i].sd = sd;
		sd->units[i].index = i;
		INIT_WORK(&sd->units[i].work, vpux_sim_run_work);
	}
	return devm_add_action_or_reset(sd->dev, vpux_sim_model_fini, sd);

err_sim:
	vpux_sim_destroy(sd->sim);
err_wq:
	destroy_workqueue(sd->run_wq);
	return -ENOMEM;
}

static void vpux_sim_npu_unregister(void *data)
{
	struct vpux_sim_dev *sd = data;

	platform_device_unregister(sd->npu);
}

/*
 * The NPU device: its interrupt as a resource, a DMA mask as wide as the
 * MMU's entries (52-bit bus addresses), the instance as its parent (the
 * driver finds the register window there). @sd->npu is set before the
 * device is added, since the driver's probe runs inside
 * platform_device_add() and its register accesses are checked against
 * @sd->npu's binding.
 */
static int vpux_sim_npu_register(struct vpux_sim_dev *sd, u32 instance)
{
	struct resource irq = DEFINE_RES_IRQ(sd->virq);
	struct platform_device *npu;
	int ret;

	npu = platform_device_alloc(VPUX_SIM_NPU_NAME, instance);
	if (!npu)
		return -ENOMEM;
	npu->dev.parent = sd->dev;
	npu->platform_dma_mask = DMA_BIT_MASK(52);
	npu->dev.dma_mask = &npu->platform_dma_mask;
	npu->dev.coherent_dma_mask = DMA_BIT_MASK(52);
	ret = platform_device_add_resources(npu, &irq, 1);
	if (ret)
		goto err_put;
	sd->npu = npu;
	ret = platform_device_add(npu);
	if (ret)
		goto err_put;
	return devm_add_action_or_reset(sd->dev, vpux_sim_npu_unregister, sd);

err_put:
	sd->npu = NULL;
	platform_device_put(npu);
	return ret;
}

static ssize_t unbound_reg_accesses_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	struct vpux_sim_dev *sd = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", atomic_read(&sd->unbound_accesses));
}
static DEVICE_ATTR_RO(unbound_reg_accesses);

static struct attribute *vpux_sim_attrs[] = {
	&dev_attr_unbound_reg_accesses.attr,
	NULL
};
ATTRIBUTE_GROUPS(vpux_sim);

/*
 * The order is the hardware's: the interrupt controller before the
 * engines that raise its line, the engines before the register window
 * that starts them, all of it before the NPU device appears; devm undoes
 * it in reverse, the NPU device (and with it the driver) first.
 */
static int vpux_sim_probe(struct platform_device *pdev)
{
	struct vpux_sim_dev *sd;
	u32 instance = pdev->id;
	int ret;

	sd = devm_kzalloc(&pdev->dev, sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->dev = &pdev->dev;
	platform_set_drvdata(pdev, sd);

	ret = vpux_sim_irq_init(sd, instance);
	if (ret)
		return ret;
	ret = vpux_sim_model_init(sd, instance);
	if (ret)
		return ret;
	ret = vpux_sim_regmap_init(sd);
	if (ret)
		return ret;
	return vpux_sim_npu_register(sd, instance);
}

static struct platform_driver vpux_sim_driver = {
	.probe = vpux_sim_probe,
	.driver = {
		.name = VPUX_SIM_DRV_NAME,
		.dev_groups = vpux_sim_groups,
		/* an instance goes with the module, not with an unbind */
		.suppress_bind_attrs = true,
	},
};

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of virtual NPUs to create (1-8, default 1)");

static struct platform_device *vpux_sim_pdevs[VPUX_SIM_MAX_DEVICES];

static void vpux_sim_destroy_devices(void)
{
	int i;

	for (i = VPUX_SIM_MAX_DEVICES - 1; i >= 0; i--) {
		if (vpux_sim_pdevs[i])
			platform_device_unregister(vpux_sim_pdevs[i]);
		vpux_sim_pdevs[i] = NULL;
	}
}

/**
 * vpux_sim_driver_register() - create the virtual NPUs
 *
 * Registers the model's platform driver and num_devices instances of it;
 * each instance registers its NPU device.
 *
 * Return: 0 or a negative errno.
 */
int vpux_sim_driver_register(void)
{
	unsigned int i;
	int ret;

	if (!num_devices || num_devices > VPUX_SIM_MAX_DEVICES) {
		pr_err(VPUX_SIM_DRV_NAME ": num_devices must be 1..%d\n",
		       VPUX_SIM_MAX_DEVICES);
		return -EINVAL;
	}
	ret = platform_driver_register(&vpux_sim_driver);
	if (ret)
		return ret;
	for (i = 0; i < num_devices; i++) {
		struct platform_device *pdev;

		pdev = platform_device_register_simple(VPUX_SIM_DRV_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			vpux_sim_destroy_devices();
			platform_driver_unregister(&vpux_sim_driver);
			return PTR_ERR(pdev);
		}
		vpux_sim_pdevs[i] = pdev;
	}
	return 0;
}

/**
 * vpux_sim_driver_unregister() - remove the virtual NPUs
 *
 * Mirror of vpux_sim_driver_register(): each instance's NPU device goes
 * first (the driver unbinds from it), then the instance.
 */
void vpux_sim_driver_unregister(void)
{
	vpux_sim_destroy_devices();
	platform_driver_unregister(&vpux_sim_driver);
}
