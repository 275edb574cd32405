// SPDX-License-Identifier: GPL-2.0
/*
 * The steering worker: turns classes into CPU masks, in process context.
 *
 * Fed by the probes (feed.c) with the slots of tasks that appeared or
 * changed class, and run again every 16 ms while it manages tasks, it
 *
 *  1. adopts the tasks it may steer: user tasks that are not RT or
 *     deadline, not PF_NO_SETAFFINITY, allowed on more than one CPU and
 *     not in exclude_comm; it keeps a reference and the task's mask as
 *     its base (the user's will, or its cpuset's);
 *  2. refreshes each managed task's class and utilization from its slot,
 *     forgets tasks that exited, and takes a mask that differs from the
 *     one it applied as a change by the user (sched_setaffinity, cpuset,
 *     hotplug fallback): that mask becomes the new base;
 *  3. decides every mask with the placement rules (placement.c), always
 *     within the base, and applies the ones that change with
 *     set_cpus_allowed_ptr(), at most MOVES_PER_PASS per pass and one per
 *     task per min_interval_ms.
 *
 * mode=off and rmmod give every managed task its base back, unless the
 * user changed the mask since hmpgov set it. The managed set is guarded
 * by steer_lock, a mutex: only the worker, the mode knob and unload take
 * it, never a probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "hmpgov/hmpgov.h"
#include "hmpgov/placement.h"
#include "hmpgov/steer.h"
#include "hmpgov/task_table.h"
#include "hmpgov/trace_events.h"

#define MOVES_PER_PASS	32
#define PERIOD_MS	16
#define RECENT_MASKS	4

const char *const hmpgov_mode_names[HMPGOV_NR_MODES] = {
	[HMPGOV_MODE_OFF] = "off",
	[HMPGOV_MODE_OBSERVE] = "observe",
	[HMPGOV_MODE_STEER] = "steer",
};

struct managed {
	struct hlist_node node;
	struct task_struct *p;		/* a reference is held */
	unsigned int slot;
	hmpgov_mask base;
	hmpgov_mask applied;		/* 0: the task runs on its base */
	hmpgov_mask traced;		/* last decision traced (observe) */
	hmpgov_mask recent[RECENT_MASKS];	/* the last masks hmpgov set */
	unsigned int recent_next;
	u64 moved_at;
	enum hmpgov_class class;
	u32 util, avg;
	int cpu;
};

static DEFINE_HASHTABLE(managed_hash, 10);
static DEFINE_MUTEX(steer_lock);
static unsigned int nr_managed, max_managed;
static struct managed **index_of;	/* worker scratch, max_managed */
static struct hmpgov_placed *placed;
static unsigned int *order;
static struct hmpgov_packing packing;
static cpumask_var_t scratch_mask;
static struct workqueue_struct *steer_wq;
static struct delayed_work steer_dwork;
static int hotplug_state = -1;
static bool stopping;

static atomic_long_t n_adopted, n_moves, n_restores, n_base_changes,
		     n_excluded, n_move_errors, n_class_changes;

/* 64-bit only (Kconfig of both arches): one long holds the low 64 CPUs. */
static hmpgov_mask task_mask(struct task_struct *p)
{
	unsigned long flags;
	hmpgov_mask m;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	m = cpumask_bits(&p->cpus_mask)[0];
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	return m;
}

static hmpgov_mask active_mask(void)
{
	hmpgov_mask all = hmpgov_topo.nr_cpus >= HMPGOV_MAX_CPUS ? ~0ULL :
			  HMPGOV_CPU_BIT(hmpgov_topo.nr_cpus) - 1;

	return cpumask_bits(cpu_active_mask)[0] & all;
}

static int set_mask(struct task_struct *p, hmpgov_mask m)
{
	cpumask_clear(scratch_mask);
	cpumask_bits(scratch_mask)[0] = m;
	return set_cpus_allowed_ptr(p, scratch_mask);
}

static struct managed *find_managed_pid(pid_t pid)
{
	struct managed *m;
	int bkt;

	hash_for_each(managed_hash, bkt, m, node)
		if (m->p->pid == pid)
			return m;
	return NULL;
}

