// SPDX-License-Identifier: GPL-2.0
/*
 * stepper: a task that alternates between two duty cycles (of a 16 ms
 * period) every SEGMENT seconds, starting low, and marks each change in
 * the trace ("hmpgov-step up" / "hmpgov-step down" in trace_marker), so
 * that steps(1) can time the placement against the kernel's events.
 *
 * The duty cycle is work, as the biggest CPU does it: the QEMU CPUs all
 * run at the same speed, so on a CPU of capacity c (from the CAPACITIES
 * list, one per CPU) each period's run lasts 1024 / c times longer, as it
 * would on real hardware; beyond the period the task is simply busy.
 *
 * usage: stepper LOW_PERCENT HIGH_PERCENT SEGMENT_S SEGMENTS "CAPACITIES"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"

#define PERIOD	16000000LL
#define MAX_CPUS	64

static int capacity[MAX_CPUS];

/* ns of running that @pct % of a period's work takes on this CPU */
static long long run_here(int pct)
{
	int cpu = sched_getcpu();
	int cap = cpu >= 0 && cpu < MAX_CPUS && capacity[cpu] ? capacity[cpu] : 1024;

	return PERIOD * pct / 100 * 1024 / cap;
}

int main(int argc, char **argv)
{
	long long seg, start, t, run;
	int low, high, n, i, fd, c = 0;
	char *tok, *save;

	if (argc != 6) {
		fprintf(stderr, "usage: stepper LOW HIGH SEGMENT_S SEGMENTS CAPACITIES\n");
		return 2;
	}
	for (tok = strtok_r(argv[5], " ", &save); tok && c < MAX_CPUS;
	     tok = strtok_r(NULL, " ", &save))
		capacity[c++] = atoi(tok);
	low = atoi(argv[1]);
	high = atoi(argv[2]);
	seg = (long long)(atof(argv[3]) * 1e9);
	n = atoi(argv[4]);
	fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	start = ns_now();
	for (i = 0; i < n; i++) {
		const char *mark = i % 2 ? "hmpgov-step up\n" : "hmpgov-step down\n";
		long long end = start + (i + 1) * seg;

		if (i && fd >= 0 && write(fd, mark, strlen(mark)) < 0)
			perror("stepper: trace_marker");
		for (t = start + i * seg; t < end; t += PERIOD) {
			run = run_here(i % 2 ? high : low);
			while (ns_now() < t + run && ns_now() < end)
				;
			sleep_until(t + PERIOD);
		}
	}
	return 0;
}
