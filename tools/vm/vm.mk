# The VM rig: the kernel module's tests run inside Debian's 6.12 kernel
# under QEMU (tools/vm/vm-run.sh). Included by the top-level Makefile.

VM_TESTS := tools/vm/tests.list
# every example network runs through the kernel driver in the VM
VM_EXAMPLES := $(basename $(notdir $(wildcard examples/*.vasm)))
VM_BINS = $(SELFTEST_PROGS) $(VPUX_INFO) $(VPUX_RUN) $(VPUX_REPLAY) \
	$(SRCTOP)/tools/vm/tap-cmd.sh \
	$(SRCTOP)/tools/vm/split-check.sh $(SRCTOP)/tools/vm/headed-check.sh \
	$(SRCTOP)/tools/vm/tap-lib.sh \
	$(VM_EXTRA_BINS) $(addprefix $(B)/examples/,$(addsuffix .vpux,$(VM_EXAMPLES)))
VM_ENV = KVER=$(KVER) VPUX_KO=$(SRCTOP)/vpux_accel.ko VPUX_BINS="$(VM_BINS)" \
	VPUX_DATA="$(VM_DATA_DIRS)" VPUX_FW=$(FW_BIN)

.PHONY: check-debug check-debug-run debug-kernel fuzz-long fuzz-long-run

# The VM suite on the stock kernel; per-command TAP in $(B)/vm.
# The management core's image rides along (/lib/firmware/vpux/vpux_fw.bin).
vm-check: module firmware-image $(VM_BINS)
	@$(VM_ENV) tools/vm/vm-suite.sh vm $(B)/vm $(VM_TESTS)

# The same suite on the debug kernel (KASAN, lockdep, kmemleak, ...).
# The packages first, in their own make: the flags of the libraries they
# install (pkg-config) are read when a make starts.
check-debug: deps
	@$(MAKE) --no-print-directory check-debug-run

check-debug-run: firmware-image $(VM_BINS)
	@VPUX_BINS="$(VM_BINS)" VPUX_DATA="$(VM_DATA_DIRS)" VPUX_FW=$(FW_BIN) B=$(B) tools/vm/check-debug.sh

# The coverage-guided ioctl fuzzer for 1,000,000 calls on the debug
# kernel, with its coverage (not part of check; FUZZ_LONG_CALLS,
# FUZZ_LONG_TIME, FUZZ_LONG_SEED override).
fuzz-long: deps
	@$(MAKE) --no-print-directory fuzz-long-run

fuzz-long-run: firmware-image $(VM_BINS)
	@VPUX_BINS="$(VM_BINS)" VPUX_FW=$(FW_BIN) B=$(B) tools/vm/fuzz-long.sh

# Build (or find cached) the debug kernel only.
debug-kernel: deps
	@tools/vm/debug-kernel.sh

# The main job: boot, load the module, print the device table, run the
# sample CNN through the kernel driver (libvpux's ioctl backend), checked
# bit for bit against the CPU reference, with its top-3 classes and
# timing; then the same network through the in-process backend (engine
# core + NPU model in the process).
DEMO_NET := $(B)/examples/tiny_cnn.vpux
DEMO_DIR := $(B)/demo-fashion
demo: deps
	@$(MAKE) -s module userspace firmware-image >/dev/null
	@rm -rf $(DEMO_DIR) && mkdir -p $(DEMO_DIR)
	@echo "== the trained Fashion-MNIST model (compiler/models/fashion), float32, compiled to FP16"
	@$(VPUX_ONNX) compile $(SRCTOP)/compiler/models/fashion/fashion_float.onnx \
		-o $(DEMO_DIR)/fashion.vpuxl --no-cpu-fallback --report | tail -n 6
	@$(SRCTOP)/compiler/models/fashion/demo.sh prepare $(DEMO_DIR) 8
	@$(VM_ENV) VPUX_DATA="$(DEMO_DIR)" \
		VPUX_BINS="$(VM_BINS) $(SRCTOP)/compiler/models/fashion/demo.sh" \
		tools/vm/vm-run.sh demo $(B)/demo \
		'vpux-info && echo && echo "== examples/tiny_cnn.vasm through /dev/accel/accel0" &&' \
		'vpux-run --device /dev/accel/accel0 --check --top 3 --repeat 20 /vpux/bin/tiny_cnn.vpux &&' \
		'echo && echo "== Fashion-MNIST test images through /dev/accel/accel0" &&' \
		'sh /vpux/bin/demo.sh run /vpux/data/demo-fashion /vpux/data/demo-fashion/fashion.vpuxl /dev/accel/accel0 /vpux/bin/vpux-onnx'
	@echo
	@echo "== examples/tiny_cnn.vasm in-process (on the host)"
	@$(B)/tools/vpux-run --check --top 3 --repeat 20 $(DEMO_NET)

# Interactive: a shell in the VM with the module loaded.
vm-shell: module firmware-image $(VM_BINS)
	@$(VM_ENV) tools/vm/vm-run.sh shell
