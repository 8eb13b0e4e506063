// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Must not compile: a logical shape where a memory shape is expected. */
#include "vpux.h"

int f(void);
int f(void)
{
	struct vpux_shape s = { 1, { 4 } }, s2;
	vpux_dims_order o = { 0x1 };

	return vpux_order_to_memshape(o, &s, &s2);
}
