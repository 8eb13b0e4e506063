# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The ONNX compiler (compiler/): libvpuxc.a, its tests, fuzzer and the
# vpux-onnx command. Included by the top-level Makefile after umd/umd.mk.
#
# ONNX's protobuf schema is not copied into the tree: the C code is
# generated at build time by protoc-c (protobuf-c-compiler) from the
# onnx.proto that Debian's libonnx-dev installs.
#
# Object flavours as in umd/: $(B)/compiler/fast (the tools) and
# $(B)/compiler/san (ASan/UBSan, the host tests). The compiler writes
# loadables with libvpux's internal writer (umd/lf_write.c), so it links
# the matching libvpux objects.

ONNX_PROTO ?= /usr/include/onnx/onnx.proto
PROTOC_C ?= protoc-c
PBC_CFLAGS := $(shell $(PKG_CONFIG) --cflags libprotobuf-c 2>/dev/null)
PBC_LIBS := $(or $(shell $(PKG_CONFIG) --libs libprotobuf-c 2>/dev/null),-lprotobuf-c)

COMPILER_GEN := $(B)/compiler/gen
COMPILER_PB_C := $(COMPILER_GEN)/onnx.pb-c.c
COMPILER_PB_H := $(COMPILER_GEN)/onnx.pb-c.h

