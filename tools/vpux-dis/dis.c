// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-dis: loadable -> the vpux-asm text, in the explicit-barrier form
 * (assembling the output gives back the same bytes), or a --summary.
 *
 *	vpux-dis [--summary] IN.vpux [-o OUT.vasm]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf.h"
#include "vasm.h"
#include "vpux.h"
#include "vpux_shave_abi.h"

static const struct lf_image *G;

static void region_name(char *buf, size_t n, uint32_t r)
{
	static const char *const k[] = { "?", "weights", "scratch", "input",
					 "output", "cmx" };
	uint32_t kind = VPUX_LF_REGION_KIND(r);

	if (kind == VPUX_LF_RK_INPUT || kind == VPUX_LF_RK_OUTPUT ||
	    kind == VPUX_LF_RK_CMX)
		snprintf(buf, n, "%s%u", k[kind], VPUX_LF_REGION_INDEX(r));
	else
		snprintf(buf, n, "%s", k[kind <= 4 ? kind : 0]);
}

static void print_tensor(FILE *f, const struct vpux_lf_tensor *t)
{
	uint32_t i;
	char r[32];
	int io = t->flags & VPUX_LF_T_IO;

	fprintf(f, "%s %s %s ", io ? (VPUX_LF_REGION_KIND(t->region) ==
				      VPUX_LF_RK_INPUT ? "input" : "output") :
		"tensor", t->name, vasm_name_of(vasm_dtypes, t->data_type));
	for (i = 0; i < t->rank; i++)
		fprintf(f, "%s%u", i ? "x" : "", t->dims[i]);
	fprintf(f, " order=0x%llx strides=", (unsigned long long)t->dims_order);
	for (i = 0; i < t->rank; i++)
		fprintf(f, "%s%llu", i ? "," : "",
			(unsigned long long)(t->strides[i] / 8));
	if (!io) {
		region_name(r, sizeof(r), t->region);
		fprintf(f, " region=%s offset=%llu", r,
			(unsigned long long)t->offset);
	}
	fprintf(f, " size=%llu", (unsigned long long)t->size);
	if (t->zero_point)
		fprintf(f, " zp=%d", t->zero_point);
	if (t->scale_mult || t->scale_shift)
		fprintf(f, " scale=%d,%d", t->scale_mult, t->scale_shift);
	fputc('\n', f);
}

static void print_ref(FILE *f, const char *key, const struct vpux_lf_ref *r)
{
	const struct vpux_lf_tensor *t;

	if (!r->size)
		return;
	t = &G->tensors[r->tensor];
	if (!r->offset && r->size == t->size)
		fprintf(f, " %s=%s", key, t->name);
	else
		fprintf(f, " %s=%s[%u:%u]", key, t->name, r->offset, r->size);
}

static void print_list(FILE *f, const char *key, const uint16_t *v,
		       unsigned int n)
{
	unsigned int i;

	if (!n)
		return;
	fprintf(f, " %s=", key);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? "," : "", v[i]);
}

static void print_deps(FILE *f, const struct vpux_lf_deps *d)
{
	print_list(f, "wait", d->waits, d->num_waits);
	print_list(f, "update", d->updates, d->num_updates);
}

static void print_field(FILE *f, const struct vasm_field *fl, const void *base)
{
	const char *p = (const char *)base + fl->offset;
	const int32_t *q = (const int32_t *)p;
	const uint32_t *u = (const uint32_t *)p;

	switch (fl->type) {
	case VF_U16:
		fprintf(f, " %s=%u", fl->name, *(const uint16_t *)p);
		break;
	case VF_U32:
		fprintf(f, " %s=%u", fl->name, *u);
		break;
	case VF_I32:
		fprintf(f, " %s=%d", fl->name, *q);
		break;
	case VF_PAIR:
		fprintf(f, " %s=%d,%d", fl->name, q[0], q[1]);
		break;
	case VF_U32X6:
		fprintf(f, " %s=%u,%u,%u,%u,%u,%u", fl->name, u[0], u[1], u[2],
			u[3], u[4], u[5]);
		break;
	}
}

