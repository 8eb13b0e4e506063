// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The tensor file readers: one test per validation rule of the .pb
 * (TensorProto) and .npy readers, each with the code and the text the
 * message must hold; good files round-trip; every truncation of a good
 * file is refused without a crash. Files are built in memory (protobuf-c
 * packs the TensorProto messages) and written to a temporary directory.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "onnx.pb-c.h"
#include "vpux.h"
#include "vpux_compiler.h"
#include "vpux_tap.h"

static char dir[64];

static const char *tmp(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void put(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

/* @tp packed (malloc'ed) */
static unsigned char *pack(const Onnx__TensorProto *tp, size_t *n)
{
	unsigned char *p;

	*n = onnx__tensor_proto__get_packed_size(tp);
	p = malloc(*n ? *n : 1);
	if (!p)
		abort();
	onnx__tensor_proto__pack(tp, p);
	return p;
}

/* parse @tp's bytes: expect @code and @what in the message */
static void expect_tp(const Onnx__TensorProto *tp, int code, const char *what,
		      const char *name)
{
	struct vpuxc_tensor t;
	size_t n;
	unsigned char *p = pack(tp, &n);
	int r = vpuxc_tensor_parse_pb(p, n, &t);

	tap_check(r == code && strstr(vpux_last_error(), what) &&
		  (r || t.data) && (!r || !t.data),
		  "pb: %s: %d (%s)", name, r, r ? vpux_last_error() : "ok");
	if (!r)
		vpuxc_tensor_fini(&t);
	free(p);
}

static void expect_file(int (*rd)(const char *, struct vpuxc_tensor *),
			const char *path, int code, const char *what,
			const char *name)
{
	struct vpuxc_tensor t;
	int r = rd(path, &t);

	tap_check(r == code && strstr(vpux_last_error(), what) &&
		  (r || t.data) && (!r || !t.data),
		  "%s: %d (%s)", name, r, r ? vpux_last_error() : "ok");
	if (!r)
		vpuxc_tensor_fini(&t);
}

static void test_dtypes(void)
{
	struct vpuxc_tensor t;

	tap_check(vpuxc_dtype_size(VPUXC_FLOAT) == 4 &&
		  vpuxc_dtype_size(VPUXC_UINT8) == 1 &&
		  vpuxc_dtype_size(VPUXC_INT8) == 1 &&
		  vpuxc_dtype_size(VPUXC_INT32) == 4 &&
		  vpuxc_dtype_size(VPUXC_INT64) == 8 &&
		  vpuxc_dtype_size(11) == 0 && vpuxc_dtype_size(0) == 0,
		  "dtype sizes: float 4, u8/i8 1, i32 4, i64 8, others 0");
	tap_check(!strcmp(vpuxc_dtype_name(VPUXC_UINT8), "uint8") &&
		  !strcmp(vpuxc_dtype_name(11), "double") &&
		  !strcmp(vpuxc_dtype_name(99), "unknown"),
		  "dtype names");
	memset(&t, 0, sizeof(t));
	tap_check(vpuxc_tensor_count(&t) == 1, "a scalar has 1 element");
	t.rank = 3;
	t.dims[0] = 2;
	t.dims[1] = 0;
	t.dims[2] = 5;
	tap_check(vpuxc_tensor_count(&t) == 0, "a 0 dim: no elements");
	vpuxc_tensor_fini(&t);
	vpuxc_tensor_fini(NULL);
}

static void test_pb_good(void)
{
	Onnx__TensorProto tp = ONNX__TENSOR_PROTO__INIT;
	int64_t dims[3] = { 1, 2, 2 };
	float f[4] = { 1.5f, -2.0f, 0.25f, 1e9f };
	int32_t i32[4] = { 0, 255, 7, 128 };
	int32_t s8[4] = { -128, 127, 0, -1 };
	int64_t i64[4] = { INT64_MIN, -1, 0, INT64_MAX };
	struct vpuxc_tensor t, u;
	unsigned char *p;
	size_t n;
	int r;

	tp.n_dims = 3;
	tp.dims = dims;
	tp.has_data_type = 1;
	tp.data_type = VPUXC_FLOAT;
	tp.name = "x";
	tp.has_raw_data = 1;
	tp.raw_data.data = (uint8_t *)f;
	tp.raw_data.len = sizeof(f);
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && !strcmp(t.name, "x") && t.dtype == VPUXC_FLOAT &&
		  t.rank == 3 && t.dims[2] == 2 && t.size == 16 &&
		  !memcmp(t.data, f, 16),
		  "pb: float raw_data: name, dtype, dims, bytes (%s)",
		  vpux_last_error());
	/* every proper prefix is refused, none crashes */
	{
		size_t k, bad = 0;

		for (k = 0; k < n; k++) {
			struct vpuxc_tensor v;

			if (!vpuxc_tensor_parse_pb(p, k, &v)) {
				bad++;
				vpuxc_tensor_fini(&v);
			}
		}
		tap_check(!bad, "pb: each of the %zu truncations refused (%zu accepted)",
			  n, bad);
	}
	free(p);

	r = vpuxc_tensor_write_pb(tmp("w.pb"), &t);
	tap_check(!r, "pb: write (%s)", vpux_last_error());
	r = vpuxc_tensor_read_pb(tmp("w.pb"), &u);
	tap_check(!r && !strcmp(u.name, "x") && u.dtype == t.dtype &&
		  u.rank == 3 && u.dims[1] == 2 && u.size == t.size &&
		  !memcmp(u.data, t.data, t.size),
		  "pb: written file reads back the same tensor (%s)",
		  vpux_last_error());
	vpuxc_tensor_fini(&u);
	vpuxc_tensor_fini(&t);

	tp.has_raw_data = 0;
	tp.n_float_data = 4;
	tp.float_data = f;
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && t.size == 16 && !memcmp(t.data, f, 16),
		  "pb: float_data");
	vpuxc_tensor_fini(&t);
	free(p);

	tp.n_float_data = 0;
	tp.data_type = VPUXC_UINT8;
	tp.n_int32_data = 4;
	tp.int32_data = i32;
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && t.size == 4 && ((uint8_t *)t.data)[1] == 255 &&
		  ((uint8_t *)t.data)[3] == 128, "pb: uint8 in int32_data");
	vpuxc_tensor_fini(&t);
	free(p);

	tp.data_type = VPUXC_INT8;
	tp.int32_data = s8;
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && t.size == 4 && ((int8_t *)t.data)[0] == -128 &&
		  ((int8_t *)t.data)[3] == -1, "pb: int8 in int32_data");
	vpuxc_tensor_fini(&t);
	free(p);

	tp.data_type = VPUXC_INT32;
	tp.int32_data = i32;
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && t.size == 16 && !memcmp(t.data, i32, 16),
		  "pb: int32 in int32_data");
	vpuxc_tensor_fini(&t);
	free(p);

	tp.n_int32_data = 0;
	tp.data_type = VPUXC_INT64;
	tp.n_int64_data = 4;
	tp.int64_data = i64;
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && t.size == 32 && !memcmp(t.data, i64, 32),
		  "pb: int64_data");
	vpuxc_tensor_fini(&t);
	free(p);

	/* a scalar: no dims, one element */
	tp.n_dims = 0;
	tp.n_int64_data = 1;
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && t.rank == 0 && t.size == 8 &&
		  *(int64_t *)t.data == INT64_MIN, "pb: a scalar");
	vpuxc_tensor_fini(&t);
	free(p);

	/* no elements, no data */
	dims[0] = 0;
	tp.n_dims = 3;
	tp.n_int64_data = 0;
	p = pack(&tp, &n);
	r = vpuxc_tensor_parse_pb(p, n, &t);
	tap_check(!r && t.size == 0 && t.dims[0] == 0,
		  "pb: an empty tensor (dim 0) without data");
	vpuxc_tensor_fini(&t);
	free(p);

	r = vpuxc_tensor_read_pb("/usr/share/libonnx-testdata/data/node/test_maxpool_2d_uint8/test_data_set_0/input_0.pb",
				 &t);
	if (r == VPUX_E_IO) {
		tap_skip("libonnx-testdata not installed");
	} else {
		tap_check(!r && t.dtype == VPUXC_UINT8 && t.rank == 4 &&
			  t.dims[2] == 5 && t.dims[3] == 5 && t.size == 25,
			  "pb: the ONNX node test's input (uint8 1x1x5x5): %s",
			  vpux_last_error());
		vpuxc_tensor_fini(&t);
	}
}

