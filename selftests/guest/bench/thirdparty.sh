# SPDX-License-Identifier: GPL-2.0
# Third-party work under hmpgov: Debian's hackbench and cyclictest
# (rt-tests, in the initramfs's /usr/bin), hmpgov unloaded against loaded,
# alternated in one boot (odd pairs run unloaded first, even pairs loaded
# first, so that a drift of the emulator does not favour one side).
#
# - hackbench, HT_PAIRS pairs of each of: processes over sockets
#   ("proc": -g HT_HB_GROUPS -l HT_HB_LOOPS) and threads over pipes
#   ("thread": the same with -T -p); completion time in s.
# - cyclictest, HT_CT_PAIRS pairs per case of HT_CT_CASES: HT_CT_THREADS
#   SCHED_OTHER threads (--policy=other, no -p: -p selects SCHED_FIFO)
#   waking every HT_CT_INTERVAL us, HT_CT_LOOPS times, all at the same
#   instant (-d 0); the wake-up latency of every cycle (-v) from cycle
#   HT_CT_SKIP on, in us. A case is "freeN" or "pinnedN", N always-busy
#   duty(1) tasks running beside it. cyclictest 2.4 binds each thread to
#   one CPU (round robin over the CPUs its main thread may use when it
#   starts them), and hmpgov does not steer a task allowed on one CPU:
#   - "pinned": cyclictest as shipped, started with hmpgov loaded;
#   - "free": every thread gets all CPUs back (taskset) 0.3 s after the
#     start, and only then is hmpgov loaded (it adopts a task when it first
#     sees it, and does not look again at one it found bound), so that the
#     threads are the ordinary unbound small tasks that packing concerns.
#
# Lines for scripts/bench-thirdparty.sh:
#   @@BENCH params pairs N groups N loops N ctpairs N ctthreads N ctinterval US ctloops N ctskip N cases C,C
#   @@BENCH version hackbench V / cyclictest V / state STATE
#   @@BENCH hb MODE PAIR unloaded|loaded SECONDS
#   @@BENCH hbstat MODE PAIR moves MOVES class_changes N   (loaded runs)
#   @@BENCH ct CASE PAIR unloaded|loaded MIN AVG MAX P50 P99 SAMPLES
#   @@BENCH ctclass CASE PAIR WHEN THREADS OTHER SMALL MEDIUM BIG UNTRACKED CPUS
#     (OTHER: threads seen as SCHED_OTHER; classes from hmpgov's tasks
#     view, half way through the run; CPUS: where they last ran, "0+1")
#   @@BENCH done
. ./lib.sh
export PATH="$PATH:/usr/bin"
pairs=${HT_PAIRS:-5}
hb_groups=${HT_HB_GROUPS:-4}
hb_loops=${HT_HB_LOOPS:-100}
ct_pairs=${HT_CT_PAIRS:-3}
ct_threads=${HT_CT_THREADS:-4}
ct_interval=${HT_CT_INTERVAL:-10000}
ct_loops=${HT_CT_LOOPS:-600}
ct_skip=${HT_CT_SKIP:-100}
ct_cases=$(echo "${HT_CT_CASES:-free0,free2,pinned0}" | tr , ' ')
echo "@@BENCH params pairs $pairs groups $hb_groups loops $hb_loops ctpairs $ct_pairs ctthreads $ct_threads ctinterval $ct_interval ctloops $ct_loops ctskip $ct_skip cases $(echo "$ct_cases" | tr ' ' ,)"

fail() { echo "@@BENCH error: $*"; exit 1; }

if [ ! -x /usr/bin/hackbench ] || [ ! -x /usr/bin/cyclictest ]; then
	fail "no hackbench / cyclictest in this initramfs (scripts/build-initramfs.sh)"
fi
# cyclictest keeps its statistics in POSIX shared memory (shm_open).
if ! grep -q ' /dev/shm ' /proc/mounts; then
	mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm || fail "cannot mount /dev/shm"
fi
load >/dev/null || fail "insmod failed"
state=$(cat $SYS/state)
unload >/dev/null
echo "@@BENCH version $(hackbench -h 2>&1 | head -n 1) / $(cyclictest --help 2>&1 | head -n 1) / state $state"

use() {
	module_loaded && unload >/dev/null
	if [ "$1" = loaded ]; then
		load >/dev/null || fail "insmod failed"
	fi
	sleep 0.5
}

# order PAIR: the two sides in this pair's order
order() { if [ $(($1 % 2)) -eq 1 ]; then echo unloaded loaded; else echo loaded unloaded; fi; }

hb_args() {
	case $1 in
	proc) echo "-g $hb_groups -l $hb_loops" ;;
	thread) echo "-T -p -g $hb_groups -l $hb_loops" ;;
	esac
}

# hb MODE PAIR WHEN
hb() {
	if [ "$3" = loaded ]; then
		_m0=$(stat_value moves)
		_c0=$(stat_value class_changes)
	fi
	# shellcheck disable=SC2046
	_t=$(hackbench $(hb_args "$1") 2>&1 | awk '$1 == "Time:" { print $2 }')
	echo "@@BENCH hb $1 $2 $3 ${_t:-error}"
	if [ "$3" = loaded ]; then
		echo "@@BENCH hbstat $1 $2 moves $(($(stat_value moves) - _m0)) class_changes $(($(stat_value class_changes) - _c0))"
	fi
}

