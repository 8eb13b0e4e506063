// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NPU's interrupt: one level-triggered line behind a software
 * interrupt controller (an irq domain of one hwirq).
 *
 * When the model's line goes high (env->irq_raise, from any context),
 * an irq_work in hard-IRQ mode runs on this CPU, in hard-IRQ context
 * with interrupts off, and hands hwirq 0 to the domain as a controller's
 * chained handler would: generic_handle_domain_irq() runs the line's flow
 * handler (handle_level_irq) and so the driver's handler, exactly as for
 * a wired interrupt. The line is masked while the handler runs; on
 * unmask the controller samples the line again and raises it once more
 * if it is still high, so no cause is lost while the handler was running
 * on another CPU or the interrupt was disabled.
 */

#include <linux/device.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>

#include "vpux_sim.h"
#include "vpux_sim_linux.h"

/**
 * vpux_sim_irq_raise() - the model's line went high
 * @sd: the instance
 *
 * Any context; queues the delivery on this CPU.
 */
void vpux_sim_irq_raise(struct vpux_sim_dev *sd)
{
	irq_work_queue(&sd->irq_work);
}

/* Hard-IRQ context (IRQ_WORK_HARD_IRQ): the controller's upstream IRQ. */
static void vpux_sim_irq_deliver(struct irq_work *work)
{
	struct vpux_sim_dev *sd = container_of(work, struct vpux_sim_dev,
					       irq_work);

	lockdep_assert_irqs_disabled();
	generic_handle_domain_irq(sd->domain, 0);
}

static void vpux_sim_irq_mask(struct irq_data *d)
{
}

/* Under the descriptor's raw lock: the model's lock is raw too. */
static void vpux_sim_irq_unmask(struct irq_data *d)
{
	struct vpux_sim_dev *sd = irq_data_get_irq_chip_data(d);

	if (vpux_sim_irq_line(sd->sim))
		vpux_sim_irq_raise(sd);
}

static struct irq_chip vpux_sim_irq_chip = {
	.name = "vpux-sim",
	.irq_mask = vpux_sim_irq_mask,
	.irq_unmask = vpux_sim_irq_unmask,
	.flags = IRQCHIP_SKIP_SET_WAKE,
};

static int vpux_sim_irq_map(struct irq_domain *domain, unsigned int virq,
			    irq_hw_number_t hwirq)
{
	irq_set_chip_data(virq, domain->host_data);
	irq_set_chip_and_handler(virq, &vpux_sim_irq_chip, handle_level_irq);
	irq_set_status_flags(virq, IRQ_LEVEL);
	return 0;
}

static const struct irq_domain_ops vpux_sim_irq_domain_ops = {
	.map = vpux_sim_irq_map,
	.xlate = irq_domain_xlate_onecell,
};

static void vpux_sim_irq_fini(void *data)
{
	struct vpux_sim_dev *sd = data;

	irq_work_sync(&sd->irq_work);
	irq_dispose_mapping(sd->virq);
	irq_domain_remove(sd->domain);
	irq_domain_free_fwnode(sd->fwnode);
}

/**
 * vpux_sim_irq_init() - create the interrupt controller and the NPU's line
 * @sd: the instance
 * @instance: its number, in the controller's name
 *
 * Torn down with the instance's device (devm), after the NPU device is
 * gone: the line's last handler was freed by the driver's unbind.
 *
 * Return: 0 or a negative errno.
 */
int vpux_sim_irq_init(struct vpux_sim_dev *sd, u32 instance)
{
	sd->irq_work = IRQ_WORK_INIT_HARD(vpux_sim_irq_deliver);
	sd->fwnode = irq_domain_alloc_named_id_fwnode("vpux-sim", instance);
	if (!sd->fwnode)
		return -ENOMEM;
	sd->domain = irq_domain_create_linear(sd->fwnode, 1,
					      &vpux_sim_irq_domain_ops, sd);
	if (!sd->domain) {
		irq_domain_free_fwnode(sd->fwnode);
		return -ENOMEM;
	}
	sd->virq = irq_create_mapping(sd->domain, 0);
	if (!sd->virq) {
		irq_domain_remove(sd->domain);
		irq_domain_free_fwnode(sd->fwnode);
		return -ENOMEM;
	}
	return devm_add_action_or_reset(sd->dev, vpux_sim_irq_fini, sd);
}
