# SPDX-License-Identifier: GPL-2.0
# Helpers for hmpgov's guest tests (busybox sh). Results go to the host as
# "@@TAP ..." lines; kernel splats are caught by the host from the console.

KO=/hmpgov/hmpgov.ko
SYS=/sys/kernel/hmpgov

tap_ok() { echo "@@TAP ok - $*"; }
tap_not_ok() { echo "@@TAP not ok - $*"; }
tap_skip() { echo "@@TAP ok - $1 # SKIP $2"; }
tap_note() { echo "@@TAP # $*"; }

# check NAME CONDITION...: one TAP line from a shell condition.
check() {
	_name=$1
	shift
	if "$@"; then tap_ok "$_name"; else tap_not_ok "$_name"; fi
}

module_loaded() { grep -q '^hmpgov ' /proc/modules; }

# load [params...]: one finit_module; prints the error text, returns status.
load() { modload "$KO" "$@" 2>&1; }
unload() { rmmod hmpgov 2>&1; }

ncpus() { ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l; }

# A big-endian u32 property of the device tree, in decimal, or empty.
dt_u32() {
	[ -f "$1" ] || return 0
	hexdump -v -e '4/1 "%02x"' "$1" | { read -r hex; printf '%d\n' "0x$hex"; }
}

# The device tree's view, printed as "cpu capacity cluster" lines,
# capacities normalised like the kernel does (dmips * 1024 / max) and
# clusters numbered littlest first, so tests compare it with hmpgov's.
dt_expected_topology() {
	_n=$(ncpus)
	_max=0
	_cpu=0
	: >/tmp/dt_caps
	while [ "$_cpu" -lt "$_n" ]; do
		_d=$(dt_u32 "/proc/device-tree/cpus/cpu@$(printf %x "$_cpu")/capacity-dmips-mhz")
		[ -n "$_d" ] || _d=1024
		[ "$_d" -gt "$_max" ] && _max=$_d
		echo "$_cpu $_d" >>/tmp/dt_caps
		_cpu=$((_cpu + 1))
	done
	# cluster of each CPU from cpu-map: phandle of cpu@N -> clusterX
	: >/tmp/dt_clusters
	for _core in /proc/device-tree/cpus/cpu-map/cluster*/core*; do
		_cl=$(basename "$(dirname "$_core")")
		_ph=$(dt_u32 "$_core/cpu")
		for _node in /proc/device-tree/cpus/cpu@*; do
			[ "$(dt_u32 "$_node/phandle")" = "$_ph" ] || continue
			echo "$(( 0x${_node##*@} )) $_cl" >>/tmp/dt_clusters
		done
	done
	while read -r _cpu _d; do
		_cap=$((_d * 1024 / _max))
		_cl=$(awk -v c="$_cpu" '$1 == c { print $2 }' /tmp/dt_clusters)
		echo "$_cpu $_cap ${_cl:-none}"
	done </tmp/dt_caps >/tmp/dt_raw
	number_clusters </tmp/dt_raw
}

# stdin: "cpu capacity key" lines; stdout: "cpu capacity cluster" with
# clusters numbered by (capacity, lowest cpu), as hmpgov documents.
number_clusters() {
	awk '{ cpu[NR] = $1; cap[NR] = $2; key[NR] = $3
	       if (!($3 in first)) { first[$3] = $1; kcap[$3] = $2 } }
	     END {
		for (k in first) { r = 0
			for (j in first) if (kcap[j] < kcap[k] || (kcap[j] == kcap[k] && first[j] < first[k])) r++
			rank[k] = r }
		for (i = 1; i <= NR; i++) print cpu[i], cap[i], rank[key[i]] }'
}

# hmpgov's view as "cpu capacity cluster" lines.
hmpgov_topology() {
	_cpu=0
	_n=$(ncpus)
	while [ "$_cpu" -lt "$_n" ]; do
		echo "$_cpu $(cat $SYS/cpu$_cpu/capacity) $(cat $SYS/cpu$_cpu/cluster)"
		_cpu=$((_cpu + 1))
	done
}

# The kernel's own capacities, one per line, or nothing (x86, old kernels).
kernel_capacities() {
	for _f in /sys/devices/system/cpu/cpu[0-9]*/cpu_capacity; do
		[ -f "$_f" ] && cat "$_f"
	done
}

has_device_tree() { [ -d /proc/device-tree/cpus ]; }

dt_asymmetric() {
	has_device_tree && [ -n "$(dt_u32 /proc/device-tree/cpus/cpu@0/capacity-dmips-mhz)" ]
}

