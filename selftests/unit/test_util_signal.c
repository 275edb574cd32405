// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the utilization signal (module/util_signal.c): a
 * simulated task runs with a given duty cycle on a CPU of a given
 * capacity and frequency, accounted as the kernel accounts it (at every
 * 4 ms tick while running and when it stops).
 */
#include "hmpgov/util_signal.h"
#include "tap.h"

#define MS	1000000ULL
#define TICK	(4 * MS)
#define HL	(32 * MS)

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
	u32 v = hmpgov_util_read(&s->u, s->now, HL);

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
		hmpgov_util_account(&s->u, next, next - s->now, cap, freq, HL);
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
	return hmpgov_util_avg(&s->u, s->now, HL);
}

static void test_decay_table(void)
{
	TAP_CHECK(hmpgov_decay(1024, HL, HL) == 512, "one half-life halves");
	TAP_CHECK(hmpgov_decay(1024, 3 * HL, HL) == 128, "three half-lives: 1/8");
	TAP_CHECK(hmpgov_decay(1024, HL / 2, HL) == 724, "half a half-life: 1/sqrt(2) (%u)",
		  hmpgov_decay(1024, HL / 2, HL));
	TAP_CHECK(hmpgov_decay(1024, 100 * HL, HL) == 0, "long sleep decays to 0");
	TAP_CHECK(hmpgov_decay(1024, 0, HL) == 1024, "no time, no decay");
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
			if (hmpgov_util_read(&s.u, s.now, HL) >= 768)
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
						    1024, 1024, HL);
				s.now = next;
			}
			v = hmpgov_util_read_running(&s.u, t, start, 1024, 1024, HL);
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
	v = hmpgov_util_read_running(&s.u, s.now + 3 * MS, start, 446, 1024, HL);
	sim_run(&s, 3 * MS, 446, 1024);
	TAP_CHECK(v == hmpgov_util_read(&s.u, s.now, HL),
		  "the running slice counts as if accounted (%u vs %u)", v,
		  hmpgov_util_read(&s.u, s.now, HL));
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
				v = hmpgov_util_avg(&s.u, s.now, HL);
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
	a = hmpgov_util_read(&s.u, s.now, HL);
	sim_sleep(&s, HL);
	b = hmpgov_util_read(&s.u, s.now, HL);
	TAP_CHECK(b * 2 >= a * 90 / 100 && b * 2 <= a * 110 / 100,
		  "asleep, the signal halves in one half-life (%u -> %u)", a, b);
	sim_sleep(&s, 3 * HL / 2);
	a = hmpgov_util_read(&s.u, s.now, HL);
	TAP_CHECK(a * 100 >= b * 35 * 90 / 100 && a * 100 <= b * 35 * 110 / 100,
		  "and follows 2^(-t/halflife) between windows (%u -> %u)", b, a);
}

static void test_priority_blind(void)
{
	/* The signal has no weight input at all: check it stays in range. */
	struct sim s;

	sim_init(&s);
	sim_run(&s, 5000 * MS, 1024, 1024);
	TAP_CHECK(hmpgov_util_read(&s.u, s.now, HL) == 1024,
		  "always busy on the biggest CPU reads 1024");
	sim_sleep(&s, 10000 * MS);
	TAP_CHECK(hmpgov_util_read(&s.u, s.now, HL) == 0,
		  "after a long sleep it reads 0");
}

int main(void)
{
	test_decay_table();
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