static void test_pb_bad(void)
{
	Onnx__TensorProto tp = ONNX__TENSOR_PROTO__INIT, tq;
	Onnx__TensorProto__Segment seg = ONNX__TENSOR_PROTO__SEGMENT__INIT;
	Onnx__StringStringEntryProto loc = ONNX__STRING_STRING_ENTRY_PROTO__INIT;
	Onnx__StringStringEntryProto *locs[1] = { &loc };
	int64_t dims[9] = { 1, 2, 2, 1, 1, 1, 1, 1, 1 };
	uint8_t raw[4] = { 1, 2, 3, 4 };
	float f[4] = { 0 };
	int32_t i32[4] = { 0, 300, 0, 0 };
	int64_t i64[4] = { 0 };
	double d[4] = { 0 };
	char longname[200];
	struct vpuxc_tensor t;
	int r;

	tp.n_dims = 3;
	tp.dims = dims;
	tp.has_data_type = 1;
	tp.data_type = VPUXC_UINT8;
	tp.has_raw_data = 1;
	tp.raw_data.data = raw;
	tp.raw_data.len = 4;
	expect_tp(&tp, 0, "", "the base tensor is good");

	r = vpuxc_tensor_parse_pb("\xff\xff\xff\xff", 4, &t);
	tap_check(r == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "TensorProto: not a TensorProto"),
		  "pb: garbage refused (%s)", vpux_last_error());

	tq = tp;
	tq.has_data_type = 0;
	expect_tp(&tq, VPUX_E_FORMAT, "TensorProto: no data_type", "no data_type");
	tq = tp;
	tq.data_type = 11;
	expect_tp(&tq, VPUX_E_UNSUPPORTED, "unsupported dtype 11 (double)",
		  "unsupported dtype");
	tq = tp;
	tq.data_type = 9;	/* a model's constants only */
	expect_tp(&tq, VPUX_E_UNSUPPORTED,
		  "unsupported dtype 9 (bool); float, uint8, int8, int32 and int64 are",
		  "bool tensor file");
	tq = tp;
	tq.data_type = 0;
	expect_tp(&tq, VPUX_E_UNSUPPORTED, "unsupported dtype 0 (unknown)",
		  "dtype 0 (UNDEFINED)");
	tq = tp;
	tq.n_dims = 9;
	expect_tp(&tq, VPUX_E_UNSUPPORTED, "rank 9 above 8", "rank 9");
	tq = tp;
	dims[1] = -2;
	expect_tp(&tq, VPUX_E_FORMAT, "dim 1 is -2 (negative)", "negative dim");
	dims[1] = 1ll << 40;
	dims[2] = 1ll << 40;
	expect_tp(&tq, VPUX_E_FORMAT, "dims product overflows",
		  "dims product overflow (2^40 x 2^40)");
	dims[1] = 1ll << 62;
	dims[2] = 2;
	tq.data_type = VPUXC_INT64;
	expect_tp(&tq, VPUX_E_FORMAT, "dims product overflows (",
		  "byte size overflow (2^63 int64 elements)");
	dims[1] = 2;
	dims[2] = 2;
	tq = tp;
	tq.raw_data.len = 3;
	expect_tp(&tq, VPUX_E_FORMAT,
		  "data size mismatch: raw_data has 3 bytes, dims need 4",
		  "raw_data too short");
	tq.data_type = VPUXC_FLOAT;
	tq.raw_data.len = 4;
	expect_tp(&tq, VPUX_E_FORMAT,
		  "data size mismatch: raw_data has 4 bytes, dims need 16",
		  "raw_data too short for float");
	tq = tp;
	tq.has_raw_data = 0;
	expect_tp(&tq, VPUX_E_FORMAT, "no data (dims need 4 elements)",
		  "no data");
	tq.data_type = VPUXC_FLOAT;
	tq.n_float_data = 3;
	tq.float_data = f;
	expect_tp(&tq, VPUX_E_FORMAT,
		  "float_data has 3 elements, dims need 4", "float_data count");
	tq.data_type = VPUXC_UINT8;
	tq.n_float_data = 4;
	expect_tp(&tq, VPUX_E_FORMAT, "field float_data given for a uint8 tensor",
		  "float_data for uint8");
	tq.n_float_data = 0;
	tq.n_int32_data = 4;
	tq.int32_data = i32;
	expect_tp(&tq, VPUX_E_FORMAT, "int32_data[1] = 300 out of range for uint8",
		  "uint8 value out of range");
	i32[1] = -129;
	tq.data_type = VPUXC_INT8;
	expect_tp(&tq, VPUX_E_FORMAT, "int32_data[1] = -129 out of range for int8",
		  "int8 value out of range");
	i32[1] = 0;
	tq.n_int32_data = 5;
	expect_tp(&tq, VPUX_E_FORMAT, "int32_data has 5 elements, dims need 4",
		  "int32_data count");
	tq.n_int32_data = 4;
	tq.data_type = VPUXC_FLOAT;
	expect_tp(&tq, VPUX_E_FORMAT, "field int32_data given for a float tensor",
		  "int32_data for float");
	tq.n_int32_data = 0;
	tq.n_int64_data = 4;
	tq.int64_data = i64;
	tq.data_type = VPUXC_INT32;
	expect_tp(&tq, VPUX_E_FORMAT, "field int64_data given for a int32 tensor",
		  "int64_data for int32");
	tq.data_type = VPUXC_INT64;
	tq.n_int64_data = 2;
	expect_tp(&tq, VPUX_E_FORMAT, "int64_data has 2 elements, dims need 4",
		  "int64_data count");
	tq = tp;
	tq.n_float_data = 4;
	tq.float_data = f;
	expect_tp(&tq, VPUX_E_FORMAT, "elements in more than one field",
		  "raw_data and float_data both set");
	tq = tp;
	tq.n_double_data = 4;
	tq.double_data = d;
	expect_tp(&tq, VPUX_E_FORMAT, "field double_data given for a uint8 tensor",
		  "double_data");
	tq = tp;
	tq.has_raw_data = 0;
	tq.has_data_location = 1;
	tq.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
	loc.key = "location";
	loc.value = "weights.bin";
	tq.n_external_data = 1;
	tq.external_data = locs;
	expect_tp(&tq, VPUX_E_UNSUPPORTED,
		  "external data (data_location EXTERNAL, location weights.bin) not supported",
		  "external data refused");
	tq.n_external_data = 0;
	expect_tp(&tq, VPUX_E_UNSUPPORTED, "external data",
		  "data_location EXTERNAL without entries refused");
	tq = tp;
	tq.segment = &seg;
	expect_tp(&tq, VPUX_E_UNSUPPORTED, "segmented tensor not supported",
		  "segment");
	tq = tp;
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	tq.name = longname;
	expect_tp(&tq, VPUX_E_UNSUPPORTED, "name of 199 bytes, longer than 127",
		  "name too long");

	/* the file reader names the file */
	{
		size_t n;
		unsigned char *p;

		tq = tp;
		tq.raw_data.len = 2;
		p = pack(&tq, &n);
		put(tmp("short.pb"), p, n);
		free(p);
		expect_file(vpuxc_tensor_read_pb, tmp("short.pb"), VPUX_E_FORMAT,
			    "short.pb: data size mismatch",
			    "pb file: the message names the file");
		p = pack(&tp, &n);
		put(tmp("trunc.pb"), p, n - 2);
		free(p);
		expect_file(vpuxc_tensor_read_pb, tmp("trunc.pb"), VPUX_E_FORMAT,
			    "trunc.pb: not a TensorProto",
			    "pb file: a truncated file");
	}
	expect_file(vpuxc_tensor_read_pb, tmp("nonexistent.pb"), VPUX_E_IO,
		    "nonexistent.pb: cannot open", "pb file: missing file");
	expect_file(vpuxc_tensor_read_pb, dir, VPUX_E_IO, dir,
		    "pb file: a directory");
}

