// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux fault injection: make the kernel's allocations fail (failslab,
 * fail_page_alloc) and the NPU model misbehave (debugfs "inject": hang,
 * lost interrupt, MMU fault, slow engine) on every ioctl path and job
 * path of the driver, and check that
 *
 *  - every call either succeeds or fails with an errno its path may
 *    return when memory runs out (table "allowed" below),
 *  - every job SUBMIT accepted finishes (WAIT returns a status within
 *    30 s) and a job that completed has the right data,
 *  - afterwards, with injection off, a normal job runs and its data is
 *    right, and nothing of ours is left (no file in debugfs bo_list, no
 *    extra fd). Kernel warnings and leaks are the VM rig's to catch
 *    (dmesg and kmemleak after the run).
 *
 * One scenario is the life of a small client: open (twice), GET_PARAM,
 * BO_CREATE (task, source, destination), BO_INFO, mmap and touch, PRIME
 * export and import into the second file, syncobj create, SUBMIT (in-
 * and binary or timeline out-syncobjs), WAIT (job and syncobj), a job of
 * the second file on the BO it imported, GEM_CLOSE, close; or the files
 * are closed with the jobs in flight. The seed picks sizes, flags,
 * priorities and which optional parts run. Phases:
 *
 *  nth     systematic: for every step, its 1st, 2nd, ... allocation fails
 *          (/proc/thread-self/fail-nth) until the step runs out of them;
 *          exactly repeatable
 *  random  every allocation of the stepping thread fails with probability
 *          P% (task-filter + make-it-fail); a model fault every 8th
 *          scenario
 *  global  no task filter: from SUBMIT to the last WAIT, allocations
 *          whose call stack is inside vpux_accel.ko's text fail with
 *          probability P% in any thread, so the scheduler's and the
 *          interrupt's work (run_job, completion, timeout) are hit
 *  model   only the model's faults, one scenario each (no failslab needed)
 *
 *   vpux_faultinj [--seed S] [--iterations N] [--probability P]
 *                 [--mode slab|page|model|all] [--time SECS] [--module-only]
 *                 [--verbose]
 *
 * --module-only restricts the random phase too to allocations below
 * vpux_accel's code (the stack filter), so they land in the driver's
 * paths and its callees rather than in the VFS around them.
 * slab and page select which allocator fails (all: both, one after the
 * other). Without the fault-injection debugfs (a stock kernel) the
 * allocation phases are reported as skipped. The kernel draws its own
 * random numbers: a seed repeats the calls, the nth phase repeats exactly.
 * Output is TAP; "# " lines give the figures.
 */
#ifndef _GNU_SOURCE	/* the kselftest lib.mk defines it */
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "vpux_common.h"
#include "task_builder.h"

#define WAIT_NS		30000000000ll	/* an accepted job finishes by then */
#define NERR		160
#define MAX_NTH		400		/* allocations of one step, at most */
#define MAX_LOG		30

enum step {
	S_OPEN, S_GET_PARAM, S_BO_CREATE, S_BO_INFO, S_MMAP, S_PRIME_EXPORT,
	S_PRIME_IMPORT, S_SYNCOBJ, S_SUBMIT, S_WAIT, S_SYNCOBJ_WAIT,
	S_GEM_CLOSE, S_CLOSE, NSTEPS
};

static const char *const step_name[NSTEPS] = {
	"open", "GET_PARAM", "BO_CREATE", "BO_INFO", "mmap+touch",
	"PRIME_HANDLE_TO_FD", "PRIME_FD_TO_HANDLE", "SYNCOBJ_CREATE+SIGNAL",
	"SUBMIT", "WAIT", "SYNCOBJ_WAIT", "GEM_CLOSE", "close",
};

/*
 * What a step may return when an allocation fails, besides success:
 * ENOMEM everywhere memory is allocated; ENOSPC from BO_CREATE, where
 * shmem reports a failed inode allocation as a full file system (and the
 * driver documents it for a full address space). Nothing else: EINTR and
 * EAGAIN would need a signal (vpux_ioctl retries them anyway), EBUSY 256
 * unfinished jobs, which a scenario never has. SYNCOBJ_WAIT allocates its
 * waiters (DRM core). GET_PARAM, WAIT, GEM_CLOSE and close allocate
 * nothing the caller could be told about and must not fail at all.
 */
static const int allowed[NSTEPS][4] = {
	[S_OPEN] = { ENOMEM },
	[S_BO_CREATE] = { ENOMEM, ENOSPC },
	[S_BO_INFO] = { ENOMEM },
	[S_MMAP] = { ENOMEM },
	[S_PRIME_EXPORT] = { ENOMEM },
	[S_PRIME_IMPORT] = { ENOMEM },
	[S_SYNCOBJ] = { ENOMEM },
	[S_SUBMIT] = { ENOMEM },
	[S_SYNCOBJ_WAIT] = { ENOMEM },
};

enum phase { PH_NTH, PH_RANDOM, PH_GLOBAL, PH_MODEL };
static const char *const phase_name[] = { "nth", "random", "global", "model" };

enum mfault { MF_NONE, MF_HANG, MF_DROP_IRQ, MF_MMU_FAULT, MF_SLOW, NMF };
static const char *const mf_name[NMF] = {
	"none", "hang", "drop_irq", "mmu_fault", "slow",
};
static const char *const status_name[] = {
	"0", "DONE", "ERROR", "MMU_FAULT", "TIMEOUT", "ABORTED",
};

static struct {
	uint64_t seed;
	unsigned int iterations, prob, secs;
	int slab, page, model, verbose, module_only;
} cfg = { .seed = 1, .iterations = 60, .prob = 10, .secs = 100,
	  .slab = 1, .page = 1, .model = 1 };

/* figures */
static struct {
	uint64_t calls[NSTEPS], ok[NSTEPS], err[NSTEPS][NERR];
	uint64_t injected[NSTEPS];
	uint64_t jobs, status[6], data_ok, mfaults[NMF], scenarios;
	uint64_t nth_runs, phase_jobs[4], importer_jobs, abandoned;
	unsigned int nth_max[NSTEPS];
} st;
static int failures;

static char dev_path[64];
static int minor = -1;
static __s64 t_end;
static int fd_nth = -1, fd_mif = -1;
static enum phase cur_phase;
static const char *cur_alloc = "";

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (failures++ >= MAX_LOG)
		return;
	printf("# FAIL [%s%s%s] ", phase_name[cur_phase], *cur_alloc ? " " : "",
	       cur_alloc);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ---- files: debugfs attributes, saved and restored ---- */

#define FI_SLAB	"/sys/kernel/debug/failslab/"
#define FI_PAGE	"/sys/kernel/debug/fail_page_alloc/"

