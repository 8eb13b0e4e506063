// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libvpux's ioctl backend against the real vpux_accel.ko (run in the VM
 * rig: tools/vm/vm-run.sh). The examples are compiled in (the VM has no
 * access to the build tree): each one runs through /dev/accel/accel0,
 * through the in-process backend and through the CPU reference with the
 * same inputs, and every output must be identical bit for bit. Then the
 * error paths: an absent node, a node that is not vpux_accel, per-op
 * cycles (unsupported), a short wait, latency figures of both backends
 * as TAP comments, and libvpux on uapi 2: its queues (16 requests in
 * flight on 16 queues), BO_WAIT, the limits from GET_PARAM, the error
 * fields and CAP_SYS_NICE; a driver of another uapi major is refused at
 * open. Dynamic shapes: test_plan's MLP over a token count loads
 * once and runs with several counts (the symbol buffer one more SUBMIT
 * BO), two at once, bit for bit against the CPU reference and the
 * in-process backend. Run recipes: the runner chains a recipe's NPU runs by in-syncobjs, and
 * a run on buffers of its own must still end after the long runs before
 * it, and not run after a run that failed.
 *
 *	ioctl_backend_test [/dev/accel/accelN]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <xf86drm.h>

#include "drm/vpux_accel.h"
#include "vpux.h"
#include "vpux_tap.h"
#include "iob_examples.h"	/* generated: struct iob_example examples[] */
#include "iob_many_ops.h"	/* generated: many_ops_vpux[], 1025 DMA ops */
#include "iob_plan.h"	/* generated: mlp_tokens_vpux[], test_plan's plan */
#include "iob_chain.h"	/* generated: chain_long_vpux[], 64 DMA ops of 1 MiB */

/*
 * The kernel seen through libdrm: this program's drmIoctl() and
 * drmGetVersion() take the place of libdrm's for libvpux.so (the
 * executable comes first in symbol lookup) and pass through to them.
 * With fake_major set, the version query reports that uapi major.
 *
 * It also counts what libvpux asks of the kernel (QUEUE_CREATE, BO_WAIT,
 * the queue ids SUBMIT names), keeps the last job result
 * the kernel gave, and with corrupt_task set shrinks every SUBMIT's task
 * range to 8 bytes, which the engine core refuses.
 */
static int fake_major = -1;
static int corrupt_task;
static struct {
	unsigned int queue_create, bo_wait, submit, submit_q0;
	unsigned int syncobj_create, syncobj_destroy;
	uint64_t queues[4];	/* bit n: queue id n + 1 named by SUBMIT */
	int32_t error, sys_error;	/* the last WAIT or BO_WAIT result */
	uint32_t status, core_error;
} seen;

/*
 * The chain probe (test_chain()): from its arming, the SUBMITs are
 * counted (their job numbers kept); with corrupt set, the first one's
 * task is shrunk like corrupt_task's. At the @at-th one, right after it
 * reached the kernel and before libvpux waits for anything, the probe
 * waits for that job and then polls the job submitted before it: that
 * one must have ended already when its successor in the chain did.
 */
static struct {
	unsigned int at, n;	/* probe the @at-th SUBMIT; SUBMITs seen */
	int corrupt;
	uint64_t prev, seqno;	/* the job numbers of the last two */
	uint32_t in_syncobjs;	/* the probed SUBMIT's in-syncobj count */
	int probed, waited;	/* WAIT for the probed job worked */
	uint32_t status;	/* the probed job's result */
	int32_t sys_error;
	int prev_ended;		/* the job before: WAIT(0) found it ended */
	uint32_t prev_status;
	double wait_ms;		/* from the SUBMIT to the job's end */
} chain;

static unsigned int queues_seen(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < 4; i++)
		n += (unsigned int)__builtin_popcountll(seen.queues[i]);
	return n;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* the chain probe after a SUBMIT @s that the kernel took */
static void chain_submitted(int fd, const struct drm_vpux_submit *s,
			    int (*real)(int, unsigned long, void *))
{
	struct drm_vpux_wait w;
	int64_t t0 = mono_ns();

	chain.n++;
	chain.prev = chain.seqno;
	chain.seqno = s->seqno;
	if (chain.n != chain.at)
		return;
	chain.probed = 1;
	chain.in_syncobjs = s->in_syncobj_count;
	memset(&w, 0, sizeof(w));
	w.seqno = s->seqno;
	w.timeout_ns = t0 + 60000000000ll;
	chain.waited = !real(fd, DRM_IOCTL_VPUX_WAIT, &w);
	chain.wait_ms = (double)(mono_ns() - t0) / 1e6;
	chain.status = w.status;
	chain.sys_error = w.sys_error;
	memset(&w, 0, sizeof(w));
	w.seqno = chain.prev;
	w.timeout_ns = 0;	/* poll */
	chain.prev_ended = !real(fd, DRM_IOCTL_VPUX_WAIT, &w);
	chain.prev_status = w.status;
}

int drmIoctl(int fd, unsigned long request, void *arg)
{
	static int (*real)(int, unsigned long, void *);
	int ret;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "drmIoctl");
	if (request == DRM_IOCTL_VPUX_QUEUE_CREATE)
		seen.queue_create++;
	if (request == DRM_IOCTL_VPUX_BO_WAIT)
		seen.bo_wait++;
	if (request == DRM_IOCTL_VPUX_SUBMIT) {
		struct drm_vpux_submit *s = arg;
		uint32_t q = s->queue_id;

		seen.submit++;
		if (!q)
			seen.submit_q0++;
		else if (q <= 256)
			seen.queues[(q - 1) / 64] |= 1ull << ((q - 1) % 64);
		if (corrupt_task || (chain.at && chain.corrupt && !chain.n))
			s->task.size = 8;
	}
	if (request == DRM_IOCTL_VPUX_WAIT) {
		struct drm_vpux_wait *w = arg;

		ret = real(fd, request, arg);
		if (!ret) {
			seen.status = w->status;
			seen.error = w->core_error ?
				     -(int32_t)w->core_error : w->sys_error;
			seen.sys_error = w->sys_error;
			seen.core_error = w->core_error;
		}
		return ret;
	}
	ret = real(fd, request, arg);
	if (!ret && request == DRM_IOCTL_SYNCOBJ_CREATE)
		seen.syncobj_create++;
	if (!ret && request == DRM_IOCTL_SYNCOBJ_DESTROY)
		seen.syncobj_destroy++;
	if (!ret && request == DRM_IOCTL_VPUX_SUBMIT && chain.at)
		chain_submitted(fd, arg, real);
	if (!ret && request == DRM_IOCTL_VPUX_BO_WAIT) {
		struct drm_vpux_bo_wait *b = arg;

		seen.status = b->status;
		seen.sys_error = b->sys_error;
		seen.core_error = b->core_error;
		seen.error = b->core_error ? -(int32_t)b->core_error :
			     b->sys_error;
	}
	return ret;
}

