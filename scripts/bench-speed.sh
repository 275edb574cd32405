#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: real speed difference. QEMU's vCPUs all run at one speed, so
# this script makes the little ones really slower: the guest starts
# stopped, the host asks QMP (query-cpus-fast) for each vCPU's thread,
# moves QEMU into a cgroup v1 cpu group /sys/fs/cgroup/cpu/hmpgov-speed-PID
# (cpu.shares SPEED_SHARES, so that other work on the host takes less from
# the vCPUs) and every vCPU whose capacity is below the machine's largest
# into a group of its own below it, little-vcpuN, with cpu.cfs_quota_us =
# capacity/1024 of one host CPU; then the guest runs
# (selftests/guest/bench/speed.sh): the same work pinned to a little and
# to a big CPU (the check), then completion times of 2 heavy tasks alone
# and with 3 periodic 10 % tasks, hmpgov unloaded and loaded, alternated
# in one boot over several rounds. The host samples the vCPU
# threads' CPU time (/proc/PID/task/TID/schedstat) at each phase the guest
# announces. The groups are removed at the end, on failure too.
#
#   (a) stock Debian 6.12 on sym-4 (capacity-blind) vs hmpgov capacity=
#   (b) stock Debian 6.12 on bl-2x2 (capacity-aware) vs hmpgov
#
# usage: scripts/bench-speed.sh [--smoke]
#   --smoke: (a) only, one round of short work; proves the script works
# exit: 0 with every figure there, 77 (skip) without root or a cgroup v1
#   cpu controller, 1 otherwise
# environment: SPEED_ROUNDS (default 5), SPEED_HEAVY_MS (work per heavy
#   task, in ms of a big CPU, default 2000), SPEED_PERIOD_US (the cgroup's
#   cfs period, default 5000), SPEED_SHARES (cpu.shares of QEMU's group,
#   default 10240; 1024 is every other host process's weight),
#   SPEED_MACHINES (default "sym-4 bl-2x2": which of the two to run),
#   SPEED_TRACE=1 (trace the heavy runs: where each heavy task ran, and
#   hmpgov's class and place events for it, as "@@BENCH where" lines in
#   the raw file; a diagnosis, it slows the guest)
# The summary is printed and kept in $HMPGOV_BUILD/bench-speed.txt; the
# raw lines in $HMPGOV_BUILD/bench-speed-MACHINE.raw.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Without root or a cgroup v1 cpu controller (cgroup v2 alone, Debian 12's
# default) there is nothing to throttle with: exit 77, a skip.
CG_ROOT=/sys/fs/cgroup/cpu
if [ "$(id -u)" != 0 ] || [ ! -w "$CG_ROOT/tasks" ] || [ ! -f "$CG_ROOT/cpu.cfs_quota_us" ]; then
	echo "skip: the speed bench needs root and a cgroup v1 cpu controller at $CG_ROOT" >&2
	exit 77
fi
command -v python3 >/dev/null || apt-get install -y -q python3 >/dev/null
SYM_CAPS=446,446,1024,1024
PERIOD_US=${SPEED_PERIOD_US:-5000}
SHARES=${SPEED_SHARES:-10240}
CG=$CG_ROOT/hmpgov-speed-$$
KID=deb-6.12-arm64
RUN_PID=

# The host's half: QMP, the cgroups, and the vCPU threads' CPU time at
# each "@@BENCH phase NAME begin|end" line of the guest's console.
# args: SOCKET LOG CGROUP PERIOD_US SHARES CPU:CAPACITY[,CPU:CAPACITY...]
# prints "@@HOST ..." lines; exits non-zero if the throttling failed.
# shellcheck disable=SC2016
QMP_PY='
import json, os, select, socket, sys, time

sock_path, log_path, cg, period, shares, spec = sys.argv[1:7]
period = int(period)
slow = {int(c): int(k) for c, k in (x.split(":") for x in spec.split(","))}
TICK = os.sysconf("SC_CLK_TCK")

s = socket.socket(socket.AF_UNIX)
deadline = time.time() + 60
while True:
    try:
        s.connect(sock_path)
        break
    except OSError:
        if time.time() > deadline:
            sys.exit("qmp: no socket " + sock_path)
        time.sleep(0.1)
buf = b""

def line():
    global buf
    while b"\n" not in buf:
        d = s.recv(65536)
        if not d:
            raise EOFError
        buf += d
    l, buf = buf.split(b"\n", 1)
    return json.loads(l)

