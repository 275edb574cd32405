#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: the overhead of hmpgov (default load: the tracking probes and
# the steering worker) on a context-switch-heavy workload, pingpong (two
# processes on one CPU passing a byte over pipes), module unloaded against
# loaded, alternated in one boot (selftests/guest/bench/tracking.sh):
# PAIRS pairs of short runs in ABBA order (U L, L U, U L, ...).
#
# Prints every pair, and over the per-pair ratios loaded/unloaded: the
# median, the quartiles (IQR), the range, a distribution-free 95 %
# confidence interval of the median (order statistics of the binomial),
# and whether the goal "cost <= 1 %" is met, not met, or undecidable at
# the emulator's noise (the interval holds both 1.000 and 1.010). Run it
# on an otherwise idle host: the guest is emulated.
#
# usage: scripts/bench-tracking.sh [KID [MACHINE [PAIRS [SECONDS]]]]
#        scripts/bench-tracking.sh --smoke    2 pairs of 0.5 s (make check)
#        scripts/bench-tracking.sh --report [KID [MACHINE]]
#                                 the table again from the last run's log
#   defaults: deb-6.12-arm64 bl-2x2 30 0.5
#   TRACKING_SETTLE=s   wait after each insmod/rmmod (guest default 1)
#   TRACKING_PROFILE=n  first, n runs of 0.1 s right after an insmod and
#                       an rmmod, twice ("@@BENCH profile" in the log)
# The table is printed and kept in $HMPGOV_BUILD/bench-tracking.txt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

report_only=0
case ${1:-} in
--smoke) shift; set -- deb-6.12-arm64 bl-2x2 2 0.5 ;;
--report) shift; report_only=1 ;;
esac
kid=${1:-deb-6.12-arm64}
machine=${2:-bl-2x2}
pairs=${3:-30}
secs=${4:-0.5}
kept=$HMPGOV_BUILD/logs/bench-tracking-$kid-$machine.log

if [ "$report_only" = 0 ]; then
	prepare_guest "$kid"
	log "overhead of hmpgov on $kid / $machine: $pairs pairs of ${secs}s runs"
	"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-tracking HT_PART=bench-tracking \
		"HT_PAIRS=$pairs" "HT_SECS=$secs" ${TRACKING_SETTLE:+"HT_SETTLE=$TRACKING_SETTLE"} \
		${TRACKING_PROFILE:+"HT_PROFILE=$TRACKING_PROFILE"} \
		HT_TIMEOUT=$((300 + pairs * 20)) >/dev/null || true
	cp "$HMPGOV_BUILD/logs/$kid-$machine-bench-tracking.log" "$kept"
fi
[ -f "$kept" ] || die "no log of a run ($kept)"
grep -aq '^@@BENCH done ' "$kept" || die "the benchmark did not finish (see $kept)"
# shellcheck disable=SC1090
source "$HMPGOV_KERNELS/$kid.env"
when=$(date -u -r "$kept" +%F)

out=$HMPGOV_BUILD/bench-tracking.txt
if ! grep -a '^@@BENCH ' "$kept" | awk -v kid="$kid" -v m="$machine" -v kver="$KVER" \
	-v pkg="$PKGVER" -v when="$when" '
	function sortv(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	}
	function q(a, p,   h, i) { # quantile p of a[1..n] (sorted), linear
		h = (n - 1) * p + 1; i = int(h)
		return i >= n ? a[n] : a[i] + (h - i) * (a[i + 1] - a[i])
	}
	# summary NAME U L: the per-pair ratios L/U, their median, IQR,
	# range and 95 % interval of the median; the verdict on the goal.
	function summary(name, U, L,   r, su, sl, i, k, p, cum, lo, hi, slower, verdict) {
		for (i = 1; i <= n; i++) { r[i] = L[i] / U[i]; su[i] = U[i]; sl[i] = L[i]; slower += L[i] > U[i] }
		sortv(r, n); sortv(su, n); sortv(sl, n)
		printf "\n%s:\n", name
		printf "  per-pair ratio loaded/unloaded: median %.3f, IQR %.3f .. %.3f (width %.3f), range %.3f .. %.3f\n",
			q(r, 0.5), q(r, 0.25), q(r, 0.75), q(r, 0.75) - q(r, 0.25), r[1], r[n]
		printf "  loaded slower in %d of %d pairs; medians of the runs: unloaded %d, loaded %d ns (%+d ns per switch)\n",
			slower, n, q(su, 0.5), q(sl, 0.5), q(sl, 0.5) - q(su, 0.5)
		# 95 % interval of the median: the largest k with
		# P(Binomial(n, 1/2) <= k - 1) <= 0.025 gives [r(k), r(n-k+1)].
		p = 0.5 ^ n; cum = 0; k = 0
		for (i = 0; i < n; i++) { cum += p; if (cum > 0.025) break; k = i + 1; p = p * (n - i) / (i + 1) }
		if (k == 0) {
			printf "  95 %% interval of the median ratio: none with %d pairs (6 at least)\n", n
			verdict = "undecidable: too few pairs"
		} else {
			lo = r[k]; hi = r[n - k + 1]
			printf "  95 %% interval of the median ratio (pairs ranked %d and %d): %.3f .. %.3f\n", k, n - k + 1, lo, hi
			if (hi <= 1.01) verdict = "met: the whole interval is at or under 1.010"
			else if (lo > 1.01) verdict = "NOT met: the whole interval is over 1.010"
			else verdict = sprintf("undecidable at this noise: the interval holds 1.010%s",
				lo <= 1.0 ? " and 1.000" : "")
		}
		printf "  goal, cost at most 1 %%: %s\n", verdict
	}
	$2 == "setup" { cpu = $6; secs = $10; block = $12 }
	$2 == "error" { err = 1; print "error:", $0 > "/dev/stderr" }
	$2 == "pair" {
		if ($5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/ || $7 !~ /^[0-9]+$/ || $8 !~ /^[0-9]+$/ ||
		    $5 == 0 || $6 == 0) { bad = 1; next }
		n++; ord[n] = $4; u[n] = $5; ub[n] = $6; l[n] = $7; lb[n] = $8
	}
	$2 == "stats" { for (i = 3; i < NF; i += 2) if ($i == "events_sched_switch") sw = $(i + 1) }
	END {
		if (err || bad || n == 0) { print "error: missing or garbled figures" > "/dev/stderr"; exit 1 }
		printf "hmpgov overhead, pingpong, %s / %s (kernel %s, %s), run of %s\n", kid, m, kver, pkg, when
		printf "%d pairs of %s s runs on CPU %s, ABBA order; ns per context switch:\n", n, secs, cpu
		printf "the mean of each run, and the median of its %s ms blocks\n\n", block
		printf "%4s %5s %9s %9s %7s   %9s %9s %7s\n", "pair", "order", "U mean", "L mean", "ratio",
			"U block", "L block", "ratio"
		for (i = 1; i <= n; i++)
			printf "%4d %5s %9d %9d %7.3f   %9d %9d %7.3f\n", i, ord[i], u[i], l[i], l[i] / u[i],
				ub[i], lb[i], lb[i] / ub[i]
		summary("median of " block " ms blocks per run", ub, lb)
		summary("mean of each run", u, l)
		printf "\n(last loaded run: %d sched_switch events seen by hmpgov)\n", sw
	}' | tee "$out"; then
	die "no usable figures in $kept"
fi
