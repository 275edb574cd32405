# SPDX-License-Identifier: GPL-2.0
# The user's will wins: a task bound by the user is never seen outside its
# mask; a sched_setaffinity during management becomes its new base, also
# while the task sleeps for long (hmpgov then looks at it rarely); a
# task first bound to one CPU is steered once the user widens its mask;
# mode=off and rmmod give every managed task its mask back exactly, under
# load; a big CPU going offline strands nobody.
# Every task lives far longer (600 s) than its part of the test and is
# stopped by pid: on the debug kernel tracing and forking are so slow
# that a 20 s task ended before it was looked at.
if ! placement_params; then
	tap_skip "affinity: the user's masks" "the x86 machine has 2 equal CPUs"
	return 0
fi
n=$(ncpus)
last=$((n - 1))
# "pid mask" for every pid listed in file $1, in one process (a fork per
# task is slow under emulation with 200 tasks).
all_allowed() {
	# shellcheck disable=SC2046
	awk '$1 == "Cpus_allowed_list:" { split(FILENAME, a, "/"); print a[3], $2 }' \
		$(sed 's|^ *\([0-9]*\) *$|/proc/\1/status|' "$1") 2>/dev/null
}
# differ BEFORE: how many tasks of BEFORE ("pid mask") have another mask now
differ() { all_allowed /tmp/masks | awk 'NR == FNR { now[$1] = $2; next } now[$1] != $2 { n++ } END { print n + 0 }' - "$1"; }
# the first three that differ, "pid was->now"
differing() { all_allowed /tmp/masks | awk 'NR == FNR { now[$1] = $2; next } now[$1] != $2 && n++ < 3 { printf "%s %s->%s ", $1, $2, now[$1] }' - "$1"; }
# traced_runtimes SECONDS FILE PIDS...: trace SECONDS, then where the PIDS
# ran (runtimes(1) output) into FILE.
traced_runtimes() {
	_secs=$1
	_out=$2
	shift 2
	trace_begin
	sleep "$_secs"
	trace_end /tmp/trace.txt
	runtimes "$@" </tmp/trace.txt >"$_out"
}

# shellcheck disable=SC2086
load $PARAMS >/dev/null
# 1. bound to {0, last}: never elsewhere
taskset -c "0,$last" duty 10 16 600 -1 &
bound=$!
duty 10 16 600 -1 &
free=$!
sleep 0.5
traced_runtimes 3 /tmp/rt.bound $bound
outside=$(outside_us /tmp/rt.bound "0 $last")
tap_note "affinity: $(cat /tmp/rt.bound | head -n 1)"
check "affinity: a task bound to {0,$last} never ran elsewhere (${outside} us outside)" [ "$outside" = 0 ]
# 2. a setaffinity during management is honoured and kept
before=$(allowed $free)
taskset -p -c "1,$last" $free >/dev/null
sleep 0.5
traced_runtimes 1 /tmp/rt.free $free
outside=$(outside_us /tmp/rt.free "1 $last")
now=$(allowed $free)
check "affinity: setaffinity to {1,$last} while managed (was $before) becomes its base: now $now" \
	[ "$now" = "1,$last" -o "$now" = 1 -o "$now" = "$last" ]
check "affinity: and the task ran only there after it (${outside} us outside)" [ "$outside" = 0 ]
kill $bound $free 2>/dev/null
wait

# 3. hmpgov looks at a task asleep for over a second only now and then:
# a mask the user gives it while it sleeps is its base when it wakes busy.
sh -c "sleep 2.5; exec duty 100 16 600 -1" &
dozer=$!
sleep 1.5
taskset -p -c "1,$last" $dozer >/dev/null
sleep 2
traced_runtimes 2 /tmp/rt.dozer $dozer
outside=$(outside_us /tmp/rt.dozer "1 $last")
on_last=$(share /tmp/rt.dozer "$last" $dozer)
tap_note "asleep: $(head -n 1 /tmp/rt.dozer); mask $(allowed $dozer); active $(stat_value active) of $(stat_value managed) managed"
check "asleep: set to {1,$last} while asleep, busy after it: ran only there (${outside} us outside)" \
	[ "$outside" = 0 ]
