// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Output shapes a SHAVE kernel computes (Documentation/dynamic-shapes.rst,
 * "Output shapes a kernel computes"): the loader finds the kernel whose
 * dynamic output memref writes an output and where it writes the dims;
 * vpux_request_output_shape() and the reference then give those dims,
 * not the symbols'. The network is examples/dyn_softmax_head.vasm's: the
 * output is declared $rows x 16, the kernel works on keep x 16, so the
 * two sources differ whenever keep != rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lf.h"
#include "priv.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_shave_abi.h"
#include "vpux_tap.h"

/* @ydims: where the kernel writes the output's dims (a tensor line) */
#define HEAD_NET(ydims) \
	"network h\n" \
	"symbol rows axis 1..64 width=8\n" \
	"symbol keep scalar 1..64 width=8\n" \
	"input x i8 $rowsx16\n" \
	"output y i8 $rowsx16\n" \
	ydims \
	"tensor kv i32 1 region=symbols offset=8\n" \
	"tensor cc i32 1 region=weights fill=const:16\n" \
	"tensor xd i32 2\n" \
	"dma src=kv dst=xd[0:4]\n" \
	"dma src=cc dst=xd[4:4]\n" \
	"shave softmax in=x out=y in_dims=xd out_dims=yd axis=0 out_zp=-128 " \
	"beta_scale=1073741824,-13 out_scale=1073741824,7\n"

static const char *net_scratch = HEAD_NET("tensor yd i32 2\n");
static const char *net_output = HEAD_NET("output yd i32 2\n");

static struct vpux_device *dev;

static uint32_t tensor_named(const struct lf_image *img, const char *name)
{
	uint32_t t;

	for (t = 0; t < img->n_tensors; t++)
		if (!strcmp(img->tensors[t].name, name))
			return t;
	abort();
}

static void assemble(const char *text, struct lf_image *img)
{
	if (asm_text("h", text, NULL, img, stderr))
		abort();
}

static struct vpux_network *load(const struct lf_image *img)
{
	struct vpux_network *net = NULL;
	size_t size;
	void *data;

	if (lf_write_mem(img, &data, &size))
		abort();
	if (vpux_network_load(dev, data, size, &net))
		fprintf(stderr, "# load: %s\n", vpux_last_error());
	free(data);
	return net;
}

static void test_loader(void)
{
	struct lf_image img;
	struct lf_dims_src src;
	uint32_t y, yd;

	assemble(net_scratch, &img);
	y = tensor_named(&img, "y");
	yd = tensor_named(&img, "yd");
	tap_check(lf_validate(&img) == 0 &&
		  lf_output_dims_src(&img, y, &src) == 0 && src.op == 0 &&
		  src.rank == 2 &&
		  src.region == img.tensors[yd].region &&
		  VPUX_LF_REGION_KIND(src.region) == VPUX_LF_RK_SCRATCH &&
		  src.offset == img.tensors[yd].offset,
		  "output y: shaped by SHAVE op 0, its dims at scratch offset %llu (%s)",
		  (unsigned long long)src.offset, vpux_last_error());
	tap_check(lf_output_dims_src(&img, tensor_named(&img, "x"), &src) == -1,
		  "an input: no kernel's shape");

	/* a dims record the host cannot read after the run */
	img.shave[0].windows[3].tensor = tensor_named(&img, "x");
	tap_check(lf_validate(&img) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "args.out.dims_addr") &&
		  strstr(vpux_last_error(), "output 'y'") &&
		  strstr(vpux_last_error(), "must be scratch or an output"),
		  "dims of a kernel-shaped output in an input: refused (%s)",
		  vpux_last_error());
	asm_free(&img);

	assemble(net_output, &img);
	y = tensor_named(&img, "y");
	yd = tensor_named(&img, "yd");
	tap_check(lf_validate(&img) == 0 &&
		  lf_output_dims_src(&img, y, &src) == 0 &&
		  src.region == img.tensors[yd].region &&
		  VPUX_LF_REGION_KIND(src.region) == VPUX_LF_RK_OUTPUT &&
		  lf_output_dims_src(&img, yd, &src) == -1,
		  "dims record as output 1: y shaped from output 1, yd (static) not shaped");
	asm_free(&img);
}

struct run {
	struct vpux_request *req;
	struct vpux_buffer *bx, *by, *bd;
	int8_t ref[64 * 16];
	int8_t refd[64];
};

/*
 * Bind rows, keep and the buffers (output 1, if any, at @doff into a
 * bigger buffer), run, and the reference too.
 */
static int run(struct vpux_network *net, uint64_t rows, uint64_t keep,
	       size_t doff, struct run *r)
{
	int8_t x[64 * 16];
	const void *in[1] = { x };
	void *out[2];
	unsigned int i;
	int ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < sizeof(x); i++)
		x[i] = (int8_t)(i * 37 + 11);
	out[0] = r->ref;
	out[1] = r->refd;
	ret = vpux_request_create(net, &r->req);
	ret = ret ? ret : vpux_buffer_alloc(dev, sizeof(x), &r->bx);
	ret = ret ? ret : vpux_buffer_alloc(dev, sizeof(x), &r->by);
	if (!ret && vpux_network_num_outputs(net) > 1) {
		ret = vpux_buffer_alloc(dev, doff + 8, &r->bd);
		ret = ret ? ret : vpux_request_bind_output(r->req, 1, r->bd, doff);
	}
	if (ret)
		return ret;
	memcpy(vpux_buffer_map(r->bx), x, sizeof(x));
	ret = vpux_request_bind_input(r->req, 0, r->bx, 0);
	ret = ret ? ret : vpux_request_bind_output(r->req, 0, r->by, 0);
	ret = ret ? ret : vpux_request_set_symbol(r->req, "rows", rows);
	ret = ret ? ret : vpux_request_set_symbol(r->req, "keep", keep);
	ret = ret ? ret : vpux_request_submit(r->req);
	ret = ret ? ret : vpux_request_wait(r->req, 10000);
	return ret ? ret : vpux_request_run_reference(r->req, in, out);
}

