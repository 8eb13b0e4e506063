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

# ---- vpux-onnx ----
