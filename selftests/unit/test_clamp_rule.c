// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of the uclamp hint rule (module/clamp_rule.c). */
#include "hmpgov/clamp_rule.h"
#include "tap.h"

static const struct hmpgov_clamp none = { 0, 1024, false, false };

static void test_levels(void)
{
	static const u32 bl[] = { 446, 446, 1024, 1024 };
	static const u32 three[] = { 300, 300, 300, 300, 800, 800, 800, 1024 };
	static const u32 sym[] = { 1024, 1024 };

	TAP_CHECK(hmpgov_clamp_min_for(bl, 4, 1024) == 447,
		  "2+2: a big task's util_min is one above the little capacity");
	TAP_CHECK(hmpgov_clamp_min_for(bl, 4, 446) == HMPGOV_CLAMP_NO_MIN,
		  "2+2: nothing is below the little CPUs");
	TAP_CHECK(hmpgov_clamp_min_for(three, 8, 1024) == 801,
		  "three clusters: the prime CPU's util_min is above the middle ones");
	TAP_CHECK(hmpgov_clamp_min_for(three, 8, 800) == 301,
		  "three clusters: the middle cluster's is above the little ones");
	TAP_CHECK(hmpgov_clamp_min_for(sym, 2, 1024) == HMPGOV_CLAMP_NO_MIN,
		  "symmetric: no util_min");
	TAP_CHECK(hmpgov_clamp_max_small(bl, 4) == 356,
		  "2+2: a small task's util_max is 356 (under 80 %% of 446)");
	TAP_CHECK(356 * 1280 < 446 * 1024 && 357 * 1280 >= 446 * 1024,
		  "356 is the largest value fits_capacity() takes on 446");
	TAP_CHECK(hmpgov_clamp_max_small(sym, 2) == 819,
		  "symmetric: util_max 819 fits 1024");
}

static void test_combine(void)
{
	struct hmpgov_clamp base = none, out;

	hmpgov_clamp_combine(&base, 447, HMPGOV_CLAMP_NO_MAX, &out);
	TAP_CHECK(out.min == 447 && out.min_user && out.max == 1024 && !out.max_user,
		  "a boost sets util_min only; util_max stays the default");
	hmpgov_clamp_combine(&base, HMPGOV_CLAMP_NO_MIN, 356, &out);
	TAP_CHECK(out.max == 356 && out.max_user && out.min == 0 && !out.min_user,
		  "a cap sets util_max only");
	hmpgov_clamp_combine(&base, HMPGOV_CLAMP_NO_MIN, HMPGOV_CLAMP_NO_MAX, &out);
	TAP_CHECK(hmpgov_clamp_same(&out, &base) && !out.min_user && !out.max_user,
		  "no hint is the base, defaults kept");

	base = (struct hmpgov_clamp){ 600, 1024, true, false };
	hmpgov_clamp_combine(&base, 447, HMPGOV_CLAMP_NO_MAX, &out);
	TAP_CHECK(out.min == 600, "a user's higher util_min is never lowered");
	hmpgov_clamp_combine(&base, HMPGOV_CLAMP_NO_MIN, 356, &out);
	TAP_CHECK(out.max == 600 && out.min == 600,
		  "a cap stops at the user's util_min");

	base = (struct hmpgov_clamp){ 0, 300, false, true };
	hmpgov_clamp_combine(&base, 447, HMPGOV_CLAMP_NO_MAX, &out);
	TAP_CHECK(out.min == 300 && out.max == 300,
		  "a boost is capped by the user's util_max");
	hmpgov_clamp_combine(&base, HMPGOV_CLAMP_NO_MIN, 356, &out);
	TAP_CHECK(out.max == 300 && hmpgov_clamp_same(&out, &base),
		  "a user's lower util_max is never raised");

	base = (struct hmpgov_clamp){ 700, 200, true, true };
	hmpgov_clamp_combine(&base, 900, 100, &out);
	TAP_CHECK(hmpgov_clamp_same(&out, &base),
		  "a base with min > max is left alone");
}

int main(void)
{
	test_levels();
	test_combine();
	return tap_done();
}
