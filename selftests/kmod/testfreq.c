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
 *
 * With em=1 it also registers an energy model for each policy, so that
 * the kernel's energy-aware scheduling (EAS) can run once every policy
 * has the schedutil governor (scripts/bench-placement.sh, configuration
 * "(c) EAS"). Power per operating point, in uW, from the busy power of
 * docs/benchmarks.md at the top frequency, P_top = 100 mW for a CPU whose
 * capacity is below SCHED_CAPACITY_SCALE (little) and 500 mW for one at
 * it (big), scaled as dynamic power, P = P_top * (f / f_max) * (V / V_max)^2,
 * with the voltage falling by a tenth of V_max per step below the top:
 *
 *   frequency        25 %    50 %    75 %    100 % of max_khz
 *   V / V_max        0.7     0.8     0.9     1.0
 *   little (uW)    12250   32000   60750   100000
 *   big (uW)       61250  160000  303750   500000
 *
 * The energy model is built against the API of Linux 5.19 and later
 * (active_power(dev, power, freq), power in uW, cpufreq_driver's
 * register_em hook); Kbuild compiles it only where the headers have that
 * API, and em=1 is refused elsewhere or without CONFIG_ENERGY_MODEL.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/energy_model.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/topology.h>
#include <linux/slab.h>
#include <linux/topology.h>

#define STEPS	4

/* The energy model, where the kernel has it and its 5.19+ API (Kbuild). */
#if defined(HMPGOV_TESTFREQ_EM_API) && IS_ENABLED(CONFIG_ENERGY_MODEL)
#define TESTFREQ_EM	1
#else
#define TESTFREQ_EM	0
#endif

static unsigned int max_khz = 1000000;
module_param(max_khz, uint, 0444);
MODULE_PARM_DESC(max_khz, "top frequency of every cluster, kHz (4000..10000000)");

static bool em;
module_param(em, bool, 0444);
MODULE_PARM_DESC(em, "register an energy model for each policy (default off)");

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

/* The frequency of operating point @k, 1..STEPS (STEPS is the top). */
static unsigned int step_khz(unsigned int k)
{
	return max_khz / STEPS * k;
}

#if TESTFREQ_EM
#define LITTLE_TOP_UW	100000UL
#define BIG_TOP_UW	500000UL

/* CPUs whose energy model this load registered (the others kept theirs). */
static struct cpumask em_registered;

/*
 * Power (uW) at operating point @k of a CPU whose power at the top one is
 * @top_uw: top * (k / STEPS) * (V / V_max)^2, V / V_max = (10 - STEPS + k) / 10.
 */
static unsigned long step_power_uw(unsigned long top_uw, unsigned int k)
{
	unsigned long v = 10 - STEPS + k;

	return top_uw * k * v * v / (STEPS * 100);
}

/* The energy model's callback: the lowest operating point at or above @khz. */
static int testfreq_active_power(struct device *dev, unsigned long *power,
				 unsigned long *khz)
{
	unsigned long top_uw = arch_scale_cpu_capacity(dev->id) < SCHED_CAPACITY_SCALE ?
			       LITTLE_TOP_UW : BIG_TOP_UW;
	unsigned int k;

	for (k = 1; k <= STEPS; k++) {
		if (step_khz(k) >= *khz) {
			*khz = step_khz(k);
			*power = step_power_uw(top_uw, k);
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * cpufreq_driver.register_em: called once per new policy, after init and
 * before its governor starts, so that the governor's sched-domain rebuild
 * sees the model.
 */
static void testfreq_register_em(struct cpufreq_policy *policy)
{
	struct em_data_callback cb = EM_DATA_CB(testfreq_active_power);
	struct device *dev = get_cpu_device(policy->cpu);
	int ret;

	ret = em_dev_register_perf_domain(dev, STEPS, &cb, policy->related_cpus, true);
	if (!ret) {
		cpumask_or(&em_registered, &em_registered, policy->related_cpus);
		pr_info("energy model for cpus %*pbl, capacity %lu\n",
			cpumask_pr_args(policy->related_cpus),
			arch_scale_cpu_capacity(policy->cpu));
	} else if (ret == -EEXIST) {
		/* The kernel keeps a CPU's energy model for good (6.x). */
		pr_info("cpus %*pbl keep the energy model they already had\n",
			cpumask_pr_args(policy->related_cpus));
	} else {
		pr_err("no energy model for cpus %*pbl (%d)\n",
		       cpumask_pr_args(policy->related_cpus), ret);
	}
}

/*
 * Undo the registration at policy exit; the kernel ignores the call for
 * CPU devices (their model outlives the driver), so a later em=1 load
 * finds it in place.
 */
static void testfreq_unregister_em(struct cpufreq_policy *policy)
{
	if (!cpumask_test_cpu(policy->cpu, &em_registered))
		return;
	em_dev_unregister_perf_domain(get_cpu_device(policy->cpu));
	cpumask_andnot(&em_registered, &em_registered, policy->related_cpus);
}
#else
static void testfreq_unregister_em(struct cpufreq_policy *policy)
{
}
#endif

static int testfreq_init(struct cpufreq_policy *policy)
{
	struct cpufreq_frequency_table *table;
	unsigned int i, cpu;

	table = kcalloc(STEPS + 1, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	for (i = 0; i < STEPS; i++) {
		table[i].driver_data = i;
		table[i].frequency = step_khz(i + 1);
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
	testfreq_unregister_em(policy);
	kfree(policy->freq_table);
	policy->freq_table = NULL;
}
#else
static int testfreq_exit(struct cpufreq_policy *policy)
{
	testfreq_unregister_em(policy);
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
	if (em && !IS_ENABLED(CONFIG_ENERGY_MODEL)) {
		pr_err("em=1: this kernel has no energy model (CONFIG_ENERGY_MODEL is off)\n");
		return -EINVAL;
	}
	if (em && !TESTFREQ_EM) {
		pr_err("em=1: this kernel's energy model API is older than the 5.19 one this driver uses\n");
		return -EINVAL;
	}
#if TESTFREQ_EM
	if (em)
		testfreq_driver.register_em = testfreq_register_em;
#endif
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
