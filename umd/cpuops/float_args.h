/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Argument checking for the functions of libvpux-cpuops (float_*.c,
 * convert.c, Documentation/cpuops.rst). Every helper checks one
 * argument of a call and, when it is wrong, writes a message naming the
 * function, the argument's index and name (and the recipe buffer) into
 * call->err and returns -EINVAL.
 */
#ifndef VPUX_CPUOPS_FLOAT_ARGS_H
#define VPUX_CPUOPS_FLOAT_ARGS_H

#include <stdint.h>

#include "vpux_cpu.h"

/* the largest rank and element count the float operators accept */
#define FA_MAX_RANK 8
#define FA_MAX_ELEMS (1ull << 32)

/* a tensor shape parsed from a "d0,d1,..." string constant */
struct fa_shape {
	unsigned int rank;
	int64_t d[FA_MAX_RANK];
};

__attribute__((format(printf, 3, 4)))
int fa_fail(const struct vpux_cpu_call *c, const char *fn,
	    const char *fmt, ...);

/* argument @i named @what is there and of @type (a non-NULL string) */
int fa_want(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	    const char *what, uint32_t type);
/* the number of arguments must be @n (the runner guarantees it) */
int fa_nargs(const struct vpux_cpu_call *c, const char *fn, uint32_t n);

/*
 * Argument @i named @what is a buffer of exactly @count float32 values,
 * 4-byte aligned; its data into @p.
 */
int fa_fbuf(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	    const char *what, uint64_t count, float **p);
/* an integer argument in [@min, @max] */
int fa_int(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	   const char *what, int64_t min, int64_t max, int64_t *v);
/* a string argument */
int fa_str(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	   const char *what, const char **s);
/* one of the NULL-terminated @choices; its index into @v */
int fa_choice(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	      const char *what, const char *const *choices, int *v);
/*
 * A list of integers "a,b,c": @min_n..@max_n values, each in [@lo, @hi];
 * the count into @n. "" is the empty list.
 */
int fa_ints(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	    const char *what, unsigned int min_n, unsigned int max_n,
	    int64_t lo, int64_t hi, int64_t *out, unsigned int *n);
/* a shape: 1..FA_MAX_RANK dims >= 1 (@rank0: "" is a scalar) */
int fa_shape(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	     const char *what, int rank0, struct fa_shape *s);
/* a list of finite floats "x,y" (%.9g each), @min_n..@max_n of them */
int fa_floats(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	      const char *what, unsigned int min_n, unsigned int max_n,
	      double *out, unsigned int *n);

/* product of the dims (1 for rank 0) */
uint64_t fa_count(const struct fa_shape *s);

#endif /* VPUX_CPUOPS_FLOAT_ARGS_H */
