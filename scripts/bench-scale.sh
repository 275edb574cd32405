#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: hmpgov's cost per context switch against the number of
# threads it tracks (10, 100, 1,000, 5,000) and the number of CPUs (the
# 4-CPU bl-2x2 and the 8-CPU bl-4x4), one boot per machine
# (selftests/guest/bench/scale.sh). The goal is a flat line.
#
# Per machine and population N, two measures of the cost per event:
#  - pingpong's ns per context switch, loaded minus unloaded, per pair of
#    runs (ABBA order, the same N sleeping threads present in both), its
#    median and quartiles: the whole cost as a workload sees it;
#  - the time of each call of hmpgov's sched_switch and
#    sched_stat_runtime probes (the two events of every switch), measured
#    in the guest by the kernel's function_graph tracer during a loaded
#    pingpong run (mode=off: tracking only): the median per call, free of
#    the emulator's run-to-run noise but with the tracer's own entry/exit
#    cost in it (a traced call of hmpgov_task_write_begin, two stores and
#    a barrier, is also in the log; under TCG it took longer than the
#    whole sched_switch probe, so it is no measure of the tracer's cost
#    and nothing is subtracted);
# and the steering worker's time (function_graph too) as ms per second.
# tracked/managed/dropped are hmpgov's stats while loaded (the smallest
# tracked and managed, the largest dropped over the loaded runs): they
# prove the population was in the table and steered.
#
# usage: scripts/bench-scale.sh [KID]              full run (deb-6.12-arm64)
#        scripts/bench-scale.sh --smoke            bl-2x2, 10 and 1000 threads,
#                                                  1 pair of 0.3 s (make check)
#        scripts/bench-scale.sh --report [KID]     the table again from the
#                                                  last run's logs
#   SCALE_MACHINES, SCALE_COUNTS, SCALE_PAIRS, SCALE_SECS override the
#   full run's bl-2x2,bl-4x4 / 10,100,1000,5000 / 8 / 0.5.
# The table is printed and kept in $HMPGOV_BUILD/bench-scale.txt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

report_only=0
machines=${SCALE_MACHINES:-bl-2x2,bl-4x4}
counts=${SCALE_COUNTS:-10,100,1000,5000}
pairs=${SCALE_PAIRS:-6}
steer_pairs=${SCALE_STEER_PAIRS:-2}
secs=${SCALE_SECS:-0.5}
case ${1:-} in
--smoke) shift; machines=bl-2x2 counts=10,1000 pairs=1 steer_pairs=1 secs=0.3 ;;
--report) shift; report_only=1 ;;
esac
kid=${1:-deb-6.12-arm64}

