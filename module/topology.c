// SPDX-License-Identifier: GPL-2.0
/*
 * Topology discovery: which CPUs are big and which are little.
 *
 * Raw values are gathered from the kernel here and turned into the final
 * view by the pure helpers of topology_calc.c. Each capacity source is all
 * or nothing: a source that cannot describe every possible CPU is not used
 * at all. In order, the first source that gives a complete and asymmetric
 * set of capacities wins:
 *
 *   1. the kernel's own capacities, arch_scale_cpu_capacity()
 *   2. the device tree's capacity-dmips-mhz, times cpufreq's maximum
 *      frequency where every CPU has a policy (as arch_topology does)
 *   3. cpufreq's maximum frequency per policy
 *
 * capacity= overrides all of them; capacity_source= forces one.
 * Runs once at load, in process context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/of.h>
#include <linux/slab.h>

#include "hmpgov/compat.h"
#include "hmpgov/hmpgov.h"
#include "hmpgov/placement.h"
#include "hmpgov/topology_calc.h"

/* cpufreq's maximum frequency of @cpu in kHz, 0 without a policy. */
static u64 cpufreq_max_khz(int cpu)
{
	struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);
	u64 khz;

	if (!policy)
		return 0;
	khz = policy->cpuinfo.max_freq;
	cpufreq_cpu_put(policy);
	return khz;
}

static bool every_cpu_has_cpufreq(unsigned int n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < n; cpu++)
		if (!cpufreq_max_khz(cpu))
			return false;
	return true;
}

static u64 dt_dmips_mhz(int cpu)
{
	struct device_node *np = of_get_cpu_node(cpu, NULL);
	u32 dmips = 0;

	if (!np)
		return 0;
	if (of_property_read_u32(np, "capacity-dmips-mhz", &dmips))
		dmips = 0;
	of_node_put(np);
	return dmips;
}

/* Fill @raw for one source; return false if it cannot describe every CPU. */
static bool gather_raw(enum hmpgov_capacity_source src, u64 *raw,
		       unsigned int n)
{
	bool with_freq = src == HMPGOV_CAP_DT && every_cpu_has_cpufreq(n);
	unsigned int cpu;

	for (cpu = 0; cpu < n; cpu++) {
		switch (src) {
		case HMPGOV_CAP_KERNEL:
			raw[cpu] = hmpgov_kernel_cpu_capacity(cpu);
			break;
		case HMPGOV_CAP_DT:
			raw[cpu] = dt_dmips_mhz(cpu);
			if (with_freq)
				raw[cpu] *= cpufreq_max_khz(cpu);
			break;
		case HMPGOV_CAP_CPUFREQ:
			raw[cpu] = cpufreq_max_khz(cpu);
			break;
		default:
			return false;
		}
		if (!raw[cpu])
			return false;
	}
	return true;
}

static bool capacities_from(struct hmpgov_topology *t,
			    enum hmpgov_capacity_source src, u64 *raw)
{
	if (!gather_raw(src, raw, t->nr_cpus) ||
	    hmpgov_normalise_capacity(raw, t->nr_cpus, t->capacity))
		return false;
	t->capacity_source = src;
	return true;
}

static int find_capacities(struct hmpgov_topology *t, const u32 *override,
			   enum hmpgov_capacity_source want)
{
	static const enum hmpgov_capacity_source order[] = {
		HMPGOV_CAP_KERNEL, HMPGOV_CAP_DT, HMPGOV_CAP_CPUFREQ,
	};
	unsigned int i, n = t->nr_cpus;
	u64 *raw;
	int ret = 0;

	if (override) {
		memcpy(t->capacity, override, n * sizeof(*override));
		t->capacity_source = HMPGOV_CAP_PARAM;
		return 0;
	}
	raw = kcalloc(n, sizeof(*raw), GFP_KERNEL);
	if (!raw)
		return -ENOMEM;
	if (want != HMPGOV_CAP_AUTO) {
		if (!capacities_from(t, want, raw)) {
			pr_err("capacity_source=%s: that source does not describe every CPU\n",
			       hmpgov_capacity_source_names[want]);
			ret = -ENODEV;
		}
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (capacities_from(t, order[i], raw) &&
		    hmpgov_capacity_asymmetric(t->capacity, n))
			goto out;
	/* Nothing asymmetric anywhere: all equal, passive. */
	for (i = 0; i < n; i++)
		t->capacity[i] = HMPGOV_CAPACITY_SCALE;
	t->capacity_source = HMPGOV_CAP_NONE;
out:
	kfree(raw);
	return ret;
}

/* cpufreq's key for @cpu: the first CPU of its policy, or -1. */
static int cpufreq_cluster_key(int cpu)
{
	struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);
	int key;

	if (!policy)
		return -1;
	key = cpumask_first(policy->related_cpus);
	cpufreq_cpu_put(policy);
	return key;
}

