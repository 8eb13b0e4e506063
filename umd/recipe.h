/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Run recipes (Documentation/run-recipes.rst): the JSON text parsed into
 * plain records, with every rule checked that needs neither the device,
 * the loadables nor the CPU libraries (umd/runner/recipe.c). The runner
 * (umd/runner/runner.c) checks the rest when it loads them. Errors are
 * VPUX_E_FORMAT (VPUX_E_VERSION for a recipe major version this library
 * does not read) with a message that starts with the JSON path of the
 * offending value ("execution.runs[3].arguments[1].offset: ...").
 */
#ifndef VPUX_RECIPE_H
#define VPUX_RECIPE_H

#include <stddef.h>
#include <stdint.h>

#define RECIPE_VERSION_MAJOR	1
#define RECIPE_VERSION_MINOR	0
/* highest argidx + 1 of a run */
#define RECIPE_MAX_ARGS		64
/* a sub-buffer's offset is a multiple of this (run-recipes.rst) */
#define RECIPE_OFFSET_ALIGN	8

enum recipe_buf_type {
	RECIPE_BUF_INPUT,
	RECIPE_BUF_OUTPUT,
	RECIPE_BUF_INTERNAL,
	RECIPE_BUF_WEIGHT,
	RECIPE_BUF_SPILL,
	RECIPE_BUF_UNKNOWN,
};

struct recipe_buffer {
	char *name;
	unsigned int type;	/* enum recipe_buf_type */
	uint64_t size;		/* 0: not given (then bound by the application) */
	/* "data": the buffer's bytes at load, @size of them from @file_offset
	 * of @file (relative to the recipe's directory, without '..'); NULL:
	 * none */
	char *file;
	uint64_t file_offset;
};

struct recipe_kernel {
	char *name;
	char *loadable;		/* relative to the recipe's directory */
};

struct recipe_cpu {
	char *name;		/* the function lookup() is asked for */
	char *library_path;	/* relative to the CPU library search path */
};

/* a buffer argument: [offset, offset + size) of buffers[buf] */
struct recipe_arg {
	unsigned int buf;
	uint32_t argidx;
	uint64_t offset;
	uint64_t size;		/* 0: up to the end of the buffer */
};

struct recipe_const {
	uint32_t argidx;
	int is_int;
	int64_t i;
	char *str;
};

struct recipe_run {
	int cpu;		/* where: 1 cpu, 0 npu */
	unsigned int res;	/* index in kernels or cpus */
	struct recipe_arg *args;
	unsigned int num_args;
	struct recipe_const *consts;
	unsigned int num_consts;
};

struct recipe {
	char *target;
	unsigned int version_major, version_minor;
	struct recipe_buffer *buffers;
	unsigned int num_buffers;
	struct recipe_kernel *kernels;
	unsigned int num_kernels;
	struct recipe_cpu *cpus;
	unsigned int num_cpus;
	struct recipe_run *runs;
	unsigned int num_runs;
};

const char *recipe_buf_type_name(unsigned int type);

/* Parse @len bytes of JSON into *@out: 0 or a VPUX_E_* with the message. */
int recipe_parse(const char *text, size_t len, struct recipe **out);
void recipe_free(struct recipe *r);

#endif /* VPUX_RECIPE_H */