# start_forkers N [PAUSE]: N background loops that fork and exit
# processes, back to back or with a sleep of PAUSE s between two; sets
# FORKERS.
start_forkers() {
	FORKERS=
	_i=0
	while [ "$_i" -lt "$1" ]; do
		if [ -n "${2:-}" ]; then
			( while :; do /bin/true; sleep "$2"; done ) &
		else
			( while :; do /bin/true; done ) &
		fi
		FORKERS="$FORKERS $!"
		_i=$((_i + 1))
	done
}

stop_forkers() {
	[ -n "$FORKERS" ] || return 0
	# shellcheck disable=SC2086
	kill $FORKERS 2>/dev/null
	# shellcheck disable=SC2086
	wait $FORKERS 2>/dev/null
	FORKERS=
}

# New kernel log lines since the last mark_log.
mark_log() { dmesg -c >/dev/null; }
new_log() { dmesg; }

DBG=/sys/kernel/debug/hmpgov

# The kernel's mask of a pid, as /proc shows it ("0-1,3").
allowed() { awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/$1/status" 2>/dev/null; }
# The same into $MASK, read with the shell's builtins: no process is
# forked (one forked by a narrowed shell inherits its mask, and a view).
# PID "self": the shell itself.
mask_of() {
	MASK=
	while read -r _mk _mv; do
		[ "$_mk" = Cpus_allowed_list: ] && MASK=$_mv
	done <"/proc/$1/status"
}

# How many CPUs a list like "0-1,3" names.
list_count() {
	echo "$1" | awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); c += n == 2 ? r[2] - r[1] + 1 : 1 } } END { print c + 0 }'
}

# How many CPUs a hexadecimal mask like "f" names.
mask_count() {
	_m=$((0x$1))
	_c=0
	while [ "$_m" -gt 0 ]; do
		_c=$((_c + (_m & 1)))
		_m=$((_m >> 1))
	done
	echo "$_c"
}

# util or avg (column 3 or 4) of a pid in hmpgov's tasks view.
task_field() { awk -v p="$1" -v c="$2" '$1 == p { print $c }' $DBG/tasks; }

# sample_pause I: the pause after sample I, 100 ms and 0-15 ms more.
# In deterministic guest time samples taken exactly 100 ms apart see a
# 16 ms periodic task at the same four phases of its period every run
# (its signal rises and falls within each period); the extra spreads them.
sample_pause() { sleep "0.1$(printf %02d $(($1 * 5 % 16)))"; }

# median of N samples of a pid's avg, taken about 100 ms apart
avg_median() {
	_i=0
	: >/tmp/samples
	while [ "$_i" -lt "${2:-5}" ]; do
		task_field "$1" 4 >>/tmp/samples
		sample_pause "$_i"
		_i=$((_i + 1))
	done
	median </tmp/samples
}

# The kernel's own count of a task's runtime, in ms.
runtime_ms() { awk '$1 == "se.sum_exec_runtime" { print int($3) }' "/proc/$1/sched" 2>/dev/null; }

uptime_ms() { awk '{ print int($1 * 1000) }' /proc/uptime; }

# share_begin PID... / share_end PID: the share (per mille) of the time
# between the two that the task really ran, by the kernel's count. Under
# emulation a duty task gets a few per cent more or less than its duty
# from one run to the next, so signals are judged against this. A task
# whose runtime could not be read at both ends shows 0.
share_begin() {
	for _p in "$@"; do echo "$(uptime_ms) $(runtime_ms "$_p")" >/tmp/share.$_p; done
}
share_end() {
	_r1=$(runtime_ms "$1")
	read -r _t0 _r0 </tmp/share.$1
	_el=$(($(uptime_ms) - _t0))
	if [ -z "$_r0" ] || [ -z "$_r1" ] || [ "$_el" -le 0 ]; then echo 0; return; fi
	echo $(((_r1 - _r0) * 1000 / _el))
}

# The kernel's own PELT utilization of a task, from /proc/PID/sched.
pelt_util() { awk '$1 == "se.avg.util_avg" { print $3 }' "/proc/$1/sched" 2>/dev/null; }

# util_medians PID N: "HMPGOV_AVG PELT", the medians of N samples of
# each, taken together about 100 ms apart (PELT empty where the kernel has none).
util_medians() {
	_i=0
	: >/tmp/s_ours
	: >/tmp/s_pelt
	while [ "$_i" -lt "${2:-5}" ]; do
		task_field "$1" 4 >>/tmp/s_ours
		pelt_util "$1" >>/tmp/s_pelt
		sample_pause "$_i"
		_i=$((_i + 1))
	done
	echo "$(median </tmp/s_ours) $(median </tmp/s_pelt)"
}

