// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * MMU tests through DMA ops (host platform, step mode): the three-level
 * walk on hand-built tables, every fault reason, fault latching and
 * clearing, TLB invalidation, and that a faulting op stores nothing.
 */
#include "sim_test.h"

static struct t_dev t;

static uint32_t fault_status(void)
{
	return t_reg(&t, VPUX_REG_FAULT_STATUS);
}

static uint64_t fault_addr(void)
{
	return t_reg(&t, VPUX_REG_FAULT_ADDR_LO) |
	       (uint64_t)t_reg(&t, VPUX_REG_FAULT_ADDR_HI) << 32;
}

static uint64_t eng_fault_addr(uint32_t e)
{
	return t_eng(&t, e, VPUX_ENG_FAULT_ADDR_LO) |
	       (uint64_t)t_eng(&t, e, VPUX_ENG_FAULT_ADDR_HI) << 32;
}

static void fault_clear(void)
{
	t_wreg(&t, VPUX_REG_FAULT_STATUS, VPUX_FAULT_VALID);
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);
}

static uint32_t fault_word(uint32_t reason, bool write, uint32_t ctx,
			   uint32_t eng)
{
	return VPUX_FAULT_VALID | (write ? VPUX_FAULT_WRITE : 0) |
	       reason << VPUX_FAULT_REASON_SHIFT | ctx << VPUX_FAULT_CTX_SHIFT |
	       eng << VPUX_FAULT_ENGINE_SHIFT;
}

/* Run a 1-D copy on engine @e in context @ctx; returns STATUS. */
static uint32_t copy(uint32_t e, uint32_t ctx, uint64_t src, uint64_t dst,
		     uint32_t len)
{
	struct vpux_hw_dma_desc d = t_dma_1d(src, dst, len);

	t_start(&t, e, ctx, &d, sizeof(d));
	while (vpux_host_dev_step(t.dev))
		;
	t_wreg(&t, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ENGINE_MASK);
	return t_eng(&t, e, VPUX_ENG_STATUS);
}

static void put_pte(uint64_t table_pa, unsigned int idx, uint64_t val)
{
	uint8_t *p = vpux_host_phys_ptr(t.dev, table_pa + idx * 8, 8);
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(val >> (8 * i));
}

static uint64_t page(void)
{
	uint64_t pa;

	if (vpux_host_phys_alloc(t.dev, VPUX_PAGE_SIZE, &pa))
		exit(2);
	return pa;
}

