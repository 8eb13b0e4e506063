// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Argument checking for the float operators (float_args.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "float_args.h"

static const char *const type_names[] = {
	"?", "a buffer", "an integer", "a string",
};

static const char *type_name(uint32_t t)
{
	return t < 4 ? type_names[t] : type_names[0];
}

int fa_fail(const struct vpux_cpu_call *c, const char *fn,
	    const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err || !c->err_size)
		return -EINVAL;
	n = snprintf(c->err, c->err_size, "%s: ", fn);
	if (n < 0 || (size_t)n >= c->err_size)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int fa_nargs(const struct vpux_cpu_call *c, const char *fn, uint32_t n)
{
	if (!c->args || c->num_args != n)
		return fa_fail(c, fn, "%u arguments, %u expected", c->num_args, n);
	return 0;
}

int fa_want(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	    const char *what, uint32_t type)
{
	if (i >= c->num_args)
		return fa_fail(c, fn, "argument %u (%s) missing", i, what);
	if (c->args[i].type != type)
		return fa_fail(c, fn, "argument %u (%s) is %s, %s expected", i,
			       what, type_name(c->args[i].type), type_name(type));
	if (type == VPUX_CPU_ARG_STRING && !c->args[i].str)
		return fa_fail(c, fn, "argument %u (%s) is a NULL string", i,
			       what);
	return 0;
}

int fa_fbuf(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	    const char *what, uint64_t count, float **p)
{
	const struct vpux_cpu_buffer *b;
	int ret = fa_want(c, fn, i, what, VPUX_CPU_ARG_BUFFER);

	if (ret)
		return ret;
	b = &c->args[i].buf;
	if (count > FA_MAX_ELEMS || b->size != count * sizeof(float))
		return fa_fail(c, fn, "argument %u (%s, buffer '%s'): %llu bytes, %llu float32 values (%llu bytes) expected",
			       i, what, b->name ? b->name : "?",
			       (unsigned long long)b->size,
			       (unsigned long long)count,
			       (unsigned long long)(count * sizeof(float)));
	if (count && (!b->data || (uintptr_t)b->data % sizeof(float)))
		return fa_fail(c, fn, "argument %u (%s, buffer '%s'): data not 4-byte aligned",
			       i, what, b->name ? b->name : "?");
	*p = b->data;
	return 0;
}

int fa_int(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	   const char *what, int64_t min, int64_t max, int64_t *v)
{
	int ret = fa_want(c, fn, i, what, VPUX_CPU_ARG_INT);

	if (ret)
		return ret;
	if (c->args[i].i < min || c->args[i].i > max)
		return fa_fail(c, fn, "argument %u (%s): %lld out of range [%lld, %lld]",
			       i, what, (long long)c->args[i].i,
			       (long long)min, (long long)max);
	*v = c->args[i].i;
	return 0;
}

int fa_str(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	   const char *what, const char **s)
{
	int ret = fa_want(c, fn, i, what, VPUX_CPU_ARG_STRING);

	if (!ret)
		*s = c->args[i].str;
	return ret;
}

int fa_choice(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	      const char *what, const char *const *choices, int *v)
{
	const char *s;
	char list[256];
	size_t len = 0;
	int k, ret = fa_str(c, fn, i, what, &s);

	if (ret)
		return ret;
	for (k = 0; choices[k]; k++) {
		if (!strcmp(s, choices[k])) {
			*v = k;
			return 0;
		}
	}
	list[0] = 0;
	for (k = 0; choices[k] && len < sizeof(list); k++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					k ? ", " : "", choices[k]);
	return fa_fail(c, fn, "argument %u (%s): '%.64s' is not one of %s", i,
		       what, s, list);
}

int fa_ints(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	    const char *what, unsigned int min_n, unsigned int max_n,
	    int64_t lo, int64_t hi, int64_t *out, unsigned int *n)
{
	const char *s, *p;
	unsigned int cnt = 0;
	int ret = fa_str(c, fn, i, what, &s);

	if (ret)
		return ret;
	for (p = s; *p;) {
		char *end;
		long long v;

		if (cnt == max_n)
			return fa_fail(c, fn, "argument %u (%s): '%.64s' has more than %u values",
				       i, what, s, max_n);
		if (*p != '-' && (*p < '0' || *p > '9'))
			goto bad;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (errno || end == p || (*end && *end != ','))
			goto bad;
		if (v < lo || v > hi)
			return fa_fail(c, fn, "argument %u (%s): value %u (%lld) out of range [%lld, %lld]",
				       i, what, cnt, v, (long long)lo,
				       (long long)hi);
		out[cnt++] = v;
		p = end;
		if (*p == ',') {
			p++;
			if (!*p)
				goto bad;
		}
	}
	if (cnt < min_n)
		return fa_fail(c, fn, "argument %u (%s): '%.64s' has %u values, at least %u expected",
			       i, what, s, cnt, min_n);
	*n = cnt;
	return 0;
bad:
	return fa_fail(c, fn, "argument %u (%s): '%.64s' is not a comma-separated list of integers",
		       i, what, s);
}

uint64_t fa_count(const struct fa_shape *s)
{
	uint64_t n = 1;
	unsigned int i;

	for (i = 0; i < s->rank; i++)
		n *= (uint64_t)s->d[i];
	return n;
}

int fa_shape(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	     const char *what, int rank0, struct fa_shape *s)
{
	uint64_t n = 1;
	unsigned int k;
	int ret;

	ret = fa_ints(c, fn, i, what, rank0 ? 0 : 1, FA_MAX_RANK, 1,
		      (int64_t)FA_MAX_ELEMS, s->d, &s->rank);
	if (ret)
		return ret;
	for (k = 0; k < s->rank; k++) {
		n *= (uint64_t)s->d[k];
		if (n > FA_MAX_ELEMS)
			return fa_fail(c, fn, "argument %u (%s): more than %llu elements",
				       i, what, (unsigned long long)FA_MAX_ELEMS);
	}
	return 0;
}

int fa_floats(const struct vpux_cpu_call *c, const char *fn, uint32_t i,
	      const char *what, unsigned int min_n, unsigned int max_n,
	      double *out, unsigned int *n)
{
	const char *s, *p;
	unsigned int cnt = 0;
	int ret = fa_str(c, fn, i, what, &s);

	if (ret)
		return ret;
	for (p = s; *p;) {
		char *end;
		double v;

		if (cnt == max_n)
			return fa_fail(c, fn, "argument %u (%s): '%.64s' has more than %u values",
				       i, what, s, max_n);
		if (*p == ' ' || *p == '\t')
			goto bad;
		errno = 0;
		v = strtod(p, &end);
		if (errno || end == p || (*end && *end != ',') || !isfinite(v))
			goto bad;
		out[cnt++] = v;
		p = end;
		if (*p == ',') {
			p++;
			if (!*p)
				goto bad;
		}
	}
	if (cnt < min_n)
		return fa_fail(c, fn, "argument %u (%s): '%.64s' has %u values, at least %u expected",
			       i, what, s, cnt, min_n);
	*n = cnt;
	return 0;
bad:
	return fa_fail(c, fn, "argument %u (%s): '%.64s' is not a comma-separated list of finite numbers",
		       i, what, s);
}
