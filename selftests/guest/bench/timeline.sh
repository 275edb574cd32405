# SPDX-License-Identifier: GPL-2.0
# Where each task ran, over time: the mix workload (two always-busy tasks
# and three tasks at 10 % of 16 ms, duty(1), as in bench/placement.sh)
# under each configuration of HT_CONFIGS (comma-separated: "stock" =
# hmpgov unloaded, or steer= values such as "affinity"), in one boot. After
# the same 0.7 s warm-up as the placement scenarios, sched_switch is
# traced and HT_SECS seconds (default 2) of it turned into run intervals.
# HT_PARAMS (+ for spaces) go to every load (capacity= on sym-4).
#
# Lines for scripts/bench-timeline.sh:
#   @@TL kernel RELEASE
#   @@TL cpus little CPU... big CPU...
#   @@TL task CONFIG PID KIND             KIND: busy or small
#   @@TL run CONFIG PID CPU START_US END_US
#   @@TL span CONFIG SPAN_US              the window's length
#   @@TL clock CONFIG START_S             the window began START_S after
#                                         the tasks were started
#   @@TL done
# The window is the traced sleep, between two trace markers: starting the
# trace (trace_begin's switch on every CPU) takes about a second under
# emulation and is left out. Times count from the window's start.
. ./lib.sh
configs=$(echo "${HT_CONFIGS:-stock,affinity}" | tr , ' ')
params=$(echo "${HT_PARAMS:-}" | tr + ' ')
secs=${HT_SECS:-2}
# the duty tasks outlive warm-up and trace (whose start and end take
# a while under emulation); they are stopped when the trace ends
life=$(awk -v s="$secs" 'BEGIN { print s + 10 }')

uptime_s() { cut -d' ' -f1 /proc/uptime; }

# shellcheck disable=SC2086
learn_clusters $params || { echo "@@TL error: insmod $params failed"; exit 1; }
echo "@@TL kernel $(uname -r)"
echo "@@TL cpus little $LITTLE big $BIG"

use() {
	module_loaded && unload >/dev/null
	[ "$1" = stock ] && return 0
	# shellcheck disable=SC2086
	load $params steer="$1" >/dev/null || echo "@@TL error: insmod $params steer=$1 failed"
}

# intervals CONFIG PIDS...: the run intervals of PIDS from a trace on
# stdin, cut to the window between the trace markers "tl-begin" and
# "tl-end"
intervals() {
	_cfg=$1
	shift
	awk -v cfg="$_cfg" -v pids=" $* " '
		function stamp(event,   i) {
			for (i = 1; i <= NF; i++) if ($i == event) break
			t = $(i - 1); sub(/:$/, "", t)
			return t + 0
		}
		function emit(pid, c, a, b) {
			if (ws != "" && a < ws) a = ws
			if (we != "" && b > we) b = we
			if (ws == "" || b <= a || !index(pids, " " pid " ")) return
			printf "@@TL run %s %s %d %.0f %.0f\n", cfg, pid, c, (a - ws) * 1e6, (b - ws) * 1e6
		}
		/ tracing_mark_write: tl-begin/ { ws = stamp("tracing_mark_write:") }
		/ tracing_mark_write: tl-end/ { we = stamp("tracing_mark_write:") }
		/ sched_switch: / {
			if (!match($0, /\[[0-9]+\]/)) next
			cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
			ts = stamp("sched_switch:")
			prev = ""; next_pid = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^prev_pid=/) prev = substr($i, 10)
				else if ($i ~ /^next_pid=/) next_pid = substr($i, 10)
			}
			if (prev == "" || next_pid == "") next
			if (first == "") first = ts
			last = ts
			# a CPU first seen switching: prev ran since the trace began
			emit((cpu in cur) ? cur[cpu] : prev, cpu, (cpu in cur) ? since[cpu] : first, ts)
			cur[cpu] = next_pid
			since[cpu] = ts
		}
		END {
			if (ws == "" || we == "") { print "@@TL error: the trace lacks its tl-begin / tl-end markers"; exit }
			for (c in cur) emit(cur[c], c, since[c], we)
			printf "@@TL span %s %.0f\n", cfg, (we - ws) * 1e6
		}'
}

for c in $configs; do
	use "$c"
	# the mix scenario, started as lib.sh's scenario() starts it
	tasks=
	t0=$(uptime_s)
	for d in 100 100 10 10 10; do
		duty "$d" 16 "$life" -1 &
		tasks="$tasks $!"
		if [ "$d" -le 10 ]; then kind=small; else kind=busy; fi
		echo "@@TL task $c $! $kind"
	done
	sleep 0.7
	trace_begin
	echo tl-begin >"$TR/trace_marker"
	t1=$(uptime_s)
	sleep "$secs"
	echo tl-end >"$TR/trace_marker"
	trace_end /tmp/tl.trace
	# shellcheck disable=SC2086
	kill $tasks 2>/dev/null
	# shellcheck disable=SC2086
	wait $tasks 2>/dev/null
	echo "@@TL clock $c $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
	# shellcheck disable=SC2086
	intervals "$c" $tasks </tmp/tl.trace
done
module_loaded && unload >/dev/null
echo "@@TL done"
