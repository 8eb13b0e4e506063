// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Custom kernels (Documentation/vpux-onnx.rst, "Custom kernels"): with
 * `vpux-onnx compile --kernels DIR`, a node of domain com.vpux whose op
 * type the op registry does not know becomes a SHAVE ELF kernel task of
 * DIR/OPTYPE.elf. The kernel's declaration (.vpux.params,
 * include/hw/vpux_kparams.h) is checked when it is read, the node against
 * it when the partitioner or the lowering asks (custom_npu()), and the
 * node's attributes are packed into the parameter structure as the
 * declaration lays it out.
 */
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "kernels.h"
#include "lf_format.h"
#include "lf_kernels.h"
#include "lower_int.h"
#include "vpux_shave_abi.h"

/* ---- the declaration: untrusted bytes of an ELF file ---- */

static const char *ptype_name(uint32_t t)
{
	return t == VPUX_KPARAM_F32 ? "float" : t == VPUX_KPARAM_I32 ? "s32" :
	       t == VPUX_KPARAM_U32 ? "u32" : "?";
}

static int c_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static uint16_t le16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

/* the section's bytes into @d, every field checked */
static int decl_check(const uint8_t *s, uint64_t size, const char *what,
		      struct vc_kdecl *d)
{
	const uint32_t dts = VPUX_KPARAMS_T(VPUX_SHAVE_DT_U8) |
			     VPUX_KPARAMS_T(VPUX_SHAVE_DT_I8) |
			     VPUX_KPARAMS_T(VPUX_SHAVE_DT_I32) |
			     VPUX_KPARAMS_T(VPUX_SHAVE_DT_F16) |
			     VPUX_KPARAMS_T(VPUX_SHAVE_DT_F32);
	struct vpux_kparams_hdr *h = &d->h;
	uint32_t i, j, nt, room;

#define BAD(...) vpux_err(VPUX_E_FORMAT, __VA_ARGS__)
	memset(d, 0, sizeof(*d));
	if (size < sizeof(*h))
		return BAD("%s: " VPUX_KPARAMS_SECTION ": %llu bytes, shorter than its header (%zu)",
			   what, (unsigned long long)size, sizeof(*h));
	h->magic = le32(s);
	h->version = le16(s + 4);
	h->hdr_size = le16(s + 6);
	h->param_size = le16(s + 8);
	h->n_params = le16(s + 10);
	h->n_inputs = s[12];
	h->n_outputs = s[13];
	h->shape = s[14];
	h->reserved0 = s[15];
	h->params_size = le32(s + 16);
	h->in_types = le32(s + 20);
	h->out_types = le32(s + 24);
	h->reserved = le32(s + 28);
	if (h->magic != VPUX_KPARAMS_MAGIC)
		return BAD("%s: " VPUX_KPARAMS_SECTION ": magic 0x%08x, not 0x%08x",
			   what, h->magic, VPUX_KPARAMS_MAGIC);
	if (h->version != VPUX_KPARAMS_VERSION)
		return BAD("%s: " VPUX_KPARAMS_SECTION ": version %u (this compiler reads %u)",
			   what, h->version, VPUX_KPARAMS_VERSION);
	if (h->hdr_size != sizeof(*h) || h->param_size != sizeof(d->p[0]))
		return BAD("%s: " VPUX_KPARAMS_SECTION ": hdr_size %u, param_size %u (%zu and %zu expected)",
			   what, h->hdr_size, h->param_size, sizeof(*h),
			   sizeof(d->p[0]));
	if (h->n_params > VPUX_KPARAMS_MAX)
		return BAD("%s: " VPUX_KPARAMS_SECTION ": n_params %u above %u",
			   what, h->n_params, VPUX_KPARAMS_MAX);
	if (size != sizeof(*h) + (uint64_t)h->n_params * sizeof(d->p[0]))
		return BAD("%s: " VPUX_KPARAMS_SECTION ": %llu bytes, not the header and %u parameters (%zu)",
			   what, (unsigned long long)size, h->n_params,
			   sizeof(*h) + h->n_params * sizeof(d->p[0]));
	nt = (uint32_t)h->n_inputs + h->n_outputs;
	if (!h->n_inputs || !h->n_outputs || nt > VPUX_KPARAMS_MAX_TENSORS)
		return BAD("%s: " VPUX_KPARAMS_SECTION ": n_inputs %u, n_outputs %u (each 1.., together at most %u)",
			   what, h->n_inputs, h->n_outputs,
			   VPUX_KPARAMS_MAX_TENSORS);
	if (h->shape != VPUX_KSHAPE_SAME)
		return BAD("%s: " VPUX_KPARAMS_SECTION ": shape %u unknown (0: each output has input 0's shape)",
			   what, h->shape);
	if (h->reserved0 || h->reserved)
		return BAD("%s: " VPUX_KPARAMS_SECTION ": reserved fields not 0",
			   what);
	if (!h->in_types || !h->out_types || (h->in_types & ~dts) ||
	    (h->out_types & ~dts))
		return BAD("%s: " VPUX_KPARAMS_SECTION ": in_types 0x%x, out_types 0x%x (non-empty sets of 1 << VPUX_SHAVE_DT_*)",
			   what, h->in_types, h->out_types);
	room = VPUX_SHAVE_ARGS_MAX - nt * VPUX_LF_MEMREF_SIZE;
	if (h->params_size > room || h->params_size % 4)
		return BAD("%s: " VPUX_KPARAMS_SECTION ": params_size %u (a multiple of 4, at most %u after %u memrefs)",
			   what, h->params_size, room, nt);
	for (i = 0; i < h->n_params; i++) {
		const uint8_t *r = s + sizeof(*h) + i * sizeof(d->p[0]);
		struct vpux_kparam *p = &d->p[i];
		size_t len;

		memcpy(p->name, r, sizeof(p->name));
		p->type = le32(r + 32);
		p->offset = le32(r + 36);
		p->count = le32(r + 40);
		p->reserved = le32(r + 44);
		len = strnlen(p->name, sizeof(p->name));
		if (len == sizeof(p->name))
			return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter %u: name not NUL-terminated within %u bytes",
				   what, i, VPUX_KPARAM_NAME_LEN);
		for (j = (uint32_t)len; j < sizeof(p->name); j++)
			if (p->name[j])
				return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter %u: bytes after the name's NUL not 0",
					   what, i);
		if (!c_ident(p->name))
			return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter %u: name '%s' is not a C identifier",
				   what, i, p->name);
		if (p->type < VPUX_KPARAM_F32 || p->type > VPUX_KPARAM_U32)
			return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter '%s': type %u unknown (1 float, 2 s32, 3 u32)",
				   what, p->name, p->type);
		if (!p->count || p->count > VPUX_KPARAM_MAX_COUNT)
			return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter '%s': count %u (1..%u)",
				   what, p->name, p->count,
				   VPUX_KPARAM_MAX_COUNT);
		if (p->offset % 4 || p->offset > h->params_size ||
		    4 * p->count > h->params_size - p->offset)
			return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter '%s': %u bytes at offset %u, outside the %u-byte structure or unaligned",
				   what, p->name, 4 * p->count, p->offset,
				   h->params_size);
		if (p->reserved)
			return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter '%s': reserved not 0",
				   what, p->name);
		for (j = 0; j < i; j++) {
			const struct vpux_kparam *q = &d->p[j];

			if (!strcmp(q->name, p->name))
				return BAD("%s: " VPUX_KPARAMS_SECTION ": parameter '%s' declared twice",
					   what, p->name);
			if (p->offset < q->offset + 4 * q->count &&
			    q->offset < p->offset + 4 * p->count)
				return BAD("%s: " VPUX_KPARAMS_SECTION ": parameters '%s' and '%s' overlap",
					   what, q->name, p->name);
		}
	}
