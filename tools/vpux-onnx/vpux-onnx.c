// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-onnx: compile ONNX models for the NPU, run them, and run the ONNX
 * backend tests (Documentation/vpux-onnx.rst).
 *
 *	vpux-onnx compile MODEL.onnx -o OUT.vpuxl|DIR|NAME.json [--report]
 *			  [--vasm FILE] [--name NAME] [--no-cmx] [--fold NAME=FILE]...
 *			  [--symbol-bounds NAME=MIN..MAX]... [--tile N]
 *			  [--no-cpu-fallback] [--cmx-tiles N] [--kernels DIR]
 *	vpux-onnx run MODEL.onnx|NET.vpuxl|RECIPE.json --input NAME=FILE...
 *		      --output-dir DIR [--device inproc|/dev/accel/accelN] [--json]
 *		      [--symbol-bounds NAME=MIN..MAX]...
 *	vpux-onnx test DIR... [--device ...] [--json] [--symbol-bounds ...]...
 *		       [--rel-l2 TOL] [--no-cpu-fallback]
 *
 * A model with dim_params (dynamic axes) needs the bounds of each one; it
 * compiles to a plan, and run/test bind each symbol from the shape of the
 * input tensor given for it (Documentation/compiler.rst, "Dynamic axes").
 *
 * A model the NPU cannot run whole compiles to a run recipe (NPU
 * loadables and CPU functions, vpuxc_partition()) that run and test
 * execute with libvpux's runner; --report says where each node runs and
 * why, --no-cpu-fallback makes any node off the NPU a compile error.
 *
 * Exit status: 0 ok, 1 a test or comparison failed, 2 usage (bad
 * arguments, unreadable or malformed input files), 3 compile error (the
 * model cannot be imported or compiled), 4 runtime or device error.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hostconv.h"
#include "vpux.h"
#include "vpux_cli.h"
#include "vpux_compiler.h"

#define EXIT_FAIL	1
#define EXIT_USAGE	2
#define EXIT_COMPILE	3
#define EXIT_RUNTIME	4

#define MAX_INPUTS	256
#define MAX_IO		64	/* inputs or outputs of a loadable */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vpux-onnx compile MODEL.onnx -o OUT.vpuxl|DIR|NAME.json [--report]\n"
		"                         [--vasm FILE] [--name NAME] [--no-cmx] [--fold NAME=FILE]...\n"
		"                         [--symbol-bounds NAME=MIN..MAX]... [--tile N]\n"
		"                         [--no-cpu-fallback] [--cmx-tiles N] [--kernels DIR]\n"
		"       vpux-onnx run MODEL.onnx|NET.vpuxl|RECIPE.json --input NAME=FILE...\n"
		"                     --output-dir DIR [-d DEV] [--json] [--symbol-bounds B]...\n"
		"       vpux-onnx test DIR... [-d DEV] [--json] [--symbol-bounds B]...\n"
		"                      [--rel-l2 TOL] [--no-cpu-fallback]\n"
		"       vpux-onnx --help | --version\n"
		"\n"
		"DEV: inproc (default), auto, /dev/accel/accelN or N; see vpux-onnx(1).\n"
		"A model the NPU cannot run whole compiles to a run recipe: -o DIR\n"
		"(DIR/recipe.json) or -o NAME.json, loadables next to it.\n"
		"--no-cpu-fallback: fail (exit 3) if any node would leave the NPU.\n"
		"--kernels DIR: a com.vpux node runs the SHAVE ELF kernel DIR/OPTYPE.elf\n"
		"(compile, run and test take it).\n"
		"--cmx-tiles N: tile into CMX tiles 0..N-1 only (N <= half the tiles:\n"
		"requests of the network run at once on disjoint tiles).\n"
		"--symbol-bounds NAME=MIN..MAX bounds an ONNX dim_param (dynamic axis);\n"
		"the size of a run is that of the input tensor given for it.\n"
		"Tensor files are ONNX TensorProto (.pb) or NumPy (.npy: <f4 |u1 |i1 <i4 <i8).\n"
		"Exit status: 0 ok, 1 test/comparison failed, 2 usage or bad input file,\n"
		"3 compile error (unsupported model), 4 runtime or device error.\n");
}

/* --symbol-bounds and --tile, shared by compile, run and test */
static struct vpuxc_symbol_bounds g_bounds[16];
static char g_bound_args[16][96];
static unsigned int g_n_bounds, g_tile;
/* --kernels DIR, shared by compile, run and test */
static const char *g_kernels;

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int add_bounds(const char *arg)
{
	if (g_n_bounds == 16) {
		err("more than 16 --symbol-bounds");
		return EXIT_USAGE;
	}
	snprintf(g_bound_args[g_n_bounds], sizeof(g_bound_args[0]), "%s", arg);
	if (strlen(arg) >= sizeof(g_bound_args[0]) ||
	    vpuxc_parse_symbol_bounds(g_bound_args[g_n_bounds],
				      &g_bounds[g_n_bounds])) {
		err("--symbol-bounds: %s", strlen(arg) >= sizeof(g_bound_args[0]) ?
		    "argument too long" : vpux_last_error());
		return EXIT_USAGE;
	}
	g_n_bounds++;
	return 0;
}

static void with_bounds(struct vpuxc_options *o)
{
	o->bounds = g_bounds;
	o->n_bounds = g_n_bounds;
	o->tile = g_tile;
	o->kernels = g_kernels;
}

