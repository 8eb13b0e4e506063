// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Dynamic axes (Documentation/compiler.rst, "Dynamic axes"): the bounds
 * of dim_params, the symbols, dynamic dims and plan the compiler writes,
 * the errors for what does not lower along a dynamic axis; and
 * compiler/models/dyn_mlp compiled once and run in-process at every
 * token count of its data sets, bit-exact against the CPU reference and
 * within one quantization step of onnxruntime, two sizes at once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf.h"
#include "onnx.pb-c.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

#define MODELS SRCTOP "/compiler/models"
#define DYN MODELS "/dyn_mlp"

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	*data = malloc(n > 0 ? (size_t)n : 1);
	*size = fread(*data, 1, (size_t)n, f);
	fclose(f);
	return *size == (size_t)n ? 0 : -1;
}

/*
 * Import @path with the first dim of its first input and output renamed
 * to dim_param @param (NULL: as they are), the output's then to
 * @out_param (NULL: unchanged; "" the number 64), compile with @nb bounds.
 */
static int compile_out(const char *path, const char *param,
		       const char *out_param,
		       const struct vpuxc_symbol_bounds *b, unsigned int nb,
		       struct vpuxc_result *r);

static int compile_with(const char *path, const char *param,
			const struct vpuxc_symbol_bounds *b, unsigned int nb,
			struct vpuxc_result *r)
{
	return compile_out(path, param, NULL, b, nb, r);
}

static int compile_out(const char *path, const char *param,
		       const char *out_param,
		       const struct vpuxc_symbol_bounds *b, unsigned int nb,
		       struct vpuxc_result *r)
{
	struct vpuxc_options o = { .bounds = b, .n_bounds = nb, .report = 1 };
	Onnx__ModelProto *mp;
	struct vpuxc_model *m;
	uint8_t *data, *buf;
	size_t size;
	int ret;

	memset(r, 0, sizeof(*r));
	if (read_file(path, &data, &size))
		return -1000;
	mp = onnx__model_proto__unpack(NULL, size, data);
	free(data);
	if (!mp)
		return -1001;
	if (param) {
		Onnx__TensorShapeProto__Dimension *d[2] = {
			mp->graph->input[0]->type->tensor_type->shape->dim[0],
			mp->graph->output[0]->type->tensor_type->shape->dim[0],
		};
		unsigned int i;

		for (i = 0; i < 2; i++) {
			d[i]->value_case =
				ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			d[i]->dim_param = strdup(param);
		}
	}
	if (out_param) {
		Onnx__TensorShapeProto__Dimension *d =
			mp->graph->output[0]->type->tensor_type->shape->dim[0];

		/* dim_param and dim_value share a union (a oneof) */
		if (d->value_case ==
		    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
			free(d->dim_param);
		if (*out_param) {
			d->value_case =
				ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			d->dim_param = strdup(out_param);
		} else {
			d->value_case =
				ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			d->dim_value = 64;
		}
	}
	size = onnx__model_proto__get_packed_size(mp);
	buf = malloc(size);
	onnx__model_proto__pack(mp, buf);
	onnx__model_proto__free_unpacked(mp, NULL);
	ret = vpuxc_import_mem(buf, size, &m);
	free(buf);
	if (ret)
		return ret;
	ret = vpuxc_compile(m, &o, r);
	vpuxc_model_free(m);
	return ret;
}

static const struct vpuxc_symbol_bounds tokens = { "tokens", 1, 64 };

static void test_bounds(void)
{
	static const char *const bad[] = {
		"tokens", "=1..4", "tokens=1", "tokens=a..4", "tokens=1..b",
		"tokens=0..4", "tokens=5..4", "tokens=1..70000", "tokens=1..4x",
	};
	struct vpuxc_symbol_bounds b;
	struct vpuxc_result r;
	char arg[64];
	unsigned int i;
	int ret;

	snprintf(arg, sizeof(arg), "tokens=2..33");
	ret = vpuxc_parse_symbol_bounds(arg, &b);
	tap_check(!ret && !strcmp(b.name, "tokens") && b.min == 2 && b.max == 33,
		  "NAME=MIN..MAX parsed");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(arg, sizeof(arg), "%s", bad[i]);
		ret = vpuxc_parse_symbol_bounds(arg, &b);
		tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(), bad[i]),
			  "bounds '%s' refused: %s", bad[i], vpux_last_error());
	}

	ret = compile_with(DYN "/model.onnx", NULL, NULL, 0, &r);
	tap_check(ret == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "dim_param 'tokens' (of 'input') has no bounds"),
		  "a dim_param without bounds named: %s", vpux_last_error());
	vpuxc_result_fini(&r);
	b.name = "batch";
	b.min = 1;
	b.max = 4;
	{
		struct vpuxc_symbol_bounds two[2] = { tokens, b };

		ret = compile_with(DYN "/model.onnx", NULL, two, 2, &r);
		tap_check(ret == VPUX_E_INVAL &&
			  strstr(vpux_last_error(), "no dim_param 'batch'"),
			  "bounds of an unknown dim_param refused: %s",
			  vpux_last_error());
		vpuxc_result_fini(&r);
		two[1] = tokens;
		ret = compile_with(DYN "/model.onnx", NULL, two, 2, &r);
		tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(), "twice"),
			  "bounds given twice refused: %s", vpux_last_error());
		vpuxc_result_fini(&r);
	}
	/* a static model with bounds: no such dim_param either */
	ret = compile_with(MODELS "/mlp_qdq/model.onnx", NULL, &tokens, 1, &r);
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(), "no dim_param"),
		  "bounds for a static model refused");
	vpuxc_result_fini(&r);
}

