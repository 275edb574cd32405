// SPDX-License-Identifier: GPL-2.0
/*
 * work: fixed amounts of computation, for timing how fast the CPUs really
 * are (the speed benchmark throttles the little vCPUs on the host). The
 * unit is one iteration of a xorshift step; the guest calibrates how many
 * a CPU does per millisecond and asks for work in those units.
 *
 * usage:
 *   work calib CPU MS           iterations per ms on CPU (pinned), over MS
 *                               prints "ipms N"
 *   work run CPU ITERS          ITERS iterations pinned to CPU (-1: not
 *                               pinned); prints "ms X" (completion time)
 *   work heavy N ITERS          N processes of ITERS iterations each,
 *                               started together; prints "task I ms X
 *                               pid P" per process and "max_ms X"
 *   work periodic ITERS PERIOD_MS
 *                               every PERIOD_MS, ITERS iterations, until
 *                               SIGTERM or SIGINT; then prints
 *                               "jobs N p50_us X p95_us X max_us X late N":
 *                               response times (release to completion) and
 *                               the jobs that ended after their period
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"

#define MAX_TASKS	64
#define MAX_JOBS	200000

static unsigned long long sink;
static int stop;

/* @iters xorshift steps: the compiler cannot fold them away */
static void spin(unsigned long long iters)
{
	unsigned long long x = 88172645463325252ULL ^ iters;

	while (iters--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	__atomic_store_n(&sink, x, __ATOMIC_RELAXED);
}

static int pin(int cpu)
{
	if (cpu >= 0 && pin_cpu(cpu)) {
		perror("work: sched_setaffinity");
		return -1;
	}
	return 0;
}

static int calib(int cpu, long long ms)
{
	long long start, end, t;
	unsigned long long done = 0;

	if (pin(cpu))
		return 1;
	spin(100000);
	start = ns_now();
	end = start + ms * 1000000LL;
	do {
		spin(10000);
		done += 10000;
		t = ns_now();
	} while (t < end);
	printf("ipms %.0f\n", (double)done * 1e6 / (double)(t - start));
	return 0;
}

static int run(int cpu, unsigned long long iters)
{
	long long start;

	if (pin(cpu))
		return 1;
	start = ns_now();
	spin(iters);
	printf("ms %.1f\n", (ns_now() - start) / 1e6);
	return 0;
}

static int heavy(int n, unsigned long long iters)
{
	pid_t pid[MAX_TASKS];
	long long start, worst = 0;
	int i, left, status, bad = 0;

	if (n < 1 || n > MAX_TASKS) {
		fprintf(stderr, "work: 1..%d tasks\n", MAX_TASKS);
		return 2;
	}
	start = ns_now();
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("work: fork");
			return 1;
		}
		if (pid[i] == 0) {
			spin(iters);
			_exit(0);
		}
	}
	for (left = n; left > 0; left--) {
		pid_t p = wait(&status);
		long long t = ns_now() - start;

		if (p < 0) {
			perror("work: wait");
			return 1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
		for (i = 0; i < n; i++)
			if (pid[i] == p)
				printf("task %d ms %.1f pid %d\n", i, t / 1e6, p);
		if (t > worst)
			worst = t;
	}
	printf("max_ms %.1f\n", worst / 1e6);
	return bad;
}

static void on_stop(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int periodic(unsigned long long iters, long long period)
{
	static long long resp[MAX_JOBS];
	struct sigaction sa;
	long long release, done;
	int n = 0, late = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	release = ns_now();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		spin(iters);
		done = ns_now();
		if (n < MAX_JOBS)
			resp[n++] = done - release;
		if (done > release + period)
			late++;
		/* a late job's next release is the next period still ahead */
		release += period;
		while (release < done)
			release += period;
		sleep_until(release);
	}
	if (!n) {
		printf("jobs 0 p50_us 0 p95_us 0 max_us 0 late 0\n");
		return 1;
	}
	qsort(resp, n, sizeof(resp[0]), cmp_ll);
	printf("jobs %d p50_us %lld p95_us %lld max_us %lld late %d\n", n,
	       resp[(n - 1) / 2] / 1000, resp[(n - 1) * 95 / 100] / 1000,
	       resp[n - 1] / 1000, late);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "calib"))
		return calib(atoi(argv[2]), atoll(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(atoi(argv[2]), strtoull(argv[3], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "heavy"))
		return heavy(atoi(argv[2]), strtoull(argv[3], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "periodic"))
		return periodic(strtoull(argv[2], NULL, 10),
				atoll(argv[3]) * 1000000LL);
	fprintf(stderr,
		"usage: work calib CPU MS | run CPU ITERS | heavy N ITERS | periodic ITERS PERIOD_MS\n");
	return 2;
}
