// SPDX-License-Identifier: GPL-2.0
/*
 * maskback: a program that reads its own CPU mask the way third-party
 * programs do, to test what hmpgov shows them (module/view.c).
 *
 *   maskback PERIOD_MS WRITEBACK   every PERIOD_MS (0: without a pause)
 *                                  read the mask with sched_getaffinity()
 *                                  and the kernel's own from
 *                                  /proc/self/status; with WRITEBACK 1,
 *                                  write the mask read back with
 *                                  sched_setaffinity(), as a program that
 *                                  saves and restores its mask does.
 *                                  Until SIGTERM, then prints
 *                                  "read N reads, fewest F, most M, narrowed K":
 *                                  the fewest and most CPUs a read gave,
 *                                  and how many reads differed from the
 *                                  kernel's mask read right after.
 *   maskback spin                  call sched_getaffinity() without
 *                                  pause until SIGTERM, then print
 *                                  "spin N calls"
 *   maskback pool                  size a thread pool from
 *                                  sched_getaffinity(), start it, and
 *                                  print "pool N threads, fewest F" (F:
 *                                  the fewest CPUs any of its threads read
 *                                  with pthread_getaffinity_np()).
 *   maskback bind ROUNDS           as cyclictest does: work in bursts
 *                                  until the kernel's mask of this
 *                                  process is narrowed (at most 10 s),
 *                                  then ROUNDS times start one thread
 *                                  per CPU it reads, each binding itself
 *                                  to its CPU with sched_setaffinity()
 *                                  at its start and working in bursts
 *                                  for 0.2 s; print "bind T threads,
 *                                  narrowed K, lost L": L threads whose
 *                                  kernel mask (/proc/thread-self) was
 *                                  not their CPU at their end.
 *   maskback churn CYCLES          CYCLES times: start threads one after
 *                                  the other for 0.2 s, then sleep 0.3 s,
 *                                  so that hmpgov moves the process
 *                                  (busy, then idle) while threads are
 *                                  being copied, and takes up new
 *                                  threads while they start. Each thread
 *                                  reads its mask with
 *                                  pthread_getaffinity_np() at its
 *                                  start. Print "churn T threads, fewest
 *                                  F, short S, masks M, narrowed K": S
 *                                  threads read fewer CPUs than the
 *                                  process at its start (the first is
 *                                  named); M: the changes of the main
 *                                  thread's kernel mask off a narrowing
 *                                  seen (sampled every 16 threads), K:
 *                                  of its samples, the narrowed ones;
 *                                  ", held H": of the threads sampled
 *                                  (every 16th), those whose kernel mask
 *                                  (/proc/thread-self) read right after
 *                                  their read was narrowed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define MAX_POOL	64

/* The kernel's mask of a task, from its status file @path. */
static int status_mask(const char *path, cpu_set_t *set)
{
	char line[512], *p, *end;
	long a, b;
	FILE *f;
	int ok = 0;

	CPU_ZERO(set);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Cpus_allowed_list:", 18))
			continue;
		p = line + 18;
		for (;;) {
			a = strtol(p, &end, 10);
			if (end == p)
				break;
			b = a;
			if (*end == '-')
				b = strtol(end + 1, &end, 10);
			for (; a <= b && a < CPU_SETSIZE; a++)
				CPU_SET(a, set);
			if (*end != ',')
				break;
			p = end + 1;
		}
		ok = 1;
	}
	fclose(f);
	return ok ? 0 : -1;
}

/* The kernel's mask of this process's main thread. */
static int kernel_mask(cpu_set_t *set)
{
	return status_mask("/proc/self/status", set);
}

static int min_seen = CPU_SETSIZE;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

static void *pool_thread(void *arg)
{
	cpu_set_t set;
	int n;

	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set))
		return arg;
	n = CPU_COUNT(&set);
	pthread_mutex_lock(&seen_lock);
	if (n < min_seen)
		min_seen = n;
	pthread_mutex_unlock(&seen_lock);
	return arg;
}

static int run_pool(void)
{
	pthread_t t[MAX_POOL];
	cpu_set_t set;
	int n, i;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("sched_getaffinity");
		return 1;
	}
	n = CPU_COUNT(&set);
	if (n > MAX_POOL)
		n = MAX_POOL;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, pool_thread, NULL))
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("pool %d threads, fewest %d\n", n, min_seen);
	return 0;
}

static int churn_short, churn_want, churn_held;
static char churn_ex[64];

/* @arg non-NULL: also read the kernel's mask of the thread right after */
static void *churn_thread(void *arg)
{
	cpu_set_t set, real;
	int n;

	/* a failed read counts as one of no CPU */
	n = pthread_getaffinity_np(pthread_self(), sizeof(set), &set) ? 0 :
	    CPU_COUNT(&set);
	pthread_mutex_lock(&seen_lock);
	if (n < min_seen)
		min_seen = n;
	if (n < churn_want && !churn_short++)
		snprintf(churn_ex, sizeof(churn_ex), " (first: tid %d read %d CPUs)",
			 gettid(), n);
	pthread_mutex_unlock(&seen_lock);
	if (arg && !status_mask("/proc/thread-self/status", &real) &&
	    CPU_COUNT(&real) < churn_want)
		__atomic_add_fetch(&churn_held, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int run_churn(int cycles)
{
	long threads = 0, changes = 0, narrowed = 0;
	cpu_set_t set, last, real;
	long long end;
	pthread_t t;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set) || kernel_mask(&last)) {
		perror("sched_getaffinity");
		return 1;
	}
	churn_want = CPU_COUNT(&set);
	for (c = 0; c < cycles; c++) {
		end = ns_now() + 200 * 1000000LL;
		while (ns_now() < end) {
			if (pthread_create(&t, NULL, churn_thread,
					   threads % 16 ? NULL : &t))
				return 1;
			pthread_join(t, NULL);
			if (++threads % 16 || kernel_mask(&real))
				continue;
			changes += !CPU_EQUAL(&real, &last) &&
				   CPU_COUNT(&last) < churn_want;
			narrowed += CPU_COUNT(&real) < churn_want;
			last = real;
		}
		sleep_until(ns_now() + 300 * 1000000LL);
	}
	printf("churn %ld threads, fewest %d, short %d, masks %ld, narrowed %ld, held %d%s\n",
	       threads, min_seen, churn_short, changes, narrowed, churn_held,
	       churn_ex);
	return 0;
}

