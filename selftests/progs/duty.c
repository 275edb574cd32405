// SPDX-License-Identifier: GPL-2.0
/*
 * duty: a periodic task for the load-tracking tests. In every period it
 * runs (spins) for duty% of it and sleeps the rest, optionally pinned to
 * one CPU and at a nice level.
 *
 * usage: duty PERCENT PERIOD_MS SECONDS [CPU|-1 [NICE]]
 *   PERCENT 0..100; 100 never sleeps.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "clock.h"

int main(int argc, char **argv)
{
	long long period, run, end, start;
	int pct, cpu = -1;

	if (argc < 4) {
		fprintf(stderr, "usage: duty PERCENT PERIOD_MS SECONDS [CPU [NICE]]\n");
		return 2;
	}
	pct = atoi(argv[1]);
	period = atoll(argv[2]) * 1000000LL;
	end = ns_now() + (long long)(atof(argv[3]) * 1e9);
	if (argc > 4)
		cpu = atoi(argv[4]);
	if (cpu >= 0 && pin_cpu(cpu)) {
		perror("duty: sched_setaffinity");
		return 1;
	}
	if (argc > 5 && setpriority(PRIO_PROCESS, 0, atoi(argv[5]))) {
		perror("duty: setpriority");
		return 1;
	}
	run = period * pct / 100;
	for (start = ns_now(); start < end; start += period) {
		while (ns_now() < start + run)
			;
		if (pct < 100)
			sleep_until(start + period);
	}
	return 0;
}
