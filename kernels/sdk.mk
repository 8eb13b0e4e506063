# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The kernel SDK as it is installed (Documentation/shave-kernels.rst,
# "Custom kernels"): vpux_kernel.h with the hardware headers it includes,
# the linker script, and the vpux-kernel-cc wrapper. Included by the
# top-level Makefile after kernels/kernels.mk.
#
#   KERNEL_SDK        $(B)/kernel-sdk: the SDK staged in the build tree
#                     (include/, link.ld, bin/vpux-kernel-cc), as
#                     installed, for the tests and examples
#   KERNELDIR         where make install puts it
#   VPUX_KERNEL_CC    the staged wrapper

KERNELDIR ?= $(PREFIX)/share/vpux/kernel-sdk
KERNEL_SDK := $(B)/kernel-sdk
KERNEL_SDK_HDRS := $(SRCTOP)/kernels/include/vpux_kernel.h \
	$(addprefix $(SRCTOP)/include/hw/,vpux_float.h vpux_hw_types.h \
	vpux_kparams.h vpux_regs.h vpux_shave_abi.h vpux_shave_elf.h)
VPUX_KERNEL_CC_IN := $(SRCTOP)/tools/vpux-kernel-cc/vpux-kernel-cc.in
VPUX_KERNEL_CC := $(KERNEL_SDK)/bin/vpux-kernel-cc

# @KERNELDIR@ and @VERSION@ of the wrapper
kernel_cc_sed = sed -e 's|@KERNELDIR@|$(1)|g' -e 's|@VERSION@|$(VERSION)|g'

$(KERNEL_SDK)/stamp: $(KERNEL_SDK_HDRS) $(SRCTOP)/kernels/link.ld \
		$(VPUX_KERNEL_CC_IN) $(SRCTOP)/kernels/sdk.mk
	@rm -rf $(KERNEL_SDK) && mkdir -p $(KERNEL_SDK)/include $(KERNEL_SDK)/bin
	cp $(KERNEL_SDK_HDRS) $(KERNEL_SDK)/include/
	cp $(SRCTOP)/kernels/link.ld $(KERNEL_SDK)/
	$(call kernel_cc_sed,$(KERNEL_SDK)) $(VPUX_KERNEL_CC_IN) >$(VPUX_KERNEL_CC)
	chmod 755 $(VPUX_KERNEL_CC)
	@touch $@

.PHONY: kernel-sdk
kernel-sdk: $(KERNEL_SDK)/stamp

# the worked example (examples/kernels/), built with the wrapper
EXAMPLE_KERNEL_DIR := $(B)/examples/kernels
EXAMPLE_KERNELS := $(patsubst $(SRCTOP)/examples/kernels/%.c,$(EXAMPLE_KERNEL_DIR)/%.elf,\
	$(wildcard $(SRCTOP)/examples/kernels/*.c))

$(EXAMPLE_KERNEL_DIR)/%.elf: $(SRCTOP)/examples/kernels/%.c $(KERNEL_SDK)/stamp
	@mkdir -p $(dir $@)
	$(VPUX_KERNEL_CC) -Werror -o $@ $<

.PHONY: example-kernels
example-kernels: $(EXAMPLE_KERNELS)

# the wrapper's man page, installed with it (libvpux-dev, not vpux-tools)
KERNEL_CC_MAN := $(B)/man-sdk/vpux-kernel-cc.1
$(KERNEL_CC_MAN): $(SRCTOP)/tools/vpux-kernel-cc/vpux-kernel-cc.1.rst
	@mkdir -p $(dir $@)
	$(RST2MAN) --exit-status=warning $< $@

# make install (tools/install.mk's install-dev): the SDK and the wrapper
.PHONY: install-kernel-sdk
install-kernel-sdk: $(VPUX_KERNEL_CC_IN) $(KERNEL_CC_MAN)
	install -d $(DESTDIR)$(KERNELDIR)/include $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1
	install -m 644 $(KERNEL_CC_MAN) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(KERNEL_SDK_HDRS) $(DESTDIR)$(KERNELDIR)/include/
	install -m 644 $(SRCTOP)/kernels/link.ld $(DESTDIR)$(KERNELDIR)/link.ld
	$(call kernel_cc_sed,$(KERNELDIR)) $(VPUX_KERNEL_CC_IN) \
		>$(DESTDIR)$(BINDIR)/vpux-kernel-cc
	chmod 755 $(DESTDIR)$(BINDIR)/vpux-kernel-cc

KERNEL_SDK_INSTALLED = $(addprefix $(KERNELDIR)/include/,$(notdir $(KERNEL_SDK_HDRS))) \
	$(KERNELDIR)/link.ld $(BINDIR)/vpux-kernel-cc $(MANDIR)/man1/vpux-kernel-cc.1

# compiler/tests/test_kernels.c: the example and its own test kernels
TEST_KERNEL_DIR := $(B)/compiler/tests/kernels
TEST_KERNELS := $(patsubst $(SRCTOP)/compiler/tests/kernels/%.c,$(TEST_KERNEL_DIR)/%.elf,\
	$(wildcard $(SRCTOP)/compiler/tests/kernels/*.c))

$(TEST_KERNEL_DIR)/%.elf: $(SRCTOP)/compiler/tests/kernels/%.c $(KERNEL_SDK)/stamp
	@mkdir -p $(dir $@)
	$(VPUX_KERNEL_CC) -Werror -o $@ $<

$(B)/compiler/tests/test_kernels: $(EXAMPLE_KERNELS) $(TEST_KERNELS)
$(B)/compiler/tests/test_kernels: HOST_CFLAGS += \
	-DEXAMPLE_KERNEL_DIR='"$(EXAMPLE_KERNEL_DIR)"' \
	-DTEST_KERNEL_DIR='"$(TEST_KERNEL_DIR)"'

# the worked example end to end (compiler/tests/custom_kernel_test.sh)
CUSTOM_KERNEL_TEST := $(B)/compiler/tests/custom_kernel_test
HOST_TESTS += $(CUSTOM_KERNEL_TEST)

$(CUSTOM_KERNEL_TEST): $(SRCTOP)/compiler/tests/custom_kernel_test.sh \
		$(SRCTOP)/compiler/tests/custom_kernel_model.py $(VPUX_ONNX) \
		$(KERNEL_SDK)/stamp
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s %s %s\n' $< $(B) $(SRCTOP) >$@
	chmod +x $@

# ... and in the VM through /dev/accel (tools/vm/tests.list: the model,
# its data set and the kernel in /vpux/data/custom_kernel)
CUSTOM_KERNEL_VM := $(B)/vm-data/custom_kernel
VM_DATA_DIRS += $(CUSTOM_KERNEL_VM)

$(CUSTOM_KERNEL_VM)/stamp: $(SRCTOP)/compiler/tests/custom_kernel_model.py \
		$(EXAMPLE_KERNEL_DIR)/scale_shift.elf
	@rm -rf $(dir $@) && mkdir -p $(dir $@)/kdir
	/usr/bin/python3 $< $(dir $@)
	cp $(EXAMPLE_KERNEL_DIR)/scale_shift.elf $(dir $@)/kdir/
	@touch $@
vm-check check-debug-run: $(CUSTOM_KERNEL_VM)/stamp