/* A burst of about @us microseconds of work, then a pause of @pause_ms. */
static void burst(long us, long pause_ms)
{
	long long end = ns_now() + us * 1000LL;

	while (ns_now() < end)
		;
	sleep_until(ns_now() + pause_ms * 1000000LL);
}

static int bind_lost;
static pthread_mutex_t bind_lock = PTHREAD_MUTEX_INITIALIZER;

static void *bind_thread(void *arg)
{
	int cpu = (int)(long)arg, i;
	cpu_set_t want, real;

	if (pin_cpu(cpu)) {
		perror("sched_setaffinity");
		return arg;
	}
	CPU_ZERO(&want);
	CPU_SET(cpu, &want);
	for (i = 0; i < 40; i++)
		burst(200, 5);
	if (status_mask("/proc/thread-self/status", &real) ||
	    !CPU_EQUAL(&want, &real)) {
		pthread_mutex_lock(&bind_lock);
		bind_lost++;
		pthread_mutex_unlock(&bind_lock);
	}
	return NULL;
}

static int run_bind(int rounds)
{
	int cpus[MAX_POOL], n = 0, i, r, narrowed = 0;
	pthread_t t[MAX_POOL];
	cpu_set_t set, real;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("sched_getaffinity");
		return 1;
	}
	for (i = 0; i < CPU_SETSIZE && n < MAX_POOL; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	for (i = 0; i < 500 && !narrowed; i++) {
		burst(2000, 18);
		narrowed = !kernel_mask(&real) && CPU_COUNT(&real) < n;
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < n; i++)
			if (pthread_create(&t[i], NULL, bind_thread,
					   (void *)(long)cpus[i]))
				return 1;
		for (i = 0; i < n; i++)
			pthread_join(t[i], NULL);
	}
	printf("bind %d threads, narrowed %d, lost %d\n", rounds * n,
	       narrowed, bind_lost);
	return 0;
}

/* SIGTERM is blocked and taken between two reads, never in one. */
static sigset_t term;

static void block_term(void)
{
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
}

/* Whether a SIGTERM came (it is then taken). */
static int term_came(void)
{
	sigset_t pend;
	int sig;

	return sigpending(&pend) == 0 && sigismember(&pend, SIGTERM) &&
	       sigwait(&term, &sig) == 0;
}

/*
 * Busy in sched_getaffinity(), for rmmod while calls are in flight;
 * SIGTERM is looked for every 1024 calls.
 */
static int run_spin(void)
{
	cpu_set_t set;
	long calls = 0;

	block_term();
	for (;;) {
		if (sched_getaffinity(0, sizeof(set), &set)) {
			perror("sched_getaffinity");
			return 1;
		}
		if (++calls % 1024 == 0 && term_came())
			break;
	}
	printf("spin %ld calls\n", calls);
	return 0;
}

int main(int argc, char **argv)
{
	long reads = 0, narrowed = 0;
	int fewest = CPU_SETSIZE, most = 0, period, writeback, n;
	struct timespec pause;
	cpu_set_t got, real;

	if (argc == 2 && !strcmp(argv[1], "pool"))
		return run_pool();
	if (argc == 2 && !strcmp(argv[1], "spin"))
		return run_spin();
	if (argc == 3 && !strcmp(argv[1], "bind") && atoi(argv[2]) > 0)
		return run_bind(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "churn") && atoi(argv[2]) > 0)
		return run_churn(atoi(argv[2]));
	if (argc != 3) {
		fprintf(stderr, "usage: maskback PERIOD_MS WRITEBACK | %s\n",
			"maskback pool | spin | bind ROUNDS | churn CYCLES");
		return 2;
	}
	period = atoi(argv[1]);
	writeback = atoi(argv[2]);
	pause.tv_sec = period / 1000;
	pause.tv_nsec = (period % 1000) * 1000000L;
	block_term();
	for (;;) {
		if (sched_getaffinity(0, sizeof(got), &got)) {
			perror("sched_getaffinity");
			return 1;
		}
		if (kernel_mask(&real)) {
			fprintf(stderr, "maskback: no Cpus_allowed_list\n");
			return 1;
		}
		n = CPU_COUNT(&got);
		reads++;
		fewest = n < fewest ? n : fewest;
		most = n > most ? n : most;
		narrowed += !CPU_EQUAL(&got, &real);
		if (writeback && sched_setaffinity(0, sizeof(got), &got)) {
			perror("sched_setaffinity");
			return 1;
		}
		if (term_came())
			break;
		if (period)
			nanosleep(&pause, NULL);
	}
	printf("read %ld reads, fewest %d, most %d, narrowed %ld\n", reads,
	       fewest, most, narrowed);
	return 0;
}
