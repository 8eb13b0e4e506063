// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tensors in files: ONNX TensorProto (.pb, the backend-test layout's
 * input_K.pb/output_K.pb) through the protobuf-c code generated from
 * onnx.proto, and NumPy .npy (versions 1 and 2, little endian, C order).
 *
 * Every input is untrusted: the readers never allocate from a declared
 * shape before the data that backs it has been counted, check the dims
 * product for overflow, and refuse with a VPUX_E_* code and a message
 * naming the file and what was wrong.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hostconv.h"
#include "ir.h"
#include "onnx.pb-c.h"
#include "vpux_compiler.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tensor_io.c: little-endian hosts only"
#endif

/* ONNX's BOOL: 1 byte, 0 or 1 (model constants only) */
#define VC_PB_BOOL	9

/* largest file the readers take (a tensor file, not a model) */
#define MAX_FILE	(1ull << 31)

size_t vpuxc_dtype_size(int32_t dtype)
{
	switch (dtype) {
	case VPUXC_FLOAT:
	case VPUXC_INT32:
		return 4;
	case VPUXC_UINT8:
	case VPUXC_INT8:
		return 1;
	case VPUXC_INT64:
		return 8;
	}
	return 0;
}

const char *vpuxc_dtype_name(int32_t dtype)
{
	return hc_onnx_type_name(dtype);	/* umd/hostconv.c */
}

size_t vpuxc_tensor_count(const struct vpuxc_tensor *t)
{
	size_t n = 1;
	uint32_t i;

	for (i = 0; i < t->rank && i < VPUXC_MAX_RANK; i++) {
		if (t->dims[i] < 0)
			return 0;
		n *= (size_t)t->dims[i];
	}
	return n;
}

void vpuxc_tensor_fini(struct vpuxc_tensor *t)
{
	if (!t)
		return;
	free(t->data);
	t->data = NULL;
	t->size = 0;
}

/*
 * Element count of @dims[0..rank) into @count; VPUX_E_FORMAT naming @what
 * for a negative dim or a product that overflows (also in bytes of @esize).
 */
static int dims_count(const char *what, uint32_t rank, const int64_t *dims,
		      size_t esize, size_t *count)
{
	size_t n = 1;
	uint32_t i;

	for (i = 0; i < rank; i++) {
		if (dims[i] < 0)
			return vpux_err(VPUX_E_FORMAT, "%s: dim %u is %lld (negative)",
					what, i, (long long)dims[i]);
		if ((uint64_t)dims[i] > SIZE_MAX)
			return vpux_err(VPUX_E_FORMAT,
					"%s: dims product overflows (dim %u is %lld)",
					what, i, (long long)dims[i]);
		if (dims[i] && n > SIZE_MAX / (size_t)dims[i])
			return vpux_err(VPUX_E_FORMAT,
					"%s: dims product overflows (dim %u is %lld)",
					what, i, (long long)dims[i]);
		n *= (size_t)dims[i];
	}
	if (esize && n > SIZE_MAX / esize)
		return vpux_err(VPUX_E_FORMAT,
				"%s: dims product overflows (%zu elements of %zu bytes)",
				what, n, esize);
	*count = n;
	return 0;
}

/* A whole file into memory (umd/hostconv.c); VPUX_E_IO naming @path. */
static int slurp(const char *path, unsigned char **data, size_t *size)
{
	void *p;
	int ret = hc_read_file(path, MAX_FILE, &p, size);

	*data = p;
	return ret;
}

static void tensor_init(struct vpuxc_tensor *t)
{
	memset(t, 0, sizeof(*t));
}

/* ---- TensorProto ---- */

/* which typed field may carry the elements of @dtype */
static int pb_int32_ok(int32_t dtype)
{
	return dtype == VPUXC_UINT8 || dtype == VPUXC_INT8 ||
	       dtype == VPUXC_INT32 || dtype == VC_PB_BOOL;
}

/*
 * The element size of @dtype in a model: the tensor types of
 * vpuxc_dtype_size(), and with @model bool (1 byte), which a model's
 * constants may hold (the graph passes fold them away) and tensor files
 * may not.
 */
