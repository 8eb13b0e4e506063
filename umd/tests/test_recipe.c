// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Run recipes on the in-process device: the seed's example shape
 * (examples/recipes/halves.json: a CPU quantize, one NPU kernel run twice
 * on the two halves of a buffer, a CPU dequantize) bit-exact against the
 * CPU reference, again after wait, with VPUX_RUNNER_CHECK and from two
 * threads at once; every load-time rule with a bad recipe and its
 * message; the CPU library errors; unbound input, a sub-buffer past its
 * parent, a failing CPU function and execute while running. TAP.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>

#include "vpux.h"

#define TMP BUILDDIR "/umd/tests/recipe-tmp"
#define HALVES BUILDDIR "/examples/recipes/halves.json"
#define LOADABLE BUILDDIR "/examples/half_sigmoid.vpux"
/* a network with symbols (test_plan writes it) */
#define PLAN BUILDDIR "/umd/fuzz/seeds/mlp_tokens.vpux"

static int fails, tests;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!cond)
		fails++;
	printf("%s %d - ", cond ? "ok" : "not ok", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* write @json (with ' for ") to TMP/@name.json; its path */
static const char *put(const char *name, const char *json)
{
	static char path[256];
	FILE *f;
	const char *p;

	snprintf(path, sizeof(path), TMP "/%s.json", name);
	f = fopen(path, "w");
	if (!f)
		return path;
	for (p = json; *p; p++)
		fputc(*p == '\'' ? '"' : *p, f);
	fclose(f);
	return path;
}

/* ---- the expected result of halves.json, computed here ---- */
static int8_t q8(float x, float scale, int zp)
{
	float r = nearbyintf(x / scale) + (float)zp;

	return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

static void expected(struct vpux_device *dev, const float *in, float *out)
{
	struct vpux_network *net;
	int8_t q[256], o[256];
	const void *ins[1];
	void *outs[1];
	unsigned int n, c, hw;

	for (n = 0; n < 2; n++)
		for (c = 0; c < 8; c++)
			for (hw = 0; hw < 16; hw++)
				q[(n * 16 + hw) * 8 + c] =
					q8(in[(n * 8 + c) * 16 + hw], 0.0625f, 0);
	if (vpux_network_load_file(dev, LOADABLE, &net)) {
		memset(out, 0, 1024);
		return;
	}
	/* run 1: ifm_q[0, 128) -> ofm_q[128, 256); run 2 the other way */
	ins[0] = q;
	outs[0] = o + 128;
	vpux_network_run_reference(net, ins, outs);
	ins[0] = q + 128;
	outs[0] = o;
	vpux_network_run_reference(net, ins, outs);
	vpux_network_unload(net);
	for (n = 0; n < 2; n++)
		for (c = 0; c < 8; c++)
			for (hw = 0; hw < 16; hw++)
				out[(n * 8 + c) * 16 + hw] =
					(float)(o[(n * 16 + hw) * 8 + c] + 128) *
					0.00390625f;
}

static void fill_input(float *x, unsigned int seed)
{
	unsigned int i;

	srand(seed);
	for (i = 0; i < 256; i++)
		x[i] = (float)(rand() % 4001 - 2000) / 256.f;
}

/* halves.json on @dev: 0 if bit-exact, @rounds times with new inputs */
static int run_halves(struct vpux_device *dev, unsigned int seed,
		      unsigned int rounds, unsigned int flags, char *why,
		      size_t len)
{
	struct vpux_runner *r;
	struct vpux_buffer *ib = NULL, *ob = NULL;
	float want[256];
	unsigned int k;
	int ret;

	ret = vpux_runner_create(dev, HALVES, &r);
	if (ret) {
		snprintf(why, len, "create: %s", vpux_last_error());
		return ret;
	}
	vpux_runner_set_flags(r, flags);
	if (vpux_buffer_alloc(dev, 1024, &ib) || vpux_buffer_alloc(dev, 1024, &ob) ||
	    vpux_runner_bind_input(r, "ifm", ib, 0) ||
	    vpux_runner_bind_output(r, "ofm", ob, 0)) {
		snprintf(why, len, "bind: %s", vpux_last_error());
		ret = -1;
		goto out;
	}
	for (k = 0; k < rounds; k++) {
		fill_input(vpux_buffer_map(ib), seed + k);
		expected(dev, vpux_buffer_map(ib), want);
		memset(vpux_buffer_map(ob), 0xa5, 1024);
		ret = vpux_runner_execute(r);
		if (!ret)
			ret = vpux_runner_wait(r, -1);
		if (ret) {
			snprintf(why, len, "round %u: %s", k, vpux_last_error());
			goto out;
		}
		if (memcmp(vpux_buffer_map(ob), want, 1024)) {
			snprintf(why, len, "round %u: output differs", k);
			ret = -1;
			goto out;
		}
	}
out:
	vpux_runner_destroy(r);
	vpux_buffer_free(ib);
	vpux_buffer_free(ob);
	return ret;
}

struct thr {
	struct vpux_device *dev;
	unsigned int seed;
	int ret;
	char why[512];
};

static void *thread_main(void *arg)
{
	struct thr *t = arg;

	t->ret = run_halves(t->dev, t->seed, 4, 0, t->why, sizeof(t->why));
	return NULL;
}

static void test_halves(struct vpux_device *dev)
{
	struct thr t[2] = { { dev, 100, 0, "" }, { dev, 200, 0, "" } };
	pthread_t th[2];
	char why[512] = "";
	int ret, i;

	ret = run_halves(dev, 1, 3, 0, why, sizeof(why));
	ok(!ret, "halves.json: quantize, a kernel on both halves, dequantize: bit-exact, 3 executions %s",
	   why);
	ret = run_halves(dev, 7, 1, VPUX_RUNNER_CHECK, why, sizeof(why));
	ok(!ret, "halves.json with VPUX_RUNNER_CHECK: every NPU run matches the reference %s",
	   why);
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, thread_main, &t[i]);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	ok(!t[0].ret && !t[1].ret,
	   "two runners on one device from two threads: bit-exact %s %s",
	   t[0].why, t[1].why);
}

/*
 * Four NPU runs, each reading what the one before wrote: one chain, so
 * each job must start only once the previous one is done.
 */
static void test_chain(struct vpux_device *dev)
{
	static const char json[] =
		"{'header':{'target':'vpux1','version':'1.0'},"
		"'resources':{'buffers':[{'name':'in','type':'input','size':128},"
		"{'name':'t','type':'internal','size':384},{'name':'out','type':'output','size':128}],"
		"'kernels':[{'name':'k','loadable':'" LOADABLE "'}]},"
		"'execution':{'runs':["
		"{'name':'k','arguments':[{'name':'in','argidx':0},{'name':'t','argidx':1,'offset':256,'size':128}]},"
		"{'name':'k','arguments':[{'name':'t','argidx':0,'offset':256,'size':128},{'name':'t','argidx':1,'offset':0,'size':128}]},"
		"{'name':'k','arguments':[{'name':'t','argidx':0,'offset':0,'size':128},{'name':'t','argidx':1,'offset':128,'size':128}]},"
		"{'name':'k','arguments':[{'name':'t','argidx':0,'offset':128,'size':128},{'name':'out','argidx':1}]}]}}";
	struct vpux_network *net;
	struct vpux_runner *r;
	struct vpux_buffer *ib, *ob;
	uint8_t a[128], b[128];
	const void *ins[1];
	void *outs[1];
	int ret, k, round, same = 1;

	ret = vpux_runner_create(dev, put("chain", json), &r);
	ok(!ret, "chain.json loads (%s)", ret ? vpux_last_error() : "");
	if (ret)
		return;
	vpux_network_load_file(dev, LOADABLE, &net);
	vpux_buffer_alloc(dev, 128, &ib);
	vpux_buffer_alloc(dev, 128, &ob);
	vpux_runner_bind_input(r, "in", ib, 0);
	vpux_runner_bind_output(r, "out", ob, 0);
	for (round = 0; round < 8 && same; round++) {
		srand(round);
		for (k = 0; k < 128; k++)
			a[k] = (uint8_t)rand();
		memcpy(vpux_buffer_map(ib), a, 128);
		for (k = 0; k < 4; k++) {
			ins[0] = a;
			outs[0] = b;
			vpux_network_run_reference(net, ins, outs);
			memcpy(a, b, 128);
		}
		ret = vpux_runner_execute(r);
		if (!ret)
			ret = vpux_runner_wait(r, -1);
		same = !ret && !memcmp(vpux_buffer_map(ob), a, 128);
	}
	ok(same, "chain.json: four chained NPU runs, each on the previous one's output: bit-exact, 8 executions (%s)",
	   ret ? vpux_last_error() : "");
	vpux_runner_destroy(r);
	vpux_network_unload(net);
	vpux_buffer_free(ib);
	vpux_buffer_free(ob);
}

/*
 * A 4 MiB DMA copy, then a SHAVE kernel on the first 128 bytes it wrote:
 * two engine kinds, so only the chain's dependency keeps the kernel from
 * reading the bytes before the copy wrote them.
 */
static void test_chain_big(struct vpux_device *dev)
{
	static const char json[] =
		"{'header':{'target':'vpux1','version':'1.0'},"
		"'resources':{'buffers':[{'name':'in','type':'input','size':4194304},"
		"{'name':'t','type':'internal','size':4194304},{'name':'out','type':'output','size':128}],"
		"'kernels':[{'name':'copy','loadable':'" BUILDDIR "/umd/tests/recipe/copy_big.vpux'},"
		"{'name':'k','loadable':'" LOADABLE "'}]},"
		"'execution':{'runs':["
		"{'name':'copy','arguments':[{'name':'in','argidx':0},{'name':'t','argidx':1}]},"
		"{'name':'k','arguments':[{'name':'t','argidx':0,'size':128},{'name':'out','argidx':1}]}]}}";
	struct vpux_network *net;
	struct vpux_runner *r;
	struct vpux_buffer *ib, *ob;
	unsigned char *in, want[128];
	const void *ins[1];
	void *outs[1];
	int ret, round, same = 1;
	size_t k;

	ret = vpux_runner_create(dev, put("chain_big", json), &r);
	ok(!ret, "chain_big.json loads (%s)", ret ? vpux_last_error() : "");
	if (ret)
		return;
	vpux_network_load_file(dev, LOADABLE, &net);
	vpux_buffer_alloc(dev, 4194304, &ib);
	vpux_buffer_alloc(dev, 128, &ob);
	vpux_runner_bind_input(r, "in", ib, 0);
	vpux_runner_bind_output(r, "out", ob, 0);
	in = vpux_buffer_map(ib);
	for (round = 0; round < 4 && same; round++) {
		for (k = 0; k < 4194304; k++)
			in[k] = (unsigned char)(k * 7 + (size_t)round * 13 + 1);
		ins[0] = in;
		outs[0] = want;
		vpux_network_run_reference(net, ins, outs);
		ret = vpux_runner_execute(r);
		if (!ret)
			ret = vpux_runner_wait(r, -1);
		same = !ret && !memcmp(vpux_buffer_map(ob), want, 128);
	}
	ok(same, "chain_big.json: a SHAVE run after a 4 MiB DMA copy reads what the copy wrote, %d executions (%s)",
	   round, ret ? vpux_last_error() : "");
	vpux_runner_destroy(r);
	vpux_network_unload(net);
	vpux_buffer_free(ib);
	vpux_buffer_free(ob);
}

/* ---- bad recipes: the error code and the message ---- */
#define HDR "'header':{'target':'vpux1','version':'1.0'}"
#define KER "'kernels':[{'name':'k','loadable':'" LOADABLE "'}]"
#define CPU "'cpus':[{'name':'fill','library_path':'libvpux-testplugin.so'}]"
#define BUFS "'buffers':[{'name':'a','type':'internal','size':256},{'name':'b','type':'internal','size':256},{'name':'e','type':'input'}]"
#define RES "'resources':{" BUFS "," KER "," CPU "}"
#define RUN_OK "{'name':'k','arguments':[{'name':'a','argidx':0,'size':128},{'name':'b','argidx':1,'offset':128,'size':128}]}"
#define R(runs) "{" HDR "," RES ",'execution':{'runs':[" runs "]}}"

static const struct bad {
	const char *name, *json;
	int code;
	const char *msg;
} bad[] = {
	{ "syntax", "{'header':", VPUX_E_FORMAT, "recipe: not JSON: unexpected end of text" },
	{ "kernel-symbols", "{" HDR ",'resources':{" BUFS ",'kernels':[{'name':'k','loadable':'" PLAN "'}]," CPU "},'execution':{'runs':[" RUN_OK "]}}",
	  VPUX_E_UNSUPPORTED, "resources.kernels[0].loadable: " PLAN " has symbols (dynamic shapes), which a recipe cannot bind yet" },
	{ "trailing", R(RUN_OK) " x", VPUX_E_FORMAT, "recipe: text after the JSON value" },
	{ "no-header", "{}", VPUX_E_FORMAT, "recipe: missing member \"header\"" },
	{ "root-member", "{" HDR "," RES ",'execution':{'runs':[" RUN_OK "]},'x':1}",
	  VPUX_E_FORMAT, "recipe: unknown member \"x\"" },
	{ "version", "{'header':{'target':'vpux1','version':'2.0'}," RES ",'execution':{'runs':[" RUN_OK "]}}",
	  VPUX_E_VERSION, "header.version: recipe format 2.0, this library reads 1.x" },
	{ "version-text", "{'header':{'target':'vpux1','version':'1'}," RES ",'execution':{'runs':[" RUN_OK "]}}",
	  VPUX_E_FORMAT, "header.version: \"1\" is not MAJOR.MINOR" },
	{ "target", "{'header':{'target':'npu9','version':'1.0'}," RES ",'execution':{'runs':[" RUN_OK "]}}",
	  VPUX_E_FORMAT, "header.target: \"npu9\" is not a target this library knows" },
	{ "buffer-dup", "{" HDR ",'resources':{'buffers':[{'name':'a','type':'input'},{'name':'a','type':'output'}]," KER "},'execution':{'runs':[" RUN_OK "]}}",
	  VPUX_E_FORMAT, "resources.buffers[1]: name \"a\" is used by resources.buffers[0] already" },
	{ "buffer-type", "{" HDR ",'resources':{'buffers':[{'name':'a','type':'big'}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.buffers[0]: type \"big\" is not input, output, internal, weight, spill or unknown" },
	{ "internal-size", "{" HDR ",'resources':{'buffers':[{'name':'a','type':'internal'}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.buffers[0]: internal buffer \"a\" has no size" },
	{ "size-zero", "{" HDR ",'resources':{'buffers':[{'name':'a','type':'input','size':0}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.buffers[0].size: 0 outside 1..1099511627776" },
	{ "size-string", "{" HDR ",'resources':{'buffers':[{'name':'a','type':'input','size':'8'}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.buffers[0].size: must be an integer, not string" },
	{ "buffer-member", "{" HDR ",'resources':{'buffers':[{'name':'a','type':'input','sise':8}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.buffers[0]: unknown member \"sise\"" },
	{ "kernel-dup", "{" HDR ",'resources':{'kernels':[{'name':'k','loadable':'x'},{'name':'k','loadable':'y'}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.kernels[1]: name \"k\" is used by resources.kernels[0] already" },
	{ "cpu-dup", "{" HDR ",'resources':{'cpus':[{'name':'f','library_path':'x'},{'name':'f','library_path':'y'}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.cpus[1]: name \"f\" is used by resources.cpus[0] already" },
	{ "cpu-path", "{" HDR ",'resources':{'cpus':[{'name':'f'}]},'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "resources.cpus[0]: missing member \"library_path\"" },
	{ "no-runs", "{" HDR "," RES ",'execution':{'runs':[]}}",
	  VPUX_E_FORMAT, "execution.runs: no runs" },
	{ "run-kernel", R("{'name':'q'}"),
	  VPUX_E_FORMAT, "execution.runs[0].name: no kernel \"q\" in resources.kernels" },
	{ "run-cpu", R("{'name':'k','where':'cpu'}"),
	  VPUX_E_FORMAT, "execution.runs[0].name: no CPU function \"k\" in resources.cpus" },
	{ "run-where", R("{'name':'k','where':'gpu'}"),
	  VPUX_E_FORMAT, "execution.runs[0].where: \"gpu\" is not npu or cpu" },
	{ "arg-buffer", R(RUN_OK ",{'name':'k','arguments':[{'name':'zz','argidx':0}]}"),
	  VPUX_E_FORMAT, "execution.runs[1].arguments[0]: name \"zz\" is not in resources.buffers" },
	{ "arg-twice", R("{'name':'k','arguments':[{'name':'a','argidx':0,'size':128},{'name':'b','argidx':0,'size':128}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[1].argidx: argidx 0 is given twice in this run" },
	{ "arg-idx", R("{'name':'k','arguments':[{'name':'a','argidx':64}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[0].argidx: 64 outside 0..63" },
	{ "arg-align", R("{'name':'k','arguments':[{'name':'a','argidx':0,'offset':4,'size':128},{'name':'b','argidx':1,'size':128}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[0].offset: 4 is not a multiple of 8" },
	{ "arg-past", R("{'name':'k','arguments':[{'name':'a','argidx':0,'size':128},{'name':'b','argidx':1,'offset':192,'size':128}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[1].size: 128 bytes at offset 192 end past the 256-byte buffer \"b\"" },
	{ "arg-offset", R("{'name':'k','arguments':[{'name':'a','argidx':0,'offset':256}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[0].offset: 256 is not inside the 256-byte buffer \"a\"" },
	{ "npu-const", R("{'name':'k','constants':[{'value':'1','argidx':2}]}"),
	  VPUX_E_FORMAT, "execution.runs[0]: an NPU kernel takes buffers only, no constants" },
	{ "const-type", R("{'name':'fill','where':'cpu','constants':[{'value':'1','type':'float','argidx':1}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].constants[0].type: \"float\" is not int or string" },
	{ "const-int", R("{'name':'fill','where':'cpu','constants':[{'value':'abc','type':'int','argidx':1}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].constants[0].value: \"abc\" is not an integer" },
	{ "const-value", R("{'name':'fill','where':'cpu','constants':[{'value':[1],'argidx':1}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].constants[0].value: must be a string, not array" },
	{ "const-twice", R("{'name':'fill','where':'cpu','arguments':[{'name':'a','argidx':1}],'constants':[{'value':1,'type':'int','argidx':1}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].constants[0].argidx: argidx 1 is given twice in this run" },
	{ "kernel-count", R("{'name':'k','arguments':[{'name':'a','argidx':0,'size':128}]}"),
	  VPUX_E_FORMAT, "execution.runs[0]: kernel \"k\" takes 2 arguments, the run gives 1" },
	{ "kernel-idx", R("{'name':'k','arguments':[{'name':'a','argidx':0,'size':128},{'name':'b','argidx':2,'size':128}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[1].argidx: 2, but kernel \"k\" takes 2 arguments" },
	{ "kernel-size", R("{'name':'k','arguments':[{'name':'a','argidx':0,'size':64},{'name':'b','argidx':1,'size':128}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[0].size: 64 bytes, kernel \"k\" input \"x\" has 128" },
	{ "kernel-short", R("{'name':'k','arguments':[{'name':'a','argidx':0,'offset':192},{'name':'b','argidx':1,'size':128}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].arguments[0]: the 64 bytes of \"a\" from offset 192 are fewer than kernel \"k\" input \"x\" needs (128)" },
	{ "loadable", "{" HDR ",'resources':{'kernels':[{'name':'k','loadable':'nope.vpux'}]},'execution':{'runs':[{'name':'k'}]}}",
	  VPUX_E_IO, "resources.kernels[0].loadable: " TMP "/nope.vpux: " },
	{ "cpu-count", R("{'name':'fill','where':'cpu','arguments':[{'name':'a','argidx':0}]}"),
	  VPUX_E_FORMAT, "execution.runs[0]: CPU function \"fill\" takes 2 arguments, the run gives 1" },
	{ "cpu-idx", R("{'name':'fill','where':'cpu','arguments':[{'name':'a','argidx':0}],'constants':[{'value':1,'type':'int','argidx':5}]}"),
	  VPUX_E_FORMAT, "execution.runs[0].constants[0].argidx: 5, but CPU function \"fill\" takes 2 arguments" },
	{ "lib-missing", "{" HDR ",'resources':{'cpus':[{'name':'f','library_path':'libnope.so'}]},'execution':{'runs':[{'name':'f','where':'cpu'}]}}",
	  VPUX_E_IO, "resources.cpus[0].library_path: \"libnope.so\" is neither in VPUX_CPU_LIBRARY_PATH (" },
	{ "lib-noinit", "{" HDR ",'resources':{'cpus':[{'name':'f','library_path':'libvpux-noinit.so'}]},'execution':{'runs':[{'name':'f','where':'cpu'}]}}",
	  VPUX_E_FORMAT, "libvpux-noinit.so exports no library_init()" },
	{ "lib-function", "{" HDR ",'resources':{'cpus':[{'name':'nope','library_path':'libvpux-testplugin.so'}]},'execution':{'runs':[{'name':'nope','where':'cpu'}]}}",
	  VPUX_E_FORMAT, "resources.cpus[0].name: " BUILDDIR "/umd/tests/recipe/libvpux-testplugin.so has no function \"nope\" (lookup: No such file or directory)" },
	{ "data-abs", "{" HDR ",'resources':{'buffers':[{'name':'w','type':'weight','size':128,'data':{'file':'/etc/passwd','dtype':'int8','shape':[128]}}]," KER "},'execution':{'runs':[{'name':'k'}]}}",
	  VPUX_E_FORMAT, "resources.buffers[0].data.file: \"/etc/passwd\" is an absolute path; the file must lie in the recipe's directory" },
	{ "data-dotdot", "{" HDR ",'resources':{'buffers':[{'name':'w','type':'weight','size':128,'data':{'file':'x/../../w.bin','dtype':'int8','shape':[128]}}]," KER "},'execution':{'runs':[{'name':'k'}]}}",
	  VPUX_E_FORMAT, "resources.buffers[0].data.file: \"x/../../w.bin\" leaves the recipe's directory ('..')" },
	{ "data-dotdot0", "{" HDR ",'resources':{'buffers':[{'name':'w','type':'weight','size':128,'data':{'file':'../w.bin','dtype':'int8','shape':[128]}}]," KER "},'execution':{'runs':[{'name':'k'}]}}",
	  VPUX_E_FORMAT, "resources.buffers[0].data.file: \"../w.bin\" leaves the recipe's directory ('..')" },
	{ "data-shape", "{" HDR ",'resources':{'buffers':[{'name':'w','type':'weight','size':128,'data':{'file':'w.bin','dtype':'float32','shape':[2,8]}}]," KER "},'execution':{'runs':[{'name':'k'}]}}",
	  VPUX_E_FORMAT, "resources.buffers[0].data: float32 of this shape is 64 bytes, the buffer \"w\" has 128" },
	{ "data-dtype", "{" HDR ",'resources':{'buffers':[{'name':'w','type':'weight','size':128,'data':{'file':'w.bin','dtype':'f32','shape':[32]}}]," KER "},'execution':{'runs':[{'name':'k'}]}}",
	  VPUX_E_FORMAT, "resources.buffers[0].data.dtype: \"f32\" is not float32, float16, int8, uint8, int32 or int64" },
	{ "data-nosize", "{" HDR ",'resources':{'buffers':[{'name':'w','type':'weight','data':{'file':'w.bin','dtype':'int8','shape':[128]}}]," KER "},'execution':{'runs':[{'name':'k'}]}}",
	  VPUX_E_FORMAT, "resources.buffers[0]: buffer \"w\" has data but no size" },
	{ "data-missing", "{" HDR ",'resources':{'buffers':[{'name':'w','type':'weight','size':128,'data':{'file':'nope.bin','dtype':'int8','shape':[128]}},{'name':'b','type':'internal','size':128}]," KER "},'execution':{'runs':[{'name':'k','arguments':[{'name':'w','argidx':0},{'name':'b','argidx':1}]}]}}",
	  VPUX_E_IO, "resources.buffers[0].data.file: " TMP "/nope.bin: No such file or directory" },
	{ "lib-notso", "{" HDR ",'resources':{'cpus':[{'name':'f','library_path':'" HALVES "'}]},'execution':{'runs':[{'name':'f','where':'cpu'}]}}",
	  VPUX_E_FORMAT, "resources.cpus[0].library_path: dlopen: " },
};

static void test_bad(struct vpux_device *dev)
{
	struct vpux_runner *r;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *path = put(bad[i].name, bad[i].json);

		r = NULL;
		ret = vpux_runner_create(dev, path, &r);
		ok(ret == bad[i].code && strstr(vpux_last_error(), bad[i].msg) &&
		   !strncmp(vpux_last_error(), path, strlen(path)),
		   "bad recipe %s: %s (%d: %s)", bad[i].name, bad[i].msg, ret,
		   vpux_last_error());
		vpux_runner_destroy(r);
	}
	ret = vpux_runner_create(dev, TMP "/absent.json", &r);
	ok(ret == VPUX_E_IO && strstr(vpux_last_error(), "absent.json: cannot open: No such file"),
	   "a recipe file that is not there: VPUX_E_IO (%s)", vpux_last_error());
}

/* run @r's kernel once: its output "b" is the reference's of @ins */
static void check_data_run(struct vpux_device *dev, struct vpux_runner *r,
			   const void **ins, void **outs,
			   const unsigned char *want, const char *what)
{
	struct vpux_network *net = NULL;
	struct vpux_buffer *ob = NULL;
	int ret;

	vpux_buffer_alloc(dev, 128, &ob);
	vpux_network_load_file(dev, LOADABLE, &net);
	vpux_network_run_reference(net, ins, outs);
	ret = vpux_runner_bind_output(r, "b", ob, 0);
	if (!ret)
		ret = vpux_runner_execute(r);
	if (!ret)
		ret = vpux_runner_wait(r, -1);
	ok(!ret && !memcmp(vpux_buffer_map(ob), want, 128), "%s (%s)", what,
	   ret ? vpux_last_error() : "");
	vpux_network_unload(net);
	vpux_buffer_free(ob);
}

/*
 * A weight buffer's bytes from a file next to the recipe: loaded before
 * the first run; a file shorter than the buffer from its offset refused.
 */
static void test_data(struct vpux_device *dev)
{
	static const char json[] = "{" HDR ",'resources':{'buffers':["
		"{'name':'w','type':'weight','size':128,'data':{'file':'w.bin','offset':64,'dtype':'int8','shape':[2,64]}},"
		"{'name':'b','type':'output','size':128}]," KER "},"
		"'execution':{'runs':[{'name':'k','arguments':[{'name':'w','argidx':0},{'name':'b','argidx':1}]}]}}";
	unsigned char bytes[192], want[128];
	const void *ins[1] = { bytes + 64 };
	void *outs[1] = { want };
	struct vpux_runner *r = NULL;
	const char *p;
	FILE *f;
	size_t k;
	int ret;

	for (k = 0; k < sizeof(bytes); k++)
		bytes[k] = (unsigned char)(k * 37 + 5);
	f = fopen(TMP "/w.bin", "wb");
	if (f) {
		fwrite(bytes, 1, sizeof(bytes), f);
		fclose(f);
	}
	p = put("data", json);
	ret = vpux_runner_create(dev, p, &r);
	ok(!ret, "data.json: a weight buffer from w.bin at offset 64 loads (%s)",
	   ret ? vpux_last_error() : "");
	if (!ret)
		check_data_run(dev, r, ins, outs, want,
			       "data.json: the kernel reads the file's bytes");
	vpux_runner_destroy(r);
	/* one byte short of offset + size */
	f = fopen(TMP "/w.bin", "wb");
	if (f) {
		fwrite(bytes, 1, sizeof(bytes) - 1, f);
		fclose(f);
	}
	r = NULL;
	ret = vpux_runner_create(dev, p, &r);
	ok(ret == VPUX_E_FORMAT &&
	   strstr(vpux_last_error(), "resources.buffers[0].data: " TMP "/w.bin has 191 bytes, buffer \"w\" needs 128 from offset 64"),
	   "data.json: a file too short for the buffer refused (%d: %s)", ret,
	   vpux_last_error());
	vpux_runner_destroy(r);
}

/* @path's bytes (malloc'ed), NULL if unreadable */
static void *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		p = malloc((size_t)n);
		if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		*size = (size_t)n;
	}
	if (f)
		fclose(f);
	return p;
}

/* @json with ' for " into @out */
static size_t dq(const char *json, char *out)
{
	size_t n;

	for (n = 0; json[n]; n++)
		out[n] = json[n] == '\'' ? '"' : json[n];
	out[n] = 0;
	return n;
}

/* API 1.8: the recipe, its loadable and its data file from memory */
static void test_from_memory(struct vpux_device *dev)
{
	static const char json[] = "{" HDR ",'resources':{'buffers':["
		"{'name':'w','type':'weight','size':128,'data':{'file':'w.bin','offset':64,'dtype':'int8','shape':[2,64]}},"
		"{'name':'b','type':'output','size':128}],"
		"'kernels':[{'name':'k','loadable':'k.vpux'}]},"
		"'execution':{'runs':[{'name':'k','arguments':[{'name':'w','argidx':0},{'name':'b','argidx':1}]}]}}";
	unsigned char bytes[192], want[128];
	const void *ins[1] = { bytes + 64 };
	void *outs[1] = { want };
	struct vpux_runner_file files[3];
	struct vpux_runner *r = NULL;
	char text[sizeof(json)];
	size_t k, n, lsize = 0;
	void *ld = slurp(LOADABLE, &lsize);
	int ret;

	for (k = 0; k < sizeof(bytes); k++)
		bytes[k] = (unsigned char)(k * 37 + 5);
	n = dq(json, text);
	files[0] = (struct vpux_runner_file){ "k.vpux", ld, lsize };
	files[1] = (struct vpux_runner_file){ "w.bin", bytes, sizeof(bytes) };
	ret = vpux_runner_create_from_memory(dev, text, n, files, 2, &r);
	/* everything was copied: the caller's bytes may go at once */
	memset(text, 0, sizeof(text));
	ok(!ret, "from memory: recipe, loadable and data file load (%s)",
	   ret ? vpux_last_error() : "");
	if (!ret)
		check_data_run(dev, r, ins, outs, want,
			       "from memory: the kernel reads the data file's bytes");
	vpux_runner_destroy(r);

	n = dq(json, text);
#define MEM_ERR(nf, code, msg, name) do {				\
	r = NULL;							\
	ret = vpux_runner_create_from_memory(dev, text, n, files, nf, &r); \
	ok(ret == (code) && strstr(vpux_last_error(), msg) && !r,	\
	   "from memory: " name " (%d: %s)", ret, vpux_last_error());	\
	vpux_runner_destroy(r);						\
	} while (0)
	MEM_ERR(1, VPUX_E_IO,
		"recipe (memory): resources.buffers[0].data.file: 'w.bin' is not among the 1 files given",
		"a data file not given");
	files[1].size = sizeof(bytes) - 1;
	MEM_ERR(2, VPUX_E_FORMAT,
		"resources.buffers[0].data: w.bin has 191 bytes, buffer \"w\" needs 128 from offset 64",
		"a data file too short");
	files[1].size = sizeof(bytes);
	files[0].name = "other.vpux";
	MEM_ERR(2, VPUX_E_IO,
		"recipe (memory): resources.kernels[0].loadable: 'k.vpux' is not among the 2 files given",
		"a loadable not given");
	files[0] = (struct vpux_runner_file){ "k.vpux", bytes, 64 };
	MEM_ERR(2, VPUX_E_FORMAT,
		"resources.kernels[0].loadable: k.vpux: file: bad magic (not ELF)",
		"a loadable that is not one");
	files[0] = (struct vpux_runner_file){ "k.vpux", ld, lsize };
	files[2] = files[1];
	MEM_ERR(3, VPUX_E_INVAL,
		"runner: files[2]: 'w.bin' given twice (files[1])",
		"one name given twice");
	files[2] = (struct vpux_runner_file){ NULL, bytes, 1 };
	MEM_ERR(3, VPUX_E_INVAL, "runner: files[2]: NULL name",
		"a file without a name");
	files[2] = (struct vpux_runner_file){ "x", NULL, 1 };
	MEM_ERR(3, VPUX_E_INVAL, "runner: files[2]: NULL data",
		"a file without data");
	n = 10;	/* cut the JSON */
	MEM_ERR(2, VPUX_E_FORMAT, "recipe (memory): ", "a truncated recipe");
	ret = vpux_runner_create_from_memory(dev, NULL, 1, files, 2, &r);
	ok(ret == VPUX_E_INVAL && strstr(vpux_last_error(), "runner: NULL argument"),
	   "from memory: NULL recipe (%s)", vpux_last_error());
	ret = vpux_runner_create_from_memory(dev, text, 17u << 20, files, 2, &r);
	ok(ret == VPUX_E_INVAL &&
	   strstr(vpux_last_error(), "runner: a recipe of 17825792 bytes, at most 16777216"),
	   "from memory: a recipe above 16 MiB (%s)", vpux_last_error());
	free(ld);
}

/* ---- errors at bind, execute and wait ---- */
static void test_runtime_errors(struct vpux_device *dev)
{
	struct vpux_runner *r;
	struct vpux_buffer *small, *big;
	const char *p;
	int ret;

	vpux_buffer_alloc(dev, 64, &small);
	vpux_buffer_alloc(dev, 4096, &big);

	p = put("unbound", "{" HDR ",'resources':{'buffers':[{'name':'in','type':'input'},{'name':'out','type':'output','size':128}]," KER "},"
		"'execution':{'runs':[{'name':'k','arguments':[{'name':'in','argidx':0},{'name':'out','argidx':1}]}]}}");
	ret = vpux_runner_create(dev, p, &r);
	ok(!ret, "unbound.json loads (%s)", ret ? vpux_last_error() : "");
	if (!ret) {
		ret = vpux_runner_wait(r, 0);
		ok(ret == VPUX_E_STATE && strstr(vpux_last_error(), "not executed"),
		   "wait before execute: VPUX_E_STATE (%s)", vpux_last_error());
		ret = vpux_runner_execute(r);
		ok(ret == VPUX_E_UNBOUND &&
		   strstr(vpux_last_error(), "execute: input buffer \"in\" is not bound (execution.runs[0].arguments[0])"),
		   "unbound input at execute: VPUX_E_UNBOUND (%s)", vpux_last_error());
		ret = vpux_runner_bind_input(r, "in", small, 0);
		ok(ret == VPUX_E_INVAL &&
		   strstr(vpux_last_error(), "bind input: \"in\": 64 bytes from offset 0 of a 64-byte buffer, the recipe needs 128"),
		   "binding a buffer smaller than its runs need: VPUX_E_INVAL (%s)",
		   vpux_last_error());
		ret = vpux_runner_bind_input(r, "out", big, 0);
		ok(ret == VPUX_E_INVAL &&
		   strstr(vpux_last_error(), "bind input: buffer \"out\" is of type output"),
		   "bind_input of an output: VPUX_E_INVAL (%s)", vpux_last_error());
		ret = vpux_runner_bind_output(r, "nope", big, 0);
		ok(ret == VPUX_E_INVAL &&
		   strstr(vpux_last_error(), "bind output: the recipe has no buffer \"nope\""),
		   "bind of an unknown name: VPUX_E_INVAL (%s)", vpux_last_error());
		ret = vpux_runner_bind_input(r, "in", big, 4000);
		ok(ret == VPUX_E_INVAL &&
		   strstr(vpux_last_error(), "96 bytes from offset 4000 of a 4096-byte buffer, the recipe needs 128"),
		   "binding at an offset too near the end: VPUX_E_INVAL (%s)",
		   vpux_last_error());
		vpux_runner_destroy(r);
	}

	/* an unsized input whose sub-buffer lies past what is bound */
	p = put("past", "{" HDR ",'resources':{'buffers':[{'name':'in','type':'input'},{'name':'t','type':'internal','size':128}]," CPU "},"
		"'execution':{'runs':[{'name':'fill','where':'cpu','arguments':[{'name':'in','argidx':0,'offset':4096,'size':8}],'constants':[{'value':1,'type':'int','argidx':1}]},"
		"{'name':'fill','where':'cpu','arguments':[{'name':'t','argidx':0}],'constants':[{'value':1,'type':'int','argidx':1}]}]}}");
	ret = vpux_runner_create(dev, p, &r);
	ok(!ret, "past.json loads (%s)", ret ? vpux_last_error() : "");
	if (!ret) {
		size_t need = 0;

		vpux_runner_buffer_size(r, "in", &need);
		ok(need == 4104, "vpux_runner_buffer_size: what the runs need (%zu)", need);
		ret = vpux_runner_bind_input(r, "in", big, 0);
		ok(ret == VPUX_E_INVAL &&
		   strstr(vpux_last_error(), "the recipe needs 4104"),
		   "a sub-buffer past the end of the bound buffer: VPUX_E_INVAL at bind (%s)",
		   vpux_last_error());
		vpux_runner_destroy(r);
	}

	/* a failing CPU function; then the runner runs again */
	p = put("fail", "{" HDR ",'resources':{'buffers':[{'name':'t','type':'internal','size':64}],"
		"'cpus':[{'name':'fail','library_path':'libvpux-testplugin.so'},{'name':'fill','library_path':'libvpux-testplugin.so'}]},"
		"'execution':{'runs':[{'name':'fill','where':'cpu','arguments':[{'name':'t','argidx':0}],'constants':[{'value':'7','type':'int','argidx':1}]},"
		"{'name':'fail','where':'cpu','arguments':[{'name':'t','argidx':0}],'constants':[{'value':'boom','argidx':1}]}]}}");
	ret = vpux_runner_create(dev, p, &r);
	ok(!ret, "fail.json loads (%s)", ret ? vpux_last_error() : "");
	if (!ret) {
		ret = vpux_runner_execute(r);
		ok(!ret, "execute starts");
		ret = vpux_runner_wait(r, -1);
		ok(ret == VPUX_E_DEVICE &&
		   !strcmp(vpux_last_error(), "execution.runs[1] (CPU function \"fail\"): fail: boom"),
		   "a failing CPU function fails the execution with its message (%s)",
		   vpux_last_error());
		ret = vpux_runner_execute(r);
		if (!ret)
			ret = vpux_runner_wait(r, -1);
		ok(ret == VPUX_E_DEVICE, "the runner executes again after a failure");
		vpux_runner_destroy(r);
	}

	/* execute while running */
	p = put("slow", "{" HDR ",'resources':{'buffers':[{'name':'x','type':'input','size':8}],'cpus':[{'name':'slow','library_path':'libvpux-testplugin.so'}]},"
		"'execution':{'runs':[{'name':'slow','where':'cpu','constants':[{'value':1000,'type':'int','argidx':0}]}]}}");
	ret = vpux_runner_create(dev, p, &r);
	ok(!ret, "slow.json loads (%s)", ret ? vpux_last_error() : "");
	if (!ret) {
		ret = vpux_runner_execute(r);
		ok(!ret, "execute starts");
		ret = vpux_runner_execute(r);
		ok(ret == VPUX_E_BUSY &&
		   strstr(vpux_last_error(), "execute: the runner's last execution has not been waited for"),
		   "execute while running: VPUX_E_BUSY (%s)", vpux_last_error());
		ret = vpux_runner_bind_input(r, "x", big, 0);
		ok(ret == VPUX_E_BUSY &&
		   strstr(vpux_last_error(), "bind input: \"x\": the runner is executing"),
		   "bind while running: VPUX_E_BUSY (%s)", vpux_last_error());
		ret = vpux_runner_wait(r, 0);
		ok(ret == VPUX_E_TIMEOUT &&
		   strstr(vpux_last_error(), "wait: the runner still runs after 0 ms"),
		   "wait(0) while a 1 s CPU run goes on: VPUX_E_TIMEOUT (%s)",
		   vpux_last_error());
		ret = vpux_runner_wait(r, -1);
		ok(!ret, "wait: the first execution completes (%s)", ret ? vpux_last_error() : "");
		ret = vpux_runner_execute(r);
		if (!ret)
			ret = vpux_runner_wait(r, -1);
		ok(!ret, "execute again after wait");
		vpux_runner_destroy(r);
	}
	vpux_buffer_free(small);
	vpux_buffer_free(big);
}

int main(void)
{
	struct vpux_device *dev;

	setenv("VPUX_CPU_LIBRARY_PATH",
	       "/nonexistent:" BUILDDIR "/umd:" BUILDDIR "/umd/tests/recipe", 1);
	mkdir(TMP, 0755);
	if (vpux_device_open("inproc", &dev)) {
		printf("not ok 1 - inproc device: %s\n1..1\n", vpux_last_error());
		return 1;
	}
	test_halves(dev);
	test_chain(dev);
	test_chain_big(dev);
	test_bad(dev);
	test_data(dev);
	test_from_memory(dev);
	test_runtime_errors(dev);
	vpux_device_close(dev);
	printf("1..%d\n", tests);
	return fails ? 1 : 0;
}
