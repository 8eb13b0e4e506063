// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: the F extension of the SHAVE cores' RV32 interpreter
 * (Documentation/shave-kernels.rst), single precision in integer
 * arithmetic only: this file is built into the kernel module.
 *
 * vpux_float.h rounds to nearest even and raises no flags, which is all
 * the built-in kernels need; RISC-V code can pick any of five rounding
 * modes per instruction and reads the accrued exception flags, so the
 * operations here carry both. In round-to-nearest-even they give the bits
 * of vpux_float.h (sim/tests/sim_rvf_test.c checks that, and checks both
 * against the host's IEEE arithmetic). NaN results are the canonical NaN,
 * as the RISC-V spec requires; tininess is detected after rounding.
 *
 * Internal form of a finite non-zero value: sign, biased exponent e and a
 * 64-bit significand sig with its leading one at bit 62, the value being
 * sig * 2^(e - 127 - 62). 39 bits below the 24 that are kept are enough
 * for every operation here to round correctly (fma included: its exact
 * product has 48 significant bits).
 */

#include "vpux_rv.h"

#define SIGN		0x80000000u
#define QNAN		0x7fc00000u
#define INF		0x7f800000u
#define RBITS		39
#define RMASK		((1ull << RBITS) - 1)
#define HALF		(1ull << (RBITS - 1))

static inline bool is_nan(u32 a)
{
	return (a & 0x7fffffffu) > INF;
}

static inline bool is_snan(u32 a)
{
	return is_nan(a) && !(a & 0x00400000u);
}

static inline bool is_inf(u32 a)
{
	return (a & 0x7fffffffu) == INF;
}

static inline bool is_zero(u32 a)
{
	return !(a & 0x7fffffffu);
}

static inline u32 clz64(u64 v)
{
	u32 hi = (u32)(v >> 32);

	return hi ? (u32)__builtin_clz(hi) : 32u + (u32)__builtin_clz((u32)v);
}

static inline u64 jam64(u64 v, u32 n)
{
	if (!n)
		return v;
	if (n >= 64)
		return v != 0;
	return v >> n | ((v & ((1ull << n) - 1)) != 0);
}

/* the finite non-zero @a as e and sig (leading one at bit 62) */
static inline u64 unpack(u32 a, s32 *e)
{
	u32 ex = a >> 23 & 0xffu, m = a & 0x7fffffu, n;

	if (ex) {
		*e = (s32)ex;
		return (u64)(m | 0x800000u) << RBITS;
	}
	n = (u32)__builtin_clz(m) - 8;	/* subnormal: normalise */
	*e = 1 - (s32)n;
	return (u64)(m << n) << RBITS;
}

/* round increment of the kept part @m for the dropped bits @r */
static inline bool round_inc(u32 sign, u32 rm, u64 r, u32 m)
{
	switch (rm) {
	case VPUX_RV_RM_RNE:
		return r > HALF || (r == HALF && (m & 1u));
	case VPUX_RV_RM_RTZ:
		return false;
	case VPUX_RV_RM_RDN:
		return sign && r;
	case VPUX_RV_RM_RUP:
		return !sign && r;
	default:	/* RMM */
		return r >= HALF;
	}
}

static u32 overflow(u32 sign, u32 rm, u32 *fl)
{
	bool inf;

	*fl |= VPUX_RV_FFLAG_OF | VPUX_RV_FFLAG_NX;
	switch (rm) {
	case VPUX_RV_RM_RTZ:
		inf = false;
		break;
	case VPUX_RV_RM_RDN:
		inf = sign;
		break;
	case VPUX_RV_RM_RUP:
		inf = !sign;
		break;
	default:
		inf = true;
		break;
	}
	return sign << 31 | (inf ? INF : 0x7f7fffffu);
}

/* round @sig * 2^(@e - 189) (leading one at bit 62) and pack */
static u32 round_pack(u32 sign, s32 e, u64 sig, u32 rm, u32 *fl)
{
	bool tiny = false;
	u64 r;
	u32 m;

	if (e < 1) {
		/* tininess after rounding, as if the exponent were unbounded */
		m = (u32)(sig >> RBITS);
		if (e < 0 || !(m == 0xffffffu &&
			       round_inc(sign, rm, sig & RMASK, m)))
			tiny = true;
		sig = jam64(sig, (u32)(1 - e));
		e = 0;
	}
	r = sig & RMASK;
	m = (u32)(sig >> RBITS);
	if (round_inc(sign, rm, r, m))
		m++;
	if (r) {
		*fl |= VPUX_RV_FFLAG_NX;
		if (tiny)
			*fl |= VPUX_RV_FFLAG_UF;
	}
	if (!e)		/* subnormal; 2^23 is the smallest normal */
		return sign << 31 | m;
	if (m >> 24) {
		m >>= 1;
		e++;
	}
	if (e >= 0xff)
		return overflow(sign, rm, fl);
	/* the leading one (bit 23 of m) carries into the exponent field */
	return (sign << 31) + ((u32)(e - 1) << 23) + m;
}

/* normalise any non-zero @sig to bit 62, then round */
static u32 norm_round_pack(u32 sign, s32 e, u64 sig, u32 rm, u32 *fl)
{
	s32 n = (s32)clz64(sig) - 1;

	if (n > 0)
		sig <<= n;
	else if (n < 0)
		sig = jam64(sig, 1);
	return round_pack(sign, e - n, sig, rm, fl);
}

/* NaN result of an operation with the inputs @a, @b (NV for sNaN) */
static u32 nan2(u32 a, u32 b, u32 *fl)
{
	if (is_snan(a) || is_snan(b))
		*fl |= VPUX_RV_FFLAG_NV;
	return QNAN;
}

static u32 invalid(u32 *fl)
{
	*fl |= VPUX_RV_FFLAG_NV;
	return QNAN;
}

/*
 * (-1)^sa siga 2^ea + (-1)^sb sigb 2^eb, both finite, internal form
 * (sig 0 for a zero, then its e is ignored), rounded once.
 */
static u32 add_core(u32 sa, s32 ea, u64 siga, u32 sb, s32 eb, u64 sigb,
		    u32 rm, u32 *fl)
{
	u64 sig;

	if (!siga && !sigb)	/* exact zero sum of zeros */
		return sa == sb ? sa << 31 :
		       (rm == VPUX_RV_RM_RDN ? SIGN : 0);
	if (!siga)
		return norm_round_pack(sb, eb, sigb, rm, fl);
	if (!sigb)
		return norm_round_pack(sa, ea, siga, rm, fl);
	if (ea < eb || (ea == eb && siga < sigb)) {
		u32 ts = sa;
		s32 te = ea;
		u64 tg = siga;

		sa = sb;
		ea = eb;
		siga = sigb;
		sb = ts;
		eb = te;
		sigb = tg;
	}
	sigb = jam64(sigb, (u32)(ea - eb) > 63 ? 64 : (u32)(ea - eb));
	if (sa == sb) {
		sig = siga + sigb;	/* < 2^64: both < 2^63 */
	} else {
		sig = siga - sigb;
		if (!sig)	/* exact cancellation */
			return rm == VPUX_RV_RM_RDN ? SIGN : 0;
	}
	return norm_round_pack(sa, ea, sig, rm, fl);
}

u32 vpux_rvf_add(u32 a, u32 b, u32 rm, u32 *fl)
{
	s32 ea = 0, eb = 0;
	u64 siga, sigb;

	if (is_nan(a) || is_nan(b))
		return nan2(a, b, fl);
	if (is_inf(a) || is_inf(b)) {
		if (is_inf(a) && is_inf(b) && (a ^ b) >> 31)
			return invalid(fl);
		return is_inf(a) ? a : b;
	}
	siga = is_zero(a) ? 0 : unpack(a, &ea);
	sigb = is_zero(b) ? 0 : unpack(b, &eb);
	return add_core(a >> 31, ea, siga, b >> 31, eb, sigb, rm, fl);
}

u32 vpux_rvf_sub(u32 a, u32 b, u32 rm, u32 *fl)
{
	if (is_nan(b))
		return nan2(a, b, fl);
	return vpux_rvf_add(a, b ^ SIGN, rm, fl);
}

/* exact product of finite non-zero @a, @b: sig has <= 48 bits at 62 */
static u64 mul_exact(u32 a, u32 b, s32 *e)
{
	s32 ea, eb;
	u64 p = (unpack(a, &ea) >> RBITS) * (unpack(b, &eb) >> RBITS);

	/* p in [2^46, 2^48): p << 15 has its leading one at 61 or 62 */
	p <<= 15;
	*e = ea + eb - 126;
	if (!(p >> 62)) {
		p <<= 1;
		(*e)--;
	}
	return p;
}

u32 vpux_rvf_mul(u32 a, u32 b, u32 rm, u32 *fl)
{
	u32 sign = (a ^ b) >> 31;
	s32 e;
	u64 sig;

	if (is_nan(a) || is_nan(b))
		return nan2(a, b, fl);
	if (is_inf(a) || is_inf(b)) {
		if (is_zero(a) || is_zero(b))
			return invalid(fl);
		return sign << 31 | INF;
	}
	if (is_zero(a) || is_zero(b))
		return sign << 31;
	sig = mul_exact(a, b, &e);
	return round_pack(sign, e, sig, rm, fl);
}

/* fused a * b + c, one rounding */
u32 vpux_rvf_fma(u32 a, u32 b, u32 c, u32 rm, u32 *fl)
{
	u32 sp = (a ^ b) >> 31;
	s32 ep = 0, ec = 0;
	u64 sigp = 0, sigc;

	/* inf * 0 is invalid even when c is a quiet NaN */
	if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) {
		*fl |= VPUX_RV_FFLAG_NV;
		return QNAN;
	}
	if (is_nan(a) || is_nan(b) || is_nan(c)) {
		if (is_snan(a) || is_snan(b) || is_snan(c))
			*fl |= VPUX_RV_FFLAG_NV;
		return QNAN;
	}
	if (is_inf(a) || is_inf(b)) {
		if (is_inf(c) && (c >> 31) != sp)
			return invalid(fl);
		return sp << 31 | INF;
	}
	if (is_inf(c))
		return c;
	if (!is_zero(a) && !is_zero(b))
		sigp = mul_exact(a, b, &ep);
	sigc = is_zero(c) ? 0 : unpack(c, &ec);
	return add_core(sp, ep, sigp, c >> 31, ec, sigc, rm, fl);
}

