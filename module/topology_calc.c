// SPDX-License-Identifier: GPL-2.0
/*
 * Topology arithmetic: capacity normalisation and cluster numbering.
 * Pure C: also built into the host unit tests (selftests/unit/).
 *
 * Discovery (module/topology.c) gathers raw values from the kernel; this
 * file turns them into the one view the rest of hmpgov uses. It runs once
 * at load in process context, so quadratic loops over CPUs are fine.
 */
#include "hmpgov/topology_calc.h"

int hmpgov_normalise_capacity(const u64 *raw, unsigned int n, u32 *out)
{
	u64 max = 0, c;
	unsigned int i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!raw[i] || raw[i] > HMPGOV_RAW_CAPACITY_MAX)
			return -EINVAL;
		if (raw[i] > max)
			max = raw[i];
	}
	for (i = 0; i < n; i++) {
		c = (raw[i] << HMPGOV_CAPACITY_SHIFT) / max;
		out[i] = c ? (u32)c : 1;
	}
	return 0;
}

bool hmpgov_capacity_asymmetric(const u32 *cap, unsigned int n)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (cap[i] != cap[0])
			return true;
	return false;
}

static bool same_group(const u32 *cap, const int *key, unsigned int a,
		       unsigned int b)
{
	return key ? key[a] == key[b] : cap[a] == cap[b];
}

/* Leaders are marked by cluster[l] == l, or already ranked (< 0). */
static bool is_leader(const int *cluster, unsigned int l)
{
	return cluster[l] == (int)l || cluster[l] < 0;
}

int hmpgov_group_clusters(const u32 *cap, const int *key, unsigned int n,
			  int *cluster)
{
	unsigned int i, j;
	int rank, nr = 0;

	/* Pass 1: every CPU points at the lowest CPU of its group. */
	for (i = 0; i < n; i++)
		cluster[i] = -1;
	for (i = 0; i < n; i++) {
		if (cluster[i] >= 0)
			continue;
		cluster[i] = (int)i;
		for (j = i + 1; j < n; j++) {
			if (cluster[j] >= 0 || !same_group(cap, key, i, j))
				continue;
			if (cap[j] != cap[i])
				return -EINVAL;
			cluster[j] = (int)i;
		}
	}
	/* Pass 2: rank the leaders; store the rank as -(rank + 1). */
	for (i = 0; i < n; i++) {
		if (cluster[i] != (int)i)
			continue;
		rank = 0;
		for (j = 0; j < n; j++) {
			if (j == i || !is_leader(cluster, j))
				continue;
			if (cap[j] < cap[i] || (cap[j] == cap[i] && j < i))
				rank++;
		}
		cluster[i] = -(rank + 1);
		nr++;
	}
	/* Pass 3: members take their leader's rank, then decode. */
	for (i = 0; i < n; i++)
		if (cluster[i] >= 0)
			cluster[i] = cluster[cluster[i]];
	for (i = 0; i < n; i++)
		cluster[i] = -cluster[i] - 1;
	return nr;
}
