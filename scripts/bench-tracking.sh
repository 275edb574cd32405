#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: the cost of hmpgov's load-tracking probes on a context-switch
# heavy workload, module unloaded against loaded, alternated in one boot
# (selftests/guest/bench/tracking.sh). Prints every round and the ratio of
# the medians. Run it on an otherwise idle host: the guest is emulated.
#
# usage: scripts/bench-tracking.sh [KID [MACHINE [ROUNDS [SECONDS]]]]
#   defaults: deb-6.12-arm64 bl-2x2 9 2
set -euo pipefail
source "$(dirname "$0")/lib.sh"
kid=${1:-deb-6.12-arm64}
machine=${2:-bl-2x2}
rounds=${3:-9}
secs=${4:-2}

prepare_guest "$kid"
log "benchmarking the tracking probes on $kid / $machine ($rounds rounds of ${secs}s)"
"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-tracking \
	"HT_ROUNDS=$rounds" "HT_SECS=$secs" >/dev/null || true
log_file=$HMPGOV_BUILD/logs/$kid-$machine.log
grep -aq '^@@BENCH median loaded [0-9]' "$log_file" ||
	die "the benchmark did not finish (see $log_file)"
grep -a '^@@BENCH round ' "$log_file" | sed 's/^@@BENCH /  /; s/$/ ns per context switch/'
grep -a '^@@BENCH ' "$log_file" | awk -v kid="$kid" -v m="$machine" '
	$2 == "median" { med[$3] = $4 }
	$2 == "round" { ns[$3, $4] = $5; if ($3 > n) n = $3 }
	$2 == "stats" { for (i = 3; i < NF; i += 2) if ($i == "events_sched_switch") sw = $(i + 1) }
	END {
		for (r = 1; r <= n; r++) ratio[r] = ns[r, "loaded"] / ns[r, "unloaded"]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (ratio[j] < ratio[i]) { t = ratio[i]; ratio[i] = ratio[j]; ratio[j] = t }
		printf "probe cost on %s / %s, ns per context switch:\n", kid, m
		printf "  medians: unloaded %d, loaded %d: ratio %.3f (%+d ns per switch)\n",
			med["unloaded"], med["loaded"], med["loaded"] / med["unloaded"],
			med["loaded"] - med["unloaded"]
		printf "  median of the %d per-round ratios loaded/unloaded: %.3f (range %.3f .. %.3f)\n",
			n, ratio[int((n + 1) / 2)], ratio[1], ratio[n]
		printf "  (last loaded round: %d sched_switch events seen)\n", sw
	}'