def cmd(name):
    s.sendall(json.dumps({"execute": name}).encode() + b"\n")
    while True:
        r = line()
        if "error" in r:
            sys.exit("qmp: %s: %s" % (name, r["error"]))
        if "return" in r:
            return r["return"]

line()  # greeting
cmd("qmp_capabilities")
tids = {c["cpu-index"]: c["thread-id"] for c in cmd("query-cpus-fast")}
with open("/proc/%d/status" % tids[0]) as f:
    pid = int([l.split()[1] for l in f if l.startswith("Tgid:")][0])
for c in sorted(tids):
    print("@@HOST vcpu", c, tids[c], "capacity", slow.get(c, 1024), flush=True)

def cputime(tid):
    try:
        with open("/proc/%d/task/%d/schedstat" % (pid, tid)) as f:
            return int(f.read().split()[0])
    except OSError:
        with open("/proc/%d/task/%d/stat" % (pid, tid)) as f:
            v = f.read().rsplit(")", 1)[1].split()
        return (int(v[11]) + int(v[12])) * 10**9 // TICK

def sample():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    busy = sum(v) - v[3] - v[4]
    with open("/proc/%d/stat" % pid) as f:
        q = f.read().rsplit(")", 1)[1].split()
    return (time.monotonic_ns(), {c: cputime(t) for c, t in tids.items()},
            busy * 10**9 // TICK, (int(q[11]) + int(q[12])) * 10**9 // TICK)

def put(path, value):
    with open(path, "w") as f:
        f.write(str(value))

moved = []
try:
    put(cg + "/cpu.shares", shares)
    put(cg + "/cgroup.procs", pid)
    for c, cap in sorted(slow.items()):
        d = "%s/little-vcpu%d" % (cg, c)
        os.mkdir(d)
        moved.append(d)
        put(d + "/cpu.cfs_period_us", period)
        put(d + "/cpu.cfs_quota_us", period * cap // 1024)
        put(d + "/tasks", tids[c])
        with open(d + "/tasks") as f:
            if str(tids[c]) not in f.read().split():
                sys.exit("cgroup: thread %d not in %s" % (tids[c], d))
        print("@@HOST throttled", c, tids[c], period * cap // 1024, period, flush=True)
    cmd("cont")
    log = open(log_path, "rb")
    pending = b""
    marks = {}
    alive = True
    while True:
        if alive:
            r, _, _ = select.select([s], [], [], 0.05)
            if r:
                d = s.recv(65536)
                if not d:
                    alive = False
        d = log.read()
        if d:
            pending += d
            *lines, pending = pending.split(b"\n")
            for l in lines:
                w = l.decode("ascii", "replace").strip().split()
                if len(w) == 4 and w[:2] == ["@@BENCH", "phase"]:
                    if w[3] == "begin":
                        marks[w[2]] = sample()
                    elif w[2] in marks:
                        (t0, c0, b0, q0), (t1, c1, b1, q1) = marks.pop(w[2]), sample()
                        wall = t1 - t0
                        pct = " ".join("%.1f" % (100 * (c1[c] - c0[c]) / wall) for c in sorted(c1))
                        print("@@HOST phase", w[2], "%.0f" % (wall / 1e6), pct,
                              "qemu %.1f others %.1f" % (100 * (q1 - q0) / wall,
                                                         100 * ((b1 - b0) - (q1 - q0)) / wall),
                              flush=True)
        elif not alive:
            break
    for d in moved:
        with open(d + "/cpu.stat") as f:
            st = dict(l.split() for l in f)
        print("@@HOST cgstat", os.path.basename(d), "nr_periods", st.get("nr_periods"),
              "nr_throttled", st.get("nr_throttled"),
              "throttled_ms", int(st.get("throttled_time", 0)) // 1000000, flush=True)
finally:
    try:
        put(os.path.dirname(cg) + "/cgroup.procs", pid)
    except OSError:
        pass  # QEMU has ended
    for d in moved:
        try:
            os.rmdir(d)
        except OSError:
            pass
'

cleanup() {
	local p d t
	if [ -n "$RUN_PID" ] && kill -0 "$RUN_PID" 2>/dev/null; then
		# run-qemu.sh's timeout(1) passes the signal on to QEMU
		for p in $(pgrep -P "$RUN_PID" || true); do kill "$p" 2>/dev/null || true; done
		wait "$RUN_PID" 2>/dev/null || true
	fi
	[ -d "$CG" ] || return 0
	for d in "$CG"/little-vcpu* "$CG"; do
		[ -d "$d" ] || continue
		while read -r t; do echo "$t" >"$CG_ROOT/tasks" 2>/dev/null || true; done <"$d/tasks"
		[ "$d" = "$CG" ] || rmdir "$d" 2>/dev/null || true
	done
	rmdir "$CG" 2>/dev/null || log "could not remove $CG"
	[ -z "${out:-}" ] || rm -f "$out.tmp"
}
trap cleanup EXIT

# slow_spec MACHINE [CAPACITIES]: "cpu:capacity" of every vCPU below the
# largest capacity, from capacity= or from the dts' capacity-dmips-mhz
# (normalised to 1024 like the kernel does).
slow_spec() {
	local caps=${2:-}
	if [ -z "$caps" ]; then
		caps=$(awk 'function hex(s,   v, i) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
			/&\{\/cpus\/cpu@/ { match($0, /cpu@[0-9a-f]+/); c = hex(substr($0, RSTART + 4, RLENGTH - 4)) }
			/capacity-dmips-mhz/ { gsub(/[^0-9]/, "", $3); cap[c] = $3; if (c + 1 > n) n = c + 1 }
			END { for (i = 0; i < n; i++) printf "%s%s", i ? "," : "", cap[i] }' "$HMPGOV_TOP/dts/$1.dts")
	fi
	[ -n "$caps" ] || die "$1: no capacities (neither capacity= nor capacity-dmips-mhz)"
	echo "$caps" | tr , '\n' | awk '{ cap[NR - 1] = $1; if ($1 > m) m = $1 }
		END { for (i = 0; i < NR; i++) if (cap[i] < m) printf "%s%d:%d", n++ ? "," : "", i, int(cap[i] * 1024 / m) }'
}

# run_setup LABEL MACHINE ROUNDS HEAVY_MS [PARAMS]: one boot; prints the summary
run_setup() {
	local label=$1 machine=$2 rounds=$3 heavy_ms=$4 params=${5:-} spec sock log_file raw host_out
	spec=$(slow_spec "$machine" "$(echo "$params" | sed -n 's/.*capacity=\([0-9,]*\).*/\1/p')")
	[ -n "$spec" ] || die "$machine: no CPU slower than the others"
	sock=$HMPGOV_BUILD/qmp-speed.sock
	log_file=$HMPGOV_BUILD/logs/$KID-$machine-bench-speed.log
	raw=$HMPGOV_BUILD/bench-speed-$machine.raw
	host_out=$HMPGOV_BUILD/bench-speed-$machine.host
	rm -f "$sock" "$log_file"
	log "speed bench: $KID / $machine ${params:+($params)}, throttled vCPU:capacity $spec, $rounds round(s)"
	HMPGOV_QMP=$sock HMPGOV_QMP_STOPPED=1 "$HMPGOV_TOP/scripts/run-qemu.sh" "$KID" "$machine" \
		HT_MODE=bench-speed HT_PART=bench-speed HT_ICOUNT=0 "HT_ROUNDS=$rounds" "HT_HEAVY_MS=$heavy_ms" \
		${params:+"HT_PARAMS=${params// /+}"} ${SPEED_TRACE:+HT_TRACE=1} \
		HT_TIMEOUT=$((300 + rounds * 200)) >/dev/null 2>&1 &
	RUN_PID=$!
	python3 -c "$QMP_PY" "$sock" "$log_file" "$CG" "$PERIOD_US" "$SHARES" "$spec" >"$host_out" ||
		die "the host side failed (QMP or cgroup; see $host_out)"
	wait "$RUN_PID" || true
	RUN_PID=
	{ grep -a '^@@BENCH ' "$log_file" || true; cat "$host_out"; } >"$raw"
	grep -q '^@@BENCH done' "$raw" || die "the benchmark did not finish (see $log_file)"
	if grep '^@@BENCH error' "$raw" >&2; then die "the guest reported an error (see $log_file)"; fi
	grep -q '^@@HOST throttled' "$host_out" || die "no vCPU was throttled (see $host_out)"
	summarize "$label" "$rounds" "$heavy_ms" <"$raw" >"$raw.sum" || die "garbled figures (see $raw)"
	cat "$raw.sum"
	cat "$raw.sum" >>"$out.tmp"
}

# summarize LABEL ROUNDS HEAVY_MS < raw lines; fails on a missing figure
summarize() {
	awk -v label="$1" -v rounds="$2" -v hms="$3" '
	function sort(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
	function stats(a, n) { sort(a, n); return n ? sprintf("median %7.3f  (min %.3f, max %.3f)", a[int((n + 1) / 2)], a[1], a[n]) : "-" }
	function mstats(a, n) { sort(a, n); return n ? sprintf("median %6.0f  (min %.0f, max %.0f)", a[int((n + 1) / 2)], a[1], a[n]) : "-" }
	function num(v) { return v ~ /^[0-9]+(\.[0-9]+)?$/ && v + 0 > 0 }
	$1 == "@@BENCH" && $2 == "cpus" { cpus = $0; sub(/^@@BENCH cpus /, "", cpus) }
	$1 == "@@BENCH" && $2 == "pinned" { if ($4 == "little") { pl = $5; lt[$3] = $6 } else { pb = $5; bt[$3] = $6 }
		if (!num($6)) bad = bad " pinned-" $3 "-" $4 }
	$1 == "@@BENCH" && $2 == "pinned4" { p4 = ""; for (i = 3; i <= NF; i++) p4 = p4 sprintf(" cpu%d %s", i - 3, $i); n4 = NF - 2 }
	$1 == "@@BENCH" && ($2 == "heavy" || $2 == "mix") {
		if (!num($7)) bad = bad " " $2 "-" $3 "-" $4
		t[$2, $3, $4] = $7
		if ($2 == "mix") { jobs[$3, $4] = $8; p95[$3, $4] = $10; mx[$3, $4] = $11; late[$3, $4] = $12
			if ($8 + 0 <= 0) bad = bad " small-" $3 "-" $4 } }
	$1 == "@@HOST" && $2 == "vcpu" { cap[$3] = $6; nv++ }
	$1 == "@@HOST" && $2 == "throttled" { thr = thr sprintf(" cpu%d %d/%d us", $3, $5, $6) }
	$1 == "@@HOST" && $2 == "cgstat" { cgs = cgs sprintf(" %s throttled in %d of %d periods;", $3, $7, $5) }
	$1 == "@@HOST" && $2 == "phase" { split($3, p, "-"); w = $4
		# host CPU of the big vCPUs (capacity 1024) and others
		s = 0; for (c = 0; c < nv; c++) if (cap[c] == 1024 && $(5 + c) > s) s = $(5 + c)
		if (p[1] == "heavy" || p[1] == "mix") { k = p[1] SUBSEP p[3]; bigcpu[k, ++nbc[k]] = s
			oth[k, ++nob[k]] = $NF }
		if (p[1] == "pinned" && p[2] != "all") { c = p[2] == "little" ? pl : pb
			hpct[p[2], p[3]] = $(5 + c); hcpu[p[2], p[3]] = $(5 + c) * w / 100 }
		if ($3 == "pinned-all") { pall = ""; for (c = 0; c < nv; c++) pall = pall sprintf(" cpu%d %.0f", c, $(5 + c) * w / 100) } }
	END {
		n = 0; for (i = 1; i <= 3; i++) if (bt[i] > 0) { ra[++n] = lt[i] / bt[i]; a1[n] = lt[i]; a2[n] = bt[i]
			a3[n] = hpct["little", i]; a4[n] = hpct["big", i]; a5[n] = hcpu["little", i]; a6[n] = hcpu["big", i] }
		if (n < 3) bad = bad " pinned"
		sort(a1, n); sort(a2, n); sort(a3, n); sort(a4, n); sort(a5, n); sort(a6, n); h = int((n + 1) / 2)
		if (n4 < 2) bad = bad " pinned4"
		printf "%s\n", label
		printf "  cpus: %s; throttled (quota/period):%s\n", cpus, thr
		printf "  check, the same work alone on cpu%d and on cpu%d (3 times, medians): %.0f ms and %.0f ms\n", pl, pb, a1[h], a2[h]
		printf "    time ratio little/big %s; expected %.2f\n", stats(ra, n), 1024 / cap[pl]
		printf "    the vCPU thread had %.1f %% and %.1f %% of a host CPU, %.0f and %.0f ms of it\n", a3[h], a4[h], a5[h], a6[h]
		delete ra
		printf "  check, the same work on every CPU at once (ms):%s\n    host CPU ms of each vCPU thread meanwhile:%s\n", p4, pall
		for (what = 0; what < 2; what++) {
			kind = what ? "mix" : "heavy"
			if (what) printf "  mix: the same 2 heavy tasks + 3 periodic tasks (10 %% of 16 ms of big-CPU work)\n"
			else printf "  heavy: 2 tasks x %d ms of big-CPU work, completion of the slower (ms), %d round(s)\n", hms, rounds
			n = 0; ns = 0; nh = 0
			for (r = 1; r <= rounds; r++) {
				if ((kind, r, "stock") in t) st[++ns] = t[kind, r, "stock"]
				if ((kind, r, "hmpgov") in t) hm[++nh] = t[kind, r, "hmpgov"]
				if (t[kind, r, "stock"] > 0 && t[kind, r, "hmpgov"] > 0) ra[++n] = t[kind, r, "hmpgov"] / t[kind, r, "stock"]
			}
			if (n < rounds) bad = bad " " kind "-pairs"
			printf "    stock   %s\n", mstats(st, ns)
			printf "    hmpgov  %s\n", mstats(hm, nh)
			printf "    hmpgov/stock per round: %s\n", stats(ra, n)
			for (cf = 0; cf < 2; cf++) { c = cf ? "hmpgov" : "stock"; k = kind SUBSEP c
				m = 0; for (i = 1; i <= nbc[k]; i++) b[++m] = bigcpu[k, i]
				m2 = 0; for (i = 1; i <= nob[k]; i++) o[++m2] = oth[k, i]
				sort(b, m); sort(o, m2)
				if (m) printf "    %-6s: the busier big vCPU had %.0f %% of a host CPU; other host load %.0f %% (medians of rounds)\n", c, b[int((m + 1) / 2)], o[int((m2 + 1) / 2)]
				delete b; delete o }
			if (what) for (cf = 0; cf < 2; cf++) { c = cf ? "hmpgov" : "stock"
				m = 0; m2 = 0; m3 = 0; for (r = 1; r <= rounds; r++) if (jobs[r, c] > 0) {
					a1[++m] = p95[r, c]; a2[++m2] = mx[r, c]; a3[++m3] = 100 * late[r, c] / jobs[r, c] }
				sort(a1, m); sort(a2, m2); sort(a3, m3)
				if (m) printf "    %-6s: small jobs p95 %.1f ms, max %.1f ms, late %.1f %% (medians of rounds)\n", c,
					a1[int((m + 1) / 2)] / 1000, a2[int((m2 + 1) / 2)] / 1000, a3[int((m3 + 1) / 2)]
				delete a1; delete a2; delete a3 }
			delete st; delete hm; delete ra
		}
		printf "  host cgroup:%s\n", cgs
		if (bad != "") { printf "error: missing or garbled figures:%s\n", bad > "/dev/stderr"; exit 1 }
	}'
}

out=$HMPGOV_BUILD/bench-speed.txt
mkdir -p "$HMPGOV_BUILD/logs"
rm -f "$out.tmp"
prepare_guest "$KID" >&2
mkdir "$CG"
# shellcheck disable=SC1090
source "$HMPGOV_KERNELS/$KID.env"
{
	echo "speed: Debian $KID $PKGVER, $(qemu-system-aarch64 --version | head -n 1 | sed 's/ (.*//'), host $(nproc) CPUs, $(date -u +%F)"
	echo "little vCPUs throttled on the host to capacity/1024 of one CPU (cfs period $PERIOD_US us), QEMU's cpu.shares $SHARES"
} | tee "$out.tmp"
if [ "${1:-}" = --smoke ]; then
	run_setup "(a)/(d) sym-4, stock vs hmpgov capacity=$SYM_CAPS" sym-4 1 300 "capacity=$SYM_CAPS"
else
	rounds=${SPEED_ROUNDS:-5}
	heavy_ms=${SPEED_HEAVY_MS:-2000}
	for m in ${SPEED_MACHINES:-sym-4 bl-2x2}; do
		case $m in
		sym-4) run_setup "(a)/(d) sym-4, stock vs hmpgov capacity=$SYM_CAPS" sym-4 "$rounds" "$heavy_ms" "capacity=$SYM_CAPS" ;;
		bl-2x2) run_setup "(b)/(e) bl-2x2, stock vs hmpgov" bl-2x2 "$rounds" "$heavy_ms" ;;
		*) die "SPEED_MACHINES: sym-4 and/or bl-2x2, not $m" ;;
		esac
	done
fi
mv "$out.tmp" "$out"
