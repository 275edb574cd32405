// SPDX-License-Identifier: GPL-2.0
/*
 * What a program reads of its own CPU mask: its base, not hmpgov's
 * narrowing.
 *
 * hmpgov steers with the task's real mask (hint_affinity.c), which the
 * task can read. A program that sizes a thread pool from
 * sched_getaffinity() (nproc, Go, the JVM, OpenMP) or saves its mask,
 * pins itself and writes the saved mask back (rt-app's calibration)
 * would take hmpgov's narrowing for the user's will, and from 6.2 the
 * kernel itself would then record it as the user's request. So a
 * kretprobe on the kernel's sched_getaffinity() (used by the syscall and
 * its compat twin; on every kernel of the matrix, never inlined into
 * them) gives the caller the task's base where the mask is still exactly
 * the one hmpgov applied:
 *
 *   entry   the pid, its task (pid 0: the caller) and the mask's
 *           address
 *   return  if the call succeeded, the pid still names that task, and
 *           the task has a view whose applied mask equals what the
 *           kernel returned (the task's mask and the active CPUs), the
 *           base and the active CPUs replace it; so do the one being
 *           applied and the one the worker's last change replaced, and
 *           the view as it was at entry (the kernel may have read the
 *           mask just before a change, and the view changed before
 *           this handler ran)
 *
 * A mask the user set since (anything but the applied one; from 6.2
 * also exactly the applied one, which the kernel then records as the
 * user's request) is shown as it is, so a real sched_setaffinity() still
 * wins. /proc/PID/status shows the kernel's mask unchanged. A narrowing
 * whose view finds no room in the table is not made (steer.c).
 *
 * The views: an open-addressed table keyed by task_struct pointer (never
 * dereferenced here), twice max_tasks slots, written by the worker
 * around each change it makes (before a narrowing, so that no read sees
 * the narrowing without its view), by the fork probe (a child that
 * inherited its parent's narrowing gets the parent's base from its first
 * instruction) and by the free probe. A read or a fork in flight across
 * one of the worker's changes has the mask from before it (the kernel
 * copies a child's mask at the start of a fork), so each view keeps the
 * narrowing its last change replaced for a tenth of a second (before
 * 6.2, a user's set of exactly that mask is taken for it meanwhile), and
 * a view whose task got its base back is kept, empty, until the task is
 * narrowed again, gets a new base or exits, or another task needs its
 * slot; a mask another caller set is not hidden. One raw spinlock
 * guards the table: the probes and the kretprobe run with preemption
 * off, also on PREEMPT_RT, and each holder does a bounded lookup only
 * (clearing the table goes a chunk at a time).
 *
 * Without kretprobes (CONFIG_KRETPROBES=n) hmpgov says so once at load,
 * /sys/kernel/hmpgov/view reads "none", and steering works as before.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "hmpgov/compat.h"
#include "hmpgov/steer.h"
#include "hmpgov/view.h"

#define VIEW_PROBES	16	/* slots a lookup visits at most */
#define VIEW_DEAD	((struct task_struct *)1)
/* how long a replaced narrowing is hidden: calls and forks in flight */
#define VIEW_PREV_JIFFIES	(HZ / 10)

const char *const hmpgov_view_names[HMPGOV_NR_VIEW_STATES] = {
	[HMPGOV_VIEW_BASE] = "base",
	[HMPGOV_VIEW_KERNEL] = "kernel",
	[HMPGOV_VIEW_NONE] = "none",
};

struct view {
	struct task_struct *task;	/* NULL: free; VIEW_DEAD: freed */
	hmpgov_mask base;		/* what the task is shown */
	hmpgov_mask applied;		/* the mask hmpgov gave it */
	hmpgov_mask pending;		/* the one it is giving it now */
	hmpgov_mask foreign;		/* another caller's set, 0: none */
	hmpgov_mask prev;		/* the applied mask the last change replaced */
	unsigned long prev_until;	/* in jiffies: followed until then */
};

static struct view *views;
static unsigned int view_bits;
static unsigned int nr_views;		/* entries in use, kept ones too */
static unsigned int nr_kept;		/* of them kept after a widening */
static DEFINE_RAW_SPINLOCK(view_lock);
static atomic_long_t view_shown, view_dropped, view_foreign;
static bool armed;			/* the kretprobe is registered */
static bool set_armed;			/* and the one on set_cpus_allowed_ptr */