static void test_pb_write_bad(void)
{
	struct vpuxc_tensor t;
	uint8_t b[4] = { 0 };
	int r;

	memset(&t, 0, sizeof(t));
	t.dtype = VPUXC_UINT8;
	t.rank = 1;
	t.dims[0] = 4;
	t.data = b;
	t.size = 4;
	r = vpuxc_tensor_write_pb("/nonexistent-dir/x.pb", &t);
	tap_check(r == VPUX_E_IO && strstr(vpux_last_error(),
		  "/nonexistent-dir/x.pb: cannot create"),
		  "pb write: uncreatable file (%s)", vpux_last_error());
	t.size = 3;
	r = vpuxc_tensor_write_pb(tmp("x.pb"), &t);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "data size mismatch: 3 bytes, dims need 4"),
		  "pb write: size does not match the dims (%s)",
		  vpux_last_error());
	t.size = 4;
	t.dtype = 11;
	r = vpuxc_tensor_write_pb(tmp("x.pb"), &t);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(),
		  "unsupported dtype 11"),
		  "pb write: unsupported dtype (%s)", vpux_last_error());
	t.dtype = VPUXC_UINT8;
	t.rank = 9;
	r = vpuxc_tensor_write_pb(tmp("x.pb"), &t);
	tap_check(r == VPUX_E_INVAL && strstr(vpux_last_error(), "rank 9"),
		  "pb write: rank 9 (%s)", vpux_last_error());
}

