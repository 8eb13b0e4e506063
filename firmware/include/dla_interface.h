/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Engine core interface: the calls a portability layer makes into the
 * core. Documentation/engine-core.rst gives the call contexts and the
 * locking rules; in short: the core never sleeps and takes no lock, so the
 * port serialises every call below with one lock of its own.
 * dla_isr_handler() may run in hard-IRQ context; everything else runs in
 * process / bottom-half context.
 */
#ifndef DLA_INTERFACE_H
#define DLA_INTERFACE_H

#include "dla_types.h"
#include "dla_limits.h"
#include "dla_err.h"
#include "dla_task_format.h"

/* Task states reported by dla_task_status() */
enum dla_task_state {
	DLA_TASK_FREE = 0,	/* slot unused */
	DLA_TASK_RUNNING = 1,
	DLA_TASK_FAILING = 2,	/* failed; ops still on engines drain */
	DLA_TASK_DONE = 3,	/* every op completed */
	DLA_TASK_FAILED = 4,	/* failed and no op left on an engine */
};

/**
 * struct dla_task_status - result of a task
 * @state: enum dla_task_state
 * @error: 0 or -DLA_ERR_* that failed the task
 * @fail_kind: engine kind of the op that failed it (if any)
 * @fail_index: index of that op in its kind's list
 * @eng_status: VPUX_ENG_STATUS of the failing engine (engine errors)
 * @fault_status: VPUX_REG_FAULT_STATUS latched for an MMU fault
 * @fault_addr: faulting device address
 * @ops_total: ops in the task
 * @ops_done: ops completed
 * @op_cycles: sum of the ops' VPUX_ENG_OP_CYCLES
 * @device_cycles: device cycle counter from start to completion
 * @time_us: dla_get_time_us() from start to completion
 */
struct dla_task_status {
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
	dla_s64 time_us;
};

/**
 * dla_register_driver() - bind a core instance to one device
 * @engine_context: out: the core's handle, passed to every later call
 * @driver_context: the port's handle, passed back to every callback
 *
 * Reads the identity registers, discovers the engines and enables the
 * interrupts. Call once per device at probe time.
 *
 * Return: 0 or -DLA_ERR_NODEV / -DLA_ERR_BUSY (no free instance).
 */
dla_s32 dla_register_driver(void **engine_context, void *driver_context);

/**
 * dla_unregister_driver() - release the instance; every task is dropped
 * @engine_context: handle from dla_register_driver()
 */
void dla_unregister_driver(void *engine_context);

/**
 * dla_execute_task() - validate a task and start it
 * @engine_context: handle from dla_register_driver()
 * @task_data: the port's handle of the task (its address list); passed
 *	back to dla_data_read() and dla_get_dma_address()
 * @mmu_ctx: MMU context slot the task's ops run in
 * @priority: 0 (lowest) .. DLA_PRIO_LEVELS - 1
 *
 * Reads and checks the whole task memory first; a bad task is refused with
 * nothing programmed. A good one gets a task slot and its first ops start.
 *
 * Return: the task id (slot, >= 0) or a negative -DLA_ERR_* code.
 */
dla_s32 dla_execute_task(void *engine_context, void *task_data,
			 dla_u32 mmu_ctx, dla_u32 priority);

/**
 * dla_isr_handler() - top half: read and ack the interrupt status
 * @engine_context: handle from dla_register_driver()
 *
 * Hard-IRQ safe: only reads IRQ_STATUS (and the fault registers on an MMU
 * fault), acks them and latches the events for dla_process_events().
 *
 * Return: 1 if there was something to handle, 0 if the interrupt was not
 * ours.
 */
dla_s32 dla_isr_handler(void *engine_context);

/**
 * dla_process_events() - bottom half: handle latched events, start ops
 * @engine_context: handle from dla_register_driver()
 * @task_complete: out: bit t set for each task t that finished (DONE or
 *	FAILED) during this call
 *
 * Return: 0.
 */
dla_s32 dla_process_events(void *engine_context, dla_u32 *task_complete);

/**
 * dla_poll_engines() - latch completions whose interrupt went missing
 * @engine_context: handle from dla_register_driver()
 *
 * For a port's watchdog: every busy engine whose status says DONE or ERROR
 * is latched as if its interrupt had arrived; call dla_process_events()
 * next. Costs one register read per busy engine.
 *
 * Return: number of engines latched.
 */
dla_s32 dla_poll_engines(void *engine_context);

/**
 * dla_clear_task() - abort (if running) and release a task slot
 * @engine_context: handle from dla_register_driver()
 * @task_id: id from dla_execute_task()
 *
 * Ops of the task still on engines are aborted (engines that do not stop
 * are reset); queued ops are dropped. Other tasks are not disturbed. Call
 * after reading a finished task's status, or to abort a hung one.
 *
 * Return: 0 or -DLA_ERR_NOENT.
 */
dla_s32 dla_clear_task(void *engine_context, dla_u32 task_id);

/**
 * dla_task_status() - read a task's state, error and cycle counts
 * @engine_context: handle from dla_register_driver()
 * @task_id: id from dla_execute_task()
 * @st: out
 *
 * Return: 0 or -DLA_ERR_NOENT.
 */
dla_s32 dla_task_status(void *engine_context, dla_u32 task_id,
			struct dla_task_status *st);

/**
 * dla_op_cycles() - device cycles of one completed op
 * @engine_context: handle from dla_register_driver()
 * @task_id: id from dla_execute_task()
 * @kind: enum dla_op_kind
 * @index: index in that kind's list
 * @cycles: out: VPUX_ENG_OP_CYCLES of the op, 0 if it did not complete
 *
 * Return: 0, -DLA_ERR_NOENT or -DLA_ERR_INVAL.
 */
dla_s32 dla_op_cycles(void *engine_context, dla_u32 task_id, dla_u32 kind,
		      dla_u32 index, dla_u32 *cycles);

/**
 * dla_task_op_cycles() - every op's cycles of a task, for a port to keep
 *	once the task's slot is cleared
 * @engine_context: handle from dla_register_driver()
 * @task_id: id from dla_execute_task()
 * @count: out: the task's ops per kind (DLA_OP_KINDS entries)
 * @cycles: out: up to @room entries: the DMA ops, then the DPU ops, then
 *	the SHAVE ops, each kind in task order (0 for an op that did not
 *	complete)
 * @room: entries @cycles holds
 *
 * Return: entries written, -DLA_ERR_NOENT or -DLA_ERR_INVAL.
 */
dla_s32 dla_task_op_cycles(void *engine_context, dla_u32 task_id,
			   dla_u32 *count, dla_u32 *cycles, dla_u32 room);

#endif /* DLA_INTERFACE_H */
