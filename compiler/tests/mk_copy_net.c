// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Test data for vpux-onnx without the compiler (compiler/tests/
 * onnx_tools_test.sh):
 *
 *   mk-copy-net DIR
 *	DIR/copy.vpuxl   a one-DMA network, u8 1x1x4x4 in and out, with
 *	                 .vpux.io/.vpux.ioq: float ONNX input "in" (scale
 *	                 0.5, zero point 10) and float output "out" (4x4,
 *	                 scale 0.25, zero point 3)
 *	DIR/raw.vpuxl    the same network without the sections
 *	DIR/in.pb, DIR/in.npy   the float input (ties, saturation)
 *	DIR/expect.pb    what run must write as output_0.pb
 *	DIR/in_u8.pb     a uint8 input for raw.vpuxl
 *   mk-copy-net perturb IN.pb OUT.pb DELTA
 *	IN.pb with DELTA added to element 0 (an integer tensor)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_util.h"
#include "vpux_compiler.h"

static int write_file(const char *dir, const char *name, const void *p,
		      size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "mk-copy-net: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

static int put_pb(const char *dir, const char *name,
		  const struct vpuxc_tensor *t)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (vpuxc_tensor_write_pb(path, t)) {
		fprintf(stderr, "mk-copy-net: %s\n", vpux_last_error());
		return 1;
	}
	return 0;
}

static int perturb(const char *in, const char *out, long delta)
{
	struct vpuxc_tensor t;

	if (vpuxc_tensor_read_pb(in, &t)) {
		fprintf(stderr, "mk-copy-net: %s\n", vpux_last_error());
		return 1;
	}
	if (!t.size || t.dtype == VPUXC_FLOAT) {
		fprintf(stderr, "mk-copy-net: %s: not an integer tensor\n", in);
		return 1;
	}
	if (t.dtype == VPUXC_UINT8 || t.dtype == VPUXC_INT8)
		((uint8_t *)t.data)[0] += (uint8_t)delta;
	else if (t.dtype == VPUXC_INT32)
		((int32_t *)t.data)[0] += (int32_t)delta;
	else
		((int64_t *)t.data)[0] += delta;
	if (vpuxc_tensor_write_pb(out, &t)) {
		fprintf(stderr, "mk-copy-net: %s\n", vpux_last_error());
		return 1;
	}
	vpuxc_tensor_fini(&t);
	return 0;
}

int main(int argc, char **argv)
{
	static const int64_t d4[4] = { 1, 1, 4, 4 }, d2[2] = { 4, 4 };
	struct vpuxc_io_rec r[2];
	struct vpuxc_ioq_rec q[2];
	struct lf_extra_section ex[2];
	struct vpuxc_tensor t;
	struct copy_net c;
	float x[16], y[16];
	uint8_t u[16];
	unsigned char npy[128 + 64];
	const char *hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 4, 4), }";
	size_t n, hl;
	void *p;
	int i;

	if (argc == 5 && !strcmp(argv[1], "perturb"))
		return perturb(argv[2], argv[3], strtol(argv[4], NULL, 0));
	if (argc != 2) {
		fprintf(stderr, "usage: mk-copy-net DIR | mk-copy-net perturb IN.pb OUT.pb DELTA\n");
		return 2;
	}
	memset(&c, 0, sizeof(c));
	c.dt = VPUX_DT_U8;
	c.rank = 4;
	c.dims[0] = c.dims[1] = 1;
	c.dims[2] = c.dims[3] = 4;
	c.zp = 10;
	c.mult = 1 << 30;
	r[0] = io_rec("in", VPUXC_IO_INPUT, 0, VPUXC_FLOAT, 4, d4);
	r[1] = io_rec("out", VPUXC_IO_OUTPUT, 0, VPUXC_FLOAT, 2, d2);
	r[1].qoffset = 1;
	memset(q, 0, sizeof(q));
	q[0].scale = 0.5;
	q[0].zero_point = 10;
	q[1].scale = 0.25;
	q[1].zero_point = 3;
	memset(ex, 0, sizeof(ex));
	ex[0] = (struct lf_extra_section){ VPUXC_IO_SECTION, 0, r, sizeof(r),
					   sizeof(r[0]), 0 };
	ex[1] = (struct lf_extra_section){ VPUXC_IOQ_SECTION, 0, q, sizeof(q),
					   sizeof(q[0]), 0 };
	c.extra = ex;
	c.n_extra = 2;
	if (copy_net_write(&c, &p, &n) || write_file(argv[1], "copy.vpuxl", p, n))
		return 1;
	free(p);
	c.n_extra = 0;
	if (copy_net_write(&c, &p, &n) || write_file(argv[1], "raw.vpuxl", p, n))
		return 1;
	free(p);

	/* ties (half to even), saturation both ways */
	for (i = 0; i < 16; i++)
		x[i] = (float)i * 0.75f - 6.0f;
	x[14] = 1000;
	x[15] = -1000;
	for (i = 0; i < 16; i++) {
		float qv = rintf(x[i] / 0.5f) + 10;

		qv = qv < 0 ? 0 : qv > 255 ? 255 : qv;
		u[i] = (uint8_t)qv;
		y[i] = ((float)u[i] - 3.0f) * 0.25f;
	}
	memset(&t, 0, sizeof(t));
	strcpy(t.name, "in");
	t.dtype = VPUXC_FLOAT;
	t.rank = 4;
	memcpy(t.dims, d4, sizeof(d4));
	t.data = x;
	t.size = sizeof(x);
	if (put_pb(argv[1], "in.pb", &t))
		return 1;
	strcpy(t.name, "out");
	t.rank = 2;
	memcpy(t.dims, d2, sizeof(d2));
	t.data = y;
	if (put_pb(argv[1], "expect.pb", &t))
		return 1;
	strcpy(t.name, "x");
	t.dtype = VPUXC_UINT8;
	t.rank = 4;
	memcpy(t.dims, d4, sizeof(d4));
	t.data = u;
	t.size = sizeof(u);
	if (put_pb(argv[1], "in_u8.pb", &t))
		return 1;

	/* .npy v1: magic, version, header padded to 64, data */
	hl = 128 - 10;
	memset(npy, ' ', 128);
	memcpy(npy, "\x93NUMPY\1\0", 8);
	npy[8] = (unsigned char)hl;
	npy[9] = 0;
	memcpy(npy + 10, hdr, strlen(hdr));
	npy[127] = '\n';
	memcpy(npy + 128, x, sizeof(x));
	return write_file(argv[1], "in.npy", npy, 128 + sizeof(x));
}
