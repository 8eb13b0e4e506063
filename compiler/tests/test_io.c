// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The ONNX view of a loadable's inputs and outputs: the table derived
 * from the tensor records, the .vpux.io section (one test per rule of
 * its header and records, each with the expected message), and the
 * boundary conversion (round half to even, saturation, int64 range),
 * then one network run in-process with converted data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io_format.h"
#include "io_section.h"
#include "io_util.h"
#include "lf.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

/* u8 1x1x4x4, zp 10, scale 0.5 (2^30 / 2^31) */
static struct copy_net base(void)
{
	struct copy_net c;

	memset(&c, 0, sizeof(c));
	c.dt = VPUX_DT_U8;
	c.rank = 4;
	c.dims[0] = 1;
	c.dims[1] = 1;
	c.dims[2] = 4;
	c.dims[3] = 4;
	c.zp = 10;
	c.mult = 1 << 30;
	c.shift = 0;
	return c;
}

static const int64_t d4[4] = { 1, 1, 4, 4 };

/*
 * The good sections: float "in" (1x1x4x4, ioq record 0: scale 0.5, zp 10)
 * and float "out" (4x4, ioq record 1: scale 0.25, zp 3).
 */
static void good_recs(struct vpuxc_io_rec r[2], struct vpuxc_ioq_rec q[2])
{
	static const int64_t d2[2] = { 4, 4 };

	r[0] = io_rec("in", VPUXC_IO_INPUT, 0, VPUXC_FLOAT, 4, d4);
	r[1] = io_rec("out", VPUXC_IO_OUTPUT, 0, VPUXC_FLOAT, 2, d2);
	r[1].qoffset = 1;
	memset(q, 0, 2 * sizeof(*q));
	q[0].scale = 0.5;
	q[0].zero_point = 10;
	q[1].scale = 0.25;
	q[1].zero_point = 3;
}

/* a loadable of @c with the raw sections (NULL: none), read back */
static int read_with(struct copy_net *c, const void *sec, uint32_t n,
		     const void *qsec, uint32_t qn, struct vpuxc_io_table *io)
{
	struct lf_extra_section ex[2];
	void *p;
	size_t sz;
	int r;

	c->n_extra = 0;
	if (sec)
		ex[c->n_extra++] = (struct lf_extra_section){
			VPUXC_IO_SECTION, 0, sec, n, 0, 1 };
	if (qsec)
		ex[c->n_extra++] = (struct lf_extra_section){
			VPUXC_IOQ_SECTION, 0, qsec, qn, 0, 1 };
	c->extra = ex;
	if (copy_net_write(c, &p, &sz))
		abort();
	r = vpuxc_io_read(p, sz, io);
	free(p);
	c->extra = NULL;
	c->n_extra = 0;
	return r;
}

static int read_recs(struct copy_net *c, const struct vpuxc_io_rec *recs,
		     unsigned int n, const struct vpuxc_ioq_rec *q,
		     unsigned int nq, struct vpuxc_io_table *io)
{
	void *sec, *qsec = NULL;
	uint32_t sz, qsz = 0;
	int r;

	if (vpuxc_io_section_build(recs, n, &sec, &sz) ||
	    (q && vpuxc_ioq_section_build(q, nq, &qsec, &qsz)))
		abort();
	r = read_with(c, sec, sz, qsec, qsz, io);
	free(sec);
	free(qsec);
	return r;
}

static void expect_recs(const struct vpuxc_io_rec *recs, unsigned int n,
			const struct vpuxc_ioq_rec *q, unsigned int nq,
			int code, const char *what, const char *name)
{
	struct copy_net c = base();
	struct vpuxc_io_table io;
	int r = read_recs(&c, recs, n, q, nq, &io);

	tap_check(r == code && strstr(vpux_last_error(), what) &&
		  !io.inputs && !io.outputs,
		  "io: %s: %d (%s)", name, r, vpux_last_error());
	if (!r)
		vpuxc_io_fini(&io);
}

/*
 * Section @which (0 .vpux.io, 1 .vpux.ioq) given as header @h over @pay
 * (CRC fixed unless @keep_crc), the other one good.
 */
static void expect_hdr(int which, struct vpux_lf_sechdr h, const void *pay,
		       size_t n, int keep_crc, int code, const char *what,
		       const char *name)
{
	struct copy_net c = base();
	struct vpuxc_io_table io;
	struct vpuxc_io_rec r[2];
	struct vpuxc_ioq_rec q[2];
	unsigned char *buf = malloc(sizeof(h) + n + 1);
	void *good;
	uint32_t gsz;
	int ret;

	good_recs(r, q);
	if (which ? vpuxc_io_section_build(r, 2, &good, &gsz) :
		    vpuxc_ioq_section_build(q, 2, &good, &gsz))
		abort();
	if (!keep_crc)
		h.crc32 = (uint32_t)crc32(0, pay, (uInt)n);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), pay, n);
	if (which)
		ret = read_with(&c, good, gsz, buf, (uint32_t)(sizeof(h) + n),
				&io);
	else
		ret = read_with(&c, buf, (uint32_t)(sizeof(h) + n), good, gsz,
				&io);
	tap_check(ret == code && strstr(vpux_last_error(), what),
		  "io: %s: %d (%s)", name, ret, vpux_last_error());
	if (!ret)
		vpuxc_io_fini(&io);
	free(buf);
	free(good);
}

