#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: placement quality of the stock kernel, of the kernel's own
# energy-aware scheduling and of hmpgov, side by side, on the same
# workloads (selftests/guest/bench/placement.sh):
#   (a) stock kernel, capacity-blind machine (deb-6.12, sym-4)
#   (d) hmpgov on (a) with capacity=
#   (b) stock kernel, capacity-aware machine (deb-6.12, bl-2x2)
#   (e) hmpgov on (b) (steer=affinity)
#   (b') stock own 6.12 kernel (UCLAMP_TASK, ENERGY_MODEL), bl-2x2
#   (f) hmpgov steer=uclamp on (b')
#   (c) EAS on (b'): the test cpufreq driver (selftests/kmod) with its
#       energy model, schedutil on every policy, hmpgov unloaded
# Each group runs in one boot ((a)+(d), (b)+(e), (b')+(f)+(c)).
# Energy is an estimate from residency and the per-CPU power model of
# docs/benchmarks.md, for ranking only.
#
# usage: scripts/bench-placement.sh [--smoke | --report] [--only blind|aware|own]
#   --smoke:  one boot, (b'), (f) and (c), small_pack and ramp only;
#             proves the script works
#   --report: no runs; the table again from the last run's guest logs
#   --only:   just that boot ((a)+(d), (b)+(e) or (b')+(f)+(c))
#   SCENARIOS=small_pack,ramp (environment): only these scenarios
# The table is printed and kept in $HMPGOV_BUILD/bench-placement.txt. It
# exits non-zero when a boot did not finish, a figure is missing or
# garbled, or EAS was not active in (c) (the table says why).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Power model, mW per CPU: busy and idle, little and big.
P_LITTLE_BUSY=100
P_LITTLE_IDLE=5
P_BIG_BUSY=500
P_BIG_IDLE=15
SYM_CAPS=capacity=446,446,1024,1024
ALL_SCENARIOS=small_pack,two_big,mix,overload,step,ramp
OWN_LABELS="stock=(b') stock, own 6.12 (UCLAMP_TASK)|uclamp=(f) hmpgov steer=uclamp|eas=(c) EAS, own 6.12 (EM + schedutil)"

