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
#define DRM_VPUX_UAPI_VERSION_MAJOR	2
#define DRM_VPUX_UAPI_VERSION_MINOR	1

#define DRM_VPUX_GET_PARAM		0x00
#define DRM_VPUX_BO_CREATE		0x01
#define DRM_VPUX_BO_INFO		0x02
#define DRM_VPUX_SUBMIT			0x03
#define DRM_VPUX_WAIT			0x04
#define DRM_VPUX_QUEUE_CREATE		0x05
#define DRM_VPUX_QUEUE_DESTROY		0x06
#define DRM_VPUX_BO_WAIT		0x07

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
#define DRM_IOCTL_VPUX_QUEUE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_QUEUE_CREATE, struct drm_vpux_queue_create)
#define DRM_IOCTL_VPUX_QUEUE_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VPUX_QUEUE_DESTROY, struct drm_vpux_queue_destroy)
#define DRM_IOCTL_VPUX_BO_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VPUX_BO_WAIT, struct drm_vpux_bo_wait)

#define DRM_VPUX_PARAM_DEVICE_ID		0
#define DRM_VPUX_PARAM_DEVICE_REVISION		1
#define DRM_VPUX_PARAM_UAPI_VERSION		2
#define DRM_VPUX_PARAM_NUM_DMA_ENGINES		3
#define DRM_VPUX_PARAM_NUM_DPU_ENGINES		4
#define DRM_VPUX_PARAM_NUM_SHAVE_ENGINES	5
#define DRM_VPUX_PARAM_NUM_TILES		6
#define DRM_VPUX_PARAM_CMX_SIZE			7
#define DRM_VPUX_PARAM_VA_BASE			8
#define DRM_VPUX_PARAM_VA_SIZE			9
#define DRM_VPUX_PARAM_CAPABILITIES		10
#define DRM_VPUX_PARAM_CLOCK_KHZ		11
#define DRM_VPUX_PARAM_NUM_CONTEXTS		12
#define DRM_VPUX_PARAM_SERIAL			13
#define DRM_VPUX_PARAM_BO_MEMORY_LIMIT		14
#define DRM_VPUX_PARAM_BO_MEMORY_USED		15
#define DRM_VPUX_PARAM_MAX_OPS_PER_TASK		16
#define DRM_VPUX_PARAM_MAX_BARRIERS		17
#define DRM_VPUX_PARAM_MAX_DEPS_PER_TASK	18
#define DRM_VPUX_PARAM_MAX_ADDR_ENTRIES		19
#define DRM_VPUX_PARAM_MAX_IN_SYNCOBJS		20
#define DRM_VPUX_PARAM_TASK_SLOTS		21
#define DRM_VPUX_PARAM_JOB_RING			22
#define DRM_VPUX_PARAM_MAX_QUEUES		23
#define DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT	24
#define DRM_VPUX_PARAM_FILE_BO_MEMORY_USED	25
#define DRM_VPUX_PARAM_FW_MODE			26
#define DRM_VPUX_PARAM_CYCLES			27

/* Values of %DRM_VPUX_PARAM_FW_MODE */
/* DRM_VPUX_FW_MODE_HEADLESS: the engine core runs in the kernel driver */
#define DRM_VPUX_FW_MODE_HEADLESS		0
/* DRM_VPUX_FW_MODE_HEADED: it runs as firmware on the NPU's management core */
#define DRM_VPUX_FW_MODE_HEADED			1

