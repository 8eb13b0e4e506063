# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The NPU model (sim/): core sources, the host user-space platform and the
# model's host tests. Included by the top-level Makefile.
#
# Exported for other fragments:
#   SIM_SRCS       the model core (also compiled into vpux_accel.ko)
#   SIM_HOST_SRCS  everything a host program needs to instantiate a device:
#                  the core, sim/user/ (pthreads platform) and sim/ops/;
#                  link them with $(REF_SRCS) (ref/ref.mk)
#   SIM_CFLAGS     include paths for the above
#   SIM_TEST_OBJS  SIM_HOST_SRCS + ref/ (the ops' definition, which sim/ops
#                  uses) compiled with ASan/UBSan, for host tests
#   SIM_FAST_OBJS  the same without sanitizers, for benchmarks
#   SIM_HOST_OBJS_{SAN,FAST,PIC,TSAN}  SIM_HOST_SRCS alone, compiled here
#                  for libvpux's in-process backend (umd/umd.mk): with
#                  ASan/UBSan, plain, -fPIC, ThreadSanitizer. libvpux uses
#                  the model only through include/hw/vpux_hw_host.h and
#                  never builds with the model's include paths.
# Link host programs using them with -pthread.

SIM_SRCS := $(wildcard $(SRCTOP)/sim/*.c)
SIM_HOST_SRCS := $(SIM_SRCS) $(wildcard $(SRCTOP)/sim/user/*.c) \
	$(wildcard $(SRCTOP)/sim/ops/*.c)
SIM_CFLAGS := -I$(SRCTOP)/sim/include -I$(SRCTOP)/sim/user $(HW_CFLAGS)
SIM_HDRS := $(HW_HDRS) $(wildcard $(SRCTOP)/sim/include/*.h $(SRCTOP)/sim/*.h \
	$(SRCTOP)/sim/user/*.h $(SRCTOP)/sim/ops/*.h) $(SRCTOP)/include/vpux_tap.h

SIM_TEST_NAMES := $(basename $(notdir $(wildcard $(SRCTOP)/sim/tests/*.c)))
SIM_TESTS := $(addprefix $(B)/sim/tests/,$(SIM_TEST_NAMES))
HOST_TESTS += $(SIM_TESTS)

# Objects of the model for host tests, sanitized, under $(B)/sim/obj/.
SIM_TEST_SRCS := $(SIM_HOST_SRCS) $(REF_SRCS)
SIM_TEST_OBJS := $(patsubst $(SRCTOP)/%.c,$(B)/sim/obj/%.o,$(SIM_TEST_SRCS))

$(B)/sim/obj/%.o: $(SRCTOP)/%.c $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(SIM_CFLAGS) -I$(SRCTOP)/sim/ops \
		-pthread -c -o $@ $<

# Unsanitized objects for benchmarks, under $(B)/sim/obj-fast/.
SIM_FAST_OBJS := $(patsubst $(SRCTOP)/%.c,$(B)/sim/obj-fast/%.o,$(SIM_TEST_SRCS))

$(B)/sim/obj-fast/%.o: $(SRCTOP)/%.c $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) $(SIM_CFLAGS) -I$(SRCTOP)/sim/ops -pthread -c -o $@ $<

# The model for libvpux, in each flavour of its objects.
SIM_HOST_OBJS_SAN := $(patsubst $(SRCTOP)/%.c,$(B)/sim/obj/%.o,$(SIM_HOST_SRCS))
SIM_HOST_OBJS_FAST := $(patsubst $(SRCTOP)/%.c,$(B)/sim/obj-fast/%.o,$(SIM_HOST_SRCS))
SIM_HOST_OBJS_PIC := $(patsubst $(SRCTOP)/%.c,$(B)/sim/obj-pic/%.o,$(SIM_HOST_SRCS))
SIM_HOST_OBJS_TSAN := $(patsubst $(SRCTOP)/%.c,$(B)/sim/obj-tsan/%.o,$(SIM_HOST_SRCS))

$(B)/sim/obj-pic/%.o: $(SRCTOP)/%.c $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) -fPIC $(SIM_CFLAGS) -I$(SRCTOP)/sim/ops -pthread -c -o $@ $<

# as umd/umd.mk builds its ThreadSanitizer test (FUZZ_CC: firmware.mk)
$(B)/sim/obj-tsan/%.o: $(SRCTOP)/%.c $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread \
		-I$(SRCTOP)/include $(SIM_CFLAGS) -I$(SRCTOP)/sim/ops -pthread \
		-c -o $@ $<

$(B)/sim/tests/%: $(SRCTOP)/sim/tests/%.c $(SIM_TEST_OBJS) $(SIM_HDRS) \
		$(wildcard $(SRCTOP)/sim/tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(SIM_CFLAGS) -pthread -o $@ $< \
		$(SIM_TEST_OBJS)

# The engine core on the model through the host port: also links the core
# and the port (firmware/firmware.mk, included before this fragment) and
# uses the core's task builder and internals.
$(B)/sim/tests/sim_core_test: $(SRCTOP)/sim/tests/sim_core_test.c \
		$(SIM_TEST_OBJS) $(SIM_HDRS) $(FW_TEST_DEPS) $(PORT_USER_HOST_SRCS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(SIM_CFLAGS) $(PORT_USER_CFLAGS) \
		-I$(SRCTOP)/firmware -I$(SRCTOP)/firmware/tests -pthread -o $@ $< \
		$(FW_SRCS) $(PORT_USER_SRCS) $(PORT_USER_HOST_SRCS) \
		$(SIM_TEST_OBJS)

.PHONY: sim-check
sim-check: $(SIM_TESTS)
	tools/run-tests.sh sim $(SIM_TESTS)

# Benchmark: prints figures (make bench), built without sanitizers.
SIM_BENCH := $(B)/sim/bench/sim_bench
BENCH_PROGS += $(SIM_BENCH)

$(SIM_BENCH): $(SRCTOP)/sim/tests/bench/sim_bench.c $(SIM_FAST_OBJS) $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SIM_CFLAGS) -pthread -o $@ $< $(SIM_FAST_OBJS)

# The management core's interpreter: test programs, host test, benchmark.
include $(SRCTOP)/sim/tests/rv/rv.mk
