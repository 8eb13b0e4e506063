/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: libvpux - the vpux user-mode driver
 *
 * Opens an NPU device, loads compiled networks (loadables,
 * Documentation/loadable.rst), binds input/output buffers to requests,
 * submits them and reports status and device time.
 *
 * Objects: a device owns buffers and networks; a network is immutable once
 * loaded and serves any number of requests; a request holds the run state
 * of one inference (scratch memory, bindings, the submitted task).
 *
 * Threads: every call is safe on distinct requests from different threads;
 * calls on one request must not race each other. Networks and buffers may
 * be shared by requests on several threads.
 *
 * Errors: functions return 0 or a negative VPUX_E_* code; vpux_last_error()
 * gives a message for the calling thread's last failure that names the
 * section, record and field for a bad loadable. Nothing aborts the process.
 *
 * The dims types (vpux_dim/vpux_memdim, shapes, strides, dims orders and
 * stride requirements) follow the NN compiler's logical/memory split:
 * logical and memory variants are distinct types, converted only through
 * a vpux_dims_order.
 */
#ifndef VPUX_H
#define VPUX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VPUX_API_VERSION_MAJOR	1
#define VPUX_API_VERSION_MINOR	9

/* ---- errors ---- */
enum vpux_error {
	VPUX_OK = 0,
	VPUX_E_INVAL = -1,	/* bad argument */
	VPUX_E_NOMEM = -2,	/* out of host or device memory */
	VPUX_E_NODEV = -3,	/* no such device / backend not available */
	VPUX_E_IO = -4,		/* file could not be read or written */
	VPUX_E_FORMAT = -5,	/* malformed loadable (message names the field) */
	VPUX_E_VERSION = -6,	/* loadable version not supported */
	VPUX_E_REQUIRED = -7,	/* unknown section flagged required */
	VPUX_E_CHECKSUM = -8,	/* section checksum mismatch */
	VPUX_E_UNSUPPORTED = -9,/* target/capabilities the device lacks */
	VPUX_E_UNBOUND = -10,	/* an input, output or symbol is not bound */
	VPUX_E_STATE = -11,	/* call not valid in the request's state */
	VPUX_E_TIMEOUT = -12,	/* wait timed out; the request still runs */
	VPUX_E_DEVICE = -13,	/* the device rejected or failed the task */
	VPUX_E_BUSY = -14,	/* no free task slot; retry later */
	VPUX_E_PERM = -15,	/* not permitted (API 1.1: a priority that needs
				 * CAP_SYS_NICE) */
};

/** vpux_strerror() - short name of a VPUX_E_* code */
const char *vpux_strerror(int err);
/** vpux_last_error() - message of the calling thread's last error ("") */
const char *vpux_last_error(void);

/* ---- logical vs memory dims ---- */
#define VPUX_MAX_RANK		6

/** struct vpux_dim - a logical dimension (index in the logical shape) */
typedef struct { uint32_t ind; } vpux_dim;
/** struct vpux_memdim - a memory dimension, 0 = innermost */
typedef struct { uint32_t ind; } vpux_memdim;

/** struct vpux_shape - sizes indexed by vpux_dim */
struct vpux_shape { uint32_t rank; uint64_t d[VPUX_MAX_RANK]; };
/** struct vpux_memshape - sizes indexed by vpux_memdim */
struct vpux_memshape { uint32_t rank; uint64_t d[VPUX_MAX_RANK]; };
/** struct vpux_strides - strides in bits indexed by vpux_dim */
struct vpux_strides { uint32_t rank; uint64_t bits[VPUX_MAX_RANK]; };
/** struct vpux_memstrides - strides in bits indexed by vpux_memdim */
struct vpux_memstrides { uint32_t rank; uint64_t bits[VPUX_MAX_RANK]; };

/**
 * struct vpux_dims_order - packed permutation, one nibble per dim,
 * outermost first; nibble = logical dim + 1; least significant nibble is
 * the innermost memory dim (NCHW 0x1234, NHWC 0x1342).
 */
typedef struct { uint64_t code; } vpux_dims_order;

static inline vpux_dim vpux_dim_make(uint32_t i) { vpux_dim d = { i }; return d; }
static inline vpux_memdim vpux_memdim_make(uint32_t i) { vpux_memdim d = { i }; return d; }

/** vpux_order_valid() - is @o a permutation of 0..@rank-1? */
int vpux_order_valid(vpux_dims_order o, uint32_t rank);
/** vpux_order_rank() - number of nibbles of @o */
uint32_t vpux_order_rank(vpux_dims_order o);
/** vpux_order_compact() - the identity order (NCHW-like) of @rank */
vpux_dims_order vpux_order_default(uint32_t rank);
/** vpux_order_memdim() - memory position of logical dim @d */
vpux_memdim vpux_order_to_memdim(vpux_dims_order o, vpux_dim d);
/** vpux_order_dim() - logical dim stored at memory position @m */
vpux_dim vpux_order_to_dim(vpux_dims_order o, vpux_memdim m);
/* Conversions; return 0 or VPUX_E_INVAL (bad order or rank mismatch). */
int vpux_order_to_memshape(vpux_dims_order o, const struct vpux_shape *s,
			   struct vpux_memshape *ms);
int vpux_order_to_shape(vpux_dims_order o, const struct vpux_memshape *ms,
			struct vpux_shape *s);
int vpux_order_to_memstrides(vpux_dims_order o, const struct vpux_strides *s,
			     struct vpux_memstrides *ms);
int vpux_order_to_strides(vpux_dims_order o, const struct vpux_memstrides *ms,
			  struct vpux_strides *s);

enum vpux_stride_req_kind {
	VPUX_STRIDE_ANY = 0,	/* no requirement: compact */
	VPUX_STRIDE_COMPACT,	/* no gap to the inner neighbour */
	VPUX_STRIDE_ALIGNED,	/* byte stride aligned to @value bytes */
	VPUX_STRIDE_FIXED,	/* stride equals @value bits */
};

/** struct vpux_stride_reqs - one requirement per memory dim */
struct vpux_stride_reqs {
	uint32_t rank;
	uint32_t kind[VPUX_MAX_RANK];	/* enum vpux_stride_req_kind */
	uint64_t value[VPUX_MAX_RANK];
};

/**
 * vpux_stride_reqs_compute() - memory strides satisfying @r
 * @r: requirements per memory dim
 * @elem_bits: element size in bits (8, 16 or 32)
 * @ms: memory shape
 * @out: result
 *
 * Return: 0, or VPUX_E_INVAL if a FIXED stride is smaller than the
 * compact one, an alignment is 0 or the result overflows.
 */
int vpux_stride_reqs_compute(const struct vpux_stride_reqs *r,
			     uint32_t elem_bits,
			     const struct vpux_memshape *ms,
			     struct vpux_memstrides *out);

/* ---- devices and buffers ---- */
struct vpux_device;
struct vpux_buffer;
struct vpux_network;
struct vpux_request;

/**
 * struct vpux_device_info - what vpux_device_query() reports
 * @backend: "inproc" or "ioctl"
 * @target: target id (VPUX_TARGET_*), compared with a loadable's
 * @caps: capability bits (VPUX_NET_CAP_*)
 * @engines: engines per kind (DMA, DPU, SHAVE)
 * @max_ops: most ops in one task
 * @max_barriers: most barriers in one task
 */
