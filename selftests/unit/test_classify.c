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
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 420, 160, 446, &def) == HMPGOV_CLASS_SMALL &&
		  hmpgov_classify(HMPGOV_CLASS_SMALL, 446, 222, 446, &def) == HMPGOV_CLASS_SMALL,
		  "one burst that fills a little CPU (util 420-446, avg under half of 446) leaves a small task small");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 446, 223, 446, &def) == HMPGOV_CLASS_BIG,
		  "one that has filled it for a while (avg 223, half of 446) is big");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_MEDIUM, 300, 300, 446, &def) == HMPGOV_CLASS_MEDIUM,
		  "a task using 2/3 of a little CPU stays medium");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_SMALL, 600, 120, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "one stretched slice (util 600, avg 120) does not lift a small task");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 940, 100, 1024, &def) == HMPGOV_CLASS_BIG,
		  "a new busy task whose average is still low stays big");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 300, 100, 1024, &def) == HMPGOV_CLASS_SMALL,
		  "a big task whose average fell under small_down goes small");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 750, 100, 1024, &def) == HMPGOV_CLASS_BIG,
		  "a down-move goes only as far as util allows: util 750 (not saturated), avg 100 stays big");
	TAP_CHECK(hmpgov_classify(HMPGOV_CLASS_BIG, 300, 300, 1024, &def) == HMPGOV_CLASS_MEDIUM,
		  "util 300 and avg 300 take a big task to medium, not lower");
}

#define MS	1000000ULL

/* The holds of hmpgov_class_next(): 32 ms before a down-move (documented). */
static void test_holds(void)
{
	u64 t0 = 5000 * MS;

	TAP_CHECK(hmpgov_class_next(HMPGOV_CLASS_BIG, t0, t0 + 32 * MS - 1, 100, 100,
				    1024, &def, 0) == HMPGOV_CLASS_BIG,
		  "settle: no down-move 31.999999 ms after the class was taken");
	TAP_CHECK(hmpgov_class_next(HMPGOV_CLASS_BIG, t0, t0 + 32 * MS, 100, 100,
				    1024, &def, 0) == HMPGOV_CLASS_SMALL,
		  "settle: the down-move at 32 ms");
	TAP_CHECK(hmpgov_class_next(HMPGOV_CLASS_MEDIUM, t0, t0 + 1, 900, 900,
				    1024, &def, 0) == HMPGOV_CLASS_BIG,
		  "settle: an up-move at once");
	TAP_CHECK(hmpgov_class_next(HMPGOV_CLASS_MEDIUM, t0, t0 + 16 * MS - 1, 900, 900,
				    1024, &def, 16 * MS) == HMPGOV_CLASS_MEDIUM,
		  "class_hold 16 ms holds an up-move for 15.999999 ms");
	TAP_CHECK(hmpgov_class_next(HMPGOV_CLASS_MEDIUM, t0, t0 + 16 * MS, 900, 900,
				    1024, &def, 16 * MS) == HMPGOV_CLASS_BIG,
		  "and lets it through at 16 ms");
	TAP_CHECK(hmpgov_class_next(HMPGOV_CLASS_BIG, t0, t0 + 40 * MS, 100, 100,
				    1024, &def, 50 * MS) == HMPGOV_CLASS_BIG,
		  "class_hold 50 ms holds a down-move past the 32 ms settle");
}

/*
 * Random signals: classes change only as the thresholds say (hysteresis:
 * an up-move needs its up bound, a down-move its down bound), and never
 * sooner than the holds allow.
 */
/* The saturation rule, written out: 80 % now and half on average. */
static bool saturated(u32 util, u32 avg, u32 cap)
{
	return util * 1024 >= cap * 819 && avg * 1024 >= cap * 512;
}

static void test_properties(void)
{
	unsigned int i, bad_up = 0, bad_down = 0, bad_hold = 0, changes = 0;
	enum hmpgov_class c = HMPGOV_CLASS_MEDIUM, to;
	u64 now = 1000 * MS, since = now, hold;
	u32 util, avg, cap;

	for (i = 0; i < 200000; i++) {
		now += tap_rand(3) ? 4 * MS : 1 + tap_rand(40 * MS);
		avg = tap_rand(1025);
		util = avg + tap_rand(1025 - avg);
		cap = tap_rand(2) ? 1024 : 446;
		hold = tap_rand(2) ? 16 * MS : 0;
		to = hmpgov_class_next(c, since, now, util, avg, cap, &def, hold);
		if (to == c)
			continue;
		changes++;
		if (now - since < hold || (to < c && now - since < 32 * MS))
			bad_hold++;
		if (to > c && !(to == HMPGOV_CLASS_BIG ?
				util >= def.big_up || saturated(util, avg, cap) :
				avg >= def.small_up))
			bad_up++;
		if (to < c && !(to == HMPGOV_CLASS_SMALL ? avg < def.small_down :
				avg < def.big_down))
			bad_down++;
		if (to < c && (util >= def.big_up || saturated(util, avg, cap)))
			bad_down++;	/* util still asks for big */
		c = to;
		since = now;
	}
	TAP_CHECK(changes > 1000 && !bad_hold,
		  "properties: %u class changes, none sooner than its hold", changes);
	TAP_CHECK(!bad_up, "properties: every up-move had its up bound");
	TAP_CHECK(!bad_down, "properties: every down-move had its down bound, and util allowed it");
}

int main(void)
{
	test_check();
	test_hysteresis();
	test_holds();
	test_properties();
	return tap_done();
}
