// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU frequency ratio, cur/max on the 0..1024 scale, for the
 * frequency invariance of the utilization signal.
 *
 * The current frequency comes from the cpu_frequency tracepoint, which
 * cpufreq emits for every CPU of a policy on each change (also on the
 * fast-switch path schedutil uses). The maximum comes from each policy,
 * read at load and on policy creation through a CPUFREQ_POLICY_NOTIFIER
 * (a transition notifier would disable fast switching). A CPU without
 * cpufreq runs at ratio 1024.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "hmpgov/hmpgov.h"

static DEFINE_PER_CPU(u32, freq_ratio) = HMPGOV_FREQ_SCALE;
static DEFINE_PER_CPU(u32, freq_max_khz);

static u32 ratio_of(unsigned int khz, u32 max)
{
	u64 r;

	if (!max || !khz)
		return HMPGOV_FREQ_SCALE;
	r = (u64)khz * HMPGOV_FREQ_SCALE / max;
	return r > HMPGOV_FREQ_SCALE ? HMPGOV_FREQ_SCALE : (r ? (u32)r : 1);
}

u32 hmpgov_freq_ratio(int cpu)
{
	return READ_ONCE(per_cpu(freq_ratio, cpu));
}

/* Probe context: the cpu_frequency tracepoint. */
void hmpgov_freq_changed(unsigned int khz, unsigned int cpu)
{
	if (cpu >= nr_cpu_ids)
		return;
	WRITE_ONCE(per_cpu(freq_ratio, cpu),
		   ratio_of(khz, READ_ONCE(per_cpu(freq_max_khz, cpu))));
}

static void policy_known(struct cpufreq_policy *policy)
{
	unsigned int cpu;

	for_each_cpu(cpu, policy->related_cpus) {
		WRITE_ONCE(per_cpu(freq_max_khz, cpu), policy->cpuinfo.max_freq);
		WRITE_ONCE(per_cpu(freq_ratio, cpu),
			   ratio_of(policy->cur, policy->cpuinfo.max_freq));
	}
}

static void policy_gone(struct cpufreq_policy *policy)
{
	unsigned int cpu;

	for_each_cpu(cpu, policy->related_cpus) {
		WRITE_ONCE(per_cpu(freq_max_khz, cpu), 0);
		WRITE_ONCE(per_cpu(freq_ratio, cpu), HMPGOV_FREQ_SCALE);
	}
}

static int policy_event(struct notifier_block *nb, unsigned long event,
			void *data)
{
	if (event == CPUFREQ_CREATE_POLICY)
		policy_known(data);
	else if (event == CPUFREQ_REMOVE_POLICY)
		policy_gone(data);
	return NOTIFY_OK;
}

static struct notifier_block policy_nb = {
	.notifier_call = policy_event,
};

int hmpgov_freq_init(void)
{
	struct cpufreq_policy *policy;
	unsigned int cpu;
	int ret;

	ret = cpufreq_register_notifier(&policy_nb, CPUFREQ_POLICY_NOTIFIER);
	if (ret && ret != -EINVAL)	/* -EINVAL: no cpufreq in this kernel */
		return ret;
	for_each_possible_cpu(cpu) {
		policy = cpufreq_cpu_get(cpu);
		if (!policy)
			continue;
		policy_known(policy);
		cpufreq_cpu_put(policy);
	}
	return 0;
}

void hmpgov_freq_exit(void)
{
	cpufreq_unregister_notifier(&policy_nb, CPUFREQ_POLICY_NOTIFIER);
}
