#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: set up, build and test hmpgov across the kernel matrix.
#
#   1. host packages (scripts/setup-host.sh), kernels (fetch-kernels.sh,
#      build-kernel.sh), the QEMU for deterministic time (fetch-qemu.sh),
#      device trees (build-dtbs.sh)
#   2. host unit tests of the pure C parts, with ASan and UBSan; the
#      mutants of the policy (mutants.sh) must each fail them
#   3. checkpatch.pl --strict on every C file
#   4. hmpgov.ko for each kernel with W=1 and sparse: no warning allowed;
#      a wrong guess of a probe's prototype fails the build (compat-check.sh);
#      each fallback of compat.h builds too (compat-permute.sh)
#   5. dkms add/build/install/remove against the host's headers
#   6. the guest suite in QEMU for each line of scripts/matrix-plan.txt
#   7. a smoke run of each benchmark script (they run; no figure judged;
#      the speed bench is skipped without a host cgroup v1 cpu controller);
#      those in deterministic guest time side by side, as the guests
#
# Output: one TAP 13 stream for everything, then "N passed, N failed,
# N skipped" alone on the last line. Exit status 1 on any failure.
#   HMPGOV_PLAN=file   another plan (for a quick run)
#   HMPGOV_GUESTS=N    guests run side by side (default: the host's cores)
set -uo pipefail
shopt -s lastpipe	# emit, at the end of pipelines, counts in this shell
source "$(dirname "$0")/lib.sh"

passed=0 failed=0 skipped=0 count=0
result=$HMPGOV_BUILD/check.tap
mkdir -p "$HMPGOV_BUILD/logs"
echo "TAP version 13" | tee "$result"

# emit PREFIX: read "ok - x" / "not ok - x" / "# x" lines, number them.
emit() {
	local prefix=$1 line status desc
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			if [[ $line == not\ ok* ]]; then status="not ok"; desc=${line#not ok}; else status=ok; desc=${line#ok}; fi
			# drop a producer's own number and dash
			desc=$(printf '%s' "$desc" | sed -E 's/^ *[0-9]* *-? *//')
			count=$((count + 1))
			if [ "$status" = "not ok" ]; then
				failed=$((failed + 1))
			elif [[ $desc == *"# SKIP"* ]]; then
				skipped=$((skipped + 1))
			else
				passed=$((passed + 1))
			fi
			echo "$status $count - $prefix$desc" | tee -a "$result" ;;
		"#"*) echo "$line" | tee -a "$result" ;;
		1..*|"TAP version"*) ;;
		*) echo "# $line" | tee -a "$result" ;;
		esac
	done
}

# verdict NAME LOG RC: the test line of a command that exited RC (77:
# skipped, its log's last line says why), and the log's tail if it failed.
verdict() {
	if [ "$3" -eq 0 ]; then
		echo "ok - $1"
	elif [ "$3" -eq 77 ]; then
		echo "ok - $1 # SKIP $(tail -n 1 "$2")"
	else
		echo "not ok - $1 (log: $2)"
		tail -n 15 "$2" | sed 's/^/# /'
	fi
}

step_log() { echo "$HMPGOV_BUILD/logs/$(printf '%s' "$1" | tr -c 'a-zA-Z0-9.-' '_').log"; }

# step NAME CMD...: one test from a command's exit status; output to a log.
step() {
	local name=$1 logf rc=0
	shift
	logf=$(step_log "$name")
	"$@" >"$logf" 2>&1 || rc=$?
	verdict "$name" "$logf" $rc | emit ""
	[ $rc -eq 0 ] || [ $rc -eq 77 ]
}

# in_session OUT RC CMD...: CMD in the background, in a session of its
# own (stopping check.sh stops it and all it started: stop_guests), its
# output in OUT, its exit status in RC, written last; $! is its pid.
in_session() {
	local out=$1 rc=$2
	shift 2
	rm -f "$rc"
	# shellcheck disable=SC2016
	SOUT=$out SRC=$rc setsid bash -c \
		'"$0" "$@" </dev/null >"$SOUT" 2>&1; echo $? >"$SRC"' "$@" &
}

# side_step NAME CMD...: step() in_session, as many at a time as guests
# run; side_steps_done prints their lines in the order started.
side_names=() side_pids=()
side_step() {
	local name=$1
	shift
	while [ "$(jobs -rp | wc -l)" -ge "$guests" ]; do wait -n || true; done
	in_session "$(step_log "$name")" "$HMPGOV_BUILD/side-${#side_names[@]}.rc" "$@"
	side_pids+=($!)
	side_names+=("$name")
}
side_steps_done() {
	local i rc
	wait
	for i in "${!side_names[@]}"; do
		rc=$(cat "$HMPGOV_BUILD/side-$i.rc" 2>/dev/null)
		if [ -z "$rc" ]; then
			echo "not ok - ${side_names[$i]} (no verdict: its runner was stopped)" | emit ""
			continue
		fi
		verdict "${side_names[$i]}" "$(step_log "${side_names[$i]}")" "$rc" | emit ""
	done
	side_names=() side_pids=()
}

