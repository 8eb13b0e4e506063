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
#define DRM_VPUX_UAPI_VERSION_MINOR	4

#define DRM_VPUX_GET_PARAM		0x00
#define DRM_VPUX_BO_CREATE		0x01
#define DRM_VPUX_BO_INFO		0x02
#define DRM_VPUX_SUBMIT			0x03
#define DRM_VPUX_WAIT			0x04

#define DRM_IOCTL_VPUX_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_GET_PARAM, struct drm_vpux_get_param)
#define DRM_IOCTL_VPUX_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_BO_CREATE, struct drm_vpux_bo_create)
#define DRM_IOCTL_VPUX_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_BO_INFO, struct drm_vpux_bo_info)
#define DRM_IOCTL_VPUX_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_SUBMIT, struct drm_vpux_submit)
#define DRM_IOCTL_VPUX_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_WAIT, struct drm_vpux_wait)

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
/**
 * @DRM_VPUX_PARAM_BO_MEMORY_LIMIT: bytes of system memory all BOs created
 * on this device may pin together (BO_CREATE fails with -ENOMEM beyond)
 */
#define DRM_VPUX_PARAM_BO_MEMORY_LIMIT		14
/** @DRM_VPUX_PARAM_BO_MEMORY_USED: bytes pinned by the device's BOs now */
#define DRM_VPUX_PARAM_BO_MEMORY_USED		15
/** @DRM_VPUX_PARAM_COUNT: number of defined parameters */
#define DRM_VPUX_PARAM_COUNT			16

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

/** @DRM_VPUX_MAX_ADDR_ENTRIES: address-list entries of one job, task included */
#define DRM_VPUX_MAX_ADDR_ENTRIES	64
/** @DRM_VPUX_MAX_IN_SYNCOBJS: in-fences of one job */
#define DRM_VPUX_MAX_IN_SYNCOBJS	64
/** @DRM_VPUX_PRIORITY_LOW: job priorities, DRM_VPUX_PRIORITY_LOW .. _REALTIME */
#define DRM_VPUX_PRIORITY_LOW		0
#define DRM_VPUX_PRIORITY_NORMAL	1
#define DRM_VPUX_PRIORITY_HIGH		2
#define DRM_VPUX_PRIORITY_REALTIME	3

/**
 * struct drm_vpux_buf - one entry of a job's address list
 * @handle: GEM handle of a BO of the submitting file
 * @pad: must be zero
 * @offset: byte offset in the BO
 * @size: bytes from @offset the job may touch; at least 1, and
 *	@offset + @size must lie inside the BO
 */
struct drm_vpux_buf {
	__u32 handle;
	__u32 pad;
	__u64 offset;
	__u64 size;
};

/**
 * struct drm_vpux_syncobj - a syncobj handle and timeline point
 * @handle: syncobj handle of the submitting file
 * @pad: must be zero
 * @point: timeline point, 0 for a binary syncobj
 */
struct drm_vpux_syncobj {
	__u32 handle;
	__u32 pad;
	__u64 point;
};

/**
 * struct drm_vpux_submit - queue a job (one task for the engine core)
 * @task: the task memory (Documentation/task-format.rst); it becomes
 *	entry 0 of the address list the task's buffer references index
 * @buffers: user pointer to @buffer_count struct drm_vpux_buf, entries
 *	1..@buffer_count of the address list
 * @buffer_count: 0 .. DRM_VPUX_MAX_ADDR_ENTRIES - 1
 * @in_syncobj_count: 0 .. DRM_VPUX_MAX_IN_SYNCOBJS
 * @in_syncobjs: user pointer to @in_syncobj_count struct drm_vpux_syncobj
 *	the job waits for before it starts
 * @out_syncobj: syncobj that receives the job's completion fence (at
 *	@out_point for a timeline), or 0
 * @priority: DRM_VPUX_PRIORITY_*
 * @out_point: timeline point of @out_syncobj, 0 for binary
 * @flags: DRM_VPUX_SUBMIT_* flags
 * @pad: must be zero
 * @seqno: out: the job's number in this file, for DRM_IOCTL_VPUX_WAIT
 * @profile: with DRM_VPUX_SUBMIT_PROFILE (uapi 1.4), where the kernel
 *	writes the job's struct drm_vpux_profile: a range of a BO of this
 *	file the device may write, offset 8-byte aligned, at least 16 bytes;
 *	all zero without the flag
 *
 * Every BO is also fenced (its dma_resv gets the job's fence). The task is
 * validated by the engine core before anything is programmed; a bad one
 * completes with DRM_VPUX_STATUS_ERROR and the core's error code.
 */
