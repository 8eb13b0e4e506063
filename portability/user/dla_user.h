/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Host user-space portability layer of the engine core: runs the core in a
 * process, against a host device (vpux_hw_host.h: the NPU model) or any other
 * register backend (the unit tests' fake, the benchmark's instant engines).
 *
 * Threads: the backend's interrupt context calls dla_user_irq(), which
 * runs dla_isr_handler() under the port lock and wakes the bottom-half
 * thread; that thread runs dla_process_events() under the same lock and
 * wakes waiters. When no interrupt came for 20 ms it also polls for ops
 * whose interrupt was lost (dla_poll_engines()). dla_user_submit()
 * validates the task (dla_task_measure(), dla_task_prepare()) in the
 * caller's thread without the lock, into memory of the task's own; every
 * other entry into the core takes the lock. With DLA_USER_INLINE_BH there
 * is no thread and dla_user_irq() runs the bottom half itself
 * (deterministic step tests); with DLA_USER_DIRECT_IRQ it runs it itself
 * too, and the thread is the watchdog only (the in-process backend).
 *
 * This is the API the in-process backend of libvpux uses.
 */
#ifndef DLA_USER_H
#define DLA_USER_H

#include <stdint.h>

#include "dla_interface.h"

struct vpux_host_dev;
struct dla_user_dev;

/* Register backend: the MMIO accessors of a device. */
struct dla_user_hw_ops {
	uint32_t (*reg_read)(void *hw, uint32_t off);
	void (*reg_write)(void *hw, uint32_t off, uint32_t val);
};

/* One address-list entry of a task. */
struct dla_user_buf {
	uint64_t va;	/* device address the engines use */
	uint64_t size;	/* bytes */
	void *cpu;	/* where the core's CPU reads it (task memory) */
	uint32_t flags;	/* DLA_USER_BUF_* */
};

/*
 * The engines only read the entry: the core refuses an op that writes it
 * (DLA_ADDR_READONLY), as the kernel port does for a BO created
 * DRM_VPUX_BO_DEVICE_READONLY.
 */
#define DLA_USER_BUF_READONLY	(1u << 0)

#define DLA_USER_INLINE_BH	(1u << 0)	/* no bottom-half thread */
/*
 * dla_user_irq() runs the bottom half itself, and on a host device the
 * handler runs on the thread that raised the line when it can
 * (vpux_host_dev_set_irq_direct()): an op's completion starts the next
 * ops without waking two threads. The bottom-half thread stays, as the
 * lost-interrupt watchdog only.
 */
#define DLA_USER_DIRECT_IRQ	(1u << 1)

/*
 * Create a device on a register backend; the backend must call
 * dla_user_irq() when its interrupt line is raised. NULL on failure
 * (no NPU behind @ops, or no memory).
 */
struct dla_user_dev *dla_user_create(const struct dla_user_hw_ops *ops,
				     void *hw, unsigned int flags);
/* Same on a host device: MMIO and the interrupt handler are wired up. */
struct dla_user_dev *dla_user_create_host(struct vpux_host_dev *hw,
					  unsigned int flags);
/* Drop every task, stop the bottom half, release the core instance. */
void dla_user_destroy(struct dla_user_dev *d);

/* Interrupt entry (hard-IRQ role). */
void dla_user_irq(struct dla_user_dev *d);

/*
 * Submit a task: @list[0] holds the task descriptor (task-format.rst),
 * @n entries (the list is copied; the memory it names must stay mapped
 * until dla_user_release()), MMU context @ctx, priority
 * 0..DLA_PRIO_LEVELS-1. The task memory is read (and validated) here,
 * once: changing it afterwards changes nothing of what runs.
 * Return: a handle >= 0, or -DLA_ERR_* (validation failed: nothing ran).
 * A handle stays valid until dla_user_release(); a released handle is
 * never valid again (calls on it return -DLA_ERR_NOENT).
 */
int dla_user_submit(struct dla_user_dev *d, const struct dla_user_buf *list,
		    unsigned int n, unsigned int ctx, unsigned int prio);

/*
 * The same, the task starting only once the task of handle @after (or
 * none: -1) has ended, DONE or FAILED, or was released; until then it
 * is queued (dla_user_status() says RUNNING) without holding up other
 * tasks. Whatever @after's result, the task runs: this orders tasks
 * that share memory no MMU separates (libvpux's requests of a network
 * with CMX tensors), it does not make one depend on the other's result.
 */
int dla_user_submit_after(struct dla_user_dev *d,
			  const struct dla_user_buf *list, unsigned int n,
			  unsigned int ctx, unsigned int prio, int after);

/*
 * Validate a task as dla_user_submit() does (dla_task_measure(),
 * dla_task_prepare()) and drop it: nothing runs, no handle. libvpux
 * runs the core's checks of a plan at its symbols' bounds at load.
 * Return: 0 or -DLA_ERR_* (dla_user_last_error() says why).
 */
int dla_user_check(struct dla_user_dev *d, const struct dla_user_buf *list,
		   unsigned int n);

/*
 * Wait until the task is DONE or FAILED. @timeout_ms < 0: forever.
 * Return: 0, -DLA_ERR_NOENT, or -DLA_ERR_RUNNING on timeout.
 */
int dla_user_wait(struct dla_user_dev *d, int handle, int timeout_ms);

/* State, error, failing op, fault info, cycles of a task. */
int dla_user_status(struct dla_user_dev *d, int handle,
		    struct dla_task_status *st);

/*
 * Bytes of the prepared task's memory (what dla_task_measure() asked
 * for): for a plan, constant in its loop counts.
 */
int dla_user_task_bytes(struct dla_user_dev *d, int handle);

/* Device cycles of op @index of engine kind @kind (enum dla_op_kind). */
int dla_user_op_cycles(struct dla_user_dev *d, int handle, unsigned int kind,
		       unsigned int index, uint32_t *cycles);

/*
 * Every op's engine and start and end cycles (dla_task_op_times()), @n
 * the task's ops, in the order of dla_task_op_cycles(). A task still
 * running is aborted first (dla_clear_task(): its ops that did not
 * complete stay so; the handle stays valid). A task that did not run
 * reports every op as not run.
 * Return: @n, or -DLA_ERR_*.
 */
int dla_user_op_times(struct dla_user_dev *d, int handle,
		      struct dla_op_time *times, unsigned int n);
/*
 * The same with @cycles (@n, in the same order) in place of the task's
 * own: the schedule those cycles give (vpux-replay: the original run's,
 * from a devcoredump). A task that did not run reports every op as not
 * run, whatever @cycles says.
 */
int dla_user_op_times_with(struct dla_user_dev *d, int handle,
			   const uint32_t *cycles, struct dla_op_time *times,
			   unsigned int n);

/* Abort the task if it still runs, then free its handle (dla_clear_task). */
int dla_user_release(struct dla_user_dev *d, int handle);

/*
 * Watchdog for lost interrupts: latch finished engines whose interrupt
 * did not arrive and process them. Return: engines recovered.
 */
int dla_user_poll(struct dla_user_dev *d);

/* Last dla_error() message of the calling thread ("" if none). */
const char *dla_user_last_error(void);

#endif /* DLA_USER_H */