struct vpux_device_info {
	char backend[16];
	uint32_t target;
	uint64_t caps;
	uint32_t engines[3];
	uint32_t max_ops;
	uint32_t max_barriers;
};

#define VPUX_TARGET_VPUX1	1u
#define VPUX_NET_CAP_DMA	(1ull << 0)
#define VPUX_NET_CAP_DPU		(1ull << 1)
#define VPUX_NET_CAP_SHAVE		(1ull << 2)

/**
 * vpux_device_open() - open a device
 * @name: "inproc" (or NULL): engine core + NPU model in this process;
 *	"/dev/accel/accelN": the kernel driver vpux_accel.ko (ioctl backend;
 *	VPUX_E_NODEV if the node is absent or not vpux_accel); "auto": the
 *	first vpux_accel node
 * @out: the device
 */
int vpux_device_open(const char *name, struct vpux_device **out);
/** vpux_device_close() - close; every network, buffer, request first */
void vpux_device_close(struct vpux_device *dev);
int vpux_device_query(struct vpux_device *dev, struct vpux_device_info *info);

/** vpux_buffer_alloc() - device memory of @size bytes, zeroed */
int vpux_buffer_alloc(struct vpux_device *dev, size_t size,
		      struct vpux_buffer **out);
void vpux_buffer_free(struct vpux_buffer *buf);
/** vpux_buffer_map() - CPU pointer to the whole buffer (NULL on error) */
void *vpux_buffer_map(struct vpux_buffer *buf);
size_t vpux_buffer_size(const struct vpux_buffer *buf);

/* ---- networks ---- */

/**
 * enum vpux_data_type - element type of a tensor (vpux_tensor_desc and the
 * loadable's tensor records)
 * @VPUX_DT_U8: unsigned 8-bit
 * @VPUX_DT_I8: signed 8-bit
 * @VPUX_DT_I32: signed 32-bit, little endian
 * @VPUX_DT_F16: IEEE 754 binary16, little endian (API 1.6)
 * @VPUX_DT_F32: IEEE 754 binary32, little endian (API 1.6)
 * @VPUX_DT_I64: signed 64-bit, little endian: only a host type
 *	(vpux_io_info.host_type of an ONNX int64 input or output the device
 *	holds in int32, API 1.7); no tensor has it
 *
 * The float types carry no quantisation: their tensors' zero point and
 * scale are 0 (the loader refuses anything else). The values are those
 * of the SHAVE ABI's VPUX_SHAVE_DT_*.
 */
enum vpux_data_type {
	VPUX_DT_U8 = 1,
	VPUX_DT_I8 = 2,
	VPUX_DT_I32 = 3,
	VPUX_DT_F16 = 4,
	VPUX_DT_F32 = 5,
	VPUX_DT_I64 = 6,
};

/**
 * struct vpux_tensor_desc - an input or output of a network
 * @name: NUL-terminated
 * @data_type: enum vpux_data_type
 * @rank: logical rank
 * @order: dims order
 * @shape: logical shape
 * @strides: logical strides in bits
 * @size: bytes the tensor occupies (what a binding must provide)
 * @zero_point: quantisation zero point (0 for VPUX_DT_F16/F32)
 * @scale_mult: quantisation scale, Q31 multiplier (0 for the float types)
 * @scale_shift: quantisation scale: value = (q - zp) * mult / 2^(31+shift)
 *	(0 for the float types, whose elements are the values)
 */
struct vpux_tensor_desc {
	char name[32];
	uint32_t data_type;
	uint32_t rank;
	vpux_dims_order order;
	struct vpux_shape shape;
	struct vpux_strides strides;
	uint64_t size;
	int32_t zero_point;
	int32_t scale_mult;
	int32_t scale_shift;
};

/**
 * vpux_network_load() - validate and load a loadable from memory
 * @dev: device
 * @data: the loadable (copied as needed; may be freed after the call)
 * @size: bytes
 * @out: the network
 */
int vpux_network_load(struct vpux_device *dev, const void *data, size_t size,
		      struct vpux_network **out);
int vpux_network_load_file(struct vpux_device *dev, const char *path,
			   struct vpux_network **out);
/** vpux_network_unload() - after every request on it is destroyed */
void vpux_network_unload(struct vpux_network *net);
unsigned int vpux_network_num_inputs(const struct vpux_network *net);
unsigned int vpux_network_num_outputs(const struct vpux_network *net);
int vpux_network_input(const struct vpux_network *net, unsigned int i,
		       struct vpux_tensor_desc *desc);
int vpux_network_output(const struct vpux_network *net, unsigned int i,
			struct vpux_tensor_desc *desc);
/**
 * struct vpux_network_info - what vpux_network_query() reports
 * @name: the network's name
 * @version_major: loadable format version
 * @version_minor: loadable format version
 * @num_inputs: inputs
 * @num_outputs: outputs
 * @num_ops: ops per engine kind (DMA, DPU, SHAVE)
 * @num_barriers: barriers
 * @num_symbols: symbols a request binds (vpux_network_symbol(), API 1.4)
 * @weights_bytes: device memory shared by every request
 * @request_bytes: device memory each request adds (scratch)
 */
struct vpux_network_info {
	char name[32];
	uint32_t version_major, version_minor;
	uint32_t num_inputs, num_outputs;
	uint32_t num_ops[3];
	uint32_t num_barriers;
	uint32_t num_symbols;
	uint64_t weights_bytes;
	uint64_t request_bytes;
};

int vpux_network_query(const struct vpux_network *net,
		       struct vpux_network_info *info);
/** vpux_network_num_ops() - ops of engine kind @kind (0 DMA 1 DPU 2 SHAVE) */
unsigned int vpux_network_num_ops(const struct vpux_network *net,
				  unsigned int kind);

/**
 * struct vpux_op_info - what the loadable says of one op (API 1.2)
 * @type: "copy" for DMA, the DPU operation ("conv", "matmul", "add",
 *	"mul", "maxpool", "avgpool", "sub": FP16 only, API 1.6) or the
 *	SHAVE kernel ("clamp",
 *	"softmax", "sigmoid", "tanh", "permute", "quantize")
 * @output: the name of the tensor the op writes (for DMA its
 *	destination, for SHAVE its window 1), the closest the loadable
 *	comes to naming a layer; "" if none. Its full name (a compiled
 *	model's own, API 1.8) when that fits in 31 bytes, else the
 *	record's short one, as vpux_tensor_desc.name: either finds an
 *	input or output (vpux_network_find_output()), whose
 *	vpux_network_io_name() has any length
 * @bytes: bytes the op reads and writes (its operands' sizes)
 * @macs: DPU: multiply-accumulates (or element operations); else 0
 * @num_waits: entries of @waits: the barriers the op waits for
 * @num_updates: entries of @updates: the barriers it counts down
 * @waits: barrier ids
 * @updates: barrier ids
 */
struct vpux_op_info {
	char type[16];
	char output[32];
	uint64_t bytes;
	uint64_t macs;
	uint32_t num_waits;
	uint32_t num_updates;
	uint16_t waits[8];
	uint16_t updates[8];
};