static size_t pb_esize(int32_t dtype, int model)
{
	return model && dtype == VC_PB_BOOL ? 1 : vpuxc_dtype_size(dtype);
}

static int pb_fill(const char *what, const Onnx__TensorProto *tp,
		   struct vpuxc_tensor *t, size_t count)
{
	size_t esize = pb_esize(t->dtype, 1), i, n_fields = 0;
	const char *field = NULL;

	/* exactly one place holds the elements */
	if (tp->has_raw_data) {
		n_fields++;
		field = "raw_data";
	}
	if (tp->n_float_data) {
		n_fields++;
		field = "float_data";
	}
	if (tp->n_int32_data) {
		n_fields++;
		field = "int32_data";
	}
	if (tp->n_int64_data) {
		n_fields++;
		field = "int64_data";
	}
	if (tp->n_double_data)
		return vpux_err(VPUX_E_FORMAT,
				"%s: field double_data given for a %s tensor",
				what, vpuxc_dtype_name(t->dtype));
	if (tp->n_uint64_data)
		return vpux_err(VPUX_E_FORMAT,
				"%s: field uint64_data given for a %s tensor",
				what, vpuxc_dtype_name(t->dtype));
	if (tp->n_string_data)
		return vpux_err(VPUX_E_FORMAT,
				"%s: field string_data given for a %s tensor",
				what, vpuxc_dtype_name(t->dtype));
	if (n_fields > 1)
		return vpux_err(VPUX_E_FORMAT,
				"%s: elements in more than one field (raw_data %s, float_data %zu, int32_data %zu, int64_data %zu)",
				what, tp->has_raw_data ? "set" : "unset",
				tp->n_float_data, tp->n_int32_data,
				tp->n_int64_data);
	if (!n_fields) {
		if (count)
			return vpux_err(VPUX_E_FORMAT,
					"%s: no data (dims need %zu elements)",
					what, count);
		field = "";
	}
	if (!strcmp(field, "raw_data")) {
		if (tp->raw_data.len != count * esize)
			return vpux_err(VPUX_E_FORMAT,
					"%s: data size mismatch: raw_data has %zu bytes, dims need %zu (%zu %s elements)",
					what, tp->raw_data.len, count * esize,
					count, vpuxc_dtype_name(t->dtype));
	} else if (!strcmp(field, "float_data")) {
		if (t->dtype != VPUXC_FLOAT)
			return vpux_err(VPUX_E_FORMAT,
					"%s: field float_data given for a %s tensor",
					what, vpuxc_dtype_name(t->dtype));
		if (tp->n_float_data != count)
			return vpux_err(VPUX_E_FORMAT,
					"%s: data size mismatch: float_data has %zu elements, dims need %zu",
					what, tp->n_float_data, count);
	} else if (!strcmp(field, "int32_data")) {
		if (!pb_int32_ok(t->dtype))
			return vpux_err(VPUX_E_FORMAT,
					"%s: field int32_data given for a %s tensor",
					what, vpuxc_dtype_name(t->dtype));
		if (tp->n_int32_data != count)
			return vpux_err(VPUX_E_FORMAT,
					"%s: data size mismatch: int32_data has %zu elements, dims need %zu",
					what, tp->n_int32_data, count);
		for (i = 0; i < count; i++) {
			int32_t v = tp->int32_data[i];

			if ((t->dtype == VPUXC_UINT8 && (v < 0 || v > 255)) ||
			    (t->dtype == VPUXC_INT8 && (v < -128 || v > 127)) ||
			    (t->dtype == VC_PB_BOOL && (v < 0 || v > 1)))
				return vpux_err(VPUX_E_FORMAT,
						"%s: int32_data[%zu] = %d out of range for %s",
						what, i, v,
						vpuxc_dtype_name(t->dtype));
		}
	} else if (!strcmp(field, "int64_data")) {
		if (t->dtype != VPUXC_INT64)
			return vpux_err(VPUX_E_FORMAT,
					"%s: field int64_data given for a %s tensor",
					what, vpuxc_dtype_name(t->dtype));
		if (tp->n_int64_data != count)
			return vpux_err(VPUX_E_FORMAT,
					"%s: data size mismatch: int64_data has %zu elements, dims need %zu",
					what, tp->n_int64_data, count);
	}

