// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux-job-bench: the kernel-path benchmark (DESIGN.md section 7).
 *
 * Prints figures, never pass/fail:
 *  1. a bare DRM_IOCTL_VPUX_GET_PARAM round trip (median, p99), and a
 *     pipe round trip between two processes (a byte ping-pong over two
 *     pipes: the cheapest wakeup of another task and back);
 *  2. a 1-op job (a 64-byte DMA copy) SUBMIT + WAIT round trip (median,
 *     p99) and its ratios to (1): to GET_PARAM, target <= 10x, and to the
 *     pipe round trip (P1 / pipe RTT);
 *  3. jobs/s with 1, 4 and 16 jobs in flight (K submitted, wait for the
 *     oldest, submit a new one) and the ratios 4/1 and 16/1, target >= 3x;
 *     measured in interleaved rounds, medians reported (the TCG VM shares
 *     a noisy host). On a uapi 1.5 kernel every in-flight slot submits to
 *     a queue of its own (QUEUE_CREATE): a queue, the file's default one
 *     included, runs one job at a time (--default-queue measures that);
 *  4. the device cycles a job took (WAIT's device_cycles);
 *  5. what a CMX tile changing files costs (uapi 1.6): a 1-op job writing
 *     64 bytes into CMX tile 0, from one file again and again (the tile
 *     stays its file's) and from two files in turn (each job waits for
 *     the hardware to clear the tile first), medians and their ratio;
 *  6. with --trace, where a job's time goes: ftrace events of the DRM
 *     scheduler, the workqueues, irq_work and the fences, plus markers
 *     from this program, turned into per-hop medians;
 *  7. with --dpu-fp16 N (and nothing else): the FP16 convolution of
 *     `make bench-dpu` (56x56x64 -> 64, 3x3, pad 1, FP32 bias) as one
 *     DPU op, N jobs one after the other, through the kernel build of
 *     the model (integer soft-float): GFLOPS (FLOP = 2 x MAC) and ms of
 *     the fastest, its device cycles, and outputs checked against the
 *     definition. The hang check's timeout (debugfs job_timeout_ms) and
 *     the run-time cap (sysfs job_run_limit_ms) are lifted meanwhile and
 *     restored at exit; one line for scripts:
 *       bench-vm-dpu-fp16: conv_gflops=... ms=... runs=... device_cycles=...
 *
 * Every in-flight slot has its own task, source and destination BOs, so
 * the jobs carry no implicit (dma_resv) dependency on each other; with
 * --shared-bos all jobs use the same three BOs.
 *
 * Raw ioctls on /dev/accel/accelN, like the kselftests; no library.
 * The last line is machine readable:
 *   bench: getparam_ns=... job_ns=... ratio=... pipe_ns=... ratio_pipe=...
 *          jps1=... jps4=... jps16=... ratio4=... ratio16=... queues=...
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/vpux_accel.h>

#include "bench_util.h"
#include "task_builder.h"
#include "vpux_float.h"

#define COPY_LEN	64
#define MAX_INFLIGHT	16
#define BO_SIZE		4096
#define WAIT_NS		10000000000ll	/* 10 s: a job that takes longer is a bug */

struct bo {
	uint32_t handle;
	unsigned char *map;
};

struct slot {
	struct bo task, src, dst;
	size_t task_size;
	uint64_t seqno;
	uint32_t queue;		/* 0: the file's default queue */
};

static struct {
	long getparam_iters;	/* GET_PARAM round trips */
	long job_iters;		/* sequential jobs for the latency figure */
	long tput_jobs;		/* jobs per throughput point */
	double phase_cap_s;	/* wall-clock cap per phase */
	int rounds;		/* throughput: rounds of 1, 4, 16 in flight */
	int device;
	int shared_bos;
	long trace_jobs;	/* 0: no trace breakdown */
	int poll_wait;		/* WAIT with timeout 0 in a loop, never sleep */
	int pm_qos;		/* hold /dev/cpu_dma_latency at 0: no deep idle */
	int idle_spin;		/* SCHED_IDLE spinners: the vCPUs never halt */
	int default_queue;	/* no QUEUE_CREATE on uapi 1.5 */
	int dpu_fp16;		/* --dpu-fp16 N: only the FP16 conv, N jobs */
} opt = {
	.getparam_iters = 200000,
	.job_iters = 2000,
	.tput_jobs = 6000,
	.phase_cap_s = 8.0,
	.rounds = 5,
	.device = 0,
	.trace_jobs = 0,
};

static int fd = -1;
static char dev_path[64];
static struct slot slots[MAX_INFLIGHT];
static int nqueues;		/* queues created, one per slot */
static pid_t spinners[64];

static int xioctl(unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "vpux-job-bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static int open_device(int nth)
{
	char path[64], name[32];
	int minor, f;

	for (minor = 0; minor < 64; minor++) {
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
		f = open(path, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		memset(name, 0, sizeof(name));
		if (!ioctl(f, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vpux_accel") &&
		    nth-- == 0) {
			printf("device: %s\n", path);
			snprintf(dev_path, sizeof(dev_path), "%s", path);
			return f;
		}
		close(f);
	}
	return -ENODEV;
}

static uint64_t get_param(uint32_t param)
{
	struct drm_vpux_get_param gp = { .param = param };
	int ret = xioctl(DRM_IOCTL_VPUX_GET_PARAM, &gp);

	if (ret)
		die("GET_PARAM", ret);
	return gp.value;
}

static void bo_new_size(struct bo *bo, size_t size)
{
	struct drm_vpux_bo_create c = { .size = size };
	struct drm_vpux_bo_info info = { 0 };
	int ret;

	ret = xioctl(DRM_IOCTL_VPUX_BO_CREATE, &c);
	if (ret)
		die("BO_CREATE", ret);
	info.handle = c.handle;
	ret = xioctl(DRM_IOCTL_VPUX_BO_INFO, &info);
	if (ret)
		die("BO_INFO", ret);
	bo->handle = c.handle;
	bo->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       info.mmap_offset);
	if (bo->map == MAP_FAILED)
		die("mmap", errno);
}

static void bo_new(struct bo *bo)
{
	bo_new_size(bo, BO_SIZE);
}

static void slots_init(void)
{
	int i, j;

	for (i = 0; i < MAX_INFLIGHT; i++) {
		struct slot *s = &slots[i];
		struct tb t;

		/* a queue per slot, so that slots overlap */
		if (!opt.default_queue) {
			struct drm_vpux_queue_create qc = {
				.priority = DRM_VPUX_PRIORITY_NORMAL,
			};
			int ret = xioctl(DRM_IOCTL_VPUX_QUEUE_CREATE, &qc);

			if (ret)
				die("QUEUE_CREATE", ret);
			nqueues++;
			if (opt.shared_bos && i) {
				*s = slots[0];
				s->queue = qc.queue_id;
				continue;
			}
			s->queue = qc.queue_id;
		}
		if (opt.shared_bos && i) {
			*s = slots[0];
			s->queue = 0;
			continue;
		}
		bo_new(&s->task);
		bo_new(&s->src);
		bo_new(&s->dst);
		for (j = 0; j < COPY_LEN; j++)
			s->src.map[j] = (unsigned char)(i * 31 + j * 7 + 1);
		tb_init(&t, s->task.map, 0, 1, 0, 0);
		tb_copy(&t.dma[0], tb_ref(1, 0, COPY_LEN), tb_ref(2, 0, COPY_LEN),
			COPY_LEN);
		s->task_size = t.size;
	}
}

static uint64_t submit(struct slot *s)
{
	struct drm_vpux_buf list[2] = {
		{ .handle = s->src.handle, .size = BO_SIZE },
		{ .handle = s->dst.handle, .size = BO_SIZE },
	};
	struct drm_vpux_submit a = {
		.task = { .handle = s->task.handle, .size = s->task_size },
		.buffers = (uintptr_t)list,
		.buffer_count = 2,
		.queue_id = s->queue,
	};
	int ret = xioctl(DRM_IOCTL_VPUX_SUBMIT, &a);

	if (ret)
		die("SUBMIT", ret);
	return a.seqno;
}

static void wait_job_ns(uint64_t seqno, struct drm_vpux_wait *w,
			int64_t wait_ns)
{
	int ret;

	memset(w, 0, sizeof(*w));
	w->seqno = seqno;
	if (opt.poll_wait) {
		int64_t end = now_ns() + wait_ns;

		do {
			w->timeout_ns = 0;	/* poll */
			ret = xioctl(DRM_IOCTL_VPUX_WAIT, w);
		} while (ret == -ETIMEDOUT && now_ns() < end);
	} else {
		w->timeout_ns = now_ns() + wait_ns;
		ret = xioctl(DRM_IOCTL_VPUX_WAIT, w);
	}
	if (ret)
		die("WAIT", ret);
	if (w->status != DRM_VPUX_STATUS_DONE) {
		fprintf(stderr, "vpux-job-bench: job %llu: status %u error %d\n",
			(unsigned long long)seqno, w->status,
			w->core_error ? -(int)w->core_error : w->sys_error);
		exit(1);
	}
}

static void wait_job(uint64_t seqno, struct drm_vpux_wait *w)
{
	wait_job_ns(seqno, w, WAIT_NS);
}

static int64_t *samples(long n)
{
	return bench_calloc("vpux-job-bench", n, sizeof(int64_t));
}

/*
 * (5) CMX handover: @n jobs of one file, then @n jobs of two files in
 * turn, each a 64-byte copy into CMX tile 0; medians into @same and
 * @handover (ns).
 */
static void bench_cmx(long n, int64_t *same, int64_t *handover)
{
	struct slot cs[2];
	int fds[2], main_fd = fd, i;
	int64_t *t = samples(n);
	struct drm_vpux_wait w;
	long k;

	fds[0] = fd;
	fds[1] = open(dev_path, O_RDWR | O_CLOEXEC);
	if (fds[1] < 0)
		die(dev_path, errno);
	for (i = 0; i < 2; i++) {
		struct tb tb;

		fd = fds[i];
		memset(&cs[i], 0, sizeof(cs[i]));
		bo_new(&cs[i].task);
		bo_new(&cs[i].src);
		bo_new(&cs[i].dst);
		tb_init(&tb, cs[i].task.map, 0, 1, 0, 0);
		tb_copy(&tb.dma[0], tb_ref(1, 0, COPY_LEN), tb_cmx(0, 0, COPY_LEN),
			COPY_LEN);
		cs[i].task_size = tb.size;
	}
	for (i = 0; i < 2; i++) {
		for (k = 0; k < n; k++) {
			int f = i ? (int)(k & 1) : 0;
			int64_t t0 = now_ns();

			fd = fds[f];
			wait_job(submit(&cs[f]), &w);
			t[k] = now_ns() - t0;
		}
		*(i ? handover : same) = median(t, n);
	}
	fd = main_fd;
	close(fds[1]);
	free(t);
}

/*
 * (7) --dpu-fp16: the FP16 convolution of `make bench-dpu` as one DPU op
 * through the kernel build of the model, whose FP16 arithmetic is integer
 * soft-float (include/hw/vpux_float.h). NHWC FP16 in and out, weights
 * [oc][ky][kx][ic], an FP32 bias.
 */
#define CV_HW		56u
#define CV_C		64u
#define CV_K		3u
#define CV_IN		(CV_HW * CV_HW * CV_C * 2)
#define CV_W		(CV_C * CV_K * CV_K * CV_C * 2)
#define CV_BIAS		(CV_C * 4)
#define CV_WBO		((CV_W + CV_BIAS + 4095) & ~4095u)
#define CV_FLOP		(2.0 * CV_HW * CV_HW * CV_C * CV_C * CV_K * CV_K)
#define CV_WAIT_NS	3600000000000ll	/* an hour */

/* the knobs lifted for the measurement, restored at exit */
static struct {
	char path[320];
	char old[32];
} knob[2];

static void knobs_restore(void)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		int f;

		if (!knob[i].path[0])
			continue;
		f = open(knob[i].path, O_WRONLY);
		if (f < 0 || write(f, knob[i].old, strlen(knob[i].old)) < 0)
			fprintf(stderr, "vpux-job-bench: cannot restore %s to %s\n",
				knob[i].path, knob[i].old);
		if (f >= 0)
			close(f);
		knob[i].path[0] = 0;
	}
}

/* write @val to @path, keeping what it held for knobs_restore() */
static int knob_set(unsigned int i, const char *path, const char *val)
{
	ssize_t n;
	int f = open(path, O_RDONLY);

	if (f < 0)
		return -errno;
	n = read(f, knob[i].old, sizeof(knob[i].old) - 1);
	close(f);
	if (n <= 0)
		return n ? -errno : -EIO;
	knob[i].old[n] = 0;
	knob[i].old[strcspn(knob[i].old, "\n")] = 0;
	/* a fresh open: debugfs attributes take one write at offset 0 */
	f = open(path, O_WRONLY);
	if (f < 0)
		return -errno;
	if (write(f, val, strlen(val)) < 0) {
		n = -errno;
		close(f);
		return (int)n;
	}
	close(f);
	snprintf(knob[i].path, sizeof(knob[i].path), "%s", path);
	printf("%s: %s -> %s (restored at exit)\n", path, knob[i].old, val);
	return 0;
}

/*
 * Lift the hang check (debugfs job_timeout_ms: an op that completes
 * nothing for two timeouts counts as hung) and the run-time cap (sysfs
 * job_run_limit_ms, 0 = none) of the device: one op runs for seconds to
 * minutes here.
 */
static void knobs_lift(void)
{
	char path[320], link[96], dev[200];
	int minor, ret;
	ssize_t n;

	if (sscanf(dev_path, "/dev/accel/accel%d", &minor) != 1)
		return;
	atexit(knobs_restore);
	snprintf(path, sizeof(path),
		 "/sys/class/accel/accel%d/device/job_run_limit_ms", minor);
	ret = knob_set(0, path, "0");
	if (ret)
		printf("%s: %s (a job over the cap is aborted)\n", path,
		       strerror(-ret));
	snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", minor);
	n = readlink(link, dev, sizeof(dev) - 1);
	if (n <= 0)
		return;
	dev[n] = 0;
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/job_timeout_ms",
		 strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev);
	ret = knob_set(1, path, "3600000");
	if (ret)
		printf("%s: %s (the hang check may abort the job)\n", path,
		       strerror(-ret));
}

