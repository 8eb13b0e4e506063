// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * API 1.8 in process: the version query, the device list and open by
 * index, device properties (a structure that carries its size), buffers
 * from a heap with flags, CPU sync, dma-bufs (refused in process), a
 * pollable fd per request, several requests in one submit, and wait's
 * errors. The ioctl backend's side runs in the VM (api18_vm_test.c).
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

/* a job long enough to be seen running: 64 chained DMA ops of 1 MiB */
static char *long_text(void)
{
	static char buf[8192];
	struct vt_text t = { buf, sizeof(buf) };
	int i;

	vt_out(&t, "network long\ninput x i8 1048576\noutput y i8 1048576\n"
		   "tensor s i8 1048576\ndma src=x dst=s\n");
	for (i = 1; i < 32; i++)
		vt_out(&t, "dma src=s dst=y\ndma src=y dst=s\n");
	vt_out(&t, "dma src=s dst=y\n");
	return buf;
}

struct rq {
	struct vpux_request *req;
	struct vpux_buffer *in, *out;
};

static int rq_make(struct vpux_device *dev, struct vpux_network *net,
		   struct rq *q, unsigned char seed)
{
	struct vpux_tensor_desc di, dout;
	int ret;

	memset(q, 0, sizeof(*q));
	ret = vpux_network_input(net, 0, &di) ||
	      vpux_network_output(net, 0, &dout) ||
	      vpux_request_create(net, &q->req) ||
	      vpux_buffer_alloc(dev, di.size, &q->in) ||
	      vpux_buffer_alloc(dev, dout.size, &q->out) ||
	      vpux_request_bind_input(q->req, 0, q->in, 0) ||
	      vpux_request_bind_output(q->req, 0, q->out, 0);
	if (!ret)
		memset(vpux_buffer_map(q->in), seed, di.size);
	return ret;
}

static void rq_free(struct rq *q)
{
	vpux_request_destroy(q->req);
	vpux_buffer_free(q->in);
	vpux_buffer_free(q->out);
}

/* the copy ran: the output holds the input */
static int copied(const struct rq *q)
{
	return !memcmp(vpux_buffer_map(q->in), vpux_buffer_map(q->out),
		       vpux_buffer_size(q->out));
}

static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

static void test_devices(void)
{
	struct vpux_device *d = NULL;
	unsigned int n = 0;
	char name[64], tiny[4];

	tap_check(vpux_version() >= VPUX_MAKE_VERSION(1, 8) &&
		  vpux_version() == VPUX_API_VERSION,
		  "vpux_version() is the header's, 1.8 or later (0x%x)",
		  vpux_version());
	tap_check(vpux_device_count(NULL) == VPUX_E_INVAL,
		  "device count: NULL refused: %s", vpux_last_error());
	tap_check(!vpux_device_count(&n) && n >= 1,
		  "device count: %u (the nodes, then the in-process model)", n);
	tap_check(!vpux_device_name(n - 1, name, sizeof(name)) &&
		  !strcmp(name, "inproc"),
		  "device %u is \"%s\"", n - 1, name);
	tap_check(vpux_device_name(n, name, sizeof(name)) == VPUX_E_NODEV &&
		  strstr(vpux_last_error(), "there are"),
		  "device name past the last: VPUX_E_NODEV: %s",
		  vpux_last_error());
	tap_check(vpux_device_name(n - 1, tiny, sizeof(tiny)) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "needs 7 bytes"),
		  "device name into 4 bytes: VPUX_E_INVAL: %s",
		  vpux_last_error());
	tap_check(vpux_device_name(0, NULL, 8) == VPUX_E_INVAL,
		  "device name: NULL buffer refused");
	tap_check(vpux_device_open_index(n, &d) == VPUX_E_NODEV && !d,
		  "open index %u: VPUX_E_NODEV: %s", n, vpux_last_error());
	tap_check(vpux_device_open_index(0, NULL) == VPUX_E_INVAL,
		  "open index: NULL result refused");
	tap_check(!vpux_device_open_index(n - 1, &d) && d,
		  "open index %u: the in-process model", n - 1);
	vpux_device_close(d);
}

