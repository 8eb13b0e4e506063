/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* libvpux internals: the objects behind the public handles. */
#ifndef VPUX_PRIV_H
#define VPUX_PRIV_H

#include <pthread.h>

#include "backend.h"
#include "host_io.h"
#include "lf.h"
#include "vpux.h"

/* CMX tiles libvpux places requests on (the engine core's limit) */
#define VPUX_DEV_TILES 64u

struct vpux_device {
	const struct vpux_backend_ops *ops;
	void *priv;
	/*
	 * The NPU's on-chip memory (CMX) is not per request: the jobs of
	 * requests of networks with CMX tensors run one after another, in
	 * submission order (backend op submit_ordered, after @cmx_tail: a
	 * copy of the last such job's record, if @has_cmx_tail).
	 */
	pthread_mutex_t cmx_lock;
	char name[64];		/* as opened: "inproc", "/dev/accel/accelN" */
	struct vpux_be_job cmx_tail;
	int has_cmx_tail;
	/*
	 * With a backend that orders per tile (ops->cmx_per_tile): the
	 * last ordered job on each CMX tile (@tile_tail[t], a copy of its
	 * record, if @tile_seq[t] is not 0: its number among the ordered
	 * jobs, @cmx_seq the last one given), instead of @cmx_tail.
	 */
	struct vpux_be_job tile_tail[VPUX_DEV_TILES];
	uint64_t tile_seq[VPUX_DEV_TILES];
	uint64_t cmx_seq;
};

struct vpux_buffer {
	struct vpux_device *dev;
	struct vpux_bo bo;
	size_t size;		/* as requested */
};

/* Address-list slots of every task built from a loadable. */
enum {
	SLOT_TASK = 0,
	SLOT_WEIGHTS = 1,
	SLOT_KARGS = 2,
	SLOT_SCRATCH = 3,
	SLOT_IO = 4,		/* inputs, then outputs */
};

struct vpux_network {
	struct vpux_device *dev;
	struct lf_image img;	/* weights/kargs point at the device copies */
	struct vpux_bo weights, kargs, task;
	uint32_t task_size;
	unsigned int n_slots;	/* fixed address-list slots */
	unsigned int n_list;	/* entries a request passes: + symbols */
	uint32_t *io_tensor;	/* tensor index of input i / output j */
	int uses_cmx;		/* some tensor lives in CMX */
	/*
	 * Tile sets (Documentation/libvpux.rst, "Pipelined requests"): the
	 * loadable's CMX tensors use the tiles of @tile_mask, all below
	 * @tile_span; the task memory holds @n_place copies, copy k at
	 * k * @task_stride with every CMX tile t as k * @tile_span + t, so
	 * requests placed on different copies use disjoint tiles.
	 */
	uint64_t tile_mask;
	unsigned int tile_span, n_place;
	uint32_t task_stride;
	/*
	 * Per output: the SHAVE op whose dynamic output memref writes it
	 * (-1: none, the shape is the bound symbols') and where that op
	 * writes the actual dims (lf_output_dims_src()).
	 */
	int *out_op;
	struct lf_dims_src *out_src;
	/* the host view of the inputs and outputs (host_io.c) */
	struct host_io_table hio;
};

struct vpux_request {
	struct vpux_network *net;
	struct vpux_bo scratch;
	struct vpux_bo prof;	/* per-op cycles, if @has_prof */
	int has_prof;
	struct vpux_be_entry *list;
	struct vpux_be_job job;	/* the backend's record, valid if @has_job */
	int has_job;
	unsigned int prio;	/* enum vpux_priority of the next submit */
	unsigned int place;	/* tile set of the last submit (< n_place) */
	/*
	 * Symbols: the values bound (@sym_bound bit i: symbol i), those
	 * bound since the last submit (@sym_round: vpux_request_set_input_
	 * shape() must agree with them), and for a plan the buffer the
	 * device reads them from (u64 slots, written at submit).
	 */
	uint64_t sym_val[VPUX_LF_MAX_SYMBOLS];
	uint32_t sym_bound, sym_round;
	struct vpux_bo sym;
	int has_sym;
	/*
	 * The output shapes of the last vpux_request_run_reference()
	 * (@ref_ok set by a successful one).
	 */
	struct vpux_shape *ref_shape;
	int ref_ok;
};

/*
 * The CPU reference with symbol values @sym (NULL: none; a network with
 * symbols then runs at their max); a plan is expanded in loadable terms.
 */
int vpux_run_reference_sym(struct vpux_network *net, const uint64_t *sym,
			   const void *const *inputs, void *const *outputs);
/*
 * The same, and (@shapes not NULL) every output's actual shape: a
 * kernel's (as the reference's kernel wrote it, bounds checked) or the
 * symbols' (@sym, or their max).
 */
int vpux_run_reference_shapes(struct vpux_network *net, const uint64_t *sym,
			      const void *const *inputs, void *const *outputs,
			      struct vpux_shape *shapes);
/*
 * The dims of output @i from its kernel's u32 record @rec (bounds
 * checked; the error names the output and the op).
 */
int vpux_kernel_shape(const struct vpux_network *net, unsigned int i,
		      const void *rec, struct vpux_shape *shape);

/*
 * Build the immutable task memory of @net into @mem (net->task_size),
 * its CMX tiles moved up by @tile_shift.
 */
void vpux_task_build(const struct vpux_network *net, void *mem,
		     unsigned int tile_shift);
uint32_t vpux_task_size(const struct lf_image *img);
/*
 * A plan network's task memory @task through the engine core's prepare
 * with every symbol at its min, then at its max (network.c).
 */
int vpux_plan_core_check(const struct vpux_network *net, const void *task);

#endif /* VPUX_PRIV_H */
