/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Engine core interface: the calls a portability layer makes into the
 * core. Documentation/engine-core.rst gives the call contexts and the
 * locking rules; in short: the core never sleeps, never allocates and
 * takes no lock. A task is validated once, in process context and without
 * the port's lock (dla_task_measure(), dla_task_prepare()), into memory
 * the port provides; every other call is serialised by one lock of the
 * port's, except dla_isr_handler(), which is hard-IRQ safe and may run
 * beside every other call but dla_take_events() and dla_poll_engines().
 */
#ifndef DLA_INTERFACE_H
#define DLA_INTERFACE_H

#include "dla_types.h"
#include "dla_limits.h"
#include "dla_err.h"
#include <drm/vpux_task.h>

/* The task format's records, as the engine core reads them */
DLA_STATIC_ASSERT(sizeof(struct dla_task_desc) == 72, "task desc size");
DLA_STATIC_ASSERT(sizeof(struct dla_plan_header) == 32, "plan header");
DLA_STATIC_ASSERT(sizeof(struct dla_plan_block) == 40, "plan block");
DLA_STATIC_ASSERT(sizeof(struct dla_plan_template) == 16, "plan template");
DLA_STATIC_ASSERT(sizeof(struct dla_plan_patch) == 8, "plan patch");
DLA_STATIC_ASSERT(sizeof(struct dla_op_deps) == 36, "deps size");
DLA_STATIC_ASSERT(sizeof(struct dla_dma_op) == 116, "dma op size");
DLA_STATIC_ASSERT(sizeof(struct dla_dpu_op) % 4 == 0, "dpu op size");
DLA_STATIC_ASSERT(sizeof(struct dla_shave_op) % 4 == 0, "shave op size");


/* Task states reported by dla_task_result() */
enum dla_task_state {
	DLA_TASK_FREE = 0,	/* prepared, never started */
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
 * @ops_running: ops on an engine now (0: the task waits for engines or
 *	has finished)
 * @oldest_seq: start sequence of its op on an engine that started first
 *	(ops are numbered as the core starts them, across all tasks;
 *	compare with wrap-around), 0 with none running
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
	dla_u32 ops_running;
	dla_u32 oldest_seq;
	dla_u64 op_cycles;
	dla_u64 device_cycles;
	dla_s64 time_us;
};

/**
 * struct dla_engine - a core instance bound to one device (opaque)
 *
 * The port allocates dla_engine_size() bytes (8-byte aligned) and hands
 * them to dla_register_driver(); the core keeps no state of its own.
 */
struct dla_engine;

/**
 * struct dla_task - a validated task (opaque)
 *
 * Lives in memory the port allocates (dla_task_measure() says how much),
 * filled by dla_task_prepare(): the dependency graph, each op's run-time
 * state and each op's hardware descriptor with its buffer addresses
 * resolved. Once prepared, the task never reads task memory again.
 */
struct dla_task;

/*
 * DLA_TASK_SIZE_MAX - an upper bound of what dla_task_measure() returns
 * under this build's limits (dla_limits.h), for a port that sizes static
 * memory instead of allocating per task (the microcontroller image):
 * per op its run-time state (16 bytes) and its hardware descriptor (at
 * most DLA_DESC_SIZE_MAX bytes), per barrier 10 bytes and one more
 * barrier, per dependency edge 6 bytes, and 2 KiB for the header, the
 * address cache and alignment. The core checks these figures at build
 * time.
 */
#define DLA_DESC_SIZE_MAX		136u
#define DLA_TASK_SIZE_MAX						\
	(2048u + DLA_MAX_OPS_PER_TASK * (16u + DLA_DESC_SIZE_MAX) +	\
	 (DLA_MAX_BARRIERS + 1u) * 10u + DLA_MAX_DEPS_PER_TASK * 6u)

/* An upper bound of dla_engine_size(), for static memory likewise. */
#define DLA_ENGINE_SIZE_MAX		(5120u + 8u * DLA_MAX_TASKS)

/** dla_engine_size() - bytes of memory one core instance needs */
dla_u32 dla_engine_size(void);

