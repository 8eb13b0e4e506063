// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host user-space platform for the NPU model (see vpux_sim_host.h).
 *
 * Threads: the caller (the "CPU" running the driver), one worker per
 * execution unit of the model that runs the unit's work after env->kick
 * (the engines, each in its own clock domain, so a long op on one engine
 * never delays another), and an interrupt thread that runs the registered
 * handler when the model raises its line (with direct delivery, a worker
 * raising it runs the handler itself when no other call runs: one
 * wake-up less per completion). In step mode there are no
 * threads: the caller completes ops with vpux_host_dev_step(), which also
 * delivers the interrupt.
 *
 * Physical memory is an arena whose addresses start at VPUX_HOST_PHYS_BASE.
 * The model reaches it only through phys_read/phys_write, which refuse
 * anything outside allocated pages, the way a bus would abort.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vpux_sim_host.h"

/* one call of the interrupt handler in progress, on the calling stack */
struct host_irq_call {
	struct host_irq_call *next;
	uint64_t gen;			/* handler generation it runs */
	pthread_t thread;
};

/* one execution unit's worker thread */
struct host_unit {
	struct vpux_host_dev *dev;
	uint32_t index;
	pthread_t thread;
	pthread_cond_t kick_cv;		/* with dev->ctl, CLOCK_MONOTONIC */
	bool kick_pending;
	uint64_t kick_at;		/* env->kick_at's time (us), 0: none */
};

/* the management core's console: the last lines it printed */
#define HOST_CONSOLE_SIZE	4096u

struct vpux_host_dev {
	struct vpux_sim *sim;
	pthread_mutex_t sim_lock;	/* the model's register lock */

	/* physical arena */
	pthread_mutex_t arena_lock;
	uint8_t *arena;
	size_t arena_size;
	uint8_t *page_used;		/* one byte per page */
	size_t n_pages;

	/* execution and interrupt delivery */
	bool step_mode;
	pthread_mutex_t ctl;
	pthread_cond_t irq_cv;
	bool irq_pending;
	bool irq_direct;		/* vpux_host_dev_set_irq_direct() */
	bool irq_running;		/* a delivery is calling the handler */
	bool stop;
	bool threads;
	struct host_unit units[VPUX_SIM_MAX_UNITS];
	uint32_t n_units;		/* worker threads running */
	pthread_t irq_thread;
	void (*handler)(void *arg);
	void *handler_arg;
	uint64_t handler_gen;		/* bumped by every handler change */
	struct host_irq_call *calls;	/* handler calls in progress */
	pthread_cond_t calls_cv;	/* a handler call returned */
	char console[HOST_CONSOLE_SIZE];	/* under ctl */
	size_t console_len;
};

/* the device whose execution unit the calling thread runs, if any */
static __thread struct vpux_host_dev *host_unit_dev;

struct vpux_host_vm {
	struct vpux_host_dev *dev;
	unsigned int slot;
	uint64_t root;
	uint64_t *tables;		/* every table page, root included */
	size_t n_tables;
	size_t cap_tables;
};

/* ---- environment services for the model ---- */

static void *env_alloc(void *env, size_t size)
{
	(void)env;
	return calloc(1, size ? size : 1);
}

static void env_free(void *env, void *ptr)
{
	(void)env;
	free(ptr);
}

/* Host pointer for [pa, pa + len) if every page of it is allocated. */
static void *arena_ptr(struct vpux_host_dev *dev, uint64_t pa, size_t len,
		       bool need_alloc)
{
	uint64_t off, first, last, p;
	void *ptr = NULL;

	if (pa < VPUX_HOST_PHYS_BASE)
		return NULL;
	off = pa - VPUX_HOST_PHYS_BASE;
	if (off > dev->arena_size || len > dev->arena_size - off)
		return NULL;
	if (!need_alloc)
		return dev->arena + off;
	if (!len)
		return dev->arena + off;
	first = off >> VPUX_PAGE_SHIFT;
	last = (off + len - 1) >> VPUX_PAGE_SHIFT;
	pthread_mutex_lock(&dev->arena_lock);
	for (p = first; p <= last; p++)
		if (!dev->page_used[p])
			break;
	if (p > last)
		ptr = dev->arena + off;
	pthread_mutex_unlock(&dev->arena_lock);
	return ptr;
}