# run_setup KID MACHINE PARAMS "CONFIG=LABEL|CONFIG=LABEL...": one boot
# running the configurations in that order; prints their table lines and
# appends the ramp's per-level line to $levels. Returns 1 if a figure is
# missing or garbled, or EAS was not on for "eas".
run_setup() {
	local kid=$1 machine=$2 params=$3 labels=$4 configs log_file
	configs=$(printf '%s\n' "$labels" | tr '|' '\n' | sed 's/=.*//' | paste -sd, -)
	log_file=$HMPGOV_BUILD/logs/$kid-$machine-bench-placement.log
	if [ "$REPORT_ONLY" != 1 ]; then
		prepare_guest "$kid" >&2
		log "placement bench: $kid / $machine, $configs ${params:+($params)}"
		"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-placement HT_PART=bench-placement \
			"HT_CONFIGS=$configs" ${params:+"HT_PARAMS=${params// /+}"} \
			"HT_SCENARIOS=$SCENARIOS" HT_TIMEOUT=900 >/dev/null || true
	fi
	grep -aq '^@@BENCH done' "$log_file" || die "the benchmark did not finish (see $log_file)"
	grep -a '^@@BENCH ' "$log_file" | awk -v labels="$labels" -v scenarios="$SCENARIOS" \
		-v levels="$levels" -v pl="$P_LITTLE_BUSY" -v il="$P_LITTLE_IDLE" \
		-v pb="$P_BIG_BUSY" -v ib="$P_BIG_IDLE" '
		BEGIN { n = split(labels, l, "|")
			for (i = 1; i <= n; i++) { k = l[i]; sub(/=.*/, "", k); v = l[i]; sub(/^[^=]*=/, "", v)
				label[k] = v; order[i] = k }
			ns = split(scenarios, sc, ",") }
		function energy(lb, bb, span) {
			return (lb * pl + bb * pb + (nl * span - lb) * il + (nb * span - bb) * ib) / 1e6 }
		function work(lb, bb) { return (lb * lc + bb * bc) / 1024 / 1e6 }
		function bad(msg) { print "error: " msg > "/dev/stderr"; failed = 1 }
		function num(v) { return v ~ /^-?[0-9]+(\.[0-9]+)?$/ }
		function ms(v) { return v == 9999 ? "never" : v " ms" }
		function at(lv, t) { return lv == "never" ? "never" : lv " % +" t " ms" }
		$2 == "cpus" { nl = 0; nb = 0; side = ""
			for (i = 3; i <= NF; i++) { if ($i == "little" || $i == "big") side = $i
				else if (side == "little") nl++; else nb++ } }
		$2 == "caps" { lc = $3; bc = $NF }
		$2 == "res" { c = $4; seen[c, $3] = 1
			for (i = 5; i <= 14; i++) if ($i != "-" && !num($i)) bad("garbled figure: " $0)
			# per 5 s of trace: the window stretches when the host is busy
			k = $14 > 0 ? 5e6 / $14 : 0; e = energy($12, $13, $14) * k; w = work($12, $13) * k
			printf "%-34s %-10s %7s %7s %7s %6s %6s %6s %7.0f %7.0f\n", label[c], $3, $5, $6, $7, $8, $9, $10, e,
				(w > 0 ? e / w : 0) }
		$2 == "step" { c = $3; seen[c, "step"] = 1
			for (i = 4; i <= 7; i++) if (!num($i) || $i < 0) bad("garbled step figure: " $0)
			printf "%-34s %-10s up %s (worst %s), down %s (worst %s)\n", label[c], "step",
				ms($4), ms($5), ms($6), ms($7) }
		# the ramp row waits for its levels line, which says how much work was asked
		$2 == "ramp" { c = $3; seen[c, "ramp"] = 1
			if (!num($4) || !num($5) || !num($6) || !num($8) || !num($10) || !num($11) || !num($12) ||
			    !num($13) || $13 <= 0) bad("garbled ramp figure: " $0)
			rc = c; rl = $4; rb = $5; rm = $6; rf = at($7, $8); rs = at($9, $10)
			re = energy($11, $12, $13); rw = work($11, $12); rspan = $13 }
		$2 == "ramplevels" { lv = ""; hd = ""; asked = 0
			for (i = 4; i <= NF; i++) { split($i, kv, ":"); hd = hd sprintf(" %3s", kv[1]); lv = lv sprintf(" %3s", kv[2])
				asked += kv[1] / 100 }
			printf "%-34s%s\n", label[$3], lv >> levels
			print hd > (levels ".head")
			if ($3 != rc || NF < 4) { bad("ramp levels without a ramp: " $0); next }
			asked *= rspan / (NF - 3) / 1e6
			printf "%-34s %-10s little %5.1f %% big %5.1f %%; first big %s, settled %s; %d mig; work done %.0f %%; %.0f mJ, %.0f mJ/work\n",
				label[rc], "ramp", rl, rb, rf, rs, rm, 100 * rw / asked, re, (rw > 0 ? re / rw : 0) }
		$2 == "eas" { eas = $0; sub(/^@@BENCH eas /, "", eas); eason = ($3 == "on:") }
		$2 == "em" { em = em sprintf("\n    %s (cpus %s), kHz:uW", $3, $4); for (i = 5; i <= NF; i++) em = em " " $i }
		$2 == "freq" { fq = fq sprintf(" %s %s/%s", $3, $5, $6) }
		$2 == "error" { bad($0) }
		END { for (i = 1; i <= n; i++) { c = order[i]
				if (c == "eas") {
					if (!eason) { printf "%-34s EAS NOT active: %s\n", label[c], eas; failed = 1; continue }
					eas_note = sprintf("%s: %s", label[c], eas)
					if (em != "") eas_note = eas_note "\n  energy model the kernel holds:" em
					if (fq != "") eas_note = eas_note "\n  mean frequency, % of max, little/big:" fq
				}
				for (j = 1; j <= ns; j++) if (!((c, sc[j]) in seen)) bad("no " sc[j] " figure for " c) }
			if (eas_note != "") print eas_note > (levels ".eas")
			exit failed }'
}

REPORT_ONLY=0
SMOKE=0
ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) SMOKE=1 ;;
	--report) REPORT_ONLY=1 ;;
	--only) ONLY=${2:?--only needs blind, aware or own}; shift ;;
	*) die "usage: scripts/bench-placement.sh [--smoke | --report] [--only blind|aware|own]" ;;
	esac
	shift
