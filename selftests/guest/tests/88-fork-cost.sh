# SPDX-License-Identifier: GPL-2.0
# A fork storm's cost: a shell loop forks HT_FK_FORKS (default 400)
# short-lived subshells, first on the stock kernel, then with hmpgov
# steering, in the same boot. Every fork reaches hmpgov's worker as a new
# task; the kernel's function tracer counts the worker's passes
# (steer_work) during the storm. The worker takes new tasks at most once
# a jiffy however fast they come, so its passes are at most the jiffies
# the trace ran (read from /proc/timer_list just before and after it)
# plus 2, and more than its 16 ms period alone would make: the feed did
# drive it. The storm's time with hmpgov against the stock kernel's is
# reported.
if ! placement_params; then
	tap_skip "fork cost: the worker's passes in a fork storm" "the x86 machine has 2 equal CPUs"
	return 0
fi
forks=${HT_FK_FORKS:-400}
jiffies_now() { awk '$1 == "jiffies:" { print $2; exit }' /proc/timer_list; }
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
if [ -z "$(jiffies_now)" ]; then
	tap_skip "fork cost: the worker's passes in a fork storm" "no jiffies in /proc/timer_list"
	return 0
fi
storm
stock_ms=$STORM_MS
# shellcheck disable=SC2086
if ! load $PARAMS >/dev/null; then
	check "fork cost: hmpgov loads" false
	return 0
fi
sleep 1
echo 0 >$TR/tracing_on
if echo "steer_work:mod:hmpgov" >$TR/set_ftrace_filter 2>/dev/null &&
	echo function >$TR/current_tracer 2>/dev/null; then
	echo >$TR/trace
	fed=$(stat_value events_fork)
	j0=$(jiffies_now)
	echo 1 >$TR/tracing_on
	storm
	echo 0 >$TR/tracing_on
	j1=$(jiffies_now)
	fed=$(($(stat_value events_fork) - fed))
	passes=$(grep -c 'steer_work' $TR/trace)
	echo nop >$TR/current_tracer
	: >$TR/set_ftrace_filter
	echo >$TR/trace
	bound=$((j1 - j0 + 2))
	floor=$((STORM_MS / 16))
	tap_note "fork cost: $forks forks in $stock_ms ms stock, $STORM_MS ms with hmpgov" \
		"(ratio $(awk -v a="$STORM_MS" -v b="$stock_ms" 'BEGIN { printf "%.2f", b ? a / b : 0 }'));" \
		"$fed fork events, $passes worker passes in $((j1 - j0)) jiffies"
	check "fork cost: the storm's forks reached hmpgov ($fed fork events of $forks) and drove its worker ($passes passes, more than the $floor of its 16 ms period)" \
		[ "$fed" -ge "$forks" -a "$passes" -gt "$floor" ]
	check "fork cost: the worker ran at most once a jiffy in the storm ($passes passes in $((j1 - j0)) jiffies, at most $bound)" \
		[ "$passes" -le "$bound" ]
else
	tap_skip "fork cost: the worker's passes in a fork storm" "no function tracer for hmpgov's steer_work"
fi
echo 1 >$TR/tracing_on
unload >/dev/null