/**
 * vpux_network_op_info() - op @index of engine kind @kind (API 1.2)
 *
 * Return: 0, or VPUX_E_INVAL for no such op.
 */
int vpux_network_op_info(const struct vpux_network *net, unsigned int kind,
			 unsigned int index, struct vpux_op_info *info);

/**
 * vpux_network_run_reference() - run the network on the CPU reference
 * @net: network
 * @inputs: host copies of every input (desc.size bytes each)
 * @outputs: host buffers for every output (desc.size bytes each)
 *
 * Uses the plain CPU reference of every op, in an order the barriers
 * allow; the device must produce the same bytes.
 */
int vpux_network_run_reference(struct vpux_network *net,
			       const void *const *inputs,
			       void *const *outputs);

/* ---- requests ---- */

enum vpux_request_state {
	VPUX_REQ_IDLE = 0,
	VPUX_REQ_RUNNING,
	VPUX_REQ_DONE,
	VPUX_REQ_FAILED,
};

/**
 * struct vpux_request_status - result of a request
 * @state: enum vpux_request_state
 * @error: 0 or the device's error code (dla_err.h numbering, negative)
 * @fail_kind: engine kind of the failing op
 * @fail_index: its index in the kind's list
 * @fault_addr: MMU fault address, if any
 * @ops_total: ops in the task
 * @ops_done: ops completed
 * @op_cycles: sum of the ops' device cycles
 * @device_cycles: device cycles from start to completion
 * @time_us: host time from start to completion
 */
struct vpux_request_status {
	uint32_t state;
	int32_t error;
	uint32_t fail_kind;
	uint32_t fail_index;
	uint64_t fault_addr;
	uint32_t ops_total;
	uint32_t ops_done;
	uint64_t op_cycles;
	uint64_t device_cycles;
	int64_t time_us;
};

int vpux_request_create(struct vpux_network *net, struct vpux_request **out);
/** vpux_request_destroy() - waits for (or aborts) a running request */
void vpux_request_destroy(struct vpux_request *req);
/**
 * vpux_request_bind_input() - bind input @i to @buf at @offset
 *
 * The tensor's desc.size bytes from @offset must lie inside @buf.
 */
int vpux_request_bind_input(struct vpux_request *req, unsigned int i,
			    struct vpux_buffer *buf, size_t offset);
int vpux_request_bind_output(struct vpux_request *req, unsigned int i,
			     struct vpux_buffer *buf, size_t offset);
/*
 * Request priorities (API 1.1): the device gives idle engines to ready ops
 * by priority, then age.
 */
enum vpux_priority {
	VPUX_PRIORITY_LOW = 0,
	VPUX_PRIORITY_NORMAL = 1,	/* a new request's */
	VPUX_PRIORITY_HIGH = 2,
	VPUX_PRIORITY_REALTIME = 3,
};

/**
 * vpux_request_set_priority() - priority of the request's next submits
 * @req: the request
 * @priority: enum vpux_priority
 *
 * HIGH and REALTIME need CAP_SYS_NICE on a vpux_accel kernel of uapi 1.5
 * or later: vpux_request_submit() then fails with VPUX_E_PERM, its
 * message naming the capability. API 1.1.
 *
 * Return: 0, or VPUX_E_INVAL for an unknown priority.
 */
int vpux_request_set_priority(struct vpux_request *req, unsigned int priority);
/**
 * vpux_request_submit() - start it; every input and output bound
 * @req: the request
 *
 * The NPU's on-chip memory (CMX) belongs to no request: the requests of
 * networks with CMX tensors (loadable 1.1) on one device queue, each
 * running once the one submitted before it has ended, whatever its
 * result; the call does not wait for that (a queued request counts as
 * running). Documentation/libvpux.rst, "Pipelined requests".
 *
 * Return: 0; VPUX_E_UNBOUND (a buffer, or a symbol of the network: the
 * message names it), VPUX_E_STATE (still running), or the backend's
 * error.
 */
int vpux_request_submit(struct vpux_request *req);
/**
 * vpux_request_wait() - wait for the request's last submitted run
 * @req: the request
 * @timeout_ms: < 0 waits forever, 0 polls, else at most that many ms
 *
 * Return: 0 (the run is done); VPUX_E_INVAL (NULL @req), VPUX_E_STATE
 * (never submitted), VPUX_E_TIMEOUT (still running: wait again; the
 * message gives the timeout), VPUX_E_DEVICE (the run failed: the message
 * names the op and error; vpux_request_status() gives them).
 */
int vpux_request_wait(struct vpux_request *req, int timeout_ms);
int vpux_request_status(struct vpux_request *req,
			struct vpux_request_status *st);
/** vpux_request_op_cycles() - device cycles of op @index of @kind */
int vpux_request_op_cycles(struct vpux_request *req, unsigned int kind,
			   unsigned int index, uint32_t *cycles);

/**
 * struct vpux_op_time - where and when an op ran (API 1.2)
 * @engine: the device's engine it ran on, numbered DMA engines first,
 *	then DPU, then SHAVE (vpux_device_info.engines gives how many of
 *	each), or VPUX_OP_NOT_RUN if it never became ready
 * @done: 1 if it completed; 0 for an op that started and did not (a
 *	hung or failed op: @end == @start) or that never ran
 * @start: device cycles from the request's start to the op's start
 * @end: @start plus the op's cycles
 */
struct vpux_op_time {
	uint32_t engine;
	uint32_t done;
	uint64_t start;
	uint64_t end;
};

#define VPUX_OP_NOT_RUN		0xffffffffu

/**
 * vpux_request_op_times() - the schedule of the request's last run
 * @req: a submitted request, finished (a running one is waited for by
 *	nobody: in-process it is aborted, through the kernel its times are
 *	those of a job that has not finished, every op not run)
 * @times: out: one record per op of the network: the DMA ops, then the
 *	DPU ops, then the SHAVE ops, each kind in task order
 * @n: entries of @times: the network's ops (the sum of vpux_network_num_ops())
 *
 * The engine core rebuilds the schedule from the task's graph and the
 * ops' cycles on the device's cycle clock, so both backends give the
 * same times for the same network (Documentation/profiling.rst). API 1.2.
 *
 * Return: 0; VPUX_E_INVAL for bad arguments or @n not the op count;
 * VPUX_E_UNSUPPORTED on a vpux_accel kernel older than uapi 1.8.
 */
int vpux_request_op_times(struct vpux_request *req,
			  struct vpux_op_time *times, unsigned int n);


/* ---- dynamic shapes (API 1.4, Documentation/dynamic-shapes.rst) ---- */

/**
 * enum vpux_symbol_kind - what a symbol stands for
 * @VPUX_SYMBOL_AXIS: the size of one or more tensor axes
 * @VPUX_SYMBOL_SCALAR: a value only the network's plan uses
 */
enum vpux_symbol_kind {
	VPUX_SYMBOL_AXIS = 1,
	VPUX_SYMBOL_SCALAR = 2,
};

/**
 * struct vpux_symbol_info - one symbol of a network
 * @name: NUL-terminated
 * @kind: enum vpux_symbol_kind
 * @width: bytes of the value (4 or 8)
 * @min: smallest value a request may bind
 * @max: largest value; buffers are laid out for it
 */
