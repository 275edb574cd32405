// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov: heterogeneous-CPU placement for an unmodified kernel.
 *
 * Lifecycle: validate the parameters, discover the topology, start the
 * load tracking (table, frequency, probes), publish sysfs and debugfs.
 * Exit undoes init in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "hmpgov/hmpgov.h"

struct hmpgov_topology hmpgov_topo;

static int __init hmpgov_init(void)
{
	struct hmpgov_load_params lp;
	int ret;

	ret = hmpgov_params_validate(&lp);
	if (ret)
		return ret;
	ret = hmpgov_topology_discover(&hmpgov_topo, lp.capacity_override,
				       lp.want);
	kfree(lp.capacity_override);
	if (ret)
		return ret;
	hmpgov_halflife_ns = lp.halflife_ms * NSEC_PER_MSEC;
	hmpgov_topology_log(&hmpgov_topo);
	if (!hmpgov_topo.asymmetric)
		pr_info("passive: all %u CPUs have capacity %u (capacity: %s); nothing to steer\n",
			hmpgov_topo.nr_cpus, hmpgov_topo.capacity[0],
			hmpgov_capacity_source_names[hmpgov_topo.capacity_source]);

	ret = hmpgov_tracking_start(lp.max_tasks);
	if (ret)
		goto free_topology;
	ret = hmpgov_sysfs_init();
	if (ret)
		goto stop_tracking;
	hmpgov_debugfs_init();
	return 0;

stop_tracking:
	hmpgov_tracking_stop();
free_topology:
	hmpgov_topology_free(&hmpgov_topo);
	return ret;
}

static void __exit hmpgov_exit(void)
{
	hmpgov_debugfs_exit();
	hmpgov_sysfs_exit();
	hmpgov_tracking_stop();
	hmpgov_topology_free(&hmpgov_topo);
	pr_info("unloaded\n");
}

module_init(hmpgov_init);
module_exit(hmpgov_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Placement for heterogeneous CPUs (big.LITTLE, P/E cores)");
MODULE_AUTHOR("hmpgov developers");
MODULE_VERSION("0.1.0");
