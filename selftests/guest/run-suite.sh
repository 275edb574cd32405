#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the guest tests (tests/*.sh, in order, or those named in $HT_TESTS,
# less those named in $HT_SKIP)
# and print their results for the host, which numbers them into one TAP
# stream: lines "@@TAP ok - name", "@@TAP not ok - name", "@@TAP # note".
. ./lib.sh

echo "@@BEGIN kernel=$(uname -r) machine=${HT_MACHINE:-?} cpus=$(nproc)"
# kmemleak: no scans in the background, where its scan thread (nice 10)
# holds an RCU read section for all of a slow scan and, preempted by the
# tests' busy tasks, set off RCU stall warnings on the emulated debug
# kernel (83-steer-checkers, uptime 101 s); the scans at the end still
# report every leak.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan=off >/sys/kernel/debug/kmemleak
	echo clear >/sys/kernel/debug/kmemleak
fi
for t in tests/*.sh; do
	name=$(basename "$t" .sh)
	if [ -n "${HT_TESTS:-}" ] && ! echo ",$HT_TESTS," | grep -q ",$name,"; then
		continue
	fi
	if [ -n "${HT_SKIP:-}" ] && echo ",$HT_SKIP," | grep -q ",$name,"; then
		echo "@@TAP # test file $name not in this run's plan (HT_SKIP)"
		continue
	fi
	echo "@@TAP # test file $name (uptime $(cut -d' ' -f1 /proc/uptime)s)"
	( . "$t" ) || tap_not_ok "$name: script exited with $?"
	# Every test leaves the module unloaded.
	if module_loaded; then
		tap_not_ok "$name: left hmpgov loaded"
		rmmod hmpgov
	fi
done
echo "@@TAP # tests done (uptime $(cut -d' ' -f1 /proc/uptime)s)"
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
echo "@@END"
