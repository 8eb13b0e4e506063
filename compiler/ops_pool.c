// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Op family "pool" of the registry (registry.c).
 */
#include "lower_int.h"

const struct vc_op vc_ops_pool[] = {
	{ 0 }
};