	t->size = count * esize;
	t->data = malloc(t->size ? t->size : 1);
	if (!t->data)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory (%zu bytes)",
				what, t->size);
	if (!strcmp(field, "raw_data")) {
		if (t->size)
			memcpy(t->data, tp->raw_data.data, t->size);
		if (t->dtype == VC_PB_BOOL)	/* any non-zero byte is true */
			for (i = 0; i < count; i++)
				((unsigned char *)t->data)[i] =
					((unsigned char *)t->data)[i] != 0;
	} else if (!strcmp(field, "float_data")) {
		memcpy(t->data, tp->float_data, t->size);
	} else if (!strcmp(field, "int64_data")) {
		memcpy(t->data, tp->int64_data, t->size);
	} else if (!strcmp(field, "int32_data")) {
		if (t->dtype == VPUXC_INT32) {
			memcpy(t->data, tp->int32_data, t->size);
		} else {
			unsigned char *b = t->data;

			for (i = 0; i < count; i++)
				b[i] = (unsigned char)tp->int32_data[i];
		}
	}
	return 0;
}

/*
 * An unpacked TensorProto as a host tensor: the rules every tensor the
 * compiler reads follows, from a .pb file or inside a model (initializers,
 * Constant values). @what names it in messages; @model: a model's
 * constant, which may also be bool.
 */
static int tensor_from_proto(const Onnx__TensorProto *tp,
			     struct vpuxc_tensor *t, const char *what,
			     int model)
{
	size_t count, esize;
	uint32_t i;
	int ret;

	tensor_init(t);
	if (tp->n_external_data || (tp->has_data_location &&
	    tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL))
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: external data (data_location EXTERNAL%s%s) not supported: store the tensor in the file",
				what,
				tp->n_external_data ? ", location " : "",
				tp->n_external_data && tp->external_data[0]->key &&
				!strcmp(tp->external_data[0]->key, "location") &&
				tp->external_data[0]->value ?
				tp->external_data[0]->value : "");
	if (tp->segment)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: segmented tensor not supported", what);
	if (!tp->has_data_type)
		return vpux_err(VPUX_E_FORMAT, "%s: no data_type", what);
	esize = pb_esize(tp->data_type, model);
	if (!esize)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: unsupported dtype %d (%s); float, uint8, int8, int32 and int64 are%s",
				what, tp->data_type,
				vpuxc_dtype_name(tp->data_type),
				model ? " (and bool for constants)" : "");
	t->dtype = tp->data_type;
	if (tp->n_dims > VPUXC_MAX_RANK)
		return vpux_err(VPUX_E_UNSUPPORTED, "%s: rank %zu above %d",
				what, tp->n_dims, VPUXC_MAX_RANK);
	t->rank = (uint32_t)tp->n_dims;
	for (i = 0; i < t->rank; i++)
		t->dims[i] = tp->dims[i];
	ret = dims_count(what, t->rank, t->dims, esize, &count);
	if (ret)
		return ret;
	/* a model's value names are kept by the IR; here only informative */
	if (tp->name)
		snprintf(t->name, sizeof(t->name), "%s", tp->name);
	ret = pb_fill(what, tp, t, count);
	if (ret) {
		vpuxc_tensor_fini(t);
		tensor_init(t);
	}
	return ret;
}

int vc_tensor_from_proto(const Onnx__TensorProto *tp, struct vpuxc_tensor *t,
			 const char *what)
{
	return tensor_from_proto(tp, t, what, 1);
}

static int parse_pb(const char *what, const void *data, size_t size,
		    struct vpuxc_tensor *t)
{
	Onnx__TensorProto *tp;
	int ret;

