// SPDX-License-Identifier: GPL-2.0
/*
 * The uclamp hint: a task's util_min / util_max request, set with
 * sched_setattr_nocheck() where the kernel has CONFIG_UCLAMP_TASK (the
 * helpers in compat.h; without it every call here fails cleanly and the
 * backend is refused at load).
 *
 * The base is the request the user gave the task (sched_setattr(2),
 * uclampset), defaults included: a side nobody set is restored to the
 * kernel's default, not to a value. The task's uclamp cgroup is never
 * written; the kernel limits the request by it, so it stays the outer
 * bound of the user's will. As with masks, a request that is neither the
 * base nor hmpgov's is the user's new will, and the request is read again
 * just before and after each change.
 */
#include <linux/sched.h>
#include <linux/string.h>

#include "hmpgov/compat.h"
#include "hmpgov/hints.h"

bool hmpgov_uclamp_built(void)
{
#ifdef HMPGOV_HAVE_UCLAMP
	return true;
#else
	return false;
#endif
}

static void read_request(struct task_struct *p, struct hmpgov_clamp *c)
{
	hmpgov_uclamp_get(p, &c->min, &c->max, &c->min_user, &c->max_user);
}

static int write_request(struct task_struct *p, const struct hmpgov_clamp *c)
{
	return hmpgov_uclamp_set(p, c->min_user ? c->min : -1,
				 c->max_user ? c->max : -1);
}

static bool set_recently(const struct hmpgov_clamp_hint *h,
			 const struct hmpgov_clamp *c)
{
	unsigned int i;

	if (h->active && hmpgov_clamp_same(&h->applied, c))
		return true;
	for (i = 0; i < h->nr_recent; i++)
		if (hmpgov_clamp_same(&h->recent[i], c))
			return true;
	return false;
}

/* @c joins the requests hmpgov gave the task, as the newest (hints.h). */
static void remember(struct hmpgov_clamp_hint *h, const struct hmpgov_clamp *c)
{
	unsigned int i, at;

	for (at = 0; at < h->nr_recent; at++)
		if (hmpgov_clamp_same(&h->recent[at], c))
			break;
	if (at == h->nr_recent) {
		if (h->nr_recent < HMPGOV_HINT_HISTORY) {
			h->recent[h->nr_recent++] = *c;
			return;
		}
		at = 0;		/* full: the oldest goes */
	}
	for (i = at; i + 1 < h->nr_recent; i++)
		h->recent[i] = h->recent[i + 1];
	h->recent[h->nr_recent - 1] = *c;
}

static void rebase(struct hmpgov_clamp_hint *h, const struct hmpgov_clamp *c)
{
	memset(h, 0, sizeof(*h));
	h->base = *c;
}

void hmpgov_clamp_hint_adopt(struct hmpgov_clamp_hint *h, struct task_struct *p,
			     const struct hmpgov_clamp_hint *parent)
{
	struct hmpgov_clamp cur;

	read_request(p, &cur);
	rebase(h, &cur);
	/* A child inherits its parent's request (unless reset-on-fork). */
	if (parent && set_recently(parent, &cur) &&
	    !hmpgov_clamp_same(&cur, &parent->base)) {
		h->applied = cur;
		h->active = true;
		h->base = parent->base;
		/* and its own children, forked later, inherit it too */
		remember(h, &cur);
	}
}

enum hmpgov_hint_result hmpgov_clamp_hint_refresh(struct hmpgov_clamp_hint *h,
						  struct task_struct *p)
{
	struct hmpgov_clamp cur;

	read_request(p, &cur);
	if (hmpgov_clamp_same(&cur, hmpgov_clamp_hint_now(h)))
		return HMPGOV_HINT_KEPT;
	rebase(h, &cur);	/* the user's will wins */
	return HMPGOV_HINT_REBASED;
}

enum hmpgov_hint_result hmpgov_clamp_hint_apply(struct hmpgov_clamp_hint *h,
						struct task_struct *p,
						const struct hmpgov_clamp *target)
{
	struct hmpgov_clamp got;
	bool to_base = hmpgov_clamp_same(target, &h->base);

	if (hmpgov_clamp_same(target, hmpgov_clamp_hint_now(h)))
		return HMPGOV_HINT_KEPT;
	if (hmpgov_clamp_hint_refresh(h, p) == HMPGOV_HINT_REBASED)
		return HMPGOV_HINT_REBASED;
	if (write_request(p, to_base ? &h->base : target))
		return HMPGOV_HINT_ERROR;
	read_request(p, &got);
	if (!hmpgov_clamp_same(&got, target)) {
		rebase(h, &got);	/* a sched_setattr() raced */
		return HMPGOV_HINT_REBASED;
	}
	h->active = !to_base;
	if (h->active) {
		h->applied = got;
		remember(h, &got);
	}
	return HMPGOV_HINT_SET;
}

/* The base back, unless the user changed the request since hmpgov set it. */
enum hmpgov_hint_result hmpgov_clamp_hint_restore(struct hmpgov_clamp_hint *h,
						  struct task_struct *p)
{
	struct hmpgov_clamp cur;
	bool active = h->active;

	h->active = false;
	if (!active)
		return HMPGOV_HINT_KEPT;
	read_request(p, &cur);
	if (!hmpgov_clamp_same(&cur, &h->applied))
		return HMPGOV_HINT_REBASED;	/* the user's request stays */
	return write_request(p, &h->base) ? HMPGOV_HINT_ERROR : HMPGOV_HINT_SET;
}

static void uclamp_adopt(struct hmpgov_hints *h, struct task_struct *p,
			 const struct hmpgov_hints *parent)
{
	hmpgov_clamp_hint_adopt(&h->clamp, p, parent ? &parent->clamp : NULL);
}

static enum hmpgov_hint_result uclamp_refresh(struct hmpgov_hints *h,
					      struct task_struct *p)
{
	return hmpgov_clamp_hint_refresh(&h->clamp, p);
}

static enum hmpgov_hint_result uclamp_apply(struct hmpgov_hints *h,
					    struct task_struct *p,
					    const struct hmpgov_target *t)
{
	return hmpgov_clamp_hint_apply(&h->clamp, p, &t->clamp);
}

static enum hmpgov_hint_result uclamp_restore(struct hmpgov_hints *h,
					      struct task_struct *p)
{
	return hmpgov_clamp_hint_restore(&h->clamp, p);
}

const struct hmpgov_backend_ops hmpgov_uclamp_ops = {
	.name = "uclamp",
	.id = HMPGOV_UCLAMP,
	.adopt = uclamp_adopt,
	.refresh = uclamp_refresh,
	.apply = uclamp_apply,
	.restore = uclamp_restore,
};