/* a value k / 2^@shift, k uniform in [-1024, 1023]: FP32 bits */
static uint32_t cv_val(uint32_t *seed, uint32_t pow2)
{
	*seed = *seed * 1103515245u + 12345u;
	return vpux_f32_mul(vpux_f32_from_s32((int32_t)(*seed >> 16 & 0x7ff) - 1024),
			    pow2);
}

static uint16_t ld16(const unsigned char *p, size_t i)
{
	return (uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
}

/* output (y, x, oc) by the definition (compute-ops.rst, "FP16 ops") */
static uint16_t cv_ref(const unsigned char *in, const unsigned char *w,
		       unsigned int y, unsigned int x, unsigned int oc)
{
	uint32_t acc = 0, b;
	unsigned int ky, kx, ci;

	for (ky = 0; ky < CV_K; ky++)
		for (kx = 0; kx < CV_K; kx++) {
			int iy = (int)(y + ky) - 1, ix = (int)(x + kx) - 1;

			if (iy < 0 || ix < 0 || iy >= (int)CV_HW || ix >= (int)CV_HW)
				continue;	/* padding: no term */
			for (ci = 0; ci < CV_C; ci++) {
				uint16_t a = ld16(in, ((size_t)iy * CV_HW + ix) * CV_C + ci);
				uint16_t k = ld16(w, ((oc * CV_K + ky) * CV_K + kx) * CV_C + ci);

				acc = vpux_f32_add(acc, vpux_f32_mul(vpux_f16_to_f32(a),
								     vpux_f16_to_f32(k)));
			}
		}
	memcpy(&b, w + CV_W + 4 * oc, sizeof(b));
	return vpux_f32_to_f16(vpux_f32_add(acc, b));
}

static void bench_dpu_fp16(int runs, uint64_t khz)
{
	static const unsigned int probe[][3] = {
		{ 0, 0, 0 }, { 0, 55, 63 }, { 27, 31, 17 }, { 55, 55, 5 },
		{ 55, 0, 40 }, { 13, 1, 33 },
	};
	struct bo task, in, w, out;
	struct drm_vpux_buf list[3];
	struct drm_vpux_submit sub;
	struct drm_vpux_wait wt;
	struct dla_dpu_op *d;
	int64_t *t = samples(runs), best;
	uint32_t seed = 1;
	unsigned int i, bad = 0;
	struct tb tb;
	int r;

	bo_new(&task);
	bo_new_size(&in, CV_IN);
	bo_new_size(&w, CV_WBO);
	bo_new_size(&out, CV_IN);
	/* in and weights in [-1, 1), bias in [-0.5, 0.5): exact FP16 */
	for (i = 0; i < CV_IN / 2; i++) {
		uint16_t h = vpux_f32_to_f16(cv_val(&seed, 0x3a800000u));

		in.map[2 * i] = (unsigned char)h;
		in.map[2 * i + 1] = (unsigned char)(h >> 8);
	}
	for (i = 0; i < CV_W / 2; i++) {
		uint16_t h = vpux_f32_to_f16(cv_val(&seed, 0x3a800000u));

		w.map[2 * i] = (unsigned char)h;
		w.map[2 * i + 1] = (unsigned char)(h >> 8);
	}
	for (i = 0; i < CV_C; i++) {
		uint32_t b = cv_val(&seed, 0x3a000000u);

		memcpy(w.map + CV_W + 4 * i, &b, sizeof(b));
	}

	tb_init(&tb, task.map, 0, 0, 1, 0);
	d = &tb.dpu[0];
	d->op = VPUX_DPU_OP_CONV;
	d->flags = VPUX_DPU_F_FP16 | VPUX_DPU_F_BIAS;
	d->in_c = d->out_c = CV_C;
	d->in_h = d->in_w = d->out_h = d->out_w = CV_HW;
	d->kernel_h = d->kernel_w = CV_K;
	d->stride_h = d->stride_w = 1;
	d->dilation_h = d->dilation_w = 1;
	d->pad_top = d->pad_left = d->pad_bottom = d->pad_right = 1;
	d->groups = 1;
	d->in = tb_ref(1, 0, CV_IN);
	d->in2 = tb_ref(2, 0, CV_W);
	d->bias = tb_ref(2, CV_W, CV_BIAS);
	d->out = tb_ref(3, 0, CV_IN);
	/* the FP16 output stage (in_zp .. in2_scale) all 0: no activation */

	list[0] = (struct drm_vpux_buf){ .handle = in.handle, .size = CV_IN };
	list[1] = (struct drm_vpux_buf){ .handle = w.handle, .size = CV_WBO };
	list[2] = (struct drm_vpux_buf){ .handle = out.handle, .size = CV_IN };
	knobs_lift();
	printf("FP16 conv 56x56x64 -> 64, 3x3, pad 1, FP32 bias: one DPU op, %.1f MFLOP, %d job(s)\n",
	       CV_FLOP / 1e6, runs);
	for (r = 0; r < runs; r++) {
		int64_t t0 = now_ns();
		int ret;

		memset(out.map, 0xff, CV_IN);
		sub = (struct drm_vpux_submit){
			.task = { .handle = task.handle, .size = tb.size },
			.buffers = (uintptr_t)list,
			.buffer_count = 3,
		};
		ret = xioctl(DRM_IOCTL_VPUX_SUBMIT, &sub);
		if (ret)
			die("SUBMIT", ret);
		wait_job_ns(sub.seqno, &wt, CV_WAIT_NS);
		t[r] = now_ns() - t0;
		printf("  job %d: %.0f ms, %llu device cycles (%.2f ms at %llu kHz)\n",
		       r, t[r] / 1e6, (unsigned long long)wt.device_cycles,
		       khz ? wt.device_cycles / (double)khz : 0.0,
		       (unsigned long long)khz);
	}
	for (i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		const unsigned int *p = probe[i];
		uint16_t want = cv_ref(in.map, w.map, p[0], p[1], p[2]);
		uint16_t got = ld16(out.map, ((size_t)p[0] * CV_HW + p[1]) * CV_C + p[2]);

		if (got != want) {
			fprintf(stderr, "vpux-job-bench: output (%u, %u, %u): 0x%04x, the definition gives 0x%04x\n",
				p[0], p[1], p[2], got, want);
			bad++;
		}
	}
	if (bad)
		exit(1);
	printf("  %zu outputs (corners, borders, inside) bit-exact against the definition\n",
	       sizeof(probe) / sizeof(probe[0]));
	best = t[0];
	for (r = 1; r < runs; r++)
		if (t[r] < best)
			best = t[r];
	printf("bench-vm-dpu-fp16: conv_gflops=%.4f ms=%.0f runs=%d device_cycles=%llu\n",
	       CV_FLOP / best, best / 1e6, runs,
	       (unsigned long long)wt.device_cycles);
	knobs_restore();
	free(t);
}

/* (1) the bare ioctl */
static void bench_getparam(int64_t *med, int64_t *p99, long *done)
{
	long n = opt.getparam_iters, i;
	int64_t *v = samples(n), end = now_ns() + (int64_t)(opt.phase_cap_s * 1e9);

	i = time_getparam(fd, v, n, end);
	if (i < 0)
		die("GET_PARAM", (int)i);
	*done = i;
	*med = median(v, i);
	*p99 = pctl(v, i, 99.0);
	free(v);
}

/* (1b) a pipe round trip between two processes (both on CPU @cpu) */
static void bench_pipe(int cpu, int64_t *med, int64_t *p99, long *done)
{
	long n = opt.getparam_iters / 10 > 1000 ? opt.getparam_iters / 10 : 1000, i;
	int64_t *v = samples(n), end = now_ns() + (int64_t)(opt.phase_cap_s * 1e9);

	i = time_pipe_rtt(v, n, end, cpu);
	if (i < 0)
		die("pipe round trip", (int)i);
	*done = i;
	*med = median(v, i);
	*p99 = pctl(v, i, 99.0);
	free(v);
}

/* (2) one job at a time: SUBMIT + WAIT */
struct lat {
	int64_t med, p90, p99, mean, submit_med, wait_med, cycles_med;
	long done, over_1ms;
};

static void bench_latency(struct lat *r)
{
	long n = opt.job_iters, i;
	int64_t *tot = samples(n), *sub = samples(n), *wt = samples(n);
	int64_t *cyc = samples(n);
	int64_t end = now_ns() + (int64_t)(opt.phase_cap_s * 1e9);
	struct drm_vpux_wait w;

	for (i = 0; i < 20; i++)	/* warm up */
		wait_job(submit(&slots[0]), &w);
	memset(slots[0].dst.map, 0, COPY_LEN);
	for (i = 0; i < n; i++) {
		int64_t t0 = now_ns(), t1, t2;
		uint64_t seq = submit(&slots[0]);

		t1 = now_ns();
		wait_job(seq, &w);
		t2 = now_ns();
		tot[i] = t2 - t0;
		sub[i] = t1 - t0;
		wt[i] = t2 - t1;
		cyc[i] = (int64_t)w.device_cycles;
		if (t2 > end) {
			i++;
			break;
		}
	}
	if (memcmp(slots[0].src.map, slots[0].dst.map, COPY_LEN)) {
		fprintf(stderr, "vpux-job-bench: the copy did not happen\n");
		exit(1);
	}
	r->done = i;
	r->mean = 0;
	r->over_1ms = 0;
	for (n = 0; n < i; n++) {
		r->mean += tot[n] / i;
		r->over_1ms += tot[n] > 1000000;
	}
	r->p90 = pctl(tot, i, 90.0);
	r->med = median(tot, i);
	r->p99 = pctl(tot, i, 99.0);
	r->submit_med = median(sub, i);
	r->wait_med = median(wt, i);
	r->cycles_med = median(cyc, i);
	free(tot);
	free(sub);
	free(wt);
	free(cyc);
}

/* (3) K jobs in flight: wait for the oldest, submit a new one. */
static double bench_tput(int k, long n, double cap_s, long *done)
{
	long submitted = 0, completed = 0;
	int64_t t0, end = now_ns() + (int64_t)(cap_s * 1e9);
	struct drm_vpux_wait w;
	int i;

	for (i = 0; i < k; i++)		/* warm up: every slot once */
		slots[i].seqno = submit(&slots[i]);
	for (i = 0; i < k; i++)
		wait_job(slots[i].seqno, &w);

	t0 = now_ns();
	for (i = 0; i < k && submitted < n; i++, submitted++)
		slots[i].seqno = submit(&slots[i]);
	for (i = 0; completed < submitted; i = (i + 1) % k) {
		wait_job(slots[i].seqno, &w);
		completed++;
		if (submitted < n && (completed & 63 || now_ns() < end)) {
			slots[i].seqno = submit(&slots[i]);
			submitted++;
		} else {
			n = submitted;	/* out of time: drain */
		}
	}
	*done = completed;
	return completed / ((now_ns() - t0) / 1e9);
}

/* ---- (5) --trace: where the time goes ---- */

static const char *tracefs;

static int tfs_write_flags(const char *file, const char *val, int flags)
{
	char path[256];
	int f, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	f = open(path, O_WRONLY | flags);
	if (f < 0)
		return -errno;
	if (write(f, val, strlen(val)) < 0)
		ret = -errno;
	close(f);
	return ret;
}

static int tfs_write(const char *file, const char *val)
{
	return tfs_write_flags(file, val, O_TRUNC);
}

static void trace_reset(void)
{
	tfs_write("tracing_on", "0");
	tfs_write("events/enable", "0");
	tfs_write("trace", "");
	tfs_write("buffer_size_kb", "1408");
}

/* Find tracefs, enable @events ("system/event"), start tracing. */
static int trace_start(const char *const *events, unsigned int n)
{
	char path[256];
	unsigned int e;

	if (!access("/sys/kernel/tracing/trace", W_OK))
		tracefs = "/sys/kernel/tracing";
	else if (!access("/sys/kernel/debug/tracing/trace", W_OK))
		tracefs = "/sys/kernel/debug/tracing";
	else {
		printf("trace: no tracefs, skipped\n");
		return -1;
	}
	tfs_write("tracing_on", "0");
	tfs_write("events/enable", "0");
	tfs_write("trace", "");
	tfs_write("buffer_size_kb", "16384");
	for (e = 0; e < n; e++) {
		snprintf(path, sizeof(path), "events/%s/enable", events[e]);
		if (tfs_write(path, "1"))
			printf("trace: event %s not available\n", events[e]);
	}
	tfs_write("tracing_on", "1");
	return 0;
}

/* Timeline points of one job, in trace order. */
enum {
	P_SUBMIT,	/* marker: before SUBMIT */
	P_PUSHED,	/* gpu_scheduler:drm_sched_job (entity push) */
	P_SUBMITTED,	/* marker: SUBMIT returned */
	P_RUNWORK,	/* workqueue_execute_start drm_sched_run_job_work */
	P_RUNJOB,	/* gpu_scheduler:drm_run_job */
	P_ENGINE,	/* workqueue_execute_start vdev_run_work (the model) */
	P_IRQ,		/* irq_vectors:irq_work_entry */
	P_BH,		/* workqueue_execute_start vpux_bh_work */
	P_SIGNAL,	/* gpu_scheduler:drm_sched_process_job (hw fence) */
	P_WOKEN,	/* marker: WAIT returned */
	P_COUNT
};

static const char *const p_name[P_COUNT] = {
	"submit", "entity push", "SUBMIT returned", "sched run_job_work",
	"run_job", "model engine work", "irq_work (hard irq)",
	"bottom half work", "hw fence signalled", "WAIT returned",
};

/* Which timeline point a trace line is, or -1. */
static int classify(const char *l)
{
	if (strstr(l, "vpuxb: submit "))
		return P_SUBMIT;
	if (strstr(l, "vpuxb: submitted "))
		return P_SUBMITTED;
	if (strstr(l, "vpuxb: woken "))
		return P_WOKEN;
	if (strstr(l, "drm_sched_job:"))
		return P_PUSHED;
	if (strstr(l, "drm_run_job:"))
		return P_RUNJOB;
	if (strstr(l, "drm_sched_process_job:"))
		return P_SIGNAL;
	if (strstr(l, "irq_work_entry:"))
		return P_IRQ;
	if (strstr(l, "workqueue_execute_start:")) {
		if (strstr(l, "drm_sched_run_job_work"))
			return P_RUNWORK;
		if (strstr(l, "vdev_run_work"))
			return P_ENGINE;
		if (strstr(l, "vpux_bh_work"))
			return P_BH;
	}
	return -1;
}

/* "   task-pid   [001] d.h1.  123.456789: event: ..." -> ns */
static int64_t line_ts(const char *l)
{
	const char *c = strstr(l, ": ");
	const char *p;
	long sec, frac;
	int digits;

	if (!c)
		return -1;
	p = c;
	while (p > l && p[-1] != ' ')
		p--;
	if (sscanf(p, "%ld.%ld", &sec, &frac) != 2)
		return -1;
	digits = (int)(c - strchr(p, '.')) - 1;
	while (digits < 9) {
		frac *= 10;
		digits++;
	}
	return sec * 1000000000ll + frac;
}

static void bench_trace(void)
{
	static const char *const events[] = {
		"gpu_scheduler/drm_sched_job", "gpu_scheduler/drm_run_job",
		"gpu_scheduler/drm_sched_process_job",
		"workqueue/workqueue_execute_start", "irq_vectors/irq_work_entry",
	};
	long n = opt.trace_jobs, i, j, njobs, have[P_COUNT] = { 0 };
	long slow = 0, slow_hop[P_COUNT] = { 0 };
	int64_t (*ts)[P_COUNT], *d, med_total;
	char path[256], buf[128], line[512];
	struct drm_vpux_wait w;
	int marker, p;
	FILE *f;

	if (trace_start(events, sizeof(events) / sizeof(events[0])))
		return;
	ts = calloc(n, sizeof(*ts));
	d = samples(n);
	if (!ts)
		die("calloc", ENOMEM);
	snprintf(path, sizeof(path), "%s/trace_marker", tracefs);
	marker = open(path, O_WRONLY);
	if (marker < 0)
		die("trace_marker", errno);
	for (i = 0; i < n; i++) {
		uint64_t seq;
		int len;

		len = snprintf(buf, sizeof(buf), "vpuxb: submit %ld\n", i);
		if (write(marker, buf, len) < 0)
			die("trace_marker", errno);
		seq = submit(&slots[0]);
		len = snprintf(buf, sizeof(buf), "vpuxb: submitted %ld\n", i);
		if (write(marker, buf, len) < 0)
			die("trace_marker", errno);
		wait_job(seq, &w);
		len = snprintf(buf, sizeof(buf), "vpuxb: woken %ld\n", i);
		if (write(marker, buf, len) < 0)
			die("trace_marker", errno);
		usleep(200);	/* let the scheduler's free_job work settle */
	}
	tfs_write("tracing_on", "0");
	close(marker);

	/*
	 * Per job: the first point of each kind after its submit marker
	 * (jobs are 200 us apart, so nothing of the previous one is left);
	 * a hop is counted only when its two points are in order.
	 */
	snprintf(path, sizeof(path), "%s/trace", tracefs);
	f = fopen(path, "r");
	if (!f)
		die("trace", errno);
	j = -1;
	while (fgets(line, sizeof(line), f)) {
		int64_t t;

		if (line[0] == '#')
			continue;
		p = classify(line);
		if (p < 0 || (t = line_ts(line)) < 0)
			continue;
		if (p == P_SUBMIT) {
			j++;
			if (j >= n)
				break;
			ts[j][P_SUBMIT] = t;
			continue;
		}
		if (j < 0 || ts[j][p])
			continue;	/* only the first of each kind counts */
		ts[j][p] = t;
	}
	fclose(f);
	njobs = j + 1 > n ? n : j + 1;
	trace_reset();

	for (j = 0; j < njobs; j++)
		for (p = 0; p < P_COUNT; p++)
			if (ts[j][p])
				have[p]++;
	printf("\nWhere a 1-op job's time goes (%ld traced jobs, tracing on: "
	       "absolute figures include the tracer's cost)\n", njobs);
	printf("  %-22s %-22s %10s %8s\n", "from", "to", "median us", "jobs");
	for (p = 1; p < P_COUNT; p++) {
		int q = p - 1;
		long m = 0;

		if (!have[p])
			continue;
		while (q > 0 && !have[q])
			q--;
		if (p == P_RUNWORK)	/* from the push, not from the return to user */
			q = have[P_PUSHED] ? P_PUSHED : P_SUBMIT;
		if (p == P_SUBMITTED || p == P_WOKEN)
			q = p == P_SUBMITTED ? P_SUBMIT : (have[P_SIGNAL] ? P_SIGNAL : P_SUBMIT);
		for (j = 0; j < njobs; j++)
			if (ts[j][p] && ts[j][q] && ts[j][p] >= ts[j][q])
				d[m++] = ts[j][p] - ts[j][q];
		printf("  %-22s %-22s %10.1f %8ld\n", p_name[q], p_name[p],
		       median(d, m) / 1000.0, m);
	}
	{
		long m = 0;

		for (j = 0; j < njobs; j++)
			if (ts[j][P_WOKEN] && ts[j][P_SUBMIT])
				d[m++] = ts[j][P_WOKEN] - ts[j][P_SUBMIT];
		med_total = median(d, m);
		printf("  %-22s %-22s %10.1f %8ld\n", "submit", "WAIT returned",
		       med_total / 1000.0, m);
	}

	/* The slow jobs (over 4x the median): which hop took their time? */
	for (j = 0; j < njobs; j++) {
		int64_t best = -1, prev;
		int bp = -1, q;

		if (!ts[j][P_WOKEN] || ts[j][P_WOKEN] - ts[j][P_SUBMIT] <= 4 * med_total)
			continue;
		slow++;
		prev = ts[j][P_SUBMIT];
		for (q = P_PUSHED; q < P_COUNT; q++) {
			if (!ts[j][q] || q == P_SUBMITTED || ts[j][q] < prev)
				continue;
			if (ts[j][q] - prev > best) {
				best = ts[j][q] - prev;
				bp = q;
			}
			prev = ts[j][q];
		}
		if (bp >= 0)
			slow_hop[bp]++;
	}
	printf("  slow jobs (> 4x median): %ld of %ld; the hop that took most of "
	       "their time, ending at:", slow, njobs);
	for (p = 0; p < P_COUNT; p++)
		if (slow_hop[p])
			printf(" %s %ld;", p_name[p], slow_hop[p]);
	printf("\n");
	free(ts);
	free(d);
}

/* Kernel contexts' busy time per job at @k jobs in flight. */
#define PROF_MAX 16384

struct prof_fn {
	char name[48];
	long count;
	int64_t busy;
	int64_t *runs;	/* each run's duration, for the median */
};

static struct prof_fn *prof_get(struct prof_fn *t, int *nt, const char *name)
{
	int i;

	for (i = 0; i < *nt; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	if (*nt == 32)
		return NULL;
	memset(&t[*nt], 0, sizeof(t[*nt]));
	snprintf(t[*nt].name, sizeof(t[*nt].name), "%s", name);
	t[*nt].runs = samples(PROF_MAX);
	return &t[(*nt)++];
}

static void prof_add(struct prof_fn *pf, int64_t d)
{
	if (pf->count < PROF_MAX)
		pf->runs[pf->count] = d;
	pf->count++;
	pf->busy += d;
}

static void bench_profile(int k)
{
	static const char *const events[] = {
		"workqueue/workqueue_execute_start", "workqueue/workqueue_execute_end",
		"irq_vectors/irq_work_entry", "irq_vectors/irq_work_exit",
		"gpu_scheduler/drm_run_job",
	};
	struct { char work[24]; int64_t t; } open_w[64];
	int64_t irq_t[64] = { 0 }, elapsed, busy = 0;
	long jobs, runs = 0;
	struct prof_fn fn[32];
	int nfn = 0, nopen = 0, i;
	char path[256], line[512];
	double jps;
	FILE *f;

	memset(open_w, 0, sizeof(open_w));
	if (trace_start(events, sizeof(events) / sizeof(events[0])))
		return;
	elapsed = now_ns();
	jps = bench_tput(k, opt.trace_jobs, 60.0, &jobs);
	elapsed = now_ns() - elapsed;
	tfs_write("tracing_on", "0");

	snprintf(path, sizeof(path), "%s/trace", tracefs);
	f = fopen(path, "r");
	if (!f)
		die("trace", errno);
	while (fgets(line, sizeof(line), f)) {
		const char *b = strchr(line, '['), *w, *fnp;
		char work[24] = "", name[48] = "";
		int64_t t = line_ts(line);
		int cpu = b ? atoi(b + 1) & 63 : 0;
		struct prof_fn *pf;

		if (line[0] == '#' || t < 0)
			continue;
		if (strstr(line, "drm_run_job:")) {
			runs++;
			continue;
		}
		if (strstr(line, "irq_work_entry:")) {
			irq_t[cpu] = t;
			continue;
		}
		if (strstr(line, "irq_work_exit:")) {
			if (irq_t[cpu] && (pf = prof_get(fn, &nfn, "irq_work (hard irq)")))
				prof_add(pf, t - irq_t[cpu]);
			irq_t[cpu] = 0;
			continue;
		}
		w = strstr(line, "work struct ");
		fnp = strstr(line, "function ");
		if (!w || !fnp || sscanf(w + 12, "%23[0-9a-fx]", work) != 1 ||
		    sscanf(fnp + 9, "%47[^ \n]", name) != 1)
			continue;
		if (strstr(line, "workqueue_execute_start:")) {
			for (i = 0; i < nopen && strcmp(open_w[i].work, work); i++)
				;
			if (i == nopen && nopen < 64)
				nopen++;
			if (i < 64) {
				memcpy(open_w[i].work, work, sizeof(work));
				open_w[i].t = t;
			}
		} else if (strstr(line, "workqueue_execute_end:")) {
			for (i = 0; i < nopen && strcmp(open_w[i].work, work); i++)
				;
			if (i == nopen || !open_w[i].t)
				continue;
			pf = prof_get(fn, &nfn, name);
			if (pf)
				prof_add(pf, t - open_w[i].t);
			open_w[i].t = 0;
		}
	}
	fclose(f);
	trace_reset();

	printf("\nKernel contexts at %d jobs in flight (%ld traced jobs, %ld run_job, "
	       "%.0f jobs/s with tracing, %.1f us per job)\n", k, jobs, runs, jps,
	       elapsed / 1000.0 / (jobs ? jobs : 1));
	printf("  %-30s %9s %11s %11s %11s\n", "context", "runs/job", "median us",
	       "mean us", "us per job");
	for (i = 0; i < nfn; i++) {
		long m = fn[i].count < PROF_MAX ? fn[i].count : PROF_MAX;

		if (fn[i].count * 20 >= jobs) {	/* else unrelated background work */
			busy += fn[i].busy;
			printf("  %-30s %9.2f %11.1f %11.1f %11.1f\n", fn[i].name,
			       (double)fn[i].count / jobs, median(fn[i].runs, m) / 1000.0,
			       fn[i].busy / 1000.0 / fn[i].count,
			       fn[i].busy / 1000.0 / jobs);
		}
		free(fn[i].runs);
	}
	printf("  %-30s %9s %11s %11s %11.1f\n", "all of the above", "", "", "",
	       busy / 1000.0 / (jobs ? jobs : 1));
}

/*
 * function_graph over the job path's kernel entry points, depth 2: each
 * root's time per job and the callees it is spent in.
 */
struct graph_row {
	char root[40], fn[56];
	long count;
	double us;
};

static void bench_graph(long n)
{
	static const char *const roots[] = {
		"vpux_submit_ioctl", "vpux_wait_ioctl", "drm_sched_run_job_work",
		"vdev_run_work", "vpux_bh_work", "drm_sched_free_job_work",
	};
	enum { NROOTS = sizeof(roots) / sizeof(roots[0]), NROWS = 256 };
	struct graph_row *rows = calloc(NROWS, sizeof(*rows));
	char cur[64][40], path[256], line[512];
	int nrows = 0, r, i;
	struct drm_vpux_wait w;
	long j;
	FILE *f;

	if (!rows)
		die("calloc", ENOMEM);
	if (trace_start(NULL, 0)) {
		free(rows);
		return;
	}
	tfs_write("tracing_on", "0");
	tfs_write("set_graph_function", "");
	for (r = 0; r < NROOTS; r++)
		if (tfs_write_flags("set_graph_function", roots[r], O_APPEND))
			printf("graph: %s not traceable\n", roots[r]);
	tfs_write("max_graph_depth", "2");
	tfs_write("options/funcgraph-irqs", "0");
	if (tfs_write("current_tracer", "function_graph")) {
		printf("graph: no function_graph tracer, skipped\n");
		free(rows);
		return;
	}
	tfs_write("tracing_on", "1");
	for (j = 0; j < n; j++)
		wait_job(submit(&slots[0]), &w);
	tfs_write("tracing_on", "0");

	memset(cur, 0, sizeof(cur));
	snprintf(path, sizeof(path), "%s/trace", tracefs);
	f = fopen(path, "r");
	if (!f)
		die("trace", errno);
	while (fgets(line, sizeof(line), f)) {
		char *bar = strchr(line, '|'), *p, name[56] = "";

		double us = -1;
		int cpu, open_brace, k;

		if (line[0] == '#' || !bar || sscanf(line, " %d)", &cpu) != 1)
			continue;
		cpu &= 63;
		p = strchr(line, ')');
		for (p = p ? p + 1 : bar; p < bar; p++)	/* "12.345 us" before the bar */
			if (*p >= '0' && *p <= '9') {
				sscanf(p, "%lf", &us);
				break;
			}
		p = bar + 1;
		while (*p == ' ')
			p++;
		open_brace = strstr(p, "{") != NULL;
		if (*p == '}') {		/* a root returns */
			if (cur[cpu][0] && us >= 0) {
				snprintf(name, sizeof(name), "(total)");
				goto add;
			}
			continue;
		}
		if (sscanf(p, "%55[A-Za-z0-9_.]", name) != 1)
			continue;
		if (open_brace) {
			for (r = 0; r < NROOTS; r++)
				if (!strcmp(name, roots[r]))
					break;
			snprintf(cur[cpu], sizeof(cur[cpu]), "%s", r < NROOTS ? name : "");
			continue;
		}
		if (!cur[cpu][0] || us < 0)
			continue;
add:
		for (k = 0; k < nrows; k++)
			if (!strcmp(rows[k].root, cur[cpu]) && !strcmp(rows[k].fn, name))
				break;
		if (k == nrows) {
			if (nrows == NROWS)
				continue;
			snprintf(rows[k].root, sizeof(rows[k].root), "%s", cur[cpu]);
			snprintf(rows[k].fn, sizeof(rows[k].fn), "%s", name);
			nrows++;
		}
		rows[k].count++;
		rows[k].us += us;
		if (!strcmp(name, "(total)"))
			cur[cpu][0] = 0;
	}
	fclose(f);
	tfs_write("current_tracer", "nop");
	tfs_write("set_graph_function", "");
	tfs_write("max_graph_depth", "0");
	trace_reset();

	printf("\nKernel entry points of a 1-op job, function_graph depth 2 "
	       "(%ld jobs; tracer overhead included; callees >= 0.5 us/job)\n", n);
	printf("  %-26s %-40s %8s %10s\n", "root", "callee", "calls/job", "us/job");
	for (r = 0; r < NROOTS; r++)
		for (i = 0; i < 2; i++)
			for (j = 0; j < nrows; j++) {
				struct graph_row *g = &rows[j];
				int total = !strcmp(g->fn, "(total)");

				if (strcmp(g->root, roots[r]) || total != !i)
					continue;
				if (!total && g->us / n < 0.5)
					continue;
				printf("  %-26s %-40s %8.2f %10.1f\n", total ? g->root : "",
				       g->fn, (double)g->count / n, g->us / n);
			}
	free(rows);
}

/* One line of a small sysfs/proc file, or "?". */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "?");
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

/* What decides how fast an idle vCPU wakes up. */
static void print_env(void)
{
	char idle[64], gov[64], cs[64], line[4096];
	int monitor = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strstr(line, " monitor"))
			monitor = 1;
	if (f)
		fclose(f);
	read_line("/sys/devices/system/cpu/cpuidle/current_driver", idle, sizeof(idle));
	read_line("/sys/devices/system/cpu/cpuidle/current_governor_ro", gov, sizeof(gov));
	if (!strcmp(gov, "?"))
		read_line("/sys/devices/system/cpu/cpuidle/current_governor", gov, sizeof(gov));
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  cs, sizeof(cs));
	printf("guest: %ld CPUs, cpuidle driver %s (governor %s), MONITOR/MWAIT %s, "
	       "clocksource %s%s%s\n", sysconf(_SC_NPROCESSORS_ONLN), idle, gov,
	       monitor ? "advertised" : "absent", cs,
	       opt.poll_wait ? ", WAIT polled" : "",
	       opt.pm_qos ? ", cpu_dma_latency held at 0" : "");
	if (opt.idle_spin)
		printf("guest: a SCHED_IDLE spinner per CPU: idle vCPUs never halt\n");
}

