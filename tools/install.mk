# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# make install / uninstall (Documentation/install.rst). Included by the
# top-level Makefile after umd/, tools/ and the man pages.
#
#   make install [DESTDIR=...] [PREFIX=/usr/local] [LIBDIR=...] ...
#
# installs libvpux (libvpux.so.VERSION, the soname link libvpux.so.1, the
# development link libvpux.so, libvpux.a, vpux.h, vpux_cpu.h, vpux.pc),
# the CPU library of run recipes (CPU_LIBDIR/libvpux-cpuops.so), the tools of
# $(VPUX_TOOLS), the man pages, the udev rule and the module's source for
# DKMS; `make uninstall` with the same variables removes exactly those
# files (and the directories of vpux's own that it leaves empty).

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
# udev reads /usr/local/lib/udev/rules.d as well as /usr/lib/udev/rules.d
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# dkms(8) finds module sources only in /usr/src, whatever the PREFIX
DKMS_SRCDIR ?= /usr/src/vpux-$(VERSION)

SONAME_MAJOR := 1
UMD_REALNAME := libvpux.so.$(VERSION)

# The module's source: what ./Kbuild compiles, nothing of user space's.
DKMS_FILES := Kbuild Kconfig dkms.conf $(sort $(patsubst $(SRCTOP)/%,%,$(wildcard \
	$(SRCTOP)/kmd/*.[ch] $(SRCTOP)/firmware/*.[ch] $(SRCTOP)/firmware/include/*.h \
	$(SRCTOP)/portability/linux/*.[ch] $(SRCTOP)/sim/*.[ch] $(SRCTOP)/sim/include/*.h \
	$(SRCTOP)/sim/linux/*.[ch] $(SRCTOP)/sim/ops/*.[ch] $(SRCTOP)/ref/*.[ch] \
	$(SRCTOP)/include/*.h $(SRCTOP)/include/hw/*.h $(SRCTOP)/uapi/drm/*.h \
	$(SRCTOP)/uapi/vpux/*.h)))

# the sections install-man installs (the Debian packages split them)
MAN_SECTIONS ?= 1 3 7
MAN_SELECTED = $(foreach p,$(MAN_PAGES) $(MAN_LINK_PAGES),\
	$(if $(filter $(subst .,,$(suffix $(p))),$(MAN_SECTIONS)),$(p)))
MAN_INSTALLED = $(foreach p,$(MAN_SELECTED),\
	$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))

.PHONY: install install-lib install-dev install-tools install-man \
	install-udev install-dkms install-dkms-tree uninstall install-check \
	dist-userspace print-version

# what the install targets need, and nothing else (debian/rules)
dist-userspace: $(UMD_SO) $(UMD_A) $(CPUOPS_SO) $(VPUX_TOOL_BINS) $(MAN_PAGES) \
	$(MAN_LINK_PAGES)

print-version:
	@echo $(VERSION)

install: install-lib install-dev install-tools install-man install-udev \
	install-dkms

install-lib: $(UMD_SO) $(CPUOPS_SO)
	install -d $(DESTDIR)$(LIBDIR)
	install -m 644 $(UMD_SO) $(DESTDIR)$(LIBDIR)/$(UMD_REALNAME)
	ln -sf $(UMD_REALNAME) $(DESTDIR)$(LIBDIR)/libvpux.so.$(SONAME_MAJOR)
	install -d $(DESTDIR)$(CPU_LIBDIR)
	install -m 644 $(CPUOPS_SO) $(DESTDIR)$(CPU_LIBDIR)/libvpux-cpuops.so

install-dev: $(UMD_A) $(SRCTOP)/umd/vpux.pc.in install-kernel-sdk
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	ln -sf libvpux.so.$(SONAME_MAJOR) $(DESTDIR)$(LIBDIR)/libvpux.so
	install -m 644 $(UMD_A) $(DESTDIR)$(LIBDIR)/libvpux.a
	install -m 644 $(SRCTOP)/umd/include/vpux.h $(DESTDIR)$(INCLUDEDIR)/vpux.h
	install -m 644 $(SRCTOP)/umd/include/vpux_cpu.h $(DESTDIR)$(INCLUDEDIR)/vpux_cpu.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		-e 's|@KERNELDIR@|$(KERNELDIR)|' $(SRCTOP)/umd/vpux.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/vpux.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/vpux.pc

install-tools: $(VPUX_TOOL_BINS)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(VPUX_TOOL_BINS) $(DESTDIR)$(BINDIR)/

install-man: $(MAN_PAGES) $(MAN_LINK_PAGES)
	@set -e; for p in $(MAN_SELECTED); do \
		s=$${p##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
		echo "install -m 644 $$p $(DESTDIR)$(MANDIR)/man$$s/"; \
		install -m 644 $$p $(DESTDIR)$(MANDIR)/man$$s/; done

install-udev:
	install -d $(DESTDIR)$(UDEVRULESDIR)
	install -m 644 $(SRCTOP)/tools/udev/60-vpux.rules $(DESTDIR)$(UDEVRULESDIR)/

# the module's source as dkms(8) wants it: dkms.conf at the top, the
# version filled in (dh_dkms -V does the same for the Debian package)
install-dkms: install-dkms-tree
	sed 's/#MODULE_VERSION#/$(VERSION)/' $(SRCTOP)/dkms.conf \
		>$(DESTDIR)$(DKMS_SRCDIR)/dkms.conf
	chmod 644 $(DESTDIR)$(DKMS_SRCDIR)/dkms.conf
	@echo "install-dkms: $(words $(DKMS_FILES)) files in $(DESTDIR)$(DKMS_SRCDIR)"

# the source without dkms.conf (which dh_dkms installs in the package)
install-dkms-tree:
	@set -e; for f in $(filter-out dkms.conf,$(DKMS_FILES)); do \
		install -D -m 644 $(SRCTOP)/$$f $(DESTDIR)$(DKMS_SRCDIR)/$$f; done

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(UMD_REALNAME) \
		$(DESTDIR)$(LIBDIR)/libvpux.so.$(SONAME_MAJOR) \
		$(DESTDIR)$(LIBDIR)/libvpux.so $(DESTDIR)$(LIBDIR)/libvpux.a \
		$(DESTDIR)$(INCLUDEDIR)/vpux.h $(DESTDIR)$(INCLUDEDIR)/vpux_cpu.h \
		$(DESTDIR)$(PKGCONFIGDIR)/vpux.pc \
		$(DESTDIR)$(CPU_LIBDIR)/libvpux-cpuops.so \
		$(addprefix $(DESTDIR)$(BINDIR)/,$(VPUX_TOOLS)) \
		$(addprefix $(DESTDIR),$(MAN_INSTALLED)) \
		$(DESTDIR)$(UDEVRULESDIR)/60-vpux.rules \
		$(addprefix $(DESTDIR),$(KERNEL_SDK_INSTALLED))
	-rmdir $(DESTDIR)$(CPU_LIBDIR) 2>/dev/null
	-rmdir $(DESTDIR)$(KERNELDIR)/include $(DESTDIR)$(KERNELDIR) \
		$(DESTDIR)$(dir $(KERNELDIR)) 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(DKMS_SRCDIR)/,$(DKMS_FILES))
	-find $(DESTDIR)$(DKMS_SRCDIR) -depth -type d -empty -delete 2>/dev/null

# install into a scratch DESTDIR, check every file and what it says, use
# it (pkg-config, a program linked against it, the tools from there),
# then uninstall and check that exactly vpux's files went
install-check: $(UMD_SO) $(UMD_A) $(VPUX_TOOL_BINS) $(MAN_PAGES) \
		$(MAN_LINK_PAGES) $(B)/examples/tiny_cnn.vpux $(CPUOPS_SO) \
		$(RECIPE_BUILT)
	@VERSION=$(VERSION) VPUX_TOOLS="$(VPUX_TOOLS)" B=$(B) \
		KERNEL_SDK_FILES="$(notdir $(KERNEL_SDK_HDRS))" \
		MAN_PAGES="$(notdir $(MAN_PAGES) $(MAN_LINK_PAGES))" \
		DKMS_FILES="$(DKMS_FILES)" \
		$(SRCTOP)/tools/tests/install_check.sh
CHECK_STEPS += install-check

# The module through Debian's dkms against the 6.12 headers: add, build,
# install, remove, in private trees (tools/dkms-check.sh). Not in make
# check: the build is a second full module build (about a minute).
.PHONY: dkms-check
dkms-check:
	@VERSION=$(VERSION) B=$(B) MAKE="$(MAKE)" $(SRCTOP)/tools/dkms-check.sh $(KVER) $(KDIR)

# The Debian packages (tools/deb-build.sh, debian/): built from a copy of
# the sources with dpkg-buildpackage, then lintian.
.PHONY: deb
deb:
	@VERSION=$(VERSION) B=$(B) SRCTOP=$(SRCTOP) $(SRCTOP)/tools/deb-build.sh

# The built packages installed with dpkg into a scratch root and used
# there (tools/deb-install-check.sh), then in the VM: the tools from
# /usr/bin on the real module, udev applying 60-vpux.rules
# (tools/vm/pkg-check.sh). make check runs deb and deb-check.
.PHONY: deb-install-check deb-vm-check deb-check
deb-install-check: $(B)/examples/tiny_cnn.vpux
	@VERSION=$(VERSION) B=$(B) $(SRCTOP)/tools/deb-install-check.sh

deb-vm-check: module firmware-image $(B)/examples/tiny_cnn.vpux
	@$(VM_ENV) VPUX_ROOTFS=$(B)/deb/root VPUX_BINS="$(SRCTOP)/tools/vm/pkg-check.sh \
		$(SRCTOP)/tools/vm/tap-lib.sh $(B)/examples/tiny_cnn.vpux" \
		tools/vm/vm-suite.sh pkg $(B)/vm-pkg tools/vm/tests-pkg.list

deb-check: deb
	@$(MAKE) -s deb-install-check
	@$(MAKE) -s deb-vm-check

# One release number: the Makefile's VERSION is debian/changelog's
# upstream version, and its major is libvpux's soname.
.PHONY: version-check
version-check:
	@deb=$$(dpkg-parsechangelog -l $(SRCTOP)/debian/changelog -SVersion | sed 's/-[^-]*$$//'); \
	[ "$$deb" = "$(VERSION)" ] || { echo "version-check: debian/changelog says $$deb, the Makefile $(VERSION)"; exit 1; }; \
	[ "$(firstword $(subst ., ,$(VERSION)))" = "$(SONAME_MAJOR)" ] || \
		{ echo "version-check: VERSION $(VERSION) but soname libvpux.so.$(SONAME_MAJOR)"; exit 1; }; \
	echo "version-check: $(VERSION) in the Makefile, debian/changelog and the soname"
CHECK_STEPS += version-check
