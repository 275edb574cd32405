# SPDX-License-Identifier: GPL-2.0
# A fork storm's cost: a shell loop forks HT_FK_FORKS (default 400)
# short-lived subshells, first on the stock kernel, then with hmpgov
# steering, in the same boot. Every fork reaches hmpgov's worker as a new
# task; the kernel's function tracer counts the worker's passes
# (steer_work) during the storm. The worker runs at most once a jiffy
# however fast tasks are forked, so its passes are at most the storm's
# guest time in jiffies (plus the one already due); the storm's time with
# hmpgov against the stock kernel's is reported.
if ! placement_params; then
	tap_skip "fork cost: the worker's passes in a fork storm" "the x86 machine has 2 equal CPUs"
	return 0
fi
forks=${HT_FK_FORKS:-400}
# the kernel's tick, from the jiffies the timer list reports a second apart
hz() {
	_j1=$(awk '$1 == "jiffies:" { print $2; exit }' /proc/timer_list)
	sleep 1
	_j2=$(awk '$1 == "jiffies:" { print $2; exit }' /proc/timer_list)
	echo $((_j2 - _j1))
}
# storm: $forks subshells, one after the other; its guest time in ms in
# STORM_MS
storm() {
	_t0=$(uptime_ms)
	_i=0
	while [ $_i -lt "$forks" ]; do
		(:)
		_i=$((_i + 1))
	done
	STORM_MS=$(($(uptime_ms) - _t0))
}
HZ=$(hz)
if [ "${HZ:-0}" -le 0 ]; then
	tap_skip "fork cost: the worker's passes in a fork storm" "no jiffies in /proc/timer_list"
	return 0
fi
storm
stock_ms=$STORM_MS
# shellcheck disable=SC2086
load $PARAMS >/dev/null
sleep 1
echo 0 >$TR/tracing_on
echo 2048 >$TR/buffer_size_kb
if echo "steer_work:mod:hmpgov" >$TR/set_ftrace_filter 2>/dev/null &&
	echo function >$TR/current_tracer 2>/dev/null; then
	echo >$TR/trace
	adopted=$(stat_value adopted)
	echo 1 >$TR/tracing_on
	storm
	echo 0 >$TR/tracing_on
	adopted=$(($(stat_value adopted) - adopted))
	passes=$(grep -c 'steer_work' $TR/trace)
	echo nop >$TR/current_tracer
	: >$TR/set_ftrace_filter
	echo >$TR/trace
	bound=$((STORM_MS * HZ / 1000 + 2))
	tap_note "fork cost: $forks forks in $stock_ms ms stock, $STORM_MS ms with hmpgov" \
		"(ratio $(awk -v a="$STORM_MS" -v b="$stock_ms" 'BEGIN { printf "%.2f", b ? a / b : 0 }'));" \
		"$adopted adopted, $passes worker passes (HZ $HZ)"
	check "fork cost: the worker ran at most once a jiffy in the storm ($passes passes in $STORM_MS ms, at most $bound)" \
		[ "$passes" -gt 0 -a "$passes" -le "$bound" ]
else
	tap_skip "fork cost: the worker's passes in a fork storm" "no function tracer for hmpgov's steer_work"
fi
unload >/dev/null
