// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Must not compile: a memory dim where a logical dim is expected. */
#include "vpux.h"

int f(void);
int f(void)
{
	vpux_dims_order o = { 0x1 };

	return (int)vpux_order_to_memdim(o, vpux_memdim_make(0)).ind;
}
