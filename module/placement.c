// SPDX-License-Identifier: GPL-2.0
/*
 * The placement rules (see include/hmpgov/placement.h). Pure C: also
 * built into the host unit tests (selftests/unit/test_placement.c).
 * Every loop is bounded by the number of tasks times the number of CPUs
 * or clusters; this runs in process context, in hmpgov's worker.
 */
#include "hmpgov/placement.h"

const char *const hmpgov_why_names[HMPGOV_NR_WHY] = {
	[HMPGOV_WHY_PACKED] = "packed",
	[HMPGOV_WHY_PACK_OVERFLOW] = "pack_overflow",
	[HMPGOV_WHY_SMALL_OUTSIDE] = "small_outside_pack",
	[HMPGOV_WHY_MEDIUM] = "medium_keeps_base",
	[HMPGOV_WHY_BIG] = "big_on_cluster",
	[HMPGOV_WHY_BIG_NO_ROOM] = "big_no_room",
	[HMPGOV_WHY_DEFERRED] = "deferred_interval",
	[HMPGOV_WHY_PASS_FULL] = "deferred_pass_full",
	[HMPGOV_WHY_EXCLUDED] = "excluded",
};

hmpgov_mask hmpgov_cluster_mask(const struct hmpgov_machine *m, int cluster)
{
	hmpgov_mask mask = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (m->cluster[cpu] == cluster)
			mask |= HMPGOV_CPU_BIT(cpu);
	return mask & m->online;
}

/* Whether @comm is one of the comma-separated @names. */
static bool listed(const char *comm, const char *names)
{
	const char *c;

	while (*names) {
		for (c = comm; *c && *c != ',' && *c == *names; c++)
			names++;
		if (!*c && (!*names || *names == ','))
			return true;
		while (*names && *names != ',')
			names++;
		if (*names)
			names++;
	}
	return false;
}

bool hmpgov_excluded(const struct hmpgov_task_kind *k, const char *names)
{
	if (k->kernel || k->exiting || k->realtime)
		return true;
	if (!(k->base & (k->base - 1)))		/* one CPU, or none */
		return true;
	return listed(k->comm, names);
}

bool hmpgov_names_valid(const char *list)
{
	const char *s;

	if (*list == ',')
		return false;
	for (s = list; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n')
			return false;
		if (*s == ',' && s[1] == ',')
			return false;
	}
	return true;
}

static unsigned int weight(hmpgov_mask m)
{
	unsigned int n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

static int lowest_cpu(hmpgov_mask m)
{
	int cpu = 0;

	if (!m)
		return -1;
	while (!(m & 1)) {
		m >>= 1;
		cpu++;
	}
	return cpu;
}

/* Little CPUs where a medium or big task last ran. */
static hmpgov_mask busy_littles(const struct hmpgov_placed *t, unsigned int n,
				hmpgov_mask littles)
{
	hmpgov_mask busy = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i].class != HMPGOV_CLASS_SMALL && t[i].cpu >= 0 &&
		    t[i].cpu < HMPGOV_MAX_CPUS)
			busy |= HMPGOV_CPU_BIT(t[i].cpu);
	return busy & littles;
}

/*
 * Whether the packing set may grow from @want CPUs now: at once when the
 * small tasks overflow(ed) the little CPUs, else after the hold time.
 */
static bool may_grow(struct hmpgov_packing *pack, unsigned int want,
		     unsigned int most, u64 sum, u64 per_cpu, u64 now,
		     bool was_over)
{
	if (want >= most || sum <= want * per_cpu) {
		pack->high_since = 0;
		return false;
	}
	if (was_over || pack->overflow)
		return true;
	if (!pack->high_since) {
		pack->high_since = now ? now : 1;
		return false;
	}
	return now - pack->high_since >= HMPGOV_PACK_HOLD_NS;
}

/*
 * The join order of the packing set: the first pack->nr entries of joined[]
 * are its CPUs, the first to join first. CPUs that left @cpus (offline)
 * are dropped; CPUs of @cpus it does not list (a set given from outside)
 * are added, lowest first. Returns how many it lists.
 */
static unsigned int join_order(struct hmpgov_packing *pack)
{
	hmpgov_mask seen = 0, left;
	unsigned int i, n = 0;

	for (i = 0; i < pack->nr && i < HMPGOV_MAX_CPUS; i++) {
		hmpgov_mask bit;

		if (pack->joined[i] >= HMPGOV_MAX_CPUS)
			continue;
		bit = HMPGOV_CPU_BIT(pack->joined[i]);
		if (!(pack->cpus & bit) || (seen & bit))
			continue;
		seen |= bit;
		pack->joined[n++] = pack->joined[i];
	}
	for (left = pack->cpus & ~seen; left; left &= left - 1)
		pack->joined[n++] = (u8)lowest_cpu(left);
	return n;
}

