// SPDX-License-Identifier: GPL-2.0
/*
 * Task classes with hysteresis. Pure C: also built into the host unit
 * tests (selftests/unit/test_classify.c).
 *
 *             util >= small_up          util >= big_up
 *     SMALL ------------------> MEDIUM ----------------> BIG
 *           <------------------        <----------------
 *             avg < small_down           avg < big_down
 *
 * Up-moves follow util (quick); down-moves follow avg (the half-life),
 * and go only as far as util also allows: a busy task whose average has
 * not built up yet stays big. A task jumps straight to BIG from SMALL,
 * or to SMALL from BIG, when its signal crosses both bounds at once. The minimum time between two
 * moves of one task is applied by the caller.
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
				  const struct hmpgov_thresholds *t)
{
	enum hmpgov_class up = util >= t->big_up ? HMPGOV_CLASS_BIG :
			       util >= t->small_up ? HMPGOV_CLASS_MEDIUM :
			       HMPGOV_CLASS_SMALL;
	enum hmpgov_class down = avg < t->small_down ? HMPGOV_CLASS_SMALL :
				 avg < t->big_down ? HMPGOV_CLASS_MEDIUM :
				 HMPGOV_CLASS_BIG;

	if (up > cur)
		return up;
	/* down only as far as neither signal holds it up */
	if (up > down)
		down = up;
	return down < cur ? down : cur;
}