drmVersionPtr drmGetVersion(int fd)
{
	static drmVersionPtr (*real)(int);
	drmVersionPtr v;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "drmGetVersion");
	v = real(fd);
	if (v && fake_major >= 0)
		v->version_major = fake_major;
	return v;
}

#define MAXIO 8

static void gen(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;

	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*b++ = (unsigned char)(seed >> 16);
	}
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Every op's cycles of a request, DMA ops first, then DPU, then SHAVE */
#define MAXOPS 512
struct opcyc {
	uint32_t c[MAXOPS];
	unsigned int n;
	int err;		/* the first vpux_request_op_cycles() error */
	struct vpux_op_time t[MAXOPS];	/* vpux_request_op_times() */
	int terr;
};

static void read_op_cycles(struct vpux_network *net, struct vpux_request *req,
			   struct opcyc *oc)
{
	unsigned int k, i;
	int r;

	oc->n = 0;
	oc->err = 0;
	for (k = 0; k < 3; k++) {
		for (i = 0; i < vpux_network_num_ops(net, k) && oc->n < MAXOPS; i++) {
			r = vpux_request_op_cycles(req, k, i, &oc->c[oc->n++]);
			if (r && !oc->err)
				oc->err = r;
		}
	}
	oc->terr = vpux_request_op_times(req, oc->t, oc->n);
}

/*
 * Run @blob on @dev with inputs from @seed; outputs into @out (malloc'd
 * per output), @st the final status, the ops' cycles into @oc unless it
 * is NULL. @reps > 1 repeats the request and reports the median host
 * latency in *@lat_us. 0 or a VPUX_E_* code.
 */
static int run_on(struct vpux_device *dev, const struct iob_example *ex,
		  unsigned int seed, void **out, struct vpux_request_status *st,
		  int reps, double *lat_us, struct opcyc *oc)
{
	struct vpux_buffer *ib[MAXIO] = { 0 }, *ob[MAXIO] = { 0 };
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_tensor_desc d;
	unsigned int nin, nout, i;
	double lat[64];
	int ret, r;

	ret = vpux_network_load(dev, ex->data, ex->size, &net);
	if (ret)
		return ret;
	nin = vpux_network_num_inputs(net);
	nout = vpux_network_num_outputs(net);
	if (nin > MAXIO || nout > MAXIO) {
		vpux_network_unload(net);
		return VPUX_E_INVAL;
	}
	ret = vpux_request_create(net, &req);
	for (i = 0; !ret && i < nin; i++) {
		vpux_network_input(net, i, &d);
		ret = vpux_buffer_alloc(dev, d.size, &ib[i]);
		if (!ret) {
			gen(vpux_buffer_map(ib[i]), d.size, seed + i);
			ret = vpux_request_bind_input(req, i, ib[i], 0);
		}
	}
	for (i = 0; !ret && i < nout; i++) {
		vpux_network_output(net, i, &d);
		ret = vpux_buffer_alloc(dev, d.size, &ob[i]);
		if (!ret) {
			/* garbage that the device must overwrite */
			memset(vpux_buffer_map(ob[i]), 0xa5, d.size);
			ret = vpux_request_bind_output(req, i, ob[i], 0);
		}
	}
	if (reps > 64)
		reps = 64;
	for (r = 0; !ret && r < reps; r++) {
		double t0 = now_us();

		ret = vpux_request_submit(req);
		if (!ret)
			ret = vpux_request_wait(req, 10000);
		lat[r] = now_us() - t0;
	}
	if (!ret)
		ret = vpux_request_status(req, st);
	if (!ret && oc)
		read_op_cycles(net, req, oc);
	if (!ret && lat_us) {
		/* median by insertion sort */
		for (r = 1; r < reps; r++) {
			double v = lat[r];
			int k = r;

			while (k > 0 && lat[k - 1] > v) {
				lat[k] = lat[k - 1];
				k--;
			}
			lat[k] = v;
		}
		*lat_us = lat[reps / 2];
	}
	for (i = 0; !ret && i < nout; i++) {
		vpux_network_output(net, i, &d);
		out[i] = malloc(d.size);
		if (out[i])
			memcpy(out[i], vpux_buffer_map(ob[i]), d.size);
	}
	vpux_request_destroy(req);
	for (i = 0; i < MAXIO; i++) {
		vpux_buffer_free(ib[i]);
		vpux_buffer_free(ob[i]);
	}
	vpux_network_unload(net);
	return ret;
}

/* the CPU reference of @ex with inputs from @seed (on the inproc device) */
static int run_ref(struct vpux_device *dev, const struct iob_example *ex,
		   unsigned int seed, void **out)
{
	struct vpux_network *net = NULL;
	struct vpux_tensor_desc d;
	void *in[MAXIO] = { 0 };
	unsigned int nin, nout, i;
	int ret;

	ret = vpux_network_load(dev, ex->data, ex->size, &net);
	if (ret)
		return ret;
	nin = vpux_network_num_inputs(net);
	nout = vpux_network_num_outputs(net);
	for (i = 0; i < nin; i++) {
		vpux_network_input(net, i, &d);
		in[i] = malloc(d.size);
		if (in[i])
			gen(in[i], d.size, seed + i);
	}
	for (i = 0; i < nout; i++) {
		vpux_network_output(net, i, &d);
		out[i] = malloc(d.size);
	}
	ret = vpux_network_run_reference(net, (const void *const *)in, out);
	for (i = 0; i < nin; i++)
		free(in[i]);
	vpux_network_unload(net);
	return ret;
}

static void free_outs(void **o)
{
	unsigned int i;

	for (i = 0; i < MAXIO; i++) {
		free(o[i]);
		o[i] = NULL;
	}
}

static int same(struct vpux_device *dev, const struct iob_example *ex,
		void **a, void **b)
{
	struct vpux_network *net = NULL;
	struct vpux_tensor_desc d;
	unsigned int i, n;
	int ok = 1;

	if (vpux_network_load(dev, ex->data, ex->size, &net))
		return 0;
	n = vpux_network_num_outputs(net);
	for (i = 0; i < n; i++) {
		vpux_network_output(net, i, &d);
		if (!a[i] || !b[i] || memcmp(a[i], b[i], d.size)) {
			tap_diag("%s: output %u (%s, %llu bytes) differs", ex->name,
				 i, d.name, (unsigned long long)d.size);
			ok = 0;
		}
	}
	vpux_network_unload(net);
	return ok;
}

/*
 * libvpux speaks uapi 2.x only: a driver of another major (1.x, with
 * WAIT_BO and the legacy error field, or a future 3.x) is refused at
 * open with a message naming both versions.
 */
