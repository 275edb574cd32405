// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the utilization signal (module/util_signal.c): a
 * simulated task runs with a given duty cycle on a CPU of a given
 * capacity and frequency, accounted as the kernel accounts it (at every
 * 4 ms tick while running and when it stops).
 */
#include <math.h>

#include "hmpgov/util_signal.h"
#include "tap.h"

#define MS	1000000ULL
#define TICK	(4 * MS)
#define HL	(32 * MS)
#define RATE	hmpgov_halflife_rate(HL)

struct sim {
	struct hmpgov_util u;
	u64 now;
	u32 max_seen;
};

static void sim_init(struct sim *s)
{
	s->now = 1000 * MS;
	hmpgov_util_init(&s->u, s->now);
	s->max_seen = 0;
}

static void observe(struct sim *s)
{
	u32 v = hmpgov_util_read(&s->u, s->now, RATE);

	if (v > s->max_seen)
		s->max_seen = v;
}

/* Run for @ns, accounted at tick boundaries and at the end. */
static void sim_run(struct sim *s, u64 ns, u32 cap, u32 freq)
{
	u64 end = s->now + ns, next;

	while (s->now < end) {
		next = (s->now / TICK + 1) * TICK;
		if (next > end)
			next = end;
		hmpgov_util_account(&s->u, next, next - s->now, cap, freq, RATE);
		s->now = next;
		observe(s);
	}
}

static void sim_sleep(struct sim *s, u64 ns)
{
	u64 end = s->now + ns;

	while (s->now < end) {	/* readers look in while it sleeps */
		s->now += MS;
		if (s->now > end)
			s->now = end;
		observe(s);
	}
}

static u32 periodic(struct sim *s, u32 duty_pct, u64 period, u64 total,
		    u32 cap, u32 freq)
{
	u64 run = period * duty_pct / 100, t;

	for (t = 0; t < total; t += period) {
		sim_run(s, run, cap, freq);
		sim_sleep(s, period - run);
	}
	return hmpgov_util_avg(&s->u, s->now, RATE);
}

static void test_decay_table(void)
{
	TAP_CHECK(hmpgov_decay(1024, HL, RATE) == 512, "one half-life halves");
	TAP_CHECK(hmpgov_decay(1024, 3 * HL, RATE) == 128, "three half-lives: 1/8");
	TAP_CHECK(hmpgov_decay(1024, HL / 2, RATE) == 724, "half a half-life: 1/sqrt(2) (%u)",
		  hmpgov_decay(1024, HL / 2, RATE));
	TAP_CHECK(hmpgov_decay(1024, 100 * HL, RATE) == 0, "long sleep decays to 0");
	TAP_CHECK(hmpgov_decay(1024, 0, RATE) == 1024, "no time, no decay");
}

/*
 * Against 2^(-dt/h) from libm, for every half-life hmpgov accepts at its
 * ends and in between, and sleeps from 1 ns to 40 half-lives and beyond
 * 2^40 ns: at most 2.4e-4 of the value off, plus the truncation of each
 * of the three steps (shift, table, rest); one half-life halves exactly.
 */
#define LINEAR_ERR	0.00024	/* 1 - x ln 2 against 2^(-x), x < 1/32 */

static void test_decay_exact(void)
{
	static const u32 hl_ms[] = { 1, 7, 32, 100, 333, 1000 };
	const u32 v = 1U << 20;
	unsigned int i, bad = 0, n = 0;
	double worst = 0;
	u64 dt;

	for (i = 0; i < ARRAY_SIZE(hl_ms); i++) {
		u64 h = hl_ms[i] * MS;
		u64 rate = hmpgov_halflife_rate(h);

		for (dt = 1; dt < 40 * h; dt = dt * 9 / 8 + 1) {
			double want = v * exp2(-(double)dt / (double)h);
			double got = hmpgov_decay(v, dt, rate);
			double err = fabs(got - want) - 3;

			n++;
			if (err > LINEAR_ERR * want)
				bad++;
			if (want > 0 && err / want > worst)
				worst = err / want;
		}
		if (hmpgov_decay(v, h, rate) != v / 2)
			bad++;
	}
	TAP_CHECK(bad == 0,
		  "decay within %.1e of 2^(-dt/h) at %u points, half-lives 1..1000 ms (%u off, worst %.2e)",
		  LINEAR_ERR, n, bad, worst);
	TAP_CHECK(hmpgov_decay(v, 1ULL << 40, hmpgov_halflife_rate(1000 * MS)) == 0 &&
		  hmpgov_decay(v, ~0ULL, hmpgov_halflife_rate(1000 * MS)) == 0,
		  "sleeps of 2^40 ns and more decay to 0 with the longest half-life");
}

