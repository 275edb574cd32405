// SPDX-License-Identifier: GPL-2.0
/*
 * sleepers: a population of COUNT threads that stay alive and almost
 * always asleep, so that hmpgov's task table holds them while another
 * workload is measured. Every thread does a little work, then blocks:
 *
 *   PERIOD_MS > 0  it wakes every PERIOD_MS (phases spread evenly over
 *                  the period), does the work again and sleeps;
 *   PERIOD_MS = 0  it wakes only when the process gets SIGUSR1 (a
 *                  "poke"): every thread then runs once, so that a module
 *                  loaded since is accounting all of them, and the
 *                  population is quiet again.
 *
 * Prints "ready N" once all N threads have run, and "woke G N" when all
 * of them have run after poke number G. Ends on SIGTERM or SIGINT.
 *
 * usage: sleepers COUNT PERIOD_MS
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"

#define STACK_BYTES	(256 * 1024)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t poke_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static unsigned int generation;	/* pokes so far */
static long acked;		/* threads that ran since the last poke */
static long count;
static long long period_ns, start_ns;
static unsigned long sink;

static void work(void)
{
	unsigned long i;

	for (i = 0; i < 2000; i++)
		__atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

static void ack(void)
{
	if (++acked == count)
		pthread_cond_signal(&done_cv);
}

static void *sleeper(void *arg)
{
	long i = (long)arg;
	unsigned int seen = 0;
	long long next;

	work();
	pthread_mutex_lock(&lock);
	ack();
	if (period_ns) {
		pthread_mutex_unlock(&lock);
		next = start_ns + period_ns + period_ns * i / count;
		for (;;) {
			sleep_until(next);
			work();
			next += period_ns;
		}
	}
	for (;;) {
		while (generation == seen)
			pthread_cond_wait(&poke_cv, &lock);
		seen = generation;
		pthread_mutex_unlock(&lock);
		work();
		pthread_mutex_lock(&lock);
		ack();
	}
	return NULL;
}

static void wait_all(void)
{
	while (acked < count)
		pthread_cond_wait(&done_cv, &lock);
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t t;
	sigset_t set;
	long i;
	int sig;

	if (argc != 3) {
		fprintf(stderr, "usage: sleepers COUNT PERIOD_MS\n");
		return 2;
	}
	count = atol(argv[1]);
	period_ns = atol(argv[2]) * 1000000LL;
	if (count < 1 || period_ns < 0)
		return 2;
	/* Only the main thread takes the signals: block them everywhere. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_BYTES);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	start_ns = ns_now();
	for (i = 0; i < count; i++) {
		if (pthread_create(&t, &attr, sleeper, (void *)i)) {
			fprintf(stderr, "sleepers: thread %ld not created\n", i);
			return 1;
		}
	}
	pthread_mutex_lock(&lock);
	wait_all();
	pthread_mutex_unlock(&lock);
	printf("ready %ld\n", count);
	fflush(stdout);
	for (;;) {
		if (sigwait(&set, &sig))
			return 1;
		if (sig != SIGUSR1)
			return 0;
		if (period_ns)
			continue;
		pthread_mutex_lock(&lock);
		acked = 0;
		generation++;
		pthread_cond_broadcast(&poke_cv);
		wait_all();
		pthread_mutex_unlock(&lock);
		printf("woke %u %ld\n", generation, count);
		fflush(stdout);
	}
}