struct vpux_symbol_info {
	char name[32];
	uint32_t kind;
	uint32_t width;
	uint64_t min;
	uint64_t max;
};

/**
 * vpux_network_symbol() - symbol @i of @net (i < vpux_network_info.num_symbols)
 *
 * Return: 0, or VPUX_E_INVAL for no such symbol.
 */
int vpux_network_symbol(const struct vpux_network *net, unsigned int i,
			struct vpux_symbol_info *info);
/**
 * vpux_network_dim_symbol() - which symbol a tensor's dim names
 * @net: network
 * @is_output: 0 for input @index, 1 for output @index
 * @index: the tensor
 * @dim: logical dim, < the tensor's rank
 * @symbol: out: the symbol's index, or -1 for a static dim
 *
 * A dynamic dim's size in struct vpux_tensor_desc is the symbol's max;
 * its size in a request is the value bound to the symbol.
 *
 * Return: 0, or VPUX_E_INVAL for no such tensor or dim.
 */
int vpux_network_dim_symbol(const struct vpux_network *net, int is_output,
			    unsigned int index, unsigned int dim, int *symbol);
/**
 * vpux_request_set_symbol() - bind symbol @name for the request's runs
 * @req: the request (not running)
 * @name: the symbol's name
 * @value: within the symbol's [min, max]
 *
 * The value lives in the request's own symbol buffer: the network stays
 * unchanged and shared by every request.
 *
 * Return: 0; VPUX_E_INVAL (no such symbol, or the value out of bounds:
 * the message names the symbol and its bounds), VPUX_E_STATE (running).
 */
int vpux_request_set_symbol(struct vpux_request *req, const char *name,
			    uint64_t value);
/**
 * vpux_request_set_input_shape() - bind the symbols input @i's dims name
 * @req: the request (not running)
 * @i: the input
 * @shape: its actual logical shape: the static dims must equal the
 *	network's, a dynamic dim binds its symbol (bounds checked; two dims
 *	naming one symbol must agree, also with a value bound for the same
 *	run, i.e. since the last vpux_request_submit(); a refused shape
 *	binds nothing)
 *
 * Return: 0, VPUX_E_INVAL naming the dim and what was wrong, or
 * VPUX_E_STATE.
 */
int vpux_request_set_input_shape(struct vpux_request *req, unsigned int i,
				 const struct vpux_shape *shape);
/**
 * vpux_request_output_shape() - the actual shape of output @i
 * @req: the request, every symbol its output names bound
 * @i: the output
 * @shape: out: dims evaluated with the bound values, or, for an output
 *	a SHAVE kernel writes through a dynamic memref (a static op list),
 *	the dims that kernel wrote in the request's last run (API 1.5;
 *	each checked to be 1..the tensor's bound). The data is laid out
 *	with the tensor's strides (those of the max shape), so when only
 *	the outermost dim is dynamic it is a dense prefix of the buffer.
 *
 * Return: 0, VPUX_E_INVAL (no such output, a symbol unbound),
 * VPUX_E_STATE (a kernel's shape, and no completed run) or VPUX_E_DEVICE
 * (the kernel wrote a dim outside the bounds; the message names the
 * output).
 */
int vpux_request_output_shape(struct vpux_request *req, unsigned int i,
			      struct vpux_shape *shape);
/**
 * vpux_request_run_reference() - the CPU reference with the request's
 * bound symbols
 * @req: the request (its bindings of buffers are not used)
 * @inputs: host copies of every input (desc.size bytes each)
 * @outputs: host buffers for every output (desc.size bytes each)
 *
 * vpux_network_run_reference() for a network with symbols. From API 1.5
 * it also records the outputs' shapes in the reference run
 * (vpux_request_reference_output_shape()).
 *
 * Return: 0, VPUX_E_INVAL for an unbound symbol, VPUX_E_DEVICE for a
 * kernel's shape outside an output's bounds, or the reference's error.
 */
int vpux_request_run_reference(struct vpux_request *req,
			       const void *const *inputs,
			       void *const *outputs);
/**
 * vpux_request_reference_output_shape() - output @i's shape in the last
 * vpux_request_run_reference() of @req (API 1.5)
 * @req: the request
 * @i: the output
 * @shape: out: as vpux_request_output_shape() gives it for a run on the
 *	device: the shape the reference's kernel wrote, or the bound
 *	symbols'. Compare the two to check a kernel's shape too.
 *
 * Return: 0, VPUX_E_INVAL (no such output) or VPUX_E_STATE (no
 * successful reference run).
 */
int vpux_request_reference_output_shape(struct vpux_request *req,
					unsigned int i,
					struct vpux_shape *shape);

/* ---- the host boundary (API 1.7, Documentation/libvpux.rst) ---- */

/*
 * vpux_io_info.flags
 * VPUX_IO_CONVERT: vpux_request_write_input() and vpux_request_read_output()
 *	convert element by element between host_type and data_type (float32
 *	to FP16 and back, quantization with the ONNX scales, int64 to int32);
 *	without it they copy the bytes as they are
 * VPUX_IO_ONNX: name, host_type and dims are the ONNX model's (the
 *	loadable's ".vpux.io" section, which vpux-onnx writes); without it
 *	they come from the tensor
 * VPUX_IO_NO_VIEW: the tensor is not dense (its strides have gaps): the
 *	two calls refuse it; fill its buffer as vpux_network_input() says
 */
#define VPUX_IO_CONVERT		(1u << 0)
#define VPUX_IO_ONNX		(1u << 1)
#define VPUX_IO_NO_VIEW		(1u << 2)

#define VPUX_IO_MAX_RANK	8
#define VPUX_IO_NAME_MAX	128

/**
 * struct vpux_io_info - an input or output as the application sees it
 * @size: set by the caller to sizeof(struct vpux_io_info) (at least
 *	VPUX_IO_INFO_SIZE_1_7): libvpux fills that many bytes, so a program
 *	built against an older header keeps working when fields are added
 *	at the end
 * @flags: VPUX_IO_*
 * @name: NUL-terminated; the full ONNX name with VPUX_IO_ONNX (not cut
 *	to the 31 characters of vpux_tensor_desc.name)
 * @host_type: enum vpux_data_type of the host data the two calls take and
 *	give: VPUX_DT_F32 for a float input or output (an FP16 or FP32
 *	tensor, or a quantized one whose ONNX type is float), else the
 *	device's type (VPUX_DT_I64 for an ONNX int64 one held in int32)
 * @data_type: enum vpux_data_type of the tensor on the device
 * @rank: entries of @dims, 0..VPUX_IO_MAX_RANK (0: a scalar)
 * @quant_axis: the axis of a per-axis quantization, else -1
 * @dims: the host shape, outermost first, row-major (the ONNX layout; the
 *	loadable's IO tensors are laid out so, the NPU reorders on the
 *	device). Without VPUX_IO_ONNX: the logical shape when the tensor is
 *	dense in its logical order, else its memory shape (the elements in
 *	the order they lie). A dynamic dim is at its symbol's max: the
 *	calls convert the whole buffer. 0 above @rank
 * @host_size: bytes of host data: the elements times the size of
 *	@host_type (what the two calls require)
 * @quant_count: ONNX scales of a quantized float (1 per tensor, or
 *	dims[quant_axis]); 0 if none
 * @reserved: 0
 */
