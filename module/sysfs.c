// SPDX-License-Identifier: GPL-2.0
/*
 * The read-only view of what hmpgov found, under /sys/kernel/hmpgov/:
 *
 *   state            "active" or "passive" (all capacities equal)
 *   capacity_source  kernel | dt | cpufreq | param | none
 *   cluster_source   topology | cpufreq | capacity
 *   nr_clusters      number of clusters, numbered littlest first
 *   steer            affinity | uclamp | both: how hmpgov steers (steer=)
 *   view             base | kernel | none: what sched_getaffinity() shows
 *                    a steered task (module/view.c)
 *   mode             (read-write) off | observe | steer: module/knobs.c
 *   halflife_ms, small_down, small_up, big_down, big_up, class_hold_ms,
 *   move_interval_ms, pack_limit, show_base, min_interval_ms (old name)
 *                    (read-write) the tunables: module/tunables.c
 *   cpuN/capacity    capacity of CPU N, 1..1024
 *   cpuN/cluster     its cluster number
 *   cpuN/capacity_source  where its capacity came from
 *
 * One value per file, as sysfs wants; docs/interface.md describes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/sysfs.h>

#include "hmpgov/hmpgov.h"
#include "hmpgov/steer.h"
#include "hmpgov/view.h"

static struct kobject *root_kobj;
static struct kobject **cpu_kobjs;

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  hmpgov_topo.asymmetric ? "active" : "passive");
}

static ssize_t capacity_source_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  hmpgov_capacity_source_names[hmpgov_topo.capacity_source]);
}

static ssize_t cluster_source_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  hmpgov_cluster_source_names[hmpgov_topo.cluster_source]);
}

static ssize_t nr_clusters_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", hmpgov_topo.nr_clusters);
}

static ssize_t steer_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  hmpgov_steer_names[READ_ONCE(hmpgov_settings.steer)]);
}

static ssize_t view_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", hmpgov_view_names[hmpgov_view_state()]);
}

static struct kobj_attribute state_attr = __ATTR_RO(state);
static struct kobj_attribute capacity_source_attr = __ATTR_RO(capacity_source);
static struct kobj_attribute cluster_source_attr = __ATTR_RO(cluster_source);
static struct kobj_attribute nr_clusters_attr = __ATTR_RO(nr_clusters);
static struct kobj_attribute steer_attr = __ATTR_RO(steer);
static struct kobj_attribute view_attr = __ATTR_RO(view);

static struct attribute *root_attrs[] = {
	&state_attr.attr,
	&capacity_source_attr.attr,
	&cluster_source_attr.attr,
	&nr_clusters_attr.attr,
	&steer_attr.attr,
	&view_attr.attr,
	NULL,
};

static const struct attribute_group root_group = {
	.attrs = root_attrs,
};

/* The CPU a cpuN directory stands for. */
static unsigned int kobj_cpu(struct kobject *kobj)
{
	unsigned int cpu = 0;

	if (kstrtouint(kobject_name(kobj) + 3, 10, &cpu) ||
	    cpu >= hmpgov_topo.nr_cpus)
		cpu = 0;
	return cpu;
}

static ssize_t cpu_capacity_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", hmpgov_topo.capacity[kobj_cpu(kobj)]);
}

static ssize_t cpu_cluster_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", hmpgov_topo.cluster[kobj_cpu(kobj)]);
}

static struct kobj_attribute cpu_capacity_attr =
	__ATTR(capacity, 0444, cpu_capacity_show, NULL);
static struct kobj_attribute cpu_cluster_attr =
	__ATTR(cluster, 0444, cpu_cluster_show, NULL);

static struct attribute *cpu_attrs[] = {
	&cpu_capacity_attr.attr,
	&cpu_cluster_attr.attr,
	&capacity_source_attr.attr,
	NULL,
};

static const struct attribute_group cpu_group = {
	.attrs = cpu_attrs,
};

static void remove_cpu_dirs(void)
{
	unsigned int cpu;

	if (!cpu_kobjs)
		return;
	for (cpu = 0; cpu < hmpgov_topo.nr_cpus; cpu++)
		kobject_put(cpu_kobjs[cpu]);	/* NULL-safe; removes the group */
	kfree(cpu_kobjs);
	cpu_kobjs = NULL;
}

int hmpgov_sysfs_init(void)
{
	unsigned int cpu;
	char name[16];
	int ret;

	root_kobj = kobject_create_and_add("hmpgov", kernel_kobj);
	if (!root_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(root_kobj, &root_group);
	if (!ret)
		ret = hmpgov_knobs_init(root_kobj);
	if (ret)
		goto fail;

	cpu_kobjs = kcalloc(hmpgov_topo.nr_cpus, sizeof(*cpu_kobjs), GFP_KERNEL);
	if (!cpu_kobjs) {
		ret = -ENOMEM;
		goto fail;
	}
	for (cpu = 0; cpu < hmpgov_topo.nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		cpu_kobjs[cpu] = kobject_create_and_add(name, root_kobj);
		if (!cpu_kobjs[cpu]) {
			ret = -ENOMEM;
			goto fail;
		}
		ret = sysfs_create_group(cpu_kobjs[cpu], &cpu_group);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	hmpgov_sysfs_exit();
	return ret;
}

void hmpgov_sysfs_exit(void)
{
	remove_cpu_dirs();
	kobject_put(root_kobj);	/* NULL-safe; removes its files */
	root_kobj = NULL;
}
