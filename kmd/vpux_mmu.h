/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device address spaces: one per open file, page tables in the format the
 * NPU's MMU walks (include/hw/vpux_regs.h).
 */
#ifndef __VPUX_MMU_H__
#define __VPUX_MMU_H__

#include <linux/mutex.h>
#include <linux/dma-mapping.h>
#include <linux/types.h>

#include <drm/drm_mm.h>

#include "vpux_regs.h"

struct sg_table;
struct vpux_device;

/**
 * struct vpux_pt - one page-table page
 * @entries: CPU address of its VPUX_PT_ENTRIES entries, NULL if absent
 * @dma: the address the MMU reads it at
 */
struct vpux_pt {
	__le64 *entries;
	dma_addr_t dma;
};

/**
 * struct vpux_pt_dir - shadow of one level-2 table and its level-3 tables
 * @table: the level-2 table
 * @l3: the level-3 tables it points to
 */
struct vpux_pt_dir {
	struct vpux_pt table;
	struct vpux_pt l3[VPUX_PT_ENTRIES];
};

/**
 * struct vpux_mmu_ctx - a device address space
 * @vdev: the device
 * @user: the user whose file it is, charged with what @pinned counts
 *	(vpux_user.c); a reference held until vpux_mmu_ctx_fini()
 * @lock: protects @mm and the page tables
 * @mm: allocator of device addresses in [va_base, va_base + va_size)
 * @root: the level-1 table; its physical address goes into MMU_PT of
 *	the context slot the address space is bound to
 * @dirs: shadow of the level-1 entries, NULL where none is allocated
 * @slot: hardware context slot the address space is bound to, or -1;
 *	under vpux_device.fw.lock (vpux_sched.c)
 * @mapped_pages: pages currently mapped (for debugfs and fdinfo)
 * @pinned: bytes the file pins: its BOs and these page tables
 *	(vpux_mem_charge())
 */
struct vpux_mmu_ctx {
	struct vpux_device *vdev;
	struct vpux_user *user;
	struct mutex lock;
	struct drm_mm mm;
	struct vpux_pt root;
	struct vpux_pt_dir *dirs[VPUX_PT_ENTRIES];
	int slot;
	u64 mapped_pages;
	atomic64_t pinned;
};

int vpux_mmu_ctx_init(struct vpux_device *vdev, struct vpux_mmu_ctx *ctx,
		      struct vpux_user *user);
void vpux_mmu_ctx_fini(struct vpux_mmu_ctx *ctx);
int vpux_mmu_insert_node_locked(struct vpux_mmu_ctx *ctx, u64 size,
				struct drm_mm_node *node);
int vpux_mmu_map_sgt_locked(struct vpux_mmu_ctx *ctx, u64 va,
			    struct sg_table *sgt, u64 size, bool writable);
void vpux_mmu_unmap_locked(struct vpux_mmu_ctx *ctx, u64 va, u64 size);
u64 vpux_mmu_root_addr(struct vpux_mmu_ctx *ctx);
int vpux_mem_charge(struct vpux_mmu_ctx *ctx, u64 size);

/* vpux_user.c */
struct vpux_user *vpux_user_get(const struct cred *cred);
void vpux_user_put(struct vpux_user *u);
int vpux_user_charge(struct vpux_user *u, u64 size);
void vpux_user_uncharge(struct vpux_user *u, u64 size);
u64 vpux_user_pinned(struct vpux_user *u);
u64 vpux_user_memory_limit(void);
void vpux_mem_uncharge(struct vpux_mmu_ctx *ctx, u64 size);

#endif /* __VPUX_MMU_H__ */
