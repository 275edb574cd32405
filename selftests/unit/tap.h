/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP 13 producer for the host unit tests. Each test binary
 * prints "ok N - name" / "not ok N - name" and a closing plan line.
 */
#ifndef HMPGOV_UNIT_TAP_H
#define HMPGOV_UNIT_TAP_H

#include <stdarg.h>
#include <stdio.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int tap_count;
static int tap_failed;

static inline void
tap_check(int ok, const char *cond, const char *file, int line,
	  const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!ok)
		tap_failed++;
	printf("%sok %d - ", ok ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		printf("# failed: %s (%s:%d)\n", cond, file, line);
}

#define TAP_CHECK(cond, ...) \
	tap_check(!!(cond), #cond, __FILE__, __LINE__, __VA_ARGS__)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

/* A deterministic xorshift generator for property tests: 0 .. @below - 1. */
static unsigned long long tap_rand_state = 88172645463325252ULL;

static inline unsigned int tap_rand(unsigned int below)
{
	tap_rand_state ^= tap_rand_state << 13;
	tap_rand_state ^= tap_rand_state >> 7;
	tap_rand_state ^= tap_rand_state << 17;
	return (unsigned int)(tap_rand_state % below);
}

#endif
