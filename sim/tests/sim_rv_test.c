// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The management core's interpreter (sim/vpux_rv.c):
 *  - the test programs of sim/tests/rv/ (static rv32imac ELFs) produce
 *    byte for byte the output qemu-riscv32 produced for them at build time;
 *  - traps from hand-assembled words: cause, mepc, mtval, mstatus;
 *  - interrupts, their priority, mtvec modes, WFI;
 *  - CSRs; RAM bounds; random words never reach outside RAM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_rv_host.h"
#include "vpux_fw_abi.h"
#include "vpux_mc.h"
#include "vpux_regs.h"
#include "vpux_tap.h"

#ifndef RV_TEST_DIR
#define RV_TEST_DIR "build/sim/rv"
#endif
#ifndef RV_FW_ELF
#define RV_FW_ELF "build/firmware/vpux-fw.elf"
#endif

static const char *const progs[] = {
	"alu", "mem", "amo", "comp", "prog", "bench",
};

static void test_program(const char *name)
{
	static struct rvh h;
	char path[256], err[512];
	size_t exp_len = 0;
	char *exp, *got;
	int ok;

	snprintf(path, sizeof(path), "%s/%s.expected", RV_TEST_DIR, name);
	exp = (char *)rvh_read_file(path, &exp_len);
	if (!exp) {
		tap_check(0, "%s: expected output %s", name, path);
		return;
	}
	if (exp_len >= 4 && !memcmp(exp, "SKIP", 4)) {
		tap_skip("no qemu-riscv32 for the expected output");
		tap_skip("no qemu-riscv32 for the expected output");
		tap_skip("no qemu-riscv32 for the expected output");
		free(exp);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s.elf", RV_TEST_DIR, name);
	if (rvh_load(&h, path, RVH_RAM_BASE, err, sizeof(err))) {
		tap_check(0, "%s: %s", name, err);
		free(exp);
		return;
	}
	ok = !rvh_run(&h, 200000000ull, 100000, err, sizeof(err));
	tap_check(ok, "%s: runs to exit (%llu instructions)%s%s", name,
		  (unsigned long long)h.retired, ok ? "" : ": ",
		  ok ? "" : err);
	got = malloc(h.out_len + 32);
	memcpy(got, h.out, h.out_len);
	snprintf(got + h.out_len, 32, "exit %d\n", h.exit_code);
	ok = strlen(got) == exp_len && !memcmp(got, exp, exp_len);
	tap_check(ok, "%s: output matches qemu-riscv32's (%zu bytes)", name,
		  exp_len);
	if (!ok)
		tap_diag("got:\n%s", got);
	tap_check(h.rv.minstret == h.retired,
		  "%s: minstret counts the instructions retired", name);
	free(got);
	free(exp);
	rvh_free(&h);
}

/* ---- a tiny assembler ---- */

enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5 };

