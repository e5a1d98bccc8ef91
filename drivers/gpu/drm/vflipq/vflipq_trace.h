/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace events of the hardware flip queue: what was queued, what reached
 * the screen when, what was cancelled, every log entry and every interrupt;
 * and of the composer: each composition, with how much of the frame it
 * recomposed (the benchmarks time it from the events' timestamps).
 * Enable with: echo 1 > /sys/kernel/tracing/events/vflipq/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vflipq

#if !defined(_VFLIPQ_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _VFLIPQ_TRACE_H_

#include <linux/tracepoint.h>

TRACE_EVENT(vflipq_flip_queue,
	    TP_PROTO(u32 crtc_id, u32 plane_id, u64 present_id, u64 target_ns,
		     u32 mode),
	    TP_ARGS(crtc_id, plane_id, present_id, target_ns, mode),
	    TP_STRUCT__entry(__field(u32, crtc_id)
			     __field(u32, plane_id)
			     __field(u64, present_id)
			     __field(u64, target_ns)
			     __field(u32, mode)),
	    TP_fast_assign(__entry->crtc_id = crtc_id;
			   __entry->plane_id = plane_id;
			   __entry->present_id = present_id;
			   __entry->target_ns = target_ns;
			   __entry->mode = mode;),
	    TP_printk("crtc=%u plane=%u present_id=%llu target=%llu mode=%u",
		      __entry->crtc_id, __entry->plane_id, __entry->present_id,
		      __entry->target_ns, __entry->mode)
);

TRACE_EVENT(vflipq_flip_show,
	    TP_PROTO(u32 crtc_id, u32 plane_id, u64 present_id, u64 ts_ns,
		     u64 seq),
	    TP_ARGS(crtc_id, plane_id, present_id, ts_ns, seq),
	    TP_STRUCT__entry(__field(u32, crtc_id)
			     __field(u32, plane_id)
			     __field(u64, present_id)
			     __field(u64, ts_ns)
			     __field(u64, seq)),
	    TP_fast_assign(__entry->crtc_id = crtc_id;
			   __entry->plane_id = plane_id;
			   __entry->present_id = present_id;
			   __entry->ts_ns = ts_ns;
			   __entry->seq = seq;),
	    TP_printk("crtc=%u plane=%u present_id=%llu ts=%llu seq=%llu",
		      __entry->crtc_id, __entry->plane_id, __entry->present_id,
		      __entry->ts_ns, __entry->seq)
);

TRACE_EVENT(vflipq_flip_cancel,
	    TP_PROTO(u32 crtc_id, u32 plane_id, u64 requested, u64 cancelled),
	    TP_ARGS(crtc_id, plane_id, requested, cancelled),
	    TP_STRUCT__entry(__field(u32, crtc_id)
			     __field(u32, plane_id)
			     __field(u64, requested)
			     __field(u64, cancelled)),
	    TP_fast_assign(__entry->crtc_id = crtc_id;
			   __entry->plane_id = plane_id;
			   __entry->requested = requested;
			   __entry->cancelled = cancelled;),
	    TP_printk("crtc=%u plane=%u requested=%llu cancelled=%llu",
		      __entry->crtc_id, __entry->plane_id, __entry->requested,
		      __entry->cancelled)
);

TRACE_EVENT(vflipq_log_update,
	    TP_PROTO(u32 crtc_id, u32 plane_id, u64 present_id, u64 ts_ns,
		     u32 index),
	    TP_ARGS(crtc_id, plane_id, present_id, ts_ns, index),
	    TP_STRUCT__entry(__field(u32, crtc_id)
			     __field(u32, plane_id)
			     __field(u64, present_id)
			     __field(u64, ts_ns)
			     __field(u32, index)),
	    TP_fast_assign(__entry->crtc_id = crtc_id;
			   __entry->plane_id = plane_id;
			   __entry->present_id = present_id;
			   __entry->ts_ns = ts_ns;
			   __entry->index = index;),
	    TP_printk("crtc=%u plane=%u [%u] present_id=%llu ts=%llu%s",
		      __entry->crtc_id, __entry->plane_id, __entry->index,
		      __entry->present_id, __entry->ts_ns,
		      __entry->ts_ns == ~0ULL ? " (cancelled)" : "")
);

TRACE_EVENT(vflipq_flipq_irq,
	    TP_PROTO(u32 crtc_id, u32 plane_id, u64 present_id, u64 seq,
		     u32 first_free),
	    TP_ARGS(crtc_id, plane_id, present_id, seq, first_free),
	    TP_STRUCT__entry(__field(u32, crtc_id)
			     __field(u32, plane_id)
			     __field(u64, present_id)
			     __field(u64, seq)
			     __field(u32, first_free)),
	    TP_fast_assign(__entry->crtc_id = crtc_id;
			   __entry->plane_id = plane_id;
			   __entry->present_id = present_id;
			   __entry->seq = seq;
			   __entry->first_free = first_free;),
	    TP_printk("crtc=%u plane=%u present_id=%llu seq=%llu first_free=%u",
		      __entry->crtc_id, __entry->plane_id, __entry->present_id,
		      __entry->seq, __entry->first_free)
);

TRACE_EVENT(vflipq_compose_begin,
	    TP_PROTO(u32 crtc_id, u32 tiles, u32 total),
	    TP_ARGS(crtc_id, tiles, total),
	    TP_STRUCT__entry(__field(u32, crtc_id)
			     __field(u32, tiles)
			     __field(u32, total)),
	    TP_fast_assign(__entry->crtc_id = crtc_id;
			   __entry->tiles = tiles;
			   __entry->total = total;),
	    TP_printk("crtc=%u tiles=%u of %u", __entry->crtc_id,
		      __entry->tiles, __entry->total)
);

TRACE_EVENT(vflipq_compose_end,
	    TP_PROTO(u32 crtc_id, u32 tiles),
	    TP_ARGS(crtc_id, tiles),
	    TP_STRUCT__entry(__field(u32, crtc_id)
			     __field(u32, tiles)),
	    TP_fast_assign(__entry->crtc_id = crtc_id;
			   __entry->tiles = tiles;),
	    TP_printk("crtc=%u tiles=%u", __entry->crtc_id, __entry->tiles)
);

#endif /* _VFLIPQ_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vflipq_trace
#include <trace/define_trace.h>
