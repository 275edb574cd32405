// SPDX-License-Identifier: GPL-2.0
/*
 * clamps: read and set tasks' uclamp requests with the sched_getattr(2)
 * and sched_setattr(2) system calls (the kernel's own report of them).
 *
 * usage: clamps get PID...          prints "PID util_min util_max nice policy"
 *        clamps set PID MIN MAX     sets both sides, keeping policy and
 *                                   nice; a side of -1 returns to the
 *                                   kernel's default
 * exit: 0, or 1 if a call failed (ENOSYS/EOPNOTSUPP: no uclamp)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* include/uapi/linux/sched/types.h, the same in every kernel used here */
struct attr {
	unsigned int size, sched_policy;
	unsigned long long sched_flags;
	int sched_nice;
	unsigned int sched_priority;
	unsigned long long sched_runtime, sched_deadline, sched_period;
	unsigned int sched_util_min, sched_util_max;
};

#define FLAG_KEEP_ALL		0x18
#define FLAG_UTIL_CLAMP_MIN	0x20
#define FLAG_UTIL_CLAMP_MAX	0x40

static int get(pid_t pid)
{
	struct attr a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, pid, &a, sizeof(a), 0)) {
		fprintf(stderr, "clamps: sched_getattr %d: %s\n", pid, strerror(errno));
		return 1;
	}
	printf("%d %u %u %d %u\n", pid, a.sched_util_min, a.sched_util_max,
	       a.sched_nice, a.sched_policy);
	return 0;
}

static int set(pid_t pid, int min, int max)
{
	struct attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_flags = FLAG_KEEP_ALL | FLAG_UTIL_CLAMP_MIN | FLAG_UTIL_CLAMP_MAX;
	a.sched_util_min = (unsigned int)min;
	a.sched_util_max = (unsigned int)max;
	if (syscall(SYS_sched_setattr, pid, &a, 0)) {
		fprintf(stderr, "clamps: sched_setattr %d %d %d: %s\n", pid, min,
			max, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc >= 3 && !strcmp(argv[1], "get")) {
		for (i = 2; i < argc; i++)
			status |= get(atoi(argv[i]));
		return status;
	}
	if (argc == 5 && !strcmp(argv[1], "set"))
		return set(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: clamps get PID... | clamps set PID MIN MAX\n");
	return 2;
}
