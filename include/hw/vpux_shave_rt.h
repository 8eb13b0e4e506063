/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The SHAVE runtime kernel: where the engine and the runtime kernel meet
 * (Documentation/shave-kernels.rst, "Runtime kernel: FIFO and barrier
 * protocol").
 *
 * A SHAVE engine does not enter a kernel task itself: it runs the
 * runtime kernel, RV32 code in WIN_R, on the SHAVE core, and pushes the
 * task into a FIFO in WIN_C that the runtime kernel takes it from. The
 * runtime kernel waits for the task's barrier, launches the kernel (a0,
 * a1, sp from the entry, a jump to its entry in WIN_D, control back on
 * its return or exit ECALL), writes its status, updates the task's
 * barrier and takes the next entry; with the FIFO empty it idles in WFI.
 * The runtime kernel is the loadable's (a .vpux.kernels record of kind
 * 2) or, when the loadable carries none, the reference runtime kernel
 * of the SDK (kernels/runtime/runtime.c), which the engine holds.
 *
 * Guest addresses, beside those of vpux_shave_elf.h:
 *
 *   WIN_R  0xa0000000  the runtime kernel's code + RO data, read/execute
 *   WIN_C  0xa8000000  struct vpux_shave_rt_ctl, then the runtime
 *                      kernel's stack (VPUX_SHAVE_RT_STACK bytes), RW
 *
 * The runtime kernel is entered at WIN_R + rt_entry with sp = WIN_C +
 * VPUX_SHAVE_RT_WIN_C_SIZE, a0 = WIN_C, every other register 0. Integers
 * in WIN_C are little-endian u32. Includable from the SDK, user space and
 * freestanding code.
 */
#ifndef VPUX_SHAVE_RT_H
#define VPUX_SHAVE_RT_H

#include "vpux_shave_elf.h"

#define VPUX_SHAVE_WIN_R		0xa0000000u
#define VPUX_SHAVE_WIN_C		0xa8000000u

/* limits of a runtime kernel's image: code + RO data */
#define VPUX_SHAVE_RT_CODE_MAX		(64u << 10)
#define VPUX_SHAVE_RT_STACK		1024u

/* vpux_hw_shave_task.rt_kernel of the reference runtime kernel */
#define VPUX_SHAVE_RT_REF		0xffffffffu

#define VPUX_SHAVE_RT_MAGIC		0x31545256u	/* "VRT1" */
#define VPUX_SHAVE_RT_DEPTH		8u	/* FIFO entries */
#define VPUX_SHAVE_RT_BARRIERS		8u
#define VPUX_SHAVE_RT_NO_BARRIER	0xffffffffu

/**
 * struct vpux_shave_rt_task - a FIFO entry: one kernel task
 * @entry: guest PC of the kernel's entry point (WIN_D + entry)
 * @a0: the kernel's first argument (VPUX_SHAVE_WIN_E)
 * @a1: its second (the argument buffer's size)
 * @sp: its stack pointer (VPUX_SHAVE_STACK_TOP)
 * @wait: barrier the task waits for: it starts once that counter is 0;
 *	VPUX_SHAVE_RT_NO_BARRIER for none
 * @post: barrier the task updates: decremented by one when it is done;
 *	VPUX_SHAVE_RT_NO_BARRIER for none
 * @status: written by the runtime kernel: the kernel's a0 at its end
 * @invocation: the invocation's tag (the engine's, for reports)
 */
struct vpux_shave_rt_task {
	__UINT32_TYPE__ entry;
	__UINT32_TYPE__ a0;
	__UINT32_TYPE__ a1;
	__UINT32_TYPE__ sp;
	__UINT32_TYPE__ wait;
	__UINT32_TYPE__ post;
	__UINT32_TYPE__ status;
	__UINT32_TYPE__ invocation;
};

/**
 * struct vpux_shave_rt_ctl - the control block at WIN_C
 * @magic: VPUX_SHAVE_RT_MAGIC (engine)
 * @depth: entries of @fifo, VPUX_SHAVE_RT_DEPTH (engine)
 * @head: entries the runtime kernel has taken, free-running (runtime)
 * @tail: entries the engine has pushed, free-running (engine); entry n
 *	is @fifo[n % @depth]; @head == @tail: the FIFO is empty
 * @done: entries completed, status written and barrier updated (runtime)
 * @running: n + 1 while entry n's kernel runs, else 0 (runtime)
 * @debug: free for the runtime kernel; the engine reports @debug[0] in
 *	VPUX_ENG_RT_DEBUG after the op
 * @barrier: barrier counters, producers still to come (engine sets them
 *	before it pushes; runtime decrements)
 * @fifo: the ring
 */
struct vpux_shave_rt_ctl {
	__UINT32_TYPE__ magic;
	__UINT32_TYPE__ depth;
	__UINT32_TYPE__ head;
	__UINT32_TYPE__ tail;
	__UINT32_TYPE__ done;
	__UINT32_TYPE__ running;
	__UINT32_TYPE__ debug[2];
	__UINT32_TYPE__ barrier[VPUX_SHAVE_RT_BARRIERS];
	struct vpux_shave_rt_task fifo[VPUX_SHAVE_RT_DEPTH];
};
_Static_assert(sizeof(struct vpux_shave_rt_task) == 32, "rt task size");
_Static_assert(sizeof(struct vpux_shave_rt_ctl) == 320, "rt ctl size");

#define VPUX_SHAVE_RT_WIN_C_SIZE \
	(sizeof(struct vpux_shave_rt_ctl) + VPUX_SHAVE_RT_STACK)

/*
 * The barriers of an ELF op's task, as the engine sets them: the engine
 * core started the op once its dependencies were met, so the task's
 * wait barrier is already 0; the task is the one producer of its post
 * barrier (1), which the engine requires at 0 when the runtime kernel
 * idles: that is the op's completion.
 */
#define VPUX_SHAVE_RT_OP_WAIT		0u
#define VPUX_SHAVE_RT_OP_POST		1u

#endif /* VPUX_SHAVE_RT_H */
