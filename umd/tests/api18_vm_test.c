// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * API 1.8 through /dev/accel (run in the VM rig, tools/vm/tests.list):
 * the device list (the vpux_accel nodes, then the in-process model),
 * props from the kernel, buffers with the kernel's flags, sync, dma-buf
 * export and import (same device, another device, read-only), a poll fd
 * (sync_file of the job's out-syncobj) and several requests in one
 * submit. The copy network is compiled in (iob_examples.h).
 *
 *	api18_vm_test [/dev/accel/accelN]
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vpux.h"
#include "vpux_tap.h"
#include "iob_examples.h"	/* generated: struct iob_example examples[] */

static const struct iob_example *copy_ex(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(examples) / sizeof(examples[0]); i++)
		if (!strcmp(examples[i].name, "copy_1op"))
			return &examples[i];
	return NULL;
}

static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

struct rq {
	struct vpux_request *req;
	struct vpux_buffer *in, *out;
};

static int rq_make(struct vpux_device *dev, struct vpux_network *net,
		   struct rq *q, unsigned char seed)
{
	int ret;

	memset(q, 0, sizeof(*q));
	ret = vpux_request_create(net, &q->req) ||
	      vpux_buffer_alloc(dev, 4096, &q->in) ||
	      vpux_buffer_alloc(dev, 4096, &q->out) ||
	      vpux_request_bind_input(q->req, 0, q->in, 0) ||
	      vpux_request_bind_output(q->req, 0, q->out, 0);
	if (!ret)
		memset(vpux_buffer_map(q->in), seed, 4096);
	return ret;
}

static void rq_free(struct rq *q)
{
	vpux_request_destroy(q->req);
	vpux_buffer_free(q->in);
	vpux_buffer_free(q->out);
}

static int copied(const struct rq *q)
{
	return !memcmp(vpux_buffer_map(q->in), vpux_buffer_map(q->out), 4096);
}

