// SPDX-License-Identifier: GPL-2.0
/*
 * uclamp hint levels and how a hint combines with the user's clamps.
 * Pure C (include/hmpgov/clamp_rule.h); docs/uclamp.md explains it.
 */
#include "hmpgov/clamp_rule.h"

bool hmpgov_clamp_same(const struct hmpgov_clamp *a,
		       const struct hmpgov_clamp *b)
{
	return a->min == b->min && a->max == b->max;
}

void hmpgov_clamp_combine(const struct hmpgov_clamp *base, u32 want_min,
			  u32 want_max, struct hmpgov_clamp *out)
{
	u32 min = base->min, max = base->max;

	*out = *base;
	if (base->min > base->max)
		return;
	if (want_min > min)
		min = want_min < max ? want_min : max;
	if (want_max < max)
		max = want_max > min ? want_max : min;
	if (min != base->min) {
		out->min = min;
		out->min_user = true;
	}
	if (max != base->max) {
		out->max = max;
		out->max_user = true;
	}
}

u32 hmpgov_clamp_min_for(const u32 *capacity, unsigned int nr, u32 cap)
{
	u32 below = 0;
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (capacity[i] < cap && capacity[i] > below)
			below = capacity[i];
	if (!below)
		return HMPGOV_CLAMP_NO_MIN;
	return below + 1;
}

u32 hmpgov_clamp_max_small(const u32 *capacity, unsigned int nr)
{
	u32 least = HMPGOV_CAPACITY_SCALE;
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (capacity[i] && capacity[i] < least)
			least = capacity[i];
	/* fits_capacity(u, c) is u * 1280 < c * 1024 */
	return (least * 1024 - 1) / 1280;
}
