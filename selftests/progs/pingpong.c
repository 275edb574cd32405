// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: a context-switch-heavy workload. Two processes pinned to one
 * CPU pass a byte back and forth over two pipes, so every round trip is
 * two context switches (each one a sched_switch and a sched_stat_runtime
 * event for hmpgov's probes).
 *
 * usage: pingpong CPU SECONDS
 * prints: "round_trips N ns_per_switch X"
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"

int main(int argc, char **argv)
{
	int ab[2], ba[2], cpu;
	long long end, start, n = 0;
	char c = 0;
	pid_t child;

	if (argc != 3) {
		fprintf(stderr, "usage: pingpong CPU SECONDS\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	if (pipe(ab) || pipe(ba)) {
		perror("pingpong: pipe");
		return 1;
	}
	pin_cpu(cpu);
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (child == 0) {
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		_exit(0);
	}
	start = ns_now();
	end = start + (long long)(atof(argv[2]) * 1e9);
	while (ns_now() < end) {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
		n++;
	}
	end = ns_now();
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("round_trips %lld ns_per_switch %.0f\n", n,
	       n ? (double)(end - start) / (2.0 * n) : 0.0);
	return n == 0;
}
