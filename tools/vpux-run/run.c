// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-run: run a loadable through libvpux (in-process by default).
 *
 *	vpux-run [--device NAME] [--input FILE]... [--seed N]
 *		 [--output FILE]... [--check] [--repeat N] [--inflight N] [--top K]
 *		 [--json] [--trace FILE] [--timeline] NET.vpux
 *
 * Inputs come from files (in order) or a seeded generator; --check runs
 * the CPU reference on the same inputs and compares every output byte;
 * --repeat N prints host latency min/median/max and device cycles;
 * --inflight N keeps N requests on the one network in flight (same inputs,
 * own outputs, all checked) and prints requests per second.
 * --trace FILE writes the last run of every request as a Chrome
 * trace-event JSON file (Perfetto, chrome://tracing), --timeline draws it
 * in the terminal (timeline.c, Documentation/profiling.rst).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timeline.h"
#include "vpux.h"

#define MAX_IO 64
#define MAX_INFLIGHT 8	/* the engine core's task slots */

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

static int die(const char *what, int err)
{
	fprintf(stderr, "vpux-run: %s: %s: %s\n", what, vpux_strerror(err),
		vpux_last_error());
	return 1;
}

static void gen(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;

	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*b++ = (unsigned char)(seed >> 16);
	}
}

/*
 * --top K: the K largest elements of an 8-bit output (a classifier's
 * scores), with their index and dequantised value in thousandths.
 */
static void print_top(const struct vpux_tensor_desc *d, const void *data,
		      unsigned int k)
{
	const unsigned char *u = data;
	unsigned char taken[4096] = { 0 };
	size_t n = d->size < sizeof(taken) ? d->size : sizeof(taken), i;
	unsigned int r;

	if (d->data_type != 1 && d->data_type != 2)
		return;
	printf("top-%u of output '%s':\n", k, d->name);
	for (r = 0; r < k && r < n; r++) {
		size_t best = n;
		int bv = 0, v;

		for (i = 0; i < n; i++) {
			v = d->data_type == 2 ? (signed char)u[i] : u[i];
			if (!taken[i] && (best == n || v > bv)) {
				best = i;
				bv = v;
			}
		}
		taken[best] = 1;
		if (d->scale_shift < -31 || d->scale_shift > 31)
			printf("  #%u: class %zu, value %d (q)\n", r + 1, best, bv);
		else
			printf("  #%u: class %zu, value %d (q), %lld/1000 (real)\n",
			       r + 1, best, bv,
			       (long long)(bv - d->zero_point) * d->scale_mult *
			       1000 / (1ll << (31 + d->scale_shift)));
	}
}

/* --trace FILE and --timeline: the last run of each request */
static int show_timeline(struct vpux_device *dev, struct vpux_network *net,
			 struct vpux_request **reqs, int n, const char *path,
			 const char *trace, int print)
{
	struct tl_run runs[MAX_INFLIGHT];
	struct vpux_device_info info;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int j, got = 0, ret = 0;
	char name[64];

	if (vpux_device_query(dev, &info))
		return die("query", VPUX_E_DEVICE);
	for (j = 0; j < n; j++) {
		snprintf(name, sizeof(name), "request %d: %s", j, base);
		ret = tl_collect(net, reqs[j], name, &runs[j]);
		if (ret) {
			die("op times", ret);
			break;
		}
		got++;
	}
	if (!ret && trace) {
		FILE *f = fopen(trace, "w");

		if (!f || tl_write_trace(f, runs, (unsigned int)got,
					 info.engines)) {
			fprintf(stderr, "vpux-run: cannot write %s\n", trace);
			ret = VPUX_E_IO;
		}
		if (f && fclose(f) && !ret) {
			fprintf(stderr, "vpux-run: cannot write %s\n", trace);
			ret = VPUX_E_IO;
		}
	}
	for (j = 0; !ret && print && j < got; j++)
		tl_print(stdout, &runs[j], info.engines, 64);
	for (j = 0; j < got; j++)
		tl_run_free(&runs[j]);
	return ret != 0;
}