struct vpux_io_info {
	uint32_t size;
	uint32_t flags;
	char name[VPUX_IO_NAME_MAX];
	uint32_t host_type;
	uint32_t data_type;
	uint32_t rank;
	int32_t quant_axis;
	uint64_t dims[VPUX_IO_MAX_RANK];
	uint64_t host_size;
	uint32_t quant_count;
	uint32_t reserved;
};

/* the size of struct vpux_io_info in API 1.7, the least @size accepted */
#define VPUX_IO_INFO_SIZE_1_7	232u

/**
 * vpux_network_io_info() - how input or output @i meets the application
 * @net: network
 * @is_output: 0 for input @i, 1 for output @i
 * @i: its index
 * @info: out; @info->size set by the caller
 *
 * The loadable's ".vpux.io" and ".vpux.ioq" sections, read and checked
 * once by vpux_network_load() (a malformed one fails the load with
 * VPUX_E_FORMAT naming section, record and field), or the tensor alone.
 * API 1.7.
 *
 * Return: 0, or VPUX_E_INVAL (no such input/output, NULL @info, or
 * @info->size below VPUX_IO_INFO_SIZE_1_7).
 */
int vpux_network_io_info(const struct vpux_network *net, int is_output,
			 unsigned int i, struct vpux_io_info *info);
/**
 * vpux_request_write_input() - convert host data into input @i's buffer
 * @req: the request (not running), a buffer bound to input @i
 * @i: the input
 * @host: vpux_io_info.host_size bytes of vpux_io_info.host_type elements,
 *	row-major in vpux_io_info.dims
 * @size: bytes at @host: exactly vpux_io_info.host_size
 *
 * Writes through the bound buffer's CPU mapping: float32 to FP16 rounded
 * to nearest even (a NaN stays a NaN, beyond FP16's range an infinity);
 * to a quantized tensor q = saturate(round_half_even(x / scale) + zero
 * point), ONNX's QuantizeLinear, with the exact ONNX scale (a NaN is
 * refused); int64 to int32 range-checked; otherwise copied. Bytes of the
 * binding past the elements are zeroed. API 1.7.
 *
 * Return: 0; VPUX_E_INVAL (no such input, NULL @host, @size not
 * host_size: the message names the input and the size it takes; a NaN
 * or an int64 out of range: the message names the element; a tensor with
 * VPUX_IO_NO_VIEW), VPUX_E_UNBOUND (no buffer bound), VPUX_E_STATE (the
 * request is running), VPUX_E_NOMEM (the buffer cannot be mapped).
 */
int vpux_request_write_input(struct vpux_request *req, unsigned int i,
			     const void *host, size_t size);
/**
 * vpux_request_read_output() - convert output @i's buffer into host data
 * @req: the request (not running), a buffer bound to output @i
 * @i: the output
 * @host: out: vpux_io_info.host_size bytes
 * @size: bytes at @host: exactly vpux_io_info.host_size
 *
 * FP16 to float32 exactly; a quantized tensor (q - zero point) * scale in
 * float, ONNX's DequantizeLinear; int32 to int64 sign-extended; otherwise
 * copied. API 1.7.
 *
 * Return: as vpux_request_write_input().
 */
int vpux_request_read_output(struct vpux_request *req, unsigned int i,
			     void *host, size_t size);

/* ---- named tensors (API 1.8, Documentation/libvpux.rst) ---- */

/**
 * vpux_network_io_name() - the full name of input or output @i (API 1.8)
 * @net: network
 * @is_output: 0 for input @i, 1 for output @i
 * @i: its index
 * @name: out: NUL-terminated, of any length, valid until the network is
 *	unloaded: the tensor's name in a 1.4 loadable's ".vpux.names" (a
 *	compiled ONNX model's own input or output name), else the ONNX name
 *	of ".vpux.io" (an older compiled loadable), else the tensor record's
 *	name. vpux_tensor_desc.name holds it when it fits in 31 bytes, else
 *	the record's short unique name.
 *
 * Return: 0, or VPUX_E_INVAL (NULL argument, no such input/output).
 */
int vpux_network_io_name(const struct vpux_network *net, int is_output,
			 unsigned int i, const char **name);
/**
 * vpux_network_find_input() - the index of the input named @name (API 1.8)
 * @net: network
 * @name: its full name (vpux_network_io_name()) or the tensor record's
 *	short name (vpux_tensor_desc.name)
 * @index: out
 *
 * Return: 0, or VPUX_E_INVAL (NULL argument; no such input: the message
 * names @name and lists the inputs).
 */
int vpux_network_find_input(const struct vpux_network *net, const char *name,
			    unsigned int *index);
/** vpux_network_find_output() - the same for the outputs (API 1.8) */
int vpux_network_find_output(const struct vpux_network *net, const char *name,
			     unsigned int *index);
/**
 * vpux_request_set_input_desc() - set input @i's tensor descriptor
 * (NVDLA's setInputTensorDesc, API 1.8)
 * @req: the request (not running)
 * @i: the input
 * @desc: as vpux_network_input() gives it, with @desc->shape the actual
 *	shape: data_type, rank, order, strides, size and the quantisation
 *	must be the network's (buffers are laid out for the max shape);
 *	@desc->name is not read. The shape binds the symbols its dynamic
 *	dims name, as vpux_request_set_input_shape().
 *
 * Return: 0; VPUX_E_INVAL (NULL argument, no such input, a field that
 * differs from the network's: the message names it, or the shape's
 * errors), VPUX_E_STATE (running).
 */
int vpux_request_set_input_desc(struct vpux_request *req, unsigned int i,
				const struct vpux_tensor_desc *desc);

/* ---- run recipes (API 1.3, Documentation/run-recipes.rst) ---- */
struct vpux_runner;

/**
 * vpux_runner_create() - load a run recipe
 * @dev: the device every kernel of the recipe runs on
 * @recipe_path: the recipe (JSON); its kernels' loadables are found
 *	relative to its directory, its CPU libraries through the CPU
 *	library search path (VPUX_CPU_LIBRARY_PATH, then the install
 *	directory)
 * @out: the runner
 *
 * Parses and checks the recipe, loads every loadable and CPU library,
 * looks up every CPU function and creates the internal buffers (and the
 * sized external ones). Errors name the JSON path of what is wrong
 * ("execution.runs[3].arguments[1].offset: ...").
 *
 * Return: 0; VPUX_E_IO (file), VPUX_E_FORMAT (recipe, loadable or CPU
 * library), VPUX_E_VERSION, VPUX_E_UNSUPPORTED (target), VPUX_E_NOMEM.
 */
int vpux_runner_create(struct vpux_device *dev, const char *recipe_path,
		       struct vpux_runner **out);
/** vpux_runner_destroy() - waits for a running execution first */
void vpux_runner_destroy(struct vpux_runner *runner);
/**
 * vpux_runner_bind_input() - bind the recipe buffer @name to @buf
 * @runner: the runner
 * @name: a buffer of type input, weight, spill or unknown
 * @buf: device memory of the runner's device
 * @offset: where the recipe buffer starts in @buf; a sized recipe buffer
 *	must fit, an unsized one extends to the end of @buf
 *
 * Return: 0, VPUX_E_INVAL (no such buffer, wrong type, too small, or
 * the runner is running: VPUX_E_BUSY).
 */
