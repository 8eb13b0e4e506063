/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note OR MIT */
/*
 * The fixed-width types of the kernel's uapi (<linux/types.h>) for builds
 * that have no kernel headers: the freestanding firmware image. Only
 * searched after the system's include directories (-idirafter, HW_CFLAGS
 * in the Makefile), so wherever the real header exists (the kernel, host
 * user space, the -m32/-m64 freestanding checks) it is the one used; as
 * the kernel's tools/include does, the types are spelled the way the
 * kernel's asm-generic/int-ll64.h spells them, so both agree.
 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

typedef unsigned char __u8;
typedef signed char __s8;
typedef unsigned short __u16;
typedef signed short __s16;
typedef unsigned int __u32;
typedef signed int __s32;
__extension__ typedef unsigned long long __u64;
__extension__ typedef signed long long __s64;

typedef __u16 __le16;
typedef __u32 __le32;
typedef __u64 __le64;

#endif /* _LINUX_TYPES_H */
