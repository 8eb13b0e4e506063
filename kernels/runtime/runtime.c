// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The reference SHAVE runtime kernel (Documentation/shave-kernels.rst,
 * "Runtime kernel: FIFO and barrier protocol"): the scheduler loop a
 * SHAVE core runs when the loadable carries no runtime kernel of its own.
 * The engine holds this image (sim/include/vpux_shave_rt_ref.h, generated from
 * it: make rt-ref).
 *
 * It takes kernel tasks from the FIFO in WIN_C in order, waits for each
 * task's barrier to reach 0, launches the kernel (vpux_rt_launch():
 * registers per the entry, the kernel's entry in WIN_D, back here on
 * its return or its exit ECALL), writes the kernel's status, decrements
 * the task's post barrier, and idles in WFI while the FIFO is empty or a
 * barrier is not reached.
 *
 * Built with -DVPUX_RT_COUNT (runtime_count.elf) it also counts the tasks
 * it completed in debug[0]: the tests' example of a loadable's own
 * runtime kernel, told apart from this one by VPUX_ENG_RT_DEBUG.
 */
#include "vpux_shave_rt.h"

typedef __UINT32_TYPE__ u32;

u32 vpux_rt_launch(volatile struct vpux_shave_rt_task *t);

static inline void wfi(void)
{
	__asm__ volatile("wfi" ::: "memory");
}

__attribute__((section(".text.entry"), noreturn, used))
void vpux_runtime(volatile struct vpux_shave_rt_ctl *c)
{
	for (;;) {
		volatile struct vpux_shave_rt_task *t;
		u32 head = c->head, b;

		if (head == c->tail) {
			wfi();
			continue;
		}
		t = &c->fifo[head % VPUX_SHAVE_RT_DEPTH];
		b = t->wait;
		if (b != VPUX_SHAVE_RT_NO_BARRIER)
			while (c->barrier[b % VPUX_SHAVE_RT_BARRIERS])
				wfi();
		c->head = head + 1;
		c->running = head + 1;
		t->status = vpux_rt_launch(t);
		c->running = 0;
		b = t->post;
		if (b != VPUX_SHAVE_RT_NO_BARRIER)
			c->barrier[b % VPUX_SHAVE_RT_BARRIERS]--;
		c->done = head + 1;
#ifdef VPUX_RT_COUNT
		c->debug[0]++;
#endif
	}
}

/*
 * u32 vpux_rt_launch(t): run one kernel to its end, return its a0. The
 * kernel is entered with the seed's registers (a0, a1, sp from the
 * entry; ra the return point below; every other register, f0-f31 and
 * fcsr 0) by MRET to its entry. It ends by returning to ra, or by the
 * exit ECALL, which the core delivers to mtvec: the same point. The
 * runtime kernel's sp and saved registers wait in mscratch and on its
 * own stack, whatever the kernel did to its registers.
 */
__asm__(
"	.section .text.vpux_rt_launch, \"ax\", @progbits\n"
"	.globl vpux_rt_launch\n"
"	.p2align 2\n"
"vpux_rt_launch:\n"
"	addi	sp, sp, -64\n"
"	sw	ra, 60(sp)\n"
"	sw	s0, 56(sp)\n"
"	sw	s1, 52(sp)\n"
"	sw	s2, 48(sp)\n"
"	sw	s3, 44(sp)\n"
"	sw	s4, 40(sp)\n"
"	sw	s5, 36(sp)\n"
"	sw	s6, 32(sp)\n"
"	sw	s7, 28(sp)\n"
"	sw	s8, 24(sp)\n"
"	sw	s9, 20(sp)\n"
"	sw	s10, 16(sp)\n"
"	sw	s11, 12(sp)\n"
"	sw	gp, 8(sp)\n"
"	sw	tp, 4(sp)\n"
"	csrw	mscratch, sp\n"
"	la	ra, 1f\n"
"	csrw	mtvec, ra\n"
"	lw	t0, 0(a0)\n"		/* entry */
"	csrw	mepc, t0\n"
"	lw	a1, 8(a0)\n"
"	lw	sp, 12(a0)\n"
"	lw	a0, 4(a0)\n"
"	li	gp, 0\n"
"	li	tp, 0\n"
"	li	t0, 0\n"
"	li	t1, 0\n"
"	li	t2, 0\n"
"	li	s0, 0\n"
"	li	s1, 0\n"
"	li	a2, 0\n"
"	li	a3, 0\n"
"	li	a4, 0\n"
"	li	a5, 0\n"
"	li	a6, 0\n"
"	li	a7, 0\n"
"	li	s2, 0\n"
"	li	s3, 0\n"
"	li	s4, 0\n"
"	li	s5, 0\n"
"	li	s6, 0\n"
"	li	s7, 0\n"
"	li	s8, 0\n"
"	li	s9, 0\n"
"	li	s10, 0\n"
"	li	s11, 0\n"
"	li	t3, 0\n"
"	li	t4, 0\n"
"	li	t5, 0\n"
"	li	t6, 0\n"
"	fmv.w.x	f0, zero\n"
"	fmv.w.x	f1, zero\n"
"	fmv.w.x	f2, zero\n"
"	fmv.w.x	f3, zero\n"
"	fmv.w.x	f4, zero\n"
"	fmv.w.x	f5, zero\n"
"	fmv.w.x	f6, zero\n"
"	fmv.w.x	f7, zero\n"
"	fmv.w.x	f8, zero\n"
"	fmv.w.x	f9, zero\n"
"	fmv.w.x	f10, zero\n"
"	fmv.w.x	f11, zero\n"
"	fmv.w.x	f12, zero\n"
"	fmv.w.x	f13, zero\n"
"	fmv.w.x	f14, zero\n"
"	fmv.w.x	f15, zero\n"
"	fmv.w.x	f16, zero\n"
"	fmv.w.x	f17, zero\n"
"	fmv.w.x	f18, zero\n"
"	fmv.w.x	f19, zero\n"
"	fmv.w.x	f20, zero\n"
"	fmv.w.x	f21, zero\n"
"	fmv.w.x	f22, zero\n"
"	fmv.w.x	f23, zero\n"
"	fmv.w.x	f24, zero\n"
"	fmv.w.x	f25, zero\n"
"	fmv.w.x	f26, zero\n"
"	fmv.w.x	f27, zero\n"
"	fmv.w.x	f28, zero\n"
"	fmv.w.x	f29, zero\n"
"	fmv.w.x	f30, zero\n"
"	fmv.w.x	f31, zero\n"
"	csrw	fcsr, zero\n"
"	mret\n"
"	.p2align 2\n"
"1:\n"
"	csrr	sp, mscratch\n"
"	lw	ra, 60(sp)\n"
"	lw	s0, 56(sp)\n"
"	lw	s1, 52(sp)\n"
"	lw	s2, 48(sp)\n"
"	lw	s3, 44(sp)\n"
"	lw	s4, 40(sp)\n"
"	lw	s5, 36(sp)\n"
"	lw	s6, 32(sp)\n"
"	lw	s7, 28(sp)\n"
"	lw	s8, 24(sp)\n"
"	lw	s9, 20(sp)\n"
"	lw	s10, 16(sp)\n"
"	lw	s11, 12(sp)\n"
"	lw	gp, 8(sp)\n"
"	lw	tp, 4(sp)\n"
"	addi	sp, sp, 64\n"
"	ret\n");
