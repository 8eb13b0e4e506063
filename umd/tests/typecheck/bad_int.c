// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Must not compile: a plain integer where a dim is expected. */
#include "vpux.h"

int f(void);
int f(void)
{
	vpux_dims_order o = { 0x1 };

	return (int)vpux_order_to_memdim(o, 0).ind;
}
