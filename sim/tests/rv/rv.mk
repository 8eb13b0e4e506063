# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The management core's interpreter (sim/vpux_rv.c): its test programs,
# their expected output from qemu-riscv32, the host test that compares
# and the benchmark. Included by sim/sim.mk; RV_CC is firmware.mk's
# rv32 compiler (the firmware image's toolchain).
#
#   RV_TEST_DIR   the programs (NAME.elf) and qemu's output (NAME.expected)

RV_TEST_DIR := $(B)/sim/rv
RV_TEST_SRC := $(SRCTOP)/sim/tests/rv
RV_TEST_PROGS := alu mem amo comp prog bench
RV_TEST_ELFS := $(addprefix $(RV_TEST_DIR)/,$(addsuffix .elf,$(RV_TEST_PROGS)))
RV_TEST_EXPECTED := $(RV_TEST_ELFS:.elf=.expected)
RV_TEST_OPT := -O2
QEMU_RV32 ?= $(shell command -v qemu-riscv32 2>/dev/null)

# kept: the test loads them, not only their expected output
.SECONDARY: $(RV_TEST_ELFS)

# -Os for ordinary compiled code: the densest in compressed instructions
$(RV_TEST_DIR)/prog.elf: RV_TEST_OPT := -Os
$(RV_TEST_DIR)/comp.elf: $(RV_TEST_SRC)/comp_asm.S

$(RV_TEST_DIR)/%.elf: $(RV_TEST_SRC)/%.c $(RV_TEST_SRC)/start.S \
		$(RV_TEST_SRC)/rvlib.h $(RV_TEST_SRC)/link.ld \
		$(RV_TEST_SRC)/rv.mk
	@mkdir -p $(dir $@)
	$(RV_CC) -march=rv32imac -mabi=ilp32 $(RV_TEST_OPT) -std=gnu11 \
		-Wall -Wextra -Werror -ffreestanding -fno-builtin -nostdlib \
		-nostartfiles -static -T $(RV_TEST_SRC)/link.ld \
		-Wl,--no-warn-rwx-segments -o $@ $(RV_TEST_SRC)/start.S $< \
		$(wildcard $(RV_TEST_SRC)/$*_asm.S)

# What the program prints under qemu-riscv32 (user mode), then its exit
# status; without qemu-riscv32 (make deps installs it) a SKIP marker.
$(RV_TEST_DIR)/%.expected: $(RV_TEST_DIR)/%.elf $(QEMU_RV32)
	@if [ -n "$(QEMU_RV32)" ]; then \
		$(QEMU_RV32) $< >$@.tmp; echo "exit $$?" >>$@.tmp; \
	else \
		echo "SKIP: no qemu-riscv32" >$@.tmp; \
	fi; mv $@.tmp $@

# only the interpreter of the model's objects; also runs the firmware image
$(B)/sim/tests/sim_rv_test: $(SRCTOP)/sim/tests/sim_rv_test.c \
		$(B)/sim/obj/sim/vpux_rv.o $(B)/sim/obj/sim/vpux_rv_fp.o $(SRCTOP)/sim/tests/sim_rv_host.h \
		$(SIM_HDRS) $(RV_TEST_EXPECTED) $(FW_ELF)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(SIM_CFLAGS) -I$(SRCTOP)/firmware/include \
		-DRV_TEST_DIR='"$(RV_TEST_DIR)"' -DRV_FW_ELF='"$(FW_ELF)"' \
		-o $@ $< \
		$(B)/sim/obj/sim/vpux_rv.o $(B)/sim/obj/sim/vpux_rv_fp.o

# Benchmark: guest instructions per second on bench.elf (make bench)
RV_BENCH := $(B)/sim/bench/rv_bench
BENCH_PROGS += $(RV_BENCH)

$(RV_BENCH): $(SRCTOP)/sim/tests/bench/rv_bench.c \
		$(B)/sim/obj-fast/sim/vpux_rv.o $(B)/sim/obj-fast/sim/vpux_rv_fp.o $(SRCTOP)/sim/tests/sim_rv_host.h \
		$(SIM_HDRS) $(RV_TEST_DIR)/bench.elf
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SIM_CFLAGS) -I$(SRCTOP)/sim/tests \
		-DRV_TEST_DIR='"$(RV_TEST_DIR)"' -o $@ $< \
		$(B)/sim/obj-fast/sim/vpux_rv.o $(B)/sim/obj-fast/sim/vpux_rv_fp.o