static void print_dma(FILE *f, const struct vpux_lf_dma *o)
{
	fprintf(f, "dma");
	print_ref(f, "src", &o->src);
	print_ref(f, "dst", &o->dst);
	fprintf(f, " len=%u", o->len);
	if (o->count[0] != 1 || o->count[1] != 1 || o->count[2] != 1)
		fprintf(f, " count=%u,%u,%u", o->count[0], o->count[1],
			o->count[2]);
	if (o->src_stride[0] || o->src_stride[1] || o->src_stride[2])
		fprintf(f, " src_stride=%u,%u,%u", o->src_stride[0],
			o->src_stride[1], o->src_stride[2]);
	if (o->dst_stride[0] || o->dst_stride[1] || o->dst_stride[2])
		fprintf(f, " dst_stride=%u,%u,%u", o->dst_stride[0],
			o->dst_stride[1], o->dst_stride[2]);
	print_deps(f, &o->deps);
	fputc('\n', f);
}

static void print_dpu(FILE *f, const struct vpux_lf_dpu *o)
{
	const struct vasm_field *fl;

	fprintf(f, "dpu %s", vasm_name_of(vasm_dpu_ops, o->op));
	print_ref(f, "in", &o->in);
	print_ref(f, "in2", &o->in2);
	print_ref(f, "bias", &o->bias);
	print_ref(f, "quant", &o->quant);
	print_ref(f, "out", &o->out);
	for (fl = vasm_dpu_fields; fl->name; fl++)
		print_field(f, fl, o);
	print_deps(f, &o->deps);
	fputc('\n', f);
}

/* the high-level form if assembling it gives these exact args */
static int shave_high_level(const struct vpux_lf_shave *o)
{
	uint8_t args[VPUX_SHAVE_ARGS_MAX];
	const struct vpux_lf_ref *w = o->windows;
	unsigned int i;

	if (!w[0].size || !w[1].size || w[0].offset || w[1].offset ||
	    w[0].size != G->tensors[w[0].tensor].size ||
	    w[1].size != G->tensors[w[1].tensor].size)
		return 0;
	for (i = 2; i < VPUX_LF_MAX_WINDOWS; i++)
		if (w[i].size)
			return 0;
	vasm_shave_args(o->kernel_id, &G->tensors[w[0].tensor],
			&G->tensors[w[1].tensor], G->kargs + o->args_offset,
			args);
	return !memcmp(args, G->kargs + o->args_offset, o->args_size);
}

static void print_shave(FILE *f, const struct vpux_lf_shave *o)
{
	const struct vasm_field *fl;
	const uint8_t *a = G->kargs + o->args_offset;
	char key[8];
	unsigned int i;

	if (shave_high_level(o)) {
		fprintf(f, "shave %s", vasm_name_of(vasm_kernels, o->kernel_id));
		print_ref(f, "in", &o->windows[0]);
		print_ref(f, "out", &o->windows[1]);
		for (fl = vasm_kernel_params(o->kernel_id); fl->name; fl++)
			print_field(f, fl, a);
	} else {
		fprintf(f, "shave kernel=%u", o->kernel_id);
		for (i = 0; i < VPUX_LF_MAX_WINDOWS; i++) {
			snprintf(key, sizeof(key), "win%u", i);
			print_ref(f, key, &o->windows[i]);
		}
		fprintf(f, " args=");
		for (i = 0; i < o->args_size; i++)
			fprintf(f, "%02x", a[i]);
	}
	print_deps(f, &o->deps);
	fputc('\n', f);
}

static int print_op(void *ctx, unsigned int kind, uint32_t i)
{
	FILE *f = ctx;

	if (kind == LF_DMA)
		print_dma(f, &G->dma[i]);
	else if (kind == LF_DPU)
		print_dpu(f, &G->dpu[i]);
	else
		print_shave(f, &G->shave[i]);
	return 0;
}

