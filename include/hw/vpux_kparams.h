/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The parameter declaration of a SHAVE ELF kernel: what `vpux-onnx
 * compile --kernels DIR` reads to turn a custom-domain ONNX node into a
 * kernel task (Documentation/shave-kernels.rst, "Custom kernels").
 *
 * A kernel of the SDK declares, with VPUX_KERNEL_DECLARE() of
 * vpux_kernel.h, its tensors and the fields of its parameter structure.
 * The declaration is a non-allocated ELF section, VPUX_KPARAMS_SECTION,
 * so it is never part of the WIN_D image: a struct vpux_kparams_hdr,
 * then n_params struct vpux_kparam records, little endian, packed as
 * below (every field naturally aligned, no padding).
 *
 * The kernel's argument buffer (WIN_E) is n_inputs + n_outputs struct
 * vpux_memref records (the inputs first) and then the parameter
 * structure, params_size bytes; each parameter lies at its offset in it.
 * Includable from the kernel, user space and freestanding code.
 */
#ifndef VPUX_KPARAMS_H
#define VPUX_KPARAMS_H

#define VPUX_KPARAMS_SECTION		".vpux.params"
#define VPUX_KPARAMS_MAGIC		0x4d52504bu	/* "KPRM" */
#define VPUX_KPARAMS_VERSION		1u
#define VPUX_KPARAM_NAME_LEN		32u	/* with the NUL */
#define VPUX_KPARAMS_MAX		64u	/* parameters */
#define VPUX_KPARAMS_MAX_TENSORS	8u	/* inputs + outputs */
#define VPUX_KPARAM_MAX_COUNT		256u	/* elements of one parameter */

/* vpux_kparam.type: the C type of the field (elements of an array) */
#define VPUX_KPARAM_F32			1u	/* float: ONNX FLOAT / FLOATS */
#define VPUX_KPARAM_I32			2u	/* s32: ONNX INT / INTS */
#define VPUX_KPARAM_U32			3u	/* u32: ONNX INT / INTS, >= 0 */

/* vpux_kparams_hdr.in_types / out_types: bit 1 << VPUX_SHAVE_DT_* */
#define VPUX_KPARAMS_T(dt)		(1u << (dt))

/* vpux_kparams_hdr.shape: how the compiler infers the outputs' shapes */
#define VPUX_KSHAPE_SAME		0u	/* each output: input 0's shape */

/**
 * struct vpux_kparams_hdr - a kernel's declaration (32 bytes)
 * @magic: VPUX_KPARAMS_MAGIC
 * @version: VPUX_KPARAMS_VERSION
 * @hdr_size: sizeof(struct vpux_kparams_hdr)
 * @param_size: sizeof(struct vpux_kparam)
 * @n_params: parameter records after the header, 0..VPUX_KPARAMS_MAX
 * @n_inputs: input tensors (memrefs), 1..
 * @n_outputs: output tensors, 1..; @n_inputs + @n_outputs at most
 *	VPUX_KPARAMS_MAX_TENSORS
 * @shape: VPUX_KSHAPE_*
 * @reserved0: 0
 * @params_size: bytes of the parameter structure
 * @in_types: the element types every input may have (VPUX_KPARAMS_T())
 * @out_types: the element types every output may have
 * @reserved: 0
 */
struct vpux_kparams_hdr {
	__UINT32_TYPE__ magic;
	__UINT16_TYPE__ version;
	__UINT16_TYPE__ hdr_size;
	__UINT16_TYPE__ param_size;
	__UINT16_TYPE__ n_params;
	__UINT8_TYPE__ n_inputs;
	__UINT8_TYPE__ n_outputs;
	__UINT8_TYPE__ shape;
	__UINT8_TYPE__ reserved0;
	__UINT32_TYPE__ params_size;
	__UINT32_TYPE__ in_types;
	__UINT32_TYPE__ out_types;
	__UINT32_TYPE__ reserved;
};

/**
 * struct vpux_kparam - one field of the parameter structure (48 bytes)
 * @name: the ONNX attribute it takes, NUL-terminated and NUL-padded, a C
 *	identifier
 * @type: VPUX_KPARAM_*
 * @offset: byte offset in the parameter structure, a multiple of 4
 * @count: elements, 1..VPUX_KPARAM_MAX_COUNT: 1 a scalar attribute (FLOAT
 *	or INT), more an array that takes a FLOATS or INTS attribute of
 *	exactly @count values
 * @reserved: 0
 */
struct vpux_kparam {
	char name[VPUX_KPARAM_NAME_LEN];
	__UINT32_TYPE__ type;
	__UINT32_TYPE__ offset;
	__UINT32_TYPE__ count;
	__UINT32_TYPE__ reserved;
};

_Static_assert(sizeof(struct vpux_kparams_hdr) == 32, "kparams header size");
_Static_assert(sizeof(struct vpux_kparam) == 48, "kparam size");

#endif /* VPUX_KPARAMS_H */
