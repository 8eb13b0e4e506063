// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-onnx: compile ONNX models for the NPU, run them, and run the ONNX
 * backend tests (Documentation/vpux-onnx.rst).
 *
 *	vpux-onnx compile MODEL.onnx -o OUT.vpuxl [--report] [--vasm FILE]
 *			  [--name NAME] [--no-cmx] [--fold NAME=FILE]...
 *	vpux-onnx run MODEL.onnx|NET.vpuxl --input NAME=FILE... --output-dir DIR
 *		      [--device inproc|/dev/accel/accelN] [--json]
 *	vpux-onnx test DIR... [--device ...] [--json]
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
		"usage: vpux-onnx compile MODEL.onnx -o OUT.vpuxl [--report] [--vasm FILE]\n"
		"                         [--name NAME] [--no-cmx] [--fold NAME=FILE]...\n"
		"       vpux-onnx run MODEL.onnx|NET.vpuxl --input NAME=FILE... --output-dir DIR\n"
		"                     [-d DEV] [--json]\n"
		"       vpux-onnx test DIR... [-d DEV] [--json]\n"
		"       vpux-onnx --help | --version\n"
		"\n"
		"DEV: inproc (default), auto, /dev/accel/accelN or N; see vpux-onnx(1).\n"
		"Tensor files are ONNX TensorProto (.pb) or NumPy (.npy: <f4 |u1 |i1 <i4 <i8).\n"
		"Exit status: 0 ok, 1 test/comparison failed, 2 usage or bad input file,\n"
		"3 compile error (unsupported model), 4 runtime or device error.\n");
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

static int read_all(const char *path, void **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL, *q;
	size_t n = 0, cap = 0, got;

	if (!f)
		return -errno;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			q = realloc(p, cap);
			if (!q) {
				free(p);
				fclose(f);
				return -ENOMEM;
			}
			p = q;
		}
		got = fread(p + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(p);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*data = p;
	*size = n;
	return 0;
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

/*
 * Import @path, fold the quantization-parameter inputs among @in (all of
 * @in when @fold_all: compile --fold), compile. On a compile error the
 * message is in @msg.
 */
static int compile_model(const char *path, struct named *in, unsigned int nin,
			 int fold_all, const struct vpuxc_options *o,
			 struct vpuxc_result *r, char *msg, size_t cap)
{
	struct vpuxc_model *m;
	unsigned int i;
	int ret;

	ret = vpuxc_import_file(path, &m);
	if (ret) {
		snprintf(msg, cap, "%s", why(ret));
		return EXIT_COMPILE;
	}
	for (i = 0; i < nin; i++) {
		if (!fold_all && !vpuxc_model_input_is_qparam(m, in[i].name))
			continue;
		ret = vpuxc_model_fold_input(m, &in[i].t);
		if (ret) {
			snprintf(msg, cap, "folding input '%s' (%s): %s",
				 in[i].name, in[i].path, why(ret));
			vpuxc_model_free(m);
			return EXIT_COMPILE;
		}
		in[i].used = 1;
	}
	ret = vpuxc_compile(m, o, r);
	vpuxc_model_free(m);
	if (ret) {
		snprintf(msg, cap, "%s", why(ret));
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
	for (i = 0; i < out->io.n_inputs; i++) {
		for (j = 0; j < nin; j++)
			if (!in[j].used && !strcmp(in[j].name, out->io.inputs[i].name))
				break;
		ret = vpux_network_input(net, i, &d);
		ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &ib[i]);
		if (ret) {
			snprintf(msg, cap, "input '%s': %s", in[j].name, why(ret));
			goto out;
		}
		ret = vpuxc_io_to_device(&out->io.inputs[i], &in[j].t,
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
		vpux_network_output(net, i, &d);
		ret = vpuxc_io_from_device(&out->io.outputs[i],
					   vpux_buffer_map(ob[i]), d.size,
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

static int cmd_compile(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "report", no_argument, NULL, 'r' },
		{ "vasm", required_argument, NULL, 'v' },
		{ "name", required_argument, NULL, 'n' },
		{ "fold", required_argument, NULL, 'f' },
		{ "no-cmx", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vpuxc_options o = { .report = 0 };
	struct vpuxc_result r;
	struct named fold[MAX_INPUTS];
	const char *outp = NULL, *vasm = NULL;
	unsigned int nfold = 0;
	char msg[4096];
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
	ret = compile_model(argv[optind], fold, nfold, 1, &o, &r, msg,
			    sizeof(msg));
	free_named(fold, nfold);
	if (ret) {
		err("%s: %s", argv[optind], msg);
		return ret;
	}
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
	if (o.report && r.report)
		fputs(r.report, stdout);
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct named in[MAX_INPUTS];
	const char *dir = NULL, *device = "inproc", *model;
	char devbuf[32];
	unsigned int nin = 0, i;
	struct vpuxc_result r;
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
	ret = read_all(model, &lf, &size);
	if (ret) {
		err("%s: cannot read: %s", model, strerror(-ret));
		free_named(in, nin);
		return EXIT_USAGE;
	}
	if (!is_elf(lf, size)) {	/* an ONNX model: compile it */
		free(lf);
		lf = NULL;
		ret = compile_model(model, in, nin, 0, NULL, &r, msg,
				    sizeof(msg));
		if (ret) {
			err("%s: %s", model, msg);
			free_named(in, nin);
			return ret;
		}
	}
	ret = run_loadable(lf ? lf : r.loadable, lf ? size : r.size, device,
			   in, nin, &out, msg, sizeof(msg));
	free(lf);
	vpuxc_result_fini(&r);
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

/*
 * Compare output @k with its reference: integers within 1, floats within
 * one quantization step (the output's scale) + 1e-6. 0 if it passes.
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
	if (got->dtype == VPUXC_FLOAT && io->axis >= 0)
		for (d = (uint32_t)io->axis + 1; d < io->rank; d++)
			inner *= (size_t)io->dims[d];
	for (i = 0; i < n; i++) {
		double x = elem(got, i), y = elem(ref, i), diff, tol = 1;

		if (got->dtype == VPUXC_FLOAT) {
			uint32_t q = io->axis < 0 || !io->qcount ? 0 :
				     (uint32_t)((i / inner) % io->qcount);

			tol = (io->qcount ? io->scales[q] : 0) + 1e-6;
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
	struct vpuxc_result r;
	struct run_out out;
	unsigned int nin = 0, nref = 0, i, k;
	char path[4096], model[4096], msg[4096];
	int ret, fail = 1;

	memset(v, 0, sizeof(*v));
	memset(&r, 0, sizeof(r));
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
	ret = vpuxc_compile(m, NULL, &r);
	if (ret) {
		snprintf(v->reason, sizeof(v->reason), "compile: %s", why(ret));
		goto out;
	}
	for (i = 0; i < nin; i++)
		in[i].path = in[i].name;	/* for messages */
	ret = run_loadable(r.loadable, r.size, device, in, nin, &out, msg,
			   sizeof(msg));
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