static struct saved {
	char path[96];
	char val[64];
} saved[64];
static int nsaved;

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* Set a fault attribute, remembering its first value for restore(). */
static void fi_set(const char *dir, const char *name, const char *val)
{
	char path[96];
	int i, ret;

	snprintf(path, sizeof(path), "%s%s", dir, name);
	for (i = 0; i < nsaved; i++)
		if (!strcmp(saved[i].path, path))
			break;
	if (i == nsaved && nsaved < (int)(sizeof(saved) / sizeof(saved[0]))) {
		if (!read_str(path, saved[i].val, sizeof(saved[i].val))) {
			snprintf(saved[i].path, sizeof(saved[i].path), "%s", path);
			nsaved++;
		}
	}
	ret = file_write(path, val);
	if (ret)
		fail("cannot write %s to %s: %s", val, path, strerror(-ret));
}

static long fi_get(const char *dir, const char *name)
{
	char path[96], buf[64];

	snprintf(path, sizeof(path), "%s%s", dir, name);
	if (read_str(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 0);
}

static void thread_inject(int on)
{
	if (fd_mif >= 0 && pwrite(fd_mif, on ? "1" : "0", 1, 0) != 1)
		fail("make-it-fail: %s", strerror(errno));
}

static void restore(void)
{
	thread_inject(0);
	if (fd_nth >= 0 && pwrite(fd_nth, "0", 1, 0) < 0)
		fd_nth = -1;
	/* probabilities first: nothing fails while the rest is restored */
	file_write(FI_SLAB "probability", "0");
	file_write(FI_PAGE "probability", "0");
	while (nsaved--)
		file_write(saved[nsaved].path, saved[nsaved].val);
	nsaved = 0;
}

static void on_signal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- debugfs of the device ---- */

static long dbg_resets(void)
{
	char path[160], buf[32];
	int i, ret = -1;

	if (dbg_path(minor, "resets", path, sizeof(path)))
		return -1;
	/* opening it allocates: under global injection that may fail */
	for (i = 0; i < 100 && (ret = read_str(path, buf, sizeof(buf))); i++)
		usleep(1000);
	return ret ? -1 : strtol(buf, NULL, 0);
}

/* Files listed in bo_list (every open file of the device). */
static int dbg_files(void)
{
	char path[160], *buf, *p;
	int fd, n = 0;
	ssize_t len;

	if (dbg_path(minor, "bo_list", path, sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	buf = calloc(1, 1 << 20);
	len = buf ? read(fd, buf, (1 << 20) - 1) : -1;
	close(fd);
	if (len < 0) {
		free(buf);
		return -1;
	}
	for (p = buf; (p = strstr(p, "file ")); p++)
		if (p == buf || p[-1] == '\n')
			n++;
	free(buf);
	return n;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own */
}

/* ---- watchdog: no call may block for a minute ---- */

#define STUCK_NS	60000000000ll

static __s64 call_start;	/* when the current step began, 0 between */
static char scen_desc[256];	/* what the current scenario did so far */
static int call_step;
static pid_t main_tid;

static void dump_file(const char *path)
{
	char buf[4096], *line, *save;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("#   %s\n", line);
}

/* The kernel stacks of every task in D state (a worker may be stuck too). */
static void dump_blocked(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[600], buf[512], *p;

	if (!d)
		return;
	while ((e = readdir(d))) {
		DIR *td;
		struct dirent *te;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		td = opendir(path);
		if (!td)
			continue;
		while ((te = readdir(td))) {
			if (te->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat",
				 e->d_name, te->d_name);
			if (read_str(path, buf, sizeof(buf)))
				continue;
			p = strrchr(buf, ')');
			if (!p || p[2] != 'D')
				continue;
			printf("# task %s (D): %s\n", te->d_name, buf);
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stack",
				 e->d_name, te->d_name);
			dump_file(path);
		}
		closedir(td);
	}
	closedir(d);
}

/*
 * A call blocked in the kernel cannot report itself: print its kernel
 * stack once it has blocked for STUCK_NS, then leave the verdict to the
 * hung-task detector and the VM's time limit.
 */
static void *watchdog(void *arg)
{
	__s64 reported = 0;
	char path[160];

	for (;;) {
		__s64 t = __atomic_load_n(&call_start, __ATOMIC_RELAXED);

		sleep(1);
		if (!t || t == reported || now_ns() - t < STUCK_NS)
			continue;
		reported = t;
		fail("%s blocked for %lld s in scenario: %s; its kernel stack:",
		     step_name[call_step], (now_ns() - t) / 1000000000ll,
		     scen_desc);
		snprintf(path, sizeof(path), "/proc/self/task/%d/stack", main_tid);
		dump_file(path);
		printf("# device engines:\n");
		if (!dbg_path(minor, "engines", path, sizeof(path)))
			dump_file(path);
		printf("# files:\n");
		if (!dbg_path(minor, "bo_list", path, sizeof(path)))
			dump_file(path);
		dump_blocked();
		fflush(stdout);
	}
	return arg;
}

/* ---- injection around one step ---- */

static struct {
	int nth_step;		/* the step fail-nth applies to, or -1 */
	unsigned int nth;
	int nth_consumed;
	int nth_done;		/* the step ran once in this scenario */
	int random;		/* make-it-fail around every step */
	long times0;		/* "times" at the step's start */
} inj = { .nth_step = -1 };

static long times_left(void)
{
	long n = 0;

	if (cfg.slab)
		n += fi_get(FI_SLAB, "times");
	if (cfg.page)
		n += fi_get(FI_PAGE, "times");
	return n;
}

static void step_begin(enum step s)
{
	char buf[16];
	int n;

	call_step = s;
	__atomic_store_n(&call_start, now_ns(), __ATOMIC_RELAXED);
	if (inj.random)
		inj.times0 = times_left();
	if (inj.nth_step == (int)s && !inj.nth_done) {
		n = snprintf(buf, sizeof(buf), "%u", inj.nth);
		if (pwrite(fd_nth, buf, n, 0) != n)
			fail("fail-nth: %s", strerror(errno));
	} else if (inj.random) {
		thread_inject(1);
	}
}

static void step_end(enum step s)
{
	char buf[16] = "";

	__atomic_store_n(&call_start, 0, __ATOMIC_RELAXED);
	if (inj.nth_step == (int)s && !inj.nth_done) {
		inj.nth_done = 1;	/* its first run only, in a scenario */
		if (pread(fd_nth, buf, sizeof(buf) - 1, 0) < 0)
			fail("fail-nth: %s", strerror(errno));
		inj.nth_consumed = atoi(buf) == 0;
		if (inj.nth_consumed)
			st.injected[s]++;
		if (pwrite(fd_nth, "0", 1, 0) != 1)
			fail("fail-nth: %s", strerror(errno));
	} else if (inj.random) {
		thread_inject(0);
		st.injected[s] += inj.times0 - times_left();
	}
}

/* Record a step's outcome (0 or -errno); 0 if it is allowed. */
static int outcome(enum step s, int ret, const char *what)
{
	int i;

	st.calls[s]++;
	if (!ret) {
		st.ok[s]++;
		return 0;
	}
	st.err[s][-ret < NERR ? -ret : NERR - 1]++;
	for (i = 0; i < 4 && allowed[s][i]; i++)
		if (allowed[s][i] == -ret)
			return 0;
	fail("%s (%s): unexpected %s (%d)", step_name[s], what,
	     strerror(-ret), -ret);
	return ret;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	return vpux_ioctl(fd, req, arg);
}

/* ---- one scenario ---- */

static void desc_add(const char *fmt, ...)
{
	size_t n = strlen(scen_desc);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(scen_desc + n, sizeof(scen_desc) - n, fmt, ap);
	va_end(ap);
}

struct bo {
	__u32 handle;
	__u64 size;
	__u64 offset;
	unsigned char *map;
};

struct scen {
	uint64_t rng;
	int fd, fd2;
	struct bo task, src, dst;
	int have_task, have_src, have_dst;
	int dmabuf;
	__u32 imported;
	__u32 sync_in, sync_out;
	enum mfault mf;
};

static unsigned int below(struct scen *c, unsigned int n)
{
	return (unsigned int)(splitmix(&c->rng) % n);
}

static sigjmp_buf touch_jmp;
static volatile int in_touch;

static void on_sigbus(int sig)
{
	if (in_touch)
		siglongjmp(touch_jmp, 1);
	on_signal(sig);
}

static int bo_create(struct scen *c, int fd, struct bo *b, __u64 size)
{
	static const __u32 flags[] = { 0, DRM_VPUX_BO_CACHED, DRM_VPUX_BO_WC };
	struct drm_vpux_bo_create a = { .size = size, .flags = flags[below(c, 3)] };
	int ret;

	ret = xioctl(fd, DRM_IOCTL_VPUX_BO_CREATE, &a);
	if (!ret) {
		b->handle = a.handle;
		b->size = size;
		if (!a.device_addr) {
			fail("BO_CREATE: no device address");
			ret = -EIO;
		}
	}
	return outcome(S_BO_CREATE, ret, "create") ? -EIO : ret;
}

static int bo_info(struct scen *c, int fd, struct bo *b)
{
	struct drm_vpux_bo_info a = { .handle = b->handle };
	int ret = xioctl(fd, DRM_IOCTL_VPUX_BO_INFO, &a);

	if (!ret) {
		b->offset = a.mmap_offset;
		if (b->size && a.size != ((b->size + 4095) & ~4095ull))
			fail("BO_INFO: size %llu for a BO of %llu",
			     (unsigned long long)a.size,
			     (unsigned long long)b->size);
	}
	return outcome(S_BO_INFO, ret, "info") ? -EIO : ret;
}

static void fill(unsigned char *p, size_t len, unsigned int salt)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 13 + salt);
}

