// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The host boundary of the public API (API 1.7): vpux_network_io_info(),
 * vpux_request_write_input() and vpux_request_read_output() on networks
 * assembled here with the compiler's ".vpux.io"/".vpux.ioq" sections: an
 * FP16 float input and output (float32 to FP16 to nearest even and back),
 * a float input quantized per axis and a float output per tensor (the
 * exact ONNX scales, half to even, saturated), an ONNX int64 value held
 * in int32; run in process. Then the same network without the sections,
 * a malformed section refused at load, and each error of the calls.
 */
#include <math.h>
#include <string.h>

#include "host_io.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

static struct vpux_device *dev;

static const char *const net_text =
	"network hostio\n"
	"input  x f16 1x3x4x4\n"
	"input  q u8 2x3 zp=10 scale=1073741824,0\n"
	"input  n i32 3\n"
	"output y f16 1x3x4x4\n"
	"output r u8 2x3 zp=3 scale=1073741824,1\n"
	"output m i32 3\n"
	"dma src=x dst=y\n"
	"dma src=q dst=r\n"
	"dma src=n dst=m\n";

#define LONG_NAME "backbone.stem.conv_input/with_a_name_longer_than_32"

static const int64_t dx[4] = { 1, 3, 4, 4 }, dq[2] = { 2, 3 },
		     dn[1] = { 3 };

static struct vpuxc_io_rec rec(const char *name, uint32_t dir,
			       uint32_t index, int32_t dtype, uint32_t rank,
			       const int64_t *dims)
{
	struct vpuxc_io_rec r;

	memset(&r, 0, sizeof(r));
	strncpy(r.name, name, sizeof(r.name) - 1);
	r.dir = dir;
	r.index = index;
	r.onnx_dtype = dtype;
	r.rank = rank;
	memcpy(r.dims, dims, rank * sizeof(*dims));
	r.axis = -1;
	return r;
}

/*
 * The records: x float (f16), q float quantized along axis 1 (ioq 0..2:
 * scales 0.5, 0.25, 2, zero points 10, 0, 255), n int64 (on i32); y float
 * (f16), r float per tensor (ioq 3: scale 0.25, zp 3), m int64.
 */
static void good(struct vpuxc_io_rec r[6], struct vpuxc_ioq_rec q[4])
{
	r[0] = rec(LONG_NAME, VPUXC_IO_INPUT, 0, HIO_FLOAT, 4, dx);
	r[1] = rec("q", VPUXC_IO_INPUT, 1, HIO_FLOAT, 2, dq);
	r[1].axis = 1;
	r[1].qcount = 3;
	r[2] = rec("n", VPUXC_IO_INPUT, 2, HIO_INT64, 1, dn);
	r[3] = rec("y", VPUXC_IO_OUTPUT, 0, HIO_FLOAT, 4, dx);
	r[4] = rec("r", VPUXC_IO_OUTPUT, 1, HIO_FLOAT, 2, dq);
	r[4].qcount = 1;
	r[4].qoffset = 3;
	r[5] = rec("m", VPUXC_IO_OUTPUT, 2, HIO_INT64, 1, dn);
	memset(q, 0, 4 * sizeof(*q));
	q[0] = (struct vpuxc_ioq_rec){ 0.5, 10, 0 };
	q[1] = (struct vpuxc_ioq_rec){ 0.25, 0, 0 };
	q[2] = (struct vpuxc_ioq_rec){ 2, 255, 0 };
	q[3] = (struct vpuxc_ioq_rec){ 0.25, 3, 0 };
}

/* the network with sections of @nr records and @nq (NULL: none) */
static int load(const struct vpuxc_io_rec *r, unsigned int nr,
		const struct vpuxc_ioq_rec *q, unsigned int nq,
		struct vpux_network **net)
{
	struct lf_extra_section ex[2];
	struct lf_image img;
	void *s = NULL, *sq = NULL, *p = NULL;
	uint32_t ssz = 0, sqsz = 0;
	size_t n;
	int ret;