__attribute__((format(printf, 1, 2)))
static void err(const char *fmt, ...)
{
	va_list ap;

	fputs("vpux-onnx: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* the last libvpux/compiler message, or the code's name */
static const char *why(int ret)
{
	const char *m = vpux_last_error();

	return m && *m ? m : vpux_strerror(ret);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* a tensor file: .npy by name or magic, else a TensorProto */
static int read_tensor(const char *path, struct vpuxc_tensor *t)
{
	char magic[6] = { 0 };
	FILE *f = fopen(path, "rb");

	if (f) {
		if (fread(magic, 1, sizeof(magic), f) != sizeof(magic))
			magic[0] = 0;
		fclose(f);
	}
	if (ends_with(path, ".npy") || !memcmp(magic, "\x93NUMPY", 6))
		return vpuxc_tensor_read_npy(path, t);
	return vpuxc_tensor_read_pb(path, t);
}

/* --input/--fold NAME=FILE (or FILE: the .pb's own name) */
struct named {
	char name[VPUXC_NAME_MAX];
	const char *path;
	struct vpuxc_tensor t;
	int used;
};

static int load_named(const char *arg, struct named *n)
{
	const char *eq = strchr(arg, '=');
	int ret;

	memset(n, 0, sizeof(*n));
	if (eq && (size_t)(eq - arg) >= sizeof(n->name)) {
		err("%s: name longer than %d bytes", arg, VPUXC_NAME_MAX - 1);
		return EXIT_USAGE;
	}
	n->path = eq ? eq + 1 : arg;
	ret = read_tensor(n->path, &n->t);
	if (ret) {
		err("%s", why(ret));
		return EXIT_USAGE;
	}
	if (eq) {
		memcpy(n->name, arg, (size_t)(eq - arg));
		n->name[eq - arg] = 0;
	} else {
		snprintf(n->name, sizeof(n->name), "%s", n->t.name);
	}
	if (!n->name[0]) {
		err("%s: no input name (give NAME=FILE)", arg);
		vpuxc_tensor_fini(&n->t);
		return EXIT_USAGE;
	}
	snprintf(n->t.name, sizeof(n->t.name), "%s", n->name);
	return 0;
}

static void free_named(struct named *n, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		vpuxc_tensor_fini(&n[i].t);
}

static int is_elf(const void *p, size_t n)
{
	return n >= 4 && !memcmp(p, "\x7f" "ELF", 4);
}

/* a run recipe: NAME.json, or JSON text */
static int is_recipe(const char *path, const void *p, size_t n)
{
	const char *c = p;
	size_t i;

	if (ends_with(path, ".json"))
		return 1;
	for (i = 0; i < n && (c[i] == ' ' || c[i] == '\n' || c[i] == '\t' ||
			      c[i] == '\r'); i++)
		;
	return i < n && c[i] == '{';
}

/* a malloc'ed copy of @fmt's text (the message is never cut) */
static char *msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *msgf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s ? s : strdup("out of memory");
}

/*
 * Import @path, fold the quantization-parameter inputs among @in (all of
 * @in when @fold_all: compile --fold), compile. When the NPU cannot run
 * the model whole and @rc is not NULL, partition it into the recipe @rc
 * (loadables named @prefix "npuN.vpuxl") instead; r->loadable is then
 * NULL. On a compile error *@emsg is the message (malloc'ed, whole): the
 * line that decides first (why partitioning stopped), then the NPU
 * compiler's list of every node it does not take.
 */
static int compile_model(const char *path, struct named *in, unsigned int nin,
			 int fold_all, const struct vpuxc_options *o,
			 struct vpuxc_result *r, struct vpuxc_recipe *rc,
			 const char *prefix, char **emsg)
{
	struct vpuxc_model *m;
	unsigned int i;
	int ret;

	*emsg = NULL;
	ret = vpuxc_import_file(path, &m);
	if (ret) {
		*emsg = msgf("%s", why(ret));
		return EXIT_COMPILE;
	}
	for (i = 0; i < nin; i++) {
		if (!fold_all && !vpuxc_model_input_is_qparam(m, in[i].name))
			continue;
		ret = vpuxc_model_fold_input(m, &in[i].t);
		if (ret) {
			*emsg = msgf("folding input '%s' (%s): %s", in[i].name,
				     in[i].path, why(ret));
			vpuxc_model_free(m);
			return EXIT_COMPILE;
		}
		in[i].used = 1;
	}
	ret = vpuxc_compile(m, o, r);
	if (ret == VPUX_E_UNSUPPORTED && rc) {
		/* not on the NPU whole: NPU parts and CPU functions */
		char *list = msgf("%s", why(ret));

		ret = vpuxc_partition(m, o, prefix, rc);
		if (ret && o->no_cpu_fallback)	/* it names every node */
			*emsg = msgf("%s", why(ret));
		else if (ret)
			*emsg = msgf("%s\nthe NPU compiler, on the whole model: %s",
				     why(ret), list);
		free(list);
		vpuxc_model_free(m);
		return ret ? EXIT_COMPILE : 0;
	}
	vpuxc_model_free(m);
	if (ret) {
		*emsg = msgf("%s", why(ret));
		return EXIT_COMPILE;
	}
	return 0;
}

/* ---- running a loadable ---- */

struct run_out {
	unsigned int n;
	struct vpuxc_tensor *t;		/* ONNX outputs */
	struct vpuxc_io_table io;
	int64_t time_us;
	uint64_t device_cycles;
};

static void run_out_fini(struct run_out *o)
{
	unsigned int i;

	for (i = 0; o->t && i < o->n; i++)
		vpuxc_tensor_fini(&o->t[i]);
	free(o->t);
	vpuxc_io_fini(&o->io);
	memset(o, 0, sizeof(*o));
}

static void list_names(char *buf, size_t cap, const struct vpuxc_io *v,
		       unsigned int n)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s'%s'",
					i ? ", " : "", v[i].name);
}

/*
 * Input @i of @net has dims that name symbols: bind them from @t's shape
 * (vpux_request_set_input_shape(), which checks bounds and the static
 * dims), and give @io the actual dims for the host conversion.
 */
static int bind_shape(struct vpux_network *net, struct vpux_request *req,
		      unsigned int i, struct vpuxc_io *io,
		      const struct vpuxc_tensor *t, char *msg, size_t cap)
{
	struct vpux_shape sh;
	unsigned int k;
	int sym, dyn = 0, ret;

	for (k = 0; k < io->rank; k++)
		if (!vpux_network_dim_symbol(net, 0, i, k, &sym) && sym >= 0)
			dyn = 1;
	if (!dyn)
		return 0;
	if (t->rank != io->rank) {
		snprintf(msg, cap, "input '%s': rank %u, the network's is %u",
			 io->name, t->rank, io->rank);
		return -1;
	}
	memset(&sh, 0, sizeof(sh));
	sh.rank = io->rank;
	for (k = 0; k < io->rank; k++) {
		sh.d[k] = (uint64_t)t->dims[k];
		io->dims[k] = t->dims[k];
	}
	ret = vpux_request_set_input_shape(req, i, &sh);
	if (ret) {
		snprintf(msg, cap, "input '%s': %s", io->name, why(ret));
		return -1;
	}
	return 0;
}

/*
 * Run @lf on @device with the unused entries of @in as inputs (by ONNX
 * name); the ONNX outputs into @out. Errors: a message in @msg and
 * EXIT_USAGE (inputs do not fit) or EXIT_RUNTIME.
 */
