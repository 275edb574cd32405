/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where each managed task may run: the three rules as a pure function of
 * the machine and the tasks' classes and utilizations. Pure C; the kernel
 * side (module/steer.c) gathers the inputs and applies the masks.
 *
 * CPU sets are u64 bit masks: hmpgov steers machines of up to
 * HMPGOV_MAX_CPUS CPUs in up to HMPGOV_MAX_CLUSTERS clusters and is
 * passive on bigger ones.
 */
#ifndef HMPGOV_PLACEMENT_H
#define HMPGOV_PLACEMENT_H

#include "classify.h"
#include "clamp_rule.h"

#define HMPGOV_MAX_CPUS		64
#define HMPGOV_MAX_CLUSTERS	16

typedef u64 hmpgov_mask;

#define HMPGOV_CPU_BIT(cpu)	((hmpgov_mask)1 << (cpu))

struct hmpgov_machine {
	unsigned int nr_cpus;
	const u32 *capacity;		/* per CPU */
	const int *cluster;		/* per CPU; 0 is the littlest */
	unsigned int nr_clusters;
	hmpgov_mask online;		/* CPUs that may be used now */
};

/*
 * A big task whose average is at least this share (/1024) of its CPU's
 * capacity has filled that CPU for a while (about four half-lives from
 * idle): it is ranked by the share of the CPU it wants, not by what it
 * reads (placement.c, demand()).
 */
#define HMPGOV_FILLED	973

/* How decisions reach the kernel: steer= (docs/uclamp.md). */
#define HMPGOV_BACKEND_AFFINITY	1U	/* CPU masks for every rule */
#define HMPGOV_BACKEND_UCLAMP	2U	/* uclamp; a mask only to pack */

/*
 * Why a task is where the rules put it: the reason a hmpgov_place trace
 * line and the debugfs tasks view give.
 */
enum hmpgov_why {
	HMPGOV_WHY_PACKED,		/* small: on one packing CPU (rule 1) */
	HMPGOV_WHY_PACK_OVERFLOW,	/* small: the little CPUs cannot take them all */
	HMPGOV_WHY_SMALL_OUTSIDE,	/* small: its base has no packing CPU */
	HMPGOV_WHY_MEDIUM,		/* medium: keeps its base */
	HMPGOV_WHY_BIG,			/* big: on cluster .cluster (rule 3) */
	HMPGOV_WHY_BIG_NO_ROOM,		/* big: no bigger cluster has room in its base */
	HMPGOV_WHY_DEFERRED,		/* a move waits: move_interval_ms since the last */
	HMPGOV_WHY_PASS_FULL,		/* a move waits: this pass made its moves */
	HMPGOV_WHY_EXCLUDED,		/* not steered (set by the worker, not here) */
	HMPGOV_NR_WHY,
};

extern const char *const hmpgov_why_names[HMPGOV_NR_WHY];

/* What hmpgov_place() asks for a task. */
enum hmpgov_act {
	HMPGOV_ACT_KEEP,	/* the task has its decision already */
	HMPGOV_ACT_SET,		/* set .mask and .clamp now */
	HMPGOV_ACT_WAIT,	/* they differ, but a rate limit holds (.why) */
};

/* One managed task: inputs, and what the rules give it. */
struct hmpgov_placed {
	enum hmpgov_class class;
	u32 util;			/* orders the big tasks */
	u32 avg;			/* sums the small ones; HMPGOV_FILLED */
	int cpu;			/* where it last ran */
	hmpgov_mask base;		/* the user's (or its cpuset's) mask */
	struct hmpgov_clamp clamp_base;	/* the user's uclamp request */
	hmpgov_mask mask_now;		/* the mask it has now */
	struct hmpgov_clamp clamp_now;	/* the request it has now */
	u64 moved_at;			/* when hmpgov last moved it, ns */
	/* out */
	hmpgov_mask want;		/* the rules' mask: a subset of base */
	hmpgov_mask mask;		/* the mask to run on, as steered */
	struct hmpgov_clamp clamp;	/* the uclamp request, as steered */
	enum hmpgov_why why;
	int cluster;			/* HMPGOV_WHY_BIG: where; else -1 */
	enum hmpgov_act act;
};

/* The settings a decision follows. */
struct hmpgov_policy {
	unsigned int backends;		/* HMPGOV_BACKEND_* */
	u32 pack_limit;			/* /1024 of a little CPU's capacity */
	u64 move_interval_ns;		/* between two moves of a task; 0: none */
	unsigned int moves_per_pass;	/* 0: no limit */
	/* uclamp: util_min that fits cluster c and bigger only */
	u32 clamp_min[HMPGOV_MAX_CLUSTERS];
	u32 clamp_max_small;		/* uclamp: util_max of small tasks */
};

