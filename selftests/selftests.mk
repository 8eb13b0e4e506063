# kselftests: build them with kselftest_harness.h taken from Debian's
# linux-source-6.12 package at build time (never copied into the tree).

KSFT_SRC_TAR ?= $(firstword $(wildcard /usr/src/linux-source-6.12.tar.xz))
KSFT_DIR := $(B)/kselftest
KSFT_HDRS := $(KSFT_DIR)/kselftest_harness.h $(KSFT_DIR)/kselftest.h
SELFTEST_OUT := $(B)/selftests
SELFTEST_PROGS := $(addprefix $(SELFTEST_OUT)/,vpux_param_test vpux_reload_test vpux_bo_test \
	vpux_job_test vpux_stress_test vpux_fuzz vpux_soak vpux_faultinj vpux_queue_test \
	vpux_fence_test vpux_access_test vpux_headed_test vpux_coredump_test)
HOST_PROGS += $(SELFTEST_PROGS)

$(KSFT_HDRS) &:
	@test -n "$(KSFT_SRC_TAR)" || { echo "linux-source-6.12 missing: run make deps" >&2; exit 1; }
	@mkdir -p $(KSFT_DIR)
	tar -xJf $(KSFT_SRC_TAR) -C $(KSFT_DIR) --strip-components=4 \
		linux-source-6.12/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.12/tools/testing/selftests/kselftest.h
	@touch $(KSFT_HDRS)

$(SELFTEST_PROGS) &: $(KSFT_HDRS) $(wildcard selftests/*.c selftests/*.h) \
		uapi/drm/vpux_accel.h selftests/Makefile \
		$(wildcard firmware/include/*.h) $(HW_HDRS) firmware/tests/task_builder.h
	@mkdir -p $(SELFTEST_OUT)
	$(MAKE) -C selftests KSFT_DIR=$(KSFT_DIR) UAPI_DIR=$(SRCTOP)/uapi \
		FW_DIR=$(SRCTOP)/firmware OUTPUT=$(SELFTEST_OUT) all

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