finish() {
	echo "1..$count" | tee -a "$result"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit $?
}

# 1. Set-up. Without it nothing else can run.
step "setup: host packages" "$HMPGOV_TOP/scripts/setup-host.sh" || finish
step "setup: Debian kernels fetched" "$HMPGOV_TOP/scripts/fetch-kernels.sh" || finish
step "setup: own 6.12 kernels built (plain and debug)" "$HMPGOV_TOP/scripts/build-kernel.sh" || finish
step "setup: QEMU for deterministic guest time" "$HMPGOV_TOP/scripts/fetch-qemu.sh" || finish
step "setup: device trees built" "$HMPGOV_TOP/scripts/build-dtbs.sh" || finish
{ echo "# kernel matrix:"; for f in "$HMPGOV_KERNELS"/*.env; do
	( source "$f"; echo "#   $KID: $KVER ($PKGVER)" ); done; } | tee -a "$result"

# 2. Host unit tests.
"$HMPGOV_TOP/scripts/unit-tests.sh" | emit "unit "
[ "${PIPESTATUS[0]}" -eq 0 ] || echo "not ok - unit-tests.sh exits 0" | emit "unit "
# ... and each mutant of the policy (scripts/mutants.sh) fails them.
"$HMPGOV_TOP/scripts/mutants.sh" | emit "unit "
[ "${PIPESTATUS[0]}" -eq 0 ] || echo "not ok - mutants.sh exits 0" | emit "unit "

# 3. Style.
src=$(ls -d "$HMPGOV_CACHE"/src/linux-source-6.12-*/ | head -n 1)
step "style: checkpatch.pl --strict clean" "$HMPGOV_TOP/scripts/lint.sh" "$src"

# 4. Builds with W=1 and sparse.
while read -r kid _; do
	step "build $kid: W=1 and sparse (C=1) with no warning" \
		"$HMPGOV_TOP/scripts/build-module.sh" "$kid" C=1
	step "initramfs $kid" "$HMPGOV_TOP/scripts/build-initramfs.sh" "$kid"
done < <(matrix_entries)

# A wrong guess of a probe's argument list must not build (compat.h).
step "compat: deb-5.10-arm64 built with sched_switch's prev_state (a wrong guess) fails" \
	"$HMPGOV_TOP/scripts/compat-check.sh" deb-5.10-arm64 HMPGOV_SWITCH_PREV_STATE sched_switch
step "compat: deb-6.12-arm64 built with sched_stat_runtime's vruntime (a wrong guess) fails" \
	"$HMPGOV_TOP/scripts/compat-check.sh" deb-6.12-arm64 HMPGOV_STAT_RUNTIME_VRUNTIME sched_stat_runtime
# Each branch of compat.h builds somewhere with W=1 and sparse.
"$HMPGOV_TOP/scripts/compat-permute.sh" | emit ""
[ "${PIPESTATUS[0]}" -eq 0 ] || echo "not ok - compat-permute.sh exits 0" | emit ""
step "tables: modinfo states the tunables' bounds and defaults; the trace event's reasons follow the enum" \
	"$HMPGOV_TOP/scripts/check-tables.sh" deb-6.1-amd64

# 5. DKMS.
"$HMPGOV_TOP/scripts/dkms-test.sh" | emit ""

# 6. The guest suite. Each guest runs in deterministic time (-icount,
# one host thread), so HMPGOV_GUESTS of them (default: the host's cores)
# run side by side without disturbing each other's figures; a plan line
# with HT_ICOUNT=0 (real-time emulation, a thread per vCPU) runs alone.
# Lines start longest first (by their HT_TIMEOUT) and a slot is refilled
# as soon as any guest ends; results are printed in plan order.
plan=${HMPGOV_PLAN:-$HMPGOV_TOP/scripts/matrix-plan.txt}
guests=${HMPGOV_GUESTS:-$(nproc)}
[[ $guests =~ ^[1-9][0-9]*$ ]] || guests=1
gdir=$HMPGOV_BUILD/guests
rm -rf "$gdir"
mkdir -p "$gdir"
n=0
while read -r kid machine vars; do
	case $kid in ''|'#'*) continue ;; esac
	echo "$kid $machine $vars" >"$gdir/$n.line"
	n=$((n + 1))
