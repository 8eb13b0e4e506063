/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Buffer objects: GEM shmem objects mapped into one file's device
 * address space.
 */
#ifndef __VPUX_GEM_H__
#define __VPUX_GEM_H__

#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_mm.h>

#include "vpux_job.h"

struct dma_buf;
struct vpux_mmu_ctx;

/**
 * struct vpux_bo - a buffer object
 * @base: the shmem GEM object
 * @ctx: the address space the BO is mapped in (the file that created or
 *	imported it), NULL before the first handle and after that file
 *	closed; protected by vpux_device.bo_lock
 * @node: the BO's device addresses in @ctx (plus a guard page)
 * @ctx_link: entry in vpux_file_priv.bos, under vpux_device.bo_lock
 * @device_addr: first device address, valid while @ctx is set
 * @flags: DRM_VPUX_BO_* flags; fixed once the BO exists
 * @foreign: an import of a dma-buf another driver exported
 * @charged: bytes counted against @owner and its device for this BO
 * @owner: the file that created the BO (a reference), NULL for imports
 * @last_seqno: number of the last job that used the BO (in the file of
 *	@ctx), 0 if none; written under the BO's reservation lock and
 *	vpux_device.result_lock, read under either
 * @last_result: that job's result once @last_done, under result_lock
 * @last_done: @last_result is valid
 * @kmap: kernel mapping, made when a job first uses the BO as its task
 *	memory and kept until the BO is freed; under the reservation lock
 */
struct vpux_bo {
	struct drm_gem_shmem_object base;
	struct vpux_mmu_ctx *ctx;
	struct drm_mm_node node;
	struct list_head ctx_link;
	u64 device_addr;
	u32 flags;
	bool foreign;
	u64 charged;
	struct vpux_file_priv *owner;
	u64 last_seqno;
	struct vpux_job_result last_result;
	bool last_done;
	struct iosys_map kmap;
};

static inline struct vpux_bo *to_vpux_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct vpux_bo, base.base);
}

struct drm_gem_object *vpux_gem_create_object(struct drm_device *dev,
					       size_t size);
struct drm_gem_object *vpux_gem_prime_import(struct drm_device *dev,
					     struct dma_buf *dma_buf);
u64 vpux_bo_memory_limit(void);
u64 vpux_file_memory_limit(void);
int vpux_bo_kmap(struct vpux_bo *bo, void **vaddr);
void vpux_bo_unbind_all(struct vpux_device *vdev, struct list_head *bos);

int vpux_bo_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);
int vpux_bo_info_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file);

#endif /* __VPUX_GEM_H__ */
