// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux soak: several worker processes share one device for a bounded time,
 * each submitting a random mix of good and bad jobs, while the parent
 * SIGKILLs a random worker now and then (most often with jobs in flight)
 * and starts a new one in its place.
 *
 * Good jobs are DMA tasks built with the engine core's task builder: up to
 * four strided (4-D) copies per task, independent, chained through
 * barriers or fanned into one, some reading the previous job's output (an
 * implicit fence through the shared BO). The CPU computes each job's
 * result on copies of the buffers; every byte of every destination BO
 * (written regions and the random bytes around them) must match, bit for
 * bit, for every good job.
 *
 * Bad jobs, each with the one outcome Documentation/uapi.rst gives it:
 *  - task memory the engine core refuses (bad magic, version, reserved
 *    flags, op count, address index, a ref outside its buffer, extent,
 *    shape, barrier id): DRM_VPUX_STATUS_ERROR with the exact DLA_ERR_*,
 *    nothing written, the file not banned;
 *  - a write to a DEVICE_READONLY BO: DRM_VPUX_STATUS_MMU_FAULT inside
 *    that BO, which stays zero, and the file banned (SUBMIT -EBADFD): the
 *    worker reopens the device. SUBMIT refuses such a job (-EACCES, the
 *    BO zero) unless debugfs skip_readonly_check is set, which the soak
 *    does while it runs, so the MMU is what stops the write;
 *  - bad SUBMIT arguments: the documented errno, nothing queued;
 *  - through debugfs fault injection (one at a time, with the device to
 *    itself until the fault has been taken): a hang (TIMEOUT, -ETIMEDOUT,
 *    the file banned, the "resets" counter +1; other workers run on while
 *    it waits for its timeout), a lost interrupt and a slow engine (both
 *    DONE with the right data, no reset), an injected MMU fault (MMU_FAULT,
 *    banned). The injecting worker cannot be killed from arming the
 *    fault until it has been taken, so every hang is accounted for.
 *
 * At the end: the figures, "resets" must have grown by exactly the number
 * of injected hangs (nothing else resets: MMU faults and refused tasks do
 * not), every killed worker died of SIGKILL and was replaced, no worker
 * died otherwise, and a normal job still runs with its data right.
 *
 *   vpux_soak [--seed S] [--time SECS] [--procs N] [--device D]
 *
 * The seed is printed; --seed replays each worker's choices (the
 * interleaving, and so the kills' timing, is up to the kernel). Output is
 * TAP. Needs vpux_accel loaded; fault injection needs debugfs.
 */
#ifndef _GNU_SOURCE	/* the kselftest lib.mk defines it */
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "dla_limits.h"
#include "vpux_common.h"
#include "task_builder.h"
#include "vpux_job_util.h"

#define MAX_PROCS	32
#define NSLOT		4		/* jobs of one batch, in flight together */
#define BUF_SZ		65536		/* source, middle and destination BOs */
#define TASK_SZ		4096
#define MAX_OPS		4
#define MAX_FAIL_LOG	40
#define WAIT_NS		60000000000ll	/* a job must be done by then */
#define INJECT_GAP_NS	1500000000ll	/* between two injections */

/* entries of a job's address list (0 is the task) */
enum { E_SRC = 1, E_MID = 2, E_DST = 3, N_ENT = 4 };

enum kind {
	/* refused by the engine core: STATUS_ERROR and a DLA_ERR_* */
	K_MAGIC, K_VERSION, K_RESERVED, K_TOO_MANY_OPS, K_ADDR_INDEX,
	K_BUF_RANGE, K_EXTENT, K_SHAPE, K_BARRIER_ID,
	N_REFUSED,
	/* refused by SUBMIT */
	K_ARG_FLAGS = N_REFUSED, K_ARG_HANDLE, K_ARG_RANGE, K_ARG_PRIORITY,
	/* MMU fault: a write to a read-only BO */
	K_MMU_FAULT,
	/* debugfs injection */
	K_INJ_HANG, K_INJ_DROP_IRQ, K_INJ_MMU_FAULT, K_INJ_SLOW,
	N_KINDS
};

#define K_INJ_FIRST	K_INJ_HANG
#define N_INJ		4

static const struct {
	const char *name;
	const char *expect;
	int err;		/* DLA_ERR_* (negated) or errno (negated) */
} kinds[N_KINDS] = {
	[K_MAGIC] = { "bad magic", "ERROR -101", -101 },
	[K_VERSION] = { "bad major version", "ERROR -102", -102 },
	[K_RESERVED] = { "reserved flag set", "ERROR -104", -104 },
	[K_TOO_MANY_OPS] = { "too many DMA ops", "ERROR -105", -105 },
	[K_ADDR_INDEX] = { "address index past the list", "ERROR -100", -100 },
	[K_BUF_RANGE] = { "ref outside its buffer", "ERROR -140", -140 },
	[K_EXTENT] = { "walk larger than its ref", "ERROR -142", -142 },
	[K_SHAPE] = { "zero count", "ERROR -143", -143 },
	[K_BARRIER_ID] = { "barrier id out of range", "ERROR -121", -121 },
	[K_ARG_FLAGS] = { "SUBMIT flags", "-EINVAL", -EINVAL },
	[K_ARG_HANDLE] = { "SUBMIT task handle", "-ENOENT", -ENOENT },
	[K_ARG_RANGE] = { "SUBMIT buffer past its BO", "-EINVAL", -EINVAL },
	[K_ARG_PRIORITY] = { "SUBMIT to no queue", "-ENOENT", -ENOENT },
	[K_MMU_FAULT] = { "write to a read-only BO",
			  "MMU_FAULT, banned (-EACCES without debugfs)", 0 },
	[K_INJ_HANG] = { "injected hang", "TIMEOUT -ETIMEDOUT, banned, reset", -ETIMEDOUT },
	[K_INJ_DROP_IRQ] = { "injected lost interrupt", "DONE, data right", 0 },
	[K_INJ_MMU_FAULT] = { "injected MMU fault", "MMU_FAULT, banned", 0 },
	[K_INJ_SLOW] = { "injected slow engine", "DONE, data right", 0 },
};

static const char *const inject_cmd[N_INJ] = {
	"hang 0 1", "drop_irq 0 1", "mmu_fault 0 1", "slow 0 1 20",
};

/* What the workers and the parent share (MAP_SHARED, atomics). */
struct shared {
	int stop;
	int dying;		/* killed workers not reaped yet */
	__s64 next_inject;
	uint32_t inject_turn;
	struct {
		pid_t pid;
		int no_kill;	/* an injection is armed: not now */
		int kill_req;
		int in_flight;	/* jobs submitted and not all waited for */
		const char *phase;	/* a string literal: same address after fork */
	} w[MAX_PROCS];
	uint64_t good_ok, good_wrong, good_ops, good_bytes;
	uint64_t chains, fanins, cross;
	uint64_t seen[N_KINDS], as_expected[N_KINDS];
	uint64_t unexpected;	/* a status or errno nothing allows */
	uint64_t hangs;		/* injected hangs taken by the engine */
	uint64_t hang_results;	/* of those, the ones whose worker saw the end */
	uint64_t reopens, batches;
	uint64_t failures;
};

static struct shared *sh;

