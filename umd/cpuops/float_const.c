// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * fill(Y, hex): writes the bytes a hex string spells into Y. A compiled
 * recipe carries the constant operands of its CPU operators (weights,
 * biases) this way, in the recipe itself; the run that fills them comes
 * before the first run that reads them.
 */
#include <errno.h>
#include <string.h>

#include "cpuops.h"
#include "float_args.h"
#include "float_ops.h"

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int cpuops_fill(const struct vpux_cpu_call *c)
{
	static const char fn[] = "fill";
	const struct vpux_cpu_buffer *b;
	const char *s;
	uint8_t *d;
	size_t len, i;
	int ret;

	if ((ret = fa_nargs(c, fn, 2)) || (ret = fa_str(c, fn, 1, "hex", &s)))
		return ret;
	if (c->args[0].type != VPUX_CPU_ARG_BUFFER)
		return fa_fail(c, fn, "argument 0 (Y) is not a buffer");
	b = &c->args[0].buf;
	len = strlen(s);
	if (len % 2 || len / 2 != b->size)
		return fa_fail(c, fn, "argument 1 (hex): %zu hex digits for buffer '%s' of %llu bytes (two per byte expected)",
			       len, b->name ? b->name : "?",
			       (unsigned long long)b->size);
	/* check it all before Y is touched */
	for (i = 0; i < len; i++)
		if (hexval(s[i]) < 0)
			return fa_fail(c, fn, "argument 1 (hex): '%c' at digit %zu is not a hex digit",
				       s[i], i);
	d = b->data;
	for (i = 0; i < len / 2; i++)
		d[i] = (uint8_t)(hexval(s[2 * i]) << 4 | hexval(s[2 * i + 1]));
	return 0;
}
