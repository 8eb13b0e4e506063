// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux ioctl fuzzer: random but structured sequences of every vpux ioctl
 * (GET_PARAM, BO_CREATE, BO_INFO, SUBMIT, WAIT) and of the generic DRM
 * ones the driver serves (GEM_CLOSE, PRIME, syncobjs, mmap), from several
 * threads in several processes. Handles come mostly from per-file pools
 * of live objects, sometimes at random; tasks are valid DMA tasks built
 * with the engine core's task builder, a fraction of them mutated (bits,
 * counts, offsets, barrier ids, indexes), as are a fraction of the SUBMIT
 * arguments.
 *
 * Every result must be one of the outcomes Documentation/uapi.rst (or the
 * DRM core, for the generic ioctls) documents for that call; anything
 * else, a crash, a call that blocks past its timeout, or an unmutated
 * job that does not complete cleanly is a failure. A file whose job
 * faulted or hung is banned (SUBMIT -EBADFD) and is reopened. At the end
 * a normal DMA job must still run on every device, its data verified.
 *
 *   vpux_fuzz [--seed S] [--calls N] [--time SECS] [--threads T] [--procs P]
 *             [--kcov FILE]
 *
 * --kcov FILE: where the kernel has KCOV, collect the PCs reached inside
 * vpux_accel and write them to FILE ("-": as "# kcov-pc" TAP comments),
 * for tools/vm/kcov-report.sh; without KCOV it only says why not.
 *
 * VPUX_FUZZ_NO=a,b,... in the environment narrows a failure down: it
 * leaves out the named calls (names as in the report) and "mutate" (task
 * mutations), "fault" (writes to read-only BOs), "cmx" (CMX references).
 *
 * The seed is printed; --seed replays a run's per-thread call sequences
 * (the interleaving of threads is up to the kernel). Output is TAP.
 */
#define _GNU_SOURCE
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

#include <linux/kcov.h>

#include "vpux_common.h"
#include "task_builder.h"

#define NBO		12	/* BO pool of one file */
#define NSYNC		6	/* syncobj pool of one file */
#define NSEQ		32	/* recent job numbers of one file */
#define TASK_BO_SIZE	65536
#define TASK_SLOT	2048	/* task memory slot in the task BO */
#define MAX_BO_SIZE	(256 * 1024)
#define NERR		256
#define MAX_FAIL_LOG	40
#define SLACK_NS	5000000000ll	/* a blocking call may overrun its timeout by this */

enum op {
	OP_GET_PARAM, OP_BO_CREATE, OP_BO_INFO, OP_SUBMIT, OP_WAIT,
	OP_GEM_CLOSE, OP_PRIME_EXPORT, OP_PRIME_IMPORT, OP_MMAP,
	OP_SYNC_CREATE, OP_SYNC_DESTROY, OP_SYNC_EXPORT, OP_SYNC_IMPORT,
	OP_SYNC_WAIT, OP_SYNC_TL_WAIT, OP_SYNC_RESET, OP_SYNC_SIGNAL,
	OP_SYNC_TL_SIGNAL, OP_SYNC_QUERY, OP_REOPEN, NOPS
};

static const char *const op_name[NOPS] = {
	"GET_PARAM", "BO_CREATE", "BO_INFO", "SUBMIT", "WAIT",
	"GEM_CLOSE", "PRIME_HANDLE_TO_FD", "PRIME_FD_TO_HANDLE", "mmap",
	"SYNCOBJ_CREATE", "SYNCOBJ_DESTROY", "SYNCOBJ_HANDLE_TO_FD",
	"SYNCOBJ_FD_TO_HANDLE", "SYNCOBJ_WAIT", "SYNCOBJ_TIMELINE_WAIT",
	"SYNCOBJ_RESET", "SYNCOBJ_SIGNAL", "SYNCOBJ_TIMELINE_SIGNAL",
	"SYNCOBJ_QUERY", "reopen",
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
	[OP_REOPEN] = 1,
};

