# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# vpux top-level build. `make help` lists the targets.
#
# The kernel module is built by Kbuild (see ./Kbuild) against KDIR, by
# default Debian's 6.12 headers; override with KDIR=/path/to/kernel/build.
# User space and host tests are built here; each directory adds its
# programs through a fragment (*.mk) included below.

SRCTOP := $(abspath .)
B ?= $(SRCTOP)/build
# the split build's modules (make module-split)
SPLIT_DIR := $(B)/split
SPLIT_KOS := $(SPLIT_DIR)/vpux_sim.ko $(SPLIT_DIR)/vpux_accel-split.ko

KVER ?= $(shell ls -d /usr/src/linux-headers-6.12*-amd64 2>/dev/null | sort -V | tail -n1 | sed 's|.*/linux-headers-||')
KDIR ?= /usr/src/linux-headers-$(KVER)

CC ?= cc
# The release: every tool's --version, vpux.pc, the DKMS package and
# debian/changelog (make version-check) say this.
VERSION := 1.1.0
# The hardware contract (include/hw/: registers, descriptors, SHAVE ABI)
# and what user space writes for the engine core (uapi/vpux/: task format,
# error codes): every part of the stack builds against them.
HW_CFLAGS := -I$(SRCTOP)/include/hw -I$(SRCTOP)/uapi/vpux
HW_HDRS := $(wildcard $(SRCTOP)/include/hw/*.h $(SRCTOP)/uapi/vpux/*.h)
HOST_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g \
	-I$(SRCTOP)/include -I$(SRCTOP)/uapi $(HW_CFLAGS) \
	-I$(SRCTOP)/tools/common -DVPUX_VERSION='"$(VERSION)"'
SAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
PKG_CONFIG ?= pkg-config
# A distribution's flags (CPPFLAGS, CFLAGS, LDFLAGS from the environment,
# e.g. dpkg-buildflags' hardening) for what gets installed: libvpux and
# the tools. Empty in a plain build.
DIST_CFLAGS = $(CPPFLAGS) $(CFLAGS)
DIST_LDFLAGS = $(LDFLAGS)

# Fragments append to these.
HOST_TESTS :=		# test programs run by `make host-check` (print TAP)
HOST_PROGS :=		# user-space programs built by `make`
BENCH_PROGS :=		# benchmark programs run by `make bench`
CHECK_STEPS :=		# non-TAP make targets `make check` runs as one test each

.PHONY: all module module-split module-sparse print-check-steps userspace check host-check vm-check demo deps clean \
	help bench firmware-check fuzz vm-shell

all: module userspace

-include ref/ref.mk
-include firmware/firmware.mk
-include sim/sim.mk
-include sim/ops/ops.mk
-include portability/user/user.mk
-include umd/umd.mk
-include compiler/compiler.mk
-include umd/cpuops/cpuops.mk
-include umd/recipe.mk
-include tools/tools.mk
-include Documentation/man/man.mk
-include tools/install.mk
-include selftests/selftests.mk
-include tools/vm/vm.mk
-include tools/bench/bench.mk

# Warnings are errors for our sources (VPUX_WERROR is read by ./Kbuild).
module:
	$(MAKE) -C $(KDIR) M=$(SRCTOP) W=1 VPUX_WERROR=1 modules

# The same module with the model as its own vpux_sim.ko
# (CONFIG_DRM_ACCEL_VPUX_SIM=m), built from a copy of the tree so that
# its objects do not mix with the default build's: proves that the
# driver never calls the model. The VM suite loads it once
# (tools/vm/split-check.sh).
module-split:
	@rm -rf $(SPLIT_DIR)/src && mkdir -p $(SPLIT_DIR)/src
	@tar -C $(SRCTOP) --exclude=./build --exclude=./.git --exclude='*.o' \
		--exclude='*.ko' --exclude='.*.cmd' -cf - . | tar -C $(SPLIT_DIR)/src -xf -
	$(MAKE) -C $(KDIR) M=$(SPLIT_DIR)/src W=1 VPUX_WERROR=1 \
		CONFIG_DRM_ACCEL_VPUX_SIM=m modules
	cp $(SPLIT_DIR)/src/vpux_sim.ko $(SPLIT_DIR)/vpux_sim.ko
	cp $(SPLIT_DIR)/src/vpux_accel.ko $(SPLIT_DIR)/vpux_accel-split.ko

# sparse over every source of the module; any warning fails
module-sparse:
	@mkdir -p $(B)
	@$(MAKE) -C $(KDIR) M=$(SRCTOP) W=1 VPUX_WERROR=1 C=2 modules 2>&1 | \
		tee $(B)/sparse.log | { ! grep -E '(warning|error):'; }

print-check-steps:
	@echo $(CHECK_STEPS)

userspace: $(HOST_PROGS)

host-check: $(HOST_TESTS)
	tools/run-tests.sh host $(HOST_TESTS)

# Every test: host tests, firmware build check, VM tests; one summary line.
check: deps
	tools/check.sh

bench: $(BENCH_PROGS)
	@for b in $(BENCH_PROGS); do echo "== $$b"; $$b || exit 1; done

deps:
	@tools/deps.sh

help:
	@echo "make deps       install the Debian packages the project needs"
	@echo "make            build vpux_accel.ko and user space"
	@echo "make module-split  vpux_accel.ko and the model as vpux_sim.ko (build/split)"
	@echo "make check      every test: host (ASan/UBSan), firmware, VM"
	@echo "make demo       boot the VM, load the module, run vpux-info"
	@echo "make bench      benchmark programs (print figures)"
	@echo "make bench-dpu  the DPU kernels alone: model paths vs onnxruntime"
	@echo "make vm-shell   boot the VM with the module and a shell"
	@echo "make check-debug  the VM suite on the debug kernel (KASAN, lockdep, kmemleak)"
	@echo "make fuzz-long  1,000,000 coverage-guided fuzzer calls on the debug kernel"
	@echo "make install    libvpux, tools, man pages, udev rule, DKMS source (DESTDIR, PREFIX)"
	@echo "make uninstall  remove what make install installed"
	@echo "make deb        Debian packages in build/deb (dpkg-buildpackage, lintian)"
	@echo "make deb-check  the packages installed with dpkg, used on the host and in the VM"
	@echo "make dkms-check the module through Debian's dkms against the 6.12 headers"
	@echo "make clean      remove build products"

clean:
	-$(MAKE) -C $(KDIR) M=$(SRCTOP) clean 2>/dev/null
	rm -rf $(B)
