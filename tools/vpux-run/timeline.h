/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What the NPU did, as a timeline: every op's engine and start and end
 * cycles (vpux_request_op_times()) with what the loadable says of it
 * (vpux_network_op_info()), written as a Chrome trace-event JSON file
 * (Perfetto, chrome://tracing) or drawn as a per-engine bar chart in the
 * terminal. Documentation/profiling.rst.
 */
#ifndef VPUX_TIMELINE_H
#define VPUX_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "vpux.h"

/* One op on the timeline. */
struct tl_op {
	unsigned int kind;	/* 0 DMA, 1 DPU, 2 SHAVE */
	unsigned int index;	/* in its kind's list */
	uint32_t cycles;	/* vpux_request_op_cycles() */
	struct vpux_op_info info;
	struct vpux_op_time t;
	/*
	 * the tensor it writes: an output's or input's full name of any
	 * length (vpux_network_io_name()), else info.output; valid while
	 * the network is loaded
	 */
	const char *output;
};

/* One request's run. */
struct tl_run {
	char name[64];		/* the process name in the trace */
	unsigned int n;
	struct tl_op *ops;	/* DMA ops, then DPU, then SHAVE */
};

/*
 * Fill @run from a finished request of @net (allocates run->ops; free
 * with tl_run_free()). Return: 0 or a VPUX_E_* code.
 */
int tl_collect(struct vpux_network *net, struct vpux_request *req,
	       const char *name, struct tl_run *run);
void tl_run_free(struct tl_run *run);

/*
 * The engine name of global engine @g ("DMA0", "DPU1", ...) for a device
 * with @engines[k] engines of kind k.
 */
void tl_engine_name(const uint32_t engines[3], uint32_t g, char *buf,
		    size_t size);

/*
 * Write @n runs as a Chrome trace-event JSON document: one process per
 * run, one thread (track) per engine, one complete event ("X") per op
 * that started, flow events for the barrier edges. Time is in device
 * cycles, written as nanoseconds (ts and dur in microseconds, so 1 ns on
 * the viewer's axis is 1 cycle). Return: 0 or -1 (errno set).
 */
int tl_write_trace(FILE *f, const struct tl_run *runs, unsigned int n,
		   const uint32_t engines[3]);

/*
 * A per-engine bar chart of @run, @width columns wide: each column shows
 * the op (its index in its kind, in base 36) that covers most of it, '.'
 * idle, '!' an op that started and did not complete (it holds the engine
 * to the end of the chart).
 */
void tl_print(FILE *f, const struct tl_run *run, const uint32_t engines[3],
	      unsigned int width);

#endif /* VPUX_TIMELINE_H */
