// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host user-space port on a host device (vpux_hw_host.h, e.g. the NPU
 * model): its MMIO accessors as the register backend and its interrupt
 * thread as the hard-IRQ context.
 *
 * The handler's argument is the device itself. Detach (first thing in
 * dla_user_destroy()) removes the handler, which waits for a call already
 * running on the interrupt thread, as free_irq() does in the kernel (see
 * vpux_host_dev_set_irq_handler()): no call reaches the device once it is
 * freed.
 */
#include "dla_user_priv.h"
#include "vpux_hw_host.h"

static uint32_t dla_user_host_read(void *hw, uint32_t off)
{
	return vpux_host_reg_read(hw, off);
}

static void dla_user_host_write(void *hw, uint32_t off, uint32_t val)
{
	vpux_host_reg_write(hw, off, val);
}

static const struct dla_user_hw_ops dla_user_host_ops = {
	.reg_read = dla_user_host_read,
	.reg_write = dla_user_host_write,
};

static void dla_user_host_irq(void *arg)
{
	dla_user_irq(arg);
}

static void dla_user_host_detach(void *arg)
{
	vpux_host_dev_set_irq_handler(arg, NULL, NULL);
}

struct dla_user_dev *dla_user_create_host(struct vpux_host_dev *hw,
					  unsigned int flags)
{
	struct dla_user_dev *d = dla_user_create(&dla_user_host_ops, hw, flags);

	if (!d)
		return NULL;
	dla_user_set_detach(d, dla_user_host_detach, hw);
	vpux_host_dev_set_irq_handler(hw, dla_user_host_irq, d);
	if (flags & DLA_USER_DIRECT_IRQ)
		vpux_host_dev_set_irq_direct(hw, true);
	return d;
}
