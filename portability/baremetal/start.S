/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Reset entry of the firmware image (the header's entry point): global
 * pointer, stack, zeroed bss, the trap vector, main(). Machine mode;
 * interrupts stay off globally (mstatus.MIE = 0): main() sleeps in WFI,
 * which wakes on mie & mip whatever MIE says, and polls.
 *
 * The trap handler: an exception stops the firmware for good. It reports
 * to the host first, with registers only (the stack may be what failed):
 * MC_INFO = mepc, MC_STATUS = CRASHED | mcause << 8, the host interrupt;
 * then, on a fresh stack, one line in the log (fw_trap_log()), and it
 * sleeps with interrupts off until the host resets the core. A trap while
 * logging lands in fw_dead, which only sleeps.
 */
/*
 * vpux_mc.h's and vpux_regs.h's values (their u suffixes are C only);
 * main.c checks that they agree.
 */
#define MC_REG_BASE		0x02000000	/* VPUX_MC_REG_BASE */
#define MC_REG_STATUS		0xc000		/* VPUX_MC_REG_STATUS; INFO +4, HOST_IRQ +8 */
#define MC_STATUS_CRASHED	0x02		/* VPUX_MC_STATUS_CRASHED */

	/* zicsr is part of rv32imac; newer binutils want it named */
	.option arch, +zicsr

	.section .text.start, "ax"
	.globl _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	csrci	mstatus, 8		/* MIE = 0 */
	csrw	mie, zero
	la	t0, fw_trap
	csrw	mtvec, t0		/* direct mode: fw_trap is 4-aligned */
	la	sp, __stack_top
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	call	main
	j	fw_dead

	.text
	.balign	4
	.globl	fw_trap
fw_trap:
	csrr	t0, mcause
	bltz	t0, 9f			/* an interrupt (MSB set): not expected */
	la	t1, fw_dead
	csrw	mtvec, t1		/* a second trap only stops */
	csrr	t2, mepc
	li	t4, MC_REG_BASE + MC_REG_STATUS
	sw	t2, 4(t4)		/* VPUX_MC_REG_INFO = mepc */
	slli	t5, t0, 8
	ori	t5, t5, MC_STATUS_CRASHED
	sw	t5, 0(t4)		/* VPUX_MC_REG_STATUS */
	li	t5, 1
	sw	t5, 8(t4)		/* VPUX_MC_REG_HOST_IRQ */
	la	sp, __stack_top
	mv	a0, t0
	mv	a1, t2
	csrr	a2, mtval
	call	fw_trap_log
	j	fw_dead
9:	mret

	.balign	4
	.globl	fw_dead
fw_dead:
	csrci	mstatus, 8
	csrw	mie, zero
1:	wfi
	j	1b