static void test_other_major(const char *node)
{
	static const int majors[] = { 1, 3 };
	struct vpux_device *x = NULL;
	unsigned int i;
	char want[32];
	int ret;

	for (i = 0; i < 2; i++) {
		fake_major = majors[i];
		x = NULL;
		ret = vpux_device_open(node, &x);
		snprintf(want, sizeof(want), "uapi %d.", majors[i]);
		tap_check(ret == VPUX_E_NODEV && !x &&
			  strstr(vpux_last_error(), want) &&
			  strstr(vpux_last_error(), "speaks 2.x"),
			  "a uapi %d.x kernel refused: %s", majors[i],
			  vpux_last_error());
		vpux_device_close(x);
	}
	fake_major = -1;
}

static const struct iob_example *example(const char *name)
{
	unsigned int e;

	for (e = 0; e < sizeof(examples) / sizeof(examples[0]); e++)
		if (!strcmp(examples[e].name, name))
			return &examples[e];
	return &examples[0];
}

/* GET_PARAM @param of @node straight from the kernel, ~0 on error */
static uint64_t raw_param(const char *node, uint32_t param)
{
	struct drm_vpux_get_param gp = { .param = param };
	int fd = open(node, O_RDWR | O_CLOEXEC);
	int (*real)(int, unsigned long, void *);

	*(void **)&real = dlsym(RTLD_NEXT, "drmIoctl");
	if (fd < 0)
		return ~0ull;
	if (real(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp))
		gp.value = ~0ull;
	close(fd);
	return gp.value;
}

/* A request with buffers of its own, its inputs filled from @seed */
struct rq {
	struct vpux_request *req;
	struct vpux_buffer *b[2 * MAXIO];
	unsigned int nin, n;
};

static int rq_make(struct vpux_device *dev, struct vpux_network *net,
		   struct rq *q, unsigned int seed)
{
	struct vpux_tensor_desc d;
	unsigned int i, nout;
	int ret;

	memset(q, 0, sizeof(*q));
	q->nin = vpux_network_num_inputs(net);
	nout = vpux_network_num_outputs(net);
	if (q->nin + nout > 2 * MAXIO)
		return VPUX_E_INVAL;
	ret = vpux_request_create(net, &q->req);
	for (i = 0; !ret && i < q->nin + nout; i++, q->n++) {
		ret = i < q->nin ? vpux_network_input(net, i, &d) :
		      vpux_network_output(net, i - q->nin, &d);
		if (!ret)
			ret = vpux_buffer_alloc(dev, d.size, &q->b[i]);
		if (ret)
			break;
		if (i < q->nin) {
			gen(vpux_buffer_map(q->b[i]), d.size, seed + i);
			ret = vpux_request_bind_input(q->req, i, q->b[i], 0);
		} else {
			memset(vpux_buffer_map(q->b[i]), 0xa5, d.size);
			ret = vpux_request_bind_output(q->req, i - q->nin,
						       q->b[i], 0);
		}
	}
	return ret;
}

/* copy_1op: is the output the input? */
static int rq_copied(struct rq *q)
{
	size_t n = vpux_buffer_size(q->b[0]);

	return q->n == 2 && vpux_buffer_size(q->b[1]) == n &&
	       !memcmp(vpux_buffer_map(q->b[0]), vpux_buffer_map(q->b[1]), n);
}

static void rq_free(struct rq *q)
{
	unsigned int i;

	vpux_request_destroy(q->req);
	for (i = 0; i < 2 * MAXIO; i++)
		vpux_buffer_free(q->b[i]);
	memset(q, 0, sizeof(*q));
}

/*
 * A request whose task the engine core refuses (corrupt_task): wait
 * fails with a message naming the core error the kernel reported, the
 * status has it as the error code. @what names the kernel for the TAP.
 */
static void check_refused(struct vpux_device *dev, struct vpux_network *net,
			  const char *what)
{
	struct vpux_request_status st;
	char code[32];
	struct rq q;
	int ret;
	uint32_t core;

	if (rq_make(dev, net, &q, 5)) {
		tap_check(0, "%s: a request for the refused task (%s)", what,
			  vpux_last_error());
		return;
	}
	memset(&seen, 0, sizeof(seen));
	corrupt_task = 1;
	ret = vpux_request_submit(q.req);
	corrupt_task = 0;
	if (!ret)
		ret = vpux_request_wait(q.req, 10000);
	core = (uint32_t)-seen.error;
	snprintf(code, sizeof(code), "(%u: ", core);
	tap_check(ret == VPUX_E_DEVICE && seen.status == DRM_VPUX_STATUS_ERROR &&
		  seen.error < 0 &&
		  strstr(vpux_last_error(), "engine core refused the task: engine-core error ") &&
		  strstr(vpux_last_error(), code) &&
		  !strstr(vpux_last_error(), "Unknown error"),
		  "%s: a task the core refuses: %s (kernel: status %u error %d)",
		  what, vpux_last_error(), seen.status, seen.error);
	memset(&st, 0, sizeof(st));
	ret = vpux_request_status(q.req, &st);
	tap_check(!ret && st.state == VPUX_REQ_FAILED && st.error == seen.error &&
		  st.error == -(int32_t)core,
		  "%s: its status: FAILED, error %d", what, st.error);
	{
		unsigned int cat = 99;
		uint32_t detail = 0;

		ret = vpux_request_error(q.req, &cat, &detail);
		tap_check(!ret && cat == VPUX_ERROR_INVALID && detail == core &&
			  !strcmp(vpux_error_category_name(cat), "INVALID"),
			  "%s: its error: category %s, detail %u (API 1.9)",
			  what, vpux_error_category_name(cat), detail);
	}
	rq_free(&q);
}

/*
 * A network of more ops than the kernel takes in a task (@max) is
 * refused when it is loaded, naming both counts, not at every submit.
 */
static void check_many_ops(struct vpux_device *dev, uint64_t max,
			   const char *what)
{
	struct vpux_network *net = NULL;
	char want[64];
	int ret;

	snprintf(want, sizeof(want), "1025 in all, the device takes %llu",
		 (unsigned long long)max);
	ret = vpux_network_load(dev, many_ops_vpux, sizeof(many_ops_vpux), &net);
	tap_check(max < 1025 && ret == VPUX_E_UNSUPPORTED && !net &&
		  strstr(vpux_last_error(), want),
		  "%s: a network of 1025 ops refused at load: %s", what,
		  ret ? vpux_last_error() : "loaded");
	vpux_network_unload(net);
}

/*
 * A request resubmitted more often than the kernel keeps job numbers:
 * its first result is read from its scratch BO. 1 if that worked.
 */
