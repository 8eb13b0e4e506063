/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The loadable in memory: what lf_parse() reads from an ELF image and
 * lf_write_*() writes, plus semantic validation and the barrier schedule
 * shared by validation and the CPU reference.
 */
#ifndef VPUX_LF_H
#define VPUX_LF_H

#include <stddef.h>
#include <stdint.h>

#include "lf_format.h"

/*
 * An extra section for the writer (tests: unknown/required sections; the
 * compiler's .vpux.io). The writer puts a section header (@flags,
 * @rec_size) before the @size bytes of @data, unless @raw: then @data is
 * the whole section, its struct vpux_lf_sechdr included, written as it is
 * (a test's bad header).
 */
struct lf_extra_section {
	const char *name;
	uint16_t flags;
	const void *data;
	uint32_t size;		/* bytes */
	uint32_t rec_size;	/* bytes per record (0: a byte blob) */
	int raw;		/* @data is the whole section, header included */
};

struct lf_image {
	struct vpux_lf_header hdr;
	struct vpux_lf_tensor *tensors;
	uint32_t n_tensors;
	const uint8_t *weights;		/* hdr.weights_size bytes */
	uint32_t weights_count;		/* bytes in .vpux.weights */
	struct vpux_lf_barrier *barriers;
	uint32_t n_barriers;
	struct vpux_lf_dma *dma;
	uint32_t n_dma;
	struct vpux_lf_dpu *dpu;
	uint32_t n_dpu;
	struct vpux_lf_shave *shave;
	uint32_t n_shave;
	const uint8_t *kargs;
	uint32_t kargs_size;
	struct vpux_lf_symbol *symbols;
	uint32_t n_symbols;
	/* 1.2 plan: n_blocks == 0 means a static loadable */
	struct vpux_lf_plan_block *blocks;
	uint32_t n_blocks;
	struct vpux_lf_plan_template *templates;
	uint32_t n_templates;
	struct vpux_lf_plan_patch *patches;
	uint32_t n_patches;
	uint32_t *expr;
	uint32_t n_expr;
	/* 1.4 names: n_names == 0 means every tensor has its short name */
	struct vpux_lf_name *names;
	uint32_t n_names;
	const char *strtab;		/* reader: a copy, owned */
	uint32_t strtab_size;
	/* 1.5 ELF kernels: n_kernels == 0 means none */
	struct vpux_lf_kernel *kernels;
	uint32_t n_kernels;
	const uint8_t *kcode;		/* images, linked at WIN_D */
	uint32_t kcode_size;
	struct vpux_lf_kinvocation *kinvs;
	uint32_t n_kinvs;
	const uint8_t *kdata;		/* RW data of the invocations */
	uint32_t kdata_size;
	struct vpux_lf_kstack *kstacks;
	uint32_t n_kstacks;
	/* writer only */
	const struct lf_extra_section *extra;
	unsigned int n_extra;
	/*
	 * Bytes appended to every record of the record sections, as a newer
	 * minor version that adds fields would (forward-compatibility tests).
	 */
	uint32_t rec_extra;
	/* reader: set when the arrays are owned by the image */
	int owned;
};

enum { LF_DMA = VPUX_LF_OP_DMA, LF_DPU = VPUX_LF_OP_DPU,
       LF_SHAVE = VPUX_LF_OP_SHAVE, LF_KINDS = 3 };

/*
 * Parse and check the container (ELF, section table, section headers,
 * checksums, versions, record sizes). Arrays are allocated; weights and
 * kargs point into @data, which must outlive @img (the string table is
 * copied).
 */
int lf_parse(const void *data, size_t size, struct lf_image *img);
/* Semantic checks: every record and field, extents, the barrier graph. */
int lf_validate(const struct lf_image *img);
void lf_image_free(struct lf_image *img);
/*
 * The checks of lf_validate() for op record @rec of @kind (op @i of
 * its section, for messages): a plan template's instance is checked so.
 */
int lf_check_op(const struct lf_image *img, unsigned int kind, uint32_t i,
		const void *rec);

int lf_write_mem(const struct lf_image *img, void **data, size_t *size);
int lf_write_file(const struct lf_image *img, const char *path);