static void test_props(struct vpux_device *dev)
{
	struct {
		struct vpux_device_props p;
		unsigned char more[16];
	} big;
	struct vpux_device_props p;
	struct vpux_device_info info;
	unsigned int i;
	int zero = 1, ok;

	memset(&p, 0, sizeof(p));
	p.size = VPUX_DEVICE_PROPS_SIZE_1_8 - 1;
	tap_check(vpux_device_get_props(dev, &p) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "size 215"),
		  "props: size below 1.8's refused: %s", vpux_last_error());
	tap_check(vpux_device_get_props(NULL, &p) == VPUX_E_INVAL &&
		  vpux_device_get_props(dev, NULL) == VPUX_E_INVAL,
		  "props: NULL refused");
	p.size = sizeof(p);
	ok = !vpux_device_get_props(dev, &p) && !vpux_device_query(dev, &info);
	tap_check(ok &&
		  p.size == sizeof(p) && !strcmp(p.name, "inproc") &&
		  !strcmp(p.backend, "inproc") && !strcmp(p.driver, "inproc") &&
		  p.fw_mode == VPUX_FW_MODE_HEADLESS && !p.uapi_major &&
		  p.engines[0] == info.engines[0] &&
		  p.engines[1] == info.engines[1] &&
		  p.engines[2] == info.engines[2] && p.caps == info.caps &&
		  p.max_ops == info.max_ops && p.num_tiles &&
		  p.cmx_bytes == (uint64_t)p.num_tiles * p.cmx_tile_bytes &&
		  p.heaps == 1u << VPUX_HEAP_SYSTEM && p.clock_khz &&
		  (p.features & VPUX_DEV_POLL_FD) &&
		  !(p.features & VPUX_DEV_DMABUF) && p.memory_bytes,
		  "props: %s, engines %u/%u/%u, CMX %u x %u bytes, headless, %u kHz, features 0x%llx",
		  p.name, p.engines[0], p.engines[1], p.engines[2],
		  p.num_tiles, p.cmx_tile_bytes, p.clock_khz,
		  (unsigned long long)p.features);
	/* a newer caller's larger structure: the unknown tail reads 0 */
	memset(&big, 0xa5, sizeof(big));
	big.p.size = sizeof(big);
	tap_check(!vpux_device_get_props(dev, &big.p), "props: a larger structure accepted");
	for (i = 0; i < sizeof(big.more); i++)
		zero &= !big.more[i];
	tap_check(zero && big.p.size == sizeof(p),
		  "props: the tail past 1.8 zeroed, size says %u", big.p.size);
}

