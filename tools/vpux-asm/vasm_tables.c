// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Names and field tables of the vpux-asm text format. */
#include <stddef.h>
#include <string.h>

#include "vasm.h"
#include "vpux.h"
#include "vpux_shave_abi.h"

const struct vasm_name vasm_dtypes[] = {
	{ "u8", VPUX_DT_U8 }, { "i8", VPUX_DT_I8 }, { "i32", VPUX_DT_I32 },
	{ NULL, 0 }
};

const struct vasm_name vasm_dpu_ops[] = {
	{ "conv", VPUX_DPU_OP_CONV }, { "matmul", VPUX_DPU_OP_MATMUL },
	{ "add", VPUX_DPU_OP_ADD }, { "mul", VPUX_DPU_OP_MUL },
	{ "maxpool", VPUX_DPU_OP_MAXPOOL }, { "avgpool", VPUX_DPU_OP_AVGPOOL },
	{ NULL, 0 }
};

const struct vasm_name vasm_kernels[] = {
	{ "clamp", VPUX_SHAVE_KERNEL_CLAMP },
	{ "softmax", VPUX_SHAVE_KERNEL_SOFTMAX },
	{ "sigmoid", VPUX_SHAVE_KERNEL_SIGMOID },
	{ "tanh", VPUX_SHAVE_KERNEL_TANH },
	{ "permute", VPUX_SHAVE_KERNEL_PERMUTE },
	{ "quantize", VPUX_SHAVE_KERNEL_QUANTIZE },
	{ NULL, 0 }
};

const struct vasm_name vasm_orders[] = {
	{ "NCHW", 0x1234 }, { "NHWC", 0x1342 }, { "CHW", 0x123 },
	{ "HWC", 0x231 }, { "NC", 0x12 }, { "CN", 0x21 }, { "C", 0x1 },
	{ NULL, 0 }
};

const char *vasm_name_of(const struct vasm_name *t, uint32_t v)
{
	for (; t->name; t++)
		if (t->value == v)
			return t->name;
	return NULL;
}

int vasm_value_of(const struct vasm_name *t, const char *name, uint32_t *v)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name)) {
			*v = t->value;
			return 0;
		}
	return -1;
}

#define DF(f, t) { #f, offsetof(struct vpux_lf_dpu, f), t }
const struct vasm_field vasm_dpu_fields[] = {
	DF(flags, VF_U32),
	DF(in_c, VF_U16), DF(in_h, VF_U16), DF(in_w, VF_U16),
	DF(out_c, VF_U16), DF(out_h, VF_U16), DF(out_w, VF_U16),
	DF(kernel_h, VF_U16), DF(kernel_w, VF_U16),
	DF(stride_h, VF_U16), DF(stride_w, VF_U16),
	DF(pad_top, VF_U16), DF(pad_left, VF_U16),
	DF(pad_bottom, VF_U16), DF(pad_right, VF_U16),
	DF(dilation_h, VF_U16), DF(dilation_w, VF_U16), DF(groups, VF_U16),
	DF(in_zp, VF_I32), DF(in2_zp, VF_I32), DF(out_zp, VF_I32),
	DF(act_min, VF_I32), DF(act_max, VF_I32),
	{ "requant", offsetof(struct vpux_lf_dpu, requant_mult), VF_PAIR },
	{ "in_scale", offsetof(struct vpux_lf_dpu, in_scale_mult), VF_PAIR },
	{ "in2_scale", offsetof(struct vpux_lf_dpu, in2_scale_mult), VF_PAIR },
	{ NULL, 0, 0 }
};

#define KF(s, f, t) { #f, offsetof(struct s, f), t }
static const struct vasm_field clamp_f[] = {
	KF(vpux_shave_clamp_args, min, VF_I32),
	KF(vpux_shave_clamp_args, max, VF_I32), { NULL, 0, 0 }
};
static const struct vasm_field softmax_f[] = {
	KF(vpux_shave_softmax_args, axis, VF_U32),
	KF(vpux_shave_softmax_args, out_zp, VF_I32),
	KF(vpux_shave_softmax_args, beta_scale, VF_PAIR),
	KF(vpux_shave_softmax_args, out_scale, VF_PAIR), { NULL, 0, 0 }
};
static const struct vasm_field lut_f[] = {
	KF(vpux_shave_lut_args, in_zp, VF_I32),
	KF(vpux_shave_lut_args, out_zp, VF_I32),
	KF(vpux_shave_lut_args, in_scale, VF_PAIR),
	KF(vpux_shave_lut_args, out_scale, VF_PAIR), { NULL, 0, 0 }
};
static const struct vasm_field permute_f[] = {
	KF(vpux_shave_permute_args, perm, VF_U32X6), { NULL, 0, 0 }
};
static const struct vasm_field quantize_f[] = {
	KF(vpux_shave_quantize_args, in_zp, VF_I32),
	KF(vpux_shave_quantize_args, out_zp, VF_I32),
	KF(vpux_shave_quantize_args, scale, VF_PAIR), { NULL, 0, 0 }
};

const struct vasm_field *vasm_kernel_params(uint32_t id)
{
	switch (id) {
	case VPUX_SHAVE_KERNEL_CLAMP:
		return clamp_f;
	case VPUX_SHAVE_KERNEL_SOFTMAX:
		return softmax_f;
	case VPUX_SHAVE_KERNEL_SIGMOID:
	case VPUX_SHAVE_KERNEL_TANH:
		return lut_f;
	case VPUX_SHAVE_KERNEL_PERMUTE:
		return permute_f;
	case VPUX_SHAVE_KERNEL_QUANTIZE:
		return quantize_f;
	default:
		return NULL;
	}
}

static void memref(struct vpux_memref *m, uint32_t win,
		   const struct vpux_lf_tensor *t)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->addr = VPUX_WADDR(win, 0);
	m->is_static = 1;
	m->rank = t->rank;
	m->data_type = t->data_type;	/* VPUX_DT_* = VPUX_SHAVE_DT_* */
	m->dims_order = t->dims_order;
	for (i = 0; i < t->rank && i < VPUX_MEMREF_MAX_RANK; i++) {
		m->dims[i] = t->dims[i];
		m->strides[i] = t->strides[i];
	}
}

void vasm_shave_args(uint32_t kernel_id, const struct vpux_lf_tensor *tin,
		     const struct vpux_lf_tensor *tout, const uint8_t *params,
		     uint8_t *args)
{
	uint32_t size = lf_kernel_args_size(kernel_id);
	struct vpux_memref m[2];

	memset(args, 0, size);
	if (size > sizeof(m))
		memcpy(args + sizeof(m), params + sizeof(m), size - sizeof(m));
	memref(&m[0], 0, tin);
	memref(&m[1], 1, tout);
	memcpy(args, m, sizeof(m));
}
