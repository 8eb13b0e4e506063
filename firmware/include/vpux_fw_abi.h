/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The firmware's ABI: the image header the host checks before it loads
 * an image (vpux/vpux_fw.bin), and the protocol between the host driver
 * and the engine core running on the management core (headed mode):
 * command and completion rings and a log ring in shared memory, a
 * doorbell and an interrupt. Documentation/firmware.rst describes it in
 * prose. Little endian, naturally aligned, fixed-width fields only: the
 * host is 64-bit, the firmware RV32.
 */
#ifndef VPUX_FW_ABI_H
#define VPUX_FW_ABI_H

#include "dla_types.h"

/* ---- the image ---- */

#define VPUX_FW_MAGIC			0x57465856u	/* "VXFW" in memory */
#define VPUX_FW_ABI_MAJOR		1u	/* changes break the protocol */
#define VPUX_FW_ABI_MINOR		1u	/* additions */
/* minor 1: struct vpux_fw_task's symbol copy; the image runs plans */
#define VPUX_FW_ABI_MINOR_PLANS		1u

/**
 * struct vpux_fw_header - the first bytes of the image
 * @magic: VPUX_FW_MAGIC
 * @abi_major: VPUX_FW_ABI_MAJOR the firmware speaks; the host refuses
 *	another major
 * @abi_minor: VPUX_FW_ABI_MINOR it speaks
 * @header_size: sizeof(struct vpux_fw_header)
 * @image_size: bytes of the image, header included (the file's size)
 * @load_addr: management-core address the image's first byte goes to
 *	(VPUX_MC_RAM_BASE)
 * @entry: address the core starts at
 * @ram_size: bytes of RAM from @load_addr the firmware uses (image,
 *	bss, stacks); at most VPUX_REG_MC_MEM_SIZE
 * @crc32: CRC-32 (IEEE 802.3, as zlib's crc32()) of the bytes after the
 *	header
 * @max_tasks: the engine core's limits in this image (dla_limits.h);
 *	the host's SUBMIT checks are made with these
 * @max_ops: ops in one task
 * @max_barriers: barriers in one task
 * @max_deps: dependency edges in one task, per direction
 * @max_addr_entries: address-list entries of one task
 * @version: NUL-terminated version string of the build
 */
struct vpux_fw_header {
	dla_u32 magic;
	dla_u16 abi_major;
	dla_u16 abi_minor;
	dla_u32 header_size;
	dla_u32 image_size;
	dla_u32 load_addr;
	dla_u32 entry;
	dla_u32 ram_size;
	dla_u32 crc32;
	dla_u32 max_tasks;
	dla_u32 max_ops;
	dla_u32 max_barriers;
	dla_u32 max_deps;
	dla_u32 max_addr_entries;
	dla_u32 reserved[3];
	char version[32];
};
DLA_STATIC_ASSERT(sizeof(struct vpux_fw_header) == 96, "fw header layout");

/* ---- shared memory (VPUX_REG_MC_SHM_*, VPUX_MC_SHM_BASE) ---- */

#define VPUX_FW_SHM_MAGIC		0x4d485356u	/* "VSHM" */

/**
 * struct vpux_fw_shm - the header of the shared memory
 * @magic: VPUX_FW_SHM_MAGIC, written by the host before it starts the
 *	core
 * @size: bytes of shared memory
 * @cmd_offset: byte offset of the command ring (struct vpux_fw_cmd)
 * @cmd_entries: its entries, a power of two
 * @cpl_offset: byte offset of the completion ring (struct vpux_fw_cpl)
 * @cpl_entries: its entries, a power of two
 * @log_offset: byte offset of the log ring (text)
 * @log_size: its bytes, a power of two
 * @cmd_tail: host: commands written (free-running; entry tail % entries)
 * @cmd_head: firmware: commands consumed
 * @cpl_tail: firmware: completions written
 * @cpl_head: host: completions consumed
 * @log_tail: firmware: log bytes written (free-running; the ring holds
 *	the last @log_size of them)
 * @heartbeat: firmware: incremented at least every
 *	VPUX_FW_HEARTBEAT_US microseconds while it runs
 * @progress_offset: byte offset of the progress table (struct
 *	vpux_fw_progress), one entry per task slot
 * @progress_entries: its entries (the image's max_tasks)
 *
 * Each side writes an entry before it moves its tail past it, and reads
 * the other side's tail before the entries it covers (a fence on both
 * sides); a full command ring is the host's error (it never has more
 * than DLA_MAX_TASKS * 2 commands out), a full completion ring makes the
 * firmware wait.
 */