	*net = NULL;
	if (asm_text("hostio", net_text, NULL, &img, stderr))
		return -100;
	img.n_extra = 0;
	if (r) {
		if (host_io_section_build(VPUXC_IO_SECTION, r, sizeof(*r), nr,
					  128, &s, &ssz))
			abort();
		ex[img.n_extra++] = (struct lf_extra_section){
			VPUXC_IO_SECTION, 0, s, ssz, 0, 1 };
	}
	if (q) {
		if (host_io_section_build(VPUXC_IOQ_SECTION, q, sizeof(*q), nq,
					  1u << 24, &sq, &sqsz))
			abort();
		ex[img.n_extra++] = (struct lf_extra_section){
			VPUXC_IOQ_SECTION, 0, sq, sqsz, 0, 1 };
	}
	img.extra = ex;
	ret = lf_write_mem(&img, &p, &n);
	img.extra = NULL;
	img.n_extra = 0;
	asm_free(&img);
	if (!ret)
		ret = vpux_network_load(dev, p, n, net);
	free(p);
	free(s);
	free(sq);
	return ret;
}

static int info(struct vpux_network *net, int out, unsigned int i,
		struct vpux_io_info *v)
{
	memset(v, 0xa5, sizeof(*v));
	v->size = sizeof(*v);
	return vpux_network_io_info(net, out, i, v);
}

static void test_info(struct vpux_network *net)
{
	struct vpux_io_info v;
	unsigned char big[sizeof(v) + 16];
	int r;

	r = info(net, 0, 0, &v);
	tap_check(!r && !strcmp(v.name, LONG_NAME) &&
		  v.flags == (VPUX_IO_CONVERT | VPUX_IO_ONNX) &&
		  v.host_type == VPUX_DT_F32 && v.data_type == VPUX_DT_F16 &&
		  v.rank == 4 && v.dims[0] == 1 && v.dims[1] == 3 &&
		  v.dims[3] == 4 && !v.dims[4] && v.host_size == 192 &&
		  v.quant_axis == -1 && !v.quant_count && !v.reserved &&
		  v.size == sizeof(v),
		  "io info: FP16 input: the full ONNX name, float32 on the host, dims, 192 bytes (%s)",
		  vpux_last_error());
	r = info(net, 0, 1, &v);
	tap_check(!r && v.host_type == VPUX_DT_F32 &&
		  v.data_type == VPUX_DT_U8 && v.quant_axis == 1 &&
		  v.quant_count == 3 && v.host_size == 24 &&
		  (v.flags & VPUX_IO_CONVERT),
		  "io info: a float input quantized along axis 1: 3 scales, 24 bytes");
	r = info(net, 0, 2, &v);
	tap_check(!r && v.host_type == VPUX_DT_I64 &&
		  v.data_type == VPUX_DT_I32 && v.host_size == 24 &&
		  (v.flags & VPUX_IO_CONVERT),
		  "io info: ONNX int64 on an int32 tensor: host int64");
	r = info(net, 1, 1, &v);
	tap_check(!r && !strcmp(v.name, "r") && v.quant_axis == -1 &&
		  v.quant_count == 1 && v.rank == 2 && v.dims[1] == 3,
		  "io info: a float output quantized per tensor");
	r = info(net, 1, 3, &v);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "output 3 does not exist (3 outputs)"),
		  "io info: no such output (%s)", vpux_last_error());
	v.size = VPUX_IO_INFO_SIZE_1_7 - 1;
	r = vpux_network_io_info(net, 0, 0, &v);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "size 231, at least 232"),
		  "io info: a size below API 1.7's refused (%s)",
		  vpux_last_error());
	/* a caller of a newer API: its tail beyond what libvpux knows kept */
	memset(big, 0x5a, sizeof(big));
	v.size = sizeof(big);
	memcpy(big, &v.size, 4);
	r = vpux_network_io_info(net, 0, 0, (struct vpux_io_info *)big);
	memcpy(&v, big, sizeof(v));
	tap_check(!r && v.size == sizeof(big) && v.host_size == 192 &&
		  big[sizeof(v)] == 0x5a && big[sizeof(big) - 1] == 0x5a,
		  "io info: a larger size: the known fields filled, the tail untouched");
}

