/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * vpux NPU accelerator: user-space interface of vpux_accel.ko.
 *
 * The driver registers a DRM accel node (/dev/accel/accelN). Every ioctl
 * argument is a fixed-layout struct with explicit padding; padding and
 * reserved fields must be zero, unknown flags are rejected with -EINVAL.
 * Pointers are passed as __u64.
 *
 * Documentation/uapi.rst describes each ioctl with its errors.
 */
#ifndef __UAPI_DRM_VPUX_ACCEL_H__
#define __UAPI_DRM_VPUX_ACCEL_H__

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DRM_VPUX_UAPI_VERSION_MAJOR - incompatible changes of this interface
 * DRM_VPUX_UAPI_VERSION_MINOR - compatible additions
 */
#define DRM_VPUX_UAPI_VERSION_MAJOR	1
#define DRM_VPUX_UAPI_VERSION_MINOR	1

#define DRM_VPUX_GET_PARAM		0x00
#define DRM_VPUX_BO_CREATE		0x01
#define DRM_VPUX_BO_INFO		0x02

#define DRM_IOCTL_VPUX_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_GET_PARAM, struct drm_vpux_get_param)
#define DRM_IOCTL_VPUX_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_BO_CREATE, struct drm_vpux_bo_create)
#define DRM_IOCTL_VPUX_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_BO_INFO, struct drm_vpux_bo_info)

/*
 * Parameters of DRM_IOCTL_VPUX_GET_PARAM. All are answered from the
 * device's identity registers except DRM_VPUX_PARAM_UAPI_VERSION.
 */
/** @DRM_VPUX_PARAM_DEVICE_ID: PCI-style device id of the NPU */
#define DRM_VPUX_PARAM_DEVICE_ID		0
/** @DRM_VPUX_PARAM_DEVICE_REVISION: hardware revision, major << 16 | minor */
#define DRM_VPUX_PARAM_DEVICE_REVISION		1
/** @DRM_VPUX_PARAM_UAPI_VERSION: this header's version, major << 16 | minor */
#define DRM_VPUX_PARAM_UAPI_VERSION		2
/** @DRM_VPUX_PARAM_NUM_DMA_ENGINES: number of DMA engines */
#define DRM_VPUX_PARAM_NUM_DMA_ENGINES		3
/** @DRM_VPUX_PARAM_NUM_DPU_ENGINES: number of DPU (MAC array) engines */
#define DRM_VPUX_PARAM_NUM_DPU_ENGINES		4
/** @DRM_VPUX_PARAM_NUM_SHAVE_ENGINES: number of SHAVE (DSP) engines */
#define DRM_VPUX_PARAM_NUM_SHAVE_ENGINES	5
/** @DRM_VPUX_PARAM_NUM_TILES: number of on-chip memory (CMX) tiles */
#define DRM_VPUX_PARAM_NUM_TILES		6
/** @DRM_VPUX_PARAM_CMX_SIZE: bytes of on-chip memory per tile */
#define DRM_VPUX_PARAM_CMX_SIZE			7
/** @DRM_VPUX_PARAM_VA_BASE: first device address of a context */
#define DRM_VPUX_PARAM_VA_BASE			8
/** @DRM_VPUX_PARAM_VA_SIZE: size of a context's device address range */
#define DRM_VPUX_PARAM_VA_SIZE			9
/** @DRM_VPUX_PARAM_CAPABILITIES: DRM_VPUX_CAP_* bits */
#define DRM_VPUX_PARAM_CAPABILITIES		10
/** @DRM_VPUX_PARAM_CLOCK_KHZ: device cycle counter frequency in kHz */
#define DRM_VPUX_PARAM_CLOCK_KHZ		11
/** @DRM_VPUX_PARAM_NUM_CONTEXTS: hardware address-space (MMU) contexts */
#define DRM_VPUX_PARAM_NUM_CONTEXTS		12
/** @DRM_VPUX_PARAM_SERIAL: per-device serial number */
#define DRM_VPUX_PARAM_SERIAL			13
/** @DRM_VPUX_PARAM_COUNT: number of defined parameters */
#define DRM_VPUX_PARAM_COUNT			14

