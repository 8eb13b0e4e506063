/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * SHAVE cores that execute code: the hardware contract of an ELF kernel
 * task (Documentation/shave-kernels.rst).
 *
 * A SHAVE op whose kernel_id is VPUX_SHAVE_KERNEL_ELF carries a struct
 * vpux_hw_shave_task instead of a vpux_hw_shave_desc: the engine runs the
 * kernel's RV32IMF code on the SHAVE core of @tile. The core sees only
 * its windows, at fixed guest addresses (the software-layers seed):
 *
 *   WIN_D  0xd0000000  code + RO data, code_size bytes, read/execute only
 *   WIN_E  0xe0000000  the invocation's arguments, args_size bytes, RW
 *          0xe8000000  the invocation's RW data, data_size bytes, RW
 *   WIN_F  0xf0000000  the tile's CMX slice (the I/O buffers), RW
 *   stack  0xc0000000 - stack_size .. 0xc0000000, RW
 *
 * A guest address in WIN_F is VPUX_WADDR(15, offset): the MemRefData
 * records of the arguments point there. Everything else faults. The
 * kernel is entered at WIN_D + entry as the C function
 *
 *	int kernel(u32 args_addr, u32 args_size)
 *
 * with a0 = WIN_E, a1 = args_size, sp = stack top, ra = VPUX_SHAVE_EXIT_PC,
 * every other register 0, fcsr 0 (round to nearest even). It ends by
 * returning (a jump to VPUX_SHAVE_EXIT_PC) or by ECALL with a7 =
 * VPUX_SHAVE_ECALL_EXIT; a0 is its status, 0 for success. Anything else
 * is a trap, which fails the op with VPUX_ENG_ERR_TRAP and the VPUX_ENG_TRAP_*
 * registers naming the cause, the PC and the kernel and invocation tags.
 *
 * WIN_F and RW data are loaded when the op starts; WIN_F is stored back
 * when the kernel succeeds (a failing kernel stores nothing). Includable
 * from the kernel, user space and freestanding code.
 */
#ifndef VPUX_SHAVE_ELF_H
#define VPUX_SHAVE_ELF_H

#include "vpux_regs.h"

/* vpux_hw_shave_task.kernel_id: not a built-in kernel's id */
#define VPUX_SHAVE_KERNEL_ELF		0x100u

/* guest addresses */
#define VPUX_SHAVE_WIN_D		0xd0000000u
#define VPUX_SHAVE_WIN_E		0xe0000000u
#define VPUX_SHAVE_WIN_E_DATA		0xe8000000u
#define VPUX_SHAVE_WIN_F		0xf0000000u
#define VPUX_SHAVE_STACK_TOP		0xc0000000u
#define VPUX_SHAVE_EXIT_PC		0x00001000u
#define VPUX_SHAVE_ECALL_EXIT		93u	/* a7 of the exit ECALL */

/* limits, checked by the engine core and again by the engine */
#define VPUX_SHAVE_CODE_MAX		(1u << 20)	/* code + RO data */
#define VPUX_SHAVE_DATA_MAX		(1u << 20)	/* RW data */
#define VPUX_SHAVE_WIN_F_MAX		0x08000000u	/* 128 MiB */
#define VPUX_SHAVE_STACK_MIN		256u
#define VPUX_SHAVE_STACK_MAX		(256u << 10)
#define VPUX_SHAVE_STACK_ALIGN		16u
/* budget: instructions in units of 2^10; 0 = the default */
#define VPUX_SHAVE_BUDGET_SHIFT		10
#define VPUX_SHAVE_BUDGET_DEFAULT	(1u << 20)	/* 2^30 instructions */
#define VPUX_SHAVE_BUDGET_MAX		(1u << 22)	/* 2^32 instructions */
/* the engine's own cycle figures for an ELF op */
#define VPUX_SHAVE_CYCLES_ELF_LAUNCH	400u

/**
 * struct vpux_hw_shave_task - one kernel task (a Kernel Invocation on a
 * tile), as the engine core hands it to a SHAVE engine (PARAM words)
 * @kernel_id: VPUX_SHAVE_KERNEL_ELF
 * @args_size: bytes of the argument buffer, 0..VPUX_SHAVE_ARGS_MAX
 * @args: device address of the argument buffer (WIN_E)
 * @code: device address of the kernel image: code + RO data (WIN_D)
 * @code_size: bytes, 4..VPUX_SHAVE_CODE_MAX, a multiple of 4
 * @entry: byte offset of the entry point in the image, < code_size, even
 * @data: device address of the RW data, 0 when @data_size is 0
 * @data_size: bytes, 0..VPUX_SHAVE_DATA_MAX, a multiple of 4
 * @stack_size: bytes of stack (the tile's stack configuration),
 *	VPUX_SHAVE_STACK_MIN..VPUX_SHAVE_STACK_MAX, multiple of 16
 * @win_f: device address of WIN_F (a CMX slice of @tile, or any buffer)
 * @win_f_size: bytes, 0..VPUX_SHAVE_WIN_F_MAX
 * @tile: tile whose SHAVE runs the kernel, below the device's tile count
 * @kernel: tag naming the kernel in errors (its index in the loadable)
 * @invocation: tag naming the invocation in errors
 * @budget: instruction budget in units of 2^VPUX_SHAVE_BUDGET_SHIFT,
 *	0..VPUX_SHAVE_BUDGET_MAX; 0 = VPUX_SHAVE_BUDGET_DEFAULT
 * @flags: 0
 * @rt_code: device address of the runtime kernel's image (code + RO
 *	data at WIN_R, vpux_shave_rt.h); 0: the reference runtime kernel
 *	the engine holds, and @rt_size and @rt_entry are 0
 * @rt_size: bytes, 4..VPUX_SHAVE_RT_CODE_MAX, a multiple of 4
 * @rt_entry: byte offset of its entry point, < @rt_size, even
 * @rt_kernel: tag naming the runtime kernel in errors (VPUX_SHAVE_RT_REF
 *	for the reference one)
 * @reserved: 0
 *
 * The first 16 bytes are laid out as struct vpux_hw_shave_desc's.
 */
