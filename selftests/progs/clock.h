/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest test programs: CLOCK_MONOTONIC in ns,
 * sleeping until an absolute time, pinning to one CPU.
 */
#ifndef HMPGOV_PROGS_CLOCK_H
#define HMPGOV_PROGS_CLOCK_H

#include <sched.h>
#include <time.h>

static inline long long ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Returns at once when @t has passed. */
static inline void sleep_until(long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL,
			       .tv_nsec = t % 1000000000LL };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static inline int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

#endif
