# SPDX-License-Identifier: GPL-2.0
# Overhead of hmpgov (default load: tracking probes and the steering
# worker): a context-switch-heavy workload (pingpong: two processes on one
# CPU) with hmpgov unloaded (U) and loaded (L), alternated in one boot.
# HT_PAIRS pairs of HT_SECS seconds per run, in ABBA order (U L, L U,
# U L, ...) so that a drift of the emulator's speed weighs on both sides
# alike. Every run starts HT_SETTLE (default 1) seconds after the insmod
# or rmmod before it, on both sides.
#
# Prints for scripts/bench-tracking.sh:
#   @@BENCH pair P ORDER U_NS U_BLOCK L_NS L_BLOCK
#                            ns per context switch, ORDER UL or LU: the
#                            run's mean and the median of its blocks of
#                            HT_BLOCK_MS (default 20) ms (pingpong(1))
#   @@BENCH stats ...        hmpgov's stats after the last loaded run
#   @@BENCH done PAIRS
. ./lib.sh
pairs=${HT_PAIRS:-30}
secs=${HT_SECS:-0.5}
settle=${HT_SETTLE:-1}
block=${HT_BLOCK_MS:-20}
cpu=$(big_cpu)

# run U|L: one pingpong run with hmpgov unloaded or loaded; its ns per
# switch in NS: "MEAN BLOCK_MEDIAN".
run() {
	if [ "$1" = L ]; then
		load >/dev/null || { echo "@@BENCH error: insmod failed"; exit 1; }
	fi
	sleep "$settle"
	NS=$(pingpong "$cpu" "$secs" "$block" | awk '{ print $4, $6 }')
	if [ "$1" = L ]; then
		tr '\n' ' ' <$DBG/stats >/tmp/stats
		unload >/dev/null || { echo "@@BENCH error: rmmod failed"; exit 1; }
		sleep "$settle"
	fi
}

# profile L|U: after an insmod (L) or rmmod (U), HT_PROFILE runs of 0.1 s
# one after another: how long the change takes to fade.
profile() {
	if [ "$1" = L ]; then load >/dev/null; else unload >/dev/null; fi
	_i=1
	_line=
	while [ "$_i" -le "$HT_PROFILE" ]; do
		_line="$_line $(pingpong "$cpu" 0.1 | awk '{ print $4 }')"
		_i=$((_i + 1))
	done
	echo "@@BENCH profile $1$_line"
}

echo "@@BENCH setup cpus $(ncpus) pingpong_cpu $cpu pairs $pairs secs $secs block_ms $block"
if [ -n "${HT_PROFILE:-}" ]; then
	profile L
	profile U
	profile L
	profile U
fi
p=1
while [ "$p" -le "$pairs" ]; do
	if [ $((p % 2)) -eq 1 ]; then
		run U
		u=$NS
		run L
		l=$NS
		order=UL
	else
		run L
		l=$NS
		run U
		u=$NS
		order=LU
	fi
	echo "@@BENCH pair $p $order ${u:-none -} ${l:-none -}"
	p=$((p + 1))
done
echo "@@BENCH stats $(cat /tmp/stats)"
echo "@@BENCH done $pairs"
