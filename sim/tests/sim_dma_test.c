// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DMA engine tests (host platform, step mode): random 1-D..4-D strided
 * copies compared with a plain loop, system memory <-> CMX, CMX <-> CMX
 * across tiles, descriptor validation, cycle model.
 */
#include "sim_test.h"

static struct t_dev t;

/* The reference: what the descriptor means, as a loop over host memory. */
static void ref_copy(const struct vpux_hw_dma_desc *d, const uint8_t *src,
		     uint8_t *dst)
{
	uint32_t i1, i2, i3;

	for (i3 = 0; i3 < d->count[2]; i3++)
		for (i2 = 0; i2 < d->count[1]; i2++)
			for (i1 = 0; i1 < d->count[0]; i1++)
				memcpy(dst + (uint64_t)i3 * d->dst_stride[2] +
				       (uint64_t)i2 * d->dst_stride[1] +
				       (uint64_t)i1 * d->dst_stride[0],
				       src + (uint64_t)i3 * d->src_stride[2] +
				       (uint64_t)i2 * d->src_stride[1] +
				       (uint64_t)i1 * d->src_stride[0], d->len);
}

static uint64_t span(const struct vpux_hw_dma_desc *d, const uint32_t *stride)
{
	uint64_t s = d->len;
	int i;

	for (i = 0; i < 3; i++)
		s += (uint64_t)(d->count[i] - 1) * stride[i];
	return s;
}

static uint64_t expect_cycles(const struct vpux_hw_dma_desc *d)
{
	uint64_t rows = (uint64_t)d->count[0] * d->count[1] * d->count[2];

	return 64 + (rows * d->len + 31) / 32 + rows - 1;
}

/* A random shape of @dims dimensions, strides in [0, 2 * extent]. */
static void random_shape(struct vpux_hw_dma_desc *d, int dims, uint32_t max_len)
{
	int i;

	memset(d, 0, sizeof(*d));
	d->len = t_range(1, max_len);
	for (i = 0; i < 3; i++) {
		d->count[i] = i < dims - 1 ? t_range(1, 5) : 1;
		d->src_stride[i] = d->count[i] > 1 ? t_range(0, 3 * d->len) : t_rand() % 64;
		d->dst_stride[i] = d->count[i] > 1 ? t_range(0, 3 * d->len) : t_rand() % 64;
	}
	/* make higher dims step over lower ones most of the time */
	if (dims > 2 && (t_rand() & 3)) {
		d->src_stride[1] = d->src_stride[0] * d->count[0] + t_range(0, 16);
		d->dst_stride[1] = d->dst_stride[0] * d->count[0] + t_range(0, 16);
	}
	if (dims > 3 && (t_rand() & 3)) {
		d->src_stride[2] = d->src_stride[1] * d->count[1] + t_range(0, 16);
		d->dst_stride[2] = d->dst_stride[1] * d->count[1] + t_range(0, 16);
	}
}

static uint32_t run(uint32_t e, const struct vpux_hw_dma_desc *d)
{
	return t_run_step(&t, e, d, sizeof(*d));
}

static void test_random_ddr(void)
{
	int dims, i, ok_data, ok_cycles, ok_status;

	for (dims = 1; dims <= 4; dims++) {
		ok_data = ok_cycles = ok_status = 0;
		for (i = 0; i < 50; i++) {
			struct vpux_hw_dma_desc d;
			struct t_buf src, dst;
			uint8_t *want;
			uint64_t ss, ds, soff, doff;
			uint32_t e = t_rand() % t.n_dma;

			random_shape(&d, dims, 300);
			ss = span(&d, d.src_stride);
			ds = span(&d, d.dst_stride);
			soff = t_rand() % 4096;
			doff = t_rand() % 4096;
			t_buf_alloc(&t, &src, soff + ss, false);
			t_buf_alloc(&t, &dst, doff + ds, true);
			t_fill(src.ptr, src.size);
			t_fill(dst.ptr, dst.size);
			want = malloc(dst.size);
			memcpy(want, dst.ptr, dst.size);
			ref_copy(&d, src.ptr + soff, want + doff);
			d.src = src.va + soff;
			d.dst = dst.va + doff;
			ok_status += run(e, &d) == T_DONE;
			ok_data += !memcmp(want, dst.ptr, dst.size);
			ok_cycles += t_eng(&t, e, VPUX_ENG_OP_CYCLES) == expect_cycles(&d);
			free(want);
			t_buf_free(&t, &src);
			t_buf_free(&t, &dst);
		}
		tap_check(ok_status == 50, "%d-D DDR->DDR: 50 ops DONE (%d)", dims, ok_status);
		tap_check(ok_data == 50, "%d-D DDR->DDR: data matches the reference loop (%d)",
			  dims, ok_data);
		tap_check(ok_cycles == 50, "%d-D: OP_CYCLES = 64 + bytes/32 + rows-1 (%d)",
			  dims, ok_cycles);
	}
}

