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

# util_at KHZ: median avg of a 50 % / 16 ms task on the big CPU
util_at() {
	set_speed "$1" >/tmp/freq_now
	duty 50 16 3 "$big" &
	_pid=$!
	sleep 1.5
	avg_median "$_pid" 5
	wait $_pid
}

# Tracking alone: steering would pack the test's helpers beside the
# measured task.
load mode=off >/dev/null
full=$(util_at "$max")
check "frequency: cpu$big at its maximum ($(cat /tmp/freq_now) kHz)" [ "$(cat /tmp/freq_now)" = "$max" ]
halved=$(util_at "$half")
check "frequency: cpu$big at half its maximum ($(cat /tmp/freq_now) kHz)" [ "$(cat /tmp/freq_now)" = "$half" ]
check "frequency: the module saw the changes (events_frequency $(stat_value events_frequency))" \
	[ "$(stat_value events_frequency)" -gt 0 ]
# halves within 5 %: 2 x halved is full within 5 % of full
check "frequency: half the frequency halves utilization ($full -> $halved)" \
	awk -v f="$full" -v h="$halved" 'BEGIN { exit !(f > 0 && 2 * h >= f * 0.95 && 2 * h <= f * 1.05) }'
set_speed "$max" >/dev/null
[ "$gov" != userspace ] && echo "$gov" >$pol/scaling_governor
unload >/dev/null
rmmod hmpgov_testfreq
check "frequency: the test driver unloads" [ ! -d /sys/module/hmpgov_testfreq ]