/* Capability bits reported by %DRM_VPUX_PARAM_CAPABILITIES */
/* DRM_VPUX_CAP_DMA_4D: DMA engines copy up to 4-D strided blocks */
#define DRM_VPUX_CAP_DMA_4D		(1ull << 0)
/* DRM_VPUX_CAP_DPU_INT8: DPU engines run int8/uint8 operations */
#define DRM_VPUX_CAP_DPU_INT8		(1ull << 1)
/* DRM_VPUX_CAP_SHAVE: software kernels run on SHAVE engines */
#define DRM_VPUX_CAP_SHAVE		(1ull << 2)
/* DRM_VPUX_CAP_MMU: every context has its own device address space */
#define DRM_VPUX_CAP_MMU		(1ull << 3)
/* DRM_VPUX_CAP_CYCLES: jobs report device cycles */
#define DRM_VPUX_CAP_CYCLES		(1ull << 4)
/* DRM_VPUX_CAP_FAULT_INJECT: the device supports fault injection */
#define DRM_VPUX_CAP_FAULT_INJECT	(1ull << 5)
/*
 * DRM_VPUX_CAP_PLANS: tasks may be plans (task format minor 1,
 * Documentation/dynamic-shapes.rst) whose symbol buffer is one of the
 * job's buffers; the engine core reads and checks it at SUBMIT
 */
#define DRM_VPUX_CAP_PLANS		(1ull << 6)

/**
 * struct drm_vpux_get_param - query one device parameter
 *
 * Every value except the uapi version, the limits and the BO memory
 * figures is read from the device's identity registers.
 */
struct drm_vpux_get_param {
	/**
	 * @param: in, the parameter; others fail with -EINVAL:
	 *
	 * %DRM_VPUX_PARAM_DEVICE_ID:
	 * PCI-style device id of the NPU
	 *
	 * %DRM_VPUX_PARAM_DEVICE_REVISION:
	 * hardware revision, major << 16 | minor
	 *
	 * %DRM_VPUX_PARAM_UAPI_VERSION:
	 * this header's version, major << 16 | minor
	 *
	 * %DRM_VPUX_PARAM_NUM_DMA_ENGINES:
	 * number of DMA engines
	 *
	 * %DRM_VPUX_PARAM_NUM_DPU_ENGINES:
	 * number of DPU (MAC array) engines
	 *
	 * %DRM_VPUX_PARAM_NUM_SHAVE_ENGINES:
	 * number of SHAVE (DSP) engines
	 *
	 * %DRM_VPUX_PARAM_NUM_TILES:
	 * number of on-chip memory (CMX) tiles
	 *
	 * %DRM_VPUX_PARAM_CMX_SIZE:
	 * bytes of on-chip memory per tile
	 *
	 * %DRM_VPUX_PARAM_VA_BASE:
	 * first device address of a file's address space
	 *
	 * %DRM_VPUX_PARAM_VA_SIZE:
	 * size of a file's device address range
	 *
	 * %DRM_VPUX_PARAM_CAPABILITIES:
	 * %DRM_VPUX_CAP_* bits
	 *
	 * %DRM_VPUX_PARAM_CLOCK_KHZ:
	 * device cycle counter frequency in kHz
	 *
	 * %DRM_VPUX_PARAM_NUM_CONTEXTS:
	 * hardware address-space (MMU) contexts
	 *
	 * %DRM_VPUX_PARAM_SERIAL:
	 * per-device serial number
	 *
	 * %DRM_VPUX_PARAM_BO_MEMORY_LIMIT:
	 * bytes of system memory all BOs created on this device may pin
	 * together, page tables included (BO_CREATE fails with -ENOMEM
	 * beyond)
	 *
	 * %DRM_VPUX_PARAM_BO_MEMORY_USED:
	 * bytes the device's BOs and page tables pin now
	 *
	 * %DRM_VPUX_PARAM_MAX_OPS_PER_TASK:
	 * ops one task may hold, all engine kinds together
	 *
	 * %DRM_VPUX_PARAM_MAX_BARRIERS:
	 * entries of one task's barrier table
	 *
	 * %DRM_VPUX_PARAM_MAX_DEPS_PER_TASK:
	 * dependency edges of one task per direction: the sum of its ops'
	 * wait lists, and separately of their update lists
	 *
	 * %DRM_VPUX_PARAM_MAX_ADDR_ENTRIES:
	 * address-list entries of one job, the task included
	 *
	 * %DRM_VPUX_PARAM_MAX_IN_SYNCOBJS:
	 * in-syncobjs of one job
	 *
	 * %DRM_VPUX_PARAM_TASK_SLOTS:
	 * tasks the engine core runs at once, over all files
	 *
	 * %DRM_VPUX_PARAM_JOB_RING:
	 * unfinished jobs one file may have, and how many of its last jobs
	 * WAIT can report
	 *
	 * %DRM_VPUX_PARAM_MAX_QUEUES:
	 * queues one file may create with %DRM_IOCTL_VPUX_QUEUE_CREATE
	 *
	 * %DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT:
	 * bytes the BOs and page tables of the calling file may pin
	 *
	 * %DRM_VPUX_PARAM_FILE_BO_MEMORY_USED:
	 * bytes the calling file pins now, the kernel memory of its
	 * unfinished jobs included: %DRM_IOCTL_VPUX_SUBMIT fails with
	 * -ENOMEM when a job would take the file over its limit
	 *
	 * %DRM_VPUX_PARAM_FW_MODE:
	 * where the engine core runs, %DRM_VPUX_FW_MODE_*: jobs, results
	 * and limits are the same in both modes
	 *
	 * %DRM_VPUX_PARAM_CYCLES:
	 * the device's cycle counter now (%DRM_VPUX_PARAM_CLOCK_KHZ), the
	 * clock of &drm_vpux_wait.device_cycles and the op times: two
	 * readings around a run give the device time it took
	 */
	__u32 param;
	/** @pad: in, must be zero (-EINVAL otherwise) */
	__u32 pad;
	/** @value: out, the parameter's value */
	__u64 value;
};

