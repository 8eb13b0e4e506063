// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Pipelined requests of a network with CMX tensors, in process: several
 * requests of one such network in flight queue on the device in
 * submission order instead of failing with VPUX_E_BUSY.
 *
 * The ordering test can fail: its network copies the input into CMX
 * tile 0, runs a long convolution that does not touch CMX, then copies
 * the CMX bytes to the output. Request B, submitted while request A's
 * convolution runs, would overwrite A's CMX bytes if it started then:
 * A's output would be B's input. Queued, every output is its own
 * input. Its CMX tensor is in tile 3, so no second copy of its tiles
 * fits the device's four: its requests all queue.
 *
 * Tile sets: the same network with its CMX bytes in tiles 0 and 1 fits
 * twice; requests of it run at once on tiles 0-1 and 2-3, and each
 * output must still be its own input (fails when the second set is not
 * moved to tiles 2-3). A short network on tiles 0-1 finishes while a
 * long one submitted before it still runs (fails when they queue).
 *
 * A compiled ResNet block (when the build has it) gives the same
 * outputs pipelined as run one at a time, compiled for all the tiles
 * and for two (resnet_qop_half.vpuxl: two tile sets).
 */
#include <string.h>

#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

#define NREQ 4

/* 4096 bytes in, through CMX tile 0, out; a long conv in between */
static const char cmx_order_net[] =
	"network cmx_order\n"
	"barriers 2\n"
	"input  x u8 1x16x16x16 order=NHWC\n"
	"output y u8 1x16x16x16 order=NHWC\n"
	"tensor c  u8 1x16x16x16 order=NHWC region=cmx3 offset=0\n"
	"tensor w  i8 32x3x3x32 region=weights fill=seed:8:-32:32\n"
	"tensor si i8 1x32x64x64 order=NHWC region=scratch offset=0\n"
	"tensor so i8 1x32x64x64 order=NHWC region=scratch offset=131072\n"
	"dma src=x dst=c update=0\n"
	"dpu conv in=si in2=w out=so kernel_h=3 kernel_w=3 pad_top=1 pad_left=1 pad_bottom=1 pad_right=1 requant=1073741824,9 wait=0 update=1\n"
	"dma src=c dst=y wait=1\n";

/* the same through tiles 0 and 1 (two copies fit), a longer conv */
static const char cmx_sets_net[] =
	"network cmx_sets\n"
	"barriers 3\n"
	"input  x u8 1x16x16x16 order=NHWC\n"
	"output y u8 1x16x16x16 order=NHWC\n"
	"tensor c  u8 1x16x16x16 order=NHWC region=cmx0 offset=0\n"
	"tensor d  u8 1x16x16x16 order=NHWC region=cmx1 offset=64\n"
	"tensor w  i8 64x3x3x64 region=weights fill=seed:8:-32:32\n"
	"tensor si i8 1x64x64x64 order=NHWC region=scratch offset=0\n"
	"tensor so i8 1x64x64x64 order=NHWC region=scratch offset=262144\n"
	"dma src=x dst=c update=0\n"
	"dpu conv in=si in2=w out=so kernel_h=3 kernel_w=3 pad_top=1 pad_left=1 pad_bottom=1 pad_right=1 requant=1073741824,9 wait=0 update=1\n"
	"dma src=c dst=d wait=1 update=2\n"
	"dma src=d dst=y wait=2\n";

/* tiles 0 and 1 too, no conv: done long before cmx_sets */
static const char cmx_short_net[] =
	"network cmx_short\n"
	"barriers 2\n"
	"input  x u8 1x16x16x16 order=NHWC\n"
	"output y u8 1x16x16x16 order=NHWC\n"
	"tensor c  u8 1x16x16x16 order=NHWC region=cmx0 offset=0\n"
	"tensor d  u8 1x16x16x16 order=NHWC region=cmx1 offset=0\n"
	"dma src=x dst=c update=0\n"
	"dma src=c dst=d wait=0 update=1\n"
	"dma src=d dst=y wait=1\n";

static struct vpux_device *dev;

static void gen(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;

	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*b++ = (unsigned char)(seed >> 16);
	}
}

struct rig {
	struct vpux_network *net;
	struct vpux_request *req[NREQ];
	struct vpux_buffer *in[NREQ], *out[NREQ];
	size_t in_size, out_size;
};

