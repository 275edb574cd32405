// SPDX-License-Identifier: GPL-2.0
/*
 * Which backends steer (steer=), settled once at load against what this
 * kernel can do, and the uclamp levels that go with them.
 *
 * The affinity backend (hint_affinity.c) is always engaged: rule 1 packs
 * small tasks with a mask under every steer=, and a task's mask is its
 * base for every rule. The uclamp backend (hint_uclamp.c) is engaged by
 * steer=uclamp and both, and by auto where this build can set uclamp and
 * the kernel itself sees asymmetric capacities. docs/uclamp.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "hmpgov/hints.h"
#include "hmpgov/hmpgov.h"
#include "hmpgov/placement.h"
#include "hmpgov/steer.h"

const char *const hmpgov_steer_names[HMPGOV_NR_STEER] = {
	[HMPGOV_STEER_AFFINITY] = "affinity",
	[HMPGOV_STEER_UCLAMP] = "uclamp",
	[HMPGOV_STEER_BOTH] = "both",
	[HMPGOV_STEER_AUTO] = "auto",
};

static const struct hmpgov_backend_ops *const backends[HMPGOV_NR_BACKENDS] = {
	[HMPGOV_AFFINITY] = &hmpgov_affinity_ops,
	[HMPGOV_UCLAMP] = &hmpgov_uclamp_ops,
};

/* uclamp levels from the kernel's capacities (hmpgov_backend_choose()). */
static u32 clamp_min_of_cluster[HMPGOV_MAX_CLUSTERS];
static u32 clamp_max_small;

/**
 * hmpgov_backend() - the @i-th backend if it is engaged
 * @i: 0 .. HMPGOV_NR_BACKENDS - 1
 *
 * Return: its operations, or NULL when steer= did not engage it.
 */
const struct hmpgov_backend_ops *hmpgov_backend(unsigned int i)
{
	unsigned int engaged = READ_ONCE(hmpgov_settings.backends) |
			       HMPGOV_BACKEND_AFFINITY;

	BUILD_BUG_ON(HMPGOV_BACKEND_AFFINITY != 1U << HMPGOV_AFFINITY);
	BUILD_BUG_ON(HMPGOV_BACKEND_UCLAMP != 1U << HMPGOV_UCLAMP);
	if (i >= HMPGOV_NR_BACKENDS || !(engaged & (1U << i)))
		return NULL;
	return backends[i];
}

/* The uclamp levels of a decision (zero without the uclamp backend). */
void hmpgov_backend_clamp_levels(struct hmpgov_policy *pol)
{
	memcpy(pol->clamp_min, clamp_min_of_cluster, sizeof(pol->clamp_min));
	pol->clamp_max_small = clamp_max_small;
}

static void set_clamp_levels(const struct hmpgov_topology *t)
{
	const u32 *kcap = t->kernel_capacity;
	unsigned int cpu, nr = t->nr_cpus;

	if (!hmpgov_steerable_machine(t))
		return;		/* passive: nothing is placed */
	for (cpu = 0; cpu < nr; cpu++)
		clamp_min_of_cluster[t->cluster[cpu]] =
			hmpgov_clamp_min_for(kcap, nr, kcap[cpu]);
	clamp_max_small = hmpgov_clamp_max_small(kcap, nr);
	pr_info("uclamp: big tasks util_min %u (biggest cluster), small tasks util_max %u\n",
		clamp_min_of_cluster[t->nr_clusters - 1], clamp_max_small);
}

/**
 * hmpgov_backend_choose() - settle steer= against this kernel
 * @requested: enum hmpgov_steer from the parameter
 *
 * Sets hmpgov_settings.backends and .steer. auto takes uclamp where this
 * build can set it and the kernel itself sees asymmetric capacities,
 * affinity otherwise; uclamp and both are refused (-EINVAL, one line)
 * where they could not work. Call after the topology is known.
 */
int hmpgov_backend_choose(int requested)
{
	bool built = hmpgov_uclamp_built(), asym = hmpgov_topo.kernel_asymmetric;
	int chosen = requested;

	memset(clamp_min_of_cluster, 0, sizeof(clamp_min_of_cluster));
	clamp_max_small = 0;
	if (requested == HMPGOV_STEER_AUTO)
		chosen = built && asym ? HMPGOV_STEER_UCLAMP :
			 HMPGOV_STEER_AFFINITY;
	if (chosen != HMPGOV_STEER_AFFINITY && !built) {
		pr_err("steer=%s: this kernel has no uclamp for modules (CONFIG_UCLAMP_TASK unset, sched_setattr_nocheck not exported before 5.14, or no clamp reset before 5.11); use steer=affinity or auto\n",
		       hmpgov_steer_names[chosen]);
		return -EINVAL;
	}
	if (chosen != HMPGOV_STEER_AFFINITY && !asym) {
		pr_err("steer=%s: the kernel itself sees no asymmetric CPU capacities, so its placement would ignore uclamp (capacity= informs hmpgov only); use steer=affinity or auto\n",
		       hmpgov_steer_names[chosen]);
		return -EINVAL;
	}
	if (chosen != HMPGOV_STEER_AFFINITY)
		set_clamp_levels(&hmpgov_topo);
	hmpgov_settings.steer = chosen;
	hmpgov_settings.requested_steer = requested;
	hmpgov_settings.backends =
		chosen == HMPGOV_STEER_AFFINITY ? HMPGOV_BACKEND_AFFINITY :
		chosen == HMPGOV_STEER_UCLAMP ? HMPGOV_BACKEND_UCLAMP :
		HMPGOV_BACKEND_AFFINITY | HMPGOV_BACKEND_UCLAMP;
	return 0;
}