static u32 r_type(u32 f7, u32 rs2, u32 rs1, u32 f3, u32 rd, u32 op)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static u32 i_type(s32 imm, u32 rs1, u32 f3, u32 rd, u32 op)
{
	return ((u32)imm & 0xfffu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static u32 s_type(s32 imm, u32 rs2, u32 rs1, u32 f3)
{
	u32 i = (u32)imm & 0xfffu;

	return (i >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (i & 31u) << 7 | 0x23u;
}

#define ADDI(rd, rs1, imm)	i_type(imm, rs1, 0, rd, 0x13)
#define LW(rd, rs1, imm)	i_type(imm, rs1, 2, rd, 0x03)
#define LH(rd, rs1, imm)	i_type(imm, rs1, 1, rd, 0x03)
#define LBU(rd, rs1, imm)	i_type(imm, rs1, 4, rd, 0x03)
#define SW(rs2, rs1, imm)	s_type(imm, rs2, rs1, 2)
#define SH(rs2, rs1, imm)	s_type(imm, rs2, rs1, 1)
#define SB(rs2, rs1, imm)	s_type(imm, rs2, rs1, 0)
#define JALR(rd, rs1, imm)	i_type(imm, rs1, 0, rd, 0x67)
#define CSRRW(rd, csr, rs1)	i_type(csr, rs1, 1, rd, 0x73)
#define CSRRS(rd, csr, rs1)	i_type(csr, rs1, 2, rd, 0x73)
#define CSRRC(rd, csr, rs1)	i_type(csr, rs1, 3, rd, 0x73)
#define CSRRWI(rd, csr, u)	i_type(csr, u, 5, rd, 0x73)
#define CSRRSI(rd, csr, u)	i_type(csr, u, 6, rd, 0x73)
#define CSRRCI(rd, csr, u)	i_type(csr, u, 7, rd, 0x73)
#define LUI(rd, imm20)		((u32)(imm20) << 12 | (rd) << 7 | 0x37u)
#define ECALL			0x00000073u
#define EBREAK			0x00100073u
#define MRET			0x30200073u
#define WFI			0x10500073u
#define NOP			ADDI(ZERO, ZERO, 0)
#define C_EBREAK		0x9002u
#define C_NOP			0x0001u

#define BASE		0x80000000u
#define RAM_SIZE	0x10000u
#define HANDLER		(BASE + 0x8000u)

static u8 ram[RAM_SIZE];
static struct vpux_rv rv;

/* bus: a window of 256 bytes at 0x10000000; everything else faults */
#define MMIO		0x10000000u
static u32 mmio_last_addr, mmio_last_val, mmio_last_size;
static u32 mmio_reg[64];

static int bus_load(void *ctx, u32 addr, u32 size, u32 *val)
{
	(void)ctx;
	if (addr - MMIO >= sizeof(mmio_reg))
		return -1;
	*val = mmio_reg[(addr - MMIO) / 4] >> ((addr & 3) * 8);
	mmio_last_addr = addr;
	mmio_last_size = size;
	return 0;
}

static int bus_store(void *ctx, u32 addr, u32 size, u32 val)
{
	(void)ctx;
	if (addr - MMIO >= sizeof(mmio_reg))
		return -1;
	mmio_last_addr = addr;
	mmio_last_val = val;
	mmio_last_size = size;
	if (size == 4)
		mmio_reg[(addr - MMIO) / 4] = val;
	return 0;
}

static const struct vpux_rv_bus bus = {
	.load = bus_load, .store = bus_store,
};

static void put32(u32 addr, u32 v)
{
	rvh_wr32(ram + addr - BASE, v);
}

static void put16(u32 addr, u32 v)
{
	ram[addr - BASE] = v;
	ram[addr - BASE + 1] = v >> 8;
}

static u32 get32(u32 addr)
{
	const u8 *p = ram + addr - BASE;

	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/* Fresh hart at BASE, handler "wfi; mret" at HANDLER, code words. */
static void setup(const u32 *code, unsigned int n)
{
	unsigned int i;

	memset(ram, 0, sizeof(ram));
	memset(&rv, 0, sizeof(rv));
	rv.ram = ram;
	rv.ram_base = BASE;
	rv.ram_size = RAM_SIZE;
	rv.bus = &bus;
	vpux_rv_reset(&rv, BASE);
	rv.mtvec = HANDLER;
	put32(HANDLER, WFI);
	put32(HANDLER + 4, MRET);
	for (i = 0; i < n; i++)
		put32(BASE + 4 * i, code[i]);
	rv.x[S0] = BASE + 0x4000;	/* data */
	rv.x[S1] = MMIO;
}

#define SETUP(...) do { \
	const u32 _c[] = { __VA_ARGS__ }; \
	setup(_c, sizeof(_c) / sizeof(_c[0])); \
} while (0)

/* single-step until the hart enters the handler; false if it does not */
static bool run_to_trap(void)
{
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		vpux_rv_run(&rv, 1);
		if (rv.pc == HANDLER)
			return true;
	}
	return false;
}

static void check_trap(const char *what, u32 cause, u32 epc, u32 tval)
{
	bool t = run_to_trap();

	tap_check(t && rv.mcause == cause && rv.mepc == epc &&
		  rv.mtval == tval,
		  "%s: mcause %u mepc %#x mtval %#x (got %s %u %#x %#x)",
		  what, cause, epc, tval, t ? "trap" : "no trap", rv.mcause,
		  rv.mepc, rv.mtval);
}

static void test_exceptions(void)
{
	/* illegal instructions: mtval = the instruction bits */
	SETUP(NOP, 0xffffffffu);
	check_trap("illegal 0xffffffff", 2, BASE + 4, 0xffffffffu);
	SETUP(0);
	check_trap("illegal all-zero halfword", 2, BASE, 0);
	SETUP(NOP, 0x00006082u);	/* c.flwsp: no F */
	check_trap("illegal c.flwsp", 2, BASE + 4, 0x6082);
	SETUP(0x00002000u | 0x00010000u);	/* c.fld, then c.nop-ish */
	check_trap("illegal c.fld", 2, BASE, 0x2000);
	SETUP(i_type(0x20, A0, 1, A0, 0x13));	/* slli shamt[5] */
	check_trap("illegal slli shamt 32", 2, BASE,
	       i_type(0x20, A0, 1, A0, 0x13));
	SETUP(CSRRS(A0, 0x7c0, ZERO));	/* custom CSR: absent */
	check_trap("illegal absent CSR", 2, BASE, CSRRS(A0, 0x7c0, ZERO));
	SETUP(CSRRW(ZERO, 0xf14, A0));	/* write mhartid */
	check_trap("illegal write to mhartid", 2, BASE,
		   CSRRW(ZERO, 0xf14, A0));
	SETUP(CSRRS(A0, 0x180, ZERO));	/* satp: no S-mode */
	check_trap("illegal satp", 2, BASE, CSRRS(A0, 0x180, ZERO));
	SETUP(r_type(0x01, A1, A0, 0, A0, 0x2f) | 2u << 12 | 0x1fu << 27);
	check_trap("illegal AMO funct5", 2, BASE,
		   r_type(0x01, A1, A0, 0, A0, 0x2f) | 2u << 12 | 0x1fu << 27);
	SETUP(0x00200073u);	/* uret */
	check_trap("illegal uret", 2, BASE, 0x00200073u);
	SETUP(0x0000000bu);	/* custom-0 */
	check_trap("illegal custom-0", 2, BASE, 0x0000000bu);

	/* misaligned loads and stores trap, mtval = address */
	SETUP(LW(A0, S0, 1));
	check_trap("misaligned lw", 4, BASE, BASE + 0x4001);
	SETUP(LH(A0, S0, 3));
	check_trap("misaligned lh", 4, BASE, BASE + 0x4003);
	SETUP(SW(A0, S0, 2));
	check_trap("misaligned sw", 6, BASE, BASE + 0x4002);
	SETUP(SH(A0, S0, -1));
	check_trap("misaligned sh", 6, BASE, BASE + 0x3fff);
	SETUP(r_type(0x00, ZERO, S1, 2, A0, 0x2f) | 2u << 27); /* lr.w */
	rv.x[S1] = BASE + 0x4002;
	check_trap("misaligned lr.w", 4, BASE, BASE + 0x4002);

	/* fetch outside RAM, mtval = address */
	SETUP(JALR(ZERO, A0, 0));
	rv.x[A0] = 0x1000;
	check_trap("fetch outside RAM", 1, 0x1000, 0x1000);
	SETUP(JALR(ZERO, A0, 0));
	rv.x[A0] = MMIO;
	check_trap("no fetch from the bus", 1, MMIO, MMIO);
	SETUP(JALR(ZERO, A0, 0));
	rv.x[A0] = BASE + RAM_SIZE - 2;
	put16(BASE + RAM_SIZE - 2, 0x0013);	/* 32-bit insn, half in RAM */
	check_trap("fetch across the end of RAM", 1, BASE + RAM_SIZE - 2,
		   BASE + RAM_SIZE);
	SETUP(JALR(ZERO, A0, 0));
	rv.x[A0] = BASE + RAM_SIZE - 2;
	put16(BASE + RAM_SIZE - 2, C_EBREAK);	/* compressed: fits */
	check_trap("compressed insn at the end of RAM", 3,
		   BASE + RAM_SIZE - 2, 0);
	SETUP(NOP);
	rv.pc = BASE + 1;
	check_trap("misaligned PC", 0, BASE, BASE + 1);

	/* access faults: the bus refuses, or no bus */
	SETUP(LW(A0, S1, 256));
	check_trap("load access fault", 5, BASE, MMIO + 256);
	SETUP(SB(A0, S1, -1));
	check_trap("store access fault", 7, BASE, MMIO - 1);
	SETUP(NOP, LW(A0, S1, 0));
	rv.bus = NULL;
	check_trap("load with no bus", 5, BASE + 4, MMIO);
	SETUP(LW(A0, ZERO, 0x7fc));
	check_trap("load below RAM", 5, BASE, 0x7fc);
	SETUP(r_type(0x00, A0, S1, 2, A0, 0x2f));	/* amoadd.w */
	rv.x[S1] = 0x20000000u;
	check_trap("AMO access fault is a store fault", 7, BASE, 0x20000000u);

	/* ecall, ebreak */
	SETUP(NOP, ECALL);
	check_trap("ecall", 11, BASE + 4, 0);
	SETUP(EBREAK);
	check_trap("ebreak", 3, BASE, 0);
	SETUP(C_EBREAK | C_NOP << 16);
	check_trap("c.ebreak", 3, BASE, 0);
	tap_check(rv.minstret == 0, "a trapping instruction does not retire");
}

static void test_ram_bounds(void)
{
	u32 end = BASE + RAM_SIZE;

	SETUP(LW(A0, A1, 0), LH(A2, A1, 2), LBU(A3, A1, 3), SW(A4, A1, 0),
	      ECALL);
	rv.x[A1] = end - 4;
	rv.x[A4] = 0xa5a5a5a5u;
	put32(end - 4, 0xdeadbeefu);
	check_trap("last word of RAM", 11, BASE + 16, 0);
	tap_check(rv.x[A0] == 0xdeadbeefu && rv.x[A2] == 0xffffdeadu &&
		  rv.x[A3] == 0xde && get32(end - 4) == 0xa5a5a5a5u,
		  "loads and stores of the last bytes of RAM");

	SETUP(LW(A0, A1, 0));
	rv.x[A1] = end;
	check_trap("lw just past RAM", 5, BASE, end);
	SETUP(SB(A0, A1, 0));
	rv.x[A1] = end;
	check_trap("sb just past RAM", 7, BASE, end);
	SETUP(LBU(A0, A1, 0));
	rv.x[A1] = BASE - 1;
	check_trap("lbu just before RAM", 5, BASE, BASE - 1);
	SETUP(LW(A0, A1, -4));
	rv.x[A1] = 0;	/* wraps to 0xfffffffc */
	check_trap("lw at the top of the address space", 5, BASE,
		   0xfffffffcu);
}

static void test_bus(void)
{
	memset(mmio_reg, 0, sizeof(mmio_reg));
	SETUP(ADDI(A0, ZERO, 0x123), SW(A0, S1, 8), LW(A1, S1, 8),
	      SH(A0, S1, 6), LBU(A2, S1, 9), LH(A3, S1, 10), ECALL);
	check_trap("bus accesses", 11, BASE + 24, 0);
	tap_check(mmio_reg[2] == 0x123 && rv.x[A1] == 0x123 &&
		  rv.x[A2] == 0x01 && rv.x[A3] == 0,
		  "bus loads and stores, sign and zero extension");
	tap_check(mmio_last_addr == MMIO + 10 && mmio_last_size == 2,
		  "bus sees address and size");
}

static void test_csrs(void)
{
	SETUP(ADDI(A0, ZERO, 0x5a),
	      CSRRW(A1, 0x340, A0),	/* mscratch = 0x5a, a1 = 0 */
	      CSRRSI(A2, 0x340, 0x5),	/* a2 = 0x5a, |= 5 */
	      CSRRCI(A3, 0x340, 0x2),	/* a3 = 0x5f, &= ~2 */
	      CSRRS(A4, 0x340, ZERO),	/* a4 = 0x5d */
	      CSRRWI(A5, 0x340, 31),	/* a5 = 0x5d, = 31 */
	      CSRRC(T0, 0x340, A0),	/* t0 = 31, &= ~0x5a */
	      CSRRS(T1, 0x340, ZERO),	/* t1 = 0x05 */
	      CSRRS(T2, 0x301, ZERO),	/* misa */
	      CSRRS(S0, 0xf14, ZERO),	/* mhartid */
	      ECALL);
	check_trap("CSR program", 11, BASE + 40, 0);
	tap_check(rv.x[A1] == 0 && rv.x[A2] == 0x5a && rv.x[A3] == 0x5f &&
		  rv.x[A4] == 0x5d && rv.x[A5] == 0x5d && rv.x[T0] == 31 &&
		  rv.x[T1] == 0x05 && rv.mscratch == 0x05,
		  "csrrw/s/c and the immediate forms");
	tap_check(rv.x[T2] == 0x40001105u, "misa is RV32IMAC (%#x)",
		  rv.x[T2]);
	tap_check(rv.x[S0] == 0, "mhartid is 0");

	SETUP(NOP, NOP, NOP, CSRRS(A0, 0xb02, ZERO), CSRRS(A1, 0xc00, ZERO),
	      CSRRS(A2, 0xb82, ZERO), ECALL);
	check_trap("counter program", 11, BASE + 24, 0);
	tap_check(rv.x[A0] == 3 && rv.x[A1] == 4 && rv.x[A2] == 0,
		  "minstret/cycle count (%u %u)", rv.x[A0], rv.x[A1]);
	tap_check(rv.minstret == 6 && rv.mcycle == 7,
		  "minstret %llu, mcycle %llu (traps take a cycle)",
		  (unsigned long long)rv.minstret,
		  (unsigned long long)rv.mcycle);

	/* mstatus: MPP reads 3; mtvec mode 2/3 reserved; mip read-only */
	SETUP(ADDI(A0, ZERO, -1), CSRRW(ZERO, 0x300, A0),
	      CSRRS(A1, 0x300, ZERO), CSRRW(ZERO, 0x344, A0),
	      CSRRS(A2, 0x344, ZERO), CSRRW(ZERO, 0x304, A0),
	      CSRRS(A3, 0x304, ZERO), CSRRW(ZERO, 0x341, A0),
	      CSRRS(A4, 0x341, ZERO), CSRRW(ZERO, 0x300, ZERO), ECALL);
	check_trap("WARL program", 11, BASE + 40, 0);
	tap_check(rv.x[A1] == 0x1888 && rv.x[A2] == 0 && rv.x[A3] == 0x888 &&
		  rv.x[A4] == 0xfffffffeu,
		  "WARL fields: mstatus %#x mip %#x mie %#x mepc %#x",
		  rv.x[A1], rv.x[A2], rv.x[A3], rv.x[A4]);
}

static void test_mret(void)
{
	/* MIE=1, ecall: MIE=0 MPIE=1 in the handler; mret restores */
	SETUP(CSRRSI(ZERO, 0x300, 8), ECALL, ADDI(A0, ZERO, 7), ECALL);
	check_trap("ecall with MIE set", 11, BASE + 4, 0);
	tap_check((rv.mstatus & 0x1888) == 0x1880,
		  "trap: MIE cleared, MPIE set, MPP=M (%#x)", rv.mstatus);
	rv.mepc += 4;
	rv.pc = HANDLER + 4;	/* mret */
	check_trap("resume through mret", 11, BASE + 12, 0);
	tap_check(rv.x[A0] == 7, "mret returns to mepc");
	/* the second ecall came with MIE restored to 1 */
	tap_check((rv.mstatus & 0x88) == 0x80,
		  "mret restored MIE from MPIE (%#x)", rv.mstatus);

	/* mret with MPIE=0: MIE stays 0, MPIE becomes 1 */
	SETUP(ECALL, NOP, ECALL);
	check_trap("ecall with MIE clear", 11, BASE, 0);
	rv.mepc += 4;
	rv.pc = HANDLER + 4;
	check_trap("second ecall", 11, BASE + 8, 0);
	tap_check((rv.mstatus & 0x88) == 0x00,
		  "MIE stays clear through mret with MPIE=0 (%#x)",
		  rv.mstatus);
}

static void test_interrupts(void)
{
	u32 n;

	/* mie.MTIE, mstatus.MIE, then a loop of addi */
	SETUP(ADDI(A0, ZERO, 0x80), CSRRS(ZERO, 0x304, A0),
	      CSRRSI(ZERO, 0x300, 8), ADDI(T0, T0, 1), ADDI(T0, T0, 1),
	      ADDI(T0, T0, 1), ADDI(T0, T0, 1), ADDI(T0, T0, 1));
	n = vpux_rv_run(&rv, 5);
	tap_check(n == 5 && rv.x[T0] == 2 && rv.pc == BASE + 20,
		  "runs 5 instructions (%u, pc %#x)", n, rv.pc);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MTIP, true);
	n = vpux_rv_run(&rv, 1);
	tap_check(n == 0 && rv.pc == HANDLER &&
		  rv.mcause == VPUX_RV_CAUSE_MTI && rv.mepc == BASE + 20 &&
		  rv.mtval == 0, "timer interrupt: mcause %#x mepc %#x",
		  rv.mcause, rv.mepc);
	tap_check(rv.x[T0] == 2 && (rv.mstatus & 0x88) == 0x80,
		  "taken before the next instruction, MIE saved");

	/* masked by mstatus.MIE: not taken */
	SETUP(ADDI(A0, ZERO, 0x80), CSRRS(ZERO, 0x304, A0), NOP, NOP, ECALL);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MTIP, true);
	check_trap("MTIP pending with MIE clear", 11, BASE + 16, 0);
	/* masked by mie */
	SETUP(CSRRSI(ZERO, 0x300, 8), NOP, ECALL);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MTIP, true);
	check_trap("MTIP pending with MTIE clear", 11, BASE + 8, 0);

	/* priority MEI > MSI > MTI; vectored mtvec */
	SETUP(LUI(A0, 1), ADDI(A0, A0, -0x778),	/* 0x888 */
	      CSRRS(ZERO, 0x304, A0), CSRRSI(ZERO, 0x300, 8), NOP);
	rv.mtvec = HANDLER | 1;
	vpux_rv_run(&rv, 4);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MTIP, true);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MSIP, true);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MEIP, true);
	vpux_rv_run(&rv, 1);
	tap_check(rv.mcause == VPUX_RV_CAUSE_MEI &&
		  rv.pc == HANDLER + 4 * 11 && rv.mepc == BASE + 16,
		  "MEI first, vectored to mtvec + 4 * 11 (pc %#x)", rv.pc);
	/* the handler clears MEIP and returns: MSI next */
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MEIP, false);
	rv.pc = HANDLER + 4;	/* mret */
	vpux_rv_run(&rv, 2);
	tap_check(rv.mcause == VPUX_RV_CAUSE_MSI && rv.pc == HANDLER + 4 * 3,
		  "then MSI (mcause %#x)", rv.mcause);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MSIP, false);
	rv.pc = HANDLER + 4;
	vpux_rv_run(&rv, 2);
	tap_check(rv.mcause == VPUX_RV_CAUSE_MTI && rv.pc == HANDLER + 4 * 7,
		  "then MTI (mcause %#x)", rv.mcause);
	/* exceptions are not vectored */
	SETUP(ECALL);
	rv.mtvec = (HANDLER - 0x100) | 1;
	vpux_rv_run(&rv, 1);
	tap_check(rv.pc == HANDLER - 0x100 && rv.mcause == 11,
		  "exceptions go to the base of a vectored mtvec");

	/* an interrupt enabled by a CSR write is taken right after it */
	SETUP(ADDI(A0, ZERO, 0x8), CSRRS(ZERO, 0x304, A0),
	      CSRRSI(ZERO, 0x300, 8), ADDI(T0, ZERO, 1));
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MSIP, true);
	check_trap("MSI right after mstatus.MIE is set", VPUX_RV_CAUSE_MSI,
		   BASE + 12, 0);
}

