// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task load tracking: the tracepoint probes.
 *
 * Every probe runs inside the scheduler with a runqueue lock held (or
 * pi_lock, or in an RCU callback), interrupts or preemption off. So each
 * one does a bounded amount of work on preallocated memory and takes no
 * lock: see task_table.c for the table and util_signal.c for the signal.
 *
 *   sched_stat_runtime  a task's runtime since its last accounting (every
 *                       tick while it runs, and when it stops): the input
 *                       of the signal
 *   sched_switch        the last switch of an exiting task frees its slot
 *   sched_process_fork  a new user task is tracked from its birth
 *   sched_process_free  the slot of a freed task is released (backstop)
 *   cpu_frequency       the frequency ratio of a CPU (freq.c)
 *
 * Kernel threads are not tracked: hmpgov never steers them. On 5.10,
 * sched_stat_runtime fires for CFS tasks only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "hmpgov/compat.h"
#include "hmpgov/hmpgov.h"
#include "hmpgov/task_table.h"

DEFINE_PER_CPU(struct hmpgov_events, hmpgov_events);

/* Read on every event; written by the halflife_ms knob. */
u32 hmpgov_halflife_ns = 32 * NSEC_PER_MSEC;

static bool tracked_kind(struct task_struct *p)
{
	return !(p->flags & PF_KTHREAD) && p->pid;
}

static void probe_stat_runtime(HMPGOV_STAT_RUNTIME_ARGS)
{
	struct hmpgov_task *e;
	u64 now;
	int cpu;

	this_cpu_inc(hmpgov_events.runtime);
	if (!tracked_kind(tsk))
		return;
	now = ktime_get_mono_fast_ns();
	e = hmpgov_table_get(tsk, now);
	if (!e)
		return;
	cpu = task_cpu(tsk);
	hmpgov_task_write_begin(e);
	hmpgov_util_account(&e->util, now, runtime, hmpgov_topo.capacity[cpu],
			    hmpgov_freq_ratio(cpu), READ_ONCE(hmpgov_halflife_ns));
	e->cpu = cpu;
	memcpy(e->comm, tsk->comm, sizeof(e->comm) - 1);
	hmpgov_task_write_end(e);
}

static void probe_switch(HMPGOV_SWITCH_ARGS)
{
	this_cpu_inc(hmpgov_events.sched_switch);
	if (HMPGOV_PREV_STATE & TASK_DEAD)
		hmpgov_table_remove(prev);
}

static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	this_cpu_inc(hmpgov_events.fork);
	if (tracked_kind(child))
		hmpgov_table_get(child, ktime_get_mono_fast_ns());
}

static void probe_free(void *data, struct task_struct *p)
{
	this_cpu_inc(hmpgov_events.free);
	hmpgov_table_remove(p);
}

static void probe_cpu_frequency(void *data, unsigned int frequency,
				unsigned int cpu_id)
{
	this_cpu_inc(hmpgov_events.frequency);
	hmpgov_freq_changed(frequency, cpu_id);
}

static struct hmpgov_probe tracking_probes[] = {
	{ .name = "sched_stat_runtime", .func = probe_stat_runtime },
	{ .name = "sched_switch", .func = probe_switch },
	{ .name = "sched_process_fork", .func = probe_fork },
	{ .name = "sched_process_free", .func = probe_free },
	{ .name = "cpu_frequency", .func = probe_cpu_frequency },
};

int hmpgov_tracking_start(unsigned int max_tasks)
{
	int ret;

	ret = hmpgov_table_init(max_tasks);
	if (ret)
		return ret;
	ret = hmpgov_freq_init();
	if (ret)
		goto free_table;
	ret = hmpgov_probes_attach(tracking_probes, ARRAY_SIZE(tracking_probes));
	if (ret)
		goto stop_freq;
	return 0;
stop_freq:
	hmpgov_freq_exit();
free_table:
	hmpgov_table_free();
	return ret;
}

void hmpgov_tracking_stop(void)
{
	hmpgov_probes_detach(tracking_probes, ARRAY_SIZE(tracking_probes));
	hmpgov_freq_exit();
	hmpgov_table_free();
}
