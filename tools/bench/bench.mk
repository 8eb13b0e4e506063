# The kernel-path benchmark (DESIGN.md section 7, Documentation/benchmarks.rst):
# vpux-job-bench runs inside the VM against the real module and prints
# figures; then the FP16 convolution of `make bench-dpu` as one DPU op
# through the module's model (vpux-job-bench --dpu-fp16, DPU_FP16_RUNS
# jobs: tens of seconds each under TCG); then vpux-req-bench, the same
# 1-op figures through libvpux, for the kernel (ioctl) and the
# in-process backends in the one VM run; bench-pipeline through the
# kernel (PIPELINE_VM_ARGS: ratio= on the device's clock, per-engine
# time in vpux_sim.ko); the compiled test models; the float ResNet-50 at
# 64x64, once (tools/bench/vm-float.sh: resnet50_vm_ms=).
# `make bench` runs vpux-req-bench on the host too (in-process only).
# Included by the top-level Makefile after tools/vm/vm.mk and umd/umd.mk.
#
#   make bench-vm                          default run (a few minutes)
#   make bench-vm BENCH_ARGS="--quick --trace 200" REQ_BENCH_ARGS=--quick

VPUX_JOB_BENCH := $(B)/tools/vpux-job-bench
HOST_PROGS += $(VPUX_JOB_BENCH)
BENCH_ARGS ?=
REQ_BENCH_ARGS ?=
DPU_FP16_RUNS ?= 2
PIPELINE_VM_ARGS ?= -n 16 -r 1

# libvpux's request path, both backends; linked against libvpux.so.1 like
# vpux-run (the VM rig copies the library along, found through the rpath
# ../lib there), with the 1-op loadable shipped next to it.
VPUX_REQ_BENCH := $(B)/tools/vpux-req-bench
REQ_BENCH_NET := $(B)/examples/copy_1op.vpux
HOST_PROGS += $(VPUX_REQ_BENCH)
BENCH_PROGS += $(VPUX_REQ_BENCH)

$(VPUX_REQ_BENCH): tools/bench/vpux-req-bench.c tools/bench/bench_util.h $(SRCTOP)/umd/include/vpux.h \
		uapi/drm/vpux_accel.h $(UMD_SO) $(REQ_BENCH_NET)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(LIBDRM_CFLAGS) -I$(SRCTOP)/umd/include -o $@ $< \
		-L$(B)/umd -l:libvpux.so.1 -Wl,-rpath,'$$ORIGIN/../umd:$$ORIGIN/../lib'

# Pipelined requests (Documentation/benchmarks.rst): a compiled ResNet
# block with CMX tensors in two of the four tiles (two tile sets),
# requests/s with 1 and with 4 in flight, in process; `make bench` runs
# it through the wrapper (one figure line).
VPUX_PIPELINE_BENCH := $(B)/tools/vpux-pipeline-bench
PIPELINE_BENCH_NET := $(B)/compiler/models/resnet_qop_half.vpuxl
PIPELINE_BENCH_RUN := $(B)/tools/bench-pipeline
HOST_PROGS += $(VPUX_PIPELINE_BENCH)
# the VM's vpux-pipeline-overlap (tools/vm/tests.list)
VM_EXTRA_BINS += $(VPUX_PIPELINE_BENCH)
BENCH_PROGS += $(PIPELINE_BENCH_RUN)

$(VPUX_PIPELINE_BENCH): tools/bench/vpux-pipeline-bench.c tools/bench/bench_util.h \
		$(SRCTOP)/umd/include/vpux.h $(CLI_HDR) $(UMD_SO)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(LIBDRM_CFLAGS) $(JSONC_CFLAGS) -I$(SRCTOP)/umd/include -I$(SRCTOP)/tools/common \
		-o $@ $< -L$(B)/umd -l:libvpux.so.1 $(JSONC_LIBS) \
		-Wl,-rpath,'$$ORIGIN/../umd:$$ORIGIN/../lib'

$(PIPELINE_BENCH_NET): $(SRCTOP)/compiler/models/resnet_qop/model.onnx $(VPUX_ONNX)
	@mkdir -p $(dir $@)
	$(VPUX_ONNX) compile $< -o $@ --cmx-tiles 2

$(PIPELINE_BENCH_RUN): $(VPUX_PIPELINE_BENCH) $(PIPELINE_BENCH_NET)
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s "$$@" %s\n' $(VPUX_PIPELINE_BENCH) $(PIPELINE_BENCH_NET) >$@
	chmod +x $@

.PHONY: bench-vm float-vm-net

# The float ResNet-50 for bench-vm (tools/bench/vm-float.sh): the float
# check set's resnet50 (1x3x64x64), compiled, with its input and the
# output of an in-process run; without the float models, an empty
# directory (the guest then prints "skipped").
FLOAT_VM_DIR := $(B)/compiler/bench/vm-float