static void test_wfi(void)
{
	u32 n;

	/* WFI with MTIE enabled but MIE clear: stops; the line wakes it */
	SETUP(ADDI(A0, ZERO, 0x80), CSRRS(ZERO, 0x304, A0), WFI,
	      ADDI(A1, ZERO, 42), ECALL);
	n = vpux_rv_run(&rv, 100);
	tap_check(n == 3 && rv.wfi && rv.pc == BASE + 12,
		  "WFI stops the run early (%u retired)", n);
	n = vpux_rv_run(&rv, 100);
	tap_check(n == 0 && rv.wfi, "stays stopped with nothing pending");
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MSIP, true);	/* not enabled */
	n = vpux_rv_run(&rv, 100);
	tap_check(n == 0 && rv.wfi, "a disabled interrupt does not wake it");
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MTIP, true);
	check_trap("MTIP wakes WFI; MIE clear: no trap, runs on", 11,
		   BASE + 16, 0);
	tap_check(rv.x[A1] == 42, "resumed after the WFI");

	/* with MIE set, the wake-up interrupt is taken after the WFI */
	SETUP(ADDI(A0, ZERO, 0x80), CSRRS(ZERO, 0x304, A0),
	      CSRRSI(ZERO, 0x300, 8), WFI, ADDI(A1, ZERO, 42));
	vpux_rv_run(&rv, 100);
	tap_check(rv.wfi && rv.pc == BASE + 16, "WFI stops");
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MTIP, true);
	check_trap("interrupt taken after WFI", VPUX_RV_CAUSE_MTI,
		   BASE + 16, 0);
	tap_check(rv.x[A1] == 0, "before the next instruction");

	/* WFI with an enabled interrupt already pending is a nop */
	SETUP(ADDI(A0, ZERO, 0x80), CSRRS(ZERO, 0x304, A0), WFI, ECALL);
	vpux_rv_set_irq(&rv, VPUX_RV_MIP_MTIP, true);
	check_trap("WFI with MTIP pending falls through", 11, BASE + 12, 0);
}

