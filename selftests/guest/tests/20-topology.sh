# SPDX-License-Identifier: GPL-2.0
# hmpgov's read-out matches the machine: the device tree's capacities
# (normalised as the kernel does) and cluster map, and the kernel's own
# cpu_capacity where it has one.
if ! has_device_tree; then
	tap_skip "topology: matches the device tree" "no device tree on this architecture"
	return 0
fi
expected=$(dt_expected_topology)
for src in auto dt; do
	load capacity_source=$src >/dev/null
	got=$(hmpgov_topology)
	check "topology($src): capacities and clusters match the device tree" [ "$got" = "$expected" ]
	[ "$got" = "$expected" ] || tap_note "expected: $(echo "$expected" | tr '\n' ';') got: $(echo "$got" | tr '\n' ';')"
	csrc=$(cat $SYS/capacity_source)
	if dt_asymmetric; then
		case $src in
		auto) check "topology(auto): capacity source is kernel or dt ($csrc)" \
			sh -c "[ $csrc = kernel ] || [ $csrc = dt ]" ;;
		dt) check "topology(dt): capacity source is dt ($csrc)" [ "$csrc" = dt ] ;;
		esac
		kcaps=$(kernel_capacities | tr '\n' ' ')
		mine=$(echo "$got" | awk '{ printf "%s ", $2 }')
		if [ -n "$kcaps" ]; then
			check "topology($src): equals the kernel's cpu_capacity ($kcaps)" [ "$kcaps" = "$mine" ]
		fi
		check "topology($src): cluster_source is topology" [ "$(cat $SYS/cluster_source)" = topology ]
	else
		case $src in
		auto) check "topology(auto): symmetric capacity source is none ($csrc)" [ "$csrc" = none ] ;;
		dt) tap_note "capacity_source=dt on a tree without capacity-dmips-mhz: refused below" ;;
		esac
	fi
	unload >/dev/null
	dt_asymmetric || break
done
if ! dt_asymmetric; then
	mark_log
	out=$(load capacity_source=dt)
	rc=$?
	check "topology: capacity_source=dt without capacity-dmips-mhz is refused" [ $rc -ne 0 ]
	check "topology: ... with a message naming the source" sh -c "dmesg | grep -q 'capacity_source=dt: that source does not describe every CPU'"
	module_loaded && unload >/dev/null
fi
# Every CPU directory carries the source as well.
load >/dev/null
check "topology: cpu0/capacity_source equals capacity_source" \
	[ "$(cat $SYS/cpu0/capacity_source)" = "$(cat $SYS/capacity_source)" ]
n=$(ls -d $SYS/cpu[0-9]* | wc -l)
check "topology: one cpuN directory per CPU ($n)" [ "$n" -eq "$(ncpus)" ]
unload >/dev/null
