// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The A extension: every AMO*.W over pairs of edge values (old value and
 * memory after), LR.W/SC.W success and failure, a lock-free counter.
 */
#include "rvlib.h"

static const u32 vals[] = {
	0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678, 0xfffffffe,
	0x80000001, 5,
};

#define NV (sizeof(vals) / sizeof(vals[0]))

static u32 cell;

#define AMO(name, op) \
static u32 amo_##name(u32 *p, u32 v) \
{ \
	u32 r; \
	asm volatile(op " %0, %2, (%1)" : "=r"(r) : "r"(p), "r"(v) \
		     : "memory"); \
	return r; \
}

AMO(swap, "amoswap.w") AMO(add, "amoadd.w") AMO(xor, "amoxor.w")
AMO(and, "amoand.w") AMO(or, "amoor.w") AMO(min, "amomin.w")
AMO(max, "amomax.w") AMO(minu, "amominu.w") AMO(maxu, "amomaxu.w")
AMO(add_aq, "amoadd.w.aq") AMO(or_aqrl, "amoor.w.aqrl")

static const struct {
	const char *name;
	u32 (*fn)(u32 *, u32);
} ops[] = {
	{ "amoswap", amo_swap }, { "amoadd", amo_add }, { "amoxor", amo_xor },
	{ "amoand", amo_and }, { "amoor", amo_or }, { "amomin", amo_min },
	{ "amomax", amo_max }, { "amominu", amo_minu },
	{ "amomaxu", amo_maxu }, { "amoadd.aq", amo_add_aq },
	{ "amoor.aqrl", amo_or_aqrl },
};

static u32 lr(u32 *p)
{
	u32 r;

	asm volatile("lr.w %0, (%1)" : "=r"(r) : "r"(p) : "memory");
	return r;
}

static u32 sc(u32 *p, u32 v)
{
	u32 r;

	asm volatile("sc.w %0, %2, (%1)" : "=r"(r) : "r"(p), "r"(v)
		     : "memory");
	return r;
}

static u32 other;

int main(void)
{
	unsigned int o, i, j;
	u32 old, r;

	for (o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		sum = 0x12345678;
		for (i = 0; i < NV; i++)
			for (j = 0; j < NV; j++) {
				cell = vals[i];
				old = ops[o].fn(OPAQUE(&cell), vals[j]);
				mix(old);
				mix(cell);
			}
		out_kv(ops[o].name, sum);
	}

	cell = 10;
	old = lr(&cell);
	r = sc(&cell, old + 1);
	out_kv("lr", old);
	out_kv("sc-ok", r);
	out_kv("cell", cell);
	r = sc(&cell, 99);
	out_kv("sc-again", r != 0);
	out_kv("cell", cell);
	old = lr(&cell);
	r = sc(&other, 7);
	out_kv("sc-other", r != 0);
	out_kv("other", other);
	r = sc(&cell, 5);
	out_kv("sc-after", r != 0);

	/* a CAS loop counter */
	cell = 0;
	for (i = 0; i < 100; i++) {
		do {
			old = lr(&cell);
		} while (sc(&cell, old + i));
	}
	out_kv("casloop", cell);
	return 0;
}