/*
 * An entry kept after its task got its base back: it records nothing,
 * and only a read or a fork in flight across that change finds in it
 * the narrowing it replaced; another task may take its slot.
 */
static bool kept(const struct view *v)
{
	return v->task && v->task != VIEW_DEAD && !v->applied && !v->pending;
}

static struct view *find(struct task_struct *p, struct view **space)
{
	unsigned long hash = hash_ptr(p, view_bits);
	struct view *v, *reuse = NULL;
	unsigned int i;

	if (space)
		*space = NULL;
	for (i = 0; i < VIEW_PROBES; i++) {
		v = &views[(hash + i) & ((1UL << view_bits) - 1)];
		if (v->task == p)
			return v;
		if (space && !*space && (!v->task || v->task == VIEW_DEAD))
			*space = v;
		if (!reuse && kept(v))
			reuse = v;
		if (!v->task)
			break;
	}
	/* a kept view gives its slot only if no slot is free */
	if (space && !*space)
		*space = reuse;
	return NULL;
}

static bool narrowed(hmpgov_mask base, hmpgov_mask m)
{
	return m && m != base;
}

/* view_lock held: @v's applied mask is being replaced. */
static void replaced(struct view *v)
{
	v->prev = v->applied;
	v->prev_until = jiffies + VIEW_PREV_JIFFIES;
}

/*
 * view_lock held: the narrowing @v's last change replaced, if recent and
 * no other caller set the mask since (its mask is never hidden).
 */
static hmpgov_mask recent_prev(const struct view *v)
{
	return v->prev && !v->foreign && time_before(jiffies, v->prev_until) ?
	       v->prev : 0;
}

/* view_lock held: @v's slot is free. */
static void drop(struct view *v)
{
	if (kept(v))
		WRITE_ONCE(nr_kept, nr_kept - 1);
	v->task = VIEW_DEAD;
	WRITE_ONCE(nr_views, nr_views - 1);
}

/*
 * view_lock held. @p's view made @base, @applied and @pending, or gone
 * if neither mask narrows the base; with @keep, a view whose narrowing
 * ends on the same base is kept, emptied, for the calls and forks in
 * flight across the change (kept()). A new base forgets the masks
 * before it. Return: false if a view was needed and no slot was free.
 */
static bool put(struct task_struct *p, hmpgov_mask base, hmpgov_mask applied,
		hmpgov_mask pending, bool keep)
{
	struct view *v, *space;

	v = find(p, &space);
	if (!narrowed(base, applied) && !narrowed(base, pending)) {
		if (!v)
			return true;
		if (keep && v->base == base && !kept(v) && !v->foreign &&
		    narrowed(base, v->applied)) {
			replaced(v);
			v->applied = 0;
			v->pending = 0;
			v->foreign = 0;
			WRITE_ONCE(nr_kept, nr_kept + 1);
		} else if (!keep || v->base != base || !kept(v)) {
			drop(v);
		}
		return true;
	}
	if (v && kept(v)) {
		WRITE_ONCE(nr_kept, nr_kept - 1);
	} else if (!v) {
		if (!space) {
			atomic_long_inc(&view_dropped);
			return false;
		}
		if (kept(space))
			drop(space);
		v = space;
		v->task = p;
		v->foreign = 0;
		v->applied = 0;
		v->prev = 0;
		WRITE_ONCE(nr_views, nr_views + 1);
	}
	if (v->applied && v->applied != applied)
		replaced(v);
	if (v->base != base)
		v->prev = 0;
	v->base = base;
	v->applied = applied;
	v->pending = pending;
	return true;
}

/*
 * view_lock held. Whether a task whose view is @v, whose mask the kernel
 * read as @got, is shown its base: @got is a narrowing of its view (the
 * one applied, the one being applied, or the one the last change
 * replaced, which a call in flight across the change read, for
 * VIEW_PREV_JIFFIES), and not the user's own request @request (6.2+).
 */
