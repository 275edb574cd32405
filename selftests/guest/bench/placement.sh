# SPDX-License-Identifier: GPL-2.0
# Placement quality, one boot, several configurations side by side:
# HT_CONFIGS (comma-separated) of "stock" (hmpgov unloaded), steer=
# values ("affinity", "uclamp", "both") and "eas" (hmpgov unloaded, the
# kernel's energy-aware scheduling: the test cpufreq driver with its
# energy model, schedutil on every policy; proven on or reported off);
# HT_PARAMS (+ for spaces) go to every hmpgov load; HT_SCENARIOS
# (comma-separated, default all) chooses among small_pack, two_big, mix,
# overload, step and ramp.
#
# Per configuration and scenario it prints one line for
# scripts/bench-placement.sh, measured from sched_switch and
# sched_migrate_task (runtimes(1), steps(1), rampstat(1)):
#   @@BENCH res SCENARIO CONFIG small_little small_top busy_big mig woken idle_wait_ms busy_us LITTLE_BUSY BIG_BUSY SPAN
#   @@BENCH step CONFIG up_median up_worst down_median down_worst
#   @@BENCH ramp CONFIG little% big% migrations first_big_level first_big_ms settled_level settled_ms LITTLE_BUSY BIG_BUSY SPAN
#   @@BENCH ramplevels CONFIG PCT:BIG% ...
# shares in %, mig = small-task migrations per task per second, woken =
# CPUs that ran the scenario's tasks, LITTLE_BUSY/BIG_BUSY = their summed
# runtime on little / big CPUs (us) over SPAN (us) of trace; first_big
# and settled: the ramp level (duty %) in which the task first ran on a
# big CPU / from which it ran only there, and how long (ms) after that
# level began ("never -1" if it did not). For "eas" also:
#   @@BENCH eas on EVIDENCE... | @@BENCH eas off REASON...
#   @@BENCH em PD CPUS KHZ:UW ...     the energy model the kernel holds
#   @@BENCH freq SCENARIO eas LITTLE_MEAN BIG_MEAN   mean frequency, % of max
. ./lib.sh
configs=$(echo "${HT_CONFIGS:-stock,affinity}" | tr , ' ')
scenarios=$(echo "${HT_SCENARIOS:-small_pack,two_big,mix,overload,step,ramp}" | tr , ' ')
params=$(echo "${HT_PARAMS:-}" | tr + ' ')

# shellcheck disable=SC2086
learn_clusters $params || { echo "@@BENCH error: insmod $params failed"; exit 1; }
echo "@@BENCH cpus little $LITTLE big $BIG"
echo "@@BENCH caps $CAPS"

TESTFREQ=/hmpgov/hmpgov_testfreq.ko
CPUFREQ=/sys/devices/system/cpu/cpufreq
VERBOSE=/sys/kernel/debug/sched/verbose
EMDIR=/sys/kernel/debug/energy_model

# use CONFIG: hmpgov and the test cpufreq driver as CONFIG wants them;
# returns 1 if the configuration cannot be measured (said in the output).
use() {
	module_loaded && unload >/dev/null
	grep -q '^hmpgov_testfreq ' /proc/modules && eas_stop
	case $1 in
	stock) ;;
	eas) eas_start || return 1 ;;
	*)
		# shellcheck disable=SC2086
		load $params steer="$1" >/dev/null || { echo "@@BENCH error: insmod $params steer=$1 failed"; return 1; }
		;;
	esac
}