check "asleep: and hmpgov placed it on the big cpu$last of that base (${on_last} % there)" \
	ge "$on_last" 90
kill $dozer 2>/dev/null
wait
# a small task started bound to the big cpu$last alone is left there, and
# steered (to the packing CPU) once the user widens its mask
taskset -c "$last" duty 5 16 600 -1 &
narrow=$!
sleep 1
taskset -p -c "0-$last" $narrow >/dev/null
wait_for 10 eval '[ "$(allowed $narrow)" != "0-$last" ]'
traced_runtimes 2 /tmp/rt.narrow $narrow
on_little=$(share /tmp/rt.narrow "$(cluster_cpus little)" $narrow)
on_one=$(top_share /tmp/rt.narrow $narrow)
tap_note "widened: $(head -n 1 /tmp/rt.narrow); mask $(allowed $narrow)"
# (the stock kernel alone put it 88.8 % on one CPU, 90.3 % on little ones)
check "widened: a small task first bound to cpu$last, then allowed everywhere, is packed: little CPUs ${on_little} %, one CPU ${on_one} %" \
	eval 'ge "$on_little" 95 && ge "$on_one" 95'
kill $narrow 2>/dev/null
wait

# 4. 200 tasks with three kinds of masks, under load, started while
# hmpgov manages their parent: hmpgov first steers every one of them,
# then after rmmod, and after mode=off, each has exactly the mask the user
# gave it (taskset, or the shell's own). They wake every 200 ms and
# barely run: small, and all of them fit one packing CPU (200 1 % tasks
# would overflow the little CPUs and keep their masks). Each mask holds
# both little CPUs, where the packing set lies, and a big one, so packing
# changes every one of them for certain.
: >/tmp/masks.before
duty 100 16 600 -1 &
load1=$!
duty 100 16 600 -1 &
load2=$!
: >/tmp/masks
i=0
while [ $i -lt 200 ]; do
	case $((i % 4)) in
	0) taskset -c "0-$last" duty 0 200 600 -1 & m="0-$last" ;;
	1) taskset -c "0-1,$last" duty 0 200 600 -1 & m="0-1,$last" ;;
	2) taskset -c "0-$((last - 1))" duty 0 200 600 -1 & m="0-$((last - 1))" ;;
	*) duty 0 200 600 -1 & m="0-$last" ;;
	esac
	echo "$!" >>/tmp/masks
	echo "$! $m" >>/tmp/masks.before
	i=$((i + 1))
done
restore_stats() { grep -E '^(managed|active|adopted|excluded|moves|pack_cpus|pack_overflow|base_changes|move_errors|restores|tasks_tracked|tasks_dropped) ' $DBG/stats | tr '\n' ' '; }
wait_for 20 eval '[ "$(stat_value managed)" -ge 200 ]'
check "restore: 200 tasks managed ($(stat_value managed))" [ "$(stat_value managed)" -ge 200 ]
check "restore: the 200 tasks are alive ($(all_allowed /tmp/masks | grep -c .))" [ "$(all_allowed /tmp/masks | grep -c .)" = 200 ]
# the debugfs tasks file is read a page at a time: every task, once
cat $DBG/tasks >/tmp/tasks.txt
listed=$(awk 'NR == FNR { want[$1] = 1; next } ($1 in want) { n++ } END { print n + 0 }' /tmp/masks /tmp/tasks.txt)
check "debugfs: the tasks file lists each of the 200 tasks once ($listed lines of them, $(wc -c </tmp/tasks.txt) bytes)" [ "$listed" = 200 ]
# every one packed: its mask changed (the user's masks all differ from
# any set of little CPUs)
wait_for 30 eval '[ "$(differ /tmp/masks.before)" = 200 ]'
changed=$(differ /tmp/masks.before)
check "restore: hmpgov steered all 200 before the restore ($changed of 200 masks changed within 30 s; $(restore_stats))" [ "$changed" = 200 ]
unload >/dev/null
bad=$(differ /tmp/masks.before)
check "restore: after rmmod under load all 200 have exactly their masks ($bad differ $(differing /tmp/masks.before))" [ "$bad" = 0 ]

