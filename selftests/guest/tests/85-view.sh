# SPDX-License-Identifier: GPL-2.0
# What programs read of their own masks (module/view.c). Programs started
# with a base that is not every CPU (taskset -c 0..n-2) read exactly that
# base while the kernel's mask (/proc) is hmpgov's narrowing, also through
# taskset -p from another process; with show_base=0 the same program is
# the reproducer of the leak and reads the narrowing. A long-lived
# launcher shell, which hmpgov steers like any task, starts nproc, a
# thread pool sized from sched_getaffinity() and cyclictest, once while
# quiet and once right after a busy moment, and forks children that show
# its base from their first instruction. Threads that bind themselves as
# they start keep their CPU, and threads started while hmpgov moves their
# process read its base. Short-lived children leave no
# view behind, and rmmod while programs are inside sched_getaffinity()
# leaves them running (a splat fails the run). Every check that needs
# hmpgov to have narrowed a mask first asserts that it had, from /proc.
if ! placement_params; then
	tap_skip "view: what programs read of their masks" "the x86 machine has 2 equal CPUs"
	return 0
fi
n=$(ncpus)
# the base of the readers: every CPU but the last, as a list and in hex
sub="0-$((n - 2))"
subhex=$(printf '%x' $(((1 << (n - 1)) - 1)))
# mb_field FILE WORD: the number after WORD in maskback's line
mb_field() { awk -v w="$2" '{ for (i = 1; i < NF; i++) if ($i == w) { v = $(i + 1); sub(",", "", v); print v } }' "$1"; }
# narrowed PID [OF]: hmpgov holds PID's mask narrower than OF CPUs
narrowed() { [ "$(list_count "$(allowed "$1")")" -lt "${2:-$n}" ]; }
# mb_stop PID: end a maskback; its line is in its output file then
mb_stop() { kill "$1"; wait "$1"; }
# seen_by_taskset PID OF: taskset -p's mask of PID, read while /proc shows
# it narrowed before and after (up to 20 tries); empty if it never was
seen_by_taskset() {
	_k=0
	while [ $_k -lt 20 ]; do
		if narrowed "$1" "$2"; then
			_s=$(taskset -p "$1" | awk '{ print $NF }')
			narrowed "$1" "$2" && { echo "$_s"; return 0; }
		fi
		sleep 0.1
		_k=$((_k + 1))
	done
}

# The stock kernel, in the same boot.
stock=$(nproc)
taskset -c "$sub" maskback 20 1 >/tmp/mb.stock &
mb=$!
sleep 1
mb_stop $mb
tap_note "view: stock kernel: nproc $stock, maskback on $sub: $(cat /tmp/mb.stock)"
check "view: stock kernel: nproc prints $n, every read of a program on $sub gives $((n - 1)) CPUs" \
	[ "$stock" = "$n" -a "$(mb_field /tmp/mb.stock fewest)" = $((n - 1)) -a "$(mb_field /tmp/mb.stock most)" = $((n - 1)) ]

mark_log
# shellcheck disable=SC2086
load $PARAMS show_base=0 >/dev/null
state=$(cat $SYS/view)
if [ "$state" = none ]; then
	check "view: no kretprobes in this kernel: one log line says so" \
		[ "$(new_log | grep -c 'no kretprobe on sched_getaffinity')" = 1 ]
	check "view: and hmpgov steers all the same (mode $(cat $SYS/mode))" \
		[ "$(cat $SYS/mode)" = steer ]
	unload >/dev/null
	return 0
fi
check "view: show_base=0 at load: $SYS/view reads kernel ($state)" [ "$state" = kernel ]

# 1. The reproducer: with show_base=0 a program that reads its mask
# while hmpgov holds it narrowed reads the narrowing. The readers read
# every 200 ms: small tasks also under KASAN (debug kernel), where a read
# of /proc/self/status takes tens of ms.
maskback 200 1 >/tmp/mb.0 &
mb=$!
wait_for 10 narrowed $mb
held=$(allowed $mb)
sleep 2
mb_stop $mb
tap_note "view: show_base=0: $(cat /tmp/mb.0); hmpgov had narrowed it to $held"
check "view: reproducer: with show_base=0 a read gave hmpgov's narrowing ($(mb_field /tmp/mb.0 fewest) of $n CPUs)" \
	[ "$(mb_field /tmp/mb.0 fewest)" -lt "$n" ]

