#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: PREEMPT_RT latency beside steering. cyclictest (Debian's
# rt-tests: -m -p 80 -t NCPUS -i 1000 -q, one SCHED_FIFO thread per CPU)
# runs beside a mixed load (2 busy and 4 small duty tasks, three of them
# bound by the user), with hmpgov unloaded and loaded, alternated in one
# boot (selftests/guest/bench/rtlatency.sh; odd pairs unloaded first).
# Per side the medians over pairs of the runs' max and avg latency, and
# the median and range of the per-pair ratio loaded/unloaded. The guest
# is emulated in deterministic time (QEMU -icount): latencies are in
# guest time and judge the emulated machine, not a real board.
#
# usage: scripts/bench-rtlatency.sh [--smoke | --report] [KID [MACHINE]]
#   defaults: deb-6.12-rt-arm64 bl-2x2; 5 pairs of 5000 cycles (5 s)
#   --smoke:  one short pair (1000 cycles); proves the script works
#   --report: no run; the table again from the last run's guest log
# The table is printed and kept in $HMPGOV_BUILD/bench-rtlatency.md; a
# full run also writes it into docs/benchmarks.md, between the
# <!-- bench-rtlatency --> and <!-- /bench-rtlatency --> markers.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

usage() { die "usage: bench-rtlatency.sh [--smoke | --report] [KID [MACHINE]]"; }
mode=full
case ${1:-} in
--smoke | --report) mode=${1#--}; shift ;;
-*) usage ;;
esac
case ${1:-} in -*) usage ;; esac
[ $# -le 2 ] || usage
kid=${1:-deb-6.12-rt-arm64}
machine=${2:-bl-2x2}

if [ "$mode" = smoke ]; then
	vars=(HT_RL_PAIRS=1 HT_RL_LOOPS=1000)
else
	vars=(HT_RL_PAIRS=5 HT_RL_LOOPS=5000)
fi
log_file=$HMPGOV_BUILD/logs/$kid-$machine-bench-rtlatency.log
out=$HMPGOV_BUILD/bench-rtlatency.md
mkdir -p "$HMPGOV_BUILD"
# the commit, taken before the run
rev=$(git -C "$HMPGOV_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$HMPGOV_TOP" diff --quiet HEAD -- . ':!docs/benchmarks.md' 2>/dev/null || rev="$rev (with uncommitted changes)"

load_note=
if [ "$mode" != report ]; then
	prepare_guest "$kid" >&2
	log "PREEMPT_RT latency bench on $kid / $machine (${vars[*]})"
	load_before=$(cut -d' ' -f1 /proc/loadavg)
	rm -f "$log_file"	# a run that does not start leaves no old log to read
	"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-rtlatency HT_PART=bench-rtlatency \
		"${vars[@]}" HT_TIMEOUT=1500 >/dev/null || true
	load_note="host load average (1 min) before / after: $load_before / $(cut -d' ' -f1 /proc/loadavg) on $(nproc) host CPUs"
	made="run at commit $rev, $(date -u '+%Y-%m-%d %H:%M') UTC"
else
	made="read at commit $rev from $(date -u -r "$log_file" '+%Y-%m-%d %H:%M' 2>/dev/null || echo '?') UTC's log"
fi
check_bench_log "$log_file"
# shellcheck disable=SC1090
source "$HMPGOV_KERNELS/$kid.env"

set +e
grep -a '^@@BENCH ' "$log_file" | tr -d '\r' | awk -v kid="$kid" -v kver="$KVER" -v m="$machine" -v made="$made" '
	function num(v) { return v ~ /^[0-9]+(\.[0-9]+)?$/ }
	function sort(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	}
	function med(a, n) { sort(a, n); return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : -1 }
	function bad(what) { print "error: " what > "/dev/stderr"; broken = 1 }
	$2 == "params" { pairs = $4; loops = $6; threads = $8 }
	$2 == "version" { v = $0; sub(/^@@BENCH version /, "", v); sub(/ \/ .*/, "", v); sub(/^cyclictest /, "", v); version = v }
	$2 == "load" { nload = (NF - 2) / 2 }
	$2 == "rl" {
		if ($5 != threads || !num($6) || !num($7)) { bad("pair " $3 " " $4 ": no results (" $0 ")"); next }
		mx[$3, $4] = $6; av[$3, $4] = $7; nb[$3, $4] = $8; na[$3, $4] = $9
	}
	$2 == "restored" { restored = $3 }
	END {
		if (pairs < 1) { bad("no parameters line"); exit 1 }
		for (p = 1; p <= pairs; p++) {
			if (!((p, "unloaded") in mx) || !((p, "loaded") in mx)) { bad("pair " p " missing"); exit 1 }
			um[p] = mx[p, "unloaded"]; lm[p] = mx[p, "loaded"]
			ua[p] = av[p, "unloaded"]; la[p] = av[p, "loaded"]
			rm[p] = um[p] > 0 ? lm[p] / um[p] : 0; ra[p] = ua[p] > 0 ? la[p] / ua[p] : 0
			pm = pm sprintf("%s%d/%d", p > 1 ? ", " : "", um[p], lm[p])
			st[p] = nb[p, "loaded"] < na[p, "loaded"] ? nb[p, "loaded"] : na[p, "loaded"]
			if (st[p] < 1) bad("pair " p ": hmpgov had narrowed no load task in its loaded run")
		}
		sort(st, pairs)
		printf "PREEMPT_RT latency on %s (kernel %s), hmpgov unloaded vs loaded, %d pair(s) alternated in one boot (odd pairs unloaded first); %s\n\n", m, kver, pairs, made
		printf "cyclictest -m -p 80 -t %d -i 1000 -l %d -q (%s; SCHED_FIFO 80, %d s a run) beside 2 busy and 4 small duty tasks; latencies in us of guest time (QEMU -icount)\n\n", threads, loops, version, loops / 1000
		printf "| latency (us) | unloaded | loaded | ratio loaded/unloaded: median | range |\n"
		printf "|---|---|---|---|---|\n"
		# sorted first, so that [1] and [pairs] are the range whatever the
		# order awk evaluates the arguments of printf in
		rmed = med(rm, pairs); amed = med(ra, pairs)
		printf "| max (median of the runs) | %d | %d | %.2f | %.2f..%.2f |\n", med(um, pairs), med(lm, pairs), rmed, rm[1], rm[pairs]
		printf "| avg (median of the runs) | %.1f | %.1f | %.2f | %.2f..%.2f |\n", med(ua, pairs), med(la, pairs), amed, ra[1], ra[pairs]
		printf "\nmax per pair, unloaded/loaded: %s; hmpgov had narrowed %d..%d of the %d load tasks in the loaded runs (least per run, before or after it); %s of their masks differed from the user'"'"'s after the last rmmod\n", pm, st[1], st[pairs], nload, restored == "" ? "?" : restored
		exit broken
	}' >"$out.tmp"
rc=$?
set -e
if [ -n "$load_note" ]; then
	echo >>"$out.tmp"
	echo "$load_note" >>"$out.tmp"
fi
cat "$out.tmp"
mv "$out.tmp" "$out"
[ "$rc" -eq 0 ] || die "missing or garbled figures (see $log_file)"

# a full run writes its table into docs/benchmarks.md, between the markers
if [ "$mode" = full ]; then
	f=$HMPGOV_TOP/docs/benchmarks.md
	grep -q '^<!-- bench-rtlatency -->$' "$f" && grep -q '^<!-- /bench-rtlatency -->$' "$f" ||
		die "$f has no <!-- bench-rtlatency --> ... <!-- /bench-rtlatency --> markers"
	awk -v tbl="$out" '
		/^<!-- bench-rtlatency -->$/ { print; print ""; while ((getline l < tbl) > 0) print l; print ""; skip = 1; next }
		/^<!-- \/bench-rtlatency -->$/ { skip = 0 }
		!skip' "$f" >"$f.tmp"
	mv "$f.tmp" "$f"
	log "wrote the table into $f"
fi
