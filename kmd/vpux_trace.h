/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of the job path: events/vpux_accel/ in tracefs.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vpux_accel

#if !defined(__VPUX_TRACE_H__) || defined(TRACE_HEADER_MULTI_READ)
#define __VPUX_TRACE_H__

#include <linux/tracepoint.h>

TRACE_EVENT(vpux_job_submit,
	TP_PROTO(const char *dev, u64 seqno, u32 priority, u32 entries),
	TP_ARGS(dev, seqno, priority, entries),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u64, seqno)
		__field(u32, priority)
		__field(u32, entries)
	),
	TP_fast_assign(
		__assign_str(dev);
		__entry->seqno = seqno;
		__entry->priority = priority;
		__entry->entries = entries;
	),
	TP_printk("%s job=%llu priority=%u entries=%u", __get_str(dev),
		  __entry->seqno, __entry->priority, __entry->entries)
);

TRACE_EVENT(vpux_job_run,
	TP_PROTO(const char *dev, u64 seqno, int ctx_slot, int task_id),
	TP_ARGS(dev, seqno, ctx_slot, task_id),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u64, seqno)
		__field(int, ctx_slot)
		__field(int, task_id)
	),
	TP_fast_assign(
		__assign_str(dev);
		__entry->seqno = seqno;
		__entry->ctx_slot = ctx_slot;
		__entry->task_id = task_id;
	),
	TP_printk("%s job=%llu ctx_slot=%d task=%d", __get_str(dev),
		  __entry->seqno, __entry->ctx_slot, __entry->task_id)
);

TRACE_EVENT(vpux_job_done,
	TP_PROTO(const char *dev, u64 seqno, u32 status, int error, u64 cycles),
	TP_ARGS(dev, seqno, status, error, cycles),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u64, seqno)
		__field(u32, status)
		__field(int, error)
		__field(u64, cycles)
	),
	TP_fast_assign(
		__assign_str(dev);
		__entry->seqno = seqno;
		__entry->status = status;
		__entry->error = error;
		__entry->cycles = cycles;
	),
	TP_printk("%s job=%llu status=%u error=%d device_cycles=%llu",
		  __get_str(dev), __entry->seqno, __entry->status,
		  __entry->error, __entry->cycles)
);

TRACE_EVENT(vpux_job_timeout,
	TP_PROTO(const char *dev, u64 seqno, u32 ops_done, bool hung),
	TP_ARGS(dev, seqno, ops_done, hung),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u64, seqno)
		__field(u32, ops_done)
		__field(bool, hung)
	),
	TP_fast_assign(
		__assign_str(dev);
		__entry->seqno = seqno;
		__entry->ops_done = ops_done;
		__entry->hung = hung;
	),
	TP_printk("%s job=%llu ops_done=%u %s", __get_str(dev),
		  __entry->seqno, __entry->ops_done,
		  __entry->hung ? "hung" : "progressing")
);

#endif /* __VPUX_TRACE_H__ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vpux_trace
#include <trace/define_trace.h>