/*
 * System memory -> CMX with a random shape, then CMX <-> CMX, then the
 * whole CMX window read back; a host array mirrors what CMX must hold.
 */
static void test_cmx(void)
{
	uint64_t cmx_total = (uint64_t)t.n_tiles * t.cmx_size;
	uint8_t *mirror = calloc(1, cmx_total);
	struct t_buf zero, src, back;
	int i, ok = 0, ok_cc = 0;
	uint32_t st;

	t_buf_alloc(&t, &zero, cmx_total, false);
	t_buf_alloc(&t, &back, cmx_total, true);
	/* clear CMX with one 2-D copy (rows of one tile) */
	{
		struct vpux_hw_dma_desc d = t_dma_1d(zero.va, t.cmx_base, t.cmx_size);

		d.count[0] = t.n_tiles;
		d.src_stride[0] = t.cmx_size;
		d.dst_stride[0] = t.cmx_size;
		st = run(0, &d);
		tap_check(st == T_DONE, "clear all CMX tiles in one op");
	}
	for (i = 0; i < 40; i++) {
		struct vpux_hw_dma_desc d;
		uint64_t ss, ds, doff, soff;

		random_shape(&d, 1 + i % 4, 200);
		ss = span(&d, d.src_stride);
		ds = span(&d, d.dst_stride);
		t_buf_alloc(&t, &src, ss, false);
		t_fill(src.ptr, src.size);
		doff = t_rand() % (cmx_total - ds);
		ref_copy(&d, src.ptr, mirror + doff);
		d.src = src.va;
		d.dst = t.cmx_base + doff;
		ok += run(i & 1, &d) == T_DONE;
		t_buf_free(&t, &src);

		/* CMX -> CMX, possibly across tiles; disjoint ranges */
		random_shape(&d, 1 + (i + 1) % 4, 200);
		ss = span(&d, d.src_stride);
		ds = span(&d, d.dst_stride);
		if (ss + ds > cmx_total)
			continue;
		soff = t_rand() % (cmx_total - ss - ds + 1);
		doff = soff + ss + t_rand() % (cmx_total - soff - ss - ds + 1);
		if (t_rand() & 1) {	/* swap: copy downwards */
			uint64_t tmp = cmx_total - doff - ds;

			doff = cmx_total - soff - ss;
			soff = tmp;
			if (soff + ss > doff && doff + ds > soff)
				continue;
		}
		{
			uint8_t *tmp = malloc(cmx_total);

			memcpy(tmp, mirror, cmx_total);
			ref_copy(&d, tmp + soff, mirror + doff);
			free(tmp);
		}
		d.src = t.cmx_base + soff;
		d.dst = t.cmx_base + doff;
		ok_cc += run(i & 1, &d) == T_DONE;
	}
	tap_check(ok == 40, "DDR->CMX random shapes DONE (%d)", ok);
	tap_check(ok_cc > 20, "CMX->CMX random shapes DONE (%d)", ok_cc);
	{
		struct vpux_hw_dma_desc d = t_dma_1d(t.cmx_base, back.va, cmx_total);

		st = run(1, &d);
	}
	tap_check(st == T_DONE && !memcmp(back.ptr, mirror, cmx_total),
		  "CMX contents match the reference after DDR->CMX and CMX->CMX");

	/* strided CMX -> DDR: gather a column of every tile */
	{
		struct vpux_hw_dma_desc d = t_dma_1d(t.cmx_base + 100, back.va, 8);
		uint8_t want[64 * 8];
		uint32_t k;

		d.count[0] = t.n_tiles;
		d.src_stride[0] = t.cmx_size;
		d.dst_stride[0] = 8;
		for (k = 0; k < t.n_tiles; k++)
			memcpy(want + k * 8, mirror + 100 + (uint64_t)k * t.cmx_size, 8);
		st = run(0, &d);
		tap_check(st == T_DONE && !memcmp(back.ptr, want, 8 * t.n_tiles),
			  "strided CMX->DDR across tiles");
	}
	free(mirror);
	t_buf_free(&t, &zero);
	t_buf_free(&t, &back);
}