static struct managed *find_managed(struct task_struct *p)
{
	struct managed *m;

	hash_for_each_possible(managed_hash, m, node, hash_ptr(p, 32))
		if (m->p == p)
			return m;
	return NULL;
}

static bool excluded_comm(const char *comm)
{
	const char *list = hmpgov_exclude_comm, *end;
	size_t len = strlen(comm);

	while (*list) {
		end = strchrnul(list, ',');
		if ((size_t)(end - list) == len && !strncmp(list, comm, len))
			return true;
		list = *end ? end + 1 : end;
	}
	return false;
}

/*
 * Whether hmpgov may change @p's mask at all, given its base: not when
 * the user allowed it one CPU only (its current mask may be one CPU
 * because hmpgov packed it).
 */
static bool steerable_task(struct task_struct *p, hmpgov_mask base)
{
	if (p->flags & (PF_KTHREAD | PF_NO_SETAFFINITY | PF_EXITING))
		return false;
	if (p->policy == SCHED_FIFO || p->policy == SCHED_RR ||
	    p->policy == SCHED_DEADLINE)
		return false;
	if (!(base & (base - 1)))
		return false;
	return !excluded_comm(p->comm);
}

/* Give @m's task its base back if hmpgov's mask is still in place. */
static void restore(struct managed *m)
{
	if (!m->applied)
		return;
	if (task_mask(m->p) == m->applied) {
		if (set_mask(m->p, m->base))
			atomic_long_inc(&n_move_errors);
		else
			atomic_long_inc(&n_restores);
	}
	m->applied = 0;
}

static bool set_recently(const struct managed *m, hmpgov_mask mask)
{
	unsigned int i;

	if (m->applied && m->applied == mask)
		return true;
	for (i = 0; i < RECENT_MASKS; i++)
		if (m->recent[i] && m->recent[i] == mask)
			return true;
	return false;
}

static void adopt(unsigned int slot)
{
	struct task_struct *p;
	struct hmpgov_task t;
	struct managed *m;

	if (slot >= hmpgov_table_size() || !hmpgov_table_read(slot, &t))
		return;
	if (find_managed(t.task) || nr_managed >= max_managed)
		return;
	rcu_read_lock();
	p = pid_task(find_vpid(t.pid), PIDTYPE_PID);
	if (p != t.task)
		p = NULL;
	else
		get_task_struct(p);
	rcu_read_unlock();
	if (!p)
		return;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		put_task_struct(p);
		return;
	}
	m->p = p;
	m->slot = slot;
	m->base = task_mask(p);
	/*
	 * A child forked while hmpgov had narrowed its parent's mask
	 * inherited that mask, not the user's: it gets the parent's base.
	 * The parent may have moved since the fork, so any of the last
	 * masks hmpgov gave it counts.
	 */
	if (t.parent) {
		struct managed *parent = find_managed_pid(t.parent);

		if (parent && set_recently(parent, m->base)) {
			m->applied = m->base;
			m->base = parent->base;
		}
	}
	if (!steerable_task(p, m->base)) {
		atomic_long_inc(&n_excluded);
		restore(m);	/* an inherited mask goes back to the base */
		put_task_struct(p);
		kfree(m);
		return;
	}
	m->class = t.class;
	m->cpu = t.cpu;
	hash_add(managed_hash, &m->node, hash_ptr(p, 32));
	nr_managed++;
	atomic_long_inc(&n_adopted);
}

static void forget(struct managed *m)
{
	hash_del(&m->node);
	put_task_struct(m->p);
	kfree(m);
	nr_managed--;
}

