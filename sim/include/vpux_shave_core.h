/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux NPU model: one SHAVE core running an ELF kernel's code
 * (Documentation/shave-kernels.rst) on the RV32 interpreter, with its
 * windows in caller-provided host buffers. The engine (vpux_sim_shave_elf.c)
 * fills them from device memory; host tests fill them directly.
 */
#ifndef VPUX_SHAVE_CORE_H
#define VPUX_SHAVE_CORE_H

#include "vpux_rv.h"
#include "vpux_shave_rt.h"

/**
 * struct vpux_shave_core - a SHAVE core and its windows
 * @rv: the hart (F extension, read-only code, halts at a trap)
 * @bus: every access outside the code window
 * @code, @code_size: WIN_D (the hart's RAM), read/execute only
 * @args, @args_size: WIN_E from its base
 * @data, @data_size: WIN_E from VPUX_SHAVE_WIN_E_DATA
 * @win_f, @win_f_size: WIN_F
 * @stack, @stack_size: below VPUX_SHAVE_STACK_TOP
 * @budget: instructions the kernel may execute
 * @executed: instructions executed so far
 * @done: the kernel ended (successfully or by a trap)
 * @cause: VPUX_SHAVE_TRAP_* once done with a trap, else 0...
 * @trapped: ...and true then
 * @pc, @tval: where it trapped and the trap value
 * @rt, @rt_size: WIN_R, the runtime kernel's image (read/execute only),
 *	or NULL: the core runs the kernel at WIN_D directly
 * @ctl: WIN_C, VPUX_SHAVE_RT_WIN_C_SIZE bytes (with @rt)
 * @rt_buf: the engine's: a loadable's runtime kernel as fetched
 * @idle: done without a trap by WFI (or, with @rt, the runtime kernel's
 *	exit ECALL): the engine decides what that means
 */
struct vpux_shave_core {
	struct vpux_rv rv;
	struct vpux_rv_bus bus;
	u8 *code, *args, *data, *win_f, *stack;
	u32 code_size, args_size, data_size, win_f_size, stack_size;
	u64 budget, executed;
	bool done, trapped;
	u32 cause, pc, tval;
	const u8 *rt;
	u8 *ctl, *rt_buf;
	u32 rt_size;
	bool idle;
};

/*
 * vpux_shave_core_start() - reset the core to enter the kernel at WIN_D
 * + @entry with the seed's arguments (a0 = WIN_E, a1 = args_size); the
 * buffers, sizes and budget are set. Zeroes the stack.
 */
void vpux_shave_core_start(struct vpux_shave_core *c, u32 entry);

/*
 * vpux_shave_core_start_rt() - reset the core to enter the runtime kernel
 * (@rt, @rt_size, @ctl set) at WIN_R + @rt_entry with a0 = WIN_C and its
 * stack at the end of WIN_C. Zeroes the kernels' stack, not WIN_C.
 */
void vpux_shave_core_start_rt(struct vpux_shave_core *c, u32 rt_entry);

/*
 * vpux_shave_core_run() - run at most @slice instructions
 * Return: true once the kernel is done (@trapped says how) or the core
 * idles (@idle).
 */
bool vpux_shave_core_run(struct vpux_shave_core *c, u32 slice);

#endif /* VPUX_SHAVE_CORE_H */
