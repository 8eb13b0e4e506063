// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux ioctl fuzzer: random but structured sequences of every vpux ioctl
 * (GET_PARAM, BO_CREATE, BO_INFO, SUBMIT, WAIT, QUEUE_CREATE,
 * QUEUE_DESTROY, BO_WAIT) and of the generic DRM ones the driver serves
 * (GEM_CLOSE, PRIME, syncobjs, mmap), plus reads of the driver's debugfs,
 * sysfs (the autosuspend delay written short too), fdinfo and (with
 * --kcov) trace files, and requests of its "vpux" generic netlink family
 * (well-formed and malformed, with a listener on its "events" group in
 * each thread), from several threads in several processes. Handles come mostly from per-file pools of live
 * objects, sometimes at random; tasks are valid DMA, DPU and SHAVE tasks
 * (a third of the SHAVE ops ELF kernels of random RV32IMF code, which
 * the model's SHAVE interpreter runs in the kernel: under KASAN in make
 * check-debug) built with the engine core's task builder, a fraction of
 * them mutated
 * (bits, counts, offsets, barrier ids, indexes, shapes), as are a
 * fraction of the SUBMIT arguments.
 *
 * Coverage-guided with --kcov: each thread runs programs of a few calls;
 * a program is the ops and every random choice their handlers made, so
 * replaying it with a choice changed mutates that argument, flag or
 * branch. Programs that reached a new PC or edge of vpux_accel (KCOV of
 * the thread's own calls) are kept in a corpus shared by the processes,
 * and most programs are mutated corpus programs (see "coverage guidance"
 * below).
 *
 * Every result must be one of the outcomes Documentation/uapi.rst (or the
 * DRM core, for the generic ioctls) documents for that call; anything
 * else, a crash, a call that blocks past its timeout, or an unmutated
 * DMA job that does not complete cleanly is a failure. A file whose job
 * faulted or hung is banned (SUBMIT -EBADFD) and is reopened. At the end
 * a normal DMA job must still run on every device, its data verified.
 *
 *   vpux_fuzz [--seed S] [--calls N] [--time SECS] [--threads T] [--procs P]
 *             [--kcov FILE] [--no-guide] [--help]
 *
 * --kcov FILE: where the kernel has KCOV, collect the PCs reached inside
 * vpux_accel, guide the fuzzing by them and write them to FILE ("-": as
 * "# kcov-pc" TAP comments), for tools/vm/kcov-report.sh; without KCOV
 * it only says why not. --no-guide keeps the coverage but not the corpus.
 *
 * VPUX_FUZZ_NO=a,b,... in the environment narrows a failure down: it
 * leaves out the named calls (names as in the report) and "mutate" (task
 * mutations), "fault" (writes to read-only BOs), "cmx" (CMX references),
 * "compute" (DPU and SHAVE ops).
 *
 * The seed is printed; without guidance --seed replays a run's per-thread
 * call sequences (the interleaving of threads is up to the kernel); with
 * guidance the programs also depend on which coverage the other threads
 * found first. Output is TAP.
 */
#ifndef _GNU_SOURCE	/* the kselftest lib.mk defines it */
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include <linux/capability.h>
#include <linux/kcov.h>
#include <sys/syscall.h>

#include "vpux_common.h"
#include "vpux_nl.h"
#include "task_builder.h"

#define NBO		12	/* BO pool of one file */
#define NSYNC		6	/* syncobj pool of one file */
#define NSEQ		32	/* recent job numbers of one file */
#define NQUEUE		8	/* queue pool of one file */
#define TASK_BO_SIZE	65536
#define TASK_SLOT	2048	/* task memory slot in the task BO */
#define MAX_BO_SIZE	(256 * 1024)
#define NERR		256
#define MAX_FAIL_LOG	40
#define SLACK_NS	5000000000ll	/* a blocking call may overrun its timeout by this */
/* the driver's limits (GET_PARAM MAX_QUEUES, MAX_ADDR_ENTRIES; the uapi has no #define) */
#define FUZZ_MAX_QUEUES		64
#define FUZZ_MAX_ADDR_ENTRIES	64

enum op {
	OP_GET_PARAM, OP_BO_CREATE, OP_BO_INFO, OP_SUBMIT, OP_WAIT,
	OP_GEM_CLOSE, OP_PRIME_EXPORT, OP_PRIME_IMPORT, OP_MMAP,
	OP_SYNC_CREATE, OP_SYNC_DESTROY, OP_SYNC_EXPORT, OP_SYNC_IMPORT,
	OP_SYNC_WAIT, OP_SYNC_TL_WAIT, OP_SYNC_RESET, OP_SYNC_SIGNAL,
	OP_SYNC_TL_SIGNAL, OP_SYNC_QUERY, OP_QUEUE_CREATE, OP_QUEUE_DESTROY,
	OP_BO_WAIT, OP_DEBUGFS, OP_SYSFS, OP_TRACE, OP_REOPEN, OP_NETLINK, NOPS
};

static const char *const op_name[NOPS] = {
	"GET_PARAM", "BO_CREATE", "BO_INFO", "SUBMIT", "WAIT",
	"GEM_CLOSE", "PRIME_HANDLE_TO_FD", "PRIME_FD_TO_HANDLE", "mmap",
	"SYNCOBJ_CREATE", "SYNCOBJ_DESTROY", "SYNCOBJ_HANDLE_TO_FD",
	"SYNCOBJ_FD_TO_HANDLE", "SYNCOBJ_WAIT", "SYNCOBJ_TIMELINE_WAIT",
	"SYNCOBJ_RESET", "SYNCOBJ_SIGNAL", "SYNCOBJ_TIMELINE_SIGNAL",
	"SYNCOBJ_QUERY", "QUEUE_CREATE", "QUEUE_DESTROY", "BO_WAIT", "debugfs",
	"sysfs", "trace", "reopen", "netlink",
};

/* Weights of the ops in the random mix. */
static unsigned int op_weight[NOPS] = {
	[OP_GET_PARAM] = 4, [OP_BO_CREATE] = 8, [OP_BO_INFO] = 6,
	[OP_SUBMIT] = 28, [OP_WAIT] = 16, [OP_GEM_CLOSE] = 4,
	[OP_PRIME_EXPORT] = 4, [OP_PRIME_IMPORT] = 0 /* with export */,
	[OP_MMAP] = 5, [OP_SYNC_CREATE] = 3, [OP_SYNC_DESTROY] = 2,
	[OP_SYNC_EXPORT] = 2, [OP_SYNC_IMPORT] = 0 /* with export */,
	[OP_SYNC_WAIT] = 3, [OP_SYNC_TL_WAIT] = 3, [OP_SYNC_RESET] = 2,
	[OP_SYNC_SIGNAL] = 2, [OP_SYNC_TL_SIGNAL] = 2, [OP_SYNC_QUERY] = 2,
	[OP_QUEUE_CREATE] = 3, [OP_QUEUE_DESTROY] = 2, [OP_BO_WAIT] = 4,
	[OP_DEBUGFS] = 2, [OP_SYSFS] = 2, [OP_TRACE] = 1, [OP_REOPEN] = 1,
	[OP_NETLINK] = 3,
};

/* The outcomes each call may have (0 = success); anything else fails. */
static const int allowed[NOPS][10] = {
	[OP_GET_PARAM] = { EINVAL, EFAULT },
	[OP_BO_CREATE] = { EINVAL, ENOSPC, ENOMEM, EFAULT },
	[OP_BO_INFO] = { ENOENT, ENOMEM, EFAULT },
	[OP_SUBMIT] = { EINVAL, ENOENT, EFAULT, EBADFD, EBUSY, ENOMEM, EPERM, EACCES },
	[OP_WAIT] = { ETIMEDOUT, ENOENT, EINVAL, EFAULT },
	[OP_GEM_CLOSE] = { EINVAL },
	[OP_PRIME_EXPORT] = { ENOENT, EINVAL, EMFILE, ENOMEM },
	[OP_PRIME_IMPORT] = { EBADF, EINVAL, ENOSPC, ENOMEM, EMFILE },
	[OP_MMAP] = { EINVAL, EACCES, ENOMEM },
	[OP_SYNC_CREATE] = { EINVAL, ENOMEM },
	[OP_SYNC_DESTROY] = { EINVAL },
	[OP_SYNC_EXPORT] = { EINVAL, ENOENT, EMFILE, ENOMEM },
	[OP_SYNC_IMPORT] = { EINVAL, EBADF, ENOENT, EMFILE, ENOMEM },
	[OP_SYNC_WAIT] = { EINVAL, ENOENT, ETIME, EFAULT, ENOMEM },
	[OP_SYNC_TL_WAIT] = { EINVAL, ENOENT, ETIME, EFAULT, ENOMEM },
	[OP_SYNC_RESET] = { EINVAL, ENOENT, EFAULT },
	[OP_SYNC_SIGNAL] = { EINVAL, ENOENT, EFAULT },
	[OP_SYNC_TL_SIGNAL] = { EINVAL, ENOENT, EFAULT, ENOMEM },
	[OP_SYNC_QUERY] = { EINVAL, ENOENT, EFAULT },
	[OP_QUEUE_CREATE] = { EINVAL, EPERM, ENOSPC, ENOMEM, EFAULT },
	[OP_QUEUE_DESTROY] = { EINVAL, ENOENT, EFAULT },
	[OP_BO_WAIT] = { EINVAL, ENOENT, ETIMEDOUT, EFAULT },
	/* files of debugfs, sysfs, procfs and tracefs: read, or a bad write */
	[OP_DEBUGFS] = { EINVAL, ENOENT },
	[OP_SYSFS] = { ENOENT },
	[OP_TRACE] = { ENOENT, EBUSY },
	[OP_REOPEN] = { EMFILE, ENOMEM },
	/* an unknown device or context, another user's, a malformed request */
	[OP_NETLINK] = { EINVAL, ENODEV, ENOENT, EPERM, EOPNOTSUPP, ERANGE, EMSGSIZE },
};

/* Figures of the whole run, in memory shared by every process. */
struct stats {
	uint64_t calls[NOPS];
	uint64_t err[NOPS][NERR];
	uint64_t status[8];		/* WAIT results by DRM_VPUX_STATUS_* */
	uint64_t submitted, mutated, clean_checked, elf_ops;
	uint64_t mmu_faults, timeouts, banned, reopened;
	uint64_t failures, hung;
	uint64_t threads_done;
};

static struct stats *st;

static struct {
	uint64_t seed;
	uint64_t calls;
	unsigned int secs, threads, procs;
	int ndev;
} cfg = { .calls = 20000, .secs = 30, .threads = 4, .procs = 2 };

static __u64 num_tiles = 1, cmx_size = 4096;
static int no_mutate, no_fault, no_cmx, no_compute;	/* VPUX_FUZZ_NO=mutate,fault,cmx,compute */
static __s64 t_end;

static void add(uint64_t *p, uint64_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

struct bo {
	__u32 handle;
	__u32 flags;
	__u64 size;
	void *map;
};

struct file {
	int fd, dev;
	struct bo bo[NBO];
	int nbo;
	__u32 task_h;
	unsigned char *task_map;
	unsigned int task_slot;
	__u32 sync[NSYNC];
	__u64 point[NSYNC];
	int nsync;
	__u64 seq[NSEQ];
	unsigned char seq_counted[NSEQ];
	unsigned int nseq;
	__u32 queue[NQUEUE], queue_prio[NQUEUE];
	int nqueue;
};

/*
 * A program: a few calls, each an op on one of the thread's two files and
 * the random choices its handler made (the "tape"). Running a program
 * replays the choices, so a mutated choice is a mutated argument, flag,
 * handle pick, size, task field or branch of the generator; choices past
 * the end of a call's tape are drawn fresh (and recorded).
 */
#define PROG_CALLS	12
#define PROG_TAPE	480

struct prog {
	uint16_t ncalls, ntape;
	uint8_t op[PROG_CALLS], file[PROG_CALLS];
	uint16_t start[PROG_CALLS + 1];	/* tape of call i: start[i]..start[i + 1] */
	uint64_t tape[PROG_TAPE];
};

struct thr {
	int proc, id;
	uint64_t rng;
	uint64_t call;
	struct file f[2];
	pthread_t tid;
	struct nl *nl;		/* netlink requests (vpux_nl.h), lazily */
	int nl_listen;		/* a socket in the "events" group, or -1 */
	/* the call being run: its input choices and where they are recorded */
	const uint64_t *in;
	unsigned int nin, pos;
	struct prog *rec;
};

static uint64_t rnd(struct thr *t)
{
	uint64_t v = t->pos < t->nin ? t->in[t->pos] : splitmix(&t->rng);

	t->pos++;
	if (t->rec && t->rec->ntape < PROG_TAPE)
		t->rec->tape[t->rec->ntape++] = v;
	return v;
}

static unsigned int below(struct thr *t, unsigned int n)
{
	return n ? (unsigned int)(rnd(t) % n) : 0;
}

static int chance(struct thr *t, unsigned int pct)
{
	return below(t, 100) < pct;
}

static void fail(struct thr *t, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	int n;

	if (__atomic_fetch_add(&st->failures, 1, __ATOMIC_RELAXED) >= MAX_FAIL_LOG)
		return;
	n = snprintf(buf, sizeof(buf), "# FAIL proc %d thread %d call %" PRIu64 ": ",
		     t ? t->proc : -1, t ? t->id : -1, t ? t->call : 0);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(1, buf, n) < 0)
		return;
}

/* Count a call's outcome; 0 if it was one of the allowed ones. */
static int account(struct thr *t, enum op op, int ret)
{
	int e = ret < 0 ? -ret : ret;
	unsigned int i;

	add(&st->calls[op], 1);
	add(&st->err[op][e < NERR ? e : NERR - 1], 1);
	if (!e)
		return 0;
	for (i = 0; i < 10 && allowed[op][i]; i++)
		if (allowed[op][i] == e)
			return 0;
	fail(t, "%s returned %d (%s), not a documented outcome", op_name[op],
	     -e, strerrorname_np(e) ? strerrorname_np(e) : "?");
	return -1;
}

/* One ioctl without retrying -EINTR/-EAGAIN (vpux_ioctl does). */
static int xioctl(int fd, unsigned long req, void *arg)
{
	return vpux_ioctl(fd, req, arg);
}

/* A bad pointer now and then: unmapped low page, or kernel address. */
static void *bad_ptr(struct thr *t)
{
	static const uintptr_t ptrs[] = { 16, 4096, 0xffff800000000000ull, ~0ull };

	return (void *)ptrs[below(t, 4)];
}

/* ---- handles -------------------------------------------------------- */

static __u32 rand_u32(struct thr *t)
{
	static const __u32 interesting[] = { 0, 1, 2, 0x7fffffff, 0x80000000u,
					     0xffffffffu, 0xfffe, 0x10000, 63, 64 };

	if (chance(t, 50))
		return interesting[below(t, 10)];
	return (__u32)rnd(t);
}

static __u32 pick_bo_handle(struct thr *t, struct file *f)
{
	if (f->nbo && chance(t, 88))
		return f->bo[below(t, f->nbo)].handle;
	if (chance(t, 50))
		return below(t, 40);
	return rand_u32(t);
}

static __u32 pick_sync(struct thr *t, struct file *f)
{
	if (f->nsync && chance(t, 88))
		return f->sync[below(t, f->nsync)];
	if (chance(t, 50))
		return below(t, 40);
	return rand_u32(t);
}

static void bo_forget(struct file *f, int i)
{
	if (f->bo[i].map)
		munmap(f->bo[i].map, f->bo[i].size);
	f->bo[i] = f->bo[--f->nbo];
}

/* A handle of @f was closed: drop it from the pools. */
static void handle_closed(struct file *f, __u32 h)
{
	int i;

	for (i = 0; i < f->nbo; i++)
		if (f->bo[i].handle == h) {
			bo_forget(f, i);
			break;
		}
	if (h == f->task_h)
		f->task_h = 0;	/* its mapping stays; rebuilt on next use */
}

static int bo_info(int fd, __u32 h, struct drm_vpux_bo_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = h;
	return xioctl(fd, DRM_IOCTL_VPUX_BO_INFO, info);
}

/* Add a BO handle of @f to its pool (size and mapping from BO_INFO). */
static void pool_add(struct thr *t, struct file *f, __u32 h)
{
	struct drm_vpux_bo_info info;
	struct bo *b;
	int i, ret;

	for (i = 0; i < f->nbo; i++)
		if (f->bo[i].handle == h)
			return;
	if (h == f->task_h)
		return;
	ret = bo_info(f->fd, h, &info);
	if (account(t, OP_BO_INFO, ret) || ret)
		return;
	if (f->nbo == NBO) {
		struct drm_gem_close c = { .handle = f->bo[0].handle };

		account(t, OP_GEM_CLOSE, xioctl(f->fd, DRM_IOCTL_GEM_CLOSE, &c));
		bo_forget(f, 0);
	}
	b = &f->bo[f->nbo++];
	b->handle = h;
	b->flags = info.flags;
	b->size = info.size;
	b->map = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      f->fd, info.mmap_offset);
	account(t, OP_MMAP, b->map == MAP_FAILED ? -errno : 0);
	if (b->map == MAP_FAILED)
		b->map = NULL;
}

