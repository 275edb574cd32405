/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hmpgov's per-task utilization signal: scale- and frequency-invariant,
 * independent of priority, quick to rise and decaying on a half-life.
 * Pure C; the design and its constants are in docs/load-tracking.md.
 */
#ifndef HMPGOV_UTIL_SIGNAL_H
#define HMPGOV_UTIL_SIGNAL_H

#include "pure.h"

/*
 * The average keeps this many bits below the 0..1024 scale, so that the
 * small steps of short slices are not lost to rounding.
 */
#define HMPGOV_AVG_SHIFT	10

/* The window over which recent demand is measured (WALT's best case). */
#define HMPGOV_WINDOW_NS	16000000U

/*
 * State of one task. Busy time is kept "scaled": nanoseconds of running
 * multiplied by capacity/1024 and by cur/max frequency, so a window's worth
 * of scaled busy time is what the biggest CPU at full speed does in it.
 */
struct hmpgov_util {
	u64 win_start;	/* start of the current window, ns */
	u32 win_busy;	/* scaled busy ns in the current window */
	u32 prev_busy;	/* scaled busy ns in the previous window */
	u32 avg;	/* average at the last accounted instant, 0..1024 << AVG_SHIFT */
	u32 last_off;	/* last accounted instant, ns after win_start */
};

/*
 * The signal's functions take the half-life as a rate, ceil(2^63 / ns),
 * computed once when the half-life is set, so that they divide by no
 * variable: half-lives of 1 us to 34 s.
 */
u64 hmpgov_halflife_rate(u32 halflife_ns);

/* v * 2^(-dt / halflife): exact at the table's 1/32 steps, O(1). */
u32 hmpgov_decay(u32 v, u64 dt_ns, u64 rate);

void hmpgov_util_init(struct hmpgov_util *u, u64 now);

/*
 * Account @delta_ns of running that ended at @now, on a CPU of capacity
 * @cap (1..1024) running at @freq (cur/max, 1..1024).
 */
void hmpgov_util_account(struct hmpgov_util *u, u64 now, u64 delta_ns,
			 u32 cap, u32 freq, u64 rate);

/*
 * The utilization at @now, 0..1024: the larger of the decayed average and
 * the demand of the last window's length. @u is not modified.
 */
u32 hmpgov_util_read(const struct hmpgov_util *u, u64 now, u64 rate);

/*
 * hmpgov_util_read() for a task that has been running since @since (on a
 * CPU of capacity @cap at @freq) and is still running at @now: the part
 * of that run not yet accounted is counted in, so a reader sees the
 * signal rise continuously rather than at the scheduler tick.
 */
u32 hmpgov_util_read_running(const struct hmpgov_util *u, u64 now, u64 since,
			     u32 cap, u32 freq, u64 rate);

/*
 * Account the slice of a task that has been running since @since and is
 * still running at @now: what hmpgov_util_read_running() reads.
 */
void hmpgov_util_catch_up(struct hmpgov_util *u, u64 now, u64 since,
			  u32 cap, u32 freq, u64 rate);

/* The average alone at @now, as if asleep since the last accounting. */
u32 hmpgov_util_avg(const struct hmpgov_util *u, u64 now, u64 rate);

#endif /* HMPGOV_UTIL_SIGNAL_H */
