// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-asm: line-oriented text -> struct lf_image. One statement per line:
 * header directives, tensors (with generated or raw weight data), then ops
 * in program order. Barriers are derived from data dependencies unless any
 * op lists wait=/update= (explicit mode, what vpux-dis prints).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "dla_limits.h"
#include <drm/vpux_task.h>
#include "lf_fields.h"
#include "lf_kernels.h"
#include "vpux_dpu_rules.h"
#include "vasm.h"
#include "vpux.h"
#include "vpux_shave_abi.h"
#include "vpux_shave_rt.h"

#define MAX_TOK 64
#define ASM_STACK_DEFAULT	4096u	/* a tile's SHAVE stack, no 'stack' */

struct tok {
	char *s;
	int col;
};

struct acc {		/* one memory access of an op, for implicit deps */
	uint32_t region;
	uint64_t lo, hi;
	int wr;
};

struct aop {
	unsigned int kind;
	uint32_t idx;
	int line;
	struct acc acc[VPUX_LF_MAX_WINDOWS + 5];
	unsigned int n_acc;
};

struct st {
	const char *file;
	const struct asm_opts *o;
	FILE *err;
	int line;
	struct lf_image *img;
	uint8_t *w;
	uint64_t wcap, wend, wdecl;
	uint64_t send, sdecl;
	uint8_t *k;
	uint32_t kcap;
	struct aop *ops;
	uint32_t n_ops, ops_cap;
	uint32_t tcap, dcap[LF_KINDS], bdecl;
	int explicit_deps, have_caps, have_scratch, have_weights;
	/* plans (Documentation/vpux-asm.rst, "Plans") */
	const char *raw;	/* the current line as written */
	int level;		/* braces open */
	int open_line[VPUX_LF_PLAN_MAX_DEPTH + 1];	/* where each opened */
	int open_col[VPUX_LF_PLAN_MAX_DEPTH + 1];
	uint32_t bcap, tplcap, pcap, ecap;
	int loose_line, loose_col;	/* the first op outside a block */
	/* 1.4 names (name=): .vpux.names and its string table */
	uint32_t ncap;
	char *strtab;
	size_t stcap;
	/* 1.5 ELF kernels: kernel, stack, shave elf */
	uint32_t kncap, kicap, kscap, kccap, kdcap;
	uint8_t *kc, *kd;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct st *s, int col, const char *fmt, ...)
{
	va_list ap;

	fprintf(s->err, "%s:%d:%d: error: ", s->file, s->line, col);
	va_start(ap, fmt);
	vfprintf(s->err, fmt, ap);
	va_end(ap);
	fputc('\n', s->err);
	return -1;
}

static int grow(void **p, uint32_t *cap, uint32_t n, size_t elem)
{
	void *q;
	uint32_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	q = realloc(*p, (size_t)c * elem);
	if (!q)
		return -1;
	memset((char *)q + (size_t)*cap * elem, 0, (size_t)(c - *cap) * elem);
	*p = q;
	*cap = c;
	return 0;
}

static int num(struct st *s, const struct tok *t, const char *str,
	       long long lo, long long hi, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(str, &end, 0);
	if (errno || end == str || *end || *v < lo || *v > hi)
		return fail(s, t->col, "'%s': expected a number in %lld..%lld",
			    str, lo, hi);
	return 0;
}

/* comma-separated list of up to @max numbers */
static int nums(struct st *s, const struct tok *t, const char *str,
		long long lo, long long hi, long long *v, unsigned int max,
		unsigned int *n)
{
	char buf[256], *p, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", str);
	*n = 0;
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (*n == max)
			return fail(s, t->col, "too many values (at most %u)",
				    max);
		if (num(s, t, p, lo, hi, &v[(*n)++]))
			return -1;
	}
	if (!*n)
		return fail(s, t->col, "expected a value");
	return 0;
}

static int find_tensor(struct st *s, const char *name, uint32_t *idx)
{
	uint32_t i;

	for (i = 0; i < s->img->n_tensors; i++)
		if (!strcmp(s->img->tensors[i].name, name)) {
			*idx = i;
			return 0;
		}
	return -1;
}

/* NAME or NAME[off:size] */
static int operand(struct st *s, const struct tok *t, const char *str,
		   struct vpux_lf_ref *r)
{
	char name[VPUX_LF_NAME_LEN + 1];
	const char *br = strchr(str, '[');
	size_t l = br ? (size_t)(br - str) : strlen(str);
	const struct vpux_lf_tensor *tt;
	long long off, sz;
	uint32_t i;

	if (!l || l >= sizeof(name))
		return fail(s, t->col, "bad operand '%s'", str);
	memcpy(name, str, l);
	name[l] = 0;
	if (find_tensor(s, name, &i))
		return fail(s, t->col, "unknown tensor '%s'", name);
	tt = &s->img->tensors[i];
	memset(r, 0, sizeof(*r));
	r->tensor = i;
	if (!br) {
		r->size = (uint32_t)tt->size;
		return 0;
	}
	if (sscanf(br, "[%lli:%lli]", &off, &sz) != 2 || off < 0 || sz <= 0 ||
	    (uint64_t)off + (uint64_t)sz > tt->size ||
	    str[strlen(str) - 1] != ']')
		return fail(s, t->col,
			    "bad sub-range '%s' (NAME[offset:size] inside the %llu-byte tensor)",
			    br, (unsigned long long)tt->size);
	r->offset = (uint32_t)off;
	r->size = (uint32_t)sz;
	return 0;
}

static int region_of(struct st *s, const struct tok *t, const char *v,
		     uint32_t *r)
{
	unsigned int i;

	if (!strcmp(v, "weights"))
		*r = VPUX_LF_REGION(VPUX_LF_RK_WEIGHTS, 0);
	else if (!strcmp(v, "scratch"))
		*r = VPUX_LF_REGION(VPUX_LF_RK_SCRATCH, 0);
	else if (sscanf(v, "input%u", &i) == 1 && i < VPUX_LF_MAX_IO)
		*r = VPUX_LF_REGION(VPUX_LF_RK_INPUT, i);
	else if (sscanf(v, "output%u", &i) == 1 && i < VPUX_LF_MAX_IO)
		*r = VPUX_LF_REGION(VPUX_LF_RK_OUTPUT, i);
	else if (sscanf(v, "cmx%u", &i) == 1 && i < VPUX_LF_CMX_TILES)
		*r = VPUX_LF_REGION(VPUX_LF_RK_CMX, i);
	else if (!strcmp(v, "symbols"))
		*r = VPUX_LF_REGION(VPUX_LF_RK_SYMBOLS, 0);
	else
		return fail(s, t->col,
			    "unknown region '%s' (weights, scratch, inputN, outputN, cmx0..cmx%u, symbols)",
			    v, VPUX_LF_CMX_TILES - 1);
	return 0;
}

/*
 * The largest weights region vpux-asm builds: the loadable's limit. The
 * fuzz build (umd/umd.mk) lowers it, so that a valid but huge tensor does
 * not exceed the fuzzer's memory limit.
 */
#ifndef VASM_WEIGHTS_MAX
#define VASM_WEIGHTS_MAX VPUX_LF_REGION_MAX
#endif

static uint8_t *wspace(struct st *s, uint64_t end)
{
	if (end > VASM_WEIGHTS_MAX)
		return NULL;
	if (end > s->wcap) {
		uint64_t c = s->wcap ? s->wcap : 4096;
		uint8_t *p;

		while (c < end)
			c *= 2;
		p = realloc(s->w, c);
		if (!p)
			return NULL;
		memset(p + s->wcap, 0, c - s->wcap);
		s->w = p;
		s->wcap = c;
	}
	if (end > s->wend)
		s->wend = end;
	return s->w;
}

/* element @i of type @dt: the value @v, for a float type its bits */
static void put_elem(uint8_t *p, uint32_t dt, uint64_t i, long long v)
{
	if (dt == VPUX_DT_I32 || dt == VPUX_DT_F32) {
		uint32_t x = (uint32_t)v;

		p[4 * i] = (uint8_t)x;
		p[4 * i + 1] = (uint8_t)(x >> 8);
		p[4 * i + 2] = (uint8_t)(x >> 16);
		p[4 * i + 3] = (uint8_t)(x >> 24);
	} else if (dt == VPUX_DT_F16) {
		p[2 * i] = (uint8_t)v;
		p[2 * i + 1] = (uint8_t)((uint32_t)v >> 8);
	} else {
		p[i] = (uint8_t)v;
	}
}

/* a float literal of type @dt at column @col, into @bits */
static int fnum(struct st *s, int col, const char *str, uint32_t dt,
		uint32_t *bits)
{
	const char *why;

	if (vasm_float_parse(str, dt, bits, &why))
		return fail(s, col, "'%s': %s", str, why);
	return 0;
}

/*
 * fill= of a float tensor: const:V, or seed:N[:LO:HI], uniform values in
 * [LO, HI] (default -1:1) from the same LCG, each rounded to the type.
 */
static int fill_float(struct st *s, const struct tok *t, const char *v,
		      const struct vpux_lf_tensor *tt, uint8_t *p, uint64_t n)
{
	const char *name = hc_dev_type_name(tt->data_type);
	char buf[256], *f[4] = { NULL }, *save = NULL, *x;
	uint32_t a, lo, hi, seed, i;
	double dlo, dhi;
	float flo, fhi;
	long long sd;
	int k = 0;

	snprintf(buf, sizeof(buf), "%s", v);
	for (x = strtok_r(buf, ":", &save); x && k < 4;
	     x = strtok_r(NULL, ":", &save))
		f[k++] = x;
	if (f[0] && !strcmp(f[0], "const") && k == 2 && !x) {
		if (fnum(s, t->col, f[1], tt->data_type, &a))
			return -1;
		for (i = 0; i < n; i++)
			put_elem(p, tt->data_type, i, a);
		return 0;
	}
	if (!f[0] || strcmp(f[0], "seed") || (k != 2 && k != 4) || x)
		return fail(s, t->col,
			    "bad fill '%s' for an %s tensor (seed:N[:LO:HI], const:V, file:PATH, blob:OFFSET)",
			    v, name);
	if (num(s, t, f[1], 0, UINT32_MAX, &sd))
		return -1;
	lo = 0xbf800000u;	/* -1 */
	hi = 0x3f800000u;	/* 1 */
	/* the bounds: literals of the tensor's type, then as FP32 */
	if (k == 4 && (fnum(s, t->col, f[2], tt->data_type, &a) ||
		       fnum(s, t->col, f[3], tt->data_type, &a) ||
		       fnum(s, t->col, f[2], VPUX_DT_F32, &lo) ||
		       fnum(s, t->col, f[3], VPUX_DT_F32, &hi)))
		return -1;
	memcpy(&flo, &lo, 4);
	memcpy(&fhi, &hi, 4);
	if (!(flo <= fhi) || flo - flo != 0 || fhi - fhi != 0)
		return fail(s, t->col, "fill range %s..%s: finite, LO <= HI",
			    f[2], f[3]);
	dlo = flo;
	dhi = fhi;
	seed = (uint32_t)sd;
	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		/* in double, then rounded once to the type */
		put_elem(p, tt->data_type, i,
			 vasm_f64_round(dlo + (dhi - dlo) *
					(double)(seed >> 8) / 16777215.0,
					tt->data_type));
	}
	return 0;
}

/* fill=seed:N[:LO:HI] | fill=const:V | fill=requant:M:S | fill=file:PATH */
static int fill(struct st *s, const struct tok *t, const char *v,
		const struct vpux_lf_tensor *tt)
{
	uint64_t n = tt->size / (lf_dt_bits(tt->data_type) / 8), i;
	long long a = 0, lo, hi, m, sh;
	uint32_t seed;
	uint8_t *p;

	if (VPUX_LF_REGION_KIND(tt->region) != VPUX_LF_RK_WEIGHTS)
		return fail(s, t->col, "fill= only for tensors in the weights");
	if (!wspace(s, tt->offset + tt->size))
		return fail(s, t->col, "out of memory");
	p = s->w + tt->offset;
	if (lf_dt_float(tt->data_type) && strncmp(v, "file:", 5) &&
	    strncmp(v, "blob:", 5))
		return fill_float(s, t, v, tt, p, n);
	if (!strncmp(v, "file:", 5)) {
		char path[4096];
		FILE *f;
		size_t got;

		if (v[5] != '/' && s->o->base_dir)
			snprintf(path, sizeof(path), "%s/%s", s->o->base_dir,
				 v + 5);
		else
			snprintf(path, sizeof(path), "%s", v + 5);
		f = fopen(path, "rb");
		if (!f)
			return fail(s, t->col, "cannot open '%s'", path);
		got = fread(p, 1, tt->size, f);
		fclose(f);
		if (got != tt->size)
			return fail(s, t->col, "'%s': %zu bytes, tensor needs %llu",
				    path, got, (unsigned long long)tt->size);
		return 0;
	}
	if (!strncmp(v, "blob:", 5)) {
		unsigned long long off;
		char *end;

		errno = 0;
		off = strtoull(v + 5, &end, 0);
		if (!s->o->blob || errno || *end || v[5] == '-' ||
		    off > s->o->blob_size || tt->size > s->o->blob_size - off)
			return fail(s, t->col,
				    "fill=%s: outside the caller's blob (%zu bytes)",
				    v, s->o->blob ? s->o->blob_size : (size_t)0);
		memcpy(p, (const uint8_t *)s->o->blob + off, tt->size);
		return 0;
	}
	if (sscanf(v, "const:%lli", &a) == 1) {
		for (i = 0; i < n; i++)
			put_elem(p, tt->data_type, i, a);
		return 0;
	}
	if (sscanf(v, "requant:%lli:%lli", &m, &sh) == 2) {
		if (tt->data_type != VPUX_DT_I32 || n % 2)
			return fail(s, t->col, "requant fill needs an i32 tensor of pairs");
		for (i = 0; i < n; i += 2) {
			put_elem(p, tt->data_type, i, m);
			put_elem(p, tt->data_type, i + 1, sh);
		}
		return 0;
	}
	lo = tt->data_type == VPUX_DT_U8 ? 0 : -128;
	hi = tt->data_type == VPUX_DT_U8 ? 255 : 127;
	if (sscanf(v, "seed:%lli:%lli:%lli", &a, &lo, &hi) == 3 ||
	    sscanf(v, "seed:%lli", &a) == 1) {
		long long tmin = tt->data_type == VPUX_DT_I32 ? INT32_MIN :
				 tt->data_type == VPUX_DT_U8 ? 0 : -128;
		long long tmax = tt->data_type == VPUX_DT_I32 ? INT32_MAX :
				 tt->data_type == VPUX_DT_U8 ? 255 : 127;

		if (lo > hi || lo < tmin || hi > tmax)
			return fail(s, t->col,
				    "fill range %lld..%lld empty or outside the type's %lld..%lld",
				    lo, hi, tmin, tmax);
		seed = (uint32_t)a;
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			put_elem(p, tt->data_type, i,
				 lo + (long long)((seed >> 8) %
						  (uint64_t)(hi - lo + 1)));
		}
		return 0;
	}
	return fail(s, t->col, "bad fill '%s' (seed:N[:LO:HI], const:V, requant:M:S, file:PATH, blob:OFFSET)",
		    v);
}

static char *val(char *tok)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return NULL;
	*eq = 0;
	return eq + 1;
}

static int find_symbol(struct st *s, const char *name, size_t len,
		       uint32_t *idx)
{
	uint32_t i;

	for (i = 0; i < s->img->n_symbols; i++)
		if (strlen(s->img->symbols[i].name) == len &&
		    !memcmp(s->img->symbols[i].name, name, len)) {
			*idx = i;
			return 0;
		}
	return -1;
}