/* what does not lower along a dynamic axis: an error naming the node */
static void test_unsupported(void)
{
	struct vpuxc_symbol_bounds n = { "n", 1, 4 };
	struct vpuxc_result r;
	int ret;

	/* mlp_qdq over a dynamic batch: fc1 lowers, the tanh SHAVE does not */
	ret = compile_with(MODELS "/mlp_qdq/model.onnx", "n", &n, 1, &r);
	tap_check(ret == VPUX_E_UNSUPPORTED &&
		  strstr(vpux_last_error(), "Tanh '") &&
		  strstr(vpux_last_error(), "SHAVE kernel over the dynamic axis 'n'"),
		  "SHAVE op along the axis refused, named: %s", vpux_last_error());
	vpuxc_result_fini(&r);
	/* lenet over a dynamic batch: the convolution refuses batches */
	ret = compile_with(MODELS "/lenet_qdq/model.onnx", "n", &n, 1, &r);
	tap_check(ret == VPUX_E_UNSUPPORTED &&
		  strstr(vpux_last_error(), "Conv '") &&
		  strstr(vpux_last_error(), "only batch 1"),
		  "convolution over a dynamic batch refused, named");
	vpuxc_result_fini(&r);
	/* the graph output must name the dim_param its values vary with */
	{
		struct vpuxc_symbol_bounds two[2] = { tokens, { "other", 1, 64 } };

		ret = compile_out(DYN "/model.onnx", NULL, "", &tokens, 1, &r);
		tap_check(ret == VPUX_E_UNSUPPORTED &&
			  strstr(vpux_last_error(), "graph output 'output' varies with dim_param 'tokens'"),
			  "an output declared static but varying refused: %s",
			  vpux_last_error());
		vpuxc_result_fini(&r);
		ret = compile_out(DYN "/model.onnx", NULL, "other", two, 2, &r);
		tap_check(ret == VPUX_E_UNSUPPORTED &&
			  strstr(vpux_last_error(), "is dim_param 'other', but the tensor varies with dim_param 'tokens'"),
			  "an output naming another dim_param refused: %s",
			  vpux_last_error());
		vpuxc_result_fini(&r);
	}
	/* partitioning does not take a model with dim_params */
	{
		struct vpuxc_recipe rc;
		struct vpuxc_model *m;

		ret = vpuxc_import_file(DYN "/model.onnx", &m);
		ret = ret ? ret : vpuxc_partition(m, NULL, "", &rc);
		tap_check(ret == VPUX_E_UNSUPPORTED &&
			  strstr(vpux_last_error(), "dim_params ('tokens')"),
			  "no recipe of a model with dim_params: %s",
			  vpux_last_error());
		vpuxc_model_free(m);
	}
}