static struct {
	uint64_t seed;
	unsigned int secs, procs;
	int dev, minor;
	int inject;		/* debugfs inject usable */
	int ro_unchecked;	/* SUBMIT lets writes to read-only BOs through */
	char lock_path[3][64];	/* gate, device, injection */
} cfg = { .secs = 20, .procs = 3 };

enum { L_GATE, L_DEV, L_INJ };

/* ---- small things ----------------------------------------------------- */

static void add(uint64_t *p, uint64_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/* Unbuffered line to stdout: safe in forked workers. */
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(1, buf, n) < 0)
		return;
}

struct slot {
	struct bo task, src, mid, dst;
	unsigned char exp_mid[BUF_SZ], exp_dst[BUF_SZ];
};

struct job {
	int kind;		/* -1: a good job */
	int mode;		/* 0 independent, 1 chain, 2 fan-in */
	unsigned int nops;
	uint64_t bytes;
	int cross;		/* reads the previous slot's destination */
	int prio;		/* its queue's priority */
	struct drm_vpux_submit s;
	struct drm_vpux_buf list[N_ENT - 1];
};

/* One worker process. */
struct wk {
	int idx;
	uint64_t gen, iter, rng;
	int fd;
	__u32 q[4];		/* a queue of each priority; NORMAL: 0 */
	struct slot slot[NSLOT];
	struct bo ro;		/* DEVICE_READONLY, never written */
	int lock[3];
	unsigned char scratch_mid[BUF_SZ], scratch_dst[BUF_SZ];
};

/* What the worker is doing, for the report if it gets stuck. */
static void phase(struct wk *w, const char *what)
{
	__atomic_store_n(&sh->w[w->idx].phase, what, __ATOMIC_RELAXED);
}

static uint64_t rnd(struct wk *w)
{
	return splitmix(&w->rng);
}

static uint32_t below(struct wk *w, uint32_t n)
{
	return n ? (uint32_t)(rnd(w) % n) : 0;
}

static int chance(struct wk *w, unsigned int pct)
{
	return below(w, 100) < pct;
}

static void fill_random(struct wk *w, unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t v = rnd(w);

		memcpy(p + i, &v, 8);
	}
	for (; i < n; i++)
		p[i] = (unsigned char)rnd(w);
}

static void fail(struct wk *w, const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	if (__atomic_fetch_add(&sh->failures, 1, __ATOMIC_RELAXED) >= MAX_FAIL_LOG)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (w)
		say("# FAIL worker %d.%" PRIu64 " (pid %d) iteration %" PRIu64 ": %s",
		    w->idx, w->gen, (int)getpid(), w->iter, buf);
	else
		say("# FAIL %s", buf);
}

static const char *status_name(__u32 st)
{
	static const char *const n[] = { "0?", "DONE", "ERROR", "MMU_FAULT",
					 "TIMEOUT", "ABORTED" };

	return st < 6 ? n[st] : "?";
}

/* ---- locks: flock() goes away with the process that holds it ----------- */

static void lk(struct wk *w, int which, int op)
{
	while (flock(w->lock[which], op)) {
		if (errno == EINTR)
			continue;
		fail(w, "flock(%s, %d): %s", cfg.lock_path[which], op, strerror(errno));
		_exit(3);
	}
}

/* The device is shared: batches of jobs in flight under a shared lock. */
static void share_begin(struct wk *w, const char *what)
{
	phase(w, "waiting for the device lock (shared)");
	lk(w, L_GATE, LOCK_SH);
	lk(w, L_DEV, LOCK_SH);
	lk(w, L_GATE, LOCK_UN);
	phase(w, what);
}

static void share_end(struct wk *w)
{
	lk(w, L_DEV, LOCK_UN);
	phase(w, "between jobs");
}

/* ---- buffers and files ----------------------------------------------- */

static void bo_unmap(struct bo *bo, size_t size)
{
	if (bo->map)
		munmap(bo->map, size);
	bo->map = NULL;
}

static void file_close(struct wk *w)
{
	int i;

	for (i = 0; i < NSLOT; i++) {
		bo_unmap(&w->slot[i].task, TASK_SZ);
		bo_unmap(&w->slot[i].src, BUF_SZ);
		bo_unmap(&w->slot[i].mid, BUF_SZ);
		bo_unmap(&w->slot[i].dst, BUF_SZ);
	}
	bo_unmap(&w->ro, BUF_SZ);
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}

/* Open the device and create this worker's BOs; exits on failure. */
static void file_open(struct wk *w)
{
	int i, ret;

	phase(w, "opening the device, creating BOs");
	file_close(w);
	w->fd = vpux_open_nth(cfg.dev, NULL);
	if (w->fd < 0) {
		fail(w, "open vpux device %d: %s", cfg.dev, strerror(-w->fd));
		_exit(3);
	}
	for (i = 0; i < NSLOT; i++) {
		struct slot *s = &w->slot[i];

		if ((ret = bo_new(w->fd, TASK_SZ, chance(w, 30) ? DRM_VPUX_BO_WC : 0, &s->task)) ||
		    (ret = bo_new(w->fd, BUF_SZ, 0, &s->src)) ||
		    (ret = bo_new(w->fd, BUF_SZ, 0, &s->mid)) ||
		    (ret = bo_new(w->fd, BUF_SZ, 0, &s->dst)))
			goto err;
	}
	ret = bo_new(w->fd, BUF_SZ, DRM_VPUX_BO_DEVICE_READONLY, &w->ro);
	/* a job's priority is its queue's; without CAP_SYS_NICE, NORMAL's */
	for (i = 0; i < 4; i++)
		if (i == DRM_VPUX_PRIORITY_NORMAL ||
		    queue_create(w->fd, i, &w->q[i]))
			w->q[i] = 0;
	if (!ret)
		return;
err:
	fail(w, "creating and mapping BOs: %s", strerror(-ret));
	_exit(3);
}

/* ---- job generation: tasks and their CPU reference --------------------- */

struct shape {
	uint32_t len, count[3], ss[3], ds[3];
};

static uint64_t extent(const uint32_t *count, const uint32_t *stride, uint32_t len)
{
	return len + (uint64_t)(count[0] - 1) * stride[0] +
	       (uint64_t)(count[1] - 1) * stride[1] +
	       (uint64_t)(count[2] - 1) * stride[2];
}

/* The reference: the copy as Documentation/task-format.rst defines it. */
static void ref_copy(unsigned char *dst, const unsigned char *src,
		     const struct shape *s)
{
	uint32_t a, b, c;

	for (c = 0; c < s->count[2]; c++)
		for (b = 0; b < s->count[1]; b++)
			for (a = 0; a < s->count[0]; a++)
				memcpy(dst + a * s->ds[0] + b * s->ds[1] + c * s->ds[2],
				       src + a * s->ss[0] + b * s->ss[1] + c * s->ss[2],
				       s->len);
}

/* Generation state of one job: the buffers as the CPU sees them. */
struct gen {
	unsigned char *buf[N_ENT];	/* E_SRC, E_MID, E_DST */
	uint32_t bump[N_ENT];		/* next free byte of MID, DST */
	uint32_t reg_off, reg_len;	/* region the last op wrote */
	int reg_ent;
	uint64_t bytes;
};