int main(int argc, char **argv)
{
	const char *node = argc > 1 ? argv[1] : "/dev/accel/accel0";
	const struct iob_example *ex = copy_ex();
	struct vpux_device *kd = NULL, *k2 = NULL, *x = NULL;
	struct vpux_network *net = NULL;
	struct vpux_device_props p;
	struct vpux_buffer *b = NULL, *imp = NULL, *imp2 = NULL, *rob = NULL;
	struct vpux_buffer_params bp = { .size = sizeof(bp), .bytes = 4096 };
	unsigned int n = 0, i, sub = 0;
	char name[64];
	int fd = -1, sfd = -1, ok, ret;

	if (access(node, F_OK) || !ex) {
		tap_skip("no vpux_accel node (run in the VM rig)");
		return tap_finish();
	}
	/* the list: the module is loaded with num_devices=2 */
	ok = !vpux_device_count(&n);
	tap_check(ok && n >= 2, "device count: %u (nodes, then inproc)", n);
	ok = ok && !vpux_device_name(0, name, sizeof(name));
	tap_check(ok && !strncmp(name, "/dev/accel/accel", 16),
		  "device 0 is a node: %s", name);
	tap_check(!vpux_device_name(n - 1, name, sizeof(name)) &&
		  !strcmp(name, "inproc"), "device %u is inproc", n - 1);
	for (i = 0; i + 1 < n; i++) {
		ret = vpux_device_open_index(i, &x);
		memset(&p, 0, sizeof(p));
		p.size = sizeof(p);
		ret = ret ? ret : vpux_device_get_props(x, &p);
		tap_check(!ret && !strcmp(p.backend, "ioctl") &&
			  !strcmp(p.driver, "vpux_accel") && p.uapi_major == 2 &&
			  p.engines[0] && p.engines[1] && p.engines[2] &&
			  p.num_tiles && p.cmx_bytes == (uint64_t)p.num_tiles *
			  p.cmx_tile_bytes && p.clock_khz &&
			  p.heaps == 1u << VPUX_HEAP_SYSTEM &&
			  (p.features & VPUX_DEV_DMABUF) &&
			  (p.fw_mode == VPUX_FW_MODE_HEADLESS ||
			   p.fw_mode == VPUX_FW_MODE_HEADED),
			  "device %u: %s, uapi %u.%u, engines %u/%u/%u, CMX %u x %u, %s, serial %llu, features 0x%llx (%s)",
			  i, p.name, p.uapi_major, p.uapi_minor, p.engines[0],
			  p.engines[1], p.engines[2], p.num_tiles, p.cmx_tile_bytes,
			  p.fw_mode == VPUX_FW_MODE_HEADED ? "headed" : "headless",
			  (unsigned long long)p.serial,
			  (unsigned long long)p.features,
			  ret ? vpux_last_error() : "ok");
		vpux_device_close(x);
		x = NULL;
	}

	if (!tap_check(!vpux_device_open(node, &kd) &&
		       !vpux_network_load(kd, ex->data, ex->size, &net),
		       "%s opened, copy_1op loaded (%s)", node, vpux_last_error()))
		return tap_finish();
	memset(&p, 0, sizeof(p));
	p.size = sizeof(p);
	vpux_device_get_props(kd, &p);

	/* the kernel's flags */
	bp.flags = VPUX_BUFFER_WC;
	ok = !vpux_buffer_alloc_ex(kd, &bp, &b);
	tap_check(ok && vpux_buffer_flags(b) == VPUX_BUFFER_WC,
		  "a write-combined BO (%s)", ok ? "ok" : vpux_last_error());
	vpux_buffer_free(b);
	b = NULL;
	bp.heap = VPUX_HEAP_CMX;
	bp.flags = 0;
	tap_check(vpux_buffer_alloc_ex(kd, &bp, &b) == VPUX_E_UNSUPPORTED,
		  "heap CMX: VPUX_E_UNSUPPORTED: %s", vpux_last_error());
	bp.heap = VPUX_HEAP_SYSTEM;
	bp.flags = VPUX_BUFFER_DEVICE_READONLY;
	{
		struct rq q;

		ok = !rq_make(kd, net, &q, 1) && !vpux_buffer_alloc_ex(kd, &bp, &rob);
		tap_check(ok && !vpux_request_bind_output(q.req, 0, rob, 0) &&
			  vpux_request_submit(q.req) == VPUX_E_PERM,
			  "a DEVICE_READONLY BO as an output: VPUX_E_PERM: %s",
			  vpux_last_error());
		rq_free(&q);
	}

	/* dma-buf: export, import into the same device and another one */
	bp.flags = 0;
	ok = !vpux_buffer_alloc_ex(kd, &bp, &b) &&
	     !vpux_buffer_export(b, 0, &fd) && fd >= 0;
	tap_check(ok, "export: dma-buf fd %d (%s)", fd,
		  ok ? "ok" : vpux_last_error());
	memset(vpux_buffer_map(b), 0x5a, 4096);
	ok = ok && !vpux_buffer_import(kd, fd, &imp);
	tap_check(ok && vpux_buffer_size(imp) == 4096 &&
		  (vpux_buffer_flags(imp) & VPUX_BUFFER_IMPORTED) &&
		  ((unsigned char *)vpux_buffer_map(imp))[4095] == 0x5a,
		  "import into the same device: the same memory (%s)",
		  ok ? "ok" : vpux_last_error());
	/* the shared handle is closed once, with its last buffer */
	vpux_buffer_free(imp);
	imp = NULL;
	tap_check(((unsigned char *)vpux_buffer_map(b))[0] == 0x5a &&
		  !vpux_buffer_sync(b, VPUX_SYNC_FROM_DEVICE, 0, 0),
		  "the exporter's buffer outlives the import's free");
	{
		char other[64];
		int have = 0;

		for (i = 0; i + 1 < n && !have; i++)
			have = !vpux_device_name(i, other, sizeof(other)) &&
			       strcmp(other, node) && !vpux_device_open(other, &k2);
		if (have) {
			struct rq q;

			/* device 2 copies from the buffer of device 1 */
			ok = ok && !vpux_buffer_import(k2, fd, &imp2);
			{
				struct vpux_network *n2 = NULL;

				ok = ok && !vpux_network_load(k2, ex->data, ex->size, &n2) &&
				     !rq_make(k2, n2, &q, 0) &&
				     !vpux_request_bind_input(q.req, 0, imp2, 0) &&
				     !vpux_buffer_sync(imp2, VPUX_SYNC_TO_DEVICE, 0, 0) &&
				     !vpux_request_submit(q.req) &&
				     !vpux_request_wait(q.req, 5000) &&
				     !vpux_buffer_sync(q.out, VPUX_SYNC_FROM_DEVICE, 0, 0);
				tap_check(ok && ((unsigned char *)vpux_buffer_map(q.out))[17] == 0x5a,
					  "%s reads a BO of %s through the dma-buf (%s)",
					  other, node, ok ? "ok" : vpux_last_error());
				rq_free(&q);
				vpux_network_unload(n2);
			}
			vpux_buffer_free(imp2);
			imp2 = NULL;
		} else {
			tap_skip("one vpux_accel node: no cross-device import");
		}
	}
	if (fd >= 0)
		close(fd);
	fd = -1;
	/*
	 * read-only export of a BO not exported before (DRM keeps a BO's
	 * first dma-buf: a later export is that one): the import is
	 * read-only
	 */
	vpux_buffer_free(b);
	b = NULL;
	ok = !vpux_buffer_alloc_ex(kd, &bp, &b) &&
	     !vpux_buffer_export(b, VPUX_EXPORT_READONLY, &fd) &&
	     !vpux_buffer_import(k2 ? k2 : kd, fd, &imp2);
	tap_check(ok && (vpux_buffer_flags(imp2) &
			 (VPUX_BUFFER_CPU_READONLY | VPUX_BUFFER_DEVICE_READONLY)),
		  "a read-only export imports read-only (flags 0x%x; %s)",
		  vpux_buffer_flags(imp2), ok ? "ok" : vpux_last_error());
	vpux_buffer_free(imp2);
	if (fd >= 0)
		close(fd);
	tap_check(vpux_buffer_import(kd, 0, &imp) == VPUX_E_INVAL,
		  "import of stdin: VPUX_E_INVAL: %s", vpux_last_error());
	tap_check(vpux_buffer_export(b, 4, &fd) == VPUX_E_INVAL,
		  "export with an unknown flag: VPUX_E_INVAL");
	vpux_buffer_free(b);
	vpux_buffer_free(rob);
	vpux_device_close(k2);

	/* a poll fd: sync_file of the job's out-syncobj */
	{
		struct rq q[3];
		struct vpux_request *v[3];
		int all = 1, fds[3] = { -1, -1, -1 };

		ok = !rq_make(kd, net, &q[0], 7);
		ret = ok ? vpux_request_poll_fd(q[0].req, &sfd) : -100;
		tap_check(ret == VPUX_E_STATE, "poll fd before a submit: VPUX_E_STATE");
		ok = ok && !vpux_request_submit(q[0].req) &&
		     !vpux_request_poll_fd(q[0].req, &sfd);
		tap_check(ok && readable(sfd, 5000) &&
			  !vpux_request_wait(q[0].req, 0) && copied(&q[0]),
			  "poll fd (sync_file) readable when the job is done (%s)",
			  ok ? "ok" : vpux_last_error());
		if (sfd >= 0)
			close(sfd);
		vpux_request_wait(q[0].req, 5000);
		/* several at once, and one poll per request */
		for (i = 1; i < 3; i++)
			ok = ok && !rq_make(kd, net, &q[i], (unsigned char)(7 + i));
		for (i = 0; i < 3; i++)
			v[i] = q[i].req;
		ok = ok && !vpux_request_submit_many(v, 3, &sub) && sub == 3;
		tap_check(ok, "submit many: 3 requests (%s)",
			  ok ? "ok" : vpux_last_error());
		for (i = 0; i < 3; i++) {
			all &= !vpux_request_poll_fd(v[i], &fds[i]);
			all &= fds[i] >= 0 && readable(fds[i], 5000);
		}
		for (i = 0; i < 3; i++) {
			all &= !vpux_request_wait(v[i], 5000) && copied(&q[i]);
			if (fds[i] >= 0)
				close(fds[i]);
		}
		tap_check(ok && all,
			  "submit many: every fd readable, every output right");
		for (i = 0; i < 3; i++)
			rq_free(&q[i]);
	}
	vpux_network_unload(net);
	vpux_device_close(kd);
	return tap_finish();
}
