# SPDX-License-Identifier: GPL-2.0
# Third-party workloads placed by the three rules: Debian's rt-app use
# cases written the way their users write them (calibration on CPU0,
# nice values, a mutex and signal chain, bursts of 3-15 ms, threads
# pinned with "cpus", 4 to 12 threads, phases), each started from this
# long-lived shell (it has run the whole suite before) through a launcher
# that computes for a moment right before it starts rt-app. Each use case
# runs on the stock kernel first (noted, for reference) and then with
# hmpgov loaded, where it is judged from the kernel's sched_switch and
# sched_migrate_task events:
#   small threads >= 95 % on little CPUs, >= 85 % on one CPU, <= 0.5
#   migrations per thread per s; busy threads >= 95 % on big CPUs; four
#   busy threads on four CPUs each >= 85 % of a CPU; a thread stepping
#   light <-> heavy on big CPUs >= 90 % of its heavy time and on little
#   CPUs >= 80 % of its light time; threads pinned with "cpus" stay on
#   their CPUs.
if ! has_rt_app; then
	tap_skip "rt-app: third-party workloads" "no rt-app in this initramfs (x86 guest)"
	return 0
fi
if ! placement_params; then
	tap_skip "rt-app: third-party workloads" "the x86 machine has 2 equal CPUs"
	return 0
fi
# shellcheck disable=SC2086
learn_clusters $PARAMS || { tap_not_ok "rt-app: hmpgov loads ($PARAMS)"; return 0; }
set -- $LITTLE
little0=$1
tap_note "rt-app: little CPUs: $LITTLE; big CPUs: $BIG"

# ra_global SECONDS: the "global" object of a use case.
ra_global() {
	printf '"global": { "duration": %d, "calibration": "CPU0", "default_policy": "SCHED_OTHER", ' "$1"
	printf '"lock_pages": false, "log_size": "disable", "logdir": "/tmp", "ftrace": false }\n'
}

# ra_small NAME NICE RUN_US PERIOD_US: a periodic thread, one burst a period.
ra_small() {
	printf '"%s": { "priority": %d, "loop": -1, "run": %d, "timer": { "ref": "unique", "period": %d } }' \
		"$1" "$2" "$3" "$4"
}

# ra_busy NAME NICE: a thread that never sleeps.
ra_busy() { printf '"%s": { "priority": %d, "loop": -1, "run": 100000 }' "$1" "$2"; }

# ra_chain: a producer and a consumer woken by its signal under a mutex,
# 3 ms bursts each, every 40 ms (the producer's timer).
ra_chain() {
	printf '"sprod": { "loop": -1, "run": 3000, "lock": "m0", "signal": "q0", "unlock": "m0", '
	printf '"timer": { "ref": "unique", "period": 40000 } },\n'
	printf '"scons": { "priority": 5, "loop": -1, "lock": "m0", "wait": { "ref": "q0", "mutex": "m0" }, '
	printf '"unlock": "m0", "run": 3000 }'
}

