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
 *   sched_switch        notes which task each CPU runs since when (for
 *                       readers between two accountings); the last switch
 *                       of an exiting task frees its slot
 *   sched_process_fork  a new user task is tracked from its birth
 *   sched_process_free  the slot of a freed task is released (backstop)
 *   cpu_frequency       the frequency ratio of a CPU (freq.c)
 *
 * Kernel threads are not tracked: hmpgov never steers them. On 5.10,
 * sched_stat_runtime fires for CFS tasks only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <trace/events/power.h>
#include <trace/events/sched.h>

#include "hmpgov/compat.h"
#include "hmpgov/hmpgov.h"
#include "hmpgov/steer.h"
#include "hmpgov/task_table.h"
#include "hmpgov/trace_events.h"
#include "hmpgov/view.h"

DEFINE_PER_CPU(struct hmpgov_events, hmpgov_events);

/*
 * What each CPU runs, and since when: written by that CPU's sched_switch
 * probe, read locklessly by hmpgov_task_util(). A reader racing with a
 * switch may pair the old task with the new start time; that only makes
 * the unaccounted slice it adds shorter.
 */
struct running {
	struct task_struct *task;
	u64 since;
};

static DEFINE_PER_CPU(struct running, running);

#define MAX_SLICE_NS	(2 * TICK_NSEC)

static bool tracked_kind(struct task_struct *p)
{
	return !(p->flags & PF_KTHREAD) && p->pid;
}

static bool steering(void)
{
	if (!READ_ONCE(hmpgov_settings.steerable))
		return false;
	if (READ_ONCE(hmpgov_settings.mode) != HMPGOV_MODE_OFF)
		return true;
	smp_rmb();	/* draining is set before mode=off (steer.c) */
	return READ_ONCE(hmpgov_settings.draining);
}

/* Hand a slot to the steering worker, if there is steering. */
static void feed(struct hmpgov_task *e)
{
	if (steering())
		hmpgov_feed_push(hmpgov_table_index(e));
}

/* Move @e (@tsk's) to the class its utilization asks for; true if it moved. */
static bool classify(struct hmpgov_task *e, struct task_struct *tsk, u64 now,
		     u64 rate, int cpu)
{
	struct hmpgov_thresholds thr;
	enum hmpgov_class to;
	u32 util;

	hmpgov_thresholds_get(&thr);
	util = hmpgov_util_read(&e->util, now, rate);
	to = hmpgov_class_next(e->class, e->class_since, now, util,
			       hmpgov_util_avg(&e->util, now, rate),
			       hmpgov_topo.capacity[cpu], &thr,
			       READ_ONCE(hmpgov_settings.class_hold_ns));
	if (to == e->class)
		return false;
	trace_hmpgov_class(e->pid, tsk->comm, util, e->class, to);
	e->class = to;
	e->class_since = now;
	atomic_long_inc(&hmpgov_counters.class_changes);
	return true;
}

static void probe_stat_runtime(HMPGOV_STAT_RUNTIME_ARGS)
{
	u64 rate = READ_ONCE(hmpgov_settings.halflife_rate);
	struct hmpgov_task *e;
	bool fresh, moved;
	u64 now;
	int cpu;

	this_cpu_inc(hmpgov_events.runtime);
	if (!tracked_kind(tsk))
		return;
	now = ktime_get_mono_fast_ns();
	e = hmpgov_table_get(tsk, now, 0, &fresh);
	if (!e)
		return;
	cpu = task_cpu(tsk);
	/*
	 * A running task is accounted at every tick; a longer slice means
	 * its CPU did not run (a hypervisor's steal, an emulator's stall)
	 * and is cut to two ticks. docs/load-tracking.md says why.
	 */
	if (runtime > MAX_SLICE_NS)
		runtime = MAX_SLICE_NS;
	hmpgov_task_write_begin(e);
	hmpgov_util_account(&e->util, now, runtime, hmpgov_topo.capacity[cpu],
			    hmpgov_freq_ratio(cpu), rate);
	e->cpu = cpu;
	e->pid = tsk->pid;	/* a thread's exec takes the leader's pid */
	moved = classify(e, tsk, now, rate, cpu);
	hmpgov_task_write_end(e);
	if (fresh || moved)
		feed(e);
	else if (steering())
		hmpgov_feed_ran(hmpgov_table_index(e));
}

static void probe_switch(HMPGOV_SWITCH_ARGS)
{
	struct running *r = this_cpu_ptr(&running);

	this_cpu_inc(hmpgov_events.sched_switch);
	WRITE_ONCE(r->since, ktime_get_mono_fast_ns());
	WRITE_ONCE(r->task, next);
	if (HMPGOV_PREV_STATE & TASK_DEAD)
		hmpgov_table_remove(prev);
}