static void test_derived(void)
{
	struct copy_net c = base();
	struct vpuxc_io_table io;
	int r;

	r = read_with(&c, NULL, 0, NULL, 0, &io);
	tap_check(!r && io.n_inputs == 1 && io.n_outputs == 1 &&
		  !strcmp(io.inputs[0].name, "x") &&
		  !strcmp(io.outputs[0].name, "y") &&
		  io.inputs[0].onnx_dtype == VPUXC_UINT8 &&
		  io.inputs[0].dev_dtype == VPUXC_UINT8 &&
		  io.inputs[0].rank == 4 && io.inputs[0].dims[2] == 4 &&
		  io.inputs[0].qcount == 0 && !io.inputs[0].scales,
		  "io: no section: names, device dtype, logical dims from the tensors, no conversion (%s)",
		  vpux_last_error());
	vpuxc_io_fini(&io);

	/* NHWC with C > 1: dense only in memory order */
	c.dims[1] = 4;
	c.dims[2] = 2;
	c.dims[3] = 1;
	c.order = 0x1342;
	c.shift = -3;
	r = read_with(&c, NULL, 0, NULL, 0, &io);
	tap_check(!r && io.inputs[0].dims[0] == 1 && io.inputs[0].dims[1] == 2 &&
		  io.inputs[0].dims[2] == 1 && io.inputs[0].dims[3] == 4,
		  "io: no section, NHWC 1x4x2x1: dims in memory order 1x2x1x4 (%s)",
		  vpux_last_error());
	vpuxc_io_fini(&io);

	c = base();
	c.dt = VPUX_DT_I32;
	c.rank = 1;
	c.dims[0] = 3;
	r = read_with(&c, NULL, 0, NULL, 0, &io);
	tap_check(!r && io.inputs[0].dev_dtype == VPUXC_INT32 &&
		  io.inputs[0].onnx_dtype == VPUXC_INT32 && io.inputs[0].rank == 1,
		  "io: no section: an int32 tensor");
	vpuxc_io_fini(&io);

	r = vpuxc_io_read("\x7f" "ELF", 4, &io);
	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), "truncated") &&
		  !io.inputs, "io: not a loadable: the loader's error (%s)",
		  vpux_last_error());
}

/* a tensor with a gap between rows: not dense in any order */
static void test_not_dense(void)
{
	struct copy_net c = base();
	struct vpux_lf_tensor t[2];
	struct vpux_lf_dma dma;
	struct lf_image img;
	struct vpuxc_io_table io;
	void *p;
	size_t n;
	int r;

	memset(&img, 0, sizeof(img));
	img.hdr.magic = VPUX_LF_MAGIC;
	img.hdr.version_major = VPUX_LF_VERSION_MAJOR;
	img.hdr.target = VPUX_TARGET_VPUX1;
	img.hdr.caps = VPUX_NET_CAP_DMA;
	img.hdr.num_inputs = 1;
	img.hdr.num_outputs = 1;
	strcpy(img.hdr.name, "gap");
	copy_net_tensor(&c, &t[0], "x", VPUX_LF_REGION(VPUX_LF_RK_INPUT, 0));
	copy_net_tensor(&c, &t[1], "y", VPUX_LF_REGION(VPUX_LF_RK_OUTPUT, 0));
	t[0].strides[2] = 64;	/* 8-byte rows of 4 bytes */
	t[0].strides[1] = t[0].strides[0] = 256;
	t[0].size = 32;
	memset(&dma, 0, sizeof(dma));
	dma.len = 16;
	dma.src = (struct vpux_lf_ref){ 0, 0, 0, 16 };
	dma.dst = (struct vpux_lf_ref){ 1, 0, 0, 16 };
	dma.count[0] = dma.count[1] = dma.count[2] = 1;
	img.tensors = t;
	img.n_tensors = 2;
	img.dma = &dma;
	img.n_dma = 1;
	if (lf_write_mem(&img, &p, &n))
		abort();
	r = vpuxc_io_read(p, n, &io);
	tap_check(r == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "input 0: tensor 'x' is not dense"),
		  "io: a tensor with strides with gaps refused (%s)",
		  vpux_last_error());
	free(p);
}

