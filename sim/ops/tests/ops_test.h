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

#endif /* OPS_TEST_H */
