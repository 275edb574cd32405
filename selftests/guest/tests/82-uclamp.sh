# SPDX-License-Identifier: GPL-2.0
# uclamp steering (steer=uclamp): where the kernel has no uclamp it is
# refused and auto picks affinity; where it has, the values hmpgov sets
# are read back with sched_getattr(2) (clamps(1)), the user's clamps are
# never weakened, a change made while managed becomes the base, and
# rmmod and mode=off give every task (200 by default) its request back exactly.
if ! placement_params; then
	tap_skip "uclamp: steering by uclamp" "the x86 machine has 2 equal CPUs"
	return 0
fi
if ! kernel_has_uclamp; then
	# shellcheck disable=SC2086
	refused "steer=uclamp without uclamp" "steer=uclamp: this kernel has no uclamp" $PARAMS steer=uclamp
	# shellcheck disable=SC2086
	refused "steer=both without uclamp" "steer=both: this kernel has no uclamp" $PARAMS steer=both
	# shellcheck disable=SC2086
	load $PARAMS >/dev/null
	check "uclamp: without uclamp auto picks affinity ($(stat_value steer))" [ "$(stat_value steer)" = affinity ]
	unload >/dev/null
	return 0
fi
if [ -n "$PARAMS" ]; then
	# shellcheck disable=SC2086
	refused "steer=uclamp on a kernel that sees equal CPUs" "steer=uclamp: the kernel itself sees no asymmetric" $PARAMS steer=uclamp
	# shellcheck disable=SC2086
	load $PARAMS >/dev/null
	check "uclamp: where the kernel sees equal CPUs auto picks affinity ($(stat_value steer))" [ "$(stat_value steer)" = affinity ]
	unload >/dev/null
	return 0
fi

load >/dev/null
check "uclamp: auto picks uclamp here ($(stat_value steer), asked $(stat_value steer_requested))" \
	[ "$(stat_value steer)" = uclamp -a "$(stat_value steer_requested)" = auto ]
unload >/dev/null
# The levels: one above the little CPUs' capacity, and the largest value
# under 80 % of it (docs/uclamp.md).
little_cap=$(kernel_capacities | awk 'NR == 1 || $1 < m { m = $1 } END { print m }')
want_min=$((little_cap + 1))
want_max=$(((little_cap * 1024 - 1) / 1280))
tap_note "uclamp: little capacity $little_cap: big tasks util_min $want_min, small tasks util_max $want_max"

# clamps_of FILE: "pid min max nice" now, for the pids in FILE
clamps_of() {
	# shellcheck disable=SC2046
	clamps get $(cat "$1") 2>/dev/null | awk '{ print $1, $2, $3, $4 }'
}
# mismatch BEFORE: how many tasks of BEFORE ("pid min max nice") differ now
mismatch() { clamps_of /tmp/cpids | awk 'NR == FNR { now[$1] = $0; next } now[$1] != $0 { n++ } END { print n + 0 }' - "$1"; }
mismatching() { clamps_of /tmp/cpids | awk 'NR == FNR { now[$1] = $0; next } now[$1] != $0 && n++ < 3 { printf "[%s -> %s] ", $0, now[$1] }' - "$1"; }

# $N small tasks (HT_UC_TASKS, a multiple of 8, default 200; 40 on the
# debug kernel) and 2 busy ones: a quarter with no clamps, a quarter
# capped by their user at 200, a quarter boosted to 500, a quarter with
# 100..900, some at nice 5; all set before hmpgov is loaded. Q is a
# quarter, Q90 nine tenths of it. They live 600 s and are stopped by
# pid at the end (300 s ran out before the file did on the debug kernel).
N=${HT_UC_TASKS:-200}
Q=$((N / 4))
Q90=$((Q * 9 / 10))
duty 100 16 600 -1 &
busy1=$!
duty 100 16 600 -1 &
busy2=$!
: >/tmp/cpids
i=0
while [ $i -lt $N ]; do
	if [ $((i % 8)) = 7 ]; then
		duty 1 100 600 -1 5 &
	else
		duty 1 100 600 -1 &
	fi
	pid=$!
	case $((i % 4)) in
	1) clamps set $pid -1 200 ;;
	2) clamps set $pid 500 -1 ;;
	3) clamps set $pid 100 900 ;;
	esac
	echo $pid >>/tmp/cpids
	i=$((i + 1))