	tensor_init(t);
	vpux_err_clear();
	if (!data && size)
		return vpux_err(VPUX_E_INVAL, "%s: no data", what);
	tp = onnx__tensor_proto__unpack(NULL, size, data);
	if (!tp)
		return vpux_err(VPUX_E_FORMAT,
				"%s: not a TensorProto (protobuf decoding failed: truncated or corrupt, %zu bytes)",
				what, size);
	/* a tensor file's name names a graph input: it must fit */
	if (tp->name && strlen(tp->name) >= VPUXC_NAME_MAX)
		ret = vpux_err(VPUX_E_UNSUPPORTED,
			       "%s: name of %zu bytes, longer than %d", what,
			       strlen(tp->name), VPUXC_NAME_MAX - 1);
	else
		ret = tensor_from_proto(tp, t, what, 0);
	onnx__tensor_proto__free_unpacked(tp, NULL);
	return ret;
}

int vpuxc_tensor_parse_pb(const void *data, size_t size,
			  struct vpuxc_tensor *t)
{
	return parse_pb("TensorProto", data, size, t);
}

int vpuxc_tensor_read_pb(const char *path, struct vpuxc_tensor *t)
{
	unsigned char *p;
	size_t n;
	int ret;

	tensor_init(t);
	vpux_err_clear();
	ret = slurp(path, &p, &n);
	if (ret)
		return ret;
	ret = parse_pb(path, p, n, t);
	free(p);
	return ret;
}

/* @t is consistent: supported dtype, rank, size = count * element size */
static int tensor_check(const char *what, const struct vpuxc_tensor *t)
{
	size_t esize = vpuxc_dtype_size(t->dtype), count;
	int ret;

	if (!esize)
		return vpux_err(VPUX_E_INVAL, "%s: unsupported dtype %d (%s)",
				what, t->dtype, vpuxc_dtype_name(t->dtype));
	if (t->rank > VPUXC_MAX_RANK)
		return vpux_err(VPUX_E_INVAL, "%s: rank %u above %d", what,
				t->rank, VPUXC_MAX_RANK);
	if (memchr(t->name, 0, sizeof(t->name)) == NULL)
		return vpux_err(VPUX_E_INVAL, "%s: name not NUL-terminated",
				what);
	ret = dims_count(what, t->rank, t->dims, esize, &count);
	if (ret)
		return ret == VPUX_E_FORMAT ? VPUX_E_INVAL : ret;
	if (t->size != count * esize || (t->size && !t->data))
		return vpux_err(VPUX_E_INVAL,
				"%s: data size mismatch: %zu bytes, dims need %zu",
				what, t->size, count * esize);
	return 0;
}

int vpuxc_tensor_write_pb(const char *path, const struct vpuxc_tensor *t)
{
	Onnx__TensorProto tp = ONNX__TENSOR_PROTO__INIT;
	int64_t dims[VPUXC_MAX_RANK];
	unsigned char *buf;
	size_t n;
	FILE *f;
	int ret;
	uint32_t i;

	vpux_err_clear();
	ret = tensor_check(path, t);
	if (ret)
		return ret;
	for (i = 0; i < t->rank; i++)
		dims[i] = t->dims[i];
	tp.n_dims = t->rank;
	tp.dims = dims;
	tp.has_data_type = 1;
	tp.data_type = t->dtype;
	tp.name = (char *)t->name;
	tp.has_raw_data = 1;
	tp.raw_data.len = t->size;
	tp.raw_data.data = t->data;
	n = onnx__tensor_proto__get_packed_size(&tp);
	buf = malloc(n ? n : 1);
	if (!buf)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", path);
	onnx__tensor_proto__pack(&tp, buf);
	f = fopen(path, "wb");
	if (!f) {
		ret = vpux_err(VPUX_E_IO, "%s: cannot create: %s", path,
			       strerror(errno));
	} else {
		if (fwrite(buf, 1, n, f) != n)
			ret = vpux_err(VPUX_E_IO, "%s: write failed", path);
		if (fclose(f) && !ret)
			ret = vpux_err(VPUX_E_IO, "%s: write failed", path);
	}
	free(buf);
	return ret;
}

/* ---- .npy ---- */

struct npy_hdr {
	const char *p, *end;
};

static void npy_ws(struct npy_hdr *h)
{
	while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' ||
				 *h->p == '\n' || *h->p == '\r'))
		h->p++;
}

