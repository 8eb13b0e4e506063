/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers shared by the model's host tests: a device with one address
 * space, buffers mapped at VA = VA_BASE + (PA - arena base), and op
 * submission the way a driver does it (PARAM words, CTX, START).
 */
#ifndef SIM_TEST_H
#define SIM_TEST_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vpux_sim_host.h"
#include "vpux_tap.h"

#define T_PHYS_BASE	VPUX_HOST_PHYS_BASE
#define T_ARENA		(64u << 20)

/* size of the physical arena t_open() creates; a test may raise it first */
static size_t t_arena = T_ARENA;

struct t_dev {
	struct vpux_host_dev *dev;
	struct vpux_host_vm *vm;
	uint64_t cmx_base;
	uint32_t cmx_size;
	uint32_t n_tiles;
	uint32_t n_dma, n_dpu, n_shave;
};

struct t_buf {
	uint64_t pa;
	uint64_t va;
	size_t size;
	uint8_t *ptr;
};

static uint64_t t_rng = 0x9e3779b97f4a7c15ull;

__attribute__((unused))
static void t_seed(uint64_t s)
{
	t_rng = s ? s : 1;
}

__attribute__((unused))
static uint32_t t_rand(void)
{
	/* xorshift64*: deterministic across runs and platforms */
	t_rng ^= t_rng >> 12;
	t_rng ^= t_rng << 25;
	t_rng ^= t_rng >> 27;
	return (uint32_t)((t_rng * 0x2545f4914f6cdd1dull) >> 32);
}

__attribute__((unused))
static uint32_t t_range(uint32_t lo, uint32_t hi)
{
	return lo + t_rand() % (hi - lo + 1);
}

__attribute__((unused))
static void t_fill(void *p, size_t n)
{
	uint8_t *b = p;

	while (n--)
		*b++ = (uint8_t)t_rand();
}

__attribute__((unused))
static int t_open(struct t_dev *t, const struct vpux_sim_config *cfg,
		  bool step_mode)
{
	uint32_t eng;

	memset(t, 0, sizeof(*t));
	t->dev = vpux_host_dev_create_cfg(cfg, t_arena, step_mode);
	if (!t->dev)
		return -1;
	t->vm = vpux_host_vm_create(t->dev, 0);
	if (!t->vm)
		return -1;
	t->cmx_base = vpux_host_reg_read(t->dev, VPUX_REG_CMX_BASE_LO) |
		      (uint64_t)vpux_host_reg_read(t->dev, VPUX_REG_CMX_BASE_HI) << 32;
	t->cmx_size = vpux_host_reg_read(t->dev, VPUX_REG_CMX_SIZE);
	t->n_tiles = vpux_host_reg_read(t->dev, VPUX_REG_TILES);
	eng = vpux_host_reg_read(t->dev, VPUX_REG_ENGINES);
	t->n_dma = eng & 0xff;
	t->n_dpu = (eng >> 8) & 0xff;
	t->n_shave = (eng >> 16) & 0xff;
	vpux_host_reg_write(t->dev, VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL);
	return 0;
}

__attribute__((unused))
static void t_close(struct t_dev *t)
{
	vpux_host_vm_destroy(t->vm);
	vpux_host_dev_destroy(t->dev);
}

static inline uint64_t t_va_of(uint64_t pa)
{
	return VPUX_DEFAULT_VA_BASE + (pa - T_PHYS_BASE);
}

/* Allocate and map a buffer (VA mirrors PA); aborts the test on failure. */
__attribute__((unused))
static void t_buf_alloc(struct t_dev *t, struct t_buf *b, size_t size,
			bool writable)
{
	size_t sz = (size + VPUX_PAGE_SIZE - 1) & ~(size_t)(VPUX_PAGE_SIZE - 1);

	if (!sz)
		sz = VPUX_PAGE_SIZE;
	if (vpux_host_phys_alloc(t->dev, sz, &b->pa)) {
		fprintf(stderr, "arena exhausted\n");
		exit(2);
	}
	b->va = t_va_of(b->pa);
	b->size = sz;
	b->ptr = vpux_host_phys_ptr(t->dev, b->pa, sz);
	if (vpux_host_vm_map(t->vm, b->va, b->pa, sz, writable)) {
		fprintf(stderr, "map failed\n");
		exit(2);
	}
}

__attribute__((unused))
static void t_buf_free(struct t_dev *t, struct t_buf *b)
{
	vpux_host_vm_unmap(t->vm, b->va, b->size);
	vpux_host_phys_free(t->dev, b->pa, b->size);
	memset(b, 0, sizeof(*b));
}

__attribute__((unused))
static uint32_t t_reg(struct t_dev *t, uint32_t off)
{
	return vpux_host_reg_read(t->dev, off);
}

__attribute__((unused))
static void t_wreg(struct t_dev *t, uint32_t off, uint32_t val)
{
	vpux_host_reg_write(t->dev, off, val);
}

__attribute__((unused))
static uint32_t t_eng(struct t_dev *t, uint32_t e, uint32_t reg)
{
	return t_reg(t, VPUX_REG_ENGINE(e) + reg);
}

/* Write a descriptor into engine @e's PARAM words and START it. */
__attribute__((unused))
static void t_start(struct t_dev *t, uint32_t e, uint32_t ctx,
		    const void *desc, size_t size)
{
	uint32_t w[VPUX_ENG_PARAM_WORDS];
	size_t i;

	memset(w, 0, sizeof(w));
	memcpy(w, desc, size);
	for (i = 0; i < (size + 3) / 4; i++)
		t_wreg(t, VPUX_REG_ENGINE(e) + VPUX_ENG_PARAM(i), w[i]);
	t_wreg(t, VPUX_REG_ENGINE(e) + VPUX_ENG_CTX, ctx);
	t_wreg(t, VPUX_REG_ENGINE(e) + VPUX_ENG_CMD, VPUX_ENG_CMD_START);
}

/* Step mode: run one op on engine @e to completion; returns STATUS. */
__attribute__((unused))
static uint32_t t_run_step(struct t_dev *t, uint32_t e, const void *desc,
			   size_t size)
{
	t_start(t, e, 0, desc, size);
	while (vpux_host_dev_step(t->dev))
		;
	t_wreg(t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ENGINE(e));
	return t_eng(t, e, VPUX_ENG_STATUS);
}

__attribute__((unused))
static struct vpux_hw_dma_desc t_dma_1d(uint64_t src, uint64_t dst,
					 uint32_t len)
{
	struct vpux_hw_dma_desc d;

	memset(&d, 0, sizeof(d));
	d.len = len;
	d.src = src;
	d.dst = dst;
	d.count[0] = d.count[1] = d.count[2] = 1;
	return d;
}

#define T_DONE		VPUX_ENG_STATE_DONE
#define T_ERR(e)	(VPUX_ENG_STATE_ERROR | (e) << VPUX_ENG_ERROR_SHIFT)

/*
 * Wait until every bit of @want is set in *@bits (under @m, with @cv
 * broadcast by whoever sets bits), for at most @ms; consume them.
 * Returns false on timeout. The tests' interrupt handlers set the bits.
 */
static inline bool t_wait_bits(pthread_mutex_t *m, pthread_cond_t *cv,
			       uint32_t *bits, uint32_t want, int ms)
{
	struct timespec ts;
	bool ok = true;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(m);
	while ((*bits & want) != want) {
		if (pthread_cond_timedwait(cv, m, &ts) == ETIMEDOUT) {
			ok = false;
			break;
		}
	}
	*bits &= ~want;
	pthread_mutex_unlock(m);
	return ok;
}

#endif /* SIM_TEST_H */
