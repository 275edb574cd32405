// SPDX-License-Identifier: GPL-2.0
/*
 * The per-task utilization signal. Pure C: also built into the host unit
 * tests (selftests/unit/). Every function is O(1): no loop depends on how
 * long a task ran or slept. docs/load-tracking.md derives the constants.
 *
 * Two views come out:
 *
 *   avg:    an exponential average in continuous time of the task's
 *           scaled running (1024 x capacity x cur/max while it runs, 0
 *           while it sleeps) whose half-life is the halflife_ms
 *           parameter: over dt at level x, avg' = x + (avg - x) * y,
 *           y = 2^(-dt/halflife). Its mean over time is the task's
 *           scaled duty cycle, whenever it is read.
 *   recent: the busy time of the last window's length, interpolated
 *           between the previous and the current window; time is cut
 *           into windows of HMPGOV_WINDOW_NS, per task, for it.
 *
 * util = max(avg, recent): a task that turns busy is seen at once (recent
 * reaches 1024 after one window of running), a task that stops decays on
 * the half-life (recent is gone after one window), and a periodic task is
 * seen at its duty cycle.
 */
#include "hmpgov/util_signal.h"

/* 2^32 * 2^(-i/32) for i = 1..31 (i = 0 is 1.0, handled apart). */
static const u32 decay_frac[32] = {
	0,          0xfa83b2db, 0xf5257d15, 0xefe4b99c,
	0xeac0c6e8, 0xe5b906e7, 0xe0ccdeec, 0xdbfbb798,
	0xd744fccb, 0xd2a81d92, 0xce248c15, 0xc9b9bd86,
	0xc5672a11, 0xc12c4cca, 0xbd08a39f, 0xb8fbaf47,
	0xb504f334, 0xb123f582, 0xad583eea, 0xa9a15ab5,
	0xa5fed6aa, 0xa2704303, 0x9ef53261, 0x9b8d39ba,
	0x9837f052, 0x94f4efa9, 0x91c3d374, 0x8ea4398b,
	0x8b95c1e4, 0x88980e81, 0x85aac368, 0x82cd8699,
};

/* ln(2) * 2^32: the slope of 2^(-x) at 0, for the rest below a step */
#define LN2_2P32	2977044472ULL

u64 hmpgov_halflife_rate(u32 halflife_ns)
{
	return ((1ULL << 63) + halflife_ns - 1) / halflife_ns;
}

u32 hmpgov_decay(u32 v, u64 dt_ns, u64 rate)
{
	u64 x;		/* dt_ns in half-lives, with 32 bits of fraction */
	u32 step, rest;

	if (dt_ns >> 40)	/* 18 minutes: more than 32 half-lives */
		return 0;
	/*
	 * rate is 2^63 / halflife_ns rounded up, by less than 2^-63 of a
	 * half-life per ns: n half-lives come out exact while n x halflife_ns
	 * is below 2^31 ns (2.1 s)
	 */
	x = mul_u64_u64_shr(dt_ns, rate, 63 - 32);
	if (x >> 37)		/* 32 half-lives or more */
		return 0;
	v >>= x >> 32;
	step = (x >> 27) & 31;			/* 1/32 steps */
	rest = x & ((1U << 27) - 1);		/* below a step */
	if (step)
		v = (u32)(((u64)v * decay_frac[step]) >> 32);
	/*
	 * Less than 1/32 of a half-life is left: 2^(-x) ~ 1 - x ln 2 there
	 * (off by at most 2.4e-4), so that many short slices decay as much
	 * as one long one.
	 */
	if (rest)
		v = (u32)(((u64)v * ((1ULL << 32) -
				     (((u64)rest * LN2_2P32) >> 32))) >> 32);
	return v;
}

/* @dt ns at level x: avg' = x + (avg - x) * 2^(-dt/halflife) */
static u32 settle(u32 avg, u32 x, u64 dt, u64 rate)
{
	if (avg >= x)
		return x + hmpgov_decay(avg - x, dt, rate);
	return x - hmpgov_decay(x - avg, dt, rate);
}

static void close_window(struct hmpgov_util *u)
{
	u->prev_busy = u->win_busy;
	u->win_busy = 0;
	u->win_start += HMPGOV_WINDOW_NS;
}

/* Close every window that ended by @t; none of them after the current
 * one had any running.
 */