static void test_buffers(struct vpux_device *dev)
{
	struct {
		struct vpux_buffer_params p;
		uint32_t more;
	} big;
	struct vpux_buffer_params bp = {
		.size = sizeof(bp), .heap = VPUX_HEAP_SYSTEM, .bytes = 4096,
	};
	struct vpux_buffer *b = NULL, *b2 = NULL;
	int fd = 5, ok;

	tap_check(vpux_buffer_alloc_ex(NULL, &bp, &b) == VPUX_E_INVAL &&
		  vpux_buffer_alloc_ex(dev, NULL, &b) == VPUX_E_INVAL &&
		  vpux_buffer_alloc_ex(dev, &bp, NULL) == VPUX_E_INVAL,
		  "alloc_ex: NULL refused");
	bp.size = 8;
	tap_check(vpux_buffer_alloc_ex(dev, &bp, &b) == VPUX_E_INVAL && !b &&
		  strstr(vpux_last_error(), "params size 8"),
		  "alloc_ex: params size 8: %s", vpux_last_error());
	bp.size = sizeof(bp);
	bp.bytes = 0;
	tap_check(vpux_buffer_alloc_ex(dev, &bp, &b) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "0 bytes"), "alloc_ex: 0 bytes refused");
	bp.bytes = 4096;
	bp.flags = 1u << 9;
	tap_check(vpux_buffer_alloc_ex(dev, &bp, &b) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "unknown flags 0x200"),
		  "alloc_ex: unknown flag: %s", vpux_last_error());
	bp.flags = VPUX_BUFFER_CACHED | VPUX_BUFFER_WC;
	tap_check(vpux_buffer_alloc_ex(dev, &bp, &b) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "exclude"),
		  "alloc_ex: CACHED with WC: %s", vpux_last_error());
	bp.flags = 0;
	bp.reserved = 1;
	tap_check(vpux_buffer_alloc_ex(dev, &bp, &b) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "reserved"), "alloc_ex: reserved not 0");
	bp.reserved = 0;
	bp.heap = VPUX_HEAP_CMX;
	tap_check(vpux_buffer_alloc_ex(dev, &bp, &b) == VPUX_E_UNSUPPORTED &&
		  strstr(vpux_last_error(), "heap CMX"),
		  "alloc_ex: heap CMX: VPUX_E_UNSUPPORTED: %s", vpux_last_error());
	bp.heap = 7;
	tap_check(vpux_buffer_alloc_ex(dev, &bp, &b) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "heap 7"),
		  "alloc_ex: heap 7: %s", vpux_last_error());
	memset(&big, 0, sizeof(big));
	big.p = (struct vpux_buffer_params){ .size = sizeof(big), .bytes = 64 };
	big.more = 1;
	tap_check(vpux_buffer_alloc_ex(dev, &big.p, &b) == VPUX_E_UNSUPPORTED,
		  "alloc_ex: a set field past 1.8: %s", vpux_last_error());
	big.more = 0;
	tap_check(!vpux_buffer_alloc_ex(dev, &big.p, &b) && b &&
		  vpux_buffer_size(b) == 64 &&
		  vpux_buffer_flags(b) == VPUX_BUFFER_CACHED,
		  "alloc_ex: a larger structure with a zero tail: 64 bytes, cached");
	vpux_buffer_free(b);
	b = NULL;

	bp.heap = VPUX_HEAP_SYSTEM;
	bp.flags = VPUX_BUFFER_WC;
	ok = !vpux_buffer_alloc_ex(dev, &bp, &b);
	tap_check(ok && vpux_buffer_flags(b) == VPUX_BUFFER_WC &&
		  vpux_buffer_map(b),
		  "alloc_ex: a write-combined buffer (flags 0x%x)",
		  vpux_buffer_flags(b));

	/* sync */
	tap_check(vpux_buffer_sync(NULL, VPUX_SYNC_TO_DEVICE, 0, 0) ==
		  VPUX_E_INVAL, "sync: NULL refused");
	tap_check(vpux_buffer_sync(b, 3, 0, 0) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "direction 3"),
		  "sync: direction 3: %s", vpux_last_error());
	tap_check(vpux_buffer_sync(b, VPUX_SYNC_FROM_DEVICE, 4000, 97) ==
		  VPUX_E_INVAL && strstr(vpux_last_error(), "outside"),
		  "sync: a range past the end: %s", vpux_last_error());
	tap_check(!vpux_buffer_sync(b, VPUX_SYNC_TO_DEVICE, 0, 0) &&
		  !vpux_buffer_sync(b, VPUX_SYNC_FROM_DEVICE, 4000, 96),
		  "sync: both directions, whole and part");

	/* dma-bufs: not in process */
	tap_check(vpux_buffer_export(b, 0, &fd) == VPUX_E_UNSUPPORTED &&
		  fd == -1 && strstr(vpux_last_error(), "inproc"),
		  "export in process: VPUX_E_UNSUPPORTED: %s", vpux_last_error());
	tap_check(vpux_buffer_export(b, 2, &fd) == VPUX_E_INVAL &&
		  vpux_buffer_export(NULL, 0, &fd) == VPUX_E_INVAL &&
		  vpux_buffer_export(b, 0, NULL) == VPUX_E_INVAL,
		  "export: unknown flag, NULL refused");
	tap_check(vpux_buffer_import(dev, 0, &b2) == VPUX_E_UNSUPPORTED &&
		  !b2, "import in process: VPUX_E_UNSUPPORTED: %s",
		  vpux_last_error());
	tap_check(vpux_buffer_import(dev, -1, &b2) == VPUX_E_INVAL && !b2,
		  "import of fd -1: VPUX_E_INVAL: %s", vpux_last_error());
	tap_check(vpux_buffer_import(NULL, 0, &b2) == VPUX_E_INVAL,
		  "import: NULL device refused");
	tap_check(vpux_buffer_flags(NULL) == 0, "flags of NULL: 0");
	vpux_buffer_free(b);
}

