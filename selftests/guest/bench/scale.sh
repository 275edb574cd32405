# SPDX-License-Identifier: GPL-2.0
# Scale: what hmpgov costs while it tracks a population of N threads
# (HT_COUNTS, comma-separated; default 10,100,1000,5000).
#
# The population is sleepers(1) in poke mode: N threads that block, each
# woken once right after every insmod (and, alike, before every unloaded
# run) so that hmpgov accounts and tracks all of them, then quiet: the
# events measured are pingpong's, not the population's. hmpgov is loaded
# with max_tasks=HT_MAX_TASKS (default 16384) for every N, so the table
# is the same size throughout. Per N, two configurations:
#
# mode=off (tracking only: the probes run, the steering worker does not)
#  - HT_PAIRS pairs (default 6) of pingpong runs of HT_SECS s (default
#    0.5), unloaded (U) and loaded (L), in ABBA order (U L, L U, ...);
#  - one loaded run of HT_TRACE_SECS (default 0.5) under the
#    function_graph tracer, limited to hmpgov's sched_switch and
#    sched_stat_runtime probes: the time of each call, so the per-event
#    cost is measured where it is spent; and one more with only
#    hmpgov_task_write_begin traced (two stores and a barrier): the
#    tracer's own cost per call, to subtract.
# mode=steer (the default load: probes and steering worker)
#  - HT_STEER_PAIRS pairs (default 2) as above, each loaded run once the
#    worker has stopped moving tasks (its "moves" unchanged over 0.3 s,
#    HT_SETTLE_MAX tenths at most, default 300): the steady state; the
#    first loaded run is traced, with the worker's passes (steer_work)
#    too. The wait forks nothing (the shell's own read, with a timeout,
#    on a FIFO nobody writes): every task it started, a sleep or an awk,
#    was a new task for the worker to place, one move each, so the
#    moves never stopped (a run of 2026-12-06 waited the whole 30 s for
#    every N: 604 moves with 10 sleepers).
#
# Prints for scripts/bench-scale.sh:
#   @@BENCH setup cpus C pingpong_cpu X pairs P secs S max_tasks M trace_secs T
#   @@BENCH population N threads T          T: threads of sleepers(1)
#   @@BENCH pair MODE N P ORDER U_NS U_BLOCK L_NS L_BLOCK
#                         ns per context switch: the run's mean and the
#                         median of its HT_BLOCK_MS (default 20) ms blocks
#   @@BENCH tracked MODE N P TRACKED MANAGED DROPPED TABLE_SIZE MOVES SETTLE
#                         hmpgov's stats before the loaded run; SETTLE:
#                         tenths of a second until the moves stopped
#   @@BENCH probe MODE N FUNC CALLS MEDIAN_NS MEAN_NS
#   @@BENCH time N SECONDS                  guest time the population took
#   @@BENCH done
. ./lib.sh
counts=$(echo "${HT_COUNTS:-10,100,1000,5000}" | tr , ' ')
pairs=${HT_PAIRS:-6}
steer_pairs=${HT_STEER_PAIRS:-2}
secs=${HT_SECS:-0.5}
trace_secs=${HT_TRACE_SECS:-0.5}
maxt=${HT_MAX_TASKS:-16384}
block=${HT_BLOCK_MS:-20}
settle_max=${HT_SETTLE_MAX:-300}
cpu=$(big_cpu)
SL=/tmp/sleepers.out
IDLE=/tmp/settle.fifo
rm -f $IDLE
mkfifo $IDLE

fail() {
	echo "@@BENCH error: $*"
	module_loaded && unload >/dev/null
	[ -n "${SPID:-}" ] && kill "$SPID" 2>/dev/null
	rm -f $IDLE
	exit 1
}

now_s() { cut -d' ' -f1 /proc/uptime; }

# wait_line REGEX TENTHS: until the sleepers' output has a line matching.
wait_line() {
	_t=0
	until grep -q "$1" $SL; do
		[ "$_t" -ge "$2" ] && return 1
		sleep 0.1
		_t=$((_t + 1))
	done
}

# poke: wake every sleeper once; returns when all of them have run.
poke() {
	G=$((G + 1))
	kill -USR1 "$SPID"
	wait_line "^woke $G " 1200 || fail "poke $G of $N sleepers not answered"
}

# moves_now: hmpgov's "moves" into _m, by shell builtins only (no task
# started).
moves_now() {
	_m=
	while read -r _k _v; do
		[ "$_k" = moves ] && _m=$_v
	done <$DBG/stats
}

# settle: until the steering worker's moves stop (0.3 s unchanged,
# settle_max tenths at most); leaves the tenths it waited in _t. Waits
# on the FIFO $IDLE, which nobody writes: no task is started meanwhile.
settle() {
	_prev=-1
	_same=0
	_t=0
	while [ "$_same" -lt 3 ] && [ "$_t" -lt "$settle_max" ]; do
		read -r -t 0.1 _x <>$IDLE
		moves_now
		if [ "$_m" = "$_prev" ]; then _same=$((_same + 1)); else _same=0; fi
		_prev=$_m
		_t=$((_t + 1))
	done
}