# the assembler (tools/vpux-asm) is the compiler's back end: the lowered
# program is emitted as vpux-asm text and assembled in memory
COMPILER_SRCS := $(wildcard $(SRCTOP)/compiler/*.c) $(VASM_SRCS)
COMPILER_HDRS := $(wildcard $(SRCTOP)/compiler/*.h \
	$(SRCTOP)/compiler/include/*.h) $(COMPILER_PB_H) $(UMD_HDRS) \
	$(VASM_HDRS)
COMPILER_CFLAGS := -I$(SRCTOP)/compiler/include -I$(SRCTOP)/compiler \
	-I$(SRCTOP)/tools/vpux-asm \
	-I$(COMPILER_GEN) $(UMD_CFLAGS) $(PBC_CFLAGS)
COMPILER_LIBS := $(PBC_LIBS) $(UMD_LIBS)
# partition.c writes run recipes with json-c
COMPILER_JSONC_LIBS := $(or $(shell $(PKG_CONFIG) --libs json-c 2>/dev/null),-ljson-c)
COMPILER_CFLAGS += $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)
COMPILER_LIBS += $(COMPILER_JSONC_LIBS)

$(COMPILER_PB_H): $(COMPILER_PB_C)
$(COMPILER_PB_C): $(ONNX_PROTO)
	@mkdir -p $(COMPILER_GEN)
	$(PROTOC_C) --c_out=$(COMPILER_GEN) -I$(dir $(ONNX_PROTO)) $(ONNX_PROTO)

# generated code: our flags but not our warning policy
PB_CFLAGS := $(filter-out -Werror -Wextra,$(HOST_CFLAGS)) $(PBC_CFLAGS)

COMPILER_FAST_OBJS := \
	$(patsubst $(SRCTOP)/%.c,$(B)/compiler/fast/%.o,$(COMPILER_SRCS)) \
	$(B)/compiler/fast/onnx.pb-c.o
COMPILER_SAN_OBJS := \
	$(patsubst $(SRCTOP)/%.c,$(B)/compiler/san/%.o,$(COMPILER_SRCS)) \
	$(B)/compiler/san/onnx.pb-c.o

$(B)/compiler/fast/onnx.pb-c.o: $(COMPILER_PB_C)
	@mkdir -p $(dir $@)
	$(CC) $(PB_CFLAGS) -c -o $@ $<

$(B)/compiler/san/onnx.pb-c.o: $(COMPILER_PB_C)
	@mkdir -p $(dir $@)
	$(CC) $(PB_CFLAGS) $(SAN_CFLAGS) -c -o $@ $<

$(B)/compiler/fast/%.o: $(SRCTOP)/%.c $(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(COMPILER_CFLAGS) -c -o $@ $<

$(B)/compiler/san/%.o: $(SRCTOP)/%.c $(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(COMPILER_CFLAGS) -c -o $@ $<

COMPILER_A := $(B)/compiler/libvpuxc.a
$(COMPILER_A): $(COMPILER_FAST_OBJS)
	@rm -f $@
	ar rcs $@ $^

HOST_PROGS += $(COMPILER_A)

# ---- host tests: compiler/tests/test_*.c, ASan/UBSan ----
COMPILER_TEST_NAMES := $(basename $(notdir $(wildcard $(SRCTOP)/compiler/tests/test_*.c)))
COMPILER_TESTS := $(addprefix $(B)/compiler/tests/,$(COMPILER_TEST_NAMES))
HOST_TESTS += $(COMPILER_TESTS)

$(B)/compiler/tests/%: $(SRCTOP)/compiler/tests/%.c $(COMPILER_SAN_OBJS) \
		$(UMD_SAN_OBJS) $(COMPILER_HDRS) \
		$(wildcard $(SRCTOP)/compiler/tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(COMPILER_CFLAGS) \
		-DSRCTOP='"$(SRCTOP)"' -DBUILDDIR='"$(B)"' -o $@ $< \
		$(COMPILER_SAN_OBJS) $(UMD_SAN_OBJS) $(COMPILER_LIBS)

# ---- benchmark: compile time and in-process latency per test model ----
COMPILER_BENCH := $(B)/compiler/bench/bench_compiler
BENCH_PROGS += $(COMPILER_BENCH)

$(COMPILER_BENCH): $(SRCTOP)/compiler/tests/bench/bench_compiler.c \
		$(COMPILER_A) $(UMD_A) $(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(COMPILER_CFLAGS) -DSRCTOP='"$(SRCTOP)"' -o $@ $< \
		$(COMPILER_A) $(UMD_A) $(COMPILER_LIBS)

# ---- the trained model on all 10,000 Fashion-MNIST test images ----
FASHION_ACC := $(B)/compiler/tests/fashion_accuracy
FASHION_DIR := $(SRCTOP)/compiler/models/fashion
FASHION_DATA ?= /usr/share/datasets/fashion-mnist
HOST_PROGS += $(FASHION_ACC)

$(FASHION_ACC): $(SRCTOP)/compiler/tests/fashion_accuracy.c $(COMPILER_A) \
		$(UMD_A) $(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_A) $(UMD_A) \
		$(COMPILER_LIBS)

.PHONY: fashion-check
fashion-check: $(FASHION_ACC)
	$(FASHION_ACC) $(SRCTOP)/compiler/models/fashion_qdq/model.onnx \
		$(FASHION_DATA) $(FASHION_DIR)/ort_pred.u8 $(FASHION_DIR)/figures.txt
CHECK_STEPS += fashion-check

# the float model compiled to FP16 against onnxruntime float32
.PHONY: fashion-float-check
fashion-float-check: $(FASHION_ACC) $(VPUX_ONNX)
	$(FASHION_ACC) --label float $(FASHION_DIR)/fashion_float.onnx \
		$(FASHION_DATA) $(FASHION_DIR)/ort_pred_float.u8 $(FASHION_DIR)/figures.txt
CHECK_STEPS += fashion-float-check

# ---- vpux-onnx ----
# compile, run and test ONNX models (tools/vpux-onnx); the fast objects
VPUX_ONNX := $(B)/tools/vpux-onnx
HOST_PROGS += $(VPUX_ONNX)

$(VPUX_ONNX): $(SRCTOP)/tools/vpux-onnx/vpux-onnx.c $(COMPILER_A) $(UMD_A) \
		$(COMPILER_HDRS) $(CLI_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(COMPILER_CFLAGS) $(JSONC_CFLAGS) -o $@ $< \
		$(COMPILER_A) $(UMD_A) $(COMPILER_LIBS) $(JSONC_LIBS)

# vpux-onnx end to end (a TAP shell script); mk-copy-net builds its
# loadables without the compiler
ONNX_MKNET := $(B)/compiler/tests/mk-copy-net
ONNX_TOOLS_TEST := $(B)/compiler/tests/onnx_tools_test
HOST_TESTS += $(ONNX_TOOLS_TEST)

$(ONNX_MKNET): $(SRCTOP)/compiler/tests/mk_copy_net.c \
		$(SRCTOP)/compiler/tests/io_util.h $(COMPILER_A) $(UMD_A) \
		$(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_A) \
		$(UMD_A) $(COMPILER_LIBS)

$(ONNX_TOOLS_TEST): $(SRCTOP)/compiler/tests/onnx_tools_test.sh $(VPUX_ONNX) \
		$(ONNX_MKNET) $(B)/umd/libvpux-cpuops.so
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s %s %s\n' $< $(B) $(SRCTOP) >$@
	chmod +x $@

# the float_io example (libvpux alone, API 1.7) against vpux-onnx run
FLOAT_IO_TEST := $(B)/compiler/tests/float_io_test
HOST_TESTS += $(FLOAT_IO_TEST)

$(FLOAT_IO_TEST): $(SRCTOP)/compiler/tests/float_io_test.sh $(VPUX_ONNX) \
		$(FLOAT_IO_EXAMPLE)
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s %s %s\n' $< $(B) $(SRCTOP) >$@
	chmod +x $@

# ---- the ONNX node tests of libonnx-testdata (compiler/tests/node_tests.list) ----
ONNX_NODE_DIR ?= /usr/share/libonnx-testdata/data/node
ONNX_NODE_TESTS := $(shell sed -e '/^\#/d' -e '/^$$/d' \
	$(SRCTOP)/compiler/tests/node_tests.list 2>/dev/null)

.PHONY: onnx-node-check
onnx-node-check: $(VPUX_ONNX)
	@mkdir -p $(B)/compiler
	@$(VPUX_ONNX) test $(addprefix $(ONNX_NODE_DIR)/,$(ONNX_NODE_TESTS)) \
		>$(B)/compiler/onnx-node-check.tap; rc=$$?; \
		cat $(B)/compiler/onnx-node-check.tap; exit $$rc
CHECK_STEPS += onnx-node-check

# the test models of compiler/models (both formats, onnxruntime references);
# the models with dynamic axes (dyn_*) need their bounds: onnx-dyn-check
ONNX_MODEL_DIRS = $(filter-out %/dyn_mlp %/dyn_mlp_qop %/mixed_float,$(sort $(patsubst %/model.onnx,%,$(wildcard $(SRCTOP)/compiler/models/*/model.onnx))))
# (mixed_float has float outputs: the FP16 rule, in onnx_tools_test.sh)
# dyn_mlp(_qop): [tokens, 64] -> [tokens, 16], a data set per token count
ONNX_DYN_BOUNDS := tokens=1..64

