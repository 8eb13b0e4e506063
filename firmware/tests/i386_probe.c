// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Built with -m32: prints "vpux-i386-probe 4" when the host kernel
 * executes i386 programs (tools/run-i386.sh decides with it how the
 * 32-bit tests run). No sanitizer, so that its only dependency is the
 * i386 C library.
 */
#include <stdio.h>

int main(void)
{
	printf("vpux-i386-probe %u\n", (unsigned int)sizeof(void *));
	return 0;
}