static int env_phys_read(void *env, u64 pa, void *dst, size_t len)
{
	void *src = arena_ptr(env, pa, len, true);

	if (!src)
		return -EFAULT;
	memcpy(dst, src, len);
	return 0;
}

static int env_phys_write(void *env, u64 pa, const void *src, size_t len)
{
	void *dst = arena_ptr(env, pa, len, true);

	if (!dst)
		return -EFAULT;
	memcpy(dst, src, len);
	return 0;
}

static const void *env_phys_ptr(void *env, u64 pa, size_t len)
{
	return arena_ptr(env, pa, len, true);
}

static void env_lock(void *env)
{
	struct vpux_host_dev *dev = env;

	pthread_mutex_lock(&dev->sim_lock);
}

static void env_unlock(void *env)
{
	struct vpux_host_dev *dev = env;

	pthread_mutex_unlock(&dev->sim_lock);
}

static void run_handler(struct vpux_host_dev *dev);

/*
 * The line rises. Deliveries are one at a time (irq_running): one that
 * is running sees irq_pending when its handler returns. Direct delivery
 * calls the handler on an execution thread, else the interrupt thread
 * is woken.
 */
static void env_irq_raise(void *env)
{
	struct vpux_host_dev *dev = env;

	pthread_mutex_lock(&dev->ctl);
	dev->irq_pending = true;
	if (dev->irq_running) {
		/* the running delivery takes it */
	} else if (dev->irq_direct && host_unit_dev == dev) {
		dev->irq_running = true;
		while (dev->irq_pending && !dev->stop) {
			dev->irq_pending = false;
			run_handler(dev);
		}
		dev->irq_running = false;
		if (dev->irq_pending)
			pthread_cond_signal(&dev->irq_cv);
	} else {
		pthread_cond_signal(&dev->irq_cv);
	}
	pthread_mutex_unlock(&dev->ctl);
}

static void env_kick(void *env, u32 unit)
{
	struct vpux_host_dev *dev = env;
	struct host_unit *u = &dev->units[unit];

	pthread_mutex_lock(&dev->ctl);
	u->kick_pending = true;
	pthread_cond_signal(&u->kick_cv);
	pthread_mutex_unlock(&dev->ctl);
}

static u64 env_now_us(void *env)
{
	struct timespec ts;

	(void)env;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000u + (u64)ts.tv_nsec / 1000u;
}

/*
 * cond_resched(): give the CPU away if this thread has had it for
 * HOST_YIELD_US since it last did. The kernels call env->yield after
 * every output row, thousands of times a second; a sched_yield() at
 * each was a context switch whenever another thread could run. The
 * caller still checks for cancellation at every call.
 */
#define HOST_YIELD_US	1000u

static void env_yield(void *env)
{
	static __thread u64 last;
	u64 now = env_now_us(env);

	if (now - last < HOST_YIELD_US)
		return;
	last = now;
	sched_yield();
}

/* The unit's worker waits for the time (see worker_main()). */
static void env_kick_at(void *env, u32 unit, u64 us)
{
	struct vpux_host_dev *dev = env;
	struct host_unit *u = &dev->units[unit];

	pthread_mutex_lock(&dev->ctl);
	u->kick_at = us ? us : 1;
	pthread_cond_signal(&u->kick_cv);
	pthread_mutex_unlock(&dev->ctl);
}