static void usage(void)
{
	printf("usage: vpux-job-bench [options]\n"
	       "  --iterations N   GET_PARAM round trips (default 200000); the job\n"
	       "                   phases use N/100 jobs (latency) and 3N/100 (throughput)\n"
	       "  --quick          small counts (a few seconds in the TCG VM)\n"
	       "  --device N       the Nth vpux device (default 0)\n"
	       "  --shared-bos     every job uses the same BOs (implicit dependencies)\n"
	       "  --trace N        also trace N jobs with ftrace: per-hop medians, and\n"
	       "                   the kernel contexts' busy time at 1 and 16 in flight\n"
	       "  --cap SECONDS    wall-clock cap per phase (default 8)\n"
	       "  --poll-wait      WAIT by polling (timeout 0) instead of sleeping\n"
	       "  --pm-qos         hold /dev/cpu_dma_latency at 0 (no deep idle)\n"
	       "  --idle-spin      a SCHED_IDLE busy loop per CPU, so that no vCPU\n"
	       "                   ever halts (isolates the cost of waking one)\n"
	       "  --rounds N       throughput: N interleaved rounds of 1, 4, 16 in\n"
	       "                   flight, medians reported (default 5)\n"
	       "  --default-queue  uapi 1.5: submit to the file's default queue (one\n"
	       "                   job at a time) instead of a queue per slot\n"
	       "  --dpu-fp16 N     only this: the FP16 conv of bench-dpu (56x56x64\n"
	       "                   -> 64, 3x3) as one DPU op, N jobs; lifts the hang\n"
	       "                   timeout and the run-time cap meanwhile\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "quick", no_argument, NULL, 'q' },
		{ "device", required_argument, NULL, 'd' },
		{ "shared-bos", no_argument, NULL, 's' },
		{ "trace", required_argument, NULL, 't' },
		{ "cap", required_argument, NULL, 'c' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "poll-wait", no_argument, NULL, 'P' },
		{ "pm-qos", no_argument, NULL, 'Q' },
		{ "idle-spin", no_argument, NULL, 'I' },
		{ "default-queue", no_argument, NULL, 'D' },
		{ "dpu-fp16", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const int ks[] = { 1, 4, 16 };
	double jps[3], lo_jps[3], hi_jps[3], ratio4, ratio16, cycles_ns;
	int64_t gp_med, gp_p99, pp_med, pp_p99, p1_med, p1_p99, *rj[3], *rr4, *rr16;
	uint64_t khz, uapi;
	long gp_n, pp_n, p1_n, tn[3] = { 0 };
	struct lat lat;
	int c, i;

	while ((c = getopt_long(argc, argv, "n:qd:st:c:r:PQIDF:h", lo, NULL)) != -1) {
		switch (c) {
		case 'F':
			opt.dpu_fp16 = atoi(optarg);
			if (opt.dpu_fp16 < 1) {
				usage();
				return 2;
			}
			break;
		case 'n':
			opt.getparam_iters = atol(optarg);
			opt.job_iters = opt.getparam_iters / 100;
			opt.tput_jobs = opt.getparam_iters * 3 / 100;
			break;
		case 'q':
			opt.getparam_iters = 20000;
			opt.job_iters = 200;
			opt.tput_jobs = 600;
			opt.phase_cap_s = 2.0;
			opt.rounds = 3;
			break;
		case 'r':
			opt.rounds = atoi(optarg);
			break;
		case 'P':
			opt.poll_wait = 1;
			break;
		case 'Q':
			opt.pm_qos = 1;
			break;
		case 'I':
			opt.idle_spin = 1;
			break;
		case 'D':
			opt.default_queue = 1;
			break;
		case 'd':
			opt.device = atoi(optarg);
			break;
		case 's':
			opt.shared_bos = 1;
			break;
		case 't':
			opt.trace_jobs = atol(optarg);
			break;
		case 'c':
			opt.phase_cap_s = atof(optarg);
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 2;
		}
	}
	if (opt.getparam_iters < 100)
		opt.getparam_iters = 100;
	if (opt.job_iters < 10)
		opt.job_iters = 10;
	if (opt.rounds < 1)
		opt.rounds = 1;
	if (opt.tput_jobs < 2 * MAX_INFLIGHT * opt.rounds)
		opt.tput_jobs = 2 * MAX_INFLIGHT * opt.rounds;

	if (opt.pm_qos) {
		int32_t zero = 0;
		int q = open("/dev/cpu_dma_latency", O_WRONLY);	/* kept open */

		if (q < 0 || write(q, &zero, sizeof(zero)) != sizeof(zero))
			fprintf(stderr, "vpux-job-bench: /dev/cpu_dma_latency: %s\n",
				strerror(errno));
	}
	if (opt.idle_spin) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		for (i = 0; i < ncpu && i < 64; i++) {
			spinners[i] = fork();
			if (!spinners[i]) {
				struct sched_param sp = { 0 };

				prctl(PR_SET_PDEATHSIG, SIGKILL);
				sched_setscheduler(0, SCHED_IDLE, &sp);
				for (;;)
					;
			}
		}
	}
	print_env();
	fd = open_device(opt.device);
	if (fd < 0)
		die("no vpux device (is vpux_accel loaded?)", fd);
	khz = get_param(DRM_VPUX_PARAM_CLOCK_KHZ);
	uapi = get_param(DRM_VPUX_PARAM_UAPI_VERSION);
	if (opt.dpu_fp16) {
		bench_dpu_fp16(opt.dpu_fp16, khz);
		close(fd);
		return 0;
	}
	if (uapi >> 16 != DRM_VPUX_UAPI_VERSION_MAJOR) {
		fprintf(stderr, "vpux-job-bench: vpux_accel uapi %llu.%llu, this program speaks %d.x\n",
			(unsigned long long)(uapi >> 16),
			(unsigned long long)(uapi & 0xffff),
			DRM_VPUX_UAPI_VERSION_MAJOR);
		return 1;
	}
	slots_init();
	printf("device: id %#llx, uapi %llu.%llu, %llu DMA engines, clock %llu kHz; %s BOs per in-flight slot; %s\n",
	       (unsigned long long)get_param(DRM_VPUX_PARAM_DEVICE_ID),
	       (unsigned long long)(uapi >> 16), (unsigned long long)(uapi & 0xffff),
	       (unsigned long long)get_param(DRM_VPUX_PARAM_NUM_DMA_ENGINES),
	       (unsigned long long)khz, opt.shared_bos ? "shared" : "own",
	       nqueues ? "a queue per in-flight slot (16 queues)" :
	       "the file's default queue");

	bench_getparam(&gp_med, &gp_p99, &gp_n);
	bench_pipe(-1, &pp_med, &pp_p99, &pp_n);
	bench_pipe(0, &p1_med, &p1_p99, &p1_n);
	bench_latency(&lat);
	/*
	 * Rounds of 1, 4, 16 in flight, interleaved so that a change of the
	 * host's load hits every K alike; medians over the rounds (jobs/s in
	 * milli-jobs/s to keep the integer helpers).
	 */
	for (i = 0; i < 3; i++)
		rj[i] = samples(opt.rounds);
	rr4 = samples(opt.rounds);
	rr16 = samples(opt.rounds);
	for (c = 0; c < opt.rounds; c++) {
		double r[3];
		long done;

		for (i = 0; i < 3; i++) {
			r[i] = bench_tput(ks[i], opt.tput_jobs / opt.rounds,
					  opt.phase_cap_s / opt.rounds, &done);
			tn[i] += done;
			rj[i][c] = (int64_t)(r[i] * 1000);
		}
		rr4[c] = (int64_t)(r[1] / r[0] * 1e6);
		rr16[c] = (int64_t)(r[2] / r[0] * 1e6);
	}
	for (i = 0; i < 3; i++) {
		jps[i] = median(rj[i], opt.rounds) / 1000.0;
		lo_jps[i] = rj[i][0] / 1000.0;
		hi_jps[i] = rj[i][opt.rounds - 1] / 1000.0;
		free(rj[i]);
	}
	ratio4 = median(rr4, opt.rounds) / 1e6;
	ratio16 = median(rr16, opt.rounds) / 1e6;
	free(rr4);
	free(rr16);
	cycles_ns = khz ? lat.cycles_med * 1e6 / khz : 0;

	printf("\n%-44s %12s %12s %8s\n", "measure", "median", "p99", "samples");
	printf("%-44s %9lld ns %9lld ns %8ld\n", "GET_PARAM round trip",
	       (long long)gp_med, (long long)gp_p99, gp_n);
	printf("%-44s %9lld ns %9lld ns %8ld\n", "pipe round trip, 2 processes (1 byte)",
	       (long long)pp_med, (long long)pp_p99, pp_n);
	printf("%-44s %9lld ns %9lld ns %8ld\n", "  both processes on CPU 0",
	       (long long)p1_med, (long long)p1_p99, p1_n);
	printf("%-44s %9lld ns %9lld ns %8ld\n", "1-op job SUBMIT+WAIT round trip",
	       (long long)lat.med, (long long)lat.p99, lat.done);
	printf("%-44s %9lld ns %9lld ns %8ld\n", "  p90; mean (ns)", (long long)lat.p90,
	       (long long)lat.mean, lat.done);
	printf("%-44s %12ld %12s %8ld\n", "  jobs over 1 ms", lat.over_1ms, "", lat.done);
	printf("%-44s %9lld ns %12s %8ld\n", "  of which SUBMIT ioctl",
	       (long long)lat.submit_med, "", lat.done);
	printf("%-44s %9lld ns %12s %8ld\n", "  of which WAIT ioctl",
	       (long long)lat.wait_med, "", lat.done);
	printf("%-44s %9lld cy %9.0f ns\n", "device cycles per job (WAIT device_cycles)",
	       (long long)lat.cycles_med, cycles_ns);
	printf("%-44s %11.1fx %12s (target <= 10x)\n", "job / GET_PARAM",
	       gp_med ? (double)lat.med / gp_med : 0.0, "");
	printf("%-44s %11.1fx %12s (on one CPU: %.1fx)\n",
	       "job / pipe round trip (P1 / pipe RTT)",
	       pp_med ? (double)lat.med / pp_med : 0.0, "",
	       p1_med ? (double)lat.med / p1_med : 0.0);
	for (i = 0; i < 3; i++)
		printf("jobs/s, %2d in flight (median of %d rounds) %4s %9.0f /s %8ld  "
		       "(rounds %.0f..%.0f)\n", ks[i], opt.rounds, "", jps[i], tn[i],
		       lo_jps[i], hi_jps[i]);
	printf("%-44s %11.2fx\n", "jobs/s 4 in flight / 1 in flight", ratio4);
	printf("%-44s %11.2fx %12s (target >= 3x)\n", "jobs/s 16 in flight / 1 in flight",
	       ratio16, "");

	{
		int64_t same = 0, handover = 0;

		bench_cmx(opt.job_iters / 2, &same, &handover);
		printf("%-44s %9lld ns %12s %8ld\n", "1-op CMX job, one file",
		       (long long)same, "", opt.job_iters / 2);
		printf("%-44s %9lld ns %12s %8ld\n", "  two files in turn (a clear each)",
		       (long long)handover, "", opt.job_iters / 2);
		printf("%-44s %11.2fx\n", "  CMX handover / same file",
		       same ? (double)handover / same : 0.0);
		printf("bench-cmx: same_ns=%lld handover_ns=%lld ratio=%.2f\n",
		       (long long)same, (long long)handover,
		       same ? (double)handover / same : 0.0);
	}

	if (opt.trace_jobs) {
		bench_trace();
		bench_profile(1);
		bench_profile(16);
		bench_graph(opt.trace_jobs < 200 ? opt.trace_jobs : 200);
	}

	printf("bench: getparam_ns=%lld getparam_p99_ns=%lld job_ns=%lld job_p99_ns=%lld "
	       "job_mean_ns=%lld "
	       "ratio=%.1f pipe_ns=%lld ratio_pipe=%.1f pipe1cpu_ns=%lld ratio_pipe1cpu=%.1f "
	       "jps1=%.0f jps4=%.0f jps16=%.0f "
	       "ratio4=%.2f ratio16=%.2f device_cycles=%lld queues=%d\n",
	       (long long)gp_med, (long long)gp_p99, (long long)lat.med,
	       (long long)lat.p99, (long long)lat.mean, gp_med ? (double)lat.med / gp_med : 0.0,
	       (long long)pp_med, pp_med ? (double)lat.med / pp_med : 0.0,
	       (long long)p1_med, p1_med ? (double)lat.med / p1_med : 0.0,
	       jps[0], jps[1], jps[2], ratio4, ratio16,
	       (long long)lat.cycles_med, nqueues);
	close(fd);
	for (i = 0; i < 64; i++)
		if (spinners[i] > 0) {
			kill(spinners[i], SIGKILL);
			waitpid(spinners[i], NULL, 0);
		}
	return 0;
}