/*
 * SHAPE: dims separated by 'x', each a number or $NAME, an axis symbol
 * (the longest declared name followed by 'x' or the end). @dmax gets the
 * dims with each symbol at its max: the layout.
 */
static int shape(struct st *s, const struct tok *t, struct vpux_lf_tensor *tt,
		 uint32_t *dmax)
{
	const char *p = t->s;

	for (;;) {
		const char *end = strchr(p, 'x');
		char buf[32];
		long long d;
		size_t l;

		if (tt->rank == VPUX_LF_MAX_RANK)
			return fail(s, t->col, "rank above %u", VPUX_LF_MAX_RANK);
		if (*p == '$') {
			const struct vpux_lf_symbol *y = NULL;
			uint32_t i, best = 0;

			for (i = 0; i < s->img->n_symbols; i++) {
				const struct vpux_lf_symbol *c = &s->img->symbols[i];

				l = strlen(c->name);
				if (!strncmp(p + 1, c->name, l) &&
				    (p[1 + l] == 'x' || !p[1 + l]) &&
				    (!y || l > strlen(y->name))) {
					y = c;
					best = i;
				}
			}
			if (!y) {
				l = end ? (size_t)(end - p) : strlen(p);
				return fail(s, t->col + (int)(p - t->s),
					    "unknown symbol '%.*s' (declare it with 'symbol' first)",
					    (int)l - 1, p + 1);
			}
			if (y->kind != VPUX_LF_SYM_AXIS)
				return fail(s, t->col + (int)(p - t->s),
					    "symbol '%s' is a scalar: a dim needs an axis symbol",
					    y->name);
			if (!y->max)
				return fail(s, t->col + (int)(p - t->s),
					    "symbol '%s': a dim's max must be >= 1",
					    y->name);
			tt->dyn_dims |= 1u << tt->rank;
			dmax[tt->rank] = (uint32_t)y->max;
			tt->dims[tt->rank++] = best;
			p += 1 + strlen(y->name);
		} else {
			l = end ? (size_t)(end - p) : strlen(p);
			if (l >= sizeof(buf))
				return fail(s, t->col + (int)(p - t->s),
					    "bad dim '%.*s'", (int)l, p);
			memcpy(buf, p, l);
			buf[l] = 0;
			if (num(s, t, buf, 1, UINT32_MAX, &d))
				return -1;
			dmax[tt->rank] = (uint32_t)d;
			tt->dims[tt->rank++] = (uint32_t)d;
			p += l;
		}
		if (!*p)
			return 0;
		p++;	/* the 'x' */
		if (!*p)
			return fail(s, t->col, "empty dim at the end of '%s'", t->s);
	}
}

/* name=FULL of tensor @t (the last one declared): a .vpux.names record */
static int add_name(struct st *s, int col, uint32_t t, const char *full)
{
	struct lf_image *img = s->img;
	size_t len = strlen(full) + 1, at = img->strtab_size;
	uint32_t i;

	for (i = 0; i < img->n_names; i++)
		if (!strcmp(s->strtab + img->names[i].name, full))
			return fail(s, col, "name '%s' already given to tensor '%s'",
				    full, img->tensors[img->names[i].tensor].name);
	if (!at)
		at = 1;	/* offset 0: the leading NUL */
	if (at + len > INT32_MAX)
		return fail(s, col, "names take more than 2 GiB");
	if (at + len > s->stcap) {
		size_t c = (at + len) * 2;
		char *q = realloc(s->strtab, c);

		if (!q)
			return fail(s, 1, "out of memory");
		s->strtab = q;
		s->stcap = c;
	}
	if (grow((void **)&img->names, &s->ncap, img->n_names,
		 sizeof(*img->names)))
		return fail(s, 1, "out of memory");
	s->strtab[0] = 0;
	memcpy(s->strtab + at, full, len);
	img->names[img->n_names].tensor = t;
	img->names[img->n_names++].name = (uint32_t)at;
	img->strtab_size = (uint32_t)(at + len);
	img->strtab = s->strtab;
	return 0;
}

/* input|output|tensor NAME TYPE SHAPE key=value... */
static int stmt_tensor(struct st *s, struct tok *t, int n)
{
	struct lf_image *img = s->img;
	struct vpux_lf_tensor *tt;
	struct vpux_stride_reqs rq;
	struct vpux_memshape ms;
	struct vpux_memstrides mst;
	struct vpux_shape sh;
	struct vpux_strides sst;
	vpux_dims_order o;
	const char *fillv = NULL;
	int fill_col = 0, have_off = 0, have_size = 0, have_strides = 0;
	int have_order = 0, io = strcmp(t[0].s, "tensor") != 0;
	uint32_t i, dt, tmp, region = 0;
	long long v[VPUX_LF_MAX_RANK];
	uint32_t dmax[VPUX_LF_MAX_RANK];
	struct vpux_lf_tensor at_max;
	unsigned int cnt;
	char *full = NULL;
	int a, full_col = 0;

	if (n < 4)
		return fail(s, t[0].col, "expected '%s NAME TYPE SHAPE ...'",
			    t[0].s);
	if (strlen(t[1].s) >= VPUX_LF_NAME_LEN)
		return fail(s, t[1].col, "name longer than %u characters",
			    VPUX_LF_NAME_LEN - 1);
	if (!find_tensor(s, t[1].s, &tmp))
		return fail(s, t[1].col, "tensor '%s' already defined", t[1].s);
	if (!(dt = hc_dev_type_parse(t[2].s)))
		return fail(s, t[2].col, "unknown type '%s' (u8, i8, i32, f16, f32)",
			    t[2].s);
	if (grow((void **)&img->tensors, &s->tcap, img->n_tensors,
		 sizeof(*tt)))
		return fail(s, 1, "out of memory");
	tt = &img->tensors[img->n_tensors];
	memset(tt, 0, sizeof(*tt));
	strcpy(tt->name, t[1].s);
	tt->data_type = dt;
	if (shape(s, &t[3], tt, dmax))
		return -1;
	tt->dims_order = vpux_order_default(tt->rank).code;
	if (io) {
		int out = !strcmp(t[0].s, "output");
		uint32_t *cntp = out ? &img->hdr.num_outputs :
				 &img->hdr.num_inputs;

		if (*cntp >= VPUX_LF_MAX_IO)
			return fail(s, t[0].col, "too many %ss", t[0].s);
		region = VPUX_LF_REGION(out ? VPUX_LF_RK_OUTPUT :
					VPUX_LF_RK_INPUT, (*cntp)++);
		tt->flags = VPUX_LF_T_IO;
	} else {
		region = VPUX_LF_REGION(VPUX_LF_RK_SCRATCH, 0);
	}
	for (a = 4; a < n; a++) {
		char *k = t[a].s, *vv = val(k);
		long long x;

		if (!vv)
			return fail(s, t[a].col, "expected key=value, got '%s'", k);
		if (!strcmp(k, "order")) {
			if (vasm_value_of(vasm_orders, vv, &tmp)) {
				if (num(s, &t[a], vv, 1, 0xffffff, &x))
					return -1;
				tmp = (uint32_t)x;
			}
			tt->dims_order = tmp;
			have_order = 1;
		} else if (!strcmp(k, "strides")) {
			if (nums(s, &t[a], vv, 1, 1ll << 37, v, tt->rank, &cnt))
				return -1;
			if (cnt != tt->rank)
				return fail(s, t[a].col, "%u strides for rank %u",
					    cnt, tt->rank);
			for (i = 0; i < cnt; i++)
				tt->strides[i] = (uint64_t)v[i] * 8;
			have_strides = 1;
		} else if (!strcmp(k, "region") && !io) {
			if (region_of(s, &t[a], vv, &region))
				return -1;
		} else if (!strcmp(k, "offset") && !io) {
			if (num(s, &t[a], vv, 0, VPUX_LF_REGION_MAX, &x))
				return -1;
			tt->offset = (uint64_t)x;
			have_off = 1;
		} else if (!strcmp(k, "size")) {
			if (num(s, &t[a], vv, 1, VPUX_LF_REGION_MAX, &x))
				return -1;
			tt->size = (uint64_t)x;
			have_size = 1;
		} else if ((!strcmp(k, "zp") || !strcmp(k, "scale")) &&
			   lf_dt_float(dt)) {
			return fail(s, t[a].col,
				    "%s= on an %s tensor: the float types have no quantisation",
				    k, t[2].s);
		} else if (!strcmp(k, "zp")) {
			if (num(s, &t[a], vv, INT32_MIN, INT32_MAX, &x))
				return -1;
			tt->zero_point = (int32_t)x;
		} else if (!strcmp(k, "scale")) {
			if (nums(s, &t[a], vv, INT32_MIN, INT32_MAX, v, 2, &cnt) ||
			    cnt != 2)
				return cnt == 2 ? -1 :
				       fail(s, t[a].col, "scale=MULT,SHIFT");
			tt->scale_mult = (int32_t)v[0];
			tt->scale_shift = (int32_t)v[1];
		} else if (!strcmp(k, "fill") && !io) {
			fillv = vv;
			fill_col = t[a].col;
		} else if (!strcmp(k, "name")) {
			if (vasm_name_unescape(vv))
				return fail(s, t[a].col,
					    "bad name '%s': %%XX takes two hex digits, not 00",
					    vv);
			if (!*vv)
				return fail(s, t[a].col, "empty name=");
			full = vv;
			full_col = t[a].col;
		} else {
			return fail(s, t[a].col, "unknown key '%s' for %s", k,
				    t[0].s);
		}
	}
	tt->region = region;
	o.code = tt->dims_order;
	if (have_order && !vpux_order_valid(o, tt->rank))
		return fail(s, t[1].col, "order 0x%llx is not a permutation of %u dims",
			    (unsigned long long)o.code, tt->rank);
	if (!have_strides) {
		sh.rank = tt->rank;
		for (i = 0; i < VPUX_MAX_RANK; i++)
			sh.d[i] = i < tt->rank ? dmax[i] : 0;
		memset(&rq, 0, sizeof(rq));
		rq.rank = tt->rank;
		if (vpux_order_to_memshape(o, &sh, &ms) ||
		    vpux_stride_reqs_compute(&rq, lf_dt_bits(dt), &ms, &mst) ||
		    vpux_order_to_strides(o, &mst, &sst))
			return fail(s, t[3].col, "cannot lay out this shape");
		for (i = 0; i < tt->rank; i++)
			tt->strides[i] = sst.bits[i];
	}
	at_max = *tt;
	memcpy(at_max.dims, dmax, sizeof(dmax));
	at_max.dyn_dims = 0;
	if (!have_size)
		tt->size = lf_tensor_extent(&at_max);
	if (!tt->size)
		return fail(s, t[3].col, "tensor too large");
	if (!have_off && !io) {
		uint64_t *end = VPUX_LF_REGION_KIND(region) ==
				VPUX_LF_RK_WEIGHTS ? &s->wend :
				VPUX_LF_REGION_KIND(region) ==
				VPUX_LF_RK_SCRATCH ? &s->send : NULL;

		if (!end)
			return fail(s, t[0].col, "offset= needed in an I/O, CMX or symbols region");
		tt->offset = (*end + 63) & ~63ull;
	}
	if (VPUX_LF_REGION_KIND(region) == VPUX_LF_RK_WEIGHTS) {
		if (tt->offset + tt->size > VASM_WEIGHTS_MAX)
			return fail(s, t[0].col,
				    "weights region would end at byte %llu, past %llu",
				    (unsigned long long)(tt->offset + tt->size),
				    (unsigned long long)VASM_WEIGHTS_MAX);
		if (!wspace(s, tt->offset + tt->size))
			return fail(s, t[0].col, "out of memory");
	} else if (VPUX_LF_REGION_KIND(region) == VPUX_LF_RK_SCRATCH &&
		   tt->offset + tt->size > s->send) {
		s->send = tt->offset + tt->size;
	}
	img->n_tensors++;
	if (full && add_name(s, full_col, img->n_tensors - 1, full))
		return -1;
	if (fillv)
		return fill(s, &(struct tok){ NULL, fill_col }, fillv, tt);
	return 0;
}

/*
 * data OPERAND TYPE V, V ...: values of the operand's tensor (in the
 * weights, of type TYPE) from the operand's first byte; a float type
 * takes float literals, an integer one numbers in its range.
 */
static int stmt_data_values(struct st *s, struct tok *t, int n)
{
	const struct vpux_lf_tensor *tt;
	struct vpux_lf_ref r;
	uint32_t dt, esize, cnt = 0, max;
	uint8_t *p;
	int a;

	if (n < 4)
		return fail(s, t[0].col, "expected 'data TENSOR TYPE V, V, ...' or 'data OFFSET HEX'");
	if (operand(s, &t[1], t[1].s, &r))
		return -1;
	tt = &s->img->tensors[r.tensor];
	if (VPUX_LF_REGION_KIND(tt->region) != VPUX_LF_RK_WEIGHTS)
		return fail(s, t[1].col,
			    "tensor '%s' is not in the weights: data gives constants",
			    tt->name);
	if (!(dt = hc_dev_type_parse(t[2].s)))
		return fail(s, t[2].col, "unknown type '%s' (u8, i8, i32, f16, f32)",
			    t[2].s);
	if (dt != tt->data_type)
		return fail(s, t[2].col, "tensor '%s' is %s, not %s", tt->name,
			    hc_dev_type_name(tt->data_type), t[2].s);
	esize = lf_dt_bits(dt) / 8;
	max = r.size / esize;
	p = s->w + tt->offset + r.offset;
	for (a = 3; a < n; a++) {
		char *v = t[a].s;

		while (*v) {
			char *comma = strchr(v, ',');
			int col = t[a].col + (int)(v - t[a].s);
			uint32_t bits;
			long long x;

			if (comma)
				*comma = 0;
			if (*v) {
				if (cnt == max)
					return fail(s, col,
						    "more than the %u %s values of %s[%u:%u]",
						    max, t[2].s, tt->name,
						    r.offset, r.size);
				if (lf_dt_float(dt)) {
					if (fnum(s, col, v, dt, &bits))
						return -1;
					x = bits;
				} else if (num(s, &(struct tok){ v, col }, v,
					       dt == VPUX_DT_U8 ? 0 :
					       dt == VPUX_DT_I8 ? -128 : INT32_MIN,
					       dt == VPUX_DT_U8 ? 255 :
					       dt == VPUX_DT_I8 ? 127 : INT32_MAX,
					       &x)) {
					return -1;
				}
				put_elem(p, dt, cnt++, x);
			}
			if (!comma)
				break;
			v = comma + 1;
		}
	}
	if (!cnt)
		return fail(s, t[3].col, "expected a value");
	return 0;
}

/* data OFFSET HEX, or data TENSOR TYPE VALUES (stmt_data_values()) */
static int stmt_data(struct st *s, struct tok *t, int n)
{
	long long off;
	size_t l, i;
	char *end;

	if (n >= 2) {
		errno = 0;
		(void)strtoll(t[1].s, &end, 0);
		if (end == t[1].s || *end)
			return stmt_data_values(s, t, n);
	}
	if (n != 3 || num(s, &t[1], t[1].s, 0, VPUX_LF_REGION_MAX, &off))
		return n != 3 ? fail(s, t[0].col, "expected 'data OFFSET HEX' or 'data TENSOR TYPE V, V, ...'") :
		       -1;
	l = strlen(t[2].s);
	if (l % 2)
		return fail(s, t[2].col, "odd number of hex digits");
	if (!wspace(s, (uint64_t)off + l / 2))
		return fail(s, t[0].col, "out of memory");
	for (i = 0; i < l / 2; i++) {
		unsigned int b;

		if (sscanf(t[2].s + 2 * i, "%2x", &b) != 1)
			return fail(s, t[2].col + (int)(2 * i), "bad hex digit");
		s->w[off + i] = (uint8_t)b;
	}
	return 0;
}

