// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device address spaces. Every open file gets its own: a drm_mm allocator
 * over the device address range the identity registers report, and page
 * tables in the NPU MMU's format (three levels of 512 little-endian
 * 64-bit entries, 4 KiB pages, see vpux_regs.h). Tables are allocated on
 * demand from coherent DMA memory, the memory the MMU walks; a CPU-side
 * shadow (struct vpux_pt_dir) remembers where each table lives so tables
 * are found and freed without reading them back.
 *
 * Every BO mapping is followed by one unmapped guard page, so an op that
 * overruns its buffer faults instead of reading the next BO.
 */

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "vpux_drv.h"
#include "vpux_mmu.h"

#define VPUX_L1_INDEX(va)	(((va) >> 30) & (VPUX_PT_ENTRIES - 1))
#define VPUX_L2_INDEX(va)	(((va) >> 21) & (VPUX_PT_ENTRIES - 1))
#define VPUX_L3_INDEX(va)	(((va) >> VPUX_PAGE_SHIFT) & (VPUX_PT_ENTRIES - 1))
/* Intermediate entries grant everything; the leaf decides. */
#define VPUX_PTE_TABLE		(VPUX_PTE_VALID | VPUX_PTE_WRITE)

static struct device *ctx_dev(struct vpux_mmu_ctx *ctx)
{
	return ctx->vdev->drm.dev;
}

/*
 * A zeroed page-table page: every entry invalid. Page tables are pinned
 * like BOs and counted against the file's and the device's limits.
 */
static int pt_alloc(struct vpux_mmu_ctx *ctx, struct vpux_pt *pt)
{
	int ret = vpux_mem_charge(ctx, VPUX_PAGE_SIZE);

	if (ret)
		return ret;
	pt->entries = dma_alloc_coherent(ctx_dev(ctx), VPUX_PAGE_SIZE, &pt->dma,
					 GFP_KERNEL);
	if (!pt->entries) {
		vpux_mem_uncharge(ctx, VPUX_PAGE_SIZE);
		return -ENOMEM;
	}
	return 0;
}

static void pt_free(struct vpux_mmu_ctx *ctx, struct vpux_pt *pt)
{
	if (pt->entries) {
		dma_free_coherent(ctx_dev(ctx), VPUX_PAGE_SIZE, pt->entries,
				  pt->dma);
		vpux_mem_uncharge(ctx, VPUX_PAGE_SIZE);
	}
	pt->entries = NULL;
}

static void pt_set(struct vpux_pt *pt, unsigned int idx, u64 entry)
{
	WRITE_ONCE(pt->entries[idx], cpu_to_le64(entry));
}

/**
 * vpux_mmu_ctx_init() - create an empty device address space
 * @vdev: the device
 * @ctx: the address space to initialise
 * @user: its user's record (vpux_user_get()); the address space takes
 *	over the reference, also when it fails
 *
 * Return: 0 or -ENOMEM.
 */
int vpux_mmu_ctx_init(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx,
		      struct vpux_user *user)
{
	ctx->vdev = vdev;
	ctx->user = user;
	ctx->slot = -1;
	ctx->mapped_pages = 0;
	atomic64_set(&ctx->pinned, 0);
	if (pt_alloc(ctx, &ctx->root)) {
		vpux_user_put(user);
		return -ENOMEM;
	}
	mutex_init(&ctx->lock);
	drm_mm_init(&ctx->mm, vdev->hw.va_base, vdev->hw.va_size);
	return 0;
}

/**
 * vpux_mmu_ctx_fini() - free an address space's page tables
 * @ctx: the address space; every mapping must be gone already
 */
void vpux_mmu_ctx_fini(struct vpux_mmu_ctx *ctx)
{
	unsigned int i, j;

	drm_WARN_ON(&ctx->vdev->drm, ctx->mapped_pages);
	drm_WARN_ON(&ctx->vdev->drm, ctx->slot >= 0);
	drm_mm_takedown(&ctx->mm);
	for (i = 0; i < VPUX_PT_ENTRIES; i++) {
		struct vpux_pt_dir *dir = ctx->dirs[i];

		if (!dir)
			continue;
		for (j = 0; j < VPUX_PT_ENTRIES; j++)
			pt_free(ctx, &dir->l3[j]);
		pt_free(ctx, &dir->table);
		kvfree(dir);
		ctx->dirs[i] = NULL;
	}
	pt_free(ctx, &ctx->root);
	mutex_destroy(&ctx->lock);
	vpux_user_put(ctx->user);
}

/**
 * vpux_mmu_root_addr() - the address to program into a slot's MMU_PT
 * @ctx: the address space
 *
 * Return: the bus address of the level-1 table.
 */
u64 vpux_mmu_root_addr(struct vpux_mmu_ctx *ctx)
{
	return ctx->root.dma;
}

/**
 * vpux_mmu_insert_node_locked() - reserve device addresses
 * @ctx: the address space, lock held
 * @size: bytes, a whole number of pages
 * @node: the node to fill; its size includes a trailing guard page
 *
 * Return: 0, or -ENOSPC when the address space is full.
 */
