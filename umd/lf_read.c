// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Loadable container reader: ELF header and section table (with bounds and
 * overlap checks made before libelf touches anything), .vpux.* section
 * headers, checksums, versions and record sizes. Unknown sections are
 * skipped unless flagged required. Records are copied into arrays of the
 * sizes this reader knows (a newer minor may append fields to records).
 */
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "err.h"
#include "lf.h"

struct sec_desc {
	const char *name;
	uint32_t rec_size;
	size_t field;		/* offsetof the array pointer in lf_image */
	size_t count_field;	/* offsetof the count, or (size_t)-1 */
	int blob;		/* rec_size 1, kept as a pointer */
};

#define ARR(n, t, a, c) { n, sizeof(t), offsetof(struct lf_image, a), \
			  offsetof(struct lf_image, c), 0 }

static const struct sec_desc known[] = {
	{ VPUX_LF_SEC_HEADER, sizeof(struct vpux_lf_header), 0, (size_t)-1, 0 },
	ARR(VPUX_LF_SEC_TENSORS, struct vpux_lf_tensor, tensors, n_tensors),
	{ VPUX_LF_SEC_WEIGHTS, 1, offsetof(struct lf_image, weights),
	  offsetof(struct lf_image, weights_count), 1 },
	ARR(VPUX_LF_SEC_BARRIERS, struct vpux_lf_barrier, barriers, n_barriers),
	ARR(VPUX_LF_SEC_DMA, struct vpux_lf_dma, dma, n_dma),
	ARR(VPUX_LF_SEC_DPU, struct vpux_lf_dpu, dpu, n_dpu),
	ARR(VPUX_LF_SEC_SHAVE, struct vpux_lf_shave, shave, n_shave),
	{ VPUX_LF_SEC_KARGS, 1, offsetof(struct lf_image, kargs),
	  offsetof(struct lf_image, kargs_size), 1 },
	ARR(VPUX_LF_SEC_SYMBOLS, struct vpux_lf_symbol, symbols, n_symbols),
	ARR(VPUX_LF_SEC_PLAN_BLOCKS, struct vpux_lf_plan_block, blocks, n_blocks),
	ARR(VPUX_LF_SEC_PLAN_TEMPLATES, struct vpux_lf_plan_template, templates,
	    n_templates),
	ARR(VPUX_LF_SEC_PLAN_PATCHES, struct vpux_lf_plan_patch, patches,
	    n_patches),
	ARR(VPUX_LF_SEC_PLAN_EXPR, uint32_t, expr, n_expr),
	ARR(VPUX_LF_SEC_NAMES, struct vpux_lf_name, names, n_names),
	{ VPUX_LF_SEC_STRTAB, 1, offsetof(struct lf_image, strtab),
	  offsetof(struct lf_image, strtab_size), 1 },
	ARR(VPUX_LF_SEC_KERNELS, struct vpux_lf_kernel, kernels, n_kernels),
	{ VPUX_LF_SEC_KCODE, 1, offsetof(struct lf_image, kcode),
	  offsetof(struct lf_image, kcode_size), 1 },
	ARR(VPUX_LF_SEC_KINVOCATIONS, struct vpux_lf_kinvocation, kinvs,
	    n_kinvs),
	{ VPUX_LF_SEC_KDATA, 1, offsetof(struct lf_image, kdata),
	  offsetof(struct lf_image, kdata_size), 1 },
	ARR(VPUX_LF_SEC_KSTACKS, struct vpux_lf_kstack, kstacks, n_kstacks),
};
#define N_KNOWN (sizeof(known) / sizeof(known[0]))