static void update_packing(const struct hmpgov_machine *m,
			   const struct hmpgov_placed *t, unsigned int n,
			   struct hmpgov_packing *pack, u32 pack_limit, u64 now)
{
	hmpgov_mask littles = hmpgov_cluster_mask(m, 0);
	hmpgov_mask busy = busy_littles(t, n, littles);
	bool was_over = pack->overflow;
	u64 sum = 0, per_cpu;
	unsigned int i, want, nr;
	int cpu;

	for (i = 0; i < n; i++)
		if (t[i].class == HMPGOV_CLASS_SMALL)
			sum += t[i].avg;
	pack->sum = sum;
	cpu = lowest_cpu(littles);
	if (cpu < 0) {		/* no little CPU online: no set, no hold */
		pack->cpus = 0;
		pack->nr = 0;
		pack->overflow = false;
		pack->high_since = 0;
		return;
	}
	per_cpu = (u64)m->capacity[cpu] * pack_limit / HMPGOV_CAPACITY_SCALE;
	if (!per_cpu)
		per_cpu = 1;
	pack->per_cpu = per_cpu;

	pack->cpus &= littles;		/* a CPU went offline */
	if (sum > weight(littles) * per_cpu)
		pack->overflow = true;
	else if (sum * 4 < weight(littles) * per_cpu * 3)
		pack->overflow = false;
	want = weight(pack->cpus);
	if (!want)
		want = 1;
	if (may_grow(pack, want, weight(littles), sum, per_cpu, now, was_over)) {
		while (want < weight(littles) && sum > want * per_cpu)
			want++;
		pack->high_since = 0;
	}
	while (want > 1 && sum * 4 < (want - 1) * per_cpu * 3)
		want--;

	/*
	 * The last to join leaves first, whatever its number: the first
	 * packing CPU, where the small tasks have been all along, stays
	 * (dropping the highest moved them all when the first was not the
	 * lowest, e.g. CPU1 chosen while CPU0 was busy)
	 */
	nr = join_order(pack);
	while (nr > want)
		pack->cpus &= ~HMPGOV_CPU_BIT(pack->joined[--nr]);
	while (nr < want) {
		hmpgov_mask free = littles & ~pack->cpus;
		hmpgov_mask quiet = free & ~busy;

		cpu = lowest_cpu(quiet ? quiet : free);
		pack->cpus |= HMPGOV_CPU_BIT(cpu);
		pack->joined[nr++] = (u8)cpu;
	}
	pack->nr = want;
}

/*
 * How much of a CPU a task wants, /1024. Utilization is scale-invariant:
 * a task that fills a mid CPU reads that CPU's capacity, less than a
 * 90 % task on the prime CPU, yet it wants more (dynamiq-4-3-1's prime
 * scenario: 89 % in one CI run when big tasks were ordered by
 * utilization). So a task whose average (the slow signal) shows it has
 * filled its CPU for a while, HMPGOV_FILLED of the capacity, is credited
 * with its share of that CPU, all of it; every other task counts what
 * it reads. A short burst that fills a little CPU (a shell's awk, a few
 * tens of ms) has no such average and does not take a big CPU from a
 * long-running task there (test 82: the busy task lost its util_min).
 */
/* The capacity of the CPU @t last ran on; 0 if that is no CPU of @m. */
static u32 ran_on(const struct hmpgov_machine *m, const struct hmpgov_placed *t)
{
	return t->cpu >= 0 && t->cpu < (int)m->nr_cpus ? m->capacity[t->cpu] : 0;
}

static u32 demand(const struct hmpgov_machine *m, const struct hmpgov_placed *t)
{
	u32 cap = ran_on(m, t);
	u64 d;

	if (!cap || (u64)t->avg * HMPGOV_CAPACITY_SCALE < (u64)cap * HMPGOV_FILLED)
		return t->util;
	d = (u64)t->util * HMPGOV_CAPACITY_SCALE / cap;
	return d > HMPGOV_CAPACITY_SCALE ? HMPGOV_CAPACITY_SCALE : (u32)d;
}

/*
 * The order of big tasks: demand, plus 1/16 of it for each cluster above
 * the littlest that the task ran on, so that a task keeps a big CPU
 * against one that reads only a little more: four busy tasks on 2 + 2
 * CPUs each read about a whole CPU, and at every dip of one signal two of
 * them changed places (test 86's overload, about 70 moves a second). A
 * task filling a mid CPU (1024 + 64) still goes before a 90 % one on the
 * prime CPU (922 + 115). One key per task keeps the order the same
 * whatever order the tasks come in.
 */