/* buffers bound to every input and output of @req */
static void bind_all(struct vpux_network *net, struct vpux_request *req,
		     struct vpux_buffer **b)
{
	struct vpux_tensor_desc d;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		vpux_network_input(net, i, &d);
		if (vpux_buffer_alloc(dev, d.size, &b[i]) ||
		    vpux_request_bind_input(req, i, b[i], 0))
			abort();
		vpux_network_output(net, i, &d);
		if (vpux_buffer_alloc(dev, d.size, &b[3 + i]) ||
		    vpux_request_bind_output(req, i, b[3 + i], 0))
			abort();
	}
}

/* float32 to FP16 and back, computed here without libvpux's code */
static float f16_round(float x)
{
	int e;

	if (isnan(x) || isinf(x) || x == 0)
		return x;
	if (fabsf(x) >= 65520.0f)
		return x > 0 ? INFINITY : -INFINITY;
	(void)frexpf(fabsf(x), &e);
	/* |x| in [2^(e-1), 2^e): 11 significant bits, at least 2^-24 */
	e = e - 11 < -24 ? -24 : e - 11;
	return ldexpf(rintf(ldexpf(x, -e)), e);	/* rintf: half to even */
}

static void test_run(struct vpux_network *net)
{
	struct vpux_buffer *b[6];
	struct vpux_request *req;
	float x[48], y[48], q[6], r[6];
	int64_t n[3] = { -7, INT32_MAX, INT32_MIN }, m[3];
	int ret, i, ok;

	for (i = 0; i < 48; i++)
		x[i] = (float)(i - 20) * 0.3f + 1e-3f * (float)i;
	x[0] = 1.00048828125f;	/* 1 + 2^-11: a tie, to even 1 */
	x[1] = 1.00146484375f;	/* 1 + 3 * 2^-11: a tie, to even 1 + 2^-9 */
	x[2] = 65520.0f;	/* beyond FP16: inf */
	x[3] = NAN;
	x[4] = 3e-8f;		/* a subnormal FP16 */
	x[5] = -0.0f;
	/* axis 1: scales 0.5, 0.25, 2; ties to even; saturation */
	q[0] = 0.25f;	/* 0.5 -> 0, + 10 */
	q[1] = 0.375f;	/* 1.5 -> 2 */
	q[2] = 1000;	/* 500 + 255: 255 */
	q[3] = -1000;	/* -2000 + 10: 0 */
	q[4] = 0.625f;	/* 2.5 -> 2 */
	q[5] = -3;	/* -1.5 -> -2, + 255 = 253 */
	if (vpux_request_create(net, &req))
		abort();
	ret = vpux_request_write_input(req, 0, x, sizeof(x));
	tap_check(ret == VPUX_E_UNBOUND && strstr(vpux_last_error(),
		  "input 0 '" LONG_NAME "': no buffer bound"),
		  "write input: no buffer bound: VPUX_E_UNBOUND naming the input (%s)",
		  vpux_last_error());
	bind_all(net, req, b);
	ret = vpux_request_write_input(req, 0, x, 100);
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 0 '" LONG_NAME "': 100 bytes, it takes 192: 1x3x4x4 float"),
		  "write input: the wrong size: the input and the size it takes (%s)",
		  vpux_last_error());
	ret = vpux_request_write_input(req, 3, x, sizeof(x));
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 3 does not exist (3 inputs)"),
		  "write input: no such input (%s)", vpux_last_error());
	ret = vpux_request_write_input(req, 0, NULL, 192);
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(), "at NULL"),
		  "write input: NULL data (%s)", vpux_last_error());
	ret = vpux_request_write_input(req, 0, x, sizeof(x));
	ret = ret ? ret : vpux_request_write_input(req, 1, q, sizeof(q));
	ret = ret ? ret : vpux_request_write_input(req, 2, n, sizeof(n));
	{
		const uint16_t *h = vpux_buffer_map(b[0]);
		const uint8_t *u = vpux_buffer_map(b[1]);
		static const uint8_t want[6] = { 10, 2, 255, 0, 2, 253 };

		tap_check(!ret && h[0] == 0x3c00 && h[1] == 0x3c02 &&
			  h[2] == 0x7c00 && (h[3] & 0x7c00) == 0x7c00 &&
			  (h[3] & 0x3ff) && h[4] == 0x0001 && h[5] == 0x8000 &&
			  !memcmp(u, want, 6),
			  "write input: FP16 to nearest even (ties, inf, NaN, subnormal, -0); per-axis quantization half to even, saturated (%s)",
			  vpux_last_error());
	}
	ret = vpux_request_submit(req);
	ret = ret ? ret : vpux_request_wait(req, 10000);
	ret = ret ? ret : vpux_request_read_output(req, 0, y, sizeof(y));
	ok = !ret;
	for (i = 0; ok && i < 48; i++)
		ok = i == 3 ? isnan(y[i]) :
		     (y[i] == f16_round(x[i]) &&
		      signbit(y[i]) == signbit(x[i]));
	tap_check(ok, "float32 -> FP16 -> float32 through the NPU: each value rounded once to nearest even (%s; y[0..4] %g %g %g %g %g)",
		  ret ? vpux_last_error() : "ok", y[0], y[1], y[2], y[3],
		  y[4]);
	{
		/* the output's own buffer: a new input leaves it as it is */
		float z[48], y2[48];

		memset(z, 0, sizeof(z));
		ret = vpux_request_write_input(req, 0, z, sizeof(z));
		ret = ret ? ret : vpux_request_read_output(req, 0, y2,
							   sizeof(y2));
		tap_check(!ret && !memcmp(y, y2, sizeof(y)),
			  "read output: output 0's buffer, not input 0's (%s)",
			  ret ? vpux_last_error() : "ok");
	}
	ret = vpux_request_read_output(req, 1, r, sizeof(r));
	ok = !ret;
	{
		static const uint8_t dev_q[6] = { 10, 2, 255, 0, 2, 253 };

		for (i = 0; ok && i < 6; i++)
			ok = r[i] == ((float)dev_q[i] - 3.0f) * 0.25f;
	}
	tap_check(ok, "read output: dequantized (q - 3) * 0.25 in float (%s)",
		  ret ? vpux_last_error() : "ok");
	ret = vpux_request_read_output(req, 2, m, sizeof(m));
	tap_check(!ret && !memcmp(m, n, sizeof(n)),
		  "int64 -> int32 -> int64 through the NPU, sign-extended");
	ret = vpux_request_read_output(req, 0, y, sizeof(y) - 4);
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "output 0 'y': 188 bytes, it takes 192"),
		  "read output: the wrong size (%s)", vpux_last_error());

	/* errors of the values */
	x[3] = 1;
	q[4] = NAN;
	ret = vpux_request_write_input(req, 1, q, sizeof(q));
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 'q': element 4 is NaN"),
		  "write input: NaN into a quantized input refused, naming the element (%s)",
		  vpux_last_error());
	n[1] = (int64_t)INT32_MAX + 1;
	ret = vpux_request_write_input(req, 2, n, sizeof(n));
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 'n': element 1 = 2147483648 out of the int32 range"),
		  "write input: int64 beyond int32 refused (%s)",
		  vpux_last_error());

	vpux_request_destroy(req);
	for (i = 0; i < 6; i++)
		vpux_buffer_free(b[i]);
}

