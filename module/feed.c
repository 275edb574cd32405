// SPDX-License-Identifier: GPL-2.0
/*
 * The feed from the probes to the steering worker.
 *
 * A probe that sees a task appear or change class pushes the task's slot
 * number into its CPU's ring and raises that CPU's irq_work, whose
 * handler queues the worker for the next jiffy (at most a pass a jiffy in
 * a fork storm, steer.c): a probe runs under the runqueue lock, where
 * waking a worker directly could deadlock, and irq_work_queue() is safe
 * in any context (schedutil uses it from the same place). Each ring has
 * one producer (its CPU, interrupts off while pushing) and one consumer
 * (the worker), so head and tail need only acquire/release ordering. A
 * full ring sets a flag and the worker rescans everything it manages.
 *
 * Beside the ring, a bit per slot says that its task ran since the worker
 * last looked: the worker refreshes and places only the tasks that ran
 * lately, so tasks asleep for long cost it nothing. The bit is tested
 * before it is set, so a task running on costs a read, not an atomic.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "hmpgov/steer.h"

#define FEED_LEN	256	/* power of two */

struct feed {
	u32 head;		/* written by the producer */
	u32 tail;		/* written by the consumer */
	u32 slot[FEED_LEN];
	struct irq_work kick;
};

static DEFINE_PER_CPU(struct feed, feeds);
static atomic_t overflowed;
static unsigned long *ran;	/* a bit per slot of the task table */
static unsigned int nr_slots;

static void kick_fn(struct irq_work *w)
{
	hmpgov_steer_kick_feed();
}

int hmpgov_feed_init(unsigned int slots)
{
	int cpu;

	ran = bitmap_zalloc(slots, GFP_KERNEL);
	if (!ran)
		return -ENOMEM;
	nr_slots = slots;
	for_each_possible_cpu(cpu) {
		struct feed *f = per_cpu_ptr(&feeds, cpu);

		f->head = 0;
		f->tail = 0;
		init_irq_work(&f->kick, kick_fn);
	}
	atomic_set(&overflowed, 0);
	return 0;
}

/* Probe context: preemption is off; interrupts may be on (fork). */
void hmpgov_feed_push(unsigned int slot)
{
	unsigned long flags;
	struct feed *f;
	u32 head;

	local_irq_save(flags);
	f = this_cpu_ptr(&feeds);
	head = f->head;
	/* pairs with the consumer's release of tail: its reads are done */
	if (head - smp_load_acquire(&f->tail) >= FEED_LEN) {
		atomic_set(&overflowed, 1);
	} else {
		f->slot[head & (FEED_LEN - 1)] = slot;
		/* the slot number is written before the consumer sees head */
		smp_store_release(&f->head, head + 1);
	}
	irq_work_queue(&f->kick);
	local_irq_restore(flags);
}

/* After the probes are detached and the worker is stopped. */
void hmpgov_feed_exit(void)
{
	bitmap_free(ran);
	ran = NULL;
}

/* Probe context: the task in @slot ran. */
void hmpgov_feed_ran(unsigned int slot)
{
	if (slot < nr_slots && !test_bit(slot, ran))
		set_bit(slot, ran);
}

/* After the probes are detached: wait for kicks in flight. */
void hmpgov_feed_sync(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(&feeds, cpu)->kick);
}

/* Worker: call @fn for each slot whose task ran since the last call. */
void hmpgov_feed_drain_ran(void (*fn)(unsigned int slot))
{
	unsigned int word, bit;
	unsigned long bits;

	for (word = 0; word < BITS_TO_LONGS(nr_slots); word++) {
		if (!READ_ONCE(ran[word]))
			continue;
		bits = xchg(&ran[word], 0);
		for_each_set_bit(bit, &bits, BITS_PER_LONG)
			fn(word * BITS_PER_LONG + bit);
	}
}

unsigned int hmpgov_feed_drain(void (*fn)(unsigned int slot))
{
	unsigned int n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct feed *f = per_cpu_ptr(&feeds, cpu);
		/* pairs with the producer's release: the slots are written */
		u32 head = smp_load_acquire(&f->head);
		u32 tail = f->tail;

		while (tail != head) {
			if (fn)
				fn(f->slot[tail & (FEED_LEN - 1)]);
			tail++;
			n++;
			/* the slot is read before the producer may reuse it */
			smp_store_release(&f->tail, tail);
		}
	}
	return n;
}

/* True once after the feed lost entries. */
bool hmpgov_feed_overflowed(void)
{
	return atomic_xchg(&overflowed, 0);
}
