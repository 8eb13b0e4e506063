// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Differential test of whole networks: random chains of DMA, DPU (conv
 * incl. grouped/strided/dilated/padded, matmul, add, mul, max/avg pool)
 * and SHAVE (clamp, sigmoid, tanh, softmax, quantize) ops are written as
 * vpux-asm text, assembled, validated, loaded, run on the in-process
 * device and compared byte for byte with the CPU reference executor.
 * Also round-trips every network through the writer and the parser.
 */
#include <stdarg.h>
#include <string.h>

#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

static unsigned int rs = 2024;

static unsigned int rnd(unsigned int lo, unsigned int hi)
{
	rs = rs * 1103515245u + 12345u;
	return lo + (rs >> 8) % (hi - lo + 1);
}

struct gen {
	struct vt_text t;
	unsigned int c, h, w, n;	/* current tensor t<n> */
	int ops;
};

static unsigned int win(unsigned int in, unsigned int pa, unsigned int pb,
			unsigned int k, unsigned int s, unsigned int d)
{
	unsigned int eff = d * (k - 1) + 1;

	return in + pa + pb < eff ? 0 : (in + pa + pb - eff) / s + 1;
}

static unsigned int ilog2(unsigned int v)
{
	unsigned int r = 0;

	while (v >>= 1)
		r++;
	return r;
}

/* one op from t<n> (c, h, w) to t<n+1>; 0 if the draw is unusable */
static int step(struct gen *g)
{
	unsigned int c = g->c, h = g->h, w = g->w, n = g->n;
	unsigned int oc = c, oh = h, ow = w, kind = rnd(0, 11);
	unsigned int k = 1, kw = 1, s = 1, sw = 1, d = 1, gr = 1;
	unsigned int pt = 0, pl = 0, pb = 0, pr = 0;
	static const char *const lut[] = { "sigmoid", "tanh" };
	char bias[16] = "";

	switch (kind) {
	case 0: case 1: case 2:		/* conv */
		oc = rnd(1, 12);
		k = rnd(1, 3), kw = rnd(1, 3), s = rnd(1, 2), sw = rnd(1, 2);
		d = rnd(1, 2);
		pt = rnd(0, 1), pl = rnd(0, 1), pb = rnd(0, 1), pr = rnd(0, 1);
		gr = rnd(1, 3);
		if (c % gr || oc % gr)
			gr = rnd(0, 1) ? c : 1, oc = gr == c ? c : oc;
		oh = win(h, pt, pb, k, s, d);
		ow = win(w, pl, pr, kw, sw, d);
		if (!oh || !ow)
			return 0;
		vt_out(&g->t, "tensor w%u i8 %ux%ux%ux%u region=weights fill=seed:%u:-20:20\n",
		       n, oc, k, kw, c / gr, rnd(1, 1000));
		if (rnd(0, 1)) {
			vt_out(&g->t, "tensor b%u i32 %u region=weights fill=seed:%u:-3000:3000\n",
			       n, oc, rnd(1, 1000));
			snprintf(bias, sizeof(bias), " bias=b%u", n);
		}
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, oc, oh, ow);
		vt_out(&g->t, "dpu conv in=t%u in2=w%u%s out=t%u kernel_h=%u kernel_w=%u stride_h=%u stride_w=%u dilation_h=%u dilation_w=%u pad_top=%u pad_left=%u pad_bottom=%u pad_right=%u groups=%u requant=1073741824,%u\n",
		       n, n, bias, n + 1, k, kw, s, sw, d, d, pt, pl, pb, pr, gr,
		       ilog2(k * kw * c / gr) + 3);
		break;
	case 3:				/* matmul */
		oc = rnd(1, 16);
		vt_out(&g->t, "tensor w%u i8 %ux%u region=weights fill=seed:%u:-20:20\n",
		       n, oc, c, rnd(1, 1000));
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, oc, h, w);
		vt_out(&g->t, "dpu matmul in=t%u in2=w%u out=t%u requant=1073741824,%u\n",
		       n, n, n + 1, ilog2(c) + 4);
		break;
	case 4: case 5:			/* add / mul with a constant */
		vt_out(&g->t, "tensor w%u i8 1x%ux%ux%u order=NHWC region=weights fill=seed:%u\n",
		       n, c, h, w, rnd(1, 1000));
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, c, h, w);
		if (kind == 4)
			vt_out(&g->t, "dpu add in=t%u in2=w%u out=t%u in_scale=1073741824,-21 in2_scale=1073741824,-%u requant=1073741824,%u\n",
			       n, n, n + 1, rnd(20, 22), rnd(19, 21));
		else
			vt_out(&g->t, "dpu mul in=t%u in2=w%u out=t%u requant=1073741824,%u\n",
			       n, n, n + 1, rnd(5, 8));
		break;
	case 6: case 7:			/* pools */
		k = rnd(1, 3), kw = rnd(1, 3), s = rnd(1, 2), sw = rnd(1, 2);
		pt = rnd(0, 1), pl = rnd(0, 1), pb = rnd(0, 1), pr = rnd(0, 1);
		oh = win(h, pt, pb, k, s, 1);
		ow = win(w, pl, pr, kw, sw, 1);
		if (!oh || !ow)
			return 0;
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, c, oh, ow);
		vt_out(&g->t, "dpu %s in=t%u out=t%u kernel_h=%u kernel_w=%u stride_h=%u stride_w=%u pad_top=%u pad_left=%u pad_bottom=%u pad_right=%u requant=1073741824,%d\n",
		       kind == 6 ? "maxpool" : "avgpool", n, n + 1, k, kw, s, sw,
		       pt, pl, pb, pr, kind == 6 ? 0 : -1);
		break;
	case 8:				/* clamp */
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, c, h, w);
		vt_out(&g->t, "shave clamp in=t%u out=t%u min=-%u max=%u\n", n, n + 1,
		       rnd(0, 100), rnd(0, 100));
		break;
	case 9:				/* sigmoid / tanh */
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, c, h, w);
		vt_out(&g->t, "shave %s in=t%u out=t%u in_scale=1073741824,-%u out_zp=%d out_scale=1073741824,%u\n",
		       lut[rnd(0, 1)], n, n + 1, rnd(11, 14), rnd(0, 1) ? -128 : 0,
		       rnd(7, 8));
		break;
	case 10:			/* softmax over channels */
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, c, h, w);
		vt_out(&g->t, "shave softmax in=t%u out=t%u axis=1 out_zp=-128 beta_scale=1073741824,-%u out_scale=1073741824,7\n",
		       n, n + 1, rnd(11, 14));
		break;
	default:			/* DMA copy */
		vt_out(&g->t, "tensor t%u i8 1x%ux%ux%u order=NHWC\n", n + 1, c, h, w);
		vt_out(&g->t, "dma src=t%u dst=t%u\n", n, n + 1);
		break;
	}
	g->c = oc, g->h = oh, g->w = ow;
	g->n++;
	g->ops++;
	return 1;
}