static void test_readonly(struct vpux_device *dev, struct vpux_network *net)
{
	struct vpux_buffer_params bp = {
		.size = sizeof(bp), .bytes = 4096,
		.flags = VPUX_BUFFER_DEVICE_READONLY,
	};
	struct vpux_buffer *ro = NULL;
	struct rq q;
	int ok;

	ok = !rq_make(dev, net, &q, 3) && !vpux_buffer_alloc_ex(dev, &bp, &ro);
	tap_check(ok && vpux_buffer_flags(ro) ==
		  (VPUX_BUFFER_DEVICE_READONLY | VPUX_BUFFER_CACHED),
		  "a device-read-only buffer");
	/* as an input it is fine, as an output the core refuses it */
	tap_check(ok && !vpux_request_bind_input(q.req, 0, ro, 0) &&
		  !vpux_request_submit(q.req) && !vpux_request_wait(q.req, 5000),
		  "a read-only buffer as the input runs");
	{
		unsigned int cat = 99;
		uint32_t detail = 99;

		tap_check(ok && !vpux_request_error(q.req, &cat, &detail) &&
			  cat == VPUX_ERROR_NONE && detail == 0,
			  "a request that ran: error category NONE, detail 0 (API 1.9)");
		tap_check(vpux_request_error(NULL, &cat, NULL) == VPUX_E_INVAL &&
			  (!ok || vpux_request_error(q.req, NULL, NULL) ==
				  VPUX_E_INVAL),
			  "request error: NULL refused: %s", vpux_last_error());
		tap_check(!strcmp(vpux_error_category_name(VPUX_ERROR_HANG),
				  "HANG") &&
			  !strcmp(vpux_error_category_name(7), "UNKNOWN"),
			  "category names: HANG, UNKNOWN past DEVICE");
	}
	tap_check(ok && !vpux_request_bind_output(q.req, 0, ro, 0) &&
		  vpux_request_submit(q.req) == VPUX_E_PERM,
		  "a read-only buffer as the output: VPUX_E_PERM: %s",
		  vpux_last_error());
	rq_free(&q);
	vpux_buffer_free(ro);
}

static void test_poll(struct vpux_device *dev, struct vpux_network *copy,
		      struct vpux_network *lng)
{
	struct vpux_request_status st;
	struct rq q;
	int fd = 7, fd2 = -1, ok, r0;

