# SPDX-License-Identifier: GPL-2.0
# Frequency invariance: with the test-only cpufreq driver (hmpgov_testfreq,
# no hardware effect), a 50 % task on a big CPU reads half as much once
# that CPU's policy runs at half its maximum. The kernel's own cpufreq
# files say which frequency the CPU is at.
TESTFREQ=/hmpgov/hmpgov_testfreq.ko
if ! dt_asymmetric; then
	tap_skip "frequency: utilization halves at half the frequency" "needs the device-tree big.LITTLE machines"
	return 0
fi
if ! out=$(modload $TESTFREQ 2>&1); then
	tap_not_ok "frequency: the test cpufreq driver loads ($out)"
	return 0
fi
big=$(big_cpu)
pol=/sys/devices/system/cpu/cpu$big/cpufreq
check "frequency: cpu$big has a policy of the test driver" \
	[ "$(cat $pol/scaling_driver 2>/dev/null)" = hmpgov-testfreq ]
max=$(cat $pol/cpuinfo_max_freq)
half=$((max / 2))
gov=$(cat $pol/scaling_governor)

# set_speed KHZ: pin the policy at KHZ, with the userspace governor where
# the kernel has it, else by its limits; prints the frequency it is at.
set_speed() {
	if grep -qw userspace $pol/scaling_available_governors; then
		echo userspace >$pol/scaling_governor
		echo "$1" >$pol/scaling_setspeed
	elif [ "$1" -lt "$(cat $pol/scaling_max_freq)" ]; then
		echo "$1" >$pol/scaling_min_freq
		echo "$1" >$pol/scaling_max_freq
	else
		echo "$1" >$pol/scaling_max_freq
		echo "$1" >$pol/scaling_min_freq
	fi
	cat $pol/scaling_cur_freq
}

# util_at KHZ: "AVG SHARE" for a 50 % / 16 ms task on the big CPU: the
# median of 15 samples of avg (its ripple over the period is about 5 %,
# so 5 samples were not enough for a 5 % criterion), and the share (per
# mille) of the sampling time the task really ran (share_begin/end); the
# comparison below is per unit of runtime actually had.
util_at() {
	set_speed "$1" >/tmp/freq_now
	duty 50 16 60 "$big" &	# outlives the sampling
	_pid=$!
	sleep 1.5
	share_begin "$_pid"
	_u=$(avg_median "$_pid" 15)
	_s=$(share_end "$_pid")
	kill $_pid
	wait $_pid 2>/dev/null
	echo "$_u $_s"
}

# Tracking alone: steering would pack the test's helpers beside the
# measured task.
load mode=off >/dev/null
# Three alternating pairs; each frequency's figure is the median of its
# three, per 1000 of runtime (a single reading at the top frequency was
# seen 8 % low now and then, 463 against 501-503, cause not found).
: >/tmp/full
: >/tmp/half
: >/tmp/freq_log
for _r in 1 2 3; do
	for _f in "$max" "$half"; do
		set -- $(util_at "$_f")
		echo "$_f $(cat /tmp/freq_now) $1 $2" >>/tmp/freq_log
		[ "$2" -gt 0 ] && echo $(($1 * 1000000 / $2)) >>/tmp/$([ "$_f" = "$max" ] && echo full || echo half)
	done
done
tap_note "frequency: set kHz, read kHz, avg, runtime/1000: $(tr '\n' ';' </tmp/freq_log)"
check "frequency: cpu$big at its maximum in each pair" [ "$(awk -v f="$max" '$1 == f && $2 != f' /tmp/freq_log | wc -l)" = 0 ]
check "frequency: cpu$big at half its maximum in each pair" [ "$(awk -v f="$half" '$1 == f && $2 != f' /tmp/freq_log | wc -l)" = 0 ]
check "frequency: the module saw the changes (events_frequency $(stat_value events_frequency))" \
	[ "$(stat_value events_frequency)" -gt 0 ]
full=$(median </tmp/full)
halved=$(median </tmp/half)
# halves within 5 %: 2 x halved is full within 5 % of full (avg per unit
# of runtime, x 1000)
check "frequency: half the frequency halves utilization ($full -> $halved per unit of runtime)" \
	awk -v f="$full" -v h="$halved" 'BEGIN { exit !(f > 0 && 2 * h >= f * 0.95 && 2 * h <= f * 1.05) }'
set_speed "$max" >/dev/null
[ "$gov" != userspace ] && echo "$gov" >$pol/scaling_governor
unload >/dev/null
rmmod hmpgov_testfreq
check "frequency: the test driver unloads" [ ! -d /sys/module/hmpgov_testfreq ]
