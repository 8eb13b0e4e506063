// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The management core (VPUX_REG_MC_*, include/hw/vpux_mc.h): its host
 * registers, and small hand-assembled RV32 programs loaded through the
 * RAM window that use its memory map: status, the host interrupt, the
 * NPU's registers, shared memory, the window onto host memory, the
 * console, WFI woken by the doorbell, the timer and an engine's
 * completion; injected traps, FREEZE and reset.
 */
#include <stdatomic.h>

#include "sim_test.h"
#include "vpux_mc.h"
#include "vpux_rv.h"

static struct t_dev t;

/* ---- host interrupt: the bits the handler saw ---- */

static pthread_mutex_t irq_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t irq_cv = PTHREAD_COND_INITIALIZER;
static uint32_t irq_bits;

static void handler(void *arg)
{
	uint32_t st = t_reg(&t, VPUX_REG_IRQ_STATUS) & t_reg(&t, VPUX_REG_IRQ_MASK);

	(void)arg;
	if (!st)
		return;
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, st);
	pthread_mutex_lock(&irq_m);
	irq_bits |= st;
	pthread_cond_broadcast(&irq_cv);
	pthread_mutex_unlock(&irq_m);
}

static bool wait_irq(uint32_t bits, int ms)
{
	return t_wait_bits(&irq_m, &irq_cv, &irq_bits, bits, ms);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Poll MC_STATUS until it reads @want; false after @ms. */
static bool wait_status(uint32_t want, int ms)
{
	double end = now_ms() + ms;

	while (t_reg(&t, VPUX_REG_MC_STATUS) != want) {
		if (now_ms() > end)
			return false;
		sleep_ms(1);
	}
	return true;
}

/* ---- a tiny RV32I assembler ---- */

enum { ZERO = 0, T0 = 5, T1 = 6, T2 = 7, S0 = 8, S1 = 9, A0 = 10,
       S2 = 18, S3 = 19, S4 = 20 };

#define PROG_MAX	256

struct prog {
	uint32_t w[PROG_MAX];
	uint32_t n;
};

static void emit(struct prog *p, uint32_t insn)
{
	if (p->n >= PROG_MAX) {
		fprintf(stderr, "program too long\n");
		exit(2);
	}
	p->w[p->n++] = insn;
}

/* the address of the next instruction */
static uint32_t here(const struct prog *p)
{
	return VPUX_MC_RAM_BASE + 4 * p->n;
}

static uint32_t i_type(int32_t imm, int rs1, int f3, int rd, int op)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static void addi(struct prog *p, int rd, int rs1, int32_t imm)
{
	emit(p, i_type(imm, rs1, 0, rd, 0x13));
}

static void slli(struct prog *p, int rd, int rs1, int sh)
{
	emit(p, i_type(sh, rs1, 1, rd, 0x13));
}

static void ori(struct prog *p, int rd, int rs1, int32_t imm)
{
	emit(p, i_type(imm, rs1, 6, rd, 0x13));
}

static void lw(struct prog *p, int rd, int rs1, int32_t imm)
{
	emit(p, i_type(imm, rs1, 2, rd, 0x03));
}

static void sw(struct prog *p, int rs2, int rs1, int32_t imm)
{
	uint32_t u = (uint32_t)imm;

	emit(p, (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | 2 << 12 |
		(u & 0x1f) << 7 | 0x23);
}

static void li(struct prog *p, int rd, uint32_t v)
{
	uint32_t hi = (v + 0x800) & 0xfffff000u;
	int32_t lo = (int32_t)(v - hi);

	emit(p, hi | rd << 7 | 0x37);		/* lui */
	addi(p, rd, rd, lo);
}

/* branch (funct3 @f3) from here to @target */
static void branch(struct prog *p, int f3, int rs1, int rs2, uint32_t target)
{
	uint32_t o = target - here(p);

	emit(p, (o >> 12 & 1) << 31 | (o >> 5 & 0x3f) << 25 | rs2 << 20 |
		rs1 << 15 | f3 << 12 | (o >> 1 & 0xf) << 8 |
		(o >> 11 & 1) << 7 | 0x63);
}

static void beqz(struct prog *p, int rs, uint32_t target)
{
	branch(p, 0, rs, ZERO, target);
}

static void j(struct prog *p, uint32_t target)
{
	uint32_t o = target - here(p);

	emit(p, (o >> 20 & 1) << 31 | (o >> 1 & 0x3ff) << 21 |
		(o >> 11 & 1) << 20 | (o >> 12 & 0xff) << 12 | 0x6f);
}

#define CSR_MSTATUS	0x300
#define CSR_MIE		0x304
#define CSR_MTVEC	0x305
#define CSR_MEPC	0x341
#define CSR_MCAUSE	0x342
#define CSR_MIP		0x344

static void csrw(struct prog *p, int csr, int rs)
{
	emit(p, i_type(csr, rs, 1, ZERO, 0x73));
}

static void csrr(struct prog *p, int rd, int csr)
{
	emit(p, i_type(csr, ZERO, 2, rd, 0x73));
}

static void wfi(struct prog *p)
{
	emit(p, 0x10500073u);
}

/*
 * Every program starts the same: jump over the trap handler, which
 * reports CRASHED with mcause and mepc, interrupts the host and sleeps.
 * Then s0 = the core's status registers, s1 = the NPU's registers,
 * s2 = shared memory, s3 = MSIP, s4 = MTIMECMP.
 */
#define REG_ST		(VPUX_MC_REG_BASE + VPUX_MC_REG_STATUS)
#define ST(r)		((int32_t)(VPUX_MC_REG_BASE + (r)) - (int32_t)REG_ST)

static void prologue(struct prog *p)
{
	uint32_t trap, sleep;

	p->n = 0;
	emit(p, 0);			/* j main, patched below */
	trap = here(p);
	csrr(p, T1, CSR_MCAUSE);
	slli(p, T1, T1, 8);
	ori(p, T1, T1, VPUX_MC_STATUS_CRASHED);
	sw(p, T1, S0, ST(VPUX_MC_REG_STATUS));
	csrr(p, T1, CSR_MEPC);
	sw(p, T1, S0, ST(VPUX_MC_REG_INFO));
	sw(p, ZERO, S0, ST(VPUX_MC_REG_HOST_IRQ));
	sleep = here(p);
	wfi(p);
	j(p, sleep);
	/* main */
	{
		uint32_t n = p->n;

		p->n = 0;
		j(p, VPUX_MC_RAM_BASE + 4 * n);
		p->n = n;
	}
	li(p, T0, trap);
	csrw(p, CSR_MTVEC, T0);
	li(p, S0, REG_ST);
	li(p, S1, VPUX_MC_NPU_BASE);
	li(p, S2, VPUX_MC_SHM_BASE);
	li(p, S3, VPUX_MC_REG_BASE + VPUX_MC_REG_MSIP);
	li(p, S4, VPUX_MC_REG_BASE + VPUX_MC_REG_MTIMECMP_LO);
}

static void status(struct prog *p, uint32_t v)
{
	li(p, T1, v);
	sw(p, T1, S0, ST(VPUX_MC_REG_STATUS));
}

/* Hold the core in reset, load @p through the window, start it. */
static void boot(const struct prog *p)
{
	uint32_t i;

	t_wreg(&t, VPUX_REG_MC_CTRL, 0);
	t_wreg(&t, VPUX_REG_MC_MEM_ADDR, 0);
	for (i = 0; i < p->n; i++)
		t_wreg(&t, VPUX_REG_MC_MEM_DATA, p->w[i]);
	t_wreg(&t, VPUX_REG_MC_BOOT, VPUX_MC_RAM_BASE);
	t_wreg(&t, VPUX_REG_MC_CTRL, VPUX_MC_CTRL_RUN);
}

static uint32_t ram_word(uint32_t off)
{
	t_wreg(&t, VPUX_REG_MC_MEM_ADDR, off);
	return t_reg(&t, VPUX_REG_MC_MEM_DATA);
}

/* ---- tests ---- */

static void test_regs(void)
{
	uint32_t i, ok = 1;

	tap_check(t_reg(&t, VPUX_REG_CAPS) & VPUX_CAP_MGMT_CORE,
		  "CAPS has the management core");
	tap_check(t_reg(&t, VPUX_REG_MC_MEM_SIZE) == 4u << 20,
		  "MC_MEM_SIZE: 4 MiB by default");
	tap_check(t_reg(&t, VPUX_REG_MC_CTRL) == 0 &&
		  t_reg(&t, VPUX_REG_MC_STATUS) == VPUX_MC_STATUS_OFF &&
		  t_reg(&t, VPUX_REG_MC_INFO) == 0 &&
		  t_reg(&t, VPUX_REG_MC_RETIRED) == 0 &&
		  t_reg(&t, VPUX_REG_MC_INJECT) == 0 &&
		  t_reg(&t, VPUX_REG_MC_DOORBELL) == 0,
		  "reset values: held in reset, status OFF");

	t_wreg(&t, VPUX_REG_MC_MEM_ADDR, 0x102);
	tap_check(t_reg(&t, VPUX_REG_MC_MEM_ADDR) == 0x100,
		  "MEM_ADDR is 4-aligned");
	for (i = 0; i < 8; i++)
		t_wreg(&t, VPUX_REG_MC_MEM_DATA, 0x11111111u * i + 7);
	tap_check(t_reg(&t, VPUX_REG_MC_MEM_ADDR) == 0x120,
		  "each DATA write moves ADDR on by 4");
	t_wreg(&t, VPUX_REG_MC_MEM_ADDR, 0x100);
	for (i = 0; i < 8; i++)
		ok &= t_reg(&t, VPUX_REG_MC_MEM_DATA) == 0x11111111u * i + 7;
	tap_check(ok && t_reg(&t, VPUX_REG_MC_MEM_ADDR) == 0x120,
		  "window round trip, reads move ADDR too");
	t_wreg(&t, VPUX_REG_MC_MEM_ADDR, 4u << 20);
	t_wreg(&t, VPUX_REG_MC_MEM_DATA, 0xdead);
	tap_check(ram_word(4u << 20) == 0, "past the RAM: writes dropped, reads 0");

	t_wreg(&t, VPUX_REG_MC_SHM_SIZE, 0xffffffffu);
	tap_check(t_reg(&t, VPUX_REG_MC_SHM_SIZE) == VPUX_MC_SHM_MAX,
		  "SHM_SIZE at most VPUX_MC_SHM_MAX");
	t_wreg(&t, VPUX_REG_MC_DOORBELL, 1);
	t_wreg(&t, VPUX_REG_MC_INJECT, VPUX_MC_INJECT_FREEZE);
	tap_check(t_reg(&t, VPUX_REG_MC_DOORBELL) == 0 &&
		  t_reg(&t, VPUX_REG_MC_INJECT) == 0,
		  "doorbell and injection ignored in reset");
	t_wreg(&t, VPUX_REG_MC_CTRL, 0);
	tap_check(ram_word(0x100) == 0 && ram_word(0x11c) == 0,
		  "MC_CTRL = 0 clears the RAM");
}

/* The host's shared page: [1] input, [2] output, [3] doorbells, [4..5]
 * the page's own bus address, [6] read back through the window, [7] the
 * NPU's ENGINES register, [8] the core's IRQ_STATUS view. */
static struct t_buf shm;

static void prog_main(struct prog *p)
{
	uint32_t loop;

	prologue(p);
	lw(p, T1, S1, VPUX_REG_ENGINES);		/* an NPU register */
	sw(p, T1, S2, 7 * 4);
	lw(p, T1, S1, VPUX_REG_IRQ_STATUS);
	sw(p, T1, S2, 8 * 4);
	lw(p, T1, S2, 1 * 4);				/* shared memory */
	addi(p, T1, T1, 1);
	sw(p, T1, S2, 2 * 4);
	lw(p, T1, S2, 4 * 4);				/* the window */
	sw(p, T1, S0, ST(VPUX_MC_REG_WIN_LO));
	lw(p, T1, S2, 5 * 4);
	sw(p, T1, S0, ST(VPUX_MC_REG_WIN_HI));
	li(p, T2, VPUX_MC_WIN_BASE + 1023 * 4);
	lw(p, T1, T2, 0);
	sw(p, T1, S2, 6 * 4);
	li(p, T2, 0x1234);				/* a RAM word */
	li(p, T0, VPUX_MC_RAM_BASE + 0x1000);
	sw(p, T2, T0, 0);
	li(p, T2, 'h');					/* console */
	sw(p, T2, S0, ST(VPUX_MC_REG_CONSOLE));
	li(p, T2, 'i');
	sw(p, T2, S0, ST(VPUX_MC_REG_CONSOLE));
	li(p, T2, '\n');
	sw(p, T2, S0, ST(VPUX_MC_REG_CONSOLE));
	li(p, T1, VPUX_RV_MIP_MSIP);			/* MSIE, MIE off */
	csrw(p, CSR_MIE, T1);
	status(p, VPUX_MC_STATUS_READY);
	sw(p, ZERO, S0, ST(VPUX_MC_REG_HOST_IRQ));
	loop = here(p);
	wfi(p);
	lw(p, T1, S3, 0);
	beqz(p, T1, loop);
	sw(p, ZERO, S3, 0);				/* ack the doorbell */
	lw(p, T2, S2, 3 * 4);
	addi(p, T2, T2, 1);
	sw(p, T2, S2, 3 * 4);
	sw(p, ZERO, S0, ST(VPUX_MC_REG_HOST_IRQ));
	j(p, loop);
}

static void test_main(void)
{
	uint32_t *w = (uint32_t *)(void *)shm.ptr;
	struct prog p;
	uint32_t r1, r2, st;
	char con[256];
	int i;

	memset(shm.ptr, 0, shm.size);
	w[1] = 41;
	w[4] = (uint32_t)shm.pa;
	w[5] = (uint32_t)(shm.pa >> 32);
	w[1023] = 0xfeedf00d;
	w[7] = w[8] = 0xffffffffu;
	t_wreg(&t, VPUX_REG_MC_SHM_LO, (uint32_t)shm.pa);
	t_wreg(&t, VPUX_REG_MC_SHM_HI, (uint32_t)(shm.pa >> 32));
	t_wreg(&t, VPUX_REG_MC_SHM_SIZE, VPUX_PAGE_SIZE);
	prog_main(&p);
	boot(&p);
	tap_check(wait_status(VPUX_MC_STATUS_READY, 5000),
		  "the program reports READY");
	tap_check(wait_irq(VPUX_IRQ_MC, 5000), "HOST_IRQ: the host sees VPUX_IRQ_MC");
	tap_check(w[7] == t_reg(&t, VPUX_REG_ENGINES),
		  "reads an NPU register through its window");
	tap_check(w[8] == 0, "its IRQ_STATUS view has no host bit (IRQ_MC)");
	tap_check(w[2] == 42, "reads and writes shared memory");
	tap_check(w[6] == 0xfeedf00d,
		  "reads host memory through the movable window");
	tap_check(ram_word(0x1000) == 0x1234, "stores into its RAM");
	vpux_host_dev_console(t.dev, con, sizeof(con));
	tap_check(!strcmp(con, "hi\n"), "console: one line, 'hi'");

	sleep_ms(5);	/* RETIRED moves when the batch that ran it ends */
	r1 = t_reg(&t, VPUX_REG_MC_RETIRED);
	sleep_ms(30);
	r2 = t_reg(&t, VPUX_REG_MC_RETIRED);
	tap_check(r1 > 20 && r1 == r2, "sleeps in WFI: RETIRED %u stays", r1);

	for (i = 0; i < 3; i++) {
		t_wreg(&t, VPUX_REG_MC_DOORBELL, 1);
		if (!wait_irq(VPUX_IRQ_MC, 5000))
			break;
	}
	tap_check(i == 3 && w[3] == 3, "each doorbell wakes it (%u)", w[3]);
	tap_check(t_reg(&t, VPUX_REG_MC_RETIRED) > r2, "RETIRED moved");

	/* an injected trap reaches the program's handler */
	t_wreg(&t, VPUX_REG_MC_INJECT, VPUX_MC_INJECT_TRAP);
	st = VPUX_MC_STATUS_CRASHED | VPUX_RV_CAUSE_ILLEGAL_INSN << 8;
	tap_check(wait_status(st, 5000) && wait_irq(VPUX_IRQ_MC, 5000),
		  "INJECT TRAP: handler reports mcause 2");
	r1 = t_reg(&t, VPUX_REG_MC_INFO);
	tap_check(r1 >= VPUX_MC_RAM_BASE && r1 < VPUX_MC_RAM_BASE + 4 * p.n &&
		  t_reg(&t, VPUX_REG_MC_INJECT) == 0,
		  "mepc %#x in the program, INJECT consumed", r1);

	t_wreg(&t, VPUX_REG_MC_CTRL, 0);
	tap_check(t_reg(&t, VPUX_REG_MC_STATUS) == 0 &&
		  t_reg(&t, VPUX_REG_MC_INFO) == 0 &&
		  t_reg(&t, VPUX_REG_MC_RETIRED) == 0 &&
		  t_reg(&t, VPUX_REG_MC_CTRL) == 0, "reset clears status");
	tap_check(ram_word(0) == 0 && ram_word(0x1000) == 0 && ram_word(8) == 0,
		  "reset clears the RAM");
}

/* A load past the shared memory's size is an access fault. */
static void test_shm_bounds(void)
{
	struct prog p;

	prologue(&p);
	li(&p, T2, VPUX_MC_SHM_BASE + VPUX_PAGE_SIZE);
	lw(&p, T1, T2, 0);
	status(&p, VPUX_MC_STATUS_READY);
	j(&p, here(&p));
	boot(&p);
	tap_check(wait_status(VPUX_MC_STATUS_CRASHED |
			      VPUX_RV_CAUSE_LOAD_ACCESS << 8, 5000),
		  "a load past MC_SHM_SIZE faults (mcause 5)");
	wait_irq(VPUX_IRQ_MC, 5000);
}

/* WFI with MTIE until mtime passes mtimecmp, 20 ms ahead. */
static void test_timer(void)
{
	struct prog p;
	uint32_t sleep;
	double t0;

	prologue(&p);
	lw(&p, T0, S0, ST(VPUX_MC_REG_MTIME_LO));
	li(&p, T1, 20000);
	emit(&p, 0x00628533u | 0);		/* add a0, t0, t1 */
	sw(&p, A0, S4, 0);
	sw(&p, ZERO, S4, 4);
	li(&p, T1, VPUX_RV_MIP_MTIP);
	csrw(&p, CSR_MIE, T1);
	status(&p, VPUX_MC_STATUS_READY);
	wfi(&p);
	csrr(&p, T1, CSR_MIP);
	sw(&p, T1, S0, ST(VPUX_MC_REG_INFO));
	li(&p, T1, -1);
	sw(&p, T1, S4, 0);
	sw(&p, T1, S4, 4);
	status(&p, 0x11);
	sleep = here(&p);
	wfi(&p);
	j(&p, sleep);
	t0 = now_ms();
	boot(&p);
	tap_check(wait_status(VPUX_MC_STATUS_READY, 5000) ||
		  t_reg(&t, VPUX_REG_MC_STATUS) == 0x11, "timer program runs");
	tap_check(wait_status(0x11, 5000), "the timer wakes WFI");
	tap_check(now_ms() - t0 >= 19.0, "not before mtimecmp (%.1f ms)",
		  now_ms() - t0);
	tap_check(t_reg(&t, VPUX_REG_MC_INFO) & VPUX_RV_MIP_MTIP,
		  "mip.MTIP was set");
}

/* An engine's completion raises MEIP through the core's own mask. */
static void test_meip(void)
{
	struct vpux_hw_dma_desc d;
	struct prog p;
	uint32_t sleep;

	prologue(&p);
	li(&p, T1, VPUX_IRQ_ENGINE(0) | VPUX_IRQ_CMX_CLEAR);
	sw(&p, T1, S1, VPUX_REG_IRQ_MASK);
	li(&p, T1, VPUX_RV_MIP_MEIP);
	csrw(&p, CSR_MIE, T1);
	status(&p, VPUX_MC_STATUS_READY);
	wfi(&p);
	lw(&p, T1, S1, VPUX_REG_IRQ_STATUS);
	sw(&p, T1, S0, ST(VPUX_MC_REG_INFO));
	sw(&p, T1, S1, VPUX_REG_IRQ_CLEAR);
	lw(&p, T1, S1, VPUX_REG_IRQ_MASK);
	sw(&p, T1, S2, 9 * 4);
	status(&p, 0x21);
	sleep = here(&p);
	wfi(&p);
	j(&p, sleep);

	t_wreg(&t, VPUX_REG_IRQ_MASK, VPUX_IRQ_MC);	/* headed: host masks engines */
	boot(&p);
	tap_check(wait_status(VPUX_MC_STATUS_READY, 5000), "MEIP program ready");
	sleep_ms(10);
	tap_check(t_reg(&t, VPUX_REG_MC_STATUS) == VPUX_MC_STATUS_READY,
		  "it sleeps until an engine completes");
	d = t_dma_1d(t.cmx_base, t.cmx_base + 4096, 256);
	t_start(&t, 0, 0, &d, sizeof(d));
	tap_check(wait_status(0x21, 5000), "the engine's completion wakes it");
	tap_check(t_reg(&t, VPUX_REG_MC_INFO) == VPUX_IRQ_ENGINE(0),
		  "it sees the engine's bit");
	tap_check(((uint32_t *)(void *)shm.ptr)[9] == VPUX_IRQ_ENGINE(0),
		  "its IRQ_MASK keeps its bits only");
	tap_check(!(t_reg(&t, VPUX_REG_IRQ_STATUS) & VPUX_IRQ_ENGINE(0)),
		  "its IRQ_CLEAR acks the engine's bit");
	t_wreg(&t, VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL | VPUX_IRQ_MC);
}

/* FREEZE stops the hart until reset; RESET_DEVICE resets the core. */
static void test_freeze(void)
{
	struct prog p;
	uint32_t r1, r2, spin;

	prologue(&p);
	status(&p, VPUX_MC_STATUS_READY);
	spin = here(&p);
	addi(&p, T0, T0, 1);
	j(&p, spin);
	boot(&p);
	tap_check(wait_status(VPUX_MC_STATUS_READY, 5000), "spinning program");
	r1 = t_reg(&t, VPUX_REG_MC_RETIRED);
	sleep_ms(10);
	r2 = t_reg(&t, VPUX_REG_MC_RETIRED);
	tap_check(r2 != r1, "RETIRED moves while it spins");
	t_wreg(&t, VPUX_REG_MC_INJECT, VPUX_MC_INJECT_FREEZE);
	r1 = t_reg(&t, VPUX_REG_MC_RETIRED);
	sleep_ms(20);
	r2 = t_reg(&t, VPUX_REG_MC_RETIRED);
	tap_check(r1 == r2 && t_reg(&t, VPUX_REG_MC_INJECT) ==
		  VPUX_MC_INJECT_FREEZE, "FREEZE: RETIRED stays at %u", r1);
	t_wreg(&t, VPUX_REG_MC_DOORBELL, 1);
	sleep_ms(5);
	tap_check(t_reg(&t, VPUX_REG_MC_RETIRED) == r2,
		  "a doorbell does not thaw it");
	t_wreg(&t, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	tap_check(t_reg(&t, VPUX_REG_MC_CTRL) == 0 &&
		  t_reg(&t, VPUX_REG_MC_INJECT) == 0 &&
		  t_reg(&t, VPUX_REG_MC_STATUS) == 0 && ram_word(0) == 0,
		  "RESET_DEVICE resets the core and clears its RAM");
	t_wreg(&t, VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL | VPUX_IRQ_MC);
}

/*
 * A reset while the hart runs (mid-batch): its stale stores never land in
 * the RAM the host loads next.
 */
static void test_reset_running(void)
{
	struct prog p;
	uint32_t spin, i, bad = 0;

	prologue(&p);
	li(&p, T2, VPUX_MC_RAM_BASE + 0x2000);
	status(&p, VPUX_MC_STATUS_READY);
	spin = here(&p);
	addi(&p, T0, T0, 1);
	sw(&p, T0, T2, 0);
	j(&p, spin);
	for (i = 0; i < 50; i++) {
		boot(&p);
		if (!wait_status(VPUX_MC_STATUS_READY, 5000))
			break;
		sleep_ms(1);
		t_wreg(&t, VPUX_REG_MC_CTRL, 0);
		bad += ram_word(0x2000) != 0;
		sleep_ms(2);
		bad += ram_word(0x2000) != 0 || ram_word(0) != 0;
	}
	tap_check(i == 50 && !bad,
		  "reset of a running core: its RAM stays clear (%u bad)", bad);
}

int main(void)
{
	struct vpux_sim_config cfg;

	if (t_open(&t, NULL, false)) {
		tap_check(0, "open");
		return tap_finish();
	}
	vpux_host_dev_set_irq_handler(t.dev, handler, NULL);
	t_wreg(&t, VPUX_REG_IRQ_MASK, VPUX_IRQ_ALL | VPUX_IRQ_MC);
	t_buf_alloc(&t, &shm, VPUX_PAGE_SIZE, true);

	test_regs();
	test_main();
	test_shm_bounds();
	test_timer();
	test_meip();
	test_freeze();

	vpux_host_dev_set_irq_handler(t.dev, NULL, NULL);
	t_buf_free(&t, &shm);
	t_close(&t);

	/* a small RAM clears faster than a batch runs: the race shows */
	vpux_sim_default_config(&cfg);
	cfg.mc_mem_size = 16384;
	if (!tap_check(!t_open(&t, &cfg, false), "open with 16 KiB of RAM"))
		return tap_finish();
	tap_check(t_reg(&t, VPUX_REG_MC_MEM_SIZE) == 16384, "MC_MEM_SIZE: 16 KiB");
	test_reset_running();
	t_close(&t);
	return tap_finish();
}