/* Step 2; false if @m was forgotten. */
static bool refresh(struct managed *m, u64 now)
{
	struct hmpgov_task t;
	hmpgov_mask cur;

	if (m->p->flags & PF_EXITING) {
		forget(m);
		return false;
	}
	if (!hmpgov_table_read(m->slot, &t))
		return true;	/* being written: next pass */
	if (t.task != m->p) {	/* no longer tracked */
		restore(m);
		forget(m);
		return false;
	}
	cur = task_mask(m->p);
	if (cur != (m->applied ? m->applied : m->base)) {
		m->base = cur;		/* the user's will wins */
		m->applied = 0;
		m->traced = 0;
		memset(m->recent, 0, sizeof(m->recent));
		atomic_long_inc(&n_base_changes);
	}
	if (!steerable_task(m->p, m->base)) {
		atomic_long_inc(&n_excluded);	/* e.g. renamed by exec */
		restore(m);
		forget(m);
		return false;
	}
	m->class = t.class;
	m->util = hmpgov_task_util(&t, now);
	m->avg = hmpgov_util_avg(&t.util, now, READ_ONCE(hmpgov_halflife_ns));
	m->cpu = t.cpu;
	return true;
}

static void apply(struct managed *m, hmpgov_mask want, u64 now,
		  unsigned int *moves)
{
	hmpgov_mask target = want ? want : m->base;
	hmpgov_mask now_on = m->applied ? m->applied : m->base;
	int mode = READ_ONCE(hmpgov_settings.mode);

	if (target == now_on)
		return;
	if (mode == HMPGOV_MODE_OBSERVE) {
		if (m->traced != target)
			trace_hmpgov_place(m->p->pid, m->p->comm, m->class,
					   target, false);
		m->traced = target;
		return;
	}
	if (*moves >= MOVES_PER_PASS ||
	    now - m->moved_at < READ_ONCE(hmpgov_settings.min_interval_ns))
		return;
	if (set_mask(m->p, target)) {
		atomic_long_inc(&n_move_errors);
		return;
	}
	trace_hmpgov_place(m->p->pid, m->p->comm, m->class, target, true);
	m->applied = target == m->base ? 0 : target;
	if (m->applied)
		m->recent[m->recent_next++ % RECENT_MASKS] = target;
	m->moved_at = now;
	(*moves)++;
	atomic_long_inc(&n_moves);
}

static void decide(u64 now)
{
	struct hmpgov_machine mach = {
		.nr_cpus = hmpgov_topo.nr_cpus,
		.capacity = hmpgov_topo.capacity,
		.cluster = hmpgov_topo.cluster,
		.nr_clusters = hmpgov_topo.nr_clusters,
		.online = active_mask(),
	};
	unsigned int n = 0, i, moves = 0;
	struct managed *m;
	int bkt;

	hash_for_each(managed_hash, bkt, m, node) {
		if (n >= max_managed)
			break;
		index_of[n] = m;
		placed[n].class = m->class;
		placed[n].util = m->util;
		placed[n].avg = m->avg;
		placed[n].cpu = m->cpu;
		placed[n].base = m->base;
		n++;
	}
	hmpgov_place(&mach, placed, n, &packing,
		     READ_ONCE(hmpgov_settings.pack_limit), order);
	for (i = 0; i < n; i++) {
		hmpgov_mask want = placed[i].want & mach.online;

		apply(index_of[i], want == placed[i].base ? 0 : want, now,
		      &moves);
	}
}

static void rescan_table(void)
{
	unsigned int i;

	for (i = 0; i < hmpgov_table_size(); i++)
		adopt(i);
}

static void steer_work(struct work_struct *work)
{
	struct hlist_node *tmp;
	struct managed *m;
	u64 now;
	int bkt;

	mutex_lock(&steer_lock);
	if (stopping) {
		mutex_unlock(&steer_lock);
		return;
	}
	if (READ_ONCE(hmpgov_settings.mode) == HMPGOV_MODE_OFF) {
		hmpgov_feed_drain(NULL);
		mutex_unlock(&steer_lock);
		return;
	}
	hmpgov_feed_drain(adopt);
	if (hmpgov_feed_overflowed())
		rescan_table();
	now = ktime_get_mono_fast_ns();
	hash_for_each_safe(managed_hash, bkt, tmp, m, node)
		refresh(m, now);
	decide(now);
	if (nr_managed)
		queue_delayed_work(steer_wq, &steer_dwork,
				   msecs_to_jiffies(PERIOD_MS));
	mutex_unlock(&steer_lock);
}

