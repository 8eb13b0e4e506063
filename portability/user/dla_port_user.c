// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host user-space portability layer: the dla_* callbacks over a register
 * backend, a port lock that serialises every entry into the core, and a
 * bottom-half thread. See dla_user.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dla_port.h"
#include "dla_user.h"
#include "dla_user_priv.h"

struct dla_user_task {
	unsigned int n;
	struct dla_user_buf list[DLA_MAX_ADDR_ENTRIES];
};

struct dla_user_dev {
	const struct dla_user_hw_ops *ops;
	void *hw;
	unsigned int flags;
	void *engine;
	pthread_mutex_t lock;
	pthread_cond_t bh_cond;		/* ISR -> bottom half */
	pthread_cond_t done_cond;	/* bottom half -> waiters */
	pthread_t bh;
	int bh_running;
	int irq_latched;
	int stop;
	struct dla_user_task *tasks[DLA_MAX_TASKS];
	unsigned int gen[DLA_MAX_TASKS];	/* submissions per slot */
	void (*detach)(void *arg);
	void *detach_arg;
};

/* ---- callbacks the core calls (dla_port.h) ---- */

dla_u32 dla_reg_read(void *driver_context, dla_u32 addr)
{
	struct dla_user_dev *d = driver_context;

	return d->ops->reg_read(d->hw, addr);
}

void dla_reg_write(void *driver_context, dla_u32 addr, dla_u32 reg)
{
	struct dla_user_dev *d = driver_context;

	d->ops->reg_write(d->hw, addr, reg);
}

static const struct dla_user_buf *dla_user_entry(void *task_data,
						 dla_u64 index)
{
	struct dla_user_task *t = task_data;

	if (!t || index >= t->n)
		return NULL;
	return &t->list[index];
}

dla_s32 dla_get_dma_address(void *driver_context, void *task_data,
			    dla_s16 index, struct dla_address *dst_ptr,
			    dla_u32 destination)
{
	const struct dla_user_buf *b;

	(void)driver_context;
	if (index < 0)
		return -DLA_ERR_ADDR_INDEX;
	b = dla_user_entry(task_data, (dla_u64)index);
	if (!b)
		return -DLA_ERR_ADDR_INDEX;
	dst_ptr->addr = destination == DESTINATION_DMA ?
			b->va : (dla_u64)(uintptr_t)b->cpu;
	dst_ptr->size = b->size;
	return 0;
}

static int dla_user_range(const struct dla_user_buf *b, dla_u32 size,
			  dla_u64 offset)
{
	return b && b->cpu && offset <= b->size && size <= b->size - offset;
}

dla_s32 dla_data_read(void *driver_context, void *task_data, dla_u64 src,
		      void *dst, dla_u32 size, dla_u64 offset)
{
	const struct dla_user_buf *b = dla_user_entry(task_data, src);

	(void)driver_context;
	if (!dla_user_range(b, size, offset))
		return -DLA_ERR_BUF_RANGE;
	memcpy(dst, (const char *)b->cpu + offset, size);
	return 0;
}

dla_s32 dla_data_write(void *driver_context, void *task_data, const void *src,
		       dla_u64 dst, dla_u32 size, dla_u64 offset)
{
	const struct dla_user_buf *b = dla_user_entry(task_data, dst);

	(void)driver_context;
	if (!dla_user_range(b, size, offset))
		return -DLA_ERR_BUF_RANGE;
	memcpy((char *)b->cpu + offset, src, size);
	return 0;
}

