# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Man pages: reST sources Documentation/man/NAME.SECTION.rst, turned into
# roff by rst2man (python3-docutils) as $(B)/man/NAME.SECTION. Section 1
# has a page per tool of $(VPUX_TOOLS), section 3 libvpux's main calls,
# section 7 the overview. Included by the top-level Makefile.

RST2MAN ?= rst2man
MAN_SRCS := $(wildcard $(SRCTOP)/Documentation/man/*.rst)
MAN_PAGES := $(patsubst $(SRCTOP)/Documentation/man/%.rst,$(B)/man/%,$(MAN_SRCS))
# Further names of the calls a section 3 page describes: NAME.3 holds
# ".so man3/PAGE.3" (man-db follows it). NAME:PAGE pairs.
MAN_LINKS := \
	vpux_device_close:vpux_device_open vpux_device_query:vpux_device_open \
	vpux_buffer_alloc:vpux_device_open vpux_buffer_free:vpux_device_open \
	vpux_buffer_map:vpux_device_open \
	vpux_network_load_file:vpux_network_load \
	vpux_network_unload:vpux_network_load \
	vpux_network_input:vpux_network_load vpux_network_output:vpux_network_load \
	vpux_network_query:vpux_network_load \
	vpux_network_run_reference:vpux_network_load \
	vpux_request_destroy:vpux_request_create \
	vpux_request_bind_input:vpux_request_create \
	vpux_request_bind_output:vpux_request_create \
	vpux_request_submit:vpux_request_create \
	vpux_request_wait:vpux_request_create \
	vpux_request_status:vpux_request_create \
	vpux_request_error:vpux_request_create \
	vpux_error_category_name:vpux_request_create \
	vpux_runner_destroy:vpux_runner_create \
	vpux_runner_bind_input:vpux_runner_create \
	vpux_runner_bind_output:vpux_runner_create \
	vpux_runner_execute:vpux_runner_create \
	vpux_runner_wait:vpux_runner_create \
	vpux_runner_create_from_memory:vpux_runner_create \
	vpux_network_symbol:vpux_request_set_symbol \
	vpux_network_dim_symbol:vpux_request_set_symbol \
	vpux_request_set_input_shape:vpux_request_set_symbol \
	vpux_request_output_shape:vpux_request_set_symbol \
	vpux_request_run_reference:vpux_request_set_symbol \
	vpux_request_reference_output_shape:vpux_request_set_symbol \
	vpux_request_write_input:vpux_network_io_info \
	vpux_request_read_output:vpux_network_io_info \
	vpux_network_io_name:vpux_network_io_info \
	vpux_network_find_input:vpux_network_io_info \
	vpux_network_find_output:vpux_network_io_info \
	vpux_request_set_input_desc:vpux_network_io_info \
	vpux_version:vpux_device_count vpux_device_name:vpux_device_count \
	vpux_device_open_index:vpux_device_count \
	vpux_device_get_props:vpux_device_count \
	vpux_buffer_flags:vpux_buffer_alloc_ex \
	vpux_buffer_sync:vpux_buffer_alloc_ex \
	vpux_buffer_export:vpux_buffer_alloc_ex \
	vpux_buffer_import:vpux_buffer_alloc_ex \
	vpux_request_submit_many:vpux_request_poll_fd
MAN_LINK_PAGES := $(foreach l,$(MAN_LINKS),$(B)/man/$(firstword $(subst :, ,$(l))).3)

HOST_PROGS += $(MAN_PAGES) $(MAN_LINK_PAGES)

# --halt=warning: a reST mistake fails the build
$(B)/man/%: $(SRCTOP)/Documentation/man/%.rst
	@mkdir -p $(dir $@)
	$(RST2MAN) --halt=warning $< $@.tmp
	sed -i 's/^\.TH \(.*\) "" ""/.TH \1 "" "vpux $(VERSION)"/' $@.tmp
	mv $@.tmp $@

$(MAN_LINK_PAGES): $(SRCTOP)/Documentation/man/man.mk
	@mkdir -p $(dir $@)
	@for l in $(MAN_LINKS); do \
		echo ".so man3/$${l#*:}.3" >$(B)/man/$${l%%:*}.3; done

# Every page renders without a warning of man/groff, every tool has its
# section 1 page, every .so target exists.
.PHONY: man man-check
man: $(MAN_PAGES) $(MAN_LINK_PAGES)

man-check: man
	@set -e; for t in $(VPUX_TOOLS); do \
		test -f $(B)/man/$$t.1 || { echo "man-check: $$t has no page (Documentation/man/$$t.1.rst)"; exit 1; }; done; \
	for p in $(MAN_PAGES); do \
		w=$$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l $$p 2>&1 >/dev/null); \
		test -z "$$w" || { echo "man-check: $$p:"; echo "$$w"; exit 1; }; \
		LC_ALL=C.UTF-8 man -l $$p 2>/dev/null | grep -q '^EXIT STATUS\|^RETURN VALUE\|^DESCRIPTION' || \
			{ echo "man-check: $$p renders empty"; exit 1; }; \
	done; \
	for l in $(MAN_LINKS); do test -f $(B)/man/$${l#*:}.3 || \
		{ echo "man-check: $${l%%:*}.3 points at a missing page"; exit 1; }; done; \
	for t in $(VPUX_TOOLS); do grep -q '^EXIT STATUS' $(SRCTOP)/Documentation/man/$$t.1.rst || \
		{ echo "man-check: $$t.1 documents no exit status"; exit 1; }; done; \
	echo "man: $(words $(MAN_PAGES)) pages and $(words $(MAN_LINKS)) links render without a warning; every tool has one"
CHECK_STEPS += man-check