static int run_loadable(const void *lf, size_t size, const char *device,
			struct named *in, unsigned int nin, struct run_out *out,
			char *msg, size_t cap)
{
	struct vpux_buffer *ib[MAX_IO], *ob[MAX_IO];
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_request_status st;
	struct vpux_network_info ni;
	struct vpux_tensor_desc d;
	unsigned int i, j;
	char names[1024];
	int ret, rc = EXIT_RUNTIME;

	memset(out, 0, sizeof(*out));
	memset(ib, 0, sizeof(ib));
	memset(ob, 0, sizeof(ob));
	ret = vpuxc_io_read(lf, size, &out->io);
	if (ret) {
		snprintf(msg, cap, "loadable: %s", why(ret));
		return EXIT_USAGE;
	}
	if (out->io.n_inputs > MAX_IO ||
	    out->io.n_outputs > MAX_IO) {
		snprintf(msg, cap, "loadable: too many inputs/outputs");
		return EXIT_USAGE;
	}
	/* every network input given once, every given input used */
	for (i = 0; i < out->io.n_inputs; i++) {
		for (j = 0; j < nin; j++)
			if (!in[j].used && !strcmp(in[j].name, out->io.inputs[i].name))
				break;
		if (j == nin) {
			snprintf(msg, cap, "input '%s' not given (--input %s=FILE)",
				 out->io.inputs[i].name, out->io.inputs[i].name);
			return EXIT_USAGE;
		}
	}
	for (j = 0; j < nin; j++) {
		if (in[j].used)
			continue;
		for (i = 0; i < out->io.n_inputs; i++)
			if (!strcmp(in[j].name, out->io.inputs[i].name))
				break;
		if (i == out->io.n_inputs) {
			list_names(names, sizeof(names), out->io.inputs,
				   out->io.n_inputs);
			snprintf(msg, cap, "input '%s' (%s): the network has no such input (inputs: %s)",
				 in[j].name, in[j].path,
				 out->io.n_inputs ? names : "none");
			return EXIT_USAGE;
		}
	}
	ret = vpux_device_open(device, &dev);
	if (ret) {
		snprintf(msg, cap, "device %s: %s", device, why(ret));
		return EXIT_RUNTIME;
	}
	ret = vpux_network_load(dev, lf, size, &net);
	if (ret) {
		snprintf(msg, cap, "loading the network: %s", why(ret));
		goto out;
	}
	ret = vpux_request_create(net, &req);
	if (ret) {
		snprintf(msg, cap, "request: %s", why(ret));
		goto out;
	}
	ret = vpux_network_query(net, &ni);
	if (ret) {
		snprintf(msg, cap, "network: %s", why(ret));
		goto out;
	}
	for (i = 0; i < out->io.n_inputs; i++) {
		struct vpuxc_io iox;

		for (j = 0; j < nin; j++)
			if (!in[j].used && !strcmp(in[j].name, out->io.inputs[i].name))
				break;
		ret = vpux_network_input(net, i, &d);
		ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &ib[i]);
		if (ret) {
			snprintf(msg, cap, "input '%s': %s", in[j].name, why(ret));
			goto out;
		}
		/* dynamic dims: the given tensor's shape binds their symbols */
		iox = out->io.inputs[i];
		ret = ni.num_symbols ? bind_shape(net, req, i, &iox, &in[j].t,
						  msg, cap) : 0;
		if (ret) {
			rc = EXIT_USAGE;
			goto out;
		}
		ret = vpuxc_io_to_device(&iox, &in[j].t,
					 vpux_buffer_map(ib[i]), d.size);
		if (ret) {
			snprintf(msg, cap, "%s: %s", in[j].path, why(ret));
			rc = EXIT_USAGE;
			goto out;
		}
		ret = vpux_request_bind_input(req, i, ib[i], 0);
		if (ret) {
			snprintf(msg, cap, "input '%s': %s", in[j].name, why(ret));
			goto out;
		}
	}
	for (i = 0; i < out->io.n_outputs; i++) {
		ret = vpux_network_output(net, i, &d);
		ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &ob[i]);
		ret = ret ? ret : vpux_request_bind_output(req, i, ob[i], 0);
		if (ret) {
			snprintf(msg, cap, "output %u: %s", i, why(ret));
			goto out;
		}
	}
	ret = vpux_request_submit(req);
	ret = ret ? ret : vpux_request_wait(req, 60000);
	if (ret) {
		snprintf(msg, cap, "run on %s: %s", device, why(ret));
		goto out;
	}
	vpux_request_status(req, &st);
	out->time_us = st.time_us;
	out->device_cycles = st.device_cycles;
	out->t = calloc(out->io.n_outputs + 1, sizeof(*out->t));
	if (!out->t) {
		snprintf(msg, cap, "out of memory");
		goto out;
	}
	out->n = out->io.n_outputs;
	for (i = 0; i < out->io.n_outputs; i++) {
		struct vpuxc_io iox = out->io.outputs[i];
		struct vpux_shape sh;
		unsigned int k;

		vpux_network_output(net, i, &d);
		/* a dynamic output: its bound shape, a dense prefix */
		if (ni.num_symbols) {
			ret = vpux_request_output_shape(req, i, &sh);
			if (ret || sh.rank != iox.rank) {
				snprintf(msg, cap, "output %u: shape: %s", i,
					 ret ? why(ret) : "rank differs");
				goto out;
			}
			for (k = 0; k < sh.rank; k++)
				iox.dims[k] = (int64_t)sh.d[k];
		}
		ret = vpuxc_io_from_device(&iox, vpux_buffer_map(ob[i]), d.size,
					   &out->t[i]);
		if (ret) {
			snprintf(msg, cap, "%s", why(ret));
			goto out;
		}
	}
	rc = 0;
out:
	if (req)
		vpux_request_destroy(req);
	for (i = 0; i < MAX_IO; i++) {
		if (ib[i])
			vpux_buffer_free(ib[i]);
		if (ob[i])
			vpux_buffer_free(ob[i]);
	}
	if (net)
		vpux_network_unload(net);
	if (dev)
		vpux_device_close(dev);
	return rc;
}

/* ---- running a recipe (a model partitioned between NPU and CPU) ---- */

static int32_t dtype_of_name(const char *n)
{
	static const int32_t ids[] = { VPUXC_FLOAT, VPUXC_UINT8, VPUXC_INT8,
				       VPUXC_INT32, VPUXC_INT64 };
	unsigned int i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(n, vpuxc_dtype_name(ids[i])))
			return ids[i];
	return 0;
}

/* header.inputs or header.outputs of a recipe vpuxc_partition() wrote */
static int recipe_io(json_object *hdr, const char *key, struct vpuxc_io **out,
		     unsigned int *n, char *msg, size_t cap)
{
	json_object *a, *e, *v, *d;
	size_t i, k;

	*out = NULL;
	*n = 0;
	if (!json_object_object_get_ex(hdr, key, &a) ||
	    !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > MAX_IO) {
		snprintf(msg, cap, "recipe: header.%s: the graph's %s (a list of at most %d) are missing; was it written by vpux-onnx compile?",
			 key, key, MAX_IO);
		return EXIT_USAGE;
	}
	*out = calloc(json_object_array_length(a) + 1, sizeof(**out));
	if (!*out) {
		snprintf(msg, cap, "out of memory");
		return EXIT_RUNTIME;
	}
	for (i = 0; i < json_object_array_length(a); i++) {
		struct vpuxc_io *io = &(*out)[i];

		e = json_object_array_get_idx(a, i);
		*n = (unsigned int)i + 1;
		io->axis = -1;
		if (!json_object_object_get_ex(e, "name", &v) ||
		    !json_object_is_type(v, json_type_string) ||
		    strlen(json_object_get_string(v)) >= sizeof(io->name))
			goto bad;
		snprintf(io->name, sizeof(io->name), "%s", json_object_get_string(v));
		if (!json_object_object_get_ex(e, "dtype", &v) ||
		    !json_object_is_type(v, json_type_string) ||
		    !(io->onnx_dtype = dtype_of_name(json_object_get_string(v))))
			goto bad;
		if (!json_object_object_get_ex(e, "dims", &d) ||
		    !json_object_is_type(d, json_type_array) ||
		    json_object_array_length(d) > VPUXC_MAX_RANK)
			goto bad;
		io->rank = (uint32_t)json_object_array_length(d);
		for (k = 0; k < io->rank; k++) {
			io->dims[k] = json_object_get_int64(json_object_array_get_idx(d, k));
			if (io->dims[k] <= 0 || io->dims[k] > (1ll << 32))
				goto bad;
		}
		if (json_object_object_get_ex(e, "scale", &v)) {
			io->scales = malloc(sizeof(double));
			io->zero_points = calloc(1, sizeof(int32_t));
			if (!io->scales || !io->zero_points)
				goto bad;
			io->scales[0] = json_object_get_double(v);
			io->qcount = 1;
		}
	}
	return 0;
bad:
	snprintf(msg, cap, "recipe: header.%s[%zu]: name, dtype and dims expected",
		 key, i);
	return EXIT_USAGE;
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Run recipe @json_path on @device, the unused entries of @in bound to
 * the recipe's input buffers by ONNX name; the outputs into @out (its
 * io.outputs describe them: the scale of an output an NPU part
 * dequantizes, for the comparison). Errors as run_loadable().
 */
