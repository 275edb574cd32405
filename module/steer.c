// SPDX-License-Identifier: GPL-2.0
/*
 * The steering worker: turns classes into CPU masks, in process context.
 *
 * Fed by the probes (feed.c) with the slots of tasks that appeared or
 * changed class, and run again every 16 ms while it manages tasks (every
 * 32, 64, up to 128 ms while its passes find nothing to change), it
 *
 *  1. adopts the tasks it may steer: user tasks that are not RT or
 *     deadline, not PF_NO_SETAFFINITY, allowed on more than one CPU and
 *     not in exclude_comm; it keeps a reference and the task's mask as
 *     its base (the user's will, or its cpuset's);
 *  2. refreshes each active task's class and utilization from its slot,
 *     forgets tasks that exited, and takes a mask that differs from the
 *     one it applied as a change by the user (sched_setaffinity, cpuset,
 *     hotplug fallback): that mask becomes the new base;
 *  3. decides the masks of the active tasks with the placement rules
 *     (placement.c), always within the base, and applies the ones that
 *     change with set_cpus_allowed_ptr(), at most MOVES_PER_PASS per pass
 *     and one per task per min_interval_ms.
 *
 * Active tasks are those that ran in the last IDLE_NS (the probes mark
 * the slots of tasks that run, feed.c). A task asleep for longer keeps
 * the mask it has, counts in no packing sum (its load has decayed to
 * nothing) and costs a pass nothing but a look every second or so (every
 * N/2000 s beyond 2,000 tasks), when the sweep refreshes about
 * SWEEP_TASKS idle tasks per pass to notice exits and the user's mask
 * changes. So a pass costs in proportion to the tasks that run, not to
 * those tracked.
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

#include "hmpgov/compat.h"
#include "hmpgov/hints.h"
#include "hmpgov/hmpgov.h"
#include "hmpgov/placement.h"
#include "hmpgov/steer.h"
#include "hmpgov/task_table.h"
#include "hmpgov/trace_events.h"

#define MOVES_PER_PASS	32
#define PERIOD_MS	16
/*
 * Passes that find nothing to change come ever less often, up to this:
 * on an emulated machine the 16 ms wake-ups of an idle vCPU cost the
 * busy ones host time (bench-speed). A feed or a change brings the
 * period back to PERIOD_MS.
 */
#define PERIOD_MAX_MS	128
#define IDLE_NS		(1000ULL * NSEC_PER_MSEC)
#define MANAGED_BITS	10
/* The whole hash in 64 passes (a second) or more: 32 idle tasks a pass. */
#define SWEEP_BUCKETS	((1U << MANAGED_BITS) / 64)
#define SWEEP_TASKS	32

const char *const hmpgov_mode_names[HMPGOV_NR_MODES] = {
	[HMPGOV_MODE_OFF] = "off",
	[HMPGOV_MODE_OBSERVE] = "observe",
	[HMPGOV_MODE_STEER] = "steer",
};

const char *const hmpgov_steer_names[HMPGOV_NR_STEER] = {
	[HMPGOV_STEER_AFFINITY] = "affinity",
	[HMPGOV_STEER_UCLAMP] = "uclamp",
	[HMPGOV_STEER_BOTH] = "both",
	[HMPGOV_STEER_AUTO] = "auto",
};

struct managed {
	struct hlist_node node;
	struct list_head active_node;	/* on active_list while active */
	struct task_struct *p;		/* a reference is held */
	u64 ran_at;			/* last pass that saw it run */
	bool active;
	unsigned int slot;
	struct hmpgov_mask_hint mask;
	struct hmpgov_clamp_hint clamp;
	hmpgov_mask traced;		/* last decision traced (observe) */
	u64 moved_at;
	enum hmpgov_class class;
	u32 util, avg;
	int cpu;
};

