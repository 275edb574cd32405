// SPDX-License-Identifier: GPL-2.0
/*
 * The table of tracked tasks.
 *
 * A power-of-two array of twice max_tasks= slots, allocated once at
 * load, keyed by task_struct pointer with open addressing: a task's slots
 * are hash, hash + 1, ... up to HMPGOV_TABLE_PROBES of them, so every
 * lookup is O(1) whatever the number of tasks. With max_tasks tasks the
 * table is at most half full, so that a task rarely finds no slot within
 * its probes. Slot keys move
 *
 *   FREE -> CLAIMING -> task -> DEAD -> CLAIMING -> another task ...
 *
 * by cmpxchg, so probes on different CPUs never take a lock. A slot never
 * returns to FREE, hence a lookup may stop at the first FREE slot. A task
 * that finds no slot within its probes is not tracked and is counted in
 * "dropped", once: it is noted in a small direct-mapped list of dropped
 * tasks, with the number of slots released so far. Its next events find
 * it there and skip the walk, until a slot is released (then it looks
 * again, without being counted again). A task evicted from the list by
 * another one that hashes alike is counted again if it drops again. A
 * task that saw room but lost it twice to other CPUs' claims is neither
 * noted nor counted: its next event looks again.
 *
 * A task_struct is not freed before its last sched_switch (prev_state
 * TASK_DEAD), where hmpgov removes it, nor before sched_process_free,
 * where it is removed again if still there: a key is never a freed
 * pointer.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "hmpgov/task_table.h"

#define SLOT_FREE	((struct task_struct *)0)
#define SLOT_DEAD	((struct task_struct *)1)
#define SLOT_CLAIMING	((struct task_struct *)2)

static struct hmpgov_task *slots __read_mostly;
static unsigned int table_bits __read_mostly;
/* tracked: their difference; away from the line every probe reads */
static atomic_long_t claimed ____cacheline_aligned_in_smp;
static atomic_long_t released ____cacheline_aligned_in_smp;
static DEFINE_PER_CPU(unsigned long, dropped);

#define DROPPED_BITS	8

/*
 * A dropped task, and "released" when it found no slot. The two words may
 * be torn by two tasks that drop at once on two CPUs: at worst a task is
 * counted twice or waits for the next release to look again.
 */
struct dropped_note {
	struct task_struct *task;
	long released;
};

static struct dropped_note dropped_notes[1 << DROPPED_BITS];

/*
 * @p's slot hash (hash_ptr(p, table_bits): the top bits of one product)
 * and its note: the hash bits just below those of its slot, so that
 * tasks crowded in one part of the table do not share notes. One hash.
 */
static unsigned long hash_of(struct task_struct *p,
			     struct dropped_note **note)
{
	unsigned long h = hash_ptr(p, table_bits + DROPPED_BITS);

	*note = &dropped_notes[h & (BIT(DROPPED_BITS) - 1)];
	return h >> DROPPED_BITS;
}

static bool is_task(struct task_struct *t)
{
	return t != SLOT_FREE && t != SLOT_DEAD && t != SLOT_CLAIMING;
}

int hmpgov_table_init(unsigned int max_tasks)
{
	int cpu;

	BUILD_BUG_ON(sizeof(struct hmpgov_task) != HMPGOV_SLOT_BYTES);
	table_bits = ilog2(roundup_pow_of_two(max_tasks)) + 1;
	slots = vzalloc(array_size(sizeof(*slots), 1U << table_bits));
	if (!slots)
		return -ENOMEM;
	atomic_long_set(&claimed, 0);
	atomic_long_set(&released, 0);
	memset(dropped_notes, 0, sizeof(dropped_notes));
	for_each_possible_cpu(cpu)
		per_cpu(dropped, cpu) = 0;
	return 0;
}

void hmpgov_table_free(void)
{
	vfree(slots);
	slots = NULL;
}

unsigned int hmpgov_table_size(void)
{
	return 1U << table_bits;
}

unsigned int hmpgov_table_tracked(void)
{
	long rel = atomic_long_read(&released), got;

	smp_rmb();	/* a slot's claim is counted before its key is seen */
	got = atomic_long_read(&claimed);
	/* claims between the two reads count, their releases may not */
	return clamp(got - rel, 0L, (long)hmpgov_table_size());
}

unsigned long hmpgov_table_dropped(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(dropped, cpu));
	return sum;
}

static struct hmpgov_task *slot(unsigned long hash, unsigned int i)
{
	return &slots[(hash + i) & ((1UL << table_bits) - 1)];
}

void hmpgov_task_write_begin(struct hmpgov_task *e)
{
	WRITE_ONCE(e->seq, e->seq + 1);
	smp_wmb();	/* seq odd before the data changes */
}

void hmpgov_task_write_end(struct hmpgov_task *e)
{
	smp_wmb();	/* data complete before seq is even again */
	WRITE_ONCE(e->seq, e->seq + 1);
}

static struct hmpgov_task *claim(struct hmpgov_task *e, struct task_struct *old,
				 struct task_struct *p, u64 now, pid_t parent)
{
	if (cmpxchg(&e->task, old, SLOT_CLAIMING) != old)
		return NULL;
	hmpgov_task_write_begin(e);
	e->pid = p->pid;
	e->cpu = task_cpu(p);
	hmpgov_util_init(&e->util, now);
	e->class = HMPGOV_CLASS_MEDIUM;	/* not judged yet: keeps its mask */
	e->parent = parent;
	e->class_since = now;	/* also when it began to be tracked */
	hmpgov_task_write_end(e);
	/* counted before its release can be */
	atomic_long_inc(&claimed);
	/* publish the key only after the slot is initialised */
	smp_store_release(&e->task, p);
	return e;
}

