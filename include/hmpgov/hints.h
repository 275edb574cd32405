/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two ways hmpgov steers a task, each keeping the user's setting as
 * the task's base: its CPU mask (module/hint_affinity.c) and its uclamp
 * request (module/hint_uclamp.c). Both are called by the steering worker
 * only, under its mutex, in process context.
 *
 * A hint remembers the last values hmpgov set, newest last, so that a
 * child forked while its parent carried one of them is known to have
 * inherited hmpgov's value, not the user's. Each is kept once: a parent
 * moved back and forth between its base and one value while a slow fork
 * ran (a debug kernel's fork lasts several moves) would otherwise push
 * out the one its child carries.
 */
#ifndef HMPGOV_HINTS_H
#define HMPGOV_HINTS_H

#include "hmpgov/clamp_rule.h"
#include "hmpgov/placement.h"

struct task_struct;

#define HMPGOV_HINT_HISTORY	8

enum hmpgov_hint_result {
	HMPGOV_HINT_KEPT,	/* nothing changed */
	HMPGOV_HINT_SET,	/* hmpgov's value (or on restore the base) is in place */
	/* the user changed it: the new base (on restore: left in place) */
	HMPGOV_HINT_REBASED,
	HMPGOV_HINT_ERROR,	/* the kernel refused the change */
	HMPGOV_HINT_DEFERRED,	/* the change would wait: a later pass's */
};

struct hmpgov_mask_hint {
	hmpgov_mask base;
	hmpgov_mask applied;	/* 0: the base is in place */
	hmpgov_mask recent[HMPGOV_HINT_HISTORY];	/* oldest first */
	unsigned int nr_recent;
};

int hmpgov_mask_hint_init(void);
void hmpgov_mask_hint_exit(void);
hmpgov_mask hmpgov_task_mask(struct task_struct *p);
/* @parent: the managed parent's hint, or NULL. */
void hmpgov_mask_hint_adopt(struct hmpgov_mask_hint *h, struct task_struct *p,
			    const struct hmpgov_mask_hint *parent);
enum hmpgov_hint_result hmpgov_mask_hint_refresh(struct hmpgov_mask_hint *h,
						 struct task_struct *p);
/* @target: the mask to run on (the base to take the hint away). */
enum hmpgov_hint_result hmpgov_mask_hint_apply(struct hmpgov_mask_hint *h,
					       struct task_struct *p,
					       hmpgov_mask target);
enum hmpgov_hint_result hmpgov_mask_hint_restore(struct hmpgov_mask_hint *h,
						 struct task_struct *p);

static inline hmpgov_mask hmpgov_mask_hint_now(const struct hmpgov_mask_hint *h)
{
	return h->applied ? h->applied : h->base;
}

struct hmpgov_clamp_hint {
	struct hmpgov_clamp base;
	struct hmpgov_clamp applied;	/* valid if active */
	bool active;
	struct hmpgov_clamp recent[HMPGOV_HINT_HISTORY];	/* oldest first */
	unsigned int nr_recent;
};

/* Whether this build of hmpgov can set uclamp (see compat.h). */
bool hmpgov_uclamp_built(void);
void hmpgov_clamp_hint_adopt(struct hmpgov_clamp_hint *h, struct task_struct *p,
			     const struct hmpgov_clamp_hint *parent);
enum hmpgov_hint_result hmpgov_clamp_hint_refresh(struct hmpgov_clamp_hint *h,
						  struct task_struct *p);
/* @target: the request to set (the base to take the hint away). */
enum hmpgov_hint_result hmpgov_clamp_hint_apply(struct hmpgov_clamp_hint *h,
						struct task_struct *p,
						const struct hmpgov_clamp *target);
enum hmpgov_hint_result hmpgov_clamp_hint_restore(struct hmpgov_clamp_hint *h,
						  struct task_struct *p);

static inline const struct hmpgov_clamp *
hmpgov_clamp_hint_now(const struct hmpgov_clamp_hint *h)
{
	return h->active ? &h->applied : &h->base;
}

/*
 * A backend: one way of steering, as a table of operations on the hints
 * of one managed task. The worker (steer.c) calls each engaged backend in
 * turn, under its mutex, in process context.
 *
 *   adopt    take the task's current value as its base (a child's
 *            inherited hmpgov value gives way to its parent's base)
 *   refresh  a value that is neither the base nor hmpgov's is the user's
 *            new will: it becomes the base (HMPGOV_HINT_REBASED)
 *   apply    bring the task to the decision (its base where the decision
 *            is the base)
 *   restore  the base back, unless the user changed the value since
 *            hmpgov set it
 */
struct hmpgov_hints {
	struct hmpgov_mask_hint mask;
	struct hmpgov_clamp_hint clamp;
};

/* What a decision gives a task: hmpgov_place()'s .mask and .clamp. */
struct hmpgov_target {
	hmpgov_mask mask;
	struct hmpgov_clamp clamp;
};

enum hmpgov_backend_id {
	HMPGOV_AFFINITY,	/* bit HMPGOV_BACKEND_AFFINITY */
	HMPGOV_UCLAMP,		/* bit HMPGOV_BACKEND_UCLAMP */
	HMPGOV_NR_BACKENDS,
};

struct hmpgov_backend_ops {
	const char *name;
	enum hmpgov_backend_id id;
	void (*adopt)(struct hmpgov_hints *h, struct task_struct *p,
		      const struct hmpgov_hints *parent);
	enum hmpgov_hint_result (*refresh)(struct hmpgov_hints *h,
					   struct task_struct *p);
	enum hmpgov_hint_result (*apply)(struct hmpgov_hints *h,
					 struct task_struct *p,
					 const struct hmpgov_target *t);
	enum hmpgov_hint_result (*restore)(struct hmpgov_hints *h,
					   struct task_struct *p);
};

extern const struct hmpgov_backend_ops hmpgov_affinity_ops;
extern const struct hmpgov_backend_ops hmpgov_uclamp_ops;

#endif /* HMPGOV_HINTS_H */
