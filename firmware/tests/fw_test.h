/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Shared set-up of the engine-core tests on the fake register backend:
 * one device (fake_hw + host port with the bottom half run inline, so
 * every test is deterministic), task memory built with task_builder.h,
 * data buffers mapped at FAKE_VA_BASE + i * FT_BUF_STRIDE.
 */
#ifndef FW_TEST_H
#define FW_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dla_user.h"
#include "fake_hw.h"
#include "task_builder.h"
#include "vpux_tap.h"

#define FT_BUF_STRIDE	0x1000000ull
#define FT_MAX_BUFS	8

struct ft {
	struct fake_hw hw;
	struct dla_user_dev *dev;
	struct dla_user_buf list[FT_MAX_BUFS];
	unsigned int n;
};

static inline int ft_init(struct ft *f, unsigned int ndma, unsigned int ndpu,
			  unsigned int nshave)
{
	memset(f, 0, sizeof(*f));
	fake_hw_init(&f->hw, ndma, ndpu, nshave);
	f->dev = dla_user_create(&fake_hw_ops, &f->hw, DLA_USER_INLINE_BH);
	f->hw.dev = f->dev;
	return f->dev != NULL;
}

static inline void ft_fini(struct ft *f)
{
	unsigned int i;

	dla_user_destroy(f->dev);
	fake_hw_fini(&f->hw);
	for (i = 1; i < f->n; i++)
		free(f->list[i].cpu);
}

/* Address list: entry 0 = the task, then @nbufs buffers of @size bytes. */
static inline void ft_list(struct ft *f, struct tb *t, unsigned int nbufs,
			   size_t size)
{
	unsigned int i;

	f->hw.n_region = 0;
	for (i = 1; i < f->n; i++)
		free(f->list[i].cpu);
	f->n = nbufs + 1;
	f->list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t->size, t->buf, 0 };
	fake_hw_map(&f->hw, FAKE_VA_BASE, t->buf, t->size);
	for (i = 1; i <= nbufs; i++) {
		f->list[i].va = FAKE_VA_BASE + i * FT_BUF_STRIDE;
		f->list[i].size = size;
		f->list[i].cpu = calloc(1, size);
		fake_hw_map(&f->hw, f->list[i].va, f->list[i].cpu, size);
	}
}

static inline int ft_submit(struct ft *f, unsigned int prio)
{
	return dla_user_submit(f->dev, f->list, f->n, 0, prio);
}

/* Submit @t with the data buffers of the last ft_list(). */
static inline int ft_submit_tb(struct ft *f, struct tb *t, unsigned int prio)
{
	f->list[0] = (struct dla_user_buf){ FAKE_VA_BASE, t->size, t->buf, 0 };
	return dla_user_submit(f->dev, f->list, f->n, 0, prio);
}

/*
 * A valid task of every kind, 3 barriers, in @mem (64 KiB, or allocated
 * if NULL); buffers 1..4 of at least 4 KiB:
 *
 * dma0: buf1 -> cmx0             updates b0
 * dpu0: conv 8x8x8 3x3 on cmx0   waits b0, updates b1 (bias in buf2)
 * shave0: args buf3, window cmx1 waits b1, updates b2
 * dma1: cmx1 -> buf4             waits b2
 */
static inline void ft_pipeline(struct tb *t, void *mem)
{
	struct dla_dpu_op *d;

	tb_init(t, mem, 3, 2, 1, 1);
	tb_copy(&t->dma[0], tb_ref(1, 0, 512), tb_cmx(0, 0, 512), 512);
	tb_update(t, &t->dma[0].deps, 0);
	d = &t->dpu[0];
	d->op = VPUX_DPU_OP_CONV;
	d->flags = VPUX_DPU_F_BIAS;
	d->in_c = 8, d->in_h = 8, d->in_w = 8;
	d->out_c = 8, d->out_h = 8, d->out_w = 8;
	d->kernel_h = d->kernel_w = 3;
	d->stride_h = d->stride_w = 1;
	d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = 1;
	d->dilation_h = d->dilation_w = 1;
	d->groups = 1;
	d->in = tb_cmx(0, 0, 512);
	d->in2 = tb_cmx(0, 512, 576);
	d->bias = tb_ref(2, 0, 32);
	d->out = tb_cmx(1, 0, 512);
	d->requant.mult = 1 << 30;
	tb_wait(t, &d->deps, 0);
	tb_update(t, &d->deps, 1);
	t->shave[0].kernel_id = 1;
	t->shave[0].args = tb_ref(3, 0, 64);
	t->shave[0].windows[0] = tb_cmx(1, 0, 512);
	tb_wait(t, &t->shave[0].deps, 1);
	tb_update(t, &t->shave[0].deps, 2);
	tb_copy(&t->dma[1], tb_cmx(1, 0, 512), tb_ref(4, 0, 512), 512);
	tb_wait(t, &t->dma[1].deps, 2);
}

static inline struct dla_task_status ft_status(struct ft *f, int h)
{
	struct dla_task_status st;

	memset(&st, 0, sizeof(st));
	dla_user_status(f->dev, h, &st);
	return st;
}

static inline unsigned char *ft_buf(struct ft *f, unsigned int i)
{
	return f->list[i].cpu;
}

#endif /* FW_TEST_H */