/**
 * dla_register_driver() - bind a core instance to one device
 * @engine: out: the instance, passed to every later call
 * @mem: dla_engine_size() bytes, 8-byte aligned, owned by the core until
 *	dla_unregister_driver()
 * @size: bytes at @mem
 * @driver_context: the port's handle, passed back to every callback
 *
 * Reads the identity registers, discovers the engines and enables the
 * interrupts. Call once per device at probe time.
 *
 * Return: 0, -DLA_ERR_INVAL (no or too little memory) or -DLA_ERR_NODEV.
 */
dla_s32 dla_register_driver(struct dla_engine **engine, void *mem,
			    dla_u32 size, void *driver_context);

/**
 * dla_unregister_driver() - release the instance; every task is dropped
 * @engine: instance from dla_register_driver()
 *
 * Aborts every started task (engines that do not stop are reset) and
 * masks the interrupts. The memory can be freed afterwards.
 */
void dla_unregister_driver(struct dla_engine *engine);

/**
 * dla_task_measure() - how much memory a task needs once prepared
 * @engine: instance from dla_register_driver()
 * @task_data: the port's handle of the task (its address list); passed
 *	back to dla_data_read() and dla_get_dma_address()
 * @size: out: bytes to give dla_task_prepare()
 *
 * Reads and checks the task descriptor (entry 0's header) only.
 * Process context, no lock: may run concurrently with every other call
 * (it reads only the instance's constant device facts).
 *
 * Return: 0 or a negative -DLA_ERR_* code (the descriptor rules).
 */
dla_s32 dla_task_measure(const struct dla_engine *engine, void *task_data,
			 dla_u32 *size);

/**
 * dla_task_prepare() - validate a task once and build it into @mem
 * @engine: instance from dla_register_driver()
 * @task_data: the port's handle of the task, as given to dla_task_measure()
 * @mem: at least the measured bytes, 8-byte aligned
 * @size: bytes at @mem
 * @task: out: the prepared task (inside @mem)
 *
 * Reads every field of the task memory exactly once (each record is
 * copied, then checked and used from the copy), checks it, resolves
 * every buffer reference through dla_get_dma_address() and writes each
 * op's hardware descriptor into @mem. Task memory changed afterwards
 * changes nothing. Same context rules as dla_task_measure(). A task whose
 * descriptor grew between measure and prepare fails with
 * -DLA_ERR_CHANGED.
 *
 * Return: 0 or a negative -DLA_ERR_* code; the core's dla_error()
 * message names the op and field.
 */
dla_s32 dla_task_prepare(const struct dla_engine *engine, void *task_data,
			 void *mem, dla_u32 size, struct dla_task **task);

/**
 * dla_task_start() - give a prepared task a slot and start its ops
 * @engine: instance from dla_register_driver()
 * @task: from dla_task_prepare(); must stay valid until dla_clear_task()
 * @mmu_ctx: MMU context slot the task's ops run in
 * @priority: 0 (lowest) .. DLA_PRIO_LEVELS - 1
 *
 * Rewinds the task's run-time state (so a task that was cleared can be
 * started again), queues its ready ops and programs idle engines with
 * their prebuilt descriptors. Does not read task memory.
 *
 * Return: the task id (slot, >= 0), -DLA_ERR_BUSY (no free slot),
 * -DLA_ERR_CTX, -DLA_ERR_PRIORITY, -DLA_ERR_RUNNING (already started)
 * or -DLA_ERR_INVAL.
 */
dla_s32 dla_task_start(struct dla_engine *engine, struct dla_task *task,
		       dla_u32 mmu_ctx, dla_u32 priority);

/**
 * dla_isr_handler() - top half: read and ack the interrupt status
 * @engine: instance from dla_register_driver()
 *
 * Hard-IRQ safe: only reads IRQ_STATUS (and the fault registers on an MMU
 * fault), acks them and latches the events for dla_process_events().
 *
 * Return: 1 if there was something to handle, 0 if the interrupt was not
 * ours.
 */
dla_s32 dla_isr_handler(struct dla_engine *engine);