echo 1 >$SYS/show_base
check "view: show_base=1: $SYS/view reads base" [ "$(cat $SYS/view)" = base ]

# 2. Programs on $sub read exactly $sub while the kernel's mask is
# narrower; taskset -p from another process too; after mode=off both
# have $sub again (the one that writes its mask back and the one that
# does not).
taskset -c "$sub" maskback 200 1 >/tmp/mb.1 &
mb=$!
taskset -c "$sub" maskback 200 0 >/tmp/mb.r &
mr=$!
wait_for 10 narrowed $mr $((n - 1))
seen=$(seen_by_taskset $mr $((n - 1)))
check "view: taskset -p on a program hmpgov narrowed, from another process, shows its base $subhex (${seen:-it was never narrowed})" \
	[ "$seen" = "$subhex" ]
sleep 2
echo off >$SYS/mode
sleep 0.5
after=$(allowed $mb)
after_r=$(allowed $mr)
mb_stop $mb
mb_stop $mr
tap_note "view: show_base=1: writes back: $(cat /tmp/mb.1); reads only: $(cat /tmp/mb.r)"
check "view: a program on $sub read $((n - 1)) CPUs every time (fewest $(mb_field /tmp/mb.1 fewest), most $(mb_field /tmp/mb.1 most))" \
	[ "$(mb_field /tmp/mb.1 fewest)" = $((n - 1)) -a "$(mb_field /tmp/mb.1 most)" = $((n - 1)) ]
check "view: while the kernel's mask was narrowed ($(mb_field /tmp/mb.1 narrowed) reads)" \
	[ "$(mb_field /tmp/mb.1 narrowed)" -gt 0 ]
check "view: one that only reads: $((n - 1)) CPUs every time, $(mb_field /tmp/mb.r narrowed) reads while narrowed" \
	[ "$(mb_field /tmp/mb.r fewest)" = $((n - 1)) -a "$(mb_field /tmp/mb.r most)" = $((n - 1)) -a "$(mb_field /tmp/mb.r narrowed)" -gt 0 ]
check "view: after mode=off both have their base $sub again ($after, $after_r)" \
	[ "$after" = "$sub" -a "$after_r" = "$sub" ]
echo steer >$SYS/mode