struct span {
	uint64_t off, size;
	unsigned int idx;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Raw ELF header and section table checks, before libelf. */
static int check_layout(const unsigned char *p, size_t size)
{
	Elf64_Ehdr eh;
	struct span *sp;
	unsigned int i, n = 0;
	int ret = 0;

	if (size < sizeof(eh))
		return vpux_err(VPUX_E_FORMAT,
				"file: truncated (%zu bytes, ELF header needs %zu)",
				size, sizeof(eh));
	memcpy(&eh, p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return vpux_err(VPUX_E_FORMAT, "file: bad magic (not ELF)");
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return vpux_err(VPUX_E_FORMAT,
				"ELF header: not ELF64 little endian");
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum ||
	    eh.e_shnum >= SHN_LORESERVE)
		return vpux_err(VPUX_E_FORMAT,
				"ELF header: bad section table (e_shentsize %u, e_shnum %u)",
				eh.e_shentsize, eh.e_shnum);
	if (eh.e_shoff > size ||
	    (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > size - eh.e_shoff)
		return vpux_err(VPUX_E_FORMAT,
				"ELF header: section table outside the file (truncated?)");
	if (eh.e_shstrndx >= eh.e_shnum)
		return vpux_err(VPUX_E_FORMAT, "ELF header: bad e_shstrndx %u",
				eh.e_shstrndx);
	sp = calloc(eh.e_shnum + 1u, sizeof(*sp));
	if (!sp)
		return vpux_err(VPUX_E_NOMEM, "out of memory");
	for (i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;

		memcpy(&sh, p + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL ||
		    !sh.sh_size)
			continue;
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
			ret = vpux_err(VPUX_E_FORMAT,
				       "section %u: [0x%llx, +0x%llx) outside the file (%zu bytes)",
				       i, (unsigned long long)sh.sh_offset,
				       (unsigned long long)sh.sh_size, size);
			goto out;
		}
		sp[n++] = (struct span){ sh.sh_offset, sh.sh_size, i };
	}
	sp[n++] = (struct span){ eh.e_shoff,
				 (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr),
				 eh.e_shnum };
	qsort(sp, n, sizeof(*sp), span_cmp);
	if (sp[0].off < sizeof(eh)) {
		ret = vpux_err(VPUX_E_FORMAT,
			       "section %u: overlaps the ELF header", sp[0].idx);
		goto out;
	}
	for (i = 1; i < n; i++)
		if (sp[i].off < sp[i - 1].off + sp[i - 1].size) {
			ret = vpux_err(VPUX_E_FORMAT,
				       "section %u overlaps section %u%s",
				       sp[i].idx, sp[i - 1].idx,
				       sp[i].idx == eh.e_shnum ||
				       sp[i - 1].idx == eh.e_shnum ?
				       " (section table)" : "");
			goto out;
		}
out:
	free(sp);
	return ret;
}

/* A 1.0/1.1 symbol record: no hash, no width */
#define LF_SYMBOL_V1_SIZE	56u

static int read_section(struct lf_image *img, const struct sec_desc *k,
			const unsigned char *pay, uint32_t count,
			uint32_t rec_size)
{
	unsigned char *base = (unsigned char *)img;
	unsigned char *arr;
	uint32_t i;

	if (rec_size < k->rec_size) {	/* only old symbol records */
		struct vpux_lf_symbol *y = calloc(count ? count : 1,
						  sizeof(*y));

		if (!y)
			return vpux_err(VPUX_E_NOMEM, "%s: out of memory",
					k->name);
		for (i = 0; i < count; i++) {
			memcpy(&y[i], pay + (size_t)i * rec_size,
			       LF_SYMBOL_V1_SIZE);
			y[i].hash = lf_fnv1a(y[i].name);
			y[i].width = 8;
		}
		img->symbols = y;
		img->n_symbols = count;
		return 0;
	}

	if (k->field == offsetof(struct lf_image, strtab)) {
		/* names outlive @data: libvpux keeps them with the network */
		char *copy = malloc((size_t)count + 1u);

		if (!copy)
			return vpux_err(VPUX_E_NOMEM, "%s: out of memory",
					k->name);
		memcpy(copy, pay, count);
		copy[count] = 0;
		img->strtab = copy;
		img->strtab_size = count;
		return 0;
	}
	if (k->blob) {
		*(const uint8_t **)(base + k->field) = pay;
		if (k->count_field != (size_t)-1)
			*(uint32_t *)(base + k->count_field) = count;
		return 0;
	}
	if (k->count_field == (size_t)-1) {	/* the header */
		if (count != 1)
			return vpux_err(VPUX_E_FORMAT,
					"%s: count %u, must be 1", k->name,
					count);
		memcpy(&img->hdr, pay, sizeof(img->hdr));
		return 0;
	}
	arr = calloc(count ? count : 1, k->rec_size);
	if (!arr)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", k->name);
	for (i = 0; i < count; i++)
		memcpy(arr + (size_t)i * k->rec_size,
		       pay + (size_t)i * rec_size, k->rec_size);
	*(void **)(base + k->field) = arr;
	*(uint32_t *)(base + k->count_field) = count;
	return 0;
}

static int parse_elf(Elf *e, const unsigned char *p, struct lf_image *img)
{
	unsigned int seen = 0;
	uint32_t sym_rec = 0;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int ret;

	if (elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx))
		return vpux_err(VPUX_E_FORMAT, "file: libelf: %s",
				elf_errmsg(-1));
	while ((scn = elf_nextscn(e, scn))) {
		struct vpux_lf_sechdr sh;
		const struct sec_desc *k = NULL;
		const char *name;
		GElf_Shdr gs;
		unsigned int i;
		uint64_t pay;
		int is_sym;

		if (!gelf_getshdr(scn, &gs))
			return vpux_err(VPUX_E_FORMAT, "section %zu: %s",
					elf_ndxscn(scn), elf_errmsg(-1));
		name = elf_strptr(e, shstrndx, gs.sh_name);
		if (!name)
			return vpux_err(VPUX_E_FORMAT,
					"section %zu: bad name offset",
					elf_ndxscn(scn));
		if (strncmp(name, ".vpux.", 6))
			continue;	/* not ours: .shstrtab, .comment ... */
		if (gs.sh_type != SHT_PROGBITS || gs.sh_size < sizeof(sh))
			return vpux_err(VPUX_E_FORMAT,
					"%s: not PROGBITS or smaller than its header",
					name);
		memcpy(&sh, p + gs.sh_offset, sizeof(sh));
		if (sh.magic != VPUX_LF_SEC_MAGIC)
			return vpux_err(VPUX_E_FORMAT,
					"%s: header field magic 0x%08x",
					name, sh.magic);
		if (sh.hdr_size < sizeof(sh) || sh.hdr_size > gs.sh_size ||
		    sh.hdr_size % 8)
			return vpux_err(VPUX_E_FORMAT,
					"%s: header field hdr_size %u", name,
					sh.hdr_size);
		if (sh.flags & ~VPUX_LF_SEC_FLAGS_ALL || sh.reserved)
			return vpux_err(VPUX_E_FORMAT,
					"%s: header field %s not zero", name,
					sh.reserved ? "reserved" : "flags");
		pay = gs.sh_size - sh.hdr_size;
		if (!sh.rec_size || (uint64_t)sh.count * sh.rec_size != pay)
			return vpux_err(VPUX_E_FORMAT,
					"%s: count %u x rec_size %u != %llu payload bytes",
					name, sh.count, sh.rec_size,
					(unsigned long long)pay);
		if (crc32(0, p + gs.sh_offset + sh.hdr_size, pay) != sh.crc32)
			return vpux_err(VPUX_E_CHECKSUM,
					"%s: checksum mismatch (header field crc32 0x%08x)",
					name, sh.crc32);
		for (i = 0; i < N_KNOWN; i++)
			if (!strcmp(known[i].name, name))
				k = &known[i];
		if (!k) {
			if (sh.flags & VPUX_LF_SEC_REQUIRED)
				return vpux_err(VPUX_E_REQUIRED,
						"%s: unknown section flagged required",
						name);
			continue;
		}
		i = (unsigned int)(k - known);
		if (seen & (1u << i))
			return vpux_err(VPUX_E_FORMAT, "%s: appears twice",
					name);
		seen |= 1u << i;
		is_sym = !strcmp(name, VPUX_LF_SEC_SYMBOLS);
		if (is_sym)
			sym_rec = sh.rec_size;
		if ((sh.rec_size < k->rec_size &&
		     !(is_sym && sh.rec_size >= LF_SYMBOL_V1_SIZE)) ||
		    (k->blob && sh.rec_size != 1))
			return vpux_err(VPUX_E_FORMAT,
					"%s: header field rec_size %u < %u",
					name, sh.rec_size, k->rec_size);
		if (i == 0) {	/* version first: later fields may differ */
			struct vpux_lf_header h;

			if (sh.count != 1)
				return vpux_err(VPUX_E_FORMAT,
						"%s: count %u, must be 1", name,
						sh.count);
			memcpy(&h, p + gs.sh_offset + sh.hdr_size, sizeof(h));
			if (h.magic != VPUX_LF_MAGIC)
				return vpux_err(VPUX_E_FORMAT,
						"%s: field magic 0x%08x", name,
						h.magic);
			if (h.version_major != VPUX_LF_VERSION_MAJOR ||
			    h.version_minor > VPUX_LF_VERSION_MINOR)
				return vpux_err(VPUX_E_VERSION,
						"%s: version %u.%u, this reader supports %u.0..%u.%u",
						name, h.version_major,
						h.version_minor,
						VPUX_LF_VERSION_MAJOR,
						VPUX_LF_VERSION_MAJOR,
						VPUX_LF_VERSION_MINOR);
		}
		ret = read_section(img, k, p + gs.sh_offset + sh.hdr_size,
				   sh.count, sh.rec_size);
		if (ret)
			return ret;
	}
	if (!(seen & 1))
		return vpux_err(VPUX_E_FORMAT, "%s: missing",
				VPUX_LF_SEC_HEADER);
	/* 1.2 records are 64 bytes; only an older file has 56 */
	if (sym_rec && sym_rec < sizeof(struct vpux_lf_symbol) &&
	    img->hdr.version_minor >= 2)
		return vpux_err(VPUX_E_FORMAT,
				"%s: header field rec_size %u < %zu (a 1.%u file)",
				VPUX_LF_SEC_SYMBOLS, sym_rec,
				sizeof(struct vpux_lf_symbol),
				img->hdr.version_minor);
	if (img->hdr.weights_size && !img->weights)
		return vpux_err(VPUX_E_FORMAT,
				"%s: missing (header field weights_size %llu)",
				VPUX_LF_SEC_WEIGHTS,
				(unsigned long long)img->hdr.weights_size);
	return 0;
}

