/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Every limit of the engine core, in one place.
 *
 * All per-task state lives in fixed arrays sized by these constants (the
 * core never allocates). A build may override any of them on the compiler
 * command line (-DDLA_MAX_OPS_PER_TASK=...): the microcontroller image uses
 * small values, the scheduler benchmark large ones. The task format
 * (uapi/drm/vpux_task.h) fixes the wait/update list lengths and the
 * SHAVE windows: those are defined there.
 */
#ifndef DLA_LIMITS_H
#define DLA_LIMITS_H

/* Tasks in flight at once (distinct task slots); at most 32. */
#ifndef DLA_MAX_TASKS
#define DLA_MAX_TASKS			8u
#endif

/* Ops in one task, summed over every engine kind; below 2^24. */
#ifndef DLA_MAX_OPS_PER_TASK
#define DLA_MAX_OPS_PER_TASK		4096u
#endif

/* Barriers in one task's barrier table; at most 65535. */
#ifndef DLA_MAX_BARRIERS
#define DLA_MAX_BARRIERS		4096u
#endif

/*
 * Dependency edges of one task, per direction: the sum of every op's wait
 * list lengths (barrier -> consumer edges) and, separately, the sum of
 * every op's update list lengths (op -> barrier edges).
 */
#ifndef DLA_MAX_DEPS_PER_TASK
#define DLA_MAX_DEPS_PER_TASK		16384u
#endif

/* Entries of a task's address list (entry 0 = the task descriptor). */
#ifndef DLA_MAX_ADDR_ENTRIES
#define DLA_MAX_ADDR_ENTRIES		256u
#endif

/*
 * Plans (Documentation/dynamic-shapes.rst): bytes of one plan, its blocks
 * and templates, the ops it may expand to in all (below 2^24, the op
 * link encoding), and the window: expanded ops alive at once, a power of
 * two of at most 128. The format fixes the rest (drm/vpux_task.h).
 */
#ifndef DLA_PLAN_SIZE_MAX
#define DLA_PLAN_SIZE_MAX		8192u
#endif
#ifndef DLA_PLAN_MAX_BLOCKS
#define DLA_PLAN_MAX_BLOCKS		16u
#endif
#ifndef DLA_PLAN_MAX_TEMPLATES
#define DLA_PLAN_MAX_TEMPLATES		32u
#endif
#ifndef DLA_PLAN_MAX_EXPANDED
#define DLA_PLAN_MAX_EXPANDED		(1u << 24)
#endif
#ifndef DLA_PLAN_WINDOW
#define DLA_PLAN_WINDOW			32u
#endif

/* Engines the core drives (all kinds together); the hardware has <= 16. */
#define DLA_MAX_ENGINES			16u

/* Priority levels: 0 (lowest) .. DLA_PRIO_LEVELS - 1 (highest). */
#define DLA_PRIO_LEVELS			4u

#endif /* DLA_LIMITS_H */