/* a .npy file: magic, version, header (padded as numpy does), data */
static void npy(const char *name, int major, const char *hdr,
		const void *data, size_t n)
{
	unsigned char buf[4096];
	size_t pre = major == 1 ? 10 : 12, hl = strlen(hdr), pad, tot;

	pad = (64 - (pre + hl + 1) % 64) % 64;
	tot = hl + pad + 1;
	memcpy(buf, "\x93NUMPY", 6);
	buf[6] = (unsigned char)major;
	buf[7] = 0;
	buf[8] = (unsigned char)tot;
	buf[9] = (unsigned char)(tot >> 8);
	if (major != 1) {
		buf[10] = (unsigned char)(tot >> 16);
		buf[11] = (unsigned char)(tot >> 24);
	}
	memcpy(buf + pre, hdr, hl);
	memset(buf + pre + hl, ' ', pad);
	buf[pre + hl + pad] = '\n';
	if (n)
		memcpy(buf + pre + tot, data, n);
	put(tmp(name), buf, pre + tot + n);
}

static void test_npy(void)
{
	float f[6] = { 1, 2, 3, 4, 5, -6.5f };
	int64_t i64[2] = { -5, 1ll << 40 };
	int32_t i32[3] = { -1, 2, 3 };
	uint8_t u8[5] = { 0, 1, 2, 254, 255 };
	struct vpuxc_tensor t;
	int r;

	npy("f.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
	    f, sizeof(f));
	r = vpuxc_tensor_read_npy(tmp("f.npy"), &t);
	tap_check(!r && t.dtype == VPUXC_FLOAT && t.rank == 2 &&
		  t.dims[0] == 2 && t.dims[1] == 3 && t.size == 24 &&
		  !memcmp(t.data, f, 24) && !t.name[0],
		  "npy: v1 <f4 (2, 3) (%s)", vpux_last_error());
	vpuxc_tensor_fini(&t);
	npy("u.npy", 2, "{\"shape\": (5,), \"fortran_order\": False, \"descr\": \"|u1\"}",
	    u8, sizeof(u8));
	r = vpuxc_tensor_read_npy(tmp("u.npy"), &t);
	tap_check(!r && t.dtype == VPUXC_UINT8 && t.rank == 1 &&
		  t.dims[0] == 5 && !memcmp(t.data, u8, 5),
		  "npy: v2, keys in another order, double quotes, |u1 (5,) (%s)",
		  vpux_last_error());
	vpuxc_tensor_fini(&t);
	npy("i8.npy", 1, "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 5), }",
	    u8, sizeof(u8));
	r = vpuxc_tensor_read_npy(tmp("i8.npy"), &t);
	tap_check(!r && t.dtype == VPUXC_INT8 && ((int8_t *)t.data)[4] == -1,
		  "npy: |i1");
	vpuxc_tensor_fini(&t);
	npy("i32.npy", 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3L,), }",
	    i32, sizeof(i32));
	r = vpuxc_tensor_read_npy(tmp("i32.npy"), &t);
	tap_check(!r && t.dtype == VPUXC_INT32 && !memcmp(t.data, i32, 12),
		  "npy: <i4, Python 2's 3L");
	vpuxc_tensor_fini(&t);
	npy("i64.npy", 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }",
	    i64, 8);
	r = vpuxc_tensor_read_npy(tmp("i64.npy"), &t);
	tap_check(!r && t.dtype == VPUXC_INT64 && t.rank == 0 &&
		  *(int64_t *)t.data == -5, "npy: <i8 scalar, shape ()");
	vpuxc_tensor_fini(&t);
	npy("e.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }",
	    NULL, 0);
	r = vpuxc_tensor_read_npy(tmp("e.npy"), &t);
	tap_check(!r && t.size == 0 && t.dims[0] == 0, "npy: empty (0, 3)");
	vpuxc_tensor_fini(&t);

	/* every truncation of a good file refused */
	{
		FILE *g = fopen(tmp("f.npy"), "rb");
		unsigned char b[512];
		size_t n = g ? fread(b, 1, sizeof(b), g) : 0, k, bad = 0;

		if (g)
			fclose(g);
		for (k = 0; k < n; k++) {
			put(tmp("cut.npy"), b, k);
			if (!vpuxc_tensor_read_npy(tmp("cut.npy"), &t)) {
				bad++;
				vpuxc_tensor_fini(&t);
			}
		}
		tap_check(n > 64 && !bad,
			  "npy: each of the %zu truncations refused (%zu accepted)",
			  n, bad);
	}

