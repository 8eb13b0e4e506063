# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# libvpux (umd/), its tests, fuzzer and benchmark, the vpux-asm/-dis/-run
# tools and the examples. Included by the top-level Makefile after the
# ref/, sim/ and firmware/ fragments.
#
# One source list, three object flavours:
#   $(B)/umd/pic   -fPIC, for libvpux.so.1 (only the vpux_* API exported)
#   $(B)/umd/fast  for libvpux.a, which the tools and the benchmark link
#   $(B)/umd/san   ASan/UBSan, for the host tests
# The in-process backend's device, the NPU model, is linked in as objects
# sim/sim.mk builds in the same flavours (SIM_HOST_OBJS_*): libvpux sees it
# only through include/hw/vpux_hw_host.h.

UMD_SRCS := $(wildcard $(SRCTOP)/umd/*.c)
UMD_HDRS := $(wildcard $(SRCTOP)/umd/*.h $(SRCTOP)/umd/include/*.h) \
	$(HW_HDRS) $(PORT_USER_HDRS)
# everything a device needs but the model: the core, the host port, and
# the ops' definition (ref/: the CPU reference executor's kernels)
UMD_DEP_SRCS := $(FW_SRCS) $(PORT_USER_SRCS) $(PORT_USER_HOST_SRCS) \
	$(REF_SRCS)
# run recipes (umd/runner/): outside UMD_SRCS, which the fuzzers of the
# loader, the assembler and the compiler take parts of
UMD_RUNNER_SRCS := $(wildcard $(SRCTOP)/umd/runner/*.c)
UMD_ALL_SRCS := $(UMD_SRCS) $(UMD_RUNNER_SRCS) $(UMD_DEP_SRCS)
# the ioctl backend (backend_ioctl.c) talks to vpux_accel.ko through libdrm
UMD_DRM_CFLAGS := $(shell $(or $(PKG_CONFIG),pkg-config) --cflags libdrm 2>/dev/null)
UMD_DRM_LIBS := $(or $(shell $(or $(PKG_CONFIG),pkg-config) --libs libdrm 2>/dev/null),-ldrm)
# run recipes (recipe.c) are JSON, parsed with json-c; their CPU
# libraries are dlopen()ed from VPUX_CPU_LIBRARY_PATH, then CPU_LIBDIR
UMD_JSONC_CFLAGS := $(shell $(or $(PKG_CONFIG),pkg-config) --cflags json-c 2>/dev/null)
UMD_JSONC_LIBS := $(or $(shell $(or $(PKG_CONFIG),pkg-config) --libs json-c 2>/dev/null),-ljson-c)
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
CPU_LIBDIR ?= $(LIBDIR)/vpux
UMD_CFLAGS := -I$(SRCTOP)/umd/include -I$(SRCTOP)/umd $(PORT_USER_CFLAGS) \
	-I$(SRCTOP)/uapi $(UMD_DRM_CFLAGS) $(UMD_JSONC_CFLAGS) -pthread \
	-DVPUX_CPU_LIBDIR='"$(CPU_LIBDIR)"'
UMD_LIBS := -lelf -lz -pthread -lm $(UMD_DRM_LIBS) $(UMD_JSONC_LIBS) -ldl

UMD_PIC_OBJS := $(patsubst $(SRCTOP)/%.c,$(B)/umd/pic/%.o,$(UMD_ALL_SRCS)) \
	$(SIM_HOST_OBJS_PIC)
UMD_FAST_OBJS := $(patsubst $(SRCTOP)/%.c,$(B)/umd/fast/%.o,$(UMD_ALL_SRCS)) \
	$(SIM_HOST_OBJS_FAST)
UMD_SAN_OBJS := $(patsubst $(SRCTOP)/%.c,$(B)/umd/san/%.o,$(UMD_ALL_SRCS)) \
	$(SIM_HOST_OBJS_SAN)

$(B)/umd/pic/%.o: $(SRCTOP)/%.c $(UMD_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) -fPIC $(UMD_CFLAGS) -c -o $@ $<

$(B)/umd/fast/%.o: $(SRCTOP)/%.c $(UMD_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) $(UMD_CFLAGS) -c -o $@ $<

$(B)/umd/san/%.o: $(SRCTOP)/%.c $(UMD_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(UMD_CFLAGS) -c -o $@ $<

UMD_SO := $(B)/umd/libvpux.so.1
UMD_A := $(B)/umd/libvpux.a
UMD_PC := $(B)/umd/vpux.pc

$(UMD_SO): $(UMD_PIC_OBJS) $(SRCTOP)/umd/libvpux.map
	$(CC) $(DIST_CFLAGS) $(DIST_LDFLAGS) -shared -Wl,-soname,libvpux.so.1 \
		-Wl,--version-script=$(SRCTOP)/umd/libvpux.map -Wl,-z,defs \
		-o $@ $(UMD_PIC_OBJS) $(UMD_LIBS)
	ln -sf libvpux.so.1 $(B)/umd/libvpux.so

$(UMD_A): $(UMD_FAST_OBJS)
	@rm -f $@
	ar rcs $@ $^

# the in-tree vpux.pc (make install writes its own, tools/install.mk)
$(UMD_PC): $(SRCTOP)/umd/vpux.pc.in
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		-e 's|@KERNELDIR@|$(KERNELDIR)|' $< >$@

# ---- tools ----
VASM_SRCS := $(SRCTOP)/tools/vpux-asm/asm.c $(SRCTOP)/tools/vpux-asm/vasm_tables.c
VASM_HDRS := $(wildcard $(SRCTOP)/tools/vpux-asm/*.h)
TOOL_CFLAGS = $(HOST_CFLAGS) $(DIST_CFLAGS) $(UMD_CFLAGS) -I$(SRCTOP)/tools/vpux-asm
VPUX_ASM := $(B)/tools/vpux-asm
VPUX_DIS := $(B)/tools/vpux-dis
VPUX_RUN := $(B)/tools/vpux-run

CLI_HDR := $(SRCTOP)/tools/common/vpux_cli.h

$(VPUX_ASM): $(SRCTOP)/tools/vpux-asm/main.c $(VASM_SRCS) $(VASM_HDRS) $(UMD_A) $(CLI_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(DIST_LDFLAGS) -o $@ $< $(VASM_SRCS) $(UMD_A) $(UMD_LIBS)

$(VPUX_DIS): $(SRCTOP)/tools/vpux-dis/dis.c $(VASM_SRCS) $(VASM_HDRS) $(UMD_A) $(CLI_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(DIST_LDFLAGS) $(JSONC_CFLAGS) -o $@ $< $(SRCTOP)/tools/vpux-asm/vasm_tables.c \
		$(UMD_A) $(UMD_LIBS) $(JSONC_LIBS)

# vpux-run uses only the public API, linked against the shared library,
# found through TOOL_RPATH in the tree and from an install under one
# PREFIX (a distribution's package sets it empty: no RUNPATH)
comma := ,
TOOL_RPATH ?= $$ORIGIN/../umd:$$ORIGIN/../lib
$(VPUX_RUN): $(SRCTOP)/tools/vpux-run/run.c $(SRCTOP)/umd/include/vpux.h $(UMD_SO) \
		$(SRCTOP)/tools/vpux-run/timeline.c $(SRCTOP)/tools/vpux-run/timeline.h \
		$(SRCTOP)/tools/vpux-run/recipe.c $(SRCTOP)/tools/vpux-run/recipe.h \
		$(SRCTOP)/umd/umd.mk $(CLI_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) $(DIST_LDFLAGS) -I$(SRCTOP)/umd/include \
		$(JSONC_CFLAGS) -o $@ $< $(SRCTOP)/tools/vpux-run/timeline.c \
		$(SRCTOP)/tools/vpux-run/recipe.c -L$(B)/umd -l:libvpux.so.1 \
		$(if $(TOOL_RPATH),-Wl$(comma)-rpath$(comma)'$(TOOL_RPATH)') \
		$(JSONC_LIBS)

# vpux-replay runs a devcoredump's job on the in-process engine core and
# model (libvpux.a), at the addresses it had: not the public API's job
VPUX_REPLAY := $(B)/tools/vpux-replay
REPLAY_SRCS := $(SRCTOP)/tools/vpux-replay/replay.c \
	$(SRCTOP)/tools/vpux-replay/dump.c $(SRCTOP)/tools/vpux-run/timeline.c
$(VPUX_REPLAY): $(REPLAY_SRCS) $(wildcard $(SRCTOP)/tools/vpux-replay/*.h) \
		$(SRCTOP)/tools/vpux-run/timeline.h \
		$(SRCTOP)/uapi/vpux/vpux_coredump.h $(UMD_A) $(CLI_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -I$(SRCTOP)/tools/vpux-run -I$(SRCTOP)/tools/vpux-replay \
		$(JSONC_CFLAGS) -o $@ $(REPLAY_SRCS) $(UMD_A) $(UMD_LIBS) $(JSONC_LIBS)

HOST_PROGS += $(UMD_SO) $(UMD_A) $(UMD_PC) $(VPUX_ASM) $(VPUX_DIS) $(VPUX_RUN) \
	$(VPUX_REPLAY)

# vpux-replay on dumps the test writes, under valgrind when installed
REPLAY_TEST := $(B)/tools/tests/replay_test
HOST_TESTS += $(REPLAY_TEST)
$(REPLAY_TEST): $(SRCTOP)/tools/vpux-replay/tests/replay_test.c \
		$(SRCTOP)/firmware/tests/task_builder.h \
		$(SRCTOP)/uapi/vpux/vpux_coredump.h $(VPUX_REPLAY)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/firmware/tests -I$(SRCTOP)/uapi/vpux \
		$(PORT_USER_CFLAGS) \
		-o $@.bin $<
	printf '#!/bin/sh\nexec %s %s\n' $@.bin $(VPUX_REPLAY) >$@
	chmod +x $@

# ---- examples, assembled at build time ----
EXAMPLES := $(basename $(notdir $(wildcard $(SRCTOP)/examples/*.vasm)))
EXAMPLE_BLOBS := $(addprefix $(B)/examples/,$(addsuffix .vpux,$(EXAMPLES)))

$(B)/examples/%.vpux: $(SRCTOP)/examples/%.vasm $(VPUX_ASM)
	@mkdir -p $(dir $@)
	$(VPUX_ASM) $(VASM_FLAGS) -o $@ $<

HOST_PROGS += $(EXAMPLE_BLOBS)

# the C example of the host boundary (API 1.7): float32 in and out of a
# compiled float model through libvpux alone: the public header and the
# shared library, no tree include path (compiler/tests/float_io_test.sh)
FLOAT_IO_EXAMPLE := $(B)/examples/float_io
$(FLOAT_IO_EXAMPLE): $(SRCTOP)/examples/float_io.c $(SRCTOP)/umd/include/vpux.h $(UMD_SO)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -I% -D%,$(HOST_CFLAGS)) $(DIST_CFLAGS) $(DIST_LDFLAGS) \
		-I$(SRCTOP)/umd/include -o $@ $< -L$(B)/umd -l:libvpux.so.1 \
		-Wl,-rpath,'$$ORIGIN/../umd'
HOST_PROGS += $(FLOAT_IO_EXAMPLE)

# ---- host tests ----
UMD_TEST_NAMES := $(basename $(notdir $(wildcard $(SRCTOP)/umd/tests/test_*.c)))
UMD_TESTS := $(addprefix $(B)/umd/tests/,$(UMD_TEST_NAMES))
HOST_TESTS += $(UMD_TESTS)

$(B)/umd/tests/%: $(SRCTOP)/umd/tests/%.c $(UMD_SAN_OBJS) $(VASM_SRCS) \
		$(VASM_HDRS) $(UMD_HDRS) $(wildcard $(SRCTOP)/umd/tests/*.h) \
		$(EXAMPLE_BLOBS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(UMD_CFLAGS) \
		-I$(SRCTOP)/tools/vpux-asm -DSRCTOP='"$(SRCTOP)"' \
		-DBUILDDIR='"$(B)"' -o $@ $< $(VASM_SRCS) $(UMD_SAN_OBJS) \
		$(UMD_LIBS)

# test_pipeline pipelines a compiled ResNet block (compiler.mk's rule)
$(B)/umd/tests/test_pipeline: $(B)/compiler/models/resnet_qop.vpuxl \
	$(B)/compiler/models/resnet_qop_half.vpuxl

# test_shave_asm runs what it assembles through vpux-dis and vpux-run
$(B)/umd/tests/test_shave_asm: $(VPUX_DIS) $(VPUX_RUN)

# the command-line tools as a user runs them (a TAP shell script)
UMD_TOOLS_TEST := $(B)/umd/tests/tools_test
HOST_TESTS += $(UMD_TOOLS_TEST)

$(UMD_TOOLS_TEST): $(SRCTOP)/umd/tests/tools_test.sh $(VPUX_ASM) $(VPUX_DIS) \
		$(VPUX_RUN) $(B)/compiler/models/resnet_qop.vpuxl
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s %s %s\n' $< $(B) $(SRCTOP) >$@
	chmod +x $@

.PHONY: umd-check examples-check
umd-check: $(UMD_TESTS) $(UMD_TOOLS_TEST)
	tools/run-tests.sh umd $(UMD_TESTS) $(UMD_TOOLS_TEST)

# ---- random FP16 jobs, in process here and through /dev/accel in the VM ----
# test_fp16_random writes its first 40 networks (one to six random FP16
# DPU ops each, data full of +-0, subnormals, infinities and NaNs): each
# runs here through vpux-run --check and vpux-dis | vpux-asm, and in the
# VM (/vpux/data/fp16rand, tools/vm/tests.list) through /dev/accel/accel0
# against the same CPU reference (Documentation/testing.rst).
FP16_RANDOM_DIR := $(B)/vm-data/fp16rand
FP16_RANDOM_STAMP := $(FP16_RANDOM_DIR)/.stamp

$(FP16_RANDOM_STAMP): $(B)/umd/tests/test_fp16_random $(VPUX_RUN) \
		$(VPUX_ASM) $(VPUX_DIS)
	@rm -rf $(FP16_RANDOM_DIR) && mkdir -p $(FP16_RANDOM_DIR)
	@VPUX_FP16_RANDOM_DIR=$(FP16_RANDOM_DIR) $(SAN_RUN) $< \
		>$(B)/umd/tests/fp16rand.tap 2>&1 || \
		{ cat $(B)/umd/tests/fp16rand.tap; exit 1; }
	@n=0; for f in $(FP16_RANDOM_DIR)/*.vpux; do \
		$(VPUX_RUN) --check $$f >$(B)/umd/tests/fp16rand.run 2>&1 || \
			{ cat $(B)/umd/tests/fp16rand.run; exit 1; }; \
		$(VPUX_DIS) $$f -o $(B)/umd/tests/fp16rand.dis.vasm && \
		$(VPUX_ASM) -o $(B)/umd/tests/fp16rand.rt.vpux \
			$(B)/umd/tests/fp16rand.dis.vasm && \
		cmp $$f $(B)/umd/tests/fp16rand.rt.vpux || exit 1; \
		n=$$((n + 1)); \
	done; \
	echo "fp16rand: $$n random FP16 networks bit-exact vs reference, asm|dis|asm identical"
	@touch $@

VM_DATA_DIRS += $(FP16_RANDOM_DIR)
vm-check check-debug: $(FP16_RANDOM_STAMP)

# every example: bit-exact against the CPU reference, asm|dis|asm identical;
# an example's "# check-args: ..." line adds vpux-run arguments (symbols),
# "# check-outputs-equal" compares its outputs 0 and 1 instead (an ELF
# kernel next to the built-in one: the CPU reference runs no kernel code);
# and the random FP16 networks above
examples-check: $(EXAMPLE_BLOBS) $(VPUX_DIS) $(VPUX_RUN) $(VPUX_ASM) \
		$(FP16_RANDOM_STAMP)
	@set -e; for e in $(EXAMPLES); do \
		b=$(B)/examples/$$e.vpux; \
		args=$$(sed -n 's/^# check-args: //p' $(SRCTOP)/examples/$$e.vasm); \
		how="bit-exact vs reference"; \
		if grep -q '^# check-outputs-equal' $(SRCTOP)/examples/$$e.vasm; then \
		$(VPUX_RUN) --seed 7 $$args -o $(B)/examples/$$e.out0 \
			-o $(B)/examples/$$e.out1 $$b >$(B)/examples/$$e.run; \
		cmp $(B)/examples/$$e.out0 $(B)/examples/$$e.out1; \
		how="outputs 0 and 1 bit-equal"; else \
		$(VPUX_RUN) --check --seed 7 $$args $$b >$(B)/examples/$$e.run || \
			{ cat $(B)/examples/$$e.run; exit 1; }; fi; \
		$(VPUX_DIS) $$b -o $(B)/examples/$$e.dis.vasm; \
		$(VPUX_ASM) -o $(B)/examples/$$e.rt.vpux $(B)/examples/$$e.dis.vasm; \
		cmp $$b $(B)/examples/$$e.rt.vpux; \
		echo "examples: $$e: $$how, asm|dis|asm identical"; \
	done
CHECK_STEPS += examples-check

# ---- libFuzzer harness of the loader ----
UMD_FUZZ := $(B)/umd/fuzz/fuzz-loader
UMD_FUZZ_SMOKE_TIME ?= 20
UMD_FUZZ_TIME ?= 600

# the fuzzers' partial libvpux: the loader and its helpers, without the
# device, network, request and completion code (and their backends)
UMD_FUZZ_SRCS = $(filter-out %/device.c %/device_ext.c %/completion.c \
	%/network.c %/names.c %/request.c %/backend_inproc.c %/backend_ioctl.c \
	%/refexec.c %/task.c,$(UMD_SRCS))

$(UMD_FUZZ): $(SRCTOP)/umd/tests/fuzz/fuzz_loader.c $(UMD_SRCS) $(UMD_HDRS) \
		$(REF_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -D_GNU_SOURCE $(UMD_CFLAGS) -o $@ $< \
		$(UMD_FUZZ_SRCS) \
		$(REF_SRCS) -lelf -lz

# seeds beyond the examples: a plan loadable (dynamic shapes), written by
# the test that builds it in C; eight of the random FP16 networks (every
# FP16 op kind, flag, activation and broadcast between them)
UMD_FUZZ_SEEDS := $(B)/umd/fuzz/seeds/mlp_tokens.vpux $(B)/umd/fuzz/fp16seeds.stamp
$(B)/umd/fuzz/seeds/mlp_tokens.vpux: $(B)/umd/tests/test_plan
	@mkdir -p $(dir $@)
	VPUX_PLAN_SEED=$@ $<

$(B)/umd/fuzz/fp16seeds.stamp: $(FP16_RANDOM_STAMP)
	@mkdir -p $(B)/umd/fuzz/seeds
	cp $(FP16_RANDOM_DIR)/fp16rand_00[0-7].vpux $(B)/umd/fuzz/seeds/
	@touch $@

.PHONY: fuzz-loader umd-fuzz-smoke
fuzz-loader: $(UMD_FUZZ) $(EXAMPLE_BLOBS) $(UMD_FUZZ_SEEDS)
	@mkdir -p $(B)/umd/fuzz/corpus
	$(SAN_RUN) $(UMD_FUZZ) -max_total_time=$(UMD_FUZZ_TIME) $(B)/umd/fuzz/corpus \
		$(B)/examples $(B)/umd/fuzz/seeds

umd-fuzz-smoke: $(UMD_FUZZ) $(EXAMPLE_BLOBS) $(UMD_FUZZ_SEEDS)
	@rm -rf $(B)/umd/fuzz/smoke && mkdir -p $(B)/umd/fuzz/smoke
	$(SAN_RUN) $(UMD_FUZZ) -seed=1 -timeout=60 -max_total_time=$(UMD_FUZZ_SMOKE_TIME) $(B)/umd/fuzz/smoke \
		$(B)/examples $(B)/umd/fuzz/seeds
CHECK_STEPS += umd-fuzz-smoke

# ---- the screenshots of Documentation/profiling.rst (needs chromium) ----
PROF_IMG := $(SRCTOP)/Documentation/images
.PHONY: profiling-images
profiling-images: $(VPUX_RUN) $(B)/examples/overlap_dma.vpux
	@command -v chromium >/dev/null || { echo "profiling-images: apt-get install chromium" >&2; exit 1; }
	@mkdir -p $(PROF_IMG) $(B)/profiling
	cd $(B)/examples && $(VPUX_RUN) --trace $(B)/profiling/overlap_dma.json \
		--timeline overlap_dma.vpux | sed -n '1,/^ran /p' | sed '$$d' \
		>$(B)/profiling/timeline.txt
	python3 $(SRCTOP)/tools/vpux-run/trace2html.py $(B)/profiling/overlap_dma.json \
		$(B)/profiling/trace.html --title "vpux-run --trace overlap_dma.json"
	python3 $(SRCTOP)/tools/vpux-run/trace2html.py --text $(B)/profiling/timeline.txt \
		$(B)/profiling/timeline.html --title "$$ vpux-run --timeline overlap_dma.vpux"
	chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1230,275 --screenshot=$(PROF_IMG)/trace-overlap_dma.png \
		file://$(B)/profiling/trace.html
	chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=900,350 --screenshot=$(PROF_IMG)/timeline-overlap_dma.png \
		file://$(B)/profiling/timeline.html

# ---- libFuzzer harness of vpux-replay's devcoredump parser ----
DUMP_FUZZ := $(B)/umd/fuzz/fuzz-coredump
DUMP_FUZZ_SMOKE_TIME ?= 10

$(DUMP_FUZZ): $(SRCTOP)/umd/tests/fuzz/fuzz_coredump.c \
		$(SRCTOP)/tools/vpux-replay/dump.c $(SRCTOP)/tools/vpux-replay/dump.h \
		$(SRCTOP)/uapi/vpux/vpux_coredump.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -D_GNU_SOURCE -I$(SRCTOP)/tools/vpux-replay \
		-I$(SRCTOP)/uapi/vpux -o $@ $< $(SRCTOP)/tools/vpux-replay/dump.c

.PHONY: fuzz-coredump-smoke
fuzz-coredump-smoke: $(DUMP_FUZZ)
	@rm -rf $(B)/umd/fuzz/dump-smoke && mkdir -p $(B)/umd/fuzz/dump-smoke
	$(SAN_RUN) $(DUMP_FUZZ) -seed=1 -timeout=60 -max_total_time=$(DUMP_FUZZ_SMOKE_TIME) \
		$(B)/umd/fuzz/dump-smoke
CHECK_STEPS += fuzz-coredump-smoke

# ---- benchmark ----
UMD_BENCH := $(B)/umd/bench/umd-bench
BENCH_PROGS += $(UMD_BENCH)

$(UMD_BENCH): $(SRCTOP)/umd/tests/bench/umd_bench.c $(UMD_A) $(VASM_SRCS) $(VASM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(DIST_LDFLAGS) -o $@ $< $(VASM_SRCS) $(UMD_A) $(UMD_LIBS)

# ---- logical and memory dims cannot be mixed up: these must not compile ----
.PHONY: umd-dims-typecheck
umd-dims-typecheck:
	@$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/umd/include -fsyntax-only \
		$(SRCTOP)/umd/tests/typecheck/ok.c || exit 1; \
	for f in $(wildcard $(SRCTOP)/umd/tests/typecheck/bad_*.c); do \
		if $(CC) $(HOST_CFLAGS) -I$(SRCTOP)/umd/include -fsyntax-only \
			$$f 2>/dev/null; then \
			echo "umd-dims-typecheck: $$f compiled"; exit 1; \
		fi; \
	done; \
	echo "umd: dims types: every mix-up of logical and memory dims fails to compile"
CHECK_STEPS += umd-dims-typecheck

# ---- libFuzzer harness of the assembler (make fuzz-asm) ----
UMD_FUZZ_ASM := $(B)/umd/fuzz/fuzz-asm

$(UMD_FUZZ_ASM): $(SRCTOP)/umd/tests/fuzz/fuzz_asm.c $(UMD_SRCS) $(UMD_HDRS) \
		$(REF_SRCS) $(VASM_SRCS) $(VASM_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -D_GNU_SOURCE $(UMD_CFLAGS) \
		-DVASM_WEIGHTS_MAX='(64ull << 20)' \
		-I$(SRCTOP)/tools/vpux-asm -o $@ $< $(VASM_SRCS) \
		$(UMD_FUZZ_SRCS) \
		$(REF_SRCS) -lelf -lz -lm

.PHONY: fuzz-asm fuzz-asm-smoke
fuzz-asm: $(UMD_FUZZ_ASM)
	@mkdir -p $(B)/umd/fuzz/corpus-asm
	$(SAN_RUN) $(UMD_FUZZ_ASM) -max_total_time=$(UMD_FUZZ_TIME) -max_len=8192 \
		-dict=$(SRCTOP)/umd/tests/fuzz/asm.dict \
		$(B)/umd/fuzz/corpus-asm $(SRCTOP)/examples

fuzz-asm-smoke: $(UMD_FUZZ_ASM)
	@rm -rf $(B)/umd/fuzz/asm-smoke && mkdir -p $(B)/umd/fuzz/asm-smoke
	$(SAN_RUN) $(UMD_FUZZ_ASM) -seed=1 -timeout=60 -max_total_time=$(UMD_FUZZ_SMOKE_TIME) \
		-max_len=8192 -dict=$(SRCTOP)/umd/tests/fuzz/asm.dict \
		$(B)/umd/fuzz/asm-smoke $(SRCTOP)/examples
CHECK_STEPS += fuzz-asm-smoke

# ---- the runtime test under ThreadSanitizer: requests on several threads
# share a network and the in-process device (engine core, port, model) ----
UMD_TSAN := $(B)/umd/tsan/test_runtime
# and the plan test: two requests of different sizes on one network, the
# engine core's check at load on its own device
UMD_TSAN_PLAN := $(B)/umd/tsan/test_plan

$(B)/umd/tsan/%: $(SRCTOP)/umd/tests/%.c $(UMD_ALL_SRCS) $(VASM_SRCS) \
		$(UMD_HDRS) $(VASM_HDRS) $(wildcard $(SRCTOP)/umd/tests/*.h) \
		$(EXAMPLE_BLOBS) $(SIM_HOST_OBJS_TSAN)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread \
		-I$(SRCTOP)/include $(UMD_CFLAGS) -I$(SRCTOP)/tools/vpux-asm \
		-DBUILDDIR='"$(B)"' -o $@ $< $(UMD_ALL_SRCS) $(VASM_SRCS) \
		$(SIM_HOST_OBJS_TSAN) $(UMD_LIBS)

.PHONY: umd-tsan
umd-tsan: $(UMD_TSAN) $(UMD_TSAN_PLAN)
	@TSAN_OPTIONS=halt_on_error=1 $(SAN_RUN) $(UMD_TSAN) >$(B)/umd/tsan/log 2>&1 || \
		{ tail -40 $(B)/umd/tsan/log; exit 1; }
	@echo "umd: runtime test race-free under ThreadSanitizer ($$(grep -c '^ok' $(B)/umd/tsan/log) points)"
	@TSAN_OPTIONS=halt_on_error=1 $(SAN_RUN) $(UMD_TSAN_PLAN) >$(B)/umd/tsan/log-plan 2>&1 || \
		{ tail -40 $(B)/umd/tsan/log-plan; exit 1; }
	@echo "umd: plan test race-free under ThreadSanitizer ($$(grep -c '^ok' $(B)/umd/tsan/log-plan) points)"
CHECK_STEPS += umd-tsan

# ---- the ioctl backend against vpux_accel.ko, in the VM rig ----
# The VM only gets executables (and the libraries ldd lists), so the
# examples are compiled into the test; libvpux.so.1 is found through the
# rpath here and copied into the VM by tools/vm/vm-run.sh. The static
# examples without symbols only: the generic cases run every example
# unbound (no symbol values), on kernels older than plans too, and
# compare per-op profiles, which plan jobs do not have; plans have their
# own cases (iob_plan.h) and VM lines (dyn_mlp through vpux-run), and so
# have a static network with symbols (dyn_softmax) and one the CPU
# reference cannot run (ELF kernels: elf_softmax).
UMD_IOB_TEST := $(B)/umd/tests/ioctl_backend_test
UMD_IOB_HDR := $(B)/umd/tests/iob_examples.h

$(UMD_IOB_HDR): $(EXAMPLE_BLOBS) $(SRCTOP)/umd/umd.mk
	@mkdir -p $(dir $@)
	@ex=; for e in $(EXAMPLES); do \
		grep -qa '\.vpux\.plan\.blocks' $(B)/examples/$$e.vpux || \
		grep -q '^symbol ' $(SRCTOP)/examples/$$e.vasm || \
		grep -q '^# check-outputs-equal' $(SRCTOP)/examples/$$e.vasm || \
		ex="$$ex $$e"; \
	done; \
	{ echo '/* generated by umd/umd.mk from $(B)/examples (static ones) */'; \
	  echo 'struct iob_example { const char *name; const unsigned char *data; size_t size; };'; \
	  for e in $$ex; do (cd $(B)/examples && xxd -i $$e.vpux) | \
		sed 's/^unsigned/static const unsigned/'; done; \
	  echo 'static const struct iob_example examples[] = {'; \
	  for e in $$ex; do \
		echo "	{ \"$$e\", $${e}_vpux, sizeof($${e}_vpux) },"; done; \
	  echo '};'; } >$@.tmp && mv $@.tmp $@

# A network of 1025 DMA ops: more than the kernel takes in one task (its
# MAX_OPS_PER_TASK, 1024), fewer than the in-process core (4096).
UMD_IOB_MANY := $(B)/umd/tests/iob_many_ops.h

$(UMD_IOB_MANY): $(VPUX_ASM) $(SRCTOP)/umd/umd.mk
	@mkdir -p $(dir $@)
	@{ echo 'network many_ops'; echo 'input x i8 64'; echo 'output y i8 64'; \
	  i=0; while [ $$i -lt 1025 ]; do echo 'dma src=x dst=y'; i=$$((i + 1)); done; } \
		>$(B)/umd/tests/many_ops.vasm
	$(VPUX_ASM) -o $(B)/umd/tests/many_ops.vpux $(B)/umd/tests/many_ops.vasm
	@{ echo '/* generated by umd/umd.mk: 1025 DMA ops */'; \
	  (cd $(B)/umd/tests && xxd -i many_ops.vpux) | \
		sed 's/^unsigned/static const unsigned/'; } >$@.tmp && mv $@.tmp $@

# The plan loadable of test_plan (dynamic shapes), compiled in likewise
UMD_IOB_PLAN := $(B)/umd/tests/iob_plan.h

$(UMD_IOB_PLAN): $(B)/umd/fuzz/seeds/mlp_tokens.vpux $(SRCTOP)/umd/umd.mk
	@{ echo '/* generated by umd/umd.mk: the MLP over tokens of test_plan */'; \
	  (cd $(dir $<) && xxd -i mlp_tokens.vpux) | \
		sed 's/^unsigned/static const unsigned/'; } >$@.tmp && mv $@.tmp $@

# A long job for the chain cases: 64 DMA ops of 1 MiB, each reading what
# the one before wrote (x -> s -> y -> s -> ... -> y), so the engine core
# runs them one at a time and another job's ops run in between.
UMD_IOB_CHAIN := $(B)/umd/tests/iob_chain.h

$(UMD_IOB_CHAIN): $(VPUX_ASM) $(SRCTOP)/umd/umd.mk
	@mkdir -p $(dir $@)
	@{ echo 'network chain_long'; echo 'input x i8 1048576'; \
	  echo 'output y i8 1048576'; echo 'tensor s i8 1048576'; \
	  echo 'dma src=x dst=s'; i=1; while [ $$i -lt 32 ]; do \
		echo 'dma src=s dst=y'; echo 'dma src=y dst=s'; i=$$((i + 1)); done; \
	  echo 'dma src=s dst=y'; } >$(B)/umd/tests/chain_long.vasm
	$(VPUX_ASM) -o $(B)/umd/tests/chain_long.vpux $(B)/umd/tests/chain_long.vasm
	@{ echo '/* generated by umd/umd.mk: 64 chained DMA ops of 1 MiB */'; \
	  (cd $(B)/umd/tests && xxd -i chain_long.vpux) | \
		sed 's/^unsigned/static const unsigned/'; } >$@.tmp && mv $@.tmp $@

$(UMD_IOB_TEST): $(SRCTOP)/umd/tests/ioctl_backend_test.c $(UMD_IOB_HDR) \
		$(UMD_IOB_MANY) $(UMD_IOB_PLAN) $(UMD_IOB_CHAIN) \
		$(SRCTOP)/umd/include/vpux.h $(UMD_SO)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/umd/include -I$(SRCTOP)/uapi \
		$(UMD_DRM_CFLAGS) -I$(B)/umd/tests -o $@ $< \
		-L$(B)/umd -l:libvpux.so.1 -Wl,-rpath,'$$ORIGIN/..:$$ORIGIN/../lib'

HOST_PROGS += $(UMD_IOB_TEST)
VM_EXTRA_BINS += $(UMD_IOB_TEST)

# ---- ABI discipline (API 1.8): the library against the last release ----
# umd/abi/libvpux-1.7.abi is abidw's dump of release 1.7: abi-check fails
# when this build removes or changes anything of it (adding is fine);
# abi_check_test shows it failing on a changed structure and a removed
# symbol (abigail-tools, make deps)
UMD_ABI_BASE := $(SRCTOP)/umd/abi/libvpux-1.7.abi
UMD_ABI_TEST := $(B)/umd/tests/abi_check_test
HOST_TESTS += $(UMD_ABI_TEST)

$(UMD_ABI_TEST): $(SRCTOP)/umd/tests/abi_check_test.sh $(SRCTOP)/umd/abi/abi-check.sh \
		$(UMD_ABI_BASE) $(UMD_SO)
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s %s %s\n' $< $(B) $(SRCTOP) >$@
	chmod +x $@

.PHONY: abi-check
abi-check: $(UMD_SO)
	@$(SRCTOP)/umd/abi/abi-check.sh $(UMD_ABI_BASE) $(UMD_SO) $(SRCTOP)/umd/include
CHECK_STEPS += abi-check

# API 1.8 through vpux_accel.ko (devices, props, flags, dma-bufs, poll
# fds, submit many), in the VM rig like ioctl_backend_test
UMD_API18_VM_TEST := $(B)/umd/tests/api18_vm_test
$(UMD_API18_VM_TEST): $(SRCTOP)/umd/tests/api18_vm_test.c $(UMD_IOB_HDR) \
		$(SRCTOP)/umd/include/vpux.h $(UMD_SO)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/umd/include -I$(B)/umd/tests -o $@ $< \
		-L$(B)/umd -l:libvpux.so.1 -Wl,-rpath,'$$ORIGIN/..:$$ORIGIN/../lib'
HOST_PROGS += $(UMD_API18_VM_TEST)
VM_EXTRA_BINS += $(UMD_API18_VM_TEST)
