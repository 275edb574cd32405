#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The main job's guest side: what the kernel sees of the CPUs, then what
# hmpgov sees once loaded. Lines for the host are prefixed "@@OUT ".
. ./lib.sh
out() { echo "@@OUT $*"; }

out "kernel $(uname -r), machine ${HT_MACHINE:-?}, $(ncpus) CPUs"
out ""
out "before (module not loaded): the kernel's own view"
out "  cpu  cpu_capacity  topology cluster (package/cluster id)"
for c in $(seq 0 $(($(ncpus) - 1))); do
	d=/sys/devices/system/cpu/cpu$c
	cap=$(cat $d/cpu_capacity 2>/dev/null || echo n/a)
	pk=$(cat $d/topology/physical_package_id 2>/dev/null)
	cl=$(cat $d/topology/cluster_id 2>/dev/null || echo -)
	out "  $(printf '%3d  %12s  %s/%s' "$c" "$cap" "$pk" "$cl")"
done
out ""
if ! msg=$(load "$@"); then
	out "hmpgov failed to load: $msg"
	exit 1
fi
out "after (insmod hmpgov.ko $*): /sys/kernel/hmpgov"
out "  state=$(cat $SYS/state) capacity_source=$(cat $SYS/capacity_source) cluster_source=$(cat $SYS/cluster_source) nr_clusters=$(cat $SYS/nr_clusters)"
out "  cpu  capacity  cluster"
hmpgov_topology | while read -r c cap cl; do
	out "  $(printf '%3d  %8d  %7d' "$c" "$cap" "$cl")"
done
out ""
out "kernel log:"
dmesg | grep 'hmpgov: ' | grep -v -e 'taints kernel' -e 'verification failed' |
	sed 's/^\[[ 0-9.]*\] //' | while read -r l; do out "  $l"; done
unload >/dev/null