static void test_handmade_walk(void)
{
	/* slot 2, VA with distinct indices at every level */
	uint64_t va = (3ull << 30) | (5ull << 21) | (7ull << 12);
	uint64_t root = page(), l2 = page(), l3 = page(), data = page();
	uint64_t ro = page(), va_ro = va + VPUX_PAGE_SIZE;
	uint8_t *dp = vpux_host_phys_ptr(t.dev, data, VPUX_PAGE_SIZE);
	struct t_buf src, dst;
	uint32_t st;

	va += VPUX_DEFAULT_VA_BASE;	/* 4 GiB = L1 index 4 */
	va_ro += VPUX_DEFAULT_VA_BASE;
	put_pte(root, (va >> 30) & 511, l2 | VPUX_PTE_VALID);
	put_pte(l2, (va >> 21) & 511, l3 | VPUX_PTE_VALID);
	put_pte(l3, (va >> 12) & 511, data | VPUX_PTE_VALID | VPUX_PTE_WRITE);
	put_pte(l3, (va_ro >> 12) & 511, ro | VPUX_PTE_VALID);
	t_wreg(&t, VPUX_REG_MMU_PT_LO(2), (uint32_t)root);
	t_wreg(&t, VPUX_REG_MMU_PT_HI(2), (uint32_t)(root >> 32));

	/* slot 2's CTRL is still off: context fault */
	t_buf_alloc(&t, &src, 4096, true);
	t_fill(src.ptr, 4096);
	st = copy(0, 2, t.cmx_base, va + 16, 64);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_CTX, true, 2, 0) &&
		  fault_addr() == va + 16, "ctx not enabled: CTX fault (%#x)",
		  fault_status());
	fault_clear();

	t_wreg(&t, VPUX_REG_MMU_CTRL(2), VPUX_MMU_CTRL_ENABLE);
	/* src in slot 0's space is not mapped in slot 2 */
	st = copy(0, 2, src.va, va, 4096);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_UNMAPPED, false, 2, 0),
		  "other context's mapping is not visible");
	fault_clear();

	/* CMX -> hand-mapped page, then back to a slot-0 buffer */
	t_buf_alloc(&t, &dst, 4096, true);
	st = copy(0, 0, src.va, t.cmx_base, 4096);
	st |= copy(1, 2, t.cmx_base, va, 4096);
	tap_check(st == T_DONE && !memcmp(dp, src.ptr, 4096),
		  "three-level walk reaches the right page");
	st = copy(1, 2, va_ro, t.cmx_base + 8192, 4096);
	tap_check(st == T_DONE, "read-only page can be read");
	st = copy(1, 2, t.cmx_base, va_ro + 100, 8);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_READONLY, true, 2, 1) &&
		  fault_addr() == va_ro + 100, "write to read-only page faults");
	fault_clear();

	/* remap the leaf without invalidating: TLB keeps the old page */
	put_pte(l3, (va >> 12) & 511, ro | VPUX_PTE_VALID | VPUX_PTE_WRITE);
	memset(dp, 0, 4096);
	st = copy(1, 2, t.cmx_base, va, 4096);
	tap_check(st == T_DONE && !memcmp(dp, src.ptr, 4096),
		  "without INVALIDATE the cached translation is used");
	t_wreg(&t, VPUX_REG_MMU_INVALIDATE, 1u << 2);
	st = copy(1, 2, t.cmx_base, va, 4096);
	tap_check(st == T_DONE &&
		  !memcmp(vpux_host_phys_ptr(t.dev, ro, 4096), src.ptr, 4096),
		  "after INVALIDATE the new translation is used");
	put_pte(l3, (va >> 12) & 511, 0);
	t_wreg(&t, VPUX_REG_MMU_INVALIDATE, 1u << 2);
	st = copy(1, 2, t.cmx_base, va, 4096);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_UNMAPPED, true, 2, 1),
		  "unmapped after INVALIDATE faults");
	fault_clear();

	/* leaf pointing outside system memory: the bus aborts */
	put_pte(l3, (va >> 12) & 511, 0x10000000ull | VPUX_PTE_VALID | VPUX_PTE_WRITE);
	t_wreg(&t, VPUX_REG_MMU_INVALIDATE, 1u << 2);
	st = copy(1, 2, va, t.cmx_base, 64);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_RANGE, false, 2, 1),
		  "PTE to non-memory: RANGE fault");
	fault_clear();
	/* intermediate table pointing outside memory */
	put_pte(root, (va >> 30) & 511, 0x10000000ull | VPUX_PTE_VALID);
	t_wreg(&t, VPUX_REG_MMU_INVALIDATE, 1u << 2);
	st = copy(1, 2, va, t.cmx_base, 64);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_RANGE, false, 2, 1),
		  "table pointer to non-memory: RANGE fault");
	fault_clear();
	t_wreg(&t, VPUX_REG_MMU_CTRL(2), 0);
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

