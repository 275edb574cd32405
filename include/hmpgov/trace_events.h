/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hmpgov's own trace events, in tracefs under events/hmpgov/:
 *
 *   hmpgov_class  a task changed class (probe context)
 *   hmpgov_place  the worker gave a task a new mask and/or uclamp request
 *                 (or, in observe mode, would have): applied=0 in observe
 *                 mode; util_min/util_max are the request (0 and 1024
 *                 without uclamp steering); reason is the rule that
 *                 decided (enum hmpgov_why, placement.h), cluster the
 *                 cluster a big task was given (-1: none)
 *   hmpgov_pack   the packing set (rule 1) changed: its CPUs, how many,
 *                 whether small tasks overflow the little CPUs, and the
 *                 small tasks' summed avg that decided it
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hmpgov

#if !defined(HMPGOV_TRACE_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define HMPGOV_TRACE_EVENTS_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

TRACE_EVENT(hmpgov_class,
	TP_PROTO(pid_t pid, const char *comm, u32 util, u32 from, u32 to),
	TP_ARGS(pid, comm, util, from, to),
	TP_STRUCT__entry(
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(u32, util)
		__field(u32, from)
		__field(u32, to)
	),
	TP_fast_assign(
		__entry->pid = pid;
		memcpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->util = util;
		__entry->from = from;
		__entry->to = to;
	),
	TP_printk("pid=%d comm=%s util=%u from=%s to=%s", __entry->pid,
		  __entry->comm, __entry->util,
		  __print_symbolic(__entry->from, { 0, "small" }, { 1, "medium" }, { 2, "big" }),
		  __print_symbolic(__entry->to, { 0, "small" }, { 1, "medium" }, { 2, "big" }))
);

TRACE_EVENT(hmpgov_place,
	TP_PROTO(pid_t pid, const char *comm, u32 class, u64 mask,
		 u32 util_min, u32 util_max, bool applied, u32 why,
		 int cluster),
	TP_ARGS(pid, comm, class, mask, util_min, util_max, applied, why,
		cluster),
	TP_STRUCT__entry(
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(u32, class)
		__field(u64, mask)
		__field(u32, util_min)
		__field(u32, util_max)
		__field(bool, applied)
		__field(u32, why)
		__field(int, cluster)
	),
	TP_fast_assign(
		__entry->pid = pid;
		memcpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->class = class;
		__entry->mask = mask;
		__entry->util_min = util_min;
		__entry->util_max = util_max;
		__entry->applied = applied;
		__entry->why = why;
		__entry->cluster = cluster;
	),
	TP_printk("pid=%d comm=%s class=%s mask=%llx util_min=%u util_max=%u applied=%d reason=%s cluster=%d",
		  __entry->pid, __entry->comm,
		  __print_symbolic(__entry->class, { 0, "small" }, { 1, "medium" }, { 2, "big" }),
		  __entry->mask, __entry->util_min, __entry->util_max,
		  __entry->applied,
		  __print_symbolic(__entry->why, { 0, "packed" }, { 1, "pack_overflow" },
				   { 2, "small_outside_pack" }, { 3, "medium_keeps_base" },
				   { 4, "big_on_cluster" }, { 5, "big_no_room" },
				   { 6, "deferred_interval" }, { 7, "deferred_pass_full" },
				   { 8, "excluded" }),
		  __entry->cluster)
);

TRACE_EVENT(hmpgov_pack,
	TP_PROTO(u64 cpus, u32 nr, bool overflow, u64 sum),
	TP_ARGS(cpus, nr, overflow, sum),
	TP_STRUCT__entry(
		__field(u64, cpus)
		__field(u32, nr)
		__field(bool, overflow)
		__field(u64, sum)
	),
	TP_fast_assign(
		__entry->cpus = cpus;
		__entry->nr = nr;
		__entry->overflow = overflow;
		__entry->sum = sum;
	),
	TP_printk("cpus=%llx nr=%u overflow=%d small_sum=%llu",
		  __entry->cpus, __entry->nr, __entry->overflow, __entry->sum)
);

#endif /* HMPGOV_TRACE_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH hmpgov
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_events
#include <trace/define_trace.h>
