# SPDX-License-Identifier: GPL-2.0
# The emulator itself: in deterministic guest time (HT_ICOUNT=1) every
# vCPU must get its share of the instructions while others spin, or guest
# time runs on for a vCPU that does not execute, and every timing and
# share the suite reads is wrong (QEMU 7.2's -icount gave the whole
# budget to the first busy vCPU: a fork on another CPU took 790-960 ms
# beside two spinning tasks; QEMU 10: 70-80 ms). scripts/fetch-qemu.sh.
if [ "${HT_ICOUNT:-0}" != 1 ]; then
	tap_skip "emulator: vCPUs share deterministic time fairly" "real-time emulation"
	return 0
fi
duty 100 16 30 -1 &
s1=$!
duty 100 16 30 -1 &
s2=$!
sleep 0.5
worst=0
c=0
while [ "$c" -lt "$(ncpus)" ]; do
	t0=$(uptime_ms)
	taskset -c "$c" true
	t=$(($(uptime_ms) - t0))
	[ "$t" -gt "$worst" ] && worst=$t
	c=$((c + 1))
done
kill $s1 $s2 2>/dev/null
wait $s1 $s2 2>/dev/null
check "emulator: beside two spinning tasks a short command runs on every CPU within 400 ms (worst ${worst} ms)" \
	[ "$worst" -le 400 ]