# Use cases. Thread names: s* small, b* busy, p* pinned, t the stepper.
# "run" is rt-app's calibrated loop, calibrated on CPU0 while the machine
# is quiet. The emulator runs the vCPUs in turn on one host thread, so
# while other vCPUs are busy a loop takes longer in guest time: beside
# two busy threads a 3 ms "run" lasts 9-12 ms (seen in hmpgov's signal),
# as on a real little CPU a burst lasts longer than on a big one. Beside
# the busy threads the small ones run 3-5 ms every 100-150 ms, so that
# even stretched they fit one little CPU: at 3-5 ms every 60-100 ms they
# took more than one (pack_limit), and moving between the two packing
# CPUs each time the set changed, 0.67 times a second each.
uc_small() {
	echo '{ "tasks": {'
	ra_small s1 -5 3000 30000; echo ,
	ra_small s2 0 6000 60000; echo ,
	ra_small s3 10 15000 150000; echo ,
	ra_chain
	echo '},'; ra_global 60; echo '}'
}
uc_busy() {
	echo '{ "tasks": {'
	ra_busy b1 0; echo ,
	ra_busy b2 -5; echo ,
	ra_small s1 0 3000 100000; echo ,
	ra_small s2 5 4000 120000; echo ,
	ra_small s3 -2 5000 150000
	echo '},'; ra_global 60; echo '}'
}
uc_overload() {
	echo '{ "tasks": {'
	ra_busy b1 0; echo ,
	ra_busy b2 0; echo ,
	ra_busy b3 0; echo ,
	ra_busy b4 0
	echo '},'; ra_global 60; echo '}'
}
uc_many() {
	echo '{ "tasks": {'
	printf '"s": { "instance": 16, "loop": -1, "run": 300, "timer": { "ref": "unique", "period": 30000 } }\n'
	echo '},'; ra_global 60; echo '}'
}
# two threads the user pinned: a busy one on the first little CPU, a small
# one on the big CPUs; and a small one left free
uc_pinned() {
	echo '{ "tasks": {'
	printf '"pb": { "cpus": [%d], "loop": -1, "run": 100000 },\n' "$little0"
	printf '"ps": { "cpus": [%s], "loop": -1, "run": 3000, "timer": { "ref": "unique", "period": 30000 } },\n' \
		"$(echo $BIG | tr ' ' ',')"
	ra_small s1 0 3000 30000
	echo '},'; ra_global 60; echo '}'
}
# one thread: 2 s light (10 %), 2 s heavy (80 %), over and over
uc_step() {
	echo '{ "tasks": { "t": { "loop": -1, "phases": {'
	printf '"light": { "loop": 100, "run": 2000, "timer": { "ref": "unique", "period": 20000 } },\n'
	printf '"heavy": { "loop": 100, "run": 16000, "timer": { "ref": "unique", "period": 20000 } }\n'
	echo '} } },'; ra_global 60; echo '}'
}

# launch FILE: rt-app started the way a launcher starts it: a subshell of
# this long-lived shell computes for a moment, then execs it. RA: its pid.
launch() {
	(
		_i=0
		while [ $_i -lt 3000 ]; do _i=$((_i + 1)); done
		exec $RT_APP "$1" >/tmp/rt-app.log 2>&1
	) &
	RA=$!
}

# threads PREFIX: the tids of RA's threads whose name starts with PREFIX.
threads() {
	for _t in /proc/$RA/task/*; do
		case $(cat "$_t/comm" 2>/dev/null) in
		"$1"*) printf '%s ' "${_t##*/}" ;;
		esac
	done
}

