# SPDX-License-Identifier: GPL-2.0
# Load tracking: the views exist, the probes see events, a busy task is
# tracked, and everything goes on rmmod.

load >/dev/null
check "tracking: stats and tasks views exist" [ -r $DBG/stats -a -r $DBG/tasks ]
duty 100 16 2 >/dev/null &
pid=$!
sleep 1
util=$(awk -v p="$pid" '$1 == p { print $3 }' $DBG/tasks)
tap_note "stats: $(tr '\n' ' ' <$DBG/stats)"
check "tracking: the busy task is tracked (util ${util:-none})" [ -n "$util" ]
check "tracking: runtime events are counted" [ "$(awk '$1 == "events_runtime" { print $2 }' $DBG/stats)" -gt 0 ]
wait $pid
echo 64 >$SYS/halflife_ms
check "tracking: halflife_ms takes 64" [ "$(cat $SYS/halflife_ms)" = 64 ]
check "tracking: stats show the new half-life" [ "$(stat_value halflife_ms)" = 64 ]
for bad in 0 1001 abc -1 ""; do
	if echo "$bad" >$SYS/halflife_ms 2>/dev/null; then
		tap_not_ok "tracking: halflife_ms '$bad' refused"
	else
		check "tracking: halflife_ms '$bad' refused, value unchanged" [ "$(cat $SYS/halflife_ms)" = 64 ]
	fi
done
unload >/dev/null
check "tracking: debugfs directory gone after rmmod" [ ! -e $DBG ]
