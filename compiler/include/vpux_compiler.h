/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vpux compiler: ONNX model -> loadable. The API the vpux-onnx command,
 * the tests and the fuzzer use. Internal to the tree (not installed):
 * libvpux's public API stays umd/include/vpux.h.
 *
 * Error convention as in libvpux: functions return 0 or a negative
 * VPUX_E_* code (umd/include/vpux.h) and leave a message for the calling
 * thread in vpux_last_error(), naming what was wrong (the node, the
 * tensor, the field).
 */
#ifndef VPUX_COMPILER_H
#define VPUX_COMPILER_H

#include <stddef.h>
#include <stdint.h>

/* ONNX TensorProto.DataType values the compiler and the tools handle */
enum vpuxc_dtype {
	VPUXC_FLOAT = 1,
	VPUXC_UINT8 = 2,
	VPUXC_INT8 = 3,
	VPUXC_INT32 = 6,
	VPUXC_INT64 = 7,
};

#define VPUXC_MAX_RANK 8
#define VPUXC_NAME_MAX 128

/**
 * struct vpuxc_tensor - a host tensor (ONNX layout, row-major, dense)
 * @name: ONNX name ("" if none)
 * @dtype: enum vpuxc_dtype
 * @rank: 0..VPUXC_MAX_RANK (0: a scalar)
 * @dims: sizes, outermost first
 * @data: elements, little endian, @size bytes (owned; vpuxc_tensor_fini()
 *        frees it)
 */
struct vpuxc_tensor {
	char name[VPUXC_NAME_MAX];
	int32_t dtype;
	uint32_t rank;
	int64_t dims[VPUXC_MAX_RANK];
	void *data;
	size_t size;
};

/* Bytes per element of @dtype, 0 if unsupported. */
size_t vpuxc_dtype_size(int32_t dtype);
const char *vpuxc_dtype_name(int32_t dtype);
/* Number of elements (product of dims; 1 for a scalar). */
size_t vpuxc_tensor_count(const struct vpuxc_tensor *t);
void vpuxc_tensor_fini(struct vpuxc_tensor *t);

/* TensorProto files (.pb, as the ONNX test layout stores them) and .npy */
int vpuxc_tensor_read_pb(const char *path, struct vpuxc_tensor *t);
int vpuxc_tensor_parse_pb(const void *data, size_t size,
			  struct vpuxc_tensor *t);
int vpuxc_tensor_write_pb(const char *path, const struct vpuxc_tensor *t);
int vpuxc_tensor_read_npy(const char *path, struct vpuxc_tensor *t);

/* An imported ONNX model (the graph IR). */
struct vpuxc_model;

int vpuxc_import_file(const char *path, struct vpuxc_model **out);
int vpuxc_import_mem(const void *data, size_t size, struct vpuxc_model **out);
void vpuxc_model_free(struct vpuxc_model *m);

/*
 * Graph inputs of the ONNX model (initializers excluded), in order, with
 * their declared element type and shape (a symbolic dim reads as -1).
 */
unsigned int vpuxc_model_num_inputs(const struct vpuxc_model *m);
int vpuxc_model_input(const struct vpuxc_model *m, unsigned int i,
		      struct vpuxc_tensor *desc);	/* desc->data NULL */
unsigned int vpuxc_model_num_outputs(const struct vpuxc_model *m);
int vpuxc_model_output(const struct vpuxc_model *m, unsigned int i,
		       struct vpuxc_tensor *desc);
/*
 * The name of the model's dim_param @i (0, 1, ...: in the order the
 * graph's inputs and outputs name them), or NULL past the last one.
 */
const char *vpuxc_model_dim_param(const struct vpuxc_model *m,
				  unsigned int i);
/*
 * 1 if graph input @name feeds only parameter operands that compiling
 * needs as constants (the ONNX node tests pass those as inputs): scales
 * and zero points of quantized nodes, Clip's bounds, shapes, axes, pads,
 * starts/ends/steps, sizes and scales, Gather's indices, and the weights
 * of Conv, ConvTranspose, Gemm, PRelu and the normalizations; else 0.
 */
int vpuxc_model_input_is_qparam(const struct vpuxc_model *m,
				const char *name);
/*
 * Turn graph input @t->name into a constant (an initializer) with @t's
 * value; the input disappears from the compiled network's inputs.
 */
