// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SHAVE cores that execute code (Documentation/shave-kernels.rst): the SDK
 * kernels bit-equal to the built-in ones on random inputs, each trap cause
 * with its exact report, hostile kernels, the F instructions as the
 * interpreter decodes them, and an ELF op through the engine.
 */
#include "vpux_tap.h"
#include "sim_test.h"
#include "sim_shave_elf.h"

static struct t_dev t;
static uint32_t shave0;

/* ---- instruction encoders ---- */
#define I(op, f3, rd, rs1, imm) \
	(((u32)(imm) & 0xfffu) << 20 | (u32)(rs1) << 15 | (u32)(f3) << 12 | (u32)(rd) << 7 | (u32)(op))
#define R(op, f3, f7, rd, rs1, rs2) \
	((u32)(f7) << 25 | (u32)(rs2) << 20 | (u32)(rs1) << 15 | (u32)(f3) << 12 | (u32)(rd) << 7 | (u32)(op))
static __attribute__((unused)) u32 I_fn(u32 op, u32 f3, u32 rd, u32 rs1, s32 imm)
{
	return ((u32)imm & 0xfffu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static u32 S(u32 op, u32 f3, u32 rs1, u32 rs2, s32 imm)
{
	u32 i = (u32)imm;

	return (i >> 5 & 0x7fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (i & 31u) << 7 | op;
}

static u32 U(u32 op, u32 rd, u32 imm20)
{
	return imm20 << 12 | rd << 7 | op;
}

static u32 J(u32 rd, s32 off)
{
	u32 i = (u32)off;

	return (i >> 20 & 1u) << 31 | (i >> 1 & 0x3ffu) << 21 |
	       (i >> 11 & 1u) << 20 | (i >> 12 & 0xffu) << 12 | rd << 7 | 0x6fu;
}

static __attribute__((unused)) u32 R_fn(u32 op, u32 f3, u32 f7, u32 rd, u32 rs1, u32 rs2)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

#define ADDI(rd, rs, imm)	I(0x13, 0, rd, rs, imm)
#define LW(rd, rs, imm)		I(0x03, 2, rd, rs, imm)
#define SW(rs1, rs2, imm)	S(0x23, 2, rs1, rs2, imm)
#define FLW(rd, rs, imm)	I(0x07, 2, rd, rs, imm)
#define FSW(rs1, rs2, imm)	S(0x27, 2, rs1, rs2, imm)
#define LUI(rd, imm20)		U(0x37, rd, imm20)
#define AUIPC(rd, imm20)	U(0x17, rd, imm20)
#define JALR(rd, rs, imm)	I(0x67, 0, rd, rs, imm)
#define ECALL			0x00000073u
#define EBREAK			0x00100073u
#define RET			JALR(0, 1, 0)
#define CSRRS(rd, csr, rs)	I(0x73, 2, rd, rs, csr)
#define CSRRWI(rd, csr, z)	I(0x73, 5, rd, z, csr)

struct run {
	bool trapped;
	u32 cause, pc, tval;
	struct vpux_shave_core *c;
};

static uint8_t winf[4096];

/* run @n instructions of code with a 4 KiB WIN_F and 1 KiB stack */
static struct run run_code(const u32 *code, u32 n, const void *args,
			   u32 args_size, u64 budget)
{
	struct run r;

	r.c = she_run((const uint8_t *)code, n * 4, args, args_size, winf,
		      sizeof(winf), 1024, budget);
	r.trapped = r.c->trapped;
	r.cause = r.c->cause;
	r.pc = r.c->pc;
	r.tval = r.c->tval;
	return r;
}

#define D(i)	(VPUX_SHAVE_WIN_D + 4u * (i))

static void expect_trap(const char *what, const u32 *code, u32 n, u32 cause,
			u32 pc, u32 tval, u64 budget)
{
	u32 args[4] = { 1, 2, 3, 4 };
	struct run r = run_code(code, n, args, sizeof(args), budget);

	tap_check(r.trapped && r.cause == cause && r.pc == pc && r.tval == tval,
		  "%s: trap %u (%s) at pc %#x tval %#x (got %d %u %#x %#x)",
		  what, cause, vpux_shave_trap_name(cause), pc, tval,
		  r.trapped, r.cause, r.pc, r.tval);
	she_free(r.c);
}

static void test_traps(void)
{
	u32 ok_exit[] = { ADDI(10, 0, 0), ADDI(17, 0, 93), ECALL };
	u32 ok_ret[] = { ADDI(10, 0, 0), RET };
	u32 status[] = { ADDI(10, 0, 7), RET };
	u32 illegal[] = { ADDI(0, 0, 0), 0x0000007fu };
	u32 load_out[] = { LUI(10, 0x10000), LW(11, 10, 0) };
	u32 args_past[] = { LW(11, 10, 16) };
	u32 write_d[] = { AUIPC(10, 0), SW(10, 0, 0) };
	u32 loop[] = { J(0, 0) };
	u32 recurse[] = { ADDI(2, 2, -16), SW(2, 1, 12), J(1, -8) };
	u32 jump_data[] = { LUI(10, 0xf0000), JALR(0, 10, 0) };
	u32 misaligned[] = { LUI(10, 0xf0000), LW(11, 10, 2) };
	u32 misstore[] = { LUI(10, 0xf0000), SW(10, 0, 6) };
	u32 ecall[] = { ADDI(17, 0, 64), ECALL };
	u32 ebreak[] = { EBREAK };
	u32 frm_bad[] = { CSRRWI(0, 2, 5), R(0x53, 7, 0, 1, 1, 1) };
	u32 off_end[] = { ADDI(0, 0, 0) };
	struct run r;

	r = run_code(ok_exit, 3, NULL, 0, 100);
	tap_check(!r.trapped && r.c->done, "ECALL a7=93 a0=0 ends the kernel successfully");
	she_free(r.c);
	r = run_code(ok_ret, 2, NULL, 0, 100);
	tap_check(!r.trapped && r.c->done && r.c->executed == 2,
		  "returning to ra ends the kernel successfully (2 instructions)");
	she_free(r.c);
	expect_trap("non-zero status", status, 2, VPUX_SHAVE_TRAP_STATUS,
		    VPUX_SHAVE_EXIT_PC, 7, 100);
	expect_trap("illegal instruction", illegal, 2, VPUX_SHAVE_TRAP_ILLEGAL,
		    D(1), 0x7f, 100);
	expect_trap("read outside the windows", load_out, 2,
		    VPUX_SHAVE_TRAP_LOAD, D(1), 0x10000000u, 100);
	expect_trap("read past the arguments", args_past, 1,
		    VPUX_SHAVE_TRAP_LOAD, D(0), VPUX_SHAVE_WIN_E + 16, 100);
	expect_trap("write WIN_D", write_d, 2, VPUX_SHAVE_TRAP_WRITE_CODE,
		    D(1), D(0), 100);
	expect_trap("endless loop", loop, 1, VPUX_SHAVE_TRAP_BUDGET, D(0), 0,
		    5000);
	expect_trap("stack overflow", recurse, 3,
		    VPUX_SHAVE_TRAP_STACK_OVERFLOW, D(1),
		    VPUX_SHAVE_STACK_TOP - 1024 - 4, 100000);
	expect_trap("jump into data", jump_data, 2, VPUX_SHAVE_TRAP_FETCH,
		    VPUX_SHAVE_WIN_F, VPUX_SHAVE_WIN_F, 100);
	expect_trap("misaligned load", misaligned, 2,
		    VPUX_SHAVE_TRAP_MISALIGNED_LOAD, D(1),
		    VPUX_SHAVE_WIN_F + 2, 100);
	expect_trap("misaligned store", misstore, 2,
		    VPUX_SHAVE_TRAP_MISALIGNED_STORE, D(1),
		    VPUX_SHAVE_WIN_F + 6, 100);
	expect_trap("unknown ecall", ecall, 2, VPUX_SHAVE_TRAP_ECALL, D(1), 64,
		    100);
	expect_trap("ebreak", ebreak, 1, VPUX_SHAVE_TRAP_BREAKPOINT, D(0), 0,
		    100);
	expect_trap("dynamic rounding with frm 5", frm_bad, 2,
		    VPUX_SHAVE_TRAP_ILLEGAL, D(1), R(0x53, 7, 0, 1, 1, 1), 100);
	expect_trap("running off the end of WIN_D", off_end, 1,
		    VPUX_SHAVE_TRAP_FETCH, D(1), D(1), 100);
}

/*
 * Each F instruction as decoded: f1..f3 and x5 from the arguments, the
 * instruction, then f4 / x6 and fflags stored in WIN_F.
 */
static void test_f_decode(void)
{
	static const struct { const char *name; u32 insn; int kind; } ops[] = {
		/* kind: 0 f4 = op(f1,f2), 1 fma f1 f2 f3, 2 x6 = ... */
		{ "fadd.s", R(0x53, 0, 0x00, 4, 1, 2), 0 },
		{ "fsub.s", R(0x53, 0, 0x04, 4, 1, 2), 0 },
		{ "fmul.s", R(0x53, 0, 0x08, 4, 1, 2), 0 },
		{ "fdiv.s", R(0x53, 0, 0x0c, 4, 1, 2), 0 },
		{ "fsqrt.s", R(0x53, 0, 0x2c, 4, 1, 0), 0 },
		{ "fmin.s", R(0x53, 0, 0x14, 4, 1, 2), 0 },
		{ "fmax.s", R(0x53, 1, 0x14, 4, 1, 2), 0 },
		{ "fsgnjx.s", R(0x53, 2, 0x10, 4, 1, 2), 0 },
		{ "fmadd.s", 3u << 27 | R(0x43, 0, 0, 4, 1, 2), 1 },
		{ "fmsub.s", 3u << 27 | R(0x47, 0, 0, 4, 1, 2), 1 },
		{ "fnmsub.s", 3u << 27 | R(0x4b, 0, 0, 4, 1, 2), 1 },
		{ "fnmadd.s", 3u << 27 | R(0x4f, 0, 0, 4, 1, 2), 1 },
		{ "fcvt.w.s", R(0x53, 0, 0x60, 6, 1, 0), 2 },
		{ "fcvt.wu.s", R(0x53, 0, 0x60, 6, 1, 1), 2 },
		{ "fcvt.s.w", R(0x53, 0, 0x68, 4, 5, 0), 3 },
		{ "flt.s", R(0x53, 1, 0x50, 6, 1, 2), 2 },
		{ "fclass.s", R(0x53, 1, 0x70, 6, 1, 0), 2 },
	};
	u32 i, k, bad;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		bad = 0;
		for (k = 0; k < 2000; k++) {
			u32 rm = k % 5, insn = (ops[i].insn & ~(7u << 12)) |
				 (ops[i].kind != 2 || i == 12 || i == 13 ?
				  rm << 12 : (ops[i].insn & (7u << 12)));
			u32 code[] = {
				FLW(1, 10, 0), FLW(2, 10, 4), FLW(3, 10, 8),
				LW(5, 10, 12), insn, LUI(7, 0xf0000),
				FSW(7, 4, 0), SW(7, 6, 4), CSRRS(8, 1, 0),
				SW(7, 8, 8), ADDI(10, 0, 0), RET,
			};
			u32 a[4], want, wf = 0, got, gf;
			struct run r;

			if (i >= 5 && i <= 7)	/* rm field is the function */
				insn = ops[i].insn, rm = 0;
			code[4] = insn;
			a[0] = t_rand();
			a[1] = k & 1 ? (a[0] & 0xff800000u) | (t_rand() >> 9) :
				       t_rand();
			a[2] = t_rand();
			a[3] = t_rand();
			if (k % 7 == 0)
				a[0] = 0x7f800001u;	/* sNaN */
			switch (i) {
			case 0: want = vpux_rvf_add(a[0], a[1], rm, &wf); break;
			case 1: want = vpux_rvf_sub(a[0], a[1], rm, &wf); break;
			case 2: want = vpux_rvf_mul(a[0], a[1], rm, &wf); break;
			case 3: want = vpux_rvf_div(a[0], a[1], rm, &wf); break;
			case 4: want = vpux_rvf_sqrt(a[0], rm, &wf); break;
			case 5: want = vpux_rvf_minmax(a[0], a[1], false, &wf); break;
			case 6: want = vpux_rvf_minmax(a[0], a[1], true, &wf); break;
			case 7: want = a[0] ^ (a[1] & 0x80000000u); break;
			case 8: want = vpux_rvf_fma(a[0], a[1], a[2], rm, &wf); break;
			case 9: want = vpux_rvf_fma(a[0], a[1], a[2] ^ 0x80000000u, rm, &wf); break;
			case 10: want = vpux_rvf_fma(a[0] ^ 0x80000000u, a[1], a[2], rm, &wf); break;
			case 11: want = vpux_rvf_fma(a[0] ^ 0x80000000u, a[1], a[2] ^ 0x80000000u, rm, &wf); break;
			case 12: want = vpux_rvf_to_int(a[0], true, rm, &wf); break;
			case 13: want = vpux_rvf_to_int(a[0], false, rm, &wf); break;
			case 14: want = vpux_rvf_from_int(a[3], true, rm, &wf); break;
			case 15: want = vpux_rvf_cmp(a[0], a[1], 1, &wf); break;
			default: want = vpux_rvf_class(a[0]); break;
			}
			memset(winf, 0, 12);
			r = run_code(code, 12, a, sizeof(a), 100);
			got = ops[i].kind == 2 ? (u32)(winf[4] | winf[5] << 8 |
				winf[6] << 16 | (u32)winf[7] << 24) :
			      (u32)(winf[0] | winf[1] << 8 | winf[2] << 16 |
				    (u32)winf[3] << 24);
			gf = winf[8];
			if (r.trapped || got != want || gf != wf) {
				if (!bad)
					tap_diag("%s %08x %08x %08x rm %u: got %08x/%x want %08x/%x trap %d",
						 ops[i].name, a[0], a[1], a[2], rm,
						 got, gf, want, wf, r.trapped);
				bad++;
			}
			she_free(r.c);
		}
		tap_check(!bad, "%s through the interpreter equals the soft-float definition with flags (%u bad)",
			  ops[i].name, bad);
	}
}

/* ---- SDK kernels against the built-in ones ---- */
static uint8_t *k_softmax, *k_binary;
static u32 k_softmax_size, k_binary_size;

static void memref(struct vpux_memref *m, u32 off, u32 dt, u32 rank,
		   const u32 *dims)
{
	u64 order = 0;
	u32 i;

	for (i = 0; i < rank; i++)
		order = order << 4 | (i + 1);
	vpux_memref_compact(m, VPUX_SHAVE_WIN_F + off, dt, rank, dims, order);
}

static u32 rand_f32(void)
{
	u32 r = t_rand();

	switch (t_rand() % 16) {
	case 0:
		return 0x7fc00000u;
	case 1:
		return r & 0x807fffffu;		/* subnormal */
	case 2:
		return 0x7f800000u | (r & 0x80000000u);
	default:	/* mostly moderate values: softmax has work to do */
		return (r & 0x807fffffu) | (u32)(120 + t_rand() % 14) << 23;
	}
}

static void fill(uint8_t *p, u32 n, u32 dt)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u32 v = rand_f32();

		if (dt == VPUX_SHAVE_DT_F16) {
			u16 h = vpux_f32_to_f16(v);

			memcpy(p + 2 * i, &h, 2);
		} else {
			memcpy(p + 4 * i, &v, 4);
		}
	}
}