static int bo_create(struct thr *t, struct file *f, __u64 size, __u32 flags,
		     __u32 *h)
{
	struct drm_vpux_bo_create c = { .size = size, .flags = flags };
	int ret = xioctl(f->fd, DRM_IOCTL_VPUX_BO_CREATE, &c);

	if (account(t, OP_BO_CREATE, ret))
		return -1;
	if (!ret) {
		if (c.handle == 0 || (c.device_addr & 4095))
			fail(t, "BO_CREATE: handle %u, address %#llx", c.handle,
			     (unsigned long long)c.device_addr);
		*h = c.handle;
	}
	return ret;
}

static __u64 good_size(struct thr *t)
{
	switch (below(t, 4)) {
	case 0: return 4096;
	case 1: return 1 + below(t, 16384);
	case 2: return 4096 * (1 + below(t, 16));
	default: return 1 + below(t, MAX_BO_SIZE);
	}
}

/* The task BO of @f, created and mapped on first use. */
static int task_bo(struct thr *t, struct file *f)
{
	struct drm_vpux_bo_info info;
	int ret;

	if (f->task_h)
		return 0;
	if (f->task_map)
		munmap(f->task_map, TASK_BO_SIZE);
	f->task_map = NULL;
	if (bo_create(t, f, TASK_BO_SIZE, chance(t, 30) ? DRM_VPUX_BO_WC : 0,
		      &f->task_h) || !f->task_h)
		return -1;
	ret = bo_info(f->fd, f->task_h, &info);
	if (account(t, OP_BO_INFO, ret) || ret)
		goto err;
	f->task_map = mmap(NULL, TASK_BO_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED, f->fd, info.mmap_offset);
	account(t, OP_MMAP, f->task_map == MAP_FAILED ? -errno : 0);
	if (f->task_map == MAP_FAILED) {
		f->task_map = NULL;
		goto err;
	}
	return 0;
err:
	f->task_h = 0;
	return -1;
}

/* ---- files ---------------------------------------------------------- */

static void file_close(struct file *f)
{
	while (f->nbo)
		bo_forget(f, 0);
	if (f->task_map)
		munmap(f->task_map, TASK_BO_SIZE);
	if (f->fd >= 0)
		close(f->fd);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static int file_open(struct thr *t, struct file *f, int dev)
{
	int fd = vpux_open_nth(dev, NULL);

	file_close(f);
	if (account(t, OP_REOPEN, fd < 0 ? fd : 0) || fd < 0)
		return -1;
	f->fd = fd;
	f->dev = dev;
	return 0;
}

static void reopen(struct thr *t, struct file *f)
{
	file_open(t, f, f == &t->f[0] ? f->dev : (int)below(t, cfg.ndev));
}

/* ---- the ops -------------------------------------------------------- */

static void do_get_param(struct thr *t, struct file *f)
{
	struct drm_vpux_get_param p = { 0 };
	int ret;

	p.param = chance(t, 80) ? below(t, VPUX_TEST_PARAMS) : rand_u32(t);
	if (chance(t, 5))
		p.pad = rand_u32(t);
	if (chance(t, 3)) {
		ret = xioctl(f->fd, DRM_IOCTL_VPUX_GET_PARAM, bad_ptr(t));
		account(t, OP_GET_PARAM, ret);
		return;
	}
	ret = xioctl(f->fd, DRM_IOCTL_VPUX_GET_PARAM, &p);
	if (account(t, OP_GET_PARAM, ret))
		return;
	if (!ret && (p.pad || p.param >= VPUX_TEST_PARAMS))
		fail(t, "GET_PARAM %u pad %u succeeded", p.param, p.pad);
	if (ret == -EINVAL && !p.pad && p.param < VPUX_TEST_PARAMS)
		fail(t, "GET_PARAM %u refused", p.param);
}

static void do_bo_create(struct thr *t, struct file *f)
{
	static const __u64 bad_sizes[] = { 0, 0x0000007f00000001ull,
					   ~0ull, 1ull << 63, ~0ull - 4094,
					   1ull << 30, 3ull << 29, 1ull << 34 };
	__u32 flags = 0, h = 0;
	__u64 size;

	if (chance(t, 15))
		flags |= DRM_VPUX_BO_DEVICE_READONLY;
	if (chance(t, 20))
		flags |= chance(t, 50) ? DRM_VPUX_BO_WC : DRM_VPUX_BO_CACHED;
	if (chance(t, 5))
		flags |= 1u << below(t, 32);
	if (chance(t, 3))
		flags |= DRM_VPUX_BO_CACHED | DRM_VPUX_BO_WC;
	size = chance(t, 92) ? good_size(t) : bad_sizes[below(t, 8)];
	if (bo_create(t, f, size, flags, &h))
		return;
	if (h)
		pool_add(t, f, h);
}

static void do_bo_info(struct thr *t, struct file *f)
{
	struct drm_vpux_bo_info info;
	__u32 h = pick_bo_handle(t, f);
	int ret, i;

	if (chance(t, 3)) {
		account(t, OP_BO_INFO, xioctl(f->fd, DRM_IOCTL_VPUX_BO_INFO, bad_ptr(t)));
		return;
	}
	ret = bo_info(f->fd, h, &info);
	if (account(t, OP_BO_INFO, ret) || ret)
		return;
	for (i = 0; i < f->nbo; i++)
		if (f->bo[i].handle == h && f->bo[i].size != info.size)
			fail(t, "BO_INFO %u: size %llu, created with %llu", h,
			     (unsigned long long)info.size,
			     (unsigned long long)f->bo[i].size);
}

static void do_gem_close(struct thr *t, struct file *f)
{
	struct drm_gem_close c = { .handle = pick_bo_handle(t, f) };
	int ret;

	if (chance(t, 3))
		c.handle = f->task_h;
	if (chance(t, 3))
		c.pad = rand_u32(t);
	ret = xioctl(f->fd, DRM_IOCTL_GEM_CLOSE, &c);
	if (!account(t, OP_GEM_CLOSE, ret) && !ret)
		handle_closed(f, c.handle);
}

static void do_mmap(struct thr *t, struct file *f)
{
	struct drm_vpux_bo_info info;
	struct file *other = &t->f[f == &t->f[0]];
	__u32 h = pick_bo_handle(t, f);
	size_t len;
	off_t off;
	void *p;
	int ret;

	ret = bo_info(f->fd, h, &info);
	if (account(t, OP_BO_INFO, ret) || ret)
		return;
	len = info.size;
	off = info.mmap_offset;
	switch (below(t, 8)) {
	case 0: len += 4096; break;				/* past the end */
	case 1: off += 4096; break;				/* inside */
	case 2: off = (off_t)rand_u32(t) << 12; break;		/* anywhere */
	case 3: len = 1 + below(t, (unsigned int)info.size); break;
	default: break;
	}
	/* the offset through another file (no access), private mappings */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 chance(t, 5) ? MAP_PRIVATE : MAP_SHARED,
		 chance(t, 8) && other->fd > 0 ? other->fd : f->fd, off);
	if (account(t, OP_MMAP, p == MAP_FAILED ? -errno : 0) || p == MAP_FAILED)
		return;
	/* touch what is inside the BO */
	if (len <= info.size) {
		volatile unsigned char *c = p;
		size_t i;

		for (i = 0; i < len; i += 4096)
			c[i] = c[i] + 1;
		c[len - 1] = 0;
	}
	munmap(p, len);
}

static void do_prime(struct thr *t, struct file *f)
{
	struct drm_prime_handle e = { .handle = pick_bo_handle(t, f),
				      .flags = DRM_CLOEXEC };
	struct drm_prime_handle i = { 0 };
	struct file *to;
	int ret, dup_fd = -1;

	if (e.handle == f->task_h)
		return;	/* others' jobs would write this file's task memory */
	if (chance(t, 70))
		e.flags |= DRM_RDWR;
	if (chance(t, 4))
		e.flags |= 1u << below(t, 32);
	ret = xioctl(f->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &e);
	if (account(t, OP_PRIME_EXPORT, ret) || ret)
		return;

	/* import into this file, the other one, or a fresh file */
	to = chance(t, 60) ? &t->f[f == &t->f[0]] : f;
	if (to->fd <= 0)
		to = f;
	i.fd = e.fd;
	if (chance(t, 4))
		i.fd = chance(t, 50) ? -1 : f->fd;	/* not a dma-buf */
	if (chance(t, 3))
		i.flags = rand_u32(t);
	if (chance(t, 10)) {
		/* map the dma-buf itself */
		void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, e.fd, 0);

		if (p != MAP_FAILED) {
			dup_fd = ((volatile unsigned char *)p)[0];
			munmap(p, 4096);
		}
	}
	ret = xioctl(to->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &i);
	close(e.fd);
	if (account(t, OP_PRIME_IMPORT, ret) || ret)
		return;
	(void)dup_fd;
	if (to == f && i.fd == e.fd && i.handle != e.handle)
		fail(t, "PRIME: re-import of handle %u into its file gave %u",
		     e.handle, i.handle);
	pool_add(t, to, i.handle);
}

static void do_sync_create(struct thr *t, struct file *f)
{
	struct drm_syncobj_create c = { 0 };
	int ret;

	if (chance(t, 30))
		c.flags = DRM_SYNCOBJ_CREATE_SIGNALED;
	if (chance(t, 4))
		c.flags |= 1u << below(t, 32);
	ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	if (account(t, OP_SYNC_CREATE, ret) || ret)
		return;
	if (f->nsync == NSYNC) {
		struct drm_syncobj_destroy d = { .handle = f->sync[0] };

		account(t, OP_SYNC_DESTROY, xioctl(f->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d));
		f->sync[0] = f->sync[--f->nsync];
		f->point[0] = f->point[f->nsync];
	}
	f->point[f->nsync] = 0;
	f->sync[f->nsync++] = c.handle;
}

static void sync_closed(struct file *f, __u32 h)
{
	int i;

	for (i = 0; i < f->nsync; i++)
		if (f->sync[i] == h) {
			f->sync[i] = f->sync[--f->nsync];
			f->point[i] = f->point[f->nsync];
			return;
		}
}

static void do_sync_destroy(struct thr *t, struct file *f)
{
	struct drm_syncobj_destroy d = { .handle = pick_sync(t, f) };
	int ret;

	if (chance(t, 4))
		d.pad = rand_u32(t);
	ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
	if (!account(t, OP_SYNC_DESTROY, ret) && !ret)
		sync_closed(f, d.handle);
}

static void do_sync_export(struct thr *t, struct file *f)
{
	struct drm_syncobj_handle e = { .handle = pick_sync(t, f) };
	struct drm_syncobj_handle i = { 0 };
	struct file *to = &t->f[below(t, 2)];
	int ret;

	if (chance(t, 30))
		e.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	if (chance(t, 4))
		e.flags |= 1u << below(t, 32);
	if (chance(t, 4))
		e.pad = rand_u32(t);
	ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e);
	if (account(t, OP_SYNC_EXPORT, ret) || ret)
		return;
	if (to->fd <= 0)
		to = f;
	i.fd = e.fd;
	i.flags = e.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE ?
		  DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE : 0;
	if (i.flags && f->nsync)
		i.handle = f->sync[below(t, f->nsync)];	/* into that syncobj */
	if (chance(t, 5))
		i.flags ^= DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	if (chance(t, 3))
		i.fd = -1;
	ret = xioctl(to->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &i);
	close(e.fd);
	if (account(t, OP_SYNC_IMPORT, ret) || ret)
		return;
	if (!i.flags && to->nsync < NSYNC) {
		to->point[to->nsync] = 0;
		to->sync[to->nsync++] = i.handle;
	}
}

/* A deadline: now, soon, in a while, or in the past. */
static __s64 deadline(struct thr *t, unsigned int max_ms)
{
	switch (below(t, 10)) {
	case 0: return 0;
	case 1: return now_ns() - below(t, 1000000000);
	case 2: return now_ns() + (__s64)below(t, max_ms + 1) * 1000000;
	default: return now_ns() + (__s64)below(t, 20) * 1000000;
	}
}

/* A blocking call came back: did it keep its deadline? */
static void check_deadline(struct thr *t, enum op op, __s64 start, __s64 dl)
{
	__s64 end = now_ns(), limit = (dl > start ? dl : start) + SLACK_NS;

	if (end > limit) {
		add(&st->hung, 1);
		fail(t, "%s blocked %lld ms, deadline was %lld ms", op_name[op],
		     (long long)(end - start) / 1000000,
		     (long long)(dl - start) / 1000000);
	}
}