# eas_start: the test cpufreq driver with its energy model, schedutil on
# every policy, hmpgov unloaded; then prove from the kernel's own reports
# that energy-aware scheduling runs ("@@BENCH eas on ...") or say why not
# ("@@BENCH eas off ..."; returns 1). The scheduler's verbose flag makes it
# log its EAS decisions (sched_energy_set, the perf domains).
eas_start() {
	mark_log
	[ -w $VERBOSE ] && echo Y >$VERBOSE
	if ! _out=$(modload $TESTFREQ em=1 2>&1); then
		echo "@@BENCH eas off: hmpgov_testfreq em=1 refused ($_out: $(dmesg | grep testfreq | tail -n 1))"
		return 1
	fi
	for _p in "$CPUFREQ"/policy*; do
		echo schedutil >"$_p/scaling_governor" 2>/dev/null ||
			{ echo "@@BENCH eas off: $_p refuses schedutil (has: $(cat "$_p/scaling_available_governors"))"; return 1; }
	done
	# the governor change rebuilds the sched domains from a work item
	_i=0
	while [ $_i -lt 30 ] && ! dmesg | grep -q 'sched_energy_set: starting EAS'; do
		sleep 0.1
		_i=$((_i + 1))
	done
	_govs=$(for _p in "$CPUFREQ"/policy*; do echo "${_p##*/}=$(cat "$_p/scaling_governor")"; done | tr '\n' ' ')
	_govs=${_govs% }
	_aware=$(cat /proc/sys/kernel/sched_energy_aware 2>/dev/null)
	_pds=$(dmesg | grep -o 'root_domain [0-9-]*: pd.*' | tail -n 1)
	_ems=$(for _pd in "$EMDIR"/*; do [ -d "$_pd" ] && echo "${_pd##*/}"; done | tr '\n' ' ')
	_ems=${_ems% }
	if module_loaded; then
		echo "@@BENCH eas off: hmpgov is loaded"
		return 1
	fi
	if ! dmesg | grep -q 'sched_energy_set: starting EAS'; then
		echo "@@BENCH eas off: the kernel did not start EAS; governors: $_govs; sched_energy_aware=${_aware:-unreadable}; energy models: ${_ems:-none}; its reasons: $(dmesg | grep -E 'EAS|EM:|pd_init' | tail -n 3 | tr '\n' ';')"
		return 1
	fi
	echo "@@BENCH eas on: kernel log 'sched_energy_set: starting EAS'; hmpgov not loaded; ${_pds:-no perf domain line}; governors $_govs; sched_energy_aware=$_aware; energy models in debugfs: $_ems"
	for _pd in "$EMDIR"/*/; do
		_pd=${_pd%/}
		[ -d "$_pd" ] || continue
		printf '@@BENCH em %s %s ' "${_pd##*/}" "$(cat "$_pd/cpus" 2>/dev/null)"
		for _ps in "$_pd"/ps:*; do
			printf '%s:%s\n' "$(cat "$_ps/frequency")" "$(cat "$_ps/power")"
		done | sort -n | tr '\n' ' '
		echo
	done
	mark_log
}

# eas_stop: is EAS still on after the configuration's scenarios (the
# kernel logs "stopping EAS" when it stops it)? Then the test cpufreq
# driver out, which stops it.
eas_stop() {
	if dmesg | grep -q 'sched_energy_set: stopping EAS'; then
		echo "@@BENCH error: the kernel stopped EAS during the eas configuration"
	fi
	rmmod hmpgov_testfreq
	[ -w $VERBOSE ] && echo N >$VERBOSE
}

# freq_state: "POLICY KHZ TIME" lines of cpufreq's time_in_state (10 ms units).
freq_state() {
	for _p in "$CPUFREQ"/policy*; do
		[ -f "$_p/stats/time_in_state" ] || continue
		awk -v p="${_p##*/}" '{ print p, $1, $2 }' "$_p/stats/time_in_state"
	done
}

# freq_line SCENARIO BEFORE_FILE: mean frequency (% of max) of the little
# and of the big CPUs' policies since BEFORE_FILE.
freq_line() {
	freq_state >/tmp/freq.after
	_lp=policy$(echo "$LITTLE" | awk '{ print $1 }')
	_bp=policy$(echo "$BIG" | awk '{ print $1 }')
	awk -v s="$1" -v lp="$_lp" -v bp="$_bp" 'NR == FNR { b[$1 " " $2] = $3; next }
		{ d = $3 - b[$1 " " $2]; t[$1] += d; ft[$1] += d * $2; if ($2 > mx[$1]) mx[$1] = $2 }
		function mean(p) { return t[p] > 0 && mx[p] > 0 ? sprintf("%.0f", 100 * ft[p] / t[p] / mx[p]) : "-" }
		END { print "@@BENCH freq", s, "eas", mean(lp), mean(bp) }' "$2" /tmp/freq.after
}

# settle: every scenario starts from the same quiet machine: about 1 s
# idle around a 50 ms burst of two tasks bound to one little CPU. Two
# runnable tasks on a CPU make the kernel run its load balancer across all
# CPUs once; with EAS that is where it clears the root domain's
# "overutilized" state, which a busy scenario leaves behind on an idle
# machine (EAS is off while it lasts).
settle() {
	sleep 0.5
	duty 100 16 0.05 "${LITTLE%% *}" &
	duty 100 16 0.05 "${LITTLE%% *}" &
	wait
	sleep 0.5
}

