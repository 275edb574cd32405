// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of the placement rules (module/placement.c). */
#include "hmpgov/placement.h"
#include "tap.h"

#include <string.h>

#define ALL(n)	((HMPGOV_CPU_BIT(n)) - 1)

static const u32 cap22[] = { 446, 446, 1024, 1024 };
static const int cl22[] = { 0, 0, 1, 1 };
static const struct hmpgov_machine bl22 = { 4, cap22, cl22, 2, ALL(4) };

static const u32 cap431[] = { 446, 446, 446, 446, 871, 871, 871, 1024 };
static const int cl431[] = { 0, 0, 0, 0, 1, 1, 1, 2 };
static const struct hmpgov_machine dq431 = { 8, cap431, cl431, 3, ALL(8) };

static unsigned int order[64];
static u64 now = 1000000000ULL;	/* the decisions' clock, ns */

static const struct hmpgov_policy affinity = {
	.backends = HMPGOV_BACKEND_AFFINITY,
	.pack_limit = HMPGOV_PACK_LIMIT,
};

static void task(struct hmpgov_placed *t, enum hmpgov_class c, u32 util,
		 int cpu, hmpgov_mask base)
{
	memset(t, 0, sizeof(*t));
	t->class = c;
	t->util = util;
	t->avg = util;
	t->cpu = cpu;
	t->base = base;
	t->mask_now = base;
}

static unsigned int place(const struct hmpgov_machine *m,
			  struct hmpgov_placed *t, unsigned int n,
			  struct hmpgov_packing *pack)
{
	return hmpgov_place(m, &affinity, t, n, pack, order, now);
}

static void test_small_pack(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[8];
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 4; i++)
		task(&t[i], HMPGOV_CLASS_SMALL, 45, 2 + i % 2, ALL(4));
	place(&bl22, t, 4, &pack);
	for (i = 0; i < 4; i++)
		ok &= t[i].want == HMPGOV_CPU_BIT(0);
	TAP_CHECK(ok && pack.nr == 1, "four 45-util small tasks pack on cpu0 alone");

	/* 446 * 650 / 1024 = 283 per packing CPU */
	for (i = 0; i < 4; i++)
		t[i].avg = 80;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.cpus == 1, "a sum of 320 does not open the second little CPU at once");
	now += HMPGOV_PACK_HOLD_NS / 2;
	for (i = 0; i < 4; i++)
		t[i].avg = 70;
	place(&bl22, t, 4, &pack);
	now += HMPGOV_PACK_HOLD_NS;
	for (i = 0; i < 4; i++)
		t[i].avg = 80;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.cpus == 1, "nor when it fell back under 283 within the hold time");
	now += HMPGOV_PACK_HOLD_NS;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.cpus == 3 && t[0].want == 1 && t[1].want == 2 && t[2].want == 1 &&
		  t[3].want == 2,
		  "320 for the whole hold time opens the second little CPU: two tasks on each");
	for (i = 0; i < 4; i++)
		t[i].avg = 60;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.cpus == 3, "240 keeps it (hysteresis: leaves under 3/4 of 283)");
	for (i = 0; i < 4; i++)
		t[i].avg = 50;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.cpus == 1, "200 closes it again");
	for (i = 0; i < 4; i++)
		t[i].avg = 400;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.cpus == 3, "never more packing CPUs than little ones");
	TAP_CHECK(pack.overflow && t[0].want == ALL(4),
		  "a sum of 1600 over both littles' 566 overflows: small tasks keep their base");
	for (i = 0; i < 4; i++)
		t[i].avg = 120;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.overflow && t[0].want == ALL(4),
		  "480 stays overflowing (hysteresis: ends under 3/4 of 566)");
	for (i = 0; i < 4; i++)
		t[i].avg = 100;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(!pack.overflow && t[0].want == 1 && t[1].want == 2,
		  "400 packs them on the two littles again, two on each");
}

static void test_quiet_little(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[2];

	task(&t[0], HMPGOV_CLASS_MEDIUM, 400, 0, ALL(4));
	task(&t[1], HMPGOV_CLASS_SMALL, 40, 3, ALL(4));
	place(&bl22, t, 2, &pack);
	TAP_CHECK(t[1].want == HMPGOV_CPU_BIT(1),
		  "packing avoids the little CPU a medium task runs on");
	TAP_CHECK(t[0].want == ALL(4), "a medium task keeps its base");
}

