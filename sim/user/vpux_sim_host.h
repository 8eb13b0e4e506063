/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Host user-space platform for the NPU model: plays the part of the SoC
 * around the NPU when there is no kernel in the loop (unit tests, the
 * in-process backend of libvpux).
 *
 * It implements the host device interface of vpux_hw_host.h, which is all
 * that code outside the model uses: one model instance, a "physical
 * memory" arena (the addresses written into page tables are offsets into
 * it, so a stray model access can never reach the process's own memory),
 * one worker thread per execution unit that runs its work
 * (vpux_sim_run_unit), and interrupt delivery: when the model raises its
 * line, the registered handler runs on the interrupt thread, the way a
 * hard-IRQ handler would run on a CPU.
 *
 * This header adds what only the model's tests and tools use: a device of
 * any shape, the model instance itself and step mode.
 */
#ifndef VPUX_SIM_HOST_H
#define VPUX_SIM_HOST_H

#include "vpux_hw_host.h"
#include "vpux_sim.h"

/* First physical address of the arena (never 0, never a host pointer). */
#define VPUX_HOST_PHYS_BASE	0x80000000ull

/*
 * Create a device. @cfg NULL = vpux_sim_default_config(). @phys_bytes is
 * the size of the physical arena. @step_mode: no worker threads; the caller
 * drives the model with vpux_host_dev_step() (deterministic tests).
 * vpux_host_dev_create(@phys_bytes) is (NULL, @phys_bytes, false).
 */
struct vpux_host_dev *vpux_host_dev_create_cfg(const struct vpux_sim_config *cfg,
					       size_t phys_bytes, bool step_mode);
struct vpux_sim *vpux_host_dev_sim(struct vpux_host_dev *dev);

/*
 * Step mode: complete one queued op (earliest on the virtual clock) and
 * deliver its interrupt synchronously to the handler before returning.
 * Returns 1 if an op completed, 0 if nothing was queued. In step mode
 * there are no threads: an interrupt signalled by a register write (an
 * IRQ_MASK write unmasking a pending bit) is delivered at the next step,
 * and vpux_host_dev_set_irq_handler() also waits for a handler call
 * running inside vpux_host_dev_step() on another thread.
 */
int vpux_host_dev_step(struct vpux_host_dev *dev);

/*
 * The management core's console (VPUX_MC_REG_CONSOLE): copies the last
 * lines it printed (at most 4 KiB, one '\n' after each) into @buf,
 * NUL-terminated, at most @size - 1 bytes of them, the newest. Returns
 * the bytes copied.
 */
size_t vpux_host_dev_console(struct vpux_host_dev *dev, char *buf,
			     size_t size);

#endif /* VPUX_SIM_HOST_H */