static void disassemble(FILE *f, const struct lf_image *img)
{
	uint64_t off, i;
	uint32_t t;

	fprintf(f, "# vpux-dis: loadable version %u.%u\n",
		img->hdr.version_major, img->hdr.version_minor);
	fprintf(f, "network %s\ntarget %u\ncaps 0x%llx\n", img->hdr.name,
		img->hdr.target, (unsigned long long)img->hdr.caps);
	fprintf(f, "weights %llu\nscratch %llu\nbarriers %u\n",
		(unsigned long long)img->hdr.weights_size,
		(unsigned long long)img->hdr.scratch_size, img->n_barriers);
	for (t = 0; t < img->n_symbols; t++)
		fprintf(f, "symbol %s %lld %lld\n", img->symbols[t].name,
			(long long)img->symbols[t].min,
			(long long)img->symbols[t].max);
	for (t = 0; t < img->n_tensors; t++)
		print_tensor(f, &img->tensors[t]);
	for (off = 0; off < img->hdr.weights_size; off += 32) {
		uint64_t n = img->hdr.weights_size - off < 32 ?
			     img->hdr.weights_size - off : 32;
		int zero = 1;

		for (i = 0; i < n; i++)
			zero &= !img->weights[off + i];
		if (zero)
			continue;
		fprintf(f, "data %llu ", (unsigned long long)off);
		for (i = 0; i < n; i++)
			fprintf(f, "%02x", img->weights[off + i]);
		fputc('\n', f);
	}
	lf_schedule(img, print_op, f);
}

static void summary(FILE *f, const struct lf_image *img, size_t size)
{
	uint32_t t;
	char r[32];

	fprintf(f, "network:   %s\n", img->hdr.name);
	fprintf(f, "format:    %u.%u, %zu bytes\n", img->hdr.version_major,
		img->hdr.version_minor, size);
	fprintf(f, "target:    %u, caps 0x%llx\n", img->hdr.target,
		(unsigned long long)img->hdr.caps);
	fprintf(f, "weights:   %llu bytes\nscratch:   %llu bytes per request\n",
		(unsigned long long)img->hdr.weights_size,
		(unsigned long long)img->hdr.scratch_size);
	fprintf(f, "ops:       %u DMA, %u DPU, %u SHAVE; %u barriers\n",
		img->n_dma, img->n_dpu, img->n_shave, img->n_barriers);
	fprintf(f, "tensors:   %u (%u inputs, %u outputs)\n", img->n_tensors,
		img->hdr.num_inputs, img->hdr.num_outputs);
	for (t = 0; t < img->n_tensors; t++) {
		const struct vpux_lf_tensor *x = &img->tensors[t];
		uint32_t d;

		region_name(r, sizeof(r), x->region);
		fprintf(f, "  %-20s %-4s ", x->name,
			vasm_name_of(vasm_dtypes, x->data_type));
		for (d = 0; d < x->rank; d++)
			fprintf(f, "%s%u", d ? "x" : "", x->dims[d]);
		fprintf(f, " order 0x%llx %s+%llu (%llu bytes)%s\n",
			(unsigned long long)x->dims_order, r,
			(unsigned long long)x->offset,
			(unsigned long long)x->size,
			x->flags & VPUX_LF_T_IO ? " [io]" : "");
	}
	fprintf(f, "symbols:   %u\n", img->n_symbols);
	for (t = 0; t < img->n_symbols; t++)
		fprintf(f, "  %-20s %lld..%lld\n", img->symbols[t].name,
			(long long)img->symbols[t].min,
			(long long)img->symbols[t].max);
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	int sum = 0, i, fd, ret;
	struct lf_image img;
	struct stat st;
	void *p;
	FILE *f = stdout;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--summary"))
			sum = 1;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!in)
			in = argv[i];
		else
			in = NULL, i = argc;
	}
	if (!in) {
		fprintf(stderr, "usage: vpux-dis [--summary] IN.vpux [-o OUT]\n");
		return 2;
	}
	fd = open(in, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		fprintf(stderr, "vpux-dis: cannot read %s\n", in);
		return 1;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 1;
	ret = lf_parse(p, st.st_size, &img);
	if (!ret)
		ret = lf_validate(&img);
	if (ret) {
		fprintf(stderr, "%s: error: %s\n", in, vpux_last_error());
		lf_image_free(&img);
		return 1;
	}
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "vpux-dis: cannot create %s\n", out);
		return 1;
	}
	G = &img;
	if (sum)
		summary(f, &img, st.st_size);
	else
		disassemble(f, &img);
	if (f != stdout)
		fclose(f);
	lf_image_free(&img);
	munmap(p, st.st_size);
	return 0;
}
