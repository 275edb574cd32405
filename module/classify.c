// SPDX-License-Identifier: GPL-2.0
/*
 * Task classes with hysteresis. Pure C: also built into the host unit
 * tests (selftests/unit/test_classify.c).
 *
 *             avg >= small_up          util >= big_up, or saturated
 *     SMALL ------------------> MEDIUM ---------------------------> BIG
 *           <------------------        <---------------------------
 *             avg < small_down          avg < big_down, not saturated
 *
 * Becoming big is urgent and follows util, the quick signal: a task that
 * turns busy on a big CPU is big within one window. So is a task that
 * saturates its CPU (util at least HMPGOV_SATURATED/1024 of its
 * capacity, and avg at least HMPGOV_SATURATED_AVG/1024 of it, so that
 * one burst of up to about 15 ms from a 10 % average does not count; from
 * idle that takes about one half-life): on a little CPU a fully busy task reads only that
 * CPU's capacity (446), which is under big_up, yet it needs a bigger CPU.
 * Leaving small is not urgent (a medium task just keeps its mask) and
 * follows avg, as every down-move does: a periodic task is judged by its
 * duty cycle, not by the peak its quick signal shows right after each
 * burst, nor by one stretched slice.
 * A down-move goes only as far as util also allows, so a busy task whose
 * average has not built up yet stays big.
 */
#include "hmpgov/classify.h"

const char *const hmpgov_class_names[HMPGOV_NR_CLASSES] = {
	[HMPGOV_CLASS_SMALL] = "small",
	[HMPGOV_CLASS_MEDIUM] = "medium",
	[HMPGOV_CLASS_BIG] = "big",
};

int hmpgov_thresholds_check(const struct hmpgov_thresholds *t)
{
	if (t->small_down < 1 || t->small_down >= t->small_up ||
	    t->small_up > t->big_down || t->big_down >= t->big_up ||
	    t->big_up > HMPGOV_CAPACITY_SCALE)
		return -EINVAL;
	return 0;
}

enum hmpgov_class hmpgov_classify(enum hmpgov_class cur, u32 util, u32 avg,
				  u32 cap, const struct hmpgov_thresholds *t)
{
	bool saturated = (u64)util * HMPGOV_CAPACITY_SCALE >=
			 (u64)cap * HMPGOV_SATURATED &&
			 (u64)avg * HMPGOV_CAPACITY_SCALE >=
			 (u64)cap * HMPGOV_SATURATED_AVG;
	enum hmpgov_class up = util >= t->big_up || saturated ? HMPGOV_CLASS_BIG :
			       avg >= t->small_up ? HMPGOV_CLASS_MEDIUM :
			       HMPGOV_CLASS_SMALL;
	enum hmpgov_class down = saturated ? HMPGOV_CLASS_BIG :
				 avg < t->small_down ? HMPGOV_CLASS_SMALL :
				 avg < t->big_down ? HMPGOV_CLASS_MEDIUM :
				 HMPGOV_CLASS_BIG;

	if (up > cur)
		return up;
	/* down only as far as neither signal holds it up */
	if (up > down)
		down = up;
	return down < cur ? down : cur;
}

enum hmpgov_class hmpgov_class_next(enum hmpgov_class cur, u64 since, u64 now,
				    u32 util, u32 avg, u32 cap,
				    const struct hmpgov_thresholds *t,
				    u64 hold_ns)
{
	enum hmpgov_class to = hmpgov_classify(cur, util, avg, cap, t);

	if (to == cur || now - since < hold_ns ||
	    (to < cur && now - since < HMPGOV_SETTLE_NS))
		return cur;
	return to;
}
