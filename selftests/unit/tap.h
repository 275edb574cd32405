/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP 13 producer for the host unit tests. Each test binary
 * prints "ok N - name" / "not ok N - name" and a closing plan line.
 */
#ifndef HMPGOV_UNIT_TAP_H
#define HMPGOV_UNIT_TAP_H

#include <stdio.h>

static int tap_count;
static int tap_failed;

#define TAP_CHECK(cond, ...)                                              \
	do {                                                              \
		tap_count++;                                              \
		if (!(cond))                                              \
			tap_failed++;                                     \
		printf("%sok %d - ", (cond) ? "" : "not ", tap_count);    \
		printf(__VA_ARGS__);                                      \
		printf("\n");                                             \
		if (!(cond))                                              \
			printf("# failed: %s (%s:%d)\n", #cond, __FILE__, \
			       __LINE__);                                 \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
