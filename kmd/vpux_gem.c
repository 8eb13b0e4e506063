// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffer objects. A BO is a GEM shmem object that lives in exactly one
 * device address space: the one of the file that created it (or that
 * imported the dma-buf it wraps). It is mapped there when its first
 * handle is created, i.e. on BO_CREATE or PRIME import, and stays mapped
 * until it is freed or that file is closed; a BO of another file is never
 * reachable through this file's address space. Importing a dma-buf always
 * creates a new BO, even when it was exported by this device, so each
 * importer gets its own mapping.
 *
 * Locking: vpux_device.bo_lock protects every BO's binding (ctx, node,
 * list entry) against a concurrent close of the file; it is taken before
 * the address space's lock. Pages are pinned (and DMA-mapped) before
 * either is taken, under the object's reservation lock only.
 */

#include <linux/dma-buf.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_prime.h>

#include "vpux_accel.h"
#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_mmu.h"

static const struct drm_gem_object_funcs vpux_gem_funcs;

/*
 * BO pages are pinned for the BO's whole life (the NPU may touch them at
 * any time), and so are page tables: they cannot be reclaimed. So what a
 * file pins (its BOs and its address space's page tables) is capped per
 * file, per user on all devices (vpux_user.c) and per device, and the
 * devices' caps together never exceed the machine's memory. Imported
 * BOs are not counted (their exporter owns the memory).
 */
static unsigned int bo_memory_limit_mb;
module_param(bo_memory_limit_mb, uint, 0644);
MODULE_PARM_DESC(bo_memory_limit_mb,
		 "MiB of system memory the BOs and page tables of one device may pin (0: half of RAM, the default; at most RAM / the number of NPUs bound)");

static unsigned int file_memory_limit_mb;
module_param(file_memory_limit_mb, uint, 0644);
MODULE_PARM_DESC(file_memory_limit_mb,
		 "MiB one open file may pin (0: its user's limit, the default; at most the device's and the user's)");

/**
 * vpux_bo_memory_limit() - bytes the BOs and page tables of a device may
 *	pin together
 *
 * Return: bo_memory_limit_mb in bytes, or half of RAM when it is 0; at
 * most RAM divided by the number of devices the driver is bound to.
 */
u64 vpux_bo_memory_limit(void)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	u64 mb = READ_ONCE(bo_memory_limit_mb);
	u64 limit = mb ? mb << 20 : ram / 2;

	return min(limit, div_u64(ram, vpux_num_devices()));
}

/**
 * vpux_file_memory_limit() - bytes one file may pin
 *
 * Return: file_memory_limit_mb in bytes, or its user's limit when it is
 * 0; at most the device's limit and the user's.
 */
u64 vpux_file_memory_limit(void)
{
	u64 cap = min(vpux_bo_memory_limit(), vpux_user_memory_limit());
	u64 mb = READ_ONCE(file_memory_limit_mb);

	return mb ? min(mb << 20, cap) : cap;
}

/**
 * vpux_mem_charge() - count pinned memory against a file, its user and
 *	its device
 * @ctx: the file's address space (its counter)
 * @size: bytes
 *
 * Return: 0, or -ENOMEM (nothing counted) when the file, the user or the
 * device would go over its limit.
 */
int vpux_mem_charge(struct vpux_mmu_ctx *ctx, u64 size)
{
	struct vpux_device *vdev = ctx->vdev;
	u64 dev_limit = vpux_bo_memory_limit();
	u64 file_limit = vpux_file_memory_limit();

	if (atomic64_add_return(size, &ctx->pinned) > file_limit) {
		atomic64_sub(size, &ctx->pinned);
		vpux_dbg(vdev, "%llu bytes would take the file over its memory limit of %llu\n",
			 size, file_limit);
		return -ENOMEM;
	}
	if (vpux_user_charge(ctx->user, size)) {
		atomic64_sub(size, &ctx->pinned);
		vpux_dbg(vdev, "%llu bytes would take the user over its memory limit of %llu (all NPUs)\n",
			 size, vpux_user_memory_limit());
		return -ENOMEM;
	}
	if (atomic64_add_return(size, &vdev->bo_pinned) > dev_limit) {
		atomic64_sub(size, &vdev->bo_pinned);
		vpux_user_uncharge(ctx->user, size);
		atomic64_sub(size, &ctx->pinned);
		vpux_dbg(vdev, "%llu bytes would take the device over its memory limit of %llu\n",
			 size, dev_limit);
		return -ENOMEM;
	}
	return 0;
}

/**
 * vpux_mem_uncharge() - give back what vpux_mem_charge() counted
 * @ctx: the file's address space
 * @size: bytes
 */
