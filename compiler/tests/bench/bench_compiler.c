// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * make bench: the compiler on the test models of compiler/models -- compile
 * time (median of several compiles) and in-process latency of the compiled
 * network (median of bind + submit + wait over repeated requests on random
 * device inputs), with the MACs the report counts. One line per model.
 *
 *	bench_compiler [--runs N] [MODEL_DIR...]
 *
 * Without directories: every SRCTOP/compiler/models/NAME/model.onnx.
 * A model with dim_params (dyn_mlp) is compiled with each bounded to
 * 1..DYN_MAX and run at DYN_MAX, then at the other sizes of dyn_sizes:
 * one line per size, from the same loaded network.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vpux.h"
#include "vpux_compiler.h"

#define DYN_MAX 64
static const unsigned int dyn_sizes[] = { DYN_MAX, 1, 16, 17 };

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
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

static unsigned long long report_macs(const char *rep)
{
	const char *p = rep ? strstr(rep, "\nMACs: ") : NULL;

	return p ? strtoull(p + 7, NULL, 10) : 0;
}

static int bench_one(const char *dir, int runs)
{
	char path[4096];
	double tc[16], tl[64];
	struct vpuxc_options o = { .report = 1 };
	struct vpuxc_symbol_bounds b[16];
	struct vpux_network_info info;
	unsigned int nsym = 0, sz, nsz = 1;
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	struct vpuxc_result r;
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *buf[16] = { 0 };
	unsigned int ni, no, i, k;
	unsigned long long macs;
	int ret = 0, c;

	snprintf(path, sizeof(path), "%s/model.onnx", dir);
	for (c = 0; c < 5; c++) {
		struct vpuxc_model *m;
		double t0 = now_ms();

		ret = vpuxc_import_file(path, &m);
		if (!ret) {
			for (nsym = 0; nsym < 16 && vpuxc_model_dim_param(m, nsym); nsym++) {
				b[nsym].name = vpuxc_model_dim_param(m, nsym);
				b[nsym].min = 1;
				b[nsym].max = DYN_MAX;
			}
			o.bounds = b;
			o.n_bounds = nsym;
			ret = vpuxc_compile(m, &o, &r);
			vpuxc_model_free(m);
		}
		tc[c] = now_ms() - t0;
		if (ret == VPUX_E_UNSUPPORTED) {
			/* partitioned models (a recipe) are not benchmarked here */
			printf("%-16s needs the CPU (a run recipe): skipped\n",
			       strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
			return 0;
		}
		if (ret) {
			printf("%-16s compile failed: %s\n", dir, vpux_last_error());
			return ret;
		}
		if (c < 4)
			vpuxc_result_fini(&r);
	}
	macs = report_macs(r.report);
	ret = vpux_device_open("inproc", &dev);
	ret = ret ? ret : vpux_network_load(dev, r.loadable, r.size, &net);
	ret = ret ? ret : vpux_request_create(net, &req);
	if (ret)
		goto out;
	ni = vpux_network_num_inputs(net);
	no = vpux_network_num_outputs(net);
	for (i = 0; !ret && i < ni + no && i < 16; i++) {
		struct vpux_tensor_desc d;
		unsigned char *p;

		ret = i < ni ? vpux_network_input(net, i, &d) :
		      vpux_network_output(net, i - ni, &d);
		ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &buf[i]);
		if (ret)
			break;
		p = vpux_buffer_map(buf[i]);
		for (k = 0; k < d.size; k++)
			p[k] = (unsigned char)(k * 2654435761u >> 24);
		ret = i < ni ? vpux_request_bind_input(req, i, buf[i], 0) :
		      vpux_request_bind_output(req, i - ni, buf[i], 0);
	}
	ret = ret ? ret : vpux_network_query(net, &info);
	if (!ret && info.num_symbols)
		nsz = sizeof(dyn_sizes) / sizeof(dyn_sizes[0]);
	for (sz = 0; !ret && sz < nsz; sz++) {
		struct vpux_symbol_info si;
		char label[64];
		double lat, scale = info.num_symbols ?
			     (double)dyn_sizes[sz] / DYN_MAX : 1.0;

		for (c = 0; !ret && c < runs + 1; c++) {
			double t0 = now_ms();

			for (i = 0; !ret && i < info.num_symbols; i++) {
				ret = vpux_network_symbol(net, i, &si);
				ret = ret ? ret : vpux_request_set_symbol(req, si.name,
									  dyn_sizes[sz]);
			}
			ret = ret ? ret : vpux_request_submit(req);
			ret = ret ? ret : vpux_request_wait(req, 120000);
			if (c)
				tl[c - 1] = now_ms() - t0;
		}
		if (ret)
			break;
		lat = median(tl, runs);
		if (info.num_symbols)	/* the report's MACs are at max */
			snprintf(label, sizeof(label), "%.12s@%u", name,
				 dyn_sizes[sz]);
		else
			snprintf(label, sizeof(label), "%s", name);
		printf("%-16s compile %7.2f ms  in-process %8.2f ms  %8.1f MMAC  %6.2f GMAC/s  %7zu-byte loadable\n",
		       label, median(tc, 5), lat, macs * scale / 1e6,
		       macs * scale / lat / 1e6, r.size);
	}
out:
	if (ret)
		printf("%-16s run failed: %s\n", dir, vpux_last_error());
	vpux_request_destroy(req);
	for (i = 0; i < 16; i++)
		vpux_buffer_free(buf[i]);
	vpux_network_unload(net);
	vpux_device_close(dev);
	vpuxc_result_fini(&r);
	return ret;
}

int main(int argc, char **argv)
{
	int runs = 5, i, bad = 0;

	if (argc > 2 && !strcmp(argv[1], "--runs")) {
		runs = atoi(argv[2]);
		if (runs < 1 || runs > 64)
			runs = 5;
		argv += 2;
		argc -= 2;
	}
	printf("bench_compiler: compile = import + compile (median of 5); in-process = bind + submit + wait of the model's NPU program on the in-process device (median of %d)\n",
	       runs);
	for (i = 1; i < argc; i++)
		bad |= bench_one(argv[i], runs) != 0;
	if (argc < 2) {
		const char *top = SRCTOP "/compiler/models";
		struct dirent **ents;
		int n = scandir(top, &ents, NULL, alphasort);

		for (i = 0; i < n; i++) {
			char dir[4096], f[4200];
			FILE *fp;

			snprintf(dir, sizeof(dir), "%s/%s", top, ents[i]->d_name);
			snprintf(f, sizeof(f), "%s/model.onnx", dir);
			fp = ents[i]->d_name[0] != '.' ? fopen(f, "rb") : NULL;
			if (fp) {
				fclose(fp);
				bad |= bench_one(dir, runs) != 0;
			}
			free(ents[i]);
		}
		if (n >= 0)
			free(ents);
	}
	return bad;
}
