/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Custom kernels (vpux-onnx compile --kernels DIR): a node of domain
 * com.vpux whose op type the op registry does not know runs the SHAVE
 * ELF kernel DIR/OPTYPE.elf, whose parameter declaration
 * (include/hw/vpux_kparams.h, the .vpux.params section) says which
 * tensors it takes and where each attribute goes in its parameter
 * structure (Documentation/vpux-onnx.rst, "Custom kernels").
 */
#ifndef VPUXC_KERNELS_H
#define VPUXC_KERNELS_H

#include <stddef.h>

#include "vpux_kparams.h"

#define VC_CUSTOM_DOMAIN "com.vpux"

/* a kernel's declaration, checked (vc_kdecl_parse()) */
struct vc_kdecl {
	struct vpux_kparams_hdr h;
	struct vpux_kparam p[VPUX_KPARAMS_MAX];
};

/*
 * The declaration of the linked kernel @elf (@size bytes; @what names it
 * in errors): its .vpux.params section, every field checked. The ELF is
 * untrusted input. 0, or VPUX_E_FORMAT with a message naming the field.
 */
int vc_kdecl_parse(const void *elf, size_t size, const char *what,
		   struct vc_kdecl *d);

/* the kernels of one --kernels DIR, each loaded when a node first needs it */
struct vc_kernels;

struct vpuxc_model;
struct vpuxc_options;
/* o->kernels (NULL: none) becomes the model's kernel directory */
int vc_kernels_use(struct vpuxc_model *m, const struct vpuxc_options *o);
void vc_kernels_free(struct vc_kernels *k);
/* the directory, for the assembler's kernel lookup (NULL: none) */
const char *vc_kernels_dir(const struct vpuxc_model *m);

#endif /* VPUXC_KERNELS_H */
