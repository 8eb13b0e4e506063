// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Control: the explicit conversions compile. */
#include "vpux.h"

int f(void);
int f(void)
{
	struct vpux_shape s = { 1, { 4 } };
	struct vpux_memshape ms;
	vpux_dims_order o = { 0x1 };

	return vpux_order_to_memshape(o, &s, &ms) +
	       (int)vpux_order_to_memdim(o, vpux_dim_make(0)).ind;
}
