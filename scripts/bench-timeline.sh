#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark figure: where each task of the mix workload (two always-busy
# tasks and three tasks at 10 % of 16 ms) ran, over time, with the stock
# kernel and with hmpgov, traced in one boot
# (selftests/guest/bench/timeline.sh). Drawn with gnuplot as one PNG with
# a panel per configuration: a row per CPU, little and big marked, a
# colour per task. The figure's shares are printed too.
#
# usage: scripts/bench-timeline.sh [--smoke | --render] [KID [MACHINE [SECONDS]]]
#   defaults: deb-6.12-arm64 bl-2x2 2 (seconds traced after 0.7 s warm-up)
#   --smoke:  0.5 s traced, the figure into $HMPGOV_BUILD, not docs/img;
#             fails when the figure is not produced
#   --render: no boot; the figure again from the last run's data
#   environment: CONFIGS (default stock,affinity: "stock" is hmpgov
#   unloaded, the others steer= values), OUT (the PNG's path)
# The figure goes to docs/img/timeline-mix.png, or
# docs/img/timeline-mix-KID-MACHINE.png for other kernels or machines.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

mode=full
case ${1:-} in
--smoke | --render) mode=${1#--}; shift ;;
-*) die "usage: bench-timeline.sh [--smoke | --render] [KID [MACHINE [SECONDS]]]" ;;
esac
kid=${1:-deb-6.12-arm64}
machine=${2:-bl-2x2}
secs=${3:-2}
[ "$mode" = smoke ] && secs=${3:-0.5}
configs=${CONFIGS:-stock,affinity}
params=
[ "$machine" = sym-4 ] && params=capacity=446,446,1024,1024

work=$HMPGOV_BUILD/timeline
data=$work/$kid-$machine.tl
if [ "$mode" = smoke ]; then
	png=${OUT:-$HMPGOV_BUILD/timeline-mix.png}
elif [ "$kid $machine" = "deb-6.12-arm64 bl-2x2" ]; then
	png=${OUT:-$HMPGOV_TOP/docs/img/timeline-mix.png}
else
	png=${OUT:-$HMPGOV_TOP/docs/img/timeline-mix-$kid-$machine.png}
fi
mkdir -p "$work" "$(dirname "$png")"

need_gnuplot