# ctclass PID CASE PAIR WHEN: policy, class and CPU of cyclictest's
# measurement threads (every thread but the main one).
ctclass() {
	_n=0
	_other=0
	_small=0
	_medium=0
	_big=0
	_none=0
	: >/tmp/ct.cpus
	for _t in /proc/"$1"/task/*; do
		_tid=${_t##*/}
		[ "$_tid" = "$1" ] && continue
		_st=$(cat "$_t/stat" 2>/dev/null)
		[ -n "$_st" ] || continue	# gone meanwhile
		_n=$((_n + 1))
		[ "$(echo "$_st" | awk '{ print $41 }')" = 0 ] && _other=$((_other + 1))
		_c=-
		[ "$4" = loaded ] && _c=$(awk -v p="$_tid" '$1 == p { print $6 }' $DBG/tasks)
		case $_c in
		small) _small=$((_small + 1)) ;;
		medium) _medium=$((_medium + 1)) ;;
		big) _big=$((_big + 1)) ;;
		*) _none=$((_none + 1)) ;;
		esac
		echo "$_st" | awk '{ print $39 }' >>/tmp/ct.cpus
	done
	echo "@@BENCH ctclass $2 $3 $4 $_n $_other $_small $_medium $_big $_none $(sort -un /tmp/ct.cpus | tr '\n' + | sed 's/+$//')"
}

# ct CASE PAIR WHEN
ct() {
	_bg=
	_i=0
	_nbg=${1#free}
	_nbg=${_nbg#pinned}
	_secs=$((ct_loops * ct_interval / 1000000 + 3))
	module_loaded && unload >/dev/null
	case $1 in
	pinned*) [ "$3" = loaded ] && { load >/dev/null || fail "insmod failed"; } ;;
	esac
	sleep 0.5
	while [ "$_i" -lt "$_nbg" ]; do
		duty 100 16 "$_secs" &
		_bg="$_bg $!"
		_i=$((_i + 1))
	done
	[ "$_nbg" -gt 0 ] && sleep 0.7
	cyclictest --policy=other -t "$ct_threads" -i "$ct_interval" -d 0 -l "$ct_loops" -v \
		>/tmp/ct.out 2>&1 &
	_ct=$!
	_t0=0
	if [ "${1#free}" != "$1" ]; then
		sleep 0.3
		for _t in /proc/"$_ct"/task/*; do
			[ "${_t##*/}" = "$_ct" ] || taskset -p "$ALL_CPUS" "${_t##*/}" >/dev/null
		done
		if [ "$3" = loaded ]; then
			load >/dev/null || fail "insmod failed"
		fi
		_t0=0.3
	fi
	# half way through the measured cycles. Where its threads have ended
	# by then (busy tasks beside, an insmod that took long: CI of
	# 1b76f36 found none left), the sample taken half way through the
	# skipped cycles stands in (two samples only, the first done before
	# the measured cycles begin: each is work beside the measurement)
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" $(awk -v l="$ct_loops" -v s="$ct_skip" -v i="$ct_interval" -v t0="$_t0" \
		'BEGIN { h = (s + (l - s) / 2) * i / 1e6 - t0; t = s / 2 * i / 1e6 - t0
			if (t < 0) t = 0
			printf "%.2f %.2f", t, h - t }')
	sleep "$4"
	_first=$(ctclass "$_ct" "$1" "$2" "$3")
	sleep "$5"
	_s=$(ctclass "$_ct" "$1" "$2" "$3")
	[ "$(echo "$_s" | awk '{ print $6 }')" = "$ct_threads" ] || _s=$_first
	echo "$_s"
	wait "$_ct"
	# shellcheck disable=SC2086
	[ -n "$_bg" ] && kill $_bg 2>/dev/null
	wait
	# "thread: cycle: latency" lines; the first ct_skip cycles are left out
	awk -F: -v s="$ct_skip" 'NF == 3 && $1 ~ /^ *[0-9]+$/ && $2 + 0 >= s { print $3 + 0 }' /tmp/ct.out |
		sort -n | awk -v c="$1" -v p="$2" -v w="$3" '
		{ v[NR] = $1; sum += $1 }
		END {
			if (NR < 10) { print "@@BENCH ct", c, p, w, "error"; exit }
			printf "@@BENCH ct %s %s %s %d %.1f %d %d %d %d\n", c, p, w, v[1], sum / NR, v[NR],
				v[int(0.5 * NR + 0.5)], v[int(0.99 * NR + 0.5)], NR
		}'
	grep -q '^@@BENCH' /tmp/ct.out && return
	grep -iE 'error|fatal|warn' /tmp/ct.out | head -n 3 | sed 's/^/@@BENCH ct-output /'
}

# A warm-up run of each, not counted.
# shellcheck disable=SC2046
hackbench $(hb_args proc) >/dev/null 2>&1
# shellcheck disable=SC2046
hackbench $(hb_args thread) >/dev/null 2>&1

for mode in proc thread; do
	p=1
	while [ "$p" -le "$pairs" ]; do
		for w in $(order "$p"); do
			use "$w"
			hb "$mode" "$p" "$w"
		done
		p=$((p + 1))
	done
done
ALL_CPUS=$(printf %x $(((1 << $(ncpus)) - 1)))
for c in $ct_cases; do
	p=1
	while [ "$p" -le "$ct_pairs" ]; do
		for w in $(order "$p"); do
			ct "$c" "$p" "$w"
		done
		p=$((p + 1))
	done
done
module_loaded && unload >/dev/null
echo "@@BENCH done"
