# SPDX-License-Identifier: GPL-2.0
# Every bad parameter fails insmod with EINVAL and one log line that names
# the parameter and the problem.
n=$(ncpus)
ones=$(awk -v n="$n" 'BEGIN { for (i = 1; i < n; i++) printf "1024,"; }')

refused "wrong count" "capacity=: expects $n values .*got $((n + 1))" "capacity=${ones}1024,1024"
refused "not a number" "capacity=: value $((n - 1)) \('abc'\) is not a number" "capacity=${ones}abc"
refused "empty value" "capacity=: value 0 \(''\) is not a number" "capacity=,${ones%,}"
refused "zero" "capacity=: value $((n - 1)) \(0\) is out of range 1..1024" "capacity=${ones}0"
refused "over 1024" "capacity=: value $((n - 1)) \(1025\) is out of range 1..1024" "capacity=${ones}1025"
refused "huge number" "capacity=: value $((n - 1)) \(99999999999\) is out of range" "capacity=${ones}99999999999"
refused "negative" "capacity=: value $((n - 1)) \('-5'\) is not a number" "capacity=${ones}-5"
refused "unknown option" "capacity_source=: unknown option 'bogus'" capacity_source=bogus
refused "steer unknown" "steer=: unknown option 'bogus'" steer=bogus
refused "unknown mode" "mode=: unknown mode 'bogus'" mode=bogus
refused "threshold over 1024" "small_up=: 2000 is out of range 0..1024" small_up=2000
refused "thresholds out of order" "big_up=: 160, 256, 512, 100 must keep" big_up=100
refused "small_down zero" "small_down=.*0, 256, 512, 700 must keep" small_down=0
refused "small_down above small_up" "small_down=.*300, 256, 512, 700 must keep" small_down=300
refused "min_interval_ms too long" "min_interval_ms=: 1001 is out of range 0..1000" min_interval_ms=1001
refused "class_hold_ms too long" "class_hold_ms=: 1001 is out of range 0..1000" class_hold_ms=1001
refused "move_interval_ms too long" "move_interval_ms=: 5000 is out of range 0..1000" move_interval_ms=5000
refused "min_interval_ms negative" "min_interval_ms=: -5 is out of range 0..1000" min_interval_ms=-5
refused "min_interval_ms -1" "min_interval_ms=: -1 is out of range 0..1000" min_interval_ms=-1
refused "min_interval_ms with its new names" "min_interval_ms=: the old name of class_hold_ms= and move_interval_ms= together" \
	min_interval_ms=5 class_hold_ms=6
refused "pack_limit zero" "pack_limit=: 0 is out of range 1..1024" pack_limit=0
refused "pack_limit over 1024" "pack_limit=: 2000 is out of range 1..1024" pack_limit=2000
refused "exclude_comm empty name" "exclude_comm=: 'a,,b' is not a comma-separated list" exclude_comm=a,,b
# A good set loads and reaches the knobs.
load mode=observe small_down=100 small_up=200 big_down=600 big_up=800 \
	min_interval_ms=8 pack_limit=500 exclude_comm=foo,bar >/dev/null
got="$(cat $SYS/mode) $(cat $SYS/small_down) $(cat $SYS/small_up) $(cat $SYS/big_down) $(cat $SYS/big_up) $(cat $SYS/min_interval_ms) $(cat $SYS/pack_limit)"
expect="observe 100 200 600 800 8 500"
grep -q active $SYS/state || expect="off 100 200 600 800 8 500"
check "params: the steering parameters reach the knobs ($got)" [ "$got" = "$expect" ]
unload >/dev/null
# The split intervals, and the old name setting both.
load class_hold_ms=12 move_interval_ms=20 >/dev/null
got="$(cat $SYS/class_hold_ms) $(cat $SYS/move_interval_ms) $(cat $SYS/min_interval_ms)"
check "params: class_hold_ms and move_interval_ms reach their knobs ($got)" [ "$got" = "12 20 20" ]
echo 7 >$SYS/min_interval_ms
got="$(cat $SYS/class_hold_ms) $(cat $SYS/move_interval_ms)"
check "knobs: writing min_interval_ms (old name) sets both ($got)" [ "$got" = "7 7" ]
mark_log
echo 1001 >$SYS/min_interval_ms 2>/dev/null
line=$(new_log | grep "hmpgov: min_interval_ms: 1001 is out of range 0..1000; unchanged")
got="$(cat $SYS/class_hold_ms) $(cat $SYS/move_interval_ms)"
check "knobs: a bad min_interval_ms write is refused under its own name ($got)" eval '[ -n "$line" ] && [ "$got" = "7 7" ]'
got=$(cat /sys/module/hmpgov/parameters/min_interval_ms)
check "knobs: /sys/module/hmpgov/parameters/min_interval_ms reads move_interval_ms ($got)" [ "$got" = 7 ]
echo 300 >$SYS/pack_limit
got=$(cat /sys/module/hmpgov/parameters/pack_limit)
check "knobs: /sys/module/hmpgov/parameters follows a knob write (pack_limit $got)" [ "$got" = 300 ]
mark_log
echo 2000 >$SYS/small_up 2>/dev/null
line=$(new_log | grep "hmpgov: small_up: 2000 is out of range 0..1024; unchanged")
check "knobs: a bad write logs why (${line#*hmpgov: })" [ -n "$line" ]
mark_log
echo 100 >$SYS/big_up 2>/dev/null
line=$(new_log | grep "hmpgov: small_down, small_up, big_down, big_up: 160, 256, 512, 100 would break")
check "knobs: a write breaking the thresholds' order logs why" [ -n "$line" ]
unload >/dev/null
load min_interval_ms=9 >/dev/null
got="$(cat $SYS/class_hold_ms) $(cat $SYS/move_interval_ms)"
check "params: min_interval_ms= (old name) sets both ($got)" [ "$got" = "9 9" ]
unload >/dev/null
