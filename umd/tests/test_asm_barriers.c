// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-asm's implicit barriers past VPUX_LF_MAX_WAITS
 * (Documentation/vpux-asm.rst, "Barriers"): an op that depends on more
 * earlier ops than it can wait on waits on one join barrier that all of
 * them update; an op with at most VPUX_LF_MAX_WAITS dependencies keeps
 * one barrier per producer; a producer feeding more join barriers than
 * it can update is refused. The joined program runs in process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "lf.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

static char errbuf[4096];

/* assemble @text; errors into errbuf */
static int assemble(const char *text, struct lf_image *img)
{
	return asm_capture(text, img, errbuf, sizeof(errbuf));
}

/*
 * @n one-byte DMAs x[i] -> s[n - 1 - i], then one DMA s -> y that
 * depends on all of them: y is x reversed
 */
static void gather_text(char *buf, size_t len, unsigned int n)
{
	struct vt_text t = { buf, len };
	unsigned int i;

	vt_out(&t, "network join\ninput x u8 %u\noutput y u8 %u\n"
	       "tensor s u8 %u region=scratch offset=0\n", n, n, n);
	for (i = 0; i < n; i++)
		vt_out(&t, "dma src=x[%u:1] dst=s[%u:1]\n", i, n - 1 - i);
	vt_out(&t, "dma src=s dst=y\n");
}

static const struct vpux_lf_deps *last_deps(const struct lf_image *img)
{
	return lf_op_deps(img, LF_DMA, img->n_dma - 1);
}

static void test_records(void)
{
	struct lf_image img;
	const struct vpux_lf_deps *d;
	char text[4096];
	unsigned int i, ok;

	/* 8 producers: one barrier each, the consumer waits on all 8 */
	gather_text(text, sizeof(text), 8);
	if (assemble(text, &img)) {
		tap_check(0, "8 producers: %s", errbuf);
		return;
	}
	d = last_deps(&img);
	tap_check(img.n_barriers == 8 && d->num_waits == 8 && !lf_validate(&img),
		  "8 producers: 8 barriers, the consumer waits on 8 (%u, %u)",
		  img.n_barriers, d->num_waits);
	asm_free(&img);

	/* 12: one join barrier, updated by all 12 */
	gather_text(text, sizeof(text), 12);
	if (assemble(text, &img)) {
		tap_check(0, "12 producers: %s", errbuf);
		return;
	}
	d = last_deps(&img);
	ok = img.n_barriers == 1 && d->num_waits == 1 && !d->num_updates &&
	     img.barriers[0].producer_count == 12 &&
	     img.barriers[0].consumer_count == 1;
	for (i = 0; ok && i < 12; i++) {
		const struct vpux_lf_deps *p = lf_op_deps(&img, LF_DMA, i);

		ok = p->num_updates == 1 && p->updates[0] == d->waits[0] &&
		     !p->num_waits;
	}
	tap_check(ok && !lf_validate(&img),
		  "12 producers: the consumer waits on one join barrier the 12 update (%u barriers, producer_count %u)",
		  img.n_barriers, img.n_barriers ? img.barriers[0].producer_count : 0);
	asm_free(&img);
}

/* a producer read by 9 ops that each depend on 9: 9 join barriers */
static void test_too_many_joins(void)
{
	char text[8192];
	struct vt_text t = { text, sizeof(text) };
	struct lf_image img;
	unsigned int i, j;
	int ret;

	vt_out(&t, "network joins\ninput x u8 16\noutput y u8 96\n"
	       "tensor s u8 16 region=scratch offset=0\n");
	for (i = 0; i < 9; i++)
		vt_out(&t, "dma src=x[%u:1] dst=s[%u:1]\n", i, i);
	for (j = 0; j < 9; j++)
		vt_out(&t, "dma src=s[0:9] dst=y[%u:9]\n", j * 10);
	ret = assemble(text, &img);
	tap_check(ret && strstr(errbuf, "t.vasm:5:") &&
		  strstr(errbuf, "op feeds more than 8 barriers"),
		  "a producer of 9 join barriers refused, its line named: %s",
		  errbuf);
	if (!ret)
		asm_free(&img);
}

static void test_run(void)
{
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *bi = NULL, *bo = NULL;
	unsigned char x[24], y[24];
	char text[4096];
	void *p = NULL;
	size_t n;
	int ret, i, ok;

	gather_text(text, sizeof(text), 24);
	ret = asm_bytes(text, &p, &n);
	ret = ret ? ret : vpux_device_open("inproc", &dev);
	ret = ret ? ret : vpux_network_load(dev, p, n, &net);
	ret = ret ? ret : vpux_request_create(net, &req);
	ret = ret ? ret : vpux_buffer_alloc(dev, 4096, &bi);
	ret = ret ? ret : vpux_buffer_alloc(dev, 4096, &bo);
	ret = ret ? ret : vpux_request_bind_input(req, 0, bi, 0);
	ret = ret ? ret : vpux_request_bind_output(req, 0, bo, 0);
	for (i = 0; i < 24; i++)
		x[i] = (unsigned char)(3 * i + 1);
	ret = ret ? ret : vpux_request_write_input(req, 0, x, sizeof(x));
	ret = ret ? ret : vpux_request_submit(req);
	ret = ret ? ret : vpux_request_wait(req, 10000);
	ret = ret ? ret : vpux_request_read_output(req, 0, y, sizeof(y));
	ok = !ret;
	for (i = 0; ok && i < 24; i++)
		ok = y[i] == x[23 - i];
	tap_check(ok, "24 producers joined: runs in process, y is x reversed (%s)",
		  ret ? vpux_last_error() : "ok");
	vpux_request_destroy(req);
	vpux_buffer_free(bi);
	vpux_buffer_free(bo);
	vpux_network_unload(net);
	vpux_device_close(dev);
	free(p);
}

int main(void)
{
	test_records();
	test_too_many_joins();
	test_run();
	return tap_finish();
}
