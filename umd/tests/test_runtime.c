// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libvpux end to end on the in-process backend: devices, loading the
 * examples, tensor descriptors, whole and sub-buffer bindings, submit,
 * wait, status, per-op cycles, the CPU reference (bit for bit), request
 * state errors, and many requests on one network from several threads.
 */
#include <pthread.h>
#include <string.h>

#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

static struct vpux_device *dev;

static void gen(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;

	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*b++ = (unsigned char)(seed >> 16);
	}
}

static struct vpux_network *load_example(const char *name)
{
	struct vpux_network *net = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/examples/%s.vpux", BUILDDIR, name);
	if (vpux_network_load_file(dev, path, &net))
		tap_diag("%s: %s", path, vpux_last_error());
	return net;
}

/* Run @net once with inputs from @seed, every input and output bound at
 * @off of a bigger buffer; compare every output with the reference. */
static int run_check(struct vpux_network *net, unsigned int seed, size_t off,
		     struct vpux_request_status *st, struct vpux_request **keep)
{
	unsigned int nin = vpux_network_num_inputs(net), i;
	unsigned int nout = vpux_network_num_outputs(net);
	struct vpux_buffer *ib[8], *ob[8];
	void *in[8], *ref[8];
	struct vpux_tensor_desc d;
	struct vpux_request *req;
	int bad = 0;

	if (nin > 8 || nout > 8 || vpux_request_create(net, &req))
		return -1;
	for (i = 0; i < nin; i++) {
		vpux_network_input(net, i, &d);
		vpux_buffer_alloc(dev, d.size + off, &ib[i]);
		in[i] = (char *)vpux_buffer_map(ib[i]) + off;
		gen(in[i], d.size, seed + i);
		bad |= vpux_request_bind_input(req, i, ib[i], off);
	}
	for (i = 0; i < nout; i++) {
		vpux_network_output(net, i, &d);
		vpux_buffer_alloc(dev, d.size + off, &ob[i]);
		bad |= vpux_request_bind_output(req, i, ob[i], off);
		ref[i] = calloc(1, d.size);
	}
	bad |= vpux_request_submit(req);
	bad |= vpux_request_wait(req, 10000);
	bad |= vpux_request_status(req, st);
	bad |= vpux_network_run_reference(net, (const void *const *)in, ref);
	for (i = 0; i < nout; i++) {
		vpux_network_output(net, i, &d);
		bad |= memcmp((char *)vpux_buffer_map(ob[i]) + off, ref[i],
			      d.size) != 0;
		free(ref[i]);
	}
	if (keep)
		*keep = req;
	else
		vpux_request_destroy(req);
	for (i = 0; i < nin; i++)
		vpux_buffer_free(ib[i]);
	for (i = 0; i < nout; i++)
		vpux_buffer_free(ob[i]);
	return bad;
}

static void test_device(void)
{
	struct vpux_device_info info;
	struct vpux_device *d2 = NULL;

	tap_check(vpux_device_open("/dev/accel/accel63", &d2) == VPUX_E_NODEV &&
		  !d2 && strstr(vpux_last_error(), "accel63"),
		  "absent device node: VPUX_E_NODEV naming it (%s)",
		  vpux_last_error());
	tap_check(vpux_device_open("/dev/null", &d2) == VPUX_E_NODEV && !d2 &&
		  strstr(vpux_last_error(), "not a DRM device"),
		  "a node that is not vpux_accel: VPUX_E_NODEV (%s)",
		  vpux_last_error());
	tap_check(vpux_device_open("bogus", &d2) == VPUX_E_NODEV,
		  "unknown device name refused");
	tap_check(vpux_device_open("inproc", &dev) == 0 && dev,
		  "inproc device opened");
	memset(&info, 0, sizeof(info));
	if (dev)
		vpux_device_query(dev, &info);
	tap_check(!strcmp(info.backend, "inproc") &&
		  info.target == VPUX_TARGET_VPUX1 && info.engines[1] >= 1,
		  "query: inproc, target %u, %u DMA %u DPU %u SHAVE engines",
		  info.target, info.engines[0], info.engines[1],
		  info.engines[2]);
}