static void test_duty_cycles(void)
{
	static const u32 duty[] = { 10, 25, 50, 75 };
	struct sim s;
	unsigned int i;
	u32 v, want;

	for (i = 0; i < 4; i++) {
		sim_init(&s);
		v = periodic(&s, duty[i], 16 * MS, 2000 * MS, 1024, 1024);
		want = duty[i] * 1024 / 100;
		TAP_CHECK(v + 51 >= want && v <= want + 51,
			  "%u%% duty on a big CPU: avg %u, want %u +- 51", duty[i], v, want);
		sim_init(&s);
		v = periodic(&s, duty[i], 16 * MS, 2000 * MS, 446, 1024);
		want = duty[i] * 446 / 100;
		TAP_CHECK(v + 51 >= want && v <= want + 51,
			  "%u%% duty on a little CPU (446): avg %u, want %u +- 51",
			  duty[i], v, want);
	}
}

static void test_frequency(void)
{
	struct sim s;
	u32 full, half;

	sim_init(&s);
	full = periodic(&s, 50, 16 * MS, 2000 * MS, 1024, 1024);
	sim_init(&s);
	half = periodic(&s, 50, 16 * MS, 2000 * MS, 1024, 512);
	TAP_CHECK(half * 2 + 51 >= full && half * 2 <= full + 51,
		  "half the frequency halves the signal (%u vs %u)", half, full);
}

static void test_ramp(void)
{
	struct sim s;
	u64 phase, t, worst = 0;

	/* From idle to always busy, at every phase against the window. */
	for (phase = 0; phase < 16 * MS; phase += MS) {
		sim_init(&s);
		sim_sleep(&s, 200 * MS + phase);
		for (t = 0; t < 100 * MS; t += MS) {
			sim_run(&s, MS, 1024, 1024);
			if (hmpgov_util_read(&s.u, s.now, RATE) >= 768)
				break;
		}
		if (t + MS > worst)
			worst = t + MS;
	}
	TAP_CHECK(worst <= 16 * MS,
		  "idle to busy crosses 768 within 16 ms at every phase (worst %llu ms)",
		  worst / MS);
}

/*
 * As the kernel does it: accounted only at 4 ms ticks, read every 0.5 ms
 * in between with the running slice counted in.
 */
static void test_ramp_between_ticks(void)
{
	u64 phase, start, t, next, worst = 0, cross;
	struct sim s;
	u32 v;

	for (phase = 0; phase < 16 * MS; phase += MS / 2) {
		sim_init(&s);
		sim_sleep(&s, 200 * MS + phase);
		start = s.now;
		cross = 0;
		for (t = start; t < start + 100 * MS && !cross; t += MS / 2) {
			next = (s.now / TICK + 1) * TICK;
			if (t >= next) {
				hmpgov_util_account(&s.u, next, next - s.now,
						    1024, 1024, RATE);
				s.now = next;
			}
			v = hmpgov_util_read_running(&s.u, t, start, 1024, 1024, RATE);
			if (v >= 700)
				cross = t - start;
		}
		if (cross > worst)
			worst = cross;
	}
	/* docs/load-tracking.md: the worst phase crosses 700 at 14.0 ms */
	TAP_CHECK(worst && worst <= 14 * MS + MS / 2,
		  "read between ticks, idle to busy crosses 700 within 14.5 ms at every phase (worst %llu.%llu ms)",
		  worst / MS, worst % MS / (MS / 10));

	/* Reading a running task equals reading it after accounting. */
	sim_init(&s);
	periodic(&s, 30, 16 * MS, 500 * MS, 1024, 1024);
	start = s.now;
	sim_run(&s, 6 * MS, 446, 1024);
	v = hmpgov_util_read_running(&s.u, s.now + 3 * MS, start, 446, 1024, RATE);
	sim_run(&s, 3 * MS, 446, 1024);
	TAP_CHECK(v == hmpgov_util_read(&s.u, s.now, RATE),
		  "the running slice counts as if accounted (%u vs %u)", v,
		  hmpgov_util_read(&s.u, s.now, RATE));
}

