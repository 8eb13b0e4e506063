// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-run: run a loadable through libvpux (in-process by default).
 *
 *	vpux-run [-d DEV] [-i FILE]... [-s N] [-o FILE]... [-c] [-r N]
 *		 [-n N] [-t K] [-j] [--trace FILE] [--timeline] NET.vpux
 *							(vpux-run(1))
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
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "recipe.h"
#include "timeline.h"
#include "vpux.h"
#include "vpux_cli.h"

#define PROG "vpux-run"

/* long options without a short form */
enum { OPT_TRACE = VPUX_OPT_VERSION + 1, OPT_TIMELINE, OPT_RECIPE,
       OPT_SYMBOL, OPT_INPUT_SHAPE };

#define MAX_IO 64
#define MAX_INFLIGHT 8	/* the engine core's task slots */
#define MAX_BINDS 16	/* --symbol and --input-shape options */

double run_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int run_cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int die(const char *what, int err)
{
	vpux_cli_err(PROG, "%s: %s: %s", what, vpux_strerror(err),
		     vpux_last_error());
	return VPUX_EXIT_FAIL;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vpux-run [OPTION]... NET.vpux\n"
		"       vpux-run [OPTION]... --recipe FILE [-i NAME=FILE]... [-o NAME=FILE]...\n"
		"Run a loadable or a run recipe through libvpux; see vpux-run(1).\n"
		"  -d, --device DEV    inproc (default), auto, /dev/accel/accelN or N\n"
		"  -i, --input FILE    input tensor i from FILE (repeat, in order)\n"
		"  -s, --seed N        seed of generated inputs (default 1)\n"
		"  -o, --output FILE   write output tensor i to FILE (repeat)\n"
		"  -c, --check         compare every output with the CPU reference\n"
		"  -r, --repeat N      run N times, print latency min/median/max\n"
		"  -n, --inflight N    N requests in flight (1..%d)\n"
		"  -t, --top K         print the K largest values of output 0\n"
		"  -j, --json          print the results as JSON\n"
		"      --trace FILE    write the timeline as Chrome trace-event JSON\n"
		"      --timeline      draw the timeline in the terminal\n"
		"      --recipe FILE   run the run recipe FILE; -i/-o take NAME=FILE\n"
		"      --symbol NAME=VALUE\n"
		"                      bind a symbol of a dynamic network (repeat)\n"
		"      --input-shape INDEX=D0xD1x...\n"
		"                      input INDEX's actual shape: binds the symbols\n"
		"                      its dynamic dims name (repeat)\n"
		"  -h, --help          print this help and exit\n"
		"      --version       print the version and exit\n"
		"Exit status: 0 ok, 1 error, 2 usage error, 3 outputs differ.\n",
		MAX_INFLIGHT);
}

/* a usage error: "vpux-run: MSG", then the usage, exit status 2 */
static int __attribute__((format(printf, 1, 2))) usage_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	return VPUX_EXIT_USAGE;
}

static int parse_int(const char *s, long long lo, long long hi, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 0);
	return errno || end == s || *end || *out < lo || *out > hi;
}

/* --symbol NAME=VALUE and --input-shape INDEX=D0xD1x... */
struct bind {
	const char *arg;
	char name[32];
	unsigned long long value;
	unsigned int index;
	struct vpux_shape shape;
};

static int parse_symbol(const char *arg, struct bind *b)
{
	const char *eq = strchr(arg, '=');
	char *end;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(b->name) ||
	    !eq[1] || eq[1] == '-')
		return -1;
	b->arg = arg;
	memcpy(b->name, arg, eq - arg);
	b->name[eq - arg] = 0;
	errno = 0;
	b->value = strtoull(eq + 1, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_shape(const char *arg, struct bind *b)
{
	const char *p;
	char *end;
	long long v;

	b->arg = arg;
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end != '=' || v < 0 || v >= MAX_IO)
		return -1;
	b->index = (unsigned int)v;
	memset(&b->shape, 0, sizeof(b->shape));
	for (p = end + 1;; p = end + 1) {
		if (b->shape.rank == VPUX_MAX_RANK || *p < '0' || *p > '9')
			return -1;
		errno = 0;
		b->shape.d[b->shape.rank++] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		if (!*end)
			return 0;
		if (*end != 'x')
			return -1;
	}
}

