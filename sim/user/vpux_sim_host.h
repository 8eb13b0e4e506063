/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Host user-space platform for the NPU model: plays the part of the SoC
 * around the NPU when there is no kernel in the loop (unit tests, the
 * in-process backend of libvpux).
 *
 * It owns one model instance, a "physical memory" arena (the addresses
 * written into page tables are offsets into it, so a stray model access can
 * never reach the process's own memory), one worker thread per execution
 * unit that runs its work (vpux_sim_run_unit), and interrupt delivery:
 * when the model raises its line, the registered handler runs on the
 * interrupt thread, the way a hard-IRQ handler would run on a CPU.
 *
 * The driver-side helpers at the end write page tables in the model's
 * format and program the MMU registers, as the kernel driver does.
 */
#ifndef VPUX_SIM_HOST_H
#define VPUX_SIM_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vpux_sim.h"

struct vpux_host_dev;

/* First physical address of the arena (never 0, never a host pointer). */
#define VPUX_HOST_PHYS_BASE	0x80000000ull

/*
 * Create a device. @cfg NULL = vpux_sim_default_config(). @phys_bytes is
 * the size of the physical arena. @step_mode: no worker threads; the caller
 * drives the model with vpux_host_dev_step() (deterministic tests).
 */
struct vpux_host_dev *vpux_host_dev_create(const struct vpux_sim_config *cfg,
					   size_t phys_bytes, bool step_mode);
void vpux_host_dev_destroy(struct vpux_host_dev *dev);
struct vpux_sim *vpux_host_dev_sim(struct vpux_host_dev *dev);

/* MMIO accessors (what a driver would use). */
uint32_t vpux_host_reg_read(struct vpux_host_dev *dev, uint32_t off);
void vpux_host_reg_write(struct vpux_host_dev *dev, uint32_t off, uint32_t val);

/*
 * Interrupt handler: called on the device's interrupt thread each time the
 * line is raised (in step mode: inside vpux_host_dev_step()). It must ack
 * (IRQ_CLEAR) what it handles. One handler at a time; @handler NULL
 * removes it.
 *
 * Like the kernel's free_irq() and synchronize_irq(): when this returns,
 * calls of the previous handler that were already running (on the
 * interrupt thread, or in vpux_host_dev_step() on another thread) have
 * returned, and none starts later, so the caller may free the previous
 * handler's data at once. Calls of the new handler that start meanwhile
 * are not waited for. So the caller must not hold a lock the running
 * handler may take.
 *
 * Exception: called from inside a handler of @dev (the handler removing
 * or replacing itself) it does not wait, since it would wait for itself;
 * the old data must then stay valid until that handler returns.
 */
void vpux_host_dev_set_irq_handler(struct vpux_host_dev *dev,
				   void (*handler)(void *arg), void *arg);

/*
 * Step mode: complete one queued op (earliest on the virtual clock) and
 * deliver its interrupt synchronously to the handler before returning.
 * Returns 1 if an op completed, 0 if nothing was queued. In step mode
 * there are no threads: an interrupt signalled by a register write (an
 * IRQ_MASK write unmasking a pending bit) is delivered at the next step.
 */
int vpux_host_dev_step(struct vpux_host_dev *dev);

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

#endif /* VPUX_SIM_HOST_H */
