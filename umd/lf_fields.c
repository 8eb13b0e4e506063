// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The op fields a plan may patch (lf_fields.h). */
#include <stddef.h>
#include <string.h>

#include <drm/vpux_task.h>
#include "lf_fields.h"
#include "lf_format.h"

#define F(k, n, nm, ls, lf, ds, df, w, r) \
	{ VPUX_LF_FIELD(k, n), nm, (uint16_t)offsetof(struct ls, lf), \
	  (uint16_t)offsetof(struct ds, df), w, r }
#define DMA(n, nm, f, w, r) F(VPUX_LF_OP_DMA, n, nm, vpux_lf_dma, f, dla_dma_op, f, w, r)
#define DPU(n, nm, f, w, r) F(VPUX_LF_OP_DPU, n, nm, vpux_lf_dpu, f, dla_dpu_op, f, w, r)
#define SHV(n, nm, f, w, r) F(VPUX_LF_OP_SHAVE, n, nm, vpux_lf_shave, f, dla_shave_op, f, w, r)
#define DPU_REF(n, x) DPU(n, #x ".offset", x.offset, 4, 1), \
		      DPU(n + 1, #x ".size", x.size, 4, 0)
#define SHV_WIN(n, w) SHV(n, "window" #w ".offset", windows[w].offset, 4, 1), \
		      SHV(n + 1, "window" #w ".size", windows[w].size, 4, 0)
#define DPU16(n, x) DPU(n, #x, x, 2, 0)

const struct lf_field lf_fields[] = {
	DMA(1, "len", len, 4, 0),
	DMA(2, "src.offset", src.offset, 4, 1),
	DMA(3, "src.size", src.size, 4, 0),
	DMA(4, "dst.offset", dst.offset, 4, 1),
	DMA(5, "dst.size", dst.size, 4, 0),
	DMA(6, "count0", count[0], 4, 0),
	DMA(7, "count1", count[1], 4, 0),
	DMA(8, "count2", count[2], 4, 0),
	DMA(9, "src_stride0", src_stride[0], 4, 0),
	DMA(10, "src_stride1", src_stride[1], 4, 0),
	DMA(11, "src_stride2", src_stride[2], 4, 0),
	DMA(12, "dst_stride0", dst_stride[0], 4, 0),
	DMA(13, "dst_stride1", dst_stride[1], 4, 0),
	DMA(14, "dst_stride2", dst_stride[2], 4, 0),

	DPU_REF(1, in), DPU_REF(3, in2), DPU_REF(5, bias), DPU_REF(7, quant),
	DPU_REF(9, out),
	DPU16(11, in_c), DPU16(12, in_h), DPU16(13, in_w),
	DPU16(14, out_c), DPU16(15, out_h), DPU16(16, out_w),
	DPU16(17, kernel_h), DPU16(18, kernel_w),
	DPU16(19, stride_h), DPU16(20, stride_w),
	DPU16(21, pad_top), DPU16(22, pad_left),
	DPU16(23, pad_bottom), DPU16(24, pad_right),
	DPU16(25, dilation_h), DPU16(26, dilation_w), DPU16(27, groups),

	SHV_WIN(1, 0), SHV_WIN(3, 1), SHV_WIN(5, 2), SHV_WIN(7, 3),
	SHV_WIN(9, 4), SHV_WIN(11, 5), SHV_WIN(13, 6), SHV_WIN(15, 7),
	{ 0, NULL, 0, 0, 0, 0 }
};

_Static_assert(offsetof(struct vpux_lf_dpu, in_c) ==
	       offsetof(struct dla_dpu_op, in_c), "DPU u16 fields line up");

const struct lf_field *lf_field_by_id(uint32_t id)
{
	const struct lf_field *f;

	for (f = lf_fields; f->name; f++)
		if (f->id == id)
			return f;
	return NULL;
}

const struct lf_field *lf_field_by_name(uint32_t kind, const char *name)
{
	const struct lf_field *f;

	for (f = lf_fields; f->name; f++)
		if (VPUX_LF_FIELD_KIND(f->id) == kind && !strcmp(f->name, name))
			return f;
	return NULL;
}