static void test_big(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[5];

	task(&t[0], HMPGOV_CLASS_BIG, 900, 0, ALL(4));
	task(&t[1], HMPGOV_CLASS_BIG, 1000, 1, ALL(4));
	task(&t[2], HMPGOV_CLASS_BIG, 800, 1, ALL(4));
	place(&bl22, t, 2, &pack);
	TAP_CHECK(t[0].want == 0xc && t[1].want == 0xc, "two big tasks go to the big cluster");
	place(&bl22, t, 3, &pack);
	TAP_CHECK(t[1].want == 0xc && t[0].want == 0xc && t[2].want == 0x3,
		  "a third big task, the lightest, keeps to the little CPUs (the big ones are full)");

	task(&t[0], HMPGOV_CLASS_BIG, 700, 0, ALL(8));
	task(&t[1], HMPGOV_CLASS_BIG, 1000, 0, ALL(8));
	task(&t[2], HMPGOV_CLASS_BIG, 800, 0, ALL(8));
	task(&t[3], HMPGOV_CLASS_BIG, 750, 0, ALL(8));
	task(&t[4], HMPGOV_CLASS_BIG, 720, 0, ALL(8));
	place(&dq431, t, 5, &pack);
	TAP_CHECK(t[1].want == 0x80, "three clusters: the heaviest takes the prime CPU");
	TAP_CHECK(t[2].want == 0x70 && t[3].want == 0x70 && t[4].want == 0x70,
		  "the next three take the mid cluster");
	TAP_CHECK(t[0].want == 0x0f, "the fifth keeps to the little cluster");
}

/*
 * Scale invariance: a task that fills a mid CPU reads 871, one that uses
 * 90 % of the prime CPU reads 922; the first wants more and gets the
 * prime CPU, and keeps it once both fill their CPUs.
 */
static void test_prime_demand(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[2];

	task(&t[0], HMPGOV_CLASS_BIG, 871, 4, ALL(8));	/* 100 % of a mid CPU */
	task(&t[1], HMPGOV_CLASS_BIG, 922, 7, ALL(8));	/* 90 % of the prime CPU */
	place(&dq431, t, 2, &pack);
	TAP_CHECK(t[0].want == 0x80 && t[1].want == 0x70,
		  "the task filling a mid CPU (871) takes the prime CPU from a 90 %% one there (922)");
	t[0].util = 1024;
	t[0].cpu = 7;
	t[1].util = 871;
	t[1].cpu = 5;
	place(&dq431, t, 2, &pack);
	TAP_CHECK(t[0].want == 0x80 && t[1].want == 0x70,
		  "once both fill their CPUs, the one on the prime CPU keeps it");
}

/*
 * Two packing CPUs: each small task gets one of them and keeps it; those
 * already on the first stay while it has room, the rest go to the least
 * loaded one; a task bound to one of them gets that one.
 */
static void test_pack_kept(void)
{
	struct hmpgov_packing pack = { .cpus = 0x3, .nr = 2 };
	struct hmpgov_placed t[4];
	unsigned int i, round;
	bool kept = true;

	for (i = 0; i < 3; i++) {
		task(&t[i], HMPGOV_CLASS_SMALL, 100, 0, ALL(4));
		t[i].mask_now = 0x1;
	}
	task(&t[3], HMPGOV_CLASS_SMALL, 20, 1, 0xa);	/* base {1, 3} */
	for (round = 0; round < 3; round++) {
		place(&bl22, t, 4, &pack);
		kept &= pack.cpus == 0x3 && t[0].mask == 0x1 && t[1].mask == 0x1 &&
			t[2].mask == 0x2 && t[3].mask == 0x2;
		for (i = 0; i < 4; i++)
			t[i].mask_now = t[i].mask;
	}
	TAP_CHECK(kept, "two packing CPUs: each small task on one, kept there pass after pass");
	t[0].avg = 10;
	t[1].avg = 10;
	t[2].avg = 100;
	place(&bl22, t, 3, &pack);
	TAP_CHECK(pack.cpus == 0x1 && t[2].mask == 0x1,
		  "when the set shrinks to one CPU they all go there");
}

/*
 * The last CPU to join the packing set leaves first, whatever its number:
 * the set began on cpu1 (cpu0 was busy), cpu0 joined later, and when the
 * set shrinks the small tasks stay on cpu1, where they had been all along.
 * Dropping the highest-numbered CPU moved every one of them instead, and
 * every open and close of the set did it again.
 */
