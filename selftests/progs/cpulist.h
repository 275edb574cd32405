/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpulist.h: "0 1"-style CPU lists given on the command line of the
 * trace-reading test programs (steps, rampstat).
 */
#ifndef HMPGOV_PROGS_CPULIST_H
#define HMPGOV_PROGS_CPULIST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 if @cpu is in the space-separated @list */
static inline int in_list(const char *list, int cpu)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (atoi(tok) == cpu)
			return 1;
	return 0;
}

#endif /* HMPGOV_PROGS_CPULIST_H */
