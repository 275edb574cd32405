# SPDX-License-Identifier: GPL-2.0
# A container's CPU isolation holds while hmpgov steers: tasks moved in
# and out of a cgroup-v2 cpuset, and a cpuset whose CPUs change under
# them, never show a mask outside their cpuset; the same rounds without
# hmpgov, in the same boot, are the baseline. A storm of the user's own
# sched_setaffinity() calls ends on the user's last mask. After rmmod
# every task has the mask its cpuset gives it.
if ! placement_params; then
	tap_skip "cpuset: isolation while steering" "the x86 machine has 2 equal CPUs"
	return 0
fi
CG=/sys/fs/cgroup
if ! grep -qw cpuset $CG/cgroup.controllers 2>/dev/null; then
	tap_skip "cpuset: isolation while steering" "no cgroup-v2 cpuset controller"
	return 0
fi
echo +cpuset >$CG/cgroup.subtree_control
CS=$CG/hmpgov-cs
mkdir -p $CS
n=$(ncpus)
last=$((n - 1))
all="0-$last"
echo 0-1 >$CS/cpuset.cpus
echo 0 >$CS/cpuset.mems
rounds=${HT_CS_ROUNDS:-20}
storms=${HT_CS_STORMS:-8}

# inside LIST: 1 if every CPU of the list "0-1,3" is in $CS's CPUs now
within_list() {
	awk -v a="$1" -v b="$2" 'function expand(s, set,   i, n, r, k) {
		n = split(s, p, ",")
		for (i = 1; i <= n; i++) {
			if (split(p[i], r, "-") == 2) { for (k = r[1]; k <= r[2]; k++) set[k] = 1 }
			else set[p[i]] = 1
		}
	}
	BEGIN { expand(a, x); expand(b, y); for (c in x) if (!(c in y)) exit 1 }'
}

# any_narrowed: hmpgov holds one of the tasks, back in the root cgroup,
# narrower than the root's CPUs (read by the shell itself: no process
# started, KASAN makes each costly)
any_narrowed() {
	for p in $TASKS; do
		read -r _cg </proc/$p/cgroup
		[ "$_cg" = 0::/ ] || continue
		while read -r _k _v; do
			[ "$_k" = Cpus_allowed_list: ] || continue
			[ "$_v" = "$all" ] || return 0
			break
		done </proc/$p/status
	done
	return 1
}

# wait_narrowed: until any_narrowed, 10 s of uptime at most
wait_narrowed() {
	read -r _up _ </proc/uptime
	_end=$((${_up%.*} + 10))
	while ! any_narrowed; do
		read -r _up _ </proc/uptime
		[ "${_up%.*}" -lt $_end ] || return 1
		sleep 0.1
	done
}

# cs_rounds [steer]: $rounds times, move the tasks in, read their masks,
# change the cpuset's CPUs (0-1 -> 1 -> 0-1) every 4th round and read
# again, and move them out; with steer, each round first waits (10 s at
# most) until hmpgov has narrowed one of the tasks, and counts the rounds
# that began so; prints "outside reads narrowed example"
cs_rounds() {
	_out=0
	_reads=0
	_ex=
	_ex_pid=
	_narrow=0
	_r=0
	while [ $_r -lt $rounds ]; do
		if [ "${1:-}" = steer ] && wait_narrowed; then
			_narrow=$((_narrow + 1))
		fi
		for p in $TASKS; do echo $p >$CS/cgroup.procs; done
		sleep 0.15
		_cpus=$(cat $CS/cpuset.cpus.effective)
		for p in $TASKS; do
			m=$(allowed $p)
			_reads=$((_reads + 1))
			if ! within_list "$m" "$_cpus"; then
				_out=$((_out + 1))
				[ -n "$_ex" ] || _ex="round $_r pid $p: $m in cpuset $_cpus"
				[ -n "$_ex_pid" ] || _ex_pid=$p
			fi
		done
		if [ $((_r % 4)) = 3 ]; then
			echo 1 >$CS/cpuset.cpus
			sleep 0.15
			for p in $TASKS; do
				m=$(allowed $p)
				_reads=$((_reads + 1))
				if ! within_list "$m" 1; then
					_out=$((_out + 1))
					[ -n "$_ex" ] || _ex="round $_r pid $p: $m in cpuset 1"
					[ -n "$_ex_pid" ] || _ex_pid=$p
				fi
			done
			echo 0-1 >$CS/cpuset.cpus
		fi
		for p in $TASKS; do echo $p >$CG/cgroup.procs; done
		sleep 0.15
		_r=$((_r + 1))
	done
	echo "$_out $_reads $_narrow $_ex"
	if [ -n "$_ex_pid" ] && [ -e $TR/events/hmpgov/hmpgov_place/enable ]; then
		grep "hmpgov_place: pid=$_ex_pid " $TR/trace | tail -n 8 | sed 's/^/# /' >&2
	fi
}

