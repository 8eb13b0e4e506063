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

/*
 * A task is validated once, at submit, into memory of its own (the
 * prepared task). Then it lives in one of three places: the port's queue
 * (every core slot holds a running task), a core slot, or retired: its
 * slot cleared so that the core can take the next task, its result still
 * in its prepared memory.
 */
enum dla_user_where {
	DLA_USER_QUEUED,
	DLA_USER_IN_CORE,
	DLA_USER_RETIRED,
};

struct dla_user_task {
	enum dla_user_where where;
	unsigned int slot;		/* DLA_USER_IN_CORE: the core's id */
	unsigned int ctx, prio;
	int refused;			/* -DLA_ERR_* of a refused start */
	int after;			/* starts once this task ended, or -1 */
	struct dla_user_task *next;	/* DLA_USER_QUEUED */
	struct dla_task *task;		/* the prepared task, in @mem */
	void *mem;
	unsigned int mem_size;		/* bytes at @mem (measured) */
	unsigned int n;
	struct dla_user_buf list[DLA_MAX_ADDR_ENTRIES];
};

struct dla_user_dev {
	const struct dla_user_hw_ops *ops;
	void *hw;
	unsigned int flags;
	struct dla_engine *engine;	/* in engine_mem, set at create */
	void *engine_mem;
	pthread_mutex_t lock;
	pthread_cond_t bh_cond;		/* ISR -> bottom half */
	pthread_cond_t done_cond;	/* bottom half -> waiters */
	pthread_t bh;
	int bh_running;
	int irq_latched;
	int stop;
	struct dla_user_task *core[DLA_MAX_TASKS];	/* by core slot */
	struct dla_user_task *queue;	/* by priority, then submission */
	struct dla_user_task **tab;	/* by handle index */
	unsigned int *gen;		/* tasks per handle index */
	unsigned int cap;		/* entries of tab and gen */
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
	dst_ptr->flags = b->flags & DLA_USER_BUF_READONLY ?
			 DLA_ADDR_READONLY : 0;
	dst_ptr->reserved = 0;
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

static int dla_user_start_queued(struct dla_user_dev *d);

/* Called with d->lock held. */
static void dla_user_bottom_half(struct dla_user_dev *d)
{
	dla_u32 done = 0;

	dla_process_events(d->engine, &done);
	if (dla_user_start_queued(d) || done)
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
		if (d->flags & (DLA_USER_INLINE_BH | DLA_USER_DIRECT_IRQ)) {
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
	if (posix_memalign(&d->engine_mem, 8, dla_engine_size()))
		goto err;
	if (dla_register_driver(&d->engine, d->engine_mem, dla_engine_size(),
				d))
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
	free(d->engine_mem);
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
	for (i = 0; i < d->cap; i++) {
		if (d->tab[i])
			free(d->tab[i]->mem);
		free(d->tab[i]);
	}
	free(d->tab);
	free(d->gen);
	pthread_mutex_unlock(&d->lock);
	pthread_cond_destroy(&d->done_cond);
	pthread_cond_destroy(&d->bh_cond);
	pthread_mutex_destroy(&d->lock);
	free(d->engine_mem);
	free(d);
}

void dla_user_set_detach(struct dla_user_dev *d, void (*fn)(void *arg),
			 void *arg)
{
	d->detach = fn;
	d->detach_arg = arg;
}

struct dla_engine *dla_user_engine(struct dla_user_dev *d)
{
	return d->engine;
}

void *dla_user_task_handle(const struct dla_user_buf *list, unsigned int n)
{
	struct dla_user_task *t;

	if (n > DLA_MAX_ADDR_ENTRIES)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->n = n;
	t->after = -1;
	memcpy(t->list, list, n * sizeof(*list));
	return t;
}

/* ---- tasks ---- */

/*
 * Handles are index | generation << 16 into d->tab, so a handle kept
 * after its release never names a later task. The core has
 * DLA_MAX_TASKS slots; the port queues what does not fit and starts it
 * when a slot frees, so a caller may have any number of tasks submitted
 * (up to DLA_USER_MAX_HANDLES).
 */
#define DLA_USER_GEN_SHIFT	16
#define DLA_USER_GEN_MASK	0x7fffu
#define DLA_USER_MAX_HANDLES	(1u << DLA_USER_GEN_SHIFT)

/* The task of a live handle, or NULL. Called with d->lock held. */
static struct dla_user_task *dla_user_lookup(struct dla_user_dev *d,
					     int handle)
{
	unsigned int i = (unsigned int)handle & (DLA_USER_MAX_HANDLES - 1);

	if (handle < 0 || i >= d->cap || !d->tab[i] ||
	    d->gen[i] != (unsigned int)handle >> DLA_USER_GEN_SHIFT)
		return NULL;
	return d->tab[i];
}

/* Enter @t into the handle table; its handle or -DLA_ERR_BUSY. Locked. */
static int dla_user_new_handle(struct dla_user_dev *d, struct dla_user_task *t)
{
	unsigned int i, cap;

	for (i = 0; i < d->cap && d->tab[i]; i++)
		;
	if (i == d->cap) {
		struct dla_user_task **tab;
		unsigned int *gen;

		cap = d->cap ? 2 * d->cap : 2 * DLA_MAX_TASKS;
		if (cap > DLA_USER_MAX_HANDLES)
			return -DLA_ERR_BUSY;
		tab = realloc(d->tab, cap * sizeof(*tab));
		if (!tab)
			return -DLA_ERR_BUSY;
		d->tab = tab;
		gen = realloc(d->gen, cap * sizeof(*gen));
		if (!gen)
			return -DLA_ERR_BUSY;
		d->gen = gen;
		memset(tab + d->cap, 0, (cap - d->cap) * sizeof(*tab));
		memset(gen + d->cap, 0, (cap - d->cap) * sizeof(*gen));
		d->cap = cap;
	}
	d->tab[i] = t;
	d->gen[i] = (d->gen[i] + 1) & DLA_USER_GEN_MASK;
	if (!d->gen[i])
		d->gen[i] = 1;
	return (int)(i | d->gen[i] << DLA_USER_GEN_SHIFT);
}

static void dla_user_free_handle(struct dla_user_dev *d, int handle)
{
	struct dla_user_task *t = d->tab[handle & (DLA_USER_MAX_HANDLES - 1)];

	d->tab[handle & (DLA_USER_MAX_HANDLES - 1)] = NULL;
	free(t->mem);
	free(t);
}

/*
 * Free the core slot of the finished task in it: the result stays in the
 * task's prepared memory. Called with d->lock held.
 */
static void dla_user_retire(struct dla_user_dev *d, unsigned int slot)
{
	struct dla_user_task *t = d->core[slot];

	dla_clear_task(d->engine, slot);
	d->core[slot] = NULL;
	t->where = DLA_USER_RETIRED;
}

/* 1 when @t finished (DONE or FAILED, no op left on an engine). Locked. */
static int dla_user_finished(struct dla_user_task *t)
{
	struct dla_task_status st;

	if (t->where == DLA_USER_RETIRED)
		return 1;
	if (t->where == DLA_USER_QUEUED || dla_task_result(t->task, &st))
		return 0;
	return st.state == DLA_TASK_DONE || st.state == DLA_TASK_FAILED;
}

/* Whether the core can take a task now, retiring a finished one if need be */
static int dla_user_slot_free(struct dla_user_dev *d)
{
	unsigned int i;

	for (i = 0; i < DLA_MAX_TASKS; i++)
		if (!d->core[i])
			return 1;
	for (i = 0; i < DLA_MAX_TASKS; i++) {
		if (dla_user_finished(d->core[i])) {
			dla_user_retire(d, i);
			return 1;
		}
	}
	return 0;
}

/* Hand @t to the core: its slot, or the core's -DLA_ERR_*. Locked. */
static int dla_user_start(struct dla_user_dev *d, struct dla_user_task *t)
{
	int ret = dla_task_start(d->engine, t->task, t->ctx, t->prio);

	if (ret >= 0) {
		t->where = DLA_USER_IN_CORE;
		t->slot = (unsigned int)ret;
		d->core[ret] = t;
	}
	return ret;
}

/*
 * Whether @t must stay queued because the task it was submitted after
 * (dla_user_submit_after()) has not ended. A released predecessor has
 * ended. Locked.
 */
static int dla_user_blocked(struct dla_user_dev *d, struct dla_user_task *t)
{
	struct dla_user_task *p;

	if (t->after < 0)
		return 0;
	p = dla_user_lookup(d, t->after);
	if (!p || dla_user_finished(p)) {
		t->after = -1;
		return 0;
	}
	return 1;
}

/*
 * Start queued tasks while the core has room, in queue order; a task
 * still waiting for its predecessor stays queued without holding up the
 * tasks behind it. A queued task the core refuses (MMU context or
 * priority out of range) is retired as FAILED with that error. Returns
 * how many tasks left the queue. Called with d->lock held.
 */
static int dla_user_start_queued(struct dla_user_dev *d)
{
	struct dla_user_task **pp = &d->queue, *t;
	int moved = 0, ret;

	while (*pp) {
		t = *pp;
		if (dla_user_blocked(d, t)) {
			pp = &t->next;
			continue;
		}
		if (!dla_user_slot_free(d))
			break;
		*pp = t->next;
		t->next = NULL;
		moved++;
		ret = dla_user_start(d, t);
		if (ret >= 0)
			continue;
		t->refused = ret;
		t->where = DLA_USER_RETIRED;
	}
	return moved;
}

/* Queue @t behind every task of its priority or a higher one. Locked. */
static void dla_user_enqueue(struct dla_user_dev *d, struct dla_user_task *t)
{
	struct dla_user_task **pp = &d->queue;

	while (*pp && (*pp)->prio >= t->prio)
		pp = &(*pp)->next;
	t->where = DLA_USER_QUEUED;
	t->next = *pp;
	*pp = t;
}

/*
 * Start @t now if the core has room, nobody waits and its predecessor
 * (if any) has ended, else queue it (and start what may start: the
 * tasks queued may all wait for predecessors). Returns the core's
 * refusal (< 0) or 0. Locked.
 */
static int dla_user_run(struct dla_user_dev *d, struct dla_user_task *t)
{
	int ret = 0;

	t->refused = 0;
	if (!d->queue && !dla_user_blocked(d, t) && dla_user_slot_free(d)) {
		ret = dla_user_start(d, t);
	} else {
		dla_user_enqueue(d, t);
		if (dla_user_start_queued(d))
			pthread_cond_broadcast(&d->done_cond);
	}
	return ret < 0 ? ret : 0;
}

/*
 * Validate @t into prepared memory of its own. No lock: the core reads
 * nothing of the device but its constant facts, and the callbacks it
 * makes (dla_get_dma_address, dla_data_read, dla_error) only read @t.
 */
static int dla_user_prepare(struct dla_user_dev *d, struct dla_user_task *t)
{
	dla_u32 size;
	int ret;

	ret = dla_task_measure(d->engine, t, &size);
	if (ret)
		return ret;
	if (posix_memalign(&t->mem, 8, size))
		return -DLA_ERR_BUSY;
	t->mem_size = size;
	return dla_task_prepare(d->engine, t, t->mem, size, &t->task);
}

/*
 * A task over the @n entries of @list, prepared (validated and built):
 * 0 with *@out set, or the core's negative error (nothing left allocated).
 */
static int dla_user_task_new(struct dla_user_dev *d,
			     const struct dla_user_buf *list, unsigned int n,
			     struct dla_user_task **out)
{
	struct dla_user_task *t;
	int ret;

	if (!d || !list || !n || n > DLA_MAX_ADDR_ENTRIES)
		return -DLA_ERR_INVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -DLA_ERR_BUSY;
	t->n = n;
	t->after = -1;
	memcpy(t->list, list, n * sizeof(*list));
	ret = dla_user_prepare(d, t);
	if (ret) {
		free(t->mem);
		free(t);
		return ret;
	}
	*out = t;
	return 0;
}

int dla_user_check(struct dla_user_dev *d, const struct dla_user_buf *list,
		   unsigned int n)
{
	struct dla_user_task *t;
	int ret = dla_user_task_new(d, list, n, &t);

	if (ret)
		return ret;
	free(t->mem);
	free(t);
	return 0;
}

int dla_user_submit(struct dla_user_dev *d, const struct dla_user_buf *list,
		    unsigned int n, unsigned int ctx, unsigned int prio)
{
	return dla_user_submit_after(d, list, n, ctx, prio, -1);
}

int dla_user_submit_after(struct dla_user_dev *d,
			  const struct dla_user_buf *list, unsigned int n,
			  unsigned int ctx, unsigned int prio, int after)
{
	struct dla_user_task *t;
	int handle, ret;

	/* a bad task is refused here, whether the core has room or not */
	ret = dla_user_task_new(d, list, n, &t);
	if (ret)
		return ret;
	t->ctx = ctx;
	t->prio = prio;
	t->after = after < 0 ? -1 : after;
	pthread_mutex_lock(&d->lock);
	handle = dla_user_new_handle(d, t);
	if (handle < 0) {
		ret = handle;
	} else {
		/*
		 * With room in the core, an MMU context or priority out of
		 * range is refused here too; behind a queue, the task
		 * finishes FAILED with that error when its turn comes.
		 */
		ret = dla_user_run(d, t);
		if (ret < 0)
			d->tab[handle & (DLA_USER_MAX_HANDLES - 1)] = NULL;
	}
	pthread_mutex_unlock(&d->lock);
	if (ret < 0) {
		free(t->mem);
		free(t);
		return ret;
	}
	return handle;
}

int dla_user_wait(struct dla_user_dev *d, int handle, int timeout_ms)
{
	struct dla_user_task *t;
	struct timespec dl;
	int err = 0;

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
	/* looked up again after every sleep: another thread may release it */
	while ((t = dla_user_lookup(d, handle)) && !dla_user_finished(t)) {
		if (timeout_ms < 0) {
			pthread_cond_wait(&d->done_cond, &d->lock);
		} else if (pthread_cond_timedwait(&d->done_cond, &d->lock,
						  &dl) == ETIMEDOUT) {
			t = dla_user_lookup(d, handle);
			if (t && !dla_user_finished(t))
				err = -DLA_ERR_RUNNING;
			break;
		}
	}
	if (!t)
		err = -DLA_ERR_NOENT;
	pthread_mutex_unlock(&d->lock);
	return err;
}

int dla_user_status(struct dla_user_dev *d, int handle,
		    struct dla_task_status *st)
{
	struct dla_user_task *t;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	t = dla_user_lookup(d, handle);
	if (!t) {
		ret = -DLA_ERR_NOENT;
	} else if (t->where == DLA_USER_QUEUED || t->refused) {
		memset(st, 0, sizeof(*st));
		/* queued: nothing ran yet; refused: failed before it ran */
		st->state = t->refused ? DLA_TASK_FAILED : DLA_TASK_RUNNING;
		st->error = t->refused;
	} else {
		ret = dla_task_result(t->task, st);
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int dla_user_task_bytes(struct dla_user_dev *d, int handle)
{
	struct dla_user_task *t;
	int ret;

	pthread_mutex_lock(&d->lock);
	t = dla_user_lookup(d, handle);
	ret = t ? (int)t->mem_size : -DLA_ERR_NOENT;
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int dla_user_op_cycles(struct dla_user_dev *d, int handle, unsigned int kind,
		       unsigned int index, uint32_t *cycles)
{
	struct dla_user_task *t;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	t = dla_user_lookup(d, handle);
	if (!t) {
		ret = -DLA_ERR_NOENT;
	} else {
		ret = dla_op_cycles(t->task, kind, index, cycles);
		/* the op did not run (this time) */
		if (!ret && (t->where == DLA_USER_QUEUED || t->refused))
			*cycles = 0;
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int dla_user_op_times(struct dla_user_dev *d, int handle,
		      struct dla_op_time *times, unsigned int n)
{
	return dla_user_op_times_with(d, handle, NULL, times, n);
}

int dla_user_op_times_with(struct dla_user_dev *d, int handle,
			   const uint32_t *cycles, struct dla_op_time *times,
			   unsigned int n)
{
	struct dla_user_task *t;
	unsigned int i;
	int ret;

	pthread_mutex_lock(&d->lock);
	t = dla_user_lookup(d, handle);
	if (!t) {
		ret = -DLA_ERR_NOENT;
	} else if (t->where == DLA_USER_QUEUED || t->refused) {
		/* nothing ran (this time) */
		for (i = 0; i < n; i++) {
			memset(&times[i], 0, sizeof(times[i]));
			times[i].engine = DLA_OP_NOT_RUN;
		}
		ret = (int)n;
	} else {
		if (t->where == DLA_USER_IN_CORE && !dla_user_finished(t)) {
			/* a hung task: abort it, its stuck op stays stuck */
			dla_user_retire(d, t->slot);
			if (dla_user_start_queued(d))
				pthread_cond_broadcast(&d->done_cond);
		}
		ret = dla_task_op_times(t->task, cycles, n, times);
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int dla_user_release(struct dla_user_dev *d, int handle)
{
	struct dla_user_task *t, **pp;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	t = dla_user_lookup(d, handle);
	if (!t) {
		ret = -DLA_ERR_NOENT;
	} else if (t->where == DLA_USER_QUEUED) {
		for (pp = &d->queue; *pp != t; pp = &(*pp)->next)
			;
		*pp = t->next;
	} else if (t->where == DLA_USER_IN_CORE) {
		ret = dla_clear_task(d->engine, t->slot);
		d->core[t->slot] = NULL;
	}
	if (t) {
		dla_user_free_handle(d, handle);
		/* a slot freed: the queue moves on */
		if (dla_user_start_queued(d))
			pthread_cond_broadcast(&d->done_cond);
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