done
echo $busy1 >>/tmp/cpids
echo $busy2 >>/tmp/cpids
sleep 1
clamps_of /tmp/cpids >/tmp/clamps.before
check "uclamp: the user's clamps are in place ($(awk '$3 == 200' /tmp/clamps.before | wc -l) capped at 200)" \
	[ "$(awk '$3 == 200' /tmp/clamps.before | wc -l)" = $Q ]

load steer=uclamp >/dev/null
wait_for 20 eval '[ "$(stat_value managed)" -ge $((N + 2)) ]'
# every task gets its hints within a bound (N - Q + 2 change: the 2 busy
# ones, and the small ones but those capped at 200): the checks judge them
wait_for 30 eval '[ "$(mismatch /tmp/clamps.before)" -ge $((N - Q + 2)) ]'
clamps_of /tmp/cpids >/tmp/clamps.loaded
tap_note "uclamp: $(grep -E '^(managed|uclamp_sets|uclamp_base_changes|uclamp_errors|moves) ' "$DBG/stats" | tr '\n' ' ')"
b1=$(awk -v p=$busy1 '$1 == p { print $2 }' /tmp/clamps.loaded)
b2=$(awk -v p=$busy2 '$1 == p { print $2 }' /tmp/clamps.loaded)
check "uclamp: the busy tasks got util_min $want_min ($b1, $b2)" [ "$b1" = $want_min -a "$b2" = $want_min ]
# what each kind of small task should carry: "user's min/max -> hmpgov's"
kind() { awk -v m="$2" -v x="$3" -v wm="$4" -v wx="$5" 'NR == FNR { b[$1] = $2 " " $3; next }
	b[$1] == m " " x && $2 == wm && $3 == wx { n++ } END { print n + 0 }' /tmp/clamps.before "$1"; }
plain=$(kind /tmp/clamps.loaded 0 1024 0 $want_max)
capped=$(kind /tmp/clamps.loaded 0 200 0 200)
boosted=$(kind /tmp/clamps.loaded 500 1024 500 500)
ranged=$(kind /tmp/clamps.loaded 100 900 100 $want_max)
tap_note "uclamp: small tasks carrying the expected request: plain $plain, user-capped $capped, user-boosted $boosted, 100..900 $ranged (of $Q each)"
check "uclamp: small tasks without clamps got util_max $want_max ($plain of $Q)" [ "$plain" -ge $Q90 ]
check "uclamp: a user's util_max of 200 is never raised ($capped of $Q kept 200)" [ "$capped" = $Q ]
check "uclamp: a user's util_min of 500 is never lowered; the cap stops there ($boosted of $Q)" [ "$boosted" -ge $Q90 ]
check "uclamp: a user's 100..900 is narrowed to 100..$want_max ($ranged of $Q)" [ "$ranged" -ge $Q90 ]
nices=$(awk 'NR == FNR { b[$1] = $4; next } b[$1] != $4 { n++ } END { print n + 0 }' /tmp/clamps.before /tmp/clamps.loaded)
check "uclamp: nice and policy untouched ($nices tasks changed nice)" [ "$nices" = 0 ]
# a change made while managed becomes the base
ch=$(sed -n 5p /tmp/cpids)
clamps set "$ch" 50 300
awk -v p="$ch" '$1 == p { $2 = 50; $3 = 300 } { print }' /tmp/clamps.before >/tmp/clamps.want
sleep 1
unload >/dev/null
bad=$(mismatch /tmp/clamps.want)
check "uclamp: after rmmod under load all $((N + 2)) have exactly their requests ($bad differ $(mismatching /tmp/clamps.want))" [ "$bad" = 0 ]

load steer=uclamp >/dev/null
# (one fewer: the task changed while managed asked for 50..300 itself)
wait_for 30 eval '[ "$(mismatch /tmp/clamps.want)" -ge $((N - Q + 1)) ]'
changed=$(mismatch /tmp/clamps.want)
echo off >"$SYS/mode"
bad=$(mismatch /tmp/clamps.want)
check "uclamp: mode=off gives the requests back ($changed had hmpgov's, $bad differ after: $(mismatching /tmp/clamps.want))" \
	[ "$changed" -gt $((N / 2)) -a "$bad" = 0 ]
check "uclamp: no request was refused by the kernel (uclamp_errors $(stat_value uclamp_errors))" [ "$(stat_value uclamp_errors)" = 0 ]
unload >/dev/null
while read -r pid; do kill "$pid" 2>/dev/null; done </tmp/cpids
wait
