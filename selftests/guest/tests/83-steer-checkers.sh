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
# On a failed check, hmpgov's own view of the tasks, to see why.
why_not_steered() {
	tap_note "stats: $(tr '\n' ' ' <$DBG/stats)"
	head -n 1 $DBG/tasks | sed 's/^/@@TAP # tasks: /'
	for _p in $PIDS; do awk -v p="$_p" '$1 == p' $DBG/tasks; done | sed 's/^/@@TAP # tasks: /'
}
masks() { for _p in $PIDS; do awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/$_p/status"; done | tr '\n' ' '; }

# Masks for certain (with uclamp alone busy tasks keep theirs), and
# the uclamp backend too where the kernel has it.
steer=affinity
kernel_has_uclamp && steer=both
# shellcheck disable=SC2086
load $PARAMS steer=$steer >/dev/null
check "checkers: hmpgov loads with steer=$steer ($(stat_value steer))" [ "$(stat_value steer)" = $steer ]
# hmpgov's decisions from the start, shown for a task whose mask is wrong
echo 0 >$TR/tracing_on
echo >$TR/trace
echo 1 >$TR/events/hmpgov/hmpgov_place/enable
echo 1 >$TR/tracing_on
# The small tasks wake every 100 ms and the forker pauses 50 ms between
# two children: under KASAN and lockdep each wake-up and fork costs
# milliseconds of kernel time, which made 5 % tasks of a 16 ms period
# medium or big, and a fork loop kept the busy tasks at half a CPU,
# flapping between big and medium (own-6.12-debug, 2026-12-06): no mask
# stayed narrowed long enough to be read.
# Each child's mask as it began and this shell's as it forked it: a
# child forked while hmpgov had narrowed the shell inherited that mask
PIDS=
FORKED=
for d in 100 100 5 5 5; do
	mask_of self
	_sm=$MASK
	duty "$d" 100 600 -1 &
	PIDS="$PIDS $!"
	mask_of $!
	FORKED="$FORKED $!:$_sm>$MASK"
done
taskset -c "0-1,$last" duty 5 100 600 -1 &
bound=$!
PIDS="$PIDS $bound"
# a managed parent forking children that live a moment
start_forkers 1 0.05
wait_for 60 eval '[ "$(stat_value moves)" -gt 2 ]'
check "checkers: hmpgov moved tasks ($(stat_value moves) moves, $(stat_value managed) managed)" [ "$(stat_value moves)" -gt 2 ]
taskset -p -c "0-$last" "$bound" >/dev/null
# every task's user mask is now all CPUs (the bound one's since its
# user widened it while managed)
want=$(for _p in $PIDS; do printf '0-%s ' "$last"; done)
# the masks are read once and judged as read: while steering, a task may
# be moved between two reads (seen on the debug kernel)
# (a task that ended would shorten the list: every mask, one narrowed)
# shellcheck disable=SC2086
steered() { [ "$(echo $m | wc -w)" = "$(echo $PIDS | wc -w)" ] && [ "$m" != "$want" ]; }
wait_for 60 eval 'm=$(masks); steered'
check "checkers: the tasks are steered before mode=off (masks: $m)" steered
steered || why_not_steered
if echo 0 >/sys/devices/system/cpu/cpu$last/online 2>/dev/null; then
	sleep 1
	echo 1 >/sys/devices/system/cpu/cpu$last/online
	sleep 1
fi
echo off >$SYS/mode
after=$(masks)
echo 0 >$TR/events/hmpgov/hmpgov_place/enable
check "checkers: mode=off gives every mask back (before: $want; after: $after)" [ "$(echo $after)" = "$(echo $want)" ]
for _p in $PIDS; do
	[ "$(allowed $_p)" = "0-$last" ] && continue
	tap_note "pid $_p kept $(allowed $_p); hmpgov's row: $(awk -v p="$_p" '$1 == p' $DBG/tasks); its first and last decisions:"
	grep "hmpgov_place: pid=$_p " $TR/trace | head -n 4 | sed 's/^/# /'
	grep "hmpgov_place: pid=$_p " $TR/trace | tail -n 8 | sed 's/^/# /'
done
tap_note "checkers: masks at fork (pid:shell>child):$FORKED"
if [ "$(echo $after)" != "$(echo $want)" ]; then
	tap_note "the shell's first decisions:"
	grep "hmpgov_place: pid=$$ " $TR/trace | head -n 12 | sed 's/^/# /'
	# whether the restore left a mask as another caller's (restores_left)
	tap_note "stats: $(tr '\n' ' ' <$DBG/stats)"
fi
echo steer >$SYS/mode
wait_for 60 eval 'm=$(masks); steered'
check "checkers: steered again after mode=steer (masks: $m)" steered
unload >/dev/null
stop_forkers
after=$(masks)
check "checkers: rmmod under load gives every mask back (after: $after)" [ "$(echo $after)" = "$(echo $want)" ]
# shellcheck disable=SC2086
kill $PIDS 2>/dev/null
# shellcheck disable=SC2086
wait $PIDS 2>/dev/null || :
