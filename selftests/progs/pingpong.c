// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: a context-switch-heavy workload. Two processes pinned to one
 * CPU pass a byte back and forth over two pipes, so every round trip is
 * two context switches (each one a sched_switch and a sched_stat_runtime
 * event for hmpgov's probes).
 *
 * usage: pingpong CPU SECONDS [BLOCK_MS]
 * prints: "round_trips N ns_per_switch X", the mean over the run; with
 * BLOCK_MS, also "block_median_ns Y blocks B": the run is cut into
 * blocks of BLOCK_MS and Y is the median of their ns per switch, which a
 * few blocks stretched by the host (an emulated CPU descheduled for a
 * while) do not move.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long long end, start, now, n = 0, block_ns = 0, block_start, block_n = 0;
	size_t nblocks = 0, max_blocks = 0;
	double *blocks = NULL;
	int ab[2], ba[2], cpu;
	char c = 0;
	pid_t child;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: pingpong CPU SECONDS [BLOCK_MS]\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	if (argc == 4) {
		block_ns = (long long)(atof(argv[3]) * 1e6);
		if (block_ns <= 0)
			return 2;
		max_blocks = (size_t)(atof(argv[2]) * 1e9 / block_ns) + 2;
		blocks = calloc(max_blocks, sizeof(*blocks));
		if (!blocks)
			return 1;
	}
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
	block_start = start;
	end = start + (long long)(atof(argv[2]) * 1e9);
	while ((now = ns_now()) < end) {
		if (block_ns && now - block_start >= block_ns && nblocks < max_blocks) {
			blocks[nblocks++] = (double)(now - block_start) /
					    (2.0 * (n - block_n));
			block_start = now;
			block_n = n;
		}
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
		n++;
	}
	end = ns_now();
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("round_trips %lld ns_per_switch %.0f", n,
	       n ? (double)(end - start) / (2.0 * n) : 0.0);
	if (block_ns) {
		qsort(blocks, nblocks, sizeof(*blocks), cmp_double);
		printf(" block_median_ns %.0f blocks %zu",
		       nblocks ? blocks[(nblocks - 1) / 2] : 0.0, nblocks);
	}
	printf("\n");
	free(blocks);
	return n == 0 || (block_ns && !nblocks);
}