#undef BAD
	return 0;
}

int vc_kdecl_parse(const void *elf, size_t size, const char *what,
		   struct vc_kdecl *d)
{
	uint8_t *image = NULL;
	uint32_t isize, entry;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	size_t shstr;
	char *copy;
	Elf *e;
	int ret, found = 0;

	memset(d, 0, sizeof(*d));
	/* the image as the assembler will take it: same checks, same words */
	ret = lf_kernel_from_elf(elf, size, what, &image, &isize, &entry);
	free(image);
	if (ret)
		return ret;
	copy = malloc(size);
	if (!copy)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", what);
	memcpy(copy, elf, size);
	e = elf_memory(copy, size);
	if (!e || elf_getshdrstrndx(e, &shstr)) {
		ret = vpux_err(VPUX_E_FORMAT, "%s: unreadable section headers (%s)",
			       what, elf_errmsg(-1));
		goto out;
	}
	while (!ret && (scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh)) {
			ret = vpux_err(VPUX_E_FORMAT, "%s: unreadable section header (%s)",
				       what, elf_errmsg(-1));
			break;
		}
		name = elf_strptr(e, shstr, sh.sh_name);
		if (!name || strcmp(name, VPUX_KPARAMS_SECTION))
			continue;
		if (found++) {
			ret = vpux_err(VPUX_E_FORMAT, "%s: two " VPUX_KPARAMS_SECTION " sections",
				       what);
			break;
		}
		if (sh.sh_type != SHT_PROGBITS || (sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
			ret = vpux_err(VPUX_E_FORMAT,
				       "%s: " VPUX_KPARAMS_SECTION ": not a non-allocated PROGBITS section inside the file (type %u, flags 0x%llx)",
				       what, sh.sh_type,
				       (unsigned long long)sh.sh_flags);
			break;
		}
		ret = decl_check((const uint8_t *)elf + sh.sh_offset,
				 sh.sh_size, what, d);
	}
	if (!ret && !found)
		ret = vpux_err(VPUX_E_FORMAT,
			       "%s: no " VPUX_KPARAMS_SECTION " section: a custom kernel declares its parameters with VPUX_KERNEL_DECLARE() (vpux_kernel.h)",
			       what);
out:
	if (e)
		elf_end(e);
	free(copy);
	return ret;
}