static void test_examples(void)
{
	static const char *const names[] = { "tiny_cnn", "overlap",
					     "overlap_layer", "all_ops" };
	struct vpux_request_status st;
	struct vpux_tensor_desc d;
	struct vpux_request *req;
	uint64_t cyc[3] = { 0, 0, 0 };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct vpux_network *net = load_example(names[i]);
		uint32_t c = 0;
		int r, rc;

		if (!tap_check(net != NULL, "%s: loaded", names[i]))
			continue;
		r = run_check(net, 5 + i, 0, &st, &req);
		tap_check(r == 0 &&
			  st.state == VPUX_REQ_DONE && st.ops_done == st.ops_total,
			  "%s: device output == CPU reference, bit for bit (%u ops, %llu cycles)",
			  names[i], st.ops_done,
			  (unsigned long long)st.device_cycles);
		rc = vpux_request_op_cycles(req, 1, 0, &c);
		tap_check(!rc && c > 0 &&
			  vpux_request_op_cycles(req, 1, 999, &c) == VPUX_E_INVAL,
			  "%s: per-op cycles (DPU op 0: %u)", names[i], c);
		if (i == 0) {
			struct vpux_op_time t[6], t2[6];
			struct vpux_op_info oi;

			/* tiny_cnn: dma0 -> dpu0..3 -> shave0, one engine each */
			r = vpux_request_op_times(req, t, 6);
			tap_check(!r && t[0].done && t[0].start == 0 &&
				  t[1].start == t[0].end && t[4].end == t[5].start &&
				  t[5].end == st.op_cycles && t[1].engine == 2 &&
				  t[5].engine == 4 &&
				  vpux_request_op_times(req, t2, 6) == 0 &&
				  !memcmp(t, t2, sizeof(t)) &&
				  vpux_request_op_times(req, t2, 5) == VPUX_E_INVAL,
				  "%s: op times: a chain back to back, DPU on engine 2, SHAVE on 4, ends at the ops' sum %llu",
				  names[i], (unsigned long long)t[5].end);
			tap_check(!vpux_network_op_info(net, 1, 0, &oi) &&
				  !strcmp(oi.type, "conv") &&
				  !strcmp(oi.output, "c1") &&
				  oi.macs == 16ull * 16 * 16 * 3 * 3 * 8 &&
				  oi.num_waits == 1 && oi.num_updates == 1 &&
				  !vpux_network_op_info(net, 0, 0, &oi) &&
				  !strcmp(oi.type, "copy") && !strcmp(oi.output, "x0") &&
				  oi.bytes == 2 * 2048 && !oi.macs &&
				  !vpux_network_op_info(net, 2, 0, &oi) &&
				  !strcmp(oi.type, "softmax") &&
				  vpux_network_op_info(net, 2, 1, &oi) == VPUX_E_INVAL,
				  "%s: op info: type, output tensor, bytes, MACs, barriers",
				  names[i]);
		}
		vpux_request_destroy(req);
		if (i)
			cyc[i - 1] = st.device_cycles;
		if (i == 0) {
			tap_check(run_check(net, 9, 100, &st, NULL) == 0,
				  "%s: inputs and outputs bound to sub-buffers at offset 100",
				  names[i]);
			tap_check(!vpux_network_input(net, 0, &d) &&
				  !strcmp(d.name, "image") && d.rank == 4 &&
				  d.order.code == 0x1342 && d.shape.d[1] == 8 &&
				  d.size == 2048 && d.strides.bits[1] == 8 &&
				  vpux_network_input(net, 1, &d) == VPUX_E_INVAL,
				  "%s: input descriptor (name, shape, order, strides, size)",
				  names[i]);
			struct vpux_network_info ni;

			tap_check(!vpux_network_query(net, &ni) &&
				  !strcmp(ni.name, "tiny_cnn") &&
				  ni.num_ops[0] == 1 && ni.num_ops[1] == 4 &&
				  ni.num_ops[2] == 1 && ni.num_barriers == 5 &&
				  ni.request_bytes >= 11274 &&
				  ni.weights_bytes >= 11648,
				  "%s: network query (ops per kind, barriers, memory per request)",
				  names[i]);
			tap_check(!vpux_network_output(net, 0, &d) &&
				  d.zero_point == -128 && d.size == 10,
				  "%s: output descriptor with quantisation",
				  names[i]);
		}
		vpux_network_unload(net);
	}
	/*
	 * The model's virtual clock starts an op at the time of the last
	 * published completion, so an engine core thread descheduled by a
	 * loaded host starts an op late and loses the overlap in one run.
	 * The schedule itself is checked exactly on the fake engines
	 * (firmware/tests/sched.c); here the best of a few runs must show it.
	 */
	for (i = 0; i < 32 && cyc[0] && cyc[1] && cyc[0] >= cyc[1]; i++) {
		struct vpux_network *net = load_example("overlap");

		if (net && run_check(net, 6, 0, &st, NULL) == 0 &&
		    st.device_cycles < cyc[0])
			cyc[0] = st.device_cycles;
		vpux_network_unload(net);
	}
	tap_check(cyc[0] && cyc[0] < cyc[1],
		  "per-op barriers overlap DPU and SHAVE: %llu < %llu device cycles (layer barrier, %u reruns)",
		  (unsigned long long)cyc[0], (unsigned long long)cyc[1], i);
}

