#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: third-party work under hmpgov, from Debian's rt-tests (the
# arm64 package of bookworm, put into the initramfs by
# scripts/build-initramfs.sh):
#   - hackbench, throughput: completion time of a fixed number of messages
#     between groups of processes (sockets) and of threads (pipes);
#   - cyclictest, the wake-up latency that packing costs small tasks:
#     4 SCHED_OTHER threads at a tiny duty, waking together every 10 ms
#     (hmpgov classes them small and packs them onto one little CPU),
#     alone and beside two always-busy tasks, made unbound (cyclictest
#     binds each thread to one CPU, and hmpgov leaves bound tasks alone);
#     and cyclictest as shipped, bound, as a control.
# hmpgov unloaded against loaded, alternated in one boot
# (selftests/guest/bench/thirdparty.sh); per workload the medians of each
# side and the median of the per-pair ratios loaded/unloaded. The guest is
# emulated (QEMU TCG): run it on an otherwise idle host.
#
# usage: scripts/bench-thirdparty.sh [--smoke | --report] [KID [MACHINE]]
#   defaults: deb-6.12-arm64 bl-2x2; 7 hackbench pairs per mode, 5
#   cyclictest pairs per case
#   --smoke:  one short pair of each; proves the script works (make check)
#   --report: no run; the table again from the last run's guest log
# The table is printed and kept in $HMPGOV_BUILD/bench-thirdparty.txt.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

mode=full
case ${1:-} in
--smoke | --report) mode=${1#--}; shift ;;
-*) die "usage: bench-thirdparty.sh [--smoke | --report] [KID [MACHINE]]" ;;
esac
case ${1:-} in -*) die "usage: bench-thirdparty.sh [--smoke | --report] [KID [MACHINE]]" ;; esac
kid=${1:-deb-6.12-arm64}
machine=${2:-bl-2x2}

if [ "$mode" = smoke ]; then
	vars=(HT_PAIRS=1 HT_HB_GROUPS=2 HT_HB_LOOPS=20 HT_CT_PAIRS=1 HT_CT_LOOPS=200 HT_CT_SKIP=100 "HT_CT_CASES=free0,free2,pinned0")
else
	vars=(HT_PAIRS=7 HT_HB_GROUPS=4 HT_HB_LOOPS=25 HT_CT_PAIRS=5 HT_CT_LOOPS=600 HT_CT_SKIP=100 "HT_CT_CASES=free0,free2,pinned0")
fi
log_file=$HMPGOV_BUILD/logs/$kid-$machine-bench-thirdparty.log
out=$HMPGOV_BUILD/bench-thirdparty.txt

load_note=
if [ "$mode" != report ]; then
	prepare_guest "$kid" >&2
	log "third-party bench on $kid / $machine (${vars[*]})"
	load_before=$(cut -d' ' -f1 /proc/loadavg)
	"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-thirdparty HT_PART=bench-thirdparty \
		"${vars[@]}" HT_TIMEOUT=1200 >/dev/null || true
	load_note="host load average (1 min) before / after the run: $load_before / $(cut -d' ' -f1 /proc/loadavg) on $(nproc) host CPUs"
fi
check_bench_log "$log_file"
# shellcheck disable=SC1090
source "$HMPGOV_KERNELS/$kid.env"

