# SPDX-License-Identifier: GPL-2.0
# The three rules, measured from the kernel's sched_switch and
# sched_migrate_task events (runtimes(1) turns the trace into runtime per
# task and CPU). Each scenario runs with hmpgov unloaded and then loaded
# (steer=affinity) in this boot, and, on a kernel with uclamp that itself
# sees the asymmetry, with steer=uclamp; the loaded results are judged.
# The stock kernel's own placement runs too (printed, not judged) only
# with HT_PLACEMENT_STOCK=1: side by side it belongs to
# scripts/bench-placement.sh, and it took 40 % of this file's time.
# Tasks are duty(1) loops at a share of a 16 ms period, and for mix also
# Debian's rt-app threads (where the initramfs has it); 0.7 s warm-up,
# then 5 s traced.
if ! placement_params; then
	tap_skip "placement: the rules at work" "the x86 machine has 2 equal CPUs; placement runs on the arm64 machines"
	return 0
fi
# shellcheck disable=SC2086
learn_clusters $PARAMS || { tap_not_ok "placement: hmpgov loads ($PARAMS)"; return 0; }
tap_note "placement: little CPUs: $LITTLE; big CPUs: $BIG"
CONFIGS=loaded
[ "${HT_PLACEMENT_STOCK:-0}" = 1 ] && CONFIGS="unloaded $CONFIGS"
if kernel_has_uclamp && [ -z "$PARAMS" ]; then
	CONFIGS="$CONFIGS uclamp"
fi

# use CONFIG: hmpgov as the configuration runs (unloaded, loaded:
# steer=affinity, uclamp: steer=uclamp).
use() {
	module_loaded && unload >/dev/null
	# shellcheck disable=SC2086
	case $1 in
	loaded) load $PARAMS steer=affinity >/dev/null ;;
	uclamp) load $PARAMS steer=uclamp >/dev/null ;;
	esac
}

# judge NAME CONDITION...: check(), or with HT_PLACEMENT_REPORT=1 lib.sh's
# measured() note: on the debug kernel (lockdep, KASAN) a switch costs
# more guest time than a 10 % task runs, so the small tasks are not small
# there; its line reports the shares and fails on a splat.
judge() {
	if [ "${HT_PLACEMENT_REPORT:-0}" = 1 ]; then
		measured "$@"
	else
		check "$@"
	fi
}

# judge_small NAME WHEN: the small-task numbers, judged when loaded
# (WHEN is a configuration of CONFIGS).
judge_small() {
	_f=/tmp/rt.$1.$2
	# shellcheck disable=SC2086
	_l=$(share "$_f" "$LITTLE" $SMALL)
	# shellcheck disable=SC2086
	_t=$(top_share "$_f" $SMALL)
	# shellcheck disable=SC2086
	_m=$(migration_rate "$_f" 5 $SMALL)
	tap_note "$1 ($2): small tasks ${_l}% on little CPUs, ${_t}% on one CPU, $_m migrations/task/s"
	[ "$2" != unloaded ] || return 0
	judge "$1 ($2): small tasks >= 95% on little CPUs (${_l}%)" ge "$_l" 95
	judge "$1 ($2): small tasks >= 85% on one CPU (${_t}%)" ge "$_t" 85
	judge "$1 ($2): small tasks migrate <= 0.5 times/s ($_m)" ge 0.5 "$_m"
	# shellcheck disable=SC2086
	{ ge 0.5 "$_m" && ge "$_t" 85; } || [ "${HT_PLACEMENT_REPORT:-0}" = 1 ] ||
		small_migrations /tmp/trace.txt $SMALL
}

# small_migrations TRACE PIDS...: after a failed rate, the trace's
# migrations of PIDS (who ran when the kernel moved them, the time,
# from and to), hmpgov's packing changes (its hmpgov_pack events) and
# the hmpgov counters that changed since the trace
# began (lib.sh's stats_mark), as notes: a failure in CI says
# whether the kernel's wake-ups or hmpgov moved them.
small_migrations() {
	_tr=$1
	shift
	awk -v pids=" $* " '/sched_migrate_task:/ {
		p = $0; sub(/.* pid=/, "", p); sub(/ .*/, "", p)
		if (!index(pids, " " p " ") || ++n > 40) next
		o = $0; sub(/.*orig_cpu=/, "", o); sub(/ .*/, "", o)
		d = $0; sub(/.*dest_cpu=/, "", d); sub(/ .*/, "", d)
		printf "migration: pid %s %s->%s at %s by %s\n", p, o, d, $4, $1 }' "$_tr" |
		while read -r _l; do tap_note "$_l"; done
	grep -a "hmpgov_pack:" "$_tr" | head -20 | while read -r _l; do tap_note "$_l"; done
	tap_note "hmpgov's counters that changed since the trace began: $(stats_since)"
	return 0
}

judge_busy() {
	_f=/tmp/rt.$1.$2
	# shellcheck disable=SC2086
	_b=$(share "$_f" "$BIG" $BUSY)
	tap_note "$1 ($2): busy tasks ${_b}% on big CPUs"
	[ "$2" != unloaded ] || return 0
	judge "$1 ($2): busy tasks >= 95% on big CPUs (${_b}%)" ge "$_b" 95
}