int vpux_mmu_insert_node_locked(struct vpux_mmu_ctx *ctx, u64 size,
				struct drm_mm_node *node)
{
	lockdep_assert_held(&ctx->lock);
	if (size > U64_MAX - VPUX_PAGE_SIZE)
		return -ENOSPC;
	return drm_mm_insert_node_generic(&ctx->mm, node, size + VPUX_PAGE_SIZE,
					  VPUX_PAGE_SIZE, 0, DRM_MM_INSERT_BEST);
}

/* The level-3 table covering @va, allocated (and linked) on demand. */
static struct vpux_pt *pt_leaf_table(struct vpux_mmu_ctx *ctx, u64 va)
{
	unsigned int i1 = VPUX_L1_INDEX(va), i2 = VPUX_L2_INDEX(va);
	struct vpux_pt_dir *dir = ctx->dirs[i1];

	if (!dir) {
		dir = kvzalloc(sizeof(*dir), GFP_KERNEL);
		if (!dir)
			return NULL;
		if (pt_alloc(ctx, &dir->table)) {
			kvfree(dir);
			return NULL;
		}
		ctx->dirs[i1] = dir;
		pt_set(&ctx->root, i1, dir->table.dma | VPUX_PTE_TABLE);
	}
	if (!dir->l3[i2].entries) {
		if (pt_alloc(ctx, &dir->l3[i2]))
			return NULL;
		pt_set(&dir->table, i2, dir->l3[i2].dma | VPUX_PTE_TABLE);
	}
	return &dir->l3[i2];
}

static void vpux_mmu_invalidate_locked(struct vpux_mmu_ctx *ctx)
{
	lockdep_assert_held(&ctx->lock);
	/* make the entries visible before the walker is told to reload */
	wmb();
	vpux_ctx_invalidate(ctx->vdev, ctx);
}

/**
 * vpux_mmu_unmap_locked() - remove the mappings of [@va, @va + @size)
 * @ctx: the address space, lock held
 * @va: first device address, page aligned
 * @size: bytes, page aligned
 *
 * Tables stay allocated (they are few and freed with the context).
 */
void vpux_mmu_unmap_locked(struct vpux_mmu_ctx *ctx, u64 va, u64 size)
{
	u64 end = va + size;

	lockdep_assert_held(&ctx->lock);
	for (; va < end; va += VPUX_PAGE_SIZE) {
		struct vpux_pt_dir *dir = ctx->dirs[VPUX_L1_INDEX(va)];
		struct vpux_pt *leaf = dir ? &dir->l3[VPUX_L2_INDEX(va)] : NULL;

		if (!leaf || !leaf->entries || !leaf->entries[VPUX_L3_INDEX(va)])
			continue;
		pt_set(leaf, VPUX_L3_INDEX(va), 0);
		ctx->mapped_pages--;
	}
	vpux_mmu_invalidate_locked(ctx);
}

/**
 * vpux_mmu_map_sgt_locked() - map a DMA-mapped scatter list at @va
 * @ctx: the address space, lock held
 * @va: first device address, page aligned
 * @sgt: the pages, DMA-mapped for the device
 * @size: bytes to map (the BO's size; @sgt covers at least this)
 * @writable: whether the device may write the pages
 *
 * On failure nothing stays mapped.
 *
 * Return: 0, -ENOMEM, or -EINVAL if @sgt is shorter than @size or has a
 * segment that is not page aligned.
 */
int vpux_mmu_map_sgt_locked(struct vpux_mmu_ctx *ctx, u64 va,
			    struct sg_table *sgt, u64 size, bool writable)
{
	u64 flags = VPUX_PTE_VALID | (writable ? VPUX_PTE_WRITE : 0);
	struct scatterlist *sg;
	u64 done = 0;
	unsigned int i;

	lockdep_assert_held(&ctx->lock);
	for_each_sgtable_dma_sg(sgt, sg, i) {
		dma_addr_t dma = sg_dma_address(sg);
		u64 len = sg_dma_len(sg), off;

		if (!IS_ALIGNED(dma, VPUX_PAGE_SIZE) ||
		    !IS_ALIGNED(len, VPUX_PAGE_SIZE) ||
		    dma + len - 1 > VPUX_PTE_ADDR_MASK) {
			drm_err(&ctx->vdev->drm, "unmappable segment %pad+%#llx\n",
				&dma, len);
			goto err_unmap;
		}
		for (off = 0; off < len && done < size; off += VPUX_PAGE_SIZE) {
			struct vpux_pt *leaf = pt_leaf_table(ctx, va + done);

			if (!leaf) {
				vpux_mmu_unmap_locked(ctx, va, done);
				return -ENOMEM;
			}
			pt_set(leaf, VPUX_L3_INDEX(va + done), (dma + off) | flags);
			ctx->mapped_pages++;
			done += VPUX_PAGE_SIZE;
		}
	}
	if (done < size)
		goto err_unmap;
	vpux_mmu_invalidate_locked(ctx);
	return 0;

err_unmap:
	vpux_mmu_unmap_locked(ctx, va, done);
	return -EINVAL;
}
