// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Loadable writer: one ELF64 LE relocatable file (ET_REL, EM_NONE) with a
 * .vpux.* PROGBITS section per table, each a struct vpux_lf_sechdr and the
 * records, laid out by libelf. The output depends only on the image, so
 * asm | dis | asm is byte-identical.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "lf.h"

struct wsec {
	const char *name;
	uint16_t flags;
	const void *data;
	uint32_t rec_size, count;
	unsigned char *buf;	/* header + payload */
	size_t len;		/* bytes of @buf */
	size_t name_off;
};

/* a section of @count records of @rec_size bytes, each padded by @extra */
static int add_padded(struct wsec *s, unsigned int *n, const char *name,
		      uint16_t flags, const void *data, uint32_t rec_size,
		      uint32_t count, uint32_t extra)
{
	struct vpux_lf_sechdr h;
	size_t pay = (size_t)(rec_size + extra) * count, i;
	struct wsec *w = &s[(*n)++];

	w->name = name;
	w->buf = calloc(1, sizeof(h) + pay);
	if (!w->buf)
		return vpux_err(VPUX_E_NOMEM, "writer: out of memory");
	memset(&h, 0, sizeof(h));
	h.magic = VPUX_LF_SEC_MAGIC;
	h.flags = flags;
	h.hdr_size = sizeof(h);
	h.rec_size = rec_size + extra;
	h.count = count;
	for (i = 0; i < count; i++)
		memcpy(w->buf + sizeof(h) + i * (rec_size + extra),
		       (const char *)data + i * rec_size, rec_size);
	h.crc32 = (uint32_t)crc32(0, w->buf + sizeof(h), pay);
	memcpy(w->buf, &h, sizeof(h));
	w->rec_size = rec_size + extra;
	w->count = count;
	w->len = sizeof(h) + pay;
	return 0;
}

/* a section given whole, its header included */
static int add_raw(struct wsec *s, unsigned int *n, const char *name,
		   const void *data, uint32_t size)
{
	struct wsec *w = &s[(*n)++];

	w->name = name;
	w->buf = malloc(size ? size : 1);
	if (!w->buf)
		return vpux_err(VPUX_E_NOMEM, "writer: out of memory");
	if (size)
		memcpy(w->buf, data, size);
	w->len = size;
	return 0;
}

static int add(struct wsec *s, unsigned int *n, const char *name,
	       uint16_t flags, const void *data, uint32_t rec_size,
	       uint32_t count)
{
	return add_padded(s, n, name, flags, data, rec_size, count, 0);
}