static void test_pack_join_order(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[5];
	unsigned int i, round;
	bool stayed = true;

	task(&t[0], HMPGOV_CLASS_MEDIUM, 300, 0, ALL(4));	/* cpu0 busy */
	for (i = 1; i < 5; i++)
		task(&t[i], HMPGOV_CLASS_SMALL, 45, 1, ALL(4));
	place(&bl22, t, 5, &pack);
	TAP_CHECK(pack.cpus == 0x2, "with cpu0 busy the packing set begins on cpu1");
	for (round = 0; round < 3; round++) {
		for (i = 1; i < 5; i++) {
			t[i].avg = 80;		/* 320: over one CPU's 283 */
			t[i].mask_now = t[i].mask;
		}
		place(&bl22, t, 5, &pack);
		now += HMPGOV_PACK_HOLD_NS;
		place(&bl22, t, 5, &pack);
		stayed &= pack.cpus == 0x3;
		for (i = 1; i < 5; i++) {
			t[i].avg = 45;		/* 180: under 3/4 of 283 */
			t[i].mask_now = t[i].mask;
		}
		place(&bl22, t, 5, &pack);
		stayed &= pack.cpus == 0x2;
		for (i = 1; i < 5; i++)
			stayed &= t[i].mask == 0x2;
	}
	TAP_CHECK(stayed, "cpu0 joins and leaves three times; cpu1 and its small tasks stay");
	pack.cpus = 0x1;		/* a set given from outside: */
	t[0].cpu = 2;
	for (i = 1; i < 5; i++)
		t[i].cpu = 0;
	place(&bl22, t, 5, &pack);
	TAP_CHECK(pack.cpus == 0x1 && pack.joined[0] == 0 && t[1].mask == 0x1,
		  "a set changed from outside is taken as it is");
}

/*
 * Four busy tasks on 2 + 2 CPUs: the two on the big CPUs keep them while
 * the two on the little CPUs read within 1/16 of them, and those two keep
 * to the little CPUs, off the full big ones.
 */
static void test_overload(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[4];
	unsigned int i, round;
	bool stable = true;

	task(&t[0], HMPGOV_CLASS_BIG, 1000, 2, ALL(4));
	task(&t[1], HMPGOV_CLASS_BIG, 990, 3, ALL(4));
	task(&t[2], HMPGOV_CLASS_BIG, 446, 0, ALL(4));	/* filling cpu0: 1024 */
	task(&t[3], HMPGOV_CLASS_BIG, 440, 1, ALL(4));
	for (round = 0; round < 3; round++) {
		place(&bl22, t, 4, &pack);
		stable &= t[0].mask == 0xc && t[1].mask == 0xc &&
			  t[2].mask == 0x3 && t[3].mask == 0x3;
		for (i = 0; i < 4; i++)
			t[i].mask_now = t[i].mask;
		t[round & 1].util = 970 + round;	/* a dip: 970 * 17 / 16 > 1024 */
	}
	TAP_CHECK(stable && t[2].why == HMPGOV_WHY_BIG_NO_ROOM,
		  "overload: the tasks on the big CPUs keep them through dips, the others stay on the little CPUs");
	t[0].util = 900;	/* 900 * 17 / 16 < 1024 */
	place(&bl22, t, 4, &pack);
	TAP_CHECK(t[2].mask == 0xc && t[0].mask == 0x3,
		  "one that reads less than a task filling a little CPU, by more than its 1/16, gives its big CPU up");
	task(&t[3], HMPGOV_CLASS_BIG, 440, 1, 0xc);
	place(&bl22, t, 4, &pack);
	TAP_CHECK(t[3].mask == 0xc, "one whose base is the full big CPUs keeps its base");
}

/* Where confining the big tasks with no room would crowd them, it does not. */
static void test_no_room_crowd(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[5];
	unsigned int i;

	for (i = 0; i < 5; i++)
		task(&t[i], HMPGOV_CLASS_BIG, 1000 - i, 2 + i % 2, ALL(4));
	place(&bl22, t, 5, &pack);
	TAP_CHECK(t[0].mask == 0xc && t[1].mask == 0xc && t[2].mask == ALL(4) &&
		  t[3].mask == ALL(4) && t[4].mask == ALL(4),
		  "five busy tasks on 2 + 2: the three with no room keep their base (two little CPUs for three)");
	task(&t[0], HMPGOV_CLASS_BIG, 1000, 2, 0x7);
	task(&t[1], HMPGOV_CLASS_BIG, 990, 2, 0x7);
	task(&t[2], HMPGOV_CLASS_BIG, 980, 0, ALL(4));
	place(&bl22, t, 3, &pack);
	TAP_CHECK(t[0].mask == 0x4 && t[1].mask == 0x4 && t[2].mask == ALL(4),
		  "two big tasks bound to {0,1,2} share cpu2: the third keeps its base (cpu3 is free)");
	task(&t[0], HMPGOV_CLASS_BIG, 1000, 3, ALL(4));
	task(&t[1], HMPGOV_CLASS_BIG, 425, 0, ALL(4));	/* 425 * 16 */
	t[1].avg = 300;
	task(&t[2], HMPGOV_CLASS_BIG, 400, 2, ALL(4));	/* = 400 * 17 */
	place(&bl22, t, 3, &pack);
	TAP_CHECK(t[2].mask == 0xc && t[1].mask == 0x3,
		  "of two big tasks that rank the same, the one on the bigger CPU keeps it");
}