static bool hides(const struct view *v, hmpgov_mask got, hmpgov_mask active,
		  hmpgov_mask request)
{
	hmpgov_mask m[] = { v->applied, v->pending, recent_prev(v) };
	unsigned int i;

	if (v->foreign && got == (v->foreign & active))
		return false;
	for (i = 0; i < ARRAY_SIZE(m); i++)
		if (m[i] && got == (m[i] & active) && request != m[i])
			return true;
	return false;
}

static bool view_put(struct task_struct *p, hmpgov_mask base,
		     hmpgov_mask applied, hmpgov_mask pending, bool keep)
{
	unsigned long flags;
	bool ok;

	if (!views)
		return true;
	raw_spin_lock_irqsave(&view_lock, flags);
	ok = put(p, base, applied, pending, keep);
	raw_spin_unlock_irqrestore(&view_lock, flags);
	return ok;
}

/**
 * hmpgov_view_set() - what @p is shown, after a change
 * @p:       a task the worker manages
 * @base:    its base
 * @applied: the mask hmpgov applied, 0 if the base is in place
 *
 * Called after every change of @p's mask, so that a widening is in place
 * before its view goes.
 */
void hmpgov_view_set(struct task_struct *p, hmpgov_mask base,
		     hmpgov_mask applied)
{
	view_put(p, base, applied, 0, true);
}

/**
 * hmpgov_view_expect() - @p is about to get @target
 * @p:       a task the worker manages
 * @base:    its base
 * @applied: the mask hmpgov applied so far, 0 if none
 * @target:  the mask it is about to apply
 *
 * Called before a change, so that no read sees a narrowing without its
 * view; hmpgov_view_set() follows with what was done.
 * Return: false if @target may not be applied: its view found no room,
 * and the task is to be shown its base or another caller's set of its
 * mask is to be recorded.
 */
bool hmpgov_view_expect(struct task_struct *p, hmpgov_mask base,
			hmpgov_mask applied, hmpgov_mask target)
{
	/* without a view a cpuset's call would not be recorded either */
	return view_put(p, base, applied, target, true) ||
	       (hmpgov_view_state() != HMPGOV_VIEW_BASE && !set_armed);
}

/* Also from the free probe, for every task that exits: mostly none. */
void hmpgov_view_forget(struct task_struct *p)
{
	if (READ_ONCE(nr_views))
		view_put(p, 0, 0, 0, false);
}

/*
 * Probe context, before @child first runs: if it inherited the mask
 * hmpgov gave @parent, it is shown @parent's base. The kernel copied the
 * mask at the start of the fork: if the worker changed the parent's mask
 * since (also back to its base), the child has the mask that change
 * replaced. A child that got an older narrowing still is left to the
 * worker, which knows the parent's recent masks.
 */
void hmpgov_view_fork(struct task_struct *parent, struct task_struct *child)
{
	hmpgov_mask mask = READ_ONCE(cpumask_bits(&child->cpus_mask)[0]);
	unsigned long flags;
	struct view *v;

	if (!views || !READ_ONCE(nr_views))
		return;
	raw_spin_lock_irqsave(&view_lock, flags);
	v = find(parent, NULL);
	if (v && (v->applied == mask || v->pending == mask ||
		  recent_prev(v) == mask))
		put(child, v->base, mask, 0, false);
	raw_spin_unlock_irqrestore(&view_lock, flags);
}

/**
 * hmpgov_view_inherited() - the base @p is shown, if its mask is @mask
 * @p:    a task the worker adopts
 * @mask: its mask now
 * @base: receives the base its view shows
 *
 * For a child the fork probe gave a view: the worker adopts it with the
 * base it was shown, also where its parent is not managed (any more).
 * Return: whether @p has a view for @mask.
 */
bool hmpgov_view_inherited(struct task_struct *p, hmpgov_mask mask,
			   hmpgov_mask *base)
{
	unsigned long flags;
	struct view *v;
	bool found;

	if (!views)
		return false;
	raw_spin_lock_irqsave(&view_lock, flags);
	v = find(p, NULL);
	found = v && (v->applied == mask || v->pending == mask);
	if (found)
		*base = v->base;
	raw_spin_unlock_irqrestore(&view_lock, flags);
	return found;
}

#define VIEW_CLEAR_CHUNK	256	/* slots emptied per hold of the lock */

/*
 * Every view goes, a chunk at a time, so that interrupts stay off for a
 * few microseconds only (the table has up to 2^21 slots). A lookup that
 * meets an emptied slot before its entry misses it, as it should now.
 */