/*
 * One copy reading somewhere in [@roff, @roff + @rlen) of entry @sent,
 * writing a fresh region of entry @dent (rows never overlap there), and
 * its effect on the CPU's copy. Source strides are anything, 0 included.
 */
static int gen_op(struct wk *w, struct gen *g, struct dla_dma_op *op,
		  int sent, uint32_t roff, uint32_t rlen, int dent, int big)
{
	struct shape s;
	uint64_t sext, dext;
	uint32_t soff, doff, i;

	memset(&s, 0, sizeof(s));
	if (big) {	/* one long contiguous row */
		s.len = 1 + below(w, rlen);
		s.count[0] = s.count[1] = s.count[2] = 1;
	} else {
		s.len = 1 + below(w, rlen < 256 ? rlen : 256);
		s.count[0] = 1 + below(w, 6);
		s.count[1] = 1 + below(w, 3);
		s.count[2] = 1 + below(w, 2);
		for (i = 0; i < 3; i++)
			s.ss[i] = chance(w, 5) ? 0 : below(w, 2 * s.len + 16);
		/* fewer rows until the walk fits the region */
		for (i = 3; extent(s.count, s.ss, s.len) > rlen && i-- > 0;)
			s.count[i] = 1;
	}
	sext = extent(s.count, s.ss, s.len);
	s.ds[0] = s.len + below(w, 32);
	s.ds[1] = (uint32_t)((s.count[0] - 1) * (uint64_t)s.ds[0] + s.len) + below(w, 32);
	s.ds[2] = (uint32_t)((s.count[1] - 1) * (uint64_t)s.ds[1] +
			     (s.count[0] - 1) * (uint64_t)s.ds[0] + s.len) + below(w, 32);
	dext = extent(s.count, s.ds, s.len);
	doff = g->bump[dent] + below(w, 64);
	if (sext > rlen || doff + dext > BUF_SZ)
		return -1;
	g->bump[dent] = doff + (uint32_t)dext;
	soff = roff + below(w, (uint32_t)(rlen - sext) + 1);

	op->len = s.len;
	memcpy(op->count, s.count, sizeof(s.count));
	memcpy(op->src_stride, s.ss, sizeof(s.ss));
	memcpy(op->dst_stride, s.ds, sizeof(s.ds));
	op->src = tb_ref(sent, soff, (uint32_t)sext);
	op->dst = tb_ref(dent, doff, (uint32_t)dext);
	ref_copy(g->buf[dent] + doff, g->buf[sent] + soff, &s);
	g->reg_ent = dent;
	g->reg_off = doff;
	g->reg_len = (uint32_t)dext;
	g->bytes += (uint64_t)s.len * s.count[0] * s.count[1] * s.count[2];
	return 0;
}

/*
 * A good task in @task: 1..MAX_OPS copies, independent, a chain through
 * barriers (each op reads what the one before wrote) or several into one
 * (the last op waits for the others and reads all they wrote). The
 * result goes into g->buf.
 */
static int gen_task(struct wk *w, struct gen *g, unsigned char *task,
		    struct job *j, struct tb *tb)
{
	unsigned int n = 1 + below(w, MAX_OPS), i, nb;
	int mode = n == 1 ? 0 : (int)below(w, 3);
	uint32_t lo = BUF_SZ, hi = 0;

	nb = mode == 1 ? n - 1 : mode == 2 ? 1 : 0;
	tb_init(tb, task, nb, n, 0, 0);
	for (i = 0; i < n; i++) {
		struct dla_dma_op *op = &tb->dma[i];
		int ret;

		if (mode == 0) {
			ret = gen_op(w, g, op, E_SRC, 0, BUF_SZ,
				     chance(w, 50) ? E_MID : E_DST, n == 1 && chance(w, 15));
		} else if (mode == 1) {
			if (i == 0)
				ret = gen_op(w, g, op, E_SRC, 0, BUF_SZ, E_MID, 0);
			else
				ret = gen_op(w, g, op, g->reg_ent, g->reg_off, g->reg_len,
					     g->reg_ent == E_MID ? E_DST : E_MID, chance(w, 20));
			if (i) {
				tb_update(tb, &tb->dma[i - 1].deps, i - 1);
				tb_wait(tb, &tb->dma[i].deps, i - 1);
			}
		} else if (i + 1 < n) {
			ret = gen_op(w, g, op, E_SRC, 0, BUF_SZ, E_MID, 0);
			if (g->reg_off < lo)
				lo = g->reg_off;
			if (g->reg_off + g->reg_len > hi)
				hi = g->reg_off + g->reg_len;
			tb_update(tb, &op->deps, 0);
		} else {
			ret = gen_op(w, g, op, E_MID, lo, hi - lo, E_DST, chance(w, 20));
			tb_wait(tb, &op->deps, 0);
		}
		if (ret) {
			fail(w, "internal: op %u of a mode %d task does not fit", i, mode);
			return -1;
		}
	}
	j->mode = mode;
	j->nops = n;
	j->bytes = g->bytes;
	return 0;
}

/* Spoil a good task the way @kind says; the core must refuse it. */
static void spoil(struct wk *w, struct tb *tb, int kind)
{
	struct dla_dma_op *op = &tb->dma[0];

	switch (kind) {
	case K_MAGIC:
		tb->d->magic = (dla_u32)rnd(w) | 1;
		if (tb->d->magic == DLA_TASK_MAGIC)
			tb->d->magic ^= 2;
		break;
	case K_VERSION:
		tb->d->version_major = DLA_TASK_VERSION_MAJOR + 1 + below(w, 100);
		break;
	case K_RESERVED:
		/*
		 * bit 0 is DLA_TASK_F_PLAN (refused otherwise: PLAN_FORMAT),
		 * bit 1 DLA_TASK_F_TILES (an empty window: CMX_WINDOW)
		 */
		tb->d->flags = 1u << (2 + below(w, 30));
		break;
	case K_TOO_MANY_OPS:
		tb->d->ops[DLA_OP_DMA].count = DLA_MAX_OPS_PER_TASK + 1 + below(w, 1 << 20);
		break;
	case K_ADDR_INDEX:
		op->dst.index = N_ENT + below(w, 200);
		break;
	case K_BUF_RANGE:
		op->src.offset = BUF_SZ - op->src.size + 1 + below(w, 4096);
		break;
	case K_EXTENT:
		if (op->src.size > 1) {
			op->src.size -= 1 + below(w, op->src.size - 1);
		} else {	/* a one-byte walk: make the row longer */
			op->len = 2;
			op->count[0] = op->count[1] = op->count[2] = 1;
			op->dst.size = 2;
		}
		break;
	case K_SHAPE:
		op->count[below(w, 3)] = 0;
		break;
	case K_BARRIER_ID:
		op->deps.waits[op->deps.num_waits++] =
			(dla_u16)(tb->d->num_barriers + below(w, 8));
		break;
	}
}

static void job_args(struct job *j, struct slot *s, size_t task_size,
		     __u32 src_handle, __u32 dst_handle, __u32 queue_id)
{
	j->list[E_SRC - 1] = (struct drm_vpux_buf){ .handle = src_handle, .size = BUF_SZ };
	j->list[E_MID - 1] = (struct drm_vpux_buf){ .handle = s->mid.handle, .size = BUF_SZ };
	j->list[E_DST - 1] = (struct drm_vpux_buf){ .handle = dst_handle, .size = BUF_SZ };
	memset(&j->s, 0, sizeof(j->s));
	j->s.task = (struct drm_vpux_buf){ .handle = s->task.handle, .size = task_size };
	j->s.buffers = (uintptr_t)j->list;
	j->s.buffer_count = N_ENT - 1;
	j->s.queue_id = queue_id;
}