/*
 * The packing set, kept from one decision to the next so that it grows
 * and shrinks with hysteresis. Zero it before the first decision.
 */
struct hmpgov_packing {
	hmpgov_mask cpus;
	unsigned int nr;
	bool overflow;		/* the little CPUs cannot take them all */
	u64 sum;		/* the small tasks' summed avg, last decision */
	u64 high_since;		/* sum over the join bound since, ns; 0: not */
	u64 per_cpu;		/* the avg one packing CPU takes */
	u8 joined[HMPGOV_MAX_CPUS];	/* the CPUs of cpus, first to join first */
};

/* Default packing limit: share of a little CPU's capacity, /1024. */
#define HMPGOV_PACK_LIMIT	650

/*
 * A next packing CPU joins only once the sum has stayed over the join
 * bound this long: a shell that forks a few short commands lifts the sum
 * for some tens of ms, and the set would otherwise open and close several
 * times a second, moving every small task each time.
 */
#define HMPGOV_PACK_HOLD_NS	(100ULL * 1000 * 1000)

/**
 * hmpgov_place() - decide the mask, uclamp request and reason of every task
 * @m:     the machine
 * @pol:   the settings; @pol->pack_limit: a packing CPU takes small tasks
 *         up to this share (/1024) of its capacity; a next one joins when
 *         the small tasks' summed avg has exceeded it for
 *         HMPGOV_PACK_HOLD_NS and leaves when the sum falls under 3/4 of
 *         what the smaller set takes
 * @t:     the tasks; the out fields are written
 * @n:     their number
 * @pack:  the packing set, updated
 * @order: scratch space for @n indices
 * @now:   the time of the decision, ns (monotonic)
 *
 * Rule 1: small tasks go to the packing set (little CPUs, preferring
 * ones where no medium or big task last ran), each to one of its CPUs,
 * kept while that CPU has room; when their sum exceeds what all little
 * CPUs take at pack_limit, they overflow and keep their base, until it
 * falls under 3/4 of that. Rule 3: big tasks, heaviest
 * first, each to the biggest cluster above the littlest that still has a
 * free CPU for it; the rest keep their base less the clusters the placed
 * ones fill (or their base, if that leaves fewer online CPUs than such
 * tasks, or none in the base). Medium tasks
 * keep their base. A task whose base excludes its rule's CPUs keeps its
 * base. Only online CPUs are given.
 *
 * Then the backends: with affinity, .mask is the rules' mask; with uclamp
 * alone only a packed small task gets a mask, and a big task placed on a
 * cluster gets that cluster's util_min, a small task the littlest CPUs'
 * util_max, within the user's request (hmpgov_clamp_combine()). Last the
 * rate limits: a task moved less than move_interval_ns ago, or beyond
 * moves_per_pass changes, waits.
 *
 * Return: how many tasks' decisions differ from what they have (set or
 * waiting).
 */
unsigned int hmpgov_place(const struct hmpgov_machine *m,
			  const struct hmpgov_policy *pol,
			  struct hmpgov_placed *t, unsigned int n,
			  struct hmpgov_packing *pack, unsigned int *order,
			  u64 now);

/*
 * What the kernel says of a task, for hmpgov_excluded(): gathered by
 * module/steer.c, judged here.
 */
struct hmpgov_task_kind {
	bool kernel;		/* a kernel thread, or one whose mask is not settable */
	bool exiting;
	bool realtime;		/* SCHED_FIFO, SCHED_RR or SCHED_DEADLINE */
	hmpgov_mask base;	/* the mask the user gave it */
	const char *comm;	/* its name */
};

/**
 * hmpgov_excluded() - whether hmpgov leaves a task alone (HMPGOV_WHY_EXCLUDED)
 * @k:     the task
 * @names: exclude_comm=, a comma-separated list of task names
 *
 * Kernel threads, exiting tasks and real-time tasks (their CPUs are the
 * RT class's and the user's business) stay as they are; so does a task
 * the user allowed one CPU only (its base decides: its current mask may
 * be one CPU because hmpgov packed it), and one whose name is in @names.
 *
 * Return: true if hmpgov must leave the task alone.
 */
bool hmpgov_excluded(const struct hmpgov_task_kind *k, const char *names);

/*
 * Whether @list may be exclude_comm=: empty, or names separated by single
 * commas, with no blank and no leading comma (a trailing one is taken).
 */
bool hmpgov_names_valid(const char *list);

/* The CPUs of @cluster that are online. */
hmpgov_mask hmpgov_cluster_mask(const struct hmpgov_machine *m, int cluster);

#endif /* HMPGOV_PLACEMENT_H */