static int old_result(struct vpux_device *dev, struct vpux_network *net)
{
	struct vpux_request_status st1, st2;
	struct rq a, b;
	int ok, k;

	ok = !rq_make(dev, net, &a, 1) && !rq_make(dev, net, &b, 2) &&
	     !vpux_request_submit(a.req) && !vpux_request_wait(a.req, 5000) &&
	     !vpux_request_status(a.req, &st1);
	for (k = 0; ok && k < 300; k++)
		ok = !vpux_request_submit(b.req) &&
		     !vpux_request_wait(b.req, 5000);
	memset(&seen, 0, sizeof(seen));
	memset(&st2, 0, sizeof(st2));
	ok = ok && !vpux_request_status(a.req, &st2) &&
	     st2.state == VPUX_REQ_DONE &&
	     st2.device_cycles == st1.device_cycles && rq_copied(&a);
	rq_free(&a);
	rq_free(&b);
	return ok;
}

/* What the child of test_cap_sys_nice() found, one bit each */
enum {
	CAP_DROPPED = 1, CAP_HIGH_EPERM = 2, CAP_RT_EPERM = 4,
	CAP_NORMAL_RUNS = 8, CAP_LOW_RUNS = 16,
};

static int drop_sys_nice(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_SYS_NICE / 32].effective &= ~(1u << (CAP_SYS_NICE % 32));
	return (int)syscall(SYS_capset, &h, d);
}

/*
 * Without CAP_SYS_NICE, HIGH and REALTIME are refused with VPUX_E_PERM
 * and a message naming the capability; LOW and NORMAL run.
 */