/* Fresh random contents of slot @i's BOs, and the CPU's copies of them. */
static void slot_refill(struct wk *w, int i)
{
	struct slot *s = &w->slot[i];

	fill_random(w, s->src.map, BUF_SZ);
	fill_random(w, s->exp_mid, BUF_SZ);
	fill_random(w, s->exp_dst, BUF_SZ);
	memcpy(s->mid.map, s->exp_mid, BUF_SZ);
	memcpy(s->dst.map, s->exp_dst, BUF_SZ);
}

/*
 * Build job @j in slot @i: good (kind -1) or spoiled as @kind. A good one
 * updates the slot's expected contents; a refused one must leave them.
 * With @cross, the source is slot @i - 1's destination (a good job of the
 * same batch, submitted before: the implicit fence orders them).
 */
static int build_job(struct wk *w, int i, int kind, int cross, int prio, struct job *j)
{
	struct slot *s = &w->slot[i];
	struct gen g = { 0 };
	struct tb tb;

	memset(j, 0, sizeof(*j));
	j->kind = kind;
	j->cross = cross;
	j->prio = prio;
	g.buf[E_SRC] = cross ? w->slot[i - 1].exp_dst : s->src.map;
	if (kind < 0) {
		g.buf[E_MID] = s->exp_mid;
		g.buf[E_DST] = s->exp_dst;
	} else {
		memcpy(w->scratch_mid, s->exp_mid, BUF_SZ);
		memcpy(w->scratch_dst, s->exp_dst, BUF_SZ);
		g.buf[E_MID] = w->scratch_mid;
		g.buf[E_DST] = w->scratch_dst;
	}
	if (gen_task(w, &g, s->task.map, j, &tb))
		return -1;
	if (kind >= 0 && kind < N_REFUSED)
		spoil(w, &tb, kind);
	job_args(j, s, tb.size, cross ? w->slot[i - 1].dst.handle : s->src.handle,
		 s->dst.handle, w->q[prio]);
	return 0;
}

/* The first byte where slot @i's BOs differ from what they must hold. */
static int slot_check(struct wk *w, int i, const struct job *j, const char *what)
{
	struct slot *s = &w->slot[i];
	const struct { const char *name; unsigned char *got, *exp; } b[2] = {
		{ "middle", s->mid.map, s->exp_mid },
		{ "destination", s->dst.map, s->exp_dst },
	};
	unsigned int k;
	size_t off;

	for (k = 0; k < 2; k++) {
		if (!memcmp(b[k].got, b[k].exp, BUF_SZ))
			continue;
		for (off = 0; b[k].got[off] == b[k].exp[off]; off++)
			;
		fail(w, "%s (slot %d, %u ops, mode %d%s): %s BO byte %zu is %#04x, the reference says %#04x",
		     what, i, j->nops, j->mode, j->cross ? ", reads the previous job's output" : "",
		     b[k].name, off, b[k].got[off], b[k].exp[off]);
		return -1;
	}
	return 0;
}

static int wk_wait(struct wk *w, __u64 seqno, struct drm_vpux_wait *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->seqno = seqno;
	r->timeout_ns = now_ns() + WAIT_NS;
	ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_WAIT, r);
	if (ret == -ETIMEDOUT)
		fail(w, "job %llu not done after %lld s", (unsigned long long)seqno,
		     WAIT_NS / 1000000000ll);
	else if (ret)
		fail(w, "WAIT job %llu: %s", (unsigned long long)seqno, strerror(-ret));
	return ret;
}

static void unexpected(struct wk *w, const struct job *j, const struct drm_vpux_wait *r)
{
	add(&sh->unexpected, 1);
	fail(w, "%s job (%u ops, mode %d): status %s error %d fail_op %#x, expected %s",
	     j->kind < 0 ? "good" : kinds[j->kind].name, j->nops, j->mode,
	     status_name(r->status), wait_error(r), r->fail_op,
	     j->kind < 0 ? "DONE 0" : kinds[j->kind].expect);
}

/* A good job's result: DONE, and its slot as the reference says. */
static void check_good(struct wk *w, int i, const struct job *j,
		       const struct drm_vpux_wait *r)
{
	if (r->status != DRM_VPUX_STATUS_DONE || wait_error(r)) {
		unexpected(w, j, r);
		add(&sh->good_wrong, 1);
		return;
	}
	if (slot_check(w, i, j, "good job")) {
		add(&sh->good_wrong, 1);
		return;
	}
	add(&sh->good_ok, 1);
	add(&sh->good_ops, j->nops);
	add(&sh->good_bytes, j->bytes);
	if (j->mode == 1)
		add(&sh->chains, 1);
	if (j->mode == 2)
		add(&sh->fanins, 1);
	if (j->cross)
		add(&sh->cross, 1);
}

/* ---- what a worker does --------------------------------------------- */

/* 1..NSLOT jobs in flight, mostly good, some refused by the core. */
static void do_batch(struct wk *w)
{
	struct drm_vpux_wait r[NSLOT];
	struct job job[NSLOT];
	int n = 1 + below(w, NSLOT), i, ret;

	share_begin(w, "batch: building and submitting");
	for (i = 0; i < n; i++) {
		int kind = chance(w, 20) ? (int)below(w, N_REFUSED) : -1;
		int cross = i > 0 && job[i - 1].kind < 0 && chance(w, 30);
		int prio = below(w, 4);

		/*
		 * Half of the jobs reading the previous one's output have
		 * its priority: the same scheduler entity, where drm_sched
		 * itself drops the dependency and the driver must order them.
		 */
		if (cross && chance(w, 50))
			prio = job[i - 1].prio;
		slot_refill(w, i);
		if (build_job(w, i, kind, cross, prio, &job[i])) {
			n = i;
			break;
		}
		ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_SUBMIT, &job[i].s);
		if (ret) {
			fail(w, "SUBMIT of a %s job: %s", kind < 0 ? "good" : kinds[kind].name,
			     strerror(-ret));
			add(&sh->unexpected, 1);
			n = i;
			break;
		}
		__atomic_store_n(&sh->w[w->idx].in_flight, 1, __ATOMIC_RELAXED);
	}
	phase(w, "batch: waiting for the jobs");
	for (i = 0; i < n; i++) {
		if (wk_wait(w, job[i].s.seqno, &r[i])) {
			job[i].kind = -2;	/* already failed */
			continue;
		}
		if (job[i].kind >= 0) {
			add(&sh->seen[job[i].kind], 1);
			if (r[i].status == DRM_VPUX_STATUS_ERROR &&
			    wait_error(&r[i]) == kinds[job[i].kind].err)
				add(&sh->as_expected[job[i].kind], 1);
			else
				unexpected(w, &job[i], &r[i]);
		}
	}
	__atomic_store_n(&sh->w[w->idx].in_flight, 0, __ATOMIC_RELAXED);
	phase(w, "batch: checking the data");
	/* every job is done: now the data */
	for (i = 0; i < n; i++) {
		if (job[i].kind == -1) {
			check_good(w, i, &job[i], &r[i]);
		} else if (job[i].kind >= 0 &&
			   slot_check(w, i, &job[i], "refused job wrote memory")) {
			add(&sh->unexpected, 1);
		}
	}
	add(&sh->batches, 1);
	share_end(w);
}