/* Buffer object flags (DRM_IOCTL_VPUX_BO_CREATE, DRM_IOCTL_VPUX_BO_INFO) */
/* DRM_VPUX_BO_CACHED: CPU mappings are cached (the default) */
#define DRM_VPUX_BO_CACHED		(1u << 0)
/* DRM_VPUX_BO_WC: CPU mappings are write-combined; excludes CACHED */
#define DRM_VPUX_BO_WC			(1u << 1)
/*
 * DRM_VPUX_BO_DEVICE_READONLY: the NPU may read but not write the BO. Also
 * set (BO_INFO) on an import of such a BO, and of any dma-buf whose file
 * is not open for writing (exported without DRM_RDWR). An import of such
 * a dma-buf is read-only for the CPU too: mmap() of its mmap_offset with
 * PROT_WRITE, and mprotect() adding it, fail with EACCES
 */
#define DRM_VPUX_BO_DEVICE_READONLY	(1u << 2)
/* DRM_VPUX_BO_IMPORTED: (BO_INFO only) the BO is an imported dma-buf */
#define DRM_VPUX_BO_IMPORTED		(1u << 3)
/* DRM_VPUX_BO_CREATE_FLAGS: the flags BO_CREATE accepts */
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
 * device address in the importing file. -EFAULT when the struct cannot
 * be written back: no BO is left then.
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

/*
 * Queue priorities, DRM_VPUX_PRIORITY_LOW .. _REALTIME. HIGH and REALTIME
 * need CAP_SYS_NICE (-EPERM otherwise).
 */
#define DRM_VPUX_PRIORITY_LOW		0
#define DRM_VPUX_PRIORITY_NORMAL	1
#define DRM_VPUX_PRIORITY_HIGH		2
#define DRM_VPUX_PRIORITY_REALTIME	3

/**
 * struct drm_vpux_queue_create - create a job queue
 * @priority: in, DRM_VPUX_PRIORITY_* of every job of the queue; HIGH and
 *	REALTIME need CAP_SYS_NICE (-EPERM)
 * @flags: in, must be zero
 * @queue_id: out, the queue's id for drm_vpux_submit.queue_id, >= 1
 * @pad: must be zero
 *
 * A queue runs its jobs in submission order, one at a time: a job starts
 * on the NPU when its dependencies are met and the queue's previous job
 * has finished, and jobs of one queue finish (their fences signal) in
 * that order. Jobs of different queues, of this file or of others, run
 * at the same time and share the engines op by op. A file submits to
 * several queues to keep several jobs on the NPU. Besides these, each
 * file has its default queue, id 0, of priority NORMAL. -ENOSPC once the
 * file has %DRM_VPUX_PARAM_MAX_QUEUES queues; -EFAULT when the struct
 * cannot be written back (no queue is left then).
 */
