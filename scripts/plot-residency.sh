#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Figure: the placement benchmark's residency as bars, per scenario and
# configuration, from the table scripts/bench-placement.sh writes
# ($HMPGOV_BUILD/bench-placement.txt). Four panels: small-task time on
# little CPUs, small-task time on their busiest CPU, busy-task time on big
# CPUs, small-task migrations per task per second. Columns are found by
# their names in the table's header ("configuration scenario small%L ...")
# and rows by their shape (a label, a scenario, one value or "-" per
# column); other lines (step latencies, notes) are left out.
#
# usage: scripts/plot-residency.sh [--smoke] [TABLE [PNG]]
#   TABLE: default $HMPGOV_BUILD/bench-placement.txt
#   PNG:   default docs/img/residency.png; --smoke: $HMPGOV_BUILD/residency.png
#   environment: SUBTITLE (default: the table's name and date)
# Fails when the table has no row it can draw or no PNG is produced.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

smoke=0
[ "${1:-}" = --smoke ] && { smoke=1; shift; }
table=${1:-$HMPGOV_BUILD/bench-placement.txt}
if [ "$smoke" = 1 ]; then
	png=${2:-$HMPGOV_BUILD/residency.png}
else
	png=${2:-$HMPGOV_TOP/docs/img/residency.png}
fi
[ -s "$table" ] || die "no table $table (scripts/bench-placement.sh writes it)"
subtitle=${SUBTITLE:-"from $(basename "$table") of $(date -r "$table" +%F)"}
work=$HMPGOV_BUILD/residency
mkdir -p "$work" "$(dirname "$png")"

need_gnuplot

# The panels: column name in the table, and what it means.
panels=(
	"small%L|small-task time on little CPUs (%)"
	"small%1|small-task time on their busiest CPU (%)"
	"busy%B|busy-task time on big CPUs (%)"
	"mig/s|small-task migrations per task per second"
)

# The table as "label<TAB>scenario<TAB>column<TAB>value" rows.
awk '
	!hdr && $1 == "configuration" && $2 == "scenario" {
		hdr = 1; k = NF - 2
		for (i = 3; i <= NF; i++) col[i - 2] = $i
		next
	}
	hdr && NF >= k + 3 {
		for (i = NF - k + 1; i <= NF; i++) if ($i !~ /^(-|-?[0-9]+(\.[0-9]+)?)$/) next
		scen = $(NF - k)
		if (scen !~ /^[a-z][a-z0-9_]*$/) next
		label = $1
		for (i = 2; i < NF - k; i++) label = label " " $i
		for (i = 1; i <= k; i++) printf "%s\t%s\t%s\t%s\n", label, scen, col[i], $(NF - k + i)
	}
	END { if (!hdr) print "no header line \"configuration scenario ...\"" > "/dev/stderr" }
' "$table" >"$work/rows.tsv"
[ -s "$work/rows.tsv" ] || die "no row of $table could be read"

# Colours: a hue per stock configuration, the same hue darker for the
# hmpgov configuration that follows it (the table lists them in pairs).
light=("#f4b76b" "#8fb8de" "#9fd39a" "#c8a8dc" "#d0d0d0" "#f2a8b4")
dark=("#c7600a" "#1f5f9e" "#2e8a2a" "#6f3f96" "#606060" "#b2334a")
mapfile -t configs < <(awk -F'\t' '!seen[$1]++ { print $1 }' "$work/rows.tsv")
colours=()
hue=-1
prev_stock=0
for c in "${configs[@]}"; do
	if [[ $c == *hmpgov* ]]; then
		if [ "$prev_stock" = 1 ]; then
			colours+=("${dark[hue % ${#dark[@]}]}")
		else
			hue=$((hue + 1)); colours+=("${dark[hue % ${#dark[@]}]}")
		fi
		prev_stock=0
	else
		hue=$((hue + 1)); colours+=("${light[hue % ${#light[@]}]}")
		prev_stock=1
	fi
done

# One data file per panel: a row per scenario that has a value in that
# column, a column per configuration ("-" where it has none).
drawn=0
np=0
for p in "${panels[@]}"; do
	name=${p%%|*}
	f=$work/panel-$np.tsv
	awk -F'\t' -v want="$name" '
		!($1 in ci) { ci[$1] = ++nc; cname[nc] = $1 }
		$3 == want {
			if (!($2 in si)) { si[$2] = ++ns; sname[ns] = $2 }
			v[si[$2], ci[$1]] = $4; if ($4 != "-") has[si[$2]] = 1
		}
		END {
			printf "scenario"; for (c = 1; c <= nc; c++) printf "\t%s", cname[c]; printf "\n"
			for (s = 1; s <= ns; s++) {
				if (!has[s]) continue
				printf "%s", sname[s]
				for (c = 1; c <= nc; c++) printf "\t%s", ((s, c) in v) ? v[s, c] : "-"
				printf "\n"
			}
		}' "$work/rows.tsv" >"$f"
	if [ "$(wc -l <"$f")" -gt 1 ]; then drawn=$((drawn + 1)); fi
	np=$((np + 1))