void hmpgov_view_clear(void)
{
	unsigned int i, j, size;
	unsigned long flags;
	struct view *v;

	if (!views)
		return;
	size = 1U << view_bits;
	for (i = 0; i < size; i += VIEW_CLEAR_CHUNK) {
		raw_spin_lock_irqsave(&view_lock, flags);
		for (j = i; j < min(size, i + VIEW_CLEAR_CHUNK); j++) {
			v = &views[j];
			if (v->task && v->task != VIEW_DEAD)
				drop(v);
			v->task = NULL;
		}
		raw_spin_unlock_irqrestore(&view_lock, flags);
		cond_resched();
	}
}

/* ---- The kretprobe ------------------------------------------------- */

struct call {
	pid_t pid;			/* as the caller named it */
	struct task_struct *task;	/* it then: compared only */
	struct cpumask *mask;
	struct view then;		/* its view then, if any (masks only) */
};

/* @pid's task in the caller's pid namespace, as the kernel finds it. */
static struct task_struct *target(pid_t pid)
{
	return pid ? pid_task(find_vpid(pid), PIDTYPE_PID) : current;
}

/* long sched_getaffinity(pid_t pid, struct cpumask *mask) */
static int getaffinity_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct call *c = (struct call *)ri->data;
	unsigned long flags;
	struct view *v;

	/*
	 * Also while no task has a view: the worker may publish one and
	 * narrow the mask before the kernel reads it.
	 */
	if (!READ_ONCE(hmpgov_settings.show_base))
		return 1;	/* the return is not followed */
	c->pid = (pid_t)regs_get_kernel_argument(regs, 0);
	c->mask = (struct cpumask *)regs_get_kernel_argument(regs, 1);
	rcu_read_lock();
	c->task = target(c->pid);
	rcu_read_unlock();
	if (!c->task)
		return 1;
	/*
	 * The view as the call begins: the kernel may read the mask before
	 * a change that the view follows before the call returns.
	 */
	memset(&c->then, 0, sizeof(c->then));
	if (READ_ONCE(nr_views)) {
		raw_spin_lock_irqsave(&view_lock, flags);
		v = find(c->task, NULL);
		if (v) {
			c->then.base = v->base;
			c->then.applied = v->applied;
			c->then.pending = v->pending;
		}
		raw_spin_unlock_irqrestore(&view_lock, flags);
	}
	return 0;
}

/*
 * The task is looked up again, under RCU: only if the pid still names
 * the task it named at entry (so the kernel read that task's mask, and
 * it is alive now) is its view used, as it is now or as it was at entry.
 * From 6.2 a sched_setaffinity() of exactly the mask hmpgov applied
 * shows as the user's request: that task is shown what it asked for.
 */
static int getaffinity_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct call *c = (struct call *)ri->data;
	hmpgov_mask active, got, shown = 0, request;
	struct task_struct *p;
	unsigned long flags;
	struct view *v;

	if (regs_return_value(regs) || !READ_ONCE(hmpgov_settings.show_base))
		return 0;	/* the call failed: nothing was returned */
	got = cpumask_bits(c->mask)[0];
	rcu_read_lock();
	p = target(c->pid);
	if (p != c->task || !got)
		goto out;
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	request = hmpgov_user_requested_mask(p);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	active = cpumask_bits(cpu_active_mask)[0];
	raw_spin_lock_irqsave(&view_lock, flags);
	v = find(p, NULL);
	if (v && hides(v, got, active, request)) {
		shown = v->base & active;
	} else if (c->then.base) {
		/* a set by another caller since is never hidden */
		c->then.foreign = v ? v->foreign : 0;
		if (hides(&c->then, got, active, request))
			shown = c->then.base & active;
	}
	raw_spin_unlock_irqrestore(&view_lock, flags);
	if (shown && shown != got) {
		cpumask_bits(c->mask)[0] = shown;
		atomic_long_inc(&view_shown);
	}
out:
	rcu_read_unlock();
	return 0;
}

static struct kretprobe getaffinity_probe = {
	.kp.symbol_name = "sched_getaffinity",
	.entry_handler = getaffinity_entry,
	.handler = getaffinity_return,
	.data_size = sizeof(struct call),
};