unsigned int hmpgov_table_index(const struct hmpgov_task *e)
{
	return e - slots;
}

/*
 * The slot of @p among its probes, or NULL; then *@space is the first
 * slot seen free or released (NULL: none), *@space_key its key.
 */
static struct hmpgov_task *find(struct task_struct *p, unsigned long hash,
				struct hmpgov_task **space,
				struct task_struct **space_key)
{
	struct hmpgov_task *e;
	struct task_struct *t;
	unsigned int i;

	*space = NULL;
	for (i = 0; i < HMPGOV_TABLE_PROBES; i++) {
		e = slot(hash, i);
		/* pairs with the release in claim() */
		t = smp_load_acquire(&e->task);
		if (t == p)
			return e;
		if (!*space && (t == SLOT_FREE || t == SLOT_DEAD)) {
			*space = e;
			*space_key = t;
		}
		if (t == SLOT_FREE)
			break;
	}
	return NULL;
}

/**
 * hmpgov_table_get() - the slot of @p, claimed now if it has none
 * @p:      the task
 * @now:    its first window starts here if it is new
 * @parent: if it is new, the task that forked it (0: not known)
 * @fresh:  set to whether the slot was claimed by this call
 *
 * Probe context; at most three walks of HMPGOV_TABLE_PROBES slots. Return:
 * the slot, or NULL (counted in dropped the first time).
 */
struct hmpgov_task *hmpgov_table_get(struct task_struct *p, u64 now,
				     pid_t parent, bool *fresh)
{
	struct dropped_note *note;
	unsigned long hash = hash_of(p, &note);
	struct task_struct *space_key = SLOT_FREE;
	struct hmpgov_task *e, *space;
	unsigned int claims = 0;
	bool have_rel = false;
	long rel = 0;

	*fresh = false;
	/*
	 * "released" is read only by a task that dropped, and before a walk
	 * (acquire): a release it counts freed a slot that walk sees.
	 */
	if (READ_ONCE(note->task) == p) {
		rel = atomic_long_read_acquire(&released);
		if (READ_ONCE(note->released) == rel)
			return NULL;	/* no slot released since it dropped */
		have_rel = true;
	}
	for (;;) {
		e = find(p, hash, &space, &space_key);
		if (!e && space) {
			e = claim(space, space_key, p, now, parent);
			*fresh = !!e;
		}
		if (e) {
			/* a task with a slot keeps it until it exits */
			if (have_rel && READ_ONCE(note->task) == p)
				cmpxchg(&note->task, p, NULL);
			return e;
		}
		if (space) {
			/* another CPU took that slot first */
			if (++claims == 2)
				return NULL;	/* not full: next time */
			continue;
		}
		if (have_rel)
			break;
		/* no room: one more look after reading the count to note */
		rel = atomic_long_read_acquire(&released);
		have_rel = true;
	}
	if (READ_ONCE(note->task) != p) {
		this_cpu_inc(dropped);
		WRITE_ONCE(note->task, p);
	}
	WRITE_ONCE(note->released, rel);
	return NULL;
}

/*
 * Forget @p; safe to call for a task that is not tracked. Every slot of
 * @p goes: a child that runs on another CPU while the fork probe is
 * claiming its slot can claim a second one. So does its note in the
 * dropped list, so that a task later allocated at the same address is
 * not taken for it.
 */
void hmpgov_table_remove(struct task_struct *p)
{
	struct dropped_note *note;
	unsigned long hash = hash_of(p, &note);
	struct hmpgov_task *e;
	struct task_struct *t;
	unsigned int i;

	if (READ_ONCE(note->task) == p)
		cmpxchg(&note->task, p, NULL);
	for (i = 0; i < HMPGOV_TABLE_PROBES; i++) {
		e = slot(hash, i);
		t = READ_ONCE(e->task);
		if (t == SLOT_FREE)
			return;
		if (t == p && cmpxchg(&e->task, p, SLOT_DEAD) == p)
			atomic_long_inc(&released);
	}
}

/**
 * hmpgov_table_read() - a consistent copy of slot @idx
 * @idx:  0 .. hmpgov_table_size() - 1
 * @copy: receives the slot
 *
 * Process context. Return: true if the slot holds a task and the copy is
 * consistent (a slot being rewritten all the time is skipped).
 */
bool hmpgov_table_read(unsigned int idx, struct hmpgov_task *copy)
{
	struct hmpgov_task *e = &slots[idx];
	unsigned int tries;
	u32 seq;

	for (tries = 0; tries < 16; tries++) {
		seq = READ_ONCE(e->seq);
		smp_rmb();	/* seq before data */
		/*
		 * Races with the probes' plain stores by design: the seq
		 * check below throws a torn copy away (KCSAN is told so).
		 */
		data_race(memcpy(copy, e, sizeof(*copy)));
		smp_rmb();	/* data before seq again */
		if (!(seq & 1) && seq == READ_ONCE(e->seq))
			return is_task(copy->task);
		cpu_relax();
	}
	return false;
}

/**
 * hmpgov_table_task() - the task of a slot's copy, if it is still alive
 * @copy: from hmpgov_table_read()
 *
 * The table holds global pids: the task with @copy's pid in the initial
 * namespace, if it is the one the slot was for (whoever asks, from
 * whatever namespace). Call under rcu_read_lock(). Return: the task, or
 * NULL if it has gone.
 */
struct task_struct *hmpgov_table_task(const struct hmpgov_task *copy)
{
	struct task_struct *p;

	p = pid_task(find_pid_ns(copy->pid, &init_pid_ns), PIDTYPE_PID);
	return p == copy->task ? p : NULL;
}
