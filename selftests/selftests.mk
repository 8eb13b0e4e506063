# kselftests: build them with kselftest_harness.h taken from Debian's
# linux-source-6.12 package at build time (never copied into the tree).

KSFT_SRC_TAR ?= $(firstword $(wildcard /usr/src/linux-source-6.12.tar.xz))
KSFT_DIR := $(B)/kselftest
KSFT_HDRS := $(KSFT_DIR)/kselftest_harness.h $(KSFT_DIR)/kselftest.h
SELFTEST_OUT := $(B)/selftests
SELFTEST_PROGS := $(addprefix $(SELFTEST_OUT)/,vpux_param_test vpux_reload_test vpux_bo_test \
	vpux_job_test vpux_stress_test vpux_fuzz vpux_soak vpux_faultinj vpux_queue_test \
	vpux_fence_test vpux_access_test vpux_headed_test vpux_coredump_test \
	vpux_pm_test vpux_netlink_test vpux_shave_test)
HOST_PROGS += $(SELFTEST_PROGS)

$(KSFT_HDRS) &:
	@test -n "$(KSFT_SRC_TAR)" || { echo "linux-source-6.12 missing: run make deps" >&2; exit 1; }
	@mkdir -p $(KSFT_DIR)
	tar -xJf $(KSFT_SRC_TAR) -C $(KSFT_DIR) --strip-components=4 \
		linux-source-6.12/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.12/tools/testing/selftests/kselftest.h
	@touch $(KSFT_HDRS)

$(SELFTEST_PROGS) &: $(KSFT_HDRS) $(wildcard selftests/*.c selftests/*.h selftests/include/*.h) \
		uapi/drm/vpux_accel.h uapi/drm/vpux_netlink.h uapi/drm/vpux_task.h \
		selftests/Makefile
	@mkdir -p $(SELFTEST_OUT)
	$(MAKE) -C selftests KSFT_DIR=$(KSFT_DIR) UAPI_DIR=$(SRCTOP)/uapi \
		OUTPUT=$(SELFTEST_OUT) all

# selftests/include/: copies of the project's headers the tests need, so
# that selftests/ builds in a kernel tree with only the uapi header
# installed there. They must stay identical to the originals:
# selftests-headers-check fails on any difference, selftests-headers
# copies the originals over.
SELFTEST_HDR_SRCS := uapi/vpux/dla_types.h uapi/vpux/dla_err.h \
	firmware/tests/task_builder.h firmware/tests/plan_builder.h \
	firmware/include/dla_limits.h \
	include/hw/vpux_regs.h uapi/vpux/vpux_coredump.h

.PHONY: selftests-headers selftests-headers-check
selftests-headers:
	@for f in $(SELFTEST_HDR_SRCS); do cp $$f selftests/include/; done

selftests-headers-check:
	@set -e; for f in $(SELFTEST_HDR_SRCS); do \
		cmp -s $$f selftests/include/$$(basename $$f) || \
		{ echo "selftests/include/$$(basename $$f) differs from $$f: make selftests-headers"; exit 1; }; done; \
	extra=$$(cd selftests/include && ls | while read -r h; do \
		echo " $(SELFTEST_HDR_SRCS)" | grep -q "/$$h\b" || echo $$h; done); \
	[ -z "$$extra" ] || { echo "selftests/include: $$extra is a copy of nothing"; exit 1; }; \
	echo "selftests: $(words $(SELFTEST_HDR_SRCS)) copied headers identical to their originals"
CHECK_STEPS += selftests-headers-check

# The syzkaller descriptions of the uapi (selftests/syzkaller/vpux.txt)
# against uapi/drm/vpux_accel.h: ioctl numbers, struct sizes, field
# offsets and names, constants (tools/syz-check.sh). syzlang-const
# rewrites vpux.txt.const after a change of the header or the description.
.PHONY: syzlang-check syzlang-const
syzlang-check:
	@tools/syz-check.sh selftests/syzkaller/vpux.txt uapi/drm/vpux_accel.h
syzlang-const:
	@tools/syz-check.sh --update-const selftests/syzkaller/vpux.txt uapi/drm/vpux_accel.h
CHECK_STEPS += syzlang-check

# selftests/ inside Debian's linux-source-6.12 as
# tools/testing/selftests/drivers/accel/vpux/ with only the uapi header
# installed: built and run by the kselftest framework
# (tools/ksft-intree-check.sh).
.PHONY: ksft-intree-check
ksft-intree-check:
	@B=$(B) SRCTOP=$(SRCTOP) $(SRCTOP)/tools/ksft-intree-check.sh
CHECK_STEPS += ksft-intree-check
