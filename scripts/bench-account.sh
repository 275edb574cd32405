#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: the cost of one accounting of the utilization signal (what
# hmpgov's sched_stat_runtime probe computes per event,
# module/util_signal.c) on this host, this tree against a baseline tree,
# alternated in one run (selftests/bench-host/account.c: 64 tasks, ticks
# and sleeps of 0..67 ms, a read every 16 events). The signal is pure C,
# so it runs on the host as it runs in the kernel; the host's CPU is not
# the boards' (its model is printed).
#
# usage: scripts/bench-account.sh [--smoke] [BASE]
#   BASE: a commit (default 62386c5, where the decay still divided by the
#         half-life: 4 divisions per decay, up to 2 decays per event)
#   --smoke: 3 pairs of short runs (make check)
# Per pair: ns per event of the faster of 5 rounds of each build; then the
# median and range of the per-pair ratios this tree / BASE. The table is
# printed and kept in $HMPGOV_BUILD/bench-account.txt; without --smoke it
# also replaces the figures in docs/benchmarks.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

pairs=11
events=2000000
if [ "${1:-}" = --smoke ]; then
	pairs=3
	events=200000
	shift
fi
base=${1:-62386c5}
if ! git -C "$HMPGOV_TOP" rev-parse -q --verify "$base^{commit}" >/dev/null; then
	echo "no commit $base in this clone (a shallow one?): nothing to compare with" >&2
	exit 77	# a skip for scripts/check.sh
fi
work=$HMPGOV_BUILD/bench-account
rm -rf "$work"
mkdir -p "$work/base/include/hmpgov" "$work/base/module"
for f in include/hmpgov/pure.h include/hmpgov/util_signal.h module/util_signal.c; do
	git -C "$HMPGOV_TOP" show "$base:$f" >"$work/base/$f"
done
flags=(-std=gnu11 -O2 -Wall -Wextra -Werror)
gcc "${flags[@]}" -I"$HMPGOV_TOP/include" -o "$work/head" \
	"$HMPGOV_TOP/selftests/bench-host/account.c" "$HMPGOV_TOP/module/util_signal.c"
gcc "${flags[@]}" -DHALFLIFE_AS_NS -I"$work/base/include" -o "$work/base/account" \
	"$HMPGOV_TOP/selftests/bench-host/account.c" "$work/base/module/util_signal.c"

head_id=$(git -C "$HMPGOV_TOP" rev-parse --short HEAD)
base_id=$(git -C "$HMPGOV_TOP" rev-parse --short "$base")
dirty=
git -C "$HMPGOV_TOP" diff --quiet HEAD -- module include selftests/bench-host || dirty=" (with uncommitted changes)"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
out=$work/pairs.txt
: >"$out"
for i in $(seq 1 "$pairs"); do
	# odd pairs run the baseline first, even pairs this tree
	if [ $((i % 2)) -eq 1 ]; then
		b=$("$work/base/account" 5 "$events"); h=$("$work/head" 5 "$events")
	else
		h=$("$work/head" 5 "$events"); b=$("$work/base/account" 5 "$events")
	fi
	echo "$i ${b%% *} ${h%% *} ${b##* } ${h##* }" >>"$out"
done
table=$(awk -v head="$head_id$dirty" -v base="$base_id" -v cpu="$cpu" \
	-v date="$(date -u +%Y-%m-%d)" -v events="$events" '
	{ n++; b[n] = $2; h[n] = $3; r[n] = $3 / $2; bs = $4; hs = $5 }
	function median(a, k,   i, j, t, c) {
		for (i = 1; i <= k; i++) c[i] = a[i]
		for (i = 2; i <= k; i++) for (j = i; j > 1 && c[j - 1] > c[j]; j--) {
			t = c[j]; c[j] = c[j - 1]; c[j - 1] = t }
		return k % 2 ? c[(k + 1) / 2] : (c[k / 2] + c[k / 2 + 1]) / 2
	}
	END {
		lo = hi = r[1]
		for (i = 2; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
		printf "Accounting cost per event, %s (%s events per round, fastest of 5 rounds, %d pairs, %s)\n\n", cpu, events, n, date
		printf "| build | ns per event (median) | signal sum |\n|---|---|---|\n"
		printf "| %s, baseline (decay divides by the half-life) | %.2f | %s |\n", base, median(b, n), bs
		printf "| %s (decay multiplies by a rate) | %.2f | %s |\n", head, median(h, n), hs
		printf "\nratio this tree / baseline: median %.3f, range %.3f..%.3f\n", median(r, n), lo, hi
	}' "$out")
echo "$table" | tee "$HMPGOV_BUILD/bench-account.txt"
ratio=$(echo "$table" | awk '/^ratio/ { print $7; exit }' | tr -d ,)
awk -v r="$ratio" 'BEGIN { exit !(r ~ /^[0-9]+\.[0-9]+$/ && r + 0 > 0) }' || die "no ratio measured ($ratio)"
if [ "$pairs" -gt 3 ]; then
	doc=$HMPGOV_TOP/docs/benchmarks.md
	grep -q '^<!-- bench-account begin -->$' "$doc" || die "no bench-account markers in $doc"
	awk -v f="$HMPGOV_BUILD/bench-account.txt" '
		/^<!-- bench-account end -->$/ { while ((getline l < f) > 0) print l; skip = 0 }
		!skip { print }
		/^<!-- bench-account begin -->$/ { skip = 1; print "" }' "$doc" >"$doc.new"
	mv "$doc.new" "$doc"
	log "docs/benchmarks.md: the accounting table replaced"
fi
