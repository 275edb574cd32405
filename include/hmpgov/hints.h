/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two ways hmpgov steers a task, each keeping the user's setting as
 * the task's base: its CPU mask (module/hint_affinity.c) and its uclamp
 * request (module/hint_uclamp.c). Both are called by the steering worker
 * only, under its mutex, in process context.
 *
 * A hint remembers the last values hmpgov set, so that a child forked
 * while its parent carried one of them is known to have inherited
 * hmpgov's value, not the user's.
 */
#ifndef HMPGOV_HINTS_H
#define HMPGOV_HINTS_H

#include "hmpgov/clamp_rule.h"
#include "hmpgov/placement.h"

struct task_struct;

#define HMPGOV_HINT_HISTORY	4

enum hmpgov_hint_result {
	HMPGOV_HINT_KEPT,	/* nothing changed */
	HMPGOV_HINT_SET,	/* hmpgov's value (or on restore the base) is in place */
	HMPGOV_HINT_REBASED,	/* the user had changed it: that is the new base */
	HMPGOV_HINT_ERROR,	/* the kernel refused the change */
};

struct hmpgov_mask_hint {
	hmpgov_mask base;
	hmpgov_mask applied;	/* 0: the base is in place */
	hmpgov_mask recent[HMPGOV_HINT_HISTORY];
	unsigned int recent_next;
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
	struct hmpgov_clamp recent[HMPGOV_HINT_HISTORY];
	unsigned int recent_next;
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

#endif /* HMPGOV_HINTS_H */
