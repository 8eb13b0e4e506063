// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Run-recipe figures (make bench), in process:
 *  - examples/recipes/halves.json (2 CPU conversions, 2 NPU runs):
 *    execute + wait, median of many executions;
 *  - 8 NPU runs of half_sigmoid as one chain of a recipe, against the
 *    same 8 runs as requests each submitted after the previous one's
 *    wait: what the runner's thread and chain cost or save.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vpux.h"

#define N 200
#define CHAIN 8

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return v[n / 2];
}

static int die(const char *what)
{
	fprintf(stderr, "recipe-bench: %s: %s\n", what, vpux_last_error());
	return 1;
}

/* execute + wait of the recipe @path, median over N, inputs bound */
static int bench_runner(struct vpux_device *dev, const char *path,
			const char *in, size_t in_size, double *med)
{
	struct vpux_runner *r;
	struct vpux_buffer *b;
	double t[N];
	int i;

	if (vpux_runner_create(dev, path, &r))
		return die(path);
	if (vpux_buffer_alloc(dev, in_size, &b) ||
	    vpux_runner_bind_input(r, in, b, 0))
		return die("bind");
	for (i = 0; i < N; i++) {
		double t0 = now_us();

		if (vpux_runner_execute(r) || vpux_runner_wait(r, -1))
			return die("execute");
		t[i] = now_us() - t0;
	}
	*med = median(t, N);
	vpux_runner_destroy(r);
	vpux_buffer_free(b);
	return 0;
}

int main(void)
{
	static const char loadable[] = BUILDDIR "/examples/half_sigmoid.vpux";
	char path[] = BUILDDIR "/umd/bench/chain8.json";
	struct vpux_request *req[CHAIN];
	struct vpux_buffer *buf;
	struct vpux_network *net;
	struct vpux_device *dev;
	double med, t[N];
	FILE *f;
	int i, k;

	setenv("VPUX_CPU_LIBRARY_PATH", BUILDDIR "/umd", 1);
	if (vpux_device_open("inproc", &dev))
		return die("inproc");
	if (bench_runner(dev, BUILDDIR "/examples/recipes/halves.json", "ifm",
			 1024, &med))
		return 1;
	printf("recipe: halves.json (2 CPU + 2 NPU runs) execute+wait in-process: median %.1f us\n",
	       med);

	/* a chain of CHAIN runs through one buffer, ping-pong */
	f = fopen(path, "w");
	if (!f)
		return die(path);
	fprintf(f, "{\"header\":{\"target\":\"vpux1\",\"version\":\"1.0\"},"
		"\"resources\":{\"buffers\":[{\"name\":\"in\",\"type\":\"input\",\"size\":128},"
		"{\"name\":\"t\",\"type\":\"internal\",\"size\":256}],"
		"\"kernels\":[{\"name\":\"k\",\"loadable\":\"%s\"}]},"
		"\"execution\":{\"runs\":[", loadable);
	for (k = 0; k < CHAIN; k++)
		fprintf(f, "%s{\"name\":\"k\",\"arguments\":[{\"name\":\"%s\",\"argidx\":0,\"offset\":%d,\"size\":128},"
			"{\"name\":\"t\",\"argidx\":1,\"offset\":%d,\"size\":128}]}",
			k ? "," : "", k ? "t" : "in", k ? (k + 1) % 2 * 128 : 0,
			k % 2 * 128);
	fprintf(f, "]}}\n");
	fclose(f);
	if (bench_runner(dev, path, "in", 128, &med))
		return 1;
	printf("recipe: %d chained NPU runs execute+wait in-process: median %.1f us (%.1f us per run)\n",
	       CHAIN, med, med / CHAIN);

	if (vpux_network_load_file(dev, loadable, &net) ||
	    vpux_buffer_alloc(dev, 384, &buf))
		return die(loadable);
	for (k = 0; k < CHAIN; k++)
		if (vpux_request_create(net, &req[k]) ||
		    vpux_request_bind_input(req[k], 0, buf, k ? (size_t)(k + 1) % 2 * 128 + 128 : 0) ||
		    vpux_request_bind_output(req[k], 0, buf, (size_t)k % 2 * 128 + 128))
			return die("request");
	for (i = 0; i < N; i++) {
		double t0 = now_us();

		for (k = 0; k < CHAIN; k++)
			if (vpux_request_submit(req[k]) ||
			    vpux_request_wait(req[k], -1))
				return die("submit");
		t[i] = now_us() - t0;
	}
	med = median(t, N);
	printf("recipe: the same %d runs as requests, each submitted after the last one's wait: median %.1f us (%.1f us per run)\n",
	       CHAIN, med, med / CHAIN);
	for (k = 0; k < CHAIN; k++)
		vpux_request_destroy(req[k]);
	vpux_buffer_free(buf);
	vpux_network_unload(net);
	vpux_device_close(dev);
	return 0;
}
