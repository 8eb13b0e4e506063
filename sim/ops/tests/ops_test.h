/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers shared by the compute-kernel tests and benchmarks: a seeded
 * PRNG and random operand buffers. User space only.
 */
#ifndef OPS_TEST_H
#define OPS_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_ops_internal.h"

/* the PRNG wraps on purpose (clang's unsigned-overflow check is opt-in) */
#if defined(__clang__)
#define OT_WRAPS	__attribute__((no_sanitize("unsigned-integer-overflow")))
#else
#define OT_WRAPS
#endif

static uint64_t ot_state = 0x9e3779b97f4a7c15ull;

static inline OT_WRAPS void ot_seed(uint64_t s)
{
	ot_state = s * 0x9e3779b97f4a7c15ull + 1;
}

static inline OT_WRAPS uint32_t ot_rand(void)
{
	/* xorshift64* */
	ot_state ^= ot_state >> 12;
	ot_state ^= ot_state << 25;
	ot_state ^= ot_state >> 27;
	return (uint32_t)((ot_state * 0x2545f4914f6cdd1dull) >> 32);
}

/* uniform in [lo, hi] */
static inline OT_WRAPS int32_t ot_range(int32_t lo, int32_t hi)
{
	return lo + (int32_t)(ot_rand() % (uint32_t)(hi - lo + 1));
}

static inline void *ot_alloc_rand(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);
	size_t i;

	if (!p) {
		perror("malloc");
		exit(2);
	}
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)ot_rand();
	return p;
}

#ifdef OT_NWIN
/*
 * A fake SHAVE memory for the SHAVE tests, two of them (tm_a for the
 * model, tm_b for the reference): OT_NWIN windows of OT_WIN_BYTES, but
 * window OT_WIN_SMALL has 64 bytes and window OT_WIN_NONE (OT_NWIN for
 * none) is absent. The test defines the three before including this.
 */
struct tmem {
	u8 *win[OT_NWIN];
	u32 size[OT_NWIN];
	unsigned int yields, reads, writes;
	int fail_alloc;
	size_t alloc_max;	/* larger allocations fail, 0 = no limit */
};

static int t_read(void *ctx, u32 a, void *dst, u32 len)
{
	struct tmem *m = ctx;
	u32 w = VPUX_WADDR_WINDOW(a), off = VPUX_WADDR_OFFSET(a);

	m->reads++;
	if (w >= OT_NWIN || !m->win[w] || off > m->size[w] ||
	    len > m->size[w] - off)
		return VPUX_ERR(MMU);
	memcpy(dst, m->win[w] + off, len);
	return 0;
}

static int t_write(void *ctx, u32 a, const void *src, u32 len)
{
	struct tmem *m = ctx;
	u32 w = VPUX_WADDR_WINDOW(a), off = VPUX_WADDR_OFFSET(a);

	m->writes++;
	if (w >= OT_NWIN || !m->win[w] || off > m->size[w] ||
	    len > m->size[w] - off)
		return VPUX_ERR(MMU);
	memcpy(m->win[w] + off, src, len);
	return 0;
}

static void *t_alloc(void *ctx, size_t n)
{
	struct tmem *m = ctx;

	if (m->fail_alloc || (m->alloc_max && n > m->alloc_max))
		return NULL;
	return malloc(n);
}

static void t_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static bool t_yield(void *ctx)
{
	((struct tmem *)ctx)->yields++;
	return false;
}

static struct tmem tm_a, tm_b;
static const struct vpux_shave_mem mem_a = {
	&tm_a, t_read, t_write, t_alloc, t_free, t_yield,
};
static const struct vpux_shave_mem mem_b = {
	&tm_b, t_read, t_write, t_alloc, t_free, t_yield,
};

static void tmem_init(struct tmem *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < OT_NWIN; i++) {
		if (i == OT_WIN_NONE)
			continue;
		m->size[i] = i == OT_WIN_SMALL ? 64 : OT_WIN_BYTES;
		m->win[i] = calloc(1, m->size[i]);
	}
}

/* 1 if both memories hold the same bytes */
static int same_mem(void)
{
	unsigned int i;

	for (i = 0; i < OT_NWIN; i++)
		if (tm_a.win[i] && memcmp(tm_a.win[i], tm_b.win[i], tm_a.size[i]))
			return 0;
	return 1;
}
#endif /* OT_NWIN */

#endif /* OPS_TEST_H */
