// SPDX-License-Identifier: GPL-2.0
/*
 * Host benchmark of the accounting hmpgov's sched_stat_runtime probe does
 * per event (module/util_signal.c, built from the tree given to
 * scripts/bench-account.sh): a population of tasks, each accounted at
 * tick boundaries while it runs and after sleeps of varied length, and a
 * read now and then as the worker does. Prints ns per accounted event of
 * the fastest of several rounds, and the sum of the signals read (two
 * builds whose signals agree give about the same sum).
 *
 * usage: account ROUNDS EVENTS
 */
#include <stdlib.h>
#include <time.h>

#include "hmpgov/util_signal.h"

#define MS	1000000ULL
#define TASKS	64

#ifdef HALFLIFE_AS_NS		/* the signal before it took a rate */
#define HALFLIFE(ns)	(ns)
#else
#define HALFLIFE(ns)	hmpgov_halflife_rate(ns)
#endif

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* xorshift: the same pseudo-random run for every build */
static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(int argc, char **argv)
{
	static struct hmpgov_util u[TASKS];
	static u64 t[TASKS];
	unsigned long rounds, events, r, i;
	const u64 hl = HALFLIFE(32 * MS);
	u64 best = ~0ULL, sum = 0;

	if (argc != 3)
		return 2;
	rounds = strtoul(argv[1], NULL, 10);
	events = strtoul(argv[2], NULL, 10);
	for (r = 0; r < rounds; r++) {
		u64 seed = 88172645463325252ULL, t0, ns;

		for (i = 0; i < TASKS; i++) {
			t[i] = 1000 * MS;
			hmpgov_util_init(&u[i], t[i]);
		}
		sum = 0;
		t0 = now_ns();
		for (i = 0; i < events; i++) {
			u64 x = next_rand(&seed);
			unsigned int k = x % TASKS;
			/* asleep 0..~67 ms, then ran 0..~4 ms */
			u64 sleep = (x >> 8) & ((1ULL << 26) - 1);
			u64 run = (x >> 34) & ((1ULL << 22) - 1);

			if (x & (1ULL << 63))
				sleep = 0;	/* a tick of a running task */
			t[k] += sleep + run;
			hmpgov_util_account(&u[k], t[k], run, 446 + (k & 1) * 578,
					    1024, hl);
			if (!(i & 15))
				sum += hmpgov_util_read(&u[k], t[k] + MS, hl);
		}
		ns = now_ns() - t0;
		if (ns < best)
			best = ns;
	}
	printf("%.2f %llu\n", (double)best / events, sum);
	return 0;
}