static int write_fd(const struct lf_image *img, int fd)
{
	struct wsec s[24 + 16];
	char strtab[2048];
	size_t strsz = 1;
	unsigned int n = 0, i;
	const uint16_t R = VPUX_LF_SEC_REQUIRED;
	Elf *e = NULL;
	GElf_Ehdr eh;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	int ret = 0;

	memset(s, 0, sizeof(s));
	if (img->n_extra > 16)
		return vpux_err(VPUX_E_INVAL, "writer: too many extra sections");
	if (img->hdr.weights_size > UINT32_MAX)
		return vpux_err(VPUX_E_INVAL, "writer: weights above 4 GiB");
	ret = add(s, &n, VPUX_LF_SEC_HEADER, R, &img->hdr, sizeof(img->hdr), 1);
	ret = ret ? ret : add_padded(s, &n, VPUX_LF_SEC_TENSORS, R, img->tensors,
				     sizeof(*img->tensors), img->n_tensors,
				     img->rec_extra);
	ret = ret ? ret : add(s, &n, VPUX_LF_SEC_WEIGHTS, R, img->weights, 1,
			      (uint32_t)img->hdr.weights_size);
	ret = ret ? ret : add_padded(s, &n, VPUX_LF_SEC_BARRIERS, R, img->barriers,
				     sizeof(*img->barriers), img->n_barriers,
				     img->rec_extra);
	ret = ret ? ret : add_padded(s, &n, VPUX_LF_SEC_DMA, R, img->dma,
				     sizeof(*img->dma), img->n_dma,
				     img->rec_extra);
	ret = ret ? ret : add_padded(s, &n, VPUX_LF_SEC_DPU, R, img->dpu,
				     sizeof(*img->dpu), img->n_dpu,
				     img->rec_extra);
	ret = ret ? ret : add_padded(s, &n, VPUX_LF_SEC_SHAVE, R, img->shave,
				     sizeof(*img->shave), img->n_shave,
				     img->rec_extra);
	ret = ret ? ret : add(s, &n, VPUX_LF_SEC_KARGS, R, img->kargs, 1,
			      img->kargs_size);
	ret = ret ? ret : add(s, &n, VPUX_LF_SEC_SYMBOLS, 0, img->symbols,
			      sizeof(*img->symbols), img->n_symbols);
	/* 1.4 names: optional, so a reader that ignores them still loads */
	if (img->n_names || img->strtab_size) {
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_NAMES, 0, img->names,
				      sizeof(*img->names), img->n_names);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_STRTAB, 0,
				      img->strtab, 1, img->strtab_size);
	}
	/*
	 * 1.5 ELF kernels: only in a loadable with kernels, each required
	 * (an older reader must refuse the ELF ops rather than skip them)
	 */
	if (img->n_kernels || img->n_kinvs || img->n_kstacks) {
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_KERNELS, R,
				      img->kernels, sizeof(*img->kernels),
				      img->n_kernels);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_KCODE, R, img->kcode,
				      1, img->kcode_size);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_KINVOCATIONS, R,
				      img->kinvs, sizeof(*img->kinvs),
				      img->n_kinvs);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_KDATA, R, img->kdata,
				      1, img->kdata_size);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_KSTACKS, R,
				      img->kstacks, sizeof(*img->kstacks),
				      img->n_kstacks);
	}
	/*
	 * Only a loadable with a plan has the plan's sections, each
	 * required: a reader that does not know plans must refuse it.
	 */
	if (img->n_blocks) {
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_PLAN_BLOCKS, R,
				      img->blocks, sizeof(*img->blocks),
				      img->n_blocks);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_PLAN_TEMPLATES, R,
				      img->templates, sizeof(*img->templates),
				      img->n_templates);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_PLAN_PATCHES, R,
				      img->patches, sizeof(*img->patches),
				      img->n_patches);
		ret = ret ? ret : add(s, &n, VPUX_LF_SEC_PLAN_EXPR, R,
				      img->expr, sizeof(*img->expr),
				      img->n_expr);
	}
	for (i = 0; !ret && i < img->n_extra; i++) {
		const struct lf_extra_section *x = &img->extra[i];
		uint32_t rs = x->rec_size ? x->rec_size : 1;

		if (x->raw)
			ret = add_raw(s, &n, x->name, x->data, x->size);
		else if (x->size % rs)
			ret = vpux_err(VPUX_E_INVAL,
				       "writer: %s: %u bytes are not whole %u-byte records",
				       x->name, x->size, rs);
		else
			ret = add(s, &n, x->name, x->flags, x->data, rs,
				  x->size / rs);
	}
	if (ret)
		goto out;
	strtab[0] = 0;
	for (i = 0; i <= n; i++) {
		const char *nm = i < n ? s[i].name : ".shstrtab";
		size_t l = strlen(nm) + 1;

		if (strsz + l > sizeof(strtab)) {
			ret = vpux_err(VPUX_E_INVAL, "writer: names too long");
			goto out;
		}
		memcpy(strtab + strsz, nm, l);
		if (i < n)
			s[i].name_off = strsz;
		strsz += l;
	}
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(e = elf_begin(fd, ELF_C_WRITE, NULL)) ||
	    !gelf_newehdr(e, ELFCLASS64) || !gelf_getehdr(e, &eh)) {
		ret = vpux_err(VPUX_E_IO, "writer: libelf: %s", elf_errmsg(-1));
		goto out;
	}
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_REL;
	eh.e_machine = EM_NONE;
	eh.e_version = EV_CURRENT;
	for (i = 0; i <= n; i++) {
		scn = elf_newscn(e);
		d = scn ? elf_newdata(scn) : NULL;
		if (!d || !gelf_getshdr(scn, &sh)) {
			ret = vpux_err(VPUX_E_IO, "writer: libelf: %s",
				       elf_errmsg(-1));
			goto out;
		}
		d->d_type = ELF_T_BYTE;
		d->d_version = EV_CURRENT;
		d->d_align = 8;
		if (i < n) {
			d->d_buf = s[i].buf;
			d->d_size = s[i].len;
			sh.sh_name = s[i].name_off;
			sh.sh_type = SHT_PROGBITS;
			sh.sh_addralign = 8;
		} else {
			d->d_buf = strtab;
			d->d_size = strsz;
			d->d_align = 1;
			sh.sh_name = strsz - sizeof(".shstrtab");
			sh.sh_type = SHT_STRTAB;
			sh.sh_addralign = 1;
			eh.e_shstrndx = elf_ndxscn(scn);
		}
		sh.sh_flags = 0;
		gelf_update_shdr(scn, &sh);
	}
	if (!gelf_update_ehdr(e, &eh) || elf_update(e, ELF_C_WRITE) < 0)
		ret = vpux_err(VPUX_E_IO, "writer: libelf: %s", elf_errmsg(-1));
out:
	if (e)
		elf_end(e);
	for (i = 0; i < n; i++)
		free(s[i].buf);
	return ret;
}

int lf_write_file(const struct lf_image *img, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ret;

	if (fd < 0)
		return vpux_err(VPUX_E_IO, "%s: cannot create", path);
	ret = write_fd(img, fd);
	if (close(fd) && !ret)
		ret = vpux_err(VPUX_E_IO, "%s: write failed", path);
	return ret;
}

int lf_write_mem(const struct lf_image *img, void **data, size_t *size)
{
	int fd = memfd_create("vpux-loadable", 0);
	struct stat st;
	ssize_t got;
	int ret;

	if (fd < 0)
		return vpux_err(VPUX_E_IO, "writer: memfd_create failed");
	ret = write_fd(img, fd);
	if (!ret && fstat(fd, &st))
		ret = vpux_err(VPUX_E_IO, "writer: fstat failed");
	if (!ret) {
		*size = (size_t)st.st_size;
		*data = malloc(*size ? *size : 1);
		got = *data ? pread(fd, *data, *size, 0) : -1;
		if (got != (ssize_t)*size) {
			free(*data);
			*data = NULL;
			ret = vpux_err(VPUX_E_IO, "writer: read back failed");
		}
	}
	close(fd);
	return ret;
}