/* The outcomes each call may have (0 = success); anything else fails. */
static const int allowed[NOPS][10] = {
	[OP_GET_PARAM] = { EINVAL, EFAULT },
	[OP_BO_CREATE] = { EINVAL, ENOSPC, ENOMEM, EFAULT },
	[OP_BO_INFO] = { ENOENT, ENOMEM, EFAULT },
	[OP_SUBMIT] = { EINVAL, ENOENT, EFAULT, EBADFD, EBUSY, ENOMEM },
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
	[OP_REOPEN] = { EMFILE, ENOMEM },
};

/* Figures of the whole run, in memory shared by every process. */
struct stats {
	uint64_t calls[NOPS];
	uint64_t err[NOPS][NERR];
	uint64_t status[8];		/* WAIT results by DRM_VPUX_STATUS_* */
	uint64_t submitted, mutated, clean_checked;
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
static int no_mutate, no_fault, no_cmx;	/* VPUX_FUZZ_NO=mutate,fault,cmx */
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
};

struct thr {
	int proc, id;
	uint64_t rng;
	uint64_t call;
	struct file f[2];
	pthread_t tid;
};

static uint64_t rnd(struct thr *t)
{
	return splitmix(&t->rng);
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

	p.param = chance(t, 80) ? below(t, DRM_VPUX_PARAM_COUNT) : rand_u32(t);
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
	if (!ret && (p.pad || p.param >= DRM_VPUX_PARAM_COUNT))
		fail(t, "GET_PARAM %u pad %u succeeded", p.param, p.pad);
	if (ret == -EINVAL && !p.pad && p.param < DRM_VPUX_PARAM_COUNT)
		fail(t, "GET_PARAM %u refused", p.param);
}