	ok = !rq_make(dev, copy, &q, 9);
	tap_check(vpux_request_poll_fd(NULL, &fd) == VPUX_E_INVAL && fd == -1 &&
		  vpux_request_poll_fd(q.req, NULL) == VPUX_E_INVAL,
		  "poll fd: NULL refused");
	tap_check(ok && vpux_request_poll_fd(q.req, &fd) == VPUX_E_STATE &&
		  fd == -1, "poll fd before a submit: VPUX_E_STATE: %s",
		  vpux_last_error());
	ok = ok && !vpux_request_submit(q.req) &&
	     !vpux_request_poll_fd(q.req, &fd) &&
	     !vpux_request_poll_fd(q.req, &fd2) && fd >= 0 && fd2 != fd;
	tap_check(ok && readable(fd, 5000) && readable(fd2, 0) &&
		  !vpux_request_status(q.req, &st) && st.state == VPUX_REQ_DONE &&
		  copied(&q),
		  "poll fd: two fds of one submit become readable, the request is done");
	tap_check(ok && !vpux_request_wait(q.req, 0) && readable(fd, 0),
		  "poll fd: stays readable after the wait");
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
	/* a new submit, a new fd */
	fd = -1;
	ok = ok && !vpux_request_submit(q.req) &&
	     !vpux_request_poll_fd(q.req, &fd);
	tap_check(ok && readable(fd, 5000) && !vpux_request_wait(q.req, 0),
		  "poll fd of a second submit");
	if (fd >= 0)
		close(fd);
	rq_free(&q);

	/* a long job: not readable at once; wait(0) times out */
	ok = !rq_make(dev, lng, &q, 11);
	fd = -1;
	ok = ok && !vpux_request_submit(q.req) &&
	     !vpux_request_poll_fd(q.req, &fd);
	r0 = ok ? vpux_request_wait(q.req, 0) : -100;
	tap_check(ok && r0 == VPUX_E_TIMEOUT && !readable(fd, 0) &&
		  strstr(vpux_last_error(), "wait"),
		  "a long job: wait(0) VPUX_E_TIMEOUT (%s), its fd not readable yet",
		  vpux_last_error());
	tap_check(ok && readable(fd, 20000) && !vpux_request_wait(q.req, 0) &&
		  copied(&q), "the long job's fd becomes readable when it is done");
	if (fd >= 0)
		close(fd);
	/* destroyed while running: the fd still becomes readable */
	fd = -1;
	ok = ok && !vpux_request_submit(q.req) &&
	     !vpux_request_poll_fd(q.req, &fd);
	vpux_request_destroy(q.req);
	q.req = NULL;
	tap_check(ok && readable(fd, 0),
		  "a request destroyed: its fd is readable");
	if (fd >= 0)
		close(fd);
	rq_free(&q);
	tap_check(vpux_request_wait(NULL, 0) == VPUX_E_INVAL,
		  "wait: NULL request: VPUX_E_INVAL");
}

static void test_many(struct vpux_device *dev, struct vpux_network *net,
		      struct vpux_network *lng)
{
	struct vpux_device *other = NULL;
	struct vpux_network *onet = NULL;
	struct vpux_request_status st;
	struct vpux_request *v[4], *bad = NULL;
	struct rq q[3], oq, lq;
	unsigned int i, sub = 99;
	int ok = 1, all;