# wait_for SECONDS CONDITION...: poll CONDITION every 0.25 s until it holds
# (status 0) or SECONDS have passed (status 1). A check's precondition
# waits with this, bounded, instead of a fixed sleep; the check after it
# says what was reached.
wait_for() {
	_deadline=$(($(uptime_ms) + $1 * 1000))
	shift
	while ! "$@"; do
		[ "$(uptime_ms)" -lt "$_deadline" ] || return 1
		sleep 0.25
	done
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# within A B TOL: |A - B| <= TOL
within() { [ -n "$1" ] && [ -n "$2" ] && [ $(( $1 > $2 ? $1 - $2 : $2 - $1 )) -le "$3" ]; }

stat_value() { awk -v k="$1" '$1 == k { print $2 }' $DBG/stats; }
# stats_mark: keep hmpgov's counters (when loaded) for stats_since.
stats_mark() { cat $DBG/stats >/tmp/stats.mark 2>/dev/null || : >/tmp/stats.mark; }
# stats_since: "name +N" (or -N) of each counter that changed since stats_mark.
stats_since() {
	[ -r $DBG/stats ] || return 0
	awk 'NR == FNR { v[$1] = $2; next }
	     ($1 in v) && $2 ~ /^[0-9]+$/ && $2 != v[$1] { printf "%s %+d ", $1, $2 - v[$1] }' \
		/tmp/stats.mark $DBG/stats
}

# The lowest-numbered CPU of the littlest and of the biggest cluster.
little_cpu() { echo 0; }
big_cpu() { echo $(($(ncpus) - 1)); }

# --- Placement measurements, from the kernel's own trace events ---
TR=/sys/kernel/tracing
TRACE_EVENTS="sched_switch sched_migrate_task sched_wakeup sched_wakeup_new"

# A switch on every CPU, so that runtimes(1) knows what each CPU runs
# even where one task runs alone the whole time.
switch_everywhere() {
	_c=0
	while [ "$_c" -lt "$(ncpus)" ]; do
		taskset -c "$_c" true 2>/dev/null
		_c=$((_c + 1))
	done
}

trace_begin() {
	echo 0 >$TR/tracing_on
	echo 4096 >$TR/buffer_size_kb
	for _e in $TRACE_EVENTS; do echo 1 >$TR/events/sched/$_e/enable; done
	# hmpgov's packing changes, for a failure's notes (small_migrations).
	# With a module's event on, its rmmod clears the whole trace buffer:
	# no caller unloads between trace_begin and trace_end.
	[ ! -e $TR/events/hmpgov/hmpgov_pack/enable ] || echo 1 >$TR/events/hmpgov/hmpgov_pack/enable
	echo >$TR/trace
	echo 1 >$TR/tracing_on
	switch_everywhere
}

# trace_end FILE: stop and keep the trace text.
trace_end() {
	switch_everywhere
	echo 0 >$TR/tracing_on
	for _e in $TRACE_EVENTS; do echo 0 >$TR/events/sched/$_e/enable; done
	[ ! -e $TR/events/hmpgov/hmpgov_pack/enable ] || echo 0 >$TR/events/hmpgov/hmpgov_pack/enable
	cat $TR/trace >"$1"
}

# The CPUs of hmpgov's littlest cluster, and of all the others, as
# "0 1" lists (read while loaded; the same sets judge the unloaded run).
cluster_cpus() {
	_cpu=0
	_n=$(ncpus)
	while [ "$_cpu" -lt "$_n" ]; do
		_c=$(cat $SYS/cpu$_cpu/cluster)
		if [ "$1" = little ] && [ "$_c" = 0 ]; then printf '%s ' "$_cpu"; fi
		if [ "$1" = big ] && [ "$_c" != 0 ]; then printf '%s ' "$_cpu"; fi
		_cpu=$((_cpu + 1))
	done
}

# share FILE "CPUS" PIDS...: percent of the PIDs' runtime on CPUS, from a
# runtimes(1) output file.
share() {
	_f=$1
	_cpus=$2
	shift 2
	awk -v cpus="$_cpus" -v pids=" $* " '
		$1 == "pid" && index(pids, " " $2 " ") {
			tot += $4
			n = split(cpus, c, " ")
			for (i = 1; i <= n; i++) for (j = 5; j < NF - 1; j += 2)
				if ($j == "cpu" c[i] "_us") on += $(j + 1)
		}
		END { printf "%.1f\n", tot ? 100 * on / tot : 0 }' "$_f"
}

# top_share FILE PIDS...: percent of the PIDs' runtime on the one CPU
# that ran most of it.
top_share() {
	_f=$1
	shift
	awk -v pids=" $* " '
		$1 == "pid" && index(pids, " " $2 " ") {
			tot += $4
			for (j = 5; j < NF - 1; j += 2) per[$j] += $(j + 1)
		}
		END { for (k in per) if (per[k] > best) best = per[k]
		      printf "%.1f\n", tot ? 100 * best / tot : 0 }' "$_f"
}

# migration_rate FILE SECONDS PIDS...: migrations per task per second.
migration_rate() {
	_f=$1
	_s=$2
	shift 2
	awk -v pids=" $* " -v s="$_s" '
		$1 == "pid" && index(pids, " " $2 " ") { m += $NF; n++ }
		END { printf "%.2f\n", n ? m / n / s : 0 }' "$_f"
}

# scenario NAME WHEN PERCENT...: run one duty task per PERCENT (of 16 ms)
# for 0.7 s of warm-up and 5 s traced; leaves runtimes(1) output in
# /tmp/rt.NAME.WHEN and the task lists SMALL (<= 10 %) and BUSY. The tasks
# outlive the trace and are stopped after it: starting and stopping the
# trace takes up to a second each under emulation, and tasks that ended
# inside the trace would stretch its span.
scenario() {
	_name=$1
	_when=$2
	shift 2
	SMALL=
	BUSY=
	for _d in "$@"; do
		duty "$_d" 16 60 -1 &
		if [ "$_d" -le 10 ]; then SMALL="$SMALL $!"; else BUSY="$BUSY $!"; fi
	done
	sleep 0.7
	stats_mark
	trace_begin
	sleep 5
	trace_end /tmp/trace.txt
	# shellcheck disable=SC2086
	kill $SMALL $BUSY 2>/dev/null
	wait
	# shellcheck disable=SC2086
	runtimes $SMALL $BUSY </tmp/trace.txt >/tmp/rt.$_name.$_when
}

# has_rt_app: Debian's rt-app (a third-party workload generator) is in
# the initramfs (scripts/build-initramfs.sh, arm64 guests).
RT_APP=/usr/bin/rt-app
has_rt_app() { [ -x $RT_APP ]; }

# rt_app_json PERCENT...: an rt-app use case of one thread per PERCENT of
# a 16 ms period (100: always running), 60 s long, on stdout. "runtime"
# runs for a time, whatever the CPU's speed; the timer keeps the period.
# rt-app spins in chunks of its calibrated 32 us and reads the clock
# between two, so it calibrates on CPU0 as its users do: with the fixed
# guess of 100 ns per loop a chunk took up to about 1.6 ms on a little
# vCPU, and a "10 %" thread used 13-23 % of the CPU (5.10, 2026-12-06).
rt_app_json() {
	echo '{ "tasks": {'
	_i=0
	for _d in "$@"; do
		[ "$_i" -gt 0 ] && echo ','
		if [ "$_d" -ge 100 ]; then
			printf '"hb%d": { "loop": -1, "runtime": 16000 }' "$_i"
		else
			printf '"hs%d": { "loop": -1, "runtime": %d, "timer": { "ref": "unique", "period": 16000 } }' \
				"$_i" $((_d * 160))
		fi
		_i=$((_i + 1))
	done
	echo '}, "global": { "duration": 60, "calibration": "CPU0", "default_policy": "SCHED_OTHER",'
	echo '"lock_pages": false, "log_size": "disable", "logdir": "/tmp", "ftrace": false } }'
}

# pack_settled: hmpgov packs on one CPU, read twice 0.5 s apart.
# (No count to read: nothing to wait for.)
pack_settled() {
	_pc=$(stat_value pack_cpus)
	[ -n "$_pc" ] || return 0
	[ "$_pc" -le 1 ] && sleep 0.5 && [ "$(stat_value pack_cpus)" -le 1 ]
}

# scenario_rt_app NAME WHEN PERCENT...: scenario(), with the tasks made by
# rt-app instead of duty(1): its threads hs* (small) and hb* (busy).
scenario_rt_app() {
	_name=$1
	_when=$2
	shift 2
	rt_app_json "$@" >/tmp/rt-app.json
	$RT_APP /tmp/rt-app.json >/tmp/rt-app.log 2>&1 &
	_ra=$!
	# its threads exist once it calibrated (bounded), then the warm-up:
	# 2 s, and with hmpgov up to 6 s more until it packs on one CPU
	# again (two reads 0.5 s apart): rt-app's start (calibration pinned to CPU0, five new
	# threads at once) may open a second packing CPU, which closes once
	# the sum has stayed under 3/4 of the limit for 100 ms (5.10: after
	# 1.1 s). The wait only starts the trace; the kernel's events judge.
	_nthreads=$#
	wait_for 30 eval '[ "$(cat /proc/$_ra/task/*/comm 2>/dev/null | grep -c "^h[sb]")" -ge $_nthreads ]'
	SMALL=
	BUSY=
	for _t in /proc/$_ra/task/*; do
		case $(cat "$_t/comm" 2>/dev/null) in
		hs*) SMALL="$SMALL ${_t##*/}" ;;
		hb*) BUSY="$BUSY ${_t##*/}" ;;
		esac
	done
	sleep 2
	# the forks above are this shell's own load, counted small: done
	# before the wait, which wants one packing CPU at two reads 0.5 s
	# apart (a 5.10 CI run had a second one open for the first 3 s of
	# the trace: 80.9 % on one CPU)
	! module_loaded || wait_for 6 pack_settled ||
		tap_note "$_name ($_when): still $(stat_value pack_cpus) packing CPUs after 6 s; the trace starts anyway"
	stats_mark
	trace_begin
	sleep 5
	trace_end /tmp/trace.txt
	kill $_ra 2>/dev/null
	wait $_ra
	# shellcheck disable=SC2086
	runtimes $SMALL $BUSY </tmp/trace.txt >/tmp/rt.$_name.$_when
}

