// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libvpux figures (make bench):
 *  - load + validate throughput of a loadable with 64 MiB of weights:
 *    parse + checksums + semantic checks alone, and the whole
 *    vpux_network_load() including the copy into device memory;
 *  - per-request overhead of bind + submit + wait for a 1-op network on
 *    the in-process backend (median of many runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm.h"
#include "lf.h"
#include "vpux.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void *make(const char *text, size_t *n)
{
	struct lf_image img;
	void *p = NULL;

	if (asm_text("bench", text, NULL, &img, stderr) ||
	    lf_write_mem(&img, &p, n))
		exit(1);
	asm_free(&img);
	return p;
}

int main(void)
{
	static const char big[] =
		"network big\n"
		"output y i8 1x64x8x8 order=NHWC\n"
		"tensor w i8 67108864 region=weights fill=seed:3\n"
		"tensor k i8 64x1x1x64 region=weights offset=0\n"
		"tensor x i8 1x64x8x8 order=NHWC\n"
		"dpu conv in=x in2=k out=y requant=1073741824,9\n";
	static const char one[] =
		"network one\n"
		"input x i8 4096\noutput y i8 4096\n"
		"dma src=x dst=y\n";
	struct vpux_network *net;
	struct vpux_device *dev;
	struct vpux_request *req;
	struct vpux_buffer *a, *b;
	struct lf_image img;
	double t, best_v = 1e9, best_l = 1e9, lat[2000];
	size_t n;
	void *p = make(big, &n);
	int i;

	if (vpux_device_open("inproc", &dev))
		return 1;
	for (i = 0; i < 5; i++) {
		t = now();
		if (lf_parse(p, n, &img) || lf_validate(&img))
			return 1;
		lf_image_free(&img);
		t = now() - t;
		best_v = t < best_v ? t : best_v;
		t = now();
		if (vpux_network_load(dev, p, n, &net)) {
			fprintf(stderr, "load: %s\n", vpux_last_error());
			return 1;
		}
		t = now() - t;
		best_l = t < best_l ? t : best_l;
		vpux_network_unload(net);
	}
	printf("umd: loadable of %.1f MiB (64 MiB weights)\n", n / 1048576.0);
	printf("umd: parse + validate (CRC-32, every record): %.2f ms, %.0f MB/s (target >= 1000)\n",
	       best_v * 1e3, n / best_v / 1e6);
	printf("umd: vpux_network_load (+ copy to device memory): %.2f ms, %.0f MB/s\n",
	       best_l * 1e3, n / best_l / 1e6);
	free(p);

	p = make(one, &n);
	if (vpux_network_load(dev, p, n, &net) || vpux_request_create(net, &req) ||
	    vpux_buffer_alloc(dev, 4096, &a) || vpux_buffer_alloc(dev, 4096, &b))
		return 1;
	for (i = 0; i < 2000; i++) {
		t = now();
		if (vpux_request_bind_input(req, 0, a, 0) ||
		    vpux_request_bind_output(req, 0, b, 0) ||
		    vpux_request_submit(req) || vpux_request_wait(req, 5000))
			return 1;
		lat[i] = now() - t;
	}
	qsort(lat, 2000, sizeof(lat[0]), cmp_d);
	printf("umd: 1-op request bind+submit+wait in-process: median %.1f us, min %.1f us, p99 %.1f us\n",
	       lat[1000] * 1e6, lat[0] * 1e6, lat[1980] * 1e6);
	vpux_request_destroy(req);
	vpux_buffer_free(a);
	vpux_buffer_free(b);
	vpux_network_unload(net);
	free(p);
	vpux_device_close(dev);
	return 0;
}