/* ---- Other callers of set_cpus_allowed_ptr() ----------------------- */

/*
 * A cpuset (a task attached to it, its CPUs changed) and a few drivers
 * set a task's mask with set_cpus_allowed_ptr(), which does not check
 * cpusets. Such a set can give a task exactly the mask hmpgov applied,
 * which the worker cannot tell from its own (a task moved into a cpuset
 * of the CPUs hmpgov had packed it on); or land between the worker's
 * read of the mask and its change, which then overwrites it (the task
 * leaves its cpuset). A kretprobe follows each such call on a user task:
 *
 *   entry   under view_lock, the call counts as in flight and, if the
 *           task has a view, the mask asked for is kept in it (before
 *           the kernel changes the mask)
 *   return  a call that failed gives back the record it replaced; the
 *           call is no longer in flight
 *
 * The worker (hint_affinity.c) takes a recorded set as a change of the
 * task's base, and puts the recorded mask back if its own change may
 * have overwritten it. It leaves a task alone while such a call on it
 * is in flight (one that began before the task's view was made is not
 * recorded; one that has not returned may still fail): the targets of
 * the calls in flight are kept in an array, a slot per kretprobe
 * instance. sched_setaffinity() does not go through this function
 * (the user's calls are told apart by their masks, and from 6.2 by the
 * kernel's record of the request); nor does the hotplug fallback.
 */
static struct task_struct *setter;	/* the worker, in its own call */
static struct task_struct **in_flight;	/* view_lock; compared only */
static unsigned int nr_in_flight_slots;

struct set_call {
	struct task_struct *task;	/* compared only */
	hmpgov_mask mask;		/* recorded, 0: not recorded */
	hmpgov_mask prev;		/* the record it replaced */
	unsigned int slot;		/* in in_flight[] */
};

/* int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *) */
static int setallowed_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct set_call *c = (struct set_call *)ri->data;
	unsigned long flags;
	struct view *v;

	c->task = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	/* hmpgov's own, and kernel threads (never steered): not followed */
	if (current == READ_ONCE(setter) || (c->task->flags & PF_KTHREAD))
		return 1;
	c->mask = cpumask_bits((const struct cpumask *)
			       regs_get_kernel_argument(regs, 1))[0];
	raw_spin_lock_irqsave(&view_lock, flags);
	/* as many slots as instances: one is free */
	for (c->slot = 0; c->slot < nr_in_flight_slots - 1; c->slot++)
		if (!in_flight[c->slot])
			break;
	in_flight[c->slot] = c->task;
	v = READ_ONCE(nr_views) ? find(c->task, NULL) : NULL;
	/* the mask it replaces is no narrowing to hide any more */
	if (v)
		v->prev = 0;
	if (v && !kept(v) && c->mask) {
		c->prev = v->foreign;
		v->foreign = c->mask;
		atomic_long_inc(&view_foreign);
	} else {
		c->mask = 0;
	}
	raw_spin_unlock_irqrestore(&view_lock, flags);
	return 0;
}

/* A call that failed changed nothing: the record before it is back. */
static int setallowed_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct set_call *c = (struct set_call *)ri->data;
	int ret = (int)regs_return_value(regs);
	unsigned long flags;
	struct view *v;

	raw_spin_lock_irqsave(&view_lock, flags);
	if (c->mask && ret) {
		v = find(c->task, NULL);
		if (v && v->foreign == c->mask)
			v->foreign = c->prev;
	}
	in_flight[c->slot] = NULL;
	raw_spin_unlock_irqrestore(&view_lock, flags);
	return 0;
}

static struct kretprobe setallowed_probe = {
	.kp.symbol_name = "set_cpus_allowed_ptr",
	.entry_handler = setallowed_entry,
	.handler = setallowed_return,
	.data_size = sizeof(struct set_call),
};

/**
 * hmpgov_view_setting() - the worker's own set_cpus_allowed_ptr()
 * @on: true before the call, false after it
 */
void hmpgov_view_setting(bool on)
{
	WRITE_ONCE(setter, on ? current : NULL);
}