/* NREQ requests of @net, one input and one output each, own buffers */
static int rig_init(struct rig *g, struct vpux_network *net)
{
	struct vpux_tensor_desc d;
	unsigned int j;
	int ret = 0;

	memset(g, 0, sizeof(*g));
	g->net = net;
	vpux_network_input(net, 0, &d);
	g->in_size = d.size;
	vpux_network_output(net, 0, &d);
	g->out_size = d.size;
	for (j = 0; !ret && j < NREQ; j++) {
		ret = vpux_request_create(net, &g->req[j]);
		if (!ret)
			ret = vpux_buffer_alloc(dev, g->in_size, &g->in[j]);
		if (!ret)
			ret = vpux_buffer_alloc(dev, g->out_size, &g->out[j]);
		if (!ret)
			ret = vpux_request_bind_input(g->req[j], 0, g->in[j], 0);
		if (!ret)
			ret = vpux_request_bind_output(g->req[j], 0, g->out[j],
						       0);
		if (!ret)
			gen(vpux_buffer_map(g->in[j]), g->in_size, 7 + j);
	}
	return ret;
}

static void rig_fini(struct rig *g)
{
	unsigned int j;

	for (j = 0; j < NREQ; j++) {
		vpux_request_destroy(g->req[j]);
		vpux_buffer_free(g->in[j]);
		vpux_buffer_free(g->out[j]);
	}
}

/* all NREQ in flight at once, then each waited for */
static int run_pipelined(struct rig *g)
{
	unsigned int j;
	int ret = 0;

	for (j = 0; !ret && j < NREQ; j++)
		ret = vpux_request_submit(g->req[j]);
	if (ret)
		tap_diag("submit %u: %s", j - 1, vpux_last_error());
	for (j = 0; j < NREQ; j++)
		if (vpux_request_wait(g->req[j], 60000) && !ret)
			ret = -1;
	return ret;
}

static void test_order(void)
{
	struct vpux_request_status st;
	struct vpux_network *net;
	void *blob;
	size_t size;
	unsigned int j, same = 0;
	struct rig g;
	int ret;

	ret = asm_bytes(cmx_order_net, &blob, &size);
	tap_check(!ret, "the ordering network assembles");
	if (ret)
		return;
	ret = vpux_network_load(dev, blob, size, &net);
	free(blob);
	tap_check(!ret, "and loads (%s)", ret ? vpux_last_error() : "ok");
	if (ret)
		return;
	ret = rig_init(&g, net);
	tap_check(!ret, "%d requests of it", NREQ);
	if (ret)
		goto out;
	/* the old rule refused the second submit with VPUX_E_BUSY */
	ret = vpux_request_submit(g.req[0]);
	if (!ret)
		ret = vpux_request_submit(g.req[1]);
	tap_check(!ret, "a second request of a CMX network is accepted while the first runs (%s)",
		  ret ? vpux_last_error() : "ok");
	vpux_request_status(g.req[1], &st);
	tap_check(st.state == VPUX_REQ_RUNNING,
		  "and counts as running (queued) meanwhile: state %u",
		  st.state);
	tap_check(vpux_request_submit(g.req[1]) == VPUX_E_STATE,
		  "resubmitting the queued one: VPUX_E_STATE (%s)",
		  vpux_last_error());
	for (j = 0; j < 2; j++)
		vpux_request_wait(g.req[j], 60000);
	ret = run_pipelined(&g);
	tap_check(!ret, "%d requests in flight complete", NREQ);
	for (j = 0; j < NREQ; j++)
		same += !memcmp(vpux_buffer_map(g.out[j]),
				vpux_buffer_map(g.in[j]), g.out_size);
	tap_check(same == NREQ,
		  "in submission order: every output is its own request's input (%u of %d)",
		  same, NREQ);
out:
	rig_fini(&g);
	vpux_network_unload(net);
}

static int load_asm(const char *text, struct vpux_network **net)
{
	void *blob;
	size_t size;
	int ret = asm_bytes(text, &blob, &size);

	if (ret)
		return ret;
	ret = vpux_network_load(dev, blob, size, net);
	free(blob);
	if (ret)
		tap_diag("load: %s", vpux_last_error());
	return ret;
}