# run_case NAME WHEN NTHREADS SECONDS: launch use case NAME, wait for its
# NTHREADS threads, warm up 1 s, trace SECONDS; leaves runtimes(1) output
# in /tmp/ra.NAME.WHEN, the trace in /tmp/ra.NAME.WHEN.trace, and SMALL,
# BUSY, PINNED as tid lists.
run_case() {
	uc_$1 >/tmp/ra.$1.json
	launch /tmp/ra.$1.json
	wait_for 20 eval '[ "$(cat /proc/$RA/task/*/comm 2>/dev/null | grep -v "^sh$" | grep -c "^[sbpt]")" -ge $3 ]'
	sleep 1
	SMALL=$(threads s)
	BUSY=$(threads b)
	PINNED=$(threads p)
	PB=$(threads pb)
	PS=$(threads ps)
	STEP=$(threads t)
	_ids=" $SMALL $BUSY $PINNED $STEP "
	trace_begin
	hm_events 1
	sleep "$4"
	if module_loaded; then
		# what hmpgov thinks of the threads now (notes, to explain a result)
		awk -v ids="$_ids" 'index(ids, " " $1 " ") { printf "%s:%s/%s/%s ", $2, $6, $7, $3 }' \
			$DBG/tasks >/tmp/ra.view
		tap_note "rt-app $1 ($2): hmpgov's view (comm:class/reason/util): $(cat /tmp/ra.view)"
	fi
	hm_events 0
	trace_end /tmp/ra.$1.$2.trace
	kill $RA 2>/dev/null
	wait $RA
	if [ -n "${HT_RA_DIAG:-}" ] && module_loaded; then
		grep -E 'hmpgov_(class|pack):' /tmp/ra.$1.$2.trace | head -n 40 | sed 's/^ */# diag /'
		grep 'hmpgov_place:.*applied=1' /tmp/ra.$1.$2.trace | head -n 20 | sed 's/^ */# diag /'
	fi
	[ -n "$SMALL$BUSY$PINNED$STEP" ] || tap_note "rt-app $1: $(tail -n 3 /tmp/rt-app.log | tr '\n' ' ')"
	if module_loaded; then
		tap_note "rt-app $1 ($2): hmpgov_pack: $(grep -c 'hmpgov_pack:' /tmp/ra.$1.$2.trace) changes ($(grep 'hmpgov_pack:' /tmp/ra.$1.$2.trace | sed 's/.*hmpgov_pack: //' | head -n 4 | tr '\n' ';')); class changes of its threads: $(grep 'hmpgov_class:' /tmp/ra.$1.$2.trace | awk -v ids="$_ids" '{ for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) p = substr($i, 5) } index(ids, " " p " ")' | wc -l); moves of its threads: $(grep 'hmpgov_place:.*applied=1' /tmp/ra.$1.$2.trace | awk -v ids="$_ids" '{ for (i = 1; i <= NF; i++) { if ($i ~ /^pid=/) p = substr($i, 5); if ($i ~ /^reason=/) r = substr($i, 8) } } index(ids, " " p " ") { n[r]++ } END { for (k in n) printf "%s %d, ", k, n[k] }')"
	fi
	# shellcheck disable=SC2086
	runtimes $SMALL $BUSY $PINNED $STEP </tmp/ra.$1.$2.trace >/tmp/ra.$1.$2
	[ -z "${HT_RA_DIAG:-}" ] || sed 's/^/# diag rt: /' /tmp/ra.$1.$2
	check "rt-app $1 ($2): rt-app started its $3 threads ($SMALL/$BUSY/$PINNED/$STEP)" \
		[ "$(echo $SMALL $BUSY $PINNED $STEP | wc -w)" -ge "$3" ]
}

# hm_events 0|1: hmpgov's own trace events off or on (while loaded).
hm_events() {
	module_loaded || return 0
	for _e in hmpgov_class hmpgov_place hmpgov_pack; do
		echo "$1" >$TR/events/hmpgov/$_e/enable 2>/dev/null
	done
}

# judge WHEN CHECK NAME OP...: CHECK when hmpgov is loaded, a note on the
# stock kernel.
judge() {
	_w=$1
	shift
	if [ "$_w" = loaded ]; then check "$@"; else tap_note "stock: $1"; fi
}

small_rules() { # NAME WHEN
	_f=/tmp/ra.$1.$2
	# shellcheck disable=SC2086
	_l=$(share "$_f" "$LITTLE" $SMALL)
	# shellcheck disable=SC2086
	_o=$(top_share "$_f" $SMALL)
	# shellcheck disable=SC2086
	_m=$(migration_rate "$_f" 5 $SMALL)
	judge "$2" "rt-app $1 ($2): small threads >= 95% on little CPUs (${_l}%)" ge "$_l" 95
	judge "$2" "rt-app $1 ($2): small threads >= 85% on one CPU (${_o}%)" ge "$_o" 85
	judge "$2" "rt-app $1 ($2): small threads migrate <= 0.5 times/s each ($_m)" ge 0.5 "$_m"
}

busy_rules() { # NAME WHEN
	# shellcheck disable=SC2086
	_b=$(share /tmp/ra.$1.$2 "$BIG" $BUSY)
	judge "$2" "rt-app $1 ($2): busy threads >= 95% on big CPUs (${_b}%)" ge "$_b" 95
}

# least_share FILE TIDS...: the smallest share of the trace's span (%)
# that any of TIDS ran.
least_share() {
	_f=$1
	shift
	awk -v pids=" $* " '
		$1 == "span_us" { span = $2 }
		$1 == "pid" && index(pids, " " $2 " ") { t[$2] = $4 }
		END { least = -1
		      for (p in t) if (least < 0 || t[p] < least) least = t[p]
		      printf "%.1f\n", (span > 0 && least >= 0) ? 100 * least / span : 0 }' "$_f"
}