int vpux_runner_bind_input(struct vpux_runner *runner, const char *name,
			   struct vpux_buffer *buf, size_t offset);
/** vpux_runner_bind_output() - the same for type output or unknown */
int vpux_runner_bind_output(struct vpux_runner *runner, const char *name,
			    struct vpux_buffer *buf, size_t offset);
/**
 * vpux_runner_buffer_size() - bytes the recipe buffer @name needs
 *
 * Its size in the recipe, or else the least size its runs' sub-buffers
 * need (0 if no run says). Return: 0 or VPUX_E_INVAL (no such buffer).
 */
int vpux_runner_buffer_size(const struct vpux_runner *runner,
			    const char *name, size_t *size);

/* VPUX_RUNNER_CHECK: compare every NPU run with the CPU reference */
#define VPUX_RUNNER_CHECK	(1u << 0)

/**
 * vpux_runner_set_flags() - VPUX_RUNNER_* for the next executions
 *
 * With VPUX_RUNNER_CHECK every NPU run is submitted alone and its
 * outputs are compared with vpux_network_run_reference() on the same
 * inputs; a difference fails the execution (VPUX_E_DEVICE), the message
 * names the run, the output and the first byte that differs.
 */
int vpux_runner_set_flags(struct vpux_runner *runner, unsigned int flags);
/**
 * vpux_runner_execute() - start the recipe's runs, in order
 *
 * Returns at once: the runs go on in a thread of the runner. Consecutive
 * NPU runs go to the device as one chain without a host round trip; a
 * CPU run starts when everything before it is done.
 *
 * Return: 0; VPUX_E_UNBOUND (an unsized external buffer not bound),
 * VPUX_E_FORMAT (a sub-buffer past the end of a bound buffer),
 * VPUX_E_BUSY (the last execution has not been waited for).
 */
int vpux_runner_execute(struct vpux_runner *runner);
/**
 * vpux_runner_wait() - wait for the execution; @timeout_ms < 0: forever
 *
 * Return: 0; VPUX_E_TIMEOUT (still running; wait again), VPUX_E_STATE
 * (nothing executed), or the execution's error: VPUX_E_DEVICE for a
 * failed NPU run or CPU function, with the run and its message.
 */
int vpux_runner_wait(struct vpux_runner *runner, int timeout_ms);

/**
 * struct vpux_runner_file - a file of a recipe held in memory (API 1.8)
 * @name: as the recipe names it: a kernel's "loadable", a buffer's data
 *	"file" (compared byte for byte, no path resolution)
 * @data: its bytes (read during vpux_runner_create_from_memory() only)
 * @size: bytes at @data
 */
struct vpux_runner_file {
	const char *name;
	const void *data;
	size_t size;
};

/**
 * vpux_runner_create_from_memory() - load a run recipe from buffers
 * (API 1.8)
 * @dev: the device every kernel of the recipe runs on
 * @recipe: the recipe's JSON text (not NUL-terminated necessarily)
 * @recipe_size: its bytes
 * @files: the loadables and data files the recipe names, by name
 * @n_files: entries of @files
 * @out: the runner
 *
 * vpux_runner_create() without a file system: the bytes are copied (the
 * loadables to the device), the caller may free them on return. CPU
 * libraries are still found through the CPU library search path. Errors
 * start with "recipe (memory): " and the JSON path.
 *
 * Return: as vpux_runner_create(); VPUX_E_INVAL for a NULL argument, a
 * file without name or data, one name given twice or a recipe above
 * 16 MiB; VPUX_E_IO for a file the recipe names that @files lacks (the
 * message names it).
 */
int vpux_runner_create_from_memory(struct vpux_device *dev,
				   const void *recipe, size_t recipe_size,
				   const struct vpux_runner_file *files,
				   unsigned int n_files,
				   struct vpux_runner **out);
/* ---- devices, memory and completion for applications (API 1.8) ---- */

/* VPUX_MAKE_VERSION(): a version as vpux_version() gives it */
#define VPUX_MAKE_VERSION(major, minor)	((uint32_t)(major) << 16 | (minor))
#define VPUX_API_VERSION \
	VPUX_MAKE_VERSION(VPUX_API_VERSION_MAJOR, VPUX_API_VERSION_MINOR)

/**
 * vpux_version() - the API version of the libvpux running, major << 16 |
 * minor (VPUX_MAKE_VERSION()): a program built against a newer header
 * checks vpux_version() >= VPUX_MAKE_VERSION(1, 8) before it calls what
 * 1.8 added. API 1.8.
 */
uint32_t vpux_version(void);

/**
 * vpux_device_count() - how many devices vpux_device_open_index() knows
 * @count: out: the vpux_accel nodes of /dev/accel this process can open
 *	(their driver, by drmGetVersion(), is vpux_accel), then the
 *	in-process model, which is always there: at least 1
 *
 * Return: 0, or VPUX_E_INVAL (NULL @count). API 1.8.
 */
int vpux_device_count(unsigned int *count);
/**
 * vpux_device_name() - the name vpux_device_open() takes for device
 * @index: "/dev/accel/accelN" for the nodes, in the order of N, then
 *	"inproc"
 * @name: out: NUL-terminated
 * @len: bytes at @name
 *
 * Return: 0; VPUX_E_NODEV (@index at or past vpux_device_count(): the
 * message says how many there are), VPUX_E_INVAL (NULL @name, or @len
 * too small for the name). API 1.8.
 */
int vpux_device_name(unsigned int index, char *name, size_t len);
/**
 * vpux_device_open_index() - vpux_device_open() of vpux_device_name(@index)
 *
 * Index 0 is the first NPU behind the kernel driver when there is one,
 * else the in-process model. Return: as vpux_device_name() and
 * vpux_device_open(). API 1.8.
 */
int vpux_device_open_index(unsigned int index, struct vpux_device **out);

/*
 * Where the engine core (the firmware's scheduler) runs: HEADLESS in
 * the host's kernel driver, or in this process for the in-process model;
 * HEADED on the NPU's management core. Jobs and results are the same.
 */
#define VPUX_FW_MODE_HEADLESS	0u
#define VPUX_FW_MODE_HEADED	1u

/* vpux_device_props.features */
#define VPUX_DEV_DMA_4D		(1ull << 0)	/* 4-D strided DMA blocks */
#define VPUX_DEV_MMU		(1ull << 1)	/* a device address space per file */
#define VPUX_DEV_CYCLES		(1ull << 2)	/* per-op device cycles */
#define VPUX_DEV_FAULT_INJECT	(1ull << 3)	/* fault injection */
#define VPUX_DEV_PLANS		(1ull << 4)	/* plans (dynamic shapes) */
#define VPUX_DEV_DMABUF		(1ull << 5)	/* vpux_buffer_export/import */
#define VPUX_DEV_POLL_FD	(1ull << 6)	/* vpux_request_poll_fd() */
#define VPUX_DEV_PRIORITIES	(1ull << 7)	/* request priorities */