	for (i = 0; i < 3; i++)
		ok &= !rq_make(dev, net, &q[i], (unsigned char)(20 + i));
	for (i = 0; i < 3; i++)
		v[i] = q[i].req;
	tap_check(vpux_request_submit_many(NULL, 1, &sub) == VPUX_E_INVAL &&
		  !sub && vpux_request_submit_many(v, 0, NULL) == VPUX_E_INVAL,
		  "submit many: NULL array, n 0 refused: %s", vpux_last_error());
	v[3] = NULL;
	tap_check(vpux_request_submit_many(v, 4, &sub) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "request 3 is NULL"),
		  "submit many: a NULL request: %s", vpux_last_error());
	v[3] = v[1];
	tap_check(vpux_request_submit_many(v, 4, &sub) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "request 3 is request 1"),
		  "submit many: a request twice: %s", vpux_last_error());
	/* one unbound: nothing is submitted */
	ok &= !vpux_request_create(net, &bad);
	v[3] = bad;
	tap_check(ok && vpux_request_submit_many(v, 4, &sub) == VPUX_E_UNBOUND &&
		  !sub && strstr(vpux_last_error(), "request 3: input 0") &&
		  !vpux_request_status(v[0], &st) && st.state == VPUX_REQ_IDLE,
		  "submit many: request 3 unbound: none submitted: %s",
		  vpux_last_error());
	/* another device */
	ok &= !vpux_device_open("inproc", &other) &&
	      !vpux_network_load_file(other, BUILDDIR "/examples/copy_1op.vpux",
				      &onet) &&
	      !rq_make(other, onet, &oq, 1);
	v[3] = oq.req;
	tap_check(ok && vpux_request_submit_many(v, 4, &sub) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "another device"),
		  "submit many: a request of another device: %s",
		  vpux_last_error());
	tap_check(ok && !vpux_request_submit_many(v, 3, &sub) && sub == 3,
		  "submit many: 3 requests in one call");
	all = ok;
	for (i = 0; i < 3; i++)
		all &= !vpux_request_wait(q[i].req, 5000) && copied(&q[i]);
	tap_check(all, "submit many: all 3 ran, each output right");
	/* one still running: refused before anything is submitted */
	ok = ok && !rq_make(dev, lng, &lq, 5) && !vpux_request_submit(lq.req);
	v[1] = lq.req;
	tap_check(ok && vpux_request_submit_many(v, 3, &sub) == VPUX_E_STATE &&
		  !sub && strstr(vpux_last_error(), "request 1 is still running"),
		  "submit many: request 1 still runs: VPUX_E_STATE, none submitted (%s)",
		  vpux_last_error());
	tap_check(ok && !vpux_request_wait(lq.req, 20000) && copied(&lq),
		  "the long request ends");
	rq_free(&lq);
	v[1] = q[1].req;
	tap_check(!vpux_request_submit_many(v, 1, NULL) &&
		  !vpux_request_wait(v[0], 5000),
		  "submit many: one request, no count");
	for (i = 0; i < 3; i++)
		rq_free(&q[i]);
	vpux_request_destroy(bad);
	rq_free(&oq);
	vpux_network_unload(onet);
	vpux_device_close(other);
}

/* the cycle counter: its errors; a request's ops move it (API 1.8) */
static void test_cycles(struct vpux_device *dev, struct vpux_network *net)
{
	struct vpux_request_status st;
	uint64_t c0 = 1, c1 = 0;
	struct rq q;
	int ok;

	tap_check(vpux_device_cycles(NULL, &c0) == VPUX_E_INVAL &&
		  vpux_device_cycles(dev, NULL) == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "device cycles: NULL argument"),
		  "cycles: NULL arguments refused (%s)", vpux_last_error());
	ok = !rq_make(dev, net, &q, 7) && !vpux_device_cycles(dev, &c0) &&
	     !vpux_request_submit(q.req) && !vpux_request_wait(q.req, 10000) &&
	     !vpux_device_cycles(dev, &c1) && !vpux_request_status(q.req, &st);
	tap_check(ok && c1 - c0 >= st.device_cycles && st.device_cycles,
		  "cycles: the counter moved by at least the request's %llu device cycles (%llu)",
		  ok ? (unsigned long long)st.device_cycles : 0ull,
		  (unsigned long long)(c1 - c0));
	rq_free(&q);
}

int main(void)
{
	struct vpux_device *dev = NULL;
	struct vpux_network *copy = NULL, *lng = NULL;
	void *data = NULL;
	size_t size = 0;

	test_devices();
	if (!tap_check(!vpux_device_open("inproc", &dev), "inproc opened"))
		return tap_finish();
	test_props(dev);
	test_buffers(dev);
	tap_check(!vpux_network_load_file(dev, BUILDDIR "/examples/copy_1op.vpux",
					  &copy) &&
		  !asm_bytes(long_text(), &data, &size) &&
		  !vpux_network_load(dev, data, size, &lng),
		  "networks loaded (%s)", vpux_last_error());
	free(data);
	if (copy && lng) {
		test_readonly(dev, copy);
		test_poll(dev, copy, lng);
		test_many(dev, copy, lng);
		test_cycles(dev, copy);
	}
	vpux_network_unload(copy);
	vpux_network_unload(lng);
	vpux_device_close(dev);
	return tap_finish();
}
