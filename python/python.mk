# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The Python module vpux (python/, Documentation/python.rst): a package
# of vpux/__init__.py and two C extensions, built for Debian's python3
# (python3-dev):
#   vpux/_vpux      the core over libvpux.so.1 (devices, networks,
#                   requests; numpy arrays through the buffer protocol)
#   vpux/_compiler  vpux.compile(): the ONNX compiler linked in (PIC
#                   objects of compiler/ and the libvpux objects it uses),
#                   only PyInit__compiler exported
# The package is laid out in $(PY_PKG) for the tests (PYTHONPATH=$(B)/python)
# and installed by `make install` into Debian's dist-packages.
# Included by the top-level Makefile after tools/install.mk.

PYTHON3 ?= /usr/bin/python3
PY_INCLUDE := $(shell $(PYTHON3) -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
PY_EXT := $(shell $(PYTHON3) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))' 2>/dev/null)
PY_VER := $(shell $(PYTHON3) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
# Debian's: /usr/lib/python3/dist-packages for the distribution's
# packages, /usr/local/lib/python3.N/dist-packages for a local install
PYTHON_DIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_VER)/dist-packages)

PY_PKG := $(B)/python/vpux
PY_CORE := $(PY_PKG)/_vpux$(PY_EXT)
PY_COMPILER := $(PY_PKG)/_compiler$(PY_EXT)
PY_INIT := $(PY_PKG)/__init__.py
PY_BUILT := $(PY_INIT) $(PY_CORE) $(PY_COMPILER)
# extensions: our warning policy, the distribution's flags, no sanitizers
# (the interpreter is not built with them)
PY_CFLAGS := $(HOST_CFLAGS) $(DIST_CFLAGS) -fPIC -fvisibility=hidden \
	-I$(PY_INCLUDE) -I$(SRCTOP)/umd/include

.PHONY: python python-check install-python uninstall-python
python: $(PY_BUILT)
HOST_PROGS += $(PY_BUILT)

$(PY_INIT): $(SRCTOP)/python/vpux/__init__.py
	@mkdir -p $(dir $@)
	sed 's|@VERSION@|$(VERSION)|' $< >$@

$(PY_CORE): $(SRCTOP)/python/vpux_module.c $(SRCTOP)/umd/include/vpux.h $(UMD_SO)
	@mkdir -p $(dir $@)
	$(CC) $(PY_CFLAGS) $(DIST_LDFLAGS) -shared -o $@ $< \
		-L$(B)/umd -l:libvpux.so.1

# the compiler's objects as PIC (the fast ones are not)
PY_COMPILER_OBJS := \
	$(patsubst $(SRCTOP)/%.c,$(B)/compiler/pic/%.o,$(COMPILER_SRCS)) \
	$(B)/compiler/pic/onnx.pb-c.o

$(B)/compiler/pic/onnx.pb-c.o: $(COMPILER_PB_C)
	@mkdir -p $(dir $@)
	$(CC) $(PB_CFLAGS) $(DIST_CFLAGS) -fPIC -c -o $@ $<

$(B)/compiler/pic/%.o: $(SRCTOP)/%.c $(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(DIST_CFLAGS) -fPIC $(COMPILER_CFLAGS) -c -o $@ $<

$(B)/python/compiler.map:
	@mkdir -p $(dir $@)
	printf '{ global: PyInit__compiler; local: *; };\n' >$@

# the libvpux objects as an archive: only what the compiler uses is linked
$(B)/python/libvpux-pic.a: $(UMD_PIC_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(PY_COMPILER): $(SRCTOP)/python/compiler_module.c $(PY_COMPILER_OBJS) \
		$(B)/python/libvpux-pic.a $(B)/python/compiler.map $(COMPILER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(PY_CFLAGS) $(COMPILER_CFLAGS) $(DIST_LDFLAGS) -shared \
		-Wl,--version-script=$(B)/python/compiler.map -o $@ $< \
		$(PY_COMPILER_OBJS) $(B)/python/libvpux-pic.a $(COMPILER_LIBS)

# ---- tests: python/tests (pytest), in process ----
# Their data (python/tests/mkref.py): the Fashion-MNIST float model
# compiled, 16 test images with onnxruntime's classes and, where node and
# onnxruntime-node are (tools/ort), its logits; the models the compile
# tests take; a network with a symbol.
PY_TEST_DATA := $(B)/python/data
PY_ENV = PYTHONPATH=$(B)/python LD_LIBRARY_PATH=$(B)/umd
PY_PYTEST = cd $(SRCTOP)/python/tests && $(PY_ENV) VPUX_SRCTOP=$(SRCTOP) \
	VPUX_TEST_DATA=$(PY_TEST_DATA) $(PYTHON3) -B -m pytest -p no:cacheprovider

$(PY_TEST_DATA)/fashion_ref.npz: $(SRCTOP)/python/tests/mkref.py $(PY_BUILT) \
		$(B)/examples/dyn_mlp.vpux $(SRCTOP)/compiler/models/fashion/fashion_float.onnx
	@rm -rf $(PY_TEST_DATA)
	@$(PY_ENV) $(PYTHON3) -B $< $(PY_TEST_DATA) $(SRCTOP) $(B)/examples/dyn_mlp.vpux

python-check: $(PY_BUILT) $(PY_TEST_DATA)/fashion_ref.npz
	@$(PY_PYTEST) -q
CHECK_STEPS += python-check

# ---- the same suite in the VM, through /dev/accel/accel0 ----
# The guest has no Python: python/tests/vmroot.py lays out the
# interpreter, the modules the suite loads and their libraries as the data
# directory /vpux/data/pyvpux (tools/vm/tests.list: python-vpux).
PY_VM_ROOT := $(B)/python/vm/pyvpux
$(PY_VM_ROOT)/run.sh: $(SRCTOP)/python/tests/vmroot.py \
		$(SRCTOP)/python/tests/test_vpux.py $(SRCTOP)/python/tests/conftest.py \
		$(PY_TEST_DATA)/fashion_ref.npz $(PY_BUILT)
	@cd $(SRCTOP)/python/tests && $(PY_ENV) $(PYTHON3) -B $< $(PY_VM_ROOT) \
		$(PY_TEST_DATA) >$(B)/python/vmroot.log || { cat $(B)/python/vmroot.log; exit 1; }
	@tail -n 1 $(B)/python/vmroot.log
VM_DATA_DIRS += $(PY_VM_ROOT)
vm-check check-debug: $(PY_VM_ROOT)/run.sh

# ---- install (make install) ----
install: install-python
uninstall: uninstall-python

install-python: $(PY_BUILT)
	install -d $(DESTDIR)$(PYTHON_DIR)/vpux
	install -m 644 $(PY_INIT) $(DESTDIR)$(PYTHON_DIR)/vpux/__init__.py
	install -m 644 $(PY_CORE) $(PY_COMPILER) $(DESTDIR)$(PYTHON_DIR)/vpux/

uninstall-python:
	rm -f $(DESTDIR)$(PYTHON_DIR)/vpux/__init__.py \
		$(DESTDIR)$(PYTHON_DIR)/vpux/$(notdir $(PY_CORE)) \
		$(DESTDIR)$(PYTHON_DIR)/vpux/$(notdir $(PY_COMPILER))
	rm -rf $(DESTDIR)$(PYTHON_DIR)/vpux/__pycache__
	-rmdir $(DESTDIR)$(PYTHON_DIR)/vpux 2>/dev/null
