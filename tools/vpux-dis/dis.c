// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-dis: loadable -> the vpux-asm text, in the explicit-barrier form
 * (assembling the output gives back the same bytes), or a --summary.
 *
 *	vpux-dis [--summary [--json]] IN.vpux [-o OUT.vasm]	(vpux-dis(1))
 */
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf.h"
#include "lf_fields.h"
#include "vasm.h"
#include "vpux.h"
#include "vpux_cli.h"
#include "vpux_regs.h"
#include "vpux_shave_abi.h"
#include "vpux_shave_elf.h"

#define PROG "vpux-dis"

static const struct lf_image *G;

static void region_name(char *buf, size_t n, uint32_t r)
{
	static const char *const k[] = { "?", "weights", "scratch", "input",
					 "output", "cmx", "symbols" };
	uint32_t kind = VPUX_LF_REGION_KIND(r);

	if (kind == VPUX_LF_RK_INPUT || kind == VPUX_LF_RK_OUTPUT ||
	    kind == VPUX_LF_RK_CMX)
		snprintf(buf, n, "%s%u", k[kind], VPUX_LF_REGION_INDEX(r));
	else
		snprintf(buf, n, "%s", k[kind <= VPUX_LF_RK_SYMBOLS ? kind : 0]);
}

/* SHAPE: a dynamic dim as $NAME */
static void print_dims(FILE *f, const struct vpux_lf_tensor *t)
{
	uint32_t i;

	for (i = 0; i < t->rank; i++) {
		if (i)
			fputc('x', f);
		if (t->dyn_dims >> i & 1 && t->dims[i] < G->n_symbols)
			fprintf(f, "$%s", G->symbols[t->dims[i]].name);
		else
			fprintf(f, "%u", t->dims[i]);
	}
}

/* name=FULL: the tensor's 1.4 name, escaped (vasm_name_escape()) */
static void print_full_name(FILE *f, const struct vpux_lf_tensor *t)
{
	const char *n = lf_tensor_name(G, (uint32_t)(t - G->tensors));
	char *esc;

	if (n == t->name)
		return;
	esc = malloc(3 * strlen(n) + 1);
	if (!esc)
		return;
	vasm_name_escape(n, esc);
	fprintf(f, " name=%s", esc);
	free(esc);
}

static void print_tensor(FILE *f, const struct vpux_lf_tensor *t)
{
	uint32_t i;
	char r[32];
	int io = t->flags & VPUX_LF_T_IO;

	fprintf(f, "%s %s %s ", io ? (VPUX_LF_REGION_KIND(t->region) ==
				      VPUX_LF_RK_INPUT ? "input" : "output") :
		"tensor", t->name, hc_dev_type_name(t->data_type));
	print_dims(f, t);
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
	print_full_name(f, t);
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
	char buf[64];

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
	case VF_F32:
		vasm_f32_print(*u, buf, sizeof(buf));
		fprintf(f, " %s=%s", fl->name, buf);
		break;
	case VF_ACT:
		fprintf(f, " %s=%s", fl->name, vasm_name_of(vasm_acts, *u) ?
			vasm_name_of(vasm_acts, *u) : "?");
		break;
	case VF_NAME:
		fprintf(f, " %s=%s", fl->name, vasm_name_of(fl->names, *u) ?
			vasm_name_of(fl->names, *u) : "?");
		break;
	case VF_F32X6: {
		unsigned int i;

		fprintf(f, " %s=", fl->name);
		for (i = 0; i < 6; i++) {
			vasm_f32_print(u[i], buf, sizeof(buf));
			fprintf(f, "%s%s", i ? "," : "", buf);
		}
		break;
	}
	case VF_AXIS:
		fprintf(f, " %s=%u", fl->name, *u);
		break;
	case VF_AXES: {
		unsigned int i, first = 1;

		fprintf(f, " %s=", fl->name);
		for (i = 0; i < 32; i++)
			if (*u >> i & 1) {
				fprintf(f, "%s%u", first ? "" : ",", i);
				first = 0;
			}
		break;
	}
	}
}

/* an op template's after= (its wait_mask), before the end of its line */
static uint32_t G_after = 0;