/* ---- the kernels of one directory, read when first asked for ---- */

struct vc_kernel {
	char name[VPUX_LF_NAME_LEN];
	int ret;		/* 0, or why it cannot be used (@err) */
	char *err;
	struct vc_kdecl d;
};

struct vc_kernels {
	char *dir;
	struct vc_kernel *k;
	unsigned int n, cap;
};

void vc_kernels_free(struct vc_kernels *ks)
{
	unsigned int i;

	if (!ks)
		return;
	for (i = 0; i < ks->n; i++)
		free(ks->k[i].err);
	free(ks->k);
	free(ks->dir);
	free(ks);
}

int vc_kernels_use(struct vpuxc_model *m, const struct vpuxc_options *o)
{
	struct vc_kernels *ks;

	if (!o || !o->kernels)
		return 0;
	if (m->kernels && !strcmp(m->kernels->dir, o->kernels))
		return 0;
	if (!*o->kernels)
		return vpux_err(VPUX_E_INVAL, "compiler: --kernels: empty directory name");
	ks = calloc(1, sizeof(*ks));
	if (!ks || !(ks->dir = strdup(o->kernels))) {
		free(ks);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	vc_kernels_free(m->kernels);
	m->kernels = ks;
	return 0;
}

const char *vc_kernels_dir(const struct vpuxc_model *m)
{
	return m->kernels ? m->kernels->dir : NULL;
}

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long len = 0;
	int ret = 0;

	*data = NULL;
	if (!f)
		return vpux_err(VPUX_E_IO, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		ret = vpux_err(VPUX_E_IO, "%s: cannot read", path);
	else if (len > (16l << 20))
		ret = vpux_err(VPUX_E_FORMAT, "%s: %ld bytes, above 16 MiB", path,
			       len);
	else if (!(*data = malloc(len ? (size_t)len : 1)))
		ret = vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	else if (fread(*data, 1, (size_t)len, f) != (size_t)len)
		ret = vpux_err(VPUX_E_IO, "%s: cannot read", path);
	fclose(f);
	if (ret) {
		free(*data);
		*data = NULL;
	}
	*size = (size_t)len;
	return ret;
}

/* kernel @name of the model's directory; NULL and why in @buf if none */
static const struct vc_kdecl *kernel_of(const struct vpuxc_model *m,
					const char *name, char *buf,
					size_t len)
{
	struct vc_kernels *ks = m->kernels;
	struct vc_kernel *k;
	char path[4096 + VPUX_LF_NAME_LEN + 8];
	uint8_t *data;
	size_t size = 0;
	unsigned int i;

	if (!c_ident(name) || strlen(name) >= VPUX_LF_NAME_LEN) {
		snprintf(buf, len, "op type '%s' is not a kernel name (a C identifier of at most %u characters)",
			 name, VPUX_LF_NAME_LEN - 1);
		return NULL;
	}
	for (i = 0; i < ks->n; i++)
		if (!strcmp(ks->k[i].name, name))
			break;
	if (i == ks->n) {
		if (vc_grow((void **)&ks->k, &ks->cap, ks->n, sizeof(*ks->k))) {
			snprintf(buf, len, "out of memory");
			return NULL;
		}
		k = &ks->k[ks->n++];
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "%s", name);
		snprintf(path, sizeof(path), "%s/%s.elf", ks->dir, name);
		k->ret = read_file(path, &data, &size);
		if (!k->ret) {
			k->ret = vc_kdecl_parse(data, size, path, &k->d);
			free(data);
		}
		if (k->ret)
			k->err = strdup(vpux_last_error());
	}
	k = &ks->k[i];
	if (k->ret) {
		snprintf(buf, len, "kernel '%s' of --kernels %s: %s", name,
			 ks->dir, k->err ? k->err : "unusable");
		return NULL;
	}
	return &k->d;
}

