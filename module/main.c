// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov: heterogeneous-CPU placement for an unmodified kernel.
 *
 * Lifecycle: validate the parameters, discover the topology, publish it
 * in sysfs. The order of init is undone in reverse by exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "hmpgov/hmpgov.h"

struct hmpgov_topology hmpgov_topo;

static int __init hmpgov_init(void)
{
	enum hmpgov_capacity_source want;
	u32 *override;
	int ret;

	ret = hmpgov_params_validate(&override, &want);
	if (ret)
		return ret;
	ret = hmpgov_topology_discover(&hmpgov_topo, override, want);
	kfree(override);
	if (ret)
		return ret;
	hmpgov_topology_log(&hmpgov_topo);
	if (!hmpgov_topo.asymmetric)
		pr_info("passive: all %u CPUs have capacity %u (capacity: %s); nothing to steer\n",
			hmpgov_topo.nr_cpus, hmpgov_topo.capacity[0],
			hmpgov_capacity_source_names[hmpgov_topo.capacity_source]);

	ret = hmpgov_sysfs_init();
	if (ret) {
		hmpgov_topology_free(&hmpgov_topo);
		return ret;
	}
	return 0;
}

static void __exit hmpgov_exit(void)
{
	hmpgov_sysfs_exit();
	hmpgov_topology_free(&hmpgov_topo);
	pr_info("unloaded\n");
}

module_init(hmpgov_init);
module_exit(hmpgov_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Placement for heterogeneous CPUs (big.LITTLE, P/E cores)");
MODULE_AUTHOR("hmpgov developers");
MODULE_VERSION("0.1.0");