if [ "$mode" != render ]; then
	prepare_guest "$kid" >&2
	log "timeline: $kid / $machine, $configs, ${secs}s traced ${params:+($params)}"
	qlog=$HMPGOV_BUILD/logs/$kid-$machine-bench-timeline.log
	log_file=$work/$kid-$machine.log
	qemu_out=$("$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=bench-timeline HT_PART=bench-timeline \
		"HT_CONFIGS=$configs" "HT_SECS=$secs" ${params:+"HT_PARAMS=$params"} HT_TIMEOUT=300 || true)
	cp "$qlog" "$log_file" 2>/dev/null || die "the guest left no log ($qlog)"
	if grep -q '^not ok - kernel log is clean' <<<"$qemu_out"; then
		die "the guest's kernel log has a splat (see $log_file)"
	fi
	grep -a '^@@TL error' "$log_file" >&2 && die "the timeline run failed (see $log_file)"
	grep -aq '^@@TL done' "$log_file" || die "the timeline run did not finish (see $log_file)"
	# meta lines first, then the run intervals by configuration, task, start
	{
		echo "@@TL window $secs"
		grep -a '^@@TL ' "$log_file" | grep -av '^@@TL run '
		grep -a '^@@TL run ' "$log_file" | sort -k3,3 -k4,4n -k6,6n
	} >"$data"
fi
[ -s "$data" ] || die "no timeline data in $data: run without --render first"

# From the data: per configuration a gnuplot data file (one block per
# task: start_ms end_ms cpu), its shares, and the variables of the plot.
# The guest's window (between its trace markers) is cut to SECONDS, in
# case its sleep overran.
rm -f "$work"/cfg-*.dat
awk -v work="$work" '
	$2 == "kernel" { print "kernel=" $3 }
	$2 == "cpus" { side = ""
		for (i = 3; i <= NF; i++) {
			if ($i == "little" || $i == "big") { side = $i; continue }
			if (side == "little") little[$i] = 1
			ncpu = $i + 1 > ncpu ? $i + 1 : ncpu
			cpulist = cpulist " " $i
		} }
	$2 == "task" { if (!($3 in seen)) { seen[$3] = 1; cfgs[++ncfg] = $3 }
		k = ++nt[$3]; pid[$3, k] = $4; kind[$3, k] = $5; slot[$3, $4] = k
		name[$3, k] = $5 " " (++nk[$3, $5]) }
	$2 == "window" { win = $3 * 1e6 }
	$2 == "clock" { clock[$3] = $4 }
	$2 == "span" { span[$3] = win && $4 > win ? win : $4 }
	$2 == "run" { k = slot[$3, $4]; if (!k) next
		if (win && $7 > win) $7 = win
		if (win && $6 >= win) next
		n = ++nr[$3, k]; rc[$3, k, n] = $5; rs[$3, k, n] = $6; re[$3, k, n] = $7 }
	END {
		if (!ncfg || !ncpu) { print "error=no tasks or no CPUs in the data"; exit }
		print "ncpu=" ncpu
		print "cpus=\"" substr(cpulist, 2) "\""
		little_list = ""
		for (c in little) little_list = little_list " " c
		print "little=\"" substr(little_list, 2) "\""
		print "cfgs=\"" cfgnames() "\""
		for (ci = 1; ci <= ncfg; ci++) {
			cfg = cfgs[ci]; f = work "/cfg-" ci ".dat"
			st = sl = bt = bb = ch = ns = 0; split("", per)
			for (k = 1; k <= nt[cfg]; k++) {
				printf "# %s pid %s\n", name[cfg, k], pid[cfg, k] > f
				if (!nr[cfg, k]) {
					print "error=configuration " cfg ": " name[cfg, k] " never ran"
					print "-1 -1 -10" > f
				}
				for (n = 1; n <= nr[cfg, k]; n++) {
					c = rc[cfg, k, n]; d = re[cfg, k, n] - rs[cfg, k, n]
					printf "%.3f %.3f %d\n", rs[cfg, k, n] / 1000, re[cfg, k, n] / 1000, c > f
					if (n > 1 && c != rc[cfg, k, n - 1]) changes = 1; else changes = 0
					if (kind[cfg, k] == "small") {
						st += d; per[c] += d; ch += changes
						if (c in little) sl += d
					} else {
						bt += d; if (!(c in little)) bb += d
					}
				}
				if (kind[cfg, k] == "small") ns++
				printf "\n\n" > f
			}
			close(f)
			top = 0; for (c in per) if (per[c] > top) top = per[c]
			printf "cfg_%d=\"%s\"\n", ci, cfg
			printf "span_%d=%.3f\n", ci, span[cfg] / 1e6
			printf "start_%d=%s\n", ci, (cfg in clock) ? clock[cfg] : "?"
			printf "ntask_%d=%d\n", ci, nt[cfg]
			tn = ""; for (k = 1; k <= nt[cfg]; k++) tn = tn (k > 1 ? "," : "") name[cfg, k]
			printf "tasks_%d=\"%s\"\n", ci, tn
			printf "small_little_%d=%.1f\nsmall_top_%d=%.1f\nbusy_big_%d=%.1f\nchanges_%d=%.1f\n",
				ci, st ? 100 * sl / st : 0, ci, st ? 100 * top / st : 0,
				ci, bt ? 100 * bb / bt : 0,
				ci, ns && span[cfg] ? ch / ns / (span[cfg] / 1e6) : 0
		}
		print "ncfg=" ncfg
	}
	function cfgnames(   s, i) { for (i = 1; i <= ncfg; i++) s = s (i > 1 ? " " : "") cfgs[i]; return s }
' "$data" >"$work/vars"
grep '^error=' "$work/vars" >&2 && die "the timeline data is incomplete ($data)"
kernel='' span_1='' ncfg='' ncpu='' cpus='' little=''
# shellcheck disable=SC1091
source "$work/vars"

describe() { # a configuration's name in words
	case $1 in
	stock) echo "stock kernel (hmpgov not loaded)" ;;
	*) echo "hmpgov loaded (steer=$1${params:+, $params})" ;;
	esac
}

# The figure's numbers, as text too.
printf 'timeline of mix on %s (%s), %s, %.1f s of sched_switch after the 0.7 s warm-up:\n' "$kid" "$kernel" "$machine" "$span_1"
printf '  %-48s %8s %8s %8s %12s\n' configuration "small%L" "small%1" "busy%B" "moves/task/s"
for i in $(seq 1 "$ncfg"); do
	c=cfg_$i sl=small_little_$i st=small_top_$i bb=busy_big_$i ch=changes_$i
	printf '  %-48s %8s %8s %8s %12s\n' "$(describe "${!c}")" "${!sl}" "${!st}" "${!bb}" "${!ch}"