/* Element size in bits of VPUX_DT_* (= VPUX_SHAVE_DT_*), 0 if unknown. */
unsigned int lf_dt_bits(uint32_t dt);
/* "u8", "i8", "i32", "f16", "f32", or "?" */
const char *lf_dt_name(uint32_t dt);
/* VPUX_DT_F16 or VPUX_DT_F32: no quantisation */
int lf_dt_float(uint32_t dt);
/* Size in bytes of kernel @id's argument struct, 0 if unknown. */
uint32_t lf_kernel_args_size(uint32_t id);
/* Bytes a tensor description spans (0 on overflow). */
uint64_t lf_tensor_extent(const struct vpux_lf_tensor *t);
/* FNV-1a (32-bit) of a symbol name's bytes (vpux_lf_symbol.hash) */
uint32_t lf_fnv1a(const char *name);
/*
 * @t with each dynamic dim replaced by its symbol's value in @sym (one
 * u64 per symbol), or by the symbol's max when @sym is NULL; a value that
 * does not fit (or a symbol that does not exist) becomes 0.
 */
void lf_tensor_resolve(const struct lf_image *img,
		       const struct vpux_lf_tensor *t, const uint64_t *sym,
		       struct vpux_lf_tensor *out);
/*
 * Where the actual dims of output tensor @t come from: the SHAVE op whose
 * dynamic output memref writes @t's region (the last one in op order; a
 * static op list's, for a tensor with dynamic dims) and its dims record,
 * u32[@rank] at @offset bytes into @region.
 */
struct lf_dims_src {
	uint32_t op;
	uint32_t rank;
	uint32_t region;
	uint64_t offset;
};
/* Return: the op's index (and *@src), or -1 when no kernel shapes @t. */
int lf_output_dims_src(const struct lf_image *img, uint32_t t,
		       struct lf_dims_src *src);
/*
 * The u32[rank] little-endian record @rec as output tensor @t's dims
 * (@dims, rank entries); each must be 1..the tensor's bound (a static
 * dim, a symbol's max). Return: 0, or -1 with *@bad_dim the first not
 * (@dims holds the record's values up to and including it).
 */
int lf_output_dims_read(const struct lf_image *img, uint32_t t,
			const void *rec, uint64_t *dims, uint32_t *bad_dim);
/*
 * The name of tensor @t: its .vpux.names string (1.4), else the 32-byte
 * record's. Valid as long as @img (and the data its strtab points into).
 */
const char *lf_tensor_name(const struct lf_image *img, uint32_t t);
/*
 * The invocation record of SHAVE op @op (an ELF kernel task), or NULL.
 * Valid on a validated image (records in increasing op order).
 */
const struct vpux_lf_kinvocation *lf_kinv_of(const struct lf_image *img,
					     uint32_t op);
/*
 * Byte offsets of the kernel images and the RW data in the kernel-argument
 * buffer libvpux uploads (.vpux.kargs, then .vpux.kcode, then
 * .vpux.kdata, each 8-byte aligned), and its size.
 */
uint32_t lf_kcode_base(const struct lf_image *img);
/* the loadable's runtime kernel (.vpux.kernels kind 2), or NULL */
const struct vpux_lf_kernel *lf_runtime_kernel(const struct lf_image *img);
uint32_t lf_kdata_base(const struct lf_image *img);
uint32_t lf_kbuf_size(const struct lf_image *img);
/* Bytes of a region (0 if none) */
uint64_t lf_region_size(const struct lf_image *img, uint32_t region);

/* Deps of op @i of @kind. */
const struct vpux_lf_deps *lf_op_deps(const struct lf_image *img,
				      unsigned int kind, uint32_t i);
uint32_t lf_op_count(const struct lf_image *img, unsigned int kind);

/*
 * Walk the ops in an order the barriers allow (each kind's list in order);
 * call @run for each (if not NULL; a non-zero return stops the walk).
 * Return: 0, the callback's value, or VPUX_E_FORMAT if some op can never
 * start (a cycle).
 */
int lf_schedule(const struct lf_image *img,
		int (*run)(void *ctx, unsigned int kind, uint32_t i),
		void *ctx);

#endif /* VPUX_LF_H */
