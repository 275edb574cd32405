#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The main job's guest side: what hmpgov finds, then a mixed workload (two
# always-busy tasks and three 10 % tasks) under the stock kernel's own
# placement and under hmpgov, measured from the kernel's sched_switch and
# sched_migrate_task events, side by side. Lines for the host are
# prefixed "@@OUT ".
. ./lib.sh
out() { echo "@@OUT $*"; }

out "kernel $(uname -r), machine ${HT_MACHINE:-?}, $(ncpus) CPUs"
if ! msg=$(load "$@"); then
	out "hmpgov failed to load: $msg"
	exit 1
fi
out "hmpgov (insmod hmpgov.ko $*): state=$(cat $SYS/state), capacity from $(cat $SYS/capacity_source), mode $(cat $SYS/mode)"
out "  cpu  capacity  cluster"
hmpgov_topology | while read -r c cap cl; do
	out "  $(printf '%3d  %8d  %7d' "$c" "$cap" "$cl")"
done
LITTLE=$(cluster_cpus little | sed 's/ $//')
BIG=$(cluster_cpus big | sed 's/ $//')
out ""
out "workload: 2 always-busy tasks + 3 tasks at 10 % of 16 ms; 0.7 s warm-up, 5 s measured"
unload >/dev/null
for when in unloaded loaded; do
	[ $when = loaded ] && load "$@" >/dev/null
	scenario demo $when 100 100 10 10 10
	f=/tmp/rt.demo.$when
	# shellcheck disable=SC2086
	eval "l_$when=\$(share $f \"$LITTLE\" $SMALL)"
	# shellcheck disable=SC2086
	eval "t_$when=\$(top_share $f $SMALL)"
	# shellcheck disable=SC2086
	eval "b_$when=\$(share $f \"$BIG\" $BUSY)"
	# shellcheck disable=SC2086
	eval "m_$when=\$(migration_rate $f 5 $SMALL)"
	# shellcheck disable=SC2086
	eval "a_$when=\$(awk '\$1 == \"pid\" { m += \$NF } END { print m + 0 }' $f)"
done
[ "$(cat $SYS/mode)" = steer ] && moves=$(stat_value moves)
unload >/dev/null
row() { out "$(printf '  %-44s %12s %12s' "$1" "$2" "$3")"; }
out ""
row "" "stock kernel" "with hmpgov"
row "small-task time on little CPUs ($LITTLE)" "$l_unloaded %" "$l_loaded %"
row "small-task time on the one busiest CPU" "$t_unloaded %" "$t_loaded %"
row "busy-task time on big CPUs ($BIG)" "$b_unloaded %" "$b_loaded %"
row "small-task migrations per task per second" "$m_unloaded" "$m_loaded"
row "migrations of the 5 tasks in 5 s" "$a_unloaded" "$a_loaded"
out ""
out "hmpgov changed $moves masks while loaded (its own moves, from its stats)."