# mode=off does the same without unloading
# shellcheck disable=SC2086
load $PARAMS >/dev/null
wait_for 30 eval '[ "$(differ /tmp/masks.before)" = 200 ]'
changed=$(differ /tmp/masks.before)
check "restore: loaded again, hmpgov steered all 200 ($changed of 200 changed within 30 s; $(restore_stats))" [ "$changed" = 200 ]
echo off >$SYS/mode
bad=$(differ /tmp/masks.before)
check "restore: mode=off gives the masks back ($bad differ after: $(differing /tmp/masks.before); $(grep -E '^(base_changes|move_errors|restores|restores_left) ' $DBG/stats | tr '\n' ' '))" [ "$bad" = 0 ]
for bad_mode in bogus "" 3; do
	echo "$bad_mode" >$SYS/mode 2>/dev/null
	check "knobs: mode '$bad_mode' refused, mode stays off" [ "$(cat $SYS/mode)" = off ]
done
echo steer >$SYS/mode
check "knobs: mode steer accepted" [ "$(cat $SYS/mode)" = steer ]
# thresholds: out of range, not a number, or breaking their order
for kv in small_up=2000 small_up=abc big_up=100 small_down=0 small_down=300 big_down=800 \
	min_interval_ms=1001 pack_limit=0 pack_limit=1025; do
	k=${kv%%=*}
	old=$(cat $SYS/$k)
	echo "${kv#*=}" >$SYS/$k 2>/dev/null
	check "knobs: $k '${kv#*=}' refused, value unchanged ($(cat $SYS/$k))" [ "$(cat $SYS/$k)" = "$old" ]
done
echo 600 >$SYS/big_down
check "knobs: big_down 600 accepted" [ "$(cat $SYS/big_down)" = 600 ]
echo 512 >$SYS/big_down
while read -r pid; do kill "$pid" 2>/dev/null; done </tmp/masks
kill $load1 $load2 2>/dev/null
wait

# 4b. Children forked while the masks go back. A busy shell loop, which
# hmpgov narrows, forks long-lived children back to back while mode=off,
# and then rmmod, run. A child forked before the loop had its mask back
# inherited hmpgov's narrowing: it must get the loop's mask (the user's,
# from taskset) like every other. 60 small tasks, all managed, make the
# restore last a while.
small=
i=0
while [ $i -lt 60 ]; do
	duty 0 200 600 -1 &
	small="$small $!"
	i=$((i + 1))
done
# storm_check HOW: start the loop, let hmpgov narrow it, end steering
# HOW (off: mode=off; rmmod), stop the loop, check its children.
storm_check() {
	: >/tmp/storm
	taskset -c "0-$last" sh -c 'trap "exit 0" TERM
		n=0
		while [ $n -lt 400 ]; do
			n=$((n + 1))
			j=0
			while [ $j -lt 300 ]; do j=$((j + 1)); done
			sleep 600 &
			echo $! >>/tmp/storm
		done' &
	storm=$!
	wait_for 20 eval '[ "$(allowed $storm)" != "0-$last" ]'
	narrowed=$(allowed $storm)
	check "restore ($1): hmpgov narrowed the forking loop first ($narrowed; $(grep -c . /tmp/storm) children so far)" \
		[ -n "$narrowed" -a "$narrowed" != "0-$last" ]
	before=$(grep -c . /tmp/storm)
	if [ "$1" = off ]; then
		echo off >$SYS/mode
	else
		unload >/dev/null
	fi
	sleep 0.5
	kill $storm
	wait $storm
	total=$(grep -c . /tmp/storm)
	# shellcheck disable=SC2046
	kept=$(awk -v want="0-$last" '$1 == "Cpus_allowed_list:" && $2 != want { n++ } END { print n + 0 }' \
		$(sed 's|^|/proc/|; s|$|/status|' /tmp/storm) /dev/null 2>/dev/null)
	check "restore ($1): every child of the loop has the loop's own mask 0-$last ($kept of $total have another; $((total - before)) forked after the write)" \
		[ "$kept" = 0 -a "$((total - before))" -gt 0 ]
	while read -r pid; do kill "$pid" 2>/dev/null; done </tmp/storm
}
# with steer=uclamp (auto on the own kernel) no busy task's mask narrows
steers_masks() { case $(cat $SYS/steer) in affinity|both) return 0 ;; esac; return 1; }
if steers_masks; then
	storm_check off
	echo steer >$SYS/mode
	storm_check rmmod
	# shellcheck disable=SC2086
	load $PARAMS >/dev/null
