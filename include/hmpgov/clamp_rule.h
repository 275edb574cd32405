/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uclamp hints as a pure function: which util_min / util_max hmpgov asks
 * for, from the kernel's CPU capacities, and how a hint combines with the
 * clamps the user gave the task. Pure C; module/hint_uclamp.c applies it.
 */
#ifndef HMPGOV_CLAMP_RULE_H
#define HMPGOV_CLAMP_RULE_H

#include "pure.h"

/*
 * A task's uclamp request (p->uclamp_req): values on the 0..1024 scale;
 * *_user: someone set that side (sched_setattr, or hmpgov), else it is
 * the kernel's default (0 and 1024 for fair tasks).
 */
struct hmpgov_clamp {
	u16 min, max;
	bool min_user, max_user;
};

/* No hint on a side. */
#define HMPGOV_CLAMP_NO_MIN	0
#define HMPGOV_CLAMP_NO_MAX	HMPGOV_CAPACITY_SCALE

/* Whether two requests ask for the same values. */
bool hmpgov_clamp_same(const struct hmpgov_clamp *a,
		       const struct hmpgov_clamp *b);

/**
 * hmpgov_clamp_combine() - the request that carries a hint within a base
 * @base:     the user's request
 * @want_min: hmpgov's util_min, or HMPGOV_CLAMP_NO_MIN
 * @want_max: hmpgov's util_max, or HMPGOV_CLAMP_NO_MAX
 * @out:      the request to set
 *
 * hmpgov never lowers the user's util_min nor raises the user's util_max,
 * and keeps min <= max: a boost is capped by the user's util_max, a cap
 * stops at the user's util_min. A side hmpgov leaves alone keeps the
 * base's value and default-ness; a base with min > max is left as it is.
 */
void hmpgov_clamp_combine(const struct hmpgov_clamp *base, u32 want_min,
			  u32 want_max, struct hmpgov_clamp *out);

/*
 * The util_min that lets a task fit only CPUs of capacity @cap or more:
 * one above the biggest capacity under @cap among @capacity[0..@nr-1], or
 * HMPGOV_CLAMP_NO_MIN if no CPU is smaller.
 */
u32 hmpgov_clamp_min_for(const u32 *capacity, unsigned int nr, u32 cap);

/*
 * The util_max that fits the smallest CPUs under both of the kernel's
 * fitting rules: the 80 % margin of fits_capacity() (5.14 .. 6.1 clamp the
 * utilization, then apply it) and uclamp_max <= capacity (6.2+).
 */
u32 hmpgov_clamp_max_small(const u32 *capacity, unsigned int nr);

#endif /* HMPGOV_CLAMP_RULE_H */
