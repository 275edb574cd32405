/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a program reads of its own CPU mask: module/view.c.
 */
#ifndef HMPGOV_VIEW_H
#define HMPGOV_VIEW_H

#include <linux/types.h>

#include "hmpgov/hints.h"

struct task_struct;

enum hmpgov_view_state {
	HMPGOV_VIEW_BASE,	/* sched_getaffinity() shows the base */
	HMPGOV_VIEW_KERNEL,	/* show_base=0: the kernel's mask as it is */
	HMPGOV_VIEW_NONE,	/* no kretprobes in this kernel */
	HMPGOV_NR_VIEW_STATES,
};

extern const char *const hmpgov_view_names[HMPGOV_NR_VIEW_STATES];

struct hmpgov_view_stats {
	unsigned long shown;	/* reads given the base */
	unsigned long dropped;	/* views that found no room */
	unsigned long missed;	/* calls the kretprobe could not follow */
	unsigned long foreign;	/* other callers' sets of a narrowed task */
	unsigned long set_missed; /* such sets the kretprobe did not see */
	unsigned int views;	/* tasks with a view now */
	unsigned int kept;	/* views kept after a widening */
};

int hmpgov_view_init(unsigned int max_tasks);
void hmpgov_view_exit(void);
enum hmpgov_view_state hmpgov_view_state(void);
void hmpgov_view_stats(struct hmpgov_view_stats *s);

/* Worker: @p's base and the mask hmpgov applied (0: none). */
void hmpgov_view_set(struct task_struct *p, hmpgov_mask base,
		     hmpgov_mask applied);
bool hmpgov_view_expect(struct task_struct *p, hmpgov_mask base,
			hmpgov_mask applied, hmpgov_mask target);
bool hmpgov_view_inherited(struct task_struct *p, hmpgov_mask mask,
			   hmpgov_mask *base);
/* Worker: another caller's set_cpus_allowed_ptr() (a cpuset's). */
void hmpgov_view_setting(bool on);
bool hmpgov_view_foreign(struct task_struct *p, hmpgov_mask *mask);
bool hmpgov_view_set_in_flight(struct task_struct *p);
/* Worker: hmpgov gave every mask back (mode=off). */
void hmpgov_view_clear(void);
/* Probes: a child forked, a task freed. */
void hmpgov_view_fork(struct task_struct *parent, struct task_struct *child);
void hmpgov_view_forget(struct task_struct *p);

#endif /* HMPGOV_VIEW_H */