static u64 rank(const struct hmpgov_machine *m, const struct hmpgov_placed *t)
{
	u64 d = demand(m, t);
	int c = t->cpu >= 0 && t->cpu < (int)m->nr_cpus ? m->cluster[t->cpu] : 0;

	return d * 16 + d * (c > 0 ? c : 0);
}

/* Whether big task @a goes before @b: rank, then a bigger CPU now, then util. */
static bool before(const struct hmpgov_machine *m, const struct hmpgov_placed *a,
		   const struct hmpgov_placed *b)
{
	u64 ra = rank(m, a), rb = rank(m, b);
	u32 ca = ran_on(m, a), cb = ran_on(m, b);

	if (ra != rb)
		return ra > rb;
	if (ca != cb)
		return ca > cb;
	return a->util > b->util;
}

/* Indices of the big tasks, most demanding first; returns how many. */
static unsigned int sort_big(const struct hmpgov_machine *m,
			     const struct hmpgov_placed *t, unsigned int n,
			     unsigned int *order)
{
	unsigned int nr = 0, i, j, k;

	for (i = 0; i < n; i++) {
		if (t[i].class != HMPGOV_CLASS_BIG)
			continue;
		for (j = nr; j > 0 && before(m, &t[i], &t[order[j - 1]]); j--)
			;
		for (k = nr; k > j; k--)
			order[k] = order[k - 1];
		order[j] = i;
		nr++;
	}
	return nr;
}

static void place_big(const struct hmpgov_machine *m, struct hmpgov_placed *t,
		      unsigned int n, unsigned int *order)
{
	unsigned int room[HMPGOV_MAX_CLUSTERS];
	hmpgov_mask cmask[HMPGOV_MAX_CLUSTERS], full = 0;
	bool narrow[HMPGOV_MAX_CLUSTERS] = { false };
	unsigned int nr = sort_big(m, t, n, order), i, homeless = 0;
	int c;

	for (c = 0; c < (int)m->nr_clusters && c < HMPGOV_MAX_CLUSTERS; c++) {
		cmask[c] = hmpgov_cluster_mask(m, c);
		room[c] = weight(cmask[c]);
	}
	for (i = 0; i < nr; i++) {
		struct hmpgov_placed *p = &t[order[i]];

		for (c = (int)m->nr_clusters - 1; c >= 1; c--) {
			if (c >= HMPGOV_MAX_CLUSTERS || !room[c] ||
			    !(cmask[c] & p->base))
				continue;
			p->want = cmask[c] & p->base;
			p->why = HMPGOV_WHY_BIG;
			p->cluster = c;
			room[c]--;
			narrow[c] |= p->want != cmask[c];
			break;
		}
		homeless += p->why == HMPGOV_WHY_BIG_NO_ROOM;
	}
	/*
	 * A big task with no room keeps its base less the clusters that
	 * heavier big tasks fill, one on each CPU (none bound narrower than
	 * its cluster), if the rest has a CPU for each such task: allowed on
	 * the full CPUs, it was balanced onto them, the task there read less
	 * than it, and the two changed places (test 86's overload: each of 4
	 * busy tasks on 2 + 2 CPUs got 83 % of a CPU). With more of them
	 * than CPUs left, they keep their base and the balancer shares all
	 * CPUs out.
	 */
	for (c = 1; c < (int)m->nr_clusters && c < HMPGOV_MAX_CLUSTERS; c++)
		if (!room[c] && !narrow[c])
			full |= cmask[c];
	if (!full || homeless > weight(m->online & ~full))
		return;
	for (i = 0; i < nr; i++) {
		struct hmpgov_placed *p = &t[order[i]];

		if (p->why == HMPGOV_WHY_BIG_NO_ROOM &&
		    (p->base & ~full & m->online))
			p->want = p->base & ~full;
	}
}

/*
 * With more than one packing CPU, each packed small task gets one of them
 * (rule 1: packed, and kept there). Allowed the whole set, the tasks were
 * moved between its CPUs at wake-ups, about 1.3 times a second each
 * (test 86's busy case). First the tasks that can have one CPU only, then
 * those on one packing CPU keep it while it has room (the first always
 * does), then the others go to the least loaded packing CPU of their
 * base. Load is the sum of the tasks' avg.
 */