struct drm_vpux_queue_create {
	__u32 priority;
	__u32 flags;
	__u32 queue_id;
	__u32 pad;
};

/**
 * struct drm_vpux_queue_destroy - destroy a job queue
 * @queue_id: in, an id QUEUE_CREATE returned to this file (-ENOENT
 *	otherwise)
 * @pad: must be zero
 *
 * Jobs already submitted to the queue still run and can be waited for;
 * the queue's id is gone at once.
 */
struct drm_vpux_queue_destroy {
	__u32 queue_id;
	__u32 pad;
};

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
 * @buffer_count: 0 .. %DRM_VPUX_PARAM_MAX_ADDR_ENTRIES - 1
 * @in_syncobj_count: 0 .. %DRM_VPUX_PARAM_MAX_IN_SYNCOBJS
 * @in_syncobjs: user pointer to @in_syncobj_count struct drm_vpux_syncobj
 *	the job waits for before it starts
 * @out_syncobj: syncobj that receives the job's completion fence (at
 *	@out_point for a timeline), or 0
 * @queue_id: in, a queue of this file from DRM_IOCTL_VPUX_QUEUE_CREATE
 *	(-ENOENT for an unknown one), or 0 for the file's default queue
 *	(priority NORMAL). The job has its queue's priority.
 * @out_point: timeline point of @out_syncobj, 0 for binary
 * @flags: DRM_VPUX_SUBMIT_* flags
 * @pad: must be zero
 * @seqno: out: the job's number in this file, for DRM_IOCTL_VPUX_WAIT
 * @profile: with DRM_VPUX_SUBMIT_PROFILE, where the kernel
 *	writes the job's struct drm_vpux_profile: a range of a BO of this
 *	file the device may write, offset 8-byte aligned, at least 16 bytes;
 *	all zero without the flag. A DEVICE_READONLY BO, or an import of
 *	another driver's dma-buf, fails with -EACCES
 *
 * Every BO is also fenced (its dma_resv gets the job's fence). SUBMIT
 * copies the task: the engine core validates it, in full, during the
 * ioctl and builds every op into kernel memory, so the task memory may
 * be reused as soon as SUBMIT returns, and nothing written to it later
 * reaches the NPU. A task the core refuses still becomes a job, which
 * completes with DRM_VPUX_STATUS_ERROR and the core's error code without
 * running (so errors are reported in one place, in queue order).
 *
 * A task with an op that writes (DMA destination, DPU output, any SHAVE
 * window) a DRM_VPUX_BO_DEVICE_READONLY BO is not a job: SUBMIT fails with
 * -EACCES.
 *
 * The struct is written back (@seqno) before the job is queued: when it
 * cannot be, SUBMIT fails with -EFAULT and there is no job.
 */
struct drm_vpux_submit {
	struct drm_vpux_buf task;
	__u64 buffers;
	__u32 buffer_count;
	__u32 in_syncobj_count;
	__u64 in_syncobjs;
	__u32 out_syncobj;
	__u32 queue_id;
	__u64 out_point;
	__u32 flags;
	__u32 pad;
	__u64 seqno;
	struct drm_vpux_buf profile;
};

/*
 * DRM_VPUX_SUBMIT_PROFILE - record each op's engine cycles in
 * drm_vpux_submit.profile
 */
#define DRM_VPUX_SUBMIT_PROFILE		(1u << 0)
/*
 * DRM_VPUX_SUBMIT_PROFILE_TIMES - with DRM_VPUX_SUBMIT_PROFILE, also each
 * op's engine and start and end cycles (struct drm_vpux_op_time)
 */
#define DRM_VPUX_SUBMIT_PROFILE_TIMES	(1u << 1)
#define DRM_VPUX_SUBMIT_FLAGS		(DRM_VPUX_SUBMIT_PROFILE | \
					 DRM_VPUX_SUBMIT_PROFILE_TIMES)

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