/* Random words and registers: the interpreter stays inside ram[]. */
static void test_random(void)
{
	static u8 small[64];
	u64 seed = 0x9e3779b97f4a7c15ull, retired = 0;
	unsigned int round, i;

	for (round = 0; round < 3000; round++) {
		memset(&rv, 0, sizeof(rv));
		rv.ram = small;
		rv.ram_base = BASE;
		rv.ram_size = sizeof(small);
		rv.bus = (round & 1) ? &bus : NULL;
		vpux_rv_reset(&rv, BASE);
		rv.mtvec = BASE + ((round >> 1) & 7) * 4;
		for (i = 0; i < sizeof(small); i++) {
			seed ^= seed >> 12;
			seed ^= seed << 25;
			seed ^= seed >> 27;
			small[i] = (u8)((seed * 0x2545f4914f6cdd1dull) >> 56);
		}
		for (i = 1; i < 32; i++) {
			seed ^= seed >> 12;
			seed ^= seed << 25;
			seed ^= seed >> 27;
			rv.x[i] = (u32)(seed >> 32);
			if (i & 1)	/* near RAM and its ends */
				rv.x[i] = BASE - 8 + (rv.x[i] & 127);
		}
		vpux_rv_set_irq(&rv, 1u << ((round % 3) * 4 + 3),
				round & 4);
		retired += vpux_rv_run(&rv, 2000);
	}
	tap_check(1, "3000 random programs in a 64-byte RAM (%llu retired)",
		  (unsigned long long)retired);
}