done
[ "$drawn" -gt 0 ] || die "no value of ${panels[*]%%|*} in $table"

gp=$work/residency.gp
nc=${#configs[@]}
keyrows=$(((nc + 2) / 3))
{
	echo 'set terminal pngcairo noenhanced size 1500,1050 font "DejaVu Sans,11"'
	printf 'set output "%s"\n' "$png"
	printf 'set datafile separator "\\t"\n'
	echo 'set datafile missing "-"'
	echo 'set datafile columnheaders'
	printf 'colours = "%s"\n' "${colours[*]}"
	printf 'set multiplot title "%s\\n%s" font ",14"\n' \
		"Placement per configuration and scenario (scripts/bench-placement.sh)" "$subtitle"
	echo 'set style data histograms'
	echo 'set style histogram clustered gap 1'
	echo 'set style fill solid 1.0 border rgb "#404040"'
	echo 'set boxwidth 0.9'
	echo 'set grid ytics'
	echo 'set xtics nomirror scale 0'
	echo 'set ytics nomirror'
	echo 'unset key'
	echo 'set lmargin 9'
	echo 'set rmargin 2'
	# panels: 2 x 2 above, the legend in a strip below
	top=0.90
	bottom=$(awk -v r="$keyrows" 'BEGIN { print 0.04 + 0.035 * r }')
	h=$(awk -v t="$top" -v b="$bottom" 'BEGIN { print (t - b) / 2 }')
	i=0
	for p in "${panels[@]}"; do
		name=${p%%|*}
		what=${p#*|}
		f=$work/panel-$i.tsv
		x=$(awk -v i="$i" 'BEGIN { print (i % 2) * 0.5 }')
		y=$(awk -v i="$i" -v b="$bottom" -v h="$h" 'BEGIN { print b + (1 - int(i / 2)) * h }')
		printf 'set origin %s,%s\nset size 0.5,%s\n' "$x" "$y" "$h"
		printf 'set title "%s (%s)"\n' "$what" "$name"
		rows=$(($(wc -l <"$f") - 1))
		printf 'set xrange [-0.6:%s]\n' "$(awk -v n="$rows" 'BEGIN { print n - 0.4 }')"
		case $what in
		*"(%)") echo 'set yrange [0:119]; set ytics 0,20,100'; echo 'set ylabel "%"' ;;
		*)
			top=$(awk -F'\t' 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "-" && $i + 0 > m) m = $i + 0 }
				END { print (m > 0 ? m : 1) * 1.2 }' "$f")
			printf 'set yrange [0:%s]; set ytics autofreq\n' "$top"
			echo 'set ylabel "per task per s"' ;;
		esac
		if [ "$rows" -gt 0 ]; then
			# bars, and each bar's value above it (a cluster of nc bars
			# and a gap of one bar spans one unit of x)
			printf 'plot for [c=2:%d] "%s" using c:xtic(1) lc rgb word(colours, c - 1) notitle, \\\n' \
				$((nc + 1)) "$f"
			# shellcheck disable=SC2016
			printf '  for [c=2:%d] "%s" using ($0 + (c - 2 - (%d - 1) / 2.0) / %d):c:(stringcolumn(c)) with labels rotate by 90 left offset 0,0.4 font ",8" notitle\n' \
				$((nc + 1)) "$f" "$nc" $((nc + 1))
		else
			echo 'set label 1 "no values in the table" at graph 0.5, graph 0.5 center'
			echo 'unset xtics'
			echo 'plot NaN notitle'
			echo 'unset label 1; set xtics nomirror scale 0'
		fi
		i=$((i + 1))
	done
	# the legend: every configuration once
	printf 'set origin 0,0\nset size 1,%s\n' "$bottom"
	echo 'unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid'
	echo 'set xrange [0:1]; set yrange [0:1]'
	printf 'set key center center horizontal maxrows %d maxcols 3 reverse Left width 3 samplen 2 font ",11"\n' "$keyrows"
	plot=
	for c in $(seq 0 $((nc - 1))); do
		plot="$plot${plot:+, }NaN with boxes lc rgb \"${colours[c]}\" title \"${configs[c]//\"/}\""
	done
	echo "plot $plot"
	echo 'unset multiplot'
} >"$gp"
rm -f "$png"
gnuplot "$gp" 2>"$work/gnuplot.err" || { cat "$work/gnuplot.err" >&2; die "gnuplot failed ($gp)"; }
if ! [ -s "$png" ] || [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
	die "no PNG was produced ($png; see $gp)"
fi
log "figure: $png ($nc configurations, $drawn panels with values)"