#define BAD(hdr, code, what, name) do { \
	npy("bad.npy", 1, hdr, f, sizeof(f)); \
	expect_file(vpuxc_tensor_read_npy, tmp("bad.npy"), code, what, \
		    "npy: " name); \
} while (0)
	put(tmp("bad.npy"), "\x93NUMPZ\1\0\0\0xxxxxxxx", 16);
	expect_file(vpuxc_tensor_read_npy, tmp("bad.npy"), VPUX_E_FORMAT,
		    "bad.npy: not a .npy file (bad magic)", "npy: bad magic");
	put(tmp("bad.npy"), "\x93NUMP", 5);
	expect_file(vpuxc_tensor_read_npy, tmp("bad.npy"), VPUX_E_FORMAT,
		    "not a .npy file (bad magic, or truncated)", "npy: 5 bytes");
	put(tmp("bad.npy"), "\x93NUMPY\3\0\x10\0\0\0{}", 14);
	expect_file(vpuxc_tensor_read_npy, tmp("bad.npy"), VPUX_E_UNSUPPORTED,
		    ".npy version 3.0 not supported", "npy: version 3");
	put(tmp("bad.npy"), "\x93NUMPY\1\0\xff\0{}", 12);
	expect_file(vpuxc_tensor_read_npy, tmp("bad.npy"), VPUX_E_FORMAT,
		    "truncated .npy header (255 bytes declared, 2 in the file)",
		    "npy: header longer than the file");
	put(tmp("bad.npy"), "\x93NUMPY\2\0\x10\0", 10);
	expect_file(vpuxc_tensor_read_npy, tmp("bad.npy"), VPUX_E_FORMAT,
		    "truncated .npy header", "npy: v2 header length cut");
	BAD("['descr']", VPUX_E_FORMAT, "header is not a dict", "not a dict");
	BAD("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
	    VPUX_E_UNSUPPORTED, "Fortran order not supported", "Fortran order");
	BAD("{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3), }",
	    VPUX_E_FORMAT, "'fortran_order' is not True or False",
	    "fortran_order not a bool");
	BAD("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }",
	    VPUX_E_UNSUPPORTED, "unsupported .npy dtype '>f4'", "big endian");
	BAD("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
	    VPUX_E_UNSUPPORTED, "unsupported .npy dtype '<f8'", "float64");
	BAD("{'descr': 5, 'fortran_order': False, 'shape': (3,), }",
	    VPUX_E_FORMAT, "bad or repeated 'descr'", "descr not a string");
	BAD("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,), }",
	    VPUX_E_FORMAT, "bad or repeated 'descr'", "descr twice");
	BAD("{'descr': '<f4', 'fortran_order': False}",
	    VPUX_E_FORMAT, "'shape' missing", "no shape");
	BAD("{'fortran_order': False, 'shape': (6,)}",
	    VPUX_E_FORMAT, "'descr' missing", "no descr");
	BAD("{'descr': '<f4', 'shape': (6,)}",
	    VPUX_E_FORMAT, "'fortran_order' missing", "no fortran_order");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}",
	    VPUX_E_FORMAT, "unknown key 'x'", "unknown key");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x)}",
	    VPUX_E_FORMAT, "bad 'shape' at byte", "shape not numbers");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (-6,)}",
	    VPUX_E_FORMAT, "bad 'shape' at byte", "negative dim");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}",
	    VPUX_E_FORMAT, "bad 'shape' at byte", "dims without a comma");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': [6]}",
	    VPUX_E_FORMAT, "(a tuple expected)", "shape a list");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,6)}",
	    VPUX_E_UNSUPPORTED, "shape of rank above 8", "rank 9");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
	    VPUX_E_FORMAT, "dim 0 too large", "a dim beyond 64 bits");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
	    VPUX_E_FORMAT, "dims product overflows", "dims product overflow");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (7,)}",
	    VPUX_E_FORMAT,
	    "bad.npy: data size mismatch: 24 data bytes, shape needs 28 (truncated file)",
	    "data shorter than the shape");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}",
	    VPUX_E_FORMAT,
	    "data size mismatch: 24 data bytes, shape needs 20 (trailing bytes)",
	    "data longer than the shape");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (6,)} x",
	    VPUX_E_FORMAT, "bytes after the dict", "bytes after the dict");
	BAD("{'descr': '<f4' 'fortran_order': False, 'shape': (6,)}",
	    VPUX_E_FORMAT, "',' or '}' expected", "missing comma");
	BAD("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), ",
	    VPUX_E_FORMAT, "bad key at byte", "unterminated dict");
	BAD("{'descr': '<f4, 'fortran_order': False, 'shape': (6,)}",
	    VPUX_E_FORMAT, "header", "unterminated string");
#undef BAD
	expect_file(vpuxc_tensor_read_npy, tmp("none.npy"), VPUX_E_IO,
		    "none.npy: cannot open", "npy: missing file");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_tensor_io.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	test_dtypes();
	test_pb_good();
	test_pb_bad();
	test_pb_write_bad();
	test_npy();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			tap_diag("could not remove %s", dir);
	}
	return tap_finish();
}