/*
 * Read at any instant, a periodic task's average is centred on its duty
 * cycle whatever the phase of its bursts against the task's windows: a
 * reader (the tasks view, packing sums, down-moves) samples it at random
 * moments. Burst at @phase ms into each 16 ms window, read every 0.5 ms.
 */
static void test_avg_phase_blind(void)
{
	u64 phase, t, sum, n, run = 4 * MS, lo = 1024, hi = 0;
	struct sim s;
	u32 v;

	for (phase = 0; phase < 16 * MS; phase += MS) {
		sim_init(&s);
		sim_sleep(&s, phase);
		periodic(&s, 25, 16 * MS, 1000 * MS, 1024, 1024);
		sum = 0;
		n = 0;
		for (t = 0; t < 320 * MS; t += 16 * MS) {
			u64 end = s.now + 16 * MS;

			sim_run(&s, run, 1024, 1024);
			while (s.now < end) {
				s.now += MS / 2;
				v = hmpgov_util_avg(&s.u, s.now, RATE);
				sum += v;
				n++;
			}
		}
		if (sum / n < lo)
			lo = sum / n;
		if (sum / n > hi)
			hi = sum / n;
	}
	TAP_CHECK(lo + 26 >= 256 && hi <= 256 + 26,
		  "25%% duty read at any instant averages 256 +- 26 at every burst phase (%llu .. %llu)",
		  lo, hi);
}

static void test_small_stays_small(void)
{
	struct sim s;

	sim_init(&s);
	periodic(&s, 10, 16 * MS, 5000 * MS, 1024, 1024);
	TAP_CHECK(s.max_seen < 256,
		  "10%%/16 ms for 5 s never reaches 256 (max %u)", s.max_seen);
}

static void test_sleep_decay(void)
{
	struct sim s;
	u32 a, b;

	sim_init(&s);
	sim_run(&s, 500 * MS, 1024, 1024);
	sim_sleep(&s, 2 * 16 * MS);	/* recent demand is gone by now */
	a = hmpgov_util_read(&s.u, s.now, RATE);
	sim_sleep(&s, HL);
	b = hmpgov_util_read(&s.u, s.now, RATE);
	TAP_CHECK(b * 2 >= a * 90 / 100 && b * 2 <= a * 110 / 100,
		  "asleep, the signal halves in one half-life (%u -> %u)", a, b);
	sim_sleep(&s, 3 * HL / 2);
	a = hmpgov_util_read(&s.u, s.now, RATE);
	TAP_CHECK(a * 100 >= b * 35 * 90 / 100 && a * 100 <= b * 35 * 110 / 100,
		  "and follows 2^(-t/halflife) between windows (%u -> %u)", b, a);
}

static void test_priority_blind(void)
{
	/* The signal has no weight input at all: check it stays in range. */
	struct sim s;

	sim_init(&s);
	sim_run(&s, 5000 * MS, 1024, 1024);
	TAP_CHECK(hmpgov_util_read(&s.u, s.now, RATE) == 1024,
		  "always busy on the biggest CPU reads 1024");
	sim_sleep(&s, 10000 * MS);
	TAP_CHECK(hmpgov_util_read(&s.u, s.now, RATE) == 0,
		  "after a long sleep it reads 0");
}

int main(void)
{
	test_decay_table();
	test_decay_exact();
	test_duty_cycles();
	test_frequency();
	test_ramp();
	test_ramp_between_ticks();
	test_avg_phase_blind();
	test_small_stays_small();
	test_sleep_decay();
	test_priority_blind();
	return tap_done();
}
