# SPDX-License-Identifier: GPL-2.0
# The emulator itself: in deterministic guest time (HT_ICOUNT=1) every
# vCPU must get its share of the instructions while others spin, or guest
# time runs on for a vCPU that does not execute, and every timing and
# share the suite reads is wrong. QEMU 7.2's -icount gave the whole
# budget to the first busy vCPU: at shift 0 a command on another CPU took
# 790-960 ms beside two spinning tasks (it waits for them to sleep);
# QEMU 10 (scripts/fetch-qemu.sh): 70-80 ms at shift 0, 170 at shift 2,
# and about the same on every CPU. A slow kernel (KASAN) is slow on every
# CPU alike, so the worst CPU is judged against the best.
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
best=999999
c=0
while [ "$c" -lt "$(ncpus)" ]; do
	t0=$(uptime_ms)
	taskset -c "$c" true
	t=$(($(uptime_ms) - t0))
	[ "$t" -gt "$worst" ] && worst=$t
	[ "$t" -lt "$best" ] && best=$t
	c=$((c + 1))
done
kill $s1 $s2 2>/dev/null
wait $s1 $s2 2>/dev/null
check "emulator: beside two spinning tasks a short command takes about as long on every CPU (best ${best} ms, worst ${worst} ms: at most 4x + 100 ms)" \
	[ "$worst" -le $((4 * best + 100)) ]