static int run_recipe(const char *json_path, const struct vpuxc_recipe *mem,
		      const char *device, struct named *in, unsigned int nin,
		      struct run_out *out, char *msg, size_t cap)
{
	struct vpux_buffer *ib[MAX_IO], *ob[MAX_IO];
	struct vpux_runner_file *files = NULL;
	struct vpux_device *dev = NULL;
	struct vpux_runner *rn = NULL;
	json_object *root, *hdr;
	unsigned int i, j;
	size_t size;
	int64_t t0;
	int ret, rc = EXIT_RUNTIME;

	memset(out, 0, sizeof(*out));
	memset(ib, 0, sizeof(ib));
	memset(ob, 0, sizeof(ob));
	root = mem ? json_tokener_parse(mem->json) :
	       json_object_from_file(json_path);
	if (!root || !json_object_object_get_ex(root, "header", &hdr)) {
		snprintf(msg, cap, "%s: not a JSON run recipe (%s)", json_path,
			 root ? "no header" : json_util_get_last_err());
		if (root)
			json_object_put(root);
		return EXIT_USAGE;
	}
	ret = recipe_io(hdr, "inputs", &out->io.inputs, &out->io.n_inputs, msg, cap);
	if (!ret)
		ret = recipe_io(hdr, "outputs", &out->io.outputs,
				&out->io.n_outputs, msg, cap);
	json_object_put(root);
	if (ret)
		return ret;
	for (i = 0; i < out->io.n_inputs; i++) {
		for (j = 0; j < nin; j++)
			if (!in[j].used && !strcmp(in[j].name, out->io.inputs[i].name))
				break;
		if (j == nin) {
			snprintf(msg, cap, "input '%s' not given (--input %s=FILE)",
				 out->io.inputs[i].name, out->io.inputs[i].name);
			return EXIT_USAGE;
		}
		if (in[j].t.dtype != out->io.inputs[i].onnx_dtype) {
			snprintf(msg, cap, "input '%s': %s, the recipe takes %s",
				 in[j].name, vpuxc_dtype_name(in[j].t.dtype),
				 vpuxc_dtype_name(out->io.inputs[i].onnx_dtype));
			return EXIT_USAGE;
		}
	}
	for (j = 0; j < nin; j++) {
		if (in[j].used)
			continue;
		for (i = 0; i < out->io.n_inputs; i++)
			if (!strcmp(in[j].name, out->io.inputs[i].name))
				break;
		if (i == out->io.n_inputs) {
			char names[1024];

			list_names(names, sizeof(names), out->io.inputs,
				   out->io.n_inputs);
			snprintf(msg, cap, "input '%s' (%s): the recipe has no such input (inputs: %s)",
				 in[j].name, in[j].path,
				 out->io.n_inputs ? names : "none");
			return EXIT_USAGE;
		}
	}
	ret = vpux_device_open(device, &dev);
	if (ret) {
		snprintf(msg, cap, "device %s: %s", device, why(ret));
		return EXIT_RUNTIME;
	}
	if (mem) {	/* compiled here: the recipe and its files in memory */
		files = calloc(mem->n_files + 1, sizeof(*files));
		if (!files) {
			snprintf(msg, cap, "out of memory");
			goto out;
		}
		for (i = 0; i < mem->n_files; i++)
			files[i] = (struct vpux_runner_file){
				mem->files[i].name, mem->files[i].data,
				mem->files[i].size };
		ret = vpux_runner_create_from_memory(dev, mem->json,
						     strlen(mem->json), files,
						     mem->n_files, &rn);
	} else {
		ret = vpux_runner_create(dev, json_path, &rn);
	}
	if (ret) {
		snprintf(msg, cap, "%s: %s", json_path, why(ret));
		goto out;
	}
	for (i = 0; i < out->io.n_inputs; i++) {
		const char *name = out->io.inputs[i].name;

		for (j = 0; j < nin; j++)
			if (!in[j].used && !strcmp(in[j].name, name))
				break;
		ret = vpux_runner_buffer_size(rn, name, &size);
		if (!ret && size != in[j].t.size) {
			snprintf(msg, cap, "input '%s' (%s): %zu bytes, the recipe's buffer has %zu",
				 name, in[j].path, in[j].t.size, size);
			rc = EXIT_USAGE;
			goto out;
		}
		ret = ret ? ret : vpux_buffer_alloc(dev, size, &ib[i]);
		if (!ret)
			memcpy(vpux_buffer_map(ib[i]), in[j].t.data, size);
		ret = ret ? ret : vpux_runner_bind_input(rn, name, ib[i], 0);
		if (ret) {
			snprintf(msg, cap, "input '%s': %s", name, why(ret));
			goto out;
		}
	}
	for (i = 0; i < out->io.n_outputs; i++) {
		const char *name = out->io.outputs[i].name;

		ret = vpux_runner_buffer_size(rn, name, &size);
		ret = ret ? ret : vpux_buffer_alloc(dev, size, &ob[i]);
		ret = ret ? ret : vpux_runner_bind_output(rn, name, ob[i], 0);
		if (ret) {
			snprintf(msg, cap, "output '%s': %s", name, why(ret));
			goto out;
		}
	}
	t0 = now_us();
	ret = vpux_runner_execute(rn);
	ret = ret ? ret : vpux_runner_wait(rn, 60000);
	if (ret) {
		snprintf(msg, cap, "run on %s: %s", device, why(ret));
		goto out;
	}
	out->time_us = now_us() - t0;
	out->t = calloc(out->io.n_outputs + 1, sizeof(*out->t));
	if (!out->t) {
		snprintf(msg, cap, "out of memory");
		goto out;
	}
	out->n = out->io.n_outputs;
	for (i = 0; i < out->io.n_outputs; i++) {
		const struct vpuxc_io *io = &out->io.outputs[i];
		struct vpuxc_tensor *t = &out->t[i];

		vpux_runner_buffer_size(rn, io->name, &size);
		snprintf(t->name, sizeof(t->name), "%s", io->name);
		t->dtype = io->onnx_dtype;
		t->rank = io->rank;
		memcpy(t->dims, io->dims, sizeof(t->dims));
		t->size = vpuxc_tensor_count(t) * vpuxc_dtype_size(t->dtype);
		t->data = malloc(t->size + 1);
		if (!t->data || t->size != size) {
			snprintf(msg, cap, "output '%s': %zu bytes, %zu expected",
				 io->name, size, t->size);
			goto out;
		}
		memcpy(t->data, vpux_buffer_map(ob[i]), size);
	}
	rc = 0;
out:
	free(files);
	if (rn)
		vpux_runner_destroy(rn);
	for (i = 0; i < MAX_IO; i++) {
		if (ib[i])
			vpux_buffer_free(ib[i]);
		if (ob[i])
			vpux_buffer_free(ob[i]);
	}
	if (dev)
		vpux_device_close(dev);
	return rc;
}

static const char *fmt_dims(char *buf, size_t cap, const struct vpuxc_tensor *t)
{
	size_t n = 0;
	uint32_t i;

	if (!t->rank)
		snprintf(buf, cap, "scalar");
	else
		buf[0] = 0;
	for (i = 0; i < t->rank && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? "x" : "",
				      (long long)t->dims[i]);
	return buf;
}

