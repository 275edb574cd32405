/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels hmpgov supports (5.10 .. 6.12,
 * arm64 and x86_64, PREEMPT and PREEMPT_RT) is absorbed here, in small
 * helpers, so that the rest of the module reads the same on all of them.
 *
 * Feature macros set by Kbuild from the target kernel (not by version,
 * where a distribution may backport):
 *   HMPGOV_HAVE_ARCH_CPU_CAPACITY  arch_scale_cpu_capacity() links from a
 *                                  module (arm64 exports cpu_scale from 5.15;
 *                                  elsewhere it is an inline or exported)
 *   HMPGOV_HAVE_CLUSTER_ID         topology_cluster_id() exists (5.16+)
 */
#ifndef HMPGOV_COMPAT_H
#define HMPGOV_COMPAT_H

#include <linux/topology.h>
#include <linux/sched/topology.h>

/*
 * The capacity the kernel itself gives @cpu (1..1024), or 0 when a module
 * cannot ask for it.
 */
static inline unsigned long hmpgov_kernel_cpu_capacity(int cpu)
{
#ifdef HMPGOV_HAVE_ARCH_CPU_CAPACITY
	return arch_scale_cpu_capacity(cpu);
#else
	return 0;
#endif
}

/*
 * A key that is equal for the CPUs of one cluster in the kernel's own
 * topology. arm64 from 5.16 has a cluster id below the package; before,
 * each device-tree cluster was reported as a package of its own. x86's
 * cluster id is the L2 group, which is not a capacity cluster: use the
 * package there.
 */
static inline int hmpgov_topology_cluster_key(int cpu)
{
#if defined(CONFIG_ARM64) && defined(HMPGOV_HAVE_CLUSTER_ID)
	return topology_physical_package_id(cpu) * 65536 +
	       topology_cluster_id(cpu);
#else
	return topology_physical_package_id(cpu);
#endif
}

#endif /* HMPGOV_COMPAT_H */