float-vm-net: $(VPUX_ONNX)
	@rm -rf $(FLOAT_VM_DIR) && mkdir -p $(FLOAT_VM_DIR)/host && \
	cp $(SRCTOP)/tools/bench/vm-float.sh $(FLOAT_VM_DIR)/run.sh && \
	m=$(FLOAT_MODELS)/resnet50; \
	if sh $(FLOAT_SRC)/gen.sh check $(FLOAT_MODELS) $(SRCTOP) >/dev/null 2>&1 && \
	   $(VPUX_ONNX) compile --no-cpu-fallback $$m/model.onnx -o $(FLOAT_VM_DIR)/resnet50.vpuxl && \
	   $(VPUX_ONNX) run $(FLOAT_VM_DIR)/resnet50.vpuxl --input $$m/test_data_set_0/input_0.pb \
		--output-dir $(FLOAT_VM_DIR)/host >/dev/null; then \
		cp $$m/test_data_set_0/input_0.pb $(FLOAT_VM_DIR)/ && \
		mv $(FLOAT_VM_DIR)/host/output_0.pb $(FLOAT_VM_DIR)/host.pb && rmdir $(FLOAT_VM_DIR)/host; \
	else rm -f $(FLOAT_VM_DIR)/resnet50.vpuxl; fi

$(VPUX_JOB_BENCH): tools/bench/vpux-job-bench.c tools/bench/bench_util.h uapi/drm/vpux_accel.h \
		firmware/tests/task_builder.h $(wildcard firmware/include/*.h) $(HW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(LIBDRM_CFLAGS) -I$(SRCTOP)/firmware/include \
		-I$(SRCTOP)/firmware/tests -o $@ $<

# Boot the VM with the module loaded and run the benchmark there.
bench-vm: deps module firmware-image $(VPUX_JOB_BENCH) $(VPUX_REQ_BENCH) \
		$(VPUX_PIPELINE_BENCH) $(PIPELINE_BENCH_NET) $(COMPILED_MODELS) $(B)/examples/elf_softmax.vpux float-vm-net
	@echo "host: $$(nproc) CPUs, load average $$(cut -d' ' -f1-3 /proc/loadavg) (the VM's 2 vCPUs share them)"
	@KVER=$(KVER) VPUX_KO=$(SRCTOP)/vpux_accel.ko VPUX_FW=$(FW_BIN) \
		VPUX_BINS="$(VPUX_JOB_BENCH) $(VPUX_REQ_BENCH) $(REQ_BENCH_NET) $(VPUX_PIPELINE_BENCH) $(PIPELINE_BENCH_NET) $(VPUX_RUN) $(COMPILED_MODELS) $(B)/examples/elf_softmax.vpux $(VPUX_ONNX)" \
		VPUX_DATA=$(FLOAT_VM_DIR) \
		tools/vm/vm-run.sh demo $(B)/bench-vm \
		'vpux-job-bench $(BENCH_ARGS) && echo &&' \
		'echo "== the FP16 conv of bench-dpu as one DPU op, in vpux_sim.ko" &&' \
		'vpux-job-bench --dpu-fp16 $(DPU_FP16_RUNS) && echo && echo "== vpux-req-bench" &&' \
		'vpux-req-bench $(REQ_BENCH_ARGS) && echo &&' \
		'echo "== bench-pipeline through /dev/accel/accel0" &&' \
		'vpux-pipeline-bench -d /dev/accel/accel0 $(PIPELINE_VM_ARGS) /vpux/bin/resnet_qop_half.vpuxl && echo &&' \
		'echo "== the compiled ONNX test models through /dev/accel/accel0" &&' \
		'for m in /vpux/bin/*.vpuxl; do vpux-run --device /dev/accel/accel0 --repeat 10 $$m | grep latency || exit 1; done &&' \
		'echo && echo "== an ELF SHAVE kernel in vpux_sim.ko (bench-shave-elf mips_vm)" &&' \
		'vpux-run --device /dev/accel/accel0 --repeat 5 --json /vpux/bin/elf_softmax.vpux | tr -d "[:space:]" && echo &&' \
		'echo && echo "== the float ResNet-50 (1x3x64x64) through /dev/accel/accel0, once" &&' \
		'sh /vpux/data/vm-float/run.sh &&' \
		'echo && echo "== vpux-job-bench, headed" &&' \
		'rmmod vpux_accel && insmod /vpux/vpux_accel.ko mode=headed &&' \
		'vpux-job-bench --quick $(BENCH_ARGS) && echo &&' \
		'echo "== the engine core as firmware: instructions per 1-op job (debugfs fw_retired)" &&' \
		'echo -1 >/sys/class/accel/accel0/device/power/autosuspend_delay_ms &&' \
		'D=$$(ls -d /sys/kernel/debug/accel/*/ | head -1) && r0=$$(cat $${D}fw_retired) &&' \
		'vpux-run --device /dev/accel/accel0 --repeat 100 /vpux/bin/copy_1op.vpux >/dev/null &&' \
		'r1=$$(cat $${D}fw_retired) && echo "bench-fw: insn_per_job=$$(( (r1 - r0) / 100 ))"' | tee $(B)/bench-vm.txt
	@awk '/^bench: /{ for (i = 2; i <= NF; i++) if ($$i ~ /^job_ns=/) { \
		v[n++] = substr($$i, 8) } } \
	     END { if (n >= 2) printf "1-op job, headed %.0f us / headless %.0f us: %.2fx\n", \
		v[1] / 1000, v[0] / 1000, v[1] / v[0] }' $(B)/bench-vm.txt
	@tools/bench/shave-elf-vm.sh $(B)/bench-vm.txt

# `make bench` runs this too (as a prerequisite of the host BENCH_PROGS loop).
bench: bench-vm