static void make_net(char *buf, size_t size)
{
	struct gen g = { { buf, size }, rnd(1, 12), rnd(1, 9), rnd(1, 9), 0, 0 };
	unsigned int want = rnd(1, 5), tries = 0;

	vt_out(&g.t, "network random\ninput t0 i8 1x%ux%ux%u order=NHWC\n", g.c,
	       g.h, g.w);
	while (g.ops < (int)want && tries++ < 50)
		step(&g);
	vt_out(&g.t, "output y i8 1x%ux%ux%u order=NHWC\n", g.c, g.h, g.w);
	vt_out(&g.t, "dma src=t%u dst=y\n", g.n);
}

static void gen_bytes(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;

	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*b++ = (unsigned char)(seed >> 16);
	}
}

int main(void)
{
	unsigned int i, ran = 0, refused = 0, bad = 0, rt_bad = 0, flat = 0;
	struct vpux_device *dev;
	static char text[16384];

	if (!tap_check(!vpux_device_open("inproc", &dev), "device"))
		return tap_finish();
	for (i = 0; i < 400; i++) {
		struct vpux_network *net;
		struct vpux_request *req;
		struct vpux_buffer *ib, *ob;
		struct vpux_tensor_desc di, dout;
		struct lf_image img, back;
		void *data, *data2, *ref;
		size_t n, n2;
		int r;

		make_net(text, sizeof(text));
		if (asm_text("random", text, NULL, &img, stderr)) {
			bad++;
			tap_diag("assembler refused:\n%s", text);
			continue;
		}
		r = lf_validate(&img);
		if (r) {
			refused++;	/* a draw the DPU rules refuse */
			asm_free(&img);
			continue;
		}
		lf_write_mem(&img, &data, &n);
		asm_free(&img);
		/* parse + rewrite gives the same bytes */
		if (lf_parse(data, n, &back) ||
		    lf_write_mem(&back, &data2, &n2) || n2 != n ||
		    memcmp(data, data2, n))
			rt_bad++;
		else
			free(data2);
		lf_image_free(&back);
		if (vpux_network_load(dev, data, n, &net)) {
			bad++;
			tap_diag("load: %s\n%s", vpux_last_error(), text);
			free(data);
			continue;
		}
		free(data);
		vpux_network_input(net, 0, &di);
		vpux_network_output(net, 0, &dout);
		vpux_request_create(net, &req);
		vpux_buffer_alloc(dev, di.size, &ib);
		vpux_buffer_alloc(dev, dout.size, &ob);
		gen_bytes(vpux_buffer_map(ib), di.size, i);
		ref = calloc(1, dout.size);
		vpux_request_bind_input(req, 0, ib, 0);
		vpux_request_bind_output(req, 0, ob, 0);
		r = vpux_request_submit(req);
		r = r ? r : vpux_request_wait(req, 10000);
		r = r ? r : vpux_network_run_reference(net,
			(const void *const *)&(const void *){ vpux_buffer_map(ib) },
			&ref);
		if (r || memcmp(vpux_buffer_map(ob), ref, dout.size)) {
			bad++;
			tap_diag("mismatch (%d %s):\n%s", r, vpux_last_error(),
				 text);
		} else {
			const unsigned char *o = vpux_buffer_map(ob);
			size_t b, same = 0;

			for (b = 1; b < dout.size; b++)
				same += o[b] == o[0];
			flat += dout.size > 4 && same == dout.size - 1;
		}
		ran++;
		free(ref);
		vpux_request_destroy(req);
		vpux_buffer_free(ib);
		vpux_buffer_free(ob);
		vpux_network_unload(net);
	}
	tap_check(ran >= 200,
		  "%u random networks ran (%u refused by the DPU rules at validation)",
		  ran, refused);
	tap_check(!bad, "all of them match the CPU reference bit for bit (%u bad)",
		  bad);
	tap_check(flat * 4 < ran,
		  "outputs are not degenerate (%u of %u constant)", flat, ran);
	tap_check(!rt_bad, "parse + write reproduces every loadable (%u differ)",
		  rt_bad);
	vpux_device_close(dev);
	return tap_finish();
}