static void test_section(void)
{
	struct vpuxc_io_rec r[2], q[2];
	struct vpuxc_ioq_rec qq[2], qb[4];
	struct copy_net c = base();
	struct vpuxc_io_table io;
	struct vpux_lf_sechdr h;
	unsigned char big[2 * 240];
	void *sec;
	uint32_t sz;
	int ret;

	good_recs(r, qq);
	ret = read_recs(&c, r, 2, qq, 2, &io);
	tap_check(!ret && !strcmp(io.inputs[0].name, "in") &&
		  !strcmp(io.outputs[0].name, "out") &&
		  io.inputs[0].onnx_dtype == VPUXC_FLOAT &&
		  io.inputs[0].dev_dtype == VPUXC_UINT8 &&
		  io.inputs[0].axis == -1 && io.inputs[0].qcount == 1 &&
		  io.inputs[0].scales[0] == 0.5 &&
		  io.inputs[0].zero_points[0] == 10 &&
		  io.outputs[0].rank == 2 && io.outputs[0].dims[1] == 4 &&
		  io.outputs[0].dims[2] == 0 && io.outputs[0].scales[0] == 0.25 &&
		  io.outputs[0].zero_points[0] == 3,
		  "io: .vpux.io + .vpux.ioq: ONNX names, float dtype, ONNX dims, the ONNX scale and zero point (%s)",
		  vpux_last_error());
	vpuxc_io_fini(&io);

	/* per axis: the input's axis 2 (4 scales), records 1..4 */
	memcpy(q, r, sizeof(q));
	q[0].axis = 2;
	q[0].qcount = 4;
	q[0].qoffset = 1;
	q[1].qoffset = 0;
	memset(qb, 0, sizeof(qb));
	qb[0] = qq[1];
	qb[1].scale = 1;
	qb[2].scale = 2;
	qb[3].scale = 4;
	ret = read_recs(&c, q, 2, qb, 4, &io);
	tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(),
		  ".vpux.io: record 0: field qoffset: records [1, +4) outside .vpux.ioq (4 records)"),
		  "io: qoffset + qcount beyond .vpux.ioq (%s)", vpux_last_error());
	{
		struct vpuxc_ioq_rec q5[5];

		memset(q5, 0, sizeof(q5));
		memcpy(q5, qb, sizeof(qb));
		q5[4].scale = 8;
		q5[4].zero_point = 255;
		ret = read_recs(&c, q, 2, q5, 5, &io);
		tap_check(!ret && io.inputs[0].axis == 2 &&
			  io.inputs[0].qcount == 4 &&
			  io.inputs[0].scales[3] == 8 &&
			  io.inputs[0].zero_points[3] == 255 &&
			  io.outputs[0].scales[0] == 0.25,
			  "io: a float input quantized along axis 2: 4 scales and zero points (%s)",
			  vpux_last_error());
		vpuxc_io_fini(&io);
	}

	tap_check(!vpuxc_io_section_build(r, 2, &sec, &sz) &&
		  sz == 24 + 2 * 224, "io: section build: header + 2 x 224 bytes");
	memcpy(&h, sec, sizeof(h));
	tap_check(h.magic == VPUX_LF_SEC_MAGIC && h.hdr_size == 24 &&
		  h.rec_size == 224 && h.count == 2 && !h.flags &&
		  h.crc32 == (uint32_t)crc32(0, (unsigned char *)sec + 24, 448),
		  "io: section build: magic, hdr_size, rec_size, count, CRC");
	free(sec);
	tap_check(vpuxc_io_section_build(r, 129, &sec, &sz) == VPUX_E_INVAL &&
		  !sec, "io: section build: 129 records refused (%s)",
		  vpux_last_error());
	tap_check(!vpuxc_ioq_section_build(qq, 2, &sec, &sz) &&
		  sz == 24 + 2 * 16, "io: .vpux.ioq build: header + 2 x 16 bytes");
	free(sec);

	/* larger records (a newer minor): the tail is ignored */
	memset(big, 0, sizeof(big));
	memcpy(big, &r[0], sizeof(r[0]));
	memcpy(big + 240, &r[1], sizeof(r[1]));
	memset(big + 224, 0xa5, 16);
	memset(big + 240 + 224, 0xa5, 16);
	h = (struct vpux_lf_sechdr){ VPUX_LF_SEC_MAGIC, 0, 24, 240, 2, 0, 0 };
	expect_hdr(0, h, big, sizeof(big), 0, 0, "",
		   ".vpux.io records of 240 bytes: the known prefix read");
	memset(big, 0xa5, sizeof(big));
	memcpy(big, &qq[0], 16);
	memcpy(big + 24, &qq[1], 16);
	h = (struct vpux_lf_sechdr){ VPUX_LF_SEC_MAGIC, 0, 24, 24, 2, 0, 0 };
	expect_hdr(1, h, big, 48, 0, 0, "",
		   ".vpux.ioq records of 24 bytes: the known prefix read");

	/* header rules, as lf_read.c checks every .vpux.* section */
	h = (struct vpux_lf_sechdr){ VPUX_LF_SEC_MAGIC, 0, 24, 224, 2, 0, 0 };
	h.magic ^= 1;
	expect_hdr(0, h, r, 448, 0, VPUX_E_FORMAT,
		   ".vpux.io: header field magic 0x53585057", "bad magic");
	h.magic ^= 1;
	h.hdr_size = 16;
	expect_hdr(0, h, r, 448, 0, VPUX_E_FORMAT,
		   ".vpux.io: header field hdr_size 16", "hdr_size below 24");
	h.hdr_size = 28;
	expect_hdr(0, h, r, 448, 0, VPUX_E_FORMAT,
		   ".vpux.io: header field hdr_size 28", "hdr_size not a multiple of 8");
	h.hdr_size = 24;
	h.flags = 2;
	expect_hdr(0, h, r, 448, 0, VPUX_E_FORMAT,
		   ".vpux.io: header field flags not zero", "unknown flag");
	h.flags = 0;
	h.reserved = 1;
	expect_hdr(0, h, r, 448, 0, VPUX_E_FORMAT,
		   ".vpux.io: header field reserved not zero", "reserved");
	h.reserved = 0;
	h.count = 3;
	expect_hdr(0, h, r, 448, 0, VPUX_E_FORMAT,
		   ".vpux.io: count 3 x rec_size 224 != 448 payload bytes",
		   "count x rec_size vs the payload");
	h.count = 2;
	h.crc32 = 1;
	expect_hdr(0, h, r, 448, 1, VPUX_E_CHECKSUM,
		   ".vpux.io: checksum mismatch (header field crc32 0x00000001)",
		   "checksum mismatch");
	h.rec_size = 216;
	expect_hdr(0, h, r, 432, 0, VPUX_E_FORMAT,
		   ".vpux.io: header field rec_size 216 < 224", "rec_size below 224");
	h.rec_size = 224;
	h.count = 1;
	expect_hdr(0, h, r, 224, 0, VPUX_E_FORMAT,
		   ".vpux.io: header field count 1, the network has 1 inputs and 1 outputs",
		   "a record missing");
	h = (struct vpux_lf_sechdr){ VPUX_LF_SEC_MAGIC, 0, 24, 16, 2, 0, 0 };
	h.crc32 = 7;
	expect_hdr(1, h, qq, 32, 1, VPUX_E_CHECKSUM,
		   ".vpux.ioq: checksum mismatch (header field crc32 0x00000007)",
		   ".vpux.ioq checksum mismatch");
	h.rec_size = 8;
	h.count = 4;
	expect_hdr(1, h, qq, 32, 0, VPUX_E_FORMAT,
		   ".vpux.ioq: header field rec_size 8 < 16", ".vpux.ioq rec_size below 16");
	h.rec_size = 16;
	h.count = 2;
	h.magic = 0;
	expect_hdr(1, h, qq, 32, 0, VPUX_E_FORMAT,
		   ".vpux.ioq: header field magic 0x00000000", ".vpux.ioq bad magic");
	{
		struct copy_net cc = base();
		int rr = read_with(&cc, "tiny", 4, NULL, 0, &io);

		tap_check(rr == VPUX_E_FORMAT && strstr(vpux_last_error(),
			  ".vpux.io: not PROGBITS or smaller than its header"),
			  "io: a 4-byte section (%s)", vpux_last_error());
	}
	{
		struct copy_net cc = base();
		struct lf_extra_section ex[2];
		void *p;
		size_t n;

		if (vpuxc_io_section_build(r, 2, &sec, &sz))
			abort();
		ex[0] = (struct lf_extra_section){ VPUXC_IO_SECTION, 0, sec, sz, 0, 1 };
		ex[1] = ex[0];
		cc.extra = ex;
		cc.n_extra = 2;
		if (copy_net_write(&cc, &p, &n))
			abort();
		ret = vpuxc_io_read(p, n, &io);
		tap_check(ret == VPUX_E_FORMAT &&
			  strstr(vpux_last_error(), ".vpux.io: appears twice"),
			  "io: two .vpux.io sections (%s)", vpux_last_error());
		free(p);
		free(sec);
	}

	/* record rules */
	memcpy(q, r, sizeof(q));
	memset(q[1].name, 'a', sizeof(q[1].name));
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field name: not NUL-terminated",
		    "name not NUL-terminated");
	memcpy(q, r, sizeof(q));
	q[0].name[0] = 0;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field name: empty", "empty name");
	memcpy(q, r, sizeof(q));
	q[1].dir = 2;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field dir: 2 (0 input, 1 output)",
		    "bad dir");
	memcpy(q, r, sizeof(q));
	q[0].index = 1;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field index: input 1 does not exist (1 inputs)",
		    "index out of range");
	memcpy(q, r, sizeof(q));
	q[1] = q[0];
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field index: input 0 described twice",
		    "one input twice (the output without a record)");
	memcpy(q, r, sizeof(q));
	q[0].onnx_dtype = 11;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field onnx_dtype: 11 (double) not supported",
		    "unsupported ONNX dtype");
	memcpy(q, r, sizeof(q));
	q[0].rank = 9;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field rank: 9 above 8", "rank 9");
	memcpy(q, r, sizeof(q));
	q[1].dims[5] = 1;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field dims: dims[5] = 1 above rank 2, must be 0",
		    "dims above the rank");
	memcpy(q, r, sizeof(q));
	q[1].dims[0] = 0;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field dims: dims[0] = 0 out of range",
		    "a dim of 0");
	memcpy(q, r, sizeof(q));
	q[1].dims[0] = -1;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field dims: dims[0] = -1 out of range",
		    "a symbolic (-1) dim");
	memcpy(q, r, sizeof(q));
	q[0].rank = 8;
	q[0].dims[0] = q[0].dims[1] = q[0].dims[2] = 1 << 30;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field dims: too many elements",
		    "dims product overflow");
	memcpy(q, r, sizeof(q));
	q[0].reserved = 1;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field reserved: not zero", "reserved");
	memcpy(q, r, sizeof(q));
	q[1].dims[1] = 5;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field dims: 4x5 (20 elements), the output tensor 'y' has 16",
		    "element count differs from the tensor's");
	memcpy(q, r, sizeof(q));
	q[0].onnx_dtype = VPUXC_INT8;
	q[0].qcount = 0;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field onnx_dtype: int8 cannot map to the uint8 device tensor 'x'",
		    "int8 ONNX onto a uint8 tensor");
	memcpy(q, r, sizeof(q));
	q[0].onnx_dtype = VPUXC_INT64;
	q[0].qcount = 0;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    "field onnx_dtype: int64 cannot map to the uint8 device tensor 'x'",
		    "int64 ONNX onto a uint8 tensor");

	/* quantization rules */
	expect_recs(r, 2, NULL, 0, VPUX_E_FORMAT,
		    ".vpux.ioq: missing (record 0 of .vpux.io has qcount 1)",
		    "float records without .vpux.ioq");
	memcpy(q, r, sizeof(q));
	q[0].onnx_dtype = VPUXC_UINT8;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field qcount: 1 for a uint8 input (0: no conversion)",
		    "an integer input with a quantization record");
	memcpy(q, r, sizeof(q));
	q[1].qcount = 0;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field qcount: 0, a float output quantized per tensor needs 1",
		    "a float output without a quantization record");
	memcpy(q, r, sizeof(q));
	q[0].axis = 4;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field axis: 4 (-1 per tensor, or 0..3)",
		    "axis beyond the rank");
	q[0].axis = -2;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field axis: -2", "axis -2");
	q[0].axis = 3;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 0: field qcount: 1, a float input quantized along axis 3 needs 4",
		    "qcount is not the axis' size");
	memcpy(q, r, sizeof(q));
	q[1].qoffset = 2;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT,
		    ".vpux.io: record 1: field qoffset: records [2, +1) outside .vpux.ioq (2 records)",
		    "qoffset beyond .vpux.ioq");
	q[1].qoffset = UINT32_MAX;
	expect_recs(q, 2, qq, 2, VPUX_E_FORMAT, "field qoffset",
		    "qoffset 2^32-1 (no overflow)");
	memcpy(qb, qq, sizeof(qq));
	qb[1].scale = 0;
	expect_recs(r, 2, qb, 2, VPUX_E_FORMAT,
		    ".vpux.ioq: record 1: field scale: 0 (positive and finite)",
		    "scale 0");
	qb[1].scale = NAN;
	expect_recs(r, 2, qb, 2, VPUX_E_FORMAT,
		    ".vpux.ioq: record 1: field scale: nan", "scale NaN");
	qb[1].scale = -INFINITY;
	expect_recs(r, 2, qb, 2, VPUX_E_FORMAT,
		    ".vpux.ioq: record 1: field scale: -inf", "scale -inf");
	memcpy(qb, qq, sizeof(qq));
	qb[0].zero_point = 256;
	expect_recs(r, 2, qb, 2, VPUX_E_FORMAT,
		    ".vpux.ioq: record 0: field zero_point: 256 outside the uint8 range",
		    "zero point outside the device type");
	qb[0].zero_point = -1;
	expect_recs(r, 2, qb, 2, VPUX_E_FORMAT,
		    "field zero_point: -1 outside the uint8 range",
		    "negative zero point for uint8");
	memcpy(qb, qq, sizeof(qq));
	qb[0].reserved = 1;
	expect_recs(r, 2, qb, 2, VPUX_E_FORMAT,
		    ".vpux.ioq: record 0: field reserved: not zero", "ioq reserved");
	{
		struct copy_net cc = base();

		cc.dims[1] = 4;
		cc.dims[2] = 2;
		cc.dims[3] = 2;
		cc.order = 0x1342;
		ret = read_recs(&cc, r, 2, qq, 2, &io);
		tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(),
			  "the input tensor 'x' is not dense in its logical (ONNX) order (dims_order 0x1342)"),
			  "io: with .vpux.io, an NHWC tensor is refused (%s)",
			  vpux_last_error());
		/* int64 ONNX onto int32; int32 onto int32; no .vpux.ioq */
		cc = base();
		cc.dt = VPUX_DT_I32;
		memcpy(q, r, sizeof(q));
		q[0].onnx_dtype = VPUXC_INT64;
		q[1].onnx_dtype = VPUXC_INT32;
		q[0].qcount = q[1].qcount = 0;
		ret = read_recs(&cc, q, 2, NULL, 0, &io);
		tap_check(!ret && io.inputs[0].onnx_dtype == VPUXC_INT64 &&
			  io.inputs[0].dev_dtype == VPUXC_INT32 &&
			  io.outputs[0].onnx_dtype == VPUXC_INT32 &&
			  !io.inputs[0].qcount,
			  "io: int64 ONNX onto an int32 tensor, int32 onto int32, no .vpux.ioq (%s)",
			  vpux_last_error());
		vpuxc_io_fini(&io);
	}
}

