/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Fixed-width types of the engine core. Built only on compiler-provided
 * macros so the same header works in the kernel, in host user space and in
 * a freestanding microcontroller image (no libc, no kernel headers).
 */
#ifndef DLA_TYPES_H
#define DLA_TYPES_H

/*
 * 32- and 64-bit types are spelled as int / long long (as the kernel's u32
 * and u64 are) rather than __UINT32_TYPE__, which is "long" on some
 * bare-metal ABIs: so %u and %llu are right in every build.
 */
_Static_assert(__SIZEOF_INT__ == 4 && __SIZEOF_LONG_LONG__ == 8,
	       "int must be 32 bit, long long 64 bit");
typedef unsigned char dla_u8;
typedef unsigned short dla_u16;
typedef unsigned int dla_u32;
typedef unsigned long long dla_u64;
typedef signed char dla_s8;
typedef short dla_s16;
typedef int dla_s32;
typedef long long dla_s64;

#ifndef NULL
#define NULL ((void *)0)
#endif

#define DLA_STATIC_ASSERT(c, msg) _Static_assert(c, msg)
#define DLA_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* DLA_TYPES_H */
