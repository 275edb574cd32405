// SPDX-License-Identifier: GPL-2.0
/*
 * threads: create COUNT short-lived threads, BATCH at a time, each doing
 * a little work and exiting; or, with "procs", fork COUNT processes that
 * sleep SECONDS and exit (to fill a small task table).
 *
 * usage: threads COUNT BATCH | threads procs COUNT SECONDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long sink;

static void *work(void *arg)
{
	unsigned long i;

	for (i = 0; i < 20000; i++)
		__atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
	return arg;
}

static int procs(int count, int seconds)
{
	int i;

	for (i = 0; i < count; i++) {
		pid_t p = fork();

		if (p == 0) {
			work(NULL);
			sleep(seconds);
			_exit(0);
		}
		if (p < 0)
			return 1;
	}
	while (wait(NULL) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[256];
	int count, batch, done = 0, i, n;

	if (argc == 4 && !strcmp(argv[1], "procs"))
		return procs(atoi(argv[2]), atoi(argv[3]));
	if (argc != 3) {
		fprintf(stderr, "usage: threads COUNT BATCH | threads procs COUNT SECONDS\n");
		return 2;
	}
	count = atoi(argv[1]);
	batch = atoi(argv[2]);
	if (batch < 1 || batch > 256)
		return 2;
	while (done < count) {
		n = count - done < batch ? count - done : batch;
		for (i = 0; i < n; i++)
			if (pthread_create(&t[i], NULL, work, NULL))
				return 1;
		for (i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		done += n;
	}
	printf("threads=%d\n", done);
	return 0;
}
