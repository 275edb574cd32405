// SPDX-License-Identifier: GPL-2.0
/*
 * fifo: run a program under SCHED_FIFO (busybox here has no chrt).
 *
 * usage: fifo PRIORITY PROGRAM [ARGS...]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sched_param sp;

	if (argc < 3) {
		fprintf(stderr, "usage: fifo PRIORITY PROGRAM [ARGS...]\n");
		return 2;
	}
	sp.sched_priority = atoi(argv[1]);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("fifo: sched_setscheduler");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror("fifo: exec");
	return 1;
}
