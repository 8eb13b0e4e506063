# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The float conformance checks and benchmark of issue #30
# (Documentation/float-models.rst). Included by compiler/compiler.mk.
#
#   make float-models          export the models + onnxruntime references
#   make float-models-check    compile and run them, judged by the FP16 rule
#   make onnx-node-float-check the float node tests of node_tests_float.list
#   make node-table            every float node test: Documentation/onnx-node-tests.rst
#
# The models are made in the build tree by export.py (python3-torch,
# python3-torchvision) and tools/ort/ort-run.js, and made again only when
# one of the two changes (gen.sh keeps their hash).

FLOAT_SRC := $(SRCTOP)/compiler/models/float
FLOAT_MODELS := $(B)/compiler/models/float
FLOAT_BENCH_MODELS := $(B)/compiler/models/float-bench
FLOAT_EXPECTED := $(FLOAT_SRC)/expected.list
FLOAT_PY := /usr/bin/python3
ONNX_TESTDATA ?= /usr/share/libonnx-testdata/data
FP16_REL_L2 := 1e-2

.PHONY: float-models float-models-check onnx-node-float-check node-table

float-models:
	@sh $(FLOAT_SRC)/gen.sh check $(FLOAT_MODELS) $(SRCTOP)

# Fails when a model of expected.list fails; without torch or onnxruntime
# it is skipped while expected.list is empty, and fails otherwise.
float-models-check: $(VPUX_ONNX)
	@mkdir -p $(B)/compiler
	@sh $(FLOAT_SRC)/gen.sh check $(FLOAT_MODELS) $(SRCTOP); rc=$$?; \
	if [ $$rc = 77 ]; then \
		if sed -e 's/#.*//' $(FLOAT_EXPECTED) | grep -q '[^[:space:]]'; then \
			echo "float-models-check: the models of expected.list cannot be made"; exit 1; \
		fi; \
		echo "SKIP: float models cannot be made here (make deps)"; exit 0; \
	fi; \
	[ $$rc = 0 ] || exit $$rc; \
	$(FLOAT_PY) $(FLOAT_SRC)/check.py --vpux-onnx $(VPUX_ONNX) \
		--expected $(FLOAT_EXPECTED) --work $(B)/compiler/float-check \
		$(FLOAT_MODELS) >$(B)/compiler/float-models-check.txt; \
	rc=$$?; cat $(B)/compiler/float-models-check.txt; exit $$rc
CHECK_STEPS += float-models-check

# the float node tests that must pass (SUITE/TEST a line), by the same
# rule, compiled whole for the NPU
ONNX_NODE_FLOAT_TESTS := $(shell sed -e 's/\#.*//' -e '/^[[:space:]]*$$/d' \
	$(SRCTOP)/compiler/tests/node_tests_float.list 2>/dev/null)

onnx-node-float-check: $(VPUX_ONNX)
	@mkdir -p $(B)/compiler
	@if [ -z "$(ONNX_NODE_FLOAT_TESTS)" ]; then \
		echo "onnx-node-float-check: no test listed in compiler/tests/node_tests_float.list"; \
		exit 0; \
	fi; \
	$(VPUX_ONNX) test --rel-l2 $(FP16_REL_L2) --no-cpu-fallback \
		$(addprefix $(ONNX_TESTDATA)/,$(ONNX_NODE_FLOAT_TESTS)) \
		>$(B)/compiler/onnx-node-float-check.tap; rc=$$?; \
		cat $(B)/compiler/onnx-node-float-check.tap; exit $$rc
CHECK_STEPS += onnx-node-float-check

# not in make check: every test of the three suites (a few minutes)
node-table: $(VPUX_ONNX)
	$(FLOAT_PY) $(SRCTOP)/compiler/tests/node_table.py --vpux-onnx $(VPUX_ONNX) \
		--data $(ONNX_TESTDATA) --out $(SRCTOP)/Documentation/onnx-node-tests.rst \
		--passing $(B)/compiler/node-table-passing.list

# make bench: ResNet-50 224x224 float32, vpux in process vs onnxruntime
FLOAT_BENCH := $(B)/compiler/bench/bench-models-float
BENCH_PROGS += $(FLOAT_BENCH)

$(FLOAT_BENCH): $(FLOAT_SRC)/bench.py $(FLOAT_SRC)/gen.sh $(VPUX_ONNX)
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nout=$$(sh %s bench %s %s 2>&1) || { echo "bench-models-float: skipped ($$(echo "$$out" | tail -1))"; exit 0; }\nexec %s %s --vpux-onnx %s --ort-run %s %s/resnet50_224\n' \
		$(FLOAT_SRC)/gen.sh $(FLOAT_BENCH_MODELS) $(SRCTOP) \
		$(FLOAT_PY) $(FLOAT_SRC)/bench.py $(VPUX_ONNX) $(SRCTOP)/tools/ort/ort-run.js \
		$(FLOAT_BENCH_MODELS) >$@
	chmod +x $@

# ---- the VM: a subset of the float models through /dev/accel ----
# (tools/vm/tests.list, vpux-onnx-float): the smaller ones, among them the
# transformer; the kernel's FP16 arithmetic is the integer soft-float, so
# the big CNNs stay in process, and unet_small too: on the debug kernel
# (KASAN) its element-wise layout DMAs outlast the hang detector
FLOAT_VM_MODELS := vit_small squeezenet1_1 mobilenet_v3_small
VM_DATA_DIRS += $(addprefix $(FLOAT_MODELS)/,$(FLOAT_VM_MODELS))
vm-check check-debug-run: float-models

# Not in make check (about 5 minutes of TCG on the stock kernel): the
# architectures of expected.list that make check's vpux-onnx-float line
# does not run, through /dev/accel/accel0, judged by the same rule as in
# process (--rel-l2 1e-2, --no-cpu-fallback, both data sets). The debug
# kernel is not used: its KASAN build of the model takes tens of minutes
# on the big ones. The guest gets 3 GiB: the models (about 330 MB) come
# in its initramfs.
FLOAT_VM_EXTRA = $(filter-out $(FLOAT_VM_MODELS),$(shell sed -n 's/^\([a-z0-9_]\+\)$$/\1/p' $(FLOAT_SRC)/expected.list))
.PHONY: float-vm-check
float-vm-check: deps module firmware-image float-models $(VPUX_ONNX) \
		$(B)/umd/libvpux-cpuops.so
	@KVER=$(KVER) VPUX_KO=$(SRCTOP)/vpux_accel.ko VPUX_FW=$(FW_BIN) \
		VPUX_VM_MEM=3072 VPUX_VM_TIMEOUT=1800 \
		VPUX_BINS="$(VPUX_ONNX) $(B)/umd/libvpux-cpuops.so" \
		VPUX_DATA="$(addprefix $(FLOAT_MODELS)/,$(FLOAT_VM_EXTRA))" \
		tools/vm/vm-run.sh demo $(B)/float-vm \
		'rc=0; for m in $(FLOAT_VM_EXTRA); do s=$$(date +%s);' \
		'vpux-onnx test --device /dev/accel/accel0 --rel-l2 1e-2 --no-cpu-fallback /vpux/data/$$m >/tmp/fvm.log 2>&1 || rc=1;' \
		'echo "$$m: $$(tail -1 /tmp/fvm.log) in $$(( $$(date +%s) - s )) s through /dev/accel/accel0"; done; exit $$rc' \
		>$(B)/float-vm.txt 2>&1; rc=$$?; cat $(B)/float-vm.txt; exit $$rc