# measured NAME OK: a timing criterion reported as a note, "met" or "NOT
# met", never as a pass (written when the guests ran in real-time
# emulation, where a vCPU the host descheduled kept its guest clock
# running; docs/testing.md). OK is a shell condition.
measured() {
	_name=$1
	shift
	if "$@"; then tap_note "measured: $_name: met"; else tap_note "measured: $_name: NOT met"; fi
}

# outside_us FILE "CPUS": runtime (us) of FILE's first task off CPUS.
outside_us() {
	awk -v cpus=" $2 " '$1 == "pid" {
		for (j = 5; j < NF - 1; j += 2) {
			c = substr($j, 4); sub(/_us$/, "", c)
			if (!index(cpus, " " c " ")) s += $(j + 1)
		}
		print s + 0; exit }' "$1"
}

# placement_params: the load parameters a placement test needs on this
# machine, in PARAMS (capacity= on the symmetric one); returns 1 on the
# x86 machine, whose 2 equal CPUs have nothing to place.
placement_params() {
	case ${HT_MACHINE:-} in
	sym-4) PARAMS="capacity=446,446,1024,1024" ;;
	pc) return 1 ;;
	*) PARAMS= ;;
	esac
}

# refused NAME REGEX PARAMS...: loading with PARAMS fails with EINVAL and
# exactly one hmpgov log line, matching REGEX (three TAP lines).
refused() { # name, expected message regex, params...
	_what=$1
	_re=$2
	shift 2
	mark_log
	_out=$(load "$@")
	_rc=$?
	# The kernel's own taint notes on a first load are not ours to count.
	_log=$(new_log | grep 'hmpgov: ' | grep -v -e 'taints kernel' -e 'module verification failed')
	_lines=$(echo "$_log" | grep -c .)
	if [ "$_rc" -ne 0 ] && echo "$_out" | grep -q 'Invalid argument'; then
		tap_ok "bad-param $_what: insmod fails with EINVAL"
	else
		tap_not_ok "bad-param $_what: insmod fails with EINVAL (rc $_rc: $_out)"
	fi
	if [ "$_lines" -eq 1 ] && echo "$_log" | grep -qE "$_re"; then
		tap_ok "bad-param $_what: one log line naming it ($_log)"
	else
		tap_not_ok "bad-param $_what: one log line naming it ($_lines lines: $_log)"
	fi
	if module_loaded; then
		tap_not_ok "bad-param $_what: module stayed loaded"
		unload >/dev/null
	fi
}