/* Keep the line for vpux_host_dev_console(), dropping the oldest text. */
static void env_console(void *env, const char *line)
{
	struct vpux_host_dev *dev = env;
	size_t n = strlen(line) + 1, keep;

	if (n > HOST_CONSOLE_SIZE - 1)
		n = HOST_CONSOLE_SIZE - 1;
	pthread_mutex_lock(&dev->ctl);
	if (dev->console_len + n > HOST_CONSOLE_SIZE - 1) {
		keep = HOST_CONSOLE_SIZE - 1 - n;
		memmove(dev->console, dev->console + dev->console_len - keep,
			keep);
		dev->console_len = keep;
	}
	memcpy(dev->console + dev->console_len, line, n - 1);
	dev->console[dev->console_len + n - 1] = '\n';
	dev->console_len += n;
	pthread_mutex_unlock(&dev->ctl);
}

static const struct vpux_sim_env_ops host_env_ops = {
	.alloc = env_alloc,
	.free = env_free,
	.phys_read = env_phys_read,
	.phys_write = env_phys_write,
	.lock = env_lock,
	.unlock = env_unlock,
	.irq_raise = env_irq_raise,
	.kick = env_kick,
	.yield = env_yield,
	.now_us = env_now_us,
	.kick_at = env_kick_at,
	.console = env_console,
	.phys_ptr = env_phys_ptr,
};

/* ---- interrupt delivery ---- */

/*
 * Call the handler for one consumed interrupt, if there is one. Called
 * and returns with ctl held; the handler itself runs without it. The
 * call is listed in dev->calls while it runs, for
 * vpux_host_dev_set_irq_handler() to wait on.
 */
static void run_handler(struct vpux_host_dev *dev)
{
	void (*handler)(void *arg) = dev->handler;
	void *harg = dev->handler_arg;
	struct host_irq_call call, **p;

	if (!handler)
		return;
	call.gen = dev->handler_gen;
	call.thread = pthread_self();
	call.next = dev->calls;
	dev->calls = &call;
	pthread_mutex_unlock(&dev->ctl);
	handler(harg);
	pthread_mutex_lock(&dev->ctl);
	for (p = &dev->calls; *p != &call; p = &(*p)->next)
		;
	*p = call.next;
	pthread_cond_broadcast(&dev->calls_cv);
}

/* Is a handler call older than generation @gen running? ctl held. */
static bool old_call_running(const struct vpux_host_dev *dev, uint64_t gen)
{
	const struct host_irq_call *c;

	for (c = dev->calls; c; c = c->next)
		if (c->gen < gen)
			return true;
	return false;
}

/* Is the calling thread inside a handler call of @dev? ctl held. */
static bool in_handler(const struct vpux_host_dev *dev)
{
	const struct host_irq_call *c;

	for (c = dev->calls; c; c = c->next)
		if (pthread_equal(c->thread, pthread_self()))
			return true;
	return false;
}

/* ---- threads ---- */

static void *worker_main(void *arg)
{
	struct host_unit *u = arg;
	struct vpux_host_dev *dev = u->dev;

	host_unit_dev = dev;
	pthread_mutex_lock(&dev->ctl);
	for (;;) {
		while (!u->kick_pending && !dev->stop) {
			struct timespec ts;

			if (!u->kick_at) {
				pthread_cond_wait(&u->kick_cv, &dev->ctl);
				continue;
			}
			if (env_now_us(dev) >= u->kick_at) {
				u->kick_at = 0;
				u->kick_pending = true;
				break;
			}
			ts.tv_sec = (time_t)(u->kick_at / 1000000u);
			ts.tv_nsec = (long)(u->kick_at % 1000000u) * 1000;
			pthread_cond_timedwait(&u->kick_cv, &dev->ctl, &ts);
		}
		if (dev->stop)
			break;
		u->kick_pending = false;
		pthread_mutex_unlock(&dev->ctl);
		vpux_sim_run_unit(dev->sim, u->index);
		pthread_mutex_lock(&dev->ctl);
	}
	pthread_mutex_unlock(&dev->ctl);
	return NULL;
}