/*
 * The real firmware image (make firmware-image) at its link address, on
 * a bus with the NPU's identity registers at VPUX_MC_NPU_BASE and 0
 * everywhere else, so no shared memory (its magic reads 0): it boots,
 * refuses to start with VPUX_MC_STATUS_ERROR and the reason, and sleeps
 * in WFI, never trapping. The model's tests and the VM run it for real.
 */
#define FW_MMIO		VPUX_MC_NPU_BASE
static u32 fw_bus_loads, fw_bus_stores, fw_status;

static int fw_load(void *ctx, u32 addr, u32 size, u32 *val)
{
	(void)ctx;
	(void)size;
	fw_bus_loads++;
	switch (addr - FW_MMIO) {
	case VPUX_REG_ID:
		*val = VPUX_ID_MAGIC;
		break;
	case VPUX_REG_REVISION:
		*val = VPUX_HW_REV_MAJOR << 16;
		break;
	case VPUX_REG_ENGINES:
		*val = 0x010101;
		break;
	case VPUX_REG_TILES:
		*val = 1;
		break;
	default:
		*val = 0;
		break;
	}
	return 0;
}

static int fw_store(void *ctx, u32 addr, u32 size, u32 val)
{
	(void)ctx;
	(void)size;
	fw_bus_stores++;
	if (addr == VPUX_MC_REG_BASE + VPUX_MC_REG_STATUS)
		fw_status = val;
	return 0;
}