/* the loadable: symbol, dynamic dims, a plan of tiled templates */
static void test_plan(void)
{
	struct vpuxc_result r;
	struct lf_image img;
	unsigned int i, t, looped = 0, ops;
	int ret, ok;

	ret = compile_with(DYN "/model.onnx", NULL, &tokens, 1, &r);
	tap_check(!ret, "dyn_mlp compiles with tokens=1..64 (%s)",
		  ret ? vpux_last_error() : "ok");
	if (ret)
		return;
	tap_check(r.report && strstr(r.report, "symbol tokens: 1..64, tile 16"),
		  "the report names the symbol and its tile");
	memset(&img, 0, sizeof(img));
	ret = lf_parse(r.loadable, r.size, &img);
	tap_check(!ret, "its loadable parses (%s)", ret ? vpux_last_error() : "ok");
	if (ret) {
		vpuxc_result_fini(&r);
		return;
	}
	tap_check(img.n_symbols == 1 && !strcmp(img.symbols[0].name, "tokens") &&
		  img.symbols[0].kind == VPUX_LF_SYM_AXIS &&
		  img.symbols[0].width == 8 && img.symbols[0].min == 1 &&
		  img.symbols[0].max == 64 &&
		  img.symbols[0].hash == 0xfcebc453u,	/* FNV-1a of "tokens" */
		  "symbol 'tokens': axis, width 8, [1, 64], FNV-1a hash");
	ok = 0;
	for (i = 0; i < img.n_tensors; i++) {
		const struct vpux_lf_tensor *tt = &img.tensors[i];
		uint32_t k = VPUX_LF_REGION_KIND(tt->region);

		if ((k == VPUX_LF_RK_INPUT || k == VPUX_LF_RK_OUTPUT) &&
		    (tt->flags & VPUX_LF_T_IO))
			ok += tt->dyn_dims == 1 && tt->dims[0] == 0 &&
			      tt->size == 64ull * tt->dims[1];
	}
	tap_check(ok == 2, "input and output: dim 0 names symbol 0, laid out for 64");
	ops = img.n_dma + img.n_dpu + img.n_shave;
	tap_check(img.n_barriers == 0 && img.n_templates == ops && img.n_blocks,
		  "no barriers, every op one template (%u ops, %u templates, %u blocks)",
		  ops, img.n_templates, img.n_blocks);
	for (i = 0; i < img.n_blocks; i++)
		if (img.blocks[i].depth == 1 && img.blocks[i].loop[0].tile == 16 &&
		    img.blocks[i].loop[0].extent_len == 1 &&
		    img.expr[img.blocks[i].loop[0].extent] ==
		    ((3u << 24) | 0u))	/* DLA_EXPR_SYM 0 */
			looped += img.blocks[i].n_templates;
	tap_check(looped == ops,
		  "every op in a loop over tiles of 16 of 'tokens' (%u of %u)",
		  looped, ops);
	for (t = 0, ok = 1; t < img.n_templates; t++)
		ok &= img.templates[t].n_patches >= 3;
	tap_check(ok, "every template patched (offsets, sizes, rows)");
	lf_image_free(&img);
	vpuxc_result_fini(&r);
}

/* ---- dyn_mlp run at every data set's size ---- */

#define NSETS 6

struct dset {
	struct vpuxc_tensor in, ref;
	int64_t tokens;
};

struct run {
	struct vpux_request *req;
	struct vpux_buffer *ib, *ob;
	struct vpuxc_io iin, iout;	/* with the run's actual dims */
};

