// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Figures of the management core's interpreter (no sanitizers): guest
 * instructions per second on sim/tests/rv/bench.c, a CRC and matrix loop
 * compiled for rv32imac, best of a few runs.
 */
#include <stdio.h>
#include <time.h>

#include "sim_rv_host.h"

#ifndef RV_TEST_DIR
#define RV_TEST_DIR "build/sim/rv"
#endif

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	static struct rvh h;
	double best = 0, t;
	char err[512];
	u64 insns = 0;
	int i;

	for (i = 0; i < 5; i++) {
		if (rvh_load(&h, RV_TEST_DIR "/bench.elf", RVH_RAM_BASE, err,
			     sizeof(err))) {
			fprintf(stderr, "rv_bench: %s\n", err);
			return 1;
		}
		t = now_s();
		if (rvh_run(&h, 1ull << 40, 1u << 20, err, sizeof(err))) {
			fprintf(stderr, "rv_bench: %s\n", err);
			return 1;
		}
		t = now_s() - t;
		insns = h.retired;
		if (best == 0 || t < best)
			best = t;
		rvh_free(&h);
	}
	printf("rv32 interpreter: %llu guest instructions in %.3f ms: "
	       "%.1f M instructions/s\n", (unsigned long long)insns,
	       best * 1e3, insns / best / 1e6);
	return 0;
}