/*
 * A burst that fills a little CPU for a few tens of ms (its average still
 * low) does not take a big CPU from a long-running task that has 83 % of
 * one (test 82: a shell's clamps and awk took the busy task's util_min);
 * once its average shows it has filled the little CPU, it does.
 */
static void test_burst_waits(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[3];

	task(&t[0], HMPGOV_CLASS_BIG, 853, 3, ALL(4));	/* shares CPU 3 */
	task(&t[1], HMPGOV_CLASS_BIG, 915, 2, ALL(4));
	task(&t[2], HMPGOV_CLASS_BIG, 446, 1, ALL(4));	/* a burst: fills CPU 1 */
	t[2].avg = 137;
	place(&bl22, t, 3, &pack);
	TAP_CHECK(t[0].want == 0xc && t[1].want == 0xc && t[2].want == 0x3,
		  "a burst filling a little CPU leaves both big CPUs to the long-running tasks");
	t[2].avg = 440;
	place(&bl22, t, 3, &pack);
	TAP_CHECK(t[2].want == 0xc && t[1].want == 0xc && t[0].want == 0x3,
		  "once its average fills the little CPU it takes the place of the lighter one");
	t[2].avg = 423;
	place(&bl22, t, 3, &pack);
	TAP_CHECK(t[2].want == 0x3, "an average just under HMPGOV_FILLED counts what it reads");
}

static void test_base_wins(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[3];
	struct hmpgov_machine off = bl22;
	unsigned int i;
	bool subset = true;

	task(&t[0], HMPGOV_CLASS_SMALL, 40, 2, 0xc);
	task(&t[1], HMPGOV_CLASS_SMALL, 40, 2, 0x5);
	task(&t[2], HMPGOV_CLASS_BIG, 900, 2, 0x5);
	place(&bl22, t, 3, &pack);
	TAP_CHECK(t[0].want == 0xc, "a small task bound to big CPUs keeps its base");
	TAP_CHECK(t[1].want == 0x1, "a small task bound to {0,2} packs on cpu0");
	TAP_CHECK(t[2].want == 0x4, "a big task bound to {0,2} runs on cpu2");
	for (i = 0; i < 3; i++)
		subset &= (t[i].want & ~t[i].base) == 0 && t[i].want;
	TAP_CHECK(subset, "every mask is a non-empty subset of its base");

	off.online = ALL(4) & ~HMPGOV_CPU_BIT(0);
	place(&off, t, 3, &pack);
	TAP_CHECK(pack.cpus == 0x2, "the packing CPU going offline moves packing to cpu1");
	TAP_CHECK(t[1].want == 0x5,
		  "a small task whose base has no online packing CPU keeps its base");
}

/* The packing hold is 100 ms, the documented value (docs/placement.md). */
static void test_hold_exact(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[4];
	u64 t0 = 50ULL * 1000 * 1000 * 1000;
	unsigned int i;

	for (i = 0; i < 4; i++)
		task(&t[i], HMPGOV_CLASS_SMALL, 80, 0, ALL(4));	/* sum 320 > 283 */
	now = t0;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.nr == 1, "hold: a sum over the bound opens nothing at once");
	now = t0 + 99999999ULL;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.nr == 1, "hold: nor 99.999999 ms later");
	now = t0 + 100000000ULL;
	place(&bl22, t, 4, &pack);
	TAP_CHECK(pack.nr == 2, "hold: 100 ms later the second little CPU opens");
}

static bool is_why(const struct hmpgov_placed *t, enum hmpgov_why why)
{
	return t->why == why;
}