static int elf_ok;

static void elf_init(void)
{
	elf_ok = elf_version(EV_CURRENT) != EV_NONE;
}

int lf_parse(const void *data, size_t size, struct lf_image *img)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	Elf *e;
	int ret;

	memset(img, 0, sizeof(*img));
	img->owned = 1;
	vpux_err_clear();
	if (!data)
		return vpux_err(VPUX_E_INVAL, "no data");
	ret = check_layout(data, size);
	if (ret)
		return ret;
	pthread_once(&once, elf_init);
	if (!elf_ok)
		return vpux_err(VPUX_E_FORMAT, "libelf: version mismatch");
	e = elf_memory((char *)data, size);
	if (!e)
		return vpux_err(VPUX_E_FORMAT, "file: libelf: %s",
				elf_errmsg(-1));
	ret = parse_elf(e, data, img);
	elf_end(e);
	if (ret)
		return ret;
	if (img->weights_count != img->hdr.weights_size)
		return vpux_err(VPUX_E_FORMAT,
				"%s: field weights_size %llu != %u bytes in %s",
				VPUX_LF_SEC_HEADER,
				(unsigned long long)img->hdr.weights_size,
				img->weights_count, VPUX_LF_SEC_WEIGHTS);
	return 0;
}

void lf_image_free(struct lf_image *img)
{
	if (!img->owned)
		return;
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
	free(img->kernels);
	free(img->kinvs);
	free(img->kstacks);
	free((void *)img->strtab);
	memset(img, 0, sizeof(*img));
}
