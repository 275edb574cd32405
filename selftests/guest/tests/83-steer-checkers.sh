# SPDX-License-Identifier: GPL-2.0
# Steering under the kernel's own checkers: every path that changes a
# task's mask runs once, briefly, with few tasks, so that a kernel built
# with lockdep, KASAN, kmemleak and DEBUG_ATOMIC_SLEEP (or PREEMPT_RT)
# can object (the host fails the run on any splat). Adopting, packing
# and moving tasks, children forked from managed parents, a user's
# setaffinity while managed, a big CPU going offline and back, mode=off
# and steer again, and rmmod while all of them run. No figure is judged
# here but the masks the user gave, exactly, after each restore.
if ! placement_params; then
	tap_skip "checkers: steering under the kernel's checkers" "the x86 machine has 2 equal CPUs"
	return 0
fi
n=$(ncpus)
last=$((n - 1))
masks() { for _p in $PIDS; do awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/$_p/status"; done | tr '\n' ' '; }

# Masks for certain (with uclamp alone busy tasks keep theirs), and
# the uclamp backend too where the kernel has it.
steer=affinity
kernel_has_uclamp && steer=both
# shellcheck disable=SC2086
load $PARAMS steer=$steer >/dev/null
check "checkers: hmpgov loads with steer=$steer ($(stat_value steer))" [ "$(stat_value steer)" = $steer ]
PIDS=
for d in 100 100 5 5 5; do
	duty "$d" 16 600 -1 &
	PIDS="$PIDS $!"
done
taskset -c "0-1,$last" duty 5 16 600 -1 &
bound=$!
PIDS="$PIDS $bound"
# a managed parent forking children that live a moment
start_forkers 1
wait_for 60 eval '[ "$(stat_value moves)" -gt 2 ]'
check "checkers: hmpgov moved tasks ($(stat_value moves) moves, $(stat_value managed) managed)" [ "$(stat_value moves)" -gt 2 ]
taskset -p -c "0-$last" "$bound" >/dev/null
# every task's user mask is now all CPUs (the bound one's since its
# user widened it while managed)
want=$(for _p in $PIDS; do printf '0-%s ' "$last"; done)
# the masks are read once and judged as read: while steering, a task may
# be moved between two reads (seen on the debug kernel)
wait_for 60 eval 'm=$(masks); [ "$m" != "$want" ]'
check "checkers: the tasks are steered before mode=off (masks: $m)" [ "$m" != "$want" ]
if echo 0 >/sys/devices/system/cpu/cpu$last/online 2>/dev/null; then
	sleep 1
	echo 1 >/sys/devices/system/cpu/cpu$last/online
	sleep 1
fi
echo off >$SYS/mode
after=$(masks)
check "checkers: mode=off gives every mask back (before: $want; after: $after)" [ "$(echo $after)" = "$(echo $want)" ]
echo steer >$SYS/mode
wait_for 60 eval 'm=$(masks); [ "$m" != "$want" ]'
check "checkers: steered again after mode=steer (masks: $m)" [ "$m" != "$want" ]
unload >/dev/null
stop_forkers
after=$(masks)
check "checkers: rmmod under load gives every mask back (after: $after)" [ "$(echo $after)" = "$(echo $want)" ]
# shellcheck disable=SC2086
kill $PIDS 2>/dev/null
# shellcheck disable=SC2086
wait $PIDS 2>/dev/null || :