# trace_start FUNCS...: function_graph on these functions of hmpgov.
trace_start() {
	echo 0 >$TR/tracing_on
	echo 2048 >$TR/buffer_size_kb
	: >$TR/set_ftrace_filter
	for _f in "$@"; do
		echo "$_f:mod:hmpgov" >>$TR/set_ftrace_filter || fail "cannot trace $_f"
	done
	echo function_graph >$TR/current_tracer || fail "no function_graph tracer"
	echo 1 >$TR/options/funcgraph-tail 2>/dev/null
	echo >$TR/trace
	echo 1 >$TR/tracing_on
}

# trace_stop MODE FUNCS...: one "@@BENCH probe" line per function.
trace_stop() {
	echo 0 >$TR/tracing_on
	cat $TR/trace >/tmp/graph.txt
	echo nop >$TR/current_tracer
	: >$TR/set_ftrace_filter
	echo >$TR/trace
	_mode=$1
	shift
	for _f in "$@"; do
		# "CPU)  [flag] 0.544 us  |  probe_switch [hmpgov]();" or the
		# closing "} /* steer_work [hmpgov] */" of a call with children
		awk -v f="$_f" '$0 ~ " " f "[ (]" && match($0, /[0-9]+(\.[0-9]+)? us/) {
				print int(substr($0, RSTART, RLENGTH - 3) * 1000) }' /tmp/graph.txt |
			sort -n | awk -v m="$_mode" -v n="$N" -v f="$_f" '{ v[NR] = $1; s += $1 }
				END { printf "@@BENCH probe %s %s %s %d %d %d\n", m, n, f, NR,
					NR ? v[int((NR + 1) / 2)] : 0, NR ? s / NR : 0 }'
	done
}

# run MODE U|L PAIR: one pingpong run, unloaded or loaded with mode=MODE;
# its ns per switch in NS: "MEAN BLOCK_MEDIAN". The first loaded run of
# a MODE (PAIR 1) is followed by one traced run.
run() {
	if [ "$2" = L ]; then
		load max_tasks="$maxt" mode="$1" >/dev/null ||
			fail "insmod max_tasks=$maxt mode=$1 failed"
	fi
	poke
	if [ "$2" = L ]; then
		_t=0
		[ "$1" = steer ] && settle
		[ "$1" = steer ] || sleep 0.3
		echo "@@BENCH tracked $1 $N $3 $(stat_value tasks_tracked) $(stat_value managed)" \
			"$(stat_value tasks_dropped) $(stat_value table_size) $(stat_value moves) $_t"
	else
		sleep 0.3
	fi
	NS=$(pingpong "$cpu" "$secs" "$block" | awk '{ print $4, $6 }')
	if [ "$2" = L ] && [ "$3" = 1 ]; then
		_funcs="probe_switch probe_stat_runtime"
		[ "$1" = steer ] && _funcs="$_funcs steer_work"
		# shellcheck disable=SC2086
		trace_start $_funcs
		pingpong "$cpu" "$trace_secs" >/dev/null
		# shellcheck disable=SC2086
		trace_stop "$1" $_funcs >>/tmp/probes
		# The tracer's own cost: a call of a function that does
		# almost nothing (two stores and a barrier), traced alone.
		if [ "$1" = off ]; then
			trace_start hmpgov_task_write_begin
			pingpong "$cpu" "$trace_secs" >/dev/null
			trace_stop "$1" hmpgov_task_write_begin >>/tmp/probes
		fi
	fi
	if [ "$2" = L ]; then
		unload >/dev/null || fail "rmmod failed"
	fi
}

# run_pairs MODE COUNT: COUNT pairs in ABBA order.
run_pairs() {
	p=1
	while [ "$p" -le "$2" ]; do
		if [ $((p % 2)) -eq 1 ]; then
			run "$1" U "$p"
			u=$NS
			run "$1" L "$p"
			l=$NS
			order=UL
		else
			run "$1" L "$p"
			l=$NS
			run "$1" U "$p"
			u=$NS
			order=LU
		fi
		echo "@@BENCH pair $1 $N $p $order ${u:-none -} ${l:-none -}"
		p=$((p + 1))
	done
}

if [ "$(cat /proc/sys/kernel/threads-max)" -lt 20000 ]; then
	echo 20000 >/proc/sys/kernel/threads-max
fi
echo "@@BENCH setup cpus $(ncpus) pingpong_cpu $cpu pairs $pairs secs $secs max_tasks $maxt trace_secs $trace_secs"
for N in $counts; do
	t0=$(now_s)
	: >$SL
	: >/tmp/probes
	G=0
	sleepers "$N" 0 >$SL 2>&1 &
	SPID=$!
	wait_line "^ready " 1200 || fail "$N sleepers not started: $(cat $SL)"
	echo "@@BENCH population $N threads $(ls /proc/$SPID/task | wc -l)"
	run_pairs off "$pairs"
	run_pairs steer "$steer_pairs"
	cat /tmp/probes
	kill "$SPID"
	wait "$SPID" 2>/dev/null
	SPID=
	echo "@@BENCH time $N $(awk -v a="$t0" -v b="$(now_s)" 'BEGIN { print int(b - a) }')"
done
rm -f $IDLE
echo "@@BENCH done"