static int npy_eat(struct npy_hdr *h, char c)
{
	npy_ws(h);
	if (h->p < h->end && *h->p == c) {
		h->p++;
		return 1;
	}
	return 0;
}

/* a quoted Python string into @out (at most @cap - 1 bytes) */
static int npy_str(struct npy_hdr *h, char *out, size_t cap)
{
	char q;
	size_t n = 0;

	npy_ws(h);
	if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
		return -1;
	q = *h->p++;
	while (h->p < h->end && *h->p != q) {
		if (*h->p == '\\' || n + 1 >= cap)
			return -1;
		out[n++] = *h->p++;
	}
	if (h->p >= h->end)
		return -1;
	h->p++;
	out[n] = 0;
	return 0;
}

static int npy_word(struct npy_hdr *h, const char *w)
{
	size_t l = strlen(w);

	npy_ws(h);
	if ((size_t)(h->end - h->p) >= l && !memcmp(h->p, w, l)) {
		h->p += l;
		return 1;
	}
	return 0;
}

static const struct {
	const char *descr;
	int32_t dtype;
} npy_types[] = {
	{ "<f4", VPUXC_FLOAT },
	{ "|u1", VPUXC_UINT8 },
	{ "|i1", VPUXC_INT8 },
	{ "<i4", VPUXC_INT32 },
	{ "<i8", VPUXC_INT64 },
};

/* the header dict: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } */
static int npy_dict(const char *path, const char *text, size_t len,
		    struct vpuxc_tensor *t)
{
	struct npy_hdr h = { text, text + len };
	char key[32], descr[32];
	int have_descr = 0, have_order = 0, have_shape = 0;
	unsigned int i;

	if (!npy_eat(&h, '{'))
		return vpux_err(VPUX_E_FORMAT,
				"%s: .npy header is not a dict ('{' expected)",
				path);
	for (;;) {
		if (npy_eat(&h, '}'))
			break;
		if (npy_str(&h, key, sizeof(key)) || !npy_eat(&h, ':'))
			return vpux_err(VPUX_E_FORMAT,
					"%s: .npy header: bad key at byte %td",
					path, h.p - text);
		if (!strcmp(key, "descr")) {
			if (have_descr || npy_str(&h, descr, sizeof(descr)))
				return vpux_err(VPUX_E_FORMAT,
						"%s: .npy header: bad or repeated 'descr'",
						path);
			have_descr = 1;
		} else if (!strcmp(key, "fortran_order")) {
			if (have_order)
				return vpux_err(VPUX_E_FORMAT,
						"%s: .npy header: 'fortran_order' repeated",
						path);
			if (npy_word(&h, "True"))
				return vpux_err(VPUX_E_UNSUPPORTED,
						"%s: .npy in Fortran order not supported (C order only)",
						path);
			if (!npy_word(&h, "False"))
				return vpux_err(VPUX_E_FORMAT,
						"%s: .npy header: 'fortran_order' is not True or False",
						path);
			have_order = 1;
		} else if (!strcmp(key, "shape")) {
			if (have_shape || !npy_eat(&h, '('))
				return vpux_err(VPUX_E_FORMAT,
						"%s: .npy header: bad or repeated 'shape' (a tuple expected)",
						path);
			have_shape = 1;
			while (!npy_eat(&h, ')')) {
				long long v = 0;

				npy_ws(&h);
				if (h.p >= h.end || *h.p < '0' || *h.p > '9')
					return vpux_err(VPUX_E_FORMAT,
							"%s: .npy header: bad 'shape' at byte %td",
							path, h.p - text);
				while (h.p < h.end && *h.p >= '0' && *h.p <= '9') {
					if (v > (LLONG_MAX - 9) / 10)
						return vpux_err(VPUX_E_FORMAT,
								"%s: .npy header: dim %u too large",
								path, t->rank);
					v = v * 10 + (*h.p++ - '0');
				}
				npy_ws(&h);
				if (h.p < h.end && (*h.p == 'L' || *h.p == 'l'))
					h.p++;	/* Python 2's long */
				if (t->rank >= VPUXC_MAX_RANK)
					return vpux_err(VPUX_E_UNSUPPORTED,
							"%s: .npy shape of rank above %d",
							path, VPUXC_MAX_RANK);
				t->dims[t->rank++] = v;
				if (!npy_eat(&h, ',')) {
					if (!npy_eat(&h, ')'))
						return vpux_err(VPUX_E_FORMAT,
								"%s: .npy header: bad 'shape' at byte %td",
								path, h.p - text);
					break;
				}
			}
		} else {
			return vpux_err(VPUX_E_FORMAT,
					"%s: .npy header: unknown key '%s'",
					path, key);
		}
		if (!npy_eat(&h, ',')) {
			if (!npy_eat(&h, '}'))
				return vpux_err(VPUX_E_FORMAT,
						"%s: .npy header: ',' or '}' expected at byte %td",
						path, h.p - text);
			break;
		}
	}
	npy_ws(&h);
	if (h.p != h.end)
		return vpux_err(VPUX_E_FORMAT,
				"%s: .npy header: bytes after the dict", path);
	if (!have_descr || !have_order || !have_shape)
		return vpux_err(VPUX_E_FORMAT,
				"%s: .npy header: '%s' missing", path,
				!have_descr ? "descr" : !have_order ?
				"fortran_order" : "shape");
	for (i = 0; i < sizeof(npy_types) / sizeof(npy_types[0]); i++)
		if (!strcmp(descr, npy_types[i].descr))
			t->dtype = npy_types[i].dtype;
	if (!t->dtype)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: unsupported .npy dtype '%s' (<f4, |u1, |i1, <i4, <i8 are)",
				path, descr);
	return 0;
}