done
case $ONLY in '' | blind | aware | own) ;; *) die "--only: blind, aware or own" ;; esac
[ "$SMOKE" = 1 ] && SCENARIOS=${SCENARIOS:-small_pack,ramp}
SCENARIOS=${SCENARIOS:-$ALL_SCENARIOS}
out=$HMPGOV_BUILD/bench-placement.txt
levels=$HMPGOV_BUILD/bench-placement.levels
mkdir -p "$HMPGOV_BUILD"
rm -f "$levels" "$levels.head" "$levels.eas"
# want NAME: this boot is part of the run
want() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }
{
	status=0
	printf '%-34s %-10s %7s %7s %7s %6s %6s %6s %7s %7s\n' configuration scenario \
		"small%L" "small%1" "busy%B" "mig/s" woken "idle" "mJ" "mJ/work"
	if [ "$SMOKE" = 1 ]; then
		run_setup own-6.12-arm64 bl-2x2 "" "$OWN_LABELS" || status=1
	else
		if want blind; then
			run_setup deb-6.12-arm64 sym-4 "$SYM_CAPS" \
				"stock=(a) stock, capacity-blind|affinity=(d) hmpgov, capacity=" || status=1
		fi
		if want aware; then
			run_setup deb-6.12-arm64 bl-2x2 "" \
				"stock=(b) stock, capacity-aware|affinity=(e) hmpgov (affinity)" || status=1
		fi
		if want own; then
			run_setup own-6.12-arm64 bl-2x2 "" "$OWN_LABELS" || status=1
		fi
	fi
	echo "small%L: small-task time on little CPUs; small%1: on their busiest CPU;"
	echo "busy%B: busy-task time on big CPUs; mig/s: small-task migrations per task per s;"
	echo "woken: CPUs that ran the tasks; idle: longest ms a CPU idled while a task waited;"
	echo "mJ: energy per 5 s of the traced window, model $P_LITTLE_BUSY/$P_LITTLE_IDLE mW little, $P_BIG_BUSY/$P_BIG_IDLE mW big (busy/idle);"
	echo "mJ/work: that per second of work at capacity 1024 (runtime x capacity / 1024)"
	echo "ramp: one task, 1 s at 10 % bound to a little CPU, then free, 10 % -> 90 % of a big CPU's"
	echo "work per 16 ms in 5 % steps of 0.5 s; its time on little/big CPUs, the level (and ms into"
	echo "it) of its first run on a big CPU and of the run from which it stayed there, migrations,"
	echo "the work it got done (runtime x capacity / 1024) against the work asked, energy over the 8.5 s"
	if [ -s "$levels" ]; then
		printf '\nramp: share (%%) of each level'"'"'s runtime on big CPUs, by duty level (%%)\n'
		printf '%-34s%s\n' "" "$(head -n 1 "$levels.head")"
		cat "$levels"
	fi
	if [ -s "$levels.eas" ]; then
		echo
		cat "$levels.eas"
	fi
	exit $status
} | tee "$out"
