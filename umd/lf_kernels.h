/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * SHAVE ELF kernels in the loadable (1.5): validation (lf_kernels.c),
 * the ELF reader that turns an SDK kernel into an image
 * (lf_kernel_elf.c).
 */
#ifndef VPUX_LF_KERNELS_H
#define VPUX_LF_KERNELS_H

#include <stddef.h>

#include "lf.h"

/* The kernel sections: every record, and every ELF op has its invocation. */
int lf_check_kernels(const struct lf_image *img);
/* A SHAVE op with kernel_id VPUX_SHAVE_KERNEL_ELF (after lf_check_kernels) */
int lf_check_elf_op(const struct lf_image *img, uint32_t i,
		    const struct vpux_lf_shave *o);
/* lf_validate.c's operand check, @wr: the op writes it */
int lf_check_ref(const struct lf_image *img, unsigned int kind, uint32_t i,
		 const char *field, const struct vpux_lf_ref *r, uint64_t need,
		 int wr);

/*
 * A linked kernel (ET_EXEC, EM_RISCV, ELFCLASS32, from the kernel SDK) as
 * a WIN_D image: its PT_LOAD segments, which must lie in WIN_D and not be
 * writable, laid out from the lowest one's address (which must be
 * VPUX_SHAVE_WIN_D), zero-filled between them; @entry is e_entry -
 * VPUX_SHAVE_WIN_D. @what names the file in errors. The image is
 * malloc'ed.
 */
int lf_kernel_from_elf(const void *elf, size_t size, const char *what,
		       uint8_t **image, uint32_t *image_size, uint32_t *entry);
/* ...or, @runtime, a runtime kernel: WIN_R and VPUX_SHAVE_RT_CODE_MAX */
int lf_kernel_from_elf_at(const void *elf, size_t size, const char *what,
			  int runtime, uint8_t **image, uint32_t *image_size,
			  uint32_t *entry);

#endif /* VPUX_LF_KERNELS_H */
