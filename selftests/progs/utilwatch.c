// SPDX-License-Identifier: GPL-2.0
/*
 * utilwatch: measure hmpgov's signal for a task from outside, by polling
 * /sys/kernel/debug/hmpgov/tasks ("pid comm util avg cpu" lines).
 *
 *   utilwatch max PID SECONDS
 *       the highest util PID showed while polled every 2 ms
 *   utilwatch ramp CPU THRESHOLD HALFLIFE_MS
 *       fork a child pinned to CPU that idles 300 ms, then spins 300 ms,
 *       then sleeps; print how long after the spin began util first
 *       reached THRESHOLD ("ramp_ms", measured when the read that saw it
 *       ended: an upper bound), and how avg decayed over one
 *       half-life of its sleep against 2^(-t/halflife) ("decay_ratio",
 *       1.0 = exact)
 *
 * Times are CLOCK_MONOTONIC, shared with the child through a mapping.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define TASKS "/sys/kernel/debug/hmpgov/tasks"

/* util and avg of @pid; 0 if found */
static int read_task(int pid, int *util, int *avg)
{
	char line[256], comm[64];
	int p, u, a, c, found = -1;
	FILE *f = fopen(TASKS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %63s %d %d %d", &p, comm, &u, &a, &c) == 5 &&
		    p == pid) {
			*util = u;
			*avg = a;
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

static int watch_max(int pid, double seconds)
{
	long long end = ns_now() + (long long)(seconds * 1e9);
	int util, avg, max = -1;

	while (ns_now() < end) {
		if (!read_task(pid, &util, &avg) && util > max)
			max = util;
		sleep_until(ns_now() + 2000000);
	}
	printf("max_util=%d\n", max);
	return max < 0;
}

static int watch_ramp(int cpu, int threshold, int halflife_ms)
{
	long long *shared;
	long long t0, t, spin_end, t1 = 0, t2 = 0, ramp = -1;
	int util, avg, a1 = 0, a2 = 0;
	long long deadline;
	pid_t child;

	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 1;
	shared[0] = 0;
	child = fork();
	if (child == 0) {
		pin_cpu(cpu);
		sleep_until(ns_now() + 300000000LL);
		t0 = ns_now();
		__atomic_store_n(&shared[0], t0, __ATOMIC_RELEASE);
		while (ns_now() < t0 + 300000000LL)
			;
		__atomic_store_n(&shared[1], ns_now(), __ATOMIC_RELEASE);
		sleep_until(ns_now() + 2000000000LL);
		_exit(0);
	}
	if (child < 0)
		return 1;
	/* poll from any other CPU; a child that never signals ends it */
	deadline = ns_now() + 5000000000LL;
	while (!__atomic_load_n(&shared[0], __ATOMIC_ACQUIRE)) {
		if (ns_now() > deadline)
			goto stuck;
		sleep_until(ns_now() + 200000);
	}
	while (!__atomic_load_n(&shared[1], __ATOMIC_ACQUIRE)) {
		if (ns_now() > deadline)
			goto stuck;
		if (ramp < 0 && !read_task(child, &util, &avg) && util >= threshold) {
			t = ns_now();
			ramp = t - shared[0];
		}
		sleep_until(ns_now() + 500000);
	}
	spin_end = shared[1];
	/* decay: two windows after the spin, then one half-life later */
	sleep_until(spin_end + 40000000LL);
	if (!read_task(child, &util, &a1))
		t1 = ns_now();
	sleep_until(t1 + halflife_ms * 1000000LL);
	if (!read_task(child, &util, &a2))
		t2 = ns_now();
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("ramp_ms=%.1f\n", ramp < 0 ? -1.0 : ramp / 1e6);
	if (t1 && t2 && a1 > 0) {
		double expected = pow(2.0, -(double)(t2 - t1) / (halflife_ms * 1e6));

		printf("decay_from=%d decay_to=%d decay_ratio=%.3f\n", a1, a2,
		       (double)a2 / a1 / expected);
	}
	return 0;
stuck:
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	fprintf(stderr, "utilwatch: the spinning child gave no sign within 5 s\n");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "max"))
		return watch_max(atoi(argv[2]), atof(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "ramp"))
		return watch_ramp(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: utilwatch max PID SECONDS | ramp CPU THRESHOLD HALFLIFE_MS\n");
	return 2;
}
