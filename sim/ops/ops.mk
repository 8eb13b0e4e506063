# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Compute kernels of the NPU model (sim/ops/, also built into the kernel
# module by ./Kbuild), tested against the plain CPU references (ref/,
# ref/ref.mk). The kernels use the numerics the references define, so
# OPS_SRCS always comes with REF_SRCS.

OPS_SRCS := $(wildcard $(SRCTOP)/sim/ops/*.c)
OPS_CFLAGS := -I$(SRCTOP)/sim/include -I$(SRCTOP)/sim/ops $(HW_CFLAGS)

OPS_HDRS := $(wildcard $(SRCTOP)/sim/ops/*.h) $(SRCTOP)/sim/include/vpux_ops.h \
	$(SRCTOP)/sim/include/vpux_sim_compat.h $(HW_HDRS)

OPS_TESTS := $(B)/ops/test_dpu $(B)/ops/test_dpu_paths $(B)/ops/test_shave \
	$(B)/ops/test_float $(B)/ops/test_shave_f $(B)/ops/test_dpu_f16
OPS_BENCH := $(B)/ops/bench_dpu $(B)/ops/bench_shave

$(B)/ops/test_%: $(SRCTOP)/sim/ops/tests/test_%.c $(OPS_SRCS) $(REF_SRCS) \
		$(OPS_HDRS) $(SRCTOP)/sim/ops/tests/ops_test.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(OPS_CFLAGS) -o $@ $< $(OPS_SRCS) $(REF_SRCS) -lm

# bench_dpu also times dpu.c and dpu_f16.c as the kernel builds them: no
# vectorisation, no SIMD kernels, no vector registers, renamed
# vpux_dpu_run_kscalar() (which runs FP16 on vpux_dpu_f16_run_kscalar()).
KSCALAR_CFLAGS := -DVPUX_DPU_SCALAR -mgeneral-regs-only \
	-Dvpux_dpu_run=vpux_dpu_run_kscalar \
	-Dvpux_dpu_set_path=vpux_dpu_set_path_kscalar \
	-Dvpux_dpu_f16_run=vpux_dpu_f16_run_kscalar
$(B)/ops/dpu_kscalar.o: $(SRCTOP)/sim/ops/dpu.c $(OPS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(OPS_CFLAGS) $(KSCALAR_CFLAGS) -c -o $@ $<

$(B)/ops/dpu_f16_kscalar.o: $(SRCTOP)/sim/ops/dpu_f16.c $(OPS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(OPS_CFLAGS) $(KSCALAR_CFLAGS) -c -o $@ $<

$(B)/ops/bench_dpu: $(SRCTOP)/sim/ops/tests/bench_dpu.c $(OPS_SRCS) $(REF_SRCS) \
		$(OPS_HDRS) $(SRCTOP)/sim/ops/tests/ops_test.h $(B)/ops/dpu_kscalar.o \
		$(B)/ops/dpu_f16_kscalar.o
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(OPS_CFLAGS) -DVPUX_SRCTOP='"$(SRCTOP)"' -o $@ $< \
		$(OPS_SRCS) $(REF_SRCS) $(B)/ops/dpu_kscalar.o \
		$(B)/ops/dpu_f16_kscalar.o -lm

$(B)/ops/bench_%: $(SRCTOP)/sim/ops/tests/bench_%.c $(OPS_SRCS) $(REF_SRCS) \
		$(OPS_HDRS) $(SRCTOP)/sim/ops/tests/ops_test.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(OPS_CFLAGS) -o $@ $< $(OPS_SRCS) $(REF_SRCS) -lm

HOST_TESTS += $(OPS_TESTS)
BENCH_PROGS += $(OPS_BENCH)

# the DPU benchmark alone (make bench also boots the VM for bench-vm)
.PHONY: bench-dpu
bench-dpu: $(B)/ops/bench_dpu
	$(B)/ops/bench_dpu

.PHONY: ops-check
ops-check: $(OPS_TESTS)
	tools/run-tests.sh ops $(OPS_TESTS)

# ---- ops-freestanding: kernels and references need nothing but memcpy/memset ----
# Every file, 32- and 64-bit, freestanding, -Werror (the references with
# the hardware's headers alone); the linked objects may leave only memcpy
# and memset undefined (no libc, no 64-bit division helpers such as
# __udivdi3, no floating point runtime).
OPS_FREESTANDING := -std=c11 -Wall -Wextra -Werror -Wmissing-prototypes \
	-O2 -ffreestanding -fno-builtin -fno-pic -mgeneral-regs-only

.PHONY: ops-freestanding
ops-freestanding:
	@mkdir -p $(B)/ops/fs
	@for m in -m32 -m64; do \
		objs=; \
		for f in $(OPS_SRCS) $(REF_SRCS); do \
			o=$(B)/ops/fs/$$(basename $$f .c)$$m.o; \
			case $$f in \
			$(SRCTOP)/ref/*) fl="$(HW_CFLAGS)" ;; \
			*) fl="$(OPS_CFLAGS)" ;; \
			esac; \
			$(CC) $$m $(OPS_FREESTANDING) $$fl -c $$f -o $$o \
				|| exit 1; \
			objs="$$objs $$o"; \
		done; \
		ld $$( [ $$m = -m32 ] && echo -m elf_i386 ) -r -o $(B)/ops/fs/all$$m.o $$objs \
			|| exit 1; \
		undef=$$(nm -u $(B)/ops/fs/all$$m.o | awk '{print $$2}' | \
			grep -vxE 'memcpy|memset'); \
		if [ -n "$$undef" ]; then \
			echo "ops$$m: unexpected undefined symbols: $$undef"; exit 1; \
		fi; \
	done
	@echo "ops: kernels and references build freestanding (-m32, -m64), need only memcpy/memset"

CHECK_STEPS += ops-freestanding