# 3. A long-lived launcher, steered like any task: a shell that works in
# bursts until hmpgov has narrowed it, then starts nproc, a thread pool
# sized from sched_getaffinity() and cyclictest (which binds one thread
# to each CPU its main thread reads), once while quiet and once right
# after a busy moment. Its mask by /proc is read before and after each
# program: both must be narrowed, or the check proves nothing. Then a
# child of it, from its first instruction, and 300 short-lived ones.
# cyclictest keeps its statistics in POSIX shared memory.
grep -q ' /dev/shm ' /proc/mounts || { mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm; }
# ct_cpus: start cyclictest (one thread per CPU it reads, 1 s) and print
# how many distinct CPUs its threads are bound to (one each), from /proc:
# the most seen in samples every 0.25 s until that is all n CPUs or
# cyclictest ends (its threads start and bind themselves one by one)
ct_cpus() {
	/usr/bin/cyclictest -t -q --policy=other -i 10000 -l 100 >/dev/null 2>&1 &
	_ct=$!
	_most=0
	_k=0
	while [ $_k -lt 20 ] && [ -d /proc/$_ct/task ]; do
		sleep 0.25
		_c=$(for _t in /proc/$_ct/task/*; do
			[ "${_t##*/}" = "$_ct" ] || allowed "${_t##*/}"
		done 2>/dev/null | grep -v '[-,]' | sort -u | wc -l)
		[ "$_c" -le "$_most" ] || _most=$_c
		[ "$_most" -lt "$n" ] || break
		_k=$((_k + 1))
	done
	echo "$_most"
	wait $_ct
}
# burst_until_narrowed PID: work in bursts until hmpgov narrows PID (10 s)
burst_until_narrowed() {
	_k=0
	while [ $_k -lt 100 ] && ! narrowed "$1"; do
		_i=0
		while [ $_i -lt 3000 ]; do _i=$((_i + 1)); done
		sleep 0.1
		_k=$((_k + 1))
	done
}
# launcher: runs in the background; /proc/self is this shell only in a
# builtin's redirection
launcher() {
	read -r me _ </proc/self/stat
	burst_until_narrowed "$me"
	m1=$(allowed "$me")
	np=$(nproc)
	pool=$(maskback pool)
	ct=$(ct_cpus)
	echo "quiet $m1 $(allowed "$me") $np $ct $pool"
	i=0
	while [ $i -lt 20000 ]; do i=$((i + 1)); done
	m1=$(allowed "$me")
	np=$(nproc)
	pool=$(maskback pool)
	ct=$(ct_cpus)
	echo "busy $m1 $(allowed "$me") $np $ct $pool"
	# a child that reads its mask from its first instruction on (0.3 s):
	# it inherited the narrowing, and reads the launcher's base
	burst_until_narrowed "$me"
	m1=$(allowed "$me")
	maskback 0 0 >/tmp/mb.child &
	c=$!
	sleep 0.3
	kill $c
	wait $c
	echo "child $m1 $(cat /tmp/mb.child)"
	# 300 short-lived children, each given a view at fork
	k1=$(stat_value view_kept)
	# an exited task's view goes when the kernel frees the task, after
	# an RCU grace period (long on PREEMPT_RT): the count before is one
	# that two reads 0.5 s apart agree on (the processes forked above,
	# and sleep, have views too until then)
	views_now
	i=0
	while [ $i -lt 20 ]; do
		v1=$vn
		sleep 0.5
		views_now
		i=$((i + 1))
		[ "$vn" = "$v1" ] && break
	done
	c1=$MASK
	# Whether the launcher stays narrowed while it forks is hmpgov's
	# choice: a big one that then mostly waits for its children becomes
	# medium and gets its base back (2 of 30 samples narrowed, rt
	# kernel). It reads its mask before every fork, and before every
	# tenth one, while that is its base, works (3,000 steps at most)
	# until hmpgov narrows it again; 100 or more of the 300 forks must
	# have been made narrowed (cn; cs: every tenth mask:steps).
	i=0
	cn=0
	cs=
	while [ $i -lt 300 ]; do
		mask_of self
		if [ $((i % 10)) = 0 ]; then
			j=0
			while [ "$MASK" = "0-$((n - 1))" ] && [ $j -lt 3000 ]; do
				j=$((j + 1))
				[ $((j % 100)) = 0 ] && mask_of self
			done
			cs="$cs/$MASK:$j"
		fi
		[ "$MASK" = "0-$((n - 1))" ] || cn=$((cn + 1))
		/bin/true
		i=$((i + 1))
	done
	views_now
	c2=$MASK
	# read 0.5 s apart until the count is back
	i=0
	while [ $i -lt 40 ]; do
		sleep 0.5
		i=$((i + 1))
		views_now
		[ "$vn" -le "$v1" ] && break
	done
	echo "children $c1,$c2 $v1 $vn $k1 $(stat_value view_kept) $i $cn ${cs#/}"
}
# The views of other tasks than this shell (vn), read with the shell's
# own builtins: a process forked to read them would have a view of its
# own (as a child of a narrowed shell) until the kernel frees it; and
# the shell's own mask (MASK, mask_of), the same before and after the
# count.
views_now() {
	_vt=0
	while [ $_vt -lt 10 ]; do
		_vt=$((_vt + 1))
		mask_of self
		_vm=$MASK
		while read -r _vk _vv; do
			[ "$_vk" = view_tasks ] && vn=$_vv
		done <$DBG/stats
		mask_of self
		[ "$MASK" = "$_vm" ] && break
	done
	[ "$MASK" != "0-$((n - 1))" ] && vn=$((vn - 1))
}
# the reference, as without hmpgov: steering off (mode=off gives every
# mask back and moves nothing). Measured with steering on, unbound
# threads of cyclictest that hmpgov had packed counted too (2 of 4 on
# the RT kernel, CI run of 18e2520).
echo off >$SYS/mode
ct_stock=$(ct_cpus)
echo steer >$SYS/mode
launcher >/tmp/launcher.out &
wait $!
tap_note "view: launcher: $(tr '\n' ';' </tmp/launcher.out); stock kernel: cyclictest bound threads to $ct_stock CPUs"
for when in quiet busy; do
	# shellcheck disable=SC2046
	set -- $(awk -v w=$when '$1 == w' /tmp/launcher.out) x x x x x x x x x x
	check "view: launcher ($when): hmpgov had narrowed it before and after ($2, $3)" \
		[ "$(list_count "$2")" -lt "$n" -a "$(list_count "$3")" -lt "$n" ]
	check "view: launcher ($when): nproc from it prints $n ($4)" [ "$4" = "$n" ]
	check "view: launcher ($when): a thread pool sized from sched_getaffinity: $7 threads, fewest ${10}" \
		[ "$7" = "$n" -a "${10}" = "$n" ]
	check "view: launcher ($when): cyclictest binds its threads to all $n CPUs ($5; stock kernel $ct_stock)" \
		[ "$5" = "$n" -a "$ct_stock" = "$n" ]