void vpux_mem_uncharge(struct vpux_mmu_ctx *ctx, u64 size)
{
	atomic64_sub(size, &ctx->pinned);
	vpux_user_uncharge(ctx->user, size);
	atomic64_sub(size, &ctx->vdev->bo_pinned);
}

/**
 * vpux_gem_create_object() - &drm_driver.gem_create_object
 * @dev: DRM device
 * @size: object size
 *
 * Return: the embedded GEM object of a new, unbound vpux_bo.
 */
struct drm_gem_object *vpux_gem_create_object(struct drm_device *dev,
					       size_t size)
{
	struct vpux_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL);

	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &vpux_gem_funcs;
	/* the NPU may write any page of a BO at any time */
	bo->base.pages_mark_dirty_on_put = true;
	INIT_LIST_HEAD(&bo->ctx_link);
	return &bo->base.base;
}

/* Remove @bo from its address space. */
static void vpux_bo_unbind_locked(struct vpux_device *vdev, struct vpux_bo *bo)
{
	struct vpux_mmu_ctx *ctx = bo->ctx;

	lockdep_assert_held(&vdev->bo_lock);
	if (!ctx)
		return;
	mutex_lock(&ctx->lock);
	vpux_mmu_unmap_locked(ctx, bo->device_addr, bo->base.base.size);
	drm_mm_remove_node(&bo->node);
	mutex_unlock(&ctx->lock);
	list_del_init(&bo->ctx_link);
	bo->ctx = NULL;
}

/**
 * vpux_bo_unbind_all() - unmap every BO still bound to a closing file
 * @vdev: the device
 * @bos: the file's list of BOs
 *
 * BOs outlive the file when something else holds a reference (an
 * exported dma-buf); they lose their device mapping here.
 */
void vpux_bo_unbind_all(struct vpux_device *vdev, struct list_head *bos)
{
	struct vpux_bo *bo, *tmp;

	mutex_lock(&vdev->bo_lock);
	list_for_each_entry_safe(bo, tmp, bos, ctx_link)
		vpux_bo_unbind_locked(vdev, bo);
	mutex_unlock(&vdev->bo_lock);
}

/* &drm_gem_object_funcs.open: a handle is created in @file. */
static int vpux_gem_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(obj->dev);
	struct vpux_file_priv *fpriv = file->driver_priv;
	struct vpux_mmu_ctx *ctx = &fpriv->ctx;
	struct vpux_bo *bo = to_vpux_bo(obj);
	struct sg_table *sgt;
	int ret;

	if (obj->import_attach)
		sgt = bo->base.sgt;
	else
		sgt = drm_gem_shmem_get_pages_sgt(&bo->base);
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);

	mutex_lock(&vdev->bo_lock);
	if (bo->ctx) {
		/* a second handle in the same file is fine; in another, not */
		ret = bo->ctx == ctx ? 0 : -EALREADY;
		goto out_unlock;
	}

	mutex_lock(&ctx->lock);
	ret = vpux_mmu_insert_node_locked(ctx, obj->size, &bo->node);
	if (ret)
		goto out_unlock_ctx;
	ret = vpux_mmu_map_sgt_locked(ctx, bo->node.start, sgt, obj->size,
				      !(bo->flags & DRM_VPUX_BO_DEVICE_READONLY));
	if (ret) {
		drm_mm_remove_node(&bo->node);
		goto out_unlock_ctx;
	}
	bo->device_addr = bo->node.start;
	bo->ctx = ctx;
	list_add_tail(&bo->ctx_link, &fpriv->bos);

out_unlock_ctx:
	mutex_unlock(&ctx->lock);
out_unlock:
	mutex_unlock(&vdev->bo_lock);
	return ret;
}

/**
 * vpux_bo_kmap() - the BO's kernel mapping, for the engine core
 * @bo: the BO (a task BO of a job being submitted)
 * @vaddr: set to the mapping's address
 *
 * Mapping a BO and unmapping it again per job costs more than the rest
 * of a small job's submission (the unmap flushes TLBs on every CPU), so
 * the first job that needs it makes the mapping and it lasts as long as
 * the BO.
 *
 * Return: 0; -EINVAL for memory the CPU cannot map as system memory; or
 * the vmap's errno.
 */
int vpux_bo_kmap(struct vpux_bo *bo, void **vaddr)
{
	struct drm_gem_object *obj = &bo->base.base;
	struct iosys_map map;
	int ret = 0;

	dma_resv_lock(obj->resv, NULL);
	if (!bo->kmap.vaddr) {
		ret = drm_gem_shmem_vmap(&bo->base, &map);
		if (!ret && map.is_iomem) {
			drm_gem_shmem_vunmap(&bo->base, &map);
			ret = -EINVAL;
		}
		if (!ret)
			bo->kmap = map;
	}
	*vaddr = bo->kmap.vaddr;
	dma_resv_unlock(obj->resv);
	return ret;
}

