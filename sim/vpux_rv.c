// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: the management core's RV32IMAC interpreter, machine
 * mode only (Documentation/mgmt-core.rst).
 *
 * Each step fetches from RAM (code never runs from the bus), expands a
 * compressed instruction into its 32-bit form and decodes that with one
 * switch. Loads and stores to RAM are inline; only other addresses go
 * through the bus callbacks. Every guest address is checked against the
 * RAM window before any host access: a guest never reaches past @rv->ram.
 *
 * Misaligned loads and stores trap (cause 4/6) rather than being split:
 * gcc's rv32imac code never emits them.
 */

#include "vpux_rv.h"

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif
#ifndef noinline
#define noinline	__attribute__((__noinline__))
#endif

#define MISA_RV32IMAC	((1u << 30) | (1u << 0) | (1u << 2) | (1u << 8) | \
			 (1u << 12))
#define MIP_MASK	(VPUX_RV_MIP_MSIP | VPUX_RV_MIP_MTIP | VPUX_RV_MIP_MEIP)
#define MSTATUS_MASK	(VPUX_RV_MSTATUS_MIE | VPUX_RV_MSTATUS_MPIE)

/* instruction fields */
#define RD(i)		(((i) >> 7) & 31u)
#define RS1(i)		(((i) >> 15) & 31u)
#define RS2(i)		(((i) >> 20) & 31u)
#define F3(i)		(((i) >> 12) & 7u)
#define F7(i)		((i) >> 25)
#define IMM_I(i)	((u32)((s32)(i) >> 20))
#define IMM_U(i)	((i) & 0xfffff000u)

static inline u32 imm_s(u32 i)
{
	return (u32)(((s32)i >> 20) & ~31) | RD(i);
}

static inline u32 imm_b(u32 i)
{
	return ((u32)((s32)(i & 0x80000000u) >> 19)) |	/* [12] and sign */
	       ((i << 4) & 0x800u) |			/* [11] */
	       ((i >> 20) & 0x7e0u) |			/* [10:5] */
	       ((i >> 7) & 0x1eu);			/* [4:1] */
}

static inline u32 imm_j(u32 i)
{
	return ((u32)((s32)(i & 0x80000000u) >> 11)) |	/* [20] and sign */
	       (i & 0xff000u) |				/* [19:12] */
	       ((i >> 9) & 0x800u) |			/* [11] */
	       ((i >> 20) & 0x7feu);			/* [10:1] */
}

/* little-endian RAM; the compiler merges these into single accesses */
static inline u32 rd16(const u8 *p)
{
	return p[0] | (u32)p[1] << 8;
}