static uint8_t big_a[1 << 20], big_b[1 << 20];

static void test_softmax(void)
{
	u32 round, ok = 0, n_round = 40;

	for (round = 0; round < n_round; round++) {
		struct vpux_shave_fsoftmax_args a;
		u32 rank = 1 + t_rand() % 3, dims[3], n = 1, d, dti, dto;
		u32 in_bytes, out_off;
		struct vpux_shave_core *c;
		int ret;

		for (d = 0; d < rank; d++) {
			dims[d] = 1 + t_rand() % (d == rank - 1 ? 40 : 6);
			n *= dims[d];
		}
		dti = t_rand() & 1 ? VPUX_SHAVE_DT_F16 : VPUX_SHAVE_DT_F32;
		dto = t_rand() & 1 ? VPUX_SHAVE_DT_F16 : VPUX_SHAVE_DT_F32;
		in_bytes = n * vpux_shave_dt_bits(dti) / 8;
		out_off = (in_bytes + 15) & ~15u;
		memset(&a, 0, sizeof(a));
		memref(&a.in, 0, dti, rank, dims);
		memref(&a.out, out_off, dto, rank, dims);
		a.axis = t_rand() % rank;
		fill(big_a, n, dti);
		memcpy(big_b, big_a, in_bytes);
		c = she_run(k_softmax, k_softmax_size, &a, sizeof(a), big_a,
			    sizeof(big_a), 4096, 1ull << 32);
		ret = she_builtin(VPUX_SHAVE_KERNEL_SOFTMAX_F, &a, sizeof(a),
				  big_b, sizeof(big_b));
		if (!c->trapped && !ret &&
		    !memcmp(big_a + out_off, big_b + out_off,
			    n * vpux_shave_dt_bits(dto) / 8))
			ok++;
		else if (ok == round)
			tap_diag("softmax round %u: trap %d cause %u pc %#x, builtin %d",
				 round, c->trapped, c->cause, c->pc, ret);
		she_free(c);
	}
	tap_check(ok == n_round, "softmax_f ELF kernel bit-equal to the built-in SOFTMAX_F (%u/%u, F16/F32, random axes)",
		  ok, n_round);
}

