/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of tracked tasks: preallocated at load, used from tracepoint
 * probes without allocation, sleeping or unbounded loops.
 */
#ifndef HMPGOV_TASK_TABLE_H
#define HMPGOV_TASK_TABLE_H

#include <linux/sched.h>
#include <linux/types.h>

#include "hmpgov/classify.h"
#include "hmpgov/util_signal.h"

/* Slots a lookup may visit: bounds every probe's work. */
#define HMPGOV_TABLE_PROBES	16

/*
 * One tracked task, 64 bytes: a slot is one cache line (the table is
 * page-aligned). Written only by the probes that account the task, which
 * its runqueue lock serialises; readers in process context use the
 * sequence counter to get a consistent copy. The task's name is not kept:
 * readers take it from the task.
 */
struct hmpgov_task {
	struct task_struct *task;	/* key; see task_table.c for markers */
	u32 seq;			/* odd while being written */
	pid_t pid;
	s32 cpu;			/* CPU it last ran on */
	u32 class;			/* enum hmpgov_class */
	pid_t parent;			/* the task that forked it, or 0 */
	u64 class_since;		/* when it took that class, ns */
	struct hmpgov_util util;
};

#define HMPGOV_SLOT_BYTES	64

int hmpgov_table_init(unsigned int max_tasks);
void hmpgov_table_free(void);
unsigned int hmpgov_table_size(void);
unsigned int hmpgov_table_tracked(void);
unsigned long hmpgov_table_dropped(void);

struct hmpgov_task *hmpgov_table_get(struct task_struct *p, u64 now,
				     pid_t parent, bool *fresh);
unsigned int hmpgov_table_index(const struct hmpgov_task *e);
void hmpgov_table_remove(struct task_struct *p);

void hmpgov_task_write_begin(struct hmpgov_task *e);
void hmpgov_task_write_end(struct hmpgov_task *e);
bool hmpgov_table_read(unsigned int idx, struct hmpgov_task *copy);
struct task_struct *hmpgov_table_task(const struct hmpgov_task *copy);

/* module/tracking.c */
u32 hmpgov_task_util(const struct hmpgov_task *t, u64 now);
u32 hmpgov_task_avg(const struct hmpgov_task *t, u64 now);

#endif /* HMPGOV_TASK_TABLE_H */