/* ---- the custom op: registry entry ---- */

static const struct vc_kdecl *decl_of(const struct vpuxc_model *m,
				      const struct vc_node *n)
{
	char buf[8];

	return m->kernels ? kernel_of(m, n->op, buf, sizeof(buf)) : NULL;
}

/* VPUX_KSHAPE_SAME: every output has input 0's shape and type */
static int custom_infer(struct vpuxc_model *m, struct vc_node *n)
{
	const struct vc_kdecl *d = decl_of(m, n);
	const struct vc_value *x = n->n_in ? vc_in(m, n, 0) : NULL;
	unsigned int i;

	if (!d || !x || !vc_known(x))
		return 0;
	for (i = 0; i < n->n_out; i++) {
		struct vc_value *o = vc_out(m, n, i);

		if (o && !o->cst)
			vc_copy_shape(o, x, x->dtype);
	}
	return 0;
}

static const char *onnx_attr_type(int t)
{
	switch (t) {
	case VC_ATTR_FLOAT: return "FLOAT";
	case VC_ATTR_INT: return "INT";
	case VC_ATTR_STRING: return "STRING";
	case VC_ATTR_TENSOR: return "TENSOR";
	case VC_ATTR_FLOATS: return "FLOATS";
	case VC_ATTR_INTS: return "INTS";
	default: return "another type";
	}
}

/* one attribute against its declaration; NULL or why not */
static const char *attr_check(const struct vc_attr *a,
			      const struct vpux_kparam *p, const char *kn,
			      char *buf, size_t len)
{
	int fl = p->type == VPUX_KPARAM_F32;
	int want = p->count > 1 ? (fl ? VC_ATTR_FLOATS : VC_ATTR_INTS) :
		   (fl ? VC_ATTR_FLOAT : VC_ATTR_INT);
	size_t cnt = p->count == 1 ? 1 : fl ? a->n_floats : a->n_ints;
	size_t i;

	if (a->type != want) {
		snprintf(buf, len, "attribute '%s' is %s: kernel '%s' declares %s%s%.0u%s (ONNX %s)",
			 a->name, onnx_attr_type(a->type), kn,
			 ptype_name(p->type), p->count > 1 ? "[" : "",
			 p->count > 1 ? p->count : 0, p->count > 1 ? "]" : "",
			 onnx_attr_type(want));
		return buf;
	}
	if (cnt != p->count) {
		snprintf(buf, len, "attribute '%s' has %zu values: kernel '%s' declares %s[%u]",
			 a->name, cnt, kn, ptype_name(p->type), p->count);
		return buf;
	}
	for (i = 0; !fl && i < cnt; i++) {
		int64_t v = p->count == 1 ? a->i : a->ints[i];

		if (p->type == VPUX_KPARAM_I32 ? v < INT32_MIN || v > INT32_MAX :
						 v < 0 || v > UINT32_MAX) {
			snprintf(buf, len, "attribute '%s': value %lld outside kernel '%s''s %s",
				 a->name, (long long)v, kn, ptype_name(p->type));
			return buf;
		}
	}
	return NULL;
}

