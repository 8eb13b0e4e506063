/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Every RV32C instruction, written with its compressed mnemonic so that the
 * encodings really appear, with immediates at the ends of their ranges.
 * u32 comp_test(u32 *out): stores results in out[], returns their count.
 */
	.option rvc
	.text
	.globl comp_test
	.p2align 2
comp_test:
	c.addi16sp sp, -64
	c.swsp	ra, 60(sp)
	c.swsp	s0, 56(sp)
	c.swsp	s1, 52(sp)
	c.mv	s1, a0			/* out */
	c.li	a5, 0			/* index */

#define OUT(reg) c.sw reg, 0(s1); c.addi s1, 4; c.addi a5, 1

	/* c.li / c.addi, ranges */
	c.li	a0, 31
	OUT(a0)
	c.li	a0, -32
	OUT(a0)
	c.addi	a0, 31
	OUT(a0)
	c.addi	a0, -32
	OUT(a0)
	c.nop
	/* c.lui, ranges */
	c.lui	a1, 1
	OUT(a1)
	c.lui	a1, 0x1f
	OUT(a1)
	c.lui	a1, 0xfffe0		/* nzimm -32 */
	OUT(a1)
	c.lui	a1, 0xfffff
	OUT(a1)
	/* c.addi16sp, c.addi4spn */
	c.mv	a2, sp
	c.addi16sp sp, 496
	c.addi16sp sp, -512
	c.addi16sp sp, 16
	sub	a2, sp, a2
	OUT(a2)
	c.addi4spn a3, sp, 4
	sub	a3, a3, sp
	OUT(a3)
	c.addi4spn a3, sp, 1020
	sub	a3, a3, sp
	OUT(a3)
	c.addi4spn a3, sp, 8
	sub	a3, a3, sp
	OUT(a3)
	/* shifts */
	li	a0, 0x80000001
	c.mv	a1, a0
	c.srli	a1, 1
	OUT(a1)
	c.mv	a1, a0
	c.srli	a1, 31
	OUT(a1)
	c.mv	a1, a0
	c.srai	a1, 1
	OUT(a1)
	c.mv	a1, a0
	c.srai	a1, 31
	OUT(a1)
	c.mv	a1, a0
	c.slli	a1, 1
	OUT(a1)
	c.mv	a1, a0
	c.slli	a1, 31
	OUT(a1)
	/* c.andi, ranges */
	li	a1, 0xf0f0f0f7
	c.andi	a1, -32
	OUT(a1)
	li	a1, 0xf0f0f0f7
	c.andi	a1, 31
	OUT(a1)
	li	a1, 0xf0f0f0f7
	c.andi	a1, 0
	OUT(a1)
	/* register-register */
	li	a2, 0x12345678
	li	a3, 0xf0f00ff0
	c.mv	a4, a2
	c.sub	a4, a3
	OUT(a4)
	c.mv	a4, a2
	c.xor	a4, a3
	OUT(a4)
	c.mv	a4, a2
	c.or	a4, a3
	OUT(a4)
	c.mv	a4, a2
	c.and	a4, a3
	OUT(a4)
	c.mv	a4, a2
	c.add	a4, a3
	OUT(a4)
	c.mv	t0, a2
	c.add	t0, t0
	c.mv	a4, t0
	OUT(a4)
	/* c.lw / c.sw, offsets 0 and 124; c.lwsp / c.swsp, 0 and 252 */
	addi	s0, sp, -128
	li	a0, 0x5a5aa5a5
	c.sw	a0, 124(s0)
	c.lw	a1, 124(s0)
	OUT(a1)
	c.sw	a2, 0(s0)
	c.lw	a1, 0(s0)
	OUT(a1)
	addi	sp, sp, -256
	c.swsp	a3, 252(sp)
	c.swsp	a2, 0(sp)
	c.lwsp	a1, 252(sp)
	OUT(a1)
	c.lwsp	a1, 0(sp)
	OUT(a1)
	c.lwsp	t1, 252(sp)
	c.mv	a1, t1
	OUT(a1)
	addi	sp, sp, 256
	/* c.j, c.jal, c.jr, c.jalr */
	c.li	a0, 0
	c.j	1f
	c.li	a0, 1
1:	OUT(a0)
	c.jal	2f
3:	sub	a0, ra, a0
	OUT(a0)
	c.j	4f
2:	la	a0, 3b
	c.jr	ra
4:	la	t0, 5f
	c.jalr	t0
6:	la	t0, 6b
	sub	a0, a0, t0
	OUT(a0)
	c.j	7f
5:	c.mv	a0, ra
	c.jr	ra
7:
	/* c.beqz / c.bnez, taken and not, backward too */
	c.li	a0, 0
	c.li	a1, 3
8:	c.addi	a0, 1
	c.addi	a1, -1
	c.bnez	a1, 8b
	OUT(a0)
	c.li	a1, 0
	c.li	a0, 7
	c.beqz	a1, 9f
	c.li	a0, 9
9:	c.bnez	a1, 10f
	c.addi	a0, 2
10:	OUT(a0)
	/* a far c.j / c.beqz: to the ends of their ranges */
	c.li	a0, 0
	c.j	far_fwd
far_back:
	c.addi	a0, 1
	c.li	a1, 0
	c.beqz	a1, done_far
	.skip	230, 0x01	/* c.nop (0x0001) filler */
done_far:
	OUT(a0)
	/* c.ebreak is not run (it traps); c.mv to x0 is a hint */
	c.mv	x0, a0
	c.li	x0, 5

	c.mv	a0, a5
	c.lwsp	ra, 60(sp)
	c.lwsp	s0, 56(sp)
	c.lwsp	s1, 52(sp)
	c.addi16sp sp, 64
	c.jr	ra

	.skip	1800, 0x01
far_fwd:
	c.addi	a0, 2
	j	far_back