dla_s64 dla_get_time_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (dla_s64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void *dla_memset(void *src, int ch, dla_u64 len)
{
	return memset(src, ch, (size_t)len);
}

void *dla_memcpy(void *dest, const void *src, dla_u64 len)
{
	return memcpy(dest, src, (size_t)len);
}

static __thread char dla_user_err[256];

static int dla_user_log_level(void)
{
	static int level = -1;

	if (level < 0) {
		const char *s = getenv("DLA_LOG");

		level = s ? atoi(s) : 1;	/* 0 quiet, 1 errors, 2 all */
	}
	return level;
}

static void dla_user_log(int level, const char *fmt, va_list ap)
{
	if (dla_user_log_level() < level)
		return;
	fputs("# ", stderr);
	vfprintf(stderr, fmt, ap);
}

void dla_debug(const char *str, ...)
{
	va_list ap;

	va_start(ap, str);
	dla_user_log(3, str, ap);
	va_end(ap);
}

void dla_info(const char *str, ...)
{
	va_list ap;

	va_start(ap, str);
	dla_user_log(2, str, ap);
	va_end(ap);
}

void dla_warn(const char *str, ...)
{
	va_list ap;

	va_start(ap, str);
	dla_user_log(1, str, ap);
	va_end(ap);
}

void dla_error(const char *str, ...)
{
	va_list ap;

	va_start(ap, str);
	vsnprintf(dla_user_err, sizeof(dla_user_err), str, ap);
	va_end(ap);
	va_start(ap, str);
	dla_user_log(1, str, ap);
	va_end(ap);
}

const char *dla_user_last_error(void)
{
	return dla_user_err;
}

/* ---- threads ---- */

/* Called with d->lock held. */
static void dla_user_bottom_half(struct dla_user_dev *d)
{
	dla_u32 done = 0;

	dla_process_events(d->engine, &done);
	if (done)
		pthread_cond_broadcast(&d->done_cond);
}

/*
 * The bottom-half thread doubles as the lost-interrupt watchdog: when no
 * interrupt arrived for DLA_USER_WATCHDOG_MS, engines that finished
 * without raising one are picked up by dla_poll_engines().
 */
#define DLA_USER_WATCHDOG_MS	20

static void *dla_user_bh_thread(void *arg)
{
	struct dla_user_dev *d = arg;

	pthread_mutex_lock(&d->lock);
	for (;;) {
		while (!d->irq_latched && !d->stop) {
			struct timespec dl;

			clock_gettime(CLOCK_REALTIME, &dl);
			dl.tv_nsec += DLA_USER_WATCHDOG_MS * 1000000L;
			if (dl.tv_nsec >= 1000000000L) {
				dl.tv_sec++;
				dl.tv_nsec -= 1000000000L;
			}
			if (pthread_cond_timedwait(&d->bh_cond, &d->lock,
						   &dl) == ETIMEDOUT &&
			    dla_poll_engines(d->engine) > 0)
				dla_user_bottom_half(d);
		}
		if (d->stop)
			break;
		d->irq_latched = 0;
		dla_user_bottom_half(d);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

void dla_user_irq(struct dla_user_dev *d)
{
	pthread_mutex_lock(&d->lock);
	if (dla_isr_handler(d->engine)) {
		if (d->flags & DLA_USER_INLINE_BH) {
			dla_user_bottom_half(d);
		} else {
			d->irq_latched = 1;
			pthread_cond_signal(&d->bh_cond);
		}
	}
	pthread_mutex_unlock(&d->lock);
}

struct dla_user_dev *dla_user_create(const struct dla_user_hw_ops *ops,
				     void *hw, unsigned int flags)
{
	struct dla_user_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->ops = ops;
	d->hw = hw;
	d->flags = flags;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->bh_cond, NULL);
	pthread_cond_init(&d->done_cond, NULL);
	if (dla_register_driver(&d->engine, d))
		goto err;
	if (!(flags & DLA_USER_INLINE_BH)) {
		if (pthread_create(&d->bh, NULL, dla_user_bh_thread, d)) {
			dla_unregister_driver(d->engine);
			goto err;
		}
		d->bh_running = 1;
	}
	return d;
err:
	pthread_cond_destroy(&d->done_cond);
	pthread_cond_destroy(&d->bh_cond);
	pthread_mutex_destroy(&d->lock);
	free(d);
	return NULL;
}

void dla_user_destroy(struct dla_user_dev *d)
{
	unsigned int i;

	if (!d)
		return;
	if (d->detach)
		d->detach(d->detach_arg);
	pthread_mutex_lock(&d->lock);
	d->stop = 1;
	pthread_cond_signal(&d->bh_cond);
	pthread_mutex_unlock(&d->lock);
	if (d->bh_running)
		pthread_join(d->bh, NULL);
	pthread_mutex_lock(&d->lock);
	dla_unregister_driver(d->engine);
	for (i = 0; i < DLA_MAX_TASKS; i++)
		free(d->tasks[i]);
	pthread_mutex_unlock(&d->lock);
	pthread_cond_destroy(&d->done_cond);
	pthread_cond_destroy(&d->bh_cond);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

void dla_user_set_detach(struct dla_user_dev *d, void (*fn)(void *arg),
			 void *arg)
{
	d->detach = fn;
	d->detach_arg = arg;
}

/* ---- tasks ---- */

/*
 * Handles are slot | generation << 8, so a handle kept after its release
 * never names the next task in the same slot.
 */
#define DLA_USER_GEN_SHIFT	8
#define DLA_USER_GEN_MASK	0x7fffffu

/* Slot of a live handle, or -1. Called with d->lock held. */
static int dla_user_slot(struct dla_user_dev *d, int handle)
{
	unsigned int slot = (unsigned int)handle & 0xffu;

	if (handle < 0 || slot >= DLA_MAX_TASKS || !d->tasks[slot] ||
	    d->gen[slot] != (unsigned int)handle >> DLA_USER_GEN_SHIFT)
		return -1;
	return (int)slot;
}

int dla_user_submit(struct dla_user_dev *d, const struct dla_user_buf *list,
		    unsigned int n, unsigned int ctx, unsigned int prio)
{
	struct dla_user_task *t;
	int ret;

	if (!d || !list || !n || n > DLA_MAX_ADDR_ENTRIES)
		return -DLA_ERR_INVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -DLA_ERR_BUSY;
	t->n = n;
	memcpy(t->list, list, n * sizeof(*list));
	pthread_mutex_lock(&d->lock);
	ret = dla_execute_task(d->engine, t, ctx, prio);
	if (ret >= 0) {
		d->tasks[ret] = t;
		d->gen[ret] = (d->gen[ret] + 1) & DLA_USER_GEN_MASK;
		if (!d->gen[ret])
			d->gen[ret] = 1;
		ret |= (int)(d->gen[ret] << DLA_USER_GEN_SHIFT);
	}
	pthread_mutex_unlock(&d->lock);
	if (ret < 0)
		free(t);
	return ret;
}

static int dla_user_finished(struct dla_user_dev *d, int slot, int *err)
{
	struct dla_task_status st;

	*err = dla_task_status(d->engine, (dla_u32)slot, &st);
	if (*err)
		return 1;
	return st.state == DLA_TASK_DONE || st.state == DLA_TASK_FAILED;
}

int dla_user_wait(struct dla_user_dev *d, int handle, int timeout_ms)
{
	struct timespec dl;
	int err = 0, slot;

	clock_gettime(CLOCK_REALTIME, &dl);
	if (timeout_ms >= 0) {
		dl.tv_sec += timeout_ms / 1000;
		dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
		if (dl.tv_nsec >= 1000000000) {
			dl.tv_sec++;
			dl.tv_nsec -= 1000000000;
		}
	}
	pthread_mutex_lock(&d->lock);
	slot = dla_user_slot(d, handle);
	if (slot < 0) {
		pthread_mutex_unlock(&d->lock);
		return -DLA_ERR_NOENT;
	}
	while (!dla_user_finished(d, slot, &err)) {
		if (timeout_ms < 0) {
			pthread_cond_wait(&d->done_cond, &d->lock);
		} else if (pthread_cond_timedwait(&d->done_cond, &d->lock,
						  &dl) == ETIMEDOUT) {
			if (!dla_user_finished(d, slot, &err))
				err = -DLA_ERR_RUNNING;
			break;
		}
	}
	pthread_mutex_unlock(&d->lock);
	return err;
}

int dla_user_status(struct dla_user_dev *d, int handle,
		    struct dla_task_status *st)
{
	int ret = -DLA_ERR_NOENT, slot;

	pthread_mutex_lock(&d->lock);
	slot = dla_user_slot(d, handle);
	if (slot >= 0)
		ret = dla_task_status(d->engine, (dla_u32)slot, st);
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int dla_user_op_cycles(struct dla_user_dev *d, int handle, unsigned int kind,
		       unsigned int index, uint32_t *cycles)
{
	int ret = -DLA_ERR_NOENT, slot;

	pthread_mutex_lock(&d->lock);
	slot = dla_user_slot(d, handle);
	if (slot >= 0)
		ret = dla_op_cycles(d->engine, (dla_u32)slot, kind, index,
				    cycles);
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int dla_user_release(struct dla_user_dev *d, int handle)
{
	int ret = -DLA_ERR_NOENT, slot;

	pthread_mutex_lock(&d->lock);
	slot = dla_user_slot(d, handle);
	if (slot >= 0)
		ret = dla_clear_task(d->engine, (dla_u32)slot);
	if (!ret) {
		free(d->tasks[slot]);
		d->tasks[slot] = NULL;
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int dla_user_poll(struct dla_user_dev *d)
{
	int n;

	pthread_mutex_lock(&d->lock);
	n = dla_poll_engines(d->engine);
	if (n > 0)
		dla_user_bottom_half(d);
	pthread_mutex_unlock(&d->lock);
	return n;
}
