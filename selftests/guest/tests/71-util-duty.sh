# SPDX-License-Identifier: GPL-2.0
# The signal is scale-invariant and priority-blind: a task pinned to a CPU
# with duty cycle d reads d x capacity within 5 % of scale (51), checked
# against the kernel's own PELT util_avg (within 10 %: PELT ripples over a
# 16 ms period) where the kernel knows the capacities; nice -20 and nice
# 19 at the same duty agree within 5 %. Under emulation a task's vCPU
# gets unequal host time, so d is the share of the sampling time the task
# really ran (the kernel's sum_exec_runtime); the nominal duty is noted.
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
		# outlives the sampling, which takes longer on a busy host
		duty "$d" 16 60 "$cpu" &
		pid=$!
		sleep 1.5
		# 15 samples: a 25 % task's avg ripples by about +-30 over its
		# period
		share_begin "$pid"
		set -- $(util_medians "$pid" 15)
		share=$(share_end "$pid")
		got=$1
		pelt=${2:-}
		kill $pid
		wait $pid 2>/dev/null
		want=$((share * cap / 1000))
		measured "util-duty: $d% on $where cpu$cpu: $got within 51 of the nominal $((d * cap / 100))" \
			within "$got" "$((d * cap / 100))" 51
		check "util-duty: $d% on $where cpu$cpu (cap $cap): $got, ran ${share}/1000: want $want +-51" \
			eval '[ "$share" -gt 0 ] && within "$got" "$want" 51'
		if [ "$kernel_knows" -gt 1 ] && [ -n "$pelt" ]; then
			check "util-duty: $d% on $where: agrees with the kernel's util_avg $pelt within 102" within "$got" "$pelt" 102
		fi
	done
done
# Priority independence: same duty, nice -20 and then nice 19, alone on
# the same (biggest) CPU one after the other. Each avg is taken per unit
# of the runtime its task really had (/proc/PID/sched over the sampling)
# and scaled to exactly 50 %. (Run side by side on the two biggest CPUs
# in deterministic guest time, the nice -20 task got 44-48 % of its CPU
# and the other 49-50 %, and the scaling then magnified the difference:
# 543-560 against 470-483.)
duty 50 16 60 "$big" -20 &
p1=$!
sleep 1.5
share_begin $p1
a=$(avg_median "$p1" 15)
s1=$(share_end $p1)
kill $p1
wait $p1 2>/dev/null
duty 50 16 60 "$big" 19 &
p2=$!
sleep 1.5
share_begin $p2
b=$(avg_median "$p2" 15)
s2=$(share_end $p2)
kill $p2
wait $p2 2>/dev/null
# no runtime seen: fail (busybox evaluates both arms of ?:, so no ?: here)
a50=-1000
b50=1000
[ "$s1" -gt 0 ] && a50=$((a * 500 / s1))
[ "$s2" -gt 0 ] && b50=$((b * 500 / s2))
check "util-duty: nice -20 ($a at ${s1}/1000 runtime: $a50 at 50 %) and nice 19 ($b at ${s2}/1000: $b50) agree within 51" within "$a50" "$b50" 51
unload >/dev/null