/* Map a BO and check that it reads zero where nothing was written. */
static int bo_map(struct bo *b, int fd)
{
	void *p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       b->offset);

	if (p == MAP_FAILED)
		return outcome(S_MMAP, -errno, "mmap") ? -EIO : -errno;
	b->map = p;
	return 0;
}

static void bo_unmap(struct bo *b)
{
	if (b->map)
		munmap(b->map, b->size);
	b->map = NULL;
}

static void gem_close(int fd, __u32 handle)
{
	struct drm_gem_close a = { .handle = handle };
	int ret;

	step_begin(S_GEM_CLOSE);
	ret = xioctl(fd, DRM_IOCTL_GEM_CLOSE, &a);
	step_end(S_GEM_CLOSE);
	outcome(S_GEM_CLOSE, ret, "close");
}

/*
 * Wait (up to 10 s) for the NPU to be quiet: every engine idle and no op
 * done over 20 ms. The jobs of a file closed with them in flight run on
 * (postclose does not wait for them), and the first op of one of those
 * on engine 0 would take an injection meant for the next scenario's job.
 */
static void wait_npu_quiet(void)
{
	char a[2048], b[2048];
	int i, busy;

	for (i = 0; i < 250; i++) {
		if (dbg_engine_busy(minor, -1, a, sizeof(a)) < 0)
			return;
		usleep(20000);
		busy = dbg_engine_busy(minor, -1, b, sizeof(b));
		if (busy < 0)
			return;
		if (!busy && !strcmp(a, b))
			return;
	}
	fail("the NPU is still busy 10 s after the last scenario");
}

static void mfault_arm(enum mfault mf)
{
	char buf[32];
	int ret;

	if (mf == MF_NONE)
		return;
	wait_npu_quiet();
	/* the first DMA op on engine 0 (the one a lone job gets) */
	if (mf == MF_SLOW)
		snprintf(buf, sizeof(buf), "slow 0 1 200");
	else
		snprintf(buf, sizeof(buf), "%s 0 1", mf_name[mf]);
	ret = dbg_write(minor, "inject", buf);
	if (ret)
		fail("inject %s: %s", buf, strerror(-ret));
	st.mfaults[mf]++;
}

static void mfault_disarm(void)
{
	dbg_write(minor, "inject", "none 0");
}

/*
 * The global phase fails allocations only from SUBMIT to the last WAIT:
 * the paths outside the calling thread (run_job, completion, timeout and
 * hang report) are its target, the ioctls get the random phase.
 */
static char global_prob[16];

static void global_inject(int on)
{
	if (cur_phase != PH_GLOBAL)
		return;
	if (cfg.slab && !strcmp(cur_alloc, "failslab"))
		file_write(FI_SLAB "probability", on ? global_prob : "0");
	if (cfg.page && !strcmp(cur_alloc, "fail_page_alloc"))
		file_write(FI_PAGE "probability", on ? global_prob : "0");
}