/* Bad SUBMIT arguments: refused with their errno; then the job runs. */
static void do_bad_args(struct wk *w)
{
	int kind = K_ARG_FLAGS + (int)below(w, 4), ret;
	struct drm_vpux_wait r;
	struct job j, bad;

	share_begin(w, "bad SUBMIT arguments");
	slot_refill(w, 0);
	if (build_job(w, 0, -1, 0, below(w, 4), &j))
		goto out;
	bad = j;
	bad.s.buffers = (uintptr_t)bad.list;
	switch (kind) {
	case K_ARG_FLAGS: bad.s.flags = 1u << below(w, 32); break;
	case K_ARG_HANDLE: bad.s.task.handle = 0x7fff0000u + below(w, 0xffff); break;
	case K_ARG_RANGE: bad.list[below(w, N_ENT - 1)].size = BUF_SZ + 1 + below(w, 4096); break;
	default: bad.s.queue_id = 0x10000 + below(w, 100); break;
	}
	ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_SUBMIT, &bad.s);
	add(&sh->seen[kind], 1);
	if (ret == kinds[kind].err) {
		add(&sh->as_expected[kind], 1);
	} else {
		add(&sh->unexpected, 1);
		fail(w, "%s: SUBMIT returned %d, expected %s", kinds[kind].name, ret,
		     kinds[kind].expect);
		if (!ret)
			wk_wait(w, bad.s.seqno, &r);
		goto out;
	}
	/* nothing was queued: the job as it should be runs */
	ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_SUBMIT, &j.s);
	if (ret) {
		fail(w, "SUBMIT of a good job after %s: %s", kinds[kind].name, strerror(-ret));
		goto out;
	}
	__atomic_store_n(&sh->w[w->idx].in_flight, 1, __ATOMIC_RELAXED);
	if (!wk_wait(w, j.s.seqno, &r))
		check_good(w, 0, &j, &r);
	__atomic_store_n(&sh->w[w->idx].in_flight, 0, __ATOMIC_RELAXED);
out:
	share_end(w);
}

/* After a fault or hang: SUBMIT must say -EBADFD; then a new file. */
static int banned(struct wk *w, struct job *j, const char *what)
{
	int ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_SUBMIT, &j->s);

	if (ret != -EBADFD) {
		fail(w, "after %s, SUBMIT returned %d, not -EBADFD (banned)", what, ret);
		return -1;
	}
	return 0;
}

/* A DMA write into the read-only BO: an MMU fault, the file banned. */
static void do_mmu_fault(struct wk *w)
{
	struct drm_vpux_wait r;
	struct slot *s = &w->slot[0];
	struct tb tb;
	struct job j = { .kind = K_MMU_FAULT, .nops = 1 };
	uint32_t len = 1 + below(w, BUF_SZ), off = below(w, BUF_SZ - len + 1);
	int ok = 1, ret;
	size_t k;

	share_begin(w, "write to a read-only BO");
	fill_random(w, s->src.map, BUF_SZ);
	tb_init(&tb, s->task.map, 0, 1, 0, 0);
	tb_copy(&tb.dma[0], tb_ref(E_SRC, 0, len), tb_ref(E_DST, off, len), len);
	job_args(&j, s, tb.size, s->src.handle, w->ro.handle, w->q[below(w, 4)]);
	ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_SUBMIT, &j.s);
	if (ret == -EACCES && !cfg.ro_unchecked) {
		/* SUBMIT's check, in front of the MMU: no job at all */
		add(&sh->seen[K_MMU_FAULT], 1);
		for (k = 0; k < BUF_SZ && ok; k++)
			ok = !w->ro.map[k];
		add(ok ? &sh->as_expected[K_MMU_FAULT] : &sh->unexpected, 1);
		if (!ok)
			fail(w, "the read-only BO changed");
		goto out;
	}
	if (ret) {
		fail(w, "SUBMIT of a write to a read-only BO: %s", strerror(-ret));
		add(&sh->unexpected, 1);
		goto out;
	}
	__atomic_store_n(&sh->w[w->idx].in_flight, 1, __ATOMIC_RELAXED);
	ret = wk_wait(w, j.s.seqno, &r);
	__atomic_store_n(&sh->w[w->idx].in_flight, 0, __ATOMIC_RELAXED);
	if (ret)
		goto out;
	add(&sh->seen[K_MMU_FAULT], 1);
	if (r.status != DRM_VPUX_STATUS_MMU_FAULT) {
		unexpected(w, &j, &r);
		ok = 0;
	} else if (r.fault_addr < w->ro.addr + off || r.fault_addr >= w->ro.addr + off + len) {
		fail(w, "MMU fault at %#llx, the write was to [%#llx, %#llx)",
		     (unsigned long long)r.fault_addr, (unsigned long long)(w->ro.addr + off),
		     (unsigned long long)(w->ro.addr + off + len));
		ok = 0;
	}
	for (k = 0; k < BUF_SZ && ok; k++)
		if (w->ro.map[k]) {
			fail(w, "the device wrote the read-only BO (byte %zu is %#04x)", k,
			     w->ro.map[k]);
			ok = 0;
		}
	if (ok && !banned(w, &j, "an MMU fault"))
		add(&sh->as_expected[K_MMU_FAULT], 1);
	else
		add(&sh->unexpected, 1);
out:
	share_end(w);
	add(&sh->reopens, 1);
	file_open(w);
}