static void test_binary(void)
{
	u32 round, ok = 0, n_round = 60;

	for (round = 0; round < n_round; round++) {
		struct vpux_shave_binary_args a;
		u32 dims[3] = { 1 + t_rand() % 4, 1 + t_rand() % 5,
				1 + t_rand() % 9 };
		u32 d2[3], n = dims[0] * dims[1] * dims[2], n2 = 1, d;
		u32 dt1 = t_rand() & 1 ? VPUX_SHAVE_DT_F16 : VPUX_SHAVE_DT_F32;
		u32 dt2 = t_rand() & 1 ? VPUX_SHAVE_DT_F16 : VPUX_SHAVE_DT_F32;
		u32 dto = t_rand() & 1 ? VPUX_SHAVE_DT_F16 : VPUX_SHAVE_DT_F32;
		u32 r2 = 1 + t_rand() % 3, o2 = 8192, oo = 16384;
		struct vpux_shave_core *c;
		int ret;

		for (d = 0; d < r2; d++) {
			d2[d] = t_rand() & 1 ? 1 : dims[3 - r2 + d];
			n2 *= d2[d];
		}
		memset(&a, 0, sizeof(a));
		memref(&a.in, 0, dt1, 3, dims);
		memref(&a.in2, o2, dt2, r2, d2);
		memref(&a.out, oo, dto, 3, dims);
		do
			a.func = t_rand() % VPUX_SHAVE_BIN_COUNT;
		while (a.func == VPUX_SHAVE_BIN_POW);
		fill(big_a, n, dt1);
		fill(big_a + o2, n2, dt2);
		memcpy(big_b, big_a, oo);
		c = she_run(k_binary, k_binary_size, &a, sizeof(a), big_a,
			    32768, 4096, 1ull << 32);
		ret = she_builtin(VPUX_SHAVE_KERNEL_BINARY, &a, sizeof(a),
				  big_b, 32768);
		if (!c->trapped && !ret &&
		    !memcmp(big_a + oo, big_b + oo,
			    n * vpux_shave_dt_bits(dto) / 8))
			ok++;
		else if (ok == round)
			tap_diag("binary round %u func %u: trap %d cause %u pc %#x tval %#x, builtin %d",
				 round, a.func, c->trapped, c->cause, c->pc,
				 c->tval, ret);
		she_free(c);
	}
	tap_check(ok == n_round, "binary_f ELF kernel bit-equal to the built-in BINARY (%u/%u, broadcasting, mixed F16/F32)",
		  ok, n_round);
}

