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

/* One managed task: inputs, and the mask the rules give it. */
struct hmpgov_placed {
	enum hmpgov_class class;
	u32 util;			/* orders the big tasks */
	u32 avg;			/* sums the small ones */
	int cpu;			/* where it last ran */
	hmpgov_mask base;		/* the user's (or its cpuset's) mask */
	hmpgov_mask want;		/* out: always a subset of base */
};

/*
 * The packing set, kept from one decision to the next so that it grows
 * and shrinks with hysteresis. Zero it before the first decision.
 */
struct hmpgov_packing {
	hmpgov_mask cpus;
	unsigned int nr;
	bool overflow;		/* the little CPUs cannot take them all */
	u64 high_since;		/* sum over the join bound since, ns; 0: not */
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
 * hmpgov_place() - decide the mask of every task
 * @m:          the machine
 * @t:          the tasks; .want is written
 * @n:          their number
 * @pack:       the packing set, updated
 * @pack_limit: a packing CPU takes small tasks up to this share (/1024)
 *              of its capacity; a next one joins when the small tasks'
 *              summed avg has exceeded it for HMPGOV_PACK_HOLD_NS and
 *              leaves when the sum falls under 3/4 of what the smaller
 *              set takes
 * @order:      scratch space for @n indices
 * @now:        the time of the decision, ns (monotonic)
 *
 * Rule 1: small tasks go to the packing set (little CPUs, preferring
 * ones where no medium or big task last ran); when their sum exceeds
 * what all little CPUs take at @pack_limit, they overflow and keep their
 * base, until it falls under 3/4 of that. Rule 3: big tasks, heaviest
 * first, each to the biggest cluster above the littlest that still has a
 * free CPU for it; the rest may run anywhere in their base. Medium tasks
 * keep their base. A task whose base excludes its rule's CPUs keeps its
 * base.
 */
void hmpgov_place(const struct hmpgov_machine *m, struct hmpgov_placed *t,
		  unsigned int n, struct hmpgov_packing *pack, u32 pack_limit,
		  unsigned int *order, u64 now);

/* The CPUs of @cluster that are online. */
hmpgov_mask hmpgov_cluster_mask(const struct hmpgov_machine *m, int cluster);

#endif /* HMPGOV_PLACEMENT_H */