/* The result a job must have had. */
static void check_result(struct scen *c, const struct drm_vpux_wait *w,
			 size_t len)
{
	int ok_status = 0;

	st.status[w->status < 6 ? w->status : 0]++;
	switch (c->mf) {
	case MF_HANG:
		ok_status = w->status == DRM_VPUX_STATUS_TIMEOUT;
		break;
	case MF_MMU_FAULT:
		ok_status = w->status == DRM_VPUX_STATUS_MMU_FAULT;
		break;
	default:
		ok_status = w->status == DRM_VPUX_STATUS_DONE;
		break;
	}
	/*
	 * With allocations failing in the scheduler's own work (global),
	 * a job may also never have reached the engines: ABORTED with the
	 * allocation's error.
	 */
	if (cur_phase == PH_GLOBAL && w->status == DRM_VPUX_STATUS_ABORTED &&
	    wait_error(w) == -ENOMEM)
		ok_status = 1;
	if (!ok_status) {
		fail("job (model fault %s): status %s error %d",
		     mf_name[c->mf],
		     status_name[w->status < 6 ? w->status : 0], wait_error(w));
		return;
	}
	if (w->status == DRM_VPUX_STATUS_DONE && c->src.map && c->dst.map) {
		if (memcmp(c->src.map, c->dst.map, len))
			fail("job DONE but the destination differs from the source");
		else
			st.data_ok++;
	}
}

/*
 * The second file runs a job reading the BO it imported into a BO of its
 * own: the importer's mapping of a PRIME-shared BO, under injection.
 */
static void importer_job(struct scen *c, __u64 len)
{
	struct bo t2 = { 0 }, out = { 0 };
	struct drm_vpux_buf list[2];
	struct drm_vpux_submit sub = { 0 };
	struct drm_vpux_wait w = { 0 };
	int ret, have_t = 0, have_o = 0;
	struct tb t;

	step_begin(S_BO_CREATE);
	ret = bo_create(c, c->fd2, &t2, 4096);
	have_t = !ret;
	if (!ret) {
		ret = bo_create(c, c->fd2, &out, len);
		have_o = !ret;
	}
	step_end(S_BO_CREATE);
	if (ret)
		goto out;
	step_begin(S_BO_INFO);
	ret = bo_info(c, c->fd2, &t2);
	if (!ret)
		ret = bo_info(c, c->fd2, &out);
	step_end(S_BO_INFO);
	if (ret)
		goto out;
	step_begin(S_MMAP);
	ret = bo_map(&t2, c->fd2);
	if (!ret)
		ret = bo_map(&out, c->fd2);
	if (!ret)
		tb_init(&t, t2.map, 0, 1, 0, 0);
	step_end(S_MMAP);
	if (ret)
		goto out;
	outcome(S_MMAP, 0, "touch");
	tb_copy(&t.dma[0], tb_ref(1, 0, (dla_u32)len), tb_ref(2, 0, (dla_u32)len),
		(dla_u32)len);
	list[0] = (struct drm_vpux_buf){ .handle = c->imported, .size = len };
	list[1] = (struct drm_vpux_buf){ .handle = out.handle, .size = len };
	sub.task = (struct drm_vpux_buf){ .handle = t2.handle, .size = t.size };
	sub.buffers = (uintptr_t)list;
	sub.buffer_count = 2;
	global_inject(1);
	step_begin(S_SUBMIT);
	ret = xioctl(c->fd2, DRM_IOCTL_VPUX_SUBMIT, &sub);
	step_end(S_SUBMIT);
	if (!outcome(S_SUBMIT, ret, "importer's job") && !ret) {
		st.jobs++;
		st.phase_jobs[cur_phase]++;
		st.importer_jobs++;
		step_begin(S_WAIT);
		w.seqno = sub.seqno;
		w.timeout_ns = now_ns() + WAIT_NS;
		ret = xioctl(c->fd2, DRM_IOCTL_VPUX_WAIT, &w);
		step_end(S_WAIT);
		if (ret == -ETIMEDOUT)
			fail("importer's job did not finish in 30 s");
		else if (!outcome(S_WAIT, ret, "importer's job")) {
			struct scen c2 = { .mf = MF_NONE, .src = c->src, .dst = out };

			check_result(&c2, &w, len);
		}
	}
	global_inject(0);
out:
	bo_unmap(&t2);
	bo_unmap(&out);
	if (have_t)
		gem_close(c->fd2, t2.handle);
	if (have_o)
		gem_close(c->fd2, out.handle);
}

/*
 * Run one scenario. Every step goes through step_begin/step_end (the
 * injection), an allowed failure skips what depends on it.
 */