/**
 * struct drm_vpux_op_time - where and when one op ran
 * @start: device cycles from the job's start to the op's start
 * @end: @start plus the op's cycles; @start if it did not complete
 * @engine: the engine it ran on, numbered as the device's engines (DMA
 *	engines first, then DPU, then SHAVE), or DRM_VPUX_OP_NOT_RUN if it
 *	never became ready
 * @flags: DRM_VPUX_OP_TIME_DONE if it completed
 *
 * With DRM_VPUX_SUBMIT_PROFILE_TIMES, the record of struct drm_vpux_profile
 * goes on with one of these per op, in the order of op_cycles[], at
 * DRM_VPUX_PROFILE_TIMES_OFFSET(entries) bytes from the record's start.
 * They are written only when entries covers every op of the task (the
 * range holds DRM_VPUX_PROFILE_TIMES_SIZE(ops) bytes); otherwise the
 * record is as without the flag. The schedule is the engine core's
 * replay of the task's graph with the ops' cycles on the device's cycle
 * clock: the same task gives the same times on every kernel and in
 * libvpux's in-process backend (Documentation/profiling.rst).
 */
struct drm_vpux_op_time {
	__u64 start;
	__u64 end;
	__u32 engine;
	__u32 flags;
};

#define DRM_VPUX_OP_NOT_RUN		0xffffffffu
#define DRM_VPUX_OP_TIME_DONE		(1u << 0)
#define DRM_VPUX_PROFILE_TIMES_OFFSET(entries) \
	(16 + (((__u64)(entries) * 4 + 7) & ~(__u64)7))
#define DRM_VPUX_PROFILE_TIMES_SIZE(ops) \
	(DRM_VPUX_PROFILE_TIMES_OFFSET(ops) + \
	 (__u64)(ops) * sizeof(struct drm_vpux_op_time))

/*
 * Job status reported by DRM_IOCTL_VPUX_WAIT and DRM_IOCTL_VPUX_BO_WAIT:
 * DONE: every op of the task completed;
 * ERROR: refused by the core or an engine error (see the error fields);
 * MMU_FAULT: an op faulted at fault_addr;
 * TIMEOUT: the job hung and was aborted;
 * ABORTED: the job never ran (file banned or closed, dependency failed).
 */
#define DRM_VPUX_STATUS_DONE		1
#define DRM_VPUX_STATUS_ERROR		2
#define DRM_VPUX_STATUS_MMU_FAULT	3
#define DRM_VPUX_STATUS_TIMEOUT		4
#define DRM_VPUX_STATUS_ABORTED		5

/*
 * Why a job failed, as a category user space can switch on (uapi 2.1,
 * drm_vpux_wait.error and drm_vpux_bo_wait.error). The set is stable: a
 * value keeps its meaning, and a new one comes only with a new minor;
 * treat a value you do not know as DRM_VPUX_ERR_DEVICE.
 * NONE: the job completed (DRM_VPUX_STATUS_DONE);
 * INVALID: the engine core refused the task (a validation rule, core_error
 *	names it) or a plan's symbols made it fail while it ran;
 * FAULT: an op raised an MMU fault at fault_addr;
 * HANG: the job hung (watchdog or run limit) and was stopped;
 * ENGINE: an engine reported an error for an op (fail_op);
 * ABORTED: the job was stopped or never ran through no fault of its own
 *	(file banned or closed, a dependency failed, device recovery);
 * DEVICE: the device, its firmware or the kernel failed the job (-EIO,
 *	-ENODEV, -ENOMEM, an engine-core call error).
 *
 * core_error is the detail: 0 or the engine core's code (uapi/vpux/dla_err.h,
 * Documentation/engine-core.rst: 100..199 the validation rule that
 * failed, 200.. run-time). It is informative: its list grows with the
 * core, and a program decides on @error, not on it.
 */
