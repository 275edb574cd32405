// SPDX-License-Identifier: GPL-2.0
/*
 * steps: how long after each "hmpgov-step up|down" trace marker the task
 * PID first ran on the CPUs it should move to (big CPUs after an up step,
 * little ones after a down step), from sched_switch events in the trace
 * text on stdin. One line per step: "up 17.2" (ms), or "up never".
 *
 * usage: steps PID "BIG CPUS" "LITTLE CPUS" < trace
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

int main(int argc, char **argv)
{
	char line[1024], key[32];
	double ts, step_at = -1;
	int pid, cpu, up = 0, pending = 0;
	const char *big, *little;

	if (argc != 4) {
		fprintf(stderr, "usage: steps PID BIGCPUS LITTLECPUS < trace\n");
		return 2;
	}
	pid = atoi(argv[1]);
	big = argv[2];
	little = argv[3];
	snprintf(key, sizeof(key), " next_pid=%d ", pid);
	while (fgets(line, sizeof(line), stdin)) {
		char *b = strchr(line, '['), *colon;

		if (line[0] == '#' || !b)
			continue;
		cpu = atoi(b + 1);
		colon = strstr(b, ": ");
		if (!colon)
			continue;
		while (colon > b && colon[-1] != ' ')
			colon--;
		ts = atof(colon);
		if (strstr(line, "hmpgov-step ")) {
			if (pending)
				printf("%s never\n", up ? "up" : "down");
			up = !!strstr(line, "hmpgov-step up");
			step_at = ts;
			pending = 1;
		} else if (pending && strstr(line, ": sched_switch:") && strstr(line, key) &&
			   in_list(up ? big : little, cpu)) {
			printf("%s %.1f\n", up ? "up" : "down", (ts - step_at) * 1e3);
			pending = 0;
		}
	}
	if (pending)
		printf("%s never\n", up ? "up" : "down");
	return 0;
}