static int deps_key(struct st *s, struct tok *t, const char *k, const char *v,
		    struct vpux_lf_deps *d)
{
	long long x[VPUX_LF_MAX_WAITS];
	unsigned int n, i;
	int upd = !strcmp(k, "update");

	if (nums(s, t, v, 0, 65534, x, VPUX_LF_MAX_WAITS, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (upd)
			d->updates[i] = (uint16_t)x[i];
		else
			d->waits[i] = (uint16_t)x[i];
		if ((uint32_t)x[i] + 1 > s->bdecl)
			s->bdecl = (uint32_t)x[i] + 1;
	}
	if (upd)
		d->num_updates = (uint8_t)n;
	else
		d->num_waits = (uint8_t)n;
	s->explicit_deps = 1;
	return 0;
}

static int field_set(struct st *s, struct tok *t, const struct vasm_field *f,
		     void *base, const char *v)
{
	char *p = (char *)base + f->offset;
	long long x[6];
	unsigned int n, i;

	switch (f->type) {
	case VF_U16:
		if (num(s, t, v, 0, 65535, x))
			return -1;
		*(uint16_t *)p = (uint16_t)x[0];
		return 0;
	case VF_U32:
		if (num(s, t, v, 0, UINT32_MAX, x))
			return -1;
		*(uint32_t *)p = (uint32_t)x[0];
		return 0;
	case VF_I32:
		if (num(s, t, v, INT32_MIN, INT32_MAX, x))
			return -1;
		*(int32_t *)p = (int32_t)x[0];
		return 0;
	case VF_PAIR:
		if (nums(s, t, v, INT32_MIN, INT32_MAX, x, 2, &n))
			return -1;
		if (n != 2)
			return fail(s, t->col, "expected MULT,SHIFT");
		((int32_t *)p)[0] = (int32_t)x[0];
		((int32_t *)p)[1] = (int32_t)x[1];
		return 0;
	case VF_U32X6:
		if (nums(s, t, v, 0, UINT32_MAX, x, 6, &n))
			return -1;
		for (i = 0; i < 6; i++)
			((uint32_t *)p)[i] = i < n ? (uint32_t)x[i] : 0;
		return 0;
	case VF_F32:
		return fnum(s, t->col, v, VPUX_DT_F32, (uint32_t *)p);
	case VF_ACT:
		if (vasm_value_of(vasm_acts, v, (uint32_t *)p))
			return fail(s, t->col,
				    "unknown activation '%s' (none, relu, clamp, leaky, leaky_ch)",
				    v);
		return 0;
	case VF_NAME:
		if (vasm_value_of(f->names, v, (uint32_t *)p)) {
			char list[512];

			vasm_names_list(f->names, list, sizeof(list));
			return fail(s, t->col, "unknown %s '%s' (%s)", f->name,
				    v, list);
		}
		return 0;
	case VF_F32X6: {
		char buf[256], *q, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", v);
		memset(p, 0, 6 * sizeof(uint32_t));
		n = 0;
		for (q = strtok_r(buf, ",", &save); q;
		     q = strtok_r(NULL, ",", &save)) {
			if (n == 6)
				return fail(s, t->col,
					    "too many values (at most 6)");
			if (fnum(s, t->col, q, VPUX_DT_F32,
				 (uint32_t *)p + n++))
				return -1;
		}
		if (!n)
			return fail(s, t->col, "expected a value");
		return 0;
	}
	case VF_AXIS:
		if (num(s, t, v, 0, VPUX_MEMREF_MAX_RANK - 1, x))
			return -1;
		*(uint32_t *)p = (uint32_t)x[0];
		return 0;
	case VF_AXES: {
		uint32_t mask = 0;

		if (nums(s, t, v, 0, VPUX_MEMREF_MAX_RANK - 1, x,
			 VPUX_MEMREF_MAX_RANK, &n))
			return -1;
		for (i = 0; i < n; i++) {
			if (mask >> x[i] & 1)
				return fail(s, t->col, "%s: dim %lld twice",
					    f->name, x[i]);
			mask |= 1u << x[i];
		}
		*(uint32_t *)p = mask;
		return 0;
	}
	}
	return -1;
}

static const struct vasm_field *field_find(const struct vasm_field *f,
					   const char *k)
{
	for (; f && f->name; f++)
		if (!strcmp(f->name, k))
			return f;
	return NULL;
}

static void *new_op(struct st *s, unsigned int kind)
{
	static const size_t sz[LF_KINDS] = { sizeof(struct vpux_lf_dma),
					     sizeof(struct vpux_lf_dpu),
					     sizeof(struct vpux_lf_shave) };
	void **arr = kind == LF_DMA ? (void **)&s->img->dma :
		     kind == LF_DPU ? (void **)&s->img->dpu :
		     (void **)&s->img->shave;
	uint32_t *n = kind == LF_DMA ? &s->img->n_dma :
		      kind == LF_DPU ? &s->img->n_dpu : &s->img->n_shave;
	struct aop *a;

	if (grow(arr, &s->dcap[kind], *n, sz[kind]) ||
	    grow((void **)&s->ops, &s->ops_cap, s->n_ops, sizeof(*s->ops)))
		return NULL;
	a = &s->ops[s->n_ops++];
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->idx = *n;
	a->line = s->line;
	return (char *)*arr + sz[kind] * (*n)++;
}

static void access(struct st *s, const struct vpux_lf_ref *r, int wr)
{
	struct aop *a = &s->ops[s->n_ops - 1];
	const struct vpux_lf_tensor *t;

	if (!r->size)
		return;
	t = &s->img->tensors[r->tensor];
	a->acc[a->n_acc++] = (struct acc){ t->region, t->offset + r->offset,
					   t->offset + r->offset + r->size,
					   wr };
}

static int stmt_dma(struct st *s, struct tok *t, int n)
{
	struct vpux_lf_dma *o = new_op(s, LF_DMA);
	int a, have_len = 0;
	long long x[3];
	unsigned int c, i;

	if (!o)
		return fail(s, 1, "out of memory");
	o->count[0] = o->count[1] = o->count[2] = 1;
	for (a = 1; a < n; a++) {
		char *k = t[a].s, *v = val(k);
		uint32_t *dst = NULL;

		if (!v)
			return fail(s, t[a].col, "expected key=value");
		if (!strcmp(k, "src") || !strcmp(k, "dst")) {
			if (operand(s, &t[a], v, k[0] == 's' ? &o->src : &o->dst))
				return -1;
		} else if (!strcmp(k, "len")) {
			if (num(s, &t[a], v, 1, UINT32_MAX, x))
				return -1;
			o->len = (uint32_t)x[0];
			have_len = 1;
		} else if (!strcmp(k, "wait") || !strcmp(k, "update")) {
			if (deps_key(s, &t[a], k, v, &o->deps))
				return -1;
		} else {
			dst = !strcmp(k, "count") ? o->count :
			      !strcmp(k, "src_stride") ? o->src_stride :
			      !strcmp(k, "dst_stride") ? o->dst_stride : NULL;
			if (!dst)
				return fail(s, t[a].col, "unknown key '%s' for dma", k);
			if (nums(s, &t[a], v, 0, UINT32_MAX, x, 3, &c))
				return -1;
			for (i = 0; i < 3; i++)
				dst[i] = i < c ? (uint32_t)x[i] : dst[i];
		}
	}
	if (!o->src.size || !o->dst.size)
		return fail(s, t[0].col, "dma needs src= and dst=");
	if (!have_len)
		o->len = o->src.size;
	access(s, &o->src, 0);
	access(s, &o->dst, 1);
	return 0;
}

/* tensor @i laid out: its dynamic dims at their symbols' max */
static const struct vpux_lf_tensor *at_max(struct st *s, uint32_t i,
					   struct vpux_lf_tensor *copy)
{
	vasm_tensor_at_max(&s->img->tensors[i], s->img->symbols,
			   s->img->n_symbols, copy);
	return copy;
}

/* in_c/in_h/in_w from an N,C,H,W (or N,C) logical shape */
static void infer_chw(const struct vpux_lf_tensor *t, uint16_t *c, uint16_t *h,
		      uint16_t *w)
{
	if (t->rank == 4) {
		*c = *c ? *c : (uint16_t)t->dims[1];
		*h = *h ? *h : (uint16_t)t->dims[2];
		*w = *w ? *w : (uint16_t)t->dims[3];
	} else if (t->rank == 2) {
		*c = *c ? *c : (uint16_t)t->dims[1];
		*h = *h ? *h : 1;
		*w = *w ? *w : (uint16_t)t->dims[0];
	}
}

/* flags=: names (vasm_dpu_flags) or numbers, joined by ',' */
static int dpu_flags(struct st *s, const struct tok *t, const char *v,
		     uint32_t *flags)
{
	char buf[256], *p, *save = NULL;
	uint32_t f;
	long long x;

	snprintf(buf, sizeof(buf), "%s", v);
	*flags = 0;
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (!vasm_value_of(vasm_dpu_flags, p, &f)) {
			*flags |= f;
			continue;
		}
		if (num(s, t, p, 0, UINT32_MAX, &x))
			return -1;
		*flags |= (uint32_t)x;
	}
	return 0;
}

static int stmt_dpu(struct st *s, struct tok *t, int n)
{
	struct vpux_lf_dpu *o;
	uint32_t op, given_flags = 0, words = 0, bcast = 0, f;
	const struct vasm_field *fl;
	unsigned int gk = 0, gs = 0, gd = 0, gg = 0, gmin = 0, gmax = 0;
	int int_col = 0, fp_col = 0, gscale = 0, gbcast = 0, fp16;
	const char *int_key = NULL, *fp_key = NULL;
	const struct vpux_lf_tensor *T;
	struct vpux_lf_tensor tm;
	int a;

	if (n < 2 || vasm_value_of(vasm_dpu_ops, t[1].s, &op))
		return fail(s, n < 2 ? t[0].col : t[1].col,
			    "expected a DPU op (conv, matmul, add, sub, mul, maxpool, avgpool)");
	o = new_op(s, LF_DPU);
	if (!o)
		return fail(s, 1, "out of memory");
	o->op = op;
	for (a = 2; a < n; a++) {
		char *k = t[a].s, *v = val(k);
		struct vpux_lf_ref *r;

		if (!v) {
			/* a flag by name: added to the inferred ones */
			if (vasm_value_of(vasm_dpu_flags, k, &f))
				return fail(s, t[a].col,
					    "expected key=value or a flag (in_signed, w_signed, out_signed, bias, per_channel, out_i32, out_f32, fp16, scale, batch, w_kn, count_pad), got '%s'",
					    k);
			words |= f;
			continue;
		}
		r = !strcmp(k, "in") ? &o->in : !strcmp(k, "in2") ? &o->in2 :
		    !strcmp(k, "bias") ? &o->bias :
		    !strcmp(k, "quant") ? &o->quant :
		    !strcmp(k, "out") ? &o->out : NULL;
		if (r) {
			if (operand(s, &t[a], v, r))
				return -1;
			continue;
		}
		if (!strcmp(k, "wait") || !strcmp(k, "update")) {
			if (deps_key(s, &t[a], k, v, &o->deps))
				return -1;
			continue;
		}
		if (!strcmp(k, "bcast")) {
			if (vasm_value_of(vasm_bcasts, v, &bcast))
				return fail(s, t[a].col,
					    "unknown broadcast '%s' (none, c, hw, scalar)",
					    v);
			gbcast = 1;
			continue;
		}
		if (!strcmp(k, "flags")) {
			if (dpu_flags(s, &t[a], v, &o->flags))
				return -1;
			given_flags = 1;
			continue;
		}
		fl = field_find(vasm_dpu_fields, k);
		if (!fl)
			return fail(s, t[a].col, "unknown key '%s' for dpu", k);
		if (field_set(s, &t[a], fl, o, v))
			return -1;
		if (fl->mode == VASM_INT && !int_key)
			int_key = fl->name, int_col = t[a].col;
		if (fl->mode == VASM_FP16 && !fp_key)
			fp_key = fl->name, fp_col = t[a].col;
		gk |= !strncmp(k, "kernel_", 7);
		gs |= !strncmp(k, "stride_", 7);
		gd |= !strncmp(k, "dilation_", 9);
		gg |= !strcmp(k, "groups");
		gmin |= !strcmp(k, "act_min");
		gmax |= !strcmp(k, "act_max");
		gscale |= !strcmp(k, "scale") || !strcmp(k, "shift");
	}
	if (!o->in.size || !o->out.size)
		return fail(s, t[0].col, "dpu needs in= and out=");
	/* defaults from the operands (vpux-asm.rst) */
	infer_chw(at_max(s, o->in.tensor, &tm), &o->in_c, &o->in_h, &o->in_w);
	infer_chw(at_max(s, o->out.tensor, &tm), &o->out_c, &o->out_h,
		  &o->out_w);
	T = s->img->tensors;
	/* FP16 ops: the fp16 flag, or f16 activations */
	fp16 = given_flags ? !!((o->flags | words) & VPUX_DPU_F_FP16) :
	       (words & VPUX_DPU_F_FP16) || T[o->in.tensor].data_type ==
	       VPUX_DT_F16;
	if (!given_flags && fp16) {
		o->flags = VPUX_DPU_F_FP16 |
			   (T[o->out.tensor].data_type == VPUX_DT_F32 ?
			    VPUX_DPU_F_OUT_F32 : 0) |
			   (o->bias.size ? VPUX_DPU_F_BIAS : 0) |
			   (o->quant.size &&
			    o->f.act != VPUX_DPU_ACT_LEAKY_CH ?
			    VPUX_DPU_F_PER_CHANNEL : 0) |
			   (gscale ? VPUX_DPU_F_SCALE : 0);
	} else if (!given_flags) {
		o->flags = (T[o->in.tensor].data_type == VPUX_DT_I8 ?
			    VPUX_DPU_F_IN_SIGNED : 0) |
			   (T[o->out.tensor].data_type == VPUX_DT_I8 ?
			    VPUX_DPU_F_OUT_SIGNED : 0) |
			   (o->in2.size && T[o->in2.tensor].data_type ==
			    VPUX_DT_I8 ? VPUX_DPU_F_W_SIGNED : 0) |
			   (o->bias.size ? VPUX_DPU_F_BIAS : 0) |
			   (o->quant.size ? VPUX_DPU_F_PER_CHANNEL : 0);
	}
	o->flags |= words;
	if (gbcast)
		o->flags = (o->flags & ~VPUX_DPU_F_BCAST_MASK) |
			   bcast << VPUX_DPU_F_BCAST_SHIFT;
	/* the output stages share their words: one per op */
	if (fp16 && int_key)
		return fail(s, int_col,
			    "%s= is a field of integer ops, this one is FP16 (flag fp16, or f16 in=)",
			    int_key);
	if (!fp16 && fp_key)
		return fail(s, fp_col,
			    "%s= is a field of FP16 ops (flag fp16, or f16 in=), this one is integer",
			    fp_key);
	if (!fp16 && op == VPUX_DPU_OP_SUB)
		return fail(s, t[1].col,
			    "sub is an FP16 op (give f16 in=, or the flag fp16)");
	if (!fp16 && (o->flags & ~VPUX_DPU_F_INT_ALL))
		return fail(s, t[1].col,
			    "flags 0x%x: FP16 flags on an integer op (add fp16, or give f16 in=)",
			    o->flags);
	if (!gk && (op == VPUX_DPU_OP_CONV || vpux_dpu_op_windowed(op)))
		o->kernel_h = o->kernel_w = 1;
	if (!gs && (op == VPUX_DPU_OP_CONV || vpux_dpu_op_windowed(op)))
		o->stride_h = o->stride_w = 1;
	if (!gd && (op == VPUX_DPU_OP_CONV || vpux_dpu_op_windowed(op)))
		o->dilation_h = o->dilation_w = 1;
	if (!gg && op == VPUX_DPU_OP_CONV)
		o->groups = 1;
	if (!fp16 && !gmin)
		o->act_min = o->flags & VPUX_DPU_F_OUT_SIGNED ? -128 : 0;
	if (!fp16 && !gmax)
		o->act_max = o->flags & VPUX_DPU_F_OUT_SIGNED ? 127 : 255;
	access(s, &o->in, 0);
	access(s, &o->in2, 0);
	access(s, &o->bias, 0);
	access(s, &o->quant, 0);
	access(s, &o->out, 1);
	return 0;
}

