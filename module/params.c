// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov's load-time module parameters that are not numeric tunables
 * (those are in tunables.c), and their validation.
 *
 * Parameters are taken as text and checked in one place at load, so that
 * every bad value fails insmod with -EINVAL and exactly one log line that
 * names the parameter and the problem.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hmpgov/capacity_list.h"
#include "hmpgov/hmpgov.h"
#include "hmpgov/placement.h"
#include "hmpgov/steer.h"

/* 4 digits and a comma per CPU: room for 800 possible CPUs. */
static char capacity[4096];
module_param_string(capacity, capacity, sizeof(capacity), 0444);
MODULE_PARM_DESC(capacity,
		 "Override: one capacity (1..1024) per possible CPU, comma-separated");

static char capacity_source[16] = "auto";
module_param_string(capacity_source, capacity_source, sizeof(capacity_source),
		    0444);
MODULE_PARM_DESC(capacity_source,
		 "Where capacities come from: auto (default), kernel, dt, cpufreq");

static char mode[16] = "steer";
module_param_string(mode, mode, sizeof(mode), 0444);
MODULE_PARM_DESC(mode, "off, observe or steer (default); runtime: /sys/kernel/hmpgov/mode");

static char steer[16] = "auto";
module_param_string(steer, steer, sizeof(steer), 0444);
MODULE_PARM_DESC(steer, "How to steer: affinity, uclamp, both or auto (default: uclamp where the kernel has it and sees asymmetric CPUs, else affinity)");

module_param_string(exclude_comm, hmpgov_settings.exclude_comm,
		    sizeof(hmpgov_settings.exclude_comm), 0444);
MODULE_PARM_DESC(exclude_comm, "Comma-separated task names hmpgov leaves alone");

const char *const hmpgov_capacity_source_names[] = {
	[HMPGOV_CAP_NONE] = "none",
	[HMPGOV_CAP_KERNEL] = "kernel",
	[HMPGOV_CAP_DT] = "dt",
	[HMPGOV_CAP_CPUFREQ] = "cpufreq",
	[HMPGOV_CAP_PARAM] = "param",
	[HMPGOV_CAP_AUTO] = "auto",
};

const char *const hmpgov_cluster_source_names[] = {
	[HMPGOV_CLUSTER_TOPOLOGY] = "topology",
	[HMPGOV_CLUSTER_CPUFREQ] = "cpufreq",
	[HMPGOV_CLUSTER_CAPACITY] = "capacity",
};

static int parse_capacity_source(enum hmpgov_capacity_source *want)
{
	static const enum hmpgov_capacity_source choices[] = {
		HMPGOV_CAP_AUTO, HMPGOV_CAP_KERNEL, HMPGOV_CAP_DT,
		HMPGOV_CAP_CPUFREQ,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(choices); i++) {
		if (sysfs_streq(capacity_source,
				hmpgov_capacity_source_names[choices[i]])) {
			*want = choices[i];
			return 0;
		}
	}
	pr_err("capacity_source=: unknown option '%s' (auto, kernel, dt, cpufreq)\n",
	       capacity_source);
	return -EINVAL;
}

static int validate_steering(struct hmpgov_load_params *lp)
{
	const char *list = hmpgov_settings.exclude_comm;

	lp->mode = sysfs_match_string(hmpgov_mode_names, mode);
	if (lp->mode < 0) {
		pr_err("mode=: unknown mode '%s' (off, observe, steer)\n", mode);
		return -EINVAL;
	}
	lp->steer = sysfs_match_string(hmpgov_steer_names, steer);
	if (lp->steer < 0) {
		pr_err("steer=: unknown option '%s' (affinity, uclamp, both, auto)\n",
		       steer);
		return -EINVAL;
	}
	if (!hmpgov_names_valid(list)) {
		pr_err("exclude_comm=: '%s' is not a comma-separated list of names\n",
		       list);
		return -EINVAL;
	}
	return 0;
}

/**
 * hmpgov_params_validate() - check every load-time parameter
 * @lp: receives the checked values; lp->capacity_override is a kmalloc'ed
 *      array of nr_cpu_ids values when capacity= was given, else NULL
 *
 * Return: 0, or -EINVAL after logging one line.
 */
int hmpgov_params_validate(struct hmpgov_load_params *lp)
{
	char msg[HMPGOV_PARSE_MSG_LEN];
	u32 *values;
	int ret;

	lp->capacity_override = NULL;
	ret = parse_capacity_source(&lp->want);
	if (ret)
		return ret;
	ret = validate_steering(lp);
	if (ret)
		return ret;
	if (!capacity[0])
		return 0;

	values = kcalloc(nr_cpu_ids, sizeof(*values), GFP_KERNEL);
	if (!values)
		return -ENOMEM;
	ret = hmpgov_parse_capacity_list(capacity, values, nr_cpu_ids, msg);
	if (ret) {
		pr_err("%s\n", msg);
		kfree(values);
		return ret;
	}
	lp->capacity_override = values;
	return 0;
}