# learn_clusters PARAMS...: load hmpgov once with PARAMS to read what it
# found: LITTLE and BIG (CPU lists), CAPS (capacities); 1 if it fails.
learn_clusters() {
	load "$@" >/dev/null || return 1
	LITTLE=$(cluster_cpus little)
	BIG=$(cluster_cpus big)
	CAPS=$(hmpgov_topology | awk '{ printf "%s ", $2 }')
	unload >/dev/null
}

# kernel_has_uclamp: the kernel has CONFIG_UCLAMP_TASK (its sysctls exist).
kernel_has_uclamp() { [ -e /proc/sys/kernel/sched_util_clamp_min ]; }

# ge A B: A >= B, for decimals.
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }'; }

# --- PREEMPT_RT latency (tests/90-rt-latency.sh, bench/rtlatency.sh) ---
CYCLICTEST=/usr/bin/cyclictest
# (CT, the pid cyclictest_start sets, is read by its callers)

# is_preempt_rt: the running kernel is a PREEMPT_RT one.
is_preempt_rt() {
	[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] || uname -v | grep -q PREEMPT_RT
}

# need_shm: cyclictest keeps its statistics in POSIX shared memory.
need_shm() {
	grep -q ' /dev/shm ' /proc/mounts || { mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm; }
}