# busy_on FILE "CPUS": summed runtime (us) of FILE's tasks on CPUS
busy_on() {
	awk -v cpus=" $2 " '$1 == "pid" {
		for (j = 5; j < NF - 1; j += 2) {
			c = $j; sub(/^cpu/, "", c); sub(/_us$/, "", c)
			if (index(cpus, " " c " ")) on += $(j + 1)
		} } END { print on + 0 }' "$1"
}

woken() {
	awk '$1 == "pid" { for (j = 5; j < NF - 1; j += 2) if ($(j + 1) > 0) w[$j] = 1 }
		END { n = 0; for (k in w) n++; print n }' "$1"
}

result() { # scenario config
	_f=/tmp/rt.$1.$2
	# shellcheck disable=SC2086
	_sl=$( [ -n "$SMALL" ] && share "$_f" "$LITTLE" $SMALL || echo -)
	# shellcheck disable=SC2086
	_st=$( [ -n "$SMALL" ] && top_share "$_f" $SMALL || echo -)
	# shellcheck disable=SC2086
	_bb=$( [ -n "$BUSY" ] && share "$_f" "$BIG" $BUSY || echo -)
	# shellcheck disable=SC2086
	_m=$( [ -n "$SMALL" ] && migration_rate "$_f" 5 $SMALL || echo -)
	_w=$(awk '$1 == "idle_wait_us" { print int($2 / 1000) }' "$_f")
	_span=$(awk '$1 == "span_us" { print int($2) }' "$_f")
	echo "@@BENCH res $1 $2 $_sl $_st $_bb $_m $(woken "$_f") ${_w:-0} $(busy_on "$_f" "$LITTLE $BIG") $(busy_on "$_f" "$LITTLE") $(busy_on "$_f" "$BIG") ${_span:-0}"
}

for c in $configs; do
	use "$c" || continue
	for s in $scenarios; do
		settle
		[ "$c" = eas ] && freq_state >/tmp/freq.before
		case $s in
		small_pack) scenario "$s" "$c" 10 10 10 10 ;;
		two_big) scenario "$s" "$c" 100 100 ;;
		mix) scenario "$s" "$c" 100 100 10 10 10 ;;
		overload) scenario "$s" "$c" 100 100 100 100 ;;
		step)
			trace_begin
			stepper 10 80 1 7 "$CAPS" &
			sp=$!
			wait $sp
			trace_end /tmp/trace.txt
			steps $sp "$BIG" "$LITTLE" </tmp/trace.txt >/tmp/steps.$c
			awk -v c="$c" '{ v = $2 == "never" ? 9999 : $2; if ($1 == "up") u[++nu] = v; else d[++nd] = v }
				function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return n ? a[int((n + 1) / 2)] : -1 }
				END { mu = med(u, nu); wu = nu ? u[nu] : -1; md = med(d, nd); wd = nd ? d[nd] : -1
					print "@@BENCH step", c, mu, wu, md, wd }' /tmp/steps.$c
			;;
		ramp)
			trace_begin
			# 1 s at 10 % bound to a little CPU first, so that its way up shows
			ramp 10 90 5 0.5 "$CAPS" "${LITTLE%% *}" &
			rp=$!
			wait $rp
			trace_end /tmp/trace.txt
			if ! rampstat $rp "$BIG" </tmp/trace.txt >/tmp/ramp.$c; then
				echo "@@BENCH error: rampstat found no ramp for $c"
				continue
			fi
			awk -v c="$c" '$1 == "ramp" { l = $3; b = $5; span = $7; m = $9 }
				$1 == "level" { lv = lv " " $2 ":" ($4 + $6 > 0 ? sprintf("%.0f", 100 * $6 / ($4 + $6)) : "-") }
				$1 == "first_big" { fb = $2 == "never" ? "never -1" : $2 " " $3 }
				$1 == "settled" { st = $2 == "never" ? "never -1" : $2 " " $3 }
				END { t = l + b
					printf "@@BENCH ramp %s %.1f %.1f %d %s %s %d %d %d\n", c, t ? 100 * l / t : 0,
						t ? 100 * b / t : 0, m, fb, st, l, b, span
					print "@@BENCH ramplevels", c lv }' /tmp/ramp.$c
			;;
		*)
			echo "@@BENCH error: unknown scenario $s"
			continue
			;;
		esac
		case $s in step | ramp) ;; *) result "$s" "$c" ;; esac
		[ "$c" = eas ] && freq_line "$s" /tmp/freq.before
	done
done
module_loaded && unload >/dev/null
grep -q '^hmpgov_testfreq ' /proc/modules && eas_stop
echo "@@BENCH done"
