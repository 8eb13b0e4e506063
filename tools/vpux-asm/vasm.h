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

#include "hostconv.h"
#include "lf.h"

struct vasm_name {
	const char *name;
	uint32_t value;
};

/* element types: hc_dev_type_name()/hc_dev_type_parse(), umd/hostconv.h */
extern const struct vasm_name vasm_dpu_ops[];
extern const struct vasm_name vasm_kernels[];
extern const struct vasm_name vasm_orders[];
/* DPU flags by name (bcast apart), the broadcast modes, the activations */
extern const struct vasm_name vasm_dpu_flags[];
extern const struct vasm_name vasm_bcasts[];
extern const struct vasm_name vasm_acts[];

/*
 * A tensor's full name (1.4) as one vpux-asm word, name=WORD: bytes
 * outside '!'..'~', and '%' and '#', as %XX (two hex digits). @out gets
 * at most 3 * strlen(@name) + 1 bytes.
 */
void vasm_name_escape(const char *name, char *out);
/* The other way, in place; -1 for a bad %XX or a %00. */
int vasm_name_unescape(char *word);
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
	VF_NAME,	/* uint32_t, by name from vasm_field.names */
	VF_F32X6,	/* six FP32: "a,b,..." (the missing ones 0) */
	VF_AXIS,	/* uint32_t, a logical dim of the in tensor */
	VF_AXES,	/* uint32_t bitmask of logical dims of in: "a,b,..." */
};

/* the ops a DPU field belongs to (struct vasm_field.mode) */
enum { VASM_ANY = 0, VASM_INT, VASM_FP16 };

struct vasm_field {
	const char *name;
	size_t offset;
	enum vasm_ftype type;
	int mode;	/* DPU: VASM_ANY, VASM_INT or VASM_FP16 */
	const struct vasm_name *names;	/* VF_NAME: the spellings */
};

/* bytes of a field of type @t */
size_t vasm_field_size(enum vasm_ftype t);
/*
 * Whether the text form of field @f of the record at @base gives back
 * its exact bits: false for a value without a name (VF_NAME, VF_ACT), an
 * empty VF_AXES mask, or a NaN other than the four spelled ones (nan,
 * -nan, snan, -snan) in an FP32 field.
 */
int vasm_field_exact(const struct vasm_field *f, const void *base);
/* "a, b, c" of a name table, into @buf */
void vasm_names_list(const struct vasm_name *t, char *buf, size_t size);

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
/* SHAVE kernel parameters after the memrefs, per kernel id */
const struct vasm_field *vasm_kernel_params(uint32_t kernel_id);

#define VASM_SHAVE_RECS		4	/* memrefs of a kernel's record, at most */

/*
 * The tensors (memrefs) of kernel @kernel_id's argument record, in struct
 * order, by their text names: "in", "out", then "in2" (binary), "scale"
 * and "bias" (layernorm), "indices" (gather); NULL-terminated, NULL for
 * an unknown kernel. *@optional (if not NULL): the bitmask of those an
 * invocation may leave out (layernorm's scale and bias, whose flags
 * follow from their presence).
 */
const char *const *vasm_kernel_recs(uint32_t kernel_id, uint32_t *optional);

/* one memref of a SHAVE argument record */
struct vasm_rec {
	const struct vpux_lf_tensor *t;	/* NULL: not given (all zero) */
	uint32_t win;		/* the window of the tensor */
	int dwin;		/* -1 static, else the window of its dims */
};

/*
 * Build the argument record of @kernel_id: memref r (at r * 104) over
 * @rec[r].t, at offset 0 of window @rec[r].win; a dynamic one (@dwin >=
 * 0) has is_static 0, dims the tensor's (max) dims and dims_addr offset
 * 0 of window @dwin. Parameters: the fields of vasm_kernel_params() from
 * the args struct image @params, every other byte 0 but layernorm's
 * flags, set from which of scale and bias are given. @args gets
 * vpux_shave_args_size() bytes.
 */
void vasm_shave_args(uint32_t kernel_id,
		     const struct vasm_rec rec[VASM_SHAVE_RECS],
		     const uint8_t *params, uint8_t *args);

/*
 * Whether SHAVE op @o of @img has a high-level text form that gives back
 * its exact bytes: each record tensor of its kernel in a window of its
 * own over the whole tensor (in 0, out 1, the others from 2 in struct
 * order), then the dims window of each dynamic one in the same order,
 * no other window, args as vasm_shave_args() builds them and every
 * field exact (vasm_field_exact()). On success @rec gets the records
 * (@rec[r].t into @tens, tensors at their max dims).
 */
int vasm_shave_high_level(const struct lf_image *img,
			  const struct vpux_lf_shave *o,
			  struct vasm_rec rec[VASM_SHAVE_RECS],
			  struct vpux_lf_tensor tens[VASM_SHAVE_RECS]);

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