/* a request seen running: writing its input or reading its output refused */
static void test_running(void)
{
	char text[2048];
	struct vt_text t = { text, sizeof(text) };
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *bi = NULL, *bo = NULL;
	struct vpux_request_status st;
	struct lf_image img;
	float *h = calloc(524288, 4);
	void *p = NULL;
	size_t n;
	int ret, seen = 0, k;

	/* 32 chained DMAs of 1 MiB: long enough to be caught running */
	vt_out(&t, "network hostio_long\ninput x f16 524288\n"
	       "output y f16 524288\ntensor s f16 524288\ndma src=x dst=s\n");
	for (k = 0; k < 15; k++)
		vt_out(&t, "dma src=s dst=y\ndma src=y dst=s\n");
	vt_out(&t, "dma src=s dst=y\n");
	if (!h || asm_text("long", text, NULL, &img, stderr))
		abort();
	ret = lf_write_mem(&img, &p, &n);
	asm_free(&img);
	ret = ret ? ret : vpux_network_load(dev, p, n, &net);
	ret = ret ? ret : vpux_request_create(net, &req);
	ret = ret ? ret : vpux_buffer_alloc(dev, 1 << 20, &bi);
	ret = ret ? ret : vpux_buffer_alloc(dev, 1 << 20, &bo);
	ret = ret ? ret : vpux_request_bind_input(req, 0, bi, 0);
	ret = ret ? ret : vpux_request_bind_output(req, 0, bo, 0);
	for (k = 0; !ret && k < 20 && !seen; k++) {
		ret = vpux_request_submit(req);
		if (ret)
			break;
		if (vpux_request_read_output(req, 0, h, 524288 * 4) ==
		    VPUX_E_STATE &&
		    strstr(vpux_last_error(), "output 0 'y': the request is running") &&
		    vpux_request_write_input(req, 0, h, 524288 * 4) ==
		    VPUX_E_STATE)
			seen = 1;
		ret = vpux_request_wait(req, 10000);
	}
	if (!ret && !seen)
		tap_skip("the request was never seen running");
	else
		tap_check(!ret && seen,
			  "a running request: write input and read output refused with VPUX_E_STATE (%s)",
			  ret ? vpux_last_error() : "ok");
	ret = vpux_request_status(req, &st);
	tap_check(!ret && st.state == VPUX_REQ_DONE &&
		  !vpux_request_read_output(req, 0, h, 524288 * 4),
		  "once done: read output works");
	vpux_request_destroy(req);
	vpux_buffer_free(bi);
	vpux_buffer_free(bo);
	vpux_network_unload(net);
	free(p);
	free(h);
}