static double fscale[8];
static int32_t fzp[8];

/* a float io of 8 elements, one scale */
static struct vpuxc_io fio(int32_t dev, int32_t zp, double scale)
{
	struct vpuxc_io io;

	memset(&io, 0, sizeof(io));
	strcpy(io.name, "t");
	io.onnx_dtype = VPUXC_FLOAT;
	io.dev_dtype = dev;
	io.rank = 1;
	io.dims[0] = 8;
	io.axis = -1;
	io.qcount = 1;
	fscale[0] = scale;
	fzp[0] = zp;
	io.scales = fscale;
	io.zero_points = fzp;
	return io;
}

static struct vpuxc_tensor ftensor(const float *v, unsigned int n)
{
	struct vpuxc_tensor t;

	memset(&t, 0, sizeof(t));
	t.dtype = VPUXC_FLOAT;
	t.rank = 1;
	t.dims[0] = n;
	t.data = (void *)v;
	t.size = 4 * n;
	return t;
}

static void test_convert(void)
{
	/* ties go to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> 0 */
	float x[8] = { 0.25f, 0.75f, 1.25f, -0.25f, 1000, -1000, INFINITY,
		       -INFINITY };
	uint8_t u8[8], want_u8[8] = { 10, 12, 12, 10, 255, 0, 255, 0 };
	int8_t s8[8], want_s8[8] = { 0, 2, 2, 0, 127, -128, 127, -128 };
	int32_t s32[8];
	struct vpuxc_io io = fio(VPUXC_UINT8, 10, 0.5);
	struct vpuxc_tensor t = ftensor(x, 8), o;
	unsigned char buf[64];
	int r, i, ok;

	r = vpuxc_io_to_device(&io, &t, u8, sizeof(u8));
	tap_check(!r && !memcmp(u8, want_u8, 8),
		  "convert: float -> uint8: half to even, + zp, saturated (%d %d %d %d %d %d %d %d) %s",
		  u8[0], u8[1], u8[2], u8[3], u8[4], u8[5], u8[6], u8[7],
		  vpux_last_error());
	io = fio(VPUXC_INT8, 0, 0.5);
	r = vpuxc_io_to_device(&io, &t, s8, sizeof(s8));
	tap_check(!r && !memcmp(s8, want_s8, 8),
		  "convert: float -> int8: half to even, saturated");
	io = fio(VPUXC_INT32, -3, 1e-9);
	r = vpuxc_io_to_device(&io, &t, s32, sizeof(s32));
	tap_check(!r && s32[0] == 249999997 && s32[4] == INT32_MAX &&
		  s32[5] == INT32_MIN && s32[6] == INT32_MAX,
		  "convert: float -> int32: saturated to the int32 range (%d %d)",
		  s32[0], s32[4]);

	io = fio(VPUXC_UINT8, 10, 0.5);
	memset(buf, 0xee, sizeof(buf));
	r = vpuxc_io_to_device(&io, &t, buf, 12);
	tap_check(!r && buf[8] == 0 && buf[11] == 0 && buf[12] == 0xee,
		  "convert: a larger device buffer: the tail zeroed");
	r = vpuxc_io_to_device(&io, &t, buf, 7);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 't': device buffer of 7 bytes, 8 uint8 needs 8"),
		  "convert: device buffer too small (%s)", vpux_last_error());
	x[3] = NAN;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 't': element 3 is NaN"),
		  "convert: NaN refused (%s)", vpux_last_error());
	x[3] = 0;
	t.dims[0] = 4;
	t.rank = 2;
	t.dims[1] = 2;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(!r, "convert: another shape of the same element count");
	t.dims[1] = 3;
	t.size = 48;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 't': 4x3 (12 elements), the network takes 8 (8)"),
		  "convert: element count mismatch (%s)", vpux_last_error());
	t = ftensor(x, 8);
	t.size = 31;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "31 data bytes for 8 float elements"),
		  "convert: tensor size inconsistent (%s)", vpux_last_error());
	t = ftensor(x, 8);
	t.dtype = VPUXC_UINT8;
	t.size = 8;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 't': a uint8 tensor, the network takes float"),
		  "convert: dtype mismatch (%s)", vpux_last_error());
	t = ftensor(x, 8);
	fscale[0] = 0;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "scale 0"),
		  "convert: scale 0 refused (%s)", vpux_last_error());
	io = fio(VPUXC_UINT8, 10, 0.5);
	io.qcount = 0;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 't': float without its quantization (axis -1, 0 scales)"),
		  "convert: float without scales (%s)", vpux_last_error());
	io = fio(VPUXC_UINT8, 10, 0.5);
	io.onnx_dtype = VPUXC_INT8;
	r = vpuxc_io_to_device(&io, &t, u8, 8);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "int8 on the host, uint8 on the device: no conversion"),
		  "convert: int8 host onto a uint8 device tensor (%s)",
		  vpux_last_error());

	/* per axis: dims 2x3, axis 1: scales 1, 2, 4, zero points 0, 1, 2 */
	{
		float y[6] = { 2, 2, 2, 8, 8, 8 };
		uint8_t want[6] = { 2, 2, 2, 8, 5, 4 };

		io = fio(VPUXC_UINT8, 0, 1);
		io.rank = 2;
		io.dims[0] = 2;
		io.dims[1] = 3;
		io.axis = 1;
		io.qcount = 3;
		fscale[1] = 2;
		fscale[2] = 4;
		fzp[1] = 1;
		fzp[2] = 2;
		t = ftensor(y, 6);
		r = vpuxc_io_to_device(&io, &t, u8, 6);
		tap_check(!r && !memcmp(u8, want, 6),
			  "convert: per axis: each element with its axis index's scale and zero point (%s)",
			  vpux_last_error());
		r = vpuxc_io_from_device(&io, want, 6, &o);
		tap_check(!r && ((float *)o.data)[4] == 8 &&
			  ((float *)o.data)[5] == 8 && ((float *)o.data)[2] == 0,
			  "convert: per axis back to float");
		vpuxc_tensor_fini(&o);
		io.axis = 0;
		r = vpuxc_io_to_device(&io, &t, u8, 6);
		tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
			  "float without its quantization (axis 0, 3 scales)"),
			  "convert: qcount not the axis' size (%s)",
			  vpux_last_error());
		t = ftensor(x, 8);
	}

	/* dequantise: (q - zp) * scale */
	io = fio(VPUXC_UINT8, 10, 0.5);
	r = vpuxc_io_from_device(&io, want_u8, 8, &o);
	ok = !r && o.dtype == VPUXC_FLOAT && o.size == 32 && o.rank == 1 &&
	     !strcmp(o.name, "t");
	for (i = 0; ok && i < 8; i++)
		ok = ((float *)o.data)[i] == (float)((want_u8[i] - 10) * 0.5);
	tap_check(ok, "convert: uint8 -> float: (q - zp) * scale");
	vpuxc_tensor_fini(&o);
	io = fio(VPUXC_INT8, -1, 0.25);
	r = vpuxc_io_from_device(&io, want_s8, 8, &o);
	tap_check(!r && ((float *)o.data)[4] == 32.0f &&
		  ((float *)o.data)[5] == -31.75f, "convert: int8 -> float");
	vpuxc_tensor_fini(&o);
	r = vpuxc_io_from_device(&io, want_s8, 7, &o);
	tap_check(r == VPUX_E_INVAL && !o.data && strstr(vpux_last_error(),
		  "output 't': device buffer of 7 bytes"),
		  "convert: output buffer too small (%s)", vpux_last_error());

	/* integers: copied; int64 <-> int32 with a range check */
	{
		int64_t v[3] = { -5, INT32_MAX, INT32_MIN };
		int32_t d[3];
		struct vpuxc_tensor ti;
		struct vpuxc_io ii;

		memset(&ii, 0, sizeof(ii));
		strcpy(ii.name, "n");
		ii.onnx_dtype = VPUXC_INT64;
		ii.dev_dtype = VPUXC_INT32;
		ii.rank = 1;
		ii.dims[0] = 3;
		memset(&ti, 0, sizeof(ti));
		ti.dtype = VPUXC_INT64;
		ti.rank = 1;
		ti.dims[0] = 3;
		ti.data = v;
		ti.size = sizeof(v);
		r = vpuxc_io_to_device(&ii, &ti, d, sizeof(d));
		tap_check(!r && d[0] == -5 && d[1] == INT32_MAX && d[2] == INT32_MIN,
			  "convert: int64 -> int32 in range");
		r = vpuxc_io_from_device(&ii, d, sizeof(d), &o);
		tap_check(!r && o.dtype == VPUXC_INT64 && o.size == 24 &&
			  !memcmp(o.data, v, 24),
			  "convert: int32 -> int64 sign-extended");
		vpuxc_tensor_fini(&o);
		v[1] = (int64_t)INT32_MAX + 1;
		r = vpuxc_io_to_device(&ii, &ti, d, sizeof(d));
		tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
			  "input 'n': element 1 = 2147483648 out of the int32 range"),
			  "convert: int64 beyond int32 refused (%s)",
			  vpux_last_error());
		v[1] = (int64_t)INT32_MIN - 1;
		r = vpuxc_io_to_device(&ii, &ti, d, sizeof(d));
		tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
			  "element 1 = -2147483649 out of the int32 range"),
			  "convert: int64 below int32 refused");

		ii.onnx_dtype = VPUXC_UINT8;
		ii.dev_dtype = VPUXC_UINT8;
		ti.dtype = VPUXC_UINT8;
		ti.size = 3;
		ti.data = "\x01\x02\xff";
		r = vpuxc_io_to_device(&ii, &ti, buf, 3);
		tap_check(!r && !memcmp(buf, "\x01\x02\xff", 3),
			  "convert: uint8 copied as it is");
		r = vpuxc_io_from_device(&ii, buf, 3, &o);
		tap_check(!r && o.dtype == VPUXC_UINT8 && o.size == 3 &&
			  !memcmp(o.data, "\x01\x02\xff", 3),
			  "convert: uint8 back as it is");
		vpuxc_tensor_fini(&o);
		ti.dims[0] = 2;
		ti.size = 2;
		r = vpuxc_io_to_device(&ii, &ti, buf, 3);
		tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
			  "input 'n': 2 (2 elements), the network takes 3 (3)"),
			  "convert: integer element count mismatch (%s)",
			  vpux_last_error());
	}
}

