# SPDX-License-Identifier: GPL-2.0
# Real speed difference (HT_MODE=bench-speed): the host throttles the
# little vCPUs' QEMU threads to their capacity (scripts/bench-speed.sh,
# before the guest starts), and this script times fixed amounts of work:
#   - the check: the same work pinned to a little and to a big CPU, each
#     alone, then one task pinned to every CPU at once;
#   - heavy: 2 tasks of HT_HEAVY_MS ms of work each (as a big CPU does it
#     alone), started together; completion time of the slower;
#   - mix: the same 2 heavy tasks while 3 periodic tasks each do 10 % of
#     a 16 ms period's worth of work (big-CPU speed) every 16 ms; the
#     heavy tasks' completion time and the small jobs' response times.
# hmpgov unloaded ("stock") and loaded ("hmpgov", with HT_PARAMS, + for
# spaces) alternate in one boot, HT_ROUNDS rounds (odd rounds stock first).
#
# Prints for the host (all times in ms unless named _us):
#   @@BENCH cpus little L... big B...  /  @@BENCH caps C...
#   @@BENCH ipms N                      iterations per ms of a big CPU alone
#   @@BENCH pinned I little|big CPU MS     (I = 1..3)
#   @@BENCH pinned4 MS_CPU0 MS_CPU1 ...
#   @@BENCH heavy ROUND CONFIG MS_TASK0 MS_TASK1 MAX_MS
#   @@BENCH mix ROUND CONFIG MS_TASK0 MS_TASK1 MAX_MS JOBS P50_US P95_US MAX_US LATE
#   @@BENCH phase NAME begin|end        (the host samples its vCPU threads)
#   @@BENCH done
. ./lib.sh
rounds=${HT_ROUNDS:-5}
heavy_ms=${HT_HEAVY_MS:-2000}
check_ms=${HT_CHECK_MS:-400}
params=$(echo "${HT_PARAMS:-}" | tr + ' ')
nsmall=3

fail() { echo "@@BENCH error: $*"; echo "@@BENCH done"; exit 1; }
phase() { echo "@@BENCH phase $1 $2"; }

# shellcheck disable=SC2086
learn_clusters $params || fail "insmod $params failed"
echo "@@BENCH cpus little $LITTLE big $BIG"
echo "@@BENCH caps $CAPS"
lcpu=$(echo "$LITTLE" | awk '{ print $1 }')
bcpu=$(echo "$BIG" | awk '{ print $NF }')

# the best of three calibrations: the one the host disturbed least
ipms=$(for i in 1 2 3; do work calib "$bcpu" 200; done | awk '$2 > m { m = $2 } END { print m + 0 }')
[ "$ipms" -gt 0 ] || fail "calibration failed"
echo "@@BENCH ipms $ipms"
check_iters=$((ipms * check_ms))
heavy_iters=$((ipms * heavy_ms))
# 10 % of a 16 ms period, as a big CPU does it
small_iters=$((ipms * 16 / 10))

# The check: the same work on a little and on a big CPU, each alone,
# alternated three times.
for i in 1 2 3; do
	for side in little big; do
		if [ "$side" = little ]; then c=$lcpu; else c=$bcpu; fi
		phase "pinned-$side-$i" begin
		ms=$(work run "$c" "$check_iters" | awk '{ print $2 }')
		phase "pinned-$side-$i" end
		echo "@@BENCH pinned $i $side $c ${ms:-0}"
	done
done

phase pinned-all begin
c=0
while [ "$c" -lt "$(ncpus)" ]; do
	work run "$c" "$check_iters" >/tmp/pin.$c &
	c=$((c + 1))
done
wait
phase pinned-all end
line=
c=0
while [ "$c" -lt "$(ncpus)" ]; do
	line="$line $(awk '{ print $2 }' /tmp/pin.$c)"
	c=$((c + 1))
done
echo "@@BENCH pinned4$line"

