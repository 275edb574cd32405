#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: placement quality of the stock kernel and of hmpgov, side by
# side, on the same workloads (selftests/guest/bench/placement.sh):
#   (a) stock kernel, capacity-blind machine (deb-6.12, sym-4)
#   (d) hmpgov on (a) with capacity=
#   (b) stock kernel, capacity-aware machine (deb-6.12, bl-2x2)
#   (e) hmpgov on (b) (steer=affinity)
#   (b') stock own 6.12 kernel (UCLAMP_TASK), bl-2x2
#   (f) hmpgov steer=uclamp on (b')
# Each pair runs in one boot. Energy is an estimate from residency and the
# per-CPU power model of docs/benchmarks.md, for ranking only.
#
# usage: scripts/bench-placement.sh [--smoke | --report]
#   --smoke:  (b) and (e), small_pack only; proves the script works
#   --report: no runs; the table again from the last run's guest logs
# The table is printed and kept in $HMPGOV_BUILD/bench-placement.txt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Power model, mW per CPU: busy and idle, little and big.
P_LITTLE_BUSY=100
P_LITTLE_IDLE=5
P_BIG_BUSY=500
P_BIG_IDLE=15
SYM_CAPS=capacity=446,446,1024,1024

# setup LABEL_STOCK LABEL_HMPGOV KID MACHINE CONFIGS [PARAMS]
run_setup() {
	local kid=$3 machine=$4 configs=$5 params=${6:-} log_file
	log_file=$HMPGOV_BUILD/logs/$kid-$machine.log
	if [ "$REPORT_ONLY" != 1 ]; then
		prepare_guest "$kid" >&2
		log "placement bench: $kid / $machine, $configs ${params:+($params)}"
		"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-placement \
			"HT_CONFIGS=$configs" ${params:+"HT_PARAMS=${params// /+}"} \
			${SCENARIOS:+"HT_SCENARIOS=$SCENARIOS"} HT_TIMEOUT=900 >/dev/null || true
	fi
	grep -aq '^@@BENCH done' "$log_file" || die "the benchmark did not finish (see $log_file)"
	grep -a '^@@BENCH ' "$log_file" | awk -v l1="$1" -v l2="$2" \
		-v pl="$P_LITTLE_BUSY" -v il="$P_LITTLE_IDLE" -v pb="$P_BIG_BUSY" -v ib="$P_BIG_IDLE" '
		$2 == "cpus" { nl = 0; nb = 0; side = ""
			for (i = 3; i <= NF; i++) { if ($i == "little" || $i == "big") side = $i
				else if (side == "little") nl++; else nb++ } }
		$2 == "caps" { lc = $3; bc = $NF }
		$2 == "res" { label = $4 == "stock" ? l1 : l2
			span = $14; e = ($12 * pl + $13 * pb + (nl * span - $12) * il + (nb * span - $13) * ib) / 1e6
			work = ($12 * lc + $13 * bc) / 1024 / 1e6
			printf "%-34s %-10s %7s %7s %7s %6s %6s %6s %7.0f %7.0f\n", label, $3, $5, $6, $7, $8, $9, $10, e,
				(work > 0 ? e / work : 0) }
		function ms(v) { return v == 9999 ? "never" : v " ms" }
		$2 == "step" { label = $3 == "stock" ? l1 : l2
			printf "%-34s %-10s up %s (worst %s), down %s (worst %s)\n", label, "step",
				ms($4), ms($5), ms($6), ms($7) }
		$2 == "error" { print "error:", $0 > "/dev/stderr" }'
}

REPORT_ONLY=0
[ "${1:-}" = --report ] && REPORT_ONLY=1
out=$HMPGOV_BUILD/bench-placement.txt
mkdir -p "$HMPGOV_BUILD"
{
	printf '%-34s %-10s %7s %7s %7s %6s %6s %6s %7s %7s\n' configuration scenario \
		"small%L" "small%1" "busy%B" "mig/s" woken "idle" "mJ" "mJ/work"
	if [ "${1:-}" = --smoke ]; then
		SCENARIOS=small_pack
		run_setup "(b) stock, capacity-aware" "(e) hmpgov (affinity)" deb-6.12-arm64 bl-2x2 stock,affinity
	else
		run_setup "(a) stock, capacity-blind" "(d) hmpgov, capacity=" deb-6.12-arm64 sym-4 stock,affinity "$SYM_CAPS"
		run_setup "(b) stock, capacity-aware" "(e) hmpgov (affinity)" deb-6.12-arm64 bl-2x2 stock,affinity
		run_setup "(b') stock, own 6.12 (UCLAMP_TASK)" "(f) hmpgov steer=uclamp" own-6.12-arm64 bl-2x2 stock,uclamp
		echo "(c) EAS (energy model + schedutil): not measured yet"
	fi
	echo "small%L: small-task time on little CPUs; small%1: on their busiest CPU;"
	echo "busy%B: busy-task time on big CPUs; mig/s: small-task migrations per task per s;"
	echo "woken: CPUs that ran the tasks; idle: longest ms a CPU idled while a task waited;"
	echo "mJ: energy over the 5 s window, model $P_LITTLE_BUSY/$P_LITTLE_IDLE mW little, $P_BIG_BUSY/$P_BIG_IDLE mW big (busy/idle);"
	echo "mJ/work: that per second of work at capacity 1024 (runtime x capacity / 1024)"
} | tee "$out"