/* Claim the next injection: one every INJECT_GAP_NS at most. */
static int inject_claim(void)
{
	__s64 t = now_ns(), next = __atomic_load_n(&sh->next_inject, __ATOMIC_RELAXED);

	return t >= next &&
	       __atomic_compare_exchange_n(&sh->next_inject, &next, t + INJECT_GAP_NS, 0,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/* The parent may not kill this worker until kill_ok(); 0 if it is at it. */
static int no_kill(struct wk *w)
{
	__atomic_store_n(&sh->w[w->idx].no_kill, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sh->w[w->idx].kill_req, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&sh->w[w->idx].no_kill, 0, __ATOMIC_SEQ_CST);
		return 0;
	}
	return 1;
}

static void kill_ok(struct wk *w)
{
	__atomic_store_n(&sh->w[w->idx].no_kill, 0, __ATOMIC_SEQ_CST);
}

static int wait_until_quiet(struct wk *w)
{
	__s64 end = now_ns() + WAIT_NS;
	char text[2048];
	int busy;

	/* a killed worker's jobs are drained when it is reaped */
	while (__atomic_load_n(&sh->dying, __ATOMIC_SEQ_CST) && now_ns() < end)
		usleep(2000);
	if (__atomic_load_n(&sh->dying, __ATOMIC_SEQ_CST)) {
		fail(w, "killed workers not reaped after %lld s", WAIT_NS / 1000000000ll);
		return -1;
	}
	while ((busy = dbg_engine_busy(cfg.minor, -1, text, sizeof(text))) > 0 && now_ns() < end)
		usleep(2000);
	if (busy) {
		fail(w, "the device has no job but is not idle (%d): %s", busy, text);
		return -1;
	}
	return 0;
}

/*
 * A fault injected into DMA engine 0 while this worker has the device to
 * itself: with every engine idle, the task's first DMA op goes to engine 0
 * (the lowest idle one) and takes the fault.
 */
static void do_inject(struct wk *w)
{
	int inj = (int)(__atomic_fetch_add(&sh->inject_turn, 1, __ATOMIC_RELAXED) % N_INJ);
	int kind = K_INJ_FIRST + inj, excl = 1, armed = 0, ret, taken = 0;
	struct drm_vpux_wait r = { 0 };
	char text[2048] = "";
	struct job j;
	__s64 end;

	phase(w, "injection: waiting for the injection lock");
	lk(w, L_INJ, LOCK_EX);
	phase(w, "injection: waiting for the device lock (exclusive)");
	lk(w, L_GATE, LOCK_EX);
	lk(w, L_DEV, LOCK_EX);
	phase(w, "injection: waiting for reaps and idle engines");
	if (wait_until_quiet(w))
		goto out;
	if (!no_kill(w))
		goto out;	/* about to be killed */
	armed = 1;
	phase(w, kinds[kind].name);
	slot_refill(w, 0);
	if (build_job(w, 0, -1, 0, below(w, 4), &j))
		goto out;
	j.kind = kind;
	ret = dbg_write(cfg.minor, "inject", inject_cmd[inj]);
	if (ret) {
		fail(w, "debugfs inject \"%s\": %s", inject_cmd[inj], strerror(-ret));
		goto out;
	}
	ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_SUBMIT, &j.s);
	if (ret) {
		fail(w, "SUBMIT with %s armed: %s", kinds[kind].name, strerror(-ret));
		goto out;
	}
	__atomic_store_n(&sh->w[w->idx].in_flight, 1, __ATOMIC_RELAXED);
	add(&sh->seen[kind], 1);
	if (kind == K_INJ_HANG) {
		/*
		 * Taken once engine 0 reports busy: the device was idle, so
		 * that is this task's op, and it will never complete. From
		 * then on the others may go on.
		 */
		end = now_ns() + WAIT_NS;
		while (now_ns() < end) {
			ret = dbg_engine_busy(cfg.minor, 0, text, sizeof(text));
			if (ret) {
				taken = ret > 0;
				break;
			}
			memset(&r, 0, sizeof(r));
			r.seqno = j.s.seqno;
			if (!vpux_ioctl(w->fd, DRM_IOCTL_VPUX_WAIT, &r))
				break;	/* done: the hang was not taken */
			usleep(500);
		}
		if (!taken) {
			fail(w, "injected hang not taken by engine 0 (%d, job status %s): %s",
			     ret, status_name(r.status), text);
			goto out;
		}
		add(&sh->hangs, 1);
		dbg_write(cfg.minor, "inject", "none");
		/*
		 * Half of the time the worker may be killed while its hung
		 * job waits for the timeout (the reset must happen all the
		 * same); otherwise it lives to check the result.
		 */
		if (chance(w, 50)) {
			armed = 0;
			kill_ok(w);
		}
		lk(w, L_DEV, LOCK_UN);
		lk(w, L_GATE, LOCK_UN);
		excl = 0;
		phase(w, "injected hang taken: waiting for the job's end");
		if (wk_wait(w, j.s.seqno, &r))
			goto out;
		add(&sh->hang_results, 1);
		if (r.status != DRM_VPUX_STATUS_TIMEOUT || wait_error(&r) != -ETIMEDOUT)
			unexpected(w, &j, &r);
		else if (!banned(w, &j, "a hang"))
			add(&sh->as_expected[kind], 1);
		add(&sh->reopens, 1);
		file_open(w);
		goto out;
	}
	/* the worker stays unkillable until the outcome is counted */
	ret = wk_wait(w, j.s.seqno, &r);
	dbg_write(cfg.minor, "inject", "none");
	if (ret)
		goto out;
	if (kind == K_INJ_MMU_FAULT) {
		if (r.status != DRM_VPUX_STATUS_MMU_FAULT)
			unexpected(w, &j, &r);
		else if (!banned(w, &j, "an injected MMU fault"))
			add(&sh->as_expected[kind], 1);
		kill_ok(w);
		armed = 0;
		add(&sh->reopens, 1);
		file_open(w);
	} else if (r.status != DRM_VPUX_STATUS_DONE || wait_error(&r)) {
		unexpected(w, &j, &r);
	} else if (!slot_check(w, 0, &j, kinds[kind].name)) {
		add(&sh->as_expected[kind], 1);
	}
out:
	__atomic_store_n(&sh->w[w->idx].in_flight, 0, __ATOMIC_RELAXED);
	if (armed) {
		dbg_write(cfg.minor, "inject", "none");
		kill_ok(w);
	}
	if (excl) {
		lk(w, L_DEV, LOCK_UN);
		lk(w, L_GATE, LOCK_UN);
	}
	lk(w, L_INJ, LOCK_UN);
	phase(w, "between jobs");
}

static int worker_main(int idx, uint64_t gen)
{
	struct wk *w = calloc(1, sizeof(*w));
	int i;

	if (!w)
		return 3;
	w->idx = idx;
	w->gen = gen;
	w->fd = -1;
	w->rng = cfg.seed ^ ((uint64_t)(idx + 1) * 0xd1b54a32d192ed03ull) ^
		 (gen * 0x8cb92ba72f3d8dd7ull);
	splitmix(&w->rng);
	for (i = 0; i < 3; i++) {
		w->lock[i] = open(cfg.lock_path[i], O_RDWR | O_CLOEXEC);
		if (w->lock[i] < 0) {
			fail(w, "open %s: %s", cfg.lock_path[i], strerror(errno));
			return 3;
		}
	}
	file_open(w);
	for (w->iter = 0; !__atomic_load_n(&sh->stop, __ATOMIC_RELAXED); w->iter++) {
		unsigned int r = below(w, 100);

		if (cfg.inject && inject_claim())
			do_inject(w);
		else if (r < 3)
			do_mmu_fault(w);
		else if (r < 7)
			do_bad_args(w);
		else
			do_batch(w);
	}
	file_close(w);
	return 0;
}

/* ---- the parent -------------------------------------------------------- */

static pid_t spawn(int idx, uint64_t gen)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(worker_main(idx, gen));
	if (pid < 0) {
		fail(NULL, "fork: %s", strerror(errno));
		return -1;
	}
	sh->w[idx].no_kill = sh->w[idx].kill_req = sh->w[idx].in_flight = 0;
	sh->w[idx].phase = "starting";
	sh->w[idx].pid = pid;
	return pid;
}