u32 vpux_rvf_div(u32 a, u32 b, u32 rm, u32 *fl)
{
	u32 sign = (a ^ b) >> 31, ma, mb, q = 0, i;
	s32 ea, eb;

	if (is_nan(a) || is_nan(b))
		return nan2(a, b, fl);
	if (is_inf(a)) {
		if (is_inf(b))
			return invalid(fl);
		return sign << 31 | INF;
	}
	if (is_inf(b))
		return sign << 31;
	if (is_zero(b)) {
		if (is_zero(a))
			return invalid(fl);
		*fl |= VPUX_RV_FFLAG_DZ;
		return sign << 31 | INF;
	}
	if (is_zero(a))
		return sign << 31;
	ma = (u32)(unpack(a, &ea) >> RBITS);
	mb = (u32)(unpack(b, &eb) >> RBITS);
	ea = ea - eb + 127;
	if (ma < mb) {
		ma <<= 1;
		ea--;
	}
	/* restoring division, 26 quotient bits: ma / mb in [1, 2) */
	for (i = 0; i < 26; i++) {
		q <<= 1;
		if (ma >= mb) {
			ma -= mb;
			q |= 1;
		}
		ma <<= 1;
	}
	return round_pack(sign, ea, (u64)q << 37 | (ma != 0), rm, fl);
}

