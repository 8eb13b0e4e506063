// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * RV32I and M register and immediate arithmetic, shifts, comparisons and
 * branches over pairs of edge values; prints a checksum per operation and
 * the edge cases of division.
 */
#include "rvlib.h"

static const u32 vals[] = {
	0, 1, 2, 3, 5, 7, 31, 32, 33, 0xff, 0x80, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
	0xfffffffb, 0x12345678, 0xfedcba98, 0x0000001f, 0xaaaaaaaa,
};

#define NV (sizeof(vals) / sizeof(vals[0]))

#define RR(op) \
static u32 op_##op(u32 a, u32 b) \
{ \
	u32 r; \
	asm volatile(#op " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); \
	return r; \
}

RR(add) RR(sub) RR(sll) RR(srl) RR(sra) RR(slt) RR(sltu) RR(xor) RR(or)
RR(and) RR(mul) RR(mulh) RR(mulhsu) RR(mulhu) RR(div) RR(divu) RR(rem)
RR(remu)

#define BR(op) \
static u32 br_##op(u32 a, u32 b) \
{ \
	u32 r; \
	asm volatile("li %0, 1\n\t" #op " %1, %2, 1f\n\tli %0, 0\n1:" \
		     : "=&r"(r) : "r"(a), "r"(b)); \
	return r; \
}

BR(beq) BR(bne) BR(blt) BR(bge) BR(bltu) BR(bgeu)

static const struct {
	const char *name;
	u32 (*fn)(u32, u32);
} ops[] = {
	{ "add", op_add }, { "sub", op_sub }, { "sll", op_sll },
	{ "srl", op_srl }, { "sra", op_sra }, { "slt", op_slt },
	{ "sltu", op_sltu }, { "xor", op_xor }, { "or", op_or },
	{ "and", op_and }, { "mul", op_mul }, { "mulh", op_mulh },
	{ "mulhsu", op_mulhsu }, { "mulhu", op_mulhu }, { "div", op_div },
	{ "divu", op_divu }, { "rem", op_rem }, { "remu", op_remu },
	{ "beq", br_beq }, { "bne", br_bne }, { "blt", br_blt },
	{ "bge", br_bge }, { "bltu", br_bltu }, { "bgeu", br_bgeu },
};

#define IMM(op, imm) ({ \
	u32 _r; \
	asm volatile(#op " %0, %1, %2" : "=r"(_r) : "r"(a), "i"(imm)); \
	mix(_r); })

#define IMMS(op) do { \
	IMM(op, 0); IMM(op, 1); IMM(op, -1); IMM(op, 2047); IMM(op, -2048); \
	IMM(op, 0x555); IMM(op, -0x556); IMM(op, 31); IMM(op, 0x7f0); \
	out_kv(#op, sum); } while (0)

#define SH(op) do { \
	IMM(op, 0); IMM(op, 1); IMM(op, 7); IMM(op, 16); IMM(op, 31); \
	out_kv(#op, sum); } while (0)

int main(void)
{
	unsigned int o, i, j;
	u32 a, r;

	for (o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		sum = 0x12345678;
		for (i = 0; i < NV; i++)
			for (j = 0; j < NV; j++)
				mix(ops[o].fn(vals[i], vals[j]));
		out_kv(ops[o].name, sum);
	}

	for (i = 0; i < NV; i++) {
		sum = 0x9abcdef0;
		a = vals[i];
		IMMS(addi);
		IMMS(slti);
		IMMS(sltiu);
		IMMS(xori);
		IMMS(ori);
		IMMS(andi);
		SH(slli);
		SH(srli);
		SH(srai);
	}

	/* lui/auipc */
	asm volatile("lui %0, 0xfffff" : "=r"(r));
	out_kv("lui", r);
	asm volatile("lui %0, 0x80000" : "=r"(r));
	out_kv("lui2", r);
	asm volatile("1: auipc %0, 0x1\n\tla %1, 1b\n\tsub %0, %0, %1"
		     : "=&r"(r), "=&r"(a));
	out_kv("auipc", r);

	/* division edge cases, printed one by one */
	out_kv("div0", op_div(OPAQUE(1234u), 0));
	out_kv("divu0", op_divu(OPAQUE(1234u), 0));
	out_kv("rem0", op_rem(OPAQUE(0xfffffb2eu), 0));
	out_kv("remu0", op_remu(OPAQUE(1234u), 0));
	out_kv("divov", op_div(OPAQUE(0x80000000u), 0xffffffffu));
	out_kv("remov", op_rem(OPAQUE(0x80000000u), 0xffffffffu));
	out_kv("divneg", op_div(OPAQUE(0xfffffff9u), 2));
	out_kv("remneg", op_rem(OPAQUE(0xfffffff9u), 2));
	out_kv("mulhsu", op_mulhsu(OPAQUE(0xffffffffu), 0xffffffffu));

	/* writes to x0 are dropped */
	asm volatile("li t0, 5\n\taddi x0, t0, 1\n\tadd x0, t0, t0\n\t"
		     "lui x0, 1\n\tmv %0, x0" : "=r"(r) : : "t0");
	out_kv("x0", r);
	return 0;
}