# step_shares TRACE TID: "H L h l": the share (%) of TID's runtime in its
# heavy bursts spent on BIG CPUs and in its light bursts on LITTLE CPUs,
# and the seconds of each, from sched_switch. A burst runs from a wake-up
# to the next sleep; one of 8 ms or more of running is heavy (the stepper
# runs 16 ms or 2 ms a period, the same time on every CPU of the
# emulator).
step_shares() {
	awk -v tid="$2" -v big=" $BIG " -v little=" $LITTLE " '
		function stamp(   i) {
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) return substr($i, 1, length($i) - 1) + 0
			return -1
		}
		function cpu_of(   i) {
			for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) return substr($i, 2, length($i) - 2) + 0
			return -1
		}
		BEGIN { start = -1 }
		/sched_switch:/ {
			now = stamp()
			prev = ""; next_ = ""; state = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^prev_pid=/) prev = substr($i, 10)
				if ($i ~ /^next_pid=/) next_ = substr($i, 10)
				if ($i ~ /^prev_state=/) state = substr($i, 12)
			}
			if (prev == tid && start >= 0) {
				d = now - start
				run += d
				if (index(big, " " cpu " ")) onbig += d
				if (index(little, " " cpu " ")) onlittle += d
				start = -1
				if (state !~ /^R/) {	# asleep: the burst ends
					if (run >= 0.008) { heavy += run; hbig += onbig }
					else { light += run; llittle += onlittle }
					run = 0; onbig = 0; onlittle = 0
				}
			}
			if (next_ == tid) { start = now; cpu = cpu_of() }
		}
		END { printf "%.1f %.1f %.3f %.3f\n", (heavy > 0) ? 100 * hbig / heavy : 0,
		      (light > 0) ? 100 * llittle / light : 0, heavy, light }' "$1"
}

# want CASE: the use case is in this run (HT_RA_CASES, default all).
want() { [ -z "${HT_RA_CASES:-}" ] || echo ",$HT_RA_CASES," | grep -q ",$1,"; }

step_ok() { ge "$1" 90 && ge "$2" 80; }

# The stock kernel first (its figures are notes), then hmpgov loaded; the
# shell that starts every use case is this one, throughout.
for when in ${HT_RA_WHEN:-stock loaded}; do
	if [ $when = loaded ]; then
		# shellcheck disable=SC2086
		load $PARAMS steer=affinity >/dev/null ||
			{ tap_not_ok "rt-app: hmpgov loads ($PARAMS)"; break; }
		sleep 0.5
	fi
	if want small; then
		run_case small $when 5 5
		small_rules small $when
	fi
	if want busy; then
		run_case busy $when 5 5
		small_rules busy $when
		busy_rules busy $when
	fi
	if want many; then
		run_case many $when 16 5
		small_rules many $when
	fi
	if want overload && [ "$(ncpus)" = 4 ]; then
		run_case overload $when 4 5
		# shellcheck disable=SC2086
		least=$(least_share /tmp/ra.overload.$when $BUSY)
		judge $when "rt-app overload ($when): each of 4 busy threads on 4 CPUs ran >= 85% of the time (least ${least}%)" \
			ge "$least" 85
	fi

	if want pinned; then
		run_case pinned $when 3 5
		pl=$(share /tmp/ra.pinned.$when "$little0" $PB)
		pg=$(share /tmp/ra.pinned.$when "$BIG" $PS)
		judge $when "rt-app pinned ($when): the thread pinned to cpu$little0 ran only there (${pl}%), the one pinned to $BIG only there (${pg}%)" \
			[ "$pl" = 100.0 -a "$pg" = 100.0 ]
	fi
	want step || continue
	run_case step $when 1 9
	# shellcheck disable=SC2086
	set -- $(step_shares /tmp/ra.step.$when.trace $STEP)
	tap_note "rt-app step ($when): heavy ${3:-0} s, light ${4:-0} s traced"
	judge $when "rt-app step ($when): heavy phases on big CPUs >= 90% (${1:-none}%), light phases on little >= 80% (${2:-none}%)" \
		step_ok "${1:-0}" "${2:-0}"
done
unload >/dev/null