static json_object *tensor_json(const struct vpuxc_tensor *t, const char *file)
{
	json_object *o = json_object_new_object(), *d = json_object_new_array();
	uint32_t i;

	json_object_object_add(o, "name", json_object_new_string(t->name));
	json_object_object_add(o, "dtype",
			       json_object_new_string(vpuxc_dtype_name(t->dtype)));
	for (i = 0; i < t->rank; i++)
		json_object_array_add(d, json_object_new_int64(t->dims[i]));
	json_object_object_add(o, "dims", d);
	if (file)
		json_object_object_add(o, "file", json_object_new_string(file));
	return o;
}

/* ---- compile ---- */

/*
 * Where a recipe goes if the model needs one (-o OUT): OUT itself when
 * it ends in ".json" (loadables "STEM.npuN.vpuxl" next to it), else the
 * directory OUT (recipe.json, npuN.vpuxl).
 */
static int recipe_target(const char *outp, char *json, size_t jcap,
			 char *prefix, size_t pcap)
{
	const char *base = strrchr(outp, '/');

	base = base ? base + 1 : outp;
	prefix[0] = 0;
	if (ends_with(outp, ".json")) {
		if (strlen(base) - 5 + 2 > pcap) {
			err("%s: name too long", outp);
			return EXIT_USAGE;
		}
		snprintf(prefix, pcap, "%.*s.", (int)(strlen(base) - 5), base);
		snprintf(json, jcap, "%s", outp);
	} else {
		snprintf(json, jcap, "%s/recipe.json", outp);
	}
	return 0;
}

static int write_recipe(struct vpuxc_recipe *rc, const char *outp,
			const char *json_path, int report)
{
	struct stat sb;
	int ret;

	if (!ends_with(outp, ".json")) {
		if (ends_with(outp, ".vpuxl")) {
			err("%s: the model needs the CPU for %u node%s: its output is a recipe (-o DIR or -o NAME.json)",
			    outp, rc->n_cpu, rc->n_cpu == 1 ? "" : "s");
			vpuxc_recipe_fini(rc);
			return EXIT_USAGE;
		}
		if (stat(outp, &sb) && mkdir(outp, 0777)) {
			err("%s: cannot create the directory: %s", outp,
			    strerror(errno));
			vpuxc_recipe_fini(rc);
			return EXIT_RUNTIME;
		}
	}
	ret = vpuxc_recipe_write(rc, json_path);
	if (ret) {
		err("%s", why(ret));
		vpuxc_recipe_fini(rc);
		return EXIT_RUNTIME;
	}
	if (report && rc->report)
		fputs(rc->report, stdout);
	printf("wrote %s: %u NPU loadable%s, %u CPU run%s\n", json_path,
	       rc->n_npu, rc->n_npu == 1 ? "" : "s", rc->n_cpu,
	       rc->n_cpu == 1 ? "" : "s");
	vpuxc_recipe_fini(rc);
	return 0;
}

static int cmd_compile(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "report", no_argument, NULL, 'r' },
		{ "vasm", required_argument, NULL, 'v' },
		{ "name", required_argument, NULL, 'n' },
		{ "fold", required_argument, NULL, 'f' },
		{ "no-cmx", no_argument, NULL, 'c' },
		{ "symbol-bounds", required_argument, NULL, 'S' },
		{ "kernels", required_argument, NULL, 'K' },
		{ "tile", required_argument, NULL, 'T' },
		{ "no-cpu-fallback", no_argument, NULL, 'N' },
		{ "cmx-tiles", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vpuxc_options o = { .report = 0 };
	char *end, *emsg;
	long tv;
	struct vpuxc_result r;
	struct vpuxc_recipe rc;
	struct named fold[MAX_INPUTS];
	const char *outp = NULL, *vasm = NULL;
	char json_path[4096], prefix[VPUXC_NAME_MAX];
	unsigned int nfold = 0;
	int c, ret;
	FILE *f;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outp = optarg;
			break;
		case 'r':
			o.report = 1;
			break;
		case 'v':
			vasm = optarg;
			o.vasm = 1;
			break;
		case 'n':
			o.name = optarg;
			break;
		case 'c':
			o.no_cmx = 1;
			break;
		case 'N':
			o.no_cpu_fallback = 1;
			break;
		case 'K':
			g_kernels = optarg;
			break;
		case 'S':
			if (add_bounds(optarg)) {
				free_named(fold, nfold);
				return EXIT_USAGE;
			}
			break;
		case 'T':
			tv = strtol(optarg, &end, 10);
			if (*end || end == optarg || tv < 1 || tv > 65535) {
				err("--tile '%s': 1..65535 expected", optarg);
				free_named(fold, nfold);
				return EXIT_USAGE;
			}
			g_tile = (unsigned int)tv;
			break;
		case 'X':
			tv = strtol(optarg, &end, 10);
			/* the compiler checks the target's tile count */
			if (*end || end == optarg || tv < 1 || tv > 64) {
				err("--cmx-tiles '%s': a tile count >= 1 expected",
				    optarg);
				free_named(fold, nfold);
				return EXIT_USAGE;
			}
			o.cmx_tiles = (unsigned int)tv;
			break;
		case 'f':
			if (nfold == MAX_INPUTS) {
				err("more than %d --fold", MAX_INPUTS);
				free_named(fold, nfold);
				return EXIT_USAGE;
			}
			ret = load_named(optarg, &fold[nfold]);
			if (ret) {
				free_named(fold, nfold);
				return ret;
			}
			nfold++;
			break;
		case 'h':
			usage(stdout);
			free_named(fold, nfold);
			return 0;
		default:
			vpux_cli_bad_option("vpux-onnx", c, argv);
			usage(stderr);
			free_named(fold, nfold);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !outp) {
		err("compile: %s", optind + 1 != argc ? "one MODEL.onnx expected" :
		    "no output file (-o OUT.vpuxl)");
		usage(stderr);
		free_named(fold, nfold);
		return EXIT_USAGE;
	}
	ret = recipe_target(outp, json_path, sizeof(json_path), prefix,
			    sizeof(prefix));
	if (ret) {
		free_named(fold, nfold);
		return ret;
	}
	memset(&rc, 0, sizeof(rc));
	with_bounds(&o);
	ret = compile_model(argv[optind], fold, nfold, 1, &o, &r, &rc, prefix,
			    &emsg);
	free_named(fold, nfold);
	if (ret) {
		err("%s: %s", argv[optind], emsg);
		free(emsg);
		return ret;
	}
	if (!r.loadable)
		return write_recipe(&rc, outp, json_path, o.report);
	f = fopen(outp, "wb");
	if (!f || fwrite(r.loadable, 1, r.size, f) != r.size) {
		err("%s: cannot write: %s", outp, strerror(errno));
		if (f)
			fclose(f);
		vpuxc_result_fini(&r);
		return EXIT_RUNTIME;
	}
	if (fclose(f)) {
		err("%s: cannot write: %s", outp, strerror(errno));
		vpuxc_result_fini(&r);
		return EXIT_RUNTIME;
	}
	if (vasm && r.vasm) {
		f = fopen(vasm, "w");
		if (!f || fputs(r.vasm, f) < 0 || fclose(f)) {
			err("%s: cannot write", vasm);
			vpuxc_result_fini(&r);
			return EXIT_RUNTIME;
		}
	}
	if (o.report && r.report) {
		fputs("placement: every node on the NPU (1 part), 0 on the CPU\n",
		      stdout);
		fputs(r.report, stdout);
	}
	vpuxc_result_fini(&r);
	return 0;
}