static void test_reasons(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[6];
	struct hmpgov_policy pol = affinity;
	unsigned int i, n;

	task(&t[0], HMPGOV_CLASS_SMALL, 40, 0, ALL(4));
	task(&t[1], HMPGOV_CLASS_SMALL, 40, 2, 0xc);
	task(&t[2], HMPGOV_CLASS_MEDIUM, 400, 1, ALL(4));
	task(&t[3], HMPGOV_CLASS_BIG, 900, 0, ALL(4));
	task(&t[4], HMPGOV_CLASS_BIG, 800, 0, ALL(4));
	task(&t[5], HMPGOV_CLASS_BIG, 700, 0, 0x3);
	n = place(&bl22, t, 6, &pack);
	TAP_CHECK(is_why(&t[0], HMPGOV_WHY_PACKED) && t[0].mask == 0x1 &&
		  t[0].cluster == -1, "reason: a small task is packed (mask 0x1)");
	TAP_CHECK(is_why(&t[1], HMPGOV_WHY_SMALL_OUTSIDE) && t[1].mask == 0xc,
		  "reason: a small task bound to big CPUs is outside the packing set");
	TAP_CHECK(is_why(&t[2], HMPGOV_WHY_MEDIUM) && t[2].mask == ALL(4),
		  "reason: a medium task keeps its base");
	TAP_CHECK(is_why(&t[3], HMPGOV_WHY_BIG) && t[3].cluster == 1 &&
		  t[4].cluster == 1 && t[3].mask == 0xc,
		  "reason: big tasks on cluster 1");
	TAP_CHECK(is_why(&t[5], HMPGOV_WHY_BIG_NO_ROOM) && t[5].mask == 0x3 &&
		  t[5].cluster == -1,
		  "reason: a big task whose base has no big CPU has no room");
	TAP_CHECK(n == 3 && t[0].act == HMPGOV_ACT_SET && t[3].act == HMPGOV_ACT_SET &&
		  t[4].act == HMPGOV_ACT_SET && t[2].act == HMPGOV_ACT_KEEP,
		  "the three tasks whose mask changes (and only they) are set");
	for (i = 0; i < 6; i++)
		t[i].mask_now = t[i].mask;
	TAP_CHECK(place(&bl22, t, 6, &pack) == 0, "a second decision changes nothing");

	task(&t[3], HMPGOV_CLASS_BIG, 900, 0, ALL(4));
	task(&t[4], HMPGOV_CLASS_BIG, 800, 0, ALL(4));
	task(&t[2], HMPGOV_CLASS_BIG, 950, 0, ALL(4));
	place(&bl22, t, 5, &pack);
	TAP_CHECK(is_why(&t[4], HMPGOV_WHY_BIG_NO_ROOM) && t[4].mask == 0x3,
		  "reason: the third big task on two big CPUs has no room: the little CPUs");

	for (i = 0; i < 4; i++)
		task(&t[i], HMPGOV_CLASS_SMALL, 400, 0, ALL(4));
	place(&bl22, t, 4, &pack);
	TAP_CHECK(is_why(&t[0], HMPGOV_WHY_PACK_OVERFLOW) && t[0].mask == ALL(4),
		  "reason: small tasks over both littles overflow and keep their base");

	/* rate limits */
	memset(&pack, 0, sizeof(pack));
	pol.move_interval_ns = 16000000;
	pol.moves_per_pass = 2;
	for (i = 0; i < 4; i++)	/* the last two: bound to the little CPUs */
		task(&t[i], HMPGOV_CLASS_BIG, 900 - i, 0, i < 2 ? ALL(4) : 0x3);
	t[0].moved_at = now - 15999999;
	n = hmpgov_place(&bl22, &pol, t, 4, &pack, order, now);
	TAP_CHECK(n == 2 && t[0].act == HMPGOV_ACT_WAIT &&
		  is_why(&t[0], HMPGOV_WHY_DEFERRED),
		  "a task moved 15.999999 ms ago waits (move_interval 16 ms)");
	t[0].moved_at = now - 16000000;
	n = hmpgov_place(&bl22, &pol, t, 4, &pack, order, now);
	TAP_CHECK(t[0].act == HMPGOV_ACT_SET, "one moved 16 ms ago moves");
	pol.moves_per_pass = 1;
	task(&t[0], HMPGOV_CLASS_SMALL, 10, 3, ALL(4));
	task(&t[1], HMPGOV_CLASS_SMALL, 10, 3, ALL(4));
	n = hmpgov_place(&bl22, &pol, t, 2, &pack, order, now);
	TAP_CHECK(n == 2 && t[0].act == HMPGOV_ACT_SET && t[1].act == HMPGOV_ACT_WAIT &&
		  is_why(&t[1], HMPGOV_WHY_PASS_FULL),
		  "beyond moves_per_pass a change waits for the next pass");
}

static bool kind_excluded(bool kernel, bool exiting, bool rt, hmpgov_mask base,
			  const char *comm, const char *names)
{
	struct hmpgov_task_kind k = {
		.kernel = kernel, .exiting = exiting, .realtime = rt,
		.base = base, .comm = comm,
	};

	return hmpgov_excluded(&k, names);
}

