/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task classes from the utilization signal, with hysteresis: separate up
 * and down thresholds between small and medium and between medium and
 * big. Pure C; docs/placement.md explains the defaults.
 */
#ifndef HMPGOV_CLASSIFY_H
#define HMPGOV_CLASSIFY_H

#include "pure.h"

enum hmpgov_class {
	HMPGOV_CLASS_SMALL,	/* packed on the little CPUs (rule 1) */
	HMPGOV_CLASS_MEDIUM,	/* keeps the user's mask */
	HMPGOV_CLASS_BIG,	/* on the biggest CPUs with room (rule 3) */
	HMPGOV_NR_CLASSES,
};

extern const char *const hmpgov_class_names[HMPGOV_NR_CLASSES];

/* On the 0..1024 utilization scale. */
struct hmpgov_thresholds {
	u32 small_down;	/* a medium or big task below this becomes small */
	u32 small_up;	/* a small task at or above this becomes medium */
	u32 big_down;	/* a big task below this becomes medium */
	u32 big_up;	/* a task at or above this becomes big */
};

/* Defaults: docs/placement.md. */
#define HMPGOV_SMALL_DOWN	160
#define HMPGOV_SMALL_UP		256
#define HMPGOV_BIG_DOWN		512
#define HMPGOV_BIG_UP		700

/*
 * 0 if 1 <= small_down < small_up <= big_down < big_up <= 1024, else
 * -EINVAL.
 */
int hmpgov_thresholds_check(const struct hmpgov_thresholds *t);

/*
 * A task saturates its CPU when its quick signal reads this share (/1024)
 * of the CPU's capacity and its average at least HMPGOV_SATURATED_AVG of
 * it: it has filled the CPU for a while, not for one burst. From a 10 %
 * average, a 15 ms burst lifts the average to about 35 % (half-life
 * 32 ms); a task that turns busy on a little CPU reaches half in about
 * 27 ms.
 */
#define HMPGOV_SATURATED	819
#define HMPGOV_SATURATED_AVG	512

/*
 * The class a task of class @cur moves to, from @util (the quick signal:
 * the larger of average and recent demand), @avg (the average alone,
 * which decays on the half-life) and @cap, the capacity of the CPU it
 * runs on. See classify.c.
 */
enum hmpgov_class hmpgov_classify(enum hmpgov_class cur, u32 util, u32 avg,
				  u32 cap, const struct hmpgov_thresholds *t);

/*
 * No task moves down sooner than this after it took its class (a task
 * hmpgov has just begun to track took medium then): two windows of the
 * signal (util_signal.h), time for it to say what the task is. A busy
 * task just moved from a little CPU to a big one reads only the little
 * CPU's capacity until its signal has seen the big one, and was demoted
 * to medium 12 ms after it turned big (bench-speed's trace). A new task
 * is medium: it keeps its mask and counts in no packing sum. A busy task
 * still turns big at once. Two busy tasks forked together and packed
 * onto one little CPU as small would each get half of it, and look
 * neither big nor saturated; the short commands a shell forks would
 * count as small load.
 */
#define HMPGOV_SETTLE_NS	(32ULL * 1000 * 1000)

/*
 * The class a tracked task of class @cur, taken at @since (ns), has at
 * @now: hmpgov_classify()'s, held where a change would come sooner than
 * @hold_ns (class_hold_ms) after the last one, or a down-move sooner than
 * HMPGOV_SETTLE_NS.
 */
enum hmpgov_class hmpgov_class_next(enum hmpgov_class cur, u64 since, u64 now,
				    u32 util, u32 avg, u32 cap,
				    const struct hmpgov_thresholds *t,
				    u64 hold_ns);

#endif /* HMPGOV_CLASSIFY_H */