else
	tap_skip "restore: children forked through mode=off and rmmod" "steer=$(cat $SYS/steer) narrows no busy task's mask"
fi
# 4c. Two writers of mode at once, steer and off, 30 times: whenever off
# was written last, no task is left managed (adopted while off, each
# would pin its task until the next mode change).
wait_for 10 eval '[ "$(stat_value managed)" -ge 60 ]'
check "knobs: before two writers at once, the 60 small tasks are managed ($(stat_value managed))" \
	[ "$(stat_value managed)" -ge 60 ]
leaks=0
rounds_off=0
r=0
while [ $r -lt 30 ]; do
	echo steer >$SYS/mode &
	w1=$!
	echo off >$SYS/mode &
	w2=$!
	wait $w1 $w2
	if [ "$(cat $SYS/mode)" = off ]; then
		rounds_off=$((rounds_off + 1))
		[ "$(stat_value managed)" = 0 ] || leaks=$((leaks + 1))
	fi
	r=$((r + 1))
done
check "knobs: two mode writers at once leave nothing managed while off ($leaks of $rounds_off rounds ending off had managed tasks)" \
	[ "$leaks" = 0 -a "$rounds_off" -gt 0 ]
echo steer >$SYS/mode
# shellcheck disable=SC2086
kill $small 2>/dev/null
wait

# 5. hotplug: the last (big) CPU goes offline while two busy tasks are
# confined to the big cluster
duty 100 16 600 -1 &
b1=$!
duty 100 16 600 -1 &
b2=$!
sleep 1
if echo 0 >/sys/devices/system/cpu/cpu$last/online 2>/dev/null; then
	sleep 0.5
	s1=$(runtime_ms $b1)
	s2=$(runtime_ms $b2)
	sleep 1.5
	t1=$(($(runtime_ms $b1) - s1))
	t2=$(($(runtime_ms $b2) - s2))
	check "hotplug: with cpu$last offline both busy tasks run (${t1} and ${t2} ms in 1.5 s, /proc/PID/sched)" \
		[ "${t1:-0}" -gt 300 -a "${t2:-0}" -gt 300 ]
	echo 1 >/sys/devices/system/cpu/cpu$last/online
else
	tap_skip "hotplug: a big CPU goes offline" "cpu$last cannot go offline here"
fi
kill $b1 $b2 2>/dev/null
wait