/* bind the set's shape, convert its input, bind the buffers */
static int run_start(struct vpux_device *dev, struct vpux_network *net,
		     const struct vpuxc_io_table *io, const struct dset *ds,
		     struct run *r)
{
	struct vpux_tensor_desc di, dout;
	struct vpux_shape sh;
	unsigned int k;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = vpux_request_create(net, &r->req);
	ret = ret ? ret : vpux_network_input(net, 0, &di);
	ret = ret ? ret : vpux_network_output(net, 0, &dout);
	ret = ret ? ret : vpux_buffer_alloc(dev, di.size, &r->ib);
	ret = ret ? ret : vpux_buffer_alloc(dev, dout.size, &r->ob);
	if (ret)
		return ret;
	memset(&sh, 0, sizeof(sh));
	sh.rank = ds->in.rank;
	for (k = 0; k < sh.rank; k++)
		sh.d[k] = (uint64_t)ds->in.dims[k];
	ret = vpux_request_set_input_shape(r->req, 0, &sh);
	if (ret)
		return ret;
	r->iin = io->inputs[0];
	r->iout = io->outputs[0];
	r->iin.dims[0] = ds->tokens;
	ret = vpuxc_io_to_device(&r->iin, &ds->in, vpux_buffer_map(r->ib),
				 di.size);
	/* the output buffer's bytes past the run's rows stay as they are */
	memset(vpux_buffer_map(r->ob), 0x5a, dout.size);
	ret = ret ? ret : vpux_request_bind_input(r->req, 0, r->ib, 0);
	ret = ret ? ret : vpux_request_bind_output(r->req, 0, r->ob, 0);
	return ret ? ret : vpux_request_submit(r->req);
}

static void run_fini(struct run *r)
{
	if (r->req)
		vpux_request_destroy(r->req);
	if (r->ib)
		vpux_buffer_free(r->ib);
	if (r->ob)
		vpux_buffer_free(r->ob);
}

/* check a finished run: shape, reference, onnxruntime, untouched tail */
static void run_check(struct vpux_network *net, const struct dset *ds,
		      struct run *r, const char *how)
{
	struct vpux_tensor_desc dout;
	struct vpux_shape sh;
	struct vpuxc_tensor got;
	size_t rows, i, bad = 0;
	const void *ins[1];
	void *outs[1];
	uint8_t *refb, *dev;
	double step = r->iout.scales ? r->iout.scales[0] : 1, worst = 0;
	int ret;

	struct vpux_request_status st;

	vpux_network_output(net, 0, &dout);
	dev = vpux_buffer_map(r->ob);
	/* the figure: device cycles grow with the tiles, one load for all */
	if (!vpux_request_status(r->req, &st))
		tap_diag("%s %lld tokens: %llu device cycles", how,
			 (long long)ds->tokens,
			 (unsigned long long)st.device_cycles);
	ret = vpux_request_output_shape(r->req, 0, &sh);
	tap_check(!ret && sh.rank == 2 && sh.d[0] == (uint64_t)ds->tokens &&
		  sh.d[1] == 16, "%s %lld tokens: output shape %llux%llu", how,
		  (long long)ds->tokens, (unsigned long long)sh.d[0],
		  (unsigned long long)sh.d[1]);
	rows = (size_t)ds->tokens * 16;	/* int8 output, [tokens, 16] */
	for (i = rows; i < dout.size; i++)
		bad += dev[i] != 0x5a;
	tap_check(!bad, "%s %lld tokens: nothing written past the run's rows (%zu bytes)",
		  how, (long long)ds->tokens, bad);
	refb = malloc(dout.size);
	ins[0] = vpux_buffer_map(r->ib);
	outs[0] = refb;
	ret = vpux_request_run_reference(r->req, ins, outs);
	tap_check(!ret && !memcmp(refb, dev, rows),
		  "%s %lld tokens: bit-exact against the CPU reference (%s)", how,
		  (long long)ds->tokens, ret ? vpux_last_error() : "ok");
	free(refb);
	r->iout.dims[0] = ds->tokens;
	ret = vpuxc_io_from_device(&r->iout, dev, dout.size, &got);
	if (!ret && got.size == ds->ref.size)
		for (i = 0; i < got.size / 4; i++) {
			float a, b;

			memcpy(&a, (char *)got.data + 4 * i, 4);
			memcpy(&b, (char *)ds->ref.data + 4 * i, 4);
			worst = fmax(worst, fabs((double)a - (double)b));
		}
	tap_check(!ret && got.size == ds->ref.size && worst <= step + 1e-6,
		  "%s %lld tokens: within one step of onnxruntime (max diff %g, step %g)",
		  how, (long long)ds->tokens, worst, step);
	if (!ret)
		vpuxc_tensor_fini(&got);
}