static inline u32 rd32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void wr16(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static inline void wr32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* RAM offset of [addr, addr + len) or -1 (len <= 4 <= ram_size) */
static inline bool ram_off(const struct vpux_rv *rv, u32 addr, u32 len,
			   u32 *off)
{
	*off = addr - rv->ram_base;
	return *off <= rv->ram_size - len;
}

void vpux_rv_reset(struct vpux_rv *rv, u32 pc)
{
	memset(rv->x, 0, sizeof(rv->x));
	rv->pc = pc;
	rv->mstatus = VPUX_RV_MSTATUS_MPP;
	rv->mie = 0;
	rv->mip = 0;
	rv->mtvec = 0;
	rv->mepc = 0;
	rv->mcause = 0;
	rv->mtval = 0;
	rv->mscratch = 0;
	rv->mcycle = 0;
	rv->minstret = 0;
	rv->reservation = 0;
	rv->reserved = false;
	rv->wfi = false;
	memset(rv->f, 0, sizeof(rv->f));
	rv->fcsr = 0;
	rv->halted = false;
	memset(rv->ccache_key, 0, sizeof(rv->ccache_key));
	memset(rv->ccache_insn, 0, sizeof(rv->ccache_insn));
}

void vpux_rv_set_irq(struct vpux_rv *rv, u32 mip_bit, bool level)
{
	mip_bit &= MIP_MASK;
	if (level)
		rv->mip |= mip_bit;
	else
		rv->mip &= ~mip_bit;
}

/* Enter the trap handler: @epc is the PC the trap returns to. */
static noinline void rv_trap(struct vpux_rv *rv, u32 cause, u32 tval,
			     u32 epc)
{
	u32 ms = rv->mstatus;
	u32 base = rv->mtvec & ~3u;

	rv->mepc = epc & ~1u;
	rv->mcause = cause;
	rv->mtval = tval;
	if (rv->ext & VPUX_RV_EXT_HALT) {	/* a SHAVE core: stop here */
		rv->halted = true;
		rv->pc = epc;
		return;
	}
	ms &= ~(VPUX_RV_MSTATUS_MPIE | VPUX_RV_MSTATUS_MIE);
	if (rv->mstatus & VPUX_RV_MSTATUS_MIE)
		ms |= VPUX_RV_MSTATUS_MPIE;
	rv->mstatus = ms | VPUX_RV_MSTATUS_MPP;
	rv->reserved = false;
	if ((cause & VPUX_RV_CAUSE_INTR) && (rv->mtvec & 1u))
		base += 4u * (cause & ~VPUX_RV_CAUSE_INTR);
	rv->pc = base;
}

void vpux_rv_trap(struct vpux_rv *rv, u32 cause, u32 tval)
{
	rv_trap(rv, cause, tval, rv->pc);
	rv->wfi = false;
}

/* The highest-priority enabled pending interrupt's cause, or 0. */
static u32 rv_pending_irq(const struct vpux_rv *rv)
{
	u32 p = rv->mip & rv->mie;

	if (!p || !(rv->mstatus & VPUX_RV_MSTATUS_MIE))
		return 0;
	if (p & VPUX_RV_MIP_MEIP)
		return VPUX_RV_CAUSE_MEI;
	if (p & VPUX_RV_MIP_MSIP)
		return VPUX_RV_CAUSE_MSI;
	return VPUX_RV_CAUSE_MTI;
}

/*
 * Loads and stores outside the RAM fast path: RAM accesses that the fast
 * path declined and the bus. 0 or the exception's cause.
 */
static noinline u32 rv_load_slow(struct vpux_rv *rv, u32 addr, u32 size,
				 u32 *val)
{
	const struct vpux_rv_bus *bus = rv->bus;
	u32 off;

	if (addr & (size - 1))
		return VPUX_RV_CAUSE_MISALIGNED_LOAD;
	if (ram_off(rv, addr, size, &off)) {
		const u8 *p = rv->ram + off;

		*val = size == 4 ? rd32(p) : size == 2 ? rd16(p) : p[0];
		return 0;
	}
	if (!bus || !bus->load || bus->load(bus->ctx, addr, size, val))
		return VPUX_RV_CAUSE_LOAD_ACCESS;
	if (size < 4)
		*val &= (1u << (size * 8)) - 1;
	return 0;
}

static noinline u32 rv_store_slow(struct vpux_rv *rv, u32 addr, u32 size,
				  u32 val)
{
	const struct vpux_rv_bus *bus = rv->bus;
	u32 off;

	if (addr & (size - 1))
		return VPUX_RV_CAUSE_MISALIGNED_STORE;
	if (!(rv->ext & VPUX_RV_EXT_RAM_RO) && ram_off(rv, addr, size, &off)) {
		u8 *p = rv->ram + off;

		if (size == 4)
			wr32(p, val);
		else if (size == 2)
			wr16(p, val);
		else
			p[0] = val;
		return 0;
	}
	if (!bus || !bus->store || bus->store(bus->ctx, addr, size, val))
		return VPUX_RV_CAUSE_STORE_ACCESS;
	return 0;
}

/*
 * The 32-bit instruction a compressed one stands for, or 0 when it is
 * illegal (reserved, RV64/RV128-only or floating point).
 */
static u32 enc_i(u32 op, u32 f3, u32 rd, u32 rs1, u32 imm)
{
	return imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static u32 enc_r(u32 op, u32 f3, u32 f7, u32 rd, u32 rs1, u32 rs2)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static u32 enc_s(u32 op, u32 f3, u32 rs1, u32 rs2, u32 imm)
{
	return (imm >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (imm & 31u) << 7 | op;
}

static u32 enc_b(u32 f3, u32 rs1, u32 rs2, u32 imm)
{
	return ((imm >> 12) & 1u) << 31 | ((imm >> 5) & 0x3fu) << 25 |
	       rs2 << 20 | rs1 << 15 | f3 << 12 | ((imm >> 1) & 0xfu) << 8 |
	       ((imm >> 11) & 1u) << 7 | 0x63u;
}

static u32 enc_j(u32 rd, u32 imm)
{
	return ((imm >> 20) & 1u) << 31 | ((imm >> 1) & 0x3ffu) << 21 |
	       ((imm >> 11) & 1u) << 20 | ((imm >> 12) & 0xffu) << 12 |
	       rd << 7 | 0x6fu;
}

/* sign-extend the low @bits bits of @v */
static inline u32 sext(u32 v, unsigned int bits)
{
	return (u32)((s32)(v << (32 - bits)) >> (32 - bits));
}

#define OP_LOAD		0x03u
#define OP_LOAD_FP	0x07u
#define OP_STORE_FP	0x27u
#define OP_FMADD	0x43u
#define OP_FMSUB	0x47u
#define OP_FNMSUB	0x4bu
#define OP_FNMADD	0x4fu
#define OP_FP		0x53u
#define OP_MISC_MEM	0x0fu
#define OP_IMM		0x13u
#define OP_AUIPC	0x17u
#define OP_STORE	0x23u
#define OP_AMO		0x2fu
#define OP_OP		0x33u
#define OP_LUI		0x37u
#define OP_BRANCH	0x63u
#define OP_JALR		0x67u
#define OP_JAL		0x6fu
#define OP_SYSTEM	0x73u
#define INSN_EBREAK	0x00100073u
#define OPC(op)		((op) >> 2)	/* opcode[6:2] */

static u32 rv_expand_q0(u32 c)
{
	u32 rd = 8 + ((c >> 2) & 7u), rs1 = 8 + ((c >> 7) & 7u);
	/* C.LW/C.SW offset: uimm[5:3] = c[12:10], [2] = c[6], [6] = c[5] */
	u32 uimm = ((c >> 7) & 0x38u) | ((c >> 4) & 4u) | ((c << 1) & 0x40u);
	u32 nz;

	switch (c >> 13) {
	case 0:	/* C.ADDI4SPN: nzuimm[5:4|9:6|2|3] = c[12:5] */
		nz = ((c >> 7) & 0x30u) | ((c >> 1) & 0x3c0u) |
		     ((c >> 4) & 4u) | ((c >> 2) & 8u);
		return nz ? enc_i(OP_IMM, 0, rd, 2, nz) : 0;
	case 2:	/* C.LW */
		return enc_i(OP_LOAD, 2, rd, rs1, uimm);
	case 3:	/* C.FLW (RV32FC; illegal without F) */
		return enc_i(OP_LOAD_FP, 2, rd, rs1, uimm);
	case 6:	/* C.SW: rs2' in c[4:2] */
		return enc_s(OP_STORE, 2, rs1, rd, uimm);
	case 7:	/* C.FSW */
		return enc_s(OP_STORE_FP, 2, rs1, rd, uimm);
	default: /* C.FLD, reserved, C.FSD */
		return 0;
	}
}

/* C.J/C.JAL: offset[11|4|9:8|10|6|7|3:1|5] = c[12:2] */
static inline u32 cj_imm(u32 c)
{
	return sext(((c >> 1) & 0x800u) | ((c >> 7) & 0x10u) |
		    ((c >> 1) & 0x300u) | ((c << 2) & 0x400u) |
		    ((c >> 1) & 0x40u) | ((c << 1) & 0x80u) |
		    ((c >> 2) & 0xeu) | ((c << 3) & 0x20u), 12);
}

/* C.BEQZ/C.BNEZ: offset[8|4:3] = c[12:10], [7:6|2:1|5] = c[6:2] */
static inline u32 cb_imm(u32 c)
{
	return sext(((c >> 4) & 0x100u) | ((c >> 7) & 0x18u) |
		    ((c << 1) & 0xc0u) | ((c >> 2) & 6u) | ((c << 3) & 0x20u),
		    9);
}

/* C.ADDI16SP: nzimm[9|4|6|8:7|5] = c[12|6|5|4:3|2] */
static inline u32 c16sp_imm(u32 c)
{
	return sext(((c >> 3) & 0x200u) | ((c >> 2) & 0x10u) |
		    ((c << 1) & 0x40u) | ((c << 4) & 0x180u) |
		    ((c << 3) & 0x20u), 10);
}

static u32 rv_expand_q1(u32 c)
{
	u32 rd = (c >> 7) & 31u, rp = 8 + ((c >> 7) & 7u);
	u32 rs2p = 8 + ((c >> 2) & 7u);
	/* imm[5] = c[12], imm[4:0] = c[6:2] */
	u32 imm6 = sext(((c >> 7) & 0x20u) | ((c >> 2) & 31u), 6);
	u32 nz;

	switch (c >> 13) {
	case 0:	/* C.ADDI (C.NOP, hints) */
		return enc_i(OP_IMM, 0, rd, rd, imm6 & 0xfffu);
	case 1:	/* C.JAL */
		return enc_j(1, cj_imm(c));
	case 2:	/* C.LI */
		return enc_i(OP_IMM, 0, rd, 0, imm6 & 0xfffu);
	case 3:
		if (rd == 2) {	/* C.ADDI16SP */
			nz = c16sp_imm(c);
			return nz ? enc_i(OP_IMM, 0, 2, 2, nz & 0xfffu) : 0;
		}
		/* C.LUI */
		if (!imm6)
			return 0;
		return (imm6 << 12) | rd << 7 | OP_LUI;
	case 4:
		switch ((c >> 10) & 3u) {
		case 0:	/* C.SRLI; shamt[5] = 1 is RV64 only */
			if (c & 0x1000u)
				return 0;
			return enc_i(OP_IMM, 5, rp, rp, imm6 & 31u);
		case 1:	/* C.SRAI */
			if (c & 0x1000u)
				return 0;
			return enc_i(OP_IMM, 5, rp, rp, 0x400u | (imm6 & 31u));
		case 2:	/* C.ANDI */
			return enc_i(OP_IMM, 7, rp, rp, imm6 & 0xfffu);
		default:
			if (c & 0x1000u)	/* C.SUBW, C.ADDW, reserved */
				return 0;
			switch ((c >> 5) & 3u) {
			case 0:
				return enc_r(OP_OP, 0, 0x20, rp, rp, rs2p);
			case 1:
				return enc_r(OP_OP, 4, 0, rp, rp, rs2p);
			case 2:
				return enc_r(OP_OP, 6, 0, rp, rp, rs2p);
			default:
				return enc_r(OP_OP, 7, 0, rp, rp, rs2p);
			}
		}
	case 5:	/* C.J */
		return enc_j(0, cj_imm(c));
	case 6:	/* C.BEQZ */
		return enc_b(0, rp, 0, cb_imm(c));
	default: /* C.BNEZ */
		return enc_b(1, rp, 0, cb_imm(c));
	}
}

static u32 rv_expand_q2(u32 c)
{
	u32 rd = (c >> 7) & 31u, rs2 = (c >> 2) & 31u;
	u32 uimm;

	switch (c >> 13) {
	case 0:	/* C.SLLI */
		if (c & 0x1000u)
			return 0;
		return enc_i(OP_IMM, 1, rd, rd, rs2);
	case 2:	/* C.LWSP: uimm[5] = c[12], [4:2] = c[6:4], [7:6] = c[3:2] */
		if (!rd)
			return 0;
		uimm = ((c >> 7) & 0x20u) | ((c >> 2) & 0x1cu) |
		       ((c << 4) & 0xc0u);
		return enc_i(OP_LOAD, 2, rd, 2, uimm);
	case 4:
		if (!(c & 0x1000u)) {
			if (rs2)	/* C.MV */
				return enc_r(OP_OP, 0, 0, rd, 0, rs2);
			/* C.JR */
			return rd ? enc_i(OP_JALR, 0, 0, rd, 0) : 0;
		}
		if (rs2)	/* C.ADD */
			return enc_r(OP_OP, 0, 0, rd, rd, rs2);
		if (!rd)
			return INSN_EBREAK;
		return enc_i(OP_JALR, 0, 1, rd, 0);	/* C.JALR */
	case 3:	/* C.FLWSP (RV32FC): as C.LWSP, any rd */
		uimm = ((c >> 7) & 0x20u) | ((c >> 2) & 0x1cu) |
		       ((c << 4) & 0xc0u);
		return enc_i(OP_LOAD_FP, 2, rd, 2, uimm);
	case 6:	/* C.SWSP: uimm[5:2] = c[12:9], [7:6] = c[8:7] */
		uimm = ((c >> 7) & 0x3cu) | ((c >> 1) & 0xc0u);
		return enc_s(OP_STORE, 2, 2, rs2, uimm);
	case 7:	/* C.FSWSP */
		uimm = ((c >> 7) & 0x3cu) | ((c >> 1) & 0xc0u);
		return enc_s(OP_STORE_FP, 2, 2, rs2, uimm);
	default: /* C.FLDSP, C.FSDSP */
		return 0;
	}
}

static u32 rv_expand(u32 c)
{
	switch (c & 3u) {
	case 0:
		return rv_expand_q0(c);
	case 1:
		return rv_expand_q1(c);
	default:
		return rv_expand_q2(c);
	}
}

/*
 * Fetch outside the fast path: misaligned PC, the last halfword of RAM,
 * outside RAM. The instruction's raw bits, or false after a trap.
 */
static noinline bool rv_fetch_slow(struct vpux_rv *rv, u32 pc, u32 *raw)
{
	const u8 *mem = rv->ram;
	u32 off = pc - rv->ram_base, size = rv->ram_size;

	if (pc & 1u) {
		rv_trap(rv, VPUX_RV_CAUSE_MISALIGNED_FETCH, pc, pc);
		return false;
	}
	/* the second code region (ram_size and rom_size are >= 4) */
	if (off > size - 2 && rv->rom_size && pc - rv->rom_base <=
	    rv->rom_size - 2) {
		mem = rv->rom;
		off = pc - rv->rom_base;
		size = rv->rom_size;
	}
	if (off <= size - 2) {
		*raw = rd16(mem + off);
		if ((*raw & 3u) != 3u)
			return true;
		if (off <= size - 4) {
			*raw = rd32(mem + off);
			return true;
		}
		pc += 2;
	}
	rv_trap(rv, VPUX_RV_CAUSE_FETCH_ACCESS, pc, rv->pc);
	return false;
}

/*
 * CSR access for CSRRW/S/C[I]: 0 on success (rd written), or -1 for an
 * illegal instruction. @instret/@cycle hold the live counters.
 */
#define CSR_FFLAGS	0x001u
#define CSR_FRM		0x002u
#define CSR_FCSR	0x003u
#define CSR_MSTATUS	0x300u
#define CSR_MISA	0x301u
#define CSR_MIE		0x304u
#define CSR_MTVEC	0x305u
#define CSR_MSTATUSH	0x310u
#define CSR_MSCRATCH	0x340u
#define CSR_MEPC	0x341u
#define CSR_MCAUSE	0x342u
#define CSR_MTVAL	0x343u
#define CSR_MIP		0x344u
#define CSR_MCYCLE	0xb00u
#define CSR_MINSTRET	0xb02u
#define CSR_MCYCLEH	0xb80u
#define CSR_MINSTRETH	0xb82u
#define CSR_CYCLE	0xc00u
#define CSR_INSTRET	0xc02u
#define CSR_CYCLEH	0xc80u
#define CSR_INSTRETH	0xc82u
#define CSR_MVENDORID	0xf11u
#define CSR_MARCHID	0xf12u
#define CSR_MIMPID	0xf13u
#define CSR_MHARTID	0xf14u

static int rv_csr_read(const struct vpux_rv *rv, u32 csr, u32 *val)
{
	if (csr <= CSR_FCSR && csr && !(rv->ext & VPUX_RV_EXT_F))
		return -1;
	switch (csr) {
	case CSR_FFLAGS:
		*val = rv->fcsr & 0x1fu;
		break;
	case CSR_FRM:
		*val = rv->fcsr >> 5;
		break;
	case CSR_FCSR:
		*val = rv->fcsr;
		break;
	case CSR_MSTATUS:
		*val = rv->mstatus;
		break;
	case CSR_MISA:
		*val = MISA_RV32IMAC |
		       (rv->ext & VPUX_RV_EXT_F ? 1u << 5 : 0);
		break;
	case CSR_MIE:
		*val = rv->mie;
		break;
	case CSR_MTVEC:
		*val = rv->mtvec;
		break;
	case CSR_MSCRATCH:
		*val = rv->mscratch;
		break;
	case CSR_MEPC:
		*val = rv->mepc;
		break;
	case CSR_MCAUSE:
		*val = rv->mcause;
		break;
	case CSR_MTVAL:
		*val = rv->mtval;
		break;
	case CSR_MIP:
		*val = rv->mip;
		break;
	case CSR_MCYCLE:
	case CSR_CYCLE:
		*val = (u32)rv->mcycle;
		break;
	case CSR_MINSTRET:
	case CSR_INSTRET:
		*val = (u32)rv->minstret;
		break;
	case CSR_MCYCLEH:
	case CSR_CYCLEH:
		*val = rv->mcycle >> 32;
		break;
	case CSR_MINSTRETH:
	case CSR_INSTRETH:
		*val = rv->minstret >> 32;
		break;
	case CSR_MSTATUSH:
	case CSR_MVENDORID:
	case CSR_MARCHID:
	case CSR_MIMPID:
	case CSR_MHARTID:
		*val = 0;
		break;
	default:
		return -1;
	}
	return 0;
}

/* @csr exists (read succeeded) and is not read-only (csr[11:10] != 3) */
static void rv_csr_write(struct vpux_rv *rv, u32 csr, u32 val)
{
	switch (csr) {
	case CSR_FFLAGS:
		rv->fcsr = (rv->fcsr & ~0x1fu) | (val & 0x1fu);
		break;
	case CSR_FRM:
		rv->fcsr = (rv->fcsr & 0x1fu) | (val & 7u) << 5;
		break;
	case CSR_FCSR:
		rv->fcsr = val & 0xffu;
		break;
	case CSR_MSTATUS:
		rv->mstatus = (val & MSTATUS_MASK) | VPUX_RV_MSTATUS_MPP;
		break;
	case CSR_MIE:
		rv->mie = val & MIP_MASK;
		break;
	case CSR_MTVEC:	/* modes 2 and 3 are reserved: keep bit 0 only */
		rv->mtvec = val & ~2u;
		break;
	case CSR_MSCRATCH:
		rv->mscratch = val;
		break;
	case CSR_MEPC:
		rv->mepc = val & ~1u;
		break;
	case CSR_MCAUSE:
		rv->mcause = val;
		break;
	case CSR_MTVAL:
		rv->mtval = val;
		break;
	case CSR_MCYCLE:
		rv->mcycle = (rv->mcycle & ~0xffffffffull) | val;
		break;
	case CSR_MINSTRET:
		rv->minstret = (rv->minstret & ~0xffffffffull) | val;
		break;
	case CSR_MCYCLEH:
		rv->mcycle = (rv->mcycle & 0xffffffffull) | (u64)val << 32;
		break;
	case CSR_MINSTRETH:
		rv->minstret = (rv->minstret & 0xffffffffull) | (u64)val << 32;
		break;
	default:	/* misa, mip, mstatush: WARL, nothing writable */
		break;
	}
}

/* Execute a Zicsr instruction; false: illegal. */
static noinline bool rv_csr(struct vpux_rv *rv, u32 insn)
{
	u32 csr = insn >> 20, f3 = F3(insn), rd = RD(insn), rs1 = RS1(insn);
	u32 src = (f3 & 4u) ? rs1 : rv->x[rs1];
	bool write = (f3 & 3u) == 1u || rs1 != 0;
	u32 old = 0, val;

	if ((f3 & 3u) == 0)
		return false;
	if (rv_csr_read(rv, csr, &old))
		return false;
	if (write && (csr >> 10) == 3u)
		return false;
	if (write) {
		switch (f3 & 3u) {
		case 1:
			val = src;
			break;
		case 2:
			val = old | src;
			break;
		default:
			val = old & ~src;
			break;
		}
		rv_csr_write(rv, csr, val);
	}
	rv->x[rd] = old;
	return true;
}

/* AMO*.W, LR.W, SC.W on an aligned address; 0 or a trap cause */
static noinline u32 rv_amo(struct vpux_rv *rv, u32 insn, u32 addr,
			   u32 *rdv)
{
	u32 f5 = insn >> 27, src = rv->x[RS2(insn)], old, val, cause;

	switch (f5) {
	case 2:	/* LR.W */
		if (RS2(insn))
			return VPUX_RV_CAUSE_ILLEGAL_INSN;
		if (addr & 3u)
			return VPUX_RV_CAUSE_MISALIGNED_LOAD;
		cause = rv_load_slow(rv, addr, 4, rdv);
		if (!cause) {
			rv->reservation = addr;
			rv->reserved = true;
		}
		return cause;
	case 3:	/* SC.W */
		if (addr & 3u)
			return VPUX_RV_CAUSE_MISALIGNED_STORE;
		if (!rv->reserved || rv->reservation != addr) {
			rv->reserved = false;
			*rdv = 1;
			return 0;
		}
		cause = rv_store_slow(rv, addr, 4, src);
		if (!cause) {
			rv->reserved = false;
			*rdv = 0;
		}
		return cause;
	case 0: case 1: case 4: case 8: case 12:
	case 16: case 20: case 24: case 28:
		break;
	default:
		return VPUX_RV_CAUSE_ILLEGAL_INSN;
	}
	if (addr & 3u)
		return VPUX_RV_CAUSE_MISALIGNED_STORE;
	/* a load fault of an AMO is reported as a store/AMO fault */
	if (rv_load_slow(rv, addr, 4, &old))
		return VPUX_RV_CAUSE_STORE_ACCESS;
	switch (f5) {
	case 0:
		val = old + src;
		break;
	case 1:
		val = src;
		break;
	case 4:
		val = old ^ src;
		break;
	case 8:
		val = old | src;
		break;
	case 12:
		val = old & src;
		break;
	case 16:
		val = (s32)old < (s32)src ? old : src;
		break;
	case 20:
		val = (s32)old > (s32)src ? old : src;
		break;
	case 24:
		val = old < src ? old : src;
		break;
	default:
		val = old > src ? old : src;
		break;
	}
	cause = rv_store_slow(rv, addr, 4, val);
	if (!cause)
		*rdv = old;
	return cause;
}

static inline u32 rv_muldiv(u32 f3, u32 a, u32 b)
{
	switch (f3) {
	case 0:
		return a * b;
	case 1:
		return (u32)((u64)((s64)(s32)a * (s32)b) >> 32);
	case 2:
		return (u32)((u64)((s64)(s32)a * (s64)b) >> 32);
	case 3:
		return (u32)(((u64)a * b) >> 32);
	case 4:
		if (!b)
			return ~0u;
		if (a == 0x80000000u && b == ~0u)
			return a;
		return (u32)((s32)a / (s32)b);
	case 5:
		return b ? a / b : ~0u;
	case 6:
		if (!b)
			return a;
		if (a == 0x80000000u && b == ~0u)
			return 0;
		return (u32)((s32)a % (s32)b);
	default:
		return b ? a % b : a;
	}
}

u32 vpux_rv_run(struct vpux_rv *rv, u32 n)
{
	u32 *x = rv->x;
	u8 *ram = rv->ram;
	u32 base = rv->ram_base, lim4 = rv->ram_size - 4;
	u32 steps = 0, retired = 0, steps_done = 0, retired_done = 0;
	u32 pc = rv->pc;
	bool check_irq = true;
	bool ro = rv->ext & VPUX_RV_EXT_RAM_RO;

	if (rv->halted)
		return 0;
	if (rv->wfi) {
		if (!(rv->mip & rv->mie))
			return 0;
		rv->wfi = false;
	}

	while (steps < n) {
		u32 insn, raw, off, ilen, next, a, b, v, cause, tval;

		steps++;
		if (unlikely(check_irq)) {
			check_irq = false;
			cause = rv_pending_irq(rv);
			if (cause) {
				rv_trap(rv, cause, 0, pc);
				pc = rv->pc;
				continue;
			}
		}

		off = pc - base;
		if (likely(off <= lim4 && !(pc & 1u))) {
			raw = rd32(ram + off);
		} else {
			rv->pc = pc;
			if (!rv_fetch_slow(rv, pc, &raw)) {
				pc = rv->pc;
				if (unlikely(rv->halted))
					break;
				continue;
			}
		}
		if ((raw & 3u) == 3u) {
			insn = raw;
			ilen = 4;
		} else {
			raw &= 0xffffu;
			off = (raw ^ (raw >> 9)) & (VPUX_RV_CCACHE - 1);
			if (likely(rv->ccache_key[off] == raw)) {
				insn = rv->ccache_insn[off];
			} else {
				insn = rv_expand(raw);
				rv->ccache_key[off] = raw;
				rv->ccache_insn[off] = insn;
			}
			ilen = 2;
		}
		next = pc + ilen;
		tval = 0;

		/* a dense switch on opcode[6:2]: one jump table */
		if (unlikely((insn & 3u) != 3u))
			goto illegal;	/* an illegal compressed one: 0 */
		switch ((insn >> 2) & 31u) {
		case OPC(OP_LUI):
			x[RD(insn)] = IMM_U(insn);
			break;
		case OPC(OP_AUIPC):
			x[RD(insn)] = pc + IMM_U(insn);
			break;
		case OPC(OP_JAL):
			x[RD(insn)] = next;
			next = pc + imm_j(insn);
			break;
		case OPC(OP_JALR):
			if (F3(insn))
				goto illegal;
			a = (x[RS1(insn)] + IMM_I(insn)) & ~1u;
			x[RD(insn)] = next;
			next = a;
			break;
		case OPC(OP_BRANCH):
			a = x[RS1(insn)];
			b = x[RS2(insn)];
			switch (F3(insn)) {
			case 0:
				v = a == b;
				break;
			case 1:
				v = a != b;
				break;
			case 4:
				v = (s32)a < (s32)b;
				break;
			case 5:
				v = (s32)a >= (s32)b;
				break;
			case 6:
				v = a < b;
				break;
			case 7:
				v = a >= b;
				break;
			default:
				goto illegal;
			}
			if (v)
				next = pc + imm_b(insn);
			break;
		case OPC(OP_LOAD):
			a = x[RS1(insn)] + IMM_I(insn);
			off = a - base;
			switch (F3(insn)) {
			case 0:	/* LB */
				if (unlikely(off > lim4 + 3))
					goto load_slow;
				v = (u32)(s32)(s8)ram[off];
				break;
			case 4:	/* LBU */
				if (unlikely(off > lim4 + 3))
					goto load_slow;
				v = ram[off];
				break;
			case 1:	/* LH */
				if (unlikely(off > lim4 + 2 || (a & 1u)))
					goto load_slow;
				v = (u32)(s32)(s16)rd16(ram + off);
				break;
			case 5:	/* LHU */
				if (unlikely(off > lim4 + 2 || (a & 1u)))
					goto load_slow;
				v = rd16(ram + off);
				break;
			case 2:	/* LW */
				if (unlikely(off > lim4 || (a & 3u)))
					goto load_slow;
				v = rd32(ram + off);
				break;
			default:
				goto illegal;
			}
			x[RD(insn)] = v;
			break;
		case OPC(OP_STORE):
			a = x[RS1(insn)] + imm_s(insn);
			v = x[RS2(insn)];
			off = a - base;
			switch (F3(insn)) {
			case 0:	/* SB */
				if (unlikely(off > lim4 + 3 || ro))
					goto store_slow;
				ram[off] = v;
				break;
			case 1:	/* SH */
				if (unlikely(off > lim4 + 2 || (a & 1u) || ro))
					goto store_slow;
				wr16(ram + off, v);
				break;
			case 2:	/* SW */
				if (unlikely(off > lim4 || (a & 3u) || ro))
					goto store_slow;
				wr32(ram + off, v);
				break;
			default:
				goto illegal;
			}
			break;
		case OPC(OP_IMM):
			a = x[RS1(insn)];
			b = IMM_I(insn);
			switch (F3(insn)) {
			case 0:
				v = a + b;
				break;
			case 1:
				if (F7(insn))
					goto illegal;
				v = a << (b & 31u);
				break;
			case 2:
				v = (s32)a < (s32)b;
				break;
			case 3:
				v = a < b;
				break;
			case 4:
				v = a ^ b;
				break;
			case 5:
				if (F7(insn) == 0)
					v = a >> (b & 31u);
				else if (F7(insn) == 0x20u)
					v = (u32)((s32)a >> (b & 31u));
				else
					goto illegal;
				break;
			case 6:
				v = a | b;
				break;
			default:
				v = a & b;
				break;
			}
			x[RD(insn)] = v;
			break;
		case OPC(OP_OP):
			a = x[RS1(insn)];
			b = x[RS2(insn)];
			switch (F7(insn) << 3 | F3(insn)) {
			case 0x000:
				v = a + b;
				break;
			case 0x100:
				v = a - b;
				break;
			case 0x001:
				v = a << (b & 31u);
				break;
			case 0x002:
				v = (s32)a < (s32)b;
				break;
			case 0x003:
				v = a < b;
				break;
			case 0x004:
				v = a ^ b;
				break;
			case 0x005:
				v = a >> (b & 31u);
				break;
			case 0x105:
				v = (u32)((s32)a >> (b & 31u));
				break;
			case 0x006:
				v = a | b;
				break;
			case 0x007:
				v = a & b;
				break;
			case 0x008: case 0x009: case 0x00a: case 0x00b:
			case 0x00c: case 0x00d: case 0x00e: case 0x00f:
				v = rv_muldiv(F3(insn), a, b);
				break;
			default:
				goto illegal;
			}
			x[RD(insn)] = v;
			break;
		case OPC(OP_LOAD_FP):	/* FLW */
			if (!(rv->ext & VPUX_RV_EXT_F) || F3(insn) != 2)
				goto illegal;
			a = x[RS1(insn)] + IMM_I(insn);
			off = a - base;
			if (likely(off <= lim4 && !(a & 3u))) {
				rv->f[RD(insn)] = rd32(ram + off);
				break;
			}
			cause = rv_load_slow(rv, a, 4, &v);
			if (cause)
				goto mem_fault;
			rv->f[RD(insn)] = v;
			break;
		case OPC(OP_STORE_FP):	/* FSW */
			if (!(rv->ext & VPUX_RV_EXT_F) || F3(insn) != 2)
				goto illegal;
			a = x[RS1(insn)] + imm_s(insn);
			v = rv->f[RS2(insn)];
			off = a - base;
			if (likely(off <= lim4 && !(a & 3u) && !ro)) {
				wr32(ram + off, v);
				break;
			}
			cause = rv_store_slow(rv, a, 4, v);
			if (cause)
				goto mem_fault;
			break;
		case OPC(OP_FMADD):
		case OPC(OP_FMSUB):
		case OPC(OP_FNMSUB):
		case OPC(OP_FNMADD):
		case OPC(OP_FP):
			if (!(rv->ext & VPUX_RV_EXT_F) || !vpux_rvf_exec(rv, insn))
				goto illegal;
			break;
		case OPC(OP_AMO):
			if (F3(insn) != 2)
				goto illegal;
			a = x[RS1(insn)];
			cause = rv_amo(rv, insn, a, &v);
			if (cause == VPUX_RV_CAUSE_ILLEGAL_INSN)
				goto illegal;
			if (cause)
				goto mem_fault;
			x[RD(insn)] = v;
			break;
		case OPC(OP_MISC_MEM):
			if (F3(insn) > 1)	/* FENCE, FENCE.I: no-ops */
				goto illegal;
			break;
		case OPC(OP_SYSTEM):
			if (F3(insn)) {
				if (F3(insn) == 4)
					goto illegal;
				/* the counters before this instruction */
				rv->mcycle += steps - 1 - steps_done;
				rv->minstret += retired - retired_done;
				steps_done = steps - 1;
				retired_done = retired;
				if (!rv_csr(rv, insn))
					goto illegal;
				check_irq = true;
				break;
			}
			switch (insn) {
			case 0x00000073u:	/* ECALL */
				cause = VPUX_RV_CAUSE_ECALL_M;
				goto trap;
			case INSN_EBREAK:
				cause = VPUX_RV_CAUSE_BREAKPOINT;
				goto trap;
			case 0x30200073u:	/* MRET */
				v = rv->mstatus;
				rv->mstatus = VPUX_RV_MSTATUS_MPP |
					      VPUX_RV_MSTATUS_MPIE;
				if (v & VPUX_RV_MSTATUS_MPIE)
					rv->mstatus |= VPUX_RV_MSTATUS_MIE;
				next = rv->mepc;
				check_irq = true;
				break;
			case 0x10500073u:	/* WFI */
				if (!(rv->mip & rv->mie)) {
					x[0] = 0;
					retired++;
					rv->pc = next;
					rv->wfi = true;
					goto out;
				}
				break;
			default:
				goto illegal;
			}
			break;
		default:
			goto illegal;
		}
retire:
		x[0] = 0;
		retired++;
		pc = next;
		continue;

load_slow:	/* F3 is a valid load's */
		cause = rv_load_slow(rv, a, 1u << (F3(insn) & 3u), &v);
		if (cause)
			goto mem_fault;
		if (F3(insn) == 0)
			v = (u32)(s32)(s8)v;
		else if (F3(insn) == 1)
			v = (u32)(s32)(s16)v;
		x[RD(insn)] = v;
		goto retire;
store_slow:	/* F3 is a valid store's */
		cause = rv_store_slow(rv, a, 1u << F3(insn), v);
		if (cause)
			goto mem_fault;
		goto retire;
illegal:
		cause = VPUX_RV_CAUSE_ILLEGAL_INSN;
		tval = raw;
		goto trap;
mem_fault:
		tval = a;
trap:
		x[0] = 0;
		rv_trap(rv, cause, tval, pc);
		pc = rv->pc;
		if (unlikely(rv->halted))
			break;
	}
	rv->pc = pc;
out:
	rv->mcycle += steps - steps_done;
	rv->minstret += retired - retired_done;
	return retired;
}
