// SPDX-License-Identifier: GPL-2.0
/*
 * runtimes: where tasks actually ran, from the kernel's own trace events.
 * Reads the text of /sys/kernel/tracing/trace (sched_switch and
 * sched_migrate_task enabled) on stdin and prints, for each PID named on
 * the command line, its runtime on every CPU and its migrations:
 *
 *   pid PID total_us T cpu0_us A cpu1_us B ... migrations M
 *
 * A task running when the trace begins is counted from the first event,
 * one running when it ends up to the last. Then one line "span_us S"
 * (first to last event) and "idle_wait_us W":
 * the longest time any CPU sat idle while a listed task was runnable and
 * waiting (woken or preempted, not yet running), a check that no CPU
 * idles while a task waits.
 *
 * usage: runtimes PID... < trace
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS	64
#define MAX_PIDS	256

static int pids[MAX_PIDS], npids;
static double run[MAX_PIDS][MAX_CPUS];
static long migrations[MAX_PIDS];
static int cur[MAX_CPUS];		/* pid running on each CPU, -1 unknown */
static double since[MAX_CPUS];
static double idle_since[MAX_CPUS];	/* < 0: CPU busy */
static double waiting_since[MAX_PIDS];	/* < 0: not waiting */
static int ncpus;

static int slot_of(int pid)
{
	int i;

	for (i = 0; i < npids; i++)
		if (pids[i] == pid)
			return i;
	return -1;
}

static int field_int(const char *line, const char *key, int *out)
{
	const char *p = strstr(line, key);

	if (!p)
		return -1;
	*out = atoi(p + strlen(key));
	return 0;
}

/* A listed task that waits while some CPU idles: the longest such gap. */
static double worst_idle_wait;

static void note_idle_wait(double ts)
{
	int i, c;

	for (i = 0; i < npids; i++) {
		if (waiting_since[i] < 0)
			continue;
		for (c = 0; c < ncpus; c++) {
			double from;

			if (idle_since[c] < 0)
				continue;
			from = idle_since[c] > waiting_since[i] ? idle_since[c] : waiting_since[i];
			if (ts - from > worst_idle_wait)
				worst_idle_wait = ts - from;
		}
	}
}

int main(int argc, char **argv)
{
	char line[1024], state[8];
	double ts, first = -1, last = 0;
	int i, c, cpu, prev, next, pid, dest;

	for (i = 1; i < argc && npids < MAX_PIDS; i++) {
		pids[npids] = atoi(argv[i]);
		waiting_since[npids] = -1;
		npids++;
	}
	for (c = 0; c < MAX_CPUS; c++) {
		cur[c] = -1;
		idle_since[c] = -1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char *b = strchr(line, '['), *colon;

		if (line[0] == '#' || !b)
			continue;
		cpu = atoi(b + 1);
		colon = strstr(b, ": sched_");
		if (cpu < 0 || cpu >= MAX_CPUS || !colon)
			continue;
		while (colon > b && colon[-1] != ' ')
			colon--;
		ts = atof(colon);
		if (cpu + 1 > ncpus)
			ncpus = cpu + 1;
		if (first < 0)
			first = ts;
		last = ts;
		if (strstr(line, ": sched_switch:")) {
			if (field_int(line, "prev_pid=", &prev) ||
			    field_int(line, " next_pid=", &next))
				continue;
			note_idle_wait(ts);
			/* a CPU's first switch: prev ran since the trace began */
			i = slot_of(cur[cpu] >= 0 ? cur[cpu] : prev);
			if (i >= 0)
				run[i][cpu] += ts - (cur[cpu] >= 0 ? since[cpu] : first);
			i = slot_of(prev);
			state[0] = 0;
			if (i >= 0) {
				const char *s = strstr(line, "prev_state=");

				if (s)
					sscanf(s + 11, "%7s", state);
				/* preempted (R, R+): it keeps waiting */
				waiting_since[i] = state[0] == 'R' ? ts : -1;
			}
			i = slot_of(next);
			if (i >= 0)
				waiting_since[i] = -1;
			cur[cpu] = next;
			since[cpu] = ts;
			idle_since[cpu] = next == 0 ? ts : -1;
		} else if (strstr(line, ": sched_wakeup")) {
			i = field_int(line, " pid=", &pid) ? -1 : slot_of(pid);
			if (i >= 0 && waiting_since[i] < 0) {
				note_idle_wait(ts);
				waiting_since[i] = ts;
			}
		} else if (strstr(line, ": sched_migrate_task:")) {
			i = field_int(line, " pid=", &pid) ||
			    field_int(line, "dest_cpu=", &dest) ? -1 : slot_of(pid);
			if (i >= 0)
				migrations[i]++;
		}
	}
	/* what runs at the end has run since its last switch */
	for (c = 0; c < ncpus; c++) {
		i = cur[c] >= 0 ? slot_of(cur[c]) : -1;
		if (i >= 0)
			run[i][c] += last - since[c];
	}
	for (i = 0; i < npids; i++) {
		double total = 0;

		for (c = 0; c < ncpus; c++)
			total += run[i][c];
		printf("pid %d total_us %.0f", pids[i], total * 1e6);
		for (c = 0; c < ncpus; c++)
			printf(" cpu%d_us %.0f", c, run[i][c] * 1e6);
		printf(" migrations %ld\n", migrations[i]);
	}
	printf("span_us %.0f\n", first < 0 ? 0 : (last - first) * 1e6);
	printf("idle_wait_us %.0f\n", worst_idle_wait * 1e6);
	return 0;
}
