// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SHAVE kernel benchmark: the model's streaming kernels (vpux_shave_run)
 * against the element-at-a-time reference (vpux_ref_shave_run) on the
 * same arguments in the same run, over a flat in-memory window set. The
 * memory callbacks are plain memcpy, so the figures show the kernels'
 * own cost; in the model every callback also walks the MMU. Prints
 * figures; not a test.
 */
#include <time.h>

#include "ops_test.h"

#define WIN_BYTES	(8u << 20)

static u8 *win[2];

static int b_read(void *ctx, u32 a, void *dst, u32 len)
{
	u32 w = VPUX_WADDR_WINDOW(a), off = VPUX_WADDR_OFFSET(a);

	(void)ctx;
	if (w > 1 || off > WIN_BYTES || len > WIN_BYTES - off)
		return VPUX_ERR(MMU);
	memcpy(dst, win[w] + off, len);
	return 0;
}

static int b_write(void *ctx, u32 a, const void *src, u32 len)
{
	u32 w = VPUX_WADDR_WINDOW(a), off = VPUX_WADDR_OFFSET(a);

	(void)ctx;
	if (w > 1 || off > WIN_BYTES || len > WIN_BYTES - off)
		return VPUX_ERR(MMU);
	memcpy(win[w] + off, src, len);
	return 0;
}

static void *b_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return malloc(n);
}

static void b_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static const struct vpux_shave_mem mem = {
	NULL, b_read, b_write, b_alloc, b_free, NULL,
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* compact memref, @order nibbles, u8/i8 */
static void memref(struct vpux_memref *m, u32 addr, u32 dt, u32 rank,
		   const u32 *dims, u64 order)
{
	u64 bits = 8;
	u32 i;

	memset(m, 0, sizeof(*m));
	m->addr = addr;
	m->is_static = 1;
	m->rank = rank;
	m->data_type = dt;
	m->dims_order = order;
	for (i = 0; i < rank; i++) {
		u32 d = (u32)(order >> (4 * i) & 0xf) - 1;

		m->dims[d] = dims[d];
		m->strides[d] = bits;
		bits *= dims[d];
	}
}

static void bench(const char *name, u32 id, const void *args, u32 size,
		  u64 elems)
{
	double t_opt = 1e30, t_ref = 1e30, t;
	u64 cycles = 0;
	int i;

	for (i = 0; i < 5; i++) {
		t = now();
		if (vpux_shave_run(id, args, size, &mem, &cycles))
			exit(1);
		t = now() - t;
		t_opt = t < t_opt ? t : t_opt;
	}
	for (i = 0; i < 2; i++) {
		t = now();
		if (vpux_ref_shave_run(id, args, size, &mem))
			exit(1);
		t = now() - t;
		t_ref = t < t_ref ? t : t_ref;
	}
	printf("%-36s %8.3f ms  ref %8.2f ms  ratio %6.1fx  %7.1f Melem/s  %llu cycles\n",
	       name, t_opt * 1e3, t_ref * 1e3, t_ref / t_opt,
	       elems / t_opt * 1e-6, (unsigned long long)cycles);
}

int main(void)
{
	u32 chw[3] = { 64, 56, 56 }, hwc[3] = { 56, 56, 64 }, cls[2] = { 64, 1000 };
	struct vpux_shave_permute_args p;
	struct vpux_shave_lut_args l;
	struct vpux_shave_softmax_args s;
	u32 i;

	win[0] = malloc(WIN_BYTES);
	win[1] = malloc(WIN_BYTES);
	ot_seed(3);
	for (i = 0; i < WIN_BYTES; i++)
		win[0][i] = (u8)ot_rand();
	printf("SHAVE kernels: model (streamed) vs plain reference (one callback per element)\n");

	memset(&p, 0, sizeof(p));
	memref(&p.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_U8, 3, chw, 0x123);
	memref(&p.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_U8, 3, hwc, 0x123);
	p.perm[0] = 1;
	p.perm[1] = 2;
	p.perm[2] = 0;
	bench("permute CHW 64x56x56 -> HWC", VPUX_SHAVE_KERNEL_PERMUTE, &p,
	      sizeof(p), 64 * 56 * 56);

	memset(&l, 0, sizeof(l));
	memref(&l.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_I8, 3, hwc, 0x123);
	memref(&l.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_I8, 3, hwc, 0x123);
	l.in_scale.mult = 1 << 30;
	l.in_scale.shift = -12;		/* s_in = 1/32 */
	l.out_scale.mult = 1 << 30;
	l.out_scale.shift = 8;		/* s_out = 1/128 */
	bench("tanh int8 56x56x64", VPUX_SHAVE_KERNEL_TANH, &l, sizeof(l),
	      64 * 56 * 56);

	memset(&s, 0, sizeof(s));
	memref(&s.in, VPUX_WADDR(0, 0), VPUX_SHAVE_DT_I8, 2, cls, 0x12);
	memref(&s.out, VPUX_WADDR(1, 0), VPUX_SHAVE_DT_U8, 2, cls, 0x12);
	s.axis = 1;
	s.beta_scale.mult = 1 << 30;
	s.beta_scale.shift = -12;
	s.out_scale.mult = 1 << 30;
	s.out_scale.shift = 7;		/* Q16 -> units of 1/256 */
	bench("softmax int8 64 x 1000 classes", VPUX_SHAVE_KERNEL_SOFTMAX, &s,
	      sizeof(s), 64 * 1000);
	free(win[0]);
	free(win[1]);
	return 0;
}