static void pack_small(struct hmpgov_placed *t, unsigned int n,
		       const struct hmpgov_packing *pack)
{
	u32 load[HMPGOV_MAX_CPUS] = { 0 };
	hmpgov_mask left, cand;
	unsigned int i, pass;
	int cpu, best;

	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < n; i++) {
			if (t[i].why != HMPGOV_WHY_PACKED)
				continue;
			cand = t[i].want;
			if (pass == 0 && weight(cand) != 1)
				continue;
			if (pass == 1) {
				if (weight(cand) == 1 || weight(t[i].mask_now & cand) != 1)
					continue;
				cpu = lowest_cpu(t[i].mask_now & cand);
				if (load[cpu] && (u64)load[cpu] + t[i].avg > pack->per_cpu)
					continue;
				cand = HMPGOV_CPU_BIT(cpu);
			}
			if (pass == 2 && weight(cand) == 1)
				continue;
			best = -1;
			for (left = cand; left; left &= left - 1) {
				cpu = lowest_cpu(left);
				if (best < 0 || load[cpu] < load[best])
					best = cpu;
			}
			t[i].want = HMPGOV_CPU_BIT(best);
			load[best] += t[i].avg;
		}
	}
}

/* The rules' mask of each task, and why (rules 1 and 3). */
static void place_rules(const struct hmpgov_machine *m, struct hmpgov_placed *t,
			unsigned int n, const struct hmpgov_packing *pack,
			unsigned int *order)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		t[i].want = t[i].base;
		t[i].cluster = -1;
		switch (t[i].class) {
		case HMPGOV_CLASS_SMALL:
			if (pack->overflow) {
				t[i].why = HMPGOV_WHY_PACK_OVERFLOW;
			} else if (pack->cpus & t[i].base) {
				t[i].want = pack->cpus & t[i].base;
				t[i].why = HMPGOV_WHY_PACKED;
			} else {
				t[i].why = HMPGOV_WHY_SMALL_OUTSIDE;
			}
			break;
		case HMPGOV_CLASS_BIG:
			t[i].why = HMPGOV_WHY_BIG_NO_ROOM;	/* anywhere */
			break;
		default:
			t[i].why = HMPGOV_WHY_MEDIUM;
			break;
		}
	}
	if (weight(pack->cpus) > 1)
		pack_small(t, n, pack);
	if (m->nr_clusters > 1)
		place_big(m, t, n, order);
}

/*
 * The rules' mask as the backends carry it: .mask and .clamp. A big task
 * placed on a cluster asks for that cluster's util_min (even where its
 * base is that cluster already: util_min also sets the frequency); a
 * small one, packed or overflowing, for the littlest CPUs' util_max.
 */
static void steer_targets(const struct hmpgov_machine *m,
			  const struct hmpgov_policy *pol,
			  struct hmpgov_placed *t)
{
	hmpgov_mask want = t->want & m->online;
	u32 min = HMPGOV_CLAMP_NO_MIN, max = HMPGOV_CLAMP_NO_MAX;

	/* with uclamp alone only rule 1 uses a mask: nothing else packs */
	if (!want || (!(pol->backends & HMPGOV_BACKEND_AFFINITY) &&
		      t->class != HMPGOV_CLASS_SMALL))
		t->mask = t->base;
	else
		t->mask = want;
	if (!(pol->backends & HMPGOV_BACKEND_UCLAMP)) {
		t->clamp = t->clamp_now;	/* not steered */
		return;
	}
	if (t->why == HMPGOV_WHY_BIG && t->cluster < HMPGOV_MAX_CLUSTERS)
		min = pol->clamp_min[t->cluster];
	else if (t->class == HMPGOV_CLASS_SMALL)
		max = pol->clamp_max_small;
	hmpgov_clamp_combine(&t->clamp_base, min, max, &t->clamp);
}

unsigned int hmpgov_place(const struct hmpgov_machine *m,
			  const struct hmpgov_policy *pol,
			  struct hmpgov_placed *t, unsigned int n,
			  struct hmpgov_packing *pack, unsigned int *order,
			  u64 now)
{
	unsigned int i, moves = 0, differ = 0;

	update_packing(m, t, n, pack, pol->pack_limit, now);
	place_rules(m, t, n, pack, order);
	for (i = 0; i < n; i++) {
		steer_targets(m, pol, &t[i]);
		t[i].act = HMPGOV_ACT_KEEP;
		if (t[i].mask == t[i].mask_now &&
		    hmpgov_clamp_same(&t[i].clamp, &t[i].clamp_now))
			continue;
		differ++;
		t[i].act = HMPGOV_ACT_WAIT;
		if (pol->moves_per_pass && moves >= pol->moves_per_pass)
			t[i].why = HMPGOV_WHY_PASS_FULL;
		else if (now - t[i].moved_at < pol->move_interval_ns)
			t[i].why = HMPGOV_WHY_DEFERRED;
		else
			t[i].act = HMPGOV_ACT_SET;
		if (t[i].act == HMPGOV_ACT_SET)
			moves++;
	}
	return differ;
}