static int kargs_add(struct st *s, const uint8_t *args, uint32_t size,
		     uint32_t *off)
{
	uint32_t o = (s->img->kargs_size + 7) & ~7u;

	if (o + size > s->kcap) {
		uint32_t c = s->kcap ? s->kcap * 2 : 4096;
		uint8_t *p;

		while (c < o + size)
			c *= 2;
		p = realloc(s->k, c);
		if (!p)
			return -1;
		memset(p + s->kcap, 0, c - s->kcap);
		s->k = p;
		s->kcap = c;
	}
	memcpy(s->k + o, args, size);
	s->img->kargs_size = o + size;
	*off = o;
	return 0;
}

/* ---- SHAVE kernels ---- */

/* the FP16/FP32 kernels' checks of their fields, with the columns */
struct kchk {
	struct st *s;
	const struct tok *t;		/* the statement */
	uint32_t id;
	const uint8_t *params;
	const struct vasm_field *pf;
	const int *fcol;		/* per field of pf: its column, 0 unset */
	const struct vpux_lf_tensor *tens;	/* per record, at max */
	const struct vpux_lf_ref *ref;
	const int *rcol;		/* per record: the operand's column */
};

static const struct vasm_field *kfield(const struct kchk *c, const char *name,
				       int *col)
{
	const struct vasm_field *f = field_find(c->pf, name);

	*col = f && c->fcol[f - c->pf] ? c->fcol[f - c->pf] : c->t[0].col;
	return f;
}

static uint32_t kval(const struct kchk *c, const char *name, int *col)
{
	const struct vasm_field *f = kfield(c, name, col);
	uint32_t v = 0;

	if (f)
		memcpy(&v, c->params + f->offset, sizeof(v));
	return v;
}

static int f32_finite(uint32_t v)
{
	return (v & 0x7fffffffu) < 0x7f800000u;
}

static int f32_is_nan(uint32_t v)
{
	return (v & 0x7fffffffu) > 0x7f800000u;
}

/* finite and > 0: not 0, -0, negative, Inf or NaN */
static int f32_positive(uint32_t v)
{
	return f32_finite(v) && !(v >> 31) && v;
}

static int is_float_dt(uint32_t dt)
{
	return dt == VPUX_DT_F16 || dt == VPUX_DT_F32;
}

static const char *fstr(uint32_t v, char *buf)
{
	vasm_f32_print(v, buf, 32);
	return buf;
}

static const char *dtn(uint32_t dt)
{
	return hc_dev_type_name(dt);
}

static int chk_convert(const struct kchk *c)
{
	uint32_t idt = c->tens[0].data_type, odt = c->tens[1].data_type;
	int sc, zc, fi = is_float_dt(idt), fo = is_float_dt(odt);
	uint32_t scale = kval(c, "scale", &sc);
	int32_t zp = (int32_t)kval(c, "zero_point", &zc), lo, hi;
	uint32_t qdt;
	char b[32];

	if (fi && fo) {
		if (scale || zp)
			return fail(c->s, scale ? sc : zc,
				    "%s= is for a conversion to or from u8, i8 or i32 (%s to %s takes neither scale nor zero_point)",
				    scale ? "scale" : "zero_point", dtn(idt),
				    dtn(odt));
		return 0;
	}
	if (!(fi && (odt == VPUX_DT_U8 || odt == VPUX_DT_I8)) &&
	    !(fo && (idt == VPUX_DT_U8 || idt == VPUX_DT_I8 ||
		     idt == VPUX_DT_I32)))
		return fail(c->s, c->t[0].col,
			    "convert %s to %s: no such conversion (f16/f32 to f16, f32, u8 or i8; u8, i8 or i32 to f16 or f32)",
			    dtn(idt), dtn(odt));
	if (!f32_positive(scale))
		return fail(c->s, sc, "scale=%s: the step of the %s values must be finite and > 0",
			    fstr(scale, b), dtn(fi ? odt : idt));
	qdt = fi ? odt : idt;
	if (qdt == VPUX_DT_I32)
		return 0;
	lo = qdt == VPUX_DT_I8 ? -128 : 0;
	hi = qdt == VPUX_DT_I8 ? 127 : 255;
	if (zp < lo || zp > hi)
		return fail(c->s, zc, "zero_point=%d outside %s (%d..%d)", zp,
			    dtn(qdt), lo, hi);
	return 0;
}

static int chk_unary(const struct kchk *c)
{
	int fc, ac, bc;
	uint32_t func = kval(c, "func", &fc);
	uint32_t alpha = kval(c, "alpha", &ac), beta = kval(c, "beta", &bc);
	char b1[32], b2[32];

	switch (func) {
	case VPUX_SHAVE_UN_HARD_SIGMOID:
		if (!f32_finite(alpha) || !f32_finite(beta))
			return fail(c->s, f32_finite(alpha) ? bc : ac,
				    "%s=%s: hard_sigmoid takes finite alpha and beta",
				    f32_finite(alpha) ? "beta" : "alpha",
				    fstr(f32_finite(alpha) ? beta : alpha, b1));
		return 0;
	case VPUX_SHAVE_UN_LEAKY_RELU:
		if (!f32_finite(alpha))
			return fail(c->s, ac,
				    "alpha=%s: leaky_relu's slope must be finite",
				    fstr(alpha, b1));
		if (beta)
			return fail(c->s, bc, "beta= is not used by leaky_relu");
		return 0;
	case VPUX_SHAVE_UN_CLIP:
		if (f32_is_nan(alpha) || f32_is_nan(beta))
			return fail(c->s, f32_is_nan(alpha) ? ac : bc,
				    "%s=nan: clip's bounds may not be NaN",
				    f32_is_nan(alpha) ? "alpha" : "beta");
		{	/* beta < alpha as IEEE numbers (-0 == +0) */
			float fa, fb;

			memcpy(&fa, &alpha, sizeof(fa));
			memcpy(&fb, &beta, sizeof(fb));
			if (fb < fa)
				return fail(c->s, bc,
					    "clip: beta (max) %s below alpha (min) %s",
					    fstr(beta, b1), fstr(alpha, b2));
		}
		return 0;
	default:
		if (alpha || beta)
			return fail(c->s, alpha ? ac : bc,
				    "%s= is used by hard_sigmoid, leaky_relu and clip only",
				    alpha ? "alpha" : "beta");
		return 0;
	}
}

static int chk_layernorm(const struct kchk *c)
{
	int ec;
	uint32_t eps = kval(c, "epsilon", &ec);
	char b[32];

	if (!f32_finite(eps) || eps >> 31)
		return fail(c->s, ec, "epsilon=%s: finite and >= +0",
			    fstr(eps, b));
	return 0;
}

static int chk_resize(const struct kchk *c)
{
	const struct vpux_lf_tensor *in = &c->tens[0];
	int mc, nc, sc;
	uint32_t mode = kval(c, "mode", &mc), nearest = kval(c, "nearest", &nc);
	const struct vasm_field *f = kfield(c, "scales", &sc);
	uint32_t sv[6], i;
	char b[32];

	memcpy(sv, c->params + f->offset, sizeof(sv));
	if (mode == VPUX_SHAVE_RESIZE_LINEAR && nearest)
		return fail(c->s, nc, "nearest= is for mode=nearest");
	if (mode == VPUX_SHAVE_RESIZE_LINEAR && in->rank < 2)
		return fail(c->s, mc,
			    "mode=linear resizes the last two dims: tensor '%s' has rank %u",
			    in->name, in->rank);
	for (i = 0; i < 6; i++) {
		if (i >= in->rank) {
			if (sv[i])
				return fail(c->s, sc,
					    "scales: a value for dim %u, tensor '%s' has rank %u",
					    i, in->name, in->rank);
			continue;
		}
		if (!f32_positive(sv[i]))
			return fail(c->s, sc,
				    "scales: %s for dim %u, must be finite and > 0",
				    fstr(sv[i], b), i);
		if (mode == VPUX_SHAVE_RESIZE_LINEAR && i + 2 < in->rank &&
		    sv[i] != 0x3f800000u)
			return fail(c->s, sc,
				    "scales: %s for dim %u, mode=linear resizes the last two dims only (1 for the others)",
				    fstr(sv[i], b), i);
	}
	return 0;
}

static int chk_pad(const struct kchk *c)
{
	const struct vpux_lf_tensor *in = &c->tens[0];
	static const char *const be[2] = { "begin", "end" };
	int mc, vc, col;
	uint32_t mode = kval(c, "mode", &mc), value = kval(c, "value", &vc);
	uint32_t v[6], i, k;

	if (mode != VPUX_SHAVE_PAD_CONSTANT && value)
		return fail(c->s, vc, "value= is for mode=constant");
	for (k = 0; k < 2; k++) {
		const struct vasm_field *f = kfield(c, be[k], &col);

		memcpy(v, c->params + f->offset, sizeof(v));
		for (i = 0; i < 6; i++) {
			if (i >= in->rank && v[i])
				return fail(c->s, col,
					    "%s: a value for dim %u, tensor '%s' has rank %u",
					    be[k], i, in->name, in->rank);
			if (i < in->rank && mode == VPUX_SHAVE_PAD_REFLECT &&
			    v[i] >= in->dims[i])
				return fail(c->s, col,
					    "%s: %u for dim %u, mode=reflect pads at most dim - 1 = %u",
					    be[k], v[i], i, in->dims[i] - 1);
		}
	}
	return 0;
}

/*
 * The FP16/FP32 kernels' rules that need no data (compute-ops.rst,
 * "FP16/FP32 kernels"): the tensor types, the functions given, the axes
 * below the rank, the scalars each function uses. The shapes are the
 * engine's to check.
 */
static int shave_check(const struct kchk *c, const char *const *rn)
{
	const struct vpux_lf_tensor *T = c->tens;
	const struct vasm_field *f;
	uint32_t id = c->id, r;
	int col;

	if (id < VPUX_SHAVE_KERNEL_FIRST_F)
		return 0;
	/* types */
	for (r = 0; rn[r]; r++) {
		if (!c->ref[r].size)
			continue;
		if (id == VPUX_SHAVE_KERNEL_GATHER && r == 2) {
			if (T[r].data_type != VPUX_DT_I32)
				return fail(c->s, c->rcol[r],
					    "indices: tensor '%s' is %s, gather's indices are i32",
					    T[r].name, dtn(T[r].data_type));
		} else if (id != VPUX_SHAVE_KERNEL_CONVERT &&
			   id != VPUX_SHAVE_KERNEL_GATHER &&
			   !is_float_dt(T[r].data_type)) {
			return fail(c->s, c->rcol[r],
				    "%s: tensor '%s' is %s, shave %s takes f16 or f32",
				    rn[r], T[r].name, dtn(T[r].data_type),
				    c->t[1].s);
		}
	}
	if ((id == VPUX_SHAVE_KERNEL_GATHER || id == VPUX_SHAVE_KERNEL_RESIZE ||
	     id == VPUX_SHAVE_KERNEL_PAD) && T[1].data_type != T[0].data_type)
		return fail(c->s, c->rcol[1],
			    "out: tensor '%s' is %s, shave %s keeps the type of in (%s)",
			    T[1].name, dtn(T[1].data_type), c->t[1].s,
			    dtn(T[0].data_type));
	/* fields every kernel must be given, axes below the rank */
	for (f = c->pf; f->name; f++) {
		uint32_t v;

		memcpy(&v, c->params + f->offset, sizeof(v));
		col = c->fcol[f - c->pf];
		if ((f->type == VF_AXES || !strcmp(f->name, "func")) && !col) {
			char list[512] = "";

			if (f->type == VF_NAME)
				vasm_names_list(f->names, list, sizeof(list));
			return fail(c->s, c->t[0].col, "shave %s needs %s=%s%s%s",
				    c->t[1].s, f->name, *list ? " (" : "",
				    list, *list ? ")" : "");
		}
		if (f->type == VF_AXIS && v >= T[0].rank)
			return fail(c->s, col ? col : c->t[0].col,
				    "%s=%u: tensor '%s' has rank %u", f->name,
				    v, T[0].name, T[0].rank);
		if (f->type == VF_AXES && v >> T[0].rank)
			return fail(c->s, col,
				    "%s: dim %u, tensor '%s' has rank %u",
				    f->name, 31 - (uint32_t)__builtin_clz(v),
				    T[0].name, T[0].rank);
	}
	switch (id) {
	case VPUX_SHAVE_KERNEL_CONVERT:
		return chk_convert(c);
	case VPUX_SHAVE_KERNEL_UNARY:
		return chk_unary(c);
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		return chk_layernorm(c);
	case VPUX_SHAVE_KERNEL_RESIZE:
		return chk_resize(c);
	case VPUX_SHAVE_KERNEL_PAD:
		return chk_pad(c);
	default:
		return 0;
	}
}

/* the record named @k of @rn, or -1 */
static int rec_index(const char *const *rn, const char *k, size_t len)
{
	int r;

	for (r = 0; rn && rn[r]; r++)
		if (strlen(rn[r]) == len && !strncmp(rn[r], k, len))
			return r;
	return -1;
}

/* defaults that are not 0: layernorm's epsilon, ONNX's 1e-5 */
static void shave_defaults(uint32_t id, uint8_t *params)
{
	if (id == VPUX_SHAVE_KERNEL_LAYERNORM) {
		uint32_t eps = vasm_f64_round(1e-5, VPUX_DT_F32);

		memcpy(params + offsetof(struct vpux_shave_layernorm_args,
					 epsilon), &eps, sizeof(eps));
	}
}

/* resize without scales=: out.dims[i] / in.dims[i], in FP32 */
static void resize_scales(const struct vpux_lf_tensor *in,
			  const struct vpux_lf_tensor *out, uint8_t *params)
{
	uint32_t sv[6] = { 0 }, i;

	for (i = 0; i < in->rank && i < out->rank && i < 6; i++) {
		float q = (float)out->dims[i] / (float)in->dims[i];

		memcpy(&sv[i], &q, sizeof(q));
	}
	memcpy(params + offsetof(struct vpux_shave_resize_args, scales), sv,
	       sizeof(sv));
}

static int stmt_shave_elf(struct st *s, struct tok *t, int n);

/* an ELF op in the form of a built-in kernel's (shave elf ... like=) */
struct elf_like {
	struct vpux_lf_ref win_f;
	struct vpux_lf_kinvocation v;
};

