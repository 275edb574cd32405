/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of topology discovery, kept apart from the kernel
 * interfaces that gather its inputs: normalising raw capacities to the
 * 0..1024 scale and grouping CPUs into clusters. Pure C.
 */
#ifndef HMPGOV_TOPOLOGY_CALC_H
#define HMPGOV_TOPOLOGY_CALC_H

#include "pure.h"

/* dmips-mhz (< 2^16) times kHz (< 2^32) fits; the shift by 10 then too. */
#define HMPGOV_RAW_CAPACITY_MAX	0x1000000000000ULL	/* 2^48 */

/**
 * hmpgov_normalise_capacity() - scale raw capacities so the biggest is 1024
 * @raw: per CPU raw capacity (for example dmips-mhz x max kHz), 1 to
 *       HMPGOV_RAW_CAPACITY_MAX; 0 = unknown
 * @n:   number of CPUs
 * @out: per CPU capacity, 1..1024
 *
 * Like the kernel's arch_topology: capacity = raw * 1024 / max(raw),
 * rounded down, never below 1.
 *
 * Return: 0, or -EINVAL if any raw value is 0 (the description is
 * incomplete and is then not used at all) or too big, or @n is 0.
 */
int hmpgov_normalise_capacity(const u64 *raw, unsigned int n, u32 *out);

/* True if not all of @cap[0..n-1] are equal. */
bool hmpgov_capacity_asymmetric(const u32 *cap, unsigned int n);

/**
 * hmpgov_group_clusters() - number the clusters of a machine
 * @cap:     per CPU capacity
 * @key:     per CPU cluster key from a topology source, or NULL to group
 *           CPUs by equal capacity
 * @n:       number of CPUs
 * @cluster: receives per CPU cluster number
 *
 * CPUs with the same key form a cluster; a key group whose CPUs differ in
 * capacity makes the key source unusable. Clusters are numbered by
 * increasing capacity, ties by lowest CPU, so cluster 0 is the littlest.
 *
 * Return: the number of clusters, or -EINVAL if a key group mixes
 * capacities.
 */
int hmpgov_group_clusters(const u32 *cap, const int *key, unsigned int n,
			  int *cluster);

#endif /* HMPGOV_TOPOLOGY_CALC_H */
