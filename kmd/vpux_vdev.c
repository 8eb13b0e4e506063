// SPDX-License-Identifier: GPL-2.0-only
/*
 * The virtual NPU. There is no silicon: the register-level model from sim/
 * is instantiated here and given what a real device gets from the SoC:
 * system memory access by physical address (the model walks the page
 * tables the driver writes and reaches pages only through them), an
 * execution context for each of its engines (one work item per execution
 * unit, so the model runs asynchronously to whoever wrote a command
 * register and a long op on one engine never delays another), and an
 * interrupt line (irq_work in hard-IRQ mode, so the driver's handler runs
 * in hard-IRQ context exactly as it would for a real interrupt).
 *
 * The rest of the driver sees only vpux_reg_read()/vpux_reg_write() and
 * its interrupt handler.
 */

#include <linux/highmem.h>
#include <linux/kcov.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <drm/drm_managed.h>

#include "vpux_drv.h"
#include "vpux_sim.h"

static struct vpux_vdev *env_to_vdev(void *env)
{
	return env;
}

static void *vdev_alloc(void *env, size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static void vdev_free(void *env, void *ptr)
{
	kvfree(ptr);
}

/*
 * Copy between a buffer and system memory at a physical address, one page
 * at a time through a temporary kernel mapping. Memory that is not RAM
 * managed by the kernel is refused: a real device's bus would abort.
 */
static int vdev_phys_copy(u64 pa, void *buf, size_t len, bool write)
{
	while (len) {
		unsigned long pfn = PHYS_PFN(pa);
		size_t off = offset_in_page(pa);
		size_t chunk = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page;
		void *va;

		if (!pfn_valid(pfn))
			return -EFAULT;
		page = pfn_to_page(pfn);
		va = kmap_local_page(page);
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

static int vdev_phys_read(void *env, u64 pa, void *dst, size_t len)
{
	return vdev_phys_copy(pa, dst, len, false);
}

static int vdev_phys_write(void *env, u64 pa, const void *src, size_t len)
{
	return vdev_phys_copy(pa, (void *)src, len, true);
}

static void vdev_lock(void *env)
	__acquires(&env_to_vdev(env)->lock)
{
	struct vpux_vdev *v = env_to_vdev(env);
	unsigned long flags;

	spin_lock_irqsave(&v->lock, flags);
	v->lock_flags = flags;
}

static void vdev_unlock(void *env)
	__releases(&env_to_vdev(env)->lock)
{
	struct vpux_vdev *v = env_to_vdev(env);

	spin_unlock_irqrestore(&v->lock, v->lock_flags);
}

static void vdev_irq_raise(void *env)
{
	irq_work_queue(&env_to_vdev(env)->irq_work);
}

static void vdev_kick(void *env, u32 unit)
{
	struct vpux_vdev *v = env_to_vdev(env);

	queue_work(v->run_wq, &v->units[unit].work);
}

static void vdev_yield(void *env)
{
	cond_resched();
}

static const struct vpux_sim_env_ops vdev_env_ops = {
	.alloc = vdev_alloc,
	.free = vdev_free,
	.phys_read = vdev_phys_read,
	.phys_write = vdev_phys_write,
	.lock = vdev_lock,
	.unlock = vdev_unlock,
	.irq_raise = vdev_irq_raise,
	.kick = vdev_kick,
	.yield = vdev_yield,
};

static void vdev_run_work(struct work_struct *work)
{
	struct vpux_vdev_unit *u = container_of(work, struct vpux_vdev_unit,
						work);
	struct vpux_vdev *v = u->vdev;

	/* KCOV: the engines' work counts as the last job's submitter's */
	kcov_remote_start_common(READ_ONCE(v->kcov_handle));
	vpux_sim_run_unit(v->sim, u->index);
	kcov_remote_stop();
}

/* Runs in hard-IRQ context (IRQ_WORK_HARD_IRQ). */
static void vdev_irq_work(struct irq_work *work)
{
	struct vpux_vdev *v = container_of(work, struct vpux_vdev, irq_work);
	void (*handler)(struct vpux_vdev *vdev) = READ_ONCE(v->irq_handler);

	lockdep_assert_irqs_disabled();
	if (handler)
		handler(v);
}

static void vpux_vdev_release(struct drm_device *drm, void *arg)
{
	vpux_vdev_fini(to_vpux_device(drm));
}

/**
 * vpux_vdev_init() - instantiate the virtual NPU behind @vdev
 * @vdev: the device
 * @instance: instance number, the model reports it as its serial
 *
 * Torn down automatically (drmm) when the DRM device is released.
 *
 * Return: 0 or a negative errno.
 */
int vpux_vdev_init(struct vpux_device *vdev, u32 instance)
{
	struct vpux_vdev *v = &vdev->vdev;
	struct vpux_sim_config cfg;
	u32 i, n;

	spin_lock_init(&v->lock);
	v->irq_work = IRQ_WORK_INIT_HARD(vdev_irq_work);

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
	v->run_wq = alloc_workqueue("vpux%u-engines",
				    WQ_HIGHPRI | WQ_CPU_INTENSIVE, 0, instance);
	if (!v->run_wq)
		return -ENOMEM;

	vpux_sim_default_config(&cfg);
	cfg.instance = instance;
	v->sim = vpux_sim_create(&cfg, &vdev_env_ops, v);
	if (!v->sim)
		goto err_wq;
	n = vpux_sim_units(v->sim);
	v->units = kcalloc(n, sizeof(*v->units), GFP_KERNEL);
	if (!v->units)
		goto err_sim;
	for (i = 0; i < n; i++) {
		v->units[i].vdev = v;
		v->units[i].index = i;
		INIT_WORK(&v->units[i].work, vdev_run_work);
	}

	return drmm_add_action_or_reset(&vdev->drm, vpux_vdev_release, NULL);

err_sim:
	vpux_sim_destroy(v->sim);
	v->sim = NULL;
err_wq:
	destroy_workqueue(v->run_wq);
	return -ENOMEM;
}

/**
 * vpux_vdev_quiesce() - the last register writes: mask and reset
 * @vdev: the device, its driver unbound from the engine core
 *
 * What remove does to real hardware before its registers go away;
 * idempotent (release after a failed probe calls it too).
 */
void vpux_vdev_quiesce(struct vpux_device *vdev)
{
	struct vpux_vdev *v = &vdev->vdev;

	if (v->quiesced)
		return;
	v->quiesced = true;
	vpux_reg_write(vdev, VPUX_REG_IRQ_MASK, 0);
	vpux_reg_write(vdev, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	WRITE_ONCE(v->irq_handler, NULL);
	irq_work_sync(&v->irq_work);
}

/**
 * vpux_vdev_fini() - destroy the virtual NPU
 * @vdev: the device
 *
 * Mirror of vpux_vdev_init(): once the device is quiesced, stop engine
 * execution, then free the model.
 */
void vpux_vdev_fini(struct vpux_device *vdev)
{
	struct vpux_vdev *v = &vdev->vdev;

	vpux_vdev_quiesce(vdev);
	destroy_workqueue(v->run_wq);
	kfree(v->units);
	v->units = NULL;
	vpux_sim_destroy(v->sim);
	v->sim = NULL;
}

u32 vpux_reg_read(struct vpux_device *vdev, u32 offset)
{
	return vpux_sim_reg_read(vdev->vdev.sim, offset);
}

void vpux_reg_write(struct vpux_device *vdev, u32 offset, u32 value)
{
	vpux_sim_reg_write(vdev->vdev.sim, offset, value);
}

/* Read a 64-bit register pair; the model latches HI when LO is read. */
u64 vpux_reg_read64(struct vpux_device *vdev, u32 lo, u32 hi)
{
	u64 low = vpux_reg_read(vdev, lo);

	return low | ((u64)vpux_reg_read(vdev, hi) << 32);
}
