# SPDX-License-Identifier: GPL-2.0
# PREEMPT_RT latency beside steering (scripts/bench-rtlatency.sh): the
# mixed load of test 90 (2 busy and 4 small duty tasks, three bound by
# the user) runs the whole boot; cyclictest (one SCHED_FIFO 80 thread per
# CPU, 1 ms interval, HT_RL_LOOPS cycles, memory locked) runs beside it
# HT_RL_PAIRS times with hmpgov unloaded and loaded, alternated (odd
# pairs unloaded first, even pairs loaded first, so that a drift of the
# emulator favours neither side). A loaded run starts once hmpgov has
# narrowed some load task (10 s at most).
#
# Lines for scripts/bench-rtlatency.sh:
#   @@BENCH params pairs N loops N threads N
#   @@BENCH version CYCLICTEST-VERSION / UNAME-V
#   @@BENCH load PID MASK ...             (the user's masks)
#   @@BENCH rl PAIR unloaded|loaded THREADS MAX AVG NARROWED_BEFORE NARROWED_AFTER
#     (latencies in us of guest time: the highest Max and the mean Avg of
#     the threads; NARROWED: load tasks whose mask was not the user's
#     just before and just after the run)
#   @@BENCH restored DIFFER               (masks not the user's after the last rmmod)
#   @@BENCH done
. ./lib.sh
export PATH="$PATH:/usr/bin"
pairs=${HT_RL_PAIRS:-5}
loops=${HT_RL_LOOPS:-5000}
echo "@@BENCH params pairs $pairs loops $loops threads $(ncpus)"

fail() { echo "@@BENCH error: $*"; exit 1; }

is_preempt_rt || fail "not a PREEMPT_RT kernel ($(uname -v))"
placement_params || fail "nothing to steer on this machine"
[ -x "$CYCLICTEST" ] || fail "no cyclictest in this initramfs (scripts/build-initramfs.sh)"
need_shm || fail "cannot mount /dev/shm"
echo "@@BENCH version $($CYCLICTEST --help 2>&1 | head -n 1) / $(uname -v)"

mixed_load_start
echo "@@BENCH load $(tr '\n' ' ' </tmp/mixed.masks)"
sleep 1

# order PAIR: the two sides in this pair's order
order() { if [ $(($1 % 2)) -eq 1 ]; then echo unloaded loaded; else echo loaded unloaded; fi; }
steered() { mixed_differ; [ "$NDIFF" -gt 0 ]; }

# run PAIR WHEN
run() {
	module_loaded && unload >/dev/null
	if [ "$2" = loaded ]; then
		# shellcheck disable=SC2086
		load $PARAMS >/dev/null || fail "insmod failed"
		wait_for 10 steered
	else
		sleep 0.5
	fi
	mixed_differ
	_n0=$NDIFF
	cyclictest_start "$loops" /tmp/ct.out
	wait "$CT"
	mixed_differ
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(ct_summary /tmp/ct.out)
	echo "@@BENCH rl $1 $2 $3 $4 $5 $_n0 $NDIFF"
	[ "$3" = "$(ncpus)" ] || sed 's/^/@@BENCH ct-output /' /tmp/ct.out | head -n 5
}

p=1
while [ "$p" -le "$pairs" ]; do
	for w in $(order "$p"); do
		run "$p" "$w"
	done
	p=$((p + 1))
done
module_loaded && unload >/dev/null
mixed_differ
echo "@@BENCH restored $NDIFF$DIFFER"
mixed_load_stop
echo "@@BENCH done"