/**
 * dla_process_events() - bottom half: handle latched events, start ops
 * @engine: instance from dla_register_driver()
 * @task_complete: out: bit t set for each task t that finished (DONE or
 *	FAILED) since the last call
 *
 * dla_take_events() then dla_handle_events(). Bounded work: O(events +
 * edges they release + ops they start); never reads task memory. The
 * edges and ops grow with the tasks users submit, so a port runs it in
 * a bottom half, not with interrupts off.
 *
 * Return: 0.
 */
dla_s32 dla_process_events(struct dla_engine *engine, dla_u32 *task_complete);

/**
 * dla_take_events() - the bottom half takes what the top half latched
 * @engine: instance from dla_register_driver()
 *
 * Moves the events dla_isr_handler() and dla_poll_engines() latched to
 * the bottom half's own record, O(1). For a port whose top half may run
 * while its bottom half does (a hard IRQ beside a threaded handler):
 * call it with the top half excluded (the port's interrupt lock), then
 * dla_handle_events() under the port's lock alone. dla_process_events()
 * is the two in one call, for a port that excludes the top half anyway.
 */
void dla_take_events(struct dla_engine *engine);

/**
 * dla_handle_events() - bottom half: handle taken events, start ops
 * @engine: instance from dla_register_driver()
 * @task_complete: as for dla_process_events()
 *
 * Touches nothing dla_isr_handler() writes. Bounded as
 * dla_process_events().
 *
 * Return: 0, or -DLA_ERR_INVAL for an unregistered instance.
 */
dla_s32 dla_handle_events(struct dla_engine *engine, dla_u32 *task_complete);

/**
 * dla_engines_lost_state() - the engines' registers were lost
 * @engine: instance from dla_register_driver(), no task on an engine
 *
 * For a port whose NPU was powered off and on again: the engines' PARAM
 * words read 0 now, so what the core last wrote there is forgotten and
 * the next op on each engine writes its whole descriptor.
 */
void dla_engines_lost_state(struct dla_engine *engine);

/**
 * dla_poll_engines() - latch completions whose interrupt went missing
 * @engine: instance from dla_register_driver()
 *
 * For a port's watchdog: every busy engine whose status says DONE or ERROR
 * is latched as if its interrupt had arrived; call dla_process_events()
 * next. Costs one register read per busy engine.
 *
 * Return: number of engines latched.
 */
dla_s32 dla_poll_engines(struct dla_engine *engine);

/**
 * dla_clear_task() - abort (if running) and release a task slot
 * @engine: instance from dla_register_driver()
 * @task_id: id from dla_task_start()
 *
 * Ops of the task still on engines are aborted (engines that do not stop
 * are reset); queued ops are dropped. Other tasks are not disturbed. Call
 * after reading a finished task's status, or to abort a hung one. The
 * task's memory is the port's again afterwards; its status and cycles
 * stay readable there (dla_task_result(), dla_task_op_cycles()).
 *
 * Return: 0 or -DLA_ERR_NOENT.
 */
dla_s32 dla_clear_task(struct dla_engine *engine, dla_u32 task_id);

/**
 * dla_task_result() - a task's state, error and cycle counts
 * @task: a prepared task; under the port's lock while it is started,
 *	without it once cleared (or never started: state DLA_TASK_FREE)
 * @st: out
 *
 * Return: 0 or -DLA_ERR_INVAL.
 */
dla_s32 dla_task_result(const struct dla_task *task,
			struct dla_task_status *st);

/**
 * dla_op_cycles() - device cycles of one completed op
 * @task: a prepared task (locking as for dla_task_result())
 * @kind: enum dla_op_kind
 * @index: index in that kind's list
 * @cycles: out: VPUX_ENG_OP_CYCLES of the op, 0 if it did not complete
 *
 * Return: 0 or -DLA_ERR_INVAL.
 */
dla_s32 dla_op_cycles(const struct dla_task *task, dla_u32 kind,
		      dla_u32 index, dla_u32 *cycles);

/**
 * dla_task_op_cycles() - every op's cycles of a task
 * @task: a prepared task (locking as for dla_task_result())
 * @count: out: the task's ops per kind (DLA_OP_KINDS entries)
 * @cycles: out: up to @room entries: the DMA ops, then the DPU ops, then
 *	the SHAVE ops, each kind in task order (0 for an op that did not
 *	complete)
 * @room: entries @cycles holds
 *
 * Return: entries written or -DLA_ERR_INVAL.
 */
