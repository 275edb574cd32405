# SPDX-License-Identifier: GPL-2.0
# capacity= overrides discovery: on a symmetric machine it gives the
# asymmetric view (the capacity-blind case).
n=$(ncpus)
half=$((n / 2))
caps=
exp=
i=0
while [ "$i" -lt "$n" ]; do
	if [ "$i" -lt "$half" ]; then c=446; else c=1024; fi
	caps="$caps${caps:+,}$c"
	exp="$exp$i $c
"
	i=$((i + 1))
done
load capacity="$caps" >/dev/null
check "override: capacity=$caps loads" module_loaded
got=$(hmpgov_topology | awk '{ print $1, $2 }')
check "override: capacities are the given ones" [ "$got" = "$(printf '%s' "$exp")" ]
check "override: capacity_source is param" [ "$(cat $SYS/capacity_source)" = param ]
check "override: state is active" [ "$(cat $SYS/state)" = active ]
# Clusters: littles before bigs, each cluster of one capacity.
bad=$(hmpgov_topology | awk -v h="$half" '($1 < h) != ($3 < 1) { print $1 }' | wc -l)
nr=$(cat $SYS/nr_clusters)
check "override: cluster 0 holds exactly the little CPUs ($nr clusters)" [ "$bad" -eq 0 ]
mixed=$(hmpgov_topology | awk '{ if (($3 in c) && c[$3] != $2) m++; c[$3] = $2 } END { print m + 0 }')
check "override: every cluster has one capacity" [ "$mixed" -eq 0 ]
check "override: parameter is readable" [ "$(cat /sys/module/hmpgov/parameters/capacity)" = "$caps" ]
unload >/dev/null
