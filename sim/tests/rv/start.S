/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Entry of the interpreter's test programs: main(), then the Linux exit
 * system call with its result. The stack is the environment's (qemu's
 * or the test harness's). .bss is zero on both (ELF loading).
 */
	.section .text.start, "ax"
	.globl _start
_start:
	andi	sp, sp, -16
	call	main
	li	a7, 93
	ecall
1:	j	1b