/* ---- run ---- */

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output-dir", required_argument, NULL, 'O' },
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "symbol-bounds", required_argument, NULL, 'S' },
		{ "kernels", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vpuxc_options copts = { .report = 0 };
	struct named in[MAX_INPUTS];
	const char *dir = NULL, *device = "inproc", *model;
	char devbuf[32];
	unsigned int nin = 0, i;
	struct vpuxc_result r;
	struct vpuxc_recipe rc;
	struct run_out out;
	void *lf = NULL;
	size_t size = 0;
	char msg[4096], path[4096];
	json_object *jo = NULL, *ja = NULL;
	int c, ret, json = 0;
	struct stat sb;

	memset(&r, 0, sizeof(r));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (nin == MAX_INPUTS) {
				err("more than %d --input", MAX_INPUTS);
				free_named(in, nin);
				return EXIT_USAGE;
			}
			ret = load_named(optarg, &in[nin]);
			if (ret) {
				free_named(in, nin);
				return ret;
			}
			nin++;
			break;
		case 'O':
			dir = optarg;
			break;
		case 'K':
			g_kernels = optarg;
			break;
		case 'S':
			if (add_bounds(optarg)) {
				free_named(in, nin);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			device = vpux_cli_device(optarg, devbuf, sizeof(devbuf));
			if (!device) {
				err("bad device '%s' (inproc, /dev/accel/accelN or N)",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			free_named(in, nin);
			return 0;
		default:
			vpux_cli_bad_option("vpux-onnx", c, argv);
			usage(stderr);
			free_named(in, nin);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !dir) {
		err("run: %s", optind + 1 != argc ?
		    "one MODEL.onnx or NET.vpuxl expected" :
		    "no --output-dir DIR");
		usage(stderr);
		free_named(in, nin);
		return EXIT_USAGE;
	}
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		err("%s: not a directory (--output-dir)", dir);
		free_named(in, nin);
		return EXIT_USAGE;
	}
	model = argv[optind];
	/* the model, a recipe or a loadable (umd/hostconv.c) */
	ret = hc_read_file(model, SIZE_MAX / 2, &lf, &size);
	if (ret) {
		err("%s", vpux_last_error());
		free_named(in, nin);
		return EXIT_USAGE;
	}
	memset(&rc, 0, sizeof(rc));
	if (is_recipe(model, lf, size)) {	/* a recipe: run it */
		free(lf);
		lf = NULL;
		ret = run_recipe(model, NULL, device, in, nin, &out, msg,
				 sizeof(msg));
	} else {
		if (!is_elf(lf, size)) {	/* an ONNX model: compile it */
			free(lf);
			lf = NULL;
			with_bounds(&copts);
			char *emsg;

			ret = compile_model(model, in, nin, 0, &copts, &r, &rc, "",
					    &emsg);
			if (ret) {
				err("%s: %s", model, emsg);
				free(emsg);
				free_named(in, nin);
				return ret;
			}
		}
		if (lf || r.loadable) {
			ret = run_loadable(lf ? lf : r.loadable, lf ? size : r.size,
					   device, in, nin, &out, msg, sizeof(msg));
		} else {	/* partitioned: through a recipe in memory */
			ret = run_recipe("the compiled recipe", &rc, device,
					 in, nin, &out, msg, sizeof(msg));
		}
	}
	free(lf);
	vpuxc_result_fini(&r);
	vpuxc_recipe_fini(&rc);
	free_named(in, nin);
	if (ret) {
		err("%s: %s", model, msg);
		run_out_fini(&out);
		return ret;
	}
	if (json) {
		jo = json_object_new_object();
		ja = json_object_new_array();
		json_object_object_add(jo, "model", json_object_new_string(model));
		json_object_object_add(jo, "device", json_object_new_string(device));
		json_object_object_add(jo, "time_us", json_object_new_int64(out.time_us));
		json_object_object_add(jo, "device_cycles",
				       json_object_new_int64((int64_t)out.device_cycles));
	}
	for (i = 0; i < out.n; i++) {
		char dims[160];

		snprintf(path, sizeof(path), "%s/output_%u.pb", dir, i);
		ret = vpuxc_tensor_write_pb(path, &out.t[i]);
		if (ret) {
			err("%s", why(ret));
			run_out_fini(&out);
			if (jo)
				json_object_put(jo);
			if (ja)
				json_object_put(ja);
			return EXIT_RUNTIME;
		}
		if (json)
			json_object_array_add(ja, tensor_json(&out.t[i], path));
		else
			printf("output %u '%s': %s %s -> %s\n", i, out.t[i].name,
			       vpuxc_dtype_name(out.t[i].dtype),
			       fmt_dims(dims, sizeof(dims), &out.t[i]), path);
	}
	if (json) {
		json_object_object_add(jo, "outputs", ja);
		printf("%s\n", json_object_to_json_string_ext(jo, JSON_C_TO_STRING_PRETTY));
		json_object_put(jo);
	} else {
		printf("ran %s on %s: %lld us, %llu device cycles\n", model,
		       device, (long long)out.time_us,
		       (unsigned long long)out.device_cycles);
	}
	run_out_fini(&out);
	return 0;
}

/* ---- test ---- */

struct verdict {
	double max_diff;
	double rel_l2;		/* the largest over the outputs (--rel-l2) */
	int rel_used;		/* an output was judged by --rel-l2 */
	size_t equal, total;
	char reason[8192];
};

static double elem(const struct vpuxc_tensor *t, size_t i)
{
	switch (t->dtype) {
	case VPUXC_FLOAT:
		return ((const float *)t->data)[i];
	case VPUXC_UINT8:
		return ((const uint8_t *)t->data)[i];
	case VPUXC_INT8:
		return ((const int8_t *)t->data)[i];
	case VPUXC_INT32:
		return ((const int32_t *)t->data)[i];
	case VPUXC_INT64:
		return (double)((const int64_t *)t->data)[i];
	}
	return 0;
}

/* test --rel-l2 TOL (0: off), test --no-cpu-fallback */
static double g_rel_l2;
static int g_no_fallback;

/*
 * The FP16 rule of test --rel-l2 for a float output that is not
 * quantized: ||got - ref|| / ||ref|| <= g_rel_l2 over the elements where
 * the reference is finite, and each element where it is not is matched
 * exactly (NaN by NaN, an infinity by the same): an overflow (a finite
 * reference, a non-finite output) fails. An all-zero reference needs an
 * all-zero output. 0 if it passes.
 */
static int compare_rel_l2(unsigned int k, const struct vpuxc_tensor *got,
			  const struct vpuxc_tensor *ref, struct verdict *v)
{
	size_t n = vpuxc_tensor_count(got), i, bad = 0, first = 0;
	double num = 0, den = 0, rel;

	for (i = 0; i < n; i++) {
		double x = elem(got, i), y = elem(ref, i), diff;

		if (!isfinite(y) || !isfinite(x)) {
			if (isnan(y) ? !isnan(x) : x != y) {
				if (!bad++)
					first = i;
				continue;
			}
			v->equal++;
			continue;
		}
		diff = fabs(x - y);
		if (diff == 0)
			v->equal++;
		if (diff > v->max_diff)
			v->max_diff = diff;
		num += diff * diff;
		den += y * y;
	}
	v->total += n;
	rel = den > 0 ? sqrt(num / den) : num > 0 ? INFINITY : 0;
	v->rel_used = 1;
	if (rel > v->rel_l2)
		v->rel_l2 = rel;
	if (bad) {
		snprintf(v->reason, sizeof(v->reason),
			 "output %u '%s': %zu of %zu elements non-finite where the reference is not (or the reverse), first [%zu] = %.9g, reference %.9g",
			 k, got->name, bad, n, first, elem(got, first),
			 elem(ref, first));
		return 1;
	}
	if (!(rel <= g_rel_l2)) {
		snprintf(v->reason, sizeof(v->reason),
			 "output %u '%s': relative L2 error %.3g, more than %g (max diff %.9g)",
			 k, got->name, rel, g_rel_l2, v->max_diff);
		return 1;
	}
	return 0;
}

/*
 * Compare output @k with its reference: integers within 1, floats within
 * one quantization step (the output's scale) + 1e-6; with --rel-l2, a
 * float output that is not quantized by compare_rel_l2(). 0 if it passes.
 */
static int compare(unsigned int k, const struct vpuxc_tensor *got,
		   const struct vpuxc_io *io, const struct vpuxc_tensor *ref,
		   struct verdict *v)
{
	size_t n = vpuxc_tensor_count(got), i, inner = 1, bad = 0, first = 0;
	double worst_tol = 0;
	char a[160], b[160];
	uint32_t d;

	if (got->dtype != ref->dtype) {
		snprintf(v->reason, sizeof(v->reason),
			 "output %u '%s': %s, the reference is %s", k, got->name,
			 vpuxc_dtype_name(got->dtype),
			 vpuxc_dtype_name(ref->dtype));
		return 1;
	}
	if (got->rank != ref->rank ||
	    memcmp(got->dims, ref->dims, got->rank * sizeof(got->dims[0]))) {
		snprintf(v->reason, sizeof(v->reason),
			 "output %u '%s': shape %s, the reference's %s", k,
			 got->name, fmt_dims(a, sizeof(a), got),
			 fmt_dims(b, sizeof(b), ref));
		return 1;
	}
	if (got->dtype == VPUXC_FLOAT && g_rel_l2 > 0 && !io->qcount)
		return compare_rel_l2(k, got, ref, v);
	if (got->dtype == VPUXC_FLOAT && io->axis >= 0)
		for (d = (uint32_t)io->axis + 1; d < io->rank; d++)
			inner *= (size_t)io->dims[d];
	for (i = 0; i < n; i++) {
		double x = elem(got, i), y = elem(ref, i), diff, tol = 1;

		if (got->dtype == VPUXC_FLOAT) {
			uint32_t q = io->axis < 0 || !io->qcount ? 0 :
				     (uint32_t)((i / inner) % io->qcount);

			/* a float output a CPU function computed (a
			 * recipe output with no scale): float rounding */
			tol = io->qcount ? io->scales[q] + 1e-6 :
			      1e-5 * fabs(y) + 1e-6;
		}
		if (isnan(x) && isnan(y))
			diff = 0;
		else if (isnan(x) || isnan(y))
			diff = INFINITY;
		else
			diff = fabs(x - y);
		if (diff == 0)
			v->equal++;
		if (diff > v->max_diff)
			v->max_diff = diff;
		if (!(diff <= tol)) {
			if (!bad++) {
				first = i;
				worst_tol = tol;
			}
		}
	}
	v->total += n;
	if (bad) {
		snprintf(v->reason, sizeof(v->reason),
			 "output %u '%s': %zu of %zu elements beyond the tolerance, first [%zu] = %.9g, reference %.9g (tolerance %.9g)",
			 k, got->name, bad, n, first, elem(got, first),
			 elem(ref, first), worst_tol);
		return 1;
	}
	return 0;
}

static int file_exists(const char *p)
{
	struct stat sb;

	return !stat(p, &sb) && S_ISREG(sb.st_mode);
}

/* one data set: 0 pass, 1 fail (reason in @v) */
static int test_set(const char *dir, const char *set, const char *device,
		    struct verdict *v)
{
	struct named in[MAX_INPUTS];
	struct vpuxc_tensor ref;
	struct vpuxc_model *m = NULL;
	struct vpuxc_options copts = { .report = 0 };
	struct vpuxc_result r;
	struct vpuxc_recipe rc;
	struct run_out out;
	unsigned int nin = 0, nref = 0, i, k;
	char path[4096], model[4096], msg[4096];
	int ret, fail = 1;

	memset(v, 0, sizeof(*v));
	memset(&r, 0, sizeof(r));
	memset(&rc, 0, sizeof(rc));
	memset(&out, 0, sizeof(out));
	snprintf(model, sizeof(model), "%s/model.onnx", dir);
	ret = vpuxc_import_file(model, &m);
	if (ret) {
		snprintf(v->reason, sizeof(v->reason), "import: %s", why(ret));
		return 1;
	}
	/* input_K.pb is the model's K-th graph input */
	for (k = 0; k < MAX_INPUTS; k++) {
		struct vpuxc_tensor desc;

		snprintf(path, sizeof(path), "%s/%s/input_%u.pb", dir, set, k);
		if (!file_exists(path))
			break;
		if (k >= vpuxc_model_num_inputs(m) ||
		    vpuxc_model_input(m, k, &desc)) {
			snprintf(v->reason, sizeof(v->reason),
				 "%s: the model has only %u inputs", path,
				 vpuxc_model_num_inputs(m));
			goto out;
		}
		memset(&in[nin], 0, sizeof(in[nin]));
		ret = vpuxc_tensor_read_pb(path, &in[nin].t);
		if (ret) {
			snprintf(v->reason, sizeof(v->reason), "%s", why(ret));
			goto out;
		}
		snprintf(in[nin].name, sizeof(in[nin].name), "%s", desc.name);
		snprintf(in[nin].t.name, sizeof(in[nin].t.name), "%s", desc.name);
		in[nin].path = NULL;
		nin++;
	}
	for (i = 0; i < nin; i++) {
		if (!vpuxc_model_input_is_qparam(m, in[i].name))
			continue;
		ret = vpuxc_model_fold_input(m, &in[i].t);
		if (ret) {
			snprintf(v->reason, sizeof(v->reason),
				 "folding input '%.127s': %s", in[i].name, why(ret));
			goto out;
		}
		in[i].used = 1;
	}
	with_bounds(&copts);
	ret = vpuxc_compile(m, &copts, &r);
	if (ret == VPUX_E_UNSUPPORTED && !g_no_fallback) {
		/* not on the NPU whole: NPU parts and CPU functions */
		snprintf(msg, sizeof(msg), "%s", why(ret));
		ret = vpuxc_partition(m, NULL, "", &rc);
		if (ret) {
			/* the line that decides first */
			snprintf(v->reason, sizeof(v->reason), "compile: %s\n%s",
				 why(ret), msg);
			goto out;
		}
	} else if (ret) {
		snprintf(v->reason, sizeof(v->reason), "compile: %s", why(ret));
		goto out;
	}
	for (i = 0; i < nin; i++)
		in[i].path = in[i].name;	/* for messages */
	if (r.loadable) {
		ret = run_loadable(r.loadable, r.size, device, in, nin, &out,
				   msg, sizeof(msg));
	} else {
		ret = run_recipe("the compiled recipe", &rc, device, in, nin,
				 &out, msg, sizeof(msg));
	}
	if (ret) {
		snprintf(v->reason, sizeof(v->reason), "run: %s", msg);
		goto out;
	}
	for (k = 0; k < out.n; k++) {
		snprintf(path, sizeof(path), "%s/%s/output_%u.pb", dir, set, k);
		ret = vpuxc_tensor_read_pb(path, &ref);
		if (ret) {
			snprintf(v->reason, sizeof(v->reason), "%s", why(ret));
			goto out;
		}
		nref++;
		ret = compare(k, &out.t[k], &out.io.outputs[k], &ref, v);
		vpuxc_tensor_fini(&ref);
		if (ret)
			goto out;
	}
	snprintf(path, sizeof(path), "%s/%s/output_%u.pb", dir, set, k);
	if (file_exists(path)) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: a reference output the network does not have (%u outputs)",
			 path, out.n);
		goto out;
	}
	fail = 0;