/**
 * hmpgov_view_foreign() - another caller's set of @p's mask, if any
 * @p:    a task the worker manages
 * @mask: receives the mask asked for last
 *
 * The record is taken. Only a task with a view is followed: one at its
 * base sees another caller's mask unless it is its base.
 * Return: whether another caller set @p's mask since the last call.
 */
bool hmpgov_view_foreign(struct task_struct *p, hmpgov_mask *mask)
{
	unsigned long flags;
	struct view *v;
	bool found = false;

	if (!views)
		return false;
	raw_spin_lock_irqsave(&view_lock, flags);
	v = find(p, NULL);
	if (v && v->foreign) {
		*mask = v->foreign;
		v->foreign = 0;
		v->prev = 0;
		found = true;
	}
	raw_spin_unlock_irqrestore(&view_lock, flags);
	return found;
}

/*
 * Whether another caller's set of @p's mask is in flight: one that began
 * before @p's view was made could land between the worker's read and
 * its change unrecorded, and one in flight may still fail. Called after
 * hmpgov_view_expect(), which took view_lock.
 */
bool hmpgov_view_set_in_flight(struct task_struct *p)
{
	unsigned long flags;
	unsigned int i;
	bool found = false;

	if (!in_flight)
		return false;
	raw_spin_lock_irqsave(&view_lock, flags);
	for (i = 0; i < nr_in_flight_slots && !found; i++)
		found = in_flight[i] == p;
	raw_spin_unlock_irqrestore(&view_lock, flags);
	return found;
}

/* ---- Load and unload ----------------------------------------------- */

int hmpgov_view_init(unsigned int max_tasks)
{
	int ret;

	view_bits = ilog2(roundup_pow_of_two(max_tasks)) + 1;
	views = vzalloc(array_size(sizeof(*views), 1U << view_bits));
	if (!views)
		return -ENOMEM;
	nr_views = 0;
	nr_kept = 0;
	atomic_long_set(&view_shown, 0);
	atomic_long_set(&view_dropped, 0);
	atomic_long_set(&view_foreign, 0);
	/* a thread in the call on every CPU, several where they sleep */
	getaffinity_probe.maxactive = max_t(int, 4 * num_possible_cpus(), 64);
	ret = register_kretprobe(&getaffinity_probe);
	armed = !ret;
	if (ret)
		pr_info("no kretprobe on sched_getaffinity (%d): programs read the masks hmpgov sets\n",
			ret);
	setallowed_probe.maxactive = max_t(int, 4 * num_possible_cpus(), 64);
	nr_in_flight_slots = setallowed_probe.maxactive;
	in_flight = kcalloc(nr_in_flight_slots, sizeof(*in_flight), GFP_KERNEL);
	ret = in_flight ? register_kretprobe(&setallowed_probe) : -ENOMEM;
	set_armed = !ret;
	if (ret)
		pr_info("no kretprobe on set_cpus_allowed_ptr (%d): a cpuset's change can meet hmpgov's\n",
			ret);
	return 0;
}

/* After the worker gave every mask back. */
void hmpgov_view_exit(void)
{
	/* after it, no handler runs and none will */
	if (armed)
		unregister_kretprobe(&getaffinity_probe);
	armed = false;
	if (set_armed)
		unregister_kretprobe(&setallowed_probe);
	set_armed = false;
	kfree(in_flight);
	in_flight = NULL;
	vfree(views);
	views = NULL;
}

enum hmpgov_view_state hmpgov_view_state(void)
{
	if (!armed)
		return HMPGOV_VIEW_NONE;
	return READ_ONCE(hmpgov_settings.show_base) ? HMPGOV_VIEW_BASE :
						      HMPGOV_VIEW_KERNEL;
}

void hmpgov_view_stats(struct hmpgov_view_stats *s)
{
	unsigned long flags;

	s->shown = atomic_long_read(&view_shown);
	s->dropped = atomic_long_read(&view_dropped);
	s->foreign = atomic_long_read(&view_foreign);
	s->missed = armed ? READ_ONCE(getaffinity_probe.nmissed) : 0;
	s->set_missed = set_armed ? READ_ONCE(setallowed_probe.nmissed) : 0;
	raw_spin_lock_irqsave(&view_lock, flags);
	s->views = nr_views - nr_kept;
	s->kept = nr_kept;
	raw_spin_unlock_irqrestore(&view_lock, flags);
}