static void test_run(void)
{
	struct vpuxc_result r;
	struct vpuxc_io_table io;
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct dset ds[NSETS];
	struct run run, two[2];
	char path[512];
	unsigned int k;
	int ret;

	memset(ds, 0, sizeof(ds));
	ret = compile_with(DYN "/model.onnx", NULL, &tokens, 1, &r);
	if (ret) {
		tap_check(0, "dyn_mlp compiles: %s", vpux_last_error());
		return;
	}
	ret = vpuxc_io_read(r.loadable, r.size, &io);
	ret = ret ? ret : vpux_device_open("inproc", &dev);
	ret = ret ? ret : vpux_network_load(dev, r.loadable, r.size, &net);
	tap_check(!ret, "one load of the plan network (%s)",
		  ret ? vpux_last_error() : "ok");
	if (ret)
		goto out;
	for (k = 0; k < NSETS; k++) {
		snprintf(path, sizeof(path), DYN "/test_data_set_%u/input_0.pb", k);
		ret = vpuxc_tensor_read_pb(path, &ds[k].in);
		snprintf(path, sizeof(path), DYN "/test_data_set_%u/output_0.pb", k);
		ret = ret ? ret : vpuxc_tensor_read_pb(path, &ds[k].ref);
		if (ret) {
			tap_check(0, "%s: %s", path, vpux_last_error());
			goto out;
		}
		ds[k].tokens = ds[k].in.dims[0];
	}
	/* one request per size, one after the other */
	for (k = 0; k < NSETS; k++) {
		ret = run_start(dev, net, &io, &ds[k], &run);
		ret = ret ? ret : vpux_request_wait(run.req, 60000);
		tap_check(!ret, "%lld tokens run (%s)", (long long)ds[k].tokens,
			  ret ? vpux_last_error() : "ok");
		if (!ret)
			run_check(net, &ds[k], &run, "alone:");
		run_fini(&run);
	}
	/* the largest and a tail size at once, on the same network */
	ret = run_start(dev, net, &io, &ds[NSETS - 1], &two[0]);
	ret = ret ? ret : run_start(dev, net, &io, &ds[3], &two[1]);
	ret = ret ? ret : vpux_request_wait(two[0].req, 60000);
	ret = ret ? ret : vpux_request_wait(two[1].req, 60000);
	tap_check(!ret, "%lld and %lld tokens submitted together (%s)",
		  (long long)ds[NSETS - 1].tokens, (long long)ds[3].tokens,
		  ret ? vpux_last_error() : "ok");
	if (!ret) {
		run_check(net, &ds[NSETS - 1], &two[0], "together:");
		run_check(net, &ds[3], &two[1], "together:");
	}
	run_fini(&two[0]);
	run_fini(&two[1]);
	/* a size out of bounds is refused naming the symbol */
	{
		struct vpux_request *rq;
		struct vpux_shape sh = { 2, { 65, 64 } };

		ret = vpux_request_create(net, &rq);
		ret = ret ? ret : vpux_request_set_input_shape(rq, 0, &sh);
		tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(), "tokens"),
			  "65 tokens refused, the symbol named: %s",
			  vpux_last_error());
		if (rq)
			vpux_request_destroy(rq);
	}
out:
	for (k = 0; k < NSETS; k++) {
		vpuxc_tensor_fini(&ds[k].in);
		vpuxc_tensor_fini(&ds[k].ref);
	}
	if (net) {
		vpuxc_io_fini(&io);
		vpux_network_unload(net);
	}
	if (dev)
		vpux_device_close(dev);
	vpuxc_result_fini(&r);
}

int main(void)
{
	test_bounds();
	test_unsupported();
	test_plan();
	test_run();
	return tap_finish();
}