static void test_excluded(void)
{
	static const char *const bad[] = {
		" sh", "sh bash", "sh\tbash", "sh\n", ",sh", "sh,,bash", ",",
	};
	static const char *const good[] = { "", "sh", "sh,bash", "a,b,c", "sh," };
	bool ok = true;
	unsigned int i;

	TAP_CHECK(!kind_excluded(false, false, false, 0x3, "sh", ""),
		  "excluded: a user task allowed two CPUs is steered");
	TAP_CHECK(kind_excluded(true, false, false, ALL(4), "kworker/0:1", ""),
		  "excluded: a kernel thread");
	TAP_CHECK(kind_excluded(false, true, false, ALL(4), "sh", ""),
		  "excluded: an exiting task");
	TAP_CHECK(kind_excluded(false, false, true, ALL(4), "cyclictest", ""),
		  "excluded: a real-time task");
	TAP_CHECK(kind_excluded(false, false, false, 0x4, "sh", "") &&
		  kind_excluded(false, false, false, 0, "sh", "") &&
		  !kind_excluded(false, false, false, 0x8000000000000001ULL, "sh", ""),
		  "excluded: a base of one CPU (or none); two CPUs 0 and 63 are not");
	TAP_CHECK(kind_excluded(false, false, false, ALL(4), "bash", "sh,bash,zsh") &&
		  kind_excluded(false, false, false, ALL(4), "sh", "sh,bash") &&
		  kind_excluded(false, false, false, ALL(4), "zsh", "sh,bash,zsh"),
		  "excluded: a name in exclude_comm (first, middle, last)");
	TAP_CHECK(!kind_excluded(false, false, false, ALL(4), "sh", "bash,shell,s,") &&
		  !kind_excluded(false, false, false, ALL(4), "bash", "sh,bas") &&
		  !kind_excluded(false, false, false, ALL(4), "sh", ""),
		  "excluded: a name only part of, or longer than, an entry is steered");
	TAP_CHECK(!kind_excluded(false, false, false, ALL(4), "sh,bash", "sh,bash") &&
		  !kind_excluded(false, false, false, ALL(4), "sh,", "sh,"),
		  "excluded: a name with a comma in it matches no entry");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ok &= !hmpgov_names_valid(bad[i]);
	for (i = 0; i < ARRAY_SIZE(good); i++)
		ok &= hmpgov_names_valid(good[i]);
	TAP_CHECK(ok, "exclude_comm: blanks, empty and leading entries refused; lists taken");
}

static void test_uclamp(void)
{
	struct hmpgov_policy pol = {
		.backends = HMPGOV_BACKEND_UCLAMP, .pack_limit = HMPGOV_PACK_LIMIT,
		.clamp_min = { 0, 447 }, .clamp_max_small = 356,
	};
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[3];

	task(&t[0], HMPGOV_CLASS_SMALL, 40, 2, ALL(4));
	task(&t[1], HMPGOV_CLASS_BIG, 900, 3, ALL(4));
	task(&t[2], HMPGOV_CLASS_MEDIUM, 400, 3, ALL(4));
	t[1].clamp_base.max = 1024;
	t[0].clamp_base.max = 1024;
	t[2].clamp_base.max = 1024;
	t[0].clamp_now = t[0].clamp_base;
	t[1].clamp_now = t[1].clamp_base;
	t[2].clamp_now = t[2].clamp_base;
	hmpgov_place(&bl22, &pol, t, 3, &pack, order, now);
	TAP_CHECK(t[0].mask == 0x1 && t[0].clamp.max == 356 && t[0].clamp.max_user,
		  "uclamp alone: a small task is packed with a mask and capped at 356");
	TAP_CHECK(t[1].mask == ALL(4) && t[1].clamp.min == 447 && t[1].why == HMPGOV_WHY_BIG,
		  "uclamp alone: a big task keeps its mask and gets util_min 447");
	TAP_CHECK(t[2].act == HMPGOV_ACT_KEEP && t[2].clamp.min == 0 &&
		  t[2].clamp.max == 1024, "uclamp alone: a medium task gets nothing");
	pol.backends |= HMPGOV_BACKEND_AFFINITY;
	hmpgov_place(&bl22, &pol, t, 3, &pack, order, now);
	TAP_CHECK(t[1].mask == 0xc && t[1].clamp.min == 447,
		  "both: a big task gets the big CPUs and util_min 447");
	task(&t[1], HMPGOV_CLASS_BIG, 900, 3, 0xc);
	t[1].clamp_base.max = 1024;
	t[1].clamp_now = t[1].clamp_base;
	hmpgov_place(&bl22, &pol, t, 3, &pack, order, now);
	TAP_CHECK(t[1].mask == 0xc && t[1].clamp.min == 447 && t[1].act == HMPGOV_ACT_SET,
		  "a big task its user bound to the big CPUs still gets util_min 447");
	t[1].clamp_base.max = 300;
	t[1].clamp_base.max_user = true;
	hmpgov_place(&bl22, &pol, t, 3, &pack, order, now);
	TAP_CHECK(t[1].clamp.min == 300 && t[1].clamp.max == 300,
		  "a boost stops at the user's util_max (300)");
}