static void run_free(struct run *r)
{
	vpux_request_destroy(r->req);
	vpux_buffer_free(r->bx);
	vpux_buffer_free(r->by);
	vpux_buffer_free(r->bd);
}

static int is_shape(const struct vpux_shape *s, uint64_t d0, uint64_t d1)
{
	return s->rank == 2 && s->d[0] == d0 && s->d[1] == d1;
}

static void test_run(void)
{
	struct vpux_network *net;
	struct vpux_request *req;
	struct vpux_shape s, rs;
	struct lf_image img;
	struct run r;
	int ret, ok;

	assemble(net_scratch, &img);
	net = load(&img);
	tap_check(net != NULL, "the kernel-shaped network loads");
	if (!net)
		return;
	if (vpux_request_create(net, &req))
		abort();
	vpux_request_set_symbol(req, "rows", 40);
	tap_check(vpux_request_output_shape(req, 0, &s) == VPUX_E_STATE &&
		  strstr(vpux_last_error(), "output 0 'y'") &&
		  strstr(vpux_last_error(), "no completed run"),
		  "before a run: no kernel's shape yet (%s)", vpux_last_error());
	vpux_request_destroy(req);

	ret = run(net, 40, 23, 0, &r);
	tap_check(ret == 0, "rows 40, keep 23: ran, and the reference (%s)",
		  ret ? vpux_last_error() : "");
	memset(&s, 0, sizeof(s));
	ok = !ret && !vpux_request_output_shape(r.req, 0, &s) &&
	     is_shape(&s, 23, 16);
	tap_check(ok,
		  "rows 40, keep 23: output shape %llux%llu, the kernel's (the symbols say 40x16)",
		  (unsigned long long)s.d[0], (unsigned long long)s.d[1]);
	tap_check(!ret && !vpux_request_reference_output_shape(r.req, 0, &rs) &&
		  is_shape(&rs, 23, 16) &&
		  !memcmp(vpux_buffer_map(r.by), r.ref, 23 * 16),
		  "rows 40, keep 23: the reference's shape 23x16 too, its 368 bytes the device's");
	run_free(&r);
	ret = run(net, 5, 64, 0, &r);
	ok = !ret && !vpux_request_output_shape(r.req, 0, &s) &&
	     is_shape(&s, 64, 16) &&
	     !vpux_request_reference_output_shape(r.req, 0, &rs) &&
	     is_shape(&rs, 64, 16);
	tap_check(ok, "rows 5, keep 64: shape 64x16 on the device and the reference (%s)",
		  ok ? "" : vpux_last_error());
	run_free(&r);
	vpux_network_unload(net);

	/* the kernel writes a dim past the output's bound */
	img.symbols[0].max = 32;
	net = load(&img);
	tap_check(net != NULL, "rows bounded 1..32, the kernel's memref at 64 rows: loads");
	if (net) {
		ret = run(net, 32, 40, 0, &r);
		tap_check(ret == VPUX_E_DEVICE &&
			  strstr(vpux_last_error(), "output 0 'y'") &&
			  strstr(vpux_last_error(), "40, outside 1..32"),
			  "keep 40 > rows' max 32: the reference refuses the kernel's shape (%s)",
			  vpux_last_error());
		ret = vpux_request_output_shape(r.req, 0, &s);
		tap_check(ret == VPUX_E_DEVICE &&
			  strstr(vpux_last_error(), "output 0 'y': dim 0 is 40, outside 1..32") &&
			  strstr(vpux_last_error(), "SHAVE op 0 wrote a shape outside"),
			  "keep 40 > rows' max 32: the device's shape refused, naming the output (%s)",
			  vpux_last_error());
		run_free(&r);
		vpux_network_unload(net);
	}
	asm_free(&img);

	/* the dims record in an output buffer, bound at an offset */
	assemble(net_output, &img);
	net = load(&img);
	asm_free(&img);
	if (!net)
		abort();
	ret = run(net, 50, 7, 24, &r);
	ok = !ret && !vpux_request_output_shape(r.req, 0, &s) &&
	     is_shape(&s, 7, 16) &&
	     !vpux_request_reference_output_shape(r.req, 0, &rs) &&
	     is_shape(&rs, 7, 16) &&
	     !vpux_request_output_shape(r.req, 1, &s) && s.rank == 1 &&
	     s.d[0] == 2;
	tap_check(ok, "dims as output 1 at offset 24 of its buffer: y 7x16 (symbols 50x16), yd static (%s)",
		  ok ? "" : vpux_last_error());
	run_free(&r);
	vpux_network_unload(net);
}

int main(void)
{
	test_loader();
	if (vpux_device_open("inproc", &dev)) {
		fprintf(stderr, "# inproc: %s\n", vpux_last_error());
		return 1;
	}
	test_run();
	vpux_device_close(dev);
	return tap_finish();
}