static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	struct hmpgov_task *e;
	bool fresh;

	this_cpu_inc(hmpgov_events.fork);
	if (!tracked_kind(child))
		return;
	/* the child inherits the mask of current, which forked it */
	hmpgov_view_fork(parent, child);
	e = hmpgov_table_get(child, ktime_get_mono_fast_ns(), current->pid,
			     &fresh);
	if (e && fresh)
		feed(e);
}

static void probe_free(void *data, struct task_struct *p)
{
	this_cpu_inc(hmpgov_events.free);
	hmpgov_view_forget(p);
	hmpgov_table_remove(p);
}

static void probe_cpu_frequency(void *data, unsigned int frequency,
				unsigned int cpu_id)
{
	this_cpu_inc(hmpgov_events.frequency);
	hmpgov_freq_changed(frequency, cpu_id);
}

/*
 * @t's signal brought up to @now: if the task is running, the slice since
 * its last accounting counts.
 */
static void task_now(const struct hmpgov_task *t, u64 now, u64 rate,
		     struct hmpgov_util *u)
{
	struct running *r;
	int cpu = t->cpu;

	*u = t->util;
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return;
	r = per_cpu_ptr(&running, cpu);
	if (READ_ONCE(r->task) != t->task)
		return;
	hmpgov_util_catch_up(u, now, READ_ONCE(r->since),
			     hmpgov_topo.capacity[cpu],
			     hmpgov_freq_ratio(cpu), rate);
}

/**
 * hmpgov_task_util() - utilization of a tracked task now
 * @t:   a consistent copy of its slot (hmpgov_table_read())
 * @now: ktime_get_mono_fast_ns()
 *
 * If the task is running, the slice since its last accounting counts.
 */
u32 hmpgov_task_util(const struct hmpgov_task *t, u64 now)
{
	u64 rate = READ_ONCE(hmpgov_settings.halflife_rate);
	struct hmpgov_util u;

	task_now(t, now, rate, &u);
	return hmpgov_util_read(&u, now, rate);
}

/**
 * hmpgov_task_avg() - the average alone of a tracked task now
 * @t:   a consistent copy of its slot (hmpgov_table_read())
 * @now: ktime_get_mono_fast_ns()
 *
 * Like hmpgov_task_util(), the running slice counts.
 */
u32 hmpgov_task_avg(const struct hmpgov_task *t, u64 now)
{
	u64 rate = READ_ONCE(hmpgov_settings.halflife_rate);
	struct hmpgov_util u;

	task_now(t, now, rate, &u);
	return hmpgov_util_avg(&u, now, rate);
}

/*
 * Never called: passes each probe to the kernel's own type check of its
 * tracepoint, so that a wrong guess of an argument list in compat.h is a
 * build error (-Werror=incompatible-pointer-types), not a call through a
 * mismatched pointer (undefined behaviour, fatal under kCFI). The probes
 * are attached by name (tracepoints.c), which checks no type.
 * scripts/compat-check.sh proves that a wrong guess fails the build.
 */
static inline void __maybe_unused check_probe_types(void)
{
	check_trace_callback_type_sched_stat_runtime(probe_stat_runtime);
	check_trace_callback_type_sched_switch(probe_switch);
	check_trace_callback_type_sched_process_fork(probe_fork);
	check_trace_callback_type_sched_process_free(probe_free);
	check_trace_callback_type_cpu_frequency(probe_cpu_frequency);
}

/*
 * Attached in this order: the probes that forget a task before those that
 * note one, so that no task exits unseen while it is noted (a key or a
 * dropped note left behind could be taken for a later task at its
 * address).
 */
static struct hmpgov_probe tracking_probes[] = {
	{ .name = "sched_switch", .func = probe_switch },
	{ .name = "sched_process_free", .func = probe_free },
	{ .name = "sched_stat_runtime", .func = probe_stat_runtime },
	{ .name = "sched_process_fork", .func = probe_fork },
	{ .name = "cpu_frequency", .func = probe_cpu_frequency },
};

/* The table and the steering worker exist already (main.c). */
int hmpgov_tracking_start(void)
{
	int ret, cpu;

	for_each_possible_cpu(cpu)
		per_cpu_ptr(&running, cpu)->task = NULL;
	ret = hmpgov_freq_init();
	if (ret)
		return ret;
	ret = hmpgov_probes_attach(tracking_probes, ARRAY_SIZE(tracking_probes));
	if (ret)
		hmpgov_freq_exit();
	return ret;
}

/* After it, no probe runs; the table is still there. */
void hmpgov_tracking_stop(void)
{
	hmpgov_probes_detach(tracking_probes, ARRAY_SIZE(tracking_probes));
	hmpgov_freq_exit();
}