# (mixed_qdq runs as a recipe: its CPU functions from the build tree)
.PHONY: onnx-models-check
onnx-models-check: $(VPUX_ONNX) $(B)/umd/libvpux-cpuops.so
	@mkdir -p $(B)/compiler
	@VPUX_CPU_LIBRARY_PATH=$(B)/umd \
		$(VPUX_ONNX) test $(ONNX_MODEL_DIRS) >$(B)/compiler/onnx-models-check.tap; \
		rc=$$?; cat $(B)/compiler/onnx-models-check.tap; exit $$rc
CHECK_STEPS += onnx-models-check

# the model with a dynamic axis: compiled to a plan, each data set binds
# the token count from its input's shape (Documentation/compiler.rst)
.PHONY: onnx-dyn-check
onnx-dyn-check: $(VPUX_ONNX)
	@mkdir -p $(B)/compiler
	@$(VPUX_ONNX) test --symbol-bounds $(ONNX_DYN_BOUNDS) \
		$(SRCTOP)/compiler/models/dyn_mlp $(SRCTOP)/compiler/models/dyn_mlp_qop \
		>$(B)/compiler/onnx-dyn-check.tap; \
		rc=$$?; cat $(B)/compiler/onnx-dyn-check.tap; exit $$rc
CHECK_STEPS += onnx-dyn-check

