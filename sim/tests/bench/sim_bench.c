// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Figures of the NPU model on the host platform (no sanitizers): DMA
 * bandwidth, per-op cost in step mode, and START -> interrupt handler ->
 * waiter latency through the worker and interrupt threads.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vpux_sim_host.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct dev {
	struct vpux_host_dev *dev;
	struct vpux_host_vm *vm;
	uint64_t src, dst;	/* VAs */
	uint8_t *sp, *dp;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static unsigned int completions;
static struct dev *g;

static void handler(void *arg)
{
	uint32_t st = vpux_host_reg_read(g->dev, VPUX_REG_IRQ_STATUS);

	(void)arg;
	vpux_host_reg_write(g->dev, VPUX_REG_IRQ_CLEAR, st);
	pthread_mutex_lock(&m);
	completions++;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
}

static int open_dev(struct dev *d, bool step, size_t buf)
{
	uint64_t pa;

	d->dev = vpux_host_dev_create_cfg(NULL, 2 * buf + (4u << 20), step);
	if (!d->dev)
		return -1;
	d->vm = vpux_host_vm_create(d->dev, 0);
	if (!d->vm || vpux_host_phys_alloc(d->dev, buf, &pa))
		return -1;
	d->src = VPUX_DEFAULT_VA_BASE;
	d->sp = vpux_host_phys_ptr(d->dev, pa, buf);
	if (vpux_host_vm_map(d->vm, d->src, pa, buf, false))
		return -1;
	if (vpux_host_phys_alloc(d->dev, buf, &pa))
		return -1;
	d->dst = VPUX_DEFAULT_VA_BASE + (1ull << 32);
	d->dp = vpux_host_phys_ptr(d->dev, pa, buf);
	if (vpux_host_vm_map(d->vm, d->dst, pa, buf, true))
		return -1;
	memset(d->sp, 0x11, buf);
	vpux_host_reg_write(d->dev, VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL);
	return 0;
}

static void close_dev(struct dev *d)
{
	vpux_host_vm_destroy(d->vm);
	vpux_host_dev_destroy(d->dev);
}

static void start(struct dev *d, uint64_t src, uint64_t dst, uint32_t len)
{
	struct vpux_hw_dma_desc desc;
	uint32_t w[sizeof(desc) / 4], i;

	memset(&desc, 0, sizeof(desc));
	desc.len = len;
	desc.src = src;
	desc.dst = dst;
	desc.count[0] = desc.count[1] = desc.count[2] = 1;
	memcpy(w, &desc, sizeof(desc));
	for (i = 0; i < sizeof(desc) / 4; i++)
		vpux_host_reg_write(d->dev, VPUX_REG_ENGINE(0) + VPUX_ENG_PARAM(i), w[i]);
	vpux_host_reg_write(d->dev, VPUX_REG_ENGINE(0) + VPUX_ENG_CMD,
			    VPUX_ENG_CMD_START);
}

int main(void)
{
	size_t big = 64u << 20;
	struct dev d;
	double t0, t;
	int i, n;

	/* DMA bandwidth, system memory -> system memory */
	if (open_dev(&d, true, big))
		return 1;
	start(&d, d.src, d.dst, (uint32_t)big);	/* warm up */
	vpux_host_dev_step(d.dev);
	t0 = now_s();
	for (i = 0; i < 8; i++) {
		start(&d, d.src, d.dst, (uint32_t)big);
		vpux_host_dev_step(d.dev);
	}
	t = now_s() - t0;
	printf("dma_ddr_to_ddr_GBps %.2f\n", 8.0 * big / t / 1e9);
	t0 = now_s();
	for (i = 0; i < 64; i++) {
		start(&d, d.src, VPUX_DEFAULT_CMX_BASE, 1u << 20);
		vpux_host_dev_step(d.dev);
	}
	t = now_s() - t0;
	printf("dma_ddr_to_cmx_GBps %.2f\n", 64.0 * (1u << 20) / t / 1e9);

	/* per-op cost: 64-byte copies in step mode */
	n = 200000;
	t0 = now_s();
	for (i = 0; i < n; i++) {
		start(&d, d.src, d.dst, 64);
		vpux_host_dev_step(d.dev);
	}
	t = now_s() - t0;
	printf("step_op_ns %.0f\n", t / n * 1e9);
	close_dev(&d);

	/* START -> worker -> interrupt thread -> waiter */
	if (open_dev(&d, false, 1u << 20))
		return 1;
	g = &d;
	vpux_host_dev_set_irq_handler(d.dev, handler, NULL);
	n = 20000;
	t0 = now_s();
	for (i = 0; i < n; i++) {
		unsigned int want;

		pthread_mutex_lock(&m);
		want = completions + 1;
		pthread_mutex_unlock(&m);
		start(&d, d.src, d.dst, 64);
		pthread_mutex_lock(&m);
		while (completions < want)
			pthread_cond_wait(&cv, &m);
		pthread_mutex_unlock(&m);
	}
	t = now_s() - t0;
	printf("async_op_roundtrip_us %.2f\n", t / n * 1e6);
	vpux_host_dev_set_irq_handler(d.dev, NULL, NULL);
	close_dev(&d);
	return 0;
}
