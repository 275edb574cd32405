# SPDX-License-Identifier: GPL-2.0
# Placement quality, one boot, several configurations side by side:
# HT_CONFIGS (comma-separated) of "stock" (hmpgov unloaded) and steer=
# values ("affinity", "uclamp", "both"); HT_PARAMS (+ for spaces) go to
# every load; HT_SCENARIOS (comma-separated, default all) chooses among
# small_pack, two_big, mix, overload and step.
#
# Per configuration and scenario it prints one line for
# scripts/bench-placement.sh, measured from sched_switch and
# sched_migrate_task (runtimes(1), steps(1)):
#   @@BENCH res SCENARIO CONFIG small_little small_top busy_big mig woken idle_wait_ms busy_us LITTLE_BUSY BIG_BUSY SPAN
#   @@BENCH step CONFIG up_median up_worst down_median down_worst
# shares in %, mig = small-task migrations per task per second, woken =
# CPUs that ran the scenario's tasks, LITTLE_BUSY/BIG_BUSY = their summed
# runtime on little / big CPUs (us) over SPAN (us) of trace.
. ./lib.sh
configs=$(echo "${HT_CONFIGS:-stock,affinity}" | tr , ' ')
scenarios=$(echo "${HT_SCENARIOS:-small_pack,two_big,mix,overload,step}" | tr , ' ')
params=$(echo "${HT_PARAMS:-}" | tr + ' ')

# shellcheck disable=SC2086
learn_clusters $params || { echo "@@BENCH error: insmod $params failed"; exit 1; }
echo "@@BENCH cpus little $LITTLE big $BIG"
echo "@@BENCH caps $CAPS"

use() {
	module_loaded && unload >/dev/null
	[ "$1" = stock ] && return 0
	# shellcheck disable=SC2086
	load $params steer="$1" >/dev/null || echo "@@BENCH error: insmod $params steer=$1 failed"
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
	use "$c"
	for s in $scenarios; do
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
			continue ;;
		*) echo "@@BENCH error: unknown scenario $s"; continue ;;
		esac
		result "$s" "$c"
	done
done
module_loaded && unload >/dev/null
echo "@@BENCH done"
