# The VM rig: the kernel module's tests run inside Debian's 6.12 kernel
# under QEMU (tools/vm/vm-run.sh). Included by the top-level Makefile.

VM_TESTS := tools/vm/tests.list
VM_BINS = $(SELFTEST_PROGS) $(VPUX_INFO) $(SRCTOP)/tools/vm/tap-cmd.sh $(VM_EXTRA_BINS)
VM_OUT := $(B)/vm
VM_ENV = KVER=$(KVER) VPUX_KO=$(SRCTOP)/vpux_accel.ko VPUX_BINS="$(VM_BINS)"

# Run the VM suite; per-command TAP in $(VM_OUT), counts into the summary.
vm-check: module $(VM_BINS)
	@$(VM_ENV) tools/vm/vm-run.sh test $(VM_OUT) $(VM_TESTS); \
	rc=$$?; RESULTS=$${RESULTS:-$(B)/results}; mkdir -p $$RESULTS; \
	tp=0; tf=0; ts=0; \
	names="$$(sed -e '/^#/d' -e '/^$$/d' -e 's/[ \t].*//' $(VM_TESTS)) vm-rig"; \
	for n in $$names; do \
		log=$(VM_OUT)/$$n.tap; [ -f $$log ] || : >$$log; \
		st=$$(cat $(VM_OUT)/$$n.rc 2>/dev/null || echo 0); \
		[ $$n = vm-rig ] && st=0; \
		set -- $$(tools/tap-count.sh $$log $$st $$n); \
		printf '%-8s %-36s %4d passed, %d failed, %d skipped\n' vm $$n $$1 $$2 $$3; \
		[ $$2 -eq 0 ] || grep -E '^not ok|^# ' $$log | head -20 | sed 's/^/    /'; \
		tp=$$((tp + $$1)); tf=$$((tf + $$2)); ts=$$((ts + $$3)); \
	done; \
	echo "vm $$tp $$tf $$ts" >>$$RESULTS/summary; \
	echo "vm: kernel log in $(VM_OUT)/dmesg.log, console in $(VM_OUT)/console.log"; \
	[ $$rc -eq 0 ] && [ $$tf -eq 0 ]

# The main job for now: boot, load the module, print the device table.
demo: deps
	@$(MAKE) -s module userspace >/dev/null
	@$(VM_ENV) tools/vm/vm-run.sh demo $(B)/demo vpux-info

# Interactive: a shell in the VM with the module loaded.
vm-shell: module $(VM_BINS)
	@$(VM_ENV) tools/vm/vm-run.sh shell