static void do_sync_wait(struct thr *t, struct file *f, int timeline)
{
	__u32 h[8];
	__u64 pt[8];
	unsigned int n = 1 + below(t, 4), k;
	__s64 start, dl;
	int ret;

	for (k = 0; k < n; k++) {
		h[k] = pick_sync(t, f);
		pt[k] = chance(t, 50) ? 0 : below(t, 8);
	}
	if (chance(t, 3))
		n = chance(t, 50) ? 0 : 8 + below(t, 56);
	dl = deadline(t, 300);
	start = now_ns();
	if (!timeline) {
		struct drm_syncobj_wait w = {
			.handles = (uintptr_t)h, .count_handles = n,
			.timeout_nsec = dl,
		};

		if (chance(t, 40))
			w.flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
		if (chance(t, 30))
			w.flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
		if (chance(t, 3))
			w.flags |= 1u << below(t, 32);
		if (chance(t, 3))
			w.handles = (uintptr_t)bad_ptr(t);
		if (n > 8)
			w.handles = (uintptr_t)bad_ptr(t);
		ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
		account(t, OP_SYNC_WAIT, ret);
	} else {
		struct drm_syncobj_timeline_wait w = {
			.handles = (uintptr_t)h, .points = (uintptr_t)pt,
			.count_handles = n, .timeout_nsec = dl,
		};

		w.flags = below(t, 16) & (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
					  DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
					  DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE);
		if (chance(t, 3))
			w.flags |= 1u << below(t, 32);
		if (chance(t, 3))
			w.points = (uintptr_t)bad_ptr(t);
		if (n > 8)
			w.handles = (uintptr_t)bad_ptr(t);
		ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
		account(t, OP_SYNC_TL_WAIT, ret);
	}
	check_deadline(t, timeline ? OP_SYNC_TL_WAIT : OP_SYNC_WAIT, start, dl);
}

static void do_sync_array(struct thr *t, struct file *f, enum op op)
{
	__u32 h[4];
	__u64 pt[4];
	unsigned int n = 1 + below(t, 4), k;
	struct drm_syncobj_array a = { .handles = (uintptr_t)h, .count_handles = n };
	struct drm_syncobj_timeline_array ta = {
		.handles = (uintptr_t)h, .points = (uintptr_t)pt, .count_handles = n,
	};
	int ret;

	for (k = 0; k < n; k++) {
		h[k] = pick_sync(t, f);
		pt[k] = 1 + below(t, 6);
		/* timeline points mostly go up */
		for (int i = 0; i < f->nsync; i++)
			if (f->sync[i] == h[k] && chance(t, 80))
				pt[k] = ++f->point[i];
	}
	if (chance(t, 3))
		a.count_handles = ta.count_handles = 0;
	if (chance(t, 3))
		a.pad = ta.flags = rand_u32(t);
	if (chance(t, 3))
		a.handles = ta.handles = (uintptr_t)bad_ptr(t);
	switch (op) {
	case OP_SYNC_RESET:
		ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_RESET, &a);
		break;
	case OP_SYNC_SIGNAL:
		ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &a);
		break;
	case OP_SYNC_TL_SIGNAL:
		ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &ta);
		break;
	default:
		if (chance(t, 50))
			ta.flags = DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED;
		ret = xioctl(f->fd, DRM_IOCTL_SYNCOBJ_QUERY, &ta);
		break;
	}
	account(t, op, ret);
}

/* Remember a job of @f. */
static void seq_add(struct file *f, __u64 seqno)
{
	unsigned int i = f->nseq++ % NSEQ;

	f->seq[i] = seqno;
	f->seq_counted[i] = 0;
}

static void count_result(struct thr *t, struct file *f, int slot, int clean,
			 const struct drm_vpux_wait *w)
{
	if (w->status < DRM_VPUX_STATUS_DONE || w->status > DRM_VPUX_STATUS_ABORTED) {
		fail(t, "WAIT %llu: status %u", (unsigned long long)w->seqno, w->status);
		return;
	}
	if (w->status == DRM_VPUX_STATUS_DONE && wait_error(w))
		fail(t, "WAIT %llu: DONE with error %d", (unsigned long long)w->seqno,
		     wait_error(w));
	if (slot < 0 || f->seq_counted[slot])
		return;
	f->seq_counted[slot] = 1;
	add(&st->status[w->status], 1);
	if (w->status == DRM_VPUX_STATUS_MMU_FAULT)
		add(&st->mmu_faults, 1);
	if (w->status == DRM_VPUX_STATUS_TIMEOUT)
		add(&st->timeouts, 1);
	/* a job of a valid task over live BOs of its file must run */
	if (clean && w->status != DRM_VPUX_STATUS_DONE &&
	    w->status != DRM_VPUX_STATUS_ABORTED)
		fail(t, "valid job %llu: status %u error %d fail_op %#x fault %#llx",
		     (unsigned long long)w->seqno, w->status, wait_error(w), w->fail_op,
		     (unsigned long long)w->fault_addr);
	if (clean)
		add(&st->clean_checked, 1);
}

static void wait_job(struct thr *t, struct file *f, __u64 seqno, __s64 dl,
		     int slot, int clean)
{
	struct drm_vpux_wait w = { .seqno = seqno, .timeout_ns = dl };
	__s64 start = now_ns();
	int ret;

	ret = xioctl(f->fd, DRM_IOCTL_VPUX_WAIT, &w);
	check_deadline(t, OP_WAIT, start, dl);
	if (account(t, OP_WAIT, ret) || ret)
		return;
	count_result(t, f, slot, clean, &w);
}

static void do_wait(struct thr *t, struct file *f)
{
	struct drm_vpux_wait w = { 0 };
	unsigned int n = f->nseq < NSEQ ? f->nseq : NSEQ;
	int slot = -1;
	__s64 start;
	int ret;

	if (n && chance(t, 85)) {
		slot = below(t, n);
		w.seqno = f->seq[slot];
	} else if (f->nseq && chance(t, 50)) {
		w.seqno = f->seq[(f->nseq - 1) % NSEQ] + below(t, 3) - 300 * below(t, 2);
	} else {
		w.seqno = chance(t, 30) ? 0 : rnd(t);
	}
	w.timeout_ns = deadline(t, 3000);
	if (chance(t, 3))
		w.flags = rand_u32(t);
	if (chance(t, 3))
		w.error = rand_u32(t);	/* out only */
	if (chance(t, 2)) {
		account(t, OP_WAIT, xioctl(f->fd, DRM_IOCTL_VPUX_WAIT, bad_ptr(t)));
		return;
	}
	start = now_ns();
	ret = xioctl(f->fd, DRM_IOCTL_VPUX_WAIT, &w);
	check_deadline(t, OP_WAIT, start, w.timeout_ns);
	if (account(t, OP_WAIT, ret) || ret)
		return;
	if (w.flags)
		fail(t, "WAIT with flags %#x succeeded", w.flags);
	if (w.error > DRM_VPUX_ERR_DEVICE ||
	    (w.error == DRM_VPUX_ERR_NONE) != (w.status == DRM_VPUX_STATUS_DONE))
		fail(t, "WAIT: status %u with error category %u", w.status,
		     w.error);
	count_result(t, f, slot, 0, &w);
}

/* ---- queues, BO_WAIT (uapi 1.5) --------------------------------------- */

static void queue_forget(struct file *f, int i)
{
	f->nqueue--;
	f->queue[i] = f->queue[f->nqueue];
	f->queue_prio[i] = f->queue_prio[f->nqueue];
}

/* Create queues until the file has FUZZ_MAX_QUEUES, then drop them. */
static void queue_fill(struct thr *t, struct file *f)
{
	__u32 ids[FUZZ_MAX_QUEUES + 1];
	unsigned int n = 0, i;
	int ret = 0;

	while (n <= FUZZ_MAX_QUEUES) {
		struct drm_vpux_queue_create c = { .priority = below(t, 2) };

		ret = xioctl(f->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c);
		if (account(t, OP_QUEUE_CREATE, ret) || ret)
			break;
		ids[n++] = c.queue_id;
	}
	if (ret != -ENOSPC && ret != -ENOMEM && ret != -EFAULT)
		fail(t, "QUEUE_CREATE: %d after %u queues, not -ENOSPC", ret, n);
	for (i = 0; i < n; i++) {
		struct drm_vpux_queue_destroy d = { .queue_id = ids[i] };

		account(t, OP_QUEUE_DESTROY, xioctl(f->fd, DRM_IOCTL_VPUX_QUEUE_DESTROY, &d));
	}
}

static void do_queue_create(struct thr *t, struct file *f)
{
	struct drm_vpux_queue_create c = { .priority = below(t, 4) };
	int ret;

	if (chance(t, 2)) {
		queue_fill(t, f);
		return;
	}

	if (chance(t, 5))
		c.priority = rand_u32(t);
	if (chance(t, 4))
		c.flags = 1u << below(t, 32);
	if (chance(t, 4))
		c.pad = rand_u32(t);
	if (chance(t, 4))
		c.queue_id = rand_u32(t);
	if (chance(t, 2)) {
		account(t, OP_QUEUE_CREATE,
			xioctl(f->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, bad_ptr(t)));
		return;
	}
	ret = xioctl(f->fd, DRM_IOCTL_VPUX_QUEUE_CREATE, &c);
	if (account(t, OP_QUEUE_CREATE, ret) || ret)
		return;
	if (!c.queue_id || c.queue_id > FUZZ_MAX_QUEUES)
		fail(t, "QUEUE_CREATE: queue id %u", c.queue_id);
	if (f->nqueue == NQUEUE) {
		/*
		 * Destroy the oldest, with its jobs possibly in flight; or
		 * forget it, so that the file fills up to -ENOSPC.
		 */
		struct drm_vpux_queue_destroy d = { .queue_id = f->queue[0] };

		if (chance(t, 60))
			account(t, OP_QUEUE_DESTROY,
				xioctl(f->fd, DRM_IOCTL_VPUX_QUEUE_DESTROY, &d));
		queue_forget(f, 0);
	}
	f->queue[f->nqueue] = c.queue_id;
	f->queue_prio[f->nqueue++] = c.priority;
}

static void do_queue_destroy(struct thr *t, struct file *f)
{
	struct drm_vpux_queue_destroy d = { 0 };
	int i = -1, ret;

	if (f->nqueue && chance(t, 85)) {
		i = below(t, f->nqueue);
		d.queue_id = f->queue[i];
	} else {
		d.queue_id = chance(t, 50) ? below(t, FUZZ_MAX_QUEUES + 2) : rand_u32(t);
	}
	if (chance(t, 6))
		d.pad = 1 + below(t, 0xffff);
	ret = xioctl(f->fd, DRM_IOCTL_VPUX_QUEUE_DESTROY, &d);
	if (account(t, OP_QUEUE_DESTROY, ret) || ret)
		return;
	for (i = 0; i < f->nqueue; i++)
		if (f->queue[i] == d.queue_id) {
			queue_forget(f, i);
			break;
		}
}

static void do_bo_wait(struct thr *t, struct file *f)
{
	struct drm_vpux_bo_wait w = { .handle = pick_bo_handle(t, f) };
	__s64 start;
	int ret;

	if (chance(t, 10))
		w.handle = f->task_h;
	if (chance(t, 3))
		w.flags = 1u << below(t, 32);
	if (chance(t, 5))
		w.pad = rand_u32(t);
	w.timeout_ns = deadline(t, 300);
	if (chance(t, 2)) {
		account(t, OP_BO_WAIT, xioctl(f->fd, DRM_IOCTL_VPUX_BO_WAIT, bad_ptr(t)));
		return;
	}
	start = now_ns();
	ret = xioctl(f->fd, DRM_IOCTL_VPUX_BO_WAIT, &w);
	check_deadline(t, OP_BO_WAIT, start, w.timeout_ns);
	if (account(t, OP_BO_WAIT, ret) || ret)
		return;
	if (w.flags || w.pad)
		fail(t, "BO_WAIT with flags %#x, pad %#x succeeded", w.flags, w.pad);
	if (w.error > DRM_VPUX_ERR_DEVICE ||
	    (w.error == DRM_VPUX_ERR_NONE) != (w.status == DRM_VPUX_STATUS_DONE))
		fail(t, "BO_WAIT %u: status %u with error category %u", w.handle,
		     w.status, w.error);
	if (w.status < DRM_VPUX_STATUS_DONE || w.status > DRM_VPUX_STATUS_ABORTED)
		fail(t, "BO_WAIT %u: status %u", w.handle, w.status);
	if (!w.seqno && (w.status != DRM_VPUX_STATUS_DONE || w.sys_error || w.core_error))
		fail(t, "BO_WAIT %u: no job, but status %u sys_error %d core_error %u",
		     w.handle, w.status, w.sys_error, w.core_error);
}

/* ---- debugfs, sysfs, fdinfo, tracepoints ------------------------------ */

#define MAX_DEV 8
static char dev_dbg[MAX_DEV][160];	/* /sys/kernel/debug/accel/NAME */
static char dev_busy[MAX_DEV][160];	/* sysfs npu_busy_time_us */
static char dev_pm[MAX_DEV][160];	/* sysfs power/autosuspend_delay_ms */
static char dev_pm_orig[MAX_DEV][32];	/* its value before the run */
static const char trace_dir[] = "/sys/kernel/debug/tracing";
static int trace_on;			/* --kcov enabled the vpux events */

