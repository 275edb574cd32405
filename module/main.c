// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov: heterogeneous-CPU placement for an unmodified kernel.
 *
 * Lifecycle: validate the parameters, discover the topology, allocate the
 * task table and the steering worker, attach the probes, publish sysfs
 * and debugfs. Exit undoes init in reverse: the worker stops and gives
 * every task its mask back while the probes still report the children
 * forked meanwhile, then the probes are detached, the last children fed
 * get theirs, and the table goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "hmpgov/hmpgov.h"
#include "hmpgov/placement.h"
#include "hmpgov/steer.h"
#include "hmpgov/task_table.h"
#include "hmpgov/view.h"

static void apply_settings(const struct hmpgov_load_params *lp)
{
	hmpgov_settings.steerable = hmpgov_steerable_machine(&hmpgov_topo);
	hmpgov_settings.mode = hmpgov_settings.steerable ? lp->mode :
			       HMPGOV_MODE_OFF;
}

static int __init hmpgov_init(void)
{
	struct hmpgov_load_params lp;
	int ret;

	ret = hmpgov_params_validate(&lp);
	if (ret)
		return ret;
	ret = hmpgov_tunables_load();
	if (ret) {
		kfree(lp.capacity_override);
		return ret;
	}
	ret = hmpgov_topology_discover(&hmpgov_topo, lp.capacity_override,
				       lp.want);
	kfree(lp.capacity_override);
	if (ret)
		return ret;
	ret = hmpgov_backend_choose(lp.steer);	/* a refusal is the only line */
	if (ret)
		goto free_topology;
	hmpgov_topology_log(&hmpgov_topo);
	if (!hmpgov_topo.asymmetric)
		pr_info("passive: all %u CPUs have capacity %u (capacity: %s); nothing to steer\n",
			hmpgov_topo.nr_cpus, hmpgov_topo.capacity[0],
			hmpgov_capacity_source_names[hmpgov_topo.capacity_source]);
	else if (!hmpgov_steerable_machine(&hmpgov_topo))
		pr_info("passive: more than %u CPUs or %u clusters; tracking only\n",
			HMPGOV_MAX_CPUS, HMPGOV_MAX_CLUSTERS);
	apply_settings(&lp);

	ret = hmpgov_table_init(hmpgov_tunable_max_tasks());
	if (ret)
		goto free_topology;
	ret = hmpgov_view_init(hmpgov_tunable_max_tasks());
	if (ret)
		goto free_table;
	ret = hmpgov_steer_init(hmpgov_tunable_max_tasks());
	if (ret)
		goto stop_view;
	ret = hmpgov_tracking_start();
	if (ret)
		goto stop_steering;
	ret = hmpgov_sysfs_init();
	if (ret)
		goto stop_tracking;
	hmpgov_debugfs_init();
	return 0;

stop_tracking:
	hmpgov_steer_stop();
	hmpgov_tracking_stop();
stop_steering:
	hmpgov_steer_exit();
stop_view:
	hmpgov_view_exit();
free_table:
	hmpgov_table_free();
free_topology:
	hmpgov_topology_free(&hmpgov_topo);
	return ret;
}

static void __exit hmpgov_exit(void)
{
	hmpgov_debugfs_exit();
	hmpgov_sysfs_exit();
	hmpgov_steer_stop();
	hmpgov_tracking_stop();
	hmpgov_steer_exit();
	hmpgov_view_exit();
	hmpgov_table_free();
	hmpgov_topology_free(&hmpgov_topo);
	pr_info("unloaded\n");
}

module_init(hmpgov_init);
module_exit(hmpgov_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Placement for heterogeneous CPUs (big.LITTLE, P/E cores)");
MODULE_AUTHOR("hmpgov developers");
MODULE_VERSION("0.4.0");