static void test_cap_sys_nice(const char *node)
{
	struct vpux_device *kd = NULL;
	struct vpux_network *net = NULL;
	const struct iob_example *ex = example("copy_1op");
	struct rq q;
	pid_t pid;
	int st = 0, ok;

	memset(&q, 0, sizeof(q));
	/* with the capability (root in the VM rig), HIGH runs */
	ok = !vpux_device_open(node, &kd) &&
	     !vpux_network_load(kd, ex->data, ex->size, &net) &&
	     !rq_make(kd, net, &q, 3) &&
	     !vpux_request_set_priority(q.req, VPUX_PRIORITY_HIGH) &&
	     !vpux_request_submit(q.req) && !vpux_request_wait(q.req, 5000) &&
	     rq_copied(&q);
	tap_check(ok, "uapi 2: with CAP_SYS_NICE a HIGH request runs (%s)",
		  ok ? "done" : vpux_last_error());
	tap_check(vpux_request_set_priority(q.req, 4) == VPUX_E_INVAL,
		  "an unknown priority is refused: %s", vpux_last_error());
	rq_free(&q);
	vpux_network_unload(net);
	vpux_device_close(kd);

	fflush(stdout);
	pid = fork();
	if (!pid) {
		int r = 0, e;

		if (!drop_sys_nice())
			r |= CAP_DROPPED;
		kd = NULL;
		net = NULL;
		if (vpux_device_open(node, &kd) ||
		    vpux_network_load(kd, ex->data, ex->size, &net) ||
		    rq_make(kd, net, &q, 4))
			_exit(r);
		vpux_request_set_priority(q.req, VPUX_PRIORITY_HIGH);
		e = vpux_request_submit(q.req);
		if (e == VPUX_E_PERM && strstr(vpux_last_error(), "CAP_SYS_NICE") &&
		    strstr(vpux_last_error(), "HIGH"))
			r |= CAP_HIGH_EPERM;
		else
			fprintf(stderr, "HIGH: %d %s\n", e, vpux_last_error());
		vpux_request_set_priority(q.req, VPUX_PRIORITY_REALTIME);
		e = vpux_request_submit(q.req);
		if (e == VPUX_E_PERM && strstr(vpux_last_error(), "CAP_SYS_NICE") &&
		    strstr(vpux_last_error(), "REALTIME"))
			r |= CAP_RT_EPERM;
		vpux_request_set_priority(q.req, VPUX_PRIORITY_NORMAL);
		if (!vpux_request_submit(q.req) &&
		    !vpux_request_wait(q.req, 5000) && rq_copied(&q))
			r |= CAP_NORMAL_RUNS;
		vpux_request_set_priority(q.req, VPUX_PRIORITY_LOW);
		memset(vpux_buffer_map(q.b[1]), 0, vpux_buffer_size(q.b[1]));
		if (!vpux_request_submit(q.req) &&
		    !vpux_request_wait(q.req, 5000) && rq_copied(&q))
			r |= CAP_LOW_RUNS;
		_exit(r);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		st = 0;
	else
		st = WEXITSTATUS(st);
	tap_check(st & CAP_DROPPED, "a child without CAP_SYS_NICE");
	tap_check(st & CAP_HIGH_EPERM,
		  "without CAP_SYS_NICE: HIGH refused with VPUX_E_PERM naming the capability");
	tap_check(st & CAP_RT_EPERM,
		  "without CAP_SYS_NICE: REALTIME refused with VPUX_E_PERM");
	tap_check((st & (CAP_NORMAL_RUNS | CAP_LOW_RUNS)) ==
		  (CAP_NORMAL_RUNS | CAP_LOW_RUNS),
		  "without CAP_SYS_NICE: NORMAL and LOW run");
}

/*
 * libvpux on the uapi 2 driver as it is: the limits vpux_device_query()
 * reports are the kernel's, 16 requests in flight go to 16 queues (and
 * one request resubmitted stays on one), an old result is read with
 * BO_WAIT, a refused task's message names its core error, and
 * CAP_SYS_NICE is needed for HIGH and REALTIME.
 */
static void test_uapi2(const char *node)
{
	enum { K = 16 };
	const struct iob_example *ex = example("copy_1op");
	struct vpux_device *kd = NULL;
	struct vpux_network *net = NULL;
	struct vpux_device_info info;
	struct rq q[K];
	uint64_t ops = raw_param(node, DRM_VPUX_PARAM_MAX_OPS_PER_TASK);
	uint64_t bars = raw_param(node, DRM_VPUX_PARAM_MAX_BARRIERS);
	unsigned int i, right = 0;
	int ok, r;

	ok = !vpux_device_open(node, &kd) && !vpux_device_query(kd, &info);
	if (!tap_check(ok, "uapi 2: opened (%s)", ok ? "ok" : vpux_last_error()))
		return;
	tap_check(info.max_ops == ops && info.max_barriers == bars,
		  "uapi 2: query reports the kernel's limits: %u ops (GET_PARAM %llu), %u barriers (GET_PARAM %llu)",
		  info.max_ops, (unsigned long long)ops, info.max_barriers,
		  (unsigned long long)bars);
	check_many_ops(kd, ops, "uapi 2");
	ok = !vpux_network_load(kd, ex->data, ex->size, &net);
	for (i = 0; ok && i < K; i++)
		ok = !rq_make(kd, net, &q[i], 100 + i);
	memset(&seen, 0, sizeof(seen));
	for (i = 0; ok && i < K; i++)
		ok = !vpux_request_submit(q[i].req);
	for (i = 0; ok && i < K; i++) {
		r = vpux_request_wait(q[i].req, 10000);
		right += !r && rq_copied(&q[i]);
	}
	tap_check(ok && right == K,
		  "uapi 2: %d requests in flight, %u outputs right (%s)", K,
		  right, ok ? "ok" : vpux_last_error());
	tap_check(queues_seen() == K && !seen.submit_q0 &&
		  seen.queue_create == K,
		  "uapi 2: they went to %u queues (%u QUEUE_CREATE, %u to the default queue)",
		  queues_seen(), seen.queue_create, seen.submit_q0);
	memset(&seen, 0, sizeof(seen));
	for (i = 0; ok && i < 10; i++)
		ok = !vpux_request_submit(q[i % 2].req) &&
		     !vpux_request_wait(q[i % 2].req, 5000);
	tap_check(ok && queues_seen() == 1 && !seen.queue_create,
		  "uapi 2: one request at a time stays on one queue (%u queues, %u created)",
		  queues_seen(), seen.queue_create);
	for (i = 0; i < K; i++)
		rq_free(&q[i]);

	ok = old_result(kd, net);
	tap_check(ok && seen.bo_wait,
		  "uapi 2: a result older than 256 jobs is read with BO_WAIT (%u BO_WAIT)",
		  seen.bo_wait);
	check_refused(kd, net, "uapi 2");
	tap_check(seen.core_error && !seen.sys_error &&
		  seen.error == -(int32_t)seen.core_error,
		  "uapi 2: the kernel split it: core_error %u, sys_error %d",
		  seen.core_error, seen.sys_error);
	vpux_network_unload(net);
	vpux_device_close(kd);
	test_cap_sys_nice(node);
}

/* run the plan network @net on @dev with @t tokens; outputs into @y, @e */
static int plan_run(struct vpux_device *dev, struct vpux_network *net,
		    unsigned int t, const int8_t *x, struct vpux_request **keep,
		    struct vpux_buffer *b[3])
{
	struct vpux_shape s = { 2, { t, 32 } };
	struct vpux_request *req = NULL;
	int ret;

	ret = vpux_request_create(net, &req);
	ret = ret ? ret : vpux_buffer_alloc(dev, 64 * 32, &b[0]);
	ret = ret ? ret : vpux_buffer_alloc(dev, 64 * 64, &b[1]);
	ret = ret ? ret : vpux_buffer_alloc(dev, 64 * 32, &b[2]);
	if (ret)
		return ret;
	memcpy(vpux_buffer_map(b[0]), x, 64 * 32);
	memset(vpux_buffer_map(b[1]), 0, 64 * 64);
	memset(vpux_buffer_map(b[2]), 0, 64 * 32);
	ret = vpux_request_bind_input(req, 0, b[0], 0);
	ret = ret ? ret : vpux_request_bind_output(req, 0, b[1], 0);
	ret = ret ? ret : vpux_request_bind_output(req, 1, b[2], 0);
	ret = ret ? ret : vpux_request_set_input_shape(req, 0, &s);
	ret = ret ? ret : vpux_request_submit(req);
	*keep = req;
	return ret;
}

/* outputs of a finished plan run == its reference, first @t rows */
static int plan_same(struct vpux_request *req, unsigned int t,
		     const int8_t *x, struct vpux_buffer *b[3])
{
	static unsigned char y[64 * 64], e[64 * 32];
	const void *in[1] = { x };
	void *out[2] = { y, e };

	memset(y, 0, sizeof(y));
	memset(e, 0, sizeof(e));
	return !vpux_request_run_reference(req, in, out) &&
	       !memcmp(vpux_buffer_map(b[1]), y, 64 * t) &&
	       !memcmp(vpux_buffer_map(b[2]), e, 32 * t) &&
	       !memcmp(e, x, 32 * t);
}

static void plan_free(struct vpux_request *req, struct vpux_buffer *b[3])
{
	vpux_request_destroy(req);
	vpux_buffer_free(b[0]);
	vpux_buffer_free(b[1]);
	vpux_buffer_free(b[2]);
	b[0] = b[1] = b[2] = NULL;
}

static void test_plans(const char *node, struct vpux_device *kd,
		       struct vpux_device *ip)
{
	static const unsigned int sizes[] = { 1, 16, 17, 40, 63, 64 };
	struct vpux_network *kn = NULL, *in = NULL;
	struct vpux_buffer *kb[3] = { 0 }, *ib[3] = { 0 }, *b2[3] = { 0 };
	struct vpux_request *kr, *ir, *r2;
	struct vpux_request_status st;
	int8_t x[64 * 32];
	unsigned int i;
	int ret;

	gen(x, sizeof(x), 77);
	ret = vpux_network_load(kd, mlp_tokens_vpux, sizeof(mlp_tokens_vpux),
				&kn);
	ret = ret ? ret : vpux_network_load(ip, mlp_tokens_vpux,
					    sizeof(mlp_tokens_vpux), &in);
	if (!tap_check(!ret, "plan: the MLP over tokens loads on the kernel and in-process (%s)",
		       ret ? vpux_last_error() : "ok"))
		return;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned int t = sizes[i];

		memset(&st, 0, sizeof(st));
		ret = plan_run(kd, kn, t, x, &kr, kb);
		ret = ret ? ret : vpux_request_wait(kr, 10000);
		ret = ret ? ret : vpux_request_status(kr, &st);
		if (ret)
			tap_diag("kernel: %s", vpux_last_error());
		ret = ret ? ret : plan_run(ip, in, t, x, &ir, ib);
		ret = ret ? ret : vpux_request_wait(ir, 10000);
		tap_check(!ret && st.state == VPUX_REQ_DONE &&
			  plan_same(kr, t, x, kb) &&
			  !memcmp(vpux_buffer_map(kb[1]), vpux_buffer_map(ib[1]),
				  64 * t),
			  "plan: %u tokens through %s: bit-exact vs the reference and in-process (%llu device cycles)",
			  t, node, (unsigned long long)st.device_cycles);
		plan_free(kr, kb);
		plan_free(ir, ib);
	}
	ret = plan_run(kd, kn, 64, x, &kr, kb);
	ret = ret ? ret : plan_run(kd, kn, 23, x, &r2, b2);
	ret = ret ? ret : vpux_request_wait(r2, 10000);
	ret = ret ? ret : vpux_request_wait(kr, 10000);
	tap_check(!ret && plan_same(kr, 64, x, kb) && plan_same(r2, 23, x, b2),
		  "plan: 64 and 23 tokens concurrently on one network through the kernel (%s)",
		  ret ? vpux_last_error() : "ok");
	plan_free(kr, kb);
	plan_free(r2, b2);
	vpux_network_unload(kn);
	vpux_network_unload(in);
}

