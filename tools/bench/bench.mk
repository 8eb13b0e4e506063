# The kernel-path benchmark (DESIGN.md section 7, Documentation/benchmarks.rst):
# vpux-job-bench runs inside the VM against the real module and prints
# figures. Included by the top-level Makefile after tools/vm/vm.mk.
#
#   make bench-vm                          default run (about a minute)
#   make bench-vm BENCH_ARGS="--quick --trace 200"

VPUX_JOB_BENCH := $(B)/tools/vpux-job-bench
HOST_PROGS += $(VPUX_JOB_BENCH)
BENCH_ARGS ?=

.PHONY: bench-vm

$(VPUX_JOB_BENCH): tools/bench/vpux-job-bench.c uapi/drm/vpux_accel.h \
		firmware/tests/task_builder.h $(wildcard firmware/include/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(LIBDRM_CFLAGS) -I$(SRCTOP)/firmware/include \
		-I$(SRCTOP)/firmware/tests -o $@ $<

# Boot the VM with the module loaded and run the benchmark there.
bench-vm: deps module $(VPUX_JOB_BENCH)
	@echo "host: $$(nproc) CPUs, load average $$(cut -d' ' -f1-3 /proc/loadavg) (the VM's 2 vCPUs share them)"
	@KVER=$(KVER) VPUX_KO=$(SRCTOP)/vpux_accel.ko VPUX_BINS="$(VPUX_JOB_BENCH)" \
		tools/vm/vm-run.sh demo $(B)/bench-vm vpux-job-bench $(BENCH_ARGS)

# `make bench` runs this too (as a prerequisite of the host BENCH_PROGS loop).
bench: bench-vm