static void print_after(FILE *f)
{
	unsigned int i, first = 1;

	if (!G_after)
		return;
	fprintf(f, " after=");
	for (i = 0; i < 32; i++)
		if (G_after >> i & 1) {
			fprintf(f, "%s%u", first ? "" : ",", i);
			first = 0;
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
	print_after(f);
	fputc('\n', f);
}

/*
 * An integer op: every field, flags as a number. An FP16 op: flags by
 * name (and bcast=), the geometry and the FP16 output stage.
 */
static void print_dpu(FILE *f, const struct vpux_lf_dpu *o)
{
	int fp16 = !!(o->flags & VPUX_DPU_F_FP16);
	const struct vasm_field *fl;
	char buf[256];

	fprintf(f, "dpu %s", vasm_name_of(vasm_dpu_ops, o->op));
	print_ref(f, "in", &o->in);
	print_ref(f, "in2", &o->in2);
	print_ref(f, "bias", &o->bias);
	print_ref(f, "quant", &o->quant);
	print_ref(f, "out", &o->out);
	for (fl = vasm_dpu_fields; fl->name; fl++) {
		if (fl->mode == (fp16 ? VASM_INT : VASM_FP16))
			continue;
		if (!fp16 || strcmp(fl->name, "flags")) {
			print_field(f, fl, o);
			continue;
		}
		vasm_dpu_flags_print(o->flags, buf, sizeof(buf));
		fprintf(f, " flags=%s", buf);
		if (o->flags & VPUX_DPU_F_BCAST_MASK)
			fprintf(f, " bcast=%s", vasm_name_of(vasm_bcasts,
				(o->flags & VPUX_DPU_F_BCAST_MASK) >>
				VPUX_DPU_F_BCAST_SHIFT));
	}
	print_deps(f, &o->deps);
	print_after(f);
	fputc('\n', f);
}

/*
 * The high-level form when it gives back these exact args
 * (vasm_shave_high_level()): the kernel's tensors by name, the inputs
 * then out, the dims windows of the dynamic ones (in_dims=, ...), then
 * every field; else
 * the raw form, every window and the args in hex.
 */
static void print_shave(FILE *f, const struct vpux_lf_shave *o)
{
	struct vpux_lf_tensor tens[VASM_SHAVE_RECS];
	struct vasm_rec rec[VASM_SHAVE_RECS];
	const struct vasm_field *fl;
	const uint8_t *a = G->kargs + o->args_offset;
	const char *const *rn;
	char key[32];
	unsigned int i;

	if (vasm_shave_high_level(G, o, rec, tens)) {
		fprintf(f, "shave %s", vasm_name_of(vasm_kernels, o->kernel_id));
		/* the inputs in struct order, then out (record 1) */
		rn = vasm_kernel_recs(o->kernel_id, NULL);
		for (i = 0; rn[i]; i++)
			if (rec[i].t && i != 1)
				print_ref(f, rn[i], &o->windows[rec[i].win]);
		print_ref(f, rn[1], &o->windows[rec[1].win]);
		for (i = 0; rn[i]; i++) {
			if (!rec[i].t || rec[i].dwin < 0)
				continue;
			snprintf(key, sizeof(key), "%s_dims", rn[i]);
			print_ref(f, key, &o->windows[rec[i].dwin]);
		}
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
	print_after(f);
	fputc('\n', f);
}

static void print_hex(FILE *f, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

/* 1.5: an ELF kernel task, raw: every byte of its arguments */
static void print_shave_elf(FILE *f, uint32_t i,
			    const struct vpux_lf_shave *o)
{
	const struct vpux_lf_kinvocation *v = lf_kinv_of(G, i);

	fprintf(f, "shave elf %s", G->kernels[v->kernel].name);
	print_ref(f, "win_f", &o->windows[0]);
	fprintf(f, " args=");
	print_hex(f, G->kargs + o->args_offset, o->args_size);
	fprintf(f, " memrefs=0x%x memrefs_out=0x%x", v->memrefs,
		v->memrefs_out);
	if (v->data_size) {
		fprintf(f, " data=");
		print_hex(f, G->kdata + v->data_offset, v->data_size);
	}
	fprintf(f, " tile=%u budget=%u", v->tile, v->budget);
	print_deps(f, &o->deps);
	print_after(f);
	fputc('\n', f);
}

/* 1.5: each kernel (its name, size and entry, then its image) and stack */
static void print_kernels(FILE *f, const struct lf_image *img)
{
	uint32_t i;

	for (i = 0; i < img->n_kernels; i++) {
		const struct vpux_lf_kernel *k = &img->kernels[i];

		int rt = k->kind == VPUX_LF_KERNEL_RUNTIME;

		fprintf(f, "# kernel %u '%s': %u bytes, entry 0x%x%s\n", i,
			k->name, k->code_size, k->entry,
			rt ? ", the runtime kernel" : "");
		fprintf(f, "kernel %s %sentry=%u code=", k->name,
			rt ? "kind=runtime " : "", k->entry);
		print_hex(f, img->kcode + k->code_offset, k->code_size);
		fputc('\n', f);
	}
	for (i = 0; i < img->n_kstacks; i++)
		fprintf(f, "stack %u %u\n", i, img->kstacks[i].stack_size);
}

static int print_op(void *ctx, unsigned int kind, uint32_t i)
{
	FILE *f = ctx;

	if (kind == LF_DMA)
		print_dma(f, &G->dma[i]);
	else if (kind == LF_DPU)
		print_dpu(f, &G->dpu[i]);
	else if (G->shave[i].kernel_id == VPUX_SHAVE_KERNEL_ELF)
		print_shave_elf(f, i, &G->shave[i]);
	else
		print_shave(f, &G->shave[i]);
	return 0;
}

static int expr_str(const struct lf_image *img, uint32_t at, uint32_t len,
		    char *buf, size_t size)
{
	if (at > img->n_expr || len > img->n_expr - at)
		return -1;
	return vasm_expr_print(img->expr + at, len, img->symbols,
			       img->n_symbols, buf, size);
}

/*
 * The plan: each block as its loops (outermost first) around its
 * templates, each template followed by its patches. Templates of one kind
 * must be in op order (as vpux-asm numbers them) for the text to give
 * back the same bytes. Return: 0, or -1 for a plan the text cannot say.
 */
static int print_plan(FILE *f, const struct lf_image *img)
{
	uint32_t b, l, j, k, next[LF_KINDS] = { 0 };
	char e[2048];

	for (b = 0; b < img->n_blocks; b++) {
		const struct vpux_lf_plan_block *bl = &img->blocks[b];

		for (l = 0; l < bl->depth; l++) {
			if (expr_str(img, bl->loop[l].extent,
				     bl->loop[l].extent_len, e, sizeof(e)))
				return -1;
			fprintf(f, "%*sloop %s tile %u {\n", 8 * l, "", e,
				bl->loop[l].tile);
		}
		if (!bl->depth)
			fprintf(f, "block {\n");
		for (j = 0; j < bl->n_templates; j++) {
			const struct vpux_lf_plan_template *tp =
				&img->templates[bl->first_template + j];
			int ind = 8 * (bl->depth ? bl->depth : 1);

			if (tp->kind >= LF_KINDS || tp->op != next[tp->kind]++)
				return -1;
			fprintf(f, "%*s", ind, "");
			G_after = tp->wait_mask;
			print_op(f, tp->kind, tp->op);
			G_after = 0;
			for (k = 0; k < tp->n_patches; k++) {
				const struct vpux_lf_plan_patch *pt =
					&img->patches[tp->first_patch + k];
				const struct lf_field *fl = lf_field_by_id(pt->field);

				if (!fl || expr_str(img, pt->expr, pt->len, e,
						    sizeof(e)))
					return -1;
				fprintf(f, "%*s%s = %s\n", ind + 8, "",
					fl->name, e);
			}
		}
		for (l = bl->depth ? bl->depth : 1; l-- > 0;)
			fprintf(f, "%*s}\n", 8 * l, "");
	}
	return 0;
}

static int disassemble(FILE *f, const struct lf_image *img)
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
	for (t = 0; t < img->n_symbols; t++) {
		const struct vpux_lf_symbol *y = &img->symbols[t];

		fprintf(f, "symbol %s %s %lld..%lld width=%u\n", y->name,
			vasm_name_of(vasm_sym_kinds, y->kind) ?
			vasm_name_of(vasm_sym_kinds, y->kind) : "?",
			(long long)y->min, (long long)y->max, y->width);
	}
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
	print_kernels(f, img);
	if (img->n_blocks)
		return print_plan(f, img);
	lf_schedule(img, print_op, f);
	return 0;
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

		region_name(r, sizeof(r), x->region);
		fprintf(f, "  %-20s %-4s ", x->name,
			hc_dev_type_name(x->data_type));
		print_dims(f, x);
		fprintf(f, " order 0x%llx %s+%llu (%llu bytes)%s\n",
			(unsigned long long)x->dims_order, r,
			(unsigned long long)x->offset,
			(unsigned long long)x->size,
			x->flags & VPUX_LF_T_IO ? " [io]" : "");
		if (lf_tensor_name(img, t) != x->name)
			fprintf(f, "  %-20s name \"%s\"\n", "",
				lf_tensor_name(img, t));
	}
	fprintf(f, "symbols:   %u\n", img->n_symbols);
	for (t = 0; t < img->n_symbols; t++)
		fprintf(f, "  %-20s %-6s %lld..%lld width %u\n",
			img->symbols[t].name,
			vasm_name_of(vasm_sym_kinds, img->symbols[t].kind) ?
			vasm_name_of(vasm_sym_kinds, img->symbols[t].kind) : "?",
			(long long)img->symbols[t].min,
			(long long)img->symbols[t].max, img->symbols[t].width);
	if (img->n_kernels) {
		fprintf(f, "kernels:   %u, %u invocations\n", img->n_kernels,
			img->n_kinvs);
		for (t = 0; t < img->n_kernels; t++)
			fprintf(f, "  %-20s %u bytes, entry 0x%x\n",
				img->kernels[t].name, img->kernels[t].code_size,
				img->kernels[t].entry);
		for (t = 0; t < img->n_kstacks; t++)
			fprintf(f, "  stack of tile %u: %u bytes\n", t,
				img->kstacks[t].stack_size);
	}
	if (img->n_blocks)
		fprintf(f, "plan:      %u blocks, %u templates, %u patches, %u expression words\n",
			img->n_blocks, img->n_templates, img->n_patches,
			img->n_expr);
}

/* --json: the summary as a JSON document */
static void summary_json(FILE *f, const struct lf_image *img, size_t size)
{
	json_object *o = json_object_new_object(), *arr, *e, *dims;
	uint32_t t, d;
	char r[32];

	json_object_object_add(o, "network", json_object_new_string(img->hdr.name));
	json_object_object_add(o, "format_major", json_object_new_int(img->hdr.version_major));
	json_object_object_add(o, "format_minor", json_object_new_int(img->hdr.version_minor));
	json_object_object_add(o, "size", json_object_new_uint64(size));
	json_object_object_add(o, "target", json_object_new_int64(img->hdr.target));
	json_object_object_add(o, "caps", json_object_new_uint64(img->hdr.caps));
	json_object_object_add(o, "weights_size", json_object_new_uint64(img->hdr.weights_size));
	json_object_object_add(o, "scratch_size", json_object_new_uint64(img->hdr.scratch_size));
	json_object_object_add(o, "dma_ops", json_object_new_int64(img->n_dma));
	json_object_object_add(o, "dpu_ops", json_object_new_int64(img->n_dpu));
	json_object_object_add(o, "shave_ops", json_object_new_int64(img->n_shave));
	json_object_object_add(o, "barriers", json_object_new_int64(img->n_barriers));
	json_object_object_add(o, "inputs", json_object_new_int64(img->hdr.num_inputs));
	json_object_object_add(o, "outputs", json_object_new_int64(img->hdr.num_outputs));
	arr = json_object_new_array();
	for (t = 0; t < img->n_tensors; t++) {
		const struct vpux_lf_tensor *x = &img->tensors[t];

		e = json_object_new_object();
		region_name(r, sizeof(r), x->region);
		json_object_object_add(e, "name", json_object_new_string(x->name));
		json_object_object_add(e, "type", json_object_new_string(
			hc_dev_type_name(x->data_type)));
		dims = json_object_new_array();
		for (d = 0; d < x->rank; d++)
			json_object_array_add(dims, x->dyn_dims >> d & 1 &&
					      x->dims[d] < img->n_symbols ?
					      json_object_new_string(img->symbols[x->dims[d]].name) :
					      json_object_new_int64(x->dims[d]));
		json_object_object_add(e, "dims", dims);
		json_object_object_add(e, "dims_order", json_object_new_uint64(x->dims_order));
		json_object_object_add(e, "region", json_object_new_string(r));
		json_object_object_add(e, "offset", json_object_new_uint64(x->offset));
		json_object_object_add(e, "size", json_object_new_uint64(x->size));
		json_object_object_add(e, "io", json_object_new_boolean(!!(x->flags & VPUX_LF_T_IO)));
		/* the tensor's full name (loadable 1.4), if it has one */
		if (lf_tensor_name(img, t) != x->name)
			json_object_object_add(e, "full_name",
					       json_object_new_string(lf_tensor_name(img, t)));
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "tensors", arr);
	arr = json_object_new_array();
	for (t = 0; t < img->n_symbols; t++) {
		e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(img->symbols[t].name));
		json_object_object_add(e, "min", json_object_new_int64(img->symbols[t].min));
		json_object_object_add(e, "max", json_object_new_int64(img->symbols[t].max));
		json_object_object_add(e, "kind", json_object_new_string(
			vasm_name_of(vasm_sym_kinds, img->symbols[t].kind) ?
			vasm_name_of(vasm_sym_kinds, img->symbols[t].kind) : "?"));
		json_object_object_add(e, "width", json_object_new_int64(img->symbols[t].width));
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "symbols", arr);
	arr = json_object_new_array();
	for (t = 0; t < img->n_kernels; t++) {
		e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(img->kernels[t].name));
		json_object_object_add(e, "size", json_object_new_int64(img->kernels[t].code_size));
		json_object_object_add(e, "entry", json_object_new_int64(img->kernels[t].entry));
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "kernels", arr);
	json_object_object_add(o, "plan_blocks", json_object_new_int64(img->n_blocks));
	json_object_object_add(o, "plan_templates", json_object_new_int64(img->n_templates));
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
	json_object_put(o);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vpux-dis [-s [-j]] [-o OUT] IN.vpux\n"
		   "Disassemble a loadable into vpux-asm text; see vpux-dis(1).\n"
		   "  -o, --output OUT  write to OUT instead of standard output\n"
		   "  -s, --summary     print a summary of the loadable instead\n"
		   "  -j, --json        the summary as JSON (implies --summary)\n"
		   "  -h, --help        print this help and exit\n"
		   "      --version     print the version and exit\n"
		   "Exit status: 0 ok, 1 unreadable or invalid loadable, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "summary", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VPUX_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *in = NULL, *out = NULL;
	int sum = 0, json = 0, c, fd, ret;
	struct lf_image img;
	struct stat st;
	void *p;
	FILE *f = stdout;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:sjh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 's':
			sum = 1;
			break;
		case 'j':
			sum = json = 1;
			break;
		case 'h':
			usage(stdout);
			return VPUX_EXIT_OK;
		case VPUX_OPT_VERSION:
			vpux_cli_version(PROG);
			return VPUX_EXIT_OK;
		default:
			vpux_cli_bad_option(PROG, c, argv);
			usage(stderr);
			return VPUX_EXIT_USAGE;
		}
	}
	if (optind == argc) {
		vpux_cli_err(PROG, "no input file");
		usage(stderr);
		return VPUX_EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		vpux_cli_err(PROG, "one input file only ('%s' too)", argv[optind + 1]);
		usage(stderr);
		return VPUX_EXIT_USAGE;
	}
	in = argv[optind];
	fd = open(in, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		vpux_cli_err(PROG, "cannot read %s", in);
		if (fd >= 0)
			close(fd);
		return VPUX_EXIT_FAIL;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		vpux_cli_err(PROG, "cannot map %s", in);
		return VPUX_EXIT_FAIL;
	}
	ret = lf_parse(p, st.st_size, &img);
	if (!ret)
		ret = lf_validate(&img);
	if (ret) {
		vpux_cli_err(PROG, "%s: %s", in, vpux_last_error());
		lf_image_free(&img);
		return VPUX_EXIT_FAIL;
	}
	if (out && !(f = fopen(out, "w"))) {
		vpux_cli_err(PROG, "cannot create %s", out);
		return VPUX_EXIT_FAIL;
	}
	G = &img;
	if (json)
		summary_json(f, &img, st.st_size);
	else if (sum)
		summary(f, &img, st.st_size);
	else if (disassemble(f, &img)) {
		vpux_cli_err(PROG, "%s: the plan's templates are not in op order, or an expression is malformed: no text gives these bytes back",
			     in);
		ret = VPUX_EXIT_FAIL;
	}
	if (f != stdout)
		fclose(f);
	lf_image_free(&img);
	munmap(p, st.st_size);
	return ret;
}