static int find_clusters(struct hmpgov_topology *t)
{
	unsigned int cpu, n = t->nr_cpus;
	int *key, nr;

	key = kcalloc(n, sizeof(*key), GFP_KERNEL);
	if (!key)
		return -ENOMEM;

	for (cpu = 0; cpu < n; cpu++)
		key[cpu] = hmpgov_topology_cluster_key(cpu);
	nr = hmpgov_group_clusters(t->capacity, key, n, t->cluster);
	t->cluster_source = HMPGOV_CLUSTER_TOPOLOGY;

	if (nr < 0 && every_cpu_has_cpufreq(n)) {
		for (cpu = 0; cpu < n; cpu++)
			key[cpu] = cpufreq_cluster_key(cpu);
		nr = hmpgov_group_clusters(t->capacity, key, n, t->cluster);
		t->cluster_source = HMPGOV_CLUSTER_CPUFREQ;
	}
	if (nr < 0) {
		nr = hmpgov_group_clusters(t->capacity, NULL, n, t->cluster);
		t->cluster_source = HMPGOV_CLUSTER_CAPACITY;
	}
	kfree(key);
	t->nr_clusters = nr;
	return 0;
}

struct hmpgov_topology hmpgov_topo;

bool hmpgov_steerable_machine(const struct hmpgov_topology *t)
{
	return t->asymmetric && t->nr_cpus <= HMPGOV_MAX_CPUS &&
	       t->nr_clusters <= HMPGOV_MAX_CLUSTERS;
}

/* The kernel's own capacities, where a module can read them all. */
static void find_kernel_capacities(struct hmpgov_topology *t)
{
	unsigned int cpu;

	t->kernel_asymmetric = false;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		t->kernel_capacity[cpu] = hmpgov_kernel_cpu_capacity(cpu);
		if (!t->kernel_capacity[cpu]) {
			t->kernel_asymmetric = false;
			return;
		}
		if (t->kernel_capacity[cpu] != t->kernel_capacity[0])
			t->kernel_asymmetric = true;
	}
}

/**
 * hmpgov_topology_discover() - fill @t from the running system
 * @t:        zeroed topology to fill
 * @override: capacity= values, or NULL
 * @want:     capacity_source= choice
 *
 * Return: 0, -ENODEV if the CPU numbering cannot be served or a forced
 * source is unusable, -ENOMEM.
 */
int hmpgov_topology_discover(struct hmpgov_topology *t, const u32 *override,
			     enum hmpgov_capacity_source want)
{
	int ret;

	if (num_possible_cpus() != nr_cpu_ids) {
		pr_err("possible CPUs are not numbered 0..%u: not supported\n",
		       nr_cpu_ids - 1);
		return -ENODEV;
	}
	t->nr_cpus = nr_cpu_ids;
	t->capacity = kcalloc(t->nr_cpus, sizeof(*t->capacity), GFP_KERNEL);
	t->cluster = kcalloc(t->nr_cpus, sizeof(*t->cluster), GFP_KERNEL);
	t->kernel_capacity = kcalloc(t->nr_cpus, sizeof(*t->kernel_capacity),
				     GFP_KERNEL);
	if (!t->capacity || !t->cluster || !t->kernel_capacity) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = find_capacities(t, override, want);
	if (!ret)
		ret = find_clusters(t);
	if (ret)
		goto fail;
	t->asymmetric = hmpgov_capacity_asymmetric(t->capacity, t->nr_cpus);
	find_kernel_capacities(t);
	return 0;
fail:
	hmpgov_topology_free(t);
	return ret;
}

void hmpgov_topology_free(struct hmpgov_topology *t)
{
	kfree(t->capacity);
	kfree(t->cluster);
	kfree(t->kernel_capacity);
	t->capacity = NULL;
	t->cluster = NULL;
	t->kernel_capacity = NULL;
}

/* One line per cluster: its CPUs, capacity and where that came from. */
void hmpgov_topology_log(const struct hmpgov_topology *t)
{
	cpumask_var_t cpus;
	unsigned int c, cpu;

	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return;
	for (c = 0; c < t->nr_clusters; c++) {
		u32 cap = 0;

		cpumask_clear(cpus);
		for (cpu = 0; cpu < t->nr_cpus; cpu++) {
			if (t->cluster[cpu] != (int)c)
				continue;
			cpumask_set_cpu(cpu, cpus);
			cap = t->capacity[cpu];
		}
		pr_info("cluster %u: cpus %*pbl capacity %u (capacity: %s, cluster: %s)\n",
			c, cpumask_pr_args(cpus), cap,
			hmpgov_capacity_source_names[t->capacity_source],
			hmpgov_cluster_source_names[t->cluster_source]);
	}
	free_cpumask_var(cpus);
}
