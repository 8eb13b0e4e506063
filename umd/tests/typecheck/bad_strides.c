// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Must not compile: memory strides where logical strides are expected. */
#include "vpux.h"

int f(void);
int f(void)
{
	struct vpux_memstrides a = { 1, { 8 } }, b;
	vpux_dims_order o = { 0x1 };

	return vpux_order_to_memstrides(o, &a, &b);
}
