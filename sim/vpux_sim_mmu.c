// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: the MMU and every device memory access an engine makes.
 *
 * A device address is either in CMX ([CMX_BASE, CMX_BASE + tiles * size),
 * on-chip, not translated) or a device VA translated through the op's
 * context slot: a three-level walk of 512-entry tables that the driver
 * wrote into system memory, read with env->phys_read. Leaf PTEs are cached
 * in a small per-slot TLB of each engine that only MMU_INVALIDATE (or
 * reprogramming the slot) drops, as on real hardware.
 *
 * The first fault of an op is recorded in op->fault; the op then fails
 * with VPUX_ENG_ERR_MMU. Writes are checked page by page before the first
 * byte is stored, so a faulting write stores nothing.
 */

#include "vpux_sim_priv.h"

#define VA_PAGE_MASK	(~(u64)(VPUX_PAGE_SIZE - 1))

/* Drop the cached translations of @slots from @op's engine's TLB. */
void vpux_sim_tlb_flush(struct vpux_sim_op *op, u32 slots)
{
	u32 c;

	for (c = 0; c < op->sim->cfg.ctx_slots; c++)
		if (slots & (1u << c))
			memset(&op->tlb[c * VPUX_SIM_TLB_ENTRIES], 0,
			       sizeof(*op->tlb) * VPUX_SIM_TLB_ENTRIES);
}

bool vpux_sim_is_cmx(const struct vpux_sim *sim, u64 addr, u64 len)
{
	return addr >= sim->cmx_base &&
	       addr - sim->cmx_base <= sim->cmx_bytes &&
	       len <= sim->cmx_bytes - (addr - sim->cmx_base);
}

bool vpux_sim_overlaps_cmx(const struct vpux_sim *sim, u64 addr, u64 len)
{
	u64 end = addr + len;	/* callers bound len so this cannot wrap */

	return len && addr < sim->cmx_base + sim->cmx_bytes &&
	       end > sim->cmx_base;
}

void vpux_sim_op_yield(struct vpux_sim_op *op, u64 work)
{
	op->since_yield += work;
	if (op->since_yield >= VPUX_SIM_YIELD_BYTES) {
		op->since_yield = 0;
		op->sim->ops->yield(op->sim->env);
	}
}

/*
 * The op was aborted or reset while being computed: stop storing. Its
 * result is discarded when the executor retakes the lock.
 */
bool vpux_sim_op_cancelled(const struct vpux_sim_op *op)
{
	return VPUX_SIM_READ_ONCE(*op->eng_gen) != op->gen;
}

static int op_fault(struct vpux_sim_op *op, u64 addr, u32 reason, bool write)
{
	if (!op->fault.reason) {
		op->fault.addr = addr;
		op->fault.reason = reason;
		op->fault.write = write;
	}
	op->err = VPUX_ENG_ERR_MMU;
	return -VPUX_ENG_ERR_MMU;
}

static int read_pte(struct vpux_sim *sim, u64 pa, u64 *pte)
{
	u8 b[8];
	int i;

	if (sim->ops->phys_read(sim->env, pa, b, sizeof(b)))
		return -1;
	*pte = 0;
	for (i = 7; i >= 0; i--)
		*pte = *pte << 8 | b[i];
	return 0;
}

/* Translate the page holding @va; returns 0 and the leaf PTE, or faults. */
static int mmu_translate(struct vpux_sim_op *op, u64 va, bool write, u64 *pa)
{
	struct vpux_sim *sim = op->sim;
	struct vpux_sim_tlb_entry *t;
	u64 vpn = va >> VPUX_PAGE_SHIFT;
	u64 table, pte = 0;
	u32 level;

	if (op->ctx >= sim->cfg.ctx_slots || !op->ctx_enabled)
		return op_fault(op, va, VPUX_FAULT_REASON_CTX, write);
	if (va < VPUX_DEFAULT_VA_BASE ||
	    va - VPUX_DEFAULT_VA_BASE >= VPUX_DEFAULT_VA_SIZE ||
	    va >> VPUX_VA_BITS)
		return op_fault(op, va, VPUX_FAULT_REASON_RANGE, write);

	t = &op->tlb[op->ctx * VPUX_SIM_TLB_ENTRIES +
		      (vpn & (VPUX_SIM_TLB_ENTRIES - 1))];
	if (t->tag == vpn + 1) {
		pte = t->pte;
	} else {
		table = op->pt_root & VPUX_PTE_ADDR_MASK;
		for (level = 0; level < VPUX_PT_LEVELS; level++) {
			u32 shift = VPUX_PAGE_SHIFT + 9 * (VPUX_PT_LEVELS - 1 - level);
			u64 idx = (va >> shift) & (VPUX_PT_ENTRIES - 1);

			if (read_pte(sim, table + idx * 8, &pte))
				return op_fault(op, va, VPUX_FAULT_REASON_RANGE,
						write);
			if (!(pte & VPUX_PTE_VALID))
				return op_fault(op, va,
						VPUX_FAULT_REASON_UNMAPPED,
						write);
			table = pte & VPUX_PTE_ADDR_MASK;
		}
		t->tag = vpn + 1;
		t->pte = pte;
	}
	if (write && !(pte & VPUX_PTE_WRITE))
		return op_fault(op, va, VPUX_FAULT_REASON_READONLY, write);
	*pa = (pte & VPUX_PTE_ADDR_MASK) | (va & (VPUX_PAGE_SIZE - 1));
	return 0;
}