/*
 * Run recipes chain their NPU runs on the device (the runner's
 * submit_after, the ioctl backend's in- and out-syncobjs): each job
 * starts only when the one before it ended, and does not run if that one
 * failed. Here nothing else orders them: the last run of a chain copies
 * buffers of its own, so only the in-syncobj keeps it from running at
 * once on a queue of its own while the long runs before it still go.
 */
#define CHAIN_MIN_MS	200	/* the long runs of a chain, together */
#define CHAIN_MAX_RUNS	24
#define CHAIN_LONG	1048576	/* chain_long's input and output */
#define CHAIN_COPY	4096	/* copy_1op's */

static int put_file(const char *dir, const char *name, const void *data,
		    size_t n)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return 0;
	ok = fwrite(data, 1, n, f) == n;
	return !fclose(f) && ok;
}

/*
 * @dir/@name: @nlong runs of chain_long (lin -> lout), then copy_1op on
 * buffers no other run uses (cin -> cout). 1 if written.
 */
static int chain_recipe(const char *dir, const char *name, unsigned int nlong)
{
	static const char head[] =
		"{\"header\":{\"target\":\"vpux1\",\"version\":\"1.0\"},"
		"\"resources\":{\"buffers\":["
		"{\"name\":\"lin\",\"type\":\"input\"},"
		"{\"name\":\"lout\",\"type\":\"output\"},"
		"{\"name\":\"cin\",\"type\":\"input\"},"
		"{\"name\":\"cout\",\"type\":\"output\"}],"
		"\"kernels\":[{\"name\":\"long\",\"loadable\":\"chain_long.vpux\"},"
		"{\"name\":\"copy\",\"loadable\":\"copy_1op.vpux\"}]},"
		"\"execution\":{\"runs\":[";
	static const char run_long[] =
		"{\"name\":\"long\",\"arguments\":[{\"name\":\"lin\",\"argidx\":0},"
		"{\"name\":\"lout\",\"argidx\":1}]},";
	static const char run_copy[] =
		"{\"name\":\"copy\",\"arguments\":[{\"name\":\"cin\",\"argidx\":0},"
		"{\"name\":\"cout\",\"argidx\":1}]}]}}\n";
	char json[sizeof(head) + CHAIN_MAX_RUNS * sizeof(run_long) +
		  sizeof(run_copy)];
	unsigned int i;

	strcpy(json, head);
	for (i = 0; i < nlong; i++)
		strcat(json, run_long);
	strcat(json, run_copy);
	return put_file(dir, name, json, strlen(json));
}

/* @n bytes at @p all @v */
static int all_bytes(const void *p, size_t n, unsigned char v)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++ != v)
			return 0;
	return 1;
}

/* Write recipe @name (chain_recipe()) in @dir, create its runner, bind. */
static int chain_runner(struct vpux_device *kd, const char *dir,
			const char *name, unsigned int nlong,
			struct vpux_buffer *lin, struct vpux_buffer *lout,
			struct vpux_buffer *cin, struct vpux_buffer *cout,
			struct vpux_runner **r)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return chain_recipe(dir, name, nlong) &&
	       !vpux_runner_create(kd, path, r) &&
	       !vpux_runner_bind_input(*r, "lin", lin, 0) &&
	       !vpux_runner_bind_output(*r, "lout", lout, 0) &&
	       !vpux_runner_bind_input(*r, "cin", cin, 0) &&
	       !vpux_runner_bind_output(*r, "cout", cout, 0);
}

static void test_chain(const char *node)
{
	const struct iob_example *cp = example("copy_1op");
	struct vpux_buffer *lin = NULL, *lout = NULL, *cin = NULL, *cout = NULL;
	struct vpux_device *kd = NULL;
	struct vpux_network *net = NULL;
	struct vpux_runner *r = NULL;
	char dir[] = "/tmp/iob-chain-XXXXXX", path[256];
	unsigned int nlong = 0, sync0[2];
	double t0, one = 0;
	struct rq q;
	int made, ok, ret;

	made = !vpux_device_open(node, &kd) && mkdtemp(dir);
	ok = made &&
	     put_file(dir, "chain_long.vpux", chain_long_vpux,
		      sizeof(chain_long_vpux)) &&
	     put_file(dir, "copy_1op.vpux", cp->data, cp->size) &&
	     !vpux_buffer_alloc(kd, CHAIN_LONG, &lin) &&
	     !vpux_buffer_alloc(kd, CHAIN_LONG, &lout) &&
	     !vpux_buffer_alloc(kd, CHAIN_COPY, &cin) &&
	     !vpux_buffer_alloc(kd, CHAIN_COPY, &cout);
	/* how long one long run takes alone: enough of them for the chain */
	ok = ok && !vpux_network_load(kd, chain_long_vpux,
				      sizeof(chain_long_vpux), &net);
	if (ok) {
		ok = !rq_make(kd, net, &q, 31);
		t0 = now_us();
		ok = ok && !vpux_request_submit(q.req) &&
		     !vpux_request_wait(q.req, 60000) && rq_copied(&q);
		one = (now_us() - t0) / 1000;
		rq_free(&q);
		nlong = (unsigned int)(CHAIN_MIN_MS / (one > 1 ? one : 1)) + 1;
		if (nlong > CHAIN_MAX_RUNS)
			nlong = CHAIN_MAX_RUNS;
	}
	vpux_network_unload(net);
	if (!tap_check(ok, "chain: set up in %s, one run of 64 chained 1 MiB DMA ops alone: %.1f ms (%s)",
		       dir, one, ok ? "ok" : vpux_last_error()))
		goto out;

	/* ordering: the copy ends after the long runs before it */
	gen(vpux_buffer_map(lin), CHAIN_LONG, 41);
	memset(vpux_buffer_map(lout), 0, CHAIN_LONG);
	gen(vpux_buffer_map(cin), CHAIN_COPY, 42);
	memset(vpux_buffer_map(cout), 0xa5, CHAIN_COPY);
	ok = chain_runner(kd, dir, "order.json", nlong, lin, lout, cin, cout,
			  &r);
	memset(&chain, 0, sizeof(chain));
	chain.at = nlong + 1;
	sync0[0] = seen.syncobj_create;
	sync0[1] = seen.syncobj_destroy;
	ret = ok ? vpux_runner_execute(r) : -100;
	ret = ret ? ret : vpux_runner_wait(r, -1);
	chain.at = 0;
	/* every chained job's out-syncobj is gone once the runner waited */
	tap_check(seen.syncobj_create - sync0[0] == nlong + 1 &&
		  seen.syncobj_destroy - sync0[1] == nlong + 1,
		  "chain: the execution's %u syncobjs are destroyed after the wait (created %u, destroyed %u)",
		  nlong + 1, seen.syncobj_create - sync0[0],
		  seen.syncobj_destroy - sync0[1]);
	tap_check(ok && !ret && chain.probed && chain.waited &&
		  chain.status == DRM_VPUX_STATUS_DONE &&
		  !memcmp(vpux_buffer_map(lout), vpux_buffer_map(lin),
			  CHAIN_LONG) &&
		  !memcmp(vpux_buffer_map(cout), vpux_buffer_map(cin),
			  CHAIN_COPY),
		  "chain: %u long runs, then a 4 KiB copy on buffers of its own: all done, outputs right (%s)",
		  nlong, ok && !ret ? "ok" : vpux_last_error());
	tap_check(chain.probed && chain.waited && chain.prev_ended &&
		  chain.prev_status == DRM_VPUX_STATUS_DONE,
		  "chain: when the copy ended, the long run before it had ended too (the copy took %.1f ms from its SUBMIT, the long runs ~%.0f ms; %u in-syncobj)",
		  chain.wait_ms, one * nlong, chain.in_syncobjs);
	vpux_runner_destroy(r);
	r = NULL;

	/* failure: the copy after a run that fails does not run */
	memset(vpux_buffer_map(cout), 0xa5, CHAIN_COPY);
	ok = chain_runner(kd, dir, "fail.json", 1, lin, lout, cin, cout, &r);
	memset(&chain, 0, sizeof(chain));
	chain.at = 2;
	chain.corrupt = 1;	/* the engine core refuses the long run */
	ret = ok ? vpux_runner_execute(r) : -100;
	ret = ret ? ret : vpux_runner_wait(r, -1);
	chain.at = 0;
	tap_check(ok && ret == VPUX_E_DEVICE &&
		  strstr(vpux_last_error(), "runs[0]") &&
		  strstr(vpux_last_error(), "refused"),
		  "chain: a refused first run fails the execution: %s",
		  vpux_last_error());
	tap_check(chain.probed && chain.waited &&
		  chain.status == DRM_VPUX_STATUS_ABORTED &&
		  chain.sys_error == -ECANCELED,
		  "chain: the copy after it does not run: status %u (ABORTED %u), sys_error %d (-ECANCELED %d)",
		  chain.status, DRM_VPUX_STATUS_ABORTED, chain.sys_error,
		  -ECANCELED);
	tap_check(all_bytes(vpux_buffer_map(cout), CHAIN_COPY, 0xa5),
		  "chain: and its output is untouched");
out:
	memset(&chain, 0, sizeof(chain));
	vpux_runner_destroy(r);
	vpux_buffer_free(lin);
	vpux_buffer_free(lout);
	vpux_buffer_free(cin);
	vpux_buffer_free(cout);
	vpux_device_close(kd);
	if (made) {
		static const char *const files[] = {
			"chain_long.vpux", "copy_1op.vpux", "order.json",
			"fail.json",
		};
		unsigned int i;

		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			unlink(path);
		}
		rmdir(dir);
	}
}

