# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Compute kernels of the NPU model (sim/ops/, also built into the kernel
# module by ./Kbuild) and their plain CPU references (sim/ref/).
# Other fragments link $(OPS_SRCS) and $(REF_SRCS); the references use the
# shared numerics in sim/ops/, so REF_SRCS always comes with OPS_SRCS.

OPS_SRCS := $(wildcard $(SRCTOP)/sim/ops/*.c)
REF_SRCS := $(wildcard $(SRCTOP)/sim/ref/*.c)
OPS_CFLAGS := -I$(SRCTOP)/sim/include -I$(SRCTOP)/sim/ops
