# SPDX-License-Identifier: GPL-2.0
# A task inside a migrate_disable() section (on PREEMPT_RT, any
# spinlock_t one) keeps its CPU until the section ends, and a change of
# its mask that would move it off that CPU waits for the end. hmpgov must
# not wait with it: a small task, packed onto a little CPU, enters such
# a section there and computes for HOLD_MS (the test-only
# hmpgov_testhold), so that hmpgov wants it on the big CPUs; a busy task
# started once hmpgov wants that must be steered (narrowed from all
# CPUs) while the first is still held. The first is moved once its
# section ended, and rmmod gives both their masks back.
HOLD_KO=/hmpgov/hmpgov_testhold.ko
HOLD_MS=6000
name="migrate-disabled: a held task does not stop the steering"
if ! placement_params; then
	tap_skip "$name" "the x86 machine has 2 equal CPUs"
	return 0
fi
if [ ! -f $HOLD_KO ]; then
	tap_skip "$name" "no hmpgov_testhold for this kernel (no migrate_disable() sections before 5.11)"
	return 0
fi
n=$(ncpus)
last=$((n - 1))
insmod $HOLD_KO
check "migrate-disabled: hmpgov_testhold loads" [ -e /sys/kernel/debug/hmpgov_testhold/busy_ms ]
# shellcheck disable=SC2086
load $PARAMS steer=affinity >/dev/null
check "migrate-disabled: hmpgov loads" module_loaded
rm -f /tmp/hold.go /tmp/hold.done
sh -c 'while [ ! -e /tmp/hold.go ]; do sleep 0.05; done
	echo '$HOLD_MS' >/sys/kernel/debug/hmpgov_testhold/busy_ms
	: >/tmp/hold.done
	exec duty 100 100 60 -1' &
holder=$!
# packed: on a single CPU, a little one
packed() {
	mask_of "$holder"
	[ "$MASK" -eq "$MASK" ] 2>/dev/null &&
		[ "$(cat /sys/devices/system/cpu/cpu"$MASK"/cpu_capacity)" -lt 1024 ]
}
wait_for 60 packed
check "migrate-disabled: the small task is packed onto one little CPU (mask $(allowed $holder))" packed
pack=$(allowed $holder)
deferred=$(stat_value moves_deferred)
: >/tmp/hold.go
t0=$(uptime_ms)
# moved: off the packing CPU, on hmpgov's decision (its user mask is all);
# each mask is judged as read, once: two big tasks on two big CPUs may
# go back to their base between two reads (deb-6.1, CI)
moved() { mask_of "$1"; [ -n "$MASK" ] && [ "$MASK" != "$pack" ] && [ "$MASK" != "0-$last" ]; }
# the busy task starts once hmpgov wants the held one on a big CPU: its
# first deferral, or (a worker that does not defer) its mask moved off
# the packing CPU; else a move of the busy task could come first
wants_big() { [ "$(stat_value moves_deferred)" -gt "$deferred" ] || moved "$holder"; }
wait_for $((HOLD_MS / 2000)) wants_big
wanted=$(($(uptime_ms) - t0))
duty 100 100 60 -1 &
busy=$!
# the busy task moved, and whether the other was still held then
held=no
busy_moved=
holder_then=
busy_seen() {
	if moved "$busy"; then
		busy_moved=$MASK
		[ -e /tmp/hold.done ] || held=yes
		at=$(($(uptime_ms) - t0))
		mask_of "$holder"
		holder_then=$MASK
		return 0
	fi
	[ -e /tmp/hold.done ]
}
wait_for $((HOLD_MS / 1000)) busy_seen
check "migrate-disabled: the busy task is moved while the other is held (mask ${busy_moved:-never moved, now $(allowed $busy)} at ${at:-?} ms of the ${HOLD_MS} ms hold, still held: $held; the held one's mask: ${holder_then:-?}; started at $wanted ms)" \
	eval '[ -n "$busy_moved" ] && [ $held = yes ]'
# and hmpgov did want to move the held one meanwhile
deferred=$(($(stat_value moves_deferred) - deferred))
check "migrate-disabled: hmpgov deferred the held task's move ($deferred times)" [ "$deferred" -gt 0 ]
wait_for 30 test -e /tmp/hold.done
held_moved=
wait_for 20 moved "$holder" && held_moved=$MASK
check "migrate-disabled: the held task is moved after its section (mask ${held_moved:-never moved, now $(allowed $holder)})" \
	[ -n "$held_moved" ]
unload >/dev/null
check "migrate-disabled: rmmod gives both masks back ($(allowed $holder), $(allowed $busy))" \
	eval '[ "$(allowed $holder)" = "0-$last" ] && [ "$(allowed $busy)" = "0-$last" ]'
kill $holder $busy 2>/dev/null
wait $holder $busy 2>/dev/null
rmmod hmpgov_testhold
check "migrate-disabled: hmpgov_testhold unloads" [ ! -d /sys/module/hmpgov_testhold ]
rm -f /tmp/hold.go /tmp/hold.done
