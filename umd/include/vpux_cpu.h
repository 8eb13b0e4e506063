/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: vpux_cpu.h - the C ABI of CPU-function libraries for run recipes
 *
 * A run recipe (Documentation/run-recipes.rst) names CPU functions that
 * live in shared libraries. The runner loads such a library with dlopen()
 * and calls its one exported entry point::
 *
 *	int library_init(struct vpux_cpu_library_init_args *args);
 *
 * which fills @args->lookup (and optionally @args->fini). The runner then
 * calls lookup(name, &largs) once per function the recipe names; lookup
 * fills largs.fn and largs.num_args, or returns a negative errno
 * (-ENOENT: no such function) that the runner reports with the name.
 *
 * A run calls fn(&call): @call->args holds @call->num_args typed arguments
 * in the recipe's argidx order. The function returns 0, or a negative errno
 * after writing a message into @call->err (at most @call->err_size bytes,
 * NUL-terminated); the runner fails the execution with that message. A
 * function must not keep pointers to its arguments after it returns, and
 * must not call exit(), abort() or longjmp() out of the runner.
 *
 * Versioning: every structure starts with its size in bytes as the caller
 * built it. Fields are only ever appended; a side reads a field only if
 * the size the other side gave covers it. A library built against an older
 * header therefore keeps working with a newer runner and the reverse: the
 * runner zeroes @args and @largs, sets their @size and @abi_version, and
 * treats fields the library did not write as absent. Neither side frees
 * memory the other allocated. The one exception is struct vpux_cpu_arg:
 * it is an array element (call->args), whose stride a library built
 * against this header assumes, so it never grows; a new kind of argument
 * is a new enum vpux_cpu_arg_type value whose data fits the union.
 */
#ifndef VPUX_CPU_H
#define VPUX_CPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version of this header; bumped when fields are appended */
#define VPUX_CPU_ABI_VERSION 1

/* name of the one symbol a CPU library exports */
#define VPUX_CPU_LIBRARY_INIT "library_init"

/**
 * enum vpux_cpu_arg_type - type of one argument of a CPU function
 * @VPUX_CPU_ARG_BUFFER: a view of a recipe buffer (or of a sub-buffer)
 * @VPUX_CPU_ARG_INT: a 64-bit signed integer constant
 * @VPUX_CPU_ARG_STRING: a NUL-terminated string constant
 */
enum vpux_cpu_arg_type {
	VPUX_CPU_ARG_BUFFER = 1,
	VPUX_CPU_ARG_INT = 2,
	VPUX_CPU_ARG_STRING = 3,
};

/**
 * struct vpux_cpu_buffer - a CPU view of (a slice of) a recipe buffer
 * @data: first byte of the view
 * @size: bytes in the view
 * @name: the recipe buffer's name, for messages
 */
struct vpux_cpu_buffer {
	void *data;
	uint64_t size;
	const char *name;
};

/**
 * struct vpux_cpu_arg - one typed argument
 * @type: enum vpux_cpu_arg_type
 * @buf: the view, for VPUX_CPU_ARG_BUFFER
 * @i: the value, for VPUX_CPU_ARG_INT
 * @str: the value, for VPUX_CPU_ARG_STRING
 */
struct vpux_cpu_arg {
	uint32_t type;
	uint32_t reserved;
	union {
		struct vpux_cpu_buffer buf;
		int64_t i;
		const char *str;
	};
};

/**
 * struct vpux_cpu_call - what a CPU function is called with
 * @size: sizeof(struct vpux_cpu_call) as the runner built it
 * @num_args: entries of @args (equal to what lookup reported)
 * @args: the arguments, indexed by argidx
 * @err: buffer for a failure message
 * @err_size: bytes of @err (at least 1)
 */
struct vpux_cpu_call {
	uint32_t size;
	uint32_t num_args;
	const struct vpux_cpu_arg *args;
	char *err;
	size_t err_size;
};

/** vpux_cpu_fn - a CPU function: 0 or a negative errno with call->err set */
typedef int (*vpux_cpu_fn)(const struct vpux_cpu_call *call);

/**
 * struct vpux_cpu_lookup_args - what lookup reports about a function
 * @size: sizeof(struct vpux_cpu_lookup_args) as the runner built it
 * @num_args: number of arguments the function takes
 * @fn: the function
 */
struct vpux_cpu_lookup_args {
	uint32_t size;
	uint32_t num_args;
	vpux_cpu_fn fn;
};

/** vpux_cpu_lookup_fn - find @name: 0, or -ENOENT when there is none */
typedef int (*vpux_cpu_lookup_fn)(const char *name,
				  struct vpux_cpu_lookup_args *args);

/**
 * struct vpux_cpu_library_init_args - filled by library_init()
 * @size: sizeof(struct vpux_cpu_library_init_args) as the runner built it
 * @abi_version: VPUX_CPU_ABI_VERSION of the runner
 * @lookup: set by the library (required)
 * @fini: set by the library if it needs a call before dlclose() (optional)
 */
struct vpux_cpu_library_init_args {
	uint32_t size;
	uint32_t abi_version;
	vpux_cpu_lookup_fn lookup;
	void (*fini)(void);
};

/** vpux_cpu_library_init_fn - type of the exported library_init symbol */
typedef int (*vpux_cpu_library_init_fn)(struct vpux_cpu_library_init_args *args);

#ifdef __cplusplus
}
#endif

#endif /* VPUX_CPU_H */