static void *irq_main(void *arg)
{
	struct vpux_host_dev *dev = arg;

	pthread_mutex_lock(&dev->ctl);
	for (;;) {
		while ((!dev->irq_pending || dev->irq_running) && !dev->stop)
			pthread_cond_wait(&dev->irq_cv, &dev->ctl);
		if (dev->stop)
			break;
		dev->irq_pending = false;
		dev->irq_running = true;
		run_handler(dev);
		dev->irq_running = false;
	}
	pthread_mutex_unlock(&dev->ctl);
	return NULL;
}

/* ---- device ---- */

/* Stop and join the worker and interrupt threads that were started. */
static void stop_threads(struct vpux_host_dev *dev, bool irq_thread)
{
	uint32_t i;

	pthread_mutex_lock(&dev->ctl);
	dev->stop = true;
	for (i = 0; i < dev->n_units; i++)
		pthread_cond_broadcast(&dev->units[i].kick_cv);
	pthread_cond_broadcast(&dev->irq_cv);
	pthread_mutex_unlock(&dev->ctl);
	for (i = 0; i < dev->n_units; i++)
		pthread_join(dev->units[i].thread, NULL);
	if (irq_thread)
		pthread_join(dev->irq_thread, NULL);
	dev->n_units = 0;
}

static bool start_threads(struct vpux_host_dev *dev)
{
	uint32_t i, n = vpux_sim_units(dev->sim);

	for (i = 0; i < n; i++) {
		struct host_unit *u = &dev->units[i];

		u->dev = dev;
		u->index = i;
		if (pthread_create(&u->thread, NULL, worker_main, u)) {
			stop_threads(dev, false);
			return false;
		}
		dev->n_units++;
	}
	if (pthread_create(&dev->irq_thread, NULL, irq_main, dev)) {
		stop_threads(dev, false);
		return false;
	}
	return true;
}

struct vpux_host_dev *vpux_host_dev_create_cfg(const struct vpux_sim_config *cfg,
					       size_t phys_bytes, bool step_mode)
{
	struct vpux_sim_config def;
	struct vpux_host_dev *dev;
	pthread_condattr_t mono;
	uint32_t i;

	if (!cfg) {
		vpux_sim_default_config(&def);
		cfg = &def;
	}
	phys_bytes = (phys_bytes + VPUX_PAGE_SIZE - 1) & ~(size_t)(VPUX_PAGE_SIZE - 1);
	if (!phys_bytes || phys_bytes > (1ull << 36))
		return NULL;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	dev->arena_size = phys_bytes;
	dev->n_pages = phys_bytes >> VPUX_PAGE_SHIFT;
	dev->arena = calloc(1, phys_bytes);
	dev->page_used = calloc(1, dev->n_pages);
	if (!dev->arena || !dev->page_used)
		goto err_mem;
	pthread_mutex_init(&dev->sim_lock, NULL);
	pthread_mutex_init(&dev->arena_lock, NULL);
	pthread_mutex_init(&dev->ctl, NULL);
	pthread_condattr_init(&mono);
	pthread_condattr_setclock(&mono, CLOCK_MONOTONIC);
	for (i = 0; i < VPUX_SIM_MAX_UNITS; i++)
		pthread_cond_init(&dev->units[i].kick_cv, &mono);
	pthread_condattr_destroy(&mono);
	pthread_cond_init(&dev->irq_cv, NULL);
	pthread_cond_init(&dev->calls_cv, NULL);
	dev->step_mode = step_mode;

	dev->sim = vpux_sim_create(cfg, &host_env_ops, dev);
	if (!dev->sim)
		goto err_sync;
	vpux_sim_set_step_mode(dev->sim, step_mode);
	if (!step_mode) {
		if (!start_threads(dev))
			goto err_sim;
		dev->threads = true;
	}
	return dev;

err_sim:
	vpux_sim_destroy(dev->sim);
err_sync:
	pthread_cond_destroy(&dev->calls_cv);
	pthread_cond_destroy(&dev->irq_cv);
	for (i = 0; i < VPUX_SIM_MAX_UNITS; i++)
		pthread_cond_destroy(&dev->units[i].kick_cv);
	pthread_mutex_destroy(&dev->ctl);
	pthread_mutex_destroy(&dev->arena_lock);
	pthread_mutex_destroy(&dev->sim_lock);
err_mem:
	free(dev->page_used);
	free(dev->arena);
	free(dev);
	return NULL;
}