u32 vpux_rvf_sqrt(u32 a, u32 rm, u32 *fl)
{
	u64 m, rem = 0, root = 0, test;
	s32 e, t;
	u32 i, n;

	if (is_nan(a))
		return nan2(a, a, fl);
	if (is_zero(a))
		return a;
	if (a >> 31)
		return invalid(fl);
	if (is_inf(a))
		return a;
	m = unpack(a, &e) >> RBITS;	/* a = m 2^(e - 150) */
	e -= 127;
	if (!(e & 1)) {			/* make e - 23 - 28 even */
		m <<= 1;
		e--;
	}
	t = e - 51;
	m <<= 28;			/* m in [2^51, 2^53) */
	/* digit-by-digit square root: root = floor(sqrt(m)), 27 bits */
	for (i = 0; i < 32; i++) {
		rem = rem << 2 | m >> 62;
		m <<= 2;
		root <<= 1;
		test = root << 1 | 1;
		if (rem >= test) {
			rem -= test;
			root |= 1;
		}
	}
	/* sqrt(a) = root 2^(t / 2) (+ a sticky part) */
	n = clz64(root) - 1;
	return round_pack(0, (t >> 1) + 127 + 62 - (s32)n,
			  root << n | (rem != 0), rm, fl);
}

u32 vpux_rvf_from_int(u32 v, bool is_signed, u32 rm, u32 *fl)
{
	u32 sign = is_signed && (s32)v < 0;
	u32 mag = sign ? 0u - v : v, n;

	if (!mag)
		return 0;
	n = (u32)__builtin_clz(mag);
	/* mag = sig 2^-(n + 31) with sig's leading one at bit 62 */
	return round_pack(sign, 158 - (s32)n, (u64)mag << (n + 31), rm, fl);
}

