/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Error codes of the engine core. Functions return 0 or the negated code
 * (-DLA_ERR_*). Codes below 100 are about the call itself; 100..199 name
 * the rule of task validation that failed; 200.. are run-time failures of
 * a task that passed validation. Documentation/engine-core.rst lists them.
 *
 * A code is a detail: informative, and the list may grow. What a caller
 * decides on is the code's category (dla_err_category()), one of a small
 * stable set that the kernel reports as DRM_VPUX_ERR_* (equal values).
 */
#ifndef DLA_ERR_H
#define DLA_ERR_H

enum dla_err {
	DLA_OK = 0,
	/* call errors */
	DLA_ERR_INVAL = 1,		/* bad argument to an interface call */
	DLA_ERR_BUSY = 2,		/* no free task slot */
	DLA_ERR_NODEV = 3,		/* hardware identity or engines wrong */
	DLA_ERR_NOENT = 4,		/* task slot not in use */
	DLA_ERR_PORT = 5,		/* a port callback failed */
	DLA_ERR_RUNNING = 6,		/* task already started / running */

	/* validation: task descriptor */
	DLA_ERR_ADDR_INDEX = 100,	/* address-list index out of the list */
	DLA_ERR_BAD_MAGIC = 101,
	DLA_ERR_BAD_VERSION = 102,
	DLA_ERR_HEADER_SIZE = 103,	/* header size field / entry 0 too small */
	DLA_ERR_RESERVED = 104,		/* reserved field or flag not zero */
	DLA_ERR_TOO_MANY_OPS = 105,	/* op counts above the limits */
	DLA_ERR_TOO_MANY_BARRIERS = 106,
	DLA_ERR_TOO_MANY_DEPS = 107,	/* wait or update edges above limit */
	DLA_ERR_TABLE_RANGE = 108,	/* op list / barrier table outside entry 0 */
	DLA_ERR_OVERFLOW = 109,		/* integer overflow in a size computation */
	DLA_ERR_EMPTY = 110,		/* task without ops */
	/* validation: barriers and graph */
	DLA_ERR_LIST_LEN = 120,		/* wait/update list longer than allowed */
	DLA_ERR_BARRIER_ID = 121,	/* barrier id >= number of barriers */
	DLA_ERR_DUP_BARRIER = 122,	/* same barrier twice in one list */
	DLA_ERR_PRODUCER_COUNT = 123,	/* producer count != ops updating it */
	DLA_ERR_CONSUMER_COUNT = 124,	/* consumer count != ops waiting on it */
	DLA_ERR_CYCLE = 125,		/* the wait graph has a cycle */
	/* validation: buffers and op bodies */
	DLA_ERR_BUF_RANGE = 140,	/* offset + size outside its buffer */
	DLA_ERR_CMX_RANGE = 141,	/* CMX tile or range outside CMX */
	DLA_ERR_EXTENT = 142,		/* tensor extent larger than its ref */
	DLA_ERR_SHAPE = 143,		/* inconsistent or zero shape field */
	DLA_ERR_DPU_OP = 144,		/* unknown DPU operation */
	DLA_ERR_FLAGS = 145,		/* unknown flag */
	DLA_ERR_ARGS_SIZE = 146,	/* SHAVE args size 0 or > max */
	DLA_ERR_WINDOW = 147,		/* SHAVE window too large */
	DLA_ERR_MISSING_REF = 148,	/* required buffer ref is empty */
	DLA_ERR_UNUSED_REF = 149,	/* unused buffer ref is not all zero */
	DLA_ERR_CTX = 150,		/* MMU context slot out of range */
	DLA_ERR_PRIORITY = 151,		/* priority out of range */
	DLA_ERR_QUANT = 152,		/* DPU output stage: zero point, requant, clamp, FP16 activation/scale/slope */
	DLA_ERR_READONLY = 153,		/* op writes a read-only entry */
	DLA_ERR_SHAVE_TASK = 154,	/* SHAVE ELF task: entry, stack, tile, budget */
	DLA_ERR_CMX_WINDOW = 155,	/* CMX tile outside the task's tile window */
	/* validation: plans (Documentation/dynamic-shapes.rst) */
	DLA_ERR_PLAN_FORMAT = 160,	/* plan header/block/template malformed */
	DLA_ERR_PLAN_DEPTH = 161,	/* loop nesting above the limit */
	DLA_ERR_PLAN_EXPR = 162,	/* malformed expression */
	DLA_ERR_PLAN_SYMBOL = 163,	/* symbol buffer short / value out of bounds */
	DLA_ERR_PLAN_COUNT = 164,	/* loop count overflow: too many ops */
	DLA_ERR_PLAN_PATCH = 165,	/* patch outside the record / fixed word */

