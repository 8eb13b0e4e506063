# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The kernel SDK (kernels/): SHAVE ELF kernels in C, built with the
# firmware's rv32 compiler (RV_CC, firmware.mk: Debian's
# gcc-riscv64-unknown-elf) for RV32IMF, and the host test that runs them
# on the SHAVE core and compares them with the built-in kernels.
# Included by the top-level Makefile after sim/sim.mk.
#
#   KERNEL_DIR   NAME.elf and NAME.bin (the WIN_D image, entry at 0)

KERNEL_DIR := $(B)/kernels
KERNEL_SRC := $(SRCTOP)/kernels
KERNEL_NAMES := $(basename $(notdir $(wildcard $(KERNEL_SRC)/src/*.c)))
KERNEL_ELFS := $(addprefix $(KERNEL_DIR)/,$(addsuffix .elf,$(KERNEL_NAMES)))
KERNEL_BINS := $(KERNEL_ELFS:.elf=.bin)
# -ffp-contract=off: a * b + c stays two roundings, as the definitions say
KERNEL_CFLAGS := -march=rv32imf -mabi=ilp32f -mcmodel=medany -O2 -std=gnu11 \
	-Wall -Wextra -Werror -ffreestanding -fno-builtin -nostdlib \
	-nostartfiles -static -ffp-contract=off \
	-fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections \
	-I$(KERNEL_SRC)/include -I$(SRCTOP)/include/hw -I$(SRCTOP)
# the kernels built from the references (vk_ref.h) include ref/*.c
KERNEL_HDRS := $(wildcard $(KERNEL_SRC)/include/*.h $(KERNEL_SRC)/src/*.h) \
	$(HW_HDRS) $(REF_SRCS) $(KERNEL_SRC)/link.ld $(KERNEL_SRC)/kernels.mk

.SECONDARY: $(KERNEL_ELFS) $(KERNEL_DIR)/runtime.elf \
	$(KERNEL_DIR)/runtime_count.elf

$(KERNEL_DIR)/%.elf: $(KERNEL_SRC)/src/%.c $(KERNEL_HDRS)
	@mkdir -p $(dir $@)
	$(RV_CC) $(KERNEL_CFLAGS) -T $(KERNEL_SRC)/link.ld \
		-Wl,--no-warn-rwx-segments -Wl,--gc-sections -o $@ $< -lgcc

$(KERNEL_DIR)/%.bin: $(KERNEL_DIR)/%.elf
	$(RV_OBJCOPY) -O binary -j .text -j .rodata $< $@

RV_OBJCOPY ?= riscv64-unknown-elf-objcopy

# The reference runtime kernel (kernels/runtime/): linked at WIN_R. The
# engine holds its image, sim/include/vpux_shave_rt_ref.h, which `make rt-ref`
# regenerates from it; sim_shave_elf_test checks the two are the same.
KERNEL_RT_ELF := $(KERNEL_DIR)/runtime.elf
KERNEL_RT_BIN := $(KERNEL_DIR)/runtime.bin
KERNEL_RT_REF := $(SRCTOP)/sim/include/vpux_shave_rt_ref.h

.PHONY: kernels
kernels: $(KERNEL_BINS) $(KERNEL_RT_BIN) $(KERNEL_DIR)/runtime_count.bin

$(KERNEL_RT_ELF): $(KERNEL_SRC)/runtime/runtime.c \
		$(KERNEL_SRC)/runtime/runtime.ld $(HW_HDRS)
	@mkdir -p $(dir $@)
	$(RV_CC) $(KERNEL_CFLAGS) -T $(KERNEL_SRC)/runtime/runtime.ld \
		-Wl,--no-warn-rwx-segments -Wl,--gc-sections -o $@ $<

# the tests' own runtime kernel: the reference one counting its tasks
$(KERNEL_DIR)/runtime_count.elf: $(KERNEL_SRC)/runtime/runtime.c \
		$(KERNEL_SRC)/runtime/runtime.ld $(HW_HDRS)
	@mkdir -p $(dir $@)
	$(RV_CC) $(KERNEL_CFLAGS) -DVPUX_RT_COUNT \
		-T $(KERNEL_SRC)/runtime/runtime.ld \
		-Wl,--no-warn-rwx-segments -Wl,--gc-sections -o $@ $<

.PHONY: rt-ref
rt-ref: $(KERNEL_RT_BIN)
	$(SRCTOP)/kernels/runtime/rt_ref.py $< > $(KERNEL_RT_REF)

# the SHAVE-core tests load the images
SHAVE_ELF_TESTS := $(B)/sim/tests/sim_shave_elf_test \
	$(B)/sim/tests/sim_shave_ports_test
$(SHAVE_ELF_TESTS): $(KERNEL_BINS) $(KERNEL_RT_BIN) \
	$(KERNEL_DIR)/runtime_count.bin
$(SHAVE_ELF_TESTS): HOST_CFLAGS += -DVPUX_KERNEL_DIR='"$(KERNEL_DIR)"'

# Benchmark: bench-shave-elf (make bench)
SHAVE_ELF_BENCH := $(B)/sim/bench/shave_elf_bench
BENCH_PROGS += $(SHAVE_ELF_BENCH)

$(SHAVE_ELF_BENCH): $(SRCTOP)/sim/tests/bench/shave_elf_bench.c \
		$(SIM_FAST_OBJS) $(SIM_HDRS) $(KERNEL_BINS) \
		$(SRCTOP)/sim/tests/sim_shave_elf.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SIM_CFLAGS) -I$(SRCTOP)/sim/tests \
		-DVPUX_KERNEL_DIR='"$(KERNEL_DIR)"' -pthread -o $@ $< \
		$(SIM_FAST_OBJS)

# the F extension against the host's IEEE arithmetic (needs libm)
$(B)/sim/tests/sim_rvf_test: $(SRCTOP)/sim/tests/sim_rvf_test.c \
		$(SIM_TEST_OBJS) $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(SIM_CFLAGS) -pthread -o $@ $< \
		$(SIM_TEST_OBJS) -lm

# ---- libFuzzer harness: random code on a SHAVE core (sim/fuzz/) ----
# The whole model's user-space build under ASan/UBSan; seeded with the SDK
# kernels' images (each behind a 16-byte header of zeros).
SHAVE_FUZZ := $(B)/sim/fuzz/fuzz-shave
SHAVE_FUZZ_TIME ?= 600
SHAVE_FUZZ_SMOKE_TIME ?= 20

$(SHAVE_FUZZ): $(SRCTOP)/sim/fuzz/fuzz_shave.c $(SIM_HOST_SRCS) $(REF_SRCS) \
		$(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -I$(SRCTOP)/include $(SIM_CFLAGS) \
		-I$(SRCTOP)/sim/ops -pthread -o $@ $< $(SIM_HOST_SRCS) $(REF_SRCS)

$(B)/sim/fuzz/seeds.stamp: $(KERNEL_BINS)
	@mkdir -p $(B)/sim/fuzz/seeds
	for k in $(KERNEL_BINS); do \
		{ head -c 16 /dev/zero; cat $$k; } > \
			$(B)/sim/fuzz/seeds/$$(basename $$k .bin); done
	@touch $@

.PHONY: fuzz-shave shave-fuzz-smoke
fuzz-shave: $(SHAVE_FUZZ) $(B)/sim/fuzz/seeds.stamp
	@mkdir -p $(B)/sim/fuzz/corpus
	$(SAN_RUN) $(SHAVE_FUZZ) -max_total_time=$(SHAVE_FUZZ_TIME) \
		$(B)/sim/fuzz/corpus $(B)/sim/fuzz/seeds

shave-fuzz-smoke: $(SHAVE_FUZZ) $(B)/sim/fuzz/seeds.stamp
	@rm -rf $(B)/sim/fuzz/smoke && mkdir -p $(B)/sim/fuzz/smoke
	$(SAN_RUN) $(SHAVE_FUZZ) -seed=1 -timeout=60 \
		-max_total_time=$(SHAVE_FUZZ_SMOKE_TIME) \
		$(B)/sim/fuzz/smoke $(B)/sim/fuzz/seeds
CHECK_STEPS += shave-fuzz-smoke

# examples with SDK kernels: vpux-asm finds their ELF files here
$(B)/examples/elf_softmax.vpux $(B)/examples/elf_all.vpux \
	$(B)/examples/dyn_elf_softmax.vpux: $(KERNEL_ELFS)
$(B)/examples/elf_softmax.vpux $(B)/examples/elf_all.vpux \
	$(B)/examples/dyn_elf_softmax.vpux: \
	VASM_FLAGS += --kernel-dir $(KERNEL_DIR)

# the loader's rules for ELF kernels, the ELF reader on the SDK's kernels
$(B)/umd/tests/test_shave_elf: $(KERNEL_BINS) $(KERNEL_RT_BIN) \
	$(KERNEL_DIR)/runtime_count.bin
$(B)/umd/tests/test_shave_elf: HOST_CFLAGS += -DVPUX_KERNEL_DIR='"$(KERNEL_DIR)"'

# a seed of the loader's fuzzer with two kernels, RW data and memrefs
# (in umd/umd.mk's seed directory)
umd-fuzz-smoke fuzz-loader: $(B)/umd/fuzz/seeds/elf_kernels.vpux
$(B)/umd/fuzz/seeds/elf_kernels.vpux: $(B)/umd/tests/test_shave_elf
	@mkdir -p $(dir $@)
	VPUX_ELF_SEED=$@ $< >/dev/null
