/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Reset entry of the firmware image: stack, zeroed .bss, main(). */
	.section .text.start, "ax"
	.globl _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __stack_top
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	call	main
3:	wfi
	j	3b
