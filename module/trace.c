// SPDX-License-Identifier: GPL-2.0
/* The definitions of hmpgov's trace events (include/hmpgov/trace_events.h). */
#define CREATE_TRACE_POINTS
#include "hmpgov/trace_events.h"