static void test_desc_errors(void)
{
	uint64_t cmx_end = t.cmx_base + (uint64_t)t.n_tiles * t.cmx_size;
	struct t_buf src, dst;
	struct vpux_hw_dma_desc d;
	uint8_t *snap;
	int i;
	const char *what[] = {
		"flags != 0", "len 0", "count[1] 0", "reserved != 0",
		"dst straddles CMX end", "src starts in CMX, ends beyond",
		"src range covers CMX", "huge row count", "huge stride",
		"VA range wraps",
	};

	t_buf_alloc(&t, &src, 8192, true);
	t_buf_alloc(&t, &dst, 8192, true);
	t_fill(src.ptr, 8192);
	snap = malloc(8192);
	memcpy(snap, dst.ptr, 8192);
	for (i = 0; i < 10; i++) {
		uint32_t st;

		d = t_dma_1d(src.va, dst.va, 64);
		switch (i) {
		case 0: d.flags = 1; break;
		case 1: d.len = 0; break;
		case 2: d.count[1] = 0; break;
		case 3: d.reserved = 1; break;
		case 4: d.dst = cmx_end - 32; break;
		case 5: d.src = cmx_end - 32; break;
		case 6: d.src = t.cmx_base - 16; break;
		case 7: d.count[0] = d.count[1] = d.count[2] = 0x10000; break;
		case 8: d.count[0] = 0x100000; d.src_stride[0] = 0x200000; break;
		case 9: d.src = ~0ull - 16; break;
		}
		st = run(i & 1, &d);
		tap_check(st == T_ERR(VPUX_ENG_ERR_DESC),
			  "descriptor error: %s (status %#x)", what[i], st);
	}
	tap_check(!memcmp(snap, dst.ptr, 8192) &&
		  t_reg(&t, VPUX_REG_FAULT_STATUS) == 0,
		  "descriptor errors store nothing and raise no MMU fault");
	d = t_dma_1d(src.va, dst.va, 8192);
	tap_check(run(0, &d) == T_DONE && !memcmp(src.ptr, dst.ptr, 8192),
		  "valid descriptor after the errors");
	/* a single byte, the last byte of CMX */
	d = t_dma_1d(src.va, cmx_end - 1, 1);
	tap_check(run(0, &d) == T_DONE, "last byte of CMX is addressable");
	free(snap);
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

static void test_big(void)
{
	struct t_buf src, dst;
	struct vpux_hw_dma_desc d;
	size_t n = 8u << 20;

	t_buf_alloc(&t, &src, n, false);
	t_buf_alloc(&t, &dst, n, true);
	t_fill(src.ptr, n);
	d = t_dma_1d(src.va, dst.va, n / 4);
	d.count[0] = 4;
	d.src_stride[0] = n / 4;
	d.dst_stride[0] = n / 4;
	tap_check(run(1, &d) == T_DONE && !memcmp(src.ptr, dst.ptr, n),
		  "8 MiB copy in bounded chunks");
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

int main(void)
{
	t_seed(0x5eed0001);
	if (t_open(&t, NULL, true))
		return 1;
	test_random_ddr();
	test_cmx();
	test_desc_errors();
	test_big();
	t_close(&t);
	return tap_finish();
}
