/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* The vpux-asm assembler: text (Documentation/vpux-asm.rst) -> loadable. */
#ifndef VPUX_ASM_H
#define VPUX_ASM_H

#include <stdio.h>

#include "lf.h"

struct asm_opts {
	int explicit_only;	/* no implicit barriers even if none given */
	const char *base_dir;	/* for fill=file: paths, or NULL */
	/* a relative 'kernel NAME file=' is looked up here first, or NULL */
	const char *kernel_dir;
	/* fill=blob:OFFSET copies from here (programs that emit vasm) */
	const void *blob;
	size_t blob_size;
};

/*
 * Assemble @text (@name for messages) into @img; arrays and blobs are
 * allocated (free with asm_free()). Errors go to @err as
 * "name:line:col: error: ..." and make it return -1.
 */
int asm_text(const char *name, const char *text, const struct asm_opts *o,
	     struct lf_image *img, FILE *err);
void asm_free(struct lf_image *img);

#endif /* VPUX_ASM_H */
