// SPDX-License-Identifier: GPL-2.0
/*
 * rampstat: where the ramp(1) task PID ran, level by level, from the
 * kernel's sched_switch and sched_migrate_task events and ramp's
 * "hmpgov-ramp PCT" / "hmpgov-ramp end" markers in the trace text on
 * stdin (the window is the first marker to the end marker). Prints
 *
 *   level PCT little_us L big_us B       one line per level
 *   ramp little_us L big_us B span_us S migrations M
 *   first_big PCT MS                     the level in which it first ran
 *                                        on a big CPU, MS after its start
 *   settled PCT MS                       the same for the moment from
 *                                        which it ran only on big CPUs
 *
 * ("first_big never" / "settled never" when that did not happen).
 *
 * Runs on CPUs outside BIG CPUS count as little.
 *
 * usage: rampstat PID "BIG CPUS" < trace
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

#define MAX_LEVELS	128
#define MAX_RUNS	200000
#define MAX_CPUS	64

struct run {
	double from, to;
	int big;
};

static struct run runs[MAX_RUNS];
static int nruns;
static int level_pct[MAX_LEVELS];
static double level_at[MAX_LEVELS];
static int nlevels;

/* The level that holds time @t (the last one begun by then). */
static int level_of(double t)
{
	int i = 0;

	while (i + 1 < nlevels && level_at[i + 1] <= t)
		i++;
	return i;
}

static void print_moment(const char *what, double t)
{
	int l;

	if (t < 0) {
		printf("%s never\n", what);
		return;
	}
	l = level_of(t);
	printf("%s %d %.1f\n", what, level_pct[l], (t - level_at[l]) * 1e3);
}

int main(int argc, char **argv)
{
	char line[1024], next_key[32], prev_key[32], pid_key[32];
	double ts, end = -1, since[MAX_CPUS], first_big = -1, last_little = -1, settled = -1;
	double little_us[MAX_LEVELS] = { 0 }, big_us[MAX_LEVELS] = { 0 }, lt = 0, bt = 0;
	int cpu, i, l, pid, on_cpu = -1;
	long migrations = 0;
	const char *big, *m;

	if (argc != 3) {
		fprintf(stderr, "usage: rampstat PID BIGCPUS < trace\n");
		return 2;
	}
	pid = atoi(argv[1]);
	big = argv[2];
	snprintf(next_key, sizeof(next_key), " next_pid=%d ", pid);
	snprintf(prev_key, sizeof(prev_key), " prev_pid=%d ", pid);
	snprintf(pid_key, sizeof(pid_key), " pid=%d ", pid);
	while (fgets(line, sizeof(line), stdin)) {
		char *b = strchr(line, '['), *colon;

		if (line[0] == '#' || !b)
			continue;
		cpu = atoi(b + 1);
		colon = strstr(b, ": ");
		if (cpu < 0 || cpu >= MAX_CPUS || !colon)
			continue;
		while (colon > b && colon[-1] != ' ')
			colon--;
		ts = atof(colon);
		m = strstr(line, "hmpgov-ramp ");
		if (m && end < 0) {
			if (!strncmp(m + 12, "end", 3)) {
				end = ts;
			} else if (nlevels < MAX_LEVELS) {
				level_pct[nlevels] = atoi(m + 12);
				level_at[nlevels++] = ts;
			}
		} else if (strstr(line, ": sched_switch:")) {
			if (strstr(line, prev_key) && on_cpu == cpu && nruns < MAX_RUNS) {
				runs[nruns].from = since[cpu];
				runs[nruns].to = ts;
				runs[nruns++].big = in_list(big, cpu);
				on_cpu = -1;
			}
			if (strstr(line, next_key)) {
				on_cpu = cpu;
				since[cpu] = ts;
			}
		} else if (strstr(line, ": sched_migrate_task:") && strstr(line, pid_key) &&
			   nlevels && end < 0) {
			migrations++;
		}
	}
	if (!nlevels || end < 0) {
		fprintf(stderr, "rampstat: no complete ramp in the trace\n");
		return 1;
	}
	/* Runs clipped to the window, split at level starts. */
	for (i = 0; i < nruns; i++) {
		double from = runs[i].from > level_at[0] ? runs[i].from : level_at[0];
		double to = runs[i].to < end ? runs[i].to : end;

		if (to <= from)
			continue;
		if (!runs[i].big)
			last_little = to;
		if (runs[i].big && first_big < 0)
			first_big = from;
		while (from < to) {
			double cut;

			l = level_of(from);
			cut = l + 1 < nlevels && level_at[l + 1] < to ? level_at[l + 1] : to;
			if (runs[i].big)
				big_us[l] += (cut - from) * 1e6;
			else
				little_us[l] += (cut - from) * 1e6;
			from = cut;
		}
	}
	/* settled: the first big run after the last little one */
	for (i = 0; i < nruns && first_big >= 0; i++) {
		double from = runs[i].from > level_at[0] ? runs[i].from : level_at[0];

		if (runs[i].big && from >= last_little && from < end) {
			settled = from;
			break;
		}
	}
	for (l = 0; l < nlevels; l++) {
		printf("level %d little_us %.0f big_us %.0f\n", level_pct[l], little_us[l],
		       big_us[l]);
		lt += little_us[l];
		bt += big_us[l];
	}
	printf("ramp little_us %.0f big_us %.0f span_us %.0f migrations %ld\n", lt, bt,
	       (end - level_at[0]) * 1e6, migrations);
	print_moment("first_big", first_big);
	print_moment("settled", settled);
	return 0;
}
