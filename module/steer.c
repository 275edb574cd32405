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
 *  2. refreshes each active task's class and utilization from its slot
 *     (a process younger than YOUNG_NS is not big yet), forgets tasks that
 *     exited, and takes a mask that differs from the
 *     one it applied as a change by the user (sched_setaffinity, cpuset,
 *     hotplug fallback): that mask becomes the new base;
 *  3. decides the masks of the active tasks with the placement rules
 *     (placement.c), always within the base, and applies the ones that
 *     change with set_cpus_allowed_ptr(), at most MOVES_PER_PASS per pass
 *     and one per task per move_interval_ms.
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
 * user changed the mask since hmpgov set it, and then the children those
 * tasks forked meanwhile (they inherited hmpgov's mask or clamps): the
 * fork probe keeps feeding them until the rounds find none to give back.
 * The managed set is guarded by steer_lock, a mutex: only the worker,
 * the mode knob and unload take it, never a probe.
 *
 * The decision itself is pure C (placement.c, host-tested); the ways it
 * reaches a task are the engaged backends (backend.c, hint_*.c). This
 * file holds, in this order: the managed set; adopting, refreshing and
 * restoring tasks through the backends; deciding and applying; the
 * worker and its schedule; mode changes, hotplug and load/unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
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
#include "hmpgov/view.h"

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
#define YOUNG_NS	(64ULL * NSEC_PER_MSEC)
/*
 * restore_drained(): rounds DRAIN_MS apart, until DRAIN_QUIET rounds in a
 * row gave nothing back (a fork that copied its parent's mask may reach
 * the probe that much later), DRAIN_ROUNDS at most
 */
#define DRAIN_ROUNDS	40
#define DRAIN_QUIET	10
#define DRAIN_MS	10
#define MANAGED_BITS	10
/* The whole hash in 64 passes (a second) or more: 32 idle tasks a pass. */
#define SWEEP_BUCKETS	((1U << MANAGED_BITS) / 64)
#define SWEEP_TASKS	32

const char *const hmpgov_mode_names[HMPGOV_NR_MODES] = {
	[HMPGOV_MODE_OFF] = "off",
	[HMPGOV_MODE_OBSERVE] = "observe",
	[HMPGOV_MODE_STEER] = "steer",
};

/* ---- The managed set ---------------------------------------------- */

struct managed {
	struct hlist_node node;
	struct list_head active_node;	/* on active_list while active */
	struct task_struct *p;		/* a reference is held */
	u64 ran_at;			/* last pass that saw it run */
	bool active;
	unsigned int slot;
	struct hmpgov_hints hints;	/* one per backend */
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
static u8 *why_of_slot;			/* the last decision's reason, or WHY_NONE */
static unsigned int nr_slots;
static u64 pass_now;			/* the running pass's clock */
static unsigned long pass_jiffies;	/* when the last pass began */
static unsigned int period_ms;		/* until the next pass */
static bool young_held;			/* this pass kept a young task medium */
static atomic_t all_active;		/* hotplug: look at every task */
static struct managed **index_of;	/* worker scratch, max_managed */
static struct hmpgov_placed *placed;
static unsigned int *order;
static struct hmpgov_packing packing;
static struct workqueue_struct *steer_wq;
static struct delayed_work steer_dwork;
static int hotplug_state = -1;
static bool stopping;

#define WHY_NONE	0xff		/* not managed */

static hmpgov_mask active_mask(void)
{
	hmpgov_mask all = hmpgov_topo.nr_cpus >= HMPGOV_MAX_CPUS ? ~0ULL :
			  HMPGOV_CPU_BIT(hmpgov_topo.nr_cpus) - 1;

	return cpumask_bits(cpu_active_mask)[0] & all;
}

static struct managed *find_managed(struct task_struct *p)
{
	struct managed *m;

	hash_for_each_possible(managed_hash, m, node, hash_ptr(p, 32))
		if (m->p == p)
			return m;
	return NULL;
}

/*
 * The managed task of global pid @pid (a forked child's parent). Through
 * the pid while the task lives; one that exited since the fork is looked
 * for in the whole set.
 */
static struct managed *find_managed_pid(pid_t pid)
{
	struct task_struct *p;
	struct managed *m;
	int bkt;

	rcu_read_lock();
	p = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
	rcu_read_unlock();
	if (p)			/* compared, not dereferenced */
		return find_managed(p);
	hash_for_each(managed_hash, bkt, m, node)
		if (m->p->pid == pid)
			return m;
	return NULL;
}

/* Whether hmpgov may steer @p at all, given its base mask (placement.c). */
static bool steerable_task(struct task_struct *p, hmpgov_mask base)
{
	char comm[TASK_COMM_LEN];
	struct hmpgov_task_kind k = {
		.kernel = p->flags & (PF_KTHREAD | PF_NO_SETAFFINITY),
		.exiting = p->flags & PF_EXITING,
		.realtime = p->policy == SCHED_FIFO || p->policy == SCHED_RR ||
			    p->policy == SCHED_DEADLINE,
		.base = base,
		.comm = comm,
	};

	get_task_comm(comm, p);
	return !hmpgov_excluded(&k, hmpgov_settings.exclude_comm);
}

/* ---- Tasks through the backends ----------------------------------- */

/* What @m's task reads of its mask follows each change (view.c). */
static void publish(struct managed *m)
{
	hmpgov_view_set(m->p, m->hints.mask.base, m->hints.mask.applied);
}

/*
 * Give @m's task its base back where hmpgov's value is still in place;
 * true if a backend changed the task.
 */
static bool restore(struct managed *m)
{
	const struct hmpgov_backend_ops *b;
	enum hmpgov_hint_result r;
	bool set = false;
	unsigned int i;

	for (i = 0; i < HMPGOV_NR_BACKENDS; i++) {
		b = hmpgov_backend(i);
		if (!b)
			continue;
		r = b->restore(&m->hints, m->p);
		hmpgov_count_hint(b, r, true);
		set |= r == HMPGOV_HINT_SET;
	}
	publish(m);
	return set;
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
	if (of_slot[m->slot] == m) {
		of_slot[m->slot] = NULL;
		WRITE_ONCE(why_of_slot[m->slot], WHY_NONE);
	}
	hash_del(&m->node);
	hmpgov_view_forget(m->p);
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
	const struct hmpgov_backend_ops *b;
	struct task_struct *p;
	struct hmpgov_task t;
	unsigned int i;

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
			WRITE_ONCE(why_of_slot[m->slot], WHY_NONE);
			m->slot = slot;
			of_slot[slot] = m;
		}
		make_active(m);
		return;
	}
	if (nr_managed >= max_managed)
		return;
	/* a mode write may come from a container: hmpgov_table_task() */
	rcu_read_lock();
	p = hmpgov_table_task(&t);
	if (p)
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
	/* no uclamp backend: the kernel's defaults, as traced */
	m->hints.clamp.base.max = HMPGOV_CLAMP_NO_MAX;
	if (t.parent)
		parent = find_managed_pid(t.parent);
	/* A child may carry what hmpgov gave its parent, not the user's. */
	for (i = 0; i < HMPGOV_NR_BACKENDS; i++) {
		b = hmpgov_backend(i);
		if (b)
			b->adopt(&m->hints, p, parent ? &parent->hints : NULL);
	}
	/*
	 * Diagnostic: a mask within its managed parent's base, narrower,
	 * and not one hmpgov gave the parent lately, is taken as the
	 * user's (a taskset child's own set, or a narrowing forgotten)
	 */
	if (parent && !m->hints.mask.applied &&
	    m->hints.mask.base != parent->hints.mask.base &&
	    !(m->hints.mask.base & ~parent->hints.mask.base))
		atomic_long_inc(&hmpgov_counters.narrower_than_parent);
	if (!steerable_task(p, m->hints.mask.base)) {
		atomic_long_inc(&hmpgov_counters.excluded);
		restore(m);	/* an inherited hint goes back to the base */
		hmpgov_view_forget(p);
		put_task_struct(p);
		kfree(m);
		WRITE_ONCE(why_of_slot[slot], HMPGOV_WHY_EXCLUDED);
		return;
	}
	m->class = t.class;
	m->cpu = t.cpu;
	publish(m);
	hash_add(managed_hash, &m->node, hash_ptr(p, 32));
	of_slot[slot] = m;
	nr_managed++;
	make_active(m);
	atomic_long_inc(&hmpgov_counters.adopted);
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

/*
 * A process younger than four windows (its group leader's fork) is not
 * long-running yet, and a program that has just started reads its mask,
 * often from /proc/self/status (libnuma, so cyclictest), where no view
 * can reach: it keeps its base until then, not a big cluster's mask.
 * Only the mask waits: with steer=uclamp alone a big task is boosted at
 * once. The threads of an older process are not young.
 */
static bool young(struct task_struct *p, u64 now)
{
	u64 born;

	if (!(READ_ONCE(hmpgov_settings.backends) & HMPGOV_BACKEND_AFFINITY))
		return false;
	rcu_read_lock();
	born = READ_ONCE(p->group_leader)->start_time;
	rcu_read_unlock();
	return born + YOUNG_NS > now;
}

/* Step 2; false if @m was forgotten. A changed base makes @m active. */
static bool refresh(struct managed *m, u64 now)
{
	const struct hmpgov_backend_ops *b;
	enum hmpgov_hint_result r;
	struct hmpgov_task t;
	unsigned int i, slot;

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
	for (i = 0; i < HMPGOV_NR_BACKENDS; i++) {
		b = hmpgov_backend(i);
		if (!b)
			continue;
		r = b->refresh(&m->hints, m->p);
		hmpgov_count_hint(b, r, false);
		if (r == HMPGOV_HINT_REBASED) {	/* decide again */
			m->traced = 0;
			make_active(m);
		}
	}
	publish(m);
	if (!steerable_task(m->p, m->hints.mask.base)) {
		atomic_long_inc(&hmpgov_counters.excluded);	/* renamed by exec */
		restore(m);
		slot = m->slot;
		forget(m);
		WRITE_ONCE(why_of_slot[slot], HMPGOV_WHY_EXCLUDED);
		return false;
	}
	m->class = t.class;
	if (m->class == HMPGOV_CLASS_BIG && young(m->p, now)) {
		m->class = HMPGOV_CLASS_MEDIUM;
		young_held = true;
	}
	m->util = hmpgov_task_util(&t, now);
	m->avg = hmpgov_task_avg(&t, now);
	m->cpu = t.cpu;
	return true;
}

/* ---- Deciding and applying ----------------------------------------- */

static void trace_place(const struct managed *m, const struct hmpgov_placed *d,
			hmpgov_mask mask, const struct hmpgov_clamp *clamp,
			bool applied)
{
	/* the event's reason names (trace_events.h) follow enum hmpgov_why */
	BUILD_BUG_ON(HMPGOV_NR_WHY != 9);
	trace_hmpgov_place(m->p->pid, m->p->comm, m->class, mask, clamp->min,
			   clamp->max, applied, d->why, d->cluster);
}

/* Bring @m's task to the decision @d through every engaged backend. */
static void apply(struct managed *m, const struct hmpgov_placed *d, u64 now)
{
	struct hmpgov_target target = { .mask = d->mask, .clamp = d->clamp };
	const struct hmpgov_backend_ops *b;
	enum hmpgov_hint_result r;
	bool deferred = false;
	unsigned int i;

	/* a narrowing no view could hide is not made (view.c) */
	if (!hmpgov_view_expect(m->p, m->hints.mask.base,
				m->hints.mask.applied, d->mask))
		target.mask = hmpgov_mask_hint_now(&m->hints.mask);
	for (i = 0; i < HMPGOV_NR_BACKENDS; i++) {
		b = hmpgov_backend(i);
		if (!b)
			continue;
		r = b->apply(&m->hints, m->p, &target);
		hmpgov_count_hint(b, r, false);
		deferred |= r == HMPGOV_HINT_DEFERRED;
	}
	publish(m);
	/* a deferred move is the next pass's, at once (hint_affinity.c) */
	trace_place(m, d, hmpgov_mask_hint_now(&m->hints.mask),
		    hmpgov_clamp_hint_now(&m->hints.clamp), !deferred);
	if (!deferred)
		m->moved_at = now;
}

static void trace_packing(const struct hmpgov_packing *was)
{
	if (was->cpus != packing.cpus || was->overflow != packing.overflow)
		trace_hmpgov_pack(packing.cpus, packing.nr, packing.overflow,
				  packing.sum);
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
	bool observe = READ_ONCE(hmpgov_settings.mode) == HMPGOV_MODE_OBSERVE;
	struct hmpgov_policy pol = {
		.backends = READ_ONCE(hmpgov_settings.backends),
		.pack_limit = READ_ONCE(hmpgov_settings.pack_limit),
		/* observe changes nothing, so nothing waits */
		.move_interval_ns = observe ? 0 :
			READ_ONCE(hmpgov_settings.move_interval_ns),
		.moves_per_pass = observe ? 0 : MOVES_PER_PASS,
	};
	struct hmpgov_packing was = packing;
	unsigned int n = 0, i, changed;
	struct hmpgov_placed *d;
	struct managed *m;

	hmpgov_backend_clamp_levels(&pol);
	list_for_each_entry(m, &active_list, active_node) {
		if (n >= max_managed)
			break;
		index_of[n] = m;
		d = &placed[n++];
		d->class = m->class;
		d->util = m->util;
		d->avg = m->avg;
		d->cpu = m->cpu;
		d->base = m->hints.mask.base;
		d->mask_now = hmpgov_mask_hint_now(&m->hints.mask);
		d->clamp_base = m->hints.clamp.base;
		d->clamp_now = *hmpgov_clamp_hint_now(&m->hints.clamp);
		d->moved_at = m->moved_at;
	}
	changed = hmpgov_place(&mach, &pol, placed, n, &packing, order, now);
	trace_packing(&was);
	for (i = 0; i < n; i++) {
		m = index_of[i];
		d = &placed[i];
		WRITE_ONCE(why_of_slot[m->slot], d->why);
		if (d->act == HMPGOV_ACT_KEEP)
			continue;
		if (observe) {
			if (m->traced != d->mask)
				trace_place(m, d, d->mask, &d->clamp, false);
			m->traced = d->mask;
		} else if (d->act == HMPGOV_ACT_SET) {
			apply(m, d, now);
		}
	}
	return changed;
}

/* ---- The worker ----------------------------------------------------- */

static void rescan_table(void)
{
	unsigned int i;

	for (i = 0; i < nr_slots; i++)
		adopt(i);
}

/* Adopt what the probes fed, or every slot if the feed lost entries. */
static unsigned int adopt_fed(void)
{
	unsigned int n = hmpgov_feed_drain(adopt);

	if (hmpgov_feed_overflowed())
		rescan_table();
	return n;
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

	/* before the lock: a feed kick meanwhile waits for the next jiffy */
	WRITE_ONCE(pass_jiffies, jiffies);
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
	busy = adopt_fed();
	hmpgov_feed_drain_ran(ran);
	if (atomic_xchg(&all_active, 0))
		make_all_active();
	young_held = false;
	refresh_active(now);
	sweep_idle(now);
	busy += decide(now);
	/* a young task turns big on time: no backing off meanwhile */
	period_ms = busy || young_held ? PERIOD_MS :
		    min_t(unsigned int, 2 * period_ms, PERIOD_MAX_MS);
	if (nr_managed)
		queue_delayed_work(steer_wq, &steer_dwork,
				   msecs_to_jiffies(period_ms));
	mutex_unlock(&steer_lock);
}

/* Any context (hotplug, knobs, mode changes): run the worker now. */
void hmpgov_steer_kick(void)
{
	if (READ_ONCE(hmpgov_settings.steerable))
		mod_delayed_work(steer_wq, &steer_dwork, 0);
}

/*
 * The feed's irq_work: new tasks are placed in the next jiffy, not at
 * once, so that however fast they come (a fork storm) the worker makes at
 * most one pass a jiffy (HZ passes a second), each taking all of them.
 * A kick of hmpgov_steer_kick() queued within the jiffy of a pass may so
 * wait for the next jiffy too.
 */
void hmpgov_steer_kick_feed(void)
{
	if (READ_ONCE(hmpgov_settings.steerable))
		mod_delayed_work(steer_wq, &steer_dwork,
				 time_after(jiffies, READ_ONCE(pass_jiffies)) ?
				 0 : 1);
}

/* ---- Mode changes, hotplug, load and unload ------------------------- */

/*
 * A child forked while hmpgov had narrowed or clamped its parent inherited
 * that, and a child forked before its parent got its base back may reach
 * the fork probe only after: give every managed task its base back, then
 * adopt the children fed meanwhile (as their managed parents' children:
 * adopt() takes the parent's base) and give them theirs, until DRAIN_QUIET
 * rounds in a row give nothing back. The tasks stay managed, so that a late child still
 * finds its parent; restore_all() forgets them. The probes must feed
 * (hmpgov_settings.draining). steer_lock held; sleeps.
 */
static void restore_drained(void)
{
	unsigned int round, quiet = 0;
	struct managed *m;
	bool set;
	int bkt;

	for (round = 0; round < DRAIN_ROUNDS && quiet < DRAIN_QUIET; round++) {
		if (round)
			msleep(DRAIN_MS);
		adopt_fed();
		set = false;
		hash_for_each(managed_hash, bkt, m, node)
			set |= restore(m);
		quiet = set ? 0 : quiet + 1;
	}
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
	/*
	 * and the views of children never adopted; at unload also of tasks
	 * that exited after the free probe was detached
	 */
	hmpgov_view_clear();
}

int hmpgov_steer_set_mode(int mode)
{
	if (mode < 0 || mode >= HMPGOV_NR_MODES)
		return -EINVAL;
	if (mode != HMPGOV_MODE_OFF && !READ_ONCE(hmpgov_settings.steerable))
		return -EINVAL;
	/* one critical section: a concurrent write cannot come in between */
	mutex_lock(&steer_lock);
	if (mode != HMPGOV_MODE_STEER) {
		WRITE_ONCE(hmpgov_settings.draining, true);
		smp_wmb();	/* pairs with steering(): no feed is missed */
	}
	WRITE_ONCE(hmpgov_settings.mode, mode);
	if (mode != HMPGOV_MODE_STEER) {
		restore_drained();
		restore_all();
		WRITE_ONCE(hmpgov_settings.draining, false);
	}
	if (mode != HMPGOV_MODE_OFF)
		rescan_table();
	mutex_unlock(&steer_lock);
	if (mode != HMPGOV_MODE_OFF)
		hmpgov_steer_kick();
	return 0;
}

static int hotplug_changed(unsigned int cpu)
{
	atomic_set(&all_active, 1);
	hmpgov_steer_kick();
	return 0;
}

void hmpgov_steer_stats(struct hmpgov_steer_stats *s)
{
	mutex_lock(&steer_lock);
	s->managed = nr_managed;
	s->active = nr_active;
	s->pack_cpus = packing.nr;
	s->pack_overflow = packing.overflow;
	mutex_unlock(&steer_lock);
}

/* The reason of the last decision for the task in @slot; any context. */
const char *hmpgov_steer_why(unsigned int slot)
{
	unsigned int why;

	if (!why_of_slot || slot >= nr_slots)
		return "-";
	why = READ_ONCE(why_of_slot[slot]);
	return why < HMPGOV_NR_WHY ? hmpgov_why_names[why] : "-";
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
	WRITE_ONCE(pass_jiffies, jiffies - 1);
	atomic_set(&all_active, 0);
	stopping = false;
	memset(&packing, 0, sizeof(packing));
	hash_init(managed_hash);
	INIT_LIST_HEAD(&active_list);
	nr_slots = hmpgov_table_size();
	of_slot = kvcalloc(nr_slots, sizeof(*of_slot), GFP_KERNEL);
	why_of_slot = kvmalloc(nr_slots, GFP_KERNEL);
	if (why_of_slot)
		memset(why_of_slot, WHY_NONE, nr_slots);
	index_of = kvcalloc(max_tasks, sizeof(*index_of), GFP_KERNEL);
	placed = kvcalloc(max_tasks, sizeof(*placed), GFP_KERNEL);
	order = kvcalloc(max_tasks, sizeof(*order), GFP_KERNEL);
	if (!of_slot || !why_of_slot || !index_of || !placed || !order)
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
	kvfree(why_of_slot);
	why_of_slot = NULL;
	kvfree(of_slot);
	return ret;
}

/*
 * Unload, while the probes are still attached: the worker stops, and
 * every managed task and the children they fork meanwhile get their bases
 * back (restore_drained()).
 */
void hmpgov_steer_stop(void)
{
	bool off;

	mutex_lock(&steer_lock);
	/* mode=off gave everything back already */
	off = READ_ONCE(hmpgov_settings.mode) == HMPGOV_MODE_OFF;
	WRITE_ONCE(hmpgov_settings.draining, !off);
	stopping = true;
	mutex_unlock(&steer_lock);
	cancel_delayed_work_sync(&steer_dwork);
	if (off)
		return;
	mutex_lock(&steer_lock);
	restore_drained();
	mutex_unlock(&steer_lock);
}

/*
 * After the probes are detached (and hmpgov_steer_stop(), except when
 * loading fails): the children fed last are adopted and restored with
 * the rest.
 */
void hmpgov_steer_exit(void)
{
	cpuhp_remove_state_nocalls(hotplug_state);
	hmpgov_feed_sync();
	mutex_lock(&steer_lock);
	stopping = true;
	mutex_unlock(&steer_lock);
	cancel_delayed_work_sync(&steer_dwork);
	mutex_lock(&steer_lock);
	if (READ_ONCE(hmpgov_settings.draining))
		adopt_fed();
	restore_all();
	WRITE_ONCE(hmpgov_settings.draining, false);
	mutex_unlock(&steer_lock);
	destroy_workqueue(steer_wq);
	hmpgov_mask_hint_exit();
	hmpgov_feed_exit();
	kvfree(order);
	kvfree(placed);
	kvfree(index_of);
	kvfree(why_of_slot);
	why_of_slot = NULL;
	kvfree(of_slot);
}