/* Any context (the feed's irq_work, hotplug, knobs): run the worker soon. */
void hmpgov_steer_kick(void)
{
	if (READ_ONCE(hmpgov_settings.steerable))
		mod_delayed_work(steer_wq, &steer_dwork, 0);
}

static void restore_all(void)
{
	struct hlist_node *tmp;
	struct managed *m;
	int bkt;

	hash_for_each_safe(managed_hash, bkt, tmp, m, node) {
		restore(m);
		forget(m);
	}
	packing.cpus = 0;
	packing.nr = 0;
}

int hmpgov_steer_set_mode(int mode)
{
	if (mode < 0 || mode >= HMPGOV_NR_MODES)
		return -EINVAL;
	if (mode != HMPGOV_MODE_OFF && !READ_ONCE(hmpgov_settings.steerable))
		return -EINVAL;
	mutex_lock(&steer_lock);
	WRITE_ONCE(hmpgov_settings.mode, mode);
	if (mode != HMPGOV_MODE_STEER)
		restore_all();
	mutex_unlock(&steer_lock);
	if (mode != HMPGOV_MODE_OFF) {
		mutex_lock(&steer_lock);
		rescan_table();
		mutex_unlock(&steer_lock);
		hmpgov_steer_kick();
	}
	return 0;
}

static int hotplug_changed(unsigned int cpu)
{
	hmpgov_steer_kick();
	return 0;
}

void hmpgov_count_class_change(void)
{
	atomic_long_inc(&n_class_changes);
}

void hmpgov_steer_stats(struct hmpgov_steer_stats *s)
{
	mutex_lock(&steer_lock);
	s->managed = nr_managed;
	s->pack_cpus = packing.nr;
	mutex_unlock(&steer_lock);
	s->adopted = atomic_long_read(&n_adopted);
	s->moves = atomic_long_read(&n_moves);
	s->restores = atomic_long_read(&n_restores);
	s->base_changes = atomic_long_read(&n_base_changes);
	s->excluded = atomic_long_read(&n_excluded);
	s->move_errors = atomic_long_read(&n_move_errors);
	s->class_changes = atomic_long_read(&n_class_changes);
}

int hmpgov_steer_init(unsigned int max_tasks)
{
	int ret = -ENOMEM;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(hmpgov_mask));
	max_managed = max_tasks;
	nr_managed = 0;
	stopping = false;
	packing.cpus = 0;
	packing.nr = 0;
	hash_init(managed_hash);
	index_of = kvcalloc(max_tasks, sizeof(*index_of), GFP_KERNEL);
	placed = kvcalloc(max_tasks, sizeof(*placed), GFP_KERNEL);
	order = kvcalloc(max_tasks, sizeof(*order), GFP_KERNEL);
	if (!index_of || !placed || !order ||
	    !zalloc_cpumask_var(&scratch_mask, GFP_KERNEL))
		goto free;
	steer_wq = alloc_ordered_workqueue("hmpgov", 0);
	if (!steer_wq)
		goto free;
	INIT_DELAYED_WORK(&steer_dwork, steer_work);
	hmpgov_feed_init();
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "hmpgov:online",
					hotplug_changed, hotplug_changed);
	if (ret < 0)
		goto destroy;
	hotplug_state = ret;
	return 0;
destroy:
	destroy_workqueue(steer_wq);
free:
	free_cpumask_var(scratch_mask);
	kvfree(order);
	kvfree(placed);
	kvfree(index_of);
	return ret;
}

/* After the probes are detached. */
void hmpgov_steer_exit(void)
{
	cpuhp_remove_state_nocalls(hotplug_state);
	hmpgov_feed_sync();
	mutex_lock(&steer_lock);
	stopping = true;
	mutex_unlock(&steer_lock);
	cancel_delayed_work_sync(&steer_dwork);
	mutex_lock(&steer_lock);
	restore_all();
	mutex_unlock(&steer_lock);
	destroy_workqueue(steer_wq);
	free_cpumask_var(scratch_mask);
	kvfree(order);
	kvfree(placed);
	kvfree(index_of);
}