dla_s32 dla_task_op_cycles(const struct dla_task *task, dla_u32 *count,
			   dla_u32 *cycles, dla_u32 room);

/**
 * struct dla_op_time - where and when one op ran, in device cycles
 * @start: cycles from the task's start to the op's start
 * @end: @start + the op's cycles; @start for an op that did not complete
 * @engine: global engine index (DMA engines first, then DPU, then SHAVE)
 *	the op ran on, DLA_OP_NOT_RUN if it never became ready
 * @done: 1 if the op completed, else 0
 */
struct dla_op_time {
	dla_u64 start;
	dla_u64 end;
	dla_u32 engine;
	dla_u32 done;
};

#define DLA_OP_NOT_RUN			0xffffffffu

/**
 * dla_task_op_times() - the schedule of a task on the device's cycle clock
 * @task: a prepared task that is not running (finished, cleared or never
 *	started; locking as for dla_task_result())
 * @cycles: each op's cycles in the order of dla_task_op_cycles() (0: the
 *	op did not complete), or NULL for the task's own
 * @n: entries of @cycles and @times: the task's ops
 * @times: out: one record per op, in the order of dla_task_op_cycles()
 *
 * The NPU model's clock is virtual and its engines complete ops in host
 * order, so the schedule is rebuilt, deterministically, from the task's
 * graph and the ops' cycles with the scheduler's own rules: time 0 is
 * the task's start, an op is ready when its last wait barrier reaches
 * zero and starts at once on the lowest-numbered idle engine of its kind
 * (ready ops of a kind in the order they became ready), completions at
 * the same cycle in the order their ops started. An op that did not
 * complete holds its engine for good, so what waited on it never starts:
 * a hung or failed op is where the timeline stops. The same task and
 * cycles give the same schedule on every port. O(ops * engines + edges);
 * rewinds the task's run-time counters (the next start rewinds them
 * again), writes nothing else of the task.
 *
 * Return: the number of records written (@n), -DLA_ERR_INVAL for bad
 * arguments or @n not the task's op count, -DLA_ERR_RUNNING for a
 * running task.
 */
dla_s32 dla_task_op_times(struct dla_task *task, const dla_u32 *cycles,
			  dla_u32 n, struct dla_op_time *times);

/**
 * dla_task_id() - the slot a started task holds
 * @task: a prepared task
 *
 * Return: the task id while started (until dla_clear_task()), else -1.
 */
dla_s32 dla_task_id(const struct dla_task *task);

/**
 * dla_task_cmx_tiles() - the CMX tiles a prepared task uses
 * @task: a prepared task
 *
 * CMX is not behind the MMU: a port that runs tasks of several address
 * spaces must not let one see what another left in a tile (the kernel
 * clears a tile before it changes hands, vpux_sched.c).
 *
 * Return: bit i set if some op of @task reads or writes tile i; 0 for
 * a task that is not prepared.
 */
dla_u64 dla_task_cmx_tiles(const struct dla_task *task);

/**
 * dla_task_symbols() - the symbol values a prepared plan runs with
 * @task: a prepared task
 * @index: out: the address-list entry they were read from (sym_index)
 * @values: out: the first @n values, symbol id order, as u64 slots
 * @n: room in @values
 *
 * The values dla_task_prepare() read and checked, once: a port that has
 * another core prepare the task again (headed mode: the firmware) hands
 * it these, so both run the same sizes whatever the symbol buffer holds
 * by then (Documentation/dynamic-shapes.rst). Reads only what
 * dla_task_prepare() wrote, which nothing changes later: no lock needed.
 *
 * Return: the plan's number of symbols (0 .. DLA_PLAN_MAX_SYMBOLS; may
 * be above @n), or -DLA_ERR_INVAL for a task that is not a prepared plan.
 */
dla_s32 dla_task_symbols(const struct dla_task *task, dla_u32 *index,
			 dla_u64 *values, dla_u32 n);

#endif /* DLA_INTERFACE_H */
