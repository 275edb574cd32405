// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of capacity normalisation and cluster numbering. */
#include <string.h>

#include "hmpgov/topology_calc.h"
#include "tap.h"

static void test_normalise(void)
{
	u64 dmips[4] = { 446, 446, 1024, 1024 };
	u64 freq[3] = { 1800000ULL * 578, 2400000ULL * 1024, 3000000ULL * 1024 };
	u64 zero[2] = { 446, 0 };
	u64 huge[2] = { 1, HMPGOV_RAW_CAPACITY_MAX + 1 };
	u64 tiny[2] = { 1, 100000 };
	u32 cap[4];
	int ret;

	TAP_CHECK(!hmpgov_normalise_capacity(dmips, 4, cap) && cap[0] == 446 &&
		  cap[1] == 446 && cap[2] == 1024 && cap[3] == 1024,
		  "dmips 446/1024 normalise to 446/1024");
	/* dmips x kHz, like arch_topology: 578*1.8 GHz vs 1024*3 GHz */
	ret = hmpgov_normalise_capacity(freq, 3, cap);
	TAP_CHECK(!ret &&
		  cap[0] == 1800000ULL * 578 * 1024 / (3000000ULL * 1024) &&
		  cap[1] == 819 && cap[2] == 1024,
		  "dmips x frequency normalise to the fastest (%u %u %u)",
		  cap[0], cap[1], cap[2]);
	TAP_CHECK(hmpgov_normalise_capacity(zero, 2, cap) == -EINVAL,
		  "an unknown (0) value makes the whole source unusable");
	TAP_CHECK(hmpgov_normalise_capacity(huge, 2, cap) == -EINVAL,
		  "a value beyond the safe range is refused");
	TAP_CHECK(hmpgov_normalise_capacity(dmips, 0, cap) == -EINVAL,
		  "no CPUs is refused");
	TAP_CHECK(!hmpgov_normalise_capacity(tiny, 2, cap) && cap[0] == 1 &&
		  cap[1] == 1024, "a tiny CPU gets capacity 1, never 0");
}

static void test_asymmetric(void)
{
	u32 same[3] = { 1024, 1024, 1024 };
	u32 mixed[3] = { 1024, 1024, 446 };

	TAP_CHECK(!hmpgov_capacity_asymmetric(same, 3), "equal capacities are symmetric");
	TAP_CHECK(hmpgov_capacity_asymmetric(mixed, 3), "one different capacity is asymmetric");
	TAP_CHECK(!hmpgov_capacity_asymmetric(mixed, 1), "a single CPU is symmetric");
}

static int cl[8];

static bool clusters_are(const int *want, unsigned int n)
{
	return !memcmp(cl, want, n * sizeof(*want));
}

static void test_clusters(void)
{
	/* big cluster first in CPU order: still numbered after the little */
	u32 cap_bl[4] = { 1024, 1024, 446, 446 };
	int key_bl[4] = { 7, 7, 3, 3 };
	int want_bl[4] = { 1, 1, 0, 0 };
	/* DynamIQ: one topology cluster, mixed capacities */
	u32 cap_dq[8] = { 446, 446, 446, 446, 871, 871, 871, 1024 };
	int key_one[8] = { 0 };
	int want_dq[8] = { 0, 0, 0, 0, 1, 1, 1, 2 };
	/* two little clusters of equal capacity stay two clusters */
	u32 cap_two[4] = { 446, 446, 446, 446 };
	int key_two[4] = { 0, 0, 1, 1 };
	int want_two[4] = { 0, 0, 1, 1 };
	int ret;

	ret = hmpgov_group_clusters(cap_bl, key_bl, 4, cl);
	TAP_CHECK(ret == 2 && clusters_are(want_bl, 4),
		  "clusters are numbered littlest first (%d: %d %d %d %d)",
		  ret, cl[0], cl[1], cl[2], cl[3]);
	TAP_CHECK(hmpgov_group_clusters(cap_dq, key_one, 8, cl) == -EINVAL,
		  "a topology cluster mixing capacities is unusable");
	ret = hmpgov_group_clusters(cap_dq, NULL, 8, cl);
	TAP_CHECK(ret == 3 && clusters_are(want_dq, 8),
		  "grouping by capacity gives 4+3+1 (%d clusters)", ret);
	ret = hmpgov_group_clusters(cap_two, key_two, 4, cl);
	TAP_CHECK(ret == 2 && clusters_are(want_two, 4),
		  "equal-capacity clusters keep their topology (%d)", ret);
	ret = hmpgov_group_clusters(cap_two, NULL, 4, cl);
	TAP_CHECK(ret == 1 && cl[0] == 0 && cl[3] == 0,
		  "by capacity alone they are one cluster (%d)", ret);
}

int main(void)
{
	test_normalise();
	test_asymmetric();
	test_clusters();
	return tap_done();
}