static const char *custom_npu(const struct vpuxc_model *m,
			      const struct vc_node *n, char *buf, size_t len)
{
	const struct vc_kdecl *d;
	const struct vpux_kparams_hdr *h;
	unsigned int i, j;

	if (!m->kernels) {
		snprintf(buf, len, "a custom op of domain " VC_CUSTOM_DOMAIN ": compile with --kernels DIR holding %s.elf",
			 n->op);
		return buf;
	}
	d = kernel_of(m, n->op, buf, len);
	if (!d)
		return buf;
	h = &d->h;
	if (m->n_syms) {
		snprintf(buf, len, "kernel '%s': custom kernels do not run in plans (dim_param '%s')",
			 n->op, m->syms[0]);
		return buf;
	}
	if (n->n_in != h->n_inputs || n->n_out != h->n_outputs) {
		snprintf(buf, len, "%u inputs and %u outputs: kernel '%s' declares %u and %u",
			 n->n_in, n->n_out, n->op, h->n_inputs, h->n_outputs);
		return buf;
	}
	if (!(h->in_types & VPUX_KPARAMS_T(VPUX_SHAVE_DT_F16)) ||
	    !(h->out_types & VPUX_KPARAMS_T(VPUX_SHAVE_DT_F16))) {
		snprintf(buf, len, "kernel '%s' does not take F16 tensors (in_types 0x%x, out_types 0x%x): the compiler passes float values in F16",
			 n->op, h->in_types, h->out_types);
		return buf;
	}
	for (i = 0; i < n->n_in + n->n_out; i++) {
		int out = i >= n->n_in;
		unsigned int k = out ? i - n->n_in : i;
		const struct vc_value *v = out ? vc_out(m, n, k) : vc_in(m, n, k);

		if (!v) {
			snprintf(buf, len, "%s %u is omitted: kernel '%s' takes every one",
				 out ? "output" : "input", k, n->op);
			return buf;
		}
		if (v->dtype != VPUXC_FLOAT) {
			snprintf(buf, len, "%s %u '%s' is %s: kernel '%s' takes float tensors",
				 out ? "output" : "input", k, v->name,
				 vpuxc_dtype_name(v->dtype), n->op);
			return buf;
		}
		if (!vc_known(v) || v->rank > (int)VPUX_MEMREF_MAX_RANK) {
			snprintf(buf, len, "%s %u '%s': no static shape of rank 0..%u",
				 out ? "output" : "input", k, v->name,
				 VPUX_MEMREF_MAX_RANK);
			return buf;
		}
	}
	for (i = 0; i < h->n_params; i++) {
		const struct vc_attr *a = vc_attr(n, d->p[i].name);

		if (!a) {
			snprintf(buf, len, "attribute '%s' missing: kernel '%s' declares %s%s%.0u%s %s",
				 d->p[i].name, n->op, ptype_name(d->p[i].type),
				 d->p[i].count > 1 ? "[" : "",
				 d->p[i].count > 1 ? d->p[i].count : 0,
				 d->p[i].count > 1 ? "]" : "", d->p[i].name);
			return buf;
		}
		if (attr_check(a, &d->p[i], n->op, buf, len))
			return buf;
	}
	for (j = 0; j < n->n_attrs; j++) {
		for (i = 0; i < h->n_params; i++)
			if (!strcmp(n->attrs[j].name, d->p[i].name))
				break;
		if (i == h->n_params) {
			snprintf(buf, len, "attribute '%s' is not a parameter of kernel '%s'",
				 n->attrs[j].name, n->op);
			return buf;
		}
	}
	return NULL;
}

/* the parameter structure from the node's attributes (checked) */
static void pack_params(const struct vc_node *n, const struct vc_kdecl *d,
			uint8_t *s)
{
	unsigned int i, k;

	memset(s, 0, d->h.params_size);
	for (i = 0; i < d->h.n_params; i++) {
		const struct vpux_kparam *p = &d->p[i];
		const struct vc_attr *a = vc_attr(n, p->name);

		for (k = 0; k < p->count; k++) {
			uint32_t u;

			if (p->type == VPUX_KPARAM_F32) {
				float f = p->count == 1 ? a->f : a->floats[k];

				memcpy(&u, &f, 4);
			} else {
				u = (uint32_t)(p->count == 1 ? a->i : a->ints[k]);
			}
			s[p->offset + 4 * k] = (uint8_t)u;
			s[p->offset + 4 * k + 1] = (uint8_t)(u >> 8);
			s[p->offset + 4 * k + 2] = (uint8_t)(u >> 16);
			s[p->offset + 4 * k + 3] = (uint8_t)(u >> 24);
		}
	}
}