static void scenario(uint64_t seed, enum mfault mf, int full)
{
	struct scen c = { .rng = seed, .fd = -1, .fd2 = -1, .dmabuf = -1,
			  .mf = mf };
	struct drm_vpux_submit sub = { 0 };
	struct drm_vpux_syncobj in = { 0 };
	struct drm_vpux_buf list[2];
	struct drm_vpux_wait w = { 0 };
	__u64 len = 4096ull << below(&c, 6), seqno = 0;
	int ret, use_in = below(&c, 2), use_out = below(&c, 2);
	int use_import = below(&c, 3) != 0;
	/* jobs in a row on the same BOs (each after the last, implicitly) */
	unsigned int njobs = 1 + below(&c, 3), j, queued = 0;
	__u64 seqnos[4];
	long resets0 = -1;
	struct tb t;

	/* closing the file with its jobs in flight, a timeline out-fence */
	int abandon = below(&c, 5) == 0, timeline = below(&c, 2);

	if (full)
		use_in = use_out = use_import = 1;
	if (full || mf != MF_NONE)
		abandon = 0;
	if (cur_phase == PH_GLOBAL)
		njobs = 4;	/* the scheduler's side is the target */
	if (mf != MF_NONE)
		njobs = 1;	/* a fault bans the file */

	st.scenarios++;
	inj.nth_done = 0;
	snprintf(scen_desc, sizeof(scen_desc),
		 "%s seed %#llx fault %s abandon %d jobs %u import %d in %d out %d timeline %d",
		 phase_name[cur_phase], (unsigned long long)seed, mf_name[mf],
		 abandon, njobs, use_import, use_in, use_out, timeline);

	/* open */
	step_begin(S_OPEN);
	c.fd = open(dev_path, O_RDWR | O_CLOEXEC);
	ret = c.fd < 0 ? -errno : 0;
	if (!ret && use_import) {
		c.fd2 = open(dev_path, O_RDWR | O_CLOEXEC);
		ret = c.fd2 < 0 ? -errno : 0;
	}
	step_end(S_OPEN);
	if (outcome(S_OPEN, ret, "open") || c.fd < 0)
		goto out;

	/* GET_PARAM */
	{
		__u64 v = 0;

		step_begin(S_GET_PARAM);
		ret = vpux_get_param(c.fd, DRM_VPUX_PARAM_UAPI_VERSION, &v);
		step_end(S_GET_PARAM);
		outcome(S_GET_PARAM, ret, "uapi version");
		if (!ret && v >> 16 != DRM_VPUX_UAPI_VERSION_MAJOR)
			fail("GET_PARAM: uapi version %#llx", (unsigned long long)v);
	}

	/* BO_CREATE: task, source, destination */
	step_begin(S_BO_CREATE);
	ret = bo_create(&c, c.fd, &c.task, 4096);
	c.have_task = !ret;
	if (!ret) {
		ret = bo_create(&c, c.fd, &c.src, len);
		c.have_src = !ret;
	}
	if (!ret) {
		ret = bo_create(&c, c.fd, &c.dst, len);
		c.have_dst = !ret;
	}
	step_end(S_BO_CREATE);
	if (ret)
		goto out;

	/* BO_INFO */
	step_begin(S_BO_INFO);
	ret = bo_info(&c, c.fd, &c.task);
	if (!ret)
		ret = bo_info(&c, c.fd, &c.src);
	if (!ret)
		ret = bo_info(&c, c.fd, &c.dst);
	step_end(S_BO_INFO);
	if (ret)
		goto out;

	/* mmap, touch (faults go through the injection too) */
	step_begin(S_MMAP);
	ret = bo_map(&c.task, c.fd);
	if (!ret)
		ret = bo_map(&c.src, c.fd);
	if (!ret)
		ret = bo_map(&c.dst, c.fd);
	if (!ret) {
		in_touch = 1;
		if (sigsetjmp(touch_jmp, 1)) {
			ret = -EFAULT;
		} else {
			size_t i;

			for (i = 0; i < len; i += 4096)
				if (c.dst.map[i] || c.src.map[i])
					ret = -EILSEQ;
			fill(c.src.map, len, (unsigned int)seed);
			tb_init(&t, c.task.map, 0, 1, 0, 0);
		}
		in_touch = 0;
	}
	step_end(S_MMAP);
	if (ret == -EFAULT)
		fail("mmap: SIGBUS touching a BO");
	else if (ret == -EILSEQ)
		fail("mmap: a new BO does not read zero");
	if (ret)
		goto out;
	outcome(S_MMAP, 0, "touch");
	tb_copy(&t.dma[0], tb_ref(1, 0, (dla_u32)len), tb_ref(2, 0, (dla_u32)len),
		(dla_u32)len);

	/* PRIME: export the destination, import it into the second file */
	if (c.fd2 >= 0) {
		struct drm_prime_handle p = { .handle = c.dst.handle,
					      .flags = DRM_CLOEXEC | DRM_RDWR };

		step_begin(S_PRIME_EXPORT);
		ret = xioctl(c.fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
		step_end(S_PRIME_EXPORT);
		if (!outcome(S_PRIME_EXPORT, ret, "export") && !ret) {
			c.dmabuf = p.fd;
			p = (struct drm_prime_handle){ .fd = c.dmabuf };
			step_begin(S_PRIME_IMPORT);
			ret = xioctl(c.fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);
			step_end(S_PRIME_IMPORT);
			if (!outcome(S_PRIME_IMPORT, ret, "import") && !ret) {
				struct bo ib = { .handle = p.handle, .size = len };

				c.imported = p.handle;
				/* the importer sees the BO's size and flags */
				if (bo_info(&c, c.fd2, &ib))
					c.imported = 0;
			}
		}
	}

	/* syncobjs: a signalled in-fence, an out-fence */
	if (use_in || use_out) {
		struct drm_syncobj_create sc = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };

		step_begin(S_SYNCOBJ);
		ret = 0;
		if (use_in) {
			ret = xioctl(c.fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc);
			if (!ret)
				c.sync_in = sc.handle;
		}
		if (!ret && use_out) {
			sc = (struct drm_syncobj_create){ 0 };
			ret = xioctl(c.fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc);
			if (!ret)
				c.sync_out = sc.handle;
		}
		step_end(S_SYNCOBJ);
		if (outcome(S_SYNCOBJ, ret, "create") || ret)
			goto out;
	}

	/* SUBMIT: task copies source -> destination */
	list[0] = (struct drm_vpux_buf){ .handle = c.src.handle, .size = len };
	list[1] = (struct drm_vpux_buf){ .handle = c.dst.handle, .size = len };
	sub.task = (struct drm_vpux_buf){ .handle = c.task.handle, .size = t.size };
	sub.buffers = (uintptr_t)list;
	sub.buffer_count = 2;
	if (c.sync_in) {
		in.handle = c.sync_in;
		sub.in_syncobjs = (uintptr_t)&in;
		sub.in_syncobj_count = 1;
	}
	sub.out_syncobj = c.sync_out;
	if (c.mf == MF_HANG)
		resets0 = dbg_resets();
	mfault_arm(c.mf);
	global_inject(1);
	for (j = 0; j < njobs; j++) {
		unsigned int tries = 0;

		if (c.sync_out && timeline)
			sub.out_point = j + 1;
		for (;;) {
			step_begin(S_SUBMIT);
			ret = xioctl(c.fd, DRM_IOCTL_VPUX_SUBMIT, &sub);
			step_end(S_SUBMIT);
			/* global: the jobs are the target, retry to get them in */
			if (outcome(S_SUBMIT, ret, "job") || ret != -ENOMEM ||
			    cur_phase != PH_GLOBAL || ++tries == 50)
				break;
		}
		if (ret)
			break;
		seqnos[queued++] = sub.seqno;
		st.jobs++;
		st.phase_jobs[cur_phase]++;
	}
	desc_add(" queued %u", queued);
	if (!queued || abandon) {
		global_inject(0);
		mfault_disarm();
		st.abandoned += !!queued;
		goto out;
	}

	/* WAIT: every accepted job finishes with a status */
	for (j = 0; j < queued; j++) {
		seqno = seqnos[j];
		step_begin(S_WAIT);
		memset(&w, 0, sizeof(w));
		w.seqno = seqno;
		w.timeout_ns = now_ns() + WAIT_NS;
		ret = xioctl(c.fd, DRM_IOCTL_VPUX_WAIT, &w);
		step_end(S_WAIT);
		if (ret == -ETIMEDOUT)
			fail("job %llu did not finish in 30 s",
			     (unsigned long long)seqno);
		else if (!outcome(S_WAIT, ret, "job"))
			check_result(&c, &w, len);
		desc_add(" wait %d status %u/%d", ret, w.status, wait_error(&w));
		if (ret)
			break;
	}
	global_inject(0);
	mfault_disarm();
	if (c.mf == MF_HANG && resets0 >= 0 &&
	    w.status == DRM_VPUX_STATUS_TIMEOUT && dbg_resets() != resets0 + 1)
		fail("hang: resets %ld, expected %ld", dbg_resets(), resets0 + 1);
	if (!ret && c.sync_out) {
		struct drm_syncobj_wait sw = {
			.handles = (uintptr_t)&c.sync_out,
			.count_handles = 1,
			.timeout_nsec = now_ns() + WAIT_NS,
		};

		/* the job is done: its out-fence is signalled */
		step_begin(S_SYNCOBJ_WAIT);
		ret = xioctl(c.fd, DRM_IOCTL_SYNCOBJ_WAIT, &sw);
		step_end(S_SYNCOBJ_WAIT);
		if (ret == -ETIME)
			fail("out-syncobj of a finished job not signalled");
		else
			outcome(S_SYNCOBJ_WAIT, ret, "out-fence");
	}
	if (c.imported && !ret && w.status == DRM_VPUX_STATUS_DONE)
		importer_job(&c, len);

out:
	bo_unmap(&c.task);
	bo_unmap(&c.src);
	bo_unmap(&c.dst);
	if (c.dmabuf >= 0)
		close(c.dmabuf);
	if (c.imported)
		gem_close(c.fd2, c.imported);
	if (c.have_task)
		gem_close(c.fd, c.task.handle);
	if (c.have_src)
		gem_close(c.fd, c.src.handle);
	if (c.have_dst)
		gem_close(c.fd, c.dst.handle);
	if (c.sync_in || c.sync_out) {
		struct drm_syncobj_destroy d = { .handle = c.sync_in };

		if (c.sync_in)
			xioctl(c.fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
		d.handle = c.sync_out;
		if (c.sync_out)
			xioctl(c.fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
	}
	step_begin(S_CLOSE);
	ret = 0;
	if (c.fd2 >= 0 && close(c.fd2))
		ret = -errno;
	if (c.fd >= 0 && close(c.fd))
		ret = -errno;
	step_end(S_CLOSE);
	outcome(S_CLOSE, ret, "close");
}

/* ---- the phases ---- */

static int time_left(void)
{
	return now_ns() < t_end;
}

static char reject[2][32] = { "0", "0" };

/* Common attributes of one fault type: off until a phase turns it on. */
static void fi_prepare(const char *dir, int page)
{
	fi_set(dir, "probability", "0");
	fi_set(dir, "interval", "1");
	fi_set(dir, "times", "1000000000");	/* counted down: injections */
	fi_set(dir, "space", "0");
	fi_set(dir, "verbose", cfg.verbose ? "1" : "0");
	fi_set(dir, "task-filter", "Y");
	fi_set(dir, "ignore-gfp-wait", "N");
	fi_set(dir, "require-start", "0");
	fi_set(dir, "require-end", "0xffffffffffffffff");
	fi_set(dir, "stacktrace-depth", "32");
	fi_set(dir, "reject-start", reject[0]);
	fi_set(dir, "reject-end", reject[1]);
	if (page) {
		fi_set(dir, "ignore-gfp-highmem", "N");
		fi_set(dir, "min-order", "0");
	}
}

/*
 * Which allocator fails: the other one is kept out of fail-nth's count
 * (failslab: cache-filter with no cache flagged; fail_page_alloc: an
 * order no allocation has).
 */
static void fi_select(int slab, int page)
{
	fi_set(FI_SLAB, "cache-filter", slab ? "N" : "Y");
	fi_set(FI_SLAB, "ignore-gfp-wait", slab ? "N" : "Y");
	fi_set(FI_PAGE, "min-order", page ? "0" : "64");
	fi_set(FI_PAGE, "ignore-gfp-wait", page ? "N" : "Y");
}

/*
 * [start, end) of vmalloc's allocation code, from /proc/kallsyms: from
 * alloc_vmap_area() to the end of __vmalloc_node_range_noprof() (which
 * holds the inlined page allocation). vmalloc reports each failure with
 * a stack dump (warn_alloc), and a failed scan area for a new vmap_area
 * with a kmemleak warning: expected reactions of the kernel, but the VM
 * rig counts them as reports, so injection spares this range. kvmalloc()
 * then still fails its kmalloc() attempt, and falls back.
 */
static int vmalloc_text(unsigned long long *start, unsigned long long *end)
{
	static const char *const first[] = {
		"alloc_vmap_area", "__get_vm_area_node", "__vmalloc_node_range_noprof",
	};
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long a, lo = ~0ull, last = 0, next = ~0ull;
	char type, name[256], line[512];
	unsigned int i;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || !a ||
		    strchr(line, '['))
			continue;
		for (i = 0; i < sizeof(first) / sizeof(first[0]); i++)
			if (!strcmp(name, first[i]) && a < lo)
				lo = a;
		if (!strcmp(name, "__vmalloc_node_range_noprof"))
			last = a;
	}
	if (!last) {
		fclose(f);
		return -ENOENT;
	}
	/* the end: the next symbol after the last function */
	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    a > last && a < next && !strchr(line, '['))
			next = a;
	fclose(f);
	*start = lo;
	*end = next;
	return next != ~0ull ? 0 : -ENOENT;
}