# wanted CASE: the scenario is in this run (HT_PLACEMENT_CASES, a comma
# list of small_pack, two_big, mix, mix_rt_app, overload, step, prime;
# default all: the debug kernel's line runs a few).
wanted() { [ -z "${HT_PLACEMENT_CASES:-}" ] || echo ",$HT_PLACEMENT_CASES," | grep -q ",$1,"; }
for c in $(echo "${HT_PLACEMENT_CASES:-}" | tr ',' ' '); do
	case $c in
	small_pack | two_big | mix | mix_rt_app | overload | step | prime) ;;
	*) tap_not_ok "placement: HT_PLACEMENT_CASES names no scenario '$c'" ;;
	esac
done

for when in $CONFIGS; do
	use $when
	if wanted small_pack; then
		scenario small_pack $when 10 10 10 10
		judge_small small_pack $when
	fi
	if wanted two_big; then
		scenario two_big $when 100 100
		judge_busy two_big $when
	fi
	if wanted mix; then
		scenario mix $when 100 100 10 10 10
		judge_small mix $when
		judge_busy mix $when
	fi
	# the same mix made by Debian's rt-app, a third-party generator
	if has_rt_app && wanted mix_rt_app; then
		scenario_rt_app mix_rt_app $when 100 100 10 10 10
		check "mix_rt_app ($when): rt-app started 3 small and 2 busy threads (${SMALL:-none} /${BUSY:-none})" \
			[ "$(echo $SMALL | wc -w) $(echo $BUSY | wc -w)" = "3 2" ]
		judge_small mix_rt_app $when
		judge_busy mix_rt_app $when
	fi
	# overload: 4 busy tasks on a 2 + 2 machine; no CPU may idle while
	# one of them waits
	if [ "$(ncpus)" = 4 ] && wanted overload; then
		scenario overload $when 100 100 100 100
		w=$(awk '$1 == "idle_wait_us" { print int($2 / 1000) }' /tmp/rt.overload.$when)
		tap_note "overload ($when): longest CPU idle while a busy task waited: ${w} ms"
		[ $when != unloaded ] && measured "overload ($when): no CPU idles more than 10 ms while a task waits (${w} ms)" [ "$w" -le 10 ]
	fi
	# what steer=affinity moved in these scenarios (a reload resets it),
	# where one ran
	if [ $when = loaded ] && { wanted small_pack || wanted two_big || wanted mix ||
		wanted mix_rt_app || wanted overload; }; then
		moves_loaded=$(stat_value moves)
	fi
done
# step: one task alternating 10 % and 80 % (of the biggest CPU's work,
# stepper(1)) every second: on a big CPU at most 25 ms after each up
# step, back on a little CPU at most 300 ms after each down step.
for when in $CONFIGS; do
	wanted step || continue
	use $when
	trace_begin
	stepper 10 80 1 7 "$CAPS" &
	sp=$!
	wait $sp
	trace_end /tmp/trace.txt
	steps $sp "$BIG" "$LITTLE" </tmp/trace.txt >/tmp/steps.$when
	tap_note "step ($when): $(tr '\n' ' ' </tmp/steps.$when)"
	[ $when != unloaded ] || continue
	upw=$(awk '$1 == "up" { if ($2 == "never") v = 9999; else v = $2; if (v > m) m = v } END { print m + 0 }' /tmp/steps.$when)
	downw=$(awk '$1 == "down" { if ($2 == "never") v = 9999; else v = $2; if (v > m) m = v } END { print m + 0 }' /tmp/steps.$when)
	measured "step ($when): on a big CPU at most 25 ms after every up step (worst ${upw} ms)" ge 25 "$upw"
	judge "step ($when): on a big CPU within 100 ms of every up step (worst ${upw} ms)" ge 100 "$upw"
	judge "step ($when): back on a little CPU at most 300 ms after every down step (worst ${downw} ms)" ge 300 "$downw"
	check "step ($when): every step was seen ($(grep -c . /tmp/steps.$when) of 6)" [ "$(grep -c . /tmp/steps.$when)" = 6 ]
	[ $when != uclamp ] || check "step (uclamp): hmpgov set clamps ($(stat_value uclamp_sets))" [ "$(stat_value uclamp_sets)" -gt 0 ]
done
use loaded

# Three clusters: the heaviest task takes the prime CPU (the last one).
if [ "$(cat $SYS/nr_clusters)" -ge 3 ] && wanted prime; then
	prime=$(($(ncpus) - 1))
	use unloaded
	scenario prime unloaded 100 90
	set -- $BUSY
	u=$(share /tmp/rt.prime.unloaded "$prime" "$1")
	use loaded
	scenario prime loaded 100 90
	set -- $BUSY
	l=$(share /tmp/rt.prime.loaded "$prime" "$1")
	tap_note "prime: the 100% task (beside a 90% one) on the prime cpu$prime: unloaded ${u}%, loaded ${l}%"
	judge "prime: the heaviest task >= 90% on the prime cpu$prime (${l}%)" ge "$l" 90
fi
if [ -n "${moves_loaded:-}" ]; then
	check "placement: hmpgov moved tasks in the loaded scenarios (moves $moves_loaded)" [ "$moves_loaded" -gt 0 ]
else
	tap_skip "placement: hmpgov moved tasks in the loaded scenarios" "none of them in HT_PLACEMENT_CASES"
fi
unload >/dev/null
