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

static unsigned int max_tasks = 4096;
module_param(max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks,
		 "Tasks tracked at most (16..1048576, rounded up to a power of 2)");

static unsigned int halflife_ms = 32;
module_param(halflife_ms, uint, 0444);
MODULE_PARM_DESC(halflife_ms,
		 "Half-life of the utilization average in ms (1..1000); runtime: /sys/kernel/hmpgov/halflife_ms");

static char mode[16] = "steer";
module_param_string(mode, mode, sizeof(mode), 0444);
MODULE_PARM_DESC(mode, "off, observe or steer (default); runtime: /sys/kernel/hmpgov/mode");

static char steer[16] = "auto";
module_param_string(steer, steer, sizeof(steer), 0444);
MODULE_PARM_DESC(steer, "How to steer: affinity, uclamp, both or auto (default: uclamp where the kernel has it and sees asymmetric CPUs, else affinity)");

static unsigned int small_down = HMPGOV_SMALL_DOWN;
module_param(small_down, uint, 0444);
MODULE_PARM_DESC(small_down, "A task under this utilization becomes small (default 160)");
static unsigned int small_up = HMPGOV_SMALL_UP;
module_param(small_up, uint, 0444);
MODULE_PARM_DESC(small_up, "A small task at or above this becomes medium (default 256)");
static unsigned int big_down = HMPGOV_BIG_DOWN;
module_param(big_down, uint, 0444);
MODULE_PARM_DESC(big_down, "A big task under this becomes medium (default 512)");
static unsigned int big_up = HMPGOV_BIG_UP;
module_param(big_up, uint, 0444);
MODULE_PARM_DESC(big_up, "A task at or above this becomes big (default 700)");

static unsigned int min_interval_ms = 4;
module_param(min_interval_ms, uint, 0444);
MODULE_PARM_DESC(min_interval_ms, "Least time between two moves of one task, ms (0..1000, default 4)");

static unsigned int pack_limit = HMPGOV_PACK_LIMIT;
module_param(pack_limit, uint, 0444);
MODULE_PARM_DESC(pack_limit, "Share /1024 of a little CPU the packed small tasks may use (1..1024, default 650)");

char hmpgov_exclude_comm[256];
module_param_string(exclude_comm, hmpgov_exclude_comm,
		    sizeof(hmpgov_exclude_comm), 0444);
MODULE_PARM_DESC(exclude_comm, "Comma-separated task names hmpgov leaves alone");

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

int hmpgov_min_interval_ms_valid(unsigned int ms)
{
	return ms <= 1000 ? 0 : -EINVAL;
}

int hmpgov_pack_limit_valid(unsigned int v)
{
	return v >= 1 && v <= HMPGOV_CAPACITY_SCALE ? 0 : -EINVAL;
}

static int validate_steering(struct hmpgov_load_params *lp)
{
	struct hmpgov_thresholds *t = &lp->thresholds;
	const char *bad;

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
	t->small_down = small_down;
	t->small_up = small_up;
	t->big_down = big_down;
	t->big_up = big_up;
	if (hmpgov_thresholds_check(t)) {
		pr_err("small_down=, small_up=, big_down=, big_up=: %u, %u, %u, %u must keep 1 <= small_down < small_up <= big_down < big_up <= 1024\n",
		       small_down, small_up, big_down, big_up);
		return -EINVAL;
	}
	if (hmpgov_min_interval_ms_valid(min_interval_ms)) {
		pr_err("min_interval_ms=: %u is out of range 0..1000\n",
		       min_interval_ms);
		return -EINVAL;
	}
	if (hmpgov_pack_limit_valid(pack_limit)) {
		pr_err("pack_limit=: %u is out of range 1..1024\n", pack_limit);
		return -EINVAL;
	}
	bad = strpbrk(hmpgov_exclude_comm, " \t\n");
	if (bad || strstr(hmpgov_exclude_comm, ",,") ||
	    hmpgov_exclude_comm[0] == ',') {
		pr_err("exclude_comm=: '%s' is not a comma-separated list of names\n",
		       hmpgov_exclude_comm);
		return -EINVAL;
	}
	lp->min_interval_ms = min_interval_ms;
	lp->pack_limit = pack_limit;
	return 0;
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
