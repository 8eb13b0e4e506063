// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-pipeline-bench: requests/s of one compiled network with 1 and with
 * 4 requests in flight (DESIGN.md section 7: ratio >= 1.5; Documentation/
 * benchmarks.rst, "Pipelined requests").
 *
 *	vpux-pipeline-bench [-d DEV] [-n N] [-r ROUNDS] [-j] MODEL.vpuxl
 *
 * Each of the 4 requests has its own input and output buffers (DRAM-side
 * double buffering): before every submit the application's input is
 * copied into the request's input buffer, after every wait its output is
 * copied out, as an application does. With 1 in flight request 0 is
 * submitted and waited for N times; with 4, all four are submitted, then
 * the oldest is waited for, its output read, its next input written and
 * it is resubmitted, N times. A network with tensors in CMX queues its
 * requests on the device in submission order per tile set (libvpux.rst,
 * "Pipelined requests"): compiled for two tile sets, two of the four
 * run at once. The two phases run in interleaved rounds; each figure is
 * the best round's (the host is shared and noisy). Every output is
 * compared with request 0's first one (same input): a difference exits 1.
 *
 * rps on the device's clock where vpux_device_cycles() works: requests
 * per second of device time, the counter's advance over the phase at the
 * device's clock_khz; and on the wall clock. rps1, rps4 and ratio are
 * the device's (clock=device): on a host that emulates the NPU with a
 * few CPUs the wall clock measures the host's threads, not the design
 * (Documentation/benchmarks.rst, "Pipelined requests: bench-pipeline");
 * the wall figures follow as wall_*. Without the device's clock, rps1,
 * rps4 and ratio are the wall clock's (clock=wall). The last line is
 * machine readable:
 *	bench-pipeline: model=NAME backend=B rps1=X rps4=Y ratio=Y/X
 *		clock=device wall_rps1=X' wall_rps4=Y' wall_ratio=Y'/X'
 */
#include <getopt.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bench_util.h"
#include "vpux.h"
#include "vpux_cli.h"

#define PROG "vpux-pipeline-bench"
#define NREQ 4

struct pb {
	struct vpux_device *dev;
	int has_cycles;		/* vpux_device_cycles() works */
	struct vpux_network *net;
	struct vpux_request *req[NREQ];
	struct vpux_buffer *in[NREQ], *out[NREQ];
	unsigned char *app_in, *app_out, *first;
	size_t in_size, out_size;
	int bad;
};

static int fail(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, vpux_last_error());
	return 1;
}

static void put_input(struct pb *b, unsigned int j)
{
	memcpy(vpux_buffer_map(b->in[j]), b->app_in, b->in_size);
}

static void get_output(struct pb *b, unsigned int j)
{
	memcpy(b->app_out, vpux_buffer_map(b->out[j]), b->out_size);
	if (memcmp(b->app_out, b->first, b->out_size))
		b->bad++;
}

/*
 * requests/s of @n requests, @depth (1 or NREQ) in flight; < 0: error.
 * *@dev_cycles: the device's cycle counter's advance meanwhile (0 when
 * the device cannot say)
 */