/**
 * enum vpux_heap - where vpux_buffer_alloc_ex() takes memory from
 * @VPUX_HEAP_SYSTEM: system memory (DRAM) the NPU reaches through its
 *	MMU: every buffer of vpux_buffer_alloc()
 * @VPUX_HEAP_CMX: the NPU's on-chip memory. Neither backend allocates
 *	buffers there today (the kernel exposes CMX only to the loadable's
 *	tensors, by tile and offset, Documentation/loadable.rst): the
 *	allocation fails with VPUX_E_UNSUPPORTED; vpux_device_props.heaps
 *	says which heaps a device has
 */
enum vpux_heap {
	VPUX_HEAP_SYSTEM = 0,
	VPUX_HEAP_CMX = 1,
};

/**
 * struct vpux_device_props - what a device is (vpux_device_get_props())
 * @size: set by the caller to sizeof(struct vpux_device_props) (at least
 *	VPUX_DEVICE_PROPS_SIZE_1_8): libvpux fills that many bytes and
 *	zeroes what it does not know, so the structure can grow at its end
 * @fw_mode: VPUX_FW_MODE_*
 * @name: what vpux_device_open() took: "/dev/accel/accelN" or "inproc"
 * @backend: "ioctl" or "inproc" (as vpux_device_info.backend)
 * @driver: the kernel driver's name ("vpux_accel"), or "inproc"
 * @target: VPUX_TARGET_*
 * @uapi_major: the kernel driver's uapi version; 0 in process
 * @uapi_minor: likewise
 * @engines: engines per kind (DMA, DPU, SHAVE)
 * @num_tiles: on-chip memory (CMX) tiles
 * @cmx_tile_bytes: bytes of CMX per tile
 * @cmx_bytes: @num_tiles * @cmx_tile_bytes
 * @caps: VPUX_NET_CAP_* (as vpux_device_info.caps)
 * @features: VPUX_DEV_*
 * @heaps: bit (1 << enum vpux_heap) per heap vpux_buffer_alloc_ex() takes
 * @max_ops: most ops in one task
 * @max_barriers: most barriers in one task
 * @device_id: PCI-style device id
 * @revision: hardware revision, major << 16 | minor
 * @clock_khz: device cycle counter frequency
 * @serial: per-device serial number
 * @memory_bytes: system memory the device's buffers may take together
 *	(the kernel's BO memory limit; the model's arena in process)
 */
struct vpux_device_props {
	uint32_t size;
	uint32_t fw_mode;
	char name[64];
	char backend[16];
	char driver[32];
	uint32_t target;
	uint32_t uapi_major;
	uint32_t uapi_minor;
	uint32_t engines[3];
	uint32_t num_tiles;
	uint32_t cmx_tile_bytes;
	uint64_t cmx_bytes;
	uint64_t caps;
	uint64_t features;
	uint32_t heaps;
	uint32_t max_ops;
	uint32_t max_barriers;
	uint32_t device_id;
	uint32_t revision;
	uint32_t clock_khz;
	uint64_t serial;
	uint64_t memory_bytes;
};

/* the size of struct vpux_device_props in API 1.8, the least @size taken */
#define VPUX_DEVICE_PROPS_SIZE_1_8	216u

/**
 * vpux_device_get_props() - what @dev is
 * @dev: device
 * @props: out; @props->size set by the caller
 *
 * Return: 0, or VPUX_E_INVAL (NULL argument, @props->size below
 * VPUX_DEVICE_PROPS_SIZE_1_8). API 1.8.
 */
int vpux_device_get_props(struct vpux_device *dev,
			  struct vpux_device_props *props);

/**
 * vpux_device_cycles() - the device's cycle counter now
 * @dev: device
 * @cycles: out; cycles of the device's clock (vpux_device_props.clock_khz)
 *
 * The counter every request's device_cycles and op times are read on:
 * two readings around a run give the device time the run took, whatever
 * the host did meanwhile (the model's clock is virtual: it advances by
 * the cycles of the ops it executes, engines in parallel;
 * Documentation/hw-model.rst, "Cycle model").
 *
 * Return: 0; VPUX_E_INVAL (NULL argument); VPUX_E_UNSUPPORTED through a
 * kernel without DRM_VPUX_PARAM_CYCLES. API 1.8.
 */
int vpux_device_cycles(struct vpux_device *dev, uint64_t *cycles);

/*
 * vpux_buffer_params.flags (and vpux_buffer_flags())
 * VPUX_BUFFER_CACHED: CPU mappings are cached (the kernel's default)
 * VPUX_BUFFER_WC: CPU mappings are write-combined (fast streaming
 *	writes, slow reads); excludes CACHED
 * VPUX_BUFFER_DEVICE_READONLY: the NPU only reads the buffer: a request
 *	that binds it as an output fails at submit with VPUX_E_PERM
 * VPUX_BUFFER_IMPORTED: (vpux_buffer_flags() only) a dma-buf imported
 *	with vpux_buffer_import()
 * VPUX_BUFFER_CPU_READONLY: (vpux_buffer_flags() only) the CPU mapping
 *	is read-only (an import of a dma-buf exported read-only)
 * In process the CPU mapping is the model's memory either way: CACHED
 * and WC are recorded and change nothing.
 */
#define VPUX_BUFFER_CACHED		(1u << 0)
#define VPUX_BUFFER_WC			(1u << 1)
#define VPUX_BUFFER_DEVICE_READONLY	(1u << 2)
#define VPUX_BUFFER_IMPORTED		(1u << 3)
#define VPUX_BUFFER_CPU_READONLY	(1u << 4)

/**
 * struct vpux_buffer_params - what vpux_buffer_alloc_ex() allocates
 * @size: sizeof(struct vpux_buffer_params) (at least
 *	VPUX_BUFFER_PARAMS_SIZE_1_8); bytes past what this libvpux knows
 *	must be zero (VPUX_E_UNSUPPORTED otherwise)
 * @heap: enum vpux_heap
 * @flags: VPUX_BUFFER_CACHED, VPUX_BUFFER_WC, VPUX_BUFFER_DEVICE_READONLY
 * @reserved: 0
 * @bytes: the buffer's size, > 0
 */
struct vpux_buffer_params {
	uint32_t size;
	uint32_t heap;
	uint32_t flags;
	uint32_t reserved;
	uint64_t bytes;
};

#define VPUX_BUFFER_PARAMS_SIZE_1_8	24u

/**
 * vpux_buffer_alloc_ex() - vpux_buffer_alloc() from a heap, with flags
 * @dev: device
 * @params: what to allocate
 * @out: the buffer, zeroed, freed with vpux_buffer_free()
 *
 * Return: 0; VPUX_E_INVAL (NULL argument, @params->size too small,
 * @bytes 0, an unknown heap or flag, CACHED with WC, reserved not 0: the
 * message names it), VPUX_E_UNSUPPORTED (a heap the device does not
 * allocate from, or non-zero bytes past the known fields), VPUX_E_NOMEM.
 * API 1.8.
 */
int vpux_buffer_alloc_ex(struct vpux_device *dev,
			 const struct vpux_buffer_params *params,
			 struct vpux_buffer **out);
/** vpux_buffer_flags() - VPUX_BUFFER_* of @buf (0 for NULL). API 1.8. */
unsigned int vpux_buffer_flags(const struct vpux_buffer *buf);

