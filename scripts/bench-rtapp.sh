#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: Debian's rt-app use cases (selftests/guest/tests/86-rtapp.sh:
# small threads, busy beside small, 16 light threads, four busy threads
# on four CPUs, pinned threads, a thread stepping light <-> heavy), each
# run on the stock kernel and then with hmpgov loaded in the same boot,
# in deterministic guest time (QEMU -icount), on the capacity-aware
# bl-2x2 machine and the capacity-blind sym-4 one (capacity=). The
# figures come from the kernel's sched_switch and sched_migrate_task
# events, as the test judges them; one run, so no spread is given.
#
# usage: scripts/bench-rtapp.sh [--write] [KID]
#        scripts/bench-rtapp.sh --report LOG...
#   default KID: deb-6.12-arm64
#   --write:  also replace the table between the bench-rtapp markers in
#             README.md and docs/benchmarks.md
#   --report: no run; the table from guest logs that ran test 86 (make
#             check runs it on the matrix's deb-6.12 bl-2x2 log)
# The table is printed and kept in $HMPGOV_BUILD/bench-rtapp.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

usage() { die "usage: bench-rtapp.sh [--write] [KID] | --report LOG..."; }
mode=run
write=0
case ${1:-} in
--write) write=1; shift ;;
--report) mode=report; shift; [ $# -gt 0 ] || usage ;;
-*) usage ;;
esac
out=$HMPGOV_BUILD/bench-rtapp.md
mkdir -p "$HMPGOV_BUILD"
# the commit, taken before the run
rev=$(git -C "$HMPGOV_TOP" describe --always --dirty 2>/dev/null || echo unknown)
if [ "$mode" = run ]; then made="run at commit $rev"; else made="read at commit $rev"; fi

if [ "$mode" = run ]; then
	[ $# -le 1 ] || usage
	kid=${1:-deb-6.12-arm64}
	prepare_guest "$kid" >&2
	log "rt-app bench on $kid: bl-2x2 and sym-4, two guests in deterministic time"
	"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" bl-2x2 HT_TESTS=86-rtapp HT_TIMEOUT=2400 \
		HT_PART=bench-rtapp >/dev/null &
	one=$!
	"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" sym-4 HT_TESTS=86-rtapp HT_TIMEOUT=2400 \
		HT_PART=bench-rtapp >/dev/null || true
	wait "$one" || true
	set -- "$HMPGOV_BUILD/logs/$kid-bl-2x2-bench-rtapp.log" "$HMPGOV_BUILD/logs/$kid-sym-4-bench-rtapp.log"
fi

# table LOG: the rows of one guest log, as markdown.
table() {
	local log=$1 splats
	[ -f "$log" ] || die "no guest log $log"
	grep -aq '^@@BEGIN' "$log" || die "no guest boot in $log"
	grep -aq '@@TAP # tests done' "$log" || die "the guest did not finish its tests (see $log)"
	splats=$("$HMPGOV_TOP/scripts/find-splats.sh" "$log" || true)
	[ -z "$splats" ] || die "kernel splat in $log: $(echo "$splats" | head -n 3 | tr '\n' ';')"
	sed -n 's/^@@TAP //p' "$log" | awk -v src="${log##*/}" '
		function key(s) { gsub(/ \([^()]*\)/, "", s); return s }
		function vals(s,   v, m) {
			v = ""
			while (match(s, /\([^()]*\)/)) {
				m = substr(s, RSTART + 1, RLENGTH - 2)
				v = v (v == "" ? "" : ", ") m
				s = substr(s, RSTART + RLENGTH)
			}
			return v
		}
		/^@@BEGIN/ { next }
		$0 ~ /^# stock: rt-app [a-z0-9]+ \(stock\): / {
			c = $4; t = $0; sub(/^# stock: rt-app [a-z0-9]+ \(stock\): /, "", t)
			if (t ~ /^rt-app started/) next
			stock[c, key(t)] = vals(t)
			next
		}
		$0 ~ /^(not )?ok - rt-app [a-z0-9]+ \(loaded\): / {
			ok = $1 == "ok"; t = $0; sub(/^(not )?ok - rt-app /, "", t)
			c = t; sub(/ .*/, "", c); sub(/^[a-z0-9]+ \(loaded\): /, "", t)
			if (t ~ /^rt-app started/) next
			k = key(t)
			n++; rc[n] = c; rk[n] = k; rv[n] = vals(t); rok[n] = ok
		}
		/^# rt-app: little CPUs/ { cpus = $0; sub(/^# rt-app: /, "", cpus) }
		END {
			if (!n) { print "error: no rt-app result in " src > "/dev/stderr"; exit 1 }
			for (i = 1; i <= n; i++) {
				s = (rc[i], rk[i]) in stock ? stock[rc[i], rk[i]] : "-"
				printf "| %s | %s | %s | %s%s |\n", rc[i], rk[i], s, rv[i], rok[i] ? "" : " (NOT met)"
			}
		}'
}

{
	for log in "$@"; do
		m=$(sed -n 's/^@@BEGIN .*machine=\([^ ]*\).*/\1/p' "$log" | head -n 1)
		k=$(sed -n 's/^@@BEGIN kernel=\([^ ]*\).*/\1/p' "$log" | head -n 1)
		echo
		echo "rt-app use cases on $m (kernel $k), stock kernel vs hmpgov in one boot, deterministic guest time; ${log##*/}, $made, $(date -u +%Y-%m-%d)"
		echo
		echo "| use case | criterion (judged with hmpgov) | stock | hmpgov |"
		echo "|---|---|---|---|"
		table "$log"
	done
} >"$out.tmp"
mv "$out.tmp" "$out"
cat "$out"

# replace FILE: the lines between the markers become the table.
replace() {
	local f=$1
	grep -q '^<!-- bench-rtapp -->$' "$f" && grep -q '^<!-- /bench-rtapp -->$' "$f" ||
		die "$f has no <!-- bench-rtapp --> ... <!-- /bench-rtapp --> markers"
	awk -v tbl="$out" '
		/^<!-- bench-rtapp -->$/ { print; while ((getline l < tbl) > 0) print l; skip = 1; next }
		/^<!-- \/bench-rtapp -->$/ { skip = 0 }
		!skip' "$f" >"$f.tmp"
	mv "$f.tmp" "$f"
	log "wrote the table into $f"
}
if [ "$write" = 1 ]; then
	replace "$HMPGOV_TOP/README.md"
	replace "$HMPGOV_TOP/docs/benchmarks.md"
fi