/* ---- through the engine ---- */
static void test_engine(void)
{
	struct vpux_shave_fsoftmax_args a;
	struct vpux_hw_shave_task d;
	struct t_buf code, args, io, loop;
	u32 dims[2] = { 8, 33 }, n = 8 * 33, st, out_off = 2048;
	u32 endless = J(0, 0);

	t_buf_alloc(&t, &code, k_softmax_size, false);
	memcpy(code.ptr, k_softmax, k_softmax_size);
	t_buf_alloc(&t, &args, sizeof(a), false);
	t_buf_alloc(&t, &io, 4096, true);
	t_buf_alloc(&t, &loop, 4, false);
	memcpy(loop.ptr, &endless, 4);
	memset(&a, 0, sizeof(a));
	memref(&a.in, 0, VPUX_SHAVE_DT_F32, 2, dims);
	memref(&a.out, out_off, VPUX_SHAVE_DT_F32, 2, dims);
	a.axis = 1;
	memcpy(args.ptr, &a, sizeof(a));
	fill(io.ptr, n, VPUX_SHAVE_DT_F32);
	memcpy(big_b, io.ptr, 4096);
	she_builtin(VPUX_SHAVE_KERNEL_SOFTMAX_F, &a, sizeof(a), big_b, 4096);

	memset(&d, 0, sizeof(d));
	d.kernel_id = VPUX_SHAVE_KERNEL_ELF;
	d.code = code.va;
	d.code_size = k_softmax_size;
	d.args = args.va;
	d.args_size = sizeof(a);
	d.stack_size = 4096;
	d.win_f = io.va;
	d.win_f_size = 4096;
	d.kernel = 3;
	d.invocation = 9;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_DONE && !memcmp(io.ptr + out_off, big_b + out_off, n * 4),
		  "ELF softmax through the SHAVE engine: DONE, equals the built-in (%#x)", st);

	d.code = loop.va;
	d.code_size = 4;
	d.budget = 4;
	memset(io.ptr + out_off, 0x5a, 64);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_TRAP) &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_CAUSE) == VPUX_SHAVE_TRAP_BUDGET &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_PC) == VPUX_SHAVE_WIN_D &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_KERNEL) == 3 &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_INVOCATION) == 9 &&
		  io.ptr[out_off] == 0x5a,
		  "endless ELF kernel: TRAP, cause BUDGET at WIN_D, kernel 3 invocation 9, nothing stored (%#x)",
		  st);
	d.budget = 0;
	d.stack_size = 100;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC),
		  "stack_size below the minimum: DESC (%#x)", st);
	d.stack_size = 4096;
	d.entry = 4;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC),
		  "entry outside the code: DESC (%#x)", st);
	t_buf_free(&t, &code);
	t_buf_free(&t, &args);
	t_buf_free(&t, &io);
	t_buf_free(&t, &loop);
}