struct drm_vpux_submit {
	struct drm_vpux_buf task;
	__u64 buffers;
	__u32 buffer_count;
	__u32 in_syncobj_count;
	__u64 in_syncobjs;
	__u32 out_syncobj;
	__u32 priority;
	__u64 out_point;
	__u32 flags;
	__u32 pad;
	__u64 seqno;
	struct drm_vpux_buf profile;
};

/*
 * DRM_VPUX_SUBMIT_PROFILE - record each op's engine cycles in
 * drm_vpux_submit.profile (uapi 1.4). A kernel of an older minor refuses
 * the flag with -EINVAL.
 */
#define DRM_VPUX_SUBMIT_PROFILE		(1u << 0)
#define DRM_VPUX_SUBMIT_FLAGS		DRM_VPUX_SUBMIT_PROFILE

/**
 * struct drm_vpux_profile - a job's per-op cycles, written by the kernel
 * @op_count: the task's ops per engine kind: DMA, DPU, SHAVE
 * @entries: entries of @op_cycles written; fewer than the ops when the
 *	profile range is too small for all of them
 * @op_cycles: each op's engine cycles (VPUX_ENG_OP_CYCLES; 0 for an op
 *	that did not complete): the DMA ops, then the DPU ops, then the
 *	SHAVE ops, each kind in task order
 *
 * SUBMIT zeroes the header; the kernel fills the record when the job
 * leaves the engine core (done, failed, or aborted after a hang), before
 * its fence signals, so it is complete once WAIT reports the job. A job
 * the core refused, or that never ran, leaves the header zero.
 */
struct drm_vpux_profile {
	__u32 op_count[3];
	__u32 entries;
	__u32 op_cycles[];
};

/* Job status reported by DRM_IOCTL_VPUX_WAIT */
/** @DRM_VPUX_STATUS_DONE: every op of the task completed */
#define DRM_VPUX_STATUS_DONE		1
/** @DRM_VPUX_STATUS_ERROR: refused by the core or an engine error; see @error */
#define DRM_VPUX_STATUS_ERROR		2
/** @DRM_VPUX_STATUS_MMU_FAULT: an op faulted at @fault_addr */
#define DRM_VPUX_STATUS_MMU_FAULT	3
/** @DRM_VPUX_STATUS_TIMEOUT: the job hung and was aborted */
#define DRM_VPUX_STATUS_TIMEOUT		4
/** @DRM_VPUX_STATUS_ABORTED: the job never ran (file banned or closed) */
#define DRM_VPUX_STATUS_ABORTED		5

/*
 * DRM_VPUX_WAIT_BO - WAIT for a buffer object: @seqno holds a GEM handle
 * of this file (upper 32 bits zero). WAIT returns once every job using
 * the BO, of any file sharing it, has finished, with the result of the
 * last job that used the BO, however many jobs the file ran since (each
 * BO keeps its last job's result; threads sharing a file wait on their
 * own BOs). DRM_VPUX_STATUS_DONE with zero cycles when no job used it.
 */
#define DRM_VPUX_WAIT_BO		(1u << 0)
#define DRM_VPUX_WAIT_FLAGS		DRM_VPUX_WAIT_BO

/**
 * struct drm_vpux_wait - wait for a job (or a BO) and read the job's result
 * @seqno: in, a job number SUBMIT returned to this file. The last 256 jobs
 *	of a file can be waited for; an older or unknown one gives -ENOENT.
 *	With DRM_VPUX_WAIT_BO, a BO handle; -ENOENT if the file has none such.
 * @timeout_ns: in, absolute CLOCK_MONOTONIC time; -ETIMEDOUT if the job
 *	is not done by then (0 polls)
 * @flags: in, DRM_VPUX_WAIT_* flags
 * @status: out, DRM_VPUX_STATUS_*
 * @error: out, 0 or the negative engine-core error (DLA_ERR_*) or errno
 * @fail_op: out, for errors raised by an op on an engine (fault, engine
 *	error, hang): engine kind << 24 | op index; 0 when the core refused
 *	the task memory (its log message names the op and field)
 * @fault_addr: out, faulting device address for DRM_VPUX_STATUS_MMU_FAULT
 * @device_cycles: out, device cycles from the task's start to its end
 * @op_cycles: out, sum of the ops' engine cycles
 */
struct drm_vpux_wait {
	__u64 seqno;
	__s64 timeout_ns;
	__u32 flags;
	__u32 status;
	__s32 error;
	__u32 fail_op;
	__u64 fault_addr;
	__u64 device_cycles;
	__u64 op_cycles;
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_VPUX_ACCEL_H__ */
