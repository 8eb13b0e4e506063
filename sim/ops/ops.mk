# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Compute kernels of the NPU model (sim/ops/, also built into the kernel
# module by ./Kbuild) and their plain CPU references (sim/ref/).
# Other fragments link $(OPS_SRCS) and $(REF_SRCS); the references use the
# shared numerics in sim/ops/, so REF_SRCS always comes with OPS_SRCS.

OPS_SRCS := $(wildcard $(SRCTOP)/sim/ops/*.c)
REF_SRCS := $(wildcard $(SRCTOP)/sim/ref/*.c)
OPS_CFLAGS := -I$(SRCTOP)/sim/include -I$(SRCTOP)/sim/ops

OPS_HDRS := $(wildcard $(SRCTOP)/sim/ops/*.h) $(SRCTOP)/sim/include/vpux_ops.h \
	$(SRCTOP)/sim/include/vpux_regs.h $(wildcard $(SRCTOP)/sim/include/vpux_shave_abi.h)

OPS_TESTS := $(B)/ops/test_dpu $(B)/ops/test_shave
OPS_BENCH := $(B)/ops/bench_dpu $(B)/ops/bench_shave

$(B)/ops/test_%: $(SRCTOP)/sim/ops/tests/test_%.c $(OPS_SRCS) $(REF_SRCS) \
		$(OPS_HDRS) $(SRCTOP)/sim/ops/tests/ops_test.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(OPS_CFLAGS) -o $@ $< $(OPS_SRCS) $(REF_SRCS) -lm

$(B)/ops/bench_%: $(SRCTOP)/sim/ops/tests/bench_%.c $(OPS_SRCS) $(REF_SRCS) \
		$(OPS_HDRS) $(SRCTOP)/sim/ops/tests/ops_test.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(OPS_CFLAGS) -o $@ $< $(OPS_SRCS) $(REF_SRCS) -lm

HOST_TESTS += $(OPS_TESTS)
BENCH_PROGS += $(OPS_BENCH)

.PHONY: ops-check
ops-check: $(OPS_TESTS)
	tools/run-tests.sh ops $(OPS_TESTS)
