/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A vpux device in host user space: what user-space code needs of an NPU
 * when there is no kernel in the loop (the engine core's host port, the
 * in-process backend of libvpux). The NPU model's host platform implements
 * it (the model's own extras, such as a device of another shape or
 * stepping it by hand, are the model's); user space sees an opaque device
 * with MMIO, an interrupt line, "physical" memory and MMU contexts, and
 * learns the device's shape from its registers, as a driver does.
 *
 * The device owns a physical memory arena: the addresses written into
 * page tables are offsets into it, never host pointers. Its interrupt
 * handler runs on the device's interrupt thread, the way a hard-IRQ
 * handler runs on a CPU.
 *
 * The driver-side helpers at the end write page tables in the device's
 * format and program the MMU registers, as the kernel driver does.
 */
#ifndef VPUX_HW_HOST_H
#define VPUX_HW_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vpux_host_dev;

/*
 * Create a device of the default shape with a physical arena of
 * @phys_bytes, its execution and interrupt threads running. NULL on
 * failure.
 */
struct vpux_host_dev *vpux_host_dev_create(size_t phys_bytes);
void vpux_host_dev_destroy(struct vpux_host_dev *dev);

/* MMIO accessors (what a driver would use): vpux_regs.h. */
uint32_t vpux_host_reg_read(struct vpux_host_dev *dev, uint32_t off);
void vpux_host_reg_write(struct vpux_host_dev *dev, uint32_t off, uint32_t val);

/*
 * Interrupt handler: called on the device's interrupt thread (or, with
 * direct delivery below, on the thread raising it) each time the line is
 * raised. It must ack (IRQ_CLEAR) what it handles. One handler at
 * a time; @handler NULL removes it.
 *
 * Like the kernel's free_irq() and synchronize_irq(): when this returns,
 * calls of the previous handler that were already running have returned,
 * and none starts later, so the caller may free the previous handler's
 * data at once. Calls of the new handler that start meanwhile are not
 * waited for. So the caller must not hold a lock the running handler may
 * take.
 *
 * Exception: called from inside a handler of @dev (the handler removing
 * or replacing itself) it does not wait, since it would wait for itself;
 * the old data must then stay valid until that handler returns.
 */
void vpux_host_dev_set_irq_handler(struct vpux_host_dev *dev,
				   void (*handler)(void *arg), void *arg);

/*
 * Direct delivery (off by default): when an execution thread of the
 * device raises the line (an op finished) and no handler call is running,
 * it calls the handler itself instead of waking the interrupt thread,
 * the way a hard IRQ runs on whichever CPU it reaches; one thread hand-off
 * less per completion. Calls stay one at a time. Only for a handler that
 * never waits for the device's work (it runs while its engine's next op
 * waits).
 */
void vpux_host_dev_set_irq_direct(struct vpux_host_dev *dev, bool on);

/* Physical arena: page-aligned allocations, zeroed. */
int vpux_host_phys_alloc(struct vpux_host_dev *dev, size_t bytes, uint64_t *pa);
void vpux_host_phys_free(struct vpux_host_dev *dev, uint64_t pa, size_t bytes);
/* CPU pointer to [pa, pa + len) or NULL if not inside the arena. */
void *vpux_host_phys_ptr(struct vpux_host_dev *dev, uint64_t pa, size_t len);

/* Driver side: one device address space bound to an MMU context slot. */
struct vpux_host_vm;
struct vpux_host_vm *vpux_host_vm_create(struct vpux_host_dev *dev,
					 unsigned int slot);
void vpux_host_vm_destroy(struct vpux_host_vm *vm);
/* Map [va, va + len) to [pa, pa + len); page aligned; 0 or -errno. */
int vpux_host_vm_map(struct vpux_host_vm *vm, uint64_t va, uint64_t pa,
		     size_t len, bool writable);
int vpux_host_vm_unmap(struct vpux_host_vm *vm, uint64_t va, size_t len);

#endif /* VPUX_HW_HOST_H */