static void vpux_gem_free(struct drm_gem_object *obj)
{
	struct vpux_device *vdev = to_vpux_device(obj->dev);
	struct vpux_bo *bo = to_vpux_bo(obj);

	if (bo->kmap.vaddr) {
		dma_resv_lock(obj->resv, NULL);
		drm_gem_shmem_vunmap(&bo->base, &bo->kmap);
		dma_resv_unlock(obj->resv);
	}

	mutex_lock(&vdev->bo_lock);
	vpux_bo_unbind_locked(vdev, bo);
	mutex_unlock(&vdev->bo_lock);
	if (bo->owner) {
		vpux_mem_uncharge(&bo->owner->ctx, bo->charged);
		vpux_file_priv_put(bo->owner);
	}
	drm_gem_shmem_free(&bo->base);
}

/* A dma-buf whose file is not open for writing: a read-only capability. */
static bool vpux_dmabuf_readonly(const struct dma_buf *dma_buf)
{
	return !(dma_buf->file->f_mode & FMODE_WRITE);
}

/*
 * &drm_gem_object_funcs.mmap: the accel file's mmap offset. An import of
 * a read-only dma-buf keeps its file's rights here too: drm_gem_shmem's
 * mmap hands an import's VMA to dma_buf_mmap(), which checks nothing
 * against the dma-buf's file, so through the accel file (open O_RDWR)
 * the mapping would be writable. A writable mapping is refused as
 * mmap() of the dma-buf itself refuses it, and VM_MAYWRITE goes, so
 * that mprotect() cannot add PROT_WRITE later.
 */
static int vpux_gem_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	if (obj->import_attach &&
	    vpux_dmabuf_readonly(obj->import_attach->dmabuf)) {
		if (vma->vm_flags & VM_WRITE) {
			drm_dbg_ratelimited(obj->dev,
					    "mmap: a writable mapping of a read-only import\n");
			return -EACCES;
		}
		vm_flags_clear(vma, VM_MAYWRITE);
	}
	return drm_gem_shmem_object_mmap(obj, vma);
}

