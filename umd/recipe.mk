# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Run recipes (Documentation/run-recipes.rst): the example recipes next
# to the example loadables they name, the test CPU libraries, the JSON
# Schema check of every recipe, the recipe parser's fuzzer and the VM
# data. Included by the top-level Makefile after umd/ and umd/cpuops/.

RECIPE_SCHEMA := $(SRCTOP)/Documentation/run-recipes.schema.json
RECIPE_SRCS := $(wildcard $(SRCTOP)/examples/recipes/*.json)
# the recipes of the tests that must load (the bad ones live in the tests)
RECIPE_TEST_SRCS := $(wildcard $(SRCTOP)/umd/tests/fuzz/recipe-corpus/*.json)
# a recipe's loadables are found relative to it: beside the examples'
RECIPE_BUILT := $(patsubst $(SRCTOP)/examples/recipes/%,$(B)/examples/recipes/%,$(RECIPE_SRCS))

$(B)/examples/recipes/%.json: $(SRCTOP)/examples/recipes/%.json
	@mkdir -p $(dir $@)
	sed 's|"loadable": "|"loadable": "../|' $< >$@

# the CPU library the runner's tests use, and one without library_init
RECIPE_TEST_DIR := $(B)/umd/tests/recipe
RECIPE_PLUGINS := $(RECIPE_TEST_DIR)/libvpux-testplugin.so \
	$(RECIPE_TEST_DIR)/libvpux-noinit.so

$(RECIPE_TEST_DIR)/libvpux-testplugin.so: $(SRCTOP)/umd/tests/recipe/plugin.c $(SRCTOP)/umd/include/vpux_cpu.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/umd/include -fPIC -shared -fvisibility=hidden \
		-Wl,-z,defs -o $@ $<

$(RECIPE_TEST_DIR)/libvpux-noinit.so: $(SRCTOP)/umd/tests/recipe/plugin.c $(SRCTOP)/umd/include/vpux_cpu.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -I$(SRCTOP)/umd/include -fPIC -shared -fvisibility=hidden \
		-DPLUGIN_NO_INIT -Wl,-z,defs -o $@ $<

# one DMA op copying 4 MiB: long enough (tens of ms in process) that a
# chained run started before it ends would read stale bytes
$(RECIPE_TEST_DIR)/copy_big.vpux: $(VPUX_ASM) $(SRCTOP)/umd/recipe.mk
	@mkdir -p $(dir $@)
	printf 'network copy_big\ninput x i8 4194304\noutput y i8 4194304\ndma src=x dst=y\n' \
		>$(RECIPE_TEST_DIR)/copy_big.vasm
	$(VPUX_ASM) -o $@ $(RECIPE_TEST_DIR)/copy_big.vasm

$(B)/umd/tests/test_recipe: $(CPUOPS_SO) $(RECIPE_PLUGINS) $(RECIPE_BUILT) \
	$(RECIPE_TEST_DIR)/copy_big.vpux $(B)/umd/fuzz/seeds/mlp_tokens.vpux
HOST_PROGS += $(RECIPE_BUILT)

# every recipe in the tree against the JSON Schema (python3-jsonschema)
.PHONY: recipe-schema-check
recipe-schema-check: $(RECIPE_SCHEMA) $(RECIPE_SRCS) $(RECIPE_TEST_SRCS)
	@/usr/bin/python3 $(SRCTOP)/tools/recipe-schema-check.py $(RECIPE_SCHEMA) \
		$(RECIPE_SRCS) $(RECIPE_TEST_SRCS)
CHECK_STEPS += recipe-schema-check

# ---- libFuzzer harness of the recipe parser (umd/runner/recipe.c) ----
RECIPE_FUZZ := $(B)/umd/fuzz/fuzz-recipe
RECIPE_FUZZ_SMOKE_TIME ?= 10

$(RECIPE_FUZZ): $(SRCTOP)/umd/tests/fuzz/fuzz_recipe.c $(SRCTOP)/umd/runner/recipe.c \
		$(SRCTOP)/umd/err.c $(UMD_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -D_GNU_SOURCE $(UMD_CFLAGS) -o $@ $< \
		$(SRCTOP)/umd/runner/recipe.c $(SRCTOP)/umd/err.c $(UMD_JSONC_LIBS)

.PHONY: fuzz-recipe fuzz-recipe-smoke
fuzz-recipe: $(RECIPE_FUZZ)
	@mkdir -p $(B)/umd/fuzz/corpus-recipe
	$(SAN_RUN) $(RECIPE_FUZZ) -max_total_time=$(UMD_FUZZ_TIME) -dict=$(SRCTOP)/umd/tests/fuzz/recipe.dict \
		$(B)/umd/fuzz/corpus-recipe $(SRCTOP)/umd/tests/fuzz/recipe-corpus \
		$(SRCTOP)/examples/recipes

fuzz-recipe-smoke: $(RECIPE_FUZZ)
	@rm -rf $(B)/umd/fuzz/recipe-smoke && mkdir -p $(B)/umd/fuzz/recipe-smoke
	$(SAN_RUN) $(RECIPE_FUZZ) -seed=1 -timeout=60 -max_total_time=$(RECIPE_FUZZ_SMOKE_TIME) \
		-dict=$(SRCTOP)/umd/tests/fuzz/recipe.dict $(B)/umd/fuzz/recipe-smoke \
		$(SRCTOP)/umd/tests/fuzz/recipe-corpus $(SRCTOP)/examples/recipes
CHECK_STEPS += fuzz-recipe-smoke

# vpux-run --recipe in the tools test: the example recipe and the library
$(UMD_TOOLS_TEST): $(CPUOPS_SO) $(RECIPE_BUILT)

# ---- the example recipe through /dev/accel in the VM (tools/vm/tests.list) ----
# /vpux/data/recipe: the recipe beside its loadable, the CPU library, an
# input and the output the in-process device gives for it (checked
# against the CPU reference here), which the VM's run must reproduce.
RECIPE_VM_DIR := $(B)/vm-data/recipe
RECIPE_VM_STAMP := $(RECIPE_VM_DIR)/.stamp

$(RECIPE_VM_STAMP): $(SRCTOP)/examples/recipes/halves.json \
		$(B)/examples/half_sigmoid.vpux $(CPUOPS_SO) $(VPUX_RUN)
	@rm -rf $(RECIPE_VM_DIR) && mkdir -p $(RECIPE_VM_DIR)
	cp $(SRCTOP)/examples/recipes/halves.json $(B)/examples/half_sigmoid.vpux \
		$(CPUOPS_SO) $(RECIPE_VM_DIR)/
	/usr/bin/python3 -c "import struct; open('$(RECIPE_VM_DIR)/ifm.bin', 'wb').write(struct.pack('<256f', *[((i * 97) % 331 - 165) / 20 for i in range(256)]))"
	VPUX_CPU_LIBRARY_PATH=$(RECIPE_VM_DIR) $(VPUX_RUN) --check \
		--recipe $(RECIPE_VM_DIR)/halves.json --input ifm=$(RECIPE_VM_DIR)/ifm.bin \
		--output ofm=$(RECIPE_VM_DIR)/ofm.inproc.bin >/dev/null
	touch $@

VM_DATA_DIRS += $(RECIPE_VM_DIR)
vm-check check-debug: $(RECIPE_VM_STAMP)

# ---- benchmark: the runner in process (make bench) ----
RECIPE_BENCH := $(B)/umd/bench/recipe-bench
BENCH_PROGS += $(RECIPE_BENCH)

$(RECIPE_BENCH): $(SRCTOP)/umd/tests/bench/recipe_bench.c $(UMD_A) \
		$(SRCTOP)/umd/include/vpux.h $(CPUOPS_SO) $(RECIPE_BUILT) \
		$(B)/examples/half_sigmoid.vpux
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(DIST_LDFLAGS) -DBUILDDIR='"$(B)"' -o $@ $< \
		$(UMD_A) $(UMD_LIBS)

# ---- the runner's test under ThreadSanitizer: its execution thread, two
# runners on one device from two threads ----
RECIPE_TSAN := $(B)/umd/tsan/test_recipe

$(RECIPE_TSAN): $(SRCTOP)/umd/tests/test_recipe.c $(UMD_ALL_SRCS) $(UMD_HDRS) \
		$(SIM_HOST_OBJS_TSAN) $(CPUOPS_SO) $(RECIPE_PLUGINS) $(RECIPE_BUILT) \
		$(RECIPE_TEST_DIR)/copy_big.vpux $(EXAMPLE_BLOBS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread \
		-I$(SRCTOP)/include $(UMD_CFLAGS) -DBUILDDIR='"$(B)"' -o $@ $< \
		$(UMD_ALL_SRCS) $(SIM_HOST_OBJS_TSAN) $(UMD_LIBS)

.PHONY: recipe-tsan
recipe-tsan: $(RECIPE_TSAN)
	@TSAN_OPTIONS=halt_on_error=1 $(SAN_RUN) $(RECIPE_TSAN) >$(B)/umd/tsan/recipe.log 2>&1 || \
		{ tail -40 $(B)/umd/tsan/recipe.log; exit 1; }
	@echo "umd: run-recipe test race-free under ThreadSanitizer ($$(grep -c '^ok' $(B)/umd/tsan/recipe.log) points)"
CHECK_STEPS += recipe-tsan