mkdir -p "$HMPGOV_BUILD"
set +e
grep -a '^@@BENCH ' "$log_file" | awk -v kid="$kid" -v kver="$PKGVER" -v m="$machine" '
	function num(v) { return v ~ /^[0-9]+(\.[0-9]+)?$/ }
	function sort(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	}
	function med(a, n) { sort(a, n); return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : -1 }
	function casename(c,   n) {
		n = c; sub(/^[a-z]*/, "", n)
		return (c ~ /^free/ ? "unbound" : "as shipped: bound") ", " (n + 0 ? n " busy beside" : "alone")
	}
	function bad(what) { print "error: " what > "/dev/stderr"; broken = 1 }
	$2 == "params" { for (i = 3; i < NF; i += 2) par[$i] = $(i + 1)
		pairs = par["pairs"]; groups = par["groups"]; loops = par["loops"]; ctpairs = par["ctpairs"]
		ctthreads = par["ctthreads"]; ctinterval = par["ctinterval"]; ctloops = par["ctloops"]; ctskip = par["ctskip"]
		bgs = par["cases"]; gsub(/,/, " ", bgs) }
	$2 == "version" { sub(/^@@BENCH version /, ""); version = $0 }
	$2 == "hb" { if (!num($6)) bad("hackbench " $3 " pair " $4 " " $5 ": " $6); hb[$3, $4, $5] = $6 }
	$2 == "hbstat" { moves[$3, $4] = $6; cc[$3, $4] = $8 }
	$2 == "ct" {
		if ($6 == "error" || NF < 11) { bad("cyclictest " $3 " pair " $4 " " $5); next }
		for (i = 6; i <= 11; i++) if (!num($i)) bad("cyclictest " $3 " pair " $4 ": " $i)
		ct[$3, $4, $5, "min"] = $6; ct[$3, $4, $5, "avg"] = $7; ct[$3, $4, $5, "max"] = $8
		ct[$3, $4, $5, "p50"] = $9; ct[$3, $4, $5, "p99"] = $10; ct[$3, $4, $5, "n"] = $11
	}
	$2 == "ctclass" { cls[$3, $4, $5] = $0 }
	END {
		if (pairs < 1 || ctpairs < 1 || bgs == "") { bad("no parameters line"); exit 1 }
		printf "third-party work on %s (%s) / %s, hmpgov unloaded vs loaded, alternated in one boot\n", kid, kver, m
		printf "%s\n\n", version
		printf "hackbench, completion time in s (pairs: %d; ratio = median of per-pair loaded/unloaded)\n", pairs
		printf "  %-38s %9s %9s %7s %15s %6s\n", "workload", "unloaded", "loaded", "ratio", "range", "moves"
		split("proc thread", modes, " ")
		for (k = 1; k <= 2; k++) {
			md = modes[k]
			for (p = 1; p <= pairs; p++) {
				if (!num(hb[md, p, "unloaded"]) || !num(hb[md, p, "loaded"]) || hb[md, p, "unloaded"] <= 0) {
					bad("hackbench " md " pair " p " missing"); continue
				}
				u[p] = hb[md, p, "unloaded"]; l[p] = hb[md, p, "loaded"]; r[p] = l[p] / u[p]; mv[p] = moves[md, p] + 0
			}
			mr = med(r, pairs)
			if (md == "proc") what = sprintf("processes, sockets: -g %d -l %d", groups, loops)
			else what = sprintf("threads, pipes: -T -p -g %d -l %d", groups, loops)
			printf "  %-38s %9.3f %9.3f %7.3f %7.3f..%-6.3f %6d\n", what, med(u, pairs), med(l, pairs), mr,
				r[1], r[pairs], med(mv, pairs)
		}
		printf "  (%d tasks per run; moves: hmpgov affinity changes in a loaded run, median)\n", groups * 40
		printf "\ncyclictest --policy=other -t %d -i %d -d 0 -l %d -v: wake-up latency in us, cycles %d..%d (pairs: %d)\n",
			ctthreads, ctinterval, ctloops, ctskip, ctloops - 1, ctpairs
		printf "  %-26s %-6s %9s %9s %7s %15s\n", "threads", "metric", "unloaded", "loaded", "ratio", "range"
		nb = split(bgs, bl, " ")
		split("avg p50 p99 max", mets, " ")
		for (b = 1; b <= nb; b++) {
			bg = bl[b]
			for (p = 1; p <= ctpairs; p++)
				if (ct[bg, p, "unloaded", "n"] == "" || ct[bg, p, "loaded", "n"] == "")
					bad("cyclictest " bg " pair " p " missing")
			for (k = 1; k <= 4; k++) {
				mt = mets[k]
				for (p = 1; p <= ctpairs; p++) {
					u[p] = ct[bg, p, "unloaded", mt]; l[p] = ct[bg, p, "loaded", mt]
					r[p] = u[p] > 0 ? l[p] / u[p] : 0
				}
				mr = med(r, ctpairs)
				label = k > 1 ? "" : casename(bg)
				printf "  %-26s %-6s %9.1f %9.1f %7.2f %7.2f..%-6.2f\n", label, mt, med(u, ctpairs),
					med(l, ctpairs), mr, r[1], r[ctpairs]
			}
			split("", t); split("", on)
			for (p = 1; p <= ctpairs; p++) for (side = 0; side < 2; side++) {
				w = side ? "loaded" : "unloaded"
				if (split(cls[bg, p, w], c, " ") < 12) { bad("cyclictest " bg " pair " p " " w ": no class sample"); continue }
				for (i = 6; i <= 11; i++) t[w, i] += c[i]
				nc = split(c[12], cp, "+"); for (i = 1; i <= nc; i++) on[w, cp[i]] = 1
			}
			for (side = 0; side < 2; side++) {
				w = side ? "loaded" : "unloaded"; cpus = ""
				for (i = 0; i < 64; i++) if ((w, i) in on) cpus = cpus (cpus == "" ? "" : ",") i
				printf "  %-26s %s: %d of %d threads SCHED_OTHER", "", w, t[w, 7], t[w, 6]
				if (side) printf ", classed small %d medium %d big %d untracked %d", t[w, 8], t[w, 9], t[w, 10], t[w, 11]
				printf "; last CPU %s\n", cpus
			}
		}
		printf "  (threads sampled half way through each run, or half way through the skipped cycles where they had ended by then: policy, hmpgov class, the CPU they last ran on)\n"
		printf "\nmedians over pairs; range: lowest..highest per-pair ratio; QEMU TCG, all vCPUs equally fast\n"
		exit broken
	}' >"$out.tmp"
rc=$?
set -e
[ -n "$load_note" ] && echo "$load_note" >>"$out.tmp"
cat "$out.tmp"
mv "$out.tmp" "$out"
[ "$rc" -eq 0 ] || die "missing or garbled figures (see $log_file)"