struct vpux_hw_shave_task {
	__UINT32_TYPE__ kernel_id;
	__UINT32_TYPE__ args_size;
	__UINT64_TYPE__ args;
	__UINT64_TYPE__ code;
	__UINT32_TYPE__ code_size;
	__UINT32_TYPE__ entry;
	__UINT64_TYPE__ data;
	__UINT32_TYPE__ data_size;
	__UINT32_TYPE__ stack_size;
	__UINT64_TYPE__ win_f;
	__UINT32_TYPE__ win_f_size;
	__UINT32_TYPE__ tile;
	__UINT32_TYPE__ kernel;
	__UINT32_TYPE__ invocation;
	__UINT32_TYPE__ budget;
	__UINT32_TYPE__ flags;
	__UINT64_TYPE__ rt_code;
	__UINT32_TYPE__ rt_size;
	__UINT32_TYPE__ rt_entry;
	__UINT32_TYPE__ rt_kernel;
	__UINT32_TYPE__ reserved[3];
};
VPUX_STATIC_ASSERT_DESC(vpux_hw_shave_task);
_Static_assert(sizeof(struct vpux_hw_shave_task) == 112, "shave task size");

/*
 * Trap causes (VPUX_ENG_TRAP_CAUSE): the RISC-V exception codes the
 * kernel can raise, then the SHAVE's own.
 */
#define VPUX_SHAVE_TRAP_MISALIGNED_FETCH 0u
#define VPUX_SHAVE_TRAP_FETCH		1u	/* fetch outside WIN_D */
#define VPUX_SHAVE_TRAP_ILLEGAL		2u	/* tval: the instruction */
#define VPUX_SHAVE_TRAP_BREAKPOINT	3u
#define VPUX_SHAVE_TRAP_MISALIGNED_LOAD	4u
#define VPUX_SHAVE_TRAP_LOAD		5u	/* load outside the windows */
#define VPUX_SHAVE_TRAP_MISALIGNED_STORE 6u
#define VPUX_SHAVE_TRAP_STORE		7u	/* store outside the windows */
#define VPUX_SHAVE_TRAP_ECALL		11u	/* not the exit ECALL; tval: a7 */
#define VPUX_SHAVE_TRAP_WRITE_CODE	16u	/* store into WIN_D */
#define VPUX_SHAVE_TRAP_STACK_OVERFLOW	17u	/* access just below the stack */
#define VPUX_SHAVE_TRAP_BUDGET		18u	/* instruction budget spent */
#define VPUX_SHAVE_TRAP_STATUS		19u	/* returned non-zero; tval: a0 */
#define VPUX_SHAVE_TRAP_DESC		20u	/* bad task record (see tval) */
#define VPUX_SHAVE_TRAP_RT_IDLE		21u	/* runtime kernel idle, task not
						 * done; tval: tasks pending */

/* below the stack by at most this much: reported as a stack overflow */
#define VPUX_SHAVE_STACK_GUARD		(64u << 10)

static inline const char *vpux_shave_trap_name(__UINT32_TYPE__ cause)
{
	switch (cause) {
	case VPUX_SHAVE_TRAP_MISALIGNED_FETCH:
		return "misaligned fetch";
	case VPUX_SHAVE_TRAP_FETCH:
		return "fetch outside WIN_D";
	case VPUX_SHAVE_TRAP_ILLEGAL:
		return "illegal instruction";
	case VPUX_SHAVE_TRAP_BREAKPOINT:
		return "breakpoint";
	case VPUX_SHAVE_TRAP_MISALIGNED_LOAD:
		return "misaligned load";
	case VPUX_SHAVE_TRAP_LOAD:
		return "load outside the windows";
	case VPUX_SHAVE_TRAP_MISALIGNED_STORE:
		return "misaligned store";
	case VPUX_SHAVE_TRAP_STORE:
		return "store outside the windows";
	case VPUX_SHAVE_TRAP_ECALL:
		return "unknown ecall";
	case VPUX_SHAVE_TRAP_WRITE_CODE:
		return "store into WIN_D";
	case VPUX_SHAVE_TRAP_STACK_OVERFLOW:
		return "stack overflow";
	case VPUX_SHAVE_TRAP_BUDGET:
		return "instruction budget exceeded";
	case VPUX_SHAVE_TRAP_STATUS:
		return "kernel returned an error";
	case VPUX_SHAVE_TRAP_DESC:
		return "bad kernel task record";
	case VPUX_SHAVE_TRAP_RT_IDLE:
		return "runtime kernel idle with a task not done";
	default:
		return "unknown trap";
	}
}

#endif /* VPUX_SHAVE_ELF_H */
