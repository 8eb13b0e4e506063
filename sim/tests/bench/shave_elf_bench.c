// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-shave-elf (make bench): guest instructions per second on a SHAVE
 * core in user space, the cost of one kernel launch (start + a kernel
 * that returns at once), and softmax 64x1000 FP32 as the SDK's ELF kernel
 * next to the built-in SOFTMAX_F; log-softmax the same, whose ELF kernel
 * is ref/ compiled for the core (integer soft-float, no F instructions).
 */
#include <stdint.h>
#include <time.h>

#include "sim_shave_elf.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint8_t io[2 * 64 * 1000 * 4];

int main(void)
{
	struct vpux_shave_fsoftmax_args a;
	u32 dims[2] = { 64, 1000 }, size, lsize, i, ret_insn[2] = { 0x00000513u,
							     0x00008067u };
	uint8_t *k = she_load("softmax_f", &size);
	struct vpux_shave_core *c;
	double t0, t_elf, t_builtin, t_launch, t_lelf, t_lbuiltin;
	u64 insns, linsns;
	uint8_t *lk = she_load("log_softmax_f", &lsize);

	if (!k || !lk) {
		fprintf(stderr, "no %s/softmax_f.bin\n", VPUX_KERNEL_DIR);
		return 1;
	}
	memset(&a, 0, sizeof(a));
	vpux_memref_compact(&a.in, VPUX_SHAVE_WIN_F, VPUX_SHAVE_DT_F32, 2, dims,
			    0x12);
	vpux_memref_compact(&a.out, VPUX_SHAVE_WIN_F + 256000,
			    VPUX_SHAVE_DT_F32, 2, dims, 0x12);
	a.axis = 1;
	for (i = 0; i < 64000; i++) {
		u32 v = 0x3f000000u + (i * 2654435761u >> 9);

		memcpy(io + 4 * i, &v, 4);
	}
	t0 = now();
	c = she_run(k, size, &a, sizeof(a), io, sizeof(io), 4096, 1ull << 34);
	t_elf = now() - t0;
	insns = c->executed;
	if (c->trapped) {
		fprintf(stderr, "softmax_f trapped: %u at %#x\n", c->cause, c->pc);
		return 1;
	}
	she_free(c);
	t0 = now();
	if (she_builtin(VPUX_SHAVE_KERNEL_SOFTMAX_F, &a, sizeof(a), io,
			sizeof(io)))
		return 1;
	t_builtin = now() - t0;
	t0 = now();
	c = she_run(lk, lsize, &a, sizeof(a), io, sizeof(io), 4096, 1ull << 36);
	t_lelf = now() - t0;
	linsns = c->executed;
	if (c->trapped) {
		fprintf(stderr, "log_softmax_f trapped: %u at %#x\n", c->cause,
			c->pc);
		return 1;
	}
	she_free(c);
	t0 = now();
	if (she_builtin(VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F, &a, sizeof(a), io,
			sizeof(io)))
		return 1;
	t_lbuiltin = now() - t0;
	t0 = now();
	for (i = 0; i < 1000; i++)
		she_free(she_run((const uint8_t *)ret_insn, 8, NULL, 0, io, 64,
				 4096, 100));
	t_launch = (now() - t0) / 1000;
	printf("bench-shave-elf: mips_user=%.1f launch_us=%.2f softmax_elf_ms=%.1f softmax_builtin_ms=%.1f softmax_elf_insn_per_elem=%.0f log_softmax_elf_ms=%.1f log_softmax_builtin_ms=%.1f log_softmax_elf_insn_per_elem=%.0f\n",
	       insns / t_elf / 1e6, t_launch * 1e6, t_elf * 1e3,
	       t_builtin * 1e3, insns / 64000.0, t_lelf * 1e3,
	       t_lbuiltin * 1e3, linsns / 64000.0);
	free(k);
	free(lk);
	return 0;
}