	/* run time */
	DLA_ERR_ENGINE = 200,		/* engine reported ERROR */
	DLA_ERR_MMU_FAULT = 201,	/* MMU fault raised by an op */
	DLA_ERR_ABORTED = 202,		/* aborted by dla_clear_task() */
	/*
	 * dla_task_prepare(): the descriptor read again asks for more memory
	 * than the port gives (it changed since dla_task_measure())
	 */
	DLA_ERR_CHANGED = 203,
	/* a plan expression overflowed (or went below 0) / divided by 0 */
	DLA_ERR_EXPR_OVERFLOW = 204,
	DLA_ERR_EXPR_DIV0 = 205,
};

/*
 * Categories of failure, stable (uapi: DRM_VPUX_ERR_*, the same values).
 * HANG has no code of its own: the port that gave up on a task says so.
 */
enum dla_err_category {
	DLA_ERRC_NONE = 0,	/* no error */
	DLA_ERRC_INVALID = 1,	/* the task (or its symbols) broke a rule */
	DLA_ERRC_FAULT = 2,	/* an op raised an MMU fault */
	DLA_ERRC_HANG = 3,	/* the task hung and was stopped */
	DLA_ERRC_ENGINE = 4,	/* an engine reported an error */
	DLA_ERRC_ABORTED = 5,	/* stopped or never run, through no fault */
	DLA_ERRC_DEVICE = 6,	/* the device, firmware or core failed */
};

/*
 * The category of code @e, or -1 if @e is no code: every code has a case
 * (-Wswitch: a code added without one does not build).
 */
static inline int dla_err_category_of(enum dla_err e)
{
	switch (e) {
	case DLA_OK:
		return DLA_ERRC_NONE;
	case DLA_ERR_INVAL:
	case DLA_ERR_BUSY:
	case DLA_ERR_NODEV:
	case DLA_ERR_NOENT:
	case DLA_ERR_PORT:
	case DLA_ERR_RUNNING:
		return DLA_ERRC_DEVICE;
	case DLA_ERR_ADDR_INDEX:
	case DLA_ERR_BAD_MAGIC:
	case DLA_ERR_BAD_VERSION:
	case DLA_ERR_HEADER_SIZE:
	case DLA_ERR_RESERVED:
	case DLA_ERR_TOO_MANY_OPS:
	case DLA_ERR_TOO_MANY_BARRIERS:
	case DLA_ERR_TOO_MANY_DEPS:
	case DLA_ERR_TABLE_RANGE:
	case DLA_ERR_OVERFLOW:
	case DLA_ERR_EMPTY:
	case DLA_ERR_LIST_LEN:
	case DLA_ERR_BARRIER_ID:
	case DLA_ERR_DUP_BARRIER:
	case DLA_ERR_PRODUCER_COUNT:
	case DLA_ERR_CONSUMER_COUNT:
	case DLA_ERR_CYCLE:
	case DLA_ERR_BUF_RANGE:
	case DLA_ERR_CMX_RANGE:
	case DLA_ERR_EXTENT:
	case DLA_ERR_SHAPE:
	case DLA_ERR_DPU_OP:
	case DLA_ERR_FLAGS:
	case DLA_ERR_ARGS_SIZE:
	case DLA_ERR_WINDOW:
	case DLA_ERR_MISSING_REF:
	case DLA_ERR_UNUSED_REF:
	case DLA_ERR_CTX:
	case DLA_ERR_PRIORITY:
	case DLA_ERR_QUANT:
	case DLA_ERR_READONLY:
	case DLA_ERR_SHAVE_TASK:
	case DLA_ERR_CMX_WINDOW:
	case DLA_ERR_PLAN_FORMAT:
	case DLA_ERR_PLAN_DEPTH:
	case DLA_ERR_PLAN_EXPR:
	case DLA_ERR_PLAN_SYMBOL:
	case DLA_ERR_PLAN_COUNT:
	case DLA_ERR_PLAN_PATCH:
	case DLA_ERR_CHANGED:
	case DLA_ERR_EXPR_OVERFLOW:
	case DLA_ERR_EXPR_DIV0:
		return DLA_ERRC_INVALID;
	case DLA_ERR_ENGINE:
		return DLA_ERRC_ENGINE;
	case DLA_ERR_MMU_FAULT:
		return DLA_ERRC_FAULT;
	case DLA_ERR_ABORTED:
		return DLA_ERRC_ABORTED;
	}
	return -1;
}

/*
 * dla_err_category() - the category of a code (positive, as the kernel
 * reports it, or negated, as the core's functions return it); a number
 * that is no code (a newer core's) is DLA_ERRC_DEVICE
 */
static inline unsigned int dla_err_category(int code)
{
	unsigned int u = code < 0 ? 0u - (unsigned int)code : (unsigned int)code;
	int c = u > 0xffffu ? -1 : dla_err_category_of((enum dla_err)u);

	return c < 0 ? DLA_ERRC_DEVICE : (unsigned int)c;
}

#endif /* DLA_ERR_H */
