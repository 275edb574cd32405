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
refused "threshold over 1024" "big_up=: .* must keep" small_up=2000
refused "thresholds out of order" "big_up=: 160, 256, 512, 100 must keep" big_up=100
refused "small_down zero" "small_down=.*0, 256, 512, 700 must keep" small_down=0
refused "small_down above small_up" "small_down=.*300, 256, 512, 700 must keep" small_down=300
refused "min_interval_ms too long" "min_interval_ms=: 1001 is out of range 0..1000" min_interval_ms=1001
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
