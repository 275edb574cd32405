# SPDX-License-Identifier: GPL-2.0
# Every move explained: with a busy task and a small one under hmpgov,
# the hmpgov_place trace line of each names its rule (reason, cluster)
# and the mask the kernel then shows for that task in /proc; hmpgov_pack
# reports the packing set the small task runs on; the tasks view shows
# each task's class and reason.
if ! placement_params; then
	tap_skip "explain: the reasons of hmpgov's moves" "the x86 machine has 2 equal CPUs"
	return 0
fi
kmask() { awk '$1 == "Cpus_allowed:" { gsub(",", "", $2); print $2 }' "/proc/$1/status"; }
# the CPUs of cluster $1 as a hex mask
cluster_mask() {
	_m=0
	_cpu=0
	while [ "$_cpu" -lt "$(ncpus)" ]; do
		[ "$(cat $SYS/cpu$_cpu/cluster)" = "$1" ] && _m=$((_m | (1 << _cpu)))
		_cpu=$((_cpu + 1))
	done
	printf '%x' "$_m"
}
# shellcheck disable=SC2086
load $PARAMS steer=affinity >/dev/null
echo 0 >$TR/tracing_on
echo >$TR/trace
echo 1 >$TR/events/hmpgov/hmpgov_place/enable
echo 1 >$TR/events/hmpgov/hmpgov_pack/enable
echo 1 >$TR/tracing_on
# the packing set formed at load, before the events were on: off and on
# again start it afresh, so that hmpgov_pack reports it
echo off >$SYS/mode
echo steer >$SYS/mode
duty 100 16 600 -1 &
busy=$!
duty 5 16 600 -1 &
small=$!
wait_for 60 eval '[ "$(task_field $busy 7)" = big_on_cluster ] && [ "$(task_field $small 7)" = packed ]'
check "explain: the tasks view says why (busy: $(task_field $busy 6) $(task_field $busy 7); small: $(task_field $small 6) $(task_field $small 7))" \
	eval '[ "$(task_field $busy 7)" = big_on_cluster ] && [ "$(task_field $small 7)" = packed ]'
sleep 0.2
echo 0 >$TR/tracing_on
line=$(grep "hmpgov_place: pid=$busy .*applied=1" $TR/trace | tail -n 1)
mask=$(echo "$line" | sed -n 's/.* mask=\([0-9a-f]*\) .*/\1/p')
cluster=$(echo "$line" | sed -n 's/.* cluster=\([0-9-]*\).*/\1/p')
check "explain: the busy task's last move says class=big reason=big_on_cluster (${line#*hmpgov_place: })" \
	eval 'echo "$line" | grep -q "class=big .*reason=big_on_cluster cluster=[1-9]"'
check "explain: its mask ($mask) is cluster $cluster's CPUs ($(cluster_mask "$cluster")) and the kernel's ($(kmask $busy))" \
	eval '[ -n "$mask" ] && [ $((0x$mask)) = $((0x$(cluster_mask "$cluster"))) ] && [ $((0x$mask)) = $((0x$(kmask $busy))) ]'
line=$(grep "hmpgov_place: pid=$small .*applied=1" $TR/trace | tail -n 1)
mask=$(echo "$line" | sed -n 's/.* mask=\([0-9a-f]*\) .*/\1/p')
pack=$(grep "hmpgov_pack: " $TR/trace | tail -n 1)
pcpus=$(echo "$pack" | sed -n 's/.* cpus=\([0-9a-f]*\) .*/\1/p')
check "explain: the small task's last move says reason=packed (${line#*hmpgov_place: })" \
	eval 'echo "$line" | grep -q "class=small .*reason=packed cluster=-1"'
# one CPU of the set hmpgov_pack reported (the whole set when it has one)
check "explain: hmpgov_pack reported the set it was packed on, its mask one CPU of it (${pack#*hmpgov_pack: }; its mask $mask, the kernel's $(kmask $small))" \
	eval '[ -n "$pcpus" ] && [ -n "$mask" ] && [ $((0x$mask & ~0x$pcpus)) = 0 ] && [ $((0x$mask & (0x$mask - 1))) = 0 ] && [ $((0x$mask)) != 0 ] && [ $((0x$mask)) = $((0x$(kmask $small))) ]'
echo 0 >$TR/events/hmpgov/hmpgov_place/enable
echo 0 >$TR/events/hmpgov/hmpgov_pack/enable
kill $busy $small
wait $busy $small 2>/dev/null
unload >/dev/null
