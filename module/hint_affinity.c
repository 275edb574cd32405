// SPDX-License-Identifier: GPL-2.0
/*
 * The affinity hint: a task's CPU mask, set with set_cpus_allowed_ptr().
 *
 * The base is the mask the user (sched_setaffinity, or its cpuset) gave
 * the task. A mask that is neither the base nor the one hmpgov set is the
 * user's new will and becomes the base. The kernel has no compare-and-set
 * for masks, so the mask is read just before and just after each change.
 * A sched_setaffinity() that lands after hmpgov's change is seen there.
 * One that lands between the read and the change (a short window, but
 * the worker can be preempted inside it) is seen from 6.2 when it asks
 * for a new mask: the kernel keeps the mask the user asked for and
 * narrows hmpgov's change to it, and hmpgov puts the user's mask back,
 * within the base. Before 6.2 such a call is overwritten and cannot be
 * told apart.
 */
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "hmpgov/compat.h"
#include "hmpgov/hints.h"
#include "hmpgov/view.h"

static cpumask_var_t scratch_mask;	/* the worker's mutex guards it */

int hmpgov_mask_hint_init(void)
{
	return zalloc_cpumask_var(&scratch_mask, GFP_KERNEL) ? 0 : -ENOMEM;
}

void hmpgov_mask_hint_exit(void)
{
	free_cpumask_var(scratch_mask);
}

/* 64-bit only (Kconfig of both arches): one long holds the low 64 CPUs. */
static hmpgov_mask mask_and_request(struct task_struct *p, hmpgov_mask *request)
{
	unsigned long flags;
	hmpgov_mask m;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	m = cpumask_bits(&p->cpus_mask)[0];
	if (request)
		*request = hmpgov_user_requested_mask(p);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	return m;
}

hmpgov_mask hmpgov_task_mask(struct task_struct *p)
{
	return mask_and_request(p, NULL);
}

static int set_mask(struct task_struct *p, hmpgov_mask m)
{
	int ret;

	cpumask_clear(scratch_mask);
	cpumask_bits(scratch_mask)[0] = m;
	hmpgov_view_setting(true);
	ret = set_cpus_allowed_ptr(p, scratch_mask);
	hmpgov_view_setting(false);
	return ret;
}

/*
 * Another caller (a cpuset) set @p's mask to @m around hmpgov's change,
 * which may have overwritten it: @m goes back, and again for each later
 * call recorded meanwhile (from 6.2 the kernel narrows it to the user's
 * request, as it did the caller's). A record still left after
 * PUT_FOREIGN_TRIES is the next refresh's. Return: the mask now.
 */
#define PUT_FOREIGN_TRIES	16

static hmpgov_mask put_foreign(struct task_struct *p, hmpgov_mask m)
{
	unsigned int tries = PUT_FOREIGN_TRIES;

	do {
		set_mask(p, m);
	} while (--tries && hmpgov_view_foreign(p, &m));
	return hmpgov_task_mask(p);
}

/* After hmpgov's sets: a cpuset's call met them, its mask is back. */
static bool foreign_met(struct task_struct *p, hmpgov_mask *now)
{
	hmpgov_mask m;

	if (!hmpgov_view_foreign(p, &m))
		return false;
	*now = put_foreign(p, m);
	return true;
}

static bool set_recently(const struct hmpgov_mask_hint *h, hmpgov_mask mask)
{
	unsigned int i;

	if (h->applied && h->applied == mask)
		return true;
	for (i = 0; i < h->nr_recent; i++)
		if (h->recent[i] == mask)
			return true;
	return false;
}

/* @m joins the masks hmpgov gave the task, as the newest (hints.h). */
static void remember(struct hmpgov_mask_hint *h, hmpgov_mask m)
{
	unsigned int i, at;

	for (at = 0; at < h->nr_recent; at++)
		if (h->recent[at] == m)
			break;
	if (at == h->nr_recent) {
		if (h->nr_recent < HMPGOV_HINT_HISTORY) {
			h->recent[h->nr_recent++] = m;
			return;
		}
		at = 0;		/* full: the oldest goes */
	}
	for (i = at; i + 1 < h->nr_recent; i++)
		h->recent[i] = h->recent[i + 1];
	h->recent[h->nr_recent - 1] = m;
}

static void rebase(struct hmpgov_mask_hint *h, hmpgov_mask mask)
{
	memset(h, 0, sizeof(*h));
	h->base = mask;
}

/*
 * Whether @p set its mask @mask itself (a taskset child), from 6.2 where
 * the kernel keeps the request: hmpgov never sets one, and a child's is
 * its parent's copy unless it set its own. Not inherited then, even if
 * hmpgov once gave the parent the same mask.
 */
static bool own_request(struct task_struct *p, hmpgov_mask mask,
			hmpgov_mask parent_base)
{
	hmpgov_mask request;

	mask_and_request(p, &request);
	return request && request == mask && request != parent_base;
}