/* Common entry checks: injected fault, CMX range, VA wrap. */
static int mem_begin(struct vpux_sim_op *op, u64 addr, u64 len, bool write,
		     bool *cmx)
{
	struct vpux_sim *sim = op->sim;

	if (op->inject_mmu_fault && !op->accessed) {
		op->accessed = true;
		return op_fault(op, addr, VPUX_FAULT_REASON_INJECTED, write);
	}
	op->accessed = true;
	*cmx = false;
	if (!len)
		return 0;
	if (vpux_sim_is_cmx(sim, addr, len)) {
		*cmx = true;
		return 0;
	}
	/* partly in CMX, or wrapping around the address space */
	if (vpux_sim_overlaps_cmx(sim, addr, len) || addr + len < addr)
		return op_fault(op, addr, VPUX_FAULT_REASON_RANGE, write);
	return 0;
}

/**
 * vpux_sim_mem_check() - would an access of [addr, addr + len) succeed?
 * @op: the op making the access
 * @addr: device address
 * @len: bytes
 * @write: the access stores
 *
 * Return: 0, or -VPUX_ENG_ERR_MMU with the fault recorded in @op.
 */
int vpux_sim_mem_check(struct vpux_sim_op *op, u64 addr, u64 len, bool write)
{
	u64 va, pa, end;
	bool cmx;
	int ret;

	ret = mem_begin(op, addr, len, write, &cmx);
	if (ret || cmx || !len)
		return ret;
	end = addr + len;
	for (va = addr; va < end; va = (va & VA_PAGE_MASK) + VPUX_PAGE_SIZE) {
		ret = mmu_translate(op, va, write, &pa);
		if (ret)
			return ret;
	}
	return 0;
}

int vpux_sim_mem_read(struct vpux_sim_op *op, u64 addr, void *dst, u64 len)
{
	struct vpux_sim *sim = op->sim;
	u8 *p = dst;
	bool cmx;
	int ret;

	ret = mem_begin(op, addr, len, false, &cmx);
	if (ret || !len)
		return ret;
	if (cmx) {
		memcpy(dst, sim->cmx + (addr - sim->cmx_base), len);
		return 0;
	}
	while (len) {
		u64 off = addr & (VPUX_PAGE_SIZE - 1);
		u64 n = VPUX_PAGE_SIZE - off;
		u64 pa;

		if (n > len)
			n = len;
		/* a DPU operand may be 256 MiB: stop fetching once aborted */
		if (vpux_sim_op_cancelled(op))
			return -VPUX_ENG_ERR_ABORTED;
		ret = mmu_translate(op, addr, false, &pa);
		if (ret)
			return ret;
		if (sim->ops->phys_read(sim->env, pa, p, n))
			return op_fault(op, addr, VPUX_FAULT_REASON_RANGE,
					false);
		addr += n;
		p += n;
		len -= n;
	}
	return 0;
}

/**
 * vpux_sim_mem_ptr() - [addr, addr + len) of system memory in place
 * @op: the op reading it
 * @addr: device address, not in CMX
 * @len: bytes, not 0
 *
 * Return: a CPU pointer to the bytes vpux_sim_mem_read() would read, if
 * the platform has env->phys_ptr and the range's pages are physically
 * contiguous; else NULL (the caller copies: vpux_sim_mem_read() then
 * also reports a fault).
 */
const void *vpux_sim_mem_ptr(struct vpux_sim_op *op, u64 addr, u64 len)
{
	struct vpux_sim *sim = op->sim;
	u64 va, pa, pa0, end = addr + len;
	bool cmx;

	if (!sim->ops->phys_ptr || !len || (size_t)len != len)
		return NULL;
	if (mem_begin(op, addr, len, false, &cmx) || cmx)
		return NULL;
	if (mmu_translate(op, addr, false, &pa0))
		return NULL;
	for (va = (addr & VA_PAGE_MASK) + VPUX_PAGE_SIZE; va < end;
	     va += VPUX_PAGE_SIZE) {
		if (mmu_translate(op, va, false, &pa) || pa != pa0 + (va - addr))
			return NULL;
	}
	return sim->ops->phys_ptr(sim->env, pa0, (size_t)len);
}

int vpux_sim_mem_write(struct vpux_sim_op *op, u64 addr, const void *src,
		       u64 len)
{
	struct vpux_sim *sim = op->sim;
	const u8 *p = src;
	bool cmx, cancelled;
	int ret, wret = 0;

	ret = vpux_sim_mem_check(op, addr, len, true);
	if (ret || !len)
		return ret;
	cmx = vpux_sim_is_cmx(sim, addr, len);
	while (len) {
		u64 off = addr & (VPUX_PAGE_SIZE - 1);
		u64 n = VPUX_PAGE_SIZE - off;
		u64 pa = 0;

		if (n > len)
			n = len;
		if (cmx) {
			/* on-chip: the driver cannot reuse it, no lock needed */
			if (vpux_sim_op_cancelled(op))
				return -VPUX_ENG_ERR_ABORTED;
			memcpy(sim->cmx + (addr - sim->cmx_base), p, n);
			goto next;
		}
		ret = mmu_translate(op, addr, true, &pa);
		if (ret)
			return ret;
		/*
		 * Store under the register lock: once a write of ABORT,
		 * ENGINE_RESET or RESET has returned, an abandoned op stores
		 * nothing more into system memory, which the driver may then
		 * reclaim at once.
		 */
		sim->ops->lock(sim->env);
		cancelled = vpux_sim_op_cancelled(op);
		if (!cancelled)
			wret = sim->ops->phys_write(sim->env, pa, p, n);
		sim->ops->unlock(sim->env);
		if (cancelled)
			return -VPUX_ENG_ERR_ABORTED;
		if (wret)
			return op_fault(op, addr, VPUX_FAULT_REASON_RANGE, true);
next:
		addr += n;
		p += n;
		len -= n;
	}
	return 0;
}