u32 vpux_rvf_to_int(u32 a, bool is_signed, u32 rm, u32 *fl)
{
	u32 sign = a >> 31, m, sh, ip, rest = 0, half;
	s32 e;
	u64 mag;

	if (is_nan(a)) {
		*fl |= VPUX_RV_FFLAG_NV;
		return is_signed ? 0x7fffffffu : ~0u;
	}
	if (is_zero(a))
		return 0;
	if (is_inf(a) || (a >> 23 & 0xffu) >= 127 + 32) {
		mag = ~0ull;	/* beyond any 32-bit integer */
		goto range;
	}
	m = (u32)(unpack(a, &e) >> RBITS);	/* a = m 2^(e - 150) */
	if (e >= 150) {
		mag = (u64)m << (e - 150);
		goto range;
	}
	sh = (u32)(150 - e);
	if (sh > 40) {		/* below 2^-16: all of it is dropped */
		ip = 0;
		rest = 1;
		half = 1u << 30;
	} else if (sh > 31) {
		ip = 0;
		rest = m;	/* m < 2^24 < half */
		half = 1u << 30;
	} else {
		ip = m >> sh;
		rest = m & ((1u << sh) - 1);
		half = 1u << (sh - 1);
	}
	switch (rm) {
	case VPUX_RV_RM_RNE:
		ip += rest > half || (rest == half && (ip & 1u));
		break;
	case VPUX_RV_RM_RDN:
		ip += sign && rest;
		break;
	case VPUX_RV_RM_RUP:
		ip += !sign && rest;
		break;
	case VPUX_RV_RM_RMM:
		ip += rest >= half;
		break;
	default:
		break;
	}
	mag = ip;
range:
	/* out of range: invalid only; else inexact if anything was dropped */
	if (is_signed) {
		if (sign ? mag > 0x80000000ull : mag > 0x7fffffffull) {
			*fl |= VPUX_RV_FFLAG_NV;
			return sign ? 0x80000000u : 0x7fffffffu;
		}
		if (rest)
			*fl |= VPUX_RV_FFLAG_NX;
		return sign ? 0u - (u32)mag : (u32)mag;
	}
	if ((sign && mag) || mag > 0xffffffffull) {
		*fl |= VPUX_RV_FFLAG_NV;
		return sign ? 0 : ~0u;
	}
	if (rest)
		*fl |= VPUX_RV_FFLAG_NX;
	return (u32)mag;
}

/* total order key of a non-NaN value: -0 below +0 */
static inline u32 key(u32 a)
{
	return a >> 31 ? ~a : a | SIGN;
}

/* IEEE 754-2019 minimumNumber / maximumNumber, as RISC-V F 2.2 */
u32 vpux_rvf_minmax(u32 a, u32 b, bool max, u32 *fl)
{
	if (is_snan(a) || is_snan(b))
		*fl |= VPUX_RV_FFLAG_NV;
	if (is_nan(a) && is_nan(b))
		return QNAN;
	if (is_nan(a))
		return b;
	if (is_nan(b))
		return a;
	if (max)
		return key(a) >= key(b) ? a : b;
	return key(a) <= key(b) ? a : b;
}

/* FEQ (quiet), FLT and FLE (signaling): 1 or 0 */
u32 vpux_rvf_cmp(u32 a, u32 b, u32 f3, u32 *fl)
{
	if (is_nan(a) || is_nan(b)) {
		if (f3 != 2 || is_snan(a) || is_snan(b))
			*fl |= VPUX_RV_FFLAG_NV;
		return 0;
	}
	if (is_zero(a) && is_zero(b))
		return f3 != 1;		/* equal: FEQ, FLE */
	switch (f3) {
	case 2:
		return a == b;
	case 1:
		return key(a) < key(b);
	default:
		return key(a) <= key(b);
	}
}