void hmpgov_mask_hint_adopt(struct hmpgov_mask_hint *h, struct task_struct *p,
			    const struct hmpgov_mask_hint *parent)
{
	rebase(h, hmpgov_task_mask(p));
	/*
	 * A child forked while hmpgov had narrowed its parent's mask
	 * inherited that mask, not the user's: it gets the parent's base.
	 * The parent may have moved since the fork, so any of the last
	 * masks hmpgov gave it counts.
	 */
	if (parent && set_recently(parent, h->base) &&
	    !own_request(p, h->base, parent->base)) {
		h->applied = h->base;
		h->base = parent->base;
		/* and its own children, forked later, inherit it too */
		remember(h, h->applied);
	}
}

/*
 * The kernel moved the task off the mask hmpgov applied, @applied,
 * because none of its CPUs is active any more (select_fallback_rq()): its
 * new mask @cur is not the user's will. From 6.2 the fallback clears the
 * user's request and a user's call sets it, so a request is a user's call;
 * before, the two cannot be told apart while the CPUs stay offline.
 */
static bool hotplug_fallback(hmpgov_mask applied, hmpgov_mask cur,
			     hmpgov_mask request)
{
	return applied && cur != applied &&
	       !(applied & cpumask_bits(cpu_active_mask)[0]) && !request;
}

/* Kept, or rebased on the user's new will; @request: the kernel's copy. */
static enum hmpgov_hint_result refresh(struct hmpgov_mask_hint *h,
				       struct task_struct *p,
				       hmpgov_mask *request)
{
	hmpgov_mask foreign, cur;
	bool set_by_other = hmpgov_view_foreign(p, &foreign);

	cur = mask_and_request(p, request);
	/* a cpuset's mask is its new base, also when it equals hmpgov's */
	if (set_by_other) {
		rebase(h, cur);
		return HMPGOV_HINT_REBASED;
	}
	/* the base stays; the worker replaces the kernel's mask */
	if (hotplug_fallback(h->applied, cur, *request)) {
		h->applied = cur == h->base ? 0 : cur;
		return HMPGOV_HINT_KEPT;
	}

	/*
	 * From 6.2 a sched_setaffinity() of exactly the mask hmpgov applied
	 * shows as the user's request (before, it cannot be told apart).
	 */
	if (cur == hmpgov_mask_hint_now(h) &&
	    !(h->applied && *request == h->applied))
		return HMPGOV_HINT_KEPT;
	rebase(h, cur);		/* the user's will wins */
	return HMPGOV_HINT_REBASED;
}

enum hmpgov_hint_result hmpgov_mask_hint_refresh(struct hmpgov_mask_hint *h,
						 struct task_struct *p)
{
	hmpgov_mask request;

	/* a cpuset's call in flight may still fail: the next pass */
	if (hmpgov_view_set_in_flight(p))
		return HMPGOV_HINT_KEPT;
	return refresh(h, p, &request);
}

/*
 * After hmpgov set @target, the kernel shows @got and the request
 * @request (@before: the request read before): true if a
 * sched_setaffinity() with a new mask landed in between and came first.
 * The kernel (6.2+) then narrowed hmpgov's mask to the user's request,
 * or took it whole when the two share no CPU, and the user's mask must
 * be put back. One that came last left its own mask in place.
 */
static bool user_call_lost(hmpgov_mask target, hmpgov_mask got,
			   hmpgov_mask before, hmpgov_mask request)
{
	return request && request != before &&
	       (got == (target & request) || !(got & request));
}

/*
 * Put back the user's mask after a lost call: its request within @base.
 * The kernel intersected the request with the task's cpuset, which a
 * module cannot read; the base lies within it, so the task never leaves
 * its cpuset. If the two share no CPU, the kernel's mask stays.
 */
static hmpgov_mask put_back(struct task_struct *p, hmpgov_mask got,
			    hmpgov_mask base, hmpgov_mask request)
{
	if (!(request & base) || set_mask(p, request & base))
		return got;
	return hmpgov_task_mask(p);
}

/*
 * Whether moving @p to @target would wait for @p to leave a
 * migrate_disable() section (compat.h): set_cpus_allowed_ptr() sleeps
 * until then, with the worker holding steer_lock, and on PREEMPT_RT
 * such a section may block for long on a contended lock. From 6.2 the
 * kernel narrows @target to the user's request @request where they
 * share a CPU. The task cannot change CPU inside the section, so the
 * CPU read is stable while it matters; a task that enters one just
 * after this look still holds the worker, once.
 */
static bool move_waits(struct task_struct *p, hmpgov_mask target,
		       hmpgov_mask request)
{
	if (target & request)
		target &= request;
	return hmpgov_migration_disabled(p) &&
	       !(target & BIT_ULL(task_cpu(p)));
}