/* the section's table drives a real run: float in, float out */
static void test_run(void)
{
	struct vpuxc_io_rec r[2];
	struct vpuxc_ioq_rec qq[2];
	struct copy_net c = base();
	struct vpuxc_io_table io;
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *ib = NULL, *ob = NULL;
	struct lf_extra_section ex[2];
	struct vpuxc_tensor in, out;
	struct vpux_tensor_desc d;
	float x[16], want;
	void *p, *sec, *qsec;
	uint32_t ssz, qsz;
	size_t n;
	int ret, i, ok;

	for (i = 0; i < 16; i++)
		x[i] = (float)i * 0.75f - 2.0f;
	good_recs(r, qq);
	if (vpuxc_io_section_build(r, 2, &sec, &ssz) ||
	    vpuxc_ioq_section_build(qq, 2, &qsec, &qsz))
		abort();
	ex[0] = (struct lf_extra_section){ VPUXC_IO_SECTION, 0, sec, ssz, 0, 1 };
	ex[1] = (struct lf_extra_section){ VPUXC_IOQ_SECTION, 0, qsec, qsz, 0, 1 };
	c.extra = ex;
	c.n_extra = 2;
	if (copy_net_write(&c, &p, &n))
		abort();
	free(sec);
	free(qsec);
	ret = vpuxc_io_read(p, n, &io);
	ret = ret ? ret : vpux_device_open("inproc", &dev);
	ret = ret ? ret : vpux_network_load(dev, p, n, &net);
	ret = ret ? ret : vpux_request_create(net, &req);
	ret = ret ? ret : vpux_network_input(net, 0, &d);
	ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &ib);
	ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &ob);
	in = ftensor(x, 16);
	ret = ret ? ret : vpuxc_io_to_device(&io.inputs[0], &in,
					     vpux_buffer_map(ib), d.size);
	ret = ret ? ret : vpux_request_bind_input(req, 0, ib, 0);
	ret = ret ? ret : vpux_request_bind_output(req, 0, ob, 0);
	ret = ret ? ret : vpux_request_submit(req);
	ret = ret ? ret : vpux_request_wait(req, 10000);
	memset(&out, 0, sizeof(out));
	ret = ret ? ret : vpuxc_io_from_device(&io.outputs[0],
					       vpux_buffer_map(ob), d.size,
					       &out);
	ok = !ret && out.rank == 2 && !strcmp(out.name, "out");
	for (i = 0; ok && i < 16; i++) {
		double q = rint(x[i] / 0.5) + 10;

		q = q < 0 ? 0 : q > 255 ? 255 : q;
		want = (float)((q - 3) * 0.25);
		ok = ((float *)out.data)[i] == want;
	}
	tap_check(ok, "run in-process: quantised in (0.5, 10), copied, dequantised out (0.25, 3) (%s)",
		  ret ? vpux_last_error() : "ok");
	vpuxc_tensor_fini(&out);
	if (req)
		vpux_request_destroy(req);
	if (ib)
		vpux_buffer_free(ib);
	if (ob)
		vpux_buffer_free(ob);
	if (net)
		vpux_network_unload(net);
	if (dev)
		vpux_device_close(dev);
	vpuxc_io_fini(&io);
	free(p);
}

