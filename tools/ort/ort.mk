# onnxruntime as the reference of the compiler's test models
# (Documentation/compiler-models.rst). Included by tools/tools.mk.

ORT_RUN := tools/ort/ort-run.js
ORT_MODELS := $(wildcard compiler/models/*/model.onnx)

.PHONY: ort-refs-check

# The committed references (compiler/models/*/test_data_set_N/output_K.pb)
# are what onnxruntime computes from the committed models and inputs:
# catches a model or an input changed without its references. Needs node
# and tools/ort/node_modules (make deps); skipped without them.
ort-refs-check:
	@if ! command -v node >/dev/null 2>&1 || \
	    [ ! -d tools/ort/node_modules/onnxruntime-node ]; then \
		echo "SKIP: no node or no tools/ort/node_modules/onnxruntime-node (make deps installs it where npm is)"; \
		exit 0; \
	fi; \
	fail=0; \
	for m in $(ORT_MODELS); do \
		node $(ORT_RUN) --compare $$m $$(dirname $$m) || fail=1; \
	done; \
	[ $$fail = 0 ] && echo "ort-refs-check: $(words $(ORT_MODELS)) models match onnxruntime"

CHECK_STEPS += ort-refs-check
