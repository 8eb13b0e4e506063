# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The definition of the compute ops (ref/): the plain CPU reference kernels
# (vpux_ref_dpu_run, vpux_ref_shave_run) and the numerics every
# implementation of the engines shares (requantisation, descriptor and
# argument checks, fixed-point math). Interface in include/hw/vpux_hw_ops.h,
# shared numerics in include/hw/vpux_hw_ops_internal.h: the sources build
# with $(HW_CFLAGS) alone, in user space, in the kernel and freestanding.
# Included by the top-level Makefile before the fragments that use it.
#
# Exported for other fragments:
#   REF_SRCS   every file; libvpux links them (its CPU reference executor
#              and the loader's descriptor check), and so does the NPU
#              model, whose kernels use the shared numerics

REF_SRCS := $(wildcard $(SRCTOP)/ref/*.c)
