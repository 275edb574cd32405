# SPDX-License-Identifier: GPL-2.0
# PREEMPT_RT latency beside steering: cyclictest (Debian's rt-tests, one
# SCHED_FIFO 80 thread per CPU, 1 ms interval, memory locked) runs beside
# a mixed load of 2 busy and 4 small duty tasks (three of them bound by
# the user with taskset), first on the stock kernel, then with hmpgov
# loaded and steering the same load, in one boot. The latencies are a
# benchmark (notes, in guest time: deterministic emulation), not judged.
# Judged: cyclictest printed its results on both sides; hmpgov narrowed
# some load task before and during the loaded run; cyclictest's FIFO
# threads kept the policy, priority and mask they had on the stock
# kernel; after rmmod every load task has exactly the mask it had before
# (the user's for the bound ones). Splats are the harness's to find.
# HT_RL_LOOPS: cycles per run (default 5000, 5 s).
name="rt latency: cyclictest beside steering"
if ! is_preempt_rt; then
	tap_skip "$name" "not a PREEMPT_RT kernel ($(uname -v))"
	return 0
fi
if ! placement_params; then
	tap_skip "$name" "the x86 machine has 2 equal CPUs"
	return 0
fi
if [ ! -x "$CYCLICTEST" ]; then
	tap_skip "$name" "no cyclictest in this initramfs"
	return 0
fi
if ! need_shm; then
	check "rt latency: /dev/shm for cyclictest" false
	return 0
fi
loops=${HT_RL_LOOPS:-5000}
half=$(awk -v l="$loops" 'BEGIN { printf "%.2f", l / 2000 }')
n=$(ncpus)
# fifo80 THREAD...: every one SCHED_FIFO (policy 1) at priority 80
fifo80() {
	for _t in "$@"; do
		case $_t in 1/80/*) ;; *) return 1 ;; esac
	done
}
threads_up() {
	set -- /proc/"$CT"/task/*
	[ "$#" -gt "$n" ]
}

# side FILE WHAT [CMD]: cyclictest for $loops cycles into FILE, CMD
# half-way; checks that it printed every thread's results ("cyclictest
# ran WHAT"); sets SIDE_THREADS (ct_threads half-way), SIDE_MAX, SIDE_AVG.
side() {
	cyclictest_start "$loops" "$1"
	wait_for 10 threads_up
	sleep "$half"
	SIDE_THREADS=$(ct_threads "$CT")
	[ -z "$3" ] || $3
	wait "$CT"
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(ct_summary "$1")
	SIDE_MAX=$4 SIDE_AVG=$5
	check "rt latency: cyclictest ran $2 ($3 threads' results; threads $SIDE_THREADS)" [ "$3" = "$n" ]
	[ "$3" = "$n" ] || sed 's/^/@@TAP # cyclictest: /' "$1" | head -n 5
}

mixed_load_start
tap_note "rt latency: load tasks and their masks: $(tr '\n' ' ' </tmp/mixed.masks)"
sleep 1

# the stock kernel
side /tmp/ct.stock "on the stock kernel"
stock_threads=$SIDE_THREADS stock_max=$SIDE_MAX stock_avg=$SIDE_AVG

# with hmpgov steering the same load
# shellcheck disable=SC2086
load $PARAMS >/dev/null
check "rt latency: hmpgov loads" module_loaded
steered() { mixed_differ; [ "$NDIFF" -gt 0 ]; }
wait_for 10 steered
mixed_differ
before=$NDIFF
before_what=$DIFFER
side /tmp/ct.loaded "with hmpgov steering" mixed_differ
during=$NDIFF
during_what=$DIFFER
loaded_threads=$SIDE_THREADS loaded_max=$SIDE_MAX loaded_avg=$SIDE_AVG
check "rt latency: hmpgov steered the load before and during the loaded run ($before and $during of 6 masks narrowed; during:$during_what)" \
	[ "$before" -gt 0 -a "$during" -gt 0 ]
tap_note "rt latency: before the loaded run:$before_what"
check "rt latency: the SCHED_FIFO threads kept policy/priority/mask ($loaded_threads loaded, $stock_threads stock)" \
	eval '[ -n "$stock_threads" ] && [ "$loaded_threads" = "$stock_threads" ] && fifo80 $loaded_threads'
tap_note "rt latency: max / avg latency (us, guest time): stock $stock_max / $stock_avg, hmpgov $loaded_max / $loaded_avg ($n SCHED_FIFO 80 threads, $loops cycles of 1 ms, beside 2 busy and 4 small tasks)"
tap_note "rt latency: stock: $(grep '^T:' /tmp/ct.stock | awk '{ printf "%s ", $NF }')us max per thread; hmpgov: $(grep '^T:' /tmp/ct.loaded | awk '{ printf "%s ", $NF }')us"

unload >/dev/null
mixed_differ
check "rt latency: after rmmod every load task has exactly its mask ($NDIFF differ:${DIFFER:- none})" [ "$NDIFF" = 0 ]
mixed_load_stop
