// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov_testfreq: a cpufreq driver for tests, with no hardware effect.
 *
 * It gives each cluster (the kernel's cluster, or package where there is
 * no cluster level) one policy with a table of four frequencies, 25, 50,
 * 75 and 100 % of max_khz, and "switches" by remembering the index it was
 * asked for. The cpufreq core emits the cpu_frequency tracepoint and runs
 * the usual notifiers on each switch, so a test can set a CPU to half its
 * maximum (userspace governor, or scaling_min/max_freq) and watch what
 * hmpgov's frequency invariance makes of it. All clusters share one
 * maximum, so the kernel's capacity normalisation is unchanged.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/topology.h>

#define STEPS	4

static unsigned int max_khz = 1000000;
module_param(max_khz, uint, 0444);
MODULE_PARM_DESC(max_khz, "top frequency of every cluster, kHz (4000..10000000)");

static DEFINE_PER_CPU(unsigned int, cur_khz);

/* The CPUs that share a policy with @cpu: its cluster (arm64), or package. */
static const struct cpumask *cluster_of(int cpu)
{
#if defined(CONFIG_ARM64) && defined(topology_cluster_cpumask)
	return topology_cluster_cpumask(cpu);
#else
	return topology_core_cpumask(cpu);
#endif
}

static int testfreq_init(struct cpufreq_policy *policy)
{
	struct cpufreq_frequency_table *table;
	unsigned int i, cpu;

	table = kcalloc(STEPS + 1, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	for (i = 0; i < STEPS; i++) {
		table[i].driver_data = i;
		table[i].frequency = max_khz / STEPS * (i + 1);
	}
	table[STEPS].frequency = CPUFREQ_TABLE_END;
	cpumask_and(policy->cpus, cluster_of(policy->cpu), cpu_online_mask);
	policy->freq_table = table;
	policy->cpuinfo.transition_latency = 100000;	/* ns */
	for_each_cpu(cpu, policy->cpus)
		per_cpu(cur_khz, cpu) = table[STEPS - 1].frequency;
	policy->cur = table[STEPS - 1].frequency;
	return 0;
}

#ifdef HMPGOV_TESTFREQ_EXIT_VOID
static void testfreq_exit(struct cpufreq_policy *policy)
{
	kfree(policy->freq_table);
	policy->freq_table = NULL;
}
#else
static int testfreq_exit(struct cpufreq_policy *policy)
{
	kfree(policy->freq_table);
	policy->freq_table = NULL;
	return 0;
}
#endif

static int testfreq_target_index(struct cpufreq_policy *policy,
				 unsigned int index)
{
	unsigned int cpu;

	for_each_cpu(cpu, policy->cpus)
		WRITE_ONCE(per_cpu(cur_khz, cpu),
			   policy->freq_table[index].frequency);
	return 0;
}

static unsigned int testfreq_get(unsigned int cpu)
{
	return READ_ONCE(per_cpu(cur_khz, cpu));
}

static struct cpufreq_driver testfreq_driver = {
	.name		= "hmpgov-testfreq",
	.init		= testfreq_init,
	.exit		= testfreq_exit,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= testfreq_target_index,
	.get		= testfreq_get,
	.attr		= cpufreq_generic_attr,
};

static int __init testfreq_module_init(void)
{
	if (max_khz < 4000 || max_khz > 10000000) {
		pr_err("max_khz=: %u is out of range 4000..10000000\n", max_khz);
		return -EINVAL;
	}
	return cpufreq_register_driver(&testfreq_driver);
}

static void __exit testfreq_module_exit(void)
{
	cpufreq_unregister_driver(&testfreq_driver);
}

module_init(testfreq_module_init);
module_exit(testfreq_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hmpgov test-only cpufreq driver (no hardware effect)");