static int shave_like_elf(struct st *s,
			  const struct elf_like *el,
			  const struct vpux_lf_ref *ref, const int *rcol,
			  const char *const *rn, struct vpux_lf_shave *o,
			  uint8_t *args);

static int stmt_shave_op(struct st *s, struct tok *t, int n,
			 const struct elf_like *el);

static int stmt_shave(struct st *s, struct tok *t, int n)
{
	if (n >= 2 && !strcmp(t[1].s, "elf"))
		return stmt_shave_elf(s, t, n);
	return stmt_shave_op(s, t, n, NULL);
}

static int stmt_shave_op(struct st *s, struct tok *t, int n,
			 const struct elf_like *el)
{
	uint8_t args[VPUX_SHAVE_ARGS_MAX], params[VPUX_SHAVE_ARGS_MAX];
	const struct vasm_field *pf, *f;
	const char *const *rn;
	struct vpux_lf_shave *o;
	struct vpux_lf_ref ref[VASM_SHAVE_RECS], dims[VASM_SHAVE_RECS];
	struct vpux_lf_tensor tens[VASM_SHAVE_RECS];
	struct vasm_rec rec[VASM_SHAVE_RECS];
	uint32_t id, raw_size = 0, optional = 0;
	int a, raw = 0, w, r, dout = -1;
	int dcol[VASM_SHAVE_RECS] = { 0 }, rcol[VASM_SHAVE_RECS] = { 0 };
	int fcol[16] = { 0 };

	if (n < 2)
		return fail(s, t[0].col, "expected a kernel name");
	o = new_op(s, LF_SHAVE);
	if (!o)
		return fail(s, 1, "out of memory");
	memset(params, 0, sizeof(params));
	memset(ref, 0, sizeof(ref));
	memset(dims, 0, sizeof(dims));
	if (!strncmp(t[1].s, "kernel=", 7)) {
		long long x;

		if (num(s, &t[1], t[1].s + 7, 0, UINT32_MAX, &x))
			return -1;
		id = (uint32_t)x;
		raw = 1;
	} else if (vasm_value_of(vasm_kernels, t[1].s, &id)) {
		char list[512];

		vasm_names_list(vasm_kernels, list, sizeof(list));
		return fail(s, t[1].col, "unknown kernel '%s' (%s, or kernel=N)",
			    t[1].s, list);
	}
	o->kernel_id = id;
	pf = vasm_kernel_params(id);
	rn = raw ? NULL : vasm_kernel_recs(id, &optional);
	shave_defaults(id, params);
	for (a = 2; a < n; a++) {
		char *k = t[a].s, *v = val(k);
		size_t kl = strlen(k);

		if (!v)
			return fail(s, t[a].col, "expected key=value");
		if (!strcmp(k, "wait") || !strcmp(k, "update")) {
			if (deps_key(s, &t[a], k, v, &o->deps))
				return -1;
		} else if ((r = rec_index(rn, k, kl)) >= 0) {
			if (operand(s, &t[a], v, &ref[r]))
				return -1;
			rcol[r] = t[a].col;
		} else if (kl > 5 && !strcmp(k + kl - 5, "_dims") &&
			   (r = rec_index(rn, k, kl - 5)) >= 0) {
			if (operand(s, &t[a], v, &dims[r]))
				return -1;
			dcol[r] = t[a].col;
		} else if (raw && sscanf(k, "win%d", &w) == 1 && w >= 0 &&
			   w < (int)VPUX_LF_MAX_WINDOWS) {
			if (operand(s, &t[a], v, &o->windows[w]))
				return -1;
		} else if (raw && !strcmp(k, "args")) {
			size_t l = strlen(v), i;

			if (l % 2 || l / 2 > sizeof(args))
				return fail(s, t[a].col, "bad args hex");
			for (i = 0; i < l / 2; i++) {
				unsigned int b;

				if (sscanf(v + 2 * i, "%2x", &b) != 1)
					return fail(s, t[a].col, "bad hex");
				args[i] = (uint8_t)b;
			}
			raw_size = (uint32_t)(l / 2);
		} else if (!raw && (f = field_find(pf, k))) {
			if (field_set(s, &t[a], f, params, v))
				return -1;
			fcol[f - pf] = t[a].col;
		} else {
			return fail(s, t[a].col, "unknown key '%s' for shave %s",
				    k, t[1].s);
		}
	}
	if (!raw) {
		struct kchk c = { s, t, id, params, pf, fcol, tens, ref, rcol };
		uint32_t next = 0;

		if (!ref[0].size || !ref[1].size)
			return fail(s, t[0].col, "shave needs in= and out=");
		for (r = 2; rn[r]; r++)
			if (!ref[r].size && !(optional >> r & 1))
				return fail(s, t[0].col, "shave %s needs %s=",
					    t[1].s, rn[r]);
		memset(rec, 0, sizeof(rec));
		/* each tensor in a window: in 0, out 1, the others in order */
		for (r = 0; rn[r]; r++) {
			if (!ref[r].size)
				continue;
			o->windows[next] = ref[r];
			rec[r].t = at_max(s, ref[r].tensor, &tens[r]);
			rec[r].win = next++;
			rec[r].dwin = -1;
		}
		/* a dynamic tensor: its actual dims at offset 0 of a window */
		for (r = 0; rn[r]; r++) {
			const struct vpux_lf_tensor *x =
				&s->img->tensors[ref[r].tensor];
			char key[32];

			snprintf(key, sizeof(key), "%s_dims", rn[r]);
			if (!ref[r].size) {
				if (dims[r].size)
					return fail(s, dcol[r],
						    "%s= given without %s=",
						    key, rn[r]);
				continue;
			}
			if (!x->dyn_dims && dims[r].size)
				return fail(s, dcol[r],
					    "%s= given, but tensor '%s' has static dims",
					    key, x->name);
			if (!x->dyn_dims)
				continue;
			if (!dims[r].size)
				return fail(s, t[0].col,
					    "tensor '%s' has dynamic dims: %s=OP needed (its %u actual dims, u32 each)",
					    x->name, key, x->rank);
			if (dims[r].size != 4 * x->rank)
				return fail(s, dcol[r],
					    "%s: %u bytes, the %u dims of '%s' take %u",
					    key, dims[r].size, x->rank, x->name,
					    4 * x->rank);
			o->windows[next] = dims[r];
			rec[r].dwin = (int)next++;
		}
		dout = rec[1].dwin;
		f = field_find(pf, "scales");
		if (id == VPUX_SHAVE_KERNEL_RESIZE && f && !fcol[f - pf])
			resize_scales(&tens[0], &tens[1], params);
		if (shave_check(&c, rn))
			return -1;
		vasm_shave_args(id, rec, params, args);
		raw_size = lf_kernel_args_size(id);
	}
	if (el)
		return shave_like_elf(s, el, ref, rcol, rn, o, args) ||
		       kargs_add(s, args, raw_size, &o->args_offset) ?
		       -1 : (int)(o->args_size = raw_size, 0);
	if (kargs_add(s, args, raw_size, &o->args_offset))
		return fail(s, 1, "out of memory");
	o->args_size = raw_size;
	/*
	 * window 1 is written (the out memref), and so is the window of a
	 * dynamic out memref's dims; the others are read
	 */
	for (w = 0; w < (int)VPUX_LF_MAX_WINDOWS; w++)
		access(s, &o->windows[w], w == 1 || w == dout);
	return 0;
}

/* ---- ELF kernels (1.5, Documentation/vpux-asm.rst "ELF kernels") ---- */

/* append @n bytes at an 8-byte aligned offset of a growing blob */
static int blob_add(uint8_t **buf, uint32_t *cap, uint32_t *size,
		    const void *data, uint32_t n, uint32_t *off)
{
	uint32_t o = (*size + 7u) & ~7u;

	if (!n) {		/* nothing: offset 0, the blob unchanged */
		*off = 0;
		return 0;
	}
	if ((uint64_t)o + n > *cap) {
		uint64_t c = *cap ? *cap : 4096;
		uint8_t *p;

		while (c < (uint64_t)o + n)
			c *= 2;
		if (c > UINT32_MAX)
			return -1;
		p = realloc(*buf, c);
		if (!p)
			return -1;
		memset(p + *cap, 0, c - *cap);
		*buf = p;
		*cap = (uint32_t)c;
	}
	if (n)
		memcpy(*buf + o, data, n);
	*size = o + n;
	*off = o;
	return 0;
}

/* HEX into a malloc'ed buffer of *@n bytes, at most @max */
static int hex_bytes(struct st *s, const struct tok *t, const char *v,
		     uint32_t max, uint8_t **out, uint32_t *n)
{
	size_t l = strlen(v), i;
	uint8_t *p;

	if (l % 2 || l / 2 > max)
		return fail(s, t->col, "bad hex: an even number of digits, at most %u bytes",
			    max);
	p = malloc(l / 2 + 1);
	if (!p)
		return fail(s, t->col, "out of memory");
	for (i = 0; i < l / 2; i++) {
		unsigned int b;

		if (!isxdigit((unsigned char)v[2 * i]) ||
		    !isxdigit((unsigned char)v[2 * i + 1]) ||
		    sscanf(v + 2 * i, "%2x", &b) != 1) {
			free(p);
			return fail(s, t->col, "bad hex digit at byte %zu", i);
		}
		p[i] = (uint8_t)b;
	}
	*out = p;
	*n = (uint32_t)(l / 2);
	return 0;
}

static int find_kernel(const struct st *s, const char *name, uint32_t *k)
{
	uint32_t i;

	for (i = 0; i < s->img->n_kernels; i++)
		if (!strcmp(s->img->kernels[i].name, name)) {
			*k = i;
			return 0;
		}
	return -1;
}

/*
 * kernel NAME file=PATH         an SDK kernel (a linked RV32 ELF)
 * kernel NAME entry=N code=HEX  its WIN_D image, as vpux-dis prints it
 * ... kind=runtime              the runtime kernel (WIN_R), before file=
 */
static int stmt_kernel(struct st *s, struct tok *t, int n)
{
	struct lf_image *img = s->img;
	struct vpux_lf_kernel *k;
	uint8_t *code = NULL;
	uint32_t size = 0, entry = 0, idx, max = VPUX_SHAVE_CODE_MAX;
	long long x;
	int a, have_entry = 0, ret = 0, rt = 0;
	char what[4200];

	if (n < 3)
		return fail(s, t[0].col, "kernel NAME file=PATH | entry=N code=HEX");
	if (!t[1].s[0] || strlen(t[1].s) >= VPUX_LF_NAME_LEN || strchr(t[1].s, '='))
		return fail(s, t[1].col, "bad kernel name '%s' (1..%u characters)",
			    t[1].s, VPUX_LF_NAME_LEN - 1);
	if (!find_kernel(s, t[1].s, &idx))
		return fail(s, t[1].col, "kernel '%s' already declared", t[1].s);
	for (a = 2; a < n && !ret; a++) {
		char *key = t[a].s, *v = val(key);

		if (!v) {
			ret = fail(s, t[a].col, "expected key=value");
		} else if (!strcmp(key, "kind") && !code && !have_entry) {
			rt = !strcmp(v, "runtime");
			if (!rt && strcmp(v, "task"))
				ret = fail(s, t[a].col,
					   "kind=%s: task or runtime", v);
			max = rt ? VPUX_SHAVE_RT_CODE_MAX : VPUX_SHAVE_CODE_MAX;
		} else if (!strcmp(key, "file") && !code) {
			char path[4096];
			uint8_t *elf = NULL;
			long len;
			FILE *f;

			f = NULL;
			if (v[0] != '/' && s->o->kernel_dir) {
				snprintf(path, sizeof(path), "%s/%s",
					 s->o->kernel_dir, v);
				f = fopen(path, "rb");
			}
			if (!f && v[0] != '/' && s->o->base_dir)
				snprintf(path, sizeof(path), "%s/%s",
					 s->o->base_dir, v);
			else if (!f)
				snprintf(path, sizeof(path), "%s", v);
			if (!f)
				f = fopen(path, "rb");
			if (!f)
				return fail(s, t[a].col, "cannot open '%s'", path);
			if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 &&
			    len < (16l << 20) && !fseek(f, 0, SEEK_SET) &&
			    (elf = malloc((size_t)len)) &&
			    fread(elf, 1, (size_t)len, f) == (size_t)len) {
				snprintf(what, sizeof(what), "'%s'", path);
				if (lf_kernel_from_elf_at(elf, (size_t)len,
							  what, rt, &code,
							  &size, &entry))
					ret = fail(s, t[a].col, "%s",
						   vpux_last_error());
				have_entry = 1;
			} else {
				ret = fail(s, t[a].col, "cannot read '%s'", path);
			}
			free(elf);
			fclose(f);
		} else if (!strcmp(key, "code") && !code) {
			ret = hex_bytes(s, &t[a], v, max, &code, &size);
		} else if (!strcmp(key, "entry")) {
			if (num(s, &t[a], v, 0, max, &x))
				ret = -1;
			entry = (uint32_t)x;
			have_entry = 2;
		} else {
			ret = fail(s, t[a].col, "unknown key '%s' for kernel (file=, or entry= and code=; kind=)",
				   key);
		}
	}
	if (!ret && !code)
		ret = fail(s, t[0].col, "kernel %s: file= or code= needed", t[1].s);
	if (!ret && !have_entry)
		ret = fail(s, t[0].col, "kernel %s: code= needs entry=", t[1].s);
	if (!ret && (size < 4 || size % 4))
		ret = fail(s, t[0].col, "kernel %s: %u bytes of code: 4.., a multiple of 4",
			   t[1].s, size);
	if (!ret && (entry >= size || entry % 2))
		ret = fail(s, t[0].col, "kernel %s: entry %u odd or not below the %u bytes of code",
			   t[1].s, entry, size);
	if (!ret && grow((void **)&img->kernels, &s->kncap, img->n_kernels,
			 sizeof(*img->kernels)))
		ret = fail(s, 1, "out of memory");
	if (!ret) {
		k = &img->kernels[img->n_kernels];
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "%s", t[1].s);
		k->kind = rt ? VPUX_LF_KERNEL_RUNTIME : VPUX_LF_KERNEL_TASK;
		k->code_size = size;
		k->entry = entry;
		if (blob_add(&s->kc, &s->kccap, &img->kcode_size, code, size,
			     &k->code_offset))
			ret = fail(s, 1, "out of memory");
		else
			img->n_kernels++;
		img->kcode = s->kc;
	}
	free(code);
	return ret;
}

/* stack TILE BYTES: the stack size of the tile's SHAVE */
static int stmt_stack(struct st *s, struct tok *t, int n)
{
	struct lf_image *img = s->img;
	long long tile, bytes;

	if (n != 3)
		return fail(s, t[0].col, "stack TILE BYTES");
	if (num(s, &t[1], t[1].s, 0, VPUX_LF_CMX_TILES - 1, &tile) ||
	    num(s, &t[2], t[2].s, VPUX_SHAVE_STACK_MIN, VPUX_SHAVE_STACK_MAX,
		&bytes))
		return -1;
	if (bytes % VPUX_SHAVE_STACK_ALIGN)
		return fail(s, t[2].col, "%lld: a multiple of %u", bytes,
			    VPUX_SHAVE_STACK_ALIGN);
	while (img->n_kstacks <= (uint32_t)tile) {
		if (grow((void **)&img->kstacks, &s->kscap, img->n_kstacks,
			 sizeof(*img->kstacks)))
			return fail(s, 1, "out of memory");
		img->kstacks[img->n_kstacks++].stack_size = 0;
	}
	if (img->kstacks[tile].stack_size)
		return fail(s, t[1].col, "tile %lld's stack already given", tile);
	img->kstacks[tile].stack_size = (uint32_t)bytes;
	return 0;
}

