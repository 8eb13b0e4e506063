# User-space tools. Included by the top-level Makefile.

# Every command-line tool installed to $(BINDIR), each built as
# $(B)/tools/NAME with a man page Documentation/man/NAME.1.rst: adding a
# tool is one word here. The CLI test (--help, --version, a bad option),
# `make install` and the Debian package vpux-tools loop over this list.
VPUX_TOOLS := vpux-info vpux-run vpux-asm vpux-dis vpux-onnx vpux-replay
VPUX_TOOL_BINS = $(addprefix $(B)/tools/,$(VPUX_TOOLS))

LIBDRM_CFLAGS := $(shell $(PKG_CONFIG) --cflags libdrm 2>/dev/null)
LIBDRM_LIBS := $(shell $(PKG_CONFIG) --libs libdrm 2>/dev/null)
JSONC_CFLAGS := $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)
JSONC_LIBS := $(shell $(PKG_CONFIG) --libs json-c 2>/dev/null)
KMOD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libkmod 2>/dev/null)
KMOD_LIBS := $(shell $(PKG_CONFIG) --libs libkmod 2>/dev/null)
LIBNL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0 2>/dev/null)
LIBNL_LIBS := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0 2>/dev/null)

VPUX_INFO := $(B)/tools/vpux-info
HOST_PROGS += $(VPUX_INFO)

# the netlink views (--stats, --contexts, --watch, --events), libnl-genl
VPUX_INFO_NL_SRCS := tools/vpux-info/vpux-info-nl.c

$(VPUX_INFO): tools/vpux-info/vpux-info.c uapi/drm/vpux_accel.h tools/common/vpux_cli.h \
		$(VPUX_INFO_NL_SRCS) tools/vpux-info/vpux-info-nl.h uapi/drm/vpux_netlink.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) $(DIST_LDFLAGS) $(LIBDRM_CFLAGS) $(JSONC_CFLAGS) \
		$(KMOD_CFLAGS) $(LIBNL_CFLAGS) -o $@ $< $(VPUX_INFO_NL_SRCS) \
		$(LIBDRM_LIBS) $(JSONC_LIBS) $(KMOD_LIBS) $(LIBNL_LIBS)

# vpux-info's output against GET_PARAM and the expected values the VM rig
# passes on its command line (TAP, run by tools/vm/tests.list)
VPUX_INFO_CHECK := $(B)/tools/vpux-info-check
HOST_PROGS += $(VPUX_INFO_CHECK)
VM_EXTRA_BINS += $(VPUX_INFO_CHECK)

$(VPUX_INFO_CHECK): tools/vpux-info/vpux-info-check.c uapi/drm/vpux_accel.h \
		tools/common/vpux_capture.h \
		include/vpux_tap.h $(HW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(LIBDRM_CFLAGS) $(JSONC_CFLAGS) -o $@ $< $(JSONC_LIBS)

# vpux-info's netlink views against GET_PARAM, sysfs, fdinfo and an
# injected fault (TAP, run by tools/vm/tests.list)
VPUX_INFO_NL_CHECK := $(B)/tools/vpux-info-nl-check
HOST_PROGS += $(VPUX_INFO_NL_CHECK)
VM_EXTRA_BINS += $(VPUX_INFO_NL_CHECK)

$(VPUX_INFO_NL_CHECK): tools/vpux-info/vpux-info-nl-check.c uapi/drm/vpux_accel.h \
		tools/common/vpux_capture.h \
		include/vpux_tap.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(LIBDRM_CFLAGS) $(JSONC_CFLAGS) -o $@ $< $(JSONC_LIBS)

-include tools/ort/ort.mk

# tools/run-i386.sh, which runs the 32-bit engine-core tests natively or
# under qemu-i386 (TAP)
RUN_I386_TEST := $(B)/tools/tests/run_i386_test
HOST_TESTS += $(RUN_I386_TEST)

$(RUN_I386_TEST): tools/tests/run_i386_test.sh tools/run-i386.sh $(FW_I386_PROBE) \
		$(B)/firmware/tests/fw32/validate
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s %s %s %s\n' $(SRCTOP)/$< $(SRCTOP)/tools/run-i386.sh \
		$(FW_I386_PROBE) $(B)/firmware/tests/fw32/validate >$@
	chmod +x $@

# every tool's --help, --version and a bad option (TAP)
TOOLS_CLI_TEST := $(B)/tools/tests/cli_test
HOST_TESTS += $(TOOLS_CLI_TEST)

$(TOOLS_CLI_TEST): tools/tests/cli_test.sh $(VPUX_TOOL_BINS) tools/tools.mk
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s %s %s\n' $(SRCTOP)/$< $(VERSION) "$(VPUX_TOOL_BINS)" >$@
	chmod +x $@
