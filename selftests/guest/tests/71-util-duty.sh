# SPDX-License-Identifier: GPL-2.0
# The signal is scale-invariant and priority-blind: a task pinned to a CPU
# with duty cycle d reads d x capacity within 5 % of scale (51), checked
# against the kernel's own PELT util_avg (within 10 %: PELT ripples over a 16 ms period) where the kernel knows the
# capacities; nice -20 and nice 19 at the same duty agree within 5 %.
if [ "$(ncpus)" -lt 3 ] || ! dt_asymmetric; then
	tap_skip "util-duty: duty cycles on big and little CPUs" "needs an asymmetric machine with a device tree"
	return 0
fi
# Tracking alone: steering would pack the test's helpers beside the
# measured task.
load mode=off >/dev/null
little=$(little_cpu)
big=$(big_cpu)
lcap=$(cat $SYS/cpu$little/capacity)
bcap=$(cat $SYS/cpu$big/capacity)
kernel_knows=$(kernel_capacities | sort -u | wc -l)
for d in 25 50 75; do
	for where in big little; do
		eval cpu=\$$where
		cap=$(cat $SYS/cpu$cpu/capacity)
		duty "$d" 16 5 "$cpu" &
		pid=$!
		sleep 1.5
		# 15 samples: a 25 % task's avg ripples by about +-30 over its
		# period, and 5 samples read 195-208 now and then
		set -- $(util_medians "$pid" 15)
		got=$1
		pelt=${2:-}
		wait $pid
		want=$((d * cap / 100))
		check "util-duty: $d% on $where cpu$cpu (cap $cap): $got, want $want +-51" within "$got" "$want" 51
		if [ "$kernel_knows" -gt 1 ] && [ -n "$pelt" ]; then
			check "util-duty: $d% on $where: agrees with the kernel's util_avg $pelt within 102" within "$got" "$pelt" 102
		fi
	done
done
# Priority independence: same duty, nice -20 and nice 19, on two CPUs of
# the same capacity (the two biggest).
other=$((big - 1))
duty 50 16 3 "$big" -20 &
p1=$!
duty 50 16 3 "$other" 19 &
p2=$!
sleep 1.5
a=$(avg_median "$p1" 5)
b=$(avg_median "$p2" 5)
wait $p1 $p2
check "util-duty: nice -20 ($a) and nice 19 ($b) at 50% agree within 51" within "$a" "$b" 51
unload >/dev/null
