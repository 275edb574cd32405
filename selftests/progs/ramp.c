// SPDX-License-Identifier: GPL-2.0
/*
 * ramp: one task whose duty cycle (of a 16 ms period) climbs from FROM to
 * TO percent in STEP-percent steps, each held SEGMENT seconds, marking
 * each level in the trace ("hmpgov-ramp PCT" in trace_marker, then
 * "hmpgov-ramp end"), so that rampstat(1) can say where it ran.
 *
 * The duty cycle is work, as the biggest CPU does it at its top
 * frequency: the QEMU CPUs all run at one speed, so on a CPU of capacity c
 * (from the CAPACITIES list, one per CPU) running at frequency f of its
 * policy's maximum (cpufreq's scaling_cur_freq, where the CPU has a
 * policy) each ns the task runs counts as c / 1024 * f / f_max ns of that
 * work, as it would on real hardware. Only the task's own CPU time
 * counts, not the time it waits preempted. A period whose work is not done
 * when the next begins runs on into it (the task is then simply busy); a
 * period that is already over when its turn comes is dropped.
 *
 * With START_CPU the ramp begins on that CPU: the task first runs one
 * second at FROM percent bound to it (unmarked, so that the kernel's and
 * hmpgov's view of its load settle there rather than at what a new task
 * starts with), then allows itself every CPU again (not the mask it
 * inherited, which may be hmpgov's steering of its parent), and from then
 * on the kernel (or hmpgov) places it.
 *
 * usage: ramp FROM TO STEP SEGMENT_S "CAPACITIES" [START_CPU]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define PERIOD		16000000LL
#define WARMUP		1000000000LL
#define MAX_CPUS	64

static int capacity[MAX_CPUS];
static int cur_fd[MAX_CPUS];		/* scaling_cur_freq, -1 none, 0 not tried */
static long max_khz[MAX_CPUS];

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long read_long(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return atol(buf);
}

/* @cpu's frequency as a share of its maximum, in 1/1024; 1024 without cpufreq. */
static long long freq_scale(int cpu)
{
	char path[96];
	long cur;
	int fd;

	if (!cur_fd[cpu]) {
		cur_fd[cpu] = -1;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			max_khz[cpu] = read_long(fd);
			close(fd);
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
			if (max_khz[cpu] > 0)
				cur_fd[cpu] = open(path, O_RDONLY);
		}
	}
	if (cur_fd[cpu] < 0)
		return 1024;
	cur = read_long(cur_fd[cpu]);
	return cur > 0 ? 1024LL * cur / max_khz[cpu] : 1024;
}

/* Work per ns run on @cpu now, in 1/1024 ns of the biggest CPU's top speed. */
static long long work_rate(int cpu)
{
	long long cap;

	if (cpu < 0 || cpu >= MAX_CPUS)
		return 1024;
	cap = capacity[cpu] ? capacity[cpu] : 1024;
	return cap * freq_scale(cpu) / 1024;
}

static void mark(int fd, const char *text)
{
	if (fd >= 0 && write(fd, text, strlen(text)) < 0)
		perror("ramp: trace_marker");
}

/* One level: @pct of each period's work until @end. */
static void run_level(int pct, long long start, long long end)
{
	long long t, need, c0, c1, rate;
	int cpu, now_cpu;

	for (t = start; t < end; t += PERIOD) {
		if (ns_now() >= t + PERIOD)
			continue;
		need = PERIOD * pct / 100 * 1024;
		cpu = sched_getcpu();
		rate = work_rate(cpu);
		c0 = cpu_ns();
		while (need > 0 && ns_now() < end) {
			c1 = cpu_ns();
			now_cpu = sched_getcpu();
			need -= (c1 - c0) * rate;
			c0 = c1;
			if (now_cpu != cpu) {
				cpu = now_cpu;
				rate = work_rate(cpu);
			}
		}
		sleep_until(t + PERIOD);
	}
}

int main(int argc, char **argv)
{
	long long seg, start;
	int from, to, step, pct, i, fd, c = 0;
	char *tok, *save, text[32];
	cpu_set_t mask;

	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: ramp FROM TO STEP SEGMENT_S CAPACITIES [START_CPU]\n");
		return 2;
	}
	for (tok = strtok_r(argv[5], " ", &save); tok && c < MAX_CPUS;
	     tok = strtok_r(NULL, " ", &save))
		capacity[c++] = atoi(tok);
	from = atoi(argv[1]);
	to = atoi(argv[2]);
	step = atoi(argv[3]);
	seg = (long long)(atof(argv[4]) * 1e9);
	if (from < 0 || to > 100 || from > to || step <= 0 || seg <= 0) {
		fprintf(stderr, "ramp: need 0 <= FROM <= TO <= 100, STEP > 0, SEGMENT_S > 0\n");
		return 2;
	}
	if (argc == 7) {
		CPU_ZERO(&mask);
		for (i = 0; i < sysconf(_SC_NPROCESSORS_CONF) && i < CPU_SETSIZE; i++)
			CPU_SET(i, &mask);
		if (pin_cpu(atoi(argv[6]))) {
			perror("ramp: sched_setaffinity");
			return 1;
		}
		start = ns_now();
		run_level(from, start, start + WARMUP);
		if (sched_setaffinity(0, sizeof(mask), &mask)) {
			perror("ramp: sched_setaffinity");
			return 1;
		}
	}
	fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	start = ns_now();
	for (i = 0, pct = from; pct <= to; i++, pct += step) {
		snprintf(text, sizeof(text), "hmpgov-ramp %d\n", pct);
		mark(fd, text);
		run_level(pct, start + i * seg, start + (i + 1) * seg);
	}
	mark(fd, "hmpgov-ramp end\n");
	return 0;
}