struct vpux_fw_shm {
	dla_u32 magic;
	dla_u32 size;
	dla_u32 cmd_offset;
	dla_u32 cmd_entries;
	dla_u32 cpl_offset;
	dla_u32 cpl_entries;
	dla_u32 log_offset;
	dla_u32 log_size;
	dla_u32 cmd_tail;
	dla_u32 cmd_head;
	dla_u32 cpl_tail;
	dla_u32 cpl_head;
	dla_u32 log_tail;
	dla_u32 heartbeat;
	dla_u32 progress_offset;
	dla_u32 progress_entries;
};
DLA_STATIC_ASSERT(sizeof(struct vpux_fw_shm) == 64, "shm layout");

/**
 * struct vpux_fw_progress - a task slot's progress, for the host's hang
 *	check; rewritten by the firmware whenever the slot's task changes
 * @state: enum dla_task_state of the slot's task, DLA_TASK_FREE if none
 * @ops_done: its dla_task_status.ops_done
 * @ops_running: its dla_task_status.ops_running
 * @oldest_seq: its dla_task_status.oldest_seq
 */
struct vpux_fw_progress {
	dla_u32 state;
	dla_u32 ops_done;
	dla_u32 ops_running;
	dla_u32 oldest_seq;
};

#define VPUX_FW_HEARTBEAT_US		10000u

/*
 * Why the firmware refused to start: VPUX_MC_STATUS_ERROR | reason << 8
 * in MC_STATUS (the shared memory's header is checked before anything
 * else; the log ring is not usable for the first four).
 */
enum vpux_fw_error {
	VPUX_FW_ERR_SHM_MAGIC = 1,	/* magic is not VPUX_FW_SHM_MAGIC */
	VPUX_FW_ERR_SHM_SIZE = 2,	/* size below the header or above VPUX_MC_SHM_MAX */
	VPUX_FW_ERR_SHM_LOG = 3,	/* log ring: size not a power of two, outside */
	VPUX_FW_ERR_SHM_CMD = 4,	/* command ring: entries, alignment, outside */
	VPUX_FW_ERR_SHM_CPL = 5,	/* completion ring: likewise */
	VPUX_FW_ERR_SHM_PROGRESS = 6,	/* progress table: < max_tasks entries, outside */
	VPUX_FW_ERR_NPU = 7,		/* the engine core refused the NPU */
};

/* ---- commands (host -> firmware) ---- */

enum vpux_fw_cmd_op {
	VPUX_FW_CMD_NOP = 0,
	/* prepare the task in @task_addr and start it in slot @slot */
	VPUX_FW_CMD_RUN = 1,
	/* abort slot @slot's task: its ops stop; it completes ABORTED */
	VPUX_FW_CMD_ABORT = 2,
};

/**
 * struct vpux_fw_cmd - one command
 * @op: enum vpux_fw_cmd_op
 * @slot: the host's task slot, 0 .. max_tasks - 1; the firmware uses it
 *	as the core's task id and echoes it in the completion
 * @ctx_slot: MMU context slot the task runs in (RUN)
 * @priority: 0 .. DLA_PRIO_LEVELS - 1 (RUN)
 * @seq: the host's number for the command, echoed
 * @task_size: bytes at @task_addr (RUN)
 * @task_addr: bus address of the task's staging buffer (RUN), a
 *	struct vpux_fw_task and what it points to
 */