done
awk '$1 == "child"' /tmp/launcher.out >/tmp/mb.child
check "view: a child of the narrowed launcher ($(awk '{ print $2 }' /tmp/mb.child)) read $n CPUs from its start (fewest $(mb_field /tmp/mb.child fewest)) while /proc showed the narrowing ($(mb_field /tmp/mb.child narrowed) reads)" \
	[ "$(list_count "$(awk '{ print $2 }' /tmp/mb.child)")" -lt "$n" -a "$(mb_field /tmp/mb.child fewest)" = "$n" -a \
	  "$(mb_field /tmp/mb.child narrowed)" -gt 0 ]
# shellcheck disable=SC2046
set -- $(awk '$1 == "children"' /tmp/launcher.out) x x x x x x x x x
# An exited task's view goes when the kernel frees it, after an RCU
# grace period: before the reads waited for that, the count read 1 s
# after the children was 5 or 6 where it had been 2 (rt, sym-4). The
# launcher must have been narrowed before the 300 forks and, by /proc
# read right before each fork, at 100 or more of them (those children
# inherit the narrowing, and are given views).
c1=${2%,*}
c2=${2#*,}
cn=${8%%[!0-9]*}	# empty when the launcher printed no children line
check "view: 300 short-lived children of the launcher (narrowed to $c1 before, $c2 after, at ${cn:-no} of the 300 forks) leave no view behind: $3 before, $4 after $7 reads 0.5 s apart" \
	[ "$(list_count "$c1")" -lt "$n" -a "${cn:-0}" -ge 100 -a "$4" -le "$3" ]
check "view: 300 short-lived children of the launcher leave no kept view behind (kept $5 before, $6 after), none dropped ($(stat_value view_dropped))" \
	[ "$6" -le $(($5 + 2)) -a "$(stat_value view_dropped)" = 0 ]

# 3a. cyclictest sizes itself from /proc/self/status (libnuma), where
# no view reaches: started 30 times from this shell (packed by hmpgov)
# right after a burst of work, as a script that computes and launches,
# each must start a thread per CPU. A child forked right after a burst
# inherits a busy signal: hmpgov held such a fresh cyclictest on the big
# cluster before young tasks were kept off it, and it started 2 threads
# (the launcher check above; CI of 1e3949d, rt kernel).
few=0
runs=""
i=0
while [ $i -lt 30 ]; do
	j=0
	while [ $j -lt 3000 ]; do j=$((j + 1)); done
	/usr/bin/cyclictest -t -q --policy=other -i 10000 -l 20 >/dev/null 2>&1 &
	ct=$!
	# the most threads seen beside its main one, every 0.05 s until it
	# has all n or has ended (a zombie), 2 s at most
	t=0
	k=0
	while [ $k -lt 40 ] && [ "$t" -lt "$n" ]; do
		st=$(awk '{ print $3 }' /proc/$ct/stat 2>/dev/null)
		[ -n "$st" ] && [ "$st" != Z ] || break
		c=$(($(ls /proc/$ct/task 2>/dev/null | wc -l) - 1))
		[ "$c" -le "$t" ] || t=$c
		sleep 0.05
		k=$((k + 1))
	done
	wait $ct
	[ "$t" = "$n" ] || few=$((few + 1))
	runs="$runs $t"
	i=$((i + 1))
done
read -r me _ </proc/self/stat
check "view: cyclictest started 30 times from this shell (mask $(allowed "$me")) started $n threads every time ($few did not:$runs)" \
	[ "$few" = 0 ]

# 3b. Threads that bind themselves at their start, as cyclictest's do,
# started by a process hmpgov had packed: each inherits that narrowing
# and hmpgov takes it up within milliseconds, so hmpgov's change and the
# thread's sched_setaffinity() meet. Every thread must keep the one CPU
# it asked for (its mask by /proc/thread-self at its end).
maskback bind 25 >/tmp/mb.bind
tap_note "view: race: $(cat /tmp/mb.bind)"
check "view: race: $(mb_field /tmp/mb.bind bind) threads that bound themselves at their start, from a packed process ($(mb_field /tmp/mb.bind narrowed) narrowed), each kept its CPU ($(mb_field /tmp/mb.bind lost) lost)" \
	[ "$(mb_field /tmp/mb.bind bind)" = $((25 * n)) -a "$(mb_field /tmp/mb.bind narrowed)" = 1 -a "$(mb_field /tmp/mb.bind lost)" = 0 ]

# 3c. Threads started while hmpgov moves the process that starts them,
# and taken up by hmpgov as they start. The kernel copies a thread's mask
# at the start of clone(), and a thread's sched_getaffinity() may read
# its mask just before hmpgov widens it: both hold a narrowing hmpgov has
# just replaced, and each thread must read the process's base from its
# start (CI of ff78dde, rt kernel: a thread of a pool read 1 CPU; this
# section read 1 CPU in 4 to 6 of about 6,000 threads on 6.12 and rt
# before the fix). The stock kernel (mode=off) is the reference, and the
# process must have been narrowed, and sampled threads narrowed as
# they read (from /proc/thread-self right after).
echo off >$SYS/mode
maskback churn 2 >/tmp/mb.churn0
echo steer >$SYS/mode
maskback churn 8 >/tmp/mb.churn
tap_note "view: churn: stock kernel: $(cat /tmp/mb.churn0); hmpgov: $(cat /tmp/mb.churn)"
check "view: churn: $(mb_field /tmp/mb.churn churn) threads started while hmpgov narrowed and moved their process ($(mb_field /tmp/mb.churn narrowed) narrowed samples, $(mb_field /tmp/mb.churn masks) moves off a narrowing; $(mb_field /tmp/mb.churn held) sampled threads narrowed as they read) each read $n CPUs ($(mb_field /tmp/mb.churn short) fewer, fewest $(mb_field /tmp/mb.churn fewest)); stock kernel: $(mb_field /tmp/mb.churn0 short) of $(mb_field /tmp/mb.churn0 churn) fewer" \
	[ "$(mb_field /tmp/mb.churn short)" = 0 -a "$(mb_field /tmp/mb.churn fewest)" = "$n" -a \
	  "$(mb_field /tmp/mb.churn held)" -gt 0 -a "$(mb_field /tmp/mb.churn narrowed)" -gt 0 -a \
	  "$(mb_field /tmp/mb.churn0 short)" = 0 -a "$(mb_field /tmp/mb.churn0 fewest)" = "$n" ]

# 4. rmmod while programs are inside sched_getaffinity(), three times:
# four busy callers, which hmpgov moves (so their calls are followed and
# given views: view_shown grows), are running when the module goes.
round=1
while [ $round -le 3 ]; do
	# shellcheck disable=SC2086
	[ $round = 1 ] || load $PARAMS >/dev/null
	pids=
	for i in 1 2 3 4; do
		maskback spin >/tmp/mb.rm$i &
		pids="$pids $!"
	done
	shown0=$(stat_value view_shown)
	wait_for 10 eval '[ "$(stat_value view_shown)" -gt "$shown0" ]'
	shown1=$(stat_value view_shown)
	unload >/dev/null
	gone=$(grep -c '^hmpgov ' /proc/modules)
	alive=0
	for p in $pids; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
	# shellcheck disable=SC2086
	kill $pids
	wait
	check "view: rmmod ($round of 3) while 4 programs call sched_getaffinity without pause (views shown $shown0 -> $shown1): unloaded, $alive of 4 still ran" \
		[ "$shown1" -gt "$shown0" -a "$gone" = 0 -a "$alive" = 4 ]
	round=$((round + 1))
done
check "view: and this shell has all $n CPUs again ($(allowed $$))" [ "$(list_count "$(allowed $$)")" = "$n" ]
