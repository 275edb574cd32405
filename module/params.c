// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov's load-time module parameters and their validation.
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

static unsigned int max_tasks = 4096;
module_param(max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks,
		 "Tasks tracked at most (16..1048576, rounded up to a power of 2)");

static unsigned int halflife_ms = 32;
module_param(halflife_ms, uint, 0444);
MODULE_PARM_DESC(halflife_ms,
		 "Half-life of the utilization average in ms (1..1000); runtime: /sys/kernel/hmpgov/halflife_ms");

#define MAX_TASKS_MIN	16U
#define MAX_TASKS_MAX	1048576U
#define HALFLIFE_MS_MAX	1000U

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

/* 0 if @ms is a usable half-life, else -EINVAL. */
int hmpgov_halflife_ms_valid(unsigned int ms)
{
	return ms >= 1 && ms <= HALFLIFE_MS_MAX ? 0 : -EINVAL;
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
	if (max_tasks < MAX_TASKS_MIN || max_tasks > MAX_TASKS_MAX) {
		pr_err("max_tasks=: %u is out of range %u..%u\n", max_tasks,
		       MAX_TASKS_MIN, MAX_TASKS_MAX);
		return -EINVAL;
	}
	if (hmpgov_halflife_ms_valid(halflife_ms)) {
		pr_err("halflife_ms=: %u is out of range 1..%u\n", halflife_ms,
		       HALFLIFE_MS_MAX);
		return -EINVAL;
	}
	lp->max_tasks = max_tasks;
	lp->halflife_ms = halflife_ms;
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
