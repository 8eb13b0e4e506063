# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# libvpux-cpuops.so: the CPU functions of run recipes (umd/cpuops/), a
# dlopen()ed plugin with one exported symbol, library_init
# (umd/include/vpux_cpu.h). Included by umd/umd.mk.

CPUOPS_SRCS := $(wildcard $(SRCTOP)/umd/cpuops/*.c)
CPUOPS_HDRS := $(wildcard $(SRCTOP)/umd/cpuops/*.h) \
	$(SRCTOP)/umd/include/vpux_cpu.h $(SRCTOP)/umd/hostconv.h \
	$(SRCTOP)/include/hw/vpux_float.h
# umd/hostconv.h: the quantize rounding libvpux and the compiler use;
# include/hw/vpux_float.h: their FP16
CPUOPS_CFLAGS := -I$(SRCTOP)/umd/include -I$(SRCTOP)/umd/cpuops \
	-I$(SRCTOP)/umd $(HW_CFLAGS) -fvisibility=hidden
CPUOPS_PIC_OBJS := $(patsubst $(SRCTOP)/%.c,$(B)/cpuops/pic/%.o,$(CPUOPS_SRCS))
# ASan/UBSan objects for host tests that call the functions directly
CPUOPS_SAN_OBJS := $(patsubst $(SRCTOP)/%.c,$(B)/cpuops/san/%.o,$(CPUOPS_SRCS))
CPUOPS_SO := $(B)/umd/libvpux-cpuops.so

$(B)/cpuops/pic/%.o: $(SRCTOP)/%.c $(CPUOPS_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) -fPIC $(CPUOPS_CFLAGS) -c -o $@ $<

$(B)/cpuops/san/%.o: $(SRCTOP)/%.c $(CPUOPS_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(CPUOPS_CFLAGS) -c -o $@ $<

$(CPUOPS_SO): $(CPUOPS_PIC_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DIST_CFLAGS) $(DIST_LDFLAGS) -shared -Wl,-z,defs \
		-o $@ $(CPUOPS_PIC_OBJS) -lm

HOST_PROGS += $(CPUOPS_SO)

# ---- host tests of the functions (ASan/UBSan), through library_init ----
CPUOPS_TEST_NAMES := $(basename $(notdir $(wildcard $(SRCTOP)/umd/cpuops/tests/test_*.c)))
CPUOPS_TESTS := $(addprefix $(B)/cpuops/tests/,$(CPUOPS_TEST_NAMES))
HOST_TESTS += $(CPUOPS_TESTS)

$(B)/cpuops/tests/%: $(SRCTOP)/umd/cpuops/tests/%.c $(CPUOPS_SAN_OBJS) $(CPUOPS_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_CFLAGS) $(CPUOPS_CFLAGS) -o $@ $< \
		$(CPUOPS_SAN_OBJS) -lm
.SECONDARY: $(CPUOPS_SAN_OBJS)