static void elf_memref(struct vpux_memref *m, uint32_t off,
		       const struct vpux_lf_tensor *t)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->addr = VPUX_SHAVE_WIN_F + off;
	m->is_static = 1;
	m->rank = t->rank;
	m->data_type = t->data_type;
	m->dims_order = t->dims_order;
	for (i = 0; i < t->rank && i < VPUX_MEMREF_MAX_RANK; i++) {
		m->dims[i] = t->dims[i];
		m->strides[i] = t->strides[i];
	}
}

/* in=T,T.. / out=T,T..: memrefs of whole tensors inside WIN_F */
static int elf_memrefs(struct st *s, const struct tok *t, char *list,
		       const struct vpux_lf_ref *wf, uint8_t *args,
		       uint32_t *n, uint32_t *mask, int out, uint32_t *outmask)
{
	const struct vpux_lf_tensor *w = &s->img->tensors[wf->tensor];
	char *save = NULL, *name;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		const struct vpux_lf_tensor *x;
		uint64_t lo = w->offset + wf->offset;
		uint32_t i;

		if (find_tensor(s, name, &i))
			return fail(s, t->col, "unknown tensor '%s'", name);
		x = &s->img->tensors[i];
		if (x->region != w->region || x->offset < lo ||
		    x->offset + x->size > lo + wf->size)
			return fail(s, t->col,
				    "tensor '%s' is not inside win_f (tensor '%s' [%u, +%u))",
				    name, w->name, wf->offset, wf->size);
		if (x->dyn_dims)
			return fail(s, t->col,
				    "tensor '%s' has dynamic dims: an ELF kernel's memrefs are static",
				    name);
		if (*n == 32 || (*n + 1) * VPUX_LF_MEMREF_SIZE > VPUX_SHAVE_ARGS_MAX)
			return fail(s, t->col, "too many memrefs");
		elf_memref((struct vpux_memref *)(void *)(args +
			   *n * VPUX_LF_MEMREF_SIZE), (uint32_t)(x->offset - lo), x);
		*mask |= 1u << *n;
		if (out)
			*outmask |= 1u << *n;
		(*n)++;
	}
	return 0;
}

/*
 * The ELF op of shave elf ... like=K: the arguments the built-in kernel
 * K would get (stmt_shave_op()), each memref a whole tensor inside
 * WIN_F; the op runs the ELF kernel with WIN_F its only window.
 */
static int shave_like_elf(struct st *s,
			  const struct elf_like *el,
			  const struct vpux_lf_ref *ref, const int *rcol,
			  const char *const *rn, struct vpux_lf_shave *o,
			  uint8_t *args)
{
	struct lf_image *img = s->img;
	const struct vpux_lf_tensor *w = &img->tensors[el->win_f.tensor];
	uint64_t lo = w->offset + el->win_f.offset;
	struct vpux_lf_kinvocation v = el->v;
	int r;

	for (r = 0; rn[r]; r++) {
		const struct vpux_lf_tensor *x = &img->tensors[ref[r].tensor];
		struct vpux_memref m;

		if (!ref[r].size)
			continue;
		if (ref[r].offset || ref[r].size != x->size)
			return fail(s, rcol[r],
				    "like=: %s= is tensor '%s' whole, not a range",
				    rn[r], x->name);
		if (x->dyn_dims)
			return fail(s, rcol[r],
				    "tensor '%s' has dynamic dims: an ELF kernel's memrefs are static",
				    x->name);
		if (x->region != w->region || x->offset < lo ||
		    x->offset + x->size > lo + el->win_f.size)
			return fail(s, rcol[r],
				    "tensor '%s' is not inside win_f (tensor '%s' [%u, +%u))",
				    x->name, w->name, el->win_f.offset,
				    el->win_f.size);
		memcpy(&m, args + r * VPUX_LF_MEMREF_SIZE, sizeof(m));
		m.addr = VPUX_SHAVE_WIN_F + (uint32_t)(x->offset - lo);
		memcpy(args + r * VPUX_LF_MEMREF_SIZE, &m, sizeof(m));
		v.memrefs |= 1u << r;
		if (r == 1)
			v.memrefs_out |= 1u << r;
	}
	if (grow((void **)&img->kinvs, &s->kicap, img->n_kinvs,
		 sizeof(*img->kinvs)))
		return fail(s, 1, "out of memory");
	o->kernel_id = VPUX_SHAVE_KERNEL_ELF;
	memset(o->windows, 0, sizeof(o->windows));
	o->windows[0] = el->win_f;
	v.op = img->n_shave - 1;
	img->kinvs[img->n_kinvs++] = v;
	/* WIN_F is read and written back */
	access(s, &o->windows[0], 1);
	return 0;
}

/*
 * shave elf KERNEL win_f=OP like=K [tile=N] [budget=N] [in=T] [out=T]
 *                  [the tensors and fields of shave K]...
 */
static int stmt_shave_elf_like(struct st *s, struct tok *t, int n)
{
	struct tok nt[64];
	struct elf_like el;
	int a, nn = 1, kcol = 0;
	long long x;

	memset(&el, 0, sizeof(el));
	if (n > (int)(sizeof(nt) / sizeof(nt[0])))
		return fail(s, t[0].col, "too many words");
	if (find_kernel(s, t[2].s, &el.v.kernel))
		return fail(s, t[2].col,
			    "unknown kernel '%s' (declare it first: kernel NAME file=PATH)",
			    t[2].s);
	nt[0] = t[0];
	for (a = 3; a < n; a++) {
		char *k = t[a].s, *v = val(k);
		int ret = 0;

		if (!v)
			return fail(s, t[a].col, "expected key=value");
		if (!strcmp(k, "like")) {
			if (!strncmp(v, "kernel=", 7))
				return fail(s, t[a].col,
					    "like=: a built-in kernel by name, not kernel=N");
			nt[nn].s = v;
			nt[nn].col = t[a].col + 5;
			kcol = nn++;
		} else if (!strcmp(k, "win_f")) {
			ret = operand(s, &t[a], v, &el.win_f);
		} else if (!strcmp(k, "tile")) {
			ret = num(s, &t[a], v, 0, VPUX_LF_CMX_TILES - 1, &x);
			el.v.tile = (uint32_t)x;
		} else if (!strcmp(k, "budget")) {
			ret = num(s, &t[a], v, 0, VPUX_SHAVE_BUDGET_MAX, &x);
			el.v.budget = (uint32_t)x;
		} else if (!strcmp(k, "args") || !strcmp(k, "params") ||
			   !strcmp(k, "data") || !strcmp(k, "memrefs") ||
			   !strcmp(k, "memrefs_out")) {
			ret = fail(s, t[a].col,
				   "like= gives the arguments: no %s=", k);
		} else {
			v[-1] = '=';	/* val() cut it: pass key=value on */
			nt[nn++] = t[a];
		}
		if (ret)
			return ret;
	}
	if (!el.win_f.size)
		return fail(s, t[0].col, "like= needs win_f=");
	/* the built-in kernel's name first, as shave K ... has it */
	if (kcol != 1) {
		struct tok k = nt[kcol];

		memmove(&nt[2], &nt[1], (size_t)(kcol - 1) * sizeof(nt[0]));
		nt[1] = k;
	}
	return stmt_shave_op(s, nt, nn, &el);
}

/*
 * shave elf KERNEL win_f=OP [in=T,..] [out=T,..] [params=HEX]
 *                  [data=HEX] [tile=N] [budget=N]
 * shave elf KERNEL win_f=OP args=HEX [memrefs=M] [memrefs_out=M] ...
 * shave elf KERNEL win_f=OP like=K ...: stmt_shave_elf_like()
 */
static int stmt_shave_elf(struct st *s, struct tok *t, int n)
{
	struct lf_image *img = s->img;
	uint8_t args[VPUX_SHAVE_ARGS_MAX], params[VPUX_SHAVE_ARGS_MAX];
	uint8_t *data = NULL, *hex = NULL;
	struct vpux_lf_kinvocation v;
	struct vpux_lf_shave *o;
	uint32_t nargs = 0, nmem = 0, hn, pn = 0;
	char *ins = NULL, *outs = NULL;
	int a, raw = 0, ret = 0, tcol = 0, have_params = 0;
	long long x;

	memset(&v, 0, sizeof(v));
	memset(args, 0, sizeof(args));
	if (n < 3)
		return fail(s, t[0].col, "shave elf KERNEL win_f=OP ...");
	for (a = 3; a < n; a++)
		if (!strncmp(t[a].s, "like=", 5))
			return stmt_shave_elf_like(s, t, n);
	if (find_kernel(s, t[2].s, &v.kernel))
		return fail(s, t[2].col,
			    "unknown kernel '%s' (declare it first: kernel NAME file=PATH)",
			    t[2].s);
	o = new_op(s, LF_SHAVE);
	if (!o)
		return fail(s, 1, "out of memory");
	o->kernel_id = VPUX_SHAVE_KERNEL_ELF;
	v.op = img->n_shave - 1;
	for (a = 3; a < n && !ret; a++) {
		char *k = t[a].s, *val_ = val(k);

		if (!val_)
			return fail(s, t[a].col, "expected key=value");
		if (!strcmp(k, "wait") || !strcmp(k, "update")) {
			ret = deps_key(s, &t[a], k, val_, &o->deps);
		} else if (!strcmp(k, "win_f")) {
			ret = operand(s, &t[a], val_, &o->windows[0]);
		} else if (!strcmp(k, "in") || !strcmp(k, "out")) {
			if (*k == 'i')
				ins = val_;
			else
				outs = val_;
			tcol = tcol ? tcol : t[a].col;
		} else if (!strcmp(k, "args") || !strcmp(k, "params")) {
			if (hex_bytes(s, &t[a], val_, VPUX_SHAVE_ARGS_MAX, &hex,
				      &hn))
				return -1;
			memcpy(*k == 'a' ? args : params, hex, hn);
			if (*k == 'a') {
				raw = 1;
				nargs = hn;
			} else {
				pn = hn;
				have_params = 1;
			}
			free(hex);
		} else if (!strcmp(k, "data")) {
			free(data);
			ret = hex_bytes(s, &t[a], val_, VPUX_SHAVE_DATA_MAX,
					&data, &v.data_size);
		} else if (!strcmp(k, "tile")) {
			ret = num(s, &t[a], val_, 0, VPUX_LF_CMX_TILES - 1, &x);
			v.tile = (uint32_t)x;
		} else if (!strcmp(k, "budget")) {
			ret = num(s, &t[a], val_, 0, VPUX_SHAVE_BUDGET_MAX, &x);
			v.budget = (uint32_t)x;
		} else if (!strcmp(k, "memrefs") || !strcmp(k, "memrefs_out")) {
			ret = num(s, &t[a], val_, 0, UINT32_MAX, &x);
			if (k[7])
				v.memrefs_out = (uint32_t)x;
			else
				v.memrefs = (uint32_t)x;
		} else {
			ret = fail(s, t[a].col, "unknown key '%s' for shave elf",
				   k);
		}
	}
	if (!ret && !o->windows[0].size && (ins || outs))
		ret = fail(s, tcol, "in=/out= need win_f=");
	if (!ret && raw && (ins || outs || have_params))
		ret = fail(s, tcol ? tcol : t[0].col,
			   "args= is the whole record: no in=, out= or params=");
	if (!ret && !raw) {
		if (ins)
			ret = elf_memrefs(s, &t[0], ins, &o->windows[0], args,
					  &nmem, &v.memrefs, 0, &v.memrefs_out);
		if (!ret && outs)
			ret = elf_memrefs(s, &t[0], outs, &o->windows[0], args,
					  &nmem, &v.memrefs, 1, &v.memrefs_out);
		if (!ret && nmem * VPUX_LF_MEMREF_SIZE + pn > VPUX_SHAVE_ARGS_MAX)
			ret = fail(s, t[0].col, "arguments above %u bytes",
				   VPUX_SHAVE_ARGS_MAX);
		if (!ret) {
			memcpy(args + nmem * VPUX_LF_MEMREF_SIZE, params, pn);
			nargs = nmem * VPUX_LF_MEMREF_SIZE + pn;
		}
	}
	if (!ret && (v.data_size % 4))
		ret = fail(s, t[0].col, "data=: %u bytes, a multiple of 4",
			   v.data_size);
	if (!ret && (blob_add(&s->kd, &s->kdcap, &img->kdata_size, data,
			      v.data_size, &v.data_offset) ||
		     kargs_add(s, args, nargs, &o->args_offset) ||
		     grow((void **)&img->kinvs, &s->kicap, img->n_kinvs,
			  sizeof(*img->kinvs))))
		ret = fail(s, 1, "out of memory");
	free(data);
	if (ret)
		return ret;
	if (!v.data_size)
		v.data_offset = 0;
	img->kdata = s->kd;
	o->args_size = nargs;
	img->kinvs[img->n_kinvs++] = v;
	/* WIN_F is read and written back */
	access(s, &o->windows[0], 1);
	return 0;
}

static int stmt_header(struct st *s, struct tok *t, int n)
{
	long long x;

	if (n != 2)
		return fail(s, t[0].col, "expected '%s VALUE'", t[0].s);
	if (!strcmp(t[0].s, "network")) {
		if (strlen(t[1].s) >= VPUX_LF_NAME_LEN)
			return fail(s, t[1].col, "name too long");
		strcpy(s->img->hdr.name, t[1].s);
		return 0;
	}
	if (num(s, &t[1], t[1].s, 0, !strcmp(t[0].s, "target") ?
		UINT32_MAX : (long long)VPUX_LF_REGION_MAX, &x))
		return -1;
	if (!strcmp(t[0].s, "target"))
		s->img->hdr.target = (uint32_t)x;
	else if (!strcmp(t[0].s, "caps"))
		s->img->hdr.caps = (uint64_t)x, s->have_caps = 1;
	else if (!strcmp(t[0].s, "scratch"))
		s->sdecl = (uint64_t)x, s->have_scratch = 1;
	else if (!strcmp(t[0].s, "weights"))
		s->wdecl = (uint64_t)x, s->have_weights = 1;
	else if (!strcmp(t[0].s, "barriers"))
		s->bdecl = (uint32_t)x, s->explicit_deps = 1;
	return 0;
}

static int overlap(const struct acc *a, const struct acc *b)
{
	return a->region == b->region && a->lo < b->hi && b->lo < a->hi &&
	       (a->wr || b->wr);
}

static void count_barriers(struct st *s);

/*
 * Implicit barriers: op j depends on an earlier op i when they touch
 * overlapping bytes and one of them writes. Edges implied by others are
 * dropped; each remaining producer gets one barrier its consumers wait on,
 * and a consumer of more than VPUX_LF_MAX_WAITS producers a join barrier
 * they all update.
 */