# HT_CS_PAIRS busy and light tasks (4): the debug kernel runs 2, since
# under KASAN 4 light tasks overflow the packing CPUs and 4 busy ones
# find no room on the big cluster, so hmpgov narrows none (CI of 6b42c21)
TASKS=
i=0
while [ $i -lt "${HT_CS_PAIRS:-4}" ]; do
	i=$((i + 1))
	duty 100 16 600 -1 &
	TASKS="$TASKS $!"
	duty 8 16 600 -1 &
	TASKS="$TASKS $!"
done
sleep 1
set -- $(cs_rounds)
stock_out=$1
stock_reads=$2
shift 3
tap_note "cpuset: stock kernel: $stock_out of $stock_reads reads outside the cpuset $*"
# shellcheck disable=SC2086
load $PARAMS >/dev/null
# hmpgov's decisions, shown for a task found outside its cpuset
echo 0 >$TR/tracing_on
echo >$TR/trace
echo 1 >$TR/events/hmpgov/hmpgov_place/enable
echo 1 >$TR/tracing_on
sleep 2
set -- $(cs_rounds steer)
out=$1
reads=$2
narrow=$3
shift 3
echo 0 >$TR/events/hmpgov/hmpgov_place/enable
echo 0 >$TR/tracing_on
echo >$TR/trace
foreign=$(stat_value view_foreign)
tap_note "cpuset: $(grep '^view_foreign' $DBG/stats | tr '\n' ' ')"
check "cpuset: hmpgov had narrowed a task outside the cpuset when $narrow of $rounds rounds moved them in" [ "$narrow" -gt 0 ]
check "cpuset: the kretprobe saw the cpuset's sets of narrowed tasks (view_foreign $foreign)" [ "${foreign:-0}" -gt 0 ]
check "cpuset: no mask outside the cpuset while hmpgov steers: $out of $reads reads${*:+ ($*)}; stock: $stock_out of $stock_reads" \
	[ "$out" = 0 -a "$stock_out" = 0 -a "$reads" -gt 0 ]
# mode=off right after the tasks entered the cpuset, before the worker
# saw the cpuset's sets: the give-back keeps them inside, 3 times.
esc=
k=0
while [ $k -lt 3 ]; do
	sleep 0.5
	for p in $TASKS; do echo $p >$CS/cgroup.procs; done
	echo off >$SYS/mode
	_cpus=$(cat $CS/cpuset.cpus.effective)
	for p in $TASKS; do
		m=$(allowed $p)
		within_list "$m" "$_cpus" || esc="$esc $p:$m"
	done
	for p in $TASKS; do echo $p >$CG/cgroup.procs; done
	echo steer >$SYS/mode
	k=$((k + 1))
done
check "cpuset: mode=off right after the move into the cpuset leaves every mask inside${esc:+ (not:$esc)}" [ -z "$esc" ]

# The user's last call wins: a busy task hmpgov keeps on the big CPUs
# gets 30 sched_setaffinity() calls without pause, $storms times, each time
# ending on another mask; half a second later its mask must lie within
# the last one, and after mode=off be exactly it.
duty 100 16 600 -1 &
storm=$!
sleep 1
lists="0-$last 0-2 1-$last 0,$last 0-1,$last 1-2"
set -- $lists
nlists=$#
lost=
k=0
while [ $k -lt "$storms" ]; do
	i=0
	while [ $i -lt 30 ]; do
		set -- $lists
		shift $(((i + k) % nlists))
		final=$1
		taskset -p -c "$final" $storm >/dev/null
		i=$((i + 1))
	done
	sleep 0.5
	m=$(allowed $storm)
	within_list "$m" "$final" || lost="$lost within:$final/$m"
	echo off >$SYS/mode
	sleep 0.3
	m=$(allowed $storm)
	[ "$m" = "$final" ] || lost="$lost exact:$final/$m"
	echo steer >$SYS/mode
	sleep 0.3
	k=$((k + 1))
done
check "cpuset: the user's last sched_setaffinity() wins in $storms storms of 30 calls${lost:+ (not:$lost)}" [ -z "$lost" ]
kill $storm 2>/dev/null
wait $storm 2>/dev/null
# the tasks are out of the cpuset now: the root's CPUs are theirs
unload >/dev/null
sleep 0.2
bad=
for p in $TASKS; do
	m=$(allowed $p)
	[ "$m" = "$all" ] || bad="$bad $p:$m"
done
check "cpuset: after rmmod every task has its cpuset's CPUs $all${bad:+ (not:$bad)}" [ -z "$bad" ]
# shellcheck disable=SC2086
kill $TASKS 2>/dev/null
wait 2>/dev/null
rmdir $CS
echo -cpuset >$CG/cgroup.subtree_control 2>/dev/null