static const struct drm_gem_object_funcs vpux_gem_funcs = {
	.free = vpux_gem_free,
	.open = vpux_gem_open,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = vpux_gem_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/*
 * The BO behind a dma-buf this driver exported (from any vpux device), or
 * NULL. drm_gem_prime_export()'s dma-bufs, and those of drivers that
 * reuse its release, hold a GEM object in @priv (drm_gem_dmabuf_release()
 * puts it); ours are those with our object functions. The dma-buf holds
 * the object, and the caller the dma-buf.
 */
static struct vpux_bo *vpux_dmabuf_bo(struct dma_buf *dma_buf)
{
	struct drm_gem_object *obj = dma_buf->priv;

	if (dma_buf->ops->release != drm_gem_dmabuf_release ||
	    obj->funcs != &vpux_gem_funcs)
		return NULL;
	return to_vpux_bo(obj);
}

/*
 * What the device may do with an imported dma-buf: only read it when its
 * exporter's BO is DEVICE_READONLY, or when the dma-buf's file is not
 * open for writing (exported without O_RDWR / DRM_RDWR: a read-only
 * capability, which the CPU is held to as well: mmap() of the dma-buf by
 * the dma-buf core, of the import through the accel file by
 * vpux_gem_mmap()).
 */
static u32 vpux_import_flags(struct dma_buf *dma_buf, bool *foreign)
{
	struct vpux_bo *src = vpux_dmabuf_bo(dma_buf);
	u32 flags = DRM_VPUX_BO_IMPORTED;

	*foreign = !src;
	if (src && (src->flags & DRM_VPUX_BO_DEVICE_READONLY))
		flags |= DRM_VPUX_BO_DEVICE_READONLY;
	if (vpux_dmabuf_readonly(dma_buf))
		flags |= DRM_VPUX_BO_DEVICE_READONLY;
	return flags;
}

/**
 * vpux_gem_prime_import() - &drm_driver.gem_prime_import
 * @dev: DRM device
 * @dma_buf: the buffer to import
 *
 * Always attaches, even to a dma-buf this device exported: the importing
 * file gets a BO of its own, mapped in its own address space. The BO is
 * DEVICE_READONLY (mapped without write permission, refused by SUBMIT as
 * a destination) when the exporter's BO is, or when @dma_buf's file is
 * not open for writing.
 *
 * Return: the new GEM object or an ERR_PTR.
 */
struct drm_gem_object *vpux_gem_prime_import(struct drm_device *dev,
					     struct dma_buf *dma_buf)
{
	struct dma_buf_attachment *attach;
	struct drm_gem_object *obj;
	struct sg_table *sgt;
	struct vpux_bo *bo;
	int ret;

	attach = dma_buf_attach(dma_buf, dev->dev);
	if (IS_ERR(attach))
		return ERR_CAST(attach);
	get_dma_buf(dma_buf);

	sgt = dma_buf_map_attachment_unlocked(attach, DMA_BIDIRECTIONAL);
	if (IS_ERR(sgt)) {
		ret = PTR_ERR(sgt);
		goto err_detach;
	}

	obj = drm_gem_shmem_prime_import_sg_table(dev, attach, sgt);
	if (IS_ERR(obj)) {
		ret = PTR_ERR(obj);
		goto err_unmap;
	}
	obj->import_attach = attach;
	obj->resv = dma_buf->resv;
	bo = to_vpux_bo(obj);
	bo->flags = vpux_import_flags(dma_buf, &bo->foreign);
	return obj;

err_unmap:
	dma_buf_unmap_attachment_unlocked(attach, sgt, DMA_BIDIRECTIONAL);
err_detach:
	dma_buf_detach(dma_buf, attach);
	dma_buf_put(dma_buf);
	return ERR_PTR(ret);
}

/**
 * vpux_bo_create_ioctl() - DRM_IOCTL_VPUX_BO_CREATE
 * @dev: DRM device
 * @data: struct drm_vpux_bo_create
 * @file: caller
 *
 * Return: 0; -EINVAL for bad flags or size; -ENOSPC when the file's
 * address space is full; -ENOMEM, also when the file or the device would
 * pin more than its limit (vpux_mem_charge()); -ENODEV after unplug.
 */
int vpux_bo_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct vpux_file_priv *fpriv = file->driver_priv;
	struct drm_vpux_bo_create *args = data;
	struct drm_gem_shmem_object *shmem;
	struct vpux_bo *bo;
	u64 size;
	u32 handle;
	int idx, ret;

	if (args->flags & ~DRM_VPUX_BO_CREATE_FLAGS) {
		vpux_dbg(vdev, "BO_CREATE: unknown flags %#x\n",
			 args->flags & ~DRM_VPUX_BO_CREATE_FLAGS);
		return -EINVAL;
	}
	if ((args->flags & DRM_VPUX_BO_CACHED) && (args->flags & DRM_VPUX_BO_WC)) {
		vpux_dbg(vdev, "BO_CREATE: CACHED and WC are exclusive\n");
		return -EINVAL;
	}
	if (!args->size || args->size > vdev->hw.va_size) {
		vpux_dbg(vdev, "BO_CREATE: bad size %llu\n", args->size);
		return -EINVAL;
	}

	if (!drm_dev_enter(dev, &idx))
		return -ENODEV;

	size = PAGE_ALIGN(args->size);
	ret = vpux_mem_charge(&fpriv->ctx, size);
	if (ret)
		goto out_exit;
	shmem = drm_gem_shmem_create(dev, size);
	if (IS_ERR(shmem)) {
		vpux_mem_uncharge(&fpriv->ctx, size);
		ret = PTR_ERR(shmem);
		goto out_exit;
	}
	bo = to_vpux_bo(&shmem->base);
	/* from here on, vpux_gem_free() gives the charge back */
	bo->charged = size;
	bo->owner = fpriv;
	kref_get(&fpriv->ref);
	bo->flags = args->flags;
	if (!(bo->flags & DRM_VPUX_BO_WC))
		bo->flags |= DRM_VPUX_BO_CACHED;
	shmem->map_wc = !!(bo->flags & DRM_VPUX_BO_WC);

	/* maps the BO into the file's address space (vpux_gem_open) */
	ret = drm_gem_handle_create(file, &shmem->base, &handle);
	if (!ret) {
		args->handle = handle;
		args->device_addr = bo->device_addr;
	}
	drm_gem_object_put(&shmem->base);
out_exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * vpux_bo_info_ioctl() - DRM_IOCTL_VPUX_BO_INFO
 * @dev: DRM device
 * @data: struct drm_vpux_bo_info
 * @file: caller
 *
 * Return: 0; -ENOENT for a handle the file does not have; -ENOMEM.
 */
int vpux_bo_info_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct drm_vpux_bo_info *args = data;
	struct drm_gem_object *obj;
	struct vpux_bo *bo;
	int ret;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_vpux_bo(obj);

	ret = drm_gem_create_mmap_offset(obj);
	if (!ret) {
		mutex_lock(&vdev->bo_lock);
		args->flags = bo->flags;
		args->size = obj->size;
		args->device_addr = bo->device_addr;
		mutex_unlock(&vdev->bo_lock);
		args->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	}
	drm_gem_object_put(obj);
	return ret;
}

MODULE_IMPORT_NS(DMA_BUF);