static int parse_npy(const char *path, const unsigned char *p, size_t n,
		     struct vpuxc_tensor *t)
{
	size_t hlen, off, count, esize;
	int ret;

	if (n < 10 || memcmp(p, "\x93NUMPY", 6))
		return vpux_err(VPUX_E_FORMAT,
				"%s: not a .npy file (bad magic%s)", path,
				n < 10 ? ", or truncated" : "");
	if (p[6] == 1) {
		hlen = (size_t)p[8] | (size_t)p[9] << 8;
		off = 10;
	} else if (p[6] == 2) {
		if (n < 12)
			return vpux_err(VPUX_E_FORMAT,
					"%s: truncated .npy header", path);
		hlen = (size_t)p[8] | (size_t)p[9] << 8 |
		       (size_t)p[10] << 16 | (size_t)p[11] << 24;
		off = 12;
	} else {
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: .npy version %u.%u not supported (1.x and 2.x are)",
				path, p[6], p[7]);
	}
	if (hlen > n - off)
		return vpux_err(VPUX_E_FORMAT,
				"%s: truncated .npy header (%zu bytes declared, %zu in the file)",
				path, hlen, n - off);
	ret = npy_dict(path, (const char *)p + off, hlen, t);
	if (ret)
		return ret;
	esize = vpuxc_dtype_size(t->dtype);
	ret = dims_count(path, t->rank, t->dims, esize, &count);
	if (ret)
		return ret;
	off += hlen;
	if (n - off != count * esize)
		return vpux_err(VPUX_E_FORMAT,
				"%s: data size mismatch: %zu data bytes, shape needs %zu (%s)",
				path, n - off, count * esize,
				n - off < count * esize ? "truncated file" :
				"trailing bytes");
	t->size = count * esize;
	t->data = malloc(t->size ? t->size : 1);
	if (!t->data)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", path);
	if (t->size)
		memcpy(t->data, p + off, t->size);
	return 0;
}

int vpuxc_tensor_read_npy(const char *path, struct vpuxc_tensor *t)
{
	unsigned char *p;
	size_t n;
	int ret;

	tensor_init(t);
	vpux_err_clear();
	ret = slurp(path, &p, &n);
	if (ret)
		return ret;
	ret = parse_npy(path, p, n, t);
	free(p);
	if (ret) {
		vpuxc_tensor_fini(t);
		tensor_init(t);
	}
	return ret;
}