/* [start, end) of vpux_accel's text, from /proc/kallsyms. */
static int module_text(unsigned long long *start, unsigned long long *end)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long a, lo = ~0ull, hi = 0;
	char type, name[256], line[512];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[vpux_accel]"))
			continue;
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 ||
		    (type != 't' && type != 'T') || !a)
			continue;
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	fclose(f);
	if (!hi)
		return -ENOENT;
	*start = lo;
	*end = (hi | 4095) + 1;	/* the last function ends in its page */
	return 0;
}

static void phase_nth(int slab, int page, uint64_t *seed)
{
	int s;

	cur_phase = PH_NTH;
	fi_select(slab, page);
	for (s = 0; s < NSTEPS && time_left(); s++) {
		unsigned int n;

		inj.nth_step = s;
		for (n = 1; n <= MAX_NTH && time_left(); n++) {
			inj.nth = n;
			inj.nth_consumed = 0;
			st.nth_runs++;
			/* the same scenario for every n of a step */
			scenario(*seed + s, MF_NONE, 1);
			if (!inj.nth_consumed)
				break;
			if (n > st.nth_max[s])
				st.nth_max[s] = n;
		}
	}
	inj.nth_step = -1;
	*seed += NSTEPS;
}

static enum mfault pick_mfault(unsigned int i, uint64_t *rng)
{
	if (!cfg.model || i % (cur_phase == PH_GLOBAL ? 4 : 8) != 3)
		return MF_NONE;
	return (enum mfault)(1 + splitmix(rng) % (NMF - 1));
}