int main(int argc, char **argv)
{
	const char *node = argc > 1 ? argv[1] : "/dev/accel/accel0";
	struct vpux_device *kd = NULL, *ip = NULL, *x = NULL;
	struct vpux_request_status st;
	struct vpux_device_info info;
	void *ko[MAXIO] = { 0 }, *io[MAXIO] = { 0 }, *ro[MAXIO] = { 0 };
	static struct opcyc ock, oci;
	unsigned int e, seed;
	double lk, li;
	int ret;

	/* negative cases need no driver */
	tap_check(vpux_device_open("/dev/accel/accel63", &x) == VPUX_E_NODEV &&
		  !x && strstr(vpux_last_error(), "accel63"),
		  "absent node refused with VPUX_E_NODEV: %s", vpux_last_error());
	tap_check(vpux_device_open("/dev/null", &x) == VPUX_E_NODEV && !x &&
		  strstr(vpux_last_error(), "not a DRM device"),
		  "a node that is not vpux_accel refused: %s", vpux_last_error());
	tap_check(vpux_device_open("/dev/accel", &x) == VPUX_E_NODEV && !x,
		  "a directory refused: %s", vpux_last_error());

	if (access(node, F_OK)) {
		tap_skip("no vpux_accel node (run in the VM rig)");
		return tap_finish();
	}
	ret = vpux_device_open(node, &kd);
	if (!tap_check(!ret && kd, "%s opened through the ioctl backend (%s)",
		       node, ret ? vpux_last_error() : "ok"))
		return tap_finish();
	ret = vpux_device_open("auto", &x);
	tap_check(!ret && x && !vpux_device_query(x, &info) &&
		  !strcmp(info.backend, "ioctl"),
		  "\"auto\" finds a vpux_accel node (%s)",
		  ret ? vpux_last_error() : "ok");
	vpux_device_close(x);
	memset(&info, 0, sizeof(info));
	ret = vpux_device_query(kd, &info);
	tap_check(!ret && !strcmp(info.backend, "ioctl") &&
		  info.target == VPUX_TARGET_VPUX1 && info.engines[0] &&
		  info.engines[1] && info.engines[2] &&
		  info.caps == (VPUX_NET_CAP_DMA | VPUX_NET_CAP_DPU |
				VPUX_NET_CAP_SHAVE),
		  "query: backend ioctl, engines %u/%u/%u, caps 0x%llx",
		  info.engines[0], info.engines[1], info.engines[2],
		  (unsigned long long)info.caps);
	/* the VM is small: the model's arena need not be the default 1 GiB */
	setenv("VPUX_INPROC_MEM_MB", "128", 0);
	ret = vpux_device_open("inproc", &ip);
	if (!tap_check(!ret, "inproc device opened (%s)",
		       ret ? vpux_last_error() : "ok"))
		return tap_finish();
	{
		struct vpux_network *net = NULL;

		/* the in-process core takes more ops than the kernel */
		ret = vpux_network_load(ip, many_ops_vpux, sizeof(many_ops_vpux),
					&net);
		tap_check(!ret, "inproc: the network of 1025 ops loads (%s)",
			  ret ? vpux_last_error() : "ok");
		vpux_network_unload(net);
	}

	for (e = 0; e < sizeof(examples) / sizeof(examples[0]); e++) {
		const struct iob_example *ex = &examples[e];

		for (seed = 1; seed <= 3; seed++) {
			memset(&st, 0, sizeof(st));
			ret = run_on(kd, ex, seed * 100, ko, &st, 1, NULL, &ock);
			tap_check(!ret && st.state == VPUX_REQ_DONE &&
				  !st.error && st.device_cycles &&
				  st.ops_done == st.ops_total && st.ops_total,
				  "%s seed %u: ran on the kernel (%s; %llu device cycles, %u ops)",
				  ex->name, seed, ret ? vpux_last_error() : "done",
				  (unsigned long long)st.device_cycles,
				  st.ops_done);
			ret = run_on(ip, ex, seed * 100, io, &st, 1, NULL, &oci);
			tap_check(!ret && run_ref(ip, ex, seed * 100, ro) == 0,
				  "%s seed %u: ran in-process and on the reference",
				  ex->name, seed);
			tap_check(same(ip, ex, ko, ro),
				  "%s seed %u: kernel output bit-exact vs the CPU reference",
				  ex->name, seed);
			tap_check(same(ip, ex, ko, io),
				  "%s seed %u: kernel output bit-exact vs the in-process backend",
				  ex->name, seed);
			tap_check(!ock.err && !oci.err && ock.n && ock.n == oci.n &&
				  !memcmp(ock.c, oci.c, ock.n * sizeof(ock.c[0])) &&
				  ock.c[0] > 0,
				  "%s seed %u: the kernel's per-op cycles (job profile) equal the in-process ones (%u ops, op 0: %u)",
				  ex->name, seed, ock.n, ock.c[0]);
			/* the same schedule: engines, starts and ends */
			tap_check(!ock.terr && !oci.terr && ock.n == oci.n &&
				  !memcmp(ock.t, oci.t, ock.n * sizeof(ock.t[0])) &&
				  ock.t[0].done && ock.t[ock.n - 1].end > 0,
				  "%s seed %u: the kernel's op times (engine, start, end) equal the in-process ones (last op on engine %u, %llu..%llu)",
				  ex->name, seed, ock.t[ock.n - 1].engine,
				  (unsigned long long)ock.t[ock.n - 1].start,
				  (unsigned long long)ock.t[ock.n - 1].end);
			free_outs(ko);
			free_outs(io);
			free_outs(ro);
		}
	}

	/* per-op cycles and a short wait on a real request */
	{
		struct vpux_network *net = NULL;
		struct vpux_request *req = NULL;
		uint32_t c = 0;
		int ok;

		ok = !vpux_network_load(kd, examples[0].data, examples[0].size,
					&net) && !vpux_request_create(net, &req);
		tap_check(ok && vpux_request_submit(req) == VPUX_E_UNBOUND,
			  "submit with nothing bound: VPUX_E_UNBOUND");
		tap_check(ok && vpux_request_op_cycles(req, 0, 0, &c) ==
			  VPUX_E_INVAL, "op cycles before any submit: VPUX_E_INVAL");
		vpux_request_destroy(req);
		vpux_network_unload(net);
	}
	{
		void *o[MAXIO] = { 0 };
		struct vpux_network *net = NULL;
		struct vpux_request *req = NULL;
		struct vpux_buffer *b[2 * MAXIO] = { 0 };
		struct vpux_tensor_desc d;
		unsigned int i, n = 0;
		uint32_t c = 0;
		int ok;

		ok = !vpux_network_load(kd, examples[0].data, examples[0].size,
					&net) && !vpux_request_create(net, &req);
		for (i = 0; ok && i < vpux_network_num_inputs(net); i++) {
			vpux_network_input(net, i, &d);
			ok = !vpux_buffer_alloc(kd, d.size, &b[n]) &&
			     !vpux_request_bind_input(req, i, b[n], 0);
			n++;
		}
		for (i = 0; ok && i < vpux_network_num_outputs(net); i++) {
			vpux_network_output(net, i, &d);
			ok = !vpux_buffer_alloc(kd, d.size, &b[n]) &&
			     !vpux_request_bind_output(req, i, b[n], 0);
			n++;
		}
		ok = ok && !vpux_request_submit(req);
		ret = ok ? vpux_request_wait(req, 0) : -100;
		tap_check(ret == 0 || ret == VPUX_E_TIMEOUT,
			  "wait(0) polls: %s", ret ? vpux_strerror(ret) : "done");
		tap_check(ok && !vpux_request_wait(req, -1) &&
			  !vpux_request_status(req, &st) &&
			  st.state == VPUX_REQ_DONE && st.time_us >= 0,
			  "wait(-1) waits for completion (%lld us)",
			  (long long)st.time_us);
		ret = ok ? vpux_request_op_cycles(req, 0, 0, &c) : -100;
		tap_check(!ret && c > 0, "per-op cycles of a done request: %u (%s)",
			  c, ret ? vpux_last_error() : "ok");
		tap_check(ok && !vpux_request_submit(req) &&
			  !vpux_request_wait(req, 5000),
			  "a request resubmitted after completion runs again");

		/*
		 * Another request of the file runs more jobs than the kernel
		 * keeps numbers of: the first one's result is still there
		 * (WAIT on its scratch BO), and it can be submitted again.
		 */
		{
			struct vpux_request *req2 = NULL;
			struct vpux_request_status st1, st2;
			int k, ok2;

			ok2 = ok && !vpux_request_status(req, &st1) &&
			      !vpux_request_create(net, &req2);
			for (i = 0; ok2 && i < n; i++)
				ok2 = i < vpux_network_num_inputs(net) ?
				      !vpux_request_bind_input(req2, i, b[i], 0) :
				      !vpux_request_bind_output(req2, i - vpux_network_num_inputs(net),
								b[i], 0);
			for (k = 0; ok2 && k < 300; k++)
				ok2 = !vpux_request_submit(req2) &&
				      !vpux_request_wait(req2, 5000);
			tap_check(ok2, "300 jobs of a second request (%s)",
				  ok2 ? "done" : vpux_last_error());
			memset(&st2, 0, sizeof(st2));
			ok2 = ok2 && !vpux_request_status(req, &st2);
			tap_check(ok2 && st2.state == VPUX_REQ_DONE &&
				  st2.device_cycles == st1.device_cycles &&
				  st2.ops_done == st1.ops_done,
				  "the first request's result outlives the kernel's 256 job numbers (%llu cycles, %llu before)",
				  (unsigned long long)st2.device_cycles,
				  (unsigned long long)st1.device_cycles);
			tap_check(ok2 && !vpux_request_submit(req) &&
				  !vpux_request_wait(req, 5000),
				  "and it can be submitted again");
			vpux_request_destroy(req2);
		}
		vpux_request_destroy(req);
		for (i = 0; i < n; i++)
			vpux_buffer_free(b[i]);
		vpux_network_unload(net);
		(void)o;
	}

	/* latency: one request resubmitted, median host time of submit+wait */
	for (e = 0; e < sizeof(examples) / sizeof(examples[0]); e++) {
		lk = li = 0;
		ret = run_on(kd, &examples[e], 7, ko, &st, 21, &lk, NULL) ||
		      run_on(ip, &examples[e], 7, io, &st, 21, &li, NULL);
		tap_check(!ret && same(ip, &examples[e], ko, io),
			  "%s: 21 runs on each backend, last outputs identical",
			  examples[e].name);
		tap_diag("latency %s: ioctl %.1f us, inproc %.1f us (median of 21 submit+wait)",
			 examples[e].name, lk, li);
		free_outs(ko);
		free_outs(io);
	}

	test_plans(node, kd, ip);
	test_chain(node);
	test_uapi2(node);
	test_other_major(node);

	vpux_device_close(ip);
	vpux_device_close(kd);
	return tap_finish();
}
