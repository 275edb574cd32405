// SPDX-License-Identifier: GPL-2.0
/*
 * The per-task utilization signal. Pure C: also built into the host unit
 * tests (selftests/unit/). Every function is O(1): no loop depends on how
 * long a task ran or slept. docs/load-tracking.md derives the constants.
 *
 * Time is cut into windows of HMPGOV_WINDOW_NS, per task. A closed window
 * has a demand, busy/window on the 0..1024 scale. Two views come out:
 *
 *   avg:    an exponential average of window demands whose half-life is
 *           the halflife_ms parameter: avg' = avg*y + demand*(1 - y) per
 *           window, y = 2^(-window/halflife); idle time decays it
 *           continuously by 2^(-t/halflife).
 *   recent: the busy time of the last window's length, interpolated
 *           between the previous and the current window.
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

u32 hmpgov_decay(u32 v, u64 dt_ns, u32 halflife_ns)
{
	u64 halvings = dt_ns / halflife_ns;
	u32 step = (u32)((dt_ns % halflife_ns) * 32 / halflife_ns);

	if (halvings >= 32)
		return 0;
	v >>= halvings;
	if (step)
		v = (u32)(((u64)v * decay_frac[step]) >> 32);
	return v;
}

static u32 demand(u32 busy)
{
	u64 d = (u64)busy * HMPGOV_CAPACITY_SCALE / HMPGOV_WINDOW_NS;

	return d > HMPGOV_CAPACITY_SCALE ? HMPGOV_CAPACITY_SCALE : (u32)d;
}

/* n windows of constant demand d: avg' = d + (avg - d) * y^n */
static u32 settle(u32 avg, u32 d, u64 n, u32 halflife_ns)
{
	u64 dt = n * HMPGOV_WINDOW_NS;

	if (avg >= d)
		return d + hmpgov_decay(avg - d, dt, halflife_ns);
	return d - hmpgov_decay(d - avg, dt, halflife_ns);
}

static void close_window(struct hmpgov_util *u, u32 halflife_ns)
{
	u->avg = settle(u->avg, demand(u->win_busy), 1, halflife_ns);
	u->prev_busy = u->win_busy;
	u->win_busy = 0;
	u->win_start += HMPGOV_WINDOW_NS;
}

/* Close every window that ended by @t; none of them after the current
 * one had any running.
 */
static void roll_idle(struct hmpgov_util *u, u64 t, u32 halflife_ns)
{
	u64 n;

	if (t < u->win_start + HMPGOV_WINDOW_NS)
		return;
	close_window(u, halflife_ns);
	n = (t - u->win_start) / HMPGOV_WINDOW_NS;
	if (!n)
		return;
	u->avg = settle(u->avg, 0, n, halflife_ns);
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

void hmpgov_util_account(struct hmpgov_util *u, u64 now, u64 delta_ns,
			 u32 cap, u32 freq, u32 halflife_ns)
{
	u64 start, end, n;

	if (now < u->win_start)		/* clocks of two CPUs: tolerate */
		now = u->win_start;
	start = now - delta_ns;
	if (delta_ns > now - u->win_start)
		start = u->win_start;	/* ran before we knew the task */
	roll_idle(u, start, halflife_ns);

	end = u->win_start + HMPGOV_WINDOW_NS;
	if (now < end) {
		u->win_busy += scale(now - start, cap, freq);
		u->last_off = (u32)(now - u->win_start);
		return;
	}
	/* The run ends this window, may fill whole ones, ends in a new one. */
	u->win_busy += scale(end - start, cap, freq);
	close_window(u, halflife_ns);
	n = (now - u->win_start) / HMPGOV_WINDOW_NS;
	if (n) {
		u32 full = scale(HMPGOV_WINDOW_NS, cap, freq);

		u->avg = settle(u->avg, demand(full), n, halflife_ns);
		u->prev_busy = full;
		u->win_start += n * HMPGOV_WINDOW_NS;
	}
	u->win_busy = scale(now - u->win_start, cap, freq);
	u->last_off = (u32)(now - u->win_start);
}

u32 hmpgov_util_avg(const struct hmpgov_util *u, u64 now, u32 halflife_ns)
{
	struct hmpgov_util r = *u;

	if (now < r.win_start)
		return r.avg;
	roll_idle(&r, now, halflife_ns);
	/* Idle part of the current window: decay continuously. */
	if (!r.win_busy)
		return hmpgov_decay(r.avg, now - r.win_start, halflife_ns);
	return r.avg;
}

u32 hmpgov_util_read(const struct hmpgov_util *u, u64 now, u32 halflife_ns)
{
	struct hmpgov_util r = *u;
	u64 into, recent;
	u32 avg = hmpgov_util_avg(u, now, halflife_ns);

	if (now < r.win_start)
		now = r.win_start;
	roll_idle(&r, now, halflife_ns);
	into = now - r.win_start;
	recent = (u64)r.prev_busy * (HMPGOV_WINDOW_NS - into) / HMPGOV_WINDOW_NS +
		 r.win_busy;
	recent = recent * HMPGOV_CAPACITY_SCALE / HMPGOV_WINDOW_NS;
	if (recent > HMPGOV_CAPACITY_SCALE)
		recent = HMPGOV_CAPACITY_SCALE;
	return avg > recent ? avg : (u32)recent;
}

u32 hmpgov_util_read_running(const struct hmpgov_util *u, u64 now, u64 since,
			     u32 cap, u32 freq, u32 halflife_ns)
{
	struct hmpgov_util r = *u;
	u64 from = r.win_start + r.last_off;

	if (since > from)
		from = since;
	if (now > from)
		hmpgov_util_account(&r, now, now - from, cap, freq, halflife_ns);
	return hmpgov_util_read(&r, now, halflife_ns);
}