/* bind every --symbol, then every --input-shape, on @req */
static int apply_binds(struct vpux_request *req, const struct bind *sym,
		       int n_sym, const struct bind *shp, int n_shp)
{
	int k, ret;

	for (k = 0; k < n_sym; k++) {
		ret = vpux_request_set_symbol(req, sym[k].name, sym[k].value);
		if (ret)
			return die(sym[k].arg, ret);
	}
	for (k = 0; k < n_shp; k++) {
		ret = vpux_request_set_input_shape(req, shp[k].index,
						   &shp[k].shape);
		if (ret)
			return die(shp[k].arg, ret);
	}
	return 0;
}

/* bits of one element of VPUX_DT_* @dt */
static unsigned int elem_bits(uint32_t dt)
{
	return dt == VPUX_DT_I32 || dt == VPUX_DT_F32 ? 32 :
	       dt == VPUX_DT_F16 ? 16 : 8;
}

/*
 * Bytes of @d's buffer that @shape spans (the tensor's strides, those of
 * the max shape): with only the outermost dim dynamic, a dense prefix.
 */
static size_t shape_extent(const struct vpux_tensor_desc *d,
			   const struct vpux_shape *shape)
{
	unsigned int bits = elem_bits(d->data_type), i;
	uint64_t span = bits;

	for (i = 0; i < shape->rank && i < d->strides.rank; i++) {
		if (!shape->d[i])
			return 0;
		span += (shape->d[i] - 1) * d->strides.bits[i];
	}
	span = (span + 7) / 8;
	return span < d->size ? (size_t)span : (size_t)d->size;
}

static void shape_str(const struct vpux_shape *s, char *buf, size_t n)
{
	size_t at = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < s->rank && at < n; i++)
		at += snprintf(buf + at, n - at, "%s%llu", i ? "x" : "",
			       (unsigned long long)s->d[i]);
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
 * A generated input of a float type (vpux-asm.rst, "vpux-run"): the
 * same byte stream, each element made finite: random sign and mantissa,
 * a magnitude in [2^-4, 2^2) (the exponent field from the element's own
 * bits, folded into six values).
 */
static void gen_input(const struct vpux_tensor_desc *d, void *p,
		      unsigned int seed)
{
	unsigned char *b = p;
	size_t i;

	gen(p, d->size, seed);
	if (d->data_type == VPUX_DT_F16) {
		for (i = 0; i + 2 <= d->size; i += 2) {
			unsigned int h = b[i] | b[i + 1] << 8;
			unsigned int e = 11 + (h >> 10 & 0x1f) % 6;

			h = (h & 0x83ff) | e << 10;
			b[i] = (unsigned char)h;
			b[i + 1] = (unsigned char)(h >> 8);
		}
	} else if (d->data_type == VPUX_DT_F32) {
		for (i = 0; i + 4 <= d->size; i += 4) {
			uint32_t w = b[i] | b[i + 1] << 8 | b[i + 2] << 16 |
				     (uint32_t)b[i + 3] << 24;
			uint32_t e = 123 + (w >> 23 & 0xff) % 6;

			w = (w & 0x807fffffu) | e << 23;
			memcpy(b + i, &w, 4);
		}
	}
}

/* element @i of a float output as a double (FP16 or FP32, little endian) */
static double float_at(const struct vpux_tensor_desc *d, const void *data,
		       size_t i)
{
	const unsigned char *b = data;
	uint32_t w, e, m;
	float f;

	if (d->data_type == VPUX_DT_F32) {
		memcpy(&w, b + 4 * i, 4);
	} else {
		/* FP16 -> FP32 bits, exactly */
		w = b[2 * i] | b[2 * i + 1] << 8;
		e = w >> 10 & 0x1f;
		m = w & 0x3ff;
		if (e == 0x1f) {
			e = 0xff;
		} else if (e) {
			e += 112;
		} else if (m) {
			for (e = 113; !(m & 0x400); e--)
				m <<= 1;
			m &= 0x3ff;
		}
		w = (w & 0x8000) << 16 | e << 23 | m << 13;
	}
	memcpy(&f, &w, 4);
	return f;
}

/*
 * the full name of input or output @i (API 1.8: a compiled model's own,
 * of any length), not vpux_tensor_desc.name's 31 bytes
 */
static const char *io_name(const struct vpux_network *net, int is_output,
			   unsigned int i)
{
	const char *n;

	return vpux_network_io_name(net, is_output, i, &n) ? "?" : n;
}

