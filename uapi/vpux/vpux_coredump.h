/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * The binary appendix of a vpux_accel devcoredump: what vpux-replay needs
 * to run a failed job again in-process (Documentation/profiling.rst,
 * "Replaying a failed job"). The dump starts with its text report; the
 * text ends with a line "binary appendix: ..." and a NUL, and the
 * appendix follows at the next 8-byte boundary: struct vpux_dump_header,
 * then n_entries struct vpux_dump_entry, then the ops' cycles (one u32
 * per op, op_count[] of them, as in struct drm_vpux_profile: 0 for an op
 * that did not complete) padded with zeros to a multiple of 8, then each
 * entry's dumped bytes in entry order, each padded likewise. Every field
 * is little-endian.
 */
#ifndef __UAPI_VPUX_COREDUMP_H__
#define __UAPI_VPUX_COREDUMP_H__

#include "dla_types.h"

#define VPUX_DUMP_MAGIC		"VPUXDMP1"
#define VPUX_DUMP_VERSION	1u

/* the bytes of buffer contents one dump holds at most, all entries together */
#define VPUX_DUMP_DATA_CAP	(4u << 20)

/* vpux_dump_header.flags */
#define VPUX_DUMP_TRUNCATED	(1u << 0)	/* some entry is cut short */
#define VPUX_DUMP_REFUSED	(1u << 1)	/* the core refused the task */

/* vpux_dump_entry.flags */
#define VPUX_DUMP_ENTRY_READONLY	(1u << 0)	/* device-read-only BO */
#define VPUX_DUMP_ENTRY_TRUNCATED	(1u << 1)	/* dumped < size */

/**
 * struct vpux_dump_header - the job and the device as it failed
 * @magic: VPUX_DUMP_MAGIC
 * @version: VPUX_DUMP_VERSION
 * @header_size: sizeof(struct vpux_dump_header) (a reader skips what it
 *	does not know of a larger one)
 * @entry_size: sizeof(struct vpux_dump_entry)
 * @n_entries: address-list entries (entry 0: the task memory)
 * @flags: VPUX_DUMP_*
 * @cap: the data cap the kernel applied (VPUX_DUMP_DATA_CAP)
 * @status: DRM_VPUX_STATUS_* of the job
 * @sys_error: 0 or -errno
 * @core_error: the engine core's code (dla_err.h), as WAIT's core_error
 * @fail_op: engine kind << 24 | op index of the op that failed it
 * @fault_addr: the faulting device address of an MMU fault
 * @inject: the model's INJECT register as debugfs "inject" last set it
 *	when the job started (0: no injection armed)
 * @inject_arg: INJECT_ARG with it
 * @priority: DRM_VPUX_PRIORITY_*
 * @engines: DMA, DPU and SHAVE engines of the device
 * @seqno: the job's number in its file
 * @ops_done: ops completed
 * @ops_total: ops of the task
 * @op_count: the task's DMA, DPU and SHAVE ops (all 0 for a task the
 *	core refused): the op cycles that follow the entry table
 * @reserved: 0
 */
struct vpux_dump_header {
	char magic[8];
	dla_u32 version;
	dla_u32 header_size;
	dla_u32 entry_size;
	dla_u32 n_entries;
	dla_u32 flags;
	dla_u32 cap;
	dla_u32 status;
	dla_s32 sys_error;
	dla_u32 core_error;
	dla_u32 fail_op;
	dla_u64 fault_addr;
	dla_u32 inject;
	dla_u32 inject_arg;
	dla_u32 priority;
	dla_u32 engines[3];
	dla_u64 seqno;
	dla_u32 ops_done;
	dla_u32 ops_total;
	dla_u32 op_count[3];
	dla_u32 reserved;
};

/**
 * struct vpux_dump_entry - one address-list entry
 * @addr: its device address in the job's address space
 * @size: its bytes
 * @dumped: the bytes of it the dump holds (its first ones)
 * @flags: VPUX_DUMP_ENTRY_*
 * @reserved: 0
 */
struct vpux_dump_entry {
	dla_u64 addr;
	dla_u64 size;
	dla_u64 dumped;
	dla_u32 flags;
	dla_u32 reserved;
};

#endif /* __UAPI_VPUX_COREDUMP_H__ */
