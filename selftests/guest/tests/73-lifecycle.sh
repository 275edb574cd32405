# SPDX-License-Identifier: GPL-2.0
# Lifecycle: 10,000 short-lived threads under load leave the tracked count
# at its baseline; a table too small for the tasks counts each task it
# drops once and does not crash; one three quarters full drops none; the kernel log
# stays clean (checked by the host).
load >/dev/null
sleep 0.5
base=$(stat_value tasks_tracked)
duty 50 16 60 >/dev/null &
bg=$!
out=$(threads 10000 50)
sleep 0.5
kill $bg
wait $bg 2>/dev/null
sleep 0.2
after=$(stat_value tasks_tracked)
check "lifecycle: 10000 threads ran ($out)" [ "$out" = "threads=10000" ]
check "lifecycle: tracked count back to its baseline ($base -> $after)" within "$after" "$base" 2
check "lifecycle: nothing dropped with room ($(stat_value tasks_dropped))" [ "$(stat_value tasks_dropped)" -eq 0 ]
unload >/dev/null

load max_tasks=16 >/dev/null
check "table-full: max_tasks=16 loads, with twice as many slots ($(stat_value table_size))" [ "$(stat_value table_size)" -eq 32 ]
sleep 0.3
base=$(stat_value tasks_tracked)
read -r _t0 _ </proc/uptime
threads procs 64 6 &
tp=$!
wait_for 10 eval '[ "$(stat_value tasks_dropped)" -gt 0 ]' ||
	tap_not_ok "table-full: a task was dropped within 10 s"
# all 64 forked (each new one would be a new dropped task)
wait_for 10 eval '[ "$(grep -ls "^PPid:[[:space:]]*$tp\$" /proc/[0-9]*/status | wc -l)" -ge 64 ]' ||
	tap_not_ok "table-full: the 64 sleepers forked within 10 s"
tracked=$(stat_value tasks_tracked)
dropped=$(stat_value tasks_dropped)
check "table-full: at most 32 tracked ($tracked)" [ "$tracked" -le 32 ]
check "table-full: dropped tasks are counted ($dropped)" [ "$dropped" -gt 0 ]
# A busy task that finds no slot is counted once, not at each of its
# hundreds of events a second: between two reads of the counter with the
# shell's builtins (no other new task) it adds 1. The table must be full
# first: a slot a helper (awk, grep) left when it exited is taken by
# sleepers of the test's own, until every slot holds a live task. The
# 64 sleepers hold theirs for 6 s.
table_now() {
	while read -r _k _v; do
		case $_k in
		tasks_dropped) _dropped=$_v ;;
		tasks_tracked) _tracked=$_v ;;
		table_size) _size=$_v ;;
		esac
	done <$DBG/stats
}
fillers=
_nf=0
table_now
while [ "$_tracked" -lt "$_size" ] && [ $_nf -lt 32 ]; do
	sleep 8 &
	fillers="$fillers $!"
	_nf=$((_nf + 1))
	table_now
done
_d0=$_dropped
_full="$_tracked of $_size"
read -r _t1 _ </proc/uptime
duty 100 16 0.5 >/dev/null &
wait $!
table_now
busy_dropped=$((_dropped - _d0))
read -r _t2 _ </proc/uptime
# the sleepers (6 s) must outlive the busy task: else a slot frees
_late=$(( ${_t2%.*} - ${_t0%.*} >= 5 ))
check "table-full: with every slot taken ($_full, $_nf fillers), a busy task is counted once in its 0.5 s (+$busy_dropped; from ${_t1}s to ${_t2}s, the sleepers started at ${_t0}s)" \
	[ "$_full" = "$_size of $_size" -a "$busy_dropped" -eq 1 -a "$_late" = 0 ]
if [ -n "$fillers" ]; then
	# shellcheck disable=SC2086
	kill $fillers 2>/dev/null
	# shellcheck disable=SC2086
	wait $fillers 2>/dev/null
fi
wait $tp
sleep 0.2
after=$(stat_value tasks_tracked)
check "table-full: the tasks' exit frees their slots ($base -> $after)" within "$after" "$base" 1
unload >/dev/null
# Three quarters full: max_tasks=256 and 192 tasks (the guest's own and
# the threads of sleepers, each of which has run): every one is tracked,
# none is dropped. With one slot per task and lookups of 8 slots (before
# the table had twice max_tasks slots) some 3.5 % of the tasks found no
# slot at this fill.
load max_tasks=256 >/dev/null
sleep 0.3
base=$(stat_value tasks_tracked)
sleepers $((191 - base)) 0 >/tmp/73-sleepers.out &
sp=$!
wait_for 30 grep -q '^ready' /tmp/73-sleepers.out
tracked=$(stat_value tasks_tracked)
dropped=$(stat_value tasks_dropped)
check "three quarters full: 192 tasks with max_tasks=256 are all tracked ($tracked, $(cat /tmp/73-sleepers.out)) and none dropped ($dropped)" \
	[ "$tracked" -ge 190 -a "$dropped" -eq 0 ]
kill $sp
wait $sp 2>/dev/null
unload >/dev/null
for bad in max_tasks=15 max_tasks=2000000 halflife_ms=0 halflife_ms=1001; do
	mark_log
	out=$(load "$bad")
	rc=$?
	name=${bad%%=*}
	line=$(new_log | grep "hmpgov: $name=: .* is out of range")
	if [ "$rc" -ne 0 ] && [ -n "$line" ]; then
		tap_ok "bad-param $bad: refused with a line naming it ($line)"
	else
		tap_not_ok "bad-param $bad: refused with a line naming it (rc $rc: $out)"
	fi
	if module_loaded; then unload >/dev/null; fi
done