enum hmpgov_hint_result hmpgov_mask_hint_apply(struct hmpgov_mask_hint *h,
					       struct task_struct *p,
					       hmpgov_mask target)
{
	hmpgov_mask got, before, request;
	bool lost;

	if (target == hmpgov_mask_hint_now(h))
		return HMPGOV_HINT_KEPT;
	/*
	 * A cpuset's call that began before the view (steer.c made it just
	 * now) was not recorded: wait for a later pass until none on @p is
	 * in flight, so that the read below sees its mask.
	 */
	if (hmpgov_view_set_in_flight(p))
		return HMPGOV_HINT_KEPT;
	if (refresh(h, p, &before) == HMPGOV_HINT_REBASED)
		return HMPGOV_HINT_REBASED;
	/* a later pass moves it, and the worker goes on meanwhile */
	if (move_waits(p, target, before))
		return HMPGOV_HINT_DEFERRED;
	if (set_mask(p, target))
		return HMPGOV_HINT_ERROR;
	if (foreign_met(p, &got)) {
		rebase(h, got);
		return HMPGOV_HINT_REBASED;
	}
	got = mask_and_request(p, &request);
	lost = user_call_lost(target, got, before, request);
	if (lost) {
		got = put_back(p, got, h->base, request);
	} else if (got != target && request && got == (target & request)) {
		/* the kernel narrowed it to an older request: the base */
		set_mask(p, h->base);
		got = hmpgov_task_mask(p);
	}
	if (foreign_met(p, &got) || lost || got != target) {
		rebase(h, got);		/* the user's will wins */
		return HMPGOV_HINT_REBASED;
	}
	h->applied = target == h->base ? 0 : target;
	if (h->applied)
		remember(h, target);
	return HMPGOV_HINT_SET;
}

#define RESTORE_WAITS		100	/* of 1-2 ms */

/* The base back, unless the user changed the mask since hmpgov set it. */
enum hmpgov_hint_result hmpgov_mask_hint_restore(struct hmpgov_mask_hint *h,
						 struct task_struct *p)
{
	hmpgov_mask applied = h->applied, got, before, request, foreign;
	unsigned int tries = RESTORE_WAITS;

	h->applied = 0;
	if (!applied)
		return HMPGOV_HINT_KEPT;
	/* a cpuset's call in flight: its end (it may fail) */
	while (hmpgov_view_set_in_flight(p) && tries--)
		usleep_range(1000, 2000);
	/* a cpuset's mask stays, also when it equals hmpgov's */
	if (hmpgov_view_foreign(p, &foreign))
		return HMPGOV_HINT_REBASED;
	got = mask_and_request(p, &before);
	/* the user's own change stays; a hotplug fallback does not */
	if (got != applied && !hotplug_fallback(applied, got, before))
		return HMPGOV_HINT_REBASED;
	if (set_mask(p, h->base))
		return HMPGOV_HINT_ERROR;
	if (foreign_met(p, &got))
		return HMPGOV_HINT_SET;
	got = mask_and_request(p, &request);
	if (user_call_lost(h->base, got, before, request)) {
		put_back(p, got, h->base, request);
		foreign_met(p, &got);
	}
	return HMPGOV_HINT_SET;
}

static void affinity_adopt(struct hmpgov_hints *h, struct task_struct *p,
			   const struct hmpgov_hints *parent)
{
	hmpgov_mask base, foreign;

	/*
	 * A mask a cpuset set is not inherited: it is the base (one in
	 * flight is the next refresh's)
	 */
	if (hmpgov_view_set_in_flight(p) || hmpgov_view_foreign(p, &foreign)) {
		hmpgov_mask_hint_adopt(&h->mask, p, NULL);
		return;
	}
	hmpgov_mask_hint_adopt(&h->mask, p, parent ? &parent->mask : NULL);
	/* a child the fork probe showed its parent's base keeps it */
	if (!h->mask.applied &&
	    hmpgov_view_inherited(p, h->mask.base, &base) &&
	    base != h->mask.base && !own_request(p, h->mask.base, base)) {
		h->mask.applied = h->mask.base;
		h->mask.base = base;
		remember(&h->mask, h->mask.applied);
	}
}

static enum hmpgov_hint_result affinity_refresh(struct hmpgov_hints *h,
						struct task_struct *p)
{
	return hmpgov_mask_hint_refresh(&h->mask, p);
}

static enum hmpgov_hint_result affinity_apply(struct hmpgov_hints *h,
					      struct task_struct *p,
					      const struct hmpgov_target *t)
{
	return hmpgov_mask_hint_apply(&h->mask, p, t->mask);
}

static enum hmpgov_hint_result affinity_restore(struct hmpgov_hints *h,
						struct task_struct *p)
{
	return hmpgov_mask_hint_restore(&h->mask, p);
}

const struct hmpgov_backend_ops hmpgov_affinity_ops = {
	.name = "affinity",
	.id = HMPGOV_AFFINITY,
	.adopt = affinity_adopt,
	.refresh = affinity_refresh,
	.apply = affinity_apply,
	.restore = affinity_restore,
};