/* the same network without the sections: the tensors alone */
static void test_no_section(void)
{
	struct vpux_network *net;
	struct vpux_io_info v;
	int ret = load(NULL, 0, NULL, 0, &net);

	tap_check(!ret, "no .vpux.io: loads (%s)", vpux_last_error());
	if (ret)
		return;
	ret = info(net, 0, 0, &v);
	tap_check(!ret && !strcmp(v.name, "x") &&
		  v.flags == VPUX_IO_CONVERT && v.host_type == VPUX_DT_F32 &&
		  v.data_type == VPUX_DT_F16 && v.host_size == 192,
		  "no .vpux.io: an f16 tensor is float32 on the host, converted, the tensor's name");
	ret = info(net, 0, 1, &v);
	tap_check(!ret && !v.flags && v.host_type == VPUX_DT_U8 &&
		  v.data_type == VPUX_DT_U8 && v.host_size == 6 &&
		  !v.quant_count,
		  "no .vpux.io: a u8 tensor is copied as it is");
	{
		struct vpux_buffer *b[6];
		struct vpux_request *req;
		float x[48], y[48];
		uint8_t q[6] = { 1, 2, 3, 250, 0, 7 }, r[6];
		int32_t n[3] = { 1, -2, 3 }, m[3];
		int i, ok;

		for (i = 0; i < 48; i++)
			x[i] = 0.1f * (float)i;
		if (vpux_request_create(net, &req))
			abort();
		bind_all(net, req, b);
		ret = vpux_request_write_input(req, 0, x, sizeof(x));
		ret = ret ? ret : vpux_request_write_input(req, 1, q, 6);
		ret = ret ? ret : vpux_request_write_input(req, 2, n, 12);
		ret = ret ? ret : vpux_request_submit(req);
		ret = ret ? ret : vpux_request_wait(req, 10000);
		ret = ret ? ret : vpux_request_read_output(req, 0, y, sizeof(y));
		ret = ret ? ret : vpux_request_read_output(req, 1, r, 6);
		ret = ret ? ret : vpux_request_read_output(req, 2, m, 12);
		ok = !ret && !memcmp(q, r, 6) && !memcmp(n, m, 12);
		for (i = 0; ok && i < 48; i++)
			ok = y[i] == f16_round(x[i]);
		tap_check(ok, "no .vpux.io: float32 through FP16, u8 and i32 as they are (%s)",
			  ret ? vpux_last_error() : "ok");
		vpux_request_destroy(req);
		for (i = 0; i < 6; i++)
			vpux_buffer_free(b[i]);
	}
	vpux_network_unload(net);
}

