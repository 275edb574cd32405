// SPDX-License-Identifier: GPL-2.0
/*
 * Root-only read-outs of the load tracking, in debugfs (mode 0400):
 *
 *   /sys/kernel/debug/hmpgov/tasks  one line per tracked task:
 *                                   pid comm util avg cpu class reason
 *                                   (reason: the last decision's rule,
 *                                   "-" for a task hmpgov does not steer)
 *   /sys/kernel/debug/hmpgov/stats  "name value" lines: events seen per
 *                                   probe, tasks tracked and dropped,
 *                                   table size, signal constants
 *
 * Multi-line tables do not belong in sysfs; docs/load-tracking.md
 * describes both files.
 */
#include <linux/debugfs.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>

#include "hmpgov/hmpgov.h"
#include "hmpgov/steer.h"
#include "hmpgov/task_table.h"
#include "hmpgov/view.h"

static struct dentry *dir;

struct hmpgov_counters hmpgov_counters;

void hmpgov_count_hint(const struct hmpgov_backend_ops *b,
		       enum hmpgov_hint_result r, bool restoring)
{
	struct hmpgov_hint_counters *c = &hmpgov_counters.hint[b->id];

	if (r == HMPGOV_HINT_SET)
		atomic_long_inc(restoring ? &c->restored : &c->set);
	else if (r == HMPGOV_HINT_REBASED)
		atomic_long_inc(restoring ? &c->left : &c->rebased);
	else if (r == HMPGOV_HINT_ERROR)
		atomic_long_inc(&c->errors);
	else if (r == HMPGOV_HINT_DEFERRED)
		atomic_long_inc(&c->deferred);
}

/*
 * The tasks file is read a page at a time: position 0 is the header,
 * position n + 1 the table's slot n (the table may hold a million).
 */
struct tasks_iter {
	struct hmpgov_task t;
	unsigned int slot;
};

static void *tasks_at(struct seq_file *m, loff_t *pos)
{
	struct tasks_iter *it = m->private;
	loff_t slot;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	for (slot = *pos - 1; slot < hmpgov_table_size(); slot++) {
		if (hmpgov_table_read(slot, &it->t)) {
			it->slot = slot;
			*pos = slot + 1;
			return it;
		}
		if (!(slot % 1024))
			cond_resched();
	}
	*pos = slot + 1;
	return NULL;
}

static void *tasks_start(struct seq_file *m, loff_t *pos)
{
	return tasks_at(m, pos);
}

static void *tasks_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return tasks_at(m, pos);
}

static void tasks_stop(struct seq_file *m, void *v)
{
}

static int tasks_show(struct seq_file *m, void *v)
{
	struct tasks_iter *it = v;
	char comm[TASK_COMM_LEN];
	struct task_struct *p;
	u64 now;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "pid comm util avg cpu class reason\n");
		return 0;
	}
	/* the table keeps no names: the task's, if it is still there */
	strscpy(comm, "-", sizeof(comm));
	rcu_read_lock();
	p = hmpgov_table_task(&it->t);
	if (p)
		get_task_comm(comm, p);
	rcu_read_unlock();
	now = ktime_get_mono_fast_ns();
	seq_printf(m, "%d %s %u %u %d %s %s\n", it->t.pid, comm,
		   hmpgov_task_util(&it->t, now), hmpgov_task_avg(&it->t, now),
		   it->t.cpu, it->t.class < HMPGOV_NR_CLASSES ?
		   hmpgov_class_names[it->t.class] : "?",
		   hmpgov_steer_why(it->slot));
	return 0;
}

static const struct seq_operations tasks_sops = {
	.start = tasks_start,
	.next = tasks_next,
	.stop = tasks_stop,
	.show = tasks_show,
};

static int tasks_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &tasks_sops, sizeof(struct tasks_iter));
}

static const struct file_operations tasks_fops = {
	.owner = THIS_MODULE,
	.open = tasks_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

static u64 sum_events(size_t offset)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(u64 *)((char *)per_cpu_ptr(&hmpgov_events, cpu) + offset);
	return sum;
}