static void test_faults(void)
{
	struct t_buf src, dst;
	uint8_t *snap;
	uint32_t st;

	t_buf_alloc(&t, &src, 3 * 4096, true);
	t_buf_alloc(&t, &dst, 3 * 4096, true);
	t_fill(src.ptr, src.size);
	t_fill(dst.ptr, dst.size);
	snap = malloc(dst.size);
	memcpy(snap, dst.ptr, dst.size);

	st = copy(0, 0, src.va, dst.va, 3 * 4096);
	tap_check(st == T_DONE && !memcmp(src.ptr, dst.ptr, dst.size),
		  "mapped 3-page copy");
	memcpy(dst.ptr, snap, dst.size);

	/* middle source page unmapped */
	vpux_host_vm_unmap(t.vm, src.va + 4096, 4096);
	st = copy(0, 0, src.va + 10, dst.va + 10, 3 * 4096 - 20);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_UNMAPPED, false, 0, 0) &&
		  fault_addr() == src.va + 4096, "hole in source: fault at the hole");
	tap_check(!memcmp(dst.ptr, snap, dst.size), "faulting copy stored nothing");
	tap_check(t_reg(&t, VPUX_REG_IRQ_STATUS) & VPUX_IRQ_MMU_FAULT,
		  "MMU fault IRQ bit raised");

	/* second fault does not overwrite the first */
	vpux_host_vm_map(t.vm, src.va + 4096, src.pa + 4096, 4096, true);
	vpux_host_vm_unmap(t.vm, dst.va + 8192, 4096);
	st = copy(1, 0, src.va, dst.va, 3 * 4096);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_addr() == src.va + 4096 &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_UNMAPPED, false, 0, 0),
		  "first fault stays latched");
	/* each engine keeps its own op's fault address */
	tap_check(eng_fault_addr(1) == dst.va + 8192 &&
		  eng_fault_addr(0) == src.va + 4096,
		  "engine 1's FAULT_ADDR has its own fault (0x%llx), engine 0's its own",
		  (unsigned long long)eng_fault_addr(1));
	tap_check(!memcmp(dst.ptr, snap, dst.size),
		  "hole in destination: nothing stored in the mapped pages either");
	fault_clear();
	tap_check(fault_status() == 0 && fault_addr() == 0 &&
		  t_reg(&t, VPUX_REG_IRQ_STATUS) == 0, "fault cleared");
	st = copy(1, 0, src.va, dst.va, 3 * 4096);
	tap_check(fault_status() == fault_word(VPUX_FAULT_REASON_UNMAPPED, true, 0, 1) &&
		  fault_addr() == dst.va + 8192, "next fault latches after clear");
	fault_clear();

	/* read-only second destination page */
	vpux_host_vm_map(t.vm, dst.va + 8192, dst.pa + 8192, 4096, true);
	vpux_host_vm_map(t.vm, dst.va + 4096, dst.pa + 4096, 4096, false);
	st = copy(0, 0, src.va, dst.va, 3 * 4096);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_READONLY, true, 0, 0) &&
		  fault_addr() == dst.va + 4096 && !memcmp(dst.ptr, snap, dst.size),
		  "read-only page in destination: fault, nothing stored");
	fault_clear();
	vpux_host_vm_map(t.vm, dst.va + 4096, dst.pa + 4096, 4096, true);

	/* outside the VA range and outside CMX */
	st = copy(0, 0, 0x1000, dst.va, 64);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_RANGE, false, 0, 0) &&
		  fault_addr() == 0x1000, "below VA base: RANGE");
	fault_clear();
	st = copy(0, 0, src.va, VPUX_DEFAULT_VA_BASE + VPUX_DEFAULT_VA_SIZE, 64);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_RANGE, true, 0, 0),
		  "beyond VA end: RANGE");
	fault_clear();
	st = copy(0, VPUX_MAX_CTX_SLOTS + 3, src.va, dst.va, 64);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_CTX, false,
					       VPUX_MAX_CTX_SLOTS + 3, 0),
		  "nonexistent context slot: CTX");
	fault_clear();
	tap_check(!memcmp(dst.ptr, snap, dst.size), "destination untouched by all faults");

	/* masked MMU fault bit still latches; unmasked signals the handler */
	st = copy(0, 0, src.va, dst.va, 3 * 4096);
	tap_check(st == T_DONE && !memcmp(src.ptr, dst.ptr, dst.size),
		  "copy works again after the faults");
	tap_check(eng_fault_addr(0) == 0, "an op without a fault clears FAULT_ADDR");
	free(snap);
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

static void test_injected(void)
{
	struct t_buf src, dst;
	uint32_t st;

	t_buf_alloc(&t, &src, 4096, true);
	t_buf_alloc(&t, &dst, 4096, true);
	t_fill(src.ptr, 4096);
	t_wreg(&t, VPUX_REG_INJECT, 1 | VPUX_INJECT_MMU_FAULT << 8 | 1 << 16);
	st = copy(1, 0, src.va + 64, dst.va, 128);
	tap_check(st == T_ERR(VPUX_ENG_ERR_MMU) &&
		  fault_status() == fault_word(VPUX_FAULT_REASON_INJECTED, false, 0, 1) &&
		  fault_addr() == src.va + 64, "injected fault at the first access");
	tap_check(dst.ptr[0] == 0 && dst.ptr[127] == 0, "injected fault stored nothing");
	fault_clear();
	st = copy(1, 0, src.va + 64, dst.va, 128);
	tap_check(st == T_DONE && !memcmp(dst.ptr, src.ptr + 64, 128),
		  "next op after an injected fault works");
	t_buf_free(&t, &src);
	t_buf_free(&t, &dst);
}

int main(void)
{
	t_seed(42);
	if (t_open(&t, NULL, true))
		return 1;
	test_handmade_walk();
	test_faults();
	test_injected();
	t_close(&t);
	return tap_finish();
}
