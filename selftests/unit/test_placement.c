// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of the placement rules (module/placement.c). */
#include "hmpgov/placement.h"
#include "tap.h"

#define ALL(n)	((HMPGOV_CPU_BIT(n)) - 1)

static const u32 cap22[] = { 446, 446, 1024, 1024 };
static const int cl22[] = { 0, 0, 1, 1 };
static const struct hmpgov_machine bl22 = { 4, cap22, cl22, 2, ALL(4) };

static const u32 cap431[] = { 446, 446, 446, 446, 871, 871, 871, 1024 };
static const int cl431[] = { 0, 0, 0, 0, 1, 1, 1, 2 };
static const struct hmpgov_machine dq431 = { 8, cap431, cl431, 3, ALL(8) };

static unsigned int order[64];
static u64 now = 1000000000ULL;	/* the decisions' clock, ns */

static void task(struct hmpgov_placed *t, enum hmpgov_class c, u32 util,
		 int cpu, hmpgov_mask base)
{
	t->class = c;
	t->util = util;
	t->avg = util;
	t->cpu = cpu;
	t->base = base;
	t->want = 0;
}

static void test_small_pack(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[8];
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 4; i++)
		task(&t[i], HMPGOV_CLASS_SMALL, 45, 2 + i % 2, ALL(4));
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	for (i = 0; i < 4; i++)
		ok &= t[i].want == HMPGOV_CPU_BIT(0);
	TAP_CHECK(ok && pack.nr == 1, "four 45-util small tasks pack on cpu0 alone");

	/* 446 * 650 / 1024 = 283 per packing CPU */
	for (i = 0; i < 4; i++)
		t[i].avg = 80;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.cpus == 1, "a sum of 320 does not open the second little CPU at once");
	now += HMPGOV_PACK_HOLD_NS / 2;
	for (i = 0; i < 4; i++)
		t[i].avg = 70;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	now += HMPGOV_PACK_HOLD_NS;
	for (i = 0; i < 4; i++)
		t[i].avg = 80;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.cpus == 1, "nor when it fell back under 283 within the hold time");
	now += HMPGOV_PACK_HOLD_NS;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.cpus == 3 && t[0].want == 3,
		  "320 for the whole hold time opens the second little CPU");
	for (i = 0; i < 4; i++)
		t[i].avg = 60;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.cpus == 3, "240 keeps it (hysteresis: leaves under 3/4 of 283)");
	for (i = 0; i < 4; i++)
		t[i].avg = 50;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.cpus == 1, "200 closes it again");
	for (i = 0; i < 4; i++)
		t[i].avg = 400;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.cpus == 3, "never more packing CPUs than little ones");
	TAP_CHECK(pack.overflow && t[0].want == ALL(4),
		  "a sum of 1600 over both littles' 566 overflows: small tasks keep their base");
	for (i = 0; i < 4; i++)
		t[i].avg = 120;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.overflow && t[0].want == ALL(4),
		  "480 stays overflowing (hysteresis: ends under 3/4 of 566)");
	for (i = 0; i < 4; i++)
		t[i].avg = 100;
	hmpgov_place(&bl22, t, 4, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(!pack.overflow && t[0].want == 3,
		  "400 packs them on the two littles again");
}

static void test_quiet_little(void)
{
	struct hmpgov_packing pack = { 0 };
	struct hmpgov_placed t[2];

	task(&t[0], HMPGOV_CLASS_MEDIUM, 400, 0, ALL(4));
	task(&t[1], HMPGOV_CLASS_SMALL, 40, 3, ALL(4));
	hmpgov_place(&bl22, t, 2, &pack, HMPGOV_PACK_LIMIT, order, now);
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
	hmpgov_place(&bl22, t, 2, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(t[0].want == 0xc && t[1].want == 0xc, "two big tasks go to the big cluster");
	hmpgov_place(&bl22, t, 3, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(t[1].want == 0xc && t[0].want == 0xc && t[2].want == ALL(4),
		  "a third big task, the lightest, may run anywhere");

	task(&t[0], HMPGOV_CLASS_BIG, 700, 0, ALL(8));
	task(&t[1], HMPGOV_CLASS_BIG, 1000, 0, ALL(8));
	task(&t[2], HMPGOV_CLASS_BIG, 800, 0, ALL(8));
	task(&t[3], HMPGOV_CLASS_BIG, 750, 0, ALL(8));
	task(&t[4], HMPGOV_CLASS_BIG, 720, 0, ALL(8));
	hmpgov_place(&dq431, t, 5, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(t[1].want == 0x80, "three clusters: the heaviest takes the prime CPU");
	TAP_CHECK(t[2].want == 0x70 && t[3].want == 0x70 && t[4].want == 0x70,
		  "the next three take the mid cluster");
	TAP_CHECK(t[0].want == ALL(8), "the fifth may run anywhere");
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
	hmpgov_place(&bl22, t, 3, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(t[0].want == 0xc, "a small task bound to big CPUs keeps its base");
	TAP_CHECK(t[1].want == 0x1, "a small task bound to {0,2} packs on cpu0");
	TAP_CHECK(t[2].want == 0x4, "a big task bound to {0,2} runs on cpu2");
	for (i = 0; i < 3; i++)
		subset &= (t[i].want & ~t[i].base) == 0 && t[i].want;
	TAP_CHECK(subset, "every mask is a non-empty subset of its base");

	off.online = ALL(4) & ~HMPGOV_CPU_BIT(0);
	hmpgov_place(&off, t, 3, &pack, HMPGOV_PACK_LIMIT, order, now);
	TAP_CHECK(pack.cpus == 0x2, "the packing CPU going offline moves packing to cpu1");
	TAP_CHECK(t[1].want == 0x5,
		  "a small task whose base has no online packing CPU keeps its base");
}

int main(void)
{
	test_small_pack();
	test_quiet_little();
	test_big();
	test_base_wins();
	return tap_done();
}