[ "$report_only" = 1 ] || prepare_guest "$kid"
# shellcheck disable=SC1090
source "$HMPGOV_KERNELS/$kid.env"
out=$HMPGOV_BUILD/bench-scale.txt
rows=()
for machine in ${machines//,/ }; do
	kept=$HMPGOV_BUILD/logs/bench-scale-$kid-$machine.log
	if [ "$report_only" = 0 ]; then
		log "scale of hmpgov's cost on $kid / $machine: threads $counts, $pairs pairs of ${secs}s"
		"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-scale HT_PART=bench-scale \
			"HT_COUNTS=$counts" "HT_PAIRS=$pairs" "HT_STEER_PAIRS=$steer_pairs" "HT_SECS=$secs" \
			HT_TIMEOUT=$((300 + (pairs + steer_pairs) * 60 * $(echo "$counts" | tr , "\n" | wc -l))) >/dev/null || true
		cp "$HMPGOV_BUILD/logs/$kid-$machine-bench-scale.log" "$kept"
	fi
	[ -f "$kept" ] || die "no log of a run ($kept)"
	grep -aq '^@@BENCH done' "$kept" || die "the benchmark did not finish on $machine (see $kept)"
	rows+=("$kept")
done
when=$(date -u -r "${rows[0]}" +%F)

table() { # LOG MACHINE off|steer
	grep -a '^@@BENCH ' "$1" | awk -v m="$2" -v want="$3" '
	function sortv(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	}
	function q(a, n, p,   h, i) {
		h = (n - 1) * p + 1; i = int(h)
		return i >= n ? a[n] : a[i] + (h - i) * (a[i + 1] - a[i])
	}
	function row(N,   i, d, r, u, l, k, w) {
		k = np[N]
		if (!k || !((N, "probe_switch") in calls) || !((N, "probe_stat_runtime") in calls) ||
		    calls[N, "probe_switch"] == 0 || calls[N, "probe_stat_runtime"] == 0 || trk[N] == "" ||
		    (want == "steer" && !calls[N, "steer_work"])) {
			bad = 1; return
		}
		for (i = 1; i <= k; i++) {
			d[i] = L[N, i] - U[N, i]; r[i] = L[N, i] / U[N, i]; u[i] = U[N, i]; l[i] = L[N, i]
		}
		sortv(d, k); sortv(r, k); sortv(u, k); sortv(l, k)
		if (want == "off") {
			# probe time per context switch, the tracer cost in it:
			# one sched_switch call, and stat_runtime calls as seen
			per = calls[N, "probe_stat_runtime"] / calls[N, "probe_switch"]
			per = med[N, "probe_switch"] + med[N, "probe_stat_runtime"] * per
			printf "%-7s %4d %7d %7d %7d %8d %8d %+7d %+7d..%+-7d %6.3f %6d %6d %6d %5.1f\n",
				m, cpus, N, trk[N], drp[N], q(u, k, 0.5), q(l, k, 0.5), q(d, k, 0.5),
				q(d, k, 0.25), q(d, k, 0.75), q(r, k, 0.5), med[N, "probe_switch"],
				med[N, "probe_stat_runtime"], per, 100 * per / q(u, k, 0.5)
		} else {
			w = calls[N, "steer_work"] * mean[N, "steer_work"] / 1e6 / tsecs
			printf "%-7s %4d %7d %7d %7.1f %8d %8d %6.3f %6d %6d %6.0f %8.2f %7.1f\n",
				m, cpus, N, mng[N], settle[N] / 10, q(u, k, 0.5), q(l, k, 0.5), q(r, k, 0.5),
				med[N, "probe_switch"], med[N, "probe_stat_runtime"],
				calls[N, "steer_work"] / tsecs, mean[N, "steer_work"] / 1e6, w
		}
	}
	$2 == "error" { bad = 1; print "error:", m ":", $0 > "/dev/stderr" }
	$2 == "setup" { cpus = $4; tsecs = $14 }
	$2 == "population" { order[++nn] = $3; if ($5 != $3 + 1) bad = 1 }
	$2 == "pair" && $3 == want { # the block medians; the means stay in the log
		if ($8 !~ /^[0-9]+$/ || $10 !~ /^[0-9]+$/ || $8 == 0) { bad = 1; next }
		k = ++np[$4]; U[$4, k] = $8; L[$4, k] = $10
	}
	$2 == "tracked" && $3 == want {
		if (trk[$4] == "" || $6 < trk[$4]) trk[$4] = $6
		if (mng[$4] == "" || $7 < mng[$4]) mng[$4] = $7
		if ($8 > drp[$4]) drp[$4] = $8
		if ($11 > settle[$4]) settle[$4] = $11
	}
	$2 == "probe" && $3 == want { calls[$4, $5] = $6; med[$4, $5] = $7; mean[$4, $5] = $8 }
	END {
		for (i = 1; i <= nn; i++) row(order[i])
		if (bad || nn == 0) { print "error: missing or garbled figures on " m > "/dev/stderr"; exit 1 }
	}'
}

if ! {
	printf 'hmpgov cost against tracked threads, %s (kernel %s, %s), run of %s\n' \
		"$kid" "$KVER" "$PKGVER" "$when"
	grep -a -m 1 '^@@BENCH setup ' "${rows[0]}" | awk '{ printf "pingpong: ns per context switch, median of 20 ms blocks per run; probes: function_graph, one loaded %s s run\n", $14 }'
	echo
	echo "tracking only (mode=off): per-event cost; $(grep -a -m 1 '^@@BENCH setup ' "${rows[0]}" | awk '{ print $8 }') pairs of $(grep -a -m 1 '^@@BENCH setup ' "${rows[0]}" | awk '{ print $10 }') s runs per row, ABBA"
	printf '%-7s %4s %7s %7s %7s %8s %8s %7s %16s %6s %6s %6s %6s %5s\n' machine cpus \
		threads tracked dropped "U ns/sw" "L ns/sw" "diff" "diff IQR" ratio "sw ns" "rt ns" \
		"pr/sw" "pr %"
	for f in "${rows[@]}"; do
		m=${f##*/bench-scale-"$kid"-}
		table "$f" "${m%.log}" off || exit 1
	done
	echo
	echo "default load (mode=steer): steady state once the worker stopped moving tasks"
	printf '%-7s %4s %7s %7s %7s %8s %8s %6s %6s %6s %6s %8s %7s\n' machine cpus \
		threads managed settle "U ns/sw" "L ns/sw" ratio "sw ns" "rt ns" "wk/s" "ms/pass" "wk ms/s"
	for f in "${rows[@]}"; do
		m=${f##*/bench-scale-"$kid"-}
		table "$f" "${m%.log}" steer || exit 1
	done
	echo
	echo "threads: sleeping threads present (sleepers(1), woken once after each insmod), besides"
	echo "the shell and pingpong; tracked, dropped, managed: hmpgov's tasks_tracked, tasks_dropped,"
	echo "managed while loaded (max_tasks=16384; the least tracked and managed, the most dropped"
	echo "over the loaded runs); settle: the longest wait in s until the worker stopped moving tasks;"
	echo "U/L ns/sw: median over the runs of pingpong's ns per switch, unloaded/loaded; diff: median"
	echo "of the per-pair differences L - U, and their quartiles; ratio: median per-pair L/U;"
	echo "sw ns, rt ns: median time of one call of the sched_switch and sched_stat_runtime probes"
	echo "(function_graph: its own entry/exit cost included, at most sw ns); pr/sw: probe time per"
	echo "switch, sw + rt x stat_runtime calls per sched_switch call; pr %: that over U ns/sw;"
	echo "wk/s: steering worker passes per s;"
	echo "ms/pass: their mean time; wk ms/s: the worker's time per second (ms; 1000 = one CPU)."
} | tee "$out"; then
	die "no usable figures (see ${rows[*]})"
fi