use() {
	module_loaded && unload >/dev/null
	[ "$1" = stock ] && return 0
	# shellcheck disable=SC2086
	load $params >/dev/null || fail "insmod $params failed"
}

# heavy_line FILE: "MS_TASK0 MS_TASK1 MAX_MS" from work heavy's output
heavy_line() {
	awk '$1 == "task" { t[$2] = $4 } $1 == "max_ms" { m = $2 }
		END { printf "%s %s %s\n", t[0], t[1], m }' "$1"
}

# where ROUND CONFIG: with HT_TRACE=1, where the heavy tasks of the run
# traced last ran ("@@BENCH where ..." lines: runtimes(1) per task, and
# hmpgov's class and place events for them, ms after the trace began)
where() {
	[ "${HT_TRACE:-0}" = 1 ] || return 0
	trace_end /tmp/trace.txt
	_pids=$(awk '$1 == "task" { printf "%s ", $6 }' /tmp/heavy.out)
	# shellcheck disable=SC2086
	runtimes $_pids </tmp/trace.txt | sed "s/^/@@BENCH where $1 $2 /"
	awk -v pids=" $_pids " '
		NR == 1 || t0 == "" { if (match($0, / [0-9]+\.[0-9]+: /)) t0 = substr($0, RSTART + 1, RLENGTH - 3) }
		/hmpgov_(class|place):/ && match($0, /pid=[0-9]+/) && index(pids, " " substr($0, RSTART + 4, RLENGTH - 4) " ") {
			match($0, / [0-9]+\.[0-9]+: /); t = substr($0, RSTART + 1, RLENGTH - 3)
			sub(/^.*hmpgov_/, "hmpgov_"); printf "@@BENCH where %s %s +%.1f ms %s\n", r, c, (t - t0) * 1000, $0
		}' r="$1" c="$2" /tmp/trace.txt
}

trace_start() {
	[ "${HT_TRACE:-0}" = 1 ] || return 0
	[ -d $TR/events/hmpgov ] && echo 1 >$TR/events/hmpgov/enable
	trace_begin
}

heavy() { # round config
	trace_start
	phase "heavy-$1-$2" begin
	work heavy 2 "$heavy_iters" >/tmp/heavy.out
	phase "heavy-$1-$2" end
	where "$1" "$2"
	echo "@@BENCH heavy $1 $2 $(heavy_line /tmp/heavy.out)"
}

mix() { # round config
	smalls=
	i=0
	while [ "$i" -lt "$nsmall" ]; do
		work periodic "$small_iters" 16 >/tmp/small.$i &
		smalls="$smalls $!"
		i=$((i + 1))
	done
	# their placement settles (hmpgov packs them within a few windows)
	sleep 0.5
	phase "mix-$1-$2" begin
	work heavy 2 "$heavy_iters" >/tmp/heavy.out
	phase "mix-$1-$2" end
	# shellcheck disable=SC2086
	kill -TERM $smalls
	# shellcheck disable=SC2086
	wait $smalls
	i=0
	: >/tmp/small.all
	while [ "$i" -lt "$nsmall" ]; do
		cat /tmp/small.$i >>/tmp/small.all
		i=$((i + 1))
	done
	# jobs summed, the worst task's p50 / p95 / max, late jobs summed
	small=$(awk '$1 == "jobs" { j += $2; if ($4 > p) p = $4; if ($6 > q) q = $6
			if ($8 > m) m = $8; l += $10; n++ }
		END { printf "%d %d %d %d %d\n", j, p, q, m, l; exit (n != N) }' N="$nsmall" /tmp/small.all) ||
		small="0 0 0 0 0"
	echo "@@BENCH mix $1 $2 $(heavy_line /tmp/heavy.out) $small"
}

r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then order="stock hmpgov"; else order="hmpgov stock"; fi
	for c in $order; do
		use "$c"
		heavy "$r" "$c"
		mix "$r" "$c"
	done
	r=$((r + 1))
done
module_loaded && unload >/dev/null
echo "@@BENCH done"
