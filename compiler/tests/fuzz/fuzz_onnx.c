// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harnesses of the ONNX compiler's inputs.
 *
 * fuzz-onnx (default): bytes as an ONNX ModelProto through
 * vpuxc_import_mem() and, when the import succeeds and the graph's inputs
 * and outputs are of bounded size, vpuxc_compile(); a compiled loadable
 * is read back by vpuxc_io_read() (the .vpux.io/.vpux.ioq it wrote). A
 * model the NPU cannot run whole goes through vpuxc_partition(), and
 * each loadable of its recipe is read back the same way. A model with
 * dim_params compiles with each bounded to 1..FUZZ_SYM_MAX (a plan).
 * Seeds: libonnx-testdata's node models (make fuzz-onnx).
 *
 * fuzz-tensor (-DFUZZ_TENSOR): bytes as a TensorProto through
 * vpuxc_tensor_parse_pb(). Seeds: the node tests' input_K.pb. Bytes that
 * start as an ELF file are a custom kernel (--kernels DIR) instead: its
 * image and .vpux.params declaration through vc_kdecl_parse(). Seeds:
 * the kernels built with the SDK (examples/kernels, compiler/tests/kernels).
 *
 * Every input must be refused cleanly or accepted; ASan/UBSan and the
 * fuzzer's leak check catch the rest.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "vpux.h"
#include "vpux_compiler.h"

#define MAX_INPUT	(256u << 10)	/* bytes */
#define MAX_ELEMS	(1u << 20)	/* per graph input/output */
#define FUZZ_SYM_MAX	4		/* the max of every dim_param */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef FUZZ_TENSOR
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vpuxc_tensor t;
	struct vc_kdecl d;
	unsigned int i;

	if (size > MAX_INPUT)
		return 0;
	if (size >= 4 && !memcmp(data, "\177ELF", 4)) {
		if (vc_kdecl_parse(data, size, "fuzz.elf", &d))
			return 0;
		/* what the compiler relies on after a successful parse */
		for (i = 0; i < d.h.n_params; i++)
			if (d.p[i].offset + 4ull * d.p[i].count > d.h.params_size ||
			    !d.p[i].name[0] ||
			    d.p[i].name[VPUX_KPARAM_NAME_LEN - 1])
				abort();
		if (d.h.n_params > VPUX_KPARAMS_MAX ||
		    d.h.n_inputs + d.h.n_outputs > VPUX_KPARAMS_MAX_TENSORS)
			abort();
		return 0;
	}
	if (!vpuxc_tensor_parse_pb(data, size, &t)) {
		if (t.size != vpuxc_tensor_count(&t) * vpuxc_dtype_size(t.dtype))
			abort();	/* the reader's own invariant */
		vpuxc_tensor_fini(&t);
	}
	return 0;
}
#else
/* every graph input and output declared with at most MAX_ELEMS elements */
static int bounded(const struct vpuxc_model *m)
{
	unsigned int i, k, n[2] = { vpuxc_model_num_inputs(m),
				    vpuxc_model_num_outputs(m) };

	for (k = 0; k < 2; k++)
		for (i = 0; i < n[k]; i++) {
			struct vpuxc_tensor d;
			uint64_t e = 1;
			uint32_t j;

			if (k ? vpuxc_model_output(m, i, &d) :
				vpuxc_model_input(m, i, &d))
				return 0;
			for (j = 0; j < d.rank && j < VPUXC_MAX_RANK; j++) {
				int64_t v = d.dims[j] < 0 ? FUZZ_SYM_MAX : d.dims[j];

				if ((uint64_t)v > MAX_ELEMS)
					return 0;
				e *= (uint64_t)v;
				if (e > MAX_ELEMS)
					return 0;
			}
		}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vpuxc_model *m;
	struct vpuxc_options o = { .report = 1, .vasm = 1 };
	struct vpuxc_symbol_bounds b[16];
	struct vpuxc_result r;
	struct vpuxc_recipe rc;
	struct vpuxc_io_table io;
	unsigned int i;
	int ret;

	if (size > MAX_INPUT)
		return 0;
	if (vpuxc_import_mem(data, size, &m))
		return 0;
	for (i = 0; i < 16 && vpuxc_model_dim_param(m, i); i++) {
		b[i].name = vpuxc_model_dim_param(m, i);
		b[i].min = 1;
		b[i].max = FUZZ_SYM_MAX;
	}
	o.bounds = b;
	o.n_bounds = i;
	ret = bounded(m) ? vpuxc_compile(m, &o, &r) : -1;
	if (!ret) {
		if (vpuxc_io_read(r.loadable, r.size, &io))
			abort();	/* the compiler wrote a bad .vpux.io */
		vpuxc_io_fini(&io);
		vpuxc_result_fini(&r);
	} else if (ret == VPUX_E_UNSUPPORTED &&
		   !vpuxc_partition(m, &o, "", &rc)) {
		/* a recipe: every part's loadable reads back too */
		for (i = 0; i < rc.n_files; i++) {
			if (vpuxc_io_read(rc.files[i].data, rc.files[i].size, &io))
				abort();
			vpuxc_io_fini(&io);
		}
		if (!rc.json || rc.json[0] != '{')
			abort();
		vpuxc_recipe_fini(&rc);
	}
	vpuxc_model_free(m);
	return 0;
}
#endif