static DEFINE_HASHTABLE(managed_hash, MANAGED_BITS);
static DEFINE_MUTEX(steer_lock);
static unsigned int nr_managed, max_managed, nr_active, sweep_bucket;
static LIST_HEAD(active_list);
static struct managed **of_slot;	/* table slot -> managed, or NULL */
static unsigned int nr_slots;
static u64 pass_now;			/* the running pass's clock */
static unsigned int period_ms;		/* until the next pass */
static atomic_t all_active;		/* hotplug: look at every task */
static struct managed **index_of;	/* worker scratch, max_managed */
static struct hmpgov_placed *placed;
static unsigned int *order;
static struct hmpgov_packing packing;
static struct workqueue_struct *steer_wq;
static struct delayed_work steer_dwork;
static int hotplug_state = -1;
static bool stopping;

/* uclamp levels from the kernel's capacities (hmpgov_steer_init()). */
static u32 clamp_min_of_cluster[HMPGOV_MAX_CLUSTERS];
static u32 clamp_max_small;

struct counters {
	atomic_long_t set, restored, rebased, errors;
};

static atomic_long_t n_adopted, n_excluded, n_class_changes;
static struct counters mask_count, clamp_count;

static void count(struct counters *c, enum hmpgov_hint_result r,
		  bool restoring)
{
	if (r == HMPGOV_HINT_SET)
		atomic_long_inc(restoring ? &c->restored : &c->set);
	else if (r == HMPGOV_HINT_REBASED)
		atomic_long_inc(&c->rebased);
	else if (r == HMPGOV_HINT_ERROR)
		atomic_long_inc(&c->errors);
}

static bool uses(unsigned int backend)
{
	return READ_ONCE(hmpgov_settings.backends) & backend;
}

