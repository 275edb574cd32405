# SPDX-License-Identifier: GPL-2.0
# Probe cost of the load tracking: a context-switch-heavy workload
# (pingpong: two processes on one CPU) with hmpgov unloaded and loaded,
# alternated in one boot, HT_ROUNDS rounds of HT_SECS seconds each.
# Prints "@@BENCH round R unloaded|loaded NS_PER_SWITCH" lines and
# "@@BENCH median unloaded|loaded NS" for scripts/bench-tracking.sh.
. ./lib.sh
rounds=${HT_ROUNDS:-9}
secs=${HT_SECS:-2}
cpu=$(big_cpu)

: >/tmp/unloaded
: >/tmp/loaded
r=1
while [ "$r" -le "$rounds" ]; do
	ns=$(pingpong "$cpu" "$secs" | awk '{ print $4 }')
	echo "@@BENCH round $r unloaded $ns"
	echo "$ns" >>/tmp/unloaded
	load >/dev/null || { echo "@@BENCH error: insmod failed"; exit 1; }
	ns=$(pingpong "$cpu" "$secs" | awk '{ print $4 }')
	echo "@@BENCH round $r loaded $ns"
	echo "$ns" >>/tmp/loaded
	echo "@@BENCH stats $(tr '\n' ' ' <$DBG/stats)"
	unload >/dev/null
	r=$((r + 1))
done
echo "@@BENCH median unloaded $(median </tmp/unloaded)"
echo "@@BENCH median loaded $(median </tmp/loaded)"
