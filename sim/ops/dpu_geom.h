/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Window geometry, valid taps and yields of the model's generic DPU
 * kernels: the pieces the int8 kernels (dpu.c) and the FP16 kernels
 * (dpu_f16.c) share. The valid part of each window is computed once per
 * output row (vertical, dpu_pix_row()) and once per pixel (horizontal,
 * dpu_pix_col()), so the inner loops carry no padding test.
 *
 * Integer only, no 64-bit division: kernel, -m32 and freestanding builds.
 */
#ifndef DPU_GEOM_H
#define DPU_GEOM_H

#include "vpux_ops_internal.h"

/* geometry of a windowed op; MATMUL runs as a 1x1 convolution */
struct dpu_geom {
	u32 in_c, in_h, in_w, out_c, out_h, out_w;
	u32 kh, kw, sh, sw, pt, pl, dh, dw;
	u32 groups, cin_g, cout_g;
	bool merge;		/* a window row is one contiguous run */
};

static inline void dpu_geom_init(struct dpu_geom *g,
				 const struct vpux_hw_dpu_desc *d)
{
	g->in_c = d->in_c;
	g->in_h = d->in_h;
	g->in_w = d->in_w;
	g->out_c = d->out_c;
	g->out_h = d->out_h;
	g->out_w = d->out_w;
	if (d->op == VPUX_DPU_OP_MATMUL) {
		g->kh = g->kw = g->sh = g->sw = g->dh = g->dw = 1;
		g->pt = g->pl = 0;
		g->groups = 1;
	} else {
		g->kh = d->kernel_h;
		g->kw = d->kernel_w;
		g->sh = d->stride_h;
		g->sw = d->stride_w;
		g->pt = d->pad_top;
		g->pl = d->pad_left;
		g->dh = d->dilation_h;
		g->dw = d->dilation_w;
		g->groups = d->op == VPUX_DPU_OP_CONV ? d->groups : 1;
	}
	g->cin_g = g->in_c / g->groups;
	g->cout_g = g->out_c / g->groups;
	g->merge = g->groups == 1 && g->dw == 1;
}

/* the valid window [ky0, ky1) x [kx0, kx1) of one output pixel */
struct dpu_pix {
	u32 ky0, ky1, kx0, kx1;
	s64 iy0, ix0;		/* window origin (may be negative) */
};

/*
 * Valid taps [*k0, *k1) of a window starting at @base (may be negative)
 * with @k taps @dil apart, over an axis of @len: the taps are monotonic in
 * position so the valid ones form one range (possibly empty).
 */
static inline void dpu_taps(s64 base, u32 k, u32 dil, u32 len, u32 *k0,
			    u32 *k1)
{
	u32 t = 0;

	while (t < k && base + (s64)t * dil < 0)
		t++;
	*k0 = t;
	while (t < k && base + (s64)t * dil < len)
		t++;
	*k1 = t;
}

/* the vertical part of @p for output row @oy */
static inline void dpu_pix_row(const struct dpu_geom *g, struct dpu_pix *p,
			       u32 oy)
{
	p->iy0 = (s64)oy * g->sh - g->pt;
	dpu_taps(p->iy0, g->kh, g->dh, g->in_h, &p->ky0, &p->ky1);
}

/* the horizontal part of @p for output column @ox */
static inline void dpu_pix_col(const struct dpu_geom *g, struct dpu_pix *p,
			       u32 ox)
{
	p->ix0 = (s64)ox * g->sw - g->pl;
	dpu_taps(p->ix0, g->kw, g->dw, g->in_w, &p->kx0, &p->kx1);
}

/* Returns true if the op must stop (see VPUX_DPU_YIELD_WORK). */
static inline bool dpu_yield(const struct vpux_dpu_operands *o)
{
	return o->yield && o->yield(o->yield_arg);
}

/*
 * Within a row: add @work to *@since and yield once it reaches
 * VPUX_DPU_YIELD_WORK. Returns true if the op must stop.
 */
static inline bool dpu_work(const struct vpux_dpu_operands *o, u64 *since,
			    u64 work)
{
	*since += work;
	if (*since < VPUX_DPU_YIELD_WORK)
		return false;
	*since = 0;
	return dpu_yield(o);
}

#endif /* DPU_GEOM_H */
