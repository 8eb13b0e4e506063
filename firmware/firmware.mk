# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The engine core (firmware/), its host portability layer
# (portability/user/) and the bare-metal image (portability/baremetal/).
# Included by the top-level Makefile before sim/sim.mk, whose test of the
# core on the model (sim/tests/sim_core_test.c) links the core and port.
#
# Exported for other fragments:
#   FW_SRCS            the core's .c files (same source in every build)
#   FW_CFLAGS          include paths of the core
#   PORT_USER_SRCS     host port (needs -pthread), any register backend
#   PORT_USER_HOST_SRCS host port glue to a host device (vpux_hw_host.h,
#                      implemented by the model's SIM_HOST_SRCS)
#   PORT_USER_CFLAGS   include paths of the host port

FW_SRCS := $(addprefix $(SRCTOP)/firmware/,dla_core.c dla_task.c \
	dla_graph.c dla_engine.c dla_sched.c dla_isr.c dla_util.c \
	dla_plan.c)
FW_CFLAGS := -I$(SRCTOP)/firmware/include $(HW_CFLAGS)
FW_HDRS := $(wildcard $(SRCTOP)/firmware/include/*.h $(SRCTOP)/firmware/*.h) \
	$(HW_HDRS)
PORT_USER_SRCS := $(SRCTOP)/portability/user/dla_port_user.c
PORT_USER_HOST_SRCS := $(SRCTOP)/portability/user/dla_port_user_host.c
PORT_USER_CFLAGS := $(FW_CFLAGS) -I$(SRCTOP)/portability/user
PORT_USER_HDRS := $(FW_HDRS) $(wildcard $(SRCTOP)/portability/user/*.h)

FW_TEST_CFLAGS := $(HOST_CFLAGS) $(SAN_CFLAGS) $(PORT_USER_CFLAGS) \
	-I$(SRCTOP)/firmware/tests -pthread
FW_TEST_DEPS := $(FW_SRCS) $(PORT_USER_SRCS) $(PORT_USER_HDRS) \
	$(wildcard $(SRCTOP)/firmware/tests/*.h) $(SRCTOP)/include/vpux_tap.h
FW_FAKE_SRCS := $(SRCTOP)/firmware/tests/fake_hw.c

# ---- host tests on the fake register backend ----
FW_FAKE_TESTS := $(addprefix $(B)/firmware/tests/,fw-sched fw-validate \
	fw-faults fw-prepare fw-plan)
HOST_TESTS += $(FW_FAKE_TESTS)

$(B)/firmware/tests/fw-%: $(SRCTOP)/firmware/tests/%.c $(FW_TEST_DEPS) \
		$(FW_FAKE_SRCS)
	@mkdir -p $(dir $@)
	$(CC) $(FW_TEST_CFLAGS) -o $@ $< $(FW_FAKE_SRCS) $(FW_SRCS) \
		$(PORT_USER_SRCS)

# The same tests as a 32-bit program (gcc-multilib): the core, the port and
# the tests with 32-bit pointers and longs, as on the microcontroller.
# Each test is a small script around the i386 program (in fw32/) that runs
# it natively where the host kernel executes i386 programs and under
# qemu-i386 where it does not (tools/run-i386.sh decides with the probe).
FW_FAKE_TESTS32 := $(addprefix $(B)/firmware/tests/,fw32-sched fw32-validate \
	fw32-faults fw32-prepare fw32-plan)
HOST_TESTS += $(FW_FAKE_TESTS32)
FW_I386_PROBE := $(B)/firmware/tests/fw32/i386-probe
# the programs themselves, kept (not intermediate files make deletes)
.SECONDARY: $(subst fw32-,fw32/,$(FW_FAKE_TESTS32))

$(FW_I386_PROBE): $(SRCTOP)/firmware/tests/i386_probe.c
	@mkdir -p $(dir $@)
	$(CC) -m32 -std=c11 -Wall -Wextra -Werror -O2 -o $@ $<

$(B)/firmware/tests/fw32/%: $(SRCTOP)/firmware/tests/%.c $(FW_TEST_DEPS) \
		$(FW_FAKE_SRCS)
	@mkdir -p $(dir $@)
	$(CC) -m32 $(FW_TEST_CFLAGS) -o $@ $< $(FW_FAKE_SRCS) $(FW_SRCS) \
		$(PORT_USER_SRCS)

$(B)/firmware/tests/fw32-%: $(B)/firmware/tests/fw32/% $(FW_I386_PROBE) \
		$(SRCTOP)/tools/run-i386.sh
	@{ echo '#!/bin/sh'; \
	   echo 'exec $(SRCTOP)/tools/run-i386.sh $(FW_I386_PROBE) $< "$$@"'; } >$@
	@chmod +x $@

# ---- scheduler benchmark (instant fake engines, big limits) ----
FW_BENCH := $(B)/firmware/bench/fw-bench
BENCH_PROGS += $(FW_BENCH)
FW_BENCH_LIMITS := -DDLA_MAX_TASKS=2u -DDLA_MAX_OPS_PER_TASK=131072u \
	-DDLA_MAX_BARRIERS=65535u -DDLA_MAX_DEPS_PER_TASK=262144u

$(FW_BENCH): $(SRCTOP)/firmware/tests/bench.c $(SRCTOP)/firmware/tests/bench_callgrind.h \
		$(SRCTOP)/firmware/tests/bench_hw.h \
		$(FW_TEST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(PORT_USER_CFLAGS) -I$(SRCTOP)/firmware/tests \
		$(FW_BENCH_LIMITS) -pthread -o $@ $< \
		$(FW_SRCS) $(PORT_USER_SRCS)

# ---- plan benchmark: cost per expanded op, memory (dynamic-shapes.rst) ----
FW_PLAN_BENCH := $(B)/firmware/bench/fw-plan-bench
BENCH_PROGS += $(FW_PLAN_BENCH)

$(FW_PLAN_BENCH): $(SRCTOP)/firmware/tests/plan_bench.c $(SRCTOP)/firmware/tests/bench_callgrind.h \
		$(SRCTOP)/firmware/tests/bench_hw.h \
		$(FW_TEST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(PORT_USER_CFLAGS) -I$(SRCTOP)/firmware/tests \
		-pthread -o $@ $< $(FW_SRCS) $(PORT_USER_SRCS)

# ---- the firmware image: freestanding rv32 ELF, flat binary, fwpack ----
# Documentation/firmware.rst. The engine core's limits are the kernel
# build's (./Kbuild, vpux_drv_cflags): headed and headless accept the
# same tasks. Static memory for DLA_MAX_TASKS tasks of DLA_TASK_SIZE_MAX
# bytes each; the header's ram_size says what the image needs in all.
RV_CC ?= riscv64-unknown-elf-gcc
RV_NM ?= riscv64-unknown-elf-nm
RV_OBJCOPY ?= riscv64-unknown-elf-objcopy
FW_BM_SRCS := $(addprefix $(SRCTOP)/portability/baremetal/,start.S \
	fw_header.c dla_port_bm.c fw_fmt.c main.c)
FW_FREESTANDING := -std=c11 -Wall -Wextra -Werror -Os -ffreestanding \
	-fno-builtin -nostdlib -nostartfiles -fno-common
FW_BM_LIMITS := -DDLA_MAX_TASKS=8u -DDLA_MAX_OPS_PER_TASK=1024u \
	-DDLA_MAX_BARRIERS=1024u -DDLA_MAX_DEPS_PER_TASK=4096u \
	-DDLA_MAX_ADDR_ENTRIES=64u
# the management core's RAM in the model (VPUX_REG_MC_MEM_SIZE)
FW_RAM_LIMIT ?= 4194304
FW_VERSION := $(shell v=$$(git -C $(SRCTOP) describe --always --dirty 2>/dev/null); \
	echo "vpux-fw $${v:-unknown}" | cut -c1-31)
FW_ELF := $(B)/firmware/vpux-fw.elf
FW_BIN := $(B)/firmware/vpux_fw.bin
FWPACK := $(B)/firmware/fwpack
HOST_PROGS += $(FWPACK)

$(FW_ELF): $(FW_SRCS) $(FW_BM_SRCS) $(FW_HDRS) $(SRCTOP)/firmware/firmware.mk \
		$(SRCTOP)/portability/baremetal/link.ld \
		$(wildcard $(SRCTOP)/portability/baremetal/*.h)
	@mkdir -p $(dir $@)
	$(RV_CC) -march=rv32imac -mabi=ilp32 $(FW_FREESTANDING) \
		-fno-tree-loop-distribute-patterns -fno-asynchronous-unwind-tables \
		$(FW_BM_LIMITS) $(FW_CFLAGS) '-DVPUX_FW_VERSION="$(FW_VERSION)"' \
		-I$(SRCTOP)/portability/baremetal \
		-T $(SRCTOP)/portability/baremetal/link.ld -Wl,--gc-sections \
		-Wl,--no-warn-rwx-segments \
		-o $@ $(FW_BM_SRCS) $(FW_SRCS)

$(FWPACK): $(SRCTOP)/portability/baremetal/fwpack.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/firmware/include -o $@ $<

$(FW_BIN): $(FW_ELF) $(FWPACK)
	@undef=$$($(RV_NM) -u $(FW_ELF)); \
	if [ -n "$$undef" ]; then \
		echo "firmware image has undefined symbols:"; echo "$$undef"; \
		exit 1; \
	fi
	$(RV_OBJCOPY) -O binary $(FW_ELF) $@.tmp
	$(FWPACK) --ram-limit $(FW_RAM_LIMIT) -o $@ $@.tmp
	@rm -f $@.tmp

.PHONY: firmware-m32 firmware-image firmware-pack-check
firmware-image: $(FW_BIN)

# the packed image, checked the way the driver will; and its limits are
# still the kernel build's
firmware-pack-check: $(FW_BIN) $(FWPACK)
	$(FWPACK) --ram-limit $(FW_RAM_LIMIT) --check $(FW_BIN)
	@k=$$(grep -o -- '-DDLA_MAX_[A-Z_]*=[0-9]*u' $(SRCTOP)/Kbuild | sort); \
	f=$$(echo $(FW_BM_LIMITS) | tr ' ' '\n' | sort); \
	if [ "$$k" != "$$f" ]; then \
		echo "firmware: FW_BM_LIMITS differ from ./Kbuild's:"; \
		echo "  Kbuild: "$$k; echo "  image:  "$$f; exit 1; \
	fi
	@echo "firmware: the image's limits are the kernel build's"

# Every core file, 32-bit and 64-bit host, freestanding, -Werror.
firmware-m32:
	@mkdir -p $(B)/firmware/m32
	@for f in $(FW_SRCS); do \
		for m in -m32 -m64; do \
			$(CC) $$m $(FW_FREESTANDING) $(FW_CFLAGS) -c $$f \
				-o $(B)/firmware/m32/$$(basename $$f .c)$$m.o \
				|| exit 1; \
		done; \
	done
	@echo "firmware: core builds warning-free with -m32 and -m64"

firmware-check: firmware-image firmware-pack-check firmware-m32
CHECK_STEPS += firmware-check

# ---- the core inside a kernel module (compile test, stub port) ----
FW_KBUILD_DIR := $(B)/firmware/kbuild
.PHONY: firmware-kbuild
firmware-kbuild:
	@if [ ! -d "$(KDIR)" ]; then \
		echo "SKIP: no kernel headers at '$(KDIR)' (make deps)"; \
		exit 0; \
	fi; \
	rm -rf $(FW_KBUILD_DIR) && mkdir -p $(FW_KBUILD_DIR) && \
	ln -s $(SRCTOP)/firmware/tests/kbuild/kport.c $(FW_SRCS) \
		$(FW_KBUILD_DIR)/ && \
	{ echo 'obj-m := vpux_fw_kbuild.o'; \
	  echo 'ccflags-y := $(FW_CFLAGS) -I$(SRCTOP)/firmware -Werror'; \
	  echo 'vpux_fw_kbuild-y := kport.o $(notdir $(FW_SRCS:.c=.o))'; \
	} >$(FW_KBUILD_DIR)/Kbuild && \
	$(MAKE) -s -C $(KDIR) M=$(FW_KBUILD_DIR) W=1 C=2 modules \
		>$(FW_KBUILD_DIR)/build.log 2>&1; st=$$?; \
	if [ $$st -ne 0 ] || grep -qE '(warning|error):' \
			$(FW_KBUILD_DIR)/build.log; then \
		cat $(FW_KBUILD_DIR)/build.log; exit 1; \
	fi; \
	echo "firmware-kbuild: core builds in a kernel module (W=1, sparse)"
CHECK_STEPS += firmware-kbuild

# ---- libFuzzer harness on task validation + execution ----
# Small limits, so that every accepted input finishes within the timeout:
# a plan may expand to DLA_PLAN_MAX_EXPANDED ops, and 16M of them on the
# fake engines under ASan take minutes (a valid job, not a hang); 256,
# as DLA_MAX_OPS_PER_TASK, bounds a plan as a static task is bounded.
FW_FUZZ := $(B)/firmware/fuzz/fw-fuzz
FUZZ_CC ?= clang
FUZZ_TIME ?= 600
FW_FUZZ_SMOKE_TIME ?= 30

$(FW_FUZZ): $(SRCTOP)/firmware/fuzz/fuzz_task.c $(FW_TEST_DEPS) $(FW_FAKE_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(PORT_USER_CFLAGS) \
		-I$(SRCTOP)/firmware/tests -DDLA_MAX_TASKS=2u \
		-DDLA_MAX_OPS_PER_TASK=256u -DDLA_MAX_BARRIERS=256u \
		-DDLA_MAX_DEPS_PER_TASK=1024u -DDLA_PLAN_MAX_EXPANDED=256u \
		-pthread -o $@ $< $(FW_FAKE_SRCS) $(FW_SRCS) $(PORT_USER_SRCS)

.PHONY: fuzz firmware-fuzz-smoke
fuzz: $(FW_FUZZ)
	@mkdir -p $(B)/firmware/fuzz/corpus
	DLA_LOG=0 $(SAN_RUN) $(FW_FUZZ) -max_total_time=$(FUZZ_TIME) \
		$(B)/firmware/fuzz/corpus $(SRCTOP)/firmware/fuzz/corpus

# bounded run for make check; a fresh corpus directory each time, so a
# run starts from the committed corpus only and repeats (the inputs a
# previous run kept would otherwise steer it elsewhere)
firmware-fuzz-smoke: $(FW_FUZZ)
	@rm -rf $(B)/firmware/fuzz/smoke && mkdir -p $(B)/firmware/fuzz/smoke
	DLA_LOG=0 $(SAN_RUN) $(FW_FUZZ) -seed=1 -timeout=60 \
		-max_total_time=$(FW_FUZZ_SMOKE_TIME) \
		$(B)/firmware/fuzz/smoke $(SRCTOP)/firmware/fuzz/corpus
CHECK_STEPS += firmware-fuzz-smoke

# ---- host tests of the image's tools and pure code ----
# fwpack on good and broken images (and the built image when there is
# one); the firmware's formatter against the C library's snprintf.
FW_IMAGE_TESTS := $(B)/firmware/tests/fw-fwpack $(B)/firmware/tests/fw-fmt
HOST_TESTS += $(FW_IMAGE_TESTS)

$(B)/firmware/tests/fw-fwpack: $(SRCTOP)/firmware/tests/fwpack_test.c $(FWPACK) \
		$(FW_HDRS) $(SRCTOP)/include/vpux_tap.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/firmware/include \
		'-DFWPACK="$(FWPACK)"' '-DFW_BIN="$(FW_BIN)"' -o $@ $< -lz

$(B)/firmware/tests/fw-fmt: $(SRCTOP)/firmware/tests/fw_fmt_test.c \
		$(SRCTOP)/portability/baremetal/fw_fmt.c \
		$(SRCTOP)/portability/baremetal/bm.h $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) -Wno-format-truncation \
		-I$(SRCTOP)/firmware/include -I$(SRCTOP)/portability/baremetal \
		-o $@ $< $(SRCTOP)/portability/baremetal/fw_fmt.c

# The formatter again, built for the image's ISA (no libc, no libgcc) and
# run under qemu-riscv32 (Debian's qemu-user): 64-bit va_args and the
# divisions on rv32. A small script is the test program, so that
# run-tests.sh needs no binfmt_misc.
QEMU_RV32 ?= $(shell command -v qemu-riscv32 2>/dev/null)
FW_FMT_RV32 := $(B)/firmware/tests/fw-fmt-rv32
HOST_TESTS += $(FW_FMT_RV32)

$(FW_FMT_RV32).elf: $(SRCTOP)/firmware/tests/fw_fmt_rv32.c \
		$(SRCTOP)/portability/baremetal/fw_fmt.c \
		$(SRCTOP)/portability/baremetal/bm.h $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(RV_CC) -march=rv32imac -mabi=ilp32 $(FW_FREESTANDING) \
		-fno-tree-loop-distribute-patterns $(FW_CFLAGS) \
		-I$(SRCTOP)/portability/baremetal -static -Wl,--no-relax \
		-Wl,--no-warn-rwx-segments -o $@ $< \
		$(SRCTOP)/portability/baremetal/fw_fmt.c

$(FW_FMT_RV32): $(FW_FMT_RV32).elf
	@{ echo '#!/bin/sh'; \
	   echo 'command -v $(or $(QEMU_RV32),qemu-riscv32) >/dev/null 2>&1 || { echo "ok 1 # SKIP no $(or $(QEMU_RV32),qemu-riscv32) (qemu-user)"; echo 1..1; exit 0; }'; \
	   echo 'exec $(or $(QEMU_RV32),qemu-riscv32) $(FW_FMT_RV32).elf'; } >$@
	@chmod +x $@