/* Allocations fail only below vpux_accel's code (or anywhere: 0, ~0). */
static void fi_require(unsigned long long start, unsigned long long end)
{
	char a[32];

	snprintf(a, sizeof(a), "%#llx", start);
	fi_set(FI_SLAB, "require-start", a);
	fi_set(FI_PAGE, "require-start", a);
	snprintf(a, sizeof(a), "%#llx", end);
	fi_set(FI_SLAB, "require-end", a);
	fi_set(FI_PAGE, "require-end", a);
}

static void phase_random(int slab, int page, uint64_t *seed)
{
	unsigned long long start, end;
	char p[16];
	unsigned int i;
	uint64_t rng = *seed;

	cur_phase = PH_RANDOM;
	fi_select(slab, page);
	if (cfg.module_only && !module_text(&start, &end))
		fi_require(start, end);
	snprintf(p, sizeof(p), "%u", cfg.prob);
	if (slab)
		fi_set(FI_SLAB, "probability", p);
	if (page)
		fi_set(FI_PAGE, "probability", p);
	inj.random = 1;
	for (i = 0; i < cfg.iterations && time_left(); i++)
		scenario(splitmix(&rng), pick_mfault(i, &rng), 0);
	inj.random = 0;
	fi_set(FI_SLAB, "probability", "0");
	fi_set(FI_PAGE, "probability", "0");
	fi_require(0, ~0ull);
	*seed = rng;
}

static int phase_global(int slab, int page, uint64_t *seed)
{
	unsigned long long start = 0, end = 0;
	char a[32];
	unsigned int i, n = cfg.iterations / 2 ? cfg.iterations / 2 : 1;
	uint64_t rng = *seed;
	long t0, in_steps = 0;
	int ret, s;

	ret = module_text(&start, &end);
	if (ret)
		return ret;
	cur_phase = PH_GLOBAL;
	fi_select(slab, page);
	snprintf(global_prob, sizeof(global_prob), "%u", cfg.prob);
	if (slab) {
		snprintf(a, sizeof(a), "%#llx", start);
		fi_set(FI_SLAB, "require-start", a);
		snprintf(a, sizeof(a), "%#llx", end);
		fi_set(FI_SLAB, "require-end", a);
		fi_set(FI_SLAB, "task-filter", "N");
	}
	if (page) {
		snprintf(a, sizeof(a), "%#llx", start);
		fi_set(FI_PAGE, "require-start", a);
		snprintf(a, sizeof(a), "%#llx", end);
		fi_set(FI_PAGE, "require-end", a);
		fi_set(FI_PAGE, "task-filter", "N");
	}
	inj.random = 1;		/* counts injections; make-it-fail is moot */
	t0 = times_left();
	for (s = 0; s < NSTEPS; s++)
		in_steps -= st.injected[s];
	for (i = 0; i < n && time_left(); i++)
		scenario(splitmix(&rng), pick_mfault(i, &rng), 0);
	inj.random = 0;
	for (s = 0; s < NSTEPS; s++)
		in_steps += st.injected[s];
	printf("# global (%s): %ld allocations failed, %ld of them outside the calling thread's ioctls\n",
	       cur_alloc, t0 - times_left(), t0 - times_left() - in_steps);
	fi_set(FI_SLAB, "probability", "0");
	fi_set(FI_PAGE, "probability", "0");
	fi_set(FI_SLAB, "task-filter", "Y");
	fi_set(FI_PAGE, "task-filter", "Y");
	fi_set(FI_SLAB, "require-start", "0");
	fi_set(FI_SLAB, "require-end", "0xffffffffffffffff");
	fi_set(FI_PAGE, "require-start", "0");
	fi_set(FI_PAGE, "require-end", "0xffffffffffffffff");
	*seed = rng;
	return 0;
}

static void phase_model(uint64_t *seed)
{
	uint64_t rng = *seed;
	int mf;

	cur_phase = PH_MODEL;
	for (mf = MF_HANG; mf < NMF && time_left(); mf++)
		scenario(splitmix(&rng), (enum mfault)mf, 0);
	*seed = rng;
}

/* With everything off: a normal job in a new file, data checked. */
static int final_job(void)
{
	uint64_t before = st.data_ok, jobs = st.jobs;
	int f0 = failures;

	cur_phase = PH_MODEL;
	cur_alloc = "final";
	scenario(cfg.seed ^ 0x5eed, MF_NONE, 1);
	cur_alloc = "";
	return failures == f0 && st.jobs > jobs && st.data_ok == before + st.jobs - jobs;
}

static void report(void)
{
	int s, e;

	printf("# seed %" PRIu64 ", %u iterations, probability %u%%, %" PRIu64
	       " scenarios (%" PRIu64 " of them fail-nth), %" PRIu64 " jobs\n",
	       cfg.seed, cfg.iterations, cfg.prob, st.scenarios, st.nth_runs,
	       st.jobs);
	printf("# %-22s %7s %7s %9s  errors\n", "step", "calls", "ok",
	       "injected");
	for (s = 0; s < NSTEPS; s++) {
		char errs[256] = "";
		size_t n = 0;

		for (e = 1; e < NERR; e++)
			if (st.err[s][e] && n < sizeof(errs))
				n += snprintf(errs + n, sizeof(errs) - n, " %s:%" PRIu64,
					      e == NERR - 1 ? "other" : strerrorname_np(e),
					      st.err[s][e]);
		printf("# %-22s %7" PRIu64 " %7" PRIu64 " %9" PRIu64 " %s\n",
		       step_name[s], st.calls[s], st.ok[s], st.injected[s],
		       *errs ? errs : " -");
	}
	printf("# fail-nth: allocations reached per step:");
	for (s = 0; s < NSTEPS; s++)
		if (st.nth_max[s])
			printf(" %s %u", step_name[s], st.nth_max[s]);
	printf("\n# job status: DONE %" PRIu64 " ERROR %" PRIu64 " MMU_FAULT %"
	       PRIu64 " TIMEOUT %" PRIu64 " ABORTED %" PRIu64
	       ", data verified %" PRIu64 "\n",
	       st.status[1], st.status[2], st.status[3], st.status[4],
	       st.status[5], st.data_ok);
	printf("# jobs per phase: nth %" PRIu64 " random %" PRIu64 " global %" PRIu64
	       " model/final %" PRIu64 "\n", st.phase_jobs[PH_NTH],
	       st.phase_jobs[PH_RANDOM], st.phase_jobs[PH_GLOBAL],
	       st.phase_jobs[PH_MODEL]);
	printf("# jobs of an importer on its PRIME-imported BO %" PRIu64
	       ", scenarios closing their files with jobs in flight %" PRIu64 "\n",
	       st.importer_jobs, st.abandoned);
	printf("# model faults: hang %" PRIu64 " drop_irq %" PRIu64
	       " mmu_fault %" PRIu64 " slow %" PRIu64 "\n",
	       st.mfaults[MF_HANG], st.mfaults[MF_DROP_IRQ],
	       st.mfaults[MF_MMU_FAULT], st.mfaults[MF_SLOW]);
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [--seed S] [--iterations N] [--probability P]\n"
		"       [--mode slab|page|model|all] [--time SECS] [--module-only]\n"
		"       [--verbose]\n",
		argv0);
	exit(2);
}

