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
 *   HMPGOV_HAVE_TASK___STATE       task_struct's state is __state (5.14+)
 *   HMPGOV_SWITCH_PREV_STATE       sched_switch passes prev_state (5.18+)
 *   HMPGOV_STAT_RUNTIME_VRUNTIME   sched_stat_runtime passes vruntime
 *                                  (until 6.7, and 6.6.0-6.6.65)
 *   HMPGOV_HAVE_USER_CPUS_PTR      task_struct has user_cpus_ptr (5.15+)
 *   HMPGOV_HAVE_MIGRATION_DISABLED task_struct counts its migrate_disable()
 *                                  sections (5.11+)
 *   HMPGOV_HAVE_SETATTR_NOCHECK    sched_setattr_nocheck() is exported
 *                                  (5.14+); with CONFIG_UCLAMP_TASK and
 *                                  the next, it gives HMPGOV_HAVE_UCLAMP
 *   HMPGOV_HAVE_UCLAMP_RESET       a clamp of -1 goes back to the kernel's
 *                                  default (5.11+): without it no restore
 *                                  could be exact, and uclamp is not used
 *
 * A probe's prototype must match its tracepoint exactly (a mismatch is
 * undefined behaviour, and fatal under kCFI), so the probes are declared
 * with the argument lists below and read the arguments they need through
 * the helpers. The compiler checks each probe against the kernel's own
 * declaration (check_probe_types() in module/tracking.c): a wrong guess
 * by Kbuild is a build error (scripts/compat-check.sh tests that).
 *
 * Each macro's other branch is built too, on some kernel of the matrix,
 * with W=1 and sparse: natively, or with the macro left unset through
 * Kbuild's HMPGOV_COMPAT_OFF (scripts/compat-permute.sh).
 */
#ifndef HMPGOV_COMPAT_H
#define HMPGOV_COMPAT_H

#include <linux/sched.h>
#include <uapi/linux/sched/types.h>
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

/*
 * The mask a user last asked for with sched_setaffinity(), where the
 * kernel keeps it, else 0; @p->pi_lock held. From 6.2 the kernel keeps it
 * for every task and narrows each set_cpus_allowed_ptr() to it; 5.15 to
 * 6.1 keep one only for 32-bit tasks on asymmetric arm64.
 */
static inline unsigned long hmpgov_user_requested_mask(struct task_struct *p)
{
#ifdef HMPGOV_HAVE_USER_CPUS_PTR
	return p->user_cpus_ptr ? cpumask_bits(p->user_cpus_ptr)[0] : 0;
#else
	return 0;
#endif
}

/*
 * Whether @p is inside a migrate_disable() section (on PREEMPT_RT, any
 * spinlock_t one): moving it off its CPU then waits until it leaves it.
 * A racy read, as the kernel's own is_migration_disabled(). Before 5.11
 * a mainline section is atomic and none is seen (the 5.10 RT patches
 * count them in a field of another name, not read here).
 */
static inline bool hmpgov_migration_disabled(struct task_struct *p)
{
#if defined(HMPGOV_HAVE_MIGRATION_DISABLED) && defined(CONFIG_SMP)
	return READ_ONCE(p->migration_disabled);
#else
	return false;
#endif
}

#if defined(CONFIG_UCLAMP_TASK) && defined(HMPGOV_HAVE_SETATTR_NOCHECK) && \
	defined(HMPGOV_HAVE_UCLAMP_RESET)
#define HMPGOV_HAVE_UCLAMP
#endif

/*
 * A task's uclamp request, read as sched_getattr() does (no lock: the
 * fields are written whole under the task's rq lock). Without uclamp:
 * the defaults.
 */
static inline void hmpgov_uclamp_get(struct task_struct *p, u16 *min,
				     u16 *max, bool *min_user, bool *max_user)
{
#ifdef HMPGOV_HAVE_UCLAMP
	*min = p->uclamp_req[UCLAMP_MIN].value;
	*max = p->uclamp_req[UCLAMP_MAX].value;
	*min_user = p->uclamp_req[UCLAMP_MIN].user_defined;
	*max_user = p->uclamp_req[UCLAMP_MAX].user_defined;
#else
	*min = 0;
	*max = SCHED_CAPACITY_SCALE;
	*min_user = false;
	*max_user = false;
#endif
}

/*
 * Set a task's uclamp request and nothing else: policy -1 keeps the
 * policy and reset-on-fork (the in-kernel path has no KEEP_POLICY), the
 * priority and nice given are the task's own (validated even with
 * KEEP_PARAMS). A side of -1 returns to the kernel's default. Process
 * context only: it takes the rq lock and may sleep.
 */
static inline int hmpgov_uclamp_set(struct task_struct *p, int min, int max)
{
#ifdef HMPGOV_HAVE_UCLAMP
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = -1,
		.sched_flags = SCHED_FLAG_KEEP_PARAMS | SCHED_FLAG_UTIL_CLAMP,
		.sched_nice = task_nice(p),
		.sched_priority = p->rt_priority,
		.sched_util_min = min,
		.sched_util_max = max,
	};

	return sched_setattr_nocheck(p, &attr);
#else
	return -EOPNOTSUPP;
#endif
}

/* The state a task is in (TASK_RUNNING, TASK_DEAD, ...). */
static inline unsigned int hmpgov_task_state(struct task_struct *p)
{
#ifdef HMPGOV_HAVE_TASK___STATE
	return READ_ONCE(p->__state);
#else
	return READ_ONCE(p->state);
#endif
}

/*
 * Probe argument lists, with fixed names: sched_switch's probe sees
 * prev, next and (as HMPGOV_PREV_STATE) the state prev left in;
 * sched_stat_runtime's sees tsk and runtime.
 */
#ifdef HMPGOV_SWITCH_PREV_STATE
#define HMPGOV_SWITCH_ARGS	void *data, bool preempt,			\
				struct task_struct *prev,			\
				struct task_struct *next,			\
				unsigned int prev_state
#define HMPGOV_PREV_STATE	prev_state
#else
#define HMPGOV_SWITCH_ARGS	void *data, bool preempt,			\
				struct task_struct *prev,			\
				struct task_struct *next
#define HMPGOV_PREV_STATE	hmpgov_task_state(prev)
#endif

#ifdef HMPGOV_STAT_RUNTIME_VRUNTIME
#define HMPGOV_STAT_RUNTIME_ARGS	void *data, struct task_struct *tsk,	\
					u64 runtime, u64 vruntime
#else
#define HMPGOV_STAT_RUNTIME_ARGS	void *data, struct task_struct *tsk,	\
					u64 runtime
#endif

#endif /* HMPGOV_COMPAT_H */