/* ---- the runtime kernel (vpux_shave_rt.h) ---- */
#include "vpux_shave_rt_ref.h"

#define WFI	0x10500073u
#define LI_A7_EXIT	ADDI(17, 0, VPUX_SHAVE_ECALL_EXIT)

static void test_runtime(void)
{
	struct vpux_hw_shave_task d;
	struct t_buf code, rt, io;
	uint32_t n, st;
	uint8_t *img;
	/* li a0, 0; li a7, 93; ecall -- a kernel's exit ECALL, status 0 */
	const u32 k_exit0[] = { ADDI(10, 0, 0), LI_A7_EXIT, ECALL };
	const u32 k_exit5[] = { ADDI(10, 0, 5), LI_A7_EXIT, ECALL };
	const u32 k_ret7[] = { ADDI(10, 0, 7), RET };
	/* a kernel storing 0x77 at WIN_F, then returning 0 */
	const u32 k_store[] = { LUI(5, VPUX_SHAVE_WIN_F >> 12),
				ADDI(6, 0, 0x77), SW(5, 6, 0), ADDI(10, 0, 0),
				RET };
	const u32 rt_brk[] = { ADDI(0, 0, 0), EBREAK };
	const u32 rt_wfi[] = { WFI };
	const u32 rt_exit[] = { LI_A7_EXIT, ECALL };
	const u32 rt_loop[] = { J(0, 0) };
	/* stores into its own code: WIN_R is read/execute only */
	const u32 rt_wcode[] = { LUI(5, VPUX_SHAVE_WIN_R >> 12), SW(5, 0, 0) };

	img = she_load("runtime", &n);
	tap_check(img && n == VPUX_SHAVE_RT_REF_SIZE &&
		  !memcmp(img, vpux_shave_rt_ref, n),
		  "the engine's reference runtime kernel is the SDK's runtime.bin (%u bytes; make rt-ref)",
		  n);
	free(img);

	t_buf_alloc(&t, &code, 64, false);
	t_buf_alloc(&t, &rt, 64 << 10, false);
	t_buf_alloc(&t, &io, 256, true);
	memset(&d, 0, sizeof(d));
	d.kernel_id = VPUX_SHAVE_KERNEL_ELF;
	d.code = code.va;
	d.stack_size = 1024;
	d.win_f = io.va;
	d.win_f_size = 256;
	d.kernel = 3;
	d.invocation = 9;
	d.rt_kernel = VPUX_SHAVE_RT_REF;

#define KERNEL(k) (memcpy(code.ptr, k, sizeof(k)), d.code_size = sizeof(k))
	/* the reference runtime kernel: return, exit ECALL, status */
	KERNEL(k_store);
	memset(io.ptr, 0, 4);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_DONE && io.ptr[0] == 0x77 &&
		  t_eng(&t, shave0, VPUX_ENG_RT_DEBUG) == 0 &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_CAUSE) == 0,
		  "reference runtime kernel: the task runs, WIN_F stored, debug word 0 (%#x)", st);
	KERNEL(k_exit0);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_DONE,
		  "a kernel's exit ECALL returns to the runtime kernel: DONE (%#x)", st);
	printf("# a 3-instruction kernel under the reference runtime kernel: %u cycles (%u for the launch)\n",
	       t_eng(&t, shave0, VPUX_ENG_OP_CYCLES), VPUX_SHAVE_CYCLES_ELF_LAUNCH);
	KERNEL(k_exit5);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_TRAP) &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_CAUSE) == VPUX_SHAVE_TRAP_STATUS &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_TVAL) == 5 &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_PC) == VPUX_SHAVE_EXIT_PC &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_KERNEL) == 3 &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_INVOCATION) == 9,
		  "exit ECALL with status 5 through the runtime kernel: trap 19, tval 5, kernel 3 invocation 9 (%#x)",
		  st);
	KERNEL(k_ret7);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_TRAP) &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_CAUSE) == VPUX_SHAVE_TRAP_STATUS &&
		  t_eng(&t, shave0, VPUX_ENG_TRAP_TVAL) == 7,
		  "return with status 7 through the runtime kernel: trap 19, tval 7 (%#x)", st);

	/* a runtime kernel of its own */
	KERNEL(k_store);
	img = she_load("runtime_count", &n);
	memcpy(rt.ptr, img, n);
	free(img);
	d.rt_code = rt.va;
	d.rt_size = n;
	d.rt_kernel = 4;
	memset(io.ptr, 0, 4);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_DONE && io.ptr[0] == 0x77 &&
		  t_eng(&t, shave0, VPUX_ENG_RT_DEBUG) == 1,
		  "the task's own runtime kernel (runtime_count) ran it: debug word 1 (%#x)", st);