int vpuxc_model_fold_input(struct vpuxc_model *m,
			   const struct vpuxc_tensor *t);

/**
 * struct vpuxc_symbol_bounds - the bounds of one ONNX dim_param
 * @name: the dim_param (for instance "tokens")
 * @min, @max: 1 <= @min <= @max <= 65535; buffers are laid out for @max
 */
struct vpuxc_symbol_bounds {
	const char *name;
	int64_t min, max;
};

/* Default tile of a dynamic axis (vpuxc_options.tile 0). */
#define VPUXC_DEFAULT_TILE 16u

/**
 * struct vpuxc_options - compile options
 * @report: fill vpuxc_result.report with the human-readable report
 * @name: network name in the loadable (default: the ONNX graph name)
 * @vasm: fill vpuxc_result.vasm with the program as vpux-asm text
 * @no_cmx: run every op from scratch memory (no CMX tiling)
 * @bounds: the bounds of every dim_param of the model's inputs and
 *          outputs, @n_bounds of them (Documentation/compiler.rst,
 *          "Dynamic axes"); a model with dim_params compiles to a plan
 * @tile: elements of a dynamic axis per tile (0: VPUXC_DEFAULT_TILE)
 * @no_cpu_fallback: vpuxc_partition() fails (VPUX_E_UNSUPPORTED) instead
 *          of running any node on the CPU, naming every such node
 * @cmx_tiles: CMX tiles the tiling may use, tiles 0 .. @cmx_tiles - 1
 *          (0: all VPUX_LF_CMX_TILES); at most half of them lets libvpux
 *          run requests of the network at once on disjoint tile sets
 *          (Documentation/libvpux.rst, "Pipelined requests")
 * @kernels: directory of custom kernels (--kernels DIR): a node of domain
 *          com.vpux that the compiler does not know runs the SHAVE ELF
 *          kernel DIR/OPTYPE.elf, checked against the parameter
 *          declaration it carries (Documentation/vpux-onnx.rst, "Custom
 *          kernels"); the model keeps the directory's kernels once read
 */
struct vpuxc_options {
	int report;
	const char *name;
	int vasm;
	int no_cmx;
	const struct vpuxc_symbol_bounds *bounds;
	unsigned int n_bounds;
	unsigned int tile;
	int no_cpu_fallback;
	unsigned int cmx_tiles;
	const char *kernels;
};

/*
 * Parse "NAME=MIN..MAX" into @b (@b->name points into @arg, which is
 * modified). Return: 0, or VPUX_E_INVAL with a message.
 */
int vpuxc_parse_symbol_bounds(char *arg, struct vpuxc_symbol_bounds *b);

/**
 * struct vpuxc_result - what vpuxc_compile() produced
 * @loadable: the loadable's bytes (malloc'ed)
 * @size: its size
 * @report: NUL-terminated report (malloc'ed; NULL unless requested): ops
 *          per engine, tiles, weight bytes, cycle estimate
 * @vasm: the program as vpux-asm text (malloc'ed; NULL unless requested;
 *        its weights are not in the text)
 */
struct vpuxc_result {
	void *loadable;
	size_t size;
	char *report;
	char *vasm;
};

/*
 * Compile @m. On failure, vpux_last_error() lists every unsupported node
 * (op type, node name, why), one per line.
 */
int vpuxc_compile(struct vpuxc_model *m, const struct vpuxc_options *o,
		  struct vpuxc_result *r);
void vpuxc_result_fini(struct vpuxc_result *r);

/*
 * Partitioning (Documentation/compiler.rst, "Models the NPU cannot run
 * whole"): when vpuxc_compile() reports VPUX_E_UNSUPPORTED, the model
 * can still become a run recipe (Documentation/run-recipes.rst): one NPU
 * loadable per maximal run of supported nodes, a CPU function of
 * libvpux-cpuops (Documentation/cpuops.rst) per other node, and
 * quantize/dequantize runs at each NPU/CPU boundary with the scales and
 * zero points of the QuantizeLinear/DequantizeLinear nodes at the cut.
 *
 * The recipe's buffers are named after the ONNX values; its graph inputs
 * and outputs are buffers of type input and output holding the ONNX
 * element type (float32 for a float tensor), row-major.
 */
struct vpuxc_recipe_file {
	char name[VPUXC_NAME_MAX + 32];	/* relative to the recipe */
	void *data;			/* a loadable or the weights (malloc'ed) */
	size_t size;
};