/* vpux_hw_host.h: the default device, threads running */
struct vpux_host_dev *vpux_host_dev_create(size_t phys_bytes)
{
	return vpux_host_dev_create_cfg(NULL, phys_bytes, false);
}

void vpux_host_dev_destroy(struct vpux_host_dev *dev)
{
	uint32_t i;

	if (!dev)
		return;
	/* silence the device, as a driver's remove path would */
	vpux_sim_reg_write(dev->sim, VPUX_REG_IRQ_MASK, 0);
	vpux_sim_reg_write(dev->sim, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	if (dev->threads)
		stop_threads(dev, true);
	vpux_sim_destroy(dev->sim);
	pthread_cond_destroy(&dev->calls_cv);
	pthread_cond_destroy(&dev->irq_cv);
	for (i = 0; i < VPUX_SIM_MAX_UNITS; i++)
		pthread_cond_destroy(&dev->units[i].kick_cv);
	pthread_mutex_destroy(&dev->ctl);
	pthread_mutex_destroy(&dev->arena_lock);
	pthread_mutex_destroy(&dev->sim_lock);
	free(dev->page_used);
	free(dev->arena);
	free(dev);
}

struct vpux_sim *vpux_host_dev_sim(struct vpux_host_dev *dev)
{
	return dev->sim;
}

uint32_t vpux_host_reg_read(struct vpux_host_dev *dev, uint32_t off)
{
	return vpux_sim_reg_read(dev->sim, off);
}

void vpux_host_reg_write(struct vpux_host_dev *dev, uint32_t off, uint32_t val)
{
	vpux_sim_reg_write(dev->sim, off, val);
}

/*
 * Like free_irq() and synchronize_irq(): once the new handler is in place,
 * wait for the calls of earlier handlers still running on other threads
 * (calls that start later see the new handler, so this cannot starve).
 * A handler changing the handler does not wait: it would wait for itself.
 */
void vpux_host_dev_set_irq_handler(struct vpux_host_dev *dev,
				   void (*handler)(void *arg), void *arg)
{
	uint64_t gen;

	pthread_mutex_lock(&dev->ctl);
	dev->handler = handler;
	dev->handler_arg = arg;
	gen = ++dev->handler_gen;
	if (!in_handler(dev))
		while (old_call_running(dev, gen))
			pthread_cond_wait(&dev->calls_cv, &dev->ctl);
	pthread_mutex_unlock(&dev->ctl);
}

void vpux_host_dev_set_irq_direct(struct vpux_host_dev *dev, bool on)
{
	pthread_mutex_lock(&dev->ctl);
	dev->irq_direct = on;
	pthread_mutex_unlock(&dev->ctl);
}

size_t vpux_host_dev_console(struct vpux_host_dev *dev, char *buf,
			     size_t size)
{
	size_t n;

	if (!size)
		return 0;
	pthread_mutex_lock(&dev->ctl);
	n = dev->console_len < size - 1 ? dev->console_len : size - 1;
	memcpy(buf, dev->console + dev->console_len - n, n);
	buf[n] = '\0';
	pthread_mutex_unlock(&dev->ctl);
	return n;
}

/* Step mode: run the handler in the caller until the line stops signalling. */
static void deliver_irq_sync(struct vpux_host_dev *dev)
{
	pthread_mutex_lock(&dev->ctl);
	while (dev->irq_pending) {
		dev->irq_pending = false;
		run_handler(dev);
	}
	pthread_mutex_unlock(&dev->ctl);
}

int vpux_host_dev_step(struct vpux_host_dev *dev)
{
	int n = vpux_sim_step(dev->sim);

	if (!dev->threads)
		deliver_irq_sync(dev);
	return n;
}

/* ---- physical arena ---- */

int vpux_host_phys_alloc(struct vpux_host_dev *dev, size_t bytes, uint64_t *pa)
{
	size_t n = (bytes + VPUX_PAGE_SIZE - 1) >> VPUX_PAGE_SHIFT;
	size_t i, run = 0;

	if (!n || n > dev->n_pages)
		return -EINVAL;
	pthread_mutex_lock(&dev->arena_lock);
	for (i = 0; i < dev->n_pages; i++) {
		run = dev->page_used[i] ? 0 : run + 1;
		if (run == n)
			break;
	}
	if (run != n) {
		pthread_mutex_unlock(&dev->arena_lock);
		return -ENOMEM;
	}
	i = i + 1 - n;
	memset(dev->page_used + i, 1, n);
	memset(dev->arena + (i << VPUX_PAGE_SHIFT), 0, n << VPUX_PAGE_SHIFT);
	pthread_mutex_unlock(&dev->arena_lock);
	*pa = VPUX_HOST_PHYS_BASE + ((uint64_t)i << VPUX_PAGE_SHIFT);
	return 0;
}

void vpux_host_phys_free(struct vpux_host_dev *dev, uint64_t pa, size_t bytes)
{
	size_t n = (bytes + VPUX_PAGE_SIZE - 1) >> VPUX_PAGE_SHIFT;
	uint64_t first;

	if (pa < VPUX_HOST_PHYS_BASE || !n)
		return;
	first = (pa - VPUX_HOST_PHYS_BASE) >> VPUX_PAGE_SHIFT;
	if (first >= dev->n_pages || n > dev->n_pages - first)
		return;
	pthread_mutex_lock(&dev->arena_lock);
	memset(dev->page_used + first, 0, n);
	pthread_mutex_unlock(&dev->arena_lock);
}

void *vpux_host_phys_ptr(struct vpux_host_dev *dev, uint64_t pa, size_t len)
{
	return arena_ptr(dev, pa, len, false);
}

/* ---- driver side: page tables ---- */

static uint64_t pte_get(struct vpux_host_dev *dev, uint64_t pa)
{
	const uint8_t *b = vpux_host_phys_ptr(dev, pa, 8);
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static void pte_set(struct vpux_host_dev *dev, uint64_t pa, uint64_t v)
{
	uint8_t *b = vpux_host_phys_ptr(dev, pa, 8);
	uint64_t le = 0;
	int i;

	/* one 64-bit store, so a concurrent walk never sees a torn entry */
	for (i = 0; i < 8; i++)
		((uint8_t *)&le)[i] = (uint8_t)(v >> (8 * i));
	__atomic_store_n((uint64_t *)(void *)b, le, __ATOMIC_RELEASE);
}

static int vm_new_table(struct vpux_host_vm *vm, uint64_t *pa)
{
	int ret;

	if (vm->n_tables == vm->cap_tables) {
		size_t cap = vm->cap_tables ? vm->cap_tables * 2 : 16;
		uint64_t *t = realloc(vm->tables, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		vm->tables = t;
		vm->cap_tables = cap;
	}
	ret = vpux_host_phys_alloc(vm->dev, VPUX_PAGE_SIZE, pa);
	if (ret)
		return ret;
	vm->tables[vm->n_tables++] = *pa;
	return 0;
}

static void vm_invalidate(struct vpux_host_vm *vm)
{
	vpux_host_reg_write(vm->dev, VPUX_REG_MMU_INVALIDATE, 1u << vm->slot);
}

struct vpux_host_vm *vpux_host_vm_create(struct vpux_host_dev *dev,
					 unsigned int slot)
{
	struct vpux_host_vm *vm;

	if (slot >= vpux_host_reg_read(dev, VPUX_REG_CTX_SLOTS))
		return NULL;
	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return NULL;
	vm->dev = dev;
	vm->slot = slot;
	if (vm_new_table(vm, &vm->root)) {
		free(vm->tables);
		free(vm);
		return NULL;
	}
	vpux_host_reg_write(dev, VPUX_REG_MMU_PT_LO(slot), (uint32_t)vm->root);
	vpux_host_reg_write(dev, VPUX_REG_MMU_PT_HI(slot),
			    (uint32_t)(vm->root >> 32));
	vpux_host_reg_write(dev, VPUX_REG_MMU_CTRL(slot), VPUX_MMU_CTRL_ENABLE);
	vm_invalidate(vm);
	return vm;
}

void vpux_host_vm_destroy(struct vpux_host_vm *vm)
{
	size_t i;

	if (!vm)
		return;
	vpux_host_reg_write(vm->dev, VPUX_REG_MMU_CTRL(vm->slot), 0);
	vm_invalidate(vm);
	for (i = 0; i < vm->n_tables; i++)
		vpux_host_phys_free(vm->dev, vm->tables[i], VPUX_PAGE_SIZE);
	free(vm->tables);
	free(vm);
}

static bool vm_range_ok(uint64_t va, size_t len)
{
	return !(va & (VPUX_PAGE_SIZE - 1)) && !(len & (VPUX_PAGE_SIZE - 1)) &&
	       len && va >= VPUX_DEFAULT_VA_BASE &&
	       va - VPUX_DEFAULT_VA_BASE < VPUX_DEFAULT_VA_SIZE &&
	       len <= VPUX_DEFAULT_VA_SIZE - (va - VPUX_DEFAULT_VA_BASE);
}

/* Address of the leaf PTE for @va, allocating tables if @alloc; 0 if none. */
static int vm_leaf(struct vpux_host_vm *vm, uint64_t va, bool alloc,
		   uint64_t *slot_pa)
{
	uint64_t table = vm->root;
	unsigned int level;
	int ret;

	for (level = 0; level < VPUX_PT_LEVELS - 1; level++) {
		unsigned int shift = VPUX_PAGE_SHIFT + 9 * (VPUX_PT_LEVELS - 1 - level);
		uint64_t e_pa = table + ((va >> shift) & (VPUX_PT_ENTRIES - 1)) * 8;
		uint64_t pte = pte_get(vm->dev, e_pa);

		if (!(pte & VPUX_PTE_VALID)) {
			uint64_t next;

			if (!alloc) {
				*slot_pa = 0;
				return 0;
			}
			ret = vm_new_table(vm, &next);
			if (ret)
				return ret;
			pte_set(vm->dev, e_pa, next | VPUX_PTE_VALID);
			pte = next | VPUX_PTE_VALID;
		}
		table = pte & VPUX_PTE_ADDR_MASK;
	}
	*slot_pa = table + ((va >> VPUX_PAGE_SHIFT) & (VPUX_PT_ENTRIES - 1)) * 8;
	return 0;
}

int vpux_host_vm_map(struct vpux_host_vm *vm, uint64_t va, uint64_t pa,
		     size_t len, bool writable)
{
	size_t off;
	int ret;

	if (!vm_range_ok(va, len) || pa & (VPUX_PAGE_SIZE - 1) ||
	    pa & ~VPUX_PTE_ADDR_MASK)
		return -EINVAL;
	for (off = 0; off < len; off += VPUX_PAGE_SIZE) {
		uint64_t e_pa;

		ret = vm_leaf(vm, va + off, true, &e_pa);
		if (ret)
			return ret;
		pte_set(vm->dev, e_pa, (pa + off) | VPUX_PTE_VALID |
			(writable ? VPUX_PTE_WRITE : 0));
	}
	vm_invalidate(vm);
	return 0;
}

int vpux_host_vm_unmap(struct vpux_host_vm *vm, uint64_t va, size_t len)
{
	size_t off;

	if (!vm_range_ok(va, len))
		return -EINVAL;
	for (off = 0; off < len; off += VPUX_PAGE_SIZE) {
		uint64_t e_pa;

		if (!vm_leaf(vm, va + off, false, &e_pa) && e_pa)
			pte_set(vm->dev, e_pa, 0);
	}
	vm_invalidate(vm);
	return 0;
}
