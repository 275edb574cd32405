# SPDX-License-Identifier: GPL-2.0
# hmpgov loads, logs one line per cluster, says active or passive, unloads.
mark_log
out=$(load)
check "load: insmod succeeds" [ $? -eq 0 ]
[ -n "$out" ] && tap_note "insmod: $out"
check "load: listed in /proc/modules" module_loaded
log=$(new_log | grep 'hmpgov: ')
tap_note "$(echo "$log" | grep cluster | tr '\n' ';')"
nr=$(cat $SYS/nr_clusters)
lines=$(echo "$log" | grep -c 'hmpgov: cluster [0-9]*: cpus ')
check "load: one log line per cluster ($lines lines, $nr clusters)" [ "$lines" -eq "$nr" ]

state=$(cat $SYS/state)
if dt_asymmetric; then
	check "load: asymmetric machine is active (state=$state)" [ "$state" = active ]
else
	check "load: symmetric machine is passive (state=$state)" [ "$state" = passive ]
	check "load: passive state is logged" sh -c 'dmesg | grep -q "hmpgov: passive: .*nothing to steer"' 
fi
out=$(unload)
check "load: rmmod succeeds" [ $? -eq 0 ]
check "load: gone from /proc/modules" sh -c '! grep -q "^hmpgov " /proc/modules' 