# ---- libFuzzer harnesses: ONNX import + compile, TensorProto parsing ----
COMPILER_FUZZ := $(B)/compiler/fuzz/fuzz-onnx
COMPILER_FUZZ_T := $(B)/compiler/fuzz/fuzz-tensor
COMPILER_FUZZ_SMOKE_TIME ?= 10
COMPILER_FUZZ_TIME ?= 600
COMPILER_FUZZ_SRCS := $(COMPILER_SRCS) $(COMPILER_PB_C) $(REF_SRCS) \
	$(UMD_FUZZ_SRCS)
COMPILER_FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -std=gnu11 -D_GNU_SOURCE \
	-I$(SRCTOP)/include -I$(SRCTOP)/uapi $(HW_CFLAGS) $(COMPILER_CFLAGS)
# seeds: a few dozen node models (the node-test list first), their inputs;
# compiler/tests/fuzz/regress: inputs that once failed, run every time
COMPILER_FUZZ_SEEDS := $(wildcard $(addprefix $(ONNX_NODE_DIR)/,$(addsuffix /model.onnx,$(ONNX_NODE_TESTS)))) \
	$(wordlist 1,40,$(wildcard $(ONNX_NODE_DIR)/*/model.onnx)) \
	$(SRCTOP)/compiler/models/dyn_mlp/model.onnx
COMPILER_FUZZ_TSEEDS := $(wildcard $(addprefix $(ONNX_NODE_DIR)/,$(addsuffix /test_data_set_0/*.pb,$(ONNX_NODE_TESTS))))

$(COMPILER_FUZZ): $(SRCTOP)/compiler/tests/fuzz/fuzz_onnx.c $(COMPILER_FUZZ_SRCS) \
		$(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(COMPILER_FUZZ_FLAGS) -o $@ $< $(COMPILER_FUZZ_SRCS) \
		$(PBC_LIBS) $(COMPILER_JSONC_LIBS) -lelf -lz -lm -pthread

$(COMPILER_FUZZ_T): $(SRCTOP)/compiler/tests/fuzz/fuzz_onnx.c $(COMPILER_FUZZ_SRCS) \
		$(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(COMPILER_FUZZ_FLAGS) -DFUZZ_TENSOR -o $@ $< \
		$(COMPILER_FUZZ_SRCS) $(PBC_LIBS) $(COMPILER_JSONC_LIBS) -lelf -lz -lm -pthread

# the seed corpora, copied under distinct names
# (fuzz-tensor also reads kernels' declarations: the SDK-built kernels)
.PHONY: compiler-fuzz-seeds
compiler-fuzz-seeds: $(EXAMPLE_KERNELS) $(TEST_KERNELS)
	@rm -rf $(B)/compiler/fuzz/seed $(B)/compiler/fuzz/seed-tensor
	@mkdir -p $(B)/compiler/fuzz/seed $(B)/compiler/fuzz/seed-tensor
	@cp $(EXAMPLE_KERNELS) $(TEST_KERNELS) $(B)/compiler/fuzz/seed-tensor/
	@for f in $(COMPILER_FUZZ_SEEDS); do \
		cp $$f $(B)/compiler/fuzz/seed/$$(basename $$(dirname $$f)).onnx; done
	@for f in $(COMPILER_FUZZ_TSEEDS); do \
		d=$$(dirname $$(dirname $$f)); \
		cp $$f $(B)/compiler/fuzz/seed-tensor/$$(basename $$d)-$$(basename $$f); done

.PHONY: fuzz-onnx compiler-fuzz-smoke
fuzz-onnx: $(COMPILER_FUZZ) $(COMPILER_FUZZ_T) compiler-fuzz-seeds
	@mkdir -p $(B)/compiler/fuzz/corpus $(B)/compiler/fuzz/corpus-tensor
	$(SAN_RUN) $(COMPILER_FUZZ) -max_total_time=$(COMPILER_FUZZ_TIME) -max_len=262144 \
		-timeout=60 $(B)/compiler/fuzz/corpus $(B)/compiler/fuzz/seed \
		$(SRCTOP)/compiler/tests/fuzz/regress
	$(SAN_RUN) $(COMPILER_FUZZ_T) -max_total_time=$(COMPILER_FUZZ_TIME) -max_len=65536 \
		$(B)/compiler/fuzz/corpus-tensor $(B)/compiler/fuzz/seed-tensor

# make check: each harness COMPILER_FUZZ_SMOKE_TIME seconds, seed 1
compiler-fuzz-smoke: $(COMPILER_FUZZ) $(COMPILER_FUZZ_T) compiler-fuzz-seeds
	@rm -rf $(B)/compiler/fuzz/smoke $(B)/compiler/fuzz/smoke-tensor
	@mkdir -p $(B)/compiler/fuzz/smoke $(B)/compiler/fuzz/smoke-tensor
	$(SAN_RUN) $(COMPILER_FUZZ) -seed=1 -timeout=60 -max_len=262144 \
		-max_total_time=$(COMPILER_FUZZ_SMOKE_TIME) \
		$(B)/compiler/fuzz/smoke $(B)/compiler/fuzz/seed \
		$(SRCTOP)/compiler/tests/fuzz/regress
	$(SAN_RUN) $(COMPILER_FUZZ_T) -seed=1 -timeout=60 -max_len=65536 \
		-max_total_time=$(COMPILER_FUZZ_SMOKE_TIME) \
		$(B)/compiler/fuzz/smoke-tensor $(B)/compiler/fuzz/seed-tensor
CHECK_STEPS += compiler-fuzz-smoke

# ---- the VM: the node tests through /dev/accel (tools/vm/tests.list) ----
# vpux-onnx and the test directories ride along (/vpux/data/NAME)
VM_EXTRA_BINS += $(VPUX_ONNX)
VM_DATA_DIRS += $(wildcard $(addprefix $(ONNX_NODE_DIR)/,$(ONNX_NODE_TESTS)))
# and a subset of the test models, one per family (tests.list)
ONNX_VM_MODELS := lenet_qdq mobilenet_qop resnet_qop mlp_qdq dyn_mlp dyn_mlp_qop
VM_DATA_DIRS += $(addprefix $(SRCTOP)/compiler/models/,$(ONNX_VM_MODELS))
# the partitioned model runs as a recipe: its CPU library rides along in
# /vpux/bin (VPUX_CPU_LIBRARY_PATH in tests.list)
VM_DATA_DIRS += $(SRCTOP)/compiler/models/mixed_qdq
VM_EXTRA_BINS += $(B)/umd/libvpux-cpuops.so

# ---- the test models compiled, for the kernel-path benchmark ----
# (not mixed_qdq: it compiles to a recipe, not to one loadable)
COMPILED_MODELS := $(addprefix $(B)/compiler/models/,$(addsuffix .vpuxl,\
	$(filter-out mixed_qdq,$(notdir $(ONNX_MODEL_DIRS)))))

$(B)/compiler/models/%.vpuxl: $(SRCTOP)/compiler/models/%/model.onnx $(VPUX_ONNX)
	@mkdir -p $(dir $@)
	$(VPUX_ONNX) compile $< -o $@

# ---- the float architectures, float node tests and benchmark (issue #30) ----
include $(SRCTOP)/compiler/models/float/float.mk