int main(int argc, char **argv)
{
	const char *dev_name = "inproc", *path = NULL;
	const char *in_files[MAX_IO], *out_files[MAX_IO];
	unsigned int n_in_files = 0, n_out_files = 0, seed = 1, i, k;
	int check = 0, json = 0, repeat = 1, ret, bad_total = 0, inflight = 1;
	int top = 0, timeline = 0;
	const char *trace = NULL;
	struct vpux_buffer *xb[MAX_INFLIGHT][MAX_IO];
	struct vpux_request *xr[MAX_INFLIGHT];
	double t_all;
	int j;
	struct vpux_buffer *ib[MAX_IO], *ob[MAX_IO];
	void *refout[MAX_IO], *inptr[MAX_IO];
	struct vpux_tensor_desc d;
	struct vpux_request_status st;
	struct vpux_network *net;
	struct vpux_device *dev;
	struct vpux_request *req;
	double *lat;
	unsigned int nin, nout;

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < (unsigned int)argc;

		if (!strcmp(a, "--device") && more)
			dev_name = argv[++i];
		else if (!strcmp(a, "--input") && more && n_in_files < MAX_IO)
			in_files[n_in_files++] = argv[++i];
		else if (!strcmp(a, "--output") && more && n_out_files < MAX_IO)
			out_files[n_out_files++] = argv[++i];
		else if (!strcmp(a, "--seed") && more)
			seed = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--repeat") && more)
			repeat = atoi(argv[++i]);
		else if (!strcmp(a, "--inflight") && more)
			inflight = atoi(argv[++i]);
		else if (!strcmp(a, "--check"))
			check = 1;
		else if (!strcmp(a, "--top") && more)
			top = atoi(argv[++i]);
		else if (!strcmp(a, "--json"))
			json = 1;
		else if (!strcmp(a, "--trace") && more)
			trace = argv[++i];
		else if (!strcmp(a, "--timeline"))
			timeline = 1;
		else if (a[0] != '-' && !path)
			path = a;
		else {
			fprintf(stderr, "usage: vpux-run [--device NAME] [--input FILE]... [--seed N] [--output FILE]... [--check] [--repeat N] [--inflight N] [--top K] [--json] [--trace FILE] [--timeline] NET.vpux\n");
			return 2;
		}
	}
	if (!path || repeat < 1 || inflight < 1 || inflight > MAX_INFLIGHT) {
		fprintf(stderr, "vpux-run: no loadable, or --repeat/--inflight (1..%d) out of range\n",
			MAX_INFLIGHT);
		return 2;
	}
	ret = vpux_device_open(dev_name, &dev);
	if (ret)
		return die(dev_name, ret);
	ret = vpux_network_load_file(dev, path, &net);
	if (ret) {
		vpux_device_close(dev);
		return die(path, ret);
	}
	nin = vpux_network_num_inputs(net);
	nout = vpux_network_num_outputs(net);
	ret = vpux_request_create(net, &req);
	for (i = 0; !ret && i < nin; i++) {
		vpux_network_input(net, i, &d);
		ret = vpux_buffer_alloc(dev, d.size, &ib[i]);
		if (ret)
			break;
		inptr[i] = vpux_buffer_map(ib[i]);
		if (i < n_in_files) {
			FILE *f = fopen(in_files[i], "rb");
			size_t got = f ? fread(inptr[i], 1, d.size, f) : 0;

			if (f)
				fclose(f);
			if (got != d.size) {
				fprintf(stderr, "vpux-run: %s: need %llu bytes for input '%s'\n",
					in_files[i], (unsigned long long)d.size,
					d.name);
				return 1;
			}
		} else {
			gen(inptr[i], d.size, seed + i);
		}
		ret = vpux_request_bind_input(req, i, ib[i], 0);
	}
	for (i = 0; !ret && i < nout; i++) {
		vpux_network_output(net, i, &d);
		ret = vpux_buffer_alloc(dev, d.size, &ob[i]);
		if (!ret)
			ret = vpux_request_bind_output(req, i, ob[i], 0);
	}
	/* more requests on the same network: shared inputs, own outputs */
	xr[0] = req;
	for (j = 1; !ret && j < inflight; j++) {
		ret = vpux_request_create(net, &xr[j]);
		for (i = 0; !ret && i < nin; i++)
			ret = vpux_request_bind_input(xr[j], i, ib[i], 0);
		for (i = 0; !ret && i < nout; i++) {
			vpux_network_output(net, i, &d);
			ret = vpux_buffer_alloc(dev, d.size, &xb[j][i]);
			if (!ret)
				ret = vpux_request_bind_output(xr[j], i,
							       xb[j][i], 0);
		}
	}
	if (ret)
		return die("setup", ret);
	lat = calloc(repeat, sizeof(*lat));
	t_all = now_us();
	for (k = 0; k < (unsigned int)repeat; k++) {
		double t0 = now_us();

		for (j = 0; !ret && j < inflight; j++)
			ret = vpux_request_submit(xr[j]);
		for (j = 0; !ret && j < inflight; j++)
			ret = vpux_request_wait(xr[j], 10000);
		lat[k] = now_us() - t0;
		if (ret)
			return die("run", ret);
	}
	t_all = now_us() - t_all;
	for (j = 1; j < inflight; j++)
		for (i = 0; i < nout; i++) {
			vpux_network_output(net, i, &d);
			if (memcmp(vpux_buffer_map(xb[j][i]),
				   vpux_buffer_map(ob[i]), d.size)) {
				fprintf(stderr, "vpux-run: request %d output %u differs from request 0's\n",
					j, i);
				bad_total++;
			}
		}
	vpux_request_status(req, &st);
	for (i = 0; i < nout && i < n_out_files; i++) {
		FILE *f = fopen(out_files[i], "wb");

		vpux_network_output(net, i, &d);
		if (!f || fwrite(vpux_buffer_map(ob[i]), 1, d.size, f) != d.size) {
			fprintf(stderr, "vpux-run: cannot write %s\n", out_files[i]);
			return 1;
		}
		fclose(f);
	}
	if (check) {
		for (i = 0; i < nout; i++) {
			vpux_network_output(net, i, &d);
			refout[i] = calloc(1, d.size);
		}
		ret = vpux_network_run_reference(net, (const void *const *)inptr,
						 refout);
		if (ret)
			return die("reference", ret);
		for (i = 0; i < nout; i++) {
			size_t b, bad = 0;
			const unsigned char *x = vpux_buffer_map(ob[i]);
			const unsigned char *y = refout[i];

			vpux_network_output(net, i, &d);
			for (b = 0; b < d.size; b++)
				bad += x[b] != y[b];
			if (!json)
				printf("check: output %u '%s': %zu of %llu bytes differ from the CPU reference%s\n",
				       i, d.name, bad, (unsigned long long)d.size,
				       bad ? "" : " (bit-exact)");
			bad_total += bad != 0;
			free(refout[i]);
		}
	}
	if (top > 0 && !json && nout) {
		vpux_network_output(net, 0, &d);
		print_top(&d, vpux_buffer_map(ob[0]), (unsigned int)top);
	}
	if ((trace || timeline) && show_timeline(dev, net, xr, inflight, path,
						 trace, timeline && !json))
		bad_total++;
	qsort(lat, repeat, sizeof(*lat), cmp_d);
	if (json) {
		json_object *o = json_object_new_object(), *ops;
		unsigned int kind, n_times = 0, at = 0;
		struct vpux_op_time *times;

		for (kind = 0; kind < 3; kind++)
			n_times += vpux_network_num_ops(net, kind);
		times = calloc(n_times ? n_times : 1, sizeof(*times));
		/* a kernel without op times (uapi < 1.8): cycles only */
		if (times && vpux_request_op_times(req, times, n_times)) {
			free(times);
			times = NULL;
		}

		json_object_object_add(o, "loadable", json_object_new_string(path));
		json_object_object_add(o, "device", json_object_new_string(dev_name));
		json_object_object_add(o, "repeat", json_object_new_int(repeat));
		json_object_object_add(o, "latency_us_min", json_object_new_double(lat[0]));
		json_object_object_add(o, "latency_us_median",
				       json_object_new_double(lat[repeat / 2]));
		json_object_object_add(o, "latency_us_max",
				       json_object_new_double(lat[repeat - 1]));
		json_object_object_add(o, "device_cycles",
				       json_object_new_int64((int64_t)st.device_cycles));
		json_object_object_add(o, "op_cycles",
				       json_object_new_int64((int64_t)st.op_cycles));
		json_object_object_add(o, "inflight", json_object_new_int(inflight));
		json_object_object_add(o, "requests_per_s",
				       json_object_new_double(inflight * repeat * 1e6 / t_all));
		ops = json_object_new_array();
		for (kind = 0; kind < 3; kind++)
			for (i = 0; i < vpux_network_num_ops(net, kind); i++) {
				json_object *e = json_object_new_object();
				uint32_t c = 0;

				vpux_request_op_cycles(req, kind, i, &c);
				json_object_object_add(e, "engine",
						       json_object_new_string(kind == 0 ? "dma" : kind == 1 ? "dpu" : "shave"));
				json_object_object_add(e, "index", json_object_new_int(i));
				json_object_object_add(e, "cycles", json_object_new_int64(c));
				if (times && at < n_times) {
					json_object_object_add(e, "engine_index",
							       json_object_new_int64(times[at].engine == VPUX_OP_NOT_RUN ? -1 : (int64_t)times[at].engine));
					json_object_object_add(e, "start_cycle",
							       json_object_new_int64((int64_t)times[at].start));
					json_object_object_add(e, "end_cycle",
							       json_object_new_int64((int64_t)times[at].end));
				}
				at++;
				json_object_array_add(ops, e);
			}
		json_object_object_add(o, "ops", ops);
		free(times);
		if (check)
			json_object_object_add(o, "check_ok",
					       json_object_new_boolean(!bad_total));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	} else {
		printf("ran %s %d time(s) on %s: latency min %.1f us, median %.1f us, max %.1f us\n",
		       path, repeat, dev_name, lat[0], lat[repeat / 2],
		       lat[repeat - 1]);
		printf("device: %llu cycles (ops %llu cycles, %u ops)\n",
		       (unsigned long long)st.device_cycles,
		       (unsigned long long)st.op_cycles, st.ops_done);
		if (inflight > 1 || repeat > 1)
			printf("throughput: %.0f requests/s with %d in flight\n",
			       inflight * repeat * 1e6 / t_all, inflight);
	}
	free(lat);
	for (j = 1; j < inflight; j++) {
		vpux_request_destroy(xr[j]);
		for (i = 0; i < nout; i++)
			vpux_buffer_free(xb[j][i]);
	}
	vpux_request_destroy(req);
	for (i = 0; i < nin; i++)
		vpux_buffer_free(ib[i]);
	for (i = 0; i < nout; i++)
		vpux_buffer_free(ob[i]);
	vpux_network_unload(net);
	vpux_device_close(dev);
	return bad_total ? 3 : 0;
}
