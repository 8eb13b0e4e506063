// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SHAVE ELF kernels in the loadable (1.5, Documentation/loadable.rst):
 * the rules of .vpux.kernels, .vpux.kcode, .vpux.kinvocations,
 * .vpux.kdata and .vpux.kstacks, and of a SHAVE op whose kernel_id is
 * VPUX_SHAVE_KERNEL_ELF (a kernel task). Every error names the section,
 * the record and the field. The engine core checks the task record it
 * becomes again (struct dla_shave_task_op).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lf.h"
#include "lf_kernels.h"
#include "vpux_shave_abi.h"
#include "vpux_shave_rt.h"

#define BAD(sec, rec, field, fmt, ...) \
	vpux_err(VPUX_E_FORMAT, "%s: record %u: field %s: " fmt, \
		 sec, (unsigned int)(rec), field, ##__VA_ARGS__)

_Static_assert(sizeof(struct vpux_memref) == VPUX_LF_MEMREF_SIZE, "memref");

static uint32_t align8(uint32_t x)
{
	return (x + 7u) & ~7u;
}

const struct vpux_lf_kernel *lf_runtime_kernel(const struct lf_image *img)
{
	uint32_t i;

	for (i = 0; i < img->n_kernels; i++)
		if (img->kernels[i].kind == VPUX_LF_KERNEL_RUNTIME)
			return &img->kernels[i];
	return NULL;
}

uint32_t lf_kcode_base(const struct lf_image *img)
{
	return align8(img->kargs_size);
}

uint32_t lf_kdata_base(const struct lf_image *img)
{
	return lf_kcode_base(img) + align8(img->kcode_size);
}

uint32_t lf_kbuf_size(const struct lf_image *img)
{
	return img->n_kernels ? lf_kdata_base(img) + img->kdata_size :
	       img->kargs_size;
}

const struct vpux_lf_kinvocation *lf_kinv_of(const struct lf_image *img,
					     uint32_t op)
{
	uint32_t lo = 0, hi = img->n_kinvs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (img->kinvs[mid].op == op)
			return &img->kinvs[mid];
		if (img->kinvs[mid].op < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int any_reserved(const uint32_t *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (w[i])
			return 1;
	return 0;
}

static int check_kernel(const struct lf_image *img, uint32_t i)
{
	const char *S = VPUX_LF_SEC_KERNELS;
	const struct vpux_lf_kernel *k = &img->kernels[i];
	uint32_t j, max;

	if (!k->name[0] || !memchr(k->name, 0, VPUX_LF_NAME_LEN))
		return BAD(S, i, "name", "empty or not NUL-terminated");
	for (j = 0; j < i; j++)
		if (!strcmp(img->kernels[j].name, k->name))
			return BAD(S, i, "name", "'%s' not unique (record %u)",
				   k->name, j);
	if (k->kind == VPUX_LF_KERNEL_RUNTIME) {
		for (j = 0; j < i; j++)
			if (img->kernels[j].kind == VPUX_LF_KERNEL_RUNTIME)
				return BAD(S, i, "kind",
					   "2, a second runtime kernel (record %u is one)",
					   j);
	} else if (k->kind != VPUX_LF_KERNEL_TASK) {
		return BAD(S, i, "kind",
			   "%u unknown (1 a task kernel, 2 the runtime kernel)",
			   k->kind);
	}
	max = k->kind == VPUX_LF_KERNEL_RUNTIME ? VPUX_SHAVE_RT_CODE_MAX :
	      VPUX_SHAVE_CODE_MAX;
	if (k->flags)
		return BAD(S, i, "flags", "0x%x not zero", k->flags);
	if (any_reserved(k->reserved, 3))
		return BAD(S, i, "reserved", "not zero");
	if (k->code_size < 4 || k->code_size > max || k->code_size % 4)
		return BAD(S, i, "code_size",
			   "%u not 4..%u bytes, a multiple of 4", k->code_size,
			   max);
	if (k->code_offset % 8 ||
	    (uint64_t)k->code_offset + k->code_size > img->kcode_size)
		return BAD(S, i, "code_offset",
			   "%u (+%u) unaligned or outside %s (%u bytes)",
			   k->code_offset, k->code_size, VPUX_LF_SEC_KCODE,
			   img->kcode_size);
	if (k->entry >= k->code_size || k->entry % 2)
		return BAD(S, i, "entry", "%u odd or not below code_size %u",
			   k->entry, k->code_size);
	return 0;
}

static int check_kinv(const struct lf_image *img, uint32_t i)
{
	const char *S = VPUX_LF_SEC_KINVOCATIONS;
	const struct vpux_lf_kinvocation *v = &img->kinvs[i];

	if (v->op >= img->n_shave)
		return BAD(S, i, "op", "%u, there are %u SHAVE ops", v->op,
			   img->n_shave);
	if (i && v->op <= img->kinvs[i - 1].op)
		return BAD(S, i, "op", "%u after %u: not in increasing order",
			   v->op, img->kinvs[i - 1].op);
	if (img->shave[v->op].kernel_id != VPUX_SHAVE_KERNEL_ELF)
		return BAD(S, i, "op",
			   "SHAVE op %u runs built-in kernel %u, not an ELF kernel (0x%x)",
			   v->op, img->shave[v->op].kernel_id,
			   VPUX_SHAVE_KERNEL_ELF);
	if (v->kernel >= img->n_kernels)
		return BAD(S, i, "kernel", "%u, there are %u kernels",
			   v->kernel, img->n_kernels);
	if (img->kernels[v->kernel].kind != VPUX_LF_KERNEL_TASK)
		return BAD(S, i, "kernel",
			   "%u is the runtime kernel, not a task kernel",
			   v->kernel);
	if (v->tile >= img->n_kstacks)
		return BAD(S, i, "tile",
			   "%u has no stack configuration (%u tiles in %s)",
			   v->tile, img->n_kstacks, VPUX_LF_SEC_KSTACKS);
	if (v->budget > VPUX_SHAVE_BUDGET_MAX)
		return BAD(S, i, "budget", "%u above %u (units of 1024)",
			   v->budget, VPUX_SHAVE_BUDGET_MAX);
	if (v->data_size > VPUX_SHAVE_DATA_MAX || v->data_size % 4)
		return BAD(S, i, "data_size",
			   "%u above %u or not a multiple of 4", v->data_size,
			   VPUX_SHAVE_DATA_MAX);
	if (v->data_offset % 8 ||
	    (uint64_t)v->data_offset + v->data_size > img->kdata_size)
		return BAD(S, i, "data_offset",
			   "%u (+%u) unaligned or outside %s (%u bytes)",
			   v->data_offset, v->data_size, VPUX_LF_SEC_KDATA,
			   img->kdata_size);
	if (v->memrefs_out & ~v->memrefs)
		return BAD(S, i, "memrefs_out", "0x%x not within memrefs 0x%x",
			   v->memrefs_out, v->memrefs);
	if (any_reserved(v->reserved, 4))
		return BAD(S, i, "reserved", "not zero");
	return 0;
}

static int check_kstack(const struct lf_image *img, uint32_t i)
{
	const char *S = VPUX_LF_SEC_KSTACKS;
	const struct vpux_lf_kstack *k = &img->kstacks[i];

	if (k->stack_size < VPUX_SHAVE_STACK_MIN ||
	    k->stack_size > VPUX_SHAVE_STACK_MAX ||
	    k->stack_size % VPUX_SHAVE_STACK_ALIGN)
		return BAD(S, i, "stack_size",
			   "%u not %u..%u bytes, a multiple of %u",
			   k->stack_size, VPUX_SHAVE_STACK_MIN,
			   VPUX_SHAVE_STACK_MAX, VPUX_SHAVE_STACK_ALIGN);
	if (k->reserved)
		return BAD(S, i, "reserved", "not zero");
	return 0;
}

int lf_check_kernels(const struct lf_image *img)
{
	uint32_t i;
	int ret;

	if (!img->kernels && !img->kcode && !img->kinvs && !img->kdata &&
	    !img->kstacks) {
		for (i = 0; i < img->n_shave; i++)
			if (img->shave[i].kernel_id == VPUX_SHAVE_KERNEL_ELF)
				break;
		if (i == img->n_shave)
			return 0;
	}
	if (img->hdr.version_minor < 5)
		return vpux_err(VPUX_E_FORMAT,
				"%s: ELF kernels in a 1.%u file (they are 1.5)",
				img->kernels ? VPUX_LF_SEC_KERNELS :
				img->kinvs ? VPUX_LF_SEC_KINVOCATIONS :
				img->kstacks ? VPUX_LF_SEC_KSTACKS :
				img->kcode ? VPUX_LF_SEC_KCODE :
				img->kdata ? VPUX_LF_SEC_KDATA :
				VPUX_LF_SEC_SHAVE, img->hdr.version_minor);
	if (img->n_kstacks > VPUX_LF_CMX_TILES)
		return vpux_err(VPUX_E_FORMAT,
				"%s: %u records, target %u has %u tiles",
				VPUX_LF_SEC_KSTACKS, img->n_kstacks,
				img->hdr.target, VPUX_LF_CMX_TILES);
	for (i = 0; i < img->n_kernels; i++)
		if ((ret = check_kernel(img, i)))
			return ret;
	for (i = 0; i < img->n_kstacks; i++)
		if ((ret = check_kstack(img, i)))
			return ret;
	for (i = 0; i < img->n_kinvs; i++)
		if ((ret = check_kinv(img, i)))
			return ret;
	for (i = 0; i < img->n_shave; i++) {
		if (img->shave[i].kernel_id != VPUX_SHAVE_KERNEL_ELF)
			continue;
		if (!lf_kinv_of(img, i))
			return BAD(VPUX_LF_SEC_SHAVE, i, "kernel_id",
				   "an ELF kernel task without a record in %s",
				   VPUX_LF_SEC_KINVOCATIONS);
	}
	return 0;
}

/* memref @k of an ELF op's arguments: static, in WIN_F, inside it */
static int check_elf_memref(const struct lf_image *img, uint32_t i,
			    const struct vpux_lf_shave *o, unsigned int k)
{
	const char *S = VPUX_LF_SEC_SHAVE;
	struct vpux_memref m;
	uint64_t ext, span;
	char field[24];
	uint32_t d, bits;

	snprintf(field, sizeof(field), "args.memref[%u]", k);
	if ((k + 1) * VPUX_LF_MEMREF_SIZE > o->args_size)
		return BAD(S, i, field, "past the %u argument bytes",
			   o->args_size);
	memcpy(&m, img->kargs + o->args_offset + k * VPUX_LF_MEMREF_SIZE,
	       sizeof(m));
	if (VPUX_WADDR_WINDOW(m.addr) != VPUX_SHAVE_WIN_F >> 28)
		return BAD(S, i, field,
			   "address 0x%08x: an ELF kernel's memrefs are in WIN_F (0x%08x)",
			   m.addr, VPUX_SHAVE_WIN_F);
	if (m.is_static != 1 || m.dims_addr)
		return BAD(S, i, field,
			   "is_static %u dims_addr 0x%x: an ELF kernel's memrefs are static",
			   m.is_static, m.dims_addr);
	if (m.rank < 1 || m.rank > VPUX_MEMREF_MAX_RANK)
		return BAD(S, i, field, "rank %u not in 1..%u", m.rank,
			   VPUX_MEMREF_MAX_RANK);
	bits = lf_dt_bits(m.data_type);
	if (!bits)
		return BAD(S, i, field, "data_type %u", m.data_type);
	ext = bits;
	for (d = 0; d < m.rank; d++)
		if (!m.dims[d] || m.strides[d] > (1ull << 40) ||
		    __builtin_mul_overflow((uint64_t)(m.dims[d] - 1),
					   m.strides[d], &span) ||
		    __builtin_add_overflow(ext, span, &ext))
			return BAD(S, i, field, "dim %u size/stride", d);
	ext = (ext + 7) / 8;
	if (VPUX_WADDR_OFFSET(m.addr) + ext > o->windows[0].size)
		return BAD(S, i, field,
			   "spans %llu bytes at offset %u of WIN_F (windows[0], %u bytes)",
			   (unsigned long long)ext, VPUX_WADDR_OFFSET(m.addr),
			   o->windows[0].size);
	return 0;
}

int lf_check_elf_op(const struct lf_image *img, uint32_t i,
		    const struct vpux_lf_shave *o)
{
	const char *S = VPUX_LF_SEC_SHAVE;
	const struct vpux_lf_kinvocation *v;
	char field[16];
	unsigned int w, k;
	int ret;

	if (img->hdr.version_minor < 5)
		return BAD(S, i, "kernel_id",
			   "ELF kernels are from format 1.5 (the file is 1.%u)",
			   img->hdr.version_minor);
	if (o->args_size > VPUX_SHAVE_ARGS_MAX)
		return BAD(S, i, "args_size", "%u above %u", o->args_size,
			   VPUX_SHAVE_ARGS_MAX);
	if (o->args_offset % 8 ||
	    (uint64_t)o->args_offset + o->args_size > img->kargs_size)
		return BAD(S, i, "args_offset",
			   "%u (+%u) unaligned or outside %s (%u bytes)",
			   o->args_offset, o->args_size, VPUX_LF_SEC_KARGS,
			   img->kargs_size);
	for (w = 1; w < VPUX_LF_MAX_WINDOWS; w++) {
		const struct vpux_lf_ref *r = &o->windows[w];

		snprintf(field, sizeof(field), "windows[%u]", w);
		if (r->size | r->tensor | r->flags | r->offset)
			return BAD(S, i, field,
				   "set: an ELF kernel has one window, WIN_F (windows[0])");
	}
	if (o->windows[0].size > VPUX_SHAVE_WIN_F_MAX)
		return BAD(S, i, "windows[0]", "%u bytes: WIN_F takes at most %u",
			   o->windows[0].size, VPUX_SHAVE_WIN_F_MAX);
	ret = lf_check_ref(img, LF_SHAVE, i, "windows[0]", &o->windows[0], 0, 1);
	if (ret)
		return ret;
	v = lf_kinv_of(img, i);
	if (!v)
		return BAD(S, i, "kernel_id",
			   "an ELF kernel task without a record in %s",
			   VPUX_LF_SEC_KINVOCATIONS);
	for (k = 0; k < 32; k++)
		if (v->memrefs >> k & 1) {
			ret = check_elf_memref(img, i, o, k);
			if (ret)
				return ret;
		}
	return 0;
}