/*
 * Float device tensors (loadable 1.3): no quantization in .vpux.io (each
 * rule with its message), float to f16 rounded to nearest even and back
 * exactly, f32 as it is.
 */
static void test_float(void)
{
	static const int64_t d2[2] = { 4, 4 };
	/* 1 + 2^-11 is a tie: to even, 1; 65520 rounds to inf; 3e-8 to 2^-24 */
	static const float x[8] = { 1.5f, -0.0f, 1.00048828125f, 65520.0f,
				    0.1f, 3e-8f, 1e-8f, -INFINITY };
	static const uint16_t want[8] = { 0x3e00, 0x8000, 0x3c00, 0x7c00,
					  0x2e66, 0x0001, 0x0000, 0xfc00 };
	static const uint16_t h[4] = { 0x3c00, 0x0001, 0xfc00, 0x7e00 };
	struct copy_net c = base();
	struct vpuxc_io_rec r[2];
	struct vpuxc_ioq_rec q[2];
	struct vpuxc_io_table io;
	struct vpuxc_tensor t, o;
	struct vpuxc_io fi;
	uint16_t dev[8];
	float back[8];
	int ret, ok;

	c.dt = VPUX_DT_F16;
	c.zp = c.mult = c.shift = 0;
	ret = read_with(&c, NULL, 0, NULL, 0, &io);
	tap_check(!ret && io.inputs[0].dev_dtype == 10 &&
		  io.inputs[0].onnx_dtype == VPUXC_FLOAT &&
		  !io.inputs[0].qcount && io.inputs[0].axis == -1,
		  "io float: an f16 tensor without .vpux.io is float on the host, not quantized (%s)",
		  vpux_last_error());
	if (!ret)
		vpuxc_io_fini(&io);
	r[0] = io_rec("in", VPUXC_IO_INPUT, 0, VPUXC_FLOAT, 4, d4);
	r[1] = io_rec("out", VPUXC_IO_OUTPUT, 0, VPUXC_FLOAT, 2, d2);
	r[0].qcount = r[1].qcount = 0;
	ret = read_recs(&c, r, 2, NULL, 0, &io);
	tap_check(!ret && io.outputs[0].dev_dtype == 10 &&
		  io.outputs[0].rank == 2 && !strcmp(io.outputs[0].name, "out"),
		  "io float: .vpux.io float records with qcount 0 on f16 tensors (%s)",
		  vpux_last_error());
	if (!ret)
		vpuxc_io_fini(&io);
	r[0].qcount = 1;
	memset(q, 0, sizeof(q));
	q[0].scale = 0.5;
	ret = read_recs(&c, r, 2, q, 1, &io);
	tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(),
		  ".vpux.io: record 0: field qcount: 1, the f16 device tensor of input 'in' is not quantized (0)"),
		  "io float: a scale for an f16 tensor refused (%s)",
		  vpux_last_error());
	r[0].qcount = 0;
	r[1].axis = 1;
	ret = read_recs(&c, r, 2, NULL, 0, &io);
	tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(),
		  ".vpux.io: record 1: field axis: 1, the f16 device tensor of output 'out' is not quantized (-1)"),
		  "io float: a quantization axis for an f16 tensor refused (%s)",
		  vpux_last_error());
	r[1].axis = -1;
	r[0].onnx_dtype = VPUXC_UINT8;
	ret = read_recs(&c, r, 2, NULL, 0, &io);
	tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(),
		  "field onnx_dtype: uint8 cannot map to the f16 device tensor 'x'"),
		  "io float: a uint8 ONNX input onto an f16 tensor refused (%s)",
		  vpux_last_error());

	/* the conversions */
	fi = fio(10, 0, 1);
	fi.qcount = 0;
	fi.scales = NULL;
	fi.zero_points = NULL;
	t = ftensor(x, 8);
	ret = vpuxc_io_to_device(&fi, &t, dev, sizeof(dev));
	tap_check(!ret && !memcmp(dev, want, sizeof(want)),
		  "convert: float -> f16 to nearest even, inf and 0 past the range (%04x %04x %04x %04x %04x %04x %04x %04x)",
		  dev[0], dev[1], dev[2], dev[3], dev[4], dev[5], dev[6],
		  dev[7]);
	fi.dims[0] = 4;
	ret = vpuxc_io_from_device(&fi, h, sizeof(h), &o);
	ok = !ret && o.dtype == VPUXC_FLOAT && o.size == 16;
	if (ok) {
		memcpy(back, o.data, 16);
		ok = back[0] == 1.0f && back[1] == 0x1p-24f &&
		     back[2] == -INFINITY && isnan(back[3]);
	}
	tap_check(ok, "convert: f16 -> float exactly (1, 2^-24, -inf, nan) (%s)",
		  ret ? vpux_last_error() : "ok");
	if (!ret)
		vpuxc_tensor_fini(&o);
	fi.qcount = 1;
	ret = vpuxc_io_to_device(&fi, &t, dev, sizeof(dev));
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "input 't': a quantization (axis -1, 1 scales) for the f16 device tensor"),
		  "convert: a quantized f16 entry refused (%s)", vpux_last_error());
	fi = fio(VPUXC_FLOAT, 0, 1);
	fi.qcount = 0;
	ret = vpuxc_io_to_device(&fi, &t, back, sizeof(back));
	tap_check(!ret && !memcmp(back, x, sizeof(x)),
		  "convert: float -> f32 as it is");
	ret = vpuxc_io_from_device(&fi, x, sizeof(x), &o);
	tap_check(!ret && o.size == 32 && !memcmp(o.data, x, 32),
		  "convert: f32 -> float as it is");
	if (!ret)
		vpuxc_tensor_fini(&o);
}

int main(void)
{
	test_derived();
	test_not_dense();
	test_section();
	test_convert();
	test_run();
	test_float();
	return tap_finish();
}