# 5b. The whole big cluster goes offline and back while two busy tasks,
# which the user gave CPUs 1-last, run on it. The kernel's fallback moves
# them off hmpgov's mask, which is not the user's will: within 5 s
# their masks are within 1-last again, once the cluster is back they are
# on it again, and rmmod gives them exactly 1-last.
# list_cpus LIST: the CPUs of a list like "0-1,3", one per line
list_cpus() {
	echo "$1" | awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-")
		for (c = r[1]; c <= r[n]; c++) print c } }'
}
# list_inside LIST "CPUS": each CPU of LIST is one of CPUS
list_inside() {
	[ -n "$1" ] || return 1
	for _c in $(list_cpus "$1"); do
		case " $2 " in *" $_c "*) ;; *) return 1 ;; esac
	done
}
both_inside() { list_inside "$(allowed $h1)" "$1" && list_inside "$(allowed $h2)" "$1"; }
if steers_masks; then
	big=$(cluster_cpus big)
	user=$(list_cpus "1-$last" | tr '\n' ' ')
	taskset -c "1-$last" duty 100 16 600 -1 &
	h1=$!
	taskset -c "1-$last" duty 100 16 600 -1 &
	h2=$!
	wait_for 10 both_inside "$big"
	check "hotplug: two busy tasks bound to 1-$last are put on the big CPUs ${big% } ($(allowed $h1), $(allowed $h2))" both_inside "$big"
	went=
	for c in $big; do
		echo 0 >/sys/devices/system/cpu/cpu$c/online 2>/dev/null && went="$went$c "
	done
	if [ "$went" = "$big" ]; then
		wait_for 5 both_inside "$user"
		check "hotplug: with the big CPUs offline both masks are within the user's 1-$last ($(allowed $h1), $(allowed $h2))" \
			both_inside "$user"
		for c in $went; do echo 1 >/sys/devices/system/cpu/cpu$c/online; done
		wait_for 10 both_inside "$big"
		check "hotplug: the big CPUs back online, both busy tasks are on them again ($(allowed $h1), $(allowed $h2))" \
			both_inside "$big"
	else
		for c in $went; do echo 1 >/sys/devices/system/cpu/cpu$c/online; done
		tap_skip "hotplug: the whole big cluster goes offline" "only ${went:-none} of $big could go offline"
	fi
	unload >/dev/null
	check "hotplug: after rmmod both have exactly the user's 1-$last ($(allowed $h1), $(allowed $h2))" \
		[ "$(allowed $h1)" = "1-$last" -a "$(allowed $h2)" = "1-$last" ]
	kill $h1 $h2 2>/dev/null
	wait
else
	tap_skip "hotplug: the whole big cluster offline and back" "steer=$(cat $SYS/steer) moves no busy task by its mask"
	unload >/dev/null
fi

# 5. Left alone: RT tasks, excluded names; observe mode changes nothing
# but traces its decisions.
# shellcheck disable=SC2086
load $PARAMS exclude_comm=spare,duty >/dev/null
duty 10 16 600 -1 &
ex=$!
wait_for 10 eval '[ "$(stat_value excluded)" -gt 0 ]'
check "left alone: a task named in exclude_comm keeps its mask ($(allowed $ex))" [ "$(allowed $ex)" = "0-$last" ]
check "left alone: excluded tasks are counted ($(stat_value excluded))" [ "$(stat_value excluded)" -gt 0 ]
check "left alone: the tasks view gives the excluded task reason excluded ($(task_field $ex 7))" [ "$(task_field $ex 7)" = excluded ]
kill $ex 2>/dev/null
wait
unload >/dev/null
fifo 10 duty 10 16 600 -1 &
rt=$!
# shellcheck disable=SC2086
load $PARAMS >/dev/null
sleep 1.5
check "left alone: a SCHED_FIFO task keeps its mask ($(allowed $rt))" [ "$(allowed $rt)" = "0-$last" ]
why=$(task_field $rt 7)
if [ -z "$why" ]; then
	tap_skip "left alone: the tasks view gives the SCHED_FIFO task reason excluded" "not tracked: this kernel's sched_stat_runtime does not fire for it"
else
	check "left alone: the tasks view gives the SCHED_FIFO task reason excluded ($why)" [ "$why" = excluded ]
fi
kill $rt 2>/dev/null
wait
unload >/dev/null
# shellcheck disable=SC2086
load $PARAMS mode=observe >/dev/null
echo 1 >$TR/events/hmpgov/hmpgov_place/enable
echo >$TR/trace
echo 1 >$TR/tracing_on
duty 10 16 600 -1 &
ob=$!
wait_for 10 eval '[ "$(grep -c "hmpgov_place: pid=$ob .*applied=0" $TR/trace)" -gt 0 ]'
echo 0 >$TR/events/hmpgov/hmpgov_place/enable
decided=$(grep -c "hmpgov_place: pid=$ob .*applied=0" $TR/trace)
check "observe: the task keeps its mask ($(allowed $ob))" [ "$(allowed $ob)" = "0-$last" ]
check "observe: its decision is traced, not applied ($decided hmpgov_place events with applied=0)" [ "$decided" -gt 0 ]
check "observe: nothing moved (moves $(stat_value moves))" [ "$(stat_value moves)" = 0 ]
kill $ob 2>/dev/null
wait
unload >/dev/null