u32 vpux_rvf_class(u32 a)
{
	u32 ex = a >> 23 & 0xffu, m = a & 0x7fffffu, neg = a >> 31;

	if (ex == 0xff) {
		if (!m)
			return neg ? 1u << 0 : 1u << 7;
		return m & 0x400000u ? 1u << 9 : 1u << 8;
	}
	if (!ex)
		return m ? (neg ? 1u << 2 : 1u << 5) : (neg ? 1u << 3 : 1u << 4);
	return neg ? 1u << 1 : 1u << 6;
}

/*
 * Execute an OP-FP or FMADD-family instruction on @rv; false for an
 * illegal one (reserved rounding mode, unknown function).
 */
bool vpux_rvf_exec(struct vpux_rv *rv, u32 insn)
{
	u32 rd = insn >> 7 & 31u, rs1 = insn >> 15 & 31u, rs2 = insn >> 20 & 31u;
	u32 f3 = insn >> 12 & 7u, f7 = insn >> 25, rm = f3, fl = 0;
	u32 a = rv->f[rs1], b = rv->f[rs2], v;
	u32 op = insn & 0x7fu;

	if (rm == 7)
		rm = rv->fcsr >> 5 & 7u;
	if (op != 0x53u) {	/* FMADD, FMSUB, FNMSUB, FNMADD */
		u32 c = rv->f[insn >> 27];

		if ((f7 & 3u) || rm > VPUX_RV_RM_RMM)
			return false;
		if (op == 0x47u || op == 0x4fu)		/* -c */
			c = is_nan(c) ? c : c ^ SIGN;
		if (op == 0x4bu || op == 0x4fu)		/* -(a b) */
			a = is_nan(a) ? a : a ^ SIGN;
		rv->f[rd] = vpux_rvf_fma(a, b, c, rm, &fl);
		goto done;
	}
	switch (f7) {
	case 0x00:	/* FADD.S */
	case 0x04:	/* FSUB.S */
	case 0x08:	/* FMUL.S */
	case 0x0c:	/* FDIV.S */
		if (rm > VPUX_RV_RM_RMM)
			return false;
		v = f7 == 0x00 ? vpux_rvf_add(a, b, rm, &fl) :
		    f7 == 0x04 ? vpux_rvf_sub(a, b, rm, &fl) :
		    f7 == 0x08 ? vpux_rvf_mul(a, b, rm, &fl) :
				 vpux_rvf_div(a, b, rm, &fl);
		rv->f[rd] = v;
		break;
	case 0x2c:	/* FSQRT.S */
		if (rs2 || rm > VPUX_RV_RM_RMM)
			return false;
		rv->f[rd] = vpux_rvf_sqrt(a, rm, &fl);
		break;
	case 0x10:	/* FSGNJ.S, FSGNJN.S, FSGNJX.S */
		if (f3 > 2)
			return false;
		v = f3 == 0 ? b : f3 == 1 ? ~b : a ^ b;
		rv->f[rd] = (a & ~SIGN) | (v & SIGN);
		break;
	case 0x14:	/* FMIN.S, FMAX.S */
		if (f3 > 1)
			return false;
		rv->f[rd] = vpux_rvf_minmax(a, b, f3, &fl);
		break;
	case 0x50:	/* FLE.S, FLT.S, FEQ.S */
		if (f3 > 2)
			return false;
		rv->x[rd] = vpux_rvf_cmp(a, b, f3, &fl);
		break;
	case 0x60:	/* FCVT.W.S, FCVT.WU.S */
		if (rs2 > 1 || rm > VPUX_RV_RM_RMM)
			return false;
		rv->x[rd] = vpux_rvf_to_int(a, !rs2, rm, &fl);
		break;
	case 0x68:	/* FCVT.S.W, FCVT.S.WU */
		if (rs2 > 1 || rm > VPUX_RV_RM_RMM)
			return false;
		rv->f[rd] = vpux_rvf_from_int(rv->x[rs1], !rs2, rm, &fl);
		break;
	case 0x70:	/* FMV.X.W, FCLASS.S */
		if (rs2 || f3 > 1)
			return false;
		rv->x[rd] = f3 ? vpux_rvf_class(a) : a;
		break;
	case 0x78:	/* FMV.W.X */
		if (rs2 || f3)
			return false;
		rv->f[rd] = rv->x[rs1];
		break;
	default:
		return false;
	}
done:
	rv->fcsr |= fl;
	return true;
}