# mixed_load_start: the load beside cyclictest, started from this shell:
# 2 always-busy and 4 small periodic duty tasks (16 ms period), one busy
# and two small ones bound by the user (taskset) to masks hmpgov narrows
# further. Their pids in MIXED, and "pid mask" of each, read at once (the
# user's masks), in /tmp/mixed.masks.
mixed_load_start() {
	_last=$(($(ncpus) - 1))
	MIXED=
	for _spec in "100 all" "100 1-$_last" "5 all" "5 all" "10 0,$_last" "3 0-$((_last - 1))"; do
		if [ "${_spec#* }" = all ]; then
			duty "${_spec% *}" 16 600 -1 &
		else
			taskset -c "${_spec#* }" duty "${_spec% *}" 16 600 -1 &
		fi
		MIXED="$MIXED $!"
	done
	sleep 0.3
	: >/tmp/mixed.masks
	for _p in $MIXED; do
		mask_of "$_p"
		echo "$_p $MASK" >>/tmp/mixed.masks
	done
}

mixed_load_stop() {
	# shellcheck disable=SC2086
	kill $MIXED 2>/dev/null
	# shellcheck disable=SC2086
	wait $MIXED 2>/dev/null
	MIXED=
}

# mixed_differ: NDIFF, how many load tasks have another mask now than in
# /tmp/mixed.masks (a task gone counts), and DIFFER, their "pid was->now".
mixed_differ() {
	NDIFF=0
	DIFFER=
	while read -r _p _m; do
		MASK=gone
		[ -e "/proc/$_p/status" ] && mask_of "$_p"
		if [ "$MASK" != "$_m" ]; then
			NDIFF=$((NDIFF + 1))
			DIFFER="$DIFFER $_p $_m->$MASK"
		fi
	done </tmp/mixed.masks
}

# cyclictest_start LOOPS OUT: cyclictest as its users run it on an RT
# system: memory locked, one SCHED_FIFO 80 thread per CPU, 1 ms interval,
# LOOPS cycles, only the summary; its pid in CT.
cyclictest_start() {
	$CYCLICTEST -m -p 80 -t "$(ncpus)" -i 1000 -l "$1" -q >"$2" 2>&1 &
	# shellcheck disable=SC2034
	CT=$!
}

# ct_threads PID: "policy/priority/mask" of each measurement thread (all
# but the main one), sorted, on one line; empty when they are not there.
ct_threads() {
	for _t in /proc/"$1"/task/*; do
		_tid=${_t##*/}
		[ "$_tid" = "$1" ] && continue
		[ -e "$_t/stat" ] || continue
		mask_of "$1/task/$_tid"
		# fields 40 and 41 of stat: rt_priority, policy (comm has no space)
		echo "$(awk '{ print $41 "/" $40 }' "$_t/stat" 2>/dev/null)/$MASK"
	done | sort | tr '\n' ' ' | sed 's/ $//'
}

# ct_summary OUT: "THREADS MAX AVG" from cyclictest's summary lines (max
# of the threads' Max, mean of their Avg, us); THREADS 0 when none.
ct_summary() {
	awk '$1 == "T:" { for (i = 1; i < NF; i++) {
			if ($i == "Max:") { m = $(i + 1) + 0; if (m > max) max = m; n++ }
			if ($i == "Avg:") sum += $(i + 1) }
		}
		END { if (n) printf "%d %d %.1f\n", n, max, sum / n; else print "0 - -" }' "$1"
}