static void test_firmware(void)
{
	static const struct vpux_rv_bus fw_bus = {
		.load = fw_load, .store = fw_store,
	};
	static struct rvh h;
	char err[512];
	u32 n;

	if (rvh_load(&h, RV_FW_ELF, 0x80000000u, err, sizeof(err))) {
		tap_check(0, "firmware image: %s", err);
		return;
	}
	h.rv.bus = &fw_bus;
	h.rv.mtvec = 0;	/* a trap would fetch outside RAM: visible */
	n = vpux_rv_run(&h.rv, 2000000);
	tap_check(n < 2000000 && h.rv.mcause == 0 && h.rv.wfi,
		  "firmware image boots and sleeps in WFI without a trap "
		  "(retired %u, mcause %u, pc %#x)", n, h.rv.mcause,
		  h.rv.pc);
	tap_check((fw_status & 0xff) == VPUX_MC_STATUS_ERROR &&
		  fw_status >> 8 == VPUX_FW_ERR_SHM_MAGIC,
		  "firmware image refuses absent shared memory: status %#x "
		  "(%u loads, %u stores)", fw_status, fw_bus_loads,
		  fw_bus_stores);
	rvh_free(&h);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		test_program(progs[i]);
	test_exceptions();
	test_ram_bounds();
	test_bus();
	test_csrs();
	test_mret();
	test_interrupts();
	test_wfi();
	test_random();
	test_firmware();
	return tap_finish();
}
