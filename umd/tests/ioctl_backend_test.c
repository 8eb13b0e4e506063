// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libvpux's ioctl backend against the real vpux_accel.ko (run in the VM
 * rig: tools/vm/vm-run.sh). The examples are compiled in (the VM has no
 * access to the build tree): each one runs through /dev/accel/accel0,
 * through the in-process backend and through the CPU reference with the
 * same inputs, and every output must be identical bit for bit. Then the
 * error paths: an absent node, a node that is not vpux_accel, per-op
 * cycles (unsupported), a short wait, latency figures of both backends
 * as TAP comments, and libvpux against an older and a newer kernel uapi.
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
#include <xf86drm.h>

#include "drm/vpux_accel.h"
#include "vpux.h"
#include "vpux_tap.h"
#include "iob_examples.h"	/* generated: struct iob_example examples[] */

/*
 * An older (or newer) kernel, seen through libdrm: this program's
 * drmIoctl() and drmGetVersion() take the place of libdrm's for
 * libvpux.so (the executable comes first in symbol lookup) and pass
 * through to them. With fake_major/fake_minor set, the version query
 * reports that uapi, and the kernel refuses what that minor lacks:
 * the parameters from BO_MEMORY_LIMIT on (1.3), WAIT on a BO (1.3) and
 * SUBMIT flags (the job profile, 1.4).
 */
static int fake_major = -1, fake_minor = -1;

int drmIoctl(int fd, unsigned long request, void *arg)
{
	static int (*real)(int, unsigned long, void *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "drmIoctl");
	if (fake_minor >= 0 && fake_minor < 3 &&
	    ((request == DRM_IOCTL_VPUX_GET_PARAM &&
	      ((struct drm_vpux_get_param *)arg)->param >=
	      DRM_VPUX_PARAM_BO_MEMORY_LIMIT) ||
	     (request == DRM_IOCTL_VPUX_WAIT &&
	      (((struct drm_vpux_wait *)arg)->flags & DRM_VPUX_WAIT_BO)) ||
	     (request == DRM_IOCTL_VPUX_SUBMIT &&
	      ((struct drm_vpux_submit *)arg)->flags))) {
		errno = EINVAL;
		return -1;
	}
	return real(fd, request, arg);
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
	if (v && fake_minor >= 0)
		v->version_minor = fake_minor;
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
 * libvpux on a uapi 1.2 kernel: it opens, runs every example bit-exact,
 * and a request older than the kernel's 256 job numbers gets a clear
 * error instead of the WAIT on its BO that 1.2 lacks. A uapi 2.x kernel
 * is refused at open.
 */
static void test_old_kernel(const char *node)
{
	struct vpux_buffer *b[2 * MAXIO] = { 0 };
	struct vpux_request *req = NULL, *req2 = NULL;
	struct vpux_network *net = NULL;
	struct vpux_device *kd = NULL, *x = NULL;
	struct vpux_request_status st;
	void *ko[MAXIO] = { 0 }, *ro[MAXIO] = { 0 };
	struct vpux_tensor_desc d;
	struct opcyc oc;
	unsigned int i, n = 0, nin, e;
	int ok, k, ret;

	fake_major = 2;
	ret = vpux_device_open(node, &x);
	tap_check(ret == VPUX_E_NODEV && !x &&
		  strstr(vpux_last_error(), "uapi 2."),
		  "a uapi 2.x kernel refused: %s", vpux_last_error());
	fake_major = -1;
	fake_minor = 2;
	ret = vpux_device_open(node, &kd);
	if (!tap_check(!ret && kd, "uapi 1.2 kernel: opened (%s)",
		       ret ? vpux_last_error() : "ok"))
		goto out;
	for (e = 0; e < sizeof(examples) / sizeof(examples[0]); e++) {
		ret = run_on(kd, &examples[e], 11, ko, &st, 1, NULL, &oc);
		tap_check(!ret && run_ref(kd, &examples[e], 11, ro) == 0 &&
			  same(kd, &examples[e], ko, ro),
			  "uapi 1.2 kernel: %s bit-exact vs the CPU reference (%s)",
			  examples[e].name, ret ? vpux_last_error() : "ran");
		if (!e)
			tap_check(!ret && oc.err == VPUX_E_UNSUPPORTED,
				  "uapi 1.2 kernel: per-op cycles VPUX_E_UNSUPPORTED (no job profiles)");
		free_outs(ko);
		free_outs(ro);
	}

	ok = !vpux_network_load(kd, examples[0].data, examples[0].size, &net) &&
	     !vpux_request_create(net, &req) && !vpux_request_create(net, &req2);
	nin = ok ? vpux_network_num_inputs(net) : 0;
	for (i = 0; ok && i < nin + vpux_network_num_outputs(net); i++, n++) {
		if (i < nin)
			ok = !vpux_network_input(net, i, &d) &&
			     !vpux_buffer_alloc(kd, d.size, &b[n]) &&
			     !vpux_request_bind_input(req, i, b[n], 0) &&
			     !vpux_request_bind_input(req2, i, b[n], 0);
		else
			ok = !vpux_network_output(net, i - nin, &d) &&
			     !vpux_buffer_alloc(kd, d.size, &b[n]) &&
			     !vpux_request_bind_output(req, i - nin, b[n], 0) &&
			     !vpux_request_bind_output(req2, i - nin, b[n], 0);
	}
	ok = ok && !vpux_request_submit(req) && !vpux_request_wait(req, 5000);
	for (k = 0; ok && k < 300; k++)
		ok = !vpux_request_submit(req2) && !vpux_request_wait(req2, 5000);
	ret = ok ? vpux_request_status(req, &st) : -100;
	tap_check(ret == VPUX_E_STATE && strstr(vpux_last_error(), "uapi 1.2"),
		  "uapi 1.2 kernel: a request older than 256 jobs: VPUX_E_STATE (%s)",
		  vpux_last_error());
	vpux_request_destroy(req2);
	vpux_request_destroy(req);
	for (i = 0; i < n; i++)
		vpux_buffer_free(b[i]);
	vpux_network_unload(net);
	vpux_device_close(kd);
out:
	fake_minor = -1;
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

	test_old_kernel(node);

	vpux_device_close(ip);
	vpux_device_close(kd);
	return tap_finish();
}