static int test_no;

static void tap(int ok, const char *skip, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok || skip ? "" : "not ", ++test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (skip)
		printf(" # SKIP %s", skip);
	printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "probability", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "time", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "module-only", no_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char *no_fi = NULL;
	int c, fd, files0, fds0, a, f0, ok, cut = 0, ret;
	__s64 share, t0;
	uint64_t seed;
	struct sigaction sa = { .sa_handler = on_sigbus };

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			cfg.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			cfg.iterations = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			cfg.prob = strtoul(optarg, NULL, 0);
			if (cfg.prob > 100)
				usage(argv[0]);
			break;
		case 'm':
			cfg.slab = !strcmp(optarg, "slab") || !strcmp(optarg, "all");
			cfg.page = !strcmp(optarg, "page") || !strcmp(optarg, "all");
			cfg.model = !strcmp(optarg, "model") || !strcmp(optarg, "all");
			if (!cfg.slab && !cfg.page && !cfg.model)
				usage(argv[0]);
			break;
		case 't':
			cfg.secs = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			cfg.verbose = 1;
			break;
		case 'o':
			cfg.module_only = 1;
			break;
		default:
			usage(argv[0]);
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");

	fd = vpux_open_nth(0, &minor);
	if (fd < 0) {
		printf("1..0 # SKIP no vpux device (is vpux_accel loaded?)\n");
		return 4;
	}
	close(fd);
	snprintf(dev_path, sizeof(dev_path), "/dev/accel/accel%d", minor);

	if (cfg.slab || cfg.page) {
		if (access(FI_SLAB "probability", W_OK) ||
		    access(FI_PAGE "probability", W_OK))
			no_fi = "no failslab/fail_page_alloc debugfs (CONFIG_FAULT_INJECTION_DEBUG_FS)";
		else if ((fd_nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC)) < 0 ||
			 (fd_mif = open("/proc/thread-self/make-it-fail", O_RDWR | O_CLOEXEC)) < 0)
			no_fi = "no /proc/thread-self/fail-nth or make-it-fail";
	}
	if (cfg.model && dbg_resets() < 0) {
		printf("1..0 # SKIP no device debugfs (model fault injection)\n");
		return 4;
	}

	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = on_signal;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	atexit(restore);

	main_tid = (pid_t)syscall(SYS_gettid);
	{
		pthread_t wd;

		/* before any injection: make-it-fail is inherited */
		pthread_create(&wd, NULL, watchdog, NULL);
		pthread_detach(wd);
	}
	files0 = dbg_files();
	fds0 = count_fds();
	/*
	 * The time budget is shared by the allocators; of each share, the
	 * fail-nth sweep gets half, the random and global phases a quarter
	 * each. The model phase and the final checks come on top.
	 */
	share = cfg.secs * 1000000000ll / (cfg.slab + cfg.page ? cfg.slab + cfg.page : 1);
	t0 = now_ns();
	seed = cfg.seed;

	printf("1..%d\n", (cfg.slab + cfg.page) * 3 + cfg.model + 2);
	printf("# seed %" PRIu64 " iterations %u probability %u%% time %us\n",
	       cfg.seed, cfg.iterations, cfg.prob, cfg.secs);

	if ((cfg.slab || cfg.page) && !no_fi) {
		unsigned long long vs = 0, ve = 0;

		if (!vmalloc_text(&vs, &ve)) {
			snprintf(reject[0], sizeof(reject[0]), "%#llx", vs);
			snprintf(reject[1], sizeof(reject[1]), "%#llx", ve);
			printf("# vmalloc spared: %s..%s\n", reject[0], reject[1]);
		} else {
			printf("# vmalloc not found in /proc/kallsyms: its failures will warn\n");
		}
		fi_prepare(FI_SLAB, 0);
		fi_prepare(FI_PAGE, 1);
	}
	for (a = 0; a < 2; a++) {
		int slab = a == 0, page = a == 1;

		if ((slab && !cfg.slab) || (page && !cfg.page))
			continue;
		cur_alloc = slab ? "failslab" : "fail_page_alloc";
		if (no_fi) {
			tap(1, no_fi, "%s: fail-nth on every step", cur_alloc);
			tap(1, no_fi, "%s: random %u%%", cur_alloc, cfg.prob);
			tap(1, no_fi, "%s: global, vpux_accel text", cur_alloc);
			continue;
		}
		f0 = failures;
		t_end = t0 + share / 2;
		phase_nth(slab, page, &seed);
		cut += !time_left();
		tap(failures == f0, NULL, "%s: fail-nth on every step, each allocation in turn",
		    cur_alloc);
		f0 = failures;
		t_end = t0 + share * 3 / 4;
		phase_random(slab, page, &seed);
		cut += !time_left();
		tap(failures == f0, NULL, "%s: random %u%% on the stepping thread%s",
		    cur_alloc, cfg.prob, cfg.model ? ", model faults" : "");
		f0 = failures;
		t_end = t0 + share;
		ret = phase_global(slab, page, &seed);
		cut += !time_left();
		t0 += share;
		if (ret)
			tap(1, "vpux_accel text not in /proc/kallsyms",
			    "%s: global, vpux_accel text", cur_alloc);
		else
			tap(failures == f0, NULL,
			    "%s: global %u%% in vpux_accel text (scheduler and completion paths)",
			    cur_alloc, cfg.prob);
	}
	cur_alloc = "";
	restore();

	if (cfg.model) {
		f0 = failures;
		t_end = now_ns() + 120000000000ll;
		phase_model(&seed);
		tap(failures == f0, NULL, "model faults: hang, lost interrupt, MMU fault, slow engine");
	}

	ok = final_job();
	tap(ok, NULL, "afterwards a normal job runs and its data is right");
	ok = dbg_files() == files0 && count_fds() == fds0;
	if (!ok)
		printf("# files in bo_list %d (were %d), fds %d (were %d)\n",
		       dbg_files(), files0, count_fds(), fds0);
	tap(ok, NULL, "every file and object of the run is released");
	report();
	if (cut)
		printf("# %d phases ended at their share of the %us budget\n",
		       cut, cfg.secs);
	return failures ? 1 : 0;
}
