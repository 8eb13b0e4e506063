// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The compressed instructions (comp_asm.S): prints each result. */
#include "rvlib.h"

u32 comp_test(u32 *out);

static u32 out[128];

int main(void)
{
	u32 n = comp_test(out), i;

	out_kv("n", n);
	for (i = 0; i < n && i < 128; i++) {
		out_hex(out[i]);
		out_str((i & 7) == 7 ? "\n" : " ");
	}
	out_str("\n");
	return 0;
}