/* Read a file to its end, or @max bytes of it; 0 or -errno. */
static int slurp(const char *path, int max)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), n, total = 0;

	if (fd < 0)
		return -errno;
	while (total < max && (n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (total >= max)
		n = 0;
	n = n < 0 ? -errno : 0;
	close(fd);
	return n == -EAGAIN ? 0 : n;
}

/*
 * The device's debugfs files: read engines, resets, bo_list and
 * job_timeout_ms; write inject only what the driver must refuse (or
 * "none"), job_timeout_ms its own value or a bad one. Nothing here makes
 * the device misbehave: that is vpux_faultinj's part.
 */
static void do_debugfs(struct thr *t, struct file *f)
{
	static const char *const rd[] = { "engines", "resets", "bo_list", "job_timeout_ms" };
	static const char *const inject[] = {
		"none", "none 0", "none 0 0 1", "hang", "hang 1000", "bogus 0",
		"slow 0 70000 2", "mmu_fault 99999", "", " ",
		"drop_irq", "none 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
	};
	const char *dir = dev_dbg[f->dev < MAX_DEV ? f->dev : 0];
	char path[sizeof(dev_dbg) + 32], val[32];
	long v;
	int ret;

	if (!dir[0])
		return;
	switch (below(t, 6)) {
	case 5:
		/* the hang check now: it blames only jobs past their timeout */
		snprintf(path, sizeof(path), "%s/force_recovery", dir);
		ret = file_write(path, "1");
		break;
	case 0: case 1:
		snprintf(path, sizeof(path), "%s/%s", dir, rd[below(t, 4)]);
		ret = slurp(path, 65536);
		break;
	case 2:
		snprintf(path, sizeof(path), "%s/inject", dir);
		ret = file_write(path, inject[below(t, sizeof(inject) / sizeof(inject[0]))]);
		if (ret == -EINVAL)
			ret = 0;
		break;
	default: {
		int bad;

		snprintf(path, sizeof(path), "%s/job_timeout_ms", dir);
		v = file_read_long(path);
		bad = v <= 0 || chance(t, 40);
		if (bad)
			snprintf(val, sizeof(val), "%s", chance(t, 50) ? "0" : "99999999999");
		else
			snprintf(val, sizeof(val), "%ld", v);
		ret = file_write(path, val);
		if (bad && ret == -EINVAL)
			ret = 0;
		break;
	}
	}
	account(t, OP_DEBUGFS, ret);
}

/*
 * sysfs npu_busy_time_us of the device, fdinfo of the file; or the
 * device's autosuspend delay, short (the device suspends between calls
 * and resumes under them) or back to its value before the run.
 */
static void do_sysfs(struct thr *t, struct file *f)
{
	static const char *const delay[] = { "10", "50", NULL };
	int dev = f->dev < MAX_DEV ? f->dev : 0;
	const char *v;
	char path[64];

	if (chance(t, 20) && dev_pm[dev][0]) {
		v = delay[below(t, 3)];
		account(t, OP_SYSFS, file_write(dev_pm[dev], v ? v : dev_pm_orig[dev]));
		return;
	}

	if (chance(t, 50) && dev_busy[f->dev < MAX_DEV ? f->dev : 0][0]) {
		account(t, OP_SYSFS, slurp(dev_busy[f->dev < MAX_DEV ? f->dev : 0], 4096));
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", f->fd);
	account(t, OP_SYSFS, slurp(path, 4096));
}

/* The trace buffer, with the driver's events formatted (--kcov only) */
static void do_trace(struct thr *t, struct file *f)
{
	char path[128];

	(void)f;
	if (!trace_on)
		return;
	/* not trace_pipe: one reader at a time (-EBUSY), and it consumes */
	snprintf(path, sizeof(path), "%s/trace", trace_dir);
	account(t, OP_TRACE, slurp(path, 8192));
}

/* ---- netlink: the "vpux" family ------------------------------------ */

static __u16 nl_family;			/* 0: no family (told at the start) */
static __u32 nl_events;			/* the "events" group */
static int dev_minor[MAX_DEV];		/* accel minor = netlink device id */

/* The thread's sockets: one for requests, one listening to "events". */
static int nl_thread_open(struct thr *t)
{
	struct timeval tv = { .tv_sec = 10 };

	t->nl = malloc(sizeof(*t->nl));
	if (!t->nl || nl_open(t->nl)) {
		free(t->nl);
		t->nl = NULL;
		return -1;
	}
	/* a lost answer is a failure (-EAGAIN), never a hang */
	setsockopt(t->nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	t->nl_listen = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	/* joining needs CAP_SYS_ADMIN: without it, no listener */
	if (t->nl_listen >= 0 && nl_events &&
	    setsockopt(t->nl_listen, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
		       &nl_events, sizeof(nl_events))) {
		close(t->nl_listen);
		t->nl_listen = -1;
	}
	return 0;
}

static void nl_thread_close(struct thr *t)
{
	if (!t->nl)
		return;
	close(t->nl->fd);
	if (t->nl_listen >= 0)
		close(t->nl_listen);
	free(t->nl);
	t->nl = NULL;
}

/* Read the events queued for the listener (an overrun is no failure). */
static void nl_drain(struct thr *t)
{
	while (t->nl_listen >= 0 &&
	       (recv(t->nl_listen, t->nl->buf, sizeof(t->nl->buf), MSG_DONTWAIT) > 0 ||
		errno == ENOBUFS))
		;
}

/*
 * dev-get and ctx-get, do and dump, of the file's device and client id
 * or of random ones; or a request of a random command with random
 * attributes (types, lengths, contents). The kernel answers each with
 * data or one of the errors allowed[OP_NETLINK].
 */
static void do_netlink(struct thr *t, struct file *f)
{
	struct msg m[2];
	char req[512];
	struct nlmsghdr *n;
	__u32 dev = dev_minor[f->dev < MAX_DEV ? f->dev : 0];
	long long client;
	int ret, cnt, k, na;

	if (!nl_family || (!t->nl && nl_thread_open(t)))
		return;
	nl_drain(t);
	if (chance(t, 15))
		dev = chance(t, 50) ? below(t, 8) : rand_u32(t);
	switch (below(t, 6)) {
	case 0:
		ret = dev_get(t->nl, dev & 0x7fffffff, m, 2, &cnt);
		break;
	case 1:
		ret = dev_get(t->nl, -1, m, 2, &cnt);
		break;
	case 2:
		client = fdinfo(f->fd, "drm-client-id");
		ret = ctx_get(t->nl, dev & 0x7fffffff,
			      client > 0 && chance(t, 80) ? (__u64)client : rnd(t) | 1,
			      m, 2, &cnt);
		break;
	case 3:
		ret = ctx_get(t->nl, chance(t, 50) ? (int)(dev & 0x7fffffff) : -1, 0,
			      m, 2, &cnt);
		break;
	default:
		n = nl_req(req, nl_family, below(t, VPUX_CMD_MAX + 3), chance(t, 40));
		for (na = below(t, 4), k = 0; k < na; k++) {
			unsigned char v[16];
			unsigned int i, len = below(t, 17);

			for (i = 0; i < len; i++)
				v[i] = rnd(t);
			put_attr(n, below(t, VPUX_A_EVENT_MAX + 3), v, len);
		}
		ret = nl_send(t->nl, n);
		if (!ret)
			ret = nl_recv(t->nl, m, 2, &cnt);
		break;
	}
	account(t, OP_NETLINK, ret);
	nl_drain(t);
}

/* ---- SUBMIT: valid DMA tasks, some mutated -------------------------- */

struct entry {
	__u64 size;	/* bytes of the address-list entry */
	int writable;
};

/* A reference to @len-ish bytes of entry @e (or CMX). */
static struct dla_buf_ref pick_ref(struct thr *t, const struct entry *ent,
				   unsigned int nent, int want_write,
				   __u32 *room)
{
	unsigned int tries, e;

	if (!no_cmx && chance(t, 15)) {
		__u32 off = below(t, (unsigned int)cmx_size / 2) & ~3u;

		*room = (__u32)cmx_size - off;
		return tb_cmx(below(t, (unsigned int)num_tiles), off, 0);
	}
	for (tries = 0; tries < 8; tries++) {
		e = 1 + below(t, nent - 1);
		if (!want_write || ent[e].writable)
			break;
	}
	if (want_write && !ent[e].writable) {
		/* no writable entry: CMX then */
		*room = (__u32)cmx_size;
		return tb_cmx(0, 0, 0);
	}
	{
		__u32 off = chance(t, 50) ? 0 : below(t, (unsigned int)ent[e].size / 2);

		*room = (__u32)(ent[e].size - off);
		return tb_ref(e, off, 0);
	}
}

/* Fill DMA op @op with a copy that fits both refs. */
static void build_dma(struct thr *t, struct dla_dma_op *op,
		      const struct entry *ent, unsigned int nent, int fault)
{
	__u32 sroom, droom, room, len, c[3] = { 1, 1, 1 }, extra;
	unsigned int d;

	op->src = pick_ref(t, ent, nent, 0, &sroom);
	op->dst = pick_ref(t, ent, nent, !fault, &droom);
	room = sroom < droom ? sroom : droom;
	if (room > 16384)
		room = 16384;
	len = 1 + below(t, chance(t, 50) && room > 256 ? 256 : room);
	op->len = len;
	for (d = 0; d < 3; d++) {
		op->count[d] = 1;
		op->src_stride[d] = op->dst_stride[d] = 0;
	}
	/* a few rows, planes, ... if they fit */
	if (chance(t, 40)) {
		for (d = 0; d < 3; d++)
			c[d] = 1 + below(t, 4);
		extra = below(t, 8);
		{
			__u64 s1 = len + extra, s2 = s1 * c[0], s3 = s2 * c[1];
			__u64 ext = len + (c[0] - 1) * s1 + (c[1] - 1) * s2 + (c[2] - 1) * s3;

			if (ext <= room) {
				for (d = 0; d < 3; d++)
					op->count[d] = c[d];
				op->src_stride[0] = op->dst_stride[0] = (__u32)s1;
				op->src_stride[1] = op->dst_stride[1] = (__u32)s2;
				op->src_stride[2] = op->dst_stride[2] = (__u32)s3;
				len = (__u32)ext;
			}
		}
	}
	op->src.size = len;
	op->dst.size = len;
}

/*
 * Compute ops. The numbers are the NPU's (include/hw/vpux_regs.h,
 * vpux_shave_abi.h), repeated here so that the kselftest builds from the
 * uapi and task-format headers alone.
 */
#define DPU_OP_CONV		0u
#define DPU_OP_MATMUL		1u
#define DPU_OP_ADD		2u
#define DPU_OP_MUL		3u
#define DPU_OP_MAXPOOL		4u
#define DPU_OP_AVGPOOL		5u
#define DPU_F_IN_SIGNED		(1u << 0)
#define DPU_F_W_SIGNED		(1u << 1)
#define DPU_F_OUT_SIGNED	(1u << 2)
#define DPU_F_BIAS		(1u << 3)
#define SHAVE_KERNEL_CLAMP	1u
#define SHAVE_KERNELS		7u
#define DT_U8			1u
#define DT_I8			2u
#define DT_I32			3u
#define WADDR(win, off)		((__u32)(win) << 28 | ((off) & 0x0fffffffu))

struct memref {			/* struct vpux_memref */
	__u32 addr, is_static, rank, data_type;
	__u64 dims_order;
	__u32 dims_addr, reserved;
	__u32 dims[6];
	__u64 strides[6];
};

struct clamp_args {		/* struct vpux_shave_clamp_args */
	struct memref in, out;
	__s32 min, max;
};

_Static_assert(sizeof(struct memref) == 104, "vpux_memref");
_Static_assert(sizeof(struct clamp_args) == 216, "vpux_shave_clamp_args");

/* A reference to @need bytes: CMX, or an entry with room, writable if asked */
static struct dla_buf_ref need_ref(struct thr *t, const struct entry *ent,
				   unsigned int nent, int want_write, __u32 need)
{
	unsigned int tries, e;

	if (need > cmx_size)
		need = (__u32)cmx_size;
	if (chance(t, 30))
		for (tries = 0; tries < 4; tries++) {
			e = 1 + below(t, nent - 1);
			if (ent[e].size >= need && (!want_write || ent[e].writable))
				return tb_ref(e, 0, need);
		}
	if (no_cmx)
		return tb_ref(1, 0, need);	/* may not fit: the core refuses it */
	{
		__u32 off = below(t, (unsigned int)(cmx_size - need) + 1) & ~3u;

		return tb_cmx(below(t, (unsigned int)num_tiles), off, need);
	}
}

/* A DPU op of a small, consistent shape; the data is whatever is there. */
static void build_dpu(struct thr *t, struct dla_dpu_op *d, const struct entry *ent,
		      unsigned int nent)
{
	__u32 c = 1 + below(t, 4), h = 1 + below(t, 4), w = 1 + below(t, 4);
	__u32 oc = 1 + below(t, 4), k = 1 + below(t, 3), s = 1 + below(t, 2);
	__u32 pad = below(t, 2) && k > 1, in2 = 0;

	d->op = below(t, 6);
	d->flags = below(t, 8) & (DPU_F_IN_SIGNED | DPU_F_W_SIGNED | DPU_F_OUT_SIGNED);
	d->in_c = c, d->in_h = h, d->in_w = w;
	d->requant.mult = 1 << 30;
	d->act_min = d->flags & DPU_F_OUT_SIGNED ? -128 : 0;
	d->act_max = d->flags & DPU_F_OUT_SIGNED ? 127 : 255;
	switch (d->op) {
	case DPU_OP_CONV: case DPU_OP_MAXPOOL: case DPU_OP_AVGPOOL:
		if (h + 2 * pad < k || w + 2 * pad < k)
			k = 1, pad = 0;
		d->kernel_h = d->kernel_w = k;
		d->stride_h = d->stride_w = s;
		d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = pad;
		d->dilation_h = d->dilation_w = 1;
		d->groups = 1;
		d->out_h = (h + 2 * pad - k) / s + 1;
		d->out_w = (w + 2 * pad - k) / s + 1;
		d->out_c = d->op == DPU_OP_CONV ? oc : c;
		if (d->op == DPU_OP_CONV)
			in2 = k * k * c * oc;
		break;
	case DPU_OP_MATMUL:
		d->out_h = h, d->out_w = w, d->out_c = oc;
		in2 = oc * c;
		break;
	default:		/* ADD, MUL */
		d->out_h = h, d->out_w = w, d->out_c = c;
		in2 = h * w * c;
		d->in_scale.mult = d->in2_scale.mult = 1 << 30;
		break;
	}
	if (d->op <= DPU_OP_MATMUL && chance(t, 40)) {
		d->flags |= DPU_F_BIAS;
		d->bias = need_ref(t, ent, nent, 0, 4 * d->out_c);
	}
	d->in = need_ref(t, ent, nent, 0, h * w * c);
	if (in2)
		d->in2 = need_ref(t, ent, nent, 0, in2);
	d->out = need_ref(t, ent, nent, 1, (__u32)d->out_h * d->out_w * d->out_c);
}

/*
 * A SHAVE op: mostly a CLAMP with its arguments at @args_off of the task
 * memory (entry 0), windows 0 (in) and 1 (out); else another kernel id
 * with the same arguments, which the engine refuses.
 */
static void build_shave(struct thr *t, struct dla_shave_op *op, unsigned char *slot,
			__u32 args_off, const struct entry *ent, unsigned int nent)
{
	struct clamp_args a;
	__u32 dims[3], n = 1, r, rank = 1 + below(t, 3), dt = 1 + below(t, 3);
	__u32 esz = dt == DT_I32 ? 4 : 1;
	__u64 bits = 8 * esz;

	memset(&a, 0, sizeof(a));
	for (r = 0; r < rank; r++) {
		dims[r] = 1 + below(t, 4);
		n *= dims[r];
	}
	/* compact, innermost dim last */
	a.in.is_static = 1, a.in.rank = rank, a.in.data_type = dt;
	a.in.dims_order = rank == 1 ? 0x1 : rank == 2 ? 0x12 : 0x123;
	for (r = rank; r-- > 0;) {
		a.in.dims[r] = dims[r];
		a.in.strides[r] = bits;
		bits *= dims[r];
	}
	a.out = a.in;
	a.in.addr = WADDR(0, 0);
	a.out.addr = WADDR(1, 0);
	a.min = (__s32)below(t, 64) - (dt == DT_U8 ? 0 : 32);
	a.max = a.min + (__s32)below(t, 64);
	memcpy(slot + args_off, &a, sizeof(a));
	op->kernel_id = chance(t, 85) ? SHAVE_KERNEL_CLAMP : below(t, SHAVE_KERNELS + 1);
	op->args = tb_ref(0, args_off, sizeof(a));
	op->windows[0] = need_ref(t, ent, nent, 0, n * esz);
	op->windows[1] = need_ref(t, ent, nent, 1, n * esz);
}

/*
 * ELF kernel ops (vpux_shave_elf.h, drm/vpux_task.h's
 * dla_shave_task_op): code the SHAVE core of the model interprets inside
 * the kernel, under KASAN in make check-debug. The code is random RV32IMF:
 * any word, or well-formed instructions with random registers that make
 * pointers into every window and outside them (lui), load and store
 * there, branch backwards (loops the budget ends), use the F extension,
 * CSRs and ECALL; it ends with a return. Nothing of it may reach memory
 * outside the windows: the op completes or traps.
 */
#define SHAVE_KERNEL_ELF	0x100u
#define ELF_CODE_WORDS		48u	/* 192 bytes: fits a clamp_args slot */

static __u32 rv_branch_back(struct thr *t, __u32 rs1, __u32 rs2)
{
	static const __u32 f3[] = { 0, 1, 4, 5, 6, 7 };
	__u32 o = (__u32)-(__s32)(4 * (1 + below(t, 8)));

	return ((o >> 12) & 1) << 31 | ((o >> 5) & 0x3f) << 25 | rs2 << 20 |
	       rs1 << 15 | f3[below(t, 6)] << 12 | ((o >> 1) & 0xf) << 8 |
	       ((o >> 11) & 1) << 7 | 0x63;
}

static __u32 rv_insn(struct thr *t)
{
	/* window bases (vpux_shave_elf.h) and a page of nothing */
	static const __u32 hi[] = { 0xd0000, 0xe0000, 0xe8000, 0xf0000,
				    0xbffff, 0xc0000, 0x00001, 0x12345 };
	__u32 rd = below(t, 32), rs1 = below(t, 32), rs2 = below(t, 32);
	__u32 imm = below(t, 4096), f3 = below(t, 8);

	switch (below(t, 12)) {
	case 0:
		return rnd(t);
	case 1:			/* OP-IMM */
		return imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x13;
	case 2:			/* OP, and SUB/SRA */
		return (chance(t, 30) ? 0x20u : 0) << 25 | rs2 << 20 |
		       rs1 << 15 | f3 << 12 | rd << 7 | 0x33;
	case 3:			/* M: mul, div, rem */
		return 1u << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x33;
	case 4:			/* LB..LHU, some misaligned */
		return imm << 20 | rs1 << 15 | below(t, 6) << 12 | rd << 7 | 0x03;
	case 5:			/* SB, SH, SW */
		return (imm >> 5) << 25 | rs2 << 20 | rs1 << 15 |
		       below(t, 3) << 12 | (imm & 31) << 7 | 0x23;
	case 6:			/* a pointer into a window, or outside */
		return (hi[below(t, 8)] + below(t, 4)) << 12 | rd << 7 | 0x37;
	case 7:
		return rv_branch_back(t, rs1, rs2);
	case 8:			/* OP-FP: any funct7, rounding mode */
		return below(t, 128) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
		       rd << 7 | 0x53;
	case 9:			/* FLW, FSW */
		return chance(t, 50) ?
		       imm << 20 | rs1 << 15 | 2u << 12 | rd << 7 | 0x07 :
		       (imm >> 5) << 25 | rs2 << 20 | rs1 << 15 | 2u << 12 |
		       (imm & 31) << 7 | 0x27;
	case 10:		/* fused multiply-add family */
		return rs2 << 27 | below(t, 4) << 25 | rs2 << 20 | rs1 << 15 |
		       f3 << 12 | rd << 7 | (0x43 | below(t, 4) << 2);
	default:		/* ECALL, EBREAK, CSRs (fcsr and others), FENCE */
		switch (below(t, 4)) {
		case 0:
			return chance(t, 50) ? 0x00000073u : 0x00100073u;
		case 1:
			return (chance(t, 70) ? 0x003u : below(t, 4096)) << 20 |
			       rs1 << 15 | (1 + below(t, 3)) << 12 | rd << 7 | 0x73;
		case 2:
			return 0x0ff0000fu;
		default:	/* li a7, 93: the exit ECALL follows sometimes */
			return 93u << 20 | 17u << 7 | 0x13;
		}
	}
}

/*
 * Turn @op into an ELF kernel op: code at @code_off of the task memory
 * (entry 0), the clamp arguments before it as WIN_E, WIN_F a writable
 * reference. Mostly well-formed records, so that the interpreter runs.
 */
static void build_elf(struct thr *t, struct dla_shave_op *op, unsigned char *slot,
		      __u32 args_off, __u32 code_off, const struct entry *ent,
		      unsigned int nent)
{
	struct dla_shave_task_op *k = (struct dla_shave_task_op *)op;
	struct dla_op_deps deps = op->deps;
	__u32 code[ELF_CODE_WORDS], n = 4 + below(t, ELF_CODE_WORDS - 3), i;

	for (i = 0; i < n; i++)
		code[i] = rv_insn(t);
	if (chance(t, 50))
		code[n - 2] = 0x00000513u;	/* li a0, 0: success */
	code[n - 1] = 0x00008067u;		/* ret */
	memcpy(slot + code_off, code, 4 * n);
	memset(k, 0, sizeof(*k));
	k->deps = deps;
	k->kernel_id = SHAVE_KERNEL_ELF;
	k->entry = chance(t, 90) ? 0 : 2 * below(t, 4 * n / 2 + 2);
	k->args = tb_ref(0, args_off, 8 * (1 + below(t, 27)));
	k->code = tb_ref(0, code_off, 4 * n);
	if (chance(t, 20))
		k->data = tb_ref(0, args_off, 4 * (1 + below(t, 16)));
	k->win_f = need_ref(t, ent, nent, 1, 4 * (1 + below(t, 256)));
	k->stack_size = chance(t, 90) ? 256u << below(t, 4) : rnd(t);
	k->tile = chance(t, 90) ? below(t, 2) : below(t, 64);
	k->kernel = below(t, 8);
	k->invocation = below(t, 8);
	/* at most a few thousand instructions: TCG, KASAN */
	k->budget = chance(t, 95) ? 1 + below(t, 4) : rnd(t);
}

/* Flip bits, change counts, offsets, barrier ids, indexes. */
static void mutate(struct thr *t, unsigned char *task, size_t size, struct tb *tb,
		   unsigned int ndma, unsigned int ndpu, unsigned int nshave, unsigned int nb)
{
	unsigned int n = 1 + below(t, 3), k, o;
	struct dla_dma_op *op;

	for (k = 0; k < n; k++) {
		op = &tb->dma[below(t, ndma)];
		switch (below(t, ndpu || nshave ? 14 : 12)) {
		case 0: case 1:		/* bit flips */
			o = below(t, (unsigned int)size);
			task[o] ^= 1u << below(t, 8);
			break;
		case 2: {		/* any word */
			__u32 v = rand_u32(t);

			o = below(t, (unsigned int)size / 4) * 4;
			memcpy(task + o, &v, 4);
			break;
		}
		case 3:
			tb->d->ops[below(t, 3)].count = chance(t, 50) ?
				below(t, 8) : rand_u32(t);
			break;
		case 4:
			if (chance(t, 50))
				tb->d->ops[below(t, 3)].offset = rand_u32(t) & ~3u;
			else
				tb->d->barriers_offset = below(t, (unsigned int)size + 64);
			break;
		case 5:
			tb->d->num_barriers = chance(t, 50) ? nb + 1 + below(t, 2) : rand_u32(t);
			break;
		case 6:			/* barrier ids, list lengths */
			if (chance(t, 50))
				op->deps.waits[below(t, 8)] = below(t, nb + 3);
			else
				op->deps.updates[below(t, 8)] = (dla_u16)rand_u32(t);
			if (chance(t, 30))
				op->deps.num_waits = below(t, 12);
			if (chance(t, 30))
				op->deps.num_updates = below(t, 12);
			break;
		case 7:			/* barrier counts */
			if (nb)
				tb->bar[below(t, nb)].producer_count += below(t, 3) - 1;
			else
				tb->d->num_barriers = 1;
			break;
		case 8: {		/* a ref's index, flags */
			struct dla_buf_ref *r = chance(t, 50) ? &op->src : &op->dst;

			if (chance(t, 60))
				r->index = chance(t, 50) ? below(t, 70) : rand_u32(t);
			else
				r->flags ^= 1u << below(t, 3);
			break;
		}
		case 9: {		/* a ref's range */
			struct dla_buf_ref *r = chance(t, 50) ? &op->src : &op->dst;

			if (chance(t, 50))
				r->offset = rand_u32(t);
			else
				r->size = chance(t, 50) ? r->size + 1 + below(t, 8192) : rand_u32(t);
			break;
		}
		case 10:		/* shape */
			if (chance(t, 50))
				op->count[below(t, 3)] = chance(t, 50) ? below(t, 3) : rand_u32(t);
			else if (chance(t, 50))
				op->src_stride[below(t, 3)] = rand_u32(t);
			else
				op->len = chance(t, 30) ? 0 : rand_u32(t);
			break;
		case 12:		/* a DPU or SHAVE field: shape, op, kernel, refs */
			if (ndpu && (!nshave || chance(t, 50))) {
				struct dla_dpu_op *d = &tb->dpu[below(t, ndpu)];
				unsigned char *p = (unsigned char *)d + sizeof(d->deps);

				o = below(t, (unsigned int)(sizeof(*d) - sizeof(d->deps)) / 2) * 2;
				if (chance(t, 50)) {
					dla_u16 v = (dla_u16)(chance(t, 50) ? below(t, 10) : rand_u32(t));

					memcpy(p + o, &v, 2);
				} else {
					p[o] ^= 1u << below(t, 8);
				}
			} else if (nshave) {
				struct dla_shave_op *sh = &tb->shave[below(t, nshave)];

				if (chance(t, 40))
					sh->kernel_id = below(t, 10);
				else if (chance(t, 50))
					sh->windows[below(t, 8)].size = rand_u32(t);
				else
					sh->args.size = chance(t, 50) ? below(t, 5000) : rand_u32(t);
			}
			break;
		default:		/* reserved words, flags, version */
			switch (below(t, 5)) {
			case 0: op->reserved = 1; break;
			case 1: op->flags = rand_u32(t); break;
			case 2: tb->d->flags = 1u << (1 + below(t, 31)); break;
			case 3: tb->d->version_minor++; break;
			default: tb->d->reserved[below(t, 3)] = 1; break;
			}
			break;
		}
	}
}

static void do_submit(struct thr *t, struct file *f)
{
	struct drm_vpux_buf list[FUZZ_MAX_ADDR_ENTRIES];
	struct drm_vpux_syncobj in[4];
	struct entry ent[8];
	struct drm_vpux_submit s;
	unsigned int nent, ndma, ndpu, nshave, nall, nb, i, mode;
	struct dla_op_deps *deps[12];
	int clean = 1, fault = 0, sync_wait, ret;
	__u32 args_off;
	unsigned char *task;
	struct tb tb;
	__u32 h;

	if (task_bo(t, f))
		return;
	while (f->nbo < 2) {
		h = 0;
		if (bo_create(t, f, good_size(t), 0, &h) || !h)
			return;
		pool_add(t, f, h);
		if (f->nbo == 0)
			return;
	}
	memset(list, 0, sizeof(list));
	nent = 2 + below(t, 4);		/* entry 0 is the task */
	for (i = 1; i < nent; i++) {
		struct bo *b = &f->bo[below(t, f->nbo)];
		__u64 off = chance(t, 70) ? 0 : below(t, (unsigned int)b->size / 2) & ~4095u;

		list[i - 1] = (struct drm_vpux_buf){ .handle = b->handle, .offset = off,
						     .size = b->size - off };
		if (chance(t, 20))
			list[i - 1].size = 1 + below(t, (unsigned int)(b->size - off));
		ent[i].size = list[i - 1].size;
		ent[i].writable = !(b->flags & DRM_VPUX_BO_DEVICE_READONLY);
	}
	/* once in a while a write to a read-only BO: a fault, a ban */
	fault = !no_fault && chance(t, 2);

	f->task_slot = (f->task_slot + 1) % (TASK_BO_SIZE / TASK_SLOT);
	task = f->task_map + f->task_slot * TASK_SLOT;
	ndma = 1 + below(t, 4);
	/* few: the model computes them under KASAN and KCOV, in TCG */
	ndpu = chance(t, 6) && !no_compute ? 1 + below(t, 2) : 0;
	nshave = chance(t, 4) && !no_compute ? 1 + below(t, 2) : 0;
	nall = ndma + ndpu + nshave;
	mode = below(t, 3);
	nb = mode == 0 ? 0 : mode == 1 ? nall - 1 : (nall > 1);
	tb_init(&tb, task, nb, ndma, ndpu, nshave);
	args_off = (__u32)(tb.size + 7) & ~7u;
	for (i = 0; i < ndma; i++) {
		build_dma(t, &tb.dma[i], ent, nent, fault);
		deps[i] = &tb.dma[i].deps;
	}
	for (i = 0; i < ndpu; i++) {
		build_dpu(t, &tb.dpu[i], ent, nent);
		deps[ndma + i] = &tb.dpu[i].deps;
	}
	for (i = 0; i < nshave; i++) {
		build_shave(t, &tb.shave[i], task, args_off, ent, nent);
		/* a third are ELF kernels: random code on a SHAVE core */
		if (chance(t, 33) && args_off + sizeof(struct clamp_args) +
		    4 * ELF_CODE_WORDS <= TASK_SLOT) {
			build_elf(t, &tb.shave[i], task, args_off,
				  args_off + sizeof(struct clamp_args), ent, nent);
			add(&st->elf_ops, 1);
		}
		args_off += sizeof(struct clamp_args) + 4 * ELF_CODE_WORDS;
		deps[ndma + ndpu + i] = &tb.shave[i].deps;
	}
	if (mode == 1) {		/* a chain */
		for (i = 0; i + 1 < nall; i++) {
			tb_update(&tb, deps[i], i);
			tb_wait(&tb, deps[i + 1], i);
		}
	} else if (mode == 2 && nall > 1) {	/* all into the last */
		for (i = 0; i + 1 < nall; i++)
			tb_update(&tb, deps[i], 0);
		tb_wait(&tb, deps[nall - 1], 0);
	}
	if (fault)
		clean = 0;
	/* compute results depend on data and model limits: not checked */
	if (ndpu || nshave)
		clean = 0;
	if (!no_mutate && chance(t, 25)) {
		mutate(t, task, tb.size, &tb, ndma, ndpu, nshave, nb);
		add(&st->mutated, 1);
		clean = 0;
	}

	memset(&s, 0, sizeof(s));
	s.task = (struct drm_vpux_buf){ .handle = f->task_h,
					.offset = f->task_slot * TASK_SLOT,
					.size = chance(t, 80) && !nshave ? tb.size : TASK_SLOT };
	s.buffers = (uintptr_t)list;
	s.buffer_count = nent - 1;
	if (f->nqueue && chance(t, 40))
		s.queue_id = f->queue[below(t, f->nqueue)];
	if (chance(t, 20) && f->nsync) {
		unsigned int n = 1 + below(t, 4);

		for (i = 0; i < n; i++) {
			int k = below(t, f->nsync);

			in[i] = (struct drm_vpux_syncobj){ .handle = f->sync[k],
				.point = chance(t, 60) ? 0 : f->point[k] ? 1 + below(t, (unsigned int)f->point[k]) : 1 };
		}
		s.in_syncobjs = (uintptr_t)in;
		s.in_syncobj_count = n;
		clean = 0;	/* an in-fence may have failed */
	}
	if (chance(t, 20) && f->nsync) {
		int k = below(t, f->nsync);

		s.out_syncobj = f->sync[k];
		if (chance(t, 50))
			s.out_point = ++f->point[k];
	}
	/* a profile range (uapi 1.4), mostly a valid one, never task memory */
	if (chance(t, 15)) {
		__u32 h = pick_bo_handle(t, f);

		if (h != f->task_h) {
			s.flags = DRM_VPUX_SUBMIT_PROFILE;
			s.profile = (struct drm_vpux_buf){ .handle = h,
				.offset = chance(t, 90) ? 8 * below(t, 64) : rnd(t),
				.size = chance(t, 90) ? 16 + 4 * below(t, 64) : rnd(t) };
		}
	}
	/* broken arguments */
	if (chance(t, 12)) {
		clean = 0;
		switch (below(t, 18)) {
		case 17: s.in_syncobj_count = 65 + below(t, 100); break;
		case 15: s.queue_id = chance(t, 50) ? below(t, FUZZ_MAX_QUEUES + 2) : rand_u32(t); break;
		case 16: s.profile.pad = rand_u32(t); break;
		case 0: s.flags = 1u << below(t, 32); break;
		case 1: s.pad = rand_u32(t); break;
		case 2: s.queue_id = 0x10000 + below(t, 100); break;
		case 3: s.buffer_count = chance(t, 50) ? below(t, 64) : rand_u32(t); break;
		case 4: s.buffers = (uintptr_t)bad_ptr(t); break;
		case 5: s.task.offset = chance(t, 50) ? rnd(t) : TASK_BO_SIZE - below(t, 64); break;
		case 6: s.task.size = chance(t, 30) ? 0 : rnd(t); break;
		case 7: s.task.handle = pick_bo_handle(t, f); break;
		case 8: s.task.pad = rand_u32(t); break;
		case 9: {
			struct drm_vpux_buf *b = &list[below(t, nent - 1)];

			switch (below(t, 4)) {
			case 0:
				b->handle = pick_bo_handle(t, f) + below(t, 2);
				if (b->handle == f->task_h)	/* keep task memory intact */
					b->handle = 0;
				break;
			case 1: b->offset = rand_u32(t); break;
			case 2: b->size = chance(t, 30) ? 0 : b->size + 1 + below(t, 4096); break;
			default: b->pad = 1; break;
			}
			break;
		}
		case 10:
			s.in_syncobj_count = chance(t, 50) ? 65 : 1 + below(t, 64);
			s.in_syncobjs = chance(t, 50) ? (uintptr_t)bad_ptr(t) : (uintptr_t)list;
			break;
		case 11: s.out_syncobj = pick_sync(t, f); break;
		case 12: s.out_point = 1 + below(t, 100); break;
		case 13:	/* a profile range without the flag, or a bad one */
			s.profile.handle = pick_bo_handle(t, f);
			s.profile.pad = chance(t, 30);
			s.profile.offset = chance(t, 50) ? 1 + below(t, 7) : rnd(t);
			s.profile.size = below(t, 16);
			if (chance(t, 50) && s.profile.handle != f->task_h)
				s.flags = DRM_VPUX_SUBMIT_PROFILE;
			break;
		default:
			in[0] = (struct drm_vpux_syncobj){ .handle = pick_sync(t, f),
				.pad = chance(t, 20), .point = below(t, 10) };
			s.in_syncobjs = (uintptr_t)in;
			s.in_syncobj_count = 1;
			break;
		}
	}
	if (chance(t, 1)) {
		account(t, OP_SUBMIT, xioctl(f->fd, DRM_IOCTL_VPUX_SUBMIT, bad_ptr(t)));
		return;
	}
	ret = xioctl(f->fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (account(t, OP_SUBMIT, ret))
		return;
	if (ret == -EBADFD) {
		/* a job of this file faulted or hung: start afresh */
		add(&st->banned, 1);
		reopen(t, f);
		return;
	}
	if (ret == -EBUSY) {
		/* 256 jobs in flight: wait for the oldest we know */
		wait_job(t, f, f->seq[f->nseq % NSEQ], now_ns() + 3000000000ll, -1, 0);
		return;
	}
	if (ret)
		return;
	add(&st->submitted, 1);
	if (!s.seqno)
		fail(t, "SUBMIT returned job number 0");
	seq_add(f, s.seqno);
	/*
	 * Waited for at once, a valid job is checked: its task slot cannot
	 * be rewritten before it ran (later, it may: its result is then
	 * whatever the core makes of the new content).
	 */
	sync_wait = chance(t, 25);
	if (sync_wait)
		wait_job(t, f, s.seqno, now_ns() + 4000000000ll, (f->nseq - 1) % NSEQ,
			 clean);
}

/* ---- KCOV coverage (--kcov FILE) ------------------------------------ */

/*
 * Where the kernel has KCOV (/sys/kernel/debug/kcov), --kcov collects the
 * program counters the fuzzer reaches inside vpux_accel: every fuzzing
 * thread traces its own system calls (KCOV_ENABLE); each process's main
 * thread registers a common handle (KCOV_REMOTE_ENABLE, inherited by the
 * threads it creates afterwards) under which the driver reports the work
 * its scheduler, bottom-half and engine workers do for the jobs (remote
 * coverage, kmd/vpux_sched.c), and harvests that. PCs are deduplicated
 * in a table shared by all processes and written out at the end, with
 * the module's section addresses, for tools/vm/kcov-report.sh. Without
 * KCOV the option only prints why there is no coverage.
 */
#define KCOV_TABLE	(1u << 17)	/* > instrumented PCs in the module */
#define KCOV_TASK_SIZE	(1u << 19)	/* entries, per fuzzing thread */
#define KCOV_REMOTE_SIZE (1u << 21)	/* entries, per process (remote) */
#define KCOV_SECTION_SIZE (1u << 17)	/* entries, per remote section */
#define KCOV_MAX_SECTIONS 16
#define KCOV_EDGE_BITS	(1u << 22)	/* hashed edges: the guidance's signal */

struct kcov_table {
	uint64_t lo, hi;		/* the module's text, roughly */
	uint64_t pc[KCOV_TABLE];
	uint8_t how[KCOV_TABLE];	/* 1: task, 2: remote */
	uint64_t count, full;
	uint64_t overflows[3];		/* buffer full, by how */
	uint64_t new_by_op[NOPS];	/* first reached by which call */
	uint64_t remote_procs;		/* processes with remote coverage */
	uint64_t edges;			/* distinct edges (PC pairs) seen */
	uint64_t edge_bits[KCOV_EDGE_BITS / 64];	/* hashed PC pairs seen */
};

static const char *kcov_out;		/* --kcov FILE, "-": TAP comments */
static struct kcov_table *kc;		/* shared; NULL: no coverage */
static char kcov_sect[KCOV_MAX_SECTIONS][32];
static uint64_t kcov_sect_addr[KCOV_MAX_SECTIONS];
static int kcov_nsect;
static uint64_t kcov_coresize;

struct kcov_buf {
	int fd;
	unsigned long *area;
	size_t size;
};

static int kcov_add(uint64_t pc, uint8_t how)
{
	uint32_t i = (uint32_t)((pc * 0x9e3779b97f4a7c15ull) >> 40) & (KCOV_TABLE - 1);
	uint32_t n;

	for (n = 0; n < KCOV_TABLE; n++, i = (i + 1) & (KCOV_TABLE - 1)) {
		uint64_t cur = __atomic_load_n(&kc->pc[i], __ATOMIC_ACQUIRE);

		if (!cur) {
			if (__atomic_compare_exchange_n(&kc->pc[i], &cur, pc, 0,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				__atomic_fetch_or(&kc->how[i], how, __ATOMIC_RELAXED);
				add(&kc->count, 1);
				return 1;
			}
		}
		if (cur == pc) {
			if (!(__atomic_load_n(&kc->how[i], __ATOMIC_RELAXED) & how))
				__atomic_fetch_or(&kc->how[i], how, __ATOMIC_RELAXED);
			return 0;
		}
	}
	add(&kc->full, 1);
	return 0;
}

/*
 * Take the PCs recorded in @b and empty it. The count is reset with a
 * compare-and-swap: the kernel appends remote coverage at any time, and
 * what it appended after we read the count is read next time.
 */
static unsigned int kcov_harvest(struct kcov_buf *b, uint8_t how, unsigned int *edges)
{
	unsigned long n = __atomic_load_n(&b->area[0], __ATOMIC_ACQUIRE), i, done = 0;
	unsigned int fresh = 0;
	uint64_t prev = 0;

	for (;;) {
		if (n > b->size - 1)
			n = b->size - 1;
		if (n >= b->size - 1)
			add(&kc->overflows[how], 1);
		for (i = done; i < n; i++) {
			uint64_t pc = __atomic_load_n(&b->area[i + 1], __ATOMIC_RELAXED);

			if (pc < kc->lo || pc >= kc->hi)
				continue;
			fresh += kcov_add(pc, how);
			if (edges) {
				/* the module's PCs in the order the call reached them */
				uint64_t h = ((prev * 0x9e3779b97f4a7c15ull) ^ pc) * 0xff51afd7ed558ccdull;
				uint32_t bit = (uint32_t)(h >> 40) & (KCOV_EDGE_BITS - 1);
				uint64_t mask = 1ull << (bit & 63);

				if (!(__atomic_load_n(&kc->edge_bits[bit / 64], __ATOMIC_RELAXED) & mask) &&
				    !(__atomic_fetch_or(&kc->edge_bits[bit / 64], mask,
							__ATOMIC_RELAXED) & mask)) {
					add(&kc->edges, 1);
					(*edges)++;
				}
				prev = pc;
			}
		}
		done = n;
		if (__atomic_compare_exchange_n(&b->area[0], &n, 0, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return fresh;
		if (n < done)	/* emptied meanwhile: read from the start */
			done = 0;
	}
}

static int kcov_open(struct kcov_buf *b, size_t size)
{
	int ret;

	b->size = size;
	b->area = MAP_FAILED;
	b->fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (b->fd < 0)
		return -errno;
	if (ioctl(b->fd, KCOV_INIT_TRACE, size) < 0)
		goto err;
	b->area = mmap(NULL, size * sizeof(unsigned long), PROT_READ | PROT_WRITE,
		       MAP_SHARED, b->fd, 0);
	if (b->area == MAP_FAILED)
		goto err;
	return 0;
err:
	ret = -errno;
	close(b->fd);
	b->fd = -1;
	return ret;
}

static void kcov_close(struct kcov_buf *b)
{
	if (b->fd < 0)
		return;
	ioctl(b->fd, KCOV_DISABLE, 0);
	if (b->area != MAP_FAILED)
		munmap(b->area, b->size * sizeof(unsigned long));
	close(b->fd);
	b->fd = -1;
}

/* A fuzzing thread: trace its own system calls. */
static void kcov_thread_start(struct kcov_buf *b)
{
	b->fd = -1;
	if (!kc || kcov_open(b, KCOV_TASK_SIZE))
		return;
	if (ioctl(b->fd, KCOV_ENABLE, KCOV_TRACE_PC) < 0)
		kcov_close(b);
	else
		__atomic_store_n(&b->area[0], 0, __ATOMIC_RELEASE);
}

/* A process's main thread, before it creates the fuzzing threads. */
static void kcov_remote_begin(struct kcov_buf *b)
{
	struct kcov_remote_arg arg = {
		.trace_mode = KCOV_TRACE_PC,
		.area_size = KCOV_SECTION_SIZE,
		.common_handle = (uint64_t)getpid() & 0xffffffffu,
	};

	b->fd = -1;
	if (!kc || kcov_open(b, KCOV_REMOTE_SIZE))
		return;
	if (ioctl(b->fd, KCOV_REMOTE_ENABLE, &arg) < 0) {
		kcov_close(b);
		return;
	}
	add(&kc->remote_procs, 1);
}

/* Read the module's text range; 0 if coverage can be collected. */
static int kcov_setup(char *why, size_t len)
{
	static const char dir[] = "/sys/module/vpux_accel/sections";
	struct kcov_buf probe;
	struct dirent *de;
	FILE *fp;
	DIR *d;
	int ret = kcov_open(&probe, 4096 / sizeof(unsigned long));

	if (ret) {
		snprintf(why, len, "/sys/kernel/debug/kcov: %s", strerror(-ret));
		return -1;
	}
	kcov_close(&probe);
	fp = fopen("/sys/module/vpux_accel/coresize", "r");
	if (!fp || fscanf(fp, "%" SCNu64, &kcov_coresize) != 1) {
		snprintf(why, len, "/sys/module/vpux_accel/coresize unreadable");
		if (fp)
			fclose(fp);
		return -1;
	}
	fclose(fp);
	d = opendir(dir);
	while (d && (de = readdir(d)) && kcov_nsect < KCOV_MAX_SECTIONS) {
		char path[300];

		if (!strstr(de->d_name, "text") || strlen(de->d_name) >= sizeof(kcov_sect[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		if (fscanf(fp, "%" SCNx64, &kcov_sect_addr[kcov_nsect]) == 1 &&
		    kcov_sect_addr[kcov_nsect]) {
			strcpy(kcov_sect[kcov_nsect], de->d_name);
			kcov_nsect++;
		}
		fclose(fp);
	}
	if (d)
		closedir(d);
	if (!kcov_nsect) {
		snprintf(why, len, "%s: no text section address", dir);
		return -1;
	}
	kc = mmap(NULL, sizeof(*kc), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kc == MAP_FAILED) {
		kc = NULL;
		snprintf(why, len, "mmap: %s", strerror(errno));
		return -1;
	}
	kc->lo = UINT64_MAX;
	for (ret = 0; ret < kcov_nsect; ret++)
		if (kcov_sect_addr[ret] < kc->lo)
			kc->lo = kcov_sect_addr[ret];
	/* the core image: text first, then (if not separate) data */
	kc->hi = kc->lo + kcov_coresize;
	return 0;
}

static int pc_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void kcov_write_pcs(FILE *fp, const char *tag, uint64_t *pcs, size_t n)
{
	char line[256];
	size_t i, k;
	int len;

	qsort(pcs, n, sizeof(*pcs), pc_cmp);
	for (i = 0; i < n; i += 8) {
		len = snprintf(line, sizeof(line), "# %s", tag);
		for (k = 0; k < 8 && i + k < n; k++)
			len += snprintf(line + len, sizeof(line) - len, " %" PRIx64, pcs[i + k]);
		fprintf(fp, "%s\n", line);
	}
}

/*
 * Write the sections and the PCs (as TAP comments when FILE is "-"):
 * "kcov-pc" lines hold every PC, "kcov-rpc" lines again those only the
 * driver's workers reached (remote coverage).
 */
static void kcov_write(void)
{
	uint64_t *pcs = calloc(KCOV_TABLE, sizeof(*pcs));
	uint64_t *rpcs = calloc(KCOV_TABLE, sizeof(*rpcs));
	FILE *fp = strcmp(kcov_out, "-") ? fopen(kcov_out, "w") : stdout;
	size_t n = 0, rn = 0, i;
	char line[1024];
	int k, len;

	if (!pcs || !rpcs || !fp) {
		printf("# kcov: cannot write %s: %s\n", kcov_out, strerror(errno));
		free(pcs);
		free(rpcs);
		return;
	}
	for (i = 0; i < KCOV_TABLE; i++) {
		if (!kc->pc[i])
			continue;
		pcs[n++] = kc->pc[i];
		if (!(kc->how[i] & 1))
			rpcs[rn++] = kc->pc[i];
	}
	fprintf(fp, "# kcov: module vpux_accel coresize %" PRIu64 "\n", kcov_coresize);
	for (k = 0; k < kcov_nsect; k++)
		fprintf(fp, "# kcov: section %s 0x%" PRIx64 "\n", kcov_sect[k], kcov_sect_addr[k]);
	kcov_write_pcs(fp, "kcov-pc", pcs, n);
	kcov_write_pcs(fp, "kcov-rpc", rpcs, rn);
	if (fp != stdout)
		fclose(fp);
	printf("# kcov: %zu PCs in vpux_accel (%zu reached by the fuzzer's calls, %zu"
	       " only by the driver's workers; %" PRIu64 " processes with remote"
	       " coverage; buffer overflows: task %" PRIu64 ", remote %" PRIu64 ")%s%s\n",
	       n, n - rn, rn, kc->remote_procs, kc->overflows[1], kc->overflows[2],
	       fp == stdout ? "" : ", written to ", fp == stdout ? "" : kcov_out);
	len = snprintf(line, sizeof(line), "# kcov: PCs first reached by");
	for (k = 0; k < NOPS; k++)
		if (kc->new_by_op[k] && len < (int)sizeof(line) - 48)
			len += snprintf(line + len, sizeof(line) - len, " %s %" PRIu64,
					op_name[k], kc->new_by_op[k]);
	printf("%s\n", line);
	free(pcs);
	free(rpcs);
}

/* ---- threads and processes ------------------------------------------ */

static enum op pick_op(struct thr *t)
{
	unsigned int total = 0, r, i;

	for (i = 0; i < NOPS; i++)
		total += op_weight[i];
	r = below(t, total);
	for (i = 0; i < NOPS; i++) {
		if (r < op_weight[i])
			return i;
		r -= op_weight[i];
	}
	return OP_GET_PARAM;
}

static uint64_t proc_threads_done;	/* threads of this process that ended */

static void run_op(struct thr *t, struct file *f, enum op op)
{
	switch (op) {
	case OP_GET_PARAM: do_get_param(t, f); break;
	case OP_BO_CREATE: do_bo_create(t, f); break;
	case OP_BO_INFO: do_bo_info(t, f); break;
	case OP_SUBMIT: do_submit(t, f); break;
	case OP_WAIT: do_wait(t, f); break;
	case OP_GEM_CLOSE: do_gem_close(t, f); break;
	case OP_PRIME_EXPORT: do_prime(t, f); break;
	case OP_MMAP: do_mmap(t, f); break;
	case OP_SYNC_CREATE: do_sync_create(t, f); break;
	case OP_SYNC_DESTROY: do_sync_destroy(t, f); break;
	case OP_SYNC_EXPORT: do_sync_export(t, f); break;
	case OP_SYNC_WAIT: do_sync_wait(t, f, 0); break;
	case OP_SYNC_TL_WAIT: do_sync_wait(t, f, 1); break;
	case OP_SYNC_RESET: case OP_SYNC_SIGNAL: case OP_SYNC_TL_SIGNAL:
	case OP_SYNC_QUERY:
		do_sync_array(t, f, op);
		break;
	case OP_QUEUE_CREATE: do_queue_create(t, f); break;
	case OP_QUEUE_DESTROY: do_queue_destroy(t, f); break;
	case OP_BO_WAIT: do_bo_wait(t, f); break;
	case OP_DEBUGFS: do_debugfs(t, f); break;
	case OP_SYSFS: do_sysfs(t, f); break;
	case OP_TRACE: do_trace(t, f); break;
	case OP_NETLINK: do_netlink(t, f); break;
	case OP_REOPEN:
		add(&st->reopened, 1);
		reopen(t, f);	/* with its jobs still queued */
		break;
	default: break;
	}
}

/* ---- coverage guidance ------------------------------------------------ */

/*
 * With KCOV, every program whose calls reached a PC or an edge (a pair of
 * consecutive PCs of the module in one call) no call had reached before
 * goes into a corpus shared by all processes; most programs are then a
 * corpus program, mutated: choices flipped, set to interesting values,
 * nudged, redrawn or cut off, calls inserted, removed, duplicated, moved
 * to the other file, given another op, or spliced with another program.
 * Without KCOV (or with --no-guide) every program is drawn fresh.
 */
#define CORPUS_MAX	2048

struct corpus {
	pthread_mutex_t lock;
	uint32_t n;
	uint64_t programs, mutated, kept, replaced, signal;
	struct prog p[CORPUS_MAX];
};

static struct corpus *corp;		/* shared; NULL: no guidance */
static int no_guide;

static void corpus_add(struct thr *t, const struct prog *p)
{
	pthread_mutex_lock(&corp->lock);
	if (corp->n < CORPUS_MAX) {
		corp->p[corp->n++] = *p;
	} else {
		corp->p[below(t, CORPUS_MAX)] = *p;
		corp->replaced++;
	}
	corp->kept++;
	pthread_mutex_unlock(&corp->lock);
}

static int corpus_pick(struct thr *t, struct prog *p)
{
	uint32_t n, i;

	pthread_mutex_lock(&corp->lock);
	n = corp->n;
	if (n) {
		/* the newest inputs a little more often */
		i = n > 32 && chance(t, 30) ? n - 1 - below(t, 32) : below(t, n);
		*p = corp->p[i];
	}
	pthread_mutex_unlock(&corp->lock);
	return n ? 0 : -1;
}

struct seg {
	uint8_t op, file;
	uint16_t len;
	uint64_t *tape;		/* into the program copied, or the spliced one */
};

static void prog_build(struct prog *p, const struct seg *sg, unsigned int n)
{
	unsigned int c, len;

	p->ncalls = 0;
	p->ntape = 0;
	for (c = 0; c < n && c < PROG_CALLS; c++) {
		len = sg[c].len;
		if (len > PROG_TAPE - (unsigned int)p->ntape)
			len = PROG_TAPE - (unsigned int)p->ntape;
		p->op[c] = sg[c].op;
		p->file[c] = sg[c].file;
		p->start[c] = p->ntape;
		if (len)
			memmove(p->tape + p->ntape, sg[c].tape, len * sizeof(uint64_t));
		p->ntape += len;
		p->ncalls++;
	}
	p->start[p->ncalls] = p->ntape;
}

static void prog_generate(struct thr *t, struct prog *p)
{
	struct seg sg[PROG_CALLS];
	unsigned int n = 1 + below(t, 8), c;

	for (c = 0; c < n; c++)
		sg[c] = (struct seg){ .op = pick_op(t), .file = !chance(t, 85) };
	prog_build(p, sg, n);
}

static void prog_mutate(struct thr *t, struct prog *p)
{
	static const uint64_t interesting[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256,
		4095, 4096, 65535, 65536, 0x7fffffff, 0x80000000ull, 0xffffffffull,
		0x100000000ull, ~0ull, ~0ull - 1, 1ull << 63,
	};
	static __thread struct prog old, splice;
	struct seg sg[2 * PROG_CALLS];
	unsigned int n, k, c, i, len, rounds = 1 + below(t, 3);
	uint64_t *v;

	old = *p;
	n = old.ncalls;
	for (c = 0; c < n; c++)
		sg[c] = (struct seg){ old.op[c], old.file[c],
				      (uint16_t)(old.start[c + 1] - old.start[c]),
				      old.tape + old.start[c] };
	for (k = 0; k < rounds; k++) {
		c = below(t, n);
		len = n ? sg[c].len : 0;
		switch (below(t, 12)) {
		case 0: case 1: case 2: case 3:	/* one choice */
			if (!len)
				break;
			v = &sg[c].tape[below(t, len)];
			switch (below(t, 5)) {
			case 0: *v ^= 1ull << below(t, chance(t, 70) ? 8 : 64); break;
			case 1: *v = interesting[below(t, sizeof(interesting) / 8)]; break;
			case 2: *v += (uint64_t)below(t, 33) - 16; break;
			case 3: *v = ~*v; break;
			default: *v = rnd(t); break;
			}
			break;
		case 4:		/* the rest of a call's choices drawn fresh */
			if (len)
				sg[c].len = below(t, len);
			break;
		case 5:		/* another op, same choices */
			if (n)
				sg[c].op = pick_op(t);
			break;
		case 6:		/* the other file */
			if (n)
				sg[c].file ^= 1;
			break;
		case 7: case 8:	/* a new call, or a copy of one */
			if (n >= PROG_CALLS)
				break;
		{
			struct seg s = { .op = pick_op(t), .file = !chance(t, 85) };

			if (n && chance(t, 50))
				s = sg[below(t, n)];
			i = below(t, n + 1);
			memmove(&sg[i + 1], &sg[i], (n - i) * sizeof(sg[0]));
			sg[i] = s;
			n++;
		}
			break;
		case 9:		/* a call less */
			if (n > 1) {
				memmove(&sg[c], &sg[c + 1], (n - c - 1) * sizeof(sg[0]));
				n--;
			}
			break;
		case 10:	/* two calls swapped */
			if (n > 1) {
				struct seg tmp = sg[c];

				i = below(t, n);
				sg[c] = sg[i];
				sg[i] = tmp;
			}
			break;
		default:	/* splice: the tail of another program */
			if (k || corpus_pick(t, &splice) || !splice.ncalls)
				break;
			i = below(t, splice.ncalls);
			for (c = below(t, n + 1); i < splice.ncalls && c < PROG_CALLS; i++, c++)
				sg[c] = (struct seg){ splice.op[i], splice.file[i],
						      (uint16_t)(splice.start[i + 1] - splice.start[i]),
						      splice.tape + splice.start[i] };
			n = c;
			break;
		}
	}
	prog_build(p, sg, n);
}

/* Run @in, recording what its calls drew in @rec; the new coverage. */
static unsigned int run_prog(struct thr *t, const struct prog *in, struct prog *rec,
			     struct kcov_buf *kb, uint64_t quota)
{
	unsigned int c, signal = 0;

	rec->ncalls = 0;
	rec->ntape = 0;
	rec->start[0] = 0;
	for (c = 0; c < in->ncalls && t->call < quota && now_ns() < t_end; c++, t->call++) {
		enum op op = in->op[c] < NOPS ? in->op[c] : OP_GET_PARAM;
		struct file *f = &t->f[in->file[c] & 1];
		unsigned int e = 0, fresh;

		rec->op[c] = op;
		rec->file[c] = in->file[c] & 1;
		rec->start[c] = rec->ntape;
		t->in = in->tape + in->start[c];
		t->nin = in->start[c + 1] - in->start[c];
		t->pos = 0;
		t->rec = rec;
		if (f->fd < 0) {
			reopen(t, f);
			op = OP_REOPEN;
		} else {
			run_op(t, f, op);
		}
		t->rec = NULL;
		t->nin = 0;
		rec->ncalls = c + 1;
		rec->start[c + 1] = rec->ntape;
		if (kb->fd >= 0) {
			fresh = kcov_harvest(kb, 1, &e);
			add(&kc->new_by_op[op], fresh);
			signal += fresh + e;
		}
	}
	return signal;
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	uint64_t quota = cfg.calls / (cfg.procs * cfg.threads);
	struct prog *in = malloc(sizeof(*in)), *rec = malloc(sizeof(*rec));
	struct kcov_buf kb;

	if (!quota)
		quota = 1;
	if (!in || !rec) {
		fail(t, "out of memory");
		free(in);
		free(rec);
		add(&proc_threads_done, 1);
		return NULL;
	}
	/*
	 * One thread per process without CAP_SYS_NICE in its effective set
	 * (capabilities are per thread): its HIGH and REALTIME queues and
	 * jobs are refused with -EPERM.
	 */
	if (t->id == 1) {
		struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
		struct __user_cap_data_struct d[2];

		if (!syscall(SYS_capget, &h, d)) {
			d[CAP_SYS_NICE / 32].effective &= ~(1u << (CAP_SYS_NICE % 32));
			syscall(SYS_capset, &h, d);
		}
	}
	kcov_thread_start(&kb);
	t->f[0].fd = t->f[1].fd = -1;
	t->nl_listen = -1;
	file_open(t, &t->f[0], (t->proc + t->id) % cfg.ndev);
	file_open(t, &t->f[1], below(t, cfg.ndev));
	for (t->call = 0; t->call < quota && now_ns() < t_end;) {
		int guided = corp && chance(t, 85) && !corpus_pick(t, in);
		unsigned int signal;

		if (guided)
			prog_mutate(t, in);
		else
			prog_generate(t, in);
		signal = run_prog(t, in, rec, &kb, quota);
		if (corp) {
			add(&corp->programs, 1);
			add(&corp->mutated, guided);
			if (signal) {
				add(&corp->signal, signal);
				corpus_add(t, rec);
			}
		}
	}
	file_close(&t->f[0]);
	file_close(&t->f[1]);
	nl_thread_close(t);
	if (kb.fd >= 0) {
		add(&kc->new_by_op[OP_REOPEN], kcov_harvest(&kb, 1, NULL));
		kcov_close(&kb);
	}
	free(in);
	free(rec);
	add(&proc_threads_done, 1);
	add(&st->threads_done, 1);
	return NULL;
}

static int run_proc(int proc)
{
	struct thr *t = calloc(cfg.threads, sizeof(*t));
	struct kcov_buf rb;
	unsigned int i;

	if (!t)
		return 1;
	kcov_remote_begin(&rb);		/* the threads inherit its handle */
	for (i = 0; i < cfg.threads; i++) {
		t[i].proc = proc;
		t[i].id = i;
		t[i].rng = cfg.seed ^ ((uint64_t)(proc * 64 + i + 1) * 0xd1b54a32d192ed03ull);
		splitmix(&t[i].rng);
		if (pthread_create(&t[i].tid, NULL, thread_main, &t[i]))
			return 1;
	}
	while (rb.fd >= 0 && __atomic_load_n(&proc_threads_done, __ATOMIC_RELAXED) < cfg.threads) {
		kcov_harvest(&rb, 2, NULL);
		usleep(2000);
	}
	for (i = 0; i < cfg.threads; i++)
		pthread_join(t[i].tid, NULL);
	if (rb.fd >= 0) {
		usleep(300000);		/* the last jobs' workers */
		kcov_harvest(&rb, 2, NULL);
		kcov_close(&rb);
	}
	free(t);
	return 0;
}

/* ---- the check afterwards ------------------------------------------- */

static int map_bo(int fd, size_t size, __u32 *h, unsigned char **map)
{
	struct drm_vpux_bo_create c = { .size = size };
	struct drm_vpux_bo_info info;
	int ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_BO_CREATE, &c);

	if (ret)
		return ret;
	ret = bo_info(fd, c.handle, &info);
	if (ret)
		return ret;
	*h = c.handle;
	*map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, info.mmap_offset);
	return *map == MAP_FAILED ? -errno : 0;
}

/* A normal DMA job on device @dev: copy 64 KiB, verify every byte. */
static int device_works(int dev, char *why, size_t len)
{
	enum { SZ = 65536 };
	struct drm_vpux_submit s = { 0 };
	struct drm_vpux_wait w = { 0 };
	struct drm_vpux_buf list[2];
	unsigned char *tm, *a, *b;
	__u32 th, ah, bh;
	struct tb tb;
	int fd, ret, i;

	fd = vpux_open_nth(dev, NULL);
	if (fd < 0) {
		snprintf(why, len, "open: %d", fd);
		return 0;
	}
	if ((ret = map_bo(fd, 4096, &th, &tm)) || (ret = map_bo(fd, SZ, &ah, &a)) ||
	    (ret = map_bo(fd, SZ, &bh, &b))) {
		snprintf(why, len, "BO: %d", ret);
		close(fd);
		return 0;
	}
	for (i = 0; i < SZ; i++)
		a[i] = (unsigned char)(i * 13 + dev + 1);
	tb_init(&tb, tm, 1, 2, 0, 0);
	tb_copy(&tb.dma[0], tb_ref(1, 0, SZ / 2), tb_ref(2, SZ / 2, SZ / 2), SZ / 2);
	tb_copy(&tb.dma[1], tb_ref(1, SZ / 2, SZ / 2), tb_ref(2, 0, SZ / 2), SZ / 2);
	tb_update(&tb, &tb.dma[0].deps, 0);
	tb_wait(&tb, &tb.dma[1].deps, 0);
	list[0] = (struct drm_vpux_buf){ .handle = ah, .size = SZ };
	list[1] = (struct drm_vpux_buf){ .handle = bh, .size = SZ };
	s.task = (struct drm_vpux_buf){ .handle = th, .size = tb.size };
	s.buffers = (uintptr_t)list;
	s.buffer_count = 2;
	ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret) {
		w.seqno = s.seqno;
		w.timeout_ns = now_ns() + 10000000000ll;
		ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_WAIT, &w);
	}
	if (ret || w.status != DRM_VPUX_STATUS_DONE) {
		snprintf(why, len, "job: %d, status %u error %d", ret, w.status, wait_error(&w));
		close(fd);
		return 0;
	}
	ret = memcmp(a, b + SZ / 2, SZ / 2) || memcmp(a + SZ / 2, b, SZ / 2);
	close(fd);
	if (ret)
		snprintf(why, len, "data differs");
	return !ret;
}

/* ---- main ------------------------------------------------------------ */

static void report(double elapsed)
{
	uint64_t total = 0;
	int op, e;

	for (op = 0; op < NOPS; op++) {
		char line[1024];
		int n;

		if (!st->calls[op])
			continue;
		total += st->calls[op];
		n = snprintf(line, sizeof(line), "# %-24s %8" PRIu64 " calls, %" PRIu64 " ok",
			     op_name[op], st->calls[op], st->err[op][0]);
		for (e = 1; e < NERR; e++)
			if (st->err[op][e] && n < (int)sizeof(line) - 40)
				n += snprintf(line + n, sizeof(line) - n, ", %s %" PRIu64,
					      strerrorname_np(e) ? strerrorname_np(e) : "E?",
					      st->err[op][e]);
		printf("%s\n", line);
	}
	printf("# calls: %" PRIu64 " in total, %.0f calls/s\n", total,
	       elapsed > 0 ? total / elapsed : 0.0);
	if (corp)
		printf("# guidance: %" PRIu64 " programs, %" PRIu64 " mutated from the corpus;"
		       " %" PRIu64 " inputs with new coverage kept (corpus %u, %" PRIu64
		       " replaced); %" PRIu64 " edges\n",
		       corp->programs, corp->mutated, corp->kept, corp->n, corp->replaced,
		       kc->edges);
	else
		printf("# guidance: none (%s)\n", kc ? "--no-guide" : "no KCOV");
	printf("# jobs: %" PRIu64 " submitted (%" PRIu64 " mutated), results seen: done %"
	       PRIu64 ", error %" PRIu64 ", mmu fault %" PRIu64 ", timeout %" PRIu64
	       ", aborted %" PRIu64 "; %" PRIu64 " valid jobs checked\n",
	       st->submitted, st->mutated, st->status[DRM_VPUX_STATUS_DONE],
	       st->status[DRM_VPUX_STATUS_ERROR], st->status[DRM_VPUX_STATUS_MMU_FAULT],
	       st->status[DRM_VPUX_STATUS_TIMEOUT], st->status[DRM_VPUX_STATUS_ABORTED],
	       st->clean_checked);
	printf("# ELF kernel ops (random RV32IMF code): %" PRIu64 "\n", st->elf_ops);
	printf("# MMU faults %" PRIu64 ", hangs %" PRIu64 ", files banned %" PRIu64
	       " (reopened), files reopened at random %" PRIu64 "\n",
	       st->mmu_faults, st->timeouts, st->banned, st->reopened);
}

static void usage(const char *argv0, int status)
{
	fprintf(status ? stderr : stdout,
		"usage: %s [--seed S] [--calls N] [--time SECS] [--threads T] [--procs P]\n"
		"       [--kcov FILE] [--no-guide]\n"
		"Fuzz the vpux ioctls (and the driver's debugfs, sysfs, fdinfo and\n"
		"tracepoints) from P processes of T threads; output is TAP.\n"
		"  --seed S     seed of the call sequences (default: from the clock)\n"
		"  --calls N    stop after N calls over all threads (default 20000)\n"
		"  --time SECS  stop after SECS seconds (default 30)\n"
		"  --threads T  threads per process, 1..64 (default 4)\n"
		"  --procs P    processes, 1..64 (default 2)\n"
		"  --kcov FILE  with KCOV: write the PCs reached in vpux_accel to FILE\n"
		"               (\"-\": as TAP comments) and guide the fuzzing by them\n"
		"  --no-guide   with --kcov: record coverage, but draw every program\n"
		"               fresh (no corpus)\n"
		"  --help       this text\n"
		"VPUX_FUZZ_NO=a,b,... leaves out calls by name, and mutate, fault, cmx, compute.\n",
		argv0);
	exit(status);
}

/* Per device: its debugfs directory and sysfs busy-time file, if present. */
static void find_dev_files(void)
{
	char name[128];
	int dev, minor, fd;

	for (dev = 0; dev < cfg.ndev && dev < MAX_DEV; dev++) {
		fd = vpux_open_nth(dev, &minor);
		if (fd < 0)
			continue;
		close(fd);
		dev_minor[dev] = minor;
		if (!vpux_dev_name(minor, name, sizeof(name))) {
			snprintf(dev_dbg[dev], sizeof(dev_dbg[dev]), "/sys/kernel/debug/accel/%s", name);
			if (access(dev_dbg[dev], F_OK))
				dev_dbg[dev][0] = '\0';
		}
		snprintf(dev_busy[dev], sizeof(dev_busy[dev]),
			 "/sys/class/accel/accel%d/device/npu_busy_time_us", minor);
		if (access(dev_busy[dev], R_OK))
			dev_busy[dev][0] = '\0';
		snprintf(dev_pm[dev], sizeof(dev_pm[dev]),
			 "/sys/class/accel/accel%d/device/power/autosuspend_delay_ms", minor);
		if (access(dev_pm[dev], W_OK))
			dev_pm[dev][0] = '\0';
		else
			snprintf(dev_pm_orig[dev], sizeof(dev_pm_orig[dev]), "%ld",
				 file_read_long(dev_pm[dev]));
	}
}

/* The autosuspend delays as they were before the run. */
static void restore_dev_files(void)
{
	int dev;

	for (dev = 0; dev < MAX_DEV; dev++)
		if (dev_pm[dev][0])
			file_write(dev_pm[dev], dev_pm_orig[dev]);
}

/* --kcov: the driver's tracepoints on, so that their code runs too */
static void trace_enable(int on)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/events/vpux_accel/enable", trace_dir);
	if (on && access(path, W_OK))
		return;
	if (!file_write(path, on ? "1" : "0"))
		trace_on = on;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'n' },
		{ "time", required_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'j' },
		{ "procs", required_argument, NULL, 'p' },
		{ "kcov", required_argument, NULL, 'k' },
		{ "no-guide", no_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int have_seed = 0, c, fd, dev, ok, test = 0, crashed = 0;
	double elapsed;
	__s64 start;
	pid_t *pids;
	unsigned int i;
	char why[128];

	while ((c = getopt_long(argc, argv, "s:n:t:j:p:k:Gh", opts, NULL)) != -1) {
		char *end = NULL;

		errno = 0;
		switch (c) {
		case 's': case 'n': case 't': case 'j': case 'p':
			if (strtoull(optarg, &end, 0), errno || !*optarg || *end) {
				fprintf(stderr, "%s: --%s: not a number: %s\n", argv[0],
					c == 's' ? "seed" : c == 'n' ? "calls" : c == 't' ? "time" :
					c == 'j' ? "threads" : "procs", optarg);
				exit(2);
			}
			break;
		default:
			break;
		}
		switch (c) {
		case 's': cfg.seed = strtoull(optarg, NULL, 0); have_seed = 1; break;
		case 'n': cfg.calls = strtoull(optarg, NULL, 0); break;
		case 't': cfg.secs = strtoul(optarg, NULL, 0); break;
		case 'j': cfg.threads = strtoul(optarg, NULL, 0); break;
		case 'p': cfg.procs = strtoul(optarg, NULL, 0); break;
		case 'k': kcov_out = optarg; break;
		case 'G': no_guide = 1; break;
		case 'h': usage(argv[0], 0); break;
		default: usage(argv[0], 2);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument: %s\n", argv[0], argv[optind]);
		usage(argv[0], 2);
	}
	if (!cfg.threads || !cfg.procs || cfg.threads > 64 || cfg.procs > 64) {
		fprintf(stderr, "%s: --threads and --procs must be 1..64\n", argv[0]);
		exit(2);
	}
	if (getenv("VPUX_FUZZ_NO")) {
		char *list = strdup(getenv("VPUX_FUZZ_NO")), *save = NULL, *w;

		for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			no_mutate |= !strcmp(w, "mutate");
			no_fault |= !strcmp(w, "fault");
			no_cmx |= !strcmp(w, "cmx");
			no_compute |= !strcmp(w, "compute");
			for (c = 0; c < NOPS; c++)
				if (!strcmp(w, op_name[c]))
					op_weight[c] = 0;
		}
		free(list);
	}
	if (!have_seed)
		cfg.seed = (uint64_t)now_ns() ^ ((uint64_t)getpid() << 32);

	printf("TAP version 13\n");
	printf("# vpux_fuzz --seed %" PRIu64 " --calls %" PRIu64 " --time %u --threads %u --procs %u\n",
	       cfg.seed, cfg.calls, cfg.secs, cfg.threads, cfg.procs);
	if (getenv("VPUX_FUZZ_NO"))
		printf("# VPUX_FUZZ_NO=%s\n", getenv("VPUX_FUZZ_NO"));
	cfg.ndev = vpux_count_devices();
	if (!cfg.ndev) {
		printf("1..0 # SKIP no vpux device (is vpux_accel loaded?)\n");
		return 4;
	}
	fd = vpux_open_nth(0, NULL);
	if (fd >= 0) {
		vpux_get_param(fd, DRM_VPUX_PARAM_NUM_TILES, &num_tiles);
		vpux_get_param(fd, DRM_VPUX_PARAM_CMX_SIZE, &cmx_size);
		close(fd);
	}
	if (!num_tiles)
		num_tiles = 1;
	if (cmx_size < 256 || cmx_size > (1u << 30))
		cmx_size = 4096;
	if (kcov_out && kcov_setup(why, sizeof(why)))
		printf("# kcov: no coverage: %s\n", why);
	find_dev_files();
	if (op_weight[OP_NETLINK]) {
		struct nl *nl = malloc(sizeof(*nl));
		int ret = nl ? nl_open(nl) : -ENOMEM;

		if (ret) {
			printf("# netlink: no \"%s\" family (%s): no netlink calls\n",
			       VPUX_FAMILY_NAME, strerror(-ret));
		} else {
			nl_family = nl->family;
			nl_events = nl->events_grp;
			close(nl->fd);
		}
		free(nl);
	}
	if (kc) {
		trace_enable(1);
		if (!no_guide) {
			pthread_mutexattr_t ma;

			corp = mmap(NULL, sizeof(*corp), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
			if (corp == MAP_FAILED) {
				printf("# kcov: no guidance: mmap: %s\n", strerror(errno));
				corp = NULL;
			} else {
				pthread_mutexattr_init(&ma);
				pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
				pthread_mutex_init(&corp->lock, &ma);
				pthread_mutexattr_destroy(&ma);
			}
		}
	}
	printf("1..3\n");
	fflush(stdout);

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED)
		return 1;
	signal(SIGPIPE, SIG_IGN);
	start = now_ns();
	t_end = start + (__s64)cfg.secs * 1000000000ll;
	pids = calloc(cfg.procs, sizeof(*pids));
	for (i = 0; i < cfg.procs; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(run_proc(i));
		if (pids[i] < 0) {
			fail(NULL, "fork: %s", strerror(errno));
			break;
		}
	}
	/* the children stop on their own; give them a margin */
	for (i = 0; i < cfg.procs; i++) {
		int status;
		pid_t r;

		if (pids[i] <= 0)
			continue;
		while ((r = waitpid(pids[i], &status, WNOHANG)) == 0 &&
		       now_ns() < t_end + 60000000000ll)
			usleep(100000);
		if (r == 0) {
			__s64 give_up = now_ns() + 5000000000ll;

			printf("# process %u still running 60 s after the time limit: killed\n", i);
			kill(pids[i], SIGKILL);
			/* stuck in the kernel, it may not even die */
			while (waitpid(pids[i], &status, WNOHANG) == 0 && now_ns() < give_up)
				usleep(100000);
			crashed++;
			add(&st->hung, 1);
			continue;
		}
		if (WIFSIGNALED(status)) {
			printf("# process %u killed by signal %d (%s)\n", i, WTERMSIG(status),
			       strsignal(WTERMSIG(status)));
			crashed++;
		} else if (WEXITSTATUS(status)) {
			printf("# process %u exited with %d\n", i, WEXITSTATUS(status));
			crashed++;
		}
	}
	elapsed = (now_ns() - start) / 1e9;
	restore_dev_files();
	if (trace_on)
		trace_enable(0);
	printf("# %.1f s, %u processes x %u threads, %d devices, seed %" PRIu64 "\n",
	       elapsed, cfg.procs, cfg.threads, cfg.ndev, cfg.seed);
	report(elapsed);
	if (kc)
		kcov_write();

	printf("%sok %d - every call had a documented outcome (%" PRIu64 " failures)\n",
	       st->failures ? "not " : "", ++test, st->failures);
	printf("%sok %d - no process crashed or hung (%d crashed, %" PRIu64 " hung calls)\n",
	       crashed || st->hung ? "not " : "", ++test, crashed, st->hung);
	ok = 1;
	for (dev = 0; dev < cfg.ndev; dev++)
		if (!device_works(dev, why, sizeof(why))) {
			printf("# device %d: %s\n", dev, why);
			ok = 0;
		}
	printf("%sok %d - a DMA job runs and its data is right on every device afterwards\n",
	       ok ? "" : "not ", ++test);
	if (st->failures || crashed || st->hung || !ok) {
		printf("# replay: vpux_fuzz --seed %" PRIu64 " --calls %" PRIu64
		       " --threads %u --procs %u\n", cfg.seed, cfg.calls, cfg.threads, cfg.procs);
		return 1;
	}
	return 0;
}