#define DRM_VPUX_ERR_NONE		0
#define DRM_VPUX_ERR_INVALID		1
#define DRM_VPUX_ERR_FAULT		2
#define DRM_VPUX_ERR_HANG		3
#define DRM_VPUX_ERR_ENGINE		4
#define DRM_VPUX_ERR_ABORTED		5
#define DRM_VPUX_ERR_DEVICE		6


/**
 * struct drm_vpux_wait - wait for a job and read its result
 * @seqno: in, a job number SUBMIT returned to this file. The file's last
 *	%DRM_VPUX_PARAM_JOB_RING jobs can be waited for; an older or unknown
 *	one gives -ENOENT (a BO's last job: %DRM_IOCTL_VPUX_BO_WAIT)
 * @timeout_ns: in, absolute CLOCK_MONOTONIC time; -ETIMEDOUT if the job
 *	is not done by then (0 polls)
 * @flags: in, must be zero (-EINVAL otherwise)
 * @status: out, DRM_VPUX_STATUS_*
 * @sys_error: out, 0 or a negative errno: why the kernel failed or
 *	dropped the job (-ETIMEDOUT hang, -EBADFD banned file, -ECANCELED
 *	a dependency failed or the file closed, -EIO, -ENODEV)
 * @core_error: out, the detail: 0 or the engine core's code (dla_err.h)
 *	for why it refused or failed the task; informative, may grow
 * @fail_op: out, for errors raised by an op on an engine (fault, engine
 *	error, hang): engine kind << 24 | op index; 0 when the core refused
 *	the task memory (its log message names the op and field)
 * @fault_addr: out, faulting device address for DRM_VPUX_STATUS_MMU_FAULT
 * @device_cycles: out, device cycles from the task's start to its end
 * @op_cycles: out, sum of the ops' engine cycles
 * @error: out, DRM_VPUX_ERR_*: the category of the failure (uapi 2.1; a
 *	2.0 kernel leaves the zero user space wrote)
 */
struct drm_vpux_wait {
	__u64 seqno;
	__s64 timeout_ns;
	__u32 flags;
	__u32 status;
	__s32 sys_error;
	__u32 core_error;
	__u32 fail_op;
	__u32 error;
	__u64 fault_addr;
	__u64 device_cycles;
	__u64 op_cycles;
};

/**
 * struct drm_vpux_bo_wait - wait until a buffer object is idle
 * @handle: in, a GEM handle of this file (-ENOENT otherwise)
 * @flags: in, must be zero
 * @timeout_ns: in, absolute CLOCK_MONOTONIC time; -ETIMEDOUT if the BO
 *	is still busy then (0 polls)
 * @seqno: out, the number of the last job of this file that used the
 *	BO, 0 if none did
 * @status: out, DRM_VPUX_STATUS_* of that job; DRM_VPUX_STATUS_DONE
 *	with everything else zero when no job of this file used the BO
 * @sys_error: out, as drm_vpux_wait.sys_error
 * @core_error: out, as drm_vpux_wait.core_error
 * @fail_op: out, as drm_vpux_wait.fail_op
 * @fault_addr: out, as drm_vpux_wait.fault_addr
 * @device_cycles: out, as drm_vpux_wait.device_cycles
 * @op_cycles: out, as drm_vpux_wait.op_cycles
 * @error: out, as drm_vpux_wait.error (uapi 2.1; a 2.0 kernel, whose
 *	struct ends before it, leaves it as user space wrote it)
 * @pad: must be zero
 *
 * Returns once every job using the BO, of any file sharing it, has
 * finished (every fence in the BO's reservation signalled), with the
 * result of the last job of this file that used it, however many jobs
 * the file ran since.
 */
struct drm_vpux_bo_wait {
	__u32 handle;
	__u32 flags;
	__s64 timeout_ns;
	__u64 seqno;
	__u32 status;
	__s32 sys_error;
	__u32 core_error;
	__u32 fail_op;
	__u64 fault_addr;
	__u64 device_cycles;
	__u64 op_cycles;
	__u32 error;
	__u32 pad;
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_VPUX_ACCEL_H__ */