static hmpgov_mask active_mask(void)
{
	hmpgov_mask all = hmpgov_topo.nr_cpus >= HMPGOV_MAX_CPUS ? ~0ULL :
			  HMPGOV_CPU_BIT(hmpgov_topo.nr_cpus) - 1;

	return cpumask_bits(cpu_active_mask)[0] & all;
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
 * Whether hmpgov may steer @p at all, given its base mask: not when the
 * user allowed it one CPU only (its current mask may be one CPU because
 * hmpgov packed it).
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

/* Give @m's task its base back where hmpgov's value is still in place. */
static void restore(struct managed *m)
{
	count(&mask_count, hmpgov_mask_hint_restore(&m->mask, m->p), true);
	count(&clamp_count, hmpgov_clamp_hint_restore(&m->clamp, m->p), true);
}

static void make_active(struct managed *m)
{
	m->ran_at = pass_now;
	if (m->active)
		return;
	m->active = true;
	list_add_tail(&m->active_node, &active_list);
	nr_active++;
}

static void make_idle(struct managed *m)
{
	if (!m->active)
		return;
	m->active = false;
	list_del(&m->active_node);
	nr_active--;
}

static void forget(struct managed *m)
{
	make_idle(m);
	if (of_slot[m->slot] == m)
		of_slot[m->slot] = NULL;
	hash_del(&m->node);
	put_task_struct(m->p);
	kfree(m);
	nr_managed--;
}

/*
 * Adopt the task in @slot if hmpgov may steer it. @again: it ran and was
 * not managed, so it was refused before; only a task now allowed on more
 * than one CPU (and steerable otherwise) gets a new look, and a refusal
 * is not counted twice.
 */
static void adopt_task(unsigned int slot, bool again)
{
	struct managed *m, *parent = NULL;
	struct task_struct *p;
	struct hmpgov_task t;

	if (slot >= nr_slots || !hmpgov_table_read(slot, &t))
		return;
	m = of_slot[slot];
	if (m && m->p != t.task) {	/* its task is no longer tracked */
		restore(m);
		forget(m);
	}
	m = find_managed(t.task);
	if (m) {			/* it changed class, or slot */
		if (m->slot != slot) {
			of_slot[m->slot] = NULL;
			m->slot = slot;
			of_slot[slot] = m;
		}
		make_active(m);
		return;
	}
	if (nr_managed >= max_managed)
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
	if (again && (p->nr_cpus_allowed < 2 || !steerable_task(p, ~0ULL))) {
		put_task_struct(p);
		return;
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		put_task_struct(p);
		return;
	}
	m->p = p;
	m->slot = slot;
	if (t.parent)
		parent = find_managed_pid(t.parent);
	/* A child may carry what hmpgov gave its parent, not the user's. */
	hmpgov_mask_hint_adopt(&m->mask, p, parent ? &parent->mask : NULL);
	if (uses(HMPGOV_BACKEND_UCLAMP))
		hmpgov_clamp_hint_adopt(&m->clamp, p,
					parent ? &parent->clamp : NULL);
	if (!steerable_task(p, m->mask.base)) {
		atomic_long_inc(&n_excluded);
		restore(m);	/* an inherited hint goes back to the base */
		put_task_struct(p);
		kfree(m);
		return;
	}
	m->class = t.class;
	m->cpu = t.cpu;
	hash_add(managed_hash, &m->node, hash_ptr(p, 32));
	of_slot[slot] = m;
	nr_managed++;
	make_active(m);
	atomic_long_inc(&n_adopted);
}

/* The feed: @slot's task appeared or changed class. */
static void adopt(unsigned int slot)
{
	adopt_task(slot, false);
}

/*
 * The probes saw the task in @slot run. One not managed is looked at
 * again: a task first seen allowed on one CPU may have been given more.
 */
static void ran(unsigned int slot)
{
	if (slot >= nr_slots)
		return;
	if (of_slot[slot])
		make_active(of_slot[slot]);
	else
		adopt_task(slot, true);
}

/* Step 2; false if @m was forgotten. A changed base makes @m active. */
static bool refresh(struct managed *m, u64 now)
{
	struct hmpgov_task t;

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
	if (hmpgov_mask_hint_refresh(&m->mask, m->p) == HMPGOV_HINT_REBASED) {
		m->traced = 0;
		atomic_long_inc(&mask_count.rebased);
		make_active(m);
	}
	if (uses(HMPGOV_BACKEND_UCLAMP))
		count(&clamp_count, hmpgov_clamp_hint_refresh(&m->clamp, m->p),
		      false);
	if (!steerable_task(m->p, m->mask.base)) {
		atomic_long_inc(&n_excluded);	/* e.g. renamed by exec */
		restore(m);
		forget(m);
		return false;
	}
	m->class = t.class;
	m->util = hmpgov_task_util(&t, now);
	m->avg = hmpgov_task_avg(&t, now);
	m->cpu = t.cpu;
	return true;
}

/*
 * The mask a decision gives @m's task under the chosen backends: with
 * uclamp alone, only rule 1 uses a mask (nothing else packs small tasks
 * on one CPU); big tasks are left to the kernel's capacity fitting.
 */
static hmpgov_mask target_mask(const struct managed *m, hmpgov_mask want)
{
	if (!want || (!uses(HMPGOV_BACKEND_AFFINITY) &&
		      m->class != HMPGOV_CLASS_SMALL))
		return m->mask.base;
	return want;
}

/*
 * The uclamp request a decision gives @m's task: a big task placed on a
 * cluster gets the util_min that fits only that cluster and bigger ones;
 * a small task the util_max that fits the littlest CPUs.
 */
static void target_clamp(const struct managed *m, hmpgov_mask want,
			 struct hmpgov_clamp *out)
{
	u32 min = HMPGOV_CLAMP_NO_MIN, max = HMPGOV_CLAMP_NO_MAX;

	if (want && m->class == HMPGOV_CLASS_BIG)
		min = clamp_min_of_cluster[hmpgov_topo.cluster[__ffs64(want)]];
	else if (m->class == HMPGOV_CLASS_SMALL)
		max = clamp_max_small;	/* packed or overflowing */
	hmpgov_clamp_combine(&m->clamp.base, min, max, out);
}

/* Bring @m's hints to the decision @want; true if they differed. */
static bool apply(struct managed *m, hmpgov_mask want, u64 now,
		  unsigned int *moves)
{
	hmpgov_mask mask = target_mask(m, want);
	bool clamps = uses(HMPGOV_BACKEND_UCLAMP);
	struct hmpgov_clamp clamp = { 0 };
	bool move_mask, move_clamp;
	int mode = READ_ONCE(hmpgov_settings.mode);

	if (clamps)
		target_clamp(m, want, &clamp);
	move_mask = mask != hmpgov_mask_hint_now(&m->mask);
	move_clamp = clamps &&
		     !hmpgov_clamp_same(&clamp, hmpgov_clamp_hint_now(&m->clamp));
	if (!move_mask && !move_clamp)
		return false;
	if (mode == HMPGOV_MODE_OBSERVE) {
		if (m->traced != mask)
			trace_hmpgov_place(m->p->pid, m->p->comm, m->class,
					   mask, clamp.min, clamp.max, false);
		m->traced = mask;
		return true;
	}
	if (*moves >= MOVES_PER_PASS ||
	    now - m->moved_at < READ_ONCE(hmpgov_settings.min_interval_ns))
		return true;
	if (move_mask)
		count(&mask_count, hmpgov_mask_hint_apply(&m->mask, m->p, mask),
		      false);
	if (move_clamp)
		count(&clamp_count,
		      hmpgov_clamp_hint_apply(&m->clamp, m->p, &clamp), false);
	trace_hmpgov_place(m->p->pid, m->p->comm, m->class,
			   hmpgov_mask_hint_now(&m->mask),
			   hmpgov_clamp_hint_now(&m->clamp)->min,
			   hmpgov_clamp_hint_now(&m->clamp)->max, true);
	m->moved_at = now;
	(*moves)++;
	return true;
}

/* Step 3; returns how many decisions differed from the tasks' hints. */
static unsigned int decide(u64 now)
{
	struct hmpgov_machine mach = {
		.nr_cpus = hmpgov_topo.nr_cpus,
		.capacity = hmpgov_topo.capacity,
		.cluster = hmpgov_topo.cluster,
		.nr_clusters = hmpgov_topo.nr_clusters,
		.online = active_mask(),
	};
	unsigned int n = 0, i, moves = 0, changed = 0;
	struct managed *m;

	list_for_each_entry(m, &active_list, active_node) {
		if (n >= max_managed)
			break;
		index_of[n] = m;
		placed[n].class = m->class;
		placed[n].util = m->util;
		placed[n].avg = m->avg;
		placed[n].cpu = m->cpu;
		placed[n].base = m->mask.base;
		n++;
	}
	hmpgov_place(&mach, placed, n, &packing,
		     READ_ONCE(hmpgov_settings.pack_limit), order, now);
	for (i = 0; i < n; i++) {
		hmpgov_mask want = placed[i].want & mach.online;

		changed += apply(index_of[i], want == placed[i].base ? 0 : want,
				 now, &moves);
	}
	return changed;
}

static void rescan_table(void)
{
	unsigned int i;

	for (i = 0; i < nr_slots; i++)
		adopt(i);
}

/* Refresh the active tasks; those that did not run for IDLE_NS go idle. */
static void refresh_active(u64 now)
{
	struct managed *m, *tmp;

	list_for_each_entry_safe(m, tmp, &active_list, active_node)
		if (refresh(m, now) && now - m->ran_at > IDLE_NS)
			make_idle(m);
}

/*
 * A look at the idle tasks of the next buckets: at most SWEEP_BUCKETS
 * buckets, and no bucket more once SWEEP_TASKS tasks were looked at.
 */
static void sweep_idle(u64 now)
{
	unsigned int buckets = 0, seen = 0;
	struct hlist_node *tmp;
	struct managed *m;

	while (buckets++ < SWEEP_BUCKETS && seen < SWEEP_TASKS) {
		hlist_for_each_entry_safe(m, tmp, &managed_hash[sweep_bucket],
					  node) {
			if (m->active)
				continue;
			refresh(m, now);
			seen++;
		}
		sweep_bucket = (sweep_bucket + 1) % HASH_SIZE(managed_hash);
	}
}

static void make_all_active(void)
{
	struct managed *m;
	int bkt;

	hash_for_each(managed_hash, bkt, m, node)
		make_active(m);
}

static void steer_work(struct work_struct *work)
{
	unsigned int busy;
	u64 now;

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
	now = ktime_get_mono_fast_ns();
	pass_now = now;
	busy = hmpgov_feed_drain(adopt);
	if (hmpgov_feed_overflowed())
		rescan_table();
	hmpgov_feed_drain_ran(ran);
	if (atomic_xchg(&all_active, 0))
		make_all_active();
	refresh_active(now);
	sweep_idle(now);
	busy += decide(now);
	period_ms = busy ? PERIOD_MS :
		    min_t(unsigned int, 2 * period_ms, PERIOD_MAX_MS);
	if (nr_managed)
		queue_delayed_work(steer_wq, &steer_dwork,
				   msecs_to_jiffies(period_ms));
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
	memset(&packing, 0, sizeof(packing));
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
	atomic_set(&all_active, 1);
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
	s->active = nr_active;
	s->pack_cpus = packing.nr;
	s->pack_overflow = packing.overflow;
	mutex_unlock(&steer_lock);
	s->adopted = atomic_long_read(&n_adopted);
	s->excluded = atomic_long_read(&n_excluded);
	s->class_changes = atomic_long_read(&n_class_changes);
	s->moves = atomic_long_read(&mask_count.set);
	s->restores = atomic_long_read(&mask_count.restored);
	s->base_changes = atomic_long_read(&mask_count.rebased);
	s->move_errors = atomic_long_read(&mask_count.errors);
	s->uclamp_sets = atomic_long_read(&clamp_count.set);
	s->uclamp_restores = atomic_long_read(&clamp_count.restored);
	s->uclamp_base_changes = atomic_long_read(&clamp_count.rebased);
	s->uclamp_errors = atomic_long_read(&clamp_count.errors);
}

/*
 * The kernel's own capacities, if it knows them and they differ: then its
 * wake-up placement, misfit migration and schedutil act on uclamp.
 */
static bool kernel_sees_asymmetry(u32 *kcap)
{
	bool differ = false;
	unsigned int cpu;

	for (cpu = 0; cpu < hmpgov_topo.nr_cpus; cpu++) {
		kcap[cpu] = hmpgov_kernel_cpu_capacity(cpu);
		if (!kcap[cpu])
			return false;
		if (kcap[cpu] != kcap[0])
			differ = true;
	}
	return differ;
}

static void set_clamp_levels(const u32 *kcap)
{
	unsigned int cpu, nr = hmpgov_topo.nr_cpus;

	if (!hmpgov_steerable_machine(&hmpgov_topo))
		return;		/* passive: nothing is placed */
	for (cpu = 0; cpu < nr; cpu++)
		clamp_min_of_cluster[hmpgov_topo.cluster[cpu]] =
			hmpgov_clamp_min_for(kcap, nr, kcap[cpu]);
	clamp_max_small = hmpgov_clamp_max_small(kcap, nr);
	pr_info("uclamp: big tasks util_min %u (biggest cluster), small tasks util_max %u\n",
		clamp_min_of_cluster[hmpgov_topo.nr_clusters - 1],
		clamp_max_small);
}

/**
 * hmpgov_steer_choose() - settle steer= against this kernel
 * @requested: enum hmpgov_steer from the parameter
 *
 * Sets hmpgov_settings.backends and .steer. auto takes uclamp where this
 * build can set it and the kernel itself sees asymmetric capacities,
 * affinity otherwise; uclamp and both are refused (-EINVAL, one line)
 * where they could not work. Call after the topology is known.
 */
int hmpgov_steer_choose(int requested)
{
	bool built = hmpgov_uclamp_built(), asym;
	int chosen = requested;
	u32 *kcap;

	kcap = kcalloc(hmpgov_topo.nr_cpus, sizeof(*kcap), GFP_KERNEL);
	if (!kcap)
		return -ENOMEM;
	asym = kernel_sees_asymmetry(kcap);
	if (requested == HMPGOV_STEER_AUTO)
		chosen = built && asym ? HMPGOV_STEER_UCLAMP :
			 HMPGOV_STEER_AFFINITY;
	if (chosen != HMPGOV_STEER_AFFINITY && !built) {
		pr_err("steer=%s: this kernel has no uclamp for modules (CONFIG_UCLAMP_TASK unset, or sched_setattr_nocheck not exported before 5.14); use steer=affinity or auto\n",
		       hmpgov_steer_names[chosen]);
		kfree(kcap);
		return -EINVAL;
	}
	if (chosen != HMPGOV_STEER_AFFINITY && !asym) {
		pr_err("steer=%s: the kernel itself sees no asymmetric CPU capacities, so its placement would ignore uclamp (capacity= informs hmpgov only); use steer=affinity or auto\n",
		       hmpgov_steer_names[chosen]);
		kfree(kcap);
		return -EINVAL;
	}
	if (chosen != HMPGOV_STEER_AFFINITY)
		set_clamp_levels(kcap);
	kfree(kcap);
	hmpgov_settings.steer = chosen;
	hmpgov_settings.requested_steer = requested;
	hmpgov_settings.backends =
		chosen == HMPGOV_STEER_AFFINITY ? HMPGOV_BACKEND_AFFINITY :
		chosen == HMPGOV_STEER_UCLAMP ? HMPGOV_BACKEND_UCLAMP :
		HMPGOV_BACKEND_AFFINITY | HMPGOV_BACKEND_UCLAMP;
	return 0;
}

int hmpgov_steer_init(unsigned int max_tasks)
{
	int ret = -ENOMEM;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(hmpgov_mask));
	max_managed = max_tasks;
	nr_managed = 0;
	nr_active = 0;
	sweep_bucket = 0;
	period_ms = PERIOD_MS;
	atomic_set(&all_active, 0);
	stopping = false;
	memset(&packing, 0, sizeof(packing));
	hash_init(managed_hash);
	INIT_LIST_HEAD(&active_list);
	nr_slots = hmpgov_table_size();
	of_slot = kvcalloc(nr_slots, sizeof(*of_slot), GFP_KERNEL);
	index_of = kvcalloc(max_tasks, sizeof(*index_of), GFP_KERNEL);
	placed = kvcalloc(max_tasks, sizeof(*placed), GFP_KERNEL);
	order = kvcalloc(max_tasks, sizeof(*order), GFP_KERNEL);
	if (!of_slot || !index_of || !placed || !order)
		goto free;
	ret = hmpgov_feed_init(nr_slots);
	if (ret)
		goto free;
	ret = -ENOMEM;
	if (hmpgov_mask_hint_init())
		goto feed;
	/*
	 * High priority (nice -20 workers): a class change should reach its
	 * task before the busy tasks of the CPU it was raised on have run on.
	 */
	steer_wq = alloc_ordered_workqueue("hmpgov", WQ_HIGHPRI);
	if (!steer_wq)
		goto hint;
	INIT_DELAYED_WORK(&steer_dwork, steer_work);
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "hmpgov:online",
					hotplug_changed, hotplug_changed);
	if (ret < 0)
		goto destroy;
	hotplug_state = ret;
	return 0;
destroy:
	destroy_workqueue(steer_wq);
hint:
	hmpgov_mask_hint_exit();
feed:
	hmpgov_feed_exit();
free:
	kvfree(order);
	kvfree(placed);
	kvfree(index_of);
	kvfree(of_slot);
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
	hmpgov_mask_hint_exit();
	hmpgov_feed_exit();
	kvfree(order);
	kvfree(placed);
	kvfree(index_of);
	kvfree(of_slot);
}
