/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Shared by vpux-asm and vpux-dis: the names and field tables of the text
 * format (Documentation/vpux-asm.rst) and the SHAVE argument encoder, so
 * the two tools agree on every spelling and dis | asm reproduces a
 * loadable byte for byte.
 */
#ifndef VASM_H
#define VASM_H

#include <stddef.h>
#include <stdint.h>

#include "lf.h"

struct vasm_name {
	const char *name;
	uint32_t value;
};

extern const struct vasm_name vasm_dtypes[];
extern const struct vasm_name vasm_dpu_ops[];
extern const struct vasm_name vasm_kernels[];
extern const struct vasm_name vasm_orders[];
/* DPU flags by name (bcast apart), the broadcast modes, the activations */
extern const struct vasm_name vasm_dpu_flags[];
extern const struct vasm_name vasm_bcasts[];
extern const struct vasm_name vasm_acts[];

const char *vasm_name_of(const struct vasm_name *t, uint32_t v);
int vasm_value_of(const struct vasm_name *t, const char *name, uint32_t *v);

enum vasm_ftype {
	VF_U16,		/* uint16_t */
	VF_U32,
	VF_I32,
	VF_PAIR,	/* two int32_t: "mult,shift" */
	VF_U32X6,	/* six uint32_t: "a,b,c,d,e,f" (perm) */
	VF_F32,		/* uint32_t FP32 bits, a float literal */
	VF_ACT,		/* uint32_t VPUX_DPU_ACT_*, by name */
};

/* the ops a DPU field belongs to (struct vasm_field.mode) */
enum { VASM_ANY = 0, VASM_INT, VASM_FP16 };

struct vasm_field {
	const char *name;
	size_t offset;
	enum vasm_ftype type;
	int mode;	/* DPU: VASM_ANY, VASM_INT or VASM_FP16 */
};

/*
 * DPU scalar fields (offsets into struct vpux_lf_dpu), NULL-terminated:
 * flags and the geometry, then the integer output stage (VASM_INT), then
 * the FP16 one (VASM_FP16) in the same words.
 */
extern const struct vasm_field vasm_dpu_fields[];

/* ---- float literals (Documentation/vpux-asm.rst, "Float values") ---- */

/*
 * Parse @s as a value of float type @dt (VPUX_DT_F16 or VPUX_DT_F32):
 * [+-] then a decimal or C99 hex-float number, inf, nan or snan. A
 * number is rounded to nearest even, once (the decimal's exact value,
 * not a double's); one that rounds to an infinity or, not being zero,
 * to zero is refused. @bits gets the pattern (FP16 in the low 16 bits).
 * Return: 0, or -1 with *@why saying what is wrong.
 */
int vasm_float_parse(const char *s, uint32_t dt, uint32_t *bits,
		     const char **why);
/* @d rounded to nearest even to VPUX_DT_F16 or VPUX_DT_F32: its bits */
uint32_t vasm_f64_round(double d, uint32_t dt);
/*
 * FP32 @bits as the shortest decimal that vasm_float_parse() gives back
 * as the same bits (at most 9 significant digits, "-0" for -0), or inf,
 * -inf, nan, -nan, snan, -snan (any other NaN prints as nan).
 */
void vasm_f32_print(uint32_t bits, char *buf, size_t size);
/*
 * DPU @flags as names joined by ',' (the broadcast field apart); "0"
 * when none. FP16 ops say out_f32 for the bit integer ops call out_i32.
 */
void vasm_dpu_flags_print(uint32_t flags, char *buf, size_t size);
/* SHAVE kernel parameters after the two memrefs, per kernel id */
const struct vasm_field *vasm_kernel_params(uint32_t kernel_id);

/*
 * Build the argument record of @kernel_id: memref in = window 0 over
 * tensor @tin, memref out = window 1 over @tout, parameters from @params
 * (the args struct image, only the parameter part is used). @din/@dout:
 * -1 for a static memref, else the window whose offset 0 holds the
 * actual dims (a dynamic memref: is_static 0, dims the tensor's max).
 */
void vasm_shave_args(uint32_t kernel_id, const struct vpux_lf_tensor *tin,
		     const struct vpux_lf_tensor *tout, int din, int dout,
		     const uint8_t *params, uint8_t *args);

/* ---- dynamic shapes (Documentation/vpux-asm.rst, "Plans") ---- */

extern const struct vasm_name vasm_sym_kinds[];	/* axis, scalar */

/*
 * The operators of plan expressions: infix (@prec 1: + -, 2: * / %) or
 * functions of two arguments (@prec 0: min max cdiv), each the
 * DLA_EXPR_* token @op. NULL-terminated.
 */
struct vasm_expr_op {
	const char *name;
	uint32_t op;
	int prec;
};
extern const struct vasm_expr_op vasm_expr_ops[];
/* idx, off, len: the loop values (DLA_EXPR_IDX/OFF/LEN), NULL-terminated */
extern const struct vasm_name vasm_loop_values[];

/*
 * @t with every dynamic dim replaced by its symbol's max (@syms), the
 * shape buffers and extents are laid out for. 0, or -1 when a dynamic
 * dim names no symbol.
 */
int vasm_tensor_at_max(const struct vpux_lf_tensor *t,
		       const struct vpux_lf_symbol *syms, uint32_t n_syms,
		       struct vpux_lf_tensor *out);

/*
 * Print the reverse-Polish expression @e[0, @n) in the infix syntax
 * vpux-asm compiles back to exactly these tokens (symbols by name from
 * @syms). Return: 0, or -1 (and "?" in @buf) for a malformed expression
 * or one longer than @size.
 */
int vasm_expr_print(const uint32_t *e, uint32_t n,
		    const struct vpux_lf_symbol *syms, uint32_t n_syms,
		    char *buf, size_t size);

#endif /* VASM_H */