/* vpux_buffer_sync() directions */
#define VPUX_SYNC_TO_DEVICE	1u
#define VPUX_SYNC_FROM_DEVICE	2u

/**
 * vpux_buffer_sync() - make CPU access and NPU access of @buf agree
 * @buf: buffer
 * @dir: VPUX_SYNC_TO_DEVICE after the CPU wrote it, before a submit
 *	that reads it; VPUX_SYNC_FROM_DEVICE before the CPU reads what the
 *	NPU wrote
 * @offset: first byte
 * @size: bytes from @offset; 0: to the end of the buffer
 *
 * The buffers are system memory the CPU maps and the NPU reaches through
 * its MMU, so no copy is made (unlike XRT's bo.sync()). Through the
 * kernel: FROM_DEVICE first waits until no job of any process that uses
 * the buffer still runs (BO_WAIT, uapi 1.5); for an imported dma-buf
 * both directions also bracket the access with DMA_BUF_IOCTL_SYNC, which
 * does the exporter's cache maintenance. In process: a memory fence (the
 * model writes this process's memory; vpux_request_wait() orders it).
 * Portable programs call it where XRT programs call bo.sync().
 *
 * Return: 0; VPUX_E_INVAL (NULL @buf, unknown @dir, the range outside
 * the buffer), or the kernel's error. API 1.8.
 */
int vpux_buffer_sync(struct vpux_buffer *buf, unsigned int dir,
		     size_t offset, size_t size);

/* vpux_buffer_export() flags */
/*
 * VPUX_EXPORT_READONLY: importers may only read (no DRM_RDWR); only on
 * a buffer's first export: DRM keeps a BO's dma-buf, later exports give
 * that one again
 */
#define VPUX_EXPORT_READONLY	(1u << 0)

/**
 * vpux_buffer_export() - a dma-buf file descriptor of @buf (PRIME)
 * @buf: a buffer of a kernel-driver device
 * @flags: VPUX_EXPORT_*
 * @fd: out: the dma-buf, close-on-exec; the caller closes it
 *
 * Another process, driver or device imports it (vpux_buffer_import());
 * the memory lives while any of them holds it.
 *
 * Return: 0; VPUX_E_INVAL (NULL argument, unknown flag),
 * VPUX_E_UNSUPPORTED (the in-process backend: its memory is this
 * process's alone), or the kernel's error. API 1.8.
 */
int vpux_buffer_export(struct vpux_buffer *buf, unsigned int flags, int *fd);
/**
 * vpux_buffer_import() - a buffer of @dev over the dma-buf @fd
 * @dev: a kernel-driver device
 * @fd: the dma-buf; not taken over (close it when done with it)
 * @out: the buffer, mapped (read-only when the dma-buf was exported
 *	read-only: VPUX_BUFFER_CPU_READONLY), vpux_buffer_size() the whole
 *	dma-buf; free it with vpux_buffer_free()
 *
 * Importing a buffer of the same device gives a second handle on the
 * same memory.
 *
 * Return: 0; VPUX_E_INVAL (NULL argument, @fd not a dma-buf),
 * VPUX_E_UNSUPPORTED (in process), or the kernel's error. API 1.8.
 */
int vpux_buffer_import(struct vpux_device *dev, int fd,
		       struct vpux_buffer **out);

/**
 * vpux_request_poll_fd() - a file descriptor that becomes readable when
 * the request's last submitted run ends
 * @req: a submitted request
 * @fd: out: for poll(), select() or epoll (POLLIN); close-on-exec, the
 *	caller closes it. Through the kernel a sync_file of the job's
 *	fence (its out-syncobj, drmSyncobjExportSyncFile()); in process an
 *	eventfd a thread of libvpux signals; do not read from it. It
 *	stays readable once signalled, also when the run failed or the
 *	request was destroyed: vpux_request_wait() or
 *	vpux_request_status() give the result
 *
 * Each call gives a new descriptor of the last submit. Return: 0;
 * VPUX_E_INVAL (NULL argument), VPUX_E_STATE (never submitted),
 * VPUX_E_UNSUPPORTED (a kernel older than uapi 1.5), VPUX_E_NOMEM.
 * API 1.8.
 */
int vpux_request_poll_fd(struct vpux_request *req, int *fd);

/**
 * vpux_request_submit_many() - submit @n requests in one call
 * @reqs: the requests, of one device, none twice
 * @n: 1 or more
 * @submitted: out (may be NULL): how many were submitted, from reqs[0]
 *
 * Everything that can be checked first is checked for every request
 * before any is submitted: arguments, one device, no request twice,
 * every input, output and symbol bound, none still running; a refused
 * call submits nothing (*@submitted 0). Then they are submitted in
 * order: if the device refuses request k (VPUX_E_BUSY for no free task
 * slot, VPUX_E_NOMEM, VPUX_E_PERM ...), requests
 * 0..k-1 run (*@submitted k: wait for them as usual) and k.. do not; the
 * message names request k.
 *
 * Return: 0 (all submitted), VPUX_E_INVAL, VPUX_E_UNBOUND, VPUX_E_STATE,
 * or request k's error. API 1.8.
 */
int vpux_request_submit_many(struct vpux_request *const *reqs, unsigned int n,
			     unsigned int *submitted);

/* ---- why a request failed (API 1.9) ---- */

/*
 * The category of a failure: a small stable set a program switches on
 * (the kernel's DRM_VPUX_ERR_*, the same values). A later API may add a
 * category; treat one you do not know as VPUX_ERROR_DEVICE.
 */
enum vpux_error_category {
	VPUX_ERROR_NONE = 0,	/* no failure (done, running or idle) */
	VPUX_ERROR_INVALID = 1,	/* the device refused the task: a rule */
	VPUX_ERROR_FAULT = 2,	/* an op raised an MMU fault */
	VPUX_ERROR_HANG = 3,	/* it hung and was stopped */
	VPUX_ERROR_ENGINE = 4,	/* an engine reported an error */
	VPUX_ERROR_ABORTED = 5,	/* stopped or never run, not its fault */
	VPUX_ERROR_DEVICE = 6,	/* the device, firmware or kernel failed */
};

/**
 * vpux_request_error() - why the request's last run failed
 * @req: the request
 * @category: out, enum vpux_error_category; VPUX_ERROR_NONE unless the
 *	request failed
 * @detail: out (may be NULL), 0 or the engine core's code for it
 *	(Documentation/engine-core.rst: 100..199 the validation rule,
 *	200.. run time): informative, its list grows; decide on @category
 *
 * Reads the request's status as vpux_request_status() does. API 1.9.
 *
 * Return: 0; VPUX_E_INVAL for a NULL @req or @category; or the
 * status's error.
 */
int vpux_request_error(struct vpux_request *req, unsigned int *category,
		       uint32_t *detail);
/**
 * vpux_error_category_name() - "NONE", "INVALID", "FAULT", "HANG",
 * "ENGINE", "ABORTED", "DEVICE"; "UNKNOWN" for another value. API 1.9.
 */
const char *vpux_error_category_name(unsigned int category);

#ifdef __cplusplus
}
#endif

#endif /* VPUX_H */