static int note_kernel(struct qprog *p, const char *name)
{
	unsigned int i;
	char **k;

	for (i = 0; i < p->n_kernels; i++)
		if (!strcmp(p->kernels[i], name))
			return 0;
	k = realloc(p->kernels, sizeof(*k) * (p->n_kernels + 1));
	if (!k)
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	p->kernels = k;
	k[p->n_kernels] = strdup(name);
	if (!k[p->n_kernels])
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	p->n_kernels++;
	return 0;
}

/*
 * WIN_F is one scratch tensor: the inputs, then the outputs, each 64-byte
 * aligned, as row-major FP16 views. DMA copies the inputs in, the kernel
 * runs on the SHAVE of tile 0, DMA copies the outputs out.
 */
static int custom_lower(struct lctx *c, int k)
{
	const struct vc_node *n = &c->m->n[k];
	const struct vc_kdecl *d = decl_of(c->m, n);
	struct qprog *p = c->p;
	unsigned int nt, i, j;
	int t[VPUX_KPARAMS_MAX_TENSORS], w[VPUX_KPARAMS_MAX_TENSORS];
	uint64_t off[VPUX_KPARAMS_MAX_TENSORS], end = 0;
	uint8_t params[VPUX_SHAVE_ARGS_MAX];
	char *hex, *in = NULL, *out = NULL;
	size_t il = 0, ol = 0;
	int64_t words;
	FILE *fi, *fo;
	int wf, op, r;

	if (!d)
		return vpux_err(VPUX_E_INVAL, "compiler: kernel '%s' vanished",
				n->op);
	nt = n->n_in + n->n_out;
	for (i = 0; i < nt; i++) {
		int o = i >= n->n_in;

		t[i] = o ? vc_f16_out(c, vc_out(c->m, n, i - n->n_in), 0) :
			   vc_f16_rowmajor(c, k, vc_in(c->m, n, i));
		if (t[i] < 0)
			return t[i];
		off[i] = end;
		end += (p->t[t[i]].size + 63) & ~63ull;
	}
	words = (int64_t)(end / 2);
	wf = vc_f16_new(c, 1, &words, 0);
	if (wf < 0)
		return wf;
	for (i = 0; i < nt; i++) {
		w[i] = vc_view_at(c, wf, off[i], p->t[t[i]].rank,
				  p->t[t[i]].dims, 0);
		if (w[i] < 0)
			return w[i];
		if (i < n->n_in && (r = vc_copy(c, k, t[i], w[i])) < 0)
			return r;
	}
	pack_params(n, d, params);
	hex = malloc(2 * (size_t)d->h.params_size + 1);
	fi = open_memstream(&in, &il);
	fo = open_memstream(&out, &ol);
	if (!hex || !fi || !fo) {
		if (fi)
			fclose(fi);
		if (fo)
			fclose(fo);
		free(in);
		free(out);
		free(hex);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	for (j = 0; j < d->h.params_size; j++)
		sprintf(hex + 2 * j, "%02x", params[j]);
	hex[2 * j] = 0;
	for (i = 0; i < nt; i++)
		fprintf(i < n->n_in ? fi : fo, "%st%d",
			i && i != n->n_in ? "," : "", w[i]);
	fclose(fi);
	fclose(fo);
	op = vc_emit_op(p, QOP_SHAVE, k, "shave elf %s win_f=t%d in=%s out=%s%s%s",
			n->op, wf, in, out, j ? " params=" : "", hex);
	free(in);
	free(out);
	free(hex);
	if (op < 0)
		return op;
	vc_op_uses(p, op, wf);
	for (i = n->n_in; i < nt; i++)
		if ((r = vc_copy(c, k, w[i], t[i])) < 0)
			return r;
	return note_kernel(p, n->op);
}

/* vc_op_find()'s entry for a com.vpux node the registry does not know */
const struct vc_op vc_op_custom = {
	VC_CUSTOM_DOMAIN, "(custom kernel)", 0, 0, custom_infer, custom_npu,
	custom_lower,
};