static void do_bo_create(struct thr *t, struct file *f)
{
	static const __u64 bad_sizes[] = { 0, 0x0000007f00000001ull,
					   ~0ull, 1ull << 63, ~0ull - 4094 };
	__u32 flags = 0, h = 0;
	__u64 size;

	if (chance(t, 15))
		flags |= DRM_VPUX_BO_DEVICE_READONLY;
	if (chance(t, 20))
		flags |= chance(t, 50) ? DRM_VPUX_BO_WC : DRM_VPUX_BO_CACHED;
	if (chance(t, 5))
		flags |= 1u << below(t, 32);
	size = chance(t, 92) ? good_size(t) : bad_sizes[below(t, 5)];
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
	if (w->status == DRM_VPUX_STATUS_DONE && w->error)
		fail(t, "WAIT %llu: DONE with error %d", (unsigned long long)w->seqno,
		     w->error);
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
		     (unsigned long long)w->seqno, w->status, w->error, w->fail_op,
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
	if (chance(t, 10)) {
		/* WAIT on a BO: the last job that used it */
		w.flags = DRM_VPUX_WAIT_BO;
		w.seqno = chance(t, 10) ? rnd(t) : pick_bo_handle(t, f);
		slot = -1;
	}
	if (chance(t, 3))
		w.flags = rand_u32(t);
	if (chance(t, 2)) {
		account(t, OP_WAIT, xioctl(f->fd, DRM_IOCTL_VPUX_WAIT, bad_ptr(t)));
		return;
	}
	start = now_ns();
	ret = xioctl(f->fd, DRM_IOCTL_VPUX_WAIT, &w);
	check_deadline(t, OP_WAIT, start, w.timeout_ns);
	if (account(t, OP_WAIT, ret) || ret)
		return;
	if (w.flags & ~DRM_VPUX_WAIT_FLAGS)
		fail(t, "WAIT with flags %#x succeeded", w.flags);
	if (w.flags & DRM_VPUX_WAIT_BO)
		slot = -1;	/* the BO's last job, not a ring slot */
	count_result(t, f, slot, 0, &w);
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

/* Flip bits, change counts, offsets, barrier ids, indexes. */
static void mutate(struct thr *t, unsigned char *task, size_t size, struct tb *tb,
		   unsigned int ndma, unsigned int nb)
{
	unsigned int n = 1 + below(t, 3), k, o;
	struct dla_dma_op *op;

	for (k = 0; k < n; k++) {
		op = &tb->dma[below(t, ndma)];
		switch (below(t, 12)) {
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
		default:		/* reserved words, flags, version */
			switch (below(t, 5)) {
			case 0: op->reserved = 1; break;
			case 1: op->flags = rand_u32(t); break;
			case 2: tb->d->flags = 1u << below(t, 32); break;
			case 3: tb->d->version_minor++; break;
			default: tb->d->reserved[below(t, 6)] = 1; break;
			}
			break;
		}
	}
}

static void do_submit(struct thr *t, struct file *f)
{
	struct drm_vpux_buf list[DRM_VPUX_MAX_ADDR_ENTRIES];
	struct drm_vpux_syncobj in[4];
	struct entry ent[8];
	struct drm_vpux_submit s;
	unsigned int nent, ndma, nb, i, mode;
	int clean = 1, fault = 0, sync_wait, ret;
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
	mode = below(t, 3);
	nb = mode == 0 ? 0 : mode == 1 ? ndma - 1 : (ndma > 1);
	tb_init(&tb, task, nb, ndma, 0, 0);
	for (i = 0; i < ndma; i++)
		build_dma(t, &tb.dma[i], ent, nent, fault);
	if (mode == 1) {		/* a chain */
		for (i = 0; i + 1 < ndma; i++) {
			tb_update(&tb, &tb.dma[i].deps, i);
			tb_wait(&tb, &tb.dma[i + 1].deps, i);
		}
	} else if (mode == 2 && ndma > 1) {	/* all into the last */
		for (i = 0; i + 1 < ndma; i++)
			tb_update(&tb, &tb.dma[i].deps, 0);
		tb_wait(&tb, &tb.dma[ndma - 1].deps, 0);
	}
	if (fault)
		clean = 0;
	if (!no_mutate && chance(t, 25)) {
		mutate(t, task, tb.size, &tb, ndma, nb);
		add(&st->mutated, 1);
		clean = 0;
	}

	memset(&s, 0, sizeof(s));
	s.task = (struct drm_vpux_buf){ .handle = f->task_h,
					.offset = f->task_slot * TASK_SLOT,
					.size = chance(t, 80) ? tb.size : TASK_SLOT };
	s.buffers = (uintptr_t)list;
	s.buffer_count = nent - 1;
	s.priority = below(t, 4);
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
		switch (below(t, 15)) {
		case 0: s.flags = 1u << below(t, 32); break;
		case 1: s.pad = rand_u32(t); break;
		case 2: s.priority = 4 + below(t, 100); break;
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

struct kcov_table {
	uint64_t lo, hi;		/* the module's text, roughly */
	uint64_t pc[KCOV_TABLE];
	uint8_t how[KCOV_TABLE];	/* 1: task, 2: remote */
	uint64_t count, full;
	uint64_t overflows[3];		/* buffer full, by how */
	uint64_t new_by_op[NOPS];	/* first reached by which call */
	uint64_t remote_procs;		/* processes with remote coverage */
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
static unsigned int kcov_harvest(struct kcov_buf *b, uint8_t how)
{
	unsigned long n = __atomic_load_n(&b->area[0], __ATOMIC_ACQUIRE), i, done = 0;
	unsigned int fresh = 0;

	for (;;) {
		if (n > b->size - 1)
			n = b->size - 1;
		if (n >= b->size - 1)
			add(&kc->overflows[how], 1);
		for (i = done; i < n; i++) {
			uint64_t pc = __atomic_load_n(&b->area[i + 1], __ATOMIC_RELAXED);

			if (pc >= kc->lo && pc < kc->hi)
				fresh += kcov_add(pc, how);
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

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	uint64_t quota = cfg.calls / (cfg.procs * cfg.threads);
	struct kcov_buf kb;
	struct file *f;

	if (!quota)
		quota = 1;
	kcov_thread_start(&kb);
	t->f[0].fd = t->f[1].fd = -1;
	file_open(t, &t->f[0], (t->proc + t->id) % cfg.ndev);
	file_open(t, &t->f[1], below(t, cfg.ndev));
	for (t->call = 0; t->call < quota && now_ns() < t_end; t->call++) {
		enum op op = pick_op(t);

		f = &t->f[chance(t, 85) ? 0 : 1];
		if (f->fd < 0) {
			reopen(t, f);
			op = OP_REOPEN;
		} else switch (op) {
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
		case OP_REOPEN:
			add(&st->reopened, 1);
			reopen(t, f);	/* with its jobs still queued */
			break;
		default: break;
		}
		if (kb.fd >= 0)
			add(&kc->new_by_op[op], kcov_harvest(&kb, 1));
	}
	file_close(&t->f[0]);
	file_close(&t->f[1]);
	if (kb.fd >= 0) {
		add(&kc->new_by_op[OP_REOPEN], kcov_harvest(&kb, 1));
		kcov_close(&kb);
	}
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
		kcov_harvest(&rb, 2);
		usleep(2000);
	}
	for (i = 0; i < cfg.threads; i++)
		pthread_join(t[i].tid, NULL);
	if (rb.fd >= 0) {
		usleep(300000);		/* the last jobs' workers */
		kcov_harvest(&rb, 2);
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
	s.priority = DRM_VPUX_PRIORITY_NORMAL;
	ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret) {
		w.seqno = s.seqno;
		w.timeout_ns = now_ns() + 10000000000ll;
		ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_WAIT, &w);
	}
	if (ret || w.status != DRM_VPUX_STATUS_DONE) {
		snprintf(why, len, "job: %d, status %u error %d", ret, w.status, w.error);
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

static void report(void)
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
	printf("# calls: %" PRIu64 " in total\n", total);
	printf("# jobs: %" PRIu64 " submitted (%" PRIu64 " mutated), results seen: done %"
	       PRIu64 ", error %" PRIu64 ", mmu fault %" PRIu64 ", timeout %" PRIu64
	       ", aborted %" PRIu64 "; %" PRIu64 " valid jobs checked\n",
	       st->submitted, st->mutated, st->status[DRM_VPUX_STATUS_DONE],
	       st->status[DRM_VPUX_STATUS_ERROR], st->status[DRM_VPUX_STATUS_MMU_FAULT],
	       st->status[DRM_VPUX_STATUS_TIMEOUT], st->status[DRM_VPUX_STATUS_ABORTED],
	       st->clean_checked);
	printf("# MMU faults %" PRIu64 ", hangs %" PRIu64 ", files banned %" PRIu64
	       " (reopened), files reopened at random %" PRIu64 "\n",
	       st->mmu_faults, st->timeouts, st->banned, st->reopened);
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [--seed S] [--calls N] [--time SECS] [--threads T] [--procs P]"
		" [--kcov FILE]\n", argv0);
	exit(2);
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int have_seed = 0, c, fd, dev, ok, test = 0, crashed = 0;
	__s64 start;
	pid_t *pids;
	unsigned int i;
	char why[128];

	while ((c = getopt_long(argc, argv, "s:n:t:j:p:k:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': cfg.seed = strtoull(optarg, NULL, 0); have_seed = 1; break;
		case 'n': cfg.calls = strtoull(optarg, NULL, 0); break;
		case 't': cfg.secs = strtoul(optarg, NULL, 0); break;
		case 'j': cfg.threads = strtoul(optarg, NULL, 0); break;
		case 'p': cfg.procs = strtoul(optarg, NULL, 0); break;
		case 'k': kcov_out = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (!cfg.threads || !cfg.procs || cfg.threads > 64 || cfg.procs > 64)
		usage(argv[0]);
	if (getenv("VPUX_FUZZ_NO")) {
		char *list = strdup(getenv("VPUX_FUZZ_NO")), *save = NULL, *w;

		for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			no_mutate |= !strcmp(w, "mutate");
			no_fault |= !strcmp(w, "fault");
			no_cmx |= !strcmp(w, "cmx");
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
	printf("# %.1f s, %u processes x %u threads, %d devices, seed %" PRIu64 "\n",
	       (now_ns() - start) / 1e9, cfg.procs, cfg.threads, cfg.ndev, cfg.seed);
	report();
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
