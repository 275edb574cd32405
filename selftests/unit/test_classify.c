// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of the task classes (module/classify.c). */
#include "hmpgov/classify.h"
#include "tap.h"

static const struct hmpgov_thresholds def = {
	HMPGOV_SMALL_DOWN, HMPGOV_SMALL_UP, HMPGOV_BIG_DOWN, HMPGOV_BIG_UP,
};

static void test_check(void)
{
	struct hmpgov_thresholds t = def;

	TAP_CHECK(hmpgov_thresholds_check(&def) == 0, "the defaults are valid");
	t.small_down = 0;
	TAP_CHECK(hmpgov_thresholds_check(&t) == -EINVAL, "small_down 0 is refused");
	t = def;
	t.small_down = t.small_up;
	TAP_CHECK(hmpgov_thresholds_check(&t) == -EINVAL, "small_down == small_up is refused");
	t = def;
	t.small_up = t.big_down + 1;
	TAP_CHECK(hmpgov_thresholds_check(&t) == -EINVAL, "small_up above big_down is refused");
	t = def;
	t.big_down = t.big_up;
	TAP_CHECK(hmpgov_thresholds_check(&t) == -EINVAL, "big_down == big_up is refused");
	t = def;
	t.big_up = 1025;
	TAP_CHECK(hmpgov_thresholds_check(&t) == -EINVAL, "big_up over 1024 is refused");
	t.big_up = 1024;
	TAP_CHECK(hmpgov_thresholds_check(&t) == 0, "big_up 1024 is allowed");
}

static void test_hysteresis(void)
{
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 255, 255, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "small stays small just under small_up");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 256, 256, 1024, &def) == HMPGOV_CLASS_MEDIUM,
		  "small becomes medium at small_up");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 200, 200, 1024, &def) == HMPGOV_CLASS_MEDIUM,
		  "medium stays medium between the small bounds");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 159, 159, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "medium becomes small under small_down");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 699, 699, 1024, &def) == HMPGOV_CLASS_MEDIUM,
		  "medium stays medium just under big_up");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 700, 700, 1024, &def) == HMPGOV_CLASS_BIG,
		  "medium becomes big at big_up");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 600, 600, 1024, &def) == HMPGOV_CLASS_BIG,
		  "big stays big between the big bounds");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 511, 511, 1024, &def) == HMPGOV_CLASS_MEDIUM,
		  "big becomes medium under big_down");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 1024, 1024, 1024, &def) == HMPGOV_CLASS_BIG,
		  "small jumps to big at big_up");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 50, 50, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "big drops to small under small_down");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 190, 102, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "a 10%% task peaking at 190 after each burst goes small on its average");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 190, 102, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "and its peaks do not lift it to medium");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 800, 300, 1024, &def) == HMPGOV_CLASS_BIG,
		  "a task that turns busy goes big on its quick signal");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 300, 600, 1024, &def) == HMPGOV_CLASS_BIG,
		  "a big task whose recent demand dips stays big while its average holds");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 446, 446, 446, &def) == HMPGOV_CLASS_BIG,
		  "a task that fills a little CPU (446 of 446) is big");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 440, 440, 446, &def) == HMPGOV_CLASS_BIG,
		  "and stays big while it fills it (overflow from full big CPUs)");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 300, 300, 446, &def) == HMPGOV_CLASS_MEDIUM,
		  "a task using 2/3 of a little CPU stays medium");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 600, 120, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "one stretched slice (util 600, avg 120) does not lift a small task");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 940, 100, 1024, &def) == HMPGOV_CLASS_BIG,
		  "a new busy task whose average is still low stays big");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 300, 100, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "a big task whose average fell under small_down goes small");
}

int main(void)
{
	test_check();
	test_hysteresis();
	return tap_done();
}