static int stats_show(struct seq_file *m, void *v)
{
	struct hmpgov_view_stats vs;
	struct hmpgov_steer_stats st;

#define EVENTS(field) \
	seq_printf(m, "events_" #field " %llu\n", \
		   sum_events(offsetof(struct hmpgov_events, field)))
	EVENTS(sched_switch);
	EVENTS(runtime);
	EVENTS(fork);
	EVENTS(free);
	EVENTS(frequency);
#undef EVENTS
	seq_printf(m, "tasks_tracked %u\n", hmpgov_table_tracked());
	seq_printf(m, "tasks_dropped %lu\n", hmpgov_table_dropped());
	seq_printf(m, "table_size %u\n", hmpgov_table_size());
	seq_printf(m, "entry_bytes %zu\n", sizeof(struct hmpgov_task));
	seq_printf(m, "window_ms %u\n", HMPGOV_WINDOW_NS / 1000000);
	seq_printf(m, "halflife_ms %u\n", READ_ONCE(hmpgov_settings.halflife_ns) / 1000000);
	hmpgov_steer_stats(&st);
#define COUNT(field) atomic_long_read(&hmpgov_counters.field)
	seq_printf(m, "mode %s\n", hmpgov_mode_names[READ_ONCE(hmpgov_settings.mode)]);
	seq_printf(m, "steer %s\n",
		   hmpgov_steer_names[READ_ONCE(hmpgov_settings.steer)]);
	seq_printf(m, "steer_requested %s\n",
		   hmpgov_steer_names[READ_ONCE(hmpgov_settings.requested_steer)]);
	seq_printf(m, "class_changes %lu\n", COUNT(class_changes));
	seq_printf(m, "managed %u\n", st.managed);
	seq_printf(m, "active %u\n", st.active);
	seq_printf(m, "adopted %lu\n", COUNT(adopted));
	seq_printf(m, "excluded %lu\n", COUNT(excluded));
	seq_printf(m, "narrower_than_parent %lu\n", COUNT(narrower_than_parent));
	seq_printf(m, "moves %lu\n", COUNT(hint[HMPGOV_AFFINITY].set));
	seq_printf(m, "restores %lu\n", COUNT(hint[HMPGOV_AFFINITY].restored));
	seq_printf(m, "restores_left %lu\n", COUNT(hint[HMPGOV_AFFINITY].left));
	seq_printf(m, "base_changes %lu\n", COUNT(hint[HMPGOV_AFFINITY].rebased));
	seq_printf(m, "move_errors %lu\n", COUNT(hint[HMPGOV_AFFINITY].errors));
	seq_printf(m, "moves_deferred %lu\n",
		   COUNT(hint[HMPGOV_AFFINITY].deferred));
	seq_printf(m, "pack_cpus %u\n", st.pack_cpus);
	seq_printf(m, "pack_overflow %d\n", st.pack_overflow);
	seq_printf(m, "uclamp_sets %lu\n", COUNT(hint[HMPGOV_UCLAMP].set));
	seq_printf(m, "uclamp_restores %lu\n", COUNT(hint[HMPGOV_UCLAMP].restored));
	seq_printf(m, "uclamp_restores_left %lu\n",
		   COUNT(hint[HMPGOV_UCLAMP].left));
	seq_printf(m, "uclamp_base_changes %lu\n",
		   COUNT(hint[HMPGOV_UCLAMP].rebased));
	seq_printf(m, "uclamp_errors %lu\n", COUNT(hint[HMPGOV_UCLAMP].errors));
#undef COUNT
	hmpgov_view_stats(&vs);
	seq_printf(m, "view %s\n", hmpgov_view_names[hmpgov_view_state()]);
	seq_printf(m, "view_tasks %u\n", vs.views);
	seq_printf(m, "view_kept %u\n", vs.kept);
	seq_printf(m, "view_shown %lu\n", vs.shown);
	seq_printf(m, "view_dropped %lu\n", vs.dropped);
	seq_printf(m, "view_missed %lu\n", vs.missed);
	seq_printf(m, "view_foreign %lu\n", vs.foreign);
	seq_printf(m, "view_foreign_missed %lu\n", vs.set_missed);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

void hmpgov_debugfs_init(void)
{
	/* debugfs is optional: without it the files are just missing. */
	dir = debugfs_create_dir("hmpgov", NULL);
	debugfs_create_file("tasks", 0400, dir, NULL, &tasks_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &stats_fops);
}

void hmpgov_debugfs_exit(void)
{
	debugfs_remove_recursive(dir);
	dir = NULL;
}