static double run(struct pb *b, unsigned int depth, long n,
		  uint64_t *dev_cycles)
{
	uint64_t c0 = 0, c1 = 0;
	int64_t t0, t1;
	unsigned int j;
	long k;

	*dev_cycles = 0;
	if (b->has_cycles && vpux_device_cycles(b->dev, &c0))
		return -1;
	t0 = now_ns();

	for (j = 0; j < depth; j++) {
		put_input(b, j);
		if (vpux_request_submit(b->req[j]))
			return -1;
	}
	for (k = 0; k < n; k++) {
		j = (unsigned int)(k % depth);
		if (vpux_request_wait(b->req[j], 60000))
			return -1;
		get_output(b, j);
		if (k + (long)depth < n) {
			put_input(b, j);
			if (vpux_request_submit(b->req[j]))
				return -1;
		}
	}
	t1 = now_ns();
	if (b->has_cycles && vpux_device_cycles(b->dev, &c1))
		return -1;
	*dev_cycles = c1 - c0;
	return n * 1e9 / (double)(t1 - t0);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [OPTION]... MODEL.vpuxl\n"
		"Requests/s of a compiled network with 1 and 4 requests in flight.\n\n"
		"  -d, --device DEV   inproc (default), auto or /dev/accel/accelN\n"
		"  -n, --requests N   requests per phase and round (default 200)\n"
		"  -r, --rounds N     interleaved rounds, best one counts (default 3)\n"
		"  -j, --json         the figures as JSON\n"
		"  -h, --help         this text\n"
		"      --version      the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "requests", required_argument, NULL, 'n' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VPUX_OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	const char *devname = NULL, *path;
	struct vpux_device_info info;
	struct vpux_tensor_desc d;
	struct vpux_device_props pr;
	struct vpux_device *dev;
	double rps1 = 0, rps4 = 0, r, hz, drps1 = 0, drps4 = 0;
	uint64_t cyc;
	long n = 200, rounds = 3, i;
	struct pb b = { 0 };
	char *name, *dot;
	unsigned int j;
	int c, json = 0, on_dev;

	while ((c = getopt_long(argc, argv, "d:n:r:jh", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			devname = optarg;
			break;
		case 'n':
			n = strtol(optarg, NULL, 0);
			break;
		case 'r':
			rounds = strtol(optarg, NULL, 0);
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case VPUX_OPT_VERSION:
			vpux_cli_version(PROG);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc || n < NREQ || n > 1000000 || rounds < 1 ||
	    rounds > 100) {
		fprintf(stderr, PROG ": need one MODEL.vpuxl, --requests %d..1000000 and --rounds 1..100\n",
			NREQ);
		return 2;
	}
	path = argv[optind];
	if (vpux_device_open(devname, &dev))
		return fail(devname ? devname : "inproc");
	b.dev = dev;
	memset(&pr, 0, sizeof(pr));
	pr.size = sizeof(pr);
	if (vpux_device_get_props(dev, &pr))
		return fail("props");
	/* the device's own clock: through an older kernel, none */
	b.has_cycles = pr.clock_khz && !vpux_device_cycles(dev, &cyc);
	hz = pr.clock_khz * 1000.0;
	if (vpux_network_load_file(dev, path, &b.net))
		return fail(path);
	if (vpux_network_num_inputs(b.net) != 1 ||
	    vpux_network_num_outputs(b.net) != 1) {
		fprintf(stderr, PROG ": %s: need one input and one output\n",
			path);
		return 1;
	}
	vpux_network_input(b.net, 0, &d);
	b.in_size = d.size;
	vpux_network_output(b.net, 0, &d);
	b.out_size = d.size;
	b.app_in = bench_calloc(PROG, 1, b.in_size);
	b.app_out = bench_calloc(PROG, 1, b.out_size);
	b.first = bench_calloc(PROG, 1, b.out_size);
	for (i = 0; i < (long)b.in_size; i++)
		b.app_in[i] = (unsigned char)(i * 37 + 11);
	for (j = 0; j < NREQ; j++) {
		if (vpux_request_create(b.net, &b.req[j]) ||
		    vpux_buffer_alloc(dev, b.in_size, &b.in[j]) ||
		    vpux_buffer_alloc(dev, b.out_size, &b.out[j]) ||
		    vpux_request_bind_input(b.req[j], 0, b.in[j], 0) ||
		    vpux_request_bind_output(b.req[j], 0, b.out[j], 0))
			return fail("setup");
	}
	/* the reference output: request 0, alone */
	put_input(&b, 0);
	if (vpux_request_submit(b.req[0]) || vpux_request_wait(b.req[0], 60000))
		return fail("first run");
	memcpy(b.first, vpux_buffer_map(b.out[0]), b.out_size);
	for (i = 0; i < rounds; i++) {
		r = run(&b, 1, n, &cyc);
		if (r < 0)
			return fail("1 in flight");
		if (r > rps1)
			rps1 = r;
		if (cyc && n * hz / (double)cyc > drps1)
			drps1 = n * hz / (double)cyc;
		r = run(&b, NREQ, n, &cyc);
		if (r < 0)
			return fail("4 in flight");
		if (r > rps4)
			rps4 = r;
		if (cyc && n * hz / (double)cyc > drps4)
			drps4 = n * hz / (double)cyc;
	}
	if (b.bad) {
		fprintf(stderr, PROG ": %d outputs differ from the first run's\n",
			b.bad);
		return 1;
	}
	/* the figures of the line: the device's clock where it has one */
	on_dev = drps1 > 0 && drps4 > 0;
	if (!on_dev) {
		drps1 = rps1;
		drps4 = rps4;
	}
	vpux_device_query(dev, &info);
	name = basename((char *)path);
	dot = strrchr(name, '.');
	if (dot)
		*dot = 0;
	if (json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "model", json_object_new_string(name));
		json_object_object_add(o, "backend",
				       json_object_new_string(info.backend));
		json_object_object_add(o, "rps1", json_object_new_double(drps1));
		json_object_object_add(o, "rps4", json_object_new_double(drps4));
		json_object_object_add(o, "ratio",
				       json_object_new_double(drps4 / drps1));
		json_object_object_add(o, "clock",
				       json_object_new_string(on_dev ? "device" : "wall"));
		if (on_dev) {
			json_object_object_add(o, "wall_rps1",
					       json_object_new_double(rps1));
			json_object_object_add(o, "wall_rps4",
					       json_object_new_double(rps4));
			json_object_object_add(o, "wall_ratio",
					       json_object_new_double(rps4 / rps1));
		}
		printf("%s\n", json_object_to_json_string_ext(o,
				JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	} else {
		printf("%ld rounds of %ld requests, best round each; %s on %s\n",
		       rounds, n, name, info.backend);
		printf("bench-pipeline: model=%s backend=%s rps1=%.0f rps4=%.0f ratio=%.2f clock=%s",
		       name, info.backend, drps1, drps4, drps4 / drps1,
		       on_dev ? "device" : "wall");
		if (on_dev)
			printf(" wall_rps1=%.0f wall_rps4=%.0f wall_ratio=%.2f",
			       rps1, rps4, rps4 / rps1);
		printf("\n");
	}
	for (j = 0; j < NREQ; j++) {
		vpux_request_destroy(b.req[j]);
		vpux_buffer_free(b.in[j]);
		vpux_buffer_free(b.out[j]);
	}
	vpux_network_unload(b.net);
	vpux_device_close(dev);
	free(b.app_in);
	free(b.app_out);
	free(b.first);
	return 0;
}