done
echo "  small%L / small%1: small-task time on little CPUs / on their busiest CPU; busy%B: busy-task"
echo "  time on big CPUs; moves: CPU changes per small task per second (from the intervals)"

# The plot: one panel per configuration, one row per CPU.
colours=("#d62728" "#ff7f0e" "#1f77b4" "#2ca02c" "#9467bd" "#8c564b" "#e377c2" "#17becf")
gp=$work/timeline.gp
{
	height=$((130 + 340 * ncfg))
	printf 'set terminal pngcairo noenhanced size 1500,%d font "DejaVu Sans,11"\n' "$height"
	printf 'set output "%s"\n' "$png"
	printf 'set multiplot layout %d,1 title "%s\\n%s" font ",14"\n' "$ncfg" \
		"mix workload: 2 always-busy tasks + 3 tasks at 10 % of 16 ms" \
		"$kid ($kernel) on $machine, both in one boot: $(printf %.1f "$span_1") s of sched_switch after a 0.7 s warm-up and the trace's start"
	echo 'set xlabel "time from the start of the window (ms)"'
	echo 'set ylabel "CPU (a lane per task)"'
	printf 'set yrange [-0.6:%s]\n' "$(awk -v n="$ncpu" 'BEGIN { print n - 0.4 }')"
	tics=
	for c in $cpus; do
		side=big
		case " $little " in *" $c "*) side=little ;; esac
		tics="$tics${tics:+, }\"cpu$c $side\" $c"
	done
	printf 'set ytics (%s)\n' "$tics"
	echo 'set mytics 1'
	echo 'set grid xtics'
	echo 'set style fill solid 1.0 noborder'
	echo 'set key outside right top box title "task"'
	echo 'set lmargin 17'
	echo 'set rmargin 20'
	# one time axis for every panel: the longest window
	xmax=0
	for i in $(seq 1 "$ncfg"); do
		sp=span_$i
		xmax=$(awk -v a="$xmax" -v s="${!sp}" 'BEGIN { print (s * 1000 > a ? s * 1000 : a) }')
	done
	for i in $(seq 1 "$ncfg"); do
		c=cfg_$i sl=small_little_$i st=small_top_$i bb=busy_big_$i ch=changes_$i sp=span_$i nt=ntask_$i tn=tasks_$i
		t0=start_$i
		printf 'set title "%s, from %s s after the tasks started\\nsmall tasks: %s %% of their time on little CPUs, %s %% on one CPU, %s CPU changes per task per s; busy tasks: %s %% on big CPUs"\n' \
			"$(describe "${!c}")" "${!t0}" "${!sl}" "${!st}" "${!ch}" "${!bb}"
		printf 'set xrange [0:%s]\n' "$xmax"
		echo 'unset object'
		o=1
		for cpu in $cpus; do
			fill='#eef3fb'
			case " $little " in *" $cpu "*) fill='#fdf3dc' ;; esac
			printf 'set object %d rectangle from graph 0, first %s to graph 1, first %s fillcolor rgb "%s" fillstyle solid 1.0 noborder behind\n' \
				"$o" "$cpu-0.46" "$cpu+0.46" "$fill"
			o=$((o + 1))
		done
		# a run shorter than 2 pixels is drawn 2 pixels wide
		minhalf=$(awk -v s="$xmax" 'BEGIN { printf "%.4f", s / 1200 }')
		IFS=, read -r -a names <<<"${!tn}"
		plot=
		for k in $(seq 0 $((${!nt} - 1))); do
			# each task has its own lane inside a CPU's row
			lane=$(awk -v k="$k" -v n="${!nt}" 'BEGIN { printf "%.3f", -0.44 + (k + 0.5) * 0.88 / n }')
			half=$(awk -v n="${!nt}" 'BEGIN { printf "%.3f", 0.88 / n / 2 * 0.8 }')
			plot="$plot${plot:+, }\"$work/cfg-$i.dat\" index $k using ((\$1+\$2)/2):(\$3+$lane):((\$2-\$1)/2 > $minhalf ? (\$2-\$1)/2 : $minhalf):($half) with boxxyerror lc rgb \"${colours[k % ${#colours[@]}]}\" title \"${names[k]}\""
		done
		echo "plot $plot"
	done
	echo 'unset multiplot'
} >"$gp"
rm -f "$png"
gnuplot "$gp" 2>"$work/gnuplot.err" || { cat "$work/gnuplot.err" >&2; die "gnuplot failed ($gp)"; }
if ! [ -s "$png" ] || [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
	die "no PNG was produced ($png; see $gp)"
fi
log "figure: $png"
