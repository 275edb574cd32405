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

mixed_load_start
tap_note "rt latency: load tasks and their masks: $(tr '\n' ' ' </tmp/mixed.masks)"
sleep 1

# the stock kernel
cyclictest_start "$loops" /tmp/ct.stock
wait_for 10 threads_up
sleep "$half"
stock_threads=$(ct_threads "$CT")
wait "$CT"
# shellcheck disable=SC2046
set -- $(ct_summary /tmp/ct.stock)
stock_n=$1 stock_max=$2 stock_avg=$3
check "rt latency: cyclictest ran on the stock kernel ($stock_n threads' results; threads $stock_threads)" \
	[ "$stock_n" = "$n" ]
[ "$stock_n" = "$n" ] || sed 's/^/@@TAP # cyclictest: /' /tmp/ct.stock | head -n 5

# with hmpgov steering the same load
# shellcheck disable=SC2086
load $PARAMS >/dev/null
check "rt latency: hmpgov loads" module_loaded
steered() { mixed_differ; [ "$NDIFF" -gt 0 ]; }
wait_for 10 steered
mixed_differ
before=$NDIFF
before_what=$DIFFER
cyclictest_start "$loops" /tmp/ct.loaded
wait_for 10 threads_up
sleep "$half"
loaded_threads=$(ct_threads "$CT")
mixed_differ
during=$NDIFF
during_what=$DIFFER
wait "$CT"
# shellcheck disable=SC2046
set -- $(ct_summary /tmp/ct.loaded)
loaded_n=$1 loaded_max=$2 loaded_avg=$3
check "rt latency: cyclictest ran with hmpgov steering ($loaded_n threads' results)" \
	[ "$loaded_n" = "$n" ]
[ "$loaded_n" = "$n" ] || sed 's/^/@@TAP # cyclictest: /' /tmp/ct.loaded | head -n 5
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