static int implicit_barriers(struct st *s)
{
	uint32_t n = s->n_ops, words = (n + 63) / 64, i, j, b = 0;
	uint64_t *anc = calloc((size_t)n * words + 1, sizeof(uint64_t));
	uint64_t *dep = calloc((size_t)n * words + 1, sizeof(uint64_t));
	int32_t *bar = malloc((n + 1) * sizeof(*bar));
	int32_t *join = malloc((n + 1) * sizeof(*join));
	int ret = 0;

	if (!anc || !dep || !bar || !join) {
		ret = fail(s, 1, "out of memory");
		goto out;
	}
	for (j = 0; j < n; j++) {
		uint64_t *dj = dep + (size_t)j * words, *aj = anc + (size_t)j * words;

		bar[j] = -1;
		for (i = j; i-- > 0;) {
			unsigned int x, y;
			int hit = 0;

			if (aj[i / 64] >> (i % 64) & 1)
				continue;	/* already implied */
			for (x = 0; x < s->ops[i].n_acc && !hit; x++)
				for (y = 0; y < s->ops[j].n_acc && !hit; y++)
					hit = overlap(&s->ops[i].acc[x],
						      &s->ops[j].acc[y]);
			if (!hit)
				continue;
			dj[i / 64] |= 1ull << (i % 64);
			aj[i / 64] |= 1ull << (i % 64);
			for (x = 0; x < words; x++)
				aj[x] |= anc[(size_t)i * words + x];
		}
	}
	/*
	 * An op with more dependencies than it can wait on waits on a join
	 * barrier of its own instead, which each of them updates too.
	 */
	for (j = 0; j < n; j++) {
		uint32_t nd = 0;

		join[j] = -1;
		for (i = 0; i < j; i++)
			nd += dep[(size_t)j * words + i / 64] >> (i % 64) & 1;
		if (nd > VPUX_LF_MAX_WAITS) {
			join[j] = (int32_t)b++;
			continue;
		}
		for (i = 0; i < j; i++)
			if (dep[(size_t)j * words + i / 64] >> (i % 64) & 1 &&
			    bar[i] < 0)
				bar[i] = (int32_t)b++;
	}
	s->img->n_barriers = b;
	s->img->barriers = calloc(b + 1, sizeof(*s->img->barriers));
	if (!s->img->barriers) {
		ret = fail(s, 1, "out of memory");
		goto out;
	}
	for (j = 0; j < n; j++) {
		struct vpux_lf_deps *d = (struct vpux_lf_deps *)
			lf_op_deps(s->img, s->ops[j].kind, s->ops[j].idx);

		if (bar[j] >= 0)
			d->updates[d->num_updates++] = (uint16_t)bar[j];
		for (i = j + 1; i < n; i++) {
			if (join[i] < 0 ||
			    !(dep[(size_t)i * words + j / 64] >> (j % 64) & 1))
				continue;
			if (d->num_updates == VPUX_LF_MAX_UPDATES) {
				s->line = s->ops[j].line;
				ret = fail(s, 1,
					   "op feeds more than %u barriers (later ops that each depend on more than %u); write barriers explicitly",
					   VPUX_LF_MAX_UPDATES, VPUX_LF_MAX_WAITS);
				goto out;
			}
			d->updates[d->num_updates++] = (uint16_t)join[i];
		}
		if (join[j] >= 0) {
			d->waits[d->num_waits++] = (uint16_t)join[j];
			continue;
		}
		for (i = 0; i < j; i++)
			if (dep[(size_t)j * words + i / 64] >> (i % 64) & 1)
				d->waits[d->num_waits++] = (uint16_t)bar[i];
	}
	count_barriers(s);
out:
	free(anc);
	free(dep);
	free(bar);
	free(join);
	return ret;
}

static void count_barriers(struct st *s)
{
	uint32_t j, x;

	for (j = 0; j < s->n_ops; j++) {
		const struct vpux_lf_deps *d =
			lf_op_deps(s->img, s->ops[j].kind, s->ops[j].idx);

		for (x = 0; x < d->num_waits; x++)
			s->img->barriers[d->waits[x]].consumer_count++;
		for (x = 0; x < d->num_updates; x++)
			s->img->barriers[d->updates[x]].producer_count++;
	}
}

static int explicit_barriers(struct st *s)
{
	s->img->n_barriers = s->bdecl;
	s->img->barriers = calloc(s->bdecl + 1, sizeof(*s->img->barriers));
	if (!s->img->barriers)
		return fail(s, 1, "out of memory");
	count_barriers(s);
	return 0;
}