struct vpux_fw_cmd {
	dla_u32 op;
	dla_u32 slot;
	dla_u32 ctx_slot;
	dla_u32 priority;
	dla_u32 seq;
	dla_u32 task_size;
	dla_u64 task_addr;
};
DLA_STATIC_ASSERT(sizeof(struct vpux_fw_cmd) == 32, "cmd layout");

/**
 * struct vpux_fw_task - a task's staging buffer, in host memory
 * @n_addr: entries of @addr (the job's resolved address list)
 * @data_offset: offset in the staging buffer of a copy of address-list
 *	entry 0's bytes (the task memory the core reads)
 * @data_size: bytes of that copy (entry 0's size)
 * @cycles_offset: offset where the firmware writes each op's cycles
 *	(u32 each, in the order of dla_task_op_cycles()) before it posts
 *	the completion
 * @cycles_count: room for that many
 * @sym_index: (ABI 1.1) a plan's symbol buffer: the address-list entry
 *	(sym_index of the task descriptor, >= 1) whose bytes the core reads
 *	at @sym_offset; 0 for none (a static task, or a plan without
 *	symbols). Zero in ABI 1.0, whose firmware refuses plans
 *	(PLAN_SYMBOL)
 * @sym_offset: offset in the staging buffer of the copy of that entry's
 *	first @sym_size bytes: the u64 slots the host's core checked
 * @sym_size: bytes of that copy (8 per symbol); 0 with @sym_index 0
 * @addr: the address list; entry 0's device address is what the
 *	core's references to entry 0 resolve to
 */
struct vpux_fw_task {
	dla_u32 n_addr;
	dla_u32 data_offset;
	dla_u32 data_size;
	dla_u32 cycles_offset;
	dla_u32 cycles_count;
	dla_u32 sym_index;
	dla_u32 sym_offset;
	dla_u32 sym_size;
	struct vpux_fw_addr {
		dla_u64 addr;
		dla_u64 size;
		dla_u32 flags;		/* DLA_ADDR_* (dla_port.h) */
		dla_u32 reserved;
	} addr[];
};
DLA_STATIC_ASSERT(sizeof(struct vpux_fw_task) == 32, "task layout");

/* ---- completions (firmware -> host) ---- */

enum vpux_fw_cpl_kind {
	/* the task left the core: @status is its dla_task_result() */
	VPUX_FW_CPL_TASK = 1,
	/* RUN refused before it started: @status.error is -DLA_ERR_* */
	VPUX_FW_CPL_REFUSED = 2,
};

/**
 * struct vpux_fw_cpl - one completion
 * @kind: enum vpux_fw_cpl_kind
 * @slot: the command's slot
 * @seq: the command's seq
 * @reserved: zero
 * @state: struct dla_task_status, field for field
 * @error: ...
 * @fail_kind: ...
 * @fail_index: ...
 * @eng_status: ...
 * @fault_status: ...
 * @fault_addr: ...
 * @ops_total: ...
 * @ops_done: ...
 * @op_cycles: ...
 * @device_cycles: ...
 */
struct vpux_fw_cpl {
	dla_u32 kind;
	dla_u32 slot;
	dla_u32 seq;
	dla_u32 reserved;
	dla_u32 state;
	dla_s32 error;
	dla_u32 fail_kind;
	dla_u32 fail_index;
	dla_u32 eng_status;
	dla_u32 fault_status;
	dla_u64 fault_addr;
	dla_u32 ops_total;
	dla_u32 ops_done;
	dla_u64 op_cycles;
	dla_u64 device_cycles;
};
DLA_STATIC_ASSERT(sizeof(struct vpux_fw_cpl) == 72, "cpl layout");

#endif /* VPUX_FW_ABI_H */