/* a network on tiles 0-1: its requests run at once on 0-1 and 2-3 */
static void test_sets(void)
{
	struct vpux_request_status st;
	struct vpux_network *net, *snet;
	unsigned int j, same = 0;
	struct rig g, s;
	int ret;

	ret = load_asm(cmx_sets_net, &net);
	tap_check(!ret, "a network with CMX tensors in tiles 0 and 1 loads");
	if (ret)
		return;
	ret = load_asm(cmx_short_net, &snet);
	tap_check(!ret, "and a short one on the same tiles");
	if (ret) {
		vpux_network_unload(net);
		return;
	}
	ret = rig_init(&g, net);
	if (!ret)
		ret = rig_init(&s, snet);
	tap_check(!ret, "%d requests of each", NREQ);
	if (!ret)
		ret = run_pipelined(&g);
	tap_check(!ret, "%d requests on two tile sets complete", NREQ);
	for (j = 0; j < NREQ; j++)
		same += !memcmp(vpux_buffer_map(g.out[j]),
				vpux_buffer_map(g.in[j]), g.out_size);
	tap_check(same == NREQ,
		  "no request reaches another's tiles: every output is its own request's input (%u of %d)",
		  same, NREQ);
	/* the long one on one set, the short one on the other */
	memset(vpux_buffer_map(g.out[0]), 0, g.out_size);
	ret = vpux_request_submit(g.req[0]);
	if (!ret)
		ret = vpux_request_submit(s.req[0]);
	if (!ret)
		ret = vpux_request_wait(s.req[0], 60000);
	memset(&st, 0, sizeof(st));
	vpux_request_status(g.req[0], &st);
	tap_check(!ret && st.state == VPUX_REQ_RUNNING,
		  "a request on the other tile set runs at once: done while the earlier one still runs (state %u)",
		  st.state);
	ret = vpux_request_wait(g.req[0], 60000);
	tap_check(!ret && !memcmp(vpux_buffer_map(g.out[0]),
				  vpux_buffer_map(g.in[0]), g.out_size) &&
		  !memcmp(vpux_buffer_map(s.out[0]),
			  vpux_buffer_map(s.in[0]), s.out_size),
		  "and both outputs are their inputs");
	rig_fini(&s);
	rig_fini(&g);
	vpux_network_unload(snet);
	vpux_network_unload(net);
}

/* a compiled ResNet block: pipelined outputs == one at a time */
static void test_compiled(const char *path)
{
	unsigned char *serial[NREQ] = { NULL };
	struct vpux_network *net;
	unsigned int j, same = 0, varied = 0;
	struct rig g;
	int ret = 0;

	if (vpux_network_load_file(dev, path, &net)) {
		tap_diag("%s: %s", path, vpux_last_error());
		tap_skip("not built: no compiled network");
		return;
	}
	ret = rig_init(&g, net);
	/* one at a time: each waited for before the next is submitted */
	for (j = 0; !ret && j < NREQ; j++) {
		ret = vpux_request_submit(g.req[j]);
		if (!ret)
			ret = vpux_request_wait(g.req[j], 60000);
		serial[j] = malloc(g.out_size);
		if (serial[j])
			memcpy(serial[j], vpux_buffer_map(g.out[j]),
			       g.out_size);
	}
	tap_check(!ret, "%s: %d requests one at a time (%s)", path, NREQ,
		  ret ? vpux_last_error() : "ok");
	for (j = 0; !ret && j < NREQ; j++)
		memset(vpux_buffer_map(g.out[j]), 0, g.out_size);
	if (!ret)
		ret = run_pipelined(&g);
	tap_check(!ret, "%s: %d requests in flight (%s)", path, NREQ,
		  ret ? vpux_last_error() : "ok");
	for (j = 0; j < NREQ; j++) {
		same += serial[j] && !memcmp(serial[j],
					     vpux_buffer_map(g.out[j]),
					     g.out_size);
		varied += j && serial[j] && serial[0] &&
			  memcmp(serial[j], serial[0], g.out_size);
	}
	for (j = 0; j < NREQ; j++)
		free(serial[j]);
	tap_check(same == NREQ && varied,
		  "%s: pipelined outputs == serial ones, bit for bit (%u of %d; %u differ from request 0's)", path,
		  same, NREQ, varied);
	rig_fini(&g);
	vpux_network_unload(net);
}

int main(void)
{
	if (vpux_device_open(NULL, &dev)) {
		tap_check(0, "open the in-process device: %s", vpux_last_error());
		return tap_finish();
	}
	test_order();
	test_sets();
	test_compiled(BUILDDIR "/compiler/models/resnet_qop.vpuxl");
	test_compiled(BUILDDIR "/compiler/models/resnet_qop_half.vpuxl");
	vpux_device_close(dev);
	return tap_finish();
}