/* A normal DMA job in a fresh file: 64 KiB in two halves, swapped. */
static int device_works(char *why, size_t len)
{
	enum { SZ = 65536 };
	struct drm_vpux_submit s = { 0 };
	struct drm_vpux_wait r = { 0 };
	struct drm_vpux_buf list[2];
	struct bo t, a, b;
	struct tb tb;
	int fd, ret, i;

	fd = vpux_open_nth(cfg.dev, NULL);
	if (fd < 0) {
		snprintf(why, len, "open: %s", strerror(-fd));
		return 0;
	}
	if ((ret = bo_new(fd, TASK_SZ, 0, &t)) || (ret = bo_new(fd, SZ, 0, &a)) ||
	    (ret = bo_new(fd, SZ, 0, &b))) {
		snprintf(why, len, "BO: %s", strerror(-ret));
		close(fd);
		return 0;
	}
	for (i = 0; i < SZ; i++)
		a.map[i] = (unsigned char)(i * 13 + 5);
	tb_init(&tb, t.map, 1, 2, 0, 0);
	tb_copy(&tb.dma[0], tb_ref(1, 0, SZ / 2), tb_ref(2, SZ / 2, SZ / 2), SZ / 2);
	tb_copy(&tb.dma[1], tb_ref(1, SZ / 2, SZ / 2), tb_ref(2, 0, SZ / 2), SZ / 2);
	tb_update(&tb, &tb.dma[0].deps, 0);
	tb_wait(&tb, &tb.dma[1].deps, 0);
	list[0] = (struct drm_vpux_buf){ .handle = a.handle, .size = SZ };
	list[1] = (struct drm_vpux_buf){ .handle = b.handle, .size = SZ };
	s.task = (struct drm_vpux_buf){ .handle = t.handle, .size = tb.size };
	s.buffers = (uintptr_t)list;
	s.buffer_count = 2;
	ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s);
	if (!ret) {
		r.seqno = s.seqno;
		r.timeout_ns = now_ns() + 30000000000ll;
		ret = vpux_ioctl(fd, DRM_IOCTL_VPUX_WAIT, &r);
	}
	if (ret || r.status != DRM_VPUX_STATUS_DONE) {
		snprintf(why, len, "job: %d, status %s error %d", ret, status_name(r.status),
			 wait_error(&r));
		close(fd);
		return 0;
	}
	ret = memcmp(a.map, b.map + SZ / 2, SZ / 2) || memcmp(a.map + SZ / 2, b.map, SZ / 2);
	close(fd);
	if (ret)
		snprintf(why, len, "data differs");
	return !ret;
}