static void test_request_errors(void)
{
	struct vpux_network *net = load_example("tiny_cnn");
	struct vpux_buffer *small, *big;
	struct vpux_request *req;
	struct vpux_request_status st;

	if (!net || vpux_request_create(net, &req))
		return;
	vpux_buffer_alloc(dev, 16, &small);
	vpux_buffer_alloc(dev, 4096, &big);
	tap_check(vpux_request_wait(req, 0) == VPUX_E_STATE &&
		  !vpux_request_status(req, &st) && st.state == VPUX_REQ_IDLE,
		  "wait before submit: VPUX_E_STATE, status idle");
	tap_check(vpux_request_submit(req) == VPUX_E_UNBOUND &&
		  strstr(vpux_last_error(), "input 0"),
		  "submit with nothing bound: VPUX_E_UNBOUND naming input 0");
	tap_check(vpux_request_bind_input(req, 0, small, 0) == VPUX_E_INVAL,
		  "binding a too small buffer refused");
	tap_check(vpux_request_bind_input(req, 0, big, 2049) == VPUX_E_INVAL,
		  "binding at an offset running past the buffer refused");
	tap_check(vpux_request_bind_output(req, 3, big, 0) == VPUX_E_INVAL,
		  "binding a missing output refused");
	vpux_request_bind_input(req, 0, big, 0);
	tap_check(vpux_request_submit(req) == VPUX_E_UNBOUND &&
		  strstr(vpux_last_error(), "output 0"),
		  "submit without the output: VPUX_E_UNBOUND naming output 0");
	vpux_request_bind_output(req, 0, big, 2048);
	tap_check(!vpux_request_submit(req) && !vpux_request_wait(req, -1) &&
		  !vpux_request_submit(req) && !vpux_request_wait(req, 5000),
		  "a request is submitted again after it completed");
	{
		int r0, r1;

		vpux_request_submit(req);
		r0 = vpux_request_wait(req, 0);
		r1 = vpux_request_wait(req, -1);
		tap_check((r0 == VPUX_E_TIMEOUT || r0 == 0) && !r1,
			  "wait(0) right after submit: %s, then wait(-1) completes",
			  r0 ? "timed out" : "already done");
	}
	{
		unsigned int p, ran = 0;

		/* in-process, every priority runs (no CAP_SYS_NICE rule) */
		for (p = VPUX_PRIORITY_LOW; p <= VPUX_PRIORITY_REALTIME; p++)
			ran += !vpux_request_set_priority(req, p) &&
			       !vpux_request_submit(req) &&
			       !vpux_request_wait(req, 5000);
		tap_check(ran == 4, "a request runs at each of the 4 priorities (%u did)",
			  ran);
		tap_check(vpux_request_set_priority(req, 4) == VPUX_E_INVAL &&
			  strstr(vpux_last_error(), "priority 4") &&
			  vpux_request_set_priority(NULL, 1) == VPUX_E_INVAL,
			  "priority 4 and a NULL request refused: %s",
			  vpux_last_error());
		tap_check(!strcmp(vpux_strerror(VPUX_E_PERM), "not permitted"),
			  "VPUX_E_PERM is \"%s\"", vpux_strerror(VPUX_E_PERM));
	}
	vpux_request_destroy(req);
	vpux_buffer_free(small);
	vpux_buffer_free(big);
	vpux_network_unload(net);
	tap_check(vpux_network_load(dev, "junk", 4, &net) == VPUX_E_FORMAT,
		  "loading junk: VPUX_E_FORMAT (%s)", vpux_last_error());
	tap_check(vpux_network_load_file(dev, "/nonexistent", &net) ==
		  VPUX_E_IO, "loading a missing file: VPUX_E_IO");
}