out:
	(void)nref;
	run_out_fini(&out);
	vpuxc_result_fini(&r);
	vpuxc_recipe_fini(&rc);
	free_named(in, nin);
	vpuxc_model_free(m);
	return fail;
}

static int set_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	long nx = strtol(x + strlen("test_data_set_"), NULL, 10);
	long ny = strtol(y + strlen("test_data_set_"), NULL, 10);

	return nx < ny ? -1 : nx > ny ? 1 : strcmp(x, y);
}

/* the test_data_set_N directories of @dir, in numeric order */
static int list_sets(const char *dir, char ***sets, unsigned int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, **w;
	unsigned int cnt = 0;

	*sets = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char p[4096];
		struct stat sb;

		if (strncmp(e->d_name, "test_data_set_", 14))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &sb) || !S_ISDIR(sb.st_mode))
			continue;
		w = realloc(v, (cnt + 1) * sizeof(*v));
		if (!w)
			break;
		v = w;
		v[cnt] = strdup(e->d_name);
		if (v[cnt])
			cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), set_cmp);
	*sets = v;
	*n = cnt;
	return 0;
}

static int cmd_test(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "symbol-bounds", required_argument, NULL, 'S' },
		{ "kernels", required_argument, NULL, 'K' },
		{ "rel-l2", required_argument, NULL, 'L' },
		{ "no-cpu-fallback", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = "inproc";
	char devbuf[32];
	unsigned int passed = 0, failed = 0, t = 0;
	json_object *jo = NULL, *ja = NULL;
	int c, json = 0, a;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = vpux_cli_device(optarg, devbuf, sizeof(devbuf));
			if (!device) {
				err("bad device '%s' (inproc, /dev/accel/accelN or N)",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'K':
			g_kernels = optarg;
			break;
		case 'S':
			if (add_bounds(optarg))
				return EXIT_USAGE;
			break;
		case 'L': {
			char *end;

			errno = 0;
			g_rel_l2 = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(g_rel_l2 > 0 && g_rel_l2 < 1)) {
				err("--rel-l2 '%s': a tolerance in (0, 1) expected, e.g. 1e-2",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'F':
			g_no_fallback = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			vpux_cli_bad_option("vpux-onnx", c, argv);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		err("test: no test directory");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (json) {
		jo = json_object_new_object();
		ja = json_object_new_array();
		json_object_object_add(jo, "device", json_object_new_string(device));
	}
	for (a = optind; a < argc; a++) {
		const char *dir = argv[a];
		char **sets;
		unsigned int n, s;
		char model[4096];
		struct verdict v;

		snprintf(model, sizeof(model), "%s/model.onnx", dir);
		if (list_sets(dir, &sets, &n) || !file_exists(model) || !n) {
			t++;
			failed++;
			snprintf(v.reason, sizeof(v.reason),
				 "not an ONNX test directory (model.onnx and test_data_set_N/)");
			if (json) {
				json_object *e = json_object_new_object();

				json_object_object_add(e, "test", json_object_new_string(dir));
				json_object_object_add(e, "ok", json_object_new_boolean(0));
				json_object_object_add(e, "reason", json_object_new_string(v.reason));
				json_object_array_add(ja, e);
			} else {
				printf("not ok %u - %s: %s\n", t, dir, v.reason);
			}
			fflush(stdout);
			if (sets) {
				for (s = 0; s < n; s++)
					free(sets[s]);
				free(sets);
			}
			continue;
		}
		for (s = 0; s < n; s++) {
			int bad = test_set(dir, sets[s], device, &v);
			double pct = v.total ? 100.0 * (double)v.equal /
					       (double)v.total : 0;

			t++;
			if (bad)
				failed++;
			else
				passed++;
			if (json) {
				json_object *e = json_object_new_object();
				char name[4096];

				snprintf(name, sizeof(name), "%s/%s", dir, sets[s]);
				json_object_object_add(e, "test", json_object_new_string(name));
				json_object_object_add(e, "ok", json_object_new_boolean(!bad));
				if (bad)
					json_object_object_add(e, "reason",
							       json_object_new_string(v.reason));
				else {
					json_object_object_add(e, "max_diff",
							       json_object_new_double(v.max_diff));
					json_object_object_add(e, "equal_fraction",
							       json_object_new_double(pct / 100));
					if (v.rel_used)
						json_object_object_add(e, "rel_l2",
								       json_object_new_double(v.rel_l2));
				}
				json_object_array_add(ja, e);
			} else if (bad) {
				char *nl;

				/* one line; the rest of a multi-line reason as comments */
				nl = strchr(v.reason, '\n');
				if (nl)
					*nl = 0;
				printf("not ok %u - %s/%s: %s\n", t, dir, sets[s],
				       v.reason);
				while (nl) {
					char *line = nl + 1;

					nl = strchr(line, '\n');
					if (nl)
						*nl = 0;
					if (*line)
						printf("# %s\n", line);
				}
			} else if (v.rel_used) {
				printf("ok %u - %s/%s: max diff %g, %.1f%% exactly equal, relative L2 %.3g\n",
				       t, dir, sets[s], v.max_diff, pct, v.rel_l2);
			} else {
				printf("ok %u - %s/%s: max diff %g, %.1f%% exactly equal\n",
				       t, dir, sets[s], v.max_diff, pct);
			}
			fflush(stdout);
			free(sets[s]);
		}
		free(sets);
	}
	if (json) {
		json_object_object_add(jo, "tests", ja);
		json_object_object_add(jo, "passed", json_object_new_int((int)passed));
		json_object_object_add(jo, "failed", json_object_new_int((int)failed));
		printf("%s\n", json_object_to_json_string_ext(jo, JSON_C_TO_STRING_PRETTY));
		json_object_put(jo);
	} else {
		printf("1..%u\n%u passed, %u failed\n", t, passed, failed);
	}
	return failed ? EXIT_FAIL : 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		vpux_cli_version("vpux-onnx");
		return 0;
	}
	if (cmd[0] == '-') {
		err("unknown option '%s'", cmd);
		usage(stderr);
		return EXIT_USAGE;
	}
	/* getopt_long on the subcommand's arguments */
	optind = 1;
	if (!strcmp(cmd, "compile"))
		return cmd_compile(argc - 1, argv + 1);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "test"))
		return cmd_test(argc - 1, argv + 1);
	err("unknown command '%s' (compile, run, test)", cmd);
	usage(stderr);
	return EXIT_USAGE;
}