/**
 * struct vpuxc_recipe - what vpuxc_partition() produced
 * @json: the recipe (NUL-terminated JSON text, malloc'ed)
 * @files: the files it names, @n_files of them: the NPU loadables, then
 *         the CPU functions' weights ("<prefix>w0.bin") if there are any
 * @n_npu: NPU loadables
 * @n_cpu: nodes run by CPU functions
 * @weight_bytes: the size of the weights file (0: none)
 * @report: each node's placement (NPU part, or CPU and why), the counts,
 *          then the parts, one line each (NULL unless options->report)
 */
struct vpuxc_recipe {
	char *json;
	struct vpuxc_recipe_file *files;
	unsigned int n_files;
	unsigned int n_npu, n_cpu;
	size_t weight_bytes;
	char *report;
};

/*
 * Partition and compile @m. Loadables are named "<@prefix>npuN.vpuxl",
 * the CPU functions' weights "<@prefix>w0.bin". Where each node runs is
 * decided from capabilities (the op registry; the compile of the
 * quantized sections), then each NPU part is compiled once.
 * VPUX_E_UNSUPPORTED if a node runs neither on the NPU nor on the CPU,
 * or any node would leave the NPU with @o->no_cpu_fallback: the first
 * line of vpux_last_error() decides (which node and why), the lines after
 * it name every such node.
 */
int vpuxc_partition(struct vpuxc_model *m, const struct vpuxc_options *o,
		    const char *prefix, struct vpuxc_recipe *r);
/* @json_path, and the loadables in the same directory */
int vpuxc_recipe_write(const struct vpuxc_recipe *r, const char *json_path);
void vpuxc_recipe_fini(struct vpuxc_recipe *r);

/*
 * The ONNX view of a loadable's inputs and outputs, from its optional
 * ".vpux.io" section (written by vpuxc_compile()).
 *
 * Loadable input/output i has the ONNX name, element type and shape of
 * the graph's i-th input/output. The loadable tensor always holds the
 * 8-bit (or int32) quantized data in the ONNX (row-major, NCHW) layout;
 * when @onnx_dtype is VPUXC_FLOAT the host converts, exactly as ONNX's
 * QuantizeLinear/DequantizeLinear define it: an input is quantized
 * q = saturate(round_half_even(x / scale) + zp) and an output dequantized
 * x = (q - zp) * scale, with the ONNX scale and zero point recorded in
 * ".vpux.ioq" (per tensor, or per index along @axis). A float device
 * tensor (loadable 1.3: f16 or f32) is not quantized (@axis -1, @qcount
 * 0): a VPUXC_FLOAT value goes to f16 rounded to nearest even and comes
 * back exactly, to and from f32 as it is.
 */
struct vpuxc_io {
	char name[VPUXC_NAME_MAX];
	int32_t onnx_dtype;	/* enum vpuxc_dtype */
	int32_t dev_dtype;	/* VPUXC_UINT8, VPUXC_INT8, VPUXC_INT32; the
				 * float types: VPUXC_FLOAT (f32), 10 (ONNX's
				 * FLOAT16: f16) */
	uint32_t rank;
	int64_t dims[VPUXC_MAX_RANK];
	int32_t axis;		/* -1: per tensor */
	uint32_t qcount;	/* 0: no conversion; 1; or dims[axis] */
	double *scales;		/* qcount entries (owned by the table) */
	int32_t *zero_points;	/* qcount entries */
};

struct vpuxc_io_table {
	unsigned int n_inputs, n_outputs;
	struct vpuxc_io *inputs, *outputs;	/* malloc'ed */
};

int vpuxc_io_read(const void *loadable, size_t size,
		  struct vpuxc_io_table *io);
void vpuxc_io_fini(struct vpuxc_io_table *io);

/*
 * Host-side boundary conversion of one tensor between its ONNX form
 * (@onnx: dtype io->onnx_dtype) and the device form (@dev: raw bytes of
 * io->dev_dtype elements), per struct vpuxc_io.
 */
int vpuxc_io_to_device(const struct vpuxc_io *io,
		       const struct vpuxc_tensor *onnx, void *dev, size_t size);
int vpuxc_io_from_device(const struct vpuxc_io *io, const void *dev,
			 size_t size, struct vpuxc_tensor *onnx);

#endif /* VPUX_COMPILER_H */
