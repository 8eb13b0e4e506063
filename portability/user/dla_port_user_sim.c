// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host user-space port on the NPU model: the model's MMIO accessors as the
 * register backend and its interrupt thread as the hard-IRQ context.
 *
 * The model's interrupt thread may have fetched the handler just before it
 * is unset, and call it after dla_user_destroy() freed the device. So the
 * handler's argument is a link in static storage that outlives every
 * device: the handler runs under the link's mutex and finds the device
 * gone once detach has taken that mutex (the role free_irq() plays in the
 * kernel).
 */
#include <pthread.h>

#include "dla_user_priv.h"
#include "vpux_sim_host.h"

#define DLA_USER_SIM_LINKS	16

struct dla_user_sim_link {
	pthread_mutex_t lock;
	struct dla_user_dev *dev;
	struct vpux_host_dev *hw;
	int used;
};

static pthread_mutex_t dla_user_sim_links_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dla_user_sim_link dla_user_sim_links[DLA_USER_SIM_LINKS] = {
	[0 ... DLA_USER_SIM_LINKS - 1] = { .lock = PTHREAD_MUTEX_INITIALIZER },
};

static uint32_t dla_user_sim_read(void *hw, uint32_t off)
{
	return vpux_host_reg_read(hw, off);
}

static void dla_user_sim_write(void *hw, uint32_t off, uint32_t val)
{
	vpux_host_reg_write(hw, off, val);
}

static const struct dla_user_hw_ops dla_user_sim_ops = {
	.reg_read = dla_user_sim_read,
	.reg_write = dla_user_sim_write,
};

static void dla_user_sim_irq(void *arg)
{
	struct dla_user_sim_link *l = arg;

	pthread_mutex_lock(&l->lock);
	if (l->dev)
		dla_user_irq(l->dev);
	pthread_mutex_unlock(&l->lock);
}

static void dla_user_sim_detach(void *arg)
{
	struct dla_user_sim_link *l = arg;

	vpux_host_dev_set_irq_handler(l->hw, NULL, NULL);
	pthread_mutex_lock(&l->lock);	/* waits for a running handler */
	l->dev = NULL;
	pthread_mutex_unlock(&l->lock);
	pthread_mutex_lock(&dla_user_sim_links_lock);
	l->used = 0;
	pthread_mutex_unlock(&dla_user_sim_links_lock);
}

struct dla_user_dev *dla_user_create_sim(struct vpux_host_dev *hw,
					 unsigned int flags)
{
	struct dla_user_sim_link *l = NULL;
	struct dla_user_dev *d;
	unsigned int i;

	pthread_mutex_lock(&dla_user_sim_links_lock);
	for (i = 0; i < DLA_USER_SIM_LINKS; i++) {
		if (!dla_user_sim_links[i].used) {
			l = &dla_user_sim_links[i];
			l->used = 1;
			break;
		}
	}
	pthread_mutex_unlock(&dla_user_sim_links_lock);
	if (!l)
		return NULL;
	d = dla_user_create(&dla_user_sim_ops, hw, flags);
	if (!d) {
		pthread_mutex_lock(&dla_user_sim_links_lock);
		l->used = 0;
		pthread_mutex_unlock(&dla_user_sim_links_lock);
		return NULL;
	}
	pthread_mutex_lock(&l->lock);
	l->dev = d;
	l->hw = hw;
	pthread_mutex_unlock(&l->lock);
	dla_user_set_detach(d, dla_user_sim_detach, l);
	vpux_host_dev_set_irq_handler(hw, dla_user_sim_irq, l);
	return d;
}