static int is_ident(const char *p)
{
	if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	for (; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

/*
 * symbol NAME [axis|scalar] MIN..MAX [width=4|8]
 * symbol NAME MIN MAX			(the 1.0 form: an axis, width 8)
 */
static int stmt_symbol(struct st *s, struct tok *t, int n)
{
	struct lf_image *img = s->img;
	struct vpux_lf_symbol *y, *arr;
	uint32_t kind = VPUX_LF_SYM_AXIS, width = 8, tmp;
	long long lo, hi, w;
	char *dots;
	int a = 2;

	if (n < 3)
		return fail(s, t[0].col,
			    "expected 'symbol NAME [axis|scalar] MIN..MAX [width=4|8]'");
	if (strlen(t[1].s) >= VPUX_LF_NAME_LEN)
		return fail(s, t[1].col, "name too long");
	if (!is_ident(t[1].s))
		return fail(s, t[1].col,
			    "symbol name '%s': letters, digits and '_', not starting with a digit",
			    t[1].s);
	if (!find_symbol(s, t[1].s, strlen(t[1].s), &tmp))
		return fail(s, t[1].col, "symbol '%s' already defined", t[1].s);
	if (img->n_symbols == VPUX_LF_MAX_SYMBOLS)
		return fail(s, t[0].col, "more than %u symbols",
			    VPUX_LF_MAX_SYMBOLS);
	if (n == 4 && !strstr(t[2].s, "..") && !strstr(t[3].s, "..") &&
	    !strchr(t[3].s, '=')) {
		/* the 1.0 form */
		if (num(s, &t[2], t[2].s, 0, UINT32_MAX, &lo) ||
		    num(s, &t[3], t[3].s, lo, UINT32_MAX, &hi))
			return -1;
		a = 4;
	} else {
		if (!vasm_value_of(vasm_sym_kinds, t[a].s, &kind))
			a++;
		if (a >= n || !(dots = strstr(t[a].s, "..")))
			return fail(s, a < n ? t[a].col : t[0].col,
				    "expected the bounds MIN..MAX");
		*dots = 0;
		if (num(s, &t[a], t[a].s, 0, UINT32_MAX, &lo) ||
		    num(s, &t[a], dots + 2, lo, UINT32_MAX, &hi))
			return -1;
		a++;
	}
	for (; a < n; a++) {
		char *k = t[a].s, *v = val(k);

		if (!v || strcmp(k, "width"))
			return fail(s, t[a].col, "unexpected '%s' (width=4 or width=8)",
				    t[a].s);
		if (num(s, &t[a], v, 4, 8, &w))
			return -1;
		if (w != 4 && w != 8)
			return fail(s, t[a].col, "width=%lld: 4 or 8 bytes", w);
		width = (uint32_t)w;
	}
	arr = realloc(img->symbols, (img->n_symbols + 1) * sizeof(*arr));
	if (!arr)
		return fail(s, 1, "out of memory");
	img->symbols = arr;
	y = &arr[img->n_symbols++];
	memset(y, 0, sizeof(*y));
	strcpy(y->name, t[1].s);
	y->kind = kind;
	y->min = lo;
	y->max = hi;
	y->hash = lf_fnv1a(y->name);
	y->width = width;
	return 0;
}

/* ---- plans ---- */

/* an expression being compiled: infix text -> DLA_EXPR_* tokens */
struct xp {
	struct st *s;
	const char *text;	/* the expression */
	const char *p;
	int col;		/* column of text[0] */
	int depth;		/* loop levels it may name; -1: an extent */
	uint32_t tok[DLA_PLAN_MAX_EXPR + 2];
	uint32_t n;
};

static int xfail(struct xp *x, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int xfail(struct xp *x, const char *at, const char *fmt, ...)
{
	va_list ap;

	fprintf(x->s->err, "%s:%d:%d: error: ", x->s->file, x->s->line,
		x->col + (int)(at - x->text));
	va_start(ap, fmt);
	vfprintf(x->s->err, fmt, ap);
	va_end(ap);
	fputc('\n', x->s->err);
	return -1;
}

static void xskip(struct xp *x)
{
	while (*x->p == ' ' || *x->p == '\t' || *x->p == '\r')
		x->p++;
}

static int xemit(struct xp *x, const char *at, uint32_t tok)
{
	if (x->n == DLA_PLAN_MAX_EXPR)
		return xfail(x, at, "expression longer than %u tokens",
			     DLA_PLAN_MAX_EXPR);
	x->tok[x->n++] = tok;
	return 0;
}

static int xexpr(struct xp *x, int *bare);

static int xident(const char *p, size_t *len)
{
	size_t l = 0;

	if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	while (p[l] == '_' || (p[l] >= 'a' && p[l] <= 'z') ||
	       (p[l] >= 'A' && p[l] <= 'Z') || (p[l] >= '0' && p[l] <= '9'))
		l++;
	*len = l;
	return 1;
}

static int xexpect(struct xp *x, char c)
{
	xskip(x);
	if (*x->p != c)
		return xfail(x, x->p, "expected '%c'", c);
	x->p++;
	return 0;
}

/*
 * A binary operator's right operand was just compiled: a bare literal
 * (its CONST token last) becomes the operator's immediate form.
 */
static int xbinary(struct xp *x, const char *at, uint32_t op, int bare)
{
	if (bare && DLA_EXPR_OP(x->tok[x->n - 1]) == DLA_EXPR_CONST) {
		x->tok[x->n - 1] = DLA_EXPR_TOKEN(op + DLA_EXPR_IMM,
						  DLA_EXPR_ARG(x->tok[x->n - 1]));
		return 0;
	}
	return xemit(x, at, DLA_EXPR_TOKEN(op, 0));
}

/* NUMBER | SYMBOL | idx(L) | off(L) | len(L) | f(E, E) | (E) */
static int xprimary(struct xp *x, int *bare)
{
	const struct vasm_expr_op *o;
	const char *at;
	uint32_t v, sym;
	size_t l;

	xskip(x);
	at = x->p;
	*bare = 0;
	if (*x->p == '(') {
		x->p++;
		if (xexpr(x, bare))
			return -1;
		*bare = 0;	/* (n): a CONST push, never an immediate */
		return xexpect(x, ')');
	}
	if (*x->p >= '0' && *x->p <= '9') {
		unsigned long long n;
		char *end;
		int hex8;

		errno = 0;
		n = strtoull(x->p, &end, 0);
		if (errno || n > UINT32_MAX)
			return xfail(x, at, "constant above 2^32 - 1");
		hex8 = x->p[0] == '0' && (x->p[1] == 'x' || x->p[1] == 'X') &&
		       end - x->p == 10;
		x->p = end;
		if (xident(x->p, &l))
			return xfail(x, at, "bad number");
		if (n < (1u << 24) && !hex8) {
			*bare = 1;
			return xemit(x, at, DLA_EXPR_TOKEN(DLA_EXPR_CONST, n));
		}
		/* CONST32: values from 2^24 and every 0x%08x literal */
		if (xemit(x, at, DLA_EXPR_TOKEN(DLA_EXPR_CONST32, 0)))
			return -1;
		return xemit(x, at, (uint32_t)n);
	}
	if (!xident(x->p, &l))
		return *x->p ? xfail(x, at, "expected an operand, not '%c'", *x->p) :
			       xfail(x, at, "expected an operand");
	x->p += l;
	xskip(x);
	if (*x->p != '(') {
		if (find_symbol(x->s, at, l, &sym))
			return xfail(x, at, "unknown symbol '%.*s'", (int)l, at);
		return xemit(x, at, DLA_EXPR_TOKEN(DLA_EXPR_SYM, sym));
	}
	{
		char name[8];

		snprintf(name, sizeof(name), "%.*s", (int)(l < 7 ? l : 7), at);
		if (l < 7 && !vasm_value_of(vasm_loop_values, name, &v)) {
			unsigned long lv;
			char *end;

			x->p++;
			xskip(x);
			lv = strtoul(x->p, &end, 10);
			if (end == x->p)
				return xfail(x, x->p, "%s(LEVEL): expected a loop level 0..%u",
					     name, VPUX_LF_PLAN_MAX_DEPTH - 1);
			if (x->depth < 0)
				return xfail(x, at,
					     "%s(): an extent may use symbols and constants only",
					     name);
			if (lv >= (unsigned long)x->depth)
				return xfail(x, at,
					     "%s(%lu): no loop level %lu in a block %d deep",
					     name, lv, lv, x->depth);
			x->p = end;
			if (xemit(x, at, DLA_EXPR_TOKEN(v, (uint32_t)lv)))
				return -1;
			return xexpect(x, ')');
		}
		for (o = vasm_expr_ops; o->name; o++)
			if (!o->prec && strlen(o->name) == l &&
			    !memcmp(o->name, at, l))
				break;
		if (!o->name)
			return xfail(x, at,
				     "unknown function '%.*s' (min, max, cdiv, idx, off, len)",
				     (int)l, at);
		x->p++;
		if (xexpr(x, bare) || xexpect(x, ','))
			return -1;
		if (xexpr(x, bare) || xbinary(x, at, o->op, *bare))
			return -1;
		*bare = 0;
		return xexpect(x, ')');
	}
}

static const struct vasm_expr_op *xinfix(struct xp *x, int prec)
{
	const struct vasm_expr_op *o;

	xskip(x);
	for (o = vasm_expr_ops; o->name; o++)
		if (o->prec == prec && *x->p == o->name[0])
			return o;
	return NULL;
}

static int xterm(struct xp *x, int *bare)
{
	const struct vasm_expr_op *o;

	if (xprimary(x, bare))
		return -1;
	while ((o = xinfix(x, 2))) {
		const char *at = x->p++;

		if (xprimary(x, bare) || xbinary(x, at, o->op, *bare))
			return -1;
		*bare = 0;
	}
	return 0;
}

static int xexpr(struct xp *x, int *bare)
{
	const struct vasm_expr_op *o;

	if (xterm(x, bare))
		return -1;
	while ((o = xinfix(x, 1))) {
		const char *at = x->p++;

		if (xterm(x, bare) || xbinary(x, at, o->op, *bare))
			return -1;
		*bare = 0;
	}
	return 0;
}

/*
 * Compile @text (at column @col) into the expression pool; @depth loop
 * levels visible (-1: an extent). @first/@len: where it landed.
 */
static int compile_expr(struct st *s, const char *text, int col, int depth,
			uint32_t *first, uint32_t *len)
{
	struct lf_image *img = s->img;
	struct xp x;
	uint32_t i, sp = 0, peak = 0;
	int bare;

	memset(&x, 0, sizeof(x));
	x.s = s;
	x.text = x.p = text;
	x.col = col;
	x.depth = depth;
	xskip(&x);
	if (!*x.p)
		return xfail(&x, x.p, "expected an expression");
	if (xexpr(&x, &bare))
		return -1;
	xskip(&x);
	if (*x.p)
		return xfail(&x, x.p, "unexpected '%c' after the expression", *x.p);
	for (i = 0; i < x.n; i++) {
		uint32_t op = DLA_EXPR_OP(x.tok[i]);

		if (op == DLA_EXPR_CONST32)
			i++;
		if (op < DLA_EXPR_ADD)
			sp++;
		else if (op < DLA_EXPR_ADD + DLA_EXPR_IMM)
			sp--;
		peak = sp > peak ? sp : peak;
	}
	if (peak > DLA_PLAN_STACK)
		return xfail(&x, text + strspn(text, " \t"),
			     "expression needs %u stack slots (at most %u): fewer nested parentheses",
			     peak, DLA_PLAN_STACK);
	if (grow((void **)&img->expr, &s->ecap, img->n_expr + x.n,
		 sizeof(*img->expr)))
		return fail(s, 1, "out of memory");
	memcpy(img->expr + img->n_expr, x.tok, x.n * sizeof(*x.tok));
	*first = img->n_expr;
	*len = x.n;
	img->n_expr += x.n;
	return 0;
}

static struct vpux_lf_plan_block *cur_block(struct st *s)
{
	return s->level ? &s->img->blocks[s->img->n_blocks - 1] : NULL;
}

/* inside the body of the open block (the innermost loop, or block { }) */
static int in_body(const struct st *s, const struct vpux_lf_plan_block *b)
{
	return b && (uint32_t)s->level == (b->depth ? b->depth : 1);
}

/*
 * loop EXTENT tile T {	a loop level (a new block, or one level deeper
 *			in the open one while it has no templates)
 * block {		a block without loops (one iteration)
 */
static int stmt_open(struct st *s, struct tok *t, int n)
{
	struct lf_image *img = s->img;
	struct vpux_lf_plan_block *b = cur_block(s);
	int is_loop = !strcmp(t[0].s, "loop");
	long long tile = 0;

	if (strcmp(t[n - 1].s, "{"))
		return fail(s, t[n - 1].col + (int)strlen(t[n - 1].s),
			    "expected '{' at the end of the line");
	if (!is_loop && n != 2)
		return fail(s, t[1].col, "expected 'block {'");
	if (is_loop && (n < 5 || strcmp(t[n - 3].s, "tile")))
		return fail(s, t[0].col, "expected 'loop EXTENT tile T {'");
	if (b && !is_loop)
		return fail(s, t[0].col, "a block cannot be inside a loop or a block");
	if (b && !b->depth)
		return fail(s, t[0].col, "a block { } has no loops: write the loop instead of it");
	if (b && (b->n_templates || (uint32_t)s->level != b->depth))
		return fail(s, t[0].col,
			    "a loop inside a loop must come first and alone: templates go in the innermost loop");
	if (b && b->depth == VPUX_LF_PLAN_MAX_DEPTH)
		return fail(s, t[0].col, "loops nest at most %u deep",
			    VPUX_LF_PLAN_MAX_DEPTH);
	if (is_loop && num(s, &t[n - 2], t[n - 2].s, 1, UINT32_MAX, &tile))
		return -1;
	if (!b) {
		if (img->n_blocks == DLA_PLAN_MAX_BLOCKS)
			return fail(s, t[0].col, "more than %u blocks",
				    DLA_PLAN_MAX_BLOCKS);
		if (grow((void **)&img->blocks, &s->bcap, img->n_blocks,
			 sizeof(*b)))
			return fail(s, 1, "out of memory");
		b = &img->blocks[img->n_blocks++];
		memset(b, 0, sizeof(*b));
		b->first_template = img->n_templates;
	}
	if (is_loop) {
		struct vpux_lf_plan_loop *l = &b->loop[b->depth];
		/* the extent: the raw text between "loop" and "tile" */
		int c0 = t[1].col, c1 = t[n - 3].col;
		char *e = strndup(s->raw + c0 - 1, (size_t)(c1 - c0));
		int ret;

		if (!e)
			return fail(s, 1, "out of memory");
		ret = compile_expr(s, e, c0, -1, &l->extent, &l->extent_len);
		free(e);
		if (ret)
			return -1;
		l->tile = (uint32_t)tile;
		b->depth++;
	}
	s->open_line[s->level] = s->line;
	s->open_col[s->level] = t[0].col;
	s->level++;
	return 0;
}

static int stmt_close(struct st *s, struct tok *t, int n)
{
	struct vpux_lf_plan_block *b = cur_block(s);

	if (n != 1)
		return fail(s, t[1].col, "'}' stands alone on its line");
	if (!b)
		return fail(s, t[0].col, "'}' without an open loop or block");
	if (--s->level == 0 && !b->n_templates)
		return fail(s, t[0].col, "empty block: no op template");
	return 0;
}

/* after=I,J: the templates of the block this one waits for */
static int after_key(struct st *s, const struct tok *t, const char *v,
		     uint32_t *mask)
{
	const struct vpux_lf_plan_block *b = cur_block(s);
	long long x[DLA_PLAN_MAX_BODY];
	unsigned int n, i;

	if (nums(s, t, v, 0, DLA_PLAN_MAX_BODY - 1, x, DLA_PLAN_MAX_BODY, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (x[i] >= b->n_templates)
			return fail(s, t->col,
				    "after=%lld: template %lld of this block does not come before this one",
				    x[i], x[i]);
		*mask |= 1u << x[i];
	}
	return 0;
}

/* an op statement inside a block: one template */
static int stmt_template(struct st *s, struct tok *t, int n)
{
	struct lf_image *img = s->img;
	struct vpux_lf_plan_block *b = cur_block(s);
	struct vpux_lf_plan_template *tp;
	const struct vpux_lf_deps *d;
	uint32_t mask = 0;
	int i, j, ret;

	if (!in_body(s, b))
		return fail(s, t[0].col,
			    "op templates go in the innermost loop: after an inner loop's '}' only '}' follows");
	if (b->n_templates == DLA_PLAN_MAX_BODY)
		return fail(s, t[0].col,
			    "a block's body holds at most %u op templates",
			    DLA_PLAN_MAX_BODY);
	if (img->n_templates == DLA_PLAN_MAX_TEMPLATES)
		return fail(s, t[0].col, "more than %u op templates in all",
			    DLA_PLAN_MAX_TEMPLATES);
	for (i = j = 0; i < n; i++) {
		if (!strncmp(t[i].s, "after=", 6)) {
			if (after_key(s, &t[i], t[i].s + 6, &mask))
				return -1;
			continue;
		}
		t[j++] = t[i];
	}
	n = j;
	ret = !strcmp(t[0].s, "dma") ? stmt_dma(s, t, n) :
	      !strcmp(t[0].s, "dpu") ? stmt_dpu(s, t, n) : stmt_shave(s, t, n);
	if (ret)
		return -1;
	d = lf_op_deps(img, s->ops[s->n_ops - 1].kind, s->ops[s->n_ops - 1].idx);
	if (d->num_waits || d->num_updates)
		return fail(s, t[0].col,
			    "an op template has no wait=/update=: the plan orders it (after=)");
	if (grow((void **)&img->templates, &s->tplcap, img->n_templates,
		 sizeof(*tp)))
		return fail(s, 1, "out of memory");
	tp = &img->templates[img->n_templates++];
	memset(tp, 0, sizeof(*tp));
	tp->kind = s->ops[s->n_ops - 1].kind;
	tp->op = s->ops[s->n_ops - 1].idx;
	tp->wait_mask = mask;
	tp->first_patch = img->n_patches;
	b->n_templates++;
	return 0;
}

static const char *const kind_names[LF_KINDS] = { "dma", "dpu", "shave" };

/* FIELD = EXPR: a patch of the block's last template */
static int stmt_patch(struct st *s, struct tok *t)
{
	struct lf_image *img = s->img;
	const struct vpux_lf_plan_block *b = cur_block(s);
	struct vpux_lf_plan_template *tp;
	struct vpux_lf_plan_patch *pt;
	const struct lf_field *f;
	const char *eq = strchr(s->raw + t[0].col - 1, '=');
	char name[64];
	size_t l = strcspn(t[0].s, "=");
	unsigned int k;

	if (!b || !b->n_templates || !in_body(s, b))
		return fail(s, t[0].col, "a patch 'FIELD = EXPR' follows an op template inside a loop or block");
	tp = &img->templates[img->n_templates - 1];
	snprintf(name, sizeof(name), "%.*s", (int)l, t[0].s);
	f = lf_field_by_name(tp->kind, name);
	if (!f) {
		for (k = 0; k < LF_KINDS; k++)
			if (lf_field_by_name(k, name))
				return fail(s, t[0].col,
					    "'%s' is a field of %s ops, not of this %s template",
					    name, kind_names[k], kind_names[tp->kind]);
		return fail(s, t[0].col, "unknown field '%s' for a %s template",
			    name, kind_names[tp->kind]);
	}
	if (tp->n_patches == DLA_PLAN_MAX_PATCHES)
		return fail(s, t[0].col,
			    "more than %u patches on one template",
			    DLA_PLAN_MAX_PATCHES);
	if (grow((void **)&img->patches, &s->pcap, img->n_patches,
		 sizeof(*pt)))
		return fail(s, 1, "out of memory");
	pt = &img->patches[img->n_patches];
	memset(pt, 0, sizeof(*pt));
	pt->field = f->id;
	if (compile_expr(s, eq + 1, (int)(eq + 1 - s->raw) + 1, (int)b->depth,
			 &pt->expr, &pt->len))
		return -1;
	img->n_patches++;
	tp->n_patches++;
	return 0;
}

static int statement(struct st *s, struct tok *t, int n)
{
	const char *k = t[0].s;

	if (!strcmp(k, "input") || !strcmp(k, "output") || !strcmp(k, "tensor"))
		return stmt_tensor(s, t, n);
	if (!strcmp(k, "data"))
		return stmt_data(s, t, n);
	if (!strcmp(k, "symbol"))
		return stmt_symbol(s, t, n);
	if (!strcmp(k, "kernel"))
		return stmt_kernel(s, t, n);
	if (!strcmp(k, "stack"))
		return stmt_stack(s, t, n);
	if (!strcmp(k, "loop") || !strcmp(k, "block"))
		return stmt_open(s, t, n);
	if (!strcmp(k, "}"))
		return stmt_close(s, t, n);
	if (strchr(k, '=') || (n > 1 && t[1].s[0] == '='))
		return stmt_patch(s, t);
	if (s->level && (!strcmp(k, "dma") || !strcmp(k, "dpu") ||
			 !strcmp(k, "shave")))
		return stmt_template(s, t, n);
	if (!s->loose_line && (!strcmp(k, "dma") || !strcmp(k, "dpu") ||
			       !strcmp(k, "shave"))) {
		s->loose_line = s->line;
		s->loose_col = t[0].col;
	}
	if (!strcmp(k, "dma"))
		return stmt_dma(s, t, n);
	if (!strcmp(k, "dpu"))
		return stmt_dpu(s, t, n);
	if (!strcmp(k, "shave"))
		return stmt_shave(s, t, n);
	if (!strcmp(k, "network") || !strcmp(k, "target") ||
	    !strcmp(k, "caps") || !strcmp(k, "scratch") ||
	    !strcmp(k, "weights") || !strcmp(k, "barriers"))
		return stmt_header(s, t, n);
	return fail(s, t[0].col, "unknown statement '%s'", k);
}

static int finish(struct st *s)
{
	struct lf_image *img = s->img;

	s->line = 0;
	if (!img->hdr.name[0])
		strcpy(img->hdr.name, "network");
	if (s->have_weights && s->wdecl < s->wend)
		return fail(s, 1, "weights %llu smaller than the tensors (%llu)",
			    (unsigned long long)s->wdecl,
			    (unsigned long long)s->wend);
	if (s->have_scratch && s->sdecl < s->send)
		return fail(s, 1, "scratch %llu smaller than the tensors (%llu)",
			    (unsigned long long)s->sdecl,
			    (unsigned long long)s->send);
	img->hdr.weights_size = s->have_weights ? s->wdecl : s->wend;
	img->hdr.scratch_size = s->have_scratch ? s->sdecl : s->send;
	if (img->hdr.weights_size && !wspace(s, img->hdr.weights_size))
		return fail(s, 1, "out of memory");
	img->weights = s->w;
	img->kargs = s->k;
	img->kcode = s->kc;
	img->kdata = s->kd;
	/* every tile an ELF op runs on has a stack: 4 KiB unless given */
	for (uint32_t i = 0; i < img->n_kinvs; i++)
		while (img->n_kstacks <= img->kinvs[i].tile) {
			if (grow((void **)&img->kstacks, &s->kscap,
				 img->n_kstacks, sizeof(*img->kstacks)))
				return fail(s, 1, "out of memory");
			img->kstacks[img->n_kstacks++].stack_size = 0;
		}
	for (uint32_t i = 0; i < img->n_kstacks; i++)
		if (!img->kstacks[i].stack_size)
			img->kstacks[i].stack_size = ASM_STACK_DEFAULT;
	if (!s->have_caps)
		img->hdr.caps = (img->n_dma ? VPUX_NET_CAP_DMA : 0) |
				(img->n_dpu ? VPUX_NET_CAP_DPU : 0) |
				(img->n_shave ? VPUX_NET_CAP_SHAVE : 0);
	if (s->level) {
		s->line = s->open_line[s->level - 1];
		return fail(s, s->open_col[s->level - 1],
			    "'{' not closed by the end of the file");
	}
	if (img->n_blocks) {
		/* a plan: every op a template, no barriers */
		if (s->loose_line) {
			s->line = s->loose_line;
			return fail(s, s->loose_col,
				    "a plan's ops are all inside loops or blocks");
		}
		if (s->bdecl)
			return fail(s, 1, "a plan has no barriers ('barriers %u')",
				    s->bdecl);
		return explicit_barriers(s);
	}
	if (s->explicit_deps || s->o->explicit_only)
		return explicit_barriers(s);
	return implicit_barriers(s);
}

int asm_text(const char *name, const char *text, const struct asm_opts *o,
	     struct lf_image *img, FILE *err)
{
	static const struct asm_opts defaults;
	struct st s;
	char *copy = strdup(text ? text : ""), *line, *save = NULL;
	int ret = 0;

	memset(img, 0, sizeof(*img));
	memset(&s, 0, sizeof(s));
	s.file = name;
	s.o = o ? o : &defaults;
	s.err = err;
	s.img = img;
	img->hdr.magic = VPUX_LF_MAGIC;
	img->hdr.version_major = VPUX_LF_VERSION_MAJOR;
	img->hdr.version_minor = VPUX_LF_VERSION_MINOR;
	img->hdr.target = VPUX_TARGET_VPUX1;
	if (!copy)
		return -1;
	/* strtok_r on "\n" would merge empty lines: count them ourselves */
	for (line = copy; line && !ret; line = save) {
		struct tok t[MAX_TOK];
		char *nl = strchr(line, '\n'), *p, *hash, *raw;
		int n = 0;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		s.line++;
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		raw = strdup(line);	/* expressions have blanks */
		if (!raw) {
			ret = fail(&s, 1, "out of memory");
			break;
		}
		s.raw = raw;
		for (p = line; *p;) {
			while (*p == ' ' || *p == '\t' || *p == '\r')
				*p++ = 0;
			if (!*p)
				break;
			if (n == MAX_TOK) {
				ret = fail(&s, (int)(p - line) + 1,
					   "too many words on a line");
				break;
			}
			t[n].s = p;
			t[n++].col = (int)(p - line) + 1;
			while (*p && *p != ' ' && *p != '\t' && *p != '\r')
				p++;
		}
		if (!ret && n)
			ret = statement(&s, t, n);
		free(raw);
		s.raw = NULL;
	}
	if (!ret)
		ret = finish(&s);
	free(copy);
	free(s.ops);
	if (ret) {
		img->weights = s.w;
		img->kargs = s.k;
		img->strtab = s.strtab;
		img->kcode = s.kc;
		img->kdata = s.kd;
		asm_free(img);
	}
	return ret;
}

void asm_free(struct lf_image *img)
{
	free(img->tensors);
	free(img->barriers);
	free(img->dma);
	free(img->dpu);
	free(img->shave);
	free(img->symbols);
	free(img->blocks);
	free(img->templates);
	free(img->patches);
	free(img->expr);
	free(img->names);
	free((void *)img->strtab);
	free((void *)img->weights);
	free((void *)img->kargs);
	free(img->kernels);
	free((void *)img->kcode);
	free(img->kinvs);
	free((void *)img->kdata);
	free(img->kstacks);
	memset(img, 0, sizeof(*img));
}