/* Where a worker that does not stop is: its phase, wchan, kernel stack. */
static void report_stuck(unsigned int i, pid_t pid)
{
	char path[64], buf[2048];
	ssize_t n;
	char *line, *save = NULL;
	int fd, k;

	say("# worker %u (pid %d) is at: %s", i, (int)pid,
	    sh->w[i].phase ? sh->w[i].phase : "?");
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, k ? "stack" : "wchan");
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			say("#   %s: %s", k ? "stack" : "wchan", line);
	}
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [--seed S] [--time SECS] [--procs N (1..%d)] [--device D]\n",
		argv0, MAX_PROCS);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "time", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t gen[MAX_PROCS] = { 0 }, kills = 0, kills_busy = 0, restarts = 0;
	uint64_t deaths = 0, refused = 0, refused_ok = 0, injected = 0, unreplaced = 0;
	int have_seed = 0, c, fd, alive, dying[MAX_PROCS] = { 0 }, ok, test = 0, nok = 0;
	int target = -1, tries = 0;
	long resets0 = -1, resets1 = -1;
	__s64 start, end, next_kill, give_up;
	uint64_t kill_rng;
	unsigned int i;
	char why[160];

	while ((c = getopt_long(argc, argv, "s:t:p:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': cfg.seed = strtoull(optarg, NULL, 0); have_seed = 1; break;
		case 't': cfg.secs = strtoul(optarg, NULL, 0); break;
		case 'p': cfg.procs = strtoul(optarg, NULL, 0); break;
		case 'd': cfg.dev = atoi(optarg); break;
		default: usage(argv[0]);
		}
	}
	if (!cfg.procs || cfg.procs > MAX_PROCS || cfg.dev < 0 || !cfg.secs)
		usage(argv[0]);
	if (!have_seed)
		cfg.seed = (uint64_t)now_ns() ^ ((uint64_t)getpid() << 32);

	printf("TAP version 13\n");
	printf("# vpux_soak --seed %" PRIu64 " --time %u --procs %u --device %d\n",
	       cfg.seed, cfg.secs, cfg.procs, cfg.dev);
	fd = vpux_open_nth(cfg.dev, &cfg.minor);
	if (fd < 0) {
		printf("1..0 # SKIP no vpux device %d (is vpux_accel loaded?)\n", cfg.dev);
		return 4;
	}
	close(fd);
	resets0 = dbg_read(cfg.minor, "resets");
	if (resets0 >= 0 && !dbg_write(cfg.minor, "inject", "none"))
		cfg.inject = 1;
	else
		printf("# no debugfs fault injection (resets %ld): no injected faults\n",
		       resets0);
	/* writes to read-only BOs reach the MMU (uapi 1.5 refuses them at SUBMIT) */
	if (!dbg_write(cfg.minor, "skip_readonly_check", "Y"))
		cfg.ro_unchecked = 1;
	printf("1..6\n");
	fflush(stdout);

	for (i = 0; i < 3; i++) {
		static const char *const names[] = { "gate", "device", "inject" };
		const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		int lfd;

		snprintf(cfg.lock_path[i], sizeof(cfg.lock_path[i]), "%s/vpux_soak.%d.%s",
			 dir, (int)getpid(), names[i]);
		lfd = open(cfg.lock_path[i], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (lfd < 0) {
			printf("Bail out! lock file %s: %s\n", cfg.lock_path[i], strerror(errno));
			return 1;
		}
		close(lfd);
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	kill_rng = cfg.seed ^ 0x5eed5eed5eedull;
	start = now_ns();
	end = start + (__s64)cfg.secs * 1000000000ll;
	sh->next_inject = start + INJECT_GAP_NS / 2;
	next_kill = start + 500000000ll + (__s64)(splitmix(&kill_rng) % 1500000000ull);
	for (i = 0; i < cfg.procs; i++)
		spawn(i, 0);

	/* reap, kill, restart until the time is up and every worker is gone */
	give_up = end + 2 * WAIT_NS;
	for (;;) {
		int status;
		pid_t pid;

		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			for (i = 0; i < cfg.procs && sh->w[i].pid != pid; i++)
				;
			if (i == cfg.procs)
				continue;
			sh->w[i].pid = 0;
			if (dying[i]) {
				unreplaced += !!sh->stop;
				dying[i] = 0;
				__atomic_fetch_sub(&sh->dying, 1, __ATOMIC_SEQ_CST);
				if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
					fail(NULL, "killed worker %u (pid %d) ended with status %#x",
					     i, (int)pid, status);
					deaths++;
				}
			} else if (WIFSIGNALED(status)) {
				fail(NULL, "worker %u (pid %d) killed by signal %d (%s)", i,
				     (int)pid, WTERMSIG(status), strsignal(WTERMSIG(status)));
				deaths++;
			} else if (WEXITSTATUS(status) || !sh->stop) {
				fail(NULL, "worker %u (pid %d) exited with %d%s", i, (int)pid,
				     WEXITSTATUS(status), sh->stop ? "" : " before the end");
				deaths++;
			}
			if (!sh->stop && spawn(i, ++gen[i]) > 0)
				restarts++;
		}
		if (!sh->stop && now_ns() >= end)
			__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
		for (alive = 0, i = 0; i < cfg.procs; i++)
			alive += sh->w[i].pid > 0;
		if (sh->stop && !alive)
			break;
		if (now_ns() > give_up) {
			for (i = 0; i < cfg.procs; i++)
				if (sh->w[i].pid > 0) {
					fail(NULL, "worker %u (pid %d) still running %lld s after the end: killed",
					     i, (int)sh->w[i].pid, (give_up - end) / 1000000000ll);
					report_stuck(i, sh->w[i].pid);
					kill(sh->w[i].pid, SIGKILL);
					deaths++;
				}
			/* stuck in the kernel, they may not even die */
			give_up += 10000000000ll;
			while (waitpid(-1, NULL, WNOHANG) >= 0 && now_ns() < give_up)
				usleep(100000);
			break;
		}
		if (!sh->stop && now_ns() >= next_kill) {
			/* a worker with jobs in flight, if it has some within ~1 s */
			if (target < 0) {
				target = (int)(splitmix(&kill_rng) % cfg.procs);
				tries = 0;
			}
			i = (unsigned int)target;
			if (sh->w[i].pid > 0 && !dying[i] && tries++ < 1000 &&
			    !__atomic_load_n(&sh->w[i].in_flight, __ATOMIC_RELAXED)) {
				usleep(1000);
				continue;
			}
			target = -1;
			if (sh->w[i].pid > 0 && !dying[i]) {
				__atomic_store_n(&sh->w[i].kill_req, 1, __ATOMIC_SEQ_CST);
				if (__atomic_load_n(&sh->w[i].no_kill, __ATOMIC_SEQ_CST)) {
					/* an injection is armed: another time */
					__atomic_store_n(&sh->w[i].kill_req, 0, __ATOMIC_SEQ_CST);
				} else {
					kills_busy += __atomic_load_n(&sh->w[i].in_flight,
								      __ATOMIC_RELAXED) != 0;
					__atomic_fetch_add(&sh->dying, 1, __ATOMIC_SEQ_CST);
					dying[i] = 1;
					kill(sh->w[i].pid, SIGKILL);
					kills++;
				}
			}
			next_kill = now_ns() + 300000000ll +
				    (__s64)(splitmix(&kill_rng) % 2000000000ull);
		}
		usleep(10000);
	}
	for (i = 0; i < 3; i++)
		unlink(cfg.lock_path[i]);

	/* the figures */
	printf("# %.1f s, %u worker processes on vpux device %d (accel%d), seed %" PRIu64 "\n",
	       (now_ns() - start) / 1e9, cfg.procs, cfg.dev, cfg.minor, cfg.seed);
	printf("# good jobs: %" PRIu64 " right, %" PRIu64 " WRONG; %" PRIu64 " DMA ops, %"
	       PRIu64 " bytes copied, checked bit for bit with the bytes around them\n",
	       sh->good_ok, sh->good_wrong, sh->good_ops, sh->good_bytes);
	printf("#   of which %" PRIu64 " chains through barriers, %" PRIu64
	       " fan-ins, %" PRIu64 " reading the previous job's output; %" PRIu64 " batches\n",
	       sh->chains, sh->fanins, sh->cross, sh->batches);
	printf("# bad jobs (seen / with the expected result):\n");
	for (c = 0; c < N_KINDS; c++) {
		printf("#   %-30s %-34s %6" PRIu64 " / %" PRIu64 "\n", kinds[c].name,
		       kinds[c].expect, sh->seen[c], sh->as_expected[c]);
		if (c < K_INJ_FIRST) {
			refused += sh->seen[c];
			refused_ok += sh->as_expected[c];
		} else {
			injected += sh->seen[c];
		}
	}
	printf("# unexpected statuses or errnos: %" PRIu64 "\n", sh->unexpected);
	printf("# files reopened after a ban: %" PRIu64 "\n", sh->reopens);
	resets1 = dbg_read(cfg.minor, "resets");
	if (cfg.ro_unchecked)
		dbg_write(cfg.minor, "skip_readonly_check", "N");
	printf("# resets: %ld before, %ld after; injected hangs taken: %" PRIu64 "\n",
	       resets0, resets1, sh->hangs);
	printf("# kills: %" PRIu64 " (%" PRIu64 " with jobs in flight), restarts %" PRIu64
	       ", other worker deaths %" PRIu64 "\n", kills, kills_busy, restarts, deaths);
	printf("# failures logged: %" PRIu64 "\n", sh->failures);

	ok = !sh->good_wrong && sh->good_ok > 0;
	nok += !ok;
	printf("%sok %d - every good job completed with the reference's output (%" PRIu64
	       " right, %" PRIu64 " wrong)\n", ok ? "" : "not ", ++test, sh->good_ok,
	       sh->good_wrong);
	/*
	 * Every wrong outcome counts as unexpected; seen and as-expected
	 * may differ by a worker killed between the two counts.
	 */
	ok = !sh->unexpected && refused_ok > 0;
	nok += !ok;
	printf("%sok %d - every bad job had its documented outcome (%" PRIu64 " of %" PRIu64
	       ", %" PRIu64 " unexpected)\n", ok ? "" : "not ", ++test, refused_ok, refused,
	       sh->unexpected);
	if (!cfg.inject) {
		printf("ok %d # SKIP no debugfs fault injection\n", ++test);
		printf("ok %d # SKIP no debugfs resets counter\n", ++test);
	} else {
		uint64_t inj_ok = 0;

		for (c = K_INJ_FIRST; c < N_KINDS; c++)
			inj_ok += sh->as_expected[c];
		/*
		 * A worker killed while its hung job waited for the timeout
		 * never saw the result; every other injection must have had
		 * its documented one.
		 */
		ok = injected > 0 && inj_ok + (sh->hangs - sh->hang_results) == injected;
		nok += !ok;
		printf("%sok %d - injected faults had their documented outcome (%" PRIu64
		       " of %" PRIu64 ", %" PRIu64 " hangs whose worker was killed first)\n",
		       ok ? "" : "not ", ++test, inj_ok, injected, sh->hangs - sh->hang_results);
		/* only a hang resets; MMU faults and refused tasks do not */
		ok = resets1 >= 0 && resets1 - resets0 == (long)sh->hangs;
		nok += !ok;
		printf("%sok %d - resets grew by exactly the number of injected hangs (%ld, %"
		       PRIu64 ")\n", ok ? "" : "not ", ++test, resets1 - resets0, sh->hangs);
	}
	ok = !deaths && kills == restarts + unreplaced && (kills > 0 || cfg.secs < 5);
	nok += !ok;
	printf("%sok %d - every killed worker died of SIGKILL and was replaced, no other death (%"
	       PRIu64 " kills, %" PRIu64 " restarts, %" PRIu64 " after the end, %" PRIu64
	       " other deaths)\n", ok ? "" : "not ", ++test, kills, restarts, unreplaced, deaths);
	ok = device_works(why, sizeof(why));
	nok += !ok;
	if (!ok)
		printf("# final job: %s\n", why);
	printf("%sok %d - a normal job runs and its data is right afterwards\n",
	       ok ? "" : "not ", ++test);
	if (nok)
		printf("# replay: vpux_soak --seed %" PRIu64 " --time %u --procs %u --device %d\n",
		       cfg.seed, cfg.secs, cfg.procs, cfg.dev);
	fflush(stdout);
	return nok ? 1 : 0;
}