done <"$plan"
# the start order: plan indexes by HT_TIMEOUT, largest first
mapfile -t order < <(for ((i = 0; i < n; i++)); do
	t=$(grep -o 'HT_TIMEOUT=[0-9]*' "$gdir/$i.line" | cut -d= -f2)
	echo "${t:-600} $i"
done | sort -k1,1nr -k2,2n | cut -d' ' -f2)
declare -A gpid=()
# guest_start I: boot plan line I in the background.
guest_start() {
	local kid machine vars
	read -r kid machine vars <"$gdir/$1.line"
	# shellcheck disable=SC2086
	in_session "$gdir/$1.out" "$gdir/$1.rc" \
		"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" $vars
	gpid[$1]=$!
}
stop_guests() {
	local p i
	for p in "${gpid[@]}"; do kill -- "-$p" 2>/dev/null; done
	# side steps still running (an ended one's group id may be reused)
	for i in "${!side_pids[@]}"; do
		[ -e "$HMPGOV_BUILD/side-$i.rc" ] || kill -- "-${side_pids[$i]}" 2>/dev/null
	done
}
trap stop_guests EXIT
realtime() { grep -q 'HT_ICOUNT=0' "$gdir/$1.line"; }
# a real-time line is running
realtime_running() {
	local i
	for i in "${!gpid[@]}"; do realtime "$i" && return 0; done
	return 1
}
# guest_print I: plan line I's results
guest_print() {
	local kid machine
	read -r kid machine _ <"$gdir/$1.line"
	echo "# guest: $kid on $machine" | tee -a "$result"
	emit "[$kid $machine] " <"$gdir/$1.out"
	# a runner that failed before its own verdict lines (e.g. no kernel)
	if [ "$(cat "$gdir/$1.rc" 2>/dev/null)" != 0 ] && ! grep -q '^not ok' "$gdir/$1.out"; then
		echo "not ok - guest run failed (run-qemu.sh exit $(cat "$gdir/$1.rc" 2>/dev/null))" |
			emit "[$kid $machine] "
	fi
}
declare -A ended=()
next=0
printed=0
while [ $printed -lt $n ]; do
	# keep up to $guests running, a real-time one only alone
	while [ $next -lt $n ] && [ ${#gpid[@]} -lt "$guests" ] && ! realtime_running; do
		if realtime "${order[$next]}" && [ ${#gpid[@]} -gt 0 ]; then break; fi
		guest_start "${order[$next]}"
		next=$((next + 1))
	done
	# any guest's end; its runner writes its .rc file last
	wait -n "${gpid[@]}" 2>/dev/null || true
	found=0
	for i in "${!gpid[@]}"; do
		if [ -s "$gdir/$i.rc" ]; then
			wait "${gpid[$i]}" 2>/dev/null || true
			unset "gpid[$i]"
			ended[$i]=1
			found=1
		fi
	done
	[ $found = 1 ] || sleep 1
	while [ $printed -lt $n ] && [ -n "${ended[$printed]:-}" ]; do
		guest_print $printed
		printed=$((printed + 1))
	done
done

# 7. Benchmarks: figures belong in `make bench`; here they only must run.
# First the rt-app table from the guest suite's own log.
# shellcheck disable=SC2016
step "bench: scripts/bench-rtapp.sh --report makes its table from this run's deb-6.12 bl-2x2 log (test 86)" \
	bash -c '[ -f "$1" ] || { echo "this plan has no deb-6.12-arm64 bl-2x2 line"; exit 77; }
		exec "$0" --report "$1"' \
	"$HMPGOV_TOP/scripts/bench-rtapp.sh" "$HMPGOV_BUILD/logs/deb-6.12-arm64-bl-2x2.log"
# The benchmarks' guests run in deterministic time too: as many at a time
# as the suite's guests, each with its own log (HT_PART) and the initramfs
# step 4 built (HMPGOV_PREPARED). Real time (bench-speed) and the host's
# own timing (bench-account) after them, alone.
export HMPGOV_PREPARED=1
side_step "bench: scripts/bench-placement.sh --smoke runs to its table" \
	"$HMPGOV_TOP/scripts/bench-placement.sh" --smoke
side_step "bench: scripts/bench-timeline.sh --smoke draws its timeline" \
	"$HMPGOV_TOP/scripts/bench-timeline.sh" --smoke
side_step "bench: scripts/bench-thirdparty.sh --smoke (hackbench, cyclictest)" \
	"$HMPGOV_TOP/scripts/bench-thirdparty.sh" --smoke
side_step "bench: scripts/bench-rtlatency.sh --smoke (cyclictest beside steering, rt kernel, 1 pair)" \
	"$HMPGOV_TOP/scripts/bench-rtlatency.sh" --smoke
side_step "bench: scripts/bench-tracking.sh --smoke (probe overhead, 2 pairs)" \
	"$HMPGOV_TOP/scripts/bench-tracking.sh" --smoke
side_step "bench: scripts/bench-scale.sh --smoke (10 and 1,000 threads)" \
	"$HMPGOV_TOP/scripts/bench-scale.sh" --smoke
side_steps_done
step "bench: scripts/plot-residency.sh --smoke draws the smoke table" \
	"$HMPGOV_TOP/scripts/plot-residency.sh" --smoke
step "bench: scripts/bench-speed.sh --smoke (little vCPUs throttled on the host)" \
	"$HMPGOV_TOP/scripts/bench-speed.sh" --smoke
step "bench: scripts/bench-account.sh --smoke (the signal's cost per event, this tree against 62386c5, host)" \
	"$HMPGOV_TOP/scripts/bench-account.sh" --smoke

finish