/*
 * More requests in flight than the engine core has task slots (8): the
 * in-process backend queues the rest, and every one is bit-exact.
 */
#define MANY 20

static void test_many_in_flight(void)
{
	struct vpux_network *net = load_example("tiny_cnn");
	struct vpux_buffer *ib[MANY] = { 0 }, *ob[MANY] = { 0 };
	struct vpux_request *req[MANY] = { 0 };
	struct vpux_tensor_desc di, dout;
	unsigned int i, submitted = 0, right = 0;
	void *ref;

	if (!net || vpux_network_num_inputs(net) != 1 ||
	    vpux_network_num_outputs(net) != 1) {
		tap_check(0, "%u requests in flight: tiny_cnn loaded", MANY);
		vpux_network_unload(net);
		return;
	}
	vpux_network_input(net, 0, &di);
	vpux_network_output(net, 0, &dout);
	ref = calloc(1, dout.size);
	for (i = 0; i < MANY; i++) {
		if (vpux_request_create(net, &req[i]) ||
		    vpux_buffer_alloc(dev, di.size, &ib[i]) ||
		    vpux_buffer_alloc(dev, dout.size, &ob[i]))
			break;
		gen(vpux_buffer_map(ib[i]), di.size, 500 + i);
		vpux_request_bind_input(req[i], 0, ib[i], 0);
		vpux_request_bind_output(req[i], 0, ob[i], 0);
		if (vpux_request_submit(req[i])) {
			tap_diag("request %u: %s", i, vpux_last_error());
			break;
		}
		submitted++;
	}
	for (i = 0; i < submitted; i++) {
		const void *in = vpux_buffer_map(ib[i]);

		if (!vpux_request_wait(req[i], 10000) && ref &&
		    !vpux_network_run_reference(net, &in, (void *const *)&ref) &&
		    !memcmp(vpux_buffer_map(ob[i]), ref, dout.size))
			right++;
	}
	tap_check(submitted == MANY && right == MANY,
		  "%u requests submitted before the first wait (8 task slots): %u accepted, %u bit-exact",
		  MANY, submitted, right);
	for (i = 0; i < MANY; i++) {
		vpux_request_destroy(req[i]);
		vpux_buffer_free(ib[i]);
		vpux_buffer_free(ob[i]);
	}
	free(ref);
	vpux_network_unload(net);
}

struct worker {
	struct vpux_network *net;
	unsigned int id;
	int bad;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct vpux_request_status st;
	unsigned int k;

	for (k = 0; k < 10; k++)
		w->bad += run_check(w->net, 100 * w->id + k, 64 * w->id, &st,
				    NULL) != 0;
	/* loading and unloading concurrently with the others' requests */
	for (k = 0; k < 3; k++) {
		struct vpux_network *own = load_example("overlap");

		w->bad += !own || run_check(own, k, 0, &st, NULL) != 0;
		vpux_network_unload(own);
	}
	return NULL;
}

static void test_threads(void)
{
	struct vpux_network *net = load_example("tiny_cnn");
	struct worker w[6];
	pthread_t th[6];
	unsigned int i;
	int bad = 0;

	if (!net)
		return;
	for (i = 0; i < 6; i++) {
		w[i] = (struct worker){ net, i, 0 };
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (i = 0; i < 6; i++) {
		pthread_join(th[i], NULL);
		bad += w[i].bad;
	}
	tap_check(!bad,
		  "6 threads x 10 requests on one loaded network (+ 3 loads/runs/unloads of their own), all bit-exact (%d bad)",
		  bad);
	vpux_network_unload(net);
}

int main(void)
{
	test_device();
	if (!dev)
		return tap_finish();
	test_examples();
	test_request_errors();
	test_many_in_flight();
	test_threads();
	vpux_device_close(dev);
	return tap_finish();
}