static unsigned int weight(hmpgov_mask m)
{
	unsigned int n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Whether @p's reason fits its class, and a big task's cluster its mask. */
static bool why_fits(const struct hmpgov_machine *m,
		     const struct hmpgov_placed *p)
{
	bool small_why = p->why <= HMPGOV_WHY_SMALL_OUTSIDE;
	bool small = p->class == HMPGOV_CLASS_SMALL;

	if (p->why == HMPGOV_WHY_DEFERRED || p->why == HMPGOV_WHY_PASS_FULL)
		return true;	/* any class may wait */
	if (p->why >= HMPGOV_NR_WHY || p->why == HMPGOV_WHY_EXCLUDED)
		return false;	/* the worker's reason, never a decision's */
	if (small_why != small)
		return false;
	if (p->why != HMPGOV_WHY_BIG)
		return p->cluster == -1;
	return p->class == HMPGOV_CLASS_BIG && p->cluster >= 1 &&
	       !(p->want & ~hmpgov_cluster_mask(m, p->cluster));
}

/*
 * How many tasks a second decision right after @t's (its sets applied,
 * nothing else changed; on copies) would change that the first one left
 * alone or set: only a move that waited may be due still. -1, not
 * judged, where a packing CPU took more than its bound (per_cpu): there
 * the small tasks are dealt out again by load until the set grows.
 */
static int unsettled(const struct hmpgov_machine *m,
		     const struct hmpgov_policy *pol,
		     const struct hmpgov_placed *t, unsigned int n,
		     const struct hmpgov_packing *pack, u64 clock)
{
	struct hmpgov_placed again[40];
	struct hmpgov_packing p2 = *pack;
	u64 load[HMPGOV_MAX_CPUS] = { 0 };
	unsigned int ord[40], i;
	int changed = 0;

	for (i = 0; i < n; i++) {
		if (t[i].why == HMPGOV_WHY_PACKED && weight(t[i].mask) == 1) {
			u64 *l = &load[__builtin_ctzll(t[i].mask)];

			*l += t[i].avg;
			if (*l > pack->per_cpu)
				return -1;
		}
		again[i] = t[i];
	}
	hmpgov_place(m, pol, again, n, &p2, ord, clock);
	for (i = 0; i < n; i++)
		if (t[i].act != HMPGOV_ACT_WAIT &&
		    (again[i].mask != again[i].mask_now ||
		     !hmpgov_clamp_same(&again[i].clamp, &again[i].clamp_now)))
			changed++;
	return changed;
}

/*
 * Random machines, tasks and time steps: every decision keeps the
 * properties below, and the packing set grows only once the small tasks'
 * sum stayed over its capacity for 100 ms, or they overflow.
 */
static void test_properties(void)
{
	static const struct hmpgov_machine *machines[] = { &bl22, &dq431 };
	unsigned int round, step, i, n, bad = 0, badwhy = 0, badpack = 0,
		     badhold = 0, badmoves = 0, badclamp = 0, decisions = 0,
		     moved_again = 0, judged = 0, offline_passes = 0;
	int r;

	for (round = 0; round < 300; round++) {
		struct hmpgov_machine m = *machines[round % 2];
		hmpgov_mask all = ALL(m.nr_cpus), littles, lit_on;
		struct hmpgov_policy pol = {
			.backends = 1 + tap_rand(3), .pack_limit = 300 + tap_rand(700),
			.move_interval_ns = tap_rand(2) ? 16000000 : 0,
			.moves_per_pass = tap_rand(4),
			.clamp_min = { 0, 447, 900 }, .clamp_max_small = 356,
		};
		struct hmpgov_packing pack = { 0 };
		struct hmpgov_placed t[40];
		u64 clock = 1000000000ULL, high_since = 0;
		u64 per_cpu;

		n = 1 + tap_rand(40);
		for (i = 0; i < n; i++) {
			task(&t[i], tap_rand(3), tap_rand(1025), tap_rand(m.nr_cpus),
			     tap_rand(4) ? all : (1 + tap_rand((u32)all)) & all);
			t[i].avg = tap_rand(400);
			t[i].clamp_base.min = tap_rand(3) ? 0 : tap_rand(1025);
			t[i].clamp_base.max = tap_rand(3) ? 1024 : tap_rand(1025);
			t[i].clamp_now = t[i].clamp_base;
		}
		for (step = 0; step < 40; step++) {
			unsigned int before = pack.nr, moves = 0;
			bool over_before = pack.overflow;
			u64 sum = 0;

			m.online = all & ~(tap_rand(5) ? 0 : (hmpgov_mask)tap_rand((u32)all));
			if (!m.online)
				m.online = 1;
			littles = hmpgov_cluster_mask(&(struct hmpgov_machine){
				m.nr_cpus, m.capacity, m.cluster, m.nr_clusters, all }, 0);
			lit_on = littles & m.online;
			per_cpu = (u64)m.capacity[0] * pol.pack_limit / 1024;
			for (i = 0; i < n; i++) {
				if (tap_rand(4) == 0)
					t[i].avg = tap_rand(tap_rand(2) ? 120 : 500);
				if (tap_rand(10) == 0)
					t[i].class = tap_rand(3);
				if (t[i].class == HMPGOV_CLASS_SMALL)
					sum += t[i].avg;
			}
			/*
			 * The test's own account of the hold: the set it starts
			 * from is its online part, at least one CPU.
			 */
			before = weight(pack.cpus & lit_on);
			if (!before)
				before = 1;
			if (lit_on && sum > before * per_cpu)
				high_since = high_since ? high_since : clock;
			else
				high_since = 0;
			hmpgov_place(&m, &pol, t, n, &pack, order, clock);
			decisions++;
			for (i = 0; i < n; i++) {
				struct hmpgov_placed *p = &t[i];

				if (!p->mask || (p->mask & ~p->base) ||
				    (p->mask != p->base && (p->mask & ~m.online)) ||
				    (p->want & ~p->base))
					bad++;
				if (!why_fits(&m, p))
					badwhy++;
				if (p->act == HMPGOV_ACT_SET)
					moves++;
				if ((pol.backends & HMPGOV_BACKEND_UCLAMP) &&
				    p->clamp_base.min <= p->clamp_base.max &&
				    (p->clamp.min < p->clamp_base.min ||
				     p->clamp.max > p->clamp_base.max ||
				     p->clamp.min > p->clamp.max))
					badclamp++;
				if (p->act == HMPGOV_ACT_SET) {
					p->mask_now = p->mask;
					p->clamp_now = p->clamp;
					p->moved_at = clock;
				}
			}
			if (pol.moves_per_pass && moves > pol.moves_per_pass)
				badmoves++;
			/*
			 * With every decision applied (the kernel keeps an
			 * offline CPU in a mask it is given), deciding again at
			 * once, nothing changed, must change nothing: no task is
			 * set again each pass while a CPU is offline.
			 */
			r = unsettled(&m, &pol, t, n, &pack, clock);
			if (r >= 0) {
				judged++;
				moved_again += r > 0;
				offline_passes += m.online != all;
			}
			if (lit_on && ((pack.cpus & ~lit_on) || !pack.cpus ||
				       weight(pack.cpus) != pack.nr))
				badpack++;
			if (lit_on && pack.nr > before && !over_before &&
			    !pack.overflow && (!high_since ||
					       clock - high_since < 100000000ULL))
				badhold++;
			clock += tap_rand(3) ? 16000000 : 1 + tap_rand(200000000);
		}
	}
	TAP_CHECK(!bad, "properties: %u decisions, masks non-empty, in base, online or the base",
		  decisions);
	TAP_CHECK(!badwhy, "properties: reasons fit classes, a big task's cluster its mask");
	TAP_CHECK(!badmoves, "properties: no pass sets more than moves_per_pass");
	TAP_CHECK(!moved_again && offline_passes,
		  "properties: a second pass at once changes only moves that waited (%u of %u passes; %u with CPUs offline)",
		  moved_again, judged, offline_passes);
	TAP_CHECK(!badclamp, "properties: uclamp never lowers util_min nor raises util_max");
	TAP_CHECK(!badpack, "properties: the packing set is nr online little CPUs (%u bad)",
		  badpack);
	TAP_CHECK(!badhold, "properties: packing grows after 100 ms over bound or on overflow (%u)",
		  badhold);
}

int main(void)
{
	test_small_pack();
	test_quiet_little();
	test_big();
	test_prime_demand();
	test_overload();
	test_pack_kept();
	test_pack_join_order();
	test_no_room_crowd();
	test_burst_waits();
	test_base_wins();
	test_hold_exact();
	test_reasons();
	test_excluded();
	test_uclamp();
	test_properties();
	return tap_done();
}