/* --top K of a float output: the K largest values (NaN last) */
static void print_top_float(const struct vpux_tensor_desc *d,
			    const char *name, const void *data, unsigned int k)
{
	unsigned char taken[4096] = { 0 };
	size_t n = d->size / (elem_bits(d->data_type) / 8), i;
	unsigned int r;

	if (n > sizeof(taken))
		n = sizeof(taken);
	printf("top-%u of output '%s':\n", k, name);
	for (r = 0; r < k && r < n; r++) {
		size_t best = n;
		double bv = 0, v;

		for (i = 0; i < n; i++) {
			v = float_at(d, data, i);
			if (!taken[i] && (best == n || v > bv ||
					  (bv != bv && v == v))) {
				best = i;
				bv = v;
			}
		}
		taken[best] = 1;
		printf("  #%u: class %zu, value %.6g\n", r + 1, best, bv);
	}
}

/*
 * --top K: the K largest elements of an 8-bit output (a classifier's
 * scores), with their index and dequantised value in thousandths.
 */
static void print_top(const struct vpux_tensor_desc *d, const char *name,
		      const void *data, unsigned int k)
{
	const unsigned char *u = data;
	unsigned char taken[4096] = { 0 };
	size_t n = d->size < sizeof(taken) ? d->size : sizeof(taken), i;
	unsigned int r;

	if (d->data_type == VPUX_DT_F16 || d->data_type == VPUX_DT_F32) {
		print_top_float(d, name, data, k);
		return;
	}
	if (d->data_type != VPUX_DT_U8 && d->data_type != VPUX_DT_I8)
		return;
	printf("top-%u of output '%s':\n", k, name);
	for (r = 0; r < k && r < n; r++) {
		size_t best = n;
		int bv = 0, v;

		for (i = 0; i < n; i++) {
			v = d->data_type == VPUX_DT_I8 ? (signed char)u[i] : u[i];
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
	const char *trace = NULL, *recipe = NULL;
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
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "inflight", required_argument, NULL, 'n' },
		{ "check", no_argument, NULL, 'c' },
		{ "top", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "timeline", no_argument, NULL, OPT_TIMELINE },
		{ "recipe", required_argument, NULL, OPT_RECIPE },
		{ "symbol", required_argument, NULL, OPT_SYMBOL },
		{ "input-shape", required_argument, NULL, OPT_INPUT_SHAPE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VPUX_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	char dev_buf[32];
	long long v;
	int c;
	struct bind syms[MAX_BINDS], shapes[MAX_BINDS];
	int n_syms = 0, n_shapes = 0, dynamic = 0;
	struct vpux_shape oshape[MAX_IO];
	size_t oext[MAX_IO];
	struct vpux_network_info ninfo;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:i:o:s:r:n:ct:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev_name = vpux_cli_device(optarg, dev_buf, sizeof(dev_buf));
			if (!dev_name)
				return usage_err("bad device '%s'", optarg);
			break;
		case 'i':
			if (n_in_files == MAX_IO)
				return usage_err("more than %d --input files", MAX_IO);
			in_files[n_in_files++] = optarg;
			break;
		case 'o':
			if (n_out_files == MAX_IO)
				return usage_err("more than %d --output files", MAX_IO);
			out_files[n_out_files++] = optarg;
			break;
		case 's':
			if (parse_int(optarg, 0, UINT32_MAX, &v))
				return usage_err("bad --seed '%s'", optarg);
			seed = (unsigned int)v;
			break;
		case 'r':
			if (parse_int(optarg, 1, 100000000, &v))
				return usage_err("bad --repeat '%s' (1..100000000)", optarg);
			repeat = (int)v;
			break;
		case 'n':
			if (parse_int(optarg, 1, MAX_INFLIGHT, &v))
				return usage_err("bad --inflight '%s' (1..%d)", optarg,
						 MAX_INFLIGHT);
			inflight = (int)v;
			break;
		case 'c':
			check = 1;
			break;
		case 't':
			if (parse_int(optarg, 1, 4096, &v))
				return usage_err("bad --top '%s' (1..4096)", optarg);
			top = (int)v;
			break;
		case 'j':
			json = 1;
			break;
		case OPT_TRACE:
			trace = optarg;
			break;
		case OPT_TIMELINE:
			timeline = 1;
			break;
		case OPT_RECIPE:
			recipe = optarg;
			break;
		case OPT_SYMBOL:
			if (n_syms == MAX_BINDS)
				return usage_err("more than %d --symbol options", MAX_BINDS);
			if (parse_symbol(optarg, &syms[n_syms++]))
				return usage_err("bad --symbol '%s' (NAME=VALUE, VALUE a number >= 0)",
						 optarg);
			break;
		case OPT_INPUT_SHAPE:
			if (n_shapes == MAX_BINDS)
				return usage_err("more than %d --input-shape options", MAX_BINDS);
			if (parse_shape(optarg, &shapes[n_shapes++]))
				return usage_err("bad --input-shape '%s' (INDEX=D0xD1x..., at most %d dims)",
						 optarg, VPUX_MAX_RANK);
			break;
		case 'h':
			usage(stdout);
			return VPUX_EXIT_OK;
		case VPUX_OPT_VERSION:
			vpux_cli_version(PROG);
			return VPUX_EXIT_OK;
		default:
			vpux_cli_bad_option(PROG, c, argv);
			usage(stderr);
			return VPUX_EXIT_USAGE;
		}
	}
	if (recipe) {
		if (optind < argc)
			return usage_err("a recipe or a loadable, not both ('%s')",
					 argv[optind]);
		if (inflight > 1 || top || trace || timeline || n_syms || n_shapes)
			return usage_err("--inflight, --top, --trace, --timeline, --symbol and --input-shape run a loadable, not a recipe");
		return run_recipe(dev_name, recipe, in_files, n_in_files,
				  out_files, n_out_files, check, repeat, json);
	}
	if (optind == argc)
		return usage_err("no loadable given");
	if (optind + 1 < argc)
		return usage_err("one loadable only ('%s' too)", argv[optind + 1]);
	path = argv[optind];
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
	ret = vpux_network_query(net, &ninfo);
	if (ret) {
		vpux_network_unload(net);
		vpux_device_close(dev);
		return die(path, ret);
	}
	dynamic = ninfo.num_symbols > 0;
	if (!dynamic && (n_syms || n_shapes)) {
		vpux_cli_err(PROG, "%s: --symbol/--input-shape: the network has no symbols",
			     path);
		vpux_network_unload(net);
		vpux_device_close(dev);
		return VPUX_EXIT_FAIL;
	}
	ret = vpux_request_create(net, &req);
	if (!ret && dynamic && apply_binds(req, syms, n_syms, shapes, n_shapes)) {
		vpux_request_destroy(req);
		vpux_network_unload(net);
		vpux_device_close(dev);
		return VPUX_EXIT_FAIL;
	}
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
				vpux_cli_err(PROG, "%s: need %llu bytes for input '%s'",
					     in_files[i], (unsigned long long)d.size,
					     io_name(net, 0, i));
				return VPUX_EXIT_FAIL;
			}
		} else {
			gen_input(&d, inptr[i], seed + i);
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
		if (!ret && dynamic &&
		    apply_binds(xr[j], syms, n_syms, shapes, n_shapes))
			return VPUX_EXIT_FAIL;
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
	t_all = run_now_us();
	for (k = 0; k < (unsigned int)repeat; k++) {
		double t0 = run_now_us();

		for (j = 0; !ret && j < inflight; j++)
			ret = vpux_request_submit(xr[j]);
		for (j = 0; !ret && j < inflight; j++)
			ret = vpux_request_wait(xr[j], 10000);
		lat[k] = run_now_us() - t0;
		if (ret) {
			unsigned int cat = VPUX_ERROR_NONE;
			uint32_t detail = 0;
			int rc = die("run", ret);

			/* the failed request's category: what a script checks */
			if (j > 0 && !vpux_request_error(xr[j - 1], &cat, &detail) &&
			    cat != VPUX_ERROR_NONE)
				vpux_cli_err(PROG, "run: error category %s, detail %u",
					     vpux_error_category_name(cat), detail);
			return rc;
		}
	}
	t_all = run_now_us() - t_all;
	for (j = 1; j < inflight; j++)
		for (i = 0; i < nout; i++) {
			vpux_network_output(net, i, &d);
			if (memcmp(vpux_buffer_map(xb[j][i]),
				   vpux_buffer_map(ob[i]), d.size)) {
				vpux_cli_err(PROG, "request %d output %u differs from request 0's",
					     j, i);
				bad_total++;
			}
		}
	vpux_request_status(req, &st);
	/* the actual output shapes: all of the buffer for a static network */
	for (i = 0; i < nout; i++) {
		vpux_network_output(net, i, &d);
		oshape[i] = d.shape;
		oext[i] = d.size;
		if (!dynamic)
			continue;
		ret = vpux_request_output_shape(req, i, &oshape[i]);
		if (ret)
			return die("output shape", ret);
		oext[i] = shape_extent(&d, &oshape[i]);
	}
	for (i = 0; i < nout && i < n_out_files; i++) {
		FILE *f = fopen(out_files[i], "wb");

		vpux_network_output(net, i, &d);
		if (!f || fwrite(vpux_buffer_map(ob[i]), 1, oext[i], f) != oext[i]) {
			vpux_cli_err(PROG, "cannot write %s", out_files[i]);
			return VPUX_EXIT_FAIL;
		}
		fclose(f);
	}
	if (check) {
		for (i = 0; i < nout; i++) {
			vpux_network_output(net, i, &d);
			refout[i] = calloc(1, d.size);
		}
		/* a dynamic network: the reference at the bound sizes */
		ret = dynamic ?
		      vpux_request_run_reference(req, (const void *const *)inptr,
						 refout) :
		      vpux_network_run_reference(net, (const void *const *)inptr,
						 refout);
		if (ret)
			return die("reference", ret);
		for (i = 0; i < nout; i++) {
			size_t b, bad = 0;
			const unsigned char *x = vpux_buffer_map(ob[i]);
			const unsigned char *y = refout[i];

			vpux_network_output(net, i, &d);
			/* the shapes too: a kernel may compute one */
			if (dynamic) {
				struct vpux_shape rs;
				char s1[160], s2[160];
				unsigned int k, diff;

				ret = vpux_request_reference_output_shape(req, i, &rs);
				if (ret)
					return die("reference shape", ret);
				diff = rs.rank != oshape[i].rank;
				for (k = 0; !diff && k < rs.rank; k++)
					diff = rs.d[k] != oshape[i].d[k];
				if (diff) {
					shape_str(&oshape[i], s1, sizeof(s1));
					shape_str(&rs, s2, sizeof(s2));
					vpux_cli_err(PROG, "output %u '%s': shape %s, the CPU reference's is %s",
						     i, io_name(net, 1, i), s1, s2);
					bad_total++;
				}
			}
			/* the bytes the actual shape spans */
			for (b = 0; b < oext[i]; b++)
				bad += x[b] != y[b];
			if (!json)
				printf("check: output %u '%s': %zu of %llu bytes differ from the CPU reference%s\n",
				       i, io_name(net, 1, i), bad,
				       (unsigned long long)oext[i],
				       bad ? "" : " (bit-exact)");
			bad_total += bad != 0;
			free(refout[i]);
		}
	}
	if (top > 0 && !json && nout) {
		vpux_network_output(net, 0, &d);
		print_top(&d, io_name(net, 1, 0), vpux_buffer_map(ob[0]),
			  (unsigned int)top);
	}
	if ((trace || timeline) && show_timeline(dev, net, xr, inflight, path,
						 trace, timeline && !json))
		bad_total++;
	qsort(lat, repeat, sizeof(*lat), run_cmp_d);
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
		ops = json_object_new_array();
		for (i = 0; i < nout; i++) {
			json_object *e = json_object_new_array();

			for (k = 0; k < oshape[i].rank; k++)
				json_object_array_add(e, json_object_new_int64((int64_t)oshape[i].d[k]));
			json_object_array_add(ops, e);
		}
		json_object_object_add(o, "output_shapes", ops);
		if (dynamic) {
			json_object *sy = json_object_new_object();

			for (j = 0; j < n_syms; j++)
				json_object_object_add(sy, syms[j].name,
						       json_object_new_int64((int64_t)syms[j].value));
			json_object_object_add(o, "symbols", sy);
		}
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
		for (i = 0; dynamic && i < nout; i++) {
			char sh[160];

			vpux_network_output(net, i, &d);
			shape_str(&oshape[i], sh, sizeof(sh));
			printf("output %u '%s': shape %s (%zu bytes)\n", i,
			       io_name(net, 1, i), sh, oext[i]);
		}
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