/* Capability bits reported by DRM_VPUX_PARAM_CAPABILITIES */
/** @DRM_VPUX_CAP_DMA_4D: DMA engines copy up to 4-D strided blocks */
#define DRM_VPUX_CAP_DMA_4D		(1ull << 0)
/** @DRM_VPUX_CAP_DPU_INT8: DPU engines run int8/uint8 operations */
#define DRM_VPUX_CAP_DPU_INT8		(1ull << 1)
/** @DRM_VPUX_CAP_SHAVE: software kernels run on SHAVE engines */
#define DRM_VPUX_CAP_SHAVE		(1ull << 2)
/** @DRM_VPUX_CAP_MMU: every context has its own device address space */
#define DRM_VPUX_CAP_MMU		(1ull << 3)
/** @DRM_VPUX_CAP_CYCLES: jobs report device cycles */
#define DRM_VPUX_CAP_CYCLES		(1ull << 4)
/** @DRM_VPUX_CAP_FAULT_INJECT: the device supports fault injection */
#define DRM_VPUX_CAP_FAULT_INJECT	(1ull << 5)

/**
 * struct drm_vpux_get_param - query one device parameter
 * @param: in, one of DRM_VPUX_PARAM_*; others fail with -EINVAL
 * @pad: in, must be zero (-EINVAL otherwise)
 * @value: out, the parameter's value
 */
struct drm_vpux_get_param {
	__u32 param;
	__u32 pad;
	__u64 value;
};

/* Buffer object flags (DRM_IOCTL_VPUX_BO_CREATE, DRM_IOCTL_VPUX_BO_INFO) */
/** @DRM_VPUX_BO_CACHED: CPU mappings are cached (the default) */
#define DRM_VPUX_BO_CACHED		(1u << 0)
/** @DRM_VPUX_BO_WC: CPU mappings are write-combined; excludes CACHED */
#define DRM_VPUX_BO_WC			(1u << 1)
/** @DRM_VPUX_BO_DEVICE_READONLY: the NPU may read but not write the BO */
#define DRM_VPUX_BO_DEVICE_READONLY	(1u << 2)
/** @DRM_VPUX_BO_IMPORTED: (BO_INFO only) the BO is an imported dma-buf */
#define DRM_VPUX_BO_IMPORTED		(1u << 3)
/** @DRM_VPUX_BO_CREATE_FLAGS: the flags BO_CREATE accepts */
#define DRM_VPUX_BO_CREATE_FLAGS \
	(DRM_VPUX_BO_CACHED | DRM_VPUX_BO_WC | DRM_VPUX_BO_DEVICE_READONLY)

/**
 * struct drm_vpux_bo_create - create a buffer object
 * @size: in, bytes; rounded up to whole pages. 0 or more than the
 *	device address range fails with -EINVAL; -ENOSPC when the file's
 *	device address space has no room left.
 * @flags: in, DRM_VPUX_BO_CREATE_FLAGS; others, or CACHED with WC,
 *	fail with -EINVAL
 * @handle: out, GEM handle, valid in the calling file only
 * @device_addr: out, the BO's address in the file's device address
 *	space. The BO is mapped there from creation until it is freed;
 *	its pages start zeroed.
 *
 * The BO is backed by shmem pages and can be mapped by the CPU through
 * the offset DRM_IOCTL_VPUX_BO_INFO returns, exported with PRIME and
 * closed with DRM_IOCTL_GEM_CLOSE. An imported dma-buf gets its own
 * device address in the importing file.
 */
struct drm_vpux_bo_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 device_addr;
};

/**
 * struct drm_vpux_bo_info - describe a buffer object
 * @handle: in, a GEM handle of the calling file (-ENOENT otherwise)
 * @flags: out, DRM_VPUX_BO_* flags of the BO
 * @size: out, bytes (a whole number of pages)
 * @device_addr: out, address in the calling file's device address space
 * @mmap_offset: out, offset to pass to mmap() on the device file
 */
struct drm_vpux_bo_info {
	__u32 handle;
	__u32 flags;
	__u64 size;
	__u64 device_addr;
	__u64 mmap_offset;
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_VPUX_ACCEL_H__ */