static void roll_idle(struct hmpgov_util *u, u64 t)
{
	u64 n;

	if (t < u->win_start + HMPGOV_WINDOW_NS)
		return;
	close_window(u);
	n = (t - u->win_start) / HMPGOV_WINDOW_NS;
	if (!n)
		return;
	u->prev_busy = 0;
	u->win_start += n * HMPGOV_WINDOW_NS;
}

void hmpgov_util_init(struct hmpgov_util *u, u64 now)
{
	u->win_start = now;
	u->win_busy = 0;
	u->prev_busy = 0;
	u->avg = 0;
	u->last_off = 0;
}

/* ns of running on a (cap, freq) CPU, in ns of the biggest CPU at top speed */
static u32 scale(u64 ns, u32 cap, u32 freq)
{
	return (u32)((ns * cap * freq) >> (2 * HMPGOV_CAPACITY_SHIFT));
}

/*
 * The average from the last accounted instant @last: asleep until @start,
 * then running until @now at level cap x freq (time already accounted is
 * not counted twice).
 */
static void average_in(struct hmpgov_util *u, u64 last, u64 start, u64 now,
		       u32 cap, u32 freq, u64 rate)
{
	u32 level = (cap * freq) << (HMPGOV_AVG_SHIFT - HMPGOV_CAPACITY_SHIFT);

	if (start > last) {
		u->avg = hmpgov_decay(u->avg, start - last, rate);
		last = start;
	}
	if (now > last)
		u->avg = settle(u->avg, level, now - last, rate);
}

void hmpgov_util_account(struct hmpgov_util *u, u64 now, u64 delta_ns,
			 u32 cap, u32 freq, u64 rate)
{
	u64 start, end, n;

	if (now < u->win_start)		/* clocks of two CPUs: tolerate */
		now = u->win_start;
	start = now - delta_ns;
	if (delta_ns > now - u->win_start)
		start = u->win_start;	/* ran before we knew the task */
	average_in(u, u->win_start + u->last_off, start, now, cap, freq,
		   rate);
	roll_idle(u, start);

	end = u->win_start + HMPGOV_WINDOW_NS;
	if (now < end) {
		u->win_busy += scale(now - start, cap, freq);
		u->last_off = (u32)(now - u->win_start);
		return;
	}
	/* The run ends this window, may fill whole ones, ends in a new one. */
	u->win_busy += scale(end - start, cap, freq);
	close_window(u);
	n = (now - u->win_start) / HMPGOV_WINDOW_NS;
	if (n) {
		u->prev_busy = scale(HMPGOV_WINDOW_NS, cap, freq);
		u->win_start += n * HMPGOV_WINDOW_NS;
	}
	u->win_busy = scale(now - u->win_start, cap, freq);
	u->last_off = (u32)(now - u->win_start);
}

u32 hmpgov_util_avg(const struct hmpgov_util *u, u64 now, u64 rate)
{
	u64 last = u->win_start + u->last_off;
	u32 avg = u->avg;

	/* Asleep since the last accounted instant. */
	if (now > last)
		avg = hmpgov_decay(avg, now - last, rate);
	return (avg + (1U << (HMPGOV_AVG_SHIFT - 1))) >> HMPGOV_AVG_SHIFT;
}

u32 hmpgov_util_read(const struct hmpgov_util *u, u64 now, u64 rate)
{
	struct hmpgov_util r = *u;
	u64 into, recent;
	u32 avg = hmpgov_util_avg(u, now, rate);

	if (now < r.win_start)
		now = r.win_start;
	roll_idle(&r, now);
	into = now - r.win_start;
	recent = (u64)r.prev_busy * (HMPGOV_WINDOW_NS - into) / HMPGOV_WINDOW_NS +
		 r.win_busy;
	recent = recent * HMPGOV_CAPACITY_SCALE / HMPGOV_WINDOW_NS;
	if (recent > HMPGOV_CAPACITY_SCALE)
		recent = HMPGOV_CAPACITY_SCALE;
	return avg > recent ? avg : (u32)recent;
}

void hmpgov_util_catch_up(struct hmpgov_util *u, u64 now, u64 since,
			  u32 cap, u32 freq, u64 rate)
{
	u64 from = u->win_start + u->last_off;

	if (since > from)
		from = since;
	if (now > from)
		hmpgov_util_account(u, now, now - from, cap, freq, rate);
}

u32 hmpgov_util_read_running(const struct hmpgov_util *u, u64 now, u64 since,
			     u32 cap, u32 freq, u64 rate)
{
	struct hmpgov_util r = *u;

	hmpgov_util_catch_up(&r, now, since, cap, freq, rate);
	return hmpgov_util_read(&r, now, rate);
}
