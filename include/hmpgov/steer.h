/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Steering: the probes classify tasks and feed the slots that changed to
 * a worker (feed.c), which decides masks with the placement rules and
 * applies them as CPU masks and/or uclamp requests (hints.h) in process
 * context (steer.c).
 */
#ifndef HMPGOV_STEER_H
#define HMPGOV_STEER_H

#include <linux/atomic.h>
#include <linux/types.h>

struct kobject;

#include "hmpgov/classify.h"
#include "hmpgov/hints.h"

enum hmpgov_mode {
	HMPGOV_MODE_OFF,	/* track only; every mask is the user's */
	HMPGOV_MODE_OBSERVE,	/* decide and trace, change nothing */
	HMPGOV_MODE_STEER,	/* apply the decisions */
	HMPGOV_NR_MODES,
};

extern const char *const hmpgov_mode_names[HMPGOV_NR_MODES];

/* steer=: how decisions reach the kernel (docs/uclamp.md). */
enum hmpgov_steer {
	HMPGOV_STEER_AFFINITY,	/* CPU masks for every rule */
	HMPGOV_STEER_UCLAMP,	/* uclamp; a mask only to pack small tasks */
	HMPGOV_STEER_BOTH,	/* masks and uclamp */
	HMPGOV_STEER_AUTO,	/* uclamp where the kernel can, else affinity */
	HMPGOV_NR_STEER,
};

extern const char *const hmpgov_steer_names[HMPGOV_NR_STEER];

/*
 * Every setting, read by the probes and the worker: the tunables
 * (tunables.c) as they publish them, the mode (knobs.c), and what load
 * settled.
 */
struct hmpgov_settings {
	u64 thresholds;		/* four u16: see hmpgov_thresholds_get() */
	u64 halflife_rate;	/* hmpgov_halflife_rate() of halflife_ns */
	u32 halflife_ns;	/* of the utilization average */
	u32 class_hold_ns;	/* least time between two class changes */
	u32 move_interval_ns;	/* least time between two moves of a task */
	u32 pack_limit;		/* /1024 of a little CPU's capacity */
	u32 show_base;		/* sched_getaffinity shows the base (view.c) */
	int mode;		/* enum hmpgov_mode */
	int steer;		/* enum hmpgov_steer, as chosen */
	int requested_steer;	/* as asked by steer= */
	unsigned int backends;	/* HMPGOV_BACKEND_* of steer */
	bool steerable;		/* asymmetric and within HMPGOV_MAX_CPUS */
	bool draining;		/* giving bases back: forks still fed */
	char exclude_comm[256];	/* task names left alone (exclude_comm=) */
};

extern struct hmpgov_settings hmpgov_settings;

void hmpgov_thresholds_get(struct hmpgov_thresholds *t);
void hmpgov_thresholds_set(const struct hmpgov_thresholds *t);

/* module/feed.c: probe context to the worker, lock-free. */
int hmpgov_feed_init(unsigned int slots);
void hmpgov_feed_exit(void);
void hmpgov_feed_push(unsigned int slot);
void hmpgov_feed_ran(unsigned int slot);
void hmpgov_feed_sync(void);
/*
 * Worker: call @fn (unless NULL) for each slot fed since the last drain;
 * returns how many.
 */
unsigned int hmpgov_feed_drain(void (*fn)(unsigned int slot));
bool hmpgov_feed_overflowed(void);
/* Worker: call @fn for each slot whose task ran since the last drain. */
void hmpgov_feed_drain_ran(void (*fn)(unsigned int slot));

/* module/steer.c */
int hmpgov_steer_init(unsigned int max_tasks);
void hmpgov_steer_stop(void);
void hmpgov_steer_exit(void);
void hmpgov_steer_kick(void);
void hmpgov_steer_kick_feed(void);
int hmpgov_steer_set_mode(int mode);

struct hmpgov_steer_stats {
	unsigned int managed, active;
	unsigned int pack_cpus;
	bool pack_overflow;
};

void hmpgov_steer_stats(struct hmpgov_steer_stats *s);
const char *hmpgov_steer_why(unsigned int slot);

/* module/backend.c: steer= settled at load */
int hmpgov_backend_choose(int requested);
const struct hmpgov_backend_ops *hmpgov_backend(unsigned int i);
void hmpgov_backend_clamp_levels(struct hmpgov_policy *pol);

/* module/debugfs.c: the counters, shown in debugfs stats */
struct hmpgov_hint_counters {
	atomic_long_t set, restored, rebased, left, errors, deferred;
};

struct hmpgov_counters {
	atomic_long_t adopted, excluded, class_changes, narrower_than_parent;
	struct hmpgov_hint_counters hint[HMPGOV_NR_BACKENDS];
};

extern struct hmpgov_counters hmpgov_counters;

/* Count what a backend's call did; @restoring: on the way out. */
void hmpgov_count_hint(const struct hmpgov_backend_ops *b,
		       enum hmpgov_hint_result r, bool restoring);

/* module/knobs.c: the mode knob in /sys/kernel/hmpgov */
int hmpgov_knobs_init(struct kobject *root);
void hmpgov_knobs_exit(struct kobject *root);

/* module/tunables.c: the numeric tunables, parameters and knobs */
int hmpgov_tunables_load(void);
unsigned int hmpgov_tunable_max_tasks(void);
int hmpgov_tunables_sysfs_init(struct kobject *root);
void hmpgov_tunables_sysfs_exit(struct kobject *root);

#endif /* HMPGOV_STEER_H */