#define RT(k) (memcpy(rt.ptr, k, sizeof(k)), d.rt_size = sizeof(k))
#define TRAP_IS(c, p, v, k) \
	(st == T_ERR(VPUX_ENG_ERR_TRAP) && \
	 t_eng(&t, shave0, VPUX_ENG_TRAP_CAUSE) == (c) && \
	 t_eng(&t, shave0, VPUX_ENG_TRAP_PC) == (p) && \
	 t_eng(&t, shave0, VPUX_ENG_TRAP_TVAL) == (v) && \
	 t_eng(&t, shave0, VPUX_ENG_TRAP_KERNEL) == (k) && \
	 t_eng(&t, shave0, VPUX_ENG_TRAP_INVOCATION) == 9)
	RT(rt_brk);
	memset(io.ptr, 0, 4);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(TRAP_IS(VPUX_SHAVE_TRAP_BREAKPOINT, VPUX_SHAVE_WIN_R + 4, 0, 4) &&
		  io.ptr[0] == 0,
		  "a trapping runtime kernel: trap 3 at WIN_R + 4, kernel 4 (the runtime's tag), nothing stored (%#x)",
		  st);
	RT(rt_wfi);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(TRAP_IS(VPUX_SHAVE_TRAP_RT_IDLE, VPUX_SHAVE_WIN_R + 4, 1, 4),
		  "a runtime kernel idle with the task in its FIFO: trap 21, 1 task pending, kernel 4 (%#x)",
		  st);
	RT(rt_exit);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(TRAP_IS(VPUX_SHAVE_TRAP_RT_IDLE, VPUX_SHAVE_WIN_R + 4, 1, 4),
		  "a runtime kernel ending by its exit ECALL, task not taken: trap 21 (%#x)",
		  st);
	RT(rt_loop);
	d.budget = 1;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(TRAP_IS(VPUX_SHAVE_TRAP_BUDGET, VPUX_SHAVE_WIN_R, 0, 4),
		  "an endless runtime kernel: trap 18 (budget) at WIN_R, kernel 4 (%#x)",
		  st);
	d.budget = 0;
	RT(rt_wcode);
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(TRAP_IS(VPUX_SHAVE_TRAP_WRITE_CODE, VPUX_SHAVE_WIN_R + 4,
			  VPUX_SHAVE_WIN_R, 4),
		  "a runtime kernel storing into WIN_R: trap 16 (%#x)", st);

	/* the engine's checks of the runtime fields */
	d.rt_size = 2;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC), "rt_size 2: DESC (%#x)", st);
	d.rt_size = VPUX_SHAVE_RT_CODE_MAX + 4;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC), "rt_size above 64 KiB: DESC (%#x)", st);
	d.rt_size = 8;
	d.rt_entry = 8;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC), "rt_entry past rt_size: DESC (%#x)", st);
	d.rt_entry = 0;
	d.rt_code = 0;
	st = t_run_step(&t, shave0, &d, sizeof(d));
	tap_check(st == T_ERR(VPUX_ENG_ERR_DESC),
		  "rt_size without rt_code: DESC (%#x)", st);
#undef KERNEL
#undef RT
#undef TRAP_IS
	t_buf_free(&t, &code);
	t_buf_free(&t, &rt);
	t_buf_free(&t, &io);
}

int main(void)
{
	t_seed(0x5a4e);
	k_softmax = she_load("softmax_f", &k_softmax_size);
	k_binary = she_load("binary_f", &k_binary_size);
	if (!k_softmax || !k_binary) {
		tap_check(0, "SDK kernels in %s (make kernels)", VPUX_KERNEL_DIR);
		return tap_finish();
	}
	test_traps();
	test_f_decode();
	test_softmax();
	test_binary();
	if (t_open(&t, NULL, true))
		return 1;
	shave0 = t.n_dma + t.n_dpu;
	test_engine();
	test_runtime();
	t_close(&t);
	free(k_softmax);
	free(k_binary);
	return tap_finish();
}