/* malformed sections: the load fails naming section, record and field */
static void test_refused(void)
{
	struct vpuxc_io_rec r[6];
	struct vpuxc_ioq_rec q[4];
	struct vpux_network *net;
	int ret;

	good(r, q);
	r[4].qoffset = 4;
	ret = load(r, 6, q, 4, &net);
	tap_check(ret == VPUX_E_FORMAT && !net && strstr(vpux_last_error(),
		  ".vpux.io: record 4: field qoffset: records [4, +1) outside .vpux.ioq (4 records)"),
		  "load: a quantization record outside .vpux.ioq refused (%s)",
		  vpux_last_error());
	good(r, q);
	q[2].zero_point = 256;
	ret = load(r, 6, q, 4, &net);
	tap_check(ret == VPUX_E_FORMAT && !net && strstr(vpux_last_error(),
		  ".vpux.ioq: record 2: field zero_point: 256 outside the uint8 range"),
		  "load: a zero point outside the device type refused (%s)",
		  vpux_last_error());
	good(r, q);
	r[0].qcount = 1;
	ret = load(r, 6, q, 4, &net);
	tap_check(ret == VPUX_E_FORMAT && !net && strstr(vpux_last_error(),
		  ".vpux.io: record 0: field qcount: 1, the f16 device tensor of input '" LONG_NAME "' is not quantized (0)"),
		  "load: a scale for an FP16 tensor refused (%s)",
		  vpux_last_error());
	good(r, q);
	ret = load(r, 5, q, 4, &net);
	tap_check(ret == VPUX_E_FORMAT && !net && strstr(vpux_last_error(),
		  ".vpux.io: header field count 5, the network has 3 inputs and 3 outputs"),
		  "load: a record missing refused (%s)", vpux_last_error());
	good(r, q);
	ret = load(r, 6, NULL, 0, &net);
	tap_check(ret == VPUX_E_FORMAT && !net && strstr(vpux_last_error(),
		  ".vpux.ioq: missing (record 1 of .vpux.io has qcount 3)"),
		  "load: .vpux.ioq missing refused (%s)", vpux_last_error());
}

/* a tensor with gaps between its rows: no host view */
static void test_no_view(void)
{
	static const char text[] =
		"network gaps\n"
		"input  g u8 2x3 strides=4,1\n"
		"output h u8 2x3 strides=4,1\n"
		"dma src=g dst=h\n";
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *b = NULL;
	struct vpux_io_info v;
	struct lf_image img;
	uint8_t x[6] = { 0 };
	void *p = NULL;
	size_t n;
	int ret;

	if (asm_text("gaps", text, NULL, &img, stderr))
		abort();
	ret = lf_write_mem(&img, &p, &n);
	asm_free(&img);
	ret = ret ? ret : vpux_network_load(dev, p, n, &net);
	ret = ret ? ret : info(net, 0, 0, &v);
	tap_check(!ret && v.flags == VPUX_IO_NO_VIEW && v.host_size == 6,
		  "io info: a tensor with gaps: VPUX_IO_NO_VIEW (%s)",
		  vpux_last_error());
	ret = ret ? ret : vpux_request_create(net, &req);
	ret = ret ? ret : vpux_buffer_alloc(dev, 64, &b);
	ret = ret ? ret : vpux_request_bind_input(req, 0, b, 0);
	ret = ret ? ret : vpux_request_write_input(req, 0, x, 6);
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 'g': its tensor is not dense (strides with gaps): no host view"),
		  "write input: a tensor with gaps refused (%s)",
		  vpux_last_error());
	vpux_request_destroy(req);
	vpux_buffer_free(b);
	vpux_network_unload(net);
	free(p);
}

int main(void)
{
	struct vpuxc_io_rec r[6];
	struct vpuxc_ioq_rec q[4];
	struct vpux_network *net;
	int ret;

	if (vpux_device_open("inproc", &dev)) {
		tap_diag("inproc: %s", vpux_last_error());
		return 1;
	}
	good(r, q);
	ret = load(r, 6, q, 4, &net);
	tap_check(!ret, "load: with .vpux.io and .vpux.ioq (%s)",
		  vpux_last_error());
	if (!ret) {
		test_info(net);
		test_run(net);
		vpux_network_unload(net);
	}
	test_no_section();
	test_refused();
	test_no_view();
	test_running();
	vpux_device_close(dev);
	return tap_finish();
}
